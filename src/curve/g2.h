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

/* The standard generator (draft-irtf-cfrg-pairing-friendly-curves-11 section 4.2.1), Montgomery form. */
extern const g2_affine_t G2_GENERATOR;

/* ---- affine: (x, y), infinity = (0, 0). Inputs need not be on the curve unless said. ---- */
/* 1 when p == (0, 0). */
int g2_affine_is_infinity(const g2_affine_t *p);
/* 1 when y^2 = x^3 + 4(1+u) (1M + 2S); infinity counts as on the curve. */
int g2_affine_is_on_curve(const g2_affine_t *p);
/* 1 when the coordinates are equal (infinity equals only infinity). */
int g2_affine_eq(const g2_affine_t *a, const g2_affine_t *b);
/* r = -p = (x, -y); infinity stays (0, 0). */
void g2_affine_neg(g2_affine_t *r, const g2_affine_t *p);
/* Subgroup membership: psi(P) == [z]P with psi the untwist-Frobenius-twist endomorphism (Scott,
 * ePrint 2021/1130); p must be on the curve; infinity is in the subgroup. About 63 doublings +
 * 5 mixed additions over Fp2. Variable time. */
int g2_affine_in_subgroup_vartime(const g2_affine_t *p);

/* ---- Jacobian (X, Y, Z): x = X/Z^2, y = Y/Z^3; infinity has Z = 0. ---- */
/* r = infinity (1, 1, 0). */
void g2_jac_set_infinity(g2_jac_t *r);
/* 1 when Z == 0. */
int g2_jac_is_infinity(const g2_jac_t *p);
/* r = (x, y, 1), or infinity for (0, 0). */
void g2_jac_from_affine(g2_jac_t *r, const g2_affine_t *p);
/* r = (X/Z^2, Y/Z^3): one inversion + 3M + 1S; infinity gives (0, 0). */
void g2_jac_to_affine(g2_affine_t *r, const g2_jac_t *p);
/* Batch normalisation with one inversion (Montgomery's trick, 3(n-1)M + 1 inversion + (3M+1S)
 * per point): out[i] = in[i] as affine for i < n; infinities give (0, 0). out and in must not
 * overlap; no allocation (out[].x holds the prefix products meanwhile). */
void g2_jacs_to_affine(g2_affine_t *out, const g2_jac_t *in, size_t n);
/* 1 when a and b are the same point (compares X1 Z2^2 = X2 Z1^2, Y1 Z2^3 = Y2 Z1^3: 6M + 2S). */
int g2_jac_eq(const g2_jac_t *a, const g2_jac_t *b);
/* r = -p = (X, -Y, Z). */
void g2_jac_neg(g2_jac_t *r, const g2_jac_t *p);
/* r = 2p: EFD dbl-2009-l, 2M + 5S. */
void g2_jac_dbl(g2_jac_t *r, const g2_jac_t *p);
/* r = a + b: EFD add-2007-bl, 11M + 5S; complete (branches to dbl for a == b, O for a == -b,
 * and on infinity inputs). */
void g2_jac_add(g2_jac_t *r, const g2_jac_t *a, const g2_jac_t *b);
/* r = a + b, b affine: EFD madd-2007-bl, 7M + 4S; complete as g2_jac_add. */
void g2_jac_add_affine(g2_jac_t *r, const g2_jac_t *a, const g2_affine_t *b);
/* r = [k]p, k as plain little-endian limbs of nk words (any length; nk = 0 means k = 0). Width-5 wNAF,
 * variable time in k. */
void g2_jac_mul_vartime(g2_jac_t *r, const g2_jac_t *p, const uint64_t *k, size_t nk);
/* r = [k]p, k an Fr element (Montgomery form, converted inside). For secret scalars: a regular
 * fixed-window schedule (64 odd signed 4-bit digits, table read in full, no branch on k in this
 * layer; see ec_impl.h for what stays variable time). Any p on the curve (not only in the subgroup). */
void g2_jac_mul_fr(g2_jac_t *r, const g2_jac_t *p, const fr_t *k);

/* ---- XYZZ (X, Y, ZZ, ZZZ): x = X/ZZ, y = Y/ZZZ; infinity has ZZ = 0 (bucket accumulation). ---- */
/* r = infinity (1, 1, 0, 0). */
void g2_xyzz_set_infinity(g2_xyzz_t *r);
/* 1 when ZZ == 0. */
int g2_xyzz_is_infinity(const g2_xyzz_t *p);
/* r = (x, y, 1, 1), or infinity for (0, 0). */
void g2_xyzz_from_affine(g2_xyzz_t *r, const g2_affine_t *p);
/* r = the same point in Jacobian coordinates (Z = ZZZ, X = X ZZ^2, Y = Y ZZZ^2): 2M + 2S. */
void g2_xyzz_to_jac(g2_jac_t *r, const g2_xyzz_t *p);
/* r = 2p: EFD dbl-2008-s-1, 6M + 3S. */
void g2_xyzz_dbl(g2_xyzz_t *r, const g2_xyzz_t *p);
/* r = a + b: EFD add-2008-s, 12M + 2S; complete (branches for a == b, a == -b, infinity). */
void g2_xyzz_add(g2_xyzz_t *r, const g2_xyzz_t *a, const g2_xyzz_t *b);
/* r = a + b, b affine: EFD madd-2008-s, 8M + 2S (mdbl-2008-s-1 when a == b); complete. */
void g2_xyzz_add_affine(g2_xyzz_t *r, const g2_xyzz_t *a, const g2_affine_t *b);
/* r = a - b, b affine: as g2_xyzz_add_affine with -b. */
void g2_xyzz_sub_affine(g2_xyzz_t *r, const g2_xyzz_t *a, const g2_affine_t *b);

/* Added by the curve layer (issue #2); same conventions as above.
 * r = a - b (complete). */
void g2_jac_sub(g2_jac_t *r, const g2_jac_t *a, const g2_jac_t *b);
/* r = a - b, b affine (complete; mixed subtraction, 7M + 4S). */
void g2_jac_sub_affine(g2_jac_t *r, const g2_jac_t *a, const g2_affine_t *b);
/* r = -p in XYZZ. */
void g2_xyzz_neg(g2_xyzz_t *r, const g2_xyzz_t *p);
/* r = p as affine (one inversion of ZZ ZZZ + 5M); infinity gives (0, 0). */
void g2_xyzz_to_affine(g2_affine_t *r, const g2_xyzz_t *p);

#ifdef __cplusplus
}
#endif
#endif
