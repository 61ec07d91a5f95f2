/*
 * setup.h — a Groth16 key generator ("setup") for BLS12-381 from a constraint system in CSR form
 * (r1cs/r1cs.h), writing either a snarkjs proving key (zkey_t, written by zkey_write.h) or a
 * bellperson parameter set (bp_params_t, params.h).
 *
 * Toxic waste: tau, alpha, beta, gamma, delta in Fr (Montgomery form), from the OS RNG
 * (getrandom) or, for reproducible tests, derived from a 64-bit seed with BLAKE2b-512
 * ("proofmill-setup" ‖ seed u64 LE ‖ name). Each value is 32 bytes of that stream with the top two
 * bits cleared (an integer < 2^254 < r), so it is canonical without reduction; zero is
 * re-drawn. A seeded key is NOT secure: anyone with the seed can forge proofs. Use it for tests.
 *
 * QAP (Groth 2016 §3.2 over the Lagrange basis): rows are the circuit's constraints followed by
 * one input row per public wire i = 0..nPublic (A = w_i, B = C = 0; snarkjs groth16 setup and
 * bellperson generator.rs both add them, at the same indices). For a domain {omega^c} of size n,
 *   L_c(tau) = (tau^n - 1) / n * omega^c / (tau - omega^c)
 * and u_i(tau) = sum_c A[c][i] L_c(tau) (likewise v from B, w from C).
 *  - snarkjs (src/zkey_new.js; ../shared/fixtures/FORMATS.md ".zkey"): n = N =
 *    2^(floor(log2(nConstraints + nPublic)) + 1), omega from generator 5 (ffjavascript nqr);
 *    gamma = 1 (gamma_2 = the G2 generator); H_j = L^{(2N)}_{2j+1}(tau) / delta over the 2N-domain.
 *  - bellperson (src/groth16/generator.rs): n = m = the next power of two >= rows, omega from
 *    generator 7; gamma random; IC_i = (beta u_i + alpha v_i + w_i) / gamma; L_i = (...) / delta
 *    for aux wires; H_i = tau^i Z(tau) / delta for i < m - 1 with Z(X) = X^m - 1; A, B_G1, B_G2
 *    lists drop the points at infinity (variables whose polynomial is zero at tau); an aux wire
 *    with a zero L point is refused (bellperson's UnconstrainedVariable).
 * Wire order: circom's (0 = one, 1..nPublic public, then private), which is bellperson's
 * (inputs = one + public, then aux).
 *
 * Scalar multiplication: fixed-base tables of 2^w multiples per w-bit window (unsigned digits)
 * for G1 and G2 generators, one mixed addition per nonzero digit, OpenMP over points, batch
 * normalisation (one inversion per chunk). Variable time: the setup is a one-shot, offline
 * computation whose secrets are discarded; do not run it where timing is observable.
 */
#ifndef PROOFMILL_GROTH16_SETUP_H
#define PROOFMILL_GROTH16_SETUP_H
#include <stddef.h>
#include <stdint.h>
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fr.h"
#include "groth16/params.h"
#include "groth16/zkey.h"
#include "r1cs/r1cs.h"
#include "util/error.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The toxic waste, Fr elements in Montgomery form, all nonzero. */
typedef struct {
    fr_t tau, alpha, beta, gamma, delta;
} groth16_toxic_t;

/* Draw the toxic waste: seed == NULL -> getrandom(2) (PM_ERR_IO if it fails); otherwise derived
 * from *seed as in the file comment (deterministic across runs and machines). */
pm_status groth16_toxic_draw(groth16_toxic_t *t, const uint64_t *seed, pm_error *err);

/* ---- fixed-base scalar multiplication ---- */

/* Precomputed multiples of one base: t[k * 2^w + d] = d * 2^(w k) * base (affine, Montgomery;
 * d = 0 is infinity), for windows k < ceil(256 / w). */
typedef struct {
    unsigned w, n_windows;
    g1_affine_t *t;
} g1_fixed_base_t;
typedef struct {
    unsigned w, n_windows;
    g2_affine_t *t;
} g2_fixed_base_t;

/* Build the table for base (any point on the curve) and window width w (1..16); the windows' rows
 * are built in parallel (OpenMP), each normalised with one inversion. Memory:
 * ceil(256/w) * 2^w points (w = 8: 8192 points, 0.75 MiB in G1, 1.5 MiB in G2).
 * Errors: PM_ERR_ARG (w), PM_ERR_NOMEM. */
