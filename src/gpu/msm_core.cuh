/*
 * msm_core.cuh — the Pippenger MSM of the device, written once for G1 and G2 and once for both
 * executors (msm_exec.cuh): the per-element functors and the driver msm_run<G, Ex> (internal to
 * src/gpu; msm.cu instantiates it with exec_dev for the C API, tests/gpu/test_gpu_msm_host.cu with
 * exec_host against the CPU MSM).
 *
 * r = sum_i [k_i] P_i over n affine bases and plain scalars k_i < r. Steps:
 *  1. Scalars in: host scalars are copied in chunks on the side stream, each chunk is converted
 *     out of Montgomery form if asked and classified while the next one is in flight (with
 *     witness-like scalars the points are summed in parts, steps 2-5 for each part as soon as its
 *     scalars are in, under the copies of the next parts: msm_tune_t::parts); or gathered
 *     on the device from a full witness through an index list (k_i = w[idx[i]]). The 0/1 split:
 *     the indices of general scalars (not 0, not 1) and of scalars equal to 1 are compacted
 *     (cub::DeviceSelect); 0 is dropped.
 *  2. Window c from the number of general scalars n_g: argmin_c W(c) (n_g + rho 2^(c-1)),
 *     W = ceil(256/c), rho = reduction/accumulation cost per bucket (3 for G1, 4 for G2).
 *     Signed digits by Booth recoding of bits [cj-1, cj+c-1] (d in [-2^(c-1), 2^(c-1)]).
 *  3. Per group of windows (as many as fit the item budget): one (key, value) item per nonzero
 *     digit, key = (window, |d|-1), value = point index | sign<<31; radix sort by key (CUB); the
 *     bucket boundaries from the sorted keys (each item writes the starts of the buckets between
 *     its predecessor's key and its own: no atomics).
 *  4. Bucket accumulation in AFFINE coordinates by pairwise rounds: in each round every bucket's
 *     entries are added in pairs (2j, 2j+1) (an odd last one passes through), so a bucket of m
 *     points takes ceil(log2 m) rounds and n_items - n_buckets additions in all. The additions of
 *     a round are spread over a persistent set of lanes; each lane takes chunks of 2k consecutive
 *     entries, and its k additions share ONE field inversion (Montgomery's trick: prefix products
 *     forward, one inversion, two products per element backward; prefix products in a per-lane
 *     scratch, interleaved so a warp's accesses coalesce). Cost per addition: 2M + 1S for the chord
 *     + 3M of the trick + 1/k inversion = 6 Fp products + ~570/k (G1); for G2 the trick runs on
 *     norms in Fp (7 Fp products) + 8 for the chord in Fp2 = 15 + ~570/k. Equal points (P = Q: tangent),
 *     P = -Q and infinity are handled inside the batch (ec_aff_add_prepare). (XYZZ bucket sums
 *     cost 10 Fp products per addition for G1, 28 for G2.) Late rounds, with too few additions to
 *     fill the card (a handful of entries per bucket, or one huge bucket such as the ones), hand
 *     over to an XYZZ tail: tasks of <= 32 entries of one bucket summed by one thread each
 *     (mixed additions), then the partial sums likewise, until one value per bucket.
 *  5. Bucket reduction per window, S = sum_b b B_b, as WS(V) = sum_i i V_i plus sum_i V_i over the
 *     2^(c-1) buckets: segments of L buckets give T_s = sum_t t V_{sL+t} and R_s = sum_t V_{sL+t}
 *     by running sums (2L XYZZ additions, mixed at the first level), and
 *     WS(V) = sum_s T_s + L WS(R), applied recursively: no serial scalar multiple per segment.
 *  6. Host: Horner over the window sums (c doublings each, CPU curve layer) plus the ones bucket.
 * Sources: Pippenger 1976; Bernstein-Doumen-Lange-Oosterwijk 2012 (signed buckets); Montgomery
 * 1987 (simultaneous inversion); EFD xyzz formulas (ec.cuh).
 */
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>
#include "curve/g1.h"
#include "curve/g2.h"
#include "field/fr.h"
#include "gpu/gpu_sizes.h"
#include "util/settings.h"
#include "ec.cuh"
#include "field_inv.cuh"
#include "msm_exec.cuh"

namespace pmgpu {

/* ---------------- scalars ---------------- */
struct scalar_d { uint32_t v[8]; };

PM_HD scalar_d sc_load(const scalar_d *p) {
    const uint4 *q = reinterpret_cast<const uint4 *>(p);
    uint4 a = q[0], b = q[1];
    scalar_d s;
    s.v[0] = a.x; s.v[1] = a.y; s.v[2] = a.z; s.v[3] = a.w; s.v[4] = b.x; s.v[5] = b.y; s.v[6] = b.z; s.v[7] = b.w;
    return s;
}
PM_HD void sc_store(scalar_d *p, const scalar_d &s) {
    uint4 *q = reinterpret_cast<uint4 *>(p);
    uint4 a, b;
    a.x = s.v[0]; a.y = s.v[1]; a.z = s.v[2]; a.w = s.v[3]; b.x = s.v[4]; b.y = s.v[5]; b.z = s.v[6]; b.w = s.v[7];
    q[0] = a; q[1] = b;
}
/* bits [pos, pos+len) of a 256-bit scalar, len <= 31, pos may be -1 or run past bit 255 (zeros) */
PM_HD uint32_t sc_bits(const scalar_d &s, int pos, int len) {
    uint64_t acc = 0;
    int lo = pos < 0 ? 0 : pos;
    int w = lo >> 5;
    if (w < 8) acc = s.v[w];
    if (w + 1 < 8) acc |= (uint64_t)s.v[w + 1] << 32;
    acc >>= (lo & 31);
    uint32_t r = (uint32_t)acc;
    if (pos < 0) r <<= 1; /* bit -1 is zero */
    return r & ((1u << len) - 1u);
}
/* signed digit j of the Booth recoding: d = v + b_{cj-1} - 2^c b_{cj+c-1}; returns |d|, sets neg */
PM_HD uint32_t sc_digit(const scalar_d &s, int j, int c, bool &neg) {
    uint32_t u = sc_bits(s, c * j - 1, c + 1);
    uint32_t top = (u >> c) & 1u;
    uint32_t v = (u >> 1) + (u & 1u);
    if (top) { neg = true; return (1u << c) - v; }
    neg = false;
    return v;
}
/* a Montgomery fr element as the plain integer it stands for */
PM_HD scalar_d sc_from_mont(const scalar_d &s) {
    fr_d a;
    for (int k = 0; k < 8; k++) a.v[k] = s.v[k];
    a = fe_from_mont<fr_params>(a);
    scalar_d r;
    for (int k = 0; k < 8; k++) r.v[k] = a.v[k];
    return r;
}
PM_HD int sc_class(const scalar_d &s) { /* 0: zero, 1: one, 2: other */
    uint32_t hi = s.v[1] | s.v[2] | s.v[3] | s.v[4] | s.v[5] | s.v[6] | s.v[7];
    if (hi) return 2;
    return s.v[0] == 0 ? 0 : (s.v[0] == 1 ? 1 : 2);
}

/* ---------------- groups: device types + the CPU layer for the final combination ---------------- */
struct g1_group {
    typedef fp_d E;
    typedef g1_affine_t cpu_aff;
    typedef g1_xyzz_t cpu_xyzz;
    typedef g1_jac_t cpu_jac;
    static constexpr double rho = 3.0;            /* reduction / accumulation cost per item (window model) */
    static constexpr size_t item_cap = (size_t)1 << 27; /* items per window group at the default budget */
    static void x_inf(cpu_xyzz *r) { g1_xyzz_set_infinity(r); }
    static void x_dbl(cpu_xyzz *r, const cpu_xyzz *p) { g1_xyzz_dbl(r, p); }
    static void x_add(cpu_xyzz *r, const cpu_xyzz *a, const cpu_xyzz *b) { g1_xyzz_add(r, a, b); }
    static void x_from_aff(cpu_xyzz *r, const cpu_aff *p) { g1_xyzz_from_affine(r, p); }
    static void x_to_jac(cpu_jac *r, const cpu_xyzz *p) { g1_xyzz_to_jac(r, p); }
    static void jac_inf(cpu_jac *r) { g1_jac_set_infinity(r); }
    static void jac_add(cpu_jac *r, const cpu_jac *a, const cpu_jac *b) { g1_jac_add(r, a, b); }
};
struct g2_group {
    typedef fp2_d E;
    typedef g2_affine_t cpu_aff;
    typedef g2_xyzz_t cpu_xyzz;
    typedef g2_jac_t cpu_jac;
    static constexpr double rho = 4.0;
    static constexpr size_t item_cap = (size_t)1 << 26;
    static void x_inf(cpu_xyzz *r) { g2_xyzz_set_infinity(r); }
    static void x_dbl(cpu_xyzz *r, const cpu_xyzz *p) { g2_xyzz_dbl(r, p); }
    static void x_add(cpu_xyzz *r, const cpu_xyzz *a, const cpu_xyzz *b) { g2_xyzz_add(r, a, b); }
    static void x_from_aff(cpu_xyzz *r, const cpu_aff *p) { g2_xyzz_from_affine(r, p); }
    static void x_to_jac(cpu_jac *r, const cpu_xyzz *p) { g2_xyzz_to_jac(r, p); }
    static void jac_inf(cpu_jac *r) { g2_jac_set_infinity(r); }
    static void jac_add(cpu_jac *r, const cpu_jac *a, const cpu_jac *b) { g2_jac_add(r, a, b); }
};
static_assert(sizeof(aff_t<fp_d>) == sizeof(g1_affine_t) && sizeof(xyzz_t<fp_d>) == sizeof(g1_xyzz_t), "G1 layout");
static_assert(sizeof(aff_t<fp2_d>) == sizeof(g2_affine_t) && sizeof(xyzz_t<fp2_d>) == sizeof(g2_xyzz_t), "G2 layout");
static_assert(sizeof(scalar_d) == sizeof(fr_t), "scalar layout");

/* ---------------- step 1: scalars ---------------- */
/* dst[i] = conv(src[idx ? idx[i] : i]), conv = out of Montgomery form when mont */
struct f_scalar_in {
    const scalar_d *src;
    scalar_d *dst;
    const uint32_t *idx;
    int mont;
    PM_HD void operator()(size_t i) const {
        scalar_d s = sc_load(src + (idx ? idx[i] : i));
        sc_store(dst + i, mont ? sc_from_mont(s) : s);
    }
};
struct pred_general {
    const scalar_d *sc;
    int split;
    PM_HD bool operator()(uint32_t i) const { return !split || sc_class(sc_load(sc + i)) == 2; }
};
struct pred_one {
    const scalar_d *sc;
    PM_HD bool operator()(uint32_t i) const { return sc_class(sc_load(sc + i)) == 1; }
};

/* ---------------- step 3: items of a window group ---------------- */
struct f_digits {
    const scalar_d *sc;
    const uint32_t *gidx; /* general scalars' indices, NULL = all */
    size_t ng;
    int c, j0, gw;
    uint32_t B, sentinel;
    uint32_t *key, *val;
    PM_HD void operator()(size_t t) const {
        uint32_t idx = gidx ? gidx[t] : (uint32_t)t;
        scalar_d s = sc_load(sc + idx);
        for (int jl = 0; jl < gw; jl++) {
            bool neg;
            uint32_t d = sc_digit(s, j0 + jl, c, neg);
            key[(size_t)jl * ng + t] = d ? (uint32_t)jl * B + d - 1 : sentinel;
            val[(size_t)jl * ng + t] = idx | (neg ? 0x80000000u : 0u);
        }
    }
};
/* off[s] = first position of key >= s in the sorted keys, s <= nseg (keys above nseg count as nseg) */
struct f_bounds {
    const uint32_t *key;
    size_t items;
    uint32_t nseg;
    uint32_t *off;
    PM_HD void operator()(size_t i) const {
        int64_t kp = i ? (int64_t)(key[i - 1] < nseg ? key[i - 1] : nseg) : -1;
        int64_t kc = i < items ? (int64_t)(key[i] < nseg ? key[i] : nseg) : (int64_t)nseg;
        for (int64_t s = kp + 1; s <= kc; s++) off[s] = (uint32_t)i;
    }
};

/* ---------------- step 4: affine accumulation rounds ---------------- */
/* the L2 lines of an affine point (its first and last byte: G1 96 B spans at most 2 lines) */
template <class E> PM_HD void ec_aff_prefetch(const aff_t<E> *p) {
    prefetch_l2(p);
    prefetch_l2(reinterpret_cast<const unsigned char *>(p + 1) - 1);
}
template <class E> struct src_items { /* round 0: entries are items pointing into the bases */
    const uint32_t *items;
    const aff_t<E> *pts;
    PM_HD aff_t<E> get(uint32_t e) const {
        uint32_t it = items[e];
        aff_t<E> p = ec_aff_load(pts + (it & 0x7fffffffu));
        if (it >> 31) p.y = f_neg(p.y);
        return p;
    }
    PM_HD E get_x(uint32_t e) const { return f_load(&pts[items[e] & 0x7fffffffu].x); } /* x alone: the sign only flips y */
    PM_HD void prefetch(uint32_t e) const { ec_aff_prefetch(pts + (items[e] & 0x7fffffffu)); }
};
template <class E> struct src_points {
    const aff_t<E> *pts;
    PM_HD aff_t<E> get(uint32_t e) const { return ec_aff_load(pts + e); }
    PM_HD E get_x(uint32_t e) const { return f_load(&pts[e].x); }
    PM_HD void prefetch(uint32_t e) const { ec_aff_prefetch(pts + e); }
};

/* out[s] = ceil(cnt_s / K), out[nseg] = 0: entries per bucket after a round (K = 2) or tasks per
 * bucket of the XYZZ tail (K = XT_K), for the scan that gives the next offsets */
struct f_ceil_div {
    const uint32_t *off;
    uint32_t nseg, K;
    uint32_t *out;
    PM_HD void operator()(size_t s) const { out[s] = s < nseg ? (off[s + 1] - off[s] + K - 1) / K : 0; }
};

/* the bucket holding entry e: the last s with off[s] <= e (off[nseg] > e) */
PM_HD uint32_t seg_of(const uint32_t *off, uint32_t nseg, uint32_t e) {
    uint32_t lo = 0, hi = nseg;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) >> 1;
        if (off[mid] <= e) lo = mid; else hi = mid;
    }
    return lo;
}

