/*
 * engine_build.h — the one engine builder: the backend over every proof kind (backend_kinds.h) and
 * the engine (engine.h), its pools sized from the machine, for every front end (the daemon,
 * `proofmill prove --engine`, `proofmill bench`).
 *
 * The caller gives its user's choices (pm_engine_choices: where the start phase runs, pool sizes;
 * 0 / empty = automatic) and a base engine config for everything the builder does not decide
 * (urgent lane, memory budget and margin, key eviction, job retention, limits, trace, on_complete).
 * The builder probes the machine (pm_engine_machine_probe: cores, host memory, the CUDA devices the
 * GPU backend can use), decides (pm_engine_size, a pure function of choices and machine: what the
 * tests drive with a fake machine), creates backend and engine, and hands one line saying what it
 * chose and why to the caller's log function.
 *
 * Where the start phase runs: PM_ENGINE_DEVICES_AUTO (the daemon's empty gpu.devices) takes every
 * device the GPU backend sees (groth16_ops_gpu, gpu_available), the CPU backend only when it sees
 * none; PM_ENGINE_DEVICES_CPU (gpu.devices = none or cpu) forces the CPU; PM_ENGINE_DEVICES_GPU
 * names the devices (gpu.devices = 0,1; --gpu) and is refused when the GPU backend sees none
 * (never a silent CPU fallback) or a named device is not among those it sees.
 * Pools left at 0: pm_engine_pools_for_host (engine.h) for the chosen backend and the machine's
 * cores; lookahead pm_engine_auto_lookahead; budget the host memory minus the base's margin.
 * Sizes are bytes; counts are threads or devices.
 */
#ifndef PROOFMILL_ENGINE_ENGINE_BUILD_H
#define PROOFMILL_ENGINE_ENGINE_BUILD_H

#include <stdint.h>

#include "engine/backend_kinds.h"
#include "engine/engine.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    PM_ENGINE_DEVICES_AUTO = 0, /* every CUDA device the GPU backend sees; the CPU when it sees none */
    PM_ENGINE_DEVICES_CPU,      /* the CPU backend on cpu_slots logical devices */
    PM_ENGINE_DEVICES_GPU       /* the CUDA backend on devices[] (n_devices = 0: every visible one) */
} pm_engine_where;

/* start_threads = PM_ENGINE_ALL_CORES: the start phase's MSMs on every core (the backend's 0). */
#define PM_ENGINE_ALL_CORES 0xffffffffu

/* The user's choices; 0 = automatic (from the machine). */
typedef struct {
    pm_engine_where where;
    int devices[PM_ENGINE_MAX_DEVICES]; /* PM_ENGINE_DEVICES_GPU: CUDA ordinals */
    unsigned n_devices;                 /* PM_ENGINE_DEVICES_GPU: 0 = every visible device */
    unsigned cpu_slots;                 /* CPU backend: logical devices; 0 = 1 */
    unsigned synth_workers, synth_lookahead, workers_per_device, finalize_threads;
    unsigned start_threads;             /* the start phase's MSM threads; PM_ENGINE_ALL_CORES: every core */
    unsigned finalize_msm_threads;      /* one finalize's G2 MSM threads */
    const char *origin;                 /* the setting the device choice came from, for messages
                                           ("gpu.devices", "--gpu"); NULL = "devices" */
} pm_engine_choices;

/* Parse a device setting into c->where / devices / n_devices (the daemon's gpu.devices): "" =
 * AUTO, "none" or "cpu" = CPU, "all" = GPU on every visible device, "0,1,..." (commas and/or
 * spaces) = GPU on those CUDA ordinals (0..1023, at most PM_ENGINE_MAX_DEVICES). text NULL = "".
 * Errors: PM_ERR_ARG naming c->origin and the text. */
pm_status pm_engine_devices_parse(pm_engine_choices *c, const char *text, pm_error *err);

/* What the builder sizes from. */
typedef struct {
    unsigned cores;        /* online processors, >= 1 */
    uint64_t memory_bytes; /* physical memory or the cgroup limit (pm_sys_memory_bytes); 0 unknown */
    unsigned gpus;         /* CUDA devices the GPU backend can use (0: none, or no CUDA in this build) */
    char no_gpu[200];      /* gpus = 0: why (the GPU backend's words) */
} pm_engine_machine;

/* Probe this machine: cores (sysconf), memory (pm_sys_memory_bytes) and, when with_gpus, the
 * devices the GPU backend sees (groth16_ops_gpu, then gpu_available); without with_gpus, gpus = 0
 * and no_gpu says it was not asked. Never fails. */
void pm_engine_machine_probe(pm_engine_machine *m, int with_gpus);

/* What the builder chose. */
typedef struct {
    int gpu;                       /* the CUDA backend (pm_kinds_backend_opts.gpu) */
    pm_engine_config cfg;          /* the base with devices, n_devices, cpu_devices, the pool sizes,
                                      synth_lookahead and memory_budget resolved */
    unsigned start_threads;        /* pm_kinds_backend_opts.start_threads (0: every core) */
    unsigned finalize_msm_threads; /* pm_kinds_backend_opts.finalize_threads */
    char line[768];                /* what was chosen and why, one line without a newline */
} pm_engine_sizing;

/* Decide from the choices c, the base config and the machine m (a pure function: no probe, no
 * allocation). Errors: PM_ERR_GPU (GPU named but the GPU backend sees no device: m->no_gpu in the
 * message), PM_ERR_ARG (a named device the GPU backend does not see; the base's own ranges are
 * pm_engine_create's). */
pm_status pm_engine_size(pm_engine_sizing *out, const pm_engine_config *base, const pm_engine_choices *c,
                         const pm_engine_machine *m, pm_error *err);

/* Everything pm_engine_build takes. */
typedef struct {
    pm_engine_config base;         /* pm_engine_config_default + the caller's settings */
    pm_kinds_backend_opts backend; /* default_kind, witness_threads, TESTS-ONLY seed / fixed r, s;
                                      its gpu, start_threads, finalize_threads are the builder's */
    pm_engine_choices choices;
    /* Called once with the line (no newline) saying what was chosen and why; NULL = not said. */
    void (*log)(void *arg, const char *line);
    void *log_arg;
} pm_engine_build_opts;

typedef struct {
    pm_engine *engine;      /* pm_engine_destroy, before the backend */
    pm_backend backend;     /* backend.destroy(backend.self), after the engine */
    pm_engine_sizing sizing;
} pm_engine_built;

/* Probe, size, create the backend and the engine. On success out->engine runs; free both with
 * pm_engine_built_destroy (or in that order by hand). On error nothing is left to free.
 * Errors: pm_engine_size's, pm_backend_kinds's, pm_engine_create's. */
pm_status pm_engine_build(pm_engine_built *out, const pm_engine_build_opts *opts, pm_error *err);
/* Destroy the engine, then the backend; NULL or an empty result is a no-op. */
void pm_engine_built_destroy(pm_engine_built *b);

#ifdef __cplusplus
}
#endif
#endif
