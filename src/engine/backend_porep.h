/*
 * backend_porep.h — the engine backend for Filecoin PoRep C2 (issue #9, "Engine front end"):
 * a job = one C1 output (JSON or lotus-bench envelope, by path) + the bellperson parameters of its
 * sector size in a Filecoin parameter directory (our own, `proofmill porep params-setup`:
 * DIR/<stem>.params, DIR/<stem>.vk and optionally DIR/<stem>.csr, names from
 * filecoin/param_names.h). The job's key path is DIR/<stem>.params (pm_porep_job_key builds it from
 * the C1's sector size); the proof is 192 bytes per partition (bellperson compressed A ‖ B ‖ C),
 * the partitions concatenated in order.
 *
 * Stages (backend.h):
 *   plan        reads the C1 (fil_c1_read_file), checks its sector size against the key's file
 *               name (PM_ERR_MISMATCH), opens the .params (PM_ERR_IO when missing) and reads its
 *               vk and vector counts only: n_ic must be 3 + 18·C + 1 (PM_ERR_MISMATCH); one
 *               partition per C1 partition (10 at 32 GiB, 1 at 2 KiB). Sizes from the counts:
 *               witness n_w = n_ic + n_l, domain m = n_h + 1 (file comment of backend_porep.c).
 *   load_key    params_read (decoded, checked), the recorded circuit (DIR/<stem>.csr mapped, or
 *               recorded in memory when absent: 2 KiB ~10 s), the verifying key (DIR/<stem>.vk
 *               when present, else the .params' own vk).
 *   synthesize  re-reads the C1 (0.1 s at 32 GiB), the partition's witness (pm_porep_witness_mt),
 *               and the public inputs derived from replica_id/seed/graph (pm_porep_public_inputs)
 *               must be the witness's (PM_ERR_MISMATCH); they travel with the partition to verify.
 *   gpu_start   groth16_prove_bellperson_start (SpMV, every constraint checked on its a, b, c, H
 *               on the coset, four G1 MSMs; CPU today) inside the slot's kernel region: a wrong C1
 *               is PM_ERR_UNSATISFIED naming the C1's path, partition, constraint, challenge and
 *               gadget (pm_porep_unsatisfied).
 *   finalize    fresh random r, s (getrandom) or, for tests, seeded ones;
 *               groth16_prove_bellperson_finalize (G2 MSM, assembly) -> 192 bytes.
 *   verify      decodes the 192 bytes and checks them with the .vk and the derived public inputs
 *               (the same check as pm_porep_c2_verify, partition by partition).
 *   proof_json  {"partition": k, "proof": "<384 lowercase hex digits>"}; concatenating the
 *               partitions' bytes in order gives the C2 proof (`porep verify-proof` reads it).
 *
 * Several front ends in one engine: pm_backend_porep_mux wraps another backend (the snarkjs one)
 * and routes each job by its key path: a key ending in ".params" (or a job whose input is
 * PM_INPUT_POREP_C1_PATH or PM_INPUT_POREP_C1_BYTES) goes to the PoRep backend, every other key to the wrapped backend.
 */
#ifndef PROOFMILL_ENGINE_BACKEND_POREP_H
#define PROOFMILL_ENGINE_BACKEND_POREP_H

#include <stddef.h>
#include <stdint.h>

#include "engine/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Input kinds of a PoRep job: path = a C1 JSON file (or lotus-bench envelope); bytes/len = the
 * same document inline (e.g. the {SectorNum, Phase1Out, SectorSize} envelope Curio sends to cuzk in
 * SubmitProofRequest.vanilla_proof), named "inline C1" in errors. */
#define PM_INPUT_POREP_C1_PATH ((pm_input_kind)16)
#define PM_INPUT_POREP_C1_BYTES ((pm_input_kind)17)

typedef struct {
    unsigned witness_threads;  /* OpenMP threads of the witness synthesis; 0 = the default team */
    unsigned start_threads;    /* MSM threads of the start phase; 0 = all cores */
    /* TESTS ONLY: deterministic blinding (groth16_seeded_scalars(seed + partition)); not
     * zero-knowledge. NULL = random r, s per proof. */
    const uint64_t *seed;
} pm_porep_backend_opts;

/* Fill *be with the PoRep backend (opts may be NULL). be->destroy(be->self) frees it.
 * Errors: PM_ERR_NOMEM. */
pm_status pm_backend_porep(pm_backend *be, const pm_porep_backend_opts *opts, pm_error *err);

/* Fill *be with a router: PoRep jobs (see the file comment) to a PoRep backend made with opts,
 * every other job to *other, which the router takes over (its destroy is called by the router's).
 * Errors: PM_ERR_NOMEM (then *other is left to the caller). */
pm_status pm_backend_porep_mux(pm_backend *be, const pm_backend *other, const pm_porep_backend_opts *opts,
                               pm_error *err);

/* The key path of a PoRep job: DIR/<stem>.params for the sector size of the C1 at c1_path (read
 * here; 0.1 s at 32 GiB). out: cap bytes. Errors: the C1 reader's (PM_ERR_IO, PM_ERR_FORMAT),
 * PM_ERR_ARG (unsupported size, path too long). */
pm_status pm_porep_job_key(char *out, size_t cap, const char *params_dir, const char *c1_path, pm_error *err);
/* The same for a job input (PM_INPUT_POREP_C1_PATH or PM_INPUT_POREP_C1_BYTES; the C1 is parsed
 * here). Errors: as pm_porep_job_key, PM_ERR_ARG for another input kind. */
pm_status pm_porep_input_key(char *out, size_t cap, const char *params_dir, const pm_input *in, pm_error *err);
/* DIR/<stem>.params for a sector size in bytes, without reading any C1 (the gRPC front end picks
 * the key from the request's registered_proof / sector_size). Errors: PM_ERR_ARG (unsupported
 * size, path too long). */
pm_status pm_porep_key_for_size(char *out, size_t cap, const char *params_dir, uint64_t sector_size, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