/* flags of the round kernels (their pf member) */
constexpr uint32_t RF_PREFETCH = 1u, RF_DIVSTEPS = 2u;

/* The two halves of a lane's batch of a round (f_round, f_round2). Forward, pair (e, e + 1) -> output out as the
 * lane's np-th pair: the prefix product before it and (e, out) into the lane's scratch slot np ([k][nl] layout),
 * acc *= the pair's denominator (norm). The x coordinates alone suffice unless one is 0 (the point may be infinity)
 * or they are equal (tangent or opposite points). */
template <class E, class Src, class F>
PM_HD void round_fwd_pair(const Src &src, uint32_t e, uint32_t out, F &acc, F *pre, uint2 *info, size_t slot) {
    E x1 = src.get_x(e), x2 = src.get_x(e + 1), den;
    int kind = AFF_CHORD;
    if (f_is_zero(x1) || f_is_zero(x2) || f_eq(x1, x2)) {
        aff_t<E> P = src.get(e), Q = src.get(e + 1);
        kind = ec_aff_add_prepare(P, Q, den);
    } else {
        den = f_sub(x2, x1);
    }
    f_store(pre + slot, acc);
    uint2 inf;
    inf.x = e; inf.y = out;
    info[slot] = inf;
    if (kind <= AFF_TANGENT) acc = f_mul(acc, f_norm(den));
}
/* Backward over the lane's np pairs: one inversion of the product, then each pair's inverse from its prefix
 * product and the chord / tangent into dst; pf: bit 0 (RF_PREFETCH) prefetch the previous pair's points,
 * bit 1 (RF_DIVSTEPS) invert by divsteps (field_inv.cuh) instead of Fermat (the same result). */
template <class E, class Src, class F>
PM_HD void round_bwd(const Src &src, const F &acc, uint32_t np, uint32_t nl, uint32_t lane, const F *pre, const uint2 *info,
                     aff_t<E> *dst, uint32_t pf) {
    F inv = (pf & RF_DIVSTEPS) ? fe_inv_divsteps<fp_params>(acc) : fe_inv_vartime<fp_params>(acc);
    for (uint32_t i = np; i-- > 0;) {
        uint2 inf = info[(size_t)i * nl + lane];
        if ((pf & RF_PREFETCH) && i > 0) { const uint32_t ep = info[(size_t)(i - 1) * nl + lane].x; src.prefetch(ep); src.prefetch(ep + 1); }
        aff_t<E> P = src.get(inf.x), Q = src.get(inf.x + 1);
        E den, den_inv = f_one<E>();
        int kind = ec_aff_add_prepare(P, Q, den);
        if (kind <= AFF_TANGENT) {
            F nrm = f_norm(den);
            F ninv = f_mul(inv, f_load(pre + (size_t)i * nl + lane));
            inv = f_mul(inv, nrm);
            den_inv = f_inv_from_norm(den, ninv);
        }
        ec_aff_store(dst + inf.y, ec_aff_add_finish(P, Q, kind, den_inv));
    }
}

template <class E, class Src> struct f_round {
    typedef typename fbase<E>::type F;
    Src src;
    const uint32_t *off, *off_next;
    uint32_t nseg, total;
    aff_t<E> *dst;
    uint32_t chunk, nchunks, nl; /* chunk = 2k entries, nl lanes */
    F *pre;                      /* [k][nl] prefix products */
    uint2 *info;                 /* [k][nl] (first entry, output position) */
    uint32_t pf;                 /* RF_PREFETCH: the next pair's points into L2 (msm_tune_t::prefetch); RF_DIVSTEPS */
    PM_HD void operator()(size_t lane_) const {
        const uint32_t lane = (uint32_t)lane_;
        for (uint32_t ch = lane; ch < nchunks; ch += nl) {
            uint32_t e = ch * chunk;
            const uint32_t e1 = total - e < chunk ? total : e + chunk;
            uint32_t s = seg_of(off, nseg, e);
            uint32_t lo = off[s], hi = off[s + 1];
            uint32_t np = 0;
            F acc = fe_one<fp_params>();
            /* forward: classify the pairs whose first entry is in the chunk, prefix products */
            while (e < e1) {
                while (e >= hi) { s++; lo = hi; hi = off[s + 1]; }
                uint32_t local = e - lo;
                if (local & 1) { e++; continue; } /* second of a pair owned by the previous chunk */
                uint32_t out = off_next[s] + (local >> 1);
                if ((pf & RF_PREFETCH) && e + 3 < e1) { src.prefetch(e + 2); src.prefetch(e + 3); }
                if (e + 1 < hi) {
                    round_fwd_pair<E>(src, e, out, acc, pre, info, (size_t)np * nl + lane);
                    np++;
                    e += 2;
                } else {
                    ec_aff_store(dst + out, src.get(e));
                    e++;
                }
            }
            if (np) round_bwd<E>(src, acc, np, nl, lane, pre, info, dst, pf);
        }
    }
};

