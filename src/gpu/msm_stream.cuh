/*
 * msm_stream.cuh — an MSM whose points come in chunks (internal to src/gpu): streamed bases copied
 * from pinned host memory through two device buffers, or resident bases taken a chunk at a time, with
 * the buckets kept across the chunks (msm_core.cuh msm_persist_begin). One template over the group and
 * the executor, so tests/gpu/test_gpu_msm_host.cu runs the very same schedule on the host.
 *
 * Zero scalars off the bus. An MSM over streamed bases whose scalars are on the device (gathered,
 * scalar i = witness[gather[i]], or dense) pays PCIe bytes for every point, yet Filecoin's A, B and L sets hold ~75 % zero scalars (docs/perf/
 * devplan.md, "What the witness-like sets hold"). Packing sends only the points whose scalars are not 0:
 *   1. count (main stream): the non-zero scalars of each segment of `seg` positions, one u32 each, read
 *      back to the host (the host's schedule) and scanned in place into exclusive offsets;
 *   2. schedule (host, gpu_sizes_pack_next): runs of segments holding at most `chunk` non-zero scalars,
 *      so each device buffer is filled (a 75 %-zero set takes a quarter of the chunks);
 *   3. per chunk, on the bases stream while the chunk before it is summed: a compaction (each thread one
 *      segment: the positions and witness indices of its non-zero scalars, in order, at its offset), then
 *      a copy kernel that reads those points from the pinned host copy through its device mapping
 *      (CUDA unified addressing: cudaHostRegister'ed memory is readable by kernels) into the buffer.
 * The chunk's MSM then runs over `count` points with the packed index list (a dense MSM becomes a
 * gathered one over its own scalars). Points are summed in the
 * same order as unpacked, so the result is the same point; only the zero scalars' points are missing,
 * which the 0/1 split drops anyway. The bytes are counted in gpu_sizes.h (gpu_sizes_pack_bytes).
 */
#pragma once
#include <vector>
#include "gpu/gpu.h"
#include "msm_core.cuh"

namespace pmgpu {

/* one packed chunk: segments [s_lo, s_hi), `base` non-zero scalars before s_lo, `count` in it */
struct pack_chunk_t {
    size_t s_lo, s_hi, base, count;
};

__host__ __device__ inline bool fr_is_zero_(const fr_t &w) { return (w.l[0] | w.l[1] | w.l[2] | w.l[3]) == 0; }

/* cnt[s] = the non-zero scalars witness[gather[i]] (dense: witness[i]) for i in segment s (positions
 * [s seg, (s+1) seg) of n) */
struct f_pack_count {
    uint32_t *cnt;
    const uint32_t *gather;
    const fr_t *wit;
    size_t n, seg;
    __host__ __device__ void operator()(size_t s) const {
        const size_t i0 = s * seg, i1 = i0 + seg < n ? i0 + seg : n;
        uint32_t c = 0;
        for (size_t i = i0; i < i1; i++) c += fr_is_zero_(wit[gather ? gather[i] : (uint32_t)i]) ? 0u : 1u;
        cnt[s] = c;
    }
};

/* thread t: segment s = s_lo + t writes its non-zero positions i (pos) and witness indices (gout;
 * dense: i itself) at segoff[s] - base, in increasing i */
struct f_pack_compact {
    uint32_t *pos, *gout;
    const uint32_t *gather, *segoff;
    const fr_t *wit;
    size_t n, seg, s_lo, base;
    __host__ __device__ void operator()(size_t t) const {
        const size_t s = s_lo + t, i0 = s * seg, i1 = i0 + seg < n ? i0 + seg : n;
        size_t o = (size_t)segoff[s] - base;
        for (size_t i = i0; i < i1; i++) {
            const uint32_t g = gather ? gather[i] : (uint32_t)i;
            if (fr_is_zero_(wit[g])) continue;
            pos[o] = (uint32_t)i;
            gout[o] = g;
            o++;
        }
    }
};

#ifdef __CUDACC__
/* dst word w = src's word (pos[w / WP]) WP + w % WP, WP = 8-byte words per point: a grid-stride loop
 * with four independent loads in flight per thread (src is host memory: ~1-2 us per read over PCIe) */
template <unsigned WP> __global__ void __launch_bounds__(256) k_pack_copy(uint64_t *dst, const uint64_t *src, const uint32_t *pos,
                                                                          size_t words) {
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t w0 = blockIdx.x * (size_t)blockDim.x + threadIdx.x; w0 < words; w0 += 4 * stride) {
        uint64_t v[4];
#pragma unroll
        for (int u = 0; u < 4; u++) {
            const size_t w = w0 + u * stride;
            if (w < words) v[u] = src[(size_t)pos[w / WP] * WP + w % WP];
        }
#pragma unroll
        for (int u = 0; u < 4; u++) {
            const size_t w = w0 + u * stride;
            if (w < words) dst[w] = v[u];
        }
    }
}
#endif

