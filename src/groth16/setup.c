/*
 * setup.c — Groth16 key generation (see setup.h for the maths and the two output conventions).
 * Facts from snarkjs src/zkey_new.js (domain size, gamma = 1, odd-point H basis, coefficient
 * section) and bellperson src/groth16/generator.rs (h = tau^i Z(tau)/delta for i < m - 1, IC with
 * 1/gamma, L with 1/delta, identity points dropped from a, b_g1, b_g2); code is ours.
 */
#include "groth16/setup.h"

#include <blake2.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "util/parallel.h"
#include "util/clock.h"
#include "util/progress.h"

/* ---------------------------------------------------------------- toxic waste */

static int fr_from_32_random(fr_t *r, uint8_t b[32]) {
    b[31] &= 0x3f; /* < 2^254 < r: canonical without reduction */
    if (fr_from_le_bytes(r, b) != 0) return -1;
    return fr_is_zero(r) ? -1 : 0;
}

pm_status groth16_toxic_draw(groth16_toxic_t *t, const uint64_t *seed, pm_error *err) {
    static const char *names[5] = {"tau", "alpha", "beta", "gamma", "delta"};
    fr_t *out[5] = {&t->tau, &t->alpha, &t->beta, &t->gamma, &t->delta};
    for (int i = 0; i < 5; i++) {
        for (uint32_t attempt = 0;; attempt++) {
            uint8_t b[64];
            if (seed) {
                uint8_t msg[64];
                size_t len = 0;
                memcpy(msg, "proofmill-setup", 15);
                len = 15;
                for (int k = 0; k < 8; k++) msg[len++] = (uint8_t)(*seed >> (8 * k));
                for (int k = 0; k < 4; k++) msg[len++] = (uint8_t)(attempt >> (8 * k));
                size_t nl = strlen(names[i]);
                memcpy(msg + len, names[i], nl);
                len += nl;
                if (blake2b(b, msg, NULL, 64, len, 0) != 0)
                    return pm_error_set(err, PM_ERR_INTERNAL, "", PM_NO_OFFSET, "blake2b failed");
            } else {
                size_t got = 0;
                while (got < 32) {
                    ssize_t k = getrandom(b + got, 32 - got, 0);
                    if (k < 0) {
                        if (errno == EINTR) continue;
                        return pm_error_set(err, PM_ERR_IO, "", PM_NO_OFFSET, "getrandom: %s",
                                            strerror(errno));
                    }
                    got += (size_t)k;
                }
            }
            if (fr_from_32_random(out[i], b) == 0) break;
        }
    }
    return PM_OK;
}

/* ---------------------------------------------------------------- fixed-base tables */

