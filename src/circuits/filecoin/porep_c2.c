/*
 * porep_c2.c — C2: per partition witness, check, bellperson Groth16 proof, self-verification
 * (porep_c2.h).
 */
#include "circuits/filecoin/porep_c2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "filecoin/challenges.h"
#include "filecoin/graph.h"
#include "filecoin/sha256_fr.h"
#include "filecoin/sizes.h"
#include "groth16/proof_bytes.h"
#include "groth16/prover.h"
#include "groth16/prover_bellperson.h"
#include "groth16/verifier.h"
#include "util/clock.h"

pm_status pm_porep_public_inputs(fr_t *out, size_t n, const fil_c1_t *c1, uint32_t k, pm_error *err) {
    const fil_registered_proof_t *rp = fil_registered_proof(c1->registered_proof);
    if (!rp) return pm_error_set(err, PM_ERR_ARG, "c1", PM_NO_OFFSET, "unknown registered proof %u", c1->registered_proof);
    if (rp->feature == FIL_FEATURE_SYNTHETIC_POREP)
        return pm_error_set(err, PM_ERR_ARG, "c1", PM_NO_OFFSET,
                            "%s: synthetic-PoRep challenges need the synthetic proof file", rp->name);
    uint32_t C = c1->challenges;
    if (n != 3 + 18 * (size_t)C)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "%zu public inputs asked, %u expected", n, 3 + 18 * C);
    const fil_sector_info_t *si = fil_sector_info(c1->sector_size);
    if (!si) return pm_error_set(err, PM_ERR_ARG, "c1", PM_NO_OFFSET, "unsupported sector size");
    const uint8_t *doms[3] = {c1->replica_id, c1->comm_d, c1->comm_r};
    static const char *const names[3] = {"replica_id", "comm_d", "comm_r"};
    for (int i = 0; i < 3; i++)
        if (fil_domain_to_fr(&out[i], doms[i]))
            return pm_error_set(err, PM_ERR_ENCODING, "c1", PM_NO_OFFSET, "%s is not a canonical Fr", names[i]);
    uint8_t porep_id[32];
    fil_porep_id(porep_id, rp->id);
    fil_graph_t g;
    pm_status st = fil_graph_init(&g, si->nodes, porep_id, rp->api_version, err);
    if (st) return st;
    uint64_t *ch = malloc(sizeof(uint64_t) * C);
    if (!ch) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "challenges");
    if (rp->feature == FIL_FEATURE_NON_INTERACTIVE_POREP)
        fil_challenges_ni(ch, C, si->nodes, c1->replica_id, c1->comm_r, k);
    else
        fil_challenges_interactive(ch, C, si->nodes, c1->replica_id, c1->seed, k);
    for (uint32_t i = 0; i < C; i++) {
        fr_t *o = &out[3 + 18 * (size_t)i];
        uint32_t drg[6], exp[8];
        fil_graph_drg_parents(drg, &g, ch[i]);
        fil_graph_exp_parents(exp, &g, ch[i]);
        fr_from_u64(&o[0], ch[i]);
        for (int q = 0; q < 6; q++) fr_from_u64(&o[1 + q], drg[q]);
        for (int q = 0; q < 8; q++) fr_from_u64(&o[7 + q], exp[q]);
        o[15] = o[16] = o[17] = o[0];
    }
    free(ch);
    return PM_OK;
}

static pm_status verify_one(int *valid, const groth16_vk_t *vk, const fr_t *w, uint32_t n_inputs,
                            const groth16_proof_t *pr, pm_error *err) {
    if (vk->n_public + 1 != n_inputs)
        return pm_error_set(err, PM_ERR_MISMATCH, "vk", PM_NO_OFFSET,
                            "verifying key has %zu inputs, the circuit %u", vk->n_public + 1, n_inputs);
    return groth16_verify(valid, vk, w + 1, n_inputs - 1, pr, NULL, NULL, err);
}

