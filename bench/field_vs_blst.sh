#!/usr/bin/env bash
# bench/field_vs_blst.sh — our field ops vs blst's, measured in the same process and run.
#
# Usage: bench/field_vs_blst.sh <blst-dir> [proofmill-build-dir] [scale]
#   <blst-dir>   a supranational/blst checkout already built with its ./build.sh (libblst.a and
#                bindings/blst.h inside); it is never part of this repository.
#   build dir    where libproofmill_core.a lives (default: build-field beside this script's repo);
#                it is built (target proofmill_core only) when missing.
#   scale        multiplies the iteration counts (default 1).
# FIELD_ONLY=1 in the environment skips the curve/pairing rows (which time src/curve and src/pairing
# against blst's own point and pairing code, with our field underneath).
# Prints, per operation, our ns, blst's ns and ours/blst (< 1 means we are faster), as the median
# and the minimum of 15 alternating runs (ours, blst, ours, ...) of a dependent chain x = op(x, y),
# so both libraries see the same machine load (on a shared machine the minimum is the better
# estimate of the uncontended cost; the median shows the spread). Results are also compared bit for bit: both keep Fp
# and Fr in Montgomery form with R = 2^384 and 2^256, so the limbs must agree.
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: $0 <blst-dir> [proofmill-build-dir] [scale]" >&2
  exit 2
fi
BLST=$(cd "$1" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${2:-$REPO/build-field}
SCALE=${3:-1}
if [ ! -f "$BLST/libblst.a" ] || [ ! -f "$BLST/bindings/blst.h" ]; then
  echo "$0: $BLST has no libblst.a / bindings/blst.h (run ./build.sh there first)" >&2
  exit 1
fi
if [ ! -f "$BUILD/libproofmill_core.a" ]; then
  cmake -S "$REPO" -B "$BUILD" >/dev/null
  cmake --build "$BUILD" -j2 --target proofmill_core >/dev/null
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cat > "$TMP/cmp.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "blst.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fp.h"
#include "field/fr.h"
#include "pairing/pairing.h"

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}
static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}
static uint64_t rs = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return rs; }

#define RUNS 15
#define PAIR(name, iters0, ours, theirs)                                              \
    do {                                                                              \
        size_t it_ = (size_t)((double)(iters0) * scale); if (!it_) it_ = 1;           \
        double a_[RUNS], b_[RUNS];                                                    \
        for (int r_ = 0; r_ < RUNS; r_++) {                                           \
            double s_ = now_ns();                                                     \
            for (size_t i_ = 0; i_ < it_; i_++) { ours; }                             \
            a_[r_] = (now_ns() - s_) / (double)it_;                                   \
            s_ = now_ns();                                                            \
            for (size_t i_ = 0; i_ < it_; i_++) { theirs; }                           \
            b_[r_] = (now_ns() - s_) / (double)it_;                                   \
        }                                                                             \
        qsort(a_, RUNS, sizeof(double), cmp_d);                                       \
        qsort(b_, RUNS, sizeof(double), cmp_d);                                       \
        printf("| %-22s | %10.1f | %10.1f | %5.2f | %10.1f | %10.1f | %5.2f |\n", name,     \
               a_[RUNS / 2], b_[RUNS / 2], a_[RUNS / 2] / b_[RUNS / 2], a_[0], b_[0],         \
               a_[0] / b_[0]);                                                        \
    } while (0)

