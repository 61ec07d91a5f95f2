/*
 * fp2.c — Fp2 arithmetic (see fp2.h).
 */
#include "fp2.h"

const fp2_t FP2_ZERO = {{{0, 0, 0, 0, 0, 0}}, {{0, 0, 0, 0, 0, 0}}};
const fp2_t FP2_ONE = {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                         0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
                       {{0, 0, 0, 0, 0, 0}}};

void fp2_add(fp2_t *r, const fp2_t *a, const fp2_t *b) {
    fp_add(&r->c0, &a->c0, &b->c0);
    fp_add(&r->c1, &a->c1, &b->c1);
}
void fp2_sub(fp2_t *r, const fp2_t *a, const fp2_t *b) {
    fp_sub(&r->c0, &a->c0, &b->c0);
    fp_sub(&r->c1, &a->c1, &b->c1);
}
void fp2_neg(fp2_t *r, const fp2_t *a) {
    fp_neg(&r->c0, &a->c0);
    fp_neg(&r->c1, &a->c1);
}
void fp2_dbl(fp2_t *r, const fp2_t *a) {
    fp_dbl(&r->c0, &a->c0);
    fp_dbl(&r->c1, &a->c1);
}
void fp2_conj(fp2_t *r, const fp2_t *a) {
    r->c0 = a->c0;
    fp_neg(&r->c1, &a->c1);
}

void fp2_mul(fp2_t *r, const fp2_t *a, const fp2_t *b) {
    /* (a0 + a1 u)(b0 + b1 u) = a0b0 - a1b1 + ((a0+a1)(b0+b1) - a0b0 - a1b1) u: 3M + 5A */
    fp_t t0, t1, s0, s1;
    fp_mul(&t0, &a->c0, &b->c0);
    fp_mul(&t1, &a->c1, &b->c1);
    fp_add(&s0, &a->c0, &a->c1);
    fp_add(&s1, &b->c0, &b->c1);
    fp_mul(&s0, &s0, &s1);
    fp_sub(&r->c0, &t0, &t1);
    fp_sub(&s0, &s0, &t0);
    fp_sub(&r->c1, &s0, &t1);
}

void fp2_sqr(fp2_t *r, const fp2_t *a) {
    /* (a0 + a1 u)^2 = (a0+a1)(a0-a1) + 2 a0 a1 u: 2M */
    fp_t s, d, m;
    fp_add(&s, &a->c0, &a->c1);
    fp_sub(&d, &a->c0, &a->c1);
    fp_mul(&m, &a->c0, &a->c1);
    fp_mul(&r->c0, &s, &d);
    fp_dbl(&r->c1, &m);
}

void fp2_mul_fp(fp2_t *r, const fp2_t *a, const fp_t *b) {
    fp_mul(&r->c0, &a->c0, b);
    fp_mul(&r->c1, &a->c1, b);
}

void fp2_mul_by_nonresidue(fp2_t *r, const fp2_t *a) {
    /* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u */
    fp_t t0;
    fp_sub(&t0, &a->c0, &a->c1);
    fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t0;
}

void fp2_inv_vartime(fp2_t *r, const fp2_t *a) {
    /* 1/(a0 + a1 u) = (a0 - a1 u)/(a0^2 + a1^2) */
    fp_t t0, t1;
    fp_sqr(&t0, &a->c0);
    fp_sqr(&t1, &a->c1);
    fp_add(&t0, &t0, &t1);
    fp_inv_vartime(&t0, &t0);
    fp_mul(&r->c0, &a->c0, &t0);
    fp_mul(&t1, &a->c1, &t0);
    fp_neg(&r->c1, &t1);
}

int fp2_is_zero(const fp2_t *a) { return fp_is_zero(&a->c0) && fp_is_zero(&a->c1); }
int fp2_eq(const fp2_t *a, const fp2_t *b) { return fp_eq(&a->c0, &b->c0) && fp_eq(&a->c1, &b->c1); }

void fp2_pow_vartime(fp2_t *r, const fp2_t *a, const uint64_t *e, size_t ne) {
    fp2_t acc = FP2_ONE, base = *a;
    for (size_t i = ne; i-- > 0;)
        for (int b = 63; b >= 0; b--) {
            fp2_sqr(&acc, &acc);
            if ((e[i] >> b) & 1) fp2_mul(&acc, &acc, &base);
        }
    *r = acc;
}

int fp2_sqrt_vartime(fp2_t *r, const fp2_t *a) {
    /* Norm method for p = 3 mod 4 (Adj, Rodríguez-Henríquez, "Square root computation over
     * even extension fields", ePrint 2012/685, Alg. 9 in complex form):
     * with n = a0^2 + a1^2 (must be a square in Fp), alpha = sqrt(n),
     * x0^2 = (a0 + alpha)/2 (or (a0 - alpha)/2), x1 = a1/(2 x0). */
    if (fp2_is_zero(a)) {
        *r = FP2_ZERO;
        return 1;
    }
    if (fp_is_zero(&a->c1)) {
        fp_t s;
        if (fp_sqrt(&s, &a->c0)) {
            r->c0 = s;
            r->c1 = FP_ZERO_ELEM;
            return 1;
        }
        fp_t na;
        fp_neg(&na, &a->c0);
        if (!fp_sqrt(&s, &na)) return 0;
        r->c0 = FP_ZERO_ELEM;
        r->c1 = s; /* (s u)^2 = -s^2 = a0 */
        return 1;
    }
    fp_t n, t, alpha, half, x0, x1;
    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    if (!fp_sqrt(&alpha, &n)) return 0;
    fp_from_u64(&half, 2);
    fp_inv_vartime(&half, &half);
    fp_add(&t, &a->c0, &alpha);
    fp_mul(&t, &t, &half);
    if (!fp_sqrt(&x0, &t)) {
        fp_sub(&t, &a->c0, &alpha);
        fp_mul(&t, &t, &half);
        if (!fp_sqrt(&x0, &t)) return 0;
    }
    fp_dbl(&t, &x0);
    fp_inv_vartime(&t, &t);
    fp_mul(&x1, &a->c1, &t);
    fp2_t cand = {x0, x1}, chk;
    fp2_sqr(&chk, &cand);
    if (!fp2_eq(&chk, a)) return 0;
    *r = cand;
    return 1;
}

int fp2_is_lexicographically_largest(const fp2_t *a) {
    if (!fp_is_zero(&a->c1)) return fp_is_lexicographically_largest(&a->c1);
    return fp_is_lexicographically_largest(&a->c0);
}
