/*
 * poseidon_constants.c — generation of neptune v11's Poseidon constants (poseidon.h): round
 * numbers, Grain LFSR round constants, Cauchy MDS, and the optimised schedule's compressed round
 * constants and sparse matrices. Built once per arity at first use; nothing is pasted.
 *
 * Sources (facts only, see poseidon.h): neptune v11 round_numbers.rs, round_constants.rs, mds.rs,
 * preprocessing.rs; POREP.md §2.3.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/poseidon.h"

/* ---------------- round numbers ----------------
 * The paper's inequalities (eq. 2-4 of Poseidon §5.5 as neptune writes them) with n = 256 bits
 * (neptune rounds 255 up) and M = 128, every quantity an f32 and each bound ceil'ed to an integer
 * (negative bounds saturate to 0, as Rust's `as usize` does). neptune's search mutates the outer
 * loop variable rf inside the inner loop (rf += 2 on every secure pair), and later pairs of the
 * same outer step are tested with that larger rf; we replicate that, since it decides which pair
 * wins. */
static unsigned ceil_to_uint(float x) {
    float c = ceilf(x);
    return c <= 0.0f ? 0u : (unsigned)c;
}

static int round_numbers_secure(unsigned t_, unsigned rf, unsigned rp_) {
    const float n = 256.0f, m = 128.0f, rp = (float)rp_, t = (float)t_;
    const float rf_stat = m <= (n - 3.0f) * (t + 1.0f) ? 6.0f : 10.0f;
    const float rf_interp = 0.43f * m + log2f(t) - rp;
    const float rf_grob_1 = 0.21f * n - rp;
    const float rf_grob_2 = (0.14f * n - 1.0f - rp) / (t - 1.0f);
    unsigned mx = ceil_to_uint(rf_stat);
    unsigned v;
    if ((v = ceil_to_uint(rf_interp)) > mx) mx = v;
    if ((v = ceil_to_uint(rf_grob_1)) > mx) mx = v;
    if ((v = ceil_to_uint(rf_grob_2)) > mx) mx = v;
    return rf >= mx;
}

void fil_poseidon_round_numbers(unsigned *rf_out, unsigned *rp_out, unsigned t) {
    unsigned best_rf = 0, best_rp = 0;
    unsigned long best_cost = (unsigned long)-1;
    for (unsigned rf0 = 2; rf0 <= 1000; rf0 += 2) {
        unsigned rf = rf0;
        for (unsigned rp0 = 4; rp0 < 200; rp0++) {
            if (!round_numbers_secure(t, rf, rp0)) continue;
            rf += 2; /* security margin: two more full rounds ... */
            unsigned rp = (unsigned)ceilf(1.075f * (float)rp0); /* ... and 7.5% more partial */
            unsigned long cost = (unsigned long)t * rf + rp;    /* S-boxes: t*R_F + R_P */
            if (cost < best_cost || (cost == best_cost && rf < best_rf)) {
                best_rf = rf;
                best_rp = rp;
                best_cost = cost;
            }
        }
    }
    *rf_out = best_rf;
    *rp_out = best_rp;
}

/* ---------------- Grain LFSR ----------------
 * 80-bit state b0..b79, initialised MSB-first with: 2 bits field type (1 = prime field), 4 bits
 * S-box (1 = x^alpha), 12 bits field size (255), 12 bits t, 10 bits R_F, 10 bits R_P, 30 ones.
 * New bit = b62 ^ b51 ^ b38 ^ b23 ^ b13 ^ b0 (shift out b0). The first 160 bits are discarded.
 * Self-shrinking output: draw bit pairs (a, b); output b when a = 1, else drop both.
 * A constant = 255 output bits read MSB-first; rejected (and redrawn) when >= r. */
typedef struct {
    uint8_t s[80];
    unsigned head; /* s[(head + i) % 80] = b_i */
} grain_t;

