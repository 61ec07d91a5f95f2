/*
 * param_safety.h — our own (test) Groth16 parameters must never pass for Filecoin's.
 *
 * Our parameter sets are written under Filecoin's file names (so a tool that looks parameters up by
 * name finds them), which is exactly what could make them pass for the real ones. The rules:
 *  1. Never write a file under a Filecoin parameter name (v28-*.params / .vk / .meta) into a
 *     directory Filecoin reads — $FIL_PROOFS_PARAMETER_CACHE, /var/tmp/filecoin-proof-parameters
 *     (Filecoin's default), or any directory already holding a v28-* file that we did not write —
 *     unless the caller passes an explicit flag (allow = 1).
 *  2. Every file we write is listed in the directory's marker file "proofmill-test-parameters"
 *     (one name per line, after a header line saying what they are), so rule 1 can tell our
 *     files from Filecoin's.
 *  3. Wherever parameters are loaded, say whether they are test parameters: a .vk whose BLAKE2b
 *     digest (param_names.h) is not the one rust-fil-proofs' parameters.json publishes for that name
 *     is not Filecoin's (a seeded or unpublished setup), and is announced as "test parameters".
 * Directories are compared by realpath. Errors name the directory and the rule.
 */
#ifndef PROOFMILL_FILECOIN_PARAM_SAFETY_H
#define PROOFMILL_FILECOIN_PARAM_SAFETY_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/param_names.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FIL_PARAM_MARKER "proofmill-test-parameters"
#define FIL_PARAM_DEFAULT_CACHE "/var/tmp/filecoin-proof-parameters"

/* The parameter directory a command uses when none is given: $FIL_PROOFS_PARAMETER_CACHE (the
 * filecoin.params_dir setting) when set and not empty, else FIL_PARAM_DEFAULT_CACHE (as Curio's
 * fetch-params and rust-fil-proofs). Never NULL. */
const char *fil_param_default_dir(void);

/* May test parameters named `name` (a file name, no directory) be written into dir? PM_OK, or
 * PM_ERR_ARG naming the rule: dir is Filecoin's parameter cache (FIL_PROOFS_PARAMETER_CACHE or the
 * default), or dir holds a v28-* file not listed in its marker. allow = 1 skips the check (the
 * user's explicit flag). A dir that does not exist yet passes (it is created by the caller). */
pm_status fil_param_dir_check(const char *dir, int allow, pm_error *err);
/* 1 when `name` (a file name, no directory) is listed in dir's marker file: a proofmill test
 * parameter file (rule 2), 0 otherwise (no marker, or not listed). Never fails. */
int fil_param_is_marked_test(const char *dir, const char *name);
/* Record `name` in dir's marker file (created with its header when absent). Errors: PM_ERR_IO. */
pm_status fil_param_mark_test(const char *dir, const char *name, pm_error *err);

typedef enum {
    FIL_PARAMS_UNKNOWN = 0,  /* no published digest for this name (unpublished size or kind) */
    FIL_PARAMS_FILECOIN = 1, /* the .vk digest is the published one */
    FIL_PARAMS_TEST = 2      /* a file under a Filecoin name whose digest is not the published one */
} fil_params_origin_t;

/* Which parameters the .vk at vk_path is, for kind and sector_size (its file name is not
 * consulted: the published digest of that kind and size is). *digest (33 bytes, may be NULL)
 * receives its digest. Errors: PM_ERR_IO (unreadable). */
pm_status fil_param_origin(fil_params_origin_t *o, char digest[33], const char *vk_path, fil_param_kind_t kind,
                           uint64_t sector_size, pm_error *err);
/* One line for the user: "test parameters (.vk digest X; Filecoin's is Y)", "Filecoin's published
 * parameters", or "parameters with no published digest (test parameters)". */
const char *fil_params_origin_text(char *buf, size_t n, fil_params_origin_t o, const char *digest,
                                   fil_param_kind_t kind, uint64_t sector_size);

#ifdef __cplusplus
}
#endif
#endif
