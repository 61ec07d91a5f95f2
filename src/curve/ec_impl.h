/*
 * ec_impl.h — one source for the short-Weierstrass (a = 0) group law over Fp (G1) and Fp2 (G2).
 *
 * Internal: included only by g1.c and g2.c, which define before including it
 *   FE          the field element type (fp_t, fp2_t)
 *   F(op)       the field operation name (fp_##op, fp2_##op)
 *   PT(name)    the public point-operation name (g1_##name, g2_##name)
 *   AFF, JAC, XYZZ   the point types of curve/g1.h, curve/g2.h
 *   FE_ONE_V, FE_ZERO_V   the field constants 1 and 0 (Montgomery form)
 *   CURVE_B_V   the constant b of y^2 = x^3 + b (Montgomery form)
 * This is the one template STYLE.md allows (stamping G1/G2 from one source); its bodies are
 * plain functions, not multi-line macros, so they can be stepped through in a debugger.
 *
 * Formulas are from the Explicit-Formulas Database (EFD, hyperelliptic.org/EFD/g1p/
 * auto-shortw-jacobian-0.html and auto-shortw-xyzz.html), named at each body with their cost
 * in field multiplications (M) and squarings (S); additions are not counted. Every addition
 * handles the exceptional inputs (infinity, P == Q, P == -Q) by branching, so all of this is
 * variable time in the point values (never in secret-dependent ways beyond that).
 * Outputs may alias inputs: each body reads its inputs into locals before writing r.
 */
#ifndef PROOFMILL_CURVE_EC_IMPL_H
#define PROOFMILL_CURVE_EC_IMPL_H
#include <string.h>
#endif

/* ------------------------------------------------------------------ affine */

int PT(affine_is_infinity)(const AFF *p) { return F(is_zero)(&p->x) && F(is_zero)(&p->y); }

/* y^2 == x^3 + b: 1M + 2S. Infinity (0, 0) counts as on the curve. */
int PT(affine_is_on_curve)(const AFF *p) {
    if (PT(affine_is_infinity)(p)) return 1;
    FE lhs, rhs;
    const FE b = CURVE_B_V;
    F(sqr)(&lhs, &p->y);
    F(sqr)(&rhs, &p->x);
    F(mul)(&rhs, &rhs, &p->x);
    F(add)(&rhs, &rhs, &b);
    return F(eq)(&lhs, &rhs);
}

int PT(affine_eq)(const AFF *a, const AFF *b) { return F(eq)(&a->x, &b->x) && F(eq)(&a->y, &b->y); }

void PT(affine_neg)(AFF *r, const AFF *p) {
    r->x = p->x;
    F(neg)(&r->y, &p->y); /* -0 = 0 keeps infinity as (0, 0) */
}

/* ------------------------------------------------------------------ Jacobian */

void PT(jac_set_infinity)(JAC *r) {
    r->X = FE_ONE_V;
    r->Y = FE_ONE_V;
    r->Z = FE_ZERO_V;
}

int PT(jac_is_infinity)(const JAC *p) { return F(is_zero)(&p->Z); }

void PT(jac_from_affine)(JAC *r, const AFF *p) {
    if (PT(affine_is_infinity)(p)) {
        PT(jac_set_infinity)(r);
        return;
    }
    r->X = p->x;
    r->Y = p->y;
    r->Z = FE_ONE_V;
}

/* x = X/Z^2, y = Y/Z^3: 1 inversion + 3M + 1S. */
void PT(jac_to_affine)(AFF *r, const JAC *p) {
    if (PT(jac_is_infinity)(p)) {
        r->x = FE_ZERO_V;
        r->y = FE_ZERO_V;
        return;
    }
    FE zi, zi2, zi3;
    F(inv_vartime)(&zi, &p->Z);
    F(sqr)(&zi2, &zi);
    F(mul)(&zi3, &zi2, &zi);
    F(mul)(&r->x, &p->X, &zi2);
    F(mul)(&r->y, &p->Y, &zi3);
}

/* Montgomery's trick: 3(n-1)M + 1 inversion for the Z's, then 3M + 1S per point. The prefix
 * products are kept in out[i].x (no scratch needed); infinities are skipped. */
