/*
 * srs_cache.c — the SRS cache (one entry per key, refcounted by admitted jobs, loaded once by the
 * first synthesis worker that needs it, pinned when preloaded, evicted LRU under budget pressure
 * or after key_idle_evict_s) and the memory budget it shares with the jobs (design: engine.c).
 */
#include <inttypes.h>
#include <stdio.h>

#include "engine/engine_internal.h"
#include "util/clock.h"

void engine_budget_charge(pm_engine *e, uint64_t bytes) {
    e->reserved += bytes;
    if (e->reserved > e->reserved_peak) e->reserved_peak = e->reserved;
}

void engine_budget_release(pm_engine *e, uint64_t bytes) {
    e->reserved = bytes > e->reserved ? 0 : e->reserved - bytes;
}

keyent *engine_key_find(pm_engine *e, const char *kind, const char *path) {
    for (keyent *k = e->keys; k; k = k->next)
        if (strcmp(k->path, path) == 0 && (!kind || strcmp(k->kind, kind) == 0)) return k;
    return NULL;
}

keyent *engine_key_new(pm_engine *e, const char *kind, const char *path, uint64_t bytes) {
    keyent *k = calloc(1, sizeof *k);
    char *p = engine_strdup(path);
    if (!k || !p) {
        free(k);
        free(p);
        return NULL;
    }
    snprintf(k->kind, sizeof k->kind, "%s", kind ? kind : "");
    k->path = p;
    k->bytes = bytes;
    k->state = KEY_EMPTY;
    pm_task_init(&k->progress);
    k->last_used_us = pm_now_us();
    k->next = e->keys;
    e->keys = k;
    engine_budget_charge(e, bytes);
    return k;
}

void engine_key_unlink_free(pm_engine *e, keyent *k) {
    for (keyent **pp = &e->keys; *pp; pp = &(*pp)->next)
        if (*pp == k) {
            *pp = k->next;
            break;
        }
    engine_budget_release(e, k->bytes);
    if (k->key && e->be.free_key) e->be.free_key(e->be.self, k->key);
    free(k->path);
    free(k);
}

/* Evict idle, unpinned, ready keys other than `keep` (LRU first) until `need` more bytes fit.
 * Returns 1 if they fit. */
int engine_key_make_room(pm_engine *e, uint64_t need, const keyent *keep, pm_priority prio) {
    while (e->reserved + need > e->budget) {
        keyent *victim = NULL;
        for (keyent *k = e->keys; k; k = k->next) {
            if (k == keep || k->refs || k->pinned || k->state == KEY_LOADING) continue;
            /* a key of a more urgent job than the asker goes only when nothing runs: otherwise the
             * asker waits for the running jobs' memory (a WinningPoSt key evicted to admit a PoRep
             * partition earlier costs the next WinningPoSt its load and upload) */
            if (k->prio_max > prio && e->n_running) continue;
            if (!victim || k->prio_max < victim->prio_max ||
                (k->prio_max == victim->prio_max && k->last_used_us < victim->last_used_us))
                victim = k;
        }
        if (!victim) return 0;
        engine_key_unlink_free(e, victim);
    }
    return 1;
}

void engine_key_unref(pm_engine *e, keyent *k) {
    if (!k) return;
    if (k->refs) k->refs--;
    k->last_used_us = pm_now_us();
    if (k->refs == 0 && k->state == KEY_FAILED) engine_key_unlink_free(e, k);
    pthread_cond_broadcast(&e->cv_house);
}

/* Block until k is loaded (loading it here if nobody else is). Engine lock NOT held on entry/exit.
 * *waited_us = time spent loading or waiting. */