#define FB_DEFINE(G, JAC, AFF)                                                                    \
    pm_status G##_fixed_base_init(G##_fixed_base_t *fb, const AFF *base, unsigned w,              \
                                  pm_error *err) {                                                \
        memset(fb, 0, sizeof *fb);                                                                \
        if (w < 1 || w > 16)                                                                      \
            return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "window %u not in 1..16", w);  \
        unsigned nw = (256 + w - 1) / w;                                                          \
        size_t per = (size_t)1 << w, total = (size_t)nw * per;                                    \
        JAC *tj = malloc(total * sizeof *tj);                                                     \
        fb->t = malloc(total * sizeof *fb->t);                                                    \
        if (!tj || !fb->t) {                                                                      \
            free(tj);                                                                             \
            free(fb->t);                                                                          \
            fb->t = NULL;                                                                         \
            return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "fixed-base table");         \
        }                                                                                         \
        /* bases 2^(w k) * base sequentially (w doublings each), then the rows in parallel */  \
        JAC *bases = malloc((size_t)nw * sizeof *bases);                                          \
        if (!bases) {                                                                             \
            free(tj);                                                                             \
            free(fb->t);                                                                          \
            fb->t = NULL;                                                                         \
            return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "fixed-base table");         \
        }                                                                                         \
        G##_jac_from_affine(&bases[0], base);                                                     \
        for (unsigned k = 1; k < nw; k++) {                                                       \
            bases[k] = bases[k - 1];                                                              \
            for (unsigned i = 0; i < w; i++) G##_jac_dbl(&bases[k], &bases[k]);                   \
        }                                                                                         \
        PM_OMP(parallel for schedule(dynamic, 1))                                                 \
        for (unsigned k = 0; k < nw; k++) {                                                       \
            JAC *row = tj + (size_t)k * per;                                                      \
            G##_jac_set_infinity(&row[0]);                                                        \
            row[1] = bases[k];                                                                    \
            for (size_t d = 2; d < per; d++) G##_jac_add(&row[d], &row[d - 1], &bases[k]);       \
            G##_jacs_to_affine(fb->t + (size_t)k * per, row, per);                                \
        }                                                                                         \
        free(bases);                                                                              \
        free(tj);                                                                                 \
        fb->w = w;                                                                                \
        fb->n_windows = nw;                                                                       \
        return PM_OK;                                                                             \
    }                                                                                             \
    void G##_fixed_base_free(G##_fixed_base_t *fb) {                                              \
        free(fb->t);                                                                              \
        memset(fb, 0, sizeof *fb);                                                                \
    }                                                                                             \
    static void G##_fixed_base_mul1(JAC *r, const G##_fixed_base_t *fb, const fr_t *k) {          \
        fr_t p;                                                                                   \
        fr_from_mont(&p, k);                                                                      \
        G##_jac_set_infinity(r);                                                                  \
        size_t per = (size_t)1 << fb->w;                                                          \
        for (unsigned i = 0; i < fb->n_windows; i++) {                                            \
            unsigned bit = i * fb->w, limb = bit / 64, off = bit % 64;                            \
            uint64_t d = p.l[limb] >> off;                                                        \
            if (off + fb->w > 64 && limb + 1 < 4) d |= p.l[limb + 1] << (64 - off);               \
            d &= per - 1;                                                                         \
            if (d) G##_jac_add_affine(r, r, &fb->t[(size_t)i * per + d]);                         \
        }                                                                                         \
    }                                                                                             \
    pm_status G##_fixed_base_mul_many_vartime(AFF *out, size_t n, const G##_fixed_base_t *fb,     \
                                              const fr_t *k, pm_error *err) {                     \
        const size_t chunk = 1024;                                                                \
        size_t nchunks = (n + chunk - 1) / chunk;                                                 \
        int fail = 0;                                                                             \
        PM_OMP(parallel for schedule(dynamic, 1))                                                 \
        for (size_t c = 0; c < nchunks; c++) {                                                    \
            if (fail) continue;                                                                   \
            size_t lo = c * chunk, hi = lo + chunk < n ? lo + chunk : n;                          \
            JAC *tmp = malloc((hi - lo) * sizeof *tmp);                                           \
            if (!tmp) {                                                                           \
                fail = 1;                                                                         \
                continue;                                                                         \
            }                                                                                     \
            for (size_t i = lo; i < hi; i++) G##_fixed_base_mul1(&tmp[i - lo], fb, &k[i]);        \
            G##_jacs_to_affine(out + lo, tmp, hi - lo);                                           \
            free(tmp);                                                                            \
            pm_progress_add(hi - lo);                                                             \
        }                                                                                         \
        if (fail) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "fixed-base chunk");   \
        return PM_OK;                                                                             \
    }

FB_DEFINE(g1, g1_jac_t, g1_affine_t)
FB_DEFINE(g2, g2_jac_t, g2_affine_t)

/* ---------------------------------------------------------------- QAP at tau */

/* The QAP at tau runs on every core (it was one thread: 50.7 s of the 32 GiB setup on the H200
 * host's 16 cores). Work at 2^27 rows: 2^27 multiplications for the powers of omega, 3 per row
 * for the batch inversion plus 2 for the Lagrange factors, and one per non-unit coefficient term of
 * A, B and C. Field addition is exact, so the result does not depend on the thread count. */
#define QAP_CHUNK ((size_t)1 << 16)

/* out[i] = omega^i for i < n: each chunk starts from omega^lo (one exponentiation). */
static void powers(fr_t *out, size_t n, const fr_t *omega) {
    const int64_t nch = (int64_t)((n + QAP_CHUNK - 1) / QAP_CHUNK);
    PM_OMP(parallel for schedule(static) if (nch > 1))
    for (int64_t c = 0; c < nch; c++) {
        const size_t lo = (size_t)c * QAP_CHUNK, hi = lo + QAP_CHUNK < n ? lo + QAP_CHUNK : n;
        const uint64_t e = lo;
        fr_t x;
        fr_pow_vartime(&x, omega, &e, 1);
        for (size_t i = lo; i < hi; i++) {
            out[i] = x;
            fr_mul(&x, &x, omega);
        }
    }
}

