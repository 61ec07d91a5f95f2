/*
 * bench_pairing — ns per Fp12 mul/sqr/cyclotomic sqr, Miller loop, final exponentiation,
 * single pairing and 3-pair multi-pairing (one Miller loop accumulator, one final exp), plus
 * the ratio of the multi-pairing to three single pairings and of Karabina to Granger–Scott
 * exponentiation by |x| and of prepared-G2 to plain Miller loops (Groth16 verification shape:
 * 1 plain + 3 prepared pairs vs 4 plain), measured in the same run.
 * Usage: bench_pairing [iterations]   (default 200; single-threaded; Fp backend printed).
 * Reference point: blst measures about 1 ms per pairing on a modern x86-64 core.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "pairing/pairing.h"
#include "util/clock.h"

static volatile uint64_t sink;
/* statement macro: i_ is the repetition index */
#define TIME(label, reps, stmt)                                                                    \
    do {                                                                                           \
        double t0_ = (pm_now_s() * 1e9);                                                                     \
        for (int i_ = 0; i_ < (reps); i_++) { stmt; }                                              \
        double ns_ = ((pm_now_s() * 1e9) - t0_) / (reps);                                                    \
        printf("%-28s %12.0f ns\n", label, ns_);                                                   \
        results[nres++] = ns_;                                                                     \
    } while (0)

int main(int argc, char **argv) {
    int iters = argc > 1 ? atoi(argv[1]) : 200;
    if (iters < 1) iters = 1;
    double results[24];
    int nres = 0;
    printf("fp backend: %s, iterations: %d\n", fp_backend(), iters);

    g1_affine_t ps[4];
    g2_affine_t qs[4];
    for (int i = 0; i < 4; i++) {
        uint64_t k = 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1);
        g1_jac_t j1;
        g2_jac_t j2;
        g1_jac_from_affine(&j1, &G1_GENERATOR);
        g1_jac_mul_vartime(&j1, &j1, &k, 1);
        g1_jac_to_affine(&ps[i], &j1);
        g2_jac_from_affine(&j2, &G2_GENERATOR);
        g2_jac_mul_vartime(&j2, &j2, &k, 1);
        g2_jac_to_affine(&qs[i], &j2);
    }
    fp12_t f, g, r;
    pairing_miller_loop(&f, ps, qs, 1);
    pairing_final_exp(&g, &f);

    int fast = iters * 100;
    TIME("fp12_mul", fast, fp12_mul(&r, &f, &g); f.c0.c0.c0.l[0] ^= r.c1.c2.c1.l[0] & 1);
    TIME("fp12_sqr", fast, fp12_sqr(&f, &f));
    TIME("fp12_cyclotomic_sqr", fast, fp12_cyclotomic_sqr(&g, &g));
    fp12_t h = g;
    TIME("exp by |x|, GS squarings", iters * 4, {
        fp12_t acc_ = h;
        for (int b_ = 62; b_ >= 0; b_--) {
            fp12_cyclotomic_sqr(&acc_, &acc_);
            if ((PAIRING_BLS_X_ABS >> b_) & 1) fp12_mul(&acc_, &acc_, &h);
        }
        r = acc_;
    });
    TIME("exp by |x|, Karabina", iters * 4, fp12_cyclotomic_exp_vartime(&r, &h, PAIRING_BLS_X_ABS));
    TIME("miller loop (1 pair)", iters, pairing_miller_loop(&f, ps, qs, 1));
    TIME("final exponentiation", iters, pairing_final_exp(&r, &f));
    TIME("pairing", iters, pairing(&r, &ps[0], &qs[0]); sink ^= r.c0.c0.c0.l[0]);
    TIME("pairing_multi (3 pairs)", iters, pairing_multi(&r, ps, qs, 3); sink ^= r.c0.c0.c0.l[0]);
    static pairing_g2_prepared_t pq[3];
    TIME("pairing_g2_prepare", iters, pairing_g2_prepare(&pq[i_ % 3], &qs[1 + i_ % 3]));
    TIME("miller loop, 4 plain pairs", iters, pairing_miller_loop(&f, ps, qs, 4));
    TIME("miller, 1 plain + 3 prepared", iters,
         pairing_miller_loop_mixed(&f, ps, qs, 1, ps + 1, pq, 3));
    TIME("pairing_check (4 pairs)", iters, sink ^= (uint64_t)pairing_check(ps, qs, 4));
    double single = results[7], multi3 = results[8];
    printf("ratio miller 1 plain + 3 prepared / 4 plain: %.3f\n", results[11] / results[10]);
    printf("ratio Karabina / GS exponentiation by |x|: %.3f\n", results[4] / results[3]);
    printf("ratio multi(3) / (3 x pairing): %.3f\n", multi3 / (3.0 * single));
    printf("ratio pairing / 1 ms (blst-class reference): %.2f\n", single / 1e6);
    return 0;
}
