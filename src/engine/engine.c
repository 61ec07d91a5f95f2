/*
 * engine.c — the engine's design (below) and its public API: create, destroy, submit, cancel, wait,
 * status, close. The rest of the engine, one concept per file (engine_internal.h lists them):
 * engine_queue.c (queues, synthesis permits, admission), engine_job.c (a job's window and final
 * state, the one failure path), engine_device.c (the device interlock), engine_stage.c (one stage
 * loop for the three pools, the assembler, housekeeping), srs_cache.c (keys and the budget),
 * trace.c, engine_build.c (the one builder: the pools sized from the machine, engine_build.h).
 *
 * ---- Design essay (the longer version with every knob is docs/engine.md) ----
 *
 * Job model. A job is a proving key (path), a priority (low < normal < high < critical) and inputs.
 * The backend's plan() turns the inputs into N partitions (snarkjs front end: one witness each;
 * Filecoin PoRep: 10 from one C1) and sizes them. Every partition is an independent work item that
 * flows through three pools, like the seeds' per-partition dispatch (Phase 7):
 *
 *   submit -> [pending queue] -admission-> [synth queue] -> synthesis pool (synth_workers threads,
 *   at most synth_lookahead partitions synthesized ahead of the GPUs: the synthesis semaphore)
 *   -> [gpu queue] -> GPU workers (workers_per_device per device; a device's workers share one lock
 *   held only around the kernel region, Phase 8) -> [finalize queue] -> finalizer pool (small, so
 *   B_G2 buckets stay in L3, Phase 11) -> assembler (the finalizer thread that completes a job's
 *   last partition joins the partitions in order and verifies every one before the job is DONE).
 *
 * Ordering guarantee. Every queue is ordered by (priority desc, submit sequence asc, partition asc),
 * so within a priority jobs are FIFO and a higher-priority job's partitions overtake lower ones at
 * every stage boundary (work already inside a stage is never pre-empted). Admission is strictly in
 * that order too: if the head job does not fit the memory budget, later jobs wait behind it (no
 * small-job overtaking, so nothing starves); a job that could never fit fails at submit.
 *
 * Memory budget. plan() gives per-partition upper bounds: part_peak (synthesis until gpu_start
 * returns) and part_pending (gpu_start until finalize returns); a partition's slot is the larger.
 * A job is charged its key once (resident size, + the load transient until the load returns, unless
 * already resident) plus a WINDOW of W slots, not all N partitions: W = min(N, the partitions the
 * pipeline can hold at once (synth_lookahead + GPU workers + finalizers), what fits the budget beside the key
 * and the other pinned / resident keys) (pm_engine_job_window). The synthesis pool takes a job's
 * partition only while fewer than W of its partitions are between synthesis start and finalize
 * end, so W slots bound what the job really holds; the charge shrinks when fewer than W partitions
 * are left. A job is refused at submit only when not even one partition fits beside its key. Keys
 * are charged while resident, at the size the backend reports (key_bytes: e.g. smaller once the
 * host copy of the bases is released after their upload to every device); unused keys are evicted
 * when admission needs room (those of the least urgent jobs first, then least recently used; a key
 * a more urgent job than the asker used only when no job runs), or after key_idle_evict_s, except a
 * key a CRITICAL job used (WinningPoSt cannot wait for a key load). A job waits rather than exceed
 * the budget. Device memory is not in this budget: the device key's plan
 * (groth16/start_gpu.c) sizes it against the card.
 * Inline input bytes (copied at submit) are held outside the budget while the job is queued, under
 * their own bound (max_queued_inline_bytes: submit beyond it is PM_ERR_BUSY), and move into the
 * budget at admission; charging them at submit let queued copies fill the budget so nothing could be
 * admitted (#17).
 *
 * SRS cache. One entry per key path, refcounted by admitted jobs. The first synthesis worker that
 * needs a key loads it (outside the engine lock); others needing it wait on a condition variable.
 * Preloaded keys are pinned (never idle-evicted) until an evict request.
 *
 * Cancel and failure. Each stage boundary checks the job's flags: a cancelled or failed job's items
 * are dropped (their memory released) instead of being run; when every partition is accounted for,
 * the job reaches its final state. A partition's error fails its job alone. A proof that fails
 * verification is an engine error: counted (verify_failures) and the job FAILED, never DONE.
 *
 * Completion. One engine mutex guards all scheduler state (queues are short; stage work runs
 * unlocked). A job reaching a final state broadcasts cv_done: pm_engine_wait sleeps on it with a
 * deadline, which is how the daemon's long-poll (GET /v1/jobs/{id}?wait=S) and submit-and-await
 * (POST /v1/prove) get their answer — each HTTP connection has its own thread (libmicrohttpd
 * thread-per-connection), so a blocked waiter holds nothing but its connection. The optional
 * on_complete callback is the hook for an event-loop front end (e.g. write to an eventfd).
 *
 * Threads: synth_workers + n_devices * workers_per_device + finalize_threads + 1 housekeeper
 * (idle-key eviction, retired-job reaping, admission retries) + 1 notifier when on_complete is set.
 * No thread ever blocks on another stage while holding the engine mutex; the device lock is taken
 * without the engine mutex, and the two are never held together.
 */