void PT(jacs_to_affine)(AFF *out, const JAC *in, size_t n) {
    FE acc = FE_ONE_V;
    size_t live = 0;
    for (size_t i = 0; i < n; i++) {
        if (PT(jac_is_infinity)(&in[i])) continue;
        out[i].x = acc;
        F(mul)(&acc, &acc, &in[i].Z);
        live++;
    }
    if (live == 0) {
        for (size_t i = 0; i < n; i++) out[i].x = out[i].y = FE_ZERO_V;
        return;
    }
    FE inv;
    F(inv_vartime)(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (PT(jac_is_infinity)(&in[i])) {
            out[i].x = out[i].y = FE_ZERO_V;
            continue;
        }
        FE zi, zi2, zi3;
        F(mul)(&zi, &inv, &out[i].x);     /* 1/Z_i = (prod_{j<i} Z_j) / (prod_{j<=i} Z_j) */
        F(mul)(&inv, &inv, &in[i].Z);     /* drop Z_i from the running inverse */
        F(sqr)(&zi2, &zi);
        F(mul)(&zi3, &zi2, &zi);
        F(mul)(&out[i].x, &in[i].X, &zi2);
        F(mul)(&out[i].y, &in[i].Y, &zi3);
    }
}

/* X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3: 6M + 2S. */
int PT(jac_eq)(const JAC *a, const JAC *b) {
    int ia = PT(jac_is_infinity)(a), ib = PT(jac_is_infinity)(b);
    if (ia || ib) return ia && ib;
    FE z1z1, z2z2, u1, u2, s1, s2;
    F(sqr)(&z1z1, &a->Z);
    F(sqr)(&z2z2, &b->Z);
    F(mul)(&u1, &a->X, &z2z2);
    F(mul)(&u2, &b->X, &z1z1);
    if (!F(eq)(&u1, &u2)) return 0;
    F(mul)(&s1, &a->Y, &z2z2);
    F(mul)(&s1, &s1, &b->Z);
    F(mul)(&s2, &b->Y, &z1z1);
    F(mul)(&s2, &s2, &a->Z);
    return F(eq)(&s1, &s2);
}

void PT(jac_neg)(JAC *r, const JAC *p) {
    r->X = p->X;
    F(neg)(&r->Y, &p->Y);
    r->Z = p->Z;
}

/* EFD "dbl-2009-l" (a = 0): 2M + 5S. Infinity doubles to infinity. A point with Y = 0 would be
 * 2-torsion, which neither E(Fp) nor E'(Fp2) has (both cofactors are odd); the formula would give
 * Z3 = 2 Y1 Z1 = 0, i.e. O, for it anyway. */
void PT(jac_dbl)(JAC *r, const JAC *p) {
    if (PT(jac_is_infinity)(p)) {
        PT(jac_set_infinity)(r);
        return;
    }
    FE A, B, C, D, E, Fq, t, X3, Y3, Z3;
    F(sqr)(&A, &p->X);           /* A = X1^2 */
    F(sqr)(&B, &p->Y);           /* B = Y1^2 */
    F(sqr)(&C, &B);              /* C = B^2 */
    F(add)(&t, &p->X, &B);
    F(sqr)(&t, &t);
    F(sub)(&t, &t, &A);
    F(sub)(&t, &t, &C);
    F(dbl)(&D, &t);              /* D = 2((X1+B)^2 - A - C) */
    F(dbl)(&E, &A);
    F(add)(&E, &E, &A);          /* E = 3A */
    F(sqr)(&Fq, &E);             /* F = E^2 */
    F(dbl)(&t, &D);
    F(sub)(&X3, &Fq, &t);        /* X3 = F - 2D */
    F(mul)(&Z3, &p->Y, &p->Z);
    F(dbl)(&Z3, &Z3);            /* Z3 = 2 Y1 Z1 */
    F(sub)(&t, &D, &X3);
    F(mul)(&Y3, &E, &t);
    F(dbl)(&C, &C);
    F(dbl)(&C, &C);
    F(dbl)(&C, &C);              /* 8C */
    F(sub)(&Y3, &Y3, &C);        /* Y3 = E(D - X3) - 8C */
    r->X = X3;
    r->Y = Y3;
    r->Z = Z3;
}

