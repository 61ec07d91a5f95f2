/*
 * real_data.h — readers of the data Filecoin itself published, the ground truth `proofmill
 * selfcheck` checks our verifier, public-input derivation and parameter names against:
 *
 *  - seal regression records (rust-fil-proofs filecoin-proofs/tests/seal_regression_records-v16.json
 *    and -v18.json @87348a749d80): one JSON object per line,
 *      {"porep_config": {"sector_size": u64, "partitions": n, "porep_id": [32 bytes],
 *                        "api_version": "V1_0_0"|"V1_1_0"|"V1_2_0",
 *                        "api_features": [] | ["SyntheticPoRep"] | ["NonInteractivePoRep"]},
 *       "comm_r": [32], "comm_d": [32], "prover_id": [32], "sector_id": u64, "ticket": [32],
 *       "seed": [32], "proof": [bytes]}
 *    made with Filecoin's genuine parameters (rust-fil-proofs' own regression test only logs
 *    OK/FAILED for them). A byte array is a JSON array of integers 0..255. sector_id may exceed
 *    2^63 (the v16 2 KiB records' is 9259733836259213201), so it is read from the text, not by
 *    jansson (whose integers are signed 64-bit).
 *  - parameters.json (rust-fil-proofs filecoin-proofs/parameters.json): {file name: {"cid":
 *    string, "digest": 32 hex, "sector_size": u64}}; each name is matched to its kind and size by
 *    the names we compute (param_names.h), which checks our naming against Filecoin's list.
 *  - a WindowPoSt (rust-filecoin-proofs-api tests/verify_window_post_test.rs @d55c3973506, the
 *    calibration network's 32 GiB proof): {"registered_proofs": [names], "randomness": [32],
 *    "prover_id": [32], "sectors": [{"sector_id": u64, "comm_r": [32]}], "proof": [192 bytes]}.
 *
 * Every reader refuses what it cannot vouch for with a pm_error naming the file, the line (records;
 * offset = the line's first byte) and the field: malformed JSON, a missing or mistyped field, a byte
 * out of 0..255, an unknown sector size, API version or feature, a partition count that is not the
 * size's, a proof whose length is not 192 bytes per partition, a line over FIL_RECORD_LINE_MAX.
 * Non-interactive PoRep proofs are SnarkPack aggregates of the partitions' proofs (14,164 bytes at
 * 8 MiB / 512 MiB, 23,092 at 32 GiB): they are read (any length 192 .. FIL_RECORD_LINE_MAX / 4) but
 * not verified by proofmill (fil_seal_record_verify says so).
 */
#ifndef PROOFMILL_FILECOIN_REAL_DATA_H
#define PROOFMILL_FILECOIN_REAL_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/param_names.h"
#include "filecoin/sizes.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The longest records line read (bytes, newline excluded): the 32 GiB NI record's line is ~90 KB. */
#define FIL_RECORD_LINE_MAX ((size_t)1 << 20)

typedef struct {
    size_t line;                 /* 1-based line of the file */
    uint64_t sector_size;        /* bytes, a size of sizes.h */
    uint32_t partitions;         /* the size's interactive count, or its NI count */
    uint8_t porep_id[32];
    fil_api_version_t api_version;
    fil_porep_feature_t feature;
    uint8_t comm_r[32], comm_d[32], prover_id[32], ticket[32], seed[32];
    uint64_t sector_id;
    uint8_t *proof;              /* proof_len bytes: 192 · partitions, or an NI aggregate */
    size_t proof_len;
} fil_seal_record_t;

typedef struct {
    size_t n;
    fil_seal_record_t *r;
} fil_seal_records_t;

/* Parse one records line line[len] (modified in place: sector_id's digits are blanked after they
 * are read). name and lineno/offset label errors. *r owns r->proof (fil_seal_record_free).
 * Errors: PM_ERR_FORMAT (JSON, missing/mistyped field, lengths), PM_ERR_ARG (unknown size, API
 * version, feature, partition count), PM_ERR_NOMEM. */
