/*
 * test_msm_g1.c — CPU Pippenger MSM on BLS12-381 G1 (and, compiled with MSM_TEST_G2 from
 * test_msm_g2.c, on G2) against two oracles:
 *  - msm_*_naive_vartime, a per-point double-and-add sum written independently of Pippenger;
 *  - for points that are all multiples of the generator, [sum k_i a_i] G computed with Fr
 *    arithmetic and one scalar multiplication by the curve layer.
 * Cases (issue #3): n = 0, 1, 2, 3, 5, 17, 100, 1000 (G2 smaller), all-zero scalars, all-one
 * scalars, r - 1, top bits set, repeated points, P and -P, points at infinity, every window
 * width c = 1..16 forced on small inputs, 1..3 threads, errors. Seeded (printed) RNG.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fr.h"
#include "msm/msm.h"

#ifndef MSM_TEST_G2
#define T_AFF g1_affine_t
#define T_JAC g1_jac_t
#define T_GEN G1_GENERATOR
#define T_(name) g1_##name
#define M_(name) msm_g1_##name
#define T_NAME "G1"
#define T_SCALE 1 /* size divisor */
#else
#define T_AFF g2_affine_t
#define T_JAC g2_jac_t
#define T_GEN G2_GENERATOR
#define T_(name) g2_##name
#define M_(name) msm_g2_##name
#define T_NAME "G2"
#define T_SCALE 4
#endif

static fr_t plain_rand(void) {
    fr_t k;
    pm_rand_fr(&k);
    fr_from_mont(&k, &k);
    return k;
}

static fr_t r_minus(uint64_t d) {
    fr_t k = FR_MODULUS;
    uint64_t borrow = d;
    for (int i = 0; i < 4 && borrow; i++) {
        uint64_t o = k.l[i];
        k.l[i] = o - borrow;
        borrow = o < borrow;
    }
    return k;
}

/* n points a_i G with random a_i (a[] in Montgomery form, returned when a != NULL). Cheap: a
 * random walk P_{i+1} = P_i + Q with random Q = [q]G, so a_{i+1} = a_i + q. */
static void rand_points(T_AFF *pts, fr_t *a, size_t n) {
    if (n == 0) return;
    fr_t q, ai;
    pm_rand_fr(&q);
    pm_rand_fr(&ai);
    T_JAC g, Q, P;
    T_(jac_from_affine)(&g, &T_GEN);
    T_(jac_mul_fr)(&Q, &g, &q);
    T_(jac_mul_fr)(&P, &g, &ai);
    T_JAC *jac = malloc(n * sizeof *jac);
    for (size_t i = 0; i < n; i++) {
        jac[i] = P;
        if (a) a[i] = ai;
        T_(jac_add)(&P, &P, &Q);
        fr_add(&ai, &ai, &q);
    }
    T_(jacs_to_affine)(pts, jac, n);
    free(jac);
}

/* [sum k_i a_i] G with k plain, a Montgomery; for entries with infinity points, a_i = 0. */
static void oracle_fr(T_JAC *r, const fr_t *a, const fr_t *k, size_t n) {
    fr_t s = FR_ZERO, km, t;
    for (size_t i = 0; i < n; i++) {
        fr_to_mont(&km, &k[i]);
        fr_mul(&t, &km, &a[i]);
        fr_add(&s, &s, &t);
    }
    T_JAC g;
    T_(jac_from_affine)(&g, &T_GEN);
    T_(jac_mul_fr)(r, &g, &s);
}

static void check_naive(const T_AFF *pts, const fr_t *ks, size_t n, unsigned threads, unsigned c) {
    T_JAC got, want;
    pm_status st = M_(vartime_window)(&got, pts, ks, n, threads, c, NULL, 0);
    assert_int_equal(st, PM_OK);
    M_(naive_vartime)(&want, pts, ks, n);
    if (!T_(jac_eq)(&got, &want)) fail_msg(T_NAME " n=%zu threads=%u c=%u: MSM != naive", n, threads, c);
}

