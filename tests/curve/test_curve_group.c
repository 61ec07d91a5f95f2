/* Group laws, coordinate systems and subgroup tests for G1 and G2 (curve_laws_impl.h, twice). */
#include <string.h>

#include "test_util.h"
#include "curve/g1.h"
#include "curve/g2.h"

static void rand_fp2(fp2_t *r) {
    pm_rand_fp(&r->c0);
    pm_rand_fp(&r->c1);
}

#define PT(name) g1_##name
#define AFF g1_affine_t
#define JAC g1_jac_t
#define XYZZ g1_xyzz_t
#define FE fp_t
#define F(op) fp_##op
#define RAND_FE pm_rand_fp
#define FSQRT fp_sqrt
#define FE_ONE_V FP_ONE
#define TNAME(n) g1_test_##n
#define GEN G1_GENERATOR
static fp_t g1_b(void) { fp_t b; fp_from_u64(&b, 4); return b; }
#define FE_B g1_b()
#include "curve_laws_impl.h"
static const struct CMUnitTest g1_tests[] = {TNAME_TESTS};
#undef PT
#undef AFF
#undef JAC
#undef XYZZ
#undef FE
#undef F
#undef RAND_FE
#undef FSQRT
#undef FE_ONE_V
#undef TNAME
#undef GEN
#undef FE_B
#undef TNAME_TESTS

#define PT(name) g2_##name
#define AFF g2_affine_t
#define JAC g2_jac_t
#define XYZZ g2_xyzz_t
#define FE fp2_t
#define F(op) fp2_##op
#define RAND_FE rand_fp2
#define FSQRT fp2_sqrt_vartime
#define FE_ONE_V FP2_ONE
#define TNAME(n) g2_test_##n
#define GEN G2_GENERATOR
static fp2_t g2_b(void) { fp2_t b; fp_from_u64(&b.c0, 4); b.c1 = b.c0; return b; }
#define FE_B g2_b()
#include "curve_laws_impl.h"
static const struct CMUnitTest g2_tests[] = {TNAME_TESTS};

/* ---- every torsion component outside G is caught by the fast subgroup tests ----
 * Cofactors from the BLS12 family polynomials in the seed z = -0xd201000000010000:
 * h1 = (z-1)^2 / 3 (G1) and h2 = (z^8 - 4z^7 + 5z^6 - 4z^4 + 6z^3 - 4z^2 - 4z + 13) / 9 (G2;
 * Budroni-Pintore, ePrint 2017/419). The small primes of each are listed (facts about the
 * curve, each checked to divide h here); what is left of h after them is treated as one more
 * component. For each component l^e: Q = [r h / l^e] R for random curve points R has order
 * dividing l^e, and Q + G (G the generator) has order r l^e: neither may pass the test. */
static void cofactor(mpz_t h, int g2) {
    mpz_t z, t;
    mpz_inits(z, t, NULL);
    mpz_set_str(z, "-d201000000010000", 16);
    if (!g2) {
        mpz_sub_ui(t, z, 1);
        mpz_mul(h, t, t);
        assert_true(mpz_divisible_ui_p(h, 3));
        mpz_divexact_ui(h, h, 3);
    } else {
        static const long coef[9] = {13, -4, -4, 6, -4, 0, 5, -4, 1}; /* z^0 .. z^8 */
        mpz_set_ui(h, 0);
        for (int i = 8; i >= 0; i--) {
            mpz_mul(h, h, z);
            if (coef[i] >= 0) mpz_add_ui(h, h, (unsigned long)coef[i]);
            else mpz_sub_ui(h, h, (unsigned long)-coef[i]);
        }
        assert_true(mpz_divisible_ui_p(h, 9));
        mpz_divexact_ui(h, h, 9);
    }
    mpz_clears(z, t, NULL);
}

static size_t scalar_limbs(uint64_t *l, size_t cap, const mpz_t k) {
    size_t n = (mpz_sizeinbase(k, 2) + 63) / 64;
    assert_true(n <= cap);
    pm_limbs_from_mpz(l, n, k);
    return n;
}

