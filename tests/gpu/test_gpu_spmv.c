/*
 * test_gpu_spmv.c — R1CS on the device (gpu_r1cs_upload, gpu_witness_*, gpu_r1cs_spmv,
 * gpu_bellperson_h_r1cs) against the CPU (r1cs_spmv, r1cs_check_satisfied, ntt_bellperson_h).
 *
 * Circuits are generated here and satisfied by construction: wires 0..I-1 are inputs (wire 0 = 1),
 * row k's A and B terms use earlier wires only (random coefficients from a dictionary holding 1, -1
 * and random values; 10 % empty rows, 3 % rows of 33..232 terms: the warp path), and row k's C is
 * lead * (wire I + k) + 0..2 terms on earlier wires (3 % of rows: 33..96 more, a long C row), with
 * general dictionary coefficients (the shape that made bench_gpu_spmv fail: A, B and C sharing one
 * dictionary, C reading it) and wire I + k solved so that a_k * b_k = c_k. Both codings (dictionary
 * indices as a .csr v2, full coefficients as a circom .r1cs); u32 row pointers and, with
 * PROOFMILL_GPU_R1CS_RP64=1, the u64 path.
 * Checked, each a FAIL on any difference:
 *  - a, b, c bytes equal r1cs_spmv's on the rows; rows [rows, n_out) zero except a[rows + i] = w[i]
 *    for the input rows; any NULL output skipped;
 *  - the check: satisfied -> first_bad = UINT32_MAX; one corrupted output wire -> exactly that row
 *    (as r1cs_check_satisfied names it) and PM_ERR_UNSATISFIED; two -> the lower;
 *  - double buffering: slot 1 uploaded (async, pinned) while slot 0's SpMV runs, both results right;
 *  - gpu_bellperson_h_r1cs (two buffers) = r1cs_spmv + padding + ntt_bellperson_h, and a witness that
 *    does not satisfy is refused with the row;
 *  - argument errors (wrong witness length, too few output rows, slot 2).
 * Usage: test_gpu_spmv [log2 rows of the big case, 13..27, default 20]. Exit 77 without a GPU.
 */
#include "gpu_test_util.h"
#include "ntt/ntt.h"
#include "r1cs/r1cs.h"
#include "util/settings.h"

typedef struct {
    r1cs_t cs;
    fr_t *tab, *tab_inv;
    uint32_t ntab, inputs;
    fr_t *w; /* n_wires, satisfying */
} circuit;

static void rand_fr_m(fr_t *a) { gt_rand_fr_mont(a); }

static void gen_matrix_row(uint32_t *col, uint32_t *idx, uint32_t len, uint32_t limit, uint32_t ntab) {
    for (uint32_t t = 0; t < len; t++) {
        col[t] = (uint32_t)(gt_rand64() % limit);
        idx[t] = (uint32_t)(gt_rand64() % ntab);
    }
}

