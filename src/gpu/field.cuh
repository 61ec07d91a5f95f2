/*
 * field.cuh — Montgomery arithmetic for BLS12-381 Fp, Fr and Fp2 on the device (internal to src/gpu).
 *
 * Representation: fe<P> holds P::N little-endian 32-bit limbs (v[0] least significant) of the
 * Montgomery form a*R mod m, R = 2^(32N), always fully reduced (< m). The bytes are the same as
 * the CPU's fp_t / fr_t (6 / 4 little-endian 64-bit limbs, R = 2^384 / 2^256) on a
 * little-endian host, so arrays are copied between host and device without conversion.
 * fp2_d {c0, c1} = c0 + c1*u over Fp[u]/(u^2 + 1): the bytes of the CPU's fp2_t (field/fp2.h).
 *
 * Host and device: every function here is __host__ __device__ (PM_HD). The device path uses the
 * PTX carry flag (add.cc / madc.lo.cc / madc.hi.cc ...); the host path runs the SAME sequence of
 * carry-chain primitives with the carry kept in a thread-local word (carry_emulation below), so a
 * host test executes exactly the algorithm the device runs (tests/gpu/test_gpu_msm_host.cu checks
 * it against the CPU field).
 *
 * Multiplication (fe_mul): CIOS (Koç, Acar, Kaliski, IEEE Micro 1996) on 32-bit words with the
 * running value split into two accumulators E (limb k at weight 2^(32k)) and O (limb k at weight
 * 2^(32(k+1))): even-indexed products a_j*b_i go into E, odd-indexed ones into O, each as ONE
 * carry chain of alternating mad.lo / mad.hi (lo half at word j, hi half at word j+1), so
 * ptxas fuses every lo/hi pair into one IMAD.WIDE.U32(.X) and needs no separate carry additions.
 * After the reduction step (m = E_0 * (-1/p) mod 2^32, += m*p in both accumulators) the shift by
 * one word swaps the roles: O becomes the next E, and E shifted down by two words (done by the
 * mad's addend operand, free) becomes the next O. 2N^2 IMAD.WIDE per product (288 for Fp; 128
 * for Fr, 112 with cios_reduce_rf: Fr's limbs 1 and 2^32 - 1 turn 2 products per step into additions);
 * the row-by-row form with separate lo and hi chains (fe_mul_rows, kept for the benchmark) compiles
 * to about as many IMAD plus one IADD3.X per carry (docs/perf/gpu.md).
 * Bound: a, b < m and m < 2^(32N-1) keep every intermediate below 2^33 m < 2^(32(N+1)) and the
 * result below 2m, so one conditional subtraction suffices.
 *
 * The carry flag crosses separate asm statements; they are all volatile so their order is kept,
 * and nothing the compiler puts between two of them writes the carry (ptxas tracks CC).
 * Not constant time where named _vartime (inversion).
 */
#pragma once
#include <cstdint>
#include <vector_types.h>
/* loop unrolling for the device pass only (the host compiler does not know `PM_UNROLL`) */
#ifdef __CUDA_ARCH__
#define PM_UNROLL _Pragma("unroll")
#define PM_UNROLL1 _Pragma("unroll 1")
#else
#define PM_UNROLL
#define PM_UNROLL1
#endif
#include "constants.cuh"

#define PM_DEV __device__ __forceinline__
/* host + device; forced inline on the device only (the host build is for tests: plain inline
 * keeps g++ from expanding every field product into every caller) */
#ifdef __CUDA_ARCH__
#define PM_HD __host__ __device__ __forceinline__
#else
#define PM_HD __host__ __device__ inline
#endif
/* host + device, a real call on the device: for routines that are long (a point addition, an
 * inversion) or cold, so that the kernels stay small enough to compile in reasonable time; the call
 * costs a few register moves against hundreds of multiply instructions */
#ifdef __CUDA_ARCH__
#define PM_HD_CALL __host__ __device__ __noinline__
#else
#define PM_HD_CALL __host__ __device__ inline
#endif

