/*
 * test_kinds_inputs.c — pm_input_u64 (kinds/kind.h): a further input holding one number, the way
 * front ends pass a request's numeric fields (the gRPC API's registered_proof, sector_size, ...).
 * Decimal text inline or in a file, white space around it allowed; empty text, signs, hex, a digit
 * string of 2^64 or more, a NUL inside, a file too long and a missing file refused naming the
 * input (the label) or the file.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/kind.h"

static pm_status of_text(uint64_t *v, const char *text, size_t len, pm_error *err) {
    pm_input in = {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)text, .len = len, .name = "n"};
    pm_error_clear(err);
    return pm_input_u64(v, &in, "sector_size", err);
}

static void inline_text(void **state) {
    (void)state;
    const struct {
        const char *text;
        uint64_t want;
    } ok[] = {{"0", 0}, {"8", 8}, {" 34359738368\n", 34359738368ull}, {"\t007\r\n", 7},
              {"18446744073709551615", UINT64_MAX}, {"00000000000000000001", 1}};
    pm_error err;
    uint64_t v;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        assert_int_equal(of_text(&v, ok[i].text, strlen(ok[i].text), &err), PM_OK);
        assert_true(v == ok[i].want);
    }
    const char *bad[] = {"", " ", "-1", "+1", "0x10", "1 2", "12a", "18446744073709551616", "99999999999999999999",
                         "1e3", "١", "000000000000000000001"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(of_text(&v, bad[i], strlen(bad[i]), &err), PM_ERR_FORMAT);
        printf("'%s': %s: %s\n", bad[i], err.file, err.msg);
        assert_string_equal(err.file, "sector_size");
        assert_true(v == 0);
    }
    assert_int_equal(of_text(&v, "12\0" "3", 4, &err), PM_ERR_FORMAT); /* a NUL inside */
    char big[200];
    memset(big, '1', sizeof big);
    assert_int_equal(of_text(&v, big, sizeof big, &err), PM_ERR_FORMAT); /* long text */
}

static void from_file(void **state) {
    (void)state;
    char dir[256], path[512];
    assert_int_equal(pm_test_mkdtemp(dir, sizeof dir, "pm_inputs"), 0);
    snprintf(path, sizeof path, "%s/n.txt", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("2048\n", f);
    fclose(f);
    pm_input in = {.kind = PM_INPUT_PATH, .path = path};
    pm_error err;
    uint64_t v = 0;
    assert_int_equal(pm_input_u64(&v, &in, "sector_size", &err), PM_OK);
    assert_true(v == 2048);
    f = fopen(path, "w");
    for (int i = 0; i < 100; i++) fputc('1', f);
    fclose(f);
    assert_int_not_equal(pm_input_u64(&v, &in, "sector_size", &err), PM_OK); /* too long for a number */
    printf("long file: %s: %s\n", err.file, err.msg);
    snprintf(path, sizeof path, "%s/missing.txt", dir);
    assert_int_equal(pm_input_u64(&v, &in, "sector_size", &err), PM_ERR_IO);
    assert_non_null(strstr(err.file, "missing.txt"));
    pm_test_rmtree(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(inline_text), cmocka_unit_test(from_file)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
