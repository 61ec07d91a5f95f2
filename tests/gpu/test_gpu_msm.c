/*
 * test_gpu_msm.c — the GPU G1 MSM (src/gpu/msm.cu) against independent host references.
 *
 * Bases are P_i = [t_i]G with random known t_i, generated on the GPU (gpu_g1_bases_from_scalars);
 * a sample of them is checked against the host's own double-and-add (Jacobian formulas, CPU field).
 * Then sum_i [k_i] P_i = [sum_i k_i t_i mod r] G, so every MSM result is checked by one host scalar
 * multiplication, at every size (n = 0, 1, 2, 3, 1000, 2^16+1, 2^20 by default). Edge inputs:
 * all-zero scalars, r-1, repeated points, P and -P, infinity among the points, all ones, one
 * value repeated for every scalar (one bucket holds all points: the accumulation tree), mixed
 * 0/1/2/r-1; Montgomery-form scalars, scalars already on the device, the 0/1 split switched off.
 * Small cases are also compared with a naive host double-and-add sum, and every case up to 2^17
 * points with the CPU MSM (msm/msm.h, PM_HAVE_CPU_MSM): a disagreement with either fails the test.
 * Then the other paths of gpu.h on the same bases: streamed bases (gpu_g1_bases_host, pinned host
 * copy, chunks of 4096 and 20000 points and a chunk derived from a device budget) must give the
 * same point; gathered scalars (gpu_msm_g1_gather: an index list into a Montgomery witness 3x as
 * long, host witness and device witness from gpu_fr_buf_upload, resident and streamed bases)
 * against the oracle of the gathered values; an index past the witness is refused.
 * Usage: test_gpu_msm [max_log_n (default 20)]. Exit 77 when no GPU is usable.
 */
#include "gpu_test_util.h"
#ifdef PM_HAVE_CPU_MSM
#include "msm/msm.h"
#include "util/settings.h"
#endif

/* largest n compared with the CPU MSM (host copies of that many bases are kept) */
#define CPU_MAX ((size_t)1 << 17)

static g1_affine_t G;
static g1_jac_t Gj;

/* expected = [sum k_i t_i] G (k plain, t plain) */
static void expected_msm(g1_jac_t *r, const fr_t *k, const fr_t *t, size_t n) {
    fr_t acc = FR_ZERO, tm, prod;
    for (size_t i = 0; i < n; i++) {
        fr_to_mont(&tm, &t[i]);
        fr_mul(&prod, &k[i], &tm); /* k * t*R / R = k*t mod r, as a plain integer */
        fr_add(&acc, &acc, &prod);
    }
    gt_jac_mul(r, &Gj, &acc);
}

static void naive_msm(g1_jac_t *r, const g1_affine_t *p, const fr_t *k, size_t n) {
    g1_jac_t acc, pj, t;
    gt_jac_inf(&acc);
    for (size_t i = 0; i < n; i++) {
        gt_jac_from_affine(&pj, &p[i]);
        gt_jac_mul(&t, &pj, &k[i]);
        gt_jac_add(&acc, &acc, &t);
    }
    *r = acc;
}

