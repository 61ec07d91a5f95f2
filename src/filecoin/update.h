/*
 * update.h — the vanilla side of Filecoin's SnapDeals (the "empty sector update", EmptySectorUpdate):
 * sizes and constants, challenges, phi and rho, encoding new data into a sealed test sector
 * (comm_d_new, comm_r_new), the partition proofs Curio sends (bincode PartitionProof, one per
 * partition), a vanilla verifier and the circuit's public inputs.
 *
 * Sources (facts only): rust-fil-proofs @87348a7 storage-proofs-update src/{constants,challenges,
 * vanilla,circuit,gadgets,compound}.rs, tests/circuit.rs; filecoin-proofs src/api/update.rs and
 * types/sector_update_config.rs (h = h_default, all partitions in one proof);
 * rust-filecoin-proofs-api @0e64ce8 src/registry.rs (RegisteredUpdateProof, API V1_1_0),
 * src/update.rs (one bincode PartitionProof per partition); neptune v11 hash_type.rs (custom
 * domain tag); curio @e0294b0 lib/ffi/cuzk_funcs.go (raw 32-byte comm_r_old, comm_r_new, comm_d_new).
 *
 * Model (N = nodes, n = log2 N).
 *  - partitions: 1 (N <= 2^8), 2 (<= 2^10), 4 (<= 2^19), else 16; challenges per partition: 10
 *    (N <= 2^19), else 86; apex leaves per partition: 8 (N <= 2^8), else 128; hs = six allowed h:
 *    [1,1,1,1,1,1] (N <= 2^10) else [7,8,9,10,11,12]; h = hs[3] (10 for production sizes);
 *    h_select = 2^(index of h in hs) = 8.
 *  - "gen randomness" Poseidon: arity 2, Standard strength, the custom domain tag
 *    HashType::Custom(Arbitrary(1)) = 1·2^40 in state[0] (the MerkleTree tag would be 3); the round
 *    constants and matrices are those of arity 2.
 *  - phi = H_gr(comm_d_new, comm_r_old); rho(high) = H_gr(phi, high) with high = node >> (n − h).
 *    New replica node = sector-key node + data node · rho(high) (Fr arithmetic); tree R new is
 *    tree R_last's shape over it; comm_r_new = Poseidon_2(comm_c, root_r_new) with the sealed
 *    sector's comm_c; comm_r_old = Poseidon_2(comm_c, root_r_old).
 *  - Challenges of partition k (challenges.rs): rb = n − log2(partitions) random bits each,
 *    254 / rb challenges per digest, D = ceil(challenges / that) digests per partition; digest j
 *    = H_gr(comm_r_new, k·D + j) read as 255 LE bits; challenge i of the digest = bits
 *    [i·rb, (i+1)·rb) | k << rb.
 *  - A partition proof (vanilla.rs PartitionProof {comm_c: D, apex_leafs: Vec<D>, challenge_proofs:
 *    Vec<ChallengeProof {proof_r_old, proof_d_new, proof_r_new: MerkleProof}>}): the partition's
 *    apex leaves (tree D new's row at height n − log2(partitions) − log2(apex leaves), leaves
 *    k·apex .. (k+1)·apex − 1) and per challenge the openings of tree R old, tree D new (binary
 *    SHA-256) and tree R new.
 *  - Circuit public inputs (circuit.rs PublicInputs::to_vec): k_and_h_select = k | h_select <<
 *    log2(partitions), comm_r_old, comm_d_new, comm_r_new.
 * All 32-byte values are domain bytes (LE canonical Fr). Errors: pm_status + pm_error naming the
 * partition, the challenge and the field.
 */
#ifndef PROOFMILL_FILECOIN_UPDATE_H
#define PROOFMILL_FILECOIN_UPDATE_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "filecoin/merkle.h"
#include "filecoin/poseidon.h"
#include "filecoin/vanilla_proof.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FIL_UPDATE_NUM_HS 6u

/* A registered update proof: ids 0-4 = StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1 (API V1_1_0). */
typedef struct {
    unsigned id;
    const char *name;
    uint64_t sector_size;
} fil_registered_update_t;
#define FIL_REGISTERED_UPDATE_COUNT 5u
const fil_registered_update_t *fil_registered_update(unsigned id); /* NULL when out of range */

