/*
 * prover.h — the Groth16 prover for snarkjs proving keys (BLS12-381), split in two phases so that
 * the engine (issue #5) and the GPU backend can run them on different resources:
 *
 *   groth16_prove_start    witness -> (a, b) on the domain -> H scalars (NTTs) -> the G1 MSMs.
 *                          This is the "kernel region" the GPU backend replaces; on the CPU it is
 *                          where nearly all the time goes. Output: a groth16_pending_t.
 *   groth16_prove_finalize the G2 MSM (B2), the blinding terms with r and s, the assembly of
 *                          (pi_a, pi_b, pi_c), and a self-verification with the zkey's own
 *                          verification key. Output: a groth16_proof_t.
 *
 * What is computed (Groth 2016 §3.2 in snarkjs's form; snarkjs 0.7.6 src/groth16_prove.js;
 * ../shared/fixtures/FORMATS.md "How snarkjs proves"), with w the witness (w_0 = 1) and r, s the
 * blinding scalars:
 *   a_k = sum A[k][i] w_i, b_k = sum B[k][i] w_i on the size-N domain (zkey section 4,
 *   zkey_eval_ab); P = the snarkjs H-phase of (a, b) on the odd coset (ntt_snarkjs_h, plain out);
 *   pi_a = alpha_1 + sum_i w_i A_i + r delta_1                                       (G1)
 *   pi_b = beta_2  + sum_i w_i B2_i + s delta_2                                      (G2)
 *   B1   = beta_1  + sum_i w_i B1_i + s delta_1                                      (G1)
 *   pi_c = sum_{i>nPublic} w_i C_i + sum_j P_j H_j + s pi_a + r B1 - r s delta_1     (G1)
 * With the same r and s, the output equals snarkjs's proof bit for bit (all points are unique
 * affine points, so equal group elements give equal JSON).
 *
 * Typical use (errors elided; see tests/groth16/test_groth16_prove.c):
 *     groth16_pending_t p;
 *     groth16_prove_opts_t opts = {.threads = 2, .wtns_name = "witness.wtns"};
 *     st = groth16_prove_start(&p, &zk, w.values, w.n_values, &opts, &err);   // H + G1 MSMs
 *     st = groth16_random_scalar(&r, &err); st = groth16_random_scalar(&s, &err);
 *     st = groth16_prove_finalize(&proof, &p, &r, &s, &err);                 // G2 + assembly
 *     groth16_pending_free(&p);
 * finalize does not consume the handle: it may be called again (other r, s: another valid,
 * unlinkable proof of the same witness) until groth16_pending_free.
 *
 * These are conveniences for snarkjs keys over THE start phase and assembly of start.h (which a
 * pipeline or a GPU table uses directly): each call makes the zkey's key view (key.h) and keeps it
 * in the handle, and the start runs on the CPU table. The handle (start.h groth16_pending_t) is a
 * transparent struct: a caller that computes the sums elsewhere fills it through
 * groth16_pending_init + its own MSMs, then calls the same groth16_prove_finalize.
 *
 * Soundness guard: finalize verifies the assembled proof (one multi-pairing, a few ms) against
 * the verification key contained in the zkey before returning it, unless the caller turns that
 * off. A witness that does not satisfy the circuit gives a proof that fails this check, so the
 * prover returns PM_ERR_UNSATISFIED instead of emitting it. snarkjs's H-phase sets C = A∘B on
 * the domain, so H is always a polynomial and the H step itself cannot detect a bad witness; only
 * the r1cs C matrix (not stored in the zkey) or the pairing can. When the circuit's .r1cs is given
 * (opts.r1cs), start checks every constraint first and names the first failing one.
 *
 * Threads: the MSMs use opts.threads POSIX threads (0 = all cores); zkey_eval_ab and the NTTs use
 * the OpenMP default team (the CLI sets omp_set_num_threads to the same number).
 * Memory: start needs 3 * N fr_t of NTT work space and MSM scratch, finalize the G2 MSM's scratch:
 * caller-owned when given (opts.scratch, p->finalize_scratch, sized by the *_scratch_size queries
 * below), else allocated and freed inside the call. The handle keeps n_vars plain witness scalars
 * until groth16_pending_free. Nothing is retained in globals; both phases are re-entrant.
 */
