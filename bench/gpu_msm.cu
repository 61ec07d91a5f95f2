/*
 * gpu_msm.cu — benchmark of the GPU MSMs (src/gpu/msm.cu), timed exactly like the sppark anchor
 * (../shared/anchors/sppark_bench.cu): bases resident on the device, scalars from PINNED host
 * memory (copied inside each call), wall time per call, median and min of REPS runs after one
 * warm-up, for uniform scalars and witness-like ones (75 % zero, 20 % one, 5 % uniform).
 *
 * Usage: bench_gpu_msm [--field-only] [log_n ...]   G1 sizes (default 20 24 26); --field-only: the
 *                                                    multiplier lines only (incl. fe_mul_f64 + its self-check)
 * Env:   PROOFMILL_BENCH_REPS   timed runs per row (default 5)
 *        PM_MSM_G2              G2 sizes, e.g. "20 25" (2^25 = 33.5 M: the 32 GiB B_G2 shape); default none
 *        PM_MSM_DISTS           "uniform witness" (default both)
 *        PM_MSM_TSV             also write the rows (impl, op, log2n, dist, median_ms, min_ms) to this file
 *        PM_MSM_FIELD=0         skip the multiplier throughput section
 *        PM_MSM_CHUNKS          chunk sizes in points, e.g. "9437184 4718592": after the variants (in the base
 *                               variant's settings) each size is timed twice on the same bases and scalars,
 *                               resident bases in chunks (gpu_*_bases_set_chunk; impl "proofmill:chunkK"),
 *                               streamed from a pinned host copy (gpu_*_bases_host; "proofmill:streamK") and
 *                               streamed with gpu.msm_keep_buckets off ("proofmill:streamoldK"),
 *                               K the chunk in points: what the device-memory plan's smaller cards pay
 *                               for chunks and for the stream, each against the one-piece row; checked
 *                               against the base variant's result
 *        PM_MSM_MODES           which chunk rows PM_MSM_CHUNKS times (default "0 1 2 3 4"): 0 resident in chunks,
 *                               1 streamed, 2 streamed without the kept buckets, 3 streamed with the scalars on
 *                               the device (every point sent), 4 the same with the zero scalars' points skipped
 *        PM_MSM_LOAD            CPU load beside each chunk row (default "0"): each word a load under which the
 *                               row is timed again, "0" none, "sN" N threads spinning, "mN" N threads copying
 *                               64 MiB buffers (DRAM traffic, as synthesis and the SpMV make), a suffix "nK"
 *                               those threads at nice K (setpriority on each thread), e.g. "0 s32 s32n10 m16":
 *                               what a prover's synthesis pool does to the thread that drives a streamed MSM
 *                               (its impl gets "@" and the word)
 *        PROOFMILL_GPU_MSM_TIMES=1  fill the rows' per-phase event times (scalars, sort, accumulate, reduce; 0
 *                               otherwise): reading them waits for every window group's kernels, so the wall
 *                               times are then those of the timed form, not of the prover's
 *        PM_BENCH_C_SWEEP=L     for G1 sizes <= 2^L also time the windows c-2..c+2 (uniform, one run each)
 *        PM_MSM_VARIANTS        run-time variants of the accumulation (msm_core.cuh msm_tune_t) timed one after
 *                               the other on the same bases and scalars, each checked against the oracle:
 *                               "NAME[:VAR=V,VAR=V...] ..." with VAR the suffix of PROOFMILL_GPU_MSM_VAR, e.g.
 *                               "base C:ACC=2 CP:ACC=2,PREFETCH=1 X:TAIL=1000000000,XINLINE=1"; rows of a
 *                               variant other than the first have impl "proofmill:NAME" (default: "base")
 * Prints first the multiplier throughput (fused-chain fe_mul against the row-by-row fe_mul_rows it
 * replaced, Fp and Fr, 4 independent chains per thread on a full grid), then per row the device
 * phases (CUDA events: scalars, sort, accumulate, reduce) and whether the first result equals the
 * oracle [sum k_i t_i]G (bases [t_i]G generated on the device; checked for n <= 2^26; the oracle
 * is one 1-point MSM of sum k_i t_i), then the table.
 */
#include <cuda_runtime.h>
#include <errno.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "gpu/cpu_headers.cuh"
#include "util/settings.h"
#include "gpu/field_f64.cuh"

using namespace pmgpu;

