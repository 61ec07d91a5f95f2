/*
 * test_gpu_ntt.c — the GPU NTT and snarkjs H phase (src/gpu/ntt.cu) against host references.
 *
 * For log_n = 1 .. max (default 24), roots from 5 (snarkjs) and, for small sizes, 7 (arkworks):
 *  - forward: spot evaluations A[k] = sum_j a_j w^(jk) by Horner on the host (independent of any
 *    NTT code) at k = 0, 1, n-1 and random k; every output against the CPU NTT (ntt/ntt.h) when
 *    built (PM_HAVE_CPU_NTT); a naive O(n^2) DFT of all outputs for n <= 256;
 *  - coset forward: spot evaluations at s*w^k, s = omega_2n;
 *  - inverse and coset inverse: round trips give the input back exactly;
 *  - snarkjs H (gpu_snarkjs_h): against ntt_snarkjs_h when built, else spot values from Horner on
 *    coefficients (for n <= 2^12: coefficients from a naive inverse DFT).
 * The root w_{2^32} from 5 is checked against ffjavascript's value (FORMATS.md).
 * Every disagreement FAILS the test.
 * Usage: test_gpu_ntt [max_log_n] [extra_log_n]: sizes 2^1..2^max (default 24), then one spot check
 * at 2^extra (e.g. 27: the PoRep domain; forward, inverse and coset against the CPU NTT, 2 Horner
 * values; ~30 s of host time on 16 cores, 25 GB of host memory). Exit 77 when no GPU is usable.
 */
#include "gpu_test_util.h"
#ifdef PM_HAVE_CPU_NTT
#include "ntt/ntt.h"
#endif

#ifdef _OPENMP
#define PM_TEST_OMP_FOR _Pragma("omp parallel for schedule(static)")
#else
#define PM_TEST_OMP_FOR
#endif

/* random Montgomery elements, in parallel (an independent stream per index) */
static void rand_vec(fr_t *a, size_t n) {
    const uint64_t s0 = gt_rand64();
    PM_TEST_OMP_FOR
    for (size_t i = 0; i < n; i++) {
        uint64_t x = (s0 ^ (i * 0x9e3779b97f4a7c15ULL)) | 1, l[4];
        for (int j = 0; j < 4; j++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; l[j] = x * 0x2545f4914f6cdd1dULL; }
        fr_t p = {{l[0], l[1], l[2], l[3] & 0x0fffffffffffffffULL}};
        fr_to_mont(&a[i], &p);
    }
}

static void horner(fr_t *r, const fr_t *coef, size_t n, const fr_t *x) {
    fr_t acc = FR_ZERO;
    for (size_t j = n; j-- > 0;) {
        fr_mul(&acc, &acc, x);
        fr_add(&acc, &acc, &coef[j]);
    }
    *r = acc;
}
static fr_t fr_pow_u(const fr_t *a, uint64_t e) { fr_t r; fr_pow_vartime(&r, a, &e, 1); return r; }

static int same(const fr_t *a, const fr_t *b, size_t n, size_t *first_bad) {
    for (size_t i = 0; i < n; i++)
        if (!fr_eq(&a[i], &b[i])) { *first_bad = i; return 0; }
    return 1;
}

