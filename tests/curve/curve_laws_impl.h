/*
 * curve_laws_impl.h — group-law tests written once for G1 and G2 (included by
 * test_curve_group.c with PT(name) = g1_##name / g2_##name and the field macros below).
 * Oracles: the algebra itself ([r]P = O, (a+b)G = aG + bG, (ab)G = a(bG), ...), the three
 * coordinate systems against each other, and [r]P = O against the fast subgroup test.
 */
/* needs: PT(name), AFF, JAC, XYZZ, FE, F(op), RAND_FE(fe*), FSQRT(r, a), FE_B, TNAME(name), GEN */

static void TNAME(rand_on_curve)(AFF *p) {
    for (;;) {
        FE x, rhs, y;
        const FE b = FE_B;
        RAND_FE(&x);
        F(sqr)(&rhs, &x);
        F(mul)(&rhs, &rhs, &x);
        F(add)(&rhs, &rhs, &b);
        if (FSQRT(&y, &rhs)) {
            p->x = x;
            p->y = y;
            return;
        }
    }
}

static void TNAME(rand_in_group)(AFF *p, fr_t *k) {
    JAC g, t;
    pm_rand_fr(k);
    PT(jac_from_affine)(&g, &GEN);
    PT(jac_mul_fr)(&t, &g, k);
    PT(jac_to_affine)(p, &t);
}

static int TNAME(times_r_is_inf)(const AFF *p) {
    JAC t;
    PT(jac_from_affine)(&t, p);
    PT(jac_mul_vartime)(&t, &t, FR_MODULUS.l, 4);
    return PT(jac_is_infinity)(&t);
}

static void TNAME(generator)(void **state) {
    (void)state;
    assert_true(PT(affine_is_on_curve)(&GEN));
    assert_false(PT(affine_is_infinity)(&GEN));
    assert_true(PT(affine_in_subgroup_vartime)(&GEN));
    assert_true(TNAME(times_r_is_inf)(&GEN));
    /* [r-1]G = -G, [r+1]G = G */
    JAC g, t, ng;
    AFF a, na;
    PT(jac_from_affine)(&g, &GEN);
    uint64_t k[4];
    memcpy(k, FR_MODULUS.l, sizeof k);
    k[0] -= 1;
    PT(jac_mul_vartime)(&t, &g, k, 4);
    PT(jac_neg)(&ng, &g);
    assert_true(PT(jac_eq)(&t, &ng));
    PT(jac_to_affine)(&a, &t);
    PT(affine_neg)(&na, &GEN);
    assert_true(PT(affine_eq)(&a, &na));
    k[0] += 2;
    PT(jac_mul_vartime)(&t, &g, k, 4);
    assert_true(PT(jac_eq)(&t, &g));
    /* infinity */
    AFF inf = {0};
    assert_true(PT(affine_is_infinity)(&inf));
    assert_true(PT(affine_is_on_curve)(&inf));
    assert_true(PT(affine_in_subgroup_vartime)(&inf));
    uint64_t zero = 0;
    PT(jac_mul_vartime)(&t, &g, &zero, 1);
    assert_true(PT(jac_is_infinity)(&t));
    PT(jac_mul_vartime)(&t, &g, &zero, 0);
    assert_true(PT(jac_is_infinity)(&t));
}

