/*
 * bench/msm.c — CPU Pippenger MSM timings (issue #3).
 *
 * Prints, for G1 MSM of 2^16..2^20 points and G2 MSM of 2^16..2^18 points with uniformly random
 * scalars < r (no 0/1 scalars: the worst case for the 0/1 split), the time with 1 and with 2
 * threads (wall and process CPU time: on a shared, loaded machine only CPU time is stable), the
 * speedup, and a baseline measured in the same run: the CPU time of one XYZZ mixed addition
 * times the addition count W*(n + 2^c) of the cost model in msm.h. cpu/model < 1 means the
 * MSM does its additions cheaper than XYZZ mixed additions (the batch-affine path).
 *
 * Usage: bench_msm [--g1 LO HI] [--g2 LO HI] [--threads T1,T2,...] [--reps R] [--c C]
 *   defaults: --g1 16 20 --g2 16 18 --threads 1,2 --reps 1. Sizes are log2(n). --c forces the
 *   window width (tuning the cost model / the batch-affine threshold).
 * Points: a random walk P_{i+1} = P_i + Q (cheap to make; Pippenger does not care).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fr.h"
#include "msm/msm.h"
#include "msm/msm_internal.h"
#include "util/clock.h"

static uint64_t rng_state = 0x243f6a8885a308d3ULL;
static uint64_t rnd(void) { /* splitmix64; benchmark data only */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void rand_scalars(fr_t *k, size_t n) {
    for (size_t i = 0; i < n; i++) {
        do {
            for (int j = 0; j < 4; j++) k[i].l[j] = rnd();
            k[i].l[3] &= 0x7fffffffffffffffULL;
        } while (msm_scalar_ge_r(&k[i]));
    }
}

/* CPU seconds of the whole process (all threads): on a shared, loaded machine the wall time
 * includes waiting for a core; CPU time does not. */
static double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define BENCH_GROUP(G, AFF, JAC, XYZZ, GEN)                                                      \
    static void G##_points(AFF *pts, size_t n) {                                                 \
        JAC *jac = malloc(n * sizeof *jac), g, q, p;                                             \
        uint64_t e[4] = {rnd(), rnd(), rnd(), 1};                                                \
        G##_jac_from_affine(&g, &GEN);                                                           \
        G##_jac_mul_vartime(&q, &g, e, 4);                                                       \
        p = q;                                                                                   \
        G##_jac_dbl(&q, &q);                                                                     \
        for (size_t i = 0; i < n; i++) {                                                         \
            jac[i] = p;                                                                          \
            G##_jac_add(&p, &p, &q);                                                             \
        }                                                                                        \
        G##_jacs_to_affine(pts, jac, n);                                                         \
        free(jac);                                                                               \
    }                                                                                            \
    /* CPU seconds per XYZZ mixed addition, measured on m distinct points */                         \
    static double G##_madd_time(const AFF *pts, size_t m) {                                      \
        XYZZ acc;                                                                                \
        G##_xyzz_from_affine(&acc, &pts[0]);                                                     \
        double t0 = cpu_now();                                                                   \
        for (size_t i = 1; i < m; i++) G##_xyzz_add_affine(&acc, &acc, &pts[i]);                 \
        double t = (cpu_now() - t0) / (double)(m - 1);                                           \
        volatile int sink = G##_xyzz_is_infinity(&acc);                                          \
        (void)sink;                                                                              \
        return t;                                                                                \
    }                                                                                            \
    static void G##_bench(const char *name, unsigned lo, unsigned hi, const unsigned *thr,       \
                          unsigned nthr, unsigned reps) {                                        \
        size_t nmax = (size_t)1 << hi;                                                           \
        AFF *pts = malloc(nmax * sizeof *pts);                                                   \
        fr_t *ks = malloc(nmax * sizeof *ks);                                                    \
        if (!pts || !ks) {                                                                       \
            fprintf(stderr, "out of memory\n");                                                  \
            exit(1);                                                                             \
        }                                                                                        \
        double tg = pm_now_s();                                                                       \
        G##_points(pts, nmax);                                                                   \
        rand_scalars(ks, nmax);                                                                  \
        double tadd = G##_madd_time(pts, nmax < 20000 ? nmax : 20000);                           \
        printf("# %s: %zu points generated in %.1f s; XYZZ mixed add %.0f ns\n", name, nmax,     \
               pm_now_s() - tg, tadd * 1e9);                                                          \
        for (unsigned lg = lo; lg <= hi; lg++) {                                                 \
            size_t n = (size_t)1 << lg;                                                          \
            unsigned c = force_c ? force_c : msm_window_bits(n);                                                     \
            unsigned cmax_ = c;                                                                                      \
            double floor_s = (double)msm_num_windows(c) * ((double)n + (double)(1u << c)) * tadd; \
            double t1 = 0;                                                                       \
            for (unsigned ti = 0; ti < nthr; ti++) {                                             \
                double best = 1e30, cpu = 1e30;                                                  \
                JAC r;                                                                           \
                for (unsigned rep = 0; rep < reps; rep++) {                                      \
                    double c0 = cpu_now();                                                       \
                    double t0 = pm_now_s();                                                           \
                    if (G##_msm_check(&r, pts, ks, n, thr[ti]) != PM_OK) {                       \
                        fprintf(stderr, "msm failed\n");                                         \
                        exit(1);                                                                 \
                    }                                                                            \
                    double t = pm_now_s() - t0;                                                       \
                    if (t < best) best = t;                                                      \
                    if (cpu_now() - c0 < cpu) cpu = cpu_now() - c0;                              \
                }                                                                                \
                if (ti == 0) t1 = best;                                                          \
                if (!force_c) { /* the c the MSM picks for this thread count */                  \
                    unsigned sl_;                                                                \
                    msm_plan(n, thr[ti], cmax_, &c, &sl_);                                       \
                    floor_s = (double)msm_num_windows(c) *                                       \
                              ((double)n + (double)(1u << c)) * tadd;                      \
                }                                                                                \
                printf("%s MSM 2^%-2u c=%-2u threads=%u  wall %8.3f s  cpu %8.3f s  speedup vs %u "   \
                       "thr %.2fx  model W(n+2^c)*t_madd %.3f s (cpu/model %.2f)\n",                 \
                       name, lg, c, thr[ti], best, cpu, thr[0], t1 / best, floor_s,                \
                       cpu / floor_s);                                              \
                fflush(stdout);                                                                  \
            }                                                                                    \
        }                                                                                        \
        free(pts);                                                                               \
        free(ks);                                                                                \
    }

