/* NTT tests: against the O(n^2) DFT, inverse∘forward, coset correctness, the two root conventions,
 * and the snarkjs H-phase against a naive polynomial evaluation. Randomized (seed printed). */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ntt/ntt.h"

static void rand_vec(fr_t *a, size_t n) {
    for (size_t i = 0; i < n; i++) pm_rand_fr(&a[i]);
}

/* out[k] = sum_j a[j] * (shift*omega^k)^j, naive */
static void naive_eval(fr_t *out, const fr_t *a, size_t n, const fr_t *omega, const fr_t *shift) {
    fr_t x = *shift;
    for (size_t k = 0; k < n; k++) {
        fr_t acc = FR_ZERO;
        for (size_t j = n; j-- > 0;) { /* Horner */
            fr_mul(&acc, &acc, &x);
            fr_add(&acc, &acc, &a[j]);
        }
        out[k] = acc;
        fr_mul(&x, &x, omega);
    }
}

static void ntt_matches_dft(void **state) {
    (void)state;
    pm_test_seed();
    ntt_roots_t gens[2] = {NTT_ROOTS_SNARKJS, NTT_ROOTS_ARKWORKS};
    for (int g = 0; g < 2; g++) {
        for (unsigned lg = 0; lg <= 10; lg++) {
            size_t n = (size_t)1 << lg;
            ntt_domain_t d;
            assert_int_equal(ntt_domain_init(&d, lg, gens[g], NULL), PM_OK);
            fr_t *a = malloc(n * sizeof *a), *ref = malloc(n * sizeof *a), *b = malloc(n * sizeof *a);
            rand_vec(a, n);
            memcpy(b, a, n * sizeof *a);
            naive_eval(ref, a, n, &d.omega, &FR_ONE);
            ntt_forward(b, n, &d);
            for (size_t k = 0; k < n; k++) assert_true(fr_eq(&b[k], &ref[k]));
            /* the inverse brings it back */
            ntt_inverse(b, n, &d);
            for (size_t k = 0; k < n; k++) assert_true(fr_eq(&b[k], &a[k]));
            /* omega has order exactly n */
            if (n > 1) {
                fr_t t = d.omega;
                for (unsigned i = 0; i < lg - 1; i++) fr_sqr(&t, &t);
                fr_t m1;
                fr_neg(&m1, &FR_ONE);
                assert_true(fr_eq(&t, &m1));
                fr_sqr(&t, &d.omega_2n);
                assert_true(fr_eq(&t, &d.omega));
            }
            free(a);
            free(b);
            free(ref);
            ntt_domain_free(&d);
        }
    }
}

static void ntt_roundtrip_big(void **state) {
    (void)state;
    pm_test_seed();
    for (unsigned lg = 11; lg <= 16; lg++) {
        size_t n = (size_t)1 << lg;
        ntt_domain_t d;
        assert_int_equal(ntt_domain_init(&d, lg, NTT_ROOTS_SNARKJS, NULL), PM_OK);
        fr_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *a);
        rand_vec(a, n);
        memcpy(b, a, n * sizeof *a);
        ntt_forward(b, n, &d);
        /* spot-check a few outputs against the naive sum */
        for (int t = 0; t < 3; t++) {
            size_t k = pm_rand64() % n;
            fr_t x, acc = FR_ZERO;
            uint64_t e = k;
            fr_pow_vartime(&x, &d.omega, &e, 1);
            for (size_t j = n; j-- > 0;) {
                fr_mul(&acc, &acc, &x);
                fr_add(&acc, &acc, &a[j]);
            }
            assert_true(fr_eq(&acc, &b[k]));
        }
        ntt_inverse(b, n, &d);
        for (size_t k = 0; k < n; k++) assert_true(fr_eq(&b[k], &a[k]));
        free(a);
        free(b);
        ntt_domain_free(&d);
    }
}

static void ntt_coset(void **state) {
    (void)state;
    pm_test_seed();
    for (unsigned lg = 0; lg <= 8; lg++) {
        size_t n = (size_t)1 << lg;
        ntt_domain_t d;
        assert_int_equal(ntt_domain_init(&d, lg, NTT_ROOTS_ARKWORKS, NULL), PM_OK);
        fr_t shift;
        pm_rand_fr(&shift);
        fr_t *a = malloc(n * sizeof *a), *ref = malloc(n * sizeof *a), *b = malloc(n * sizeof *a);
        rand_vec(a, n);
        memcpy(b, a, n * sizeof *a);
        naive_eval(ref, a, n, &d.omega, &shift);
        ntt_coset_forward(b, n, &d, &shift);
        for (size_t k = 0; k < n; k++) assert_true(fr_eq(&b[k], &ref[k]));
        ntt_coset_inverse(b, n, &d, &shift);
        for (size_t k = 0; k < n; k++) assert_true(fr_eq(&b[k], &a[k]));
        free(a);
        free(b);
        free(ref);
        ntt_domain_free(&d);
    }
    /* a parallel-size coset roundtrip */
    size_t n = (size_t)1 << 14;
    ntt_domain_t d;
    assert_int_equal(ntt_domain_init(&d, 14, NTT_ROOTS_SNARKJS, NULL), PM_OK);
    fr_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *a);
    rand_vec(a, n);
    memcpy(b, a, n * sizeof *a);
    ntt_coset_forward(b, n, &d, &d.omega_2n);
    ntt_coset_inverse(b, n, &d, &d.omega_2n);
    for (size_t k = 0; k < n; k++) assert_true(fr_eq(&b[k], &a[k]));
    free(a);
    free(b);
    ntt_domain_free(&d);
}

