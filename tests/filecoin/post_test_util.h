/*
 * post_test_util.h — test inputs for the PoSt and SnapDeals tests (tests/unit/filecoin and
 * tests/unit/circuits): our own sealed sectors (seal.h), their vanilla PoSt proofs and SnapDeals
 * updates, packed into requests exactly as Curio sends them (proof_request.h, bincode blobs).
 * Test code only (cmocka's fail_msg on any error); header-only.
 */
#ifndef PROOFMILL_TESTS_POST_TEST_UTIL_H
#define PROOFMILL_TESTS_POST_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "test_util.h"

#include "filecoin/post.h"
#include "filecoin/proof_request.h"
#include "filecoin/replica_id.h"
#include "filecoin/seal.h"
#include "filecoin/sha256_fr.h"
#include "filecoin/update.h"

/* Seal a CC sector of registered seal proof rp (5 = 2 KiB V1_1, 6 = 8 MiB V1_1) for miner 1000,
 * sector `id`; data NULL = zeros. */
static inline void pm_test_seal(fil_seal_t *s, unsigned rp, uint64_t id, const uint8_t *data) {
    fil_seal_params_t p;
    memset(&p, 0, sizeof p);
    p.registered_proof = rp;
    p.data = data;
    fil_prover_id_from_miner(p.prover_id, 1000);
    p.sector_id = id;
    for (int i = 0; i < 32; i++) p.ticket[i] = (uint8_t)(i * 7 + id);
    p.ticket[31] &= 0x3f;
    pm_error err;
    if (fil_seal_run(s, &p, &err)) fail_msg("seal: %s", err.msg);
}

/* 32 canonical bytes from a tag */
static inline void pm_test_randomness(uint8_t out[32], uint8_t tag) {
    for (int i = 0; i < 32; i++) out[i] = (uint8_t)(tag * 31 + i * 17);
    out[31] &= 0x3f;
}

/* A PoSt request for registered PoSt proof post_id over seals[n] (partition `part` of a
 * WindowPoSt; sector_index = part · sector_count + i), miner 1000. */
static inline void pm_test_post_request(fil_proof_request_t *r, unsigned post_id, const fil_seal_t *seals, size_t n,
                                        uint8_t rand_tag, uint32_t part) {
    memset(r, 0, sizeof *r);
    fil_post_config_t c;
    pm_error err;
    if (fil_post_config(&c, post_id, &err)) fail_msg("config: %s", err.msg);
    r->kind = c.type == FIL_POST_WINNING ? FIL_REQ_WINNING_POST : FIL_REQ_WINDOW_POST_PARTITION;
    r->registered_proof = post_id;
    r->sector_size = c.sector_size;
    r->miner_id = 1000;
    r->partition_index = part;
    r->has_randomness = 1;
    pm_test_randomness(r->randomness, rand_tag);
    for (size_t i = 0; i < n; i++) {
        fil_arena_t a = {0};
        fil_post_sector_proof_t p;
        uint64_t si = c.type == FIL_POST_WINNING ? 0 : (uint64_t)part * c.sector_count + i;
        if (fil_post_prove_seal(&p, &a, &c, &seals[i], r->randomness, si, &err)) fail_msg("prove: %s", err.msg);
        uint8_t *b;
        size_t len;
        if (fil_post_sector_proof_write(&b, &len, &p, &err) || fil_proof_request_add_vanilla(r, b, len, &err))
            fail_msg("write: %s", err.msg);
        free(b);
        fil_arena_free(&a);
    }
}

/* Random fr32-padded data for a sector of `bytes` (malloc'd). */
static inline uint8_t *pm_test_data(uint64_t bytes, uint64_t seed) {
    uint8_t *d = malloc(bytes);
    if (!d) fail_msg("out of memory");
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
    for (uint64_t i = 0; i < bytes; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        d[i] = (uint8_t)x;
    }
    for (uint64_t i = 31; i < bytes; i += 32) d[i] &= 0x3f;
    return d;
}

/* A SnapDeals request for update u (registered update proof id), every partition. */
static inline void pm_test_update_request(fil_proof_request_t *r, const fil_update_t *u, unsigned update_id) {
    memset(r, 0, sizeof *r);
    r->kind = FIL_REQ_SNAP_DEALS_UPDATE;
    r->registered_proof = update_id;
    r->sector_size = u->cfg.sector_size;
    r->has_comm_r_old = r->has_comm_r_new = r->has_comm_d_new = 1;
    memcpy(r->comm_r_old, u->comm_r_old, 32);
    memcpy(r->comm_r_new, u->comm_r_new, 32);
    memcpy(r->comm_d_new, u->comm_d_new, 32);
    pm_error err;
    for (uint32_t k = 0; k < u->cfg.partitions; k++) {
        fil_arena_t a = {0};
        fil_update_partition_proof_t p;
        uint8_t *b;
        size_t len;
        if (fil_update_prove_partition(&p, &a, u, k, &err) || fil_update_partition_proof_write(&b, &len, &p, &err) ||
            fil_proof_request_add_vanilla(r, b, len, &err))
            fail_msg("update partition %u: %s", k, err.msg);
        free(b);
        fil_arena_free(&a);
    }
}

/* Update a sealed sector with random data. */
static inline void pm_test_update(fil_update_t *u, const fil_seal_t *s, uint64_t seed) {
    uint8_t *d = pm_test_data(s->si->sector_size, seed);
    pm_error err;
    if (fil_update_encode(u, s, d, &err)) fail_msg("encode: %s", err.msg);
    free(d);
}

#endif
