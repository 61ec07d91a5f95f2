/*
 * ntt.c — NTT over Fr on the CPU: cache-blocked radix-2 networks, coset variants, the snarkjs and
 * bellperson H phases (contract in ntt.h).
 *
 * Networks: DIT (Cooley–Tukey; bit-reversed in, natural out; stage s with half-size m = 2^s:
 * t = w_2m^j x[k+j+m]; x[k+j+m] = x[k+j] - t; x[k+j] += t) and its mirror DIF (Gentleman–Sande;
 * natural in, bit-reversed out; x[k+j] += x[k+j+m], x[k+j+m] = (u - v) w_2m^j). Either is cut into
 * passes over memory:
 *  - the block pass: stages 0..B-1 (B = 12) on contiguous blocks of 2^B elements (128 KiB, L2);
 *  - upper passes of S <= 8 stages [s0, s0+S): the elements they combine differ only in index bits
 *    s0..s0+S-1, so a tile of W columns (consecutive low indices) x 2^S rows (W * 2^S <= 2^13
 *    elements, 256 KiB; W <= 128) is gathered into a per-thread buffer (strided rows would all fall
 *    into one cache set), transformed there, and scattered back. 2^23 = block pass + upper passes of
 *    6 and 5 stages (W = 128: runs of 4 KiB, one page, per row and per twiddle row). Passes are cheap
 *    (a stream of 2 x 32 B per element), narrow tiles are not: one pass of 11 stages has W = 4, i.e.
 *    128-byte runs 128 KiB apart, every one a fresh page and the same cache set, and its twiddle rows
 *    likewise; at 2^23 that pass ran at ~62 ns per butterfly against ~37 for two passes of W = 128
 *    (1 thread, docs/perf/cpu-ntt.md).
 * Every pass is one OpenMP loop over independent blocks/tiles, so a single transform uses every
 * thread (n >= NTT_PARALLEL_MIN); a trivial twiddle (j = 0) costs no multiplication. Butterflies are
 * the fused kernels of field/fr_bfly.h, one call per row of consecutive j (see bf_row).
 * Natural order in and out: a tiled bit reversal (2^tb x 2^tb tiles swapped with their mirror, runs
 * of 2^tb contiguous elements) that can also scale by c x^e (the coset powers and 1/n fused).
 * The H phases need no bit reversal between the inverse and the forward transform: DIF leaves the
 * coefficients bit-reversed, the coset scale by position rev(i) and the DIT's block pass are fused
 * with the DIF's block pass into one pass per block. Their pointwise steps ride on the last pass of a
 * transform (ntt_epi: A^ B^ and snarkjs' from_mont(A^ B^ - C^) are stored by B's last pass; bellperson's
 * g^-k scale and C's subtraction run in the block pass of A and C), so no pointwise step reads the
 * arrays again.
 * Cost per transform: n/2 * log2 n - ~n multiplications; the scaled bit reversal 2n.
 */
#include "ntt/ntt.h"

#include <stdlib.h>
#include <string.h>

#include "field/fr_bfly.h"
#include "field/fr_rows.h"
#include "util/parallel.h"

#define NTT_BLOCK_LOG 12u                  /* block pass: 2^12 contiguous elements */
#define NTT_TILE_LOG 13u                   /* upper-pass tile: at most 2^13 elements (256 KiB) */
#define NTT_UPPER_MAX 8u                   /* stages per upper pass (keeps W >= 32 at 2^13-element tiles) */
#define NTT_TILE_W_MAX 128u                /* upper-pass tile columns: rows of at most 4 KiB */
static unsigned upper_max = NTT_UPPER_MAX; /* lowered by tests only (ntt_test_set_upper_stages) */
static unsigned block_lg = NTT_BLOCK_LOG, tile_lg = NTT_TILE_LOG; /* ntt_set_pass_shape */

