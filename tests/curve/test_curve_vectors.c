/*
 * Known-answer tests for G1/G2 arithmetic and encodings against vectors produced by
 * @noble/curves and ffjavascript (tests/vectors/gen_noble.mjs -> tests/vectors/bls12_381_*.txt).
 * Every record of the files is checked; the counts are printed and must be nonzero.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "curve/encoding.h"
#include "curve/g1.h"
#include "curve/g2.h"

#define MAX_TOK 32

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* hex string -> bytes; returns the byte count or -1 */
static long hex_to_bytes(uint8_t *out, size_t cap, const char *hex) {
    size_t n = strlen(hex);
    if (n % 2 || n / 2 > cap) return -1;
    for (size_t i = 0; i < n / 2; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (long)(n / 2);
}

/* a field element token: "0" or 96 hex digits big-endian, plain -> Montgomery */
static void tok_fp(fp_t *r, const char *t) {
    if (strcmp(t, "0") == 0) {
        *r = FP_ZERO_ELEM;
        return;
    }
    uint8_t b[48];
    assert_int_equal(hex_to_bytes(b, 48, t), 48);
    assert_int_equal(fp_from_be_bytes(r, b), 0);
}

/* a scalar token: 64 hex digits -> 4 little-endian limbs */
static void tok_scalar(uint64_t k[4], const char *t) {
    uint8_t b[32];
    assert_int_equal(hex_to_bytes(b, 32, t), 32);
    for (int i = 0; i < 4; i++) {
        k[i] = 0;
        for (int j = 0; j < 8; j++) k[i] |= (uint64_t)b[31 - 8 * i - j] << (8 * j);
    }
}

static void tok_g1(g1_affine_t *p, char **t) {
    tok_fp(&p->x, t[0]);
    tok_fp(&p->y, t[1]);
}

static void tok_g2(g2_affine_t *p, char **t) {
    tok_fp(&p->x.c0, t[0]);
    tok_fp(&p->x.c1, t[1]);
    tok_fp(&p->y.c0, t[2]);
    tok_fp(&p->y.c1, t[3]);
}

static FILE *open_vectors(const char *name) {
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/vectors/%s", pm_source_dir(), name);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("cannot open %s", path);
    return f;
}

/* split a line into tokens; returns the count */
static int tokenize(char *line, char **tok) {
    int n = 0;
    for (char *s = strtok(line, " \t\r\n"); s && n < MAX_TOK; s = strtok(NULL, " \t\r\n")) tok[n++] = s;
    return n;
}

static int scalar_below_r(const uint64_t k[4]) {
    for (int i = 3; i >= 0; i--) {
        if (k[i] != FR_MODULUS.l[i]) return k[i] < FR_MODULUS.l[i];
    }
    return 0;
}

static pm_status reason_status(const char *why) {
    if (strcmp(why, "encoding") == 0) return PM_ERR_ENCODING;
    if (strcmp(why, "not-on-curve") == 0) return PM_ERR_NOT_ON_CURVE;
    if (strcmp(why, "not-in-subgroup") == 0) return PM_ERR_NOT_IN_SUBGROUP;
    fail_msg("unknown reason %s", why);
    return PM_ERR_INTERNAL;
}

static pm_point_format fmt_of(const char *t) {
    if (strcmp(t, "c") == 0) return PM_POINT_ZCASH_COMPRESSED;
    if (strcmp(t, "u") == 0) return PM_POINT_ZCASH_UNCOMPRESSED;
    if (strcmp(t, "lem") == 0) return PM_POINT_SNARKJS_LEM;
    fail_msg("unknown format %s", t);
    return PM_POINT_SNARKJS_LEM;
}

/* ------------------------------------------------------------------ G1 */

static void g1_file(void **state) {
    (void)state;
    FILE *f = open_vectors("bls12_381_g1.txt");
    char line[4096], *t[MAX_TOK];
    unsigned n_mul = 0, n_add = 0, n_enc = 0, n_bad = 0;
    g1_jac_t g;
    g1_jac_from_affine(&g, &G1_GENERATOR);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        int nt = tokenize(line, t);
        if (nt == 0) continue;
        if (strcmp(t[0], "mul") == 0) {
            assert_int_equal(nt, 4);
            uint64_t k[4];
            g1_affine_t want, got;
            tok_scalar(k, t[1]);
            tok_g1(&want, t + 2);
            g1_jac_t r;
            g1_jac_mul_vartime(&r, &g, k, 4);
            g1_jac_to_affine(&got, &r);
            assert_true(g1_affine_eq(&got, &want));
            if (scalar_below_r(k)) {
                fr_t plain, m;
                memcpy(plain.l, k, sizeof plain.l);
                fr_to_mont(&m, &plain);
                g1_jac_mul_fr(&r, &g, &m);
                g1_jac_to_affine(&got, &r);
                assert_true(g1_affine_eq(&got, &want));
            }
            n_mul++;
        } else if (strcmp(t[0], "add") == 0) {
            assert_int_equal(nt, 7);
            g1_affine_t a, b, s, got;
            tok_g1(&a, t + 1);
            tok_g1(&b, t + 3);
            tok_g1(&s, t + 5);
            g1_jac_t ja, jb, r;
            g1_jac_from_affine(&ja, &a);
            g1_jac_from_affine(&jb, &b);
            g1_jac_add(&r, &ja, &jb);
            g1_jac_to_affine(&got, &r);
            assert_true(g1_affine_eq(&got, &s));
            g1_jac_add_affine(&r, &ja, &b);
            g1_jac_to_affine(&got, &r);
            assert_true(g1_affine_eq(&got, &s));
            g1_xyzz_t xa, xb, xr;
            g1_xyzz_from_affine(&xa, &a);
            g1_xyzz_from_affine(&xb, &b);
            g1_xyzz_add(&xr, &xa, &xb);
            g1_xyzz_to_affine(&got, &xr);
            assert_true(g1_affine_eq(&got, &s));
            g1_xyzz_add_affine(&xr, &xa, &b);
            g1_xyzz_to_affine(&got, &xr);
            assert_true(g1_affine_eq(&got, &s));
            n_add++;
        } else if (strcmp(t[0], "enc") == 0) {
            assert_int_equal(nt, 6);
            g1_affine_t p, d;
            tok_g1(&p, t + 1);
            uint8_t want[96], got[96];
            const pm_point_format fmts[3] = {PM_POINT_ZCASH_COMPRESSED, PM_POINT_ZCASH_UNCOMPRESSED,
                                             PM_POINT_SNARKJS_LEM};
            for (int i = 0; i < 3; i++) {
                long len = hex_to_bytes(want, sizeof want, t[3 + i]);
                assert_int_equal(len, (long)g1_encoded_size(fmts[i]));
                assert_int_equal(g1_encode(got, (size_t)len, &p, fmts[i]), PM_OK);
                assert_memory_equal(got, want, (size_t)len);
                pm_error err;
                assert_int_equal(g1_decode(&d, want, (size_t)len, fmts[i], PM_DECODE_CHECK_SUBGROUP, &err), PM_OK);
                assert_true(g1_affine_eq(&d, &p));
                /* [r]P = O for every decoded point */
                g1_jac_t j;
                g1_jac_from_affine(&j, &d);
                g1_jac_mul_vartime(&j, &j, FR_MODULUS.l, 4);
                assert_true(g1_jac_is_infinity(&j));
            }
            n_enc++;
        } else if (strcmp(t[0], "bad") == 0) {
            assert_int_equal(nt, 4);
            pm_point_format fmt = fmt_of(t[1]);
            pm_status want = reason_status(t[2]);
            uint8_t in[96];
            long len = hex_to_bytes(in, sizeof in, t[3]);
            assert_int_equal(len, (long)g1_encoded_size(fmt));
            g1_affine_t d;
            pm_error err;
            pm_error_clear(&err);
            pm_status st = g1_decode(&d, in, (size_t)len, fmt, PM_DECODE_CHECK_SUBGROUP, &err);
            if (st != want) fail_msg("bad %s %s %s: got status %s (%s)", t[1], t[2], t[3], pm_status_name(st), err.msg);
            assert_int_equal(err.code, want);
            assert_true(strlen(err.msg) > 0);
            assert_true(g1_affine_is_infinity(&d));
            /* without the subgroup check only subgroup failures pass, and they are on the curve */
            st = g1_decode(&d, in, (size_t)len, fmt, 0, &err);
            if (want == PM_ERR_NOT_IN_SUBGROUP) {
                assert_int_equal(st, PM_OK);
                assert_true(g1_affine_is_on_curve(&d));
                assert_false(g1_affine_is_infinity(&d));
                g1_jac_t j;
                g1_jac_from_affine(&j, &d);
                g1_jac_mul_vartime(&j, &j, FR_MODULUS.l, 4);
                assert_false(g1_jac_is_infinity(&j));
            } else {
                assert_int_equal(st, want);
            }
            n_bad++;
        } else {
            fail_msg("unknown record %s", t[0]);
        }
    }
    fclose(f);
    printf("G1 vectors: %u mul, %u add, %u enc, %u bad\n", n_mul, n_add, n_enc, n_bad);
    assert_true(n_mul > 10 && n_add > 5 && n_enc > 10 && n_bad > 20);
}

