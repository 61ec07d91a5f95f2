/*
 * prover_bellperson.c — a Groth16 proof with a bellperson parameter set in one call, over the one
 * start phase and assembly (start.h). Contract: prover_bellperson.h.
 */
#include "groth16/prover_bellperson.h"

#include <string.h>

#include "groth16/key.h"

pm_status groth16_prove_bellperson(groth16_proof_t *proof, const bp_params_t *p, const r1cs_t *cs,
                                   const fr_t *w, size_t n_w, const fr_t *r, const fr_t *s,
                                   unsigned threads, groth16_timings_t *tm, pm_error *err) {
    memset(proof, 0, sizeof *proof);
    if (tm) memset(tm, 0, sizeof *tm);
    groth16_key k;
    pm_status st = groth16_key_from_params(&k, p, cs, err);
    if (st) return st;
    groth16_exec x = {.ops = &groth16_ops_cpu, .threads = threads};
    groth16_prove_opts_t opts = {.threads = threads, .skip_self_check = 1};
    groth16_pending_t pd;
    st = groth16_start(&pd, &k, w, n_w, &x, &opts, err);
    if (!st) st = groth16_finalize(proof, &pd, r, s, err);
    if (tm) *tm = pd.t;
    groth16_pending_free(&pd);
    groth16_key_free(&k);
    return st;
}
