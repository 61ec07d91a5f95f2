/*
 * engine_job.c — a job's life inside the engine (engine lock held everywhere): its window slots,
 * a partition leaving the pipeline without a proof, the job's final state, and the one failure
 * path every stage takes (engine_fail_locked). The design: engine.c's essay, "Cancel and failure"
 * and "Memory budget".
 */
#include "engine/engine_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/clock.h"

void engine_job_free(pm_engine *e, job *j) {
    for (uint32_t p = 0; j->parts && p < j->plan.n_partitions; p++) {
        part_t *pt = &j->parts[p];
        if (pt->prepared && e->be.free_prepared) e->be.free_prepared(e->be.self, pt->prepared);
        if (pt->pending && e->be.free_pending) e->be.free_pending(e->be.self, pt->pending);
        if (pt->proof && e->be.free_proof) e->be.free_proof(e->be.self, pt->proof);
    }
    if (j->proof_json) {
        for (uint32_t p = 0; p < j->plan.n_partitions; p++) free(j->proof_json[p]);
        free(j->proof_json);
    }
    for (size_t i = 0; i < j->n_inputs; i++) {
        free((char *)j->inputs[i].path);
        free((uint8_t *)j->inputs[i].bytes);
        free((char *)j->inputs[i].name);
    }
    free(j->inputs);
    free(j->parts);
    free(j->key_path);
    free(j);
}

static void job_fail_locked(job *j, const pm_error *err) {
    if (j->failed || j->cancel) return;
    j->failed = 1;
    j->err = *err;
    if (j->err.code == PM_OK) j->err.code = PM_ERR_INTERNAL;
}

const double pm_proof_hist_le[PM_PROOF_HIST_BUCKETS - 1] = {0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600};

void engine_proof_hist_add(pm_engine *e, const char *kind, double seconds) {
    pm_proof_hist *h = NULL;
    for (size_t i = 0; i < e->n_proof_hist && !h; i++)
        if (!strcmp(e->proof_hist[i].kind, kind)) h = &e->proof_hist[i];
    if (!h) {
        if (e->n_proof_hist == PM_PROOF_HIST_KINDS) return;
        h = &e->proof_hist[e->n_proof_hist++];
        snprintf(h->kind, sizeof h->kind, "%s", kind);
    }
    for (int b = 0; b < PM_PROOF_HIST_BUCKETS; b++)
        if (b == PM_PROOF_HIST_BUCKETS - 1 || seconds <= pm_proof_hist_le[b]) h->bucket[b]++;
    h->sum_s += seconds;
    h->count++;
}

/* Final state reached: release everything still charged, notify. Returns 1 if finished now. */
int engine_job_finish_locked(pm_engine *e, job *j, pm_job_state st) {
    if (j->state >= PM_JOB_DONE) return 0;
    j->state = st;
    j->t_done = pm_now_us();
    if (j->t_first == 0) j->t_first = j->t_done;
    engine_budget_release(e, (uint64_t)j->window_charged * j->slot_bytes - j->window_credit);
    j->window_charged = 0;
    j->window_credit = 0;
    if (j->inline_admitted) engine_budget_release(e, j->reserved_other);
    else if (e->queued_inline >= j->reserved_other) e->queued_inline -= j->reserved_other;
    j->reserved_other = 0;
    if (j->key) {
        engine_key_unref(e, j->key);
        j->key = NULL;
    }
    if (st == PM_JOB_DONE) {
        e->n_done++;
        engine_proof_hist_add(e, j->kind, (j->t_done - j->t_submit) / 1e6);
    } else if (st == PM_JOB_FAILED)
        e->n_failed++;
    else e->n_cancelled++;
    e->tot_queue_us += j->t_first - j->t_submit;
    if (e->n_running) e->n_running--;
    pthread_cond_broadcast(&e->cv_done);
    pthread_cond_broadcast(&e->cv_house); /* admission may proceed */
    if (e->cfg.on_complete) {
        if (e->n_notes == e->cap_notes) {
            size_t nc = e->cap_notes ? 2 * e->cap_notes : 64;
            done_note *nn = realloc(e->notes, nc * sizeof *nn);
            if (nn) {
                e->notes = nn;
                e->cap_notes = nc;
            }
        }
        if (e->n_notes < e->cap_notes) e->notes[e->n_notes++] = (done_note){j->id, st};
        pthread_cond_signal(&e->cv_notify);
    }
    return 1;
}