/* EFD "add-2007-bl": 11M + 5S. Complete by branching: O + Q = Q, P + O = P, H = 0 and r = 0
 * (P == Q) doubles, H = 0 and r != 0 (P == -Q) gives O. */
void PT(jac_add)(JAC *r, const JAC *a, const JAC *b) {
    if (PT(jac_is_infinity)(a)) {
        *r = *b;
        return;
    }
    if (PT(jac_is_infinity)(b)) {
        *r = *a;
        return;
    }
    FE z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t, X3, Y3, Z3;
    F(sqr)(&z1z1, &a->Z);            /* Z1Z1 = Z1^2 */
    F(sqr)(&z2z2, &b->Z);            /* Z2Z2 = Z2^2 */
    F(mul)(&u1, &a->X, &z2z2);       /* U1 = X1 Z2Z2 */
    F(mul)(&u2, &b->X, &z1z1);       /* U2 = X2 Z1Z1 */
    F(mul)(&s1, &a->Y, &b->Z);
    F(mul)(&s1, &s1, &z2z2);         /* S1 = Y1 Z2 Z2Z2 */
    F(mul)(&s2, &b->Y, &a->Z);
    F(mul)(&s2, &s2, &z1z1);         /* S2 = Y2 Z1 Z1Z1 */
    F(sub)(&h, &u2, &u1);            /* H = U2 - U1 */
    F(sub)(&rr, &s2, &s1);
    if (F(is_zero)(&h)) {
        if (F(is_zero)(&rr)) {
            PT(jac_dbl)(r, a);
        } else {
            PT(jac_set_infinity)(r);
        }
        return;
    }
    F(dbl)(&rr, &rr);                /* r = 2(S2 - S1) */
    F(dbl)(&i, &h);
    F(sqr)(&i, &i);                  /* I = (2H)^2 */
    F(mul)(&j, &h, &i);              /* J = H I */
    F(mul)(&v, &u1, &i);             /* V = U1 I */
    F(sqr)(&X3, &rr);
    F(sub)(&X3, &X3, &j);
    F(dbl)(&t, &v);
    F(sub)(&X3, &X3, &t);            /* X3 = r^2 - J - 2V */
    F(sub)(&t, &v, &X3);
    F(mul)(&Y3, &rr, &t);
    F(mul)(&t, &s1, &j);
    F(dbl)(&t, &t);
    F(sub)(&Y3, &Y3, &t);            /* Y3 = r(V - X3) - 2 S1 J */
    F(add)(&Z3, &a->Z, &b->Z);
    F(sqr)(&Z3, &Z3);
    F(sub)(&Z3, &Z3, &z1z1);
    F(sub)(&Z3, &Z3, &z2z2);
    F(mul)(&Z3, &Z3, &h);            /* Z3 = ((Z1+Z2)^2 - Z1Z1 - Z2Z2) H */
    r->X = X3;
    r->Y = Y3;
    r->Z = Z3;
}

