/*
 * test_circuits_records_inputs.c — the public-input derivation that `selfcheck` applies to Filecoin's
 * seal regression records (filecoin/porep_public.h, issue #39), checked without genuine parameters:
 * for each of the first 2 KiB records of tests/data/filecoin/seal_regression_records-v16.json
 * (V1_0_0 with porep_id 0, V1_1_0 and V1_2_0 with porep_id 5), a 2 KiB sector is sealed here with
 * that record's prover_id, sector_id, ticket and porep version, and C1 made with its seed; the
 * record, with comm_d and comm_r replaced by our sector's, goes through the record path (replica_id
 * from the fields, the graph of the record's porep_id and api_version, the challenges) and must give
 * exactly the public inputs of the partition circuit's witness: the values a proof made with any
 * parameters for that witness binds. Records proofmill cannot check (synthetic PoRep) say so, and a
 * verifying key of another input count is refused as a mismatch, never passed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/filecoin/porep_circuit.h"
#include "filecoin/porep_public.h"
#include "filecoin/real_data.h"
#include "filecoin/seal.h"
#include "filecoin/vanilla_proof.h"

static void check_record(const fil_seal_record_t *rec) {
    char v[64];
    printf("record at line %zu: %s, porep_id[0] = %u\n", rec->line, fil_seal_record_version(v, sizeof v, rec),
           rec->porep_id[0]);
    pm_error err;
    /* the registered proof whose porep_id the record carries (0 = StackedDrg2KiBV1, 5 = ..V1_1) */
    fil_seal_params_t sp;
    memset(&sp, 0, sizeof sp);
    sp.registered_proof = rec->porep_id[0];
    memcpy(sp.prover_id, rec->prover_id, 32);
    sp.sector_id = rec->sector_id;
    memcpy(sp.ticket, rec->ticket, 32);
    fil_seal_t s;
    if (fil_seal_run(&s, &sp, &err)) fail_msg("seal: %s", err.msg);
    fil_c1_t c1;
    if (fil_c1_from_seal(&c1, &s, rec->seed, &err)) fail_msg("C1: %s", err.msg);

    fil_seal_record_t r = *rec;
    memcpy(r.comm_d, s.comm_d, 32);
    memcpy(r.comm_r, s.comm_r, 32);
    fil_porep_public_t p;
    fil_porep_public_from_record(&p, &r);
    assert_memory_equal(p.replica_id, s.replica_id, 32); /* replica_id from the record's fields */
    uint32_t C = fil_porep_public_challenges(&p);
    assert_int_equal(C, 2);
    size_t nx = 3 + 18 * (size_t)C;
    fr_t *x = malloc(nx * sizeof *x);
    assert_int_equal(fil_porep_public_inputs(x, nx, &p, 0, &err), PM_OK);

    pm_porep_shape shape;
    assert_int_equal(pm_porep_shape_for_size(&shape, 2048, &err), PM_OK);
    fr_t *w = NULL;
    size_t nw = 0;
    uint32_t nin = 0;
    if (pm_porep_witness(&w, &nw, &nin, &shape, &c1, 0, &err)) fail_msg("witness: %s", err.msg);
    assert_int_equal(nin, nx + 1);
    for (size_t i = 0; i < nx; i++)
        if (memcmp(&w[1 + i], &x[i], sizeof(fr_t))) fail_msg("public input %zu differs from the witness's", i);
    printf("  %zu public inputs = the witness's\n", nx);

    /* a changed seed changes the challenges: the derivation does not ignore it */
    r.seed[0] ^= 1;
    fil_porep_public_from_record(&p, &r);
    assert_int_equal(fil_porep_public_inputs(x, nx, &p, 0, &err), PM_OK);
    int same = 1;
    for (size_t i = 3; i < nx; i++) same &= !memcmp(&w[1 + i], &x[i], sizeof(fr_t));
    assert_false(same);

    free(w);
    free(x);
    fil_c1_free(&c1);
    fil_seal_free(&s);
}

static void test_records_vs_witness(void **state) {
    (void)state;
    char p[4096];
    snprintf(p, sizeof p, "%s/tests/data/filecoin/seal_regression_records-v16.json", pm_source_dir());
    fil_seal_records_t rs;
    pm_error err;
    assert_int_equal(fil_seal_records_read(&rs, p, &err), PM_OK);
    int seen[3] = {0};
    for (size_t i = 0; i < rs.n; i++) {
        const fil_seal_record_t *r = &rs.r[i];
        if (r->sector_size != 2048 || r->feature != FIL_FEATURE_NONE || seen[r->api_version]) continue;
        seen[r->api_version] = 1;
        check_record(r);
    }
    assert_true(seen[0] && seen[1] && seen[2]);
    fil_seal_records_free(&rs);
}

/* Unsupported records say why instead of guessing; a wrong vk size is a mismatch. */
static void test_records_refusals(void **state) {
    (void)state;
    char p[4096];
    snprintf(p, sizeof p, "%s/tests/data/filecoin/seal_regression_records-v16.json", pm_source_dir());
    fil_seal_records_t rs;
    pm_error err;
    assert_int_equal(fil_seal_records_read(&rs, p, &err), PM_OK);
    groth16_vk_t vk = {0};
    vk.n_public = 5;
    for (size_t i = 0; i < rs.n; i++) {
        int valid = 1;
        char why[300];
        pm_status st = fil_seal_record_verify(&valid, why, sizeof why, &rs.r[i], &vk, &err);
        assert_int_equal(valid, 0);
        if (rs.r[i].feature == FIL_FEATURE_SYNTHETIC_POREP) {
            assert_int_equal(st, PM_ERR_ARG);
            assert_non_null(strstr(err.msg, "synthetic"));
        } else {
            assert_int_equal(st, PM_ERR_MISMATCH);
        }
    }
    fil_seal_records_free(&rs);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_records_vs_witness),
                                       cmocka_unit_test(test_records_refusals)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
