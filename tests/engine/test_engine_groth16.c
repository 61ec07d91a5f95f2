/* The engine with the real CPU Groth16 backend (snarkjs .zkey + .wtns) on the repo's fixtures
 * (tests/data/multiplier, tests/data/powchain) and, when present, ../shared/fixtures: proofs come
 * back verified, in partition order, as snarkjs JSON; bad witnesses fail alone with clear errors. */
#include "test_util.h"
#include "groth16_fixtures.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/backend_kinds.h"
#include "engine/engine.h"
#include "groth16/proof_json.h"
#include "groth16/verifier.h"

static char g_mul_key[1024], g_mul_wtns[1024], g_pow_key[1024], g_pow_wtns[1024];

static void paths(void) {
    const char *src = pm_source_dir();
    snprintf(g_mul_key, sizeof g_mul_key, "%s/tests/data/multiplier/circuit.zkey", src);
    snprintf(g_mul_wtns, sizeof g_mul_wtns, "%s/tests/data/multiplier/witness.wtns", src);
    snprintf(g_pow_key, sizeof g_pow_key, "%s/tests/data/powchain/circuit.zkey", src);
    snprintf(g_pow_wtns, sizeof g_pow_wtns, "%s/tests/data/powchain/witness.wtns", src);
}


static pm_engine *new_engine(pm_backend *be) {
    pm_error err;
    pm_error_clear(&err);
    pm_kinds_backend_opts o = {.start_threads = 1, .finalize_threads = 1};
    assert_int_equal(pm_backend_kinds(be, &o, &err), PM_OK);
    pm_engine_config cfg;
    pm_engine_config_default(&cfg);
    cfg.memory_budget = 2ull << 30;
    pm_engine *e = NULL;
    assert_int_equal(pm_engine_create(&e, &cfg, be, &err), PM_OK);
    return e;
}

/* Check a proof JSON from the engine with the verifier against the fixture's verification key. */
static void check_with_vk(const char *proof_json, const char *vk_path) {
    json_error_t je;
    json_t *root = json_loads(proof_json, 0, &je);
    assert_non_null(root);
    char *pj = json_dumps(json_object_get(root, "proof"), 0);
    char *xj = json_dumps(json_object_get(root, "public"), 0);
    groth16_proof_t proof;
    groth16_vk_t vk;
    fr_t *x = NULL;
    size_t n = 0;
    pm_error err;
    pm_error_clear(&err);
    assert_int_equal(groth16_proof_from_json(&proof, pj, strlen(pj), "proof", &err), PM_OK);
    assert_int_equal(groth16_public_from_json(&x, &n, xj, strlen(xj), "public", &err), PM_OK);
    assert_int_equal(groth16_vk_load_json(&vk, vk_path, &err), PM_OK);
    int valid = 0;
    assert_int_equal(groth16_verify(&valid, &vk, x, n, &proof, "proof", "public", &err), PM_OK);
    assert_int_equal(valid, 1);
    groth16_vk_free(&vk);
    free(x);
    free(pj);
    free(xj);
    json_decref(root);
}

static void proves_fixtures_through_the_engine(void **state) {
    (void)state;
    paths();
    pm_backend be;
    pm_engine *e = new_engine(&be);
    size_t len = 0;
    uint8_t *bytes = pm_test_slurp(g_pow_wtns, &len);
    assert_non_null(bytes);
    pm_input in[3] = {
        {.kind = PM_INPUT_PATH, .path = g_pow_wtns},
        {.kind = PM_INPUT_BYTES, .bytes = bytes, .len = len},
        {.kind = PM_INPUT_PATH, .path = g_pow_wtns},
    };
    pm_job_spec spec = {.key_path = g_pow_key, .priority = PM_PRIO_HIGH, .inputs = in, .n_inputs = 3};
    uint64_t id1, id2;
    pm_error err;
    pm_error_clear(&err);
    assert_int_equal(pm_engine_submit(e, &spec, &id1, &err), PM_OK);
    pm_input min = {.kind = PM_INPUT_PATH, .path = g_mul_wtns};
    pm_job_spec mspec = {.key_path = g_mul_key, .priority = PM_PRIO_LOW, .inputs = &min, .n_inputs = 1};
    assert_int_equal(pm_engine_submit(e, &mspec, &id2, &err), PM_OK);
    pm_job_info info;
    assert_int_equal(pm_engine_wait(e, id1, 60000, &info), PM_OK);
    if (info.state != PM_JOB_DONE) fail_msg("job failed: %s", info.error.msg);
    char vk[1100];
    snprintf(vk, sizeof vk, "%s/tests/data/powchain/verification_key.json", pm_source_dir());
    for (int p = 0; p < 3; p++) check_with_vk(info.proofs[p], vk);
    assert_true(info.t.gpu_ms > 0 && info.t.finalize_ms > 0 && info.t.verify_ms > 0);
    pm_job_info_free(&info);
    assert_int_equal(pm_engine_wait(e, id2, 60000, &info), PM_OK);
    assert_int_equal(info.state, PM_JOB_DONE);
    snprintf(vk, sizeof vk, "%s/tests/data/multiplier/verification_key.json", pm_source_dir());
    check_with_vk(info.proofs[0], vk);
    pm_job_info_free(&info);
    free(bytes);
    pm_engine_destroy(e);
    be.destroy(be.self);
}

