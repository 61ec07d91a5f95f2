/*
 * param_report.c — the state of each Filecoin parameter file of a directory (param_report.h).
 */
#include "filecoin/param_report.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "filecoin/param_safety.h"
#include "filecoin/sizes.h"
#include "groth16/params.h"
#include "util/progress.h"

const char *fil_param_file_state_name(fil_param_file_state_t s) {
    static const char *const names[] = {"absent", "Filecoin's", "header ok", "proofmill test parameters",
                                        "TRUNCATED", "BAD"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

/* The header check of the file at path (a regular file): FIL_PF_HEADER_OK when consistent, else
 * FIL_PF_TRUNCATED or FIL_PF_BAD with why[] saying what is wrong. */
static fil_param_file_state_t header_check(char *why, size_t cap, const char *path, const char *ext) {
    pm_error e;
    pm_error_clear(&e);
    pm_status st;
    if (!strcmp(ext, ".params")) {
        bp_params_counts_t c;
        st = params_read_counts(&c, path, &e);
    } else {
        bp_vk_t vk = {0};
        st = params_vk_read(&vk, path, 0, &e);
        params_vk_free(&vk);
    }
    if (!st) return FIL_PF_HEADER_OK;
    snprintf(why, cap, "%s", e.msg);
    /* A size that disagrees with the counts, or a header cut short, is a download that stopped —
     * when the header is plausibly Filecoin's: the vk's IC count (u32 big-endian after alpha_g1,
     * beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2: 864 bytes) is at most 2^24 (Filecoin's
     * largest, the 32 GiB WindowPoSt, has 25,840). Other bytes are not a cut Filecoin file. */
    if (st != PM_ERR_FORMAT || !(strstr(e.msg, "truncated") || strstr(e.msg, "differs"))) return FIL_PF_BAD;
    uint8_t h[868];
    FILE *fp = fopen(path, "rb");
    size_t got = fp ? fread(h, 1, sizeof h, fp) : 0;
    if (fp) fclose(fp);
    if (got < sizeof h) return FIL_PF_TRUNCATED; /* cut inside the vk's fixed points */
    uint32_t n_ic = (uint32_t)h[864] << 24 | (uint32_t)h[865] << 16 | (uint32_t)h[866] << 8 | h[867];
    return n_ic <= (1u << 24) ? FIL_PF_TRUNCATED : FIL_PF_BAD;
}

pm_status fil_param_survey(fil_param_file_t **files, size_t *n, const char *dir, int quick, unsigned threads,
                           pm_error *err) {
    size_t nk;
    const fil_known_digest_t *k = fil_known_digests(&nk);
    fil_param_file_t *f = calloc(nk, sizeof *f);
    if (!f) return pm_error_set(err, PM_ERR_NOMEM, dir, PM_NO_OFFSET, "file list");
    uint64_t total = 0;
    for (size_t i = 0; i < nk; i++) {
        char stem[256];
        pm_status st = fil_param_stem(stem, sizeof stem, k[i].kind, k[i].sector_size, err);
        if (st) {
            free(f);
            return st;
        }
        f[i].kind = k[i].kind;
        f[i].sector_size = k[i].sector_size;
        f[i].ext = k[i].ext;
        f[i].digest = k[i].digest;
        snprintf(f[i].name, sizeof f[i].name, "%s%s", stem, k[i].ext);
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, f[i].name);
        struct stat sb; /* stat, not open: a FIFO under the name must not block */
        if (stat(path, &sb) != 0) continue;
        f[i].bytes = (uint64_t)sb.st_size;
        if (fil_param_is_marked_test(dir, f[i].name)) f[i].state = FIL_PF_TEST;
        else if (!S_ISREG(sb.st_mode)) {
            f[i].state = FIL_PF_BAD;
            snprintf(f[i].why, sizeof f[i].why, "not a regular file");
        } else {
            f[i].state = FIL_PF_HEADER_OK; /* to be checked below */
            total += f[i].bytes;
        }
    }
    if (!quick) pm_progress_stage("hashing", total);
#ifdef _OPENMP
    int nt = threads ? (int)threads : omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 1) num_threads(nt)
#endif
    for (size_t i = 0; i < nk; i++) {
        if (f[i].state != FIL_PF_HEADER_OK) continue;
        char path[4400];
        snprintf(path, sizeof path, "%s/%s", dir, f[i].name);
        if (quick) {
            f[i].state = header_check(f[i].why, sizeof f[i].why, path, f[i].ext);
            continue;
        }
        pm_error e;
        pm_error_clear(&e);
        if (fil_param_digest_progress(f[i].got, NULL, path, 1, &e)) {
            f[i].state = FIL_PF_BAD;
            snprintf(f[i].why, sizeof f[i].why, "unreadable: %s", e.msg);
        } else if (!strcmp(f[i].got, f[i].digest)) {
            f[i].state = FIL_PF_GENUINE;
        } else {
            char hw[500] = "";
            fil_param_file_state_t h = header_check(hw, sizeof hw, path, f[i].ext);
            if (h == FIL_PF_TRUNCATED) {
                f[i].state = FIL_PF_TRUNCATED;
                snprintf(f[i].why, sizeof f[i].why, "%s (digest %s, expected %s)", hw, f[i].got, f[i].digest);
            } else {
                f[i].state = FIL_PF_BAD;
                snprintf(f[i].why, sizeof f[i].why, "digest %s, expected %s (%s)", f[i].got, f[i].digest,
                         h == FIL_PF_HEADER_OK ? "a well-formed file of another setup, or corrupt points"
                                               : "and its header is malformed");
            }
        }
    }
    (void)threads;
    *files = f;
    *n = nk;
    return PM_OK;
}

