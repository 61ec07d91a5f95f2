/*
 * test_gpu_msm_fixed_base.c — the batch fixed-base scalar multiplication (gpu_g1_fixed_base_mul,
 * gpu_g2_fixed_base_mul) against the CPU curve layer.
 *
 * Base P = [s]G (random s; G1 and G2), scalars random plus 0, 1, 2, r-1, 2^254 and repeats; the
 * outputs are compared with g1_jac_mul_vartime / g2_jac_mul_vartime on the CPU: every output of a
 * 2000-point batch and a random sample of 256 outputs of a 2^21-point batch (G2: 2^19), for window
 * widths 16 and 8, plain and Montgomery scalars, host and device scalars. The large batches also
 * print their throughput (points per second) for docs/perf/gpu.md. Exit 77 when no GPU is usable.
 */
#include "gpu_test_util.h"
#include "curve/g2.h"

static void fill_scalars(fr_t *k, size_t n) {
    fr_t one = {{1, 0, 0, 0}};
    for (size_t i = 0; i < n; i++) gt_rand_scalar(&k[i]);
    if (n > 6) {
        k[0] = FR_ZERO;
        k[1] = one;
        k[2] = FR_ZERO; k[2].l[0] = 2;
        fr_sub(&k[3], &FR_ZERO, &one);
        k[4] = FR_ZERO; k[4].l[3] = 1ull << 62; /* 2^254 */
        k[6] = k[5];
    }
}

static void test_g1(unsigned w, size_t n_full, size_t n_big) {
    pm_error e;
    fr_t s;
    gt_rand_scalar(&s);
    g1_jac_t gj, pj;
    g1_jac_from_affine(&gj, &G1_GENERATOR);
    g1_jac_mul_vartime(&pj, &gj, s.l, 4);
    g1_affine_t P;
    g1_jac_to_affine(&P, &pj);
    gpu_g1_fixed_base *fb = NULL;
    double t0 = gt_now();
    GT_OK(gpu_g1_fixed_base_create(&fb, &P, w, &e), e);
    if (!fb) return;
    printf("G1 fixed base, w = %u: table in %.1f ms\n", w, (gt_now() - t0) * 1e3);
    size_t n = n_big > n_full ? n_big : n_full;
    fr_t *k = malloc(n * sizeof(fr_t)), *km = malloc(n_full * sizeof(fr_t));
    g1_affine_t *out = NULL;
    GT_OK(gpu_host_alloc((void **)&out, n * sizeof(g1_affine_t), &e), e);
    fill_scalars(k, n);
    for (int mode = 0; mode < 3 && out; mode++) {
        /* 0: plain host scalars, 1: Montgomery host scalars, 2: plain device scalars */
        const fr_t *kin = k;
        gpu_fr_buf *kd = NULL;
        unsigned flags = 0;
        if (mode == 1) { for (size_t i = 0; i < n_full; i++) fr_to_mont(&km[i], &k[i]); kin = km; flags = GPU_MSM_SCALARS_MONT; }
        if (mode == 2) { GT_OK(gpu_fr_buf_upload(&kd, k, n_full, &e), e); kin = gpu_fr_buf_device_ptr(kd); flags = GPU_MSM_SCALARS_DEVICE; }
        memset(out, 0xa5, n_full * sizeof(g1_affine_t));
        GT_OK(gpu_g1_fixed_base_mul(out, fb, kin, n_full, flags, &e), e);
        int bad = 0;
        for (size_t i = 0; i < n_full; i++) {
            g1_jac_t want;
            g1_affine_t wa;
            g1_jac_mul_vartime(&want, &pj, k[i].l, 4);
            g1_jac_to_affine(&wa, &want);
            bad += !g1_affine_eq(&wa, &out[i]);
        }
        GT_CHECK(bad == 0, "G1 fixed base w = %u mode %d: %d of %zu outputs != [k]P", w, mode, bad, n_full);
        printf("G1 fixed base w = %u, %s scalars, n = %zu: %s\n", w, mode == 0 ? "plain host" : (mode == 1 ? "Montgomery host" : "device"),
               n_full, bad ? "FAIL" : "ok");
        gpu_fr_buf_free(kd);
    }
    if (out && n_big) {
        GT_OK(gpu_g1_fixed_base_mul(out, fb, k, n_big, 0, &e), e); /* warm-up */
        t0 = gt_now();
        GT_OK(gpu_g1_fixed_base_mul(out, fb, k, n_big, 0, &e), e);
        double dt = gt_now() - t0;
        int bad = 0;
        for (int j = 0; j < 256; j++) {
            size_t i = j < 8 ? (size_t)j : (size_t)(gt_rand64() % n_big);
            g1_jac_t want;
            g1_affine_t wa;
            g1_jac_mul_vartime(&want, &pj, k[i].l, 4);
            g1_jac_to_affine(&wa, &want);
            bad += !g1_affine_eq(&wa, &out[i]);
        }
        GT_CHECK(bad == 0, "G1 fixed base w = %u, n = %zu: %d of 256 sampled outputs != [k]P", w, n_big, bad);
        printf("G1 fixed base w = %u, n = %zu (pinned out): %.1f ms, %.2f M points/s, sample %s\n", w, n_big, dt * 1e3, n_big / dt / 1e6,
               bad ? "FAIL" : "ok");
    }
    gpu_host_free(out);
    free(k);
    free(km);
    gpu_g1_fixed_base_free(fb);
}

