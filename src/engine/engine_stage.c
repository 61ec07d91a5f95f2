/*
 * engine_stage.c — the engine's threads: ONE stage loop run by every synthesis, GPU and finalize
 * worker (stage_main, parameterised by the stage's row of `stages`), the assembler (run by the
 * finalizer that completes a job's last partition), the housekeeper and the notifier.
 *
 * A stage worker, engine lock held except around the stage's work:
 *   pick the best item of its queue it may take (wait on the queue's condition variable if none);
 *   drop it if its job was cancelled or failed meanwhile;
 *   begin: claim the partition (its state, the pool's busy count, its input: the synthesized
 *     partition for the GPU stage, the started one for finalize);
 *   run the stage's backend call without the lock, traced;
 *   end: the job's and the engine's time counters;
 *   then one of: failed (engine_fail_locked, the one failure path), the job was cancelled or
 *     failed meanwhile (the same path without an error of its own), or keep the output in the
 *     partition and pass it on (the next queue; after finalize, the assembler or admission), where
 *     a queue that cannot grow fails the job (out of memory).
 * What differs between the stages is in `stages` only: which queue and condition variable, which
 * items a worker may take (the urgent lane takes critical ones only; synthesis only within the
 * synthesis permits and the job's window), the backend call, and what the partition keeps.
 * Synthesis permits (engine_synth_permit_locked): taken when synthesis begins, given back when a
 * GPU worker takes the partition or when it leaves the pipeline before that.
 */
#include "engine/engine_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/clock.h"

/* ---------------------------------------------------------------- the stages */

/* Times of one run (pm_now_us): [t0, t1] is traced and counted as the stage's time; wait_us is the
 * key load or wait (synthesis) or the device lock wait (GPU stage). */
typedef struct {
    int64_t t0, t1, wait_us;
} stage_times;

/* What differs between the synthesis, GPU and finalize stages; every hook but run is called with
 * the engine lock held. */
typedef struct {
    int trace;          /* ST_SYNTH, ST_GPU, ST_FIN */
    int permit_in;      /* items of its queue hold a synthesis permit: given back when taken */
    int permit_out;     /* a partition holds a synthesis permit from begin until the next stage takes it */
    int admit_after;    /* admission runs after each partition (the key's charge may have shrunk) */
    /* the index of the item this worker takes now, -1: none (wait) */
    long (*pick)(pm_engine *e, const worker_t *w);
    /* claim partition p; returns the stage's input (owned by the stage until run returns) */
    void *(*begin)(pm_engine *e, worker_t *w, job *j, uint32_t p);
    /* the work, lock NOT held: *out its output (freed with free_out when it fails) */
    pm_status (*run)(pm_engine *e, worker_t *w, job *j, keyent *k, uint32_t p, void *in, void **out,
                     stage_times *t, pm_error *err);
    /* counters, after run */
    void (*end)(pm_engine *e, worker_t *w, job *j, uint32_t p, const stage_times *t, pm_status st);
    void (*free_out)(pm_engine *e, void *out);
    /* the partition keeps the output of a successful run */
    void (*keep)(pm_engine *e, job *j, uint32_t p, void *out);
    /* pass the partition on (job neither cancelled nor failed); -1: out of memory queueing it */
    int (*pass)(pm_engine *e, worker_t *w, job *j, uint32_t p);
} stage_ops;

/* ---- synthesis: witness, a, b, c (the key loaded first, by the first worker that needs it) */

static long synth_pick(pm_engine *e, const worker_t *w) {
    /* the urgent lane: critical partitions only, whatever the lookahead holds */
    if (w->urgent) return engine_q_best_critical(&e->q_synth, 1);
    return e->synth_inflight < e->cfg.synth_lookahead ? engine_q_best_in_window(&e->q_synth) : -1;
}

