/*
 * confine.h — confine every open of a user-named input file to a set of allowed directories
 * (the daemon's paths.allow_prefix), without following symbolic links below them.
 *
 * Process-wide: pm_confine_set installs the list once (the daemon at start); until then, and after
 * pm_confine_set(NULL), pm_confine_open is plain open(2). Every reader of a user-named input goes
 * through it (util/file.h: pm_open_regular, pm_file_read_all), so a path checked at submit cannot
 * be swapped for a link to another file before the worker reads it.
 *
 * Rules for a path P while confinement is on:
 *   - P is made absolute against the working directory and normalised lexically ("//" and "."
 *     dropped); a ".." component is refused.
 *   - P must lie below (or be) one allowed directory D, compared by D's configured spelling or its
 *     realpath; nothing is opened or stat'ed before that check, so a refused path leaks neither
 *     bytes nor existence.
 *   - D itself is opened as it was at pm_confine_set (by its realpath then: it may be a link, set by
 *     the operator); of a D that did not exist then, its deepest existing ancestor is opened so and
 *     D's missing components are walked like those below D (a D made later as a link, e.g. in the
 *     world-writable /var/tmp, is nobody's choice: PM_ERR_FORBIDDEN); every component below D
 *     is opened with openat(O_NOFOLLOW) (O_PATH | O_DIRECTORY for directories), so a symbolic link
 *     anywhere below D is refused, whatever it points to.
 * Errors are PM_ERR_FORBIDDEN ("outside the allowed directories", "is a symbolic link", "'..'");
 * a missing file below D is PM_ERR_IO as from open(2).
 */
#ifndef PROOFMILL_UTIL_CONFINE_H
#define PROOFMILL_UTIL_CONFINE_H

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Install the allowed directories: a comma-separated list of directory paths (each made absolute
 * and normalised; its realpath kept beside it). NULL or "" turns confinement off. Not thread-safe
 * against concurrent opens: call before starting threads. Errors: PM_ERR_ARG (more than 32 entries,
 * an entry too long, or one containing ".."). */
pm_status pm_confine_set(const char *dirs, pm_error *err);
/* 1 while confinement is on. */
int pm_confine_active(void);
/* The allowed directories as installed, comma-separated, into buf (size n); "" when off. */
const char *pm_confine_list(char *buf, unsigned n);
/* Check path against the rules above without opening the last component: PM_OK when it lies
 * below an allowed directory through no link (the file itself may not exist), PM_ERR_FORBIDDEN
 * otherwise. Off: always PM_OK. For the submit-time 403 of the daemon. */
pm_status pm_confine_check(const char *path, pm_error *err);
/* open(path, flags) under the rules (flags gains O_NOFOLLOW | O_CLOEXEC while on): the fd, or -1
 * with err filled (PM_ERR_FORBIDDEN, or PM_ERR_IO with the errno text; errno is kept). */
int pm_confine_open(const char *path, int flags, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
