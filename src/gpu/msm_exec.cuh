/*
 * msm_exec.cuh — the two executors the MSM and fixed-base drivers are written against
 * (internal to src/gpu): exec_dev runs each step as CUDA kernels / CUB calls on the handle's
 * streams; exec_host runs the very same per-element functors in plain loops on the host (scans and
 * sorts through the standard library). A driver templated on the executor therefore runs
 * unchanged on the host, which is how tests/gpu/test_gpu_msm_host.cu checks the whole device
 * algorithm without a GPU (only the kernel launch, the PTX carry flag and CUB are left to the GPU
 * tests).
 *
 * The interface (both executors):
 *   each<T>(n, f)         f(i) for i < n, f a trivially copyable functor with a __host__ __device__
 *                         operator()(size_t) const; T threads per block on the device
 *   scan(out, in, n)      exclusive prefix sum of n uint32 (out may be in)
 *   sort_pairs(ko, vo, ki, vi, n, bits)   sort (key, value) pairs by the low `bits` of the key
 *                         into (ko, vo); (ki, vi) may be overwritten (the device's ping-pong
 *                         buffers); stable on the host, order among equal keys arbitrary on the device
 *   select(out, first, n, pred)  writes the i in [first, first+n) with pred(i) in increasing order,
 *                         returns their count (synchronises)
 *   h2d / d2d / zero      copies on the main stream; d2h synchronises
 *   d2h_async / sync()    a copy to the host queued without waiting, then one wait for all of them
 *                         (several counts read back in one round trip)
 *   h2d_side(dst, src, bytes, ev) / wait_side(ev)  copy on the side stream, then make the main stream wait
 *   h2d_bases(dst, src, bytes, ev) / wait_bases(ev) the same on a third stream (streamed bases, so a
 *                         chunk's upload never queues behind the scalar copies of the running MSM)
 *   bases_begin() / each_bases<T>(n, f) / bases_done(ev)  kernels on that third stream: ordered after
 *                         everything queued on the main stream so far, then event ev for wait_bases;
 *                         bases_sync() waits for that stream
 *   grow(slot, bytes)     scratch buffer `slot`, grown on demand and kept
 *   mark(i) / ms(a, b)    timing events (milliseconds between marks; 0 on the host)
 *   ok() / fail(err, what) first error, as pm_status
 *   lanes(), lanes_for<F>()  how many lanes a persistent loop should use (resident threads of the card,
 *                         in general or for functor F's kernel); lanes_max() the affine rounds' cap
 */
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include "gpu/gpu_sizes.h"
#include <algorithm>
#include <numeric>
#include <vector>
#include "common.cuh"

namespace pmgpu {

enum {
    SLOT_SC, SLOT_GIDX, SLOT_OIDX, SLOT_KEY0, SLOT_VAL0, SLOT_KEY1, SLOT_VAL1, SLOT_OFF0, SLOT_OFF1, SLOT_HALF,
    SLOT_PTS0, SLOT_PTS1, SLOT_LANE, SLOT_BUCKET, SLOT_RED0, SLOT_RED1, SLOT_RED2, SLOT_RED3, SLOT_WIN, SLOT_MISC,
    SLOT_CUB, SLOT_NSEL, SLOT_WIT, SLOT_BASES0, SLOT_BASES1,
    SLOT_XP0, SLOT_XP1, SLOT_IDS, SLOT_FB_TABLE, SLOT_FB_TMP, SLOT_FB_X, SLOT_FB_OUT, SLOT_FB_SC0, SLOT_FB_SC1, SLOT_PERSIST,
    SLOT_PACK_SEG, SLOT_PACK_POS, SLOT_PACK_G0, SLOT_PACK_G1, SLOT_WCOUNT, SLOT_COUNT
};

/* ---------------- host executor ---------------- */
struct exec_host {
    static constexpr bool on_device = false;
    void *slot_p[SLOT_COUNT] = {};
    size_t slot_b[SLOT_COUNT] = {};
    size_t host_lanes = 64;
    exec_host() = default;
    exec_host(const exec_host &) = delete;
    exec_host &operator=(const exec_host &) = delete;
    ~exec_host() { for (int i = 0; i < SLOT_COUNT; i++) free(slot_p[i]); }

