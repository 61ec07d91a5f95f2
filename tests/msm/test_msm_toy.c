/*
 * test_msm_toy.c — the Pippenger template (src/msm/pippenger_impl.h) instantiated on a toy
 * group, checked exhaustively against an exact oracle (STYLE.md item 6).
 *
 * Toy group: the additive group Z_q with q = 2^61 - 1 (prime). A "point" is a residue v < q;
 * infinity is 0; [k]v = k*v mod q for the full 256-bit integer k. Since q is prime and 2^c is
 * invertible mod q, any wrong digit in any window changes the sum, so this checks the window
 * split, the signed digits and their carries, the 0/1 split, the bucket reduction, the
 * window combination, the slicing and the threading, with the exact answer computed by
 * 128-bit arithmetic. The real G1/G2 instantiations are tested in test_msm_g1.c/test_msm_g2.c.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "field/fr.h"
#include "msm/msm.h"
#include "msm/msm_internal.h"

#define TOY_Q ((UINT64_C(1) << 61) - 1u)

typedef struct { uint64_t v; } toy_t;

static uint64_t toy_add_u(uint64_t a, uint64_t b) {
    uint64_t s = a + b; /* < 2^62 */
    return s >= TOY_Q ? s - TOY_Q : s;
}
static uint64_t toy_neg_u(uint64_t a) { return a ? TOY_Q - a : 0; }
static uint64_t toy_mulmod(uint64_t a, uint64_t b) {
    unsigned __int128 p = (unsigned __int128)a * b;
    return (uint64_t)(p % TOY_Q);
}
/* 256-bit plain integer mod q */
static uint64_t toy_reduce(const fr_t *k) {
    unsigned __int128 acc = 0;
    for (int i = 3; i >= 0; i--) acc = ((acc << 64) | k->l[i]) % TOY_Q;
    return (uint64_t)acc;
}

static unsigned long toy_ops; /* number of group operations, to check the 0/1 split */

static void toy_set_inf(toy_t *r) { r->v = 0; }
static int toy_is_inf(const toy_t *p) { return p->v == 0; }
static void toy_add(toy_t *r, const toy_t *a, const toy_t *b) {
    r->v = toy_add_u(a->v, b->v);
    __atomic_fetch_add(&toy_ops, 1, __ATOMIC_RELAXED);
}
static void toy_sub(toy_t *r, const toy_t *a, const toy_t *b) {
    r->v = toy_add_u(a->v, toy_neg_u(b->v));
    __atomic_fetch_add(&toy_ops, 1, __ATOMIC_RELAXED);
}
static void toy_dbl(toy_t *r, const toy_t *p) { r->v = toy_add_u(p->v, p->v); }
static void toy_copy(toy_t *r, const toy_t *p) { *r = *p; }

#define MSM_FN(name) msm_toy_##name
#define MSM_API __attribute__((unused)) static
#define MSM_AFF toy_t
#define MSM_XYZZ toy_t
#define MSM_JAC toy_t
#define MSM_AFF_IS_INF(p) toy_is_inf(p)
#define MSM_XYZZ_SET_INF(r) toy_set_inf(r)
#define MSM_XYZZ_IS_INF(p) toy_is_inf(p)
#define MSM_XYZZ_ADD_AFF(r, a, b) toy_add(r, a, b)
#define MSM_XYZZ_SUB_AFF(r, a, b) toy_sub(r, a, b)
#define MSM_XYZZ_ADD(r, a, b) toy_add(r, a, b)
#define MSM_XYZZ_DBL(r, p) toy_dbl(r, p)
#define MSM_XYZZ_TO_JAC(r, p) toy_copy(r, p)
#define MSM_JAC_SET_INF(r) toy_set_inf(r)
#define MSM_JAC_DBL(r, p) toy_dbl(r, p)
#define MSM_JAC_ADD(r, a, b) toy_add(r, a, b)
#define MSM_JAC_ADD_AFF(r, a, b) toy_add(r, a, b)
#include "msm/pippenger_impl.h"

/* r - 1 and r as plain integers */
static fr_t r_minus(uint64_t d) {
    fr_t k = FR_MODULUS;
    /* r is odd and its low limb is 1 ... subtract small d with borrow */
    uint64_t borrow = d;
    for (int i = 0; i < 4 && borrow; i++) {
        uint64_t o = k.l[i];
        k.l[i] = o - borrow;
        borrow = o < borrow;
    }
    return k;
}