/* EFD "madd-2007-bl" (Z2 = 1): 7M + 4S. Complete by branching as jac_add. */
void PT(jac_add_affine)(JAC *r, const JAC *a, const AFF *b) {
    if (PT(affine_is_infinity)(b)) {
        *r = *a;
        return;
    }
    if (PT(jac_is_infinity)(a)) {
        PT(jac_from_affine)(r, b);
        return;
    }
    FE z1z1, u2, s2, h, hh, i, j, rr, v, t, X3, Y3, Z3;
    F(sqr)(&z1z1, &a->Z);            /* Z1Z1 = Z1^2 */
    F(mul)(&u2, &b->x, &z1z1);       /* U2 = X2 Z1Z1 */
    F(mul)(&s2, &b->y, &a->Z);
    F(mul)(&s2, &s2, &z1z1);         /* S2 = Y2 Z1 Z1Z1 */
    F(sub)(&h, &u2, &a->X);          /* H = U2 - X1 */
    F(sub)(&rr, &s2, &a->Y);
    if (F(is_zero)(&h)) {
        if (F(is_zero)(&rr)) {
            PT(jac_dbl)(r, a);
        } else {
            PT(jac_set_infinity)(r);
        }
        return;
    }
    F(dbl)(&rr, &rr);                /* r = 2(S2 - Y1) */
    F(sqr)(&hh, &h);                 /* HH = H^2 */
    F(dbl)(&i, &hh);
    F(dbl)(&i, &i);                  /* I = 4 HH */
    F(mul)(&j, &h, &i);              /* J = H I */
    F(mul)(&v, &a->X, &i);           /* V = X1 I */
    F(sqr)(&X3, &rr);
    F(sub)(&X3, &X3, &j);
    F(dbl)(&t, &v);
    F(sub)(&X3, &X3, &t);            /* X3 = r^2 - J - 2V */
    F(sub)(&t, &v, &X3);
    F(mul)(&Y3, &rr, &t);
    F(mul)(&t, &a->Y, &j);
    F(dbl)(&t, &t);
    F(sub)(&Y3, &Y3, &t);            /* Y3 = r(V - X3) - 2 Y1 J */
    F(add)(&Z3, &a->Z, &h);
    F(sqr)(&Z3, &Z3);
    F(sub)(&Z3, &Z3, &z1z1);
    F(sub)(&Z3, &Z3, &hh);           /* Z3 = (Z1 + H)^2 - Z1Z1 - HH */
    r->X = X3;
    r->Y = Y3;
    r->Z = Z3;
}

void PT(jac_sub)(JAC *r, const JAC *a, const JAC *b) {
    JAC nb;
    PT(jac_neg)(&nb, b);
    PT(jac_add)(r, a, &nb);
}

void PT(jac_sub_affine)(JAC *r, const JAC *a, const AFF *b) {
    AFF nb;
    PT(affine_neg)(&nb, b);
    PT(jac_add_affine)(r, a, &nb);
}

/* Plain binary double-and-add from the top bit: the fallback for very long scalars. */
static void PT(mul_binary_vartime)(JAC *r, const JAC *p, const uint64_t *k, size_t nk) {
    JAC acc, base = *p;
    PT(jac_set_infinity)(&acc);
    for (size_t i = nk; i-- > 0;) {
        for (int bit = 63; bit >= 0; bit--) {
            PT(jac_dbl)(&acc, &acc);
            if ((k[i] >> bit) & 1) PT(jac_add)(&acc, &acc, &base);
        }
    }
    *r = acc;
}

#define EC_WNAF_W 5                              /* window width: digits odd, |d| < 2^(w-1) */
#define EC_WNAF_TABLE (1 << (EC_WNAF_W - 2))     /* P, 3P, ..., 15P */
#define EC_WNAF_MAX_LIMBS 8                      /* scalars up to 512 bits use wNAF */

/* Width-5 NAF (Solinas / Hankerson-Menezes-Vanstone, "Guide to ECC" Alg. 3.35/3.36): at most one
 * nonzero digit in any 5 consecutive; on average len/6 additions (11M + 5S each, Jacobian table:
 * normalising 8 entries to affine would cost an inversion, more than it saves for one scalar)
 * plus len doublings (2M + 5S). */