#include "engine/engine_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/settings.h"
#include "util/strbuf.h"
#include "util/sysmem.h"

/* ---------------------------------------------------------------- small helpers */

const char *pm_priority_name(pm_priority p) {
    switch (p) {
    case PM_PRIO_LOW: return "low";
    case PM_PRIO_NORMAL: return "normal";
    case PM_PRIO_HIGH: return "high";
    case PM_PRIO_CRITICAL: return "critical";
    }
    return "unknown";
}

int pm_priority_parse(pm_priority *p, const char *name) {
    static const char *names[PM_PRIO_COUNT] = {"low", "normal", "high", "critical"};
    if (!name) return -1;
    for (int i = 0; i < PM_PRIO_COUNT; i++)
        if (strcmp(name, names[i]) == 0) {
            *p = (pm_priority)i;
            return 0;
        }
    return -1;
}

const char *pm_job_state_name(pm_job_state s) {
    switch (s) {
    case PM_JOB_QUEUED: return "queued";
    case PM_JOB_RUNNING: return "running";
    case PM_JOB_DONE: return "done";
    case PM_JOB_FAILED: return "failed";
    case PM_JOB_CANCELLED: return "cancelled";
    }
    return "unknown";
}

static uint64_t job_need_bytes(const job *j) {
    return (uint64_t)j->window * j->slot_bytes + j->reserved_other;
}

/* ---------------------------------------------------------------- public API */

void pm_engine_config_default(pm_engine_config *c) {
    memset(c, 0, sizeof *c);
    c->synth_workers = 2;
    c->synth_lookahead = 0;
    c->devices[0] = 0;
    c->n_devices = 1;
    c->workers_per_device = 2;
    c->urgent_lane = 1;
    c->finalize_threads = 1;
    c->synth_nice = (unsigned)pm_setting_u64("synthesis.nice");
    c->memory_budget = 0;
    c->memory_margin = 1ull << 30;
    c->key_idle_evict_s = 300;
    c->job_retain_s = 600;
    c->max_jobs = 1024;
    c->trace = 0;
    c->trace_max_events = 65536;
}

unsigned pm_engine_auto_lookahead(unsigned synth_workers, unsigned n_devices, unsigned workers_per_device) {
    const uint64_t gpu = (uint64_t)n_devices * workers_per_device;
    const uint64_t l = gpu > synth_workers ? gpu : synth_workers;
    return l < 1 ? 1 : l > 65536 ? 65536 : (unsigned)l;
}

void pm_engine_pools_for_host(pm_engine_pools *p, int gpu, unsigned cores) {
    if (!cores) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        cores = n > 0 ? (unsigned)n : 1;
    }
    p->cores = cores;
    p->finalize_msm_threads = 1;
    p->workers_per_device = 2;
    if (!gpu) {
        p->synth_workers = 2;
        p->finalize_threads = 1;
        p->start_threads = 0;
        return;
    }
    p->synth_workers = cores / 4 > 2 ? cores / 4 : 2;
    p->finalize_threads = cores / 8 > 2 ? cores / 8 : 2;
    p->start_threads = cores / 4 > 1 ? cores / 4 : 1;
}

