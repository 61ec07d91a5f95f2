/*
 * confine.c — opens confined to allowed directories, no links followed below them (confine.h).
 */
#include "util/confine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_DIRS 32

typedef struct {
    char spell[PATH_MAX]; /* as configured, absolute and normalised */
    char real[PATH_MAX];  /* its realpath ("" when it does not exist yet) */
    char anchor[PATH_MAX]; /* real "": the realpath of its deepest ancestor that exists */
    char tail[PATH_MAX];   /* real "": the components from anchor down to it ("a/b") */
} allowed_dir;

static allowed_dir dirs[MAX_DIRS];
static unsigned n_dirs;
static int active;

/* path made absolute and normalised into out (PATH_MAX); -1 on "..", -2 when too long */
static int normalise(const char *path, char *out) {
    char tmp[PATH_MAX];
    if (path[0] != '/') {
        char cwd[PATH_MAX];
        if (!getcwd(cwd, sizeof cwd)) return -2;
        if ((size_t)snprintf(tmp, sizeof tmp, "%s/%s", cwd, path) >= sizeof tmp) return -2;
    } else if ((size_t)snprintf(tmp, sizeof tmp, "%s", path) >= sizeof tmp) {
        return -2;
    }
    size_t o = 0;
    for (char *save = NULL, *c = strtok_r(tmp, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
        if (!strcmp(c, ".")) continue;
        if (!strcmp(c, "..")) return -1;
        size_t n = strlen(c);
        if (o + 1 + n + 1 > PATH_MAX) return -2;
        out[o++] = '/';
        memcpy(out + o, c, n);
        o += n;
    }
    if (!o) out[o++] = '/';
    out[o] = 0;
    return 0;
}

/* the part of norm below dir ("" for dir itself), or NULL when norm is not below it */
static const char *below(const char *norm, const char *dir) {
    if (!dir[0]) return NULL;
    if (!strcmp(dir, "/")) return norm + 1;
    size_t n = strlen(dir);
    if (strncmp(norm, dir, n)) return NULL;
    if (norm[n] == 0) return norm + n;
    if (norm[n] == '/') return norm + n + 1;
    return NULL;
}

pm_status pm_confine_set(const char *list, pm_error *err) {
    active = 0;
    n_dirs = 0;
    if (!list || !list[0]) return PM_OK;
    char buf[PATH_MAX * 2];
    if (strlen(list) >= sizeof buf) return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "directory list too long");
    strcpy(buf, list);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        while (*t == ' ') t++;
        size_t n = strlen(t);
        while (n && t[n - 1] == ' ') t[--n] = 0;
        if (!n) continue;
        if (n_dirs == MAX_DIRS)
            return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "more than %d allowed directories", MAX_DIRS);
        allowed_dir *d = &dirs[n_dirs];
        int rc = normalise(t, d->spell);
        if (rc)
            return pm_error_set(err, PM_ERR_ARG, t, PM_NO_OFFSET, "%s", rc == -1 ? "'..' in an allowed directory" : "path too long");
        if (!realpath(d->spell, d->real)) {
            /* missing: what exists above it is the operator's (links resolved now); what is made
             * below that later is opened without following links, like any path below D */
            d->real[0] = 0;
            char up[PATH_MAX];
            snprintf(up, sizeof up, "%s", d->spell);
            char *cut;
            while ((cut = strrchr(up, '/')) && cut != up) {
                *cut = 0;
                if (realpath(up, d->anchor)) break;
            }
            if (!cut || cut == up) snprintf(d->anchor, sizeof d->anchor, "/");
            const char *t = d->spell + (cut && cut != up ? strlen(up) + 1 : 1);
            memcpy(d->tail, t, strlen(t) + 1); /* shorter than spell */
        }
        n_dirs++;
    }
    active = n_dirs > 0;
    return PM_OK;
}

int pm_confine_active(void) { return active; }

const char *pm_confine_list(char *buf, unsigned n) {
    size_t o = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < n_dirs && o < n; i++) o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? "," : "", dirs[i].spell);
    return buf;
}

/* Walk path below its allowed directory. last_flags < 0: check only (the last component is
 * lstat'ed, may be missing); else open it with those flags. Returns the fd (or 0 for a check). */
