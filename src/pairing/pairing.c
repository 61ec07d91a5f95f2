/*
 * pairing.c — optimal ate Miller loop and final exponentiation for BLS12-381 (see pairing.h).
 */
#include "pairing.h"

/* one line in sparse form l0 + l1 v + l4 v w, unevaluated (see pairing.h) */
typedef pairing_line_t line_t;
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
 * tangent line at T, multiplied by w^3 and by 2YZ, evaluated at P = (xp, yp) as
 *   l = (3b'Z^2 - Y^2) + 3X^2 xp v - 2YZ yp v w.
 * The line is returned unevaluated, (l0, l1, l4) = (3b'Z^2 - Y^2, 3X^2, -2YZ); line_eval
 * multiplies l1 by xp and l4 by yp (so G2-only work can be precomputed, pairing_g2_prepare).
 * Point (CLN ePrint 2009/615 §4, every coordinate scaled by 4 to avoid halvings):
 *   B = Y^2, C = Z^2, E = 3b'C, F = 3E, H = 2YZ,
 *   X3 = 2XY(B - F), Y3 = (B + F)^2 - 12E^2, Z3 = 4BH.
 * Cost: 3 M2 + 5 S2 for the point and line; 4 Fp mul to evaluate the line.
 */
static void dbl_step(g2_proj_t *T, line_t *l) {
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
    fp2_add(&l->l1, &t, &XX);
    fp2_neg(&l->l4, &H);

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
 * T <- T + Q (Q affine (x2, y2)), homogeneous, and the chord through T and Q, multiplied by
 * w^3 and by (X - x2 Z), evaluated at P as
 *   theta = Y - y2 Z, lam = X - x2 Z,
 *   l = (theta x2 - lam y2) - theta xp v + lam yp v w,
 * returned unevaluated as (l0, l1, l4) = (theta x2 - lam y2, -theta, lam).
 * Point (CLN ePrint 2009/615 §5): C = theta^2, D = lam^2, E = lam D, F = Z C, G = X D,
 *   H = E + F - 2G, X3 = lam H, Y3 = theta (G - H) - Y E, Z3 = Z E.
 * Cost: 11 M2 + 2 S2 (point and line). Requires T != ±Q, T != O (true inside the loop for
 * Q of order r, since every multiple reached is k Q with 1 < k < |x| < r).
 */
static void add_step(g2_proj_t *T, line_t *l, const g2_affine_t *Q) {
    fp2_t theta, lam, C, D, E, F, G, H, t;
    fp2_mul(&theta, &Q->y, &T->Z);
    fp2_sub(&theta, &T->Y, &theta);
    fp2_mul(&lam, &Q->x, &T->Z);
    fp2_sub(&lam, &T->X, &lam);

    /* line */
    fp2_mul(&l->l0, &theta, &Q->x);
    fp2_mul(&t, &lam, &Q->y);
    fp2_sub(&l->l0, &l->l0, &t);
    fp2_neg(&l->l1, &theta);
    l->l4 = lam;

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

/* acc *= l evaluated at P: l0 + (l1 xp) v + (l4 yp) v w.  4 Fp mul + 13 M2. */
static void line_mul(fp12_t *acc, const line_t *l, const fp_t *xp, const fp_t *yp) {
    fp2_t l1, l4;
    fp2_mul_fp(&l1, &l->l1, xp);
    fp2_mul_fp(&l4, &l->l4, yp);
    fp12_mul_by_014(acc, acc, &l->l0, &l1, &l4);
}

/* Miller loop over at most PAIRING_CHUNK plain pairs (ps, qs, n) and at most PAIRING_CHUNK
 * prepared pairs (pps, pqs, m), one accumulator; f = 1 when no pair is finite. */
static void miller_chunk(fp12_t *f, const g1_affine_t *ps, const g2_affine_t *qs, size_t n,
                         const g1_affine_t *pps, const pairing_g2_prepared_t *pqs, size_t m) {
    g2_proj_t T[PAIRING_CHUNK];
    const g1_affine_t *P[PAIRING_CHUNK], *PP[PAIRING_CHUNK];
    const g2_affine_t *Q[PAIRING_CHUNK];
    const pairing_g2_prepared_t *PQ[PAIRING_CHUNK];
    size_t k = 0, kp = 0;
    for (size_t i = 0; i < n; i++) {
        if (g1_inf(&ps[i]) || g2_inf(&qs[i])) continue;
        P[k] = &ps[i];
        Q[k] = &qs[i];
        T[k].X = qs[i].x;
        T[k].Y = qs[i].y;
        T[k].Z = FP2_ONE;
        k++;
    }
    for (size_t i = 0; i < m; i++) {
        if (g1_inf(&pps[i]) || pqs[i].infinity) continue;
        PP[kp] = &pps[i];
        PQ[kp] = &pqs[i];
        kp++;
    }
    fp12_t acc = FP12_ONE;
    if (k == 0 && kp == 0) {
        *f = acc;
        return;
    }
    line_t l;
    size_t li = 0; /* index into the prepared line tables */
    for (int b = 62; b >= 0; b--) {
        if (b != 62) fp12_sqr(&acc, &acc); /* 1^2 = 1: skip the first squaring */
        for (size_t i = 0; i < k; i++) {
            dbl_step(&T[i], &l);
            line_mul(&acc, &l, &P[i]->x, &P[i]->y);
        }
        for (size_t i = 0; i < kp; i++) line_mul(&acc, &PQ[i]->lines[li], &PP[i]->x, &PP[i]->y);
        li++;
        if ((PAIRING_BLS_X_ABS >> b) & 1) {
            for (size_t i = 0; i < k; i++) {
                add_step(&T[i], &l, Q[i]);
                line_mul(&acc, &l, &P[i]->x, &P[i]->y);
            }
            for (size_t i = 0; i < kp; i++) line_mul(&acc, &PQ[i]->lines[li], &PP[i]->x, &PP[i]->y);
            li++;
        }
    }
    fp12_conj(f, &acc); /* x < 0 */
}

_Static_assert(63 + __builtin_popcountll(PAIRING_BLS_X_ABS) - 1 == PAIRING_NUM_LINES,
               "one line per doubling (bits 62..0) and per set bit below the top one");

void pairing_g2_prepare(pairing_g2_prepared_t *out, const g2_affine_t *q) {
    out->infinity = g2_inf(q);
    if (out->infinity) return;
    g2_proj_t T = {q->x, q->y, FP2_ONE};
    size_t li = 0;
    for (int b = 62; b >= 0; b--) {
        dbl_step(&T, &out->lines[li++]);
        if ((PAIRING_BLS_X_ABS >> b) & 1) add_step(&T, &out->lines[li++], q);
    }
}

void pairing_miller_loop_mixed(fp12_t *f, const g1_affine_t *ps, const g2_affine_t *qs, size_t n,
                               const g1_affine_t *pps, const pairing_g2_prepared_t *pqs, size_t m) {
    fp12_t acc = FP12_ONE, c;
    size_t off = 0, offp = 0;
    int first = 1;
    while (first || off < n || offp < m) {
        size_t len = n - off < PAIRING_CHUNK ? n - off : PAIRING_CHUNK;
        size_t lenp = m - offp < PAIRING_CHUNK ? m - offp : PAIRING_CHUNK;
        /* no pointer arithmetic on a NULL array (n or m = 0): UB in C, flagged by clang UBSan */
        miller_chunk(&c, len ? ps + off : ps, len ? qs + off : qs, len, lenp ? pps + offp : pps,
                     lenp ? pqs + offp : pqs, lenp);
        if (first)
            acc = c;
        else
            fp12_mul(&acc, &acc, &c);
        first = 0;
        off += len;
        offp += lenp;
    }
    *f = acc;
}

void pairing_miller_loop(fp12_t *f, const g1_affine_t *ps, const g2_affine_t *qs, size_t n) {
    pairing_miller_loop_mixed(f, ps, qs, n, NULL, NULL, 0);
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