/* ------------------------------------------------------------------ G2 */

static void g2_file(void **state) {
    (void)state;
    FILE *f = open_vectors("bls12_381_g2.txt");
    char line[4096], *t[MAX_TOK];
    unsigned n_mul = 0, n_add = 0, n_enc = 0, n_bad = 0;
    g2_jac_t g;
    g2_jac_from_affine(&g, &G2_GENERATOR);
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        int nt = tokenize(line, t);
        if (nt == 0) continue;
        if (strcmp(t[0], "mul") == 0) {
            assert_int_equal(nt, 6);
            uint64_t k[4];
            g2_affine_t want, got;
            tok_scalar(k, t[1]);
            tok_g2(&want, t + 2);
            g2_jac_t r;
            g2_jac_mul_vartime(&r, &g, k, 4);
            g2_jac_to_affine(&got, &r);
            assert_true(g2_affine_eq(&got, &want));
            if (scalar_below_r(k)) {
                fr_t plain, m;
                memcpy(plain.l, k, sizeof plain.l);
                fr_to_mont(&m, &plain);
                g2_jac_mul_fr(&r, &g, &m);
                g2_jac_to_affine(&got, &r);
                assert_true(g2_affine_eq(&got, &want));
            }
            n_mul++;
        } else if (strcmp(t[0], "add") == 0) {
            assert_int_equal(nt, 13);
            g2_affine_t a, b, s, got;
            tok_g2(&a, t + 1);
            tok_g2(&b, t + 5);
            tok_g2(&s, t + 9);
            g2_jac_t ja, jb, r;
            g2_jac_from_affine(&ja, &a);
            g2_jac_from_affine(&jb, &b);
            g2_jac_add(&r, &ja, &jb);
            g2_jac_to_affine(&got, &r);
            assert_true(g2_affine_eq(&got, &s));
            g2_jac_add_affine(&r, &ja, &b);
            g2_jac_to_affine(&got, &r);
            assert_true(g2_affine_eq(&got, &s));
            g2_xyzz_t xa, xb, xr;
            g2_xyzz_from_affine(&xa, &a);
            g2_xyzz_from_affine(&xb, &b);
            g2_xyzz_add(&xr, &xa, &xb);
            g2_xyzz_to_affine(&got, &xr);
            assert_true(g2_affine_eq(&got, &s));
            g2_xyzz_add_affine(&xr, &xa, &b);
            g2_xyzz_to_affine(&got, &xr);
            assert_true(g2_affine_eq(&got, &s));
            n_add++;
        } else if (strcmp(t[0], "enc") == 0) {
            assert_int_equal(nt, 8);
            g2_affine_t p, d;
            tok_g2(&p, t + 1);
            uint8_t want[192], got[192];
            const pm_point_format fmts[3] = {PM_POINT_ZCASH_COMPRESSED, PM_POINT_ZCASH_UNCOMPRESSED,
                                             PM_POINT_SNARKJS_LEM};
            for (int i = 0; i < 3; i++) {
                long len = hex_to_bytes(want, sizeof want, t[5 + i]);
                assert_int_equal(len, (long)g2_encoded_size(fmts[i]));
                assert_int_equal(g2_encode(got, (size_t)len, &p, fmts[i]), PM_OK);
                assert_memory_equal(got, want, (size_t)len);
                pm_error err;
                assert_int_equal(g2_decode(&d, want, (size_t)len, fmts[i], PM_DECODE_CHECK_SUBGROUP, &err), PM_OK);
                assert_true(g2_affine_eq(&d, &p));
                g2_jac_t j;
                g2_jac_from_affine(&j, &d);
                g2_jac_mul_vartime(&j, &j, FR_MODULUS.l, 4);
                assert_true(g2_jac_is_infinity(&j));
            }
            n_enc++;
        } else if (strcmp(t[0], "bad") == 0) {
            assert_int_equal(nt, 4);
            pm_point_format fmt = fmt_of(t[1]);
            pm_status want = reason_status(t[2]);
            uint8_t in[192];
            long len = hex_to_bytes(in, sizeof in, t[3]);
            assert_int_equal(len, (long)g2_encoded_size(fmt));
            g2_affine_t d;
            pm_error err;
            pm_error_clear(&err);
            pm_status st = g2_decode(&d, in, (size_t)len, fmt, PM_DECODE_CHECK_SUBGROUP, &err);
            if (st != want) fail_msg("bad %s %s %s: got status %s (%s)", t[1], t[2], t[3], pm_status_name(st), err.msg);
            assert_int_equal(err.code, want);
            assert_true(g2_affine_is_infinity(&d));
            st = g2_decode(&d, in, (size_t)len, fmt, 0, &err);
            if (want == PM_ERR_NOT_IN_SUBGROUP) {
                assert_int_equal(st, PM_OK);
                assert_true(g2_affine_is_on_curve(&d));
                g2_jac_t j;
                g2_jac_from_affine(&j, &d);
                g2_jac_mul_vartime(&j, &j, FR_MODULUS.l, 4);
                assert_false(g2_jac_is_infinity(&j));
            } else {
                assert_int_equal(st, want);
            }
            n_bad++;
        } else {
            fail_msg("unknown record %s", t[0]);
        }
    }
    fclose(f);
    printf("G2 vectors: %u mul, %u add, %u enc, %u bad\n", n_mul, n_add, n_enc, n_bad);
    assert_true(n_mul > 10 && n_add > 5 && n_enc > 10 && n_bad > 20);
}

