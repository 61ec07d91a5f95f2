/*
 * shape.h — the shape of a kind's proving key as the device-memory planner sees it
 * (groth16/devplan.h groth16_devplan_shape: counts only), without loading the key: from a circuit's
 * matrix facts (a PM_CS_STATS synthesis: a kind's shape_for_size, kind.h), from a bellperson
 * .params header plus its recorded circuit's .csr header, or from a snarkjs .zkey header. What
 * `proofmill plan` plans with; the engine plans a loaded key (groth16_devplan_shape_of_key).
 *
 * Bellperson's rules (bellperson 0.27 src/groth16/generator.rs, prover/native.rs; key.c
 * groth16_key_from_params, which checks a .params against them):
 *   rows = circuit constraints + one per input (ONE included); domain m = 2^k >= rows;
 *   H = m - 1 points; L = aux; A = inputs (dense in A: the input rows) + aux with a non-zero A term;
 *   B1 = B2 = inputs and aux with a non-zero B term (an input is counted only when it has one);
 *   circuit = the recorded circuit on the device (gpu/gpu_sizes.h gpu_sizes_csr per matrix: rows
 *   without the input rows, u32 row pointers below 2^32 terms, u32 columns, u32 indices into the
 *   one shared table of distinct coefficients, the table counted once).
 * snarkjs (groth16_key_from_zkey): A = B1 = B2 = nVars points, C = nVars - nPublic - 1, H = domain,
 * no recorded circuit (circuit_bytes 0).
 */
#ifndef PROOFMILL_KINDS_SHAPE_H
#define PROOFMILL_KINDS_SHAPE_H

#include <stdint.h>

#include "circuits/cs.h"
#include "circuits/csr_file.h"
#include "groth16/devplan.h"
#include "groth16/params.h"
#include "groth16/zkey.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Device bytes of a dictionary-coded recorded circuit of n_rows rows (input rows not included),
 * nnz[0..2] terms of A, B, C and n_coef distinct coefficients (one table, shared). */
uint64_t pm_shape_circuit_bytes(uint64_t n_rows, const uint64_t nnz[3], uint64_t n_coef);
/* Device bytes of the recorded circuit a .csr header describes (v1: 32-byte coefficients). */
uint64_t pm_shape_csr_bytes(const pm_csr_header_t *h);
/* The bellperson shape of the circuit with facts f (a PM_CS_STATS synthesis, cs.h): the rules of
 * the file comment. Exact when f is (the key our setup makes for that circuit has these counts). */
void pm_shape_of_facts(groth16_devplan_shape *s, const pm_cs_facts *f);
/* The bellperson shape of the .params at params_path (params_read_counts: header only) and of the
 * recorded circuit at csr_path (pm_csr_read_header; NULL or absent: *have_csr = 0 and
 * circuit_bytes 0, for the caller to fill). c (may be NULL) receives the counts.
 * Errors: the readers' (PM_ERR_IO, PM_ERR_FORMAT naming the file), PM_ERR_MISMATCH when the .csr's
 * columns or inputs are not the key's (both named). */
pm_status pm_shape_of_params(groth16_devplan_shape *s, bp_params_counts_t *c, int *have_csr, const char *params_path,
                             const char *csr_path, pm_error *err);
/* The snarkjs shape of the .zkey at path (zkey_read_info: header only); info (may be NULL)
 * receives its header. Errors: zkey_read_info's. */
pm_status pm_shape_of_zkey(groth16_devplan_shape *s, zkey_info_t *info, const char *path, pm_error *err);
/* Bytes of the .params file of bellperson shape s (params_size: vk, then h, l, a, b_g1, b_g2,
 * each a u32-BE count and uncompressed points). */
uint64_t pm_shape_params_bytes(const groth16_devplan_shape *s);

#ifdef __cplusplus
}
#endif
#endif
