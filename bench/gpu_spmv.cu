/*
 * gpu_spmv.cu — benchmark of R1CS on the device (src/gpu/spmv.cu): a synthetic circuit shaped like a
 * recorded PoRep partition (per row ~2.0 A, ~1.5 B, ~2.0 C terms, i.e. 5.5 per row as 722 M terms over
 * 130 M rows at 32 GiB; 31 % of the terms with a coefficient other than +-1, a dictionary of 2,466
 * values; columns mostly near the row (gadgets use nearby wires), 10 % anywhere), a random witness of
 * one wire per row.
 * Usage: bench_gpu_spmv [log2 rows, default 24]; PROOFMILL_BENCH_REPS (default 7).
 * Prints: matrix upload (once per key), pinned witness upload (per partition, the PCIe leg), the SpMV
 * of a, b, c with the constraint check, and a alone, median (min) of CUDA events; the bytes each
 * moves (terms 8 B, row pointers 4 B per row and matrix, the 32 B witness gather per term, 32 B per
 * output) as GB/s against the ~4.3 TB/s copy rate; and the same scaled to the 32 GiB partition's
 * 722 M terms.
 */
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "gpu/gpu.h"

static double now_ms() { return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
static double median(std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
static double vmin(const std::vector<double> &v) { return *std::min_element(v.begin(), v.end()); }
static uint64_t rs = 0x9e3779b97f4a7c15ULL;
static inline uint64_t rnd() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }

int main(int argc, char **argv) {
    const int lr = argc > 1 ? atoi(argv[1]) : 24;
    int reps = getenv("PROOFMILL_BENCH_REPS") ? atoi(getenv("PROOFMILL_BENCH_REPS")) : 7;
    if (reps < 1) reps = 1;
    if (lr < 10 || lr > 27) { fprintf(stderr, "log2 rows in 10..27\n"); return 2; }
    if (gpu_available() == 0) { printf("SKIPPED: no CUDA device\n"); return 77; }
    const uint32_t rows = (1u << lr) - 16, nw = 1u << lr;
    const uint32_t ntab = 2466;
    std::vector<fr_t> tab(ntab);
    for (uint32_t i = 0; i < ntab; i++) {
        fr_t p = {{rnd(), rnd(), rnd(), rnd() & 0x0fffffffffffffffULL}};
        fr_to_mont(&tab[i], &p);
    }
    tab[0] = FR_ONE;
    fr_neg(&tab[1], &FR_ONE);
    r1cs_t cs;
    memset(&cs, 0, sizeof cs);
    cs.n_wires = nw;
    cs.n_constraints = rows;
    r1cs_matrix_t *M[3] = {&cs.A, &cs.B, &cs.C};
    const double mean[3] = {2.0, 1.5, 2.0};
    double t0 = now_ms();
    for (int m = 0; m < 3; m++) {
        r1cs_matrix_t *x = M[m];
        x->n_rows = rows;
        x->n_cols = nw;
        x->row_ptr = (uint64_t *)malloc(((size_t)rows + 1) * 8);
        size_t cap = (size_t)(rows * (mean[m] + 0.5)) + 64;
        x->col = (uint32_t *)malloc(cap * 4);
        x->coef_idx = (uint32_t *)malloc(cap * 4);
        x->row_ptr[0] = 0;
        uint64_t o = 0;
        for (uint32_t r = 0; r < rows; r++) {
            /* lengths 1..3 around the mean (m = 1: 1 or 2) */
            uint32_t len = m == 1 ? 1 + (uint32_t)(rnd() & 1) : 1 + (uint32_t)(rnd() % 3);
            if (o + len > cap) { cap *= 2; x->col = (uint32_t *)realloc(x->col, cap * 4); x->coef_idx = (uint32_t *)realloc(x->coef_idx, cap * 4); }
            for (uint32_t t = 0; t < len; t++) {
                uint64_t u = rnd();
                x->col[o] = (u % 10 == 0) ? (uint32_t)((u >> 8) % nw) : (uint32_t)((r + ((u >> 8) % 64)) % nw);
                x->coef_idx[o] = ((u >> 40) % 100) < 31 ? 2 + (uint32_t)((u >> 16) % (ntab - 2)) : (uint32_t)((u >> 32) & 1);
                o++;
            }
            x->row_ptr[r + 1] = o;
        }
        x->nnz = o;
        x->coef_tab = tab.data();
        x->n_coef_tab = ntab;
    }
    const double terms = (double)(cs.A.nnz + cs.B.nnz + cs.C.nnz);
    printf("synthetic circuit: %u rows, %u wires, %.0f M terms (generated in %.1f s)\n", rows, nw, terms / 1e6, (now_ms() - t0) / 1e3);
    pm_error e;
    gpu_r1cs *g = nullptr;
    gpu_witness *ws = nullptr;
    t0 = now_ms();
    if (gpu_r1cs_upload(&g, &cs, &e) != PM_OK) { char b[1200]; printf("upload: %s\n", pm_error_format(&e, b, sizeof b)); return 1; }
    const double t_up = now_ms() - t0;
    if (gpu_witness_init(&ws, nw, &e) != PM_OK) { printf("witness slots failed\n"); return 1; }
    fr_t *w = nullptr;
    if (gpu_host_alloc((void **)&w, (size_t)nw * sizeof(fr_t), &e) != PM_OK) { printf("pinned alloc failed\n"); return 1; }
    for (uint32_t i = 0; i < nw; i++) {
        fr_t p = {{rnd(), rnd(), rnd(), rnd() & 0x0fffffffffffffffULL}};
        fr_to_mont(&w[i], &p);
    }
    w[0] = FR_ONE;
    unsigned L = 1;
    while (((size_t)1 << L) < (size_t)rows + 1) L++;
    const size_t n_out = (size_t)1 << L;
    void *dv[3];
    for (int m = 0; m < 3; m++)
        if (gpu_dev_alloc(&dv[m], n_out * sizeof(fr_t), &e) != PM_OK) { printf("device alloc failed\n"); return 1; }
    std::vector<double> tw, tall, ta;
    for (int i = 0; i <= reps; i++) {
        gpu_witness_upload_async(ws, (unsigned)(i & 1), w, nw, &e);
        gpu_witness_wait(ws, (unsigned)(i & 1), &e);
        if (i) tw.push_back(gpu_witness_last_upload_ms(ws));
        uint32_t bad;
        pm_status st = gpu_r1cs_spmv(dv[0], dv[1], dv[2], n_out, 1, g, ws, (unsigned)(i & 1), nw, &bad, &e);
        if (st != PM_OK && st != PM_ERR_UNSATISFIED) { char b[1200]; printf("spmv: %s\n", pm_error_format(&e, b, sizeof b)); return 1; }
        if (i) tall.push_back(gpu_witness_last_spmv_ms(ws));
        if (gpu_r1cs_spmv(dv[0], nullptr, nullptr, n_out, 1, g, ws, (unsigned)(i & 1), nw, nullptr, &e) != PM_OK) return 1;
        if (i) ta.push_back(gpu_witness_last_spmv_ms(ws));
    }
    const double wbytes = (double)nw * 32;
    const double bytes_all = terms * 8 + 3.0 * rows * 4 + terms * 32 + 3.0 * rows * 32;
    const double bytes_a = (double)cs.A.nnz * 40 + rows * 36.0;
    const double scale = 722e6 / terms;
    printf("matrices upload (once per key): %.1f ms for %.2f GB\n", t_up, gpu_r1cs_device_bytes(&cs) / 1e9);
    printf("witness upload (pinned, per partition): %.3f (%.3f) ms for %.2f GB = %.1f GB/s\n", median(tw), vmin(tw), wbytes / 1e9,
           wbytes / vmin(tw) / 1e6);
    printf("SpMV a, b, c + check: %.3f (%.3f) ms, %.2f GB counted = %.2f TB/s\n", median(tall), vmin(tall), bytes_all / 1e9,
           bytes_all / vmin(tall) / 1e9);
    printf("SpMV a only:          %.3f (%.3f) ms, %.2f GB counted = %.2f TB/s\n", median(ta), vmin(ta), bytes_a / 1e9, bytes_a / vmin(ta) / 1e9);
    printf("scaled to 32 GiB (722 M terms, 4.2 GB witness): SpMV + check %.1f ms, witness upload %.1f ms\n", median(tall) * scale,
           median(tw) * 4.17e9 / wbytes);
    for (int m = 0; m < 3; m++) gpu_dev_free(dv[m]);
    gpu_host_free(w);
    gpu_witness_free(ws);
    gpu_r1cs_free(g);
    for (int m = 0; m < 3; m++) { M[m]->coef_tab = nullptr; r1cs_matrix_free(M[m]); }
    return 0;
}
