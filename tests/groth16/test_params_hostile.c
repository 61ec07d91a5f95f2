/*
 * test_params_hostile.c — hostile .params / .vk / proof files (issue #6; label hostile, re-run
 * under ASan in CI): truncation at every byte boundary class, wrong counts (short, long, huge),
 * trailing bytes, bad flag bits, coordinates >= p, points off the curve, the point at infinity
 * inside a vector, and a G2 point on the curve but outside the order-r subgroup (accepted
 * without the subgroup flag, refused with it). Every error must name the right offset.
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

#include "curve/encoding.h"
#include "field/fp2.h"
#include "groth16/params.h"
#include "groth16/proof_bytes.h"
#include "groth16/setup.h"
#include "r1cs/synth.h"

static uint8_t *IMG;
static size_t IMG_N;
static uint64_t OFF[6]; /* offsets of the ic, h, l, a, b_g1, b_g2 count fields */
static uint32_t CNT[6];

static uint32_t be32(const uint8_t *b) {
    return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
}

static void put_be32(uint8_t *b, uint32_t v) {
    b[0] = (uint8_t)(v >> 24);
    b[1] = (uint8_t)(v >> 16);
    b[2] = (uint8_t)(v >> 8);
    b[3] = (uint8_t)v;
}

static int setup_img(void **state) {
    (void)state;
    pm_test_seed();
    pm_error err;
    r1cs_t cs;
    fr_t *w;
    r1cs_synth_opts_t o = {20, 2, 2, 0.5, 3};
    if (r1cs_synth(&cs, &w, &o, &err)) return -1;
    groth16_toxic_t t;
    uint64_t seed = 5;
    bp_params_t p;
    if (groth16_toxic_draw(&t, &seed, &err) || groth16_setup_bellperson(&p, &cs, &t, NULL, &err))
        return -1;
    IMG_N = params_size(p.vk.n_ic, p.n_h, p.n_l, p.n_a, p.n_b_g1, p.n_b_g2);
    IMG = malloc(IMG_N);
    if (params_encode(IMG, IMG_N, &p, &err)) return -1;
    uint64_t o2 = 864;
    for (int i = 0; i < 6; i++) {
        OFF[i] = o2;
        CNT[i] = be32(IMG + o2);
        o2 += 4 + (uint64_t)CNT[i] * (i == 5 ? 192 : 96);
    }
    if (o2 != IMG_N) return -1;
    params_free(&p);
    r1cs_free(&cs);
    free(w);
    return 0;
}

static int teardown_img(void **state) {
    (void)state;
    free(IMG);
    return 0;
}

static pm_status load(const uint8_t *b, size_t n, unsigned flags, pm_error *err) {
    bp_params_t p;
    pm_status st = params_read_memory(&p, b, n, "hostile.params", flags, err);
    if (st == PM_OK) params_free(&p);
    else assert_null(p.h); /* zeroed on error */
    return st;
}

static void test_truncated(void **state) {
    (void)state;
    pm_error err;
    assert_int_equal(load(IMG, IMG_N, 0, &err), PM_OK);
    /* every length that cuts into a count field or the first/last bytes of each vector, and a
     * stride through everything */
    for (size_t n = 0; n < IMG_N; n += (n < 900 ? 1 : 37)) {
        pm_status st = load(IMG, n, 0, &err);
        assert_int_equal(st, PM_ERR_FORMAT);
        assert_non_null(strstr(err.msg, "truncated"));
        assert_true(err.offset <= n);
    }
    for (int i = 0; i < 6; i++) {
        for (int d = 0; d <= 5; d++) {
            size_t n = (size_t)OFF[i] + (size_t)d;
            assert_int_equal(load(IMG, n, 0, &err), PM_ERR_FORMAT);
        }
        /* cut just before the next count: the vector's last point is short by one byte */
        size_t n = i < 5 ? (size_t)OFF[i + 1] - 1 : IMG_N - 1;
        assert_int_equal(load(IMG, n, 0, &err), PM_ERR_FORMAT);
        if (CNT[i]) assert_int_equal(err.offset, OFF[i]); /* names the count that overruns */
    }
    /* vk file: truncations and a trailing byte */
    size_t vn = (size_t)OFF[1];
    bp_vk_t vk;
    assert_int_equal(params_vk_read_memory(&vk, IMG, vn, "x.vk", 0, &err), PM_OK);
    params_vk_free(&vk);
    for (size_t n = 0; n < vn; n += 13)
        assert_int_equal(params_vk_read_memory(&vk, IMG, n, "x.vk", 0, &err), PM_ERR_FORMAT);
    assert_int_equal(params_vk_read_memory(&vk, IMG, vn + 1, "x.vk", 0, &err), PM_ERR_FORMAT);
    assert_int_equal(err.offset, vn);
}

