/*
 * error.h — the project's error record for parsers, loaders and validators (STYLE.md item 11).
 *
 * Arithmetic returns void; anything that reads user data returns a pm_status (0 = ok) and fills a
 * caller-owned pm_error with the file, byte offset and a human-readable reason. No function
 * that reads user data aborts or asserts on it.
 */
#ifndef PROOFMILL_UTIL_ERROR_H
#define PROOFMILL_UTIL_ERROR_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    PM_OK = 0,
    PM_ERR_IO,          /* open/read/mmap failed (errno in the message) */
    PM_ERR_FORMAT,      /* bad magic, version, section layout, truncated data */
    PM_ERR_ENCODING,    /* non-canonical field element, bad flag bits, wrong length */
    PM_ERR_NOT_ON_CURVE,
    PM_ERR_NOT_IN_SUBGROUP,
    PM_ERR_CURVE,       /* a file for another curve (e.g. BN254 where BLS12-381 is needed) */
    PM_ERR_MISMATCH,    /* sizes disagree between files (witness length vs nVars, ...) */
    PM_ERR_UNSATISFIED, /* the witness does not satisfy the constraint system */
    PM_ERR_NOMEM,
    PM_ERR_ARG,         /* a caller's argument is out of range */
    PM_ERR_GPU,         /* a CUDA call failed (message names call, file, line) */
    PM_ERR_CANCELLED,
    PM_ERR_INTERNAL,
    PM_ERR_BUSY,        /* a service is at capacity (e.g. the engine's jobs.max): retry later */
    PM_ERR_FORBIDDEN,   /* a path outside the allowed directories, or through a symbolic link (util/confine.h) */
    PM_ERR_KEY          /* a proving key is inconsistent: its proof of a satisfying witness does not
                           verify with its own verifying key (groth16/key_check.h) */
} pm_status;

#define PM_NO_OFFSET UINT64_MAX

typedef struct {
    pm_status code;
    uint64_t offset;   /* byte offset in the file, or PM_NO_OFFSET */
    char file[512];    /* the file (or input name) concerned; "" if none */
    char msg[512];     /* what was wrong, e.g. "section 9: expected 3145728 bytes, found 12" */
} pm_error;

/* Fill err (if non-NULL) and return code. printf-style message. Thread-safe; no allocation. */
pm_status pm_error_set(pm_error *err, pm_status code, const char *file, uint64_t offset,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Reset to PM_OK. */
void pm_error_clear(pm_error *err);
/* Short stable name of a status ("format", "not-on-curve", ...), for JSON error codes. */
const char *pm_status_name(pm_status code);
/* Write "file: offset N: msg", "file: msg", or just "msg" when no file is named, into buf of size n.
 * Returns buf. */
const char *pm_error_format(const pm_error *err, char *buf, unsigned n);

#ifdef __cplusplus
}
#endif
#endif
