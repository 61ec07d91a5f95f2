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
 * The element-wise rows of field/fr_rows.h (fr_muls, _by, _scaled, _sub, _powers): the dispatching,
 * model, IFMA (SKIPPED without it) and scalar forms against fr_mul, fr_sub and fr_from_mont element
 * by element, rows of 0..40 and a few longer ones, every aliasing fr_rows.h allows, edge values.
 */
#include <stdio.h>
#include <string.h>

#include "field/fr.h"
#include "field/fr_bfly.h"
#include "field/fr_rows.h"
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

/* ---- the element-wise rows (field/fr_rows.h) against fr_mul / fr_sub / fr_from_mont, element by
 * element, for one backend's five forms ---- */
typedef struct {
    const char *name;
    void (*muls)(fr_t *, const fr_t *, const fr_t *, size_t);
    void (*by)(fr_t *, const fr_t *, size_t, const fr_t *);
    void (*scaled)(fr_t *, const fr_t *, const fr_t *, size_t, const fr_t *);
    void (*sub)(fr_t *, const fr_t *, const fr_t *, const fr_t *, size_t, int);
    void (*powers)(fr_t *, size_t, const fr_t *, const fr_t *);
} rows_impl;

enum { RG = 2 }; /* guard elements on each side of every row, which must stay untouched */

/* a copy of init[0..n) with RG guard elements on each side, the same fixed pattern around every row
 * (so that any two guarded rows compare equal outside the row) */
static fr_t *guarded(size_t n, const fr_t *init) {
    fr_t *g = test_malloc((n + 2 * RG) * sizeof(fr_t));
    for (size_t i = 0; i < RG; i++)
        for (int j = 0; j < 4; j++) {
            g[i].l[j] = 0xA5A5A5A5A5A5A5A5ULL ^ (uint64_t)(4 * i + (size_t)j);
            g[n + RG + i].l[j] = 0x5A5A5A5A5A5A5A5AULL ^ (uint64_t)(4 * i + (size_t)j);
        }
    if (n) memcpy(g + RG, init, n * sizeof(fr_t));
    return g + RG;
}
static void guarded_free(fr_t *r) { test_free(r - RG); }
static void assert_guarded_equal(const fr_t *x, const fr_t *y, size_t n) {
    assert_memory_equal(x - RG, y - RG, (n + 2 * RG) * sizeof(fr_t));
}

/* one row of every form and every allowed aliasing, on inputs a0, b0, c0 (n each) and the single
 * elements k, s */
static void check_elementwise(const rows_impl *f, const fr_t *a0, const fr_t *b0, const fr_t *c0, size_t n,
                              const fr_t *k, const fr_t *s) {
    fr_t *ref = guarded(n, a0), *out = guarded(n, c0), *a = guarded(n, a0), *b = guarded(n, b0), *c = guarded(n, c0);
    /* fr_muls: out apart, out = a, out = b, a = b */
    for (size_t i = 0; i < n; i++) fr_mul(&ref[i], &a0[i], &b0[i]);
    f->muls(out, a, b, n);
    assert_guarded_equal(out, ref, n);
    memcpy(a, a0, n * sizeof(fr_t));
    f->muls(a, a, b, n);
    assert_guarded_equal(a, ref, n);
    memcpy(a, a0, n * sizeof(fr_t));
    memcpy(b, b0, n * sizeof(fr_t));
    f->muls(b, a, b, n);
    assert_memory_equal(b, ref, n * sizeof(fr_t));
    memcpy(b, b0, n * sizeof(fr_t));
    for (size_t i = 0; i < n; i++) fr_mul(&ref[i], &a0[i], &a0[i]);
    f->muls(out, a, a, n);
    assert_guarded_equal(out, ref, n);
    /* fr_muls_by: out apart, out = a with c inside the row */
    for (size_t i = 0; i < n; i++) fr_mul(&ref[i], &a0[i], k);
    f->by(out, a, n, k);
    assert_guarded_equal(out, ref, n);
    if (n) {
        const size_t j = n / 2;
        for (size_t i = 0; i < n; i++) fr_mul(&ref[i], &a0[i], &a0[j]);
        f->by(a, a, n, &a[j]);
        assert_guarded_equal(a, ref, n);
        memcpy(a, a0, n * sizeof(fr_t));
    }
    /* fr_muls_scaled: out apart, out = a, out = b (c inside it) */
    for (size_t i = 0; i < n; i++) {
        fr_mul(&ref[i], &a0[i], &b0[i]);
        fr_mul(&ref[i], &ref[i], k);
    }
    f->scaled(out, a, b, n, k);
    assert_guarded_equal(out, ref, n);
    f->scaled(a, a, b, n, k);
    assert_guarded_equal(a, ref, n);
    memcpy(a, a0, n * sizeof(fr_t));
    if (n) {
        const fr_t kk = b0[n - 1];
        for (size_t i = 0; i < n; i++) {
            fr_mul(&ref[i], &a0[i], &b0[i]);
            fr_mul(&ref[i], &ref[i], &kk);
        }
        f->scaled(b, a, b, n, &b[n - 1]);
        assert_guarded_equal(b, ref, n);
        memcpy(b, b0, n * sizeof(fr_t));
    }
    /* fr_muls_sub with and without from_mont: out apart, out = a, out = b, out = c */
    for (int fm = 0; fm < 2; fm++) {
        for (size_t i = 0; i < n; i++) {
            fr_mul(&ref[i], &a0[i], &b0[i]);
            fr_sub(&ref[i], &ref[i], &c0[i]);
            if (fm) fr_from_mont(&ref[i], &ref[i]);
        }
        f->sub(out, a, b, c, n, fm);
        assert_guarded_equal(out, ref, n);
        fr_t *alias[3] = {a, b, c};
        const fr_t *orig[3] = {a0, b0, c0};
        for (int q = 0; q < 3; q++) {
            f->sub(alias[q], a, b, c, n, fm);
            assert_guarded_equal(alias[q], ref, n);
            memcpy(alias[q], orig[q], n * sizeof(fr_t));
        }
    }
    /* fr_muls_powers: x[i] *= k s^i, with k, s apart and with k, s inside the row */
    {
        fr_t fac = *k;
        for (size_t i = 0; i < n; i++) {
            fr_mul(&ref[i], &a0[i], &fac);
            fr_mul(&fac, &fac, s);
        }
        f->powers(a, n, k, s);
        assert_guarded_equal(a, ref, n);
        memcpy(a, a0, n * sizeof(fr_t));
        if (n) {
            fr_t fac2 = a0[0];
            for (size_t i = 0; i < n; i++) {
                fr_mul(&ref[i], &a0[i], &fac2);
                fr_mul(&fac2, &fac2, &a0[n - 1]);
            }
            f->powers(a, n, &a[0], &a[n - 1]);
            assert_guarded_equal(a, ref, n);
            memcpy(a, a0, n * sizeof(fr_t));
        }
    }
    guarded_free(ref);
    guarded_free(out);
    guarded_free(a);
    guarded_free(b);
    guarded_free(c);
}