static void test_g2(unsigned w, size_t n_full, size_t n_big) {
    pm_error e;
    fr_t s;
    gt_rand_scalar(&s);
    g2_jac_t gj, pj;
    g2_jac_from_affine(&gj, &G2_GENERATOR);
    g2_jac_mul_vartime(&pj, &gj, s.l, 4);
    g2_affine_t P;
    g2_jac_to_affine(&P, &pj);
    gpu_g2_fixed_base *fb = NULL;
    double t0 = gt_now();
    GT_OK(gpu_g2_fixed_base_create(&fb, &P, w, &e), e);
    if (!fb) return;
    printf("G2 fixed base, w = %u: table in %.1f ms\n", w, (gt_now() - t0) * 1e3);
    size_t n = n_big > n_full ? n_big : n_full;
    fr_t *k = malloc(n * sizeof(fr_t)), *km = malloc(n_full * sizeof(fr_t));
    g2_affine_t *out = NULL;
    GT_OK(gpu_host_alloc((void **)&out, n * sizeof(g2_affine_t), &e), e);
    fill_scalars(k, n);
    for (int mode = 0; mode < 2 && out; mode++) {
        const fr_t *kin = k;
        unsigned flags = 0;
        if (mode == 1) { for (size_t i = 0; i < n_full; i++) fr_to_mont(&km[i], &k[i]); kin = km; flags = GPU_MSM_SCALARS_MONT; }
        GT_OK(gpu_g2_fixed_base_mul(out, fb, kin, n_full, flags, &e), e);
        int bad = 0;
        for (size_t i = 0; i < n_full; i++) {
            g2_jac_t want;
            g2_affine_t wa;
            g2_jac_mul_vartime(&want, &pj, k[i].l, 4);
            g2_jac_to_affine(&wa, &want);
            bad += !g2_affine_eq(&wa, &out[i]);
        }
        GT_CHECK(bad == 0, "G2 fixed base w = %u mode %d: %d of %zu outputs != [k]P", w, mode, bad, n_full);
        printf("G2 fixed base w = %u, %s scalars, n = %zu: %s\n", w, mode ? "Montgomery" : "plain", n_full, bad ? "FAIL" : "ok");
    }
    if (out && n_big) {
        GT_OK(gpu_g2_fixed_base_mul(out, fb, k, n_big, 0, &e), e);
        t0 = gt_now();
        GT_OK(gpu_g2_fixed_base_mul(out, fb, k, n_big, 0, &e), e);
        double dt = gt_now() - t0;
        int bad = 0;
        for (int j = 0; j < 128; j++) {
            size_t i = j < 8 ? (size_t)j : (size_t)(gt_rand64() % n_big);
            g2_jac_t want;
            g2_affine_t wa;
            g2_jac_mul_vartime(&want, &pj, k[i].l, 4);
            g2_jac_to_affine(&wa, &want);
            bad += !g2_affine_eq(&wa, &out[i]);
        }
        GT_CHECK(bad == 0, "G2 fixed base w = %u, n = %zu: %d of 128 sampled outputs != [k]P", w, n_big, bad);
        printf("G2 fixed base w = %u, n = %zu (pinned out): %.1f ms, %.2f M points/s, sample %s\n", w, n_big, dt * 1e3, n_big / dt / 1e6,
               bad ? "FAIL" : "ok");
    }
    gpu_host_free(out);
    free(k);
    free(km);
    gpu_g2_fixed_base_free(fb);
}

int main(void) {
    if (gpu_available() == 0) {
        printf("SKIPPED: no CUDA device or driver\n");
        return 77;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    gt_seed();
    test_g1(16, 2000, (size_t)1 << 21);
    test_g1(8, 2000, 0);
    test_g2(16, 1000, (size_t)1 << 19);
    test_g2(8, 1000, 0);
    {
        pm_error e;
        gpu_g1_fixed_base *fb = NULL;
        GT_CHECK(gpu_g1_fixed_base_create(&fb, &G1_GENERATOR, 1, &e) == PM_ERR_ARG, "window 1 not refused");
        GT_CHECK(gpu_g1_fixed_base_create(&fb, NULL, 16, &e) == PM_ERR_ARG, "NULL base not refused");
    }
    printf("%s: %d failure(s)\n", gt_failures ? "FAILED" : "PASSED", gt_failures);
    return gt_failures ? 1 : 0;
}
