/*
 * Tower field laws for Fp6 = Fp2[v]/(v^3 - (1+u)) and Fp12 = Fp6[w]/(w^2 - v) against naive
 * definitions: schoolbook products of coefficient vectors (w^6 = xi), field axioms, inverses,
 * Frobenius == pow(p) with p taken from GMP, cyclotomic squaring == squaring on the cyclotomic
 * subgroup, sparse line products == full products, byte encodings round-trip.
 */
#include <string.h>

#include "test_util.h"
#include "field/fp12.h"

static void rand_fp2(fp2_t *a) {
    pm_rand_fp(&a->c0);
    pm_rand_fp(&a->c1);
}
static void rand_fp6(fp6_t *a) {
    rand_fp2(&a->c0);
    rand_fp2(&a->c1);
    rand_fp2(&a->c2);
}
static void rand_fp12(fp12_t *a) {
    rand_fp6(&a->c0);
    rand_fp6(&a->c1);
}

/* ---- naive reference: Fp12 as 6 Fp2 coefficients of w^0..w^5, w^6 = xi ---- */
static void to_wbasis(fp2_t c[6], const fp12_t *a) {
    c[0] = a->c0.c0;
    c[2] = a->c0.c1;
    c[4] = a->c0.c2;
    c[1] = a->c1.c0;
    c[3] = a->c1.c1;
    c[5] = a->c1.c2;
}
static void from_wbasis(fp12_t *a, const fp2_t c[6]) {
    a->c0.c0 = c[0];
    a->c0.c1 = c[2];
    a->c0.c2 = c[4];
    a->c1.c0 = c[1];
    a->c1.c1 = c[3];
    a->c1.c2 = c[5];
}
static void naive_fp12_mul(fp12_t *r, const fp12_t *a, const fp12_t *b) {
    fp2_t x[6], y[6], z[11], t;
    to_wbasis(x, a);
    to_wbasis(y, b);
    for (int i = 0; i < 11; i++) z[i] = FP2_ZERO;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            fp2_mul(&t, &x[i], &y[j]);
            fp2_add(&z[i + j], &z[i + j], &t);
        }
    for (int i = 10; i >= 6; i--) { /* w^i = xi w^(i-6) */
        fp2_mul_by_nonresidue(&t, &z[i]);
        fp2_add(&z[i - 6], &z[i - 6], &t);
    }
    from_wbasis(r, z);
}
static void naive_fp6_mul(fp6_t *r, const fp6_t *a, const fp6_t *b) {
    const fp2_t *x[3] = {&a->c0, &a->c1, &a->c2}, *y[3] = {&b->c0, &b->c1, &b->c2};
    fp2_t z[5], t;
    for (int i = 0; i < 5; i++) z[i] = FP2_ZERO;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            fp2_mul(&t, x[i], y[j]);
            fp2_add(&z[i + j], &z[i + j], &t);
        }
    for (int i = 4; i >= 3; i--) {
        fp2_mul_by_nonresidue(&t, &z[i]);
        fp2_add(&z[i - 3], &z[i - 3], &t);
    }
    r->c0 = z[0];
    r->c1 = z[1];
    r->c2 = z[2];
}

static void p_limbs(uint64_t e[6]) { memcpy(e, FP_MODULUS.l, sizeof(uint64_t) * 6); }

