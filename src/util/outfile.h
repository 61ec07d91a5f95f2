/*
 * outfile.h — the one way proofmill writes an output file: into a temporary beside the target
 * ("<path>.tmp.<pid>"), renamed onto the target (rename(2), atomic within a file system) only when
 * complete. A failed or interrupted write (full disk, bad directory, a crash, a refused input)
 * leaves the target as it was: never half a proof, key, C1 or cache.
 *
 * Two ways to use it:
 *   pm_outfile o;                                      // streaming writers
 *   if (pm_outfile_open(&o, path, &err)) ...;           // o.f: a FILE * on the temporary
 *   fwrite(..., o.f); ...
 *   st = ok ? pm_outfile_commit(&o, &err) : (pm_outfile_abort(&o), st);
 * or, for text or bytes already in memory, pm_write_file / pm_write_files. Writers that need a
 * file descriptor (e.g. an mmap'd output) call pm_outfile_begin, create o.tmp themselves, then
 * commit or abort.
 * Errors: PM_ERR_IO naming the target path (not the temporary): "is a directory, not an output
 * file", "path too long", "cannot create: <errno>", "write failed: <errno>".
 */
#ifndef PROOFMILL_UTIL_OUTFILE_H
#define PROOFMILL_UTIL_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char path[4096]; /* the target */
    char tmp[4200];  /* the temporary beside it */
    FILE *f;         /* open stream on tmp (pm_outfile_open), else NULL */
} pm_outfile;

/* Check path (not an existing directory, not too long) and name o->tmp; creates nothing. */
pm_status pm_outfile_begin(pm_outfile *o, const char *path, pm_error *err);
/* pm_outfile_begin, then create o->tmp for writing ("wb") as o->f. */
pm_status pm_outfile_open(pm_outfile *o, const char *path, pm_error *err);
/* Close o->f if open (a write error seen by the stream fails the commit), then rename o->tmp onto
 * o->path. On failure the temporary is removed and the target is untouched. */
pm_status pm_outfile_commit(pm_outfile *o, pm_error *err);
/* Close and remove the temporary; the target is untouched. Safe after a failed begin/open. */
void pm_outfile_abort(pm_outfile *o);

/* data[0..len) to path, atomically. */
pm_status pm_write_file(const char *path, const void *data, size_t len, pm_error *err);
/* n files as one step (n <= 8): every temporary is complete before the first rename, so a failure
 * leaves every target as it was (e.g. never a new public.json beside an old proof.json); the
 * renames happen in order. len[i] = (size_t)-1 means strlen(data[i]). */
pm_status pm_write_files(size_t n, const char *const *paths, const void *const *data, const size_t *len,
                         pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
