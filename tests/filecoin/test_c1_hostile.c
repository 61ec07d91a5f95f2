/*
 * test_c1_hostile.c — hostile C1 JSON against both readers (jansson tree walk and the single-pass
 * reader): wrong types, missing fields, wrong lengths, huge arrays, wrong sector size, wrong
 * MerkleProof variant, duplicates, truncation, trailing bytes, a bad lotus-bench envelope, and
 * random byte mutations (no crash; when both readers accept, they agree). Every rejection must be
 * PM_ERR_FORMAT (envelope size: PM_ERR_MISMATCH) with a message naming the JSON path. Runs under
 * ASan in CI (label hostile).
 */
#include "test_util.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "c1_read_jansson.h"
#include "filecoin/c1_json.h"
#include "filecoin/replica_id.h"
#include "filecoin/seal.h"

static char *g_json;
static size_t g_len;

static int setup(void **st) {
    (void)st;
    fil_seal_params_t p;
    memset(&p, 0, sizeof p);
    p.registered_proof = 5;
    fil_prover_id_from_miner(p.prover_id, 1);
    fil_seal_t s;
    fil_c1_t c1;
    pm_error err;
    uint8_t seed[32] = {1};
    if (fil_seal_run(&s, &p, &err) || fil_c1_from_seal(&c1, &s, seed, &err) ||
        fil_c1_to_json(&g_json, &g_len, &c1, &err))
        return -1;
    fil_c1_free(&c1);
    fil_seal_free(&s);
    return 0;
}

static int teardown(void **st) {
    (void)st;
    free(g_json);
    return 0;
}

/* Both readers must reject buf with status want and a message containing every needle. */
static void expect_both(const char *buf, size_t len, pm_status want, const char *n1, const char *n2) {
    for (int r = 0; r < 2; r++) { /* 0: the jansson reference reader (c1_read_jansson.h), 1: the library's */
        fil_c1_t c1;
        pm_error err;
        pm_error_clear(&err);
        pm_status st = r ? fil_c1_from_json(&c1, buf, len, "hostile.json", &err)
                         : fil_c1_from_json_jansson(&c1, buf, len, "hostile.json", &err);
        printf("  [%s] %s\n", r ? "fast" : "jansson", err.msg);
        if (st != want) fail_msg("reader %d: status %d, expected %d (%s)", r, st, want, err.msg);
        if (n1 && !strstr(err.msg, n1)) fail_msg("reader %d: message lacks '%s': %s", r, n1, err.msg);
        if (n2 && !strstr(err.msg, n2)) fail_msg("reader %d: message lacks '%s': %s", r, n2, err.msg);
        assert_null(c1.proofs);
    }
}

static json_t *doc(void) {
    json_error_t je;
    json_t *j = json_loadb(g_json, g_len, 0, &je);
    assert_non_null(j);
    return j;
}

static json_t *proof(json_t *d, size_t k, size_t i) {
    return json_array_get(json_array_get(json_object_get(json_object_get(d, "vanilla_proofs"), "StackedDrg2KiBV1"), k), i);
}

static void check_doc(json_t *d, pm_status want, const char *n1, const char *n2) {
    char *s = json_dumps(d, JSON_COMPACT | JSON_PRESERVE_ORDER);
    expect_both(s, strlen(s), want, n1, n2);
    free(s);
    json_decref(d);
}

static json_t *domain_n(size_t n, int v) {
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++) json_array_append_new(a, json_integer(v));
    return a;
}