void ntt_test_set_upper_stages(unsigned s) { upper_max = s >= 1 && s <= NTT_UPPER_MAX ? s : NTT_UPPER_MAX; }
void ntt_set_pass_shape(unsigned block_log2, unsigned tile_log2) {
    block_lg = block_log2 >= NTT_SHAPE_BLOCK_MIN && block_log2 <= NTT_SHAPE_BLOCK_MAX ? block_log2 : NTT_BLOCK_LOG;
    tile_lg = tile_log2 >= NTT_SHAPE_TILE_MIN && tile_log2 <= NTT_SHAPE_TILE_MAX ? tile_log2 : NTT_TILE_LOG;
}
void ntt_get_pass_shape(unsigned *block_log2, unsigned *tile_log2) {
    *block_log2 = block_lg;
    *tile_log2 = tile_lg;
}
#define NTT_ROW_CHUNK ((size_t)1 << 12) /* pointwise passes: rows of 2^12 per fr_muls call */
#define NTT_BR_TB 4u                       /* bit-reversal tiles of 2^4 x 2^4 (3 x 8 KiB on the stack) */

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

/* Reverse the low `bits` bits of x (0 <= bits <= 64): swap halves of ever smaller groups of the
 * 64-bit word (6 mask steps instead of a loop of `bits` iterations), then shift down. */
static inline size_t bitrev(size_t x, unsigned bits) {
    if (bits == 0) return 0;
    uint64_t v = (uint64_t)x;
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
    v = __builtin_bswap64(v);
    return (size_t)(v >> (64u - bits));
}

static fr_t fr_pow_u64(const fr_t *a, uint64_t e) {
    fr_t r;
    fr_pow_vartime(&r, a, &e, 1);
    return r;
}

/* ---- butterflies ----
 * The fused kernels of field/fr_bfly.h (product kept in registers, no store/reload between the
 * multiplication and the add/sub); the row forms fr_bflys_* loop over consecutive j inside the
 * kernel: one call per row instead of three per butterfly (docs/perf/cpu-ntt.md, "Fused
 * butterflies"). The trivial twiddle (j = 0) is fr_bfly_triv: no multiplication. */
static inline void bf_row(fr_t *x, fr_t *y, const fr_t *w, size_t cnt, int dif) { /* w[0..cnt) */
    if (dif) fr_bflys_dif(x, y, w, cnt);
    else fr_bflys_dit(x, y, w, cnt);
}

/* Stages [s_lo, s_hi) of the network (DIT ascending, DIF descending) on a contiguous block of
 * 2^s_hi elements (inside such a block the twiddle index j = index mod 2^s is local). */
static void block_stages(fr_t *a, unsigned s_lo, unsigned s_hi, const fr_t *tw, int dif) {
    const size_t len = (size_t)1 << s_hi;
    for (unsigned q = s_lo; q < s_hi; q++) {
        const unsigned s = dif ? s_hi - 1 - (q - s_lo) : q;
        const size_t m = (size_t)1 << s;
        const fr_t *w = tw + (m - 1);
        for (size_t k = 0; k < len; k += 2 * m) {
            fr_bfly_triv(&a[k], &a[k + m]);
            if (m > 1) bf_row(&a[k + 1], &a[k + 1 + m], &w[1], m - 1, dif);
        }
    }
}

/* Stages [s0, s0+S) on a tile of W columns x 2^S rows, element (k, c) at t[k * rs + c], standing for
 * a[hi 2^(s0+S) + k 2^s0 + lo0 + c]: twiddle j = (k mod 2^sig) 2^s0 + lo0 + c for local stage sig.
 * rs = W for a gathered tile, 2^s0 in place. */
static void tile_stages(fr_t *t, size_t rs, size_t W, unsigned S, unsigned s0, size_t lo0, const fr_t *tw, int dif) {
    const size_t rows = (size_t)1 << S;
    for (unsigned q = 0; q < S; q++) {
        const unsigned sig = dif ? S - 1 - q : q;
        const size_t h = (size_t)1 << sig;
        const fr_t *ws = tw + (((size_t)1 << (s0 + sig)) - 1);
        for (size_t k0 = 0; k0 < rows; k0 += 2 * h)
            for (size_t kk = 0; kk < h; kk++) {
                const size_t j0 = (kk << s0) + lo0;
                fr_t *p = t + (k0 + kk) * rs, *r = p + h * rs;
                size_t c0 = 0;
                if (j0 == 0) { /* twiddle 1 */
                    fr_bfly_triv(&p[0], &r[0]);
                    c0 = 1;
                }
                if (W > c0) bf_row(p + c0, r + c0, ws + j0 + c0, W - c0, dif);
            }
    }
}

