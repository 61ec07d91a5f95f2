/*
 * merkle_sha256.h — binary SHA-256 Merkle trees as Filecoin's tree D (comm_d) uses them.
 *
 * Tree (POREP.md §1.2, §2.2; filecoin-hashers sha256.rs, merkletree crate BinaryMerkleTree):
 *   leaves = the raw 32-byte data nodes (no leaf hashing); parent = trim(SHA-256(left || right))
 *   (fil_sha256_node); the number of leaves is a power of two (>= 1; one leaf = its own root).
 *   Full-tree layout (merkletree crate): row 0 = the n leaves, then row 1 (n/2 nodes), ...,
 *   root last: 2n - 1 nodes of 32 bytes, node (row, i) at offset (n + n/2 + ... + i) * 32.
 *   Path of leaf index c: siblings from the leaf row upward; bit k of c (LSB first) says whether
 *   the node at row k is a right child.
 * Zero sectors (POREP.md §4.4): z0 = 32 zero bytes, z(k+1) = trim(SHA-256(z(k) || z(k))),
 *   comm_d of an all-zero sector of 2^k nodes = z(k).
 *
 * Public for the sealing code (tree D, comm_d, tree D paths in C1) and tests. Byte strings are
 * domains (sha256_fr.h): LE canonical Fr integers, 32 bytes each.
 */
#ifndef PROOFMILL_FILECOIN_MERKLE_SHA256_H
#define PROOFMILL_FILECOIN_MERKLE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Streaming root: push leaves in order, O(log n) memory, no allocation. */
typedef struct {
    uint8_t stack[64][32]; /* stack[k]: pending left node at row k, valid when bit k of count */
    uint64_t count;        /* leaves pushed so far */
} fil_sha256_root_t;

void fil_sha256_root_init(fil_sha256_root_t *s);
/* Push n consecutive leaves (32 bytes each, leaves[32 * n]). */
void fil_sha256_root_push(fil_sha256_root_t *s, const uint8_t *leaves, uint64_t n);
/* root = the root once count leaves were pushed. Errors: PM_ERR_ARG when count is 0 or not a
 * power of two (out is then zeroed). */
pm_status fil_sha256_root_final(uint8_t root[32], const fil_sha256_root_t *s, pm_error *err);

/* One call: root of leaves[32 * n]; errors as fil_sha256_root_final. */
pm_status fil_sha256_root(uint8_t root[32], const uint8_t *leaves, uint64_t n, pm_error *err);

/* Nodes in a full tree of n leaves: 2n - 1 (32 bytes each). */
static inline uint64_t fil_sha256_tree_nodes(uint64_t n_leaves) { return 2 * n_leaves - 1; }
/* Fill rows 1.. of tree (tree[32 * (2n-1)] bytes, caller-owned), whose first 32n bytes already
 * hold the leaves. Errors: PM_ERR_ARG when n is 0 or not a power of two. Single-threaded. */
pm_status fil_sha256_tree_build(uint8_t *tree, uint64_t n_leaves, pm_error *err);
/* Siblings of leaf `index` from the leaf row up: siblings[32 * depth], depth = log2(n).
 * Errors: PM_ERR_ARG (n not a power of two, index >= n, depth != log2 n). */
pm_status fil_sha256_tree_path(uint8_t *siblings, unsigned depth, const uint8_t *tree,
                               uint64_t n_leaves, uint64_t index, pm_error *err);
/* Recompute the root from a leaf, its index and its siblings (verification helper). */
void fil_sha256_path_root(uint8_t root[32], const uint8_t leaf[32], uint64_t index,
                          const uint8_t *siblings, unsigned depth);

/* z(k): root of an all-zero tree with 2^k leaves (k <= 63). */
void fil_sha256_zero_root(uint8_t out[32], unsigned k);
/* comm_d of an all-zero (CC) sector of sector_size bytes (a power of two >= 32).
 * Errors: PM_ERR_ARG otherwise. */
pm_status fil_comm_d_zero(uint8_t out[32], uint64_t sector_size, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
