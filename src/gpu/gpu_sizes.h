/*
 * gpu_sizes.h — the device-memory sizes of the CUDA backend as plain C arithmetic, usable without a
 * GPU and without the CUDA library: the device-memory planner (groth16/devplan.h) computes plans for
 * cards it cannot see (`proofmill plan`), and the kernels (msm.cu, ntt.cu, spmv.cu) size their own
 * allocations with the same functions, so the planner and the allocator can never disagree.
 *
 * Every function is static inline, header-only, C17 and C++ (the .cu files include it). Sizes are
 * bytes; counts are points or field elements. Point layouts (device, same as the CPU's: gpu.h):
 *   G1 affine 96 B (two Fp of 48 B), G2 affine 192 B (two Fp2); XYZZ coordinates 4 field elements
 *   (G1 192 B, G2 384 B); Fr 32 B.
 * The formulas follow the MSM driver of msm_core.cuh (window model of Pippenger's bucket method with
 * batch-affine accumulation: Bernstein et al., "Faster batch forgery identification", 2012, and
 * the lane layout described there) and the NTT domain of ntt.cu; a change there is a change here.
 */
#ifndef PROOFMILL_GPU_GPU_SIZES_H
#define PROOFMILL_GPU_GPU_SIZES_H
#include <stddef.h>
#include <stdint.h>
#include "r1cs/r1cs.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The group of an MSM, as the sizes see it. */
typedef struct {
    size_t aff_bytes;  /* one affine point on the device (G1 96, G2 192) */
    size_t fe_bytes;   /* one coordinate (Fp 48, Fp2 96) */
    double rho;        /* window model: reduction cost per bucket against accumulation per item */
    size_t item_cap;   /* items (point, window) per window group at the default budget */
} gpu_sizes_group;

static const gpu_sizes_group GPU_SIZES_G1 = {96, 48, 3.0, (size_t)1 << 27};
static const gpu_sizes_group GPU_SIZES_G2 = {192, 96, 4.0, (size_t)1 << 26};

#define GPU_SIZES_FP_BYTES 48u   /* the lane scratch's inversion chain element (Fp) */
#define GPU_SIZES_RND_KMIN 128u  /* pairs per lane chunk at least (msm_core.cuh RND_KMIN) */
#define GPU_SIZES_RED_L 32u      /* buckets per reduction segment (msm_core.cuh RED_L) */
/* CUB's scan and select temporaries (KiBs), and a chunked MSM's per-chunk counts of general scalars
 * (msm_stream.cuh chunk_window: at most 4096 u32), reserved together */
#define GPU_SIZES_CUB_BYTES ((size_t)64 << 20)
/* lanes of the affine rounds per SM: f_round2's G1 occupancy on Hopper (4 blocks of 128 at 128
 * registers); msm_core.cuh caps the rounds' lanes at SMs x this, so the lane scratch below holds */
#define GPU_SIZES_LANES_PER_SM 512u
#define GPU_SIZES_RND_TAIL 32u   /* the XYZZ tail starts below this many pairs per lane (msm_core.cuh RND_TAIL) */
#define GPU_SIZES_XT_K 32u       /* entries per XYZZ tail task (msm_core.cuh XT_K) */
#define GPU_SIZES_POW_LO_BITS 12u /* the NTT's split power tables (ntt_core.cuh POW_LO_BITS) */
#define GPU_SIZES_MIN_CHUNK ((size_t)1 << 16) /* smallest streamed chunk, points */

/* The window width c (bits, 1..22) minimising W (ng + rho 2^(c-1)), W = ceil(256 / c): ng general
 * scalars. */
static inline unsigned gpu_sizes_window_bits(size_t ng, double rho) {
    if (ng < 2) return 1;
    unsigned best = 1;
    double best_cost = 1e300;
    for (unsigned c = 1; c <= 22; c++) {
        double W = (double)((256 + c - 1) / c);
        double cost = W * ((double)ng + rho * (double)(1u << (c - 1)));
        if (cost < best_cost) {
            best_cost = cost;
            best = c;
        }
    }
    return best;
}

