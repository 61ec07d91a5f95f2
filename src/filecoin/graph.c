/*
 * graph.c — SDR graph parents (graph.h): ChaCha8 bucket sampling and Feistel expander parents.
 */
#include "filecoin/graph.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "filecoin/sha256_fr.h"

#define ROTL32(x, r) (((x) << (r)) | ((x) >> (32 - (r))))
#define QR(a, b, c, d)                                                                      \
    do {                                                                                    \
        a += b; d ^= a; d = ROTL32(d, 16);                                                  \
        c += d; b ^= c; b = ROTL32(b, 12);                                                  \
        a += b; d ^= a; d = ROTL32(d, 8);                                                   \
        c += d; b ^= c; b = ROTL32(b, 7);                                                   \
    } while (0)

void fil_chacha_block(uint32_t out[16], const uint32_t in[16], unsigned rounds) {
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (unsigned r = 0; r < rounds; r += 2) {
        QR(x[0], x[4], x[8], x[12]);
        QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]);
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]);
        QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++) out[i] = x[i] + in[i];
}

pm_status fil_graph_init(fil_graph_t *g, uint64_t nodes, const uint8_t porep_id[32],
                         fil_api_version_t v, pm_error *err) {
    memset(g, 0, sizeof *g);
    if (nodes < 2 || nodes > (1ull << 32))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "SDR graph: %llu nodes out of range (2 .. 2^32)", (unsigned long long)nodes);
    if (v != FIL_API_V1_0_0 && v != FIL_API_V1_1_0 && v != FIL_API_V1_2_0)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "SDR graph: unknown API version %d", (int)v);
    g->nodes = nodes;
    g->api_version = v;
    memcpy(g->porep_id, porep_id, 32);
    uint8_t s[32];
    fil_derive_porep_domain_seed(s, FIL_DRSAMPLE_DST, porep_id);
    memcpy(g->drg_seed, s, 28);
    uint64_t keys[4];
    fil_feistel_keys(keys, porep_id);
    fil_feistel_init(&g->feistel, FIL_EXP_DEGREE * nodes, keys);
    return PM_OK;
}

/* ChaCha8Rng(seed) as a word stream: constants "expand 32-byte k", key = seed (8 words LE),
 * words 12-13 = block counter (64-bit), 14-15 = stream id 0. */
typedef struct {
    uint32_t in[16], buf[16];
    unsigned idx;
} chacha8_rng_t;

static void rng_init(chacha8_rng_t *r, const uint8_t seed[32]) {
    r->in[0] = 0x61707865u;
    r->in[1] = 0x3320646eu;
    r->in[2] = 0x79622d32u;
    r->in[3] = 0x6b206574u;
    for (int i = 0; i < 8; i++)
        r->in[4 + i] = (uint32_t)seed[4 * i] | (uint32_t)seed[4 * i + 1] << 8 |
                       (uint32_t)seed[4 * i + 2] << 16 | (uint32_t)seed[4 * i + 3] << 24;
    r->in[12] = r->in[13] = r->in[14] = r->in[15] = 0;
    r->idx = 16;
}

static uint32_t rng_u32(chacha8_rng_t *r) {
    if (r->idx == 16) {
        fil_chacha_block(r->buf, r->in, 8);
        if (++r->in[12] == 0) r->in[13]++;
        r->idx = 0;
    }
    return r->buf[r->idx++];
}

static uint64_t rng_u64(chacha8_rng_t *r) {
    uint64_t lo = rng_u32(r);
    return lo | (uint64_t)rng_u32(r) << 32;
}

void fil_graph_drg_parents(uint32_t out[6], const fil_graph_t *g, uint64_t v) {
    if (v < 2) {
        memset(out, 0, 6 * sizeof *out);
        return;
    }
    const uint32_t node = (uint32_t)v;
    uint8_t seed[32];
    memcpy(seed, g->drg_seed, 28);
    for (int i = 0; i < 4; i++) seed[28 + i] = (uint8_t)(node >> (8 * i));
    chacha8_rng_t rng;
    rng_init(&rng, seed);
    const uint64_t m_prime = FIL_BASE_DEGREE - 1;
    const uint64_t meta = (uint64_t)node * m_prime;
    /* f64 as the reference does (meta < 2^54, so the conversion is exact) */
    const uint64_t n_buckets = (uint64_t)ceil(log2((double)meta));
    const unsigned first = g->api_version == FIL_API_V1_0_0 ? 0 : 1;
    for (unsigned k = 0; k < m_prime; k++) {
        uint64_t bucket = rng_u64(&rng) % n_buckets + 1;
        uint64_t hi = bucket >= 64 ? meta : (meta < (1ull << bucket) ? meta : (1ull << bucket));
        uint64_t lo = hi >> 1 > 2 ? hi >> 1 : 2;
        uint64_t dist = lo + rng_u64(&rng) % (hi - lo + 1);
        uint32_t p = (uint32_t)((meta - dist) / m_prime);
        out[first + k] = p == node ? node - 1 : p;
    }
    out[first ? 0 : m_prime] = node - 1;
}

static uint32_t exp_parent(const fil_graph_t *g, uint64_t e) {
    if (g->api_version == FIL_API_V1_0_0) return (uint32_t)e / FIL_EXP_DEGREE;
    return (uint32_t)(e / FIL_EXP_DEGREE);
}

void fil_graph_exp_parents(uint32_t out[8], const fil_graph_t *g, uint64_t v) {
    for (unsigned i = 0; i < FIL_EXP_DEGREE; i++)
        out[i] = exp_parent(g, fil_feistel_permute(&g->feistel, FIL_EXP_DEGREE * v + i));
}

void fil_graph_parents_range(uint32_t *out, const fil_graph_t *g, uint64_t first, uint64_t count) {
    enum { B = 64 };
    uint64_t e[B * FIL_EXP_DEGREE];
    for (uint64_t base = 0; base < count; base += B) {
        uint64_t m = count - base < B ? count - base : B;
        for (uint64_t j = 0; j < m * FIL_EXP_DEGREE; j++) e[j] = FIL_EXP_DEGREE * (first + base) + j;
        fil_feistel_permute_many(e, e, (size_t)(m * FIL_EXP_DEGREE), &g->feistel);
        for (uint64_t j = 0; j < m; j++) {
            uint32_t *row = out + (base + j) * FIL_DEGREE;
            fil_graph_drg_parents(row, g, first + base + j);
            for (unsigned i = 0; i < FIL_EXP_DEGREE; i++)
                row[FIL_BASE_DEGREE + i] = exp_parent(g, e[j * FIL_EXP_DEGREE + i]);
        }
    }
}

int fil_graph_identifier(char *out, size_t cap, uint64_t nodes) {
    return snprintf(out, cap,
                    "stacked_graph::StackedGraph{expansion_degree: %u base_graph: "
                    "drgraph::BucketGraph{size: %llu; degree: %u; hasher: poseidon_hasher} }",
                    FIL_EXP_DEGREE, (unsigned long long)nodes, FIL_BASE_DEGREE);
}