pm_status pm_engine_create(pm_engine **out, const pm_engine_config *cfg, const pm_backend *be,
                           pm_error *err) {
    *out = NULL;
    if (!cfg || !be || !be->plan || !be->load_key || !be->synthesize || !be->gpu_start ||
        !be->finalize || !be->verify || !be->proof_json || !be->free_prepared || !be->free_pending ||
        !be->free_proof)
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "incomplete engine config or backend");
    if (cfg->synth_workers < 1 || cfg->synth_workers > 1024 || cfg->n_devices < 1 ||
        cfg->n_devices > PM_ENGINE_MAX_DEVICES || cfg->workers_per_device < 1 ||
        cfg->workers_per_device > 64 || cfg->finalize_threads < 1 || cfg->finalize_threads > 1024 ||
        cfg->max_jobs < 1 || (cfg->trace && cfg->trace_max_events < 1))
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET,
                            "engine config out of range (workers, devices, threads, max_jobs)");
    if (cfg->synth_nice > 19)
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "engine config: synth_nice %u is out of range (0..19)",
                            cfg->synth_nice);
    pm_engine *e = calloc(1, sizeof *e);
    if (!e) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    e->cfg = *cfg;
    if (!e->cfg.synth_lookahead) /* pm_engine_auto_lookahead */
        e->cfg.synth_lookahead = pm_engine_auto_lookahead(e->cfg.synth_workers, e->cfg.n_devices,
                                                          e->cfg.workers_per_device);
    e->be = *be;
    e->budget = cfg->memory_budget;
    if (!e->budget) {
        uint64_t phys = pm_sys_memory_bytes();
        e->budget = phys > cfg->memory_margin ? phys - cfg->memory_margin : phys / 2;
    }
    e->max_queued_inline = cfg->max_queued_inline_bytes ? cfg->max_queued_inline_bytes : e->budget / 4;
    e->next_id = 1;
    e->t_start = pm_now_us();
    pthread_mutex_init(&e->mu, NULL);
    pthread_mutex_init(&e->trace_mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_t *cvs[] = {&e->cv_synth, &e->cv_gpu, &e->cv_fin, &e->cv_done, &e->cv_keys, &e->cv_house, &e->cv_notify};
    for (size_t i = 0; i < sizeof cvs / sizeof cvs[0]; i++) pthread_cond_init(cvs[i], &ca);
    pthread_condattr_destroy(&ca);
    if (cfg->trace) {
        e->trace = calloc(cfg->trace_max_events, sizeof *e->trace);
        if (!e->trace) {
            pm_engine_destroy(e);
            return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory (trace ring)");
        }
    }
    e->devs = calloc(cfg->n_devices, sizeof *e->devs);
    const unsigned urgent = cfg->urgent_lane ? 1 : 0;
    unsigned nw = cfg->synth_workers + urgent + cfg->n_devices * (cfg->workers_per_device + urgent) + cfg->finalize_threads;
    e->workers = calloc(nw, sizeof *e->workers);
    if (!e->devs || !e->workers) {
        pm_engine_destroy(e);
        return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    }
    for (unsigned d = 0; d < cfg->n_devices; d++) {
        e->devs[d].id = cfg->devices[d];
        pthread_mutex_init(&e->devs[d].lock, NULL);
        pthread_cond_init(&e->devs[d].cv, NULL);
    }
    unsigned t = 0;
    for (unsigned i = 0; i < cfg->synth_workers; i++, t++) {
        e->workers[t] = (worker_t){.e = e, .kind = W_SYNTH, .index = i, .tid = t};
        snprintf(e->workers[t].name, sizeof e->workers[t].name, "synth-%u", i);
    }
    if (urgent) {
        e->workers[t] = (worker_t){.e = e, .kind = W_SYNTH, .index = cfg->synth_workers, .tid = t, .urgent = 1};
        snprintf(e->workers[t].name, sizeof e->workers[t].name, "synth-urgent");
        t++;
    }
    for (unsigned d = 0; d < cfg->n_devices; d++)
        for (unsigned i = 0; i < cfg->workers_per_device; i++, t++) {
            e->workers[t] = (worker_t){.e = e, .kind = W_GPU, .index = i, .tid = t, .dev = &e->devs[d]};
            snprintf(e->workers[t].name, sizeof e->workers[t].name, "%s%d-w%u",
                     cfg->cpu_devices ? "cpu" : "gpu", cfg->devices[d], i);
        }
    for (unsigned d = 0; urgent && d < cfg->n_devices; d++, t++) {
        e->workers[t] = (worker_t){.e = e, .kind = W_GPU, .index = cfg->workers_per_device, .tid = t,
                                   .dev = &e->devs[d], .urgent = 1};
        snprintf(e->workers[t].name, sizeof e->workers[t].name, "%s%d-urgent", cfg->cpu_devices ? "cpu" : "gpu",
                 cfg->devices[d]);
    }
    for (unsigned i = 0; i < cfg->finalize_threads; i++, t++) {
        e->workers[t] = (worker_t){.e = e, .kind = W_FIN, .index = i, .tid = t};
        snprintf(e->workers[t].name, sizeof e->workers[t].name, "finalize-%u", i);
    }
    for (unsigned i = 0; i < nw; i++) {
        if (pthread_create(&e->workers[i].th, NULL, engine_stage_main, &e->workers[i]) != 0) {
            pm_engine_destroy(e);
            return pm_error_set(err, PM_ERR_INTERNAL, NULL, PM_NO_OFFSET, "cannot start worker threads");
        }
        e->workers[i].started = 1;
        e->n_workers = i + 1;
    }
    if (pthread_create(&e->house, NULL, engine_house_main, e) != 0) {
        pm_engine_destroy(e);
        return pm_error_set(err, PM_ERR_INTERNAL, NULL, PM_NO_OFFSET, "cannot start housekeeper");
    }
    e->house_started = 1;
    if (cfg->on_complete) {
        if (pthread_create(&e->notifier, NULL, engine_notify_main, e) != 0) {
            pm_engine_destroy(e);
            return pm_error_set(err, PM_ERR_INTERNAL, NULL, PM_NO_OFFSET, "cannot start notifier");
        }
        e->notifier_started = 1;
    }
    *out = e;
    return PM_OK;
}

