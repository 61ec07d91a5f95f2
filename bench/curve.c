/*
 * bench_curve — ns per G1/G2 operation (doubling, additions in Jacobian and XYZZ, scalar
 * multiplications, subgroup tests, point decoding with and without the subgroup check), each also
 * as a ratio to one Fp multiplication (resp. one Fp2 multiplication) measured in the same run,
 * so the figures compare with the M/S counts in src/curve/ec_impl.h.
 * Usage: bench_curve [iterations]   (default 2000; single-threaded; Fp backend printed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "curve/encoding.h"
#include "util/clock.h"

static double base_ns = 1;
#define TIME(label, reps, stmt)                                                                    \
    do {                                                                                           \
        double t0_ = (pm_now_s() * 1e9);                                                                     \
        for (int i_ = 0; i_ < (reps); i_++) { stmt; }                                              \
        double ns_ = ((pm_now_s() * 1e9) - t0_) / (reps);                                                    \
        printf("%-34s %12.0f ns %10.1f x base\n", label, ns_, ns_ / base_ns);                      \
    } while (0)

int main(int argc, char **argv) {
    int iters = argc > 1 ? atoi(argv[1]) : 2000;
    if (iters < 1) iters = 1;
    int slow = iters / 20 > 0 ? iters / 20 : 1;
    printf("fp backend: %s, iterations: %d (scalar muls, subgroup, decode: %d)\n", fp_backend(), iters, slow);

    fr_t k;
    fr_from_u64(&k, 0x9e3779b97f4a7c15ULL);
    fr_sqr(&k, &k);
    fr_sqr(&k, &k); /* a full-size scalar */
    fr_t kplain;
    fr_from_mont(&kplain, &k);

    /* ---- G1 ---- */
    {
        fp_t a = G1_GENERATOR.x, b = G1_GENERATOR.y;
        double t0 = (pm_now_s() * 1e9);
        for (int i = 0; i < iters * 100; i++) fp_mul(&a, &a, &b);
        base_ns = ((pm_now_s() * 1e9) - t0) / (iters * 100);
        printf("G1 (base = fp_mul %.1f ns)\n", base_ns);
        g1_jac_t g, p, q;
        g1_affine_t ga = G1_GENERATOR, pa;
        g1_jac_from_affine(&g, &ga);
        g1_jac_mul_fr(&p, &g, &k);
        g1_jac_dbl(&q, &g);
        g1_jac_to_affine(&pa, &p);
        g1_xyzz_t x, y;
        g1_xyzz_from_affine(&x, &pa);
        g1_xyzz_dbl(&x, &x);
        g1_xyzz_from_affine(&y, &ga);
        g1_xyzz_add_affine(&y, &y, &pa);
        TIME("g1_jac_dbl (2M+5S)", iters, g1_jac_dbl(&q, &q));
        TIME("g1_jac_add (11M+5S)", iters, g1_jac_add(&q, &q, &p));
        TIME("g1_jac_add_affine (7M+4S)", iters, g1_jac_add_affine(&q, &q, &pa));
        TIME("g1_xyzz_dbl (6M+3S)", iters, g1_xyzz_dbl(&x, &x));
        TIME("g1_xyzz_add (12M+2S)", iters, g1_xyzz_add(&x, &x, &y));
        TIME("g1_xyzz_add_affine (8M+2S)", iters, g1_xyzz_add_affine(&x, &x, &pa));
        TIME("g1_jac_to_affine (1 inv)", slow, g1_jac_to_affine(&pa, &q); q.X.l[0] ^= 1);
        g1_jac_mul_fr(&p, &g, &k);
        g1_jac_to_affine(&pa, &p);
        TIME("g1_jac_mul_vartime (wNAF-5)", slow, g1_jac_mul_vartime(&q, &p, kplain.l, 4));
        TIME("g1_jac_mul_fr (regular)", slow, g1_jac_mul_fr(&q, &p, &k));
        TIME("g1_affine_in_subgroup_vartime", slow, (void)g1_affine_in_subgroup_vartime(&pa));
        uint8_t c[48], u[96], l[96];
        g1_to_compressed(c, &pa);
        g1_to_uncompressed(u, &pa);
        g1_to_lem(l, &pa);
        g1_affine_t d;
        TIME("g1_from_compressed", slow, (void)g1_from_compressed(&d, c, 0, NULL));
        TIME("g1_from_compressed +subgroup", slow, (void)g1_from_compressed(&d, c, PM_DECODE_CHECK_SUBGROUP, NULL));
        TIME("g1_from_uncompressed", slow, (void)g1_from_uncompressed(&d, u, 0, NULL));
        TIME("g1_from_uncompressed +subgroup", slow, (void)g1_from_uncompressed(&d, u, PM_DECODE_CHECK_SUBGROUP, NULL));
        TIME("g1_from_lem", slow, (void)g1_from_lem(&d, l, 0, NULL));
    }
    /* ---- G2 ---- */
    {
        fp2_t a = G2_GENERATOR.x, b = G2_GENERATOR.y;
        double t0 = (pm_now_s() * 1e9);
        for (int i = 0; i < iters * 100; i++) fp2_mul(&a, &a, &b);
        base_ns = ((pm_now_s() * 1e9) - t0) / (iters * 100);
        printf("G2 (base = fp2_mul %.1f ns)\n", base_ns);
        g2_jac_t g, p, q;
        g2_affine_t ga = G2_GENERATOR, pa;
        g2_jac_from_affine(&g, &ga);
        g2_jac_mul_fr(&p, &g, &k);
        g2_jac_dbl(&q, &g);
        g2_jac_to_affine(&pa, &p);
        g2_xyzz_t x, y;
        g2_xyzz_from_affine(&x, &pa);
        g2_xyzz_dbl(&x, &x);
        g2_xyzz_from_affine(&y, &ga);
        g2_xyzz_add_affine(&y, &y, &pa);
        TIME("g2_jac_dbl (2M+5S)", iters, g2_jac_dbl(&q, &q));
        TIME("g2_jac_add (11M+5S)", iters, g2_jac_add(&q, &q, &p));
        TIME("g2_jac_add_affine (7M+4S)", iters, g2_jac_add_affine(&q, &q, &pa));
        TIME("g2_xyzz_dbl (6M+3S)", iters, g2_xyzz_dbl(&x, &x));
        TIME("g2_xyzz_add (12M+2S)", iters, g2_xyzz_add(&x, &x, &y));
        TIME("g2_xyzz_add_affine (8M+2S)", iters, g2_xyzz_add_affine(&x, &x, &pa));
        g2_jac_mul_fr(&p, &g, &k);
        g2_jac_to_affine(&pa, &p);
        TIME("g2_jac_mul_vartime (wNAF-5)", slow, g2_jac_mul_vartime(&q, &p, kplain.l, 4));
        TIME("g2_jac_mul_fr (regular)", slow, g2_jac_mul_fr(&q, &p, &k));
        TIME("g2_affine_in_subgroup_vartime", slow, (void)g2_affine_in_subgroup_vartime(&pa));
        uint8_t c[96], u[192], l[192];
        g2_to_compressed(c, &pa);
        g2_to_uncompressed(u, &pa);
        g2_to_lem(l, &pa);
        g2_affine_t d;
        TIME("g2_from_compressed", slow, (void)g2_from_compressed(&d, c, 0, NULL));
        TIME("g2_from_compressed +subgroup", slow, (void)g2_from_compressed(&d, c, PM_DECODE_CHECK_SUBGROUP, NULL));
        TIME("g2_from_uncompressed", slow, (void)g2_from_uncompressed(&d, u, 0, NULL));
        TIME("g2_from_uncompressed +subgroup", slow, (void)g2_from_uncompressed(&d, u, PM_DECODE_CHECK_SUBGROUP, NULL));
        TIME("g2_from_lem", slow, (void)g2_from_lem(&d, l, 0, NULL));
    }
    return 0;
}
