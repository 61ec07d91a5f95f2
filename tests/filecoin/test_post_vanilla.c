/*
 * test_post_vanilla.c — WinningPoSt / WindowPoSt vanilla side over our sealed 2 KiB sectors:
 *  - vanilla proofs (generate_single_vanilla_proof's shape) for WinningPoSt (id 0) and WindowPoSt
 *    V1 (id 5, API V1_0_0) and V1_2 (id 10, V1_2_0), partitions 0 and 3, verify; bincode round trip
 *    byte-identical; requests through proof_request JSON files and back;
 *  - challenge rules: V1_0_0 indices sector_index · 10 + n, V1_2_0 n only (so the same sector in
 *    another partition is challenged at other leaves only under V1_0_0); WinningPoSt's 66 circuit
 *    sectors repeat the one sector with challenge indices 0..65; public inputs equal the proofs'
 *    path indices and comm_r; short partitions repeat the last sector;
 *  - one corruption per field, refused naming sector, challenge and field;
 *  - synthetic 32 GiB / 64 GiB / 512 MiB sector proofs (sparse trees) verify.
 */
#include "test_util.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "post_test_util.h"

#define GiB (1024ull * 1024 * 1024)

static fil_seal_t g_seal[3];

static int setup(void **st) {
    (void)st;
    for (int i = 0; i < 3; i++) pm_test_seal(&g_seal[i], 5, 100 + (uint64_t)i, NULL);
    return 0;
}
static int teardown(void **st) {
    (void)st;
    for (int i = 0; i < 3; i++) fil_seal_free(&g_seal[i]);
    return 0;
}

static void job_ok(fil_post_job_t *j, fil_post_type_t t, const fil_proof_request_t *r) {
    pm_error err;
    if (fil_post_job_init(j, t, r, &err)) fail_msg("job: %s", err.msg);
    if (fil_post_job_verify(j, &err)) fail_msg("verify: %s", err.msg);
}

static void test_prove_verify(void **state) {
    (void)state;
    static const struct {
        unsigned id;
        size_t n;
        uint32_t part;
    } cases[] = {{0, 1, 0}, {5, 2, 0}, {5, 1, 3}, {10, 2, 0}, {10, 2, 7}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        fil_proof_request_t r;
        pm_test_post_request(&r, cases[c].id, g_seal, cases[c].n, 1, cases[c].part);
        fil_post_job_t j;
        fil_post_type_t t = cases[c].id < 5 ? FIL_POST_WINNING : FIL_POST_WINDOW;
        job_ok(&j, t, &r);
        /* bincode round trip */
        for (size_t i = 0; i < r.n_vanilla; i++) {
            uint8_t *b;
            size_t n;
            pm_error err;
            assert_int_equal(fil_post_sector_proof_write(&b, &n, &j.vanilla.proofs[i], &err), PM_OK);
            assert_int_equal(n, r.vanilla_len[i]);
            assert_memory_equal(b, r.vanilla[i], n);
            free(b);
        }
        /* public inputs = comm_r and the proofs' path indices */
        size_t per = 1 + j.cfg.circuit_challenges, nx = per * j.cfg.circuit_sectors;
        fr_t *x = malloc(nx * sizeof *x);
        pm_error err;
        assert_int_equal(fil_post_job_public_inputs(x, nx, &j, &err), PM_OK);
        for (unsigned s = 0; s < j.cfg.circuit_sectors; s++) {
            fr_t cr;
            fil_domain_to_fr(&cr, j.sectors[s].comm_r);
            assert_true(fr_eq(&x[per * s], &cr));
            for (unsigned q = 0; q < j.cfg.circuit_challenges; q++) {
                fr_t li;
                fr_from_u64(&li, fil_merkle_proof_leaf_index(&j.sectors[s].proofs[q]));
                assert_true(fr_eq(&x[per * s + 1 + q], &li));
            }
        }
        if (cases[c].n == 1 && t == FIL_POST_WINDOW) /* padded: sector 1 repeats sector 0 */
            assert_memory_equal(&x[per], &x[0], per * sizeof *x);
        free(x);
        printf("  %s partition %u: %zu sector proofs of %zu bytes verify\n", fil_registered_post(cases[c].id)->name,
               cases[c].part, r.n_vanilla, r.vanilla_len[0]);
        fil_post_job_free(&j);
        fil_proof_request_free(&r);
    }
}

