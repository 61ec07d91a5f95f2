/*
 * backend.h — the engine's only view of a prover: a small vtable (front end + prover) that turns a
 * job's inputs into per-partition proofs in four stages.
 *
 *   plan(key_path, inputs)        -> number of partitions, working-set sizes   (submit thread, cheap)
 *   load_key(key_path)            -> key (the SRS), resident bytes             (synthesis worker, once)
 *   synthesize(key, inputs, part) -> prepared                                  (synthesis pool)
 *   gpu_start(key, prepared, slot)-> pending   [consumes prepared]             (GPU worker of one device)
 *   finalize(key, pending)        -> proof     [consumes pending]              (finalizer pool)
 *   verify(key, proof)            -> PM_OK or an error                         (assembler)
 *
 * The engine never looks inside key, prepared, pending or proof: they are opaque, owned by the engine
 * between calls and handed back to the backend's free_* functions exactly once. A backend is shared
 * by every worker thread: every function must be thread-safe for distinct objects; calls on one key
 * run concurrently (the key is read-only after load_key).
 *
 * Kinds: the backend decides what a job's inputs mean from its kind (kinds/kind.h): the one
 * backend over every kind is engine/backend_kinds.h (a snarkjs job: one witness per partition and a
 * .zkey; a PoRep C2 job: one C1 and the partitions it holds). The engine copies inputs without
 * interpreting them and keys its SRS cache by (kind, key path).
 *
 * The device interlock: gpu_start receives a pm_gpu_slot naming its device (a partition's whole GPU
 * part stays on that device) and must bracket its kernel region with pm_gpu_slot_enter/leave. The
 * engine's per-device lock is held only between those calls, so one worker's host-side preamble
 * (staging, H-polynomial prep) and epilogue overlap another worker's kernels (the seeds' Phase 8
 * dual-worker interlock). If a backend returns while still inside, the engine leaves for it.
 */
