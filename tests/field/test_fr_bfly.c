/*
 * test_fr_bfly.c — the fused Fr butterflies (field/fr_bfly.h) against fr_mul, fr_sub and fr_add, bit
 * for bit, and against the portable C of mont_impl.h (mont_bfly_dit/dif).
 *
 * One source, three runs (tests/field/CMakeLists.txt): test_fr_bfly (asm build: the BMI2+ADX kernels
 * when the CPU has them), test_fr_bfly_fallback (the same executable with PROOFMILL_FIELD_BACKEND=
 * portable) and test_fr_bfly_portable (linked with proofmill_core_portable). Random operands (seeded:
 * pm_test_seed prints the seed, PROOFMILL_SEED=N reproduces it; PROOFMILL_ITERATIONS scales the
 * count) and every triple of edge values (0, 1, 2, r-1, r-2, (r+-1)/2, limb boundaries, R mod r, the
 * Montgomery forms of 1 and -1, the top bit), which covers x = y, w = 0 and w = 1; the aliasing the
 * header allows (DIT: w = x, w = y; DIF: w = y); the plural forms over rows of 0..40 elements.
 */
#include <stdio.h>
#include <string.h>

#include "field/fr.h"
#include "field/fr_bfly.h"
#include "field/mont_impl.h"
#include "test_util.h"

#define ITERS 100000
#define MAX_EDGES 32

static void rand_fr(fr_t *a) { pm_rand_fr(a); }

/* the reference: three separate calls of the linked backend */
static void ref_dit(fr_t *x, fr_t *y, const fr_t *w) {
    fr_t t;
    fr_mul(&t, w, y);
    fr_sub(y, x, &t);
    fr_add(x, x, &t);
}
static void ref_dif(fr_t *x, fr_t *y, const fr_t *w) {
    fr_t t, ww = *w;
    fr_sub(&t, x, y);
    fr_add(x, x, y);
    fr_mul(y, &t, &ww);
}

/* edge values as limbs (each below r, so each a valid Montgomery form) */
static int edges(fr_t *out) {
    mpz_t m, v;
    mpz_inits(m, v, NULL);
    pm_mpz_from_limbs(m, FR_MODULUS.l, 4);
    int c = 0;
#define PUSH() (mpz_mod(v, v, m), pm_limbs_from_mpz(out[c++].l, 4, v))
    for (long k = 0; k <= 2; k++) { mpz_set_si(v, k); PUSH(); }
    for (long k = 1; k <= 2; k++) { mpz_sub_ui(v, m, (unsigned long)k); PUSH(); }
    mpz_sub_ui(v, m, 1); mpz_fdiv_q_2exp(v, v, 1); PUSH();
    mpz_add_ui(v, m, 1); mpz_fdiv_q_2exp(v, v, 1); PUSH();
    for (int k = 1; k < 4; k++) {
        mpz_set_ui(v, 1); mpz_mul_2exp(v, v, (mp_bitcnt_t)(64 * k)); mpz_sub_ui(v, v, 1); PUSH();
        mpz_add_ui(v, v, 1); PUSH();
    }
    mpz_set_ui(v, 1); mpz_mul_2exp(v, v, 256); PUSH();   /* R mod r */
    mpz_set_ui(v, 1); mpz_mul_2exp(v, v, 254); PUSH();   /* top bit of r */
#undef PUSH
    out[c++] = FR_ONE;                                    /* the value 1 */
    fr_neg(&out[c], &FR_ONE); c++;                        /* the value -1 */
    mpz_clears(m, v, NULL);
    return c;
}

static void check_dit(const fr_t *x0, const fr_t *y0, const fr_t *w0) {
    fr_t x = *x0, y = *y0, rx = *x0, ry = *y0, px = *x0, py = *y0;
    fr_bfly_dit(&x, &y, w0);
    ref_dit(&rx, &ry, w0);
    mont_bfly_dit(px.l, py.l, w0->l, FR_MODULUS.l, FR_N0, 4);
    assert_memory_equal(x.l, rx.l, sizeof x.l);
    assert_memory_equal(y.l, ry.l, sizeof y.l);
    assert_memory_equal(x.l, px.l, sizeof x.l);
    assert_memory_equal(y.l, py.l, sizeof y.l);
}
static void check_dif(const fr_t *x0, const fr_t *y0, const fr_t *w0) {
    fr_t x = *x0, y = *y0, rx = *x0, ry = *y0, px = *x0, py = *y0;
    fr_bfly_dif(&x, &y, w0);
    ref_dif(&rx, &ry, w0);
    mont_bfly_dif(px.l, py.l, w0->l, FR_MODULUS.l, FR_N0, 4);
    assert_memory_equal(x.l, rx.l, sizeof x.l);
    assert_memory_equal(y.l, ry.l, sizeof y.l);
    assert_memory_equal(x.l, px.l, sizeof x.l);
    assert_memory_equal(y.l, py.l, sizeof y.l);
}
static void check_triv(const fr_t *x0, const fr_t *y0) {
    fr_t x = *x0, y = *y0, rx, ry;
    fr_bfly_triv(&x, &y);
    fr_add(&rx, x0, y0);
    fr_sub(&ry, x0, y0);
    assert_memory_equal(x.l, rx.l, sizeof x.l);
    assert_memory_equal(y.l, ry.l, sizeof y.l);
}

