/*
 * test_engine_porep.c — porep-c2 jobs through the engine's one backend (engine/backend_kinds.h).
 *
 * Fast (always): plan() on a sealed 2 KiB C1 against a stand-in parameter file (real vk layout,
 * generator points: counts only, no setup): one partition, sizes set; the key named by the kind
 * from a parameter directory (also under the alias "porep", also for the C1 inline); the further
 * inputs registered_proof / sector_size checked against the C1; the key of a sector size; a C1 whose
 * sector size is not the parameters' is refused (PM_ERR_MISMATCH), parameters with the wrong input
 * count too, missing parameters give PM_ERR_IO naming the path; two inputs, a key that is not a
 * .params, no key, an unknown kind: PM_ERR_ARG; a 32 GiB synthetic C1 plans 10 partitions; a job
 * naming no kind is the backend's default kind's; the daemon answers {"kind":"porep"}
 * submits with missing / mismatched parameters (422 io / mismatch; without params_dir the
 * daemon's filecoin.params_dir is used) and malformed bodies (400).
 * End to end (`--e2e`, ctest test_engine_porep_e2e, label slow, PROOFMILL_SLOW=1): real 2 KiB
 * parameters (PROOFMILL_POREP_PARAMS_DIR, or made once with seed 7 and cached in
 * PROOFMILL_POREP_CACHE), two sealed sectors proved through the embedded engine at 2 jobs in flight
 * (both DONE, the concatenated proofs valid with pm_porep_c2_verify and the .vk), and a C1 with one
 * changed label submitted beside a good one is refused alone at submit (PM_ERR_UNSATISFIED: the
 * vanilla verifier, before anything is queued) naming the C1, partition, challenge and field.
 */
#include "porep_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "circuits/csr_file.h"
#include "circuits/filecoin/porep_circuit.h"
#include "daemon_test_util.h"
#include "engine/backend_kinds.h"
#include "engine/engine.h"
#include "filecoin/c1_json.h"
#include "filecoin/param_names.h"
#include "filecoin/replica_id.h"
#include "filecoin/seal.h"
#include "filecoin/synth_c1.h"
#include "groth16/params.h"
#include "groth16/setup.h"
#include "kinds/filecoin/porep_c2/porep_c2.h"
#include "util/file.h"

static char g_dir[256];

static void write_c1(char *path, size_t cap, const fil_c1_t *c1, const char *name) {
    snprintf(path, cap, "%s/%s", g_dir, name);
    pm_error err;
    if (fil_c1_write_json_file(path, c1, &err)) fail_msg("write C1: %s", err.msg);
}

/* a stand-in .params with n_ic IC points (all generator points; one point per vector) */
static void fake_params(const char *dir, uint64_t sector_size, size_t n_ic) {
    mkdir(dir, 0755);
    bp_params_t p;
    memset(&p, 0, sizeof p);
    p.vk.alpha_g1 = p.vk.beta_g1 = p.vk.delta_g1 = G1_GENERATOR;
    p.vk.beta_g2 = p.vk.gamma_g2 = p.vk.delta_g2 = G2_GENERATOR;
    g1_affine_t *g = malloc(sizeof *g * n_ic);
    for (size_t i = 0; i < n_ic; i++) g[i] = G1_GENERATOR;
    g1_affine_t one = G1_GENERATOR;
    g2_affine_t two = G2_GENERATOR;
    p.vk.n_ic = n_ic, p.vk.ic = g;
    p.n_h = p.n_l = p.n_a = p.n_b_g1 = p.n_b_g2 = 1;
    p.h = p.l = p.a = p.b_g1 = &one;
    p.b_g2 = &two;
    char stem[256], path[1024];
    pm_error err;
    assert_int_equal(fil_porep_param_stem(stem, sizeof stem, sector_size, &err), PM_OK);
    snprintf(path, sizeof path, "%s/%s.params", dir, stem);
    if (params_write(path, &p, &err)) fail_msg("params_write: %s", err.msg);
    free(g);
}

static void key_of(char *out, size_t cap, const char *dir, uint64_t sector_size) {
    char stem[256];
    pm_error err;
    assert_int_equal(fil_porep_param_stem(stem, sizeof stem, sector_size, &err), PM_OK);
    snprintf(out, cap, "%s/%s.params", dir, stem);
}

