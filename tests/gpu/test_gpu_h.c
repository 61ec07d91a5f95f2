/*
 * test_gpu_h.c — the bellperson H phase on the device (gpu_bellperson_h, gpu_bellperson_h_host, and
 * gpu_bellperson_h_upload from pinned arrays: copies on their own stream under the transforms) against
 * the CPU: ntt_bellperson_h and, up to 2^16, prover_bellperson.c's own sequence of public transforms
 * (ntt_inverse, ntt_coset_forward with g = 7, (ab - c)(g^n - 1)^-1, ntt_coset_inverse, from
 * Montgomery). Every log n = 1..max (default 22): a satisfied input (c = a*b on the domain: PM_OK, top
 * coefficient 0) and, at a few sizes, a random one (PM_ERR_UNSATISFIED, coefficients still equal);
 * the device-pointer entry on the domain's buffers; the one-buffer entry from pinned arrays (its
 * swaps down and up at once); a and b preloaded into the buffers the last H
 * left idle (gpu_bellperson_h_preload: the result moving round the buffers, the live one untouched,
 * a foreign token dropped); the one-buffer entry (gpu_bellperson_h_one:
 * device-memory tier 4) with ragged and one-element chunks, past the 32 MiB staged copies from 2^20;
 * bad arguments (wrong n, aliasing, chunk 0, a domain from generator 5). Any disagreement FAILS. Usage: test_gpu_h [max_log_n] [extra_log_n, e.g. 27]
 * (the extra size compares the whole 2^27 H with the CPU: ~1 minute of host time on 16 cores).
 * Exit 77 when no GPU is usable.
 */
#include "gpu_test_util.h"
#include "ntt/ntt.h"
#include "util/settings.h"
#include "../common/ntt_ref.h"

#ifdef _OPENMP
#define PM_TEST_OMP_FOR _Pragma("omp parallel for schedule(static)")
#else
#define PM_TEST_OMP_FOR
#endif

static void rand_vec(fr_t *a, size_t n) {
    PM_TEST_OMP_FOR
    for (size_t i = 0; i < n; i++) {
        /* per-index stream so the parallel fill is reproducible */
        uint64_t x = (gt_state[0] ^ (i * 0x9e3779b97f4a7c15ULL)) | 1, l[4];
        for (int j = 0; j < 4; j++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; l[j] = x * 0x2545f4914f6cdd1dULL; }
        fr_t p = {{l[0], l[1], l[2], l[3] & 0x0fffffffffffffffULL}};
        fr_to_mont(&a[i], &p);
    }
    gt_rand64();
}

/* prover_bellperson.c's H (tests/common/ntt_ref.h) on copies; h plain */
static void bellperson_seq(fr_t *h, const fr_t *a0, const fr_t *b0, const fr_t *c0, const ntt_domain_t *d) {
    const size_t m = d->n;
    fr_t *b = malloc(m * sizeof *b), *c = malloc(m * sizeof *c);
    memcpy(h, a0, m * sizeof *h); memcpy(b, b0, m * sizeof *b); memcpy(c, c0, m * sizeof *c);
    bellperson_h_seq(h, b, c, d);
    free(b); free(c);
}

static size_t first_diff(const fr_t *a, const fr_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!fr_eq(&a[i], &b[i])) return i;
    return (size_t)-1;
}

/* gpu_bellperson_h_preload + gpu_bellperson_h_upload_preloaded (gpu.h_preload): a and b sent ahead
 * into the two buffers that do not hold the last H's coefficients (which the preload must leave
 * as they were), c uploaded or formed as a o b into the third; the result moves round the buffers;
 * a preload under another token is dropped and the upload is the plain one; an explicit drop; bad
 * arguments. sat: c = a o b (PM_OK), else PM_ERR_UNSATISFIED with the coefficients in the result
 * buffer. ref: the CPU's coefficients; x, y: n elements of scratch. */
