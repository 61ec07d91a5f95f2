/*
 * msm.cu — the C API of the device MSM for G1 and G2 (gpu.h): bases handles (resident or streamed
 * from pinned host memory), plain and gathered MSMs, density index lists, device scalar buffers.
 * The algorithm is msm_core.cuh's msm_run, one template for both groups, run here with the
 * device executor (msm_exec.cuh); this file only checks arguments, plans chunks and sums them.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include "msm_handle.cuh"
#include "util/verify.h"

using namespace pmgpu;

struct gpu_msm_index {
    int device;
    size_t n;
    uint32_t *p;
    uint32_t max;
};
struct gpu_fr_buf {
    int device;
    size_t n;
    fr_t *p;
};

namespace {

template <class G> size_t default_lanes() {
    int dev = 0, sms = 132;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) {
        (void)cudaGetLastError();
        sms = 132;
    }
    return (size_t)sms * GPU_SIZES_LANES_PER_SM;
}

/* points per chunk of a streamed MSM within budget bytes (bases buffers + scratch): gpu_sizes.h */
template <class G> size_t chunk_points_for(size_t budget) {
    return gpu_sizes_chunk_points(msm_sizes<G>(), budget, default_lanes<G>(), 1);
}

/* p (page-locked host memory) as kernels on the current device address it (cudaPointerGetAttributes'
 * devicePointer: defined for the current device, for any address inside a registration); NULL when
 * the memory is not page-locked or not mapped for this device (then a streamed MSM copies every
 * point: msm_stream.cuh) */
static const void *mapped_host(const void *p) {
    cudaPointerAttributes at;
    if (!p || cudaPointerGetAttributes(&at, p) != cudaSuccess || at.type != cudaMemoryTypeHost || !at.devicePointer) {
        (void)cudaGetLastError();
        return nullptr;
    }
    return at.devicePointer;
}

template <class G, class H> pm_status bases_upload(H **out, const typename G::cpu_aff *points, size_t n, pm_error *err) {
    if (!out || (!points && n)) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu bases upload: NULL argument");
    H *b;
    pm_status st = handle_make(&b, n, true, err);
    if (st != PM_OK) return st;
    /* async on the handle's stream and waited for: a plain cudaMemcpy from pageable memory may
     * return before its DMA lands, and the MSM kernels run on a non-blocking stream */
    cudaError_t e = copy_h2d_pieces(b->pts, points, n * sizeof(*points), b->ex.s); /* with preemption points */
    if (e != cudaSuccess) { delete b; return cuda_fail(err, e, "cudaMemcpy(points)", __FILE__, __LINE__); }
    *out = b;
    return PM_OK;
}

template <class G, class H>
pm_status bases_host(H **out, const typename G::cpu_aff *pinned, size_t n, size_t chunk, size_t budget, pm_error *err) {
    if (!out || (!pinned && n)) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu bases (streamed): NULL argument");
    *out = nullptr;
    if (gpu_available() == 0) return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "no CUDA device");
    if (!chunk) {
        if (!budget) {
            size_t fr = 0, tot = 0;
            if (cudaMemGetInfo(&fr, &tot) != cudaSuccess) { (void)cudaGetLastError(); fr = 0; }
            budget = fr / 4;
        }
        chunk = chunk_points_for<G>(budget);
        if (!chunk)
            return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu bases (streamed): a device budget of %zu bytes is below what 2^16 points need (%zu)",
                                budget, msm_scratch_bytes<G>((size_t)1 << 16, (size_t)1 << 16, default_lanes<G>()));
    }
    H *b;
    pm_status st = handle_make(&b, n, false, err);
    if (st != PM_OK) return st;
    b->host_pts = pinned;
    b->host_dev = mapped_host(pinned);
    b->chunk_points = chunk < n ? chunk : (n ? n : 1);
    b->item_cap = b->chunk_points;
    *out = b;
    return PM_OK;
}

template <class H, class A> pm_status bases_download(A *out, size_t count, const H *b, size_t first, pm_error *err) {
    if (!b || (!out && count) || first > b->n || count > b->n - first)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu bases download: bad range");
    if (b->host_pts) {
        memcpy(out, b->host_pts + first, count * sizeof(A));
        return PM_OK;
    }
    device_scope ds(b->device);
    PMCU(cudaMemcpy(out, b->pts + first, count * sizeof(A), cudaMemcpyDeviceToHost));
    return PM_OK;
}