static void *synth_begin(pm_engine *e, worker_t *w, job *j, uint32_t p) {
    if (!w->urgent) e->synth_busy++;
    j->parts[p].in_window = 1; /* a slot of the job's window */
    j->n_in_window++;
    j->parts[p].stage = PART_SYNTH;
    if (!j->t_first) j->t_first = pm_now_us();
    return NULL;
}

static pm_status synth_run(pm_engine *e, worker_t *w, job *j, keyent *k, uint32_t p, void *in, void **out,
                           stage_times *t, pm_error *err) {
    (void)in;
    pm_status st = engine_key_ensure(e, k, w->tid, j->id, &t->wait_us, err);
    t->t0 = pm_now_us(); /* the synthesis proper, after the key */
    if (st == PM_OK) st = e->be.synthesize(e->be.self, k->key, j->inputs, j->n_inputs, p, out, err);
    return st;
}

static void synth_end(pm_engine *e, worker_t *w, job *j, uint32_t p, const stage_times *t, pm_status st) {
    (void)p, (void)st;
    if (!w->urgent) e->synth_busy--;
    if (t->wait_us > j->srs_load_us) j->srs_load_us = t->wait_us;
    j->synth_us += t->t1 - t->t0;
    e->tot_synth_us += t->t1 - t->t0;
}

static void synth_free(pm_engine *e, void *out) { e->be.free_prepared(e->be.self, out); }

static void synth_keep(pm_engine *e, job *j, uint32_t p, void *out) {
    (void)e;
    j->parts[p].prepared = out;
}

static int synth_pass(pm_engine *e, worker_t *w, job *j, uint32_t p) {
    (void)w;
    if (engine_q_push(&e->q_gpu, j, p) != 0) return -1;
    j->parts[p].stage = PART_GPU_Q;
    pthread_cond_broadcast(&e->cv_gpu); /* an urgent worker takes critical items only: wake all */
    return 0;
}

/* ---- GPU stage: the start phase (H, the MSMs) inside the device's kernel region */

static long gpu_pick(pm_engine *e, const worker_t *w) {
    return w->urgent ? engine_q_best_critical(&e->q_gpu, 0) : engine_q_best(&e->q_gpu);
}

static void *gpu_begin(pm_engine *e, worker_t *w, job *j, uint32_t p) {
    part_t *pt = &j->parts[p];
    void *prepared = pt->prepared;
    pt->prepared = NULL;
    pt->stage = PART_GPU;
    if (!w->urgent) e->gpu_busy++;
    w->cur = j;
    w->cur_part = p;
    return prepared;
}

static pm_status gpu_run(pm_engine *e, worker_t *w, job *j, keyent *k, uint32_t p, void *in, void **out,
                         stage_times *t, pm_error *err) {
    pm_gpu_slot slot = {.e = e, .dev = w->dev, .tid = w->tid, .job_id = j->id, .part = p, .prio = j->prio,
                        .key = k};
    pm_status st = e->be.gpu_start(e->be.self, k->key, in, &slot, out, err);
    pm_gpu_slot_leave(&slot); /* in case the backend returned inside */
    t->wait_us = slot.wait_us;
    return st;
}

/* The key's resident size as the backend reports it now (e.g. its host copy of the bases released
 * once they are resident on every device): the budget follows. */
static void key_recharge_locked(pm_engine *e, keyent *k) {
    if (!k || k->state != KEY_READY || !k->key) return;
    uint64_t now = e->be.key_bytes(e->be.self, k->key);
    if (now == k->bytes) return;
    engine_budget_release(e, k->bytes);
    engine_budget_charge(e, now);
    k->bytes = now; /* a smaller key lets the head job in: the GPU stage admits after every partition */
}

static void gpu_end(pm_engine *e, worker_t *w, job *j, uint32_t p, const stage_times *t, pm_status st) {
    (void)p;
    if (!w->urgent) e->gpu_busy--;
    w->cur = NULL;
    j->gpu_us += t->t1 - t->t0;
    j->lock_wait_us += t->wait_us;
    e->tot_gpu_us += t->t1 - t->t0;
    if (st == PM_OK && e->be.key_bytes) key_recharge_locked(e, j->key);
}

