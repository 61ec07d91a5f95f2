/*
 * msm_handle.cuh — the bases handles behind gpu.h's gpu_g1_bases / gpu_g2_bases (internal to
 * src/gpu, shared by msm.cu and fixed_base.cu): one template over the group.
 *
 * A handle either holds its n points resident on the device (pts), or only a pointer to them in
 * pinned host memory (host_pts) plus a chunk size: then every MSM streams the bases through two
 * device buffers, chunk c+1 copied on the side stream while chunk c's kernels run.
 * The executor (streams, events, scratch slots) lives in the handle: scratch grows on first use
 * and is kept, so repeated MSMs do not allocate.
 */
#pragma once
#include <new>
#include "cpu_headers.cuh"
#include "msm_stream.cuh"

namespace pmgpu {

template <class G> struct bases_handle {
    typedef typename G::E E;
    int device = 0;
    size_t n = 0;
    aff_t<E> *pts = nullptr;                   /* resident bases (owned), or NULL */
    const typename G::cpu_aff *host_pts = nullptr; /* streamed bases (caller's pinned memory) */
    const void *host_dev = nullptr;            /* streamed: host_pts as kernels address it (mapped), or NULL */
    size_t chunk_points = 0;                   /* streamed: points per chunk */
    size_t item_cap = 0;                       /* items per window group (0 = the group's default) */
    exec_dev ex;
    gpu_msm_timing_t timing;
    /* streamed: a prefetched prefix (gpu.h gpu_g1_bases_prefetch): pre_n points at pre_pts (the
     * caller's device buffer), copied on pre_st, landed at pre_ev */
    const aff_t<E> *pre_pts = nullptr;
    size_t pre_n = 0;
    cudaStream_t pre_st = nullptr;
    cudaEvent_t pre_ev = nullptr;
    bases_handle() { memset(&timing, 0, sizeof timing); }
    ~bases_handle() {
        if (pre_st) { cudaStreamSynchronize(pre_st); cudaStreamDestroy(pre_st); }
        if (pre_ev) cudaEventDestroy(pre_ev);
        if (pts) cudaFree(pts);
    }
};

/* make a handle on the current device; resident: allocate n points */
template <class H> pm_status handle_make(H **out, size_t n, bool resident, pm_error *err) {
    *out = nullptr;
    if (gpu_available() == 0) return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "no CUDA device");
    if (n >= ((size_t)1 << 31)) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu bases: n = %zu >= 2^31", n);
    pm_status st = self_check(err);
    if (st != PM_OK) return st;
    H *b = new (std::nothrow) H();
    if (!b) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "gpu bases: host allocation failed");
    cudaError_t e = cudaGetDevice(&b->device);
    if (e == cudaSuccess) e = b->ex.init();
    if (e == cudaSuccess && resident) e = dmalloc((void **)&b->pts, (n ? n : 1) * sizeof(*b->pts));
    if (e != cudaSuccess) {
        b->pts = nullptr;
        delete b;
        return cuda_fail(err, e, resident ? "cudaMalloc(points)" : "stream/event creation", __FILE__, __LINE__);
    }
    b->ex.lane_override = (size_t)pm_setting_u64("gpu.msm_lanes"); /* PROOFMILL_GPU_MSM_LANES; 0: none */
    b->n = n;
    *out = b;
    return PM_OK;
}

/* switch to the handle's device for the scope of a call */
struct device_scope {
    int prev = -1;
    explicit device_scope(int dev) {
        if (cudaGetDevice(&prev) != cudaSuccess) prev = -1;
        if (prev != dev) cudaSetDevice(dev);
    }
    ~device_scope() {
        int cur = -1;
        if (prev >= 0 && cudaGetDevice(&cur) == cudaSuccess && cur != prev) cudaSetDevice(prev);
    }
};

} /* namespace pmgpu */

struct gpu_g1_bases : pmgpu::bases_handle<pmgpu::g1_group> {};
struct gpu_g2_bases : pmgpu::bases_handle<pmgpu::g2_group> {};
