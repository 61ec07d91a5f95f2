/*
 * challenges.h — which nodes a PoRep proof opens (StackedDRG interactive and non-interactive).
 *
 * Source: rust-fil-proofs storage-proofs-porep stacked/vanilla/challenges.rs,
 * params.rs `PublicInputs::challenges`; POREP.md §5.
 * Every variant maps a SHA-256 digest, read as a 256-bit LITTLE-endian integer X, to
 * challenge = (X mod (nodes − 1)) + 1, so node 0 is never challenged.
 * Interactive (V1, V1_1, V1_2 without features): for partition k and i < C (challenges per
 *   partition), j = C·k + i as u32; digest = SHA-256(replica_id[32] ‖ seed[32] ‖ j u32 LE).
 * Non-interactive: digest = SHA-256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖
 *   comm_r ‖ j u32 LE).
 * Synthetic PoRep (challenges drawn from a pre-generated synthetic set) is not implemented.
 */
#ifndef PROOFMILL_FILECOIN_CHALLENGES_H
#define PROOFMILL_FILECOIN_CHALLENGES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* (X mod (nodes − 1)) + 1 for the 32-byte little-endian integer X = digest; nodes ≥ 2. */
uint64_t fil_challenge_from_digest(const uint8_t digest[32], uint64_t nodes);

/* out[0..n) = the n interactive challenges of `partition` (n = challenges per partition). */
void fil_challenges_interactive(uint64_t *out, size_t n, uint64_t nodes, const uint8_t replica_id[32],
                                const uint8_t seed[32], unsigned partition);

/* out[0..n) = the n non-interactive challenges of `partition`. */
void fil_challenges_ni(uint64_t *out, size_t n, uint64_t nodes, const uint8_t replica_id[32],
                       const uint8_t comm_r[32], unsigned partition);

#ifdef __cplusplus
}
#endif
#endif