static void test_wrong_types(void **st) {
    (void)st;
    json_t *d = doc();
    json_object_set_new(d, "registered_proof", json_integer(5));
    check_doc(d, PM_ERR_FORMAT, "registered_proof", "expected a string");
    d = doc();
    json_object_set_new(d, "registered_proof", json_string("StackedDrg3KiBV1"));
    check_doc(d, PM_ERR_FORMAT, "registered_proof", "unknown value");
    d = doc();
    json_object_set_new(d, "comm_r", json_string("abc"));
    check_doc(d, PM_ERR_FORMAT, "comm_r", "expected an array of 32 integers");
    d = doc();
    json_array_set_new(json_object_get(d, "replica_id"), 3, json_integer(256));
    check_doc(d, PM_ERR_FORMAT, "replica_id", "byte 3");
    d = doc();
    json_array_set_new(json_object_get(d, "replica_id"), 0, json_integer(-1));
    check_doc(d, PM_ERR_FORMAT, "replica_id", "byte 0");
    d = doc();
    json_array_set_new(json_object_get(d, "ticket"), 5, json_real(1.5));
    check_doc(d, PM_ERR_FORMAT, "ticket", "byte 5");
    d = doc();
    json_object_set_new(json_array_get(json_object_get(proof(d, 0, 1), "labeling_proofs"), 1), "node", json_string("x"));
    check_doc(d, PM_ERR_FORMAT, "labeling_proofs[1].node", "unsigned integer");
    d = doc();
    json_t *pe = json_array_get(json_object_get(json_object_get(json_object_get(json_object_get(proof(d, 0, 0), "comm_d_proofs"), "data"), "Single"), "path"), 0);
    /* "path" is an object {"path": [...]} */
    pe = json_array_get(json_object_get(json_object_get(json_object_get(json_object_get(json_object_get(proof(d, 0, 0), "comm_d_proofs"), "data"), "Single"), "path"), "path"), 2);
    json_object_set_new(pe, "index", json_integer(-1));
    check_doc(d, PM_ERR_FORMAT, "comm_d_proofs.data.Single.path.path[2].index", NULL);
    d = doc();
    json_object_set_new(json_object_get(proof(d, 0, 0), "replica_column_proofs"), "c_x", json_true());
    check_doc(d, PM_ERR_FORMAT, "replica_column_proofs.c_x", "expected an object");
    d = json_array();
    check_doc(d, PM_ERR_FORMAT, "expected an object", NULL);
}

static void test_missing_fields(void **st) {
    (void)st;
    json_t *d = doc();
    json_object_del(proof(d, 0, 1), "comm_d_proofs");
    check_doc(d, PM_ERR_FORMAT, "missing field \"comm_d_proofs\"", "[0][1]");
    d = doc();
    json_object_del(d, "seed");
    check_doc(d, PM_ERR_FORMAT, "missing field \"seed\"", NULL);
    d = doc();
    json_object_del(json_object_get(json_object_get(proof(d, 0, 0), "replica_column_proofs"), "c_x"), "inclusion_proof");
    check_doc(d, PM_ERR_FORMAT, "missing field \"inclusion_proof\"", "c_x");
    d = doc();
    json_object_del(json_object_get(proof(d, 0, 0), "encoding_proof"), "layer_index");
    check_doc(d, PM_ERR_FORMAT, "missing field \"layer_index\"", "encoding_proof");
    d = doc();
    json_object_del(d, "vanilla_proofs");
    check_doc(d, PM_ERR_FORMAT, "missing field \"vanilla_proofs\"", NULL);
}

