/*
 * cmd_doctor.c — `proofmill doctor`: what this machine can do, in one screen (issue #39).
 *
 *   doctor [DIR] [--json] [--no-calibrate]
 *
 * Sections, in this order (each one function below; --json gives one object with a key per
 * section):
 *  1. machine: cores, host memory, the locked-memory limit; each GPU the GPU library reports
 *     (name, compute capability, SMs, VRAM total and free) and the time to pin host memory for it
 *     (gpu_host_alloc_pieces of 256 MiB, seconds). No GPU lines when it reports none.
 *  2. parameters: the Filecoin parameter directory (DIR, default $FIL_PROOFS_PARAMETER_CACHE,
 *     else /var/tmp/filecoin-proof-parameters) and which kinds and sizes it holds, Filecoin's or
 *     test (fil_param_dir_summary: by the .vk; `params check` hashes everything).
 *  3. (the device-memory plan per kind and card goes here, after the parameters and before the
 *     calibration: the planner of the "every card" issue owns it)
 *  4. calibration (unless --no-calibrate): the synthesis rate per core, measured on one 2 KiB
 *     PoRep partition sealed here (its witness with one thread, then with all), and from it the
 *     synthesis time of one 32 GiB PoRep partition (130,278,869 constraints, docs/circuits.md) on
 *     all cores. The GPU calibration (one MSM and one NTT per GPU) and the predicted s/proof per
 *     kind are not measured by this command yet: it says so.
 * Exit 0; 2 for a usage error.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "circuits/filecoin/porep_circuit.h"
#include "cli/cli.h"
#include "cli/opts.h"
#include "filecoin/param_report.h"
#include "filecoin/param_safety.h"
#include "filecoin/replica_id.h"
#include "filecoin/seal.h"
#include "filecoin/vanilla_proof.h"
#include "util/clock.h"
#include "util/parallel.h"
#include "util/sysmem.h"
#include "util/settings.h"
#ifdef PROOFMILL_HAVE_GPU
#include "gpu/gpu.h"
#endif

#define GIB (1024.0 * 1024.0 * 1024.0)
/* constraints of one PoRep partition with bellperson's input rows (POREP.md §6.8, docs/circuits.md) */
#define DOCTOR_POREP_2K_ROWS 2687961.0
#define DOCTOR_POREP_32G_ROWS 130278869.0

/* ---------------------------------------------------------------- 1. machine */
static void machine_section(json_t *o, int json) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t mem = pm_sys_memory_bytes();
    struct rlimit rl;
    int have_rl = getrlimit(RLIMIT_MEMLOCK, &rl) == 0;
    json_t *m = json_object();
    json_object_set_new(m, "cores", json_integer(cores));
    json_object_set_new(m, "threads", json_integer(pm_thread_count()));
    json_object_set_new(m, "memory_bytes", json_integer((json_int_t)mem));
    if (have_rl)
        json_object_set_new(m, "memlock_bytes",
                            rl.rlim_cur == RLIM_INFINITY ? json_string("unlimited") : json_integer((json_int_t)rl.rlim_cur));
    if (!json) {
        printf("machine     %ld cores (%d threads used), %.1f GiB memory", cores, pm_thread_count(), (double)mem / GIB);
        if (have_rl && rl.rlim_cur == RLIM_INFINITY) printf(", locked memory unlimited\n");
        else if (have_rl) printf(", locked memory at most %.1f MiB (LimitMEMLOCK)\n", (double)rl.rlim_cur / (1 << 20));
        else printf("\n");
    }
    json_t *gpus = json_array();
#ifdef PROOFMILL_HAVE_GPU
    int ndev = gpu_available();
    for (int d = 0; d < ndev; d++) {
        gpu_device_info_t info;
        pm_error err;
        pm_error_clear(&err);
        if (gpu_device_info(&info, d, &err)) continue;
        json_t *g = json_object();
        json_object_set_new(g, "device", json_integer(d));
        json_object_set_new(g, "name", json_string(info.name));
        json_object_set_new(g, "compute_capability", json_sprintf("%d.%d", info.major, info.minor));
        json_object_set_new(g, "sm_count", json_integer(info.sm_count));
        json_object_set_new(g, "vram_total_bytes", json_integer((json_int_t)info.mem_total));
        json_object_set_new(g, "vram_free_bytes", json_integer((json_int_t)info.mem_free));
        /* pinning: 256 MiB in the pieces the engine uses, timed */
        double pin_s = -1;
        void *p = NULL;
        const size_t bytes = (size_t)256 << 20;
        if (gpu_set_device(d, &err) == PM_OK) {
            double t0 = pm_now_s();
            if (gpu_host_alloc_pieces(&p, bytes, &err) == PM_OK) {
                pin_s = pm_now_s() - t0;
                gpu_host_free_pieces(p, bytes);
            }
        }
        if (pin_s >= 0) json_object_set_new(g, "pin_256mib_s", json_real(pin_s));
        json_array_append_new(gpus, g);
        if (!json) {
            printf("gpu %d       %s, sm_%d%d, %d SMs, VRAM %.1f GiB (%.1f GiB free)", d, info.name, info.major,
                   info.minor, info.sm_count, (double)info.mem_total / GIB, (double)info.mem_free / GIB);
            if (pin_s >= 0) printf(", pinning 256 MiB %.3f s\n", pin_s);
            else printf(", pinning refused: %s\n", err.msg);
        }
    }
#endif
    if (!json && json_array_size(gpus) == 0) printf("gpus        none reported (CPU proving only)\n");
    json_object_set_new(m, "gpus", gpus);
    json_object_set_new(o, "machine", m);
}