/* plan() of the engine's one backend for a porep-c2 job */
static pm_status plan_of(pm_backend *be, const char *kind, const char *key, const char *params_dir,
                         const pm_input *in, size_t n_in, pm_job_plan *plan, pm_error *err) {
    pm_job_request rq = {.kind = kind, .key_path = key, .params_dir = params_dir, .inputs = in, .n_inputs = n_in};
    return be->plan(be->self, &rq, plan, err);
}

static void test_plan(void **st) {
    (void)st;
    pm_error err;
    pm_backend be, bp;
    assert_int_equal(pm_backend_kinds(&be, NULL, &err), PM_OK);
    fil_c1_t c1;
    pm_test_seal_c1(NULL, &c1, 1);
    char c1p[512], dir[512], key[1024], key8[1024];
    write_c1(c1p, sizeof c1p, &c1, "c1_2k.json");
    fil_c1_free(&c1);
    snprintf(dir, sizeof dir, "%s/params", g_dir);
    fake_params(dir, 2048, 40);
    key_of(key, sizeof key, dir, 2048);
    pm_input in = {.kind = PM_INPUT_PATH, .path = c1p};
    pm_job_plan plan;
    if (plan_of(&be, "porep-c2", key, NULL, &in, 1, &plan, &err)) fail_msg("plan: %s", err.msg);
    assert_int_equal(plan.n_partitions, 1);
    assert_true(plan.part_peak_bytes > 0 && plan.part_pending_bytes > 0 && plan.key_bytes > 0);
    assert_string_equal(plan.kind, "porep-c2");
    assert_string_equal(plan.key_path, key);

    /* the kind names the key from a parameter directory; "porep" is its alias */
    if (plan_of(&be, "porep", NULL, dir, &in, 1, &plan, &err)) fail_msg("plan params_dir: %s", err.msg);
    assert_string_equal(plan.kind, "porep-c2");
    assert_string_equal(plan.key_path, key);

    /* the C1 inline (the bytes gRPC / a base64 body carry) plans the same */
    char *bytes = NULL;
    size_t len = 0;
    assert_int_equal(pm_file_read_all(&bytes, &len, c1p, 0, 0, &err), PM_OK);
    pm_input inl = {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)bytes, .len = len};
    if (plan_of(&be, "porep-c2", NULL, dir, &inl, 1, &plan, &err)) fail_msg("plan inline: %s", err.msg);
    assert_int_equal(plan.n_partitions, 1);
    free(bytes);

    /* the further inputs registered_proof / sector_size (decimal; Curio's request fields) must be
     * the C1's: StackedDrg2KiBV1_1 = 5, 2048 bytes (0 = not given) */
    const struct {
        const char *rp, *size;
        pm_status want;
    } req[] = {{"5", "2048", PM_OK},          {"5", "0", PM_OK},        {NULL, " 2048\n", PM_OK},
               {"8", NULL, PM_ERR_MISMATCH},  {"0", NULL, PM_ERR_MISMATCH}, {NULL, "8388608", PM_ERR_MISMATCH},
               {"20", NULL, PM_ERR_ARG},      {"5x", NULL, PM_ERR_FORMAT}, {NULL, "-1", PM_ERR_FORMAT}};
    for (size_t i = 0; i < sizeof req / sizeof req[0]; i++) {
        pm_input ri[3] = {in};
        size_t n = 1;
        if (req[i].rp)
            ri[n++] = (pm_input){.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)req[i].rp, .len = strlen(req[i].rp),
                                 .name = "registered_proof"};
        if (req[i].size)
            ri[n++] = (pm_input){.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)req[i].size,
                                 .len = strlen(req[i].size), .name = "sector_size"};
        pm_error_clear(&err);
        pm_status got = plan_of(&be, "porep-c2", NULL, dir, ri, n, &plan, &err);
        printf("registered_proof %s sector_size %s: %s %s\n", req[i].rp ? req[i].rp : "-",
               req[i].size ? req[i].size : "-", pm_status_name(got), err.msg);
        assert_int_equal(got, req[i].want);
    }

    /* the key of a sector size without a C1 (PreloadSRS "porep-2k"); an unsupported size refused */
    const pm_kind *pk = pm_kind_find("porep-c2");
    char ks[1024];
    assert_int_equal(pk->key_for_size(ks, sizeof ks, dir, 2048, &err), PM_OK);
    assert_string_equal(ks, key);
    assert_int_equal(pk->key_for_size(ks, sizeof ks, dir, 3000, &err), PM_ERR_ARG);

    /* parameters of another sector size: refused, both sizes named */
    fake_params(dir, 8ull << 20, 40);
    key_of(key8, sizeof key8, dir, 8ull << 20);
    assert_int_equal(plan_of(&be, "porep-c2", key8, NULL, &in, 1, &plan, &err), PM_ERR_MISMATCH);
    printf("other size: %s\n", err.msg);
    assert_non_null(strstr(err.msg, "2048"));

    /* wrong input count in the parameters */
    char dirb[512], keyb[1024];
    snprintf(dirb, sizeof dirb, "%s/params_bad", g_dir);
    fake_params(dirb, 2048, 41);
    key_of(keyb, sizeof keyb, dirb, 2048);
    assert_int_equal(plan_of(&be, "porep-c2", keyb, NULL, &in, 1, &plan, &err), PM_ERR_MISMATCH);
    printf("bad counts: %s\n", err.msg);

    /* missing parameters: a clear I/O error naming the file */
    char dirm[512], keym[1024];
    snprintf(dirm, sizeof dirm, "%s/no_such_dir", g_dir);
    key_of(keym, sizeof keym, dirm, 2048);
    assert_int_equal(plan_of(&be, "porep-c2", keym, NULL, &in, 1, &plan, &err), PM_ERR_IO);
    printf("missing: %s\n", err.msg);
    assert_non_null(strstr(err.msg, "no_such_dir") ? strstr(err.msg, "no_such_dir") : strstr(err.file, "no_such_dir"));

    /* missing C1, two inputs, a key that is not a .params, no key at all, an unknown kind */
    pm_input bad = {.kind = PM_INPUT_PATH, .path = "/nonexistent/c1.json"};
    assert_int_equal(plan_of(&be, "porep-c2", key, NULL, &bad, 1, &plan, &err), PM_ERR_IO);
    pm_input two[2] = {in, in};
    assert_int_equal(plan_of(&be, "porep-c2", key, NULL, two, 2, &plan, &err), PM_ERR_ARG);
    assert_int_equal(plan_of(&be, "porep-c2", c1p, NULL, &in, 1, &plan, &err), PM_ERR_ARG);
    assert_int_equal(plan_of(&be, "porep-c2", NULL, NULL, &in, 1, &plan, &err), PM_ERR_ARG);
    assert_int_equal(plan_of(&be, "plonk", key, NULL, &in, 1, &plan, &err), PM_ERR_ARG);
    printf("unknown kind: %s\n", err.msg);

    /* 32 GiB: a synthetic C1 plans 10 partitions (328 inputs with ONE) */
    fil_synth_params_t sp;
    memset(&sp, 0, sizeof sp);
    sp.registered_proof = 8; /* StackedDrg32GiBV1_1 */
    sp.sector_id = 3;
    fil_c1_t big;
    if (fil_synth_c1(&big, &sp, &err)) fail_msg("synth C1: %s", err.msg);
    assert_int_equal(big.sector_size, 32ull << 30);
    char bigp[512], key32[1024];
    write_c1(bigp, sizeof bigp, &big, "c1_32g.json");
    fil_c1_free(&big);
    fake_params(dir, 32ull << 30, 328);
    key_of(key32, sizeof key32, dir, 32ull << 30);
    pm_input inb = {.kind = PM_INPUT_PATH, .path = bigp};
    if (plan_of(&be, "porep-c2", key32, NULL, &inb, 1, &plan, &err)) fail_msg("plan 32 GiB: %s", err.msg);
    assert_int_equal(plan.n_partitions, 10);

    /* routing is by kind, never by file name: a backend whose default kind is porep-c2 plans a job
     * that names none; the snarkjs default does not take a .params for a zkey */
    pm_kinds_backend_opts o = {.default_kind = "porep-c2"};
    assert_int_equal(pm_backend_kinds(&bp, &o, &err), PM_OK);
    if (plan_of(&bp, NULL, key, NULL, &in, 1, &plan, &err)) fail_msg("default-kind plan: %s", err.msg);
    assert_int_equal(plan.n_partitions, 1);
    assert_string_equal(plan.kind, "porep-c2");
    assert_int_not_equal(plan_of(&be, NULL, key, NULL, &in, 1, &plan, &err), PM_OK);
    bp.destroy(bp.self);
    be.destroy(be.self);
    unlink(bigp);

    /* the daemon's {"kind":"porep"} submit: refusals answered before anything is queued */
    pm_daemon_config dc;
    pm_test_daemon_config(&dc, g_dir);
    snprintf(dc.params_dir, sizeof dc.params_dir, "%.200s/no_such_dir", g_dir); /* the daemon-level directory */
    char base[300], body[2048];
    pm_daemon *d = pm_test_daemon_start_config(base, sizeof base, &dc);
    struct {
        const char *fmt_dir; /* params_dir, or NULL: a body given below */
        const char *body;
        int status;
        const char *code;
    } cases[] = {
        {"no_such_dir", NULL, 422, "\"io\""},         /* missing parameters */
        {"params_bad", NULL, 422, "\"mismatch\""},    /* wrong input count */
        {NULL, "{\"kind\":\"porep\",\"c1\":\"%s\"}", 422, "no_such_dir"},                 /* filecoin.params_dir */
        {NULL, "{\"kind\":\"porep\",\"c1\":\"%s\",\"c1_b64\":\"e30=\"}", 400, "bad-request"}, /* both */
        {NULL, "{\"c1\":\"%s\",\"params_dir\":\"/tmp\",\"key\":\"k\"}", 400, "bad-request"}, /* no kind */
        {NULL, "{\"kind\":\"plonk\",\"c1\":\"%s\"}", 400, "bad-request"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].fmt_dir)
            snprintf(body, sizeof body, "{\"kind\":\"porep\",\"c1\":\"%s\",\"params_dir\":\"%s/%s\"}", c1p, g_dir,
                     cases[i].fmt_dir);
        else
            snprintf(body, sizeof body, cases[i].body, c1p);
        char label[32];
        snprintf(label, sizeof label, "daemon %zu", i);
        pm_test_post_expect(base, "/v1/jobs", body, 30, cases[i].status, cases[i].code, label);
    }
    pm_daemon_stop(d);
}