static fr_t rand_scalar(void) {
    fr_t k;
    pm_rand_fr(&k);          /* uniform below r, Montgomery form ... */
    fr_from_mont(&k, &k);    /* ... any bijection of a uniform value is uniform */
    return k;
}

static uint64_t expected(const toy_t *pts, const fr_t *ks, size_t n) {
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) s = toy_add_u(s, toy_mulmod(toy_reduce(&ks[i]), pts[i].v));
    return s;
}

static void check(const toy_t *pts, const fr_t *ks, size_t n, unsigned threads, unsigned c) {
    toy_t got;
    pm_status st = msm_toy_vartime_window(&got, pts, ks, n, threads, c, NULL, 0);
    assert_int_equal(st, PM_OK);
    uint64_t want = expected(pts, ks, n);
    if (got.v != want)
        fail_msg("n=%zu threads=%u c=%u: got %llu want %llu", n, threads, c,
                 (unsigned long long)got.v, (unsigned long long)want);
}

static void fill_random(toy_t *pts, fr_t *ks, size_t n) {
    for (size_t i = 0; i < n; i++) {
        pts[i].v = pm_rand64() % TOY_Q;
        ks[i] = rand_scalar();
    }
}

static void test_booth_digits(void **state) {
    (void)state;
    mpz_t k, sum, t;
    mpz_inits(k, sum, t, NULL);
    size_t iters = pm_test_iters(200);
    for (size_t it = 0; it < iters; it++) {
        fr_t s = it == 0 ? r_minus(1) : it == 1 ? FR_MODULUS : rand_scalar();
        if (it == 1) s.l[3] = UINT64_C(0x7fffffffffffffff), s.l[2] = s.l[1] = s.l[0] = ~UINT64_C(0); /* 2^255-1 */
        pm_mpz_from_limbs(k, s.l, 4);
        for (unsigned c = 1; c <= MSM_WINDOW_MAX; c++) {
            mpz_set_ui(sum, 0);
            unsigned w = msm_num_windows(c);
            for (unsigned j = 0; j < w; j++) {
                int32_t d = msm_booth_digit(s.l, j, c);
                assert_true(d >= -(1 << (c - 1)) && d <= (1 << (c - 1)));
                if (j == w - 1) assert_true(d >= 0);
                mpz_set_si(t, d);
                mpz_mul_2exp(t, t, c * j);
                mpz_add(sum, sum, t);
            }
            assert_int_equal(mpz_cmp(sum, k), 0);
        }
    }
    mpz_clears(k, sum, t, NULL);
}

static void test_window_choice(void **state) {
    (void)state;
    assert_int_equal(msm_window_bits(0), 1);
    assert_int_equal(msm_window_bits((size_t)1 << 16), 13);
    assert_int_equal(msm_window_bits((size_t)1 << 18), 16);
    assert_int_equal(msm_window_bits((size_t)1 << 20), 16);
    assert_int_equal(msm_window_bits((size_t)1 << 23), 20);
    assert_int_equal(msm_window_bits((size_t)1 << 26), 20);
    unsigned prev = 1;
    for (size_t n = 1; n < ((size_t)1 << 26); n = n * 5 / 4 + 1) {
        unsigned c = msm_window_bits(n);
        assert_true(c >= prev && c <= MSM_WINDOW_MAX); /* monotone: scratch sizing relies on it */
        prev = c;
    }
    assert_int_equal(msm_pick_slices(1000000, 16, 2), 1);  /* 16 windows over 2 threads */
    /* joint plan: 1 thread = the cost model capped at cmax; 2 threads prefer even window counts */
    for (size_t n = 1; n < ((size_t)1 << 24); n = n * 3 + 1) {
        for (unsigned t = 1; t <= 5; t++) {
            unsigned c, sl, cmax = msm_window_bits(n);
            msm_plan(n, t, cmax, &c, &sl);
            assert_true(c >= 1 && c <= cmax && sl >= 1 && sl <= t);
            if (t == 1) assert_int_equal(c, cmax);
            msm_plan(n, t, 5, &c, &sl);
            assert_true(c <= 5);
        }
    }
    unsigned c2, s2;
    msm_plan((size_t)1 << 18, 2, 14, &c2, &s2);
    assert_int_equal(c2, 13); /* 20 windows split 10/10 beat 19 windows split 10/9 */
    assert_int_equal(s2, 1);
    assert_true(msm_pick_slices(1000000, 13, 2) >= 1);
}

