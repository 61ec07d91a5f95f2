/*
 * proof_json.h — snarkjs's JSON forms of a Groth16 proof, its public signals and its
 * verification key (BLS12-381), read with jansson and written byte-for-byte as snarkjs does.
 *
 * Text forms (FORMATS.md "JSON outputs"; snarkjs 0.7.6 `groth16 prove`):
 *  - proof.json: JSON.stringify(proof, null, 1) of
 *      { pi_a: [x, y, "1"], pi_b: [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]], pi_c: [x, y, "1"],
 *        protocol: "groth16", curve: "bls12381" }
 *    i.e. one space of indentation per level, no trailing newline. Coordinates are affine, plain
 *    (not Montgomery) decimal integers below p. The point at infinity is written as ffjavascript
 *    writes its zero, ["0", "1", "0"] (G1) and [["0","0"],["1","0"],["0","0"]] (G2).
 *  - public.json: JSON.stringify(signals, null, 1): ["x1", ..., "xn"] one per line, decimal
 *    below r; "[]" when there are none.
 *  - verification_key.json: protocol, curve, nPublic, vk_alpha_1, vk_beta_2, vk_gamma_2,
 *    vk_delta_2, vk_alphabeta_12, IC (vk_alphabeta_12 is ignored on reading: it is derived).
 * Readers accept points as [x, y], [x, y, "1"] (affine) or with z = "0" (infinity); any other z
 * is refused (snarkjs never writes one). Decimal strings: digits only, no sign, at most 200
 * characters, value below the modulus.
 *
 * Errors (pm_status, err filled with the file name given and, for JSON syntax, the byte offset
 * jansson reports): PM_ERR_IO (cannot read), PM_ERR_FORMAT (not JSON, missing/mistyped member,
 * wrong length), PM_ERR_ENCODING (not a decimal integer, value >= p or >= r), PM_ERR_CURVE
 * (curve is not "bls12381", e.g. "bn128"), PM_ERR_NOT_ON_CURVE / PM_ERR_NOT_IN_SUBGROUP (only
 * the verification key reader checks its points; proofs are checked by groth16_proof_check in
 * verifier.h so that the verifier can call a bad proof "invalid" rather than "malformed").
 */
#ifndef PROOFMILL_GROTH16_PROOF_JSON_H
#define PROOFMILL_GROTH16_PROOF_JSON_H

#include <stddef.h>

#include "field/fp.h"
#include "field/fr.h"
#include "groth16/decimal.h" /* the decimal codec of these forms */
#include "groth16/proof.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writers: return a malloc'd NUL-terminated string in snarkjs's exact bytes (caller frees), or
 * NULL when out of memory. public signals x[0..n) are in Montgomery form. */
char *groth16_proof_to_json(const groth16_proof_t *proof);
char *groth16_public_to_json(const fr_t *x, size_t n);
/* verification_key.json as `snarkjs zkey export verificationkey` writes it (JSON.stringify(vk,
 * null, 1)): protocol, curve, nPublic, vk_alpha_1, vk_beta_2, vk_gamma_2, vk_delta_2,
 * vk_alphabeta_12 = e(alpha_1, beta_2) (computed here with pairing/pairing.h, whose GT element is
 * snarkjs's; Fq12 nested as [[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]] of Fq2 [re, im] pairs,
 * fp12.h's flattened order), IC. */
char *groth16_vk_to_json(const groth16_vk_t *vk);

/* Readers from text (len bytes, need not be NUL-terminated); file names the source in errors.
 * groth16_public_from_json sets *x to a malloc'd array of *n elements (Montgomery form; caller
 * frees; NULL when n = 0). groth16_vk_from_json checks every point is on its curve and in the
 * order-r subgroup; free the result with groth16_vk_free. (alpha, beta, gamma and delta
 * must not be the point at infinity) */
pm_status groth16_proof_from_json(groth16_proof_t *proof, const char *text, size_t len,
                                  const char *file, pm_error *err);
pm_status groth16_public_from_json(fr_t **x, size_t *n, const char *text, size_t len,
                                   const char *file, pm_error *err);
pm_status groth16_vk_from_json(groth16_vk_t *vk, const char *text, size_t len, const char *file,
                               pm_error *err);

/* The same from a file path (read whole by pm_file_read_all, a pipe too; PM_ERR_IO when
 * unreadable, and files above 256 MiB are refused with PM_ERR_FORMAT). Writing the texts to files
 * is util/outfile.h's pm_write_files (atomic). */
pm_status groth16_proof_load_json(groth16_proof_t *proof, const char *path, pm_error *err);
pm_status groth16_public_load_json(fr_t **x, size_t *n, const char *path, pm_error *err);
pm_status groth16_vk_load_json(groth16_vk_t *vk, const char *path, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
