/*
 * zkey.h — the snarkjs Groth16 proving key (.zkey, version 1) for BLS12-381, decoded into memory,
 * the snarkjs A/B evaluation on the domain from its coefficient section, and the cross-checks a
 * prover runs between zkey, witness and r1cs.
 *
 * File layout: ../shared/fixtures/FORMATS.md "## .zkey, Groth16" (read from snarkjs
 * src/zkey_utils.js readHeaderGroth16 / readZKey and src/groth16_prove.js). Sections are found by
 * id in any order; 1..9 are required, 10 (MPC transcript) is optional and only bounds-checked.
 *
 * Points: the file stores "LEM" affine points, each Fq coordinate 48 LE bytes in Montgomery form,
 * G2 as x.c0 x.c1 y.c0 y.c1, infinity = all zero bytes. They are decoded into g1_affine_t /
 * g2_affine_t (curve/g1.h, g2.h: Montgomery fp_t limbs; infinity = (0, 0)) by the curve layer's
 * g1_from_lem / g2_from_lem (curve/encoding.h), so every point is checked canonical (< q per coordinate, PM_ERR_ENCODING) and on its curve (PM_ERR_NOT_ON_CURVE);
 * the error names the section, the point index and the point's file offset. Subgroup checks are
 * optional (ZKEY_CHECK_SUBGROUP; snarkjs does not do them). Decoding is thread-parallel (OpenMP).
 *
 * Coefficients (section 4): kept in file order as zkey_coef_t, and ALSO bucketed once at load by
 * constraint into two CSR matrices (r1cs/r1cs.h layout) A_dom, B_dom of domain_size rows x n_vars
 * columns, so that zkey_eval_ab is a row-parallel SpMV without atomics.
 *
 * What is stored for a coefficient's value — exactly:
 *  - zkey_coef_t.value holds, as fr_t limbs (4 LE u64), the integer v written in the file,
 *    v = coef * R^2 mod r with R = 2^256. Read as a Montgomery element, v represents coef * R.
 *    So fr_mul(&t, &value, &w_plain) = Montgomery(coef * w): snarkjs's montmul(value, w) with the
 *    witness in plain form (as groth16_prove.js multiplies the raw .wtns bytes).
 *  - A_dom.coef / B_dom.coef hold Montgomery(coef) = v / R mod r (= fr_from_mont of value), so that
 *    fr_mul(coef, w_mont) = Montgomery(coef * w) with the witness in Montgomery form (wtns_t). Both
 *    routes give bit-identical results.
 *
 * Argument order: output first, then inputs; an array's length right after it.
 */
#ifndef PROOFMILL_GROTH16_ZKEY_H
#define PROOFMILL_GROTH16_ZKEY_H

#include <stddef.h>
#include <stdint.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fr.h"
#include "r1cs/r1cs.h"
#include "r1cs/wtns.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One entry of section 4 (44 bytes in the file): matrix 0 = A, 1 = B; constraint < domain_size;
 * signal < n_vars; value = the stored integer coef*R^2 mod r as fr_t limbs (see file comment). */
typedef struct {
    uint32_t matrix;
    uint32_t constraint;
    uint32_t signal;
    fr_t value;
} zkey_coef_t;

/* Options for zkey_read (bit flags). */
enum {
    ZKEY_CHECK_SUBGROUP = 1u << 0, /* also check every point is in the order-r subgroup (slow) */
    ZKEY_SKIP_COEFS_LIST = 1u << 1 /* do not keep the file-order coefs[] (A_dom/B_dom are kept) */
};

typedef struct {
    uint32_t n_vars;      /* nVars: witness length (wires) */
    uint32_t n_public;    /* nPublic = nOutputs + nPubInputs (wire 0 not counted) */
    uint32_t domain_size; /* N, a power of two */
    uint32_t log2_domain; /* log2 N */
    /* nConstraints + nPublic + 1 = rows actually used in the domain, derived from section 4:
     * 1 + the largest constraint index seen (0 when there are no coefficients). */
    uint32_t n_rows_used;

    g1_affine_t alpha1, beta1, delta1;
    g2_affine_t beta2, gamma2, delta2;

    g1_affine_t *ic;  /* section 3: n_public + 1 points */
    g1_affine_t *a;   /* section 5: n_vars points, A_i(tau)*G1 */
    g1_affine_t *b1;  /* section 6: n_vars points, B_i(tau)*G1 */
    g2_affine_t *b2;  /* section 7: n_vars points, B_i(tau)*G2 */
    g1_affine_t *c;   /* section 8: n_vars - n_public - 1 points; c[j] belongs to wire n_public+1+j */
    g1_affine_t *h;   /* section 9: domain_size points, L^{(2N)}_{2j+1}(tau)/delta * G1 */

    uint32_t n_coefs;     /* section 4 nCoefs */
    zkey_coef_t *coefs;   /* n_coefs entries in file order (NULL with ZKEY_SKIP_COEFS_LIST) */
    r1cs_matrix_t A_dom;  /* domain_size x n_vars, matrix-0 coefficients bucketed by constraint */
    r1cs_matrix_t B_dom;  /* domain_size x n_vars, matrix-1 coefficients bucketed by constraint */

    uint32_t n_contributions; /* section 10 nContributions, 0 when the section is absent */
} zkey_t;