static unsigned grain_step(grain_t *g) {
#define B(i) g->s[(g->head + (i)) % 80]
    unsigned nb = B(62) ^ B(51) ^ B(38) ^ B(23) ^ B(13) ^ B(0);
#undef B
    g->s[g->head] = (uint8_t)nb; /* b0 leaves, the new bit becomes b79 */
    g->head = (g->head + 1) % 80;
    return nb;
}

static unsigned grain_bit(grain_t *g) {
    for (;;) {
        unsigned a = grain_step(g), b = grain_step(g);
        if (a) return b;
    }
}

static void grain_init(grain_t *g, unsigned t, unsigned rf, unsigned rp) {
    unsigned k = 0;
#define PUT(v, nbits)                                                                         \
    for (int i_ = (nbits) - 1; i_ >= 0; i_--) g->s[k++] = (uint8_t)(((v) >> i_) & 1u);
    PUT(1u, 2) PUT(1u, 4) PUT(255u, 12) PUT(t, 12) PUT(rf, 10) PUT(rp, 10) PUT(0x3FFFFFFFu, 30)
#undef PUT
    g->head = 0;
    for (int i = 0; i < 160; i++) grain_step(g);
}

void fil_poseidon_grain_constants(fr_t *out, size_t n, unsigned t, unsigned rf, unsigned rp) {
    grain_t g;
    grain_init(&g, t, rf, rp);
    for (size_t i = 0; i < n;) {
        uint8_t be[32] = {0};
        /* 255 bits MSB first: 7 bits into byte 0, then 31 full bytes */
        for (unsigned b = 0; b < 255; b++) {
            unsigned pos = b + 1; /* bit position in the 256-bit big-endian string */
            if (grain_bit(&g)) be[pos / 8] |= (uint8_t)(0x80u >> (pos % 8));
        }
        if (fr_from_be_bytes(&out[i], be) == 0) i++;
    }
}

/* ---------------- matrices ---------------- */

void fil_poseidon_mds(fr_t *m, unsigned t) {
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            fr_t x;
            fr_from_u64(&x, (uint64_t)i + t + j);
            fr_inv_vartime(&m[i * t + j], &x);
        }
}

int fil_fr_matrix_inv_vartime(fr_t *inv, const fr_t *a, unsigned t, fr_t *w) {
    memcpy(w, a, sizeof(fr_t) * t * t);
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) inv[i * t + j] = i == j ? FR_ONE : FR_ZERO;
    for (unsigned c = 0; c < t; c++) {
        unsigned p = c;
        while (p < t && fr_is_zero(&w[p * t + c])) p++;
        if (p == t) return -1;
        if (p != c)
            for (unsigned j = 0; j < t; j++) {
                fr_t x = w[c * t + j]; w[c * t + j] = w[p * t + j]; w[p * t + j] = x;
                x = inv[c * t + j]; inv[c * t + j] = inv[p * t + j]; inv[p * t + j] = x;
            }
        fr_t piv;
        fr_inv_vartime(&piv, &w[c * t + c]);
        for (unsigned j = 0; j < t; j++) {
            fr_mul(&w[c * t + j], &w[c * t + j], &piv);
            fr_mul(&inv[c * t + j], &inv[c * t + j], &piv);
        }
        for (unsigned r = 0; r < t; r++) {
            if (r == c || fr_is_zero(&w[r * t + c])) continue;
            fr_t f = w[r * t + c], x;
            for (unsigned j = 0; j < t; j++) {
                fr_mul(&x, &f, &w[c * t + j]);
                fr_sub(&w[r * t + j], &w[r * t + j], &x);
                fr_mul(&x, &f, &inv[c * t + j]);
                fr_sub(&inv[r * t + j], &inv[r * t + j], &x);
            }
        }
    }
    return 0;
}

/* out = v x A (row vector times matrix): out[j] = sum_i v[i] A[i][j]; out must not alias v. */
static void vec_mat(fr_t *out, const fr_t *v, const fr_t *a, unsigned t) {
    for (unsigned j = 0; j < t; j++) {
        fr_t acc = FR_ZERO, x;
        for (unsigned i = 0; i < t; i++) {
            fr_mul(&x, &v[i], &a[i * t + j]);
            fr_add(&acc, &acc, &x);
        }
        out[j] = acc;
    }
}

