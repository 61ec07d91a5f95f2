/*
 * predict.c — the s/proof model of predict.h.
 */
#include "groth16/predict.h"

#include <math.h>
#include <string.h>

#define G1_AFFINE_BYTES 96.0  /* two Fp of 48 bytes */
#define G2_AFFINE_BYTES 192.0 /* two Fp2 */
#define FR_BYTES 32.0

double groth16_predict_msm_s(const groth16_calib *c, uint64_t n, int uniform) {
    const double t = uniform ? c->msm_uniform_s : c->msm_witness_s;
    if (!c->msm_log_n || t <= 0 || n == 0) return 0;
    const double nc = ldexp(1.0, (int)c->msm_log_n);
    const double doublings = log2((double)n / nc);
    const double k = uniform ? GROTH16_PREDICT_UNIFORM_DOUBLING : GROTH16_PREDICT_WITNESS_DOUBLING;
    return t * ((double)n / nc) * pow(k, doublings);
}

double groth16_predict_ntt_s(const groth16_calib *c, unsigned log_n, int cpu) {
    const unsigned lc = cpu ? c->cpu_ntt_log_n : c->ntt_log_n;
    const double t = cpu ? c->cpu_ntt_s : c->ntt_s;
    if (!lc || t <= 0 || !log_n) return 0;
    return t * ldexp(1.0, (int)log_n - (int)lc) * ((double)log_n / (double)lc); /* n log n */
}

/* One base set of n points (g2: 192-byte points) with its scalar distribution: its MSM, or its
 * stream when that takes longer (the copy of chunk i+1 overlaps chunk i's MSM). */
static double set_s(const groth16_calib *c, uint64_t n, int g2, int uniform, groth16_place where) {
    double msm = groth16_predict_msm_s(c, n, uniform) * (g2 ? GROTH16_PREDICT_G2_FACTOR : 1.0);
    if (where == GROTH16_STREAMED) {
        const double copy = (double)n * (g2 ? G2_AFFINE_BYTES : G1_AFFINE_BYTES) / c->h2d_bytes_per_s;
        if (copy > msm) msm = copy;
    }
    return msm;
}

pm_status groth16_predict(groth16_prediction *out, const groth16_devplan_shape *s, const groth16_devplan *p,
                          uint64_t rows, unsigned partitions, int uniform_witness, const groth16_calib *c,
                          pm_error *err) {
    memset(out, 0, sizeof *out);
    if (!s || !c || !s->log_domain || !s->n_base[GROTH16_BASE_H] || !partitions)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "predict: an empty key shape or no partitions");
    if (c->msm_uniform_s <= 0 || c->msm_witness_s <= 0 || c->ntt_s <= 0 || c->h2d_bytes_per_s <= 0)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "predict: the calibration lacks the GPU MSM, the GPU NTT or the copy rate");
    const unsigned tier = p ? p->tier : GROTH16_TIER_RESIDENT;
    const int bp = s->conv == GROTH16_BELLPERSON;
    const unsigned ntts = bp ? 7 : 6;
    const double domain = ldexp(1.0, (int)s->log_domain);
    const int host_h = p && p->h == GROTH16_ON_HOST;
    const int host_circuit = bp && p && p->circuit == GROTH16_ON_HOST;

    /* GPU: NTTs, the five MSMs, the uploads nothing hides */
    if (!host_h) out->ntt_s = ntts * groth16_predict_ntt_s(c, s->log_domain, 0);
    for (unsigned i = 0; i < GROTH16_N_BASES; i++) {
        const int uniform = i == GROTH16_BASE_H || uniform_witness;
        out->msm_s += set_s(c, s->n_base[i], 0, uniform, p ? p->base[i] : GROTH16_ON_DEVICE);
    }
    out->msm_s += set_s(c, s->n_b2, 1, uniform_witness, p ? p->b2 : GROTH16_ON_DEVICE);
    /* a, b, c; at tier 4 (one domain buffer) also A^ and D down and up again: 7 copies of the domain */
    if (host_circuit && !host_h) out->upload_s += (p->h_buffers == 1 ? 7 : 3) * domain * FR_BYTES / c->h2d_bytes_per_s;
    if (host_h) out->upload_s += domain * FR_BYTES / c->h2d_bytes_per_s;                     /* H's scalars */
    /* one witness slot (tier 3 and up, or for the host budget): the witness upload is not hidden */
    if (tier >= GROTH16_TIER_ONE_SLOT || (p && p->one_slot_for_host))
        out->upload_s += (double)s->n_vars * FR_BYTES / c->h2d_bytes_per_s;
    out->gpu_s = out->ntt_s + out->msm_s + out->upload_s;

    /* CPU: synthesis, the SpMV without the circuit on the card, the NTTs at tier 5 */
    if (c->synth_rows_per_s > 0) out->cpu_s = (double)rows / c->synth_rows_per_s;
    if (host_circuit) out->cpu_s += (double)rows / (GROTH16_PREDICT_SPMV_ROWS_PER_CORE_S * (c->cpu_threads ? c->cpu_threads : 1));
    if (host_h) {
        const double t = groth16_predict_ntt_s(c, s->log_domain, 1);
        if (t <= 0) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "predict: a plan with H on the CPU needs the CPU NTT calibration");
        out->cpu_s += ntts * t;
    }
    if (partitions > 1) {
        out->partition_s = out->gpu_s > out->cpu_s ? out->gpu_s : out->cpu_s;
        out->proof_s = partitions * out->partition_s;
    } else {
        out->partition_s = out->gpu_s + out->cpu_s;
        out->proof_s = out->partition_s;
    }
    out->bound = out->gpu_s >= out->cpu_s ? "GPU" : "CPU";
    return PM_OK;
}

