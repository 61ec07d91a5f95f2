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
 *   synthesize  wtns_read (the witness, checked canonical, Montgomery form), then a = A.w and
 *               b = B.w on the domain (zkey_eval_ab: the SpMV over the zkey's coefficients).
 *   gpu_start   host prep (the handle's plain witness copy, scratch) outside the device lock; inside
 *               it the H phase (ntt_snarkjs_h: 6 NTTs) and the four G1 MSMs (A, B1, C, H) into a
 *               groth16_pending_t (groth16_pending_init + own MSMs, as prover.h documents for
 *               backends). On a CPU machine the slot is a logical device.
 *   finalize    fresh random r, s (getrandom), groth16_prove_finalize (G2 MSM, assembly, the
 *               prover's self-check: a witness that does not satisfy the circuit is
 *               PM_ERR_UNSATISFIED here).
 *   verify      groth16_verify against the zkey's verifying key and the witness's public signals.
 *   proof_json  {"proof": <snarkjs proof.json>, "public": <snarkjs public.json>} (snarkjs bytes).
 */
#ifndef PROOFMILL_ENGINE_BACKEND_GROTH16_H
#define PROOFMILL_ENGINE_BACKEND_GROTH16_H

#include "engine/backend.h"
#include "field/fr.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned start_threads;    /* MSM threads in the start phase; 0 = all online cores */
    unsigned finalize_threads; /* G2 MSM threads in finalize; 0 = 1 (small, L3-friendly) */
    /* TESTS ONLY: fixed blinding scalars r, s (Montgomery) for every proof, so that outputs can be
     * compared byte for byte with snarkjs's proof_det.json. Removes zero knowledge: never set in
     * the daemon. NULL = fresh random r, s per proof (getrandom). */
    const fr_t *fixed_r, *fixed_s;
} pm_groth16_backend_opts;

/* Fill *be with the CPU Groth16 backend. opts may be NULL (defaults). be->destroy(be->self) frees
 * it. Errors: PM_ERR_NOMEM. */
pm_status pm_backend_groth16_cpu(pm_backend *be, const pm_groth16_backend_opts *opts, pm_error *err);

/* The same front end with the start phase on CUDA devices (gpu/gpu.h): per device, the key's four
 * G1 bases and the NTT domain are uploaded on the first partition that device runs (inside its
 * kernel region) and kept until the key is evicted; gpu_start runs gpu_snarkjs_h and the four
 * gpu_msm_g1 calls inside the kernel region (the H result stays on the device for the H MSM);
 * synthesis and finalize are the CPU ones. Device ids are CUDA ordinals < 64.
 * Errors: PM_ERR_GPU when the build has no CUDA backend or no device is usable; PM_ERR_NOMEM. */
pm_status pm_backend_groth16_gpu(pm_backend *be, const pm_groth16_backend_opts *opts, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
