/*
 * groth16_fixtures.h — fixture discovery and file helpers for the tests that prove the snarkjs
 * fixtures (groth16, engine).
 * Fixtures: every BLS12-381 folder of ../shared/fixtures/bls12381 (when present; said visibly when
 * absent) and the repository's own tests/data/<name> folders that hold a circuit.zkey.
 */
#ifndef PROOFMILL_TEST_GROTH16_COMMON_H
#define PROOFMILL_TEST_GROTH16_COMMON_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "field/fr.h"
#include "groth16/decimal.h"
#include "test_util.h"

#define G16_MAX_FIXTURES 16

typedef struct {
    char dir[2048];
    char name[512];
    long zkey_size;
} g16_fixture;

static inline int g16_file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static inline long g16_file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* collect the folders under base that contain circuit.zkey + witness.wtns + proof_det.json */
static inline void g16_scan(g16_fixture *out, size_t *n, const char *base, const char *label) {
    DIR *d = opendir(base);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d)) && *n < G16_MAX_FIXTURES) {
        if (e->d_name[0] == '.') continue;
        char z[4096], w[4096], p[4096];
        snprintf(z, sizeof z, "%s/%s/circuit.zkey", base, e->d_name);
        snprintf(w, sizeof w, "%s/%s/witness.wtns", base, e->d_name);
        snprintf(p, sizeof p, "%s/%s/proof_det.json", base, e->d_name);
        if (!g16_file_exists(z) || !g16_file_exists(w) || !g16_file_exists(p)) continue;
        snprintf(out[*n].dir, sizeof out[*n].dir, "%s/%s", base, e->d_name);
        snprintf(out[*n].name, sizeof out[*n].name, "%s/%s", label, e->d_name);
        out[*n].zkey_size = g16_file_size(z);
        (*n)++;
    }
    closedir(d);
}

static inline int g16_cmp_size(const void *a, const void *b) {
    long x = ((const g16_fixture *)a)->zkey_size, y = ((const g16_fixture *)b)->zkey_size;
    return (x > y) - (x < y);
}

/* All fixtures, smallest zkey first. Prints what it found (and when shared fixtures are absent). */
static inline size_t g16_fixtures(g16_fixture *out) {
    size_t n = 0;
    char base[1200];
    const char *shared = pm_shared_fixtures();
    if (shared) {
        snprintf(base, sizeof base, "%s/bls12381", shared);
        g16_scan(out, &n, base, "shared");
    } else {
        printf("NOTE: ../shared/fixtures not found: only the repository's tests/data fixtures run\n");
    }
    snprintf(base, sizeof base, "%s/tests/data", pm_source_dir());
    g16_scan(out, &n, base, "tests/data");
    qsort(out, n, sizeof *out, g16_cmp_size);
    for (size_t i = 0; i < n; i++) printf("fixture %s (%s)\n", out[i].name, out[i].dir);
    return n;
}

/* whole file as a NUL-terminated malloc'd buffer (NULL if unreadable); *len set if non-NULL */
static inline char *g16_read(const char *path, size_t *len) {
    size_t n = 0;
    char *b = (char *)pm_test_slurp(path, &n);
    if (len) *len = n;
    return b;
}

/* snarkjs's r, s of a fixture (its proof_det_rs.json at path: {"r": "<decimal>", "s": ...}) in
 * Montgomery form: 0, or -1 when the file is absent; a malformed file fails the test. */
static inline int g16_read_rs(fr_t *r, fr_t *s, const char *path) {
    size_t n;
    char *t = (char *)pm_test_slurp(path, &n);
    if (!t) return -1;
    char rd[100] = {0}, sd[100] = {0};
    const char *pr = strstr(t, "\"r\""), *ps = strstr(t, "\"s\"");
    int ok = pr && ps && sscanf(pr, "\"r\" : \"%99[0-9]\"", rd) == 1 && sscanf(ps, "\"s\" : \"%99[0-9]\"", sd) == 1;
    free(t);
    if (!ok) fail_msg("%s: no \"r\" and \"s\" decimal strings", path);
    assert_int_equal(groth16_fr_from_decimal(r, rd, path, "r", NULL), PM_OK);
    assert_int_equal(groth16_fr_from_decimal(s, sd, path, "s", NULL), PM_OK);
    return 0;
}

static inline char *g16_path(char *buf, size_t n, const g16_fixture *fx, const char *file) {
    int k = snprintf(buf, n, "%s/%s", fx->dir, file);
    if (k < 0 || (size_t)k >= n) buf[0] = 0;
    return buf;
}

#endif
