/*
 * test_gpu_field_f64_host.cu — the FP64-FMA radix-2^52 Montgomery product (gpu/field_f64.cuh) run on
 * the HOST (no GPU; built by nvcc whenever CUDA is configured, like the other *_host tests), byte
 * for byte against the CPU field (fr_mul, fp_mul) and the device integer product fe_mul: the split
 * itself against exact 128-bit products; random elements (seeded, PROOFMILL_SEED), 0, 1 (integer and
 * Montgomery), p - 1, elements whose 52-bit / 32-bit limbs are maximal below p; chains of 10^4
 * products, also in the native 52-bit form (fe52_mul_native, values kept < 2p between products). Exit 0
 * pass, 1 fail.
 */
#include <cstdio>
#include <cstring>
#include <vector>
#include "gpu/field_f64.cuh"
#include "field/fp.h"
#include "field/fr.h"
#include "gpu_test_util.h"

using namespace pmgpu;

static int failures = 0;
#define CHECK(c, ...) do { if (!(c)) { failures++; if (failures < 20) { printf("FAIL: " __VA_ARGS__); printf("\n"); } } } while (0)

static void test_split(void) {
    int bad = 0;
    const uint64_t edge[] = {0, 1, 2, 3, (1ull << 26), (1ull << 51), (1ull << 51) + 1, F52_MASK - 1, F52_MASK, 0xfffff00000001ull};
    for (int it = 0; it < 200000; it++) {
        uint64_t a = gt_rand64() & F52_MASK, b = gt_rand64() & F52_MASK;
        if (it < 100) { a = edge[it % 10]; b = edge[it / 10]; }
        uint64_t hb, lb;
        f52_split((double)a, (double)b, hb, lb);
        unsigned __int128 p = (unsigned __int128)a * b;
        bad += hb - F52_BIAS_H != (uint64_t)(p >> 52) || lb - F52_BIAS_L != ((uint64_t)p & F52_MASK);
        bad += f52_split_hi((double)a, (double)b) != hb;
    }
    CHECK(bad == 0, "f52_split: %d wrong splits", bad);
    printf("split: 200000 products (100 edge pairs) %s\n", bad ? "FAIL" : "ok");
}

template <class T> struct cpu;
template <> struct cpu<fr_params> {
    typedef fr_t t; static const char *name() { return "Fr"; }
    static void mul(t *r, const t *a, const t *b) { fr_mul(r, a, b); }
    static void sub(t *r, const t *a, const t *b) { fr_sub(r, a, b); }
    static const t &one() { return FR_ONE; }
    static const t &modulus() { return FR_MODULUS; }
    static void rnd(t *a) { gt_rand_fr_mont(a); }
};
static int lt_p(const fp_t *a) {
    for (int i = 5; i >= 0; i--) if (a->l[i] != FP_MODULUS.l[i]) return a->l[i] < FP_MODULUS.l[i];
    return 0;
}
template <> struct cpu<fp_params> {
    typedef fp_t t; static const char *name() { return "Fp"; }
    static void mul(t *r, const t *a, const t *b) { fp_mul(r, a, b); }
    static void sub(t *r, const t *a, const t *b) { fp_sub(r, a, b); }
    static const t &one() { return FP_ONE; }
    static const t &modulus() { return FP_MODULUS; }
    static void rnd(t *a) {
        fp_t k;
        do { for (int i = 0; i < 6; i++) k.l[i] = gt_rand64(); k.l[5] &= 0x1fffffffffffffffULL; } while (!lt_p(&k));
        fp_to_mont(a, &k);
    }
};

/* the integer (limbs < 2^52 where possible) just below p: p's top 52-bit limb minus 1, all lower limbs 2^52 - 1;
 * and the one with all 32-bit words 0xffffffff below the top word */
template <class P> static fe<P> max52() {
    fe<P> r;
    uint64_t l[16] = {0};
    for (int j = 0; j < P::N52 - 1; j++) l[j] = F52_MASK;
    l[P::N52 - 1] = P::mod52(P::N52 - 1) - 1;
    for (int q = 0; q < P::N; q++) {
        const int j = 32 * q / 52, s = 32 * q - 52 * j;
        uint64_t x = l[j] >> s;
        if (s > 20) x |= l[j + 1] << (52 - s);
        r.v[q] = (uint32_t)x;
    }
    return r;
}
template <class P> static fe<P> max32() {
    fe<P> r;
    for (int q = 0; q < P::N - 1; q++) r.v[q] = 0xffffffffu;
    r.v[P::N - 1] = P::mod(P::N - 1) - 1;
    return r;
}