/* The pairing vectors are the pairing layer's to check; here: their points are [A]G1, [B]G2 and
 * the 12 Fp12 coefficients are canonical, so the file is usable as written. */
static void pairing_file_points(void **state) {
    (void)state;
    FILE *f = open_vectors("bls12_381_pairing.txt");
    char line[8192], *t[MAX_TOK];
    unsigned n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        int nt = tokenize(line, t);
        if (nt == 0) continue;
        assert_string_equal(t[0], "pair");
        assert_int_equal(nt, 1 + 2 + 2 + 4 + 12);
        uint64_t a[4], b[4];
        tok_scalar(a, t[1]);
        tok_scalar(b, t[2]);
        g1_affine_t pa, got1;
        g2_affine_t qb, got2;
        tok_g1(&pa, t + 3);
        tok_g2(&qb, t + 5);
        g1_jac_t j1;
        g2_jac_t j2;
        g1_jac_from_affine(&j1, &G1_GENERATOR);
        g1_jac_mul_vartime(&j1, &j1, a, 4);
        g1_jac_to_affine(&got1, &j1);
        assert_true(g1_affine_eq(&got1, &pa));
        g2_jac_from_affine(&j2, &G2_GENERATOR);
        g2_jac_mul_vartime(&j2, &j2, b, 4);
        g2_jac_to_affine(&got2, &j2);
        assert_true(g2_affine_eq(&got2, &qb));
        for (int i = 0; i < 12; i++) {
            fp_t c;
            tok_fp(&c, t[9 + i]);
        }
        n++;
    }
    fclose(f);
    printf("pairing vectors: %u records (points checked; Fp12 values are for the pairing layer)\n", n);
    assert_true(n >= 4);
}

