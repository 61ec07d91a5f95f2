/*
 * ntt_h.c — the CPU H phase on many threads (issue #14): snarkjs H (ntt_snarkjs_h) and bellperson H
 * (ntt_bellperson_h, 6 transforms: what the CPU prover runs), each fused, against bellperson's own
 * sequence of public transforms (ntt_inverse, ntt_coset_forward for a, b and c, pointwise,
 * ntt_coset_inverse: 7 transforms, the CPU prover's H until 2026-12-03; the baseline in the same process),
 * and one forward NTT, for each thread count; times are wall seconds, min and median of the
 * repetitions. Every result is compared byte for byte with the 1-thread result ("same").
 * The floor column: the multiplications counted for the phase (n/2 log n - n per transform + the
 * scaling and pointwise ones) times the fr_mul time measured here (thread CPU time of a dependent
 * chain), divided by the
 * thread count (the machine's other load not removed). "CPU s": process CPU time of the fastest
 * snarkjs H run (all threads): on a loaded machine, where wall time cannot show the scaling, equal
 * CPU seconds across thread counts show that the parallel passes add no work.
 *
 * Usage: bench_ntt_h [--log L] [--threads 1,2,4,8,16] [--reps R] [--no-seq]   (defaults 20, 1,2,4,8,16, 3)
 *        --no-seq skips the bellperson sequence column (the host tests compare its bytes already;
 *        it is a third of the 1-thread row's time); --shapes 12:13,14:14 repeats every thread count for each
 *        pass shape (ntt_set_pass_shape: block pass 2^B elements, upper tiles <= 2^T; 0:0 the default)
 * On the H200 host (16 cores): bench_ntt_h --log 23 (the 2^22-constraint circuit's domain).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "ntt/ntt.h"
#include "ntt_ref.h" /* tests/common: bellperson's sequence */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static double cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static int cmpd(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
typedef struct { double min, med; } stat_t;
static stat_t stats(double *t, int n) {
    qsort(t, (size_t)n, sizeof *t, cmpd);
    stat_t s = {t[0], t[n / 2]};
    return s;
}

static void fill(fr_t *v, size_t n, uint64_t seed) {
    uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1;
    for (size_t i = 0; i < n; i++) {
        fr_t p;
        for (int j = 0; j < 4; j++) {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            p.l[j] = x;
        }
        p.l[3] &= 0x0fffffffffffffffULL;
        fr_to_mont(&v[i], &p);
    }
}

int main(int argc, char **argv) {
    unsigned L = 20;
    int reps = 3, th[16] = {1, 2, 4, 8, 16}, nth = 5, seq = 1;
    unsigned shp[16][2] = {{0, 0}}, nsh = 1; /* pass shapes (block log : tile log); 0:0 = the library default */
    static const struct option opts[] = {{"log", required_argument, 0, 'l'}, {"threads", required_argument, 0, 't'},
                                         {"reps", required_argument, 0, 'r'}, {"no-seq", no_argument, 0, 'S'},
                                         {"shapes", required_argument, 0, 'P'}, {0, 0, 0, 0}};
    int o;
    while ((o = getopt_long(argc, argv, "l:t:r:", opts, NULL)) != -1) {
        if (o == 'l') L = (unsigned)atoi(optarg);
        else if (o == 'S') seq = 0;
        else if (o == 'P') {
            nsh = 0;
            for (char *p = optarg; *p && nsh < 16;) {
                shp[nsh][0] = (unsigned)strtoul(p, &p, 10);
                shp[nsh][1] = *p == ':' ? (unsigned)strtoul(p + 1, &p, 10) : 0;
                nsh++;
                while (*p == ',') p++;
            }
        }
        else if (o == 'r') reps = atoi(optarg);
        else if (o == 't') {
            nth = 0;
            for (char *p = optarg; *p && nth < 16;) {
                th[nth++] = (int)strtol(p, &p, 10);
                while (*p == ',') p++;
            }
        } else {
            fprintf(stderr, "usage: %s [--log L] [--threads 1,2,4,8,16] [--reps R] [--no-seq] [--shapes B:T,...]\n", argv[0]);
            return 2;
        }
    }
    if (L < 1 || L > 28 || reps < 1 || nth < 1 || th[0] < 1) { fprintf(stderr, "bad arguments\n"); return 2; }
    const size_t n = (size_t)1 << L;
    ntt_domain_t d5, d7;
    if (ntt_domain_init(&d5, L, NTT_ROOTS_SNARKJS, NULL) || ntt_domain_init(&d7, L, NTT_ROOTS_ARKWORKS, NULL)) {
        fprintf(stderr, "domain 2^%u: out of memory\n", L);
        return 1;
    }
    fr_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *a), *c = malloc(n * sizeof *a);
    fr_t *x = malloc(n * sizeof *a), *y = malloc(n * sizeof *a), *z = malloc(n * sizeof *a);
    fr_t *r1[4] = {malloc(n * sizeof *a), malloc(n * sizeof *a), malloc(n * sizeof *a), malloc(n * sizeof *a)};
    if (!a || !b || !c || !x || !y || !z || !r1[0] || !r1[1] || !r1[2] || !r1[3]) { fprintf(stderr, "out of memory\n"); return 1; }
    fill(a, n, 1);
    fill(b, n, 2);
    for (size_t i = 0; i < n; i++) fr_mul(&c[i], &a[i], &b[i]); /* a satisfied instance */
    /* fr_mul time, one thread, dependent chain */
    double tm;
    {
        fr_t acc = a[0];
        const int K = 2000000;
        struct timespec u0, u1; /* this thread's CPU time: not inflated by other processes */
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &u0);
        for (int i = 0; i < K; i++) fr_mul(&acc, &acc, &b[1]);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &u1);
        tm = ((double)(u1.tv_sec - u0.tv_sec) + 1e-9 * (double)(u1.tv_nsec - u0.tv_nsec)) / K;
        if (fr_is_zero(&acc)) printf(" ");
    }
    /* counted multiplications: transform n/2 L - n; snarkjs 6 T + 3 x 2n scale + 3n pointwise;
     * bellperson (C never goes to the coset) 6 T + 2 x 2n scale + n pointwise + 2n + n final scales */
    const double T = (double)n / 2 * L - (double)n;
    const double m_sn = 6 * T + 9.0 * (double)n, m_bp = 6 * T + 8.0 * (double)n;
    printf("bench_ntt_h: n = 2^%u, reps %d, fr_mul %.1f ns (1 thread); counted: snarkjs H %.0f M mul, bellperson H %.0f M mul\n", L,
           reps, tm * 1e9, m_sn / 1e6, m_bp / 1e6);
    printf("| shape B:T | threads | snarkjs H min (med) s | speedup vs 1 | CPU s | floor s | bellperson H fused min (med) s | floor s | bellperson sequence (7 public transforms) min (med) s | fused / sequence | forward NTT min s | same bytes |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    double t1_sn = 0;
    for (unsigned sh = 0; sh < nsh; sh++)
    for (int q = 0; q < nth; q++) {
        unsigned sb, st_;
        ntt_set_pass_shape(shp[sh][0], shp[sh][1]);
        ntt_get_pass_shape(&sb, &st_);
        const int first = sh == 0 && q == 0;
#ifdef _OPENMP
        omp_set_num_threads(th[q]);
#endif
        double ts[4][64], cpu_sn = 1e30;
        int same = 1;
        if (reps > 64) reps = 64;
        for (int r = 0; r < reps; r++) {
            memcpy(x, a, n * sizeof *x);
            memcpy(y, b, n * sizeof *y);
            double t0 = now(), c0 = cpu_now();
            ntt_snarkjs_h(x, n, x, y, z, &d5, NULL);
            ts[0][r] = now() - t0;
            if (cpu_now() - c0 < cpu_sn) cpu_sn = cpu_now() - c0;
            if (first && r == 0) memcpy(r1[0], x, n * sizeof *x);
            else same &= !memcmp(r1[0], x, n * sizeof *x);
            memcpy(x, a, n * sizeof *x);
            memcpy(y, b, n * sizeof *y);
            memcpy(z, c, n * sizeof *z);
            t0 = now();
            pm_status st = ntt_bellperson_h(x, n, x, y, z, &d7, NULL);
            ts[1][r] = now() - t0;
            same &= st == PM_OK;
            if (first && r == 0) memcpy(r1[1], x, n * sizeof *x);
            else same &= !memcmp(r1[1], x, n * sizeof *x);
            memcpy(x, a, n * sizeof *x);
            memcpy(y, b, n * sizeof *y);
            memcpy(z, c, n * sizeof *z);
            ts[2][r] = 0;
            if (seq) {
                t0 = now();
                bellperson_h_seq(x, y, z, &d7);
                ts[2][r] = now() - t0;
                same &= !memcmp(r1[1], x, n * sizeof *x); /* the fused H gives the prover's bytes */
            }
            memcpy(x, a, n * sizeof *x);
            t0 = now();
            ntt_forward(x, n, &d7);
            ts[3][r] = now() - t0;
            if (first && r == 0) memcpy(r1[3], x, n * sizeof *x);
            else same &= !memcmp(r1[3], x, n * sizeof *x);
        }
        stat_t s0 = stats(ts[0], reps), s1 = stats(ts[1], reps), s2 = stats(ts[2], reps), s3 = stats(ts[3], reps);
        if (first) t1_sn = s0.min;
        printf("| %u:%u | %d | %.3f (%.3f) | %.2f | %.3f | %.3f | %.3f (%.3f) | %.3f | %.3f (%.3f) | %.2f | %.3f | %s |\n", sb, st_, th[q], s0.min, s0.med,
               t1_sn / s0.min, cpu_sn, m_sn * tm / th[q], s1.min, s1.med, m_bp * tm / th[q], s2.min, s2.med, seq ? s1.min / s2.min : 0.0, s3.min,
               same ? "yes" : "NO");
        fflush(stdout);
    }
    free(a); free(b); free(c); free(x); free(y); free(z);
    for (int i = 0; i < 4; i++) free(r1[i]);
    ntt_domain_free(&d5);
    ntt_domain_free(&d7);
    return 0;
}
