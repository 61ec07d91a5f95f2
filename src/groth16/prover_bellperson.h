/*
 * prover_bellperson.h — a Groth16 prover for bellperson parameter sets (params.h) and circom
 * constraint systems (r1cs.h), producing proofs that a bellperson .vk accepts.
 *
 * What differs from the snarkjs prover (prover.h), as read in bellperson src/groth16/prover/
 * {mod.rs,native.rs} and src/domain.rs (../shared/filecoin/POREP.md §7):
 *  - rows: the circuit's constraints, then one row per input i < num_inputs (A = w_i, B = C = 0);
 *    evaluations a, b, c (C from the r1cs C matrix) zero-padded to m = 2^k >= rows;
 *  - H: iNTT (roots from generator 7), coset NTT with shift g = 7, (a·b − c) / (g^m − 1)
 *    pointwise (Z is constant on the coset), coset iNTT; the first m − 1 coefficients are the
 *    scalars of the h query (h_i = tau^i Z(tau)/delta). The coefficient m − 1 must be 0 for a
 *    satisfying witness (checked: PM_ERR_UNSATISFIED);
 *  - bases are compacted: params.a holds inputs then the aux wires that occur in A (nonzero
 *    coefficient), params.b_g1 / b_g2 the inputs and aux wires that occur in B, in wire order;
 *    the counts must agree with the circuit (PM_ERR_MISMATCH otherwise);
 *  - L: one point per aux wire, all dense.
 * Implemented once for both conventions in start.h (GROTH16_BELLPERSON keys, key.h).
 * Proof: A = alpha + sum a_i w_i + r delta; B = beta + sum b_i w_i + s delta (G2, and the same in
 * G1 as B1); C = sum_aux w_i L_i + sum h_i H_i + s A + r B1 − r s delta (Groth 2016 §3.2).
 *
 * Wires: circom order = bellperson order (inputs = wire 0 and the nPublic public wires, then aux).
 * Threads: MSMs on `threads` POSIX threads (0 = all cores), SpMV/NTT on the OpenMP team.
 */
#ifndef PROOFMILL_GROTH16_PROVER_BELLPERSON_H
#define PROOFMILL_GROTH16_PROVER_BELLPERSON_H
#include <stddef.h>
#include "curve/g1.h"
#include "field/fr.h"
#include "groth16/params.h"
#include "groth16/proof.h"
#include "groth16/start.h"
#include "r1cs/r1cs.h"
#include "util/error.h"
#ifdef __cplusplus
extern "C" {
#endif

/* A proof for witness w (n_w = cs->n_wires values, Montgomery, w[0] = 1) with blinding r, s, on
 * the CPU: the key view of p and cs (key.h groth16_key_from_params: counts and densities
 * cross-checked, PM_ERR_MISMATCH), then THE start phase and assembly of start.h (no self-check:
 * callers verify with the .vk). A pipeline keeps the key view and calls start.h itself.
 * tm may be NULL. Errors: PM_ERR_MISMATCH, PM_ERR_UNSATISFIED (first failing constraint named;
 * or H of degree m - 1), PM_ERR_NOMEM, errors of the NTT/MSM. */
pm_status groth16_prove_bellperson(groth16_proof_t *proof, const bp_params_t *p, const r1cs_t *cs,
                                   const fr_t *w, size_t n_w, const fr_t *r, const fr_t *s,
                                   unsigned threads, groth16_timings_t *tm, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
