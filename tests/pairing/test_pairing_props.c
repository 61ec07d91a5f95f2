/*
 * Pairing properties on random points: bilinearity e(aP, bQ) = e(P, Q)^(ab), linearity in each
 * argument, non-degeneracy and order r, infinity contributes 1, multi-pairing == product of
 * single pairings (also across the PAIRING_CHUNK boundary), pairing_check on
 * e(aP, bQ) e(-abP, Q) == 1, and the final exponentiation == f^(3 (p^12 - 1)/r) computed by
 * plain square-and-multiply with the exponent from GMP (checks the HHT decomposition).
 */
#include <string.h>

#include "test_util.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "pairing/pairing.h"

static void fr_plain(uint64_t out[4], const fr_t *k) {
    fr_t p;
    fr_from_mont(&p, k);
    memcpy(out, p.l, sizeof(uint64_t) * 4);
}

static void g1_mul(g1_affine_t *r, const g1_affine_t *p, const fr_t *k) {
    g1_jac_t t;
    g1_jac_from_affine(&t, p);
    g1_jac_mul_fr(&t, &t, k);
    g1_jac_to_affine(r, &t);
}
static void g2_mul(g2_affine_t *r, const g2_affine_t *p, const fr_t *k) {
    g2_jac_t t;
    g2_jac_from_affine(&t, p);
    g2_jac_mul_fr(&t, &t, k);
    g2_jac_to_affine(r, &t);
}
static void gt_pow_fr(fp12_t *r, const fp12_t *a, const fr_t *k) {
    uint64_t e[4];
    fr_plain(e, k);
    fp12_pow_vartime(r, a, e, 4);
}

static void rand_points(g1_affine_t *p, g2_affine_t *q) {
    fr_t a;
    pm_rand_fr(&a);
    g1_mul(p, &G1_GENERATOR, &a);
    pm_rand_fr(&a);
    g2_mul(q, &G2_GENERATOR, &a);
}

static void bilinearity(void **state) {
    (void)state;
    fp12_t e, lhs, rhs;
    pairing(&e, &G1_GENERATOR, &G2_GENERATOR);
    for (size_t it = 0; it < pm_test_iters(3); it++) {
        fr_t a, b, ab;
        pm_rand_fr(&a);
        pm_rand_fr(&b);
        fr_mul(&ab, &a, &b);
        g1_affine_t aP;
        g2_affine_t bQ, aQ;
        g1_mul(&aP, &G1_GENERATOR, &a);
        g2_mul(&bQ, &G2_GENERATOR, &b);
        pairing(&lhs, &aP, &bQ);
        gt_pow_fr(&rhs, &e, &ab);
        assert_true(fp12_eq(&lhs, &rhs));
        /* e(aP, Q) = e(P, aQ) */
        g2_mul(&aQ, &G2_GENERATOR, &a);
        pairing(&lhs, &aP, &G2_GENERATOR);
        pairing(&rhs, &G1_GENERATOR, &aQ);
        assert_true(fp12_eq(&lhs, &rhs));
    }
}

static void linearity_in_each_argument(void **state) {
    (void)state;
    g1_affine_t p1, p2, p12;
    g2_affine_t q1, q2, q12;
    rand_points(&p1, &q1);
    rand_points(&p2, &q2);
    g1_jac_t j1;
    g1_jac_from_affine(&j1, &p1);
    g1_jac_add_affine(&j1, &j1, &p2);
    g1_jac_to_affine(&p12, &j1);
    g2_jac_t j2;
    g2_jac_from_affine(&j2, &q1);
    g2_jac_add_affine(&j2, &j2, &q2);
    g2_jac_to_affine(&q12, &j2);
    fp12_t a, b, c;
    pairing(&a, &p12, &q1);
    pairing(&b, &p1, &q1);
    pairing(&c, &p2, &q1);
    fp12_mul(&b, &b, &c);
    assert_true(fp12_eq(&a, &b));
    pairing(&a, &p1, &q12);
    pairing(&b, &p1, &q1);
    pairing(&c, &p1, &q2);
    fp12_mul(&b, &b, &c);
    assert_true(fp12_eq(&a, &b));
    /* e(-P, Q) = e(P, -Q) = e(P, Q)^-1 = conj */
    g1_affine_t np;
    g2_affine_t nq;
    g1_affine_neg(&np, &p1);
    g2_affine_neg(&nq, &q1);
    pairing(&a, &np, &q1);
    pairing(&b, &p1, &nq);
    pairing(&c, &p1, &q1);
    assert_true(fp12_eq(&a, &b));
    fp12_conj(&c, &c);
    assert_true(fp12_eq(&a, &c));
}

