/*
 * porep_public.h — the public inputs of a StackedDRG PoRep partition from the fields a verifier
 * holds (porep_id, API version, feature, replica_id or the fields it is made of, comm_d, comm_r,
 * seed), and the verification of Filecoin's published seal records (real_data.h) with them.
 *
 * Sources: rust-fil-proofs storage-proofs-porep stacked/circuit/proof.rs `generate_public_inputs`,
 * stacked/vanilla/challenges.rs, params.rs `generate_replica_id`, filecoin-proofs api/seal.rs
 * `verify_seal` (replica_id from prover_id, sector_id, ticket, comm_d and porep_id; the graph of
 * porep_id and api_version); POREP.md §4.1, §5, §6.2.
 * Public inputs of partition k (ONE not included; Montgomery): replica_id, comm_d, comm_r, then per
 * challenge c (C per partition: the size's interactive count, or its NI count): c, its 6 DRG
 * parents, its 8 expander parents (graph of porep_id and api_version), c, c, c — 3 + 18·C values.
 * Interactive challenges come from replica_id and seed, non-interactive ones from replica_id and
 * comm_r (challenges.h). Synthetic-PoRep challenges (ChaCha20 over a synthetic set) are not
 * derived here: PM_ERR_ARG says so.
 */
#ifndef PROOFMILL_FILECOIN_POREP_PUBLIC_H
#define PROOFMILL_FILECOIN_POREP_PUBLIC_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "filecoin/real_data.h"
#include "filecoin/sizes.h"
#include "groth16/verifier.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t sector_size;          /* bytes, a size of sizes.h */
    uint8_t porep_id[32];
    fil_api_version_t api_version;
    fil_porep_feature_t feature;
    uint32_t challenges;           /* per partition; 0 = the size's (interactive or NI) count */
    uint8_t replica_id[32], comm_d[32], comm_r[32], seed[32]; /* domain bytes (LE canonical Fr) */
} fil_porep_public_t;

/* Challenges per partition for p (p->challenges, else the size's interactive or NI count); 0 for
 * an unknown size. */
uint32_t fil_porep_public_challenges(const fil_porep_public_t *p);

/* out[0 .. n) with n = 3 + 18 · fil_porep_public_challenges(p): partition k's public inputs.
 * Errors: PM_ERR_ARG (size, n, synthetic PoRep), PM_ERR_ENCODING naming replica_id, comm_d or
 * comm_r when it is not a canonical Fr (>= r), PM_ERR_NOMEM. */
pm_status fil_porep_public_inputs(fr_t *out, size_t n, const fil_porep_public_t *p, uint32_t k, pm_error *err);

/* p from a seal record: replica_id = fil_replica_id(prover_id, sector_id, ticket, comm_d, porep_id). */
void fil_porep_public_from_record(fil_porep_public_t *p, const fil_seal_record_t *r);

/* Verify record r's proof against vk (Filecoin's PoRep .vk of its sector size) with our public
 * inputs, partition by partition. *valid = 1 when all verify. When one does not, why[cap] says
 * which partition and what failed: a proof point that does not decode, or the pairing equation
 * ("partition 3: the Groth16 equation e(A,B) = e(α,β)·e(Σx·IC,γ)·e(C,δ) does not hold"). Errors
 * (the record cannot be checked, *valid = 0): PM_ERR_ARG for synthetic and non-interactive PoRep
 * records (challenges / SnarkPack aggregates that proofmill does not derive or verify), for a vk
 * whose input count is not the circuit's (PM_ERR_MISMATCH), PM_ERR_ENCODING naming the public
 * input (comm_r, comm_d) that is not a canonical Fr. */
pm_status fil_seal_record_verify(int *valid, char *why, size_t cap, const fil_seal_record_t *r, const groth16_vk_t *vk,
                                 pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