const char *fil_param_dir_summary(char *buf, size_t cap, const char *dir) {
    size_t nk, o = 0;
    const fil_known_digest_t *k = fil_known_digests(&nk);
    if (cap) buf[0] = 0;
    for (size_t i = 0; i < nk && o + 1 < cap; i++) {
        if (strcmp(k[i].ext, ".vk")) continue;
        char stem[256], vk[4400], pa[4400], got[33];
        pm_error e;
        if (fil_param_stem(stem, sizeof stem, k[i].kind, k[i].sector_size, &e)) continue;
        snprintf(vk, sizeof vk, "%s/%s.vk", dir, stem);
        snprintf(pa, sizeof pa, "%s/%s.params", dir, stem);
        struct stat sv, sp;
        int has_vk = stat(vk, &sv) == 0 && S_ISREG(sv.st_mode), has_pa = stat(pa, &sp) == 0;
        if (!has_vk && !has_pa) continue;
        const char *what;
        char name[300];
        snprintf(name, sizeof name, "%s.vk", stem);
        if (!has_vk) what = ".vk missing";
        else if (fil_param_is_marked_test(dir, name)) what = "proofmill test parameters";
        else if (fil_param_digest(got, NULL, vk, &e)) what = ".vk unreadable";
        else if (strcmp(got, k[i].digest)) what = "NOT Filecoin's (.vk digest differs)";
        else what = has_pa ? "Filecoin's" : "Filecoin's .vk, .params missing";
        const fil_sector_info_t *si = fil_sector_info(k[i].sector_size);
        int w = snprintf(buf + o, cap - o, "%s%s %s %s", o ? ", " : "", fil_param_kind_name(k[i].kind),
                         si ? si->name : "?", what);
        if (w < 0 || (size_t)w >= cap - o) {
            if (cap > 4) snprintf(buf + cap - 4, 4, "...");
            return buf;
        }
        o += (size_t)w;
    }
    if (!o && cap) snprintf(buf, cap, "no Filecoin parameter files");
    return buf;
}