void PT(jac_mul_vartime)(JAC *r, const JAC *p, const uint64_t *k, size_t nk) {
    while (nk > 0 && k[nk - 1] == 0) nk--;
    if (nk == 0 || PT(jac_is_infinity)(p)) {
        PT(jac_set_infinity)(r);
        return;
    }
    if (nk > EC_WNAF_MAX_LIMBS) {
        PT(mul_binary_vartime)(r, p, k, nk);
        return;
    }
    /* recode: d = k; while d > 0: if odd, digit = d mods 2^w, d -= digit; d >>= 1 */
    uint64_t d[EC_WNAF_MAX_LIMBS + 1];
    int8_t naf[64 * EC_WNAF_MAX_LIMBS + 1];
    size_t nd = nk + 1, len = 0;
    memcpy(d, k, nk * sizeof(uint64_t));
    d[nk] = 0;
    for (;;) {
        size_t nz = 0;
        for (size_t i = 0; i < nd; i++) nz |= (d[i] != 0);
        if (!nz) break;
        int digit = 0;
        if (d[0] & 1) {
            digit = (int)(d[0] & ((1u << EC_WNAF_W) - 1));
            if (digit >= (1 << (EC_WNAF_W - 1))) digit -= (1 << EC_WNAF_W);
            /* d -= digit (digit may be negative: then add) */
            if (digit > 0) {
                uint64_t borrow = (uint64_t)digit;
                for (size_t i = 0; i < nd && borrow; i++) {
                    uint64_t o = d[i];
                    d[i] = o - borrow;
                    borrow = (o < borrow);
                }
            } else {
                uint64_t carry = (uint64_t)(-digit);
                for (size_t i = 0; i < nd && carry; i++) {
                    d[i] += carry;
                    carry = (d[i] < carry);
                }
            }
        }
        naf[len++] = (int8_t)digit;
        for (size_t i = 0; i + 1 < nd; i++) d[i] = (d[i] >> 1) | (d[i + 1] << 63);
        d[nd - 1] >>= 1;
    }
    JAC table[EC_WNAF_TABLE], p2;
    table[0] = *p;
    PT(jac_dbl)(&p2, p);
    for (int i = 1; i < EC_WNAF_TABLE; i++) PT(jac_add)(&table[i], &table[i - 1], &p2);
    JAC acc;
    PT(jac_set_infinity)(&acc);
    for (size_t i = len; i-- > 0;) {
        PT(jac_dbl)(&acc, &acc);
        int digit = naf[i];
        if (digit > 0) {
            PT(jac_add)(&acc, &acc, &table[digit >> 1]);
        } else if (digit < 0) {
            PT(jac_sub)(&acc, &acc, &table[(-digit) >> 1]);
        }
    }
    *r = acc;
}

/* r = t[idx] for idx < n, reading every entry (no memory access depends on idx). */
static void PT(jac_select_ct)(JAC *r, const JAC *t, size_t n, uint64_t idx) {
    enum { W = sizeof(JAC) / sizeof(uint64_t) };
    uint64_t acc[W] = {0}, w[W];
    for (size_t i = 0; i < n; i++) {
        uint64_t mask = 0 - ((((uint64_t)i ^ idx) - 1) >> 63); /* all ones iff i == idx */
        memcpy(w, &t[i], sizeof w);
        for (size_t j = 0; j < W; j++) acc[j] |= w[j] & mask;
    }
    memcpy(r, acc, sizeof acc);
}

/* r = cond ? a : r, cond in {0, 1}, without a branch. */
static void PT(jac_cmov)(JAC *r, const JAC *a, uint64_t cond) {
    enum { W = sizeof(JAC) / sizeof(uint64_t) };
    uint64_t x[W], y[W], mask = 0 - cond;
    memcpy(x, r, sizeof x);
    memcpy(y, a, sizeof y);
    for (size_t j = 0; j < W; j++) x[j] ^= (x[j] ^ y[j]) & mask;
    memcpy(r, x, sizeof x);
}

#define EC_FIXED_W 4
#define EC_FIXED_DIGITS 64 /* odd digits d_i in [-15, 15]; 64 * 4 bits cover k < 2^255 > r */

/* Regular fixed-window multiplication for secret scalars (the prover's r, s): the odd-digit
 * recoding of Okeya-Takagi / Joye-Tunstall ("Exponent recoding and regular exponentiation
 * algorithms", AFRICACRYPT 2009, Alg. for odd k): k odd < 2^255 is written as 64 odd digits
 * d_i in {+-1, ..., +-15}, d_63 > 0, so there is no zero digit and no data-dependent branch in
 * the schedule: 252 doublings and 63 additions (11M + 5S each) for every k, table P, 3P, ..., 15P
 * read in full at each step. An even k is made odd as k + 1 and P is subtracted at the end
 * (always computed, selected by a mask). The recoding itself is branch-free:
 * d = (k mod 32) - 16, k <- (k - d)/16 = ((k with low 5 bits cleared) + 16) / 16.
 * What remains variable time: the exceptional-case branches inside jac_add / jac_dbl (taken
 * with negligible probability for random k, except for k in {0, r-1}-like edge values), and the
 * field layer's own timing. */
