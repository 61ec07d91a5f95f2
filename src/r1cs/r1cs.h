/*
 * r1cs.h — a rank-1 constraint system over BLS12-381 Fr as three CSR matrices A, B, C, the circom
 * .r1cs (version 1) reader, the sparse matrix-vector products a = A·w, b = B·w, c = C·w, and a
 * satisfiability check.
 *
 * Shapes: row = constraint (0..n_rows-1), column = wire (0..n_cols-1). Wire order is circom's:
 * 0 = the constant 1, then public outputs, public inputs, private inputs, internal wires.
 * A witness w is an array of n_wires fr_t in Montgomery form (field/fr.h), as wtns_read returns.
 * Constraint k holds when <A_k,w> * <B_k,w> = <C_k,w>.
 *
 * Memory layout of r1cs_matrix_t (compressed sparse rows, structure of arrays):
 *   row_ptr : (n_rows + 1) u64; row k's terms are indices [row_ptr[k], row_ptr[k+1]) of the two
 *             arrays below; row_ptr[0] = 0, row_ptr[n_rows] = nnz. u64 because nnz can pass 2^32
 *             on Filecoin-size circuits.
 *   col     : nnz u32, the wire index of each term (< n_cols).
 *   coef    : nnz fr_t (4 LE u64 limbs each, 32 bytes, Montgomery form, < r), 32-byte aligned.
 * Terms keep their file order inside a row (circom order). Why SoA rather than rows of
 * {col, coef} structs: the SpMV streams both arrays linearly (36 bytes/term instead of 40 with the
 * struct's padding) while the witness gather w[col] is the random access; coef stays aligned for
 * vector loads. Rows of zero terms are legal (row_ptr[k] == row_ptr[k+1]) and evaluate to 0.
 *
 * Threads: the SpMV functions split rows over OpenMP threads (dynamic chunks; each output row is
 * written by one thread, no atomics). They use the OpenMP default team (OMP_NUM_THREADS).
 *
 * Sources: circom .r1cs format (iden3/r1csfile r1csfile.js readR1csHeader/readConstraints;
 * ../shared/fixtures/FORMATS.md "## .r1cs"). Coefficients in the file are plain LE integers < r;
 * they are converted to Montgomery form on load.
 */
#ifndef PROOFMILL_R1CS_R1CS_H
#define PROOFMILL_R1CS_R1CS_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A sparse n_rows x n_cols matrix over Fr in CSR form (layout in the file comment).
 * Coefficients are stored in one of two ways:
 *  - full: coef[t] for every term t (coef_idx == NULL) — what the circom reader builds;
 *  - dictionary-coded: coef == NULL, coef_idx[t] indexes a table of the distinct coefficients
 *    (coef_tab, n_coef_tab entries, Montgomery, shared by A, B and C and owned by the r1cs_t).
 *    Recorded Filecoin circuits use a few thousand distinct values (±1, powers of two, Poseidon
 *    constants) over 722 M terms, so a term costs 8 bytes instead of 36 (csr_file.h).
 * Read a coefficient with r1cs_coef(). */
typedef struct {
    uint32_t n_rows;
    uint32_t n_cols;
    uint64_t nnz;
    uint64_t *row_ptr;      /* n_rows + 1 */
    uint32_t *col;          /* nnz */
    fr_t *coef;             /* nnz, Montgomery form, 32-byte aligned; NULL when dictionary-coded */
    uint32_t *coef_idx;     /* nnz indices < n_coef_tab, or NULL (full coefficients) */
    const fr_t *coef_tab;   /* n_coef_tab distinct coefficients (Montgomery); not owned here */
    uint32_t n_coef_tab;
} r1cs_matrix_t;

/* Coefficient of term t (< m->nnz) of m, in either storage. */
static inline const fr_t *r1cs_coef(const r1cs_matrix_t *m, uint64_t t) {
    return m->coef_idx ? &m->coef_tab[m->coef_idx[t]] : &m->coef[t];
}

/* A constraint system read from a circom .r1cs file. */
typedef struct {
    uint32_t n_wires;       /* header nWires (= witness length = zkey nVars) */
    uint32_t n_pub_out;     /* header nPubOut */
    uint32_t n_pub_in;      /* header nPubIn */
    uint32_t n_prv_in;      /* header nPrvIn */
    uint64_t n_labels;      /* header nLabels */
    uint32_t n_constraints; /* header nConstraints = rows of A, B, C */
    r1cs_matrix_t A, B, C;  /* n_constraints x n_wires each */
    fr_t *coef_tab_owned;   /* the dictionary of dictionary-coded A, B, C when this r1cs_t owns
                             * it (freed by r1cs_free); NULL otherwise */
} r1cs_t;

/* Number of public signals, nPubOut + nPubIn (= zkey nPublic; wire 0 not counted). */
uint32_t r1cs_n_public(const r1cs_t *cs);

