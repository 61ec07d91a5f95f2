/* The engine with the CUDA start phase (pm_backend_kinds with .gpu = 1): with snarkjs's fixed r, s the proofs
 * equal proof_det.json byte for byte (repo fixtures and, when present, ../shared/fixtures), several
 * jobs in flight with 2 workers on the device verify, and the device's kernel region was used.
 * Exit 77 (skipped) when the build has no CUDA backend or no GPU is usable. */
#include "test_util.h"
#include "groth16_fixtures.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/backend_kinds.h"
#include "engine/engine.h"
#include "groth16/proof_json.h"


/* dir: a fixture folder with circuit.zkey, witness.wtns, proof_det.json, proof_det_rs.json */
static void check_fixture(const char *dir) {
    char path[1200], key[1200], wt[1200];
    snprintf(path, sizeof path, "%s/proof_det_rs.json", dir);
    fr_t r, s;
    if (g16_read_rs(&r, &s, path)) {
        printf("  (no %s: skipped)\n", path);
        return;
    }
    pm_error err;
    pm_error_clear(&err);
    pm_backend be;
    pm_kinds_backend_opts o = {.gpu = 1, .finalize_threads = 1, .fixed_r = &r, .fixed_s = &s};
    assert_int_equal(pm_backend_kinds(&be, &o, &err), PM_OK);
    pm_engine_config cfg;
    pm_engine_config_default(&cfg);
    cfg.memory_budget = 8ull << 30;
    cfg.devices[0] = 0;
    cfg.n_devices = 1;
    cfg.workers_per_device = 2;
    pm_engine *e = NULL;
    assert_int_equal(pm_engine_create(&e, &cfg, &be, &err), PM_OK);
    snprintf(key, sizeof key, "%s/circuit.zkey", dir);
    snprintf(wt, sizeof wt, "%s/witness.wtns", dir);
    pm_input in[4] = {{.kind = PM_INPUT_PATH, .path = wt}, {.kind = PM_INPUT_PATH, .path = wt},
                      {.kind = PM_INPUT_PATH, .path = wt}, {.kind = PM_INPUT_PATH, .path = wt}};
    pm_job_spec spec = {.key_path = key, .inputs = in, .n_inputs = 4};
    uint64_t ids[3];
    for (int i = 0; i < 3; i++) assert_int_equal(pm_engine_submit(e, &spec, &ids[i], &err), PM_OK);
    snprintf(path, sizeof path, "%s/proof_det.json", dir);
    size_t len = 0;
    uint8_t *want = pm_test_slurp(path, &len);
    assert_non_null(want);
    while (len && (want[len - 1] == '\n' || want[len - 1] == '\r')) len--;
    for (int i = 0; i < 3; i++) {
        pm_job_info info;
        assert_int_equal(pm_engine_wait(e, ids[i], 300000, &info), PM_OK);
        if (info.state != PM_JOB_DONE) fail_msg("%s: job failed: %s", dir, info.error.msg);
        for (int p = 0; p < 4; p++) {
            json_error_t je;
            json_t *root = json_loads(info.proofs[p], 0, &je);
            assert_non_null(root);
            char *pj = json_dumps(json_object_get(root, "proof"), 0);
            groth16_proof_t proof;
            assert_int_equal(groth16_proof_from_json(&proof, pj, strlen(pj), "engine", &err), PM_OK);
            char *ours = groth16_proof_to_json(&proof);
            assert_int_equal(strlen(ours), len);
            assert_memory_equal(ours, want, len);
            free(ours);
            free(pj);
            json_decref(root);
        }
        printf("  %s job %d: gpu %.1f ms (lock wait %.1f), finalize %.1f ms\n", dir, i, info.t.gpu_ms,
               info.t.gpu_lock_wait_ms, info.t.finalize_ms);
        pm_job_info_free(&info);
    }
    pm_engine_status st;
    pm_engine_get_status(e, &st);
    assert_true(st.device_kernel_ms[0] > 0);
    assert_int_equal(st.verify_failures, 0);
    pm_engine_status_free(&st);
    free(want);
    pm_engine_destroy(e);
    be.destroy(be.self);
}

static void gpu_proofs_match_snarkjs_bytes(void **state) {
    (void)state;
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/tests/data/multiplier", pm_source_dir());
    check_fixture(dir);
    snprintf(dir, sizeof dir, "%s/tests/data/powchain", pm_source_dir());
    check_fixture(dir);
    const char *shared = pm_shared_fixtures();
    if (!shared) {
        printf("NOTE: ../shared/fixtures absent: GPU engine test on the repo fixtures only\n");
        return;
    }
    snprintf(dir, sizeof dir, "%s/bls12381/merkle_poseidon", shared);
    check_fixture(dir);
    snprintf(dir, sizeof dir, "%s/bls12381/sha256_64", shared);
    check_fixture(dir);
}

int main(void) {
    pm_backend be;
    pm_error err;
    pm_error_clear(&err);
    pm_kinds_backend_opts o = {.gpu = 1};
    if (pm_backend_kinds(&be, &o, &err) != PM_OK) {
        printf("SKIP: %s\n", err.msg);
        return 77;
    }
    be.destroy(be.self);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(gpu_proofs_match_snarkjs_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