void PT(jac_mul_fr)(JAC *r, const JAC *p, const fr_t *k) {
    fr_t plain;
    fr_from_mont(&plain, k);
    uint64_t e[4];
    memcpy(e, plain.l, sizeof e);
    uint64_t even = 1 ^ (e[0] & 1);
    e[0] |= 1; /* k + 1 when k is even */
    int8_t digit[EC_FIXED_DIGITS];
    for (int i = 0; i < EC_FIXED_DIGITS - 1; i++) {
        digit[i] = (int8_t)((int)(e[0] & 31) - 16);
        e[0] = (e[0] & ~(uint64_t)31) | 16;
        for (int j = 0; j < 3; j++) e[j] = (e[j] >> EC_FIXED_W) | (e[j + 1] << (64 - EC_FIXED_W));
        e[3] >>= EC_FIXED_W;
    }
    digit[EC_FIXED_DIGITS - 1] = (int8_t)e[0]; /* odd, 1..15 */

    JAC table[8], p2;
    table[0] = *p;
    PT(jac_dbl)(&p2, p);
    for (int i = 1; i < 8; i++) PT(jac_add)(&table[i], &table[i - 1], &p2);

    JAC acc, sel, nsel;
    PT(jac_select_ct)(&acc, table, 8, (uint64_t)(digit[EC_FIXED_DIGITS - 1] >> 1));
    for (int i = EC_FIXED_DIGITS - 2; i >= 0; i--) {
        for (int j = 0; j < EC_FIXED_W; j++) PT(jac_dbl)(&acc, &acc);
        int d = digit[i];
        uint64_t neg = (uint64_t)(d >> 8) & 1;      /* 1 iff d < 0 (arithmetic shift) */
        uint64_t mag = (uint64_t)((d ^ -(int)neg) + (int)neg); /* |d| */
        PT(jac_select_ct)(&sel, table, 8, mag >> 1);
        PT(jac_neg)(&nsel, &sel);
        PT(jac_cmov)(&sel, &nsel, neg);
        PT(jac_add)(&acc, &acc, &sel);
    }
    JAC fix;
    PT(jac_sub)(&fix, &acc, p);
    PT(jac_cmov)(&acc, &fix, even);
    *r = acc;
}

/* r = [|z|]p for the BLS12-381 seed |z| = 0xd201000000010000 (bits 63, 62, 60, 57, 48, 16):
 * left-to-right double-and-add with mixed additions, 63 doublings + 5 mixed additions
 * (63 (2M+5S) + 5 (7M+4S)), about half the cost of the generic wNAF path, whose table alone
 * costs 8 full additions. Used by the subgroup tests. */
static void PT(mul_by_z_abs_affine)(JAC *r, const AFF *p) {
    const uint64_t z = CURVE_Z_ABS;
    JAC acc;
    PT(jac_from_affine)(&acc, p);
    for (int bit = 62; bit >= 0; bit--) {
        PT(jac_dbl)(&acc, &acc);
        if ((z >> bit) & 1) PT(jac_add_affine)(&acc, &acc, p);
    }
    *r = acc;
}

/* ------------------------------------------------------------------ XYZZ */

void PT(xyzz_set_infinity)(XYZZ *r) {
    r->X = FE_ONE_V;
    r->Y = FE_ONE_V;
    r->ZZ = FE_ZERO_V;
    r->ZZZ = FE_ZERO_V;
}

int PT(xyzz_is_infinity)(const XYZZ *p) { return F(is_zero)(&p->ZZ); }

void PT(xyzz_from_affine)(XYZZ *r, const AFF *p) {
    if (PT(affine_is_infinity)(p)) {
        PT(xyzz_set_infinity)(r);
        return;
    }
    r->X = p->x;
    r->Y = p->y;
    r->ZZ = FE_ONE_V;
    r->ZZZ = FE_ONE_V;
}

/* With Z = ZZZ (so Z^2 = ZZZ^2 = ZZ^3): X_J = X ZZ^2, Y_J = Y ZZZ^2. 2M + 2S. */
void PT(xyzz_to_jac)(JAC *r, const XYZZ *p) {
    if (PT(xyzz_is_infinity)(p)) {
        PT(jac_set_infinity)(r);
        return;
    }
    FE t, X, Y;
    F(sqr)(&t, &p->ZZ);
    F(mul)(&X, &p->X, &t);
    F(sqr)(&t, &p->ZZZ);
    F(mul)(&Y, &p->Y, &t);
    r->Z = p->ZZZ;
    r->X = X;
    r->Y = Y;
}

