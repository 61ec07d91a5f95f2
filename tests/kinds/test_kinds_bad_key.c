/*
 * test_kinds_bad_key.c — an inconsistent proving key is named as such, by its file, with one error
 * class (PM_ERR_KEY, HTTP 422 "key") for bellperson .params and snarkjs .zkey alike (issue #17
 * item 4; groth16/key_check.h):
 *  - the toy kind's .params with delta_2 negated (delta_1 kept): the driver, the engine and the
 *    daemon refuse the job with "the key is inconsistent: its proof does not verify with its own
 *    verification key (delta_1 and delta_2 are not the same scalar ...)" naming toy-cube.params —
 *    before, the driver said PM_ERR_INTERNAL "the proof does not verify" and the daemon 500;
 *  - the powchain .zkey with delta_2 negated in its header (zkey section 2, Montgomery y -> q - y):
 *    the daemon answers 422 "key" naming the zkey — before, 422 "unsatisfied" blaming the witness.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon_test_util.h"
#include "engine/backend_kinds.h"
#include "engine/engine.h"
#include "groth16/params.h"
#include "groth16/setup.h"
#include "kinds/kind.h"
#include "prove/prove.h"
#include "util/outfile.h"

static char g_dir[256], g_params[512], g_input[512], g_zkey[512];
static const char g_text[] = "3 35\n5 135\n";

/* the toy's parameters, with vk.delta_g2 (the proof's B and the verifier's delta) negated */
static void make_bad_params(void) {
    const pm_kind *toy = pm_kind_find("toy-cube");
    assert_non_null(toy);
    pm_error err;
    pm_circuit c;
    char key[600];
    snprintf(key, sizeof key, "%s/toy-cube.params", g_params);
    assert_int_equal(toy->circuit(&c, NULL, NULL, key, NULL, &err), PM_OK);
    groth16_toxic_t t;
    uint64_t seed = 3;
    bp_params_t p = {0};
    assert_int_equal(groth16_toxic_draw(&t, &seed, &err), PM_OK);
    assert_int_equal(groth16_setup_bellperson(&p, c.cs, &t, NULL, &err), PM_OK);
    g2_affine_neg(&p.vk.delta_g2, &p.vk.delta_g2);
    assert_int_equal(params_write(key, &p, &err), PM_OK);
    snprintf(key, sizeof key, "%s/toy-cube.vk", g_params);
    assert_int_equal(params_vk_write(key, &p.vk, &err), PM_OK);
    params_free(&p);
    pm_circuit_free(&c);
}

/* the powchain zkey with delta_2's y negated: y' = q - y on both Fq limbs (48-byte LE, q from the
 * header itself); delta_2 is the header's last point (FORMATS.md) */
static void make_bad_zkey(void) {
    char src[600];
    snprintf(src, sizeof src, "%s/tests/data/powchain/circuit.zkey", pm_source_dir());
    size_t n = 0;
    uint8_t *z = pm_test_slurp(src, &n);
    assert_non_null(z);
    uint32_t ns;
    memcpy(&ns, z + 8, 4);
    size_t off = 12, hdr = 0;
    for (uint32_t i = 0; i < ns && off + 12 <= n; i++) {
        uint32_t id;
        uint64_t size;
        memcpy(&id, z + off, 4);
        memcpy(&size, z + off + 4, 8);
        if (id == 2) hdr = off + 12;
        off += 12 + size;
    }
    assert_true(hdr > 0);
    const uint8_t *q = z + hdr + 4;
    size_t delta2 = hdr + 4 + 48 + 4 + 32 + 12 + 672;
    for (int c = 0; c < 2; c++) {
        uint8_t *y = z + delta2 + 96 + 48 * c;
        unsigned borrow = 0;
        for (int i = 0; i < 48; i++) {
            int d = (int)q[i] - (int)y[i] - (int)borrow;
            borrow = d < 0;
            y[i] = (uint8_t)(d + (borrow ? 256 : 0));
        }
    }
    pm_error err;
    assert_int_equal(pm_write_file(g_zkey, z, n, &err), PM_OK);
    free(z);
}