static void check_msm(const char *what, const gpu_g1_bases *b, const g1_affine_t *pts_host, const fr_t *k, const fr_t *t,
                      size_t n, unsigned flags) {
    pm_error e;
    g1_jac_t got, want;
    const fr_t *kin = k;
    fr_t *kconv = NULL;
    if (flags & GPU_MSM_SCALARS_MONT) {
        kconv = malloc((n ? n : 1) * sizeof(fr_t));
        for (size_t i = 0; i < n; i++) fr_to_mont(&kconv[i], &k[i]);
        kin = kconv;
    }
    double t0 = gt_now();
    pm_status st = gpu_msm_g1(&got, b, 0, kin, n, flags, &e);
    double t1 = gt_now();
    GT_OK(st, e);
    expected_msm(&want, k, t, n);
    int ok = gt_jac_eq(&got, &want);
    GT_CHECK(ok, "%s: n = %zu flags %u: GPU MSM != [sum k_i t_i]G", what, n, flags);
    if (pts_host && n <= 64) {
        g1_jac_t nv;
        naive_msm(&nv, pts_host, k, n);
        GT_CHECK(gt_jac_eq(&got, &nv), "%s: n = %zu: GPU MSM != naive host sum", what, n);
    }
#ifdef PM_HAVE_CPU_MSM
    if (pts_host && n <= CPU_MAX) { /* the CPU MSM too: any disagreement fails */
        g1_jac_t cpu;
        GT_CHECK(msm_g1_vartime(&cpu, pts_host, k, n, 0) == PM_OK, "%s: n = %zu: CPU msm_g1_vartime failed", what, n);
        GT_CHECK(gt_jac_eq(&got, &cpu), "%s: n = %zu flags %u: GPU MSM != CPU msm_g1_vartime", what, n, flags);
    }
#endif
    gpu_msm_timing_t tm;
    gpu_msm_g1_last_timing(&tm, b);
    printf("%-28s n=%-8zu flags=%u c=%u W=%u ones=%zu zeros=%zu  %s  (wall %.2f ms, device %.2f ms)\n", what, n, flags,
           tm.window_bits, tm.windows, tm.ones, tm.zeros, ok ? "ok" : "MISMATCH", (t1 - t0) * 1e3, tm.total);
    free(kconv);
}

