/*
 * ntt.c — radix-2/4 NTT over Fr, coset variants, snarkjs H-phase (contract in ntt.h).
 *
 * Algorithm: iterative Cooley–Tukey decimation in time. The input is permuted into bit-reversed
 * order, then stage s (half-size m = 2^s) combines pairs (a[k+j], a[k+j+m]) of each block of 2m
 * with the butterfly  t = w_2m^j * a[k+j+m];  a[k+j+m] = a[k+j] - t;  a[k+j] += t,
 * which leaves the output in natural order. One Montgomery multiplication per butterfly,
 * n/2 * log2 n in total. The inverse runs the same network with omega^{-1} and scales by n^{-1}.
 *
 * Structure: stages 0..11 run block by block (dit_block, 2^12 elements = 128 KiB, one block per
 * thread); the stages above are fused in pairs (radix-4 passes over the whole array, quadruples
 * split statically over threads), with one radix-2 pass when an odd number is left.
 */
#include "ntt/ntt.h"

#include <stdlib.h>
#include <string.h>

#include "util/parallel.h"

void ntt_domain_free(ntt_domain_t *d) {
    if (!d) return;
    free(d->tw);
    free(d->tw_inv);
    memset(d, 0, sizeof *d);
}

/* Fill tw[m-1 .. 2m-2] = w^i for every stage m = 1..n/2 where w = omega (primitive n-th root).
 * The largest stage (m = n/2) gets the powers w^0..w^(n/2-1); stage m is that table subsampled with
 * stride n/(2m) (omega_2m = omega^(n/2m)), so only n/2 - 1 multiplications are spent. */
static void fill_twiddles(fr_t *tw, size_t n, const fr_t *omega) {
    if (n < 2) return;
    size_t half = n / 2;
    fr_t *top = tw + (half - 1);
    size_t chunk = 1u << 12;
    size_t nchunks = (half + chunk - 1) / chunk;
    PM_OMP(parallel for schedule(static) if (half >= NTT_PARALLEL_MIN))
    for (size_t c = 0; c < nchunks; c++) {
        size_t lo = c * chunk, hi = lo + chunk < half ? lo + chunk : half;
        uint64_t e = lo;
        fr_t x;
        fr_pow_vartime(&x, omega, &e, 1);
        for (size_t i = lo; i < hi; i++) {
            top[i] = x;
            fr_mul(&x, &x, omega);
        }
    }
    for (size_t m = 1; m < half; m <<= 1) {
        size_t stride = half / m;
        for (size_t i = 0; i < m; i++) tw[m - 1 + i] = top[i * stride];
    }
}

pm_status ntt_domain_init_gen(ntt_domain_t *d, unsigned log_n, const fr_t *g, pm_error *err) {
    memset(d, 0, sizeof *d);
    if (log_n > NTT_MAX_LOG_N)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "NTT size 2^%u exceeds the supported 2^%u", log_n, NTT_MAX_LOG_N);
    d->log_n = log_n;
    d->n = (size_t)1 << log_n;
    d->gen = *g;
    if (fr_root_of_unity(&d->omega, g, log_n) != 0 ||
        fr_root_of_unity(&d->omega_2n, g, log_n + 1) != 0) {
        memset(d, 0, sizeof *d);
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "generator does not give a primitive 2^%u-th root of unity", log_n + 1);
    }
    fr_inv_vartime(&d->omega_inv, &d->omega);
    fr_t nn;
    fr_from_u64(&nn, (uint64_t)d->n);
    fr_inv_vartime(&d->n_inv, &nn);
    size_t nt = d->n > 1 ? d->n - 1 : 1;
    d->tw = aligned_alloc(32, nt * sizeof(fr_t));
    d->tw_inv = aligned_alloc(32, nt * sizeof(fr_t));
    if (!d->tw || !d->tw_inv) {
        ntt_domain_free(d);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET,
                            "NTT twiddle tables for 2^%u", log_n);
    }
    fill_twiddles(d->tw, d->n, &d->omega);
    fill_twiddles(d->tw_inv, d->n, &d->omega_inv);
    return PM_OK;
}

pm_status ntt_domain_init(ntt_domain_t *d, unsigned log_n, ntt_roots_t roots, pm_error *err) {
    fr_t g;
    fr_from_u64(&g, (uint64_t)roots);
    return ntt_domain_init_gen(d, log_n, &g, err);
}

/* Reverse the low `bits` bits of x (1 <= bits <= 64): swap halves of ever smaller groups of the
 * 64-bit word (6 mask steps instead of a loop of `bits` iterations), then shift down. */