#ifndef PROOFMILL_GROTH16_PROVER_H
#define PROOFMILL_GROTH16_PROVER_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "groth16/proof.h"
#include "groth16/start.h" /* groth16_pending_t, groth16_prove_opts_t, groth16_timings_t */
#include "groth16/zkey.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Scratch queries (STYLE.md item 10), so that the engine can charge a proof's working set to its
 * memory budget and hand out buffers: bytes groth16_prove_start needs at opts.scratch (the
 * 3 * N fr_t of the H phase plus the largest G1 MSM scratch for `threads`; 0 = all cores) and
 * bytes finalize needs at p->finalize_scratch (the G2 MSM scratch). Not counted: the handle's
 * n_vars * 32-byte witness copy (malloc'd by init) and the OS thread stacks. */
size_t groth16_start_scratch_size(const zkey_t *zk, unsigned threads);
size_t groth16_finalize_scratch_size(const zkey_t *zk, unsigned threads);

/* Set up a handle for zk and a witness w (n values, MONTGOMERY form as wtns_read gives) without
 * running any MSM: checks n == zk->n_vars (PM_ERR_MISMATCH "witness has n values, zkey expects
 * nVars = m"), stores w in plain form, zeroes the sums. For backends that compute the sums
 * themselves. opts may be NULL. Errors: PM_ERR_MISMATCH, PM_ERR_NOMEM. On error the handle is
 * left freed (groth16_pending_free is safe). */
pm_status groth16_pending_init(groth16_pending_t *p, const zkey_t *zk, const fr_t *w, size_t n,
                               const groth16_prove_opts_t *opts, pm_error *err);

/* Phase 1 on the CPU: groth16_pending_init, then (if opts->r1cs) zkey_check_r1cs +
 * r1cs_check_satisfied, zkey_eval_ab, ntt_snarkjs_h, and the four G1 MSMs into p->sum_*.
 * w: n = zk->n_vars witness values, Montgomery form. opts may be NULL (defaults).
 * Errors: PM_ERR_MISMATCH (witness length, r1cs vs zkey), PM_ERR_UNSATISFIED ("constraint k of
 * m not satisfied", file = wtns_name; only with opts->r1cs), PM_ERR_NOMEM, PM_ERR_ARG (opts.scratch
 * smaller than groth16_start_scratch_size; a cached domain of the wrong size) /
 * PM_ERR_INTERNAL from the NTT/MSM layers. On error the handle is freed. */
pm_status groth16_prove_start(groth16_pending_t *p, const zkey_t *zk, const fr_t *w, size_t n,
                              const groth16_prove_opts_t *opts, pm_error *err);

/* Phase 2 (groth16_finalize of start.h): pi_b's G2 MSM, the r/s terms and the assembly, then (unless p->skip_self_check) the
 * verification of the proof with the zkey's key (alpha1, beta2, gamma2, delta2, IC) and the
 * public signals w[1..nPublic]. r, s: the blinding scalars in MONTGOMERY form (any value in Fr;
 * use groth16_random_scalar for real proofs). The handle is NOT freed (its timings stay
 * readable); call groth16_pending_free after.
 * Errors: PM_ERR_UNSATISFIED when the self-check fails (file = wtns_name: "the witness does not
 * satisfy the circuit ..."; *proof is zeroed then), PM_ERR_NOMEM, PM_ERR_INTERNAL. */
pm_status groth16_prove_finalize(groth16_proof_t *proof, groth16_pending_t *p, const fr_t *r,
                                 const fr_t *s, pm_error *err);

/* Both phases in one call (start, finalize, free). timings may be NULL. */
pm_status groth16_prove(groth16_proof_t *proof, const zkey_t *zk, const fr_t *w, size_t n,
                        const fr_t *r, const fr_t *s, const groth16_prove_opts_t *opts,
                        groth16_timings_t *timings, pm_error *err);

/* The public signals of a witness: out[i] = w[1 + i] for i < zk->n_public (Montgomery in and
 * out); out has zk->n_public elements. */
void groth16_public_signals(fr_t *out, const zkey_t *zk, const fr_t *w);

/* A uniformly random element of Fr from the OS (getrandom(2), rejection sampling of 255-bit
 * strings below r; about 1.1 draws on average). Montgomery out. Errors: PM_ERR_IO when the OS
 * generator fails. */
pm_status groth16_random_scalar(fr_t *out, pm_error *err);

/* Deterministic r and s for tests and reproducible benchmarks ONLY (not secret: anyone knowing
 * the seed can undo the zero-knowledge blinding): the xoshiro256** stream (Blackman, Vigna
 * 2018) seeded from `seed` by splitmix64, rejection-sampled below r like groth16_random_scalar;
 * r is drawn first, then s. Montgomery out. */
void groth16_seeded_scalars(fr_t *r, fr_t *s, uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif
