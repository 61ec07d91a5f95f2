/*
 * proof.h — the Groth16 proof and verification key of proofmill, in memory (BLS12-381).
 *
 * A proof is (A in G1, B in G2, C in G1) as in Groth, "On the Size of Pairing-based
 * Non-interactive Arguments", EUROCRYPT 2016, §3.2. All coordinates are affine, in Montgomery
 * form (field/fp.h, field/fp2.h); the point at infinity is (0, 0) as in curve/g1.h, curve/g2.h.
 *
 * The verification key is the snarkjs one (FORMATS.md, "verification_key.json"): alpha_1,
 * beta_2, gamma_2, delta_2 and IC[0..n_public] with IC_i = (beta*A_i + alpha*B_i + C_i)(tau)/gamma
 * * G1. Verification: e(A, B) == e(alpha_1, beta_2) * e(sum_i x_i IC_i, gamma_2) * e(C, delta_2)
 * with x_0 = 1.
 */
#ifndef PROOFMILL_GROTH16_PROOF_H
#define PROOFMILL_GROTH16_PROOF_H

#include <stddef.h>

#include "curve/g1.h"
#include "curve/g2.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    g1_affine_t a; /* pi_a */
    g2_affine_t b; /* pi_b */
    g1_affine_t c; /* pi_c */
} groth16_proof_t;

typedef struct {
    g1_affine_t alpha_1;
    g2_affine_t beta_2;
    g2_affine_t gamma_2;
    g2_affine_t delta_2;
    size_t n_public;  /* number of public signals, not counting the constant wire 0 */
    g1_affine_t *ic;  /* n_public + 1 points, owned (free with groth16_vk_free) */
} groth16_vk_t;

/* Free vk->ic and zero the struct. Safe on a zeroed struct. */
void groth16_vk_free(groth16_vk_t *vk);

#ifdef __cplusplus
}
#endif
#endif
