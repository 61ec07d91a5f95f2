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
#include "r1cs/r1cs.h"
#include "util/error.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Stage timings in seconds. */
typedef struct {
    double spmv, h, msm_g1, msm_g2, assemble;
} bp_prove_timings_t;

/* State between the two phases (the same split as prover.h: start = SpMV, H, G1 MSMs, the part
 * a GPU backend replaces; finalize = the G2 MSM and the assembly). Fields:
 *   p        the parameters (borrowed; finalize reads b_g2 and the vk points)
 *   sb       kb plain scalars of the compacted B query (owned), the G2 MSM's scalars
 *   sum_a    sum over params.a (inputs + A-dense aux) of w_i a_i
 *   sum_b1   sum over params.b_g1 of w_i b_i
 *   sum_c    sum_aux w_i L_i + sum_i h_i H_i
 *   threads, t: MSM threads and the timings so far.
 *   first_bad: after PM_ERR_UNSATISFIED, the first failing constraint row (kept when the handle
 *            is freed, so a caller can name the gadget it belongs to); UINT32_MAX otherwise. */
typedef struct {
    const bp_params_t *p;
    fr_t *sb;
    size_t kb;
    g1_jac_t sum_a, sum_b1, sum_c;
    unsigned threads;
    bp_prove_timings_t t;
    uint32_t first_bad;
} groth16_bp_pending_t;

/* Phase 1: checks (witness length, w[0] = 1, counts of ic, l, h, a, b vs the circuit), a/b/c on
 * the rows by SpMV, every constraint a_k b_k = c_k on those rows (no separate pass over the
 * matrices; the first failing row is named and kept in pd->first_bad), H on the coset, the four
 * G1 MSMs.
 * w: n_w = cs->n_wires values, Montgomery, w[0] = 1. On error the handle is freed.
 * Errors: PM_ERR_MISMATCH, PM_ERR_UNSATISFIED (first failing constraint named; or H of degree
 * m - 1), PM_ERR_NOMEM, errors of the NTT/MSM. */
pm_status groth16_prove_bellperson_start(groth16_bp_pending_t *pd, const bp_params_t *p,
                                         const r1cs_t *cs, const fr_t *w, size_t n_w,
                                         unsigned threads, pm_error *err);
/* Phase 2: B in G2 and the assembly with blinding r, s (Montgomery; random for real proofs).
 * Does not free the handle. Errors: PM_ERR_NOMEM / MSM errors. */
pm_status groth16_prove_bellperson_finalize(groth16_proof_t *proof, groth16_bp_pending_t *pd,
                                            const fr_t *r, const fr_t *s, pm_error *err);
/* Free the handle's scalars and zero it (safe on a zeroed or freed handle). */
void groth16_bp_pending_free(groth16_bp_pending_t *pd);

/* Both phases: proof for witness w (n_w = cs->n_wires values, Montgomery, w[0] = 1) with
 * blinding r, s. p must be the parameters of cs (counts cross-checked). tm may be NULL.
 * Errors: as the two phases. */
pm_status groth16_prove_bellperson(groth16_proof_t *proof, const bp_params_t *p, const r1cs_t *cs,
                                   const fr_t *w, size_t n_w, const fr_t *r, const fr_t *s,
                                   unsigned threads, bp_prove_timings_t *tm, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