static void test_wrong_lengths(void **st) {
    (void)st;
    json_t *d = doc();
    json_object_set_new(d, "seed", domain_n(31, 1));
    check_doc(d, PM_ERR_FORMAT, "seed", "expected 32 bytes, found 31");
    d = doc();
    json_object_set_new(d, "ticket", domain_n(33, 1));
    check_doc(d, PM_ERR_FORMAT, "ticket", "expected 32 bytes");
    d = doc();
    json_array_remove(json_object_get(json_object_get(proof(d, 0, 1), "replica_column_proofs"), "drg_parents"), 0);
    check_doc(d, PM_ERR_FORMAT, "drg_parents", "expected 6, found 5");
    d = doc();
    json_t *rows = json_object_get(json_object_get(json_array_get(json_object_get(json_object_get(proof(d, 0, 1), "replica_column_proofs"), "exp_parents"), 3), "column"), "rows");
    json_array_append_new(rows, domain_n(32, 0));
    check_doc(d, PM_ERR_FORMAT, "exp_parents[3].column.rows", "expected 2 rows, found 3");
    d = doc();
    json_array_remove(json_object_get(json_array_get(json_object_get(proof(d, 0, 0), "labeling_proofs"), 0), "parents"), 36);
    check_doc(d, PM_ERR_FORMAT, "labeling_proofs[0].parents", "expected 37 parents, found 36");
    d = doc();
    json_array_remove(json_object_get(json_object_get(json_object_get(json_object_get(json_object_get(proof(d, 0, 0), "comm_d_proofs"), "data"), "Single"), "path"), "path"), 5);
    check_doc(d, PM_ERR_FORMAT, "comm_d_proofs", "path has 5 elements, the sector's tree needs 6");
    d = doc();
    json_t *el = json_array_get(json_object_get(json_object_get(json_object_get(json_object_get(json_object_get(proof(d, 0, 0), "comm_r_last_proof"), "data"), "Single"), "path"), "path"), 1);
    json_array_remove(json_object_get(el, "hashes"), 0);
    check_doc(d, PM_ERR_FORMAT, "comm_r_last_proof", "path element 1 has 6 hashes, expected 7");
    d = doc();
    json_array_remove(json_object_get(proof(d, 0, 0), "labeling_proofs"), 1);
    check_doc(d, PM_ERR_FORMAT, "labeling_proofs", "expected 2 (one per layer), found 1");
    d = doc();
    json_t *parts = json_object_get(json_object_get(d, "vanilla_proofs"), "StackedDrg2KiBV1");
    json_array_remove(json_array_get(parts, 0), 1);
    check_doc(d, PM_ERR_FORMAT, "1 challenges", "has 2 per partition");
    d = doc();
    parts = json_object_get(json_object_get(d, "vanilla_proofs"), "StackedDrg2KiBV1");
    json_array_append_new(parts, json_array());
    check_doc(d, PM_ERR_FORMAT, "vanilla_proofs", "partition 0 has");
    d = doc();
    json_array_clear(json_object_get(json_object_get(d, "vanilla_proofs"), "StackedDrg2KiBV1"));
    check_doc(d, PM_ERR_FORMAT, "vanilla_proofs", "partitions");
}

static void test_huge_arrays(void **st) {
    (void)st;
    json_t *d = doc();
    json_t *el = json_array_get(json_object_get(json_object_get(json_object_get(json_object_get(json_object_get(proof(d, 0, 0), "comm_r_last_proof"), "data"), "Single"), "path"), "path"), 0);
    json_t *hs = json_object_get(el, "hashes");
    for (int i = 0; i < 20000; i++) json_array_append_new(hs, domain_n(32, 7));
    check_doc(d, PM_ERR_FORMAT, "comm_r_last_proof.data.Single.path.path[0].hashes", NULL);
    d = doc();
    json_t *rows = json_object_get(json_object_get(json_object_get(json_object_get(proof(d, 0, 0), "replica_column_proofs"), "c_x"), "column"), "rows");
    for (int i = 0; i < 100000; i++) json_array_append_new(rows, json_integer(0));
    check_doc(d, PM_ERR_FORMAT, "c_x.column.rows", NULL);
    d = doc();
    json_t *parts = json_object_get(json_object_get(d, "vanilla_proofs"), "StackedDrg2KiBV1");
    for (int i = 0; i < 5000; i++) json_array_append_new(parts, json_array());
    check_doc(d, PM_ERR_FORMAT, "vanilla_proofs.StackedDrg2KiBV1", NULL);
    d = doc();
    json_t *lps = json_object_get(proof(d, 0, 0), "labeling_proofs");
    for (int i = 0; i < 3000; i++) json_array_append_new(lps, json_object());
    check_doc(d, PM_ERR_FORMAT, "labeling_proofs", NULL);
    /* a 20-digit number where a u32 index goes */
    d = doc();
    json_object_set_new(json_object_get(json_object_get(json_object_get(proof(d, 0, 0), "replica_column_proofs"), "c_x"), "column"), "index", json_integer(4294967296LL));
    check_doc(d, PM_ERR_FORMAT, "c_x.column.index", "out of range");
}

