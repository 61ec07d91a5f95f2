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

/* The group under test, as CPU curve functions and the GPU entry points (one body for G1 and G2). */
typedef struct {
    const char *name;
    size_t aff_size, jac_size;
    const void *gen;
    void (*jac_from_aff)(void *r, const void *p);
    void (*jac_mul)(void *r, const void *p, const fr_t *k);
    void (*jac_to_aff)(void *r, const void *p);
    int (*aff_eq)(const void *a, const void *b);
    pm_status (*create)(void **fb, const void *base, unsigned w, pm_error *e);
    pm_status (*mul)(void *out, void *fb, const fr_t *k, size_t n, unsigned flags, pm_error *e);
    void (*destroy)(void *fb);
} group_t;

static void g1_jfa(void *r, const void *p) { g1_jac_from_affine(r, p); }
static void g1_jm(void *r, const void *p, const fr_t *k) { g1_jac_mul_vartime(r, p, k->l, 4); }
static void g1_jta(void *r, const void *p) { g1_jac_to_affine(r, p); }
static int g1_ae(const void *a, const void *b) { return g1_affine_eq(a, b); }
static pm_status g1_cr(void **fb, const void *base, unsigned w, pm_error *e) { return gpu_g1_fixed_base_create((gpu_g1_fixed_base **)fb, base, w, e); }
static pm_status g1_mu(void *o, void *fb, const fr_t *k, size_t n, unsigned f, pm_error *e) { return gpu_g1_fixed_base_mul(o, fb, k, n, f, e); }
static void g1_fr(void *fb) { gpu_g1_fixed_base_free(fb); }
static void g2_jfa(void *r, const void *p) { g2_jac_from_affine(r, p); }
static void g2_jm(void *r, const void *p, const fr_t *k) { g2_jac_mul_vartime(r, p, k->l, 4); }
static void g2_jta(void *r, const void *p) { g2_jac_to_affine(r, p); }
static int g2_ae(const void *a, const void *b) { return g2_affine_eq(a, b); }
static pm_status g2_cr(void **fb, const void *base, unsigned w, pm_error *e) { return gpu_g2_fixed_base_create((gpu_g2_fixed_base **)fb, base, w, e); }
static pm_status g2_mu(void *o, void *fb, const fr_t *k, size_t n, unsigned f, pm_error *e) { return gpu_g2_fixed_base_mul(o, fb, k, n, f, e); }
static void g2_fr(void *fb) { gpu_g2_fixed_base_free(fb); }

static const group_t G1 = {"G1", sizeof(g1_affine_t), sizeof(g1_jac_t), &G1_GENERATOR, g1_jfa, g1_jm, g1_jta, g1_ae, g1_cr, g1_mu, g1_fr};
static const group_t G2 = {"G2", sizeof(g2_affine_t), sizeof(g2_jac_t), &G2_GENERATOR, g2_jfa, g2_jm, g2_jta, g2_ae, g2_cr, g2_mu, g2_fr};

/* out[i] == [k_i]P on the CPU, for the indices in idx (or all of [0, n) when idx is NULL) */
static int count_bad(const group_t *g, const void *pj, const fr_t *k, const unsigned char *out, const size_t *idx, size_t m) {
    unsigned char want[sizeof(g2_jac_t)], wa[sizeof(g2_affine_t)];
    int bad = 0;
    for (size_t j = 0; j < m; j++) {
        size_t i = idx ? idx[j] : j;
        g->jac_mul(want, pj, &k[i]);
        g->jac_to_aff(wa, want);
        bad += !g->aff_eq(wa, out + i * g->aff_size);
    }
    return bad;
}

