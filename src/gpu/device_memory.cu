/*
 * device_memory.cu — plain device allocation and copies for the callers of gpu.h's device-pointer
 * functions (the H pipelines, the SpMV, GPU_MSM_SCALARS_DEVICE). Contract in gpu.h.
 */
#include "cpu_headers.cuh"
#include "common.cuh"

#include <cstring>
#include <mutex>
#include <thread>

using namespace pmgpu;

extern "C" pm_status gpu_dev_alloc(void **out, size_t bytes, pm_error *err) {
    if (!out) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_dev_alloc: out is NULL");
    *out = nullptr;
    PMCU(dmalloc(out, bytes));
    return PM_OK;
}

extern "C" void gpu_dev_free(void *p) {
    if (p) cudaFree(p);
}

/* ---- host -> device copies from pageable memory, staged through pinned memory ----
 * A DMA from pageable memory runs at ~7 GB/s on the device machine's PCIe Gen5 x16 (the driver copies
 * it through its own small bounce buffers), pinned at ~50 GB/s. A large pageable source (the a, b, c
 * the CPU SpMV makes at tiers 2-5: 12.9 GB per 32 GiB partition, 1.8 s pageable) goes through two
 * pinned staging buffers of STAGE_CHUNK bytes per device instead: chunk i+1 is copied into one
 * buffer by STAGE_THREADS host threads (memcpy, each its share) while the DMA of chunk i leaves the
 * other, so the copy runs at the slower of the threads' memcpy and the bus. The pair of a device is
 * made at its first staged copy (cudaHostAlloc of 2 x 64 MiB, ~0.03 s, kept for the process) and
 * used by one copy at a time (a mutex: the bus is the device's either way). Sources smaller than
 * STAGE_MIN, or already pinned, are copied directly, and so is everything on a device whose pair
 * the driver refused. Measured on the H100 (2026-12-06, docs/perf/devplan.md): the 24 GB plan's
 * steady s/proof 72.4 -> 53.1 s. */
#define STAGE_CHUNK ((size_t)64 << 20)
#define STAGE_MIN ((size_t)32 << 20)
#define STAGE_THREADS 8
#define STAGE_MAX_DEVICES 64

namespace {
struct stage_pair {
    std::mutex mu;
    void *buf[2] = {nullptr, nullptr};
    cudaEvent_t done[2] = {nullptr, nullptr};
    cudaStream_t stream = nullptr;
    bool ready = false;
    bool failed = false; /* the driver refused the pair once: direct copies from then on */
};
stage_pair stage_pairs[STAGE_MAX_DEVICES];

void par_memcpy(void *dst, const void *src, size_t len) {
    const size_t per = ((len + STAGE_THREADS - 1) / STAGE_THREADS + 63) & ~(size_t)63; /* 8 x per >= len */
    std::thread th[STAGE_THREADS];
    unsigned started = 0;
    for (unsigned t = 1; t < STAGE_THREADS && (size_t)t * per < len; t++, started++) {
        const size_t off = (size_t)t * per, n = len - off < per ? len - off : per;
        th[t] = std::thread([=] { memcpy((char *)dst + off, (const char *)src + off, n); });
    }
    memcpy(dst, src, len < per ? len : per);
    for (unsigned t = 1; t <= started; t++) th[t].join();
}
} // namespace

/* Make the device's staging pair (the caller holds sp.mu and has dev current): false, with
 * nothing kept, when the driver refuses (pinned memory is a limited resource: RLIMIT_MEMLOCK, a
 * busy host); the copies then take the direct pageable path, slower but correct. */
