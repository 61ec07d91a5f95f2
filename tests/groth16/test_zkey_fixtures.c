/* .zkey reader on the shared fixtures: counts and cross-checks with r1cs and witness; the snarkjs
 * A/B evaluation from the coefficient section (bucketed SpMV == file-order montmul(value, w_plain))
 * satisfies the r1cs (a∘b = C·w on constraint rows, input rows a = w_i, b = 0, rest 0); the
 * snarkjs H-phase output is the coset image of a polynomial of degree <= 2N-2 (i.e. A·B - C is
 * divisible by X^N - 1); hostile inputs (bn128, truncations, lying sizes, duplicates, bad points,
 * bad coefficients, wrong protocol, mismatched witness / r1cs). Skips visibly without fixtures. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/zkey.h"
#include "ntt/ntt.h"
#include "r1cs/r1cs.h"
#include "r1cs/wtns.h"
#include "util/file.h"

static const char *const BLS[] = {"multiplier", "merkle_poseidon", "sha256_64"};

/* ../shared/fixtures when present, else the repository's tests/data stand-ins (test_util.h). */
static int fixture_path(char *out, size_t n, const char *curve, const char *circ, const char *file) {
    return pm_fixture_path(out, n, curve, circ, file);
}

static void zkey_fixtures(void **state) {
    (void)state;
    char path[4096];
    for (size_t i = 0; i < sizeof BLS / sizeof *BLS; i++) {
        if (!fixture_path(path, sizeof path, "bls12381", BLS[i], "circuit.zkey")) return;
        zkey_t zk;
        pm_error err;
        pm_status st = zkey_read(&zk, path, 0, &err);
        if (st) printf("%s: %s (offset %llu)\n", path, err.msg, (unsigned long long)err.offset);
        assert_int_equal(st, PM_OK);
        printf("%s: nVars %u nPublic %u domain 2^%u rows used %u coefs %u (A %llu, B %llu) "
               "contributions %u\n",
               BLS[i], zk.n_vars, zk.n_public, zk.log2_domain, zk.n_rows_used, zk.n_coefs,
               (unsigned long long)zk.A_dom.nnz, (unsigned long long)zk.B_dom.nnz,
               zk.n_contributions);
        assert_true(g2_affine_eq(&zk.gamma2, &G2_GENERATOR));

        r1cs_t cs;
        fixture_path(path, sizeof path, "bls12381", BLS[i], "circuit.r1cs");
        assert_int_equal(r1cs_read(&cs, path, &err), PM_OK);
        st = zkey_check_r1cs(&zk, &cs, path, &err);
        if (st) printf("%s\n", err.msg);
        assert_int_equal(st, PM_OK);
        wtns_t w;
        fixture_path(path, sizeof path, "bls12381", BLS[i], "witness.wtns");
        assert_int_equal(wtns_read(&w, path, &err), PM_OK);
        assert_int_equal(zkey_check_witness(&zk, &w, path, &err), PM_OK);

        size_t N = zk.domain_size;
        fr_t *a = malloc(N * sizeof(fr_t)), *b = malloc(N * sizeof(fr_t));
        fr_t *c = malloc(cs.n_constraints * sizeof(fr_t)), *s = malloc(N * sizeof(fr_t));
        assert_int_equal(zkey_eval_ab(a, b, N, &zk, w.values, w.n_values, &err), PM_OK);
        /* the file-order route, exactly as groth16_prove.js: montmul(value, w_plain) */
        fr_t *a2 = calloc(N, sizeof(fr_t)), *b2 = calloc(N, sizeof(fr_t));
        for (uint32_t k = 0; k < zk.n_coefs; k++) {
            const zkey_coef_t *e = &zk.coefs[k];
            fr_t wp, t;
            fr_from_mont(&wp, &w.values[e->signal]);
            fr_mul(&t, &e->value, &wp);
            fr_t *dst = e->matrix ? &b2[e->constraint] : &a2[e->constraint];
            fr_add(dst, dst, &t);
        }
        for (size_t k = 0; k < N; k++) {
            assert_true(fr_eq(&a[k], &a2[k]));
            assert_true(fr_eq(&b[k], &b2[k]));
        }
        /* a∘b = C·w on the r1cs rows; input rows: a = w_i, b = 0 */
        assert_int_equal(r1cs_matrix_mul(c, cs.n_constraints, &cs.C, w.values, w.n_values, &err),
                         PM_OK);
        for (uint32_t k = 0; k < cs.n_constraints; k++) {
            fr_t t;
            fr_mul(&t, &a[k], &b[k]);
            assert_true(fr_eq(&t, &c[k]));
        }
        for (uint32_t j = 0; j <= zk.n_public; j++) {
            assert_true(fr_eq(&a[cs.n_constraints + j], &w.values[j]));
            assert_true(fr_is_zero(&b[cs.n_constraints + j]));
        }
        for (size_t k = zk.n_rows_used; k < N; k++) assert_true(fr_is_zero(&a[k]) && fr_is_zero(&b[k]));

        /* H-phase: p on the odd coset; H = -p/2 there (Z = X^N - 1 = -2 on omega_2N*<omega_N>);
         * its interpolant must have degree <= N-2, so coefficient N-1 is 0. */
        ntt_domain_t d;
        assert_int_equal(ntt_domain_init(&d, zk.log2_domain, NTT_ROOTS_SNARKJS, &err), PM_OK);
        assert_int_equal(ntt_snarkjs_h(a, N, a, b, s, &d, &err), PM_OK);
        for (size_t k = 0; k < N; k++) fr_to_mont(&a[k], &a[k]); /* back to Montgomery */
        ntt_coset_inverse(a, N, &d, &d.omega_2n);
        assert_true(fr_is_zero(&a[N - 1]));
        int nonzero = 0;
        for (size_t k = 0; k + 1 < N; k++) nonzero += !fr_is_zero(&a[k]);
        assert_true(nonzero > 0);
        /* (No "wrong witness" variant here: snarkjs takes C = a∘b on the domain, so A·B - C is
         * divisible by Z for any witness; an invalid witness only gives a proof that fails to
         * verify. The r1cs check above is what catches it.) */
        ntt_domain_free(&d);

        /* the same key with a subgroup check: all points pass */
        if (i < 2) {
            zkey_t z2;
            fixture_path(path, sizeof path, "bls12381", BLS[i], "circuit.zkey");
            assert_int_equal(zkey_read(&z2, path, ZKEY_CHECK_SUBGROUP | ZKEY_SKIP_COEFS_LIST, &err),
                             PM_OK);
            assert_null(z2.coefs);
            assert_true(g1_affine_eq(&z2.h[N - 1], &zk.h[N - 1]));
            zkey_free(&z2);
        }
        free(a); free(b); free(a2); free(b2); free(c); free(s);
        wtns_free(&w);
        r1cs_free(&cs);
        zkey_free(&zk);
    }
}

