/*
 * cmd_doctor.c — `proofmill doctor`: what this machine can do, in one screen (issue #39).
 *
 *   doctor [DIR] [--json] [--no-calibrate]
 *
 * Sections, in this order (each one function below; --json gives one object with a key per
 * section):
 *  1. machine: cores, host memory, the locked-memory limit; the NVIDIA driver (its kernel module's
 *     version, /proc/driver/nvidia/version, and the CUDA driver API version); each GPU the GPU
 *     library reports (name, compute capability, SMs, VRAM total and free, its PCIe link: generation
 *     and width now and at most, from sysfs, util/pcie.h) and the time to pin host memory for it
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
 *     all cores; one CPU NTT of 2^20 on all threads; on each GPU, one G1 MSM of 2^24 points with
 *     uniform scalars and one with witness-like scalars (75 % 0, 20 % 1, 5 % uniform), one NTT of
 *     2^24 in device memory (medians of 3 after a warm-up) and the pinned host-to-device copy rate.
 *  5. prediction (with the calibration and a GPU): for each 32 GiB kind of the reference table
 *     (groth16/predict.h: PoRep C2, WindowPoSt, SnapDeals, WinningPoSt), the plan on each GPU here
 *     and the s/proof the model predicts from this machine's calibration, printed beside the
 *     figure measured on our reference H200 and the model's own figure for the H200 (its error).
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
#include "util/splitmix.h"
#include "cli/fil_gen.h"
#include "cli/opts.h"
#include "filecoin/param_report.h"
#include "filecoin/param_safety.h"
#include "filecoin/replica_id.h"
#include "filecoin/seal.h"
#include "filecoin/vanilla_proof.h"
#include "groth16/devplan.h"
#include "groth16/predict.h"
#include "kinds/kind.h"
#include "kinds/shape.h"
#include "ntt/ntt.h"
#include "util/clock.h"
#include "util/parallel.h"
#include "util/pcie.h"
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
        if (d == 0) { /* the driver, once */
            char drv[64];
            const int have_drv = !pm_nvidia_driver_version(drv, sizeof drv, "/proc/driver/nvidia/version");
            if (have_drv) json_object_set_new(m, "nvidia_driver", json_string(drv));
            json_object_set_new(m, "cuda_driver", json_sprintf("%d.%d", info.cuda_driver / 1000, info.cuda_driver % 1000 / 10));
            if (!json)
                printf("driver      NVIDIA %s, CUDA driver %d.%d\n", have_drv ? drv : "(version not readable)",
                       info.cuda_driver / 1000, info.cuda_driver % 1000 / 10);
        }
        pm_pcie_link_t link;
        const int have_link = !pm_pcie_link(&link, "/sys", info.pci_bus_id);
        json_t *g = json_object();
        json_object_set_new(g, "device", json_integer(d));
        json_object_set_new(g, "name", json_string(info.name));
        json_object_set_new(g, "compute_capability", json_sprintf("%d.%d", info.major, info.minor));
        json_object_set_new(g, "sm_count", json_integer(info.sm_count));
        json_object_set_new(g, "vram_total_bytes", json_integer((json_int_t)info.mem_total));
        json_object_set_new(g, "vram_free_bytes", json_integer((json_int_t)info.mem_free));
        json_object_set_new(g, "pci_bus_id", json_string(info.pci_bus_id));
        if (have_link) {
            json_object_set_new(g, "pcie_gen", json_integer(link.gen));
            json_object_set_new(g, "pcie_width", json_integer(link.width));
            json_object_set_new(g, "pcie_max_gen", json_integer(link.max_gen));
            json_object_set_new(g, "pcie_max_width", json_integer(link.max_width));
        }
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
            /* the link's best (an idle GPU trains its link down: the current one is said beside) */
            if (have_link && link.max_gen && link.max_width) {
                printf(", PCIe Gen%d x%u", link.max_gen, link.max_width);
                if (link.gen != link.max_gen || link.width != link.max_width)
                    printf(" (now Gen%d x%u)", link.gen, link.width);
            } else if (have_link && link.gen) {
                printf(", PCIe Gen%d x%u", link.gen, link.width);
            } else if (have_link) {
                printf(", PCIe %.1f GT/s x%u", link.gts, link.width);
            } else {
                printf(", PCIe link not readable (%s)", info.pci_bus_id);
            }
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
#define DOCTOR_MSM_LOG_N 24u     /* the calibration MSM: 2^24 points (1.5 GiB of bases), issue #38's size */
#define DOCTOR_NTT_LOG_N 24u     /* the GPU NTT */
#define DOCTOR_CPU_NTT_LOG_N 20u /* the CPU NTT (~0.1 s on 16 cores) */
#define DOCTOR_REPS 3

