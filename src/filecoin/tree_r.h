/*
 * tree_r.h — encoding and tree R_last (PC2, second half).
 *
 * Source: rust-fil-proofs storage-proofs-porep stacked/vanilla/encode.rs `encode`, proof.rs
 * `prepare_tree_r_data_cpu`; POREP.md §4.3.
 * key = label of the last layer at v; replica node = key + data node as an Fr addition (both are
 * canonical LE domain bytes; the data node is the fr32-padded sector data at v). Tree R_last:
 * Poseidon octree of the sector's 8-s-t shape over the replica nodes; comm_r_last = root.
 * (rows_to_discard only changes what is cached on disk, not the root.)
 */
#ifndef PROOFMILL_FILECOIN_TREE_R_H
#define PROOFMILL_FILECOIN_TREE_R_H

#include <stdint.h>

#include "filecoin/merkle.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = key + data (mod r), domain bytes. Returns 0, or -1 when key or data is not canonical
 * (out is then zeroed). */
int fil_encode_node(uint8_t out[32], const uint8_t key[32], const uint8_t data[32]);
/* data = replica − key (mod r): the inverse of fil_encode_node (decoding). Same errors. */
int fil_decode_node(uint8_t data[32], const uint8_t replica[32], const uint8_t key[32]);

/* Allocate and build tree R_last of shape s over the encoded nodes key_layer[v] + data[v]
 * (s->leaves nodes each). Errors: PM_ERR_NOMEM; PM_ERR_ENCODING when a data node is not
 * canonical (offset = byte offset of the node in data). */
pm_status fil_tree_r_build(fil_tree_t *t, const fil_tree_shape_t *s, const uint8_t *key_layer,
                           const uint8_t *data, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