/* [k]G for k = 0..64 against repeated mixed addition; and the long-scalar fallback. */
static void TNAME(small_multiples)(void **state) {
    (void)state;
    JAC g, acc, t;
    PT(jac_from_affine)(&g, &GEN);
    PT(jac_set_infinity)(&acc);
    for (uint64_t k = 0; k <= 64; k++) {
        PT(jac_mul_vartime)(&t, &g, &k, 1);
        assert_true(PT(jac_eq)(&t, &acc));
        PT(jac_add_affine)(&acc, &acc, &GEN);
    }
    /* 2^512 * G via the binary fallback equals 512 doublings */
    uint64_t long_k[9] = {0, 0, 0, 0, 0, 0, 0, 0, 1};
    PT(jac_mul_vartime)(&t, &g, long_k, 9);
    JAC d = g;
    for (int i = 0; i < 512; i++) PT(jac_dbl)(&d, &d);
    assert_true(PT(jac_eq)(&t, &d));
    /* k + r*2^256 (5 limbs, wNAF) == k */
    uint64_t kk[5] = {12345, 0, 0, 0, 0}, kr[8] = {0};
    memcpy(kr + 4, FR_MODULUS.l, 4 * sizeof(uint64_t));
    kr[0] = 12345;
    JAC t1, t2;
    PT(jac_mul_vartime)(&t1, &g, kk, 5);
    PT(jac_mul_vartime)(&t2, &g, kr, 8);
    assert_true(PT(jac_eq)(&t1, &t2));
}