static void test_challenge_rules(void **state) {
    (void)state;
    fil_post_config_t c1, c2, cw;
    pm_error err;
    assert_int_equal(fil_post_config(&c1, 5, &err), PM_OK);
    assert_int_equal(fil_post_config(&c2, 10, &err), PM_OK);
    assert_int_equal(fil_post_config(&cw, 0, &err), PM_OK);
    assert_int_equal(cw.circuit_sectors, 66);
    assert_int_equal(cw.circuit_challenges, 1);
    assert_int_equal(cw.challenge_count, 66);
    assert_int_equal(fil_post_challenge_index(FIL_API_V1_0_0, 3, 10, 4), 34);
    assert_int_equal(fil_post_challenge_index(FIL_API_V1_2_0, 3, 10, 4), 4);
    uint8_t rnd[32];
    pm_test_randomness(rnd, 9);
    uint64_t a[10], b[10];
    fil_post_sector_challenges(a, &c1, rnd, 42, 0);
    fil_post_sector_challenges(b, &c1, rnd, 42, 2349);
    assert_memory_not_equal(a, b, sizeof a);
    fil_post_sector_challenges(a, &c2, rnd, 42, 0);
    fil_post_sector_challenges(b, &c2, rnd, 42, 2349);
    assert_memory_equal(a, b, sizeof a);
    for (int n = 0; n < 10; n++) assert_true(a[n] < 64);
    /* the leaf challenge by hand: SHA-256(randomness ‖ id LE ‖ index LE) mod nodes */
    uint8_t pre[48], h[32];
    memcpy(pre, rnd, 32);
    for (int i = 0; i < 8; i++) pre[32 + i] = (uint8_t)(42ull >> (8 * i)), pre[40 + i] = (uint8_t)(3ull >> (8 * i));
    fil_sha256(h, pre, 48);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | h[i];
    assert_int_equal(fil_post_leaf_challenge(rnd, 42, 3, 64), v % 64);
    /* WinningPoSt sector selection is in range */
    uint8_t pid[32];
    fil_prover_id_from_miner(pid, 1000);
    for (uint64_t n = 0; n < 5; n++) assert_true(fil_winning_post_sector_challenge(rnd, pid, n, 7) < 7);
}

/* corruptions: each one refused, naming what it must */
static void expect_bad(const fil_post_config_t *c, const uint8_t *rnd, fil_post_sector_proof_t *p, size_t n,
                       uint32_t part, pm_status want, const char *n1, const char *n2, const char *what) {
    pm_error err;
    pm_error_clear(&err);
    pm_status st = fil_post_verify(c, rnd, p, n, part, &err);
    printf("  %-26s -> %s\n", what, err.msg);
    if (st != want) fail_msg("%s: status %d, expected %d (%s)", what, st, want, err.msg);
    if (n1 && !strstr(err.msg, n1)) fail_msg("%s: message lacks '%s': %s", what, n1, err.msg);
    if (n2 && !strstr(err.msg, n2)) fail_msg("%s: message lacks '%s': %s", what, n2, err.msg);
}

