/*
 * test_gpu_msm_g2.c — the GPU G2 MSM (gpu_msm_g2, gpu_msm_g2_gather, streamed bases) against
 * independent host references.
 *
 * Bases Q_i = [t_i]G2 with random known t_i, generated on the GPU (gpu_g2_bases_from_scalars); 32 of
 * them are checked against the CPU curve layer's g2_jac_mul_vartime. Then
 * sum_i [k_i] Q_i = [sum_i k_i t_i mod r] G2 gives an oracle at every size (one CPU scalar
 * multiplication), and every case is also compared with the CPU MSM msm_g2_vartime: a disagreement
 * with either fails. Sizes n = 0, 1, 2, 3, 1000, 2^16 (more with argv[1] = log2 max); all-zero,
 * all-one, r-1 (with and without the 0/1 split), one scalar for every point (one bucket), mixed
 * 0/1/2/r-1, witness-like (75 % zero, 20 % one, 5 % uniform), Montgomery scalars, pinned host
 * scalars, device scalars (gpu_fr_buf_upload); bases with infinity, a repeated point, P and -P;
 * streamed bases (pinned host copy, chunks of 5000 points); gathered scalars (index list into a
 * Montgomery witness, host and device witness). Exit 77 when no GPU is usable.
 */
#include "gpu_test_util.h"
#include "curve/g2.h"
#include "msm/msm.h"

static g2_jac_t G2j;

static void expected_g2(g2_jac_t *r, const fr_t *k, const fr_t *t, size_t n) {
    fr_t acc = FR_ZERO, tm, prod;
    for (size_t i = 0; i < n; i++) {
        fr_to_mont(&tm, &t[i]);
        fr_mul(&prod, &k[i], &tm); /* plain k * t mod r */
        fr_add(&acc, &acc, &prod);
    }
    g2_jac_mul_vartime(r, &G2j, acc.l, 4);
}

static void check_g2(const char *what, const gpu_g2_bases *b, const g2_affine_t *ph, const fr_t *k, const fr_t *t, size_t n,
                     unsigned flags, const fr_t *kin) {
    pm_error e;
    g2_jac_t got, want, cpu;
    double t0 = gt_now();
    GT_OK(gpu_msm_g2(&got, b, 0, kin ? kin : k, n, flags, &e), e);
    double t1 = gt_now();
    expected_g2(&want, k, t, n);
    int ok = g2_jac_eq(&got, &want);
    GT_CHECK(ok, "%s: n = %zu flags %u: GPU G2 MSM != [sum k_i t_i]G2", what, n, flags);
    GT_CHECK(msm_g2_vartime(&cpu, ph, k, n, 0) == PM_OK, "%s: CPU msm_g2_vartime failed", what);
    GT_CHECK(g2_jac_eq(&got, &cpu), "%s: n = %zu flags %u: GPU G2 MSM != CPU msm_g2_vartime", what, n, flags);
    gpu_msm_timing_t tm;
    gpu_msm_g2_last_timing(&tm, b);
    printf("%-30s n=%-8zu flags=%u c=%u W=%u rounds=%u ones=%zu zeros=%zu  %s  (wall %.2f ms, device %.2f ms)\n", what, n, flags,
           tm.window_bits, tm.windows, tm.rounds, tm.ones, tm.zeros, ok ? "ok" : "MISMATCH", (t1 - t0) * 1e3, tm.total);
}

