/* Smoke test of the field layer's basic contract against GMP (the full suite is test_field_*.c). */
#include "test_util.h"
#include "field/fp2.h"

static void fp_mul_matches_gmp(void **state) {
    (void)state;
    mpz_t p, a, b, r, R, t;
    mpz_inits(p, a, b, r, R, t, NULL);
    pm_mpz_from_limbs(p, FP_MODULUS.l, 6);
    mpz_set_ui(R, 1);
    mpz_mul_2exp(R, R, 384);
    for (int i = 0; i < 1000; i++) {
        fp_t x, y, z, xp, yp, zp;
        pm_rand_fp(&xp);
        pm_rand_fp(&yp);
        fp_to_mont(&x, &xp);
        fp_to_mont(&y, &yp);
        fp_mul(&z, &x, &y);
        fp_from_mont(&zp, &z);
        pm_mpz_from_limbs(a, xp.l, 6);
        pm_mpz_from_limbs(b, yp.l, 6);
        mpz_mul(r, a, b);
        mpz_mod(r, r, p);
        pm_mpz_from_limbs(t, zp.l, 6);
        assert_int_equal(mpz_cmp(r, t), 0);
    }
    mpz_clears(p, a, b, r, R, t, NULL);
}

static void fp2_sqrt_roundtrip(void **state) {
    (void)state;
    for (int i = 0; i < 50; i++) {
        fp2_t a, sq, rt, chk;
        pm_rand_fp(&a.c0);
        pm_rand_fp(&a.c1);
        fp2_sqr(&sq, &a);
        assert_int_equal(fp2_sqrt_vartime(&rt, &sq), 1);
        fp2_sqr(&chk, &rt);
        assert_true(fp2_eq(&chk, &sq));
    }
}

static void fr_roots(void **state) {
    (void)state;
    fr_t g, w, five;
    fr_multiplicative_generator(&g);
    fr_t seven;
    fr_from_u64(&seven, 7);
    assert_true(fr_eq(&g, &seven));
    fr_from_u64(&five, 5);
    for (unsigned k = 0; k <= 32; k++) assert_int_equal(fr_root_of_unity(&w, &five, k), 0);
    assert_int_equal(fr_root_of_unity(&w, &five, 32), 0);
    uint8_t be[32];
    fr_to_be_bytes(be, &w);
    /* snarkjs's w[32] = 937917089079007706106976984802249742464848817460758522850752807661925904159 */
    mpz_t z, t;
    mpz_inits(z, t, NULL);
    mpz_import(z, 32, 1, 1, 0, 0, be);
    mpz_set_str(t, "937917089079007706106976984802249742464848817460758522850752807661925904159", 10);
    assert_int_equal(mpz_cmp(z, t), 0);
    mpz_clears(z, t, NULL);
    fr_t x, s, c;
    for (int i = 0; i < 20; i++) {
        pm_rand_fr(&x);
        fr_sqr(&s, &x);
        assert_int_equal(fr_sqrt(&c, &s), 1);
        fr_sqr(&c, &c);
        assert_true(fr_eq(&c, &s));
    }
}

int main(void) {
    pm_test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fp_mul_matches_gmp),
        cmocka_unit_test(fp2_sqrt_roundtrip),
        cmocka_unit_test(fr_roots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
