/*
 * test_seal_roundtrip.c — seal a 2 KiB sector (zero and random data), make its C1, write the C1
 * JSON, read it back with both readers (jansson and the single-pass reader; both must re-serialise
 * byte-identically), verify every vanilla proof; comm_d of the zero sectors against POREP.md §4.4;
 * dense and sparse trees agree; fr32 padding; challenge derivation. (Corrupted fields:
 * test_c1_corrupt.c; hostile JSON and the envelope: test_c1_hostile.c.)
 * The 8 MiB seal (zero sector, comm_d vs
 * POREP.md §4.4, C1 verified and round-tripped) takes ~20 s on 2 shared cores; PROOFMILL_SEAL_8MIB=0
 * skips it.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c1_read_jansson.h"
#include "filecoin/c1_json.h"
#include "filecoin/challenges.h"
#include "filecoin/merkle.h"
#include "filecoin/merkle_sha256.h"
#include "filecoin/replica_id.h"
#include "filecoin/seal.h"
#include "filecoin/sha256_fr.h"
#include "filecoin/sizes.h"
#include "filecoin/vanilla_verify.h"

static void hex_eq(const uint8_t got[32], const char *want) {
    char h[65];
    fil_hex(h, got, 32);
    if (strcmp(h, want)) fail_msg("got %s\nwant %s", h, want);
}

static void seal_or_fail(fil_seal_t *s, unsigned rp, const uint8_t *data) {
    fil_seal_params_t p;
    memset(&p, 0, sizeof p);
    p.registered_proof = rp;
    p.data = data;
    fil_prover_id_from_miner(p.prover_id, 1000);
    p.sector_id = 7;
    for (int i = 0; i < 32; i++) p.ticket[i] = (uint8_t)(i * 3 + 1);
    p.ticket[31] &= 0x3f;
    pm_error err;
    if (fil_seal_run(s, &p, &err)) fail_msg("seal: %s", err.msg);
}

static void roundtrip(const fil_c1_t *c1) {
    char *j1, *j2, *j3;
    size_t n1, n2, n3;
    pm_error err;
    assert_int_equal(fil_c1_to_json(&j1, &n1, c1, &err), PM_OK);
    fil_c1_t a, b;
    if (fil_c1_from_json_jansson(&a, j1, n1, "mem", &err)) fail_msg("jansson: %s", err.msg);
    if (fil_c1_from_json(&b, j1, n1, "mem", &err)) fail_msg("fast: %s", err.msg);
    assert_int_equal(fil_c1_to_json(&j2, &n2, &a, &err), PM_OK);
    assert_int_equal(fil_c1_to_json(&j3, &n3, &b, &err), PM_OK);
    assert_int_equal(n1, n2);
    assert_int_equal(n1, n3);
    assert_memory_equal(j1, j2, n1);
    assert_memory_equal(j1, j3, n1);
    fil_verify_failure_t w;
    if (fil_c1_verify(&a, &w, &err)) fail_msg("verify after read: %s", err.msg);
    assert_int_equal(a.synthetic, c1->synthetic);
    fil_c1_free(&a);
    fil_c1_free(&b);
    free(j1);
    free(j2);
    free(j3);
}

static void test_seal_2kib_zero(void **st) {
    (void)st;
    fil_seal_t s;
    seal_or_fail(&s, 5, NULL); /* StackedDrg2KiBV1_1 */
    hex_eq(s.comm_d, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
    uint8_t z[32];
    pm_error err;
    assert_int_equal(fil_comm_d_zero(z, 2048, &err), PM_OK);
    assert_memory_equal(z, s.comm_d, 32);
    uint8_t seed[32];
    for (int i = 0; i < 32; i++) seed[i] = (uint8_t)(200 - i);
    fil_c1_t c1;
    if (fil_c1_from_seal(&c1, &s, seed, &err)) fail_msg("C1: %s", err.msg);
    assert_int_equal(c1.partitions, 1);
    assert_int_equal(c1.challenges, 2);
    fil_verify_failure_t w;
    if (fil_c1_verify(&c1, &w, &err)) fail_msg("verify: %s", err.msg);
    roundtrip(&c1);
    fil_c1_free(&c1);
    fil_seal_free(&s);
}