static void check_oracle(const T_AFF *pts, const fr_t *a, const fr_t *ks, size_t n,
                         unsigned threads) {
    T_JAC got, want;
    assert_int_equal(M_(vartime)(&got, pts, ks, n, threads), PM_OK);
    oracle_fr(&want, a, ks, n);
    if (!T_(jac_eq)(&got, &want)) fail_msg(T_NAME " n=%zu threads=%u: MSM != [sum k a]G", n, threads);
}

static void test_naive_matches_curve(void **state) {
    (void)state;
    /* the reference itself against the curve layer's scalar multiplication */
    T_AFF p[3];
    fr_t a[3], k[3];
    rand_points(p, a, 3);
    for (int i = 0; i < 3; i++) k[i] = plain_rand();
    T_JAC got, want;
    M_(naive_vartime)(&got, p, k, 3);
    oracle_fr(&want, a, k, 3);
    assert_true(T_(jac_eq)(&got, &want));
}

static void test_sizes(void **state) {
    (void)state;
    static const size_t sizes[] = {0, 1, 2, 3, 5, 17, 100, 1000};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        if (n >= 100) n /= T_SCALE;
        T_AFF *pts = malloc((n + 1) * sizeof *pts);
        fr_t *a = malloc((n + 1) * sizeof *a), *ks = malloc((n + 1) * sizeof *ks);
        rand_points(pts, a, n);
        for (size_t i = 0; i < n; i++) ks[i] = plain_rand();
        for (unsigned t = 1; t <= 2; t++) check_oracle(pts, a, ks, n, t);
        if (n <= 100) check_naive(pts, ks, n, 2, 0);
        free(pts);
        free(a);
        free(ks);
    }
}

static void test_large_threads(void **state) {
    (void)state;
    /* big enough that the split pass and the window pass both use several threads */
    size_t n = 9000 / T_SCALE;
    T_AFF *pts = malloc(n * sizeof *pts);
    fr_t *a = malloc(n * sizeof *a), *ks = malloc(n * sizeof *ks);
    rand_points(pts, a, n);
    for (size_t i = 0; i < n; i++) {
        uint64_t sel = pm_rand64() % 4;
        ks[i] = sel == 0 ? (fr_t){{0}} : sel == 1 ? (fr_t){{1, 0, 0, 0}} : plain_rand();
    }
    for (unsigned t = 1; t <= 3; t++) check_oracle(pts, a, ks, n, t);
    free(pts);
    free(a);
    free(ks);
}

/* Several slices per window on the batch-affine path: c = 9 (29 windows) on 2 threads splits
 * each window in two for n > ~23000 (msm_pick_slices). G1 only (G2 would take too long). */
static void test_slices(void **state) {
    (void)state;
#ifdef MSM_TEST_G2
    skip();
#else
    const size_t n = 26000;
    T_AFF *pts = malloc(n * sizeof *pts);
    fr_t *a = malloc(n * sizeof *a), *ks = malloc(n * sizeof *ks);
    rand_points(pts, a, n);
    for (size_t i = 0; i < n; i++) ks[i] = plain_rand();
    T_JAC got, want;
    oracle_fr(&want, a, ks, n);
    assert_int_equal(M_(vartime_window)(&got, pts, ks, n, 2, 9, NULL, 0), PM_OK);
    assert_true(T_(jac_eq)(&got, &want));
    free(pts);
    free(a);
    free(ks);
#endif
}

static void test_all_windows(void **state) {
    (void)state;
    enum { N = 40 };
    T_AFF pts[N];
    fr_t a[N], ks[N];
    rand_points(pts, a, N);
    for (size_t i = 0; i < N; i++) ks[i] = plain_rand();
    ks[0] = r_minus(1);
    ks[1].l[0] = ks[1].l[1] = ks[1].l[2] = ~UINT64_C(0);
    ks[1].l[3] = FR_MODULUS.l[3] - 1u;
    ks[2] = (fr_t){{1, 0, 0, 0}};
    ks[3] = (fr_t){{0}};
    T_JAC want;
    oracle_fr(&want, a, ks, N);
    /* c = 1..16 here; 17..MSM_WINDOW_MAX (2^16..2^19 buckets) only in the toy test: the
     * reduction alone would take seconds per width on a real curve */
    for (unsigned c = 1; c <= 16; c++) {
        T_JAC got;
        assert_int_equal(M_(vartime_window)(&got, pts, ks, N, 2, c, NULL, 0), PM_OK);
        if (!T_(jac_eq)(&got, &want)) fail_msg(T_NAME " forced c=%u wrong", c);
    }
    check_naive(pts, ks, 5, 1, 3);
}

