/*
 * porep_c2.h — C2 of the Filecoin StackedDRG PoRep: C1 output in, one 192-byte Groth16 proof per
 * partition out (concatenated in partition order), with bellperson parameters (.params/.vk) and the
 * partition circuit recorded once (porep_circuit.h, csr_file.h).
 *
 * Per partition: witness synthesis from the C1 (pm_porep_witness) -> the witness's public inputs
 * against the ones a verifier derives (PM_ERR_MISMATCH) -> the bellperson prover's start (SpMV,
 * then every constraint checked on those rows: an unsatisfied one refuses the job, naming
 * partition, challenge and gadget, so a wrong C1 never yields a proof; H, MSMs) and finalize
 * (random r, s) -> verification with the parameters' vk and the witness's public inputs -> 192
 * bytes (zcash compressed A ‖ B ‖ C).
 * Sources: rust-fil-proofs storage-proofs-core compound_proof.rs (prove, per-partition circuits,
 * proof bytes), POREP.md §7.
 */
#ifndef PROOFMILL_CIRCUITS_FILECOIN_POREP_C2_H
#define PROOFMILL_CIRCUITS_FILECOIN_POREP_C2_H

#include <stdint.h>

#include "circuits/filecoin/porep_circuit.h"
#include "groth16/params.h"
#include "r1cs/r1cs.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double witness, check, prove, verify; /* seconds, summed over partitions; check = the public
                                            * inputs (constraints are checked inside prove) */
} pm_c2_timings_t;

/* Prove every partition of c1. out: 192 · c1->partitions bytes. cs: the recorded circuit of
 * c1's sector size (rows without bellperson's input rows); p: its parameters. seed: NULL for
 * random r, s (production); otherwise deterministic blinding for tests (not zero-knowledge).
 * threads: MSM threads (0 = all). tm may be NULL.
 * Errors: PM_ERR_UNSATISFIED (constraint, challenge, gadget named; nothing written),
 * PM_ERR_MISMATCH (C1 shape vs circuit vs parameters), PM_ERR_ENCODING, PM_ERR_INTERNAL (a proof
 * that our vk rejects — never returned as a proof), PM_ERR_NOMEM, prover errors. */
pm_status pm_porep_c2_prove(uint8_t *out, const fil_c1_t *c1, const pm_porep_shape *s, const r1cs_t *cs,
                            const bp_params_t *p, const uint64_t *seed, unsigned threads,
                            pm_c2_timings_t *tm, pm_error *err);

/* Filecoin's public inputs of partition k (rust-fil-proofs stacked/circuit/proof.rs
 * `generate_public_inputs`; POREP.md §6.2), derived without trusting the vanilla proofs:
 * out[0 .. 3 + 18·C) (ONE not included; Montgomery) = replica_id, comm_d, comm_r, then per
 * challenge c (interactive: from replica_id + seed; NI: from replica_id + comm_r; challenges.h):
 * c, its 6 DRG parents, its 8 expander parents (graph of the registered proof's porep_id and API
 * version, graph.h), c, c, c. n must be 3 + 18·C.
 * Errors: PM_ERR_ARG (synthetic-PoRep proofs: their challenges need the synthetic proof file;
 * unknown registered proof; n), PM_ERR_ENCODING (replica_id/comm_d/comm_r >= r). */
pm_status pm_porep_public_inputs(fr_t *out, size_t n, const fil_c1_t *c1, uint32_t k, pm_error *err);

/* Verify proofs (192 · n bytes, n = c1->partitions) against vk with the public inputs of each
 * partition derived by pm_porep_public_inputs. *valid = 1 when every partition's proof verifies.
 * Errors: PM_ERR_FORMAT/ENCODING (proof bytes), PM_ERR_MISMATCH, as above. */
pm_status pm_porep_c2_verify(int *valid, const uint8_t *proofs, size_t n, const fil_c1_t *c1,
                             const pm_porep_shape *s, const bp_vk_t *vk, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
