/*
 * synth_c1.h — a synthetic, internally consistent C1 for big sector shapes (32 GiB, 64 GiB; any
 * interactive registered proof), made without sealing: for benchmarking C2 only.
 *
 * What is real and what is chosen (so that every check of vanilla_verify.h and every constraint
 * of the C2 circuit holds):
 *   - the sector is a CC sector: all data nodes are 0, so tree D is the all-zero tree and comm_d
 *     = the zero-sector comm_d (POREP.md §4.4). (Data at the challenged nodes cannot be chosen
 *     freely: challenges depend on replica_id, which depends on comm_d.)
 *   - replica_id (§4.1) and the interactive challenges (§5) are derived exactly as for a real
 *     sector from prover_id, sector_id, ticket, seed and the registered proof's porep_id; the
 *     parents come from the real SDR graph (graph.h).
 *   - labels of nodes that are opened but not challenged (parents) are chosen: trim(SHA-256(
 *     "proofmill synthetic label" ‖ ticket ‖ node u64 LE ‖ layer u32 LE)); labels of challenged
 *     nodes are hashed from their parents' labels (labels.h), layer by layer in increasing node
 *     order, so a challenged node that is also another challenge's parent keeps one column.
 *   - trees C and R_last are sparse (merkle.h): every unopened leaf is 0 (so each unopened
 *     subtree is the fixed Poseidon zero-subtree of its height); tree C leaves of opened nodes =
 *     column hashes; tree R_last leaves of challenged nodes = label(L, c) + 0.
 *   - comm_r = Poseidon_2(comm_c, comm_r_last) of those roots.
 * The output carries c1->synthetic = 1, written as "_proofmill_synthetic" in the JSON.
 * Cost: ~(challenges · 15) opened columns · (levels + 1) Poseidon hashes; well under a second
 * for 32 GiB.
 */
#ifndef PROOFMILL_FILECOIN_SYNTH_C1_H
#define PROOFMILL_FILECOIN_SYNTH_C1_H

#include <stdint.h>

#include "filecoin/vanilla_proof.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned registered_proof;  /* an interactive id: 0-9 */
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32], seed[32];
} fil_synth_params_t;

/* Errors: PM_ERR_ARG (unknown or non-interactive registered proof: NI challenges depend on comm_r
 * and synthetic-PoRep ones on a proof file), PM_ERR_NOMEM. */
pm_status fil_synth_c1(fil_c1_t *c1, const fil_synth_params_t *p, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
