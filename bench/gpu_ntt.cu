/*
 * gpu_ntt.cu — benchmark of the GPU NTT and the H pipelines (src/gpu/ntt.cu, h_pipeline.cu), data on
 * the device.
 *
 * Usage: bench_gpu_ntt [log_n ...] (default 24 26 27); PROOFMILL_BENCH_REPS (default 7);
 *        OUT_TSV=path appends the rows in the same-run table format of docs/perf/gpu-vs-sppark.tsv
 *        (impl, op, log2n, dist, median_ms, min_ms, date, commit; op = ntt for the forward
 *        natural-order transform, which is what sppark_bench's ntt_fwd_NN times; h_snarkjs and
 *        h_bellperson for the pipelines); PM_BENCH_COMMIT / PM_BENCH_DATE fill the last columns;
 *        PM_BENCH_IMPL names the impl column (default proofmill; e.g. proofmill:T10 for a run with
 *        PROOFMILL_GPU_NTT_TILE=10).
 * For each size: random Montgomery Fr data uploaded once; one warm-up, then REPS timed calls of each
 * transform (forward = bit reversal + DIT passes, inverse = DIF passes + scaled bit reversal, coset
 * forward) through gpu_ntt_device, the snarkjs H (6 transforms, host copies excluded from the event
 * time; wall with copies printed too) and the bellperson H (6 transforms on the domain's device
 * buffers, gpu_bellperson_h). Time = the library's CUDA events around its kernels. Median and min.
 * The floor columns divide the counted multiplications by the Montgomery-multiplication rate this
 * run measures first (k_mulbench: 4 independent chains per thread, full grid), i.e. what the
 * transform would take if it did nothing but its multiplications at that rate.
 */
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>
#include "gpu/cpu_headers.cuh"
#include "gpu/field.cuh"

/* field-multiplication throughput: 4 independent Montgomery chains per thread, full grid */
template <class P> __global__ void k_mulbench(pmgpu::fe<P> *out, int iters) {
    using namespace pmgpu;
    fe<P> x[4], y = fe_one<P>();
    for (int k = 0; k < 4; k++) { x[k] = fe_one<P>(); x[k].v[0] ^= threadIdx.x + 7 * k; }
    y.v[1] ^= blockIdx.x;
    for (int i = 0; i < iters; i++)
#pragma unroll
        for (int k = 0; k < 4; k++) x[k] = fe_mul<P>(x[k], y);
    fe<P> r = fe_add<P>(fe_add<P>(x[0], x[1]), fe_add<P>(x[2], x[3]));
    if (r.v[0] == 0x12345678u) out[0] = r; /* keep the work alive */
}
/* returns multiplications per millisecond */
template <class P> static double mulbench(const char *name) {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    pmgpu::fe<P> *out;
    cudaMalloc(&out, sizeof(*out));
    const int threads = 256, blocks = sms * 8, iters = 256;
    k_mulbench<P><<<blocks, threads>>>(out, 4); /* warm-up */
    cudaEvent_t a, b;
    cudaEventCreate(&a); cudaEventCreate(&b);
    cudaEventRecord(a);
    k_mulbench<P><<<blocks, threads>>>(out, iters);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    double muls = 4.0 * iters * threads * (double)blocks;
    printf("field: %s Montgomery mul: %.1f G mul/s (%.2f T IMAD-equivalents/s at 4N^2 = %d per mul; %d blocks x %d threads)\n", name,
           muls / ms / 1e6, muls * 4 * P::N * P::N / ms / 1e9, 4 * P::N * P::N, blocks, threads);
    cudaFree(out);
    cudaEventDestroy(a); cudaEventDestroy(b);
    return muls / ms;
}

static double now_ms() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
static double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
static double vmin(const std::vector<double> &v) { return *std::min_element(v.begin(), v.end()); }

/* counted Fr multiplications for the floor columns (see docs/perf/gpu.md): a transform does n/2 L
 * butterflies minus the 0.875 n trivial ones of the first/last three stages (the fewest a kernel
 * issues: radix-8 rounds skip all of them per warp; today's radix-4 rounds skip 0.75 n per warp and
 * issue 0.125 n more, docs/perf/gpu.md "A correction"); a scaled pass 2n (pow table) */
static double muls_transform(int L) { double n = std::ldexp(1.0, L); return n / 2 * L - 0.875 * n; }

