/*
 * ntt_core.cuh — the algorithmic core of the device NTT and the H pipelines' fused passes, and the
 * field / memory primitives the SpMV rows (spmv_core.cuh) use, written once as __host__ __device__
 * code (internal to src/gpu).
 *
 * Why host + device: the kernels in ntt.cu / h_pipeline.cu / spmv.cu are thin shells that call the
 * phase functions below between __syncthreads(); tests/gpu/test_gpu_ntt_host.cu runs the very same
 * phase functions sequentially on the host (every thread of a phase, then the next phase: a block's
 * threads communicate only through shared memory across barriers, and no register state survives a
 * barrier), with the CPU field (field/fr.h) in place of the PTX multiplier, and compares with the CPU
 * references (ntt/ntt.h, r1cs_spmv). Only the field primitives and the memory accessors differ between
 * the two paths (the `f_*` and `ld*` / `st` wrappers: field.cuh's PTX on the device, fr_mul & co. on
 * the host; fr_t and fe<fr_params> have the same bytes on a little-endian host).
 *
 * ---- The NTT pass (one kernel launch) ----
 * A radix-2 network of L = log_n stages (DIT: Cooley-Tukey, bit-reversed in -> natural out; DIF:
 * Gentleman-Sande, natural in -> bit-reversed out; twiddle of stage s at index i: w_{2^(s+1)}^j with
 * j = i mod 2^s, i.e. tw[j << (L-1-s)] of one table tw[t] = omega_n^t, t < n/2) is cut into passes of
 * S <= 10 consecutive stages [s0, s0+S). The elements a pass combines differ only in index bits
 * s0..s0+S-1, so a block takes C = 2^log_c columns (consecutive lo < 2^s0) of 2^S elements each,
 * index = hi * 2^(s0+S) + k * 2^s0 + lo, k < 2^S, into shared memory (coalesced: for each k the C
 * columns are C * 32 contiguous bytes), runs the S stages and writes the tile back.
 * Inside the tile each thread holds R = 2^lr (lr = min(max_lr, S); max_lr = 2 by default, 3 on request)
 * elements in registers and runs up to lr stages on them (a radix-4 round: 2 butterflies per stage, 2 stages;
 * radix 8: 4 butterflies, 3 stages; no shared memory traffic), then the tile goes through shared memory to
 * regroup for the next round: S = 9 is 5 radix-4 rounds (3 radix-8). At most 256 threads per block: radix-4
 * tiles of 9 stages hold 2 columns (2^10 elements, 32 KB).
 * Round q covers local stages [a, a+r) (a = q*lr, r = min(lr, S-a)); register t holds local index
 * k = base(thread) | off[t]: the low r bits of t are k's bits a..a+r-1, the rest of t (lr - r bits,
 * last round only) and the thread bits fill the other bit positions (round_map).
 * Variants for measurement (off by default): network_plan's round_split sizes the passes for the fewest
 * rounds (PROOFMILL_GPU_NTT_SPLIT), pass_round's TWS loads a full round's shared twiddles once
 * (PROOFMILL_GPU_NTT_TWSHARE), the passes with s0 > 0 in four-step form (PROOFMILL_GPU_NTT_FOURSTEP,
 * pass_fs_factor). None measured faster on the H200 (SPLIT ~1.00x, TWSHARE 1.03x, FOURSTEP 1.06x:
 * docs/perf/gpu.md); the four-step code stays because the default kernels compiled with it measured
 * 0.98x of those without it, in one call.
 * Shared layout: two planes of 16-byte halves (a warp's LDS.128 of consecutive elements is then
 * conflict-free), element (k, c) at ((k ^ ((k >> 3) & 7)) << log_c) | c: the XOR swizzle keeps the
 * stride-8 access of the first round conflict-free (the host test counts the bank groups of every
 * plan to 2^28: all conflict-free except one 2-way round of 2^20's second pass).
 * Inverse direction: omega^-t = -omega^(n/2 - t) (omega^(n/2) = -1), so one table serves both and the
 * sign goes into the butterfly for free (DIT: (u - w'v, u + w'v); DIF: (u + v, (v - u) w')).
 * Fused extras (runtime flags, warp-uniform): the load can multiply two inputs (x = a*b) or form
 * x = a*b - c; the load / store can scale element i by c * x^e (e = rev_L(i), a pow table lo * hi,
 * or a constant); the store can write from_mont(aux1 * x - aux2) (the snarkjs H's last step),
 * aux1 * x or aux1 - x (the two-buffer bellperson H). aux1 may be dst (read before the write).
 * Cost per pass: 2^(S-1) * S butterflies per column, one Montgomery multiplication each except the
 * trivial twiddles (j = 0: skipped lane by lane; a warp skips the product only where all its lanes
 * have j = 0, which in the first DIT pass / last DIF pass is the stages held in registers in the
 * first round: stages 0..1 with radix-4 rounds, 0.75 n of the pass's 4.5 n at 2^27; 0..2 with
 * radix 8, 0.875 n), 64 B of global traffic per element, 2 * (rounds + 1) shared accesses.
 *
 * ---- Bit reversal (in place, tiled) ----
 * i = [a: tb bits | m: L - 2 tb bits | b: tb bits] -> rev(i) = [rev b | rev m | rev a]: the 2^tb x 2^tb
 * tile of middle m goes transposed (and bit-reversed inside) to the tile of middle rev(m); one block
 * swaps the two tiles (reads and writes are runs of 2^tb contiguous elements). Optional scaling by
 * c * x^e with e the source or the destination index.
 *
 * The SpMV rows (R1CS) are spmv_core.cuh, on these primitives.
 *
 * Sources: Cooley & Tukey 1965; Gentleman & Sande 1966; the pass/tile decomposition is the usual
 * "four-step" blocking (Bailey 1990), here with the mixed twiddles of the in-place network.
 */