/* x = X/ZZ, y = Y/ZZZ from one inversion of ZZ ZZZ: 1 inversion + 5M. */
void PT(xyzz_to_affine)(AFF *r, const XYZZ *p) {
    if (PT(xyzz_is_infinity)(p)) {
        r->x = FE_ZERO_V;
        r->y = FE_ZERO_V;
        return;
    }
    FE inv, izz, izzz;
    F(mul)(&inv, &p->ZZ, &p->ZZZ);
    F(inv_vartime)(&inv, &inv);        /* 1/(ZZ ZZZ) */
    F(mul)(&izz, &inv, &p->ZZZ);       /* 1/ZZ */
    F(mul)(&izzz, &inv, &p->ZZ);       /* 1/ZZZ */
    F(mul)(&r->x, &p->X, &izz);
    F(mul)(&r->y, &p->Y, &izzz);
}

/* EFD "dbl-2008-s-1" (a = 0, so the a ZZ1^2 term drops): 6M + 3S. U = 2Y1, V = U^2, W = U V, S = X1 V,
 * M = 3 X1^2, X3 = M^2 - 2S, Y3 = M(S - X3) - W Y1, ZZ3 = V ZZ1, ZZZ3 = W ZZZ1. */
void PT(xyzz_dbl)(XYZZ *r, const XYZZ *p) {
    if (PT(xyzz_is_infinity)(p)) {
        PT(xyzz_set_infinity)(r);
        return;
    }
    FE U, V, W, S, M, t, X3, Y3;
    F(dbl)(&U, &p->Y);
    F(sqr)(&V, &U);
    F(mul)(&W, &U, &V);
    F(mul)(&S, &p->X, &V);
    F(sqr)(&M, &p->X);
    F(dbl)(&t, &M);
    F(add)(&M, &M, &t);
    F(sqr)(&X3, &M);
    F(dbl)(&t, &S);
    F(sub)(&X3, &X3, &t);
    F(sub)(&t, &S, &X3);
    F(mul)(&Y3, &M, &t);
    F(mul)(&t, &W, &p->Y);
    F(sub)(&Y3, &Y3, &t);
    F(mul)(&r->ZZ, &V, &p->ZZ);
    F(mul)(&r->ZZZ, &W, &p->ZZZ);
    r->X = X3;
    r->Y = Y3;
}

/* EFD "mdbl-2008-s-1" (ZZ1 = ZZZ1 = 1): 2M + 3S. Used when an affine point meets itself. */
static void PT(xyzz_dbl_affine)(XYZZ *r, const AFF *p) {
    FE U, V, W, S, M, t, X3, Y3;
    F(dbl)(&U, &p->y);
    F(sqr)(&V, &U);
    F(mul)(&W, &U, &V);
    F(mul)(&S, &p->x, &V);
    F(sqr)(&M, &p->x);
    F(dbl)(&t, &M);
    F(add)(&M, &M, &t);
    F(sqr)(&X3, &M);
    F(dbl)(&t, &S);
    F(sub)(&X3, &X3, &t);
    F(sub)(&t, &S, &X3);
    F(mul)(&Y3, &M, &t);
    F(mul)(&t, &W, &p->y);
    F(sub)(&Y3, &Y3, &t);
    r->X = X3;
    r->Y = Y3;
    r->ZZ = V;
    r->ZZZ = W;
}

/* EFD "add-2008-s": 12M + 2S. U1 = X1 ZZ2, U2 = X2 ZZ1, S1 = Y1 ZZZ2, S2 = Y2 ZZZ1, P = U2 - U1,
 * R = S2 - S1, PP = P^2, PPP = P PP, Q = U1 PP, X3 = R^2 - PPP - 2Q, Y3 = R(Q - X3) - S1 PPP,
 * ZZ3 = ZZ1 ZZ2 PP, ZZZ3 = ZZZ1 ZZZ2 PPP. Complete by branching (P = 0: double or O). */