/* Read a circom .r1cs file (mapped, parsed into *cs; the file is closed before returning).
 * Checks: container magic "r1cs", version 1, sections 1 (header) and 2 (constraints) present and
 * unique (3, 4, 5 are ignored); header exactly 64 bytes with n8 = 32; prime = BLS12-381 r
 * (BN254's r is PM_ERR_CURVE "bn128 is not supported yet"; other primes PM_ERR_CURVE);
 * nPubOut + nPubIn < nWires (nPrvIn is not checked: circom --O2 counts the private inputs its
 * simplification removed from the wires, so nPrvIn may exceed nWires - 1 - nPublic); every term's
 * wireId < nWires (PM_ERR_FORMAT naming the constraint, matrix and offset); every coefficient < r
 * (PM_ERR_ENCODING); section 2 consumed exactly. Errors: PM_ERR_IO, PM_ERR_FORMAT, PM_ERR_ENCODING,
 * PM_ERR_CURVE, PM_ERR_NOMEM.
 * On error *cs is zeroed (r1cs_free is still safe). */
pm_status r1cs_read(r1cs_t *cs, const char *path, pm_error *err);
/* The same from a memory image of the file (size bytes; name labels errors). */
pm_status r1cs_read_memory(r1cs_t *cs, const void *data, size_t size, const char *name,
                           pm_error *err);
/* Free the matrices (and an owned coefficient dictionary) and zero *cs. Accepts a zeroed struct. */
void r1cs_free(r1cs_t *cs);

/* Allocate m as n_rows x n_cols with room for nnz full-coefficient terms: row_ptr zeroed
 * (n_rows + 1 entries), col and coef uninitialised (coef 32-byte aligned), coef_idx NULL; for the
 * readers that fill a matrix (r1cs_read, zkey_read's section 4). name labels a PM_ERR_NOMEM.
 * On error m is zeroed. Free with r1cs_matrix_free. */
pm_status r1cs_matrix_alloc(r1cs_matrix_t *m, uint32_t n_rows, uint32_t n_cols, uint64_t nnz,
                            const char *name, pm_error *err);
/* Free one matrix's arrays (row_ptr, col, coef, coef_idx; not coef_tab) and zero it. */
void r1cs_matrix_free(r1cs_matrix_t *m);
/* out[k] = sum_t coef_t * w[m->col[t]] over row k's terms (coef_t = r1cs_coef(m, t)), k < n_out.
 * out: n_out = m->n_rows elements (Montgomery); w: n_w >= m->n_cols elements (Montgomery).
 * Row-parallel (OpenMP), no allocation. Errors: PM_ERR_ARG when n_out != m->n_rows or
 * n_w < m->n_cols (nothing written). Time depends on the (public) sparsity pattern and on
 * which coefficients are 1 or -1 (add/sub instead of a multiplication), not on the witness. */
pm_status r1cs_matrix_mul(fr_t *out, size_t n_out, const r1cs_matrix_t *m, const fr_t *w,
                          size_t n_w, pm_error *err);

/* a = A·w, b = B·w, c = C·w. a, b, c: n_out = cs->n_constraints elements each (any may be NULL to
 * skip that product); w: n_w = cs->n_wires elements. All Montgomery. Errors: PM_ERR_MISMATCH
 * when n_w != n_wires ("witness has X values, r1cs has Y wires"), PM_ERR_ARG when n_out differs. */
pm_status r1cs_spmv(fr_t *a, fr_t *b, fr_t *c, size_t n_out, const r1cs_t *cs, const fr_t *w,
                    size_t n_w, pm_error *err);

/* The lowest row k < n with a[k]*b[k] != c[k] (a, b, c as r1cs_spmv gives them: Montgomery), or n
 * when every row holds. Row-parallel (OpenMP min reduction: the same index whatever the thread
 * count); allocates nothing. */
size_t r1cs_first_unsatisfied_row(const fr_t *a, const fr_t *b, const fr_t *c, size_t n);

/* Check every constraint <A_k,w>*<B_k,w> = <C_k,w> and w[0] = 1. w: n_w = n_wires Montgomery
 * elements. Returns PM_OK when satisfied; PM_ERR_UNSATISFIED naming the first (lowest index)
 * failing constraint ("constraint 17 of 10815 not satisfied"; w[0] != 1 is reported as
 * "wire 0 is not 1"), with *first_bad (if non-NULL) set to its index (UINT32_MAX for the wire-0
 * case or when satisfied); PM_ERR_MISMATCH when n_w != n_wires. Parallel by row (OpenMP min
 * reduction, so the reported index is the lowest failing one whatever the thread count);
 * allocates nothing. */
pm_status r1cs_check_satisfied(uint32_t *first_bad, const r1cs_t *cs, const fr_t *w, size_t n_w,
                               pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
