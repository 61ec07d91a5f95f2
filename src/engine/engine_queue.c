/*
 * engine_queue.c — the stage queues, the synthesis permits and admission (the design: engine.c's
 * essay, "Ordering guarantee" and "Memory budget").
 *
 * Every queue is a small unordered array searched for its best item, (priority desc, submit
 * sequence asc, partition asc): queues hold the partitions of jobs in flight, which the budget
 * keeps few. The synthesis permits count the partitions between synthesis start and a GPU
 * worker's take (synthesizing, or synthesized and waiting in the GPU queue); the synthesis pool
 * takes no partition while synth_lookahead are out. Admission moves the head of the pending queue
 * into the pipeline while it fits the memory budget. Everything here runs with e->mu held.
 */
#include "engine/engine_internal.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- queues */

static int item_before(const item_t *a, const item_t *b) {
    if (a->j->prio != b->j->prio) return a->j->prio > b->j->prio;
    if (a->j->seq != b->j->seq) return a->j->seq < b->j->seq;
    return a->part < b->part;
}

int engine_q_push(queue_t *q, job *j, uint32_t part) {
    if (q->n == q->cap) {
        size_t nc = q->cap ? q->cap * 2 : 64;
        item_t *nv = realloc(q->v, nc * sizeof *nv);
        if (!nv) return -1;
        q->v = nv;
        q->cap = nc;
    }
    q->v[q->n++] = (item_t){j, part};
    return 0;
}

/* Index of the best item, or -1 when empty. */
long engine_q_best(const queue_t *q) {
    long best = -1;
    for (size_t i = 0; i < q->n; i++)
        if (best < 0 || item_before(&q->v[i], &q->v[best])) best = (long)i;
    return best;
}

/* The best item whose job has a free window slot (synthesis), or -1. A job at its window waits
 * for one of its partitions to be finalized; other jobs' partitions go ahead meanwhile. */
long engine_q_best_in_window(const queue_t *q) {
    long best = -1;
    for (size_t i = 0; i < q->n; i++) {
        const job *j = q->v[i].j;
        if (j->n_in_window >= j->window && !j->cancel && !j->failed) continue;
        if (best < 0 || item_before(&q->v[i], &q->v[best])) best = (long)i;
    }
    return best;
}

/* The best critical item (the urgent lane's), in its job's window for synthesis (in_window), or -1. */
long engine_q_best_critical(const queue_t *q, int in_window) {
    long best = -1;
    for (size_t i = 0; i < q->n; i++) {
        const job *j = q->v[i].j;
        if (j->prio != PM_PRIO_CRITICAL) continue;
        if (in_window && j->n_in_window >= j->window && !j->cancel && !j->failed) continue;
        if (best < 0 || item_before(&q->v[i], &q->v[best])) best = (long)i;
    }
    return best;
}

item_t engine_q_take(queue_t *q, long i) {
    item_t it = q->v[i];
    q->v[i] = q->v[--q->n];
    return it;
}

/* Remove every item of job j from q, calling fn on each. */
void engine_q_remove_job(pm_engine *e, queue_t *q, job *j, void (*fn)(pm_engine *, job *, uint32_t)) {
    for (size_t i = 0; i < q->n;) {
        if (q->v[i].j == j) {
            item_t it = engine_q_take(q, (long)i);
            if (fn) fn(e, it.j, it.part);
        } else {
            i++;
        }
    }
}
/* ---------------------------------------------------------------- synthesis permits */

void engine_synth_permit_locked(pm_engine *e, int take) {
    if (take) {
        e->synth_inflight++;
        return;
    }
    if (e->synth_inflight) e->synth_inflight--;
    pthread_cond_broadcast(&e->cv_synth); /* a synthesis worker may take the next partition */
}

/* ---------------------------------------------------------------- admission */

/* Partitions of one job that keep every stage busy at once: the synthesis lookahead (synthesizing
 * or synthesized, not yet taken by a GPU worker), one per GPU worker and one per finalizer (the
 * finalize queue itself is unbounded: a partition keeps its slot until it is finalized, so the
 * window also caps what waits there). */