#ifndef PROOFMILL_ENGINE_BACKEND_H
#define PROOFMILL_ENGINE_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "kinds/kind.h" /* pm_input */
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a job asks the backend for (from the job spec, engine.h): the proof kind by name (NULL: the
 * backend's default), the proving key's path or a parameter directory from which the kind names
 * it, and the inputs (kinds/kind.h pm_input: paths or inline bytes). */
typedef struct {
    const char *kind;
    const char *key_path;
    const char *params_dir;
    const pm_input *inputs;
    size_t n_inputs;
} pm_job_request;

/* What plan() tells the engine about a job, all sizes in bytes of host memory (upper bounds).
 * part_peak_bytes: held by one partition from the start of its synthesis until gpu_start returns
 *   (witness, a/b/c vectors, staging). part_pending_bytes: held from gpu_start's return until
 *   finalize returns (the pending handle: G1 results, B_G2 scalars). key_bytes: the key's resident
 *   size once loaded. key_load_bytes: extra memory held only while load_key runs (e.g. the mapped
 *   file being decoded); the engine reserves key_bytes + key_load_bytes until the load returns,
 *   then exactly the resident size load_key reports. */
typedef struct {
    uint32_t n_partitions;
    uint64_t part_peak_bytes;
    uint64_t part_pending_bytes;
    uint64_t key_bytes;
    uint64_t key_load_bytes;
    char kind[32];          /* the kind the job is proved as (its canonical name), "" if none */
    char key_path[4096];    /* the key: the request's, or the one its kind named */
} pm_job_plan;

/* The device slot a GPU worker hands to gpu_start (engine-owned). */
typedef struct pm_gpu_slot pm_gpu_slot;
/* Device index of the slot (an entry of the engine's device list; a logical slot on CPU). */
int pm_gpu_slot_device(const pm_gpu_slot *slot);
/* The engine's device list (every device whose workers may use a key): *devices = n entries, owned
 * by the engine. */
size_t pm_gpu_slot_devices(const pm_gpu_slot *slot, const int **devices);
/* Enter / leave the device's kernel region (blocks while another worker of the device is inside).
 * Waiting workers enter by their job's priority (a critical partition before a normal one), FIFO
 * not guaranteed among equals. Nested enters are a no-op; leave without enter is a no-op. */
void pm_gpu_slot_enter(pm_gpu_slot *slot);
void pm_gpu_slot_leave(pm_gpu_slot *slot);
/* Inside the region, between two operations whose device state is the partition's own or its key's:
 * when a worker of higher priority with another key waits (e.g. a WinningPoSt behind a PoRep
 * partition's MSMs), leave, let it in, and come back before any other partition of this key (which
 * could reuse the key's device buffers mid-proof). Returns 1 when it left and came back, 0 when
 * nothing waited (at once). Costs one mutex lock when nothing waits.
 * Outside the region (bulk host work before entering it: the first use of a key pins its staging
 * and uploads its circuit in pieces, calling this between them): while a worker of higher priority
 * (than the partition's and than any job that used its key: a more urgent partition of the same key
 * may wait for that setup) with another key is INSIDE the region, wait until it leaves, so that the driver calls of the
 * pieces (each page-locking call holds the driver for tens of ms) do not stall the urgent
 * partition's. Only an urgent worker inside is waited for, never a waiting one (that one may wait
 * for a holder that needs what the caller holds). Returns 1 when it waited. Both only with the
 * engine's urgent_lane. */
int pm_gpu_slot_yield(pm_gpu_slot *slot);

/* What a loaded key's device-memory plan decided (groth16/devplan.h), for the engine's status
 * (pm_key_info.plan: /v1/status, GetStatus, bench). */
typedef struct {
    int tier;                   /* GROTH16_TIER_* (0 resident .. 5 host H); -1: no plan (CPU proving) */
    char tier_name[24];         /* "resident", "streamed bases", "host circuit", ... ("" without a plan) */
    char streamed[48];          /* the base sets streamed from pinned host memory ("H", "A, L, H"; "") */
    unsigned devices;           /* cards holding a device copy now */
    uint64_t device_bytes;      /* the largest device copy's planned peak, bytes */
    uint64_t host_pinned_bytes; /* the key's host bases page-locked for streaming (shared by every card) */
    uint64_t host_part_bytes;   /* host bytes per partition in flight the plan adds (a, b, c at tiers >= 2) */
} pm_key_plan_info;

typedef struct pm_backend pm_backend;
struct pm_backend {
    const char *name; /* short, e.g. "snarkjs-cpu" */
    void *self;       /* backend state, passed back to every call */

    /* Name the job's key, validate the inputs against it cheaply (headers, readability) and size
     * the job: plan->kind and plan->key_path say what load_key will be asked for. n_inputs = 0:
     * size the key alone (a preload; n_partitions 0). Errors: PM_ERR_IO (missing/unreadable path),
     * PM_ERR_FORMAT, PM_ERR_ARG (unknown kind, input count, no key), PM_ERR_MISMATCH. Runs in the
     * submitting thread; must not load the key. */
    pm_status (*plan)(void *self, const pm_job_request *rq, pm_job_plan *plan, pm_error *err);
    /* Load the key at key_path for kind (plan's names). *key owned by the engine (free_key).
     * *resident_bytes = its memory. */
    pm_status (*load_key)(void *self, const char *kind, const char *key_path, void **key, uint64_t *resident_bytes,
                          pm_error *err);
    void (*free_key)(void *self, void *key);
    /* Optional: wake whatever a synthesis worker may be waiting for inside the key (a buffer of its
     * a, b, c pool, which the GPU workers give back) and make such waits fail from now on: called by
     * pm_engine_destroy before it joins the workers. Cheap, thread-safe. */
    void (*close_key)(void *self, void *key);
    /* Optional (NULL: the size load_key reported stays charged): the key's resident host bytes now,
     * asked by a GPU worker after each gpu_start (it may drop, e.g. once the key's bases are resident
     * on every device and the host copy is released, or grow, e.g. pinned staging per device).
     * Cheap and thread-safe. */
    uint64_t (*key_bytes)(void *self, const void *key);
    /* Optional (NULL: every key reports tier -1): the key's device-memory plan and what its device
     * copies hold now. Cheap and thread-safe (called under the engine's status lock). */
    void (*key_plan)(void *self, const void *key, pm_key_plan_info *out);
    /* Synthesize partition `part` (< plan.n_partitions): witness -> prepared inputs. */
    pm_status (*synthesize)(void *self, const void *key, const pm_input *inputs, size_t n_inputs,
                            uint32_t part, void **prepared, pm_error *err);
    /* The GPU-able part (a, b, H, G1 MSMs). Consumes prepared (also on error). */
    pm_status (*gpu_start)(void *self, const void *key, void *prepared, pm_gpu_slot *slot,
                           void **pending, pm_error *err);
    /* The CPU tail (B_G2 MSM, r/s terms, assembly). Consumes pending (also on error). */
    pm_status (*finalize)(void *self, const void *key, void *pending, void **proof, pm_error *err);
    /* Check one partition proof against the key's verifying key and its public inputs.
     * PM_OK when valid; any other status (with err filled) when not. */
    pm_status (*verify)(void *self, const void *key, const void *proof, pm_error *err);
    /* The proof as a malloc'd NUL-terminated JSON value (caller frees), or NULL on OOM. */
    char *(*proof_json)(void *self, const void *proof);
    void (*free_prepared)(void *self, void *prepared);
    void (*free_pending)(void *self, void *pending);
    void (*free_proof)(void *self, void *proof);
    /* Release self (may be NULL). */
    void (*destroy)(void *self);
};

#ifdef __cplusplus
}
#endif
#endif
