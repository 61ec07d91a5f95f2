/*
 * field.cuh — Montgomery arithmetic for BLS12-381 Fp and Fr on the device (internal to src/gpu).
 *
 * Representation: fe<P> holds P::N little-endian 32-bit limbs (v[0] least significant) of the
 * Montgomery form a*R mod m, R = 2^(32N), always fully reduced (< m). The bytes are the same as
 * the CPU's fp_t / fr_t (6 / 4 little-endian 64-bit limbs, R = 2^384 / 2^256) on a
 * little-endian host, so arrays are copied between host and device without conversion.
 *
 * Multiplication: CIOS (Koç, Acar, Kaliski, IEEE Micro 1996) on 32-bit words. Each of the N
 * rows is four carry chains of PTX mad.lo.cc / madc.hi.cc (a*b_i low halves, high halves, then
 * m*p low and high halves), i.e. 4N^2 IMAD per product (576 for Fp, 256 for Fr), which is the
 * multiply count of schoolbook + Montgomery reduction on a 32-bit multiplier. Both moduli are
 * below R/2, so the running value stays below 2m and one conditional subtraction suffices.
 * Why 32-bit limbs: the SM's integer multiplier is 32x32 (a 64x64->128 product costs four
 * IMADs plus carry fix-ups in SASS), and the .cc carry flag gives free carry propagation.
 *
 * The carry flag crosses separate asm statements; they are all volatile so their order is kept,
 * and nothing the compiler puts between two of them writes the carry (ptxas tracks CC).
 * Not constant time where named _vartime (inversion, equality shortcuts).
 */
#pragma once
#include <cstdint>
#include "constants.cuh"

#define PM_DEV __device__ __forceinline__