pm_status fil_seal_record_parse(fil_seal_record_t *r, char *line, size_t len, const char *name, size_t lineno,
                                uint64_t offset, pm_error *err);
void fil_seal_record_free(fil_seal_record_t *r);

/* Every record of the file at path (blank lines skipped). On error nothing is kept and the error
 * names the line. Errors: PM_ERR_IO (unreadable, not a regular file), those of
 * fil_seal_record_parse, PM_ERR_FORMAT for a line longer than FIL_RECORD_LINE_MAX or holding a
 * NUL byte. */
pm_status fil_seal_records_read(fil_seal_records_t *out, const char *path, pm_error *err);
void fil_seal_records_free(fil_seal_records_t *rs);

/* "V1_1_0", "V1_2_0 SyntheticPoRep", "V1_2_0 NonInteractivePoRep": a record's porep version. */
const char *fil_seal_record_version(char *buf, size_t cap, const fil_seal_record_t *r);

/* ---- parameters.json ---- */
typedef struct {
    char name[192];
    char cid[64];
    char digest[33];             /* 32 lowercase hex */
    uint64_t sector_size;
    int ours;                    /* 1: a name of ours (kind, sector_size as the name says); 0: a
                                    file of a kind proofmill does not prove (e.g. Filecoin's
                                    empty-sector-update-poseidon files) */
    fil_param_kind_t kind;       /* when ours */
    int is_vk;                   /* 1 ".vk", 0 ".params" */
} fil_param_entry_t;

typedef struct {
    size_t n;
    fil_param_entry_t *e;
} fil_param_manifest_t;

/* Which kind and size the v28 file name `name` (".params" or ".vk") is, by the names param_names.h
 * computes for every kind and size: 1 and *kind, *sector_size, *is_vk set, or 0 when it is none. */
int fil_param_name_classify(fil_param_kind_t *kind, uint64_t *sector_size, int *is_vk, const char *name);

/* Read parameters.json. Every entry must have a v28-*.params / .vk name, a string cid (< 64
 * chars), a 32-hex digest and a sector_size of sizes.h; a name that fil_param_name_classify knows
 * must have that same sector size (PM_ERR_MISMATCH otherwise: our names and Filecoin's disagree).
 * Errors: PM_ERR_IO, PM_ERR_FORMAT, PM_ERR_MISMATCH, PM_ERR_NOMEM. */
pm_status fil_param_manifest_read(fil_param_manifest_t *m, const char *path, pm_error *err);
void fil_param_manifest_free(fil_param_manifest_t *m);

/* ---- one published WindowPoSt ---- */
#define FIL_WINDOW_POST_RECORD_MAX_SECTORS 2349u

typedef struct {
    unsigned registered[4];      /* RegisteredPoStProof ids (post.h) named in "registered_proofs" */
    size_t n_registered;
    uint8_t randomness[32], prover_id[32];
    size_t n_sectors;            /* 1 .. FIL_WINDOW_POST_RECORD_MAX_SECTORS */
    uint64_t *sector_id;
    uint8_t (*comm_r)[32];
    uint8_t proof[192];          /* one partition (partition 0) */
} fil_window_post_record_t;

/* Read the WindowPoSt file. registered_proofs are names such as "StackedDrgWindow32GiBV1" or
 * "StackedDrgWindow32GiBV1_2" (at least one, all WindowPoSt of one sector size). Errors:
 * PM_ERR_IO, PM_ERR_FORMAT (field named), PM_ERR_ARG (unknown proof name), PM_ERR_NOMEM. */
pm_status fil_window_post_record_read(fil_window_post_record_t *w, const char *path, pm_error *err);
void fil_window_post_record_free(fil_window_post_record_t *w);

#ifdef __cplusplus
}
#endif
#endif
