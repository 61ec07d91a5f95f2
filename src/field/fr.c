/*
 * fr.c — BLS12-381 Fr: Montgomery arithmetic (see fr.h for the contract). mul/sqr/add/sub go to the
 * x86-64 kernels of mont_x86_64.S in the asm build (cpu_x86.h is the switch point), else to the
 * portable C of mont_impl.h; inversion is safegcd (mont_impl.h), Fermat kept as the reference.
 */
#include "fr.h"

#include <pthread.h>

#include "cpu_x86.h"
#include "mont_impl.h"

#define N 4

const fr_t FR_MODULUS = {{0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL,
                          0x73eda753299d7d48ULL}};
const fr_t FR_ZERO = {{0, 0, 0, 0}};
const fr_t FR_ONE = {{0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL,
                      0x1824b159acc5056fULL}};
const fr_t FR_R2 = {{0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL,
                     0x0748d9d99f59ff11ULL}};
const uint64_t FR_N0 = 0xfffffffeffffffffULL;

#define M (FR_MODULUS.l)

/* add/sub/dbl: in the asm build, plain x86-64 kernels (add/adc + cmov, no BMI2/ADX needed, so no
 * run-time check); the C of mont_impl.h otherwise. */
void fr_add(fr_t *r, const fr_t *a, const fr_t *b) {
#if PM_FIELD_HAVE_ADX_KERNELS
    pm_fr_add_x86(r->l, a->l, b->l);
#else
    mont_add(r->l, a->l, b->l, M, N);
#endif
}
void fr_sub(fr_t *r, const fr_t *a, const fr_t *b) {
#if PM_FIELD_HAVE_ADX_KERNELS
    pm_fr_sub_x86(r->l, a->l, b->l);
#else
    mont_sub(r->l, a->l, b->l, M, N);
#endif
}
void fr_neg(fr_t *r, const fr_t *a) { mont_neg(r->l, a->l, M, N); }
void fr_dbl(fr_t *r, const fr_t *a) { fr_add(r, a, a); }
/* mul/sqr: the BMI2+ADX kernels when built in and the CPU has them (cpu_x86.h), else portable CIOS.
 * The slow path (first-call probe, portable code) is a separate noinline function so that the hot
 * path compiles to load flag, branch, tail jump. */
static __attribute__((noinline)) void fr_mul_slow(fr_t *r, const fr_t *a, const fr_t *b) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (pm_field_use_adx()) {
        pm_fr_mul_adx(r->l, a->l, b->l);
        return;
    }
#endif
    mont_mul(r->l, a->l, b->l, M, FR_N0, N);
}

static __attribute__((noinline)) void fr_sqr_slow(fr_t *r, const fr_t *a) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (pm_field_use_adx()) {
        pm_fr_sqr_adx(r->l, a->l);
        return;
    }
#endif
    mont_mul(r->l, a->l, a->l, M, FR_N0, N);
}

void fr_mul(fr_t *r, const fr_t *a, const fr_t *b) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (__builtin_expect(pm_field_adx_ready(), 1)) {
        pm_fr_mul_adx(r->l, a->l, b->l);
        return;
    }
#endif
    fr_mul_slow(r, a, b);
}

void fr_sqr(fr_t *r, const fr_t *a) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (__builtin_expect(pm_field_adx_ready(), 1)) {
        pm_fr_sqr_adx(r->l, a->l);
        return;
    }
#endif
    fr_sqr_slow(r, a);
}

void fr_pow_vartime(fr_t *r, const fr_t *a, const uint64_t *e, size_t ne) {
    /* Fixed 4-bit windows, most significant first: 14 mul of precomputation, then per window 4 sqr
     * and one mul when the digit is nonzero (k-bit exponent: k sqr + ~15k/64 mul instead of ~k/2 mul).
     * Leading zero limbs/digits are skipped, so short exponents cost little. */
    fr_t tab[16], acc = FR_ONE;
    while (ne > 0 && e[ne - 1] == 0) ne--;
    if (ne == 0) {
        *r = FR_ONE;
        return;
    }
    tab[0] = FR_ONE;
    tab[1] = *a;
    for (int k = 2; k < 16; k++) fr_mul(&tab[k], &tab[k - 1], a);
    int started = 0;
    for (size_t i = ne; i-- > 0;) {
        for (int sh = 60; sh >= 0; sh -= 4) {
            unsigned d = (unsigned)(e[i] >> sh) & 15;
            if (started) {
                fr_sqr(&acc, &acc);
                fr_sqr(&acc, &acc);
                fr_sqr(&acc, &acc);
                fr_sqr(&acc, &acc);
                if (d) fr_mul(&acc, &acc, &tab[d]);
            } else if (d) {
                acc = tab[d];
                started = 1;
            }
        }
    }
    *r = acc;
}

