/*
 * merkle_sha256.c — binary SHA-256 Merkle roots, full trees and paths (tree D); zero-sector comm_d.
 */
#include "filecoin/merkle_sha256.h"

#include <string.h>

#include "filecoin/sha256_fr.h"

static int is_pow2(uint64_t n) { return n && !(n & (n - 1)); }
static unsigned log2u(uint64_t n) { return 63u - (unsigned)__builtin_clzll(n); }

void fil_sha256_root_init(fil_sha256_root_t *s) { memset(s, 0, sizeof *s); }

void fil_sha256_root_push(fil_sha256_root_t *s, const uint8_t *leaves, uint64_t n) {
    for (uint64_t i = 0; i < n; i++) {
        uint8_t cur[32];
        memcpy(cur, leaves + 32 * i, 32);
        /* carry up while the row already holds a pending left node (binary counter) */
        unsigned k = 0;
        uint64_t c = s->count;
        while (c & 1) {
            fil_sha256_node(cur, s->stack[k], cur);
            c >>= 1;
            k++;
        }
        memcpy(s->stack[k], cur, 32);
        s->count++;
    }
}

pm_status fil_sha256_root_final(uint8_t root[32], const fil_sha256_root_t *s, pm_error *err) {
    if (!is_pow2(s->count)) {
        memset(root, 0, 32);
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "SHA-256 tree: %llu leaves is not a power of two",
                            (unsigned long long)s->count);
    }
    memcpy(root, s->stack[log2u(s->count)], 32);
    return PM_OK;
}

pm_status fil_sha256_root(uint8_t root[32], const uint8_t *leaves, uint64_t n, pm_error *err) {
    fil_sha256_root_t s;
    fil_sha256_root_init(&s);
    if (!is_pow2(n)) {
        s.count = n;
        return fil_sha256_root_final(root, &s, err);
    }
    fil_sha256_root_push(&s, leaves, n);
    return fil_sha256_root_final(root, &s, err);
}

pm_status fil_sha256_tree_build(uint8_t *tree, uint64_t n, pm_error *err) {
    if (!is_pow2(n))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "SHA-256 tree: %llu leaves is not a power of two", (unsigned long long)n);
    uint8_t *row = tree;
    for (uint64_t w = n; w > 1; w >>= 1) {
        uint8_t *up = row + 32 * w;
        for (uint64_t i = 0; i < w / 2; i++) fil_sha256_node(up + 32 * i, row + 64 * i, row + 64 * i + 32);
        row = up;
    }
    return PM_OK;
}

pm_status fil_sha256_tree_path(uint8_t *siblings, unsigned depth, const uint8_t *tree, uint64_t n,
                               uint64_t index, pm_error *err) {
    if (!is_pow2(n) || index >= n || depth != log2u(n))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "SHA-256 tree path: n %llu, index %llu, depth %u do not fit",
                            (unsigned long long)n, (unsigned long long)index, depth);
    const uint8_t *row = tree;
    uint64_t w = n, i = index;
    for (unsigned k = 0; k < depth; k++) {
        memcpy(siblings + 32 * k, row + 32 * (i ^ 1), 32);
        row += 32 * w;
        w >>= 1;
        i >>= 1;
    }
    return PM_OK;
}

void fil_sha256_path_root(uint8_t root[32], const uint8_t leaf[32], uint64_t index,
                          const uint8_t *siblings, unsigned depth) {
    uint8_t cur[32];
    memcpy(cur, leaf, 32);
    for (unsigned k = 0; k < depth; k++, index >>= 1) {
        if (index & 1) fil_sha256_node(cur, siblings + 32 * k, cur);
        else fil_sha256_node(cur, cur, siblings + 32 * k);
    }
    memcpy(root, cur, 32);
}

void fil_sha256_zero_root(uint8_t out[32], unsigned k) {
    uint8_t z[32] = {0};
    for (unsigned i = 0; i < k; i++) fil_sha256_node(z, z, z);
    memcpy(out, z, 32);
}

pm_status fil_comm_d_zero(uint8_t out[32], uint64_t sector_size, pm_error *err) {
    if (sector_size < 32 || !is_pow2(sector_size)) {
        memset(out, 0, 32);
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "comm_d: sector size %llu is not a power of two >= 32",
                            (unsigned long long)sector_size);
    }
    fil_sha256_zero_root(out, log2u(sector_size / 32));
    return PM_OK;
}
