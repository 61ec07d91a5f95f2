/*
 * predict.h — the s/proof a machine should reach for a proving key, from a short calibration of
 * its GPU and CPU (`proofmill doctor`, issue #39) and the device-memory plan (devplan.h). Host code
 * only: a model, not a measurement; bench/ measures.
 *
 * The model counts a Groth16 partition's work (bellperson's prover, bellperson 0.27
 * src/groth16/prover/native.rs; snarkjs's for a .zkey) and prices each operation from the
 * calibration:
 *   GPU, per partition:  the NTTs of the H polynomial (7 of 2^log_domain for bellperson: 3 inverse,
 *                        3 coset forward, 1 coset inverse; 6 for snarkjs), priced n log n from one
 *                        calibrated NTT; the G1 MSMs A, B1, C/L (witness scalars) and H (uniform),
 *                        priced per point from one calibrated MSM of each scalar distribution, with
 *                        the per-point cost scaled by GROTH16_PREDICT_UNIFORM_DOUBLING (or _WITNESS_)
 *                        per doubling of n (Pippenger's wider windows: the H200 figures of issue
 *                        #38, 2^24 vs 2^27); the G2 B query at GROTH16_PREDICT_G2_FACTOR times a G1
 *                        point. A streamed base set costs max(its MSM, its bytes / the pinned
 *                        host-to-device rate) (its copy overlaps its MSM, devplan.h tier 1). Without
 *                        the circuit on the card (tiers 2-5) a, b, c (3 x 2^log_domain Fr) are
 *                        uploaded; at tier 3 (one witness slot) the witness upload is not hidden;
 *                        at tier 4 (one domain buffer) the coset products go down and up again
 *                        (7 copies of the domain in all); at tier 5 the NTTs leave the GPU and
 *                        H's scalars are uploaded instead.
 *   CPU, per partition:  the witness synthesis (rows / the calibrated rate on all cores), the SpMV
 *                        at tiers 2-5 (rows / GROTH16_PREDICT_SPMV_ROWS_PER_CORE_S per core) and
 *                        the 7 NTTs at tier 5 (n log n from one calibrated CPU NTT).
 *   Per proof:           partitions x max(GPU, CPU) when several partitions pipeline (the engine
 *                        synthesizes partition i+1 while the GPU proves i: steady s/proof), GPU +
 *                        CPU for a one-partition proof (its latency).
 * Not counted: the GPU SpMV (tens of ms), the Fr element-wise passes, the host's pinned staging
 * copies, queueing. The model's error on the reference H200 and an H100 is in docs/perf/devplan.md.
 */
