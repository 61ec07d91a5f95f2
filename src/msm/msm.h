/*
 * msm.h — CPU multi-scalar multiplication for BLS12-381 G1 and G2 (issue #3).
 *
 * What it computes: r = sum_{i<n} [k_i] P_i for n affine points P_i and n scalars k_i.
 *
 * Shapes and representations (every function below):
 *  - points: n affine points, coordinates in Montgomery form as in curve/g1.h and curve/g2.h;
 *    the point at infinity is (0, 0) and is allowed anywhere (it contributes nothing).
 *    Points are NOT checked for being on the curve or in the subgroup: the caller (the SRS
 *    loader) does that once with g1_affine_in_subgroup_vartime / g2_affine_in_subgroup_vartime.
 *  - scalars: n fr_t values holding PLAIN canonical integers k_i < r (4 little-endian 64-bit
 *    limbs, l[0] least significant), NOT Montgomery form. Convert witness/field values with
 *    fr_from_mont first. A scalar >= r is rejected with PM_ERR_ARG (nothing else is checked).
 *  - result: one Jacobian point (Montgomery coordinates); infinity (Z = 0) when n = 0 or the
 *    sum is zero.
 * Argument order (project-wide): output first, then inputs, an array's length right after it
 * (points and scalars share the one length n).
 *
 * Everything here is variable time in the scalars and the points (_vartime): MSM inputs of
 * a Groth16 prover are witness-derived but the prover is not a side-channel boundary here;
 * the choice is deliberate (STYLE.md item 4).
 *
 * Algorithm (Pippenger 1976; as "bucket method" in Bernstein, Doumen, Lange, Oosterwijk,
 * "Faster batch forgery identification", INDOCRYPT 2012, and Bootle, Cerulli, Chaidos, Groth,
 * Petit, EUROCRYPT 2016, Appendix on multi-exponentiation):
 *  1. Split pass (the 0/1 split): scalars equal to 0 are skipped; scalars equal to 1
 *     are added directly into one accumulator (n1 mixed additions, no windows); the others
 *     ("general" scalars, n_g of them) go on to the window passes.
 *  2. Signed digits: each general scalar k < 2^255 is written k = sum_{j<W} d_j 2^{cj} with
 *     d_j in [-2^(c-1), 2^(c-1)] and W = ceil(256 / c) windows. Digit j is the window's c bits
 *     plus a carry of 1 when the previous window's own c bits were >= 2^(c-1) (that digit was
 *     then made negative by subtracting 2^c); computed statelessly as the Booth recoding of the
 *     c+1 bits k[cj-1 .. cj+c-1] (Booth 1951; the signed-digit bucket form as in Bernstein et
 *     al. above). Because c*W >= 256 > 255, the top digit is never negative and never carries out.
 *  3. Buckets: per window 2^(c-1) buckets B_1..B_{2^(c-1)}; digit d > 0 adds P to B_d, d < 0
 *     subtracts P from B_{-d} (negating an affine point is free), d = 0 skips.
 *     - c < 9: XYZZ buckets, one XYZZ mixed addition per point = 8M + 2S (EFD "madd-2008-s").
 *     - c >= 9: affine buckets with batch-affine addition: up to K = min(512, 2^(c-1)/16)
 *       pending bucket updates (distinct buckets) share one field inversion by Montgomery's
 *       trick, so one addition costs 5M + 1S + 1/K inversion (affine chord formula:
 *       lambda = (y_P - y_B)/(x_P - x_B), x3 = lambda^2 - x_B - x_P, y3 = lambda(x_B - x3) - y_B).
 *       A point whose bucket is already pending waits for the next batch; if it is pending
 *       again (a hot bucket: few buckets in the top window, many equal small scalars) the point
 *       goes into an XYZZ overflow accumulator for that bucket, folded in at the end as
 *       (b+1) * slot. P = B and P = -B are handled on the spot. Predicted ~1.6x fewer
 *       multiplications than XYZZ (6 vs 10 with S ~ M); measured 1.3x on G1 (2^16, c = 13)
 *       and 1.6x on G2 (2^14, c = 11, where the batch inversion also runs on Fp norms) in CPU
 *       time, accumulation only (docs/perf/cpu-groth16.md, "## MSM").
 *  4. Bucket reduction by running sums: S = sum_b b*B_b with 2 * 2^(c-1) = 2^c additions
 *     (running sum += bucket, total += running sum). XYZZ buckets: XYZZ additions (12M + 2S,
 *     EFD "add-2008-s"). Affine buckets: the buckets are cut into L <= K blocks whose running
 *     sums advance together, so each step is a batch of L affine additions with one shared
 *     inversion (2 * (5M + 1S) per bucket); the blocks are then combined as
 *     S = sum_t acc_t + h * sum_t t * sum_t (h buckets per block).
 *  5. Window combination: R = (...(S_{W-1} * 2^c + S_{W-2}) * 2^c ...) + S_0, c doublings per
 *     window, about 256 doublings in total.
 * Cost model for the window width c (msm_window_bits): about W*(n_g + 2^c) additions (n_g
 * bucket additions per window, plus 2^(c-1) buckets * 2 reduction additions), minimised over
 * c = 1..MSM_WINDOW_MAX with W = ceil(256/c); e.g. c = 13 at 2^16 points, 16 at 2^18..2^20,
 * 19 at 2^22, 20 at 2^23 and above (msm_plan in msm_internal.h then adjusts c and slices to the
 * thread count). Op-count floor per general point:
 * W = ceil(256/c) bucket additions, i.e. 16 per point at c = 16: 16 * 6 = 96 Fp
 * multiplications for G1 on the batch-affine path (16 * 10 = 160 with XYZZ), 16 * 15 = 240 for
 * G2 (5 Fp2 mul/sqr with the batch inversion on Fp norms; XYZZ: 16 * 28 = 448).
 *
 * Threads: the work is split into tasks (window j, slice s of the general points); tasks are
 * taken from a shared atomic counter by `threads` POSIX threads (the calling thread is one of
 * them). Slices per window are 1 when the windows divide evenly among the threads, otherwise
 * the fewest that keep the load imbalance small. threads = 0 means all online cores
 * (sysconf(_SC_NPROCESSORS_ONLN)); threads is capped at MSM_THREADS_MAX.
 *
 * Memory: the _with_scratch forms take caller-owned scratch of at least the size the matching
 * *_scratch_size query returns (STYLE.md item 10); they never allocate, except for the
 * pthread stacks of threads > 1. The plain forms allocate that scratch with malloc and free it
 * before returning. The scratch holds one 32-bit index per point, per-thread bucket arrays
 * (threads * 2^(c-1) buckets, XYZZ or affine + batch buffers) and per-task partial sums: about
 * 4n + threads * 3.2 MiB (G1) / 6.3 MiB (G2) bytes at c = 16. For n > MSM_CHUNK_MAX the MSM is
 * done in chunks of MSM_CHUNK_MAX points and the scratch is sized for one chunk.
 *
 * Errors (pm_status from util/error.h): PM_ERR_ARG for r == NULL, points/scalars NULL with
 * n > 0, a scalar >= r, a forced window c outside 1..MSM_WINDOW_MAX, or scratch smaller than
 * the query says (then *r is set to infinity); PM_ERR_NOMEM when the plain forms cannot
 * allocate (then *r is set to infinity). A thread that cannot be created is not an error: the
 * work is taken from a shared counter, so the threads that did start (at least the caller's)
 * finish it. On PM_OK *r holds the sum. Inputs are never modified; r may not alias the inputs.
 * Thread safety: concurrent calls are safe when each has its own scratch and output.
 *
 * Sources: Pippenger, "On the evaluation of powers and related problems", FOCS 1976;
 * Bernstein, Doumen, Lange, Oosterwijk, INDOCRYPT 2012 (bucket method, signed digits);
 * Bootle et al., EUROCRYPT 2016 (multi-exponentiation cost); Explicit-Formulas Database
 * (hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html) for the XYZZ formulas in curve/.
 */
