/*
 * test_circuits_post_witness.c — fallback PoSt witnesses of real vanilla proofs over our sealed
 * 2 KiB sectors (WinningPoSt id 0; WindowPoSt V1 id 5 and V1_2 id 10, full and padded partitions),
 * plus synthetic 32 GiB WinningPoSt and 512 MiB WindowPoSt:
 *  - the parallel witness equals the serial synthesis value by value;
 *  - every constraint is satisfied: the recorded matrices (2 KiB) and the streaming check;
 *  - the witness's public inputs equal those derived from randomness + sector ids (compound.rs);
 *  - corruptions: a sibling or a leaf breaks the named sector/challenge's inclusion_root; comm_c
 *    breaks that sector's comm_r gadget; an index changes the public input (caught before
 *    proving); a non-canonical sibling or a wrong arity is refused by the witness naming them.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../filecoin/post_test_util.h"

#include "circuits/filecoin/post_circuit.h"

static fil_seal_t g_seal[2];

static int setup(void **st) {
    (void)st;
    pm_test_seal(&g_seal[0], 5, 21, NULL);
    uint8_t *d = pm_test_data(2048, 5);
    pm_test_seal(&g_seal[1], 5, 22, d);
    free(d);
    return 0;
}
static int teardown(void **st) {
    (void)st;
    fil_seal_free(&g_seal[0]);
    fil_seal_free(&g_seal[1]);
    return 0;
}

static fr_t *witness(size_t *n, uint32_t *nin, const fil_post_job_t *j, unsigned threads) {
    pm_error err;
    if (pm_post_witness_len(n, nin, &j->cfg, &err)) fail_msg("len: %s", err.msg);
    fr_t *w = malloc(*n * sizeof *w);
    size_t got;
    if (pm_post_witness_into(w, *n, &got, nin, j, 0, threads, &err)) fail_msg("witness: %s", err.msg);
    assert_int_equal(got, *n);
    return w;
}

/* everything about one job that must hold */
static void check_job(const fil_post_job_t *j, int record) {
    size_t n;
    uint32_t nin;
    pm_error err;
    fr_t *w = witness(&n, &nin, j, 2);
    /* serial reference */
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_WITNESS);
    if (pm_post_synthesize(&cs, &j->cfg, j->sectors, NULL, &err)) fail_msg("serial: %s", err.msg);
    fr_t *ws;
    assert_int_equal(pm_cs_finish(&cs, NULL, &ws, &err), PM_OK);
    assert_int_equal(cs.n_inputs + cs.n_aux, n);
    for (size_t i = 0; i < n; i++)
        if (!fr_eq(&w[i], &ws[i])) fail_msg("parallel witness differs at %zu of %zu", i, n);
    pm_cs_free(&cs);
    free(ws);
    /* public inputs */
    fr_t *x = malloc((nin - 1) * sizeof *x);
    assert_int_equal(pm_post_public_inputs(x, nin - 1, j, 0, &err), PM_OK);
    for (uint32_t i = 0; i + 1 < nin; i++)
        if (!fr_eq(&x[i], &w[1 + i])) fail_msg("public input %u differs", i + 1);
    free(x);
    /* constraints */
    uint64_t fb, nb;
    if (pm_post_check(&fb, &nb, j, &err)) fail_msg("check: %s", err.msg);
    if (record) {
        r1cs_t rc = {0};
        uint32_t rin;
        assert_int_equal(pm_post_record(&rc, &rin, &j->cfg, &err), PM_OK);
        assert_int_equal(rin, nin);
        assert_int_equal(rc.n_wires, n);
        uint32_t bad = 0;
        if (r1cs_check_satisfied(&bad, &rc, w, n, &err)) fail_msg("recorded: %s", err.msg);
        r1cs_free(&rc);
    }
    printf("  %s partition %u: %zu values (%u inputs), all constraints satisfied\n", j->rp->name, j->partition, n, nin);
    free(w);
}

static void make_job(fil_post_job_t *j, fil_proof_request_t *r, unsigned id, size_t n, uint32_t part) {
    pm_test_post_request(r, id, g_seal, n, 3, part);
    pm_error err;
    if (fil_post_job_init(j, id < 5 ? FIL_POST_WINNING : FIL_POST_WINDOW, r, &err)) fail_msg("job: %s", err.msg);
}

static void test_satisfied(void **state) {
    (void)state;
    static const struct {
        unsigned id;
        size_t n;
        uint32_t part;
    } cases[] = {{0, 1, 0}, {5, 2, 0}, {5, 1, 2}, {10, 2, 4}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fil_proof_request_t r;
        fil_post_job_t j;
        make_job(&j, &r, cases[c].id, cases[c].n, cases[c].part);
        check_job(&j, c < 2);
        fil_post_job_free(&j);
        fil_proof_request_free(&r);
    }
}

