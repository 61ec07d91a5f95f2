/*
 * test_circuits_porep_e2e.c — C2 end to end at 2 KiB: seal (#8) -> C1 -> the recorded circuit ->
 * our bellperson-layout Groth16 setup (#6, seeded toxic waste: test parameters) -> C2 proof
 * (pm_porep_c2_prove: witness, check, bellperson prover, self-verification) -> verification with
 * the vk; a flipped proof byte, another sector's C1 and a C1 with one changed label are refused
 * (the last before any proof is made, naming the unsatisfied constraint).
 * Slow (setup of a 2^22 domain: ~35 s on 16 cores, minutes on 2): runs only with PROOFMILL_SLOW=1
 * (exit 77 = skipped otherwise); label slow.
 */
#include "porep_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/filecoin/porep_c2.h"
#include "filecoin/replica_id.h"
#include "filecoin/seal.h"
#include "groth16/setup.h"

static void test_e2e_2kib(void **st) {
    (void)st;
    pm_error err;
    pm_porep_shape shape;
    assert_int_equal(pm_porep_shape_for_size(&shape, 2048, &err), PM_OK);
    r1cs_t cs = {0};
    uint32_t nin;
    bp_params_t p = {0};
    groth16_setup_timings_t tm;
    pm_test_porep_setup_2k(&p, &cs, &nin, 11, &tm);
    printf("setup %.1f s; ic %zu, h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu\n", tm.total, p.vk.n_ic, p.n_h, p.n_l,
           p.n_a, p.n_b_g1, p.n_b_g2);
    assert_int_equal(p.vk.n_ic, 40);
    assert_int_equal(p.n_l, 2685673);
    assert_int_equal(p.n_h, (1u << 22) - 1); /* bellperson: m - 1 points, m = 2^22 */

    fil_seal_t s1, s2;
    fil_c1_t a, b;
    pm_test_seal_c1(&s1, &a, 1);
    pm_test_seal_c1(&s2, &b, 2);
    uint8_t proof[192], other[192];
    pm_c2_timings_t t;
    uint64_t rs = 5;
    if (pm_porep_c2_prove(proof, &a, &shape, &cs, &p, &rs, 0, &t, &err)) fail_msg("prove: %s", err.msg);
    printf("witness %.2f s, check %.2f s, prove %.2f s, verify %.2f s\n", t.witness, t.check, t.prove, t.verify);
    int valid = 0;
    assert_int_equal(pm_porep_c2_verify(&valid, proof, 1, &a, &shape, &p.vk, &err), PM_OK);
    assert_int_equal(valid, 1);
    /* random blinding gives another proof that verifies too */
    assert_int_equal(pm_porep_c2_prove(other, &b, &shape, &cs, &p, NULL, 0, NULL, &err), PM_OK);
    assert_int_equal(pm_porep_c2_verify(&valid, other, 1, &b, &shape, &p.vk, &err), PM_OK);
    assert_int_equal(valid, 1);
    /* a's proof with b's public inputs: invalid */
    assert_int_equal(pm_porep_c2_verify(&valid, proof, 1, &b, &shape, &p.vk, &err), PM_OK);
    assert_int_equal(valid, 0);
    /* a flipped bit: refused (decode error) or invalid */
    proof[100] ^= 1;
    pm_status vs = pm_porep_c2_verify(&valid, proof, 1, &a, &shape, &p.vk, &err);
    assert_true(vs != PM_OK || valid == 0);
    /* one changed label: refused before proving, constraint named */
    fil_c1_proof(&a, 0, 1)->exp[3].rows[1][5] ^= 0x10;
    assert_int_equal(pm_porep_c2_prove(other, &a, &shape, &cs, &p, &rs, 0, NULL, &err), PM_ERR_UNSATISFIED);
    printf("changed label: %s\n", err.msg);
    assert_non_null(strstr(err.msg, "challenge 1"));
    fil_c1_free(&a);
    fil_c1_free(&b);
    fil_seal_free(&s1);
    fil_seal_free(&s2);
    params_free(&p);
    r1cs_free(&cs);
}

int main(void) {
    const char *slow = getenv("PROOFMILL_SLOW");
    if (!slow || strcmp(slow, "1")) {
        printf("skipped: set PROOFMILL_SLOW=1 (2^22 setup + proof)\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_e2e_2kib)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
