/*
 * labels.h — SDR labelling (PC1): label(L, v) for every layer L = 1..layers and node v.
 *
 * Source: rust-fil-proofs storage-proofs-porep stacked/vanilla/create_label/single.rs,
 * labeling_proof.rs, graph.rs `copy_parents_data*`; POREP.md §4.2.
 * Preimage = replica_id[32] ‖ layer u32 BIG-endian ‖ node u64 BIG-endian ‖ 20 zero bytes (64-byte
 *   header), then for node > 0 the 37 parent labels (32 bytes each): layer 1: the 6 DRG parents'
 *   layer-1 labels, slots 0..35 = 6 × (p0..p5), slot 36 = p0; layer ≥ 2: p0..p5 from layer L and
 *   e0..e7 from layer L−1, slots 0..27 = 2 × (p0..p5 e0..e7), slots 28..36 = p0..p5 e0 e1 e2.
 *   Node 0 hashes the 64-byte header only.
 * label = SHA-256(preimage) with byte 31 &= 0x3F (a canonical Fr, LE domain bytes).
 * Parents: 6 DRG (same layer, all < v for v ≥ 2) then 8 expander (previous layer) per node, as
 * the SDR graph gives them (the graph module; its parent-cache row order).
 */
#ifndef PROOFMILL_FILECOIN_LABELS_H
#define PROOFMILL_FILECOIN_LABELS_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/graph.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Expand parent labels into the 37 hashed slots. exp may be NULL for layer 1 (then only drg is
 * used). */
void fil_label_expand_parents(uint8_t out[37][32], unsigned layer, const uint8_t drg[6][32],
                              const uint8_t exp[8][32]);

/* label(layer, node) from the 37 expanded parent labels (ignored, may be NULL, when node = 0). */
void fil_label_compute(uint8_t out[32], const uint8_t replica_id[32], unsigned layer, uint64_t node,
                       const uint8_t parents37[37][32]);

/* Label one whole layer of g->nodes nodes: out[nodes·32]; prev = the previous layer's labels
 * (NULL for layer 1). Parents come from the graph in batches (fil_graph_parents_range, 64 Ki
 * nodes at a time); labelling is sequential in v (DRG parents of the same layer must be ready).
 * Errors: PM_ERR_NOMEM (the parent batch), PM_ERR_ARG (layer ≥ 2 without prev). */
pm_status fil_label_layer(uint8_t *out, const uint8_t *prev, unsigned layer,
                          const uint8_t replica_id[32], const fil_graph_t *g, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