static inline size_t gpu_sizes_round256(size_t b) { return (b + 255) & ~(size_t)255; }

/* Bytes the bucket reduction of nwin windows of m buckets needs (segmented running sums of
 * GPU_SIZES_RED_L buckets, XYZZ coordinates of xyzz_bytes each). */
static inline size_t gpu_sizes_red_bytes(size_t m, size_t nwin, size_t xyzz_bytes) {
    size_t b = 0;
    while (m > 1) {
        size_t L = m < GPU_SIZES_RED_L ? m : GPU_SIZES_RED_L, S = m / L;
        b += 2 * gpu_sizes_round256(nwin * S * xyzz_bytes); /* T, R */
        size_t t = S;
        while (t > 1) {
            size_t G = t < GPU_SIZES_RED_L ? t : GPU_SIZES_RED_L;
            t /= G;
            b += gpu_sizes_round256(nwin * t * xyzz_bytes);
        }
        b += 3 * gpu_sizes_round256(nwin * xyzz_bytes);
        m = S;
    }
    return b + 4 * gpu_sizes_round256(nwin * xyzz_bytes) + 4096;
}

/* Device scratch of one MSM run over n points (every scalar general: the worst case), besides the
 * points: scalars, digits, sorted items, the affine rounds' pairs and lane scratch, the reduction.
 * item_cap 0 = the group's default; lanes = SMs x GPU_SIZES_LANES_PER_SM. */
static inline size_t gpu_sizes_msm_scratch(const gpu_sizes_group *g, size_t n, size_t item_cap, size_t lanes) {
    if (!item_cap) item_cap = g->item_cap;
    const unsigned c = gpu_sizes_window_bits(n, g->rho), W = (256 + c - 1) / c;
    const size_t B = (size_t)1 << (c - 1), aff = g->aff_bytes;
    size_t gw = item_cap / (n ? n : 1);
    gw = gw < 1 ? 1 : (gw > W ? W : gw);
    const size_t items = gw * n, nseg = gw * B;
    size_t b = n * 32 + 2 * n * 4 + 4 * items * 4 + 3 * (nseg + 2) * 4;
    /* the rounds' two point buffers, and the buckets (XYZZ when the tail ran: 4 coordinates, twice an affine point) */
    b += (items / 2 + nseg) * aff + (items / 4 + nseg) * aff + nseg * 4 * g->fe_bytes;
    /* the lanes' prefix products and pair info: at most one per output of a round ((items + nseg) / 2)
     * plus the KMIN pairs of every lane */
    b += ((items + nseg) / 2 + lanes * GPU_SIZES_RND_KMIN) * (GPU_SIZES_FP_BYTES + 8) + gpu_sizes_red_bytes(B, gw, 4 * g->fe_bytes);
    /* the XYZZ tail's two task levels: it starts with fewer than RND_TAIL pairs per lane, so with at most
     * 2 RND_TAIL lanes + nseg entries (or all items, when fewer) */
    size_t te = 2 * (size_t)GPU_SIZES_RND_TAIL * lanes + nseg;
    te = te < items ? te : items;
    const size_t t0 = te / GPU_SIZES_XT_K + nseg + 1, t1 = t0 / GPU_SIZES_XT_K + nseg + 1;
    b += (t0 + t1) * 4 * g->fe_bytes;
    b += (items / 2 + nseg) * 4; /* the round kernel's output bucket ids */
    /* CUB's radix sort in its double-buffer form (msm_exec.cuh sort_pairs): histograms and the
     * one-sweep look-back state, 256 four-byte counters per tile of >= 1024 items: <= 1 B per item */
    return b + GPU_SIZES_CUB_BYTES + items;
}

/* The kept buckets of a chunked MSM at most (bytes): the window is lowered until they fit, so a large
 * chunk (a 42 M-point resident chunk would take c = 22: 4.8 GB) does not eat the MSM room. G1 gets
 * c <= 19 (704 MB), G2 c <= 18 (755 MB). */
