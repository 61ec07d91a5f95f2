/*
 * fp12.c — Fp12 = Fp6[w]/(w^2 - v) arithmetic (see fp12.h for the contract).
 */
#include "fp12.h"

#include <string.h>

#include "tower_frobenius.h"

#define FP_ONE_INIT                                                                                \
    {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,  \
      0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}}
#define FP_ZERO_INIT {{0, 0, 0, 0, 0, 0}}
#define FP2_ZERO_INIT {FP_ZERO_INIT, FP_ZERO_INIT}
#define FP6_ZERO_INIT {FP2_ZERO_INIT, FP2_ZERO_INIT, FP2_ZERO_INIT}

const fp12_t FP12_ZERO = {FP6_ZERO_INIT, FP6_ZERO_INIT};
const fp12_t FP12_ONE = {{{FP_ONE_INIT, FP_ZERO_INIT}, FP2_ZERO_INIT, FP2_ZERO_INIT}, FP6_ZERO_INIT};

void fp12_add(fp12_t *r, const fp12_t *a, const fp12_t *b) {
    fp6_add(&r->c0, &a->c0, &b->c0);
    fp6_add(&r->c1, &a->c1, &b->c1);
}
void fp12_sub(fp12_t *r, const fp12_t *a, const fp12_t *b) {
    fp6_sub(&r->c0, &a->c0, &b->c0);
    fp6_sub(&r->c1, &a->c1, &b->c1);
}
void fp12_neg(fp12_t *r, const fp12_t *a) {
    fp6_neg(&r->c0, &a->c0);
    fp6_neg(&r->c1, &a->c1);
}
void fp12_conj(fp12_t *r, const fp12_t *a) {
    r->c0 = a->c0;
    fp6_neg(&r->c1, &a->c1);
}

void fp12_mul(fp12_t *r, const fp12_t *a, const fp12_t *b) {
    /* (a0 + a1 w)(b0 + b1 w) = a0 b0 + v a1 b1 + ((a0+a1)(b0+b1) - a0 b0 - a1 b1) w */
    fp6_t t0, t1, s, u;
    fp6_mul(&t0, &a->c0, &b->c0);
    fp6_mul(&t1, &a->c1, &b->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_add(&u, &b->c0, &b->c1);
    fp6_mul(&s, &s, &u);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&r->c1, &s, &t1);
    fp6_mul_by_nonresidue(&t1, &t1);
    fp6_add(&r->c0, &t0, &t1);
}

void fp12_sqr(fp12_t *r, const fp12_t *a) {
    /* (a0 + a1 w)^2 = (a0 + a1)(a0 + v a1) - t - v t + 2t w,  t = a0 a1 */
    fp6_t t, s, u;
    fp6_mul(&t, &a->c0, &a->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_nonresidue(&u, &a->c1);
    fp6_add(&u, &u, &a->c0);
    fp6_mul(&s, &s, &u);
    fp6_sub(&s, &s, &t);
    fp6_mul_by_nonresidue(&u, &t);
    fp6_sub(&r->c0, &s, &u);
    fp6_dbl(&r->c1, &t);
}

void fp12_inv_vartime(fp12_t *r, const fp12_t *a) {
    /* (a0 + a1 w)^{-1} = (a0 - a1 w)/(a0^2 - v a1^2) */
    fp6_t t0, t1;
    fp6_sqr(&t0, &a->c0);
    fp6_sqr(&t1, &a->c1);
    fp6_mul_by_nonresidue(&t1, &t1);
    fp6_sub(&t0, &t0, &t1);
    fp6_inv_vartime(&t0, &t0);
    fp6_mul(&r->c0, &a->c0, &t0);
    fp6_mul(&t1, &a->c1, &t0);
    fp6_neg(&r->c1, &t1);
}

void fp12_frobenius(fp12_t *r, const fp12_t *a, unsigned k) {
    /* Coefficient of w^j maps to conj^k(.) * gamma_k^j. c0 holds w^0, w^2, w^4 (fp6_frobenius
     * applies gamma^0, gamma^2, gamma^4); c1 holds w^1, w^3, w^5: the same times gamma^1. */
    k %= 12;
    unsigned k6 = k % 6;
    const fp2_t *g = tower_frobenius_gamma(k6);
    fp6_t c0, c1;
    fp6_frobenius(&c0, &a->c0, k);
    fp6_frobenius(&c1, &a->c1, k);
    /* For k >= 6 the conjugations cancel in pairs already handled by k parity; gamma_{k} for
     * k >= 6 equals gamma_{k-6} times xi^((p^6-1)/6 * p^(k-6)) = -1 on w (w^(p^6) = -w). */
    fp6_mul_fp2(&c1, &c1, &g[1]);
    if (k >= 6) fp6_neg(&c1, &c1);
    r->c0 = c0;
    r->c1 = c1;
}

void fp12_mul_by_014(fp12_t *r, const fp12_t *a, const fp2_t *l0, const fp2_t *l1, const fp2_t *l4) {
    /* L = L0 + L1 w with L0 = (l0, l1, 0), L1 = (0, l4, 0). Karatsuba:
     * t0 = a0 L0 (5 M2), t1 = a1 L1 (3 M2), c1 = (a0+a1)(L0+L1) - t0 - t1 (5 M2),
     * c0 = t0 + v t1. */
    fp6_t t0, t1, s;
    fp2_t m;
    fp6_mul_by_01(&t0, &a->c0, l0, l1);
    fp6_mul_by_1(&t1, &a->c1, l4);
    fp6_add(&s, &a->c0, &a->c1);
    fp2_add(&m, l1, l4);
    fp6_mul_by_01(&s, &s, l0, &m);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&r->c1, &s, &t1);
    fp6_mul_by_nonresidue(&t1, &t1);
    fp6_add(&r->c0, &t0, &t1);
}

