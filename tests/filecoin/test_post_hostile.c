/*
 * test_post_hostile.c — hostile inputs to the PoSt / SnapDeals readers (label hostile: also run
 * under ASan + UBSan by scripts/test.sh): bincode FallbackPoStSectorProof and PartitionProof blobs
 * truncated at every byte, with huge Vec lengths, wrong enum tags, too many siblings or levels,
 * trailing bytes, random mutations; request / vanilla-list JSON of the wrong shape; base64.
 * Every refusal is PM_ERR_FORMAT (files: PM_ERR_IO) and names the offset or the field.
 */
#include "test_util.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "post_test_util.h"

#include "util/base64.h"

static uint8_t *g_post, *g_upd;
static size_t g_post_n, g_upd_n;

static int setup(void **st) {
    (void)st;
    fil_seal_t s;
    pm_test_seal(&s, 5, 1, NULL);
    fil_proof_request_t r;
    pm_test_post_request(&r, 5, &s, 1, 1, 0);
    g_post_n = r.vanilla_len[0];
    g_post = malloc(g_post_n);
    memcpy(g_post, r.vanilla[0], g_post_n);
    fil_proof_request_free(&r);
    fil_update_t u;
    pm_test_update(&u, &s, 3);
    pm_test_update_request(&r, &u, 0);
    g_upd_n = r.vanilla_len[0];
    g_upd = malloc(g_upd_n);
    memcpy(g_upd, r.vanilla[0], g_upd_n);
    fil_proof_request_free(&r);
    fil_update_free(&u);
    fil_seal_free(&s);
    return 0;
}
static int teardown(void **st) {
    (void)st;
    free(g_post);
    free(g_upd);
    return 0;
}

static pm_status read_post(const uint8_t *b, size_t n, pm_error *err) {
    fil_arena_t a = {0};
    fil_post_sector_proof_t p;
    pm_status st = fil_post_sector_proof_read(&p, &a, b, n, "blob", err);
    fil_arena_free(&a);
    return st;
}
static pm_status read_upd(const uint8_t *b, size_t n, pm_error *err) {
    fil_arena_t a = {0};
    fil_update_partition_proof_t p;
    pm_status st = fil_update_partition_proof_read(&p, &a, b, n, "blob", err);
    fil_arena_free(&a);
    return st;
}
static int mut_post(const uint8_t *b, size_t n) {
    pm_error e;
    return read_post(b, n, &e);
}
static int mut_upd(const uint8_t *b, size_t n) {
    pm_error e;
    return read_upd(b, n, &e);
}

typedef pm_status (*reader_fn)(const uint8_t *, size_t, pm_error *);

static void expect(reader_fn rd, const uint8_t *b, size_t n, uint64_t off, const char *needle, const char *what) {
    pm_error err;
    pm_error_clear(&err);
    pm_status st = rd(b, n, &err);
    char buf[1200];
    printf("  %-30s -> %s\n", what, pm_error_format(&err, buf, sizeof buf));
    if (st != PM_ERR_FORMAT) fail_msg("%s: status %d (%s)", what, st, err.msg);
    if (off != PM_NO_OFFSET && err.offset != off) fail_msg("%s: offset %llu, expected %llu", what,
                                                           (unsigned long long)err.offset, (unsigned long long)off);
    if (needle && !strstr(err.msg, needle)) fail_msg("%s: message lacks '%s': %s", what, needle, err.msg);
    if (strcmp(err.file, "blob")) fail_msg("%s: file '%s'", what, err.file);
}

static void patch64(uint8_t *dst, const uint8_t *src, size_t n, size_t at, uint64_t v) {
    memcpy(dst, src, n);
    pm_put_le64(dst + at, v);
}

static void test_truncated(void **state) {
    (void)state;
    pm_error err;
    assert_int_equal(read_post(g_post, g_post_n, &err), PM_OK);
    assert_int_equal(read_upd(g_upd, g_upd_n, &err), PM_OK);
    size_t bad = 0;
    for (size_t n = 0; n < g_post_n; n++) {
        pm_status st = read_post(g_post, n, &err);
        if (st != PM_ERR_FORMAT || err.offset > n || (!strstr(err.msg, "truncated") && !strstr(err.msg, "length"))) bad++;
    }
    for (size_t n = 0; n < g_upd_n; n++) {
        pm_status st = read_upd(g_upd, n, &err);
        if (st != PM_ERR_FORMAT || err.offset > n || (!strstr(err.msg, "truncated") && !strstr(err.msg, "length"))) bad++;
    }
    printf("  every truncation of a %zu-byte PoSt blob and a %zu-byte update blob refused\n", g_post_n, g_upd_n);
    assert_int_equal(bad, 0);
    expect(read_post, g_post, 17, 8, "truncated", "truncated comm_r");
    expect(read_upd, g_upd, 100, 32, "apex_leafs: length 8 needs", "truncated apex_leafs");
}