static void zkey_mismatches(void **state) {
    (void)state;
    char path[4096];
    if (!fixture_path(path, sizeof path, "bls12381", "merkle_poseidon", "circuit.zkey")) return;
    zkey_t zk;
    pm_error err;
    assert_int_equal(zkey_read(&zk, path, 0, &err), PM_OK);
    wtns_t w;
    r1cs_t cs;
    fixture_path(path, sizeof path, "bls12381", "multiplier", "witness.wtns");
    assert_int_equal(wtns_read(&w, path, &err), PM_OK);
    assert_int_equal(zkey_check_witness(&zk, &w, path, &err), PM_ERR_MISMATCH);
    printf("%s\n", err.msg);
    fr_t a[4];
    assert_int_equal(zkey_eval_ab(a, NULL, 4, &zk, w.values, w.n_values, &err), PM_ERR_MISMATCH);
    fixture_path(path, sizeof path, "bls12381", "multiplier", "circuit.r1cs");
    assert_int_equal(r1cs_read(&cs, path, &err), PM_OK);
    assert_int_equal(zkey_check_r1cs(&zk, &cs, path, &err), PM_ERR_MISMATCH);
    printf("%s\n", err.msg);
    r1cs_free(&cs);
    wtns_free(&w);
    zkey_free(&zk);
    /* bn128 zkey */
    if (!fixture_path(path, sizeof path, "bn128", "merkle_poseidon", "circuit.zkey")) return;
    assert_int_equal(zkey_read(&zk, path, 0, &err), PM_ERR_CURVE);
    char buf[1200];
    printf("%s\n", pm_error_format(&err, buf, sizeof buf));
    assert_non_null(strstr(err.msg, "bn128 is not supported yet"));
    assert_int_equal(zk.n_vars, 0);
    assert_int_equal(zkey_domain_size_for(1, 1), 4);
    assert_int_equal(zkey_domain_size_for(10815, 1), 1 << 14);
    assert_int_equal(zkey_domain_size_for(62528, 256), 1 << 16);
}