/* (a + b s)^2 in Fp4 = Fp2[s]/(s^2 - xi): (a^2 + xi b^2) + ((a+b)^2 - a^2 - b^2) s. 3 S2. */
static void fp4_sqr(fp2_t *r0, fp2_t *r1, const fp2_t *a, const fp2_t *b) {
    fp2_t a2, b2, t;
    fp2_sqr(&a2, a);
    fp2_sqr(&b2, b);
    fp2_add(&t, a, b);
    fp2_sqr(&t, &t);
    fp2_sub(&t, &t, &a2);
    fp2_sub(r1, &t, &b2);
    fp2_mul_by_nonresidue(&b2, &b2);
    fp2_add(r0, &a2, &b2);
}

void fp12_cyclotomic_sqr(fp12_t *r, const fp12_t *a) {
    /* View Fp12 = Fp4[w]/(w^3 - s), s = w^3, Fp4 = Fp2[s]: a = A0 + A1 w + A2 w^2 with
     * A0 = (c0.c0, c1.c1), A1 = (c1.c0, c0.c2), A2 = (c0.c1, c1.c2) as (Fp2, Fp2 * s) pairs.
     * For a in the cyclotomic subgroup (Granger–Scott §3.2):
     *   B0 = 3 A0^2 - 2 conj(A0),  B1 = 3 s A2^2 + 2 conj(A1),  B2 = 3 A1^2 - 2 conj(A2),
     * conj(x + y s) = x - y s. Cost: 3 Fp4 squarings = 9 S2. */
    fp2_t t0, t1, t2, t3, t4, t5, z;
    fp4_sqr(&t0, &t1, &a->c0.c0, &a->c1.c1); /* A0^2 */
    fp4_sqr(&t2, &t3, &a->c1.c0, &a->c0.c2); /* A1^2 */
    fp4_sqr(&t4, &t5, &a->c0.c1, &a->c1.c2); /* A2^2 */
    fp12_t o;

    /* B0 = 3 A0^2 - 2 conj(A0): x-part 3 t0 - 2 a00, s-part 3 t1 + 2 a11 */
    fp2_sub(&z, &t0, &a->c0.c0);
    fp2_dbl(&z, &z);
    fp2_add(&o.c0.c0, &z, &t0);
    fp2_add(&z, &t1, &a->c1.c1);
    fp2_dbl(&z, &z);
    fp2_add(&o.c1.c1, &z, &t1);

    /* B1 = 3 s A2^2 + 2 conj(A1); s (t4 + t5 s) = xi t5 + t4 s:
     * x-part 3 xi t5 + 2 a10, s-part 3 t4 - 2 a02 */
    fp2_mul_by_nonresidue(&t5, &t5);
    fp2_add(&z, &t5, &a->c1.c0);
    fp2_dbl(&z, &z);
    fp2_add(&o.c1.c0, &z, &t5);
    fp2_sub(&z, &t4, &a->c0.c2);
    fp2_dbl(&z, &z);
    fp2_add(&o.c0.c2, &z, &t4);

    /* B2 = 3 A1^2 - 2 conj(A2): x-part 3 t2 - 2 a01, s-part 3 t3 + 2 a12 */
    fp2_sub(&z, &t2, &a->c0.c1);
    fp2_dbl(&z, &z);
    fp2_add(&o.c0.c1, &z, &t2);
    fp2_add(&z, &t3, &a->c1.c2);
    fp2_dbl(&z, &z);
    fp2_add(&o.c1.c2, &z, &t3);
    *r = o;
}

