/*
 * msm.cu — G1 multi-scalar multiplication on the device: Pippenger with signed digits.
 *
 * r = sum_i [k_i] P_i, bases resident on the device (gpu_g1_bases), scalars plain 255-bit.
 * Pipeline (one CUDA stream; a second stream copies scalar chunks ahead of the digit pass):
 *  1. Digits (k_hist): per scalar, the 0/1 split first: 0 is skipped, 1 goes to one extra "ones"
 *     bucket (one addition per such point instead of W); otherwise W = ceil(256/c) signed c-bit
 *     digits by Booth recoding of bits [cj-1, cj+c-1] (stateless: d_j = v_j + b_{cj-1} -
 *     2^c b_{cj+c-1}, d_j in [-2^(c-1), 2^(c-1)]; cW >= 256 > 255 so the top digit is >= 0).
 *     Key = j*B + |d_j| - 1 with B = 2^(c-1) buckets per window; counts by atomicAdd.
 *  2. Exclusive scan of the counts (CUB) gives each bucket's range; k_scatter recomputes the digits
 *     and writes point index | sign<<31 into its bucket's range (a counting sort: one pass, no
 *     key/value double buffer; order inside a bucket is arbitrary, addition commutes).
 *  3. Accumulation in XYZZ (madd 8M+2S per point): each bucket is split into tasks of at most K
 *     points (K ~ twice the mean bucket size), one thread per task, a binary search over the task
 *     offsets finds the task's bucket. A bucket with several tasks gets several partial sums; the
 *     same step then runs on the partials (add 12M+2S) until every bucket has one value: a tree,
 *     so a bucket holding all n points (e.g. every scalar equal) costs log_K(n) rounds, not n.
 *  4. Bucket reduction: window j's buckets are cut into S segments of L = B/S buckets; a thread
 *     forms T = sum_{b in seg} (b - lo + 1) B_b by running sums (2L adds) and returns
 *     T + [lo - 1] sum_{b in seg} B_b. Block-level trees (256 at a time) sum the segments.
 *  5. Host: Horner over windows (c doublings each) plus the ones bucket, in XYZZ with the CPU's
 *     fp_mul: ~256 doublings take ~0.3 ms on the CPU against ~3 ms single-threaded on the GPU.
 * Window c = argmin_c W(c) (n_eff + 3*2^(c-1)) (accumulation + reduction cost, see gpu_msm_g1_window_bits).
 * Cost floor per general point: W mixed additions = W*(8M+2S); see docs/perf/gpu.md.
 * Sources: Pippenger 1976; Bernstein-Doumen-Lange-Oosterwijk 2012 (signed buckets); EFD xyzz.
 */
#include <cub/cub.cuh>
#include <cstdlib>
#include <cstring>
#include <new>
#include <cstdio>
#include <vector>
#include "cpu_headers.cuh"
#include "common.cuh"
#include "ec.cuh"

using namespace pmgpu;

namespace {

constexpr int THREADS = 128;

struct scalar_d { uint32_t v[8]; };

__device__ __forceinline__ scalar_d sc_load(const scalar_d *p) {
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
    uint4 a = q[0], b = q[1];
    scalar_d s;
    s.v[0] = a.x; s.v[1] = a.y; s.v[2] = a.z; s.v[3] = a.w; s.v[4] = b.x; s.v[5] = b.y; s.v[6] = b.z; s.v[7] = b.w;
    return s;
}

/* bits [pos, pos+len) of a 256-bit scalar, len <= 31, pos may be -1 or run past bit 255 (zeros) */
__device__ __forceinline__ uint32_t sc_bits(const scalar_d &s, int pos, int len) {
    uint64_t acc = 0;
    int lo = pos < 0 ? 0 : pos;
    int w = lo >> 5;
    if (w < 8) acc = s.v[w];
    if (w + 1 < 8) acc |= (uint64_t)s.v[w + 1] << 32;
    acc >>= (lo & 31);
    uint32_t r = (uint32_t)acc;
    if (pos < 0) r <<= 1; /* bit -1 is zero */
    return r & ((1u << len) - 1u);
}

/* signed digit j: d = v + b_{cj-1} - 2^c b_{cj+c-1}; returns |d| and sets neg */
__device__ __forceinline__ uint32_t digit(const scalar_d &s, int j, int c, bool &neg) {
    uint32_t u = sc_bits(s, c * j - 1, c + 1); /* bits cj-1 .. cj+c-1 */
    uint32_t top = (u >> c) & 1u;
    uint32_t v = (u >> 1) + (u & 1u);             /* window value + incoming carry, <= 2^c */
    if (top) { neg = true; return (1u << c) - v; } /* v - 2^c <= 0 */
    neg = false;
    return v;
}

__device__ __forceinline__ int sc_class(const scalar_d &s) { /* 0: zero, 1: one, 2: other */
    uint32_t hi = s.v[1] | s.v[2] | s.v[3] | s.v[4] | s.v[5] | s.v[6] | s.v[7];
    if (hi) return 2;
    return s.v[0] == 0 ? 0 : (s.v[0] == 1 ? 1 : 2);
}

__global__ void k_from_mont(scalar_d *s, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    fr_d a = fe_load<fr_params>(reinterpret_cast<fr_d *>(s + i));
    fe_store<fr_params>(reinterpret_cast<fr_d *>(s + i), fe_from_mont<fr_params>(a));
}

__global__ void k_hist(const scalar_d *sc, size_t n, int c, int W, uint32_t B, uint32_t *cnt, uint32_t ones_key,
                       unsigned long long *zeros, int split01) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    scalar_d s = sc_load(sc + i);
    if (split01) {
        int cl = sc_class(s);
        if (cl == 0) { atomicAdd(zeros, 1ull); return; }
        if (cl == 1) { atomicAdd(&cnt[ones_key], 1u); return; }
    }
    for (int j = 0; j < W; j++) {
        bool neg;
        uint32_t d = digit(s, j, c, neg);
        if (d) atomicAdd(&cnt[j * B + d - 1], 1u);
    }
}