static void test_counts(void **state) {
    (void)state;
    pm_error err;
    uint8_t *b = malloc(IMG_N + 192);
    for (int i = 0; i < 6; i++) {
        /* count + 1: the file is too short for the vectors */
        memcpy(b, IMG, IMG_N);
        put_be32(b + OFF[i], CNT[i] + 1);
        assert_int_equal(load(b, IMG_N, 0, &err), PM_ERR_FORMAT);
        /* huge count: refused before any allocation */
        put_be32(b + OFF[i], 0xFFFFFFFFu);
        assert_int_equal(load(b, IMG_N, 0, &err), PM_ERR_FORMAT);
        assert_int_equal(err.offset, OFF[i]);
        assert_non_null(strstr(err.msg, "4294967295"));
        /* count - 1: the next count is read from point bytes: some error, never OK */
        if (CNT[i] > 0) {
            put_be32(b + OFF[i], CNT[i] - 1);
            assert_int_not_equal(load(b, IMG_N, 0, &err), PM_OK);
        }
    }
    /* trailing garbage */
    memcpy(b, IMG, IMG_N);
    b[IMG_N] = 0;
    assert_int_equal(load(b, IMG_N + 1, 0, &err), PM_ERR_FORMAT);
    assert_int_equal(err.offset, IMG_N);
    free(b);
}

static void test_points(void **state) {
    (void)state;
    pm_error err;
    uint8_t *b = malloc(IMG_N);
    for (int i = 1; i < 6; i++) { /* h, l, a, b_g1, b_g2 */
        if (!CNT[i]) continue;
        uint64_t pt = OFF[i] + 4 + (CNT[i] - 1) * (uint64_t)(i == 5 ? 192 : 96); /* last point */
        size_t psz = i == 5 ? 192 : 96;
        /* compression flag on an uncompressed point */
        memcpy(b, IMG, IMG_N);
        b[pt] |= 0x80;
        assert_int_equal(load(b, IMG_N, 0, &err), PM_ERR_ENCODING);
        assert_int_equal(err.offset, pt);
        /* sort flag */
        memcpy(b, IMG, IMG_N);
        b[pt] |= 0x20;
        assert_int_equal(load(b, IMG_N, 0, &err), PM_ERR_ENCODING);
        /* infinity flag with coordinates left in place */
        memcpy(b, IMG, IMG_N);
        b[pt] |= 0x40;
        assert_int_equal(load(b, IMG_N, 0, &err), PM_ERR_ENCODING);
        /* the proper point at infinity: refused inside a vector (bellperson does too) */
        memcpy(b, IMG, IMG_N);
        memset(b + pt, 0, psz);
        b[pt] = 0x40;
        assert_int_equal(load(b, IMG_N, 0, &err), PM_ERR_FORMAT);
        assert_int_equal(err.offset, pt);
        assert_non_null(strstr(err.msg, "infinity"));
        /* off the curve: last byte of y */
        memcpy(b, IMG, IMG_N);
        b[pt + psz - 1] ^= 1;
        assert_int_equal(load(b, IMG_N, 0, &err), PM_ERR_NOT_ON_CURVE);
        assert_int_equal(err.offset, pt);
        /* x >= p: top bits of x (below the flags) all set */
        memcpy(b, IMG, IMG_N);
        memset(b + pt, 0xFF, 8);
        b[pt] = 0x1F;
        assert_int_equal(load(b, IMG_N, 0, &err), PM_ERR_ENCODING);
    }
    /* an ic point off the curve */
    memcpy(b, IMG, IMG_N);
    b[OFF[0] + 4 + 95] ^= 1;
    assert_int_equal(load(b, IMG_N, 0, &err), PM_ERR_NOT_ON_CURVE);
    assert_int_equal(err.offset, OFF[0] + 4);
    /* a vk point (beta_g2 at 192) with a bad flag */
    memcpy(b, IMG, IMG_N);
    b[192] |= 0x80;
    assert_int_equal(load(b, IMG_N, 0, &err), PM_ERR_ENCODING);
    assert_int_equal(err.offset, 192);
    free(b);
}

