/*
 * ntt_ref.h — the bellperson H phase as bellperson's Groth16 prover computes it (7 transforms; the
 * CPU prover's own sequence until 2026-12-03), in terms of ntt/ntt.h's public transforms: the reference the fused H phases (ntt_bellperson_h on the
 * CPU, gpu_bellperson_h on the device) are compared with, in tests/unit, tests/gpu and bench/.
 * Header-only (static), test and bench use only.
 */
#ifndef PROOFMILL_TESTS_NTT_REF_H
#define PROOFMILL_TESTS_NTT_REF_H

#include "ntt/ntt.h"

#ifdef _OPENMP
#define NTT_REF_OMP_FOR _Pragma("omp parallel for schedule(static)")
#else
#define NTT_REF_OMP_FOR
#endif

/* In place: a, b, c (d->n Montgomery evaluations each, destroyed) -> a holds the n coefficients of H
 * as plain integers. d: roots from 7. The steps of prover_bellperson.c's H, one for one. */
static inline void bellperson_h_seq(fr_t *a, fr_t *b, fr_t *c, const ntt_domain_t *d) {
    const size_t m = d->n;
    fr_t g, zinv;
    fr_multiplicative_generator(&g);
    ntt_bellperson_zinv(&zinv, m);
    fr_t *x[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        ntt_inverse(x[k], m, d);
        ntt_coset_forward(x[k], m, d, &g);
    }
    NTT_REF_OMP_FOR /* the prover's loops are parallel too */
    for (size_t i = 0; i < m; i++) {
        fr_t t;
        fr_mul(&t, &a[i], &b[i]);
        fr_sub(&t, &t, &c[i]);
        fr_mul(&a[i], &t, &zinv);
    }
    ntt_coset_inverse(a, m, d, &g);
    NTT_REF_OMP_FOR
    for (size_t i = 0; i < m; i++) fr_from_mont(&a[i], &a[i]);
}

#endif
