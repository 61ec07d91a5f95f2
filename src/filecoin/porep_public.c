/*
 * porep_public.c — PoRep public inputs from a verifier's fields, and seal-record verification
 * (porep_public.h).
 */
#include "filecoin/porep_public.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/challenges.h"
#include "filecoin/graph.h"
#include "filecoin/replica_id.h"
#include "filecoin/sha256_fr.h"
#include "groth16/proof_bytes.h"

uint32_t fil_porep_public_challenges(const fil_porep_public_t *p) {
    const fil_sector_info_t *si = fil_sector_info(p->sector_size);
    if (!si) return 0;
    if (p->challenges) return p->challenges;
    return p->feature == FIL_FEATURE_NON_INTERACTIVE_POREP ? si->ni_challenges_per_partition
                                                           : si->challenges_per_partition;
}

pm_status fil_porep_public_inputs(fr_t *out, size_t n, const fil_porep_public_t *p, uint32_t k, pm_error *err) {
    const fil_sector_info_t *si = fil_sector_info(p->sector_size);
    if (!si)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "sector size %llu is not supported",
                            (unsigned long long)p->sector_size);
    if (p->feature == FIL_FEATURE_SYNTHETIC_POREP)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "synthetic-PoRep challenges are not derived by proofmill");
    uint32_t C = fil_porep_public_challenges(p);
    if (n != 3 + 18 * (size_t)C)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "%zu public inputs asked, %u expected", n, 3 + 18 * C);
    const uint8_t *doms[3] = {p->replica_id, p->comm_d, p->comm_r};
    static const char *const names[3] = {"replica_id", "comm_d", "comm_r"};
    for (int i = 0; i < 3; i++)
        if (fil_domain_to_fr(&out[i], doms[i]))
            return pm_error_set(err, PM_ERR_ENCODING, "", PM_NO_OFFSET, "public input %s is not a canonical Fr (>= r)",
                                names[i]);
    fil_graph_t g;
    pm_status st = fil_graph_init(&g, si->nodes, p->porep_id, p->api_version, err);
    if (st) return st;
    uint64_t *ch = malloc(sizeof(uint64_t) * C);
    if (!ch) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "challenges");
    if (p->feature == FIL_FEATURE_NON_INTERACTIVE_POREP)
        fil_challenges_ni(ch, C, si->nodes, p->replica_id, p->comm_r, k);
    else
        fil_challenges_interactive(ch, C, si->nodes, p->replica_id, p->seed, k);
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

void fil_porep_public_from_record(fil_porep_public_t *p, const fil_seal_record_t *r) {
    memset(p, 0, sizeof *p);
    p->sector_size = r->sector_size;
    memcpy(p->porep_id, r->porep_id, 32);
    p->api_version = r->api_version;
    p->feature = r->feature;
    fil_replica_id(p->replica_id, r->prover_id, r->sector_id, r->ticket, r->comm_d, r->porep_id);
    memcpy(p->comm_d, r->comm_d, 32);
    memcpy(p->comm_r, r->comm_r, 32);
    memcpy(p->seed, r->seed, 32);
}

pm_status fil_seal_record_verify(int *valid, char *why, size_t cap, const fil_seal_record_t *r, const groth16_vk_t *vk,
                                 pm_error *err) {
    *valid = 0;
    if (cap) why[0] = 0;
    if (r->feature == FIL_FEATURE_NON_INTERACTIVE_POREP)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "non-interactive PoRep proofs are SnarkPack aggregates, which proofmill does not verify");
    fil_porep_public_t p;
    fil_porep_public_from_record(&p, r);
    uint32_t C = fil_porep_public_challenges(&p);
    size_t nx = 3 + 18 * (size_t)C;
    if (p.feature != FIL_FEATURE_SYNTHETIC_POREP && vk->n_public != nx)
        return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                            "the verifying key takes %zu public inputs, a %llu-byte PoRep partition has %zu",
                            vk->n_public, (unsigned long long)r->sector_size, nx);
    fr_t *x = malloc(sizeof(fr_t) * nx);
    if (!x) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "public inputs");
    pm_status st = PM_OK;
    int all = 1;
    for (uint32_t k = 0; k < r->partitions && !st && all; k++) {
        st = fil_porep_public_inputs(x, nx, &p, k, err);
        if (st) break;
        groth16_proof_t pr;
        pm_error e;
        pm_error_clear(&e);
        if (groth16_proof_from_bytes(&pr, r->proof + 192 * (size_t)k, "proof", 192 * (uint64_t)k, &e)) {
            snprintf(why, cap, "partition %u: the proof does not decode: %s", k, e.msg);
            all = 0;
            break;
        }
        int v = 0;
        st = groth16_verify(&v, vk, x, nx, &pr, NULL, NULL, err);
        if (!st && !v) {
            snprintf(why, cap,
                     "partition %u: the Groth16 equation e(A,B) = e(alpha,beta)·e(sum x_i·IC_i,gamma)·e(C,delta) "
                     "does not hold for our public inputs",
                     k);
            all = 0;
        }
    }
    free(x);
    if (!st) *valid = all;
    return st;
}
