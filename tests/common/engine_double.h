/*
 * engine_double.h — TEST DOUBLE of the engine backend (src/engine/backend.h), used ONLY by the
 * engine unit tests (tests/engine/test_engine_*.c). It proves nothing: each stage sleeps a
 * configurable time and moves a small checksum along, so the scheduler, pools, device interlock,
 * budget, cancel and assembler can be tested quickly and deterministically without a prover.
 *
 * Inputs: one PM_INPUT_BYTES per partition whose text selects a behaviour:
 *   "ok" (default)  proves normally
 *   "bad"           synthesize fails with PM_ERR_UNSATISFIED ("witness does not satisfy ...")
 *   "badproof"      finalize returns a proof whose checksum is wrong (verify must catch it)
 *   "slow"          synthesis takes 5x longer
 *   "hold"          synthesis waits at the gate while it is closed (td_state.gate_closed)
 *   "holdkernel"    gpu_start waits at the gate inside the kernel region (device lock held)
 *   "fast"          no time inside the kernel region (enter, leave)
 * The gate makes a test's "this job is still running / queued while I look" a fact instead of a
 * race with the sleeps: close it, submit, td_wait_held, check, open it (a wait there is bounded at
 * 60 s so that a failing test still ends).
 * Before the region: gpu_pre_ms, in pre_steps steps (0 or 1: one) with pm_gpu_slot_yield between
 * them (outside the region: it waits while more urgent work of another key is inside, as a key's
 * first-use setup does between its pieces); pre_done counts the steps done, defers the calls that waited.
 * Kernel region: kernel_ms, in kernel_steps steps (0 or 1: one) with pm_gpu_slot_yield between
 * them, as the start phase yields between its operations; key_mid[k] counts the partitions of key
 * k (the last character of its path, & 7) between their first enter and last leave.
 * Key paths: "td:<name>" loads after load_ms; "td:badkey" fails to load (PM_ERR_FORMAT);
 * "missing:..." fails plan with PM_ERR_IO (like a missing file).
 * Memory: synthesize mallocs and touches part_peak bytes (held until gpu_start), gpu_start mallocs
 * part_pending bytes (held until finalize), so RSS follows the plan's numbers.
 */
#ifndef PROOFMILL_TEST_ENGINE_DOUBLE_H
#define PROOFMILL_TEST_ENGINE_DOUBLE_H

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "engine/backend.h"
#include "util/progress.h"

typedef struct {
    int synth_ms, gpu_pre_ms, kernel_ms, gpu_post_ms, fin_ms, load_ms;
    uint64_t part_peak, part_pending, key_bytes;
    uint64_t key_bytes_after_gpu; /* != 0: the key's size (key_bytes hook) once a gpu_start ran, as a
                                     key whose host bases are released after their upload */
    atomic_int gpu_starts;
    atomic_int loads;
    atomic_int inside[8];     /* workers inside the kernel region, per device id */
    atomic_int max_inside[8];
    atomic_int in_gpu;        /* workers anywhere in gpu_start */
    atomic_int max_in_gpu;
    atomic_llong live_bytes, max_live_bytes;
    atomic_int prepared_live, max_prepared_live; /* synthesized, not yet taken by gpu_start */
    atomic_int synth_live, max_synth_live;       /* inside synthesize */
    atomic_int gate_closed;                      /* "hold" / "holdkernel" partitions wait while set */
    atomic_int held;                             /* partitions waiting at the gate now */
    int kernel_steps;
    int pre_steps;
    atomic_int pre_done, defers;        /* pre-region steps done; pm_gpu_slot_yield calls there that waited */
    atomic_int yields;                  /* pm_gpu_slot_yield calls that left and came back */
    atomic_int key_mid[8], max_key_mid[8];
    atomic_int gpu_done;                /* gpu_start calls returned */
    int plan_tier;                      /* key_plan's tier (0: report none, tier -1; k: tier k - 1) */
    /* the nice value (+ 100: 0 = not seen yet) of the last thread that ran synthesize, gpu_start,
     * finalize, and of a thread synthesize started (the inheritance its OpenMP team relies on) */
    atomic_int nice_synth, nice_gpu, nice_fin, nice_synth_child;
} td_state;