/* The batch decoder: offsets and indices of the first bad point, in a .zkey-like buffer. */
static void batch_decoder(void **state) {
    (void)state;
    pm_test_seed();
    enum { N = 5 };
    uint8_t buf[N * 192];
    g1_affine_t pts[N], out[N];
    g1_jac_t g;
    g1_jac_from_affine(&g, &G1_GENERATOR);
    for (int i = 0; i < N; i++) {
        fr_t k;
        pm_rand_fr(&k);
        g1_jac_t t;
        g1_jac_mul_fr(&t, &g, &k);
        g1_jac_to_affine(&pts[i], &t);
        g1_to_lem(buf + 96 * i, &pts[i]);
    }
    memset(&pts[2], 0, sizeof pts[2]); /* an infinity in the middle */
    g1_to_lem(buf + 96 * 2, &pts[2]);
    pm_error err;
    size_t bad = 99;
    assert_int_equal(g1s_decode(out, N, buf, PM_POINT_SNARKJS_LEM, PM_DECODE_CHECK_SUBGROUP, "x.zkey", 1000,
                                &bad, &err),
                     PM_OK);
    for (int i = 0; i < N; i++) assert_true(g1_affine_eq(&out[i], &pts[i]));
    buf[96 * 3 + 50] ^= 0x01; /* y of point 3 */
    assert_int_equal(g1s_decode(out, N, buf, PM_POINT_SNARKJS_LEM, 0, "x.zkey", 1000, &bad, &err),
                     PM_ERR_NOT_ON_CURVE);
    assert_int_equal(bad, 3);
    assert_int_equal(err.offset, 1000 + 3 * 96);
    assert_string_equal(err.file, "x.zkey");
    assert_non_null(strstr(err.msg, "point 3"));
    char msg[1200];
    printf("batch error: %s\n", pm_error_format(&err, msg, sizeof msg));

    /* G2 compressed, with a non-canonical x.c0 at index 1 */
    uint8_t b2[3 * 96];
    g2_affine_t q[3], qo[3];
    g2_jac_t h;
    g2_jac_from_affine(&h, &G2_GENERATOR);
    for (int i = 0; i < 3; i++) {
        fr_t k;
        pm_rand_fr(&k);
        g2_jac_t t;
        g2_jac_mul_fr(&t, &h, &k);
        g2_jac_to_affine(&q[i], &t);
        g2_to_compressed(b2 + 96 * i, &q[i]);
    }
    assert_int_equal(g2s_decode(qo, 3, b2, PM_POINT_ZCASH_COMPRESSED, PM_DECODE_CHECK_SUBGROUP, NULL, 0, &bad,
                                &err),
                     PM_OK);
    for (int i = 0; i < 3; i++) assert_true(g2_affine_eq(&qo[i], &q[i]));
    memset(b2 + 96 + 48, 0xff, 48);
    assert_int_equal(g2s_decode(qo, 3, b2, PM_POINT_ZCASH_COMPRESSED, PM_DECODE_CHECK_SUBGROUP, NULL, 0, &bad,
                                &err),
                     PM_ERR_ENCODING);
    assert_int_equal(bad, 1);
    assert_int_equal(err.offset, 96);
    /* wrong lengths and formats */
    g1_affine_t d;
    assert_int_equal(g1_decode(&d, buf, 95, PM_POINT_SNARKJS_LEM, 0, &err), PM_ERR_ENCODING);
    assert_int_equal(g1_decode(&d, buf, 48, PM_POINT_ZCASH_UNCOMPRESSED, 0, &err), PM_ERR_ENCODING);
    assert_int_equal(g1_decode(&d, buf, 48, (pm_point_format)7, 0, &err), PM_ERR_ARG);
    assert_int_equal(g1_encode(buf, 47, &pts[0], PM_POINT_ZCASH_COMPRESSED), PM_ERR_ENCODING);
}

