/*
 * outfile.c — atomic output files (outfile.h).
 */
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* what a non-regular file is, for the error message */
static const char *kind_of(mode_t m) {
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

/* 64 bits for the temporary's name: getrandom, else the clock and the pid (the name only has to be
 * hard to guess; O_EXCL makes the creation safe either way) */
static uint64_t tmp_suffix(unsigned attempt) {
    uint64_t r = 0;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) == (ssize_t)sizeof r) return r;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40) ^ attempt;
}

pm_status pm_outfile_begin(pm_outfile *o, const char *path, pm_error *err) {
    memset(o, 0, sizeof *o);
    o->fd = -1;
    if (!path || !*path) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "no output file name");
    int k = snprintf(o->path, sizeof o->path, "%s", path);
    if (k < 0 || (size_t)k + 24 >= sizeof o->tmp || (size_t)k >= sizeof o->path)
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "path too long");
    struct stat sb;
    if (stat(path, &sb) == 0) { /* follows a link: what would be written is its target */
        if (S_ISDIR(sb.st_mode)) return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "is a directory, not an output file");
        if (!S_ISREG(sb.st_mode))
            return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET,
                                "is %s, not a regular file: outputs are written to a new file renamed onto the "
                                "target, so name a file path",
                                kind_of(sb.st_mode));
    }
    /* the temporary: a name nobody can predict, created with O_EXCL | O_NOFOLLOW (never an existing
     * file or a planted link), mode 0666 less the umask like any new file */
    for (unsigned attempt = 0; attempt < 64; attempt++) {
        snprintf(o->tmp, sizeof o->tmp, "%s.tmp.%016llx", path, (unsigned long long)tmp_suffix(attempt));
        int fd = open(o->tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            o->fd = fd;
            return PM_OK;
        }
        if (errno != EEXIST) {
            int e = errno;
            o->tmp[0] = 0;
            return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot create: %s", strerror(e));
        }
    }
    o->tmp[0] = 0;
    return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot create a temporary beside it: 64 names taken");
}

pm_status pm_outfile_open(pm_outfile *o, const char *path, pm_error *err) {
    pm_status st = pm_outfile_begin(o, path, err);
    if (st) return st;
    o->f = fdopen(o->fd, "wb");
    if (!o->f) {
        int e = errno;
        pm_outfile_abort(o);
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot create: %s", strerror(e));
    }
    o->fd = -1; /* owned by the stream */
    return PM_OK;
}

pm_status pm_outfile_commit(pm_outfile *o, pm_error *err) {
    if (o->f || o->fd >= 0) {
        int bad = o->f ? ferror(o->f) : 0, e = errno ? errno : EIO;
        if ((o->f ? fclose(o->f) : close(o->fd)) != 0 && !bad) bad = 1, e = errno;
        o->f = NULL;
        o->fd = -1;
        if (bad) {
            unlink(o->tmp);
            o->tmp[0] = 0;
            return pm_error_set(err, PM_ERR_IO, o->path, PM_NO_OFFSET, "write failed: %s", strerror(e));
        }
    }
    if (rename(o->tmp, o->path) != 0) {
        int e = errno;
        unlink(o->tmp);
        o->tmp[0] = 0;
        return pm_error_set(err, PM_ERR_IO, o->path, PM_NO_OFFSET, "write failed: %s", strerror(e));
    }
    o->tmp[0] = 0;
    return PM_OK;
}

void pm_outfile_abort(pm_outfile *o) {
    if (o->f) fclose(o->f);
    else if (o->fd >= 0) close(o->fd);
    o->f = NULL;
    o->fd = -1;
    if (o->tmp[0]) unlink(o->tmp);
    o->tmp[0] = 0;
}

pm_status pm_write_file(const char *path, const void *data, size_t len, pm_error *err) {
    return pm_write_files(1, &path, &data, &len, err);
}

pm_status pm_write_files(size_t n, const char *const *paths, const void *const *data, const size_t *len,
                         pm_error *err) {
    enum { MAXF = 8 };
    pm_outfile o[MAXF];
    if (n > MAXF) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "too many output files (%zu)", n);
    size_t done = 0;
    pm_status st = PM_OK;
    for (; done < n; done++) {
        if ((st = pm_outfile_open(&o[done], paths[done], err))) break;
        size_t m = len[done] == (size_t)-1 ? strlen(data[done]) : len[done];
        if (m && fwrite(data[done], 1, m, o[done].f) != m) {
            st = pm_error_set(err, PM_ERR_IO, paths[done], PM_NO_OFFSET, "write failed: %s", strerror(errno));
            done++;
            break;
        }
        if (fflush(o[done].f) != 0) {
            st = pm_error_set(err, PM_ERR_IO, paths[done], PM_NO_OFFSET, "write failed: %s", strerror(errno));
            done++;
            break;
        }
    }
    if (st) {
        for (size_t j = 0; j < done; j++) pm_outfile_abort(&o[j]);
        return st;
    }
    for (size_t i = 0; i < n; i++) { /* streams are flushed: close all before the first rename */
        int bad = fclose(o[i].f) != 0;
        o[i].f = NULL;
        if (bad && !st) st = pm_error_set(err, PM_ERR_IO, paths[i], PM_NO_OFFSET, "write failed: %s", strerror(errno));
    }
    for (size_t i = 0; i < n && !st; i++) {
        if ((st = pm_outfile_commit(&o[i], err))) {
            for (size_t j = i + 1; j < n; j++) pm_outfile_abort(&o[j]);
            return st;
        }
    }
    if (st)
        for (size_t j = 0; j < n; j++) pm_outfile_abort(&o[j]);
    return st;
}
