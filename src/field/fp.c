/*
 * fp.c — BLS12-381 Fp: Montgomery arithmetic (see fp.h for the contract). mul/sqr/add/sub go to the
 * x86-64 kernels of mont_x86_64.S in the asm build (cpu_x86.h is the switch point), else to the
 * portable C of mont_impl.h; inversion is safegcd (mont_impl.h), Fermat kept as the reference.
 */
#include "fp.h"

#include "cpu_x86.h"
#include "mont_impl.h"

#define N 6

const fp_t FP_MODULUS = {{0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                          0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL}};
const fp_t FP_ZERO_ELEM = {{0, 0, 0, 0, 0, 0}};
const fp_t FP_ONE = {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                      0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}};
const fp_t FP_R2 = {{0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,
                     0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL}};
const uint64_t FP_N0 = 0x89f3fffcfffcfffdULL;

#define M (FP_MODULUS.l)

/* add/sub/dbl: in the asm build, plain x86-64 kernels (add/adc + cmov, no BMI2/ADX needed, so no
 * run-time check); the C of mont_impl.h otherwise. */
void fp_add(fp_t *r, const fp_t *a, const fp_t *b) {
#if PM_FIELD_HAVE_ADX_KERNELS
    pm_fp_add_x86(r->l, a->l, b->l);
#else
    mont_add(r->l, a->l, b->l, M, N);
#endif
}
void fp_sub(fp_t *r, const fp_t *a, const fp_t *b) {
#if PM_FIELD_HAVE_ADX_KERNELS
    pm_fp_sub_x86(r->l, a->l, b->l);
#else
    mont_sub(r->l, a->l, b->l, M, N);
#endif
}
void fp_neg(fp_t *r, const fp_t *a) { mont_neg(r->l, a->l, M, N); }
void fp_dbl(fp_t *r, const fp_t *a) { fp_add(r, a, a); }
/* mul/sqr: the BMI2+ADX kernels when built in and the CPU has them (cpu_x86.h), else portable CIOS.
 * The slow path (first-call probe, portable code) is a separate noinline function so that the hot
 * path compiles to load flag, branch, tail jump. */
static __attribute__((noinline)) void fp_mul_slow(fp_t *r, const fp_t *a, const fp_t *b) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (pm_field_use_adx()) {
        pm_fp_mul_adx(r->l, a->l, b->l);
        return;
    }
#endif
    mont_mul(r->l, a->l, b->l, M, FP_N0, N);
}

static __attribute__((noinline)) void fp_sqr_slow(fp_t *r, const fp_t *a) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (pm_field_use_adx()) {
        pm_fp_sqr_adx(r->l, a->l);
        return;
    }
#endif
    mont_mul(r->l, a->l, a->l, M, FP_N0, N);
}

void fp_mul(fp_t *r, const fp_t *a, const fp_t *b) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (__builtin_expect(pm_field_adx_ready(), 1)) {
        pm_fp_mul_adx(r->l, a->l, b->l);
        return;
    }
#endif
    fp_mul_slow(r, a, b);
}

void fp_sqr(fp_t *r, const fp_t *a) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (__builtin_expect(pm_field_adx_ready(), 1)) {
        pm_fp_sqr_adx(r->l, a->l);
        return;
    }
#endif
    fp_sqr_slow(r, a);
}

void fp_pow_vartime(fp_t *r, const fp_t *a, const uint64_t *e, size_t ne) {
    /* Fixed 4-bit windows, most significant first: 14 mul of precomputation, then per window 4 sqr
     * and one mul when the digit is nonzero (k-bit exponent: k sqr + ~15k/64 mul instead of ~k/2 mul).
     * Leading zero limbs/digits are skipped, so short exponents cost little. */
    fp_t tab[16], acc = FP_ONE;
    while (ne > 0 && e[ne - 1] == 0) ne--;
    if (ne == 0) {
        *r = FP_ONE;
        return;
    }
    tab[0] = FP_ONE;
    tab[1] = *a;
    for (int k = 2; k < 16; k++) fp_mul(&tab[k], &tab[k - 1], a);
    int started = 0;
    for (size_t i = ne; i-- > 0;) {
        for (int sh = 60; sh >= 0; sh -= 4) {
            unsigned d = (unsigned)(e[i] >> sh) & 15;
            if (started) {
                fp_sqr(&acc, &acc);
                fp_sqr(&acc, &acc);
                fp_sqr(&acc, &acc);
                fp_sqr(&acc, &acc);
                if (d) fp_mul(&acc, &acc, &tab[d]);
            } else if (d) {
                acc = tab[d];
                started = 1;
            }
        }
    }
    *r = acc;
}

void fp_inv_vartime(fp_t *r, const fp_t *a) {
    /* a holds X = a*R; safegcd gives X^{-1} = a^{-1} R^{-1} as a plain integer, and one Montgomery
     * product with R^3 (= mont(R2, R2)) turns it into a^{-1} R. */
    fp_t x, r3;
    if (mont_inv_vartime(x.l, a->l, M, N, 7) != 0) {
        fp_inv_fermat(r, a); /* unreachable for a prime modulus; kept as a safety net */
        return;
    }
    fp_mul(&r3, &FP_R2, &FP_R2);
    fp_mul(r, &x, &r3);
}

void fp_inv_fermat(fp_t *r, const fp_t *a) {
    /* Fermat: a^(m-2). */
    uint64_t e[N];
    for (int i = 0; i < N; i++) e[i] = M[i];
    e[0] -= 2;
    fp_pow_vartime(r, a, e, N);
}