static double median3(double a, double b, double c) {
    return a > b ? (b > c ? b : (a > c ? c : a)) : (a > c ? a : (b > c ? c : b));
}

/* n plain scalars: uniform below 2^254 (< r), or witness-like (75 % 0, 20 % 1, 5 % uniform). */
static void doctor_scalars(fr_t *k, size_t n, int witness, uint64_t seed) {
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++) {
        const uint64_t u = pm_splitmix64(&s) % 100;
        if (witness && u < 95) {
            memset(&k[i], 0, sizeof k[i]);
            k[i].l[0] = u >= 75;
            continue;
        }
        for (int j = 0; j < 4; j++) k[i].l[j] = pm_splitmix64(&s);
        k[i].l[3] &= 0x3fffffffffffffffull;
    }
}

/* One CPU NTT of 2^DOCTOR_CPU_NTT_LOG_N on all threads, median of 3 (seconds; -1 on failure). */
static double cpu_ntt_calibrate(pm_error *err) {
    ntt_domain_t d;
    const size_t n = (size_t)1 << DOCTOR_CPU_NTT_LOG_N;
    if (ntt_domain_init(&d, DOCTOR_CPU_NTT_LOG_N, NTT_ROOTS_ARKWORKS, err)) return -1;
    fr_t *a = malloc(n * sizeof *a);
    if (!a) {
        ntt_domain_free(&d);
        pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "calibration: %zu bytes for the CPU NTT", n * sizeof *a);
        return -1;
    }
    doctor_scalars(a, n, 0, 11);
    double t[DOCTOR_REPS];
    ntt_forward(a, n, &d); /* warm-up */
    for (int r = 0; r < DOCTOR_REPS; r++) {
        const double t0 = pm_now_s();
        ntt_forward(a, n, &d);
        t[r] = pm_now_s() - t0;
    }
    free(a);
    ntt_domain_free(&d);
    return median3(t[0], t[1], t[2]);
}