static void bad_witnesses_fail_clearly(void **state) {
    (void)state;
    paths();
    pm_backend be;
    pm_engine *e = new_engine(&be);
    pm_error err;
    pm_error_clear(&err);
    uint64_t id;
    /* a witness of another circuit: refused at submit */
    pm_input foreign = {.kind = PM_INPUT_PATH, .path = g_mul_wtns};
    pm_job_spec spec = {.key_path = g_pow_key, .inputs = &foreign, .n_inputs = 1};
    assert_int_equal(pm_engine_submit(e, &spec, &id, &err), PM_ERR_MISMATCH);
    assert_non_null(strstr(err.msg, "nVars"));
    /* missing files: refused at submit */
    pm_input missing = {.kind = PM_INPUT_PATH, .path = "/nonexistent/w.wtns"};
    spec.inputs = &missing;
    assert_int_equal(pm_engine_submit(e, &spec, &id, &err), PM_ERR_IO);
    spec.key_path = "/nonexistent/k.zkey";
    spec.inputs = &foreign;
    assert_int_equal(pm_engine_submit(e, &spec, &id, &err), PM_ERR_IO);
    /* garbage bytes */
    pm_input junk = {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)"hello", .len = 5};
    spec.key_path = g_mul_key;
    spec.inputs = &junk;
    assert_int_equal(pm_engine_submit(e, &spec, &id, &err), PM_ERR_FORMAT);
    /* an unsatisfying witness: a private input changed -> the prover's self-check refuses */
    size_t len;
    uint8_t *w = pm_test_slurp(g_mul_wtns, &len);
    assert_non_null(w);
    w[len - 32] ^= 1;
    pm_input bad = {.kind = PM_INPUT_BYTES, .bytes = w, .len = len};
    pm_input good = {.kind = PM_INPUT_PATH, .path = g_mul_wtns};
    spec.inputs = &bad;
    uint64_t bad_id, good_id;
    assert_int_equal(pm_engine_submit(e, &spec, &bad_id, &err), PM_OK);
    spec.inputs = &good;
    assert_int_equal(pm_engine_submit(e, &spec, &good_id, &err), PM_OK);
    pm_job_info info;
    assert_int_equal(pm_engine_wait(e, bad_id, 60000, &info), PM_OK);
    assert_int_equal(info.state, PM_JOB_FAILED);
    assert_int_equal(info.error.code, PM_ERR_UNSATISFIED);
    pm_job_info_free(&info);
    assert_int_equal(pm_engine_wait(e, good_id, 60000, &info), PM_OK);
    assert_int_equal(info.state, PM_JOB_DONE);
    pm_job_info_free(&info);
    pm_engine_status st;
    pm_engine_get_status(e, &st);
    assert_int_equal(st.verify_failures, 0);
    pm_engine_status_free(&st);
    free(w);
    pm_engine_destroy(e);
    be.destroy(be.self);
}

/* With snarkjs's fixed r, s the engine's proofs equal proof_det.json byte for byte (through
 * synthesis = eval_ab, gpu = H + G1 MSMs, finalize = the prover's). */
static void fixed_rs_matches_snarkjs_bytes(void **state) {
    (void)state;
    paths();
    const char *names[2] = {"multiplier", "powchain"};
    for (int f = 0; f < 2; f++) {
        char path[1100];
        snprintf(path, sizeof path, "%s/tests/data/%s/proof_det_rs.json", pm_source_dir(), names[f]);
        fr_t r, s;
        assert_int_equal(g16_read_rs(&r, &s, path), 0);
        pm_error err;
        pm_error_clear(&err);
        pm_backend be;
        pm_kinds_backend_opts o = {.start_threads = 1, .finalize_threads = 1, .fixed_r = &r, .fixed_s = &s};
        assert_int_equal(pm_backend_kinds(&be, &o, &err), PM_OK);
        pm_engine_config cfg;
        pm_engine_config_default(&cfg);
        cfg.memory_budget = 1ull << 30;
        pm_engine *e = NULL;
        assert_int_equal(pm_engine_create(&e, &cfg, &be, &err), PM_OK);
        char key[1100], wt[1100];
        snprintf(key, sizeof key, "%s/tests/data/%s/circuit.zkey", pm_source_dir(), names[f]);
        snprintf(wt, sizeof wt, "%s/tests/data/%s/witness.wtns", pm_source_dir(), names[f]);
        pm_input in = {.kind = PM_INPUT_PATH, .path = wt};
        pm_job_spec spec = {.key_path = key, .inputs = &in, .n_inputs = 1};
        uint64_t id;
        assert_int_equal(pm_engine_submit(e, &spec, &id, &err), PM_OK);
        pm_job_info info;
        assert_int_equal(pm_engine_wait(e, id, 60000, &info), PM_OK);
        assert_int_equal(info.state, PM_JOB_DONE);
        json_error_t je;
        json_t *root = json_loads(info.proofs[0], 0, &je);
        assert_non_null(root);
        groth16_proof_t proof;
        char *pj = json_dumps(json_object_get(root, "proof"), 0);
        assert_int_equal(groth16_proof_from_json(&proof, pj, strlen(pj), "engine", &err), PM_OK);
        char *ours = groth16_proof_to_json(&proof);
        snprintf(path, sizeof path, "%s/tests/data/%s/proof_det.json", pm_source_dir(), names[f]);
        size_t len;
        uint8_t *want = pm_test_slurp(path, &len);
        assert_non_null(want);
        while (len && (want[len - 1] == '\n' || want[len - 1] == '\r')) len--;
        assert_int_equal(strlen(ours), len);
        assert_memory_equal(ours, want, len);
        free(want);
        free(ours);
        free(pj);
        json_decref(root);
        pm_job_info_free(&info);
        pm_engine_destroy(e);
        be.destroy(be.self);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(proves_fixtures_through_the_engine),
        cmocka_unit_test(bad_witnesses_fail_clearly),
        cmocka_unit_test(fixed_rs_matches_snarkjs_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