namespace pmgpu {

/* ---- carry-chain primitives: PTX on the device, an explicit carry word on the host ---- */
#ifndef __CUDA_ARCH__
/* The host's carry flag (one per thread, like the device's per-thread CC register). */
inline thread_local uint32_t carry_emulation = 0;
#endif

#ifdef __CUDA_ARCH__
#define PM_ASM1(op, a, b) uint32_t r; asm volatile(op " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r
#define PM_ASM2(op, a, b, c) uint32_t r; asm volatile(op " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r
#endif

PM_HD uint32_t add_cc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
    PM_ASM1("add.cc.u32", a, b);
#else
    uint64_t s = (uint64_t)a + b; carry_emulation = (uint32_t)(s >> 32); return (uint32_t)s;
#endif
}
PM_HD uint32_t addc_cc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
    PM_ASM1("addc.cc.u32", a, b);
#else
    uint64_t s = (uint64_t)a + b + carry_emulation; carry_emulation = (uint32_t)(s >> 32); return (uint32_t)s;
#endif
}
PM_HD uint32_t addc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
    PM_ASM1("addc.u32", a, b);
#else
    return a + b + carry_emulation;
#endif
}
/* subtraction: the flag holds the borrow (PTX sub.cc/subc semantics) */
PM_HD uint32_t sub_cc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
    PM_ASM1("sub.cc.u32", a, b);
#else
    uint64_t d = (uint64_t)a - b; carry_emulation = (uint32_t)(d >> 32) & 1u; return (uint32_t)d;
#endif
}
PM_HD uint32_t subc_cc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
    PM_ASM1("subc.cc.u32", a, b);
#else
    uint64_t d = (uint64_t)a - b - carry_emulation; carry_emulation = (uint32_t)(d >> 32) & 1u; return (uint32_t)d;
#endif
}
PM_HD uint32_t subc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
    PM_ASM1("subc.u32", a, b);
#else
    return a - b - carry_emulation;
#endif
}
PM_HD uint32_t mul_lo(uint32_t a, uint32_t b) { return a * b; }
PM_HD uint32_t mul_hi(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
    return __umulhi(a, b);
#else
    return (uint32_t)(((uint64_t)a * b) >> 32);
#endif
}
PM_HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
    PM_ASM2("mad.lo.cc.u32", a, b, c);
#else
    uint64_t s = (uint64_t)(a * b) + c; carry_emulation = (uint32_t)(s >> 32); return (uint32_t)s;
#endif
}
PM_HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
    PM_ASM2("madc.lo.cc.u32", a, b, c);
#else
    uint64_t s = (uint64_t)(a * b) + c + carry_emulation; carry_emulation = (uint32_t)(s >> 32); return (uint32_t)s;
#endif
}
PM_HD uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
    PM_ASM2("mad.hi.cc.u32", a, b, c);
#else
    uint64_t s = (((uint64_t)a * b) >> 32) + c; carry_emulation = (uint32_t)(s >> 32); return (uint32_t)s;
#endif
}
PM_HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
    PM_ASM2("madc.hi.cc.u32", a, b, c);
#else
    uint64_t s = (((uint64_t)a * b) >> 32) + c + carry_emulation; carry_emulation = (uint32_t)(s >> 32); return (uint32_t)s;
#endif
}
PM_HD uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
    PM_ASM2("madc.hi.u32", a, b, c);
#else
    return (uint32_t)(((uint64_t)a * b) >> 32) + c + carry_emulation;
#endif
}
#undef PM_ASM1
#undef PM_ASM2

/* Ask the L2 for the 128-byte line holding p (device; no-op on the host): the memory round trip of a
 * later load then overlaps the work in between. p must be a global-memory address. */
PM_HD void prefetch_l2(const void *p) {
#ifdef __CUDA_ARCH__
    asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#else
    (void)p;
#endif
}

template <class P> struct fe {
    uint32_t v[P::N];
};
typedef fe<fp_params> fp_d;
typedef fe<fr_params> fr_d;

template <class P> PM_HD fe<P> fe_zero() { fe<P> r; PM_UNROLL for (int i = 0; i < P::N; i++) r.v[i] = 0; return r; }
template <class P> PM_HD fe<P> fe_one() { fe<P> r; PM_UNROLL for (int i = 0; i < P::N; i++) r.v[i] = P::one(i); return r; }

template <class P> PM_HD bool fe_is_zero(const fe<P> &a) {
    uint32_t t = 0;
PM_UNROLL
    for (int i = 0; i < P::N; i++) t |= a.v[i];
    return t == 0;
}
template <class P> PM_HD bool fe_eq(const fe<P> &a, const fe<P> &b) {
    uint32_t t = 0;
PM_UNROLL
    for (int i = 0; i < P::N; i++) t |= a.v[i] ^ b.v[i];
    return t == 0;
}