static void gpu_free(pm_engine *e, void *out) { e->be.free_pending(e->be.self, out); }

static void gpu_keep(pm_engine *e, job *j, uint32_t p, void *out) {
    (void)e;
    j->parts[p].pending = out;
}

static int gpu_pass(pm_engine *e, worker_t *w, job *j, uint32_t p) {
    (void)w;
    if (engine_q_push(&e->q_fin, j, p) != 0) return -1;
    j->parts[p].stage = PART_FIN_Q;
    pthread_cond_signal(&e->cv_fin);
    return 0;
}

/* ---- finalize: r, s, the G2 MSM where the start phase left it, the proof; the job's last
 * partition goes on to the assembler */

static long fin_pick(pm_engine *e, const worker_t *w) {
    (void)w;
    return engine_q_best(&e->q_fin);
}

static void *fin_begin(pm_engine *e, worker_t *w, job *j, uint32_t p) {
    (void)w;
    part_t *pt = &j->parts[p];
    void *pending = pt->pending;
    pt->pending = NULL;
    pt->stage = PART_FIN;
    e->fin_busy++;
    return pending;
}

static pm_status fin_run(pm_engine *e, worker_t *w, job *j, keyent *k, uint32_t p, void *in, void **out,
                         stage_times *t, pm_error *err) {
    (void)w, (void)j, (void)p, (void)t;
    return e->be.finalize(e->be.self, k->key, in, out, err);
}

static void fin_end(pm_engine *e, worker_t *w, job *j, uint32_t p, const stage_times *t, pm_status st) {
    (void)w, (void)st;
    e->fin_busy--;
    j->fin_us += t->t1 - t->t0;
    e->tot_fin_us += t->t1 - t->t0;
    engine_window_leave_locked(e, j, p); /* finalized or failed: its window slot is free */
}

static void fin_free(pm_engine *e, void *out) { e->be.free_proof(e->be.self, out); }

static void fin_keep(pm_engine *e, job *j, uint32_t p, void *out) {
    (void)e;
    j->parts[p].proof = out;
    j->parts[p].stage = PART_DONE;
    j->n_accounted++;
    j->n_finalized++;
}

/* Assembler: runs in the finalizer thread that finished a job's last partition. Lock held on entry
 * and exit; released while verifying. */
