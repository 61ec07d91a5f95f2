/*
 * verifier.c — Groth16 verification with one multi-pairing (contract in verifier.h).
 */
#include "groth16/verifier.h"

#include <stdlib.h>
#include <string.h>

#include "msm/msm.h"
#include "pairing/pairing.h"

pm_status groth16_proof_check(const groth16_proof_t *proof, const char *file, pm_error *err) {
    if (!g1_affine_is_on_curve(&proof->a))
        return pm_error_set(err, PM_ERR_NOT_ON_CURVE, file, PM_NO_OFFSET,
                            "pi_a is not on the BLS12-381 G1 curve");
    if (!g2_affine_is_on_curve(&proof->b))
        return pm_error_set(err, PM_ERR_NOT_ON_CURVE, file, PM_NO_OFFSET,
                            "pi_b is not on the BLS12-381 G2 curve");
    if (!g1_affine_is_on_curve(&proof->c))
        return pm_error_set(err, PM_ERR_NOT_ON_CURVE, file, PM_NO_OFFSET,
                            "pi_c is not on the BLS12-381 G1 curve");
    if (!g1_affine_in_subgroup_vartime(&proof->a))
        return pm_error_set(err, PM_ERR_NOT_IN_SUBGROUP, file, PM_NO_OFFSET,
                            "pi_a is not in the order-r subgroup of G1");
    if (!g2_affine_in_subgroup_vartime(&proof->b))
        return pm_error_set(err, PM_ERR_NOT_IN_SUBGROUP, file, PM_NO_OFFSET,
                            "pi_b is not in the order-r subgroup of G2");
    if (!g1_affine_in_subgroup_vartime(&proof->c))
        return pm_error_set(err, PM_ERR_NOT_IN_SUBGROUP, file, PM_NO_OFFSET,
                            "pi_c is not in the order-r subgroup of G1");
    return PM_OK;
}

pm_status groth16_verify(int *valid, const groth16_vk_t *vk, const fr_t *x, size_t n,
                         const groth16_proof_t *proof, const char *proof_file,
                         const char *public_file, pm_error *err) {
    *valid = 0;
    if (n != vk->n_public)
        return pm_error_set(err, PM_ERR_MISMATCH, public_file, PM_NO_OFFSET,
                            "%zu public signals given, the verification key expects nPublic = %zu",
                            n, vk->n_public);
    if (groth16_proof_check(proof, proof_file, err)) return PM_OK; /* invalid, reason in err */

    /* vk_x = IC_0 + sum_{i>=1} x_i IC_i; scalars plain for the MSM */
    fr_t *sc = malloc((n ? n : 1) * sizeof *sc);
    if (!sc) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < n; i++) fr_from_mont(&sc[i], &x[i]);
    g1_jac_t acc;
    pm_status st = msm_g1_vartime(&acc, vk->ic + 1, sc, n, 1);
    free(sc);
    if (st)
        return pm_error_set(err, st, "", PM_NO_OFFSET, "public-input MSM failed (%s)",
                            pm_status_name(st));
    g1_jac_add_affine(&acc, &acc, &vk->ic[0]);

    g1_affine_t ps[4];
    g2_affine_t qs[4];
    g1_affine_neg(&ps[0], &proof->a);
    qs[0] = proof->b;
    ps[1] = vk->alpha_1;
    qs[1] = vk->beta_2;
    g1_jac_to_affine(&ps[2], &acc);
    qs[2] = vk->gamma_2;
    ps[3] = proof->c;
    qs[3] = vk->delta_2;
    if (pairing_check(ps, qs, 4)) {
        *valid = 1;
        return PM_OK;
    }
    pm_error_set(err, PM_OK /* no error: the proof is simply invalid */, proof_file, PM_NO_OFFSET,
                 "the pairing equation e(A,B) = e(alpha,beta) e(vk_x,gamma) e(C,delta) does not "
                 "hold");
    return PM_OK;
}

pm_status groth16_vk_from_zkey(groth16_vk_t *vk, const zkey_t *zk, pm_error *err) {
    memset(vk, 0, sizeof *vk);
    vk->ic = malloc(((size_t)zk->n_public + 1) * sizeof *vk->ic);
    if (!vk->ic) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory");
    memcpy(vk->ic, zk->ic, ((size_t)zk->n_public + 1) * sizeof *vk->ic);
    vk->n_public = zk->n_public;
    vk->alpha_1 = zk->alpha1;
    vk->beta_2 = zk->beta2;
    vk->gamma_2 = zk->gamma2;
    vk->delta_2 = zk->delta2;
    return PM_OK;
}