/* Random round trips in every format (decode(encode(P)) = P), both signs of y. */
static void round_trips(void **state) {
    (void)state;
    pm_test_seed();
    size_t iters = pm_test_iters(20);
    g1_jac_t g;
    g2_jac_t h;
    g1_jac_from_affine(&g, &G1_GENERATOR);
    g2_jac_from_affine(&h, &G2_GENERATOR);
    for (size_t it = 0; it < iters; it++) {
        fr_t k;
        pm_rand_fr(&k);
        g1_jac_t t1;
        g2_jac_t t2;
        g1_affine_t p, d;
        g2_affine_t q, e;
        g1_jac_mul_fr(&t1, &g, &k);
        g1_jac_to_affine(&p, &t1);
        g2_jac_mul_fr(&t2, &h, &k);
        g2_jac_to_affine(&q, &t2);
        if (it & 1) {
            g1_affine_neg(&p, &p);
            g2_affine_neg(&q, &q);
        }
        uint8_t b[192];
        pm_error err;
        for (int f = 0; f < 3; f++) {
            size_t n1 = g1_encoded_size((pm_point_format)f), n2 = g2_encoded_size((pm_point_format)f);
            assert_int_equal(g1_encode(b, n1, &p, (pm_point_format)f), PM_OK);
            assert_int_equal(g1_decode(&d, b, n1, (pm_point_format)f, PM_DECODE_CHECK_SUBGROUP, &err), PM_OK);
            assert_true(g1_affine_eq(&d, &p));
            assert_int_equal(g2_encode(b, n2, &q, (pm_point_format)f), PM_OK);
            assert_int_equal(g2_decode(&e, b, n2, (pm_point_format)f, PM_DECODE_CHECK_SUBGROUP, &err), PM_OK);
            assert_true(g2_affine_eq(&e, &q));
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(g1_file),      cmocka_unit_test(g2_file),     cmocka_unit_test(pairing_file_points),
        cmocka_unit_test(batch_decoder), cmocka_unit_test(round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
