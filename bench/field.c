/*
 * bench/field.c — ns per field operation (and, when those layers exist, curve/pairing operations).
 *
 * Usage: bench_field [scale]   (scale, default 1.0, multiplies every iteration count)
 * Each figure is the minimum of 9 timed runs of a dependent chain (x = x op y), so it is latency
 * per operation on one core, measured with CLOCK_MONOTONIC; the median follows in brackets.
 * Baselines (portable C, Fermat inversion) run alternately with the op they are compared with. The
 * machine is shared: the minimum is the better estimate of the uncontended cost, and comparisons
 * with blst belong in one run (bench/field_vs_blst.sh). Ratios printed here are
 * against the portable C path measured in the same run (the baseline of this benchmark), and the
 * dispatch cost is shown by timing the same kernel called directly, through fp_mul (a flag
 * branch), through a function-pointer wrapper and through a pointer at the caller. The last block times the layers built on the field
 * (src/curve, src/pairing) with whichever field backend is linked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "field/cpu_x86.h"
#include "field/fp.h"
#include "field/fr.h"
#include "field/fr_bfly.h"
#include "field/mont_impl.h"
#include "pairing/pairing.h"
#include "test_util.h"
#include "util/clock.h"

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double g_scale = 1.0;
static volatile uint64_t g_sink;

#define RUNS 9
static double g_median;
/* Times `body` (one operation) `iters` times per run; result = min ns/op, g_median = median. */
#define TIME_OP(result, iters0, body)                                   \
    do {                                                                \
        size_t iters_ = (size_t)((double)(iters0) * g_scale);           \
        if (iters_ < 1) iters_ = 1;                                     \
        double t_[RUNS];                                                \
        for (int run_ = 0; run_ < RUNS; run_++) {                       \
            double s_ = (pm_now_s() * 1e9);                                       \
            for (size_t i_ = 0; i_ < iters_; i_++) { body; }            \
            t_[run_] = ((pm_now_s() * 1e9) - s_) / (double)iters_;                \
        }                                                               \
        qsort(t_, RUNS, sizeof t_[0], cmp_d);                           \
        (result) = t_[0];                                               \
        g_median = t_[RUNS / 2];                                        \
    } while (0)

/* Alternates runs of `body` and of its baseline `base` (same load for both); res = {min, median}
 * of body, then {min, median} of base, ns/op. */
#define TIME_PAIR(res, iters0, body, base)                              \
    do {                                                                \
        size_t iters_ = (size_t)((double)(iters0) * g_scale);           \
        if (iters_ < 1) iters_ = 1;                                     \
        double a_[RUNS], b_[RUNS];                                      \
        for (int run_ = 0; run_ < RUNS; run_++) {                       \
            double s_ = (pm_now_s() * 1e9);                                       \
            for (size_t i_ = 0; i_ < iters_; i_++) { body; }            \
            a_[run_] = ((pm_now_s() * 1e9) - s_) / (double)iters_;                \
            s_ = (pm_now_s() * 1e9);                                              \
            for (size_t i_ = 0; i_ < iters_; i_++) { base; }            \
            b_[run_] = ((pm_now_s() * 1e9) - s_) / (double)iters_;                \
        }                                                               \
        qsort(a_, RUNS, sizeof a_[0], cmp_d);                           \
        qsort(b_, RUNS, sizeof b_[0], cmp_d);                           \
        (res)[0] = a_[0]; (res)[1] = a_[RUNS / 2];                      \
        (res)[2] = b_[0]; (res)[3] = b_[RUNS / 2];                      \
    } while (0)

static void pair_row(const char *name, const double *res, const char *base_name) {
    printf("%-28s %10.1f ns [%10.1f]  (%-8s %9.1f ns [%10.1f], x%.2f)\n", name, res[0], res[1],
           base_name, res[2], res[3], res[2] / res[0]);
}

#if PM_FIELD_HAVE_ADX_KERNELS
/* the function-pointer alternative to fp_mul's flag branch, for the dispatch measurement */
static void (*volatile g_mul_ptr)(uint64_t *, const uint64_t *, const uint64_t *) = pm_fp_mul_adx;
static __attribute__((noinline)) void fp_mul_via_ptr(fp_t *r, const fp_t *a, const fp_t *b) {
    g_mul_ptr(r->l, a->l, b->l);
}
#endif

static void fp_mul_portable(fp_t *r, const fp_t *a, const fp_t *b) {
    mont_mul(r->l, a->l, b->l, FP_MODULUS.l, FP_N0, 6);
}
static void fr_mul_portable(fr_t *r, const fr_t *a, const fr_t *b) {
    mont_mul(r->l, a->l, b->l, FR_MODULUS.l, FR_N0, 4);
}