/* lag[c] = zn * x_c / (tau - x_c) for c < n, x given; zn multiplied in. Returns -1 if tau = x_c.
 * One batch inversion per chunk (scratch: n elements). */
static int lagrange_at(fr_t *lag, const fr_t *x, size_t n, const fr_t *tau, const fr_t *zn,
                       fr_t *scratch) {
    const int64_t nch = (int64_t)((n + QAP_CHUNK - 1) / QAP_CHUNK);
    int bad = 0;
    PM_OMP(parallel for schedule(static) reduction(| : bad) if (nch > 1))
    for (int64_t c = 0; c < nch; c++) {
        const size_t lo = (size_t)c * QAP_CHUNK, hi = lo + QAP_CHUNK < n ? lo + QAP_CHUNK : n;
        int zero = 0;
        for (size_t i = lo; i < hi; i++) {
            fr_sub(&lag[i], tau, &x[i]);
            zero |= fr_is_zero(&lag[i]);
        }
        if (zero) {
            bad |= 1;
            continue;
        }
        fr_batch_inv_vartime(lag + lo, lag + lo, hi - lo, scratch + lo);
        for (size_t i = lo; i < hi; i++) {
            fr_mul(&lag[i], &lag[i], &x[i]);
            fr_mul(&lag[i], &lag[i], zn);
        }
    }
    return bad ? -1 : 0;
}

/* u[col] += coef * lag[row] over the terms of m whose column lies in [lo, hi); a coefficient of 1
 * or -1 costs an addition (Filecoin's circuits are mostly such terms). one1/neg1: dictionary
 * indices of 1 and -1 (UINT32_MAX: none) when m is dictionary-coded. */
static void accumulate_range(fr_t *u, const r1cs_matrix_t *m, const fr_t *lag, uint32_t lo, uint32_t hi,
                             uint32_t one1, uint32_t neg1, const fr_t *m1) {
    for (uint32_t c = 0; c < m->n_rows; c++) {
        for (uint64_t t = m->row_ptr[c]; t < m->row_ptr[c + 1]; t++) {
            const uint32_t j = m->col[t];
            if (j < lo || j >= hi) continue;
            int unit; /* +1, -1, or 0: a general coefficient */
            if (m->coef_idx) unit = m->coef_idx[t] == one1 ? 1 : m->coef_idx[t] == neg1 ? -1 : 0;
            else unit = fr_is_one(&m->coef[t]) ? 1 : fr_eq(&m->coef[t], m1) ? -1 : 0;
            if (unit > 0) fr_add(&u[j], &u[j], &lag[c]);
            else if (unit < 0) fr_sub(&u[j], &u[j], &lag[c]);
            else {
                fr_t p;
                fr_mul(&p, r1cs_coef(m, t), &lag[c]);
                fr_add(&u[j], &u[j], &p);
            }
        }
    }
}

/* u = m^T lag (u: m->n_cols elements, zeroed by the caller). Each thread owns a range of columns
 * (no two threads write one element) and scans every term, acting on its own: the scan reads 4
 * bytes per term per thread, the multiplications are split. The ranges hold equal term counts
 * as far as 2^16 coarse column bins allow (a bin is never split). */