/* ids[o] = the bucket of output o of a round (the last s with off_next[s] <= o), for f_round2 */
struct f_seg_ids {
    const uint32_t *off_next;
    uint32_t nseg;
    uint32_t *ids;
    PM_HD void operator()(size_t o) const { ids[o] = seg_of(off_next, nseg, (uint32_t)o); }
};

/* Round kernel v2 (msm_tune_t::acc = 2): the same pairwise round as f_round, indexed by the round's
 * OUTPUTS: lane l of nl takes outputs o = l, l + nl, ..., l + (k-1) nl (one inversion for its pairs),
 * so the 32 lanes of a warp work on 32 adjacent outputs = 64 adjacent entries at each step (loads
 * and stores of a warp are contiguous runs, where f_round's lanes each walk their own chunk).
 * Output o of bucket s = ids[o] is entries e = off[s] + 2 (o - off_next[s]) and e + 1 (a pass-through
 * when e + 1 is past the bucket). The scratch is f_round's [k][nl] layout. */
template <class E, class Src> struct f_round2 {
    typedef typename fbase<E>::type F;
    Src src;
    const uint32_t *off, *off_next, *ids;
    uint32_t next; /* outputs of the round */
    aff_t<E> *dst;
    uint32_t k, nl;
    F *pre;
    uint2 *info;
    uint32_t pf;
    PM_HD uint32_t entry(uint32_t o, uint32_t &hi) const {
        const uint32_t s = ids[o];
        hi = off[s + 1];
        return off[s] + 2 * (o - off_next[s]);
    }
    PM_HD void operator()(size_t lane_) const {
        const uint32_t lane = (uint32_t)lane_;
        uint32_t np = 0;
        F acc = fe_one<fp_params>();
        uint32_t o = lane, hi = 0;
        uint32_t e = o < next ? entry(o, hi) : 0;
        for (uint32_t i = 0; i < k && o < next; i++) {
            const uint32_t o2 = o + nl;
            uint32_t hi2 = 0, e2 = 0;
            if (i + 1 < k && o2 < next) {
                e2 = entry(o2, hi2);
                if (pf & RF_PREFETCH) { src.prefetch(e2); if (e2 + 1 < hi2) src.prefetch(e2 + 1); }
            }
            if (e + 1 < hi) {
                round_fwd_pair<E>(src, e, o, acc, pre, info, (size_t)np * nl + lane);
                np++;
            } else {
                ec_aff_store(dst + o, src.get(e));
            }
            o = o2; e = e2; hi = hi2;
        }
        if (np) round_bwd<E>(src, acc, np, nl, lane, pre, info, dst, pf);
    }
};

/* bucket s's final value (at most one entry is left), infinity when empty */
template <class E, class Src> struct f_bucket_vals {
    Src src;
    const uint32_t *off;
    aff_t<E> *out;
    PM_HD void operator()(size_t s) const {
        ec_aff_store(out + s, off[s + 1] > off[s] ? src.get(off[s]) : ec_aff_inf<E>());
    }
};


/* XI (msm_tune_t::xinline): the forced-inline copies of the additions (ec.cuh *_i), else real calls */
template <bool XI, class E> PM_HD xyzz_t<E> red_add(const xyzz_t<E> &a, const aff_t<E> &b) {
    if constexpr (XI) return ec_x_add_aff_i(a, b); else return ec_x_add_aff(a, b);
}
template <bool XI, class E> PM_HD xyzz_t<E> red_add(const xyzz_t<E> &a, const xyzz_t<E> &b) {
    if constexpr (XI) return ec_x_add_i(a, b); else return ec_x_add(a, b);
}
template <class E> PM_HD aff_t<E> red_load(const aff_t<E> *p) { return ec_aff_load(p); }
template <class E> PM_HD xyzz_t<E> red_load(const xyzz_t<E> *p) { return ec_x_load(p); }

/* ---- the XYZZ tail of the accumulation ----
 * Once a round would have too few additions to fill the card (late rounds: a few entries per
 * bucket, or one huge bucket such as the ones), the rest is summed in XYZZ without inversions:
 * tasks of at most XT_K entries of one bucket, one thread each (mixed additions), then the same on
 * the partial sums (full additions) until each bucket holds one value. */
constexpr uint32_t XT_K = 32;
template <class E> struct src_xyzz {
    const xyzz_t<E> *p;
    PM_HD xyzz_t<E> get(uint32_t e) const { return ec_x_load(p + e); }
};
template <class E, class Src, bool XI = false> struct f_xtask {
    Src src;
    const uint32_t *off, *toff;
    uint32_t nseg;
    xyzz_t<E> *out;
    PM_HD void operator()(size_t t_) const {
        const uint32_t t = (uint32_t)t_;
        if (t >= toff[nseg]) return; /* a grid sized by a host bound (msm_tail_bounded): no task here */
        const uint32_t s = seg_of(toff, nseg, t);
        const uint32_t start = off[s] + (t - toff[s]) * XT_K, end = off[s + 1];
        const uint32_t stop = end - start < XT_K ? end : start + XT_K;
        xyzz_t<E> acc = ec_x_inf<E>();
        if (XI) { /* inlined additions: the next entry's point is loaded before this addition (no call in between) */
            auto nxt = src.get(start); /* affine (items, a round's points) or XYZZ (a level's tasks) */
            for (uint32_t e = start; e < stop; e++) {
                const auto cur = nxt;
                if (e + 1 < stop) nxt = src.get(e + 1);
                acc = red_add<XI>(acc, cur);
            }
        } else {
            for (uint32_t e = start; e < stop; e++) acc = red_add<XI>(acc, src.get(e));
        }
        ec_x_store(out + t, acc);
    }
};
template <class E> struct f_bucket_xvals {
    const xyzz_t<E> *p;
    const uint32_t *off;
    xyzz_t<E> *out;
    PM_HD void operator()(size_t s) const { ec_x_store(out + s, off[s + 1] > off[s] ? ec_x_load(p + off[s]) : ec_x_inf<E>()); }
};

/* ---------------- step 5: bucket reduction ---------------- */
/* segment g = (window w, segment s) of L values: T = sum_t t V_t, R = sum_t V_t */
template <class E, class In, bool XI = false> struct f_red_seg {
    const In *v;
    size_t m;  /* values per window */
    uint32_t L, S; /* S = m / L segments per window */
    xyzz_t<E> *T, *R;
    PM_HD void operator()(size_t g) const {
        size_t w = g / S, s = g % S;
        const In *base = v + w * m + s * L;
        xyzz_t<E> run = ec_x_inf<E>(), tot = ec_x_inf<E>();
        for (uint32_t t = L - 1; t >= 1; t--) {
            run = red_add<XI>(run, red_load(base + t));
            tot = red_add<XI>(tot, run);
        }
        run = red_add<XI>(run, red_load(base));
        ec_x_store(T + g, tot);
        ec_x_store(R + g, run);
    }
};
/* out[g] = sum of in[g*G .. g*G+G) */
template <class E, bool XI = false> struct f_sum_groups {
    const xyzz_t<E> *in;
    uint32_t G;
    xyzz_t<E> *out;
    PM_HD void operator()(size_t g) const {
        xyzz_t<E> acc = ec_x_load(in + g * G);
        for (uint32_t t = 1; t < G; t++) acc = red_add<XI>(acc, ec_x_load(in + g * G + t));
        ec_x_store(out + g, acc);
    }
};
/* ws[w] = sumT[w] + [2^log_l] ws2[w] */
template <class E> struct f_combine {
    const xyzz_t<E> *sum_t, *ws2;
    int log_l;
    xyzz_t<E> *ws;
    PM_HD void operator()(size_t w) const {
        xyzz_t<E> x = ec_x_load(ws2 + w);
        for (int i = 0; i < log_l; i++) x = ec_x_dbl(x);
        ec_x_store(ws + w, ec_x_add(ec_x_load(sum_t + w), x));
    }
};
/* out[w] = a[w] + b[w] */
template <class E> struct f_add2 {
    const xyzz_t<E> *a, *b;
    xyzz_t<E> *out;
    PM_HD void operator()(size_t w) const { ec_x_store(out + w, ec_x_add(ec_x_load(a + w), ec_x_load(b + w))); }
};

/* dst[i] += src[i]: a chunk's bucket sums folded into the buckets kept across chunks (msm_persist_begin) */
template <class E, class In, bool XI> struct f_fold {
    const In *src;
    xyzz_t<E> *dst;
    PM_HD void operator()(size_t i) const { ec_x_store(dst + i, red_add<XI>(ec_x_load(dst + i), red_load(src + i))); }
};
template <class E> struct f_x_set_inf {
    xyzz_t<E> *dst;
    PM_HD void operator()(size_t i) const { ec_x_store(dst + i, ec_x_inf<E>()); }
};

