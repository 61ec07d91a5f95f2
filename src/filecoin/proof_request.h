/*
 * proof_request.h — a PoSt / SnapDeals proof request as Curio sends it to a proving daemon (the
 * fields of cuzk.v1 SubmitProofRequest, curio extern/cuzk/cuzk-proto/proto/cuzk/v1/proving.proto,
 * as lib/ffi/cuzk_funcs.go fills them), in memory and as files.
 *
 * Fields used: proof_kind (WINNING_POST, WINDOW_POST_PARTITION, SNAP_DEALS_UPDATE), sector_size,
 * registered_proof (the numeric RegisteredPoStProof / RegisteredUpdateProof), miner_id,
 * sector_number, randomness (32 bytes, PoSt), partition_index (WindowPoSt), vanilla_proofs (one
 * bincode blob per sector or partition), comm_r_old, comm_r_new, comm_d_new (raw 32 bytes, SnapDeals).
 *
 * Files:
 *  - request JSON: one object with those fields in proto3's JSON mapping (bytes as standard base64,
 *    64-bit integers as numbers or decimal strings; snake_case or lowerCamelCase names, e.g.
 *    "registered_proof" / "registeredProof"). Unknown fields (request_id, priority, ...) are ignored.
 *  - vanilla list JSON: what Go's json.Marshal([][]byte) writes and Curio stores (and cuzk-bench's
 *    gen-vanilla writes): an array of base64 strings, one per bincode blob.
 * Errors name the file and the field (JSON line where jansson gives one).
 */
#ifndef PROOFMILL_FILECOIN_PROOF_REQUEST_H
#define PROOFMILL_FILECOIN_PROOF_REQUEST_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    FIL_REQ_UNSPECIFIED = 0,
    FIL_REQ_SNAP_DEALS_UPDATE = 2,
    FIL_REQ_WINDOW_POST_PARTITION = 3,
    FIL_REQ_WINNING_POST = 4
} fil_request_kind_t; /* cuzk.v1 ProofKind numbers */

typedef struct fil_proof_request {
    fil_request_kind_t kind;
    uint64_t sector_size, registered_proof, miner_id, sector_number;
    uint32_t partition_index;
    int has_miner_id;    /* miner_id was given (0 is an actor id too) */
    int has_randomness, has_comm_r_old, has_comm_r_new, has_comm_d_new, has_prover_id;
    uint8_t randomness[32], comm_r_old[32], comm_r_new[32], comm_d_new[32];
    uint8_t prover_id[32]; /* filecoin-ffi's prover id (the miner's address payload, zero-padded);
                              not a cuzk.v1 field: from miner_id when absent (fil_prover_id_from_miner) */
    size_t n_vanilla;
    uint8_t **vanilla;   /* n_vanilla malloc'd blobs */
    size_t *vanilla_len;
} fil_proof_request_t;

/* "WINNING_POST" etc. ("" for UNSPECIFIED). */
const char *fil_request_kind_name(fil_request_kind_t k);

/* Read a request JSON file (format above) into *r (zeroed first). A field of the wrong type or a
 * byte string of the wrong length (randomness and commitments must be 32 bytes) is PM_ERR_FORMAT
 * naming it; a missing "vanilla_proofs" is PM_ERR_FORMAT. Errors: PM_ERR_IO, PM_ERR_FORMAT,
 * PM_ERR_NOMEM. */
pm_status fil_proof_request_read(fil_proof_request_t *r, const char *path, pm_error *err);
/* Write *r as a request JSON file (all fields above; bytes as base64). Errors: PM_ERR_IO, PM_ERR_NOMEM. */
pm_status fil_proof_request_write(const char *path, const fil_proof_request_t *r, pm_error *err);
/* Read a vanilla list JSON (Go [][]byte) into r->vanilla (replacing what r had). Errors as above. */
pm_status fil_vanilla_list_read(fil_proof_request_t *r, const char *path, pm_error *err);
/* Write r's vanilla blobs as a vanilla list JSON. */
pm_status fil_vanilla_list_write(const char *path, const fil_proof_request_t *r, pm_error *err);
/* ---- the request's fields as named job inputs (the proof kinds of src/kinds/filecoin/) ----
 * Every field but the vanilla proofs, by its proto name: the numbers sector_size, registered_proof
 * (< 2^32), miner_id, sector_number, partition_index (< 2^32) as decimal ASCII text ("13"; one
 * final '\n' allowed, nothing else), the byte strings randomness, prover_id, comm_r_old,
 * comm_r_new, comm_d_new as their 32 raw bytes. */
#define FIL_REQUEST_FIELD_COUNT 10u
/* The name of field i (< FIL_REQUEST_FIELD_COUNT), in the order above; NULL past the end. */
const char *fil_proof_request_field_name(unsigned i);
/* Set field `name` of r from v[len] (the encoding above). label names the input in errors.
 * Errors: PM_ERR_ARG (not a field name), PM_ERR_FORMAT naming label and field (not decimal, too
 * large, not 32 bytes). */
pm_status fil_proof_request_set_field(fil_proof_request_t *r, const char *name, const uint8_t *v, size_t len,
                                      const char *label, pm_error *err);
/* Field `name` of r in that encoding into out (cap >= 32 bytes): *len bytes; 0 when r has it (a
 * number always, a byte string when its has_ flag is set), -1 when not (or no such field). */
int fil_proof_request_get_field(uint8_t *out, size_t cap, size_t *len, const fil_proof_request_t *r, const char *name);

/* Append one blob (copied). Errors: PM_ERR_NOMEM. */
pm_status fil_proof_request_add_vanilla(fil_proof_request_t *r, const uint8_t *blob, size_t len, pm_error *err);
void fil_proof_request_free(fil_proof_request_t *r);

#ifdef __cplusplus
}
#endif
#endif