void pm_engine_destroy(pm_engine *e) {
    if (!e) return;
    pthread_mutex_lock(&e->mu);
    e->stop = 1;
    pthread_cond_t *cvs[] = {&e->cv_synth, &e->cv_gpu, &e->cv_fin, &e->cv_done, &e->cv_keys, &e->cv_house, &e->cv_notify};
    for (size_t i = 0; i < sizeof cvs / sizeof cvs[0]; i++) pthread_cond_broadcast(cvs[i]);
    /* a synthesis worker may wait inside a key for what a GPU worker gives back (its a, b, c pool),
     * and the GPU workers stop now: wake it */
    if (e->be.close_key)
        for (keyent *k = e->keys; k; k = k->next)
            if (k->key) e->be.close_key(e->be.self, k->key);
    pthread_mutex_unlock(&e->mu);
    for (unsigned i = 0; i < e->n_workers; i++)
        if (e->workers[i].started) pthread_join(e->workers[i].th, NULL);
    if (e->house_started) pthread_join(e->house, NULL);
    /* every worker is gone: drain queues and jobs */
    pthread_mutex_lock(&e->mu);
    for (job *j = e->jobs; j; j = j->next)
        if (j->state < PM_JOB_DONE) {
            j->cancel = 1;
            pm_error_set(&j->err, PM_ERR_CANCELLED, NULL, PM_NO_OFFSET, "engine shut down");
            engine_job_finish_locked(e, j, PM_JOB_CANCELLED);
        }
    pthread_cond_broadcast(&e->cv_notify);
    pthread_mutex_unlock(&e->mu);
    if (e->notifier_started) pthread_join(e->notifier, NULL); /* delivers the last notes first */
    free(e->notes);
    while (e->jobs) {
        job *j = e->jobs;
        e->jobs = j->next;
        engine_job_free(e, j);
    }
    while (e->keys) engine_key_unlink_free(e, e->keys);
    free(e->pending.v);
    free(e->q_synth.v);
    free(e->q_gpu.v);
    free(e->q_fin.v);
    if (e->devs)
        for (unsigned d = 0; d < e->cfg.n_devices; d++) {
            pthread_mutex_destroy(&e->devs[d].lock);
            pthread_cond_destroy(&e->devs[d].cv);
        }
    free(e->devs);
    free(e->workers);
    free(e->trace);
    pthread_cond_t *cvs2[] = {&e->cv_synth, &e->cv_gpu, &e->cv_fin, &e->cv_done, &e->cv_keys, &e->cv_house, &e->cv_notify};
    for (size_t i = 0; i < sizeof cvs2 / sizeof cvs2[0]; i++) pthread_cond_destroy(cvs2[i]);
    pthread_mutex_destroy(&e->mu);
    pthread_mutex_destroy(&e->trace_mu);
    free(e);
}

