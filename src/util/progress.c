/* progress.c — see progress.h. */
#include "util/progress.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/settings.h"

static _Atomic(const char *) g_stage;
static _Atomic(const char *) g_unit;
static atomic_uint_fast64_t g_total, g_done;
static atomic_uint g_k, g_n;

static struct {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int running, stop, tty;
    long interval_ms;
    double t0;
    char command[64];
} P = {.mu = PTHREAD_MUTEX_INITIALIZER};

static _Thread_local pm_task_progress *t_task;

void pm_task_init(pm_task_progress *t) {
    __atomic_store_n(&t->stage, (const char *)NULL, __ATOMIC_RELEASE);
    __atomic_store_n(&t->done, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&t->total, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&t->device, -1, __ATOMIC_RELAXED);
}

void pm_task_stage(pm_task_progress *t, const char *stage, uint64_t total, int device) {
    if (!t) return;
    __atomic_store_n(&t->stage, (const char *)NULL, __ATOMIC_RELEASE); /* readers see no half-made stage */
    __atomic_store_n(&t->done, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&t->total, total, __ATOMIC_RELAXED);
    __atomic_store_n(&t->device, device, __ATOMIC_RELAXED);
    __atomic_store_n(&t->stage, stage, __ATOMIC_RELEASE);
}

void pm_task_add(pm_task_progress *t, uint64_t n) {
    if (!t) return;
    const char *stage = __atomic_load_n(&t->stage, __ATOMIC_ACQUIRE);
    uint64_t total = __atomic_load_n(&t->total, __ATOMIC_RELAXED);
    uint64_t done = __atomic_add_fetch(&t->done, n, __ATOMIC_RELAXED);
    if (stage && total && done >= total) /* complete: idle, unless a newer stage began */
        __atomic_compare_exchange_n(&t->stage, &stage, (const char *)NULL, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

void pm_task_idle(pm_task_progress *t) {
    if (t) __atomic_store_n(&t->stage, (const char *)NULL, __ATOMIC_RELEASE);
}

const char *pm_task_get(pm_task_progress *t, uint64_t *done, uint64_t *total, int *device) {
    const char *stage = __atomic_load_n(&t->stage, __ATOMIC_ACQUIRE);
    uint64_t tot = __atomic_load_n(&t->total, __ATOMIC_RELAXED);
    uint64_t d = __atomic_load_n(&t->done, __ATOMIC_RELAXED);
    if (tot && d > tot) d = tot;
    if (done) *done = stage ? d : 0;
    if (total) *total = stage ? tot : 0;
    if (device) *device = stage ? __atomic_load_n(&t->device, __ATOMIC_RELAXED) : -1;
    return stage;
}

pm_task_progress *pm_progress_bind(pm_task_progress *t) {
    pm_task_progress *old = t_task;
    t_task = t;
    return old;
}

pm_task_progress *pm_progress_bound(void) { return t_task; }

void pm_progress_stage(const char *stage, uint64_t total) {
    atomic_store_explicit(&g_done, 0, memory_order_relaxed);
    atomic_store_explicit(&g_total, total, memory_order_relaxed);
    atomic_store_explicit(&g_stage, stage, memory_order_release);
    pm_task_stage(t_task, stage, total, -1);
}

void pm_progress_add(uint64_t n) {
    atomic_fetch_add_explicit(&g_done, n, memory_order_relaxed);
    pm_task_add(t_task, n);
}

void pm_progress_add_to(pm_task_progress *t, uint64_t n) {
    atomic_fetch_add_explicit(&g_done, n, memory_order_relaxed);
    pm_task_add(t, n);
}

void pm_progress_item(const char *unit, uint32_t k, uint32_t n) {
    atomic_store_explicit(&g_k, k, memory_order_relaxed);
    atomic_store_explicit(&g_n, n, memory_order_relaxed);
    atomic_store_explicit(&g_unit, unit, memory_order_release);
}

/* "1,234,567" */
static void grouped(char *out, size_t cap, uint64_t v) {
    char d[32];
    int n = snprintf(d, sizeof d, "%llu", (unsigned long long)v), o = 0;
    for (int i = 0; i < n && o + 2 < (int)cap; i++) {
        if (i && (n - i) % 3 == 0) out[o++] = ',';
        out[o++] = d[i];
    }
    out[o] = 0;
}

static void print_line(void) {
    const char *stage = atomic_load_explicit(&g_stage, memory_order_acquire);
    const char *unit = atomic_load_explicit(&g_unit, memory_order_acquire);
    uint64_t total = atomic_load_explicit(&g_total, memory_order_relaxed);
    uint64_t done = atomic_load_explicit(&g_done, memory_order_relaxed);
    char line[400], item[64] = "", count[96] = "";
    if (unit) {
        unsigned k = atomic_load_explicit(&g_k, memory_order_relaxed), n = atomic_load_explicit(&g_n, memory_order_relaxed);
        snprintf(item, sizeof item, "%s %u/%u: ", unit, k + 1, n);
    }
    if (total) {
        char a[32], b[32];
        if (done > total) done = total;
        grouped(a, sizeof a, done);
        grouped(b, sizeof b, total);
        snprintf(count, sizeof count, " %.0f%% (%s of %s)", 100.0 * (double)done / (double)total, a, b);
    }
    snprintf(line, sizeof line, "proofmill %s: %.1f s: %s%s%s", P.command, pm_now_s() - P.t0, item,
             stage ? stage : "starting", count);
    if (P.tty) fprintf(stderr, "\r\033[K%s", line);
    else fprintf(stderr, "%s\n", line);
    fflush(stderr);
}

static void *printer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&P.mu);
    while (!P.stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        long ns = ts.tv_nsec + (P.interval_ms % 1000) * 1000000L;
        ts.tv_sec += P.interval_ms / 1000 + ns / 1000000000L;
        ts.tv_nsec = ns % 1000000000L;
        pthread_cond_timedwait(&P.cv, &P.mu, &ts);
        if (!P.stop) print_line();
    }
    pthread_mutex_unlock(&P.mu);
    return NULL;
}

int pm_progress_start(const char *command) {
    const char *mode = pm_setting_str("progress.mode"); /* PROOFMILL_PROGRESS: auto, 1, 0 */
    int tty = isatty(STDERR_FILENO);
    if (!strcmp(mode, "0")) return 0;
    if (!tty && strcmp(mode, "1")) return 0;
    if (P.running) return 1;
    const uint64_t interval = pm_setting_u64("progress.interval_ms"); /* PROOFMILL_PROGRESS_MS */
    P.interval_ms = interval < 1 ? 1 : (long)interval;
    P.tty = tty;
    P.stop = 0;
    P.t0 = pm_now_s();
    snprintf(P.command, sizeof P.command, "%s", command);
    pm_progress_stage(NULL, 0);
    pm_progress_item(NULL, 0, 0);
    pthread_cond_init(&P.cv, NULL);
    if (pthread_create(&P.th, NULL, printer, NULL)) return 0;
    P.running = 1;
    return 1;
}

void pm_progress_stop(void) {
    if (!P.running) return;
    pthread_mutex_lock(&P.mu);
    P.stop = 1;
    pthread_cond_signal(&P.cv);
    pthread_mutex_unlock(&P.mu);
    pthread_join(P.th, NULL);
    pthread_cond_destroy(&P.cv);
    P.running = 0;
    if (P.tty) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}
