/*
 * replica_id.h — the replica id of a sector (StackedDRG PoRep).
 *
 * Source: rust-fil-proofs storage-proofs-porep stacked/vanilla/params.rs `generate_replica_id`;
 * POREP.md §4.1. replica_id = trim(SHA-256(prover_id[32] ‖ sector_id as u64 BIG-endian ‖
 * ticket[32] ‖ comm_d[32] ‖ porep_id[32])), trim = byte 31 &= 0x3F (bytes_into_fr_repr_safe), so
 * the result is a canonical Fr in little-endian bytes (a domain value). Never fails.
 */
#ifndef PROOFMILL_FILECOIN_REPLICA_ID_H
#define PROOFMILL_FILECOIN_REPLICA_ID_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void fil_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                    const uint8_t ticket[32], const uint8_t comm_d[32], const uint8_t porep_id[32]);

/* prover_id of a miner actor id as Filecoin (lotus/curio) forms it: the address payload, i.e. the
 * unsigned LEB128 varint of the actor id, zero-padded to 32 bytes (ffiwrapper toProverID). */
void fil_prover_id_from_miner(uint8_t out[32], uint64_t miner_id);

#ifdef __cplusplus
}
#endif
#endif
