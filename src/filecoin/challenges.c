/* challenges.c — see challenges.h (rust-fil-proofs stacked/vanilla/challenges.rs). */
#include "filecoin/challenges.h"

#include <string.h>

#include "filecoin/sha256_fr.h"

uint64_t fil_challenge_from_digest(const uint8_t digest[32], uint64_t nodes) {
    uint64_t m = nodes - 1, r = 0;
    /* Horner from the most significant limb: r = (r·2^64 + limb) mod m. */
    for (int l = 3; l >= 0; l--) {
        uint64_t limb = 0;
        for (int b = 7; b >= 0; b--) limb = (limb << 8) | digest[8 * l + b];
        r = (uint64_t)((((unsigned __int128)r << 64) | limb) % m);
    }
    return r + 1;
}

static void le32(uint8_t o[4], uint32_t v) {
    for (int i = 0; i < 4; i++) o[i] = (uint8_t)(v >> (8 * i));
}

void fil_challenges_interactive(uint64_t *out, size_t n, uint64_t nodes, const uint8_t replica_id[32],
                                const uint8_t seed[32], unsigned partition) {
    for (size_t i = 0; i < n; i++) {
        uint8_t j[4], d[32];
        le32(j, (uint32_t)(n * partition + i));
        fil_bytes_t parts[3] = {{replica_id, 32}, {seed, 32}, {j, 4}};
        fil_sha256_parts(d, parts, 3);
        out[i] = fil_challenge_from_digest(d, nodes);
    }
}

void fil_challenges_ni(uint64_t *out, size_t n, uint64_t nodes, const uint8_t replica_id[32],
                       const uint8_t comm_r[32], unsigned partition) {
    static const char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
    for (size_t i = 0; i < n; i++) {
        uint8_t j[4], d[32];
        le32(j, (uint32_t)(n * partition + i));
        fil_bytes_t parts[4] = {{tag, sizeof tag - 1}, {replica_id, 32}, {comm_r, 32}, {j, 4}};
        fil_sha256_parts(d, parts, 4);
        out[i] = fil_challenge_from_digest(d, nodes);
    }
}
