/*
 * test_kinds_toy.c — adding a proof kind is one folder and one registration line: the toy kind of
 * tests/kinds/toy/ (compiled into this test only) is served by the kind registry, the prove driver,
 * the engine's one backend and the daemon's HTTP API, none of which names it:
 *  - the registry finds every kind by name and alias and by input name;
 *  - the driver plans (key from the parameter directory, two partitions from two lines), loads the
 *    key (circuit recorded in memory, .vk beside the .params), proves and verifies both partitions
 *    from inline bytes and from a file, seeded proofs reproduce byte for byte, and the GPU table
 *    (when a device is there) gives the same bytes;
 *  - a false claim is refused by the kind's public inputs (mismatch) and a tampered witness (asked
 *    for by the kind's further input "tamper") by the constraint check, named by the kind ("toy:
 *    the cube"), before any proof is made; input names not the kind's, a further input given twice
 *    and a job without its main input are refused;
 *  - the engine proves a toy job (DONE, the kind's proof JSON) beside a failing one;
 *  - the daemon takes {"kind": "toy-cube", "toy_b64" | "toy": ..., "params_dir": ...} with the
 *    further input at the top level or in "inputs", the kind's default priority unless the body
 *    names one, and refuses an unknown kind and another kind's
 *    input field;
 *  - the CLI (`proofmill prove --kind toy-cube`, the command's objects linked with the toy as
 *    proofmill_toy) proves it by the driver and through the engine to the driver's bytes, and takes
 *    the further input as --input tamper=FILE.
 */
#include "test_util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "daemon_test_util.h"
#include "engine/backend_kinds.h"
#include "engine/engine.h"
#include "groth16/params.h"
#include "groth16/setup.h"
#include "kinds/kind.h"
#include "prove/prove.h"
#include "util/base64.h"
#include "util/outfile.h"
#include "toy/toy_params.h"

static char g_dir[256], g_params[512], g_input[512];
static const char *g_cli; /* the proofmill command linked with the toy (argv[1]), or NULL */
static const char g_text[] = "3 35\n5 135\n";

static void make_params(void) {
    pm_error err;
    if (pm_test_toy_params(g_params, 3, &err)) fail_msg("toy parameters: %s", err.msg);
}

static void registry(void **state) {
    (void)state;
    const pm_kind *k[16];
    size_t n = pm_kind_list(k, 16);
    assert_true(n >= 3);
    for (size_t i = 1; i < n && i < 16; i++) assert_true(strcmp(k[i - 1]->name, k[i]->name) < 0);
    assert_ptr_equal(pm_kind_find("porep"), pm_kind_find("porep-c2"));
    assert_non_null(pm_kind_find("snarkjs"));
    assert_null(pm_kind_find("plonk"));
    assert_ptr_equal(pm_kind_by_input_name("toy"), pm_kind_find("toy-cube"));
    assert_ptr_equal(pm_kind_by_input_name("c1"), pm_kind_find("porep-c2"));
    assert_ptr_equal(pm_kind_by_input_name("wtns"), pm_kind_find("snarkjs"));
    char names[512];
    printf("kinds: %s\n", pm_kind_names(names, sizeof names));
    assert_non_null(strstr(names, "toy-cube"));
    assert_non_null(strstr(names, "porep-c2 (alias porep)"));
    assert_non_null(strstr(names, "snapdeals (alias snap, sector-update)"));
}

/* prove the job of in through the driver with a loaded key; the proofs' bytes (n * 192) */
static pm_status prove_key(uint8_t *out, uint32_t *n, const pm_prove_key *key, const pm_input *in, size_t n_in,
                           const groth16_exec *x, pm_error *err) {
    const pm_kind *toy = pm_kind_find("toy-cube");
    void *job;
    pm_status st = pm_kind_open_job(toy, &job, in, n_in, err);
    if (st) return st;
    uint64_t seed = 9;
    pm_prove_opts o = {.exec = x, .finalize_threads = 1, .blinding = {.seed = &seed}};
    pm_prove_proof **pr = NULL;
    st = pm_prove_job(&pr, n, key, job, in, n_in, &o, NULL, err);
    for (uint32_t i = 0; !st && i < *n; i++) {
        pm_prove_proof_bytes(out + 192 * i, pr[i]);
        char *j = pm_prove_proof_json(pr[i]);
        assert_non_null(strstr(j, "\"partition\":"));
        free(j);
    }
    for (uint32_t i = 0; pr && i < *n; i++) pm_prove_proof_free(pr[i]);
    free(pr);
    toy->close_job(job);
    return st;
}