static bool stage_pair_make(stage_pair &sp) {
    bool ok = true;
    for (int b = 0; b < 2 && ok; b++)
        ok = cudaHostAlloc(&sp.buf[b], STAGE_CHUNK, cudaHostAllocPortable) == cudaSuccess &&
             cudaEventCreateWithFlags(&sp.done[b], cudaEventDisableTiming) == cudaSuccess;
    ok = ok && cudaStreamCreateWithFlags(&sp.stream, cudaStreamNonBlocking) == cudaSuccess;
    if (!ok) {
        for (int b = 0; b < 2; b++) {
            if (sp.buf[b]) cudaFreeHost(sp.buf[b]);
            if (sp.done[b]) cudaEventDestroy(sp.done[b]);
            sp.buf[b] = nullptr;
            sp.done[b] = nullptr;
        }
        (void)cudaGetLastError(); /* the refusal is not the next call's error */
    }
    return ok;
}

/* Device dev's staging pair, locked into `lock` (one staged copy at a time per device), made at
 * the first call; NULL when the driver refused it (now or before). */
static stage_pair *stage_pair_of(int dev, std::unique_lock<std::mutex> &lock) {
    stage_pair &sp = stage_pairs[dev];
    lock = std::unique_lock<std::mutex>(sp.mu);
    if (sp.failed) return nullptr;
    if (!sp.ready && !(sp.ready = stage_pair_make(sp))) {
        sp.failed = true;
        return nullptr;
    }
    return &sp;
}

/* PM_ERR_NOMEM without touching err when the device has no staging pair (the caller copies
 * directly); else the staged copy's status. */
static pm_status staged_copy_to_device(void *dst_dev, const void *src, size_t bytes, int dev, pm_error *err) {
    std::unique_lock<std::mutex> lock;
    stage_pair *pair = stage_pair_of(dev, lock);
    if (!pair) return PM_ERR_NOMEM;
    stage_pair &sp = *pair;
    size_t off = 0;
    for (unsigned i = 0; off < bytes; i++) {
        const int b = (int)(i & 1);
        const size_t len = bytes - off < STAGE_CHUNK ? bytes - off : STAGE_CHUNK;
        PMCU(cudaEventSynchronize(sp.done[b])); /* the DMA that last read this buffer has finished */
        par_memcpy(sp.buf[b], (const char *)src + off, len);
        PMCU(cudaMemcpyAsync((char *)dst_dev + off, sp.buf[b], len, cudaMemcpyHostToDevice, sp.stream));
        PMCU(cudaEventRecord(sp.done[b], sp.stream));
        off += len;
    }
    PMCU(cudaStreamSynchronize(sp.stream));
    return PM_OK;
}

/* The reverse (device -> pageable host) through the same pair: the DMA of chunk i + 1 into one
 * buffer while the threads copy chunk i out of the other (tier 4's A^ and D: 8.6 GB per 32 GiB
 * partition). Same PM_ERR_NOMEM convention. */
static pm_status staged_copy_from_device(void *dst, const void *src_dev, size_t bytes, int dev, pm_error *err) {
    std::unique_lock<std::mutex> lock;
    stage_pair *pair = stage_pair_of(dev, lock);
    if (!pair) return PM_ERR_NOMEM;
    stage_pair &sp = *pair;
    const size_t chunks = (bytes + STAGE_CHUNK - 1) / STAGE_CHUNK;
    auto issue = [&](size_t i) -> pm_status {
        const int b = (int)(i & 1);
        const size_t off = i * STAGE_CHUNK, len = bytes - off < STAGE_CHUNK ? bytes - off : STAGE_CHUNK;
        PMCU(cudaMemcpyAsync(sp.buf[b], (const char *)src_dev + off, len, cudaMemcpyDeviceToHost, sp.stream));
        PMCU(cudaEventRecord(sp.done[b], sp.stream));
        return PM_OK;
    };
    pm_status st = issue(0);
    for (size_t i = 0; st == PM_OK && i < chunks; i++) {
        /* buffer (i + 1) & 1 was last read by chunk i - 1's memcpy below, finished */
        if (i + 1 < chunks && (st = issue(i + 1)) != PM_OK) break;
        const int b = (int)(i & 1);
        const size_t off = i * STAGE_CHUNK, len = bytes - off < STAGE_CHUNK ? bytes - off : STAGE_CHUNK;
        const cudaError_t e = cudaEventSynchronize(sp.done[b]);
        if (e != cudaSuccess) {
            st = cuda_fail(err, e, "cudaEventSynchronize(sp.done[b])", __FILE__, __LINE__);
            break;
        }
        par_memcpy((char *)dst + off, sp.buf[b], len);
    }
    cudaStreamSynchronize(sp.stream); /* nothing in flight into the pair when the lock goes */
    return st;
}