static void preload_checks(unsigned L, size_t n, int sat, gpu_ntt_domain *d, const fr_t *a, const fr_t *c,
                           const fr_t *pa, const fr_t *pb, const fr_t *pc, const fr_t *ref, fr_t *x, fr_t *y) {
    pm_error e;
    void *buf[3];
    for (int round = 0; round < (sat ? 5 : 1); round++) {
        const int live = gpu_ntt_domain_h_buffer(d);
        GT_CHECK(live >= 0 && live < 3, "2^%u: h buffer %d", L, live);
        GT_OK(gpu_ntt_domain_buffers(buf, d, &e), e);
        GT_OK(gpu_copy_from_device(y, buf[live], n * sizeof *y, &e), e);
        const uint64_t tok = 100 + (uint64_t)round;
        GT_OK(gpu_bellperson_h_preload(d, pa, pb, n, tok, &e), e);
        GT_CHECK(gpu_ntt_domain_preload_token(d) == tok, "2^%u preload: token %llu, want %llu", L,
                 (unsigned long long)gpu_ntt_domain_preload_token(d), (unsigned long long)tok);
        if (round == 0) {
            GT_CHECK(gpu_bellperson_h_preload(d, pa, pb, n, tok + 1, &e) == PM_ERR_ARG, "2^%u: a second preload accepted", L);
            GT_CHECK(gpu_ntt_domain_preload_token(d) == tok, "2^%u: a refused preload changed the token", L);
        }
        if (round == 4) { /* dropped: the copies land, the live buffer is as it was */
            GT_CHECK(gpu_ntt_domain_preload_drop(d, tok + 1) == 0, "2^%u: another token's drop took the preload", L);
            GT_CHECK(gpu_ntt_domain_preload_drop(d, tok) == 1, "2^%u: the preload was not dropped", L);
            GT_CHECK(gpu_ntt_domain_preload_token(d) == 0, "2^%u: a token after the drop", L);
            GT_CHECK(gpu_ntt_domain_preload_drop(d, 0) == 0, "2^%u: a second drop", L);
            GT_OK(gpu_ntt_domain_buffers(buf, d, &e), e);
            GT_OK(gpu_copy_from_device(x, buf[live], n * sizeof *x, &e), e);
            GT_CHECK(first_diff(x, y, n) == (size_t)-1, "2^%u: the preload wrote the live H buffer %d", L, live);
            continue;
        }
        /* round 1: c = a o b on the card; round 2: c pageable; round 3: another token, so the preload
         * is dropped */
        const uint64_t use = round == 3 ? tok + 50 : tok;
        const fr_t *cc = round == 1 ? NULL : round == 2 ? c : pc;
        void *hd = (void *)1;
        pm_status st = gpu_bellperson_h_upload_preloaded(&hd, pa, pb, cc, n, d, use, &e);
        if (sat) GT_OK(st, e);
        else GT_CHECK(st == PM_ERR_UNSATISFIED && hd == NULL, "2^%u random c, preloaded: status %s", L, pm_status_name(st));
        GT_CHECK(gpu_ntt_domain_preload_token(d) == 0, "2^%u: the preload was not used up", L);
        const int hb = gpu_ntt_domain_h_buffer(d);
        GT_CHECK(round == 3 ? hb == 0 : hb == (live + 1) % 3, "2^%u round %d: result in buffer %d after %d", L, round, hb, live);
        GT_OK(gpu_ntt_domain_buffers(buf, d, &e), e);
        if (sat) GT_CHECK(hd == buf[hb], "2^%u round %d: h_dev is not buffer %d", L, round, hb);
        GT_OK(gpu_copy_from_device(x, buf[hb], n * sizeof *x, &e), e);
        const size_t bad = first_diff(x, ref, n);
        GT_CHECK(bad == (size_t)-1, "2^%u round %d (%s, c %s): preloaded H != CPU at %zu", L, round,
                 round == 3 ? "other token" : "own token", round == 1 ? "= a o b" : round == 2 ? "pageable" : "pinned", bad);
    }
    if (L == 4 && sat) { /* bad arguments: nothing queued */
        GT_CHECK(gpu_bellperson_h_preload(d, a, pb, n, 7, &e) == PM_ERR_ARG, "preload: pageable a accepted");
        GT_CHECK(gpu_bellperson_h_preload(d, pa, pb, n, 0, &e) == PM_ERR_ARG, "preload: token 0 accepted");
        GT_CHECK(gpu_bellperson_h_preload(d, pa, pb, n / 2, 7, &e) == PM_ERR_ARG, "preload: wrong n accepted");
        GT_CHECK(gpu_bellperson_h_preload(d, pa, NULL, n, 7, &e) == PM_ERR_ARG, "preload: NULL b accepted");
        GT_CHECK(gpu_ntt_domain_preload_token(d) == 0, "preload: a refused call left a token");
    }
}