/* An epilogue fused into the store of a transform's last pass (the H phases' pointwise steps, so they
 * cost no pass over memory of their own): out[i] = mul[i] * Y[i] - sub[i] (sub NULL: no subtraction),
 * taken out of Montgomery form when from_mont, where Y is the transform's output at position i. out
 * may be mul or sub, never the transform's own array; the transform's array is left undefined. */
typedef struct {
    fr_t *out;
    const fr_t *mul, *sub;
    int from_mont;
} ntt_epi;

/* the epilogue on the cnt elements of Y that stand for positions off .. off + cnt - 1 */
static void epi_row(const ntt_epi *e, size_t off, const fr_t *Y, size_t cnt) {
    if (e->sub) fr_muls_sub(e->out + off, e->mul + off, Y, e->sub + off, cnt, e->from_mont);
    else fr_muls(e->out + off, e->mul + off, Y, cnt);
}

/* One upper pass [s0, s0+S) over the whole array: tiles gathered into a per-thread buffer (in place
 * and strided if that allocation fails: the same arithmetic, only slower). With `epi`, the tile's rows
 * go through the epilogue instead of back into a. */
static void upper_pass(fr_t *a, unsigned log_n, unsigned s0, unsigned S, const fr_t *tw, int dif, int par,
                       const ntt_epi *epi) {
    size_t W = (size_t)1 << (tile_lg > S ? tile_lg - S : 0);
    if (W > ((size_t)1 << s0)) W = (size_t)1 << s0;
    if (W > NTT_TILE_W_MAX) W = NTT_TILE_W_MAX;
    const size_t rows = (size_t)1 << S, groups = ((size_t)1 << s0) / W;
    const size_t tiles = ((size_t)1 << (log_n - s0 - S)) * groups;
    PM_OMP(parallel if (par))
    {
        fr_t *buf = aligned_alloc(32, rows * W * sizeof(fr_t));
        PM_OMP(for schedule(static))
        for (size_t ti = 0; ti < tiles; ti++) {
            const size_t hi = ti / groups, lo0 = (ti % groups) * W;
            const size_t org = (hi << (s0 + S)) + lo0;
            fr_t *base = a + org;
            if (buf) {
                for (size_t k = 0; k < rows; k++) memcpy(buf + k * W, base + (k << s0), W * sizeof(fr_t));
                tile_stages(buf, W, W, S, s0, lo0, tw, dif);
                for (size_t k = 0; k < rows; k++) {
                    if (epi) epi_row(epi, org + (k << s0), buf + k * W, W);
                    else memcpy(base + (k << s0), buf + k * W, W * sizeof(fr_t));
                }
            } else { /* fallback: the tile in place (strided rows) */
                tile_stages(base, (size_t)1 << s0, W, S, s0, lo0, tw, dif);
                if (epi)
                    for (size_t k = 0; k < rows; k++) epi_row(epi, org + (k << s0), base + (k << s0), W);
            }
        }
        free(buf);
    }
}

unsigned ntt_split_stages(unsigned *sizes, unsigned stages, unsigned max_per_pass) {
    if (max_per_pass == 0) max_per_pass = 1;
    const unsigned P = (stages + max_per_pass - 1) / max_per_pass;
    for (unsigned p = 0; p < P; p++) sizes[p] = stages / P + (p < stages % P ? 1 : 0);
    return P;
}

void ntt_bellperson_zinv(fr_t *zinv, size_t n) {
    fr_t g;
    fr_multiplicative_generator(&g);
    uint64_t e = n;
    fr_pow_vartime(zinv, &g, &e, 1);
    fr_sub(zinv, zinv, &FR_ONE);
    fr_inv_vartime(zinv, zinv);
}

/* Upper passes of the stages [B, log_n): balanced groups of <= NTT_UPPER_MAX; DIF: top first. `epi`
 * (NULL: none) rides on the last pass run. */
static void upper_passes(fr_t *a, unsigned log_n, unsigned B, const fr_t *tw, int dif, int par, const ntt_epi *epi) {
    if (log_n <= B) return;
    unsigned size[32], start[32], acc = B;
    const unsigned P = ntt_split_stages(size, log_n - B, upper_max);
    for (unsigned p = 0; p < P; p++) {
        start[p] = acc;
        acc += size[p];
    }
    for (unsigned q = 0; q < P; q++) {
        const unsigned p = dif ? P - 1 - q : q;
        upper_pass(a, log_n, start[p], size[p], tw, dif, par, q + 1 == P ? epi : NULL);
    }
}