static void test_sizes(void **state) {
    (void)state;
    static const size_t sizes[] = {0, 1, 2, 3, 5, 17, 100, 1000, 5000, 20000};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        toy_t *pts = malloc((n + 1) * sizeof *pts);
        fr_t *ks = malloc((n + 1) * sizeof *ks);
        fill_random(pts, ks, n);
        for (unsigned t = 1; t <= 4; t++) check(pts, ks, n, t, 0);
        free(pts);
        free(ks);
    }
}

/* Windows split into several point slices (tasks = windows x slices), partial sums combined. */
static void test_slices(void **state) {
    (void)state;
    enum { N = 9000 };
    assert_true(msm_pick_slices(N, 4, 3) > 1);
    toy_t *pts = malloc(N * sizeof *pts);
    fr_t *ks = malloc(N * sizeof *ks);
    fill_random(pts, ks, N);
    check(pts, ks, N, 3, 4);
    check(pts, ks, N, 5, 6);
    free(pts);
    free(ks);
}

static void test_all_windows(void **state) {
    (void)state;
    size_t n = 300;
    toy_t pts[300];
    fr_t ks[300];
    fill_random(pts, ks, n);
    ks[0] = r_minus(1);
    ks[1].l[0] = ks[1].l[1] = ks[1].l[2] = ~UINT64_C(0);
    ks[1].l[3] = FR_MODULUS.l[3] - 1u; /* top bits set, < r */
    for (unsigned c = 1; c <= MSM_WINDOW_MAX; c++)
        for (unsigned t = 1; t <= 3; t += 2) {
            check(pts, ks, n, t, c);
            check(pts, ks, 7, t, c);
            check(pts, ks, 1, t, c);
        }
}

static void test_special_scalars(void **state) {
    (void)state;
    enum { N = 9000 };
    toy_t *pts = malloc(N * sizeof *pts);
    fr_t *ks = malloc(N * sizeof *ks);
    fill_random(pts, ks, N);
    /* all zero */
    memset(ks, 0, N * sizeof *ks);
    check(pts, ks, N, 2, 0);
    /* all one: handled by the one pass only (one group op per point, no windows) */
    for (size_t i = 0; i < N; i++) ks[i] = (fr_t){{1, 0, 0, 0}};
    toy_ops = 0;
    check(pts, ks, N, 2, 0);
    assert_true(toy_ops <= N + 8);
    /* r - 1 everywhere: sum is -sum(P) */
    for (size_t i = 0; i < N; i++) ks[i] = r_minus(1);
    check(pts, ks, N, 2, 0);
    /* top bits set */
    for (size_t i = 0; i < N; i++) {
        ks[i] = rand_scalar();
        ks[i].l[3] |= UINT64_C(0x7000000000000000);
        if (msm_scalar_ge_r(&ks[i])) ks[i] = r_minus(1 + (pm_rand64() & 0xff));
    }
    check(pts, ks, N, 2, 0);
    check(pts, ks, N, 3, 11);
    /* mixed 0 / 1 / 2 / random / r-1 */
    for (size_t i = 0; i < N; i++) {
        uint64_t sel = pm_rand64() % 5;
        ks[i] = sel == 0 ? (fr_t){{0}} : sel == 1 ? (fr_t){{1, 0, 0, 0}} : sel == 2 ? (fr_t){{2, 0, 0, 0}}
              : sel == 3 ? rand_scalar() : r_minus(1);
    }
    check(pts, ks, N, 1, 0);
    check(pts, ks, N, 2, 0);
    check(pts, ks, N, 4, 5);
    free(pts);
    free(ks);
}

static void test_special_points(void **state) {
    (void)state;
    enum { N = 500 };
    toy_t pts[N];
    fr_t ks[N];
    fill_random(pts, ks, N);
    /* repeated point */
    for (size_t i = 0; i < N; i++) pts[i] = pts[0];
    check(pts, ks, N, 2, 0);
    /* P and -P with the same scalar: sum 0 */
    for (size_t i = 0; i < N; i += 2) {
        pts[i + 1].v = toy_neg_u(pts[i].v);
        ks[i + 1] = ks[i];
    }
    check(pts, ks, N, 2, 0);
    toy_t got;
    assert_int_equal(msm_toy_vartime(&got, pts, ks, N, 1), PM_OK);
    assert_true(toy_is_inf(&got));
    /* points at infinity interleaved */
    fill_random(pts, ks, N);
    for (size_t i = 0; i < N; i += 3) pts[i].v = 0;
    check(pts, ks, N, 2, 0);
    check(pts, ks, N, 1, 4);
}