__global__ void k_scatter(const scalar_d *sc, size_t n, int c, int W, uint32_t B, uint32_t *cursor, uint32_t ones_key,
                          uint32_t *items, int split01) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    scalar_d s = sc_load(sc + i);
    if (split01) {
        int cl = sc_class(s);
        if (cl == 0) return;
        if (cl == 1) { items[atomicAdd(&cursor[ones_key], 1u)] = (uint32_t)i; return; }
    }
    for (int j = 0; j < W; j++) {
        bool neg;
        uint32_t d = digit(s, j, c, neg);
        if (d) items[atomicAdd(&cursor[j * B + d - 1], 1u)] = (uint32_t)i | (neg ? 0x80000000u : 0u);
    }
}

__global__ void k_ntasks(uint32_t *ntask, const uint32_t *cnt, uint32_t nb, uint32_t K) {
    uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < nb) ntask[b] = (cnt[b] + K - 1) / K;
}

/* bucket of task t: the last b with toff[b] <= t (toff: nb+1 exclusive offsets) */
__device__ __forceinline__ uint32_t find_bucket(const uint32_t *toff, uint32_t nb, uint32_t t) {
    uint32_t lo = 0, hi = nb; /* invariant: toff[lo] <= t < toff[hi] */
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) >> 1;
        if (toff[mid] <= t) lo = mid; else hi = mid;
    }
    return lo;
}

/* level 0: sum the points of one task (bases gathered by index, negated when flagged) */
__global__ void __launch_bounds__(THREADS) k_accum_points(g1x_d *out, uint32_t ntasks, const uint32_t *toff, const uint32_t *off,
                                                          const uint32_t *cnt, uint32_t nb, uint32_t K, const uint32_t *items,
                                                          const g1a_d *pts, const uint32_t *order) {
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= ntasks) return;
    if (order) t = order[t];
    uint32_t b = find_bucket(toff, nb, t);
    uint32_t j = t - toff[b];
    uint32_t start = off[b] + j * K;
    uint32_t len = min(K, cnt[b] - j * K);
    g1x_d acc = g1x_inf();
    for (uint32_t k = 0; k < len; k++) {
        uint32_t it = items[start + k];
        g1a_d p = g1a_load(pts + (it & 0x7fffffffu));
        if (it >> 31) p = g1a_neg(p);
        acc = g1x_add_affine(acc, p);
    }
    g1x_store(out + t, acc);
}

/* level >= 1: sum partials */
__global__ void __launch_bounds__(THREADS) k_accum_partials(g1x_d *out, uint32_t ntasks, const uint32_t *toff, const uint32_t *off,
                                                            const uint32_t *cnt, uint32_t nb, uint32_t K, const g1x_d *in,
                                                            const uint32_t *order) {
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= ntasks) return;
    if (order) t = order[t];
    uint32_t b = find_bucket(toff, nb, t);
    uint32_t j = t - toff[b];
    uint32_t start = off[b] + j * K;
    uint32_t len = min(K, cnt[b] - j * K);
    g1x_d acc = g1x_load(in + start);
    for (uint32_t k = 1; k < len; k++) acc = g1x_add(acc, g1x_load(in + start + k));
    g1x_store(out + t, acc);
}

/* task lengths (sort keys) and identities, so that warps get tasks of equal length */
__global__ void k_task_len(uint32_t *len, uint32_t *id, uint32_t ntasks, const uint32_t *toff, const uint32_t *cnt, uint32_t nb,
                           uint32_t K) {
    uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= ntasks) return;
    uint32_t b = find_bucket(toff, nb, t);
    uint32_t j = t - toff[b];
    len[t] = min(K, cnt[b] - j * K);
    id[t] = t;
}

__device__ __forceinline__ g1x_d bucket_value(const g1x_d *part, const uint32_t *off, const uint32_t *cnt, uint32_t key) {
    return cnt[key] ? g1x_load(part + off[key]) : g1x_inf();
}