static pm_status try_image(const uint8_t *img, size_t n, pm_error *err) {
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, img, n);
    zkey_t zk;
    pm_status st = zkey_read_memory(&zk, copy, n, "hostile.zkey", 0, err);
    zkey_free(&zk);
    free(copy);
    return st;
}


static void zkey_hostile(void **state) {
    (void)state;
    pm_test_seed();
    char path[4096];
    const char *circs[] = {"multiplier", "merkle_poseidon"};
    for (int ci = 0; ci < 2; ci++) {
        if (!fixture_path(path, sizeof path, "bls12381", circs[ci], "circuit.zkey")) return;
        size_t n;
        uint8_t *img = pm_test_slurp(path, &n);
        assert_non_null(img);
        pm_error err;
        pm_binfile bf;
        assert_int_equal(pm_binfile_open_memory(&bf, img, n, "x", "zkey", 1, &err), PM_OK);
        int tried = 0;
        for (uint32_t s = 0; s < bf.n_sections; s++) {
            const pm_section *sec = &bf.sections[s];
            uint64_t cuts[] = {sec->header_offset, sec->header_offset + 7, sec->offset,
                               sec->offset + 1, sec->offset + sec->size / 2,
                               sec->offset + sec->size - 1};
            for (size_t k = 0; k < sizeof cuts / sizeof *cuts; k++) {
                if (cuts[k] >= n) continue;
                assert_int_not_equal(try_image(img, cuts[k], &err), PM_OK);
                tried++;
            }
        }
        int nrand = ci == 0 ? 40 : 10;
        for (int k = 0; k < nrand; k++) {
            assert_int_not_equal(try_image(img, pm_rand64() % n, &err), PM_OK);
            tried++;
        }
        printf("%s: %d truncations refused, last: \"%s\"\n", circs[ci], tried, err.msg);

        uint8_t *m = malloc(n);
        memcpy(m, img, n);
        m[3] = 's';
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        memcpy(m, img, n);
        pm_put_le32(m + 4, 2);
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        for (uint32_t s = 0; s < bf.n_sections; s++) {
            memcpy(m, img, n);
            pm_put_le64(m + bf.sections[s].header_offset + 4, (uint64_t)n);
            assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
            assert_int_equal(err.offset, bf.sections[s].header_offset);
        }
        /* a size field off by one (file unchanged) is refused; when the misplaced next header is
         * what fails (it may also parse as a small garbage section and the failure come later), the
         * error names that size field */
        int named = 0;
        for (uint32_t s = 0; s < bf.n_sections; s++)
            for (int d = -1; d <= 1; d += 2) {
                const pm_section *sec = &bf.sections[s];
                memcpy(m, img, n);
                pm_put_le64(m + sec->header_offset + 4, sec->size + (uint64_t)(int64_t)d);
                assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
                char want[64];
                snprintf(want, sizeof want, "size field at offset %llu", (unsigned long long)(sec->header_offset + 4));
                if (s + 1 == bf.n_sections && d > 0) { /* the last section itself claims a byte too many */
                    assert_int_equal(err.offset, sec->header_offset);
                } else if (err.offset == sec->offset + sec->size + (uint64_t)(int64_t)d) {
                    if (!strstr(err.msg, want)) fail_msg("section #%u size %+d: \"%s\" does not name the %s", s, d, err.msg, want);
                    named++;
                }
            }
        assert_true(named > 0);
        printf("a size field off by one: %d errors at the next header name it, e.g. \"%s\"\n", named, err.msg);
        /* duplicate: relabel section 10 (transcript) as 9 */
        const pm_section *s10 = pm_binfile_find(&bf, 10);
        if (s10) {
            memcpy(m, img, n);
            pm_put_le32(m + s10->header_offset, 9);
            assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
            assert_non_null(strstr(err.msg, "duplicate"));
        }
        /* protocol plonk */
        const pm_section *s1 = pm_binfile_find(&bf, 1), *s2 = pm_binfile_find(&bf, 2),
                         *s4 = pm_binfile_find(&bf, 4), *s5 = pm_binfile_find(&bf, 5),
                         *s7 = pm_binfile_find(&bf, 7);
        memcpy(m, img, n);
        pm_put_le32(m + s1->offset, 2);
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        assert_non_null(strstr(err.msg, "plonk"));
        /* header: nVars changed -> section sizes disagree */
        uint64_t counts = s2->offset + 4 + 48 + 4 + 32;
        memcpy(m, img, n);
        pm_put_le32(m + counts, (uint32_t)(img[counts] + 1));
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        printf("nVars+1: %s\n", err.msg);
        memcpy(m, img, n);
        pm_put_le32(m + counts + 4, 0x7fffffff); /* nPublic */
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        memcpy(m, img, n);
        pm_put_le32(m + counts + 8, 3); /* domainSize */
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        pm_put_le32(m + counts + 8, 1u << 31); /* huge domain: refused by section 9's size, no big alloc */
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        assert_non_null(strstr(err.msg, "section 9"));
        memcpy(m, img, n);
        pm_put_le32(m + counts, 0x7fffffffu); /* huge nVars */
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        /* a point off the curve: A point 1's y += 1 in the last limb byte 0 */
        memcpy(m, img, n);
        uint64_t p1 = s5->offset + 96;
        m[p1 + 48] ^= 1;
        pm_status st = try_image(m, n, &err);
        printf("bad point: %s (offset %llu, point at %llu)\n", err.msg,
               (unsigned long long)err.offset, (unsigned long long)p1);
        assert_int_equal(st, PM_ERR_NOT_ON_CURVE);
        assert_int_equal(err.offset, p1);
        assert_non_null(strstr(err.msg, "section 5"));
        assert_non_null(strstr(err.msg, "point 1:"));
        /* a non-canonical coordinate */
        memcpy(m, img, n);
        memset(m + s7->offset + 192 + 48, 0xff, 48);
        assert_int_equal(try_image(m, n, &err), PM_ERR_ENCODING);
        assert_int_equal(err.offset, s7->offset + 192); /* the point's offset */
        printf("bad G2: %s\n", err.msg);
        /* a header point */
        memcpy(m, img, n);
        m[counts + 12 + 5] ^= 0x10; /* alpha_1.x */
        st = try_image(m, n, &err);
        assert_true(st == PM_ERR_NOT_ON_CURVE || st == PM_ERR_ENCODING);
        printf("bad alpha: %s\n", err.msg);
        /* coefficients: matrix 2, constraint >= N, signal >= nVars, value >= r, count lying */
        uint64_t c0 = s4->offset + 4;
        memcpy(m, img, n);
        pm_put_le32(m + c0, 2);
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        assert_int_equal(err.offset, c0);
        memcpy(m, img, n);
        pm_put_le32(m + c0 + 4, 1u << 30);
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        memcpy(m, img, n);
        pm_put_le32(m + c0 + 8, 0xffffffffu);
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        printf("bad signal: %s\n", err.msg);
        memcpy(m, img, n);
        memset(m + c0 + 12, 0xff, 32);
        assert_int_equal(try_image(m, n, &err), PM_ERR_ENCODING);
        memcpy(m, img, n);
        pm_put_le32(m + s4->offset, 0xffffffffu);
        assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
        free(m);
        pm_binfile_close(&bf);
        free(img);
    }
}