template <class G, class H>
pm_status msm_api(typename G::cpu_jac *r, const H *cb, size_t first, const fr_t *scalars, size_t n, const gpu_msm_index *ix,
                  size_t n_witness, unsigned flags, pm_error *err) {
    if (!r) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu msm: r is NULL");
    G::jac_inf(r);
    if (ix) n = ix->n;
    if (!cb || (!scalars && (n || (ix && n_witness)))) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu msm: NULL argument");
    if (first > cb->n || n > cb->n - first)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu msm: range [%zu, %zu) outside %zu bases", first, first + n, cb->n);
    if (ix && n && (size_t)ix->max >= n_witness)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu msm gather: index %u outside the witness of %zu values", ix->max,
                            n_witness);
    H *b = const_cast<H *>(cb); /* scratch and timing are mutable state */
    memset(&b->timing, 0, sizeof b->timing);
    if (n == 0) return PM_OK;
    device_scope ds(b->device);
    exec_dev &ex = b->ex;
    msm_args_t a;
    memset(&a, 0, sizeof a);
    a.src = (flags & GPU_MSM_SCALARS_DEVICE) ? MSM_SRC_DEVICE : MSM_SRC_HOST;
    a.mont = (flags & GPU_MSM_SCALARS_MONT) ? 1 : 0;
    a.split = (flags & GPU_MSM_NO_01_SPLIT) ? 0 : 1;
    a.item_cap = b->item_cap;
    a.tune = msm_tune_from_env(); /* run-time variants (PROOFMILL_GPU_MSM_ACC, ...; msm_core.cuh) */
    a.times = pm_setting_bool("gpu.verbose") || pm_setting_bool("gpu.msm_times"); /* gpu_msm_timing_t's phases */
    /* gpu.msm_window = c (PROOFMILL_GPU_MSM_WINDOW) forces the window (benchmarks of the cost model; 1..22) */
    if (const uint64_t c = pm_setting_u64("gpu.msm_window")) a.force_c = (unsigned)c;
    const fr_t *wit = scalars;
    if (ix) {
        a.gather = ix->p;
        a.n_witness = n_witness;
        if (a.src == MSM_SRC_HOST) { /* the witness once, for every chunk */
            fr_t *wd = static_cast<fr_t *>(ex.grow(SLOT_WIT, n_witness * sizeof(fr_t)));
            ex.h2d(wd, scalars, n_witness * sizeof(fr_t));
            if (!ex.ok()) return ex.fail(err, "gpu msm gather: witness upload");
            wit = wd;
            a.src = MSM_SRC_DEVICE;
        }
    }
    /* streamed, or resident in chunks (set_chunk): the schedule of gpu_sizes.h, msm_stream.cuh */
    msm_stream_t in;
    memset(&in, 0, sizeof in);
    in.n = n;
    in.chunk = b->chunk_points;
    in.res_pts = b->host_pts ? nullptr : static_cast<const void *>(b->pts + first);
    in.host_pts = b->host_pts ? static_cast<const void *>(b->host_pts + first) : nullptr;
    in.host_dev = b->host_pts && b->host_dev ? static_cast<const void *>(static_cast<const typename G::cpu_aff *>(b->host_dev) + first)
                                             : nullptr;
    in.gather = ix ? ix->p : nullptr;
    in.scalars = wit;
    in.keep = pm_setting_bool("gpu.msm_keep_buckets");
    in.count_window = pm_setting_bool("gpu.msm_count_window"); /* PROOFMILL_GPU_MSM_COUNT_WINDOW */
    in.pack = (unsigned)pm_setting_u64("gpu.msm_skip_zero"); /* PROOFMILL_GPU_MSM_SKIP_ZERO */
    /* a prefetched prefix: its copy lands before its kernels; not for an MSM of one piece (it would add a
     * chunk, and the kept buckets the plan did not count for a one-piece MSM) */
    if (b->host_pts && b->pre_n && first == 0 && b->chunk_points < n) {
        PMCU(cudaStreamWaitEvent(ex.s, b->pre_ev, 0));
        in.pre_pts = b->pre_pts;
        in.pre_n = b->pre_n;
    }
    return msm_chunks<G>(ex, r, a, in, b->timing, err);
}

