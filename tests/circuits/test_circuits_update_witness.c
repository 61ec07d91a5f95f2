/*
 * test_circuits_update_witness.c — SnapDeals witnesses of a real update of our sealed 2 KiB
 * sector (random new data), and of a synthetic 512 MiB update (bucket trees; 57 M constraints
 * only with PROOFMILL_SLOW=1):
 *  - the parallel witness (global part serial, challenges in parallel) equals the serial one;
 *  - every constraint is satisfied (streaming check, PM_CS_CHECK);
 *  - the witness's 4 public inputs equal k_and_h_select, comm_r_old, comm_d_new, comm_r_new as a
 *    verifier derives them (k = 0, h_select = 8);
 *  - corruptions, each breaking the named gadget: a tree R old sibling (tree_r_old_path of that
 *    challenge), comm_c (comm_r_checks), an apex leaf (partition_path), a tree D sibling
 *    (tree_d_path), the request's comm_r_new (other challenges: the openings and rho no longer match);
 *    a leaf_d_new that breaks the encoding is refused by the witness naming proof_r_new.leaf.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../filecoin/post_test_util.h"

#include "circuits/filecoin/update_circuit.h"

static fil_seal_t g_s;
static fil_update_t g_u;
static fil_proof_request_t g_r;

static int setup(void **st) {
    (void)st;
    uint8_t *d = pm_test_data(2048, 77);
    pm_test_seal(&g_s, 5, 31, d); /* a sector with data: the sector key is not the zero key */
    free(d);
    pm_test_update(&g_u, &g_s, 78);
    pm_test_update_request(&g_r, &g_u, 0);
    return 0;
}
static int teardown(void **st) {
    (void)st;
    fil_proof_request_free(&g_r);
    fil_update_free(&g_u);
    fil_seal_free(&g_s);
    return 0;
}

static void job(fil_update_job_t *j, const fil_proof_request_t *r) {
    pm_error err;
    if (fil_update_job_init(j, r, &err)) fail_msg("job: %s", err.msg);
}

static void check_partition(const fil_update_job_t *j, uint32_t k, int serial) {
    size_t n, got;
    uint32_t nin;
    pm_error err;
    assert_int_equal(pm_update_witness_len(&n, &nin, &j->cfg, &err), PM_OK);
    assert_int_equal(nin, 5);
    fr_t *w = malloc(n * sizeof *w);
    if (pm_update_witness_into(w, n, &got, &nin, j, k, 2, &err)) fail_msg("witness: %s", err.msg);
    assert_int_equal(got, n);
    if (serial) {
        pm_cs cs;
        pm_cs_init(&cs, PM_CS_WITNESS);
        if (pm_update_synthesize(&cs, &j->cfg, j, k, NULL, &err)) fail_msg("serial: %s", err.msg);
        fr_t *ws;
        assert_int_equal(pm_cs_finish(&cs, NULL, &ws, &err), PM_OK);
        for (size_t i = 0; i < n; i++)
            if (!fr_eq(&w[i], &ws[i])) fail_msg("parallel witness differs at %zu of %zu", i, n);
        free(ws);
        pm_cs_free(&cs);
    }
    fr_t x[4];
    assert_int_equal(pm_update_public_inputs(x, 4, j, k, &err), PM_OK);
    for (int i = 0; i < 4; i++) assert_true(fr_eq(&x[i], &w[1 + i]));
    uint64_t fb, nb;
    if (pm_update_check(&fb, &nb, j, k, &err)) fail_msg("check: %s", err.msg);
    printf("  %llu bytes partition %u: %zu values, all constraints satisfied\n", (unsigned long long)j->cfg.sector_size, k,
           n);
    free(w);
}

static void test_satisfied(void **state) {
    (void)state;
    fil_update_job_t j;
    job(&j, &g_r);
    pm_error err;
    if (fil_update_job_verify(&j, &err)) fail_msg("vanilla: %s", err.msg);
    check_partition(&j, 0, 1);
    fr_t x[4], want;
    assert_int_equal(pm_update_public_inputs(x, 4, &j, 0, &err), PM_OK);
    fr_from_u64(&want, 8);
    assert_true(fr_eq(&x[0], &want));
    fil_update_job_free(&j);
}

static void expect_unsat(const fil_update_job_t *j, const char *n1, const char *n2, const char *what) {
    uint64_t fb, nb;
    pm_error err;
    pm_error_clear(&err);
    pm_status st = pm_update_check(&fb, &nb, j, 0, &err);
    printf("  %-22s -> %s\n", what, err.msg);
    if (st != PM_ERR_UNSATISFIED) fail_msg("%s: status %d (%s)", what, st, err.msg);
    if (n1 && !strstr(err.msg, n1)) fail_msg("%s: message lacks '%s': %s", what, n1, err.msg);
    if (n2 && !strstr(err.msg, n2)) fail_msg("%s: message lacks '%s': %s", what, n2, err.msg);
}