/* ---------------- the driver ---------------- */
inline unsigned msm_window_bits_for(size_t ng, double rho) { return gpu_sizes_window_bits(ng, rho); } /* gpu_sizes.h */

enum { MSM_SRC_HOST = 0, MSM_SRC_DEVICE = 1 };
/* Run-time variants of the accumulation and reduction, for benchmarks that compare them in one
 * process; msm_tune_from_env reads them at every call (unset = the defaults):
 *   PROOFMILL_GPU_MSM_ACC=2|1     round kernel f_round2 (lanes over adjacent outputs; the default since
 *                                 the H200 run of 2026-12-01 15:09 UTC: 0.89x of f_round's time at G1
 *                                 2^27, 0.74x at G2 2^25, docs/perf/gpu.md "Round 2") or f_round (1)
 *   PROOFMILL_GPU_MSM_PREFETCH=1  L2 prefetch of the next pair's points in the round kernels
 *   PROOFMILL_GPU_MSM_XINLINE=1|0 XYZZ tail and bucket reduction with inlined additions (the tail loads
 *                                 each next point before the addition) or called ones; default (2): inlined
 *                                 for G1 (0.98x of the called ones' time at G1 2^27 uniform, 0.87x at 2^20,
 *                                 0.92x at 2^24 witness-like), called for G2 (inlined: 1.02x at 2^25
 *                                 uniform, 1.06x at 2^20 witness-like), H200 2026-12-02, docs/perf/gpu.md
 *                                 "Round 3"
 *   PROOFMILL_GPU_MSM_TAIL=T      XYZZ tail once a round has fewer than T pairs per lane (default 32;
 *                                 1000000000 = XYZZ only, 1 = affine rounds to the end)
 *   PROOFMILL_GPU_MSM_KMIN=K      at least K pairs per inversion (default 32 with the divstep inversion,
 *                                 128 with Fermat's)
 *   PROOFMILL_GPU_MSM_PARTS=P     host scalars: P >= 2 sums the points in P parts, each as soon as its
 *                                 scalars are in (while the later parts' copies go on), always; 1 never;
 *                                 default (0): MSM_PARTS_AUTO parts from MSM_PARTS_MIN_N points on, a part
 *                                 summed early only while at most a quarter of the scalars seen are general
 *   PROOFMILL_GPU_MSM_INV=1|0     the affine rounds' inversion by divsteps (field_inv.cuh, Bernstein-Yang;
 *                                 default since the H100 run of 2026-12-06: G1 2^27 uniform 0.95x of
 *                                 Fermat's time) or Fermat's 483 products (0); the same bytes
 *                                 (docs/perf/gpu.md "Round 7") */
struct msm_tune_t {
    unsigned acc, prefetch, xinline; /* xinline 2 = by group (msm_xinline) */
    size_t tail, kmin; /* 0 = RND_TAIL, RND_KMIN */
    unsigned parts;     /* 0 = auto, 1 = one part, P >= 2 = P parts always */
    unsigned inv;       /* 1: the rounds' inversions by divsteps (field_inv.cuh), 0: Fermat */
    unsigned tbound;    /* 1: a group too small for the rounds runs the XYZZ tail from host bounds,
                           reading nothing back (msm_tail_bounded); 0: it reads every level's count */
};
/* Host scalars arrive over PCIe (~50 GB/s: 78 ms for 2^27 scalars); with witness-like scalars the sum
 * itself is shorter than that, so the points are summed in parts, each part once its scalars are in,
 * under the copies of the rest (issue #14 round 5). Uniform scalars keep one part (at most a quarter
 * general is the rule): their sum is ~12x the copy, and parts would only shrink the window.
 * Measured on the H200 (docs/perf/gpu.md "Round 5"): 2 parts take G1 2^27 witness-like from 167.7 to
 * 128.4 ms and 2^26 from 82.8 to 75.6; 4, 8, 16 parts lose to 2 (a reduction and a ones bucket per part,
 * a smaller window); at 2^25 2 parts are even, at 2^24 they lose 1.13x (the copy is short there). */
constexpr size_t MSM_PARTS_MIN_N = (size_t)1 << 26, MSM_PARTS_AUTO = 2, MSM_PARTS_MAX = 16;
/* whether the XYZZ tail and the reduction inline their additions for field E */
template <class E> inline bool msm_xinline(const msm_tune_t &t) { return t.xinline == 1 || (t.xinline == 2 && sizeof(E) == sizeof(fp_d)); }
inline msm_tune_t msm_tune_from_env() {
    msm_tune_t t;
    memset(&t, 0, sizeof t);
    /* the settings table (util/settings.c) holds each knob's default, bounds and environment variable */
    t.acc = pm_setting_u64("gpu.msm_acc") == 2 ? 2u : 0u; /* PROOFMILL_GPU_MSM_ACC: f_round2 by default */
    t.prefetch = pm_setting_bool("gpu.msm_prefetch") ? 1u : 0u; /* PROOFMILL_GPU_MSM_PREFETCH */
    /* PROOFMILL_GPU_MSM_XINLINE: 2 (default) inlined for G1, called for G2; 1 inlined; 0 called */
    const uint64_t xi = pm_setting_u64("gpu.msm_xinline");
    t.xinline = xi == 2 ? 2u : xi ? 1u : 0u;
    t.tail = (size_t)pm_setting_u64("gpu.msm_tail");   /* PROOFMILL_GPU_MSM_TAIL */
    t.kmin = (size_t)pm_setting_u64("gpu.msm_kmin");   /* PROOFMILL_GPU_MSM_KMIN, at most 1024 */
    t.parts = (unsigned)pm_setting_u64("gpu.msm_parts"); /* PROOFMILL_GPU_MSM_PARTS */
    t.inv = pm_setting_u64("gpu.msm_inv") == 1 ? 1u : 0u;  /* PROOFMILL_GPU_MSM_INV */
    t.tbound = pm_setting_bool("gpu.msm_tail_bounds") ? 1u : 0u; /* PROOFMILL_GPU_MSM_TAIL_BOUNDS */
    return t;
}
struct msm_args_t {
    const void *pts;        /* n affine bases (device memory of the executor) */
    size_t n;
    const fr_t *scalars;    /* n scalars, or the witness when gather */
    int src;                /* MSM_SRC_HOST / MSM_SRC_DEVICE */
    int mont;               /* scalars in Montgomery form */
    int split;              /* the 0/1 split */
    const uint32_t *gather; /* device index list (n entries) into scalars[0..n_witness), or NULL */
    size_t n_witness;
    unsigned force_c;       /* 0 = cost model */
    void *persist;          /* a chunked MSM's buckets kept across its chunks (msm_persist_begin: W x 2^(force_c - 1)
                               XYZZ points, window-major), or NULL: each window group reduced on its own */
    size_t item_cap;        /* items per window group (memory budget); 0 = the group's default */
    unsigned scalar_chunks; /* host scalars: copies in flight (0 = 16 from 2^16 points on, else 1) */
    size_t parts_min_n;     /* host scalars: automatic parts from this many points on (0 = MSM_PARTS_MIN_N) */
    msm_tune_t tune;        /* variants (zero = default) */
    int times;              /* per-phase device times into msm_stats_t (CUDA events read back: a wait per
                               window group); 0: none, and a chunk returns without waiting for its kernels */
};
struct msm_stats_t {
    float t_scalars, t_sort, t_accum, t_reduce, t_total;
    unsigned c, W, rounds, tail_levels; /* affine rounds, XYZZ tail levels (largest window group) */
    unsigned parts;                     /* parts summed before the last chunk of host scalars (PROOFMILL_GPU_MSM_PARTS) */
    size_t ones, zeros, general;
};

/* the buckets' values: affine (all rounds affine) or XYZZ (the tail ran), one per bucket */
template <class E> struct seg_result { const aff_t<E> *buckets; const xyzz_t<E> *xbuckets; unsigned rounds, tail_levels; };

/* one level of the XYZZ tail: level 0 reads the items (round 0) or the last round's points */
template <class E, bool XI, class Ex>
void xtask_level(Ex &ex, unsigned level, int round, const uint32_t *items, const aff_t<E> *pts, const aff_t<E> *src_pts,
                 const xyzz_t<E> *xp, const uint32_t *off, const uint32_t *toff, uint32_t nseg, uint32_t ntasks, xyzz_t<E> *dst) {
    if (level > 0)
        ex.each(ntasks, f_xtask<E, src_xyzz<E>, XI>{src_xyzz<E>{xp}, off, toff, nseg, dst});
    else if (round == 0)
        ex.each(ntasks, f_xtask<E, src_items<E>, XI>{src_items<E>{items, pts}, off, toff, nseg, dst});
    else
        ex.each(ntasks, f_xtask<E, src_points<E>, XI>{src_points<E>{src_pts}, off, toff, nseg, dst});
}

/* one tail level into its buffer (SLOT_XP0 / SLOT_XP1 by level) of ntasks entries (the exact count,
 * or a bound); the caller checks ex.ok() (an allocation failure), not the pointer: 0 tasks may give NULL */