/* prove the job of in through the driver; returns the proofs' bytes (n * 192) */
static pm_status prove(uint8_t *out, uint32_t *n, const pm_input *in, size_t n_in, const groth16_exec *x,
                       pm_error *err) {
    const pm_kind *toy = pm_kind_find("toy-cube");
    pm_prove_plan plan;
    pm_status st = pm_prove_plan_job(&plan, toy, NULL, g_params, in, n_in, NULL, 1, 1, err);
    if (st) return st;
    assert_non_null(strstr(plan.key_path, "toy-cube.params"));
    assert_true(plan.key_bytes > 0 && plan.part_peak_bytes > 0 && plan.part_pending_bytes > 0);
    pm_prove_key *key;
    if ((st = pm_prove_key_load(&key, toy, plan.key_path, NULL, err))) return st;
    st = prove_key(out, n, key, in, n_in, x, err);
    pm_prove_key_free(key);
    assert_int_equal(plan.n_partitions, st ? plan.n_partitions : *n);
    return st;
}

static int fake_resident(const void *dev_state) { return dev_state != NULL; }

/* the toy key of the embedded request, planned (no device) and loaded; fails the test otherwise */
static pm_prove_key *toy_key(pm_prove_plan *plan, const pm_input *bytes) {
    pm_error err;
    const pm_kind *toy = pm_kind_find("toy-cube");
    if (pm_prove_plan_job(plan, toy, NULL, g_params, bytes, 1, NULL, 1, 1, &err)) fail_msg("plan: %s", err.msg);
    pm_prove_key *key;
    if (pm_prove_key_load(&key, toy, plan->key_path, NULL, &err)) fail_msg("load: %s", err.msg);
    return key;
}

/* The host bases of a key released once "resident" on every device (a stand-in device copy: the
 * GPU table's own is tested on the H200, tests/gpu): the key's host bytes (what the engine's
 * budget charges, backend key_bytes) drop by exactly the bases, a second device without a copy
 * keeps them, and a CPU start afterwards re-reads them and proves the same bytes. */
static void host_bases_release(void **state) {
    (void)state;
    pm_error err;
    pm_prove_plan plan;
    pm_input bytes = {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)g_text, .len = strlen(g_text)};
    pm_prove_key *key = toy_key(&plan, &bytes);
    uint8_t a[192 * 2], b[192 * 2];
    uint32_t na = 0, nb = 0;
    if (prove_key(a, &na, key, &bytes, 1, NULL, &err)) fail_msg("prove: %s", err.msg);
    pm_backend be;
    assert_int_equal(pm_backend_kinds(&be, NULL, &err), PM_OK);
    const uint64_t full = be.key_bytes(be.self, key);
    assert_int_equal(full, pm_prove_key_host_bytes(key));
    assert_true(key->bases_bytes > 0 && key->bases_bytes < full);
    /* nothing resident anywhere yet: kept */
    int devs[2] = {0, 1};
    assert_int_equal(pm_prove_key_release_host_bases(key, devs, 1), 0);
    key->view.dev[0] = (void *)&devs[0]; /* device 0 holds every base set (no dev_free: not ours) */
    key->view.dev_resident = fake_resident;
    assert_int_equal(pm_prove_key_release_host_bases(key, devs, 2), 0); /* device 1 has none */
    assert_int_equal(pm_prove_key_release_host_bases(key, devs, 1), 1);
    assert_int_equal(pm_prove_key_release_host_bases(key, devs, 1), 0); /* once */
    assert_null(key->view.base[GROTH16_BASE_H]);
    assert_null(key->view.b2);
    assert_int_equal(be.key_bytes(be.self, key), full - key->bases_bytes);
    printf("host bases released: %llu -> %llu bytes\n", (unsigned long long)full,
           (unsigned long long)be.key_bytes(be.self, key));
    groth16_exec gx = {.ops = &groth16_ops_cpu, .device = 0};
    assert_int_equal(pm_prove_exec_reads_host_bases(&gx, &key->view), 1); /* the CPU reads them */
    /* a CPU start re-reads them: the same seeded proofs, the same bytes charged again */
    if (prove_key(b, &nb, key, &bytes, 1, &gx, &err)) fail_msg("prove after release: %s", err.msg);
    assert_int_equal(nb, na);
    assert_memory_equal(a, b, sizeof a);
    assert_int_equal(key->bases_released, 0);
    assert_non_null(key->view.base[GROTH16_BASE_H]);
    assert_int_equal(be.key_bytes(be.self, key), full);
    key->view.dev[0] = NULL;
    be.destroy(be.self);
    pm_prove_key_free(key);
}