/* Karabina compressed form: (g2, g3, g4, g5) = (c1.c0, c0.c2, c0.c1, c1.c2), i.e. in the
 * Fp4 view of fp12_cyclotomic_sqr, A1 = g2 + g3 s and A2 = g4 + g5 s (A0 = g0 + g1 s dropped). */
typedef struct { fp2_t g2, g3, g4, g5; } fp12_compressed_t;

static void fp12_compressed_sqr(fp12_compressed_t *r, const fp12_compressed_t *a) {
    /* The Granger–Scott formulas for B1, B2 only involve A1, A2 (Karabina §3):
     *   h2 = 2 g2 + 3 xi (2 g4 g5),   h3 = 3 (g4^2 + xi g5^2) - 2 g3,
     *   h4 = 3 (g2^2 + xi g3^2) - 2 g4, h5 = 2 g5 + 3 (2 g2 g3);  2xy = (x+y)^2 - x^2 - y^2.
     * 6 S2. */
    fp2_t t2, t3, t4, t5, b23, b45, t;
    fp2_sqr(&t2, &a->g2);
    fp2_sqr(&t3, &a->g3);
    fp2_sqr(&t4, &a->g4);
    fp2_sqr(&t5, &a->g5);
    fp2_add(&b23, &a->g2, &a->g3);
    fp2_sqr(&b23, &b23);
    fp2_sub(&b23, &b23, &t2);
    fp2_sub(&b23, &b23, &t3);
    fp2_add(&b45, &a->g4, &a->g5);
    fp2_sqr(&b45, &b45);
    fp2_sub(&b45, &b45, &t4);
    fp2_sub(&b45, &b45, &t5);

    fp12_compressed_t o;
    /* h2 = 2 g2 + 3 xi b45 */
    fp2_mul_by_nonresidue(&t, &b45);
    fp2_add(&o.g2, &t, &a->g2);
    fp2_dbl(&o.g2, &o.g2);
    fp2_add(&o.g2, &o.g2, &t);
    /* h3 = 3 (t4 + xi t5) - 2 g3 = 2 (u - g3) + u */
    fp2_mul_by_nonresidue(&t, &t5);
    fp2_add(&t, &t, &t4);
    fp2_sub(&o.g3, &t, &a->g3);
    fp2_dbl(&o.g3, &o.g3);
    fp2_add(&o.g3, &o.g3, &t);
    /* h4 = 3 (t2 + xi t3) - 2 g4 */
    fp2_mul_by_nonresidue(&t, &t3);
    fp2_add(&t, &t, &t2);
    fp2_sub(&o.g4, &t, &a->g4);
    fp2_dbl(&o.g4, &o.g4);
    fp2_add(&o.g4, &o.g4, &t);
    /* h5 = 2 g5 + 3 b23 = 2 (g5 + b23) + b23 */
    fp2_add(&o.g5, &a->g5, &b23);
    fp2_dbl(&o.g5, &o.g5);
    fp2_add(&o.g5, &o.g5, &b23);
    *r = o;
}

/* Decompression (Karabina §4): g1 = num/den with
 *   g2 != 0: num = xi g5^2 + 3 g4^2 - 2 g3, den = 4 g2;   g2 == 0: num = 2 g4 g5, den = g3;
 * then g0 = xi (2 g1^2 + g2 g5 - 3 g3 g4) + 1. Returns 0 when den == 0. */
static int fp12_compressed_num_den(fp2_t *num, fp2_t *den, const fp12_compressed_t *c) {
    fp2_t t;
    if (!fp2_is_zero(&c->g2)) {
        fp2_sqr(num, &c->g5);
        fp2_mul_by_nonresidue(num, num);
        fp2_sqr(&t, &c->g4);
        fp2_add(num, num, &t);
        fp2_dbl(&t, &t);
        fp2_add(num, num, &t);
        fp2_dbl(&t, &c->g3);
        fp2_sub(num, num, &t);
        fp2_dbl(den, &c->g2);
        fp2_dbl(den, den);
    } else {
        fp2_mul(num, &c->g4, &c->g5);
        fp2_dbl(num, num);
        *den = c->g3;
    }
    return !fp2_is_zero(den);
}

static void fp12_decompress(fp12_t *r, const fp12_compressed_t *c, const fp2_t *g1) {
    fp2_t g0, t;
    fp2_sqr(&g0, g1);
    fp2_dbl(&g0, &g0);
    fp2_mul(&t, &c->g2, &c->g5);
    fp2_add(&g0, &g0, &t);
    fp2_mul(&t, &c->g3, &c->g4);
    fp2_sub(&g0, &g0, &t);
    fp2_dbl(&t, &t);
    fp2_sub(&g0, &g0, &t);
    fp2_mul_by_nonresidue(&g0, &g0);
    fp_add(&g0.c0, &g0.c0, &FP2_ONE.c0);
    r->c0.c0 = g0;
    r->c1.c1 = *g1;
    r->c1.c0 = c->g2;
    r->c0.c2 = c->g3;
    r->c0.c1 = c->g4;
    r->c1.c2 = c->g5;
}