static pm_status accumulate(fr_t *u, const r1cs_matrix_t *m, const fr_t *lag, pm_error *err) {
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    uint32_t one1 = UINT32_MAX, neg1 = UINT32_MAX;
    for (uint32_t i = 0; m->coef_idx && i < m->n_coef_tab; i++) {
        if (one1 == UINT32_MAX && fr_is_one(&m->coef_tab[i])) one1 = i;
        if (neg1 == UINT32_MAX && fr_eq(&m->coef_tab[i], &m1)) neg1 = i;
    }
    const int nt = pm_thread_count();
    if (nt <= 1 || m->nnz < ((uint64_t)1 << 16)) {
        accumulate_range(u, m, lag, 0, m->n_cols, one1, neg1, &m1);
        return PM_OK;
    }
    unsigned shift = 0;
    while (((uint64_t)m->n_cols >> shift) >= ((uint64_t)1 << 16)) shift++;
    const size_t nbins = (size_t)(((uint64_t)m->n_cols >> shift) + 1);
    uint64_t *hist = calloc((size_t)nt * nbins, sizeof *hist);
    uint32_t *bound = malloc(((size_t)nt + 1) * sizeof *bound);
    if (!hist || !bound) {
        free(hist);
        free(bound);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "QAP: column histogram");
    }
    const int64_t nnz = (int64_t)m->nnz;
    PM_OMP(parallel num_threads(nt)) {
        uint64_t *h = hist + (size_t)pm_thread_id() * nbins;
        PM_OMP(for schedule(static))
        for (int64_t t = 0; t < nnz; t++) h[m->col[t] >> shift]++;
    }
    for (int k = 1; k < nt; k++)
        for (size_t b = 0; b < nbins; b++) hist[b] += hist[(size_t)k * nbins + b];
    /* bound[k]: the first column of range k (bin-aligned), bound[nt] = n_cols */
    bound[0] = 0;
    uint64_t acc = 0;
    size_t b = 0;
    for (int k = 1; k < nt; k++) {
        const uint64_t goal = m->nnz / (uint64_t)nt * (uint64_t)k;
        while (b < nbins && acc + hist[b] <= goal) acc += hist[b++];
        uint64_t col = (uint64_t)b << shift;
        bound[k] = col > m->n_cols ? m->n_cols : (uint32_t)col;
        if (bound[k] < bound[k - 1]) bound[k] = bound[k - 1];
    }
    bound[nt] = m->n_cols;
    free(hist);
    PM_OMP(parallel for schedule(dynamic, 1) num_threads(nt))
    for (int k = 0; k < nt; k++)
        if (bound[k] < bound[k + 1]) accumulate_range(u, m, lag, bound[k], bound[k + 1], one1, neg1, &m1);
    free(bound);
    return PM_OK;
}

pm_status groth16_qap_at_tau(fr_t *u, fr_t *v, fr_t *w, fr_t *z_tau, const r1cs_t *cs,
                             unsigned log_n, unsigned gen, const fr_t *tau, pm_error *err) {
    uint32_t npub = r1cs_n_public(cs);
    uint64_t rows = (uint64_t)cs->n_constraints + npub + 1;
    if (log_n > 31 || ((uint64_t)1 << log_n) < rows)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "domain 2^%u too small for %llu rows", log_n,
                            (unsigned long long)rows);
    if (npub + 1 > cs->n_wires)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "nPublic %u >= nWires %u", npub,
                            cs->n_wires);
    uint64_t n = (uint64_t)1 << log_n;
    fr_t g, omega, tn, zn, ninv;
    fr_from_u64(&g, gen);
    if (fr_root_of_unity(&omega, &g, log_n) != 0)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "no root of unity from %u", gen);
    fr_pow_vartime(&tn, tau, &n, 1);
    fr_sub(&zn, &tn, &FR_ONE);
    if (z_tau) *z_tau = zn;
    fr_from_u64(&ninv, n);
    fr_inv_vartime(&ninv, &ninv);
    fr_mul(&zn, &zn, &ninv);

    fr_t *x = malloc(rows * sizeof *x), *lag = malloc(rows * sizeof *lag),
         *scr = malloc(rows * sizeof *scr);
    if (!x || !lag || !scr) {
        free(x);
        free(lag);
        free(scr);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "QAP: %llu rows",
                            (unsigned long long)rows);
    }
    powers(x, rows, &omega);
    int bad = lagrange_at(lag, x, rows, tau, &zn, scr);
    free(x);
    free(scr);
    if (bad) {
        free(lag);
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "tau lies in the evaluation domain; redraw");
    }
    for (uint32_t i = 0; i < cs->n_wires; i++) u[i] = v[i] = w[i] = FR_ZERO;
    pm_status st = accumulate(u, &cs->A, lag, err);
    if (!st) st = accumulate(v, &cs->B, lag, err);
    if (!st) st = accumulate(w, &cs->C, lag, err);
    if (st) {
        free(lag);
        return st;
    }
    for (uint32_t i = 0; i <= npub; i++) fr_add(&u[i], &u[i], &lag[cs->n_constraints + i]);
    free(lag);
    return PM_OK;
}

/* ---------------------------------------------------------------- common key material */

