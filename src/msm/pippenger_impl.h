/*
 * pippenger_impl.h — the Pippenger MSM written once and stamped out per group (STYLE.md item 6:
 * G1, G2 and a test-only toy group come from this one source). Include it after defining:
 *
 *   MSM_FN(name)        public name of each function, e.g. msm_g1_##name
 *   MSM_API             storage class of those functions (empty, or `static` for the toy)
 *   MSM_AFF, MSM_XYZZ, MSM_JAC   the point types (affine with infinity = all-zero, XYZZ, Jacobian)
 *   MSM_AFF_IS_INF(p)                 1 when affine *p is infinity
 *   MSM_XYZZ_SET_INF(r), MSM_XYZZ_IS_INF(p)
 *   MSM_XYZZ_ADD_AFF(r, a, b), MSM_XYZZ_SUB_AFF(r, a, b)   r = a +/- b (b affine, not infinity)
 *   MSM_XYZZ_ADD(r, a, b), MSM_XYZZ_DBL(r, p), MSM_XYZZ_TO_JAC(r, p)
 *   MSM_JAC_SET_INF(r), MSM_JAC_DBL(r, p), MSM_JAC_ADD(r, a, b), MSM_JAC_ADD_AFF(r, a, b)
 *
 * All group operations must be complete (handle infinity and equal inputs), as curve/g1.h and
 * curve/g2.h promise; the code below still skips infinity where that is cheaper.
 * The algorithm, cost model and scratch contract are documented in msm.h.
 *
 * Scratch layout for (n points of one chunk, T threads, window c), each part 64-byte aligned:
 *   idx       n uint32_t         indices of general scalars (compacted in place per range)
 *   count     T size_t           general scalars per split range
 *   bad       T int              a scalar >= r was seen in the range
 *   ones      T MSM_XYZZ         sum of points whose scalar is 1, per range
 *   partial   256*T MSM_XYZZ     per (window, slice) bucket sums (W <= 256 windows, slices <= T)
 *   thread    T * thread_bytes(c)  per worker: 2^(c-1) XYZZ buckets, or (batch-affine path)
 *                                2^(c-1) affine buckets + state bytes + batch buffers
 *
 * Optional batch-affine bucket accumulation (define MSM_BATCH_AFFINE and the field macros
 * MSM_FE, MSM_FE_ADD, MSM_FE_SUB, MSM_FE_DBL, MSM_FE_NEG, MSM_FE_MUL, MSM_FE_SQR,
 * MSM_FE_IS_ZERO, MSM_FE_EQ, MSM_FE_INV; MSM_AFF must have fields x, y): see batch_task.
 * For an extension field (G2 over Fp2) also define MSM_FE_NORM(n, a) (the norm into the base
 * field type MSM_FB, nonzero for a != 0), MSM_FB_MUL, MSM_FB_INV and MSM_FE_INV_FROM_NORM(r, a,
 * ninv) (r = 1/a given ninv = 1/norm(a), i.e. conj(a) * ninv): the batch inversion then runs
 * on norms in the base field (7 Fp multiplications per element instead of 3 Fp2 = 9).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "msm/msm.h"
#include "msm/msm_internal.h"

#define MSM_CAT_(a, b) a##b
#define MSM_CAT(a, b) MSM_CAT_(a, b)
#define MSM_LOCAL(name) MSM_CAT(MSM_FN(name), _local_)

typedef struct {
    /* inputs */
    const MSM_AFF *points;
    const fr_t *scalars;
    size_t n;
    unsigned c, nwin, slices, ranges;
    /* scratch */
    uint32_t *idx;
    size_t *count;
    int *bad;
    MSM_XYZZ *ones;
    MSM_XYZZ *partial;
    unsigned char *thread_mem; /* per worker: thread_bytes each (bucket arrays, batch buffers) */
    size_t thread_bytes;
    size_t nb;           /* 2^(c-1) for the window width c in use (c <= cmax) */
    size_t ng;           /* general scalars after compaction */
    /* work distribution */
    atomic_uint next;    /* next task */
    atomic_uint worker;  /* next worker slot (bucket array) */
} MSM_LOCAL(ctx);

/* Windows at least this wide use batch-affine accumulation (when compiled in): below it the
 * batches would be small (few buckets) and the shared inversion would not pay. */
#ifndef MSM_BATCH_AFFINE_MIN_C
#define MSM_BATCH_AFFINE_MIN_C 9u
#endif

#ifdef MSM_BATCH_AFFINE
#ifndef MSM_PREFETCH_AHEAD
#define MSM_PREFETCH_AHEAD 16u
#endif
/* One pending bucket update: bucket b += (neg ? -P : P). */
typedef struct {
    uint32_t b, neg;
    const MSM_AFF *p;
} MSM_LOCAL(item);

