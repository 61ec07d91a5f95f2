/*
 * proof_bytes.h — Filecoin / bellperson 192-byte Groth16 proofs and their verification with a
 * bellperson verifying key, one at a time or batched.
 *
 * Encoding (bellperson src/groth16/proof.rs Proof::write; ../shared/filecoin/POREP.md §7):
 *   A: G1 compressed (48) ‖ B: G2 compressed (96) ‖ C: G1 compressed (48) = 192 bytes, ZCash/IETF
 *   compressed form (curve/encoding.h: big-endian, flag bits 0x80 compressed, 0x40 infinity, 0x20
 *   sort). A multi-partition proof is the partitions' 192-byte proofs concatenated in order.
 * Decoding checks flags, canonical coordinates, on-curve AND subgroup membership (always: a
 * proof is untrusted input; cost ~3 scalar multiplications' worth per proof).
 *
 * Verification equation (Groth 2016 §3.2): e(A, B) = e(alpha, beta) e(sum_i x_i IC_i, gamma)
 * e(C, delta) with x_0 = 1 (groth16/verifier.h groth16_verify).
 * Batch (the usual random-linear-combination check, as in bellperson verifier.rs
 * verify_proofs_batch): with random nonzero rho_j (128-bit, from getrandom),
 *   prod_j e(rho_j A_j, B_j) · e(-(sum rho_j) alpha, beta) · e(-sum_j rho_j IC(x_j), gamma)
 *   · e(-sum_j rho_j C_j, delta) = 1,
 * one multi-pairing of n + 3 pairs. Accepts iff every proof is valid, except with probability
 * <= 2^-128 per call. It does not say which proof is bad: callers fall back to single checks.
 */
#ifndef PROOFMILL_GROTH16_PROOF_BYTES_H
#define PROOFMILL_GROTH16_PROOF_BYTES_H
#include <stddef.h>
#include <stdint.h>
#include "field/fr.h"
#include "groth16/proof.h"
#include "util/error.h"
#ifdef __cplusplus
extern "C" {
#endif

#define GROTH16_PROOF_BYTES 192

/* out = A ‖ B ‖ C compressed (points must be on their curves). */
void groth16_proof_to_bytes(uint8_t out[192], const groth16_proof_t *proof);

/* Decode one proof. file/offset label errors (offset = where in's first byte sits in the file).
 * Errors: PM_ERR_ENCODING (flags, non-canonical), PM_ERR_NOT_ON_CURVE, PM_ERR_NOT_IN_SUBGROUP,
 * each naming A, B or C. */
pm_status groth16_proof_from_bytes(groth16_proof_t *proof, const uint8_t in[192],
                                   const char *file, uint64_t offset, pm_error *err);

/* Read a file of n >= 1 concatenated proofs (size must be a positive multiple of 192, else
 * PM_ERR_FORMAT). *out is malloc'ed (free()). Errors as above plus PM_ERR_IO, PM_ERR_NOMEM. */
pm_status groth16_proofs_read(groth16_proof_t **out, size_t *n, const char *path, pm_error *err);

/* Write n proofs (n * 192 bytes) to path. Errors: PM_ERR_IO, PM_ERR_NOMEM. */
pm_status groth16_proofs_write(const char *path, const groth16_proof_t *proofs, size_t n,
                               pm_error *err);

/* Batch verification of n proofs against vk, proof j with public inputs x + j * x_stride
 * (vk->n_public Montgomery values each; x_stride = 0 shares one input vector). Points must come
 * from groth16_proof_from_bytes (checked). *valid = 1 iff the batch equation holds.
 * Errors: PM_ERR_IO (getrandom), PM_ERR_NOMEM. */
pm_status groth16_verify_batch(int *valid, const groth16_vk_t *vk, const groth16_proof_t *proofs,
                               size_t n, const fr_t *x, size_t x_stride, unsigned threads,
                               pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
