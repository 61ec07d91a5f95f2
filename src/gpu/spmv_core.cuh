/*
 * spmv_core.cuh — the R1CS SpMV of src/gpu/spmv.cu written once as __host__ __device__ code (internal
 * to src/gpu), so that tests/gpu/test_gpu_ntt_host.cu runs exactly what the kernels run, without a GPU:
 *
 *   spmv_plan_make   what the upload decides from the host matrices: row pointers as u32 or u64, which
 *                    matrix's device copy of a shared coefficient dictionary each matrix reads, the
 *                    dictionary indices of 1 and -1, the list of long rows (> LONG_ROW terms in any
 *                    matrix: a warp each);
 *   for_chunks       the chunking of the row-pointer narrowing (u64 -> u32, NARROW_CHUNK at a time);
 *   spmv_thread_row  one thread's row (skips long rows), spmv_lane_partial one lane's share of a long
 *                    row (the warp sums the 32 partials), spmv_finish_row the stores and the check
 *                    a_k * b_k = c_k with the lowest failing row kept (atomicMin on the device, a plain
 *                    min on the host), spmv_pad_row the rows [rows, n_out).
 *
 * Row k: out_k = sum_t coef_t * w[col_t]; coefficients 1 and -1 (by dictionary index, or by value for
 * full-coefficient matrices) are an add / a sub, the others one Montgomery multiplication (as r1cs.c).
 * Indices: rows < 2^32, terms of one matrix < 2^32 with u32 row pointers (else u64), columns u32; every
 * product that reaches memory is indexed in 64 bits.
 */
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>
#include "ntt_core.cuh"
#include "r1cs/r1cs.h"

