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
 *  3. plans: for every kind and sector size whose .params and recorded circuit (.csr) are in DIR,
 *     the device-memory plan the engine would choose on each GPU here (groth16/devplan.h, from the
 *     card's free memory and the gpu.memory cap, two GPU workers: the engine's default), or the
 *     planner's refusal naming the smallest card that would do; and, GPU or not, the smallest card
 *     for each tier (groth16_devplan_min_card). Shapes come from the files' headers (kinds/shape.h,
 *     instant); a .params without its .csr is named, with the `proofmill plan` command that counts
 *     its circuit instead.
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
#include "cli/fil_gen.h"
#include "cli/opts.h"
#include "filecoin/param_report.h"
#include "filecoin/param_safety.h"
#include "filecoin/replica_id.h"
#include "filecoin/seal.h"
#include "filecoin/vanilla_proof.h"
#include "groth16/devplan.h"
#include "kinds/kind.h"
#include "kinds/shape.h"
#include "util/clock.h"
#include "util/parallel.h"
#include "util/sysmem.h"
#include "util/settings.h"
#ifdef PROOFMILL_HAVE_GPU
#include "gpu/gpu.h"
#include "groth16/start.h"
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

/* ---------------------------------------------------------------- 3. plans */
#define DOCTOR_WORKERS 2 /* GPU workers per device: the engine builder's default */

static const struct {
    fil_param_kind_t pk;
    const char *kind; /* the proof kind's name (kinds/) */
} plan_kinds[] = {{FIL_PARAM_POREP, "porep-c2"},
                  {FIL_PARAM_WINNING_POST, "winning-post"},
                  {FIL_PARAM_WINDOW_POST, "window-post"},
                  {FIL_PARAM_EMPTY_SECTOR_UPDATE, "snapdeals"}};

static const char *size_label(char *buf, size_t cap, uint64_t b) {
    if (b >= (1ull << 30)) snprintf(buf, cap, "%lluGiB", (unsigned long long)(b >> 30));
    else if (b >= (1ull << 20)) snprintf(buf, cap, "%lluMiB", (unsigned long long)(b >> 20));
    else snprintf(buf, cap, "%lluKiB", (unsigned long long)(b >> 10));
    return buf;
}

/* One kind and size whose .params is in dir: its plan on each GPU and its smallest card per tier. */
static void plan_one(json_t *arr, int json, const char *kind, uint64_t size, const char *params, const char *csr) {
    char sz[16], line[2048];
    size_label(sz, sizeof sz, size);
    json_t *k = json_object();
    json_object_set_new(k, "kind", json_string(kind));
    json_object_set_new(k, "sector_size", json_integer((json_int_t)size));
    json_object_set_new(k, "params", json_string(params));
    json_array_append_new(arr, k);
    groth16_devplan_shape shape;
    int have_csr = 0;
    pm_error err;
    pm_error_clear(&err);
    if (pm_shape_of_params(&shape, NULL, &have_csr, params, csr, &err)) {
        json_object_set_new(k, "error", json_string(err.msg));
        if (!json) printf("plan        %s %s: %s\n", kind, sz, pm_error_format(&err, line, sizeof line));
        return;
    }
    if (!have_csr) {
        json_object_set_new(k, "error", json_string("no recorded circuit (.csr) beside the parameters"));
        if (!json)
            printf("plan        %s %s: no recorded circuit (.csr) beside %s; `proofmill plan --kind %s --sector-size %s "
                   "--device-memory 24G` counts it\n",
                   kind, sz, params, kind, sz);
        return;
    }
    json_t *mins = json_object();
    int o = 0;
    line[0] = 0;
    for (unsigned t = 0; t < GROTH16_TIERS; t++) {
        const uint64_t mc = groth16_devplan_min_card(&shape, DOCTOR_WORKERS, t);
        if (!mc) continue;
        char key[8];
        snprintf(key, sizeof key, "%u", t);
        json_object_set_new(mins, key, json_integer((json_int_t)mc));
        if (o >= 0 && (size_t)o < sizeof line)
            o += snprintf(line + o, sizeof line - (size_t)o, "%s%u %s %.0f GiB", o ? ", " : "", t,
                          groth16_devplan_tier_name(t), (double)mc / GIB);
    }
    json_object_set_new(k, "min_card_bytes_by_tier", mins);
    if (!json) printf("plan        %s %s: smallest card per tier: %s\n", kind, sz, line);
    json_t *cards = json_array();
#ifdef PROOFMILL_HAVE_GPU
    int ndev = gpu_available();
    for (int d = 0; d < ndev; d++) {
        groth16_devplan_card card;
        groth16_devplan p;
        json_t *c = json_object();
        json_object_set_new(c, "device", json_integer(d));
        json_array_append_new(cards, c);
        pm_error_clear(&err);
        if (groth16_gpu_card(&card, d, DOCTOR_WORKERS, &err) || groth16_devplan_make(&p, &shape, &card, 0, &err)) {
            json_object_set_new(c, "refused", json_string(err.msg));
            if (!json) printf("            gpu %d: %s\n", d, pm_error_format(&err, line, sizeof line));
            continue;
        }
        json_object_set_new(c, "card", json_string(card.name));
        json_object_set_new(c, "tier", json_integer(p.tier));
        json_object_set_new(c, "tier_name", json_string(groth16_devplan_tier_name(p.tier)));
        json_object_set_new(c, "device_bytes", json_integer((json_int_t)p.peak_bytes));
        json_object_set_new(c, "host_pinned_bytes", json_integer((json_int_t)p.host_pinned_bytes));
        char plan_text[2048];
        json_object_set_new(c, "plan", json_string(groth16_devplan_format(plan_text, sizeof plan_text, &p, &shape)));
        if (!json)
            printf("            gpu %d (%s): tier %u (%s), %.1f GiB on the card\n", d, card.name, p.tier,
                   groth16_devplan_tier_name(p.tier), (double)p.peak_bytes / GIB);
    }
#endif
    json_object_set_new(k, "gpus", cards);
}

