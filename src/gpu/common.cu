/*
 * common.cu — devices, errors, pinned memory and the constant self-check of the CUDA backend.
 */
#include <cerrno>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>
#include <cstdio>
#include <cuda.h> /* driver API types only (CUresult, CU_CTX_SCHED_*): no libcuda link */
#include "cpu_headers.cuh"
#include "common.cuh"
#include "constants.cuh"
#include "util/settings.h"

namespace pmgpu {

pm_status cuda_fail(pm_error *err, cudaError_t e, const char *expr, const char *file, int line) {
    pm_status st = (e == cudaErrorMemoryAllocation) ? PM_ERR_NOMEM : PM_ERR_GPU;
    (void)cudaGetLastError(); /* clear a non-sticky error so the device stays usable */
    /* the source line goes into the message: pm_error.offset is a byte offset in an input file */
    return pm_error_set(err, st, "", PM_NO_OFFSET, "%s failed at %s:%d: %s (%s)", expr, file, line,
                        cudaGetErrorName(e), cudaGetErrorString(e));
}

cudaError_t dmalloc(void **p, size_t b) {
    cudaError_t e = cudaMalloc(p, b ? b : 16);
    if ((b >= ((size_t)1 << 20) || e != cudaSuccess) && pm_setting_bool("gpu.verbose")) {
        size_t fr = 0, tot = 0;
        int dev = -1;
        (void)cudaGetDevice(&dev);
        if (cudaMemGetInfo(&fr, &tot) != cudaSuccess) { (void)cudaGetLastError(); fr = tot = 0; }
        fprintf(stderr, "gpu alloc (device %d): %.3f GiB %s, %.2f GiB of %.2f GiB in use\n", dev,
                (double)b / (1u << 30), e == cudaSuccess ? "ok" : "REFUSED", (double)(tot - fr) / (1u << 30),
                (double)tot / (1u << 30));
    }
    return e;
}

template <class P> static bool limbs_match(const uint64_t *l, uint32_t (*f)(int)) {
    for (int i = 0; i < P::N; i++) {
        uint32_t w = (uint32_t)(l[i / 2] >> (32 * (i % 2)));
        if (w != f(i)) return false;
    }
    return true;
}

pm_status self_check(pm_error *err) {
    bool ok = limbs_match<fp_params>(FP_MODULUS.l, &fp_params::mod) && limbs_match<fp_params>(FP_ONE.l, &fp_params::one) &&
              limbs_match<fr_params>(FR_MODULUS.l, &fr_params::mod) && limbs_match<fr_params>(FR_ONE.l, &fr_params::one) &&
              (uint32_t)FP_N0 == fp_params::N0 && (uint32_t)FR_N0 == fr_params::N0;
    if (!ok)
        return pm_error_set(err, PM_ERR_INTERNAL, "", PM_NO_OFFSET,
                            "src/gpu/constants.cuh disagrees with the CPU field constants: regenerate it "
                            "(python3 src/gpu/gen_constants.py)");
    return PM_OK;
}

} /* namespace pmgpu */

using namespace pmgpu;

/* gpu.sync: the schedule flag of every device's primary context, before the process uses them;
 * "auto" leaves CUDA's default. Set through the driver's cuDevicePrimaryCtxSetFlags (found with the
 * runtime's entry-point query, so libcuda is not linked): unlike cudaSetDevice + cudaSetDeviceFlags
 * it does not create the primary context of a card the process never uses (~0.5 GiB each on
 * CUDA 12 and later). The other context flags are kept. A refusal is reported once per device and
 * costs only the waiting mode. Flag values: CUDA driver API, CUctx_flags (CU_CTX_SCHED_*). */
typedef CUresult (*pm_cu_device_get_t)(CUdevice *, int);
typedef CUresult (*pm_cu_primary_state_t)(CUdevice, unsigned int *, int *);
typedef CUresult (*pm_cu_primary_flags_t)(CUdevice, unsigned int);
static void *driver_entry(const char *name) {
    void *fn = nullptr;
#if CUDART_VERSION >= 12000
    cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
    cudaError_t e = cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &q);
#else
    cudaError_t e = cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault, &q);
#endif
    bool found = e == cudaSuccess && q == cudaDriverEntryPointSuccess;
#elif CUDART_VERSION >= 11030
    cudaError_t e = cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault);
    bool found = e == cudaSuccess;
#else
    (void)name; /* no entry-point query before CUDA 11.3: gpu.sync keeps CUDA's default */
    bool found = false;
