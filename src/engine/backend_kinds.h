/*
 * backend_kinds.h — the engine's one backend: jobs of every proof kind (kinds/kind.h), each stage the
 * prove layer's (prove/prove.h) on the engine's pools:
 *
 *   plan        pm_prove_plan_job: the kind by name (the job spec's, else the default), the key (the
 *               spec's path, or the kind's in the spec's parameter directory), the inputs and the
 *               key's header checked, sizes for the memory budget (prove.h, per key convention).
 *   load_key    pm_prove_key_load: the key (zkey, or .params + recorded circuit + .vk), its view,
 *               and (GPU) its device-memory plan for the engine's smallest card (pm_prove_key_plan).
 *   synthesize  the job re-read by its kind (a C1: 0.1 s at 32 GiB), pm_prove_synthesize: witness,
 *               public inputs (checked against the witness), the start phase's CPU eval (SpMV, a
 *               bellperson circuit's constraints checked: a wrong input fails here, naming
 *               partition, constraint and the kind's name for it).
 *   gpu_start   pm_prove_stage before the slot's kernel region (the CUDA table's witness upload),
 *               then pm_prove_start inside it: eval, H, the G1 MSMs (and the G2 MSM) on the start
 *               phase's table (CPU, or CUDA on the slot's device with the key's device copy,
 *               uploaded there on first use).
 *               After a start, a bellperson key's host bases are released once every device of
 *               the engine holds them resident (pm_prove_key_release_host_bases: -51 GB at
 *               32 GiB); a start that needs them again re-reads them.
 *   key_bytes   pm_prove_key_host_bytes: the key's host bytes now (the budget follows the release,
 *               the device copies' pinned staging and the CPU NTT domain, counted only where a CPU
 *               H may run).
 *   finalize    r, s (random; seeded or fixed for tests), pm_prove_finalize (G2 MSM, assembly).
 *   verify      pm_prove_verify against the key's verifying key and the derived public inputs.
 *   proof_json  the kind's form (snarkjs {"proof","public"}; bellperson {"partition","proof":hex}).
 * Nothing here knows a kind: a new kind folder is served as soon as it is registered.
 */
#ifndef PROOFMILL_ENGINE_BACKEND_KINDS_H
#define PROOFMILL_ENGINE_BACKEND_KINDS_H

#include <stdint.h>

#include "engine/backend.h"
#include "field/fr.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *default_kind;  /* the kind of jobs that name none; NULL = "snarkjs" */
    int gpu;                   /* 1: the start phase's CUDA table on the engine's devices (CUDA
                                  ordinals < 64); 0: the CPU table on logical slots */
    unsigned start_threads;    /* MSM threads of the start phase; 0 = all online cores */
    unsigned finalize_threads; /* G2 MSM threads in finalize; 0 = 1 (small, L3-friendly) */
    unsigned witness_threads;  /* a kind's witness synthesis threads; 0 = the default OpenMP team */
    /* gpu: the devices the engine proves on and its workers per device; each key gets one
     * device-memory plan for the smallest of these cards (groth16/devplan.h), and a card too small
     * for a key refuses its jobs at plan time. n_devices 0 = every visible device. */
    const int *devices;
    size_t n_devices;
    unsigned workers_per_device; /* 0 = 2 */
    /* gpu: the engine's host memory budget (memory.budget), for the plan's witness slots
     * (groth16_devplan_card.host_budget: one slot when two would not fit); 0 = not considered */
    uint64_t host_budget;
    /* TESTS ONLY (not zero-knowledge; never set in the daemon): fixed r, s (Montgomery) for every
     * proof, or groth16_seeded_scalars(*seed + partition). NULL = fresh random r, s per proof. */
    const fr_t *fixed_r, *fixed_s;
    const uint64_t *seed;
} pm_kinds_backend_opts;

/* Fill *be (name "groth16-cpu" or "groth16-cuda"). opts may be NULL (defaults).
 * be->destroy(be->self) frees it. Errors: PM_ERR_GPU (opts->gpu without a CUDA build or device),
 * PM_ERR_ARG (unknown default kind), PM_ERR_NOMEM. */
pm_status pm_backend_kinds(pm_backend *be, const pm_kinds_backend_opts *opts, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
