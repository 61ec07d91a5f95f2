/*
 * bench/circuits/spmv.c — C2 SpMV (a = A·w, b = B·w, c = C·w) over a recorded PoRep partition
 * circuit: dictionary-coded coefficients (what pm_cs_finish records, CSR file v2: a u32 index per
 * term into a small table) against the same matrices with full 32-byte coefficients (CSR v1),
 * in the same process, alternating, best of R.
 *
 * Usage: bench_circuits_spmv [--sector-size S] [--reps R]   (defaults 2KiB, 5; threads: OMP_NUM_THREADS)
 * Prints the term counts, the share of ±1 coefficients, matrix bytes of each coding, the time of
 * each and the ratio full / dictionary. The two results are compared (they must be equal).
 * The witness is random (SpMV time depends on the sparsity pattern and the coefficients only).
 * Count (per term): one u32 column + one coefficient read, then an add/sub (±1) or a Montgomery
 * multiplication + add; bytes per term 4 + 32 (full) or 4 + 4 (dictionary), plus 8 per row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "circuits/filecoin/porep_circuit.h"
#include "filecoin/sizes.h"
#include "field/fr.h"
#include "r1cs/r1cs.h"
#include "test_util.h"
#include "util/clock.h"

static double run(fr_t *a, fr_t *b, fr_t *c, const r1cs_t *cs, const fr_t *w) {
    pm_error err;
    double t = pm_now_s();
    if (r1cs_spmv(a, b, c, cs->n_constraints, cs, w, cs->n_wires, &err)) {
        fprintf(stderr, "spmv: %s\n", err.msg);
        exit(2);
    }
    return pm_now_s() - t;
}

int main(int argc, char **argv) {
    const char *size_text = "2KiB";
    unsigned reps = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sector-size") && i + 1 < argc) size_text = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = (unsigned)strtoul(argv[++i], NULL, 10);
        else {
            fprintf(stderr, "usage: bench_circuits_spmv [--sector-size S] [--reps R]\n");
            return 2;
        }
    }
    if (reps == 0) reps = 1;
    pm_error err;
    pm_error_clear(&err);
    uint64_t bytes;
    pm_porep_shape s;
    r1cs_t dict = {0};
    uint32_t nin;
    double t0 = pm_now_s();
    if (fil_sector_size_parse(&bytes, size_text, &err) || pm_porep_shape_for_size(&s, bytes, &err) ||
        pm_porep_record(&dict, &nin, &s, &err)) {
        fprintf(stderr, "bench_circuits_spmv: %s\n", err.msg);
        return 2;
    }
    double t1 = pm_now_s();
    /* the same matrices with full coefficients */
    r1cs_t full = dict;
    full.coef_tab_owned = NULL;
    r1cs_matrix_t *fm[3] = {&full.A, &full.B, &full.C};
    uint64_t nnz = 0, pm1 = 0;
    for (int k = 0; k < 3; k++) {
        fr_t *cf = aligned_alloc(32, (fm[k]->nnz ? fm[k]->nnz : 1) * sizeof(fr_t));
        if (!cf) {
            fprintf(stderr, "bench_circuits_spmv: out of memory for the full coefficients\n");
            return 2;
        }
        for (uint64_t t = 0; t < fm[k]->nnz; t++) {
            cf[t] = *r1cs_coef(fm[k], t);
            pm1 += fm[k]->coef_idx[t] < 2; /* dictionary entries 0, 1 = 1, -1 */
        }
        nnz += fm[k]->nnz;
        fm[k]->coef = cf;
        fm[k]->coef_idx = NULL;
        fm[k]->coef_tab = NULL;
    }
    size_t n = dict.n_constraints;
    fr_t *w = aligned_alloc(32, (size_t)dict.n_wires * sizeof(fr_t));
    fr_t *o[6];
    for (int i = 0; i < 6; i++) o[i] = aligned_alloc(32, n * sizeof(fr_t));
    if (!w || !o[0] || !o[1] || !o[2] || !o[3] || !o[4] || !o[5]) {
        fprintf(stderr, "bench_circuits_spmv: out of memory\n");
        return 2;
    }
    pm_test_seed();
    w[0] = FR_ONE;
    for (uint32_t i = 1; i < dict.n_wires; i++) pm_rand_fr(&w[i]);
    const double rows_b = 3.0 * ((double)n + 1) * 8;
    printf("sector %s: %u constraints, %u wires, %llu terms (%.1f %% with coefficient +-1), %u distinct "
           "coefficients; recorded in %.2f s\n",
           size_text, dict.n_constraints, dict.n_wires, (unsigned long long)nnz, 100.0 * (double)pm1 / (double)nnz,
           dict.A.n_coef_tab, t1 - t0);
    printf("matrix bytes: full %.1f MB (36 B/term + rows), dictionary %.1f MB (8 B/term + rows + table)\n",
           ((double)nnz * 36 + rows_b) / 1e6, ((double)nnz * 8 + rows_b + dict.A.n_coef_tab * 32.0) / 1e6);
    double best_f = 1e30, best_d = 1e30;
    for (unsigned r = 0; r < reps; r++) {
        double tf = run(o[0], o[1], o[2], &full, w);
        double td = run(o[3], o[4], o[5], &dict, w);
        if (tf < best_f) best_f = tf;
        if (td < best_d) best_d = td;
        printf("rep %u: full %.3f s, dictionary %.3f s\n", r, tf, td);
    }
    for (int i = 0; i < 3; i++)
        if (memcmp(o[i], o[i + 3], n * sizeof(fr_t))) {
            fprintf(stderr, "bench_circuits_spmv: results differ (matrix %c)\n", "ABC"[i]);
            return 1;
        }
    printf("best of %u: full %.3f s (%.1f ns/term), dictionary %.3f s (%.1f ns/term): full/dictionary %.2fx; "
           "results equal\n",
           reps, best_f, 1e9 * best_f / (double)nnz, best_d, 1e9 * best_d / (double)nnz, best_f / best_d);
    for (int k = 0; k < 3; k++) free(fm[k]->coef);
    for (int i = 0; i < 6; i++) free(o[i]);
    free(w);
    r1cs_free(&dict);
    return 0;
}
