/*
 * job_proof.h — the proof bytes of a finished job whose partitions are bellperson Groth16 proofs
 * (the PoRep C2 backend's {"partition": k, "proof": "<384 hex digits>"} per partition,
 * engine/backend_porep.h), as filecoin-ffi's seal_commit_phase2 returns them: the partitions'
 * 192-byte proofs (A 48 ‖ B 96 ‖ C 48, compressed) concatenated in partition order. Shared by the
 * HTTP API ("proof_b64") and the gRPC API (AwaitProofResponse.proof).
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
 * PM_ERR_ARG (the job is not DONE), PM_ERR_FORMAT (a partition's proof is not a 192-byte
 * bellperson proof in that JSON shape, e.g. a snarkjs job), PM_ERR_NOMEM. */
pm_status pm_job_proof_bytes(uint8_t **out, size_t *len, const pm_job_info *info, pm_error *err);

/* Standard base64 (RFC 4648 §4, with padding) of in[n] into a malloc'd NUL-terminated string, or
 * NULL on OOM. */
char *pm_base64_encode(const uint8_t *in, size_t n);

#ifdef __cplusplus
}
#endif
#endif