/* coefficient value of a dictionary index */
static void make_circuit(circuit *c, uint32_t rows, uint32_t inputs, int dict) {
    memset(c, 0, sizeof *c);
    const uint32_t nw = inputs + rows;
    c->inputs = inputs;
    c->ntab = 64;
    c->tab = malloc(c->ntab * sizeof(fr_t));
    c->tab_inv = malloc(c->ntab * sizeof(fr_t));
    for (uint32_t i = 0; i < c->ntab; i++) rand_fr_m(&c->tab[i]);
    c->tab[5] = FR_ONE;
    fr_neg(&c->tab[9], &FR_ONE);
    for (uint32_t i = 0; i < c->ntab; i++) fr_inv_vartime(&c->tab_inv[i], &c->tab[i]);
    c->w = malloc(nw * sizeof(fr_t));
    c->w[0] = FR_ONE;
    for (uint32_t i = 1; i < inputs; i++) rand_fr_m(&c->w[i]);
    r1cs_t *cs = &c->cs;
    cs->n_wires = nw;
    cs->n_pub_out = 0;
    cs->n_pub_in = inputs - 1;
    cs->n_constraints = rows;
    r1cs_matrix_t *M[3] = {&cs->A, &cs->B, &cs->C};
    uint64_t cap[3] = {0, 0, 0};
    uint32_t *idx[3] = {NULL, NULL, NULL};
    for (int m = 0; m < 3; m++) {
        M[m]->n_rows = rows;
        M[m]->n_cols = nw;
        M[m]->row_ptr = malloc(((size_t)rows + 1) * sizeof(uint64_t));
        M[m]->row_ptr[0] = 0;
        cap[m] = (uint64_t)rows * 4 + 1024;
        M[m]->col = malloc(cap[m] * 4);
        idx[m] = malloc(cap[m] * 4);
    }
    for (uint32_t k = 0; k < rows; k++) {
        const uint32_t limit = inputs + k; /* earlier wires only */
        fr_t v[2];
        for (int m = 0; m < 2; m++) {
            uint32_t u = (uint32_t)(gt_rand64() % 100);
            uint32_t len = u < 10 ? 0 : u < 97 ? 1 + (uint32_t)(gt_rand64() % 4) : 33 + (uint32_t)(gt_rand64() % 200);
            uint64_t o = M[m]->row_ptr[k];
            if (o + len > cap[m]) {
                cap[m] = 2 * (o + len);
                M[m]->col = realloc(M[m]->col, cap[m] * 4);
                idx[m] = realloc(idx[m], cap[m] * 4);
            }
            gen_matrix_row(M[m]->col + o, idx[m] + o, len, limit, c->ntab);
            M[m]->row_ptr[k + 1] = o + len;
            fr_t acc = FR_ZERO, t;
            for (uint32_t j = 0; j < len; j++) {
                fr_mul(&t, &c->tab[idx[m][o + j]], &c->w[M[m]->col[o + j]]);
                fr_add(&acc, &acc, &t);
            }
            v[m] = acc;
        }
        /* C: lead * wire(inputs + k) + 0..2 terms on earlier wires (3 % of rows: a long C row), with
         * general dictionary coefficients; the wire solves a_k b_k = c_k */
        uint32_t extra = (uint32_t)(gt_rand64() % 100) < 3 ? 33 + (uint32_t)(gt_rand64() % 64) : (uint32_t)(gt_rand64() % 3);
        uint64_t o = M[2]->row_ptr[k];
        if (o + 1 + extra > cap[2]) {
            cap[2] = 2 * (o + 1 + extra);
            M[2]->col = realloc(M[2]->col, cap[2] * 4);
            idx[2] = realloc(idx[2], cap[2] * 4);
        }
        const uint32_t lead = (uint32_t)(gt_rand64() % c->ntab);
        M[2]->col[o] = inputs + k;
        idx[2][o] = lead;
        fr_t rest = FR_ZERO, t;
        gen_matrix_row(M[2]->col + o + 1, idx[2] + o + 1, extra, limit, c->ntab);
        for (uint32_t j = 0; j < extra; j++) {
            fr_mul(&t, &c->tab[idx[2][o + 1 + j]], &c->w[M[2]->col[o + 1 + j]]);
            fr_add(&rest, &rest, &t);
        }
        fr_mul(&t, &v[0], &v[1]);
        fr_sub(&t, &t, &rest);
        fr_mul(&c->w[inputs + k], &t, &c->tab_inv[lead]);
        M[2]->row_ptr[k + 1] = o + 1 + extra;
    }
    for (int m = 0; m < 3; m++) {
        M[m]->nnz = M[m]->row_ptr[rows];
        if (dict) {
            M[m]->coef_idx = idx[m];
            M[m]->coef_tab = c->tab;
            M[m]->n_coef_tab = c->ntab;
        } else {
            M[m]->coef = aligned_alloc(32, (M[m]->nnz + 1) * sizeof(fr_t));
            for (uint64_t t = 0; t < M[m]->nnz; t++) M[m]->coef[t] = c->tab[idx[m][t]];
            free(idx[m]);
        }
    }
}