static void *domain_thread(void *arg) {
    const groth16_key *k = arg;
    const ntt_domain_t *d = NULL;
    pm_error e;
    return groth16_key_domain(k, &d, &e) == PM_OK ? (void *)d : NULL;
}

/* The bellperson view's CPU NTT domain is built on the first CPU H phase, not at load (8 GiB at a
 * 32 GiB key's m = 2^27, never read where H runs on the card). The key's host bytes (the engine's
 * charge) count it ahead while a CPU H may run, and leave it out once the key's device plan keeps H
 * on the card; built, its bytes go to the ledger. Threads racing to build it get one table. */
static void lazy_domain(void **state) {
    (void)state;
    pm_error err;
    pm_prove_plan plan;
    pm_input bytes = {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)g_text, .len = strlen(g_text)};
    pm_prove_key *key = toy_key(&plan, &bytes);
    const uint64_t dom = groth16_key_domain_bytes(key->view.domain);
    assert_true(dom > 0);
    assert_null(key->view.dom);
    assert_int_equal(key->view.ledger.host_domain, 0);
    const uint64_t ahead = pm_prove_key_host_bytes(key);
    assert_int_equal(ahead, key->resident_bytes + dom); /* no device plan: a CPU H will build it */
    /* a device plan that keeps H on the card: not counted */
    key->have_devplan = 1;
    key->devplan.h = GROTH16_ON_DEVICE;
    assert_int_equal(pm_prove_key_host_bytes(key), ahead - dom);
    key->devplan.h = GROTH16_ON_HOST;
    assert_int_equal(pm_prove_key_host_bytes(key), ahead);
    key->have_devplan = 0;
    /* four threads race to build it: one table */
    pthread_t t[4];
    void *got[4];
    for (int i = 0; i < 4; i++) assert_int_equal(pthread_create(&t[i], NULL, domain_thread, &key->view), 0);
    for (int i = 0; i < 4; i++) assert_int_equal(pthread_join(t[i], &got[i]), 0);
    for (int i = 0; i < 4; i++) assert_ptr_equal(got[i], &key->view.own_dom);
    assert_ptr_equal(key->view.dom, &key->view.own_dom);
    assert_int_equal(key->view.dom->n, key->view.domain);
    assert_int_equal(key->view.ledger.host_domain, dom);
    /* built: counted by the ledger, whatever the plan says, and a CPU proof uses it */
    assert_int_equal(pm_prove_key_host_bytes(key), ahead);
    key->have_devplan = 1;
    key->devplan.h = GROTH16_ON_DEVICE;
    assert_int_equal(pm_prove_key_host_bytes(key), ahead);
    key->have_devplan = 0;
    uint8_t a[192 * 2], b[192 * 2];
    uint32_t na = 0, nb = 0;
    if (prove_key(a, &na, key, &bytes, 1, NULL, &err)) fail_msg("prove: %s", err.msg);
    pm_prove_key_free(key);
    /* a fresh key proves the same bytes with the domain built inside its first proof */
    key = toy_key(&plan, &bytes);
    assert_null(key->view.dom);
    if (prove_key(b, &nb, key, &bytes, 1, NULL, &err)) fail_msg("prove: %s", err.msg);
    assert_non_null(key->view.dom);
    assert_int_equal(key->view.ledger.host_domain, dom);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, sizeof a);
    /* a start under defer_free (the engine's: the witness, a, b, c freed after its kernel region)
     * proves the same bytes; finalize frees what it left (ASan: no leak) */
    const groth16_exec dx = {.ops = &groth16_ops_cpu, .defer_free = 1};
    if (prove_key(b, &nb, key, &bytes, 1, &dx, &err)) fail_msg("prove (defer_free): %s", err.msg);
    assert_memory_equal(a, b, sizeof a);
    pm_prove_key_free(key);
    /* a zkey view made without a domain builds none: the CPU H phase's clear error */
    groth16_key z = {0};
    const ntt_domain_t *d = (const ntt_domain_t *)&z;
    assert_int_equal(groth16_key_domain(&z, &d, &err), PM_ERR_ARG);
    assert_null(d);
    assert_non_null(strstr(err.msg, "no NTT domain"));
}

