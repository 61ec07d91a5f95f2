/*
 * bucket_tree.h — a Filecoin Merkle tree (merkle.h shapes, SHA-256 or Poseidon) whose leaves are
 * constant on aligned blocks ("buckets") of 2^s consecutive leaves: leaf i = values[i >> s].
 *
 * Used to build SnapDeals test inputs of 512 MiB / 32 GiB / 64 GiB shape without 2^30 leaves: a
 * sector whose key and data are constant per rho bucket (update.h) has exactly such trees. Every
 * node whose subtree lies inside one bucket equals the bucket's uniform subtree node of its level,
 * so levels with span (leaves below a node) <= 2^s are stored once per bucket; the levels above
 * have fewer nodes than there are buckets and are stored in full. Cost: nbuckets · (levels) hashes,
 * memory nbuckets · (uniform levels + 2) · 32 bytes.
 * Node values are domain bytes; hashes as fil_node_hash (merkle.h).
 */
#ifndef PROOFMILL_FILECOIN_BUCKET_TREE_H
#define PROOFMILL_FILECOIN_BUCKET_TREE_H

#include <stdint.h>

#include "filecoin/merkle.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    fil_tree_shape_t shape;
    unsigned bucket_bits;                       /* s */
    uint64_t nbuckets;                          /* leaves >> s */
    unsigned top_uniform;                       /* highest level whose span is <= 2^s */
    uint64_t span[FIL_MERKLE_MAX_LEVELS + 1];   /* leaves below a node of level k */
    uint8_t *uniform;                           /* [(k · nbuckets + b) · 32], k <= top_uniform */
    uint8_t *level[FIL_MERKLE_MAX_LEVELS + 1];  /* levels above top_uniform, all nodes */
} fil_bucket_tree_t;

/* Build from values[nbuckets · 32] (canonical domain values for Poseidon trees). Requires 2^s to
 * divide the leaf count (PM_ERR_ARG). Errors: PM_ERR_ARG, PM_ERR_NOMEM. */
pm_status fil_bucket_tree_build(fil_bucket_tree_t *t, const fil_tree_shape_t *s, unsigned bucket_bits,
                                const uint8_t *values, pm_error *err);
/* fil_tree_node_fn for a fil_bucket_tree_t. */
const uint8_t *fil_tree_node_bucket(const void *t, unsigned k, uint64_t i);
const uint8_t *fil_bucket_tree_root(const fil_bucket_tree_t *t);
void fil_bucket_tree_free(fil_bucket_tree_t *t);

#ifdef __cplusplus
}
#endif
#endif
