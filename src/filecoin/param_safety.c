/*
 * param_safety.c — keeping our test parameters apart from Filecoin's (param_safety.h).
 */
#include "filecoin/param_safety.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/settings.h"

static int same_dir(const char *a, const char *b) {
    char ra[PATH_MAX], rb[PATH_MAX];
    if (!a || !b || !*a || !*b) return 0;
    if (!realpath(a, ra) || !realpath(b, rb)) return 0;
    return !strcmp(ra, rb);
}

static int is_param_name(const char *n) {
    size_t l = strlen(n);
    if (strncmp(n, "v28-", 4)) return 0;
    return (l > 7 && !strcmp(n + l - 7, ".params")) || (l > 3 && !strcmp(n + l - 3, ".vk")) ||
           (l > 5 && !strcmp(n + l - 5, ".meta"));
}

/* 1 when name is a line of dir's marker file */
static int marked(const char *dir, const char *name) {
    char path[PATH_MAX + 64], line[512];
    snprintf(path, sizeof path, "%s/%s", dir, FIL_PARAM_MARKER);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        found = !strcmp(line, name);
    }
    fclose(f);
    return found;
}

int fil_param_is_marked_test(const char *dir, const char *name) { return marked(dir, name); }

const char *fil_param_default_dir(void) {
    const char *env = pm_setting_str("filecoin.params_dir"); /* FIL_PROOFS_PARAMETER_CACHE */
    return env && *env ? env : FIL_PARAM_DEFAULT_CACHE;
}

pm_status fil_param_dir_check(const char *dir, int allow, pm_error *err) {
    if (allow) return PM_OK;
    struct stat sb;
    if (stat(dir, &sb) != 0) return PM_OK; /* created by the caller: empty */
    const char *env = pm_setting_str("filecoin.params_dir"); /* FIL_PROOFS_PARAMETER_CACHE */
    if (same_dir(dir, env) || same_dir(dir, FIL_PARAM_DEFAULT_CACHE))
        return pm_error_set(err, PM_ERR_ARG, dir, PM_NO_OFFSET,
                            "is Filecoin's parameter cache (%s): refusing to write test parameters under Filecoin's "
                            "names there (pass --allow-filecoin-dir to insist)",
                            same_dir(dir, env) ? "FIL_PROOFS_PARAMETER_CACHE" : FIL_PARAM_DEFAULT_CACHE);
    DIR *d = opendir(dir);
    if (!d) return pm_error_set(err, PM_ERR_IO, dir, PM_NO_OFFSET, "cannot list: %s", strerror(errno));
    struct dirent *e;
    pm_status st = PM_OK;
    while (!st && (e = readdir(d)))
        if (is_param_name(e->d_name) && !marked(dir, e->d_name))
            st = pm_error_set(err, PM_ERR_ARG, dir, PM_NO_OFFSET,
                              "holds %s, a Filecoin parameter file proofmill did not write: refusing to add test "
                              "parameters beside it (pass --allow-filecoin-dir to insist)",
                              e->d_name);
    closedir(d);
    return st;
}

pm_status fil_param_mark_test(const char *dir, const char *name, pm_error *err) {
    if (marked(dir, name)) return PM_OK;
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, FIL_PARAM_MARKER);
    struct stat sb;
    int fresh = stat(path, &sb) != 0;
    FILE *f = fopen(path, "a");
    if (!f) return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot write: %s", strerror(errno));
    if (fresh)
        fprintf(f, "# proofmill TEST parameters (own setup, not Filecoin's ceremony): never use them for Filecoin proofs\n");
    fprintf(f, "%s\n", name);
    if (fclose(f)) return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot write: %s", strerror(errno));
    return PM_OK;
}

pm_status fil_param_origin(fil_params_origin_t *o, char digest[33], const char *vk_path, fil_param_kind_t kind,
                           uint64_t sector_size, pm_error *err) {
    *o = FIL_PARAMS_UNKNOWN;
    char got[33];
    pm_status st = fil_param_digest(got, NULL, vk_path, err);
    if (st) return st;
    if (digest) memcpy(digest, got, 33);
    size_t n;
    const fil_known_digest_t *k = fil_known_digests(&n);
    for (size_t i = 0; i < n; i++)
        if (k[i].kind == kind && k[i].sector_size == sector_size && !strcmp(k[i].ext, ".vk"))
            *o = strcmp(k[i].digest, got) ? FIL_PARAMS_TEST : FIL_PARAMS_FILECOIN;
    return PM_OK;
}

const char *fil_params_origin_text(char *buf, size_t n, fil_params_origin_t o, const char *digest,
                                   fil_param_kind_t kind, uint64_t sector_size) {
    const char *want = "";
    size_t nk;
    const fil_known_digest_t *k = fil_known_digests(&nk);
    for (size_t i = 0; i < nk; i++)
        if (k[i].kind == kind && k[i].sector_size == sector_size && !strcmp(k[i].ext, ".vk")) want = k[i].digest;
    if (o == FIL_PARAMS_FILECOIN) snprintf(buf, n, "Filecoin's published parameters (.vk digest %s)", digest);
    else if (o == FIL_PARAMS_TEST)
        snprintf(buf, n, "test parameters (.vk digest %s; Filecoin's is %s)", digest ? digest : "?", want);
    else snprintf(buf, n, "test parameters (no published %s digest for this size)", fil_param_kind_name(kind));
    return buf;
}
