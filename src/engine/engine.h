/*
 * engine.h — the proving engine: jobs, priority scheduler, synthesis pool, per-device GPU workers,
 * finalizer pool, assembler + verifier, SRS cache, memory budget, trace.
 *
 * The design (job model, ordering guarantee, how completion reaches a caller) is written at the top
 * of engine.c and in docs/engine.md. This header is the whole public surface; the job struct, the
 * queues and the cache stay private to src/engine (engine_internal.h).
 *
 * Ownership: the engine borrows its backend (it must outlive the engine) and deep-copies every job
 * spec. Strings and arrays returned in pm_job_info / pm_engine_status are owned by the caller and
 * released with pm_job_info_free / pm_engine_status_free. Times are milliseconds (double) unless a
 * name says _us (microseconds) or _s (seconds); sizes are bytes.
 * Thread safety: every function may be called from any thread, concurrently.
 */
#ifndef PROOFMILL_ENGINE_ENGINE_H
#define PROOFMILL_ENGINE_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "engine/backend.h"
#include "util/error.h"
#include "util/sysmem.h" /* pm_sys_memory_bytes, pm_proc_rss: the budget's probes */

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { PM_PRIO_LOW = 0, PM_PRIO_NORMAL = 1, PM_PRIO_HIGH = 2, PM_PRIO_CRITICAL = 3 } pm_priority;
#define PM_PRIO_COUNT 4
/* "low", "normal", "high", "critical". */
const char *pm_priority_name(pm_priority p);
/* Parse a priority name; returns 0 and sets *p, or -1 for an unknown name. */
int pm_priority_parse(pm_priority *p, const char *name);

typedef enum {
    PM_JOB_QUEUED = 0, /* waiting for admission (priority order, memory budget) */
    PM_JOB_RUNNING,    /* admitted: partitions in synthesis / gpu / finalize / assembly */
    PM_JOB_DONE,       /* every partition proved and verified; proofs available */
    PM_JOB_FAILED,     /* error set (bad input, load failure, or an engine error) */
    PM_JOB_CANCELLED
} pm_job_state;
/* "queued", "running", "done", "failed", "cancelled". */
const char *pm_job_state_name(pm_job_state s);

#define PM_ENGINE_MAX_DEVICES 64

typedef struct {
    unsigned synth_workers;      /* synthesis threads (the synthesis semaphore's permits), >= 1 */
    unsigned synth_lookahead;    /* partitions synthesized or synthesizing but not yet taken by a GPU
                                    worker, at most; 0 = pm_engine_auto_lookahead */
    int devices[PM_ENGINE_MAX_DEVICES]; /* device ids (CUDA ordinals, or logical CPU slots) */
    unsigned n_devices;          /* >= 1 */
    unsigned workers_per_device; /* GPU workers per device sharing its kernel lock, >= 1 */
    int cpu_devices;             /* the devices are logical CPU slots: workers are named cpuN-wM, not gpuN-wM */
    int urgent_lane;             /* 1 (pm_engine_config_default): one more synthesis worker and one more
                                    GPU worker per device (synth-urgent, gpuN-urgent) that take critical
                                    partitions only, beside the pools and outside synth_lookahead, so a
                                    WinningPoSt never waits for a worker busy with other work; 0: none.
                                    Not counted in the status's busy/total worker counts. */
    unsigned finalize_threads;   /* finalizer pool (B_G2 MSM etc.), >= 1; keep small for L3 */
    unsigned synth_nice;         /* 0..19: added to the nice value of the synthesis (not the urgent one's) and
                                    finalize threads when they start (setpriority on the thread's id; Linux
                                    applies it to that thread and the threads it creates later), so the GPU
                                    workers, which sleep between kernels and copies, run as soon as they wake
                                    even when synthesis fills every core. 0: none. Default: the setting
                                    synthesis.nice (PROOFMILL_SYNTHESIS_NICE). */
    uint64_t memory_budget;      /* bytes the engine may reserve; 0 = physical RAM - memory_margin */
    uint64_t memory_margin;      /* bytes left to the rest of the machine when the budget is auto */
    unsigned key_idle_evict_s;   /* unused, unpinned keys are evicted after this many seconds (never one a
                                    PM_PRIO_CRITICAL job used); 0 = never */
    unsigned job_retain_s;       /* finished jobs stay queryable this long */
    unsigned max_jobs;           /* queued + running jobs at most (submit fails beyond) */
    uint64_t max_queued_inline_bytes; /* inline input bytes (PM_INPUT_BYTES) of queued jobs at most:
                                    they are held outside memory_budget until admission, which
                                    charges them to it; submit beyond: PM_ERR_BUSY. 0 = budget / 4 */
    int trace;                   /* record every stage's start/end (pm_engine_trace_json) */
    size_t trace_max_events;     /* ring size; older events are dropped */
    /* Called (from an engine thread, engine lock NOT held) each time a job reaches a final state. */
    void (*on_complete)(void *arg, uint64_t job_id, pm_job_state state);
    void *on_complete_arg;
} pm_engine_config;

