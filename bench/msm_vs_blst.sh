#!/bin/bash
# bench/msm_vs_blst.sh — proofmill's CPU MSM against blst's Pippenger on the same inputs.
#
# Usage: bench/msm_vs_blst.sh <blst-dir> [proofmill-build-dir] [-- harness args]
#   <blst-dir>             a built supranational/blst checkout (bindings/blst.h + libblst.a),
#                          e.g. one made with its own ./build.sh; nothing of it is committed here.
#   [proofmill-build-dir]  a configured proofmill build dir (default: ./build-msm); the script
#                          builds proofmill_core there.
#   harness args           --g1 LO HI  --g2 LO HI  (log2 sizes; defaults 16 20 and 16 18)
#                          --threads T (ours with T threads besides 1; default 2)  --reps R
#
# For each size it generates random points (a walk P_{i+1} = P_i + Q) and uniform scalars < r,
# checks that both libraries give the same point, and prints blst's single-thread time
# (blst_p1s_mult_pippenger / blst_p2s_mult_pippenger: single-threaded by design), ours with 1
# and T threads, and the ratios ours/blst, each as wall seconds and as process CPU seconds (on a
# shared, loaded machine only the CPU column is stable; the header line prints the load average).
# Issue #3's goal: ours(2 threads) <= 1/3 blst(1), wall.
#
# The two libraries share the point layout: affine (x, y) with 6 little-endian 64-bit limbs of
# Montgomery form, R = 2^384, infinity all-zero; the harness still checks on-curve via blst.
set -euo pipefail