/* A point on E'(Fp2) outside the order-r subgroup: random x until x^3 + 4(1+u) is a square. */
static void g2_non_subgroup(g2_affine_t *q) {
    fp2_t b, four = {0};
    fp_from_u64(&four.c0, 4);
    fp2_mul_by_nonresidue(&b, &four);
    for (;;) {
        fp2_t x, y, t;
        pm_rand_fp(&x.c0);
        pm_rand_fp(&x.c1);
        fp2_sqr(&t, &x);
        fp2_mul(&t, &t, &x);
        fp2_add(&t, &t, &b);
        if (!fp2_sqrt_vartime(&y, &t)) continue;
        q->x = x;
        q->y = y;
        assert_true(g2_affine_is_on_curve(q));
        if (!g2_affine_in_subgroup_vartime(q)) return;
    }
}

static void test_subgroup(void **state) {
    (void)state;
    pm_error err;
    g2_affine_t q;
    g2_non_subgroup(&q);
    uint8_t *b = malloc(IMG_N);
    memcpy(b, IMG, IMG_N);
    uint64_t pt = OFF[5] + 4; /* b_g2[0] */
    g2_to_uncompressed(b + pt, &q);
    assert_int_equal(load(b, IMG_N, 0, &err), PM_OK); /* on the curve: fine without the flag */
    assert_int_equal(load(b, IMG_N, BP_PARAMS_CHECK_SUBGROUP, &err), PM_ERR_NOT_IN_SUBGROUP);
    assert_int_equal(err.offset, pt);
    assert_non_null(strstr(err.msg, "b_g2"));
    /* the same in the vk's gamma_g2 (offset 96 + 96 + 192) */
    memcpy(b, IMG, IMG_N);
    g2_to_uncompressed(b + 384, &q);
    bp_vk_t vk;
    assert_int_equal(params_vk_read_memory(&vk, b, (size_t)OFF[1], "x.vk", BP_PARAMS_CHECK_SUBGROUP, &err),
                     PM_ERR_NOT_IN_SUBGROUP);
    assert_int_equal(err.offset, 384);
    /* and in a proof's B: always refused (proofs are subgroup-checked) */
    uint8_t pr[192];
    groth16_proof_t p;
    p.a = G1_GENERATOR;
    p.c = G1_GENERATOR;
    p.b = q;
    groth16_proof_to_bytes(pr, &p);
    assert_int_equal(groth16_proof_from_bytes(&p, pr, "p.bin", 0, &err), PM_ERR_NOT_IN_SUBGROUP);
    assert_int_equal(err.offset, 48);
    free(b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_points),
        cmocka_unit_test(test_subgroup),
    };
    return cmocka_run_group_tests(tests, setup_img, teardown_img);
}