static void test_lengths_tags(void **state) {
    (void)state;
    size_t n = g_post_n + 1;
    uint8_t *m = malloc(n + 8);
    /* PoSt: sector_id 0..8, comm_r 8..40, sectors len 40, inclusion len 48, first proof tag 56,
     * root 60, leaf 92, base path len 124, first element's hashes len 132 */
    patch64(m, g_post, g_post_n, 40, 1ull << 62);
    expect(read_post, m, g_post_n, 40, "vanilla_proof.sectors: length", "huge sectors length");
    patch64(m, g_post, g_post_n, 48, UINT64_MAX);
    expect(read_post, m, g_post_n, 48, "inclusion_proofs: length", "huge inclusion_proofs length");
    patch64(m, g_post, g_post_n, 124, 41);
    expect(read_post, m, g_post_n, 124, "at most 40", "41 path levels");
    patch64(m, g_post, g_post_n, 124, 1ull << 40);
    expect(read_post, m, g_post_n, 124, "length", "huge path length");
    patch64(m, g_post, g_post_n, 132, 8);
    expect(read_post, m, g_post_n, 132, "at most 7", "8 siblings");
    memcpy(m, g_post, g_post_n);
    pm_put_le32(m + 56, 3);
    expect(read_post, m, g_post_n, 56, "enum variant 3", "ProofData tag 3");
    pm_put_le32(m + 56, 0xffffffffu);
    expect(read_post, m, g_post_n, 56, "enum variant", "ProofData tag 2^32-1");
    memcpy(m, g_post, g_post_n);
    m[g_post_n] = 0;
    expect(read_post, m, n, g_post_n, "1 trailing bytes", "one trailing byte");
    /* a Sub tag over a Single body: the reader follows the tag and runs out or into nonsense */
    memcpy(m, g_post, g_post_n);
    pm_put_le32(m + 56, 1);
    expect(read_post, m, g_post_n, PM_NO_OFFSET, NULL, "Sub tag on a Single proof");
    free(m);
    /* update: comm_c 0..32, apex len 32, apex 40..296, challenge_proofs len 296, r_old tag 304 */
    m = malloc(g_upd_n + 8);
    patch64(m, g_upd, g_upd_n, 32, 1ull << 59);
    expect(read_upd, m, g_upd_n, 32, "apex_leafs: length", "huge apex_leafs length");
    patch64(m, g_upd, g_upd_n, 296, 1ull << 50);
    expect(read_upd, m, g_upd_n, 296, "challenge_proofs: length", "huge challenge_proofs length");
    memcpy(m, g_upd, g_upd_n);
    pm_put_le32(m + 304, 7);
    expect(read_upd, m, g_upd_n, 304, "proof_r_old: ProofData: enum variant 7", "proof_r_old tag 7");
    memcpy(m, g_upd, g_upd_n);
    m[g_upd_n] = 1;
    m[g_upd_n + 1] = 2;
    expect(read_upd, m, g_upd_n + 2, g_upd_n, "2 trailing bytes", "two trailing bytes");
    free(m);
    pm_test_seed();
    pm_test_mutations(g_post, g_post_n, pm_test_iters(3000), mut_post);
    pm_test_mutations(g_upd, g_upd_n, pm_test_iters(1000), mut_upd);
}

/* Found while fuzzing the vanilla readers (tests/fuzz, docs/fuzzing.md; the fuzzer's RSS limit did
 * not see it: under ASan the arena's untouched pages never become resident): every MerkleProof
 * took FIL_MERKLE_MAX_LEVELS path elements (9.6 KB) of arena whatever its path length, so a blob of
 * 76-byte empty Single proofs reserved 126 times its size (a 64 MiB vanilla input: 8 GB). The
 * arena now holds at most 5 times the bytes read, and a path element without siblings (arity 1:
 * 16 bytes read, 240 held) is refused. */
static void expect_bounded(fil_arena_t *a, size_t n, const char *what) {
    printf("  %s in %zu bytes: %zu bytes of arena\n", what, n, a->total);
    if (a->total > 5 * n) fail_msg("%s: arena %zu bytes for a %zu-byte blob (more than 5x)", what, a->total, n);
    fil_arena_free(a);
}

static void test_arena_bound(void **state) {
    (void)state;
    enum { N = 20000, PROOF = 4 + 64 + 8 };
    /* PoSt: sector_id, comm_r, 1 sector of N empty Single proofs, comm_c, comm_r_last */
    size_t n = 8 + 32 + 8 + 8 + (size_t)N * PROOF + 64;
    uint8_t *b = calloc(1, n);
    pm_put_le64(b + 40, 1);
    pm_put_le64(b + 48, N);
    fil_arena_t a = {0};
    fil_post_sector_proof_t p;
    pm_error err;
    assert_int_equal(fil_post_sector_proof_read(&p, &a, b, n, "blob", &err), PM_OK);
    expect_bounded(&a, n, "empty inclusion proofs");
    free(b);
    /* SnapDeals: comm_c, no apex leaf, N challenges of three empty Single proofs */
    n = 32 + 8 + 8 + (size_t)N * 3 * PROOF;
    b = calloc(1, n);
    pm_put_le64(b + 40, N);
    fil_update_partition_proof_t u;
    assert_int_equal(fil_update_partition_proof_read(&u, &a, b, n, "blob", &err), PM_OK);
    expect_bounded(&a, n, "empty challenge proofs");
    free(b);
    /* a path element with no sibling hash (first element of the first proof's base path) */
    uint8_t *m = malloc(g_post_n);
    patch64(m, g_post, g_post_n, 132, 0);
    expect(read_post, m, g_post_n, 132, "no sibling hashes", "a path element of arity 1");
    free(m);
}