/* The roots named in FORMATS.md: 5^((r-1)/2^32) (snarkjs) and 7^((r-1)/2^32) (arkworks). */
static void ntt_root_constants(void **state) {
    (void)state;
    const char *want[2] = {
        "937917089079007706106976984802249742464848817460758522850752807661925904159",
        "10238227357739495823651030575849232062558860180284477541189508159991286009131"};
    ntt_roots_t gens[2] = {NTT_ROOTS_SNARKJS, NTT_ROOTS_ARKWORKS};
    for (int g = 0; g < 2; g++) {
        /* the 2^32-th root itself (a 2^31 domain's omega_2n; building its tables would be huge) */
        fr_t w, plain, gen;
        fr_from_u64(&gen, (uint64_t)gens[g]);
        assert_int_equal(fr_root_of_unity(&w, &gen, 32), 0);
        ntt_domain_t d;
        assert_int_equal(ntt_domain_init(&d, 5, gens[g], NULL), PM_OK);
        fr_t t = w;
        for (int i = 0; i < 26; i++) fr_sqr(&t, &t); /* w^(2^26) = omega_2^6 = omega_2n of 2^5 */
        assert_true(fr_eq(&t, &d.omega_2n));
        ntt_domain_free(&d);
        fr_from_mont(&plain, &w);
        mpz_t z, e;
        mpz_inits(z, e, NULL);
        pm_mpz_from_limbs(z, plain.l, 4);
        mpz_set_str(e, want[g], 10);
        assert_int_equal(mpz_cmp(z, e), 0);
        mpz_clears(z, e, NULL);
    }
    ntt_domain_t d;
    pm_error err;
    assert_int_equal(ntt_domain_init(&d, 32, NTT_ROOTS_SNARKJS, &err), PM_ERR_ARG);
    printf("expected refusal: %s\n", err.msg);
}

/* snarkjs H-phase vs naive: A(X) interpolates a on <omega>, etc.; p_j = A(x_j)B(x_j) - C(x_j)
 * with x_j = omega_2n * omega^j and C interpolating a∘b. */
static void ntt_snarkjs_h_naive(void **state) {
    (void)state;
    pm_test_seed();
    for (unsigned lg = 1; lg <= 7; lg++) {
        size_t n = (size_t)1 << lg;
        ntt_domain_t d;
        assert_int_equal(ntt_domain_init(&d, lg, NTT_ROOTS_SNARKJS, NULL), PM_OK);
        fr_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *a), *s = malloc(n * sizeof *a);
        fr_t *ca = malloc(n * sizeof *a), *cb = malloc(n * sizeof *a), *cc = malloc(n * sizeof *a);
        fr_t *ea = malloc(n * sizeof *a), *eb = malloc(n * sizeof *a), *ec = malloc(n * sizeof *a);
        rand_vec(a, n);
        rand_vec(b, n);
        /* naive interpolation: coef_j = n^-1 sum_k v_k omega^{-jk} = naive_eval with omega^-1 */
        for (size_t i = 0; i < n; i++) fr_mul(&s[i], &a[i], &b[i]);
        naive_eval(ca, a, n, &d.omega_inv, &FR_ONE);
        naive_eval(cb, b, n, &d.omega_inv, &FR_ONE);
        naive_eval(cc, s, n, &d.omega_inv, &FR_ONE);
        for (size_t i = 0; i < n; i++) {
            fr_mul(&ca[i], &ca[i], &d.n_inv);
            fr_mul(&cb[i], &cb[i], &d.n_inv);
            fr_mul(&cc[i], &cc[i], &d.n_inv);
        }
        naive_eval(ea, ca, n, &d.omega, &d.omega_2n);
        naive_eval(eb, cb, n, &d.omega, &d.omega_2n);
        naive_eval(ec, cc, n, &d.omega, &d.omega_2n);
        assert_int_equal(ntt_snarkjs_h(a, n, a, b, s, &d, NULL), PM_OK);
        for (size_t j = 0; j < n; j++) {
            fr_t t, pl;
            fr_mul(&t, &ea[j], &eb[j]);
            fr_sub(&t, &t, &ec[j]);
            fr_from_mont(&pl, &t);
            assert_memory_equal(pl.l, a[j].l, sizeof pl.l);
        }
        pm_error err;
        assert_int_equal(ntt_snarkjs_h(b, n, a, b, s, &d, &err), PM_ERR_ARG);
        free(a); free(b); free(s); free(ca); free(cb); free(cc); free(ea); free(eb); free(ec);
        ntt_domain_free(&d);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ntt_matches_dft),     cmocka_unit_test(ntt_roundtrip_big),
        cmocka_unit_test(ntt_coset),           cmocka_unit_test(ntt_root_constants),
        cmocka_unit_test(ntt_snarkjs_h_naive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