static int td_thread_nice(void) {
#ifdef __linux__
    errno = 0;
    int v = getpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid));
    return errno ? -1000 : v + 100;
#else
    return 100;
#endif
}
static void *td_nice_child(void *arg) {
    atomic_store((atomic_int *)arg, td_thread_nice());
    return NULL;
}

static void td_max(atomic_int *v, atomic_int *m, int d) {
    int x = atomic_fetch_add(v, d) + d;
    int cur = atomic_load(m);
    while (x > cur && !atomic_compare_exchange_weak(m, &cur, x)) {}
}

typedef struct {
    uint64_t value, check;
    int fast;
    uint32_t part;
    int hold_kernel; /* input "holdkernel": wait at the gate inside the kernel region */
    char *mem;
    uint64_t mem_bytes;
} td_item;

static void td_sleep_ms(int ms) {
    if (ms <= 0) return;
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void td_gate_wait(td_state *s) {
    atomic_fetch_add(&s->held, 1);
    for (int i = 0; i < 60000 && atomic_load(&s->gate_closed); i++) td_sleep_ms(1);
    atomic_fetch_sub(&s->held, 1);
}

/* Wait (at most 60 s) until n partitions wait at the gate; returns whether they do. */
static int td_wait_held(td_state *s, int n) {
    for (int i = 0; i < 60000 && atomic_load(&s->held) != n; i++) td_sleep_ms(1);
    return atomic_load(&s->held) == n;
}

static uint64_t td_mix(uint64_t x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    return x;
}

static void td_live(td_state *s, long long delta) {
    long long v = atomic_fetch_add(&s->live_bytes, delta) + delta;
    long long m = atomic_load(&s->max_live_bytes);
    while (v > m && !atomic_compare_exchange_weak(&s->max_live_bytes, &m, v)) {}
}

static char *td_alloc(td_state *s, uint64_t n) {
    if (!n) return NULL;
    char *p = malloc(n);
    if (p) {
        memset(p, 0x5a, n);
        td_live(s, (long long)n);
    }
    return p;
}

static void td_release(td_state *s, td_item *it) {
    if (it->mem) {
        free(it->mem);
        td_live(s, -(long long)it->mem_bytes);
    }
    it->mem = NULL;
}

static int td_is(const pm_input *in, const char *kind) {
    size_t n = strlen(kind);
    return in->bytes && in->len == n && memcmp(in->bytes, kind, n) == 0;
}

static pm_status td_plan(void *self, const pm_job_request *rq, pm_job_plan *plan, pm_error *err) {
    td_state *s = self;
    const char *key_path = rq->key_path ? rq->key_path : "";
    const pm_input *in = rq->inputs;
    size_t n = rq->n_inputs;
    if (strncmp(key_path, "missing:", 8) == 0)
        return pm_error_set(err, PM_ERR_IO, key_path, PM_NO_OFFSET, "cannot open: No such file or directory");
    for (size_t i = 0; i < n; i++)
        if (in[i].kind != PM_INPUT_BYTES)
            return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "input %zu: test double takes bytes", i);
    plan->n_partitions = (uint32_t)n;
    if (rq->kind) snprintf(plan->kind, sizeof plan->kind, "%s", rq->kind); /* any name: the kind it is proved as */
    plan->part_peak_bytes = s->part_peak;
    plan->part_pending_bytes = s->part_pending;
    plan->key_bytes = s->key_bytes;
    return PM_OK;
}

