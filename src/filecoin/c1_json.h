/*
 * c1_json.h — the C1 output (SealCommitPhase1Output) as JSON in Filecoin's exact shape, and the
 * lotus-bench envelope around it.
 *
 * Shape (serde_json defaults over rust-filecoin-proofs-api seal.rs SealCommitPhase1Output and the
 * rust-fil-proofs types listed in vanilla_proof.h; POREP.md §8; also the Go port in curio
 * lib/proof/porep_vproof_types.go):
 *   {"registered_proof":"StackedDrg2KiBV1_1",
 *    "vanilla_proofs":{"StackedDrg2KiBV1":[[<Proof> × challenges] × partitions]},
 *    "comm_r":D,"comm_d":D,"replica_id":D,"seed":D,"ticket":D}
 *   <Proof> = {"comm_d_proofs":MP,"comm_r_last_proof":MP,
 *              "replica_column_proofs":{"c_x":CP,"drg_parents":[CP×6],"exp_parents":[CP×8]},
 *              "labeling_proofs":[LP×L],"encoding_proof":LP}
 *   CP = {"column":{"index":u32,"rows":[D×L],"_h":null},"inclusion_proof":MP}
 *   LP = {"parents":[D×37],"layer_index":u32,"node":u64}
 *   MP = {"data":{"Single":{"root":D,"leaf":D,"path":P}}}
 *      | {"data":{"Sub":{"base_proof":P,"sub_proof":P,"root":D,"leaf":D}}}
 *      | {"data":{"Top":{"base_proof":P,"sub_proof":P,"top_proof":P,"root":D,"leaf":D}}}
 *   P = {"path":[{"hashes":[D×(arity−1)],"index":n}, … leaf level first]}
 *   D = JSON array of 32 integers 0..255: the little-endian canonical bytes of the domain value.
 * The vanilla_proofs tag is always the V1 name of the size (VanillaSealProof enum), whatever the
 * registered proof's version. Written compactly (no spaces), keys in declaration order, like
 * serde_json::to_vec. A synthetic C1 (synth_c1.h) carries one extra top-level key,
 * "_proofmill_synthetic": "<why>", which serde ignores (no deny_unknown_fields) and our reader
 * reports as c1->synthetic = 1.
 *
 * lotus-bench envelope (lotus cmd/lotus-bench, `Commit1Out` JSON): {"SectorNum":N,
 * "Phase1Out":"<standard base64 with padding of the C1 JSON bytes>","SectorSize":bytes}.
 *
 * Reading validates the shape against the sector size of "registered_proof": the vanilla tag
 * names the same size, partitions/challenges are as in sizes.h (fil_sector_info), every path has
 * the tree's element and sibling counts (tree D: log2(nodes) elements of 1 sibling; trees C and
 * R_last: the 8-s-t shape), rows = L, labeling proofs = L, parents = 37, 6 DRG and 8 expander
 * columns. Values (hashes, labels, indices) are NOT checked here: vanilla_verify.h does that.
 * Errors: PM_ERR_FORMAT with err->msg naming the JSON path, e.g.
 *   "vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.drg_parents[3].column.rows:
 *    expected 2 rows, found 3"; JSON syntax errors name line/column and offset (err->offset).
 */
#ifndef PROOFMILL_FILECOIN_C1_JSON_H
#define PROOFMILL_FILECOIN_C1_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "filecoin/vanilla_proof.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Serialise c1 into a malloc'd buffer (*out, *len; NUL-terminated, not counted).
 * Errors: PM_ERR_NOMEM, PM_ERR_ARG (unknown registered proof). */
pm_status fil_c1_to_json(char **out, size_t *len, const fil_c1_t *c1, pm_error *err);
/* Write the C1 JSON to path. Errors: as above, PM_ERR_IO. */
pm_status fil_c1_write_json_file(const char *path, const fil_c1_t *c1, pm_error *err);
/* Write the lotus-bench envelope around the C1 JSON to path. */
pm_status fil_c1_write_envelope_file(const char *path, const fil_c1_t *c1, uint64_t sector_num,
                                     pm_error *err);

/* Parse C1 JSON bytes buf[len] (name labels errors) with the schema-driven single-pass reader
 * (c1_read_fast.c: no tree of the document; docs/perf/porep.md says why). The tests check it
 * against a reader over a jansson tree kept in tests/filecoin/c1_read_jansson.c (same result, same
 * checks). On error *c1 is left freed/zeroed. */
pm_status fil_c1_from_json(fil_c1_t *c1, const char *buf, size_t len, const char *name, pm_error *err);
/* Read a file holding either the C1 JSON or the lotus-bench envelope (detected by a top-level
 * "Phase1Out" key; then *sector_num receives SectorNum when non-NULL, and SectorSize must agree
 * with the C1's size). Errors: PM_ERR_IO, PM_ERR_FORMAT, PM_ERR_MISMATCH (envelope size). */
pm_status fil_c1_read_file(fil_c1_t *c1, uint64_t *sector_num, const char *path, pm_error *err);
/* The same from a memory image buf[len] of such a file (a C1 sent inline, e.g. Curio's
 * vanilla_proof bytes); name labels errors. */
pm_status fil_c1_read_memory(fil_c1_t *c1, uint64_t *sector_num, const char *buf, size_t len, const char *name,
                             pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
