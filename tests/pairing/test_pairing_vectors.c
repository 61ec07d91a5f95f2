/*
 * Known-answer pairings from @noble/curves (tests/vectors/bls12_381_pairing.txt, written by
 * tests/vectors/gen_noble.mjs): records "pair A B PA(2) QB(4) F0..F11", big-endian hex, plain
 * values; F in the flattened order c0.c0.c0 c0.c0.c1 ... c1.c2.c1 (the same as fp12_to_be_bytes).
 * We check PA = [A]G1, QB = [B]G2 with the curve layer, then e(PA, QB) == F.
 * See pairing.h on which power of the pairing: noble's value is compared as is.
 * Skips visibly when the vector file is absent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "pairing/pairing.h"

static int hex_be(uint8_t *out, size_t n, const char *tok) {
    size_t len = strlen(tok);
    if (len > 2 * n) return -1;
    memset(out, 0, n);
    for (size_t i = 0; i < len; i++) {
        char c = tok[len - 1 - i];
        int v = (c >= '0' && c <= '9') ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : -1;
        if (v < 0) return -1;
        out[n - 1 - i / 2] |= (uint8_t)(i & 1 ? v << 4 : v);
    }
    return 0;
}
static void tok_fp(fp_t *r, const char *tok) {
    uint8_t b[48];
    assert_int_equal(hex_be(b, 48, tok), 0);
    assert_int_equal(fp_from_be_bytes(r, b), 0);
}

static void noble_pairings(void **state) {
    (void)state;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/vectors/bls12_381_pairing.txt", pm_source_dir());
    FILE *f = fopen(path, "r");
    if (!f) {
        print_message("SKIPPED: %s absent (run tests/vectors/gen_noble.mjs)\n", path);
        skip();
    }
    char line[8192];
    int records = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *tok[32];
        int nt = 0;
        for (char *s = strtok(line, " \t\r\n"); s && nt < 32; s = strtok(NULL, " \t\r\n")) tok[nt++] = s;
        if (nt == 0 || strcmp(tok[0], "pair") != 0) continue;
        assert_int_equal(nt, 1 + 2 + 2 + 4 + 12);
        uint8_t sb[32];
        fr_t a, b;
        assert_int_equal(hex_be(sb, 32, tok[1]), 0);
        assert_int_equal(fr_from_be_bytes(&a, sb), 0);
        assert_int_equal(hex_be(sb, 32, tok[2]), 0);
        assert_int_equal(fr_from_be_bytes(&b, sb), 0);
        g1_affine_t pa, ca;
        g2_affine_t qb, cb;
        tok_fp(&pa.x, tok[3]);
        tok_fp(&pa.y, tok[4]);
        tok_fp(&qb.x.c0, tok[5]);
        tok_fp(&qb.x.c1, tok[6]);
        tok_fp(&qb.y.c0, tok[7]);
        tok_fp(&qb.y.c1, tok[8]);
        g1_jac_t j1;
        g2_jac_t j2;
        g1_jac_from_affine(&j1, &G1_GENERATOR);
        g1_jac_mul_fr(&j1, &j1, &a);
        g1_jac_to_affine(&ca, &j1);
        assert_true(g1_affine_eq(&ca, &pa));
        g2_jac_from_affine(&j2, &G2_GENERATOR);
        g2_jac_mul_fr(&j2, &j2, &b);
        g2_jac_to_affine(&cb, &j2);
        assert_true(g2_affine_eq(&cb, &qb));
        fp_t want[12];
        for (int i = 0; i < 12; i++) tok_fp(&want[i], tok[9 + i]);
        fp12_t w, e;
        fp12_from_fps(&w, want);
        pairing(&e, &pa, &qb);
        assert_true(fp12_eq(&e, &w));
        records++;
    }
    fclose(f);
    print_message("checked %d noble pairing records\n", records);
    assert_true(records >= 2);
}

int main(void) {
    pm_test_seed();
    const struct CMUnitTest tests[] = {cmocka_unit_test(noble_pairings)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