static pm_status td_load_key(void *self, const char *kind, const char *path, void **key, uint64_t *bytes,
                             pm_error *err) {
    (void)kind;
    td_state *s = self;
    /* the load reports its stage and bytes through the library's progress calls, as params_read
     * does (util/progress.h): ten steps of 100 "bytes" over load_ms */
    pm_progress_stage("reading the parameters", 1000);
    for (int i = 0; i < 10; i++) {
        td_sleep_ms(s->load_ms / 10);
        pm_progress_add(100);
    }
    td_sleep_ms(s->load_ms % 10);
    atomic_fetch_add(&s->loads, 1);
    if (strcmp(path, "td:badkey") == 0)
        return pm_error_set(err, PM_ERR_FORMAT, path, 0, "bad magic (test double)");
    uint64_t *k = malloc(2 * sizeof *k);
    if (!k) return PM_ERR_NOMEM;
    k[0] = td_mix((uint64_t)strlen(path) + 7);
    k[1] = path[0] ? (unsigned char)path[strlen(path) - 1] & 7 : 0; /* key_mid's index */
    *key = k;
    *bytes = s->key_bytes;
    return PM_OK;
}

static void td_free_key(void *self, void *key) { free(key); }

static void td_key_plan(void *self, const void *key, pm_key_plan_info *out) {
    (void)key;
    const td_state *s = self;
    memset(out, 0, sizeof *out);
    out->tier = s->plan_tier - 1;
    if (out->tier < 0) return;
    snprintf(out->tier_name, sizeof out->tier_name, "%s", out->tier ? "streamed bases" : "resident");
    snprintf(out->streamed, sizeof out->streamed, "%s", out->tier ? "H" : "");
    out->devices = 1;
    out->device_bytes = 3000000000ull;
}

static pm_status td_synthesize(void *self, const void *key, const pm_input *in, size_t n, uint32_t part,
                               void **prepared, pm_error *err) {
    td_state *s = self;
    td_max(&s->synth_live, &s->max_synth_live, 1);
    atomic_store(&s->nice_synth, td_thread_nice());
    pthread_t child;
    if (pthread_create(&child, NULL, td_nice_child, &s->nice_synth_child) == 0) pthread_join(child, NULL);
    if (td_is(&in[part], "hold")) td_gate_wait(s);
    td_sleep_ms(td_is(&in[part], "slow") ? 5 * s->synth_ms : s->synth_ms);
    td_max(&s->synth_live, &s->max_synth_live, -1);
    if (td_is(&in[part], "bad"))
        return pm_error_set(err, PM_ERR_UNSATISFIED, "input", PM_NO_OFFSET,
                            "witness does not satisfy constraint 0 (test double)");
    td_item *it = calloc(1, sizeof *it);
    if (!it) return PM_ERR_NOMEM;
    it->part = part;
    it->value = td_mix(*(const uint64_t *)key ^ part);
    it->check = td_is(&in[part], "badproof") ? 1 : 0;
    it->hold_kernel = td_is(&in[part], "holdkernel");
    it->fast = td_is(&in[part], "fast");
    it->mem = td_alloc(s, s->part_peak);
    it->mem_bytes = s->part_peak;
    td_max(&s->prepared_live, &s->max_prepared_live, 1);
    *prepared = it;
    return PM_OK;
}

static uint64_t td_key_bytes(void *self, const void *key) {
    td_state *s = self;
    (void)key;
    return s->key_bytes_after_gpu && atomic_load(&s->gpu_starts) ? s->key_bytes_after_gpu : s->key_bytes;
}