typedef struct {
    uint64_t sector_size, nodes;
    unsigned challenge_bits;        /* n = log2 nodes (tree D height) */
    unsigned partitions, partition_bits;
    unsigned challenges;            /* per partition */
    unsigned apex_leaves, apex_bits;
    unsigned hs[FIL_UPDATE_NUM_HS];
    unsigned h, h_select;           /* h_default and its select pattern */
    unsigned rand_bits;             /* random bits per challenge = n − partition_bits */
    unsigned challenges_per_digest, digests; /* per partition */
    fil_tree_shape_t tree_r;        /* tree R old / new (Poseidon 8-s-t of the size) */
    fil_tree_shape_t tree_d;        /* tree D new (binary SHA-256) */
} fil_update_config_t;

/* The configuration of a sector size: the nine sizes of sizes.h that storage-proofs-update allows
 * (all but 1 GiB). Errors: PM_ERR_ARG. */
pm_status fil_update_config(fil_update_config_t *c, uint64_t sector_size, pm_error *err);

/* The gen-randomness Poseidon constants (arity 2, tag 2^40): the arity-2 tables with another tag.
 * NULL when memory ran out. */
const fil_poseidon_t *fil_poseidon_constants_gen_randomness(void);
/* phi (domain bytes) from comm_d_new, comm_r_old. Errors: PM_ERR_ENCODING naming a non-canonical input. */
pm_status fil_update_phi(uint8_t phi[32], const uint8_t comm_d_new[32], const uint8_t comm_r_old[32], pm_error *err);
/* rho = H_gr(phi, high) (Montgomery); phi must be canonical (it is when made by fil_update_phi). */
void fil_update_rho(fr_t *rho, const uint8_t phi[32], uint64_t high);
/* The challenges of partition k: out[c->challenges]. comm_r_new must be canonical (PM_ERR_ENCODING),
 * k < partitions (PM_ERR_ARG). */
pm_status fil_update_challenges(uint32_t *out, const fil_update_config_t *c, const uint8_t comm_r_new[32], uint32_t k,
                                pm_error *err);

/* ---- vanilla proofs ---- */
typedef struct {
    fil_merkle_proof_t r_old, d_new, r_new;
} fil_update_challenge_proof_t;

typedef struct { /* storage-proofs-update PartitionProof */
    uint8_t comm_c[32];
    uint32_t n_apex;
    uint8_t (*apex_leafs)[32];
    uint32_t n_challenges;
    fil_update_challenge_proof_t *challenges;
} fil_update_partition_proof_t;

typedef struct {
    size_t n;
    fil_update_partition_proof_t *proofs;
    fil_arena_t arena;
} fil_update_vanilla_set_t;

/* Parse one bincode PartitionProof (bincode.h rules). Errors: PM_ERR_FORMAT with the offset,
 * PM_ERR_NOMEM. */
pm_status fil_update_partition_proof_read(fil_update_partition_proof_t *p, fil_arena_t *a, const uint8_t *data,
                                          size_t len, const char *name, pm_error *err);
pm_status fil_update_partition_proof_write(uint8_t **out, size_t *len, const fil_update_partition_proof_t *p,
                                           pm_error *err);
/* n blobs (blob i named "<name>[i]") into set. Errors as above; PM_ERR_ARG when n == 0. */
pm_status fil_update_vanilla_set_read(fil_update_vanilla_set_t *set, const uint8_t *const *blobs, const size_t *lens,
                                      size_t n, const char *name, pm_error *err);
void fil_update_vanilla_set_free(fil_update_vanilla_set_t *set);

/* ---- a sector update of our own (test inputs) ---- */
/* A tree to open: a shape and a node getter (dense tree, sparse tree or bucket tree; merkle.h). */
typedef struct {
    const fil_tree_shape_t *shape;
    const void *t;
    fil_tree_node_fn node;
} fil_tree_view_t;

typedef struct {
    fil_update_config_t cfg;
    uint8_t comm_c[32], comm_r_old[32], root_r_old[32];
    uint8_t comm_d_new[32], root_r_new[32], comm_r_new[32], phi[32];
    fil_tree_view_t r_old, d_new, r_new;
    /* storage of the trees this update made (dense or bucket) */
    fil_tree_t dense_d, dense_r;
    void *bucket_r_old, *bucket_d, *bucket_r_new;
} fil_update_t;

