/*
 * outfile.h — the one way proofmill writes an output file: into a temporary beside the target
 * ("<path>.tmp.<16 random hex digits>", created with O_EXCL | O_NOFOLLOW: never an existing file or
 * a planted link), renamed onto the target (rename(2), atomic within a file system) only when
 * complete. A failed or interrupted write (full disk, bad directory, a crash, a refused input)
 * leaves the target as it was: never half a proof, key, C1 or cache. The target must be a regular
 * file or not exist: a directory, device, FIFO or socket (also behind a symbolic link) is refused,
 * never replaced; a symbolic link to a regular file is replaced by the new file, its target left alone.
 *
 * Two ways to use it:
 *   pm_outfile o;                                      // streaming writers
 *   if (pm_outfile_open(&o, path, &err)) ...;           // o.f: a FILE * on the temporary
 *   fwrite(..., o.f); ...
 *   st = ok ? pm_outfile_commit(&o, &err) : (pm_outfile_abort(&o), st);
 * or, for text or bytes already in memory, pm_write_file / pm_write_files. Writers that need a
 * file descriptor (e.g. an mmap'd output) call pm_outfile_begin and use o.fd (open read-write on the
 * temporary), then commit or abort (both close it).
 * Errors: PM_ERR_IO naming the target path (not the temporary): "is a directory, not an output
 * file", "is a character device (a FIFO, ...), not a regular file", "path too long", "cannot
 * create: <errno>", "write failed: <errno>".
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
    int fd;          /* open descriptor on tmp (pm_outfile_begin), -1 once a stream or closed */
} pm_outfile;

/* Check path (a regular file or nothing yet, not too long), then create the temporary o->tmp
 * (O_EXCL | O_NOFOLLOW, mode 0666 less the umask) open read-write as o->fd. */
pm_status pm_outfile_begin(pm_outfile *o, const char *path, pm_error *err);
/* pm_outfile_begin, then o->fd as the stream o->f ("wb"). */
pm_status pm_outfile_open(pm_outfile *o, const char *path, pm_error *err);
/* Close o->f or o->fd if open (a write error seen by the stream fails the commit), then rename o->tmp onto
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
