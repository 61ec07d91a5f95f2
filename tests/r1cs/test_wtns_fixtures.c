/* .wtns reader: every BLS12-381 fixture (length = r1cs nWires, w[0] = 1, w[1..nPublic] equal
 * public.json, checked with GMP), bn128 refused, hostile inputs (non-canonical values, wrong n8,
 * wrong version/magic, lying sizes, truncations). Skips visibly without ../shared/fixtures. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "r1cs/r1cs.h"
#include "r1cs/wtns.h"
#include "util/file.h"

static const char *const BLS[] = {"multiplier", "merkle_poseidon", "sha256_64"};

/* ../shared/fixtures when present, else the repository's tests/data stand-ins (test_util.h). */
static int fixture_path(char *out, size_t n, const char *curve, const char *circ, const char *file) {
    return pm_fixture_path(out, n, curve, circ, file);
}

static void wtns_fixtures(void **state) {
    (void)state;
    char path[4096];
    for (size_t i = 0; i < sizeof BLS / sizeof *BLS; i++) {
        if (!fixture_path(path, sizeof path, "bls12381", BLS[i], "witness.wtns")) return;
        wtns_t w;
        pm_error err;
        assert_int_equal(wtns_read(&w, path, &err), PM_OK);
        r1cs_t cs;
        fixture_path(path, sizeof path, "bls12381", BLS[i], "circuit.r1cs");
        assert_int_equal(r1cs_read(&cs, path, &err), PM_OK);
        assert_int_equal(w.n_values, cs.n_wires);
        assert_true(fr_is_one(&w.values[0]));
        /* public.json: a JSON list of decimal strings = w[1..nPublic] */
        size_t n;
        fixture_path(path, sizeof path, "bls12381", BLS[i], "public.json");
        char *js = (char *)pm_test_slurp(path, &n);
        assert_non_null(js);
        uint32_t k = 0;
        mpz_t z, v;
        mpz_inits(z, v, NULL);
        for (char *p = strchr(js, '"'); p; p = strchr(p, '"')) {
            char *e = strchr(p + 1, '"');
            assert_non_null(e);
            *e = 0;
            assert_int_equal(mpz_set_str(z, p + 1, 10), 0);
            k++;
            fr_t pl;
            fr_from_mont(&pl, &w.values[k]);
            pm_mpz_from_limbs(v, pl.l, 4);
            assert_int_equal(mpz_cmp(z, v), 0);
            p = e + 1;
        }
        mpz_clears(z, v, NULL);
        assert_int_equal(k, r1cs_n_public(&cs));
        printf("%s: %u values, %u public signals match public.json\n", BLS[i], w.n_values, k);
        free(js);
        r1cs_free(&cs);
        wtns_free(&w);
    }
}

static void wtns_bn128(void **state) {
    (void)state;
    char path[4096];
    if (!fixture_path(path, sizeof path, "bn128", "merkle_poseidon", "witness.wtns")) return;
    wtns_t w;
    pm_error err;
    assert_int_equal(wtns_read(&w, path, &err), PM_ERR_CURVE);
    assert_non_null(strstr(err.msg, "bn128 is not supported yet"));
    char buf[1200];
    printf("%s\n", pm_error_format(&err, buf, sizeof buf));
    assert_null(w.values);
}

static pm_status try_image(const uint8_t *img, size_t n, pm_error *err) {
    uint8_t *copy = malloc(n ? n : 1);
    memcpy(copy, img, n);
    wtns_t w;
    pm_status st = wtns_read_memory(&w, copy, n, "hostile.wtns", err);
    wtns_free(&w);
    free(copy);
    return st;
}