/* r = t - m if t >= m (t given as N limbs plus a top carry word), else t. */
template <class P> PM_HD fe<P> fe_reduce_once(const uint32_t *t, uint32_t top) {
    constexpr int N = P::N;
    uint32_t s[N];
    s[0] = sub_cc(t[0], P::mod(0));
PM_UNROLL
    for (int i = 1; i < N; i++) s[i] = subc_cc(t[i], P::mod(i));
    uint32_t borrow = subc(top, 0); /* 0xffffffff when t < m */
    fe<P> r;
PM_UNROLL
    for (int i = 0; i < N; i++) r.v[i] = borrow ? t[i] : s[i];
    return r;
}

template <class P> PM_HD fe<P> fe_add(const fe<P> &a, const fe<P> &b) {
    constexpr int N = P::N;
    uint32_t t[N];
    t[0] = add_cc(a.v[0], b.v[0]);
PM_UNROLL
    for (int i = 1; i < N; i++) t[i] = addc_cc(a.v[i], b.v[i]);
    uint32_t top = addc(0, 0);
    return fe_reduce_once<P>(t, top);
}

template <class P> PM_HD fe<P> fe_sub(const fe<P> &a, const fe<P> &b) {
    constexpr int N = P::N;
    uint32_t t[N];
    t[0] = sub_cc(a.v[0], b.v[0]);
PM_UNROLL
    for (int i = 1; i < N; i++) t[i] = subc_cc(a.v[i], b.v[i]);
    uint32_t mask = subc(0, 0); /* all ones on borrow */
    fe<P> r;
    r.v[0] = add_cc(t[0], P::mod(0) & mask);
PM_UNROLL
    for (int i = 1; i < N; i++) r.v[i] = addc_cc(t[i], P::mod(i) & mask);
    return r;
}

template <class P> PM_HD fe<P> fe_neg(const fe<P> &a) { return fe_sub<P>(fe_zero<P>(), a); }
template <class P> PM_HD fe<P> fe_dbl(const fe<P> &a) { return fe_add<P>(a, a); }

/* ---- fused-chain CIOS (see the file comment) ----
 * State between rows: T = E + 2^32 * O (N words each), E[0] == 0 after a reduction step. */

/* Reduction step on (E, O): m = E0 * (-1/p), T += m*p, so that E0 becomes 0. */
template <class P> PM_HD void cios_reduce(uint32_t *E, uint32_t *O) {
    constexpr int N = P::N;
    const uint32_t m = E[0] * P::N0;
    /* odd limbs of p into O (weights 1..N): the chain cannot carry out of word N */
    O[0] = mad_lo_cc(m, P::mod(1), O[0]);
    O[1] = madc_hi_cc(m, P::mod(1), O[1]);
PM_UNROLL
    for (int j = 3; j < N - 1; j += 2) {
        O[j - 1] = madc_lo_cc(m, P::mod(j), O[j - 1]);
        O[j] = madc_hi_cc(m, P::mod(j), O[j]);
    }
    O[N - 2] = madc_lo_cc(m, P::mod(N - 1), O[N - 2]);
    O[N - 1] = madc_hi(m, P::mod(N - 1), O[N - 1]);
    /* even limbs of p into E (weights 0..N-1), the carry out goes to weight N = O[N-1] */
    E[0] = mad_lo_cc(m, P::mod(0), E[0]);
    E[1] = madc_hi_cc(m, P::mod(0), E[1]);
PM_UNROLL
    for (int j = 2; j < N; j += 2) {
        E[j] = madc_lo_cc(m, P::mod(j), E[j]);
        E[j + 1] = madc_hi_cc(m, P::mod(j), E[j + 1]);
    }
    O[N - 1] = addc(O[N - 1], 0);
}

/* The same step for a modulus whose low limbs are m_0 = 1 and m_1 = 2^32 - 1 (BLS12-381 Fr): then
 * N0 = -1, m = -E_0 mod 2^32, and the first product of each chain is an addition:
 * m m_0 + E_0 = m + E_0 = 0 mod 2^32 with carry nz = (E_0 != 0), and m m_1 = m 2^32 - m = (m - nz) 2^32 + E_0.
 * 2 of the N IMAD.WIDE of the step become IADD3s (Fr: 112 instead of 128 IMAD.WIDE per product). */
