/* NTT networks and H phases of src/ntt on many threads: the bellperson H against
 * bellperson's sequence of public transforms (ntt_inverse, ntt_coset_forward with g = 7,
 * (ab - c)(g^n - 1)^-1, ntt_coset_inverse, from Montgomery), the snarkjs H against its definition in
 * public transforms (ntt_inverse, x omega_2n^k, ntt_forward), results independent of the thread
 * count (1 and 3 threads, byte for byte), the multi-pass structure of 2^21+ transforms on small sizes
 * (ntt_test_set_upper_stages), every pass shape (ntt_set_pass_shape) giving the same bytes, the satisfied / unsatisfied H and the argument errors.
 * Randomized (seed printed). */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "ntt/ntt.h"
#include "ntt_ref.h"

static void set_threads(int t) {
#ifdef _OPENMP
    omp_set_num_threads(t);
#else
    (void)t;
#endif
}

static fr_t *vec(size_t n) { return aligned_alloc(32, (n ? n : 1) * sizeof(fr_t)); }
static void rand_vec(fr_t *a, size_t n) {
    for (size_t i = 0; i < n; i++) pm_rand_fr(&a[i]);
}

/* prover_bellperson.c's H (tests/common/ntt_ref.h) on copies: h plain, natural order */
static void bellperson_ref(fr_t *h, const fr_t *a0, const fr_t *b0, const fr_t *c0, const ntt_domain_t *d) {
    const size_t m = d->n;
    fr_t *b = vec(m), *c = vec(m);
    memcpy(h, a0, m * sizeof *h);
    memcpy(b, b0, m * sizeof *b);
    memcpy(c, c0, m * sizeof *c);
    bellperson_h_seq(h, b, c, d);
    free(b);
    free(c);
}

/* the snarkjs H in public transforms */
static void snarkjs_ref(fr_t *p, const fr_t *a0, const fr_t *b0, const ntt_domain_t *d) {
    const size_t n = d->n;
    fr_t *x[3] = {vec(n), vec(n), vec(n)};
    memcpy(x[0], a0, n * sizeof(fr_t));
    memcpy(x[1], b0, n * sizeof(fr_t));
    for (size_t i = 0; i < n; i++) fr_mul(&x[2][i], &a0[i], &b0[i]);
    for (int k = 0; k < 3; k++) {
        ntt_inverse(x[k], n, d);
        ntt_scale_powers(x[k], n, &d->omega_2n);
        ntt_forward(x[k], n, d);
    }
    for (size_t i = 0; i < n; i++) {
        fr_t t;
        fr_mul(&t, &x[0][i], &x[1][i]);
        fr_sub(&t, &t, &x[2][i]);
        fr_from_mont(&p[i], &t);
    }
    for (int k = 0; k < 3; k++) free(x[k]);
}

static void bellperson_h_matches_prover(void **state) {
    (void)state;
    pm_test_seed();
    for (unsigned lg = 0; lg <= 13; lg++) {
        const size_t n = (size_t)1 << lg;
        ntt_domain_t d;
        assert_int_equal(ntt_domain_init(&d, lg, NTT_ROOTS_ARKWORKS, NULL), PM_OK);
        fr_t *a = vec(n), *b = vec(n), *c = vec(n), *ref = vec(n), *h = vec(n), *x = vec(n), *y = vec(n), *z = vec(n);
        for (int sat = 0; sat < 2; sat++) {
            rand_vec(a, n);
            rand_vec(b, n);
            if (sat) for (size_t i = 0; i < n; i++) fr_mul(&c[i], &a[i], &b[i]);
            else rand_vec(c, n);
            bellperson_ref(ref, a, b, c, &d);
            for (int t = 1; t <= 3; t += 2) {
                set_threads(t);
                memcpy(x, a, n * sizeof *x);
                memcpy(y, b, n * sizeof *y);
                memcpy(z, c, n * sizeof *z);
                pm_error err;
                pm_status st = ntt_bellperson_h(h, n, x, y, z, &d, &err);
                assert_memory_equal(h, ref, n * sizeof *h);
                if (sat) assert_int_equal(st, PM_OK);
                else if (lg >= 1) assert_int_equal(st, PM_ERR_UNSATISFIED); /* n = 1: h = -c/(g-1), nonzero */
                /* h may alias a */
                memcpy(x, a, n * sizeof *x);
                memcpy(y, b, n * sizeof *y);
                memcpy(z, c, n * sizeof *z);
                ntt_bellperson_h(x, n, x, y, z, &d, NULL);
                assert_memory_equal(x, ref, n * sizeof *h);
            }
            set_threads(2);
        }
        pm_error err;
        assert_int_equal(ntt_bellperson_h(b, n, a, b, c, &d, &err), PM_ERR_ARG);
        free(a); free(b); free(c); free(ref); free(h); free(x); free(y); free(z);
        ntt_domain_free(&d);
    }
    /* the snarkjs roots are refused */
    ntt_domain_t d5;
    assert_int_equal(ntt_domain_init(&d5, 4, NTT_ROOTS_SNARKJS, NULL), PM_OK);
    fr_t *a = vec(16), *b = vec(16), *c = vec(16);
    rand_vec(a, 16); rand_vec(b, 16); rand_vec(c, 16);
    pm_error err;
    assert_int_equal(ntt_bellperson_h(a, 16, a, b, c, &d5, &err), PM_ERR_ARG);
    printf("expected refusal: %s\n", err.msg);
    free(a); free(b); free(c);
    ntt_domain_free(&d5);
}

