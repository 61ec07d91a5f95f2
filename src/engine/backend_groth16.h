/*
 * backend_groth16.h — the engine backend for snarkjs inputs: a .zkey proving key (BLS12-381) and one
 * .wtns witness per partition (a path, or the file's bytes inline), proved by the CPU Groth16 prover
 * (groth16/prover.h) in its start/finalize split.
 *
 * Stages (backend.h):
 *   plan        reads the zkey header (section 2) and each witness header (section 1) without
 *               decoding points: nVars must match (PM_ERR_MISMATCH), files must open (PM_ERR_IO),
 *               both must be BLS12-381 (PM_ERR_CURVE); sizes the key and partitions from
 *               nVars, domainSize, nCoefs and the MSM scratch queries (msm.h).
 *   load_key    zkey_read (points decoded and checked) + the NTT domain (snarkjs roots) + the
 *               verifying key taken from the zkey (alpha1, beta2, gamma2, delta2, IC).
 *   synthesize  wtns_read: the witness, checked canonical, in Montgomery form.
 *   gpu_start   groth16_prove_start (a, b, H, the four G1 MSMs) inside the device slot: on a CPU
 *               machine the slot is a logical device and the whole start phase is its "kernel
 *               region" (the prover API does not split eval/H from the MSMs).
 *   finalize    fresh random r, s (getrandom), groth16_prove_finalize (G2 MSM, assembly, the
 *               prover's self-check: a witness that does not satisfy the circuit is
 *               PM_ERR_UNSATISFIED here).
 *   verify      groth16_verify against the zkey's verifying key and the witness's public signals.
 *   proof_json  {"proof": <snarkjs proof.json>, "public": <snarkjs public.json>} (snarkjs bytes).
 */
#ifndef PROOFMILL_ENGINE_BACKEND_GROTH16_H
#define PROOFMILL_ENGINE_BACKEND_GROTH16_H

#include "engine/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned start_threads;    /* MSM threads in the start phase; 0 = all online cores */
    unsigned finalize_threads; /* G2 MSM threads in finalize; 0 = 1 (small, L3-friendly) */
} pm_groth16_backend_opts;

/* Fill *be with the CPU Groth16 backend. opts may be NULL (defaults). be->destroy(be->self) frees
 * it. Errors: PM_ERR_NOMEM. */
pm_status pm_backend_groth16_cpu(pm_backend *be, const pm_groth16_backend_opts *opts, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