/* Defaults: 2 synthesis workers, lookahead 0 (auto), one device (0), 2 workers per device,
 * 1 finalizer, synth_nice from the setting synthesis.nice, budget auto with a 1 GiB margin, keys
 * evicted after 300 s idle, jobs retained 600 s, 1024 jobs, no trace (65536 events when enabled). */
void pm_engine_config_default(pm_engine_config *cfg);

/* Pool sizes that fit a host (issue #13 item 5), for callers whose user gave no explicit value:
 *   CPU backend: the defaults above (2 synthesis workers, 2 workers per device slot, 1 finalizer),
 *     the start phase's MSMs on every core, one G2 MSM thread per finalize;
 *   GPU backend (the start phase, G2 MSM included, on the devices): max(2, cores / 4) synthesis
 *     workers (the kinds' witness and snarkjs's zkey evaluation run there), 2 workers per device
 *     (one uploads / stages while the other's kernels run), max(2, cores / 8) finalizers (assembly
 *     and verification only), max(1, cores / 4) threads for the CPU steps left in the start phase.
 * cores = 0 reads the online processor count. */
typedef struct {
    unsigned synth_workers, workers_per_device, finalize_threads;
    unsigned start_threads;        /* pm_kinds_backend_opts.start_threads (0: all cores) */
    unsigned finalize_msm_threads; /* pm_kinds_backend_opts.finalize_threads */
    unsigned cores;                /* what the sizes were derived from */
} pm_engine_pools;
void pm_engine_pools_for_host(pm_engine_pools *p, int gpu, unsigned cores);

/* The synthesis lookahead when synth_lookahead is 0: max(synth_workers, n_devices * workers_per_device),
 * i.e. every synthesis worker can be busy and every GPU worker can find a partition ready, and no more.
 * A partition ahead of that only holds host memory (its witness: 4.2 GB for a 32 GiB PoRep partition):
 * synthesis outruns the GPUs (32 GiB PoRep on the H200 host: ~1.1 s per partition on each of 4
 * workers against 1.9 s per kernel region), and while a job's key loads and makes its first upload
 * (about 50 s at 32 GiB) the whole window would otherwise sit synthesized beside the key's host copy
 * (2 x synth_workers = 8 at 16 cores: 107.9 GiB peak RSS on the 128 GiB host, docs/perf/porep.md).
 * Inputs >= 1 (the engine's config ranges); the result >= 1. */
unsigned pm_engine_auto_lookahead(unsigned synth_workers, unsigned n_devices, unsigned workers_per_device);

/* A job to submit; every pointer is borrowed for the call only. kind names the proof kind
 * (kinds/kind.h; NULL = the backend's default, "snarkjs"); the key is key_path, or the kind's key in
 * params_dir when key_path is NULL (e.g. a PoRep C2 job: DIR/<stem>.params of its C1's size). */
typedef struct {
    const char *kind;
    const char *key_path;
    const char *params_dir;
    pm_priority priority;
    const pm_input *inputs;
    size_t n_inputs;
    const char *label; /* optional client tag, echoed in pm_job_info (<= 127 bytes kept) */
} pm_job_spec;

/* Per-job timings, milliseconds. queue: submit -> first stage start. srs_load: time this job's
 * workers spent loading (or waiting for) its key. synth/gpu/finalize: summed over partitions
 * (gpu includes gpu_lock_wait, the time spent waiting for the device's kernel lock). verify: the
 * assembler's check of every partition. total: submit -> final state. */
typedef struct {
    double queue_ms, srs_load_ms, synth_ms, gpu_ms, gpu_lock_wait_ms, finalize_ms, verify_ms,
        total_ms;
} pm_job_timings;

typedef struct {
    uint64_t id;
    pm_job_state state;
    pm_priority priority;
    char label[128];
    char kind[32];            /* the proof kind it is proved as */
    char key_path[512];       /* the key (the kind's, when the spec gave a parameter directory) */
    uint32_t n_partitions;
    uint32_t partitions_done; /* finalized so far */
    uint64_t working_set_bytes; /* reserved at admission besides the key: the job's window of W
                                   partition slots (pm_engine_job_window) + inline inputs */
    pm_job_timings t;
    pm_error error;           /* code PM_OK unless FAILED (or CANCELLED: PM_ERR_CANCELLED) */
    char **proofs;            /* DONE: n_partitions JSON texts, partition order; else NULL */
    uint64_t submit_unix_ms;  /* wall clock of submission */
} pm_job_info;
void pm_job_info_free(pm_job_info *info);