    void *grow(int slot, size_t bytes) {
        if (bytes == 0) bytes = 16;
        if (slot_b[slot] < bytes) {
            free(slot_p[slot]);
            slot_p[slot] = calloc(1, bytes); /* zeroed: the host run must not read garbage either */
            slot_b[slot] = slot_p[slot] ? bytes : 0;
        }
        return slot_p[slot];
    }
    template <int T = 128, class F> void each(size_t n, const F &f) { for (size_t i = 0; i < n; i++) f(i); }
    void scan(uint32_t *out, const uint32_t *in, size_t n) {
        uint32_t acc = 0;
        for (size_t i = 0; i < n; i++) { uint32_t v = in[i]; out[i] = acc; acc += v; }
    }
    void sort_pairs(uint32_t *ko, uint32_t *vo, uint32_t *ki, uint32_t *vi, size_t n, int bits) {
        std::vector<size_t> ord(n);
        std::iota(ord.begin(), ord.end(), (size_t)0);
        const uint32_t mask = bits >= 32 ? 0xffffffffu : ((1u << bits) - 1u);
        std::stable_sort(ord.begin(), ord.end(), [&](size_t a, size_t b) { return (ki[a] & mask) < (ki[b] & mask); });
        std::vector<uint32_t> k2(n), v2(n);
        for (size_t i = 0; i < n; i++) { k2[i] = ki[ord[i]]; v2[i] = vi[ord[i]]; }
        memcpy(ko, k2.data(), n * 4);
        memcpy(vo, v2.data(), n * 4);
    }
    template <class Pred> size_t select(uint32_t *out, size_t first, size_t n, const Pred &p) {
        size_t c = 0;
        for (size_t i = first; i < first + n; i++)
            if (p((uint32_t)i)) out[c++] = (uint32_t)i;
        return c;
    }
    void h2d(void *d, const void *s, size_t b) { if (b) memmove(d, s, b); }
    void d2d(void *d, const void *s, size_t b) { if (b) memmove(d, s, b); }
    void d2h(void *d, const void *s, size_t b) { if (b) memmove(d, s, b); }
    void d2h_async(void *d, const void *s, size_t b) { if (b) memmove(d, s, b); }
    void sync() {}
    void zero(void *d, size_t b) { if (b) memset(d, 0, b); }
    void h2d_side(void *d, const void *s, size_t b, int) { if (b) memmove(d, s, b); }
    void wait_side(int) {}
    void h2d_bases(void *d, const void *s, size_t b, int) { if (b) memmove(d, s, b); }
    void wait_bases(int) {}
    void bases_begin() {}
    template <int T = 128, class F> void each_bases(size_t n, const F &f) { for (size_t i = 0; i < n; i++) f(i); }
    void bases_done(int) {}
    void bases_sync() {}
    void mark(int) {}
    unsigned pauses = 0; /* preemption points passed (the host has no other work to let in) */
    void pause() { pauses++; }
    float ms(int, int) { return 0.f; }
    bool ok() const { return true; }
    pm_status fail(pm_error *err, const char *what) {
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "%s: host allocation failed", what);
    }
    size_t lanes() const { return host_lanes; }
    template <class F> size_t lanes_for() const { return host_lanes; }
    size_t lanes_max() const { return host_lanes; }
};

#ifdef __CUDACC__
template <int T, class F> __global__ void __launch_bounds__(T) k_each(F f, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) f(i);
}
#endif

} /* namespace pmgpu */

#if defined(__CUDACC__) && !defined(PM_EXEC_HOST_ONLY)
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>

namespace pmgpu {

/* ---------------- device executor ---------------- */
struct exec_dev {
    static constexpr bool on_device = true;
    int device = 0;
    int sm_count = 132;
    cudaStream_t s = nullptr, side = nullptr, side2 = nullptr;
    cudaEvent_t ev[16] = {};
    cudaEvent_t side_ev[64] = {};
    cudaEvent_t bases_ev[2] = {};
    dev_buf slot[SLOT_COUNT];
    cudaError_t err_code = cudaSuccess;
    const char *err_what = "";
    int err_line = 0;
    size_t lane_override = 0;
    /* pinned staging for d2h_async (allocated in init; freed in destroy; NULL: copies go direct) */
    static constexpr size_t STAGE_BYTES = 256;
    static constexpr int STAGE_COUNT = 8;
    void *stage_h = nullptr;
    void *stage_dst[STAGE_COUNT] = {};
    size_t stage_off[STAGE_COUNT] = {}, stage_len[STAGE_COUNT] = {};
    size_t stage_used = 0;
    int stage_n = 0;