/* Overflow slots: an update whose bucket is already pending waits for the next batch once; if
 * its bucket is pending again then (a hot bucket: several updates queue for it), it goes into
 * an XYZZ accumulator for that bucket in a small direct-mapped table (slot = bucket mod
 * MSM_OVERFLOW_SLOTS) instead, and waits again only if the slot is held by another bucket.
 * Without this, updates crowding into few buckets (the top window's 1..2^k buckets, or many
 * equal small scalars) would be served one per batch, each batch paying a whole inversion. The
 * slots are folded in at the end as (bucket + 1) * slot (~20 XYZZ operations per used slot). */
#define MSM_OVERFLOW_SLOTS 256u

/* Pending additions per batch for nb buckets: large enough to spread the one inversion
 * (safegcd, a few microseconds) over many additions, small against nb so that few points find
 * their bucket already pending (collision rate ~ K/nb). */
static size_t MSM_LOCAL(batch_cap)(size_t nb) {
    size_t k = nb / 16u;
    if (k > 512u) k = 512u;
    if (k < 16u) k = 16u;
    return k;
}

#ifdef MSM_FE_NORM
#define MSM_BFE MSM_FB   /* type of the batch-inverted values: norms in the base field */
#define MSM_BATCH_NORM(n, d) MSM_FE_NORM(n, d)
#define MSM_BATCH_MUL(r, a, b) MSM_FB_MUL(r, a, b)
#define MSM_BATCH_INV(r, a) MSM_FB_INV(r, a)
#define MSM_BATCH_FINISH(r, d, ninv) MSM_FE_INV_FROM_NORM(r, d, ninv)
#else
#define MSM_BFE MSM_FE
#define MSM_BATCH_NORM(n, d) (*(n) = *(d))
#define MSM_BATCH_MUL(r, a, b) MSM_FE_MUL(r, a, b)
#define MSM_BATCH_INV(r, a) MSM_FE_INV(r, a)
#define MSM_BATCH_FINISH(r, d, inv) (*(r) = *(inv))
#endif

static size_t MSM_LOCAL(batch_bytes)(size_t nb) {
    size_t k = MSM_LOCAL(batch_cap)(nb);
    return msm_align64(nb * sizeof(MSM_AFF)) + msm_align64(nb) + msm_align64(k * sizeof(MSM_FE)) +
           2u * msm_align64(k * sizeof(MSM_BFE)) + 3u * msm_align64(k * sizeof(MSM_LOCAL(item))) +
           2u * msm_align64(k * sizeof(MSM_AFF)) + 2u * msm_align64(k) +
           3u * msm_align64(k * sizeof(void *)) + msm_align64(k * sizeof(size_t)) +
           msm_align64(MSM_OVERFLOW_SLOTS * sizeof(MSM_XYZZ)) +
           msm_align64(MSM_OVERFLOW_SLOTS * sizeof(uint32_t));
}
#endif

/* Per-worker bytes for any window width c' <= c: XYZZ buckets when c' is below the batch-affine
 * threshold, affine buckets + batch buffers from it on (about half the XYZZ size). */
static size_t MSM_LOCAL(thread_bytes)(unsigned c) {
#ifdef MSM_BATCH_AFFINE
    unsigned cx = c < MSM_BATCH_AFFINE_MIN_C ? c : MSM_BATCH_AFFINE_MIN_C - 1u;
    size_t bytes = msm_align64(((size_t)1 << (cx - 1u)) * sizeof(MSM_XYZZ));
    if (c >= MSM_BATCH_AFFINE_MIN_C) {
        size_t bb = MSM_LOCAL(batch_bytes)((size_t)1 << (c - 1u));
        if (bb > bytes) bytes = bb;
    }
#else
    size_t bytes = msm_align64(((size_t)1 << (c - 1u)) * sizeof(MSM_XYZZ));
#endif
    return msm_align64(bytes);
}

/* Byte size of the scratch for n points (one chunk), T threads, c bits. */
static size_t MSM_LOCAL(layout)(MSM_LOCAL(ctx) *x, unsigned char *base, size_t n, unsigned t,
                                unsigned c) {
    size_t off = 0;
    size_t nwin = 256u; /* W(c') for any c' <= c: a smaller c may be used at run time */
#define MSM_PART(field, type, count)                                   \
    do {                                                               \
        if (x) x->field = (type *)(void *)(base + off);                \
        off = msm_align64(off + (size_t)(count) * sizeof(type));       \
    } while (0)
    MSM_PART(idx, uint32_t, n);
    MSM_PART(count, size_t, t);
    MSM_PART(bad, int, t);
    MSM_PART(ones, MSM_XYZZ, t);
    MSM_PART(partial, MSM_XYZZ, nwin * t);
#undef MSM_PART
    size_t per = MSM_LOCAL(thread_bytes)(c);
    if (x) {
        x->thread_mem = base + off;
        x->thread_bytes = per;
    }
    off += per * t;
    return off + 64u; /* slack to align an arbitrary base */
}

MSM_API size_t MSM_FN(scratch_size_window)(size_t n, unsigned threads, unsigned c) {
    if (c > MSM_WINDOW_MAX) return 0;
    if (n > MSM_CHUNK_MAX) n = MSM_CHUNK_MAX;
    if (c == 0) c = msm_window_bits(n);
    return MSM_LOCAL(layout)(NULL, NULL, n, msm_threads_resolve(threads), c);
}