static unsigned block_log(unsigned log_n) { return log_n < block_lg ? log_n : block_lg; }

/* the whole network on a (natural order in for DIF, bit-reversed in for DIT) */
static void network(fr_t *a, size_t n, unsigned log_n, const fr_t *tw, int dif, int par) {
    const unsigned B = block_log(log_n);
    const size_t nb = n >> B;
    if (dif) upper_passes(a, log_n, B, tw, 1, par, NULL);
    PM_OMP(parallel for schedule(static) if (par))
    for (size_t bl = 0; bl < nb; bl++) block_stages(a + (bl << B), 0, B, tw, dif);
    if (!dif) upper_passes(a, log_n, B, tw, 0, par, NULL);
}

/* ---- tiled bit reversal with optional scaling by c * x^e ----
 * i = [hi: tb bits | mid: log_n - 2 tb bits | lo: tb bits] -> rev(i) = [rev lo | rev mid | rev hi]:
 * the tile of mid goes transposed to the tile of rev(mid); the pair is swapped through a local
 * buffer. Scaling: e = the index a value comes from (by_src) or goes to; inside a tile e =
 * hi 2^(log_n - tb) + mid 2^tb + lo, so each row costs one multiplication for its first power and
 * each element one for the next power and one for itself. */
typedef struct {
    int mode; /* 0 none, 1 constant c, 2 c * x^e */
    fr_t c, x;
} br_scale;

/* t (a tile, side x side) times c x^e: mode 1 t[i] *= c; mode 2 element (hi, lo) gets c x^(mid 2^tb) *
 * x_tile[hi side + lo], with x_tile[hi side + lo] = x^(hi 2^(log_n - tb) + lo) (one table per bit
 * reversal, the same for every tile): two row products per element (fr_muls_scaled: 8 at a time on
 * the IFMA kernel), no dependent chain. */
static void br_scale_tile(fr_t *t, unsigned tb, size_t mid, const br_scale *sc, const fr_t *x_tile) {
    const size_t side = (size_t)1 << tb;
    if (sc->mode == 1) {
        fr_muls_by(t, t, side * side, &sc->c);
        return;
    }
    fr_t base = fr_pow_u64(&sc->x, (uint64_t)mid << tb);
    fr_mul(&base, &base, &sc->c);
    fr_muls_scaled(t, t, x_tile, side * side, &base);
}

static void bit_reverse_scaled(fr_t *a, size_t n, unsigned log_n, const br_scale *sc, int by_src, int par) {
    if (n <= 1) {
        if (n == 1 && sc->mode) fr_mul(&a[0], &a[0], &sc->c); /* x^0 = 1 */
        return;
    }
    const unsigned tb = log_n / 2 < NTT_BR_TB ? log_n / 2 : NTT_BR_TB, M = log_n - 2 * tb;
    const size_t side = (size_t)1 << tb, tiles = (size_t)1 << M;
    fr_t x_tile[1u << (2 * NTT_BR_TB)]; /* x^(hi 2^(log_n - tb) + lo) at hi side + lo (8 KiB) */
    if (sc->mode == 2) {
        const fr_t step = fr_pow_u64(&sc->x, (uint64_t)1 << (log_n - tb));
        fr_t row = FR_ONE;
        for (size_t hi = 0; hi < side; hi++) {
            for (size_t lo = 0; lo < side; lo++) x_tile[hi * side + lo] = FR_ONE;
            fr_muls_powers(x_tile + hi * side, side, &row, &sc->x);
            fr_mul(&row, &row, &step);
        }
    }
    PM_OMP(parallel for schedule(static) if (par && n >= NTT_PARALLEL_MIN))
    for (size_t m = 0; m < tiles; m++) {
        const size_t m2 = bitrev(m, M);
        if (m2 < m) continue; /* the partner iteration swaps this pair */
        fr_t A[1u << (2 * NTT_BR_TB)], Bt[1u << (2 * NTT_BR_TB)], out[1u << (2 * NTT_BR_TB)];
        const size_t mids[2] = {m, m2};
        fr_t *tl[2] = {A, Bt};
        const int ntl = m2 == m ? 1 : 2;
        for (int s = 0; s < ntl; s++) {
            for (size_t hi = 0; hi < side; hi++)
                memcpy(tl[s] + hi * side, a + (hi << (log_n - tb)) + (mids[s] << tb), side * sizeof(fr_t));
            if (sc->mode && by_src) br_scale_tile(tl[s], tb, mids[s], sc, x_tile);
        }
        for (int s = 0; s < ntl; s++) {
            /* the tile of mids[s] lands in the tile of mids[1 - s] (itself when ntl = 1) */
            const size_t dm = ntl == 2 ? mids[1 - s] : m;
            for (size_t hi = 0; hi < side; hi++)
                for (size_t lo = 0; lo < side; lo++) out[hi * side + lo] = tl[s][bitrev(lo, tb) * side + bitrev(hi, tb)];
            if (sc->mode && !by_src) br_scale_tile(out, tb, dm, sc, x_tile);
            for (size_t hi = 0; hi < side; hi++)
                memcpy(a + (hi << (log_n - tb)) + (dm << tb), out + hi * side, side * sizeof(fr_t));
        }
    }
}