template <class E, class Ex>
xyzz_t<E> *xtail_step(Ex &ex, unsigned level, int round, const uint32_t *items, const aff_t<E> *pts, const aff_t<E> *src_pts,
                      const xyzz_t<E> *xp, const uint32_t *off, const uint32_t *toff, uint32_t nseg, uint32_t ntasks, const msm_tune_t &tu) {
    xyzz_t<E> *dst = static_cast<xyzz_t<E> *>(ex.grow(level % 2 ? SLOT_XP1 : SLOT_XP0, (size_t)ntasks * sizeof(xyzz_t<E>)));
    if (!ex.ok()) return dst;
    if (msm_xinline<E>(tu)) xtask_level<E, true>(ex, level, round, items, pts, src_pts, xp, off, toff, nseg, ntasks, dst);
    else xtask_level<E, false>(ex, level, round, items, pts, src_pts, xp, off, toff, nseg, ntasks, dst);
    return dst;
}
/* the tail's last level (one task per bucket, offsets off) as the bucket values in SLOT_BUCKET */
template <class E, class Ex> void xtail_buckets(Ex &ex, seg_result<E> &res, const xyzz_t<E> *xp, const uint32_t *off, uint32_t nseg) {
    xyzz_t<E> *bx = static_cast<xyzz_t<E> *>(ex.grow(SLOT_BUCKET, (size_t)nseg * sizeof(xyzz_t<E>)));
    ex.each(nseg, f_bucket_xvals<E>{xp, off, bx});
    res.xbuckets = bx;
}

constexpr size_t RND_KMIN = 128, RND_KMAX = 1024;
/* the built-in minimum with the divstep inversion: ~1/30 of Fermat's cost makes batches of 32 pairs
 * affordable, so late rounds keep more lanes busy (H100, 2026-12-06, docs/perf/gpu.md "Round 7":
 * G1 2^27 uniform 1094 -> 1087 ms, witness-like 124.5 -> 121.0 ms against kmin 128). The lane
 * scratch gpu_sizes.h counts at GPU_SIZES_RND_KMIN (128) pairs is an upper bound for it. */
constexpr size_t RND_KMIN_DIVSTEPS = 32;
/* a round with fewer than RND_TAIL pairs per resident lane hands over to the XYZZ tail */
constexpr size_t RND_TAIL = 32;

/* The XYZZ tail of msm_accumulate with nothing read back: for a group whose entries (at most
 * n_items, a bound the host knows) could not fill the affine rounds. Each level folds every bucket's
 * entries XT_K at a time; after level l a bucket of k entries holds ceil(k / XT_K^(l+1)) tasks, so
 * L levels with XT_K^L >= min(n_items, bucket_max) leave one per bucket whatever the digits are.
 * bucket_max bounds one bucket's entries: a bucket of a window group holds one window's digits of
 * the group's scalars, at most ng of them. Levels past the needed ones copy one task per bucket
 * (~20 us each at 2^18 buckets) where the exact tail reads a count back per level (a wait for the
 * card: milliseconds when synthesis keeps the host's cores busy; measured in docs/perf/devplan.md,
 * "Eleventh session": +20 ms per G1 2^27 streamed MSM on an idle host, -67 ms beside 32 busy
 * threads). Each level's task count stays on the device
 * (toff[nseg]); its grid and buffer come from the bound min(b, b / XT_K + min(nseg, b) + 1) on the
 * level before (b entries: a non-empty bucket of k adds at most ceil(k / XT_K) <= k / XT_K + 1),
 * which gpu_sizes.h's tail terms (t0, t1) cover: the test_scratch_model check. */
template <class E, class Ex>
seg_result<E> msm_tail_bounded(Ex &ex, const uint32_t *items, uint32_t *offs[2], uint32_t *half, uint32_t nseg, size_t n_items,
                               size_t bucket_max, const aff_t<E> *pts, const msm_tune_t &tu) {
    seg_result<E> res = {nullptr, nullptr, 0, 0};
    unsigned L = 1; /* XT_K^L >= the most entries one bucket can hold */
    const size_t kmax = bucket_max < n_items ? bucket_max : n_items;
    for (size_t m = XT_K; m < kmax; m *= XT_K) L++;
    int cur = 0;
    size_t b = n_items;
    const xyzz_t<E> *xp = nullptr;
    for (unsigned level = 0; level < L; level++) {
        ex.each(nseg + 1, f_ceil_div{offs[cur], nseg, XT_K, half});
        ex.scan(offs[cur ^ 1], half, (size_t)nseg + 1);
        size_t bt = b / XT_K + (nseg < b ? nseg : b) + 1;
        bt = bt < b ? bt : b;
        bt = bt ? bt : 1;
        xp = xtail_step<E>(ex, level, 0, items, pts, nullptr, xp, offs[cur], offs[cur ^ 1], nseg, (uint32_t)bt, tu);
        if (!ex.ok()) return res;
        b = bt;
        cur ^= 1;
        res.tail_levels = level + 1;
    }
    xtail_buckets<E>(ex, res, xp, offs[cur], nseg);
    return res;
}

/* Sum each of nseg buckets: items sorted by bucket, bucket s = items [off[s], off[s+1]) (off has
 * nseg + 1 entries in executor memory; items past off[nseg] are ignored; off[nseg] <= n_items and
 * every bucket's entries <= bucket_max, bounds the host knows). Returns one value per bucket (device
 * slot SLOT_BUCKET), affine or, after the XYZZ tail, XYZZ. */
template <class G, class Ex>
seg_result<typename G::E> msm_accumulate(Ex &ex, const uint32_t *items, uint32_t *off, uint32_t nseg, size_t n_items,
                                         size_t bucket_max, const aff_t<typename G::E> *pts, const msm_tune_t &tu) {
    typedef typename G::E E;
    typedef typename fbase<E>::type F;
    uint32_t *offs[2] = {off, static_cast<uint32_t *>(ex.grow(SLOT_OFF1, ((size_t)nseg + 1) * 4))};
    uint32_t *half = static_cast<uint32_t *>(ex.grow(SLOT_HALF, ((size_t)nseg + 1) * 4));
    int cur = 0, round = 0;
    uint32_t total = 0; /* valid entries: the items past off[nseg] (zero digits) are dropped */
    uint32_t next = 0;  /* the half counts' sum of the last scan (read with total in the first round trip) */
    const aff_t<E> *src_pts = nullptr;
    size_t NL_MAX = tu.acc == 2 ? ex.template lanes_for<f_round2<E, src_items<E>>>() : ex.template lanes_for<f_round<E, src_items<E>>>();
    if (NL_MAX > ex.lanes_max()) NL_MAX = ex.lanes_max(); /* the lanes gpu_sizes.h reserves scratch for */
    const size_t tail = tu.tail ? tu.tail : RND_TAIL, kmin = tu.kmin ? tu.kmin : (tu.inv ? RND_KMIN_DIVSTEPS : RND_KMIN);
    const uint32_t pf = (tu.prefetch ? RF_PREFETCH : 0u) | (tu.inv ? RF_DIVSTEPS : 0u);
    /* at most n_items / 2 pairs: fewer than the rounds' threshold below, so the tail takes every entry */
    if (tu.tbound && ex.ok() && (double)(n_items / 2) < (double)NL_MAX * (double)tail)
        return msm_tail_bounded<E>(ex, items, offs, half, nseg, n_items, bucket_max, pts, tu);
    for (;;) {
        ex.each(nseg + 1, f_ceil_div{offs[cur], nseg, 2, half});
        ex.scan(offs[cur ^ 1], half, (size_t)nseg + 1);
        if (round == 0) { /* total and the first round's count in one round trip to the host */
            ex.d2h_async(&total, off + nseg, 4);
            ex.d2h_async(&next, offs[cur ^ 1] + nseg, 4);
            ex.sync();
        } else {
            ex.d2h(&next, offs[cur ^ 1] + nseg, 4);
        }
        if (!ex.ok() || next == total) break;
        /* k pairs per chunk (and per inversion): at least RND_KMIN, so late rounds with few pairs
         * use fewer lanes rather than one inversion per handful of additions; at most RND_KMAX
         * (the lane scratch is about 56 B per pair of the round either way) */
        const uint32_t pairs = total - next;
        if ((double)pairs < (double)NL_MAX * (double)tail) break; /* too few to fill the card: the XYZZ tail */
        size_t k = (pairs + NL_MAX - 1) / NL_MAX;
        k = k < kmin ? kmin : (k > RND_KMAX ? RND_KMAX : k);
        /* v1: chunks of 2k entries over the lanes; v2: at most k outputs per lane */
        const uint32_t chunk = (uint32_t)(2 * k);
        const uint32_t nchunks = tu.acc == 2 ? (uint32_t)(((size_t)next + k - 1) / k) : (uint32_t)(((size_t)total + chunk - 1) / chunk);
        const uint32_t nl = (uint32_t)(nchunks < NL_MAX ? nchunks : NL_MAX);
        const uint32_t k2 = (uint32_t)(((size_t)next + nl - 1) / nl); /* v2: outputs per lane (<= k when nl = nchunks) */
        aff_t<E> *dst = static_cast<aff_t<E> *>(ex.grow(round % 2 ? SLOT_PTS1 : SLOT_PTS0, (size_t)next * sizeof(aff_t<E>)));
        const size_t kscr = tu.acc == 2 && k2 > k ? k2 : k; /* pairs per lane the scratch holds */
        unsigned char *lane = static_cast<unsigned char *>(ex.grow(SLOT_LANE, (size_t)nl * kscr * (sizeof(F) + sizeof(uint2))));
        F *pre = reinterpret_cast<F *>(lane);
        uint2 *info = reinterpret_cast<uint2 *>(lane + (size_t)nl * kscr * sizeof(F));
        uint32_t *ids = tu.acc == 2 ? static_cast<uint32_t *>(ex.grow(SLOT_IDS, (size_t)next * 4)) : nullptr;
        if (!ex.ok()) break;
        if (tu.acc == 2) {
            ex.each(next, f_seg_ids{offs[cur ^ 1], nseg, ids});
            if (round == 0)
                ex.template each<128>(nl, f_round2<E, src_items<E>>{src_items<E>{items, pts}, offs[cur], offs[cur ^ 1], ids, next, dst, k2, nl,
                                                                    pre, info, pf});
            else
                ex.template each<128>(nl, f_round2<E, src_points<E>>{src_points<E>{src_pts}, offs[cur], offs[cur ^ 1], ids, next, dst, k2, nl,
                                                                     pre, info, pf});
        } else if (round == 0)
            ex.template each<128>(nl, f_round<E, src_items<E>>{src_items<E>{items, pts}, offs[cur], offs[cur ^ 1], nseg, total, dst,
                                                               chunk, nchunks, nl, pre, info, pf});
        else
            ex.template each<128>(nl, f_round<E, src_points<E>>{src_points<E>{src_pts}, offs[cur], offs[cur ^ 1], nseg, total, dst,
                                                                chunk, nchunks, nl, pre, info, pf});
        src_pts = dst;
        total = next;
        cur ^= 1;
        round++;
    }
    seg_result<E> res = {nullptr, nullptr, (unsigned)round, 0};
    if (!ex.ok()) return res;
    /* next: the half counts of the last scan, read in the loop; equal to total when every bucket
     * holds at most one value: affine buckets */
    if (next == total) {
        aff_t<E> *bk = static_cast<aff_t<E> *>(ex.grow(SLOT_BUCKET, (size_t)nseg * sizeof(aff_t<E>)));
        if (round == 0)
            ex.each(nseg, f_bucket_vals<E, src_items<E>>{src_items<E>{items, pts}, offs[cur], bk});
        else
            ex.each(nseg, f_bucket_vals<E, src_points<E>>{src_points<E>{src_pts}, offs[cur], bk});
        res.buckets = bk;
        return res;
    }
    /* the XYZZ tail */
    const xyzz_t<E> *xp = nullptr;
    for (unsigned level = 0;; level++) {
        ex.each(nseg + 1, f_ceil_div{offs[cur], nseg, XT_K, half});
        ex.scan(offs[cur ^ 1], half, (size_t)nseg + 1);
        uint32_t ntasks = 0;
        ex.d2h(&ntasks, offs[cur ^ 1] + nseg, 4);
        if (!ex.ok()) return res;
        if (level > 0 && ntasks == total) break;
        xp = xtail_step<E>(ex, level, round, items, pts, src_pts, xp, offs[cur], offs[cur ^ 1], nseg, ntasks, tu);
        if (!ex.ok()) return res;
        total = ntasks;
        cur ^= 1;
        res.tail_levels = level + 1;
    }
    xtail_buckets<E>(ex, res, xp, offs[cur], nseg);
    return res;
}