/* The host-budget witness-slot rule (groth16/devplan.h host_budget) decided alike by the engine's
 * job plan (admission: pm_prove_plan_job_on, the .params header's counts) and by the loaded key's
 * plan (its device copies: pm_prove_key_plan): the same slots, tier and reason for a budget that holds
 * two slots, one that holds none, no budget, and a card whose memory alone forces tier 3 (one slot
 * for the card, not for the host: the key plan must stay tier 3). A stand-in device table (the CPU's
 * with the device-witness flag): the plans only, nothing runs. */
static void slots_job_vs_key(void **state) {
    (void)state;
    pm_error err;
    const pm_kind *toy = pm_kind_find("toy-cube");
    pm_input bytes = {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)g_text, .len = strlen(g_text)};
    groth16_ops dev = groth16_ops_cpu;
    dev.flags |= GROTH16_OPS_DEVICE_WITNESS_BELLPERSON;
    pm_prove_plan plan;
    pm_prove_key *key = toy_key(&plan, &bytes);
    groth16_devplan_card c = {.mem_total = 80ull << 30, .workers = 2, .devices = 1};
    snprintf(c.name, sizeof c.name, "a test card");
    const uint64_t budgets[4] = {0, 1ull << 50, 1, 0};
    for (int i = 0; i < 4; i++) {
        c.host_budget = budgets[i];
        if (i == 3) { /* the card's memory alone forces one slot: the smallest card planning tier <= 2, less a byte */
            c.host_budget = 1ull << 50;
            uint64_t lo = 1, hi = 64ull << 30;
            groth16_devplan_shape sh = key->devplan_shape;
            while (lo < hi) {
                const uint64_t mid = lo + (hi - lo) / 2;
                groth16_devplan_card t = c;
                t.mem_total = mid;
                groth16_devplan tp;
                pm_error e2;
                if (groth16_devplan_make(&tp, &sh, &t, 0, &e2) == PM_OK && tp.tier <= GROTH16_TIER_HOST_CIRCUIT) hi = mid;
                else lo = mid + 1;
            }
            c.mem_total = lo - 1;
        }
        pm_prove_plan jp;
        if (pm_prove_plan_job_on(&jp, toy, plan.key_path, NULL, &bytes, 1, &dev, &c, 1, 1, &err))
            fail_msg("job plan %d: %s", i, err.msg);
        assert_true(jp.have_devplan);
        if (pm_prove_key_plan(key, &c, &err)) fail_msg("key plan %d: %s", i, err.msg);
        assert_true(key->have_devplan);
        printf("budget %d: job plan tier %u, %u slot(s)%s; key plan tier %u, %u slot(s)%s\n", i, jp.devplan.tier,
               jp.devplan.witness_slots, jp.devplan.one_slot_for_host ? " (host)" : "", key->devplan.tier,
               key->devplan.witness_slots, key->devplan.one_slot_for_host ? " (host)" : "");
        assert_int_equal(key->devplan.witness_slots, jp.devplan.witness_slots);
        assert_int_equal(key->devplan.one_slot_for_host, jp.devplan.one_slot_for_host);
        assert_int_equal(key->devplan.tier, jp.devplan.tier);
        assert_int_equal(jp.devplan.witness_slots, i == 2 || i == 3 ? 1 : 2);
        assert_int_equal(jp.devplan.one_slot_for_host, i == 2);
        if (i == 3) assert_int_equal(jp.devplan.tier, GROTH16_TIER_ONE_SLOT);
    }
    pm_prove_key_free(key);
}