namespace pmgpu {

/* ---- PTX carry-chain primitives ---- */
PM_DEV uint32_t add_cc(uint32_t a, uint32_t b) { uint32_t r; asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
PM_DEV uint32_t addc_cc(uint32_t a, uint32_t b) { uint32_t r; asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
PM_DEV uint32_t addc(uint32_t a, uint32_t b) { uint32_t r; asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
PM_DEV uint32_t sub_cc(uint32_t a, uint32_t b) { uint32_t r; asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
PM_DEV uint32_t subc_cc(uint32_t a, uint32_t b) { uint32_t r; asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
PM_DEV uint32_t subc(uint32_t a, uint32_t b) { uint32_t r; asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
PM_DEV uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t r; asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
PM_DEV uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t r; asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
PM_DEV uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t r; asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
PM_DEV uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) { uint32_t r; asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }

template <class P> struct fe {
    uint32_t v[P::N];
};
typedef fe<fp_params> fp_d;
typedef fe<fr_params> fr_d;

template <class P> PM_DEV fe<P> fe_zero() { fe<P> r; _Pragma("unroll") for (int i = 0; i < P::N; i++) r.v[i] = 0; return r; }
template <class P> PM_DEV fe<P> fe_one() { fe<P> r; _Pragma("unroll") for (int i = 0; i < P::N; i++) r.v[i] = P::one(i); return r; }

template <class P> PM_DEV bool fe_is_zero(const fe<P> &a) {
    uint32_t t = 0;
#pragma unroll
    for (int i = 0; i < P::N; i++) t |= a.v[i];
    return t == 0;
}
template <class P> PM_DEV bool fe_eq(const fe<P> &a, const fe<P> &b) {
    uint32_t t = 0;
#pragma unroll
    for (int i = 0; i < P::N; i++) t |= a.v[i] ^ b.v[i];
    return t == 0;
}

/* r = t - m if t >= m (t given as N limbs plus a top carry word), else t. */
template <class P> PM_DEV fe<P> fe_reduce_once(const uint32_t *t, uint32_t top) {
    constexpr int N = P::N;
    uint32_t s[N];
    s[0] = sub_cc(t[0], P::mod(0));
#pragma unroll
    for (int i = 1; i < N; i++) s[i] = subc_cc(t[i], P::mod(i));
    uint32_t borrow = subc(top, 0); /* 0xffffffff when t < m */
    fe<P> r;
#pragma unroll
    for (int i = 0; i < N; i++) r.v[i] = borrow ? t[i] : s[i];
    return r;
}

template <class P> PM_DEV fe<P> fe_add(const fe<P> &a, const fe<P> &b) {
    constexpr int N = P::N;
    uint32_t t[N];
    t[0] = add_cc(a.v[0], b.v[0]);
#pragma unroll
    for (int i = 1; i < N; i++) t[i] = addc_cc(a.v[i], b.v[i]);
    uint32_t top = addc(0, 0);
    return fe_reduce_once<P>(t, top);
}

template <class P> PM_DEV fe<P> fe_sub(const fe<P> &a, const fe<P> &b) {
    constexpr int N = P::N;
    uint32_t t[N];
    t[0] = sub_cc(a.v[0], b.v[0]);
#pragma unroll
    for (int i = 1; i < N; i++) t[i] = subc_cc(a.v[i], b.v[i]);
    uint32_t mask = subc(0, 0); /* all ones on borrow */
    fe<P> r;
    r.v[0] = add_cc(t[0], P::mod(0) & mask);
#pragma unroll
    for (int i = 1; i < N; i++) r.v[i] = addc_cc(t[i], P::mod(i) & mask);
    return r;
}

template <class P> PM_DEV fe<P> fe_neg(const fe<P> &a) { return fe_sub<P>(fe_zero<P>(), a); }
template <class P> PM_DEV fe<P> fe_dbl(const fe<P> &a) { return fe_add<P>(a, a); }

/* Montgomery product a*b/R mod m (CIOS, 4N^2 IMAD). */
template <class P> PM_DEV fe<P> fe_mul(const fe<P> &a, const fe<P> &b) {
    constexpr int N = P::N;
    uint32_t t[N + 2];
#pragma unroll
    for (int i = 0; i < N + 2; i++) t[i] = 0;
#pragma unroll
    for (int i = 0; i < N; i++) {
        const uint32_t bi = b.v[i];
        /* t += a * b_i: low halves into t[0..N-1], high halves into t[1..N] */
        t[0] = mad_lo_cc(a.v[0], bi, t[0]);
#pragma unroll
        for (int j = 1; j < N; j++) t[j] = madc_lo_cc(a.v[j], bi, t[j]);
        t[N] = addc_cc(t[N], 0);
        t[N + 1] = addc(t[N + 1], 0);
        t[1] = mad_hi_cc(a.v[0], bi, t[1]);
#pragma unroll
        for (int j = 1; j < N; j++) t[j + 1] = madc_hi_cc(a.v[j], bi, t[j + 1]);
        t[N + 1] = addc(t[N + 1], 0);
        /* t += m * mod with m chosen so that t[0] becomes 0, then shift one word */
        const uint32_t m = t[0] * P::N0;
        t[0] = mad_lo_cc(m, P::mod(0), t[0]);
#pragma unroll
        for (int j = 1; j < N; j++) t[j] = madc_lo_cc(m, P::mod(j), t[j]);
        t[N] = addc_cc(t[N], 0);
        t[N + 1] = addc(t[N + 1], 0);
        t[1] = mad_hi_cc(m, P::mod(0), t[1]);
#pragma unroll
        for (int j = 1; j < N; j++) t[j + 1] = madc_hi_cc(m, P::mod(j), t[j + 1]);
        t[N + 1] = addc(t[N + 1], 0);
#pragma unroll
        for (int j = 0; j < N + 1; j++) t[j] = t[j + 1];
        t[N + 1] = 0;
    }
    return fe_reduce_once<P>(t, t[N]);
}

template <class P> PM_DEV fe<P> fe_sqr(const fe<P> &a) { return fe_mul<P>(a, a); }

/* a^e for e given by a constexpr limb function (e.g. P::mod_minus_2). Variable time in e only. */
template <class P> PM_DEV fe<P> fe_inv_vartime(const fe<P> &a) {
    fe<P> r = fe_one<P>();
#pragma unroll 1
    for (int i = P::N - 1; i >= 0; i--) {
        const uint32_t w = P::mod_minus_2(i);
#pragma unroll 1
        for (int b = 31; b >= 0; b--) {
            r = fe_sqr<P>(r);
            if ((w >> b) & 1) r = fe_mul<P>(r, a);
        }
    }
    return r; /* 0 -> 0 */
}

/* plain integer (< m) -> Montgomery form, and back */
template <class P> PM_DEV fe<P> fe_to_mont(const fe<P> &a) {
    fe<P> r2;
#pragma unroll
    for (int i = 0; i < P::N; i++) r2.v[i] = P::r2(i);
    return fe_mul<P>(a, r2);
}
template <class P> PM_DEV fe<P> fe_from_mont(const fe<P> &a) {
    fe<P> one;
#pragma unroll
    for (int i = 0; i < P::N; i++) one.v[i] = i == 0 ? 1u : 0u;
    return fe_mul<P>(a, one);
}

/* 16-byte vector loads/stores (fe<P> arrays are 16-byte aligned: 48 and 32 bytes per element) */
template <class P> PM_DEV fe<P> fe_load(const fe<P> *p) {
    fe<P> r;
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
#pragma unroll
    for (int i = 0; i < P::N / 4; i++) {
        uint4 w = q[i];
        r.v[4 * i] = w.x; r.v[4 * i + 1] = w.y; r.v[4 * i + 2] = w.z; r.v[4 * i + 3] = w.w;
    }
    return r;
}
template <class P> PM_DEV void fe_store(fe<P> *p, const fe<P> &a) {
    uint4 *q = reinterpret_cast<uint4 *>(p);
#pragma unroll
    for (int i = 0; i < P::N / 4; i++) q[i] = make_uint4(a.v[4 * i], a.v[4 * i + 1], a.v[4 * i + 2], a.v[4 * i + 3]);
}

} /* namespace pmgpu */
