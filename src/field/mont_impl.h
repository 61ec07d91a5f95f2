/*
 * mont_impl.h — portable Montgomery arithmetic over n 64-bit limbs (internal).
 *
 * Every routine here works on little-endian arrays of 64-bit limbs (limb 0 is the
 * least significant) whose length n is a compile-time constant at each call site;
 * the functions are static inline so that the compiler unrolls them per field.
 * Values are assumed fully reduced (< m) on input and are fully reduced on output.
 *
 * Montgomery multiplication is the CIOS variant of Koç, Acar, Kaliski,
 * "Analyzing and Comparing Montgomery Multiplication Algorithms" (IEEE Micro 1996):
 * 2n^2 word multiplications plus n for the quotients per product. The portable path uses
 * unsigned __int128; the x86-64 kernels (mont_x86_64.S) implement the same algorithm and give the
 * same limbs. The second half of this file is the variable-time safegcd inversion.
 * Not constant time where noted (_vartime).
 */
#ifndef PROOFMILL_FIELD_MONT_IMPL_H
#define PROOFMILL_FIELD_MONT_IMPL_H

#include <stdint.h>
#include <string.h>

typedef unsigned __int128 pm_u128;

/* r = a + b mod m. Cost: 2n add-with-carry. */
static inline void mont_add(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *m, int n) {
    uint64_t t[8], u[8];
    uint64_t carry = 0, borrow = 0;
    for (int i = 0; i < n; i++) {
        pm_u128 s = (pm_u128)a[i] + b[i] + carry;
        t[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
    for (int i = 0; i < n; i++) {
        pm_u128 d = (pm_u128)t[i] - m[i] - borrow;
        u[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    /* keep u when (carry:t) >= m, i.e. when the subtraction did not borrow past the carry */
    uint64_t keep_t = (uint64_t)0 - (uint64_t)(borrow & (carry ^ 1));
    for (int i = 0; i < n; i++) r[i] = (t[i] & keep_t) | (u[i] & ~keep_t);
}

/* r = a - b mod m. */
static inline void mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *m, int n) {
    uint64_t t[8];
    uint64_t borrow = 0;
    for (int i = 0; i < n; i++) {
        pm_u128 d = (pm_u128)a[i] - b[i] - borrow;
        t[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    uint64_t mask = (uint64_t)0 - borrow, carry = 0;
    for (int i = 0; i < n; i++) {
        pm_u128 s = (pm_u128)t[i] + (m[i] & mask) + carry;
        r[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
}

/* r = -a mod m (0 maps to 0). */
static inline void mont_neg(uint64_t *r, const uint64_t *a, const uint64_t *m, int n) {
    uint64_t nz = 0;
    for (int i = 0; i < n; i++) nz |= a[i];
    uint64_t mask = (uint64_t)0 - (uint64_t)(nz != 0);
    uint64_t borrow = 0;
    for (int i = 0; i < n; i++) {
        pm_u128 d = (pm_u128)m[i] - a[i] - borrow;
        r[i] = (uint64_t)d & mask;
        borrow = (uint64_t)(d >> 64) & 1;
    }
}

/* r = a * b * 2^(-64n) mod m (CIOS, Koç et al. 1996), n0 = -m^{-1} mod 2^64.
 * Requires m < 2^(64n - 1) (true for BLS12-381 p and r): then the running value t stays below 2m <
 * 2^(64n) after every round, so t needs n limbs and no carry word ("no-carry" CIOS; the top limb of
 * each round is the sum of the two carry words A + C, which cannot overflow). Per round: n products
 * a[j]*b[i] (carry A) and n products q*m[j] (carry C) interleaved in one pass; one conditional
 * subtraction at the end. 12 % faster than the textbook n+2-word CIOS with GCC 12 (bench). */
static inline void mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *m, uint64_t n0, int n) {
    uint64_t t[8] = {0};
    for (int i = 0; i < n; i++) {
        pm_u128 s = (pm_u128)a[0] * b[i] + t[0];
        uint64_t A = (uint64_t)(s >> 64);
        uint64_t t0 = (uint64_t)s;
        uint64_t q = t0 * n0;
        s = (pm_u128)q * m[0] + t0; /* low word is 0 by the choice of q */
        uint64_t C = (uint64_t)(s >> 64);
        for (int j = 1; j < n; j++) {
            s = (pm_u128)a[j] * b[i] + t[j] + A;
            A = (uint64_t)(s >> 64);
            s = (pm_u128)q * m[j] + (uint64_t)s + C;
            C = (uint64_t)(s >> 64);
            t[j - 1] = (uint64_t)s;
        }
        t[n - 1] = A + C;
    }
    /* final conditional subtraction: t < 2m */
    uint64_t u[8], borrow = 0;
    for (int i = 0; i < n; i++) {
        pm_u128 d = (pm_u128)t[i] - m[i] - borrow;
        u[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    uint64_t keep_t = (uint64_t)0 - borrow;
    for (int i = 0; i < n; i++) r[i] = (t[i] & keep_t) | (u[i] & ~keep_t);
}

/* NTT butterflies, the portable reference of the fused kernels (fr_bfly.h): the same three steps
 * as mont_mul + mont_sub + mont_add, so the limbs are those of the separate calls.
 * DIT: (x, y) = (x + w y, x - w y); DIF: (x, y) = (x + y, (x - y) w). x and y must not overlap;
 * w may alias either (it is read before any write). */
static inline void mont_bfly_dit(uint64_t *x, uint64_t *y, const uint64_t *w, const uint64_t *m,
                                 uint64_t n0, int n) {
    uint64_t t[8];
    mont_mul(t, w, y, m, n0, n);
    mont_sub(y, x, t, m, n);
    mont_add(x, x, t, m, n);
}
static inline void mont_bfly_dif(uint64_t *x, uint64_t *y, const uint64_t *w, const uint64_t *m,
                                 uint64_t n0, int n) {
    uint64_t t[8], ww[8];
    for (int i = 0; i < n; i++) ww[i] = w[i];
    mont_sub(t, x, y, m, n);
    mont_add(x, x, y, m, n);
    mont_mul(y, t, ww, m, n0, n);
}

/* 1 when a == 0. */
static inline int mont_is_zero(const uint64_t *a, int n) {
    uint64_t z = 0;
    for (int i = 0; i < n; i++) z |= a[i];
    return z == 0;
}

/* 1 when a < m (plain integers). */
static inline int mont_lt(const uint64_t *a, const uint64_t *m, int n) {
    for (int i = n - 1; i >= 0; i--) {
        if (a[i] < m[i]) return 1;
        if (a[i] > m[i]) return 0;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Variable-time modular inversion: Bernstein–Yang "safegcd" (Bernstein, Yang, "Fast constant-time
 * gcd computation and modular inversion", TCHES 2019), in its variable-time form: divsteps are
 * batched 62 at a time on the low 64 bits of f and g, giving a 2x2 matrix scaled by 2^62 that is
 * then applied to the full-width f, g (exact division) and to the Bezout coefficients d, e (made
 * divisible by 2^62 by adding a multiple of m). Runs of zeros in g are skipped with ctz and up to
 * eta+1 "odd" steps are merged into one g += w*f with w = -g/f mod 2^k (the idea of the _var
 * divsteps in bitcoin-core/secp256k1's modinv64; code is ours). The loop stops when g = 0.
 *
 * Numbers are "signed62": L limbs, limb k weighs 2^(62k); limbs 0..L-2 lie in [0, 2^62), the top
 * limb is signed. L = 7 covers Fp (381 bits + sign + growth of d, e), L = 5 covers Fr (255 bits).
 * Cost: about 9-12 batches for Fp; each batch ~ 4L + 2L 64x64->128 products plus the divsteps.
 * --------------------------------------------------------------------------------------------- */
#define MONT_S62_MASK (((uint64_t)1 << 62) - 1)
#define MONT_S62_MAXL 8
typedef __int128 pm_i128;

/* x with f*x = 1 mod 2^bits, f odd, bits <= 64 (Newton: each step doubles the correct bits). */
static inline uint64_t mont_inv_pow2(uint64_t f, int bits) {
    uint64_t x = (3 * f) ^ 2; /* correct to 5 bits (Montgomery's trick) */
    for (int ok = 5; ok < bits; ok *= 2) x *= 2 - f * x;
    return x;
}

/* 62 divsteps from (eta, f, g) on the low bits; t = {u, v, q, r} with
 * 2^62 * (f', g') = (u f + v g, q f + r g). Returns the new eta (= -delta). f must be odd. */
static inline int64_t mont_divsteps62_vartime(int64_t eta, uint64_t f, uint64_t g, int64_t t[4]) {
    uint64_t u = 1, v = 0, q = 0, r = 1; /* two's-complement arithmetic on uint64_t */
    int i = 62;
    for (;;) {
        int zeros = __builtin_ctzll(g | ((uint64_t)1 << i));
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= zeros;
        i -= zeros;
        if (i == 0) break;
        /* g is odd: when delta > 0 swap (f, g) = (g, -f), as the divstep does */
        if (eta < 0) {
            uint64_t tmp;
            eta = -eta;
            tmp = f; f = g; g = -tmp;
            tmp = u; u = q; q = -tmp;
            tmp = v; v = r; r = -tmp;
        }
        /* the next min(eta+1, i) divsteps add f whenever g is odd: all at once, g += w*f */
        int limit = (eta + 1 > i) ? i : (int)eta + 1;
        uint64_t mask = UINT64_MAX >> (64 - limit);
        uint64_t w = ((uint64_t)0 - g * mont_inv_pow2(f, limit)) & mask;
        g += f * w;
        q += u * w;
        r += v * w;
    }
    t[0] = (int64_t)u;
    t[1] = (int64_t)v;
    t[2] = (int64_t)q;
    t[3] = (int64_t)r;
    return eta;
}

/* (f, g) = (u f + v g, q f + r g) / 2^62, exact. */
static inline void mont_s62_update_fg(int64_t *f, int64_t *g, const int64_t t[4], int L) {
    pm_i128 cf = (pm_i128)t[0] * f[0] + (pm_i128)t[1] * g[0];
    pm_i128 cg = (pm_i128)t[2] * f[0] + (pm_i128)t[3] * g[0];
    cf >>= 62;
    cg >>= 62;
    for (int k = 1; k < L; k++) {
        cf += (pm_i128)t[0] * f[k] + (pm_i128)t[1] * g[k];
        cg += (pm_i128)t[2] * f[k] + (pm_i128)t[3] * g[k];
        f[k - 1] = (int64_t)((uint64_t)cf & MONT_S62_MASK);
        g[k - 1] = (int64_t)((uint64_t)cg & MONT_S62_MASK);
        cf >>= 62;
        cg >>= 62;
    }
    f[L - 1] = (int64_t)cf;
    g[L - 1] = (int64_t)cg;
}

/* (d, e) = (u d + v e + md m, q d + r e + me m) / 2^62 with md, me in [-2^61, 2^61) chosen so the
 * divisions are exact; minv = m^{-1} mod 2^62. |d|, |e| grow by at most m/2 per call. */
static inline void mont_s62_update_de(int64_t *d, int64_t *e, const int64_t t[4], const int64_t *m62,
                                      uint64_t minv, int L) {
    uint64_t d0 = (uint64_t)t[0] * (uint64_t)d[0] + (uint64_t)t[1] * (uint64_t)e[0];
    uint64_t e0 = (uint64_t)t[2] * (uint64_t)d[0] + (uint64_t)t[3] * (uint64_t)e[0];
    uint64_t mdu = ((uint64_t)0 - d0 * minv) & MONT_S62_MASK;
    uint64_t meu = ((uint64_t)0 - e0 * minv) & MONT_S62_MASK;
    int64_t md = (int64_t)mdu - (mdu >> 61 ? ((int64_t)1 << 62) : 0);
    int64_t me = (int64_t)meu - (meu >> 61 ? ((int64_t)1 << 62) : 0);
    pm_i128 cd = (pm_i128)t[0] * d[0] + (pm_i128)t[1] * e[0] + (pm_i128)md * m62[0];
    pm_i128 ce = (pm_i128)t[2] * d[0] + (pm_i128)t[3] * e[0] + (pm_i128)me * m62[0];
    cd >>= 62;
    ce >>= 62;
    for (int k = 1; k < L; k++) {
        cd += (pm_i128)t[0] * d[k] + (pm_i128)t[1] * e[k] + (pm_i128)md * m62[k];
        ce += (pm_i128)t[2] * d[k] + (pm_i128)t[3] * e[k] + (pm_i128)me * m62[k];
        d[k - 1] = (int64_t)((uint64_t)cd & MONT_S62_MASK);
        e[k - 1] = (int64_t)((uint64_t)ce & MONT_S62_MASK);
        cd >>= 62;
        ce >>= 62;
    }
    d[L - 1] = (int64_t)cd;
    e[L - 1] = (int64_t)ce;
}

/* d = s*d + k*m (s = +1 or -1, k small), renormalised to signed62. */
static inline void mont_s62_lincomb(int64_t *d, int s, int64_t k, const int64_t *m62, int L) {
    pm_i128 c = 0;
    for (int i = 0; i < L; i++) {
        c += (pm_i128)s * d[i] + (pm_i128)k * m62[i];
        d[i] = i + 1 < L ? (int64_t)((uint64_t)c & MONT_S62_MASK) : (int64_t)c;
        c >>= 62;
    }
}

/* signed62 <-> n 64-bit limbs (non-negative values below 2^(64n)). */
static inline void mont_s62_from_limbs(int64_t *o, const uint64_t *a, int n, int L) {
    for (int k = 0; k < L; k++) {
        int bit = 62 * k, w = bit / 64, sh = bit % 64;
        uint64_t x = w < n ? a[w] >> sh : 0;
        if (sh && w + 1 < n) x |= a[w + 1] << (64 - sh);
        o[k] = (int64_t)(x & MONT_S62_MASK);
    }
}
static inline void mont_s62_to_limbs(uint64_t *o, const int64_t *d, int n, int L) {
    for (int i = 0; i < n; i++) o[i] = 0;
    for (int k = 0; k < L; k++) {
        int bit = 62 * k, w = bit / 64, sh = bit % 64;
        uint64_t x = (uint64_t)d[k];
        if (w < n) o[w] |= x << sh;
        if (sh > 2 && w + 1 < n) o[w + 1] |= x >> (64 - sh);
    }
}

/* r = a^{-1} mod m for a plain integer 0 <= a < m (m odd prime, n limbs, L signed62 limbs with
 * 62L >= 64n - (spare bits) + 8); r = 0 when a = 0. Variable time. Returns 0, or -1 if the loop
 * did not finish within its bound (cannot happen for prime m; the caller then uses Fermat). */
static inline int mont_inv_vartime(uint64_t *r, const uint64_t *a, const uint64_t *m, int n, int L) {
    int64_t f[MONT_S62_MAXL], g[MONT_S62_MAXL], d[MONT_S62_MAXL] = {0}, e[MONT_S62_MAXL] = {0};
    int64_t m62[MONT_S62_MAXL], t[4];
    mont_s62_from_limbs(m62, m, n, L);
    mont_s62_from_limbs(g, a, n, L);
    for (int k = 0; k < L; k++) f[k] = m62[k];
    e[0] = 1;
    uint64_t minv = mont_inv_pow2(m[0], 62) & MONT_S62_MASK;
    int64_t eta = -1;
    /* Bernstein–Yang bound: (49 bits + 57)/17 divsteps always suffice; 62 per batch. */
    int max_batches = (49 * 64 * n + 57) / 17 / 62 + 2;
    for (int it = 0;; it++) {
        int64_t gz = 0;
        for (int k = 0; k < L; k++) gz |= g[k];
        if (gz == 0) break;
        if (it == max_batches) return -1;
        eta = mont_divsteps62_vartime(eta, (uint64_t)f[0], (uint64_t)g[0], t);
        mont_s62_update_fg(f, g, t, L);
        mont_s62_update_de(d, e, t, m62, minv, L);
    }
    /* now f = +-1 (gcd), or f = +-m when a = 0 (d is then 0) */
    mont_s62_lincomb(d, f[L - 1] < 0 ? -1 : 1, 0, m62, L);
    while (d[L - 1] < 0) mont_s62_lincomb(d, 1, 1, m62, L);
    for (;;) { /* while d >= m: d -= m */
        int64_t tmp[MONT_S62_MAXL];
        for (int k = 0; k < L; k++) tmp[k] = d[k];
        mont_s62_lincomb(tmp, 1, -1, m62, L);
        if (tmp[L - 1] < 0) break;
        for (int k = 0; k < L; k++) d[k] = tmp[k];
    }
    mont_s62_to_limbs(r, d, n, L);
    return 0;
}

#endif