#define TORSION_TEST(G, FE_RAND_POINT, GEN_, small_primes, nsmall)                                   \
    do {                                                                                             \
        mpz_t h, rest, r, k, le;                                                                     \
        mpz_inits(h, rest, r, k, le, NULL);                                                          \
        cofactor(h, G##_is_g2);                                                                      \
        pm_mpz_from_limbs(r, FR_MODULUS.l, 4);                                                       \
        mpz_set(rest, h);                                                                            \
        for (int c = 0; c <= (nsmall); c++) {                                                        \
            if (c < (nsmall)) {                                                                      \
                unsigned long l = (small_primes)[c];                                                 \
                assert_true(mpz_divisible_ui_p(rest, l));                                            \
                mpz_set_ui(le, 1);                                                                   \
                while (mpz_divisible_ui_p(rest, l)) {                                                \
                    mpz_divexact_ui(rest, rest, l);                                                  \
                    mpz_mul_ui(le, le, l);                                                           \
                }                                                                                    \
            } else {                                                                                 \
                mpz_set(le, rest);                                                                   \
                if (mpz_cmp_ui(le, 1) == 0) break;                                                   \
            }                                                                                        \
            mpz_divexact(k, h, le);                                                                  \
            mpz_mul(k, k, r);                                                                        \
            uint64_t kl[16], hl[16];                                                                 \
            size_t nk = scalar_limbs(kl, 16, k);                                                     \
            mpz_mul(k, h, r);                                                                        \
            size_t nh = scalar_limbs(hl, 16, k);                                                     \
            int found = 0;                                                                           \
            for (int tries = 0; tries < 8 && found < 2; tries++) {                                   \
                G##_affine_t R_, Q_;                                                                 \
                G##_jac_t j, full;                                                                   \
                FE_RAND_POINT(&R_);                                                                  \
                G##_jac_from_affine(&j, &R_);                                                        \
                G##_jac_mul_vartime(&full, &j, hl, nh); /* [r h]R = O: h is the whole cofactor */   \
                assert_true(G##_jac_is_infinity(&full));                                             \
                G##_jac_mul_vartime(&j, &j, kl, nk);                                                 \
                if (G##_jac_is_infinity(&j)) continue;                                               \
                G##_jac_to_affine(&Q_, &j);                                                          \
                assert_true(G##_affine_is_on_curve(&Q_));                                            \
                assert_false(G##_affine_in_subgroup_vartime(&Q_));                                   \
                G##_jac_add_affine(&j, &j, &GEN_);                                                   \
                G##_jac_to_affine(&Q_, &j);                                                          \
                assert_false(G##_affine_in_subgroup_vartime(&Q_));                                   \
                found++;                                                                             \
            }                                                                                        \
            if (!found) fail_msg("no point of order dividing the component %d found", c);           \
        }                                                                                            \
        mpz_clears(h, rest, r, k, le, NULL);                                                         \
    } while (0)

enum { g1_is_g2 = 0, g2_is_g2 = 1 };

static void g1_torsion(void **state) {
    (void)state;
    pm_test_seed();
    static const unsigned long primes[] = {3, 11, 10177, 859267, 52437899};
    TORSION_TEST(g1, g1_test_rand_on_curve, G1_GENERATOR, primes, 5);
}

static void g2_torsion(void **state) {
    (void)state;
    pm_test_seed();
    static const unsigned long primes[] = {13, 23, 2713, 11953, 262069};
    TORSION_TEST(g2, g2_test_rand_on_curve, G2_GENERATOR, primes, 5);
}

int main(void) {
    int fails = cmocka_run_group_tests_name("g1", g1_tests, NULL, NULL);
    fails += cmocka_run_group_tests_name("g2", g2_tests, NULL, NULL);
    const struct CMUnitTest torsion[] = {cmocka_unit_test(g1_torsion), cmocka_unit_test(g2_torsion)};
    fails += cmocka_run_group_tests_name("torsion", torsion, NULL, NULL);
    return fails;
}
