/*
 * vanilla_verify.h — check every value of a C1 (vanilla proofs of all partitions): challenges,
 * Merkle paths, columns, labels, encodings, commitments.
 *
 * Source: rust-fil-proofs storage-proofs-porep stacked/vanilla/proof_scheme.rs
 * `verify_all_partitions`, params.rs `Proof::verify`, column_proof.rs, labeling_proof.rs,
 * encoding_proof.rs; POREP.md §4-5. What is checked for partition k, challenge i:
 *   challenge  c = the derived challenge (interactive from replica_id + seed; NI from replica_id
 *              + comm_r; synthetic-PoRep proofs are refused: their challenges need the
 *              synthetic proof file); every index that names c agrees (tree-D/R/C path indices,
 *              c_x.column.index, labeling/encoding node);
 *   comm_d_proofs: SHA-256 path of leaf c hashes to comm_d;
 *   comm_r_last_proof: Poseidon path of leaf c; its root is comm_r_last (the same in all proofs);
 *   columns (c_x, 6 DRG, 8 expander parents): index = the graph's parent in slot order, leaf =
 *              Poseidon_L(rows), path to comm_c (= the c_x root; the same in all proofs);
 *   comm_r = Poseidon_2(comm_c, comm_r_last);
 *   labeling_proofs[l−1]: layer_index l, parents = the parent columns' rows expanded to 37
 *              slots, label(l, c) from them = c_x.rows[l−1];
 *   encoding_proof: layer L, parents as the last labeling proof; c_x.rows[L−1] + data leaf
 *              (comm_d proof leaf) = replica leaf (comm_r_last proof leaf) in Fr.
 * Every Poseidon input must be a canonical Fr (< r) — checked, not reduced.
 */
#ifndef PROOFMILL_FILECOIN_VANILLA_VERIFY_H
#define PROOFMILL_FILECOIN_VANILLA_VERIFY_H

#include <stdint.h>

#include "filecoin/vanilla_proof.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the first failure was found. */
typedef struct {
    uint32_t partition, challenge; /* UINT32_MAX when the failure is not in a proof */
    uint64_t node;                 /* the derived challenge node */
    char field[200];               /* e.g. "replica_column_proofs.drg_parents[2].inclusion_proof" */
} fil_verify_failure_t;

/* PM_OK when every check passes. Otherwise PM_ERR_UNSATISFIED (a value is wrong) or
 * PM_ERR_ARG (a registered proof whose challenges cannot be derived here); err->msg reads
 * "partition K, challenge I (node C): FIELD: what" and *where (if non-NULL) gets the parts.
 * c1 must have passed the reader's shape checks (or come from fil_c1_from_seal/synth). */
pm_status fil_c1_verify(const fil_c1_t *c1, fil_verify_failure_t *where, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
