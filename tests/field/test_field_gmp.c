/*
 * test_field_gmp.c — Fp and Fr against GMP (the oracle nobody here wrote), for both builds.
 *
 * This one source becomes two executables (cmake/field_tests.cmake):
 *   test_field_gmp           linked with proofmill_core (asm build: BMI2+ADX kernels when the CPU has
 *                            them; also run as test_field_gmp_fallback with PROOFMILL_FIELD_BACKEND=portable)
 *   test_field_gmp_portable  linked with proofmill_core_portable (portable C only)
 * Each checks, per field, 100,000 random operands per operation (PROOFMILL_ITERATIONS=N scales it to
 * N percent) plus edge values (0, 1, 2, m-1, m-2, (m-1)/2, (m+1)/2, 2^(64k) +- 1 at every limb
 * boundary, all-0xff limbs reduced mod m, R mod m, ...) for: add, sub, neg, dbl, mul, sqr, inv
 * (safegcd and Fermat), pow, sqrt, legendre, batch inversion, from_u64, to/from Montgomery form,
 * BE/LE bytes and the snarkjs Montgomery-LE bytes, including rejection of non-canonical encodings
 * (>= m). backend_matches_portable_c checks the linked backend bit for bit against the portable
 * C of mont_impl.h and that the backend reported is the one this build must use.
 * Seeded (pm_test_seed prints the seed; PROOFMILL_SEED=N reproduces a run).
 */
#include <stdio.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <stdlib.h>
#include <string.h>

#include "field/cpu_x86.h"
#include "field/fp.h"
#include "field/fp2.h"
#include "field/fr.h"
#include "field/mont_impl.h"
#include "test_util.h"

#define ITERS 100000

/* GMP values shared by the tests of one field: modulus, R, R^-1 */
typedef struct {
    mpz_t m, R, Rinv, tmp;
    int n;
} gmpf;

static void gmpf_init(gmpf *g, const uint64_t *mod, int n) {
    mpz_inits(g->m, g->R, g->Rinv, g->tmp, NULL);
    g->n = n;
    pm_mpz_from_limbs(g->m, mod, (size_t)n);
    mpz_set_ui(g->R, 1);
    mpz_mul_2exp(g->R, g->R, (mp_bitcnt_t)(64 * n));
    mpz_mod(g->R, g->R, g->m);
    mpz_invert(g->Rinv, g->R, g->m);
}
static void gmpf_clear(gmpf *g) { mpz_clears(g->m, g->R, g->Rinv, g->tmp, NULL); }

/* value of a Montgomery-form limb array: a * R^-1 mod m */
static void mont_value(mpz_t out, const gmpf *g, const uint64_t *l) {
    pm_mpz_from_limbs(out, l, (size_t)g->n);
    mpz_mul(out, out, g->Rinv);
    mpz_mod(out, out, g->m);
}
/* limbs equal the Montgomery form of the value v (v reduced) */
static int is_mont_of(const gmpf *g, const uint64_t *l, const mpz_t v) {
    mpz_t t;
    mpz_init(t);
    mpz_mul(t, v, g->R);
    mpz_mod(t, t, g->m);
    uint64_t w[8];
    pm_limbs_from_mpz(w, (size_t)g->n, t);
    mpz_clear(t);
    return memcmp(w, l, 8 * (size_t)g->n) == 0;
}