template <class P> PM_HD void cios_reduce_rf(uint32_t *E, uint32_t *O) {
    constexpr int N = P::N;
    static_assert(P::mod(0) == 1u && P::mod(1) == 0xffffffffu && P::N0 == 0xffffffffu, "cios_reduce_rf: modulus shape");
    const uint32_t e0 = E[0];
    const uint32_t m = e0 * P::N0;
    const uint32_t nz = e0 != 0u ? 1u : 0u;
    /* odd limbs of p into O: limb 1 contributes (m - nz : e0) at weights (2, 1) */
    O[0] = add_cc(O[0], e0);
    O[1] = addc_cc(O[1], m - nz);
PM_UNROLL
    for (int j = 3; j < N - 1; j += 2) {
        O[j - 1] = madc_lo_cc(m, P::mod(j), O[j - 1]);
        O[j] = madc_hi_cc(m, P::mod(j), O[j]);
    }
    O[N - 2] = madc_lo_cc(m, P::mod(N - 1), O[N - 2]);
    O[N - 1] = madc_hi(m, P::mod(N - 1), O[N - 1]);
    /* even limbs into E: limb 0 contributes m at weight 0 (E_0 + m = 0, carry nz) */
    E[0] = add_cc(e0, m);
    E[1] = addc_cc(E[1], 0u);
PM_UNROLL
    for (int j = 2; j < N; j += 2) {
        E[j] = madc_lo_cc(m, P::mod(j), E[j]);
        E[j + 1] = madc_hi_cc(m, P::mod(j), E[j + 1]);
    }
    O[N - 1] = addc(O[N - 1], 0);
}
/* RF: take cios_reduce_rf where the modulus allows it */
template <class P, bool RF> PM_HD void cios_reduce_sel(uint32_t *E, uint32_t *O) {
    if constexpr (RF && P::mod(0) == 1u && P::mod(1) == 0xffffffffu && P::N0 == 0xffffffffu) cios_reduce_rf<P>(E, O);
    else cios_reduce<P>(E, O);
}

/* Shift by one word and add a*bi: on entry (E, O) with E[0] == 0; on exit the new E is in O's
 * registers and the new O in E's (the caller swaps the names). */
template <class P> PM_HD void cios_shift_row(uint32_t *E, uint32_t *O, const uint32_t *a, uint32_t bi) {
    constexpr int N = P::N;
    /* new E = O + E[1] (weight 0) + even products; new O = E[2..] + odd products */
    O[0] = add_cc(O[0], E[1]); /* carry to weight 1 = the first word of the new O */
PM_UNROLL
    for (int j = 0; j < N - 2; j += 2) {
        E[j] = madc_lo_cc(a[j + 1], bi, E[j + 2]);
        E[j + 1] = madc_hi_cc(a[j + 1], bi, E[j + 3]);
    }
    E[N - 2] = madc_lo_cc(a[N - 1], bi, 0);
    E[N - 1] = madc_hi(a[N - 1], bi, 0);
    O[0] = mad_lo_cc(a[0], bi, O[0]);
    O[1] = madc_hi_cc(a[0], bi, O[1]);
PM_UNROLL
    for (int j = 2; j < N; j += 2) {
        O[j] = madc_lo_cc(a[j], bi, O[j]);
        O[j + 1] = madc_hi_cc(a[j], bi, O[j + 1]);
    }
    E[N - 1] = addc(E[N - 1], 0);
}

/* Montgomery product a*b/R mod m (fused-chain CIOS, 2N^2 IMAD.WIDE; RF and Fr: 2N^2 - 2N). N must be even. */
template <class P, bool RF> PM_HD fe<P> fe_mul_t(const fe<P> &A, const fe<P> &B) {
    constexpr int N = P::N;
    static_assert(N % 2 == 0 && N >= 4, "fe_mul needs an even limb count");
    const uint32_t *a = A.v;
    uint32_t X[N], Y[N]; /* after row i: E = X, O = Y for even i; E = Y, O = X for odd i */
    const uint32_t b0 = B.v[0];
PM_UNROLL
    for (int j = 0; j < N; j += 2) {
        X[j] = mul_lo(a[j], b0);
        X[j + 1] = mul_hi(a[j], b0);
        Y[j] = mul_lo(a[j + 1], b0);
        Y[j + 1] = mul_hi(a[j + 1], b0);
    }
    cios_reduce_sel<P, RF>(X, Y);
PM_UNROLL
    for (int i = 1; i < N; i++) {
        if (i & 1) {
            cios_shift_row<P>(X, Y, a, B.v[i]);
            cios_reduce_sel<P, RF>(Y, X);
        } else {
            cios_shift_row<P>(Y, X, a, B.v[i]);
            cios_reduce_sel<P, RF>(X, Y);
        }
    }
    /* row N-1 is odd: T = Y + 2^32 X with Y[0] == 0; result = T / 2^32 = X + (Y >> one word) < 2m */
    uint32_t t[N];
    t[0] = add_cc(X[0], Y[1]);
PM_UNROLL
    for (int k = 1; k < N - 1; k++) t[k] = addc_cc(X[k], Y[k + 1]);
    t[N - 1] = addc(X[N - 1], 0);
    return fe_reduce_once<P>(t, 0);
}