static uint64_t rs = 0x243f6a8885a308d3ull;
static uint64_t split(uint64_t &s) {
    uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static int lt_r(const fr_t &a) {
    for (int i = 3; i >= 0; i--) { if (a.l[i] < FR_MODULUS.l[i]) return 1; if (a.l[i] > FR_MODULUS.l[i]) return 0; }
    return 0;
}
static void rand_scalar(fr_t &k) { do { for (int i = 0; i < 4; i++) k.l[i] = split(rs); k.l[3] &= 0x7fffffffffffffffULL; } while (!lt_r(k)); }
/* dist: "uniform"; "witness" (75 % zero, 20 % one, 5 % uniform); "porep" (a real 32 GiB witness, docs/perf/
 * devplan.md: 51.6 % zero, 46.8 % one, 1.6 % other, in per-mille) */
static void fill(fr_t *k, size_t n, const std::string &dist) {
    const unsigned z = dist == "witness" ? 750 : dist == "porep" ? 516 : 0, o = dist == "witness" ? 950 : dist == "porep" ? 984 : 0;
    for (size_t i = 0; i < n; i++) {
        const uint64_t u = split(rs) % 1000;
        if (u < o) { k[i] = FR_ZERO; k[i].l[0] = u < z ? 0 : 1; continue; }
        rand_scalar(k[i]);
    }
}
static double now_ms() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n == 0 ? 0 : (n & 1) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
static double vmin(const std::vector<double> &v) { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); }

/* ---- multiplier throughput ---- */
template <class P, int V> __global__ void __launch_bounds__(256) k_mulbench(fe<P> *io, int iters) {
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    fe<P> a0 = io[4 * t], a1 = io[4 * t + 1], a2 = io[4 * t + 2], a3 = io[4 * t + 3];
    const fe<P> b = io[gridDim.x * (size_t)blockDim.x * 4]; /* one past the chains: never written */
    for (int i = 0; i < iters; i++) {
        if (V == 3) { a0 = fe_mul_f64<P>(a0, b); a1 = fe_mul_f64<P>(a1, b); a2 = fe_mul_f64<P>(a2, b); a3 = fe_mul_f64<P>(a3, b); }
        /* mixed: some chains on the integer multiplier (IMAD pipe), the others on the FP64 one (DFMA pipe + ALU),
         * the two interleaved in one thread so the scheduler can issue to both pipes */
        else if (V == 4) { a0 = fe_mul<P>(a0, b); a2 = fe_mul_f64<P>(a2, b); a1 = fe_mul<P>(a1, b); a3 = fe_mul_f64<P>(a3, b); }
        else if (V == 5) { a0 = fe_mul<P>(a0, b); a3 = fe_mul_f64<P>(a3, b); a1 = fe_mul<P>(a1, b); a2 = fe_mul<P>(a2, b); }
        else if (V == 6) { a1 = fe_mul_f64<P>(a1, b); a0 = fe_mul<P>(a0, b); a2 = fe_mul_f64<P>(a2, b); a3 = fe_mul_f64<P>(a3, b); }
        else if (V == 0) { a0 = fe_mul<P>(a0, b); a1 = fe_mul<P>(a1, b); a2 = fe_mul<P>(a2, b); a3 = fe_mul<P>(a3, b); }
        else if (V == 1) { a0 = fe_mul_rows<P>(a0, b); a1 = fe_mul_rows<P>(a1, b); a2 = fe_mul_rows<P>(a2, b); a3 = fe_mul_rows<P>(a3, b); }
        else { a0 = fe_mul_generic<P>(a0, b); a1 = fe_mul_generic<P>(a1, b); a2 = fe_mul_generic<P>(a2, b); a3 = fe_mul_generic<P>(a3, b); }
    }
    io[4 * t] = a0; io[4 * t + 1] = a1; io[4 * t + 2] = a2; io[4 * t + 3] = a3;
}
/* V 7: four chains in the native 52-bit form (fe52_mul_native: no unpack/pack per product); V 8: two fe_mul chains
 * and two native ones interleaved (IMAD pipe beside DFMA + ALU). Same chain ends as fe_mul's (converted back). */