int main(int argc, char **argv) {
    std::vector<int> logs;
    for (int i = 1; i < argc; i++) logs.push_back(atoi(argv[i]));
    if (logs.empty()) logs = {24, 26, 27};
    int reps = getenv("PROOFMILL_BENCH_REPS") ? atoi(getenv("PROOFMILL_BENCH_REPS")) : 7;
    if (reps < 1) reps = 1;
    if (gpu_available() == 0) { printf("SKIPPED: no CUDA device\n"); return 77; }
    gpu_device_info_t info;
    pm_error e;
    gpu_device_info(&info, 0, &e);
    printf("device: %s, %d SMs\n", info.name, info.sm_count);
    const double rate = mulbench<pmgpu::fr_params>("Fr (8x32)"); /* mul per ms */
    mulbench<pmgpu::fp_params>("Fp (12x32)");
    const char *commit = getenv("PM_BENCH_COMMIT") ? getenv("PM_BENCH_COMMIT") : "unknown";
    char date[32];
    if (getenv("PM_BENCH_DATE")) snprintf(date, sizeof date, "%s", getenv("PM_BENCH_DATE"));
    else { time_t t = time(nullptr); strftime(date, sizeof date, "%Y-%m-%d", gmtime(&t)); }
    FILE *tsv = getenv("OUT_TSV") ? fopen(getenv("OUT_TSV"), "a") : nullptr;
    const char *impl = getenv("PM_BENCH_IMPL") ? getenv("PM_BENCH_IMPL") : "proofmill";
    auto row = [&](const char *op, int L, const std::vector<double> &t) {
        if (tsv) fprintf(tsv, "%s\t%s\t%d\tuniform\t%.4f\t%.4f\t%s\t%s\n", impl, op, L, median(t), vmin(t), date, commit);
    };
    printf("| n | forward (NN) median (min) | floor | inverse median (min) | coset fwd median (min) | snarkjs H events median (min) | floor | H wall incl. copies | bellperson H events median (min) | floor |\n"
           "|---|---|---|---|---|---|---|---|---|---|\n");
    for (int L : logs) {
        size_t n = (size_t)1 << L;
        gpu_ntt_domain *d = nullptr, *d7 = nullptr;
        if (gpu_ntt_domain_init(&d, (unsigned)L, 5, &e) != PM_OK) { char b[1200]; printf("domain: %s\n", pm_error_format(&e, b, sizeof b)); return 1; }
        fr_t *h = nullptr;
        if (gpu_host_alloc((void **)&h, n * sizeof(fr_t), &e) != PM_OK) { printf("pinned alloc failed\n"); return 1; }
        uint64_t x = 88172645463325252ULL;
        for (size_t i = 0; i < n; i++) {
            for (int j = 0; j < 4; j++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; h[i].l[j] = x; }
            h[i].l[3] &= 0x0fffffffffffffffULL; /* < r */
        }
        void *dd = nullptr;
        if (cudaMalloc(&dd, n * sizeof(fr_t)) != cudaSuccess) { printf("cudaMalloc failed\n"); return 1; }
        cudaMemcpy(dd, h, n * sizeof(fr_t), cudaMemcpyHostToDevice);
        std::vector<double> t[5], hw;
        gpu_ntt_kind kinds[3] = {GPU_NTT_FORWARD, GPU_NTT_INVERSE, GPU_NTT_COSET_FORWARD};
        for (int k = 0; k < 3; k++) {
            gpu_ntt_device(dd, n, kinds[k], d, &e); /* warm-up */
            for (int i = 0; i < reps; i++) {
                if (gpu_ntt_device(dd, n, kinds[k], d, &e) != PM_OK) { char b[1200]; printf("ntt: %s\n", pm_error_format(&e, b, sizeof b)); return 1; }
                t[k].push_back(gpu_ntt_last_ms(d));
            }
        }
        cudaFree(dd);
        fr_t *p = (fr_t *)malloc(n * sizeof(fr_t));
        bool do_h = p != nullptr;
        if (do_h) {
            if (gpu_snarkjs_h(p, n, h, h, d, nullptr, &e) != PM_OK) { char b[1200]; printf("H: %s\n", pm_error_format(&e, b, sizeof b)); do_h = false; }
            for (int i = 0; do_h && i < reps; i++) {
                double a = now_ms();
                gpu_snarkjs_h(p, n, h, h, d, nullptr, &e);
                hw.push_back(now_ms() - a);
                t[3].push_back(gpu_ntt_last_ms(d));
            }
        }
        free(p);
        gpu_ntt_domain_free(d); /* its 3 work buffers go back before the bellperson domain takes its own */
        bool do_bp = gpu_ntt_domain_init(&d7, (unsigned)L, 7, &e) == PM_OK;
        void *buf[3];
        if (do_bp && gpu_ntt_domain_buffers(buf, d7, &e) != PM_OK) do_bp = false;
        for (int i = 0; do_bp && i <= reps; i++) {
            for (int j = 0; j < 3; j++) cudaMemcpy(buf[j], h, n * sizeof(fr_t), cudaMemcpyHostToDevice);
            pm_status st = gpu_bellperson_h(buf[0], buf[1], buf[2], n, d7, &e); /* random input: UNSATISFIED is expected */
            if (st != PM_OK && st != PM_ERR_UNSATISFIED) { char b[1200]; printf("bellperson H: %s\n", pm_error_format(&e, b, sizeof b)); do_bp = false; break; }
            if (i > 0) t[4].push_back(gpu_ntt_last_ms(d7)); /* i = 0: warm-up (builds the tables) */
        }
        const double nn = (double)n, T = muls_transform(L);
        const double f_fwd = T / rate, f_sn = (6 * T + 6 * nn + 3 * nn) / rate, f_bp = (6 * T + 4 * nn + nn + 2 * nn + nn) / rate;
        printf("| 2^%d | %.3f (%.3f) ms | %.1f ms | %.3f (%.3f) ms | %.3f (%.3f) ms | ", L, median(t[0]), vmin(t[0]), f_fwd, median(t[1]),
               vmin(t[1]), median(t[2]), vmin(t[2]));
        if (do_h) printf("%.3f (%.3f) ms | %.1f ms | %.2f ms | ", median(t[3]), vmin(t[3]), f_sn, median(hw));
        else printf("n/a | | n/a | ");
        if (do_bp && !t[4].empty()) printf("%.3f (%.3f) ms | %.1f ms |\n", median(t[4]), vmin(t[4]), f_bp);
        else printf("n/a | |\n");
        fflush(stdout);
        row("ntt", L, t[0]);
        if (do_h) row("h_snarkjs", L, t[3]);
        if (do_bp && !t[4].empty()) row("h_bellperson", L, t[4]);
        gpu_host_free(h);
        gpu_ntt_domain_free(d7);
    }
    if (tsv) fclose(tsv);
    return 0;
}