/* c = a * b (ordinary matrix product); c must not alias a or b. */
static void mat_mul(fr_t *c, const fr_t *a, const fr_t *b, unsigned t) {
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            fr_t acc = FR_ZERO, x;
            for (unsigned k = 0; k < t; k++) {
                fr_mul(&x, &a[i * t + k], &b[k * t + j]);
                fr_add(&acc, &acc, &x);
            }
            c[i * t + j] = acc;
        }
}

/* ---------------- the optimised schedule ----------------
 * Compressed constants (preprocessing.rs): moving each round's constant addition through the
 * linear layer (k -> k x M^-1 puts it before the previous MDS, i.e. right after that round's
 * S-boxes), so full rounds add after the S-box, and in the partial rounds only element 0 (the one
 * the S-box touches) keeps a constant of its own; the rest of the partial rounds' constants is
 * pushed back into the last first-half full round. Layout: RK(0); RK(1..h-1) x M^-1; the partial
 * block (t values for round h-1, then one per partial round); RK(h+RP+1 .. RF+RP-1) x M^-1.
 * Sparse matrices (mds.rs factor_to_sparse_matrices): M = M' x M'' per partial round, where M''
 * is identity except row 0 and column 0, so each partial round costs 2t - 1 multiplications
 * instead of t^2; M' accumulates into the pre-sparse matrix used once before the partial rounds. */
static int build_optimised(fil_poseidon_t *c, fr_t *crc, fr_t *pre_sparse, fr_t *w_hat,
                           fr_t *v_rest) {
    const unsigned t = c->t, rp = c->rp, h = c->rf / 2;
    const fr_t *mi = c->mds_inv;
    fr_t *acc = malloc(sizeof(fr_t) * t), *u = malloc(sizeof(fr_t) * t), *k = malloc(sizeof(fr_t) * rp);
    fr_t *cur = malloc(sizeof(fr_t) * t * t), *m1 = malloc(sizeof(fr_t) * t * t),
         *nxt = malloc(sizeof(fr_t) * t * t), *minor = malloc(sizeof(fr_t) * t * t),
         *minv = malloc(sizeof(fr_t) * t * t), *scr = malloc(sizeof(fr_t) * t * t),
         *w = malloc(sizeof(fr_t) * t);
    int ok = acc && u && k && cur && m1 && nxt && minor && minv && scr && w;
    if (ok) {
        size_t pos = 0;
#define RK(r) (c->rc + (size_t)(r) * t)
        for (unsigned i = 0; i < t; i++) crc[pos++] = RK(0)[i];
        for (unsigned r = 1; r < h; r++) {
            vec_mat(crc + pos, RK(r), mi, t);
            pos += t;
        }
        memcpy(acc, RK(h + rp), sizeof(fr_t) * t);
        for (unsigned i = 0; i < rp; i++) {
            vec_mat(u, acc, mi, t);
            k[i] = u[0];
            u[0] = FR_ZERO;
            for (unsigned j = 0; j < t; j++) fr_add(&acc[j], &RK(h + rp - 1 - i)[j], &u[j]);
        }
        vec_mat(crc + pos, acc, mi, t);
        pos += t;
        for (unsigned i = 0; i < rp; i++) crc[pos++] = k[rp - 1 - i];
        for (unsigned r = 1; r < h; r++) {
            vec_mat(crc + pos, RK(h + rp + r), mi, t);
            pos += t;
        }
#undef RK
        ok = pos == (size_t)t * c->rf + rp;

        /* sparse factorisation; matrices are stored in reverse order of computation */
        memcpy(cur, c->mds, sizeof(fr_t) * t * t);
        for (unsigned s = 0; ok && s < rp; s++) {
            const unsigned n1 = t - 1;
            for (unsigned i = 0; i < n1; i++)
                for (unsigned j = 0; j < n1; j++) minor[i * n1 + j] = cur[(i + 1) * t + (j + 1)];
            if (fil_fr_matrix_inv_vartime(minv, minor, n1, scr)) { ok = 0; break; }
            for (unsigned i = 0; i < n1; i++) w[i] = cur[(i + 1) * t];
            /* w_hat = w x minor^-1 */
            fr_t *wh = w_hat + (size_t)(rp - 1 - s) * t, *vr = v_rest + (size_t)(rp - 1 - s) * n1;
            wh[0] = cur[0];
            vec_mat(wh + 1, w, minv, n1);
            for (unsigned j = 0; j < n1; j++) vr[j] = cur[j + 1];
            /* M' : row 0 = e0, rows i >= 1 = (0, cur[i][1..]) */
            for (unsigned i = 0; i < t; i++)
                for (unsigned j = 0; j < t; j++)
                    m1[i * t + j] = i == 0 ? (j == 0 ? FR_ONE : FR_ZERO) : (j == 0 ? FR_ZERO : cur[i * t + j]);
            mat_mul(nxt, c->mds, m1, t);
            memcpy(cur, nxt, sizeof(fr_t) * t * t);
        }
        if (ok) memcpy(pre_sparse, cur, sizeof(fr_t) * t * t);
    }
    free(acc); free(u); free(k); free(cur); free(m1); free(nxt); free(minor); free(minv);
    free(scr); free(w);
    return ok ? 0 : -1;
}

