/*
 * sha256_fr.h — SHA-256 as Filecoin uses it, the 254-bit trimming into Fr, and the 32-byte
 * "domain" conventions shared by every Filecoin hash value.
 *
 * Domains (POREP.md §2.1; filecoin-hashers sha256.rs / poseidon.rs, fr32 convert.rs):
 *   every 32-byte domain value (Sha256Domain, PoseidonDomain, labels, comm_d, comm_c, comm_r,
 *   replica_id) is the LITTLE-ENDIAN canonical (not Montgomery) integer of an Fr element.
 *   Trimming (`Sha256Domain::trim_to_fr32`, `bytes_into_fr_repr_safe`): byte 31 &= 0x3F, i.e. the
 *   two most significant bits of the little-endian integer are cleared; the result is < 2^254 < r,
 *   hence always canonical. SHA-256 output bytes are used in their natural order (digest byte 0 =
 *   least significant byte of the domain value).
 * Hash (POREP.md §2.2): FIPS 180-4 SHA-256 (OpenSSL libcrypto); the tree-D node hash is
 *   trim(SHA-256(left32 || right32)), no leaf hashing, no prefix byte.
 *
 * None of these functions fail except the parsers (documented); outputs may alias inputs.
 */
#ifndef PROOFMILL_FILECOIN_SHA256_FR_H
#define PROOFMILL_FILECOIN_SHA256_FR_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = SHA-256(data[len]) (FIPS 180-4), 32 bytes in digest order. */
void fil_sha256(uint8_t out[32], const void *data, size_t len);

/* One message given in n pieces (concatenated in order): out = SHA-256(p0 || p1 || ...). */
typedef struct {
    const void *data;
    size_t len;
} fil_bytes_t;
void fil_sha256_parts(uint8_t out[32], const fil_bytes_t *parts, size_t n);

/* b[31] &= 0x3F: clear the two top bits of the little-endian integer (Filecoin trim_to_fr32). */
static inline void fil_trim_fr32(uint8_t b[32]) { b[31] &= 0x3F; }

/* out = trim(SHA-256(data[len])). */
void fil_sha256_trimmed(uint8_t out[32], const void *data, size_t len);

/* Tree-D node hash: out = trim(SHA-256(left || right)), 64-byte message (two compressions). */
void fil_sha256_node(uint8_t out[32], const uint8_t left[32], const uint8_t right[32]);

/* derive_porep_domain_seed (storage-proofs-core crypto/mod.rs): out = SHA-256(tag || porep_id),
 * tag an ASCII string without its NUL ("Filecoin_DRSample", "Filecoin_Feistel"). Not trimmed. */
void fil_derive_porep_domain_seed(uint8_t out[32], const char *tag, const uint8_t porep_id[32]);
#define FIL_DRSAMPLE_DST "Filecoin_DRSample"
#define FIL_FEISTEL_DST "Filecoin_Feistel"

/* Domain -> Fr (Montgomery form): in is the LE canonical integer. Returns 0, or -1 when the
 * integer is >= r (non-canonical; r is then set to zero) — Filecoin's `bytes_into_fr`, which
 * rejects rather than reduces. */
int fil_domain_to_fr(fr_t *r, const uint8_t in[32]);
/* `bytes_into_fr_repr_safe` then into Fr: trims a copy of in (byte 31 &= 0x3F) and converts;
 * never fails. */
void fil_domain_to_fr_trimmed(fr_t *r, const uint8_t in[32]);
/* Fr (Montgomery) -> domain: the LE canonical 32 bytes. */
void fil_fr_to_domain(uint8_t out[32], const fr_t *a);

/* Lowercase hex of n bytes into hex[2n+1] (NUL-terminated), in byte order (no reversal). */
void fil_hex(char *hex, const uint8_t *bytes, size_t n);
/* Parse 2n hex digits (either case) into bytes[n]; returns 0, or -1 on a bad digit or length. */
int fil_unhex(uint8_t *bytes, size_t n, const char *hex);

#ifdef __cplusplus
}
#endif
#endif