static void test_size(unsigned log_n, unsigned gen, int spots) {
    size_t n = (size_t)1 << log_n, bad = 0;
    pm_error e;
    gpu_ntt_domain *d = NULL;
    GT_OK(gpu_ntt_domain_init(&d, log_n, gen, &e), e);
    if (!d) return;
    fr_t g, w, s;
    fr_from_u64(&g, gen);
    fr_root_of_unity(&w, &g, log_n);
    fr_root_of_unity(&s, &g, log_n + 1);
    fr_t *a = malloc(n * sizeof(fr_t)), *x = malloc(n * sizeof(fr_t)), *y = malloc(n * sizeof(fr_t));
    rand_vec(a, n);
    int ok = 1;

    /* the device twiddle table at sampled indices (first, last, random) */
    {
        size_t half = n / 2, idx[6] = {0, half > 1 ? 1 : 0, half - 1, half / 2, (size_t)(gt_rand64() % half), (size_t)(gt_rand64() % half)};
        for (int q = 0; q < 6; q++) {
            fr_t got, want = fr_pow_u(&w, idx[q]);
            GT_OK(gpu_ntt_domain_twiddles(&got, 1, idx[q], 0, d, &e), e);
            if (!fr_eq(&got, &want)) { ok = 0; GT_CHECK(0, "log_n %u: device twiddle %zu != w^%zu", log_n, idx[q], idx[q]); break; }
        }
    }

    /* forward */
    memcpy(x, a, n * sizeof(fr_t));
    GT_OK(gpu_ntt(x, n, GPU_NTT_FORWARD, d, &e), e);
    float ms_fwd = gpu_ntt_last_ms(d);
    for (int q = 0; q < spots; q++) {
        size_t k = q == 0 ? 0 : q == 1 ? 1 : q == 2 ? n - 1 : (size_t)(gt_rand64() % n);
        fr_t pt = fr_pow_u(&w, k), v;
        horner(&v, a, n, &pt);
        if (!fr_eq(&v, &x[k])) { ok = 0; GT_CHECK(0, "log_n %u gen %u forward: A[%zu] != Horner", log_n, gen, k); break; }
    }
    if (!ok) { /* diagnose: a = e_1 must give A[k] = w^k */
        memset(y, 0, n * sizeof(fr_t));
        y[1] = FR_ONE;
        GT_OK(gpu_ntt(y, n, GPU_NTT_FORWARD, d, &e), e);
        size_t nbad = 0, first = n;
        fr_t pw = FR_ONE;
        for (size_t k = 0; k < n; k++) {
            if (!fr_eq(&y[k], &pw)) { nbad++; if (first == n) first = k; }
            fr_mul(&pw, &pw, &w);
        }
        printf("  diagnose log_n %u: delta e_1 forward: %zu of %zu outputs wrong, first %zu\n", log_n, nbad, n, first);
    }
    if (n <= 256) {
        for (size_t k = 0; k < n; k++) {
            fr_t pt = fr_pow_u(&w, k), v;
            horner(&v, a, n, &pt);
            if (!fr_eq(&v, &x[k])) { ok = 0; GT_CHECK(0, "log_n %u forward: naive DFT differs at %zu", log_n, k); break; }
        }
    }
#ifdef PM_HAVE_CPU_NTT
    ntt_domain_t cd;
    int have_cpu = ntt_domain_init_gen(&cd, log_n, &g, &e) == PM_OK;
    if (have_cpu) {
        memcpy(y, a, n * sizeof(fr_t));
        ntt_forward(y, n, &cd);
        if (!same(x, y, n, &bad)) { ok = 0; GT_CHECK(0, "log_n %u forward: GPU != CPU ntt_forward at %zu", log_n, bad); }
    }
#endif
    /* inverse round trip */
    GT_OK(gpu_ntt(x, n, GPU_NTT_INVERSE, d, &e), e);
    float ms_inv = gpu_ntt_last_ms(d);
    if (!same(x, a, n, &bad)) { ok = 0; GT_CHECK(0, "log_n %u: inverse(forward(a)) != a at %zu", log_n, bad); }

    /* coset forward: A[k] = poly(s w^k) */
    memcpy(x, a, n * sizeof(fr_t));
    GT_OK(gpu_ntt(x, n, GPU_NTT_COSET_FORWARD, d, &e), e);
    for (int q = 0; q < spots; q++) {
        size_t k = q == 0 ? 0 : q == 1 ? n - 1 : (size_t)(gt_rand64() % n);
        fr_t pt = fr_pow_u(&w, k), v;
        fr_mul(&pt, &pt, &s);
        horner(&v, a, n, &pt);
        if (!fr_eq(&v, &x[k])) { ok = 0; GT_CHECK(0, "log_n %u coset forward: A[%zu] != poly(s w^k)", log_n, k); break; }
    }
#ifdef PM_HAVE_CPU_NTT
    if (have_cpu) {
        memcpy(y, a, n * sizeof(fr_t));
        ntt_coset_forward(y, n, &cd, &cd.omega_2n);
        if (!same(x, y, n, &bad)) { ok = 0; GT_CHECK(0, "log_n %u coset: GPU != CPU ntt_coset_forward at %zu", log_n, bad); }
    }
#endif
    GT_OK(gpu_ntt(x, n, GPU_NTT_COSET_INVERSE, d, &e), e);
    if (!same(x, a, n, &bad)) { ok = 0; GT_CHECK(0, "log_n %u: coset inverse round trip differs at %zu", log_n, bad); }

    /* snarkjs H (roots from 5 only: that is what it is defined for) */
    if (gen == 5 && log_n <= 22) {
        fr_t *b = malloc(n * sizeof(fr_t)), *p = malloc(n * sizeof(fr_t));
        rand_vec(b, n);
        GT_OK(gpu_snarkjs_h(p, n, a, b, d, NULL, &e), e);
        float ms_h = gpu_ntt_last_ms(d);
        int hok = 1;
#ifdef PM_HAVE_CPU_NTT
        if (have_cpu) {
            fr_t *ca = malloc(n * sizeof(fr_t)), *cb = malloc(n * sizeof(fr_t)), *sc = malloc(n * sizeof(fr_t)), *cp = malloc(n * sizeof(fr_t));
            memcpy(ca, a, n * sizeof(fr_t));
            memcpy(cb, b, n * sizeof(fr_t));
            if (ntt_snarkjs_h(cp, n, ca, cb, sc, &cd, &e) == PM_OK && !same(p, cp, n, &bad)) {
                hok = 0;
                GT_CHECK(0, "log_n %u: GPU snarkjs H != CPU ntt_snarkjs_h at %zu", log_n, bad);
            }
            free(ca); free(cb); free(sc); free(cp);
        }
#endif
        if (n <= 4096) { /* independent: coefficients by naive inverse DFT, then Horner at s w^j */
            fr_t wi, ni, nn;
            fr_inv_vartime(&wi, &w);
            fr_from_u64(&nn, n);
            fr_inv_vartime(&ni, &nn);
            fr_t *cA = malloc(n * sizeof(fr_t)), *cB = malloc(n * sizeof(fr_t)), *cC = malloc(n * sizeof(fr_t)), *cv = malloc(n * sizeof(fr_t));
            for (size_t i = 0; i < n; i++) fr_mul(&cv[i], &a[i], &b[i]);
            const fr_t *src[3] = {a, b, cv};
            fr_t *dst[3] = {cA, cB, cC};
            for (int v = 0; v < 3; v++)
                for (size_t j = 0; j < n; j++) {
                    fr_t pt = fr_pow_u(&wi, j), t;
                    horner(&t, src[v], n, &pt);
                    fr_mul(&dst[v][j], &t, &ni);
                }
            for (int q = 0; q < 4 && hok; q++) {
                size_t j = q == 0 ? 0 : (size_t)(gt_rand64() % n);
                fr_t pt = fr_pow_u(&w, j), ea, eb, ec, want;
                fr_mul(&pt, &pt, &s);
                horner(&ea, cA, n, &pt); horner(&eb, cB, n, &pt); horner(&ec, cC, n, &pt);
                fr_mul(&want, &ea, &eb);
                fr_sub(&want, &want, &ec);
                fr_from_mont(&want, &want);
                if (!fr_eq(&want, &p[j])) { hok = 0; GT_CHECK(0, "log_n %u: snarkjs H differs from the definition at %zu", log_n, j); }
            }
            free(cA); free(cB); free(cC); free(cv);
        }
        printf("  snarkjs H log_n=%-2u %s  (device %.3f ms)\n", log_n, hok ? "ok" : "MISMATCH", ms_h);
        free(b); free(p);
    }
#ifdef PM_HAVE_CPU_NTT
    if (have_cpu) ntt_domain_free(&cd);
#endif
    printf("NTT log_n=%-2u gen=%u %s  (device: forward %.3f ms, inverse %.3f ms)\n", log_n, gen, ok ? "ok" : "MISMATCH", ms_fwd, ms_inv);
    free(a); free(x); free(y);
    gpu_ntt_domain_free(d);
}