/* bump allocator over one slot, for the reduction's levels */
struct carve_t {
    unsigned char *p;
    size_t used, cap;
    template <class T> T *take(size_t count) {
        size_t b = (count * sizeof(T) + 255) & ~(size_t)255;
        T *r = reinterpret_cast<T *>(p + used);
        used += b;
        return used <= cap ? r : nullptr;
    }
};

constexpr uint32_t RED_L = 32; /* buckets per reduction segment */

/* bytes the reduction of nwin windows of m values needs */
template <class E> size_t red_bytes(size_t m, size_t nwin) {
    size_t b = 0;
    while (m > 1) {
        size_t L = m < RED_L ? m : RED_L, S = m / L;
        b += 2 * ((nwin * S * sizeof(xyzz_t<E>) + 255) & ~(size_t)255); /* T, R */
        size_t t = S;
        while (t > 1) { size_t G = t < RED_L ? t : RED_L; t /= G; b += (nwin * t * sizeof(xyzz_t<E>) + 255) & ~(size_t)255; }
        b += 3 * ((nwin * sizeof(xyzz_t<E>) + 255) & ~(size_t)255);
        m = S;
    }
    return b + 4 * ((nwin * sizeof(xyzz_t<E>) + 255) & ~(size_t)255) + 4096;
}

/* the reduction's scratch for nwin windows of m buckets: carved from SLOT_RED0 (false: the
 * allocation failed, ex says why) */
template <class E, class Ex> bool red_carve(Ex &ex, carve_t &cv, size_t m, size_t nwin) {
    cv.cap = red_bytes<E>(m, nwin);
    cv.p = static_cast<unsigned char *>(ex.grow(SLOT_RED0, cv.cap));
    cv.used = 0;
    return ex.ok();
}

/* tree sum of S values per window (S a power of two) -> one per window */
template <class E, bool XI, class Ex> const xyzz_t<E> *red_tree(Ex &ex, carve_t &cv, const xyzz_t<E> *in, size_t S, size_t nwin) {
    while (S > 1) {
        uint32_t G = (uint32_t)(S < RED_L ? S : RED_L);
        S /= G;
        xyzz_t<E> *out = cv.template take<xyzz_t<E>>(nwin * S);
        if (!out) return nullptr;
        ex.each(nwin * S, f_sum_groups<E, XI>{in, G, out});
        in = out;
    }
    return in;
}

/* (ws[w], sum[w]) = (sum_i i V_{w,i}, sum_i V_{w,i}) over m values per window (m a power of two) */
template <class E, class In, bool XI, class Ex>
bool red_ws(Ex &ex, carve_t &cv, const In *v, size_t m, size_t nwin, const xyzz_t<E> **ws_out, const xyzz_t<E> **sum_out) {
    uint32_t L = (uint32_t)(m < RED_L ? m : RED_L);
    uint32_t S = (uint32_t)(m / L);
    xyzz_t<E> *T = cv.template take<xyzz_t<E>>(nwin * S), *R = cv.template take<xyzz_t<E>>(nwin * S);
    if (!T || !R) return false;
    ex.each(nwin * S, f_red_seg<E, In, XI>{v, m, L, S, T, R});
    if (S == 1) { *ws_out = T; *sum_out = R; return true; }
    const xyzz_t<E> *sum_t = red_tree<E, XI>(ex, cv, T, S, nwin);
    const xyzz_t<E> *ws2 = nullptr, *sum2 = nullptr;
    if (!sum_t || !red_ws<E, xyzz_t<E>, XI>(ex, cv, (const xyzz_t<E> *)R, S, nwin, &ws2, &sum2)) return false;
    xyzz_t<E> *ws = cv.template take<xyzz_t<E>>(nwin);
    if (!ws) return false;
    int log_l = 0;
    while ((1u << log_l) < L) log_l++;
    ex.each(nwin, f_combine<E>{sum_t, ws2, log_l, ws});
    *ws_out = ws;
    *sum_out = sum2;
    return true;
}

template <class G> struct msm_host_out {
    std::vector<typename G::cpu_xyzz> win; /* window sums */
    typename G::cpu_xyzz ones;             /* the ones bucket (infinity when none) */
};

/* Bytes of device scratch msm_run needs at n points (the worst case: every scalar general): the
 * host-side formula of gpu_sizes.h, which the device-memory planner uses too (one source). */
template <class G> const gpu_sizes_group *msm_sizes();
template <> inline const gpu_sizes_group *msm_sizes<g1_group>() { return &GPU_SIZES_G1; }
template <> inline const gpu_sizes_group *msm_sizes<g2_group>() { return &GPU_SIZES_G2; }
static_assert(sizeof(aff_t<fp_d>) == 96 && sizeof(aff_t<fp2_d>) == 192, "gpu_sizes.h: affine point sizes");
static_assert(sizeof(xyzz_t<fp_d>) == 4 * 48 && sizeof(xyzz_t<fp2_d>) == 4 * 96, "gpu_sizes.h: XYZZ sizes");
static_assert(sizeof(fp_d) == GPU_SIZES_FP_BYTES, "gpu_sizes.h: Fp size");
static_assert(RND_KMIN == GPU_SIZES_RND_KMIN && RED_L == GPU_SIZES_RED_L && RND_TAIL == GPU_SIZES_RND_TAIL && XT_K == GPU_SIZES_XT_K,
              "gpu_sizes.h: driver constants");
static_assert(g1_group::item_cap == ((size_t)1 << 27) && g2_group::item_cap == ((size_t)1 << 26), "gpu_sizes.h: item caps");
template <class G> size_t msm_scratch_bytes(size_t n, size_t item_cap, size_t lanes) {
    return gpu_sizes_msm_scratch(msm_sizes<G>(), n, item_cap, lanes);
}

/* out.win = W window sums at window c, infinity (a first call) or kept (later parts) */
template <class G> void msm_win_init(msm_host_out<G> &out, msm_stats_t &st, unsigned c) {
    const unsigned W = (256 + c - 1) / c;
    if (out.win.size() == W) return;
    out.win.assign(W, typename G::cpu_xyzz());
    for (unsigned j = 0; j < W; j++) G::x_inf(&out.win[j]);
    st.c = c;
    st.W = W;
}

/* Steps 3-5 for ng general scalars: indices gsel[0..ng) into sc (NULL: 0..ng-1), window c (out.win
 * holds its W sums, msm_win_init); each window group's sums are ADDED to out.win (one part of the
 * points, or all of them). */
