/* util/base64.h: RFC 4648 §10 test vectors both ways, strict decoding (alphabet, padding, white
 * space, '=' in the middle), the two padding rules, and random round trips across the 3 MiB pieces
 * in which OpenSSL is called (lengths around the piece boundary and a 7 MiB input). */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

#include "util/base64.h"

static const char *const RFC[][2] = {{"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},
                                     {"foo", "Zm9v"},  {"foob", "Zm9vYg=="},  {"fooba", "Zm9vYmE="},
                                     {"foobar", "Zm9vYmFy"}};

static void rfc4648_vectors(void **state) {
    (void)state;
    for (size_t i = 0; i < sizeof RFC / sizeof RFC[0]; i++) {
        size_t n = strlen(RFC[i][0]);
        char out[16];
        assert_int_equal(pm_base64_encode(out, (const uint8_t *)RFC[i][0], n), strlen(RFC[i][1]));
        assert_string_equal(out, RFC[i][1]);
        assert_int_equal(pm_base64_encoded_len(n), strlen(RFC[i][1]));
        for (int pad = 0; pad < 2; pad++) {
            uint8_t *d;
            size_t len;
            assert_int_equal(pm_base64_decode(&d, &len, RFC[i][1], strlen(RFC[i][1]), pad, NULL), PM_OK);
            assert_int_equal(len, n);
            assert_memory_equal(d, RFC[i][0], n);
            free(d);
        }
        /* the same without its padding: accepted only when padding is optional */
        size_t m = strlen(RFC[i][1]);
        while (m && RFC[i][1][m - 1] == '=') m--;
        uint8_t *d;
        size_t len;
        assert_int_equal(pm_base64_decode(&d, &len, RFC[i][1], m, PM_BASE64_PAD_OPTIONAL, NULL), PM_OK);
        assert_int_equal(len, n);
        assert_memory_equal(d, RFC[i][0], n);
        free(d);
        if (m != strlen(RFC[i][1]))
            assert_int_equal(pm_base64_decode(&d, &len, RFC[i][1], m, PM_BASE64_PAD_REQUIRED, NULL), PM_ERR_ENCODING);
    }
}

static void refuses_what_is_not_base64(void **state) {
    (void)state;
    static const struct {
        const char *s;
        uint64_t at;
    } bad[] = {{"a", 1},        {"ab$d", 2},     {"ab d", 2},      {"aGVs\nbG8=", 4}, {" aGk", 0},
               {"aGk= ", 3},    {"a=bc", 1},     {"aGk===", 3},    {"aGVsbG8==", 9},  {"Zg=", 3},
               {"=", 1},        {"Zm9v\0Yg", 4}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t n = i == sizeof bad / sizeof bad[0] - 1 ? 7 : strlen(bad[i].s);
        uint8_t *d = (uint8_t *)"x";
        size_t len = 9;
        pm_error err;
        pm_error_clear(&err);
        pm_status st = pm_base64_decode(&d, &len, bad[i].s, n, PM_BASE64_PAD_OPTIONAL, &err);
        printf("'%s': %s (offset %llu)\n", bad[i].s, err.msg, (unsigned long long)err.offset);
        assert_int_equal(st, PM_ERR_ENCODING);
        assert_null(d);
        assert_int_equal(len, 0);
        assert_int_equal(err.offset, bad[i].at);
    }
}

static void round_trips_across_pieces(void **state) {
    (void)state;
    pm_test_seed();
    const size_t piece = (size_t)3 << 20;
    const size_t sizes[] = {0, 1, 2, 3, 4, 100, piece - 1, piece, piece + 1, piece + 2, 2 * piece + 1, 7u << 20};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t n = sizes[k];
        uint8_t *in = malloc(n + 1);
        assert_non_null(in);
        pm_rand_bytes(in, n);
        char *t = pm_base64_encode_alloc(in, n);
        assert_non_null(t);
        assert_int_equal(strlen(t), pm_base64_encoded_len(n));
        uint8_t *d;
        size_t len;
        assert_int_equal(pm_base64_decode(&d, &len, t, strlen(t), PM_BASE64_PAD_REQUIRED, NULL), PM_OK);
        assert_int_equal(len, n);
        assert_memory_equal(d, in, n);
        free(d);
        free(t);
        free(in);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rfc4648_vectors),
        cmocka_unit_test(refuses_what_is_not_base64),
        cmocka_unit_test(round_trips_across_pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