/* Edge plain integers (< m) for an n-limb modulus m: filled into out (n limbs each); returns count. */
static int edge_values(uint64_t out[][8], const uint64_t *mod, int n) {
    mpz_t m, v, t;
    mpz_inits(m, v, t, NULL);
    pm_mpz_from_limbs(m, mod, (size_t)n);
    int c = 0;
#define PUSH()                                                    \
    do {                                                          \
        mpz_mod(t, v, m);                                         \
        pm_limbs_from_mpz(out[c++], (size_t)n, t);                \
    } while (0)
    for (long k = 0; k <= 3; k++) { mpz_set_si(v, k); PUSH(); }          /* 0, 1, 2, 3 */
    for (long k = 1; k <= 3; k++) { mpz_sub_ui(v, m, (unsigned long)k); PUSH(); } /* m-1, m-2, m-3 */
    mpz_sub_ui(v, m, 1); mpz_fdiv_q_2exp(v, v, 1); PUSH();               /* (m-1)/2 */
    mpz_add_ui(v, m, 1); mpz_fdiv_q_2exp(v, v, 1); PUSH();               /* (m+1)/2 */
    for (int k = 1; k < n; k++) {                                        /* limb boundaries */
        mpz_set_ui(v, 1); mpz_mul_2exp(v, v, (mp_bitcnt_t)(64 * k)); PUSH();
        mpz_sub_ui(v, v, 1); PUSH();
        mpz_add_ui(v, v, 2); PUSH();
    }
    for (int k = 1; k <= n; k++) {                                       /* k all-ones limbs, reduced */
        mpz_set_ui(v, 1); mpz_mul_2exp(v, v, (mp_bitcnt_t)(64 * k)); mpz_sub_ui(v, v, 1); PUSH();
    }
    mpz_set_ui(v, 1); mpz_mul_2exp(v, v, (mp_bitcnt_t)(64 * n)); PUSH();  /* R mod m */
    mpz_invert(v, v, m); PUSH();                                          /* R^-1 mod m */
    mpz_sub_ui(v, m, 1); mpz_fdiv_q_2exp(v, v, 64); mpz_mul_2exp(v, v, 64); PUSH(); /* m - low limb - 1 */
    mpz_set_ui(v, 1); mpz_mul_2exp(v, v, (mp_bitcnt_t)(mpz_sizeinbase(m, 2) - 1)); PUSH(); /* top bit */
#undef PUSH
    mpz_clears(m, v, t, NULL);
    return c;
}

#define MAX_EDGES 40

/* ---- one template stamps out the tests for Fp and Fr (STYLE.md item 6 allows a macro template for
 * instantiating one source twice) ---- */
/* The zero constants by field tag (FP_ZERO is <math.h>'s, so Fp's zero is FP_ZERO_ELEM). */
#define ZERO_FP FP_ZERO_ELEM
#define ZERO_FR FR_ZERO