/* ---------------------------------------------------------------- 2. parameters */
static void parameters_section(json_t *o, int json, const char *dir) {
    char line[4096];
    fil_param_dir_summary(line, sizeof line, dir);
    json_t *p = json_object();
    json_object_set_new(p, "dir", json_string(dir));
    json_object_set_new(p, "summary", json_string(line));
    json_object_set_new(o, "parameters", p);
    if (!json) printf("parameters  %s: %s\n", dir, line);
}

/* ---------------------------------------------------------------- 4. calibration */
static void calibration_section(json_t *o, int json) {
    json_t *c = json_object();
    pm_error err;
    pm_error_clear(&err);
    fil_seal_params_t sp;
    memset(&sp, 0, sizeof sp);
    sp.registered_proof = 5; /* StackedDrg2KiBV1_1 */
    fil_prover_id_from_miner(sp.prover_id, 1000);
    sp.sector_id = 1;
    uint8_t seed[32];
    memset(seed, 7, 32);
    seed[31] &= 0x3f;
    fil_seal_t s;
    fil_c1_t c1;
    memset(&c1, 0, sizeof c1);
    pm_porep_shape shape;
    fr_t *w = NULL;
    size_t nw = 0;
    uint32_t nin = 0;
    double t1 = -1, tn = -1;
    pm_status st = fil_seal_run(&s, &sp, &err);
    if (!st) {
        st = fil_c1_from_seal(&c1, &s, seed, &err);
        fil_seal_free(&s);
    }
    if (!st) st = pm_porep_shape_for_size(&shape, 2048, &err);
    if (!st) st = pm_porep_witness_mt(&w, &nw, &nin, &shape, &c1, 0, 1, &err); /* warm: counts cached */
    free(w);
    w = NULL;
    if (!st) {
        double t0 = pm_now_s();
        st = pm_porep_witness_mt(&w, &nw, &nin, &shape, &c1, 0, 1, &err);
        t1 = pm_now_s() - t0;
        free(w);
        w = NULL;
    }
    if (!st) {
        double t0 = pm_now_s();
        st = pm_porep_witness_mt(&w, &nw, &nin, &shape, &c1, 0, 0, &err);
        tn = pm_now_s() - t0;
        free(w);
    }
    fil_c1_free(&c1);
    if (st) {
        json_object_set_new(c, "error", json_string(err.msg));
        if (!json) printf("calibration could not run: %s\n", err.msg);
        json_object_set_new(o, "calibration", c);
        return;
    }
    double per_core = t1 > 0 ? DOCTOR_POREP_2K_ROWS / t1 : 0, all = tn > 0 ? DOCTOR_POREP_2K_ROWS / tn : 0;
    double pred32 = all > 0 ? DOCTOR_POREP_32G_ROWS / all : 0;
    json_object_set_new(c, "synthesis_constraints_per_s_one_core", json_real(per_core));
    json_object_set_new(c, "synthesis_constraints_per_s_all_cores", json_real(all));
    json_object_set_new(c, "porep_32g_partition_synthesis_s", json_real(pred32));
    json_object_set_new(c, "gpu_calibration", json_string("not measured by doctor yet (one MSM and one NTT per GPU)"));
    json_object_set_new(o, "calibration", c);
    if (!json) {
        printf("synthesis   %.2f M constraints/s on one core, %.2f M/s on %d threads (one 2 KiB PoRep partition's "
               "witness)\n",
               per_core / 1e6, all / 1e6, pm_thread_count());
        printf("            one 32 GiB PoRep partition's synthesis (130.3 M constraints): ~%.0f s on %d threads\n",
               pred32, pm_thread_count());
        printf("prediction  s/proof per kind needs the GPU calibration (one MSM and one NTT per GPU), which doctor "
               "does not measure yet\n");
    }
}

static int cmd_doctor(int argc, char **argv) {
    int json = 0, calibrate = 1;
    const char *dir = NULL;
    enum { O_JSON = 256, O_NOCAL };
    static const pm_cli_opt opts[] = {
        {"json", O_JSON, NULL, "one JSON object (machine, parameters, calibration) for tools"},
        {"no-calibrate", O_NOCAL, NULL, "skip the calibration (seconds of CPU)"},
        {0}};
    static const pm_cli_spec spec = {
        "doctor", "doctor [DIR] [--json] [--no-calibrate]",
        "What this machine can do: cores, memory, each GPU (VRAM, pinning time), the Filecoin parameters in DIR\n"
        "(default $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters), genuine or test, and a\n"
        "short calibration (the synthesis rate per core).",
        opts};
    pm_cli_args a;
    pm_cli_args_init(&a, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&a)) != PM_CLI_DONE;) {
        if (o == PM_CLI_EXIT) return a.rc;
        if (o == O_JSON) json = 1;
        else if (o == O_NOCAL) calibrate = 0;
    }
    if (a.ind < argc) dir = argv[a.ind++];
    if (a.ind < argc) return pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[a.ind]);
    if (!dir) dir = pm_setting_str("filecoin.params_dir") /* FIL_PROOFS_PARAMETER_CACHE */;
    if (!dir || !*dir) dir = FIL_PARAM_DEFAULT_CACHE;
    json_t *o = json_object();
    machine_section(o, json);
    parameters_section(o, json, dir);
    /* the device-memory plan section (per kind and card) goes here, in this order */
    if (calibrate) calibration_section(o, json);
    if (json) {
        char *s = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        if (s) printf("%s\n", s);
        free(s);
    }
    json_decref(o);
    return PM_EXIT_OK;
}

PM_CLI_COMMAND(doctor, "doctor [DIR] [--json] [--no-calibrate]",
               "what this machine can do: cores, memory, GPUs, Filecoin parameters, synthesis rate", cmd_doctor)