/* [k]p for small k (< 2^31), double-and-add from the top */
__device__ g1x_d g1x_mul_small(const g1x_d &p, uint32_t k) {
    g1x_d r = g1x_inf();
    if (k == 0) return r;
    int top = 31 - __clz(k);
    r = p;
    for (int i = top - 1; i >= 0; i--) {
        r = g1x_dbl(r);
        if ((k >> i) & 1) r = g1x_add(r, p);
    }
    return r;
}

/* window j, segment s of L buckets: sum_{b=lo}^{hi} b*B_b (b counted from 1) */
__global__ void __launch_bounds__(THREADS) k_reduce_segments(g1x_d *seg_out, int W, uint32_t B, uint32_t S, uint32_t L,
                                                             const g1x_d *part, const uint32_t *off, const uint32_t *cnt) {
    uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= (uint32_t)W * S) return;
    uint32_t j = g / S, s = g % S;
    uint32_t lo = s * L + 1, hi = s * L + L; /* bucket numbers, 1-based */
    g1x_d run = g1x_inf(), tot = g1x_inf();
    for (uint32_t b = hi; b >= lo; b--) {
        run = g1x_add(run, bucket_value(part, off, cnt, j * B + b - 1));
        tot = g1x_add(tot, run);
    }
    if (lo > 1) tot = g1x_add(tot, g1x_mul_small(run, lo - 1));
    g1x_store(seg_out + g, tot);
}

/* out[g] = sum of in[g*G .. g*G+G), G a power of two <= 256, one block of G threads per group */
__global__ void k_tree_sum(g1x_d *out, const g1x_d *in, uint32_t G) {
    extern __shared__ uint4 sh_raw[];
    g1x_d *sh = reinterpret_cast<g1x_d *>(sh_raw);
    uint32_t t = threadIdx.x;
    g1x_d v = g1x_load(in + (size_t)blockIdx.x * G + t);
    for (uint32_t stride = G / 2; stride >= 1; stride >>= 1) {
        if (t >= stride && t < 2 * stride) g1x_store(sh + (t - stride), v);
        __syncthreads();
        if (t < stride) v = g1x_add(v, g1x_load(sh + t));
        __syncthreads();
    }
    if (t == 0) g1x_store(out + blockIdx.x, v);
}

/* ---- fixed-base generation of [t]G (tests/benchmarks) ---- */
__global__ void k_gen_table(g1a_d *table) { /* table[j*256 + v] = [v * 2^(8j)] G */
    uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= 32 * 256) return;
    uint32_t j = id >> 8, v = id & 255;
    g1a_d G;
#pragma unroll
    for (int i = 0; i < 12; i++) { G.x.v[i] = g1_gen_params::x(i); G.y.v[i] = g1_gen_params::y(i); }
    g1x_d acc = g1x_inf();
    for (int bit = 7; bit >= 0; bit--) { /* [v]G */
        acc = g1x_dbl(acc);
        if ((v >> bit) & 1) acc = g1x_add_affine(acc, G);
    }
    for (uint32_t k = 0; k < 8 * j; k++) acc = g1x_dbl(acc);
    g1a_d r = g1x_to_affine(acc);
    fe_store<FP>(&table[id].x, r.x);
    fe_store<FP>(&table[id].y, r.y);
}

__global__ void __launch_bounds__(THREADS) k_gen_points(g1a_d *out, const scalar_d *t, size_t n, const g1a_d *table) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    scalar_d s = sc_load(t + i);
    g1x_d acc = g1x_inf();
    for (int j = 0; j < 32; j++) {
        uint32_t v = (s.v[j >> 2] >> (8 * (j & 3))) & 255u;
        if (v) acc = g1x_add_affine(acc, g1a_load(table + j * 256 + v));
    }
    g1a_d r = g1x_to_affine(acc);
    fe_store<FP>(&out[i].x, r.x);
    fe_store<FP>(&out[i].y, r.y);
}