static void fp2_mul_matches_gmp(void **state) {
    (void)state;
    /* (a0 + a1 u)(b0 + b1 u) = a0 b0 - a1 b1 + (a0 b1 + a1 b0) u, u^2 = -1, via GMP. */
    mpz_t p, a0, a1, b0, b1, r0, r1, t;
    mpz_inits(p, a0, a1, b0, b1, r0, r1, t, NULL);
    pm_mpz_from_limbs(p, FP_MODULUS.l, 6);
    for (size_t it = 0; it < pm_test_iters(200); it++) {
        fp2_t a, b, c;
        rand_fp2(&a);
        rand_fp2(&b);
        fp2_mul(&c, &a, &b);
        fp_t pl;
        fp_from_mont(&pl, &a.c0); pm_mpz_from_limbs(a0, pl.l, 6);
        fp_from_mont(&pl, &a.c1); pm_mpz_from_limbs(a1, pl.l, 6);
        fp_from_mont(&pl, &b.c0); pm_mpz_from_limbs(b0, pl.l, 6);
        fp_from_mont(&pl, &b.c1); pm_mpz_from_limbs(b1, pl.l, 6);
        mpz_mul(r0, a0, b0);
        mpz_submul(r0, a1, b1);
        mpz_mod(r0, r0, p);
        mpz_mul(r1, a0, b1);
        mpz_addmul(r1, a1, b0);
        mpz_mod(r1, r1, p);
        fp_from_mont(&pl, &c.c0); pm_mpz_from_limbs(t, pl.l, 6);
        assert_int_equal(mpz_cmp(t, r0), 0);
        fp_from_mont(&pl, &c.c1); pm_mpz_from_limbs(t, pl.l, 6);
        assert_int_equal(mpz_cmp(t, r1), 0);
    }
    mpz_clears(p, a0, a1, b0, b1, r0, r1, t, NULL);
}

static void fp6_vs_naive(void **state) {
    (void)state;
    for (size_t it = 0; it < pm_test_iters(200); it++) {
        fp6_t a, b, c, d, e;
        rand_fp6(&a);
        rand_fp6(&b);
        naive_fp6_mul(&c, &a, &b);
        fp6_mul(&d, &a, &b);
        assert_true(fp6_eq(&c, &d));
        d = a; /* aliasing */
        fp6_mul(&d, &d, &b);
        assert_true(fp6_eq(&c, &d));
        naive_fp6_mul(&c, &a, &a);
        fp6_sqr(&d, &a);
        assert_true(fp6_eq(&c, &d));
        /* sparse forms */
        e = FP6_ZERO;
        e.c0 = b.c0;
        e.c1 = b.c1;
        naive_fp6_mul(&c, &a, &e);
        fp6_mul_by_01(&d, &a, &b.c0, &b.c1);
        assert_true(fp6_eq(&c, &d));
        e = FP6_ZERO;
        e.c1 = b.c1;
        naive_fp6_mul(&c, &a, &e);
        fp6_mul_by_1(&d, &a, &b.c1);
        assert_true(fp6_eq(&c, &d));
        e = FP6_ZERO;
        e.c1 = FP2_ONE; /* v */
        naive_fp6_mul(&c, &a, &e);
        fp6_mul_by_nonresidue(&d, &a);
        assert_true(fp6_eq(&c, &d));
        e = FP6_ZERO;
        e.c0 = b.c0;
        naive_fp6_mul(&c, &a, &e);
        fp6_mul_fp2(&d, &a, &b.c0);
        assert_true(fp6_eq(&c, &d));
        /* inverse */
        fp6_inv_vartime(&c, &a);
        fp6_mul(&c, &c, &a);
        assert_true(fp6_is_one(&c));
        /* add/sub/neg/dbl */
        fp6_add(&c, &a, &b);
        fp6_sub(&c, &c, &b);
        assert_true(fp6_eq(&c, &a));
        fp6_neg(&c, &a);
        fp6_add(&c, &c, &a);
        assert_true(fp6_is_zero(&c));
        fp6_dbl(&c, &a);
        fp6_add(&d, &a, &a);
        assert_true(fp6_eq(&c, &d));
    }
    fp6_t z = FP6_ZERO, zi;
    fp6_inv_vartime(&zi, &z);
    assert_true(fp6_is_zero(&zi));
}