static void snarkjs_h_matches_transforms(void **state) {
    (void)state;
    pm_test_seed();
    for (unsigned lg = 1; lg <= 13; lg++) {
        const size_t n = (size_t)1 << lg;
        ntt_domain_t d;
        assert_int_equal(ntt_domain_init(&d, lg, NTT_ROOTS_SNARKJS, NULL), PM_OK);
        fr_t *a = vec(n), *b = vec(n), *ref = vec(n), *x = vec(n), *y = vec(n), *s = vec(n);
        rand_vec(a, n);
        rand_vec(b, n);
        snarkjs_ref(ref, a, b, &d);
        for (int t = 1; t <= 3; t += 2) {
            set_threads(t);
            memcpy(x, a, n * sizeof *x);
            memcpy(y, b, n * sizeof *y);
            assert_int_equal(ntt_snarkjs_h(x, n, x, y, s, &d, NULL), PM_OK);
            assert_memory_equal(x, ref, n * sizeof *x);
        }
        set_threads(2);
        free(a); free(b); free(ref); free(x); free(y); free(s);
        ntt_domain_free(&d);
    }
}

/* 2^13..2^14 with 1..3 stages per upper pass: up to 2 upper passes, as 2^21..2^28 have */
static void multipass_structure(void **state) {
    (void)state;
    pm_test_seed();
    for (unsigned lim = 1; lim <= 3; lim++) {
        ntt_test_set_upper_stages(lim);
        for (unsigned lg = 13; lg <= 14; lg++) {
            const size_t n = (size_t)1 << lg;
            ntt_domain_t d;
            assert_int_equal(ntt_domain_init(&d, lg, NTT_ROOTS_ARKWORKS, NULL), PM_OK);
            fr_t *a = vec(n), *x = vec(n), *b = vec(n), *c = vec(n), *h = vec(n), *ref = vec(n);
            rand_vec(a, n);
            memcpy(x, a, n * sizeof *x);
            ntt_forward(x, n, &d);
            for (int q = 0; q < 3; q++) { /* Horner spot values */
                size_t k = q == 0 ? n - 1 : pm_rand64() % n;
                fr_t pt, acc = FR_ZERO;
                uint64_t e = k;
                fr_pow_vartime(&pt, &d.omega, &e, 1);
                for (size_t j = n; j-- > 0;) {
                    fr_mul(&acc, &acc, &pt);
                    fr_add(&acc, &acc, &a[j]);
                }
                assert_true(fr_eq(&acc, &x[k]));
            }
            ntt_inverse(x, n, &d);
            assert_memory_equal(x, a, n * sizeof *x);
            /* the fused H against the same sequence with the default passes */
            rand_vec(b, n);
            for (size_t i = 0; i < n; i++) fr_mul(&c[i], &a[i], &b[i]);
            ntt_test_set_upper_stages(0);
            bellperson_ref(ref, a, b, c, &d);
            ntt_test_set_upper_stages(lim);
            memcpy(x, a, n * sizeof *x);
            assert_int_equal(ntt_bellperson_h(h, n, x, b, c, &d, NULL), PM_OK);
            assert_memory_equal(h, ref, n * sizeof *h);
            free(a); free(x); free(b); free(c); free(h); free(ref);
            ntt_domain_free(&d);
        }
    }
    ntt_test_set_upper_stages(0);
}