/* ---- end-to-end: reproduce snarkjs's deterministic proof of the multiplier (N = 4) with naive
 * scalar multiplications, from zkey + witness + our A/B evaluation + H-phase. This pins the root
 * convention (5), the odd-coset shift and the plain-scalar output against snarkjs's bytes. ---- */
static void fr_from_dec(fr_t *r, const char *dec) {
    mpz_t z;
    mpz_init_set_str(z, dec, 10);
    fr_t pl;
    pm_limbs_from_mpz(pl.l, 4, z);
    fr_to_mont(r, &pl);
    mpz_clear(z);
}

/* the n-th (0-based) quoted decimal string after key in js */
static void json_nth(mpz_t out, const char *js, const char *key, int nth) {
    const char *p = strstr(js, key);
    assert_non_null(p);
    for (int i = 0; i <= nth; i++) {
        p = strchr(p + 1, '"');
        while (p && !(p[1] >= '0' && p[1] <= '9')) p = strchr(p + 1, '"');
        assert_non_null(p);
        if (i < nth) p = strchr(p + 1, '"');
    }
    char buf[200];
    const char *e = strchr(p + 1, '"');
    size_t len = (size_t)(e - p - 1);
    assert_true(len < sizeof buf);
    memcpy(buf, p + 1, len);
    buf[len] = 0;
    assert_int_equal(mpz_set_str(out, buf, 10), 0);
}