static void test_wrong_sector_size(void **st) {
    (void)st;
    json_t *d = doc();
    json_object_set_new(d, "registered_proof", json_string("StackedDrg8MiBV1_1"));
    check_doc(d, PM_ERR_FORMAT, "does not match registered_proof", "StackedDrg8MiBV1");
    d = doc();
    json_object_set_new(d, "registered_proof", json_string("StackedDrg8MiBV1_1"));
    json_t *vp = json_object_get(d, "vanilla_proofs");
    json_object_set(vp, "StackedDrg8MiBV1", json_object_get(vp, "StackedDrg2KiBV1"));
    json_object_del(vp, "StackedDrg2KiBV1");
    check_doc(d, PM_ERR_FORMAT, "comm_d_proofs", "path has 6 elements, the sector's tree needs 18");
    d = doc();
    json_object_set_new(d, "registered_proof", json_string("StackedDrg32GiBV1_1"));
    vp = json_object_get(d, "vanilla_proofs");
    json_object_set(vp, "StackedDrg32GiBV1", json_object_get(vp, "StackedDrg2KiBV1"));
    json_object_del(vp, "StackedDrg2KiBV1");
    check_doc(d, PM_ERR_FORMAT, "1 partitions", "StackedDrg32GiBV1_1 has 10");
    /* Sub variant where the 2 KiB tree needs Single */
    d = doc();
    json_t *data = json_object_get(json_object_get(proof(d, 0, 0), "comm_r_last_proof"), "data");
    json_t *single = json_object_get(data, "Single");
    json_t *sub = json_object();
    json_object_set(sub, "base_proof", json_object_get(single, "path"));
    json_t *sp = json_object();
    json_object_set_new(sp, "path", json_array());
    json_object_set_new(sub, "sub_proof", sp);
    json_object_set(sub, "root", json_object_get(single, "root"));
    json_object_set(sub, "leaf", json_object_get(single, "leaf"));
    json_object_del(data, "Single");
    json_object_set_new(data, "Sub", sub);
    check_doc(d, PM_ERR_FORMAT, "comm_r_last_proof", "variant Sub, the sector's tree needs Single");
    d = doc();
    data = json_object_get(json_object_get(proof(d, 0, 0), "comm_d_proofs"), "data");
    json_object_set(data, "Top", json_object_get(data, "Single"));
    check_doc(d, PM_ERR_FORMAT, "comm_d_proofs.data", NULL);
}

static void test_syntax(void **st) {
    (void)st;
    /* truncation at 200 points */
    for (size_t cut = 0; cut < g_len; cut += g_len / 200 + 1) expect_both(g_json, cut, PM_ERR_FORMAT, NULL, NULL);
    /* trailing bytes */
    char *t = malloc(g_len + 8);
    memcpy(t, g_json, g_len);
    memcpy(t + g_len, " {}", 3);
    expect_both(t, g_len + 3, PM_ERR_FORMAT, NULL, NULL);
    free(t);
    /* duplicate top-level key */
    const char *dup = "{\"seed\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"
                      "\"seed\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}";
    expect_both(dup, strlen(dup), PM_ERR_FORMAT, "seed", NULL);
    expect_both("", 0, PM_ERR_FORMAT, NULL, NULL);
    expect_both("{\"registered_proof\":\"StackedDrg2KiBV1_1\"", 39, PM_ERR_FORMAT, NULL, NULL);
    /* found by tests/fuzz/fuzz_c1 (docs/fuzzing.md): a NUL byte in place of a number's last digit
     * in a vanilla proof ("10\0,"). jansson loses a NUL that follows a number or a literal, so the
     * jansson reader accepted the document the single-pass reader refuses. Also after `null`. */
    t = malloc(g_len + 1);
    memcpy(t, g_json, g_len);
    size_t p = (size_t)(strstr(t, "vanilla_proofs") - t);
    while (p + 2 < g_len && !(t[p] >= '0' && t[p] <= '9' && t[p + 1] >= '0' && t[p + 1] <= '9' && t[p + 2] == ',')) p++;
    assert_true(p + 2 < g_len);
    t[p + 1] = 0;
    expect_both(t, g_len, PM_ERR_FORMAT, NULL, NULL);
    p = (size_t)(strstr(g_json, "null") - g_json) + 4;
    memcpy(t, g_json, p);
    t[p] = 0;
    memcpy(t + p + 1, g_json + p, g_len - p);
    expect_both(t, g_len + 1, PM_ERR_FORMAT, NULL, NULL);
    free(t);
}

/* Random byte edits: no crash, documented statuses only, and when both readers accept a
 * document they produce the same C1. */
