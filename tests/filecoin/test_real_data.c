/*
 * test_real_data.c — the readers of Filecoin's published data (filecoin/real_data.h, issue #39), on
 * the pieces copied into tests/data/filecoin/ (no ../shared needed):
 *  - seal regression records: fields of known records (a sector_id above 2^63, 32 GiB 10-partition
 *    proofs, an NI aggregate), and hostile lines: malformed JSON, a proof of the wrong length, an
 *    unknown porep version or feature, out-of-range bytes / sizes / partition counts / sector ids, a
 *    duplicated key, a NUL byte, an empty file, a 2 GB line (sparse), randomly mutated lines — each a
 *    clear error naming the line and the field, never a crash;
 *  - parameters.json: every name of ours among Filecoin's 44 has its sector size (4 are a kind we do not prove), and
 *    our built-in digests are Filecoin's;
 *  - the calibration-network WindowPoSt: its sector, randomness, proof ids; hostile variants.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filecoin/param_names.h"
#include "filecoin/post.h"
#include "filecoin/real_data.h"

static void data_path(char *out, size_t cap, const char *file) {
    snprintf(out, cap, "%s/tests/data/filecoin/%s", pm_source_dir(), file);
}

/* the first line of a records file (malloc'd, NUL-terminated, no newline) */
static char *first_line(const char *file, size_t *len) {
    char p[4096];
    data_path(p, sizeof p, file);
    size_t n;
    uint8_t *all = pm_test_slurp(p, &n);
    assert_non_null(all);
    size_t k = 0;
    while (k < n && all[k] != '\n') k++;
    char *l = malloc(k + 1);
    memcpy(l, all, k);
    l[k] = 0;
    free(all);
    *len = k;
    return l;
}

static void test_records_fields(void **state) {
    (void)state;
    char p[4096];
    pm_error err;
    fil_seal_records_t rs;
    data_path(p, sizeof p, "seal_regression_records-v16.json");
    assert_int_equal(fil_seal_records_read(&rs, p, &err), PM_OK);
    assert_int_equal(rs.n, 30);
    const fil_seal_record_t *r = &rs.r[0];
    assert_int_equal(r->line, 1);
    assert_int_equal(r->sector_size, 2048);
    assert_int_equal(r->partitions, 1);
    assert_int_equal(r->api_version, FIL_API_V1_0_0);
    assert_int_equal(r->feature, FIL_FEATURE_NONE);
    assert_true(r->sector_id == 9259733836259213201ull); /* above 2^63: read from the text */
    assert_int_equal(r->proof_len, 192);
    assert_int_equal(r->comm_r[0], 165);
    assert_int_equal(r->proof[0], 141);
    size_t n32 = 0, syn = 0;
    for (size_t i = 0; i < rs.n; i++) {
        if (rs.r[i].sector_size == (32ull << 30)) {
            n32++;
            assert_int_equal(rs.r[i].partitions, 10);
            assert_int_equal(rs.r[i].proof_len, 1920);
        }
        syn += rs.r[i].feature == FIL_FEATURE_SYNTHETIC_POREP;
    }
    assert_int_equal(n32, 2);
    assert_int_equal(syn, 2);
    char v[64];
    assert_string_equal(fil_seal_record_version(v, sizeof v, &rs.r[3]), "V1_2_0 SyntheticPoRep");
    assert_string_equal(fil_seal_record_version(v, sizeof v, &rs.r[1]), "V1_1_0");
    fil_seal_records_free(&rs);

    data_path(p, sizeof p, "seal_regression_records-v18.json");
    assert_int_equal(fil_seal_records_read(&rs, p, &err), PM_OK);
    size_t ni = 0;
    for (size_t i = 0; i < rs.n; i++)
        if (rs.r[i].feature == FIL_FEATURE_NON_INTERACTIVE_POREP) {
            ni++;
            assert_int_equal(rs.r[i].partitions, 13);
            assert_int_equal(rs.r[i].proof_len, 14164);
        }
    assert_int_equal(ni, 1);
    fil_seal_records_free(&rs);
}