template <class P, int V> __global__ void __launch_bounds__(256) k_mulbench52(fe<P> *io, int iters) {
    constexpr int n = P::N52;
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    fe<P> a0 = io[4 * t], a1 = io[4 * t + 1];
    double d0[n], d1[n], d2[n], d3[n], bd[n];
    const fe<P> b = io[gridDim.x * (size_t)blockDim.x * 4];
    f52_load<P>(bd, b.v, P::S52);
    fe52_from<P>(d0, a0); fe52_from<P>(d1, a1); fe52_from<P>(d2, io[4 * t + 2]); fe52_from<P>(d3, io[4 * t + 3]);
    for (int i = 0; i < iters; i++) {
        if (V == 7) { fe52_mul_native<P>(d0, bd); fe52_mul_native<P>(d1, bd); fe52_mul_native<P>(d2, bd); fe52_mul_native<P>(d3, bd); }
        else { a0 = fe_mul<P>(a0, b); fe52_mul_native<P>(d2, bd); a1 = fe_mul<P>(a1, b); fe52_mul_native<P>(d3, bd); }
    }
    if (V == 7) { a0 = fe52_to<P>(d0); a1 = fe52_to<P>(d1); }
    io[4 * t] = a0; io[4 * t + 1] = a1; io[4 * t + 2] = fe52_to<P>(d2); io[4 * t + 3] = fe52_to<P>(d3);
}
/* the chains' end values of the fe_mul run (V == 0), for the self-check of the other variants */
template <class P> static std::vector<fe<P>> &mul_ref() { static std::vector<fe<P>> r; return r; }
template <class P, int V> static double mul_rate(int sms, const char *name) {
    const int blocks = sms * 8, threads = 256, iters = 256;
    size_t n = (size_t)blocks * threads * 4;
    fe<P> *d = nullptr;
    if (cudaMalloc(&d, (n + 1) * sizeof(fe<P>)) != cudaSuccess) return 0;
    std::vector<fe<P>> h(n + 1);
    uint64_t s = 0x13198a2e03707344ull; /* the same data for every variant */
    for (size_t i = 0; i <= n; i++) for (int j = 0; j < P::N; j++) h[i].v[j] = j == P::N - 1 ? (uint32_t)(split(s) >> 40) : (uint32_t)split(s);
    cudaMemcpy(d, h.data(), (n + 1) * sizeof(fe<P>), cudaMemcpyHostToDevice);
    if (V >= 7) k_mulbench52<P, V><<<blocks, threads>>>(d, 8);
    else k_mulbench<P, V><<<blocks, threads>>>(d, 8);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    cudaEventRecord(e0);
    if (V >= 7) k_mulbench52<P, V><<<blocks, threads>>>(d, iters);
    else k_mulbench<P, V><<<blocks, threads>>>(d, iters);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    cudaEventDestroy(e0); cudaEventDestroy(e1);
    cudaMemcpy(h.data(), d, n * sizeof(fe<P>), cudaMemcpyDeviceToHost);
    cudaFree(d);
    double rate = (double)n * iters / (ms * 1e-3);
    printf("field: %s %s: %.2f G mul/s (%.3f ms for %zu x %d products)\n", name,
           V == 0 ? "fe_mul (fused chains)" : V == 1 ? "fe_mul_rows (row CIOS)" : V == 3 ? "fe_mul_f64 (5/8 x 52-bit limbs, FP64 FMA)" : V == 4 ? "mixed 2 fe_mul + 2 fe_mul_f64 chains" :
           V == 5 ? "mixed 3 fe_mul + 1 fe_mul_f64 chains" : V == 6 ? "mixed 1 fe_mul + 3 fe_mul_f64 chains" :
           V == 7 ? "fe52_mul_native (52-bit form kept, 4 chains)" : V == 8 ? "mixed 2 fe_mul + 2 fe52_mul_native chains" : "fe_mul_generic (fused, no Fr shortcut)",
           rate / 1e9, ms, n, iters);
    h.resize(n);
    if (V == 0) mul_ref<P>() = h;
    else if (mul_ref<P>().size() == n) {
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) bad += memcmp(&h[i], &mul_ref<P>()[i], sizeof(fe<P>)) != 0;
        printf("field: %s variant %d self-check against fe_mul's chain ends: %s (%zu of %zu differ)\n", name, V, bad ? "MISMATCH" : "OK", bad, n);
    }
    return rate;
}

struct row { std::string impl, op, dist; int lg; double med, mn; std::string check; gpu_msm_timing_t tm; };

