/*
 * porep_c2.h — the proof kind "porep-c2" (alias "porep"): C2 of the Filecoin StackedDRG PoRep. A job
 * is one C1 output (the JSON or the lotus-bench envelope; a path or the bytes inline, as Curio sends
 * them) and the bellperson parameters of its sector size in a Filecoin parameter directory
 * (DIR/<stem>.params, .vk and optionally the recorded circuit .csr; names from
 * filecoin/param_names.h); one partition per C1 partition (10 at 32 GiB, 1 at 2 KiB), one 192-byte
 * proof each (bellperson compressed A ‖ B ‖ C), concatenated in partition order = the C2 proof.
 *
 * Further inputs (optional, decimal text: pm_input_u64): "registered_proof" (a RegisteredSealProof
 * id) and "sector_size" (bytes; 0 = not given), the fields Curio's request carries beside the C1
 * (the gRPC API passes them): when given they must be the C1's (PM_ERR_ARG for an id that is no
 * RegisteredSealProof, PM_ERR_MISMATCH for another one or another size).
 *
 * The kind (registered in porep_c2.c): open_job reads the C1; key_path names DIR/<stem>.params
 * (key_for_size the same for a sector size without a C1: PreloadSRS "porep-32g");
 * the key's identity is the sector size in its file name; check_job compares the C1's sector size
 * and challenges and the parameters' input count with the circuit; the circuit is DIR/<stem>.csr
 * when present (checked against the shape), else recorded in memory (2 KiB: ~10 s); the witness
 * is the partition circuit's (circuits/filecoin/porep_circuit.h); the public inputs are derived
 * as a verifier derives them (below) and must be the witness's; a failing constraint is named by
 * challenge and gadget. Sources: rust-fil-proofs storage-proofs-core compound_proof.rs (prove,
 * per-partition circuits, proof bytes), POREP.md §7.
 */
#ifndef PROOFMILL_KINDS_FILECOIN_POREP_C2_H
#define PROOFMILL_KINDS_FILECOIN_POREP_C2_H

#include <stddef.h>
#include <stdint.h>

#include "circuits/filecoin/porep_circuit.h"
#include "field/fr.h"
#include "groth16/params.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Filecoin's public inputs of partition k (rust-fil-proofs stacked/circuit/proof.rs
 * `generate_public_inputs`; POREP.md §6.2), derived without trusting the vanilla proofs:
 * out[0 .. 3 + 18·C) (ONE not included; Montgomery) = replica_id, comm_d, comm_r, then per
 * challenge c (interactive: from replica_id + seed; NI: from replica_id + comm_r; challenges.h):
 * c, its 6 DRG parents, its 8 expander parents (graph of the registered proof's porep_id and API
 * version, graph.h), c, c, c. n must be 3 + 18·C.
 * Errors: PM_ERR_ARG (a synthetic-PoRep C1: its challenges need the synthetic proof file, see
 * pm_porep_public_inputs_derivable; unknown registered proof; n), PM_ERR_ENCODING
 * (replica_id/comm_d/comm_r >= r). */
pm_status pm_porep_public_inputs(fr_t *out, size_t n, const fil_c1_t *c1, uint32_t k, pm_error *err);
/* 1 when pm_porep_public_inputs can derive c1's public inputs, 0 for synthetic-PoRep proofs. */
int pm_porep_public_inputs_derivable(const fil_c1_t *c1);

/* Verify proofs (192 · n bytes, n = c1->partitions) against vk with the public inputs of each
 * partition derived by pm_porep_public_inputs. *valid = 1 when every partition's proof verifies.
 * Errors: PM_ERR_FORMAT/ENCODING (proof bytes), PM_ERR_MISMATCH, as above. */
pm_status pm_porep_c2_verify(int *valid, const uint8_t *proofs, size_t n, const fil_c1_t *c1,
                             const pm_porep_shape *s, const bp_vk_t *vk, pm_error *err);
/* The same for one partition's 192-byte proof: partition k's public inputs. PM_ERR_ARG when the
 * C1 has no partition k; otherwise as pm_porep_c2_verify. */
pm_status pm_porep_c2_verify_partition(int *valid, const uint8_t proof[192], uint32_t k, const fil_c1_t *c1,
                                       const pm_porep_shape *s, const bp_vk_t *bvk, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