#ifndef PROOFMILL_MSM_MSM_H
#define PROOFMILL_MSM_MSM_H

#include <stddef.h>
#include <stdint.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fr.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest window width c (bits) the MSM uses or accepts as an override: 2^(c-1) affine buckets
 * per thread, i.e. 3 MiB (G1) / 6 MiB (G2) per thread at c = 16, 48 / 96 MiB at c = 20. The cost
 * model picks c > 16 only above ~2.9 M general points (fewer windows: 15 at c = 18, 13 at 20). */
#define MSM_WINDOW_MAX 20u
/* Largest thread count honoured; larger requests are capped. */
#define MSM_THREADS_MAX 256u
/* Points per internal chunk (indices are 32-bit); larger n is processed chunk by chunk. */
#define MSM_CHUNK_MAX ((size_t)1 << 31)

/* The window width c in bits (1..MSM_WINDOW_MAX) the MSM picks for n general points:
 * argmin_c ceil(256/c) * (n + 2^c). n = 0 gives 1. Pure function of n. */
unsigned msm_window_bits(size_t n);

/* The thread count actually used for a request: 0 -> online cores, capped at MSM_THREADS_MAX,
 * at least 1. */
unsigned msm_threads_resolve(unsigned threads);

/* ---- G1 ---- */