static void wtns_hostile(void **state) {
    (void)state;
    pm_test_seed();
    char path[4096];
    if (!fixture_path(path, sizeof path, "bls12381", "merkle_poseidon", "witness.wtns")) return;
    size_t n;
    uint8_t *img = pm_test_slurp(path, &n);
    pm_error err;
    pm_binfile bf;
    assert_int_equal(pm_binfile_open_memory(&bf, img, n, "x", "wtns", 2, &err), PM_OK);
    const pm_section *s1 = pm_binfile_find(&bf, 1), *s2 = pm_binfile_find(&bf, 2);
    int tried = 0;
    for (uint32_t s = 0; s < bf.n_sections; s++) {
        const pm_section *sec = &bf.sections[s];
        uint64_t cuts[] = {0, 3, 8, sec->header_offset, sec->header_offset + 11, sec->offset,
                           sec->offset + 1, sec->offset + sec->size / 2, sec->offset + sec->size - 1};
        for (size_t k = 0; k < sizeof cuts / sizeof *cuts; k++) {
            if (cuts[k] >= n) continue;
            assert_int_not_equal(try_image(img, cuts[k], &err), PM_OK);
            tried++;
        }
    }
    for (int k = 0; k < 30; k++, tried++) assert_int_not_equal(try_image(img, pm_rand64() % n, &err), PM_OK);
    printf("%d truncations refused, last: %s\n", tried, err.msg);
    uint8_t *m = malloc(n);
    /* non-canonical value 5: r itself, then all-ones */
    uint64_t v5 = s2->offset + 5 * 32;
    memcpy(m, img, n);
    for (int i = 0; i < 4; i++) pm_put_le64(m + v5 + 8 * i, FR_MODULUS.l[i]);
    assert_int_equal(try_image(m, n, &err), PM_ERR_ENCODING);
    assert_int_equal(err.offset, v5);
    printf("%s (offset %llu)\n", err.msg, (unsigned long long)err.offset);
    memset(m + v5, 0xff, 32);
    assert_int_equal(try_image(m, n, &err), PM_ERR_ENCODING);
    /* value r-1 is fine */
    memcpy(m, img, n);
    for (int i = 0; i < 4; i++) pm_put_le64(m + v5 + 8 * i, FR_MODULUS.l[i] - (i == 0));
    assert_int_equal(try_image(m, n, &err), PM_OK);
    /* version 1, magic, n8 = 48, nWitness lying, sizes lying */
    memcpy(m, img, n);
    pm_put_le32(m + 4, 1);
    assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
    memcpy(m, img, n);
    memcpy(m, "zkey", 4);
    assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
    memcpy(m, img, n);
    pm_put_le32(m + s1->offset, 48);
    assert_int_not_equal(try_image(m, n, &err), PM_OK);
    memcpy(m, img, n);
    pm_put_le32(m + s1->offset + 36, 0xffffffffu);
    assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
    printf("%s\n", err.msg);
    memcpy(m, img, n);
    pm_put_le64(m + s2->header_offset + 4, (uint64_t)1 << 62);
    assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
    memcpy(m, img, n);
    pm_put_le32(m + s2->header_offset, 1); /* duplicate section 1 */
    assert_int_equal(try_image(m, n, &err), PM_ERR_FORMAT);
    free(m);
    pm_binfile_close(&bf);
    free(img);
}

/* Random byte mutations of the smallest fixture: any status is fine, crashing is not (run this
 * under -DPROOFMILL_SANITIZE=ON). */
/* The reader on a mutated image, for pm_test_mutations: 0 when accepted. */
static int try_mutant(const uint8_t *img, size_t n) {
    pm_error err;
    return try_image(img, n, &err) != PM_OK;
}

static void wtns_fuzz(void **state) {
    (void)state;
    pm_test_seed();
    char path[4096];
    if (!fixture_path(path, sizeof path, "bls12381", "multiplier", "witness.wtns")) return;
    size_t n;
    uint8_t *img = pm_test_slurp(path, &n);
    assert_non_null(img);
    pm_test_mutations(img, n, pm_test_iters(300), try_mutant);
    free(img);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(wtns_fixtures),
        cmocka_unit_test(wtns_bn128),
        cmocka_unit_test(wtns_hostile),
        cmocka_unit_test(wtns_fuzz),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