static pm_status td_gpu_start(void *self, const void *key, void *prepared, pm_gpu_slot *slot, void **pending,
                              pm_error *err) {
    td_state *s = self;
    td_item *it = prepared;
    atomic_fetch_add(&s->gpu_starts, 1);
    atomic_store(&s->nice_gpu, td_thread_nice());
    td_max(&s->prepared_live, &s->max_prepared_live, -1);
    int in = atomic_fetch_add(&s->in_gpu, 1) + 1;
    int m = atomic_load(&s->max_in_gpu);
    while (in > m && !atomic_compare_exchange_weak(&s->max_in_gpu, &m, in)) {}
    const int pre = s->pre_steps > 1 ? s->pre_steps : 1;
    for (int st = 0; st < pre; st++) {
        if (st && pm_gpu_slot_yield(slot)) atomic_fetch_add(&s->defers, 1);
        td_sleep_ms(s->gpu_pre_ms / pre);
        atomic_fetch_add(&s->pre_done, 1);
    }
    int dev = pm_gpu_slot_device(slot) & 7;
    const int ki = (int)(((const uint64_t *)key)[1] & 7);
    pm_gpu_slot_enter(slot);
    td_max(&s->key_mid[ki], &s->max_key_mid[ki], 1);
    int k = atomic_fetch_add(&s->inside[dev], 1) + 1;
    int mk = atomic_load(&s->max_inside[dev]);
    while (k > mk && !atomic_compare_exchange_weak(&s->max_inside[dev], &mk, k)) {}
    if (it->hold_kernel) td_gate_wait(s);
    const int steps = s->kernel_steps > 1 ? s->kernel_steps : 1;
    for (int st = 0; st < steps; st++) {
        if (st) { /* between two "operations": a more urgent partition of another key may go first */
            atomic_fetch_sub(&s->inside[dev], 1);
            if (pm_gpu_slot_yield(slot)) atomic_fetch_add(&s->yields, 1);
            k = atomic_fetch_add(&s->inside[dev], 1) + 1;
            mk = atomic_load(&s->max_inside[dev]);
            while (k > mk && !atomic_compare_exchange_weak(&s->max_inside[dev], &mk, k)) {}
        }
        if (!it->fast) td_sleep_ms(s->kernel_ms / steps);
    }
    atomic_fetch_sub(&s->inside[dev], 1);
    td_max(&s->key_mid[ki], &s->max_key_mid[ki], -1);
    pm_gpu_slot_leave(slot);
    td_sleep_ms(s->gpu_post_ms);
    td_release(s, it);
    it->mem = td_alloc(s, s->part_pending);
    it->mem_bytes = s->part_pending;
    atomic_fetch_sub(&s->in_gpu, 1);
    atomic_fetch_add(&s->gpu_done, 1);
    *pending = it;
    return PM_OK;
}

static pm_status td_finalize(void *self, const void *key, void *pending, void **proof, pm_error *err) {
    td_state *s = self;
    td_item *it = pending;
    atomic_store(&s->nice_fin, td_thread_nice());
    td_sleep_ms(s->fin_ms);
    td_release(s, it);
    it->check = it->check ? td_mix(it->value) ^ 1 : td_mix(it->value);
    *proof = it;
    return PM_OK;
}

static pm_status td_verify(void *self, const void *key, const void *proof, pm_error *err) {
    const td_item *it = proof;
    if (it->check != td_mix(it->value))
        return pm_error_set(err, PM_ERR_INTERNAL, NULL, PM_NO_OFFSET, "checksum mismatch (test double)");
    return PM_OK;
}

static char *td_proof_json(void *self, const void *proof) {
    const td_item *it = proof;
    char *s = malloc(96);
    if (s) snprintf(s, 96, "{\"part\":%u,\"value\":\"%016llx\"}", it->part, (unsigned long long)it->value);
    return s;
}

static void td_free_item(void *self, void *p) {
    td_item *it = p;
    if (!it) return;
    td_release(self, it);
    free(it);
}

/* A backend over state s (borrowed). */
static pm_backend td_backend(td_state *s) {
    pm_backend b = {
        .name = "test-double",
        .self = s,
        .plan = td_plan,
        .load_key = td_load_key,
        .free_key = td_free_key,
        .key_bytes = td_key_bytes,
        .key_plan = td_key_plan,
        .synthesize = td_synthesize,
        .gpu_start = td_gpu_start,
        .finalize = td_finalize,
        .verify = td_verify,
        .proof_json = td_proof_json,
        .free_prepared = td_free_item,
        .free_pending = td_free_item,
        .free_proof = td_free_item,
        .destroy = NULL,
    };
    return b;
}

#endif
