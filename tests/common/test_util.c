#include "test_util.h"

#include "util/file.h"
#include "util/splitmix.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static uint64_t s[4];
static int seeded;

static uint64_t splitmix(uint64_t *x) { return pm_splitmix64(x); }

uint64_t pm_test_seed(void) {
    static uint64_t seed;
    if (seeded) return seed;
    const char *e = getenv("PROOFMILL_SEED");
    if (e && *e) seed = strtoull(e, NULL, 10);
    else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec;
    }
    uint64_t x = seed;
    for (int i = 0; i < 4; i++) s[i] = splitmix(&x);
    seeded = 1;
    printf("seed: %llu (rerun with PROOFMILL_SEED=%llu)\n", (unsigned long long)seed,
           (unsigned long long)seed);
    fflush(stdout);
    return seed;
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t pm_rand64(void) {
    if (!seeded) pm_test_seed();
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void pm_rand_bytes(uint8_t *out, size_t n) {
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)pm_rand64();
}

size_t pm_test_iters(size_t d) {
    const char *e = getenv("PROOFMILL_ITERATIONS");
    if (!e || !*e) return d;
    size_t v = (size_t)((double)d * strtod(e, NULL) / 100.0);
    return v ? v : 1;
}

void pm_rand_fp(fp_t *r) {
    for (;;) {
        fp_t t;
        for (int i = 0; i < 6; i++) t.l[i] = pm_rand64();
        t.l[5] &= 0x1fffffffffffffffULL;
        int lt = 0;
        for (int i = 5; i >= 0; i--) {
            if (t.l[i] < FP_MODULUS.l[i]) { lt = 1; break; }
            if (t.l[i] > FP_MODULUS.l[i]) break;
        }
        if (lt) { *r = t; return; }
    }
}

void pm_rand_fr(fr_t *r) {
    for (;;) {
        fr_t t;
        for (int i = 0; i < 4; i++) t.l[i] = pm_rand64();
        t.l[3] &= 0x7fffffffffffffffULL;
        int lt = 0;
        for (int i = 3; i >= 0; i--) {
            if (t.l[i] < FR_MODULUS.l[i]) { lt = 1; break; }
            if (t.l[i] > FR_MODULUS.l[i]) break;
        }
        if (lt) { *r = t; return; }
    }
}

void pm_mpz_from_limbs(mpz_t z, const uint64_t *l, size_t n) {
    mpz_import(z, n, -1, sizeof(uint64_t), 0, 0, l);
}

void pm_limbs_from_mpz(uint64_t *l, size_t n, const mpz_t z) {
    memset(l, 0, n * sizeof(uint64_t));
    size_t cnt = 0;
    mpz_export(l, &cnt, -1, sizeof(uint64_t), 0, 0, z);
}

const char *pm_source_dir(void) {
    const char *e = getenv("PROOFMILL_SOURCE_DIR");
    return (e && *e) ? e : ".";
}

const char *pm_shared_fixtures(void) {
    static char buf[4096];
    struct stat st;
    const char *no = getenv("PROOFMILL_NO_SHARED");
    if (no && *no && strcmp(no, "0")) return NULL; /* act as on a user's machine */
    const char *e = getenv("PROOFMILL_SHARED_FIXTURES");
    if (e && *e && stat(e, &st) == 0) return e;
    snprintf(buf, sizeof buf, "%s/../shared/fixtures", pm_source_dir());
    if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode)) return buf;
    return NULL;
}

int pm_fixture_path(char *out, size_t n, const char *curve, const char *circuit, const char *file) {
    const char *fx = pm_shared_fixtures();
    if (fx) {
        snprintf(out, n, "%s/%s/%s/%s", fx, curve, circuit, file);
        return 1;
    }
    if (strcmp(curve, "bls12381") != 0) {
        printf("SKIP: ../shared/fixtures not found: no %s/%s fixture in tests/data\n", curve, circuit);
        return 0;
    }
    /* the repository's own fixtures stand in: multiplier for multiplier, powchain for the rest */
    const char *local = strcmp(circuit, "multiplier") == 0 ? "multiplier" : "powchain";
    static int noted;
    if (!noted) {
        printf("NOTE: ../shared/fixtures not found: using tests/data (%s for %s, ...)\n", local, circuit);
        noted = 1;
    }
    snprintf(out, n, "%s/tests/data/%s/%s", pm_source_dir(), local, file);
    return 1;
}

uint8_t *pm_test_slurp(const char *path, size_t *n) {
    char *b = NULL;
    return pm_file_read_all(&b, n, path, 0, 0, NULL) == PM_OK ? (uint8_t *)b : NULL;
}

int pm_test_mkdtemp(char *dir, size_t cap, const char *prefix) {
    if (snprintf(dir, cap, "/tmp/%s_XXXXXX", prefix) >= (int)cap) return -1;
    return mkdtemp(dir) ? 0 : -1;
}

int pm_test_rmtree(const char *dir) {
    char cmd[1200];
    if (snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir) >= (int)sizeof cmd) return -1;
    return system(cmd) == 0 ? 0 : -1;
}

void pm_put_le32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

void pm_put_le64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

size_t pm_test_mutations(const uint8_t *img, size_t n, size_t iters,
                         int (*reader)(const uint8_t *img, size_t n)) {
    uint8_t *m = malloc(n ? n : 1);
    size_t refused = 0;
    for (size_t it = 0; m && n && it < iters; it++) {
        memcpy(m, img, n);
        int flips = 1 + (int)(pm_rand64() % 4);
        for (int f = 0; f < flips; f++) m[pm_rand64() % n] ^= (uint8_t)(1u + pm_rand64() % 255u);
        refused += reader(m, n) != 0;
    }
    printf("%zu mutated images, %zu refused, none crashed\n", iters, refused);
    free(m);
    return refused;
}