/* synthetic big shapes: one sector (WinningPoSt 32 GiB), two sectors (WindowPoSt 512 MiB) */
static void test_synthetic(void **state) {
    (void)state;
    static const unsigned ids[] = {3, 12};
    for (int i = 0; i < 2; i++) {
        fil_post_config_t c;
        pm_error err;
        assert_int_equal(fil_post_config(&c, ids[i], &err), PM_OK);
        fil_proof_request_t r;
        memset(&r, 0, sizeof r);
        r.registered_proof = ids[i];
        r.has_randomness = 1;
        pm_test_randomness(r.randomness, 6);
        r.partition_index = c.type == FIL_POST_WINDOW ? 1 : 0;
        size_t n = c.type == FIL_POST_WINNING ? 1 : 2;
        for (size_t s = 0; s < n; s++) {
            fil_arena_t a = {0};
            fil_post_sector_proof_t p;
            uint64_t si = c.type == FIL_POST_WINNING ? 0 : (uint64_t)r.partition_index * c.sector_count + s;
            uint8_t *b;
            size_t len;
            if (fil_post_prove_synthetic(&p, &a, &c, 70 + s, 1, r.randomness, si, &err) ||
                fil_post_sector_proof_write(&b, &len, &p, &err) || fil_proof_request_add_vanilla(&r, b, len, &err))
                fail_msg("synthetic: %s", err.msg);
            free(b);
            fil_arena_free(&a);
        }
        fil_post_job_t j;
        if (fil_post_job_init(&j, c.type, &r, &err) || fil_post_job_verify(&j, &err)) fail_msg("job: %s", err.msg);
        check_job(&j, 0);
        fil_post_job_free(&j);
        fil_proof_request_free(&r);
    }
}

static void expect_unsat(const fil_post_job_t *j, const char *n1, const char *n2, const char *what) {
    uint64_t fb, nb;
    pm_error err;
    pm_error_clear(&err);
    pm_status st = pm_post_check(&fb, &nb, j, &err);
    printf("  %-22s -> %s\n", what, err.msg);
    if (st != PM_ERR_UNSATISFIED) fail_msg("%s: status %d (%s)", what, st, err.msg);
    if (n1 && !strstr(err.msg, n1)) fail_msg("%s: message lacks '%s': %s", what, n1, err.msg);
    if (n2 && !strstr(err.msg, n2)) fail_msg("%s: message lacks '%s': %s", what, n2, err.msg);
}

static void test_corruptions(void **state) {
    (void)state;
    fil_proof_request_t r;
    fil_post_job_t j;
    make_job(&j, &r, 5, 2, 0);
    fil_post_sector_vanilla_t *v = j.vanilla.proofs[1].sectors;
    v->inclusion[3].elems[1].hashes[2][0] ^= 1;
    expect_unsat(&j, "sector 1 (id 22), challenge 3", "inclusion_root", "sibling");
    v->inclusion[3].elems[1].hashes[2][0] ^= 1;
    v->inclusion[7].leaf[4] ^= 1;
    expect_unsat(&j, "sector 1 (id 22), challenge 7", "inclusion_root", "leaf");
    v->inclusion[7].leaf[4] ^= 1;
    v->comm_c[2] ^= 1;
    expect_unsat(&j, "sector 1 (id 22)", "comm_r)", "comm_c");
    v->comm_c[2] ^= 1;
    j.vanilla.proofs[0].sectors[0].comm_r_last[1] ^= 1;
    expect_unsat(&j, "sector 0 (id 21)", "comm_r)", "comm_r_last");
    j.vanilla.proofs[0].sectors[0].comm_r_last[1] ^= 1;
    /* an index: the witness's public input no longer matches the derived one */
    v->inclusion[5].elems[0].index ^= 1;
    size_t n;
    uint32_t nin;
    fr_t *w = witness(&n, &nin, &j, 1);
    fr_t *x = malloc((nin - 1) * sizeof *x);
    pm_error err;
    assert_int_equal(pm_post_public_inputs(x, nin - 1, &j, 0, &err), PM_OK);
    uint32_t differ = 0, first = 0;
    for (uint32_t i = 0; i + 1 < nin; i++)
        if (!fr_eq(&x[i], &w[1 + i]) && !differ++) first = i;
    assert_int_equal(differ, 1);
    assert_int_equal(first, 11 + 1 + 5); /* sector 1: comm_r, then challenge 5 */
    free(x);
    free(w);
    v->inclusion[5].elems[0].index ^= 1;
    /* refused by the witness itself */
    uint8_t save = v->inclusion[2].elems[0].hashes[0][31];
    v->inclusion[2].elems[0].hashes[0][31] = 0xff;
    w = malloc(n * sizeof *w);
    size_t got;
    assert_int_equal(pm_post_witness_into(w, n, &got, &nin, &j, 0, 2, &err), PM_ERR_ENCODING);
    printf("  %-22s -> %s\n", "sibling >= r", err.msg);
    assert_non_null(strstr(err.msg, "sector 1 (id 22) challenge 2"));
    v->inclusion[2].elems[0].hashes[0][31] = save;
    v->inclusion[2].elems[1].nhashes = 6;
    assert_int_equal(pm_post_witness_into(w, n, &got, &nin, &j, 0, 2, &err), PM_ERR_MISMATCH);
    printf("  %-22s -> %s\n", "6 siblings", err.msg);
    assert_non_null(strstr(err.msg, "level 1"));
    v->inclusion[2].elems[1].nhashes = 7;
    assert_int_equal(pm_post_witness_into(w, n - 1, &got, &nin, &j, 0, 2, &err), PM_ERR_ARG);
    assert_int_equal(pm_post_witness_into(w, n, &got, &nin, &j, 1, 2, &err), PM_ERR_ARG);
    assert_int_equal(pm_post_witness_into(w, n, &got, &nin, &j, 0, 2, &err), PM_OK);
    free(w);
    fil_post_job_free(&j);
    fil_proof_request_free(&r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_satisfied),
        cmocka_unit_test(test_corruptions),
        cmocka_unit_test(test_synthetic),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