static void row(const char *name, double ns, double base) {
    (void)base;
    printf("%-28s %10.1f ns [%10.1f]\n", name, ns, g_median);
}

/* ---- NTT butterflies on a row of BF_ROW independent elements (the NTT's inner loop; L1-resident):
 * ns per butterfly for the three separate calls (what ntt.c did before the fused kernels), the
 * fused single call, the row call, and fr_mul alone over the same row (the multiplication floor at
 * this throughput, not latency). All variants interleaved run by run, minimum of 2*RUNS. */
#define BF_ROW 64
static fr_t g_bx[BF_ROW], g_by[BF_ROW], g_bw[BF_ROW];
static void bf_mul_only(void) {
    for (size_t i = 0; i < BF_ROW; i++) fr_mul(&g_by[i], &g_bw[i], &g_by[i]);
}
static void bf_three_dit(void) {
    for (size_t i = 0; i < BF_ROW; i++) {
        fr_t t;
        fr_mul(&t, &g_bw[i], &g_by[i]);
        fr_sub(&g_by[i], &g_bx[i], &t);
        fr_add(&g_bx[i], &g_bx[i], &t);
    }
}
static void bf_three_dif(void) {
    for (size_t i = 0; i < BF_ROW; i++) {
        fr_t t;
        fr_sub(&t, &g_bx[i], &g_by[i]);
        fr_add(&g_bx[i], &g_bx[i], &g_by[i]);
        fr_mul(&g_by[i], &t, &g_bw[i]);
    }
}
static void bf_single_dit(void) {
    for (size_t i = 0; i < BF_ROW; i++) fr_bfly_dit(&g_bx[i], &g_by[i], &g_bw[i]);
}
static void bf_single_dif(void) {
    for (size_t i = 0; i < BF_ROW; i++) fr_bfly_dif(&g_bx[i], &g_by[i], &g_bw[i]);
}
static void bf_row_dit(void) { fr_bflys_dit(g_bx, g_by, g_bw, BF_ROW); }
static void bf_row_dif(void) { fr_bflys_dif(g_bx, g_by, g_bw, BF_ROW); }
static void bf_triv(void) {
    for (size_t i = 0; i < BF_ROW; i++) fr_bfly_triv(&g_bx[i], &g_by[i]);
}
static void bench_butterflies(void) {
    static const struct {
        const char *name;
        void (*fn)(void);
    } v[] = {{"Fr mul alone (row)", bf_mul_only},  {"DIT: mul+sub+add calls", bf_three_dit},
             {"DIT: fr_bfly_dit", bf_single_dit},   {"DIT: fr_bflys_dit (row)", bf_row_dit},
             {"DIF: sub+add+mul calls", bf_three_dif}, {"DIF: fr_bfly_dif", bf_single_dif},
             {"DIF: fr_bflys_dif (row)", bf_row_dif}, {"twiddle 1: fr_bfly_triv", bf_triv}};
    enum { NV = sizeof v / sizeof v[0] };
    for (size_t i = 0; i < BF_ROW; i++) {
        pm_rand_fr(&g_bx[i]);
        pm_rand_fr(&g_by[i]);
        pm_rand_fr(&g_bw[i]);
    }
    size_t it = (size_t)(4000 * g_scale) + 1;
    double m[NV];
    for (int k = 0; k < NV; k++) m[k] = 1e30;
    for (int run = 0; run < 2 * RUNS; run++)
        for (int k = 0; k < NV; k++) {
            double s0 = pm_now_s() * 1e9;
            for (size_t i = 0; i < it; i++) v[k].fn();
            double d = (pm_now_s() * 1e9 - s0) / (double)(it * BF_ROW);
            if (d < m[k]) m[k] = d;
        }
    printf("NTT butterflies, rows of %d independent elements, ns per butterfly (min of %d interleaved runs):\n",
           BF_ROW, 2 * RUNS);
    for (int k = 0; k < NV; k++) printf("  %-28s %8.1f ns\n", v[k].name, m[k]);
    g_sink ^= g_bx[0].l[0] ^ g_by[0].l[0];
}

/* ---- the row backends of fr_bflys_dit/dif on rows of 1024 butterflies (L1/L2-resident): the scalar
 * kernels (BMI2+ADX asm, or portable C), the AVX-512 IFMA kernel (when the CPU has it) and the same
 * kernel through its portable C model (slow; a correctness vehicle). ns per butterfly, min of
 * interleaved runs, and the ratio ifma/scalar measured in the same run. */