typedef struct pm_engine pm_engine;

/* The admission estimate of one job (engine.c "Memory budget"), bytes of host memory: the job's
 * window W = min(plan->n_partitions, pipeline_cap, the partition slots (max(part_peak,
 * part_pending) bytes each) that fit in budget beside `held` (bytes already resident that the job
 * cannot evict: pinned keys, its own key when resident, inline inputs) and, unless key_resident, its
 * key (key_bytes + key_load_bytes)). Returns W, 0 when not even one partition fits (the job is
 * refused). *need (may be NULL) = held + the key charge + max(W, 1) slots: what the job needs with
 * its window (with W = 0, what one partition would need). pipeline_cap: the partitions one job can
 * keep busy at once (synth_lookahead + GPU workers + finalize_threads). */
uint32_t pm_engine_job_window(uint64_t *need, const pm_job_plan *plan, uint32_t pipeline_cap, uint64_t budget,
                              uint64_t held, int key_resident);

/* Start the engine's threads. *engine owned by the caller (pm_engine_destroy).
 * Errors: PM_ERR_ARG (a count out of range), PM_ERR_NOMEM, PM_ERR_INTERNAL (thread creation). */
pm_status pm_engine_create(pm_engine **engine, const pm_engine_config *cfg, const pm_backend *backend,
                           pm_error *err);
/* Cancel every job, join every thread, free everything (keys via the backend). NULL is a no-op. */
void pm_engine_destroy(pm_engine *engine);

/* Queue a job. Runs backend->plan in the caller's thread, so bad paths and malformed inputs fail
 * here. *id = the job id (> 0). Errors: the plan's errors; PM_ERR_NOMEM when the job alone needs more
 * than the whole budget ("job needs X bytes, budget is Y"); PM_ERR_BUSY when max_jobs are in flight
 * (retry later), also when the job's inline inputs would pass max_queued_inline_bytes; PM_ERR_ARG when the spec is malformed; PM_ERR_CANCELLED when the engine is shutting down. */
pm_status pm_engine_submit(pm_engine *engine, const pm_job_spec *spec, uint64_t *id, pm_error *err);

/* Cancel: a queued job is removed at once; a running one stops at its next stage boundary (work in
 * a stage finishes, then is dropped). Returns PM_OK with *state = the state after the call (QUEUED
 * never; RUNNING means "cancelling"); PM_ERR_ARG for an unknown id; a finished job is left as is and
 * *state says which. */
pm_status pm_engine_cancel(pm_engine *engine, uint64_t id, pm_job_state *state);

/* Wait up to timeout_ms (< 0: forever, 0: poll) for the job to reach a final state, then fill *info
 * (also when still running at the timeout). Errors: PM_ERR_ARG unknown (or expired) id. */
pm_status pm_engine_wait(pm_engine *engine, uint64_t id, int64_t timeout_ms, pm_job_info *info);

/* Begin shutdown: submit fails from now on (PM_ERR_CANCELLED) and every pm_engine_wait returns at
 * once with the job's current state. Jobs keep running. Idempotent. */
void pm_engine_close(pm_engine *engine);
/* Cancel every queued or running job (as pm_engine_cancel). */
void pm_engine_cancel_all(pm_engine *engine);

typedef struct {
    char kind[32];
    char path[512];
    int state;       /* 0 empty (reserved), 1 loading, 2 ready */
    int pinned;      /* preloaded: not evicted for idleness */
    unsigned refs;   /* jobs using it now */
    uint64_t bytes;  /* reserved / resident */
    double idle_s;   /* seconds since last use (0 while in use) */
    uint64_t loads, hits;
    /* what the key is doing now ("" idle): its load ("loading", "reading the parameters", ...),
     * then its first upload to each card ("uploading to GPU", "pinning host bases"); counts in
     * bytes (total 0: not counted); device: the card (-1 none) */
    char activity[40];
    uint64_t activity_done, activity_total;
    int activity_device;
    pm_key_plan_info plan; /* ready keys: the backend's key_plan (tier -1 otherwise) */
} pm_key_info;

/* Jobs in flight of one proof kind (pm_engine_status.kinds). */
typedef struct {
    char kind[32];    /* the kind's canonical name (pm_job_info.kind) */
    unsigned queued;  /* waiting for admission */
    unsigned running; /* admitted, not yet final */
} pm_kind_jobs;

/* Upper bounds (seconds) of the proof-time histogram's buckets (pm_proof_hist), the last one +Inf:
 * from WinningPoSt's ~0.1 s to a 32 GiB PoRep C2 on a small card (minutes). */