template <class H> void prefetch_drop(H *b) {
    if (!b || !b->pre_n) return;
    device_scope ds(b->device);
    cudaStreamSynchronize(b->pre_st); /* the caller writes the buffer next */
    (void)cudaGetLastError();
    b->pre_pts = nullptr;
    b->pre_n = 0;
}

template <class H> pm_status prefetch(H *b, void *dst, size_t bytes, size_t *out_points, pm_error *err) {
    if (out_points) *out_points = 0;
    if (!b || (!dst && bytes)) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu bases prefetch: NULL argument");
    prefetch_drop(b);
    /* resident: nothing to prefetch; a host copy that is not pinned and mapped (pinning refused): a copy
     * from pageable memory would hold the caller's thread for seconds, so none either */
    if (!b->host_pts || !b->host_dev) return PM_OK;
    typedef typename std::remove_pointer<decltype(b->pre_pts)>::type P;
    static_assert(sizeof(P) == sizeof(*b->host_pts), "the prefix holds the host copy's layout");
    const size_t np = bytes / sizeof(P) < b->n ? bytes / sizeof(P) : b->n;
    if (np == 0) return PM_OK;
    device_scope ds(b->device);
    if (!b->pre_st) PMCU(cudaStreamCreateWithFlags(&b->pre_st, cudaStreamNonBlocking));
    if (!b->pre_ev) PMCU(cudaEventCreateWithFlags(&b->pre_ev, cudaEventDisableTiming));
    cudaError_t ce = cudaMemcpyAsync(dst, b->host_pts, np * sizeof(P), cudaMemcpyHostToDevice, b->pre_st);
    if (ce == cudaSuccess) ce = cudaEventRecord(b->pre_ev, b->pre_st);
    if (ce != cudaSuccess) {
        cudaStreamSynchronize(b->pre_st); /* no copy left writing dst behind an error */
        return cuda_fail(err, ce, "gpu bases prefetch", __FILE__, __LINE__);
    }
    b->pre_pts = static_cast<const P *>(dst);
    b->pre_n = np;
    if (out_points) *out_points = np;
    return PM_OK;
}

template <class H> void release_scratch(H *b) {
    if (!b) return;
    device_scope ds(b->device);
    cudaStreamSynchronize(b->ex.s);
    for (int i = 0; i < SLOT_COUNT; i++) b->ex.slot[i].release();
}

template <class H> pm_status set_chunk(H *b, size_t chunk, pm_error *err) {
    if (!b) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu bases set_chunk: NULL handle");
    if (b->host_pts) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu bases set_chunk: a streamed handle");
    if (chunk && chunk < GPU_SIZES_MIN_CHUNK)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu bases set_chunk: %zu points is below 2^16", chunk);
    release_scratch(b);
    /* one piece when chunk >= n, but one window group at a time all the same (the scratch of
     * gpu_sizes_msm_resident_chunk_bytes(min(chunk, n))) */
    b->chunk_points = chunk < b->n ? chunk : 0;
    b->item_cap = chunk ? (chunk < b->n ? chunk : b->n) : 0;
    return PM_OK;
}

template <class H> void last_timing(gpu_msm_timing_t *out, const H *b) {
    if (out) { if (b) *out = b->timing; else memset(out, 0, sizeof *out); }
}


} /* namespace */