static void fp12_vs_naive(void **state) {
    (void)state;
    for (size_t it = 0; it < pm_test_iters(100); it++) {
        fp12_t a, b, c, d, s;
        rand_fp12(&a);
        rand_fp12(&b);
        naive_fp12_mul(&c, &a, &b);
        fp12_mul(&d, &a, &b);
        assert_true(fp12_eq(&c, &d));
        d = b;
        fp12_mul(&d, &a, &d); /* aliasing on the second input */
        assert_true(fp12_eq(&c, &d));
        naive_fp12_mul(&c, &a, &a);
        fp12_sqr(&d, &a);
        assert_true(fp12_eq(&c, &d));
        /* sparse line shape l0 + l1 v + l4 v w */
        s = FP12_ZERO;
        s.c0.c0 = b.c0.c0;
        s.c0.c1 = b.c0.c1;
        s.c1.c1 = b.c1.c1;
        naive_fp12_mul(&c, &a, &s);
        fp12_mul_by_014(&d, &a, &b.c0.c0, &b.c0.c1, &b.c1.c1);
        assert_true(fp12_eq(&c, &d));
        /* inverse, conjugate = w -> -w */
        fp12_inv_vartime(&c, &a);
        fp12_mul(&c, &c, &a);
        assert_true(fp12_is_one(&c));
        fp2_t x[6];
        to_wbasis(x, &a);
        for (int j = 1; j < 6; j += 2) fp2_neg(&x[j], &x[j]);
        from_wbasis(&c, x);
        fp12_conj(&d, &a);
        assert_true(fp12_eq(&c, &d));
        fp12_add(&c, &a, &b);
        fp12_sub(&c, &c, &b);
        assert_true(fp12_eq(&c, &a));
        fp12_neg(&c, &a);
        fp12_add(&c, &c, &a);
        assert_true(fp12_is_zero(&c));
    }
}

static void fp12_field_axioms(void **state) {
    (void)state;
    for (size_t it = 0; it < pm_test_iters(50); it++) {
        fp12_t a, b, c, l, r, t;
        rand_fp12(&a);
        rand_fp12(&b);
        rand_fp12(&c);
        fp12_mul(&l, &a, &b); /* commutativity */
        fp12_mul(&r, &b, &a);
        assert_true(fp12_eq(&l, &r));
        fp12_mul(&l, &l, &c); /* associativity */
        fp12_mul(&t, &b, &c);
        fp12_mul(&r, &a, &t);
        assert_true(fp12_eq(&l, &r));
        fp12_add(&t, &b, &c); /* distributivity */
        fp12_mul(&l, &a, &t);
        fp12_mul(&r, &a, &b);
        fp12_mul(&t, &a, &c);
        fp12_add(&r, &r, &t);
        assert_true(fp12_eq(&l, &r));
        fp12_mul(&l, &a, &FP12_ONE);
        assert_true(fp12_eq(&l, &a));
    }
}

static void frobenius_is_pow_p(void **state) {
    (void)state;
    uint64_t p[6];
    p_limbs(p);
    for (size_t it = 0; it < pm_test_iters(3); it++) {
        fp12_t a, f, g, h;
        rand_fp12(&a);
        fp12_pow_vartime(&g, &a, p, 6);
        fp12_frobenius(&f, &a, 1);
        assert_true(fp12_eq(&f, &g));
        fp6_t b, fb, gb;
        b = a.c0;
        fp6_frobenius(&fb, &b, 1);
        fp6_t acc = FP6_ONE; /* b^p by square-and-multiply on fp6 */
        for (int i = 5; i >= 0; i--)
            for (int k = 63; k >= 0; k--) {
                fp6_sqr(&acc, &acc);
                if ((p[i] >> k) & 1) fp6_mul(&acc, &acc, &b);
            }
        gb = acc;
        assert_true(fp6_eq(&fb, &gb));
        /* frobenius(k) == frobenius(1) applied k times, k = 0..12; p^12 is the identity */
        h = a;
        for (unsigned k = 0; k <= 12; k++) {
            fp12_frobenius(&f, &a, k);
            assert_true(fp12_eq(&f, &h));
            fp6_t hb; /* the Fp6 half c0 of a^(p^k) is frob_k(a.c0) */
            fp6_frobenius(&hb, &a.c0, k);
            assert_true(fp6_eq(&hb, &h.c0));
            fp12_frobenius(&h, &h, 1);
        }
    }
}