static void test_corruptions(void **state) {
    (void)state;
    fil_update_job_t j;
    job(&j, &g_r);
    fil_update_partition_proof_t *p = &j.vanilla.proofs[0];
    p->challenges[3].r_old.elems[1].hashes[4][0] ^= 1;
    expect_unsat(&j, "challenge 3", "tree_r_old_path", "r_old sibling");
    p->challenges[3].r_old.elems[1].hashes[4][0] ^= 1;
    p->challenges[5].r_new.elems[0].hashes[0][3] ^= 1;
    expect_unsat(&j, "challenge 5", "tree_r_new_path", "r_new sibling");
    p->challenges[5].r_new.elems[0].hashes[0][3] ^= 1;
    p->comm_c[7] ^= 1;
    expect_unsat(&j, "comm_r_checks", NULL, "comm_c");
    p->comm_c[7] ^= 1;
    p->apex_leafs[2][1] ^= 1;
    expect_unsat(&j, "partition_path", NULL, "apex leaf");
    p->apex_leafs[2][1] ^= 1;
    p->challenges[8].d_new.elems[0].hashes[0][5] ^= 1;
    expect_unsat(&j, "challenge 8", "tree_d_path", "d_new sibling");
    p->challenges[8].d_new.elems[0].hashes[0][5] ^= 1;
    p->challenges[0].r_old.root[0] ^= 1; /* root_r_old is taken from challenge 0 */
    expect_unsat(&j, "comm_r_checks", NULL, "root_r_old");
    p->challenges[0].r_old.root[0] ^= 1;
    /* another comm_r_new: other challenges, while the openings stay where they were */
    fil_update_job_t j2;
    fil_proof_request_t r2 = g_r;
    r2.comm_r_new[0] ^= 2;
    job(&j2, &r2);
    uint64_t fb, nb;
    pm_error e2;
    pm_status st2 = pm_update_check(&fb, &nb, &j2, 0, &e2);
    printf("  %-22s -> %s\n", "comm_r_new", e2.msg);
    assert_true(st2 == PM_ERR_UNSATISFIED || st2 == PM_ERR_MISMATCH); /* other challenges: other rho too */
    fil_update_job_free(&j2);
    /* the encoding relation is checked on the witness values, naming the field */
    p->challenges[4].d_new.leaf[0] ^= 1;
    size_t n, got;
    uint32_t nin;
    pm_error err;
    assert_int_equal(pm_update_witness_len(&n, &nin, &j.cfg, &err), PM_OK);
    fr_t *w = malloc(n * sizeof *w);
    assert_int_equal(pm_update_witness_into(w, n, &got, &nin, &j, 0, 2, &err), PM_ERR_MISMATCH);
    printf("  %-22s -> %s\n", "leaf_d_new", err.msg);
    assert_non_null(strstr(err.msg, "challenge 4: proof_r_new.leaf"));
    p->challenges[4].d_new.leaf[0] ^= 1;
    p->challenges[4].d_new.elems[5].hashes[0][0] ^= 1; /* the partition path differs from challenge 0's */
    assert_int_equal(pm_update_witness_into(w, n, &got, &nin, &j, 0, 2, &err), PM_OK); /* 2 KiB: no partition path */
    p->challenges[4].d_new.elems[5].hashes[0][0] ^= 1;
    p->challenges[2].r_old.elems[0].hashes[0][31] = 0xff;
    assert_int_equal(pm_update_witness_into(w, n, &got, &nin, &j, 0, 2, &err), PM_ERR_ENCODING);
    printf("  %-22s -> %s\n", "sibling >= r", err.msg);
    assert_non_null(strstr(err.msg, "challenge 2"));
    free(w);
    fil_update_job_free(&j);
}

/* 512 MiB: 57 M constraints per partition; opt-in */
static void test_synthetic_512(void **state) {
    (void)state;
    if (!getenv("PROOFMILL_SLOW") || strcmp(getenv("PROOFMILL_SLOW"), "1")) {
        printf("  skipped: PROOFMILL_SLOW=1 checks a synthetic 512 MiB partition (57 M constraints)\n");
        return;
    }
    fil_update_t u;
    pm_error err;
    if (fil_update_synthetic(&u, 512ull << 20, 9, &err)) fail_msg("synthetic: %s", err.msg);
    fil_proof_request_t r;
    pm_test_update_request(&r, &u, 2);
    fil_update_job_t j;
    job(&j, &r);
    check_partition(&j, 15, 0);
    fil_update_job_free(&j);
    fil_proof_request_free(&r);
    fil_update_free(&u);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_satisfied),
        cmocka_unit_test(test_corruptions),
        cmocka_unit_test(test_synthetic_512),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
