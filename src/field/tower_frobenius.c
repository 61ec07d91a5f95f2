/*
 * tower_frobenius.c — the Frobenius constants gamma_k^j of the Fp6/Fp12 tower, computed at
 * first use from p (see tower_frobenius.h for the derivation).
 */
#include "tower_frobenius.h"

#include <pthread.h>

static fp2_t gamma_table[6][6];
static pthread_once_t gamma_once = PTHREAD_ONCE_INIT;

static void gamma_init(void) {
    /* e = (p - 1)/6 as 6 little-endian limbs: long division of p - 1 by 6 from the top. */
    uint64_t e[6];
    unsigned __int128 rem = 0;
    for (int i = 5; i >= 0; i--) {
        uint64_t limb = FP_MODULUS.l[i] - (i == 0 ? 1 : 0); /* p is odd: no borrow */
        unsigned __int128 cur = (rem << 64) | limb;
        e[i] = (uint64_t)(cur / 6);
        rem = cur % 6;
    }
    /* rem == 0 since p = 1 mod 6 (checked by the tower tests through Frobenius == pow(p)). */
    fp2_t xi = {FP_ONE, FP_ONE}; /* 1 + u */
    fp2_t g[6];
    g[0] = FP2_ONE;
    fp2_pow_vartime(&g[1], &xi, e, 6);
    for (int k = 2; k < 6; k++) {
        fp2_conj(&g[k], &g[k - 1]);
        fp2_mul(&g[k], &g[k], &g[1]);
    }
    for (int k = 0; k < 6; k++) {
        gamma_table[k][0] = FP2_ONE;
        for (int j = 1; j < 6; j++) fp2_mul(&gamma_table[k][j], &gamma_table[k][j - 1], &g[k]);
    }
}

const fp2_t *tower_frobenius_gamma(unsigned k) {
    pthread_once(&gamma_once, gamma_init);
    return gamma_table[k % 6];
}
