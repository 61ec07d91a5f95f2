/* replica_id.c — see replica_id.h (rust-fil-proofs stacked/vanilla/params.rs). */
#include "filecoin/replica_id.h"

#include <string.h>

#include "filecoin/sha256_fr.h"

void fil_replica_id(uint8_t out[32], const uint8_t prover_id[32], uint64_t sector_id,
                    const uint8_t ticket[32], const uint8_t comm_d[32], const uint8_t porep_id[32]) {
    uint8_t sid[8];
    for (int i = 0; i < 8; i++) sid[i] = (uint8_t)(sector_id >> (56 - 8 * i));
    fil_bytes_t parts[5] = {{prover_id, 32}, {sid, 8}, {ticket, 32}, {comm_d, 32}, {porep_id, 32}};
    fil_sha256_parts(out, parts, 5);
    fil_trim_fr32(out);
}

void fil_prover_id_from_miner(uint8_t out[32], uint64_t miner_id) {
    memset(out, 0, 32);
    int i = 0;
    do {
        uint8_t b = miner_id & 0x7F;
        miner_id >>= 7;
        out[i++] = b | (miner_id ? 0x80 : 0);
    } while (miner_id);
}