int main(int argc, char **argv) {
    int max_log = argc > 1 ? atoi(argv[1]) : 16;
    if (!gt_begin()) return 77;
    pm_error e;
    g2_jac_from_affine(&G2j, &G2_GENERATOR);
    const size_t NB = (size_t)1 << (max_log > 16 ? max_log : 16);
    fr_t *t = malloc(NB * sizeof(fr_t)), *k = malloc(NB * sizeof(fr_t));
    g2_affine_t *ph = malloc(NB * sizeof(g2_affine_t));
    for (size_t i = 0; i < NB; i++) gt_rand_scalar(&t[i]);
    fr_t one = {{1, 0, 0, 0}}, rm1;
    fr_sub(&rm1, &FR_ZERO, &one);
    t[5] = FR_ZERO;                   /* infinity */
    t[7] = t[6];                      /* repeated */
    fr_sub(&t[9], &FR_ZERO, &t[8]);   /* -Q_8 */
    t[11] = one;                      /* G2 */
    gpu_g2_bases *b = NULL;
    double t0 = gt_now();
    GT_OK(gpu_g2_bases_from_scalars(&b, t, NB, &e), e);
    if (!b) return 1;
    printf("generated %zu G2 bases on the GPU in %.1f ms\n", NB, (gt_now() - t0) * 1e3);
    GT_OK(gpu_g2_bases_download(ph, NB, b, 0, &e), e);
    int bad = 0;
    for (size_t i = 0; i < 32; i++) {
        size_t idx = i < 16 ? i : (size_t)(gt_rand64() % NB);
        g2_jac_t want, got;
        g2_jac_mul_vartime(&want, &G2j, t[idx].l, 4);
        g2_jac_from_affine(&got, &ph[idx]);
        bad += !g2_jac_eq(&want, &got);
        bad += !g2_affine_is_on_curve(&ph[idx]);
    }
    GT_CHECK(bad == 0, "%d generated G2 bases differ from [t]G2", bad);
    GT_CHECK(g2_affine_is_infinity(&ph[5]), "[0]G2 is not (0, 0)");
    GT_CHECK(g2_affine_eq(&ph[11], &G2_GENERATOR), "[1]G2 != G2");

    size_t sizes[] = {0, 1, 2, 3, 1000, (size_t)1 << 16, NB};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        if (s == 6 && n <= ((size_t)1 << 16)) break;
        for (size_t i = 0; i < n; i++) gt_rand_scalar(&k[i]);
        check_g2("random", b, ph, k, t, n, 0, NULL);
    }
    size_t n = 1000;
    fr_t *km = malloc(NB * sizeof(fr_t));
    for (size_t i = 0; i < n; i++) fr_to_mont(&km[i], &k[i]);
    check_g2("random, Montgomery", b, ph, k, t, n, GPU_MSM_SCALARS_MONT, km);
    check_g2("random, no 0/1 split", b, ph, k, t, n, GPU_MSM_NO_01_SPLIT, NULL);
    for (size_t i = 0; i < n; i++) k[i] = FR_ZERO;
    check_g2("all zero", b, ph, k, t, n, 0, NULL);
    check_g2("all zero, no split", b, ph, k, t, n, GPU_MSM_NO_01_SPLIT, NULL);
    for (size_t i = 0; i < n; i++) k[i] = one;
    check_g2("all one", b, ph, k, t, n, 0, NULL);
    check_g2("all one, no split", b, ph, k, t, n, GPU_MSM_NO_01_SPLIT, NULL);
    for (size_t i = 0; i < n; i++) k[i] = rm1;
    check_g2("all r-1", b, ph, k, t, n, 0, NULL);
    size_t m = (size_t)1 << 16;
    fr_t same;
    gt_rand_scalar(&same);
    for (size_t i = 0; i < m; i++) k[i] = same;
    check_g2("one scalar for all (one bucket)", b, ph, k, t, m, 0, NULL);
    for (size_t i = 0; i < m; i++) {
        uint64_t r = gt_rand64() % 5;
        if (r == 0) k[i] = FR_ZERO; else if (r == 1) k[i] = one;
        else if (r == 2) { k[i] = FR_ZERO; k[i].l[0] = 2; } else if (r == 3) k[i] = rm1; else gt_rand_scalar(&k[i]);
    }
    check_g2("mixed 0/1/2/r-1/random", b, ph, k, t, m, 0, NULL);
    for (size_t i = 0; i < m; i++) {
        uint64_t r = gt_rand64() % 100;
        if (r < 75) k[i] = FR_ZERO; else if (r < 95) k[i] = one; else gt_rand_scalar(&k[i]);
    }
    check_g2("witness-like", b, ph, k, t, m, 0, NULL);
    /* repeated point, P and -P with equal scalars: tangent and cancelling pairs in the buckets */
    for (size_t i = 0; i < 12; i++) k[i] = same;
    check_g2("edge bases (inf, repeat, P,-P)", b, ph, k, t, 12, 0, NULL);
    /* pinned and device scalars */
    {
        fr_t *kp = NULL;
        GT_OK(gpu_host_alloc((void **)&kp, m * sizeof(fr_t), &e), e);
        if (kp) {
            for (size_t i = 0; i < m; i++) { gt_rand_scalar(&k[i]); kp[i] = k[i]; }
            check_g2("random, pinned scalars", b, ph, k, t, m, 0, kp);
            gpu_fr_buf *kd = NULL;
            GT_OK(gpu_fr_buf_upload(&kd, kp, m, &e), e);
            if (kd) check_g2("random, device scalars", b, ph, k, t, m, GPU_MSM_SCALARS_DEVICE, gpu_fr_buf_device_ptr(kd));
            gpu_fr_buf_free(kd);
            gpu_host_free(kp);
        }
    }
    /* streamed bases */
    {
        g2_affine_t *pin = NULL;
        GT_OK(gpu_host_alloc((void **)&pin, m * sizeof(g2_affine_t), &e), e);
        gpu_g2_bases *hs = NULL;
        if (pin) {
            memcpy(pin, ph, m * sizeof(g2_affine_t));
            GT_OK(gpu_g2_bases_host(&hs, pin, m, 5000, 0, &e), e);
        }
        if (hs) {
            check_g2("streamed bases, chunk 5000", hs, ph, k, t, m, 0, NULL);
            gpu_msm_timing_t tm;
            gpu_msm_g2_last_timing(&tm, hs);
            GT_CHECK(tm.chunks == 14, "streamed G2: %u chunks, expected 14", tm.chunks);
        }
        /* gathered: k_i = w[idx_i], Montgomery witness twice as long */
        size_t nw = 2 * m;
        fr_t *w = malloc(nw * sizeof(fr_t)), *wm = malloc(nw * sizeof(fr_t));
        uint32_t *idx = malloc(m * sizeof(uint32_t));
        for (size_t i = 0; i < nw; i++) {
            uint64_t r = gt_rand64() % 10;
            if (r < 6) w[i] = FR_ZERO; else if (r < 8) w[i] = one; else gt_rand_scalar(&w[i]);
            fr_to_mont(&wm[i], &w[i]);
        }
        for (size_t i = 0; i < m; i++) { idx[i] = (uint32_t)((2 * i + gt_rand64() % 2) % nw); k[i] = w[idx[i]]; }
        gpu_msm_index *ix = NULL;
        gpu_fr_buf *wd = NULL;
        GT_OK(gpu_msm_index_upload(&ix, idx, m, &e), e);
        GT_OK(gpu_fr_buf_upload(&wd, wm, nw, &e), e);
        g2_jac_t want, got, cpu;
        expected_g2(&want, k, t, m);
        GT_OK(msm_g2_vartime(&cpu, ph, k, m, 0), e);
        GT_CHECK(g2_jac_eq(&cpu, &want), "gather: CPU G2 MSM of the gathered scalars != oracle");
        for (int mode = 0; mode < 4 && ix && wd; mode++) {
            const gpu_g2_bases *bb = mode >= 2 ? hs : b;
            if (!bb) continue;
            unsigned fl = GPU_MSM_SCALARS_MONT | ((mode & 1) ? GPU_MSM_SCALARS_DEVICE : 0);
            GT_OK(gpu_msm_g2_gather(&got, bb, 0, (mode & 1) ? gpu_fr_buf_device_ptr(wd) : wm, nw, ix, fl, &e), e);
            int ok = g2_jac_eq(&got, &want);
            GT_CHECK(ok, "G2 gather (%s witness, %s bases) != oracle", (mode & 1) ? "device" : "host", mode >= 2 ? "streamed" : "resident");
            printf("%-30s n=%-8zu %s\n", (mode & 1) ? (mode >= 2 ? "gather dev wit, streamed" : "gather dev witness")
                                                    : (mode >= 2 ? "gather host wit, streamed" : "gather host witness"), m, ok ? "ok" : "MISMATCH");
        }
        if (ix) GT_CHECK(gpu_msm_g2_gather(&got, b, 0, wm, 1, ix, GPU_MSM_SCALARS_MONT, &e) == PM_ERR_ARG, "an index past the witness was not refused");
        gpu_fr_buf_free(wd);
        gpu_msm_index_free(ix);
        gpu_g2_bases_free(hs);
        gpu_host_free(pin);
        free(w); free(wm); free(idx);
    }
    gpu_g2_bases_release_scratch(b);
    for (size_t i = 0; i < 1000; i++) gt_rand_scalar(&k[i]);
    check_g2("after releasing the scratch", b, ph, k, t, 1000, 0, NULL);
    {
        g2_jac_t r;
        GT_CHECK(gpu_msm_g2(&r, b, NB - 1, k, 2, 0, &e) == PM_ERR_ARG, "range past the bases not refused");
        GT_CHECK(gpu_msm_g2(&r, NULL, 0, k, 2, 0, &e) == PM_ERR_ARG, "NULL bases not refused");
    }
    gpu_g2_bases_free(b);
    free(t); free(k); free(km); free(ph);
    printf("%s: %d failure(s)\n", gt_failures ? "FAILED" : "PASSED", gt_failures);
    return gt_failures ? 1 : 0;
}