/* Read and validate a Groth16 .zkey (mapped; the map is released before returning; all points are
 * copied out decoded). flags: ZKEY_* bits, 0 for the default.
 * Checks, in order: container magic "zkey", version 1, no duplicate section, sizes within the file;
 * section 1 exactly 4 bytes and protocol = 1 (2 plonk / 10 fflonk -> PM_ERR_FORMAT "not a groth16
 * zkey"); section 2: n8q = 48 and q = BLS12-381 p, n8r = 32 and r = BLS12-381 r (BN254's q/r ->
 * PM_ERR_CURVE "bn128 is not supported yet"; other -> PM_ERR_CURVE), nPublic + 1 <= nVars,
 * domainSize a power of two >= 2 and <= 2^31, then exactly 964 bytes, none of its six points
 * (alpha_1, beta_1, beta_2, gamma_2, delta_1, delta_2) the point at infinity; sections 3, 5, 6, 7, 8, 9
 * exactly (nPublic+1)*96, nVars*96, nVars*96, nVars*192, (nVars-nPublic-1)*96, domainSize*96 bytes;
 * section 4 exactly 4 + nCoefs*44 bytes with matrix in {0,1}, constraint < domainSize,
 * signal < nVars, value < r (PM_ERR_ENCODING); every point canonical and on its curve (and in the
 * subgroup with ZKEY_CHECK_SUBGROUP); section 10 if present at least 68 bytes.
 * Errors: PM_ERR_IO, PM_ERR_FORMAT, PM_ERR_ENCODING, PM_ERR_NOT_ON_CURVE, PM_ERR_NOT_IN_SUBGROUP,
 * PM_ERR_CURVE, PM_ERR_NOMEM; offset = absolute file offset of the offending field or point.
 * On error *zk is zeroed (zkey_free is safe). */
pm_status zkey_read(zkey_t *zk, const char *path, unsigned flags, pm_error *err);
/* The same from a memory image (size bytes; name labels errors). */
pm_status zkey_read_memory(zkey_t *zk, const void *data, size_t size, const char *name,
                           unsigned flags, pm_error *err);
/* Free every array and zero *zk. Accepts a zeroed struct. */
void zkey_free(zkey_t *zk);

/* What a scheduler needs before loading a key: counts from the header, all validated. */
typedef struct {
    uint32_t n_vars, n_public, domain_size, log2_domain;
    uint32_t n_coefs;    /* section 4 nCoefs */
    uint64_t file_bytes; /* size of the .zkey file */
} zkey_info_t;

/* Header-only read: container, protocol, curve (q, r), nVars/nPublic/domainSize and the exact size
 * of every section 3..9 are checked exactly as zkey_read checks them, but no point or coefficient
 * is decoded (the file is mapped; only the pages of the container table and section 2 are read).
 * Errors: as zkey_read minus the per-point / per-coefficient ones. On error *info is zeroed. */
pm_status zkey_read_info(zkey_info_t *info, const char *path, pm_error *err);
/* Heap bytes zkey_read(..., flags) will hold for this key once loaded (decoded points, A_dom/B_dom,
 * the coefficient list unless ZKEY_SKIP_COEFS_LIST). The mapping of the file during the load is
 * not counted (it is released before zkey_read returns). */
uint64_t zkey_resident_bytes(const zkey_info_t *info, unsigned flags);

/* snarkjs step 1 (groth16_prove.js buildABC): a[k] = sum over matrix-0 entries with constraint k of
 * coef*w[signal], b likewise for matrix 1, for k < domain_size; rows with no entries are 0.
 * a, b: n = zk->domain_size elements each (Montgomery out). w: n_w = zk->n_vars elements in
 * MONTGOMERY form (wtns_t.values). C_eval = a∘b pointwise is left to the H step
 * (ntt_snarkjs_h). Row-parallel (OpenMP), no allocation. Either output may be NULL.
 * Errors: PM_ERR_MISMATCH when n_w != n_vars; PM_ERR_ARG when n != domain_size. */
pm_status zkey_eval_ab(fr_t *a, fr_t *b, size_t n, const zkey_t *zk, const fr_t *w, size_t n_w,
                       pm_error *err);

/* Cross-check: witness length = nVars (snarkjs: "Invalid witness length"). wtns_name labels the
 * error. Errors: PM_ERR_MISMATCH "witness has X values, zkey expects nVars = Y". */
pm_status zkey_check_witness(const zkey_t *zk, const wtns_t *w, const char *wtns_name,
                             pm_error *err);
/* Cross-check zkey against the circuit's r1cs: nWires = nVars, nPubOut + nPubIn = nPublic,
 * domainSize = 2^(floor(log2(nConstraints + nPublic)) + 1) (snarkjs setup's cirPower),
 * n_rows_used = nConstraints + nPublic + 1, and the number of A / B coefficient entries equals
 * the r1cs A / B term counts (+ nPublic + 1 input-constraint entries for A).
 * Errors: PM_ERR_MISMATCH naming the first quantity that differs. */
pm_status zkey_check_r1cs(const zkey_t *zk, const r1cs_t *cs, const char *r1cs_name,
                          pm_error *err);
/* snarkjs setup's domain size for a circuit: 2^(floor(log2(n_constraints + n_public)) + 1).
 * Returns 0 if it would exceed 2^31. */
uint64_t zkey_domain_size_for(uint32_t n_constraints, uint32_t n_public);

#ifdef __cplusplus
}
#endif
#endif