#ifndef PROOFMILL_GROTH16_PREDICT_H
#define PROOFMILL_GROTH16_PREDICT_H
#include <stdint.h>
#include "groth16/devplan.h"
#include "util/error.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Per-point cost factor of a G1 MSM per doubling of n: (t(2^27) / t(2^24) / 8)^(1/3) on the H200
 * (issue #38's table: uniform 1034.6 / 152.4 ms, witness-like 128.1 / 27.6 ms). */
#define GROTH16_PREDICT_UNIFORM_DOUBLING 0.9467
#define GROTH16_PREDICT_WITNESS_DOUBLING 0.8340
/* A G2 point's MSM cost over a G1 point's (the same table: G2 2^25 741.5 / 94.5 ms against G1
 * 2^27 1034.6 / 128.1 ms, per point: 2.87 and 2.95). */
#define GROTH16_PREDICT_G2_FACTOR 2.9
/* The CPU SpMV (a, b, c = A w, B w, C w from the recorded circuit): 130.3 M rows in 1.0 s on 16
 * cores (docs/perf/devplan.md) = 8.1 M rows per core-second. */
#define GROTH16_PREDICT_SPMV_ROWS_PER_CORE_S 8.1e6

/* What one calibration measured. Seconds are wall times of one call (median), 0 = not measured. */
typedef struct {
    unsigned msm_log_n;      /* the calibration MSM's size 2^msm_log_n */
    double msm_uniform_s;    /* G1 MSM over resident bases, uniform scalars < r */
    double msm_witness_s;    /* the same, witness-like scalars (75 % zero, 20 % one, 5 % uniform) */
    unsigned ntt_log_n;      /* the calibration NTT's size */
    double ntt_s;            /* one GPU NTT of 2^ntt_log_n Fr in device memory */
    double h2d_bytes_per_s;  /* pinned host -> device copy rate */
    double synth_rows_per_s; /* witness synthesis, constraints per second on all cores */
    unsigned cpu_threads;    /* threads of the CPU side (SpMV) */
    unsigned cpu_ntt_log_n;  /* the CPU NTT's size */
    double cpu_ntt_s;        /* one CPU NTT of 2^cpu_ntt_log_n, all threads */
} groth16_calib;

/* The prediction for one partition and one proof, seconds. */
typedef struct {
    double ntt_s;       /* the GPU NTTs (0 at tier 5) */
    double msm_s;       /* the MSMs, streamed sets at max(MSM, copy) */
    double upload_s;    /* a, b, c / witness / H scalars not hidden */
    double gpu_s;       /* ntt + msm + upload: the kernel region */
    double cpu_s;       /* synthesis + CPU SpMV + CPU NTTs */
    double partition_s; /* max(gpu, cpu) (partitions > 1) or gpu + cpu */
    double proof_s;     /* the s/proof */
    const char *bound;  /* "GPU" or "CPU": which side sets the pace */
} groth16_prediction;

/* Time of one G1 MSM of n points (n >= 1) of the distribution (uniform != 0: uniform scalars) from
 * the calibration; 0 when the calibration lacks it. */
double groth16_predict_msm_s(const groth16_calib *c, uint64_t n, int uniform);

/* Time of one NTT of 2^log_n: on the GPU (cpu = 0) or the CPU (cpu != 0); 0 when not calibrated. */
double groth16_predict_ntt_s(const groth16_calib *c, unsigned log_n, int cpu);

/* Predicts a proof of `partitions` partitions of key shape s (devplan.h; rows = constraints of one
 * partition, inputs included) under plan p (NULL: tier 0, all resident) from calibration c.
 * uniform_witness != 0 when the kind's witness values are uniform field elements (WindowPoSt and
 * WinningPoSt: Poseidon state), 0 when they are mostly 0/1 (PoRep, SnapDeals: bits).
 * Errors: PM_ERR_ARG when s is empty, partitions is 0, or c lacks the GPU MSM, the GPU NTT or the
 * copy rate (the CPU side is 0 when synth_rows_per_s is 0: said by bound "GPU"). */
pm_status groth16_predict(groth16_prediction *out, const groth16_devplan_shape *s, const groth16_devplan *p,
                          uint64_t rows, unsigned partitions, int uniform_witness, const groth16_calib *c,
                          pm_error *err);

/* A kind of our reference figures: its 32 GiB shape and the s/proof measured on the reference H200. */
typedef struct {
    const char *kind;        /* porep-c2, window-post, snapdeals, winning-post */
    uint64_t sector_size;    /* bytes */
    unsigned partitions;     /* per proof */
    uint64_t rows;           /* constraints of one partition, inputs included */
    int uniform_witness;     /* as groth16_predict */
    groth16_devplan_shape shape;
    double measured_s;       /* s/proof on the reference H200 (steady for several partitions) */
    const char *measured_at; /* "docs/perf/porep-gpu.tsv, 2026-12-02 fa7e958, steady, j 2" */
} groth16_predict_ref;

/* The reference kinds (count in *n); static storage. Shapes: docs/perf/porep.md (PoRep, exact),
 * the recorded WindowPoSt circuit (exact), SnapDeals and WinningPoSt (rounded counts, docs/perf/post.md). */
const groth16_predict_ref *groth16_predict_refs(size_t *n);

/* The reference calibration: the H200's figures for the calibration's operations (issue #38's table,
 * bench/gpu_msm.cu and bench/gpu_ntt.cu, the same calls doctor times), its pinned copy rate and 16
 * cores; synthesis rate 0 (the caller supplies its CPU's). Static storage. */
const groth16_calib *groth16_predict_ref_calib(void);

#ifdef __cplusplus
}
#endif
#endif
