/*
 * graph.h — the SDR (stacked depth-robust) graph of Filecoin's StackedDRG PoRep: 6 DRG parents
 * (bucket sampling, same layer) and 8 expander parents (Feistel permutation, previous layer) per
 * node, for every sector size and API version.
 *
 * Sources: rust-fil-proofs storage-proofs-core/src/drgraph.rs (BucketGraph::parents, seeds,
 * identifier), crypto/mod.rs (derive_porep_domain_seed), crypto/feistel.rs, storage-proofs-porep
 * stacked/vanilla/graph.rs (StackedGraph: expander parents, API version differences, identifier);
 * rand_chacha 0.3 ChaCha8Rng (from_seed, next_u64); Bernstein, "ChaCha, a variant of Salsa20"
 * (2008); POREP.md §1.4, §3.1-3.3.
 *
 * DRG parents of node v (u32, same layer): v = 0, 1: all 0. v >= 2: ChaCha8 keyed with
 * DRG seed (28 bytes) || v as u32 LE, 64-bit block counter from 0, nonce 0; each draw is a u64
 * from two consecutive output words (low first). m' = 5, meta = 5v, buckets = ceil(log2(meta))
 * (f64). Per sampled slot: bucket = draw % buckets + 1; hi = min(meta, 2^bucket);
 * lo = max(2, hi >> 1); dist = lo + draw % (hi - lo + 1); p = (meta - dist) / 5; p == v -> v - 1.
 * V1_0_0: sampled in slots 0..4, v - 1 in slot 5. V1_1_0 / V1_2_0: v - 1 in slot 0, sampled 1..5.
 * Expander parents of node v (u32, previous layer, layers >= 2): e_i = permute(8v + i) over
 * [0, 8 nodes), parent_i = e_i / 8 (V1_1+, 64-bit) or (u32)e_i / 8 (V1_0_0, truncated).
 *
 * All functions are variable time (the graph is public).
 */
#ifndef PROOFMILL_FILECOIN_GRAPH_H
#define PROOFMILL_FILECOIN_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/feistel.h"
#include "filecoin/sizes.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t nodes;            /* nodes per layer (sector bytes / 32) */
    fil_api_version_t api_version;
    uint8_t porep_id[32];
    uint8_t drg_seed[28];      /* first 28 bytes of SHA-256("Filecoin_DRSample" || porep_id) */
    fil_feistel_t feistel;     /* domain 8 * nodes, keys from "Filecoin_Feistel" */
} fil_graph_t;

/* Set up the graph of `nodes` nodes (2 <= nodes <= 2^32) for porep_id and API version.
 * Errors: PM_ERR_ARG (nodes out of range, unknown version). */
pm_status fil_graph_init(fil_graph_t *g, uint64_t nodes, const uint8_t porep_id[32],
                         fil_api_version_t v, pm_error *err);

/* out[6] = DRG parents of v (v < nodes). */
void fil_graph_drg_parents(uint32_t out[6], const fil_graph_t *g, uint64_t v);
/* out[8] = expander parents of v (v < nodes). */
void fil_graph_exp_parents(uint32_t out[8], const fil_graph_t *g, uint64_t v);
/* out[14 * count]: for v = first .. first + count - 1, its 6 DRG then 8 expander parents (the
 * parent-cache row). Batched (SIMD Feistel); same values as the single-node functions. */
void fil_graph_parents_range(uint32_t *out, const fil_graph_t *g, uint64_t first, uint64_t count);

/* The graph identifier string (graph.rs / drgraph.rs `identifier`):
 * "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: drgraph::BucketGraph{size: N;
 * degree: 6; hasher: poseidon_hasher} }" (one line). Writes at most cap bytes incl. NUL;
 * returns the length it needs (snprintf convention). */
int fil_graph_identifier(char *out, size_t cap, uint64_t nodes);

/* ChaCha block function (RFC 8439 §2.3 state layout, `rounds` = 8 or 20, even): out = the 16
 * output words (working state after rounds/2 double rounds, plus the input). Exposed for tests. */
void fil_chacha_block(uint32_t out[16], const uint32_t in[16], unsigned rounds);

#ifdef __cplusplus
}
#endif
#endif
