/* primes.c — see primes.h. */
#include "r1cs/primes.h"

#include "field/fp.h"
#include "field/fr.h"

static const uint64_t BN254_R[4] = {0x43e1f593f0000001ull, 0x2833e84879b97091ull,
                                    0xb85045b68181585dull, 0x30644e72e131a029ull};
static const uint64_t BN254_Q[4] = {0x3c208c16d87cfd47ull, 0x97816a916871ca8dull,
                                    0xb85045b68181585dull, 0x30644e72e131a029ull};

/* 1 when the n8-byte LE integer equals the nl-limb value. */
static int eq_limbs(const uint8_t *le, uint32_t n8, const uint64_t *l, unsigned nl) {
    if (n8 != 8 * nl) return 0;
    for (unsigned i = 0; i < nl; i++) {
        uint64_t v = 0;
        for (unsigned b = 0; b < 8; b++) v |= (uint64_t)le[8 * i + b] << (8 * b);
        if (v != l[i]) return 0;
    }
    return 1;
}

pm_prime_id pm_prime_identify(const uint8_t *le, uint32_t n8) {
    if (eq_limbs(le, n8, FR_MODULUS.l, 4)) return PM_PRIME_BLS12_381_R;
    if (eq_limbs(le, n8, FP_MODULUS.l, 6)) return PM_PRIME_BLS12_381_Q;
    if (eq_limbs(le, n8, BN254_R, 4)) return PM_PRIME_BN254_R;
    if (eq_limbs(le, n8, BN254_Q, 4)) return PM_PRIME_BN254_Q;
    return PM_PRIME_UNKNOWN;
}

const char *pm_prime_name(pm_prime_id id) {
    switch (id) {
    case PM_PRIME_BLS12_381_R: return "BLS12-381 r";
    case PM_PRIME_BLS12_381_Q: return "BLS12-381 q";
    case PM_PRIME_BN254_R: return "BN254 (bn128) r";
    case PM_PRIME_BN254_Q: return "BN254 (bn128) q";
    case PM_PRIME_UNKNOWN: break;
    }
    return "unknown prime";
}