pm_status g1_fixed_base_init(g1_fixed_base_t *fb, const g1_affine_t *base, unsigned w, pm_error *err);
pm_status g2_fixed_base_init(g2_fixed_base_t *fb, const g2_affine_t *base, unsigned w, pm_error *err);
void g1_fixed_base_free(g1_fixed_base_t *fb);
void g2_fixed_base_free(g2_fixed_base_t *fb);

/* out[i] = k[i] * base for i < n; k Montgomery Fr. OpenMP-parallel over i, batch-normalised.
 * Zero scalars give infinity (0, 0). Variable time. Errors: PM_ERR_NOMEM. */
pm_status g1_fixed_base_mul_many_vartime(g1_affine_t *out, size_t n, const g1_fixed_base_t *fb,
                                         const fr_t *k, pm_error *err);
pm_status g2_fixed_base_mul_many_vartime(g2_affine_t *out, size_t n, const g2_fixed_base_t *fb,
                                         const fr_t *k, pm_error *err);

/* ---- QAP at tau ---- */

/* u, v, w: cs->n_wires elements each (Montgomery out) = A_i(tau), B_i(tau), C_i(tau) over the
 * domain of size 2^log_n with roots from generator gen (5 snarkjs, 7 bellperson), with the
 * nPublic + 1 input rows appended (see file comment). Requires 2^log_n >= nConstraints +
 * nPublic + 1 (PM_ERR_ARG) and tau outside the domain (PM_ERR_ARG: redraw). *z_tau (if non-NULL)
 * receives tau^n - 1. Errors: PM_ERR_ARG, PM_ERR_NOMEM. */
pm_status groth16_qap_at_tau(fr_t *u, fr_t *v, fr_t *w, fr_t *z_tau, const r1cs_t *cs,
                             unsigned log_n, unsigned gen, const fr_t *tau, pm_error *err);

/* Timing of one setup run (seconds, wall clock). */
typedef struct {
    double qap, tables, points, total;
} groth16_setup_timings_t;

/* Where the batch fixed-base multiplications of a setup run (out[i] = [k_i] G for the generator G of
 * G1 / G2, n scalars k MONTGOMERY, affine Montgomery results with infinity = (0, 0), the layout and
 * values of g1/g2_fixed_base_mul_many_vartime, so the keys are byte-identical): NULL = the CPU
 * tables here; groth16_setup_mul_gpu (setup_gpu.h) = the device. */
typedef struct {
    const char *name;
    void *self;
    pm_status (*g1_mul)(void *self, g1_affine_t *out, const fr_t *k, size_t n, pm_error *err);
    pm_status (*g2_mul)(void *self, g2_affine_t *out, const fr_t *k, size_t n, pm_error *err);
} groth16_setup_mul;

/* Build a snarkjs Groth16 proving key for cs in memory: header fields, all point sections and
 * coefs (snarkjs's order: per constraint the A terms then the B terms, then the nPublic+1 input
 * entries; value = coef * R^2 mod r as the zkey stores it) are filled, ready for zkey_write.
 * NOT filled: the CSR copies A_dom / B_dom that zkey_read builds for the prover (they stay
 * zeroed), so to prove, write the key and read it back (zkey_read / zkey_read_memory).
 * n_contributions = 0. Errors: PM_ERR_ARG (circuit too large for 2^28
 * domain or nPublic >= nWires), PM_ERR_NOMEM. Threads: OpenMP default team. */
pm_status groth16_setup_snarkjs(zkey_t *zk, const r1cs_t *cs, const groth16_toxic_t *t,
                                groth16_setup_timings_t *tm, pm_error *err);
/* The same with the point multiplications on mul (NULL = CPU); errors also mul's. */
pm_status groth16_setup_snarkjs_mul(zkey_t *zk, const r1cs_t *cs, const groth16_toxic_t *t, const groth16_setup_mul *mul,
                                    groth16_setup_timings_t *tm, pm_error *err);

/* Build a bellperson parameter set (vk + h, l, a, b_g1, b_g2 as bellperson generator.rs makes
 * them, file comment) for cs. Errors: PM_ERR_ARG, PM_ERR_FORMAT (an unconstrained aux wire,
 * i.e. a zero L point: "wire i is unconstrained"), PM_ERR_NOMEM. */
pm_status groth16_setup_bellperson(bp_params_t *p, const r1cs_t *cs, const groth16_toxic_t *t,
                                   groth16_setup_timings_t *tm, pm_error *err);
/* The same with the point multiplications on mul (NULL = CPU); errors also mul's. */
pm_status groth16_setup_bellperson_mul(bp_params_t *p, const r1cs_t *cs, const groth16_toxic_t *t,
                                       const groth16_setup_mul *mul, groth16_setup_timings_t *tm, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
