/*
 * test_circuits_kinds_8m.c — one sealed 8 MiB CC sector (StackedDrg8MiBV1_1, the existing seal
 * code: ~10 CPU-s), shared by the 8 MiB checks of all three kinds:
 *  - WinningPoSt (id 1) and WindowPoSt V1_2 (id 11, a short partition padded with the last sector):
 *    vanilla proofs verify; their witnesses' public inputs equal the derived ones; every constraint
 *    is satisfied (streaming check);
 *  - SnapDeals (update id 1, random new data into the CC sector): all 4 partition proofs verify
 *    and round-trip through bincode; every constraint of partitions 0 and 3 is satisfied (10 M each;
 *    all four with PROOFMILL_SLOW=1);
 *    the witness's public inputs are k | 8 << 2, comm_r_old, comm_d_new, comm_r_new.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../filecoin/post_test_util.h"

#include "circuits/filecoin/post_circuit.h"
#include "circuits/filecoin/update_circuit.h"

static fil_seal_t g_s;

static int setup(void **st) {
    (void)st;
    pm_test_seal(&g_s, 6, 41, NULL);
    return 0;
}
static int teardown(void **st) {
    (void)st;
    fil_seal_free(&g_s);
    return 0;
}

static void test_post(void **state) {
    (void)state;
    static const unsigned ids[] = {1, 11};
    for (int i = 0; i < 2; i++) {
        fil_proof_request_t r;
        pm_test_post_request(&r, ids[i], &g_s, 1, 8, i ? 3 : 0);
        fil_post_job_t j;
        pm_error err;
        if (fil_post_job_init(&j, i ? FIL_POST_WINDOW : FIL_POST_WINNING, &r, &err) || fil_post_job_verify(&j, &err))
            fail_msg("job: %s", err.msg);
        size_t n, got;
        uint32_t nin;
        assert_int_equal(pm_post_witness_len(&n, &nin, &j.cfg, &err), PM_OK);
        fr_t *w = malloc(n * sizeof *w), *x = malloc(nin * sizeof *x);
        if (pm_post_witness_into(w, n, &got, &nin, &j, 0, 0, &err)) fail_msg("witness: %s", err.msg);
        assert_int_equal(pm_post_public_inputs(x, nin - 1, &j, 0, &err), PM_OK);
        for (uint32_t q = 0; q + 1 < nin; q++) assert_true(fr_eq(&x[q], &w[1 + q]));
        uint64_t fb, nb;
        if (pm_post_check(&fb, &nb, &j, &err)) fail_msg("check: %s", err.msg);
        printf("  %s: %zu values, all constraints satisfied\n", j.rp->name, n);
        free(w);
        free(x);
        fil_post_job_free(&j);
        fil_proof_request_free(&r);
    }
}

static void test_update(void **state) {
    (void)state;
    fil_update_t u;
    pm_test_update(&u, &g_s, 42);
    fil_proof_request_t r;
    pm_test_update_request(&r, &u, 1);
    fil_update_job_t j;
    pm_error err;
    if (fil_update_job_init(&j, &r, &err) || fil_update_job_verify(&j, &err)) fail_msg("job: %s", err.msg);
    assert_int_equal(pm_update_partitions(&j), 4);
    const char *sl = getenv("PROOFMILL_SLOW");
    int all = sl && !strcmp(sl, "1");
    for (uint32_t k = 0; k < 4; k++) {
        uint8_t *b;
        size_t n;
        assert_int_equal(fil_update_partition_proof_write(&b, &n, &j.vanilla.proofs[k], &err), PM_OK);
        assert_int_equal(n, r.vanilla_len[k]);
        assert_memory_equal(b, r.vanilla[k], n);
        free(b);
        size_t nw, got;
        uint32_t nin;
        assert_int_equal(pm_update_witness_len(&nw, &nin, &j.cfg, &err), PM_OK);
        fr_t x[4], kh;
        assert_int_equal(pm_update_public_inputs(x, 4, &j, k, &err), PM_OK);
        fr_from_u64(&kh, k | 8u << 2);
        assert_true(fr_eq(&x[0], &kh));
        if (k == 0) { /* the parallel witness once (the check below synthesizes its own) */
            fr_t *w = malloc(nw * sizeof *w);
            if (pm_update_witness_into(w, nw, &got, &nin, &j, k, 0, &err)) fail_msg("witness: %s", err.msg);
            for (int q = 0; q < 4; q++) assert_true(fr_eq(&x[q], &w[1 + q]));
            free(w);
        }
        if (!all && k != 0 && k != 3) continue; /* PROOFMILL_SLOW=1: every partition */
        uint64_t fb, nb;
        if (pm_update_check(&fb, &nb, &j, k, &err)) fail_msg("check: %s", err.msg);
        printf("  SnapDeals 8 MiB partition %u: %zu values, all constraints satisfied\n", k, nw);
    }
    fil_update_job_free(&j);
    fil_proof_request_free(&r);
    fil_update_free(&u);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_post),
        cmocka_unit_test(test_update),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