MSM_API size_t MSM_FN(scratch_size)(size_t n, unsigned threads) {
    return MSM_FN(scratch_size_window)(n, threads, 0);
}

/* Split pass over range r of `ranges` equal ranges: skip zero scalars and infinity points,
 * add points with scalar 1 into ones[r], list the rest in idx[range start ..]. */
static void MSM_LOCAL(split_range)(MSM_LOCAL(ctx) *x, unsigned r) {
    size_t lo = x->n * r / x->ranges, hi = x->n * (r + 1u) / x->ranges;
    size_t w = lo;
    int bad = 0;
    MSM_XYZZ acc;
    MSM_XYZZ_SET_INF(&acc);
    for (size_t i = lo; i < hi; i++) {
        const uint64_t *k = x->scalars[i].l;
        uint64_t hi3 = k[1] | k[2] | k[3];
        if (hi3 == 0 && k[0] <= 1u) {
            if (k[0] == 1u && !MSM_AFF_IS_INF(&x->points[i])) MSM_XYZZ_ADD_AFF(&acc, &acc, &x->points[i]);
            continue;
        }
        if (k[3] >= FR_MODULUS.l[3] && msm_scalar_ge_r(&x->scalars[i])) {
            bad = 1;
            continue;
        }
        if (MSM_AFF_IS_INF(&x->points[i])) continue;
        x->idx[w++] = (uint32_t)i;
    }
    x->count[r] = w - lo;
    x->bad[r] = bad;
    x->ones[r] = acc;
}

static void MSM_LOCAL(split_worker)(void *p) {
    MSM_LOCAL(ctx) *x = p;
    for (;;) {
        unsigned r = atomic_fetch_add(&x->next, 1u);
        if (r >= x->ranges) return;
        MSM_LOCAL(split_range)(x, r);
    }
}

/* One task: window j over slice s of the general indices; leaves sum_b b*B_b in partial[]. */
/* Highest bucket count window j can reach: digits are <= 2^(c-1), and in the top window
 * bounded by the bits left above c*j (k < 2^255). */
static size_t MSM_LOCAL(window_buckets)(const MSM_LOCAL(ctx) *x, unsigned j) {
    size_t nb = x->nb;
    unsigned above = 255u > x->c * j ? 255u - x->c * j : 0u; /* bits of k at positions >= cj */
    if (above < x->c) {
        size_t lim = ((size_t)1 << above); /* digit <= 2^above - 1 + carry */
        if (lim < nb) nb = lim;
    }
    return nb;
}

/* XYZZ path: every point is one mixed addition into its bucket (8M + 2S). */
static void MSM_LOCAL(window_task)(MSM_LOCAL(ctx) *x, MSM_XYZZ *bk, unsigned j, unsigned s) {
    const unsigned c = x->c;
    size_t lo = x->ng * s / x->slices, hi = x->ng * (s + 1u) / x->slices;
    size_t nb = MSM_LOCAL(window_buckets)(x, j);
    for (size_t b = 0; b < nb; b++) MSM_XYZZ_SET_INF(&bk[b]);
    const uint32_t *idx = x->idx;
    for (size_t t = lo; t < hi; t++) {
        uint32_t i = idx[t];
        int32_t d = msm_booth_digit(x->scalars[i].l, j, c);
        if (d > 0) MSM_XYZZ_ADD_AFF(&bk[d - 1], &bk[d - 1], &x->points[i]);
        else if (d < 0) MSM_XYZZ_SUB_AFF(&bk[-d - 1], &bk[-d - 1], &x->points[i]);
    }
    /* running sums: sum = B_top + ... + B_b, acc = sum over b of the running sum */
    MSM_XYZZ sum, acc;
    MSM_XYZZ_SET_INF(&sum);
    MSM_XYZZ_SET_INF(&acc);
    for (size_t b = nb; b-- > 0;) {
        if (!MSM_XYZZ_IS_INF(&bk[b])) MSM_XYZZ_ADD(&sum, &sum, &bk[b]);
        if (!MSM_XYZZ_IS_INF(&sum)) MSM_XYZZ_ADD(&acc, &acc, &sum);
    }
    x->partial[(size_t)j * x->slices + s] = acc;
}


#ifdef MSM_BATCH_AFFINE
/* Batch-affine path. Buckets are affine points; additions into them are collected in a batch
 * of up to K pending updates (each to a different bucket), whose denominators x_P - x_B share
 * one inversion by Montgomery's trick (Montgomery 1987, "Speeding the Pollard and elliptic
 * curve methods"). Per addition: 1M prefix product + 2M back pass + 1M slope + 1S + 1M = 5M+1S
 * plus the inversion's 1/K share, against 8M + 2S for the XYZZ mixed addition. A point whose
 * bucket is already pending in the batch waits for the next batch; a point landing in an empty
 * bucket is copied; P = B (doubling) and P = -B are handled at once with their own inversion
 * (rare: repeated points). The reduction is batch-affine too (see the end of batch_task). */