static void TNAME(laws)(void **state) {
    (void)state;
    pm_test_seed();
    size_t iters = pm_test_iters(8);
    for (size_t it = 0; it < iters; it++) {
        AFF P, Q, R;
        fr_t a, b, c;
        TNAME(rand_in_group)(&P, &a);
        TNAME(rand_in_group)(&Q, &b);
        TNAME(rand_in_group)(&R, &c);
        assert_true(PT(affine_is_on_curve)(&P));
        assert_true(PT(affine_in_subgroup_vartime)(&P));
        JAC jp, jq, jr, s1, s2, t;
        PT(jac_from_affine)(&jp, &P);
        PT(jac_from_affine)(&jq, &Q);
        PT(jac_from_affine)(&jr, &R);
        /* aG + bG = (a+b)G */
        fr_t ab;
        fr_add(&ab, &a, &b);
        JAC g;
        PT(jac_from_affine)(&g, &GEN);
        PT(jac_mul_fr)(&s2, &g, &ab);
        PT(jac_add)(&s1, &jp, &jq);
        assert_true(PT(jac_eq)(&s1, &s2));
        /* mixed add agrees */
        PT(jac_add_affine)(&t, &jp, &Q);
        assert_true(PT(jac_eq)(&t, &s1));
        /* commutativity (non-normalised inputs) and associativity */
        JAC p2, q3;
        PT(jac_dbl)(&p2, &jp);
        PT(jac_add)(&q3, &jq, &jr);
        PT(jac_add)(&s1, &p2, &q3);
        PT(jac_add)(&s2, &q3, &p2);
        assert_true(PT(jac_eq)(&s1, &s2));
        PT(jac_add)(&s1, &p2, &jq);
        PT(jac_add)(&s1, &s1, &jr);
        assert_true(PT(jac_eq)(&s1, &s2));
        /* (ab)G = a(bG) */
        fr_mul(&ab, &a, &b);
        PT(jac_mul_fr)(&s1, &g, &ab);
        PT(jac_mul_fr)(&s2, &jq, &a);
        assert_true(PT(jac_eq)(&s1, &s2));
        /* exceptional cases: P + P, P + (-P), O + P, P + O in Jacobian, mixed and XYZZ */
        JAC jp_scaled, np, inf;
        PT(jac_set_infinity)(&inf);
        PT(jac_add)(&jp_scaled, &p2, &jp);
        PT(jac_sub)(&jp_scaled, &jp_scaled, &p2); /* P with Z != 1 */
        assert_true(PT(jac_eq)(&jp_scaled, &jp));
        PT(jac_add)(&t, &jp_scaled, &jp);
        assert_true(PT(jac_eq)(&t, &p2));
        PT(jac_add_affine)(&t, &jp_scaled, &P);
        assert_true(PT(jac_eq)(&t, &p2));
        PT(jac_neg)(&np, &jp);
        PT(jac_add)(&t, &jp_scaled, &np);
        assert_true(PT(jac_is_infinity)(&t));
        PT(jac_sub_affine)(&t, &jp_scaled, &P);
        assert_true(PT(jac_is_infinity)(&t));
        PT(jac_add)(&t, &inf, &jp_scaled);
        assert_true(PT(jac_eq)(&t, &jp));
        PT(jac_add)(&t, &jp_scaled, &inf);
        assert_true(PT(jac_eq)(&t, &jp));
        AFF ainf = {0};
        PT(jac_add_affine)(&t, &jp_scaled, &ainf);
        assert_true(PT(jac_eq)(&t, &jp));
        PT(jac_add_affine)(&t, &inf, &P);
        assert_true(PT(jac_eq)(&t, &jp));
        PT(jac_dbl)(&t, &inf);
        assert_true(PT(jac_is_infinity)(&t));
        /* aliasing: r = a */
        t = jp;
        PT(jac_add)(&t, &t, &t);
        assert_true(PT(jac_eq)(&t, &p2));

        /* XYZZ: P + Q + P + P - Q - P + R + (-R) + O, against Jacobian */
        XYZZ x, xq, xx;
        PT(xyzz_set_infinity)(&x);
        PT(xyzz_add_affine)(&x, &x, &P);     /* O + P */
        PT(xyzz_add_affine)(&x, &x, &Q);
        PT(xyzz_add_affine)(&x, &x, &P);
        PT(xyzz_add_affine)(&x, &x, &P);
        PT(xyzz_sub_affine)(&x, &x, &Q);
        PT(xyzz_sub_affine)(&x, &x, &P);     /* 2P */
        PT(xyzz_add_affine)(&x, &x, &ainf);
        JAC xj;
        PT(xyzz_to_jac)(&xj, &x);
        assert_true(PT(jac_eq)(&xj, &p2));
        /* affine + itself inside XYZZ (doubling branch of madd) */
        PT(xyzz_from_affine)(&xx, &P);
        PT(xyzz_add_affine)(&xx, &xx, &P);
        PT(xyzz_to_jac)(&xj, &xx);
        assert_true(PT(jac_eq)(&xj, &p2));
        /* non-normalised XYZZ doubling branch and P + (-P) */
        XYZZ x2p, y;
        PT(xyzz_dbl)(&x2p, &x);              /* 4P */
        PT(xyzz_from_affine)(&xq, &Q);
        PT(xyzz_add)(&y, &x2p, &xq);         /* 4P + Q */
        PT(xyzz_sub_affine)(&y, &y, &Q);     /* 4P, ZZ != 1 */
        PT(xyzz_add)(&y, &y, &x2p);          /* 8P via the doubling branch */
        JAC p8 = p2;
        PT(jac_dbl)(&p8, &p8);
        PT(jac_dbl)(&p8, &p8);
        PT(xyzz_to_jac)(&xj, &y);
        assert_true(PT(jac_eq)(&xj, &p8));
        XYZZ nx;
        PT(xyzz_neg)(&nx, &x2p);
        PT(xyzz_add)(&y, &x2p, &nx);
        assert_true(PT(xyzz_is_infinity)(&y));
        PT(xyzz_dbl)(&y, &y);
        assert_true(PT(xyzz_is_infinity)(&y));
        AFF xa, p8a;
        PT(xyzz_to_affine)(&xa, &x2p);
        PT(jac_dbl)(&t, &p2);
        PT(jac_to_affine)(&p8a, &t);
        assert_true(PT(affine_eq)(&xa, &p8a));
    }
}

