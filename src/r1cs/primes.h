/*
 * primes.h — recognise the field primes written in circom/snarkjs headers (r1cs, wtns, zkey), so
 * that a file for another curve is refused with PM_ERR_CURVE and a message that names the curve.
 *
 * Input: n8 bytes, little-endian (the header's prime[n8] field). The BLS12-381 values come from
 * field/fp.h / fr.h (FP_MODULUS, FR_MODULUS); the BN254 ("bn128" in snarkjs) values are the
 * standard alt_bn128 q and r (EIP-196), written here as LE 64-bit limbs:
 *   r = 21888242871839275222246405745257275088548364400416034343698204186575808495617
 *   q = 21888242871839275222246405745257275088696311157297823662689037894645226208583
 */
#ifndef PROOFMILL_R1CS_PRIMES_H
#define PROOFMILL_R1CS_PRIMES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    PM_PRIME_UNKNOWN = 0,
    PM_PRIME_BLS12_381_R, /* 32 bytes */
    PM_PRIME_BLS12_381_Q, /* 48 bytes */
    PM_PRIME_BN254_R,     /* 32 bytes */
    PM_PRIME_BN254_Q      /* 32 bytes */
} pm_prime_id;

/* Identify the n8-byte LE integer at le (n8 may be anything; unknown sizes give UNKNOWN). */
pm_prime_id pm_prime_identify(const uint8_t *le, uint32_t n8);
/* Human-readable name ("BLS12-381 r", "BN254 (bn128) q", "unknown prime"). */
const char *pm_prime_name(pm_prime_id id);

#ifdef __cplusplus
}
#endif
#endif