static fil_poseidon_t *build(unsigned arity) {
    const unsigned t = arity + 1;
    unsigned rf, rp;
    fil_poseidon_round_numbers(&rf, &rp, t);
    const size_t n_rc = (size_t)t * (rf + rp), n_crc = (size_t)t * rf + rp, tt = (size_t)t * t;
    fil_poseidon_t *c = calloc(1, sizeof *c);
    fr_t *rc = malloc(sizeof(fr_t) * n_rc), *mds = malloc(sizeof(fr_t) * tt),
         *mds_inv = malloc(sizeof(fr_t) * tt), *crc = malloc(sizeof(fr_t) * n_crc),
         *pre = malloc(sizeof(fr_t) * tt), *w_hat = malloc(sizeof(fr_t) * rp * t),
         *v_rest = malloc(sizeof(fr_t) * rp * (t - 1)), *scr = malloc(sizeof(fr_t) * tt);
    if (!c || !rc || !mds || !mds_inv || !crc || !pre || !w_hat || !v_rest || !scr) goto fail;
    c->arity = arity;
    c->t = t;
    c->rf = rf;
    c->rp = rp;
    fr_from_u64(&c->domain_tag, (arity >= 64 ? 0 : (1ull << arity)) - 1);
    fil_poseidon_grain_constants(rc, n_rc, t, rf, rp);
    fil_poseidon_mds(mds, t);
    if (fil_fr_matrix_inv_vartime(mds_inv, mds, t, scr)) goto fail;
    c->rc = rc;
    c->mds = mds;
    c->mds_inv = mds_inv;
    if (build_optimised(c, crc, pre, w_hat, v_rest)) goto fail;
    c->crc = crc;
    c->pre_sparse = pre;
    c->w_hat = w_hat;
    c->v_rest = v_rest;
    free(scr);
    return c;
fail:
    free(c); free(rc); free(mds); free(mds_inv); free(crc); free(pre); free(w_hat); free(v_rest);
    free(scr);
    return NULL;
}

static _Atomic(fil_poseidon_t *) cache[FIL_POSEIDON_MAX_ARITY + 1];
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

const fil_poseidon_t *fil_poseidon_constants(unsigned arity) {
    if (arity < 1 || arity > FIL_POSEIDON_MAX_ARITY) return NULL;
    fil_poseidon_t *c = atomic_load_explicit(&cache[arity], memory_order_acquire);
    if (c) return c;
    pthread_mutex_lock(&cache_lock);
    c = atomic_load_explicit(&cache[arity], memory_order_relaxed);
    if (!c) {
        c = build(arity);
        if (c) atomic_store_explicit(&cache[arity], c, memory_order_release);
    }
    pthread_mutex_unlock(&cache_lock);
    return c;
}