static void test_seal_2kib_random_all_versions(void **st) {
    (void)st;
    pm_test_seed();
    uint8_t raw[2032], data[2048];
    pm_rand_bytes(raw, sizeof raw);
    fil_fr32_pad(data, raw, sizeof raw);
    unsigned ids[] = {0, 5}; /* V1 and V1_1 graphs */
    for (unsigned t = 0; t < 2; t++) {
        fil_seal_t s;
        seal_or_fail(&s, ids[t], data);
        /* tree D root equals the primitives' streaming root */
        uint8_t r[32];
        pm_error err;
        assert_int_equal(fil_sha256_root(r, data, 64, &err), PM_OK);
        assert_memory_equal(r, s.comm_d, 32);
        uint8_t seed[32];
        pm_rand_bytes(seed, 32);
        fil_c1_t c1;
        if (fil_c1_from_seal(&c1, &s, seed, &err)) fail_msg("C1: %s", err.msg);
        if (fil_c1_verify(&c1, NULL, &err)) fail_msg("verify (id %u): %s", ids[t], err.msg);
        roundtrip(&c1);
        fil_c1_free(&c1);
        fil_seal_free(&s);
    }
}

/* Non-interactive PoRep (id 15, 2 KiB): 13 partitions x 2 challenges derived from comm_r. */
static void test_seal_2kib_ni(void **st) {
    (void)st;
    fil_seal_t s;
    seal_or_fail(&s, 15, NULL);
    uint8_t seed[32] = {0};
    fil_c1_t c1;
    pm_error err;
    if (fil_c1_from_seal(&c1, &s, seed, &err)) fail_msg("C1: %s", err.msg);
    assert_int_equal(c1.partitions, 13);
    assert_int_equal(c1.challenges, 2);
    if (fil_c1_verify(&c1, NULL, &err)) fail_msg("verify: %s", err.msg);
    roundtrip(&c1);
    c1.comm_r[0] ^= 1; /* NI challenges hash comm_r: they all move */
    assert_int_equal(fil_c1_verify(&c1, NULL, &err), PM_ERR_UNSATISFIED);
    fil_c1_free(&c1);
    fil_seal_free(&s);
}

static void test_fr32_pad(void **st) {
    (void)st;
    uint8_t in[127], out[128];
    memset(in, 0xff, sizeof in);
    fil_fr32_pad(out, in, sizeof in);
    for (int q = 0; q < 4; q++) {
        for (int j = 0; j < 31; j++) assert_int_equal(out[32 * q + j], 0xff);
        assert_int_equal(out[32 * q + 31], 0x3f);
    }
    /* one set bit at input bit 254 moves to output bit 256 (the next node's bit 0) */
    memset(in, 0, sizeof in);
    in[31] = 0x40;
    fil_fr32_pad(out, in, sizeof in);
    assert_int_equal(out[31], 0);
    assert_int_equal(out[32], 1);
}

