/*
 * gpu_msm.cu — benchmark of the GPU G1 MSM (src/gpu/msm.cu), device-resident bases.
 *
 * Usage: bench_gpu_msm [log_n ...] (default 20 24 26); PROOFMILL_BENCH_REPS (default 7).
 * For each size: bases [t_i]G generated on the GPU (random t_i), random scalars in pinned host
 * memory; one warm-up, then REPS timed runs. Reported: median and min of
 *   - "host": scalars copied from pinned host memory inside the call (overlapped with the digit pass),
 *   - "dev":  scalars already on the device (GPU_MSM_SCALARS_DEVICE),
 * as wall time of the call (CUDA work + final host Horner; the call synchronises) and as the
 * library's CUDA-event total (device span from the first copy to the last kernel). The result of
 * the first run is checked against [sum k_i t_i]G for n <= 2^24 (host field arithmetic).
 * Prints one table row per size last.
 */
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <chrono>
#include "gpu/cpu_headers.cuh"

static uint64_t s[4] = {0x1234567, 0x89abcdef, 0xdeadbeef, 0x5eed};
static uint64_t rnd() {
    uint64_t r = ((s[1] * 5) << 7 | (s[1] * 5) >> 57) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = (s[3] << 45) | (s[3] >> 19);
    return r;
}
static int lt_r(const fr_t &a) {
    for (int i = 3; i >= 0; i--) { if (a.l[i] < FR_MODULUS.l[i]) return 1; if (a.l[i] > FR_MODULUS.l[i]) return 0; }
    return 0;
}
static void rand_scalar(fr_t &k) { do { for (int i = 0; i < 4; i++) k.l[i] = rnd(); k.l[3] &= 0x7fffffffffffffffULL; } while (!lt_r(k)); }
static double now_ms() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
static double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

/* expected check: [e]G vs result via the bases handle itself is circular; use a 1-point MSM of G:
 * gpu_msm_g1 over bases {G} with scalar e, computed independently of the big MSM's buckets. */
