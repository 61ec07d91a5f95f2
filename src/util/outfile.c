/*
 * outfile.c — atomic output files (outfile.h).
 */
#include "util/outfile.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

pm_status pm_outfile_begin(pm_outfile *o, const char *path, pm_error *err) {
    memset(o, 0, sizeof *o);
    if (!path || !*path) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "no output file name");
    int k = snprintf(o->path, sizeof o->path, "%s", path);
    int t = snprintf(o->tmp, sizeof o->tmp, "%s.tmp.%ld", path, (long)getpid());
    if (k < 0 || (size_t)k >= sizeof o->path || t < 0 || (size_t)t >= sizeof o->tmp) {
        o->tmp[0] = 0;
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "path too long");
    }
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        o->tmp[0] = 0;
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "is a directory, not an output file");
    }
    return PM_OK;
}

pm_status pm_outfile_open(pm_outfile *o, const char *path, pm_error *err) {
    pm_status st = pm_outfile_begin(o, path, err);
    if (st) return st;
    o->f = fopen(o->tmp, "wb");
    if (!o->f) {
        int e = errno;
        o->tmp[0] = 0;
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot create: %s", strerror(e));
    }
    return PM_OK;
}

pm_status pm_outfile_commit(pm_outfile *o, pm_error *err) {
    if (o->f) {
        int bad = ferror(o->f), e = errno ? errno : EIO;
        if (fclose(o->f) != 0 && !bad) bad = 1, e = errno;
        o->f = NULL;
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
    o->f = NULL;
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
