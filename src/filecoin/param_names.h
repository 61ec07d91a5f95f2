/*
 * param_names.h — Filecoin Groth16 parameter file names (v28 StackedDRG PoRep) and the digest
 * check of a parameter directory against a parameters.json manifest.
 *
 * Names (rust-fil-proofs parameter_cache.rs cache_identifier, stacked circuit cache_prefix,
 * params.rs identifier; ../shared/filecoin/POREP.md §1.1, §1.5):
 *   v28-stacked-proof-of-replication-merkletree-poseidon_hasher-{b}-{s}-{t}-sha256_hasher-{H}
 *   + ".params" | ".vk" | ".meta", where H = lowercase hex SHA-256 of the ASCII identifier
 *   "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8
 *   base_graph: drgraph::BucketGraph{size: N; degree: 6; hasher: poseidon_hasher} }, challenges:
 *   LayerChallenges { layers: L, max_count: C }, tree: merkletree-poseidon_hasher-b-s-t }"
 *   (N nodes = sector bytes / 32, L layers, C challenges per partition, tree shape b-s-t).
 * Digest (parameter_cache.rs): the first 32 lowercase hex characters of BLAKE2b-512 (no key) of
 * the whole file (libb2).
 * Manifest (rust-fil-proofs parameters.json): a JSON object {file name: {cid, digest,
 * sector_size}}; only "digest" is used here.
 */
#ifndef PROOFMILL_FILECOIN_PARAM_NAMES_H
#define PROOFMILL_FILECOIN_PARAM_NAMES_H
#include <stddef.h>
#include <stdint.h>
#include "util/error.h"
#ifdef __cplusplus
extern "C" {
#endif

/* One row of the PoRep size table (POREP.md §1.1). */
typedef struct {
    uint64_t sector_size; /* bytes */
    uint64_t nodes;
    unsigned layers, challenges_per_partition, partitions;
    unsigned tree_b, tree_s, tree_t;
} fil_porep_shape_t;

/* The table for the ten sizes 2 KiB .. 64 GiB (interactive PoRep); *n receives the row count. */
const fil_porep_shape_t *fil_porep_shapes(size_t *n);

/* Write the name's stem (without extension, NUL-terminated; 150 bytes suffice) for sector_size
 * into out[cap]. Errors: PM_ERR_ARG for a size not in the table or cap too small. */
pm_status fil_porep_param_stem(char *out, size_t cap, uint64_t sector_size, pm_error *err);

/* hex32 = the first 32 lowercase hex chars of BLAKE2b-512 of the file at path (+ NUL; 33 bytes).
 * Reads the file by mmap in one pass; *bytes (if non-NULL) receives its size.
 * Errors: PM_ERR_IO. */
pm_status fil_param_digest(char hex32[33], uint64_t *bytes, const char *path, pm_error *err);
/* The same; progress = 1 counts the bytes hashed into the current progress stage
 * (pm_progress_add, util/progress.h; thread-safe, so several files may be hashed at once). */
pm_status fil_param_digest_progress(char hex32[33], uint64_t *bytes, const char *path, int progress, pm_error *err);

/* The proof kinds with Groth16 parameters of their own. */
typedef enum {
    FIL_PARAM_POREP = 0,             /* v28-stacked-proof-of-replication-... */
    FIL_PARAM_WINNING_POST = 1,      /* v28-proof-of-spacetime-fallback-... (66 sectors x 1 challenge) */
    FIL_PARAM_WINDOW_POST = 2,       /* v28-proof-of-spacetime-fallback-... (sector_count x 10) */
    FIL_PARAM_EMPTY_SECTOR_UPDATE = 3 /* v28-empty-sector-update-... (SnapDeals) */
} fil_param_kind_t;

/* "porep", "winning-post", "window-post", "empty-sector-update". */
const char *fil_param_kind_name(fil_param_kind_t k);

/* WINDOW_POST_SECTOR_COUNT (rust-fil-proofs filecoin-proofs constants.rs): sectors per WindowPoSt
 * partition: 2349 at 32 GiB, 2300 at 64 GiB, 2 for the other sizes of the table; 0 if unknown. */
unsigned fil_window_post_sector_count(uint64_t sector_size);

/* The file stem of a kind's parameters for sector_size (150 bytes suffice):
 *  PoRep: fil_porep_param_stem;
 *  PoSt (storage-proofs-post fallback compound.rs cache_prefix, vanilla.rs identifier):
 *    v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-{b}-{s}-{t}-{H}, H = hex SHA-256 of
 *    "FallbackPoSt::PublicParams{sector_size: S, challenge_count: C, sector_count: N}" with
 *    (C, N) = (1, 66) for WinningPoSt, (10, fil_window_post_sector_count) for WindowPoSt;
 *  SnapDeals (storage-proofs-update compound.rs, vanilla.rs): v28-empty-sector-update-merkletree-
 *    poseidon_hasher-{b}-{s}-{t}-{H}, H = hex SHA-256 of "empty_sector_update::PublicParams{
 *    sector_nodes: N }".
 * Errors: PM_ERR_ARG (size not in the table, unknown kind, cap too small). */
pm_status fil_param_stem(char *out, size_t cap, fil_param_kind_t kind, uint64_t sector_size, pm_error *err);

/* The digests published in rust-fil-proofs parameters.json: for PoRep those that
 * ../shared/filecoin/POREP.md §1.5 records (the .vk of 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB and the
 * 32 GiB .params) and parameters.json's other PoRep .params; for WinningPoSt, WindowPoSt and
 * SnapDeals the .params and .vk of the five published sizes. ext is ".vk" or ".params"; the file name is fil_param_stem(kind, size) + ext. */
typedef struct {
    uint64_t sector_size;
    const char *ext;
    const char *digest; /* 32 lowercase hex chars */
    fil_param_kind_t kind;
} fil_known_digest_t;
const fil_known_digest_t *fil_known_digests(size_t *n);

/* Outcome of checking a directory against a manifest. */
typedef struct {
    size_t ok, bad, missing, checked;
} fil_param_check_t;

/* For every entry of the manifest at json_path whose name passes the filter (substring, NULL =
 * all), compute the digest of dir/name and compare. One line per file is printed to out (if
 * non-NULL): "OK name", "BAD name (digest X, expected Y)", "MISSING name". skip_params = 1 skips
 * the (large) .params files. Errors: PM_ERR_IO (manifest unreadable), PM_ERR_FORMAT (manifest not
 * an object of objects with a 32-hex "digest"); per-file problems are counted, not errors. */
pm_status fil_param_check_dir(fil_param_check_t *res, const char *dir, const char *json_path,
                              const char *filter, int skip_params, void *out, pm_error *err);

/* Check the files of fil_known_digests() that exist in dir (absent ones are counted in
 * res->missing but not printed as errors: "absent name"). Lines as for fil_param_check_dir.
 * skip_params as there. Never fails except PM_ERR_ARG (internal name error). */
pm_status fil_param_check_known(fil_param_check_t *res, const char *dir, int skip_params, void *out,
                                pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
