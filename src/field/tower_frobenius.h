/*
 * tower_frobenius.h — internal: Frobenius constants of the BLS12-381 tower (not installed API).
 *
 * gamma_k = xi^((p^k - 1)/6) in Fp2 (Montgomery form), xi = 1 + u, for k = 0..5; w^6 = xi, so
 * w^(p^k) = gamma_k * w and the coefficient of w^j picks up gamma_k^j under the p^k-power map.
 * The table is computed by our code from p on first use: gamma_1 = xi^((p-1)/6) by
 * square-and-multiply with (p-1)/6 derived from FP_MODULUS, then
 * gamma_k = gamma_1 * conj(gamma_{k-1})  (because (p^k-1)/6 = (p-1)/6 + p (p^(k-1)-1)/6).
 * No constant is pasted from elsewhere. Thread-safe (pthread_once).
 */
#ifndef PROOFMILL_FIELD_TOWER_FROBENIUS_H
#define PROOFMILL_FIELD_TOWER_FROBENIUS_H

#include "fp2.h"

/* Returns a pointer to 6 elements g[j] = gamma_k^j, j = 0..5, for k in 0..5. */
const fp2_t *tower_frobenius_gamma(unsigned k);

#endif