#pragma once
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#include "field.cuh"
#include "field/fr.h"
#include "ntt/ntt.h"
#include "util/error.h"

/* field.cuh's PM_HD is a plain `inline` on the host; the NTT's host test wants its butterflies forced
 * inline there too (the device definition is the same), so it is redefined, not left to a warning.
 * PM_UNROLL comes from field.cuh. */
#undef PM_HD
#define PM_HD __host__ __device__ __forceinline__

namespace pmgpu {
namespace ntc {

typedef fe<fr_params> fr_d;
static_assert(sizeof(fr_d) == sizeof(fr_t), "device and host Fr layouts differ");

/* ---- field primitives: device = field.cuh (PTX), host = the CPU field (same bytes) ---- */
#ifndef __CUDA_ARCH__
template <void (*OP)(fr_t *, const fr_t *, const fr_t *)> inline fr_d host_op2(const fr_d &a, const fr_d &b) {
    fr_t x, y, r;
    memcpy(&x, &a, 32);
    memcpy(&y, &b, 32);
    OP(&r, &x, &y);
    fr_d o;
    memcpy(&o, &r, 32);
    return o;
}
#endif
#ifdef __CUDA_ARCH__
#define PM_FR_OP2(name, dev, host) \
    PM_HD fr_d name(const fr_d &a, const fr_d &b) { return dev<fr_params>(a, b); }
#else
#define PM_FR_OP2(name, dev, host) \
    PM_HD fr_d name(const fr_d &a, const fr_d &b) { return host_op2<host>(a, b); }
#endif
PM_FR_OP2(f_mul, fe_mul, fr_mul)
PM_FR_OP2(f_add, fe_add, fr_add)
PM_FR_OP2(f_sub, fe_sub, fr_sub)
#undef PM_FR_OP2
PM_HD fr_d f_from_mont(const fr_d &a) { /* a * 1 (Montgomery product with the plain integer 1) */
#ifdef __CUDA_ARCH__
    return fe_from_mont<fr_params>(a);
#else
    fr_d one = {{1u, 0, 0, 0, 0, 0, 0, 0}};
    return host_op2<fr_mul>(a, one);
#endif
}
PM_HD fr_d f_zero() { fr_d r; for (int i = 0; i < 8; i++) r.v[i] = 0; return r; }
PM_HD bool f_is_zero(const fr_d &a) { uint32_t t = 0; for (int i = 0; i < 8; i++) t |= a.v[i]; return t == 0; }
PM_HD bool f_eq(const fr_d &a, const fr_d &b) { uint32_t t = 0; for (int i = 0; i < 8; i++) t |= a.v[i] ^ b.v[i]; return t == 0; }

/* ---- memory: 16-byte vector accesses on the device, memcpy on the host ---- */
PM_HD fr_d from_halves(const uint4 &a, const uint4 &b) {
    fr_d r;
    r.v[0] = a.x; r.v[1] = a.y; r.v[2] = a.z; r.v[3] = a.w; r.v[4] = b.x; r.v[5] = b.y; r.v[6] = b.z; r.v[7] = b.w;
    return r;
}
PM_HD fr_d ld(const fr_d *p) {
#ifdef __CUDA_ARCH__
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
    return from_halves(q[0], q[1]);
#else
    fr_d r; memcpy(&r, p, 32); return r;
#endif
}
/* read-only data (twiddles, tables, matrices, witness): through the non-coherent cache */
PM_HD fr_d ld_ro(const fr_d *p) {
#ifdef __CUDA_ARCH__
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
    return from_halves(__ldg(q), __ldg(q + 1));
#else
    fr_d r; memcpy(&r, p, 32); return r;
#endif
}
template <class T> PM_HD T ld_ro_u(const T *p) {
#ifdef __CUDA_ARCH__
    return __ldg(p);
#else
    return *p;
#endif
}
PM_HD void st(fr_d *p, const fr_d &a) {
#ifdef __CUDA_ARCH__
    uint4 *q = reinterpret_cast<uint4 *>(p);
    q[0] = make_uint4(a.v[0], a.v[1], a.v[2], a.v[3]);
    q[1] = make_uint4(a.v[4], a.v[5], a.v[6], a.v[7]);
#else
    memcpy(p, &a, 32);
#endif
}
/* shared memory: element e of a tile of E elements as two 16-byte planes */
PM_HD fr_d sh_ld(const uint4 *sh, uint32_t E, uint32_t e) { return from_halves(sh[e], sh[E + e]); }
PM_HD void sh_st(uint4 *sh, uint32_t E, uint32_t e, const fr_d &a) {
    uint4 lo, hi;
    lo.x = a.v[0]; lo.y = a.v[1]; lo.z = a.v[2]; lo.w = a.v[3];
    hi.x = a.v[4]; hi.y = a.v[5]; hi.z = a.v[6]; hi.w = a.v[7];
    sh[e] = lo;
    sh[E + e] = hi;
}

/* the low `bits` bits of x reversed (bits <= 32; 0 gives 0) */
PM_HD uint32_t brev(uint32_t x, unsigned bits) {
    if (bits == 0) return 0;
#ifdef __CUDA_ARCH__
    return __brev(x) >> (32 - bits);
#else
    uint32_t r = 0;
    for (unsigned i = 0; i < bits; i++) r |= ((x >> i) & 1u) << (bits - 1 - i);
    return r;
#endif
}

/* ---- scale factors c * x^e, e < n ---- */
enum { SC_NONE = 0, SC_CONST = 1, SC_POW = 2 };
constexpr uint32_t POW_LO_BITS = 12;
struct pow_tab {
    const fr_d *lo; /* SC_POW: c * x^i, i < 4096; SC_CONST: lo[0] = c */
    const fr_d *hi; /* SC_POW: x^(4096 j), j < max(1, n / 4096) */
    int mode;
};
PM_HD fr_d scale_at(const pow_tab &t, uint32_t e) {
    if (t.mode == SC_CONST) return ld_ro(t.lo);
    return f_mul(ld_ro(t.lo + (e & ((1u << POW_LO_BITS) - 1))), ld_ro(t.hi + (e >> POW_LO_BITS)));
}

/* ---- NTT pass ---- */
enum { LD_PLAIN = 0, LD_MUL = 1, LD_MULSUB = 2 };        /* x = src | src*src2 | src*src2 - src3 */
enum { ST_PLAIN = 0, ST_MULSUB_PLAIN = 1, ST_MUL = 2, ST_RSUB = 3 }; /* dst = x | from_mont(aux1*x - aux2) | aux1*x | aux1 - x */
constexpr int MAX_PASS_BITS = 10;
constexpr int MAX_ROUNDS = MAX_PASS_BITS;

struct round_map {
    uint8_t a, r;      /* local stages [a, a+r) */
    uint8_t x1, w1, y1; /* thread bits u -> k: (u & (2^w1-1)) << x1 | (u >> w1) << y1 */
    uint16_t off[8];   /* register t -> its bits of k */
};

struct pass_args {
    fr_d *dst;
    const fr_d *src, *src2, *src3; /* load inputs (src may equal dst: each block reads its tile first) */
    const fr_d *aux1, *aux2;       /* store op inputs */
    const fr_d *tw;                /* n/2 forward twiddles omega^t */
    pow_tab pre, post;             /* scale at load / at store by c * x^rev_L(i) */
    uint32_t log_n, s0, S, lr, log_c;
    uint32_t inverse, ldop, stop;
    uint32_t fs;                   /* four-step form of a pass with s0 > 0 (pass_fs_factor): 1 DIT, 2 DIF */
    uint32_t nrounds;
    round_map rm[MAX_ROUNDS];
};

PM_HD uint32_t pass_threads(const pass_args &a) { return 1u << (a.S - a.lr + a.log_c); }
PM_HD uint32_t pass_tile(const pass_args &a) { return 1u << (a.S + a.log_c); }
PM_HD uint32_t pass_blocks(const pass_args &a) { return (1u << a.log_n) >> (a.S + a.log_c); }
PM_HD uint32_t sh_index(uint32_t k, uint32_t c, uint32_t log_c) { return ((k ^ ((k >> 3) & 7u)) << log_c) | c; }
/* first element index (hi * 2^(s0+S) + lo0) of block blk's tile */
PM_HD uint32_t pass_origin(const pass_args &a, uint32_t blk) {
    const uint32_t gbits = a.s0 - a.log_c; /* column groups per hi */
    const uint32_t hi = blk >> gbits, lo0 = (blk & ((1u << gbits) - 1)) << a.log_c;
    return (hi << (a.s0 + a.S)) | lo0;
}

/* The four-step form of a pass (PROOFMILL_GPU_NTT_FOURSTEP, passes with s0 > 0): the twiddle of local stage
 * sig for local index k of column lo is w_{2^(sig+1)}^(k mod 2^sig) * w_{2^(s0+sig+1)}^lo; the column parts of
 * all S stages together equal one factor per element, D(k) = w_{2^(s0+S)}^(lo rev_S(k)) (inverse: its
 * inverse), applied to the DIT pass's input or the DIF pass's output (the DIF network is the DIT's
 * transpose), so the rounds need only the 2^S - 1 twiddles of a 2^S-point network, the same for every
 * block (L1-resident), and the pass's one large-table read per element moves from the rounds' dependent
 * products into the independent load (or store) phase. Products: + 1 per element, - the trivial small
 * twiddles (k mod 2^sig = 0; warp-uniform only in the first round). Returns false when D(k) = 1. */
PM_HD bool pass_fs_factor(const pass_args &a, uint32_t k, uint32_t lo, fr_d &f) {
    const uint32_t e = (lo * brev(k, a.S)) << (a.log_n - a.s0 - a.S); /* < 2^log_n */
    if (e == 0) return false;
    const uint32_t n = 1u << a.log_n, half = n >> 1, t = a.inverse ? n - e : e;
    if (t < half) f = ld_ro(a.tw + t);
    else f = f_sub(f_zero(), ld_ro(a.tw + (t - half))); /* w^t = -w^(t - n/2) */
    return true;
}

template <int LR> PM_HD void pass_load(const pass_args &a, uint32_t blk, uint32_t tid, uint4 *sh) {
    const uint32_t T = pass_threads(a), E = pass_tile(a), C = 1u << a.log_c;
    const uint32_t org = pass_origin(a, blk);
PM_UNROLL
    for (int i = 0; i < (1 << LR); i++) {
        const uint32_t v = tid + i * T, k = v >> a.log_c, c = v & (C - 1);
        const uint32_t g = org + (k << a.s0) + c;
        fr_d x = ld(a.src + g);
        if (a.ldop != LD_PLAIN) {
            x = f_mul(x, ld(a.src2 + g));
            if (a.ldop == LD_MULSUB) x = f_sub(x, ld(a.src3 + g));
        }
        if (a.pre.mode != SC_NONE) x = f_mul(x, scale_at(a.pre, brev(g, a.log_n)));
        fr_d f;
        if (a.fs == 1 && pass_fs_factor(a, k, (org & ((1u << a.s0) - 1)) + c, f)) x = f_mul(x, f); /* DIT: D(k) first */
        sh_st(sh, E, sh_index(k, c, a.log_c), x);
    }
}

template <int LR> PM_HD void pass_store(const pass_args &a, uint32_t blk, uint32_t tid, const uint4 *sh) {
    const uint32_t T = pass_threads(a), E = pass_tile(a), C = 1u << a.log_c;
    const uint32_t org = pass_origin(a, blk);
PM_UNROLL
    for (int i = 0; i < (1 << LR); i++) {
        const uint32_t v = tid + i * T, k = v >> a.log_c, c = v & (C - 1);
        const uint32_t g = org + (k << a.s0) + c;
        fr_d x = sh_ld(sh, E, sh_index(k, c, a.log_c));
        fr_d f;
        if (a.fs == 2 && pass_fs_factor(a, k, (org & ((1u << a.s0) - 1)) + c, f)) x = f_mul(x, f); /* DIF: D(k) last */
        if (a.post.mode != SC_NONE) x = f_mul(x, scale_at(a.post, brev(g, a.log_n)));
        if (a.stop == ST_MULSUB_PLAIN) x = f_from_mont(f_sub(f_mul(ld(a.aux1 + g), x), ld(a.aux2 + g)));
        else if (a.stop == ST_MUL) x = f_mul(ld(a.aux1 + g), x);
        else if (a.stop == ST_RSUB) x = f_sub(ld(a.aux1 + g), x);
        st(a.dst + g, x);
    }
}

/* twiddle omega^ti (inverse: -omega^(n/2 - ti), the sign handled by the butterfly); TWS: reuse the cached
 * one when `reuse`, store the loaded one in the cache when `keep` */
template <bool TWS> PM_HD fr_d pass_twiddle(const pass_args &a, uint32_t ti, uint32_t half, bool reuse, bool keep, fr_d &cache) {
    if constexpr (TWS) {
        const fr_d w = reuse ? cache : ld_ro(a.tw + (a.inverse ? half - ti : ti));
        if (keep) cache = w;
        return w;
    } else {
        (void)reuse; (void)keep; (void)cache;
        return ld_ro(a.tw + (a.inverse ? half - ti : ti));
    }
}

/* one round (up to LR stages in registers) of the pass; q indexes a.rm.
 * TWS: in a full round (m.r == LR, no extra register bits: off[t] = t << a) the twiddle of butterfly t at
 * round stage uu depends only on t's low uu bits (kk[t] mod 2^sig = (base mod 2^sig) | (t mod 2^uu) << a),
 * so the butterflies with the same low bits load it once (radix 4: 3 loads per round instead of 4). */
template <int LR, bool DIF, bool TWS = false>
PM_HD void pass_round(const pass_args &a, uint32_t blk, uint32_t q, uint32_t tid, uint4 *sh) {
    constexpr int R = 1 << LR;
    const uint32_t E = pass_tile(a), C = 1u << a.log_c;
    const round_map &m = a.rm[q];
    const uint32_t c = tid & (C - 1), u = tid >> a.log_c;
    const uint32_t base = ((u & ((1u << m.w1) - 1)) << m.x1) | ((u >> m.w1) << m.y1);
    /* four-step: the twiddles of a 2^S-point network (as if s0 = 0 and lo = 0; the column part is D(k)) */
    const uint32_t s0 = a.fs ? 0 : a.s0, lo = a.fs ? 0 : (pass_origin(a, blk) & ((1u << a.s0) - 1)) + c;
    const uint32_t half = (1u << a.log_n) >> 1;
    fr_d r[R];
    uint32_t kk[R];
    const bool full = TWS && m.r == (uint32_t)LR;
PM_UNROLL
    for (int t = 0; t < R; t++) {
        kk[t] = base | m.off[t];
        r[t] = sh_ld(sh, E, sh_index(kk[t], c, a.log_c));
    }
PM_UNROLL
    for (int ii = 0; ii < LR; ii++) {
        const int uu = DIF ? LR - 1 - ii : ii;
        if (uu >= (int)m.r) continue;
        const uint32_t sig = m.a + uu;           /* local stage */
        const uint32_t sh_t = a.log_n - 1 - s0 - sig; /* twiddle index = j << sh_t */
        fr_d wc[R / 2]; /* TWS: the twiddle of low bits p, loaded by butterfly t = p */
PM_UNROLL
        for (int t = 0; t < R; t++) {
            if ((t >> uu) & 1) continue;
            const int t1 = t | (1 << uu), p = t & ((1 << uu) - 1);
            const uint32_t j = ((kk[t] & ((1u << sig) - 1)) << s0) | lo;
            const uint32_t ti = j << sh_t;
            fr_d x = r[t], y = r[t1];
            if (!DIF) {
                if (ti) y = f_mul(y, pass_twiddle<TWS>(a, ti, half, t != p && full, t == p, wc[p]));
                if (ti && a.inverse) { r[t] = f_sub(x, y); r[t1] = f_add(x, y); }
                else { r[t] = f_add(x, y); r[t1] = f_sub(x, y); }
            } else {
                r[t] = f_add(x, y);
                fr_d d = (ti && a.inverse) ? f_sub(y, x) : f_sub(x, y);
                if (ti) d = f_mul(d, pass_twiddle<TWS>(a, ti, half, t != p && full, t == p, wc[p]));
                r[t1] = d;
            }
        }
    }
PM_UNROLL
    for (int t = 0; t < R; t++) sh_st(sh, E, sh_index(kk[t], c, a.log_c), r[t]);
}

/* Fill the geometry of a pass over stages [s0, s0+S) of an L-stage network (host or device); tiles
 * of at most 2^tile_bits elements (11: 64 KB of shared memory, 256 threads at 9 stages; 10 and 9 give
 * 32 / 16 KB tiles and more resident blocks per SM: PROOFMILL_GPU_NTT_TILE). */
constexpr uint32_t NTT_TILE_BITS = 11;
/* radix-4 rounds by default (2026-12-03: 4 elements per thread, 64 registers, 8 warps per scheduler beat radix 8 at
 * 116 registers and 4 warps by 0.93x / 0.91x on the 2^27 forward / bellperson H: docs/perf/gpu.md) */
constexpr uint32_t NTT_MAX_LR = 2;
PM_HD void pass_plan(pass_args &a, uint32_t L, uint32_t s0, uint32_t S, uint32_t tile_bits = NTT_TILE_BITS, uint32_t max_lr = NTT_MAX_LR) {
    a.log_n = L;
    a.s0 = s0;
    a.S = S;
    if (max_lr < 1 || max_lr > 3) max_lr = NTT_MAX_LR;
    a.lr = S < max_lr ? S : max_lr;
    /* columns per block: tiles of at most 2^tile_bits elements and at most 256 threads */
    uint32_t lc = S < tile_bits ? tile_bits - S : 0;
    if (S + lc > 8 + a.lr) lc = 8 + a.lr > S ? 8 + a.lr - S : 0;
    a.log_c = lc < s0 ? lc : s0;
    a.nrounds = 0;
    for (uint32_t q = 0, lo = 0; lo < S; q++, lo += a.lr) {
        round_map &m = a.rm[q];
        const uint32_t r = S - lo < a.lr ? S - lo : a.lr;
        const uint32_t e = a.lr - r; /* extra register bits */
        m.a = (uint8_t)lo;
        m.r = (uint8_t)r;
        /* the other bit positions of k, ascending: the first e go to the registers */
        uint32_t pos[MAX_PASS_BITS], np = 0;
        for (uint32_t b = 0; b < S; b++)
            if (b < lo || b >= lo + r) pos[np++] = b;
        for (int t = 0; t < 8; t++) {
            uint32_t k = ((uint32_t)t & ((1u << r) - 1)) << lo;
            for (uint32_t i = 0; i < e; i++) k |= (((uint32_t)t >> (r + i)) & 1u) << pos[i];
            m.off[t] = (uint16_t)(t < (1 << a.lr) ? k : 0);
        }
        /* thread bits: pos[e..np), at most two contiguous runs */
        uint32_t w1 = 0;
        while (e + w1 < np && pos[e + w1] == pos[e] + w1) w1++;
        m.x1 = (uint8_t)(e < np ? pos[e] : 0);
        m.w1 = (uint8_t)w1;
        m.y1 = (uint8_t)(e + w1 < np ? pos[e + w1] : S);
        a.nrounds = q + 1;
    }
}

/* Fused extras of the first and the last pass of a network. */
struct net_ops {
    int ldop = LD_PLAIN;
    const fr_d *src2 = nullptr, *src3 = nullptr;
    pow_tab pre{nullptr, nullptr, SC_NONE};  /* first pass executed, at load */
    int stop = ST_PLAIN;
    const fr_d *aux1 = nullptr, *aux2 = nullptr;
    pow_tab post{nullptr, nullptr, SC_NONE}; /* last pass executed, at store */
};

/* The passes of a whole L-stage network in execution order (DIF: top stages first): the first
 * reads src, the ones in between work in place on work, the last writes dst; P = ceil(L / max_bits)
 * passes of balanced sizes (2^27: 9 + 9 + 9; round_split: the same P with the fewest rounds of max_lr
 * stages, 2^27 radix 4: 10 + 9 + 8), tiles of at most 2^tile_bits elements, rounds of at most max_lr
 * stages (pass_plan). Returns P (<= 4: L <= 4 max_bits; the host test passes smaller max_bits to run 3
 * and 4 passes on small sizes). */
constexpr uint32_t MAX_PASSES = 4;
inline uint32_t network_plan(pass_args *out, uint32_t L, bool dif, bool inverse, fr_d *dst, fr_d *work, const fr_d *src,
                             const fr_d *tw, const net_ops &ops, uint32_t max_bits = MAX_PASS_BITS, uint32_t tile_bits = NTT_TILE_BITS,
                             uint32_t max_lr = NTT_MAX_LR, bool round_split = false, bool four_step = false) {
    unsigned size[MAX_PASSES], start[MAX_PASSES], acc = 0;
    if (max_bits * MAX_PASSES < L) max_bits = (L + MAX_PASSES - 1) / MAX_PASSES; /* never more than 4 passes */
    const uint32_t P = ntt_split_stages(size, L, max_bits);
    if (round_split && P >= 2 && max_lr >= 2) {
        /* the same number of passes, the fewest rounds of max_lr stages: the s0 = 0 pass (one column is
         * contiguous) takes up to max_bits stages, the others stay balanced and <= max_bits - 1
         * (2^27 radix 4: 10 + 9 + 8 = 14 rounds instead of 9 + 9 + 9 = 15) */
        auto rounds = [&](const unsigned *sz) {
            unsigned t = 0;
            for (uint32_t p = 0; p < P; p++) t += (sz[p] + max_lr - 1) / max_lr;
            return t;
        };
        unsigned best = rounds(size), cand[MAX_PASSES];
        for (unsigned s0 = max_bits; s0 >= 1; s0--) {
            if (L <= s0 || L - s0 > (P - 1) * (max_bits - 1) || L - s0 < P - 1) continue;
            cand[0] = s0; /* the rest balanced over exactly P - 1 passes (each <= max_bits - 1 by the test above) */
            for (uint32_t p = 1; p < P; p++) cand[p] = (L - s0) / (P - 1) + (p - 1 < (L - s0) % (P - 1) ? 1 : 0);
            if (rounds(cand) < best) {
                best = rounds(cand);
                for (uint32_t p = 0; p < P; p++) size[p] = cand[p];
            }
        }
    }
    for (uint32_t p = 0; p < P; p++) {
        start[p] = acc;
        acc += size[p];
    }
    for (uint32_t q = 0; q < P; q++) {
        const uint32_t p = dif ? P - 1 - q : q;
        pass_args &a = out[q];
        memset(&a, 0, sizeof a);
        pass_plan(a, L, start[p], size[p], tile_bits, max_lr);
        a.dst = q == P - 1 ? dst : work;
        a.src = q == 0 ? src : work;
        a.tw = tw;
        a.inverse = inverse ? 1u : 0u;
        a.fs = four_step && a.s0 > 0 ? (dif ? 2u : 1u) : 0u;
        if (q == 0) {
            a.ldop = (uint32_t)ops.ldop;
            a.src2 = ops.src2;
            a.src3 = ops.src3;
            a.pre = ops.pre;
        }
        if (q == P - 1) {
            a.stop = (uint32_t)ops.stop;
            a.aux1 = ops.aux1;
            a.aux2 = ops.aux2;
            a.post = ops.post;
        }
    }
    return P;
}

/* ---- bit reversal ---- */
struct bitrev_args {
    fr_d *x;
    uint32_t log_n, tb; /* tiles of 2^tb x 2^tb, middle bits log_n - 2 tb */
    pow_tab sc;         /* scale by c * x^e */
    int by_src;         /* e = natural index the value comes from (1) or goes to (0) */
};
PM_HD uint32_t bitrev_tb(uint32_t L) { return L / 2 < 4 ? L / 2 : 4; }
PM_HD uint32_t bitrev_threads(const bitrev_args &b) { uint32_t t = 1u << (2 * b.tb); return t < 256 ? t : 256; }
PM_HD uint32_t bitrev_blocks(const bitrev_args &b) { return 1u << (b.log_n - 2 * b.tb); }
PM_HD uint32_t bitrev_at(const bitrev_args &b, uint32_t m, uint32_t hi, uint32_t lo) {
    return (hi << (b.log_n - b.tb)) | (m << b.tb) | lo;
}
/* phase 1: block m loads its tile and (when different) the tile of rev(m); returns false when the
 * block has nothing to do (m > rev(m): the partner block swaps) */
PM_HD bool bitrev_active(const bitrev_args &b, uint32_t m) { return m <= brev(m, b.log_n - 2 * b.tb); }
PM_HD void bitrev_load(const bitrev_args &b, uint32_t m, uint32_t tid, fr_d *shA, fr_d *shB) {
    const uint32_t M = b.log_n - 2 * b.tb, m2 = brev(m, M), TT = 1u << (2 * b.tb), mask = (1u << b.tb) - 1;
    for (uint32_t v = tid; v < TT; v += bitrev_threads(b)) {
        const uint32_t hi = v >> b.tb, lo = v & mask;
        shA[v] = ld(b.x + bitrev_at(b, m, hi, lo));
        if (m2 != m) shB[v] = ld(b.x + bitrev_at(b, m2, hi, lo));
    }
}
PM_HD void bitrev_store(const bitrev_args &b, uint32_t m, uint32_t tid, const fr_d *shA, const fr_d *shB) {
    const uint32_t M = b.log_n - 2 * b.tb, m2 = brev(m, M), TT = 1u << (2 * b.tb), mask = (1u << b.tb) - 1;
    for (uint32_t v = tid; v < TT; v += bitrev_threads(b)) {
        const uint32_t hi = v >> b.tb, lo = v & mask;
        const uint32_t from = (brev(lo, b.tb) << b.tb) | brev(hi, b.tb); /* tile position of the source */
        for (int side = 0; side < 2; side++) {
            if (side == 1 && m2 == m) break;
            /* side 0: destination tile m2 from tile m (shA); side 1: destination tile m from tile m2 */
            const uint32_t dm = side ? m : m2, sm = side ? m2 : m;
            fr_d x = side ? shB[from] : shA[from];
            const uint32_t dst = bitrev_at(b, dm, hi, lo);
            if (b.sc.mode != SC_NONE) {
                const uint32_t src = bitrev_at(b, sm, brev(lo, b.tb), brev(hi, b.tb));
                x = f_mul(x, scale_at(b.sc, b.by_src ? src : dst));
            }
            st(b.x + dst, x);
        }
    }
}

/* ---- scale tables (host side; the device gets a copy) ----
 * entries lo[j] = c x^j (j < 4096), hi[j] = x^(4096 j) (j < max(1, n/4096)); plain: c is replaced by
 * from_mont(c) read as a Montgomery value, so every product lo * hi * y (Montgomery) comes out as the
 * plain integer of c x^e y; constant: the single entry c. Returns the count of lo entries. */
inline size_t pow_tab_host(fr_t *h, const fr_t &c, const fr_t &x, unsigned log_n, bool plain, bool constant) {
    fr_t c0 = c;
    if (plain) fr_from_mont(&c0, &c);
    const size_t nlo = constant ? 1 : ((size_t)1 << POW_LO_BITS);
    const size_t nhi = constant ? 0 : (log_n > POW_LO_BITS ? ((size_t)1 << (log_n - POW_LO_BITS)) : 1);
    fr_t acc = c0;
    for (size_t j = 0; j < nlo; j++) { h[j] = acc; fr_mul(&acc, &acc, &x); }
    if (nhi) {
        uint64_t e = nlo;
        fr_t step;
        fr_pow_vartime(&step, &x, &e, 1);
        acc = FR_ONE;
        for (size_t j = 0; j < nhi; j++) { h[nlo + j] = acc; fr_mul(&acc, &acc, &step); }
    }
    return nlo;
}
inline size_t pow_tab_entries(unsigned log_n, bool constant) {
    return constant ? 1 : ((size_t)1 << POW_LO_BITS) + (log_n > POW_LO_BITS ? ((size_t)1 << (log_n - POW_LO_BITS)) : 1);
}

/* ---- the transforms and pipelines as pass sequences over an executor X ----
 * X::net(dif, inverse, dst, work, src, ops) runs network_plan's passes; X::bitrev(x, scale, by_src)
 * the tiled bit reversal; both return pm_status. The device executor launches kernels
 * (ntt.cu, h_pipeline.cu), the host test's simulates the blocks sequentially. */
struct seq_tabs {
    pow_tab shift;   /* s^k (coset forward, by source index) */
    pow_tab ninv;    /* n^-1 constant */
    pow_tab cinv;    /* n^-1 s^-k (coset inverse, by destination index) */
    pow_tab snarkjs; /* n^-1 s^k by bit-reversed position */
    pow_tab bp_pre;  /* n^-1 g^k by bit-reversed position */
    pow_tab bp_ginv; /* g^-k by bit-reversed position */
    pow_tab bp_fin;  /* n^-1 (g^n - 1)^-1 constant, plain */
};
enum { K_FORWARD = 0, K_INVERSE = 1, K_COSET_FORWARD = 2, K_COSET_INVERSE = 3 }; /* = gpu_ntt_kind */

template <class X> pm_status seq_ntt(X &x, fr_d *d, int kind, const seq_tabs &t) {
    const pow_tab none{nullptr, nullptr, SC_NONE};
    const net_ops plain;
    pm_status st;
    if (kind == K_FORWARD || kind == K_COSET_FORWARD) {
        if ((st = x.bitrev(d, kind == K_COSET_FORWARD ? t.shift : none, true)) != PM_OK) return st;
        return x.net(false, false, d, d, d, plain);
    }
    if ((st = x.net(true, true, d, d, d, plain)) != PM_OK) return st;
    return x.bitrev(d, kind == K_COSET_INVERSE ? t.cinv : t.ninv, false);
}

/* domain evaluations in x -> coset evaluations (DIF inverse, coefficient k scaled by `scale`, DIT);
 * the DIT's last pass writes dst with the store op of `last` */
template <class X> pm_status seq_to_coset(X &x, fr_d *dst, fr_d *v, const pow_tab &scale, const net_ops &last) {
    net_ops a;
    a.post = scale;
    pm_status st = x.net(true, true, v, v, v, a);
    if (st != PM_OK) return st;
    return x.net(false, false, dst, v, v, last);
}

/* snarkjs H: A, B in (destroyed), C scratch; result (plain) in B */
template <class X> pm_status seq_snarkjs_h(X &x, fr_d *A, fr_d *B, fr_d *C, const seq_tabs &t) {
    net_ops first_c, none, last_b;
    first_c.ldop = LD_MUL;
    first_c.src2 = B;
    first_c.post = t.snarkjs;
    last_b.stop = ST_MULSUB_PLAIN;
    last_b.aux1 = A;
    last_b.aux2 = C;
    pm_status st;
    /* C = a*b first (it needs the raw a and b), then A, then B with the final pointwise */
    if ((st = x.net(true, true, C, C, A, first_c)) != PM_OK || (st = x.net(false, false, C, C, C, none)) != PM_OK ||
        (st = seq_to_coset(x, A, A, t.snarkjs, none)) != PM_OK)
        return st;
    return seq_to_coset(x, B, B, t.snarkjs, last_b);
}

/* bellperson H in 6 networks (bellperson's own prover runs 7): C is never taken to the coset. The coset
 * iNTT is linear and undoes the coset NTT exactly, so with z = (g^n - 1)^-1 (constant on the coset)
 *   icoset((A^ B^ - C^) z) = z n^-1 (g^-k [iDFT(A^ B^)]_k - [iDFT(c)]_k),
 * the same bytes for every input (ntt/ntt.h ntt_bellperson_h does the same on the CPU):
 *   part 1: A, B to the coset (2 + 2 networks), the last pass of B storing A^ B^ into A;
 *   part 2: DIF(omega^-1) of A, its last pass scaling position i by g^-rev(i); DIF(omega^-1) of C,
 *           its last pass storing A - x into A; the bit reversal scaled by n^-1 z, values left plain.
 * A, B, C in (destroyed); result (plain coefficients, natural order) in A. x.ready(P) comes before
 * the first read of each input, so an executor that uploads them can start on A while B and C are
 * still on the bus (gpu_bellperson_h_upload). */
template <class X> pm_status seq_bellperson_h_part1(X &x, fr_d *A, fr_d *B, const seq_tabs &t);
template <class X> pm_status seq_bellperson_h_part2(X &x, fr_d *A, fr_d *C, const seq_tabs &t);
template <class X> pm_status seq_bellperson_h(X &x, fr_d *A, fr_d *B, fr_d *C, const seq_tabs &t) {
    pm_status st;
    /* x.pause(): preemption points between the polynomials (gpu.h gpu_set_yield) */
    if ((st = seq_bellperson_h_part1(x, A, B, t)) != PM_OK || (st = x.pause()) != PM_OK) return st;
    return seq_bellperson_h_part2(x, A, C, t);
}
/* the two-buffer order: part 1 leaves A = A_coset * B_coset (B free), part 2 takes C in B */
template <class X> pm_status seq_bellperson_h_part1(X &x, fr_d *A, fr_d *B, const seq_tabs &t) {
    net_ops none, mul;
    mul.stop = ST_MUL;
    mul.aux1 = A;
    pm_status st = x.ready(A);
    if (st != PM_OK || (st = seq_to_coset(x, A, A, t.bp_pre, none)) != PM_OK || (st = x.pause()) != PM_OK ||
        (st = x.ready(B)) != PM_OK)
        return st;
    return seq_to_coset(x, A, B, t.bp_pre, mul);
}
template <class X> pm_status seq_bellperson_h_part2(X &x, fr_d *A, fr_d *C, const seq_tabs &t) {
    net_ops ginv, rsub;
    ginv.post = t.bp_ginv;
    rsub.stop = ST_RSUB;
    rsub.aux1 = A;
    pm_status st;
    if ((st = x.net(true, true, A, A, A, ginv)) != PM_OK || (st = x.pause()) != PM_OK || (st = x.ready(C)) != PM_OK ||
        (st = x.net(true, true, A, C, C, rsub)) != PM_OK)
        return st;
    return x.bitrev(A, t.bp_fin, false);
}

/* bellperson H through ONE device buffer (devplan.h tier 4: a card without room for three): the
 * same networks, stores and products as seq_bellperson_h, so the same bytes; what the fused stores
 * read from the other buffers (ST_MUL's A^, ST_RSUB's D) comes back from host memory a chunk at a
 * time instead, through the executor's chunk buffer (ew_apply: the same operand order):
 *   1. a up; to the coset -> A^; A^ down into a's host array while b comes up (a swap);
 *   2. to the coset -> B^; B^ *= A^ (chunks of a); DIF(omega^-1) scaled by g^-rev -> D; D down
 *      into b's host array while c comes up (a swap);
 *   3. DIF(omega^-1) -> E; E = D - E (chunks of b); the bit reversal scaled by n^-1 z.
 * Bytes over the bus: 7 x n x 32 (5 up, 2 down), two of the downs beside two of the ups (the link
 * carries both directions at once). The executor adds to dev_exec:
 *   up(dev, host)                     n elements, after the stream's earlier work;
 *   swap(dev, out, in)                out = dev, then dev = in (n elements each, after the stream's
 *                                     earlier work): any order that reads each element of dev
 *                                     before it writes it, e.g. in pieces, a piece's download
 *                                     beside the previous piece's upload;
 *   chunks(op, dev, host)             dev[i] = ew_apply(op, host[i], dev[i]) for i < n.
 * buf: n elements on the device; a, b: host, overwritten (A^ and D: Montgomery, natural and
 * bit-reversed order); c: host. Result (plain coefficients, natural order) in buf. */
enum { EW_MUL = 0, EW_RSUB = 1 }; /* dev = host * dev | host - dev */
PM_HD fr_d ew_apply(int op, const fr_d &y, const fr_d &x) { return op == EW_MUL ? f_mul(y, x) : f_sub(y, x); }
template <class X> pm_status seq_bellperson_h_one(X &x, fr_d *buf, fr_d *a, fr_d *b, const fr_d *c, const seq_tabs &t) {
    /* (a, b and c do not overlap, gpu_bellperson_h_one checks: a swap's download never overwrites
     * what its upload reads) */
    net_ops none, ginv;
    ginv.post = t.bp_ginv;
    pm_status st;
    if ((st = x.up(buf, a)) != PM_OK || (st = seq_to_coset(x, buf, buf, t.bp_pre, none)) != PM_OK ||
        (st = x.swap(buf, a, b)) != PM_OK || (st = x.pause()) != PM_OK)
        return st;
    if ((st = seq_to_coset(x, buf, buf, t.bp_pre, none)) != PM_OK || (st = x.chunks(EW_MUL, buf, a)) != PM_OK ||
        (st = x.pause()) != PM_OK)
        return st;
    if ((st = x.net(true, true, buf, buf, buf, ginv)) != PM_OK || (st = x.swap(buf, b, c)) != PM_OK ||
        (st = x.pause()) != PM_OK)
        return st;
    if ((st = x.net(true, true, buf, buf, buf, none)) != PM_OK || (st = x.chunks(EW_RSUB, buf, b)) != PM_OK)
        return st;
    return x.bitrev(buf, t.bp_fin, false);
}

} /* namespace ntc */
} /* namespace pmgpu */
