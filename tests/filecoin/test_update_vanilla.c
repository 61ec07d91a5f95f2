/*
 * test_update_vanilla.c — SnapDeals vanilla side:
 *  - challenges against rust-fil-proofs storage-proofs-update src/challenges.rs
 *    test_challenges_against_hardcoded (comm_r_new = the first Fr drawn from XorShiftRng seeded with
 *    TEST_SEED; the first 5 challenges of partitions 0, 1, 14, 15 for every size we have) — this also
 *    pins the gen-randomness Poseidon (custom domain tag 2^40) — and the bucketing property of
 *    test_challenge_bucketing (every challenge of partition k lies in the k-th slice);
 *  - a real update of our sealed 2 KiB sector (random data): every partition proof verifies,
 *    survives a bincode round trip, and the decoding relation holds (8 MiB: test_circuits_kinds_8m);
 *  - one corruption per field of a partition proof, each refused naming partition, challenge, field;
 *  - synthetic 512 MiB / 32 GiB updates (bucket trees) verify for their first and last partitions.
 */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

#include "post_test_util.h"

#include "filecoin/bincode.h"
#include "filecoin/tree_r.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

/* rand_xorshift 0.3 XorShiftRng and blstrs 0.7 Scalar::random, as rust-fil-proofs' tests draw */
typedef struct {
    uint32_t x, y, z, w;
} xorshift_t;
static uint32_t xs_u32(xorshift_t *r) {
    uint32_t t = r->x ^ (r->x << 11);
    r->x = r->y;
    r->y = r->z;
    r->z = r->w;
    r->w = r->w ^ (r->w >> 19) ^ (t ^ (t >> 8));
    return r->w;
}
static uint64_t xs_u64(xorshift_t *r) {
    uint64_t lo = xs_u32(r), hi = xs_u32(r);
    return (hi << 32) | lo;
}
static void random_domain(uint8_t out[32], xorshift_t *r) {
    for (;;) {
        uint64_t l[4];
        for (int i = 0; i < 4; i++) l[i] = xs_u64(r);
        l[3] &= UINT64_MAX >> 1; /* REPR_SHAVE_BITS */
        for (int i = 0; i < 32; i++) out[i] = (uint8_t)(l[i / 8] >> (8 * (i % 8)));
        fr_t x;
        if (!fil_domain_to_fr(&x, out)) return;
    }
}