/* ntt_set_pass_shape: every block/tile shape gives the default shape's bytes (forward, inverse, coset forward,
 * snarkjs H, bellperson H), including blocks larger than the transform and tiles smaller than a row group */
static void pass_shapes(void **state) {
    (void)state;
    pm_test_seed();
    static const unsigned shapes[][2] = {{4, 9}, {8, 10}, {11, 12}, {14, 14}, {16, 15}, {13, 9}};
    for (unsigned lg = 12; lg <= 15; lg += 3) {
        const size_t n = (size_t)1 << lg;
        ntt_domain_t d5, d7;
        assert_int_equal(ntt_domain_init(&d5, lg, NTT_ROOTS_SNARKJS, NULL), PM_OK);
        assert_int_equal(ntt_domain_init(&d7, lg, NTT_ROOTS_ARKWORKS, NULL), PM_OK);
        fr_t *a = vec(n), *b = vec(n), *c = vec(n), *x = vec(n), *y = vec(n), *z = vec(n);
        fr_t *ref[5] = {vec(n), vec(n), vec(n), vec(n), vec(n)}, *got[5] = {vec(n), vec(n), vec(n), vec(n), vec(n)};
        rand_vec(a, n);
        rand_vec(b, n);
        for (size_t i = 0; i < n; i++) fr_mul(&c[i], &a[i], &b[i]);
        for (unsigned q = 0; q <= sizeof shapes / sizeof shapes[0]; q++) {
            if (q == 0) ntt_set_pass_shape(0, 0); /* the default first: the reference */
            else ntt_set_pass_shape(shapes[q - 1][0], shapes[q - 1][1]);
            if (q) { /* the shape is in force (else the comparison below proves nothing) */
                unsigned gb, gt;
                ntt_get_pass_shape(&gb, &gt);
                assert_int_equal(gb, shapes[q - 1][0]);
                assert_int_equal(gt, shapes[q - 1][1]);
            }
            fr_t **out = q ? got : ref;
            memcpy(out[0], a, n * sizeof *a);
            ntt_forward(out[0], n, &d7);
            memcpy(out[1], out[0], n * sizeof *a);
            ntt_coset_inverse(out[1], n, &d7, &d7.gen);
            memcpy(out[2], a, n * sizeof *a);
            ntt_coset_forward(out[2], n, &d5, &d5.omega_2n);
            memcpy(out[3], a, n * sizeof *a);
            memcpy(y, b, n * sizeof *y);
            assert_int_equal(ntt_snarkjs_h(out[3], n, out[3], y, z, &d5, NULL), PM_OK);
            memcpy(out[4], a, n * sizeof *a);
            memcpy(y, b, n * sizeof *y);
            memcpy(z, c, n * sizeof *z);
            assert_int_equal(ntt_bellperson_h(out[4], n, out[4], y, z, &d7, NULL), PM_OK);
            if (q)
                for (int k = 0; k < 5; k++) assert_memory_equal(got[k], ref[k], n * sizeof(fr_t));
        }
        ntt_set_pass_shape(0, 0);
        unsigned sb, st;
        ntt_get_pass_shape(&sb, &st);
        assert_int_equal(sb, 12);
        assert_int_equal(st, 13);
        /* the bellperson H's reference against bellperson's sequence once more (the shapes' H is not vacuous) */
        bellperson_ref(x, a, b, c, &d7);
        assert_memory_equal(x, ref[4], n * sizeof *x);
        free(a); free(b); free(c); free(x); free(y); free(z);
        for (int i = 0; i < 5; i++) { free(ref[i]); free(got[i]); }
        ntt_domain_free(&d5);
        ntt_domain_free(&d7);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bellperson_h_matches_prover),
        cmocka_unit_test(snarkjs_h_matches_transforms),
        cmocka_unit_test(multipass_structure),
        cmocka_unit_test(pass_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
