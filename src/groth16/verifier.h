/*
 * verifier.h — Groth16 verification for BLS12-381 (snarkjs verification keys).
 *
 * Checks, with x_0 = 1 and x_1..x_n the public signals (Groth 2016 §3.2; snarkjs 0.7.6
 * src/groth16_verify.js):
 *     e(pi_a, pi_b) == e(alpha_1, beta_2) * e(vk_x, gamma_2) * e(pi_c, delta_2),
 *     vk_x = sum_{i=0..n} x_i IC_i,
 * as ONE multi-pairing with a single final exponentiation:
 *     e(-pi_a, pi_b) * e(alpha_1, beta_2) * e(vk_x, gamma_2) * e(pi_c, delta_2) == 1.
 * Before that: pi_a, pi_c must be on the G1 curve and in the order-r subgroup, pi_b on the G2
 * curve and in its subgroup (snarkjs checks on-curve only; the subgroup checks are ours).
 * The verification key's points are checked when it is read (proof_json.h).
 */
#ifndef PROOFMILL_GROTH16_VERIFIER_H
#define PROOFMILL_GROTH16_VERIFIER_H

#include <stddef.h>

#include "field/fr.h"
#include "groth16/proof.h"
#include "groth16/zkey.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Check the proof's points: on their curves and in the order-r subgroups. file labels err.
 * Returns PM_OK or PM_ERR_NOT_ON_CURVE / PM_ERR_NOT_IN_SUBGROUP naming pi_a, pi_b or pi_c. */
pm_status groth16_proof_check(const groth16_proof_t *proof, const char *file, pm_error *err);

/* Verify proof against vk and the public signals x[0..n) (Montgomery form; x_1..x_n above).
 * Returns PM_OK with *valid = 1 (accepted) or *valid = 0 (rejected; err->msg then says why:
 * err->code PM_ERR_NOT_ON_CURVE / PM_ERR_NOT_IN_SUBGROUP from groth16_proof_check, or PM_OK with
 * "the pairing equation ... does not hold"); or an error with
 * *valid = 0: PM_ERR_MISMATCH when n != vk->n_public ("public.json has n signals, the
 * verification key expects m"), PM_ERR_NOMEM. proof_file and public_file label the messages
 * (NULL allowed). */
pm_status groth16_verify(int *valid, const groth16_vk_t *vk, const fr_t *x, size_t n,
                         const groth16_proof_t *proof, const char *proof_file,
                         const char *public_file, pm_error *err);

/* The verification key contained in a snarkjs zkey: alpha_1, beta_2, gamma_2, delta_2 and the
 * n_public + 1 IC points (section 3) are copied (vk->ic allocated; free with groth16_vk_free).
 * With groth16_vk_to_json this is `snarkjs zkey export verificationkey`.
 * Errors: PM_ERR_NOMEM. */
pm_status groth16_vk_from_zkey(groth16_vk_t *vk, const zkey_t *zk, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