static void fp_assert_dec(const fp_t *x, const mpz_t want) {
    fp_t pl;
    fp_from_mont(&pl, x);
    mpz_t z;
    mpz_init(z);
    pm_mpz_from_limbs(z, pl.l, 6);
    assert_int_equal(mpz_cmp(z, want), 0);
    mpz_clear(z);
}

static void g1_lincomb(g1_jac_t *acc, const g1_affine_t *pts, const fr_t *sc, size_t n) {
    for (size_t i = 0; i < n; i++) {
        g1_jac_t p, t;
        g1_jac_from_affine(&p, &pts[i]);
        g1_jac_mul_fr(&t, &p, &sc[i]);
        g1_jac_add(acc, acc, &t);
    }
}

static void zkey_multiplier_proof_det(void **state) {
    (void)state;
    char path[4096];
    if (!fixture_path(path, sizeof path, "bls12381", "multiplier", "circuit.zkey")) return;
    zkey_t zk;
    wtns_t w;
    pm_error err;
    assert_int_equal(zkey_read(&zk, path, 0, &err), PM_OK);
    fixture_path(path, sizeof path, "bls12381", "multiplier", "witness.wtns");
    assert_int_equal(wtns_read(&w, path, &err), PM_OK);
    size_t n;
    fixture_path(path, sizeof path, "bls12381", "multiplier", "proof_det_rs.json");
    char *rsj = (char *)pm_test_slurp(path, &n);
    rsj = realloc(rsj, n + 1);
    rsj[n] = 0;
    fixture_path(path, sizeof path, "bls12381", "multiplier", "proof_det.json");
    char *pj = (char *)pm_test_slurp(path, &n);
    pj = realloc(pj, n + 1);
    pj[n] = 0;
    mpz_t z;
    mpz_init(z);
    fr_t r, s;
    json_nth(z, rsj, "\"r\"", 0);
    char *d = mpz_get_str(NULL, 10, z);
    fr_from_dec(&r, d);
    free(d);
    json_nth(z, rsj, "\"s\"", 0);
    d = mpz_get_str(NULL, 10, z);
    fr_from_dec(&s, d);
    free(d);

    size_t N = zk.domain_size;
    fr_t *a = malloc(N * sizeof(fr_t)), *b = malloc(N * sizeof(fr_t)), *sc = malloc(N * sizeof(fr_t));
    ntt_domain_t dom;
    assert_int_equal(ntt_domain_init(&dom, zk.log2_domain, NTT_ROOTS_SNARKJS, &err), PM_OK);
    assert_int_equal(zkey_eval_ab(a, b, N, &zk, w.values, w.n_values, &err), PM_OK);
    assert_int_equal(ntt_snarkjs_h(a, N, a, b, sc, &dom, &err), PM_OK);
    /* a now holds plain scalars; g1_jac_mul_fr wants Montgomery */
    for (size_t j = 0; j < N; j++) fr_to_mont(&a[j], &a[j]);

    g1_jac_t pa, b1, pc, t;
    g2_jac_t pb, t2;
    /* pi_a = alpha1 + sum w_i A_i + r delta1 */
    g1_jac_from_affine(&pa, &zk.alpha1);
    g1_lincomb(&pa, zk.a, w.values, zk.n_vars);
    g1_jac_from_affine(&t, &zk.delta1);
    g1_jac_mul_fr(&t, &t, &r);
    g1_jac_add(&pa, &pa, &t);
    /* B1 = beta1 + sum w_i B1_i + s delta1 */
    g1_jac_from_affine(&b1, &zk.beta1);
    g1_lincomb(&b1, zk.b1, w.values, zk.n_vars);
    g1_jac_from_affine(&t, &zk.delta1);
    g1_jac_mul_fr(&t, &t, &s);
    g1_jac_add(&b1, &b1, &t);
    /* pi_b = beta2 + sum w_i B2_i + s delta2 */
    g2_jac_from_affine(&pb, &zk.beta2);
    for (uint32_t i = 0; i < zk.n_vars; i++) {
        g2_jac_from_affine(&t2, &zk.b2[i]);
        g2_jac_mul_fr(&t2, &t2, &w.values[i]);
        g2_jac_add(&pb, &pb, &t2);
    }
    g2_jac_from_affine(&t2, &zk.delta2);
    g2_jac_mul_fr(&t2, &t2, &s);
    g2_jac_add(&pb, &pb, &t2);
    /* pi_c = sum_{i>nPublic} w_i C_i + sum_j P_j H_j + s pi_a + r B1 - r s delta1 */
    g1_jac_set_infinity(&pc);
    g1_lincomb(&pc, zk.c, w.values + zk.n_public + 1, zk.n_vars - zk.n_public - 1);
    g1_lincomb(&pc, zk.h, a, N);
    g1_jac_mul_fr(&t, &pa, &s);
    g1_jac_add(&pc, &pc, &t);
    g1_jac_mul_fr(&t, &b1, &r);
    g1_jac_add(&pc, &pc, &t);
    fr_t rs;
    fr_mul(&rs, &r, &s);
    fr_neg(&rs, &rs);
    g1_jac_from_affine(&t, &zk.delta1);
    g1_jac_mul_fr(&t, &t, &rs);
    g1_jac_add(&pc, &pc, &t);

    g1_affine_t A, C;
    g2_affine_t B;
    g1_jac_to_affine(&A, &pa);
    g1_jac_to_affine(&C, &pc);
    g2_jac_to_affine(&B, &pb);
    json_nth(z, pj, "\"pi_a\"", 0);
    fp_assert_dec(&A.x, z);
    json_nth(z, pj, "\"pi_a\"", 1);
    fp_assert_dec(&A.y, z);
    json_nth(z, pj, "\"pi_b\"", 0);
    fp_assert_dec(&B.x.c0, z);
    json_nth(z, pj, "\"pi_b\"", 1);
    fp_assert_dec(&B.x.c1, z);
    json_nth(z, pj, "\"pi_b\"", 2);
    fp_assert_dec(&B.y.c0, z);
    json_nth(z, pj, "\"pi_b\"", 3);
    fp_assert_dec(&B.y.c1, z);
    json_nth(z, pj, "\"pi_c\"", 0);
    fp_assert_dec(&C.x, z);
    json_nth(z, pj, "\"pi_c\"", 1);
    fp_assert_dec(&C.y, z);
    printf("multiplier: pi_a, pi_b, pi_c equal snarkjs's proof_det.json\n");
    mpz_clear(z);
    free(a); free(b); free(sc); free(rsj); free(pj);
    ntt_domain_free(&dom);
    wtns_free(&w);
    zkey_free(&zk);
}