static void test_special_scalars(void **state) {
    (void)state;
    enum { N = 64 };
    T_AFF pts[N];
    fr_t a[N], ks[N];
    rand_points(pts, a, N);
    memset(ks, 0, sizeof ks);
    T_JAC got;
    assert_int_equal(M_(vartime)(&got, pts, ks, N, 2), PM_OK);
    assert_true(T_(jac_is_infinity)(&got));
    for (size_t i = 0; i < N; i++) ks[i] = (fr_t){{1, 0, 0, 0}};
    check_oracle(pts, a, ks, N, 2);
    for (size_t i = 0; i < N; i++) ks[i] = r_minus(1);
    check_oracle(pts, a, ks, N, 2);
    for (size_t i = 0; i < N; i++) {
        ks[i] = r_minus(1 + (pm_rand64() >> 1)); /* top bits of r set */
    }
    check_oracle(pts, a, ks, N, 1);
    check_naive(pts, ks, 8, 2, 0);
    /* scalar >= r is refused */
    ks[5] = FR_MODULUS;
    assert_int_equal(M_(vartime)(&got, pts, ks, N, 2), PM_ERR_ARG);
    assert_true(T_(jac_is_infinity)(&got));
}

static void test_special_points(void **state) {
    (void)state;
    enum { N = 48 };
    T_AFF pts[N];
    fr_t a[N], ks[N];
    rand_points(pts, a, N);
    for (size_t i = 0; i < N; i++) ks[i] = plain_rand();
    /* repeated point */
    T_AFF rep[N];
    fr_t arep[N];
    for (size_t i = 0; i < N; i++) rep[i] = pts[0], arep[i] = a[0];
    check_oracle(rep, arep, ks, N, 2);
    check_naive(rep, ks, 6, 1, 2);
    /* P and -P with equal scalars cancel */
    for (size_t i = 0; i + 1 < N; i += 2) {
        T_(affine_neg)(&rep[i + 1], &pts[i]);
        rep[i] = pts[i];
        ks[i + 1] = ks[i];
    }
    T_JAC got;
    assert_int_equal(M_(vartime)(&got, rep, ks, N, 2), PM_OK);
    assert_true(T_(jac_is_infinity)(&got));
    assert_int_equal(M_(vartime_window)(&got, rep, ks, N, 1, 1, NULL, 0), PM_OK);
    assert_true(T_(jac_is_infinity)(&got));
    /* points at infinity (0,0) mixed in: contribute nothing */
    for (size_t i = 0; i < N; i += 3) {
        memset(&pts[i], 0, sizeof pts[i]);
        a[i] = FR_ZERO;
    }
    for (size_t i = 0; i < N; i++) ks[i] = plain_rand();
    ks[3] = (fr_t){{1, 0, 0, 0}}; /* infinity point with scalar one */
    check_oracle(pts, a, ks, N, 2);
    check_naive(pts, ks, N / 4, 2, 0);
}

/* The batch-affine path (windows c >= its threshold) under bucket collisions: every point to
 * the same bucket (pending collisions, P = B doublings), P and -P meeting in a bucket, and small
 * scalars crowding a few buckets of a wide window. */