/* ---- run-time variants (PM_MSM_VARIANTS) ---- */
struct variant { std::string name; std::vector<std::pair<std::string, std::string>> env; };
static const char *const TUNE_VARS[] = {"ACC", "PREFETCH", "XINLINE", "TAIL", "KMIN", "PARTS", "INV", "KEEP_BUCKETS"};
static std::vector<variant> parse_variants(const char *spec) {
    std::vector<variant> out;
    std::string s = spec ? spec : "base";
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && s[i] == ' ') i++;
        size_t j = s.find(' ', i);
        if (j == std::string::npos) j = s.size();
        if (j > i) {
            std::string tok = s.substr(i, j - i);
            variant v;
            size_t c = tok.find(':');
            v.name = tok.substr(0, c);
            if (c != std::string::npos) {
                std::string rest = tok.substr(c + 1);
                size_t a = 0;
                while (a < rest.size()) {
                    size_t b = rest.find(',', a);
                    if (b == std::string::npos) b = rest.size();
                    std::string kv = rest.substr(a, b - a);
                    size_t eq = kv.find('=');
                    if (eq != std::string::npos) v.env.push_back({"PROOFMILL_GPU_MSM_" + kv.substr(0, eq), kv.substr(eq + 1)});
                    a = b + 1;
                }
            }
            out.push_back(v);
        }
        i = j;
    }
    if (out.empty()) out.push_back(variant{"base", {}});
    return out;
}
/* The settings (util/settings.h) read the environment once: every change below is followed by a new
 * snapshot (pm_settings_env_reset), else the variants would all run the defaults (they did from the
 * settings table of 2026-12-05 until this fix). */
static void apply_variant(const variant &v) {
    for (const char *t : TUNE_VARS) unsetenv((std::string("PROOFMILL_GPU_MSM_") + t).c_str());
    for (auto &kv : v.env) setenv(kv.first.c_str(), kv.second.c_str(), 1);
    pm_settings_env_reset(NULL);
}
static std::vector<variant> g_variants;
static std::vector<int> ints(const char *s);

/* one G1 or G2 size: both distributions */
/* ---- CPU load beside a row (PM_MSM_LOAD) ---- */
struct cpu_load {
    std::vector<pthread_t> th;
    std::atomic<int> stop{0};
    int mem = 0, nice = 0;
    static void *run(void *arg) {
        cpu_load *l = static_cast<cpu_load *>(arg);
        if (l->nice) {
            errno = 0;
            const id_t tid = (id_t)syscall(SYS_gettid);
            const int cur = getpriority(PRIO_PROCESS, tid);
            if (!errno && setpriority(PRIO_PROCESS, tid, cur + l->nice > 19 ? 19 : cur + l->nice) != 0)
                fprintf(stderr, "cpu load: setpriority: %s\n", strerror(errno));
        }
        const size_t B = (size_t)64 << 20;
        char *a = l->mem ? static_cast<char *>(malloc(2 * B)) : nullptr;
        if (a) memset(a, 1, 2 * B);
        volatile uint64_t x = 1;
        while (!l->stop.load(std::memory_order_relaxed)) {
            if (a) { memcpy(a + B, a, B); memcpy(a, a + B, B); }
            else for (int i = 0; i < 100000; i++) x = x * 6364136223846793005ull + 1;
        }
        free(a);
        return nullptr;
    }
    /* "0", "sN", "mN", optionally followed by "nK" */
    bool start(const std::string &w) {
        if (w == "0" || w.empty()) return true;
        mem = w[0] == 'm';
        char *end = nullptr;
        long n = strtol(w.c_str() + 1, &end, 10);
        if ((w[0] != 's' && w[0] != 'm') || n < 1 || n > 4096) return false;
        if (*end == 'n') nice = atoi(end + 1);
        th.resize((size_t)n);
        for (auto &t : th) if (pthread_create(&t, nullptr, run, this) != 0) return false;
        return true;
    }
    ~cpu_load() {
        stop.store(1);
        for (auto &t : th) if (t) pthread_join(t, nullptr);
    }
};
static std::vector<std::string> words(const char *s, const char *dflt) {
    std::vector<std::string> v;
    std::string cur;
    for (const char *p = s ? s : dflt; ; p++) {
        if (!*p || *p == ' ') { if (!cur.empty()) v.push_back(cur); cur.clear(); if (!*p) break; }
        else cur += *p;
    }
    return v;
}