int main(int argc, char **argv) {
    std::vector<int> logs;
    for (int i = 1; i < argc; i++) logs.push_back(atoi(argv[i]));
    if (logs.empty()) logs = {20, 24, 26};
    int reps = getenv("PROOFMILL_BENCH_REPS") ? atoi(getenv("PROOFMILL_BENCH_REPS")) : 7;
    if (gpu_available() == 0) { printf("SKIPPED: no CUDA device\n"); return 77; }
    gpu_device_info_t info;
    pm_error e;
    gpu_device_info(&info, 0, &e);
    printf("device: %s, %d SMs, %.1f GiB\n", info.name, info.sm_count, info.mem_total / 1073741824.0);
    struct row { int log; unsigned c, W; double host_wall, host_dev, dev_wall, dev_dev, host_min, dev_min, nosort; const char *check; gpu_msm_timing_t tm; };
    std::vector<row> rows;
    for (int L : logs) {
        size_t n = (size_t)1 << L;
        std::vector<fr_t> t(n);
        for (size_t i = 0; i < n; i++) rand_scalar(t[i]);
        gpu_g1_bases *b = nullptr;
        double t0 = now_ms();
        if (gpu_g1_bases_from_scalars(&b, t.data(), n, &e) != PM_OK) { char buf[1200]; printf("bases: %s\n", pm_error_format(&e, buf, sizeof buf)); return 1; }
        printf("2^%d: bases generated in %.0f ms\n", L, now_ms() - t0);
        fr_t *k = nullptr;
        if (gpu_host_alloc((void **)&k, n * sizeof(fr_t), &e) != PM_OK) { printf("pinned alloc failed\n"); return 1; }
        for (size_t i = 0; i < n; i++) rand_scalar(k[i]);
        void *kd = nullptr;
        if (cudaMalloc(&kd, n * sizeof(fr_t)) != cudaSuccess) { printf("cudaMalloc scalars failed\n"); return 1; }
        cudaMemcpy(kd, k, n * sizeof(fr_t), cudaMemcpyHostToDevice);
        g1_jac_t r, r2;
        row rw = {};
        rw.log = L;
        rw.check = "unchecked";
        /* warm-up + check */
        if (gpu_msm_g1(&r, b, 0, k, n, 0, &e) != PM_OK) { char buf[1200]; printf("msm: %s\n", pm_error_format(&e, buf, sizeof buf)); return 1; }
        if (L <= 26) {
            fr_t acc = FR_ZERO, tm, pr;
            for (size_t i = 0; i < n; i++) { fr_to_mont(&tm, &t[i]); fr_mul(&pr, &k[i], &tm); fr_add(&acc, &acc, &pr); }
            /* [acc]G through a one-point MSM on a separate handle holding G = [1]G */
            fr_t one = {{1, 0, 0, 0}};
            gpu_g1_bases *g = nullptr;
            gpu_g1_bases_from_scalars(&g, &one, 1, &e);
            gpu_msm_g1(&r2, g, 0, &acc, 1, GPU_MSM_NO_01_SPLIT, &e);
            gpu_g1_bases_free(g);
            /* compare Jacobian points by cross-multiplication */
            fp_t z1, z2, a1, a2, b1, b2;
            fp_sqr(&z1, &r.Z); fp_sqr(&z2, &r2.Z);
            fp_mul(&a1, &r.X, &z2); fp_mul(&a2, &r2.X, &z1);
            fp_mul(&z1, &z1, &r.Z); fp_mul(&z2, &z2, &r2.Z);
            fp_mul(&b1, &r.Y, &z2); fp_mul(&b2, &r2.Y, &z1);
            rw.check = (fp_eq(&a1, &a2) && fp_eq(&b1, &b2) && !fp_is_zero(&r.Z)) ? "ok" : "WRONG";
        }
        std::vector<double> hw, hd, dw, dd;
        for (int i = 0; i < reps; i++) {
            double a = now_ms();
            gpu_msm_g1(&r, b, 0, k, n, 0, &e);
            hw.push_back(now_ms() - a);
            gpu_msm_g1_last_timing(&rw.tm, b);
            hd.push_back(rw.tm.total);
        }
        for (int i = 0; i < reps; i++) {
            double a = now_ms();
            gpu_msm_g1(&r2, b, 0, (const fr_t *)kd, n, GPU_MSM_SCALARS_DEVICE, &e);
            dw.push_back(now_ms() - a);
            gpu_msm_g1_last_timing(&rw.tm, b);
            dd.push_back(rw.tm.total);
        }
        std::vector<double> ns;
        for (int i = 0; i < (reps < 3 ? reps : 3); i++) {
            gpu_msm_g1(&r2, b, 0, (const fr_t *)kd, n, GPU_MSM_SCALARS_DEVICE | GPU_MSM_NO_TASK_SORT, &e);
            gpu_msm_timing_t t2;
            gpu_msm_g1_last_timing(&t2, b);
            ns.push_back(t2.total);
            if (i == 0) printf("2^%d: without task sort: accumulate %.2f ms, total %.2f ms\n", L, t2.accumulate, t2.total);
        }
        rw.nosort = median(ns);
        gpu_msm_g1(&r2, b, 0, (const fr_t *)kd, n, GPU_MSM_SCALARS_DEVICE, &e);
        gpu_msm_g1_last_timing(&rw.tm, b);
        rw.c = rw.tm.window_bits; rw.W = rw.tm.windows;
        rw.host_wall = median(hw); rw.host_dev = median(hd); rw.dev_wall = median(dw); rw.dev_dev = median(dd);
        rw.host_min = *std::min_element(hw.begin(), hw.end()); rw.dev_min = *std::min_element(dw.begin(), dw.end());
        printf("2^%d: phases (last dev run, ms): digits %.2f scan %.2f scatter %.2f accumulate %.2f reduce %.2f total %.2f\n", L,
               rw.tm.upload_digits, rw.tm.scan, rw.tm.scatter, rw.tm.accumulate, rw.tm.reduce, rw.tm.total);
        if (getenv("PM_BENCH_C_SWEEP") && L <= atoi(getenv("PM_BENCH_C_SWEEP"))) { /* window model vs measurement */
            for (int dc = -2; dc <= 2; dc++) {
                int c = (int)rw.c + dc;
                if (dc == 0 || c < 2 || c > 22) continue;
                char v[8];
                snprintf(v, sizeof v, "%d", c);
                setenv("PROOFMILL_GPU_MSM_WINDOW", v, 1);
                gpu_msm_g1(&r2, b, 0, (const fr_t *)kd, n, GPU_MSM_SCALARS_DEVICE, &e);
                gpu_msm_timing_t t2;
                gpu_msm_g1_last_timing(&t2, b);
                printf("2^%d: window c=%d: total %.2f ms (accumulate %.2f, reduce %.2f)\n", L, c, t2.total, t2.accumulate, t2.reduce);
            }
            unsetenv("PROOFMILL_GPU_MSM_WINDOW");
        }
        rows.push_back(rw);
        cudaFree(kd);
        gpu_host_free(k);
        gpu_g1_bases_free(b);
    }
    printf("\n| n | c | W | scalars pinned host: wall median (min) / events | scalars on device: wall median (min) / events | on device, tasks unsorted: events | check |\n|---|---|---|---|---|---|---|\n");
    for (auto &r : rows)
        printf("| 2^%d | %u | %u | %.2f (%.2f) / %.2f ms | %.2f (%.2f) / %.2f ms | %.2f ms | %s |\n", r.log, r.c, r.W, r.host_wall, r.host_min,
               r.host_dev, r.dev_wall, r.dev_min, r.dev_dev, r.nosort, r.check);
    return 0;
}
