/* tree_r.c — see tree_r.h (rust-fil-proofs stacked/vanilla/encode.rs). */
#include "filecoin/tree_r.h"

#include <string.h>

#include "field/fr.h"
#include "util/parallel.h"

int fil_encode_node(uint8_t out[32], const uint8_t key[32], const uint8_t data[32]) {
    fr_t k, d;
    if (fr_from_le_bytes(&k, key) || fr_from_le_bytes(&d, data)) {
        memset(out, 0, 32);
        return -1;
    }
    fr_add(&k, &k, &d);
    fr_to_le_bytes(out, &k);
    return 0;
}

int fil_decode_node(uint8_t data[32], const uint8_t replica[32], const uint8_t key[32]) {
    fr_t k, r;
    if (fr_from_le_bytes(&k, key) || fr_from_le_bytes(&r, replica)) {
        memset(data, 0, 32);
        return -1;
    }
    fr_sub(&r, &r, &k);
    fr_to_le_bytes(data, &r);
    return 0;
}

pm_status fil_tree_r_build(fil_tree_t *t, const fil_tree_shape_t *s, const uint8_t *key_layer,
                           const uint8_t *data, pm_error *err) {
    pm_status st = fil_tree_alloc(t, s, err);
    if (st) return st;
    int64_t nodes = (int64_t)s->leaves, bad = -1;
    uint8_t *leaves = t->level[0];
    PM_OMP(parallel for schedule(static))
    for (int64_t v = 0; v < nodes; v++)
        if (fil_encode_node(leaves + 32 * v, key_layer + 32 * v, data + 32 * v)) {
            PM_OMP(critical)
            bad = v;
        }
    if (bad >= 0) {
        fil_tree_free(t);
        return pm_error_set(err, PM_ERR_ENCODING, "", (uint64_t)bad * 32,
                            "data node %lld is not a canonical field element", (long long)bad);
    }
    fil_tree_build(t);
    return PM_OK;
}