#define GPU_SIZES_KEEP_MAX_BYTES ((size_t)768 << 20)

/* The window of a chunked MSM over chunks of m points whose buckets are kept across the chunks:
 * the cost model's for m, lowered until W x 2^(c-1) XYZZ buckets fit GPU_SIZES_KEEP_MAX_BYTES. */
static inline unsigned gpu_sizes_keep_window(const gpu_sizes_group *g, size_t m) {
    unsigned c = gpu_sizes_window_bits(m, g->rho);
    while (c > 1 && (size_t)((256 + c - 1) / c) * ((size_t)1 << (c - 1)) * 4 * g->fe_bytes > GPU_SIZES_KEEP_MAX_BYTES) c--;
    return c;
}

/* Device bytes of the buckets a chunked MSM keeps at window c (W x 2^(c-1) XYZZ points) and of their
 * one reduction of all W windows at the end (msm_core.cuh msm_persist_begin / msm_persist_end). */
static inline size_t gpu_sizes_msm_persist_bytes_c(const gpu_sizes_group *g, unsigned c) {
    const unsigned W = (256 + c - 1) / c;
    const size_t B = (size_t)1 << (c - 1);
    return gpu_sizes_round256((size_t)W * B * 4 * g->fe_bytes) + gpu_sizes_red_bytes(B, W, 4 * g->fe_bytes);
}

/* Device bytes a chunked MSM keeps across its chunks of m points: the kept buckets at
 * gpu_sizes_keep_window(m), the widest window such an MSM takes (gpu_sizes_count_window picks
 * narrower ones, whose bytes are no more: test_devplan checks every c below it). */
static inline size_t gpu_sizes_msm_persist_bytes(const gpu_sizes_group *g, size_t m) {
    return gpu_sizes_msm_persist_bytes_c(g, gpu_sizes_keep_window(g, m));
}

/* The window of a chunked MSM with kept buckets, from the general scalars (neither 0 nor 1: the 0/1
 * split sums the rest apart) of each of its nchunks chunks, cnt[k]: the c in [1, cmax] minimising
 *     W (rho 2^(c-1) + sum over the chunks with cnt[k] > 0 of (cnt[k] + rho 2^(c-1))),  W = ceil(256 / c),
 * the window model of gpu_sizes_window_bits with one set of buckets per chunk that has general scalars
 * (each such chunk accumulates its W cnt[k] items into W 2^(c-1) buckets and folds those into the kept
 * ones) and one reduction of the kept buckets at the end. cmax: the chunk size's window
 * (gpu_sizes_keep_window), which the memory plan counts. When all n scalars are general the result is
 * cmax, the window a chunk of uniform scalars always had. Witness-like chunks get a far narrower one:
 * Filecoin's A set, 1 % general in 18 chunks of 7.2 M points, c = 13 instead of 19, so that a chunk
 * is one window group of 20 windows instead of 14 groups of one (docs/perf/devplan.md, fourteenth session).
 * No general scalar at all: the narrowest window allowed (c = 1 from chunks of ~8 K points on). Only
 * windows whose kept buckets and whose reduction each fit the bytes they take at cmax are tried. */
