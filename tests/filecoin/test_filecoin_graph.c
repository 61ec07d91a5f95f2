/*
 * test_filecoin_graph.c — SDR graph: ChaCha block function (RFC 8439 vector), the Feistel round
 * hash against libb2's BLAKE2b-512, Feistel bijectivity and inverse, batched = scalar parents,
 * published sample rows and parent-cache names and digests (POREP.md §3.4: rust-fil-proofs
 * storage-proofs-porep/parent_cache.json) for 2 KiB and 8 MiB, V1_0 and V1_1.
 * The 512 MiB digests are checked by test_filecoin_parent_cache_512 (label "slow").
 */
#include "test_util.h"

#include <blake2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/feistel.h"
#include "filecoin/graph.h"
#include "filecoin/parent_cache.h"
#include "filecoin/sha256_fr.h"
#include "filecoin/sizes.h"

static void test_chacha20_rfc8439(void **st) {
    (void)st;
    /* RFC 8439 §2.3.2: key 00..1f, counter 1, nonce 00:00:00:09:00:00:00:4a:00:00:00:00 */
    uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    for (int i = 0; i < 8; i++)
        in[4 + i] = (uint32_t)(4 * i) | (uint32_t)(4 * i + 1) << 8 | (uint32_t)(4 * i + 2) << 16 |
                    (uint32_t)(4 * i + 3) << 24;
    in[12] = 1;
    in[13] = 0x09000000;
    in[14] = 0x4a000000;
    in[15] = 0;
    static const uint32_t want[16] = {0xe4e7f110, 0x15593bd1, 0x1fdd0f50, 0xc47120a3,
                                      0xc7f4d1c7, 0x0368c033, 0x9aaa2204, 0x4e6cd4c3,
                                      0x466482d2, 0x09aa9f07, 0x05d7c214, 0xa2028bd9,
                                      0xd19c12b5, 0xb94e16de, 0xe883d0cb, 0x4e3c50a2};
    uint32_t out[16];
    fil_chacha_block(out, in, 20);
    assert_memory_equal(out, want, sizeof want);
}

static void test_blake2b_round_hash(void **st) {
    (void)st;
    pm_test_seed();
    for (int i = 0; i < 1000; i++) {
        uint64_t r = pm_rand64(), k = pm_rand64();
        if (i == 0) r = k = 0;
        uint8_t msg[16], dig[64];
        for (int j = 0; j < 8; j++) {
            msg[j] = (uint8_t)(r >> (56 - 8 * j));
            msg[8 + j] = (uint8_t)(k >> (56 - 8 * j));
        }
        assert_int_equal(blake2b(dig, msg, NULL, 64, 16, 0), 0);
        uint64_t want = 0;
        for (int j = 0; j < 8; j++) want = want << 8 | dig[j];
        assert_int_equal(fil_feistel_round_hash(r, k), want);
    }
}

static void test_feistel_permutation(void **st) {
    (void)st;
    pm_test_seed();
    static const uint64_t ns[] = {5, 6, 8, 12, 17, 512, 1000, 8 * 64};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        const uint64_t n = ns[t];
        fil_feistel_t f;
        uint64_t keys[4] = {pm_rand64(), pm_rand64(), pm_rand64(), pm_rand64()};
        fil_feistel_init(&f, n, keys);
        uint8_t *seen = calloc(n, 1);
        uint64_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out);
        for (uint64_t x = 0; x < n; x++) in[x] = x;
        fil_feistel_permute_many(out, in, n, &f);
        for (uint64_t x = 0; x < n; x++) {
            uint64_t y = fil_feistel_permute(&f, x);
            assert_true(y < n);
            assert_int_equal(out[x], y);
            assert_int_equal(seen[y], 0);
            seen[y] = 1;
            assert_int_equal(fil_feistel_invert_permute(&f, y), x);
        }
        fil_feistel_permute_many(in, in, n, &f); /* in place */
        assert_memory_equal(in, out, n * sizeof *in);
        free(seen);
        free(in);
        free(out);
    }
    /* precompute: smallest k >= 1 with 4^k >= n */
    fil_feistel_t f;
    uint64_t keys[4] = {1, 2, 3, 4};
    fil_feistel_init(&f, 1ull << 27, keys);
    assert_int_equal(f.half_bits, 14);
    fil_feistel_init(&f, 1ull << 28, keys);
    assert_int_equal(f.half_bits, 14);
    fil_feistel_init(&f, 2, keys);
    assert_int_equal(f.half_bits, 1);
}