static void test_corruptions(void **state) {
    (void)state;
    fil_proof_request_t r;
    pm_test_post_request(&r, 5, g_seal, 2, 2, 1);
    fil_post_job_t j;
    job_ok(&j, FIL_POST_WINDOW, &r);
    fil_post_config_t *c = &j.cfg;
    fil_post_sector_proof_t *p = j.vanilla.proofs;
    fil_post_sector_vanilla_t *v = p[1].sectors;
    uint8_t save[32];
#define FLIP(field, byte, n1, n2, what, want)                                                                          \
    do {                                                                                                               \
        memcpy(save, field, 32);                                                                                       \
        (field)[byte] ^= 1;                                                                                            \
        expect_bad(c, j.randomness, p, 2, 1, want, n1, n2, what);                                                      \
        memcpy(field, save, 32);                                                                                       \
    } while (0)
    FLIP(p[1].comm_r, 0, "sector 1 (id 101)", "comm_r", "comm_r", PM_ERR_MISMATCH);
    FLIP(v->comm_c, 5, "sector 1 (id 101)", "comm_r", "comm_c", PM_ERR_MISMATCH);
    FLIP(v->comm_r_last, 9, "sector 1 (id 101)", "comm_r_last differs", "comm_r_last", PM_ERR_MISMATCH);
    FLIP(v->inclusion[4].root, 1, "challenge 4", "root differs from comm_r_last", "inclusion root", PM_ERR_MISMATCH);
    FLIP(v->inclusion[4].leaf, 1, "challenge 4", "inclusion proof", "inclusion leaf", PM_ERR_MISMATCH);
    FLIP(v->inclusion[6].elems[1].hashes[3], 2, "challenge 6", "inclusion proof", "inclusion sibling", PM_ERR_MISMATCH);
    memcpy(save, v->comm_c, 32);
    v->comm_c[31] = 0xff;
    expect_bad(c, j.randomness, p, 2, 1, PM_ERR_ENCODING, "sector 1", "comm_c is not a canonical", "comm_c >= r");
    memcpy(v->comm_c, save, 32);
    v->inclusion[2].elems[0].index ^= 1;
    expect_bad(c, j.randomness, p, 2, 1, PM_ERR_MISMATCH, "challenge 2", "spell node", "inclusion index");
    v->inclusion[2].elems[0].index ^= 1;
    v->inclusion[2].kind = FIL_PROOF_SUB;
    expect_bad(c, j.randomness, p, 2, 1, PM_ERR_MISMATCH, "challenge 2", "kind", "inclusion proof kind");
    v->inclusion[2].kind = FIL_PROOF_SINGLE;
    v->inclusion[2].nbase--;
    expect_bad(c, j.randomness, p, 2, 1, PM_ERR_MISMATCH, "challenge 2", "elements", "inclusion path length");
    v->inclusion[2].nbase++;
    v->n_inclusion--;
    expect_bad(c, j.randomness, p, 2, 1, PM_ERR_MISMATCH, "sector 1", "9 inclusion proofs", "inclusion proof count");
    v->n_inclusion++;
    p[1].n_sectors = 2;
    expect_bad(c, j.randomness, p, 2, 1, PM_ERR_MISMATCH, "sector 1", "vanilla_proof.sectors", "SectorProof count");
    p[1].n_sectors = 1;
    p[1].sector_id++; /* another sector id: other challenges */
    expect_bad(c, j.randomness, p, 2, 1, PM_ERR_MISMATCH, "sector 1 (id 102)", "challenge 0", "sector_id");
    p[1].sector_id--;
    /* the proofs of partition 1 are not those of partition 0 under V1_0_0 */
    expect_bad(c, j.randomness, p, 2, 0, PM_ERR_MISMATCH, "sector 0", "challenge", "partition index");
    uint8_t rnd[32];
    memcpy(rnd, j.randomness, 32);
    rnd[0] ^= 1;
    expect_bad(c, rnd, p, 2, 1, PM_ERR_MISMATCH, "sector 0", "challenge", "randomness");
    rnd[31] = 0xff;
    expect_bad(c, rnd, p, 2, 1, PM_ERR_ENCODING, "randomness", NULL, "randomness >= r");
    expect_bad(c, j.randomness, p, 0, 1, PM_ERR_ARG, "0 vanilla sector proofs", NULL, "no sectors");
    expect_bad(c, j.randomness, p, 2, 1, PM_OK, NULL, NULL, "untouched");
    fil_post_job_free(&j);
    /* a request of the wrong kind or without randomness */
    pm_error err;
    assert_int_equal(fil_post_job_init(&j, FIL_POST_WINNING, &r, &err), PM_ERR_ARG);
    printf("  %s\n", err.msg);
    r.has_randomness = 0;
    assert_int_equal(fil_post_job_init(&j, FIL_POST_WINDOW, &r, &err), PM_ERR_ARG);
    fil_proof_request_free(&r);
    /* WinningPoSt takes one sector */
    pm_test_post_request(&r, 0, g_seal, 2, 2, 0);
    assert_int_equal(fil_post_job_init(&j, FIL_POST_WINNING, &r, &err), PM_ERR_MISMATCH);
    printf("  %s\n", err.msg);
    fil_proof_request_free(&r);
}