static int walk(const char *path, int last_flags, pm_error *err) {
    char norm[PATH_MAX];
    int rc = normalise(path, norm);
    if (rc == -1) {
        pm_error_set(err, PM_ERR_FORBIDDEN, path, PM_NO_OFFSET, "'..' is not allowed in a path");
        errno = EACCES;
        return -1;
    }
    if (rc) {
        pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "path too long");
        errno = ENAMETOOLONG;
        return -1;
    }
    const allowed_dir *d = NULL;
    const char *rest = NULL;
    for (unsigned i = 0; i < n_dirs && !rest; i++) {
        if ((rest = below(norm, dirs[i].spell)) || (rest = below(norm, dirs[i].real))) d = &dirs[i];
    }
    if (!rest) {
        pm_error_set(err, PM_ERR_FORBIDDEN, path, PM_NO_OFFSET, "outside the allowed directories");
        errno = EACCES;
        return -1;
    }
    /* D as the operator had it at pm_confine_set (its realpath then), or, when it did not exist
     * then, its existing ancestor then, and D's own missing components walked as those below D:
     * a D made later as a link (e.g. in /var/tmp, by anyone) would take every path below it elsewhere */
    const char *dpath = d->real[0] ? d->real : d->anchor;
    int dfd = open(dpath, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        int e = errno;
        if (last_flags < 0 && e == ENOENT) return 0; /* the loader reports the missing file */
        pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot open: %s", strerror(e));
        errno = e;
        return -1;
    }
    char comp[PATH_MAX];
    if ((size_t)snprintf(comp, sizeof comp, "%s%s%s", d->real[0] ? "" : d->tail, !d->real[0] && rest[0] ? "/" : "",
                         rest) >= sizeof comp) {
        close(dfd);
        pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "path too long");
        errno = ENAMETOOLONG;
        return -1;
    }
    char *c = comp;
    if (!*c) { /* the allowed directory itself */
        if (last_flags < 0) {
            close(dfd);
            return 0;
        }
        int fd = open(dpath, last_flags | O_CLOEXEC);
        int e = errno;
        close(dfd);
        if (fd < 0) pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot open: %s", strerror(e));
        errno = e;
        return fd;
    }
    for (;;) {
        char *slash = strchr(c, '/');
        if (slash) *slash = 0;
        struct stat st;
        if (fstatat(dfd, c, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            int e = errno;
            close(dfd);
            if (last_flags < 0 && e == ENOENT) return 0;
            pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot open: %s", strerror(e));
            errno = e;
            return -1;
        }
        if (S_ISLNK(st.st_mode)) {
            close(dfd);
            pm_error_set(err, PM_ERR_FORBIDDEN, path, PM_NO_OFFSET, "'%s' is a symbolic link (not followed)", c);
            errno = ELOOP;
            return -1;
        }
        if (!slash) {
            if (last_flags < 0) {
                close(dfd);
                return 0;
            }
            int fd = openat(dfd, c, last_flags | O_NOFOLLOW | O_CLOEXEC);
            int e = errno;
            close(dfd);
            if (fd < 0) {
                if (e == ELOOP) pm_error_set(err, PM_ERR_FORBIDDEN, path, PM_NO_OFFSET, "'%s' is a symbolic link (not followed)", c);
                else pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot open: %s", strerror(e));
            }
            errno = e;
            return fd;
        }
        int nfd = openat(dfd, c, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int e = errno;
        close(dfd);
        if (nfd < 0) {
            if (last_flags < 0 && e == ENOENT) return 0;
            if (e == ENOTDIR || e == ELOOP) pm_error_set(err, PM_ERR_FORBIDDEN, path, PM_NO_OFFSET, "'%s' is not a directory (links are not followed)", c);
            else pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot open: %s", strerror(e));
            errno = e;
            return -1;
        }
        dfd = nfd;
        c = slash + 1;
    }
}

pm_status pm_confine_check(const char *path, pm_error *err) {
    if (!active) return PM_OK;
    pm_error tmp;
    pm_error_clear(&tmp);
    if (walk(path, -1, &tmp) >= 0) return PM_OK;
    if (tmp.code != PM_ERR_FORBIDDEN) return PM_OK; /* inside, but unreadable: the loader says why */
    if (err) *err = tmp;
    return PM_ERR_FORBIDDEN;
}

int pm_confine_open(const char *path, int flags, pm_error *err) {
    if (!active) {
        int fd = open(path, flags | O_CLOEXEC);
        if (fd < 0) {
            int e = errno;
            pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot open: %s", strerror(e));
            errno = e;
        }
        return fd;
    }
    return walk(path, flags, err);
}