    exec_dev() = default;
    exec_dev(const exec_dev &) = delete;
    exec_dev &operator=(const exec_dev &) = delete;
    ~exec_dev() { destroy(); }
    cudaError_t init() {
        cudaError_t e = cudaGetDevice(&device);
        if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device);
        if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
        if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&side2, cudaStreamNonBlocking);
        for (int i = 0; i < 2 && e == cudaSuccess; i++) e = cudaEventCreateWithFlags(&bases_ev[i], cudaEventDisableTiming);
        for (int i = 0; i < 16 && e == cudaSuccess; i++) e = cudaEventCreate(&ev[i]);
        for (int i = 0; i < 64 && e == cudaSuccess; i++) e = cudaEventCreateWithFlags(&side_ev[i], cudaEventDisableTiming);
        /* the staging buffer of d2h_async, pinned here rather than in the middle of an MSM (a pinned
         * allocation may synchronise the device); without it d2h_async copies directly */
        if (e == cudaSuccess && !stage_h && cudaMallocHost(&stage_h, STAGE_BYTES) != cudaSuccess) {
            (void)cudaGetLastError();
            stage_h = nullptr;
        }
        return e;
    }
    void destroy() {
        for (int i = 0; i < 16; i++) if (ev[i]) { cudaEventDestroy(ev[i]); ev[i] = nullptr; }
        for (int i = 0; i < 64; i++) if (side_ev[i]) { cudaEventDestroy(side_ev[i]); side_ev[i] = nullptr; }
        if (s) { cudaStreamDestroy(s); s = nullptr; }
        for (int i = 0; i < 2; i++) if (bases_ev[i]) { cudaEventDestroy(bases_ev[i]); bases_ev[i] = nullptr; }
        if (side) { cudaStreamDestroy(side); side = nullptr; }
        if (side2) { cudaStreamDestroy(side2); side2 = nullptr; }
        for (int i = 0; i < SLOT_COUNT; i++) slot[i].release();
        if (stage_h) { cudaFreeHost(stage_h); stage_h = nullptr; }
        stage_n = 0;
        stage_used = 0;
    }
    void note(cudaError_t e, const char *what, int line) {
        if (e != cudaSuccess && err_code == cudaSuccess) { err_code = e; err_what = what; err_line = line; }
    }