static void free_circuit(circuit *c) {
    c->cs.A.coef_tab = c->cs.B.coef_tab = c->cs.C.coef_tab = NULL;
    r1cs_matrix_free(&c->cs.A);
    r1cs_matrix_free(&c->cs.B);
    r1cs_matrix_free(&c->cs.C);
    free(c->tab);
    free(c->tab_inv);
    free(c->w);
}

static size_t first_diff(const fr_t *a, const fr_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!fr_eq(&a[i], &b[i])) return i;
    return (size_t)-1;
}

/* CPU a, b, c on n_out rows with bellman's input rows in a */
static void cpu_abc(fr_t *abc[3], size_t n_out, const circuit *c, const fr_t *w) {
    pm_error e;
    const uint32_t rows = c->cs.n_constraints;
    for (int m = 0; m < 3; m++) memset(abc[m], 0, n_out * sizeof(fr_t));
    GT_OK(r1cs_spmv(abc[0], abc[1], abc[2], rows, &c->cs, w, c->cs.n_wires, &e), e);
    for (uint32_t i = 0; i < c->inputs; i++) abc[0][rows + i] = w[i];
}

static void test_circuit(uint32_t rows, uint32_t inputs, int dict, int with_h) {
    circuit c;
    make_circuit(&c, rows, inputs, dict);
    const uint32_t nw = c.cs.n_wires;
    pm_error e;
    uint32_t fb = 0;
    GT_CHECK(r1cs_check_satisfied(&fb, &c.cs, c.w, nw, &e) == PM_OK, "generated circuit not satisfied (CPU)");
    gpu_r1cs *g = NULL;
    gpu_witness *ws = NULL;
    double t0 = gt_now();
    GT_OK(gpu_r1cs_upload(&g, &c.cs, &e), e);
    double t_up = gt_now() - t0;
    GT_OK(gpu_witness_init(&ws, nw, &e), e);
    if (!g || !ws) { gpu_r1cs_free(g); gpu_witness_free(ws); free_circuit(&c); return; }
    unsigned L = 1;
    while (((size_t)1 << L) < (size_t)rows + inputs) L++;
    const size_t n_out = (size_t)1 << L;
    fr_t *wp = NULL;
    GT_OK(gpu_host_alloc((void **)&wp, nw * sizeof(fr_t), &e), e);
    memcpy(wp, c.w, nw * sizeof(fr_t));
    fr_t *ref[3], *got = malloc(n_out * sizeof(fr_t));
    for (int m = 0; m < 3; m++) ref[m] = malloc(n_out * sizeof(fr_t));
    cpu_abc(ref, n_out, &c, c.w);
    void *dv[3];
    for (int m = 0; m < 3; m++) GT_OK(gpu_dev_alloc(&dv[m], n_out * sizeof(fr_t), &e), e);

    /* satisfied: all three outputs + the check */
    GT_OK(gpu_witness_upload_async(ws, 0, wp, nw, &e), e);
    uint32_t bad = 0;
    GT_OK(gpu_r1cs_spmv(dv[0], dv[1], dv[2], n_out, inputs, g, ws, 0, nw, &bad, &e), e);
    float ms = gpu_witness_last_spmv_ms(ws);
    GT_CHECK(bad == UINT32_MAX, "satisfied circuit: first_bad = %u", bad);
    int ok = 1;
    for (int m = 0; m < 3; m++) {
        GT_OK(gpu_copy_from_device(got, dv[m], n_out * sizeof(fr_t), &e), e);
        size_t d = first_diff(got, ref[m], n_out);
        if (d != (size_t)-1) { ok = 0; GT_CHECK(0, "%s rows %u: %c differs from r1cs_spmv (+ padding) at row %zu", dict ? "dict" : "full", rows, "abc"[m], d); }
    }
    /* b only, no check (a, c not written: poison them first) */
    GT_OK(gpu_copy_to_device(dv[0], ref[1], n_out * sizeof(fr_t), &e), e);
    GT_OK(gpu_r1cs_spmv(NULL, dv[1], NULL, n_out, 0, g, ws, 0, nw, NULL, &e), e);
    GT_OK(gpu_copy_from_device(got, dv[0], n_out * sizeof(fr_t), &e), e);
    GT_CHECK(first_diff(got, ref[1], n_out) == (size_t)-1, "a written although NULL was passed");
    GT_OK(gpu_copy_from_device(got, dv[1], n_out * sizeof(fr_t), &e), e);
    GT_CHECK(first_diff(got, ref[1], n_out) == (size_t)-1, "b alone differs");

    /* double buffering: a corrupted witness into slot 1 while slot 0's SpMV runs */
    const uint32_t k1 = rows / 3, k2 = rows / 2;
    fr_t *wq = NULL;
    GT_OK(gpu_host_alloc((void **)&wq, nw * sizeof(fr_t), &e), e);
    memcpy(wq, c.w, nw * sizeof(fr_t));
    fr_add(&wq[inputs + k2], &wq[inputs + k2], &FR_ONE); /* row k2's C (and maybe later A/B terms) */
    GT_OK(gpu_witness_upload_async(ws, 1, wq, nw, &e), e);
    GT_OK(gpu_r1cs_spmv(dv[0], NULL, NULL, n_out, inputs, g, ws, 0, nw, NULL, &e), e);
    GT_OK(gpu_copy_from_device(got, dv[0], n_out * sizeof(fr_t), &e), e);
    GT_CHECK(first_diff(got, ref[0], n_out) == (size_t)-1, "slot 0 result changed by the slot 1 upload");
    uint32_t want = UINT32_MAX;
    r1cs_check_satisfied(&want, &c.cs, wq, nw, &e);
    pm_status st = gpu_r1cs_spmv(dv[0], dv[1], dv[2], n_out, inputs, g, ws, 1, nw, &bad, &e);
    GT_CHECK(st == PM_ERR_UNSATISFIED && bad == want && want != UINT32_MAX, "one bad wire: status %s, first_bad %u, CPU says %u",
             pm_status_name(st), bad, want);
    fr_t *rq[3];
    for (int m = 0; m < 3; m++) rq[m] = malloc(n_out * sizeof(fr_t));
    cpu_abc(rq, n_out, &c, wq);
    for (int m = 0; m < 3; m++) {
        GT_OK(gpu_copy_from_device(got, dv[m], n_out * sizeof(fr_t), &e), e);
        GT_CHECK(first_diff(got, rq[m], n_out) == (size_t)-1, "unsatisfied witness: %c differs", "abc"[m]);
    }
    /* a second bad wire at a lower row: that one is reported */
    fr_add(&wq[inputs + k1], &wq[inputs + k1], &FR_ONE);
    r1cs_check_satisfied(&want, &c.cs, wq, nw, &e);
    GT_OK(gpu_witness_upload_async(ws, 1, wq, nw, &e), e);
    st = gpu_r1cs_spmv(NULL, NULL, NULL, n_out, 0, g, ws, 1, nw, &bad, &e);
    GT_CHECK(st == PM_ERR_UNSATISFIED && bad == want && want <= k1, "two bad wires: first_bad %u, CPU %u", bad, want);
    if (st == PM_ERR_UNSATISFIED) printf("  expected refusal: %s\n", e.msg);

    /* the two-buffer bellperson H from the witness */
    if (with_h) {
        gpu_ntt_domain *d = NULL;
        ntt_domain_t cd;
        GT_OK(gpu_ntt_domain_init(&d, L, 7, &e), e);
        if (d && ntt_domain_init(&cd, L, NTT_ROOTS_ARKWORKS, &e) == PM_OK) {
            fr_t *h = malloc(n_out * sizeof(fr_t));
            cpu_abc(rq, n_out, &c, c.w);
            GT_OK(ntt_bellperson_h(h, n_out, rq[0], rq[1], rq[2], &cd, &e), e);
            void *hd = NULL;
            uint32_t b2 = 0;
            GT_OK(gpu_bellperson_h_r1cs(&hd, d, inputs, g, ws, 0, nw, &b2, &e), e);
            GT_CHECK(hd != NULL && b2 == UINT32_MAX, "gpu_bellperson_h_r1cs: no result (first_bad %u)", b2);
            if (hd) {
                GT_OK(gpu_copy_from_device(got, hd, n_out * sizeof(fr_t), &e), e);
                size_t dd = first_diff(got, h, n_out);
                GT_CHECK(dd == (size_t)-1, "gpu_bellperson_h_r1cs != r1cs_spmv + ntt_bellperson_h at %zu", dd);
                printf("  bellperson H from the witness (two buffers, 2^%u): %s (%.3f ms)\n", L, dd == (size_t)-1 ? "ok" : "MISMATCH",
                       gpu_ntt_last_ms(d));
            }
            st = gpu_bellperson_h_r1cs(&hd, d, inputs, g, ws, 1, nw, &b2, &e);
            GT_CHECK(st == PM_ERR_UNSATISFIED && b2 == want && hd == NULL, "bad witness through the H: %s, row %u", pm_status_name(st), b2);
            free(h);
            ntt_domain_free(&cd);
        }
        gpu_ntt_domain_free(d);
    }
    /* argument errors */
    GT_CHECK(gpu_r1cs_spmv(dv[0], NULL, NULL, n_out, inputs, g, ws, 0, nw - 1, NULL, &e) == PM_ERR_MISMATCH, "short witness accepted");
    GT_CHECK(gpu_r1cs_spmv(dv[0], NULL, NULL, rows, inputs, g, ws, 0, nw, NULL, &e) == PM_ERR_ARG, "too few output rows accepted");
    GT_CHECK(gpu_witness_upload_async(ws, 2, wp, nw, &e) == PM_ERR_ARG, "slot 2 accepted");
    GT_CHECK(gpu_witness_upload_async(ws, 0, wp, nw + 1, &e) == PM_ERR_ARG, "long witness accepted");

    printf("SpMV %-4s %8u rows %10llu terms: %s  (device %.3f ms, upload of the matrices %.2f s, %zu device bytes)\n", dict ? "dict" : "full",
           rows, (unsigned long long)(c.cs.A.nnz + c.cs.B.nnz + c.cs.C.nnz), ok ? "ok" : "MISMATCH", ms, t_up, gpu_r1cs_device_bytes(&c.cs));
    for (int m = 0; m < 3; m++) { free(ref[m]); free(rq[m]); gpu_dev_free(dv[m]); }
    free(got);
    gpu_host_free(wp);
    gpu_host_free(wq);
    gpu_witness_free(ws);
    gpu_r1cs_free(g);
    free_circuit(&c);
}

int main(int argc, char **argv) {
    int big = argc > 1 ? atoi(argv[1]) : 20;
    if (!gt_begin()) return 77;
    test_circuit(1, 1, 1, 1);
    test_circuit(100, 3, 1, 1);
    test_circuit(5000, 7, 1, 1);
    test_circuit(5000, 7, 0, 1);
    /* the u64 row-pointer path (taken by matrices of >= 2^32 terms) on a small circuit */
    pm_error se;
    GT_OK(pm_setting_set("gpu.r1cs_rp64", "true", &se), se); /* PROOFMILL_GPU_R1CS_RP64=1 */
    test_circuit(70000, 5, 1, 1);
    GT_OK(pm_setting_set("gpu.r1cs_rp64", "false", &se), se);
    /* the big case: 2^big - 100 rows (up to 2^27, the 32 GiB partition's domain; the bellperson H
     * against the CPU up to 2^24), more than one row-pointer narrowing chunk from 2^23 rows on */
    if (big > 12 && big <= 27) test_circuit((1u << big) - 100, 5, 1, big <= 24);
    printf("%s: %d failure(s)\n", gt_failures ? "FAILED" : "PASSED", gt_failures);
    return gt_failures ? 1 : 0;
}
