/*
 * bench/circuits/qap.c — the QAP at tau of Groth16 setup (groth16_qap_at_tau: u, v, w = A, B, C's
 * Lagrange-basis columns evaluated at tau) over a recorded PoRep partition circuit, against the
 * serial algorithm it replaced (2f70ae9: one thread; every term multiplied), in the same process,
 * best of R; the outputs must be equal.
 *
 * Usage: bench_circuits_qap [--sector-size S (8MiB)] [--reps R (3)]   (threads: OMP_NUM_THREADS)
 * Count per row of the 2^k domain: 1 multiplication (powers), 3 + 2 (batch inversion, Lagrange
 * factor); per term of A, B, C: 1 multiplication + 1 addition, or 1 addition for a ±1
 * coefficient (the new code only); the new code also reads each column index once per thread.
 * Prediction (written before the run): at 8 MiB on 2 cores ≈ 1.9x (parallel) x the ±1 share
 * saving; on the H200 host's 16 cores the 32 GiB QAP from 50.7 s to ≈ 4-6 s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/filecoin/porep_circuit.h"
#include "filecoin/sizes.h"
#include "field/fr.h"
#include "groth16/setup.h"
#include "r1cs/r1cs.h"
#include "util/clock.h"
#include "util/parallel.h"

/* ---- the baseline: the serial QAP of 2f70ae9 ---- */
static void base_accumulate(fr_t *u, const r1cs_matrix_t *m, const fr_t *lag) {
    for (uint32_t c = 0; c < m->n_rows; c++)
        for (uint64_t t = m->row_ptr[c]; t < m->row_ptr[c + 1]; t++) {
            fr_t p;
            fr_mul(&p, r1cs_coef(m, t), &lag[c]);
            fr_add(&u[m->col[t]], &u[m->col[t]], &p);
        }
}

static int base_qap(fr_t *u, fr_t *v, fr_t *w, const r1cs_t *cs, unsigned log_n, unsigned gen, const fr_t *tau) {
    uint32_t npub = r1cs_n_public(cs);
    uint64_t rows = (uint64_t)cs->n_constraints + npub + 1, n = (uint64_t)1 << log_n;
    fr_t g, omega, tn, zn, ninv, x = FR_ONE;
    fr_from_u64(&g, gen);
    if (fr_root_of_unity(&omega, &g, log_n) != 0) return -1;
    fr_pow_vartime(&tn, tau, &n, 1);
    fr_sub(&zn, &tn, &FR_ONE);
    fr_from_u64(&ninv, n);
    fr_inv_vartime(&ninv, &ninv);
    fr_mul(&zn, &zn, &ninv);
    fr_t *xs = malloc(rows * sizeof *xs), *lag = malloc(rows * sizeof *lag), *scr = malloc(rows * sizeof *scr);
    if (!xs || !lag || !scr) return -1;
    for (uint64_t i = 0; i < rows; i++) {
        xs[i] = x;
        fr_mul(&x, &x, &omega);
    }
    for (uint64_t i = 0; i < rows; i++) fr_sub(&lag[i], tau, &xs[i]);
    fr_batch_inv_vartime(lag, lag, rows, scr);
    for (uint64_t i = 0; i < rows; i++) {
        fr_mul(&lag[i], &lag[i], &xs[i]);
        fr_mul(&lag[i], &lag[i], &zn);
    }
    for (uint32_t i = 0; i < cs->n_wires; i++) u[i] = v[i] = w[i] = FR_ZERO;
    base_accumulate(u, &cs->A, lag);
    base_accumulate(v, &cs->B, lag);
    base_accumulate(w, &cs->C, lag);
    for (uint32_t i = 0; i <= npub; i++) fr_add(&u[i], &u[i], &lag[cs->n_constraints + i]);
    free(xs);
    free(lag);
    free(scr);
    return 0;
}

static uint64_t units(const r1cs_matrix_t *m) {
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    uint64_t k = 0;
    for (uint64_t t = 0; t < m->nnz; t++) k += fr_is_one(r1cs_coef(m, t)) || fr_eq(r1cs_coef(m, t), &m1);
    return k;
}

int main(int argc, char **argv) {
    const char *size = "8MiB";
    int reps = 3;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sector-size") && i + 1 < argc) size = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--sector-size S] [--reps R]\n", argv[0]);
            return 2;
        }
    }
    pm_error err;
    pm_error_clear(&err);
    uint64_t bytes;
    pm_porep_shape s;
    r1cs_t cs = {0};
    uint32_t nin;
    if (fil_sector_size_parse(&bytes, size, &err) || pm_porep_shape_for_size(&s, bytes, &err) ||
        pm_porep_record(&cs, &nin, &s, &err)) {
        fprintf(stderr, "error: %s\n", err.msg);
        return 1;
    }
    uint64_t rows = (uint64_t)cs.n_constraints + r1cs_n_public(&cs) + 1;
    unsigned log_n = 0;
    while (((uint64_t)1 << log_n) < rows) log_n++;
    uint64_t nnz = cs.A.nnz + cs.B.nnz + cs.C.nnz, un = units(&cs.A) + units(&cs.B) + units(&cs.C);
    printf("circuit %s: %u constraints, %u wires, domain 2^%u, terms %llu (%.1f%% are +-1), threads %d\n", size,
           cs.n_constraints, cs.n_wires, log_n, (unsigned long long)nnz, 100.0 * (double)un / (double)nnz,
           pm_thread_count());
    size_t nw = cs.n_wires;
    fr_t *u = malloc(nw * sizeof *u), *v = malloc(nw * sizeof *v), *w = malloc(nw * sizeof *w);
    fr_t *u0 = malloc(nw * sizeof *u), *v0 = malloc(nw * sizeof *v), *w0 = malloc(nw * sizeof *w);
    if (!u || !v || !w || !u0 || !v0 || !w0) return 1;
    fr_t tau;
    fr_from_u64(&tau, 0x123456789abcdefull);
    double best_new = 1e30, best_base = 1e30;
    for (int r = 0; r < reps; r++) {
        double t = pm_now_s();
        if (base_qap(u0, v0, w0, &cs, log_n, 7, &tau)) return 1;
        double tb = pm_now_s() - t;
        t = pm_now_s();
        if (groth16_qap_at_tau(u, v, w, NULL, &cs, log_n, 7, &tau, &err)) {
            fprintf(stderr, "error: %s\n", err.msg);
            return 1;
        }
        double tn = pm_now_s() - t;
        if (memcmp(u, u0, nw * sizeof *u) || memcmp(v, v0, nw * sizeof *v) || memcmp(w, w0, nw * sizeof *w)) {
            fprintf(stderr, "MISMATCH: the QAP differs from the baseline\n");
            return 1;
        }
        if (tb < best_base) best_base = tb;
        if (tn < best_new) best_new = tn;
        printf("rep %d: baseline (serial, 2f70ae9) %.3f s, groth16_qap_at_tau %.3f s\n", r, tb, tn);
    }
    printf("best: baseline %.3f s, new %.3f s, speedup %.2fx (outputs equal)\n", best_base, best_new,
           best_base / best_new);
    free(u);
    free(v);
    free(w);
    free(u0);
    free(v0);
    free(w0);
    r1cs_free(&cs);
    return 0;
}