/* ---------------- G1 ---------------- */
extern "C" pm_status gpu_g1_bases_upload(gpu_g1_bases **out, const g1_affine_t *points, size_t n, pm_error *err) {
    return bases_upload<g1_group>(out, points, n, err);
}
extern "C" pm_status gpu_g1_bases_host(gpu_g1_bases **out, const g1_affine_t *pinned, size_t n, size_t chunk, size_t budget,
                                       pm_error *err) {
    return bases_host<g1_group>(out, pinned, n, chunk, budget, err);
}
extern "C" size_t gpu_msm_g1_chunk_points(size_t budget) { return chunk_points_for<g1_group>(budget); }
extern "C" pm_status gpu_g1_bases_download(g1_affine_t *out, size_t count, const gpu_g1_bases *b, size_t first, pm_error *err) {
    return bases_download(out, count, b, first, err);
}
extern "C" size_t gpu_g1_bases_count(const gpu_g1_bases *b) { return b ? b->n : 0; }
extern "C" void gpu_g1_bases_free(gpu_g1_bases *b) {
    if (!b) return;
    device_scope ds(b->device);
    delete b;
}
extern "C" void gpu_g1_bases_release_scratch(gpu_g1_bases *b) { release_scratch(b); }
extern "C" pm_status gpu_g1_bases_set_chunk(gpu_g1_bases *b, size_t chunk, pm_error *err) { return set_chunk(b, chunk, err); }
extern "C" pm_status gpu_g1_bases_prefetch(gpu_g1_bases *b, void *dst, size_t bytes, size_t *out_points, pm_error *err) {
    return prefetch(b, dst, bytes, out_points, err);
}
extern "C" void gpu_g1_bases_prefetch_drop(gpu_g1_bases *b) { prefetch_drop(b); }
extern "C" unsigned gpu_msm_g1_window_bits(size_t n) { return msm_window_bits_for(n, g1_group::rho); }
extern "C" size_t gpu_msm_g1_scratch_size(size_t n) { return msm_scratch_bytes<g1_group>(n, 0, default_lanes<g1_group>()); }
extern "C" void gpu_msm_g1_last_timing(gpu_msm_timing_t *out, const gpu_g1_bases *b) { last_timing(out, b); }
extern "C" pm_status gpu_msm_g1(g1_jac_t *r, const gpu_g1_bases *b, size_t first, const fr_t *scalars, size_t n, unsigned flags,
                                pm_error *err) {
    return msm_api<g1_group>(r, b, first, scalars, n, nullptr, 0, flags, err);
}
extern "C" pm_status gpu_msm_g1_gather(g1_jac_t *r, const gpu_g1_bases *b, size_t first, const fr_t *witness, size_t n_witness,
                                       const gpu_msm_index *ix, unsigned flags, pm_error *err) {
    if (!ix) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_msm_g1_gather: index list is NULL");
    return msm_api<g1_group>(r, b, first, witness, ix->n, ix, n_witness, flags, err);
}

/* ---------------- G2 ---------------- */
extern "C" pm_status gpu_g2_bases_upload(gpu_g2_bases **out, const g2_affine_t *points, size_t n, pm_error *err) {
    return bases_upload<g2_group>(out, points, n, err);
}
extern "C" pm_status gpu_g2_bases_host(gpu_g2_bases **out, const g2_affine_t *pinned, size_t n, size_t chunk, size_t budget,
                                       pm_error *err) {
    return bases_host<g2_group>(out, pinned, n, chunk, budget, err);
}
extern "C" size_t gpu_msm_g2_chunk_points(size_t budget) { return chunk_points_for<g2_group>(budget); }
extern "C" pm_status gpu_g2_bases_download(g2_affine_t *out, size_t count, const gpu_g2_bases *b, size_t first, pm_error *err) {
    return bases_download(out, count, b, first, err);
}
extern "C" size_t gpu_g2_bases_count(const gpu_g2_bases *b) { return b ? b->n : 0; }
extern "C" void gpu_g2_bases_free(gpu_g2_bases *b) {
    if (!b) return;
    device_scope ds(b->device);
    delete b;
}
extern "C" void gpu_g2_bases_release_scratch(gpu_g2_bases *b) { release_scratch(b); }
extern "C" pm_status gpu_g2_bases_set_chunk(gpu_g2_bases *b, size_t chunk, pm_error *err) { return set_chunk(b, chunk, err); }
extern "C" pm_status gpu_g2_bases_prefetch(gpu_g2_bases *b, void *dst, size_t bytes, size_t *out_points, pm_error *err) {
    return prefetch(b, dst, bytes, out_points, err);
}
extern "C" void gpu_g2_bases_prefetch_drop(gpu_g2_bases *b) { prefetch_drop(b); }
extern "C" unsigned gpu_msm_g2_window_bits(size_t n) { return msm_window_bits_for(n, g2_group::rho); }
extern "C" size_t gpu_msm_g2_scratch_size(size_t n) { return msm_scratch_bytes<g2_group>(n, 0, default_lanes<g2_group>()); }
extern "C" void gpu_msm_g2_last_timing(gpu_msm_timing_t *out, const gpu_g2_bases *b) { last_timing(out, b); }
extern "C" pm_status gpu_msm_g2(g2_jac_t *r, const gpu_g2_bases *b, size_t first, const fr_t *scalars, size_t n, unsigned flags,
                                pm_error *err) {
    return msm_api<g2_group>(r, b, first, scalars, n, nullptr, 0, flags, err);
}
extern "C" pm_status gpu_msm_g2_gather(g2_jac_t *r, const gpu_g2_bases *b, size_t first, const fr_t *witness, size_t n_witness,
                                       const gpu_msm_index *ix, unsigned flags, pm_error *err) {
    if (!ix) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_msm_g2_gather: index list is NULL");
    return msm_api<g2_group>(r, b, first, witness, ix->n, ix, n_witness, flags, err);
}

