/*
 * engine_device.c — the device interlock: the kernel region of each device (pm_gpu_slot_enter /
 * leave / yield, backend.h), which a device's GPU workers share. A worker stages its partition
 * outside the region and holds it only around its kernels (Phase 8 of the seeds' pipeline);
 * waiters enter by priority, a critical partition may take the region between another one's MSMs
 * (the urgent lane), and a worker never waits for the engine mutex while it holds the region.
 * Locking: each device's own lock (device_t.lock), never held with the engine mutex.
 */
#include "engine/engine_internal.h"

#include <pthread.h>
#include <stdatomic.h>

#include "util/clock.h"

int pm_gpu_slot_device(const pm_gpu_slot *s) { return s->dev->id; }

size_t pm_gpu_slot_devices(const pm_gpu_slot *s, const int **devices) {
    *devices = s->e->cfg.devices;
    return s->e->cfg.n_devices;
}

/* The kernel-region interlock. A waiter enters when the region is free and no other waiter goes
 * first: a waiter whose key a resuming waiter (one that yielded mid-partition) holds never goes
 * before that resuming waiter (the key's device buffers, e.g. its NTT domain, are mid-proof);
 * among the others the higher priority goes first, then a resuming waiter before a new one.
 * (dev->lock held) */
static int slot_blocked(const device_t *d, const slot_waiter *me) {
    for (const slot_waiter *w = d->waiters; w; w = w->next)
        if (w != me && w->resuming && me->key && w->key == me->key) return 1;
    return 0;
}

static int slot_may_enter(const device_t *d, const slot_waiter *me) {
    if (d->held || slot_blocked(d, me)) return 0;
    for (const slot_waiter *w = d->waiters; w; w = w->next) {
        if (w == me || slot_blocked(d, w)) continue;
        if (w->prio > me->prio || (w->prio == me->prio && w->resuming && !me->resuming)) return 0;
    }
    return 1;
}

/* wait for the region (dev->lock held on entry and exit) */
static void slot_wait_locked(pm_gpu_slot *s, int resuming) {
    device_t *d = s->dev;
    slot_waiter me = {.next = d->waiters, .prio = s->prio, .key = s->key, .resuming = resuming};
    d->waiters = &me;
    atomic_fetch_add(&d->lock_waiters, 1); /* /v1/status: work waiting for the device */
    while (!slot_may_enter(d, &me)) pthread_cond_wait(&d->cv, &d->lock);
    atomic_fetch_sub(&d->lock_waiters, 1);
    for (slot_waiter **pp = &d->waiters; *pp; pp = &(*pp)->next)
        if (*pp == &me) {
            *pp = me.next;
            break;
        }
    d->held = 1;
    d->holder_prio = s->prio;
    d->holder_key = s->key;
    pthread_cond_broadcast(&d->cv); /* the waiter list changed: another may be first now */
}

static void slot_inside(pm_gpu_slot *s) {
    s->t_enter = pm_now_us();
    s->wait_us += s->t_enter - s->t_req;
    s->inside = 1;
    atomic_store(&s->dev->busy, 1);
    atomic_store(&s->dev->kernel_job, s->job_id);
}

/* leave the region (dev->lock held) */
static void slot_outside_locked(pm_gpu_slot *s, int64_t t) {
    atomic_store(&s->dev->kernel_job, 0);
    atomic_store(&s->dev->busy, 0);
    atomic_fetch_add(&s->dev->kernel_us, t - s->t_enter);
    s->inside = 0;
    s->dev->held = 0;
    pthread_cond_broadcast(&s->dev->cv);
}

void pm_gpu_slot_enter(pm_gpu_slot *s) {
    if (s->inside) return;
    s->t_req = pm_now_us();
    pthread_mutex_lock(&s->dev->lock);
    slot_wait_locked(s, 0);
    pthread_mutex_unlock(&s->dev->lock);
    slot_inside(s);
}

void pm_gpu_slot_leave(pm_gpu_slot *s) {
    if (!s->inside) return;
    int64_t t = pm_now_us();
    pthread_mutex_lock(&s->dev->lock);
    slot_outside_locked(s, t);
    pthread_mutex_unlock(&s->dev->lock);
    engine_trace_add(s->e, s->tid, ST_KERNEL, s->job_id, s->part, s->t_enter, t);
}

/* Outside the region: wait while a worker of higher priority with another key is inside. The
 * priority compared is the higher of the partition's and its key's (prio_max: the most urgent job
 * that used the key), since the caller may hold the key's first-use setup that a more urgent
 * partition of the same key then waits for outside the region (priority inheritance). The time
 * waited counts as device wait (wait_us). */
static int slot_defer(pm_gpu_slot *s) {
    device_t *d = s->dev;
    const keyent *k = s->key;
    pm_priority me = s->prio;
    if (k) {
        const pm_priority kp = __atomic_load_n(&k->prio_max, __ATOMIC_RELAXED);
        if (kp > me) me = kp;
    }
    int waited = 0;
    const int64_t t0 = pm_now_us();
    pthread_mutex_lock(&d->lock);
    while (d->held && d->holder_prio > me && !(s->key && d->holder_key == s->key)) {
        pthread_cond_wait(&d->cv, &d->lock);
        waited = 1;
    }
    pthread_mutex_unlock(&d->lock);
    if (waited) s->wait_us += pm_now_us() - t0;
    return waited;
}

int pm_gpu_slot_yield(pm_gpu_slot *s) {
    if (!s || !s->e->cfg.urgent_lane) return 0;
    if (!s->inside) return slot_defer(s);
    device_t *d = s->dev;
    pthread_mutex_lock(&d->lock);
    int urgent = 0;
    for (const slot_waiter *w = d->waiters; w && !urgent; w = w->next)
        urgent = w->prio > s->prio && !(s->key && w->key == s->key) && !slot_blocked(d, w);
    if (!urgent) {
        pthread_mutex_unlock(&d->lock);
        return 0;
    }
    int64_t t = pm_now_us();
    slot_outside_locked(s, t);
    engine_trace_add(s->e, s->tid, ST_KERNEL, s->job_id, s->part, s->t_enter, t);
    s->t_req = t;
    slot_wait_locked(s, 1);
    pthread_mutex_unlock(&d->lock);
    slot_inside(s);
    return 1;
}