#endif
    if (!found || !fn) {
        (void)cudaGetLastError();
        return nullptr;
    }
    return fn;
}
static void apply_sync_flags(int n) {
    const char *m = pm_setting_str("gpu.sync");
    unsigned f = 0;
    if (!m || !strcmp(m, "auto")) return;
    if (!strcmp(m, "spin")) f = CU_CTX_SCHED_SPIN;
    else if (!strcmp(m, "yield")) f = CU_CTX_SCHED_YIELD;
    else if (!strcmp(m, "blocking")) f = CU_CTX_SCHED_BLOCKING_SYNC;
    else return;
    pm_cu_device_get_t dev_get = (pm_cu_device_get_t)driver_entry("cuDeviceGet");
    pm_cu_primary_state_t get_state = (pm_cu_primary_state_t)driver_entry("cuDevicePrimaryCtxGetState");
    pm_cu_primary_flags_t set_flags = (pm_cu_primary_flags_t)driver_entry("cuDevicePrimaryCtxSetFlags");
    if (!dev_get || !get_state || !set_flags) {
        fprintf(stderr, "proofmill: gpu.sync=%s: the CUDA driver lacks cuDevicePrimaryCtxSetFlags; the waiting mode is CUDA's default\n", m);
        return;
    }
    for (int d = 0; d < n; d++) {
        CUdevice dev = 0;
        unsigned int flags = 0;
        int active = 0;
        CUresult r = dev_get(&dev, d);
        if (r == CUDA_SUCCESS) r = get_state(dev, &flags, &active);
        if (r == CUDA_SUCCESS) r = set_flags(dev, (flags & ~(unsigned)CU_CTX_SCHED_MASK) | f);
        if (r != CUDA_SUCCESS) fprintf(stderr, "proofmill: gpu.sync=%s: device %d keeps its waiting mode (CUDA driver error %d)\n", m, d, (int)r);
    }
}

extern "C" int gpu_available(void) {
    static int cached = -1;
    if (cached >= 0) return cached;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) { (void)cudaGetLastError(); n = 0; }
    if (n > 0) apply_sync_flags(n);
    cached = n;
    return n;
}

extern "C" pm_status gpu_self_check(pm_error *err) { return self_check(err); }

extern "C" pm_status gpu_device_info(gpu_device_info_t *out, int dev, pm_error *err) {
    if (!out) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_device_info: out is NULL");
    memset(out, 0, sizeof *out);
    if (dev < 0 || dev >= gpu_available())
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_device_info: no device %d (%d available)", dev,
                            gpu_available());
    cudaDeviceProp p;
    PMCU(cudaGetDeviceProperties(&p, dev));
    snprintf(out->name, sizeof out->name, "%s", p.name);
    out->major = p.major;
    out->minor = p.minor;
    out->sm_count = p.multiProcessorCount;
    out->l2_bytes = (size_t)p.l2CacheSize;
    snprintf(out->pci_bus_id, sizeof out->pci_bus_id, "%04x:%02x:%02x.0", (unsigned)p.pciDomainID & 0xffffu,
             (unsigned)p.pciBusID & 0xffu, (unsigned)p.pciDeviceID & 0x1fu);
    if (cudaDriverGetVersion(&out->cuda_driver) != cudaSuccess) out->cuda_driver = 0;
    int cur = 0;
    PMCU(cudaGetDevice(&cur));
    PMCU(cudaSetDevice(dev));
    size_t fr = 0, tot = 0;
    cudaError_t e = cudaMemGetInfo(&fr, &tot);
    cudaSetDevice(cur);
    PMCU(e);
    out->mem_free = fr;
    out->mem_total = tot;
    return PM_OK;
}

extern "C" pm_status gpu_set_device(int dev, pm_error *err) {
    if (dev < 0 || dev >= gpu_available())
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_set_device: no device %d", dev);
    PMCU(cudaSetDevice(dev));
    return PM_OK;
}

extern "C" pm_status gpu_host_alloc(void **out, size_t bytes, pm_error *err) {
    if (!out) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_host_alloc: out is NULL");
    *out = nullptr;
    if (gpu_available() == 0) return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "gpu_host_alloc: no CUDA device");
    PMCU(cudaHostAlloc(out, bytes ? bytes : 16, cudaHostAllocDefault));
    return PM_OK;
}

extern "C" void gpu_host_free(void *p) {
    if (p) cudaFreeHost(p);
}