/* Steps 1-2: counts per segment, their offsets (in place, device), the host's chunk list. Returns
 * the non-zero scalars in all; *segoff gets the offsets (executor memory, SLOT_PACK_SEG). */
template <class Ex>
size_t pack_plan(Ex &ex, const uint32_t *gather, const fr_t *wit, size_t n, size_t chunk, size_t seg, std::vector<pack_chunk_t> &plan,
                 const uint32_t **segoff) {
    plan.clear();
    const size_t nseg = (n + seg - 1) / seg;
    uint32_t *cnt_d = static_cast<uint32_t *>(ex.grow(SLOT_PACK_SEG, nseg * 4));
    *segoff = cnt_d;
    if (!ex.ok() || !cnt_d) return 0;
    ex.each(nseg, f_pack_count{cnt_d, gather, wit, n, seg});
    std::vector<uint32_t> cnt(nseg);
    ex.d2h(cnt.data(), cnt_d, nseg * 4);
    ex.scan(cnt_d, cnt_d, nseg);
    size_t base = 0;
    for (size_t s = 0; s < nseg;) {
        size_t count = 0;
        const size_t e = gpu_sizes_pack_next(cnt.data(), nseg, s, chunk, &count);
        if (count) plan.push_back(pack_chunk_t{s, e, base, count});
        base += count;
        s = e;
    }
    return base;
}

/* Step 3 for one chunk, on the bases stream, then event ev: dst gets its points, gout their witness
 * indices. src: the MSM's first point as the executor's kernels read it. */
template <class E, class Ex>
void pack_issue(Ex &ex, const pack_chunk_t &pc, const aff_t<E> *src, aff_t<E> *dst, uint32_t *pos, uint32_t *gout,
                const uint32_t *gather, const fr_t *wit, const uint32_t *segoff, size_t n, size_t seg, int ev) {
    static_assert(sizeof(aff_t<E>) % 8 == 0, "points are whole 8-byte words");
    constexpr unsigned WP = (unsigned)(sizeof(aff_t<E>) / 8);
    ex.bases_begin();
    ex.each_bases(pc.s_hi - pc.s_lo, f_pack_compact{pos, gout, gather, segoff, wit, n, seg, pc.s_lo, pc.base});
    const size_t words = pc.count * WP;
    if constexpr (Ex::on_device) {
#ifdef __CUDACC__
        if (words && ex.ok()) {
            k_pack_copy<WP><<<(unsigned)ex.sm_count * 2, 256, 0, ex.side2>>>(reinterpret_cast<uint64_t *>(dst),
                                                                               reinterpret_cast<const uint64_t *>(src), pos, words);
            ex.note(cudaGetLastError(), "k_pack_copy", __LINE__);
        }
#endif
    } else {
        for (size_t p = 0; p < pc.count; p++) dst[p] = src[pos[p]];
    }
    ex.bases_done(ev);
}

/* The kept window from the general scalars per chunk (gpu_sizes_count_window). A chunked MSM used to
 * keep its buckets at the window of its chunk size, right for uniform scalars; a chunk of witness-like
 * scalars (Filecoin's A, B, L: ~1 % general) then ran its W windows as W window groups of a few
 * thousand items each (the memory plan's bound on a group's buckets), each group a sort, an
 * accumulation of latency-bound rounds and a fold of 2^(c-1) buckets: on an H100 at a 24 GB cap A's
 * 18 chunks took 390 ms of events against 128 ms in one piece (docs/perf/devplan.md, fourteenth
 * session). A count of each chunk's general scalars (on the executor, before the first chunk's
 * kernels) lets the window follow them. */

/* *cnt += the general scalars (class 2: neither 0 nor 1, as the 0/1 split sees them) at positions
 * p0 + t + j T < p1 (T = `stride` threads, coalesced): scalar i = sc[gather[i]] (gather NULL: sc[i]),
 * Montgomery form when mont */
