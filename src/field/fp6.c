/*
 * fp6.c — Fp6 = Fp2[v]/(v^3 - (1+u)) arithmetic (see fp6.h for the contract).
 */
#include "fp6.h"

#include "tower_frobenius.h"

#define FP2_ONE_INIT                                                                               \
    {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL, \
       0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},                                             \
     {{0, 0, 0, 0, 0, 0}}}
#define FP2_ZERO_INIT {{{0, 0, 0, 0, 0, 0}}, {{0, 0, 0, 0, 0, 0}}}

const fp6_t FP6_ZERO = {FP2_ZERO_INIT, FP2_ZERO_INIT, FP2_ZERO_INIT};
const fp6_t FP6_ONE = {FP2_ONE_INIT, FP2_ZERO_INIT, FP2_ZERO_INIT};

void fp6_add(fp6_t *r, const fp6_t *a, const fp6_t *b) {
    fp2_add(&r->c0, &a->c0, &b->c0);
    fp2_add(&r->c1, &a->c1, &b->c1);
    fp2_add(&r->c2, &a->c2, &b->c2);
}
void fp6_sub(fp6_t *r, const fp6_t *a, const fp6_t *b) {
    fp2_sub(&r->c0, &a->c0, &b->c0);
    fp2_sub(&r->c1, &a->c1, &b->c1);
    fp2_sub(&r->c2, &a->c2, &b->c2);
}
void fp6_neg(fp6_t *r, const fp6_t *a) {
    fp2_neg(&r->c0, &a->c0);
    fp2_neg(&r->c1, &a->c1);
    fp2_neg(&r->c2, &a->c2);
}
void fp6_dbl(fp6_t *r, const fp6_t *a) {
    fp2_dbl(&r->c0, &a->c0);
    fp2_dbl(&r->c1, &a->c1);
    fp2_dbl(&r->c2, &a->c2);
}