static void plans_section(json_t *o, int json, const char *dir) {
    json_t *arr = json_array();
    size_t nsz = 0;
    const fil_porep_shape_t *sizes = fil_porep_shapes(&nsz);
    unsigned found = 0;
    for (size_t ki = 0; ki < sizeof plan_kinds / sizeof plan_kinds[0]; ki++) {
        uint64_t last = 0;
        for (size_t i = 0; i < nsz; i++) {
            const uint64_t size = sizes[i].sector_size;
            if (size == last) continue; /* one row per size */
            last = size;
            char stem[160], params[4400], csr[4400];
            pm_error err;
            if (fil_param_stem(stem, sizeof stem, plan_kinds[ki].pk, size, &err)) continue;
            snprintf(params, sizeof params, "%s/%s.params", dir, stem);
            if (access(params, R_OK)) continue;
            snprintf(csr, sizeof csr, "%s/%s.csr", dir, stem);
            found++;
            plan_one(arr, json, plan_kinds[ki].kind, size, params, access(csr, R_OK) ? NULL : csr);
        }
    }
    if (!json && !found)
        printf("plan        no .params in %s to plan; `proofmill plan --kind K --sector-size S --device-memory 24G` plans "
               "any card\n",
               dir);
    json_object_set_new(o, "plans", arr);
}

/* ---------------------------------------------------------------- 4. calibration */
static void calibration_section(json_t *o, int json) {
    json_t *c = json_object();
    pm_error err;
    pm_error_clear(&err);
    fil_c1_t c1;
    pm_porep_shape shape;
    fr_t *w = NULL;
    size_t nw = 0;
    uint32_t nin = 0;
    double t1 = -1, tn = -1;
    pm_status st = pm_cli_fil_test_c1(&c1, 2048, 0, 7, &err); /* StackedDrg2KiBV1_1 */
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
        {"json", O_JSON, NULL, "one JSON object (machine, parameters, plans, calibration) for tools"},
        {"no-calibrate", O_NOCAL, NULL, "skip the calibration (seconds of CPU)"},
        {0}};
    static const pm_cli_spec spec = {
        "doctor", "doctor [DIR] [--json] [--no-calibrate]",
        "What this machine can do: cores, memory, each GPU (VRAM, pinning time), the Filecoin parameters in DIR\n"
        "(default $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters), genuine or test, the\n"
        "device-memory plan of each kind found there on each GPU (and the smallest card per tier), and a short\n"
        "calibration (the synthesis rate per core).",
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
    if (!dir || !*dir) dir = fil_param_default_dir(); /* as the daemon's filecoin.params_dir */
    json_t *o = json_object();
    machine_section(o, json);
    parameters_section(o, json, dir);
    plans_section(o, json, dir);
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
               "what this machine can do: cores, memory, GPUs, Filecoin parameters, plans per card, synthesis rate", cmd_doctor)