template <class G, class Ex>
pm_status msm_general(Ex &ex, msm_host_out<G> &out, msm_stats_t &st, const msm_args_t &a, const scalar_d *sc, const uint32_t *gsel,
                      size_t ng, unsigned c, pm_error *err) {
    typedef typename G::E E;
    typedef typename G::cpu_xyzz X;
    if (!ng) return PM_OK;
    const aff_t<E> *pts = static_cast<const aff_t<E> *>(a.pts);
    const unsigned W = (256 + c - 1) / c;
    const uint32_t B = 1u << (c - 1);
    const size_t cap = a.item_cap ? a.item_cap : G::item_cap;
    size_t gw = cap / ng;
    gw = gw < 1 ? 1 : (gw > W ? W : gw);
    if (a.persist || a.item_cap) {
        /* a chunk at the kept window, which may be far wider than its own general scalars would pick
         * (a short last chunk, witness-like scalars), or an MSM under a memory budget (item_cap set: one
         * piece on a chunked handle, item_cap = its points) whose few general scalars would otherwise put
         * many windows of buckets in one group: no more buckets per group than the memory model counts
         * for item_cap points (gpu_sizes_msm_scratch with every scalar general: one window of
         * 2^(window_bits(item_cap) - 1) buckets) */
        const size_t gmax = ((size_t)1 << (msm_window_bits_for(cap, G::rho) - 1)) / B;
        if (gw > gmax) gw = gmax < 1 ? 1 : gmax;
    }
    std::vector<X> sums(gw);
    for (unsigned j0 = 0; j0 < W; j0 += (unsigned)gw) {
        const unsigned g = (unsigned)(W - j0 < gw ? W - j0 : gw);
        const size_t items = (size_t)g * ng;
        const uint32_t nseg = g * B;
        if (items >= 0xffffffffu) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "msm: %zu items exceed 32-bit offsets", items);
        uint32_t *k0 = static_cast<uint32_t *>(ex.grow(SLOT_KEY0, items * 4));
        uint32_t *v0 = static_cast<uint32_t *>(ex.grow(SLOT_VAL0, items * 4));
        uint32_t *k1 = static_cast<uint32_t *>(ex.grow(SLOT_KEY1, items * 4));
        uint32_t *v1 = static_cast<uint32_t *>(ex.grow(SLOT_VAL1, items * 4));
        uint32_t *off = static_cast<uint32_t *>(ex.grow(SLOT_OFF0, ((size_t)nseg + 1) * 4));
        if (!ex.ok()) return ex.fail(err, "msm sort scratch");
        ex.mark(2);
        ex.each(ng, f_digits{sc, gsel, ng, (int)c, (int)j0, (int)g, B, nseg, k0, v0});
        int bits = 1;
        while (bits < 32 && ((uint64_t)1 << bits) <= nseg) bits++;
        ex.sort_pairs(k1, v1, k0, v0, items, bits);
        ex.each(items + 1, f_bounds{k1, items, nseg, off});
        ex.mark(3);
        seg_result<E> acc = msm_accumulate<G>(ex, v1, off, nseg, items, ng, pts, a.tune);
        if (!ex.ok()) return ex.fail(err, "msm accumulation");
        ex.mark(4);
        if (a.persist) { /* a chunk: its bucket sums join the kept buckets; one reduction at the end */
            xyzz_t<E> *P = static_cast<xyzz_t<E> *>(a.persist) + (size_t)j0 * B;
            if (msm_xinline<E>(a.tune)) {
                if (acc.xbuckets) ex.each(nseg, f_fold<E, xyzz_t<E>, true>{acc.xbuckets, P});
                else ex.each(nseg, f_fold<E, aff_t<E>, true>{acc.buckets, P});
            } else {
                if (acc.xbuckets) ex.each(nseg, f_fold<E, xyzz_t<E>, false>{acc.xbuckets, P});
                else ex.each(nseg, f_fold<E, aff_t<E>, false>{acc.buckets, P});
            }
        } else {
            carve_t cv;
            if (!red_carve<E>(ex, cv, B, g)) return ex.fail(err, "msm reduction scratch");
            const xyzz_t<E> *ws = nullptr, *sum = nullptr;
            bool planned = msm_xinline<E>(a.tune) ? (acc.xbuckets ? red_ws<E, xyzz_t<E>, true>(ex, cv, acc.xbuckets, B, g, &ws, &sum)
                                                                  : red_ws<E, aff_t<E>, true>(ex, cv, acc.buckets, B, g, &ws, &sum))
                                                  : (acc.xbuckets ? red_ws<E, xyzz_t<E>, false>(ex, cv, acc.xbuckets, B, g, &ws, &sum)
                                                                  : red_ws<E, aff_t<E>, false>(ex, cv, acc.buckets, B, g, &ws, &sum));
            if (!planned) return pm_error_set(err, PM_ERR_INTERNAL, "", PM_NO_OFFSET, "msm: reduction scratch plan too small (%s:%d)", __FILE__, __LINE__);
            xyzz_t<E> *S = cv.template take<xyzz_t<E>>(g);
            if (!S) return pm_error_set(err, PM_ERR_INTERNAL, "", PM_NO_OFFSET, "msm: reduction scratch plan too small (%s:%d)", __FILE__, __LINE__);
            /* S_j = sum_b b B_b = WS + SUM (bucket b holds digit b+1) */
            ex.each(g, f_add2<E>{ws, sum, S});
            ex.d2h(sums.data(), S, g * sizeof(X));
            for (unsigned t = 0; t < g; t++) {
                X u;
                G::x_add(&u, &out.win[j0 + t], &sums[t]);
                out.win[j0 + t] = u;
            }
        }
        ex.mark(5);
        if (!ex.ok()) return ex.fail(err, a.persist ? "msm bucket fold" : "msm reduction");
        if (a.times) { /* each read waits for the group's last kernel */
            st.t_sort += ex.ms(2, 3);
            st.t_accum += ex.ms(3, 4);
            st.t_reduce += ex.ms(4, 5);
        }
        st.rounds = acc.rounds > st.rounds ? acc.rounds : st.rounds;
        st.tail_levels = acc.tail_levels > st.tail_levels ? acc.tail_levels : st.tail_levels;
        if (j0 + g < W) ex.pause(); /* between window groups (~90 ms each at 2^27) */
    }
    return PM_OK;
}

/* A chunked MSM (streamed bases, or resident ones in chunks) keeps its buckets across its chunks:
 * every chunk runs msm_run with a.force_c = c and a.persist = msm_persist_begin(ex, c), which folds
 * each window group's bucket sums into W x 2^(c-1) XYZZ buckets instead of reducing them, and
 * msm_persist_end reduces all W windows once. A chunk of m points then costs its sort and its
 * accumulation only: reducing every window group of every chunk on its own took ~3-5 ms a group on
 * an H100 (G1 2^27 uniform in 15 chunks of 9.4 M points: 2198 ms against 1088 in one piece,
 * docs/perf/devplan.md "fourth session"). Bytes: gpu_sizes_msm_persist_bytes. Returns the buckets
 * (set to infinity on the executor's stream), or NULL when the executor's allocation failed. */
template <class G, class Ex> void *msm_persist_begin(Ex &ex, unsigned c) {
    typedef typename G::E E;
    const unsigned W = (256 + c - 1) / c;
    const size_t nb = (size_t)W << (c - 1);
    xyzz_t<E> *P = static_cast<xyzz_t<E> *>(ex.grow(SLOT_PERSIST, nb * sizeof(xyzz_t<E>)));
    if (!ex.ok() || !P) return nullptr;
    ex.each(nb, f_x_set_inf<E>{P});
    return P;
}
/* The W window sums of the kept buckets P (window c) into out.win (set, not added: out is a fresh
 * msm_host_out; out.ones infinity), ready for msm_finish. times as msm_args_t.times (the reduction's
 * device time into st.t_reduce only when set). */
template <class G, class Ex>
pm_status msm_persist_end(Ex &ex, msm_host_out<G> &out, msm_stats_t &st, const void *P, unsigned c, const msm_tune_t &tune,
                          int times, pm_error *err) {
    typedef typename G::E E;
    typedef typename G::cpu_xyzz X;
    const unsigned W = (256 + c - 1) / c;
    const size_t B = (size_t)1 << (c - 1);
    out.win.clear();
    msm_win_init<G>(out, st, c);
    G::x_inf(&out.ones);
    const xyzz_t<E> *v = static_cast<const xyzz_t<E> *>(P);
    ex.mark(4);
    carve_t cv;
    if (!red_carve<E>(ex, cv, B, W)) return ex.fail(err, "msm reduction scratch");
    const xyzz_t<E> *ws = nullptr, *sum = nullptr;
    bool planned = msm_xinline<E>(tune) ? red_ws<E, xyzz_t<E>, true>(ex, cv, v, B, W, &ws, &sum)
                                        : red_ws<E, xyzz_t<E>, false>(ex, cv, v, B, W, &ws, &sum);
    xyzz_t<E> *S = planned ? cv.template take<xyzz_t<E>>(W) : nullptr;
    if (!S) return pm_error_set(err, PM_ERR_INTERNAL, "", PM_NO_OFFSET, "msm: reduction scratch plan too small (%s:%d)", __FILE__, __LINE__);
    ex.each(W, f_add2<E>{ws, sum, S});
    std::vector<X> sums(W);
    ex.d2h(sums.data(), S, W * sizeof(X));
    ex.mark(5);
    if (!ex.ok()) return ex.fail(err, "msm reduction");
    if (times) st.t_reduce += ex.ms(4, 5); /* msm_args_t.times: the phase times only when asked */
    for (unsigned j = 0; j < W; j++) out.win[j] = sums[j];
    return PM_OK;
}