#ifdef PROOFMILL_HAVE_GPU
/* GPU d's part of c: the MSMs, the NTT and the copy rate (seconds, medians of 3 after a warm-up). */
static pm_status gpu_calibrate(int d, groth16_calib *c, pm_error *err) {
    const size_t n = (size_t)1 << DOCTOR_MSM_LOG_N, nn = (size_t)1 << DOCTOR_NTT_LOG_N;
    const size_t bytes = (n > nn ? n : nn) * sizeof(fr_t);
    fr_t *k = NULL;
    gpu_g1_bases *b = NULL;
    gpu_ntt_domain *dom = NULL;
    void *dev = NULL;
    g1_jac_t r;
    double t[DOCTOR_REPS];
    pm_status st = gpu_set_device(d, err);
    if (!st) st = gpu_host_alloc((void **)&k, bytes, err);
    if (!st) {
        doctor_scalars(k, n, 0, 1000 + (uint64_t)d);
        st = gpu_g1_bases_from_scalars(&b, k, n, err); /* [t_i]G: points with known logs */
    }
    for (int w = 0; w < 2 && !st; w++) {
        doctor_scalars(k, n, w, 2000 + (uint64_t)w);
        st = gpu_msm_g1(&r, b, 0, k, n, 0, err); /* warm-up: scratch allocated, kernels loaded */
        for (int i = 0; i < DOCTOR_REPS && !st; i++) {
            const double t0 = pm_now_s();
            st = gpu_msm_g1(&r, b, 0, k, n, 0, err);
            t[i] = pm_now_s() - t0;
        }
        if (!st) *(w ? &c->msm_witness_s : &c->msm_uniform_s) = median3(t[0], t[1], t[2]);
    }
    gpu_g1_bases_free(b);
    if (!st) st = gpu_dev_alloc(&dev, bytes, err);
    if (!st) {
        doctor_scalars(k, bytes / sizeof(fr_t), 0, 3000);
        st = gpu_copy_to_device(dev, k, bytes, err); /* warm-up */
        for (int i = 0; i < DOCTOR_REPS && !st; i++) {
            const double t0 = pm_now_s();
            st = gpu_copy_to_device(dev, k, bytes, err);
            t[i] = pm_now_s() - t0;
        }
        if (!st) c->h2d_bytes_per_s = (double)bytes / median3(t[0], t[1], t[2]);
    }
    if (!st) st = gpu_ntt_domain_init(&dom, DOCTOR_NTT_LOG_N, 7, err);
    if (!st) st = gpu_ntt_device(dev, nn, GPU_NTT_FORWARD, dom, err);
    for (int i = 0; i < DOCTOR_REPS && !st; i++) {
        const double t0 = pm_now_s();
        st = gpu_ntt_device(dev, nn, GPU_NTT_FORWARD, dom, err);
        t[i] = pm_now_s() - t0;
    }
    if (!st) c->ntt_s = median3(t[0], t[1], t[2]);
    gpu_ntt_domain_free(dom);
    gpu_dev_free(dev);
    gpu_host_free(k);
    c->msm_log_n = DOCTOR_MSM_LOG_N;
    c->ntt_log_n = DOCTOR_NTT_LOG_N;
    return st;
}
#endif

/* The synthesis rate on one core and on all (constraints per second; 0 and the error on failure). */
static pm_status synthesis_calibrate(double *per_core, double *all, pm_error *err) {
    fil_c1_t c1;
    pm_porep_shape shape;
    fr_t *w = NULL;
    size_t nw = 0;
    uint32_t nin = 0;
    double t1 = -1, tn = -1;
    *per_core = *all = 0;
    pm_status st = pm_cli_fil_test_c1(&c1, 2048, 0, 7, err); /* StackedDrg2KiBV1_1 */
    if (st) return st;
    st = pm_porep_shape_for_size(&shape, 2048, err);
    if (!st) st = pm_porep_witness_mt(&w, &nw, &nin, &shape, &c1, 0, 1, err); /* warm: counts cached */
    free(w);
    w = NULL;
    if (!st) {
        double t0 = pm_now_s();
        st = pm_porep_witness_mt(&w, &nw, &nin, &shape, &c1, 0, 1, err);
        t1 = pm_now_s() - t0;
        free(w);
        w = NULL;
    }
    if (!st) {
        double t0 = pm_now_s();
        st = pm_porep_witness_mt(&w, &nw, &nin, &shape, &c1, 0, 0, err);
        tn = pm_now_s() - t0;
        free(w);
    }
    fil_c1_free(&c1);
    if (!st) {
        *per_core = t1 > 0 ? DOCTOR_POREP_2K_ROWS / t1 : 0;
        *all = tn > 0 ? DOCTOR_POREP_2K_ROWS / tn : 0;
    }
    return st;
}