uint32_t engine_pipeline_cap(const pm_engine *e) {
    uint64_t c = (uint64_t)e->cfg.synth_lookahead + (uint64_t)e->cfg.n_devices * e->cfg.workers_per_device +
                 e->cfg.finalize_threads;
    return c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

uint32_t pm_engine_job_window(uint64_t *need, const pm_job_plan *plan, uint32_t pipeline_cap, uint64_t budget,
                              uint64_t held, int key_resident) {
    const uint64_t slot = plan->part_peak_bytes > plan->part_pending_bytes ? plan->part_peak_bytes
                                                                           : plan->part_pending_bytes;
    /* the job's partitions start only once its key is loaded: the load transient and the window
     * never coexist, so the job needs key + max(load, window) (the credit, engine_key_ensure) */
    const uint64_t key = key_resident ? 0 : plan->key_bytes, load = key_resident ? 0 : plan->key_load_bytes;
    uint32_t w = plan->n_partitions < pipeline_cap ? plan->n_partitions : pipeline_cap;
    if (w < 1) w = 1;
    const uint64_t fixed = key + held;
    if (fixed + slot > budget || fixed + load > budget) w = 0; /* not even one partition beside the key */
    else if (slot && (budget - fixed) / slot < w) w = (uint32_t)((budget - fixed) / slot);
    const uint64_t win = (uint64_t)(w ? w : 1) * slot;
    if (need) *need = fixed + (win > load ? win : load);
    return w;
}

/* Admit queued jobs in order while the head fits the budget. */
void engine_admit_locked(pm_engine *e) {
    while (!e->stop) {
        long bi = engine_q_best(&e->pending);
        if (bi < 0) return;
        job *j = e->pending.v[bi].j;
        keyent *k = engine_key_find(e, j->kind, j->key_path);
        uint64_t key_need = 0;
        if (!k || k->state == KEY_FAILED)
            key_need = j->plan.key_bytes + j->plan.key_load_bytes;
        /* a key loaded for this job: its window is charged only beyond the load transient until
         * the load returns (the partitions wait for the key; engine_key_ensure charges the rest); the
         * job's inline inputs move from the queued-inline bound to the budget at admission, so the
         * budget holds whatever mix of inline and path inputs is queued (#17) */
        const uint64_t win = (uint64_t)j->window * j->slot_bytes;
        const uint64_t credit = key_need ? (j->plan.key_load_bytes < win ? j->plan.key_load_bytes : win) : 0;
        uint64_t need = win - credit + key_need + j->reserved_other;
        if (e->reserved + need > e->budget && !engine_key_make_room(e, need, k, j->prio)) return; /* head waits */
        k = engine_key_find(e, j->kind, j->key_path); /* make_room may have evicted an idle entry */
        if (!k || k->state == KEY_FAILED) {
            /* charged: resident + load transient until the load returns */
            if (!(k = engine_key_new(e, j->kind, j->key_path, key_need))) return; /* retry on the next event */
        }
        k->refs++;
        if (j->prio > k->prio_max) __atomic_store_n(&k->prio_max, j->prio, __ATOMIC_RELAXED); /* slot_defer reads it */
        j->key = k;
        engine_q_take(&e->pending, bi);
        j->state = PM_JOB_RUNNING;
        e->n_running++;
        j->window_charged = j->window;
        j->window_credit = credit;
        engine_budget_charge(e, win - credit);
        e->queued_inline -= j->reserved_other;
        engine_budget_charge(e, j->reserved_other);
        j->inline_admitted = 1;
        int oom = 0;
        for (uint32_t p = 0; p < j->plan.n_partitions; p++) {
            if (engine_q_push(&e->q_synth, j, p) != 0) {
                oom = 1;
                break;
            }
            j->parts[p].stage = PART_SYNTH_Q;
        }
        if (oom) {
            pm_error er;
            pm_error_set(&er, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory queueing partitions");
            engine_fail_locked(e, j, ENGINE_NO_PART, &er);
            continue;
        }
        pthread_cond_broadcast(&e->cv_synth);
    }
}
