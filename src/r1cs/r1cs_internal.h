/*
 * r1cs_internal.h — helpers shared by the core's readers (r1cs, zkey); not a public API.
 */
#ifndef PROOFMILL_R1CS_INTERNAL_H
#define PROOFMILL_R1CS_INTERNAL_H

#include "r1cs/r1cs.h"

/* Allocate m as n_rows x n_cols with room for nnz terms: row_ptr zeroed (n_rows + 1), col and
 * coef uninitialised (coef 32-byte aligned). name labels a PM_ERR_NOMEM. On error m is zeroed. */
pm_status r1cs_matrix_alloc(r1cs_matrix_t *m, uint32_t n_rows, uint32_t n_cols, uint64_t nnz,
                            const char *name, pm_error *err);

#endif
