/*
 * param_report.h — what a Filecoin parameter directory holds, file by file, for `proofmill params
 * check` (issue #39): for each file of fil_known_digests() (every kind and published size, .params
 * and .vk) whether it is absent, Filecoin's (its BLAKE2b digest is the published one), one of our
 * own test files (listed in the directory's marker, param_safety.h), truncated (its header's counts
 * and its size disagree) or another file under Filecoin's name (corrupt, or another setup).
 *
 * Full check: the digest of every present file not marked as ours, several files at once
 * (OpenMP, threads), counting the bytes hashed into the current progress stage; a digest that
 * differs is then told apart as truncated or not by the header check. Quick check (quick = 1): the
 * header check alone — a .params' counts against its size (params_read_counts), a .vk decoded
 * (params_vk_read) — which proves nothing about the points' values: such files are reported as
 * FIL_PF_HEADER_OK, never as Filecoin's.
 */
#ifndef PROOFMILL_FILECOIN_PARAM_REPORT_H
#define PROOFMILL_FILECOIN_PARAM_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/param_names.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    FIL_PF_ABSENT = 0,
    FIL_PF_GENUINE,   /* digest = Filecoin's */
    FIL_PF_HEADER_OK, /* quick: size and header consistent (digest not computed) */
    FIL_PF_TEST,      /* listed in the directory's proofmill-test-parameters */
    FIL_PF_TRUNCATED, /* header and size disagree (or the header is cut) */
    FIL_PF_BAD        /* another digest (corrupt or another setup), or unreadable */
} fil_param_file_state_t;

typedef struct {
    fil_param_kind_t kind;
    uint64_t sector_size;
    const char *ext;          /* ".params" or ".vk" */
    const char *digest;       /* Filecoin's */
    char name[300];           /* file name in the directory */
    fil_param_file_state_t state;
    uint64_t bytes;           /* file size when present */
    char got[33];             /* its digest (full check of a file not marked as ours) */
    char why[600];            /* TRUNCATED / BAD: what is wrong */
} fil_param_file_t;

/* Survey dir: *files (malloc'd, *n = one per fil_known_digests() row, in its order). threads = 0:
 * OpenMP's default. Errors: PM_ERR_NOMEM, PM_ERR_ARG (internal name error); per-file problems are
 * states, not errors. */
pm_status fil_param_survey(fil_param_file_t **files, size_t *n, const char *dir, int quick, unsigned threads,
                           pm_error *err);

/* One line for a log (the daemon's start): which kinds and sector sizes dir holds files for and
 * whose they are, from the .vk alone (its digest, or the marker; the .params is not hashed: that
 * is `params check`'s minutes), e.g. "porep 32GiB Filecoin's, porep 2KiB proofmill test
 * parameters, window-post 32GiB .params missing" or "no Filecoin parameter files". Into
 * buf[cap] (truncated with "..." if longer); returns buf. Never fails. */
const char *fil_param_dir_summary(char *buf, size_t cap, const char *dir);

/* "absent", "Filecoin's", "header ok", "proofmill test parameters", "TRUNCATED", "BAD". */
const char *fil_param_file_state_name(fil_param_file_state_t s);

#ifdef __cplusplus
}
#endif
#endif
