/*
 * vanilla_proof.h — the C1 output of the Filecoin StackedDRG PoRep in memory: registered proof,
 * vanilla proofs per partition and challenge, comm_r, comm_d, replica_id, seed, ticket; and
 * the C1 step that produces it from a sealed sector (seal.h).
 *
 * Source: rust-filecoin-proofs-api src/seal.rs (SealCommitPhase1Output, VanillaSealProof);
 * rust-fil-proofs storage-proofs-porep stacked/vanilla/params.rs (Proof), column.rs,
 * column_proof.rs, labeling_proof.rs, encoding_proof.rs, proof.rs `prove_layers_generate`;
 * POREP.md §4.5 and §8.
 *
 * Per challenge c (a node index, 1 ≤ c < nodes): comm_d proof (tree D, leaf = data node c);
 * comm_r_last proof (tree R_last, leaf = replica node c); column proofs (column index, rows =
 * labels of layers 1..L at that node, tree C inclusion of the column hash) for c (c_x), its 6 DRG
 * parents and 8 expander parents in parent-slot order; labeling proofs for layers 1..L (37 parent
 * labels expanded as in POREP.md §4.2, layer_index = layer, node = c); the encoding proof = the
 * last layer's labeling data (layer_index = L).
 *
 * Every 32-byte value is a domain value: little-endian canonical Fr bytes (not Montgomery).
 * Memory: everything a fil_c1_t points to lives in its arena; fil_c1_free releases it at once.
 */
#ifndef PROOFMILL_FILECOIN_VANILLA_PROOF_H
#define PROOFMILL_FILECOIN_VANILLA_PROOF_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/merkle.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bump allocator: zeroed, 16-byte aligned blocks from 1 MiB chunks; freed all at once. (Built with
 * AddressSanitizer: one exact-size chunk per block, so ASan bounds every block.) */
typedef struct fil_arena_chunk fil_arena_chunk_t;
typedef struct {
    fil_arena_chunk_t *head;
    size_t total;  /* bytes handed out */
} fil_arena_t;

/* NULL when out of memory (or n overflows). */
void *fil_arena_alloc(fil_arena_t *a, size_t n);
void fil_arena_free(fil_arena_t *a);

typedef struct {
    uint32_t index;        /* node index of the column */
    uint32_t nrows;        /* layers L */
    uint8_t (*rows)[32];   /* rows[l] = label of layer l+1 at `index` */
    fil_merkle_proof_t inclusion; /* tree C proof; leaf = Poseidon_L(rows) */
} fil_column_proof_t;

/* LabelingProof / EncodingProof (same fields). */
typedef struct {
    uint32_t nparents;      /* 37 (FIL_TOTAL_PARENTS) */
    uint8_t (*parents)[32];
    uint32_t layer_index;   /* 1..L */
    uint64_t node;
} fil_labeling_proof_t;

typedef struct {
    fil_merkle_proof_t comm_d;       /* "comm_d_proofs": SHA-256 binary, Single */
    fil_merkle_proof_t comm_r_last;  /* "comm_r_last_proof": Poseidon, tree shape */
    fil_column_proof_t c_x;
    uint32_t ndrg, nexp;             /* 6, 8 */
    fil_column_proof_t *drg;
    fil_column_proof_t *exp;
    uint32_t nlabeling;              /* L */
    fil_labeling_proof_t *labeling;
    fil_labeling_proof_t encoding;
} fil_vanilla_proof_t;

typedef struct {
    unsigned registered_proof;   /* id 0..19 (sizes.h); sector size follows from it */
    uint64_t sector_size;
    uint32_t partitions;         /* outer array length */
    uint32_t challenges;         /* inner array length (the same for every partition) */
    fil_vanilla_proof_t *proofs; /* [partitions · challenges], partition-major */
    uint8_t comm_r[32], comm_d[32], replica_id[32], seed[32], ticket[32];
    int synthetic;               /* 1: made by synth_c1 (benchmark input, not a sealed sector) */
    fil_arena_t arena;
} fil_c1_t;

static inline fil_vanilla_proof_t *fil_c1_proof(fil_c1_t *c1, uint32_t partition, uint32_t i) {
    return &c1->proofs[(size_t)partition * c1->challenges + i];
}

/* Allocate the proof array (zeroed) for partitions × challenges. Errors: PM_ERR_NOMEM. */
pm_status fil_c1_alloc_proofs(fil_c1_t *c1, uint32_t partitions, uint32_t challenges,
                              pm_error *err);
/* Release the arena; *c1 is zeroed. Safe on a zeroed struct. */
void fil_c1_free(fil_c1_t *c1);

struct fil_seal;
/* C1 of a sealed sector (seal.h): challenges (challenges.h; interactive from seed, or NI from
 * comm_r for the NonInteractivePoRep proofs, then 13/126 partitions) for every partition, then for each the proofs listed above, read from the seal's trees and labels
 * and graph. The result is self-contained (copies, not pointers into the seal).
 * Errors: PM_ERR_ARG (the seal was not completed), PM_ERR_NOMEM. */
pm_status fil_c1_from_seal(fil_c1_t *c1, const struct fil_seal *s, const uint8_t seed[32],
                           pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
