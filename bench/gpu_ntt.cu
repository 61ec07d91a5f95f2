/*
 * gpu_ntt.cu — benchmark of the GPU NTT and snarkjs H phase (src/gpu/ntt.cu), data on the device.
 *
 * Usage: bench_gpu_ntt [log_n ...] (default 24 26 27); PROOFMILL_BENCH_REPS (default 7).
 * For each size: random Montgomery Fr data uploaded once; one warm-up, then REPS timed transforms
 * of each kind (forward, inverse, coset forward) through gpu_ntt_device; time = the library's CUDA
 * events around the kernels (no host copies). The snarkjs H pipeline (6 NTTs + pointwise) is timed
 * the same way (its host copies excluded from the event time; wall time including them printed too).
 * Median and min. A table row per size last.
 */
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <chrono>
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
template <class P> static void mulbench(const char *name) {
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
}

static double now_ms() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
static double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
static double vmin(const std::vector<double> &v) { return *std::min_element(v.begin(), v.end()); }

int main(int argc, char **argv) {
    std::vector<int> logs;
    for (int i = 1; i < argc; i++) logs.push_back(atoi(argv[i]));
    if (logs.empty()) logs = {24, 26, 27};
    int reps = getenv("PROOFMILL_BENCH_REPS") ? atoi(getenv("PROOFMILL_BENCH_REPS")) : 7;
    if (gpu_available() == 0) { printf("SKIPPED: no CUDA device\n"); return 77; }
    gpu_device_info_t info;
    pm_error e;
    gpu_device_info(&info, 0, &e);
    printf("device: %s, %d SMs\n", info.name, info.sm_count);
    mulbench<pmgpu::fr_params>("Fr (8x32)");
    mulbench<pmgpu::fp_params>("Fp (12x32)");
    printf("| n | forward median (min) | inverse median (min) | coset fwd median (min) | snarkjs H events median (min) | H wall incl. copies |\n|---|---|---|---|---|---|\n");
    for (int L : logs) {
        size_t n = (size_t)1 << L;
        gpu_ntt_domain *d = nullptr;
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
        std::vector<double> t[4], hw;
        gpu_ntt_kind kinds[3] = {GPU_NTT_FORWARD, GPU_NTT_INVERSE, GPU_NTT_COSET_FORWARD};
        for (int k = 0; k < 3; k++) {
            gpu_ntt_device(dd, n, kinds[k], d, &e); /* warm-up */
            for (int i = 0; i < reps; i++) {
                if (gpu_ntt_device(dd, n, kinds[k], d, &e) != PM_OK) { char b[1200]; printf("ntt: %s\n", pm_error_format(&e, b, sizeof b)); return 1; }
                t[k].push_back(gpu_ntt_last_ms(d));
            }
        }
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
        printf("| 2^%d | %.3f (%.3f) ms | %.3f (%.3f) ms | %.3f (%.3f) ms | ", L, median(t[0]), vmin(t[0]), median(t[1]), vmin(t[1]), median(t[2]), vmin(t[2]));
        if (do_h) printf("%.3f (%.3f) ms | %.2f ms |\n", median(t[3]), vmin(t[3]), median(hw));
        else printf("n/a | n/a |\n");
        fflush(stdout);
        free(p);
        cudaFree(dd);
        gpu_host_free(h);
        gpu_ntt_domain_free(d);
    }
    return 0;
}