/* ---- host-side XYZZ for the final Horner (CPU field, Montgomery fp_t) ---- */
struct hx { fp_t X, Y, ZZ, ZZZ; };
static_assert(sizeof(hx) == sizeof(g1x_d), "layout");
static bool hx_inf(const hx &p) { return fp_is_zero(&p.ZZ); }
static hx hx_dbl(const hx &p) {
    if (hx_inf(p)) return p;
    fp_t U, V, W, S, X2, M, t;
    fp_dbl(&U, &p.Y); fp_sqr(&V, &U); fp_mul(&W, &U, &V); fp_mul(&S, &p.X, &V);
    fp_sqr(&X2, &p.X); fp_dbl(&M, &X2); fp_add(&M, &M, &X2);
    hx r;
    fp_sqr(&r.X, &M); fp_dbl(&t, &S); fp_sub(&r.X, &r.X, &t);
    fp_sub(&t, &S, &r.X); fp_mul(&r.Y, &M, &t); fp_mul(&t, &W, &p.Y); fp_sub(&r.Y, &r.Y, &t);
    fp_mul(&r.ZZ, &V, &p.ZZ); fp_mul(&r.ZZZ, &W, &p.ZZZ);
    return r;
}
static hx hx_add(const hx &p, const hx &q) {
    if (hx_inf(q)) return p;
    if (hx_inf(p)) return q;
    fp_t U1, U2, S1, S2, P, R, PP, PPP, Q, t;
    fp_mul(&U1, &p.X, &q.ZZ); fp_mul(&U2, &q.X, &p.ZZ); fp_mul(&S1, &p.Y, &q.ZZZ); fp_mul(&S2, &q.Y, &p.ZZZ);
    fp_sub(&P, &U2, &U1); fp_sub(&R, &S2, &S1);
    if (fp_is_zero(&P)) {
        if (fp_is_zero(&R)) return hx_dbl(p);
        hx z; memset(&z, 0, sizeof z); return z;
    }
    fp_sqr(&PP, &P); fp_mul(&PPP, &P, &PP); fp_mul(&Q, &U1, &PP);
    hx r;
    fp_sqr(&r.X, &R); fp_sub(&r.X, &r.X, &PPP); fp_dbl(&t, &Q); fp_sub(&r.X, &r.X, &t);
    fp_sub(&t, &Q, &r.X); fp_mul(&r.Y, &R, &t); fp_mul(&t, &S1, &PPP); fp_sub(&r.Y, &r.Y, &t);
    fp_mul(&t, &p.ZZ, &q.ZZ); fp_mul(&r.ZZ, &t, &PP);
    fp_mul(&t, &p.ZZZ, &q.ZZZ); fp_mul(&r.ZZZ, &t, &PPP);
    return r;
}

static unsigned window_bits(size_t n) {
    if (n < 2) return 1;
    unsigned best = 1;
    double best_cost = 1e300;
    for (unsigned c = 1; c <= 22; c++) {
        double W = (double)((256 + c - 1) / c);
        double cost = W * ((double)n + 3.0 * (double)(1u << (c - 1)));
        if (cost < best_cost) { best_cost = cost; best = c; }
    }
    return best;
}

} /* namespace */

struct gpu_g1_bases {
    int device;
    size_t n;
    g1a_d *pts;
    cudaStream_t s_main, s_copy;
    cudaEvent_t ev[8];
    /* scratch, grown on demand and kept */
    dev_buf sc, cnt, off, cursor, ntask, toff, cnt2, off2, items, partA, partB, seg, seg2, cub_tmp, zeros;
    dev_buf tlen, tid, tlen2, tid2, sort_tmp; /* task order (longest first) */
    gpu_msm_timing_t timing;
};

static pm_status make_handle(gpu_g1_bases **out, size_t n, pm_error *err) {
    *out = nullptr;
    if (gpu_available() == 0) return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "no CUDA device");
    if (n >= ((size_t)1 << 31)) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu bases: n = %zu >= 2^31", n);
    pm_status st = self_check(err);
    if (st != PM_OK) return st;
    gpu_g1_bases *b = new (std::nothrow) gpu_g1_bases();
    if (!b) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "gpu bases: host allocation failed");
    cudaGetDevice(&b->device);
    b->n = n;
    cudaError_t e = cudaMalloc(&b->pts, (n ? n : 1) * sizeof(g1a_d));
    if (e != cudaSuccess) { delete b; return cuda_fail(err, e, "cudaMalloc(points)", __FILE__, __LINE__); }
    e = cudaStreamCreateWithFlags(&b->s_main, cudaStreamNonBlocking);
    if (e == cudaSuccess) e = cudaStreamCreateWithFlags(&b->s_copy, cudaStreamNonBlocking);
    for (int i = 0; i < 8 && e == cudaSuccess; i++) e = cudaEventCreate(&b->ev[i]);
    if (e != cudaSuccess) { gpu_g1_bases_free(b); return cuda_fail(err, e, "stream/event create", __FILE__, __LINE__); }
    *out = b;
    return PM_OK;
}

extern "C" pm_status gpu_g1_bases_upload(gpu_g1_bases **out, const g1_affine_t *points, size_t n, pm_error *err) {
    if (!out || (!points && n)) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_g1_bases_upload: NULL argument");
    gpu_g1_bases *b;
    pm_status st = make_handle(&b, n, err);
    if (st != PM_OK) return st;
    /* async on the handle's stream and waited for: a plain cudaMemcpy from pageable memory may
     * return before its DMA lands, and the MSM kernels run on a non-blocking stream */
    cudaError_t e = cudaMemcpyAsync(b->pts, points, n * sizeof(g1a_d), cudaMemcpyHostToDevice, b->s_main);
    if (e == cudaSuccess) e = cudaStreamSynchronize(b->s_main);
    if (e != cudaSuccess) { gpu_g1_bases_free(b); return cuda_fail(err, e, "cudaMemcpy(points)", __FILE__, __LINE__); }
    *out = b;
    return PM_OK;
}