int main(int argc, char **argv) {
    int max_log = argc > 1 ? atoi(argv[1]) : 24, extra = argc > 2 ? atoi(argv[2]) : 0;
    if (!gt_begin()) return 77;
    /* ffjavascript's w[32] for BLS12-381 (FORMATS.md "Roots of unity") */
    {
        fr_t g5, w32, plain;
        fr_from_u64(&g5, 5);
        fr_root_of_unity(&w32, &g5, 32);
        fr_from_mont(&plain, &w32);
        const uint64_t want[4] = {0x1b788f500b912f1fULL, 0xc4024ff270b3e094ULL, 0x0fd56dc8d168d6c0ULL, 0x0212d79e5b416b6fULL};
        GT_CHECK(memcmp(plain.l, want, 32) == 0, "root of unity from 5 is not ffjavascript's w[32]");
    }
    for (int L = 1; L <= max_log; L++) test_size((unsigned)L, 5, L >= 20 ? 4 : 8);
    for (int L = 1; L <= 12 && L <= max_log; L++) test_size((unsigned)L, 7, 4);
    if (extra > max_log && extra <= 28) test_size((unsigned)extra, 5, 2);
    /* bad arguments */
    {
        pm_error e;
        gpu_ntt_domain *d = NULL;
        GT_CHECK(gpu_ntt_domain_init(&d, 0, 5, &e) == PM_ERR_ARG, "log_n 0 accepted");
        GT_CHECK(gpu_ntt_domain_init(&d, 40, 5, &e) == PM_ERR_ARG, "log_n 40 accepted");
    }
    printf("%s: %d failure(s)\n", gt_failures ? "FAILED" : "PASSED", gt_failures);
    return gt_failures ? 1 : 0;
}