static void driver(void **state) {
    (void)state;
    pm_error err;
    pm_input bytes = {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)g_text, .len = strlen(g_text)};
    pm_input path = {.kind = PM_INPUT_PATH, .path = g_input};
    uint8_t a[192 * 2], b[192 * 2];
    uint32_t na = 0, nb = 0;
    if (prove(a, &na, &bytes, 1, NULL, &err)) fail_msg("prove: %s", err.msg);
    if (prove(b, &nb, &path, 1, NULL, &err)) fail_msg("prove: %s", err.msg);
    assert_int_equal(na, 2);
    assert_int_equal(nb, 2);
    assert_memory_equal(a, b, sizeof a); /* the same seeded proofs from bytes and from the file */
    const groth16_ops *gpu;
    if (groth16_ops_gpu(&gpu, &err) == PM_OK) {
        groth16_exec gx = {.ops = gpu, .device = 0, .threads = 1};
        if (prove(b, &nb, &bytes, 1, &gx, &err)) fail_msg("prove on the GPU: %s", err.msg);
        assert_memory_equal(a, b, sizeof a);
        printf("the GPU table proves the same bytes\n");
    } else {
        printf("no GPU table here (%s)\n", err.msg);
    }
    /* a false claim: the kind's public inputs refuse it */
    pm_input lie = {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)"3 36\n", .len = 5};
    assert_int_equal(prove(b, &nb, &lie, 1, NULL, &err), PM_ERR_MISMATCH);
    printf("false claim: %s\n", err.msg);
    assert_non_null(strstr(err.msg, "claimed y = 36"));
    /* a tampered witness (the further input "tamper" names partition 1): the constraint check,
     * named by the kind */
    pm_input bad[2] = {bytes, {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)"1", .len = 1, .name = "tamper"}};
    assert_int_equal(prove(b, &nb, bad, 2, NULL, &err), PM_ERR_UNSATISFIED);
    printf("tampered: %s: %s\n", err.file, err.msg);
    assert_non_null(strstr(err.msg, "partition 1"));
    assert_non_null(strstr(err.msg, "toy: the cube"));
    assert_string_equal(err.file, "inputs[0]"); /* the job's main input, not the further one */
    /* input names are the kind's: an unknown one, a further input twice, no main input */
    pm_input odd[3] = {bytes, {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)"1", .len = 1, .name = "salt"}, bad[1]};
    assert_int_equal(prove(b, &nb, odd, 2, NULL, &err), PM_ERR_ARG);
    printf("unknown input: %s\n", err.msg);
    assert_non_null(strstr(err.msg, "'salt' is not an input of kind toy-cube"));
    odd[1] = bad[1];
    assert_int_equal(prove(b, &nb, odd, 3, NULL, &err), PM_ERR_ARG);
    assert_non_null(strstr(err.msg, "given twice"));
    assert_int_equal(prove(b, &nb, &bad[1], 1, NULL, &err), PM_ERR_ARG);
}

