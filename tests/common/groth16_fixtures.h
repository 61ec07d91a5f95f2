/*
 * groth16_fixtures.h — fixture discovery and file helpers for the test_groth16_*.c tests.
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

#define G16_MAX_FIXTURES 16

typedef struct {
    char dir[2048];
    char name[512];
    long zkey_size;
} g16_fixture;

static int g16_file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static long g16_file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* collect the folders under base that contain circuit.zkey + witness.wtns + proof_det.json */
static void g16_scan(g16_fixture *out, size_t *n, const char *base, const char *label) {
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

static int g16_cmp_size(const void *a, const void *b) {
    long x = ((const g16_fixture *)a)->zkey_size, y = ((const g16_fixture *)b)->zkey_size;
    return (x > y) - (x < y);
}

/* All fixtures, smallest zkey first. Prints what it found (and when shared fixtures are absent). */
static size_t g16_fixtures(g16_fixture *out) {
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
static char *g16_read(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) b[n] = 0;
    if (len) *len = (size_t)n;
    return b;
}

static char *g16_path(char *buf, size_t n, const g16_fixture *fx, const char *file) {
    int k = snprintf(buf, n, "%s/%s", fx->dir, file);
    if (k < 0 || (size_t)k >= n) buf[0] = 0;
    return buf;
}

#endif