static void test_size(unsigned L, int sat) {
    const size_t n = (size_t)1 << L;
    pm_error e;
    gpu_ntt_domain *d = NULL;
    GT_OK(gpu_ntt_domain_init(&d, L, 7, &e), e);
    ntt_domain_t cd;
    if (!d || ntt_domain_init(&cd, L, NTT_ROOTS_ARKWORKS, &e) != PM_OK) { GT_CHECK(0, "domains 2^%u", L); gpu_ntt_domain_free(d); return; }
    fr_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *a), *c = malloc(n * sizeof *a), *h = malloc(n * sizeof *a);
    fr_t *x = malloc(n * sizeof *a), *y = malloc(n * sizeof *a), *z = malloc(n * sizeof *a), *ref = malloc(n * sizeof *a);
    rand_vec(a, n);
    rand_vec(b, n);
    if (sat) {
        PM_TEST_OMP_FOR
        for (size_t i = 0; i < n; i++) fr_mul(&c[i], &a[i], &b[i]);
    } else {
        rand_vec(c, n);
    }
    /* CPU: the fused H, and (small sizes) the prover's sequence itself */
    memcpy(x, a, n * sizeof *x); memcpy(y, b, n * sizeof *y); memcpy(z, c, n * sizeof *z);
    double t0 = gt_now();
    pm_status cst = ntt_bellperson_h(ref, n, x, y, z, &cd, &e);
    double t_cpu = gt_now() - t0;
    GT_CHECK(sat ? cst == PM_OK : (L == 0 || cst == PM_ERR_UNSATISFIED), "2^%u CPU ntt_bellperson_h status %d", L, (int)cst);
    if (L <= 16) {
        bellperson_seq(h, a, b, c, &cd);
        size_t bad = first_diff(h, ref, n);
        GT_CHECK(bad == (size_t)-1, "2^%u CPU ntt_bellperson_h != prover_bellperson sequence at %zu", L, bad);
    }
    /* GPU from host arrays */
    pm_status gst = gpu_bellperson_h_host(h, a, b, c, n, d, &e);
    float ms = gpu_ntt_last_ms(d);
    if (sat) GT_OK(gst, e);
    else GT_CHECK(gst == PM_ERR_UNSATISFIED, "2^%u random c: gpu status %s, want PM_ERR_UNSATISFIED", L, pm_status_name(gst));
    size_t bad = first_diff(h, ref, n);
    GT_CHECK(bad == (size_t)-1, "2^%u (%s): GPU bellperson H != CPU at %zu", L, sat ? "satisfied" : "random", bad);
    if (sat) GT_CHECK(fr_is_zero(&h[n - 1]), "2^%u: coefficient n-1 not zero", L);
    /* GPU from PINNED host arrays (the a, b, c pool of tiers 2-3: gpu_bellperson_h_upload's
     * overlapped copies), one element past the pieces' start, so from 2^20 on (an array crossing a
     * 64 MiB piece boundary) every copy is cut inside a piece */
    {
        void *pin = NULL;
        if (gpu_host_alloc_pieces(&pin, (3 * n + 1) * sizeof *a, &e) != PM_OK) {
            GT_CHECK(0, "2^%u pinned pool: %s", L, e.msg);
        } else {
            fr_t *pa = (fr_t *)pin + 1, *pb = pa + n, *pc = pb + n;
            memcpy(pa, a, n * sizeof *a); memcpy(pb, b, n * sizeof *a); memcpy(pc, c, n * sizeof *a);
            GT_CHECK(gpu_host_is_pinned(pa) && gpu_host_is_pinned(pb) && gpu_host_is_pinned(pc),
                     "2^%u: the pool's arrays are not pinned (the overlapped path would not run)", L);
            void *hd = (void *)1;
            pm_status ust = gpu_bellperson_h_upload(&hd, pa, pb, pc, n, d, &e);
            if (sat) {
                GT_OK(ust, e);
                GT_CHECK(hd != NULL, "2^%u pinned upload: no result pointer", L);
                if (hd) GT_OK(gpu_copy_from_device(x, hd, n * sizeof *x, &e), e);
                size_t bad2 = hd ? first_diff(x, ref, n) : 0;
                GT_CHECK(bad2 == (size_t)-1, "2^%u pinned upload != CPU at %zu", L, bad2);
            } else {
                GT_CHECK(ust == PM_ERR_UNSATISFIED && hd == NULL, "2^%u random c, pinned upload: status %s, want PM_ERR_UNSATISFIED",
                         L, pm_status_name(ust));
                void *buf0[3]; /* the coefficients stay in buffer 0 (gpu.h) */
                GT_OK(gpu_ntt_domain_buffers(buf0, d, &e), e);
                GT_OK(gpu_copy_from_device(x, buf0[0], n * sizeof *x, &e), e);
                size_t bad4 = first_diff(x, ref, n);
                GT_CHECK(bad4 == (size_t)-1, "2^%u random c, pinned upload: buffer 0 != CPU at %zu", L, bad4);
            }
            if (sat) { /* c formed on the device as a o b (pinned a, b), then from pageable a, b */
                for (int pageable = 0; pageable < 2; pageable++) {
                    hd = NULL;
                    memset(x, 0, n * sizeof *x);
                    GT_OK(gpu_bellperson_h_upload(&hd, pageable ? a : pa, pageable ? b : pb, NULL, n, d, &e), e);
                    if (hd) GT_OK(gpu_copy_from_device(x, hd, n * sizeof *x, &e), e);
                    size_t bad3 = hd ? first_diff(x, ref, n) : 0;
                    GT_CHECK(bad3 == (size_t)-1, "2^%u c = a o b on the device (%s a, b) != CPU at %zu", L,
                             pageable ? "pageable" : "pinned", bad3);
                }
            }
            preload_checks(L, n, sat, d, a, c, pa, pb, pc, ref, x, y);
            GT_CHECK(first_diff(pa, a, n) == (size_t)-1 && first_diff(pb, b, n) == (size_t)-1 &&
                         first_diff(pc, c, n) == (size_t)-1,
                     "2^%u pinned upload: an input was written", L);
            if (L == 4) {
                GT_CHECK(gpu_bellperson_h_upload(&hd, pa, pb, pc, n / 2, d, &e) == PM_ERR_ARG, "pinned upload: wrong n accepted");
                GT_CHECK(gpu_bellperson_h_upload(NULL, pa, pb, pc, n, d, &e) == PM_ERR_ARG, "pinned upload: no result pointer accepted");
                GT_CHECK(gpu_bellperson_h_upload(&hd, pa, NULL, pc, n, d, &e) == PM_ERR_ARG, "pinned upload: NULL b accepted");
            }
            /* the one-buffer H (tier 4) from pinned arrays (the pool), with gpu.h_swap (its two swaps, A^
             * down while b comes up and D down while c does, in pieces on two streams) and without;
             * a and b overwritten, so put back first */
            char swap0[16];
            snprintf(swap0, sizeof swap0, "%s", pm_setting_str("gpu.h_swap")); /* put back after */
            for (int duplex = 1; duplex >= 0; duplex--) {
                memcpy(pa, a, n * sizeof *a);
                memcpy(pb, b, n * sizeof *a);
                GT_OK(pm_setting_set("gpu.h_swap", duplex ? "true" : "false", &e), e);
                void *hd1 = (void *)1;
                pm_status ost = gpu_bellperson_h_one(&hd1, pa, pb, pc, n, n / 3 + 1, d, &e);
                if (sat) {
                    GT_OK(ost, e);
                    if (hd1) GT_OK(gpu_copy_from_device(x, hd1, n * sizeof *x, &e), e);
                    size_t bad5 = hd1 ? first_diff(x, ref, n) : 0;
                    GT_CHECK(bad5 == (size_t)-1, "2^%u one buffer from pinned arrays (gpu.h_swap %d) != CPU at %zu", L,
                             duplex, bad5);
                } else {
                    GT_CHECK(ost == PM_ERR_UNSATISFIED && hd1 == NULL, "2^%u random c, one buffer, pinned: status %s", L,
                             pm_status_name(ost));
                }
                GT_CHECK(first_diff(pc, c, n) == (size_t)-1, "2^%u one buffer, pinned: c was written", L);
            }
            GT_OK(pm_setting_set("gpu.h_swap", swap0, &e), e);
            gpu_host_free_pieces(pin, (3 * n + 1) * sizeof *a);
        }
    }
    /* GPU from device buffers (the entry the prover uses) */
    if (sat) {
        void *buf[3];
        GT_OK(gpu_ntt_domain_buffers(buf, d, &e), e);
        GT_OK(gpu_copy_to_device(buf[0], a, n * sizeof *a, &e), e);
        GT_OK(gpu_copy_to_device(buf[1], b, n * sizeof *a, &e), e);
        GT_OK(gpu_copy_to_device(buf[2], c, n * sizeof *a, &e), e);
        GT_OK(gpu_bellperson_h(buf[0], buf[1], buf[2], n, d, &e), e);
        GT_OK(gpu_copy_from_device(x, buf[0], n * sizeof *x, &e), e);
        bad = first_diff(x, ref, n);
        GT_CHECK(bad == (size_t)-1, "2^%u device entry != CPU at %zu", L, bad);
        /* bad arguments */
        GT_CHECK(gpu_bellperson_h(buf[0], buf[0], buf[2], n, d, &e) == PM_ERR_ARG, "aliasing accepted");
        GT_CHECK(gpu_bellperson_h(buf[0], buf[1], buf[2], n / 2 ? n / 2 : 2, d, &e) == PM_ERR_ARG, "wrong n accepted");
    }
    /* GPU through one domain buffer (device-memory tier 4): a, b, c from host arrays in turn, the
     * products in chunks of n/3 + 1 (ragged) and of 1 element (small sizes); a and b overwritten */
    for (int pass = 0; pass < (L <= 6 ? 2 : 1); pass++) {
        const size_t chunk = pass ? 1 : n / 3 + 1;
        memcpy(x, a, n * sizeof *x); memcpy(y, b, n * sizeof *y); memcpy(z, c, n * sizeof *z);
        void *hd = (void *)1;
        pm_status ost = gpu_bellperson_h_one(&hd, x, y, z, n, chunk, d, &e);
        if (sat) {
            GT_OK(ost, e);
            GT_CHECK(hd != NULL, "2^%u one buffer: no result pointer", L);
            if (hd) GT_OK(gpu_copy_from_device(h, hd, n * sizeof *h, &e), e);
            size_t bad1 = hd ? first_diff(h, ref, n) : 0;
            GT_CHECK(bad1 == (size_t)-1, "2^%u one buffer, chunks of %zu: != CPU at %zu", L, chunk, bad1);
        } else {
            GT_CHECK(ost == PM_ERR_UNSATISFIED && hd == NULL, "2^%u random c, one buffer: status %s, want PM_ERR_UNSATISFIED",
                     L, pm_status_name(ost));
        }
        GT_CHECK(first_diff(z, c, n) == (size_t)-1, "2^%u one buffer: c was written", L);
    }
    if (sat && L == 4) { /* bad arguments */
        void *hd = NULL;
        memcpy(x, a, n * sizeof *x);
        GT_CHECK(gpu_bellperson_h_one(&hd, x, y, z, n, 0, d, &e) == PM_ERR_ARG, "one buffer: chunk 0 accepted");
        GT_CHECK(gpu_bellperson_h_one(&hd, x, x, z, n, 4, d, &e) == PM_ERR_ARG, "one buffer: aliasing accepted");
        GT_CHECK(gpu_bellperson_h_one(&hd, x, x + 1, z, n, 4, d, &e) == PM_ERR_ARG, "one buffer: overlapping a, b accepted");
        GT_CHECK(gpu_bellperson_h_one(&hd, x, y, z, n / 2, 4, d, &e) == PM_ERR_ARG, "one buffer: wrong n accepted");
        GT_CHECK(gpu_bellperson_h_one(NULL, x, y, z, n, 4, d, &e) == PM_ERR_ARG, "one buffer: no result pointer accepted");
    }
    printf("bellperson H 2^%-2u %-9s %s  (device %.3f ms, CPU fused %.3f s)\n", L, sat ? "satisfied" : "random",
           bad == (size_t)-1 ? "ok" : "MISMATCH", ms, t_cpu);
    free(a); free(b); free(c); free(h); free(x); free(y); free(z); free(ref);
    ntt_domain_free(&cd);
    gpu_ntt_domain_free(d);
}

int main(int argc, char **argv) {
    int max_log = argc > 1 ? atoi(argv[1]) : 22, extra = argc > 2 ? atoi(argv[2]) : 0;
    if (!gt_begin()) return 77;
    for (int L = 1; L <= max_log; L++) {
        test_size((unsigned)L, 1);
        if (L <= 3 || L == 12 || L == max_log) test_size((unsigned)L, 0);
    }
    if (extra > max_log && extra <= 28) test_size((unsigned)extra, 1);
    { /* a domain from 5 is refused */
        pm_error e;
        gpu_ntt_domain *d5 = NULL;
        GT_OK(gpu_ntt_domain_init(&d5, 4, 5, &e), e);
        fr_t v[16];
        for (int i = 0; i < 16; i++) v[i] = FR_ONE;
        GT_CHECK(gpu_bellperson_h_host(v, v, v, v, 16, d5, &e) == PM_ERR_ARG, "roots from 5 accepted");
        gpu_ntt_domain_free(d5);
    }
    printf("%s: %d failure(s)\n", gt_failures ? "FAILED" : "PASSED", gt_failures);
    return gt_failures ? 1 : 0;
}
