/*
 * field_inv.cuh — modular inversion by Bernstein-Yang divsteps (internal to src/gpu; issue #38): the
 * same Montgomery-form result as fe_inv_vartime (field.cuh, Fermat: 483 products for Fp) at a fraction
 * of its multiply instructions, for the batch-affine MSM's one inversion per lane batch
 * (msm_core.cuh round_bwd, when msm_tune_t::inv selects it).
 *
 * Source: D. J. Bernstein and B.-Y. Yang, "Fast constant-time gcd computation and modular inversion",
 * IACR TCHES 2019(3), §§ 8, 11-12: the divstep
 *     divstep(delta, f, g) = (1 - delta, g, (g - f) / 2)          if delta > 0 and g is odd,
 *                            (1 + delta, f, (g + (g mod 2) f) / 2) otherwise,
 * started from (1, p, x), reaches g = 0 with f = +-gcd(p, x) = +-1; batches of 30 divsteps act on
 * (f, g) as one 2x2 integer matrix T = [[u, v], [q, r]] (|u| + |v|, |q| + |r| <= 2^30) computed from
 * the low 30 bits of f and g alone, so that 2^30 (f', g') = T (f, g). This is the variable-time form
 * (it stops as soon as g = 0, and skips runs of zero bits of g at once): the inputs are public MSM
 * data (bucket sums), never secrets.
 *
 * Representation (this file only): a signed integer as L = BITS / 30 + 1 limbs of 30 bits, limb i of
 * weight 2^(30 i); limbs 0..L-2 in [0, 2^30), the top limb a signed int32 (|value| < 2^(30 (L - 1) + 31)).
 * Tracked besides f and g: d and e in [0, p) with f = d x and g = e x (mod p); each batch sets
 * d' = (u d + v e) / 2^30 mod p (k p added, k = -(u d + v e) p^-1 mod 2^30, makes it divisible), e' likewise.
 * At the end x^-1 = d (f = 1) or p - d (f = -1).
 *
 * Montgomery form: the argument is a R (R = 2^(32 N)); its plain inverse is a^-1 R^-1, and one
 * Montgomery product with R^3 (itself fe_mul(R^2, R^2)) gives a^-1 R. 0 -> 0, as Fermat's a^(p-2).
 *
 * Counts (Fp, per inversion; docs/perf/gpu.md, "Round 7"): 26.9 batches on uniform inputs, at most 28
 * (about 2.1 divsteps per bit; tests/gpu/test_gpu_field_inv_host prints them), each 130 IMAD.WIDE (f, g,
 * d, e and the two multiples of p, 13 limbs) and about 570 other integer instructions, plus 2 Montgomery
 * products: ~4.1 k IMAD.WIDE + ~15 k other instructions, against Fermat's 483 x 288 = 139 k IMAD.WIDE.
 */
#pragma once
#include "field.cuh"