/* m = a^((p^6 - 1)(p^2 + 1)) lies in the cyclotomic subgroup */
static void to_cyclotomic(fp12_t *m, const fp12_t *a) {
    fp12_t t;
    fp12_inv_vartime(&t, a);
    fp12_conj(m, a);
    fp12_mul(m, m, &t);
    fp12_frobenius(&t, m, 2);
    fp12_mul(m, m, &t);
}

static void cyclotomic_squaring(void **state) {
    (void)state;
    for (size_t it = 0; it < pm_test_iters(50); it++) {
        fp12_t a, m, s1, s2, t;
        rand_fp12(&a);
        to_cyclotomic(&m, &a);
        fp12_conj(&t, &m); /* conj is the inverse there */
        fp12_mul(&t, &t, &m);
        assert_true(fp12_is_one(&t));
        fp12_sqr(&s1, &m);
        fp12_cyclotomic_sqr(&s2, &m);
        assert_true(fp12_eq(&s1, &s2));
        fp12_cyclotomic_sqr(&m, &m); /* aliasing */
        assert_true(fp12_eq(&m, &s1));
    }
}


static void cyclotomic_exp_karabina(void **state) {
    (void)state;
    uint64_t es[] = {0, 1, 2, 3, 5, 0xd201000000010000ULL, 0x8000000000000000ULL, ~0ULL, 0, 0};
    es[8] = pm_rand64();
    es[9] = pm_rand64() | 1;
    for (size_t it = 0; it < pm_test_iters(3); it++) {
        fp12_t a, m, got, want;
        rand_fp12(&a);
        to_cyclotomic(&m, &a);
        for (size_t i = 0; i < sizeof es / sizeof es[0]; i++) {
            fp12_cyclotomic_exp_vartime(&got, &m, es[i]);
            fp12_pow_vartime(&want, &m, &es[i], 1);
            assert_true(fp12_eq(&got, &want));
        }
    }
    /* degenerate compressed values (1 compresses to all zeros): the fallback path */
    fp12_t one = FP12_ONE, got;
    fp12_cyclotomic_exp_vartime(&got, &one, 0xd201000000010000ULL);
    assert_true(fp12_is_one(&got));
}

static void encoding_roundtrip(void **state) {
    (void)state;
    for (int it = 0; it < 20; it++) {
        fp12_t a, b;
        uint8_t buf[576];
        rand_fp12(&a);
        fp12_to_be_bytes(buf, &a);
        assert_int_equal(fp12_from_be_bytes(&b, buf), 0);
        assert_true(fp12_eq(&a, &b));
        /* order: the first 48 bytes are c0.c0.c0, bytes 48..95 c0.c0.c1, the last c1.c2.c1 */
        uint8_t one[48];
        fp_to_be_bytes(one, &a.c0.c0.c1);
        assert_memory_equal(one, buf + 48, 48);
        fp_to_be_bytes(one, &a.c1.c2.c1);
        assert_memory_equal(one, buf + 11 * 48, 48);
        fp_to_be_bytes(one, &a.c1.c0.c0);
        assert_memory_equal(one, buf + 6 * 48, 48);
    }
    /* non-canonical: p itself in the 7th slot */
    uint8_t buf[576] = {0};
    fp_t p = FP_MODULUS;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 8; j++) buf[6 * 48 + 47 - (8 * i + j)] = (uint8_t)(p.l[i] >> (8 * j));
    fp12_t b;
    assert_int_equal(fp12_from_be_bytes(&b, buf), -1);
    assert_true(fp12_is_zero(&b));
}

int main(void) {
    pm_test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fp2_mul_matches_gmp),   cmocka_unit_test(fp6_vs_naive),
        cmocka_unit_test(fp12_vs_naive),         cmocka_unit_test(fp12_field_axioms),
        cmocka_unit_test(frobenius_is_pow_p),    cmocka_unit_test(cyclotomic_squaring),
        cmocka_unit_test(cyclotomic_exp_karabina), cmocka_unit_test(encoding_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