/* ---- reference kinds: shapes as tests/groth16/test_devplan.c plans them ---- */
#define BASES(a, b1, c, h) {[GROTH16_BASE_A] = (a), [GROTH16_BASE_B1] = (b1), [GROTH16_BASE_C] = (c), [GROTH16_BASE_H] = (h)}
static const groth16_predict_ref refs[] = {
    /* PoRep 32 GiB: 130,278,869 rows (328 inputs), 130,169,893 aux, A/B densities of the recorded
     * circuit (docs/perf/porep.md); 18.28 s/proof steady at j 2 on the H200 (issue #37, 0f32608). */
    {.kind = "porep-c2", .sector_size = 32ull << 30, .partitions = 10, .rows = 130278869, .uniform_witness = 0,
     .shape = {.conv = GROTH16_BELLPERSON, .n_vars = 130169893 + 328, .n_public = 327, .log_domain = 27,
               .n_base = BASES(129649540, 33193406, 130169893, (1ull << 27) - 1), .n_b2 = 33193406,
               .circuit_bytes = 7350000000ull},
     .measured_s = 18.28, .measured_at = "issue #37 (0f32608): steady s/proof, j 2, 2 GPU workers"},
    /* WindowPoSt 32 GiB, one partition of 2349 sectors: 125,279,217 constraints + 25,840 inputs;
     * 8.72 s warm (docs/perf/kinds-gpu.tsv, cdb5e67). */
    {.kind = "window-post", .sector_size = 32ull << 30, .partitions = 1, .rows = 125279217 + 25840,
     .uniform_witness = 1,
     .shape = {.conv = GROTH16_BELLPERSON, .n_vars = 126902376 + 25840, .n_public = 25839, .log_domain = 27,
               .n_base = BASES(126928216, 81684913, 126902376, (1ull << 27) - 1), .n_b2 = 81684913,
               .circuit_bytes = 12215986192ull},
     .measured_s = 8.72, .measured_at = "docs/perf/kinds-gpu.tsv (cdb5e67): one partition, warm"},
    /* SnapDeals 32 GiB: 16 partitions of ~81.05 M constraints (docs/perf/post.md), rounded wire
     * counts; 30.25 s per update proof (docs/perf/kinds-gpu.tsv, 41372c6). */
    {.kind = "snapdeals", .sector_size = 32ull << 30, .partitions = 16, .rows = 81049499, .uniform_witness = 0,
     .shape = {.conv = GROTH16_BELLPERSON, .n_vars = 81000000, .n_public = 6, .log_domain = 27,
               .n_base = BASES(80000000, 40000000, 80999993, (1ull << 27) - 1), .n_b2 = 40000000,
               .circuit_bytes = 7000000000ull},
     .measured_s = 30.25, .measured_at = "docs/perf/kinds-gpu.tsv (41372c6): 16 partitions, j 1"},
    /* WinningPoSt 32 GiB: ~3.5 M constraints, m = 2^22 (rounded); 0.100 s (kinds-gpu.tsv, 41372c6). */
    {.kind = "winning-post", .sector_size = 32ull << 30, .partitions = 1, .rows = 3500000, .uniform_witness = 1,
     .shape = {.conv = GROTH16_BELLPERSON, .n_vars = 3500000, .n_public = 1, .log_domain = 22,
               .n_base = BASES(3490000, 900000, 3499998, (1ull << 22) - 1), .n_b2 = 900000,
               .circuit_bytes = 250000000ull},
     .measured_s = 0.100, .measured_at = "docs/perf/kinds-gpu.tsv (41372c6): one proof alone"},
};

const groth16_predict_ref *groth16_predict_refs(size_t *n) {
    *n = sizeof refs / sizeof refs[0];
    return refs;
}

/* The H200's figures for the calibration's operations (issue #38's table, 0f32608, bench/gpu_msm.cu
 * and bench/gpu_ntt.cu: wall time per call, bases resident, scalars pinned; NTT on device data), the
 * pinned copy rate of the device machine (~50 GB/s, ../shared/device/README.md) and its 16 cores. No
 * synthesis rate (0): a caller comparing machines supplies its own CPU's (doctor does). */
static const groth16_calib ref_calib = {.msm_log_n = 24,
                                        .msm_uniform_s = 0.1524,
                                        .msm_witness_s = 0.0276,
                                        .ntt_log_n = 27,
                                        .ntt_s = 0.0416,
                                        .h2d_bytes_per_s = 50e9,
                                        .cpu_threads = 16};

const groth16_calib *groth16_predict_ref_calib(void) { return &ref_calib; }
