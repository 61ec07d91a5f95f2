/*
 * Hostile inputs for the point decoders: every single-bit mutation of valid encodings, and random
 * bytes, in exact-size heap buffers (so AddressSanitizer builds catch any over-read). Properties:
 *  - a decoder returns PM_OK or one of PM_ERR_ENCODING / NOT_ON_CURVE / NOT_IN_SUBGROUP, and
 *    err names the same code;
 *  - when it accepts, the point is on the curve (and in the subgroup when asked), and encoding it
 *    again gives back exactly the input bytes: every accepted encoding is the canonical one;
 *  - on failure the output is the point at infinity (0, 0).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "curve/encoding.h"

static const pm_point_format FMTS[3] = {PM_POINT_ZCASH_COMPRESSED, PM_POINT_ZCASH_UNCOMPRESSED,
                                        PM_POINT_SNARKJS_LEM};

static void check_status(pm_status st, const pm_error *err) {
    assert_true(st == PM_OK || st == PM_ERR_ENCODING || st == PM_ERR_NOT_ON_CURVE || st == PM_ERR_NOT_IN_SUBGROUP);
    if (st != PM_OK) assert_int_equal(err->code, st);
}

/* returns 1 when accepted */
static int g1_probe(const uint8_t *in, size_t n, pm_point_format fmt, unsigned flags) {
    uint8_t *buf = malloc(n), re[96];
    assert_non_null(buf);
    memcpy(buf, in, n);
    g1_affine_t p;
    pm_error err;
    pm_status st = g1_decode(&p, buf, n, fmt, flags, &err);
    check_status(st, &err);
    if (st == PM_OK) {
        assert_true(g1_affine_is_on_curve(&p));
        if (flags & PM_DECODE_CHECK_SUBGROUP) assert_true(g1_affine_in_subgroup_vartime(&p));
        assert_int_equal(g1_encode(re, n, &p, fmt), PM_OK);
        assert_memory_equal(re, in, n);
    } else {
        assert_true(g1_affine_is_infinity(&p));
    }
    free(buf);
    return st == PM_OK;
}

static int g2_probe(const uint8_t *in, size_t n, pm_point_format fmt, unsigned flags) {
    uint8_t *buf = malloc(n), re[192];
    assert_non_null(buf);
    memcpy(buf, in, n);
    g2_affine_t p;
    pm_error err;
    pm_status st = g2_decode(&p, buf, n, fmt, flags, &err);
    check_status(st, &err);
    if (st == PM_OK) {
        assert_true(g2_affine_is_on_curve(&p));
        if (flags & PM_DECODE_CHECK_SUBGROUP) assert_true(g2_affine_in_subgroup_vartime(&p));
        assert_int_equal(g2_encode(re, n, &p, fmt), PM_OK);
        assert_memory_equal(re, in, n);
    } else {
        assert_true(g2_affine_is_infinity(&p));
    }
    free(buf);
    return st == PM_OK;
}

static void g1_mutations(void **state) {
    (void)state;
    pm_test_seed();
    g1_jac_t g, t;
    g1_jac_from_affine(&g, &G1_GENERATOR);
    unsigned accepted = 0, total = 0;
    for (int it = 0; it < 3; it++) {
        g1_affine_t p;
        if (it == 0) {
            memset(&p, 0, sizeof p); /* infinity */
        } else {
            fr_t k;
            pm_rand_fr(&k);
            g1_jac_mul_fr(&t, &g, &k);
            g1_jac_to_affine(&p, &t);
        }
        for (int f = 0; f < 3; f++) {
            size_t n = g1_encoded_size(FMTS[f]);
            uint8_t enc[96];
            g1_encode(enc, n, &p, FMTS[f]);
            assert_true(g1_probe(enc, n, FMTS[f], PM_DECODE_CHECK_SUBGROUP));
            for (size_t bit = 0; bit < 8 * n; bit++) {
                enc[bit / 8] ^= (uint8_t)(1u << (bit % 8));
                unsigned flags = (bit & 1) ? PM_DECODE_CHECK_SUBGROUP : 0;
                accepted += (unsigned)g1_probe(enc, n, FMTS[f], flags);
                total++;
                enc[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            }
        }
    }
    printf("G1: %u of %u one-bit mutations accepted (each re-encodes to itself)\n", accepted, total);
}

static void g2_mutations(void **state) {
    (void)state;
    pm_test_seed();
    g2_jac_t g, t;
    g2_jac_from_affine(&g, &G2_GENERATOR);
    unsigned accepted = 0, total = 0;
    for (int it = 0; it < 2; it++) {
        g2_affine_t p;
        if (it == 0) {
            memset(&p, 0, sizeof p);
        } else {
            fr_t k;
            pm_rand_fr(&k);
            g2_jac_mul_fr(&t, &g, &k);
            g2_jac_to_affine(&p, &t);
        }
        for (int f = 0; f < 3; f++) {
            size_t n = g2_encoded_size(FMTS[f]);
            uint8_t enc[192];
            g2_encode(enc, n, &p, FMTS[f]);
            assert_true(g2_probe(enc, n, FMTS[f], PM_DECODE_CHECK_SUBGROUP));
            for (size_t bit = 0; bit < 8 * n; bit++) {
                enc[bit / 8] ^= (uint8_t)(1u << (bit % 8));
                unsigned flags = (bit & 1) ? PM_DECODE_CHECK_SUBGROUP : 0;
                accepted += (unsigned)g2_probe(enc, n, FMTS[f], flags);
                total++;
                enc[bit / 8] ^= (uint8_t)(1u << (bit % 8));
            }
        }
    }
    printf("G2: %u of %u one-bit mutations accepted (each re-encodes to itself)\n", accepted, total);
}

/* random bytes, with the top byte drawn from every flag combination */
static void random_bytes(void **state) {
    (void)state;
    pm_test_seed();
    size_t iters = pm_test_iters(200);
    uint8_t b[192];
    for (size_t it = 0; it < iters; it++) {
        for (int f = 0; f < 3; f++) {
            size_t n1 = g1_encoded_size(FMTS[f]), n2 = g2_encoded_size(FMTS[f]);
            pm_rand_bytes(b, sizeof b);
            if (it & 1) b[0] &= 0xe1; /* small x: more often < p */
            g1_probe(b, n1, FMTS[f], (unsigned)(it & 2) ? PM_DECODE_CHECK_SUBGROUP : 0);
            g2_probe(b, n2, FMTS[f], (unsigned)(it & 2) ? PM_DECODE_CHECK_SUBGROUP : 0);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(g1_mutations),
        cmocka_unit_test(g2_mutations),
        cmocka_unit_test(random_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
