/*
 * tree_c.h — column hashes and tree C (PC2, first half).
 *
 * Source: rust-fil-proofs storage-proofs-porep stacked/vanilla/proof.rs `generate_tree_c_cpu`,
 * hash.rs `hash_single_column`; POREP.md §2.3, §4.3.
 * Column of node v = (label(1, v), …, label(L, v)); column hash = Poseidon of arity L (2 for the
 * 2-layer test sizes, 11 for 32/64 GiB; MerkleTree tag, neptune v11) over the rows in layer order.
 * Tree C: Poseidon octree (8-s-t shape of the sector size) over the column hashes; comm_c = root.
 * Labels are stored layer-major: labels[(l·nodes + v)·32] = label(l+1, v), LE domain bytes.
 */
#ifndef PROOFMILL_FILECOIN_TREE_C_H
#define PROOFMILL_FILECOIN_TREE_C_H

#include <stdint.h>

#include "filecoin/merkle.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = Poseidon_L(rows[0..L)) — rows[l] = label of layer l+1 (canonical LE bytes). */
void fil_column_hash(uint8_t out[32], const uint8_t (*rows)[32], unsigned layers);

/* Allocate and build tree C of shape s (s->leaves = nodes) from layer-major labels (OpenMP over
 * the columns). Errors: PM_ERR_NOMEM, PM_ERR_ARG (layers not 1..16). */
pm_status fil_tree_c_build(fil_tree_t *t, const fil_tree_shape_t *s, const uint8_t *labels,
                           unsigned layers, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
