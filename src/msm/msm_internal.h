/*
 * msm_internal.h — helpers shared by the G1, G2 (and test-only toy) instantiations of the
 * Pippenger template in pippenger_impl.h. Not part of the public API; bodies in msm.c.
 */
#ifndef PROOFMILL_MSM_INTERNAL_H
#define PROOFMILL_MSM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"

/* Number of windows for width c: W = ceil(256 / c), so c*W >= 256 > 255 >= bits of k < r. */
static inline unsigned msm_num_windows(unsigned c) { return (256u + c - 1u) / c; }

/* Signed (Booth-recoded) digit j of the plain 256-bit scalar k for window width c:
 * d = b[cj-1] + sum_{i<c-1} 2^i b[cj+i] - 2^(c-1) b[cj+c-1], in [-2^(c-1), 2^(c-1)], with
 * b[-1] = 0 and b[t] = 0 for t >= 256. sum_j d_j 2^(cj) = k when bit cW-1 of k is 0.
 * Equivalent to "c-bit digit plus carry, minus 2^c and carry 1 when above 2^(c-1)-1". */
static inline int32_t msm_booth_digit(const uint64_t k[4], unsigned j, unsigned c) {
    /* v = bits [cj-1, cj+c-1] (c+1 bits), the bit at -1 being 0 */
    uint64_t v;
    unsigned len = c + 1u;
    if (j == 0) {
        v = (k[0] << 1);
    } else {
        unsigned pos = c * j - 1u;
        unsigned limb = pos >> 6, sh = pos & 63u;
        v = limb < 4 ? k[limb] >> sh : 0;
        if (sh + len > 64u && limb + 1u < 4u) v |= k[limb + 1u] << (64u - sh);
    }
    v &= ((uint64_t)1 << len) - 1u;
    int32_t u = (int32_t)(v >> 1);               /* the window's c bits */
    int32_t top = (int32_t)((v >> c) & 1u);      /* the window's top bit */
    return (int32_t)(v & 1u) + u - (top << c);
}

/* 1 when the plain scalar k >= r (FR_MODULUS). */
int msm_scalar_ge_r(const fr_t *k);

/* Choose slices per window S in 1..threads minimising the per-thread time
 * ceil(W*S/threads) * (ng/S + 2^c) (in additions, as msm_window_bits). */
unsigned msm_pick_slices(size_t ng, unsigned c, unsigned threads);

/* Window width c (1..cmax) and slices per window S (1..threads) for ng general points on
 * `threads` threads, minimising the per-thread time ceil(W(c)*S/threads) * (ng/S + 2^c):
 * with threads = 1 this is msm_window_bits(ng) capped at cmax; with more threads it prefers a
 * c whose window count divides evenly (e.g. c = 13, 20 windows, over c = 14, 19 windows, on 2
 * threads). */
void msm_plan(size_t ng, unsigned threads, unsigned cmax, unsigned *c_out, unsigned *s_out);

/* Run fn(ctx) on `threads` threads (the caller is one of them) and wait for all. Threads that
 * cannot be created are skipped (fn must take its work from a shared counter, so the work is
 * still done). Returns the number of threads that ran. */
unsigned msm_parallel_run(unsigned threads, void (*fn)(void *ctx), void *ctx);

/* Round up to a multiple of 64 bytes (cache line); the scratch layout uses it. */
static inline size_t msm_align64(size_t x) { return (x + 63u) & ~(size_t)63u; }

#endif