extern "C" pm_status gpu_g1_bases_from_scalars(gpu_g1_bases **out, const fr_t *t_plain, size_t n, pm_error *err) {
    if (!out || (!t_plain && n)) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_g1_bases_from_scalars: NULL argument");
    gpu_g1_bases *b;
    pm_status st = make_handle(&b, n, err);
    if (st != PM_OK) return st;
    dev_buf table, ts;
    cudaError_t e = table.alloc(32 * 256 * sizeof(g1a_d));
    if (e == cudaSuccess) e = ts.alloc(n * sizeof(scalar_d));
    if (e == cudaSuccess) e = cudaMemcpy(ts.p, t_plain, n * sizeof(scalar_d), cudaMemcpyHostToDevice);
    if (e == cudaSuccess) {
        k_gen_table<<<(32 * 256 + 63) / 64, 64>>>(table.as<g1a_d>());
        e = cudaGetLastError();
    }
    if (e == cudaSuccess && n) {
        k_gen_points<<<(unsigned)((n + THREADS - 1) / THREADS), THREADS>>>(b->pts, ts.as<scalar_d>(), n, table.as<g1a_d>());
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) { gpu_g1_bases_free(b); return cuda_fail(err, e, "fixed-base generation", __FILE__, __LINE__); }
    *out = b;
    return PM_OK;
}

extern "C" pm_status gpu_g1_bases_download(g1_affine_t *out, size_t count, const gpu_g1_bases *b, size_t first, pm_error *err) {
    if (!b || (!out && count) || first > b->n || count > b->n - first)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_g1_bases_download: bad range");
    PMCU(cudaMemcpy(out, b->pts + first, count * sizeof(g1a_d), cudaMemcpyDeviceToHost));
    return PM_OK;
}

extern "C" size_t gpu_g1_bases_count(const gpu_g1_bases *b) { return b ? b->n : 0; }

extern "C" void gpu_g1_bases_free(gpu_g1_bases *b) {
    if (!b) return;
    int cur = 0;
    cudaGetDevice(&cur);
    cudaSetDevice(b->device);
    if (b->pts) cudaFree(b->pts);
    for (int i = 0; i < 8; i++) if (b->ev[i]) cudaEventDestroy(b->ev[i]);
    if (b->s_main) cudaStreamDestroy(b->s_main);
    if (b->s_copy) cudaStreamDestroy(b->s_copy);
    delete b; /* dev_buf members free themselves */
    cudaSetDevice(cur);
}

extern "C" unsigned gpu_msm_g1_window_bits(size_t n) { return window_bits(n); }

namespace {
struct msm_plan {
    unsigned c, W;
    uint32_t B, nb, nbt, K, S, L;
    size_t max_items, max_tasks0;
};
static msm_plan plan_for(size_t n) {
    msm_plan p;
    p.c = window_bits(n);
    /* PROOFMILL_GPU_MSM_WINDOW=c forces the window (benchmarks of the cost model; 2..22) */
    if (const char *ce = getenv("PROOFMILL_GPU_MSM_WINDOW")) {
        int c = atoi(ce);
        if (c >= 2 && c <= 22) p.c = (unsigned)c;
    }
    p.W = (256 + p.c - 1) / p.c;
    p.B = 1u << (p.c - 1);
    p.nb = p.W * p.B;
    p.nbt = p.nb + 1; /* + the ones bucket */
    double mean = (double)n / (double)p.B;
    uint32_t K = (uint32_t)(2.0 * mean + 1.0);
    p.K = K < 8 ? 8 : (K > 512 ? 512 : K);
    uint32_t S = 1;
    while ((size_t)p.W * S < 65536 && S < p.B) S <<= 1;
    p.S = S;
    p.L = p.B / S;
    p.max_items = (size_t)n * p.W + 1;
    p.max_tasks0 = p.max_items / p.K + p.nbt + 1;
    return p;
}
} /* namespace */

extern "C" size_t gpu_msm_g1_scratch_size(size_t n) {
    msm_plan p = plan_for(n);
    size_t b = n * sizeof(scalar_d) + 7 * (size_t)(p.nbt + 1) * 4 + p.max_items * 4;
    b += (p.max_tasks0 + (p.max_tasks0 / 2 + p.nbt + 1)) * sizeof(g1x_d);
    b += ((size_t)p.W * p.S + (size_t)p.W * p.S / 2 + 64) * sizeof(g1x_d);
    return b + (64u << 20); /* CUB temporaries, generously */
}

extern "C" void gpu_msm_g1_last_timing(gpu_msm_timing_t *out, const gpu_g1_bases *b) {
    if (out) { if (b) *out = b->timing; else memset(out, 0, sizeof *out); }
}

#define GROW(buf, bytes) PMCU((buf).alloc(bytes))
#define LAUNCH_N(n) (unsigned)(((n) + THREADS - 1) / THREADS), THREADS, 0, st

