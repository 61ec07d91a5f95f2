/*
 * fp2.h — Fp2 = Fp[u]/(u^2 + 1), the quadratic extension of the BLS12-381 base field.
 *
 * Representation: fp2_t { c0, c1 } is c0 + c1*u, both coordinates in Montgomery form (fp.h).
 * Byte encodings of Fp2 elements live with their users (curve encodings put c1 first for
 * ZCash/IETF, c0 first for snarkjs). Argument order: output first; outputs may alias inputs.
 * Source: draft-irtf-cfrg-pairing-friendly-curves-11 §4.2.1 (tower), Karatsuba / complex
 * squaring per Devegili, Ó hÉigeartaigh, Scott, Dahab, "Multiplication and Squaring on
 * Pairing-Friendly Fields" (ePrint 2006/471).
 */
#ifndef PROOFMILL_FIELD_FP2_H
#define PROOFMILL_FIELD_FP2_H

#include "fp.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { fp_t c0, c1; } fp2_t;

extern const fp2_t FP2_ZERO;
extern const fp2_t FP2_ONE;

void fp2_add(fp2_t *r, const fp2_t *a, const fp2_t *b);
void fp2_sub(fp2_t *r, const fp2_t *a, const fp2_t *b);
void fp2_neg(fp2_t *r, const fp2_t *a);
void fp2_dbl(fp2_t *r, const fp2_t *a);
void fp2_conj(fp2_t *r, const fp2_t *a);                /* c0 - c1*u (= Frobenius a^p) */
void fp2_mul(fp2_t *r, const fp2_t *a, const fp2_t *b); /* Karatsuba: 3 Fp mul */
void fp2_sqr(fp2_t *r, const fp2_t *a);                 /* complex squaring: 2 Fp mul */
void fp2_mul_fp(fp2_t *r, const fp2_t *a, const fp_t *b); /* 2 Fp mul */
void fp2_mul_by_nonresidue(fp2_t *r, const fp2_t *a);   /* r = a*(1+u), the Fp6 non-residue */
void fp2_inv_vartime(fp2_t *r, const fp2_t *a);         /* 0 maps to 0 */
int fp2_is_zero(const fp2_t *a);
int fp2_eq(const fp2_t *a, const fp2_t *b);
/* r = sqrt(a) when a is a square in Fp2 (returns 1); else 0. Variable time. */
int fp2_sqrt_vartime(fp2_t *r, const fp2_t *a);
/* ZCash sign of an Fp2 element: lexicographically largest of (c1, c0): c1 decides unless 0. */
int fp2_is_lexicographically_largest(const fp2_t *a);
/* r = a^e, e as ne little-endian 64-bit limbs. Variable time in e. */
void fp2_pow_vartime(fp2_t *r, const fp2_t *a, const uint64_t *e, size_t ne);

#ifdef __cplusplus
}
#endif
#endif
