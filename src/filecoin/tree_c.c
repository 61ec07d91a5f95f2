/* tree_c.c — see tree_c.h (rust-fil-proofs stacked/vanilla/proof.rs generate_tree_c_cpu). */
#include "filecoin/tree_c.h"

#include <string.h>

#include "filecoin/poseidon.h"
#include "util/parallel.h"

void fil_column_hash(uint8_t out[32], const uint8_t (*rows)[32], unsigned layers) {
    fil_poseidon_hash_bytes(out, (const uint8_t *)rows, layers);
}

pm_status fil_tree_c_build(fil_tree_t *t, const fil_tree_shape_t *s, const uint8_t *labels,
                           unsigned layers, pm_error *err) {
    if (layers < 1 || layers > 16)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "tree C: %u layers", layers);
    pm_status st = fil_tree_alloc(t, s, err);
    if (st) return st;
    int64_t nodes = (int64_t)s->leaves;
    uint8_t *leaves = t->level[0];
    PM_OMP(parallel for schedule(static))
    for (int64_t v = 0; v < nodes; v++) {
        uint8_t col[16][32];
        for (unsigned l = 0; l < layers; l++)
            memcpy(col[l], labels + 32 * ((uint64_t)l * (uint64_t)nodes + (uint64_t)v), 32);
        fil_column_hash(leaves + 32 * v, (const uint8_t(*)[32])col, layers);
    }
    fil_tree_build(t);
    return PM_OK;
}