/* Random byte mutations of the smallest fixture: any status is fine, crashing is not (run this
 * under -DPROOFMILL_SANITIZE=ON). */
/* The reader on a mutated image, for pm_test_mutations: 0 when accepted. */
static int try_mutant(const uint8_t *img, size_t n) {
    pm_error err;
    return try_image(img, n, &err) != PM_OK;
}

static void zkey_fuzz(void **state) {
    (void)state;
    pm_test_seed();
    char path[4096];
    if (!fixture_path(path, sizeof path, "bls12381", "multiplier", "circuit.zkey")) return;
    size_t n;
    uint8_t *img = pm_test_slurp(path, &n);
    assert_non_null(img);
    pm_test_mutations(img, n, pm_test_iters(300), try_mutant);
    free(img);
}

/* Sections in any order: the multiplier key with its sections written in reverse order parses to
 * the same key. */
static void zkey_reordered_sections(void **state) {
    (void)state;
    char path[4096];
    if (!fixture_path(path, sizeof path, "bls12381", "multiplier", "circuit.zkey")) return;
    size_t n;
    uint8_t *img = pm_test_slurp(path, &n);
    pm_error err;
    pm_binfile bf;
    assert_int_equal(pm_binfile_open_memory(&bf, img, n, "x", "zkey", 1, &err), PM_OK);
    uint8_t *m = malloc(n);
    memcpy(m, img, 12);
    size_t pos = 12;
    for (uint32_t i = bf.n_sections; i-- > 0;) {
        const pm_section *sec = &bf.sections[i];
        size_t len = (size_t)(sec->offset - sec->header_offset + sec->size);
        memcpy(m + pos, img + sec->header_offset, len);
        pos += len;
    }
    assert_int_equal(pos, n);
    zkey_t a, b;
    assert_int_equal(zkey_read_memory(&a, img, n, "orig", 0, &err), PM_OK);
    assert_int_equal(zkey_read_memory(&b, m, n, "reversed", 0, &err), PM_OK);
    assert_int_equal(a.n_vars, b.n_vars);
    assert_int_equal(a.n_coefs, b.n_coefs);
    for (uint32_t i = 0; i < a.n_coefs; i++) { /* field by field: the struct has padding */
        assert_int_equal(a.coefs[i].matrix, b.coefs[i].matrix);
        assert_int_equal(a.coefs[i].constraint, b.coefs[i].constraint);
        assert_int_equal(a.coefs[i].signal, b.coefs[i].signal);
        assert_true(fr_eq(&a.coefs[i].value, &b.coefs[i].value));
    }
    assert_memory_equal(a.h, b.h, a.domain_size * sizeof *a.h);
    assert_memory_equal(a.b2, b.b2, a.n_vars * sizeof *a.b2);
    assert_true(g1_affine_eq(&a.alpha1, &b.alpha1));
    zkey_free(&a);
    zkey_free(&b);
    pm_binfile_close(&bf);
    free(m);
    free(img);
}