/* The product of the library: for Fr with the additions of cios_reduce_rf; fe_mul_generic is the same
 * fused-chain CIOS with every reduction product a multiplication (the 2026-12-01 multiplier, kept for the
 * benchmark and PROOFMILL_GPU_NTT_MUL=generic). */
template <class P> PM_HD fe<P> fe_mul(const fe<P> &A, const fe<P> &B) { return fe_mul_t<P, true>(A, B); }
template <class P> PM_HD fe<P> fe_mul_generic(const fe<P> &A, const fe<P> &B) { return fe_mul_t<P, false>(A, B); }

/* The row-by-row CIOS (separate lo and hi chains per row, 4N^2 IMAD + one IADD3.X per carry in
 * SASS): the multiplier before the fused chains, kept so bench_gpu_msm measures both. */
template <class P> PM_HD fe<P> fe_mul_rows(const fe<P> &a, const fe<P> &b) {
    constexpr int N = P::N;
    uint32_t t[N + 2];
PM_UNROLL
    for (int i = 0; i < N + 2; i++) t[i] = 0;
PM_UNROLL
    for (int i = 0; i < N; i++) {
        const uint32_t bi = b.v[i];
        t[0] = mad_lo_cc(a.v[0], bi, t[0]);
PM_UNROLL
        for (int j = 1; j < N; j++) t[j] = madc_lo_cc(a.v[j], bi, t[j]);
        t[N] = addc_cc(t[N], 0);
        t[N + 1] = addc(t[N + 1], 0);
        t[1] = mad_hi_cc(a.v[0], bi, t[1]);
PM_UNROLL
        for (int j = 1; j < N; j++) t[j + 1] = madc_hi_cc(a.v[j], bi, t[j + 1]);
        t[N + 1] = addc(t[N + 1], 0);
        const uint32_t m = t[0] * P::N0;
        t[0] = mad_lo_cc(m, P::mod(0), t[0]);
PM_UNROLL
        for (int j = 1; j < N; j++) t[j] = madc_lo_cc(m, P::mod(j), t[j]);
        t[N] = addc_cc(t[N], 0);
        t[N + 1] = addc(t[N + 1], 0);
        t[1] = mad_hi_cc(m, P::mod(0), t[1]);
PM_UNROLL
        for (int j = 1; j < N; j++) t[j + 1] = madc_hi_cc(m, P::mod(j), t[j + 1]);
        t[N + 1] = addc(t[N + 1], 0);
PM_UNROLL
        for (int j = 0; j < N + 1; j++) t[j] = t[j + 1];
        t[N + 1] = 0;
    }
    return fe_reduce_once<P>(t, t[N]);
}

template <class P> PM_HD fe<P> fe_sqr(const fe<P> &a) { return fe_mul<P>(a, a); }

/* a^(m-2) = 1/a (Fermat) with fixed 4-bit windows: a table a^0..a^15 (14 products, in local
 * memory on the device), then 4 squarings + at most one product per nibble of m-2 from the top:
 * 380 squarings + 89 products + 14 for Fp (plain square-and-multiply: 380 + 228). Uniform over the
 * threads of a warp (the exponent is a constant). 0 -> 0. */
template <class P> PM_HD_CALL fe<P> fe_inv_vartime(const fe<P> &a) {
    fe<P> tab[16];
    tab[0] = fe_one<P>();
    tab[1] = a;
PM_UNROLL1
    for (int i = 2; i < 16; i++) tab[i] = fe_mul<P>(tab[i - 1], a);
    const int top = (P::BITS - 1) >> 2;
    auto nib = [](int j) { return (P::mod_minus_2((4 * j) >> 5) >> ((4 * j) & 31)) & 15u; };
    fe<P> r = tab[nib(top)];
PM_UNROLL1
    for (int j = top - 1; j >= 0; j--) {
        r = fe_sqr<P>(fe_sqr<P>(fe_sqr<P>(fe_sqr<P>(r))));
        const uint32_t d = nib(j);
        if (d) r = fe_mul<P>(r, tab[d]);
    }
    return r;
}