void fp12_cyclotomic_exp_vartime(fp12_t *r, const fp12_t *a, uint64_t e) {
    if (e == 0) {
        *r = FP12_ONE;
        return;
    }
    int top = 63 - __builtin_clzll(e);
    fp12_compressed_t c = {a->c1.c0, a->c0.c2, a->c0.c1, a->c1.c2};
    fp12_compressed_t saved[64];
    fp2_t num[64], den[64], pre[64];
    int ns = 0, ok = 1;
    for (int k = 1; k <= top; k++) {
        fp12_compressed_sqr(&c, &c);
        if ((e >> k) & 1) {
            saved[ns] = c;
            if (!fp12_compressed_num_den(&num[ns], &den[ns], &c)) ok = 0;
            ns++;
        }
    }
    if (!ok) { /* degenerate: plain left-to-right square-and-multiply with GS squarings */
        fp12_t acc = *a;
        for (int k = top - 1; k >= 0; k--) {
            fp12_cyclotomic_sqr(&acc, &acc);
            if ((e >> k) & 1) fp12_mul(&acc, &acc, a);
        }
        *r = acc;
        return;
    }
    fp12_t acc = (e & 1) ? *a : FP12_ONE;
    if (ns > 0) {
        /* batch inversion of den[0..ns) (Montgomery's trick): 3(ns-1) M2 + 1 inversion */
        fp2_t inv;
        pre[0] = den[0];
        for (int i = 1; i < ns; i++) fp2_mul(&pre[i], &pre[i - 1], &den[i]);
        fp2_inv_vartime(&inv, &pre[ns - 1]);
        for (int i = ns - 1; i >= 0; i--) {
            fp2_t di, g1;
            if (i > 0) {
                fp2_mul(&di, &inv, &pre[i - 1]);
                fp2_mul(&inv, &inv, &den[i]);
            } else {
                di = inv;
            }
            fp2_mul(&g1, &num[i], &di);
            fp12_t t;
            fp12_decompress(&t, &saved[i], &g1);
            if ((e & 1) == 0 && i == ns - 1)
                acc = t;
            else
                fp12_mul(&acc, &acc, &t);
        }
    }
    *r = acc;
}

void fp12_pow_vartime(fp12_t *r, const fp12_t *a, const uint64_t *e, size_t ne) {
    fp12_t acc = FP12_ONE, base = *a;
    for (size_t i = ne; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            fp12_sqr(&acc, &acc);
            if ((e[i] >> b) & 1) fp12_mul(&acc, &acc, &base);
        }
    *r = acc;
}

int fp12_is_zero(const fp12_t *a) { return fp6_is_zero(&a->c0) && fp6_is_zero(&a->c1); }
int fp12_is_one(const fp12_t *a) { return fp12_eq(a, &FP12_ONE); }
int fp12_eq(const fp12_t *a, const fp12_t *b) { return fp6_eq(&a->c0, &b->c0) && fp6_eq(&a->c1, &b->c1); }

void fp12_to_fps(fp_t out[12], const fp12_t *a) {
    const fp6_t *h[2] = {&a->c0, &a->c1};
    for (int i = 0; i < 2; i++) {
        const fp2_t *c[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        for (int j = 0; j < 3; j++) {
            out[6 * i + 2 * j] = c[j]->c0;
            out[6 * i + 2 * j + 1] = c[j]->c1;
        }
    }
}

void fp12_from_fps(fp12_t *r, const fp_t in[12]) {
    fp6_t *h[2] = {&r->c0, &r->c1};
    for (int i = 0; i < 2; i++) {
        fp2_t *c[3] = {&h[i]->c0, &h[i]->c1, &h[i]->c2};
        for (int j = 0; j < 3; j++) {
            c[j]->c0 = in[6 * i + 2 * j];
            c[j]->c1 = in[6 * i + 2 * j + 1];
        }
    }
}

void fp12_to_be_bytes(uint8_t out[576], const fp12_t *a) {
    fp_t f[12];
    fp12_to_fps(f, a);
    for (int i = 0; i < 12; i++) fp_to_be_bytes(out + 48 * i, &f[i]);
}

int fp12_from_be_bytes(fp12_t *r, const uint8_t in[576]) {
    fp_t f[12];
    for (int i = 0; i < 12; i++) {
        if (fp_from_be_bytes(&f[i], in + 48 * i) != 0) {
            *r = FP12_ZERO;
            return -1;
        }
    }
    fp12_from_fps(r, f);
    return 0;
}