struct f_count_general {
    uint32_t *cnt;
    const uint32_t *gather;
    const scalar_d *sc;
    size_t p0, p1, stride;
    int mont;
    PM_HD void operator()(size_t t) const {
        uint32_t c = 0;
        for (size_t i = p0 + t; i < p1; i += stride) {
            scalar_d s = sc_load(sc + (gather ? gather[i] : (uint32_t)i));
            if (mont) s = sc_from_mont(s);
            c += sc_class(s) == 2 ? 1u : 0u;
        }
        if (c) {
#ifdef __CUDA_ARCH__
            atomicAdd(cnt, c);
#else
            *cnt += c;
#endif
        }
    }
};

/* Chunks beyond this many keep the chunk size's window (their counts would outgrow the reserve of
 * gpu_sizes.h GPU_SIZES_CUB_BYTES; 2^31 points in chunks of 2^16 are 32768 chunks). */
#define PM_COUNT_WINDOW_MAX_CHUNKS 4096u

/* The window of a chunked MSM's kept buckets: cmax (the chunk size's) unless a count of each chunk's
 * general scalars finds a cheaper one (gpu_sizes_count_window). Chunk k covers positions [p0[k], p1[k]).
 * Synchronises the executor's stream once (the counts read back). 0 on an executor error. */
template <class G, class Ex>
unsigned chunk_window(Ex &ex, const msm_args_t &a, const uint32_t *gather, const fr_t *scalars, size_t n, const std::vector<size_t> &p0,
                      const std::vector<size_t> &p1, unsigned cmax) {
    const size_t nc = p0.size();
    if (nc == 0 || nc > PM_COUNT_WINDOW_MAX_CHUNKS) return cmax;
    uint32_t *cnt_d = static_cast<uint32_t *>(ex.grow(SLOT_WCOUNT, nc * 4));
    if (!ex.ok() || !cnt_d) return 0;
    ex.zero(cnt_d, nc * 4);
    const scalar_d *sc = reinterpret_cast<const scalar_d *>(scalars);
    const size_t T_MAX = ex.lanes() * 2; /* a few loads in flight per resident thread */
    for (size_t k = 0; k < nc; k++) {
        const size_t len = p1[k] - p0[k], T = len < T_MAX ? len : T_MAX;
        if (T) ex.each(T, f_count_general{cnt_d + k, gather, sc, p0[k], p1[k], T, a.mont});
    }
    std::vector<uint32_t> cnt32(nc);
    ex.d2h(cnt32.data(), cnt_d, nc * 4);
    if (!ex.ok()) return 0;
    std::vector<uint64_t> cnt(cnt32.begin(), cnt32.end());
    return gpu_sizes_count_window(msm_sizes<G>(), cnt.data(), nc, n, cmax);
}

/* What msm_chunks sums. */
struct msm_stream_t {
    size_t n;               /* points */
    size_t chunk;           /* points per chunk (device buffer); 0 or >= n: one piece */
    const void *res_pts;    /* resident bases: the MSM's first point (executor memory); NULL when streamed */
    const void *host_pts;   /* streamed: the first point in pinned host memory (for the buffer copies) */
    const void *host_dev;   /* streamed: the same point as the executor's kernels address it; NULL: never packed */
    const uint32_t *gather; /* gathered: n witness indices (executor memory), else NULL */
    const fr_t *scalars;    /* dense: n scalars; gathered: the witness (executor memory) */
    int keep;               /* more than one chunk: keep the buckets across the chunks */
    unsigned pack;          /* streamed, scalars gathered or in executor memory: 0 never pack, 1 pack when at
                               most a quarter of the scalars are non-zero, 2 always */
    size_t pack_seg;        /* positions per counting segment (0: GPU_SIZES_PACK_SEG), at most the chunk */
    int count_window;       /* the scalars on the executor (a.src MSM_SRC_DEVICE) and split: the kept window from
                               a count of each chunk's general scalars (chunk_window); 0: the chunk size's */
    const void *pre_pts;    /* streamed: the first pre_n points already in executor memory (a prefetched
                               prefix, gpu.h gpu_g1_bases_prefetch), summed from there in chunks of at most
                               `chunk` without a copy; the rest streams as before. NULL: none. Not used
                               when the MSM packs (the packed chunks are not positional). */
    size_t pre_n;
};

/* Chunk c of an MSM of n points in chunks of `chunk` whose first pre_n points are a resident prefix:
 * the prefix's ceil(pre_n / chunk) chunks first, then the rest's. *start, *len: its points. */
inline void stream_span(size_t n, size_t chunk, size_t pre_n, size_t c, size_t *start, size_t *len) {
    const size_t cp = pre_n ? (pre_n + chunk - 1) / chunk : 0;
    if (c < cp) {
        *start = c * chunk;
        *len = pre_n - *start < chunk ? pre_n - *start : chunk;
    } else {
        *start = pre_n + (c - cp) * chunk;
        *len = n - *start < chunk ? n - *start : chunk;
    }
}