/* Replace the first occurrence of `from` in line by `to`; parse; expect code and every `want`
 * substring in the message. */
static void expect_bad(const char *line, const char *from, const char *to, pm_status code, const char *want) {
    const char *at = strstr(line, from);
    assert_non_null(at);
    size_t a = (size_t)(at - line), lf = strlen(from), lt = strlen(to), n = strlen(line);
    char *m = malloc(n - lf + lt + 1);
    memcpy(m, line, a);
    memcpy(m + a, to, lt);
    memcpy(m + a + lt, at + lf, n - a - lf + 1);
    fil_seal_record_t r;
    pm_error err;
    pm_error_clear(&err);
    pm_status st = fil_seal_record_parse(&r, m, strlen(m), "rec.json", 7, 100, &err);
    printf("  %s -> %s: %s\n", from, to, err.msg);
    assert_int_equal(st, code);
    assert_non_null(strstr(err.msg, "line 7"));
    assert_non_null(strstr(err.msg, want));
    assert_string_equal(err.file, "rec.json");
    assert_null(r.proof);
    free(m);
}

static void test_records_hostile(void **state) {
    (void)state;
    size_t len;
    char *l = first_line("seal_regression_records-v16.json", &len);
    /* the unchanged line parses */
    char *copy = strdup(l);
    fil_seal_record_t r;
    pm_error err;
    assert_int_equal(fil_seal_record_parse(&r, copy, len, "rec.json", 7, 0, &err), PM_OK);
    fil_seal_record_free(&r);
    free(copy);

    expect_bad(l, "\"proof\":[141,", "\"proof\":[", PM_ERR_FORMAT, "field proof: 191 bytes");
    expect_bad(l, "\"proof\":[141,", "\"proof\":[141,1,", PM_ERR_FORMAT, "field proof: 193 bytes");
    expect_bad(l, "\"V1_0_0\"", "\"V1_3_0\"", PM_ERR_ARG, "field porep_config.api_version");
    expect_bad(l, "\"V1_0_0\"", "7", PM_ERR_FORMAT, "field porep_config.api_version: not a string");
    expect_bad(l, "\"api_features\":[]", "\"api_features\":[\"Turbo\"]", PM_ERR_ARG, "not a feature");
    expect_bad(l, "\"api_features\":[]", "\"api_features\":[\"SyntheticPoRep\"]", PM_ERR_ARG, "features need V1_2_0");
    expect_bad(l, "\"sector_size\":2048", "\"sector_size\":2049", PM_ERR_ARG, "field porep_config.sector_size");
    expect_bad(l, "\"sector_size\":2048", "\"sector_size\":-1", PM_ERR_FORMAT, "field porep_config.sector_size");
    expect_bad(l, "\"partitions\":1", "\"partitions\":2", PM_ERR_ARG, "field porep_config.partitions");
    expect_bad(l, "\"comm_r\":[165,", "\"comm_r\":[256,", PM_ERR_FORMAT, "field comm_r: element 0");
    expect_bad(l, "\"comm_r\":[165,", "\"comm_r\":[", PM_ERR_FORMAT, "field comm_r: 31 bytes");
    expect_bad(l, "\"ticket\":[", "\"tricket\":[", PM_ERR_FORMAT, "field ticket: missing");
    expect_bad(l, "\"porep_id\":[0,", "\"porep_id\":[\"0\",", PM_ERR_FORMAT, "field porep_config.porep_id");
    expect_bad(l, "9259733836259213201", "18446744073709551616", PM_ERR_ARG, "field sector_id: does not fit 64 bits");
    expect_bad(l, "9259733836259213201", "-5", PM_ERR_FORMAT, "field sector_id");
    expect_bad(l, "9259733836259213201", "1.5", PM_ERR_FORMAT, "field sector_id");
    expect_bad(l, "\"sector_id\"", "\"sector_id\":1,\"sector_id\"", PM_ERR_FORMAT, "field sector_id: appears more than once");
    expect_bad(l, "\"seed\"", "\"seed\":[],\"seed\"", PM_ERR_FORMAT, "not a JSON record");
    expect_bad(l, "}", "", PM_ERR_FORMAT, "not a JSON record");

    /* random mutations of the line: an error or a record, never a crash */
    pm_test_seed();
    size_t refused = 0, iters = pm_test_iters(2000);
    char *m = malloc(len + 1);
    for (size_t it = 0; it < iters; it++) {
        memcpy(m, l, len + 1);
        int flips = 1 + (int)(pm_rand64() % 4);
        for (int f = 0; f < flips; f++) m[pm_rand64() % len] ^= (char)(1u + pm_rand64() % 127u);
        pm_error_clear(&err);
        if (fil_seal_record_parse(&r, m, len, "rec.json", 1, 0, &err)) {
            refused++;
            assert_true(err.msg[0] != 0);
        } else {
            fil_seal_record_free(&r);
        }
    }
    printf("%zu mutated lines, %zu refused, none crashed\n", iters, refused);
    free(m);
    free(l);
}