struct fil_seal;
/* Encode new data into a sealed sector (seal.h): data = sector_size bytes of fr32-padded data
 * (every node < r), sector key = the sealed replica (its tree R_last leaves). Builds tree D new and
 * tree R new in memory (about 2.3 × sector bytes). Errors: PM_ERR_ARG (seal not completed or an
 * update size it does not support), PM_ERR_ENCODING (a data node >= r: offset = its byte offset),
 * PM_ERR_NOMEM. */
pm_status fil_update_encode(fil_update_t *u, const struct fil_seal *s, const uint8_t *data, pm_error *err);
/* The same shape for sizes too big to seal here (512 MiB, 32 GiB, 64 GiB), by construction: the
 * sector key and the data are constant on each block of 2^(n−h) nodes (the nodes sharing one rho),
 * values derived from seed; comm_c likewise. Trees are bucket trees (exact roots and openings in
 * O(2^h · n) hashes). Internally consistent (passes fil_update_verify, satisfies the circuit) but
 * not a real sector. Errors: PM_ERR_ARG, PM_ERR_NOMEM. */
pm_status fil_update_synthetic(fil_update_t *u, uint64_t sector_size, uint64_t seed, pm_error *err);
void fil_update_free(fil_update_t *u);

/* The vanilla proof of partition k (vanilla.rs prove_inner). Errors: PM_ERR_ARG, PM_ERR_NOMEM. */
pm_status fil_update_prove_partition(fil_update_partition_proof_t *p, fil_arena_t *a, const fil_update_t *u, uint32_t k,
                                     pm_error *err);

/* The vanilla verifier of partition k (vanilla.rs EmptySectorUpdate::verify, plus what the circuit
 * needs): counts; comm_c and every value canonical; each opening has its tree's shape, opens the
 * derived challenge and hashes to its root; roots r_old / r_new the same in every challenge and
 * comm_r_old / comm_r_new = Poseidon_2(comm_c, root); tree D roots = comm_d_new; leaf_r_new =
 * leaf_r_old + leaf_d_new · rho; the apex path of each tree D opening equals the apex tree built
 * from apex_leafs, and its partition path equals challenge 0's. Errors: PM_ERR_MISMATCH /
 * PM_ERR_ENCODING naming "partition k", "challenge i (node c)" and the field (comm_c, apex_leafs[j],
 * proof_r_old.root, proof_d_new.path[l], leaf_r_new ...); PM_ERR_ARG (k). */
pm_status fil_update_verify(const fil_update_config_t *c, const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                            const uint8_t comm_r_new[32], uint32_t k, const fil_update_partition_proof_t *p,
                            pm_error *err);

/* The circuit's public inputs of partition k (ONE not included; Montgomery): out[4] =
 * k_and_h_select, comm_r_old, comm_d_new, comm_r_new. Errors: PM_ERR_ARG (k), PM_ERR_ENCODING. */
pm_status fil_update_public_inputs(fr_t out[4], const fil_update_config_t *c, const uint8_t comm_r_old[32],
                                   const uint8_t comm_d_new[32], const uint8_t comm_r_new[32], uint32_t k,
                                   pm_error *err);

/* ---- one request (what Curio sends for one SnapDeals proof: all partitions) ---- */
struct fil_proof_request;
typedef struct {
    const fil_registered_update_t *rp;
    fil_update_config_t cfg;
    uint8_t comm_r_old[32], comm_r_new[32], comm_d_new[32];
    fil_update_vanilla_set_t vanilla; /* cfg.partitions partition proofs, in partition order */
} fil_update_job_t;

/* Take a request (proof_request.h): registered update proof 0..4 (PM_ERR_ARG), comm_r_old,
 * comm_r_new, comm_d_new present (PM_ERR_ARG), one bincode partition proof per partition
 * (PM_ERR_MISMATCH for another count; PM_ERR_FORMAT with offsets). Not verified here. */
pm_status fil_update_job_init(fil_update_job_t *j, const struct fil_proof_request *r, pm_error *err);
/* fil_update_verify of every partition. */
pm_status fil_update_job_verify(const fil_update_job_t *j, pm_error *err);
void fil_update_job_free(fil_update_job_t *j);

#ifdef __cplusplus
}
#endif
#endif