static inline unsigned gpu_sizes_count_window(const gpu_sizes_group *g, const uint64_t *cnt, size_t nchunks, uint64_t n,
                                              unsigned cmax) {
    uint64_t total = 0, busy = 0;
    for (size_t k = 0; k < nchunks; k++) {
        total += cnt[k];
        busy += cnt[k] > 0;
    }
    if (cmax < 1) cmax = 1;
    if (n && total >= n) return cmax;
    /* only windows whose kept buckets and whose reduction each take no more bytes than cmax's: they
     * live in two slots (SLOT_PERSIST, SLOT_RED0) kept apart across a handle's MSMs, and the plan
     * counts each at cmax (a very narrow window on a tiny chunk has more windows to reduce) */
    const size_t xb = 4 * g->fe_bytes, Bm = (size_t)1 << (cmax - 1), Wm = (256 + cmax - 1) / cmax;
    unsigned best = cmax;
    double best_cost = 1e300;
    for (unsigned c = 1; c <= cmax; c++) {
        const size_t Wc = (256 + c - 1) / c, Bc = (size_t)1 << (c - 1);
        if (Wc * Bc > Wm * Bm || gpu_sizes_red_bytes(Bc, Wc, xb) > gpu_sizes_red_bytes(Bm, Wm, xb)) continue;
        const double W = (double)Wc, B = (double)Bc;
        const double cost = W * ((double)total + g->rho * B * (double)(busy + 1));
        if (cost < best_cost) {
            best_cost = cost;
            best = c;
        }
    }
    return best;
}

/* Skipping the points of zero scalars on the bus (msm_stream.cuh, gpu.msm_skip_zero): an MSM over
 * streamed bases whose scalars are on the device (gathered or dense) counts its non-zero scalars per segment of GPU_SIZES_PACK_SEG positions (one u32 per segment,
 * scanned in place into offsets), then fills each device buffer with the next <= m points whose
 * scalars are not 0, read from the pinned host copy by the device. Per chunk of m points: the
 * positions of the packed points (one u32 buffer) and their witness indices (two, one per point
 * buffer). The segment array is bounded by its size at n = 2^31 (8 MiB). Counted whether or not the
 * setting packs, so the plan holds for either value. */
#define GPU_SIZES_PACK_SEG ((size_t)1 << 10)
static inline size_t gpu_sizes_pack_bytes(size_t m) {
    return 3 * gpu_sizes_round256(m * 4) + ((((size_t)1 << 31) / GPU_SIZES_PACK_SEG) * 4);
}

/* The next packed chunk: from segment s on, the longest run of segments [s, e) whose non-zero counts
 * cnt[] add up to at most m points (a segment holds at most GPU_SIZES_PACK_SEG <= m); *count gets
 * their sum. Returns e (> s whenever s < nseg; e = nseg at the end). Segments without a non-zero
 * scalar join the chunk around them, so an all-zero tail gives a chunk of count 0, which is skipped. */
static inline size_t gpu_sizes_pack_next(const uint32_t *cnt, size_t nseg, size_t s, size_t m, size_t *count) {
    size_t e = s, sum = 0;
    while (e < nseg && sum + cnt[e] <= m) sum += cnt[e++];
    if (e == s && s < nseg) sum = cnt[e++]; /* a segment over m: only with m < GPU_SIZES_PACK_SEG (tests) */
    *count = sum;
    return e;
}

/* Device bytes of an MSM whose points come in chunks of m: the scratch at item_cap = m, the buckets
 * kept across the chunks, two point buffers (double-buffered copies) and the packing's index lists. */
static inline size_t gpu_sizes_msm_chunk_bytes(const gpu_sizes_group *g, size_t m, size_t lanes) {
    return gpu_sizes_msm_scratch(g, m, m, lanes) + gpu_sizes_msm_persist_bytes(g, m) + 2 * m * g->aff_bytes +
           gpu_sizes_pack_bytes(m);
}

/* Device bytes of a chunked MSM over RESIDENT points, chunks of m: the scratch and the kept buckets. */
static inline size_t gpu_sizes_msm_resident_chunk_bytes(const gpu_sizes_group *g, size_t m, size_t lanes) {
    return gpu_sizes_msm_scratch(g, m, m, lanes) + gpu_sizes_msm_persist_bytes(g, m);
}

/* The largest m in [GPU_SIZES_MIN_CHUNK, 2^31) with streamed (two point buffers: streamed = 1) or
 * resident (streamed = 0) chunk bytes <= budget; 0 when even GPU_SIZES_MIN_CHUNK does not fit. */