static unsigned force_c; /* --c: force the window width (0 = automatic) */
#define g1_msm_check(r, p, k, n, t) msm_g1_vartime_window(r, p, k, n, t, force_c, NULL, 0)
#define g2_msm_check(r, p, k, n, t) msm_g2_vartime_window(r, p, k, n, t, force_c, NULL, 0)
BENCH_GROUP(g1, g1_affine_t, g1_jac_t, g1_xyzz_t, G1_GENERATOR)
BENCH_GROUP(g2, g2_affine_t, g2_jac_t, g2_xyzz_t, G2_GENERATOR)

int main(int argc, char **argv) {
    unsigned g1lo = 16, g1hi = 20, g2lo = 16, g2hi = 18, reps = 1;
    unsigned thr[16] = {1, 2}, nthr = 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--g1") && i + 2 < argc) {
            g1lo = (unsigned)atoi(argv[++i]);
            g1hi = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--g2") && i + 2 < argc) {
            g2lo = (unsigned)atoi(argv[++i]);
            g2hi = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--c") && i + 1 < argc) {
            force_c = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
            nthr = 0;
            for (char *s = strtok(argv[++i], ","); s && nthr < 16; s = strtok(NULL, ","))
                thr[nthr++] = (unsigned)atoi(s);
        } else {
            fprintf(stderr, "usage: %s [--g1 LO HI] [--g2 LO HI] [--threads 1,2] [--reps R] [--c C]\n"
                            "  (LO > HI skips a group)\n", argv[0]);
            return 2;
        }
    }
    printf("# field backend: %s\n", fr_backend());
    if (g1lo <= g1hi) g1_bench("G1", g1lo, g1hi, thr, nthr, reps ? reps : 1);
    if (g2lo <= g2hi) g2_bench("G2", g2lo, g2hi, thr, nthr, reps ? reps : 1);
    return 0;
}