namespace pmgpu {

#define PM_INV_M30 0x3fffffffu

/* count of trailing zero bits of a nonzero word */
PM_HD int inv_ctz32(uint32_t x) {
#ifdef __CUDA_ARCH__
    return __ffs((int)x) - 1;
#else
    return __builtin_ctz(x);
#endif
}

template <class P> struct inv30 {
    static constexpr int L = P::BITS / 30 + 1; /* Fp: 13 limbs (390 bits), Fr: 9 (270 bits) */
    int32_t v[L];
};

/* 32-bit limbs (N of them, little-endian, a nonnegative integer) -> 30-bit limbs */
template <class P> PM_HD void inv30_from32(inv30<P> &o, const uint32_t *w) {
PM_UNROLL
    for (int i = 0; i < inv30<P>::L; i++) {
        const int off = 30 * i, k = off >> 5, sh = off & 31;
        uint32_t x = k < P::N ? w[k] >> sh : 0u;
        if (sh > 2 && k + 1 < P::N) x |= w[k + 1] << (32 - sh);
        o.v[i] = (int32_t)(x & PM_INV_M30);
    }
}

/* 30-bit limbs of a value in [0, 2^(32 N)) -> 32-bit limbs */
template <class P> PM_HD void inv30_to32(uint32_t *w, const inv30<P> &a) {
PM_UNROLL
    for (int j = 0; j < P::N; j++) {
        const int off = 32 * j, k = off / 30, sh = off % 30;
        uint32_t x = (uint32_t)a.v[k] >> sh;
        if (k + 1 < inv30<P>::L) x |= (uint32_t)a.v[k + 1] << (30 - sh);
        if (sh > 28 && k + 2 < inv30<P>::L) x |= (uint32_t)a.v[k + 2] << (60 - sh);
        w[j] = x;
    }
}

template <class P> PM_HD void inv30_modulus(inv30<P> &m) {
    uint32_t w[P::N];
PM_UNROLL
    for (int i = 0; i < P::N; i++) w[i] = P::mod(i);
    inv30_from32<P>(m, w);
}

/* 30 divsteps on the low bits of f and g (odd f): the matrix of the batch, delta updated. The words
 * hold the low 30 bits of f and g (the limbs), so after j steps the low 30 - j bits are exact: enough
 * for the parity of every one of the 30 steps; a run of z zero bits of g is z steps
 * of the "otherwise" case with g even: g / 2^z, (u, v) 2^z, delta + z. */
PM_HD int32_t inv_divsteps30(int32_t delta, uint32_t f, uint32_t g, int32_t t[4]) {
    uint32_t u = 1, v = 0, q = 0, r = 1;
    int left = 30;
    while (left > 0) {
        if (!(g & 1u)) {
            int z = g ? inv_ctz32(g) : left;
            if (z > left) z = left;
            g >>= z;
            u <<= z;
            v <<= z;
            delta += z;
            left -= z;
            continue;
        }
        if (delta > 0) { /* (f, g) <- (g, (g - f) / 2) */
            delta = 1 - delta;
            const uint32_t nf = g, ng = (g - f) >> 1, nu = q << 1, nv = r << 1, nq = q - u, nr = r - v;
            f = nf, g = ng, u = nu, v = nv, q = nq, r = nr;
        } else { /* g <- (g + f) / 2 */
            delta = 1 + delta;
            g = (g + f) >> 1;
            q += u;
            r += v;
            u <<= 1;
            v <<= 1;
        }
        left--;
    }
    t[0] = (int32_t)u, t[1] = (int32_t)v, t[2] = (int32_t)q, t[3] = (int32_t)r;
    return delta;
}

/* (f, g) <- T (f, g) / 2^30, exact */
template <class P> PM_HD void inv30_update_fg(inv30<P> &f, inv30<P> &g, const int32_t t[4]) {
    constexpr int L = inv30<P>::L;
    int64_t cf = (int64_t)t[0] * f.v[0] + (int64_t)t[1] * g.v[0];
    int64_t cg = (int64_t)t[2] * f.v[0] + (int64_t)t[3] * g.v[0];
    cf >>= 30; /* the low 30 bits are 0 (the batch's construction) */
    cg >>= 30;
PM_UNROLL
    for (int i = 1; i < L; i++) {
        cf += (int64_t)t[0] * f.v[i] + (int64_t)t[1] * g.v[i];
        cg += (int64_t)t[2] * f.v[i] + (int64_t)t[3] * g.v[i];
        f.v[i - 1] = (int32_t)((uint32_t)cf & PM_INV_M30);
        g.v[i - 1] = (int32_t)((uint32_t)cg & PM_INV_M30);
        cf >>= 30;
        cg >>= 30;
    }
    f.v[L - 1] = (int32_t)cf;
    g.v[L - 1] = (int32_t)cg;
}

/* a in (-p, 2p) (normalised limbs) -> [0, p) */
template <class P> PM_HD void inv30_normalise(inv30<P> &a, const inv30<P> &m) {
    constexpr int L = inv30<P>::L;
    int64_t c = 0;
    if (a.v[L - 1] < 0) { /* + p */
PM_UNROLL
        for (int i = 0; i < L - 1; i++) {
            c += (int64_t)a.v[i] + m.v[i];
            a.v[i] = (int32_t)((uint32_t)c & PM_INV_M30);
            c >>= 30;
        }
        a.v[L - 1] = (int32_t)(c + a.v[L - 1] + m.v[L - 1]);
        return;
    }
    inv30<P> s; /* a - p, kept when >= 0 */
PM_UNROLL
    for (int i = 0; i < L - 1; i++) {
        c += (int64_t)a.v[i] - m.v[i];
        s.v[i] = (int32_t)((uint32_t)c & PM_INV_M30);
        c >>= 30;
    }
    s.v[L - 1] = (int32_t)(c + a.v[L - 1] - m.v[L - 1]);
    if (s.v[L - 1] >= 0) a = s;
}

/* (d, e) <- (T (d, e) + (kd, ke) p) / 2^30, then each into [0, p); d, e in [0, p) on entry */
template <class P>
PM_HD void inv30_update_de(inv30<P> &d, inv30<P> &e, const int32_t t[4], const inv30<P> &m, uint32_t pinv30) {
    constexpr int L = inv30<P>::L;
    int64_t cd = (int64_t)t[0] * d.v[0] + (int64_t)t[1] * e.v[0];
    int64_t ce = (int64_t)t[2] * d.v[0] + (int64_t)t[3] * e.v[0];
    const uint32_t kd = ((0u - (uint32_t)cd) * pinv30) & PM_INV_M30, ke = ((0u - (uint32_t)ce) * pinv30) & PM_INV_M30;
    cd += (int64_t)kd * m.v[0];
    ce += (int64_t)ke * m.v[0];
    cd >>= 30;
    ce >>= 30;
PM_UNROLL
    for (int i = 1; i < L; i++) {
        cd += (int64_t)t[0] * d.v[i] + (int64_t)t[1] * e.v[i] + (int64_t)kd * m.v[i];
        ce += (int64_t)t[2] * d.v[i] + (int64_t)t[3] * e.v[i] + (int64_t)ke * m.v[i];
        d.v[i - 1] = (int32_t)((uint32_t)cd & PM_INV_M30);
        e.v[i - 1] = (int32_t)((uint32_t)ce & PM_INV_M30);
        cd >>= 30;
        ce >>= 30;
    }
    d.v[L - 1] = (int32_t)cd;
    e.v[L - 1] = (int32_t)ce;
    /* |T (d, e)| < 2^30 p and 0 <= k p < 2^30 p: the quotient lies in (-p, 2p) */
    inv30_normalise<P>(d, m);
    inv30_normalise<P>(e, m);
}

template <class P> PM_HD bool inv30_is_zero(const inv30<P> &a) {
    int32_t o = 0;
PM_UNROLL
    for (int i = 0; i < inv30<P>::L; i++) o |= a.v[i];
    return o == 0;
}

/* 1/a in Montgomery form for a in Montgomery form (0 -> 0), by divsteps (see the top of the file).
 * Variable time. At most 64 batches (the paper's bound for 381 bits is 1102 divsteps, 37 batches):
 * never reached for a prime modulus; a result of 0 for nonzero a would mean a bug, and the tests
 * compare every result with Fermat's. batches (optional, tests): the count of 30-divstep batches run. */
template <class P> PM_HD_CALL fe<P> fe_inv_divsteps(const fe<P> &a, int *batches_out = nullptr) {
    inv30<P> m, f, g, d, e;
    inv30_modulus<P>(m);
    f = m;
    inv30_from32<P>(g, a.v);
PM_UNROLL
    for (int i = 0; i < inv30<P>::L; i++) d.v[i] = 0, e.v[i] = 0;
    e.v[0] = 1;
    const uint32_t pinv30 = (0u - P::N0) & PM_INV_M30; /* p^-1 mod 2^30 (N0 = -p^-1 mod 2^32) */
    int32_t delta = 1, t[4];
    int batches = 0;
PM_UNROLL1
    while (!inv30_is_zero<P>(g) && batches++ < 64) {
        delta = inv_divsteps30(delta, (uint32_t)f.v[0], (uint32_t)g.v[0], t);
        inv30_update_fg<P>(f, g, t);
        inv30_update_de<P>(d, e, t, m, pinv30);
    }
    if (batches_out) *batches_out = batches;
    fe<P> r;
    if (!inv30_is_zero<P>(g)) { /* not reached (see above) */
PM_UNROLL
        for (int i = 0; i < P::N; i++) r.v[i] = 0;
        return r;
    }
    if (f.v[inv30<P>::L - 1] < 0 && !inv30_is_zero<P>(d)) { /* f = -1: x^-1 = -d = p - d */
        int64_t c = 0;
PM_UNROLL
        for (int i = 0; i < inv30<P>::L; i++) {
            c += (int64_t)m.v[i] - d.v[i];
            d.v[i] = (int32_t)((uint32_t)c & PM_INV_M30);
            c >>= 30;
        }
    }
    inv30_to32<P>(r.v, d); /* (a R)^-1 as an integer < p */
    fe<P> r2;
PM_UNROLL
    for (int i = 0; i < P::N; i++) r2.v[i] = P::r2(i);
    return fe_mul<P>(r, fe_mul<P>(r2, r2)); /* x R^3 R^-1: a^-1 R */
}

#undef PM_INV_M30

} /* namespace pmgpu */