static void engine_and_daemon(void **state) {
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
    pm_input bad[2] = {{.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)"2 15\n", .len = 5},
                       {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)"0", .len = 1, .name = "tamper"}};
    pm_job_spec spec = {.kind = "toy-cube", .params_dir = g_params, .priority = PM_PRIO_NORMAL, .inputs = &in, .n_inputs = 1};
    uint64_t id, idb;
    if (pm_engine_submit(e, &spec, &id, &err)) fail_msg("submit: %s", err.msg);
    spec.inputs = bad; /* the engine copies the further input's name too */
    spec.n_inputs = 2;
    assert_int_equal(pm_engine_submit(e, &spec, &idb, &err), PM_OK);
    pm_job_info info;
    assert_int_equal(pm_engine_wait(e, id, 60000, &info), PM_OK);
    if (info.state != PM_JOB_DONE) fail_msg("toy job: %s", info.error.msg);
    assert_int_equal(info.n_partitions, 2);
    assert_string_equal(info.kind, "toy-cube");
    assert_non_null(strstr(info.key_path, "toy-cube.params"));
    assert_non_null(strstr(info.proofs[1], "\"partition\":1"));
    pm_job_info_free(&info);
    assert_int_equal(pm_engine_wait(e, idb, 60000, &info), PM_OK);
    assert_int_equal(info.state, PM_JOB_FAILED);
    assert_int_equal(info.error.code, PM_ERR_UNSATISFIED);
    assert_non_null(strstr(info.error.msg, "toy: the cube"));
    pm_job_info_free(&info);
    pm_engine_destroy(e);
    be.destroy(be.self);

    /* the daemon routes by kind name: the toy's own input field, inline or by path */
    char base[300], body[2048];
    pm_daemon *d = pm_test_daemon_start(base, sizeof base, g_dir);
    char *b64 = pm_base64_encode_alloc((const uint8_t *)g_text, strlen(g_text));
    struct {
        const char *fmt;
        const char *arg;
        int status;
        const char *want;
    } cases[] = {
        {"{\"kind\":\"toy-cube\",\"toy_b64\":\"%s\",\"params_dir\":\"%s\"}", b64, 200, "\"priority\":\"high\""},
        {"{\"kind\":\"toy-cube\",\"inputs\":[{\"toy\":\"%s\"}],\"priority\":\"low\",\"params_dir\":\"%s\"}", g_input, 200,
         "\"partition\":1"},
        {"{\"kind\":\"cube\",\"toy\":\"%s\",\"params_dir\":\"%s\"}", g_input, 400, "bad-request"},
        {"{\"toy\":\"%s\",\"params_dir\":\"%s\",\"key\":\"k\"}", g_input, 400, "toy-cube"},
        {"{\"kind\":\"toy-cube\",\"toy\":\"%s\",\"key\":\"%s/x.zkey\"}", g_input, 400, "not a toy-cube.params"},
        /* the further input "tamper", at the top level and in "inputs", inline */
        {"{\"kind\":\"toy-cube\",\"toy\":\"%s\",\"tamper_b64\":\"MQ==\",\"params_dir\":\"%s\"}", g_input, 422,
         "toy: the cube"},
        {"{\"kind\":\"toy-cube\",\"inputs\":[{\"toy\":\"%s\"},{\"tamper_b64\":\"MA==\"}],\"params_dir\":\"%s\"}",
         g_input, 422, "partition 0"},
        {"{\"kind\":\"toy-cube\",\"tamper_b64\":\"%s\",\"params_dir\":\"%s\"}", "MA==", 400, "1..1 toy inputs"},
        {"{\"wtns\":\"%s\",\"tamper\":\"x\",\"key\":\"%s\"}", g_input, 400, "input of kind toy-cube"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(body, sizeof body, cases[i].fmt, cases[i].arg, g_params);
        char label[32];
        snprintf(label, sizeof label, "daemon %zu", i);
        pm_test_post_expect(base, "/v1/prove", body, 60, cases[i].status, cases[i].want, label);
    }
    free(b64);
    pm_daemon_stop(d);

    /* keys.preload without KIND: a key named as a kind names its keys is loaded as that kind (the
     * toy's DIR/toy-cube.params; Filecoin's v28-... files likewise), so evicting it as toy-cube works */
    pm_daemon_config dc;
    pm_test_daemon_config(&dc, g_dir);
    snprintf(dc.keys_preload, sizeof dc.keys_preload, "%s/toy-cube.params", g_params);
    d = pm_test_daemon_start_config(base, sizeof base, &dc);
    snprintf(body, sizeof body, "{\"key\":\"%s/toy-cube.params\",\"kind\":\"toy-cube\"}", g_params);
    pm_test_post_expect(base, "/v1/keys/evict", body, 10, 200, "evicted", "preloaded as toy-cube");
    pm_daemon_stop(d);
}