#define PM_PROOF_HIST_BUCKETS 14
extern const double pm_proof_hist_le[PM_PROOF_HIST_BUCKETS - 1];
/* Done jobs of one proof kind by their time from submit to done (a Prometheus histogram:
 * cumulative counts per bucket, pm_engine_status.proof_hist). */
typedef struct {
    char kind[32];
    uint64_t bucket[PM_PROOF_HIST_BUCKETS]; /* jobs with seconds <= pm_proof_hist_le[i] (cumulative; the last: all) */
    double sum_s;                           /* total seconds */
    uint64_t count;                         /* = bucket[PM_PROOF_HIST_BUCKETS - 1] */
} pm_proof_hist;
#define PM_PROOF_HIST_KINDS 16 /* kinds counted (a seventeenth kind's jobs go uncounted) */

typedef struct {
    /* jobs */
    unsigned queued[PM_PRIO_COUNT], running;
    /* the same per proof kind: only kinds with a job queued or running, in name order; n_kinds
     * entries, freed by pm_engine_status_free */
    size_t n_kinds;
    pm_kind_jobs *kinds;
    uint64_t submitted, done, failed, cancelled, verify_failures;
    /* workers: busy now / total */
    unsigned synth_busy, synth_total, gpu_busy, gpu_total, fin_busy, fin_total;
    unsigned n_devices;
    int devices[PM_ENGINE_MAX_DEVICES];
    unsigned device_busy[PM_ENGINE_MAX_DEVICES];      /* workers inside the kernel region (0/1) */
    unsigned device_lock_waiters[PM_ENGINE_MAX_DEVICES]; /* workers waiting to enter it */
    /* what each device works on now: the job (and partition) inside its kernel region, else one
     * that a GPU worker of the device stages before or after its kernels; job 0 and kind "" when
     * idle */
    uint64_t device_job[PM_ENGINE_MAX_DEVICES];
    uint32_t device_partition[PM_ENGINE_MAX_DEVICES];
    char device_kind[PM_ENGINE_MAX_DEVICES][32];
    double device_kernel_ms[PM_ENGINE_MAX_DEVICES];   /* cumulative time inside the kernel region */
    unsigned synth_queue, gpu_queue, fin_queue;       /* partitions waiting per stage */
    /* memory */
    uint64_t budget_bytes, reserved_bytes, reserved_peak_bytes, rss_bytes, rss_peak_bytes;
    uint64_t queued_inline_bytes, max_queued_inline_bytes; /* inline inputs of queued jobs, and their bound */
    /* keys */
    size_t n_keys;
    pm_key_info *keys; /* n_keys entries, caller frees with pm_engine_status_free */
    double uptime_s;
    /* stage totals in ms (all jobs) */
    double total_synth_ms, total_gpu_ms, total_finalize_ms, total_queue_ms;
    /* done jobs per kind by seconds from submit to done (kinds with a done job, in first-done order) */
    size_t n_proof_hist;
    pm_proof_hist proof_hist[PM_PROOF_HIST_KINDS];
} pm_engine_status;
pm_status pm_engine_get_status(pm_engine *engine, pm_engine_status *st);
/* k's activity in words for people (bench's progress line, gRPC GetStatus, logs): "" when idle, else
 * e.g. "reading the parameters 21.0/47.0 GB", "uploading to GPU 0 3.1/35.0 GB", "loading the
 * recorded circuit". Returns out (always NUL-terminated, truncated to cap). */
char *pm_key_activity_format(char *out, size_t cap, const pm_key_info *k);
/* k's device-memory plan in words: "" without a plan, else e.g. "tier 1 (streamed bases: H from
 * pinned host memory), 76.9 GB on 1 card". Returns out. */
char *pm_key_plan_format(char *out, size_t cap, const pm_key_plan_info *p);
void pm_engine_status_free(pm_engine_status *st);

/* Load the key of proof kind `kind` (NULL = the backend's default) at key_path now (blocking) and
 * pin it. Errors: the backend's plan (unknown kind, missing file) and load errors; PM_ERR_NOMEM if it
 * does not fit the budget even after evicting idle keys. */
pm_status pm_engine_preload_key(pm_engine *engine, const char *kind, const char *key_path, pm_error *err);
/* Unpin and drop the key at key_path (of kind, or of any kind when NULL) when no job uses it.
 * PM_ERR_ARG: not cached; PM_ERR_MISMATCH: in use (it is unpinned and dropped when idle-evicted). */
pm_status pm_engine_evict_key(pm_engine *engine, const char *kind, const char *key_path, pm_error *err);

/* Chrome trace JSON ({"traceEvents":[...]}: one "X" event per stage per worker, tid = worker, plus
 * thread_name metadata), malloc'd (caller frees); NULL when tracing is off or on OOM. */
char *pm_engine_trace_json(pm_engine *engine);

#ifdef __cplusplus
}
#endif
#endif
