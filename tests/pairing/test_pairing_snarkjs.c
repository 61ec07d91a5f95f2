/*
 * Outside oracle for the pairing: snarkjs's verification_key.json of the shared multiplier
 * fixture (bls12381) carries vk_alphabeta_12 = e(vk_alpha_1, vk_beta_2) as computed by
 * snarkjs/wasmcurves. We parse the decimal strings with GMP, compute e(alpha, beta) and compare
 * all 12 Fp coordinates (layout [[[c0,c1] x3] x2] = our fp12 flattened order), then run the
 * Groth16 verification equation of proof.json/public.json through pairing_check:
 *   e(-A, B) e(alpha, beta) e(L, gamma) e(C, delta) == 1,  L = IC_0 + sum_i pub_i IC_i.
 * Skips visibly when ../shared/fixtures is absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "pairing/pairing.h"

#define FIX "/bls12381/multiplier/"

static char *slurp(const char *dir, const char *name) {
    char path[1024];
    size_t n;
    snprintf(path, sizeof path, "%s" FIX "%s", dir, name);
    return (char *)pm_test_slurp(path, &n);
}

/* The next n quoted decimal strings after "key" in json, parsed into canonical Fp (Montgomery). */
static void json_fps(fp_t *out, size_t n, const char *json, const char *key) {
    char pat[128];
    snprintf(pat, sizeof pat, "\"%s\"", key);
    const char *s = strstr(json, pat);
    assert_non_null(s);
    s += strlen(pat);
    mpz_t z;
    mpz_init(z);
    for (size_t i = 0; i < n; i++) {
        s = strchr(s, '"');
        assert_non_null(s);
        const char *e = strchr(s + 1, '"');
        assert_non_null(e);
        char buf[256];
        size_t len = (size_t)(e - s - 1);
        assert_true(len < sizeof buf);
        memcpy(buf, s + 1, len);
        buf[len] = 0;
        assert_int_equal(mpz_set_str(z, buf, 10), 0);
        uint8_t be[48] = {0};
        size_t cnt = 0;
        assert_true(mpz_sizeinbase(z, 256) <= 48);
        mpz_export(be + 48 - (mpz_sizeinbase(z, 256)), &cnt, 1, 1, 1, 0, z);
        assert_int_equal(fp_from_be_bytes(&out[i], be), 0);
        s = e + 1;
    }
    mpz_clear(z);
}

static void json_g1(g1_affine_t *p, const char *json, const char *key) {
    fp_t c[3];
    json_fps(c, 3, json, key);
    assert_true(fp_is_one(&c[2])); /* snarkjs writes affine with z = 1 */
    p->x = c[0];
    p->y = c[1];
    assert_true(g1_affine_is_on_curve(p));
}
static void json_g2(g2_affine_t *q, const char *json, const char *key) {
    fp_t c[6];
    json_fps(c, 6, json, key);
    assert_true(fp_is_one(&c[4]) && fp_is_zero(&c[5]));
    q->x.c0 = c[0];
    q->x.c1 = c[1];
    q->y.c0 = c[2];
    q->y.c1 = c[3];
    assert_true(g2_affine_is_on_curve(q));
}

static void alphabeta_matches_snarkjs(void **state) {
    (void)state;
    const char *dir = pm_shared_fixtures();
    if (!dir) {
        print_message("SKIPPED: ../shared/fixtures not found; snarkjs oracle not run\n");
        skip();
    }
    char *vk = slurp(dir, "verification_key.json");
    assert_non_null(vk);
    g1_affine_t alpha;
    g2_affine_t beta;
    json_g1(&alpha, vk, "vk_alpha_1");
    json_g2(&beta, vk, "vk_beta_2");
    fp_t want[12];
    json_fps(want, 12, vk, "vk_alphabeta_12");
    fp12_t e, w;
    fp12_from_fps(&w, want);
    pairing(&e, &alpha, &beta);
    assert_true(fp12_eq(&e, &w));
    free(vk);
}

static void groth16_equation_holds(void **state) {
    (void)state;
    const char *dir = pm_shared_fixtures();
    if (!dir) {
        print_message("SKIPPED: ../shared/fixtures not found; snarkjs oracle not run\n");
        skip();
    }
    char *vk = slurp(dir, "verification_key.json");
    char *pr = slurp(dir, "proof.json");
    char *pub = slurp(dir, "public.json");
    assert_non_null(vk);
    assert_non_null(pr);
    assert_non_null(pub);
    g1_affine_t ps[4], ic0, ic1, A, C;
    g2_affine_t qs[4];
    json_g1(&A, pr, "pi_a");
    json_g2(&qs[0], pr, "pi_b");
    json_g1(&C, pr, "pi_c");
    json_g1(&ps[1], vk, "vk_alpha_1");
    json_g2(&qs[1], vk, "vk_beta_2");
    json_g2(&qs[2], vk, "vk_gamma_2");
    json_g2(&qs[3], vk, "vk_delta_2");
    /* IC: [[x, y, 1], [x, y, 1]] (nPublic = 1) */
    fp_t ic[6];
    json_fps(ic, 6, vk, "IC");
    ic0.x = ic[0];
    ic0.y = ic[1];
    ic1.x = ic[3];
    ic1.y = ic[4];
    /* public.json: ["33"] */
    const char *q = strchr(pub, '"');
    assert_non_null(q);
    uint64_t s = strtoull(q + 1, NULL, 10);
    g1_jac_t L, t;
    g1_jac_from_affine(&t, &ic1);
    g1_jac_mul_vartime(&L, &t, &s, 1);
    g1_jac_add_affine(&L, &L, &ic0);
    g1_jac_to_affine(&ps[2], &L);
    g1_affine_neg(&ps[0], &A);
    ps[3] = C;
    assert_int_equal(pairing_check(ps, qs, 4), 1);
    /* a wrong public input must fail */
    g1_jac_add_affine(&L, &L, &ic1);
    g1_jac_to_affine(&ps[2], &L);
    assert_int_equal(pairing_check(ps, qs, 4), 0);
    free(vk);
    free(pr);
    free(pub);
}

int main(void) {
    pm_test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(alphabeta_matches_snarkjs),
        cmocka_unit_test(groth16_equation_holds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