void fr_inv_vartime(fr_t *r, const fr_t *a) {
    /* a holds X = a*R; safegcd gives X^{-1} = a^{-1} R^{-1} as a plain integer, and one Montgomery
     * product with R^3 (= mont(R2, R2)) turns it into a^{-1} R. */
    fr_t x, r3;
    if (mont_inv_vartime(x.l, a->l, M, N, 5) != 0) {
        fr_inv_fermat(r, a); /* unreachable for a prime modulus; kept as a safety net */
        return;
    }
    fr_mul(&r3, &FR_R2, &FR_R2);
    fr_mul(r, &x, &r3);
}

void fr_inv_fermat(fr_t *r, const fr_t *a) {
    /* Fermat: a^(m-2). */
    uint64_t e[N];
    for (int i = 0; i < N; i++) e[i] = M[i];
    e[0] -= 2;
    fr_pow_vartime(r, a, e, N);
}

void fr_batch_inv_vartime(fr_t *out, const fr_t *in, size_t n, fr_t *scratch) {
    if (n == 0) return;
    fr_t acc = FR_ONE;
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!fr_is_zero(&in[i])) fr_mul(&acc, &acc, &in[i]);
    }
    fr_t inv;
    fr_inv_vartime(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (fr_is_zero(&in[i])) {
            out[i] = FR_ZERO;
            continue;
        }
        fr_t t;
        fr_mul(&t, &inv, &scratch[i]);
        fr_mul(&inv, &inv, &in[i]);
        out[i] = t;
    }
}

int fr_legendre(const fr_t *a) {
    if (fr_is_zero(a)) return 0;
    uint64_t e[N];
    for (int i = 0; i < N; i++) e[i] = (M[i] >> 1) | (i + 1 < N ? M[i + 1] << 63 : 0);
    fr_t t;
    fr_pow_vartime(&t, a, e, N);
    return fr_is_one(&t) ? 1 : -1;
}

int fr_is_zero(const fr_t *a) { return mont_is_zero(a->l, N); }
int fr_is_one(const fr_t *a) { return fr_eq(a, &FR_ONE); }
int fr_eq(const fr_t *a, const fr_t *b) {
    uint64_t d = 0;
    for (int i = 0; i < N; i++) d |= a->l[i] ^ b->l[i];
    return d == 0;
}

void fr_from_u64(fr_t *r, uint64_t v) {
    fr_t t = FR_ZERO;
    t.l[0] = v;
    fr_to_mont(r, &t);
}
void fr_to_mont(fr_t *r, const fr_t *plain) { fr_mul(r, plain, &FR_R2); }
void fr_from_mont(fr_t *plain, const fr_t *a) {
    fr_t one = FR_ZERO;
    one.l[0] = 1;
    fr_mul(plain, a, &one);
}

static int fr_from_plain_limbs(fr_t *r, const fr_t *plain) {
    if (!mont_lt(plain->l, M, N)) {
        *r = FR_ZERO;
        return -1;
    }
    fr_to_mont(r, plain);
    return 0;
}

int fr_from_be_bytes(fr_t *r, const uint8_t in[32]) {
    fr_t t;
    for (int i = 0; i < N; i++) {
        uint64_t w = 0;
        for (int j = 0; j < 8; j++) w = (w << 8) | in[(N - 1 - i) * 8 + j];
        t.l[i] = w;
    }
    return fr_from_plain_limbs(r, &t);
}

int fr_from_le_bytes(fr_t *r, const uint8_t in[32]) {
    fr_t t;
    for (int i = 0; i < N; i++) {
        uint64_t w = 0;
        for (int j = 7; j >= 0; j--) w = (w << 8) | in[i * 8 + j];
        t.l[i] = w;
    }
    return fr_from_plain_limbs(r, &t);
}

void fr_to_be_bytes(uint8_t out[32], const fr_t *a) {
    fr_t t;
    fr_from_mont(&t, a);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 8; j++) out[(N - 1 - i) * 8 + j] = (uint8_t)(t.l[i] >> (56 - 8 * j));
}

void fr_to_le_bytes(uint8_t out[32], const fr_t *a) {
    fr_t t;
    fr_from_mont(&t, a);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 8; j++) out[i * 8 + j] = (uint8_t)(t.l[i] >> (8 * j));
}

int fr_from_mont_le_bytes(fr_t *r, const uint8_t in[32]) {
    fr_t t;
    for (int i = 0; i < N; i++) {
        uint64_t w = 0;
        for (int j = 7; j >= 0; j--) w = (w << 8) | in[i * 8 + j];
        t.l[i] = w;
    }
    if (!mont_lt(t.l, M, N)) {
        *r = FR_ZERO;
        return -1;
    }
    *r = t;
    return 0;
}

void fr_to_mont_le_bytes(uint8_t out[32], const fr_t *a) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 8; j++) out[i * 8 + j] = (uint8_t)(a->l[i] >> (8 * j));
}

/* r - 1 = 2^32 * t with t odd; t as limbs. */
static void fr_odd_part(uint64_t t[N]) {
    for (int i = 0; i < N; i++) t[i] = M[i];
    t[0] -= 1;
    for (int i = 0; i < N; i++) t[i] = (t[i] >> 32) | (i + 1 < N ? t[i + 1] << 32 : 0);
}