typedef struct {
    g1_fixed_base_t f1;
    g2_fixed_base_t f2;
    const groth16_setup_mul *mul; /* set: the multiplications run there, no CPU tables */
} tables_t;

static unsigned window_for(size_t n_points) {
    /* cost ~ n * ceil(256/w) mixed additions + (256/w) 2^w additions for the table (plus its
     * memory: 2^w * 256/w points, w = 16: 100 MiB in G1, 200 MiB in G2, random reads).
     * w = 8 (32 additions per point) to 2^16 points, 12 (22) to 2^21, then 16 (16). */
    if (n_points <= ((size_t)1 << 16)) return 8;
    if (n_points <= ((size_t)1 << 21)) return 12;
    return 16;
}

static pm_status tables_init(tables_t *tb, size_t n_points, const groth16_setup_mul *mul, pm_error *err) {
    memset(tb, 0, sizeof *tb);
    tb->mul = mul;
    if (mul) return PM_OK;
    unsigned w = window_for(n_points);
    pm_status st = g1_fixed_base_init(&tb->f1, &G1_GENERATOR, w, err);
    if (st) return st;
    st = g2_fixed_base_init(&tb->f2, &G2_GENERATOR, w, err);
    if (st) g1_fixed_base_free(&tb->f1);
    return st;
}

static void tables_free(tables_t *tb) {
    g1_fixed_base_free(&tb->f1);
    g2_fixed_base_free(&tb->f2);
}

/* out[i] = [k_i] G on the setup's engine */
/* out[i] = k[i]·G by the hook or the tables; `stage` names the progress stage (util/progress.h:
 * the CPU tables count their chunks, the hook's batch counts as a whole) */
static pm_status tb_g1(const tables_t *tb, const char *stage, g1_affine_t *out, size_t n, const fr_t *k, pm_error *err) {
    if (!n) return PM_OK;
    pm_progress_stage(stage, n);
    if (!tb->mul) return g1_fixed_base_mul_many_vartime(out, n, &tb->f1, k, err);
    pm_status st = tb->mul->g1_mul(tb->mul->self, out, k, n, err);
    if (!st) pm_progress_add(n);
    return st;
}
static pm_status tb_g2(const tables_t *tb, const char *stage, g2_affine_t *out, size_t n, const fr_t *k, pm_error *err) {
    if (!n) return PM_OK;
    pm_progress_stage(stage, n);
    if (!tb->mul) return g2_fixed_base_mul_many_vartime(out, n, &tb->f2, k, err);
    pm_status st = tb->mul->g2_mul(tb->mul->self, out, k, n, err);
    if (!st) pm_progress_add(n);
    return st;
}

static void g1_mul_gen(g1_affine_t *r, const fr_t *k) {
    g1_jac_t j;
    g1_jac_from_affine(&j, &G1_GENERATOR);
    g1_jac_mul_fr(&j, &j, k);
    g1_jac_to_affine(r, &j);
}

static void g2_mul_gen(g2_affine_t *r, const fr_t *k) {
    g2_jac_t j;
    g2_jac_from_affine(&j, &G2_GENERATOR);
    g2_jac_mul_fr(&j, &j, k);
    g2_jac_to_affine(r, &j);
}

static unsigned log2_ceil(uint64_t x) {
    unsigned k = 0;
    while (((uint64_t)1 << k) < x) k++;
    return k;
}

/* e_i = (beta u_i + alpha v_i + w_i) * inv for i in [lo, hi) into out[i - lo]. */
static void ext_scalars(fr_t *out, const fr_t *u, const fr_t *v, const fr_t *w, size_t lo,
                        size_t hi, const groth16_toxic_t *t, const fr_t *inv) {
    PM_OMP(parallel for schedule(static))
    for (size_t i = lo; i < hi; i++) {
        fr_t a, b;
        fr_mul(&a, &u[i], &t->beta);
        fr_mul(&b, &v[i], &t->alpha);
        fr_add(&a, &a, &b);
        fr_add(&a, &a, &w[i]);
        if (inv) fr_mul(&a, &a, inv);
        out[i - lo] = a;
    }
}

/* Setup allocates about 600 bytes per wire whatever the constraints reference (u, v, w, the
 * A/B1/B2/C points): the header's nWires is bounded like the domain (2^28). */
#define SETUP_MAX_WIRES (1u << 28)

/* ---------------------------------------------------------------- snarkjs */