static void test_request_files(void **state) {
    (void)state;
    char dir[] = "/tmp/pm_post_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char req[300], van[300];
    snprintf(req, sizeof req, "%s/req.json", dir);
    snprintf(van, sizeof van, "%s/vanilla.json", dir);
    fil_proof_request_t r, r2, r3;
    pm_test_post_request(&r, 10, g_seal, 2, 4, 5);
    pm_error err;
    assert_int_equal(fil_proof_request_write(req, &r, &err), PM_OK);
    assert_int_equal(fil_vanilla_list_write(van, &r, &err), PM_OK);
    if (fil_proof_request_read(&r2, req, &err)) fail_msg("read: %s", err.msg);
    assert_int_equal(r2.kind, FIL_REQ_WINDOW_POST_PARTITION);
    assert_int_equal(r2.registered_proof, 10);
    assert_int_equal(r2.partition_index, 5);
    assert_int_equal(r2.miner_id, 1000);
    assert_memory_equal(r2.randomness, r.randomness, 32);
    assert_int_equal(r2.n_vanilla, r.n_vanilla);
    for (size_t i = 0; i < r.n_vanilla; i++) assert_memory_equal(r2.vanilla[i], r.vanilla[i], r.vanilla_len[i]);
    memset(&r3, 0, sizeof r3);
    if (fil_vanilla_list_read(&r3, van, &err)) fail_msg("vanilla list: %s", err.msg);
    assert_int_equal(r3.n_vanilla, r.n_vanilla);
    assert_memory_equal(r3.vanilla[1], r.vanilla[1], r.vanilla_len[1]);
    fil_post_job_t j;
    job_ok(&j, FIL_POST_WINDOW, &r2);
    fil_post_job_free(&j);
    fil_proof_request_free(&r);
    fil_proof_request_free(&r2);
    fil_proof_request_free(&r3);
    unlink(req);
    unlink(van);
    rmdir(dir);
}

static void test_synthetic(void **state) {
    (void)state;
    static const unsigned ids[] = {3, 13, 4, 9, 2, 12};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        fil_post_config_t c;
        pm_error err;
        assert_int_equal(fil_post_config(&c, ids[i], &err), PM_OK);
        uint8_t rnd[32];
        pm_test_randomness(rnd, 3);
        fil_arena_t a = {0};
        fil_post_sector_proof_t p[3];
        size_t n = c.type == FIL_POST_WINNING ? 1 : c.sector_count < 3 ? c.sector_count : 3;
        for (size_t s = 0; s < n; s++)
            if (fil_post_prove_synthetic(&p[s], &a, &c, 500 + s, 7, rnd,
                                         c.type == FIL_POST_WINNING ? 0 : 2ull * c.sector_count + s, &err))
                fail_msg("synthetic: %s", err.msg);
        if (fil_post_verify(&c, rnd, p, n, 2 * (c.type == FIL_POST_WINDOW), &err))
            fail_msg("%s: %s", fil_registered_post(ids[i])->name, err.msg);
        fil_arena_free(&a);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_challenge_rules), cmocka_unit_test(test_prove_verify),
        cmocka_unit_test(test_corruptions),     cmocka_unit_test(test_request_files),
        cmocka_unit_test(test_synthetic),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