void fp_batch_inv_vartime(fp_t *out, const fp_t *in, size_t n, fp_t *scratch) {
    if (n == 0) return;
    fp_t acc = FP_ONE;
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!fp_is_zero(&in[i])) fp_mul(&acc, &acc, &in[i]);
    }
    fp_t inv;
    fp_inv_vartime(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (fp_is_zero(&in[i])) {
            out[i] = FP_ZERO_ELEM;
            continue;
        }
        fp_t t;
        fp_mul(&t, &inv, &scratch[i]);
        fp_mul(&inv, &inv, &in[i]);
        out[i] = t;
    }
}

int fp_sqrt(fp_t *r, const fp_t *a) {
    /* (p+1)/4 */
    uint64_t e[N];
    uint64_t carry = 1;
    for (int i = 0; i < N; i++) {
        pm_u128 s = (pm_u128)M[i] + carry;
        e[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
    for (int i = 0; i < N; i++) e[i] = (e[i] >> 2) | (i + 1 < N ? e[i + 1] << 62 : 0);
    fp_t s, c;
    fp_pow_vartime(&s, a, e, N);
    fp_sqr(&c, &s);
    if (!fp_eq(&c, a)) return 0;
    *r = s;
    return 1;
}

int fp_legendre(const fp_t *a) {
    if (fp_is_zero(a)) return 0;
    uint64_t e[N];
    for (int i = 0; i < N; i++) e[i] = (M[i] >> 1) | (i + 1 < N ? M[i + 1] << 63 : 0);
    fp_t t;
    fp_pow_vartime(&t, a, e, N);
    return fp_is_one(&t) ? 1 : -1;
}

int fp_is_zero(const fp_t *a) { return mont_is_zero(a->l, N); }
int fp_is_one(const fp_t *a) { return fp_eq(a, &FP_ONE); }
int fp_eq(const fp_t *a, const fp_t *b) {
    uint64_t d = 0;
    for (int i = 0; i < N; i++) d |= a->l[i] ^ b->l[i];
    return d == 0;
}

void fp_from_u64(fp_t *r, uint64_t v) {
    fp_t t = FP_ZERO_ELEM;
    t.l[0] = v;
    fp_to_mont(r, &t);
}
void fp_to_mont(fp_t *r, const fp_t *plain) { fp_mul(r, plain, &FP_R2); }
void fp_from_mont(fp_t *plain, const fp_t *a) {
    fp_t one = FP_ZERO_ELEM;
    one.l[0] = 1;
    fp_mul(plain, a, &one);
}

int fp_is_lexicographically_largest(const fp_t *a) {
    /* (p-1)/2 as plain limbs */
    fp_t plain, half;
    fp_from_mont(&plain, a);
    for (int i = 0; i < N; i++) half.l[i] = (M[i] >> 1) | (i + 1 < N ? M[i + 1] << 63 : 0);
    for (int i = N - 1; i >= 0; i--) {
        if (plain.l[i] > half.l[i]) return 1;
        if (plain.l[i] < half.l[i]) return 0;
    }
    return 0;
}

static int fp_from_plain_limbs(fp_t *r, const fp_t *plain) {
    if (!mont_lt(plain->l, M, N)) {
        *r = FP_ZERO_ELEM;
        return -1;
    }
    fp_to_mont(r, plain);
    return 0;
}

int fp_from_be_bytes(fp_t *r, const uint8_t in[48]) {
    fp_t t;
    for (int i = 0; i < N; i++) {
        uint64_t w = 0;
        for (int j = 0; j < 8; j++) w = (w << 8) | in[(N - 1 - i) * 8 + j];
        t.l[i] = w;
    }
    return fp_from_plain_limbs(r, &t);
}

int fp_from_le_bytes(fp_t *r, const uint8_t in[48]) {
    fp_t t;
    for (int i = 0; i < N; i++) {
        uint64_t w = 0;
        for (int j = 7; j >= 0; j--) w = (w << 8) | in[i * 8 + j];
        t.l[i] = w;
    }
    return fp_from_plain_limbs(r, &t);
}

void fp_to_be_bytes(uint8_t out[48], const fp_t *a) {
    fp_t t;
    fp_from_mont(&t, a);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 8; j++) out[(N - 1 - i) * 8 + j] = (uint8_t)(t.l[i] >> (56 - 8 * j));
}

void fp_to_le_bytes(uint8_t out[48], const fp_t *a) {
    fp_t t;
    fp_from_mont(&t, a);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 8; j++) out[i * 8 + j] = (uint8_t)(t.l[i] >> (8 * j));
}

int fp_from_mont_le_bytes(fp_t *r, const uint8_t in[48]) {
    fp_t t;
    for (int i = 0; i < N; i++) {
        uint64_t w = 0;
        for (int j = 7; j >= 0; j--) w = (w << 8) | in[i * 8 + j];
        t.l[i] = w;
    }
    if (!mont_lt(t.l, M, N)) {
        *r = FP_ZERO_ELEM;
        return -1;
    }
    *r = t;
    return 0;
}

void fp_to_mont_le_bytes(uint8_t out[48], const fp_t *a) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 8; j++) out[i * 8 + j] = (uint8_t)(a->l[i] >> (8 * j));
}

const char *fp_backend(void) { return pm_field_use_adx() ? "x86_64-adx" : "portable"; }
