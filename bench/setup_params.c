/*
 * bench/setup_params.c — issue #6 speed numbers: Groth16 setup time for a synthetic circuit of
 * 2^k constraints (bellperson .params and snarkjs .zkey conventions), and the load time of the
 * resulting .params from the page cache against `cat FILE > /dev/null` of the same file in the
 * same run (the baseline: what merely reading the bytes costs).
 *
 *   bench_setup_params [--log K (16)] [--dir DIR (/tmp)] [--threads N] [--no-zkey]
 *                      [--subgroup] [--reps R (3)] [--params FILE (skip setup, load FILE)]
 *
 * Output: one line per measurement, then the ratio load/cat. Loads are best of R after a warm-up
 * read; --subgroup adds one load with subgroup checks on every point.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "groth16/params.h"
#include "groth16/setup.h"
#include "groth16/zkey_write.h"
#include "r1cs/synth.h"
#include "util/clock.h"

static int die(const pm_error *e) {
    fprintf(stderr, "error: %s: %s\n", e->file, e->msg);
    return 1;
}

int main(int argc, char **argv) {
    unsigned logn = 16, reps = 3;
    const char *dir = "/tmp", *given = NULL;
    int zkey = 1, subgroup = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--log") && i + 1 < argc) logn = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--params") && i + 1 < argc) given = argv[++i];
        else if (!strcmp(argv[i], "--no-zkey")) zkey = 0;
        else if (!strcmp(argv[i], "--subgroup")) subgroup = 1;
#ifdef _OPENMP
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) omp_set_num_threads(atoi(argv[++i]));
#endif
        else {
            fprintf(stderr, "usage: %s [--log K] [--dir DIR] [--threads N] [--no-zkey] [--subgroup] "
                            "[--reps R] [--params FILE]\n", argv[0]);
            return 2;
        }
    }
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    pm_error err;
    pm_error_clear(&err);
    char path[1024];
    if (given) {
        snprintf(path, sizeof path, "%s", given);
    } else {
        snprintf(path, sizeof path, "%s/bench_setup_2p%u.params", dir, logn);
        /* a circuit whose rows (constraints + public + 1) fill the 2^k domain exactly */
        r1cs_synth_opts_t o = {(1u << logn) - 5, 4, 2, 0.9, 1};
        r1cs_t cs;
        fr_t *w;
        double t0 = pm_now_s();
        if (r1cs_synth(&cs, &w, &o, &err)) return die(&err);
        printf("synth: %u constraints, %u wires, nnz A %llu B %llu C %llu (%.2f s)\n",
               cs.n_constraints, cs.n_wires, (unsigned long long)cs.A.nnz,
               (unsigned long long)cs.B.nnz, (unsigned long long)cs.C.nnz, pm_now_s() - t0);
        groth16_toxic_t t;
        uint64_t seed = 1;
        if (groth16_toxic_draw(&t, &seed, &err)) return die(&err);
        bp_params_t p;
        groth16_setup_timings_t tm;
        if (groth16_setup_bellperson(&p, &cs, &t, &tm, &err)) return die(&err);
        printf("setup bellperson 2^%u: %.3f s (qap %.3f, tables %.3f, points %.3f), %d threads; "
               "%.2f us per constraint\n",
               logn, tm.total, tm.qap, tm.tables, tm.points, threads,
               1e6 * tm.total / (double)cs.n_constraints);
        t0 = pm_now_s();
        if (params_write(path, &p, &err)) return die(&err);
        printf("write .params: %.3f s\n", pm_now_s() - t0);
        params_free(&p);
        if (zkey) {
            zkey_t zk;
            if (groth16_setup_snarkjs(&zk, &cs, &t, &tm, &err)) return die(&err);
            printf("setup snarkjs 2^%u: %.3f s (qap %.3f, tables %.3f, points %.3f), %d threads; "
                   "%.2f us per constraint\n",
                   logn, tm.total, tm.qap, tm.tables, tm.points, threads,
                   1e6 * tm.total / (double)cs.n_constraints);
            zkey_free(&zk);
        }
        r1cs_free(&cs);
        free(w);
    }
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    double gb = (double)st.st_size / 1e9;
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cat '%s' > /dev/null", path);
    if (system(cmd) != 0) return 1; /* warm the page cache */
    double best_cat = 1e30, best_load = 1e30;
    for (unsigned r = 0; r < reps; r++) {
        double t0 = pm_now_s();
        if (system(cmd) != 0) return 1;
        double dt = pm_now_s() - t0;
        if (dt < best_cat) best_cat = dt;
        bp_params_t p;
        t0 = pm_now_s();
        if (params_read(&p, path, 0, &err)) return die(&err);
        dt = pm_now_s() - t0;
        if (dt < best_load) best_load = dt;
        params_free(&p);
    }
    printf("file %s: %.3f GB\n", path, gb);
    printf("cat > /dev/null (page cache): %.3f s = %.2f GB/s (best of %u)\n", best_cat, gb / best_cat, reps);
    printf("params_read, on-curve checks, %d threads: %.3f s = %.2f GB/s (best of %u)\n", threads,
           best_load, gb / best_load, reps);
    printf("ratio load / cat: %.2f\n", best_load / best_cat);
    if (subgroup) {
        bp_params_t p;
        double t0 = pm_now_s();
        if (params_read(&p, path, BP_PARAMS_CHECK_SUBGROUP, &err)) return die(&err);
        double dt = pm_now_s() - t0;
        printf("params_read + subgroup checks, %d threads: %.3f s = %.3f GB/s (%.1fx the plain load)\n",
               threads, dt, gb / dt, dt / best_load);
        params_free(&p);
    }
    if (!given) remove(path);
    return 0;
}