static void test_group(const group_t *g, unsigned w, size_t n_full, size_t n_big, size_t n_sample) {
    pm_error e;
    fr_t s;
    gt_rand_scalar(&s);
    unsigned char gj[sizeof(g2_jac_t)], pj[sizeof(g2_jac_t)], P[sizeof(g2_affine_t)];
    g->jac_from_aff(gj, g->gen);
    g->jac_mul(pj, gj, &s);
    g->jac_to_aff(P, pj);
    void *fb = NULL;
    double t0 = gt_now();
    GT_OK(g->create(&fb, P, w, &e), e);
    if (!fb) return;
    printf("%s fixed base, w = %u: table in %.1f ms\n", g->name, w, (gt_now() - t0) * 1e3);
    size_t n = n_big > n_full ? n_big : n_full;
    fr_t *k = malloc(n * sizeof(fr_t)), *km = malloc(n_full * sizeof(fr_t));
    unsigned char *out = NULL;
    GT_OK(gpu_host_alloc((void **)&out, n * g->aff_size, &e), e);
    fill_scalars(k, n);
    for (int mode = 0; mode < 3 && out; mode++) {
        /* 0: plain host scalars, 1: Montgomery host scalars, 2: plain device scalars */
        const fr_t *kin = k;
        gpu_fr_buf *kd = NULL;
        unsigned flags = 0;
        if (mode == 1) { for (size_t i = 0; i < n_full; i++) fr_to_mont(&km[i], &k[i]); kin = km; flags = GPU_MSM_SCALARS_MONT; }
        if (mode == 2) { GT_OK(gpu_fr_buf_upload(&kd, k, n_full, &e), e); kin = gpu_fr_buf_device_ptr(kd); flags = GPU_MSM_SCALARS_DEVICE; }
        memset(out, 0xa5, n_full * g->aff_size);
        GT_OK(g->mul(out, fb, kin, n_full, flags, &e), e);
        int bad = count_bad(g, pj, k, out, NULL, n_full);
        GT_CHECK(bad == 0, "%s fixed base w = %u mode %d: %d of %zu outputs != [k]P", g->name, w, mode, bad, n_full);
        printf("%s fixed base w = %u, %s scalars, n = %zu: %s\n", g->name, w, mode == 0 ? "plain host" : (mode == 1 ? "Montgomery host" : "device"),
               n_full, bad ? "FAIL" : "ok");
        gpu_fr_buf_free(kd);
    }
    if (out && n_big) {
        GT_OK(g->mul(out, fb, k, n_big, 0, &e), e); /* warm-up */
        t0 = gt_now();
        GT_OK(g->mul(out, fb, k, n_big, 0, &e), e);
        double dt = gt_now() - t0;
        size_t *idx = malloc(n_sample * sizeof(size_t));
        for (size_t j = 0; j < n_sample; j++) idx[j] = j < 8 ? j : (size_t)(gt_rand64() % n_big);
        int bad = count_bad(g, pj, k, out, idx, n_sample);
        free(idx);
        GT_CHECK(bad == 0, "%s fixed base w = %u, n = %zu: %d of %zu sampled outputs != [k]P", g->name, w, n_big, bad, n_sample);
        printf("%s fixed base w = %u, n = %zu (pinned out): %.1f ms, %.2f M points/s, sample %s\n", g->name, w, n_big, dt * 1e3,
               n_big / dt / 1e6, bad ? "FAIL" : "ok");
    }
    gpu_host_free(out);
    free(k);
    free(km);
    g->destroy(fb);
}

int main(void) {
    if (!gt_begin()) return 77;
    test_group(&G1, 16, 2000, (size_t)1 << 21, 256);
    test_group(&G1, 8, 2000, 0, 0);
    test_group(&G2, 16, 1000, (size_t)1 << 19, 128);
    test_group(&G2, 8, 1000, 0, 0);
    {
        pm_error e;
        gpu_g1_fixed_base *fb = NULL;
        GT_CHECK(gpu_g1_fixed_base_create(&fb, &G1_GENERATOR, 1, &e) == PM_ERR_ARG, "window 1 not refused");
        GT_CHECK(gpu_g1_fixed_base_create(&fb, NULL, 16, &e) == PM_ERR_ARG, "NULL base not refused");
    }
    printf("%s: %d failure(s)\n", gt_failures ? "FAILED" : "PASSED", gt_failures);
    return gt_failures ? 1 : 0;
}