/* ---------------------------------------------------------------- 5. prediction */
#ifdef PROOFMILL_HAVE_GPU
static void predict_one(json_t *arr, int json, int d, const groth16_predict_ref *r, const groth16_calib *c) {
    json_t *k = json_object();
    json_object_set_new(k, "device", json_integer(d));
    json_object_set_new(k, "kind", json_string(r->kind));
    json_object_set_new(k, "sector_size", json_integer((json_int_t)r->sector_size));
    json_object_set_new(k, "reference_h200_s_per_proof", json_real(r->measured_s));
    json_object_set_new(k, "reference_measured_at", json_string(r->measured_at));
    json_array_append_new(arr, k);
    char sz[16], line[1024];
    size_label(sz, sizeof sz, r->sector_size);
    pm_error err;
    pm_error_clear(&err);
    groth16_devplan plan, *pp = NULL;
    groth16_devplan_card card;
    if (groth16_gpu_card(&card, d, DOCTOR_WORKERS, &err) || groth16_devplan_make(&plan, &r->shape, &card, 0, &err)) {
        json_object_set_new(k, "refused", json_string(err.msg));
        if (!json) printf("predict     %s %s on gpu %d: no plan: %s\n", r->kind, sz, d, pm_error_format(&err, line, sizeof line));
        return;
    }
    pp = &plan;
    groth16_prediction p, ref;
    if (groth16_predict(&p, &r->shape, pp, r->rows, r->partitions, r->uniform_witness, c, &err)) {
        json_object_set_new(k, "error", json_string(err.msg));
        if (!json) printf("predict     %s %s on gpu %d: %s\n", r->kind, sz, d, pm_error_format(&err, line, sizeof line));
        return;
    }
    /* the model on the H200's own figures, with this machine's CPU: its error against the measurement */
    groth16_calib rc = *groth16_predict_ref_calib();
    rc.synth_rows_per_s = c->synth_rows_per_s;
    rc.cpu_threads = c->cpu_threads;
    const int have_ref = !groth16_predict(&ref, &r->shape, NULL, r->rows, r->partitions, r->uniform_witness, &rc, &err);
    const unsigned tier = pp ? pp->tier : 0;
    json_object_set_new(k, "tier", json_integer(tier));
    json_object_set_new(k, "predicted_s_per_proof", json_real(p.proof_s));
    json_object_set_new(k, "gpu_s_per_partition", json_real(p.gpu_s));
    json_object_set_new(k, "cpu_s_per_partition", json_real(p.cpu_s));
    json_object_set_new(k, "bound", json_string(p.bound));
    if (have_ref) json_object_set_new(k, "model_on_reference_h200_s_per_proof", json_real(ref.proof_s));
    if (!json) {
        printf("predict     %s %s on gpu %d: %.2f s/proof (tier %u %s; per partition GPU %.2f s, CPU %.2f s: %s-bound)\n",
               r->kind, sz, d, p.proof_s, tier, groth16_devplan_tier_name(tier), p.gpu_s, p.cpu_s, p.bound);
        printf("            reference H200: measured %.2f s (%s)", r->measured_s, r->measured_at);
        if (have_ref) printf("; the model says %.2f s there\n", ref.proof_s);
        else printf("\n");
    }
}
#endif