pm_status pm_porep_c2_prove(uint8_t *out, const fil_c1_t *c1, const pm_porep_shape *s, const r1cs_t *cs,
                            const bp_params_t *p, const uint64_t *seed, unsigned threads,
                            pm_c2_timings_t *tm, pm_error *err) {
    if (tm) memset(tm, 0, sizeof *tm);
    groth16_vk_t vk = {0};
    pm_status st = params_vk_to_groth16_vk(&vk, &p->vk, err);
    if (st) return st;
    for (uint32_t k = 0; k < c1->partitions && !st; k++) {
        fr_t *w = NULL;
        size_t n_w = 0;
        uint32_t n_inputs = 0;
        double t0 = pm_now_s();
        st = pm_porep_witness(&w, &n_w, &n_inputs, s, c1, k, err);
        double t1 = pm_now_s();
        if (!st && n_w != cs->n_wires)
            st = pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                              "witness has %zu values, the recorded circuit %u wires", n_w, cs->n_wires);
        /* every constraint is checked by the prover on its a, b, c (no separate pass) */
        if (!st) { /* the witness's public inputs must be the ones a verifier derives */
            fr_t *x = malloc(sizeof(fr_t) * (n_inputs - 1));
            pm_status xs = x ? pm_porep_public_inputs(x, n_inputs - 1, c1, k, err)
                             : pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "public inputs");
            if (xs == PM_ERR_ARG && x) xs = PM_OK; /* synthetic PoRep: not derivable here */
            else if (!xs)
                for (uint32_t j = 0; j + 1 < n_inputs; j++)
                    if (!fr_eq(&x[j], &w[1 + j])) {
                        xs = pm_error_set(err, PM_ERR_MISMATCH, "c1", PM_NO_OFFSET,
                                          "partition %u: public input %u from the vanilla proofs differs from the "
                                          "one derived from replica_id/seed/graph (challenge %u)",
                                          k, j + 1, j < 3 ? 0 : (j - 3) / 18);
                        break;
                    }
            free(x);
            st = xs;
        }
        double t2 = pm_now_s();
        groth16_proof_t pr;
        if (!st) {
            fr_t r, sc;
            if (seed) {
                groth16_seeded_scalars(&r, &sc, *seed + k);
            } else {
                st = groth16_random_scalar(&r, err);
                if (!st) st = groth16_random_scalar(&sc, err);
            }
            if (!st) {
                groth16_bp_pending_t pd;
                st = groth16_prove_bellperson_start(&pd, p, cs, w, n_w, threads, err);
                if (st == PM_ERR_UNSATISFIED) {
                    char msg[400];
                    if (pd.first_bad != UINT32_MAX) pm_porep_unsatisfied(err, s, pd.first_bad, cs->n_constraints);
                    snprintf(msg, sizeof msg, "%.380s", err->msg);
                    pm_error_set(err, PM_ERR_UNSATISFIED, "c1", PM_NO_OFFSET, "partition %u: %s", k, msg);
                }
                if (!st) st = groth16_prove_bellperson_finalize(&pr, &pd, &r, &sc, err);
                groth16_bp_pending_free(&pd);
            }
            memset(&r, 0, sizeof r);
            memset(&sc, 0, sizeof sc);
        }
        double t3 = pm_now_s();
        if (!st) {
            int valid = 0;
            st = verify_one(&valid, &vk, w, n_inputs, &pr, err);
            if (!st && !valid)
                st = pm_error_set(err, PM_ERR_INTERNAL, "", PM_NO_OFFSET,
                                  "partition %u: the proof does not verify with the parameters' vk", k);
            if (!st) groth16_proof_to_bytes(out + (size_t)192 * k, &pr);
        }
        double t4 = pm_now_s();
        if (tm) {
            tm->witness += t1 - t0;
            tm->check += t2 - t1;
            tm->prove += t3 - t2;
            tm->verify += t4 - t3;
        }
        free(w);
    }
    groth16_vk_free(&vk);
    return st;
}

pm_status pm_porep_c2_verify(int *valid, const uint8_t *proofs, size_t n, const fil_c1_t *c1,
                             const pm_porep_shape *s, const bp_vk_t *bvk, pm_error *err) {
    *valid = 0;
    if (n != c1->partitions)
        return pm_error_set(err, PM_ERR_MISMATCH, "proof", PM_NO_OFFSET, "%zu proofs for %u partitions", n,
                            c1->partitions);
    if (c1->challenges != s->challenges)
        return pm_error_set(err, PM_ERR_MISMATCH, "c1", PM_NO_OFFSET, "C1 has %u challenges per partition, circuit %u",
                            c1->challenges, s->challenges);
    groth16_vk_t vk = {0};
    pm_status st = params_vk_to_groth16_vk(&vk, bvk, err);
    size_t nx = 3 + 18 * (size_t)s->challenges;
    fr_t *x = malloc(sizeof(fr_t) * (nx + 1));
    if (!st && !x) st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "public inputs");
    int all = 1;
    for (uint32_t k = 0; k < n && !st; k++) {
        groth16_proof_t pr;
        st = groth16_proof_from_bytes(&pr, proofs + 192 * (size_t)k, "proof", 192 * (uint64_t)k, err);
        if (!st) st = pm_porep_public_inputs(x + 1, nx, c1, k, err);
        int v = 0;
        if (!st) st = verify_one(&v, &vk, x, (uint32_t)nx + 1, &pr, err);
        all &= v;
    }
    free(x);
    groth16_vk_free(&vk);
    if (!st) *valid = all;
    return st;
}