/* ---------------- index lists and device scalar buffers ---------------- */
extern "C" pm_status gpu_msm_index_upload(gpu_msm_index **out, const uint32_t *idx, size_t n, pm_error *err) {
    if (!out || (!idx && n)) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_msm_index_upload: NULL argument");
    *out = nullptr;
    if (n >= ((size_t)1 << 31)) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_msm_index_upload: n = %zu >= 2^31", n);
    if (gpu_available() == 0) return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "no CUDA device");
    gpu_msm_index *ix = new (std::nothrow) gpu_msm_index();
    if (!ix) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "gpu_msm_index_upload: host allocation failed");
    ix->n = n;
    ix->max = 0;
    for (size_t i = 0; i < n; i++) ix->max = idx[i] > ix->max ? idx[i] : ix->max;
    cudaError_t e = cudaGetDevice(&ix->device);
    if (e == cudaSuccess) e = dmalloc((void **)&ix->p, (n ? n : 1) * 4);
    /* waited for piece by piece on the legacy stream (every kernel stream is non-blocking: no wait
     * for the device's other work), preemption points between */
    if (e == cudaSuccess && n) e = copy_h2d_pieces(ix->p, idx, n * 4, 0);
    if (e != cudaSuccess) {
        if (ix->p) cudaFree(ix->p);
        delete ix;
        return cuda_fail(err, e, "gpu_msm_index_upload", __FILE__, __LINE__);
    }
    *out = ix;
    return PM_OK;
}
extern "C" size_t gpu_msm_index_count(const gpu_msm_index *ix) { return ix ? ix->n : 0; }
extern "C" void gpu_msm_index_free(gpu_msm_index *ix) {
    if (!ix) return;
    device_scope ds(ix->device);
    if (ix->p) cudaFree(ix->p);
    delete ix;
}
extern "C" pm_status gpu_fr_buf_upload(gpu_fr_buf **out, const fr_t *host, size_t n, pm_error *err) {
    if (!out || (!host && n)) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_fr_buf_upload: NULL argument");
    *out = nullptr;
    if (gpu_available() == 0) return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "no CUDA device");
    gpu_fr_buf *b = new (std::nothrow) gpu_fr_buf();
    if (!b) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "gpu_fr_buf_upload: host allocation failed");
    b->n = n;
    cudaError_t e = cudaGetDevice(&b->device);
    if (e == cudaSuccess) e = dmalloc((void **)&b->p, (n ? n : 1) * sizeof(fr_t));
    if (e == cudaSuccess && n) e = cudaMemcpy(b->p, host, n * sizeof(fr_t), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        if (b->p) cudaFree(b->p);
        delete b;
        return cuda_fail(err, e, "gpu_fr_buf_upload", __FILE__, __LINE__);
    }
    *out = b;
    return PM_OK;
}
extern "C" const fr_t *gpu_fr_buf_device_ptr(const gpu_fr_buf *b) { return b ? b->p : nullptr; }
extern "C" void gpu_fr_buf_free(gpu_fr_buf *b) {
    if (!b) return;
    device_scope ds(b->device);
    if (b->p) cudaFree(b->p);
    delete b;
}