static inline size_t bitrev(size_t x, unsigned bits) {
    uint64_t v = (uint64_t)x;
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
    v = __builtin_bswap64(v);
    return (size_t)(v >> (64u - bits));
}

static void bit_reverse_par(fr_t *a, size_t n, int par) {
    if (n <= 2) return;
    unsigned bits = 0;
    while (((size_t)1 << bits) < n) bits++;
    PM_OMP(parallel for schedule(static) if (par && n >= NTT_PARALLEL_MIN))
    for (size_t i = 0; i < n; i++) {
        size_t j = bitrev(i, bits);
        if (i < j) {
            fr_t t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}

void ntt_bit_reverse(fr_t *a, size_t n) { bit_reverse_par(a, n, 1); }

/* Stages 0..s_end-1 on one contiguous block of 2^s_end elements (DIT stages below s_end never
 * leave such a block). */
static void dit_block(fr_t *a, unsigned s_end, const fr_t *tw) {
    /* stage 0: every twiddle is 1, so no multiplication (saves n/2 of the n/2*log2 n muls) */
    if (s_end > 0)
        for (size_t k = 0; k < ((size_t)1 << s_end); k += 2) {
            fr_t t = a[k + 1];
            fr_sub(&a[k + 1], &a[k], &t);
            fr_add(&a[k], &a[k], &t);
        }
    for (unsigned s = 1; s < s_end; s++) {
        size_t m = (size_t)1 << s;
        const fr_t *w = tw + (m - 1);
        for (size_t k = 0; k < ((size_t)1 << s_end); k += 2 * m)
            for (size_t j = 0; j < m; j++) {
                fr_t t;
                fr_mul(&t, &w[j], &a[k + j + m]);
                fr_sub(&a[k + j + m], &a[k + j], &t);
                fr_add(&a[k + j], &a[k + j], &t);
            }
    }
}

/* Cache blocking: the first NTT_BLOCK_LOG stages run block by block (2^12 elements = 128 KiB,
 * L2-resident), one block per thread, so only log_n - 12 stages stream the whole array. */
#define NTT_BLOCK_LOG 12u

/* The butterfly network on bit-reversed input (DIT), twiddles tw (per-stage layout). */
/* par = 0: everything on the calling thread (the H phase runs one polynomial per thread). */
static void dit_network(fr_t *a, size_t n, unsigned log_n, const fr_t *tw, int par) {
    size_t half = n / 2;
    if (log_n <= NTT_BLOCK_LOG) { /* n <= 4096: one block, on the calling thread */
        dit_block(a, log_n, tw);
        return;
    }
    size_t nblocks = n >> NTT_BLOCK_LOG;
    PM_OMP(parallel for schedule(static) if (par))
    for (size_t bl = 0; bl < nblocks; bl++) dit_block(a + (bl << NTT_BLOCK_LOG), NTT_BLOCK_LOG, tw);
    unsigned s = NTT_BLOCK_LOG;
    /* Stages above the block run two at a time (radix-4 pass): stages s and s+1 touch the
     * quadruple a[k+j], a[k+j+m], a[k+j+2m], a[k+j+3m] (m = 2^s, k a multiple of 4m), so fusing
     * them halves the passes over the array; the multiplications stay 4 per quadruple
     * (w_2m^j twice, then w_4m^j and w_4m^(j+m)), the same as two radix-2 stages. */
    for (; s + 1 < log_n; s += 2) {
        size_t m = (size_t)1 << s;
        const fr_t *w1 = tw + (m - 1);     /* stage s:   w_2m^j, j < m  */
        const fr_t *w2 = tw + (2 * m - 1); /* stage s+1: w_4m^j, j < 2m */
        size_t quads = n / 4;
        PM_OMP(parallel for schedule(static) if (par))
        for (size_t b = 0; b < quads; b++) {
            size_t j = b & (m - 1);
            size_t k = ((b >> s) << (s + 2)) + j;
            fr_t *x0 = &a[k], *x1 = &a[k + m], *x2 = &a[k + 2 * m], *x3 = &a[k + 3 * m];
            fr_t t, u, y0, y1, y2, y3;
            fr_mul(&t, &w1[j], x1);
            fr_add(&y0, x0, &t);
            fr_sub(&y1, x0, &t);
            fr_mul(&t, &w1[j], x3);
            fr_add(&y2, x2, &t);
            fr_sub(&y3, x2, &t);
            fr_mul(&u, &w2[j], &y2);
            fr_add(x0, &y0, &u);
            fr_sub(x2, &y0, &u);
            fr_mul(&u, &w2[j + m], &y3);
            fr_add(x1, &y1, &u);
            fr_sub(x3, &y1, &u);
        }
    }
    if (s < log_n) { /* one radix-2 stage left (odd number of stages above the block) */
        size_t m = (size_t)1 << s;
        const fr_t *w = tw + (m - 1);
        PM_OMP(parallel for schedule(static) if (par))
        for (size_t b = 0; b < half; b++) {
            size_t j = b & (m - 1);
            size_t k = ((b >> s) << (s + 1)) + j;
            fr_t t;
            fr_mul(&t, &w[j], &a[k + m]);
            fr_sub(&a[k + m], &a[k], &t);
            fr_add(&a[k], &a[k], &t);
        }
    }
}

void ntt_forward(fr_t *a, size_t n, const ntt_domain_t *d) {
    if (n != d->n || n < 2) return;
    ntt_bit_reverse(a, n);
    dit_network(a, n, d->log_n, d->tw, 1);
}

void ntt_inverse(fr_t *a, size_t n, const ntt_domain_t *d) {
    if (n != d->n || n < 2) return;
    ntt_bit_reverse(a, n);
    dit_network(a, n, d->log_n, d->tw_inv, 1);
    PM_OMP(parallel for schedule(static) if (n >= NTT_PARALLEL_MIN))
    for (size_t i = 0; i < n; i++) fr_mul(&a[i], &a[i], &d->n_inv);
}

void ntt_scale_powers(fr_t *a, size_t n, const fr_t *shift) {
    size_t chunk = 1u << 12;
    size_t nchunks = (n + chunk - 1) / chunk;
    PM_OMP(parallel for schedule(static) if (n >= NTT_PARALLEL_MIN))
    for (size_t c = 0; c < nchunks; c++) {
        size_t lo = c * chunk, hi = lo + chunk < n ? lo + chunk : n;
        uint64_t e = lo;
        fr_t x;
        fr_pow_vartime(&x, shift, &e, 1);
        for (size_t i = lo; i < hi; i++) {
            fr_mul(&a[i], &a[i], &x);
            fr_mul(&x, &x, shift);
        }
    }
}

void ntt_coset_forward(fr_t *a, size_t n, const ntt_domain_t *d, const fr_t *shift) {
    if (n != d->n) return;
    ntt_scale_powers(a, n, shift);
    ntt_forward(a, n, d);
}

void ntt_coset_inverse(fr_t *a, size_t n, const ntt_domain_t *d, const fr_t *shift) {
    if (n != d->n) return;
    fr_t sinv;
    fr_inv_vartime(&sinv, shift);
    ntt_inverse(a, n, d);
    ntt_scale_powers(a, n, &sinv);
}

pm_status ntt_snarkjs_h(fr_t *p, size_t n, fr_t *a, fr_t *b, fr_t *scratch, const ntt_domain_t *d,
                        pm_error *err) {
    if (n != d->n || n == 0)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "H-phase: %zu elements, domain has %zu", n, d->n);
    if (p == b || p == scratch || a == b || a == scratch || b == scratch)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "H-phase: p may alias a only; a, b, scratch must be distinct");
    fr_t *c = scratch;
    PM_OMP(parallel for schedule(static) if (n >= NTT_PARALLEL_MIN))
    for (size_t i = 0; i < n; i++) fr_mul(&c[i], &a[i], &b[i]);
    fr_t *x[3] = {a, b, c};
    /* One polynomial per thread, each NTT serial: three independent tasks and one join instead of
     * ~5 OpenMP barriers per NTT (on a loaded 2-core machine a barrier waits for a descheduled
     * thread, which made 2 threads slower than 1). The 1/n of the inverse NTT is folded into the
     * coset powers: coefficient k is multiplied once by n^-1 * inc^k (same values as scaling
     * twice; Fr arithmetic is exact, so the output is bit-identical). */
    PM_OMP(parallel for schedule(dynamic, 1) if (n >= NTT_PARALLEL_MIN))
    for (int i = 0; i < 3; i++) {
        fr_t *y = x[i];
        bit_reverse_par(y, n, 0);
        dit_network(y, n, d->log_n, d->tw_inv, 0);
        fr_t s = d->n_inv;
        for (size_t k = 0; k < n; k++) {
            fr_mul(&y[k], &y[k], &s);
            fr_mul(&s, &s, &d->omega_2n);
        }
        bit_reverse_par(y, n, 0);
        dit_network(y, n, d->log_n, d->tw, 0);
    }
    PM_OMP(parallel for schedule(static) if (n >= NTT_PARALLEL_MIN))
    for (size_t i = 0; i < n; i++) {
        fr_t t;
        fr_mul(&t, &a[i], &b[i]);
        fr_sub(&t, &t, &c[i]);
        fr_from_mont(&p[i], &t);
    }
    return PM_OK;
}