pm_status engine_key_ensure(pm_engine *e, keyent *k, unsigned tid, uint64_t jid, int64_t *waited_us,
                            pm_error *err) {
    int64_t t0 = pm_now_us();
    pthread_mutex_lock(&e->mu);
    while (k->state == KEY_LOADING) pthread_cond_wait(&e->cv_keys, &e->mu);
    if (k->state == KEY_READY) {
        k->hits++;
        pthread_mutex_unlock(&e->mu);
        *waited_us = pm_now_us() - t0;
        return PM_OK;
    }
    if (k->state == KEY_FAILED) {
        if (err) *err = k->err;
        pthread_mutex_unlock(&e->mu);
        *waited_us = pm_now_us() - t0;
        return k->err.code ? k->err.code : PM_ERR_INTERNAL;
    }
    k->state = KEY_LOADING;
    char *path = engine_strdup(k->path);
    char kind[sizeof k->kind];
    memcpy(kind, k->kind, sizeof kind);
    pthread_mutex_unlock(&e->mu);

    void *key = NULL;
    uint64_t bytes = 0;
    pm_error lerr;
    pm_error_clear(&lerr);
    /* the library's stages of this thread (reading the parameters, ...) go to the entry's progress */
    pm_task_stage(&k->progress, "loading", 0, -1);
    pm_task_progress *was = pm_progress_bind(&k->progress);
    pm_status st = path ? e->be.load_key(e->be.self, kind, path, &key, &bytes, &lerr)
                        : pm_error_set(&lerr, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    pm_progress_bind(was);
    pm_task_idle(&k->progress);
    free(path);
    int64_t t1 = pm_now_us();
    engine_trace_add(e, tid, ST_SRS, jid, 0, t0, t1);

    pthread_mutex_lock(&e->mu);
    /* charge what is really resident instead of the estimate (nothing after a failure) */
    engine_budget_release(e, k->bytes);
    k->bytes = st == PM_OK ? bytes : 0;
    engine_budget_charge(e, k->bytes);
    /* the load transient is gone: the jobs that overlapped their windows with it are charged in
     * full now */
    for (job *j = e->jobs; j; j = j->next)
        if (j->key == k && j->window_credit) {
            engine_budget_charge(e, j->window_credit);
            j->window_credit = 0;
        }
    if (st == PM_OK) {
        k->key = key;
        k->state = KEY_READY;
        k->loads++;
        /* loaded after pm_engine_destroy woke the keys it knew: what waits in it must not wait for
         * GPU workers that have stopped */
        if (e->stop && e->be.close_key) e->be.close_key(e->be.self, key);
    } else {
        k->state = KEY_FAILED;
        k->err = lerr;
        if (err) *err = lerr;
    }
    k->last_used_us = t1;
    pthread_cond_broadcast(&e->cv_keys);
    pthread_mutex_unlock(&e->mu);
    *waited_us = t1 - t0;
    return st;
}

pm_status pm_engine_preload_key(pm_engine *e, const char *kind, const char *path, pm_error *err) {
    if (!path || !path[0]) return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "no key path");
    /* the key's size from a plan without inputs (its header), or 0 when the backend cannot tell */
    pm_job_plan plan;
    memset(&plan, 0, sizeof plan);
    pm_error perr;
    pm_error_clear(&perr);
    pm_job_request rq = {.kind = kind, .key_path = path};
    uint64_t est = 0;
    pm_status pst = e->be.plan(e->be.self, &rq, &plan, &perr);
    if (pst == PM_OK) est = plan.key_bytes + plan.key_load_bytes;
    else if (perr.code == PM_ERR_IO || pst == PM_ERR_ARG) {
        if (err) *err = perr;
        return perr.code ? perr.code : pst;
    }
    const char *kname = pst == PM_OK ? plan.kind : (kind ? kind : "");
    pthread_mutex_lock(&e->mu);
    keyent *k = engine_key_find(e, kname, path);
    if (k && k->state == KEY_FAILED && k->refs == 0) {
        engine_key_unlink_free(e, k);
        k = NULL;
    }
    if (!k) {
        if (e->reserved + est > e->budget && !engine_key_make_room(e, est, NULL, PM_PRIO_CRITICAL)) {
            pthread_mutex_unlock(&e->mu);
            return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET,
                                "key needs %" PRIu64 " bytes, budget has %" PRIu64 " free", est,
                                e->budget > e->reserved ? e->budget - e->reserved : 0);
        }
        if (!(k = engine_key_new(e, kname, path, est))) {
            pthread_mutex_unlock(&e->mu);
            return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
        }
    }
    k->pinned = 1;
    k->refs++; /* hold it while loading */
    pthread_mutex_unlock(&e->mu);
    int64_t waited;
    pm_status st = engine_key_ensure(e, k, 0, 0, &waited, err);
    pthread_mutex_lock(&e->mu);
    if (st != PM_OK) k->pinned = 0;
    engine_key_unref(e, k);
    engine_admit_locked(e);
    pthread_mutex_unlock(&e->mu);
    return st;
}

pm_status pm_engine_evict_key(pm_engine *e, const char *kind, const char *path, pm_error *err) {
    pthread_mutex_lock(&e->mu);
    keyent *k = path ? engine_key_find(e, kind, path) : NULL;
    if (!k) {
        pthread_mutex_unlock(&e->mu);
        return pm_error_set(err, PM_ERR_ARG, path, PM_NO_OFFSET, "key is not cached");
    }
    k->pinned = 0;
    if (k->refs || k->state == KEY_LOADING) {
        pthread_mutex_unlock(&e->mu);
        return pm_error_set(err, PM_ERR_MISMATCH, path, PM_NO_OFFSET,
                            "key is in use by %u job(s); unpinned, it is dropped when idle", k->refs);
    }
    engine_key_unlink_free(e, k);
    engine_admit_locked(e);
    pthread_mutex_unlock(&e->mu);
    return PM_OK;
}