extern "C" pm_status gpu_msm_g1(g1_jac_t *r, const gpu_g1_bases *cb, size_t first, const fr_t *scalars, size_t n, unsigned flags,
                                pm_error *err) {
    if (!r) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_msm_g1: r is NULL");
    memset(r, 0, sizeof *r); /* infinity (Z = 0) until done */
    if (!cb || (!scalars && n)) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_msm_g1: NULL argument");
    if (first > cb->n || n > cb->n - first)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_msm_g1: range [%zu, %zu) outside %zu bases", first, first + n, cb->n);
    gpu_g1_bases *b = const_cast<gpu_g1_bases *>(cb); /* scratch and timing are mutable state */
    memset(&b->timing, 0, sizeof b->timing);
    if (n == 0) return PM_OK;
    int cur = 0;
    PMCU(cudaGetDevice(&cur));
    if (cur != b->device) PMCU(cudaSetDevice(b->device));
    const msm_plan p = plan_for(n);
    const int split = !(flags & GPU_MSM_NO_01_SPLIT);
    cudaStream_t st = b->s_main;
    if ((size_t)n * p.W + 1 >= 0xffffffffu)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_msm_g1: n = %zu too large for 32-bit bucket offsets", n);

    /* scratch */
    GROW(b->cnt, (p.nbt + 1) * 4u);
    GROW(b->off, (p.nbt + 1) * 4u);
    GROW(b->cursor, (p.nbt + 1) * 4u);
    GROW(b->ntask, (p.nbt + 1) * 4u);
    GROW(b->toff, (p.nbt + 1) * 4u);
    GROW(b->cnt2, (p.nbt + 1) * 4u);
    GROW(b->off2, (p.nbt + 1) * 4u);
    GROW(b->zeros, 8);
    const scalar_d *sc;
    if (flags & GPU_MSM_SCALARS_DEVICE) {
        sc = reinterpret_cast<const scalar_d *>(scalars);
        if (flags & GPU_MSM_SCALARS_MONT) {
            GROW(b->sc, n * sizeof(scalar_d));
            PMCU(cudaMemcpyAsync(b->sc.p, scalars, n * sizeof(scalar_d), cudaMemcpyDeviceToDevice, st));
            sc = b->sc.as<scalar_d>();
        }
    } else {
        GROW(b->sc, n * sizeof(scalar_d));
        sc = b->sc.as<scalar_d>();
    }
    size_t cub_bytes = 0, cub2 = 0;
    PMCU(cub::DeviceScan::ExclusiveSum(nullptr, cub_bytes, (uint32_t *)nullptr, (uint32_t *)nullptr, p.nbt + 1, st));
    PMCU(cub::DeviceReduce::Max(nullptr, cub2, (uint32_t *)nullptr, (uint32_t *)nullptr, p.nbt, st));
    GROW(b->cub_tmp, cub_bytes > cub2 ? cub_bytes : cub2);

    PMCU(cudaEventRecord(b->ev[0], st));
    PMCU(cudaMemsetAsync(b->cnt.p, 0, (p.nbt + 1) * 4u, st));
    PMCU(cudaMemsetAsync(b->zeros.p, 0, 8, st));

    /* 1. scalars in (chunked on the copy stream, overlapped with the digit pass) + histogram */
    const size_t nchunk = (!(flags & GPU_MSM_SCALARS_DEVICE) && n >= (1u << 16)) ? 8 : 1;
    const size_t chunk = (n + nchunk - 1) / nchunk;
    PMCU(cudaEventRecord(b->ev[6], st));
    PMCU(cudaStreamWaitEvent(b->s_copy, b->ev[6], 0));
    for (size_t c0 = 0; c0 < n; c0 += chunk) {
        size_t m = n - c0 < chunk ? n - c0 : chunk;
        if (!(flags & GPU_MSM_SCALARS_DEVICE)) {
            PMCU(cudaMemcpyAsync(b->sc.as<scalar_d>() + c0, scalars + c0, m * sizeof(scalar_d), cudaMemcpyHostToDevice, b->s_copy));
            PMCU(cudaEventRecord(b->ev[7], b->s_copy));
            PMCU(cudaStreamWaitEvent(st, b->ev[7], 0));
        }
        if (flags & GPU_MSM_SCALARS_MONT) {
            k_from_mont<<<LAUNCH_N(m)>>>(b->sc.as<scalar_d>() + c0, m);
            PMCU_LAUNCH();
        }
        k_hist<<<LAUNCH_N(m)>>>(sc + c0, m, (int)p.c, (int)p.W, p.B, b->cnt.as<uint32_t>(), p.nb,
                                b->zeros.as<unsigned long long>(), split);
        PMCU_LAUNCH();
    }
    PMCU(cudaEventRecord(b->ev[1], st));

    /* 2. offsets, scatter */
    PMCU(cub::DeviceScan::ExclusiveSum(b->cub_tmp.p, cub_bytes, b->cnt.as<uint32_t>(), b->off.as<uint32_t>(), p.nbt + 1, st));
    uint32_t total_items = 0;
    PMCU(cudaMemcpyAsync(&total_items, b->off.as<uint32_t>() + p.nbt, 4, cudaMemcpyDeviceToHost, st));
    PMCU(cudaMemcpyAsync(b->cursor.p, b->off.p, (p.nbt + 1) * 4u, cudaMemcpyDeviceToDevice, st));
    unsigned long long zeros = 0;
    PMCU(cudaMemcpyAsync(&zeros, b->zeros.p, 8, cudaMemcpyDeviceToHost, st));
    PMCU(cudaStreamSynchronize(st));
    GROW(b->items, (size_t)(total_items ? total_items : 1) * 4u);
    PMCU(cudaEventRecord(b->ev[2], st));
    k_scatter<<<LAUNCH_N(n)>>>(sc, n, (int)p.c, (int)p.W, p.B, b->cursor.as<uint32_t>(), p.nb, b->items.as<uint32_t>(), split);
    PMCU_LAUNCH();
    PMCU(cudaEventRecord(b->ev[3], st));

    /* 3. accumulation: level 0 from points, then partial levels until each bucket has <= 1 value */
    uint32_t *cnt = b->cnt.as<uint32_t>(), *off = b->off.as<uint32_t>();
    uint32_t *cntN = b->cnt2.as<uint32_t>(), *offN = b->off2.as<uint32_t>();
    g1x_d *part = nullptr;
    int level = 0;
    for (;;) {
        k_ntasks<<<LAUNCH_N(p.nbt)>>>(b->ntask.as<uint32_t>(), cnt, p.nbt, p.K);
        PMCU_LAUNCH();
        PMCU(cudaMemsetAsync(b->ntask.as<uint32_t>() + p.nbt, 0, 4, st));
        PMCU(cub::DeviceScan::ExclusiveSum(b->cub_tmp.p, cub_bytes, b->ntask.as<uint32_t>(), b->toff.as<uint32_t>(), p.nbt + 1, st));
        uint32_t ntasks = 0;
        PMCU(cudaMemcpyAsync(&ntasks, b->toff.as<uint32_t>() + p.nbt, 4, cudaMemcpyDeviceToHost, st));
        PMCU(cudaStreamSynchronize(st));
        dev_buf &dst = (level % 2 == 0) ? b->partA : b->partB;
        GROW(dst, (size_t)(ntasks ? ntasks : 1) * sizeof(g1x_d));
        /* Bucket sizes vary (Poisson around n/B for random scalars), so a warp would wait for its
         * longest task: run the tasks longest first, in warps of equal length (radix sort on the
         * length, <= 10 key bits). Skipped when there are few tasks. */
        const uint32_t *order = nullptr;
        if (ntasks >= 8192 && !(flags & GPU_MSM_NO_TASK_SORT)) {
            GROW(b->tlen, (size_t)ntasks * 4u);
            GROW(b->tid, (size_t)ntasks * 4u);
            GROW(b->tlen2, (size_t)ntasks * 4u);
            GROW(b->tid2, (size_t)ntasks * 4u);
            k_task_len<<<LAUNCH_N(ntasks)>>>(b->tlen.as<uint32_t>(), b->tid.as<uint32_t>(), ntasks, b->toff.as<uint32_t>(), cnt, p.nbt, p.K);
            PMCU_LAUNCH();
            size_t sort_bytes = 0;
            PMCU(cub::DeviceRadixSort::SortPairsDescending(nullptr, sort_bytes, b->tlen.as<uint32_t>(), b->tlen2.as<uint32_t>(),
                                                            b->tid.as<uint32_t>(), b->tid2.as<uint32_t>(), (int)ntasks, 0, 10, st));
            GROW(b->sort_tmp, sort_bytes);
            PMCU(cub::DeviceRadixSort::SortPairsDescending(b->sort_tmp.p, sort_bytes, b->tlen.as<uint32_t>(), b->tlen2.as<uint32_t>(),
                                                            b->tid.as<uint32_t>(), b->tid2.as<uint32_t>(), (int)ntasks, 0, 10, st));
            order = b->tid2.as<uint32_t>();
        }
        if (ntasks) {
            if (level == 0)
                k_accum_points<<<LAUNCH_N(ntasks)>>>(dst.as<g1x_d>(), ntasks, b->toff.as<uint32_t>(), off, cnt, p.nbt, p.K,
                                                    b->items.as<uint32_t>(), b->pts + first, order);
            else
                k_accum_partials<<<LAUNCH_N(ntasks)>>>(dst.as<g1x_d>(), ntasks, b->toff.as<uint32_t>(), off, cnt, p.nbt, p.K, part, order);
            PMCU_LAUNCH();
        }
        part = dst.as<g1x_d>();
        /* the new level: counts = tasks per bucket, offsets = task offsets */
        PMCU(cudaMemcpyAsync(cntN, b->ntask.p, (p.nbt + 1) * 4u, cudaMemcpyDeviceToDevice, st));
        PMCU(cudaMemcpyAsync(offN, b->toff.p, (p.nbt + 1) * 4u, cudaMemcpyDeviceToDevice, st));
        uint32_t *t1 = cnt, *t2 = off;
        cnt = cntN; off = offN; cntN = t1; offN = t2;
        PMCU(cub::DeviceReduce::Max(b->cub_tmp.p, cub2, cnt, b->cursor.as<uint32_t>(), p.nbt, st));
        uint32_t mx = 0;
        PMCU(cudaMemcpyAsync(&mx, b->cursor.p, 4, cudaMemcpyDeviceToHost, st));
        PMCU(cudaStreamSynchronize(st));
        level++;
        if (mx <= 1) break;
        if (level > 40) return pm_error_set(err, PM_ERR_INTERNAL, "", PM_NO_OFFSET, "gpu_msm_g1: accumulation does not converge (%s:%d)", __FILE__, __LINE__);
    }
    PMCU(cudaEventRecord(b->ev[4], st));

    /* 4. bucket reduction per window: segments, then trees of up to 256 */
    GROW(b->seg, (size_t)p.W * p.S * sizeof(g1x_d));
    GROW(b->seg2, ((size_t)p.W * p.S / 2 + 64) * sizeof(g1x_d));
    k_reduce_segments<<<LAUNCH_N((size_t)p.W * p.S)>>>(b->seg.as<g1x_d>(), (int)p.W, p.B, p.S, p.L, part, off, cnt);
    PMCU_LAUNCH();
    g1x_d *cur_in = b->seg.as<g1x_d>(), *cur_out = b->seg2.as<g1x_d>();
    uint32_t per = p.S;
    while (per > 1) {
        uint32_t G = per > 256 ? 256 : per;
        uint32_t groups = (uint32_t)((size_t)p.W * per / G);
        k_tree_sum<<<groups, G, (G / 2) * sizeof(g1x_d), st>>>(cur_out, cur_in, G);
        PMCU_LAUNCH();
        per /= G;
        g1x_d *t = cur_in; cur_in = cur_out; cur_out = t;
    }
    /* now cur_in[j] = window j's sum; fetch it and the ones bucket */
    std::vector<hx> win(p.W + 1);
    PMCU(cudaMemcpyAsync(win.data(), cur_in, p.W * sizeof(hx), cudaMemcpyDeviceToHost, st));
    uint32_t ones_cnt = 0, ones_off = 0;
    PMCU(cudaMemcpyAsync(&ones_cnt, cnt + p.nb, 4, cudaMemcpyDeviceToHost, st));
    PMCU(cudaMemcpyAsync(&ones_off, off + p.nb, 4, cudaMemcpyDeviceToHost, st));
    PMCU(cudaEventRecord(b->ev[5], st));
    PMCU(cudaStreamSynchronize(st));
    memset(&win[p.W], 0, sizeof(hx));
    if (ones_cnt) PMCU(cudaMemcpy(&win[p.W], part + ones_off, sizeof(hx), cudaMemcpyDeviceToHost));

    /* 5. Horner over windows on the host, plus the ones bucket */
    hx acc;
    memset(&acc, 0, sizeof acc);
    for (int j = (int)p.W - 1; j >= 0; j--) {
        for (unsigned k = 0; k < p.c; k++) acc = hx_dbl(acc);
        acc = hx_add(acc, win[j]);
    }
    acc = hx_add(acc, win[p.W]);
    if (hx_inf(acc)) {
        memset(r, 0, sizeof *r);
        r->X = FP_ONE;
        r->Y = FP_ONE;
    } else { /* Jacobian: Z = ZZZ, X = X*ZZ^2, Y = Y*ZZZ^2 */
        fp_t t;
        fp_sqr(&t, &acc.ZZ); fp_mul(&r->X, &acc.X, &t);
        fp_sqr(&t, &acc.ZZZ); fp_mul(&r->Y, &acc.Y, &t);
        r->Z = acc.ZZZ;
    }

    gpu_msm_timing_t &tm = b->timing;
    cudaEventElapsedTime(&tm.upload_digits, b->ev[0], b->ev[1]);
    cudaEventElapsedTime(&tm.scan, b->ev[1], b->ev[2]);
    cudaEventElapsedTime(&tm.scatter, b->ev[2], b->ev[3]);
    cudaEventElapsedTime(&tm.accumulate, b->ev[3], b->ev[4]);
    cudaEventElapsedTime(&tm.reduce, b->ev[4], b->ev[5]);
    cudaEventElapsedTime(&tm.total, b->ev[0], b->ev[5]);
    tm.window_bits = p.c;
    tm.windows = p.W;
    tm.ones = ones_cnt;
    tm.zeros = (size_t)zeros;
    if (cur != b->device) cudaSetDevice(cur);
    return PM_OK;
}