static void MSM_LOCAL(affine_double)(MSM_AFF *B) {
    /* lambda = 3x^2 / 2y; x3 = lambda^2 - 2x; y3 = lambda (x - x3) - y */
    if (MSM_FE_IS_ZERO(&B->y)) { /* 2-torsion: 2B = O (not in the r-torsion, but stay exact) */
        memset(B, 0, sizeof *B);
        return;
    }
    MSM_FE num, den, lam, t, x3;
    MSM_FE_SQR(&num, &B->x);
    MSM_FE_DBL(&t, &num);
    MSM_FE_ADD(&num, &num, &t);
    MSM_FE_DBL(&den, &B->y);
    MSM_FE_INV(&den, &den);
    MSM_FE_MUL(&lam, &num, &den);
    MSM_FE_SQR(&x3, &lam);
    MSM_FE_DBL(&t, &B->x);
    MSM_FE_SUB(&x3, &x3, &t);
    MSM_FE_SUB(&t, &B->x, &x3);
    MSM_FE_MUL(&t, &lam, &t);
    MSM_FE_SUB(&B->y, &t, &B->y);
    B->x = x3;
}

/* dst[i] += src[i] for m pairs with distinct dst, all affine, one shared inversion (the same
 * chord formulas as the accumulation). dfull[i]: dst[i] is a point (1) or empty (0); an empty
 * dst takes a copy of src; dst = src doubles, dst = -src empties. den/nrm/pre: m entries. */
static void MSM_LOCAL(batch_pairs)(MSM_AFF *const *dst, uint8_t *const *dfull,
                                   const MSM_AFF *const *src, size_t m, MSM_FE *den, MSM_BFE *nrm,
                                   MSM_BFE *pre, size_t *q) {
    size_t nq = 0;
    for (size_t i = 0; i < m; i++) {
        MSM_AFF *D = dst[i];
        const MSM_AFF *S = src[i];
        if (!*dfull[i]) {
            *D = *S;
            *dfull[i] = 1;
            continue;
        }
        MSM_FE_SUB(&den[nq], &S->x, &D->x);
        if (MSM_FE_IS_ZERO(&den[nq])) {
            if (MSM_FE_EQ(&S->y, &D->y)) {
                MSM_LOCAL(affine_double)(D);
                if (MSM_AFF_IS_INF(D)) *dfull[i] = 0;
            } else {
                *dfull[i] = 0; /* S = -D */
            }
            continue;
        }
        MSM_BATCH_NORM(&nrm[nq], &den[nq]);
        if (nq) MSM_BATCH_MUL(&pre[nq], &pre[nq - 1], &nrm[nq]);
        else pre[0] = nrm[0];
        q[nq++] = i;
    }
    if (nq == 0) return;
    MSM_BFE inv, ikb;
    MSM_FE ik, lam, x3, u;
    MSM_BATCH_INV(&inv, &pre[nq - 1]);
    for (size_t k = nq; k-- > 0;) {
        if (k > 0) {
            MSM_BATCH_MUL(&ikb, &inv, &pre[k - 1]);
            MSM_BATCH_MUL(&inv, &inv, &nrm[k]);
        } else {
            ikb = inv;
        }
        MSM_BATCH_FINISH(&ik, &den[k], &ikb);
        MSM_AFF *D = dst[q[k]];
        const MSM_AFF *S = src[q[k]];
        MSM_FE_SUB(&u, &S->y, &D->y);
        MSM_FE_MUL(&lam, &u, &ik);
        MSM_FE_SQR(&x3, &lam);
        MSM_FE_SUB(&x3, &x3, &D->x);
        MSM_FE_SUB(&x3, &x3, &S->x);
        MSM_FE_SUB(&u, &D->x, &x3);
        MSM_FE_MUL(&u, &lam, &u);
        MSM_FE_SUB(&D->y, &u, &D->y);
        D->x = x3;
    }
}