static void test_challenge_vectors(void **state) {
    (void)state;
    static const uint8_t seed[16] = {0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d,
                                     0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5};
    xorshift_t r;
    memcpy(&r, seed, 16); /* le::read_u32_into on a little-endian machine */
    uint32_t s32[4];
    for (int i = 0; i < 4; i++) s32[i] = (uint32_t)seed[4 * i] | (uint32_t)seed[4 * i + 1] << 8 |
                                      (uint32_t)seed[4 * i + 2] << 16 | (uint32_t)seed[4 * i + 3] << 24;
    r.x = s32[0], r.y = s32[1], r.z = s32[2], r.w = s32[3];
    uint8_t comm_r_new[32];
    random_domain(comm_r_new, &r);
    static const struct {
        uint64_t size;
        uint32_t k;
        uint32_t c[5];
    } v[] = {
        {2 * KiB, 0, {53, 51, 56, 3, 0}},
        {4 * KiB, 0, {117, 25, 62, 0, 72}},
        {16 * KiB, 0, {245, 140, 15, 128, 28}},
        {16 * KiB, 1, {286, 308, 493, 510, 508}},
        {32 * KiB, 0, {245, 454, 3, 400, 193}},
        {32 * KiB, 1, {542, 666, 955, 927, 911}},
        {8 * MiB, 0, {36085, 32783, 44060, 10950, 3731}},
        {8 * MiB, 1, {78878, 130797, 112892, 93994, 78379}},
        {16 * MiB, 0, {101621, 16391, 109319, 25944, 41193}},
        {16 * MiB, 1, {209950, 163702, 175679, 224741, 197410}},
        {512 * MiB, 0, {1019125, 116736, 706220, 59698, 799498}},
        {512 * MiB, 1, {2092548, 1213276, 1185483, 1164598, 1095197}},
        {512 * MiB, 14, {15212432, 15665918, 15015423, 15012912, 15495223}},
        {512 * MiB, 15, {16388544, 15794686, 16637142, 16319148, 16328348}},
        {32 * GiB, 0, {1019125, 27985696, 15282860, 11586600, 44651330}},
        {32 * GiB, 1, {109168525, 127316247, 80331041, 97065716, 72310052}},
        {32 * GiB, 14, {990420169, 955146989, 968005601, 976863263, 944650706}},
        {32 * GiB, 15, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
        {64 * GiB, 0, {1019125, 13992848, 3820715, 18225541, 57316660}},
        {64 * GiB, 1, {243386253, 197875851, 204632136, 171516766, 247789010}},
        {64 * GiB, 14, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
        {64 * GiB, 15, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        fil_update_config_t c;
        pm_error err;
        assert_int_equal(fil_update_config(&c, v[i].size, &err), PM_OK);
        uint32_t ch[86];
        assert_int_equal(fil_update_challenges(ch, &c, comm_r_new, v[i].k, &err), PM_OK);
        for (int q = 0; q < 5; q++)
            if (ch[q] != v[i].c[q])
                fail_msg("size %llu k %u challenge %d: %u, rust-fil-proofs %u", (unsigned long long)v[i].size, v[i].k, q,
                         ch[q], v[i].c[q]);
    }
    /* bucketing: partition k's challenges lie in [k · N/partitions, (k+1) · N/partitions) */
    static const uint64_t sizes[] = {2 * KiB, 4 * KiB, 16 * KiB, 32 * KiB, 8 * MiB, 16 * MiB, 512 * MiB, 32 * GiB, 64 * GiB};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        fil_update_config_t c;
        pm_error err;
        assert_int_equal(fil_update_config(&c, sizes[i], &err), PM_OK);
        for (uint32_t k = 0; k < c.partitions; k++) {
            uint32_t ch[86];
            assert_int_equal(fil_update_challenges(ch, &c, comm_r_new, k, &err), PM_OK);
            for (unsigned q = 0; q < c.challenges; q++) assert_int_equal(ch[q] >> c.rand_bits, k);
        }
        assert_int_equal(fil_update_challenges(NULL, &c, comm_r_new, c.partitions, &err), PM_ERR_ARG);
    }
}

/* every partition verifies; bincode round trip is byte-identical */
static void verify_all(const fil_update_t *u) {
    for (uint32_t k = 0; k < u->cfg.partitions; k++) {
        fil_arena_t a = {0}, b = {0};
        fil_update_partition_proof_t p, q;
        pm_error err;
        uint8_t *bin, *bin2;
        size_t n, n2;
        if (fil_update_prove_partition(&p, &a, u, k, &err)) fail_msg("prove %u: %s", k, err.msg);
        if (fil_update_verify(&u->cfg, u->comm_r_old, u->comm_d_new, u->comm_r_new, k, &p, &err))
            fail_msg("verify %u: %s", k, err.msg);
        assert_int_equal(fil_update_partition_proof_write(&bin, &n, &p, &err), PM_OK);
        if (fil_update_partition_proof_read(&q, &b, bin, n, "mem", &err)) fail_msg("read: %s", err.msg);
        assert_int_equal(fil_update_partition_proof_write(&bin2, &n2, &q, &err), PM_OK);
        assert_int_equal(n, n2);
        assert_memory_equal(bin, bin2, n);
        if (fil_update_verify(&u->cfg, u->comm_r_old, u->comm_d_new, u->comm_r_new, k, &q, &err))
            fail_msg("verify re-read %u: %s", k, err.msg);
        if (k == 0) printf("  %llu bytes: partition proof %zu bytes\n", (unsigned long long)u->cfg.sector_size, n);
        free(bin);
        free(bin2);
        fil_arena_free(&a);
        fil_arena_free(&b);
    }
}

static void test_update_2k(void **state) {
    (void)state;
    fil_seal_t s;
    pm_test_seal(&s, 5, 3, NULL);
    fil_update_t u;
    pm_test_update(&u, &s, 11);
    assert_memory_equal(u.comm_r_old, s.comm_r, 32);
    assert_memory_not_equal(u.comm_r_new, s.comm_r, 32);
    verify_all(&u);
    /* decoding: (new − key) / rho = data at every node */
    uint8_t *d = pm_test_data(2048, 11);
    fr_t rho[2];
    fil_update_rho(&rho[0], u.phi, 0);
    fil_update_rho(&rho[1], u.phi, 1);
    for (uint64_t i = 0; i < 64; i++) {
        uint8_t out[32];
        fr_t x, r;
        assert_int_equal(fil_decode_node(out, u.dense_r.level[0] + 32 * i, s.tree_r.level[0] + 32 * i), 0);
        fil_domain_to_fr(&x, out);
        fr_inv_vartime(&r, &rho[i >> 5]);
        fr_mul(&x, &x, &r);
        fil_fr_to_domain(out, &x);
        assert_memory_equal(out, d + 32 * i, 32);
    }
    free(d);
    fil_update_free(&u);
    fil_seal_free(&s);
}

static void test_synthetic(void **state) {
    (void)state;
    const uint64_t sizes[] = {512 * MiB, 32 * GiB};
    for (int i = 0; i < 2; i++) {
        fil_update_t u;
        pm_error err;
        if (fil_update_synthetic(&u, sizes[i], 5, &err)) fail_msg("synthetic: %s", err.msg);
        uint32_t ks[2] = {0, u.cfg.partitions - 1};
        for (int q = 0; q < 2; q++) {
            fil_arena_t a = {0};
            fil_update_partition_proof_t p;
            if (fil_update_prove_partition(&p, &a, &u, ks[q], &err)) fail_msg("prove: %s", err.msg);
            if (fil_update_verify(&u.cfg, u.comm_r_old, u.comm_d_new, u.comm_r_new, ks[q], &p, &err))
                fail_msg("verify %llu k %u: %s", (unsigned long long)sizes[i], ks[q], err.msg);
            fil_arena_free(&a);
        }
        fil_update_free(&u);
    }
}

/* ---- corruptions ---- */
static fil_update_t g_u;
static fil_seal_t g_s;

static void expect_bad(fil_update_partition_proof_t *p, pm_status want, const char *n1, const char *n2, const char *what) {
    pm_error err;
    pm_error_clear(&err);
    pm_status st = fil_update_verify(&g_u.cfg, g_u.comm_r_old, g_u.comm_d_new, g_u.comm_r_new, 0, p, &err);
    printf("  %-28s -> %s\n", what, err.msg);
    if (st != want) fail_msg("%s: status %d, expected %d (%s)", what, st, want, err.msg);
    if (n1 && !strstr(err.msg, n1)) fail_msg("%s: message lacks '%s': %s", what, n1, err.msg);
    if (n2 && !strstr(err.msg, n2)) fail_msg("%s: message lacks '%s': %s", what, n2, err.msg);
}

static void fresh(fil_update_partition_proof_t *p, fil_arena_t *a) {
    pm_error err;
    fil_arena_free(a);
    if (fil_update_prove_partition(p, a, &g_u, 0, &err)) fail_msg("prove: %s", err.msg);
}

static void test_corruptions(void **state) {
    (void)state;
    pm_test_seal(&g_s, 5, 9, NULL);
    pm_test_update(&g_u, &g_s, 21);
    fil_arena_t a = {0};
    fil_update_partition_proof_t p;
    fresh(&p, &a);
    expect_bad(&p, PM_OK, NULL, NULL, "untouched");
    p.comm_c[0] ^= 1;
    expect_bad(&p, PM_ERR_MISMATCH, "partition 0", "comm_r_old", "comm_c");
    fresh(&p, &a);
    p.comm_c[31] = 0xff;
    expect_bad(&p, PM_ERR_ENCODING, "partition 0", "comm_c", "comm_c >= r");
    fresh(&p, &a);
    p.apex_leafs[5][3] ^= 1;
    expect_bad(&p, PM_ERR_MISMATCH, "apex", NULL, "apex_leafs[5]");
    fresh(&p, &a);
    p.n_apex--;
    expect_bad(&p, PM_ERR_MISMATCH, "apex_leafs", NULL, "apex leaf count");
    fresh(&p, &a);
    p.n_challenges--;
    expect_bad(&p, PM_ERR_MISMATCH, "challenge_proofs", NULL, "challenge count");
    fresh(&p, &a);
    p.challenges[4].r_old.leaf[0] ^= 1;
    expect_bad(&p, PM_ERR_MISMATCH, "challenge 4", "proof_r_old", "proof_r_old.leaf");
    fresh(&p, &a);
    p.challenges[4].r_old.elems[1].hashes[2][7] ^= 1;
    expect_bad(&p, PM_ERR_MISMATCH, "challenge 4", "proof_r_old", "proof_r_old sibling");
    fresh(&p, &a);
    p.challenges[2].r_old.root[0] ^= 1;
    expect_bad(&p, PM_ERR_MISMATCH, "challenge 2", "proof_r_old", "proof_r_old.root");
    fresh(&p, &a);
    p.challenges[3].r_old.elems[0].index ^= 1;
    expect_bad(&p, PM_ERR_MISMATCH, "challenge 3", "proof_r_old", "proof_r_old index");
    fresh(&p, &a);
    p.challenges[6].d_new.leaf[1] ^= 1;
    expect_bad(&p, PM_ERR_MISMATCH, "challenge 6", "proof_d_new", "proof_d_new.leaf");
    fresh(&p, &a);
    p.challenges[6].d_new.elems[4].hashes[0][0] ^= 1;
    expect_bad(&p, PM_ERR_MISMATCH, "challenge 6", "proof_d_new", "proof_d_new sibling");
    fresh(&p, &a);
    p.challenges[6].d_new.nbase--;
    expect_bad(&p, PM_ERR_MISMATCH, "challenge 6", "proof_d_new", "proof_d_new level count");
    fresh(&p, &a);
    p.challenges[7].r_new.leaf[2] ^= 1;
    expect_bad(&p, PM_ERR_MISMATCH, "challenge 7", "proof_r_new", "proof_r_new.leaf");
    fresh(&p, &a);
    p.challenges[8].r_new.kind = FIL_PROOF_SUB;
    expect_bad(&p, PM_ERR_MISMATCH, "challenge 8", "proof_r_new", "proof_r_new kind");
    fresh(&p, &a);
    /* another sector's valid proof: right shape, wrong commitments */
    fil_update_t other;
    fil_seal_t s2;
    pm_test_seal(&s2, 5, 10, NULL);
    pm_test_update(&other, &s2, 22);
    fil_arena_t b = {0};
    fil_update_partition_proof_t q;
    pm_error err;
    assert_int_equal(fil_update_prove_partition(&q, &b, &other, 0, &err), PM_OK);
    expect_bad(&q, PM_ERR_MISMATCH, "partition 0", NULL, "another sector's proof");
    /* a partition out of range, and the request's commitments */
    assert_int_equal(fil_update_verify(&g_u.cfg, g_u.comm_r_old, g_u.comm_d_new, g_u.comm_r_new, 1, &p, &err), PM_ERR_ARG);
    uint8_t bad[32];
    memcpy(bad, g_u.comm_d_new, 32);
    bad[0] ^= 1;
    assert_int_equal(fil_update_verify(&g_u.cfg, g_u.comm_r_old, bad, g_u.comm_r_new, 0, &p, &err), PM_ERR_MISMATCH);
    printf("  %-28s -> %s\n", "comm_d_new of the request", err.msg);
    fil_arena_free(&a);
    fil_arena_free(&b);
    fil_update_free(&other);
    fil_seal_free(&s2);
    fil_update_free(&g_u);
    fil_seal_free(&g_s);
}

/* the request path: job from a request, job verify, public inputs */
static void test_job(void **state) {
    (void)state;
    fil_seal_t s;
    pm_test_seal(&s, 5, 12, NULL);
    fil_update_t u;
    pm_test_update(&u, &s, 31);
    fil_proof_request_t r;
    pm_test_update_request(&r, &u, 0);
    fil_update_job_t j;
    pm_error err;
    if (fil_update_job_init(&j, &r, &err) || fil_update_job_verify(&j, &err)) fail_msg("job: %s", err.msg);
    fr_t x[4], want;
    assert_int_equal(fil_update_public_inputs(x, &j.cfg, j.comm_r_old, j.comm_d_new, j.comm_r_new, 0, &err), PM_OK);
    fr_from_u64(&want, 8); /* k = 0, h_select = 2^3, no partition bits at 2 KiB */
    assert_true(fr_eq(&x[0], &want));
    fil_update_job_free(&j);
    r.registered_proof = 7;
    assert_int_equal(fil_update_job_init(&j, &r, &err), PM_ERR_ARG);
    r.registered_proof = 1; /* 8 MiB: 4 partitions, one proof given */
    r.sector_size = 0;
    assert_int_equal(fil_update_job_init(&j, &r, &err), PM_ERR_MISMATCH);
    printf("  %s\n", err.msg);
    fil_proof_request_free(&r);
    fil_update_free(&u);
    fil_seal_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_challenge_vectors), cmocka_unit_test(test_update_2k),
        cmocka_unit_test(test_corruptions),       cmocka_unit_test(test_job),
        cmocka_unit_test(test_synthetic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