static void nondegenerate_order_r(void **state) {
    (void)state;
    fp12_t e, t;
    pairing(&e, &G1_GENERATOR, &G2_GENERATOR);
    assert_false(fp12_is_one(&e));
    assert_false(fp12_is_zero(&e));
    fp12_pow_vartime(&t, &e, FR_MODULUS.l, 4);
    assert_true(fp12_is_one(&t));
    /* also in the cyclotomic subgroup: e^(p^4 - p^2 + 1) = 1 via Frobenius */
    fp12_t f4, f2;
    fp12_frobenius(&f4, &e, 4);
    fp12_frobenius(&f2, &e, 2);
    fp12_conj(&f2, &f2);
    fp12_mul(&t, &f4, &f2);
    fp12_mul(&t, &t, &e);
    assert_true(fp12_is_one(&t));
}

static void infinity_contributes_one(void **state) {
    (void)state;
    g1_affine_t o1 = {FP_ZERO_ELEM, FP_ZERO_ELEM};
    g2_affine_t o2 = {FP2_ZERO, FP2_ZERO};
    fp12_t r, s;
    pairing(&r, &o1, &G2_GENERATOR);
    assert_true(fp12_is_one(&r));
    pairing(&r, &G1_GENERATOR, &o2);
    assert_true(fp12_is_one(&r));
    pairing(&r, &o1, &o2);
    assert_true(fp12_is_one(&r));
    pairing_multi(&r, NULL, NULL, 0);
    assert_true(fp12_is_one(&r));
    assert_int_equal(pairing_check(NULL, NULL, 0), 1);
    g1_affine_t ps[3] = {o1, G1_GENERATOR, G1_GENERATOR};
    g2_affine_t qs[3] = {G2_GENERATOR, o2, G2_GENERATOR};
    pairing_multi(&r, ps, qs, 3);
    pairing(&s, &G1_GENERATOR, &G2_GENERATOR);
    assert_true(fp12_eq(&r, &s));
}

static void multi_equals_product(void **state) {
    (void)state;
    enum { N = PAIRING_CHUNK + 3 };
    static g1_affine_t ps[N];
    static g2_affine_t qs[N];
    for (size_t i = 0; i < N; i++) rand_points(&ps[i], &qs[i]);
    size_t sizes[] = {1, 2, 3, 5, N};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        fp12_t m, prod = FP12_ONE, e;
        pairing_multi(&m, ps, qs, n);
        for (size_t i = 0; i < n; i++) {
            pairing(&e, &ps[i], &qs[i]);
            fp12_mul(&prod, &prod, &e);
        }
        assert_true(fp12_eq(&m, &prod));
    }
}

static void check_product_is_one(void **state) {
    (void)state;
    for (size_t it = 0; it < pm_test_iters(3); it++) {
        fr_t a, b, ab;
        pm_rand_fr(&a);
        pm_rand_fr(&b);
        fr_mul(&ab, &a, &b);
        fr_neg(&ab, &ab);
        g1_affine_t ps[2];
        g2_affine_t qs[2];
        g1_mul(&ps[0], &G1_GENERATOR, &a);
        g2_mul(&qs[0], &G2_GENERATOR, &b);
        g1_mul(&ps[1], &G1_GENERATOR, &ab);
        qs[1] = G2_GENERATOR;
        assert_int_equal(pairing_check(ps, qs, 2), 1);
        /* tamper: -ab + 1 */
        fr_add(&ab, &ab, &FR_ONE);
        g1_mul(&ps[1], &G1_GENERATOR, &ab);
        assert_int_equal(pairing_check(ps, qs, 2), 0);
    }
}

