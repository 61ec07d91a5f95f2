/*
 * merkle.h — Filecoin Merkle trees for the PoRep: the binary SHA-256 tree D (comm_d) and the
 * Poseidon trees C and R_last with base/sub/top arities, their inclusion proofs and the check of
 * a proof against a root. Dense trees (sealing small sectors) and sparse trees (synthetic C1 of
 * 32/64 GiB shape, where every node outside the opened paths is a fixed "default" hash).
 *
 * Model. A compound tree LCTree<H, 8, sub, top> (rust-fil-proofs storage-proofs-core
 * merkle/builders.rs, merkle/proof.rs; POREP.md §1.2) is the same thing as one tree whose levels
 * have different arities: base levels of arity 8 over each of the base trees laid side by side,
 * then one level of arity `sub` over the base roots, then one level of arity `top` over the sub
 * roots. The node at level k+1, index j, is H_a(children j·a .. j·a+a−1 of level k), a = arity of
 * level k. So a leaf index i is consumed least significant digit first: i mod a_0 is the position
 * in the first group, and so on (POREP.md §1.2: 3 bits per base level, then log2(sub), log2(top)).
 *
 * Node values are 32-byte domain values: the little-endian canonical bytes of an Fr (never
 * Montgomery), as Filecoin serialises Sha256Domain/PoseidonDomain (POREP.md §2.1).
 * Hashes: SHA-256 tree D node = trim(SHA-256(left ‖ right)) (byte 31 &= 0x3F; no leaf hashing);
 * Poseidon node of arity a = neptune v11 Poseidon, Standard strength, MerkleTree tag 2^a − 1, over
 * the a children in order (POREP.md §2.2, §2.3). The hashing itself comes from the primitives
 * (src/filecoin/sha256_trim.h, poseidon.h); this file only arranges it.
 *
 * Proof JSON variants (merkle/proof.rs ProofData): Single {root, leaf, path} for base-only shapes
 * and tree D; Sub {base_proof, sub_proof, root, leaf}; Top {base_proof, sub_proof, top_proof,
 * root, leaf}. Every path element holds arity − 1 sibling hashes and `index` = position of the
 * current node among its siblings (0..arity−1).
 *
 * Argument order: output first, then inputs; an array's length right after it. Errors: pm_status
 * + pm_error (util/error.h); nothing aborts on user data.
 */
#ifndef PROOFMILL_FILECOIN_MERKLE_H
#define PROOFMILL_FILECOIN_MERKLE_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FIL_MERKLE_MAX_ARITY 8
#define FIL_MERKLE_MAX_LEVELS 40

typedef enum { FIL_HASHER_SHA256 = 1, FIL_HASHER_POSEIDON = 2 } fil_hasher_t;
typedef enum { FIL_PROOF_SINGLE = 0, FIL_PROOF_SUB = 1, FIL_PROOF_TOP = 2 } fil_proof_kind_t;

/* Shape of a (compound) tree. level_arity[k] is the arity of hashing level k (leaves are level 0).
 * nbase + nsub + ntop = nlevels; nsub, ntop ∈ {0, 1}. kind: Single when there is no sub level. */
typedef struct {
    fil_hasher_t hasher;
    fil_proof_kind_t kind;
    uint64_t leaves;
    unsigned nlevels, nbase, nsub, ntop;
    unsigned level_arity[FIL_MERKLE_MAX_LEVELS];
} fil_tree_shape_t;

/* Fill a shape: `leaves` leaves, base arity (2 or 8), sub arity (0, 2, 4 or 8; 4 only in the PoSt
 * test shapes of rust-fil-proofs' fallback_circuit.rs), top arity (0 or 2).
 * The leaves are cut into base_count = max(sub,1)·max(top,1) base trees (POREP.md §1.2).
 * Errors: PM_ERR_ARG when leaves is not base_count · base_arity^k (k ≥ 1) or an arity is
 * unsupported (top without sub, base arity other than 2/8, SHA-256 with arity ≠ 2). */
pm_status fil_tree_shape_init(fil_tree_shape_t *s, uint64_t leaves, fil_hasher_t hasher,
                              unsigned base_arity, unsigned sub_arity, unsigned top_arity,
                              pm_error *err);

/* Hash `arity` 32-byte children (in[arity·32], domain bytes) into out (domain bytes) with the
 * shape's hasher: SHA-256 trimmed (arity 2 only) or Poseidon of that arity. Children must be
 * canonical Fr for Poseidon (< r; a non-canonical child is reduced — callers validate first). */
void fil_node_hash(uint8_t out[32], fil_hasher_t hasher, const uint8_t *in, unsigned arity);

/* One path element: hashes[0..nhashes) siblings in order (the current node removed),
 * index = the current node's position among the arity children. */
typedef struct {
    uint8_t hashes[FIL_MERKLE_MAX_ARITY - 1][32];
    uint32_t nhashes;
    uint64_t index;
} fil_path_elem_t;

/* An inclusion proof in Filecoin's shape. elems[0..nbase) = base path (leaf level first), then
 * nsub sub elements, then ntop top elements. Memory of elems: owned by whoever filled it (an
 * arena in C1 documents, see vanilla_proof.h; malloc for fil_merkle_proof_free). */