static void test_random_mutations(void **st) {
    (void)st;
    pm_test_seed();
    size_t n = pm_test_iters(300), both_ok = 0, disagree = 0;
    char *m = malloc(g_len);
    static const char alphabet[] = "0123456789[]{},:\"-.eE tnfa\\x\0";
    for (size_t it = 0; it < n; it++) {
        memcpy(m, g_json, g_len);
        int edits = 1 + (int)(pm_rand64() % 3);
        for (int e = 0; e < edits; e++)
            m[pm_rand64() % g_len] = alphabet[pm_rand64() % (sizeof alphabet - 1)];
        fil_c1_t a, b;
        pm_error ea, eb;
        pm_status sa = fil_c1_from_json_jansson(&a, m, g_len, "m", &ea);
        pm_status sb = fil_c1_from_json(&b, m, g_len, "m", &eb);
        assert_true(sa == PM_OK || sa == PM_ERR_FORMAT);
        assert_true(sb == PM_OK || sb == PM_ERR_FORMAT);
        if (sa == PM_OK && sb == PM_OK) {
            char *ja, *jb;
            size_t la, lb;
            assert_int_equal(fil_c1_to_json(&ja, &la, &a, &ea), PM_OK);
            assert_int_equal(fil_c1_to_json(&jb, &lb, &b, &eb), PM_OK);
            assert_int_equal(la, lb);
            assert_memory_equal(ja, jb, la);
            free(ja);
            free(jb);
            both_ok++;
        } else if ((sa == PM_OK) != (sb == PM_OK)) {
            disagree++;
            printf("  readers disagree: jansson %s / fast %s\n", sa ? ea.msg : "ok", sb ? eb.msg : "ok");
        }
        fil_c1_free(&a);
        fil_c1_free(&b);
    }
    printf("  %zu mutations: %zu accepted by both, %zu disagreements\n", n, both_ok, disagree);
    assert_int_equal(disagree, 0);
    free(m);
}

static void test_envelope(void **st) {
    (void)st;
    fil_c1_t c1;
    pm_error err;
    assert_int_equal(fil_c1_from_json(&c1, g_json, g_len, "c1", &err), PM_OK);
    char path[] = "/tmp/proofmill_env_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(fil_c1_write_envelope_file(path, &c1, 17, &err), PM_OK);
    fil_c1_t back;
    uint64_t num = 0;
    assert_int_equal(fil_c1_read_file(&back, &num, path, &err), PM_OK);
    assert_int_equal(num, 17);
    assert_memory_equal(back.comm_r, c1.comm_r, 32);
    fil_c1_free(&back);
    /* wrong SectorSize, bad base64, wrong type */
    const char *bad[] = {"{\"SectorNum\":1,\"Phase1Out\":\"%s\",\"SectorSize\":8388608}",
                         "{\"SectorNum\":1,\"Phase1Out\":\"@@@@\",\"SectorSize\":2048}",
                         "{\"SectorNum\":1,\"Phase1Out\":5,\"SectorSize\":2048}",
                         "{\"SectorNum\":-1,\"Phase1Out\":\"\",\"SectorSize\":2048}"};
    pm_status want[] = {PM_ERR_MISMATCH, PM_ERR_FORMAT, PM_ERR_FORMAT, PM_ERR_FORMAT};
    /* reuse the good envelope's base64 for the first case */
    size_t n;
    char *envtxt = (char *)pm_test_slurp(path, &n);
    assert_non_null(envtxt);
    FILE *f;
    char *b64 = strstr(envtxt, "\"Phase1Out\":\"") + 13;
    *strchr(b64, '"') = 0;
    for (int i = 0; i < 4; i++) {
        f = fopen(path, "wb");
        fprintf(f, bad[i], b64);
        fclose(f);
        pm_status s = fil_c1_read_file(&back, NULL, path, &err);
        printf("  [envelope %d] %s\n", i, err.msg);
        assert_int_equal(s, want[i]);
    }
    free(envtxt);
    unlink(path);
    fil_c1_free(&c1);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrong_types),     cmocka_unit_test(test_missing_fields),
        cmocka_unit_test(test_wrong_lengths),   cmocka_unit_test(test_huge_arrays),
        cmocka_unit_test(test_wrong_sector_size), cmocka_unit_test(test_syntax),
        cmocka_unit_test(test_random_mutations), cmocka_unit_test(test_envelope),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