void PT(xyzz_add)(XYZZ *r, const XYZZ *a, const XYZZ *b) {
    if (PT(xyzz_is_infinity)(a)) {
        *r = *b;
        return;
    }
    if (PT(xyzz_is_infinity)(b)) {
        *r = *a;
        return;
    }
    FE U1, U2, S1, S2, P, R, PP, PPP, Q, t, X3, Y3, ZZ3, ZZZ3;
    F(mul)(&U1, &a->X, &b->ZZ);
    F(mul)(&U2, &b->X, &a->ZZ);
    F(mul)(&S1, &a->Y, &b->ZZZ);
    F(mul)(&S2, &b->Y, &a->ZZZ);
    F(sub)(&P, &U2, &U1);
    F(sub)(&R, &S2, &S1);
    if (F(is_zero)(&P)) {
        if (F(is_zero)(&R)) {
            PT(xyzz_dbl)(r, a);
        } else {
            PT(xyzz_set_infinity)(r);
        }
        return;
    }
    F(sqr)(&PP, &P);
    F(mul)(&PPP, &P, &PP);
    F(mul)(&Q, &U1, &PP);
    F(sqr)(&X3, &R);
    F(sub)(&X3, &X3, &PPP);
    F(dbl)(&t, &Q);
    F(sub)(&X3, &X3, &t);
    F(sub)(&t, &Q, &X3);
    F(mul)(&Y3, &R, &t);
    F(mul)(&t, &S1, &PPP);
    F(sub)(&Y3, &Y3, &t);
    F(mul)(&ZZ3, &a->ZZ, &b->ZZ);
    F(mul)(&ZZ3, &ZZ3, &PP);
    F(mul)(&ZZZ3, &a->ZZZ, &b->ZZZ);
    F(mul)(&ZZZ3, &ZZZ3, &PPP);
    r->X = X3;
    r->Y = Y3;
    r->ZZ = ZZ3;
    r->ZZZ = ZZZ3;
}

/* EFD "madd-2008-s" (ZZ2 = ZZZ2 = 1): 8M + 2S. Complete by branching. */
void PT(xyzz_add_affine)(XYZZ *r, const XYZZ *a, const AFF *b) {
    if (PT(affine_is_infinity)(b)) {
        *r = *a;
        return;
    }
    if (PT(xyzz_is_infinity)(a)) {
        PT(xyzz_from_affine)(r, b);
        return;
    }
    FE U2, S2, P, R, PP, PPP, Q, t, X3, Y3;
    F(mul)(&U2, &b->x, &a->ZZ);
    F(mul)(&S2, &b->y, &a->ZZZ);
    F(sub)(&P, &U2, &a->X);
    F(sub)(&R, &S2, &a->Y);
    if (F(is_zero)(&P)) {
        if (F(is_zero)(&R)) {
            PT(xyzz_dbl_affine)(r, b);
        } else {
            PT(xyzz_set_infinity)(r);
        }
        return;
    }
    F(sqr)(&PP, &P);
    F(mul)(&PPP, &P, &PP);
    F(mul)(&Q, &a->X, &PP);
    F(sqr)(&X3, &R);
    F(sub)(&X3, &X3, &PPP);
    F(dbl)(&t, &Q);
    F(sub)(&X3, &X3, &t);
    F(sub)(&t, &Q, &X3);
    F(mul)(&Y3, &R, &t);
    F(mul)(&t, &a->Y, &PPP);
    F(sub)(&Y3, &Y3, &t);
    F(mul)(&r->ZZ, &a->ZZ, &PP);
    F(mul)(&r->ZZZ, &a->ZZZ, &PPP);
    r->X = X3;
    r->Y = Y3;
}

void PT(xyzz_sub_affine)(XYZZ *r, const XYZZ *a, const AFF *b) {
    AFF nb;
    PT(affine_neg)(&nb, b);
    PT(xyzz_add_affine)(r, a, &nb);
}

void PT(xyzz_neg)(XYZZ *r, const XYZZ *p) {
    r->X = p->X;
    F(neg)(&r->Y, &p->Y);
    r->ZZ = p->ZZ;
    r->ZZZ = p->ZZZ;
}