static void elementwise_rows(const rows_impl *f) {
    enum { NMAX = 1100 };
    fr_t *a = test_malloc(NMAX * sizeof(fr_t)), *b = test_malloc(NMAX * sizeof(fr_t)), *c = test_malloc(NMAX * sizeof(fr_t));
    fr_t e[MAX_EDGES];
    const int ne = edges(e);
    const size_t big[] = {64, 255, 1024, 1031, NMAX};
    const size_t reps = pm_test_iters(10) + 1;
    for (size_t rep = 0; rep < reps; rep++)
        for (size_t q = 0; q < 41 + sizeof big / sizeof big[0]; q++) {
            const size_t n = q <= 40 ? q : big[q - 41];
            if (q > 40 && rep > 1) break;
            for (size_t i = 0; i < n; i++) {
                rand_fr(&a[i]);
                rand_fr(&b[i]);
                rand_fr(&c[i]);
            }
            fr_t k, s;
            rand_fr(&k);
            rand_fr(&s);
            check_elementwise(f, a, b, c, n, &k, &s);
            /* edge single elements (0, 1, R mod r, Montgomery 1 and -1, ...) */
            const int ek = (int)(pm_rand64() % (uint64_t)ne), es = (int)(pm_rand64() % (uint64_t)ne);
            check_elementwise(f, a, b, c, n, &e[ek], &e[es]);
        }
    /* every pair and triple of edge values in one long row (8k + r layout: all lanes see them) */
    size_t n = 0;
    for (int i = 0; i < ne; i++)
        for (int j = 0; j < ne && n < NMAX; j++, n++) {
            a[n] = e[i];
            b[n] = e[j];
            c[n] = e[(i + j) % ne];
        }
    for (int q = 0; q < ne; q++) check_elementwise(f, a, b, c, n, &e[q], &e[(q * 7 + 3) % ne]);
    printf("%s: element-wise rows OK\n", f->name);
    test_free(a);
    test_free(b);
    test_free(c);
}

static void elementwise_default(void **state) {
    (void)state;
    const rows_impl f = {"fr_muls (dispatch)", fr_muls, fr_muls_by, fr_muls_scaled, fr_muls_sub, fr_muls_powers};
    elementwise_rows(&f);
}
static void elementwise_model(void **state) {
    (void)state;
    const rows_impl f = {"fr_muls_*_model", fr_muls_model, fr_muls_by_model, fr_muls_scaled_model,
                         fr_muls_sub_model, fr_muls_powers_model};
    elementwise_rows(&f);
}
static void elementwise_ifma(void **state) {
    (void)state;
    if (!fr_bfly_ifma_available()) {
        printf("SKIPPED elementwise_ifma: this build or CPU/OS has no AVX-512 IFMA (the model covers the kernel)\n");
        skip();
    }
    const rows_impl f = {"fr_muls_*_ifma", fr_muls_ifma, fr_muls_by_ifma, fr_muls_scaled_ifma, fr_muls_sub_ifma,
                         fr_muls_powers_ifma};
    elementwise_rows(&f);
}
static void elementwise_scalar(void **state) {
    (void)state;
    const rows_impl f = {"fr_muls_*_scalar", fr_muls_scalar, fr_muls_by_scalar, fr_muls_scaled_scalar,
                         fr_muls_sub_scalar, fr_muls_powers_scalar};
    elementwise_rows(&f);
}

int main(void) {
    pm_test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(backend_reported), cmocka_unit_test(random_single), cmocka_unit_test(edge_triples),
        cmocka_unit_test(aliasing),         cmocka_unit_test(rows),
        cmocka_unit_test(model_rows),       cmocka_unit_test(ifma_rows),
        cmocka_unit_test(elementwise_default), cmocka_unit_test(elementwise_model),
        cmocka_unit_test(elementwise_ifma),    cmocka_unit_test(elementwise_scalar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