/* POREP.md §3.4 sample rows, 2 KiB, porep id 5 (V1_1); consistent with the published digest. */
static void test_sample_rows_2k(void **st) {
    (void)st;
    static const uint32_t want[4][14] = {
        {0, 0, 0, 0, 0, 0, 4, 9, 60, 1, 14, 26, 26, 4},
        {0, 0, 0, 0, 0, 0, 6, 12, 35, 43, 23, 34, 58, 2},
        {1, 1, 1, 0, 1, 0, 30, 28, 55, 63, 63, 36, 37, 36},
        {62, 15, 42, 62, 61, 62, 0, 15, 30, 30, 28, 42, 49, 38},
    };
    static const uint64_t nodes[4] = {0, 1, 2, 63};
    uint8_t pid[32];
    fil_porep_id(pid, 5);
    fil_graph_t g;
    assert_int_equal(fil_graph_init(&g, 64, pid, FIL_API_V1_1_0, NULL), PM_OK);
    uint32_t all[64 * 14];
    fil_graph_parents_range(all, &g, 0, 64);
    for (int i = 0; i < 4; i++) {
        uint32_t row[14];
        fil_graph_drg_parents(row, &g, nodes[i]);
        fil_graph_exp_parents(row + 6, &g, nodes[i]);
        assert_memory_equal(row, want[i], sizeof row);
        assert_memory_equal(all + 14 * nodes[i], want[i], sizeof row);
    }
    /* V1_0 of the same seed: predecessor moves to the last DRG slot */
    fil_graph_t g0;
    assert_int_equal(fil_graph_init(&g0, 64, pid, FIL_API_V1_0_0, NULL), PM_OK);
    for (uint64_t v = 2; v < 64; v++) {
        uint32_t a[6], b[6];
        fil_graph_drg_parents(a, &g, v);
        fil_graph_drg_parents(b, &g0, v);
        assert_int_equal(a[0], v - 1);
        assert_int_equal(b[5], v - 1);
        assert_memory_equal(a + 1, b, 5 * sizeof *a);
        for (int k = 0; k < 6; k++) assert_true(a[k] < v);
    }
    pm_error err;
    assert_int_equal(fil_graph_init(&g, 1, pid, FIL_API_V1_1_0, &err), PM_ERR_ARG);
    assert_int_equal(fil_graph_init(&g, (1ull << 32) + 1, pid, FIL_API_V1_1_0, &err), PM_ERR_ARG);
}

/* Batched rows = single-node rows on a bigger graph (several slices, cycle walking). */
static void test_batched_rows(void **st) {
    (void)st;
    uint8_t pid[32];
    fil_porep_id(pid, 8);
    fil_graph_t g;
    assert_int_equal(fil_graph_init(&g, 1ull << 30, pid, FIL_API_V1_1_0, NULL), PM_OK);
    enum { N = 300 };
    uint32_t *rows = malloc(N * 14 * sizeof *rows);
    const uint64_t first = (1ull << 30) - N;
    fil_graph_parents_range(rows, &g, first, N);
    for (uint64_t j = 0; j < N; j++) {
        uint32_t r[14];
        fil_graph_drg_parents(r, &g, first + j);
        fil_graph_exp_parents(r + 6, &g, first + j);
        assert_memory_equal(r, rows + 14 * j, sizeof r);
    }
    free(rows);
}

/* V1_0 truncates the permuted index to u32 before dividing by 8, so for 32 GiB (8 * 2^30 = 2^33
 * permuted values) no expander parent lies in the upper half of the layer — the behaviour
 * rust-fil-proofs' graph.rs test `test_graph_distribution_pathology` shows. V1_1 divides in 64
 * bits and reaches the whole layer. Sampled over nodes spread across the layer. */