void ntt_bit_reverse(fr_t *a, size_t n) {
    unsigned bits = 0;
    while (((size_t)1 << bits) < n) bits++;
    const br_scale none = {0, FR_ONE, FR_ONE};
    bit_reverse_scaled(a, n, bits, &none, 0, 1);
}

void ntt_forward(fr_t *a, size_t n, const ntt_domain_t *d) {
    if (n != d->n || n < 2) return;
    ntt_bit_reverse(a, n);
    network(a, n, d->log_n, d->tw, 0, n >= NTT_PARALLEL_MIN);
}

/* DIF with omega^-1, then the bit reversal scaled by n^-1 (coset: n^-1 shift^-k by destination) */
static void inverse_scaled(fr_t *a, size_t n, const ntt_domain_t *d, const br_scale *sc) {
    network(a, n, d->log_n, d->tw_inv, 1, n >= NTT_PARALLEL_MIN);
    bit_reverse_scaled(a, n, d->log_n, sc, 0, 1);
}

void ntt_inverse(fr_t *a, size_t n, const ntt_domain_t *d) {
    if (n != d->n || n < 2) return;
    const br_scale sc = {1, d->n_inv, FR_ONE};
    inverse_scaled(a, n, d, &sc);
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
        fr_muls_powers(a + lo, hi - lo, &x, shift); /* a[i] *= shift^lo shift^(i - lo) */
    }
}

void ntt_coset_forward(fr_t *a, size_t n, const ntt_domain_t *d, const fr_t *shift) {
    if (n != d->n) return;
    if (n < 2) { ntt_scale_powers(a, n, shift); return; }
    const br_scale sc = {2, FR_ONE, *shift}; /* a[k] *= shift^k on the way into bit-reversed order */
    bit_reverse_scaled(a, n, d->log_n, &sc, 1, 1);
    network(a, n, d->log_n, d->tw, 0, n >= NTT_PARALLEL_MIN);
}

void ntt_coset_inverse(fr_t *a, size_t n, const ntt_domain_t *d, const fr_t *shift) {
    if (n != d->n) return;
    fr_t sinv;
    fr_inv_vartime(&sinv, shift);
    if (n < 2) return; /* n = 1: the identity (n^-1 = 1, shift^0 = 1) */
    const br_scale sc = {2, d->n_inv, sinv};
    inverse_scaled(a, n, d, &sc);
}

/* ---- the H phases ----
 * Block bl of 2^B positions after a DIF holds the coefficients rev(i), and inside it rev(i) =
 * rev_B(k) 2^(log_n - B) + rev(bl) for the element at offset k: scaling coefficient e by f x^e there is
 * the block's factor f x^rev(bl) times step^rev_B(k), step = x^(2^(log_n - B)). step^rev_B(k) is one
 * table of 2^B entries per call (rev_pow_table: 128 KiB at B = 12, shared by all blocks), so each block
 * is one contiguous fr_muls_scaled (2 multiplications per element, 8 at a time on the IFMA kernel, no
 * dependent chain); without the table (malloc failed) the same products run as the scalar chain. */