/* ---------------------------------------------------------------- end to end (slow) */

static void ensure_params(char *dir, size_t cap) {
    const char *given = getenv("PROOFMILL_POREP_PARAMS_DIR");
    if (given) {
        snprintf(dir, cap, "%s", given);
        return;
    }
    const char *cache = getenv("PROOFMILL_POREP_CACHE");
    snprintf(dir, cap, "%s", cache ? cache : "porep-2k-params");
    char key[1024], vk[1024], csr[1024];
    key_of(key, sizeof key, dir, 2048);
    snprintf(vk, sizeof vk, "%.*s.vk", (int)(strlen(key) - 7), key);
    snprintf(csr, sizeof csr, "%.*s.csr", (int)(strlen(key) - 7), key);
    if (access(key, R_OK) == 0 && access(vk, R_OK) == 0) {
        printf("cached 2 KiB parameters: %s\n", dir);
        return;
    }
    printf("making 2 KiB parameters (seed 7) in %s: minutes on 2 cores\n", dir);
    mkdir(dir, 0755);
    pm_error err;
    r1cs_t cs = {0};
    uint32_t nin;
    bp_params_t p = {0};
    pm_test_porep_setup_2k(&p, &cs, &nin, 7, NULL);
    if (pm_csr_save(csr, &cs, nin, 2048, &err) || params_write(key, &p, &err) || params_vk_write(vk, &p.vk, &err))
        fail_msg("params: %s", err.msg);
    params_free(&p);
    r1cs_free(&cs);
}