typedef struct {
    fil_proof_kind_t kind;
    uint8_t root[32], leaf[32];
    uint32_t nbase, nsub, ntop;
    fil_path_elem_t *elems;
} fil_merkle_proof_t;

/* The leaf index a proof's element indices spell (Σ index_k · Π_{j<k} arity_j); arities are taken
 * from nhashes + 1. Returns UINT64_MAX on overflow or an index ≥ arity. */
uint64_t fil_merkle_proof_leaf_index(const fil_merkle_proof_t *p);

/* Check a proof against a shape: kind, element counts and per-level sibling counts match the
 * shape, every index < arity, the indices spell `index` (pass UINT64_MAX to skip), and folding
 * leaf with the path gives root. Does not compare root with a commitment (the caller does).
 * Returns PM_OK or PM_ERR_MISMATCH with err->msg naming the failing level ("level 3: computed
 * root differs", "path element 2: 7 hashes, expected 1", ...). */
pm_status fil_merkle_proof_check(const fil_merkle_proof_t *p, const fil_tree_shape_t *s,
                                 uint64_t index, pm_error *err);

/* Dense tree: every level stored, level[0] = leaves (width[0] = shape.leaves), level[nlevels] =
 * the root. Memory: one malloc per level, ≈ leaves·32·(1 + 1/(a−1)) bytes. */
typedef struct {
    fil_tree_shape_t shape;
    uint8_t *level[FIL_MERKLE_MAX_LEVELS + 1];
    uint64_t width[FIL_MERKLE_MAX_LEVELS + 1];
} fil_tree_t;

/* Allocate every level of a tree of this shape; the caller then writes the leaves into
 * t->level[0] (width[0]·32 bytes) and calls fil_tree_build. Errors: PM_ERR_NOMEM. */
pm_status fil_tree_alloc(fil_tree_t *t, const fil_tree_shape_t *s, pm_error *err);
/* Hash every level above the leaves (OpenMP over the nodes of a level). */
void fil_tree_build(fil_tree_t *t);
/* The root (32 domain bytes) of a built tree. */
const uint8_t *fil_tree_root(const fil_tree_t *t);
void fil_tree_free(fil_tree_t *t);

/* Sparse tree: only the nodes on the paths of a set of set leaves are stored; every other node at
 * level k equals defaults[k] (defaults[0] = the fixed leaf, defaults[k+1] = H(defaults[k] × a_k)).
 * Used by the synthetic C1 generator (synth_c1.h) for 2^30/2^31-leaf trees. */
typedef struct {
    uint64_t idx;
    uint8_t v[32];
} fil_sparse_node_t;

typedef struct {
    fil_tree_shape_t shape;
    uint8_t defaults[FIL_MERKLE_MAX_LEVELS + 1][32];
    fil_sparse_node_t *lv[FIL_MERKLE_MAX_LEVELS + 1]; /* sorted by idx, unique */
    size_t n[FIL_MERKLE_MAX_LEVELS + 1];
} fil_sparse_tree_t;

/* Build a sparse tree from n (index, leaf) pairs (any order; a repeated index must carry the same
 * value, else PM_ERR_ARG) and the default leaf value. Errors: PM_ERR_ARG (index ≥ leaves,
 * conflicting duplicates), PM_ERR_NOMEM. */
pm_status fil_sparse_tree_build(fil_sparse_tree_t *t, const fil_tree_shape_t *s,
                                const fil_sparse_node_t *leaves, size_t n,
                                const uint8_t default_leaf[32], pm_error *err);
const uint8_t *fil_sparse_tree_root(const fil_sparse_tree_t *t);
void fil_sparse_tree_free(fil_sparse_tree_t *t);

/* Inclusion proof of leaf `index` from a dense or a sparse tree. elems must have room for
 * shape.nlevels elements (the proof points at it; nothing is allocated). Errors: PM_ERR_ARG
 * (index out of range). */
pm_status fil_tree_prove(fil_merkle_proof_t *p, fil_path_elem_t *elems, const fil_tree_t *t,
                         uint64_t index, pm_error *err);
pm_status fil_sparse_tree_prove(fil_merkle_proof_t *p, fil_path_elem_t *elems,
                                const fil_sparse_tree_t *t, uint64_t index, pm_error *err);

/* A tree given by its nodes: node(t, k, i) = the 32 domain bytes of node i at level k (level 0 =
 * leaves, level nlevels = the root). Dense and sparse trees have one each; other layouts (the
 * bucket trees of bucket_tree.h) bring their own. */
typedef const uint8_t *(*fil_tree_node_fn)(const void *t, unsigned k, uint64_t i);
const uint8_t *fil_tree_node_dense(const void *t, unsigned k, uint64_t i);  /* t: fil_tree_t */
const uint8_t *fil_tree_node_sparse(const void *t, unsigned k, uint64_t i); /* t: fil_sparse_tree_t */
/* Inclusion proof of leaf `index` of a tree of shape s given by node (elems as fil_tree_prove). */
pm_status fil_tree_prove_nodes(fil_merkle_proof_t *p, fil_path_elem_t *elems, const fil_tree_shape_t *s,
                               const void *t, fil_tree_node_fn node, uint64_t index, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