extern "C" pm_status gpu_host_alloc_pieces(void **out, size_t bytes, pm_error *err) {
    if (!out) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_host_alloc_pieces: out is NULL");
    *out = nullptr;
    if (gpu_available() == 0) return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "gpu_host_alloc_pieces: no CUDA device");
    const size_t len = bytes ? bytes : 16;
    /* the mapping starts at a multiple of GPU_HOST_PIECE_BYTES, so every piece boundary is one:
     * gpu_copy_to/from_device cut pinned copies there without knowing the buffer's start */
    void *raw = mmap(nullptr, len + GPU_HOST_PIECE_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "pinned staging: cannot map %zu bytes: %s", len, strerror(errno));
    const uintptr_t r = (uintptr_t)raw, a = (r + GPU_HOST_PIECE_BYTES - 1) & ~(uintptr_t)(GPU_HOST_PIECE_BYTES - 1);
    const size_t pg = (size_t)sysconf(_SC_PAGESIZE), span = (len + pg - 1) & ~(pg - 1);
    /* mapped: [r, r + span + piece); kept: [a, a + span) (gpu_host_free_pieces unmaps it) */
    if (a > r) munmap(raw, a - r);
    munmap(reinterpret_cast<void *>(a + span), GPU_HOST_PIECE_BYTES - (a - r));
    void *p = reinterpret_cast<void *>(a);
    for (size_t off = 0; off < len; off += GPU_HOST_PIECE_BYTES) {
        const size_t n = len - off < GPU_HOST_PIECE_BYTES ? len - off : GPU_HOST_PIECE_BYTES;
        cudaError_t e = cudaHostRegister(static_cast<char *>(p) + off, n, cudaHostRegisterPortable);
        if (e != cudaSuccess) {
            (void)cudaGetLastError();
            for (size_t o = 0; o < off; o += GPU_HOST_PIECE_BYTES) cudaHostUnregister(static_cast<char *>(p) + o);
            munmap(p, len);
            return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "pinned staging: cannot page-lock %zu bytes at %zu of %zu: %s",
                                n, off, len, cudaGetErrorString(e));
        }
        if (off + n < len) pmgpu::yield_now(); /* gpu.h: between the pieces */
    }
    *out = p;
    return PM_OK;
}

extern "C" void gpu_host_free_pieces(void *p, size_t bytes) {
    if (!p) return;
    const size_t len = bytes ? bytes : 16;
    for (size_t off = 0; off < len; off += GPU_HOST_PIECE_BYTES) cudaHostUnregister(static_cast<char *>(p) + off);
    munmap(p, len);
}

/* the page-rounded range of [p, p + bytes) */
static void page_range(const void *p, size_t bytes, char **lo, size_t *len) {
    const uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)p & ~(pg - 1);
    const uintptr_t e = ((uintptr_t)p + (bytes ? bytes : 1) + pg - 1) & ~(pg - 1);
    *lo = reinterpret_cast<char *>(a);
    *len = (size_t)(e - a);
}

extern "C" pm_status gpu_host_register(const void *p, size_t bytes, pm_error *err) {
    if (!p) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_host_register: NULL range");
    if (gpu_available() == 0) return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "gpu_host_register: no CUDA device");
    char *lo;
    size_t len;
    page_range(p, bytes, &lo, &len);
    /* ONE registration: a copy that spans two registrations is refused (cudaErrorInvalidValue), and
     * the streamed MSM copies chunks anywhere in the range */
    cudaError_t e = cudaHostRegister(lo, len, cudaHostRegisterPortable | cudaHostRegisterMapped); /* mapped: msm_stream.cuh reads it from kernels */
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "cannot page-lock %zu bytes: %s", len, cudaGetErrorString(e));
    }
    return PM_OK;
}

extern "C" void gpu_host_unregister(const void *p, size_t bytes) {
    if (!p) return;
    char *lo;
    size_t len;
    page_range(p, bytes, &lo, &len);
    if (cudaHostUnregister(lo) != cudaSuccess) (void)cudaGetLastError();
}

extern "C" int gpu_host_is_pinned(const void *p) {
    if (!p || gpu_available() == 0) return 0;
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeHost;
}

namespace {
thread_local gpu_yield_fn tl_yield = nullptr;
thread_local void *tl_yield_ctx = nullptr;
} // namespace

extern "C" void gpu_set_yield(gpu_yield_fn fn, void *ctx) {
    tl_yield = fn;
    tl_yield_ctx = fn ? ctx : nullptr;
}

namespace pmgpu {
bool yield_armed() { return tl_yield != nullptr; }
void yield_now() {
    if (tl_yield) tl_yield(tl_yield_ctx);
}
cudaError_t copy_h2d_pieces(void *dst, const void *src, size_t bytes, cudaStream_t s) {
    for (size_t off = 0; off < bytes; off += GPU_UPLOAD_PIECE_BYTES) {
        const size_t n = bytes - off < GPU_UPLOAD_PIECE_BYTES ? bytes - off : GPU_UPLOAD_PIECE_BYTES;
        if (off) yield_now();
        cudaError_t e = cudaMemcpyAsync(static_cast<char *>(dst) + off, static_cast<const char *>(src) + off, n,
                                        cudaMemcpyHostToDevice, s);
        if (e == cudaSuccess) e = cudaStreamSynchronize(s); /* a pageable copy may return before its DMA lands */
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}
} // namespace pmgpu