static fr_t *rev_pow_table(const fr_t *step, unsigned B) {
    const size_t len = (size_t)1 << B;
    fr_t *q = aligned_alloc(32, len * sizeof(fr_t)); /* q[k] = step^rev_B(k) */
    if (!q) return NULL;
    for (size_t k = 0; k < len; k++) q[k] = FR_ONE;
    fr_muls_powers(q, len, &FR_ONE, step); /* step^k at k, then the bit-reversal swaps */
    for (size_t k = 0; k < len; k++) {
        const size_t r = bitrev(k, B);
        if (r > k) {
            const fr_t t = q[k];
            q[k] = q[r];
            q[r] = t;
        }
    }
    return q;
}

/* x[k] *= f0 step^rev_B(k) for the 2^B elements of one block (q from rev_pow_table, or NULL) */
static void scale_block_rev(fr_t *x, unsigned B, const fr_t *q, const fr_t *f0, const fr_t *step) {
    const size_t len = (size_t)1 << B;
    if (q) {
        fr_muls_scaled(x, x, q, len, f0);
        return;
    }
    fr_t f = *f0;
    for (size_t t = 0; t < len; t++) {
        fr_t *e = &x[bitrev(t, B)];
        fr_mul(e, e, &f);
        fr_mul(&f, &f, step);
    }
}

/* domain evaluations y -> evaluations on the coset c<omega> where coefficient k gets scale * c^k:
 * DIF(omega^-1) upper passes; per block of 2^B: DIF block stages, the scale by position (above), DIT
 * block stages; DIT upper passes. With `epi` (NULL: none) the coset evaluations go through the
 * epilogue as the last pass stores them (y is then left undefined). */
static void to_coset(fr_t *y, const ntt_domain_t *d, const fr_t *scale, const fr_t *c, const ntt_epi *epi) {
    const size_t n = d->n;
    const unsigned L = d->log_n, B = block_log(L);
    const int par = n >= NTT_PARALLEL_MIN;
    upper_passes(y, L, B, d->tw_inv, 1, par, NULL);
    const fr_t step = fr_pow_u64(c, (uint64_t)1 << (L - B));
    const size_t nb = n >> B, len = (size_t)1 << B;
    fr_t *q = rev_pow_table(&step, B);
    const ntt_epi *block_epi = L > B ? NULL : epi; /* no upper pass: the block pass is the last one */
    PM_OMP(parallel for schedule(static) if (par))
    for (size_t bl = 0; bl < nb; bl++) {
        fr_t *x = y + bl * len;
        block_stages(x, 0, B, d->tw_inv, 1);
        fr_t f = fr_pow_u64(c, bitrev(bl, L - B));
        fr_mul(&f, &f, scale);
        scale_block_rev(x, B, q, &f, &step);
        block_stages(x, 0, B, d->tw, 0);
        if (block_epi) epi_row(block_epi, bl * len, x, len);
    }
    free(q);
    upper_passes(y, L, B, d->tw, 0, par, epi);
}

/* the H phases' shapes: n = d->n, out may alias a only, a, b, third distinct */
static pm_status h_args(size_t n, const ntt_domain_t *d, const fr_t *out, const fr_t *a, const fr_t *b,
                        const fr_t *third, const char *out_name, const char *third_name, pm_error *err) {
    if (n != d->n || n == 0)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "H-phase: %zu elements, domain has %zu", n, d->n);
    if (out == b || out == third || a == b || a == third || b == third)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "H-phase: %s may alias a only; a, b, %s must be distinct", out_name, third_name);
    return PM_OK;
}