static void MSM_LOCAL(batch_task)(MSM_LOCAL(ctx) *x, unsigned char *mem, unsigned j, unsigned s) {
    enum { EMPTY = 0, FULL = 1, PENDING = 2 };
    typedef MSM_LOCAL(item) item_t;
    const unsigned c = x->c;
    size_t lo = x->ng * s / x->slices, hi = x->ng * (s + 1u) / x->slices;
    size_t nb = MSM_LOCAL(window_buckets)(x, j);
    const size_t K = MSM_LOCAL(batch_cap)(x->nb);
    /* carve the worker's memory (sizes as in batch_bytes, for x->nb >= nb) */
    MSM_AFF *bk = (MSM_AFF *)(void *)mem;
    mem += msm_align64(x->nb * sizeof(MSM_AFF));
    uint8_t *st = mem;
    mem += msm_align64(x->nb);
    MSM_FE *den = (MSM_FE *)(void *)mem;             /* x_P - x_B */
    mem += msm_align64(K * sizeof(MSM_FE));
    MSM_BFE *nrm = (MSM_BFE *)(void *)mem;           /* what is inverted: den or its norm */
    mem += msm_align64(K * sizeof(MSM_BFE));
    MSM_BFE *pre = (MSM_BFE *)(void *)mem;           /* prefix products of nrm */
    mem += msm_align64(K * sizeof(MSM_BFE));
    item_t *batch = (item_t *)(void *)mem;
    mem += msm_align64(K * sizeof(item_t));
    item_t *old = (item_t *)(void *)mem;
    mem += msm_align64(K * sizeof(item_t));
    item_t *neu = (item_t *)(void *)mem;
    mem += msm_align64(K * sizeof(item_t));
    MSM_AFF *bsum = (MSM_AFF *)(void *)mem; /* reduction: per-block running sum ... */
    mem += msm_align64(K * sizeof(MSM_AFF));
    MSM_AFF *bacc = (MSM_AFF *)(void *)mem; /* ... and per-block weighted sum */
    mem += msm_align64(K * sizeof(MSM_AFF));
    uint8_t *fsum = mem;
    mem += msm_align64(K);
    uint8_t *facc = mem;
    mem += msm_align64(K);
    MSM_AFF **pd = (MSM_AFF **)(void *)mem;  /* pair lists for batch_pairs: dst, ... */
    mem += msm_align64(K * sizeof(void *));
    const MSM_AFF **ps = (const MSM_AFF **)(void *)mem; /* ... src, ... */
    mem += msm_align64(K * sizeof(void *));
    uint8_t **pf = (uint8_t **)(void *)mem;  /* ... dst's full flag */
    mem += msm_align64(K * sizeof(void *));
    size_t *qidx = (size_t *)(void *)mem;
    mem += msm_align64(K * sizeof(size_t));
    MSM_XYZZ *ov = (MSM_XYZZ *)(void *)mem; /* overflow slots and their tags (bucket + 1) */
    mem += msm_align64(MSM_OVERFLOW_SLOTS * sizeof(MSM_XYZZ));
    uint32_t *ovtag = (uint32_t *)(void *)mem;

    memset(st, EMPTY, nb);
    memset(ovtag, 0, MSM_OVERFLOW_SLOTS * sizeof(uint32_t));
    const uint32_t *idx = x->idx;
    size_t t = lo, nold = 0;
    while (t < hi || nold > 0) {
        size_t nbat = 0, nnew = 0;
        /* place one update: copy into an empty bucket, defer if pending, else queue it */
#define MSM_PLACE(IT, OLD)                                                                     \
    do {                                                                                       \
        const item_t it_ = (IT);                                                               \
        MSM_AFF *B_ = &bk[it_.b];                                                              \
        if (st[it_.b] == EMPTY) {                                                              \
            B_->x = it_.p->x;                                                                  \
            if (it_.neg) MSM_FE_NEG(&B_->y, &it_.p->y);                                        \
            else B_->y = it_.p->y;                                                             \
            st[it_.b] = FULL;                                                                  \
        } else if (st[it_.b] == PENDING) {                                                     \
            uint32_t sl_ = it_.b & (MSM_OVERFLOW_SLOTS - 1u);                                  \
            if ((OLD) && ovtag[sl_] == 0) {                                                    \
                ovtag[sl_] = it_.b + 1u;                                                       \
                MSM_XYZZ_SET_INF(&ov[sl_]);                                                    \
            }                                                                                  \
            if ((OLD) && ovtag[sl_] == it_.b + 1u) {                                           \
                if (it_.neg) MSM_XYZZ_SUB_AFF(&ov[sl_], &ov[sl_], it_.p);                      \
                else MSM_XYZZ_ADD_AFF(&ov[sl_], &ov[sl_], it_.p);                              \
            } else {                                                                           \
                neu[nnew++] = it_;                                                             \
            }                                                                                  \
        } else {                                                                               \
            MSM_FE_SUB(&den[nbat], &it_.p->x, &B_->x);                                         \
            if (MSM_FE_IS_ZERO(&den[nbat])) {                                                  \
                MSM_FE yp_;                                                                    \
                if (it_.neg) MSM_FE_NEG(&yp_, &it_.p->y);                                      \
                else yp_ = it_.p->y;                                                           \
                if (MSM_FE_EQ(&yp_, &B_->y)) {                                                 \
                    MSM_LOCAL(affine_double)(B_);                                              \
                    if (MSM_AFF_IS_INF(B_)) st[it_.b] = EMPTY;                                 \
                } else {                                                                       \
                    st[it_.b] = EMPTY; /* P = -B */                                            \
                }                                                                              \
            } else {                                                                           \
                MSM_BATCH_NORM(&nrm[nbat], &den[nbat]);                                        \
                if (nbat) MSM_BATCH_MUL(&pre[nbat], &pre[nbat - 1], &nrm[nbat]);               \
                else pre[0] = nrm[0];                                                          \
                batch[nbat++] = it_;                                                           \
                st[it_.b] = PENDING;                                                           \
            }                                                                                  \
        }                                                                                      \
    } while (0)
        for (size_t o = 0; o < nold; o++) MSM_PLACE(old[o], 1);
        while (t < hi && nbat < K && nnew < K) {
            /* Bucket and point loads are random-access (buckets: up to 3 MiB for G1 at c = 16):
             * prefetch them MSM_PREFETCH_AHEAD items ahead (the digit is recomputed then). */
            if (t + MSM_PREFETCH_AHEAD < hi) {
                uint32_t ia = idx[t + MSM_PREFETCH_AHEAD];
                int32_t da = msm_booth_digit(x->scalars[ia].l, j, c);
                size_t ba = (size_t)(da > 0 ? da - 1 : -da - 1);
                __builtin_prefetch(&x->points[ia]);
                if (da) { /* x of a bucket may straddle two cache lines: fetch both ends */
                    __builtin_prefetch(&bk[ba]);
                    __builtin_prefetch((const char *)&bk[ba] + sizeof(bk[ba].x) - 1u);
                    __builtin_prefetch(&st[ba]);
                }
            }
            uint32_t i = idx[t++];
            int32_t d = msm_booth_digit(x->scalars[i].l, j, c);
            if (d == 0) continue;
            item_t it = {(uint32_t)(d > 0 ? d - 1 : -d - 1), d < 0, &x->points[i]};
            MSM_PLACE(it, 0);
        }
#undef MSM_PLACE
        if (nbat > 0) {
            MSM_BFE inv, ikb;
            MSM_FE ik, lam, x3, u;
            MSM_BATCH_INV(&inv, &pre[nbat - 1]);
            for (size_t k = nbat; k-- > 0;) {
                if (k > 0) {
                    MSM_BATCH_MUL(&ikb, &inv, &pre[k - 1]);
                    MSM_BATCH_MUL(&inv, &inv, &nrm[k]);
                } else {
                    ikb = inv;
                }
                MSM_BATCH_FINISH(&ik, &den[k], &ikb); /* ik = 1 / den[k] */
                const item_t *it = &batch[k];
                MSM_AFF *B = &bk[it->b];
                /* For -P (neg) the slope is -(yP + yB)/(xP - xB): work with lam' = -lam, which
                 * leaves lam^2 alone and flips the sign of (xB - x3); no negation needed. */
                if (it->neg) MSM_FE_ADD(&u, &it->p->y, &B->y);
                else MSM_FE_SUB(&u, &it->p->y, &B->y);
                MSM_FE_MUL(&lam, &u, &ik);          /* +-(y_P' - yB) / (xP - xB) */
                MSM_FE_SQR(&x3, &lam);
                MSM_FE_SUB(&x3, &x3, &B->x);
                MSM_FE_SUB(&x3, &x3, &it->p->x);    /* x3 = lam^2 - xB - xP */
                if (it->neg) MSM_FE_SUB(&u, &x3, &B->x);
                else MSM_FE_SUB(&u, &B->x, &x3);
                MSM_FE_MUL(&u, &lam, &u);
                MSM_FE_SUB(&B->y, &u, &B->y);       /* y3 = lam (xB - x3) - yB */
                B->x = x3;
                st[it->b] = FULL;
            }
        }
        item_t *sw = old;
        old = neu;
        neu = sw;
        nold = nnew;
    }
    /* Reduction S = sum_b (b+1) B_b, batch-affine: the nb buckets are cut into L blocks of h
     * (L <= K); block t runs its own running sum (sum_t) and weighted sum (acc_t, local weights
     * 1..h) from its top bucket down, all L blocks advancing together so that each step is two
     * batches of L affine additions sharing one inversion each (2 * 6M per bucket instead of
     * the 10M + 14M of the XYZZ running sums). Then S = sum_t acc_t + h * sum_t t * sum_t, the
     * last sum by XYZZ running sums over the L blocks. */
    size_t h = (nb + K - 1u) / K, L = (nb + h - 1u) / h;
    memset(fsum, 0, L);
    memset(facc, 0, L);
    for (size_t i = h; i-- > 0;) {
        size_t m = 0; /* sum_t += B_{t*h+i} */
        for (size_t t = 0; t < L; t++) {
            size_t b = t * h + i;
            if (b < nb && st[b] != EMPTY) {
                pd[m] = &bsum[t];
                ps[m] = &bk[b];
                pf[m++] = &fsum[t];
            }
        }
        MSM_LOCAL(batch_pairs)(pd, pf, ps, m, den, nrm, pre, qidx);
        m = 0; /* acc_t += sum_t */
        for (size_t t = 0; t < L; t++) {
            if (fsum[t]) {
                pd[m] = &bacc[t];
                ps[m] = &bsum[t];
                pf[m++] = &facc[t];
            }
        }
        MSM_LOCAL(batch_pairs)(pd, pf, ps, m, den, nrm, pre, qidx);
    }
    MSM_XYZZ run, tot, acc;
    MSM_XYZZ_SET_INF(&run);
    MSM_XYZZ_SET_INF(&tot);
    MSM_XYZZ_SET_INF(&acc);
    for (size_t t = L; t-- > 1;) { /* tot = sum_t t * sum_t */
        if (fsum[t]) MSM_XYZZ_ADD_AFF(&run, &run, &bsum[t]);
        if (!MSM_XYZZ_IS_INF(&run)) MSM_XYZZ_ADD(&tot, &tot, &run);
    }
    if (!MSM_XYZZ_IS_INF(&tot)) { /* tot *= h by double-and-add (h is small) */
        MSM_XYZZ base = tot;
        int top = 63;
        while (top > 0 && !((h >> top) & 1u)) top--;
        for (int bit = top - 1; bit >= 0; bit--) {
            MSM_XYZZ_DBL(&tot, &tot);
            if ((h >> bit) & 1u) MSM_XYZZ_ADD(&tot, &tot, &base);
        }
    }
    for (size_t t = 0; t < L; t++)
        if (facc[t]) MSM_XYZZ_ADD_AFF(&acc, &acc, &bacc[t]);
    if (!MSM_XYZZ_IS_INF(&tot)) MSM_XYZZ_ADD(&acc, &acc, &tot);
    for (size_t sl = 0; sl < MSM_OVERFLOW_SLOTS; sl++) { /* acc += (bucket + 1) * slot */
        if (ovtag[sl] == 0 || MSM_XYZZ_IS_INF(&ov[sl])) continue;
        uint32_t w = ovtag[sl];
        MSM_XYZZ r = ov[sl];
        int top = 31;
        while (top > 0 && !((w >> top) & 1u)) top--;
        for (int bit = top - 1; bit >= 0; bit--) {
            MSM_XYZZ_DBL(&r, &r);
            if ((w >> bit) & 1u) MSM_XYZZ_ADD(&r, &r, &ov[sl]);
        }
        MSM_XYZZ_ADD(&acc, &acc, &r);
    }
    x->partial[(size_t)j * x->slices + s] = acc;
}
#endif