static void test_v1_0_pathology(void **st) {
    (void)st;
    uint8_t pid0[32], pid1[32];
    fil_porep_id(pid0, 3);
    fil_porep_id(pid1, 8);
    fil_graph_t g0, g1, g1same;
    const uint64_t nodes = 1ull << 30;
    assert_int_equal(fil_graph_init(&g0, nodes, pid0, FIL_API_V1_0_0, NULL), PM_OK);
    assert_int_equal(fil_graph_init(&g1, nodes, pid1, FIL_API_V1_1_0, NULL), PM_OK);
    assert_int_equal(fil_graph_init(&g1same, nodes, pid0, FIL_API_V1_1_0, NULL), PM_OK);
    unsigned upper0 = 0, upper1 = 0, differ = 0;
    for (uint64_t k = 0; k < 2000; k++) {
        uint64_t v = k * (nodes / 2000) + 7;
        uint32_t p0[8], p1[8], q[8];
        fil_graph_exp_parents(p0, &g0, v);
        fil_graph_exp_parents(p1, &g1, v);
        fil_graph_exp_parents(q, &g1same, v);
        for (int i = 0; i < 8; i++) {
            uint64_t e = fil_feistel_permute(&g0.feistel, 8 * v + (uint64_t)i);
            assert_int_equal(p0[i], (uint32_t)e / 8);
            assert_int_equal(q[i], e / 8);
            upper0 += p0[i] >= nodes / 2;
            upper1 += p1[i] >= nodes / 2;
            differ += p0[i] != q[i];
        }
    }
    assert_int_equal(upper0, 0);
    assert_true(upper1 > 6000 && upper1 < 10000); /* about half of 16000 */
    assert_true(differ > 6000);
}

/* Cache names of porep ids 0..9 = the parent_cache.json names mapped in POREP.md §3.4. */
static void test_cache_names(void **st) {
    (void)st;
    for (unsigned id = 0; id < 10; id++) {
        const fil_registered_proof_t *p = fil_registered_proof(id);
        uint8_t pid[32];
        fil_porep_id(pid, id);
        fil_graph_t g;
        assert_int_equal(fil_graph_init(&g, p->sector_size / 32, pid, p->api_version, NULL), PM_OK);
        char name[88];
        fil_parent_cache_name(name, &g);
        if (!fil_parent_cache_published_digest(name)) fail_msg("id %u: name %s not published", id, name);
    }
}

static void check_digest(unsigned id) {
    const fil_registered_proof_t *p = fil_registered_proof(id);
    uint8_t pid[32], d[32];
    fil_porep_id(pid, id);
    fil_graph_t g;
    assert_int_equal(fil_graph_init(&g, p->sector_size / 32, pid, p->api_version, NULL), PM_OK);
    char name[88], hex[65];
    fil_parent_cache_name(name, &g);
    assert_int_equal(fil_parent_cache_generate(d, &g, NULL, NULL, 0, NULL, NULL, NULL), PM_OK);
    fil_hex(hex, d, 32);
    const char *want = fil_parent_cache_published_digest(name);
    assert_non_null(want);
    printf("  id %u %s: %s\n", id, p->name, hex);
    assert_string_equal(hex, want);
}

static void test_digest_2k(void **st) {
    (void)st;
    check_digest(0);
    check_digest(5);
}

static void test_digest_8m(void **st) {
    (void)st;
    check_digest(1);
    check_digest(6);
}

/* The file written equals the streamed digest's content. */
static void test_cache_file(void **st) {
    (void)st;
    uint8_t pid[32], d[32], d2[32];
    fil_porep_id(pid, 5);
    fil_graph_t g;
    assert_int_equal(fil_graph_init(&g, 64, pid, FIL_API_V1_1_0, NULL), PM_OK);
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fil_parent_cache_generate(d, &g, f, "tmp", 1, NULL, NULL, NULL), PM_OK);
    assert_int_equal(ftell(f), 64 * 56);
    rewind(f);
    uint8_t buf[64 * 56];
    assert_int_equal(fread(buf, 1, sizeof buf, f), sizeof buf);
    fclose(f);
    fil_sha256(d2, buf, sizeof buf);
    assert_memory_equal(d, d2, 32);
    /* node 2's row, u32 LE */
    assert_int_equal(buf[2 * 56], 1);
    assert_int_equal(buf[2 * 56 + 4 * 6], 30);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chacha20_rfc8439), cmocka_unit_test(test_blake2b_round_hash),
        cmocka_unit_test(test_feistel_permutation), cmocka_unit_test(test_sample_rows_2k),
        cmocka_unit_test(test_batched_rows),     cmocka_unit_test(test_v1_0_pathology),
        cmocka_unit_test(test_cache_names),
        cmocka_unit_test(test_cache_file),       cmocka_unit_test(test_digest_2k),
        cmocka_unit_test(test_digest_8m),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