pm_status ntt_snarkjs_h(fr_t *p, size_t n, fr_t *a, fr_t *b, fr_t *scratch, const ntt_domain_t *d,
                        pm_error *err) {
    pm_status st = h_args(n, d, p, a, b, scratch, "p", "scratch", err);
    if (st) return st;
    fr_t *c = scratch;
    const int par = n >= NTT_PARALLEL_MIN;
    const size_t nch = (n + NTT_ROW_CHUNK - 1) / NTT_ROW_CHUNK;
    PM_OMP(parallel for schedule(static) if (par))
    for (size_t ch = 0; ch < nch; ch++) {
        const size_t lo = ch * NTT_ROW_CHUNK, cnt = n - lo < NTT_ROW_CHUNK ? n - lo : NTT_ROW_CHUNK;
        fr_muls(c + lo, a + lo, b + lo, cnt);
    }
    /* The 1/n of the inverse NTT is folded into the coset powers: coefficient k is multiplied once
     * by n^-1 * inc^k (Fr arithmetic is exact, so the output is bit-identical). The last transform's
     * last pass stores p = from_mont(a b - c) (p may be a) instead of b. */
    to_coset(a, d, &d->n_inv, &d->omega_2n, NULL);
    to_coset(c, d, &d->n_inv, &d->omega_2n, NULL);
    const ntt_epi last = {p, a, c, 1};
    to_coset(b, d, &d->n_inv, &d->omega_2n, &last);
    return PM_OK;
}

pm_status ntt_bellperson_h(fr_t *h, size_t n, fr_t *a, fr_t *b, fr_t *c, const ntt_domain_t *d,
                           pm_error *err) {
    pm_status st = h_args(n, d, h, a, b, c, "h", "c", err);
    if (st) return st;
    fr_t g, ginv, zinv, fin;
    fr_multiplicative_generator(&g);
    if (!fr_eq(&g, &d->gen))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "bellperson H: the domain's roots must come from the multiplicative generator 7");
    fr_inv_vartime(&ginv, &g);
    ntt_bellperson_zinv(&zinv, n); /* Z(g omega^i) = g^n - 1 */
    const int par = n >= NTT_PARALLEL_MIN;
    /* C is never taken to the coset: the coset iNTT is linear and undoes the coset NTT exactly, so
     *   icoset((A^ B^ - C^) z) = z (icoset(A^ B^) - iNTT(c))     (z = (g^n - 1)^-1, constant on the coset)
     * bit for bit (exact field arithmetic, any a, b, c): 6 transforms instead of bellperson's 7. */
    to_coset(a, d, &d->n_inv, &g, NULL);
    const ntt_epi ab = {a, a, NULL, 0}; /* B's last pass stores a = A^ B^ */
    to_coset(b, d, &d->n_inv, &g, &ab);
    /* both inverse transforms: DIF(omega^-1) (the unnormalised inverse DFT D, coefficient k at position
     * rev(k)); in the block pass A's and C's blocks are transformed together (in cache) and combined at
     * once: a[rev(k)] = g^-k D(A^ B^)_k - D(c)_k. Then one bit reversal scaled by the constant
     * fin = n^-1 (g^n - 1)^-1, taken out of Montgomery form first so the products come out plain.
     * Against the two scaled bit reversals and the subtraction pass of before: 2 passes over memory
     * fewer, the same products. */
    fr_mul(&fin, &d->n_inv, &zinv);
    fr_from_mont(&fin, &fin);
    const unsigned L = d->log_n, B = block_log(L);
    const size_t nb = n >> B, len = (size_t)1 << B;
    upper_passes(a, L, B, d->tw_inv, 1, par, NULL);
    upper_passes(c, L, B, d->tw_inv, 1, par, NULL);
    const fr_t step = fr_pow_u64(&ginv, (uint64_t)1 << (L - B));
    fr_t *q = rev_pow_table(&step, B);
    PM_OMP(parallel for schedule(static) if (par))
    for (size_t bl = 0; bl < nb; bl++) {
        fr_t *xa = a + bl * len, *xc = c + bl * len;
        block_stages(xc, 0, B, d->tw_inv, 1);
        block_stages(xa, 0, B, d->tw_inv, 1);
        const fr_t f = fr_pow_u64(&ginv, bitrev(bl, L - B));
        scale_block_rev(xa, B, q, &f, &step);
        for (size_t i = 0; i < len; i++) fr_sub(&xa[i], &xa[i], &xc[i]);
    }
    free(q);
    const br_scale sc = {1, fin, FR_ONE};
    bit_reverse_scaled(a, n, L, &sc, 0, 1);
    if (h != a) memcpy(h, a, n * sizeof *h);
    if (!fr_is_zero(&h[n - 1]))
        return pm_error_set(err, PM_ERR_UNSATISFIED, "witness", PM_NO_OFFSET,
                            "H has degree n - 1 = %zu: the witness does not satisfy the circuit", n - 1);
    return PM_OK;
}