#define PM_EX(expr) note((expr), #expr, __LINE__)
    void *grow(int id, size_t bytes) {
        if (slot[id].p && slot[id].bytes >= bytes) return slot[id].p;
        /* the old contents are not kept: wait for kernels that may still use the buffer */
        if (slot[id].p) PM_EX(cudaStreamSynchronize(s));
        PM_EX(slot[id].alloc(bytes));
        return slot[id].p;
    }
    template <int T = 128, class F> void each(size_t n, const F &f) {
        if (n == 0 || err_code != cudaSuccess) return;
        size_t blocks = (n + T - 1) / T;
        k_each<T, F><<<(unsigned)blocks, T, 0, s>>>(f, n);
        PM_EX(cudaGetLastError());
    }
    void scan(uint32_t *out, const uint32_t *in, size_t n) {
        if (n == 0 || err_code != cudaSuccess) return;
        size_t bytes = 0;
        PM_EX(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, (int64_t)n, s));
        void *tmp = grow(SLOT_CUB, bytes);
        if (err_code == cudaSuccess) PM_EX(cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, (int64_t)n, s));
    }
    /* CUB's double-buffer form: (ki, ko) and (vi, vo) are its ping-pong pairs, so its temporary
     * storage is the histograms and look-back state only (MiBs); the plain form would allocate a
     * copy of the keys and the values, 8 B per item (0.9 GB at 2^27 uniform scalars) that the
     * device-memory plan does not count (gpu_sizes.h). The passes end in either buffer: the
     * selector is known on the host when the call returns; when it is (ki, vi) they are copied to
     * (ko, vo) (8 B per item at the copy rate, well under a millisecond per 2^27). */
    void sort_pairs(uint32_t *ko, uint32_t *vo, uint32_t *ki, uint32_t *vi, size_t n, int bits) {
        if (n == 0 || err_code != cudaSuccess) return;
        cub::DoubleBuffer<uint32_t> kb(ki, ko), vb(vi, vo);
        size_t bytes = 0;
        PM_EX(cub::DeviceRadixSort::SortPairs(nullptr, bytes, kb, vb, (int64_t)n, 0, bits, s));
        void *tmp = grow(SLOT_CUB, bytes);
        if (err_code != cudaSuccess) return;
        PM_EX(cub::DeviceRadixSort::SortPairs(tmp, bytes, kb, vb, (int64_t)n, 0, bits, s));
        if (kb.Current() != ko) d2d(ko, kb.Current(), n * 4);
        if (vb.Current() != vo) d2d(vo, vb.Current(), n * 4);
    }
    template <class Pred> size_t select(uint32_t *out, size_t first, size_t n, const Pred &p) {
        if (n == 0 || err_code != cudaSuccess) return 0;
        thrust::counting_iterator<uint32_t> it((uint32_t)first);
        uint32_t *num = static_cast<uint32_t *>(grow(SLOT_NSEL, 16));
        size_t bytes = 0;
        PM_EX(cub::DeviceSelect::If(nullptr, bytes, it, out, num, (int64_t)n, p, s));
        void *tmp = grow(SLOT_CUB, bytes);
        if (err_code == cudaSuccess) PM_EX(cub::DeviceSelect::If(tmp, bytes, it, out, num, (int64_t)n, p, s));
        uint32_t c = 0;
        d2h(&c, num, 4);
        return c;
    }
    void h2d(void *d, const void *src, size_t b) { if (b) PM_EX(cudaMemcpyAsync(d, src, b, cudaMemcpyHostToDevice, s)); }
    void d2d(void *d, const void *src, size_t b) { if (b) PM_EX(cudaMemcpyAsync(d, src, b, cudaMemcpyDeviceToDevice, s)); }
    void d2h(void *d, const void *src, size_t b) {
        if (b) PM_EX(cudaMemcpyAsync(d, src, b, cudaMemcpyDeviceToHost, s));
        PM_EX(cudaStreamSynchronize(s));
    }
    /* The host buffer is written when sync() returns. The copy lands in a small pinned staging
     * buffer (a copy into pageable memory would make CUDA wait for the stream inside
     * cudaMemcpyAsync, one host wait per copy); sync() waits once and moves each staged value to
     * its destination. A copy that does not fit the staging buffer goes directly (and waits). */
    void d2h_async(void *d, const void *src, size_t b) {
        if (!b) return;
        size_t at = (stage_used + 15) & ~(size_t)15;
        if (!stage_h || stage_n == STAGE_COUNT || at + b > STAGE_BYTES) {
            PM_EX(cudaMemcpyAsync(d, src, b, cudaMemcpyDeviceToHost, s));
            PM_EX(cudaStreamSynchronize(s));
            return;
        }
        PM_EX(cudaMemcpyAsync(static_cast<char *>(stage_h) + at, src, b, cudaMemcpyDeviceToHost, s));
        stage_dst[stage_n] = d;
        stage_off[stage_n] = at;
        stage_len[stage_n] = b;
        stage_n++;
        stage_used = at + b;
    }
    void sync() {
        PM_EX(cudaStreamSynchronize(s));
        for (int i = 0; i < stage_n; i++)
            if (err_code == cudaSuccess) memcpy(stage_dst[i], static_cast<char *>(stage_h) + stage_off[i], stage_len[i]);
        stage_n = 0;
        stage_used = 0;
    }
    void zero(void *d, size_t b) { if (b) PM_EX(cudaMemsetAsync(d, 0, b, s)); }
    /* side-stream copy ordered after everything queued on the main stream so far */
    void h2d_side(void *d, const void *src, size_t b, int e) {
        PM_EX(cudaEventRecord(ev[15], s));
        PM_EX(cudaStreamWaitEvent(side, ev[15], 0));
        if (b) PM_EX(cudaMemcpyAsync(d, src, b, cudaMemcpyHostToDevice, side));
        PM_EX(cudaEventRecord(side_ev[e & 63], side));
    }
    void wait_side(int e) { PM_EX(cudaStreamWaitEvent(s, side_ev[e & 63], 0)); }
    void h2d_bases(void *d, const void *src, size_t b, int e) {
        bases_begin();
        if (b) PM_EX(cudaMemcpyAsync(d, src, b, cudaMemcpyHostToDevice, side2));
        bases_done(e);
    }
    void wait_bases(int e) { PM_EX(cudaStreamWaitEvent(s, bases_ev[e & 1], 0)); }
    void bases_begin() {
        PM_EX(cudaEventRecord(ev[14], s));
        PM_EX(cudaStreamWaitEvent(side2, ev[14], 0));
    }
    template <int T = 128, class F> void each_bases(size_t n, const F &f) {
        if (n == 0 || err_code != cudaSuccess) return;
        k_each<T, F><<<(unsigned)((n + T - 1) / T), T, 0, side2>>>(f, n);
        PM_EX(cudaGetLastError());
    }
    void bases_done(int e) { PM_EX(cudaEventRecord(bases_ev[e & 1], side2)); }
    /* wait for the bases stream (an error path: its copies may still write into the buffers) */
    void bases_sync() { (void)cudaStreamSynchronize(side2); }
    void mark(int i) { PM_EX(cudaEventRecord(ev[i], s)); }
    /* a preemption point (gpu.h gpu_set_yield): the main stream drained first, so the hook may
     * give the device to other work while this MSM's state waits in its scratch */
    void pause() {
        if (!yield_armed() || err_code != cudaSuccess) return;
        PM_EX(cudaStreamSynchronize(s));
        yield_now();
    }
    float ms(int a, int b) {
        float t = 0;
        /* the later mark may still be queued (read right after it was recorded): wait for it, else
         * cudaEventElapsedTime answers cudaErrorNotReady and the phase read 0 */
        if (cudaEventSynchronize(ev[b]) != cudaSuccess || cudaEventElapsedTime(&t, ev[a], ev[b]) != cudaSuccess) {
            (void)cudaGetLastError();
            t = 0;
        }
        return t;
    }
    bool ok() const { return err_code == cudaSuccess; }
    pm_status fail(pm_error *err, const char *what) {
        stage_n = 0; /* a staged copy whose sync() never came is dropped, never written later */
        stage_used = 0;
        cudaError_t e = err_code;
        err_code = cudaSuccess;
        (void)cudaGetLastError();
        pm_status st = e == cudaErrorMemoryAllocation ? PM_ERR_NOMEM : PM_ERR_GPU;
        /* the source line goes into the message: pm_error's file and offset name an input file */
        return pm_error_set(err, st, "", PM_NO_OFFSET, "%s: %s failed at %s:%d: %s (%s)", what, err_what, __FILE__, err_line,
                            cudaGetErrorName(e), cudaGetErrorString(e));
    }
    /* resident lanes for a persistent loop: about 3 blocks of 128 per SM (a default for sizing;
     * PROOFMILL_GPU_MSM_LANES overrides) */
    size_t lanes() const { return lane_override ? lane_override : (size_t)sm_count * 384; }
    /* the most lanes the affine rounds may use: those gpu_sizes.h reserves lane scratch for */
    size_t lanes_max() const { return lane_override ? lane_override : (size_t)sm_count * GPU_SIZES_LANES_PER_SM; }
    /* resident lanes of functor F's kernel (each<128>): the occupancy the registers allow */
    template <class F> size_t lanes_for() {
        if (lane_override) return lane_override;
        int nb = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, k_each<128, F>, 128, 0) != cudaSuccess || nb < 1) {
            (void)cudaGetLastError();
            nb = 2;
        }
        return (size_t)sm_count * 128 * (size_t)nb;
    }
#undef PM_EX
};

} /* namespace pmgpu */
#endif
