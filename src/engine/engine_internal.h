/*
 * engine_internal.h — the engine's private structs and the functions its files share:
 *   engine.c         the design essay and the public API (create, destroy, submit, cancel, wait,
 *                    status, close)
 *   engine_queue.c   the stage queues, the synthesis permits, admission
 *   engine_job.c     a job's window, partitions leaving the pipeline, final states, the one
 *                    failure path (engine_fail_locked)
 *   engine_device.c  the device interlock (pm_gpu_slot_*: the kernel region of each device)
 *   engine_stage.c   the threads: one stage loop for the synthesis, GPU and finalize workers, the
 *                    assembler, the housekeeper, the notifier
 *   srs_cache.c      the SRS cache and the memory budget
 *   trace.c          the trace ring
 *   engine_build.c   the one engine builder (its own header, engine_build.h: pools sized from the
 *                    machine; it uses only the public API)
 * Not a public API: nothing outside src/engine includes it.
 * Locking: "(lock held)" means the engine mutex e->mu; the trace ring has its own mutex.
 */
#ifndef PROOFMILL_ENGINE_INTERNAL_H
#define PROOFMILL_ENGINE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "util/progress.h"

static inline char *engine_strdup(const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

enum { KEY_EMPTY = 0, KEY_LOADING = 1, KEY_READY = 2, KEY_FAILED = 3 };

typedef struct keyent {
    struct keyent *next;
    char kind[32]; /* the key's proof kind ("" for a backend without kinds) */
    char *path;
    int state;
    void *key;
    uint64_t bytes; /* charged to the budget */
    unsigned refs;
    int pinned;
    pm_priority prio_max; /* the highest priority of a job that used it (eviction order, engine.c) */
    int64_t last_used_us;
    uint64_t loads, hits;
    pm_error err; /* KEY_FAILED */
    /* what its load (and the backend's later uploads, which keep the pointer: the entry outlives
     * its key) is doing now: util/progress.h; read without the engine lock */
    pm_task_progress progress;
} keyent;

enum { PART_WAIT = 0, PART_SYNTH_Q, PART_SYNTH, PART_GPU_Q, PART_GPU, PART_FIN_Q, PART_FIN, PART_DONE,
       PART_DROPPED };

typedef struct {
    int stage;
    void *prepared, *pending, *proof;
    int in_window; /* holds one of its job's window slots (synthesis start until finalize ends) */
} part_t;

typedef struct job {
    struct job *next; /* registry list */
    uint64_t id, seq;
    pm_priority prio;
    pm_job_state state;
    char label[128];
    char kind[32];
    char *key_path;
    pm_input *inputs;
    size_t n_inputs;
    pm_job_plan plan;
    part_t *parts;
    uint32_t n_accounted; /* partitions DONE or DROPPED */
    uint32_t n_finalized;
    int cancel, failed;
    int assembling; /* the assembler owns the partitions' proofs now */
    pm_error err;
    keyent *key;
    uint64_t reserved_other; /* inline input bytes: in queued_inline while queued, in the budget once admitted */
    int inline_admitted;     /* reserved_other moved to the budget */
    /* The job's window (engine.c, "Memory budget"): at most `window` partitions between synthesis
     * start and finalize end at once, each charged slot_bytes; window_charged slots are charged now
     * (window at admission, fewer once fewer partitions are left), n_in_window are taken and
     * n_left_window have left (finalized or dropped after taking one). */
    uint32_t window, window_charged, n_in_window, n_left_window;
    uint64_t slot_bytes;
    uint64_t window_credit; /* bytes of the window not charged while its key loads (they overlap the
                               key's load transient); charged by engine_key_ensure when it returns */
    int64_t t_submit, t_first, t_done;
    int64_t submit_unix_ms;
    int64_t srs_load_us, synth_us, gpu_us, lock_wait_us, fin_us, verify_us;
    char **proof_json;
} job;

/* work item in a stage queue */
typedef struct {
    job *j;
    uint32_t part;
} item_t;

typedef struct {
    item_t *v;
    size_t n, cap;
} queue_t;

/* A worker waiting to enter a device's kernel region (on its stack while it waits). */
typedef struct slot_waiter {
    struct slot_waiter *next;
    pm_priority prio;
    const void *key;  /* the key its partition uses (NULL: none known) */
    int resuming;     /* it left the region mid-partition (pm_gpu_slot_yield) and comes back */
} slot_waiter;

typedef struct {
    int id;
    /* The kernel-region interlock (pm_gpu_slot_enter / leave / yield): held says a worker is inside;
     * waiters lists the workers waiting, entered by priority (engine_device.c slot_may_enter). lock guards
     * both, cv wakes the waiters. */
    pthread_mutex_t lock;
    pthread_cond_t cv;
    int held;
    pm_priority holder_prio; /* the worker inside (while held): its priority and key */
    const void *holder_key;
    slot_waiter *waiters;
    atomic_int busy;
    atomic_int lock_waiters; /* workers blocked in pm_gpu_slot_enter */
    atomic_ullong kernel_job; /* the job inside the kernel region, 0 when none */
    atomic_llong kernel_us;
} device_t;

struct pm_gpu_slot {
    pm_engine *e;
    device_t *dev;
    unsigned tid;
    pm_priority prio; /* the partition's job's: the order in which waiters enter */
    const void *key;  /* its key (the engine's entry): a yield never lets in a partition of the same key */
    int inside;
    int64_t t_req, t_enter;
    int64_t wait_us; /* accumulated lock wait for the current partition */
    uint64_t job_id;
    uint32_t part;
};

enum { ST_SRS = 0, ST_SYNTH, ST_GPU, ST_KERNEL, ST_FIN, ST_VERIFY, ST_N };

typedef struct {
    int64_t t0, t1;
    uint64_t job;
    uint32_t part;
    uint16_t tid;
    uint8_t stage;
} trace_ev;

typedef enum { W_SYNTH, W_GPU, W_FIN } wkind;
typedef struct {
    pm_engine *e;
    wkind kind;
    unsigned index; /* within its kind */
    unsigned tid;   /* trace row */
    int urgent;     /* the urgent lane (pm_engine_config.urgent_lane): critical partitions only */
    device_t *dev;
    struct job *cur;   /* W_GPU: the job whose partition cur_part it holds (lock held), or NULL */
    uint32_t cur_part;
    pthread_t th;
    int started;
    char name[32];
} worker_t;

struct pm_engine {
    pm_engine_config cfg;
    pm_backend be;
    pthread_mutex_t mu;
    pthread_cond_t cv_synth, cv_gpu, cv_fin, cv_done, cv_keys, cv_house, cv_notify;
    int stop;
    int closing; /* pm_engine_close: no new jobs, waiters return at once */

    job *jobs; /* registry: all live jobs */
    uint64_t next_id, next_seq;
    queue_t pending, q_synth, q_gpu, q_fin;
    unsigned n_running;
    unsigned synth_inflight; /* permits held: synthesizing + waiting in q_gpu */

    keyent *keys;

    uint64_t budget, reserved, reserved_peak;
    uint64_t queued_inline, max_queued_inline; /* inline input bytes of queued jobs, and their bound */

    /* counters */
    uint64_t submitted, n_done, n_failed, n_cancelled, verify_failures;
    size_t n_proof_hist;
    pm_proof_hist proof_hist[PM_PROOF_HIST_KINDS]; /* done jobs' seconds from submit, per kind */
    unsigned synth_busy, gpu_busy, fin_busy;
    int64_t tot_synth_us, tot_gpu_us, tot_fin_us, tot_queue_us;

    device_t *devs;
    worker_t *workers;
    unsigned n_workers;
    pthread_t house, notifier;
    int house_started, notifier_started;
    struct done_note *notes; /* completions not yet passed to on_complete */
    size_t n_notes, cap_notes;
    int64_t t_start;

    pthread_mutex_t trace_mu;
    trace_ev *trace;
    size_t trace_n, trace_head; /* ring */
};

typedef struct done_note {
    uint64_t id;
    pm_job_state st;
} done_note;

/* ---- trace.c ---- */
/* Record one stage of (job, partition) on trace row tid, [t0, t1] in pm_now_us time; a no-op when
 * tracing is off; the oldest event is dropped when the ring is full. */
void engine_trace_add(pm_engine *e, unsigned tid, int stage, uint64_t jid, uint32_t part, int64_t t0, int64_t t1);

/* ---- srs_cache.c (lock held unless said) ---- */
void engine_budget_charge(pm_engine *e, uint64_t bytes);
void engine_budget_release(pm_engine *e, uint64_t bytes);
/* the entry of (kind, path); kind NULL matches any kind */
/* Count a done job of kind that took seconds from submit (the status's proof_hist). Engine lock held. */
void engine_proof_hist_add(pm_engine *e, const char *kind, double seconds);
keyent *engine_key_find(pm_engine *e, const char *kind, const char *path);
/* a new, empty entry of `bytes` charged to the budget, linked first; NULL when out of memory */
keyent *engine_key_new(pm_engine *e, const char *kind, const char *path, uint64_t bytes);
/* unlink k, release its bytes, free its key through the backend */
void engine_key_unlink_free(pm_engine *e, keyent *k);
/* Evict idle, unpinned, ready keys other than keep until need more bytes fit; 1 if they fit.
 * Order: the lowest prio_max first, then least recently used; a key whose prio_max is above prio
 * (the asking job's priority) only while no job runs. (e->mu held) */
int engine_key_make_room(pm_engine *e, uint64_t need, const keyent *keep, pm_priority prio);
void engine_key_unref(pm_engine *e, keyent *k);
/* Block until k is loaded (loading it here if nobody else is); lock NOT held on entry and exit.
 * *waited_us = time spent loading or waiting. */
pm_status engine_key_ensure(pm_engine *e, keyent *k, unsigned tid, uint64_t jid, int64_t *waited_us,
                            pm_error *err);

/* ---- engine_queue.c (lock held) ---- */
/* Append (j, part); -1 when out of memory. */
int engine_q_push(queue_t *q, job *j, uint32_t part);
/* The index of the best item (priority desc, submit sequence asc, partition asc), or -1 when empty. */
long engine_q_best(const queue_t *q);
/* The best item whose job has a free window slot (synthesis), or -1. A job at its window waits
 * for one of its partitions to be finalized; other jobs' partitions go ahead meanwhile. */
long engine_q_best_in_window(const queue_t *q);
/* The best critical item (the urgent lane's), in its job's window for synthesis (in_window), or -1. */
long engine_q_best_critical(const queue_t *q, int in_window);
/* Remove and return item i (order not kept). */
item_t engine_q_take(queue_t *q, long i);
/* Remove every item of job j from q, calling fn on each. */
void engine_q_remove_job(pm_engine *e, queue_t *q, job *j, void (*fn)(pm_engine *, job *, uint32_t));
/* The synthesis permits (the only place e->synth_inflight changes): take = 1 when a partition's
 * synthesis begins; take = 0 when a GPU worker takes it, or it leaves the pipeline before that
 * (wakes the synthesis workers). */
void engine_synth_permit_locked(pm_engine *e, int take);
/* Partitions of one job that keep every stage busy at once: synth_lookahead + GPU workers +
 * finalizers (pm_engine_job_window's pipeline_cap). */
uint32_t engine_pipeline_cap(const pm_engine *e);
/* Admit queued jobs in order while the head fits the budget. */
void engine_admit_locked(pm_engine *e);

/* ---- engine_job.c (lock held) ---- */
#define ENGINE_NO_PART UINT32_MAX /* engine_fail_locked: no partition of the job in hand */
/* Free a job and everything its partitions still hold (through the backend). */
void engine_job_free(pm_engine *e, job *j);
/* Final state st reached: release everything still charged, count, notify. 1 if finished now,
 * 0 if it already was. */
int engine_job_finish_locked(pm_engine *e, job *j, pm_job_state st);
/* Partition p gives its window slot back (finalized or dropped). */
void engine_window_leave_locked(pm_engine *e, job *j, uint32_t p);
/* Partition p leaves the pipeline without a proof (its prepared / pending data freed). */
void engine_part_drop_locked(pm_engine *e, job *j, uint32_t p);
/* If every partition of a failed / cancelled job is accounted for, finish it and run admission. */
void engine_job_maybe_end_locked(pm_engine *e, job *j);
/* THE failure path, for every stage and admission: job j fails with *err (NULL: it is already
 * cancelled or failed, nothing is recorded), partition `part` (ENGINE_NO_PART: none) leaves the
 * pipeline, the job's queued partitions are dropped, and the job ends once every partition is
 * accounted for. Also how a running job is cancelled (err NULL, after setting j->cancel). */
void engine_fail_locked(pm_engine *e, job *j, uint32_t part, const pm_error *err);

/* ---- engine_stage.c: thread bodies (arg: a worker_t for the stage loop, the engine for the others) ---- */
void *engine_stage_main(void *arg);
void *engine_house_main(void *arg);
void *engine_notify_main(void *arg);

#endif