static void assemble_locked(pm_engine *e, worker_t *w, job *j) {
    const void *key = j->key->key;
    uint32_t n = j->plan.n_partitions;
    j->assembling = 1;
    pthread_mutex_unlock(&e->mu);
    pm_error err;
    pm_error_clear(&err);
    pm_status st = PM_OK;
    char **json = calloc(n, sizeof *json);
    int64_t t0 = pm_now_us();
    if (!json) st = pm_error_set(&err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory assembling");
    for (uint32_t p = 0; st == PM_OK && p < n; p++) { /* partitions joined in order */
        st = e->be.verify(e->be.self, key, j->parts[p].proof, &err);
        if (st == PM_ERR_KEY) break; /* the key's fault, named with its file (groth16/key_check.h) */
        if (st != PM_OK) {
            char msg[sizeof err.msg];
            snprintf(msg, sizeof msg, "partition %u: proof failed verification: %.400s", p, err.msg);
            memcpy(err.msg, msg, sizeof msg);
            err.code = PM_ERR_INTERNAL;
            st = PM_ERR_INTERNAL;
            break;
        }
        json[p] = e->be.proof_json(e->be.self, j->parts[p].proof);
        if (!json[p]) st = pm_error_set(&err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    }
    int64_t t1 = pm_now_us();
    engine_trace_add(e, w->tid, ST_VERIFY, j->id, 0, t0, t1);
    pthread_mutex_lock(&e->mu);
    j->verify_us = t1 - t0;
    j->assembling = 0;
    if (st == PM_OK && !j->cancel) {
        j->proof_json = json;
        engine_job_finish_locked(e, j, PM_JOB_DONE);
    } else {
        if (json) {
            for (uint32_t p = 0; p < n; p++) free(json[p]);
            free(json);
        }
        if (st == PM_ERR_INTERNAL) e->verify_failures++;
        if (j->cancel) pm_error_set(&j->err, PM_ERR_CANCELLED, NULL, PM_NO_OFFSET, "cancelled");
        else j->err = err;
        engine_job_finish_locked(e, j, j->cancel ? PM_JOB_CANCELLED : PM_JOB_FAILED);
    }
    for (uint32_t p = 0; p < n; p++)
        if (j->parts[p].proof) {
            e->be.free_proof(e->be.self, j->parts[p].proof);
            j->parts[p].proof = NULL;
        }
    engine_admit_locked(e);
}

static int fin_pass(pm_engine *e, worker_t *w, job *j, uint32_t p) {
    (void)p;
    if (j->n_finalized == j->plan.n_partitions) assemble_locked(e, w, j);
    else engine_admit_locked(e);
    return 0;
}

static const stage_ops stages[] = {
    [W_SYNTH] = {.trace = ST_SYNTH, .permit_out = 1, .pick = synth_pick, .begin = synth_begin, .run = synth_run,
                 .end = synth_end, .free_out = synth_free, .keep = synth_keep, .pass = synth_pass},
    [W_GPU] = {.trace = ST_GPU, .permit_in = 1, .admit_after = 1, .pick = gpu_pick, .begin = gpu_begin,
               .run = gpu_run, .end = gpu_end, .free_out = gpu_free, .keep = gpu_keep, .pass = gpu_pass},
    [W_FIN] = {.trace = ST_FIN, .pick = fin_pick, .begin = fin_begin, .run = fin_run, .end = fin_end,
               .free_out = fin_free, .keep = fin_keep, .pass = fin_pass},
};

/* ---------------------------------------------------------------- the stage loop */

/* The synthesis (but the urgent one) and finalize threads run at cfg.synth_nice more than the process.
 * Linux keeps a nice value per thread: setpriority(PRIO_PROCESS, tid) sets this thread's, and threads
 * it creates later (its OpenMP team) inherit it. A GPU worker sleeps while its kernels and copies run
 * and wakes to issue the next ones (a streamed MSM waits on the card tens of times per chunk); with
 * every core busy with synthesis at the same nice value, each wake-up could wait for a time slice.
 * Raising a thread's own nice value needs no privilege. A failure only costs that ordering: logged
 * to stderr once per thread, never an error. */
static void stage_thread_nice(const pm_engine *e, const worker_t *w) {
    if (!e->cfg.synth_nice || w->kind == W_GPU || w->urgent) return;
#ifdef __linux__
    const id_t tid = (id_t)syscall(SYS_gettid);
    errno = 0;
    const int cur = getpriority(PRIO_PROCESS, tid);
    if (cur == -1 && errno) return;
    const int want = cur + (int)e->cfg.synth_nice > 19 ? 19 : cur + (int)e->cfg.synth_nice;
    if (setpriority(PRIO_PROCESS, tid, want) != 0)
        fprintf(stderr, "proofmill: %s: setpriority(%d): %s (the thread keeps nice %d)\n", w->name, want, strerror(errno), cur);
#endif
}

void *engine_stage_main(void *arg) {
    worker_t *w = arg;
    pm_engine *e = w->e;
    stage_thread_nice(e, w);
    const stage_ops *s = &stages[w->kind];
    queue_t *q = w->kind == W_SYNTH ? &e->q_synth : w->kind == W_GPU ? &e->q_gpu : &e->q_fin;
    pthread_cond_t *cv = w->kind == W_SYNTH ? &e->cv_synth : w->kind == W_GPU ? &e->cv_gpu : &e->cv_fin;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        if (e->stop) break;
        long bi = s->pick(e, w);
        if (bi < 0) {
            pthread_cond_wait(cv, &e->mu);
            continue;
        }
        item_t it = engine_q_take(q, bi);
        job *j = it.j;
        const uint32_t p = it.part;
        if (s->permit_in) engine_synth_permit_locked(e, 0); /* this worker took the partition */
        if (j->cancel || j->failed) { /* defensive: aborted jobs' items are removed eagerly */
            engine_part_drop_locked(e, j, p);
            engine_job_maybe_end_locked(e, j);
            continue;
        }
        if (s->permit_out) engine_synth_permit_locked(e, 1);
        void *in = s->begin(e, w, j, p);
        keyent *k = j->key;
        pthread_mutex_unlock(&e->mu);

        pm_error err;
        pm_error_clear(&err);
        void *out = NULL;
        stage_times t = {.t0 = pm_now_us()};
        pm_status st = s->run(e, w, j, k, p, in, &out, &t, &err);
        t.t1 = pm_now_us();
        engine_trace_add(e, w->tid, s->trace, j->id, p, t.t0, t.t1);

        pthread_mutex_lock(&e->mu);
        s->end(e, w, j, p, &t, st);
        int passed = 0, aborted = 0;
        if (st != PM_OK) {
            if (out) s->free_out(e, out);
        } else {
            s->keep(e, j, p, out);
            if (j->cancel || j->failed) aborted = 1; /* meanwhile: the partition fails with its job */
            else if (!(passed = s->pass(e, w, j, p) == 0))
                pm_error_set(&err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory queueing partition");
        }
        /* a wait the shutdown cancelled (a key's a, b, c pool: close_key) is not the job's failure:
         * pm_engine_destroy cancels the job */
        if (st == PM_ERR_CANCELLED && e->stop) aborted = 1;
        if (!passed) {
            if (s->permit_out) engine_synth_permit_locked(e, 0);
            engine_fail_locked(e, j, p, aborted ? NULL : &err);
        }
        if (s->admit_after) engine_admit_locked(e);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* ---------------------------------------------------------------- housekeeper, notifier */

/* Housekeeper: idle-key eviction, finished-job reaping, admission retries. */
void *engine_house_main(void *arg) {
    pm_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    while (!e->stop) {
        struct timespec ts;
        pm_deadline_us(&ts, 1000000);
        pthread_cond_timedwait(&e->cv_house, &e->mu, &ts);
        if (e->stop) break;
        int64_t t = pm_now_us();
        if (e->cfg.key_idle_evict_s) {
            for (keyent *k = e->keys, *nx; k; k = nx) {
                nx = k->next;
                if (k->refs == 0 && !k->pinned && k->state != KEY_LOADING && k->prio_max < PM_PRIO_CRITICAL &&
                    t - k->last_used_us >= (int64_t)e->cfg.key_idle_evict_s * 1000000)
                    engine_key_unlink_free(e, k);
            }
        }
        for (job **pp = &e->jobs; *pp;) {
            job *j = *pp;
            if (j->state >= PM_JOB_DONE && t - j->t_done >= (int64_t)e->cfg.job_retain_s * 1000000) {
                *pp = j->next;
                engine_job_free(e, j);
            } else {
                pp = &j->next;
            }
        }
        engine_admit_locked(e);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* Notifier: passes completions to cfg.on_complete in order, without the engine lock. */
void *engine_notify_main(void *arg) {
    pm_engine *e = arg;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        if (e->n_notes == 0) {
            if (e->stop) break;
            pthread_cond_wait(&e->cv_notify, &e->mu);
            continue;
        }
        done_note n = e->notes[0];
        memmove(e->notes, e->notes + 1, (e->n_notes - 1) * sizeof *e->notes);
        e->n_notes--;
        pthread_mutex_unlock(&e->mu);
        e->cfg.on_complete(e->cfg.on_complete_arg, n.id, n.st);
        pthread_mutex_lock(&e->mu);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}