/* plain integer (< m) -> Montgomery form, and back */
template <class P> PM_HD fe<P> fe_to_mont(const fe<P> &a) {
    fe<P> r2;
PM_UNROLL
    for (int i = 0; i < P::N; i++) r2.v[i] = P::r2(i);
    return fe_mul<P>(a, r2);
}
template <class P> PM_HD fe<P> fe_from_mont(const fe<P> &a) {
    fe<P> one;
PM_UNROLL
    for (int i = 0; i < P::N; i++) one.v[i] = i == 0 ? 1u : 0u;
    return fe_mul<P>(a, one);
}

/* 16-byte vector loads/stores (fe<P> arrays are 16-byte aligned: 48 and 32 bytes per element) */
template <class P> PM_HD fe<P> fe_load(const fe<P> *p) {
    fe<P> r;
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
PM_UNROLL
    for (int i = 0; i < P::N / 4; i++) {
        uint4 w = q[i];
        r.v[4 * i] = w.x; r.v[4 * i + 1] = w.y; r.v[4 * i + 2] = w.z; r.v[4 * i + 3] = w.w;
    }
    return r;
}
template <class P> PM_HD void fe_store(fe<P> *p, const fe<P> &a) {
    uint4 *q = reinterpret_cast<uint4 *>(p);
PM_UNROLL
    for (int i = 0; i < P::N / 4; i++) {
        uint4 w;
        w.x = a.v[4 * i]; w.y = a.v[4 * i + 1]; w.z = a.v[4 * i + 2]; w.w = a.v[4 * i + 3];
        q[i] = w;
    }
}

/* ---- Fp2 = Fp[u]/(u^2 + 1) (draft-irtf-cfrg-pairing-friendly-curves-11 section 4.2.1) ---- */
struct fp2_d {
    fp_d c0, c1;
};
typedef fp_params FP;

PM_HD fp2_d fp2_make(const fp_d &c0, const fp_d &c1) { fp2_d r; r.c0 = c0; r.c1 = c1; return r; }
PM_HD fp2_d fp2_add(const fp2_d &a, const fp2_d &b) { return fp2_make(fe_add<FP>(a.c0, b.c0), fe_add<FP>(a.c1, b.c1)); }
PM_HD fp2_d fp2_sub(const fp2_d &a, const fp2_d &b) { return fp2_make(fe_sub<FP>(a.c0, b.c0), fe_sub<FP>(a.c1, b.c1)); }
PM_HD fp2_d fp2_neg(const fp2_d &a) { return fp2_make(fe_neg<FP>(a.c0), fe_neg<FP>(a.c1)); }
PM_HD fp2_d fp2_conj(const fp2_d &a) { return fp2_make(a.c0, fe_neg<FP>(a.c1)); }
/* Karatsuba: 3 Fp products */
PM_HD_CALL fp2_d fp2_mul(const fp2_d &a, const fp2_d &b) {
    fp_d t0 = fe_mul<FP>(a.c0, b.c0), t1 = fe_mul<FP>(a.c1, b.c1);
    fp_d t2 = fe_mul<FP>(fe_add<FP>(a.c0, a.c1), fe_add<FP>(b.c0, b.c1));
    return fp2_make(fe_sub<FP>(t0, t1), fe_sub<FP>(fe_sub<FP>(t2, t0), t1));
}
/* complex squaring: (a0 + a1)(a0 - a1) + 2 a0 a1 u, 2 Fp products */
PM_HD_CALL fp2_d fp2_sqr(const fp2_d &a) {
    fp_d t = fe_mul<FP>(a.c0, a.c1);
    return fp2_make(fe_mul<FP>(fe_add<FP>(a.c0, a.c1), fe_sub<FP>(a.c0, a.c1)), fe_dbl<FP>(t));
}
/* norm a0^2 + a1^2 (in Fp; nonzero for a != 0 since -1 is not a square in Fp) */
PM_HD fp_d fp2_norm(const fp2_d &a) { return fe_add<FP>(fe_sqr<FP>(a.c0), fe_sqr<FP>(a.c1)); }