/* The scalars equal to 1 (point indices oidx[0..n1)): one bucket, ADDED to out.ones. */
template <class G, class Ex>
pm_status msm_ones(Ex &ex, msm_host_out<G> &out, const aff_t<typename G::E> *pts, const uint32_t *oidx, size_t n1, const msm_tune_t &tune,
                   pm_error *err) {
    typedef typename G::E E;
    typename G::cpu_xyzz v, u;
    G::x_inf(&v);
    if (n1) {
        uint32_t *off = static_cast<uint32_t *>(ex.grow(SLOT_OFF0, 16));
        uint32_t h[2] = {0, (uint32_t)n1};
        if (!ex.ok()) return ex.fail(err, "msm ones");
        ex.h2d(off, h, 8);
        seg_result<E> acc = msm_accumulate<G>(ex, oidx, off, 1, n1, n1, pts, tune);
        if (acc.xbuckets) {
            ex.d2h(&v, acc.xbuckets, sizeof out.ones);
        } else {
            typename G::cpu_aff o;
            memset(&o, 0, sizeof o);
            if (acc.buckets) ex.d2h(&o, acc.buckets, sizeof o);
            G::x_from_aff(&v, &o);
        }
        if (!ex.ok()) return ex.fail(err, "msm ones");
    }
    G::x_add(&u, &out.ones, &v);
    out.ones = u;
    return PM_OK;
}

template <class G, class Ex> pm_status msm_run(Ex &ex, msm_host_out<G> &out, msm_stats_t &st, const msm_args_t &a, pm_error *err) {
    typedef typename G::E E;
    memset(&st, 0, sizeof st);
    G::x_inf(&out.ones);
    out.win.clear();
    const size_t n = a.n;
    if (n == 0) return PM_OK;
    const aff_t<E> *pts = static_cast<const aff_t<E> *>(a.pts);
    ex.mark(0);

    /* 1. scalars in, converted, classified */
    const scalar_d *sc = nullptr;
    uint32_t *gidx = static_cast<uint32_t *>(ex.grow(SLOT_GIDX, n * 4));
    uint32_t *oidx = static_cast<uint32_t *>(ex.grow(SLOT_OIDX, n * 4));
    size_t ng = 0, n1 = 0;
    size_t ng_done = 0, n1_done = 0; /* scalars already summed by earlier parts */
    unsigned c_part = 0;             /* the window of the parts (0: no part ran) */
    if (!ex.ok()) return ex.fail(err, "msm scratch");
    if (a.gather) {
        const scalar_d *w = reinterpret_cast<const scalar_d *>(a.scalars);
        if (a.src == MSM_SRC_HOST) { /* whole witness in first */
            scalar_d *wd = static_cast<scalar_d *>(ex.grow(SLOT_WIT, a.n_witness * sizeof(scalar_d)));
            if (!ex.ok()) return ex.fail(err, "msm witness");
            ex.h2d(wd, a.scalars, a.n_witness * sizeof(scalar_d));
            w = wd;
        }
        scalar_d *d = static_cast<scalar_d *>(ex.grow(SLOT_SC, n * sizeof(scalar_d)));
        if (!ex.ok()) return ex.fail(err, "msm scalars");
        ex.each(n, f_scalar_in{w, d, a.gather, a.mont});
        sc = d;
        ng = ex.select(gidx, 0, n, pred_general{sc, a.split});
        if (a.split) n1 = ex.select(oidx, 0, n, pred_one{sc});
    } else if (a.src == MSM_SRC_DEVICE && !a.mont) {
        sc = reinterpret_cast<const scalar_d *>(a.scalars);
        ng = ex.select(gidx, 0, n, pred_general{sc, a.split});
        if (a.split) n1 = ex.select(oidx, 0, n, pred_one{sc});
    } else {
        scalar_d *d = static_cast<scalar_d *>(ex.grow(SLOT_SC, n * sizeof(scalar_d)));
        if (!ex.ok()) return ex.fail(err, "msm scalars");
        size_t nchunk = (a.src == MSM_SRC_HOST && n >= ((size_t)1 << 16)) ? 16 : 1;
        if (a.src == MSM_SRC_HOST && a.scalar_chunks) nchunk = a.scalar_chunks < 48 ? a.scalar_chunks : 48;
        size_t parts = 1; /* host scalars: parts of the points summed while the later parts' scalars are in flight */
        if (a.src == MSM_SRC_HOST) {
            if (a.tune.parts >= 2) parts = a.tune.parts < MSM_PARTS_MAX ? a.tune.parts : MSM_PARTS_MAX;
            else if (a.tune.parts == 0 && n >= (a.parts_min_n ? a.parts_min_n : MSM_PARTS_MIN_N)) parts = MSM_PARTS_AUTO;
        }
        if (parts > n) parts = n;
        if (nchunk < parts) nchunk = parts;
        const size_t chunk = (n + nchunk - 1) / nchunk;
        const size_t nck = (n + chunk - 1) / chunk;              /* chunks in fact */
        const size_t per_part = (nck + parts - 1) / parts;       /* chunks per part */
        if (a.src == MSM_SRC_HOST) /* every copy queued at once on the side stream */
            for (size_t c0 = 0, k = 0; c0 < n; c0 += chunk, k++)
                ex.h2d_side(d + c0, a.scalars + c0, (n - c0 < chunk ? n - c0 : chunk) * sizeof(scalar_d), (int)k);
        else
            ex.d2d(d, a.scalars, n * sizeof(scalar_d));
        for (size_t c0 = 0, k = 0; c0 < n; c0 += chunk, k++) {
            size_t m = n - c0 < chunk ? n - c0 : chunk;
            if (a.src == MSM_SRC_HOST) ex.wait_side((int)k);
            if (a.mont) ex.each(m, f_scalar_in{d + c0, d + c0, nullptr, 1});
            ng += ex.select(gidx + ng, c0, m, pred_general{d, a.split});
            if (a.split) n1 += ex.select(oidx + n1, c0, m, pred_one{d});
            /* a part boundary before the last chunk: sum the pending scalars now, while the copies of the
             * rest go on, when forced (tune.parts >= 2) or when at most a quarter of the scalars seen so far
             * are general (witness-like scalars: the sum is short next to the copy; uniform scalars are
             * summed once, at the window of all of them) */
            if (parts > 1 && (k + 1) % per_part == 0 && c0 + m < n && (a.tune.parts >= 2 || 4 * ng <= c0 + m)) {
                if (!ex.ok()) return ex.fail(err, "msm scalars");
                if (!c_part) c_part = a.force_c ? a.force_c : msm_window_bits_for(ng - ng_done, G::rho);
                msm_win_init<G>(out, st, c_part);
                pm_status r = msm_general<G>(ex, out, st, a, d, gidx + ng_done, ng - ng_done, c_part, err);
                if (r == PM_OK && n1 > n1_done) r = msm_ones<G>(ex, out, pts, oidx + n1_done, n1 - n1_done, a.tune, err);
                if (r != PM_OK) return r;
                ng_done = ng;
                n1_done = n1;
                st.parts++;
            }
        }
        sc = d;
    }
    if (!ex.ok()) return ex.fail(err, "msm scalars");
    ex.mark(1);
    st.general = ng;
    st.ones = n1;
    st.zeros = n - ng - n1;

    /* 2. plan: the window from the number of general scalars (or the parts' window) */
    const unsigned c = c_part ? c_part : (a.force_c ? a.force_c : msm_window_bits_for(ng - ng_done, G::rho));
    msm_win_init<G>(out, st, c);
    /* 3-5: the general scalars not summed by a part; the ones */
    const uint32_t *gsel = ng_done == 0 && ng == n ? nullptr : gidx + ng_done; /* dense: identity */
    pm_status r = msm_general<G>(ex, out, st, a, sc, gsel, ng - ng_done, c, err);
    if (r == PM_OK && n1 > n1_done) r = msm_ones<G>(ex, out, pts, oidx + n1_done, n1 - n1_done, a.tune, err);
    if (r != PM_OK) return r;
    ex.mark(6);
    if (a.times) {
        ex.d2h(nullptr, nullptr, 0); /* synchronise for the timing */
        st.t_scalars = ex.ms(0, 1);
        st.t_total = ex.ms(0, 6);
    }
    /* else nothing waits here: a chunk of a chunked MSM leaves its kernels queued (the next chunk's
     * copy into the other bases buffer is ordered after them on the device) and returns */
    return PM_OK;
}

/* Horner over the window sums, plus the ones bucket: the Jacobian result (CPU layer). */
template <class G> void msm_finish(typename G::cpu_jac *r, const msm_host_out<G> &o, unsigned c) {
    typename G::cpu_xyzz acc;
    G::x_inf(&acc);
    for (size_t j = o.win.size(); j-- > 0;) {
        for (unsigned k = 0; k < c; k++) G::x_dbl(&acc, &acc);
        G::x_add(&acc, &acc, &o.win[j]);
    }
    G::x_add(&acc, &acc, &o.ones);
    G::x_to_jac(r, &acc);
}

} /* namespace pmgpu */