pm_status groth16_setup_snarkjs(zkey_t *zk, const r1cs_t *cs, const groth16_toxic_t *t,
                                groth16_setup_timings_t *tm, pm_error *err) {
    return groth16_setup_snarkjs_mul(zk, cs, t, NULL, tm, err);
}

pm_status groth16_setup_snarkjs_mul(zkey_t *zk, const r1cs_t *cs, const groth16_toxic_t *t, const groth16_setup_mul *mul,
                                    groth16_setup_timings_t *tm, pm_error *err) {
    double t0 = pm_now_s(), t1 = t0, t2 = t0;
    memset(zk, 0, sizeof *zk);
    uint32_t npub = r1cs_n_public(cs);
    uint64_t N = zkey_domain_size_for(cs->n_constraints, npub);
    if (N == 0 || N > ((uint64_t)1 << 28))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "circuit too large for setup");
    if (cs->n_wires > SETUP_MAX_WIRES)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "nWires = %u: more than setup's limit of 2^28 wires", cs->n_wires);
    unsigned logN = log2_ceil(N);
    size_t nv = cs->n_wires;
    pm_status st = PM_OK;
    fr_t *u = malloc(nv * sizeof *u), *v = malloc(nv * sizeof *v), *w = malloc(nv * sizeof *w);
    fr_t *sc = malloc((N > nv ? N : nv) * sizeof *sc), *scr = malloc(N * sizeof *scr);
    fr_t *x = malloc(N * sizeof *x);
    tables_t tb = {0};
    if (!u || !v || !w || !sc || !scr || !x) {
        st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "setup scratch");
        goto out;
    }
    fr_t ztau;
    pm_progress_stage("QAP at tau", 0);
    st = groth16_qap_at_tau(u, v, w, &ztau, cs, logN, 5, &t->tau, err);
    if (st) goto out;
    t1 = pm_now_s();
    pm_progress_stage("fixed-base tables", 0);
    st = tables_init(&tb, 4 * nv + N, mul, err);
    if (st) goto out;
    t2 = pm_now_s();

    zk->n_vars = (uint32_t)nv;
    zk->n_public = npub;
    zk->domain_size = (uint32_t)N;
    zk->log2_domain = logN;
    zk->n_rows_used = cs->n_constraints + npub + 1;
    g1_mul_gen(&zk->alpha1, &t->alpha);
    g1_mul_gen(&zk->beta1, &t->beta);
    g1_mul_gen(&zk->delta1, &t->delta);
    g2_mul_gen(&zk->beta2, &t->beta);
    zk->gamma2 = G2_GENERATOR;
    g2_mul_gen(&zk->delta2, &t->delta);

    size_t nc = nv - npub - 1;
    zk->ic = malloc((npub + 1) * sizeof *zk->ic);
    zk->a = malloc(nv * sizeof *zk->a);
    zk->b1 = malloc(nv * sizeof *zk->b1);
    zk->b2 = malloc(nv * sizeof *zk->b2);
    zk->c = malloc((nc ? nc : 1) * sizeof *zk->c);
    zk->h = malloc(N * sizeof *zk->h);
    uint64_t ncoef = cs->A.nnz + cs->B.nnz + npub + 1;
    zk->coefs = malloc(ncoef * sizeof *zk->coefs);
    if (!zk->ic || !zk->a || !zk->b1 || !zk->b2 || !zk->c || !zk->h || !zk->coefs) {
        st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "zkey arrays");
        goto out;
    }
    if ((st = tb_g1(&tb, "A (G1)", zk->a, nv, u, err))) goto out;
    if ((st = tb_g1(&tb, "B1 (G1)", zk->b1, nv, v, err))) goto out;
    if ((st = tb_g2(&tb, "B2 (G2)", zk->b2, nv, v, err))) goto out;
    ext_scalars(sc, u, v, w, 0, npub + 1, t, NULL); /* gamma = 1 */
    if ((st = tb_g1(&tb, "IC (G1)", zk->ic, npub + 1, sc, err))) goto out;
    fr_t dinv;
    fr_inv_vartime(&dinv, &t->delta);
    ext_scalars(sc, u, v, w, npub + 1, nv, t, &dinv);
    if ((st = tb_g1(&tb, "C (G1)", zk->c, nc, sc, err))) goto out;

    /* H_j = L^{(2N)}_{2j+1}(tau) / delta: x_j = w2^(2j+1), zn = (tau^2N - 1) / (2N) / delta. */
    {
        fr_t g, w2, w2sq, z2, inv2n;
        uint64_t twoN = 2 * N;
        fr_from_u64(&g, 5);
        fr_root_of_unity(&w2, &g, logN + 1);
        fr_sqr(&w2sq, &w2);
        fr_add(&z2, &ztau, &FR_ONE); /* tau^N */
        fr_sqr(&z2, &z2);
        fr_sub(&z2, &z2, &FR_ONE);
        fr_from_u64(&inv2n, twoN);
        fr_inv_vartime(&inv2n, &inv2n);
        fr_mul(&z2, &z2, &inv2n);
        fr_mul(&z2, &z2, &dinv);
        fr_t xx = w2;
        for (uint64_t j = 0; j < N; j++) {
            x[j] = xx;
            fr_mul(&xx, &xx, &w2sq);
        }
        if (lagrange_at(sc, x, N, &t->tau, &z2, scr) != 0) {
            st = pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "tau on the 2N-domain; redraw");
            goto out;
        }
        if ((st = tb_g1(&tb, "H (G1)", zk->h, N, sc, err))) goto out;
    }

    /* Section 4: per constraint A then B terms, then the input rows; value = coef * R^2. */
    {
        uint64_t k = 0;
        for (uint32_t c = 0; c < cs->n_constraints; c++) {
            for (int m = 0; m < 2; m++) {
                const r1cs_matrix_t *M = m ? &cs->B : &cs->A;
                for (uint64_t q = M->row_ptr[c]; q < M->row_ptr[c + 1]; q++) {
                    zkey_coef_t *e = &zk->coefs[k++];
                    e->matrix = (uint32_t)m;
                    e->constraint = c;
                    e->signal = M->col[q];
                    fr_to_mont(&e->value, r1cs_coef(M, q));
                }
            }
        }
        for (uint32_t i = 0; i <= npub; i++) {
            zkey_coef_t *e = &zk->coefs[k++];
            e->matrix = 0;
            e->constraint = cs->n_constraints + i;
            e->signal = i;
            fr_to_mont(&e->value, &FR_ONE);
        }
        zk->n_coefs = (uint32_t)k;
    }