static int setup(void **state) {
    (void)state;
    if (pm_test_mkdtemp(g_dir, sizeof g_dir, "pm_kinds_toy")) return -1;
    snprintf(g_params, sizeof g_params, "%s/params", g_dir);
    snprintf(g_input, sizeof g_input, "%s/job.txt", g_dir);
    mkdir(g_params, 0755);
    pm_error err;
    if (pm_write_file(g_input, g_text, strlen(g_text), &err)) return -1;
    make_params();
    return 0;
}

static int teardown(void **state) {
    (void)state;
    return pm_test_rmtree(g_dir);
}

/* the CLI routes by kind name: `proofmill prove --kind toy-cube` (the same command linked with the
 * toy, proofmill_toy) proves the job, by the driver and through the engine, to the driver's bytes */
static void cli(void **state) {
    (void)state;
    if (!g_cli) skip();
    pm_error err;
    uint8_t want[192 * 2];
    uint32_t n = 0;
    pm_input path = {.kind = PM_INPUT_PATH, .path = g_input};
    if (prove(want, &n, &path, 1, NULL, &err)) fail_msg("prove: %s", err.msg);
    const char *modes[] = {"", "--engine"};
    char cmd[2048], out[600];
    for (int m = 0; m < 2; m++) {
        snprintf(out, sizeof out, "%s/cli%d.bin", g_dir, m);
        snprintf(cmd, sizeof cmd, "'%s' prove --kind toy-cube --params '%s' --out '%s' --seed 9 --threads 1 %s '%s'",
                 g_cli, g_params, out, modes[m], g_input);
        printf("%s\n", cmd);
        fflush(stdout);
        assert_int_equal(system(cmd), 0);
        size_t len = 0;
        uint8_t *got = pm_test_slurp(out, &len);
        assert_non_null(got);
        assert_int_equal(len, sizeof want);
        assert_memory_equal(got, want, sizeof want);
        free(got);
    }
    /* the further input from the command line */
    char tp[600];
    snprintf(tp, sizeof tp, "%s/tamper.txt", g_dir);
    assert_int_equal(pm_write_file(tp, "1\n", 2, &err), PM_OK);
    snprintf(cmd, sizeof cmd, "'%s' prove --kind toy-cube --params '%s' --out '%s/t.bin' --input tamper='%s' '%s' 2>&1 | "
             "grep -q 'partition 1: constraint 1 of 3 not satisfied (toy: the cube'", g_cli, g_params, g_dir, tp, g_input);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "'%s' prove --list | grep -q '^toy-cube .*further inputs: tamper'", g_cli);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "'%s' prove --kind cube --params '%s' --out '%s/x' '%s' 2>/dev/null", g_cli, g_params,
             g_dir, g_input);
    int rc = system(cmd);
    assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 2); /* usage: not a kind */
}

int main(int argc, char **argv) {
    g_cli = argc > 1 ? argv[1] : NULL;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(registry),
        cmocka_unit_test(driver),
        cmocka_unit_test(host_bases_release),
        cmocka_unit_test(lazy_domain),
        cmocka_unit_test(slots_job_vs_key),
        cmocka_unit_test(engine_and_daemon),
        cmocka_unit_test(cli),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
