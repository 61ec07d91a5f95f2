/*
 * feistel.h — the Feistel permutation behind the SDR expander parents, and the BLAKE2b-512
 * round function it uses.
 *
 * Source: rust-fil-proofs storage-proofs-core/src/crypto/feistel.rs (precompute, encode, decode,
 * permute, invert_permute, round function); keys from crypto/mod.rs derive_porep_domain_seed with
 * "Filecoin_Feistel"; POREP.md §3.1, §3.3. BLAKE2b: RFC 7693.
 *
 * Domain [0, n). precompute: k = smallest integer >= 1 with 4^k >= n; a value x < 4^k splits into
 * L = x >> k (k bits) and R = x & (2^k - 1). Round with key K: (L, R) <- (R, L xor F(R, K)),
 * F(R, K) = (first 8 bytes of BLAKE2b-512(R as 8 bytes big-endian || K as 8 bytes big-endian),
 * read big-endian) & (2^k - 1). encode = 3 rounds with keys[0], keys[1], keys[2] (keys[3] is
 * derived but unused); permute(x) = encode repeatedly until the value is < n (cycle walking).
 * All integers are u64; the functions are variable time (public graph data).
 */
#ifndef PROOFMILL_FILECOIN_FEISTEL_H
#define PROOFMILL_FILECOIN_FEISTEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FIL_FEISTEL_ROUNDS 3u

typedef struct {
    uint64_t n;          /* domain size */
    uint64_t right_mask; /* 2^k - 1 */
    unsigned half_bits;  /* k */
    uint64_t keys[4];    /* keys[0..2] used */
} fil_feistel_t;

/* Set up the permutation of [0, n) (n >= 1, n <= 2^62) with the four keys. */
void fil_feistel_init(fil_feistel_t *f, uint64_t n, const uint64_t keys[4]);
/* Keys from a porep_id: SHA-256("Filecoin_Feistel" || porep_id), key i = u64 LE of bytes
 * [8i, 8i+8). */
void fil_feistel_keys(uint64_t keys[4], const uint8_t porep_id[32]);

/* F(R, K) as above (before masking): the first 8 digest bytes, big-endian. */
uint64_t fil_feistel_round_hash(uint64_t right, uint64_t key);
/* One 3-round encode / decode of x < 4^k (no cycle walking). */
uint64_t fil_feistel_encode(const fil_feistel_t *f, uint64_t x);
uint64_t fil_feistel_decode(const fil_feistel_t *f, uint64_t x);
/* permute(x) and its inverse for x < n. */
uint64_t fil_feistel_permute(const fil_feistel_t *f, uint64_t x);
uint64_t fil_feistel_invert_permute(const fil_feistel_t *f, uint64_t x);
/* out[i] = permute(in[i]) for i < count (in[i] < n); out may equal in. Same values as the scalar
 * form; evaluates BLAKE2b for 8 values at a time (SIMD lanes, AVX-512/AVX2 chosen at run time). */
void fil_feistel_permute_many(uint64_t *out, const uint64_t *in, size_t count,
                              const fil_feistel_t *f);

#ifdef __cplusplus
}
#endif
#endif