/* Dense and sparse trees give the same root and proofs (sparse with every leaf set). */
static void test_sparse_matches_dense(void **st) {
    (void)st;
    pm_test_seed();
    fil_tree_shape_t s;
    pm_error err;
    unsigned shapes[][3] = {{8, 0, 0}, {8, 2, 0}, {8, 8, 0}, {8, 8, 2}};
    for (unsigned t = 0; t < 4; t++) {
        uint64_t leaves = 64ull * (shapes[t][1] ? shapes[t][1] : 1) * (shapes[t][2] ? shapes[t][2] : 1);
        assert_int_equal(fil_tree_shape_init(&s, leaves, FIL_HASHER_POSEIDON, shapes[t][0], shapes[t][1],
                                             shapes[t][2], &err), PM_OK);
        fil_tree_t d;
        assert_int_equal(fil_tree_alloc(&d, &s, &err), PM_OK);
        fil_sparse_node_t *sp = calloc(leaves, sizeof *sp);
        uint8_t def[32] = {0};
        for (uint64_t i = 0; i < leaves; i++) {
            pm_rand_bytes(d.level[0] + 32 * i, 32);
            d.level[0][32 * i + 31] &= 0x3f;
            if (i % 3 == 0) memset(d.level[0] + 32 * i, 0, 32); /* some leaves equal the default */
            sp[i].idx = leaves - 1 - i;
            memcpy(sp[i].v, d.level[0] + 32 * i, 32);
        }
        for (uint64_t i = 0; i < leaves; i++) memcpy(sp[i].v, d.level[0] + 32 * sp[i].idx, 32);
        fil_tree_build(&d);
        fil_sparse_tree_t sparse;
        /* only the non-default leaves: the rest come from the default chain */
        size_t m = 0;
        for (uint64_t i = 0; i < leaves; i++)
            if (sp[i].idx % 3) sp[m++] = sp[i];
        assert_int_equal(fil_sparse_tree_build(&sparse, &s, sp, m, def, &err), PM_OK);
        assert_memory_equal(fil_tree_root(&d), fil_sparse_tree_root(&sparse), 32);
        fil_path_elem_t e1[FIL_MERKLE_MAX_LEVELS], e2[FIL_MERKLE_MAX_LEVELS];
        for (uint64_t i = 0; i < leaves; i += 7) {
            fil_merkle_proof_t p1, p2;
            assert_int_equal(fil_tree_prove(&p1, e1, &d, i, &err), PM_OK);
            assert_int_equal(fil_sparse_tree_prove(&p2, e2, &sparse, i, &err), PM_OK);
            assert_memory_equal(e1, e2, sizeof(e1[0]) * s.nlevels);
            assert_memory_equal(p1.leaf, p2.leaf, 32);
            if (fil_merkle_proof_check(&p1, &s, i, &err)) fail_msg("shape %u leaf %llu: %s", t, (unsigned long long)i, err.msg);
            assert_int_equal(fil_merkle_proof_leaf_index(&p1), i);
            p1.elems[s.nlevels - 1].hashes[0][0] ^= 1;
            assert_int_equal(fil_merkle_proof_check(&p1, &s, i, &err), PM_ERR_MISMATCH);
        }
        free(sp);
        fil_sparse_tree_free(&sparse);
        fil_tree_free(&d);
    }
}

static void test_challenges(void **st) {
    (void)st;
    /* (X mod (n-1)) + 1 on a digest whose LE integer is known: X = 2^255 + 5 */
    uint8_t d[32] = {5};
    d[31] = 0x80;
    /* 2^255 mod 63 = 2^(255 mod 6) = 2^3 = 8 (2^6 = 64 ≡ 1), so X mod 63 = 13 */
    assert_int_equal(fil_challenge_from_digest(d, 64), 14);
    uint8_t rid[32] = {1}, seed[32] = {2};
    uint64_t c[18];
    fil_challenges_interactive(c, 18, 1ull << 30, rid, seed, 3);
    for (int i = 0; i < 18; i++) assert_true(c[i] >= 1 && c[i] < (1ull << 30));
    /* partition 3's challenges are j = 54..71 of the same sequence */
    uint64_t all[72];
    for (unsigned k = 0; k < 4; k++) fil_challenges_interactive(all + 18 * k, 18, 1ull << 30, rid, seed, k);
    assert_memory_equal(all + 54, c, sizeof c);
}

static void test_seal_8mib(void **st) {
    (void)st;
    const char *e = getenv("PROOFMILL_SEAL_8MIB");
    if (e && !strcmp(e, "0")) {
        printf("8 MiB seal skipped (PROOFMILL_SEAL_8MIB=0)\n");
        skip();
    }
    fil_seal_t s;
    seal_or_fail(&s, 6, NULL);
    hex_eq(s.comm_d, "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c");
    uint8_t seed[32] = {9};
    fil_c1_t c1;
    pm_error err;
    if (fil_c1_from_seal(&c1, &s, seed, &err)) fail_msg("C1: %s", err.msg);
    if (fil_c1_verify(&c1, NULL, &err)) fail_msg("verify: %s", err.msg);
    roundtrip(&c1);
    fil_c1_free(&c1);
    fil_seal_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fr32_pad),
        cmocka_unit_test(test_challenges),
        cmocka_unit_test(test_sparse_matches_dense),
        cmocka_unit_test(test_seal_2kib_zero),
        cmocka_unit_test(test_seal_2kib_random_all_versions),
        cmocka_unit_test(test_seal_2kib_ni),
        cmocka_unit_test(test_seal_8mib),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