int main(int argc, char **argv) {
    int max_log = argc > 1 ? atoi(argv[1]) : 20;
    if (!gt_begin()) return 77;
    gpu_device_info_t info;
    pm_error e;
    GT_OK(gpu_device_info(&info, 0, &e), e);
    printf("device: %s sm_%d%d, %d SMs, %.1f GiB\n", info.name, info.major, info.minor, info.sm_count, info.mem_total / 1073741824.0);
    gt_generator(&G);
    gt_jac_from_affine(&Gj, &G);

    const size_t NMAX = (size_t)1 << max_log;
    const size_t NB = NMAX > 70000 ? NMAX : 70000;
    fr_t *t = malloc(NB * sizeof(fr_t)), *k = malloc(NB * sizeof(fr_t));
    for (size_t i = 0; i < NB; i++) gt_rand_scalar(&t[i]);
    t[5] = FR_ZERO; /* infinity among the bases */
    t[6] = t[7];    /* a repeated point */
    fr_t one = {{1, 0, 0, 0}};
    t[9] = one;     /* G itself */
    fr_sub(&t[11], &FR_ZERO, &t[10]); /* -P_10 (r - t_10, as integers: fr_sub works on raw limbs mod r) */

    gpu_g1_bases *b = NULL;
    double t0 = gt_now();
    GT_OK(gpu_g1_bases_from_scalars(&b, t, NB, &e), e);
    printf("generated %zu bases [t_i]G on the GPU in %.1f ms\n", NB, (gt_now() - t0) * 1e3);
    if (!b) return 1;

    /* sample check of the bases against host double-and-add */
    /* host copies of the bases: the sample check and the CPU MSM comparison (n <= CPU_MAX) */
    size_t nh = NB < CPU_MAX ? NB : CPU_MAX;
    g1_affine_t *ph = malloc(nh * sizeof(g1_affine_t));
    GT_OK(gpu_g1_bases_download(ph, nh, b, 0, &e), e);
    int bad = 0;
    for (size_t i = 0; i < 48; i++) {
        size_t idx = i < 16 ? i : (size_t)(gt_rand64() % nh);
        g1_jac_t want, got;
        gt_jac_mul(&want, &Gj, &t[idx]);
        gt_jac_from_affine(&got, &ph[idx]);
        if (!gt_jac_eq(&want, &got)) bad++;
    }
    GT_CHECK(bad == 0, "%d generated bases differ from host [t]G", bad);
    GT_CHECK(fp_is_zero(&ph[5].x) && fp_is_zero(&ph[5].y), "[0]G is not (0,0)");
    GT_CHECK(fp_eq(&ph[9].x, &G.x) && fp_eq(&ph[9].y, &G.y), "[1]G != G");
    printf("bases sample check: %s\n", bad ? "FAIL" : "ok");

    /* random scalars at the sizes of the issue */
    size_t sizes[] = {0, 1, 2, 3, 17, 1000, 4097, 65537, (size_t)1 << 20};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        if (n > NMAX && n > 65537) continue;
        for (size_t i = 0; i < n; i++) gt_rand_scalar(&k[i]);
        check_msm("random", b, ph, k, t, n, 0);
        if (n == 1000 || n == 65537) {
            check_msm("random, no 0/1 split", b, ph, k, t, n, GPU_MSM_NO_01_SPLIT);
            check_msm("random, Montgomery in", b, ph, k, t, n, GPU_MSM_SCALARS_MONT);
        }
    }
    /* edge inputs */
    size_t n = 1000;
    fr_t rm1;
    fr_sub(&rm1, &FR_ZERO, &one); /* r - 1 */
    for (size_t i = 0; i < n; i++) k[i] = FR_ZERO;
    check_msm("all zero", b, ph, k, t, n, 0);
    check_msm("all zero, no split", b, ph, k, t, n, GPU_MSM_NO_01_SPLIT);
    for (size_t i = 0; i < n; i++) k[i] = rm1;
    check_msm("all r-1", b, ph, k, t, n, 0);
    for (size_t i = 0; i < 65537; i++) k[i] = one;
    check_msm("all ones", b, ph, k, t, 65537, 0);
    check_msm("all ones, no split", b, ph, k, t, 65537, GPU_MSM_NO_01_SPLIT);
    fr_t same;
    gt_rand_scalar(&same);
    for (size_t i = 0; i < 65537; i++) k[i] = same;
    check_msm("all equal (one bucket)", b, ph, k, t, 65537, 0);
    for (size_t i = 0; i < 65537; i++) {
        uint64_t r = gt_rand64() % 5;
        if (r == 0) k[i] = FR_ZERO;
        else if (r == 1) k[i] = one;
        else if (r == 2) { k[i] = FR_ZERO; k[i].l[0] = 2; }
        else if (r == 3) k[i] = rm1;
        else gt_rand_scalar(&k[i]);
    }
    check_msm("mixed 0/1/2/r-1/random", b, ph, k, t, 65537, 0);
    /* small explicit edge sets on uploaded points: P, -P, infinity, repeats */
    {
        g1_affine_t pts[6];
        fr_t ts[6], ks[6];
        pts[0] = ph[10]; ts[0] = t[10];
        pts[1] = ph[11]; ts[1] = t[11]; /* -P_10 */
        pts[2] = ph[5];  ts[2] = t[5];  /* infinity */
        pts[3] = ph[7];  ts[3] = t[7];
        pts[4] = ph[7];  ts[4] = t[7];  /* repeated */
        pts[5] = ph[9];  ts[5] = t[9];  /* G */
        gpu_g1_bases *b2 = NULL;
        GT_OK(gpu_g1_bases_upload(&b2, pts, 6, &e), e);
        gt_rand_scalar(&ks[0]); ks[1] = ks[0]; /* P and -P with one scalar: cancel */
        gt_rand_scalar(&ks[2]);
        gt_rand_scalar(&ks[3]); ks[4] = ks[3]; /* same point, same scalar: doubling in a bucket */
        ks[5] = rm1;
        if (b2) {
            check_msm("P,-P,inf,repeat,G", b2, pts, ks, ts, 6, 0);
            check_msm("P,-P,inf,repeat,G nosplit", b2, pts, ks, ts, 6, GPU_MSM_NO_01_SPLIT);
            check_msm("P,-P only", b2, pts, ks, ts, 2, 0);
        }
        gpu_g1_bases_free(b2);
    }
    /* scalars already on the device: reuse the H path's contract through a pinned copy */
    {
        void *pinned = NULL;
        size_t m = 65537;
        GT_OK(gpu_host_alloc(&pinned, m * sizeof(fr_t), &e), e);
        if (pinned) {
            fr_t *kp = pinned;
            for (size_t i = 0; i < m; i++) gt_rand_scalar(&kp[i]);
            check_msm("random, pinned scalars", b, ph, kp, t, m, 0);
            gpu_host_free(pinned);
        }
    }
    /* streamed bases: pinned host copy, several chunk sizes; same point as the resident path */
    {
        size_t m = 65537;
        g1_affine_t *pin = NULL;
        GT_OK(gpu_host_alloc((void **)&pin, m * sizeof(g1_affine_t), &e), e);
        if (pin) {
            GT_OK(gpu_g1_bases_download(pin, m, b, 0, &e), e);
            for (size_t i = 0; i < m; i++) {
                uint64_t r = gt_rand64() % 4;
                if (r == 0) k[i] = FR_ZERO; else if (r == 1) k[i] = one; else gt_rand_scalar(&k[i]);
            }
            const size_t chunks[] = {4096, 20000, 0};
            for (int c = 0; c < 3; c++) {
                gpu_g1_bases *hs = NULL;
                /* chunk 0: from the smallest device budget that holds a chunk (2^16 points: two chunks) */
                size_t budget = 0;
                if (c == 2) {
                    size_t lo = 0, hi = (size_t)1 << 40;
                    while (hi - lo > 1) { size_t mid = lo + (hi - lo) / 2; if (gpu_msm_g1_chunk_points(mid)) hi = mid; else lo = mid; }
                    budget = hi;
                }
                GT_OK(gpu_g1_bases_host(&hs, pin, m, chunks[c], budget, &e), e);
                if (!hs) continue;
                char what[64];
                snprintf(what, sizeof what, "streamed bases, chunk %zu", chunks[c] ? chunks[c] : gpu_msm_g1_chunk_points(budget));
                check_msm(what, hs, ph, k, t, m, 0);
                gpu_msm_timing_t tm;
                gpu_msm_g1_last_timing(&tm, hs);
                GT_CHECK(tm.chunks >= 2, "streamed bases: %u chunks (expected several)", tm.chunks);
                /* a prefetched prefix (gpu_g1_bases_prefetch, as groth16/start_gpu.c fills the NTT domain's
                 * idle buffers): 1 point, a chunk and a half, all of them; then dropped: the same point, the
                 * rest sent. The host copy's prefix is poisoned while the prefix is used, so a chunk read from
                 * the host instead of the prefix gives another point. */
                if (c < 2) {
                    const size_t pres[] = {1, chunks[c] + chunks[c] / 2, m + 5};
                    void *dst = NULL;
                    GT_OK(gpu_dev_alloc(&dst, (m + 5) * sizeof(g1_affine_t), &e), e);
                    for (int q = 0; q < 3 && dst; q++) {
                        size_t got_n = 0;
                        GT_OK(gpu_g1_bases_prefetch(hs, dst, pres[q] * sizeof(g1_affine_t), &got_n, &e), e);
                        const size_t pn = pres[q] < m ? pres[q] : m;
                        GT_CHECK(got_n == pn, "prefetch: %zu points, expected %zu", got_n, pn);
                        if (fr_is_zero(&k[0])) k[0] = one; /* point 0 counts, so poisoning it shows */
                        snprintf(what, sizeof what, "streamed, chunk %zu, prefix %zu", chunks[c], pn);
                        check_msm(what, hs, ph, k, t, m, 0); /* returns once the prefix copy has landed */
                        g1_affine_t keep0 = pin[0];
                        pin[0] = pin[m - 1];
                        check_msm("streamed, prefix, host copy's point 0 poisoned", hs, ph, k, t, m, 0);
                        pin[0] = keep0;
                        gpu_msm_g1_last_timing(&tm, hs);
                        GT_CHECK(tm.sent == m - pn, "prefetch %zu: %zu points sent, expected %zu", pn, tm.sent, m - pn);
                        gpu_g1_bases_prefetch_drop(hs);
                        check_msm("streamed, prefix dropped", hs, ph, k, t, m, 0);
                        gpu_msm_g1_last_timing(&tm, hs);
                        GT_CHECK(tm.sent == m, "prefix dropped: %zu points sent, expected %zu", tm.sent, m);
                    }
                    gpu_dev_free(dst);
                }
                gpu_g1_bases_free(hs);
            }
            gpu_host_free(pin);
        }
    }
    /* gathered scalars: k_i = w[idx_i] from a Montgomery witness */
    {
        size_t m = 65537, nw = 3 * m;
        fr_t *w = malloc(nw * sizeof(fr_t)), *wm = malloc(nw * sizeof(fr_t)), *kg = malloc(m * sizeof(fr_t));
        uint32_t *idx = malloc(m * sizeof(uint32_t));
        for (size_t i = 0; i < nw; i++) {
            uint64_t r = gt_rand64() % 100;
            if (r < 75) w[i] = FR_ZERO; else if (r < 95) w[i] = one; else gt_rand_scalar(&w[i]);
            fr_to_mont(&wm[i], &w[i]);
        }
        for (size_t i = 0; i < m; i++) { idx[i] = (uint32_t)(i < 100 ? i : (3 * i + gt_rand64() % 3) % nw); kg[i] = w[idx[i]]; }
        gpu_msm_index *ix = NULL;
        gpu_fr_buf *wd = NULL;
        GT_OK(gpu_msm_index_upload(&ix, idx, m, &e), e);
        GT_OK(gpu_fr_buf_upload(&wd, wm, nw, &e), e);
        g1_affine_t *pin = NULL;
        GT_OK(gpu_host_alloc((void **)&pin, m * sizeof(g1_affine_t), &e), e);
        gpu_g1_bases *hs = NULL;
        if (pin) {
            GT_OK(gpu_g1_bases_download(pin, m, b, 0, &e), e);
            GT_OK(gpu_g1_bases_host(&hs, pin, m, 3000, 0, &e), e); /* 22 chunks; ~6 packed (both buffers reused) */
        }
        g1_jac_t want, got;
        expected_msm(&want, kg, t, m);
#ifdef PM_HAVE_CPU_MSM
        g1_jac_t cpu;
        GT_OK(msm_g1_vartime(&cpu, ph, kg, m, 0), e);
        GT_CHECK(gt_jac_eq(&cpu, &want), "gather: CPU MSM of the gathered scalars != oracle");
#endif
        size_t nz = 0;
        for (size_t i = 0; i < m; i++) nz += !fr_is_zero(&kg[i]);
        /* streamed: every point sent (skip 0), the zero scalars' points left off the bus (1: by the
         * density rule, at most a quarter non-zero, ~25 % here; 2: always), with the MSM starting at base 0 and at base 3 */
        g1_jac_t want3;
        gpu_msm_index *ix3 = NULL;
        expected_msm(&want3, kg + 3, t + 3, m - 3);
        GT_OK(gpu_msm_index_upload(&ix3, idx + 3, m - 3, &e), e);
        for (int mode = 0; mode < 4 && ix && wd; mode++)
            for (int skip = 0; skip < (mode >= 2 ? 3 : 1); skip++)
                for (int first = 0; first <= (mode >= 2 ? 3 : 0); first += 3) {
                    const gpu_g1_bases *bb = mode >= 2 ? hs : b;
                    if (!bb || (first && !ix3)) continue;
                    const char *sk[] = {"0", "1", "2"};
                    GT_OK(pm_setting_set("gpu.msm_skip_zero", sk[skip], &e), e);
                    unsigned fl = GPU_MSM_SCALARS_MONT | ((mode & 1) ? GPU_MSM_SCALARS_DEVICE : 0);
                    const fr_t *src = (mode & 1) ? gpu_fr_buf_device_ptr(wd) : wm;
                    GT_OK(gpu_msm_g1_gather(&got, bb, first, src, nw, first ? ix3 : ix, fl, &e), e);
                    int ok = gt_jac_eq(&got, first ? &want3 : &want);
                    GT_CHECK(ok, "gather (%s witness, %s bases, skip %d, first %d) != [sum w_idx t]G", (mode & 1) ? "device" : "host",
                             mode >= 2 ? "streamed" : "resident", skip, first);
                    gpu_msm_timing_t tm;
                    gpu_msm_g1_last_timing(&tm, bb);
                    if (mode >= 2 && first == 0) {
                        size_t want_sent = skip == 2 || (skip == 1 && 4 * nz <= m) ? nz : m; /* 1: at most a quarter non-zero */
                        GT_CHECK(tm.sent == want_sent, "gather streamed, skip %d: %zu points sent, expected %zu", skip, tm.sent, want_sent);
                    }
                    printf("%-28s n=%-8zu skip=%d first=%d ones=%zu zeros=%zu general=%zu sent=%zu chunks=%u  %s\n",
                           mode & 1 ? (mode >= 2 ? "gather dev wit, streamed" : "gather dev witness")
                                    : (mode >= 2 ? "gather host wit, streamed" : "gather host witness"),
                           m, skip, first, tm.ones, tm.zeros, tm.general, tm.sent, tm.chunks, ok ? "ok" : "MISMATCH");
                }
        /* dense scalars on the device over the streamed bases (Filecoin's L): packed the same way */
        if (hs && wd) {
            g1_jac_t wantd;
            size_t nzd = 0;
            expected_msm(&wantd, w, t, m);
            for (size_t i = 0; i < m; i++) nzd += !fr_is_zero(&w[i]);
            for (int skip = 0; skip < 3; skip++) {
                const char *sk[] = {"0", "1", "2"};
                GT_OK(pm_setting_set("gpu.msm_skip_zero", sk[skip], &e), e);
                GT_OK(gpu_msm_g1(&got, hs, 0, gpu_fr_buf_device_ptr(wd), m, GPU_MSM_SCALARS_DEVICE | GPU_MSM_SCALARS_MONT, &e), e);
                gpu_msm_timing_t tm;
                gpu_msm_g1_last_timing(&tm, hs);
                const int ok = gt_jac_eq(&got, &wantd);
                GT_CHECK(ok, "dense device scalars, streamed bases, skip %d != [sum w_i t_i]G", skip);
                const size_t want_d = skip == 2 || (skip == 1 && 4 * nzd <= m) ? nzd : m;
                GT_CHECK(tm.sent == want_d, "dense streamed, skip %d: %zu points sent, expected %zu", skip, tm.sent, want_d);
                printf("%-28s n=%-8zu skip=%d sent=%zu chunks=%u  %s\n", "dense dev scalars, streamed", m, skip, tm.sent, tm.chunks,
                       ok ? "ok" : "MISMATCH");
            }
        }
        GT_OK(pm_setting_set("gpu.msm_skip_zero", "0", &e), e); /* the default again */
        gpu_msm_index_free(ix3);
        if (ix) GT_CHECK(gpu_msm_g1_gather(&got, b, 0, wm, 1, ix, GPU_MSM_SCALARS_MONT, &e) == PM_ERR_ARG,
                         "an index past the witness was not refused");
        gpu_g1_bases_free(hs);
        gpu_host_free(pin);
        gpu_fr_buf_free(wd);
        gpu_msm_index_free(ix);
        free(w); free(wm); free(kg); free(idx);
    }
    /* scratch released between MSMs: the next one allocates it again, same result */
    gpu_g1_bases_release_scratch(b);
    for (size_t i = 0; i < 1000; i++) gt_rand_scalar(&k[i]);
    check_msm("after releasing the scratch", b, ph, k, t, 1000, 0);
    /* bad arguments are errors, not crashes */
    {
        g1_jac_t r;
        GT_CHECK(gpu_msm_g1(&r, b, NB - 1, k, 2, 0, &e) == PM_ERR_ARG, "range past the bases not refused");
        GT_CHECK(gpu_msm_g1(&r, NULL, 0, k, 2, 0, &e) == PM_ERR_ARG, "NULL bases not refused");
    }
    gpu_g1_bases_free(b);
    free(ph);
    free(t);
    free(k);
    printf("%s: %d failure(s)\n", gt_failures ? "FAILED" : "PASSED", gt_failures);
    return gt_failures ? 1 : 0;
}