template <bool G2> static void bench_size(int L, int reps, const std::vector<std::string> &dists, std::vector<row> &rows, int sweep) {
    size_t n = (size_t)1 << L;
    pm_error e;
    std::vector<fr_t> t(n);
    for (size_t i = 0; i < n; i++) rand_scalar(t[i]);
    gpu_g1_bases *b1 = nullptr;
    gpu_g2_bases *b2 = nullptr;
    double t0 = now_ms();
    pm_status st = G2 ? gpu_g2_bases_from_scalars(&b2, t.data(), n, &e) : gpu_g1_bases_from_scalars(&b1, t.data(), n, &e);
    if (st != PM_OK) { char buf[1200]; printf("bases: %s\n", pm_error_format(&e, buf, sizeof buf)); return; }
    printf("%s 2^%d: bases generated in %.0f ms\n", G2 ? "G2" : "G1", L, now_ms() - t0);
    void *host_pts = nullptr; /* PM_MSM_CHUNKS: the bases' pinned host copy */
    fr_t *k = nullptr;
    if (gpu_host_alloc((void **)&k, n * sizeof(fr_t), &e) != PM_OK) { printf("pinned alloc failed\n"); return; }
    for (const std::string &d : dists) {
        fill(k, n, d);
        g1_jac_t r1, q1;
        g2_jac_t r2, q2;
        auto run = [&]() { return G2 ? gpu_msm_g2(&r2, b2, 0, k, n, 0, &e) : gpu_msm_g1(&r1, b1, 0, k, n, 0, &e); };
        /* oracle: [sum k_i t_i] G through a 1-point MSM on a separate handle holding G (the base variant's
         * environment: the 1-point MSM takes no accumulation round) */
        bool have_oracle = false;
        if (L <= 26) {
            apply_variant(g_variants[0]);
            fr_t acc = FR_ZERO, tm, pr, one = {{1, 0, 0, 0}};
            for (size_t i = 0; i < n; i++) { fr_to_mont(&tm, &t[i]); fr_mul(&pr, &k[i], &tm); fr_add(&acc, &acc, &pr); }
            if (G2) {
                gpu_g2_bases *g = nullptr;
                have_oracle = gpu_g2_bases_from_scalars(&g, &one, 1, &e) == PM_OK && gpu_msm_g2(&q2, g, 0, &acc, 1, GPU_MSM_NO_01_SPLIT, &e) == PM_OK;
                gpu_g2_bases_free(g);
            } else {
                gpu_g1_bases *g = nullptr;
                have_oracle = gpu_g1_bases_from_scalars(&g, &one, 1, &e) == PM_OK && gpu_msm_g1(&q1, g, 0, &acc, 1, GPU_MSM_NO_01_SPLIT, &e) == PM_OK;
                gpu_g1_bases_free(g);
            }
        }
        /* 2^27: no oracle (the CPU sum takes too long); the variants are checked against the base run */
        g1_jac_t ref1, base1;
        g2_jac_t ref2, base2;
        bool have_base = false; /* the base variant's point, for the chunk rows */
        for (size_t vi = 0; vi < g_variants.size(); vi++) {
        const variant &var = g_variants[vi];
        apply_variant(var);
        row rw;
        rw.impl = vi == 0 ? "proofmill" : "proofmill:" + var.name;
        rw.op = G2 ? "msm_g2" : "msm_g1";
        rw.dist = d;
        rw.lg = L;
        rw.check = "unchecked";
        if (run() != PM_OK) { char buf[1200]; printf("msm (%s): %s\n", var.name.c_str(), pm_error_format(&e, buf, sizeof buf)); rw.check = "WRONG"; rows.push_back(rw); continue; }
        if (have_oracle) rw.check = (G2 ? g2_jac_eq(&r2, &q2) : g1_jac_eq(&r1, &q1)) ? "ok" : "WRONG";
        else if (vi == 0) { ref1 = r1; ref2 = r2; }
        else rw.check = (G2 ? g2_jac_eq(&r2, &ref2) : g1_jac_eq(&r1, &ref1)) ? "same-as-base" : "WRONG";
        if (vi == 0) { base1 = r1; base2 = r2; have_base = true; }
        std::vector<double> w;
        for (int i = 0; i < reps; i++) {
            double a = now_ms();
            run();
            w.push_back(now_ms() - a);
        }
        if (G2) gpu_msm_g2_last_timing(&rw.tm, b2); else gpu_msm_g1_last_timing(&rw.tm, b1);
        rw.med = median(w);
        rw.mn = vmin(w);
        printf("%s 2^%d %s [%s]: wall median %.2f ms (min %.2f); last run's events: scalars %.2f sort %.2f accumulate %.2f reduce %.2f total %.2f ms; "
               "c=%u W=%u rounds=%u tail=%u general=%zu ones=%zu zeros=%zu; check %s\n",
               rw.op.c_str(), L, d.c_str(), var.name.c_str(), rw.med, rw.mn, rw.tm.upload_digits, rw.tm.scatter, rw.tm.accumulate, rw.tm.reduce,
               rw.tm.total, rw.tm.window_bits, rw.tm.windows, rw.tm.rounds, rw.tm.tail_levels, rw.tm.general, rw.tm.ones, rw.tm.zeros,
               rw.check.c_str());
        rows.push_back(rw);
        if (vi + 1 < g_variants.size()) continue;
        if (!G2 && d == "uniform" && sweep && L <= sweep) {
            for (int dc = -2; dc <= 2; dc++) {
                int c = (int)rw.tm.window_bits + dc;
                if (dc == 0 || c < 2 || c > 22) continue;
                setenv("PROOFMILL_GPU_MSM_WINDOW", std::to_string(c).c_str(), 1);
                pm_settings_env_reset(NULL);
                double a = now_ms();
                run();
                double wt = now_ms() - a;
                gpu_msm_timing_t t2;
                gpu_msm_g1_last_timing(&t2, b1);
                printf("G1 2^%d: window c=%d: wall %.2f ms (accumulate %.2f, reduce %.2f)\n", L, c, wt, t2.accumulate, t2.reduce);
            }
            unsetenv("PROOFMILL_GPU_MSM_WINDOW");
            pm_settings_env_reset(NULL);
        }
        }
        /* chunks and streams (PM_MSM_CHUNKS), in the base variant's settings */
        std::vector<long long> chunks;
        if (const char *cs = getenv("PM_MSM_CHUNKS")) for (int x : ints(cs)) if (x > 0) chunks.push_back(x);
        if (!have_base && !chunks.empty()) { printf("chunk rows skipped: the base variant's run failed\n"); chunks.clear(); }
        if (!chunks.empty()) {
            apply_variant(g_variants[0]);
            if (!host_pts) { /* the bases' pinned host copy, made once per size */
                const size_t pb = G2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
                if (gpu_host_alloc(&host_pts, n * pb, &e) != PM_OK ||
                    (G2 ? gpu_g2_bases_download((g2_affine_t *)host_pts, n, b2, 0, &e) : gpu_g1_bases_download((g1_affine_t *)host_pts, n, b1, 0, &e)) != PM_OK) {
                    char buf[1200];
                    printf("chunk rows: the pinned host copy failed: %s\n", pm_error_format(&e, buf, sizeof buf));
                    if (host_pts) gpu_host_free(host_pts);
                    host_pts = nullptr;
                    chunks.clear();
                }
            }
            gpu_fr_buf *kd = nullptr; /* modes 3-4: the scalars on the device */
            const std::vector<int> modes = ints(getenv("PM_MSM_MODES") ? getenv("PM_MSM_MODES") : "0 1 2 3 4");
            const std::vector<std::string> loads = words(getenv("PM_MSM_LOAD"), "0");
            for (long long ch : chunks) {
                for (int mode : modes) for (const std::string &ld : loads) {
                    if (mode < 0 || mode > 4) continue;
                    cpu_load hog;
                    if (!hog.start(ld)) { printf("PM_MSM_LOAD: bad word or thread start \"%s\"\n", ld.c_str()); continue; }
                    /* 0 resident in chunks, 1 streamed, 2 streamed with each chunk's windows reduced on their own
                     * (gpu.msm_keep_buckets false: the form before 2026-12-06, the baseline of the kept buckets);
                     * 3 streamed with the scalars on the device, every point sent (gpu.msm_skip_zero 0), 4 the same
                     * with only the non-zero scalars' points sent (gpu.msm_skip_zero 2: msm_stream.cuh) */
                    const int streamed = mode > 0;
                    if (mode == 2) { setenv("PROOFMILL_GPU_MSM_KEEP_BUCKETS", "0", 1); pm_settings_env_reset(NULL); }
                    if (mode >= 3) {
                        if (!kd && gpu_fr_buf_upload(&kd, k, n, &e) != PM_OK) { printf("device scalars: upload failed\n"); break; }
                        setenv("PROOFMILL_GPU_MSM_SKIP_ZERO", mode == 3 ? "0" : "2", 1);
                        pm_settings_env_reset(NULL);
                    }
                    const unsigned fl = mode >= 3 ? GPU_MSM_SCALARS_DEVICE : 0;
                    const fr_t *ks = mode >= 3 ? gpu_fr_buf_device_ptr(kd) : k;
                    row rw;
                    rw.impl = std::string(mode == 4 ? "proofmill:streamskip" : mode == 3 ? "proofmill:streamdev" : mode == 2 ? "proofmill:streamold"
                                          : streamed ? "proofmill:stream" : "proofmill:chunk") + std::to_string(ch) +
                             (ld == "0" ? std::string() : "@" + ld);
                    rw.op = G2 ? "msm_g2" : "msm_g1";
                    rw.dist = d;
                    rw.lg = L;
                    gpu_g1_bases *h1 = nullptr;
                    gpu_g2_bases *h2 = nullptr;
                    pm_status cs2 = streamed ? (G2 ? gpu_g2_bases_host(&h2, (const g2_affine_t *)host_pts, n, (size_t)ch, 0, &e)
                                                   : gpu_g1_bases_host(&h1, (const g1_affine_t *)host_pts, n, (size_t)ch, 0, &e))
                                             : (G2 ? gpu_g2_bases_set_chunk(b2, (size_t)ch, &e) : gpu_g1_bases_set_chunk(b1, (size_t)ch, &e));
                    auto run2 = [&]() {
                        if (!streamed) return run();
                        return G2 ? gpu_msm_g2(&r2, h2, 0, ks, n, fl, &e) : gpu_msm_g1(&r1, h1, 0, ks, n, fl, &e);
                    };
                    std::vector<double> w;
                    if (cs2 == PM_OK && run2() == PM_OK) {
                        rw.check = (G2 ? g2_jac_eq(&r2, &base2) : g1_jac_eq(&r1, &base1)) ? "same-as-base" : "WRONG";
                        for (int i = 0; i < reps; i++) {
                            double a = now_ms();
                            run2();
                            w.push_back(now_ms() - a);
                        }
                        const void *hb = streamed ? (G2 ? (const void *)h2 : (const void *)h1) : (G2 ? (const void *)b2 : (const void *)b1);
                        if (G2) gpu_msm_g2_last_timing(&rw.tm, (const gpu_g2_bases *)hb); else gpu_msm_g1_last_timing(&rw.tm, (const gpu_g1_bases *)hb);
                    } else {
                        char buf[1200];
                        printf("msm (%s): %s\n", rw.impl.c_str(), pm_error_format(&e, buf, sizeof buf));
                        rw.check = "WRONG";
                    }
                    if (!streamed) { if (G2) gpu_g2_bases_set_chunk(b2, 0, &e); else gpu_g1_bases_set_chunk(b1, 0, &e); }
                    if (G2) { gpu_g2_bases_release_scratch(h2 ? h2 : b2); } else { gpu_g1_bases_release_scratch(h1 ? h1 : b1); }
                    gpu_g1_bases_free(h1);
                    gpu_g2_bases_free(h2);
                    rw.med = median(w);
                    rw.mn = vmin(w);
                    printf("%s 2^%d %s [%s]: wall median %.2f ms (min %.2f); last run's events: scalars %.2f sort %.2f accumulate %.2f reduce %.2f total %.2f ms; "
                           "c=%u W=%u chunks=%u sent=%zu; check %s\n",
                           rw.op.c_str(), L, d.c_str(), rw.impl.c_str() + 10, rw.med, rw.mn, rw.tm.upload_digits, rw.tm.scatter, rw.tm.accumulate,
                           rw.tm.reduce, rw.tm.total, rw.tm.window_bits, rw.tm.windows, rw.tm.chunks, rw.tm.sent, rw.check.c_str());
                    rows.push_back(rw);
                    if (mode >= 2) { unsetenv("PROOFMILL_GPU_MSM_SKIP_ZERO"); apply_variant(g_variants[0]); } /* the base variant's settings again */
                }
            }
        }
    }
    if (host_pts) gpu_host_free(host_pts);
    apply_variant(g_variants[0]);
    gpu_host_free(k);
    gpu_g1_bases_free(b1);
    gpu_g2_bases_free(b2);
}

