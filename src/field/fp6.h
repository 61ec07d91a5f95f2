/*
 * fp6.h — Fp6 = Fp2[v]/(v^3 - xi), xi = 1 + u, the cubic extension of Fp2 in the BLS12-381 tower.
 *
 * Representation: fp6_t { c0, c1, c2 } is c0 + c1*v + c2*v^2, each an fp2_t whose Fp
 * coordinates are in Montgomery form (fp.h). No byte encodings here (see fp12.h).
 * Argument order: output first; outputs may alias inputs. None of these functions fail.
 * Costs are given in Fp2 multiplications (M2) and squarings (S2).
 * Source: tower per draft-irtf-cfrg-pairing-friendly-curves-11 §4.2.1; Karatsuba
 * multiplication and the Chung–Hasan "CH-SQR2" squaring per Devegili, Ó hÉigeartaigh, Scott,
 * Dahab, "Multiplication and Squaring on Pairing-Friendly Fields" (ePrint 2006/471) §4.
 */
#ifndef PROOFMILL_FIELD_FP6_H
#define PROOFMILL_FIELD_FP6_H

#include "fp2.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { fp2_t c0, c1, c2; } fp6_t;

extern const fp6_t FP6_ZERO;
extern const fp6_t FP6_ONE;

void fp6_add(fp6_t *r, const fp6_t *a, const fp6_t *b);
void fp6_sub(fp6_t *r, const fp6_t *a, const fp6_t *b);
void fp6_neg(fp6_t *r, const fp6_t *a);
void fp6_dbl(fp6_t *r, const fp6_t *a);
/* r = a*b, Karatsuba (ePrint 2006/471 §4): 6 M2. */
void fp6_mul(fp6_t *r, const fp6_t *a, const fp6_t *b);
/* r = a^2, CH-SQR2 (ePrint 2006/471 §4): 2 M2 + 3 S2. */
void fp6_sqr(fp6_t *r, const fp6_t *a);
/* r = a*v: (c0, c1, c2) -> (xi*c2, c0, c1). Additions only. */
void fp6_mul_by_nonresidue(fp6_t *r, const fp6_t *a);
/* r = a*b for an Fp2 scalar b: 3 M2. */
void fp6_mul_fp2(fp6_t *r, const fp6_t *a, const fp2_t *b);
/* Sparse products used by the Miller loop (fp12_mul_by_014):
 * r = a*(b0 + b1 v)  (5 M2), and r = a*(b1 v)  (3 M2). */
void fp6_mul_by_01(fp6_t *r, const fp6_t *a, const fp2_t *b0, const fp2_t *b1);
void fp6_mul_by_1(fp6_t *r, const fp6_t *a, const fp2_t *b1);
/* r = a^{-1} (norm to Fp2, one Fp inversion); 0 maps to 0. Variable time (fp_inv_vartime). */
void fp6_inv_vartime(fp6_t *r, const fp6_t *a);
/* r = a^(p^k) for any k >= 0 (k taken mod 6): coefficient c_i becomes conj^k(c_i) times
 * xi^(i (p^k - 1)/3). The constants are computed from p at first use (fp12.c, thread-safe). */
void fp6_frobenius(fp6_t *r, const fp6_t *a, unsigned k);
int fp6_is_zero(const fp6_t *a);
int fp6_is_one(const fp6_t *a);
int fp6_eq(const fp6_t *a, const fp6_t *b);

#ifdef __cplusplus
}
#endif
#endif