void fp6_mul(fp6_t *r, const fp6_t *a, const fp6_t *b) {
    /* Karatsuba over three coefficients with v^3 = xi:
     *   c0 = t0 + xi((a1+a2)(b1+b2) - t1 - t2)
     *   c1 = (a0+a1)(b0+b1) - t0 - t1 + xi t2
     *   c2 = (a0+a2)(b0+b2) - t0 - t2 + t1,   t_i = a_i b_i.   6 M2 + 15 A2. */
    fp2_t t0, t1, t2, s, u, c0, c1, c2;
    fp2_mul(&t0, &a->c0, &b->c0);
    fp2_mul(&t1, &a->c1, &b->c1);
    fp2_mul(&t2, &a->c2, &b->c2);

    fp2_add(&s, &a->c1, &a->c2);
    fp2_add(&u, &b->c1, &b->c2);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t1);
    fp2_sub(&s, &s, &t2);
    fp2_mul_by_nonresidue(&s, &s);
    fp2_add(&c0, &s, &t0);

    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&u, &b->c0, &b->c1);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t0);
    fp2_sub(&s, &s, &t1);
    fp2_mul_by_nonresidue(&u, &t2);
    fp2_add(&c1, &s, &u);

    fp2_add(&s, &a->c0, &a->c2);
    fp2_add(&u, &b->c0, &b->c2);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t0);
    fp2_sub(&s, &s, &t2);
    fp2_add(&c2, &s, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

void fp6_sqr(fp6_t *r, const fp6_t *a) {
    /* CH-SQR2: s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2, s3 = 2 a1 a2, s4 = a2^2;
     * c0 = s0 + xi s3, c1 = s1 + xi s4, c2 = s1 + s2 + s3 - s0 - s4.  2 M2 + 3 S2. */
    fp2_t s0, s1, s2, s3, s4, t;
    fp2_sqr(&s0, &a->c0);
    fp2_mul(&s1, &a->c0, &a->c1);
    fp2_dbl(&s1, &s1);
    fp2_sub(&t, &a->c0, &a->c1);
    fp2_add(&t, &t, &a->c2);
    fp2_sqr(&s2, &t);
    fp2_mul(&s3, &a->c1, &a->c2);
    fp2_dbl(&s3, &s3);
    fp2_sqr(&s4, &a->c2);

    fp2_mul_by_nonresidue(&t, &s3);
    fp2_add(&r->c0, &s0, &t);
    fp2_add(&t, &s1, &s2);
    fp2_add(&t, &t, &s3);
    fp2_sub(&t, &t, &s0);
    fp2_sub(&r->c2, &t, &s4);
    fp2_mul_by_nonresidue(&t, &s4);
    fp2_add(&r->c1, &s1, &t);
}

void fp6_mul_by_nonresidue(fp6_t *r, const fp6_t *a) {
    fp2_t t;
    fp2_mul_by_nonresidue(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

void fp6_mul_fp2(fp6_t *r, const fp6_t *a, const fp2_t *b) {
    fp2_mul(&r->c0, &a->c0, b);
    fp2_mul(&r->c1, &a->c1, b);
    fp2_mul(&r->c2, &a->c2, b);
}

void fp6_mul_by_01(fp6_t *r, const fp6_t *a, const fp2_t *b0, const fp2_t *b1) {
    /* (a0 + a1 v + a2 v^2)(b0 + b1 v), Karatsuba with b2 = 0:
     *   c0 = a0 b0 + xi a2 b1 = t0 + xi((a1+a2) b1 - t1)
     *   c1 = a0 b1 + a1 b0    = (a0+a1)(b0+b1) - t0 - t1
     *   c2 = a2 b0 + a1 b1    = (a0+a2) b0 - t0 + t1.   5 M2. */
    fp2_t t0, t1, s, u, c0, c1, c2;
    fp2_mul(&t0, &a->c0, b0);
    fp2_mul(&t1, &a->c1, b1);

    fp2_add(&s, &a->c1, &a->c2);
    fp2_mul(&s, &s, b1);
    fp2_sub(&s, &s, &t1);
    fp2_mul_by_nonresidue(&s, &s);
    fp2_add(&c0, &s, &t0);

    fp2_add(&s, &a->c0, &a->c1);
    fp2_add(&u, b0, b1);
    fp2_mul(&s, &s, &u);
    fp2_sub(&s, &s, &t0);
    fp2_sub(&c1, &s, &t1);

    fp2_add(&s, &a->c0, &a->c2);
    fp2_mul(&s, &s, b0);
    fp2_sub(&s, &s, &t0);
    fp2_add(&c2, &s, &t1);

    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

void fp6_mul_by_1(fp6_t *r, const fp6_t *a, const fp2_t *b1) {
    /* (a0 + a1 v + a2 v^2) b1 v = xi a2 b1 + a0 b1 v + a1 b1 v^2.  3 M2. */
    fp2_t c0, c1, c2;
    fp2_mul(&c0, &a->c2, b1);
    fp2_mul_by_nonresidue(&c0, &c0);
    fp2_mul(&c1, &a->c0, b1);
    fp2_mul(&c2, &a->c1, b1);
    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

void fp6_inv_vartime(fp6_t *r, const fp6_t *a) {
    /* The adjugate of multiplication by a: A = a0^2 - xi a1 a2, B = xi a2^2 - a0 a1,
     * C = a1^2 - a0 a2; a*(A + B v + C v^2) = a0 A + xi(a2 B + a1 C) in Fp2, inverted there. */
    fp2_t A, B, C, t, n;
    fp2_sqr(&A, &a->c0);
    fp2_mul(&t, &a->c1, &a->c2);
    fp2_mul_by_nonresidue(&t, &t);
    fp2_sub(&A, &A, &t);

    fp2_sqr(&B, &a->c2);
    fp2_mul_by_nonresidue(&B, &B);
    fp2_mul(&t, &a->c0, &a->c1);
    fp2_sub(&B, &B, &t);

    fp2_sqr(&C, &a->c1);
    fp2_mul(&t, &a->c0, &a->c2);
    fp2_sub(&C, &C, &t);

    fp2_mul(&n, &a->c2, &B);
    fp2_mul(&t, &a->c1, &C);
    fp2_add(&n, &n, &t);
    fp2_mul_by_nonresidue(&n, &n);
    fp2_mul(&t, &a->c0, &A);
    fp2_add(&n, &n, &t);
    fp2_inv_vartime(&n, &n);

    fp2_mul(&r->c0, &A, &n);
    fp2_mul(&r->c1, &B, &n);
    fp2_mul(&r->c2, &C, &n);
}

void fp6_frobenius(fp6_t *r, const fp6_t *a, unsigned k) {
    /* v^(p^k) = v * xi^((p^k - 1)/3) = v * gamma_k^2 where gamma_k = xi^((p^k - 1)/6), and
     * Fp2 coefficients are conjugated k times. */
    k %= 6;
    const fp2_t *g = tower_frobenius_gamma(k); /* g[j] = gamma_k^j, j = 0..5 */
    fp2_t c0 = a->c0, c1 = a->c1, c2 = a->c2;
    if (k & 1) {
        fp2_conj(&c0, &c0);
        fp2_conj(&c1, &c1);
        fp2_conj(&c2, &c2);
    }
    r->c0 = c0;
    fp2_mul(&r->c1, &c1, &g[2]);
    fp2_mul(&r->c2, &c2, &g[4]);
}

int fp6_is_zero(const fp6_t *a) { return fp2_is_zero(&a->c0) && fp2_is_zero(&a->c1) && fp2_is_zero(&a->c2); }
int fp6_is_one(const fp6_t *a) { return fp6_eq(a, &FP6_ONE); }
int fp6_eq(const fp6_t *a, const fp6_t *b) {
    return fp2_eq(&a->c0, &b->c0) && fp2_eq(&a->c1, &b->c1) && fp2_eq(&a->c2, &b->c2);
}
