#!/usr/bin/env bash
# bench/field_vs_blst.sh — our field ops vs blst's, measured in the same process and run.
#
# Usage: bench/field_vs_blst.sh <blst-dir> [proofmill-build-dir] [scale]
#   <blst-dir>   a supranational/blst checkout already built with its ./build.sh (libblst.a and
#                bindings/blst.h inside); it is never part of this repository.
#   build dir    where libproofmill_core.a lives (default: build-field beside this script's repo);
#                it is built (target proofmill_core only) when missing.
#   scale        multiplies the iteration counts (default 1).
# Prints, per operation, our ns, blst's ns and ours/blst (< 1 means we are faster). Each figure is
# the median of 9 alternating runs (ours, blst, ours, ...) of a dependent chain x = op(x, y), so
# both libraries see the same machine load. Results are also compared bit for bit: both keep Fp
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
#include "field/fp.h"
#include "field/fr.h"

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

#define RUNS 9
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
        printf("| %-22s | %9.1f | %9.1f | %5.2f |\n", name, a_[RUNS / 2], b_[RUNS / 2],  \
               a_[RUNS / 2] / b_[RUNS / 2]);                                          \
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
    printf("| op                     |  ours ns  |  blst ns  | ratio |\n");
    printf("|------------------------|-----------|-----------|-------|\n");
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
    printf("\nblst_*_eucl_inverse and blst_*_inverse are blst's two inversions; ours is variable time.\n");
    volatile uint64_t sink = x.l[0] ^ u.l[0] ^ bx.l[0] ^ bu.l[0];
    (void)sink;
    return mism != 0;
}
EOF
cc -O2 -std=c17 -D_GNU_SOURCE -I"$REPO/src" -I"$BLST/bindings" "$TMP/cmp.c" \
   "$BUILD/libproofmill_core.a" "$BLST/libblst.a" -lm -lpthread -o "$TMP/cmp"
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'); date: $(date -u '+%Y-%m-%d %H:%M UTC')"
"$TMP/cmp" "$SCALE"