int main(int argc, char **argv) {
    double scale = argc > 1 ? strtod(argv[1], NULL) : 1.0;
    if (scale <= 0) scale = 1.0;
    fp_t x, y, xo;
    fr_t u, v, uo;
    blst_fp bx, by;
    blst_fr bu, bv;
    int mism = 0;
    /* bit-for-bit agreement on random Montgomery inputs */
    for (int i = 0; i < 10000; i++) {
        for (int k = 0; k < 6; k++) { x.l[k] = rnd(); y.l[k] = rnd(); }
        x.l[5] %= FP_MODULUS.l[5]; y.l[5] %= FP_MODULUS.l[5];
        for (int k = 0; k < 4; k++) { u.l[k] = rnd(); v.l[k] = rnd(); }
        u.l[3] %= FR_MODULUS.l[3]; v.l[3] %= FR_MODULUS.l[3];
        memcpy(&bx, &x, 48); memcpy(&by, &y, 48); memcpy(&bu, &u, 32); memcpy(&bv, &v, 32);
        fp_mul(&xo, &x, &y); blst_fp_mul(&bx, &bx, &by); mism += memcmp(&xo, &bx, 48) != 0;
        fp_sqr(&xo, &x); memcpy(&bx, &x, 48); blst_fp_sqr(&bx, &bx); mism += memcmp(&xo, &bx, 48) != 0;
        fr_mul(&uo, &u, &v); blst_fr_mul(&bu, &bu, &bv); mism += memcmp(&uo, &bu, 32) != 0;
        if (i < 1000) {
            fp_inv_vartime(&xo, &x); memcpy(&bx, &x, 48); blst_fp_inverse(&bx, &bx);
            mism += memcmp(&xo, &bx, 48) != 0;
            fr_inv_vartime(&uo, &u); memcpy(&bu, &u, 32); blst_fr_inverse(&bu, &bu);
            mism += memcmp(&uo, &bu, 32) != 0;
        }
    }
    printf("backend: fp %s, fr %s; bit-for-bit mismatches vs blst: %d\n\n", fp_backend(), fr_backend(),
           mism);
    memcpy(&bx, &x, 48); memcpy(&by, &y, 48); memcpy(&bu, &u, 32); memcpy(&bv, &v, 32);
    printf("| op                     | ours median | blst median | ratio | ours min | blst min | ratio |\n");
    printf("|------------------------|------------:|------------:|------:|---------:|---------:|------:|\n");
    PAIR("Fp mul", 200000, fp_mul(&x, &x, &y), blst_fp_mul(&bx, &bx, &by));
    PAIR("Fp sqr", 200000, fp_sqr(&x, &x), blst_fp_sqr(&bx, &bx));
    PAIR("Fp add", 400000, fp_add(&x, &x, &y), blst_fp_add(&bx, &bx, &by));
    PAIR("Fr mul", 400000, fr_mul(&u, &u, &v), blst_fr_mul(&bu, &bu, &bv));
    PAIR("Fr sqr", 400000, fr_sqr(&u, &u), blst_fr_sqr(&bu, &bu));
    PAIR("Fr add", 400000, fr_add(&u, &u, &v), blst_fr_add(&bu, &bu, &bv));
    PAIR("Fp inverse (vartime)", 3000, { fp_inv_vartime(&x, &x); fp_add(&x, &x, &y); },
         { blst_fp_eucl_inverse(&bx, &bx); blst_fp_add(&bx, &bx, &by); });
    PAIR("Fp inverse (vs ct)", 3000, { fp_inv_vartime(&x, &x); fp_add(&x, &x, &y); },
         { blst_fp_inverse(&bx, &bx); blst_fp_add(&bx, &bx, &by); });
    PAIR("Fr inverse (vartime)", 3000, { fr_inv_vartime(&u, &u); fr_add(&u, &u, &v); },
         { blst_fr_eucl_inverse(&bu, &bu); blst_fr_add(&bu, &bu, &bv); });
    PAIR("Fr inverse (vs ct)", 3000, { fr_inv_vartime(&u, &u); fr_add(&u, &u, &v); },
         { blst_fr_inverse(&bu, &bu); blst_fr_add(&bu, &bu, &bv); });
    if (argc > 2 && strcmp(argv[2], "--field-only") == 0) goto done;
    {
        /* layers above the field, with each library's own code; points are k*generator */
        g1_jac_t P;
        g1_affine_t A;
        g2_jac_t P2;
        g2_affine_t A2;
        blst_p1 bP;
        blst_p1_affine bA;
        blst_p2 bP2;
        blst_p2_affine bA2;
        uint64_t k1[4] = {0x9e3779b97f4a7c15ULL, rnd(), rnd(), rnd() >> 2};
        g1_jac_from_affine(&P, &G1_GENERATOR);
        g1_jac_mul_vartime(&P, &P, k1, 1);
        g1_jac_to_affine(&A, &P);
        g2_jac_from_affine(&P2, &G2_GENERATOR);
        g2_jac_mul_vartime(&P2, &P2, k1, 1);
        g2_jac_to_affine(&A2, &P2);
        blst_p1_mult(&bP, blst_p1_generator(), (const byte *)k1, 64);
        blst_p1_to_affine(&bA, &bP);
        blst_p2_mult(&bP2, blst_p2_generator(), (const byte *)k1, 64);
        blst_p2_to_affine(&bA2, &bP2);
        mism += memcmp(&bA, &A, sizeof A) != 0; /* same Montgomery layout: same k*G */
        mism += memcmp(&bA2, &A2, sizeof A2) != 0;
        PAIR("G1 mixed add", 100000, g1_jac_add_affine(&P, &P, &A),
             blst_p1_add_or_double_affine(&bP, &bP, &bA));
        PAIR("G1 double", 100000, g1_jac_dbl(&P, &P), blst_p1_double(&bP, &bP));
        PAIR("G2 mixed add", 30000, g2_jac_add_affine(&P2, &P2, &A2),
             blst_p2_add_or_double_affine(&bP2, &bP2, &bA2));
        PAIR("G2 double", 30000, g2_jac_dbl(&P2, &P2), blst_p2_double(&bP2, &bP2));
        fr_t k;
        memcpy(&k, &u, sizeof k);
        blst_scalar bk;
        blst_scalar_from_fr(&bk, &bu);
        PAIR("G1 scalar mul (255 b)", 200, g1_jac_mul_fr(&P, &P, &k),
             blst_p1_mult(&bP, &bP, bk.b, 255));
        fp12_t e;
        blst_fp12 be, bt;
        g1_affine_t ps[3] = {G1_GENERATOR, A, G1_GENERATOR};
        g2_affine_t qs[3] = {A2, G2_GENERATOR, G2_GENERATOR};
        const blst_p1_affine *bps[3] = {blst_p1_affine_generator(), &bA, blst_p1_affine_generator()};
        const blst_p2_affine *bqs[3] = {&bA2, blst_p2_affine_generator(), blst_p2_affine_generator()};
        PAIR("pairing", 20, pairing(&e, &ps[0], &qs[0]),
             { blst_miller_loop(&bt, bqs[0], bps[0]); blst_final_exp(&be, &bt); });
        PAIR("multi-pairing of 3", 20, pairing_multi(&e, ps, qs, 3),
             { blst_miller_loop_n(&bt, bqs, bps, 3); blst_final_exp(&be, &bt); });
        mism += memcmp(&be, &e, sizeof e) != 0; /* both give the same GT element */
        printf("points and pairing value agree with blst bit for bit: %s\n", mism ? "NO" : "yes");
        volatile uint64_t s2 = P.X.l[0] ^ bP.x.l[0] ^ P2.X.c0.l[0] ^ bP2.x.fp[0].l[0];
        (void)s2;
    }
done:
    printf("\nblst_*_eucl_inverse and blst_*_inverse are blst's two inversions; ours is variable time.\n");
    volatile uint64_t sink = x.l[0] ^ u.l[0] ^ bx.l[0] ^ bu.l[0];
    (void)sink;
    return mism != 0;
}
EOF
cc -O2 -std=c17 -D_GNU_SOURCE -I"$REPO/src" -I"$BLST/bindings" "$TMP/cmp.c" \
   "$BUILD/libproofmill_core.a" "$BLST/libblst.a" -lm -lpthread -o "$TMP/cmp"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'); date: $(date -u '+%Y-%m-%d %H:%M UTC')"
"$TMP/cmp" "$SCALE" ${FIELD_ONLY:+--field-only}
