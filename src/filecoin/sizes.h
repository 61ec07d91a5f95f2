/*
 * sizes.h — Filecoin StackedDRG PoRep sector sizes, per-size parameters, registered proof ids,
 * porep_id bytes and API versions.
 *
 * Source: rust-fil-proofs filecoin-proofs/src/constants.rs (sizes, layers, partitions, minimum
 * challenges, tree shapes, NI constants), parameters.rs `select_challenges`,
 * merkle/builders.rs `get_base_tree_count`; rust-filecoin-proofs-api src/registry.rs (ids,
 * porep_id layout); storage-proofs-core api_version.rs, drgraph.rs, porep graph.rs (what differs
 * between API versions); all as collected in ../shared/filecoin/POREP.md §1.
 *
 * Argument order: output first; an array's length right after it. No allocation, thread-safe.
 */
#ifndef PROOFMILL_FILECOIN_SIZES_H
#define PROOFMILL_FILECOIN_SIZES_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/merkle.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FIL_NODE_SIZE 32u              /* bytes per node (storage-proofs-core util.rs NODE_SIZE) */
#define FIL_BASE_DEGREE 6u             /* DRG parents (drgraph.rs BASE_DEGREE) */
#define FIL_EXP_DEGREE 8u              /* expander parents (porep graph.rs EXP_DEGREE) */
#define FIL_DEGREE 14u                 /* BASE_DEGREE + EXP_DEGREE */
#define FIL_TOTAL_PARENTS 37u          /* parent slots hashed per label (stacked proof.rs) */
#define FIL_MAX_CHALLENGES_PER_PARTITION 18u
#define FIL_BASE_ARITY 8u              /* every Poseidon base tree is an octree */

/* API versions (storage-proofs-core api_version.rs). What changes (POREP.md §1.4):
 * V1_0_0: DRG predecessor v-1 in the last DRG slot (5); expander parent = (u32)permuted / 8
 *         (truncation: "pathological" 32/64 GiB graphs).
 * V1_1_0, V1_2_0: predecessor in slot 0; expander parent = permuted / 8 in 64 bits. V1_1 and V1_2
 *         graphs are identical for one porep_id; V1_2 only adds the features below. */
typedef enum { FIL_API_V1_0_0 = 0, FIL_API_V1_1_0 = 1, FIL_API_V1_2_0 = 2 } fil_api_version_t;

/* Optional V1_2 features (mutually exclusive): they change challenge derivation and, for NI, the
 * partition count; the graph only through the porep_id. */
typedef enum {
    FIL_FEATURE_NONE = 0,
    FIL_FEATURE_SYNTHETIC_POREP = 1,
    FIL_FEATURE_NON_INTERACTIVE_POREP = 2
} fil_porep_feature_t;

/* One sector size (POREP.md §1.1-1.2). Tree shape: base arity 8, sub arity 0/2/8, top 0/2;
 * base_tree_count = sub*top, sub, or 1; each base tree covers nodes / base_tree_count nodes. */
typedef struct {
    const char *name;                  /* "2KiB", "8MiB", ..., "64GiB" */
    uint64_t sector_size;              /* bytes */
    uint64_t nodes;                    /* sector_size / 32 */
    unsigned layers;                   /* 2 or 11 */
    unsigned partitions;               /* interactive PoRep (also Synthetic) */
    unsigned min_challenges;           /* interactive minimum */
    unsigned challenges_per_partition; /* ceil(min_challenges / partitions), <= 18 */
    unsigned ni_partitions;            /* non-interactive PoRep */
    unsigned ni_min_challenges;
    unsigned ni_challenges_per_partition;
    unsigned base_arity, sub_arity, top_arity; /* 8-s-t; 0 = no such level */
    unsigned base_tree_count;          /* 1, 2, 8 or 16 */
    int published;                     /* 1: Groth16 parameters were published for this size */
} fil_sector_info_t;

/* The ten sizes 2 KiB, 4 KiB, 16 KiB, 32 KiB, 8 MiB, 16 MiB, 512 MiB, 1 GiB, 32 GiB, 64 GiB in
 * increasing order; *n receives 10. */
const fil_sector_info_t *fil_sector_infos(size_t *n);
/* The row for sector_size in bytes, or NULL when it is not a supported size. */
const fil_sector_info_t *fil_sector_info(uint64_t sector_size);

/* Parse "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (any supported row name, case-insensitive
 * unit, also "2K"/"32G" and a plain byte count such as "34359738368") into bytes.
 * Errors: PM_ERR_ARG naming the text when it is malformed or not a supported size. */
pm_status fil_sector_size_parse(uint64_t *bytes, const char *text, pm_error *err);

/* A registered proof (rust-filecoin-proofs-api registry.rs RegisteredSealProof). Ids:
 *  0-4  StackedDrg{2KiB,8MiB,512MiB,32GiB,64GiB}V1                      V1_0_0
 *  5-9  StackedDrg{...}V1_1                                             V1_1_0
 * 10-14 StackedDrg{...}V1_1_Feat_SyntheticPoRep                         V1_2_0 (sic)
 * 15-19 StackedDrg{...}V1_2_Feat_NonInteractivePoRep                    V1_2_0 */
typedef struct {
    unsigned id;
    const char *name;              /* e.g. "StackedDrg32GiBV1_1" */
    uint64_t sector_size;          /* bytes */
    fil_api_version_t api_version;
    fil_porep_feature_t feature;
} fil_registered_proof_t;

#define FIL_REGISTERED_PROOF_COUNT 20u

/* Row for id (0..19), or NULL. */
const fil_registered_proof_t *fil_registered_proof(unsigned id);
/* Row for (sector size, API version, feature), or NULL when no such registered proof exists
 * (features need V1_2_0; V1_0_0/V1_1_0 need FIL_FEATURE_NONE; V1_2_0 without a feature has no
 * registered id of its own). */
const fil_registered_proof_t *fil_registered_proof_find(uint64_t sector_size,
                                                        fil_api_version_t v,
                                                        fil_porep_feature_t f);

/* porep_id (32 bytes) = id as u64 little-endian || nonce u64 LE (always 0 in the registry) ||
 * 16 zero bytes (registry.rs `porep_id`). Never fails. */
void fil_porep_id(uint8_t out[32], unsigned registered_proof_id);
/* storage-proofs-core lib.rs `is_legacy_porep_id`: first 8 bytes as u64 LE <= 4. */
int fil_porep_id_is_legacy(const uint8_t porep_id[32]);

/* "V1_0_0", "V1_1_0", "V1_2_0". */
const char *fil_api_version_name(fil_api_version_t v);
/* Parse "V1_0_0" / "1.0.0" / "1.0" (and 1.1, 1.2). Errors: PM_ERR_ARG. */
pm_status fil_api_version_parse(fil_api_version_t *v, const char *text, pm_error *err);

/* Tree shapes of a sector size (merkle.h): tree D (SHA-256 binary, Single) and trees C / R_last
 * (Poseidon 8-s-t from the size's row); either pointer may be NULL. Errors: PM_ERR_ARG for an
 * unsupported size. Source: filecoin-proofs constants.rs (SectorShape* for C and R; tree D is
 * a binary SHA-256 tree). */
pm_status fil_porep_tree_shapes(fil_tree_shape_t *tree_d, fil_tree_shape_t *tree_cr,
                                uint64_t sector_size, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
