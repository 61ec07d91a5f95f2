/*
 * pairing.c — optimal ate Miller loop and final exponentiation for BLS12-381 (see pairing.h).
 */
#include "pairing.h"

/* one line in sparse form l0 + l1 v + l4 v w */
typedef struct { fp2_t l0, l1, l4; } line_t;
/* a twist point in homogeneous projective coordinates (x = X/Z, y = Y/Z), loop-internal */
typedef struct { fp2_t X, Y, Z; } g2_proj_t;

static int g1_inf(const g1_affine_t *p) { return fp_is_zero(&p->x) && fp_is_zero(&p->y); }
static int g2_inf(const g2_affine_t *q) { return fp2_is_zero(&q->x) && fp2_is_zero(&q->y); }

/* 12 a: 8a + 4a by doublings. */
static void fp2_mul_by_12(fp2_t *r, const fp2_t *a) {
    fp2_t t4, t8;
    fp2_dbl(&t4, a);
    fp2_dbl(&t4, &t4);
    fp2_dbl(&t8, &t4);
    fp2_add(r, &t8, &t4);
}

/*
 * T <- 2T on y^2 = x^3 + b', b' = 4(1+u), homogeneous (X:Y:Z) (x = X/Z, y = Y/Z), and the
 * tangent line at T evaluated at P = (xp, yp), multiplied by w^3 and by 2YZ:
 *   l = (3b'Z^2 - Y^2) + 3X^2 xp v - 2YZ yp v w.
 * Point (CLN ePrint 2009/615 §4, every coordinate scaled by 4 to avoid halvings):
 *   B = Y^2, C = Z^2, E = 3b'C, F = 3E, H = 2YZ,
 *   X3 = 2XY(B - F), Y3 = (B + F)^2 - 12E^2, Z3 = 4BH.
 * Cost: 3 M2 + 5 S2 for the point, 4 Fp-by-Fp2 products for the line.
 */
static void dbl_step(g2_proj_t *T, line_t *l, const fp_t *xp, const fp_t *yp) {
    fp2_t B, C, E, F, H, t, XX;
    fp2_sqr(&B, &T->Y);
    fp2_sqr(&C, &T->Z);
    fp2_mul_by_nonresidue(&E, &C);
    fp2_mul_by_12(&E, &E); /* 3 b' = 12 (1+u) */
    fp2_dbl(&F, &E);
    fp2_add(&F, &F, &E);
    fp2_add(&H, &T->Y, &T->Z);
    fp2_sqr(&H, &H);
    fp2_sub(&H, &H, &B);
    fp2_sub(&H, &H, &C);
    fp2_sqr(&XX, &T->X);

    /* line */
    fp2_sub(&l->l0, &E, &B);
    fp2_dbl(&t, &XX);
    fp2_add(&t, &t, &XX);
    fp2_mul_fp(&l->l1, &t, xp);
    fp2_mul_fp(&t, &H, yp);
    fp2_neg(&l->l4, &t);

    /* point */
    fp2_t X3, Y3, Z3;
    fp2_mul(&X3, &T->X, &T->Y);
    fp2_dbl(&X3, &X3);
    fp2_sub(&t, &B, &F);
    fp2_mul(&X3, &X3, &t);
    fp2_add(&Y3, &B, &F);
    fp2_sqr(&Y3, &Y3);
    fp2_sqr(&t, &E);
    fp2_mul_by_12(&t, &t);
    fp2_sub(&Y3, &Y3, &t);
    fp2_mul(&Z3, &B, &H);
    fp2_dbl(&Z3, &Z3);
    fp2_dbl(&Z3, &Z3);
    T->X = X3;
    T->Y = Y3;
    T->Z = Z3;
}

/*
 * T <- T + Q (Q affine (x2, y2)), homogeneous, and the chord through T and Q evaluated at P,
 * multiplied by w^3 and by (X - x2 Z):
 *   theta = Y - y2 Z, lam = X - x2 Z,
 *   l = (theta x2 - lam y2) - theta xp v + lam yp v w.
 * Point (CLN ePrint 2009/615 §5): C = theta^2, D = lam^2, E = lam D, F = Z C, G = X D,
 *   H = E + F - 2G, X3 = lam H, Y3 = theta (G - H) - Y E, Z3 = Z E.
 * Cost: 11 M2 + 2 S2 (point and line). Requires T != ±Q, T != O (true inside the loop for
 * Q of order r, since every multiple reached is k Q with 1 < k < |x| < r).
 */
static void add_step(g2_proj_t *T, line_t *l, const g2_affine_t *Q, const fp_t *xp, const fp_t *yp) {
    fp2_t theta, lam, C, D, E, F, G, H, t;
    fp2_mul(&theta, &Q->y, &T->Z);
    fp2_sub(&theta, &T->Y, &theta);
    fp2_mul(&lam, &Q->x, &T->Z);
    fp2_sub(&lam, &T->X, &lam);

    /* line */
    fp2_mul(&l->l0, &theta, &Q->x);
    fp2_mul(&t, &lam, &Q->y);
    fp2_sub(&l->l0, &l->l0, &t);
    fp2_mul_fp(&t, &theta, xp);
    fp2_neg(&l->l1, &t);
    fp2_mul_fp(&l->l4, &lam, yp);

    /* point */
    fp2_sqr(&C, &theta);
    fp2_sqr(&D, &lam);
    fp2_mul(&E, &lam, &D);
    fp2_mul(&F, &T->Z, &C);
    fp2_mul(&G, &T->X, &D);
    fp2_add(&H, &E, &F);
    fp2_sub(&H, &H, &G);
    fp2_sub(&H, &H, &G);
    fp2_t X3, Y3, Z3;
    fp2_mul(&X3, &lam, &H);
    fp2_sub(&t, &G, &H);
    fp2_mul(&Y3, &theta, &t);
    fp2_mul(&t, &T->Y, &E);
    fp2_sub(&Y3, &Y3, &t);
    fp2_mul(&Z3, &T->Z, &E);
    T->X = X3;
    T->Y = Y3;
    T->Z = Z3;
}