/* A direct copy (stream 0, waited for) cut where the host address crosses a multiple of
 * GPU_HOST_PIECE_BYTES: pinned memory from gpu_host_alloc_pieces is registered piece by piece, from
 * an aligned start, and one copy may not span two registrations (cudaErrorInvalidValue). A source
 * in one registration or pageable memory copies the same in more calls (64 MiB each: ~1.5 ms of
 * bus time against a few microseconds per call). */
namespace pmgpu {
cudaError_t copy_cut_async(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, const void *host, cudaStream_t s) {
    const uintptr_t h = (uintptr_t)host;
    for (size_t off = 0; off < bytes;) {
        const size_t edge = GPU_HOST_PIECE_BYTES - (size_t)((h + off) & (uintptr_t)(GPU_HOST_PIECE_BYTES - 1));
        const size_t len = bytes - off < edge ? bytes - off : edge;
        const cudaError_t e = cudaMemcpyAsync((char *)dst + off, (const char *)src + off, len, kind, s);
        if (e != cudaSuccess) return e;
        off += len;
    }
    return cudaSuccess;
}
} /* namespace pmgpu */

static pm_status direct_copy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, const void *host, pm_error *err) {
    const cudaError_t e = ::pmgpu::copy_cut_async(dst, src, bytes, kind, host, 0);
    if (e != cudaSuccess) {
        cudaStreamSynchronize(0); /* the pieces queued before it land before the caller reuses the buffer */
        return ::pmgpu::cuda_fail(err, e, "cudaMemcpyAsync (a piece of a direct copy)", __FILE__, __LINE__);
    }
    PMCU(cudaStreamSynchronize(0));
    return PM_OK;
}

extern "C" pm_status gpu_copy_to_device(void *dst_dev, const void *src, size_t bytes, pm_error *err) {
    if ((!dst_dev || !src) && bytes) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_copy_to_device: NULL pointer");
    if (!bytes) return PM_OK;
    int dev = 0;
    if (bytes >= STAGE_MIN && !gpu_host_is_pinned(src) && cudaGetDevice(&dev) == cudaSuccess && dev >= 0 &&
        dev < STAGE_MAX_DEVICES) {
        const pm_status st = staged_copy_to_device(dst_dev, src, bytes, dev, err);
        if (st != PM_ERR_NOMEM) return st;
    }
    /* async + stream sync: a plain cudaMemcpy from pageable memory may return before its DMA lands,
     * and kernels on the library's non-blocking streams would not wait for it */
    return direct_copy(dst_dev, src, bytes, cudaMemcpyHostToDevice, src, err);
}

extern "C" pm_status gpu_copy_from_device(void *dst, const void *src_dev, size_t bytes, pm_error *err) {
    if ((!dst || !src_dev) && bytes) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_copy_from_device: NULL pointer");
    if (!bytes) return PM_OK;
    /* gpu.h's functions return after their kernels finished, so the data is there */
    int dev = 0;
    if (bytes >= STAGE_MIN && !gpu_host_is_pinned(dst) && cudaGetDevice(&dev) == cudaSuccess && dev >= 0 &&
        dev < STAGE_MAX_DEVICES) {
        const pm_status st = staged_copy_from_device(dst, src_dev, bytes, dev, err);
        if (st != PM_ERR_NOMEM) return st;
    }
    return direct_copy(dst, src_dev, bytes, cudaMemcpyDeviceToHost, dst, err);
}