if [ $# -lt 1 ]; then
    sed -n '2,20p' "$0"
    exit 2
fi
BLST=$(cd "$1" && pwd)
shift
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${SRC}/build-msm
if [ $# -ge 1 ] && [ "$1" != "--" ]; then
    BUILD=$(cd "$1" && pwd)
    shift
fi
[ "${1:-}" = "--" ] && shift

[ -f "$BLST/bindings/blst.h" ] && [ -f "$BLST/libblst.a" ] ||
    { echo "error: $BLST has no bindings/blst.h + libblst.a (run blst's ./build.sh there)" >&2; exit 1; }
[ -f "$BUILD/CMakeCache.txt" ] || cmake -S "$SRC" -B "$BUILD" >/dev/null
cmake --build "$BUILD" -j2 --target proofmill_core >/dev/null

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cat > "$WORK/harness.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "blst.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "msm/msm.h"

_Static_assert(sizeof(blst_p1_affine) == sizeof(g1_affine_t), "G1 affine layouts differ");
_Static_assert(sizeof(blst_p2_affine) == sizeof(g2_affine_t), "G2 affine layouts differ");

static uint64_t st = 0x13198a2e03707344ULL;
static uint64_t rnd(void) {
    uint64_t z = (st += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static int ge_r(const fr_t *k) {
    for (int i = 3; i >= 0; i--) {
        if (k->l[i] != FR_MODULUS.l[i]) return k->l[i] > FR_MODULUS.l[i];
    }
    return 1;
}
static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static double cpu_now(void) { /* process CPU seconds: robust to waiting for a core */
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}
#define TIMED(wall, cpu, stmt)                                                 \
    do {                                                                       \
        double w0_ = now(), c0_ = cpu_now();                                   \
        stmt;                                                                  \
        double w_ = now() - w0_, c_ = cpu_now() - c0_;                         \
        if (w_ < wall) wall = w_;                                              \
        if (c_ < cpu) cpu = c_;                                                \
    } while (0)

#define HARNESS(G, P, AFF, JAC, GEN)                                                             \
static void G##_run(unsigned lo, unsigned hi, unsigned thr, unsigned reps) {                     \
    size_t nmax = (size_t)1 << hi;                                                               \
    AFF *pts = malloc(nmax * sizeof *pts);                                                       \
    JAC *jac = malloc(nmax * sizeof *jac), g, q, p;                                              \
    fr_t *ks = malloc(nmax * sizeof *ks);                                                        \
    uint64_t e[4] = {rnd(), rnd(), rnd(), 7};                                                    \
    G##_jac_from_affine(&g, &GEN);                                                               \
    G##_jac_mul_vartime(&q, &g, e, 4);                                                           \
    p = q;                                                                                       \
    G##_jac_dbl(&q, &q);                                                                         \
    for (size_t i = 0; i < nmax; i++) { jac[i] = p; G##_jac_add(&p, &p, &q); }                   \
    G##_jacs_to_affine(pts, jac, nmax);                                                          \
    free(jac);                                                                                   \
    for (size_t i = 0; i < nmax; i++)                                                            \
        do { for (int j = 0; j < 4; j++) ks[i].l[j] = rnd(); ks[i].l[3] >>= 1; }                 \
        while (ge_r(&ks[i]));                                                                    \
    if (!blst_##P##_affine_on_curve((const blst_##P##_affine *)&pts[nmax - 1])) {                \
        fprintf(stderr, "layout mismatch: blst says our point is not on the curve\n");           \
        exit(1);                                                                                 \
    }                                                                                            \
    void *scr = malloc(blst_##P##s_mult_pippenger_scratch_sizeof(nmax));                         \
    for (unsigned lg = lo; lg <= hi; lg++) {                                                     \
        size_t n = (size_t)1 << lg;                                                              \
        const blst_##P##_affine *pp[2] = {(const blst_##P##_affine *)pts, NULL};                 \
        const uint8_t *sp[2] = {(const uint8_t *)ks, NULL};                                      \
        blst_##P rb;                                                                             \
        JAC ro;                                                                                  \
        double tb = 1e30, t1 = 1e30, tt = 1e30, cb = 1e30, c1 = 1e30, ct = 1e30;                  \
        for (unsigned r = 0; r < reps; r++) {                                                    \
            TIMED(tb, cb, blst_##P##s_mult_pippenger(&rb, pp, n, sp, 255, scr));                 \
            TIMED(t1, c1, if (msm_##G##_vartime(&ro, pts, ks, n, 1) != PM_OK) exit(1));          \
            TIMED(tt, ct, if (msm_##G##_vartime(&ro, pts, ks, n, thr) != PM_OK) exit(1));        \
        }                                                                                        \
        blst_##P##_affine ab;                                                                    \
        AFF ao;                                                                                  \
        blst_##P##_to_affine(&ab, &rb);                                                          \
        G##_jac_to_affine(&ao, &ro);                                                             \
        int same = memcmp(&ab, &ao, sizeof ab) == 0;                                             \
        printf("%s 2^%-2u wall: blst(1 thr) %7.3f s | ours 1 thr %7.3f s (%.2fx) | ours %u thr "    \
               "%7.3f s (%.2fx of blst; goal <= 0.33) || cpu: blst %7.3f s | ours 1 thr %7.3f s "  \
               "(%.2fx) | ours %u thr %7.3f s || results %s\n", #P, lg, tb, t1, t1 / tb, thr, tt, \
               tt / tb, cb, c1, c1 / cb, thr, ct, same ? "equal" : "DIFFER");                    \
        fflush(stdout);                                                                          \
        if (!same) exit(1);                                                                      \
    }                                                                                            \
    free(scr); free(pts); free(ks);                                                              \
}
HARNESS(g1, p1, g1_affine_t, g1_jac_t, G1_GENERATOR)
HARNESS(g2, p2, g2_affine_t, g2_jac_t, G2_GENERATOR)

int main(int argc, char **argv) {
    unsigned a = 16, b = 20, c = 16, d = 18, thr = 2, reps = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--g1") && i + 2 < argc) { a = atoi(argv[++i]); b = atoi(argv[++i]); }
        else if (!strcmp(argv[i], "--g2") && i + 2 < argc) { c = atoi(argv[++i]); d = atoi(argv[++i]); }
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) thr = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else { fprintf(stderr, "bad argument %s\n", argv[i]); return 2; }
    }
    printf("# proofmill field backend: %s; blst built from its own build.sh\n", fr_backend());
    if (a <= b) g1_run(a, b, thr, reps ? reps : 1);
    if (c <= d) g2_run(c, d, thr, reps ? reps : 1);
    return 0;
}
EOF
# Both are static libraries: a symbol defined in both would silently bind to one of them.
CLASH=$(comm -12 <(nm -g --defined-only "$BUILD/libproofmill_core.a" 2>/dev/null | awk 'NF==3{print $3}' | sort -u) \
                 <(nm -g --defined-only "$BLST/libblst.a" | awk 'NF==3{print $3}' | sort -u))
[ -z "$CLASH" ] || { echo "error: symbols defined by both libraries: $CLASH" >&2; exit 1; }
OMPFLAG=""
if grep -q "OpenMP_C_FLAGS:STRING=-fopenmp" "$BUILD/CMakeCache.txt" 2>/dev/null; then OMPFLAG=-fopenmp; fi
cc -O2 -std=c17 -D_GNU_SOURCE -I"$SRC/src" -I"$BLST/bindings" "$WORK/harness.c" \
    "$BUILD/libproofmill_core.a" "$BLST/libblst.a" $OMPFLAG -lpthread -lm -o "$WORK/msm_vs_blst"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -m), $(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
"$WORK/msm_vs_blst" "$@"