/* Bytes of scratch msm_g1_vartime_with_scratch needs for n points and `threads` threads
 * (0 = all cores) with the automatic window (msm_window_bits). Never 0 for n > 0. */
size_t msm_g1_scratch_size(size_t n, unsigned threads);
/* The same for a forced window width c (1..MSM_WINDOW_MAX; 0 = automatic). Returns 0 for an
 * invalid c. */
size_t msm_g1_scratch_size_window(size_t n, unsigned threads, unsigned c);

/* r = sum_{i<n} [scalars[i]] points[i]. points: n affine points (Montgomery coordinates,
 * infinity = (0,0)); scalars: n plain canonical integers < r (not Montgomery). threads: 0 = all
 * cores. Allocates its scratch (PM_ERR_NOMEM on failure). Errors: see the file comment. */
pm_status msm_g1_vartime(g1_jac_t *r, const g1_affine_t *points, const fr_t *scalars, size_t n,
                         unsigned threads);

/* As msm_g1_vartime with caller-owned scratch: scratch_size bytes at `scratch` (any alignment;
 * at least msm_g1_scratch_size(n, threads) for the same n and threads). PM_ERR_ARG if scratch
 * is NULL (n > 0) or too small. Does not allocate. */
pm_status msm_g1_vartime_with_scratch(g1_jac_t *r, const g1_affine_t *points, const fr_t *scalars,
                                      size_t n, unsigned threads, void *scratch,
                                      size_t scratch_size);

/* The general form: window width c forced (1..MSM_WINDOW_MAX) or automatic (c = 0); scratch
 * caller-owned (scratch_size >= msm_g1_scratch_size_window(n, threads, c)) or, when scratch is
 * NULL, allocated here. Used by tests to force every window width. */
pm_status msm_g1_vartime_window(g1_jac_t *r, const g1_affine_t *points, const fr_t *scalars,
                                size_t n, unsigned threads, unsigned c, void *scratch,
                                size_t scratch_size);

/* Reference for tests: r = sum_i [scalars[i]] points[i] by plain left-to-right double-and-add
 * per point (Jacobian doublings and mixed additions), summed in Jacobian. Same shapes as
 * msm_g1_vartime (plain scalars; scalars >= r are used as 256-bit integers). Slow: about
 * 255 doublings per point. Cannot fail. */
void msm_g1_naive_vartime(g1_jac_t *r, const g1_affine_t *points, const fr_t *scalars, size_t n);

/* ---- G2: the same contract over curve/g2.h (coordinates in Fp2, Montgomery form) ---- */

size_t msm_g2_scratch_size(size_t n, unsigned threads);
size_t msm_g2_scratch_size_window(size_t n, unsigned threads, unsigned c);
pm_status msm_g2_vartime(g2_jac_t *r, const g2_affine_t *points, const fr_t *scalars, size_t n,
                         unsigned threads);
pm_status msm_g2_vartime_with_scratch(g2_jac_t *r, const g2_affine_t *points, const fr_t *scalars,
                                      size_t n, unsigned threads, void *scratch,
                                      size_t scratch_size);
pm_status msm_g2_vartime_window(g2_jac_t *r, const g2_affine_t *points, const fr_t *scalars,
                                size_t n, unsigned threads, unsigned c, void *scratch,
                                size_t scratch_size);
void msm_g2_naive_vartime(g2_jac_t *r, const g2_affine_t *points, const fr_t *scalars, size_t n);

#ifdef __cplusplus
}
#endif
#endif