template <class P> static void test_field(void) {
    typedef cpu<P> C;
    typedef typename C::t T;
    static_assert(sizeof(T) == sizeof(fe<P>), "layout");
    std::vector<fe<P>> special;
    fe<P> z = fe_zero<P>(), one_int = fe_zero<P>();
    one_int.v[0] = 1;
    T pm1, one = C::one();
    T zero; memset(&zero, 0, sizeof zero);
    C::sub(&pm1, &zero, &one);
    fe<P> e;
    special.push_back(z);
    special.push_back(one_int);
    memcpy(&e, &one, sizeof e); special.push_back(e);
    memcpy(&e, &pm1, sizeof e); special.push_back(e);
    special.push_back(max52<P>());
    special.push_back(max32<P>());
    int bad = 0, bad_int = 0, n = 0;
    auto check = [&](const fe<P> &a, const fe<P> &b) {
        T ca, cb, cr;
        memcpy(&ca, &a, sizeof ca); memcpy(&cb, &b, sizeof cb);
        C::mul(&cr, &ca, &cb);
        fe<P> r = fe_mul_f64<P>(a, b);
        bad += memcmp(&r, &cr, sizeof cr) != 0;
        bad_int += memcmp(&r, &(const fe<P> &)fe_mul<P>(a, b), sizeof r) != 0;
        n++;
    };
    for (auto &a : special) for (auto &b : special) check(a, b);
    for (int it = 0; it < 20000; it++) {
        T a, b;
        C::rnd(&a); C::rnd(&b);
        fe<P> fa, fb;
        memcpy(&fa, &a, sizeof fa); memcpy(&fb, &b, sizeof fb);
        check(fa, fb);
        if (it < 200) { check(fa, special[it % special.size()]); check(special[it % special.size()], fa); }
    }
    CHECK(bad == 0 && bad_int == 0, "%s fe_mul_f64: %d of %d differ from the CPU field, %d from fe_mul", C::name(), bad, n, bad_int);
    printf("%s fe_mul_f64 vs CPU mul and fe_mul: %d products (%zu special values x all) %s\n", C::name(), n, special.size(),
           bad || bad_int ? "FAIL" : "ok");
    /* chains: x <- x * y_k, 10^4 steps, compared at every step, for the drop-in fe_mul_f64 and for the native 52-bit
     * form (fe52_mul_native: the chain stays in doubles, values < 2p unreduced, compared through fe52_to) */
    for (int ch = 0; ch < 3; ch++) {
        T x, y, r;
        C::rnd(&x);
        if (ch == 2) memcpy(&x, &pm1, sizeof x);
        fe<P> fx;
        memcpy(&fx, &x, sizeof fx);
        double nx[P::N52], ny[P::N52];
        fe52_from<P>(nx, fx);
        int cb = 0, nb = 0, unreduced = 0;
        for (int k = 0; k < 10000; k++) {
            if (ch == 0) C::rnd(&y); else y = ch == 1 ? x : pm1; /* random factors; squarings; times p-1 */
            fe<P> fy;
            memcpy(&fy, &y, sizeof fy);
            f52_load<P>(ny, fy.v, P::S52);
            C::mul(&r, &x, &y);
            fx = fe_mul_f64<P>(fx, fy);
            fe52_mul_native<P>(nx, ny);
            x = r;
            cb += memcmp(&fx, &x, sizeof x) != 0;
            const fe<P> got = fe52_to<P>(nx);
            nb += memcmp(&got, &x, sizeof x) != 0;
            double back[P::N52]; /* the native value is x or x + p: count the latter */
            fe52_from<P>(back, got);
            unreduced += memcmp(back, nx, sizeof back) != 0;
        }
        const char *what = ch == 0 ? "random factors" : ch == 1 ? "squarings" : "times p-1";
        CHECK(cb == 0, "%s chain %d: %d of 10^4 steps differ", C::name(), ch, cb);
        CHECK(nb == 0, "%s native chain %d: %d of 10^4 steps differ", C::name(), ch, nb);
        printf("%s chain of 10^4 products (%s): %s\n", C::name(), what, cb ? "FAIL" : "ok");
        printf("%s native 52-bit chain of 10^4 products (%s): %s (%d steps left a value in [p, 2p))\n", C::name(), what,
               nb ? "FAIL" : "ok", unreduced);
    }
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    gt_seed();
    test_split();
    test_field<fr_params>();
    test_field<fp_params>();
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