pm_status pm_engine_submit(pm_engine *e, const pm_job_spec *spec, uint64_t *id, pm_error *err) {
    *id = 0;
    if (!spec || ((!spec->key_path || !spec->key_path[0]) && (!spec->params_dir || !spec->params_dir[0])) ||
        (spec->n_inputs && !spec->inputs) || spec->priority < PM_PRIO_LOW || spec->priority > PM_PRIO_CRITICAL)
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "malformed job spec");
    pm_job_plan plan;
    memset(&plan, 0, sizeof plan);
    pm_job_request rq = {.kind = spec->kind, .key_path = spec->key_path, .params_dir = spec->params_dir,
                         .inputs = spec->inputs, .n_inputs = spec->n_inputs};
    pm_status st = e->be.plan(e->be.self, &rq, &plan, err);
    if (st != PM_OK) return st;
    if (!plan.key_path[0]) snprintf(plan.key_path, sizeof plan.key_path, "%s", spec->key_path ? spec->key_path : "");
    if (plan.n_partitions == 0)
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "job has no partitions");
    job *j = calloc(1, sizeof *j);
    if (!j) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    j->plan = plan;
    j->prio = spec->priority;
    if (spec->label) snprintf(j->label, sizeof j->label, "%s", spec->label);
    j->key_path = engine_strdup(plan.key_path);
    memcpy(j->kind, plan.kind, sizeof j->kind);
    j->parts = calloc(plan.n_partitions, sizeof *j->parts);
    j->inputs = spec->n_inputs ? calloc(spec->n_inputs, sizeof *j->inputs) : NULL;
    int oom = !j->key_path || !j->parts || (spec->n_inputs && !j->inputs);
    j->n_inputs = j->inputs ? spec->n_inputs : 0;
    for (size_t i = 0; !oom && i < spec->n_inputs; i++) {
        j->inputs[i].kind = spec->inputs[i].kind;
        if (spec->inputs[i].path && !(j->inputs[i].path = engine_strdup(spec->inputs[i].path))) oom = 1;
        if (spec->inputs[i].name && !(j->inputs[i].name = engine_strdup(spec->inputs[i].name))) oom = 1;
        if (spec->inputs[i].bytes && spec->inputs[i].len) {
            uint8_t *b = malloc(spec->inputs[i].len);
            if (!b) {
                oom = 1;
                break;
            }
            memcpy(b, spec->inputs[i].bytes, spec->inputs[i].len);
            j->inputs[i].bytes = b;
            j->inputs[i].len = spec->inputs[i].len;
            j->reserved_other += spec->inputs[i].len;
        }
    }
    if (oom) {
        engine_job_free(e, j);
        return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory copying the job");
    }
    pthread_mutex_lock(&e->mu);
    keyent *k = engine_key_find(e, j->kind, j->key_path);
    uint64_t pinned = 0;
    for (keyent *kk = e->keys; kk; kk = kk->next)
        if (kk->pinned && kk != k) pinned += kk->bytes;
    /* a key cached or loading for another job: this job's partitions wait for that load, so they
     * share memory with the key's resident size, never with its load transient */
    const int key_resident = k && k->state != KEY_FAILED;
    const uint64_t key_held = !key_resident ? 0 : k->state == KEY_READY ? k->bytes : plan.key_bytes;
    uint64_t held = pinned + key_held + j->reserved_other, need = 0;
    j->window = pm_engine_job_window(&need, &plan, engine_pipeline_cap(e), e->budget, held, key_resident);
    j->slot_bytes = plan.part_peak_bytes > plan.part_pending_bytes ? plan.part_peak_bytes : plan.part_pending_bytes;
    if (e->stop || e->closing) {
        pthread_mutex_unlock(&e->mu);
        engine_job_free(e, j);
        return pm_error_set(err, PM_ERR_CANCELLED, NULL, PM_NO_OFFSET, "engine is shutting down");
    }
    if (!j->window) {
        const uint64_t slot = j->slot_bytes, budget = e->budget;
        pthread_mutex_unlock(&e->mu);
        engine_job_free(e, j);
        return pm_error_set(err, PM_ERR_NOMEM, plan.key_path, PM_NO_OFFSET,
                            "job needs %" PRIu64 " bytes (key %" PRIu64 " + %" PRIu64
                            " while it loads, other resident keys and inputs %" PRIu64 ", one partition %" PRIu64
                            " of %u), memory budget is %" PRIu64 " bytes",
                            need, key_resident ? 0 : plan.key_bytes, key_resident ? 0 : plan.key_load_bytes, held,
                            slot, plan.n_partitions, budget);
    }
    if (j->reserved_other && e->queued_inline + j->reserved_other > e->max_queued_inline) {
        uint64_t held = e->queued_inline;
        pthread_mutex_unlock(&e->mu);
        engine_job_free(e, j);
        return pm_error_set(err, PM_ERR_BUSY, NULL, PM_NO_OFFSET,
                            "queued inline inputs hold %" PRIu64 " bytes; this job's %" PRIu64
                            " would pass their bound of %" PRIu64
                            " (max_queued_inline_bytes; retry later, or give inputs by path)",
                            held, j->reserved_other, e->max_queued_inline);
    }
    unsigned inflight = e->n_running + (unsigned)e->pending.n;
    if (inflight >= e->cfg.max_jobs) {
        pthread_mutex_unlock(&e->mu);
        engine_job_free(e, j);
        return pm_error_set(err, PM_ERR_BUSY, NULL, PM_NO_OFFSET, "too many jobs in flight (%u)", inflight);
    }
    j->id = e->next_id++;
    j->seq = e->next_seq++;
    j->state = PM_JOB_QUEUED;
    j->t_submit = pm_now_us();
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    j->submit_unix_ms = (int64_t)rt.tv_sec * 1000 + rt.tv_nsec / 1000000;
    if (engine_q_push(&e->pending, j, 0) != 0) {
        pthread_mutex_unlock(&e->mu);
        engine_job_free(e, j);
        return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    }
    e->queued_inline += j->reserved_other; /* charged to the budget at admission */
    j->next = e->jobs;
    e->jobs = j;
    e->submitted++;
    *id = j->id;
    engine_admit_locked(e);
    pthread_mutex_unlock(&e->mu);
    return PM_OK;
}