static void MSM_LOCAL(window_worker)(void *p) {
    MSM_LOCAL(ctx) *x = p;
    unsigned me = atomic_fetch_add(&x->worker, 1u);
    unsigned char *mem = x->thread_mem + (size_t)me * x->thread_bytes;
    unsigned tasks = x->nwin * x->slices;
    for (;;) {
        unsigned t = atomic_fetch_add(&x->next, 1u);
        if (t >= tasks) return;
#ifdef MSM_BATCH_AFFINE
        if (x->c >= MSM_BATCH_AFFINE_MIN_C) {
            MSM_LOCAL(batch_task)(x, mem, t / x->slices, t % x->slices);
            continue;
        }
#endif
        MSM_LOCAL(window_task)(x, (MSM_XYZZ *)(void *)mem, t / x->slices, t % x->slices);
    }
}

/* One chunk (n <= MSM_CHUNK_MAX): *out = sum, in XYZZ. Returns PM_ERR_ARG for a scalar >= r. */
static pm_status MSM_LOCAL(chunk)(MSM_XYZZ *out, const MSM_AFF *points, const fr_t *scalars,
                                  size_t n, unsigned threads, unsigned cforce, void *base) {
    MSM_LOCAL(ctx) x;
    memset(&x, 0, sizeof x);
    unsigned cmax = cforce ? cforce : msm_window_bits(n);
    MSM_LOCAL(layout)(&x, base, n, threads, cmax);
    x.points = points;
    x.scalars = scalars;
    x.n = n;
    /* Split pass: ranges of at least 4096 points each so small inputs stay on one thread. */
    unsigned ranges = threads;
    if ((size_t)ranges * 4096u > n) ranges = (unsigned)(n / 4096u);
    if (ranges == 0) ranges = 1;
    x.ranges = ranges;
    atomic_store(&x.next, 0u);
    msm_parallel_run(ranges, MSM_LOCAL(split_worker), &x);
    MSM_XYZZ total;
    MSM_XYZZ_SET_INF(&total);
    size_t ng = 0;
    for (unsigned r = 0; r < ranges; r++) {
        if (x.bad[r]) {
            MSM_XYZZ_SET_INF(out);
            return PM_ERR_ARG;
        }
        size_t lo = n * r / ranges;
        if (lo != ng) memmove(x.idx + ng, x.idx + lo, x.count[r] * sizeof(uint32_t));
        ng += x.count[r];
        if (!MSM_XYZZ_IS_INF(&x.ones[r])) MSM_XYZZ_ADD(&total, &total, &x.ones[r]);
    }
    x.ng = ng;
    if (ng > 0) {
        /* Window width and slices for the general points; c never above what the scratch was
         * sized for (cmax). A forced c is kept; only the slices are chosen then. */
        unsigned workers = threads;
        if ((size_t)workers * 64u > ng) workers = (unsigned)(ng / 64u);
        if (workers == 0) workers = 1;
        unsigned c, slices;
        if (cforce) {
            c = cforce;
            slices = msm_pick_slices(ng, c, workers);
        } else {
            msm_plan(ng, workers, cmax, &c, &slices);
        }
        x.c = c;
        x.nwin = msm_num_windows(c);
        x.nb = (size_t)1 << (c - 1u); /* c <= cmax: fits the per-worker memory */
        x.slices = slices;
        atomic_store(&x.next, 0u);
        atomic_store(&x.worker, 0u);
        unsigned tasks = x.nwin * x.slices;
        msm_parallel_run(workers < tasks ? workers : tasks, MSM_LOCAL(window_worker), &x);
        /* combine windows from the top: total_w = total_{w+1} * 2^c + S_w */
        MSM_XYZZ win;
        MSM_XYZZ_SET_INF(&win);
        for (unsigned j = x.nwin; j-- > 0;) {
            if (!MSM_XYZZ_IS_INF(&win))
                for (unsigned b = 0; b < c; b++) MSM_XYZZ_DBL(&win, &win);
            for (unsigned s = 0; s < x.slices; s++) {
                const MSM_XYZZ *p = &x.partial[(size_t)j * x.slices + s];
                if (!MSM_XYZZ_IS_INF(p)) MSM_XYZZ_ADD(&win, &win, p);
            }
        }
        if (!MSM_XYZZ_IS_INF(&win)) MSM_XYZZ_ADD(&total, &total, &win);
    }
    *out = total;
    return PM_OK;
}

