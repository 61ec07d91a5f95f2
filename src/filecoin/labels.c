/* labels.c — see labels.h (rust-fil-proofs create_label/single.rs). */
#include "filecoin/labels.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/sha256_fr.h"

void fil_label_expand_parents(uint8_t out[37][32], unsigned layer, const uint8_t drg[6][32],
                              const uint8_t exp[8][32]) {
    unsigned base = (layer == 1 || !exp) ? 6 : 14;
    for (unsigned s = 0; s < 37; s++) {
        unsigned i = s % base;
        memcpy(out[s], i < 6 ? drg[i] : exp[i - 6], 32);
    }
}

static void header(uint8_t h[64], const uint8_t replica_id[32], unsigned layer, uint64_t node) {
    memcpy(h, replica_id, 32);
    for (int i = 0; i < 4; i++) h[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; i++) h[36 + i] = (uint8_t)(node >> (56 - 8 * i));
    memset(h + 44, 0, 20);
}

void fil_label_compute(uint8_t out[32], const uint8_t replica_id[32], unsigned layer, uint64_t node,
                       const uint8_t parents37[37][32]) {
    uint8_t h[64];
    header(h, replica_id, layer, node);
    fil_bytes_t parts[2] = {{h, 64}, {parents37, 37 * 32}};
    fil_sha256_parts(out, parts, node ? 2 : 1);
    fil_trim_fr32(out);
}

pm_status fil_label_layer(uint8_t *out, const uint8_t *prev, unsigned layer,
                          const uint8_t replica_id[32], const fil_graph_t *g, pm_error *err) {
    if (layer == 0 || (layer > 1 && !prev))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "labels: layer %u needs the previous layer", layer);
    enum { BATCH = 1 << 16 };
    uint32_t *par = malloc(sizeof(uint32_t) * 14 * BATCH);
    if (!par) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "labels: parent batch");
    uint8_t buf[64 + 37 * 32];
    header(buf, replica_id, layer, 0);
    fil_sha256(out, buf, 64);
    fil_trim_fr32(out);
    unsigned base = layer == 1 ? 6 : 14;
    uint64_t nodes = g->nodes;
    for (uint64_t first = 1; first < nodes; first += BATCH) {
        uint64_t cnt = nodes - first < BATCH ? nodes - first : BATCH;
        fil_graph_parents_range(par, g, first, cnt);
        for (uint64_t k = 0; k < cnt; k++) {
            uint64_t v = first + k;
            const uint32_t *p = par + 14 * k;
            for (int i = 0; i < 8; i++) buf[36 + i] = (uint8_t)(v >> (56 - 8 * i));
            for (unsigned s = 0; s < 37; s++) {
                unsigned i = s % base;
                const uint8_t *src = i < 6 ? out + 32 * (uint64_t)p[i] : prev + 32 * (uint64_t)p[i];
                memcpy(buf + 64 + 32 * s, src, 32);
            }
            fil_sha256(out + 32 * v, buf, sizeof buf);
            fil_trim_fr32(out + 32 * v);
        }
    }
    free(par);
    return PM_OK;
}