static inline size_t gpu_sizes_chunk_points(const gpu_sizes_group *g, size_t budget, size_t lanes, int streamed) {
    size_t lo = GPU_SIZES_MIN_CHUNK, hi = ((size_t)1 << 31) - 1;
#define GPU_SIZES_NEED_(m) (streamed ? gpu_sizes_msm_chunk_bytes(g, (m), lanes) : gpu_sizes_msm_resident_chunk_bytes(g, (m), lanes))
    if (GPU_SIZES_NEED_(lo) > budget) return 0;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (GPU_SIZES_NEED_(mid) <= budget) lo = mid;
        else hi = mid;
    }
#undef GPU_SIZES_NEED_
    return lo;
}

/* The chunk schedule of an MSM over n points in chunks of `chunk` (0: one piece): chunk i covers
 * [i chunk, i chunk + len); streamed bases go through two device buffers, chunk i into buffer
 * i mod 2, chunk i + 1's copy issued before chunk i's kernels run (msm.cu). */
static inline size_t gpu_sizes_chunk_count(size_t n, size_t chunk) { return chunk && n ? (n + chunk - 1) / chunk : 1; }
static inline size_t gpu_sizes_chunk_len(size_t n, size_t i, size_t chunk) {
    if (!chunk) return i ? 0 : n;
    const size_t f = i * chunk;
    return f >= n ? 0 : (n - f < chunk ? n - f : chunk);
}
static inline unsigned gpu_sizes_chunk_buffer(size_t i) { return (unsigned)(i & 1); }

/* Device bytes of an NTT domain of 2^log_n points with `buffers` work buffers of n Fr: the n/2
 * twiddles, six split power tables (four of the API, two of the bellperson pipeline) and the
 * buffers. */
static inline size_t gpu_sizes_ntt_domain(unsigned log_n, int buffers) {
    const size_t n = (size_t)1 << log_n;
    const size_t hi = log_n > GPU_SIZES_POW_LO_BITS ? (n >> GPU_SIZES_POW_LO_BITS) : 1;
    const size_t tabs = 6 * (((size_t)1 << GPU_SIZES_POW_LO_BITS) + hi) + 1;
    return (n / 2 + tabs + (size_t)buffers * n) * 32;
}

/* Device bytes of one matrix of a recorded circuit (CSR: row pointers of rp_bytes, column indices
 * u32, coefficients either 32-byte Fr each or u32 indices into a dictionary of n_coef_tab Fr,
 * the dictionary counted when not shared with an earlier matrix). */
static inline size_t gpu_sizes_csr(uint64_t n_rows, uint64_t nnz, int dict, uint64_t n_coef_tab, int dict_shared,
                                   size_t rp_bytes) {
    return (size_t)((n_rows + 1) * rp_bytes + nnz * 4 +
                    (dict ? nnz * 4 + (dict_shared ? 0 : n_coef_tab * 32) : nnz * 32));
}

/* Device bytes of the recorded circuit cs on the card (gpu_r1cs_upload): its three matrices, row
 * pointers u32 when every matrix has < 2^32 terms, a dictionary shared between matrices counted
 * once. 0 for NULL. */
static inline size_t gpu_sizes_r1cs(const r1cs_t *cs) {
    if (!cs) return 0;
    const r1cs_matrix_t *m[3] = {&cs->A, &cs->B, &cs->C};
    uint64_t nnz_max = 0;
    for (int i = 0; i < 3; i++) nnz_max = m[i]->nnz > nnz_max ? m[i]->nnz : nnz_max;
    const size_t rpw = nnz_max <= UINT32_MAX ? 4 : 8;
    size_t b = 0;
    for (int i = 0; i < 3; i++) {
        int shared = 0; /* a dictionary already counted for an earlier matrix */
        for (int j = 0; j < i; j++) shared |= m[i]->coef_idx && m[j]->coef_tab == m[i]->coef_tab;
        b += gpu_sizes_csr(m[i]->n_rows, m[i]->nnz, m[i]->coef_idx != NULL, m[i]->n_coef_tab, shared, rpw);
    }
    return b;
}

#ifdef __cplusplus
}
#endif
#endif