#define BR_ROW 1024
static fr_t g_rx[BR_ROW], g_ry[BR_ROW], g_rw[BR_ROW];
static void br_scalar_dit(void) { fr_bflys_dit_scalar(g_rx, g_ry, g_rw, BR_ROW); }
static void br_scalar_dif(void) { fr_bflys_dif_scalar(g_rx, g_ry, g_rw, BR_ROW); }
static void br_ifma_dit(void) { fr_bflys_dit_ifma(g_rx, g_ry, g_rw, BR_ROW); }
static void br_ifma_dif(void) { fr_bflys_dif_ifma(g_rx, g_ry, g_rw, BR_ROW); }
static void br_model_dit(void) { fr_bflys_dit_model(g_rx, g_ry, g_rw, BR_ROW); }
static void br_model_dif(void) { fr_bflys_dif_model(g_rx, g_ry, g_rw, BR_ROW); }
static void bench_bfly_backends(void) {
    const int ifma = fr_bfly_ifma_available();
    static const struct {
        const char *name;
        void (*fn)(void);
        int needs_ifma, model;
    } v[] = {{"DIT scalar (fr_bflys_dit_scalar)", br_scalar_dit, 0, 0}, {"DIT ifma", br_ifma_dit, 1, 0},
             {"DIT model", br_model_dit, 0, 1},
             {"DIF scalar (fr_bflys_dif_scalar)", br_scalar_dif, 0, 0}, {"DIF ifma", br_ifma_dif, 1, 0},
             {"DIF model", br_model_dif, 0, 1}};
    enum { NV = sizeof v / sizeof v[0] };
    for (size_t i = 0; i < BR_ROW; i++) {
        pm_rand_fr(&g_rx[i]);
        pm_rand_fr(&g_ry[i]);
        pm_rand_fr(&g_rw[i]);
    }
    size_t it = (size_t)(400 * g_scale) + 1;
    double m[NV];
    for (int k = 0; k < NV; k++) m[k] = 1e30;
    for (int run = 0; run < 2 * RUNS; run++)
        for (int k = 0; k < NV; k++) {
            if (v[k].needs_ifma && !ifma) continue;
            size_t its = v[k].model ? it / 20 + 1 : it;
            double s0 = pm_now_s() * 1e9;
            for (size_t i = 0; i < its; i++) v[k].fn();
            double d = (pm_now_s() * 1e9 - s0) / (double)(its * BR_ROW);
            if (d < m[k]) m[k] = d;
        }
    printf("fr_bflys row backends, rows of %d, ns per butterfly (min of %d interleaved runs); scalar = %s,"
           " default fr_bflys = %s:\n",
           BR_ROW, 2 * RUNS, fr_backend(), fr_bflys_backend());
    for (int k = 0; k < NV; k++) {
        if (v[k].needs_ifma && !ifma) printf("  %-34s   SKIPPED (no AVX-512 IFMA on this CPU/OS)\n", v[k].name);
        else printf("  %-34s %8.2f ns\n", v[k].name, m[k]);
    }
    if (ifma)
        printf("  ratio ifma/scalar: DIT %.3f, DIF %.3f\n", m[1] / m[0], m[4] / m[3]);
    g_sink ^= g_rx[0].l[0] ^ g_ry[0].l[0];
}

