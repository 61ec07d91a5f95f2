/*
 * fp12.h — Fp12 = Fp6[w]/(w^2 - v), the top of the BLS12-381 tower (GT lives here).
 *
 * Representation: fp12_t { c0, c1 } is c0 + c1*w with c0, c1 in Fp6 (fp6.h); every Fp
 * coordinate is in Montgomery form. Flattened, an element is the 12 Fp values in struct order
 *   c0.c0.c0, c0.c0.c1, c0.c1.c0, c0.c1.c1, c0.c2.c0, c0.c2.c1, c1.c0.c0, ..., c1.c2.c1,
 * i.e. coefficient of w^0, v, v^2, w, vw, v^2 w, each as (real, u) — the nesting order snarkjs
 * writes for Fq12 in verification_key.json ("vk_alphabeta_12": [[[c0,c1] x3] x2]).
 * As a power basis in w (w^6 = xi = 1+u): c0.c0 = w^0, c1.c0 = w^1, c0.c1 = w^2, c1.c1 = w^3,
 * c0.c2 = w^4, c1.c2 = w^5.
 * Argument order: output first; outputs may alias inputs. Arithmetic never fails.
 * Costs in Fp2 multiplications (M2) / squarings (S2); Fp6 multiplication = 6 M2.
 * Source: tower per draft-irtf-cfrg-pairing-friendly-curves-11 §4.2.1; Karatsuba and complex
 * squaring per Devegili et al. ePrint 2006/471; cyclotomic squaring per Granger, Scott,
 * "Faster Squaring in the Cyclotomic Subgroup of Sixth Degree Extensions" (PKC 2010, ePrint
 * 2009/565) §3.2, in the Fp4-pair form of Aranha et al. ePrint 2010/354 (Fp4 = Fp2[w^3]).
 */
#ifndef PROOFMILL_FIELD_FP12_H
#define PROOFMILL_FIELD_FP12_H

#include "fp6.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { fp6_t c0, c1; } fp12_t;

extern const fp12_t FP12_ZERO;
extern const fp12_t FP12_ONE;

void fp12_add(fp12_t *r, const fp12_t *a, const fp12_t *b);
void fp12_sub(fp12_t *r, const fp12_t *a, const fp12_t *b);
void fp12_neg(fp12_t *r, const fp12_t *a);
/* r = a*b, Karatsuba over Fp6: 3 Fp6 mul = 18 M2. */
void fp12_mul(fp12_t *r, const fp12_t *a, const fp12_t *b);
/* r = a^2, complex squaring: 2 Fp6 mul = 12 M2. */
void fp12_sqr(fp12_t *r, const fp12_t *a);
/* r = conj(a) = c0 - c1 w = a^(p^6); the inverse when a is in the cyclotomic subgroup
 * (norm 1 over Fp6, e.g. any value after the easy part of the final exponentiation). */
void fp12_conj(fp12_t *r, const fp12_t *a);
/* r = a^{-1} = conj(a)/(c0^2 - v c1^2); 0 maps to 0. Variable time (one Fp inversion). */
void fp12_inv_vartime(fp12_t *r, const fp12_t *a);
/* r = a^(p^k), any k (taken mod 12): Fp6 halves by fp6_frobenius, c1 additionally times
 * gamma_k = xi^((p^k-1)/6) (= w^(p^k - 1)). Constants computed from p at first use. 4 M2 + 6 M2. */
void fp12_frobenius(fp12_t *r, const fp12_t *a, unsigned k);
/* r = a * (l0 + l1 v + l4 v w): the line shape of the M-type twist (nonzero coefficients at
 * flattened Fp2 positions 0, 1 and 4 = c0.c0, c0.c1, c1.c1). 13 M2 instead of 18. */
void fp12_mul_by_014(fp12_t *r, const fp12_t *a, const fp2_t *l0, const fp2_t *l1, const fp2_t *l4);
/* r = a^2 for a in the cyclotomic subgroup G_{Phi_12(p)} ONLY (Granger–Scott): 6 S2-equivalents
 * (9 Fp2 squarings). Wrong for general elements; the final exponentiation's hard part uses it. */
void fp12_cyclotomic_sqr(fp12_t *r, const fp12_t *a);
/* r = a^e for a in the cyclotomic subgroup ONLY and a 64-bit plain exponent e. Karabina's
 * compressed squaring (ePrint 2010/542, §3–4: keep only the four Fp2 coordinates
 * c1.c0, c0.c2, c0.c1, c1.c2; 6 S2 per squaring instead of 9), decompressing the powers
 * a^(2^k) for the set bits k of e with one batched Fp2 inversion (Montgomery's trick), then
 * multiplying them (popcount(e) - 1 Fp12 mul). Falls back to Granger–Scott squarings when a
 * compressed value cannot be decompressed (a zero denominator; measure-zero inputs such as 1).
 * Variable time in e and in a. e = 0 gives 1. */
void fp12_cyclotomic_exp_vartime(fp12_t *r, const fp12_t *a, uint64_t e);
/* r = a^e, e as ne little-endian 64-bit limbs of a plain integer. Variable time in e.
 * Generic square-and-multiply (tests, reference exponentiations). */
void fp12_pow_vartime(fp12_t *r, const fp12_t *a, const uint64_t *e, size_t ne);
int fp12_is_zero(const fp12_t *a);
int fp12_is_one(const fp12_t *a);
int fp12_eq(const fp12_t *a, const fp12_t *b);

/* Encodings. 12 x 48-byte big-endian canonical (non-Montgomery) integers in the flattened
 * order above (c0.c0.c0 first): 576 bytes. from_ returns 0 on success, -1 when any integer is
 * >= p (r is then set to zero). */
void fp12_to_be_bytes(uint8_t out[576], const fp12_t *a);
int fp12_from_be_bytes(fp12_t *r, const uint8_t in[576]);
/* The 12 Fp coordinates in the flattened order (still Montgomery form), and back. */
void fp12_to_fps(fp_t out[12], const fp12_t *a);
void fp12_from_fps(fp12_t *r, const fp_t in[12]);

#ifdef __cplusplus
}
#endif
#endif