static void final_exp_is_3_times_p12m1_over_r(void **state) {
    (void)state;
    mpz_t p, r, e;
    mpz_inits(p, r, e, NULL);
    pm_mpz_from_limbs(p, FP_MODULUS.l, 6);
    pm_mpz_from_limbs(r, FR_MODULUS.l, 4);
    mpz_pow_ui(e, p, 12);
    mpz_sub_ui(e, e, 1);
    assert_true(mpz_divisible_p(e, r));
    mpz_divexact(e, e, r);
    mpz_mul_ui(e, e, 3);
    size_t ne = (mpz_sizeinbase(e, 2) + 63) / 64;
    uint64_t limbs[80];
    assert_true(ne <= 80);
    pm_limbs_from_mpz(limbs, ne, e);
    /* a random Fp12 element (not only Miller values) */
    fp12_t f, want, got;
    fp_t *c = (fp_t *)&f;
    for (int i = 0; i < 12; i++) pm_rand_fp(&c[i]);
    fp12_pow_vartime(&want, &f, limbs, ne);
    pairing_final_exp(&got, &f);
    assert_true(fp12_eq(&got, &want));
    mpz_clears(p, r, e, NULL);
}


/* Inputs off the curve / outside the subgroup: the contract is "some value, never a crash";
 * the Groth16 check must not accept them by accident. */
static void hostile_inputs_do_not_crash(void **state) {
    (void)state;
    for (size_t it = 0; it < pm_test_iters(3); it++) {
        g1_affine_t p;
        g2_affine_t q;
        pm_rand_fp(&p.x);
        pm_rand_fp(&p.y);
        pm_rand_fp(&q.x.c0);
        pm_rand_fp(&q.x.c1);
        pm_rand_fp(&q.y.c0);
        pm_rand_fp(&q.y.c1);
        fp12_t r;
        pairing(&r, &p, &q);
        assert_int_equal(pairing_check(&p, &q, 1), 0);
        /* on the twist but (almost surely) not in G2: x random, y = sqrt(x^3 + 4(1+u)) */
        fp2_t y2, b = {FP_ONE, FP_ONE};
        fp2_dbl(&b, &b);
        fp2_dbl(&b, &b);
        do {
            pm_rand_fp(&q.x.c0);
            pm_rand_fp(&q.x.c1);
            fp2_sqr(&y2, &q.x);
            fp2_mul(&y2, &y2, &q.x);
            fp2_add(&y2, &y2, &b);
        } while (!fp2_sqrt_vartime(&q.y, &y2));
        assert_true(g2_affine_is_on_curve(&q));
        assert_false(g2_affine_in_subgroup_vartime(&q));
        pairing(&r, &G1_GENERATOR, &q);
        assert_int_equal(pairing_check(&G1_GENERATOR, &q, 1), 0);
    }
    /* a zero Miller value maps to zero, not to a crash or to 1 */
    fp12_t z;
    pairing_final_exp(&z, &FP12_ZERO);
    assert_true(fp12_is_zero(&z));
}

static void prepared_equals_plain(void **state) {
    (void)state;
    enum { N = PAIRING_CHUNK + 2 };
    static g1_affine_t ps[N];
    static g2_affine_t qs[N];
    static pairing_g2_prepared_t pq[N];
    for (size_t i = 0; i < N; i++) rand_points(&ps[i], &qs[i]);
    qs[3].x = FP2_ZERO; /* one infinity on each side */
    qs[3].y = FP2_ZERO;
    ps[5].x = FP_ZERO_ELEM;
    ps[5].y = FP_ZERO_ELEM;
    for (size_t i = 0; i < N; i++) pairing_g2_prepare(&pq[i], &qs[i]);
    assert_int_equal(pq[3].infinity, 1);
    fp12_t a, b;
    size_t sizes[] = {0, 1, 4, 7, N};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        pairing_miller_loop(&a, ps, qs, n);
        pairing_miller_loop_mixed(&b, NULL, NULL, 0, ps, pq, n);
        assert_true(fp12_eq(&a, &b));
        /* split: the first k plain, the rest prepared, one accumulator */
        size_t k = n / 2;
        pairing_miller_loop_mixed(&b, ps, qs, k, ps + k, pq + k, n - k);
        pairing_final_exp(&a, &a);
        pairing_final_exp(&b, &b);
        assert_true(fp12_eq(&a, &b));
    }
}

int main(void) {
    pm_test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bilinearity),
        cmocka_unit_test(linearity_in_each_argument),
        cmocka_unit_test(nondegenerate_order_r),
        cmocka_unit_test(infinity_contributes_one),
        cmocka_unit_test(multi_equals_product),
        cmocka_unit_test(check_product_is_one),
        cmocka_unit_test(final_exp_is_3_times_p12m1_over_r),
        cmocka_unit_test(hostile_inputs_do_not_crash),
        cmocka_unit_test(prepared_equals_plain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