static job *job_find(pm_engine *e, uint64_t id) {
    for (job *j = e->jobs; j; j = j->next)
        if (j->id == id) return j;
    return NULL;
}

pm_status pm_engine_cancel(pm_engine *e, uint64_t id, pm_job_state *state) {
    pthread_mutex_lock(&e->mu);
    job *j = job_find(e, id);
    if (!j) {
        pthread_mutex_unlock(&e->mu);
        return PM_ERR_ARG;
    }
    pm_job_state before = j->state;
    if (before == PM_JOB_QUEUED) {
        for (size_t i = 0; i < e->pending.n; i++)
            if (e->pending.v[i].j == j) {
                engine_q_take(&e->pending, (long)i);
                break;
            }
        j->cancel = 1;
        pm_error_set(&j->err, PM_ERR_CANCELLED, NULL, PM_NO_OFFSET, "cancelled while queued");
        e->n_running++; /* job_finish decrements it */
        engine_job_finish_locked(e, j, PM_JOB_CANCELLED);
        engine_admit_locked(e);
    } else if (before == PM_JOB_RUNNING && !j->cancel) {
        j->cancel = 1;
        engine_fail_locked(e, j, ENGINE_NO_PART, NULL); /* its queued partitions go now, the rest at their stage's end */
    }
    if (state) *state = j->state;
    pthread_mutex_unlock(&e->mu);
    return PM_OK;
}

static void fill_info_locked(const pm_engine *e, const job *j, pm_job_info *info) {
    memset(info, 0, sizeof *info);
    info->id = j->id;
    info->state = j->state;
    info->priority = j->prio;
    snprintf(info->label, sizeof info->label, "%s", j->label);
    snprintf(info->key_path, sizeof info->key_path, "%s", j->key_path);
    memcpy(info->kind, j->kind, sizeof info->kind);
    info->n_partitions = j->plan.n_partitions;
    info->partitions_done = j->n_finalized;
    info->working_set_bytes = job_need_bytes(j);
    info->submit_unix_ms = (uint64_t)j->submit_unix_ms;
    int64_t end = j->t_done ? j->t_done : pm_now_us();
    info->t.queue_ms = ((j->t_first ? j->t_first : end) - j->t_submit) / 1000.0;
    info->t.srs_load_ms = j->srs_load_us / 1000.0;
    info->t.synth_ms = j->synth_us / 1000.0;
    info->t.gpu_ms = j->gpu_us / 1000.0;
    info->t.gpu_lock_wait_ms = j->lock_wait_us / 1000.0;
    info->t.finalize_ms = j->fin_us / 1000.0;
    info->t.verify_ms = j->verify_us / 1000.0;
    info->t.total_ms = (end - j->t_submit) / 1000.0;
    pm_error_clear(&info->error);
    if (j->state == PM_JOB_FAILED || j->state == PM_JOB_CANCELLED) info->error = j->err;
    if (j->state == PM_JOB_DONE && j->proof_json) {
        info->proofs = calloc(j->plan.n_partitions, sizeof *info->proofs);
        if (info->proofs)
            for (uint32_t p = 0; p < j->plan.n_partitions; p++) info->proofs[p] = engine_strdup(j->proof_json[p]);
    }
    (void)e;
}

void pm_job_info_free(pm_job_info *info) {
    if (!info) return;
    if (info->proofs) {
        for (uint32_t p = 0; p < info->n_partitions; p++) free(info->proofs[p]);
        free(info->proofs);
    }
    info->proofs = NULL;
}