static void driver(void **state) {
    (void)state;
    const pm_kind *toy = pm_kind_find("toy-cube");
    pm_error err;
    pm_input in = {.kind = PM_INPUT_PATH, .path = g_input};
    pm_prove_plan plan;
    assert_int_equal(pm_prove_plan_job(&plan, toy, NULL, g_params, &in, 1, NULL, 1, 1, &err), PM_OK);
    pm_prove_key *key;
    assert_int_equal(pm_prove_key_load(&key, toy, plan.key_path, NULL, &err), PM_OK);
    void *job;
    assert_int_equal(pm_kind_open_job(toy, &job, &in, 1, &err), PM_OK);
    uint64_t seed = 9;
    pm_prove_opts o = {.finalize_threads = 1, .blinding = {.seed = &seed}};
    pm_prove_proof **pr = NULL;
    uint32_t np = 0;
    pm_status st = pm_prove_job(&pr, &np, key, job, &in, 1, &o, NULL, &err);
    printf("driver: %s: %s\n", err.file, err.msg);
    assert_int_equal(st, PM_ERR_KEY);
    assert_non_null(strstr(err.file, "toy-cube.params"));
    assert_non_null(strstr(err.msg, "the key is inconsistent: its proof does not verify with its own verification key"));
    assert_non_null(strstr(err.msg, "delta_1 and delta_2 are not the same scalar"));
    for (uint32_t i = 0; pr && i < np; i++) pm_prove_proof_free(pr[i]);
    free(pr);
    toy->close_job(job);
    pm_prove_key_free(key);
}

static void engine(void **state) {
    (void)state;
    pm_error err;
    pm_backend be;
    pm_kinds_backend_opts bo = {.start_threads = 1, .finalize_threads = 1};
    assert_int_equal(pm_backend_kinds(&be, &bo, &err), PM_OK);
    pm_engine_config cfg;
    pm_engine_config_default(&cfg);
    cfg.memory_budget = 1ull << 30;
    pm_engine *e;
    assert_int_equal(pm_engine_create(&e, &cfg, &be, &err), PM_OK);
    pm_input in = {.kind = PM_INPUT_PATH, .path = g_input};
    pm_job_spec spec = {.kind = "toy-cube", .params_dir = g_params, .priority = PM_PRIO_NORMAL, .inputs = &in, .n_inputs = 1};
    uint64_t id;
    assert_int_equal(pm_engine_submit(e, &spec, &id, &err), PM_OK);
    pm_job_info info;
    assert_int_equal(pm_engine_wait(e, id, 60000, &info), PM_OK);
    printf("engine: %s: %s\n", info.error.file, info.error.msg);
    assert_int_equal(info.state, PM_JOB_FAILED);
    assert_int_equal(info.error.code, PM_ERR_KEY);
    assert_non_null(strstr(info.error.file, "toy-cube.params"));
    assert_non_null(strstr(info.error.msg, "the key is inconsistent"));
    pm_job_info_free(&info);
    pm_engine_destroy(e);
    be.destroy(be.self);
}

static void daemon(void **state) {
    (void)state;
    char base[300], body[2048];
    pm_daemon *d = pm_test_daemon_start(base, sizeof base, g_dir);
    snprintf(body, sizeof body, "{\"kind\":\"toy-cube\",\"toy\":\"%s\",\"params_dir\":\"%s\"}", g_input, g_params);
    pm_test_post_expect(base, "/v1/prove", body, 60, 422, "\"code\":\"key\"", "params: 422 key");
    pm_test_post_expect(base, "/v1/prove", body, 60, 422, "toy-cube.params", "params: names the file");
    pm_test_post_expect(base, "/v1/prove", body, 60, 422, "the key is inconsistent", "params: says why");
    char wtns[600];
    snprintf(wtns, sizeof wtns, "%s/tests/data/powchain/witness.wtns", pm_source_dir());
    snprintf(body, sizeof body, "{\"key\":\"%s\",\"wtns\":\"%s\"}", g_zkey, wtns);
    pm_test_post_expect(base, "/v1/prove", body, 60, 422, "\"code\":\"key\"", "zkey: 422 key");
    pm_test_post_expect(base, "/v1/prove", body, 60, 422, "bad.zkey", "zkey: names the file");
    pm_test_post_expect(base, "/v1/prove", body, 60, 422, "delta_1 and delta_2", "zkey: pinpoints delta");
    pm_daemon_stop(d);
}

static int setup(void **state) {
    (void)state;
    if (pm_test_mkdtemp(g_dir, sizeof g_dir, "pm_bad_key")) return -1;
    snprintf(g_params, sizeof g_params, "%s/params", g_dir);
    snprintf(g_input, sizeof g_input, "%s/job.txt", g_dir);
    snprintf(g_zkey, sizeof g_zkey, "%s/bad.zkey", g_dir);
    mkdir(g_params, 0755);
    pm_error err;
    if (pm_write_file(g_input, g_text, strlen(g_text), &err)) return -1;
    make_bad_params();
    make_bad_zkey();
    return 0;
}

static int teardown(void **state) {
    (void)state;
    return pm_test_rmtree(g_dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(driver),
        cmocka_unit_test(engine),
        cmocka_unit_test(daemon),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