int main(int argc, char **argv) {
    if (argc > 1) g_scale = strtod(argv[1], NULL);
    if (g_scale <= 0) g_scale = 1.0;
    pm_test_seed();
    printf("fp backend: %s, fr backend: %s\n", fp_backend(), fr_backend());

    fp_t x, y;
    fr_t u, v;
    pm_rand_fp(&x);
    pm_rand_fp(&y);
    pm_rand_fr(&u);
    pm_rand_fr(&v);
    double t;

    double res[4];
    TIME_PAIR(res, 200000, fp_mul(&x, &x, &y), fp_mul_portable(&x, &x, &y));
    pair_row("Fp mul", res, "portable");
    TIME_PAIR(res, 200000, fp_sqr(&x, &x), fp_mul_portable(&x, &x, &x));
    pair_row("Fp sqr", res, "portable");
    TIME_OP(t, 200000, fp_add(&x, &x, &y));
    row("Fp add", t, 0);
    TIME_PAIR(res, 400000, fr_mul(&u, &u, &v), fr_mul_portable(&u, &u, &v));
    pair_row("Fr mul", res, "portable");
    TIME_PAIR(res, 400000, fr_sqr(&u, &u), fr_mul_portable(&u, &u, &u));
    pair_row("Fr sqr", res, "portable");
    TIME_OP(t, 400000, fr_add(&u, &u, &v));
    row("Fr add", t, 0);
    bench_butterflies();
    bench_bfly_backends();

    /* inversion: the chain x = 1/x + y keeps the inputs random */
    TIME_PAIR(res, 1000, { fp_inv_vartime(&x, &x); fp_add(&x, &x, &y); },
              { fp_inv_fermat(&x, &x); fp_add(&x, &x, &y); });
    pair_row("Fp inverse", res, "Fermat");
    TIME_PAIR(res, 1000, { fr_inv_vartime(&u, &u); fr_add(&u, &u, &v); },
              { fr_inv_fermat(&u, &u); fr_add(&u, &u, &v); });
    pair_row("Fr inverse", res, "Fermat");

#if PM_FIELD_HAVE_ADX_KERNELS
    if (pm_field_use_adx()) {
        /* dispatch, all four interleaved run by run: the kernel called directly; fp_mul (call, flag
         * load + branch, tail jump); a wrapper that tail-jumps through a function pointer (what
         * fp_mul would be with pointer dispatch, since it must stay a function); and the caller
         * calling through the pointer itself (would need the API to export a pointer). */
        size_t it = (size_t)(200000 * g_scale) + 1;
        double m[4] = {1e30, 1e30, 1e30, 1e30};
        for (int run = 0; run < 2 * RUNS; run++) {
            double s0 = (pm_now_s() * 1e9);
            for (size_t i = 0; i < it; i++) pm_fp_mul_adx(x.l, x.l, y.l);
            double s1 = (pm_now_s() * 1e9);
            for (size_t i = 0; i < it; i++) fp_mul(&x, &x, &y);
            double s2 = (pm_now_s() * 1e9);
            for (size_t i = 0; i < it; i++) fp_mul_via_ptr(&x, &x, &y);
            double s3 = (pm_now_s() * 1e9);
            for (size_t i = 0; i < it; i++) g_mul_ptr(x.l, x.l, y.l);
            double s4 = (pm_now_s() * 1e9);
            double d[4] = {s1 - s0, s2 - s1, s3 - s2, s4 - s3};
            for (int k = 0; k < 4; k++)
                if (d[k] / (double)it < m[k]) m[k] = d[k] / (double)it;
        }
        printf("dispatch (Fp mul, min of %d interleaved runs): direct %.1f ns, fp_mul flag branch %.1f ns,"
               " fp_mul via pointer %.1f ns, caller through pointer %.1f ns\n", 2 * RUNS, m[0], m[1],
               m[2], m[3]);
    }
#endif
    /* the layers above: curve and pairing ops, on multiples of the generators */
    {
        g1_jac_t P, Q;
        g1_affine_t A;
        g2_jac_t P2, Q2;
        g2_affine_t A2;
        fr_t k;
        uint64_t k1[1] = {0x9e3779b97f4a7c15ULL};
        g1_jac_from_affine(&P, &G1_GENERATOR);
        g1_jac_mul_vartime(&Q, &P, k1, 1);
        g1_jac_to_affine(&A, &Q);
        g2_jac_from_affine(&P2, &G2_GENERATOR);
        g2_jac_mul_vartime(&Q2, &P2, k1, 1);
        g2_jac_to_affine(&A2, &Q2);
        TIME_OP(t, 100000, g1_jac_add_affine(&P, &P, &A));
        row("G1 mixed add (jac+affine)", t, 0);
        TIME_OP(t, 100000, g1_jac_dbl(&P, &P));
        row("G1 double (jac)", t, 0);
        TIME_OP(t, 30000, g2_jac_add_affine(&P2, &P2, &A2));
        row("G2 mixed add (jac+affine)", t, 0);
        TIME_OP(t, 30000, g2_jac_dbl(&P2, &P2));
        row("G2 double (jac)", t, 0);
        pm_rand_fr(&k);
        TIME_OP(t, 100, g1_jac_mul_fr(&P, &P, &k));
        row("G1 scalar mul (fixed window)", t, 0);
        g1_affine_t ps[3] = {G1_GENERATOR, A, G1_GENERATOR};
        g2_affine_t qs[3] = {A2, G2_GENERATOR, G2_GENERATOR};
        fp12_t e;
        TIME_OP(t, 20, pairing(&e, &ps[0], &qs[0]));
        row("pairing", t, 0);
        TIME_OP(t, 20, pairing_multi(&e, ps, qs, 3));
        row("multi-pairing of 3", t, 0);
        g_sink ^= P.X.l[0] ^ P2.X.c0.l[0] ^ e.c0.c0.c0.l[0];
    }
    g_sink ^= x.l[0] ^ u.l[0];
    return 0;
}
