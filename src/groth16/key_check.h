/*
 * key_check.h — why a proving key's proof does not verify with the key's own verifying key.
 *
 * A Groth16 proof made from a satisfying witness verifies with the key it was made with
 * (Groth 2016, Thm 1: perfect completeness). When the self-check of a proof fails although the
 * witness satisfied the constraints (the H polynomial had the right degree, and the .r1cs check
 * passed when given), the key is inconsistent: some of its points are not what the setup made
 * (a point outside the prime-order subgroup, alpha/beta/delta changed or negated in one place,
 * the queries of another key). This file says so, naming the key file, and pinpoints what it can.
 */
#ifndef PROOFMILL_GROTH16_KEY_CHECK_H
#define PROOFMILL_GROTH16_KEY_CHECK_H

#include "groth16/key.h"
#include "groth16/proof.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fill err with PM_ERR_KEY, file = key_name ("key" when NULL): "the key is inconsistent: its
 * proof does not verify with its own verification key" followed by the first fault found:
 *   - a point of vk (alpha_1, beta_2, gamma_2, delta_2, IC[i]) or of the key view (alpha_1, beta_1,
 *     delta_1, delta_2, the A/B1/C/H bases, the G2 B base: index i) off the curve or outside its
 *     order-r subgroup (every point is tested, in parallel; variable time — keys are public);
 *   - delta_1 and delta_2 (or beta_1 and beta_2) not the same scalar: e(delta_1, g2) != e(g1, delta_2);
 *   - the view's alpha_1, beta_2 or delta_2 not the verifying key's;
 *   - else "every point is on the curve and in its subgroup (alpha, beta or delta do not match
 *     the queries)".
 * Base names follow the convention: snarkjs zkey sections (3 IC, 5 A, 6 B1, 7 B2, 8 C, 9 H),
 * bellperson fields (ic, a, b_g1, b_g2, l, h). detail (may be NULL) is appended (the verifier's
 * reason). Returns PM_ERR_KEY. */
/* The first fault of the list above that k/vk has, written to why (returns 1), or 0 when none is
 * found (every point in its subgroup, the scalars agree). */
int groth16_key_fault(char *why, size_t cap, const groth16_key *k, const groth16_vk_t *vk);
pm_status groth16_key_inconsistent(const groth16_key *k, const groth16_vk_t *vk, const char *key_name,
                                   const char *detail, pm_error *err);

/* Every point of vk on the curve and in its order-r subgroup (alpha_1, beta_2, gamma_2, delta_2,
 * then IC in order; IC in parallel). PM_OK, or PM_ERR_NOT_ON_CURVE / PM_ERR_NOT_IN_SUBGROUP with
 * file = name and the point named ("IC point 3"). A verifier given such a key would accept or
 * reject proofs on meaningless grounds, so exporting one is refused. */
pm_status groth16_vk_check_points(const groth16_vk_t *vk, const char *name, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