/* Miller loop over at most PAIRING_CHUNK pairs; f = 1 when none is finite. */
static void miller_chunk(fp12_t *f, const g1_affine_t *ps, const g2_affine_t *qs, size_t n) {
    g2_proj_t T[PAIRING_CHUNK];
    const g1_affine_t *P[PAIRING_CHUNK];
    const g2_affine_t *Q[PAIRING_CHUNK];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (g1_inf(&ps[i]) || g2_inf(&qs[i])) continue;
        P[m] = &ps[i];
        Q[m] = &qs[i];
        T[m].X = qs[i].x;
        T[m].Y = qs[i].y;
        T[m].Z = FP2_ONE;
        m++;
    }
    fp12_t acc = FP12_ONE;
    if (m == 0) {
        *f = acc;
        return;
    }
    int first = 1;
    line_t l;
    for (int b = 62; b >= 0; b--) {
        if (!first) fp12_sqr(&acc, &acc); /* 1^2 = 1: skip the first squaring */
        first = 0;
        for (size_t i = 0; i < m; i++) {
            dbl_step(&T[i], &l, &P[i]->x, &P[i]->y);
            fp12_mul_by_014(&acc, &acc, &l.l0, &l.l1, &l.l4);
        }
        if ((PAIRING_BLS_X_ABS >> b) & 1) {
            for (size_t i = 0; i < m; i++) {
                add_step(&T[i], &l, Q[i], &P[i]->x, &P[i]->y);
                fp12_mul_by_014(&acc, &acc, &l.l0, &l.l1, &l.l4);
            }
        }
    }
    fp12_conj(f, &acc); /* x < 0 */
}

void pairing_miller_loop(fp12_t *f, const g1_affine_t *ps, const g2_affine_t *qs, size_t n) {
    fp12_t acc = FP12_ONE, c;
    for (size_t off = 0; off < n; off += PAIRING_CHUNK) {
        size_t len = n - off < PAIRING_CHUNK ? n - off : PAIRING_CHUNK;
        miller_chunk(&c, ps + off, qs + off, len);
        if (off == 0)
            acc = c;
        else
            fp12_mul(&acc, &acc, &c);
    }
    *f = acc;
}

/* r = a^x = conj(a^|x|) for a in the cyclotomic subgroup: 63 Karabina compressed squarings,
 * 6 decompressions sharing one Fp2 inversion, 5 Fp12 mul (fp12_cyclotomic_exp_vartime). */
static void cyclotomic_exp_x(fp12_t *r, const fp12_t *a) {
    fp12_t t;
    fp12_cyclotomic_exp_vartime(&t, a, PAIRING_BLS_X_ABS);
    fp12_conj(r, &t);
}

void pairing_final_exp(fp12_t *r, const fp12_t *f) {
    if (fp12_is_zero(f)) {
        *r = FP12_ZERO;
        return;
    }
    /* easy part: m = f^((p^6 - 1)(p^2 + 1)); m is then in the cyclotomic subgroup */
    fp12_t m, t, a, b, c, d;
    fp12_inv_vartime(&t, f);
    fp12_conj(&m, f);
    fp12_mul(&m, &m, &t);
    fp12_frobenius(&t, &m, 2);
    fp12_mul(&m, &m, &t);

    /* hard part (HHT ePrint 2020/875): m^((x-1)^2 (x+p)(x^2+p^2-1) + 3); inverses are conj */
    cyclotomic_exp_x(&a, &m); /* a = m^(x-1) */
    fp12_conj(&t, &m);
    fp12_mul(&a, &a, &t);
    cyclotomic_exp_x(&b, &a); /* b = a^(x-1) */
    fp12_conj(&t, &a);
    fp12_mul(&b, &b, &t);
    cyclotomic_exp_x(&c, &b); /* c = b^(x+p) */
    fp12_frobenius(&t, &b, 1);
    fp12_mul(&c, &c, &t);
    cyclotomic_exp_x(&d, &c); /* d = c^(x^2+p^2-1) */
    cyclotomic_exp_x(&d, &d);
    fp12_frobenius(&t, &c, 2);
    fp12_mul(&d, &d, &t);
    fp12_conj(&t, &c);
    fp12_mul(&d, &d, &t);
    fp12_cyclotomic_sqr(&t, &m); /* m^3 */
    fp12_mul(&t, &t, &m);
    fp12_mul(r, &d, &t);
}

void pairing(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q) { pairing_multi(r, p, q, 1); }

void pairing_multi(fp12_t *r, const g1_affine_t *ps, const g2_affine_t *qs, size_t n) {
    fp12_t f;
    pairing_miller_loop(&f, ps, qs, n);
    pairing_final_exp(r, &f);
}

int pairing_check(const g1_affine_t *ps, const g2_affine_t *qs, size_t n) {
    fp12_t r;
    pairing_multi(&r, ps, qs, n);
    return fp12_is_one(&r);
}