namespace pmgpu {
namespace ntc {

constexpr uint32_t LONG_ROW = 32;                   /* more terms than this in any matrix: a warp */
constexpr size_t NARROW_CHUNK = (size_t)1 << 23;    /* row pointers narrowed 8 M at a time */

/* ---- one CSR matrix as the kernels read it ---- */
template <class RP> struct csr_d {
    const RP *row_ptr;        /* n_rows + 1 */
    const uint32_t *col;      /* nnz */
    const uint32_t *coef_idx; /* nnz indices into tab, or NULL */
    const fr_d *coef;         /* nnz coefficients when coef_idx is NULL */
    const fr_d *tab;          /* dictionary (this matrix's or the shared owner's copy) */
    uint32_t one_i, neg_i;    /* dictionary indices of 1 and -1 (UINT32_MAX: absent) */
    fr_d one, neg;            /* 1 and -1 (Montgomery) for full coefficients */
};
template <class RP> PM_HD fr_d csr_term(const csr_d<RP> &m, uint64_t t, const fr_d &x, const fr_d &acc) {
    if (m.coef_idx) {
        const uint32_t ci = ld_ro_u(m.coef_idx + t);
        if (ci == m.one_i) return f_add(acc, x);
        if (ci == m.neg_i) return f_sub(acc, x);
        return f_add(acc, f_mul(ld_ro(m.tab + ci), x));
    }
    const fr_d c = ld_ro(m.coef + t);
    if (f_eq(c, m.one)) return f_add(acc, x);
    if (f_eq(c, m.neg)) return f_sub(acc, x);
    return f_add(acc, f_mul(c, x));
}
/* terms [beg, end) with stride step (a warp's lanes take every 32nd term of a long row) */
template <class RP> PM_HD fr_d csr_dot(const csr_d<RP> &m, uint64_t beg, uint64_t end, uint32_t step, const fr_d *w) {
    fr_d acc = f_zero();
    for (uint64_t t = beg; t < end; t += step) acc = csr_term(m, t, ld_ro(w + ld_ro_u(m.col + t)), acc);
    return acc;
}

/* ---- the three matrices, the outputs and the check (one kernel argument block) ---- */
template <class RP> struct spmv_args {
    csr_d<RP> m[3];
    fr_d *out[3];       /* a, b, c (NULL: not written) */
    const fr_d *w;      /* the witness (Montgomery) */
    uint32_t rows;
    uint32_t mask;      /* products computed: bit i for matrix i (A, B, C) */
    int check;          /* 1: every row checked a*b = c (all three products computed) */
    uint32_t *first_bad; /* the lowest failing row (UINT32_MAX when none) */
    const uint32_t *long_rows;
    uint32_t n_long;
};

/* the lowest failing row: atomicMin on the device, a plain min on the (sequential) host */
PM_HD void bad_min(uint32_t *p, uint32_t row) {
#ifdef __CUDA_ARCH__
    atomicMin(p, row);
#else
    if (row < *p) *p = row;
#endif
}

template <class RP> PM_HD bool spmv_row_is_long(const spmv_args<RP> &a, uint32_t row) {
    bool lng = false;
    PM_UNROLL
    for (int i = 0; i < 3; i++) lng |= (uint64_t)(a.m[i].row_ptr[row + 1] - a.m[i].row_ptr[row]) > LONG_ROW;
    return lng;
}

template <class RP> PM_HD void spmv_finish_row(const spmv_args<RP> &a, uint32_t row, const fr_d *v) {
    PM_UNROLL
    for (int i = 0; i < 3; i++)
        if (a.out[i]) st(a.out[i] + row, v[i]);
    if (a.check && !f_eq(f_mul(v[0], v[1]), v[2])) bad_min(a.first_bad, row);
}

/* one thread's row (long rows are left to the warps); row < a.rows */
template <class RP> PM_HD void spmv_thread_row(const spmv_args<RP> &a, uint32_t row) {
    if (spmv_row_is_long(a, row)) return;
    fr_d v[3];
    PM_UNROLL
    for (int i = 0; i < 3; i++)
        v[i] = ((a.mask >> i) & 1) ? csr_dot(a.m[i], a.m[i].row_ptr[row], a.m[i].row_ptr[row + 1], 1, a.w) : f_zero();
    spmv_finish_row(a, row, v);
}

/* lane `lane` (< 32) of the warp of long row `row`: its partial sum of matrix i */
template <class RP> PM_HD fr_d spmv_lane_partial(const spmv_args<RP> &a, uint32_t row, uint32_t lane, int i) {
    return ((a.mask >> i) & 1) ? csr_dot(a.m[i], (uint64_t)a.m[i].row_ptr[row] + lane, a.m[i].row_ptr[row + 1], 32, a.w)
                               : f_zero();
}

/* row r in [rows, n_out): zero, except a[rows + i] = w[i] for i < a_inputs */
PM_HD void spmv_pad_row(fr_d *a, fr_d *b, fr_d *c, uint32_t rows, size_t r, uint32_t a_inputs, const fr_d *w) {
    const fr_d z = f_zero();
    if (a) st(a + r, r - rows < a_inputs ? ld(w + (r - rows)) : z);
    if (b) st(b + r, z);
    if (c) st(c + r, z);
}

/* ---- the upload's decisions (host) ---- */
struct spmv_plan {
    bool rp32 = true;        /* every matrix has < 2^32 terms: row pointers narrowed to u32 */
    int tab_owner[3] = {-1, -1, -1}; /* -1: the matrix uploads its own dictionary; else the index of the
                                        matrix whose copy it reads (always one that owns its copy) */
    uint32_t one_i[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX}, neg_i[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    std::vector<uint32_t> long_rows; /* increasing */
};

inline const r1cs_matrix_t *spmv_mat(const r1cs_t *cs, int i) { return i == 0 ? &cs->A : i == 1 ? &cs->B : &cs->C; }

/* force_rp64: keep u64 row pointers even when u32 would do (tests of the u64 path) */
inline void spmv_plan_make(spmv_plan &p, const r1cs_t *cs, bool force_rp64) {
    p = spmv_plan();
    for (int i = 0; i < 3; i++) p.rp32 = p.rp32 && spmv_mat(cs, i)->nnz <= UINT32_MAX;
    if (force_rp64) p.rp32 = false;
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    for (int i = 0; i < 3; i++) {
        const r1cs_matrix_t *m = spmv_mat(cs, i);
        if (!m->coef_idx) continue;
        /* the first earlier matrix with the same dictionary; it owns a device copy itself (or points
         * at the one that does: follow it), so no matrix reads a copy that was never uploaded */
        for (int j = 0; j < i && p.tab_owner[i] < 0; j++) {
            const r1cs_matrix_t *o = spmv_mat(cs, j);
            if (o->coef_idx && o->coef_tab == m->coef_tab && o->n_coef_tab == m->n_coef_tab)
                p.tab_owner[i] = p.tab_owner[j] < 0 ? j : p.tab_owner[j];
        }
        for (uint32_t t = 0; t < m->n_coef_tab; t++) {
            if (p.one_i[i] == UINT32_MAX && fr_is_one(&m->coef_tab[t])) p.one_i[i] = t;
            if (p.neg_i[i] == UINT32_MAX && fr_eq(&m->coef_tab[t], &m1)) p.neg_i[i] = t;
        }
    }
    for (uint32_t r = 0; r < cs->n_constraints; r++) {
        bool lng = false;
        for (int i = 0; i < 3; i++) lng |= spmv_mat(cs, i)->row_ptr[r + 1] - spmv_mat(cs, i)->row_ptr[r] > LONG_ROW;
        if (lng) p.long_rows.push_back(r);
    }
}

/* f(offset, count) for consecutive chunks of at most `chunk` covering [0, n) */
template <class F> void for_chunks(size_t n, size_t chunk, F f) {
    for (size_t o = 0; o < n; o += chunk) f(o, n - o < chunk ? n - o : chunk);
}

} /* namespace ntc */
} /* namespace pmgpu */