static void calibration_section(json_t *o, int json) {
    json_t *c = json_object();
    json_object_set_new(o, "calibration", c);
    pm_error err;
    pm_error_clear(&err);
    double per_core = 0, all = 0;
    if (synthesis_calibrate(&per_core, &all, &err)) {
        json_object_set_new(c, "error", json_string(err.msg));
        if (!json) printf("calibration could not run: %s\n", err.msg);
        return;
    }
    const double pred32 = all > 0 ? DOCTOR_POREP_32G_ROWS / all : 0;
    json_object_set_new(c, "synthesis_constraints_per_s_one_core", json_real(per_core));
    json_object_set_new(c, "synthesis_constraints_per_s_all_cores", json_real(all));
    json_object_set_new(c, "porep_32g_partition_synthesis_s", json_real(pred32));
    if (!json) {
        printf("synthesis   %.2f M constraints/s on one core, %.2f M/s on %d threads (one 2 KiB PoRep partition's "
               "witness)\n",
               per_core / 1e6, all / 1e6, pm_thread_count());
        printf("            one 32 GiB PoRep partition's synthesis (130.3 M constraints): ~%.0f s on %d threads\n",
               pred32, pm_thread_count());
    }
    groth16_calib base = {.synth_rows_per_s = all, .cpu_threads = (unsigned)pm_thread_count(),
                          .cpu_ntt_log_n = DOCTOR_CPU_NTT_LOG_N};
    const double cpu_ntt = cpu_ntt_calibrate(&err);
    if (cpu_ntt > 0) {
        base.cpu_ntt_s = cpu_ntt;
        json_object_set_new(c, "cpu_ntt_log_n", json_integer(DOCTOR_CPU_NTT_LOG_N));
        json_object_set_new(c, "cpu_ntt_s", json_real(cpu_ntt));
        if (!json) printf("cpu ntt     2^%u on %d threads: %.1f ms\n", DOCTOR_CPU_NTT_LOG_N, pm_thread_count(), cpu_ntt * 1e3);
    } else if (!json) printf("cpu ntt     could not run: %s\n", err.msg);
    json_t *gpus = json_array(), *preds = json_array();
    json_object_set_new(c, "gpus", gpus);
    json_object_set_new(o, "prediction", preds);
    int ndev = 0;
    (void)base; /* a build without CUDA predicts nothing */
#ifdef PROOFMILL_HAVE_GPU
    ndev = gpu_available();
    for (int d = 0; d < ndev; d++) {
        groth16_calib gc = base;
        json_t *g = json_object();
        json_object_set_new(g, "device", json_integer(d));
        json_array_append_new(gpus, g);
        pm_error_clear(&err);
        if (gpu_calibrate(d, &gc, &err)) {
            json_object_set_new(g, "error", json_string(err.msg));
            if (!json) printf("gpu %d calib could not run: %s\n", d, err.msg);
            continue;
        }
        json_object_set_new(g, "msm_log_n", json_integer(gc.msm_log_n));
        json_object_set_new(g, "msm_g1_uniform_s", json_real(gc.msm_uniform_s));
        json_object_set_new(g, "msm_g1_witness_s", json_real(gc.msm_witness_s));
        json_object_set_new(g, "ntt_log_n", json_integer(gc.ntt_log_n));
        json_object_set_new(g, "ntt_s", json_real(gc.ntt_s));
        json_object_set_new(g, "h2d_bytes_per_s", json_real(gc.h2d_bytes_per_s));
        if (!json)
            printf("gpu %d calib G1 MSM 2^%u: %.1f ms uniform, %.1f ms witness-like; NTT 2^%u: %.2f ms; pinned copy "
                   "%.1f GB/s\n",
                   d, gc.msm_log_n, gc.msm_uniform_s * 1e3, gc.msm_witness_s * 1e3, gc.ntt_log_n, gc.ntt_s * 1e3,
                   gc.h2d_bytes_per_s / 1e9);
        size_t nref;
        const groth16_predict_ref *refs = groth16_predict_refs(&nref);
        for (size_t i = 0; i < nref; i++) predict_one(preds, json, d, &refs[i], &gc);
    }
#endif
    if (!ndev && !json)
        printf("predict     no GPU here: the s/proof predictions are for GPUs (the CPU prover: docs/perf/cpu-groth16.md)\n");
}

static int cmd_doctor(int argc, char **argv) {
    int json = 0, calibrate = 1;
    const char *dir = NULL;
    enum { O_JSON = 256, O_NOCAL };
    static const pm_cli_opt opts[] = {
        {"json", O_JSON, NULL, "one JSON object (machine, parameters, plans, calibration, prediction) for tools"},
        {"no-calibrate", O_NOCAL, NULL, "skip the calibration and the prediction (seconds of CPU and GPU)"},
        {0}};
    static const pm_cli_spec spec = {
        "doctor", "doctor [DIR] [--json] [--no-calibrate]",
        "What this machine can do: cores, memory, each GPU (VRAM, pinning time), the Filecoin parameters in DIR\n"
        "(default $FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters), genuine or test, the\n"
        "device-memory plan of each kind found there on each GPU (and the smallest card per tier), a short\n"
        "calibration (the synthesis rate per core, a CPU NTT; on each GPU one MSM, one NTT and the pinned copy rate)\n"
        "and, with a GPU, the s/proof predicted for each 32 GiB kind beside the figure measured on our H200.",
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
               "what this machine can do: cores, memory, GPUs, Filecoin parameters, plans per card, calibration, predicted s/proof", cmd_doctor)