static int hexval(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

/* the C2 proof from a done job's partition JSONs (hex, partition order) */
static void proof_bytes(uint8_t *out, const pm_job_info *info) {
    for (uint32_t k = 0; k < info->n_partitions; k++) {
        const char *h = strstr(info->proofs[k], "\"proof\":\"");
        assert_non_null(h);
        h += 9;
        for (int i = 0; i < 192; i++) out[192 * k + i] = (uint8_t)(hexval(h[2 * i]) << 4 | hexval(h[2 * i + 1]));
    }
}

static void test_e2e(void **st) {
    (void)st;
    char dir[512];
    ensure_params(dir, sizeof dir);
    pm_error err;
    fil_c1_t a, b, bad;
    pm_test_seal_c1(NULL, &a, 1);
    pm_test_seal_c1(NULL, &b, 2);
    pm_test_seal_c1(NULL, &bad, 1);
    fil_c1_proof(&bad, 0, 1)->exp[3].rows[1][5] ^= 0x10; /* one changed label */
    char pa[512], pb[512], pbad[512];
    write_c1(pa, sizeof pa, &a, "e2e_a.json");
    write_c1(pb, sizeof pb, &b, "e2e_b.json");
    write_c1(pbad, sizeof pbad, &bad, "e2e_bad.json");
    fil_c1_free(&bad);

    pm_backend be;
    assert_int_equal(pm_backend_kinds(&be, NULL, &err), PM_OK);
    pm_engine_config cfg;
    pm_engine_config_default(&cfg);
    cfg.synth_workers = 2; /* j = 2: two jobs in flight */
    cfg.finalize_threads = 2;
    pm_engine *e;
    assert_int_equal(pm_engine_create(&e, &cfg, &be, &err), PM_OK);
    const char *paths[3] = {pa, pb, pbad};
    uint64_t ids[3];
    for (int i = 0; i < 3; i++) {
        pm_input in = {.kind = PM_INPUT_PATH, .path = paths[i]};
        pm_job_spec spec = {.kind = "porep-c2", .params_dir = dir, .priority = PM_PRIO_NORMAL, .inputs = &in,
                            .n_inputs = 1};
        pm_status sst = pm_engine_submit(e, &spec, &ids[i], &err);
        if (i < 2 && sst) fail_msg("submit: %s", err.msg);
        if (i == 2) { /* the changed label: refused at submit by the vanilla verifier (issue #17) */
            printf("changed label at submit: %s: %s\n", err.file, err.msg);
            assert_int_equal(sst, PM_ERR_UNSATISFIED);
            assert_non_null(strstr(err.msg, "vanilla proofs do not verify"));
            assert_non_null(strstr(err.msg, "challenge 1"));
            assert_string_equal(err.file, pbad);
        }
    }
    bp_vk_t vk = {0};
    char vkp[1024];
    key_of(vkp, sizeof vkp, dir, 2048);
    strcpy(vkp + strlen(vkp) - 7, ".vk");
    assert_int_equal(params_vk_read(&vk, vkp, 0, &err), PM_OK);
    pm_porep_shape s;
    assert_int_equal(pm_porep_shape_for_size(&s, 2048, &err), PM_OK);
    fil_c1_t *c1s[2] = {&a, &b};
    for (int i = 0; i < 2; i++) {
        pm_job_info info;
        assert_int_equal(pm_engine_wait(e, ids[i], -1, &info), PM_OK);
        printf("job %d: %s (synth %.0f ms, gpu %.0f ms, finalize %.0f ms, verify %.0f ms, total %.0f ms) %s\n", i,
               pm_job_state_name(info.state), info.t.synth_ms, info.t.gpu_ms, info.t.finalize_ms, info.t.verify_ms,
               info.t.total_ms, info.error.msg);
        if (i < 2) {
            assert_int_equal(info.state, PM_JOB_DONE);
            assert_int_equal(info.n_partitions, 1);
            uint8_t proof[192];
            proof_bytes(proof, &info);
            int valid = 0;
            assert_int_equal(pm_porep_c2_verify(&valid, proof, 1, c1s[i], &s, &vk, &err), PM_OK);
            assert_int_equal(valid, 1);
            assert_int_equal(pm_porep_c2_verify(&valid, proof, 1, c1s[1 - i], &s, &vk, &err), PM_OK);
            assert_int_equal(valid, 0); /* not a proof of the other sector */
        }
        pm_job_info_free(&info);
    }
    pm_engine_destroy(e);
    be.destroy(be.self);
    params_vk_free(&vk);
    fil_c1_free(&a);
    fil_c1_free(&b);
}

static int setup_dir(void **st) {
    (void)st;
    return pm_test_mkdtemp(g_dir, sizeof g_dir, "pm_engine_porep");
}

static int teardown_dir(void **st) {
    (void)st;
    return pm_test_rmtree(g_dir);
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "--e2e")) {
        const char *slow = getenv("PROOFMILL_SLOW");
        if (!slow || strcmp(slow, "1")) {
            printf("skipped: set PROOFMILL_SLOW=1 (2 KiB parameters + 3 C2 jobs through the engine)\n");
            return 77;
        }
        const struct CMUnitTest tests[] = {cmocka_unit_test(test_e2e)};
        return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_plan)};
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
