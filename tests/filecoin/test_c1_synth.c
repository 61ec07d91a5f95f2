/*
 * test_c1_synth.c — synthetic C1 (synth_c1.h) for 2 KiB, 512 MiB, 32 GiB (8-8-0, Sub proofs) and
 * 64 GiB (8-8-2, Top proofs): every vanilla check passes, the JSON says it is synthetic, both
 * readers give back byte-identical documents, columns shared between challenges are identical, and
 * a synthetic C1 of the same inputs is reproducible; comm_d = the POREP.md §4.4 zero-sector value. Prints (does not assert) write/parse times.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "c1_read_jansson.h"
#include "filecoin/c1_json.h"
#include "filecoin/merkle_sha256.h"
#include "filecoin/replica_id.h"
#include "filecoin/sha256_fr.h"
#include "filecoin/synth_c1.h"
#include "filecoin/vanilla_verify.h"
#include "util/clock.h"

static void params(fil_synth_params_t *p, unsigned id) {
    memset(p, 0, sizeof *p);
    p->registered_proof = id;
    fil_prover_id_from_miner(p->prover_id, 1234);
    p->sector_id = 42;
    for (int i = 0; i < 32; i++) {
        p->ticket[i] = (uint8_t)(7 * i);
        p->seed[i] = (uint8_t)(11 * i + 3);
    }
}

static void synth_verify_roundtrip(unsigned id, int time_readers) {
    fil_synth_params_t p;
    params(&p, id);
    fil_c1_t c1;
    pm_error err;
    double t0 = pm_now_s();
    if (fil_synth_c1(&c1, &p, &err)) fail_msg("synth %u: %s", id, err.msg);
    double t_synth = pm_now_s() - t0;
    assert_int_equal(c1.synthetic, 1);
    uint8_t z[32];
    assert_int_equal(fil_comm_d_zero(z, c1.sector_size, &err), PM_OK);
    assert_memory_equal(z, c1.comm_d, 32);
    /* the POREP.md §4.4 table, directly */
    static const struct { uint64_t size; const char *hex; } tab[] = {
        {2048, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"},
        {512ull << 20, "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06"},
        {32ull << 30, "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e"},
        {64ull << 30, "e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02"},
    };
    for (unsigned t = 0; t < 4; t++)
        if (tab[t].size == c1.sector_size) {
            char h[65];
            fil_hex(h, c1.comm_d, 32);
            assert_string_equal(h, tab[t].hex);
        }
    t0 = pm_now_s();
    if (fil_c1_verify(&c1, NULL, &err)) fail_msg("verify %u: %s", id, err.msg);
    double t_verify = pm_now_s() - t0;
    /* columns of the same node are identical wherever they are opened */
    for (size_t a = 0; a < (size_t)c1.partitions * c1.challenges; a++)
        for (size_t b = 0; b < (size_t)c1.partitions * c1.challenges; b++) {
            const fil_vanilla_proof_t *x = &c1.proofs[a], *y = &c1.proofs[b];
            for (unsigned i = 0; i < 6; i++)
                if (x->drg[i].index == y->c_x.index)
                    assert_memory_equal(x->drg[i].rows, y->c_x.rows, 32 * y->c_x.nrows);
            for (unsigned i = 0; i < 8; i++)
                if (x->exp[i].index == y->c_x.index)
                    assert_memory_equal(x->exp[i].rows, y->c_x.rows, 32 * y->c_x.nrows);
        }
    char *j;
    size_t n;
    t0 = pm_now_s();
    assert_int_equal(fil_c1_to_json(&j, &n, &c1, &err), PM_OK);
    double t_write = pm_now_s() - t0;
    assert_non_null(strstr(j + n - 300, "\"_proofmill_synthetic\""));
    fil_c1_t a, b;
    t0 = pm_now_s();
    if (fil_c1_from_json(&a, j, n, "synth", &err)) fail_msg("fast: %s", err.msg);
    double t_fast = pm_now_s() - t0;
    double t_jansson = 0;
    if (time_readers) {
        t0 = pm_now_s();
        if (fil_c1_from_json_jansson(&b, j, n, "synth", &err)) fail_msg("jansson: %s", err.msg);
        t_jansson = pm_now_s() - t0;
        char *j2;
        size_t n2;
        assert_int_equal(fil_c1_to_json(&j2, &n2, &b, &err), PM_OK);
        assert_int_equal(n2, n);
        assert_memory_equal(j2, j, n);
        free(j2);
        fil_c1_free(&b);
    }
    assert_int_equal(a.synthetic, 1);
    char *j3;
    size_t n3;
    assert_int_equal(fil_c1_to_json(&j3, &n3, &a, &err), PM_OK);
    assert_int_equal(n3, n);
    assert_memory_equal(j3, j, n);
    printf("registered proof %u: %u x %u proofs, JSON %.1f MB; synth %.3f s, verify %.3f s, write %.3f s, "
           "parse fast %.3f s, jansson %.3f s\n",
           id, c1.partitions, c1.challenges, (double)n / 1e6, t_synth, t_verify, t_write, t_fast, t_jansson);
    /* reproducible */
    fil_c1_t again;
    assert_int_equal(fil_synth_c1(&again, &p, &err), PM_OK);
    assert_memory_equal(again.comm_r, c1.comm_r, 32);
    fil_c1_free(&again);
    free(j);
    free(j3);
    fil_c1_free(&a);
    fil_c1_free(&c1);
}

static void test_synth_2kib(void **st) {
    (void)st;
    synth_verify_roundtrip(5, 1);
}
static void test_synth_512mib(void **st) {
    (void)st;
    synth_verify_roundtrip(7, 1);
}
static void test_synth_32gib(void **st) {
    (void)st;
    synth_verify_roundtrip(8, 1);
}
static void test_synth_64gib(void **st) {
    (void)st;
    synth_verify_roundtrip(9, 0);
}
static void test_synth_refuses_ni(void **st) {
    (void)st;
    fil_synth_params_t p;
    params(&p, 18);
    fil_c1_t c1;
    pm_error err;
    assert_int_equal(fil_synth_c1(&c1, &p, &err), PM_ERR_ARG);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_synth_2kib),  cmocka_unit_test(test_synth_512mib),
        cmocka_unit_test(test_synth_32gib), cmocka_unit_test(test_synth_64gib),
        cmocka_unit_test(test_synth_refuses_ni),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
