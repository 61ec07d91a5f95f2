/*
 * zkey_write.h — write a snarkjs Groth16 proving key (.zkey, version 1) for BLS12-381.
 *
 * Layout: ../shared/fixtures/FORMATS.md "## .zkey, Groth16" (snarkjs src/zkey_utils.js
 * writeHeader / writeZKey read for facts). Sections are written in id order 1..10 (what
 * `snarkjs zkey contribute` produces; readers look sections up by id). Points are LEM
 * (curve/encoding.h g1_to_lem / g2_to_lem: LE Montgomery coordinates, infinity = zero bytes).
 * Section 4 values are written as stored in zkey_coef_t.value (the integer coef*R^2 mod r, LE).
 * Section 10: csHash[64] then nContributions = 0 (no MPC transcript). csHash here is BLAKE2b-512
 * over the bytes of sections 3..9 as written — NOT snarkjs's ptau-derived challenge hash, so
 * `snarkjs zkey verify` against a ptau is not expected to pass; `groth16 prove`, `zkey export
 * verificationkey` and `groth16 verify` do not read it.
 */
#ifndef PROOFMILL_GROTH16_ZKEY_WRITE_H
#define PROOFMILL_GROTH16_ZKEY_WRITE_H
#include <stdint.h>
#include "groth16/zkey.h"
#include "util/error.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Write zk to path. Needs every point array and zk->coefs (n_coefs entries; PM_ERR_ARG when
 * coefs is NULL, e.g. a key read with ZKEY_SKIP_COEFS_LIST). cs_hash (64 bytes) is written if
 * non-NULL; otherwise the BLAKE2b-512 described above is computed (and copied to cs_hash_out if
 * non-NULL). Points are encoded in parallel (OpenMP) in chunks and streamed.
 * Errors: PM_ERR_IO (open/write, errno text), PM_ERR_ARG, PM_ERR_NOMEM. */
pm_status zkey_write(const char *path, const zkey_t *zk, const uint8_t *cs_hash,
                     uint8_t *cs_hash_out, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
