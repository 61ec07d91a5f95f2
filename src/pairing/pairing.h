/*
 * pairing.h — the optimal ate pairing on BLS12-381: e: G1 x G2 -> GT ⊂ Fp12*.
 *
 * Inputs are affine points with coordinates in Montgomery form (curve/g1.h, curve/g2.h);
 * the point at infinity is (0, 0) and contributes the factor 1. The caller must make sure the
 * points are on their curves and in the order-r subgroups (g1_affine_in_subgroup_vartime,
 * g2_affine_in_subgroup_vartime); for other inputs the result is some Fp12 value, never a crash.
 * Outputs are fp12_t in Montgomery form (field/fp12.h; fp12_to_be_bytes for bytes).
 *
 * Which power of the pairing: the final exponentiation uses the Hayashida–Hayasaka–Teruya
 * decomposition (ePrint 2020/875, §4 for BLS12), which raises the Miller value to
 * 3 (p^12 - 1)/r, i.e. e = (f_{x,Q}(P))^(3 (p^12-1)/r). This is the same GT element that
 * snarkjs/wasmcurves and @noble/curves compute: snarkjs's vk_alphabeta_12 is checked in
 * tests/pairing/test_pairing_snarkjs.c, noble's bls12_381.pairing in test_pairing_vectors.c.
 * Being a power coprime to r of the reduced pairing, it is a non-degenerate bilinear pairing.
 *
 * Miller loop: x = -0xd201000000010000 (BLS parameter), T on the twist E'(Fp2):
 * y^2 = x^3 + 4(1+u) (M-type twist, untwist (x,y) -> (x/w^2, y/w^3)) kept in homogeneous
 * projective coordinates; doubling and mixed-addition steps with their lines per Costello,
 * Lange, Naehrig, "Faster Pairing Computations on Curves with High-Degree Twists" (PKC 2010,
 * ePrint 2009/615) §4–5, lines multiplied by w^3 so they land in the sparse shape
 * l0 + l1 v + l4 v w (fp12_mul_by_014); Fp2 scalings of the lines die in the final exponentiation.
 * Since x < 0 the loop value is conjugated (f_{-|x|} ~ 1/f_{|x|} = conj after the easy part).
 * Everything here is variable time in the inputs (infinity checks); no secrets are expected.
 * None of these functions allocate or fail.
 */
#ifndef PROOFMILL_PAIRING_PAIRING_H
#define PROOFMILL_PAIRING_PAIRING_H

#include <stddef.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fp12.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The BLS parameter |x| = 0xd201000000010000 (x itself is negative). */
#define PAIRING_BLS_X_ABS 0xd201000000010000ULL

/* f = prod_i f_{x,Q_i}(P_i) (conjugated for x < 0), the Miller value of n pairs sharing one
 * accumulator: one Fp12 squaring per bit for all pairs together. ps, qs: n affine points each.
 * Pairs where either point is infinity are skipped; n = 0 gives f = 1. Pairs are processed in
 * stack-sized chunks of PAIRING_CHUNK (one accumulator per chunk, multiplied together, so
 * n <= PAIRING_CHUNK shares a single accumulator); still one final exponentiation. */
#define PAIRING_CHUNK 32
void pairing_miller_loop(fp12_t *f, const g1_affine_t *ps, const g2_affine_t *qs, size_t n);

/* Prepared G2 points: the 68 lines (63 doublings + 5 additions, popcount(|x|) - 1) of the
 * Miller loop of q depend on q only, up to the factors xp, yp of P; precomputing them removes
 * all twist-point arithmetic from later loops (for fixed verification-key points such as
 * Groth16's gamma_2, delta_2). 68 x 3 Fp2 = 19,584 bytes each (Montgomery form, same layout
 * as the loop-internal line (l0, l1, l4); l1 and l4 are multiplied by xp and yp on use). */
#define PAIRING_NUM_LINES 68
/* One unevaluated line: l0 + (l1 xp) v + (l4 yp) v w once evaluated at P = (xp, yp). */
typedef struct { fp2_t l0, l1, l4; } pairing_line_t;
typedef struct {
    pairing_line_t lines[PAIRING_NUM_LINES];
    int infinity; /* 1 when q was the point at infinity (then the pair contributes 1) */
} pairing_g2_prepared_t;

/* out = the prepared form of q (affine, Montgomery; caller checks curve and subgroup).
 * Cost: about 1/3 of a Miller loop of one pair. Never fails. */
void pairing_g2_prepare(pairing_g2_prepared_t *out, const g2_affine_t *q);

/* f = Miller value of the n plain pairs (ps[i], qs[i]) times that of the m prepared pairs
 * (pps[i], pqs[i]), in one shared accumulator (one Fp12 squaring per bit for all of them).
 * Either array may be NULL when its count is 0. Equal to pairing_miller_loop on the same
 * points (tested); combine with pairing_final_exp. */
void pairing_miller_loop_mixed(fp12_t *f, const g1_affine_t *ps, const g2_affine_t *qs, size_t n,
                               const g1_affine_t *pps, const pairing_g2_prepared_t *pqs, size_t m);

/* r = f^(3 (p^12 - 1)/r): easy part f^((p^6 - 1)(p^2 + 1)), then the hard part
 * m^((x-1)^2 (x+p)(x^2+p^2-1) + 3) = m^(3 (p^4 - p^2 + 1)/r) (HHT ePrint 2020/875) with five
 * exponentiations by x using Karabina compressed cyclotomic squarings
 * (fp12_cyclotomic_exp_vartime). f must be nonzero (a Miller value is);
 * f = 0 gives 0. */
void pairing_final_exp(fp12_t *r, const fp12_t *f);

/* r = e(p, q). Either input at infinity gives r = 1. */
void pairing(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q);

/* r = prod_{i<n} e(ps[i], qs[i]) with one shared Miller loop and one final exponentiation. */
void pairing_multi(fp12_t *r, const g1_affine_t *ps, const g2_affine_t *qs, size_t n);

/* 1 when prod_{i<n} e(ps[i], qs[i]) == 1 (n = 0 gives 1), else 0. */
int pairing_check(const g1_affine_t *ps, const g2_affine_t *qs, size_t n);

#ifdef __cplusplus
}
#endif
#endif