MSM_API pm_status MSM_FN(vartime_window)(MSM_JAC *r, const MSM_AFF *points, const fr_t *scalars,
                                         size_t n, unsigned threads, unsigned c, void *scratch,
                                         size_t scratch_size) {
    if (!r) return PM_ERR_ARG;
    MSM_JAC_SET_INF(r);
    if (n == 0) return PM_OK;
    if (!points || !scalars || c > MSM_WINDOW_MAX) return PM_ERR_ARG;
    unsigned t = msm_threads_resolve(threads);
    size_t need = MSM_FN(scratch_size_window)(n, threads, c);
    void *mine = NULL;
    if (!scratch) {
        mine = malloc(need);
        if (!mine) return PM_ERR_NOMEM;
        scratch = mine;
    } else if (scratch_size < need) {
        return PM_ERR_ARG;
    }
    unsigned char *base = (unsigned char *)(((uintptr_t)scratch + 63u) & ~(uintptr_t)63u);
    MSM_XYZZ total, part;
    MSM_XYZZ_SET_INF(&total);
    pm_status st = PM_OK;
    for (size_t off = 0; off < n; off += MSM_CHUNK_MAX) {
        size_t m = n - off < MSM_CHUNK_MAX ? n - off : MSM_CHUNK_MAX;
        unsigned cc = c;
        if (cc == 0 && n > MSM_CHUNK_MAX) cc = msm_window_bits(MSM_CHUNK_MAX);
        st = MSM_LOCAL(chunk)(&part, points + off, scalars + off, m, t, cc, base);
        if (st != PM_OK) break;
        if (!MSM_XYZZ_IS_INF(&part)) MSM_XYZZ_ADD(&total, &total, &part);
    }
    free(mine);
    if (st != PM_OK) return st;
    MSM_XYZZ_TO_JAC(r, &total);
    return PM_OK;
}

