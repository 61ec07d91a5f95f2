/*
 * bucket_tree.c — trees with bucket-constant leaves (bucket_tree.h).
 */
#include "filecoin/bucket_tree.h"

#include <stdlib.h>
#include <string.h>

const uint8_t *fil_tree_node_bucket(const void *tv, unsigned k, uint64_t i) {
    const fil_bucket_tree_t *t = tv;
    if (k <= t->top_uniform) {
        uint64_t b = (i * t->span[k]) >> t->bucket_bits;
        return t->uniform + 32 * (k * t->nbuckets + b);
    }
    return t->level[k] + 32 * i;
}

pm_status fil_bucket_tree_build(fil_bucket_tree_t *t, const fil_tree_shape_t *s, unsigned bucket_bits,
                                const uint8_t *values, pm_error *err) {
    memset(t, 0, sizeof *t);
    t->shape = *s;
    t->bucket_bits = bucket_bits;
    if (bucket_bits >= 64 || (s->leaves & ((1ull << bucket_bits) - 1)))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "bucket tree: 2^%u does not divide %llu leaves",
                            bucket_bits, (unsigned long long)s->leaves);
    uint64_t B = 1ull << bucket_bits;
    t->nbuckets = s->leaves >> bucket_bits;
    t->span[0] = 1;
    for (unsigned k = 0; k < s->nlevels; k++) t->span[k + 1] = t->span[k] * s->level_arity[k];
    while (t->top_uniform < s->nlevels && t->span[t->top_uniform + 1] <= B) t->top_uniform++;
    uint64_t nb = t->nbuckets;
    t->uniform = malloc(32 * nb * (t->top_uniform + 1));
    if (!t->uniform) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "bucket tree: out of memory");
    memcpy(t->uniform, values, 32 * nb);
    uint8_t buf[FIL_MERKLE_MAX_ARITY * 32];
    for (unsigned k = 1; k <= t->top_uniform; k++) {
        unsigned a = s->level_arity[k - 1];
        for (uint64_t b = 0; b < nb; b++) {
            for (unsigned c = 0; c < a; c++) memcpy(buf + 32 * c, t->uniform + 32 * ((k - 1) * nb + b), 32);
            fil_node_hash(t->uniform + 32 * (k * nb + b), s->hasher, buf, a);
        }
    }
    for (unsigned k = t->top_uniform + 1; k <= s->nlevels; k++) {
        uint64_t w = s->leaves / t->span[k];
        unsigned a = s->level_arity[k - 1];
        t->level[k] = malloc(32 * w);
        if (!t->level[k]) {
            fil_bucket_tree_free(t);
            return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "bucket tree: out of memory");
        }
        for (uint64_t j = 0; j < w; j++) {
            for (unsigned c = 0; c < a; c++) memcpy(buf + 32 * c, fil_tree_node_bucket(t, k - 1, j * a + c), 32);
            fil_node_hash(t->level[k] + 32 * j, s->hasher, buf, a);
        }
    }
    return PM_OK;
}

const uint8_t *fil_bucket_tree_root(const fil_bucket_tree_t *t) {
    return fil_tree_node_bucket(t, t->shape.nlevels, 0);
}

void fil_bucket_tree_free(fil_bucket_tree_t *t) {
    free(t->uniform);
    for (unsigned k = 0; k <= FIL_MERKLE_MAX_LEVELS; k++) free(t->level[k]);
    memset(t, 0, sizeof *t);
}