/* r = sum of the chunks' MSMs (a0: the per-call arguments: src = MSM_SRC_DEVICE, mont, split, tune,
 * item_cap, force_c, n_witness); per-phase times, chunks and points sent accumulate into tm. */
template <class G, class Ex>
pm_status msm_chunks(Ex &ex, typename G::cpu_jac *r, const msm_args_t &a0, const msm_stream_t &in, gpu_msm_timing_t &tm,
                     pm_error *err) {
    typedef aff_t<typename G::E> P;
    msm_args_t a = a0;
    typename G::cpu_jac acc, part;
    G::jac_inf(&acc);
    *r = acc;
    const size_t n = in.n;
    if (n == 0) return PM_OK;
    const size_t chunk = in.chunk && in.chunk < n ? in.chunk : n;
    const bool streamed = in.host_pts != nullptr;
    std::vector<pack_chunk_t> plan;
    const uint32_t *segoff = nullptr;
    bool packed = false;
    size_t seg = in.pack_seg ? in.pack_seg : GPU_SIZES_PACK_SEG;
    if (seg > chunk) seg = chunk;
    /* the scalars must be readable by the count: gathered from a device witness, or dense on the device */
    if (streamed && in.host_dev && in.pack && a.src == MSM_SRC_DEVICE) {
        const size_t nz = pack_plan(ex, in.gather, in.scalars, n, chunk, seg, plan, &segoff);
        if (!ex.ok()) return ex.fail(err, "gpu msm: counting the non-zero scalars");
        /* 1: only where it pays on the measured rates. An H100 (PCIe 5) read the mapped points at ~14 GB/s
         * against the bulk copy's ~44 GB/s (docs/perf/devplan.md, sixth session): packing wins below
         * ~1/3 non-zero, so the rule asks for at most a quarter */
        packed = in.pack >= 2 || 4 * nz <= n;
        if (!packed) plan.clear();
        tm.sent = packed ? nz : n;
        if (packed) tm.zeros += n - nz; /* the zeros left behind, as the 0/1 split would have counted them */
    } else {
        tm.sent = streamed ? n : 0;
    }
    /* a prefetched prefix (streamed, unpacked): its chunks come first and cross no bus */
    const size_t pre_n = streamed && !packed && in.pre_pts ? (in.pre_n < n ? in.pre_n : n) : 0;
    const size_t cp = pre_n ? (pre_n + chunk - 1) / chunk : 0;
    const size_t nchunks = packed ? plan.size() : cp + (n > pre_n ? gpu_sizes_chunk_count(n - pre_n, chunk) : 0);
    if (!packed && streamed) tm.sent = n - pre_n;
    tm.chunks = streamed ? (unsigned)(nchunks ? nchunks : 1) : 0; /* 0 means resident (gpu.h) */
    if (nchunks == 0) return PM_OK; /* packed, every scalar 0 */
    const P *host = static_cast<const P *>(in.host_pts), *hdev = static_cast<const P *>(in.host_dev);
    P *buf[2] = {nullptr, nullptr};
    uint32_t *gbuf[2] = {nullptr, nullptr}, *pos = nullptr;
    auto issue = [&](size_t c, unsigned bi) {
        if (packed)
            pack_issue<typename G::E>(ex, plan[c], hdev, buf[bi], pos, gbuf[bi], in.gather, in.scalars, segoff, n, seg, (int)bi);
        else {
            size_t s0, len;
            stream_span(n, chunk, pre_n, c, &s0, &len);
            ex.h2d_bases(buf[bi], host + s0, len * sizeof(P), (int)bi);
        }
    };
    if (streamed && nchunks > cp) { /* the copied chunks' buffers (none when the prefix is all of it) */
        buf[0] = static_cast<P *>(ex.grow(SLOT_BASES0, chunk * sizeof(P)));
        buf[1] = static_cast<P *>(ex.grow(SLOT_BASES1, nchunks - cp > 1 ? chunk * sizeof(P) : 16));
        if (packed) {
            pos = static_cast<uint32_t *>(ex.grow(SLOT_PACK_POS, chunk * 4));
            gbuf[0] = static_cast<uint32_t *>(ex.grow(SLOT_PACK_G0, chunk * 4));
            gbuf[1] = static_cast<uint32_t *>(ex.grow(SLOT_PACK_G1, nchunks > 1 ? chunk * 4 : 16));
        }
        if (!ex.ok()) return ex.fail(err, "gpu msm: streamed bases buffers");
        issue(cp, 0); /* the first copied chunk, under the prefix's kernels */
    }
    /* more than one chunk: the buckets are kept across the chunks at one window and reduced once */
    unsigned pc = 0;
    if (nchunks > 1 && in.keep) {
        /* a forced window no wider than the kept buckets' bound: the plan counts that */
        pc = gpu_sizes_keep_window(msm_sizes<G>(), chunk);
        if (a.force_c && a.force_c < pc) pc = a.force_c;
        else if (!a.force_c && in.count_window && a.split && a.src == MSM_SRC_DEVICE) {
            std::vector<size_t> p0(nchunks), p1(nchunks);
            for (size_t c = 0; c < nchunks; c++) {
                if (packed) {
                    p0[c] = plan[c].s_lo * seg;
                    p1[c] = plan[c].s_hi * seg < n ? plan[c].s_hi * seg : n;
                } else {
                    size_t len = 0;
                    stream_span(n, chunk, pre_n, c, &p0[c], &len);
                    p1[c] = p0[c] + len;
                }
            }
            pc = chunk_window<G>(ex, a, in.gather, in.scalars, n, p0, p1, pc);
            if (!pc) {
                ex.bases_sync();
                return ex.fail(err, "gpu msm: counting the general scalars per chunk");
            }
        }
        a.persist = msm_persist_begin<G>(ex, pc);
        if (!a.persist) {
            ex.bases_sync(); /* the first chunk's copy is in flight */
            return ex.fail(err, "gpu msm: the buckets kept across chunks");
        }
        a.force_c = pc;
    }
    for (size_t c = 0; c < nchunks; c++) {
        size_t c0 = c * chunk, clen = 0;
        if (!packed) stream_span(n, chunk, pre_n, c, &c0, &clen);
        msm_args_t ac = a;
        /* the copied chunks (c >= cp) alternate between the two buffers */
        const unsigned bi = gpu_sizes_chunk_buffer(c - (c < cp ? c : cp)), bn = gpu_sizes_chunk_buffer(c + 1 - cp);
        if (streamed && c < cp) {
            ac.pts = static_cast<const P *>(in.pre_pts) + c0;
        } else if (streamed) {
            ex.wait_bases((int)bi);
            ac.pts = buf[bi];
            if (c + 1 < nchunks) issue(c + 1, bn); /* the next chunk's bases, overlapped with this chunk's kernels */
        } else {
            ac.pts = static_cast<const P *>(in.res_pts) + c0;
        }
        if (packed) { /* the packed index list points into the witness, or into the dense scalars */
            ac.n = plan[c].count;
            ac.gather = gbuf[bi];
            ac.scalars = in.scalars;
            if (!in.gather) ac.n_witness = n;
        } else {
            ac.n = clen;
            if (in.gather) { ac.gather = in.gather + c0; ac.scalars = in.scalars; }
            else ac.scalars = in.scalars + c0;
        }
        msm_host_out<G> out;
        msm_stats_t st;
        pm_status s = msm_run<G>(ex, out, st, ac, err);
        if (s != PM_OK) { ex.bases_sync(); return s; }
        msm_finish<G>(&part, out, st.c);
        G::jac_add(&acc, &acc, &part);
        tm.upload_digits += st.t_scalars;
        tm.scatter += st.t_sort;
        tm.accumulate += st.t_accum;
        tm.reduce += st.t_reduce;
        tm.total += st.t_total;
        tm.window_bits = st.c;
        tm.windows = st.W;
        tm.ones += st.ones;
        tm.zeros += st.zeros;
        tm.general += st.general;
        tm.rounds = st.rounds > tm.rounds ? st.rounds : tm.rounds;
        tm.tail_levels = st.tail_levels > tm.tail_levels ? st.tail_levels : tm.tail_levels;
    }
    if (a.persist) {
        msm_host_out<G> fin;
        msm_stats_t st;
        memset(&st, 0, sizeof st);
        pm_status s = msm_persist_end<G>(ex, fin, st, a.persist, pc, a.tune, a.times, err);
        if (s != PM_OK) { ex.bases_sync(); return s; }
        msm_finish<G>(&part, fin, pc);
        G::jac_add(&acc, &acc, &part);
        tm.reduce += st.t_reduce;
        tm.total += st.t_reduce;
        tm.window_bits = pc;
        tm.windows = st.W;
    }
    *r = acc;
    return PM_OK;
}

} /* namespace pmgpu */