/* z = g^t (g = 7, the multiplicative generator), a primitive 2^32-th root of unity for Tonelli-Shanks;
 * computed by code once per process (pthread_once: the generator search costs ~100 exponentiations). */
static fr_t fr_sqrt_z;
static pthread_once_t fr_sqrt_z_once = PTHREAD_ONCE_INIT;
static void fr_sqrt_z_init(void) {
    fr_t g;
    uint64_t t[N];
    fr_multiplicative_generator(&g);
    fr_odd_part(t);
    fr_pow_vartime(&fr_sqrt_z, &g, t, N);
}
static void fr_sqrt_root(fr_t *z) {
    pthread_once(&fr_sqrt_z_once, fr_sqrt_z_init);
    *z = fr_sqrt_z;
}

int fr_sqrt(fr_t *r, const fr_t *a) {
    /* Tonelli-Shanks (Cohen, A Course in Computational Algebraic Number Theory, Alg. 1.5.1) with
     * one exponentiation: w = a^((t-1)/2), x = a*w = a^((t+1)/2), b = x*w = a^t. A non-square shows
     * up as b of order exactly 2^32 (b^(2^31) = -1), so no separate Legendre symbol is needed. */
    if (fr_is_zero(a)) {
        *r = FR_ZERO;
        return 1;
    }
    uint64_t t[N], t1[N];
    fr_odd_part(t);
    for (int i = 0; i < N; i++) t1[i] = (t[i] >> 1) | (i + 1 < N ? t[i + 1] << 63 : 0); /* (t-1)/2 */
    fr_t w, x, b, z;
    fr_pow_vartime(&w, a, t1, N);
    fr_mul(&x, a, &w);
    fr_mul(&b, &x, &w);
    fr_sqrt_root(&z);
    unsigned m = FR_TWO_ADICITY;
    while (!fr_is_one(&b)) {
        unsigned i = 0;
        fr_t b2 = b;
        while (!fr_is_one(&b2)) {
            fr_sqr(&b2, &b2);
            if (++i == m) return 0; /* order of b is 2^m: a is not a square */
        }
        fr_t c = z;
        for (unsigned j = 0; j + i + 1 < m; j++) fr_sqr(&c, &c);
        fr_mul(&x, &x, &c);
        fr_sqr(&z, &c);
        fr_mul(&b, &b, &z);
        m = i;
    }
    *r = x;
    return 1;
}

void fr_multiplicative_generator(fr_t *g) {
    /* r - 1 = 2^32 * 3 * 11 * 19 * 10177 * 125527 * 859267 * 906349^2 * 2508409 * 2529403
     *         * 52437899 * 254760293^2 (the generator 7 checked in tests/field/test_field_gmp.c).
     * The generator is the smallest g with g^((r-1)/q) != 1 for every prime q | r - 1. */
    static const uint64_t primes[] = {2, 3, 11, 19, 10177, 125527, 859267, 906349, 2508409,
                                      2529403, 52437899, 254760293};
    for (uint64_t c = 2;; c++) {
        fr_t cand;
        fr_from_u64(&cand, c);
        int ok = 1;
        for (size_t k = 0; k < sizeof primes / sizeof primes[0] && ok; k++) {
            /* e = (r-1)/q by long division of the limbs */
            uint64_t e[N];
            pm_u128 rem = 0;
            for (int i = N - 1; i >= 0; i--) {
                pm_u128 cur = (rem << 64) | (i == 0 ? M[0] - 1 : M[i]);
                e[i] = (uint64_t)(cur / primes[k]);
                rem = cur % primes[k];
            }
            fr_t t;
            fr_pow_vartime(&t, &cand, e, N);
            if (fr_is_one(&t)) ok = 0;
        }
        if (ok) {
            *g = cand;
            return;
        }
    }
}

int fr_root_of_unity(fr_t *r, const fr_t *g, unsigned k) {
    if (k > FR_TWO_ADICITY) return -1;
    uint64_t t[N];
    fr_odd_part(t);
    fr_t w;
    fr_pow_vartime(&w, g, t, N); /* order divides 2^32 */
    for (unsigned i = k; i < FR_TWO_ADICITY; i++) fr_sqr(&w, &w);
    /* check primitivity: w^(2^(k-1)) == -1 (k >= 1), w == 1 for k == 0 */
    fr_t c = w;
    if (k == 0) {
        if (!fr_is_one(&c)) return -1;
    } else {
        for (unsigned i = 1; i < k; i++) fr_sqr(&c, &c);
        fr_t m1;
        fr_neg(&m1, &FR_ONE);
        if (!fr_eq(&c, &m1)) return -1;
    }
    *r = w;
    return 0;
}

const char *fr_backend(void) { return pm_field_use_adx() ? "x86_64-adx" : "portable"; }