#define FIELD_TESTS(F, T, UP, NL, NB)                                                             \
    static void F##_rand_mont(T *x) { /* uniform random element, Montgomery form */              \
        T plain;                                                                                  \
        pm_rand_##F(&plain);                                                                      \
        F##_to_mont(x, &plain);                                                                   \
    }                                                                                             \
    static void F##_from_plain_limbs_(T *x, const uint64_t *l) {                                  \
        T p;                                                                                      \
        memcpy(p.l, l, sizeof p.l);                                                               \
        F##_to_mont(x, &p);                                                                       \
    }                                                                                             \
                                                                                                  \
    /* add, sub, neg, dbl, mul, sqr and to/from Montgomery on one pair (a, b) against GMP */      \
    static void F##_check_pair(gmpf *g, const T *a, const T *b, mpz_t va, mpz_t vb, mpz_t e,      \
                               mpz_t got) {                                                       \
        T r;                                                                                      \
        mont_value(va, g, a->l);                                                                  \
        mont_value(vb, g, b->l);                                                                  \
        F##_add(&r, a, b); mpz_add(e, va, vb); mpz_mod(e, e, g->m);                               \
        assert_true(is_mont_of(g, r.l, e));                                                       \
        F##_sub(&r, a, b); mpz_sub(e, va, vb); mpz_mod(e, e, g->m);                               \
        assert_true(is_mont_of(g, r.l, e));                                                       \
        F##_neg(&r, a); mpz_neg(e, va); mpz_mod(e, e, g->m);                                      \
        assert_true(is_mont_of(g, r.l, e));                                                       \
        F##_dbl(&r, a); mpz_mul_2exp(e, va, 1); mpz_mod(e, e, g->m);                              \
        assert_true(is_mont_of(g, r.l, e));                                                       \
        F##_mul(&r, a, b); mpz_mul(e, va, vb); mpz_mod(e, e, g->m);                               \
        assert_true(is_mont_of(g, r.l, e));                                                       \
        F##_sqr(&r, a); mpz_mul(e, va, va); mpz_mod(e, e, g->m);                                  \
        assert_true(is_mont_of(g, r.l, e));                                                       \
        /* aliasing: r = a op r */                                                                \
        r = *b; F##_mul(&r, a, &r); mpz_mul(e, va, vb); mpz_mod(e, e, g->m);                      \
        assert_true(is_mont_of(g, r.l, e));                                                       \
        r = *b; F##_sub(&r, a, &r); mpz_sub(e, va, vb); mpz_mod(e, e, g->m);                      \
        assert_true(is_mont_of(g, r.l, e));                                                       \
        /* from_mont gives the canonical integer; to_mont inverts it */                           \
        T p, q;                                                                                   \
        F##_from_mont(&p, a);                                                                     \
        pm_mpz_from_limbs(got, p.l, NL);                                                          \
        assert_int_equal(mpz_cmp(got, va), 0);                                                    \
        F##_to_mont(&q, &p);                                                                      \
        assert_true(F##_eq(&q, a));                                                               \
        (void)got;                                                                                \
    }                                                                                             \
                                                                                                  \
    static void F##_arith_vs_gmp(void **state) {                                                  \
        (void)state;                                                                              \
        gmpf g;                                                                                   \
        gmpf_init(&g, UP##_MODULUS.l, NL);                                                        \
        mpz_t va, vb, e, got;                                                                     \
        mpz_inits(va, vb, e, got, NULL);                                                          \
        size_t iters = pm_test_iters(ITERS);                                                      \
        for (size_t i = 0; i < iters; i++) {                                                      \
            T a, b;                                                                               \
            F##_rand_mont(&a);                                                                    \
            F##_rand_mont(&b);                                                                    \
            F##_check_pair(&g, &a, &b, va, vb, e, got);                                           \
        }                                                                                         \
        uint64_t ev[MAX_EDGES][8];                                                                \
        int ne = edge_values(ev, UP##_MODULUS.l, NL);                                             \
        assert_true(ne <= MAX_EDGES);                                                             \
        for (int i = 0; i < ne; i++)                                                              \
            for (int j = 0; j < ne; j++) {                                                        \
                T a, b;                                                                           \
                F##_from_plain_limbs_(&a, ev[i]);                                                 \
                F##_from_plain_limbs_(&b, ev[j]);                                                 \
                F##_check_pair(&g, &a, &b, va, vb, e, got);                                       \
            }                                                                                     \
        /* constants and predicates */                                                            \
        T z = ZERO_##UP, o = UP##_ONE, x;                                                         \
        assert_true(F##_is_zero(&z) && !F##_is_zero(&o) && F##_is_one(&o) && !F##_is_one(&z));    \
        F##_from_u64(&x, 1);                                                                      \
        assert_true(F##_eq(&x, &o));                                                              \
        mpz_set_ui(e, 1); /* ONE is R mod m, R2 the plain integer R^2 mod m, N0 = -m^-1 mod 2^64 */ \
        assert_true(is_mont_of(&g, o.l, e));                                                      \
        mpz_mul(e, g.R, g.R); mpz_mod(e, e, g.m);                                                 \
        pm_mpz_from_limbs(va, UP##_R2.l, NL);                                                     \
        assert_int_equal(mpz_cmp(va, e), 0);                                                      \
        assert_true((uint64_t)(UP##_N0 * UP##_MODULUS.l[0]) == UINT64_MAX);                       \
        mpz_clears(va, vb, e, got, NULL);                                                         \
        gmpf_clear(&g);                                                                           \
    }                                                                                             \
                                                                                                  \
    static void F##_check_inv(gmpf *g, const T *a, mpz_t va, mpz_t e) {                           \
        T r;                                                                                      \
        mont_value(va, g, a->l);                                                                  \
        F##_inv_vartime(&r, a);                                                                   \
        if (mpz_sgn(va) == 0) {                                                                   \
            assert_true(F##_is_zero(&r));                                                         \
            return;                                                                               \
        }                                                                                         \
        assert_true(mpz_invert(e, va, g->m) != 0);                                                \
        assert_true(is_mont_of(g, r.l, e));                                                       \
    }                                                                                             \
                                                                                                  \
    static void F##_inv_vs_gmp(void **state) {                                                    \
        (void)state;                                                                              \
        gmpf g;                                                                                   \
        gmpf_init(&g, UP##_MODULUS.l, NL);                                                        \
        mpz_t va, e;                                                                              \
        mpz_inits(va, e, NULL);                                                                   \
        size_t iters = pm_test_iters(ITERS);                                                      \
        for (size_t i = 0; i < iters; i++) {                                                      \
            T a;                                                                                  \
            F##_rand_mont(&a);                                                                    \
            F##_check_inv(&g, &a, va, e);                                                         \
        }                                                                                         \
        uint64_t ev[MAX_EDGES][8];                                                                \
        int ne = edge_values(ev, UP##_MODULUS.l, NL);                                             \
        for (int i = 0; i < ne; i++) {                                                            \
            T a, b;                                                                               \
            F##_from_plain_limbs_(&a, ev[i]);                                                     \
            F##_check_inv(&g, &a, va, e);                                                         \
            memcpy(b.l, ev[i], sizeof b.l); /* also the raw limbs as a Montgomery element */      \
            F##_check_inv(&g, &b, va, e);                                                         \
        }                                                                                         \
        /* the Fermat reference agrees (fewer: it is ~10x slower) */                              \
        for (size_t i = 0; i < pm_test_iters(2000); i++) {                                        \
            T a, r1, r2;                                                                          \
            F##_rand_mont(&a);                                                                    \
            F##_inv_vartime(&r1, &a);                                                             \
            F##_inv_fermat(&r2, &a);                                                              \
            assert_true(F##_eq(&r1, &r2));                                                        \
        }                                                                                         \
        T z = ZERO_##UP, r;                                                                       \
        F##_inv_fermat(&r, &z);                                                                   \
        assert_true(F##_is_zero(&r));                                                             \
        /* batch inversion with zeros in it, in place and out of place */                         \
        enum { BN = 37 };                                                                         \
        T in[BN], out[BN], scr[BN], one;                                                          \
        for (int rep = 0; rep < 50; rep++) {                                                      \
            for (int i = 0; i < BN; i++) {                                                        \
                if (pm_rand64() % 5 == 0) in[i] = ZERO_##UP;                                      \
                else F##_rand_mont(&in[i]);                                                       \
            }                                                                                     \
            size_t n = (size_t)(rep % BN) + 1;                                                    \
            F##_batch_inv_vartime(out, in, n, scr);                                               \
            for (size_t i = 0; i < n; i++) {                                                      \
                F##_inv_vartime(&one, &in[i]);                                                    \
                assert_true(F##_eq(&one, &out[i]));                                               \
            }                                                                                     \
            F##_batch_inv_vartime(in, in, n, scr);                                                \
            for (size_t i = 0; i < n; i++) assert_true(F##_eq(&in[i], &out[i]));                  \
        }                                                                                         \
        F##_batch_inv_vartime(out, in, 0, scr);                                                   \
        mpz_clears(va, e, NULL);                                                                  \
        gmpf_clear(&g);                                                                           \
    }                                                                                             \
                                                                                                  \
    static void F##_pow_vs_gmp(void **state) {                                                    \
        (void)state;                                                                              \
        gmpf g;                                                                                   \
        gmpf_init(&g, UP##_MODULUS.l, NL);                                                        \
        mpz_t va, ve, e;                                                                          \
        mpz_inits(va, ve, e, NULL);                                                               \
        size_t iters = pm_test_iters(ITERS);                                                      \
        for (size_t i = 0; i < iters; i++) {                                                      \
            T a, r;                                                                               \
            uint64_t ex[NL + 2];                                                                  \
            /* mostly one-limb exponents (cheap); every 64th a full-width or longer one */        \
            size_t nex = (i % 64 == 0) ? (size_t)(1 + pm_rand64() % (NL + 2)) : 1;                \
            for (size_t k = 0; k < nex; k++) ex[k] = pm_rand64();                                 \
            if (i % 7 == 0) ex[0] &= 0xff; /* short exponents, leading zero digits */             \
            if (i % 11 == 0) ex[nex - 1] = 0; /* leading zero limb */                             \
            F##_rand_mont(&a);                                                                    \
            if (i == 1) a = ZERO_##UP;                                                            \
            if (i == 2) for (size_t k = 0; k < nex; k++) ex[k] = 0;                               \
            F##_pow_vartime(&r, &a, ex, nex);                                                     \
            mont_value(va, &g, a.l);                                                              \
            pm_mpz_from_limbs(ve, ex, nex);                                                       \
            mpz_powm(e, va, ve, g.m);                                                             \
            assert_true(is_mont_of(&g, r.l, e));                                                  \
        }                                                                                         \
        /* exponent m-1 (Fermat: 1 for a != 0) and m (a) */                                       \
        uint64_t em[NL];                                                                          \
        memcpy(em, UP##_MODULUS.l, sizeof em);                                                    \
        for (int i = 0; i < 100; i++) {                                                           \
            T a, r;                                                                               \
            F##_rand_mont(&a);                                                                    \
            F##_pow_vartime(&r, &a, em, NL);                                                      \
            assert_true(F##_eq(&r, &a));                                                          \
            em[0] -= 1;                                                                           \
            F##_pow_vartime(&r, &a, em, NL);                                                      \
            assert_true(F##_is_one(&r) || F##_is_zero(&a));                                       \
            em[0] += 1;                                                                           \
        }                                                                                         \
        T r, z = ZERO_##UP;                                                                       \
        F##_pow_vartime(&r, &z, em, 0);                                                           \
        assert_true(F##_is_one(&r)); /* 0^0 = 1, empty exponent */                                \
        mpz_clears(va, ve, e, NULL);                                                              \
        gmpf_clear(&g);                                                                           \
    }                                                                                             \
                                                                                                  \
    static void F##_check_sqrt(gmpf *g, const T *a, mpz_t va, mpz_t e) {                          \
        T r, c;                                                                                   \
        mont_value(va, g, a->l);                                                                  \
        int leg = mpz_legendre(va, g->m);                                                         \
        assert_int_equal(F##_legendre(a), leg);                                                   \
        int ok = F##_sqrt(&r, a);                                                                 \
        assert_int_equal(ok, leg >= 0);                                                           \
        if (ok) {                                                                                 \
            F##_sqr(&c, &r);                                                                      \
            assert_true(F##_eq(&c, a));                                                           \
            pm_mpz_from_limbs(e, r.l, NL); /* and the root's limbs are reduced */                 \
            assert_true(mpz_cmp(e, g->m) < 0);                                                    \
        }                                                                                         \
    }                                                                                             \
                                                                                                  \
    static void F##_sqrt_legendre_vs_gmp(void **state) {                                          \
        (void)state;                                                                              \
        gmpf g;                                                                                   \
        gmpf_init(&g, UP##_MODULUS.l, NL);                                                        \
        mpz_t va, e;                                                                              \
        mpz_inits(va, e, NULL);                                                                   \
        size_t iters = pm_test_iters(ITERS);                                                      \
        size_t squares = 0;                                                                       \
        for (size_t i = 0; i < iters; i++) {                                                      \
            T a, x;                                                                               \
            F##_rand_mont(&a);                                                                    \
            if (i & 1) { /* a known square: its root is x or -x */                                \
                x = a;                                                                            \
                F##_sqr(&a, &x);                                                                  \
                T r, nx;                                                                          \
                assert_int_equal(F##_sqrt(&r, &a), 1);                                            \
                F##_neg(&nx, &x);                                                                 \
                assert_true(F##_eq(&r, &x) || F##_eq(&r, &nx));                                   \
                assert_int_equal(F##_legendre(&a), F##_is_zero(&a) ? 0 : 1);                      \
                squares++;                                                                        \
            } else {                                                                              \
                F##_check_sqrt(&g, &a, va, e);                                                    \
            }                                                                                     \
        }                                                                                         \
        uint64_t ev[MAX_EDGES][8];                                                                \
        int ne = edge_values(ev, UP##_MODULUS.l, NL);                                             \
        for (int i = 0; i < ne; i++) {                                                            \
            T a;                                                                                  \
            F##_from_plain_limbs_(&a, ev[i]);                                                     \
            F##_check_sqrt(&g, &a, va, e);                                                        \
        }                                                                                         \
        assert_true(squares > 0);                                                                 \
        mpz_clears(va, e, NULL);                                                                  \
        gmpf_clear(&g);                                                                           \
    }                                                                                             \
                                                                                                  \
    static void F##_check_bytes(gmpf *g, const T *a, mpz_t va, mpz_t e) {                         \
        uint8_t be[NB], le[NB], ml[NB], ref[NB];                                                  \
        T b;                                                                                      \
        size_t cnt;                                                                               \
        mont_value(va, g, a->l);                                                                  \
        F##_to_be_bytes(be, a);                                                                   \
        memset(ref, 0, NB);                                                                       \
        mpz_export(ref + NB - (mpz_sizeinbase(va, 256) * (mpz_sgn(va) != 0)), &cnt, 1, 1, 1, 0,  \
                   va);                                                                           \
        assert_memory_equal(be, ref, NB);                                                         \
        F##_to_le_bytes(le, a);                                                                   \
        memset(ref, 0, NB);                                                                       \
        mpz_export(ref, &cnt, -1, 1, -1, 0, va);                                                  \
        assert_memory_equal(le, ref, NB);                                                         \
        assert_int_equal(F##_from_be_bytes(&b, be), 0);                                           \
        assert_true(F##_eq(&b, a));                                                               \
        assert_int_equal(F##_from_le_bytes(&b, le), 0);                                           \
        assert_true(F##_eq(&b, a));                                                               \
        F##_to_mont_le_bytes(ml, a); /* raw Montgomery limbs, little-endian */                    \
        pm_mpz_from_limbs(e, a->l, NL);                                                           \
        memset(ref, 0, NB);                                                                       \
        mpz_export(ref, &cnt, -1, 1, -1, 0, e);                                                   \
        assert_memory_equal(ml, ref, NB);                                                         \
        assert_int_equal(F##_from_mont_le_bytes(&b, ml), 0);                                      \
        assert_true(F##_eq(&b, a));                                                               \
    }                                                                                             \
                                                                                                  \
    /* an encoding of the integer v >= m must be rejected by every parser, which zeroes r */      \
    static void F##_check_reject(const mpz_t v) {                                                 \
        uint8_t be[NB], le[NB];                                                                   \
        size_t cnt;                                                                               \
        memset(be, 0, NB);                                                                        \
        memset(le, 0, NB);                                                                        \
        mpz_export(be + NB - mpz_sizeinbase(v, 256), &cnt, 1, 1, 1, 0, v);                        \
        mpz_export(le, &cnt, -1, 1, -1, 0, v);                                                    \
        T r;                                                                                      \
        memset(&r, 0x5a, sizeof r);                                                               \
        assert_int_equal(F##_from_be_bytes(&r, be), -1);                                          \
        assert_true(F##_is_zero(&r));                                                             \
        memset(&r, 0x5a, sizeof r);                                                               \
        assert_int_equal(F##_from_le_bytes(&r, le), -1);                                          \
        assert_true(F##_is_zero(&r));                                                             \
        memset(&r, 0x5a, sizeof r);                                                               \
        assert_int_equal(F##_from_mont_le_bytes(&r, le), -1);                                     \
        assert_true(F##_is_zero(&r));                                                             \
    }                                                                                             \
                                                                                                  \
    static void F##_bytes_u64_vs_gmp(void **state) {                                              \
        (void)state;                                                                              \
        gmpf g;                                                                                   \
        gmpf_init(&g, UP##_MODULUS.l, NL);                                                        \
        mpz_t va, e, top;                                                                         \
        mpz_inits(va, e, top, NULL);                                                              \
        size_t iters = pm_test_iters(ITERS);                                                      \
        for (size_t i = 0; i < iters; i++) {                                                      \
            T a;                                                                                  \
            F##_rand_mont(&a);                                                                    \
            F##_check_bytes(&g, &a, va, e);                                                       \
            /* from_u64 */                                                                        \
            uint64_t u = pm_rand64();                                                             \
            if (i % 3 == 0) u >>= (pm_rand64() % 64);                                             \
            F##_from_u64(&a, u);                                                                  \
            pm_mpz_from_limbs(e, &u, 1);                                                          \
            assert_true(is_mont_of(&g, a.l, e));                                                  \
            /* a random integer >= m: m + x for x < 2^(8NB) - m */                                \
            mpz_set_ui(top, 1);                                                                   \
            mpz_mul_2exp(top, top, 8 * NB);                                                       \
            mpz_sub(top, top, g.m);                                                               \
            pm_rand_bytes((uint8_t *)a.l, sizeof a.l);                                            \
            pm_mpz_from_limbs(e, a.l, NL);                                                        \
            mpz_mod(e, e, top);                                                                   \
            mpz_add(e, e, g.m);                                                                   \
            F##_check_reject(e);                                                                  \
        }                                                                                         \
        uint64_t ev[MAX_EDGES][8];                                                                \
        int ne = edge_values(ev, UP##_MODULUS.l, NL);                                             \
        for (int i = 0; i < ne; i++) {                                                            \
            T a;                                                                                  \
            F##_from_plain_limbs_(&a, ev[i]);                                                     \
            F##_check_bytes(&g, &a, va, e);                                                       \
        }                                                                                         \
        uint64_t u64e[] = {0, 1, 2, UINT64_MAX, UINT64_MAX - 1, (uint64_t)1 << 63};               \
        for (size_t i = 0; i < sizeof u64e / sizeof u64e[0]; i++) {                               \
            T a;                                                                                  \
            F##_from_u64(&a, u64e[i]);                                                            \
            pm_mpz_from_limbs(e, &u64e[i], 1);                                                    \
            assert_true(is_mont_of(&g, a.l, e));                                                  \
        }                                                                                         \
        /* edge non-canonical encodings: m, m+1, 2m, all-0xff, every limb 0xff.. above the top */ \
        mpz_set(e, g.m); F##_check_reject(e);                                                     \
        mpz_add_ui(e, g.m, 1); F##_check_reject(e);                                               \
        mpz_mul_2exp(e, g.m, 1); F##_check_reject(e);                                             \
        mpz_set_ui(e, 1); mpz_mul_2exp(e, e, 8 * NB); mpz_sub_ui(e, e, 1); F##_check_reject(e);   \
        mpz_set_ui(e, 1); mpz_mul_2exp(e, e, 8 * NB - 1); F##_check_reject(e);                    \
        /* m - 1 is the largest accepted value */                                                 \
        {                                                                                         \
            uint8_t be[NB];                                                                       \
            size_t cnt;                                                                           \
            T r;                                                                                  \
            mpz_sub_ui(e, g.m, 1);                                                                \
            memset(be, 0, NB);                                                                    \
            mpz_export(be + NB - mpz_sizeinbase(e, 256), &cnt, 1, 1, 1, 0, e);                    \
            assert_int_equal(F##_from_be_bytes(&r, be), 0);                                       \
            assert_true(is_mont_of(&g, r.l, e));                                                  \
        }                                                                                         \
        mpz_clears(va, e, top, NULL);                                                             \
        gmpf_clear(&g);                                                                           \
    }                                                                                             \
                                                                                                  \
    /* the linked backend against the portable C of mont_impl.h, bit for bit */                   \
    static void F##_backend_matches_portable_c(void **state) {                                    \
        (void)state;                                                                              \
        size_t iters = pm_test_iters(ITERS);                                                      \
        for (size_t i = 0; i < iters; i++) {                                                      \
            T a, b, r, p;                                                                         \
            F##_rand_mont(&a);                                                                    \
            F##_rand_mont(&b);                                                                    \
            if (i % 16 == 1) a = b;                                                               \
            F##_mul(&r, &a, &b);                                                                  \
            mont_mul(p.l, a.l, b.l, UP##_MODULUS.l, UP##_N0, NL);                                 \
            assert_memory_equal(r.l, p.l, sizeof r.l);                                            \
            F##_sqr(&r, &a);                                                                      \
            mont_mul(p.l, a.l, a.l, UP##_MODULUS.l, UP##_N0, NL);                                 \
            assert_memory_equal(r.l, p.l, sizeof r.l);                                            \
            F##_add(&r, &a, &b);                                                                  \
            mont_add(p.l, a.l, b.l, UP##_MODULUS.l, NL);                                          \
            assert_memory_equal(r.l, p.l, sizeof r.l);                                            \
            F##_sub(&r, &a, &b);                                                                  \
            mont_sub(p.l, a.l, b.l, UP##_MODULUS.l, NL);                                          \
            assert_memory_equal(r.l, p.l, sizeof r.l);                                            \
        }                                                                                         \
    }

FIELD_TESTS(fp, fp_t, FP, 6, 48)
FIELD_TESTS(fr, fr_t, FR, 4, 32)

/* The backend reported is the one this build must use: the asm build on a BMI2+ADX CPU runs the
 * kernels unless PROOFMILL_FIELD_BACKEND=portable; the portable build never does. */
static void backend_is_the_expected_one(void **state) {
    (void)state;
    const char *expect = "portable";
#if PM_FIELD_HAVE_ADX_KERNELS
    const char *env = getenv("PROOFMILL_FIELD_BACKEND");
    unsigned a = 0, b = 0, c = 0, d = 0;
    int cpu = __get_cpuid_count(7, 0, &a, &b, &c, &d) && ((b >> 8) & 1) && ((b >> 19) & 1);
    if (cpu && !(env && strcmp(env, "portable") == 0)) expect = "x86_64-adx";
#endif
    printf("fp backend: %s, fr backend: %s (expected %s)\n", fp_backend(), fr_backend(), expect);
    assert_string_equal(fp_backend(), expect);
    assert_string_equal(fr_backend(), expect);
}

/* Fr roots of unity: snarkjs's w[32] (generator 5) and the computed multiplicative generator 7. */
static void fr_roots_of_unity(void **state) {
    (void)state;
    fr_t g, w, five, seven;
    fr_multiplicative_generator(&g);
    fr_from_u64(&seven, 7);
    assert_true(fr_eq(&g, &seven));
    fr_from_u64(&five, 5);
    for (unsigned k = 0; k <= 32; k++) assert_int_equal(fr_root_of_unity(&w, &five, k), 0);
    assert_int_equal(fr_root_of_unity(&w, &five, 33), -1);
    assert_int_equal(fr_root_of_unity(&w, &five, 32), 0);
    uint8_t be[32];
    fr_to_be_bytes(be, &w);
    mpz_t z, t;
    mpz_inits(z, t, NULL);
    mpz_import(z, 32, 1, 1, 0, 0, be);
    mpz_set_str(t, "937917089079007706106976984802249742464848817460758522850752807661925904159", 10);
    assert_int_equal(mpz_cmp(z, t), 0);
    mpz_clears(z, t, NULL);
}

/* fp_is_lexicographically_largest: plain value > (p-1)/2, the ZCash compression sign bit. */
static void fp_lexicographically_largest(void **state) {
    (void)state;
    gmpf g;
    gmpf_init(&g, FP_MODULUS.l, 6);
    mpz_t half, v;
    mpz_inits(half, v, NULL);
    mpz_sub_ui(half, g.m, 1);
    mpz_fdiv_q_2exp(half, half, 1);
    for (size_t i = 0; i < pm_test_iters(ITERS); i++) {
        fp_t a;
        fp_rand_mont(&a);
        mont_value(v, &g, a.l);
        assert_int_equal(fp_is_lexicographically_largest(&a), mpz_cmp(v, half) > 0);
    }
    uint64_t ev[MAX_EDGES][8];
    int ne = edge_values(ev, FP_MODULUS.l, 6);
    for (int i = 0; i < ne; i++) {
        fp_t a;
        fp_from_plain_limbs_(&a, ev[i]);
        mont_value(v, &g, a.l);
        assert_int_equal(fp_is_lexicographically_largest(&a), mpz_cmp(v, half) > 0);
    }
    mpz_clears(half, v, NULL);
    gmpf_clear(&g);
}

/* Kept from the former test_field_smoke.c: Fp2 square roots of squares round-trip (they run on
 * fp_sqrt and fp_mul of whichever backend this build links). */
static void fp2_sqrt_roundtrip(void **state) {
    (void)state;
    for (int i = 0; i < 200; i++) {
        fp2_t a, sq, rt, chk;
        pm_rand_fp(&a.c0);
        pm_rand_fp(&a.c1);
        fp2_sqr(&sq, &a);
        assert_int_equal(fp2_sqrt_vartime(&rt, &sq), 1);
        fp2_sqr(&chk, &rt);
        assert_true(fp2_eq(&chk, &sq));
    }
}

int main(void) {
    pm_test_seed();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(backend_is_the_expected_one),
        cmocka_unit_test(fp_backend_matches_portable_c),
        cmocka_unit_test(fr_backend_matches_portable_c),
        cmocka_unit_test(fp_arith_vs_gmp),
        cmocka_unit_test(fr_arith_vs_gmp),
        cmocka_unit_test(fp_inv_vs_gmp),
        cmocka_unit_test(fr_inv_vs_gmp),
        cmocka_unit_test(fp_pow_vs_gmp),
        cmocka_unit_test(fr_pow_vs_gmp),
        cmocka_unit_test(fp_sqrt_legendre_vs_gmp),
        cmocka_unit_test(fr_sqrt_legendre_vs_gmp),
        cmocka_unit_test(fp_bytes_u64_vs_gmp),
        cmocka_unit_test(fr_bytes_u64_vs_gmp),
        cmocka_unit_test(fp_lexicographically_largest),
        cmocka_unit_test(fr_roots_of_unity),
        cmocka_unit_test(fp2_sqrt_roundtrip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
