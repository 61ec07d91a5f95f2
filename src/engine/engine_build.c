/*
 * engine_build.c — the one engine builder (contract: engine_build.h): probe the machine, size the
 * pools, create the backend over every kind and the engine, say what was chosen in one line.
 */
#include "engine/engine_build.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "groth16/start.h"
#include "util/sysmem.h"
#ifdef PROOFMILL_HAVE_GPU
#include "gpu/gpu.h"
#endif

pm_status pm_engine_devices_parse(pm_engine_choices *c, const char *text, pm_error *err) {
    const char *origin = c->origin ? c->origin : "devices";
    const char *p = text ? text : "";
    while (*p == ' ') p++;
    c->n_devices = 0;
    if (!*p) {
        c->where = PM_ENGINE_DEVICES_AUTO;
        return PM_OK;
    }
    if (!strcmp(p, "none") || !strcmp(p, "cpu")) {
        c->where = PM_ENGINE_DEVICES_CPU;
        return PM_OK;
    }
    c->where = PM_ENGINE_DEVICES_GPU;
    if (!strcmp(p, "all")) return PM_OK;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v > 1023 || c->n_devices >= PM_ENGINE_MAX_DEVICES) {
            c->n_devices = 0;
            return pm_error_set(err, PM_ERR_ARG, origin, PM_NO_OFFSET,
                                "'%s' is not a list of device ids (CUDA ordinals 0..1023, at most %d), "
                                "none, cpu or all",
                                text, PM_ENGINE_MAX_DEVICES);
        }
        c->devices[c->n_devices++] = (int)v;
        p = end;
        while (*p == ',' || *p == ' ') p++;
    }
    return PM_OK;
}

void pm_engine_machine_probe(pm_engine_machine *m, int with_gpus) {
    memset(m, 0, sizeof *m);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    m->cores = n > 0 ? (unsigned)n : 1;
    m->memory_bytes = pm_sys_memory_bytes();
    if (!with_gpus) {
        snprintf(m->no_gpu, sizeof m->no_gpu, "not probed");
        return;
    }
    const groth16_ops *ops;
    pm_error e;
    pm_error_clear(&e);
    if (groth16_ops_gpu(&ops, &e) != PM_OK) {
        snprintf(m->no_gpu, sizeof m->no_gpu, "%.199s", e.msg);
        return;
    }
#ifdef PROOFMILL_HAVE_GPU
    const int g = gpu_available();
    m->gpus = g > 0 ? (unsigned)g : 0;
#endif
    if (!m->gpus) snprintf(m->no_gpu, sizeof m->no_gpu, "no usable CUDA device");
}

/* append to a fixed line, truncating */
static void line_add(char *line, size_t cap, const char *fmt, ...) {
    size_t n = strlen(line);
    if (n + 1 >= cap) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, cap - n, fmt, ap);
    va_end(ap);
}

/* a user's value, else the automatic one; *why says which */
static unsigned pick(unsigned given, unsigned automatic, const char **why, const char *auto_why) {
    *why = given ? "given" : auto_why;
    return given ? given : automatic;
}