static void backend_reported(void **state) {
    (void)state;
    printf("fr backend: %s\n", fr_backend());
}

static void random_single(void **state) {
    (void)state;
    size_t iters = pm_test_iters(ITERS);
    for (size_t i = 0; i < iters; i++) {
        fr_t x, y, w;
        rand_fr(&x);
        rand_fr(&y);
        rand_fr(&w);
        if (i % 16 == 3) y = x; /* equal values in distinct memory */
        check_dit(&x, &y, &w);
        check_dif(&x, &y, &w);
        check_triv(&x, &y);
    }
}

static void edge_triples(void **state) {
    (void)state;
    fr_t e[MAX_EDGES];
    int ne = edges(e);
    for (int i = 0; i < ne; i++) {
        assert_true(mont_lt(e[i].l, FR_MODULUS.l, 4));
        for (int j = 0; j < ne; j++) {
            check_triv(&e[i], &e[j]);
            for (int k = 0; k < ne; k++) {
                check_dit(&e[i], &e[j], &e[k]);
                check_dif(&e[i], &e[j], &e[k]);
            }
        }
    }
    /* random x, y against edge w (w = 0 and w = 1 among them) and the reverse */
    for (int k = 0; k < ne; k++)
        for (int it = 0; it < 64; it++) {
            fr_t x, y;
            rand_fr(&x);
            rand_fr(&y);
            check_dit(&x, &y, &e[k]);
            check_dif(&x, &y, &e[k]);
            check_dit(&e[k], &y, &x);
            check_dif(&x, &e[k], &y);
        }
}

/* the aliasing fr_bfly.h allows: DIT w = x and w = y, DIF w = y */
static void aliasing(void **state) {
    (void)state;
    size_t iters = pm_test_iters(ITERS / 10);
    for (size_t i = 0; i < iters; i++) {
        fr_t x, y, rx, ry, w;
        rand_fr(&x);
        rand_fr(&y);
        rx = x, ry = y, w = x;
        ref_dit(&rx, &ry, &w);
        fr_bfly_dit(&x, &y, &x);
        assert_memory_equal(x.l, rx.l, sizeof x.l);
        assert_memory_equal(y.l, ry.l, sizeof y.l);
        rx = x, ry = y, w = y;
        ref_dit(&rx, &ry, &w);
        fr_bfly_dit(&x, &y, &y);
        assert_memory_equal(x.l, rx.l, sizeof x.l);
        assert_memory_equal(y.l, ry.l, sizeof y.l);
        rx = x, ry = y, w = y;
        ref_dif(&rx, &ry, &w);
        fr_bfly_dif(&x, &y, &y);
        assert_memory_equal(x.l, rx.l, sizeof x.l);
        assert_memory_equal(y.l, ry.l, sizeof y.l);
    }
}

/* the plural forms against the single ones, rows of 0..40 (y right after x, as in the NTT, and apart),
 * with guard elements around the rows that must stay untouched */
static void rows(void **state) {
    (void)state;
    enum { NMAX = 40 };
    size_t iters = pm_test_iters(ITERS / 100);
    fr_t buf[3 * NMAX + 4], ref[3 * NMAX + 4], w[NMAX];
    for (size_t it = 0; it < iters; it++) {
        const size_t n = (size_t)(pm_rand64() % (NMAX + 1));
        const int adjacent = (int)(it & 1), dif = (int)((it >> 1) & 1);
        for (size_t i = 0; i < 3 * NMAX + 4; i++) rand_fr(&buf[i]);
        for (size_t i = 0; i < n; i++) rand_fr(&w[i]);
        memcpy(ref, buf, sizeof buf);
        fr_t *x = buf + 1, *y = buf + 1 + (adjacent ? n : NMAX + 2);
        fr_t *rxp = ref + 1, *ryp = ref + 1 + (adjacent ? n : NMAX + 2);
        for (size_t i = 0; i < n; i++) {
            if (dif) fr_bfly_dif(&rxp[i], &ryp[i], &w[i]);
            else fr_bfly_dit(&rxp[i], &ryp[i], &w[i]);
        }
        if (dif) fr_bflys_dif(x, y, w, n);
        else fr_bflys_dit(x, y, w, n);
        assert_memory_equal(buf, ref, sizeof buf);
    }
}

/* ---- the radix-2^52 row kernel (fr_bfly_ifma.c): the portable model on every machine and the real
 * AVX-512 IFMA one where the CPU has it, against the scalar singles, byte for byte ---- */
typedef void (*row_fn)(fr_t *, fr_t *, const fr_t *, size_t);

