/*
 * g2.h — the BLS12-381 group G2: E'(Fp2): y^2 = x^3 + 4(1+u), prime-order subgroup of order r.
 *
 * Coordinates (all field elements in Montgomery form, see field/fp2.h):
 *  - g2_affine_t (x, y). The point at infinity is (0, 0), which is not on the curve (b = 4(1+u)),
 *    matching snarkjs's all-zero encoding.
 *  - g2_jac_t Jacobian (X, Y, Z): x = X/Z^2, y = Y/Z^3; infinity has Z = 0.
 *  - g2_xyzz_t extended Jacobian (X, Y, ZZ, ZZZ): x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2;
 *    infinity has ZZ = 0. (Cost of XYZZ mixed add: 8M+2S, Bernstein–Lange EFD "xyzz".)
 * Scalars are fr_t or plain little-endian 64-bit limbs as named. Outputs first; outputs may
 * alias inputs. Routines whose time depends on secret-free data carry _vartime.
 * Subgroup check via the untwist-Frobenius-twist endomorphism psi (Scott, ePrint 2021/1130).
 * Source: draft-irtf-cfrg-pairing-friendly-curves-11 §4.2.1 (curve, generator); the
 * Explicit-Formulas Database (hyperelliptic.org/EFD) for each formula named at its body.
 */
#ifndef PROOFMILL_CURVE_G2_H
#define PROOFMILL_CURVE_G2_H

#include "field/fp2.h"
#include "field/fr.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { fp2_t x, y; } g2_affine_t;
typedef struct { fp2_t X, Y, Z; } g2_jac_t;
typedef struct { fp2_t X, Y, ZZ, ZZZ; } g2_xyzz_t;

extern const g2_affine_t G2_GENERATOR;

/* affine */
int g2_affine_is_infinity(const g2_affine_t *p);
int g2_affine_is_on_curve(const g2_affine_t *p);      /* infinity counts as on the curve */
int g2_affine_eq(const g2_affine_t *a, const g2_affine_t *b);
void g2_affine_neg(g2_affine_t *r, const g2_affine_t *p);
/* subgroup membership: psi(P) == [z]P (Scott, ePrint 2021/1130); p must be on the curve; infinity is in
 * the subgroup. Variable time. */
int g2_affine_in_subgroup_vartime(const g2_affine_t *p);

/* Jacobian */
void g2_jac_set_infinity(g2_jac_t *r);
int g2_jac_is_infinity(const g2_jac_t *p);
void g2_jac_from_affine(g2_jac_t *r, const g2_affine_t *p);
void g2_jac_to_affine(g2_affine_t *r, const g2_jac_t *p);          /* one inversion */
/* batch normalisation with one inversion: out[i] = in[i] as affine, n points */
void g2_jacs_to_affine(g2_affine_t *out, const g2_jac_t *in, size_t n);
int g2_jac_eq(const g2_jac_t *a, const g2_jac_t *b);
void g2_jac_neg(g2_jac_t *r, const g2_jac_t *p);
void g2_jac_dbl(g2_jac_t *r, const g2_jac_t *p);
void g2_jac_add(g2_jac_t *r, const g2_jac_t *a, const g2_jac_t *b);      /* complete (handles P=Q, inf) */
void g2_jac_add_affine(g2_jac_t *r, const g2_jac_t *a, const g2_affine_t *b); /* mixed, complete */
/* r = [k]p, k as plain little-endian limbs of nk words (any length; nk = 0 means k = 0). Width-5 wNAF,
 * variable time in k. */
void g2_jac_mul_vartime(g2_jac_t *r, const g2_jac_t *p, const uint64_t *k, size_t nk);
/* r = [k]p, k an Fr element (Montgomery form, converted inside). For secret scalars: a regular
 * fixed-window schedule (64 odd signed 4-bit digits, table read in full, no branch on k in this
 * layer; see ec_impl.h for what stays variable time). Any p on the curve (not only in the subgroup). */
void g2_jac_mul_fr(g2_jac_t *r, const g2_jac_t *p, const fr_t *k);

/* XYZZ (bucket accumulation) */
void g2_xyzz_set_infinity(g2_xyzz_t *r);
int g2_xyzz_is_infinity(const g2_xyzz_t *p);
void g2_xyzz_from_affine(g2_xyzz_t *r, const g2_affine_t *p);
void g2_xyzz_to_jac(g2_jac_t *r, const g2_xyzz_t *p);
void g2_xyzz_dbl(g2_xyzz_t *r, const g2_xyzz_t *p);
void g2_xyzz_add(g2_xyzz_t *r, const g2_xyzz_t *a, const g2_xyzz_t *b);        /* complete */
void g2_xyzz_add_affine(g2_xyzz_t *r, const g2_xyzz_t *a, const g2_affine_t *b); /* complete */
void g2_xyzz_sub_affine(g2_xyzz_t *r, const g2_xyzz_t *a, const g2_affine_t *b); /* a - b */

/* Added by the curve layer (issue #2); same conventions as above.
 * r = a - b (complete). */
void g2_jac_sub(g2_jac_t *r, const g2_jac_t *a, const g2_jac_t *b);
/* r = a - b, b affine (complete; mixed subtraction, 7M + 4S). */
void g2_jac_sub_affine(g2_jac_t *r, const g2_jac_t *a, const g2_affine_t *b);
/* r = -p in XYZZ. */
void g2_xyzz_neg(g2_xyzz_t *r, const g2_xyzz_t *p);
/* r = p as affine (one inversion); infinity gives (0, 0). */
void g2_xyzz_to_affine(g2_affine_t *r, const g2_xyzz_t *p);

#ifdef __cplusplus
}
#endif
#endif