static void test_errors_and_scratch(void **state) {
    (void)state;
    enum { N = 50 };
    toy_t pts[N], got;
    fr_t ks[N];
    fill_random(pts, ks, N);
    /* n = 0 gives infinity, even with NULL arrays */
    got.v = 5;
    assert_int_equal(msm_toy_vartime(&got, NULL, NULL, 0, 1), PM_OK);
    assert_true(toy_is_inf(&got));
    assert_int_equal(msm_toy_vartime(NULL, pts, ks, N, 1), PM_ERR_ARG);
    assert_int_equal(msm_toy_vartime(&got, NULL, ks, N, 1), PM_ERR_ARG);
    assert_int_equal(msm_toy_vartime_window(&got, pts, ks, N, 1, MSM_WINDOW_MAX + 1, NULL, 0), PM_ERR_ARG);
    /* scalar >= r */
    ks[7] = FR_MODULUS;
    assert_int_equal(msm_toy_vartime(&got, pts, ks, N, 2), PM_ERR_ARG);
    assert_true(toy_is_inf(&got));
    ks[7].l[3] = ~UINT64_C(0);
    assert_int_equal(msm_toy_vartime(&got, pts, ks, N, 2), PM_ERR_ARG);
    ks[7] = r_minus(1);
    /* caller scratch: exact size at an odd address works, one byte less fails */
    size_t need = msm_toy_scratch_size(N, 2);
    assert_true(need > 0);
    unsigned char *buf = malloc(need + 1);
    assert_int_equal(msm_toy_vartime_with_scratch(&got, pts, ks, N, 2, buf + 1, need), PM_OK);
    assert_int_equal(got.v, expected(pts, ks, N));
    assert_int_equal(msm_toy_vartime_with_scratch(&got, pts, ks, N, 2, buf + 1, need - 1), PM_ERR_ARG);
    assert_int_equal(msm_toy_vartime_with_scratch(&got, pts, ks, N, 2, NULL, need), PM_ERR_ARG);
    free(buf);
    /* forced window scratch */
    for (unsigned c = 1; c <= MSM_WINDOW_MAX; c++) {
        size_t nc = msm_toy_scratch_size_window(N, 3, c);
        buf = malloc(nc);
        assert_int_equal(msm_toy_vartime_window(&got, pts, ks, N, 3, c, buf, nc), PM_OK);
        assert_int_equal(got.v, expected(pts, ks, N));
        free(buf);
    }
    assert_int_equal(msm_toy_scratch_size_window(N, 1, MSM_WINDOW_MAX + 1), 0);
    /* naive reference agrees */
    msm_toy_naive_vartime(&got, pts, ks, N);
    assert_int_equal(got.v, expected(pts, ks, N));
}

/* The allocating form reports PM_ERR_NOMEM when its scratch cannot be had: cap the address
 * space, ask for 2^31 points (scratch > 8 GiB), expect NOMEM before any input is read. */
static void test_nomem(void **state) {
    (void)state;
#if defined(__SANITIZE_ADDRESS__)
    skip(); /* ASan reserves terabytes of address space; RLIMIT_AS cannot be used there */
#else
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
    lim = old;
    lim.rlim_cur = (rlim_t)4 << 30; /* 4 GiB */
    if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < lim.rlim_cur) lim.rlim_cur = old.rlim_cur;
    assert_int_equal(setrlimit(RLIMIT_AS, &lim), 0);
    toy_t got, dummy = {1};
    fr_t k = {{3, 0, 0, 0}};
    pm_status st = msm_toy_vartime(&got, &dummy, &k, (size_t)1 << 31, 1);
    setrlimit(RLIMIT_AS, &old);
    assert_int_equal(st, PM_ERR_NOMEM);
    assert_true(toy_is_inf(&got));
#endif
}

int main(void) {
    pm_test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_booth_digits),
        cmocka_unit_test(test_window_choice),
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_slices),
        cmocka_unit_test(test_all_windows),
        cmocka_unit_test(test_special_scalars),
        cmocka_unit_test(test_special_points),
        cmocka_unit_test(test_errors_and_scratch),
        cmocka_unit_test(test_nomem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