static void test_batch_affine_collisions(void **state) {
    (void)state;
    const size_t N = 300 / T_SCALE / T_SCALE;
    T_AFF *pts = malloc(N * sizeof *pts), *same = malloc(N * sizeof *same);
    fr_t *a = malloc(N * sizeof *a), *asame = malloc(N * sizeof *asame), *ks = malloc(N * sizeof *ks);
    rand_points(pts, a, N);
    static const unsigned cs[] = {9, 12, 16};
    for (unsigned ci = 0; ci < 3; ci++) {
        unsigned c = cs[ci];
        T_JAC got, want;
        /* one point, one scalar: all N updates hit one bucket per window */
        fr_t k = plain_rand();
        for (size_t i = 0; i < N; i++) same[i] = pts[0], asame[i] = a[0], ks[i] = k;
        oracle_fr(&want, asame, ks, N);
        assert_int_equal(M_(vartime_window)(&got, same, ks, N, 2, c, NULL, 0), PM_OK);
        if (!T_(jac_eq)(&got, &want)) fail_msg(T_NAME " c=%u: repeated point/scalar wrong", c);
        /* P, -P, P, -P, ... with one scalar: cancels to O, passing through empty buckets */
        for (size_t i = 1; i < N; i += 2) T_(affine_neg)(&same[i], &pts[0]);
        assert_int_equal(M_(vartime_window)(&got, same, ks, N - 1, 1, c, NULL, 0), PM_OK);
        T_JAC one;
        T_(jac_from_affine)(&one, &pts[0]);
        T_JAC w1;
        fr_t km;
        fr_to_mont(&km, &k);
        T_(jac_mul_fr)(&w1, &one, &km);
        if (!T_(jac_eq)(&got, &w1)) fail_msg(T_NAME " c=%u: P/-P alternation wrong", c);
        /* distinct points, small scalars 2..41: a few buckets, many collisions */
        for (size_t i = 0; i < N; i++) ks[i] = (fr_t){{2 + pm_rand64() % 40, 0, 0, 0}};
        oracle_fr(&want, a, ks, N);
        for (unsigned t = 1; t <= 2; t++) {
            assert_int_equal(M_(vartime_window)(&got, pts, ks, N, t, c, NULL, 0), PM_OK);
            if (!T_(jac_eq)(&got, &want)) fail_msg(T_NAME " c=%u t=%u: small scalars wrong", c, t);
        }
        /* the same with random scalars and some points repeated */
        for (size_t i = 0; i < N; i++) ks[i] = plain_rand();
        for (size_t i = 0; i < N; i += 7) pts[i] = pts[1], a[i] = a[1];
        oracle_fr(&want, a, ks, N);
        assert_int_equal(M_(vartime_window)(&got, pts, ks, N, 2, c, NULL, 0), PM_OK);
        if (!T_(jac_eq)(&got, &want)) fail_msg(T_NAME " c=%u: random scalars wrong", c);
    }
    free(pts);
    free(same);
    free(a);
    free(asame);
    free(ks);
}

static void test_scratch(void **state) {
    (void)state;
    enum { N = 30 };
    T_AFF pts[N];
    fr_t a[N], ks[N];
    rand_points(pts, a, N);
    for (size_t i = 0; i < N; i++) ks[i] = plain_rand();
    T_JAC got, want;
    oracle_fr(&want, a, ks, N);
    size_t need = M_(scratch_size)(N, 2);
    unsigned char *buf = malloc(need + 3);
    assert_int_equal(M_(vartime_with_scratch)(&got, pts, ks, N, 2, buf + 3, need), PM_OK);
    assert_true(T_(jac_eq)(&got, &want));
    assert_int_equal(M_(vartime_with_scratch)(&got, pts, ks, N, 2, buf + 3, need - 1), PM_ERR_ARG);
    free(buf);
    assert_int_equal(M_(vartime)(&got, NULL, NULL, 0, 0), PM_OK);
    assert_true(T_(jac_is_infinity)(&got));
    assert_int_equal(M_(vartime)(NULL, pts, ks, N, 0), PM_ERR_ARG);
}

int main(void) {
    pm_test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_naive_matches_curve),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_large_threads),
        cmocka_unit_test(test_slices),
        cmocka_unit_test(test_all_windows),
        cmocka_unit_test(test_special_scalars),
        cmocka_unit_test(test_special_points),
        cmocka_unit_test(test_batch_affine_collisions),
        cmocka_unit_test(test_scratch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
