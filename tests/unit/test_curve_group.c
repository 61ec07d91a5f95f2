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

int main(void) {
    int fails = cmocka_run_group_tests_name("g1", g1_tests, NULL, NULL);
    fails += cmocka_run_group_tests_name("g2", g2_tests, NULL, NULL);
    return fails;
}