/* Header-only info agrees with the full load; bn128 and hostile headers are refused the same way. */
static void zkey_info(void **state) {
    (void)state;
    char path[4096];
    for (size_t i = 0; i < sizeof BLS / sizeof *BLS; i++) {
        if (!fixture_path(path, sizeof path, "bls12381", BLS[i], "circuit.zkey")) return;
        zkey_info_t info;
        zkey_t zk;
        pm_error err;
        assert_int_equal(zkey_read_info(&info, path, &err), PM_OK);
        assert_int_equal(zkey_read(&zk, path, 0, &err), PM_OK);
        assert_int_equal(info.n_vars, zk.n_vars);
        assert_int_equal(info.n_public, zk.n_public);
        assert_int_equal(info.domain_size, zk.domain_size);
        assert_int_equal(info.log2_domain, zk.log2_domain);
        assert_int_equal(info.n_coefs, zk.n_coefs);
        printf("%s: resident %llu bytes (file %llu)\n", BLS[i],
               (unsigned long long)zkey_resident_bytes(&info, 0), (unsigned long long)info.file_bytes);
        zkey_free(&zk);
        uint32_t nw;
        fixture_path(path, sizeof path, "bls12381", BLS[i], "witness.wtns");
        assert_int_equal(wtns_read_info(&nw, path, &err), PM_OK);
        assert_int_equal(nw, info.n_vars);
    }
    zkey_info_t info;
    pm_error err;
    uint32_t nw;
    if (!fixture_path(path, sizeof path, "bn128", "merkle_poseidon", "circuit.zkey")) return;
    assert_int_equal(zkey_read_info(&info, path, &err), PM_ERR_CURVE);
    fixture_path(path, sizeof path, "bn128", "merkle_poseidon", "witness.wtns");
    assert_int_equal(wtns_read_info(&nw, path, &err), PM_ERR_CURVE);
    assert_int_equal(nw, 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zkey_fixtures),
        cmocka_unit_test(zkey_mismatches),
        cmocka_unit_test(zkey_hostile),
        cmocka_unit_test(zkey_fuzz),
        cmocka_unit_test(zkey_reordered_sections),
        cmocka_unit_test(zkey_info),
        cmocka_unit_test(zkey_multiplier_proof_det),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