/* ---- one name per operation for the curve and MSM templates (E = fp_d or fp2_d) ----
 * fbase<E>::type is the field the batch inversion runs in: Fp for both (norms for Fp2). */
template <class E> struct fbase;
template <> struct fbase<fp_d> { typedef fp_d type; };
template <> struct fbase<fp2_d> { typedef fp_d type; };

PM_HD fp_d f_add(const fp_d &a, const fp_d &b) { return fe_add<FP>(a, b); }
PM_HD fp_d f_sub(const fp_d &a, const fp_d &b) { return fe_sub<FP>(a, b); }
PM_HD fp_d f_dbl(const fp_d &a) { return fe_dbl<FP>(a); }
PM_HD fp_d f_neg(const fp_d &a) { return fe_neg<FP>(a); }
PM_HD fp_d f_mul(const fp_d &a, const fp_d &b) { return fe_mul<FP>(a, b); }
PM_HD fp_d f_sqr(const fp_d &a) { return fe_sqr<FP>(a); }
PM_HD bool f_is_zero(const fp_d &a) { return fe_is_zero<FP>(a); }
PM_HD bool f_eq(const fp_d &a, const fp_d &b) { return fe_eq<FP>(a, b); }
PM_HD fp_d f_norm(const fp_d &a) { return a; }
PM_HD fp_d f_inv_from_norm(const fp_d &, const fp_d &ninv) { return ninv; } /* 1/a given 1/norm(a) */
PM_HD fp_d f_load(const fp_d *p) { return fe_load<FP>(p); }
PM_HD void f_store(fp_d *p, const fp_d &a) { fe_store<FP>(p, a); }

PM_HD fp2_d f_add(const fp2_d &a, const fp2_d &b) { return fp2_add(a, b); }
PM_HD fp2_d f_sub(const fp2_d &a, const fp2_d &b) { return fp2_sub(a, b); }
PM_HD fp2_d f_dbl(const fp2_d &a) { return fp2_add(a, a); }
PM_HD fp2_d f_neg(const fp2_d &a) { return fp2_neg(a); }
PM_HD fp2_d f_mul(const fp2_d &a, const fp2_d &b) { return fp2_mul(a, b); }
PM_HD fp2_d f_sqr(const fp2_d &a) { return fp2_sqr(a); }
PM_HD bool f_is_zero(const fp2_d &a) { return fe_is_zero<FP>(a.c0) && fe_is_zero<FP>(a.c1); }
PM_HD bool f_eq(const fp2_d &a, const fp2_d &b) { return fe_eq<FP>(a.c0, b.c0) && fe_eq<FP>(a.c1, b.c1); }
PM_HD fp_d f_norm(const fp2_d &a) { return fp2_norm(a); }
/* 1/a = conj(a) / norm(a) */
PM_HD fp2_d f_inv_from_norm(const fp2_d &a, const fp_d &ninv) {
    return fp2_make(fe_mul<FP>(a.c0, ninv), fe_neg<FP>(fe_mul<FP>(a.c1, ninv)));
}
PM_HD fp2_d f_load(const fp2_d *p) { return fp2_make(fe_load<FP>(&p->c0), fe_load<FP>(&p->c1)); }
PM_HD void f_store(fp2_d *p, const fp2_d &a) { fe_store<FP>(&p->c0, a.c0); fe_store<FP>(&p->c1, a.c1); }

template <class E> PM_HD E f_zero();
template <> PM_HD fp_d f_zero<fp_d>() { return fe_zero<FP>(); }
template <> PM_HD fp2_d f_zero<fp2_d>() { return fp2_make(fe_zero<FP>(), fe_zero<FP>()); }
template <class E> PM_HD E f_one();
template <> PM_HD fp_d f_one<fp_d>() { return fe_one<FP>(); }
template <> PM_HD fp2_d f_one<fp2_d>() { return fp2_make(fe_one<FP>(), fe_zero<FP>()); }
/* 1/a (0 -> 0): Fermat in Fp; through the norm in Fp2 */
PM_HD_CALL fp_d f_inv(const fp_d &a) { return fe_inv_vartime<FP>(a); }
PM_HD_CALL fp2_d f_inv(const fp2_d &a) { return f_inv_from_norm(a, fe_inv_vartime<FP>(fp2_norm(a))); }

} /* namespace pmgpu */
