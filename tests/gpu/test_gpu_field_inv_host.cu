/*
 * test_gpu_field_inv_host.cu — the divstep inversion of the device (gpu/field_inv.cuh,
 * fe_inv_divsteps; Bernstein-Yang 2019) run on the HOST (no GPU; built by nvcc whenever CUDA is
 * configured, like the other *_host tests), for Fp and Fr, against three references: the device's
 * Fermat inversion fe_inv_vartime (same bytes), the CPU field's fp_inv_fermat / fr_inv_fermat (same
 * bytes) and a * a^-1 = 1 (Montgomery one). Inputs: random elements (seeded, PROOFMILL_SEED), 0, the
 * Montgomery one, the integers 1, 2 and 3, p - 1, p - 2, (p - 1) / 2, every power of two below p,
 * elements whose 30-bit or 32-bit limbs are all maximal below p, and chains x -> 1/x -> 1/(1/x) = x.
 * Also prints the mean and maximum count of 30-divstep batches (docs/perf/gpu.md's count). Exit 0 pass,
 * 1 fail.
 */
#include <cstdio>
#include <cstring>
#include "gpu/field_inv.cuh"
#include "field/fp.h"
#include "field/fr.h"
#include "gpu_test_util.h"

using namespace pmgpu;

static int failures = 0;
#define CHECK(c, ...) do { if (!(c)) { failures++; if (failures < 20) { printf("FAIL: " __VA_ARGS__); printf("\n"); } } } while (0)

template <class T> struct ref;
template <> struct ref<fr_params> {
    typedef fr_t t;
    static const char *name() { return "Fr"; }
    static void inv(t *r, const t *a) { fr_inv_fermat(r, a); }
    static void mul(t *r, const t *a, const t *b) { fr_mul(r, a, b); }
    static const t &one() { return FR_ONE; }
    static const t &modulus() { return FR_MODULUS; }
    static const int limbs = 4;
};
template <> struct ref<fp_params> {
    typedef fp_t t;
    static const char *name() { return "Fp"; }
    static void inv(t *r, const t *a) { fp_inv_fermat(r, a); }
    static void mul(t *r, const t *a, const t *b) { fp_mul(r, a, b); }
    static const t &one() { return FP_ONE; }
    static const t &modulus() { return FP_MODULUS; }
    static const int limbs = 6;
};

/* a < m, both little-endian 64-bit limbs */
static int lt(const uint64_t *a, const uint64_t *m, int n) {
    for (int i = n - 1; i >= 0; i--) if (a[i] != m[i]) return a[i] < m[i];
    return 0;
}

/* m - k as limbs (k small) */
template <class P> static typename ref<P>::t minus(uint64_t k) {
    typename ref<P>::t r = ref<P>::modulus();
    unsigned __int128 b = k;
    for (int i = 0; i < ref<P>::limbs; i++) {
        unsigned __int128 d = (unsigned __int128)r.l[i] - b;
        r.l[i] = (uint64_t)d;
        b = (d >> 64) ? 1 : 0;
    }
    return r;
}

template <class P> static void one_case(const typename ref<P>::t &x, const char *what, int *bad) {
    typedef typename ref<P>::t T;
    fe<P> a, di, fi;
    memcpy(a.v, &x, sizeof x);
    di = fe_inv_divsteps<P>(a);
    fi = fe_inv_vartime<P>(a);
    T want, got, prod;
    ref<P>::inv(&want, &x);
    memcpy(&got, di.v, sizeof got);
    int zero = 1;
    for (int i = 0; i < ref<P>::limbs; i++) zero &= x.l[i] == 0;
    int ok = !memcmp(&got, &want, sizeof got) && !memcmp(di.v, fi.v, sizeof di.v);
    if (!zero) {
        ref<P>::mul(&prod, &x, &got);
        ok = ok && !memcmp(&prod, &ref<P>::one(), sizeof prod);
    }
    /* the inverse of the inverse */
    fe<P> back = fe_inv_divsteps<P>(di);
    ok = ok && !memcmp(back.v, a.v, sizeof a.v);
    if (!ok) {
        (*bad)++;
        CHECK(0, "%s inverse of %s (limb 0 %016llx): divsteps %016llx, reference %016llx", ref<P>::name(), what,
              (unsigned long long)x.l[0], (unsigned long long)got.l[0], (unsigned long long)want.l[0]);
    }
}

template <class P> static void test_field(void) {
    typedef typename ref<P>::t T;
    const int n = ref<P>::limbs;
    int bad = 0, cases = 0;
    T x;
    /* edges: 0, Montgomery one, small integers, p - 1, p - 2, (p - 1) / 2 */
    memset(&x, 0, sizeof x);
    one_case<P>(x, "0", &bad), cases++;
    one_case<P>(ref<P>::one(), "the Montgomery one", &bad), cases++;
    for (uint64_t k = 1; k <= 3; k++) {
        memset(&x, 0, sizeof x);
        x.l[0] = k;
        one_case<P>(x, "a small integer", &bad), cases++;
    }
    one_case<P>(minus<P>(1), "p - 1", &bad), cases++;
    one_case<P>(minus<P>(2), "p - 2", &bad), cases++;
    x = minus<P>(1);
    for (int i = 0; i < n; i++) x.l[i] = (x.l[i] >> 1) | (i + 1 < n ? x.l[i + 1] << 63 : 0);
    one_case<P>(x, "(p - 1) / 2", &bad), cases++;
    /* every power of two below p */
    for (int b = 0; b < 64 * n; b++) {
        memset(&x, 0, sizeof x);
        x.l[b / 64] = 1ull << (b % 64);
        if (!lt(x.l, ref<P>::modulus().l, n)) break;
        one_case<P>(x, "a power of two", &bad), cases++;
    }
    /* every bit set below p's top bit (all 30-bit and 32-bit limbs maximal) */
    for (int i = 0; i < n; i++) x.l[i] = ~0ull;
    x.l[n - 1] >>= 64 * n - (P::BITS - 1);
    one_case<P>(x, "every bit below the top", &bad), cases++;
    /* random elements, with the batch counts */
    long total = 0;
    int most = 0;
    const int N = 20000;
    for (int it = 0; it < N; it++) {
        do { for (int i = 0; i < n; i++) x.l[i] = gt_rand64(); x.l[n - 1] >>= (64 * n - P::BITS); } while (!lt(x.l, ref<P>::modulus().l, n));
        one_case<P>(x, "a random element", &bad), cases++;
        fe<P> a;
        memcpy(a.v, &x, sizeof x);
        int c = 0;
        (void)fe_inv_divsteps<P>(a, &c);
        total += c;
        if (c > most) most = c;
    }
    printf("%s: %d inversions %s; random inputs: %.2f batches of 30 divsteps on average, at most %d (%d limbs of 30 bits)\n",
           ref<P>::name(), cases, bad ? "FAIL" : "ok", (double)total / N, most, inv30<P>::L);
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    gt_seed();
    test_field<fr_params>();
    test_field<fp_params>();
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "PASSED", failures);
    return failures ? 1 : 0;
}