out:
    if (tm) {
        double te = pm_now_s();
        tm->total = te - t0;
        if (!st) {
            tm->qap = t1 - t0;
            tm->tables = t2 - t1;
            tm->points = te - t2;
        }
    }
    tables_free(&tb);
    free(u);
    free(v);
    free(w);
    free(sc);
    free(scr);
    free(x);
    if (st) zkey_free(zk);
    return st;
}

/* ---------------------------------------------------------------- bellperson */

/* Keep the nonzero scalars of k[0..n) in order; returns the count. */
static size_t compact_nonzero(fr_t *out, const fr_t *k, size_t n) {
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!fr_is_zero(&k[i])) out[m++] = k[i];
    return m;
}

pm_status groth16_setup_bellperson(bp_params_t *p, const r1cs_t *cs, const groth16_toxic_t *t,
                                   groth16_setup_timings_t *tm, pm_error *err) {
    return groth16_setup_bellperson_mul(p, cs, t, NULL, tm, err);
}

pm_status groth16_setup_bellperson_mul(bp_params_t *p, const r1cs_t *cs, const groth16_toxic_t *t,
                                       const groth16_setup_mul *mul, groth16_setup_timings_t *tm, pm_error *err) {
    double t0 = pm_now_s(), t1 = t0, t2 = t0;
    memset(p, 0, sizeof *p);
    uint32_t npub = r1cs_n_public(cs);
    uint64_t rows = (uint64_t)cs->n_constraints + npub + 1;
    unsigned logm = log2_ceil(rows);
    if (logm > 28)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "circuit too large for setup");
    if (cs->n_wires > SETUP_MAX_WIRES)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "nWires = %u: more than setup's limit of 2^28 wires", cs->n_wires);
    uint64_t m = (uint64_t)1 << logm;
    size_t nv = cs->n_wires, ni = npub + 1, na = nv - ni;
    pm_status st = PM_OK;
    fr_t *u = malloc(nv * sizeof *u), *v = malloc(nv * sizeof *v), *w = malloc(nv * sizeof *w);
    fr_t *sc = malloc((m > nv ? m : nv) * sizeof *sc);
    tables_t tb = {0};
    if (!u || !v || !w || !sc) {
        st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "setup scratch");
        goto out;
    }
    fr_t ztau;
    pm_progress_stage("QAP at tau", 0);
    if ((st = groth16_qap_at_tau(u, v, w, &ztau, cs, logm, 7, &t->tau, err))) goto out;
    t1 = pm_now_s();
    pm_progress_stage("fixed-base tables", 0);
    if ((st = tables_init(&tb, 5 * nv + m, mul, err))) goto out;
    t2 = pm_now_s();

    fr_t ginv, dinv;
    fr_inv_vartime(&ginv, &t->gamma);
    fr_inv_vartime(&dinv, &t->delta);
    bp_vk_t *vk = &p->vk;
    g1_mul_gen(&vk->alpha_g1, &t->alpha);
    g1_mul_gen(&vk->beta_g1, &t->beta);
    g1_mul_gen(&vk->delta_g1, &t->delta);
    g2_mul_gen(&vk->beta_g2, &t->beta);
    g2_mul_gen(&vk->gamma_g2, &t->gamma);
    g2_mul_gen(&vk->delta_g2, &t->delta);
    vk->n_ic = ni;
    p->n_h = m - 1;
    p->n_l = na;
    vk->ic = malloc(ni * sizeof *vk->ic);
    p->h = malloc((m - 1 ? m - 1 : 1) * sizeof *p->h);
    p->l = malloc((na ? na : 1) * sizeof *p->l);
    p->a = malloc(nv * sizeof *p->a);
    p->b_g1 = malloc(nv * sizeof *p->b_g1);
    p->b_g2 = malloc(nv * sizeof *p->b_g2);
    if (!vk->ic || !p->h || !p->l || !p->a || !p->b_g1 || !p->b_g2) {
        st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "params arrays");
        goto out;
    }
    /* h_i = tau^i Z(tau) / delta, i < m - 1 */
    {
        fr_t c;
        fr_mul(&c, &ztau, &dinv);
        size_t nth = (size_t)pm_thread_count(), n = m - 1;
        PM_OMP(parallel for schedule(static, 1))
        for (size_t k = 0; k < nth; k++) {
            size_t lo = n * k / nth, hi = n * (k + 1) / nth;
            fr_t x;
            uint64_t e = lo;
            fr_pow_vartime(&x, &t->tau, &e, 1);
            fr_mul(&x, &x, &c);
            for (size_t i = lo; i < hi; i++) {
                sc[i] = x;
                fr_mul(&x, &x, &t->tau);
            }
        }
        if ((st = tb_g1(&tb, "H query (G1)", p->h, n, sc, err))) goto out;
    }
    ext_scalars(sc, u, v, w, 0, ni, t, &ginv);
    if ((st = tb_g1(&tb, "IC (G1)", vk->ic, ni, sc, err))) goto out;
    ext_scalars(sc, u, v, w, ni, nv, t, &dinv);
    for (size_t i = 0; i < na; i++)
        if (fr_is_zero(&sc[i])) {
            st = pm_error_set(err, PM_ERR_FORMAT, "", PM_NO_OFFSET,
                              "wire %zu is unconstrained (bellperson needs a dense L query)",
                              ni + i);
            goto out;
        }
    if ((st = tb_g1(&tb, "L query (G1)", p->l, na, sc, err))) goto out;
    p->n_a = compact_nonzero(sc, u, nv);
    if ((st = tb_g1(&tb, "A query (G1)", p->a, p->n_a, sc, err))) goto out;
    p->n_b_g1 = p->n_b_g2 = compact_nonzero(sc, v, nv);
    if ((st = tb_g1(&tb, "B query (G1)", p->b_g1, p->n_b_g1, sc, err))) goto out;
    if ((st = tb_g2(&tb, "B query (G2)", p->b_g2, p->n_b_g2, sc, err))) goto out;
out:
    if (tm) {
        double te = pm_now_s();
        tm->total = te - t0;
        tm->qap = t1 - t0;
        tm->tables = t2 - t1;
        tm->points = te - t2;
    }
    tables_free(&tb);
    free(u);
    free(v);
    free(w);
    free(sc);
    if (st) params_free(p);
    return st;
}