pm_status pm_engine_wait(pm_engine *e, uint64_t id, int64_t timeout_ms, pm_job_info *info) {
    struct timespec dl;
    if (timeout_ms > 0) pm_deadline_us(&dl, timeout_ms * 1000);
    pthread_mutex_lock(&e->mu);
    for (;;) {
        job *j = job_find(e, id);
        if (!j) {
            pthread_mutex_unlock(&e->mu);
            return PM_ERR_ARG;
        }
        if (j->state >= PM_JOB_DONE || timeout_ms == 0 || e->stop || e->closing) {
            fill_info_locked(e, j, info);
            pthread_mutex_unlock(&e->mu);
            return PM_OK;
        }
        int rc = timeout_ms < 0 ? pthread_cond_wait(&e->cv_done, &e->mu)
                                : pthread_cond_timedwait(&e->cv_done, &e->mu, &dl);
        if (rc == ETIMEDOUT) timeout_ms = 0; /* fill and return on the next pass */
    }
}

/* st->kinds: the queued / running jobs per kind, in name order (lock held). Out of memory leaves
 * the list empty. */
static void status_kinds_locked(pm_engine *e, pm_engine_status *st) {
    size_t n = 0, cap = 0;
    pm_kind_jobs *v = NULL;
    for (job *j = e->jobs; j; j = j->next) {
        if (j->state != PM_JOB_QUEUED && j->state != PM_JOB_RUNNING) continue;
        size_t i = 0;
        int c = 1;
        while (i < n && (c = strcmp(v[i].kind, j->kind)) < 0) i++;
        if (i == n || c) { /* a new kind at i */
            if (n == cap) {
                size_t nc = cap ? 2 * cap : 8;
                pm_kind_jobs *nv = realloc(v, nc * sizeof *nv);
                if (!nv) {
                    free(v);
                    return;
                }
                v = nv;
                cap = nc;
            }
            memmove(&v[i + 1], &v[i], (n - i) * sizeof *v);
            memset(&v[i], 0, sizeof *v);
            memcpy(v[i].kind, j->kind, sizeof v[i].kind);
            n++;
        }
        if (j->state == PM_JOB_QUEUED) v[i].queued++;
        else v[i].running++;
    }
    st->kinds = v;
    st->n_kinds = n;
}

pm_status pm_engine_get_status(pm_engine *e, pm_engine_status *st) {
    memset(st, 0, sizeof *st);
    uint64_t rss, peak;
    pm_proc_rss(&rss, &peak);
    pthread_mutex_lock(&e->mu);
    for (size_t i = 0; i < e->pending.n; i++) st->queued[e->pending.v[i].j->prio]++;
    st->running = e->n_running;
    status_kinds_locked(e, st);
    st->submitted = e->submitted;
    st->done = e->n_done;
    st->failed = e->n_failed;
    st->cancelled = e->n_cancelled;
    st->verify_failures = e->verify_failures;
    st->synth_busy = e->synth_busy;
    st->synth_total = e->cfg.synth_workers;
    st->gpu_busy = e->gpu_busy;
    st->gpu_total = e->cfg.n_devices * e->cfg.workers_per_device;
    st->fin_busy = e->fin_busy;
    st->fin_total = e->cfg.finalize_threads;
    st->n_devices = e->cfg.n_devices;
    for (unsigned d = 0; d < e->cfg.n_devices; d++) {
        st->devices[d] = e->devs[d].id;
        st->device_busy[d] = (unsigned)atomic_load(&e->devs[d].busy);
        st->device_lock_waiters[d] = (unsigned)atomic_load(&e->devs[d].lock_waiters);
        st->device_kernel_ms[d] = atomic_load(&e->devs[d].kernel_us) / 1000.0;
        /* the worker inside the kernel region, else the first one holding a partition */
        uint64_t kj = atomic_load(&e->devs[d].kernel_job);
        const worker_t *cur = NULL;
        for (unsigned i = 0; i < e->n_workers; i++) {
            const worker_t *w = &e->workers[i];
            if (w->kind != W_GPU || w->dev != &e->devs[d] || !w->cur) continue;
            if (!cur || w->cur->id == kj) cur = w;
        }
        if (cur) {
            st->device_job[d] = cur->cur->id;
            st->device_partition[d] = cur->cur_part;
            memcpy(st->device_kind[d], cur->cur->kind, sizeof st->device_kind[d]);
        }
    }
    st->synth_queue = (unsigned)e->q_synth.n;
    st->gpu_queue = (unsigned)e->q_gpu.n;
    st->fin_queue = (unsigned)e->q_fin.n;
    st->budget_bytes = e->budget;
    st->reserved_bytes = e->reserved;
    st->reserved_peak_bytes = e->reserved_peak;
    st->queued_inline_bytes = e->queued_inline;
    st->max_queued_inline_bytes = e->max_queued_inline;
    st->rss_bytes = rss;
    st->rss_peak_bytes = peak;
    int64_t t = pm_now_us();
    st->uptime_s = (t - e->t_start) / 1e6;
    st->total_synth_ms = e->tot_synth_us / 1000.0;
    st->total_gpu_ms = e->tot_gpu_us / 1000.0;
    st->total_finalize_ms = e->tot_fin_us / 1000.0;
    st->total_queue_ms = e->tot_queue_us / 1000.0;
    st->n_proof_hist = e->n_proof_hist;
    memcpy(st->proof_hist, e->proof_hist, e->n_proof_hist * sizeof *st->proof_hist);
    size_t nk = 0;
    for (keyent *k = e->keys; k; k = k->next) nk++;
    st->keys = nk ? calloc(nk, sizeof *st->keys) : NULL;
    if (st->keys) {
        size_t i = 0;
        for (keyent *k = e->keys; k; k = k->next, i++) {
            pm_key_info *ki = &st->keys[i];
            snprintf(ki->path, sizeof ki->path, "%s", k->path);
            memcpy(ki->kind, k->kind, sizeof ki->kind);
            ki->state = k->state == KEY_FAILED ? 0 : k->state;
            ki->pinned = k->pinned;
            ki->refs = k->refs;
            ki->bytes = k->bytes;
            ki->idle_s = k->refs ? 0 : (t - k->last_used_us) / 1e6;
            ki->loads = k->loads;
            ki->hits = k->hits;
            const char *act = pm_task_get(&k->progress, &ki->activity_done, &ki->activity_total, &ki->activity_device);
            snprintf(ki->activity, sizeof ki->activity, "%s", act ? act : "");
            ki->plan.tier = -1;
            if (k->state == KEY_READY && k->key && e->be.key_plan) e->be.key_plan(e->be.self, k->key, &ki->plan);
        }
        st->n_keys = nk;
    }
    pthread_mutex_unlock(&e->mu);
    return PM_OK;
}