/* batch normalisation == one-by-one, with infinities at the ends and in the middle */
static void TNAME(batch_affine)(void **state) {
    (void)state;
    pm_test_seed();
    enum { N = 9 };
    JAC in[N];
    AFF out[N], one;
    JAC g;
    PT(jac_from_affine)(&g, &GEN);
    for (int i = 0; i < N; i++) {
        fr_t k;
        pm_rand_fr(&k);
        PT(jac_mul_fr)(&in[i], &g, &k);
    }
    PT(jac_set_infinity)(&in[0]);
    PT(jac_set_infinity)(&in[4]);
    PT(jac_set_infinity)(&in[N - 1]);
    PT(jacs_to_affine)(out, in, N);
    for (int i = 0; i < N; i++) {
        PT(jac_to_affine)(&one, &in[i]);
        assert_true(PT(affine_eq)(&one, &out[i]));
        assert_true(PT(affine_is_on_curve)(&out[i]));
    }
    PT(jacs_to_affine)(out, in, 0);
    PT(jacs_to_affine)(out, in, 1);
    assert_true(PT(affine_is_infinity)(&out[0]));
}

/* random points of E (cofactor part almost surely nontrivial): the fast test agrees with [r]P = O;
 * cleared points ([h-ish] via subgroup multiples) pass. */
static void TNAME(subgroup)(void **state) {
    (void)state;
    pm_test_seed();
    size_t iters = pm_test_iters(6);
    for (size_t it = 0; it < iters; it++) {
        AFF P;
        TNAME(rand_on_curve)(&P);
        assert_true(PT(affine_is_on_curve)(&P));
        int fast = PT(affine_in_subgroup_vartime)(&P);
        assert_int_equal(fast, TNAME(times_r_is_inf)(&P));
        assert_false(fast); /* probability of a random point in G is ~1/h */
        /* off the curve: y + 1 */
        AFF Q = P;
        FE one = FE_ONE_V;
        F(add)(&Q.y, &Q.y, &one);
        assert_false(PT(affine_is_on_curve)(&Q));
        fr_t k;
        TNAME(rand_in_group)(&P, &k);
        assert_true(PT(affine_in_subgroup_vartime)(&P));
    }
}

/* the regular (fixed-window) mul_fr agrees with wNAF for random, edge and even/odd k, and for
 * points outside the subgroup */
static void TNAME(mul_fr_regular)(void **state) {
    (void)state;
    pm_test_seed();
    JAC g, a, b;
    PT(jac_from_affine)(&g, &GEN);
    AFF off;
    TNAME(rand_on_curve)(&off);
    JAC joff;
    PT(jac_from_affine)(&joff, &off);
    size_t iters = pm_test_iters(16);
    for (size_t it = 0; it < iters + 8; it++) {
        fr_t k, plain;
        if (it < 8) {
            static const uint64_t small[4] = {0, 1, 2, 3};
            if (it < 4) {
                fr_from_u64(&k, small[it]);
            } else {
                fr_from_u64(&k, (uint64_t)(it - 3));
                fr_neg(&k, &k); /* r-1, r-2, r-3, r-4 */
            }
        } else {
            pm_rand_fr(&k);
        }
        fr_from_mont(&plain, &k);
        const JAC *base = (it & 1) ? &joff : &g;
        PT(jac_mul_fr)(&a, base, &k);
        PT(jac_mul_vartime)(&b, base, plain.l, 4);
        assert_true(PT(jac_eq)(&a, &b));
    }
    JAC inf;
    fr_t k;
    pm_rand_fr(&k);
    PT(jac_set_infinity)(&inf);
    PT(jac_mul_fr)(&a, &inf, &k);
    assert_true(PT(jac_is_infinity)(&a));
}

/* one more macro level so that TNAME(x) is expanded before cmocka stringizes the name */
#ifndef CURVE_TEST
#define CURVE_TEST(f) cmocka_unit_test(f)
#endif
#define TNAME_TESTS                                                                   \
    CURVE_TEST(TNAME(generator)), CURVE_TEST(TNAME(small_multiples)),                 \
        CURVE_TEST(TNAME(laws)), CURVE_TEST(TNAME(batch_affine)),                     \
        CURVE_TEST(TNAME(subgroup)), CURVE_TEST(TNAME(mul_fr_regular))