static std::vector<int> ints(const char *s) {
    std::vector<int> v;
    while (s && *s) {
        char *end;
        long x = strtol(s, &end, 10);
        if (end == s) break;
        v.push_back((int)x);
        s = end;
    }
    return v;
}

int main(int argc, char **argv) {
    std::vector<int> logs;
    bool field_only = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--field-only")) field_only = true;
        else logs.push_back(atoi(argv[i]));
    }
    if (logs.empty()) logs = {20, 24, 26};
    std::vector<int> g2 = ints(getenv("PM_MSM_G2"));
    int reps = getenv("PROOFMILL_BENCH_REPS") ? atoi(getenv("PROOFMILL_BENCH_REPS")) : 5;
    if (reps < 1) reps = 1;
    std::vector<std::string> dists = {"uniform", "witness"};
    if (const char *d = getenv("PM_MSM_DISTS")) {
        dists.clear();
        std::string s(d);
        if (s.find("uniform") != std::string::npos) dists.push_back("uniform");
        if (s.find("witness") != std::string::npos) dists.push_back("witness");
        if (s.find("porep") != std::string::npos) dists.push_back("porep");
    }
    int sweep = getenv("PM_BENCH_C_SWEEP") ? atoi(getenv("PM_BENCH_C_SWEEP")) : 0;
    g_variants = parse_variants(getenv("PM_MSM_VARIANTS"));
    if (gpu_available() == 0) { printf("SKIPPED: no CUDA device\n"); return 77; }
    gpu_device_info_t info;
    pm_error e;
    gpu_device_info(&info, 0, &e);
    printf("device: %s, %d SMs, %.1f GiB; reps %d (+1 warm-up), wall time per call, scalars from pinned host memory\n", info.name, info.sm_count,
           info.mem_total / 1073741824.0, reps);
    if (!getenv("PM_MSM_FIELD") || atoi(getenv("PM_MSM_FIELD"))) {
        double f1 = mul_rate<fp_params, 0>(info.sm_count, "Fp"), f0 = mul_rate<fp_params, 1>(info.sm_count, "Fp");
        double r1 = mul_rate<fr_params, 0>(info.sm_count, "Fr"), r0 = mul_rate<fr_params, 1>(info.sm_count, "Fr");
        double rg = mul_rate<fr_params, 2>(info.sm_count, "Fr");
        printf("field: fused / rows: Fp %.2fx, Fr %.2fx; Fr fe_mul (cios_reduce_rf) / fe_mul_generic: %.3fx\n", f0 > 0 ? f1 / f0 : 0,
               r0 > 0 ? r1 / r0 : 0, rg > 0 ? r1 / rg : 0);
        double f64p = mul_rate<fp_params, 3>(info.sm_count, "Fp"), f64r = mul_rate<fr_params, 3>(info.sm_count, "Fr");
        printf("field: fe_mul_f64 / fe_mul: Fp %.2fx, Fr %.2fx\n", f1 > 0 ? f64p / f1 : 0, r1 > 0 ? f64r / r1 : 0);
        /* the two multipliers use different pipes (IMAD vs DFMA + ALU): mixed chains in one thread */
        double m4r = mul_rate<fr_params, 4>(info.sm_count, "Fr"), m5r = mul_rate<fr_params, 5>(info.sm_count, "Fr"),
               m6r = mul_rate<fr_params, 6>(info.sm_count, "Fr");
        double m4p = mul_rate<fp_params, 4>(info.sm_count, "Fp"), m5p = mul_rate<fp_params, 5>(info.sm_count, "Fp");
        printf("field: mixed / fe_mul: Fr 2+2 %.2fx, 3+1 %.2fx, 1+3 %.2fx; Fp 2+2 %.2fx, 3+1 %.2fx\n", r1 > 0 ? m4r / r1 : 0,
               r1 > 0 ? m5r / r1 : 0, r1 > 0 ? m6r / r1 : 0, f1 > 0 ? m4p / f1 : 0, f1 > 0 ? m5p / f1 : 0);
        double n7r = mul_rate<fr_params, 7>(info.sm_count, "Fr"), n8r = mul_rate<fr_params, 8>(info.sm_count, "Fr");
        double n7p = mul_rate<fp_params, 7>(info.sm_count, "Fp"), n8p = mul_rate<fp_params, 8>(info.sm_count, "Fp");
        printf("field: native 52-bit / fe_mul: Fr %.2fx, mixed 2+2 native %.2fx; Fp %.2fx, mixed %.2fx\n", r1 > 0 ? n7r / r1 : 0,
               r1 > 0 ? n8r / r1 : 0, f1 > 0 ? n7p / f1 : 0, f1 > 0 ? n8p / f1 : 0);
    }
    if (field_only) return 0;
    std::vector<row> rows;
    for (int L : logs) bench_size<false>(L, reps, dists, rows, sweep);
    for (int L : g2) bench_size<true>(L, reps, dists, rows, 0);
    printf("\n%-16s %-7s %-6s %-8s %12s %12s  %s\n", "impl", "op", "log2n", "dist", "median_ms", "min_ms", "check");
    for (auto &r : rows)
        printf("%-16s %-7s %-6d %-8s %12.3f %12.3f  %s\n", r.impl.c_str(), r.op.c_str(), r.lg, r.dist.c_str(), r.med, r.mn, r.check.c_str());
    if (const char *p = getenv("PM_MSM_TSV")) {
        FILE *f = fopen(p, "w");
        if (!f) { perror(p); return 1; }
        fprintf(f, "impl\top\tlog2n\tdist\tmedian_ms\tmin_ms\n");
        for (auto &r : rows) fprintf(f, "%s\t%s\t%d\t%s\t%.4f\t%.4f\n", r.impl.c_str(), r.op.c_str(), r.lg, r.dist.c_str(), r.med, r.mn);
        fclose(f);
    }
    int wrong = 0;
    for (auto &r : rows) wrong += r.check == "WRONG";
    return wrong ? 3 : 0;
}