/* one row: fn on (x, y, w) vs fr_bfly_dit/dif element by element; alias: 0 none, 1 w = x, 2 w = y */
static void check_row(row_fn fn, int dif, const fr_t *x0, const fr_t *y0, const fr_t *w0, size_t n, int alias) {
    enum { G = 2 };
    fr_t *buf = test_malloc((2 * n + 2 * G) * sizeof(fr_t)), *ref = test_malloc((2 * n + 2 * G) * sizeof(fr_t));
    fr_t *wcopy = test_malloc((n + 1) * sizeof(fr_t));
    for (size_t i = 0; i < 2 * n + 2 * G; i++) rand_fr(&buf[i]);
    fr_t *x = buf + G, *y = buf + G + n; /* adjacent, as in the NTT, with guards around */
    memcpy(x, x0, n * sizeof(fr_t));
    memcpy(y, y0, n * sizeof(fr_t));
    if (alias == 0) memcpy(wcopy, w0, n * sizeof(fr_t));
    else memcpy(wcopy, alias == 1 ? x : y, n * sizeof(fr_t));
    memcpy(ref, buf, (2 * n + 2 * G) * sizeof(fr_t));
    for (size_t i = 0; i < n; i++) {
        if (dif) fr_bfly_dif(&ref[G + i], &ref[G + n + i], &wcopy[i]);
        else fr_bfly_dit(&ref[G + i], &ref[G + n + i], &wcopy[i]);
    }
    const fr_t *w = alias == 0 ? w0 : alias == 1 ? x : y;
    fn(x, y, w, n);
    assert_memory_equal(buf, ref, (2 * n + 2 * G) * sizeof(fr_t));
    test_free(buf);
    test_free(ref);
    test_free(wcopy);
}

static void vector_rows(row_fn dit, row_fn dif) {
    enum { NMAX = 1100 };
    fr_t *x = test_malloc(NMAX * sizeof(fr_t)), *y = test_malloc(NMAX * sizeof(fr_t)),
         *w = test_malloc(NMAX * sizeof(fr_t));
    /* n = 0..40 gives every n mod 16 with and without 16-wide iterations: the two-step loop, the single
     * step when n mod 16 >= 8 and the scalar n mod 8 rest; 255 and 1100 end with a single step too */
    const size_t big[] = {64, 255, 1024, 1031, NMAX};
    size_t reps = pm_test_iters(20) + 1;
    for (size_t rep = 0; rep < reps; rep++)
        for (size_t k = 0; k < 41 + sizeof big / sizeof big[0]; k++) {
            size_t n = k <= 40 ? k : big[k - 41];
            if (k > 40 && rep > 2) break;
            for (size_t i = 0; i < n; i++) {
                rand_fr(&x[i]);
                rand_fr(&y[i]);
                rand_fr(&w[i]);
            }
            for (int alias = 0; alias < 3; alias++) {
                check_row(dit, 0, x, y, w, n, alias);
                if (alias != 1) check_row(dif, 1, x, y, w, n, alias);
            }
        }
    /* every triple of edge values (0, 1, r-1, r-2, the largest values below r, limb boundaries, R mod
     * r, Montgomery 1 and -1, ...) laid out in rows of 8*k + 5 */
    fr_t e[MAX_EDGES];
    int ne = edges(e);
    size_t n = (size_t)ne * (size_t)ne * (size_t)ne;
    fr_t *ex = test_malloc(n * sizeof(fr_t)), *ey = test_malloc(n * sizeof(fr_t)), *ew = test_malloc(n * sizeof(fr_t));
    size_t c = 0;
    for (int i = 0; i < ne; i++)
        for (int j = 0; j < ne; j++)
            for (int k = 0; k < ne; k++, c++) ex[c] = e[i], ey[c] = e[j], ew[c] = e[k];
    check_row(dit, 0, ex, ey, ew, n, 0);
    check_row(dif, 1, ex, ey, ew, n, 0);
    check_row(dit, 0, ex, ey, ew, n, 2);
    check_row(dif, 1, ex, ey, ew, n, 2);
    /* w = 1 (Montgomery one) everywhere, x, y edge */
    for (size_t i = 0; i < n; i++) ew[i] = FR_ONE;
    check_row(dit, 0, ex, ey, ew, n, 0);
    check_row(dif, 1, ex, ey, ew, n, 0);
    test_free(ex);
    test_free(ey);
    test_free(ew);
    test_free(x);
    test_free(y);
    test_free(w);
}

static void model_rows(void **state) {
    (void)state;
    vector_rows(fr_bflys_dit_model, fr_bflys_dif_model);
}

static void ifma_rows(void **state) {
    (void)state;
    printf("fr_bflys backend: %s\n", fr_bflys_backend());
    if (!fr_bfly_ifma_available()) {
        printf("SKIPPED ifma_rows: this build or CPU/OS has no AVX-512 IFMA (the model covers the kernel)\n");
        skip();
    }
    vector_rows(fr_bflys_dit_ifma, fr_bflys_dif_ifma);
}

int main(void) {
    pm_test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(backend_reported), cmocka_unit_test(random_single), cmocka_unit_test(edge_triples),
        cmocka_unit_test(aliasing),         cmocka_unit_test(rows),
        cmocka_unit_test(model_rows),       cmocka_unit_test(ifma_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