pm_status pm_engine_size(pm_engine_sizing *out, const pm_engine_config *base, const pm_engine_choices *c,
                         const pm_engine_machine *m, pm_error *err) {
    memset(out, 0, sizeof *out);
    const char *origin = c->origin ? c->origin : "devices";
    pm_engine_config *cfg = &out->cfg;
    *cfg = *base;
    char *line = out->line;
    const size_t cap = sizeof out->line;

    /* where the start phase runs */
    const char *where_why;
    out->gpu = c->where == PM_ENGINE_DEVICES_GPU || (c->where == PM_ENGINE_DEVICES_AUTO && m->gpus > 0);
    if (c->where == PM_ENGINE_DEVICES_GPU && !m->gpus)
        return pm_error_set(err, PM_ERR_GPU, origin, PM_NO_OFFSET,
                            "the start phase is to run on CUDA devices, but the GPU backend sees none: %s",
                            m->no_gpu);
    cfg->n_devices = 0;
    cfg->cpu_devices = !out->gpu;
    if (out->gpu && c->n_devices) {
        for (unsigned i = 0; i < c->n_devices && i < PM_ENGINE_MAX_DEVICES; i++) {
            if (c->devices[i] < 0 || (unsigned)c->devices[i] >= m->gpus)
                return pm_error_set(err, PM_ERR_ARG, origin, PM_NO_OFFSET,
                                    "CUDA device %d is not visible: the GPU backend sees %u device(s), 0..%u",
                                    c->devices[i], m->gpus, m->gpus - 1);
            cfg->devices[cfg->n_devices++] = c->devices[i];
        }
        where_why = "named";
    } else if (out->gpu) {
        for (unsigned i = 0; i < m->gpus && i < PM_ENGINE_MAX_DEVICES; i++) cfg->devices[cfg->n_devices++] = (int)i;
        where_why = c->where == PM_ENGINE_DEVICES_AUTO ? "every device the GPU backend sees, none named"
                                                       : "every device the GPU backend sees";
    } else {
        const unsigned slots = c->cpu_slots ? c->cpu_slots : 1;
        for (unsigned i = 0; i < slots && i < PM_ENGINE_MAX_DEVICES; i++) cfg->devices[cfg->n_devices++] = (int)i;
        where_why = c->where == PM_ENGINE_DEVICES_CPU ? "chosen" : NULL;
    }
    if (out->gpu) {
        line_add(line, cap, "start phase on %u CUDA device(s) ", cfg->n_devices);
        for (unsigned i = 0; i < cfg->n_devices; i++) line_add(line, cap, "%s%d", i ? "," : "", cfg->devices[i]);
        line_add(line, cap, " (%s)", where_why);
    } else if (where_why) {
        line_add(line, cap, "start phase on the CPU, %u slot(s) (%s)", cfg->n_devices, where_why);
    } else {
        line_add(line, cap, "start phase on the CPU, %u slot(s) (no CUDA device: %s)", cfg->n_devices, m->no_gpu);
    }

    /* the pools: pm_engine_pools_for_host for what was not given */
    pm_engine_pools pools;
    pm_engine_pools_for_host(&pools, out->gpu, m->cores ? m->cores : 1);
    const char *auto_why = out->gpu ? "from the cores" : "CPU default";
    const char *w_synth, *w_wpd, *w_fin, *w_start, *w_fmsm, *w_look;
    cfg->synth_workers = pick(c->synth_workers, pools.synth_workers, &w_synth, auto_why);
    cfg->workers_per_device = pick(c->workers_per_device, pools.workers_per_device, &w_wpd, "default");
    cfg->finalize_threads = pick(c->finalize_threads, pools.finalize_threads, &w_fin, auto_why);
    out->finalize_msm_threads = pick(c->finalize_msm_threads, pools.finalize_msm_threads, &w_fmsm, "default");
    if (c->start_threads == PM_ENGINE_ALL_CORES) {
        out->start_threads = 0;
        w_start = "given";
    } else {
        out->start_threads = pick(c->start_threads, pools.start_threads, &w_start, auto_why);
    }
    cfg->synth_lookahead =
        pick(c->synth_lookahead, pm_engine_auto_lookahead(cfg->synth_workers, cfg->n_devices, cfg->workers_per_device),
             &w_look, "auto");

    /* the host memory budget, as pm_engine_create computes it when 0 */
    const char *w_budget = "given";
    if (!cfg->memory_budget) {
        cfg->memory_budget = m->memory_bytes > base->memory_margin ? m->memory_bytes - base->memory_margin
                                                                    : m->memory_bytes / 2;
        w_budget = m->memory_bytes > base->memory_margin ? "host memory - margin" : "half the host memory";
    }

    line_add(line, cap, "; %u cores, %.1f GiB: %u synthesis workers (%s), %u workers per device (%s), "
             "%u finalizer(s) (%s), ", m->cores, m->memory_bytes / 1073741824.0, cfg->synth_workers, w_synth,
             cfg->workers_per_device, w_wpd, cfg->finalize_threads, w_fin);
    if (out->start_threads) line_add(line, cap, "%u start-phase MSM threads (%s), ", out->start_threads, w_start);
    else line_add(line, cap, "start-phase MSMs on every core (%s), ", w_start);
    line_add(line, cap, "%u G2 MSM thread(s) per finalize (%s), lookahead %u (%s), budget %.1f GiB (%s)",
             out->finalize_msm_threads, w_fmsm, cfg->synth_lookahead, w_look, cfg->memory_budget / 1073741824.0,
             w_budget);
    return PM_OK;
}

pm_status pm_engine_build(pm_engine_built *out, const pm_engine_build_opts *o, pm_error *err) {
    memset(out, 0, sizeof *out);
    pm_engine_machine m;
    pm_engine_machine_probe(&m, o->choices.where != PM_ENGINE_DEVICES_CPU);
    pm_status st = pm_engine_size(&out->sizing, &o->base, &o->choices, &m, err);
    if (st) return st;
    pm_kinds_backend_opts bo = o->backend;
    bo.gpu = out->sizing.gpu;
    bo.start_threads = out->sizing.start_threads;
    bo.finalize_threads = out->sizing.finalize_msm_threads;
    /* the engine's cards: each key gets its device-memory plan for the smallest of them */
    bo.devices = out->sizing.gpu ? out->sizing.cfg.devices : NULL;
    bo.n_devices = out->sizing.gpu ? out->sizing.cfg.n_devices : 0;
    bo.workers_per_device = out->sizing.cfg.workers_per_device;
    bo.host_budget = out->sizing.cfg.memory_budget;
    if ((st = pm_backend_kinds(&out->backend, &bo, err))) return st;
    if ((st = pm_engine_create(&out->engine, &out->sizing.cfg, &out->backend, err))) {
        out->backend.destroy(out->backend.self);
        memset(&out->backend, 0, sizeof out->backend);
        return st;
    }
    if (o->log) {
        char line[sizeof out->sizing.line + 64];
        snprintf(line, sizeof line, "engine %s: %s", out->backend.name, out->sizing.line);
        o->log(o->log_arg, line);
    }
    return PM_OK;
}

void pm_engine_built_destroy(pm_engine_built *b) {
    if (!b) return;
    pm_engine_destroy(b->engine);
    b->engine = NULL;
    if (b->backend.destroy) b->backend.destroy(b->backend.self);
    memset(&b->backend, 0, sizeof b->backend);
}