MSM_API pm_status MSM_FN(vartime_with_scratch)(MSM_JAC *r, const MSM_AFF *points,
                                               const fr_t *scalars, size_t n, unsigned threads,
                                               void *scratch, size_t scratch_size) {
    if (!scratch && n > 0) {
        if (r) MSM_JAC_SET_INF(r);
        return PM_ERR_ARG;
    }
    return MSM_FN(vartime_window)(r, points, scalars, n, threads, 0, scratch, scratch_size);
}

MSM_API pm_status MSM_FN(vartime)(MSM_JAC *r, const MSM_AFF *points, const fr_t *scalars,
                                  size_t n, unsigned threads) {
    return MSM_FN(vartime_window)(r, points, scalars, n, threads, 0, NULL, 0);
}

/* Reference: left-to-right double-and-add per point over all 256 bits, summed. */
MSM_API void MSM_FN(naive_vartime)(MSM_JAC *r, const MSM_AFF *points, const fr_t *scalars,
                                   size_t n) {
    MSM_JAC_SET_INF(r);
    for (size_t i = 0; i < n; i++) {
        MSM_JAC acc;
        MSM_JAC_SET_INF(&acc);
        for (int bit = 255; bit >= 0; bit--) {
            MSM_JAC_DBL(&acc, &acc);
            if ((scalars[i].l[bit >> 6] >> (bit & 63)) & 1u) MSM_JAC_ADD_AFF(&acc, &acc, &points[i]);
        }
        MSM_JAC_ADD(r, r, &acc);
    }
}

#undef MSM_LOCAL
#undef MSM_CAT
#undef MSM_CAT_
