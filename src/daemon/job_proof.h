/*
 * job_proof.h — the proof bytes of a finished job of a bellperson-convention kind (kinds/kind.h
 * conv = GROTH16_BELLPERSON, e.g. porep-c2: {"partition": k, "proof": "<384 hex digits>"} per
 * partition, prove/prove.h), as filecoin-ffi returns them (seal_commit_phase2 for PoRep): the
 * partitions' 192-byte proofs (A 48 ‖ B 96 ‖ C 48, compressed) concatenated in partition order.
 * Shared by the HTTP API ("proof_b64") and the gRPC API (AwaitProofResponse.proof).
 */
#ifndef PROOFMILL_DAEMON_JOB_PROOF_H
#define PROOFMILL_DAEMON_JOB_PROOF_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *out = malloc'd 192 x info->n_partitions bytes (caller frees), *len its length. Errors:
 * PM_ERR_ARG (a kind whose proofs are JSON, e.g. snarkjs; the job is not DONE), PM_ERR_INTERNAL
 * (a partition's proof JSON is not of that shape), PM_ERR_NOMEM. */
pm_status pm_job_proof_bytes(uint8_t **out, size_t *len, const pm_job_info *info, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
