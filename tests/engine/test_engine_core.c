/* Engine core against the TEST DOUBLE backend (tests/common/engine_double.h): pipeline, ordering by
 * priority, cancel, failure isolation, verification failures, memory budget, device interlock, SRS
 * cache, trace. Every test runs in well under a second of sleeps. */
#include "test_util.h"

#include <jansson.h>
#include <inttypes.h>
#include <pthread.h>

#include "engine/engine.h"
#include "engine_double.h"
#include "prove/prove.h"
#include "util/clock.h"

static td_state *td_new(void) {
    td_state *s = calloc(1, sizeof *s);
    s->synth_ms = 5;
    s->gpu_pre_ms = 2;
    s->kernel_ms = 4;
    s->gpu_post_ms = 2;
    s->fin_ms = 2;
    s->load_ms = 10;
    s->part_peak = 1 << 20;
    s->part_pending = 1 << 16;
    s->key_bytes = 4 << 20;
    return s;
}

static pm_engine *engine_new(td_state *s, pm_backend *b, void (*tweak)(pm_engine_config *)) {
    *b = td_backend(s);
    pm_engine_config cfg;
    pm_engine_config_default(&cfg);
    cfg.memory_budget = 1ull << 30;
    cfg.trace = 1;
    if (tweak) tweak(&cfg);
    pm_engine *e = NULL;
    pm_error err;
    pm_error_clear(&err);
    assert_int_equal(pm_engine_create(&e, &cfg, b, &err), PM_OK);
    return e;
}

static uint64_t submit(pm_engine *e, const char *key, pm_priority prio, const char **kinds, size_t n) {
    pm_input in[64];
    for (size_t i = 0; i < n; i++)
        in[i] = (pm_input){.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)kinds[i],
                           .len = strlen(kinds[i])};
    pm_job_spec spec = {.key_path = key, .priority = prio, .inputs = in, .n_inputs = n};
    uint64_t id = 0;
    pm_error err;
    pm_error_clear(&err);
    pm_status st = pm_engine_submit(e, &spec, &id, &err);
    if (st != PM_OK) fail_msg("submit: %s", err.msg);
    return id;
}

static pm_job_state wait_state(pm_engine *e, uint64_t id, pm_job_info *info) {
    assert_int_equal(pm_engine_wait(e, id, 20000, info), PM_OK);
    return info->state;
}

