/*
 * test_params_names.c — Filecoin parameter names and digests (issue #6), without the snarkjs
 * oracle (the CLI test covers the same through `proofmill params`, but is skipped without it):
 * the v28 PoRep name stems carry the five identifier hashes recorded in POREP.md §1.5; the digest
 * is BLAKE2b-512's first 32 hex chars (RFC 7693 Appendix A vector for "abc"); the manifest check
 * counts OK / BAD / MISSING and refuses malformed manifests; the built-in digest table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filecoin/param_names.h"

static void test_stems(void **state) {
    (void)state;
    static const struct {
        uint64_t size;
        const char *shape, *hash12;
    } want[] = {
        {2048ull, "8-0-0", "032d3138d225"},        {8ull << 20, "8-0-0", "ecd683648512"},
        {512ull << 20, "8-0-0", "6babf46ce344"},   {32ull << 30, "8-8-0", "82a357d2f2ca"},
        {64ull << 30, "8-8-2", "96f1b4a04c5c"},
    };
    pm_error err;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char stem[256], expect[256];
        assert_int_equal(fil_porep_param_stem(stem, sizeof stem, want[i].size, &err), PM_OK);
        snprintf(expect, sizeof expect,
                 "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-%s-sha256_hasher-%s",
                 want[i].shape, want[i].hash12);
        assert_int_equal(strncmp(stem, expect, strlen(expect)), 0);
        assert_int_equal(strlen(stem), strlen(expect) - 12 + 64);
    }
    char small[20];
    assert_int_equal(fil_porep_param_stem(small, sizeof small, 2048, &err), PM_ERR_ARG);
    assert_int_equal(fil_porep_param_stem(small, sizeof small, 12345, &err), PM_ERR_ARG);
    size_t n;
    const fil_porep_shape_t *s = fil_porep_shapes(&n);
    assert_int_equal(n, 10);
    for (size_t i = 0; i < n; i++) assert_int_equal(s[i].nodes * 32, s[i].sector_size);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_digest_and_manifest(void **state) {
    (void)state;
    pm_error err;
    char dir[128], path[256], man[256];
    snprintf(dir, sizeof dir, "/tmp/pm_params_names_%d", (int)getpid());
    mkdir(dir, 0755);
    snprintf(path, sizeof path, "%s/a.vk", dir);
    write_file(path, "abc");
    char hex[33];
    uint64_t bytes = 0;
    assert_int_equal(fil_param_digest(hex, &bytes, path, &err), PM_OK);
    assert_string_equal(hex, "ba80a53f981c4d0d6a2797b69f12f6e9"); /* BLAKE2b-512("abc"), RFC 7693 */
    assert_int_equal(bytes, 3);
    snprintf(path, sizeof path, "%s/b.params", dir);
    write_file(path, "");
    assert_int_equal(fil_param_digest(hex, NULL, path, &err), PM_OK);
    assert_string_equal(hex, "786a02f742015903c6c6fd852552d272"); /* BLAKE2b-512("") */

    snprintf(man, sizeof man, "%s/parameters.json", dir);
    write_file(man, "{\"a.vk\": {\"cid\": \"Qm\", \"digest\": \"ba80a53f981c4d0d6a2797b69f12f6e9\", "
                    "\"sector_size\": 2048},\n \"b.params\": {\"cid\": \"Qm\", \"digest\": "
                    "\"00000000000000000000000000000000\", \"sector_size\": 2048},\n \"c.vk\": "
                    "{\"cid\": \"Qm\", \"digest\": \"11111111111111111111111111111111\", "
                    "\"sector_size\": 2048}}");
    fil_param_check_t res;
    assert_int_equal(fil_param_check_dir(&res, dir, man, NULL, 0, NULL, &err), PM_OK);
    assert_int_equal(res.checked, 3);
    assert_int_equal(res.ok, 1);
    assert_int_equal(res.bad, 1);
    assert_int_equal(res.missing, 1);
    assert_int_equal(fil_param_check_dir(&res, dir, man, NULL, 1, NULL, &err), PM_OK);
    assert_int_equal(res.checked, 2); /* .params skipped */
    assert_int_equal(fil_param_check_dir(&res, dir, man, "a.", 0, NULL, &err), PM_OK);
    assert_int_equal(res.checked, 1);
    assert_int_equal(res.ok, 1);
    /* malformed manifests */
    write_file(man, "[1, 2]");
    assert_int_equal(fil_param_check_dir(&res, dir, man, NULL, 0, NULL, &err), PM_ERR_FORMAT);
    write_file(man, "{\"a.vk\": {\"digest\": \"short\"}}");
    assert_int_equal(fil_param_check_dir(&res, dir, man, NULL, 0, NULL, &err), PM_ERR_FORMAT);
    write_file(man, "{\"../etc/passwd\": {\"digest\": \"ba80a53f981c4d0d6a2797b69f12f6e9\"}}");
    assert_int_equal(fil_param_check_dir(&res, dir, man, NULL, 0, NULL, &err), PM_ERR_FORMAT);
    write_file(man, "{not json");
    assert_int_equal(fil_param_check_dir(&res, dir, man, NULL, 0, NULL, &err), PM_ERR_IO);
    /* built-in table: nothing present -> all absent, none bad */
    assert_int_equal(fil_param_check_known(&res, dir, 0, NULL, &err), PM_OK);
    size_t nk;
    fil_known_digests(&nk);
    assert_int_equal(res.checked, nk);
    assert_int_equal(res.missing, nk);
    assert_int_equal(res.bad, 0);
    /* a wrong file under the 2 KiB .vk name is BAD */
    char stem[256], vk[512];
    assert_int_equal(fil_porep_param_stem(stem, sizeof stem, 2048, &err), PM_OK);
    snprintf(vk, sizeof vk, "%s/%s.vk", dir, stem);
    write_file(vk, "abc");
    assert_int_equal(fil_param_check_known(&res, dir, 0, NULL, &err), PM_OK);
    assert_int_equal(res.bad, 1);
    unlink(vk);
    unlink(man);
    unlink(path);
    snprintf(path, sizeof path, "%s/a.vk", dir);
    unlink(path);
    rmdir(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stems),
        cmocka_unit_test(test_digest_and_manifest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