/* a mutated blob the reader accepts must not crash the verifier or the circuit's arrangement */
static void test_accepted_mutants(void **state) {
    (void)state;
    fil_post_config_t c;
    pm_error err;
    assert_int_equal(fil_post_config(&c, 5, &err), PM_OK);
    uint8_t rnd[32];
    pm_test_randomness(rnd, 1);
    uint8_t *m = malloc(g_post_n);
    size_t accepted = 0;
    for (size_t it = 0; it < pm_test_iters(2000); it++) {
        memcpy(m, g_post, g_post_n);
        m[pm_rand64() % g_post_n] ^= (uint8_t)(1 + pm_rand64() % 255);
        fil_arena_t a = {0};
        fil_post_sector_proof_t p;
        if (!fil_post_sector_proof_read(&p, &a, m, g_post_n, "m", &err)) {
            accepted++;
            (void)fil_post_verify(&c, rnd, &p, 1, 0, &err);
            fil_post_circuit_sector_t cs[2];
            (void)fil_post_arrange(cs, &c, &p, 1, &err);
        }
        fil_arena_free(&a);
    }
    printf("  %zu mutants parsed; verifier and arrangement survived them\n", accepted);
    free(m);
}

static const char *write_tmp(const char *dir, const char *name, const char *text) {
    static char path[400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void expect_req(const char *path, pm_status want, const char *needle) {
    fil_proof_request_t r;
    pm_error err;
    pm_error_clear(&err);
    pm_status st = fil_proof_request_read(&r, path, &err);
    char buf[1200];
    printf("  -> %s\n", pm_error_format(&err, buf, sizeof buf));
    if (st != want) fail_msg("status %d, expected %d (%s)", st, want, err.msg);
    if (needle && !strstr(err.msg, needle)) fail_msg("message lacks '%s': %s", needle, err.msg);
    if (!st) fil_proof_request_free(&r);
}

static void test_request_json(void **state) {
    (void)state;
    char dir[] = "/tmp/pm_posth_XXXXXX";
    assert_non_null(mkdtemp(dir));
    expect_req(write_tmp(dir, "a.json", "[1,2]"), PM_ERR_FORMAT, "JSON object");
    expect_req(write_tmp(dir, "b.json", "{not json"), PM_ERR_FORMAT, "not JSON");
    expect_req(write_tmp(dir, "c.json", "{\"registered_proof\": 5}"), PM_ERR_FORMAT, "vanilla_proofs is missing");
    expect_req(write_tmp(dir, "d.json", "{\"vanilla_proofs\": [\"AAA*\"]}"), PM_ERR_FORMAT, "vanilla_proofs[0]");
    expect_req(write_tmp(dir, "e.json", "{\"vanilla_proofs\": [3]}"), PM_ERR_FORMAT, "base64");
    expect_req(write_tmp(dir, "f.json", "{\"vanilla_proofs\": {}}"), PM_ERR_FORMAT, "array");
    expect_req(write_tmp(dir, "g.json", "{\"vanilla_proofs\": [], \"randomness\": \"AAAA\"}"), PM_ERR_FORMAT,
               "randomness: 3 bytes, expected 32");
    expect_req(write_tmp(dir, "h.json", "{\"vanilla_proofs\": [], \"registeredProof\": -1}"), PM_ERR_FORMAT,
               "registered_proof");
    expect_req(write_tmp(dir, "i.json", "{\"vanilla_proofs\": [], \"miner_id\": \"12x\"}"), PM_ERR_FORMAT, "decimal");
    expect_req(write_tmp(dir, "j.json", "{\"vanilla_proofs\": [], \"proof_kind\": \"POREP\"}"), PM_ERR_FORMAT, "proof_kind");
    expect_req(write_tmp(dir, "k.json", "{\"vanilla_proofs\": [], \"partition_index\": 4294967296}"), PM_ERR_FORMAT,
               "out of range");
    expect_req(write_tmp(dir, "l.json", "{\"vanilla_proofs\": [], \"miner_id\": \"1000\", \"proofKind\": 3}"), PM_OK, NULL);
    expect_req(dir, PM_ERR_IO, "not a regular file");
    char fifo[400];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    expect_req(fifo, PM_ERR_IO, "not a regular file");
    expect_req("/nonexistent/req.json", PM_ERR_IO, "cannot open");
    unlink(fifo);
    const char *names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"};
    for (size_t i = 0; i < 12; i++) {
        char p[400];
        snprintf(p, sizeof p, "%s/%s.json", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncated), cmocka_unit_test(test_lengths_tags), cmocka_unit_test(test_accepted_mutants),
        cmocka_unit_test(test_arena_bound),
        cmocka_unit_test(test_request_json),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