static void write_bytes(const char *path, const char *s, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(s, 1, n, f), n);
    fclose(f);
}

static void test_records_files_hostile(void **state) {
    (void)state;
    char dir[256], p[512];
    assert_int_equal(pm_test_mkdtemp(dir, sizeof dir, "pm_records"), 0);
    snprintf(p, sizeof p, "%s/r.json", dir);
    pm_error err;
    fil_seal_records_t rs;
    /* a 2 GB line (sparse: nothing is written): refused after FIL_RECORD_LINE_MAX bytes */
    int fd = open(p, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)2 << 30), 0);
    close(fd);
    assert_int_equal(fil_seal_records_read(&rs, p, &err), PM_ERR_FORMAT);
    printf("  2 GB line: %s\n", err.msg);
    assert_non_null(strstr(err.msg, "line 1: longer than"));
    assert_int_equal(rs.n, 0);
    /* a good line, then a long one: names line 2 */
    size_t len;
    char *l = first_line("seal_regression_records-v16.json", &len);
    fd = open(p, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    assert_int_equal(write(fd, l, len), (ssize_t)len);
    assert_int_equal(write(fd, "\n", 1), 1);
    assert_int_equal(ftruncate(fd, (off_t)len + 1 + FIL_RECORD_LINE_MAX + 10), 0);
    close(fd);
    assert_int_equal(fil_seal_records_read(&rs, p, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "line 2:"));
    assert_int_equal(err.offset, len + 1);
    /* a NUL byte inside a line */
    write_bytes(p, "{\"a\":\0}\n", 8);
    assert_int_equal(fil_seal_records_read(&rs, p, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "NUL"));
    /* empty, blank lines only, not an object, a directory */
    write_bytes(p, "", 0);
    assert_int_equal(fil_seal_records_read(&rs, p, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "no records"));
    write_bytes(p, "\n  \n", 4);
    assert_int_equal(fil_seal_records_read(&rs, p, &err), PM_ERR_FORMAT);
    write_bytes(p, "[1,2]\n", 6);
    assert_int_equal(fil_seal_records_read(&rs, p, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "line 1"));
    assert_int_equal(fil_seal_records_read(&rs, dir, &err), PM_ERR_IO);
    /* good line, blank line, good line with the third one broken: line 3 named, nothing kept */
    fd = open(p, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    assert_int_equal(write(fd, l, len), (ssize_t)len);
    assert_int_equal(write(fd, "\n\n", 2), 2);
    assert_int_equal(write(fd, l, len - 5), (ssize_t)len - 5);
    close(fd);
    assert_int_equal(fil_seal_records_read(&rs, p, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "line 3"));
    assert_int_equal(rs.n, 0);
    free(l);
    pm_test_rmtree(dir);
}

static void test_manifest(void **state) {
    (void)state;
    char p[4096];
    pm_error err;
    fil_param_manifest_t m;
    data_path(p, sizeof p, "parameters.json");
    assert_int_equal(fil_param_manifest_read(&m, p, &err), PM_OK);
    assert_int_equal(m.n, 44);
    unsigned per_kind[4] = {0}, other = 0;
    for (size_t i = 0; i < m.n; i++) {
        if (m.e[i].ours) per_kind[m.e[i].kind]++;
        else other++;
    }
    /* .params and .vk of the five published sizes per kind, and Filecoin's 32 / 64 GiB
     * empty-sector-update-poseidon files, a kind proofmill does not prove */
    printf("  porep %u, winning %u, window %u, update %u, not ours %u\n", per_kind[0], per_kind[1], per_kind[2],
           per_kind[3], other);
    assert_int_equal(other, 4);
    assert_int_equal(per_kind[0], 10);
    assert_int_equal(per_kind[1], 10);
    assert_int_equal(per_kind[2], 10);
    assert_int_equal(per_kind[3], 10);
    /* every built-in digest is Filecoin's */
    size_t nk;
    const fil_known_digest_t *k = fil_known_digests(&nk);
    for (size_t i = 0; i < nk; i++) {
        char stem[256], name[300];
        assert_int_equal(fil_param_stem(stem, sizeof stem, k[i].kind, k[i].sector_size, &err), PM_OK);
        snprintf(name, sizeof name, "%s%s", stem, k[i].ext);
        int found = 0;
        for (size_t j = 0; j < m.n; j++)
            if (!strcmp(m.e[j].name, name)) {
                found = 1;
                assert_string_equal(m.e[j].digest, k[i].digest);
                assert_int_equal(m.e[j].sector_size, k[i].sector_size);
            }
        assert_true(found);
    }
    fil_param_manifest_free(&m);

    /* hostile manifests */
    char dir[256], q[512];
    assert_int_equal(pm_test_mkdtemp(dir, sizeof dir, "pm_manifest"), 0);
    snprintf(q, sizeof q, "%s/parameters.json", dir);
    char stem[256], body[1024];
    assert_int_equal(fil_param_stem(stem, sizeof stem, FIL_PARAM_POREP, 2048, &err), PM_OK);
    snprintf(body, sizeof body, "{\"%s.vk\": {\"cid\": \"Qm\", \"digest\": \"dc1ade9929ade1708238f155343044ac\", "
                                "\"sector_size\": 8388608}}", stem);
    write_bytes(q, body, strlen(body));
    assert_int_equal(fil_param_manifest_read(&m, q, &err), PM_ERR_MISMATCH); /* name says 2 KiB */
    assert_non_null(strstr(err.msg, "sector_size 8388608"));
    snprintf(body, sizeof body, "{\"v28-other.vk\": {\"cid\": \"Qm\", \"digest\": \"dc1ade9929ade1708238f155343044ac\", "
                                "\"sector_size\": 2048}}");
    write_bytes(q, body, strlen(body));
    assert_int_equal(fil_param_manifest_read(&m, q, &err), PM_OK); /* a kind not ours */
    assert_int_equal(m.n, 1);
    assert_int_equal(m.e[0].ours, 0);
    fil_param_manifest_free(&m);
    snprintf(body, sizeof body, "{\"other.vk\": {\"cid\": \"Qm\", \"digest\": \"dc1ade9929ade1708238f155343044ac\", "
                                "\"sector_size\": 2048}}");
    write_bytes(q, body, strlen(body));
    assert_int_equal(fil_param_manifest_read(&m, q, &err), PM_ERR_FORMAT);
    snprintf(body, sizeof body, "{\"v28-other.vk\": {\"cid\": \"Qm\", \"digest\": \"dc1ade9929ade1708238f155343044ac\", "
                                "\"sector_size\": 2047}}");
    write_bytes(q, body, strlen(body));
    assert_int_equal(fil_param_manifest_read(&m, q, &err), PM_ERR_ARG);
    snprintf(body, sizeof body, "{\"%s.vk\": {\"cid\": \"Qm\", \"digest\": \"DC1ADE9929ADE1708238F155343044AC\", "
                                "\"sector_size\": 2048}}", stem);
    write_bytes(q, body, strlen(body));
    assert_int_equal(fil_param_manifest_read(&m, q, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "digest"));
    snprintf(body, sizeof body, "{\"%s.vk\": {\"cid\": 5, \"digest\": \"dc1ade9929ade1708238f155343044ac\"}}", stem);
    write_bytes(q, body, strlen(body));
    assert_int_equal(fil_param_manifest_read(&m, q, &err), PM_ERR_FORMAT);
    write_bytes(q, "[]", 2);
    assert_int_equal(fil_param_manifest_read(&m, q, &err), PM_ERR_FORMAT);
    write_bytes(q, "{\"a\": {}, \"a\": {}}", 18);
    assert_int_equal(fil_param_manifest_read(&m, q, &err), PM_ERR_FORMAT);
    pm_test_rmtree(dir);
}

static void test_window_post(void **state) {
    (void)state;
    char p[4096];
    pm_error err;
    fil_window_post_record_t w;
    data_path(p, sizeof p, "window_post_calibnet_32GiB.json");
    assert_int_equal(fil_window_post_record_read(&w, p, &err), PM_OK);
    assert_int_equal(w.n_registered, 2);
    assert_string_equal(fil_registered_post(w.registered[0])->name, "StackedDrgWindow32GiBV1");
    assert_string_equal(fil_registered_post(w.registered[1])->name, "StackedDrgWindow32GiBV1_2");
    assert_int_equal(w.n_sectors, 1);
    assert_int_equal(w.sector_id[0], 132);
    assert_int_equal(w.comm_r[0][0], 85);
    assert_int_equal(w.randomness[0], 47);
    assert_int_equal(w.prover_id[0], 167);
    assert_int_equal(w.proof[0], 181);
    fil_window_post_record_free(&w);

    size_t n;
    char *doc = (char *)pm_test_slurp(p, &n);
    char dir[256], q[512];
    assert_int_equal(pm_test_mkdtemp(dir, sizeof dir, "pm_wpost"), 0);
    snprintf(q, sizeof q, "%s/w.json", dir);
    static const struct {
        const char *from, *to, *want;
        pm_status code;
    } bad[] = {
        {"\"StackedDrgWindow32GiBV1\"", "\"StackedDrgWinning32GiBV1\"", "registered_proofs", PM_ERR_ARG},
        {"\"StackedDrgWindow32GiBV1\"", "\"StackedDrgWindow2KiBV1\"", "another sector size", PM_ERR_ARG},
        {"\"sector_id\": 132", "\"sector_id\": -1", "sectors[0].sector_id", PM_ERR_FORMAT},
        {"\"randomness\": [47,", "\"randomness\": [", "randomness", PM_ERR_FORMAT},
        {"\"proof\": [181,", "\"proof\": [1181,", "proof", PM_ERR_FORMAT},
        {"\"sectors\": [", "\"sectors\": [7, ", "sectors[0]", PM_ERR_FORMAT},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *at = strstr(doc, bad[i].from);
        assert_non_null(at);
        FILE *f = fopen(q, "wb");
        fwrite(doc, 1, (size_t)(at - doc), f);
        fputs(bad[i].to, f);
        fputs(at + strlen(bad[i].from), f);
        fclose(f);
        pm_error_clear(&err);
        assert_int_equal(fil_window_post_record_read(&w, q, &err), bad[i].code);
        printf("  %s\n", err.msg);
        assert_non_null(strstr(err.msg, bad[i].want));
        assert_null(w.sector_id);
    }
    write_bytes(q, doc, n / 2);
    assert_int_equal(fil_window_post_record_read(&w, q, &err), PM_ERR_FORMAT);
    free(doc);
    pm_test_rmtree(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_records_fields),   cmocka_unit_test(test_records_hostile),
        cmocka_unit_test(test_records_files_hostile), cmocka_unit_test(test_manifest),
        cmocka_unit_test(test_window_post),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
