/*
 * encoding.h — byte encodings of G1 and G2 points: ZCash/IETF (Filecoin, bellperson, zkcrypto)
 * and snarkjs "LEM" (.zkey files).
 *
 * ZCash/IETF (zkcrypto bls12_381 "Serialization" notes; draft-irtf-cfrg-pairing-friendly-curves-11
 * appendix C; the format of Filecoin's .params/.vk and 192-byte proofs):
 *  - big-endian Fp elements of 48 bytes; G2 coordinates written c1 first, then c0;
 *  - compressed: x only (G1 48 bytes, G2 96); uncompressed: x then y (G1 96, G2 192);
 *  - the top 3 bits of byte 0 are flags: 0x80 compression (set iff compressed), 0x40 infinity
 *    (then every other bit of the encoding is 0), 0x20 sort (compressed, non-infinity only: set
 *    iff y is the lexicographically largest of y, -y; for Fp2 c1 decides unless it is 0).
 * snarkjs LEM (ffjavascript's toRprLEM/fromRprLEM, used for every point of a .zkey):
 *  - x then y, each Fp as 48 bytes little-endian of its Montgomery form a*2^384 mod p
 *    (fp_from_mont_le_bytes); G2 coordinates written c0 first, then c1; G1 96 bytes, G2 192;
 *  - the point at infinity is all zero bytes; there are no flag bits.
 *
 * Decoders reject, in this order: wrong flags and coordinates >= p (PM_ERR_ENCODING), points off
 * the curve including x with no square root (PM_ERR_NOT_ON_CURVE), and, when
 * PM_DECODE_CHECK_SUBGROUP is given, points outside the order-r subgroup (PM_ERR_NOT_IN_SUBGROUP).
 * The on-curve check always runs: callers may skip only the (costlier) subgroup check, e.g. for
 * a trusted parameter file. On failure the output point is set to infinity (0, 0) and err (if
 * non-NULL) says which check failed. Decoded points are affine, Montgomery form (g1.h, g2.h).
 * All of this is variable time (square roots, subgroup checks); inputs are public data.
 */
#ifndef PROOFMILL_CURVE_ENCODING_H
#define PROOFMILL_CURVE_ENCODING_H

#include <stddef.h>
#include <stdint.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    PM_POINT_ZCASH_COMPRESSED = 0, /* G1 48 bytes, G2 96 */
    PM_POINT_ZCASH_UNCOMPRESSED,   /* G1 96 bytes, G2 192 */
    PM_POINT_SNARKJS_LEM           /* G1 96 bytes, G2 192 */
} pm_point_format;

/* Decoder flags. */
#define PM_DECODE_CHECK_SUBGROUP 1u /* also test membership in the order-r subgroup */

#define G1_COMPRESSED_BYTES 48
#define G1_UNCOMPRESSED_BYTES 96
#define G1_LEM_BYTES 96
#define G2_COMPRESSED_BYTES 96
#define G2_UNCOMPRESSED_BYTES 192
#define G2_LEM_BYTES 192

/* Bytes per point in format fmt; 0 for an unknown format. */
size_t g1_encoded_size(pm_point_format fmt);
size_t g2_encoded_size(pm_point_format fmt);

/* ---- G1 encoders: p affine (Montgomery, infinity = (0, 0)), must be on the curve. ---- */
void g1_to_compressed(uint8_t out[48], const g1_affine_t *p);
void g1_to_uncompressed(uint8_t out[96], const g1_affine_t *p);
void g1_to_lem(uint8_t out[96], const g1_affine_t *p);

/* ---- G1 decoders: flags = 0 or PM_DECODE_CHECK_SUBGROUP; errors as in the file comment. ---- */
pm_status g1_from_compressed(g1_affine_t *r, const uint8_t in[48], unsigned flags, pm_error *err);
pm_status g1_from_uncompressed(g1_affine_t *r, const uint8_t in[96], unsigned flags, pm_error *err);
pm_status g1_from_lem(g1_affine_t *r, const uint8_t in[96], unsigned flags, pm_error *err);

/* ---- G2: as G1 with the sizes doubled (coordinate order per format: see the file comment). ---- */
void g2_to_compressed(uint8_t out[96], const g2_affine_t *p);
void g2_to_uncompressed(uint8_t out[192], const g2_affine_t *p);
void g2_to_lem(uint8_t out[192], const g2_affine_t *p);
pm_status g2_from_compressed(g2_affine_t *r, const uint8_t in[96], unsigned flags, pm_error *err);
pm_status g2_from_uncompressed(g2_affine_t *r, const uint8_t in[192], unsigned flags, pm_error *err);
pm_status g2_from_lem(g2_affine_t *r, const uint8_t in[192], unsigned flags, pm_error *err);

/* ---- format-generic single point: out_len / in_len must equal gX_encoded_size(fmt), else
 * PM_ERR_ENCODING ("wrong length"); an unknown fmt gives PM_ERR_ARG. ---- */
pm_status g1_encode(uint8_t *out, size_t out_len, const g1_affine_t *p, pm_point_format fmt);
pm_status g2_encode(uint8_t *out, size_t out_len, const g2_affine_t *p, pm_point_format fmt);
pm_status g1_decode(g1_affine_t *r, const uint8_t *in, size_t in_len, pm_point_format fmt,
                    unsigned flags, pm_error *err);
pm_status g2_decode(g2_affine_t *r, const uint8_t *in, size_t in_len, pm_point_format fmt,
                    unsigned flags, pm_error *err);

/* ---- batch decoders for file loaders (.zkey sections, .params vectors) ----
 * Decode n consecutive points of format fmt from in (n * gX_encoded_size(fmt) bytes) into
 * out[0..n). Stops at the first bad point: returns its status, sets *bad_index (if non-NULL) to
 * its index, and fills err with file (may be NULL: "") and byte offset base_offset + index * size
 * (the point's position in the file), the message naming the point index and the failed check.
 * Points before the bad one are decoded; the bad one and those after it are left unspecified.
 * Single-threaded; a loader may split a section and call this per chunk from several threads. */
pm_status g1s_decode(g1_affine_t *out, size_t n, const uint8_t *in, pm_point_format fmt,
                     unsigned flags, const char *file, uint64_t base_offset, size_t *bad_index,
                     pm_error *err);
pm_status g2s_decode(g2_affine_t *out, size_t n, const uint8_t *in, pm_point_format fmt,
                     unsigned flags, const char *file, uint64_t base_offset, size_t *bad_index,
                     pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