char *pm_key_activity_format(char *out, size_t cap, const pm_key_info *k) {
    if (!cap) return out;
    out[0] = 0;
    if (!k->activity[0]) return out;
    int n = snprintf(out, cap, "%s", k->activity);
    if (k->activity_device >= 0 && n >= 0 && (size_t)n < cap) n += snprintf(out + n, cap - (size_t)n, " %d", k->activity_device);
    if (k->activity_total && n >= 0 && (size_t)n < cap)
        snprintf(out + n, cap - (size_t)n, " %.1f/%.1f GB", k->activity_done / 1e9, k->activity_total / 1e9);
    return out;
}

char *pm_key_plan_format(char *out, size_t cap, const pm_key_plan_info *p) {
    if (!cap) return out;
    out[0] = 0;
    if (p->tier < 0) return out;
    int n = snprintf(out, cap, "tier %d (%s", p->tier, p->tier_name);
    if (p->streamed[0] && n >= 0 && (size_t)n < cap)
        n += snprintf(out + n, cap - (size_t)n, ": %s from pinned host memory", p->streamed);
    if (n >= 0 && (size_t)n < cap)
        n += snprintf(out + n, cap - (size_t)n, "), %.1f GB", p->device_bytes / 1e9);
    if (p->devices && n >= 0 && (size_t)n < cap)
        snprintf(out + n, cap - (size_t)n, " on %u card%s", p->devices, p->devices == 1 ? "" : "s");
    return out;
}

void pm_engine_status_free(pm_engine_status *st) {
    if (!st) return;
    free(st->kinds);
    st->kinds = NULL;
    st->n_kinds = 0;
    free(st->keys);
    st->keys = NULL;
    st->n_keys = 0;
}

void pm_engine_close(pm_engine *e) {
    pthread_mutex_lock(&e->mu);
    e->closing = 1;
    pthread_cond_broadcast(&e->cv_done);
    pthread_mutex_unlock(&e->mu);
}

void pm_engine_cancel_all(pm_engine *e) {
    pthread_mutex_lock(&e->mu);
    uint64_t ids[256];
    size_t n = 0;
    for (job *j = e->jobs; j && n < 256; j = j->next)
        if (j->state < PM_JOB_DONE && !j->cancel) ids[n++] = j->id;
    pthread_mutex_unlock(&e->mu);
    for (size_t i = 0; i < n; i++) pm_engine_cancel(e, ids[i], NULL);
    if (n == 256) pm_engine_cancel_all(e);
}