/* one job of two "ok" partitions on key td:a, proved */
static void prove_two_ok(pm_engine *e) {
    const char *k[2] = {"ok", "ok"};
    uint64_t id = submit(e, "td:a", PM_PRIO_NORMAL, k, 2);
    pm_job_info info;
    assert_int_equal(wait_state(e, id, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
}

static void pipeline_proves_partitions_in_order(void **state) {
    (void)state;
    td_state *s = td_new();
    pm_backend b;
    pm_engine *e = engine_new(s, &b, NULL);
    const char *k[5] = {"ok", "ok", "ok", "ok", "ok"};
    uint64_t id = submit(e, "td:a", PM_PRIO_NORMAL, k, 5);
    pm_job_info info;
    assert_int_equal(wait_state(e, id, &info), PM_JOB_DONE);
    assert_int_equal(info.n_partitions, 5);
    assert_non_null(info.proofs);
    for (unsigned p = 0; p < 5; p++) {
        char want[32];
        snprintf(want, sizeof want, "{\"part\":%u,", p);
        assert_non_null(strstr(info.proofs[p], want));
    }
    assert_true(info.t.synth_ms >= 5 * 4.0);
    assert_true(info.t.gpu_ms >= 5 * 7.0);
    assert_true(info.t.total_ms >= info.t.queue_ms);
    assert_true(info.t.srs_load_ms >= 9.0);
    pm_job_info_free(&info);
    pm_engine_destroy(e);
    assert_int_equal(atomic_load(&s->live_bytes), 0);
    free(s);
}

/* Two workers per device overlap their host parts but never both sit in the kernel region. */
static void two_devices(pm_engine_config *c) {
    c->n_devices = 2;
    c->devices[0] = 0;
    c->devices[1] = 1;
    c->workers_per_device = 2;
    c->synth_workers = 4;
}

/* The first partition waits at the gate inside its device's kernel region until the host parts are
 * seen overlapping: its device's other worker then waits for the lock (in gpu_start) beside a worker
 * of the other device (before, the overlap had to happen by itself, between sleeps). */
static void device_interlock_is_exclusive(void **state) {
    (void)state;
    td_state *s = td_new();
    s->synth_ms = 1;
    s->gpu_pre_ms = 10;
    s->gpu_post_ms = 10;
    s->kernel_ms = 5;
    pm_backend b;
    pm_engine *e = engine_new(s, &b, two_devices);
    const char *k[16];
    for (int i = 0; i < 16; i++) k[i] = "ok";
    k[0] = "holdkernel";
    atomic_store(&s->gate_closed, 1);
    uint64_t id = submit(e, "td:a", PM_PRIO_NORMAL, k, 16);
    assert_true(td_wait_held(s, 1));
    for (int i = 0; i < 60000 && atomic_load(&s->max_in_gpu) < 3; i++) td_sleep_ms(1);
    atomic_store(&s->gate_closed, 0);
    pm_job_info info;
    assert_int_equal(wait_state(e, id, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    assert_int_equal(atomic_load(&s->max_inside[0]), 1);
    assert_int_equal(atomic_load(&s->max_inside[1]), 1);
    assert_true(atomic_load(&s->max_in_gpu) >= 3); /* host parts overlapped */
    pm_engine_status st;
    pm_engine_get_status(e, &st);
    assert_int_equal(st.gpu_total, 4);
    assert_true(st.device_kernel_ms[0] > 0 && st.device_kernel_ms[1] > 0);
    pm_engine_status_free(&st);
    pm_engine_destroy(e);
    free(s);
}

typedef struct {
    pthread_mutex_t mu;
    uint64_t order[128];
    int n;
} done_log;

static void log_done(void *arg, uint64_t id, pm_job_state st) {
    done_log *l = arg;
    pthread_mutex_lock(&l->mu);
    if (l->n < 128) l->order[l->n++] = id;
    pthread_mutex_unlock(&l->mu);
}

static done_log g_log = {.mu = PTHREAD_MUTEX_INITIALIZER};
static void one_worker_logged(pm_engine_config *c) {
    c->synth_workers = 1;
    c->workers_per_device = 1;
    c->urgent_lane = 0; /* no second GPU worker for critical partitions: the gate job and the critical
                           one would otherwise pass the GPU stage side by side, in either order */
    c->on_complete = log_done;
    c->on_complete_arg = &g_log;
}

/* One worker per stage (one synthesis worker, one GPU worker, one finalizer): each takes the best
 * partition in (priority, submit order), so jobs that all wait together end in exactly that order.
 * They wait behind a gate job that holds the one synthesis worker until every job is submitted
 * (before, a thread descheduled between the submits let the first low jobs end first). */
static void higher_priority_finishes_first(void **state) {
    (void)state;
    td_state *s = td_new();
    pm_backend b;
    g_log.n = 0;
    pm_engine *e = engine_new(s, &b, one_worker_logged);
    atomic_store(&s->gate_closed, 1);
    const char *h[1] = {"hold"};
    uint64_t gate = submit(e, "td:a", PM_PRIO_CRITICAL, h, 1);
    assert_true(td_wait_held(s, 1));
    const char *k[2] = {"ok", "ok"};
    uint64_t low[6];
    for (int i = 0; i < 6; i++) low[i] = submit(e, "td:a", PM_PRIO_LOW, k, 2);
    uint64_t normal = submit(e, "td:a", PM_PRIO_NORMAL, k, 2);
    uint64_t crit = submit(e, "td:a", PM_PRIO_CRITICAL, k, 2);
    atomic_store(&s->gate_closed, 0);
    pm_job_info info;
    for (int i = 0; i < 6; i++) {
        assert_int_equal(wait_state(e, low[i], &info), PM_JOB_DONE);
        pm_job_info_free(&info);
    }
    for (int tries = 0; tries < 4000; tries++) { /* notes reach on_complete asynchronously */
        pthread_mutex_lock(&g_log.mu);
        int n = g_log.n;
        pthread_mutex_unlock(&g_log.mu);
        if (n == 9) break;
        td_sleep_ms(5);
    }
    pthread_mutex_lock(&g_log.mu);
    assert_int_equal(g_log.n, 9);
    /* the gate job (critical, first), the critical one, the normal one, the lows in submit order */
    const uint64_t want[9] = {gate, crit, normal, low[0], low[1], low[2], low[3], low[4], low[5]};
    for (int i = 0; i < 9; i++) {
        if (g_log.order[i] != want[i]) printf("completion %d: job %" PRIu64 ", want %" PRIu64 "\n", i, g_log.order[i], want[i]);
        assert_true(g_log.order[i] == want[i]);
    }
    pthread_mutex_unlock(&g_log.mu);
    pm_engine_destroy(e);
    free(s);
}

static void one_worker(pm_engine_config *c) {
    c->synth_workers = 1;
    c->workers_per_device = 1;
}

/* The running job's first partition waits at the gate inside synthesis while both are cancelled: the
 * running job cannot end before its cancel (before, a 40 ms sleep against 480 ms of work), and it
 * ends at that partition's stage boundary once the gate opens. */
static void cancel_queued_and_running(void **state) {
    (void)state;
    td_state *s = td_new();
    pm_backend b;
    pm_engine *e = engine_new(s, &b, one_worker);
    const char *k[24];
    for (int i = 0; i < 24; i++) k[i] = "ok";
    atomic_store(&s->gate_closed, 1);
    k[0] = "hold";
    uint64_t running = submit(e, "td:a", PM_PRIO_NORMAL, k, 24);
    k[0] = "ok";
    uint64_t queued = submit(e, "td:a", PM_PRIO_NORMAL, k, 24);
    uint64_t after = submit(e, "td:a", PM_PRIO_NORMAL, k, 1);
    assert_true(td_wait_held(s, 1)); /* a partition of the running job inside a stage */
    pm_job_state st;
    assert_int_equal(pm_engine_cancel(e, queued, &st), PM_OK);
    assert_int_equal(st, PM_JOB_CANCELLED); /* nothing of it inside a stage: removed at once */
    assert_int_equal(pm_engine_cancel(e, running, &st), PM_OK);
    assert_int_equal(st, PM_JOB_RUNNING); /* until its partition reaches the stage boundary */
    assert_int_equal(pm_engine_cancel(e, 999999, &st), PM_ERR_ARG);
    atomic_store(&s->gate_closed, 0);
    pm_job_info info;
    assert_int_equal(wait_state(e, running, &info), PM_JOB_CANCELLED);
    assert_int_equal(info.error.code, PM_ERR_CANCELLED);
    assert_int_equal(info.partitions_done, 0);
    pm_job_info_free(&info);
    assert_int_equal(wait_state(e, queued, &info), PM_JOB_CANCELLED);
    pm_job_info_free(&info);
    assert_int_equal(wait_state(e, after, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    pm_engine_status es;
    pm_engine_get_status(e, &es);
    assert_int_equal(es.cancelled, 2);
    assert_int_equal(es.reserved_bytes, s->key_bytes); /* only the cached key remains charged */
    pm_engine_status_free(&es);
    pm_engine_destroy(e);
    assert_int_equal(atomic_load(&s->live_bytes), 0);
    free(s);
}

/* pm_engine_status per kind (queued / running from the engine's own jobs) and per device (the job
 * in its kernel region or staged by its worker) */
static void status_per_kind_and_device(void **state) {
    (void)state;
    td_state *s = td_new();
    pm_backend b;
    pm_engine *e = engine_new(s, &b, one_worker);
    uint64_t ids[3];
    const char *kinds[3] = {"beta", "alpha", "beta"};
    /* the first job's first partition waits at the gate in the kernel region of the one device's one
     * worker: nothing ends, and the device is busy with it, while the status is read */
    atomic_store(&s->gate_closed, 1);
    for (int i = 0; i < 3; i++) {
        pm_input in[8];
        for (int p = 0; p < 8; p++) in[p] = (pm_input){.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)"ok", .len = 2};
        if (i == 0) in[0] = (pm_input){.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)"holdkernel", .len = 10};
        pm_job_spec spec = {.kind = kinds[i], .key_path = "td:a", .priority = PM_PRIO_NORMAL, .inputs = in,
                            .n_inputs = 8};
        pm_error err;
        assert_int_equal(pm_engine_submit(e, &spec, &ids[i], &err), PM_OK);
    }
    assert_true(td_wait_held(s, 1));
    pm_engine_status es;
    pm_engine_get_status(e, &es);
    assert_int_equal(es.n_kinds, 2);
    assert_string_equal(es.kinds[0].kind, "alpha"); /* name order */
    assert_string_equal(es.kinds[1].kind, "beta");
    assert_int_equal(es.kinds[0].queued + es.kinds[0].running, 1);
    assert_int_equal(es.kinds[1].queued + es.kinds[1].running, 2);
    unsigned queued = 0;
    for (int p = 0; p < PM_PRIO_COUNT; p++) queued += es.queued[p];
    assert_int_equal(es.kinds[0].queued + es.kinds[1].queued, queued);
    assert_int_equal(es.kinds[0].running + es.kinds[1].running, es.running);
    pm_engine_status_free(&es);
    assert_null(es.kinds);
    /* the device busy with the held partition: its job, named with its kind, and the partition */
    pm_engine_get_status(e, &es);
    assert_int_equal(es.n_devices, 1);
    assert_true(es.device_job[0] == ids[0]);
    assert_string_equal(es.device_kind[0], kinds[0]);
    assert_int_equal(es.device_partition[0], 0);
    pm_engine_status_free(&es);
    atomic_store(&s->gate_closed, 0);
    pm_job_info info;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(wait_state(e, ids[i], &info), PM_JOB_DONE);
        assert_string_equal(info.kind, kinds[i]);
        pm_job_info_free(&info);
    }
    pm_engine_get_status(e, &es);
    assert_int_equal(es.n_kinds, 0); /* nothing in flight */
    for (unsigned d = 0; d < es.n_devices; d++) assert_true(es.device_job[d] == 0);
    pm_engine_status_free(&es);
    pm_engine_destroy(e);
    free(s);
}

static void bad_input_fails_alone(void **state) {
    (void)state;
    td_state *s = td_new();
    pm_backend b;
    pm_engine *e = engine_new(s, &b, NULL);
    const char *good[3] = {"ok", "ok", "ok"};
    const char *bad[3] = {"ok", "bad", "ok"};
    uint64_t a = submit(e, "td:a", PM_PRIO_NORMAL, good, 3);
    uint64_t x = submit(e, "td:a", PM_PRIO_NORMAL, bad, 3);
    uint64_t c = submit(e, "td:a", PM_PRIO_NORMAL, good, 3);
    pm_job_info info;
    assert_int_equal(wait_state(e, x, &info), PM_JOB_FAILED);
    assert_int_equal(info.error.code, PM_ERR_UNSATISFIED);
    assert_non_null(strstr(info.error.msg, "does not satisfy"));
    assert_null(info.proofs);
    pm_job_info_free(&info);
    assert_int_equal(wait_state(e, a, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    assert_int_equal(wait_state(e, c, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    /* a key that fails to load fails its job with the loader's error */
    uint64_t bk = submit(e, "td:badkey", PM_PRIO_NORMAL, good, 2);
    assert_int_equal(wait_state(e, bk, &info), PM_JOB_FAILED);
    assert_int_equal(info.error.code, PM_ERR_FORMAT);
    pm_job_info_free(&info);
    /* a missing file fails at submit */
    pm_input in = {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)"ok", .len = 2};
    pm_job_spec spec = {.key_path = "missing:/nope.zkey", .inputs = &in, .n_inputs = 1};
    uint64_t id;
    pm_error err;
    pm_error_clear(&err);
    assert_int_equal(pm_engine_submit(e, &spec, &id, &err), PM_ERR_IO);
    pm_engine_destroy(e);
    assert_int_equal(atomic_load(&s->live_bytes), 0);
    free(s);
}

static void bad_proof_is_an_engine_error(void **state) {
    (void)state;
    td_state *s = td_new();
    pm_backend b;
    pm_engine *e = engine_new(s, &b, NULL);
    const char *k[3] = {"ok", "badproof", "ok"};
    uint64_t id = submit(e, "td:a", PM_PRIO_HIGH, k, 3);
    pm_job_info info;
    assert_int_equal(wait_state(e, id, &info), PM_JOB_FAILED);
    assert_int_equal(info.error.code, PM_ERR_INTERNAL);
    assert_non_null(strstr(info.error.msg, "partition 1"));
    assert_null(info.proofs);
    pm_job_info_free(&info);
    pm_engine_status st;
    pm_engine_get_status(e, &st);
    assert_int_equal(st.verify_failures, 1);
    assert_int_equal(st.failed, 1);
    pm_engine_status_free(&st);
    pm_engine_destroy(e);
    free(s);
}

/* budget = key + 1.5 jobs of 4 partitions: jobs wait, nobody exceeds, everyone finishes */
static uint64_t g_budget;
static void small_budget(pm_engine_config *c) {
    c->memory_budget = g_budget;
    c->synth_workers = 4;
}

static void memory_budget_is_respected(void **state) {
    (void)state;
    td_state *s = td_new();
    s->part_peak = 8 << 20;
    s->part_pending = 1 << 20;
    uint64_t job_ws = 4 * s->part_peak;
    g_budget = s->key_bytes + job_ws + job_ws / 2;
    pm_backend b;
    pm_engine *e = engine_new(s, &b, small_budget);
    const char *k[4] = {"ok", "ok", "ok", "ok"};
    uint64_t ids[8];
    for (int i = 0; i < 8; i++) ids[i] = submit(e, "td:a", PM_PRIO_NORMAL, k, 4);
    pm_job_info info;
    for (int i = 0; i < 8; i++) {
        assert_int_equal(wait_state(e, ids[i], &info), PM_JOB_DONE);
        pm_job_info_free(&info);
    }
    pm_engine_status st;
    pm_engine_get_status(e, &st);
    assert_true(st.reserved_peak_bytes <= g_budget);
    assert_true(st.reserved_peak_bytes >= s->key_bytes + job_ws);
    assert_true((uint64_t)atomic_load(&s->max_live_bytes) <= g_budget - s->key_bytes);
    pm_engine_status_free(&st);
    /* a job of more partitions than the budget holds at once (8 x 8 MiB; beside the key and its 16
     * inline input bytes 5 fit) is admitted with a window of 5 partitions in flight, and stays
     * within the budget */
    const char *big[8] = {"ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok"};
    uint64_t id = submit(e, "td:a", PM_PRIO_NORMAL, big, 8);
    assert_int_equal(wait_state(e, id, &info), PM_JOB_DONE);
    assert_int_equal(info.working_set_bytes, 5 * s->part_peak); /* the inputs are released when done */
    pm_job_info_free(&info);
    pm_engine_get_status(e, &st);
    assert_true(st.reserved_peak_bytes <= g_budget);
    assert_true((uint64_t)atomic_load(&s->max_live_bytes) <= g_budget - s->key_bytes);
    pm_engine_status_free(&st);
    /* a job of which not even one partition fits beside the key fails at submit, naming the
     * numbers; it does not wait forever */
    s->part_peak = g_budget - s->key_bytes + 1;
    pm_input in[1] = {{.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)"ok", .len = 2}};
    pm_job_spec spec = {.key_path = "td:a", .inputs = in, .n_inputs = 1};
    pm_error err;
    pm_error_clear(&err);
    assert_int_equal(pm_engine_submit(e, &spec, &id, &err), PM_ERR_NOMEM);
    printf("refused: %s\n", err.msg);
    assert_non_null(strstr(err.msg, "memory budget"));
    char num[32];
    snprintf(num, sizeof num, "%" PRIu64, s->part_peak);
    assert_non_null(strstr(err.msg, num)); /* the partition's size named */
    pm_engine_destroy(e);
    free(s);
}

static void srs_cache_loads_once_preload_evict(void **state) {
    (void)state;
    td_state *s = td_new();
    pm_backend b;
    pm_engine *e = engine_new(s, &b, NULL);
    const char *k[2] = {"ok", "ok"};
    uint64_t ids[6];
    for (int i = 0; i < 6; i++) ids[i] = submit(e, "td:a", PM_PRIO_NORMAL, k, 2);
    pm_job_info info;
    for (int i = 0; i < 6; i++) {
        assert_int_equal(wait_state(e, ids[i], &info), PM_JOB_DONE);
        pm_job_info_free(&info);
    }
    assert_int_equal(atomic_load(&s->loads), 1);
    pm_error err;
    pm_error_clear(&err);
    assert_int_equal(pm_engine_preload_key(e, NULL, "td:b", &err), PM_OK);
    assert_int_equal(atomic_load(&s->loads), 2);
    pm_engine_status st;
    pm_engine_get_status(e, &st);
    assert_int_equal(st.n_keys, 2);
    int pinned = 0;
    for (size_t i = 0; i < st.n_keys; i++)
        if (strcmp(st.keys[i].path, "td:b") == 0) pinned = st.keys[i].pinned && st.keys[i].state == 2;
    assert_true(pinned);
    pm_engine_status_free(&st);
    uint64_t id = submit(e, "td:b", PM_PRIO_NORMAL, k, 2);
    assert_int_equal(wait_state(e, id, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    assert_int_equal(atomic_load(&s->loads), 2); /* served from the cache */
    assert_int_equal(pm_engine_evict_key(e, NULL, "td:b", &err), PM_OK);
    assert_int_equal(pm_engine_evict_key(e, NULL, "td:zzz", &err), PM_ERR_ARG);
    pm_engine_get_status(e, &st);
    assert_int_equal(st.n_keys, 1);
    assert_int_equal(st.reserved_bytes, s->key_bytes);
    pm_engine_status_free(&st);
    pm_engine_destroy(e);
    free(s);
}

/* issue #39 item 6 / #37: while a key loads, the status says what the load does and how far it is
 * (the backend's library stages, counted in bytes); once ready, the key's device-memory plan */
static void key_activity_and_plan_in_status(void **state) {
    (void)state;
    td_state *s = td_new();
    s->load_ms = 400;
    s->plan_tier = 2; /* tier 1 */
    pm_backend b;
    pm_engine *e = engine_new(s, &b, NULL);
    const char *k[1] = {"ok"};
    uint64_t id = submit(e, "td:load", PM_PRIO_NORMAL, k, 1);
    int saw_loading = 0, saw_partial = 0;
    for (int i = 0; i < 400 && !(saw_loading && saw_partial); i++) {
        pm_engine_status st;
        pm_engine_get_status(e, &st);
        for (size_t j = 0; j < st.n_keys; j++) {
            const pm_key_info *ki = &st.keys[j];
            if (ki->state != 1 || strcmp(ki->activity, "reading the parameters") != 0) continue;
            saw_loading = 1;
            assert_int_equal(ki->activity_total, 1000);
            assert_true(ki->activity_done <= 1000);
            assert_int_equal(ki->activity_device, -1);
            assert_int_equal(ki->plan.tier, -1); /* no plan before the key is ready */
            if (ki->activity_done > 0 && ki->activity_done < 1000) {
                saw_partial = 1;
                char line[128];
                pm_key_activity_format(line, sizeof line, ki);
                assert_non_null(strstr(line, "reading the parameters 0."));
                assert_non_null(strstr(line, "/0.0 GB")); /* 1000 bytes */
            }
        }
        pm_engine_status_free(&st);
        td_sleep_ms(2);
    }
    assert_true(saw_loading);
    assert_true(saw_partial);
    pm_job_info info;
    assert_int_equal(wait_state(e, id, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    pm_engine_status st;
    pm_engine_get_status(e, &st);
    assert_int_equal(st.n_keys, 1);
    assert_string_equal(st.keys[0].activity, ""); /* idle once loaded */
    assert_int_equal(st.keys[0].plan.tier, 1);
    assert_string_equal(st.keys[0].plan.streamed, "H");
    char line[160];
    assert_string_equal(pm_key_plan_format(line, sizeof line, &st.keys[0].plan),
                        "tier 1 (streamed bases: H from pinned host memory), 3.0 GB on 1 card");
    pm_engine_status_free(&st);
    /* the binding is the loading thread's alone: the test's own thread reports nowhere */
    assert_null(pm_progress_bound());
    pm_engine_destroy(e);
    free(s);
}

static void trace_is_chrome_json(void **state) {
    (void)state;
    td_state *s = td_new();
    pm_backend b;
    pm_engine *e = engine_new(s, &b, NULL);
    prove_two_ok(e);
    char *tj = pm_engine_trace_json(e);
    assert_non_null(tj);
    json_error_t jerr;
    json_t *root = json_loads(tj, 0, &jerr);
    assert_non_null(root);
    json_t *evs = json_object_get(root, "traceEvents");
    assert_true(json_is_array(evs));
    int seen[6] = {0};
    const char *names[6] = {"srs-load", "synthesize", "start", "kernel", "finalize", "verify"};
    size_t i;
    json_t *ev;
    json_array_foreach(evs, i, ev) {
        const char *n = json_string_value(json_object_get(ev, "name"));
        for (int q = 0; q < 6; q++)
            if (n && strcmp(n, names[q]) == 0) seen[q]++;
    }
    for (int q = 0; q < 6; q++) assert_true(seen[q] > 0);
    json_decref(root);
    free(tj);
    pm_engine_destroy(e);
    free(s);
}

/* the synthesis semaphore: at most synth_lookahead partitions synthesized (or synthesizing) ahead
 * of the GPU workers, at most synth_workers synthesizing at once */
static void lookahead_two(pm_engine_config *c) {
    c->synth_workers = 3;
    c->synth_lookahead = 2;
    c->workers_per_device = 1;
}

/* one job of 12 partitions, synthesis (1 ms) far faster than the kernel region (10 ms), proved with
 * the engine that cfg makes; its double (with the peaks it saw) for the caller to check and free */
static td_state *twelve_fast_partitions(void (*cfg)(pm_engine_config *)) {
    td_state *s = td_new();
    s->synth_ms = 1;
    s->kernel_ms = 10;
    s->gpu_pre_ms = 0;
    s->gpu_post_ms = 0;
    pm_backend b;
    pm_engine *e = engine_new(s, &b, cfg);
    const char *k[12];
    for (int i = 0; i < 12; i++) k[i] = "ok";
    uint64_t id = submit(e, "td:a", PM_PRIO_NORMAL, k, 12);
    pm_job_info info;
    assert_int_equal(wait_state(e, id, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    pm_engine_destroy(e);
    return s;
}

static void synthesis_semaphore_bounds_lookahead(void **state) {
    (void)state;
    td_state *s = twelve_fast_partitions(lookahead_two);
    /* the permit returns when a GPU worker takes the partition, a moment before the double's
     * gpu_start sees it (outside the engine lock): one partition per GPU worker can be in that
     * hand-over, so the double counts at most lookahead + 1 here (without the semaphore: up to 11) */
    assert_true(atomic_load(&s->max_prepared_live) <= 2 + 1);
    assert_true(atomic_load(&s->max_synth_live) <= 2);
    assert_true(atomic_load(&s->max_prepared_live) >= 1);
    free(s);
}

/* the automatic lookahead (synth_lookahead 0): max(synthesis workers, GPU workers), not the old
 * 2 x synthesis workers that let a 32 GiB PoRep job hold 10 witnesses beside its key's host copy */
static void lookahead_auto(pm_engine_config *c) {
    c->synth_workers = 3;
    c->synth_lookahead = 0;
    c->workers_per_device = 1;
}

static void synthesis_lookahead_auto(void **state) {
    (void)state;
    assert_int_equal(pm_engine_auto_lookahead(4, 1, 2), 4);  /* the H200 host: 16 cores, 1 GPU, 2 workers */
    assert_int_equal(pm_engine_auto_lookahead(4, 8, 2), 16); /* every GPU worker finds a partition ready */
    assert_int_equal(pm_engine_auto_lookahead(1, 1, 1), 1);
    assert_int_equal(pm_engine_auto_lookahead(1000, 64, 64), 4096);
    assert_int_equal(pm_engine_auto_lookahead(1024, 64, 1024), 65536);
    td_state *s = twelve_fast_partitions(lookahead_auto);
    /* lookahead 3, + the one partition in the GPU worker's hand-over (see above); 2 x 3 + 1 before */
    printf("auto lookahead: at most %d partitions synthesized ahead (bound 3 + 1)\n",
           (int)atomic_load(&s->max_prepared_live));
    assert_true(atomic_load(&s->max_prepared_live) <= 3 + 1);
    assert_true(atomic_load(&s->max_prepared_live) >= 1);
    free(s);
}

/* keys: idle ones are evicted after key_idle_evict_s, and under budget pressure (LRU first) */
static void evict_fast(pm_engine_config *c) {
    c->key_idle_evict_s = 1;
}

static void idle_keys_are_evicted(void **state) {
    (void)state;
    td_state *s = td_new();
    pm_backend b;
    pm_engine *e = engine_new(s, &b, evict_fast);
    const char *k[1] = {"ok"};
    uint64_t id = submit(e, "td:a", PM_PRIO_NORMAL, k, 1);
    pm_job_info info;
    assert_int_equal(wait_state(e, id, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    pm_engine_status st;
    pm_engine_get_status(e, &st);
    assert_int_equal(st.n_keys, 1);
    pm_engine_status_free(&st);
    /* the housekeeper looks once a second: evicted 1-2 s after the job (polled up to 10 s: a fixed
     * 2.5 s left half a second for a loaded machine's scheduling) */
    int64_t t0 = pm_now_us();
    for (;;) {
        pm_engine_get_status(e, &st);
        size_t n = st.n_keys;
        uint64_t reserved = st.reserved_bytes;
        pm_engine_status_free(&st);
        if (n == 0) {
            assert_int_equal(reserved, 0);
            break;
        }
        assert_true(pm_now_us() - t0 < 10000000);
        td_sleep_ms(20);
    }
    printf("idle key evicted %.2f s after its job\n", (pm_now_us() - t0) / 1e6);
    pm_engine_destroy(e);
    free(s);
}

static uint64_t g_budget2;
static void one_key_budget(pm_engine_config *c) { c->memory_budget = g_budget2; }

static void budget_pressure_evicts_lru_key(void **state) {
    (void)state;
    td_state *s = td_new();
    g_budget2 = s->key_bytes + 2 * s->part_peak + s->key_bytes / 2; /* room for one key only */
    pm_backend b;
    pm_engine *e = engine_new(s, &b, one_key_budget);
    const char *k[2] = {"ok", "ok"};
    pm_job_info info;
    const char *keys[3] = {"td:a", "td:b", "td:a"};
    for (int i = 0; i < 3; i++) {
        uint64_t id = submit(e, keys[i], PM_PRIO_NORMAL, k, 2);
        assert_int_equal(wait_state(e, id, &info), PM_JOB_DONE);
        pm_job_info_free(&info);
        pm_engine_status st;
        pm_engine_get_status(e, &st);
        assert_int_equal(st.n_keys, 1);
        assert_string_equal(st.keys[0].path, keys[i]);
        assert_true(st.reserved_peak_bytes <= g_budget2);
        pm_engine_status_free(&st);
    }
    assert_int_equal(atomic_load(&s->loads), 3); /* a, b, a again after its eviction */
    pm_engine_destroy(e);
    free(s);
}

/* A key a CRITICAL job used (WinningPoSt's) stays resident: admission of a less urgent job does not
 * evict it while other jobs run (it waits for their memory), an idle less urgent key goes first, and
 * the idle timer skips it. Budget: room for two keys beside one partition each, not three. */
static void critical_key_outlives_pressure_and_idle(void **state) {
    (void)state;
    td_state *s = td_new();
    g_budget2 = 2 * s->key_bytes + 2 * s->part_peak + s->key_bytes / 2;
    pm_backend b;
    pm_engine *e = engine_new(s, &b, one_key_budget);
    const char *ok[1] = {"ok"}, *hold[1] = {"hold"};
    pm_job_info info;
    uint64_t w = submit(e, "td:w", PM_PRIO_CRITICAL, ok, 1);
    assert_int_equal(wait_state(e, w, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    atomic_store(&s->gate_closed, 1);
    uint64_t p = submit(e, "td:p", PM_PRIO_NORMAL, hold, 1);
    assert_true(td_wait_held(s, 1)); /* p runs, its partition at the gate */
    uint64_t q = submit(e, "td:q", PM_PRIO_NORMAL, ok, 1);
    /* q needs a third key: the only idle one is w's, so q waits while p runs */
    assert_int_equal(pm_engine_wait(e, q, 200, &info), PM_OK);
    assert_int_equal(info.state, PM_JOB_QUEUED);
    pm_job_info_free(&info);
    pm_engine_status st;
    pm_engine_get_status(e, &st);
    assert_int_equal(st.n_keys, 2);
    int have_w = 0;
    for (size_t i = 0; i < st.n_keys; i++) have_w |= !strcmp(st.keys[i].path, "td:w");
    assert_true(have_w);
    pm_engine_status_free(&st);
    atomic_store(&s->gate_closed, 0);
    assert_int_equal(wait_state(e, p, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    assert_int_equal(wait_state(e, q, &info), PM_JOB_DONE); /* p's idle key made the room */
    pm_job_info_free(&info);
    w = submit(e, "td:w", PM_PRIO_CRITICAL, ok, 1);
    assert_int_equal(wait_state(e, w, &info), PM_JOB_DONE);
    assert_true(info.t.srs_load_ms < 1.0); /* no second load of w */
    pm_job_info_free(&info);
    assert_int_equal(atomic_load(&s->loads), 3); /* w, p, q */
    pm_engine_get_status(e, &st);
    assert_true(st.reserved_peak_bytes <= g_budget2);
    pm_engine_status_free(&st);
    pm_engine_destroy(e);
    free(s);

    /* idle: a NORMAL key goes after key_idle_evict_s, the CRITICAL one stays */
    s = td_new();
    e = engine_new(s, &b, evict_fast);
    uint64_t a = submit(e, "td:a", PM_PRIO_NORMAL, ok, 1);
    w = submit(e, "td:w", PM_PRIO_CRITICAL, ok, 1);
    assert_int_equal(wait_state(e, a, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    assert_int_equal(wait_state(e, w, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    int64_t t0 = pm_now_us();
    for (;;) {
        pm_engine_get_status(e, &st);
        size_t n = st.n_keys;
        int only_w = n == 1 && !strcmp(st.keys[0].path, "td:w");
        pm_engine_status_free(&st);
        if (only_w) break;
        assert_true(n >= 1);
        assert_true(pm_now_us() - t0 < 10000000);
        td_sleep_ms(20);
    }
    td_sleep_ms(1500); /* another look of the housekeeper at least */
    pm_engine_get_status(e, &st);
    assert_int_equal(st.n_keys, 1);
    assert_string_equal(st.keys[0].path, "td:w");
    pm_engine_status_free(&st);
    pm_engine_destroy(e);
    free(s);
}

/* destroy with work in flight: no leak, no hang */
static void destroy_with_jobs_in_flight(void **state) {
    (void)state;
    td_state *s = td_new();
    pm_backend b;
    pm_engine *e = engine_new(s, &b, NULL);
    const char *k[8] = {"ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok"};
    for (int i = 0; i < 5; i++) submit(e, "td:a", (pm_priority)(i % 4), k, 8);
    td_sleep_ms(30);
    pm_engine_destroy(e);
    assert_int_equal(atomic_load(&s->live_bytes), 0);
    free(s);
}

/* the key's size follows the backend (key_bytes): a key whose host copy shrinks after the first
 * gpu_start (bases released after their upload) is charged the smaller size from then on */
static void key_bytes_follow_the_backend(void **state) {
    (void)state;
    td_state *s = td_new();
    s->key_bytes = 16 << 20;
    s->key_bytes_after_gpu = 2 << 20;
    pm_backend b;
    pm_engine *e = engine_new(s, &b, NULL);
    prove_two_ok(e);
    pm_engine_status st;
    pm_engine_get_status(e, &st);
    assert_int_equal(st.n_keys, 1);
    assert_int_equal(st.keys[0].bytes, s->key_bytes_after_gpu);
    assert_int_equal(st.reserved_bytes, s->key_bytes_after_gpu); /* only the shrunk key stays charged */
    pm_engine_status_free(&st);
    pm_engine_destroy(e);
    free(s);
}

/* never called: a table that only has to look like the CUDA one to the sizing */
static pm_status no_eval(const groth16_exec *x, groth16_pending_t *p, const fr_t *w, size_t n_w, pm_error *err) {
    (void)x, (void)p, (void)w, (void)n_w;
    return pm_error_set(err, PM_ERR_INTERNAL, NULL, PM_NO_OFFSET, "sizing only");
}

/* The admission estimate at the recorded 32 GiB PoRep shape (../shared/filecoin/POREP.md §6.9,
 * docs/perf/porep.md): 130,278,869 rows, 328 inputs, 130,169,893 aux wires, m = 2^27, A ~ 99.6 %
 * and B ~ 25.5 % of the wires, 10 partitions, .params 47.4 GB, .csr 8.9 GB; the H200 host's budget
 * (128 GiB, as measured: 134,055,129,088 bytes). The job the engine refused at 454 GB is admitted
 * with the GPU table's sizes (a window of 8 partitions: the 4 synthesis workers' lookahead 4 + 2 GPU
 * workers + 2 finalizers) and with the CPU table's (fewer partitions in flight), and a budget too small for
 * the key and one partition refuses it. */
static void admission_32gib_shape(void **state) {
    (void)state;
    bp_params_counts_t c = {.n_ic = 328, .n_h = (1ull << 27) - 1, .n_l = 130169893, .n_a = 129649540,
                            .n_b_g1 = 33193406, .n_b_g2 = 33193406};
    c.file_bytes = (c.n_ic + c.n_h + c.n_l + c.n_a + c.n_b_g1) * 96 + c.n_b_g2 * 192 + 4 * 6 + 672;
    const uint64_t csr = 8900000000ull, budget = 134055129088ull;
    const groth16_ops gpu_like = {.name = "cuda-sizing", .flags = GROTH16_OPS_DEVICE_WITNESS_BELLPERSON,
                                  .eval_bellperson = no_eval};
    pm_job_plan plan = {.n_partitions = 10};
    pm_prove_plan pp = {0};
    pm_engine_pools pools;
    uint64_t need = 0;
    for (int gpu = 1; gpu >= 0; gpu--) {
        pm_prove_plan_bellperson_sizes(&pp, &c, csr, gpu ? &gpu_like : NULL);
        plan.part_peak_bytes = pp.part_peak_bytes;
        plan.part_pending_bytes = pp.part_pending_bytes;
        plan.key_bytes = pp.key_bytes;
        plan.key_load_bytes = pp.key_load_bytes;
        pm_engine_pools_for_host(&pools, gpu, 16);
        /* the automatic lookahead + the GPU workers of 1 device + the finalizers */
        const uint32_t cap = pm_engine_auto_lookahead(pools.synth_workers, 1, pools.workers_per_device) +
                             pools.workers_per_device + pools.finalize_threads;
        uint32_t w = pm_engine_job_window(&need, &plan, cap, budget, 0, 0);
        printf("%s: key %" PRIu64 " + load %" PRIu64 ", partition %" PRIu64 " (pending %" PRIu64 "), cap %u: "
               "window %u, needs %" PRIu64 " of %" PRIu64 " (all 10 partitions at once: %" PRIu64 ")\n",
               gpu ? "GPU" : "CPU", plan.key_bytes, plan.key_load_bytes, plan.part_peak_bytes, plan.part_pending_bytes,
               cap, w, need, budget, plan.key_bytes + plan.key_load_bytes + 10 * plan.part_peak_bytes);
        assert_true(need <= budget);
        /* loading: the decoder's chunks and shared pages in flight (~0.5 GB) and a quarter of the
         * circuit + 256 MiB, not the 47.4 GB file */
        assert_true(plan.key_load_bytes >= csr / 4 && plan.key_load_bytes < csr / 4 + (256ull << 20) + c.file_bytes / 64);
        if (gpu) {
            assert_int_equal(w, 8); /* every partition the pipeline can hold: 4 + 2 + 2 */
            assert_true(plan.part_peak_bytes < 4300000000ull); /* the witness, 4.17 GB */
        } else {
            assert_true(w >= 1 && w < 10);
        }
        /* the same job with a second, pinned key of the same size beside it does not fit at all */
        assert_int_equal(pm_engine_job_window(&need, &plan, cap, budget, plan.key_bytes, 0), 0);
        assert_true(need > budget);
        /* with the key already resident (held), only the window */
        w = pm_engine_job_window(&need, &plan, cap, budget, plan.key_bytes, 1);
        assert_true(w >= 1 && need <= budget);
    }
    /* a 64 GiB host: the key alone does not fit beside one partition: refused */
    pm_prove_plan_bellperson_sizes(&pp, &c, csr, &gpu_like);
    plan.part_peak_bytes = pp.part_peak_bytes;
    plan.part_pending_bytes = pp.part_pending_bytes;
    plan.key_bytes = pp.key_bytes;
    plan.key_load_bytes = pp.key_load_bytes;
    assert_int_equal(pm_engine_job_window(&need, &plan, 10, budget / 2, 0, 0), 0);
    assert_true(need > budget / 2);
}

/* The 32 GiB WindowPoSt partition on the H200 host's budget: 125,279,217 constraints, 25,840
 * inputs, 126,902,376 aux, m = 2^27, the .params our params-setup wrote there (60,780,374,232
 * bytes; A and B counts solved from that size with B_G1 = B_G2), recorded in memory at key load
 * (--no-csr: 12,215,986,192 bytes as `record` writes it). Before the loading charge followed
 * params_read it was refused at 150.8 GB (key 89.9 + the whole file 60.8 while it loads); it is
 * admitted, one partition at least, and the same job on a 64 GiB host is refused. */
static void admission_32gib_window_post(void **state) {
    (void)state;
    bp_params_counts_t c = {.n_ic = 25840, .n_h = (1ull << 27) - 1, .n_l = 126902376, .n_a = 126928216,
                            .n_b_g1 = 81684913, .n_b_g2 = 81684913};
    c.file_bytes = 60780374232ull;
    const uint64_t circuit = 12215986192ull, budget = 134055129088ull;
    const groth16_ops gpu_like = {.name = "cuda-sizing", .flags = GROTH16_OPS_DEVICE_WITNESS_BELLPERSON,
                                  .eval_bellperson = no_eval};
    pm_prove_plan pp = {0};
    pm_prove_plan_bellperson_sizes(&pp, &c, circuit, &gpu_like);
    pm_job_plan plan = {.n_partitions = 1, .part_peak_bytes = pp.part_peak_bytes,
                        .part_pending_bytes = pp.part_pending_bytes, .key_bytes = pp.key_bytes,
                        .key_load_bytes = pp.key_load_bytes};
    uint64_t need = 0;
    uint32_t w = pm_engine_job_window(&need, &plan, 8, budget, 0, 0);
    printf("WindowPoSt 32 GiB: key %" PRIu64 " + load %" PRIu64 ", partition %" PRIu64 ": window %u, needs %" PRIu64
           " of %" PRIu64 "\n", plan.key_bytes, plan.key_load_bytes, plan.part_peak_bytes, w, need, budget);
    assert_true(w >= 1 && need <= budget);
    assert_true(plan.key_load_bytes < c.file_bytes / 10);
    assert_int_equal(pm_engine_job_window(&need, &plan, 8, budget / 2, 0, 0), 0);
}


/* The urgent lane (engine.h urgent_lane): a critical job of another key overtakes a normal
 * partition INSIDE its kernel region (which yields between its steps, as the start phase between
 * its operations), although the only normal GPU worker and the only synthesis worker are busy. */
static void one_worker_each(pm_engine_config *c) {
    c->synth_workers = 1;
    c->workers_per_device = 1;
    c->synth_lookahead = 1;
}

static void wait_inside(td_state *s) {
    for (int i = 0; i < 4000 && !atomic_load(&s->inside[0]); i++) td_sleep_ms(1);
    assert_int_equal(atomic_load(&s->inside[0]), 1);
}

static void urgent_lane_overtakes_a_kernel_region(void **state) {
    (void)state;
    td_state *s = td_new();
    s->kernel_ms = 1600; /* a normal partition's region: 16 steps of 100 ms */
    s->kernel_steps = 16;
    pm_backend b;
    pm_engine *e = engine_new(s, &b, one_worker_each);
    const char *k[3] = {"ok", "ok", "ok"};
    uint64_t normal = submit(e, "td:a", PM_PRIO_NORMAL, k, 3);
    wait_inside(s); /* its first partition is inside the region, the next ones synthesized / queued */
    const char *f[1] = {"fast"};
    uint64_t crit = submit(e, "td:b", PM_PRIO_CRITICAL, f, 1);
    pm_job_info info;
    assert_int_equal(wait_state(e, crit, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    /* it went through while the normal partition was mid-region: no gpu_start of the normal job
     * had returned, and that partition yielded once for it */
    int done_before = atomic_load(&s->gpu_done);
    assert_int_equal(done_before, 1); /* the critical one itself */
    assert_true(atomic_load(&s->yields) >= 1);
    assert_int_equal(atomic_load(&s->max_inside[0]), 1); /* still one worker inside at a time */
    pm_engine_cancel(e, normal, NULL);
    assert_int_equal(wait_state(e, normal, &info), PM_JOB_CANCELLED);
    pm_job_info_free(&info);
    pm_engine_destroy(e);
    free(s);
}

/* A yield never lets in a partition of the same key (its device buffers are mid-proof): with two
 * GPU workers on key a and critical jobs on key b and key a, at most one partition of a key is
 * ever between its first enter and its last leave; the critical job of key a waits for the region
 * but still goes before the normal partitions waiting for it. (The lane has one worker per device:
 * a critical job waits for the one before it.) */
static void two_workers(pm_engine_config *c) {
    c->synth_workers = 2;
    c->workers_per_device = 2;
}

static void yield_keeps_a_key_exclusive(void **state) {
    (void)state;
    td_state *s = td_new();
    s->kernel_ms = 400;
    s->kernel_steps = 8;
    pm_backend b;
    pm_engine *e = engine_new(s, &b, two_workers);
    const char *k[6] = {"ok", "ok", "ok", "ok", "ok", "ok"};
    uint64_t normal = submit(e, "td:a", PM_PRIO_NORMAL, k, 6);
    wait_inside(s);
    const char *one[1] = {"ok"};
    /* b first: the lane's one worker takes it and the region yields to it; then a, which waits for
     * the region (same key as the partition inside: no yield) and goes before the normal ones */
    uint64_t crit_b = submit(e, "td:b", PM_PRIO_CRITICAL, one, 1);
    for (int i = 0; i < 4000 && atomic_load(&s->yields) == 0; i++) td_sleep_ms(1); /* b went in */
    uint64_t crit_a = submit(e, "td:a", PM_PRIO_CRITICAL, one, 1);
    pm_job_info info;
    assert_int_equal(wait_state(e, crit_b, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    assert_int_equal(wait_state(e, crit_a, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    int normal_done_at_crit = atomic_load(&s->gpu_done) - 2;
    assert_int_equal(wait_state(e, normal, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    printf("yields %d, normal partitions through the GPU before both critical jobs ended: %d of 6\n",
           atomic_load(&s->yields), normal_done_at_crit);
    assert_true(normal_done_at_crit <= 2); /* the one inside, and at most the one that came back */
    assert_true(atomic_load(&s->yields) >= 1);
    assert_int_equal(atomic_load(&s->max_key_mid['a' & 7]), 1);
    assert_int_equal(atomic_load(&s->max_key_mid['b' & 7]), 1);
    assert_int_equal(atomic_load(&s->max_inside[0]), 1);
    pm_engine_destroy(e);
    free(s);
}

/* Outside the region, the pieces of a key's first-use setup (here gpu_start's pre-region steps,
 * pm_gpu_slot_yield between them) wait while a critical partition of another key is inside the
 * region, and go on at once when it leaves; a critical partition's own setup never waits for a
 * normal one inside. */
static void setup_defers_to_an_urgent_region(void **state) {
    (void)state;
    td_state *s = td_new();
    s->pre_steps = 10;
    s->gpu_pre_ms = 50; /* 5 ms a step */
    pm_backend b;
    pm_engine *e = engine_new(s, &b, two_workers);
    atomic_store(&s->gate_closed, 1);
    const char *hold[1] = {"holdkernel"}, *one[1] = {"ok"};
    uint64_t crit = submit(e, "td:b", PM_PRIO_CRITICAL, hold, 1);
    assert_true(td_wait_held(s, 1)); /* inside the region, at the gate */
    assert_int_equal(atomic_load(&s->pre_done), 10);
    uint64_t normal = submit(e, "td:a", PM_PRIO_NORMAL, one, 1);
    for (int i = 0; i < 4000 && atomic_load(&s->pre_done) < 11; i++) td_sleep_ms(1);
    td_sleep_ms(150); /* 30 steps' worth: a setup that did not wait would have ended */
    printf("pre-region steps done while the critical partition is inside: %d of 20\n", atomic_load(&s->pre_done));
    assert_int_equal(atomic_load(&s->pre_done), 11); /* its first step, then it waits */
    assert_int_equal(atomic_load(&s->defers), 0);
    atomic_store(&s->gate_closed, 0);
    pm_job_info info;
    assert_int_equal(wait_state(e, crit, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    assert_int_equal(wait_state(e, normal, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    assert_int_equal(atomic_load(&s->pre_done), 20);
    assert_int_equal(atomic_load(&s->defers), 1);
    /* the other way round: a normal partition inside, a critical one's setup runs through */
    atomic_store(&s->gate_closed, 1);
    uint64_t normal2 = submit(e, "td:a", PM_PRIO_NORMAL, hold, 1);
    assert_true(td_wait_held(s, 1));
    uint64_t crit2 = submit(e, "td:b", PM_PRIO_CRITICAL, one, 1);
    for (int i = 0; i < 4000 && atomic_load(&s->pre_done) < 40; i++) td_sleep_ms(1);
    assert_int_equal(atomic_load(&s->pre_done), 40); /* all ten steps while the normal one is inside */
    assert_int_equal(atomic_load(&s->defers), 1);
    atomic_store(&s->gate_closed, 0);
    assert_int_equal(wait_state(e, crit2, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    assert_int_equal(wait_state(e, normal2, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    pm_engine_destroy(e);
    free(s);
}

/* Priority inheritance: a normal partition of a key a critical job has used does not wait for a
 * high partition of another key (a critical partition of its own key might wait for its setup). */
static void setup_defer_inherits_the_key_priority(void **state) {
    (void)state;
    td_state *s = td_new();
    s->pre_steps = 10;
    s->gpu_pre_ms = 50;
    pm_backend b;
    pm_engine *e = engine_new(s, &b, two_workers);
    const char *hold[1] = {"holdkernel"}, *one[1] = {"ok"};
    pm_job_info info;
    uint64_t crit = submit(e, "td:a", PM_PRIO_CRITICAL, one, 1); /* key a: used by a critical job */
    assert_int_equal(wait_state(e, crit, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    atomic_store(&s->gate_closed, 1);
    uint64_t high = submit(e, "td:b", PM_PRIO_HIGH, hold, 1);
    assert_true(td_wait_held(s, 1));
    const int before = atomic_load(&s->pre_done);
    uint64_t normal = submit(e, "td:a", PM_PRIO_NORMAL, one, 1);
    for (int i = 0; i < 4000 && atomic_load(&s->pre_done) < before + 10; i++) td_sleep_ms(1);
    assert_int_equal(atomic_load(&s->pre_done), before + 10); /* all its steps while b is inside */
    assert_int_equal(atomic_load(&s->defers), 0);
    atomic_store(&s->gate_closed, 0);
    assert_int_equal(wait_state(e, high, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    assert_int_equal(wait_state(e, normal, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    pm_engine_destroy(e);
    free(s);
}

/* urgent_lane = 0: no lane, no yield (the region runs to its end) */
static void no_lane(pm_engine_config *c) {
    one_worker_each(c);
    c->urgent_lane = 0;
}

/* synth_nice: the synthesis and finalize threads (and the threads they start, as an OpenMP team) run
 * at the process's nice value plus synth_nice, capped at 19; the GPU workers keep the process's. */
static int nice_wanted;
static void nicer_synthesis(pm_engine_config *c) { c->synth_nice = (unsigned)nice_wanted; }
static void synthesis_threads_run_nicer(void **state) {
    (void)state;
#ifndef __linux__
    skip(); /* per-thread nice values are Linux's (setpriority on a thread id) */
#endif
    const int base = td_thread_nice(); /* + 100, as the double records it */
    assert_true(base >= 80);
    const int wants[2] = {3, 0};
    for (int i = 0; i < 2; i++) {
        nice_wanted = wants[i];
        td_state *s = td_new();
        pm_backend b;
        pm_engine *e = engine_new(s, &b, nicer_synthesis);
        prove_two_ok(e);
        pm_engine_destroy(e);
        const int want = base + nice_wanted > 119 ? 119 : base + nice_wanted;
        print_message("synth_nice %d: process %d, synthesis %d, its child %d, finalize %d, gpu %d (nice + 100)\n",
                      nice_wanted, base, atomic_load(&s->nice_synth), atomic_load(&s->nice_synth_child),
                      atomic_load(&s->nice_fin), atomic_load(&s->nice_gpu));
        assert_int_equal(atomic_load(&s->nice_synth), want);
        assert_int_equal(atomic_load(&s->nice_synth_child), want);
        assert_int_equal(atomic_load(&s->nice_fin), want);
        assert_int_equal(atomic_load(&s->nice_gpu), base);
        free(s);
    }
    /* out of range: refused, nothing started */
    td_state *s = td_new();
    pm_backend b = td_backend(s);
    pm_engine_config cfg;
    pm_engine_config_default(&cfg);
    cfg.synth_nice = 20;
    pm_engine *e = NULL;
    pm_error err;
    pm_error_clear(&err);
    assert_int_equal(pm_engine_create(&e, &cfg, &b, &err), PM_ERR_ARG);
    assert_null(e);
    free(s);
}

static void urgent_lane_off_does_not_yield(void **state) {
    (void)state;
    td_state *s = td_new();
    s->kernel_ms = 200;
    s->kernel_steps = 4;
    pm_backend b;
    pm_engine *e = engine_new(s, &b, no_lane);
    const char *k[2] = {"ok", "ok"};
    uint64_t normal = submit(e, "td:a", PM_PRIO_NORMAL, k, 2);
    wait_inside(s);
    const char *f[1] = {"fast"};
    uint64_t crit = submit(e, "td:b", PM_PRIO_CRITICAL, f, 1);
    pm_job_info info;
    assert_int_equal(wait_state(e, crit, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    assert_int_equal(atomic_load(&s->yields), 0);
    assert_true(atomic_load(&s->gpu_done) >= 2); /* the normal partition's region ended first */
    assert_int_equal(wait_state(e, normal, &info), PM_JOB_DONE);
    pm_job_info_free(&info);
    pm_engine_status st;
    assert_int_equal(pm_engine_get_status(e, &st), PM_OK);
    assert_int_equal(st.gpu_total, 1);
    pm_engine_status_free(&st);
    pm_engine_destroy(e);
    free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pipeline_proves_partitions_in_order),
        cmocka_unit_test(device_interlock_is_exclusive),
        cmocka_unit_test(higher_priority_finishes_first),
        cmocka_unit_test(cancel_queued_and_running),
        cmocka_unit_test(status_per_kind_and_device),
        cmocka_unit_test(bad_input_fails_alone),
        cmocka_unit_test(bad_proof_is_an_engine_error),
        cmocka_unit_test(memory_budget_is_respected),
        cmocka_unit_test(srs_cache_loads_once_preload_evict),
        cmocka_unit_test(key_activity_and_plan_in_status),
        cmocka_unit_test(trace_is_chrome_json),
        cmocka_unit_test(synthesis_semaphore_bounds_lookahead),
        cmocka_unit_test(synthesis_lookahead_auto),
        cmocka_unit_test(idle_keys_are_evicted),
        cmocka_unit_test(budget_pressure_evicts_lru_key),
        cmocka_unit_test(critical_key_outlives_pressure_and_idle),
        cmocka_unit_test(admission_32gib_shape),
        cmocka_unit_test(admission_32gib_window_post),
        cmocka_unit_test(key_bytes_follow_the_backend),
        cmocka_unit_test(destroy_with_jobs_in_flight),
        cmocka_unit_test(urgent_lane_overtakes_a_kernel_region),
        cmocka_unit_test(yield_keeps_a_key_exclusive),
        cmocka_unit_test(setup_defers_to_an_urgent_region),
        cmocka_unit_test(setup_defer_inherits_the_key_priority),
        cmocka_unit_test(urgent_lane_off_does_not_yield),
        cmocka_unit_test(synthesis_threads_run_nicer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