/* Partition p gives its window slot back (finalized or dropped); the job's charge shrinks to the
 * slots its remaining partitions can still use, and synthesis may take its next partition. */
void engine_window_leave_locked(pm_engine *e, job *j, uint32_t p) {
    part_t *pt = &j->parts[p];
    if (!pt->in_window) return;
    pt->in_window = 0;
    j->n_in_window--;
    j->n_left_window++;
    uint32_t left = j->plan.n_partitions - j->n_left_window; /* partitions still to pass through */
    uint32_t want = left < j->window ? left : j->window;
    if (want < j->n_in_window) want = j->n_in_window;
    if (j->window_charged > want) {
        engine_budget_release(e, (uint64_t)(j->window_charged - want) * j->slot_bytes);
        j->window_charged = want;
    }
    pthread_cond_broadcast(&e->cv_synth);
}

/* A partition leaves the pipeline without a proof (cancel / failure). */
void engine_part_drop_locked(pm_engine *e, job *j, uint32_t p) {
    part_t *pt = &j->parts[p];
    if (pt->stage == PART_DONE || pt->stage == PART_DROPPED) return;
    if (pt->prepared) {
        e->be.free_prepared(e->be.self, pt->prepared);
        pt->prepared = NULL;
    }
    if (pt->pending) {
        e->be.free_pending(e->be.self, pt->pending);
        pt->pending = NULL;
    }
    engine_window_leave_locked(e, j, p);
    pt->stage = PART_DROPPED;
    j->n_accounted++;
}

static void drop_from_queue(pm_engine *e, job *j, uint32_t p) { engine_part_drop_locked(e, j, p); }
static void drop_from_gpu_queue(pm_engine *e, job *j, uint32_t p) {
    engine_synth_permit_locked(e, 0); /* a partition waiting for a GPU worker holds a permit */
    engine_part_drop_locked(e, j, p);
}

/* If every partition of a failed/cancelled job is accounted for, finish it. */
void engine_job_maybe_end_locked(pm_engine *e, job *j) {
    if (j->n_accounted < j->plan.n_partitions || j->assembling) return;
    if (j->cancel) {
        pm_error_set(&j->err, PM_ERR_CANCELLED, NULL, PM_NO_OFFSET, "cancelled");
        engine_job_finish_locked(e, j, PM_JOB_CANCELLED);
    } else if (j->failed) {
        engine_job_finish_locked(e, j, PM_JOB_FAILED);
    }
    engine_admit_locked(e);
}

/* Drop all queued items of a job that will not complete; in-stage items drop at their boundary. */
static void job_abort_queued_locked(pm_engine *e, job *j) {
    engine_q_remove_job(e, &e->q_synth, j, drop_from_queue);
    engine_q_remove_job(e, &e->q_gpu, j, drop_from_gpu_queue);
    engine_q_remove_job(e, &e->q_fin, j, drop_from_queue);
    for (uint32_t p = 0; p < j->plan.n_partitions; p++)
        if (j->parts[p].stage == PART_WAIT) engine_part_drop_locked(e, j, p);
    pthread_cond_broadcast(&e->cv_synth);
    engine_job_maybe_end_locked(e, j);
}

void engine_fail_locked(pm_engine *e, job *j, uint32_t part, const pm_error *err) {
    if (err) job_fail_locked(j, err);
    if (part != ENGINE_NO_PART) engine_part_drop_locked(e, j, part);
    job_abort_queued_locked(e, j);
}
