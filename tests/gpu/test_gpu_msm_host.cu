/*
 * test_gpu_msm_host.cu — the device MSM's algorithm, run on the HOST (no GPU needed; built by nvcc
 * whenever CUDA is configured, so CI runs it).
 *
 * src/gpu's field, curve, MSM and fixed-base code is __host__ __device__ with the PTX carry flag
 * emulated on the host (field.cuh), and the drivers are templates over an executor
 * (msm_exec.cuh): here they run with exec_host, i.e. every kernel body executes sequentially in a
 * loop, CUB's scan/sort/select are the standard library's. Checked against the CPU layers, which
 * nobody here wrote twice: field/fp.h, fp2.h, fr.h (products, squares, inverses, Montgomery
 * conversion), curve/g1.h and g2.h (XYZZ and affine formulas, including P + P, P + (-P) and
 * infinity), msm/msm.h (msm_g1_vartime, msm_g2_vartime) for n = 0, 1, 2, 3, 17, 200, 600 and
 * all-zero, all-one, r-1, one repeated scalar (one bucket), mixed 0/1/2/r-1, repeated, opposite and
 * infinite bases, Montgomery scalars, chunked host scalars, the 0/1 split off, forced small and
 * large windows, several window groups, gathered scalars (index list into a witness), bases
 * streamed in chunks, and the fixed-base batch (fixed_base_core.cuh) against [k]P on the CPU.
 * What stays for the GPU tests (tests/gpu/test_gpu_msm*.c): the kernel launches, the real carry
 * flag, CUB, streams. Seeded (PROOFMILL_SEED); exit 0 pass, 1 fail.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "gpu/msm_core.cuh"
#include "gpu/msm_stream.cuh"
#include "gpu/fixed_base_core.cuh"
#include "msm/msm.h"
#include "field/fp2.h"
#include "gpu_test_util.h"

using namespace pmgpu;

template <class T, class U> static T as(const U &u) {
    static_assert(sizeof(T) == sizeof(U), "size");
    T t;
    memcpy(&t, &u, sizeof t);
    return t;
}
static int lt_p(const fp_t *a) {
    for (int i = 5; i >= 0; i--) {
        if (a->l[i] != FP_MODULUS.l[i]) return a->l[i] < FP_MODULUS.l[i];
    }
    return 0;
}
static void rand_fp(fp_t *a) { /* uniform Montgomery element */
    fp_t k;
    do {
        for (int i = 0; i < 6; i++) k.l[i] = gt_rand64();
        k.l[5] &= 0x1fffffffffffffffULL;
    } while (!lt_p(&k));
    fp_to_mont(a, &k);
}

/* ---------------- field ---------------- */
static void test_field(void) {
    int bad = 0;
    fp_t pm1;
    fp_sub(&pm1, &FP_ZERO_ELEM, &FP_ONE);
    for (int it = 0; it < 3000; it++) {
        fp_t a, b, c, d;
        rand_fp(&a);
        rand_fp(&b);
        if (it == 0) a = FP_ZERO_ELEM;
        if (it == 1) a = FP_ONE;
        if (it == 2) a = b = pm1;
        fp_d da = as<fp_d>(a), db = as<fp_d>(b);
        fp_mul(&c, &a, &b);
        bad += memcmp(&c, &(const fp_d &)fe_mul<fp_params>(da, db), 48) != 0;
        bad += memcmp(&c, &(const fp_d &)fe_mul_rows<fp_params>(da, db), 48) != 0;
        fp_sqr(&c, &a);
        bad += memcmp(&c, &(const fp_d &)fe_sqr<fp_params>(da), 48) != 0;
        fp_add(&c, &a, &b);
        bad += memcmp(&c, &(const fp_d &)fe_add<fp_params>(da, db), 48) != 0;
        fp_sub(&c, &a, &b);
        bad += memcmp(&c, &(const fp_d &)fe_sub<fp_params>(da, db), 48) != 0;
        fp_neg(&c, &a);
        bad += memcmp(&c, &(const fp_d &)fe_neg<fp_params>(da), 48) != 0;
        fp_from_mont(&d, &a);
        bad += memcmp(&d, &(const fp_d &)fe_from_mont<fp_params>(da), 48) != 0;
        bad += memcmp(&a, &(const fp_d &)fe_to_mont<fp_params>(as<fp_d>(d)), 48) != 0;
        if (it < 40) {
            fp_inv_vartime(&c, &a);
            bad += memcmp(&c, &(const fp_d &)fe_inv_vartime<fp_params>(da), 48) != 0;
        }
        /* Fr */
        fr_t x, y, z;
        gt_rand_fr_mont(&x);
        gt_rand_fr_mont(&y);
        if (it == 2) { fr_sub(&x, &FR_ZERO, &FR_ONE); y = x; }
        if (it == 4) x = FR_ZERO; /* reduction steps with E_0 = 0 (cios_reduce_rf's carry case) */
        if (it == 5) { x = FR_ZERO; x.l[0] = 1; y = x; }
        fr_mul(&z, &x, &y);
        bad += memcmp(&z, &(const fr_d &)fe_mul<fr_params>(as<fr_d>(x), as<fr_d>(y)), 32) != 0;
        bad += memcmp(&z, &(const fr_d &)fe_mul_generic<fr_params>(as<fr_d>(x), as<fr_d>(y)), 32) != 0;
        bad += memcmp(&z, &(const fr_d &)fe_mul_rows<fr_params>(as<fr_d>(x), as<fr_d>(y)), 32) != 0;
        fr_from_mont(&z, &x);
        bad += memcmp(&z, &(const fr_d &)fe_from_mont<fr_params>(as<fr_d>(x)), 32) != 0;
        /* Fp2 */
        fp2_t u, v, w;
        rand_fp(&u.c0); rand_fp(&u.c1); rand_fp(&v.c0); rand_fp(&v.c1);
        if (it == 3) u.c1 = FP_ZERO_ELEM;
        fp2_d du = as<fp2_d>(u), dv = as<fp2_d>(v);
        fp2_mul(&w, &u, &v);
        bad += memcmp(&w, &(const fp2_d &)fp2_mul(du, dv), 96) != 0;
        fp2_sqr(&w, &u);
        bad += memcmp(&w, &(const fp2_d &)fp2_sqr(du), 96) != 0;
        if (it < 20) {
            fp2_inv_vartime(&w, &u);
            bad += memcmp(&w, &(const fp2_d &)f_inv(du), 96) != 0;
        }
    }
    GT_CHECK(bad == 0, "field: %d results differ from the CPU field", bad);
    printf("field (Fp fused/rows CIOS, Fr, Fp2, inverses): %s\n", bad ? "FAIL" : "ok");
}

/* ---------------- per-group CPU helpers ---------------- */
struct cpu_g1 {
    typedef g1_group G;
    static const g1_affine_t &gen() { return G1_GENERATOR; }
    static void jac_from_aff(g1_jac_t *r, const g1_affine_t *p) { g1_jac_from_affine(r, p); }
    static void jac_mul(g1_jac_t *r, const g1_jac_t *p, const fr_t *k) { g1_jac_mul_vartime(r, p, k->l, 4); }
    static void jac_add(g1_jac_t *r, const g1_jac_t *a, const g1_jac_t *b) { g1_jac_add(r, a, b); }
    static void jac_dbl(g1_jac_t *r, const g1_jac_t *a) { g1_jac_dbl(r, a); }
    static void jacs_to_aff(g1_affine_t *o, const g1_jac_t *in, size_t n) { g1_jacs_to_affine(o, in, n); }
    static void jac_to_aff(g1_affine_t *o, const g1_jac_t *in) { g1_jac_to_affine(o, in); }
    static int jac_eq(const g1_jac_t *a, const g1_jac_t *b) { return g1_jac_eq(a, b); }
    static int aff_eq(const g1_affine_t *a, const g1_affine_t *b) { return g1_affine_eq(a, b); }
    static void aff_neg(g1_affine_t *r, const g1_affine_t *p) { g1_affine_neg(r, p); }
    static pm_status msm(g1_jac_t *r, const g1_affine_t *p, const fr_t *k, size_t n) { return msm_g1_vartime(r, p, k, n, 1); }
    static const char *name() { return "G1"; }
};
struct cpu_g2 {
    typedef g2_group G;
    static const g2_affine_t &gen() { return G2_GENERATOR; }
    static void jac_from_aff(g2_jac_t *r, const g2_affine_t *p) { g2_jac_from_affine(r, p); }
    static void jac_mul(g2_jac_t *r, const g2_jac_t *p, const fr_t *k) { g2_jac_mul_vartime(r, p, k->l, 4); }
    static void jac_add(g2_jac_t *r, const g2_jac_t *a, const g2_jac_t *b) { g2_jac_add(r, a, b); }
    static void jac_dbl(g2_jac_t *r, const g2_jac_t *a) { g2_jac_dbl(r, a); }
    static void jacs_to_aff(g2_affine_t *o, const g2_jac_t *in, size_t n) { g2_jacs_to_affine(o, in, n); }
    static void jac_to_aff(g2_affine_t *o, const g2_jac_t *in) { g2_jac_to_affine(o, in); }
    static int jac_eq(const g2_jac_t *a, const g2_jac_t *b) { return g2_jac_eq(a, b); }
    static int aff_eq(const g2_affine_t *a, const g2_affine_t *b) { return g2_affine_eq(a, b); }
    static void aff_neg(g2_affine_t *r, const g2_affine_t *p) { g2_affine_neg(r, p); }
    static pm_status msm(g2_jac_t *r, const g2_affine_t *p, const fr_t *k, size_t n) { return msm_g2_vartime(r, p, k, n, 1); }
    static const char *name() { return "G2"; }
};

/* n points [t0 + i u]G (Jacobian chain, one batch normalisation), then edge entries:
 * [5] infinity, [7] = [6] (repeated), [9] = -[8], [11] = G */
template <class C> static std::vector<typename C::G::cpu_aff> make_points(size_t n) {
    typedef typename C::G G;
    std::vector<typename G::cpu_jac> j(n);
    std::vector<typename G::cpu_aff> a(n);
    if (!n) return a;
    typename G::cpu_jac g, step;
    C::jac_from_aff(&g, &C::gen());
    fr_t t, u;
    gt_rand_scalar(&t);
    gt_rand_scalar(&u);
    C::jac_mul(&j[0], &g, &t);
    C::jac_mul(&step, &g, &u);
    for (size_t i = 1; i < n; i++) C::jac_add(&j[i], &j[i - 1], &step);
    C::jacs_to_aff(a.data(), j.data(), n);
    if (n > 5) memset(&a[5], 0, sizeof a[5]);
    if (n > 7) a[7] = a[6];
    if (n > 9) C::aff_neg(&a[9], &a[8]);
    if (n > 11) a[11] = C::gen();
    return a;
}

/* ---------------- curve formulas ---------------- */
template <class C> static void test_curve(void) {
    typedef typename C::G G;
    typedef typename G::E E;
    std::vector<typename G::cpu_aff> p = make_points<C>(64);
    int bad = 0;
    for (int i = 0; i < 60; i++) {
        const typename G::cpu_aff &P = p[i], &Q = p[i + 1];
        typename G::cpu_jac jp, jq, want, got;
        C::jac_from_aff(&jp, &P);
        C::jac_from_aff(&jq, &Q);
        /* batch-affine addition (prepare, invert, finish) */
        aff_t<E> dP = as<aff_t<E>>(P), dQ = as<aff_t<E>>(Q);
        for (int v = 0; v < 3; v++) { /* P + Q, P + P, P + (-P) */
            aff_t<E> R = v == 0 ? dQ : (v == 1 ? dP : ec_aff_neg(dP));
            E den;
            int kind = ec_aff_add_prepare(dP, R, den);
            aff_t<E> s = ec_aff_add_finish(dP, R, kind, f_inv(den));
            typename G::cpu_jac jr;
            C::jac_from_aff(&jr, reinterpret_cast<const typename G::cpu_aff *>(&R));
            C::jac_add(&want, &jp, &jr);
            C::jac_from_aff(&got, reinterpret_cast<const typename G::cpu_aff *>(&s));
            bad += !C::jac_eq(&got, &want);
        }
        /* XYZZ: add, mixed add, double, to Jacobian / affine */
        xyzz_t<E> xp = ec_x_from_aff(dP), xq = ec_x_from_aff(dQ);
        xyzz_t<E> s1 = ec_x_add(ec_x_dbl(xp), xq);          /* 2P + Q */
        xyzz_t<E> s2 = ec_x_add_aff(ec_x_dbl(xp), dQ);
        C::jac_dbl(&want, &jp);
        C::jac_add(&want, &want, &jq);
        jac_t<E> g1 = ec_x_to_jac(s1), g2 = ec_x_to_jac(s2);
        bad += !C::jac_eq(reinterpret_cast<const typename G::cpu_jac *>(&g1), &want);
        bad += !C::jac_eq(reinterpret_cast<const typename G::cpu_jac *>(&g2), &want);
        aff_t<E> af = ec_x_to_aff(s1);
        typename G::cpu_aff wa;
        C::jac_to_aff(&wa, &want);
        bad += !C::aff_eq(reinterpret_cast<const typename G::cpu_aff *>(&af), &wa);
    }
    GT_CHECK(bad == 0, "%s curve formulas: %d mismatches", C::name(), bad);
    printf("%s curve formulas (affine batch add incl. P+P, P-P, infinity; XYZZ): %s\n", C::name(), bad ? "FAIL" : "ok");
}

/* ---------------- MSM ---------------- */
static long expect_pauses = -1; /* preemption points an MSM must pass (gpu.h gpu_set_yield); -1: not checked */
static long expect_early = -1; /* parts the automatic rule must sum before the last chunk (host scalars); -1: not checked */
template <class C>
static void check_msm(const char *what, const std::vector<typename C::G::cpu_aff> &pts, const fr_t *k, size_t n, msm_args_t a) {
    typedef typename C::G G;
    exec_host ex;
    ex.host_lanes = 7; /* a few lanes, so the persistent loop takes several chunks */
    std::vector<fr_t> kin(k, k + n);
    if (a.mont)
        for (size_t i = 0; i < n; i++) fr_to_mont(&kin[i], &k[i]);
    a.pts = pts.data();
    a.n = n;
    a.scalars = kin.data();
    typename G::cpu_jac got, want;
    pm_error e;
    GT_OK(C::msm(&want, pts.data(), k, n), e);
    /* every run-time variant of msm_core.cuh (msm_tune_t): the default, then {acc, prefetch, xinline,
     * tail, kmin, parts, inv, tbound}; tail 1 keeps the affine rounds to the end, 1e9 is XYZZ only; parts 3
     * sums host scalars in 3 parts, each as soon as it is in; inv 1 inverts by divsteps (field_inv.cuh);
     * tbound 1 runs a group too small for the rounds through the tail from host bounds (msm_tail_bounded:
     * with tail 1e9, every group, whatever its size), 0 reads each level's count */
    static const msm_tune_t tunes[] = {{2, 0, 2, 0, 0, 0, 1, 1}, {0, 0, 0, 0, 0, 0, 0, 0}, {2, 1, 0, 1, 2, 0, 0, 1},
                                       {0, 0, 1, 1000000000, 0, 0, 0, 1}, {2, 0, 2, 0, 0, 3, 0, 1}, {2, 0, 2, 1, 2, 0, 1, 0},
                                       {2, 1, 1, 0, 0, 0, 0, 0}, {0, 1, 0, 1000000000, 2, 0, 1, 0}};
    /* the first six (the default: v2, inlined XYZZ for G1 only; v1; v2 affine to the end; XYZZ only; 3 parts;
     * v2 affine to the end with the divstep inversion) always; all eight with PROOFMILL_SLOW=1 */
    static const size_t ntunes = getenv("PROOFMILL_SLOW") && atoi(getenv("PROOFMILL_SLOW")) ? 8 : 6;
    for (size_t ti = 0; ti < ntunes; ti++) {
        const msm_tune_t &tu = tunes[ti];
        msm_host_out<G> o;
        msm_stats_t st;
        a.tune = tu;
        const unsigned p0 = ex.pauses;
        pm_status s = msm_run<G>(ex, o, st, a, &e);
        GT_OK(s, e);
        if (expect_pauses >= 0)
            GT_CHECK(ex.pauses - p0 == (unsigned long)expect_pauses, "%s MSM %s: %u preemption points, expected %ld (between window groups)",
                     C::name(), what, ex.pauses - p0, expect_pauses);
        msm_finish<G>(&got, o, st.c);
        int ok = C::jac_eq(&got, &want);
        GT_CHECK(ok, "%s MSM %s: n = %zu (c = %u, variant acc=%u pf=%u xi=%u tail=%zu kmin=%zu parts=%u inv=%u tbound=%u, %u summed early) differs from the CPU MSM",
                 C::name(), what, n, st.c, tu.acc, tu.prefetch, tu.xinline, tu.tail, tu.kmin, tu.parts, tu.inv, tu.tbound, st.parts);
        if (a.src == MSM_SRC_HOST && tu.parts >= 2 && n >= 2 * tu.parts)
            GT_CHECK(st.parts == tu.parts - 1, "%s MSM %s: %u parts summed before the last chunk, expected %u", C::name(), what, st.parts, tu.parts - 1);
        if (a.src == MSM_SRC_HOST && tu.parts == 0 && a.parts_min_n && n >= a.parts_min_n && expect_early >= 0)
            GT_CHECK(st.parts == (unsigned)expect_early, "%s MSM %s: %u parts summed early (automatic), expected %ld", C::name(), what, st.parts,
                     expect_early);
        printf("%s %-34s n=%-5zu c=%-2u W=%-3u rounds=%-2u tail=%u general=%zu ones=%zu zeros=%zu early=%u [acc=%u pf=%u xi=%u tail=%zu kmin=%zu "
               "parts=%u inv=%u tbound=%u]  %s\n",
               C::name(), what, n, st.c, st.W, st.rounds, st.tail_levels, st.general, st.ones, st.zeros, st.parts, tu.acc, tu.prefetch, tu.xinline,
               tu.tail, tu.kmin, tu.parts, tu.inv, tu.tbound, ok ? "ok" : "MISMATCH");
    }
}

template <class C> static void test_msm(void) {
    typedef typename C::G G;
    const size_t NP = 600;
    std::vector<typename G::cpu_aff> pts = make_points<C>(NP);
    std::vector<fr_t> k(NP);
    msm_args_t a;
    memset(&a, 0, sizeof a);
    a.src = MSM_SRC_DEVICE;
    a.split = 1;
    fr_t one = {{1, 0, 0, 0}}, rm1;
    fr_sub(&rm1, &FR_ZERO, &one);
    const size_t sizes[] = {0, 1, 2, 3, 17, 200, NP};
    for (size_t n : sizes) {
        for (size_t i = 0; i < n; i++) gt_rand_scalar(&k[i]);
        check_msm<C>("random", pts, k.data(), n, a);
    }
    size_t n = 200;
    msm_args_t b = a;
    b.src = MSM_SRC_HOST; b.scalar_chunks = 5;
    check_msm<C>("random, host scalars in 5 chunks", pts, k.data(), n, b);
    b = a; b.mont = 1;
    check_msm<C>("random, Montgomery scalars", pts, k.data(), n, b);
    b.src = MSM_SRC_HOST; b.scalar_chunks = 3;
    check_msm<C>("random, Montgomery host, 3 chunks", pts, k.data(), n, b);
    b = a; b.split = 0;
    check_msm<C>("random, no 0/1 split", pts, k.data(), n, b);
    b = a; b.force_c = 3;
    check_msm<C>("random, c = 3 (86 windows)", pts, k.data(), n, b);
    b.item_cap = 700; /* 3 windows per group: 29 groups, a preemption point between each two */
    expect_pauses = 28;
    check_msm<C>("random, c = 3, groups of 3 windows", pts, k.data(), n, b);
    expect_pauses = -1;
    b = a; b.force_c = 16;
    check_msm<C>("random, c = 16 (sparse buckets)", pts, k.data(), n, b);
    b = a; b.force_c = 1;
    check_msm<C>("random, c = 1", pts, k.data(), 40, b);
    for (size_t i = 0; i < n; i++) k[i] = FR_ZERO;
    check_msm<C>("all zero", pts, k.data(), n, a);
    b = a; b.split = 0;
    check_msm<C>("all zero, no split", pts, k.data(), n, b);
    for (size_t i = 0; i < n; i++) k[i] = one;
    check_msm<C>("all one", pts, k.data(), n, a);
    check_msm<C>("all one, no split", pts, k.data(), n, b);
    for (size_t i = 0; i < NP; i++) k[i] = one;
    check_msm<C>("all one, 600 (affine round + tail)", pts, k.data(), NP, a);
    for (size_t i = 0; i < n; i++) k[i] = rm1;
    check_msm<C>("all r-1", pts, k.data(), n, a);
    fr_t same;
    gt_rand_scalar(&same);
    for (size_t i = 0; i < NP; i++) k[i] = same;
    check_msm<C>("one scalar for all (one bucket)", pts, k.data(), NP, a);
    for (size_t i = 0; i < NP; i++) {
        uint64_t r = gt_rand64() % 5;
        if (r == 0) k[i] = FR_ZERO;
        else if (r == 1) k[i] = one;
        else if (r == 2) { k[i] = FR_ZERO; k[i].l[0] = 2; }
        else if (r == 3) k[i] = rm1;
        else gt_rand_scalar(&k[i]);
    }
    check_msm<C>("mixed 0/1/2/r-1/random", pts, k.data(), NP, a);
    /* repeated points with equal scalars: tangent additions inside the batch */
    {
        std::vector<typename G::cpu_aff> rep(64, pts[3]);
        for (size_t i = 32; i < 64; i++) rep[i] = pts[4];
        C::aff_neg(&rep[63], &pts[4]); /* and P + (-P) */
        std::vector<fr_t> kr(64, same);
        check_msm<C>("repeated points, equal scalars", rep, kr.data(), 64, a);
        for (size_t i = 0; i < 64; i++) kr[i] = one;
        check_msm<C>("repeated points, all one", rep, kr.data(), 64, a);
    }
    /* one bucket per window holding 2100 entries and a ones bucket of 2100: more than XT_K^2, so the
     * forms that reach the tail with them (XYZZ only, the bounded tail) run three levels */
    {
        std::vector<typename G::cpu_aff> big(2100);
        for (size_t i = 0; i < big.size(); i++) big[i] = pts[i % NP];
        std::vector<fr_t> kb(big.size(), same);
        check_msm<C>("2100 points, one scalar, one bucket", big, kb.data(), big.size(), a);
        for (size_t i = 0; i < big.size(); i++) kb[i] = one;
        check_msm<C>("2100 points, all one", big, kb.data(), big.size(), a);
    }
    /* witness-like: 75 % zero, 20 % one, 5 % uniform */
    for (size_t i = 0; i < NP; i++) {
        uint64_t r = gt_rand64() % 100;
        if (r < 75) k[i] = FR_ZERO; else if (r < 95) k[i] = one; else gt_rand_scalar(&k[i]);
    }
    check_msm<C>("witness-like", pts, k.data(), NP, a);
    /* host scalars in parts (msm_tune_t::parts): witness-like, so the automatic rule (MSM_PARTS_AUTO parts, at most
     * a quarter general) sums all but the last part before the last chunk is in; uniform scalars it keeps whole */
    {
        msm_args_t h = a;
        h.src = MSM_SRC_HOST;
        h.scalar_chunks = 8;
        h.parts_min_n = 64;
        expect_early = (long)MSM_PARTS_AUTO - 1;
        check_msm<C>("witness-like, host scalars in 8 chunks (parts)", pts, k.data(), NP, h);
        h.mont = 1;
        check_msm<C>("witness-like, Montgomery host scalars (parts)", pts, k.data(), NP, h);
        std::vector<fr_t> ku(NP);
        for (size_t i = 0; i < NP; i++) gt_rand_scalar(&ku[i]);
        h.mont = 0;
        expect_early = 0;
        check_msm<C>("uniform, host scalars in 8 chunks (kept whole)", pts, ku.data(), NP, h);
        expect_early = -1;
    }
    /* gathered scalars: k_i = w[idx_i] from a witness 3x as long, Montgomery */
    {
        size_t nw = 3 * NP;
        std::vector<fr_t> w(nw), wm(nw), kg(NP);
        std::vector<uint32_t> idx(NP);
        for (size_t i = 0; i < nw; i++) {
            uint64_t r = gt_rand64() % 10;
            if (r < 5) w[i] = FR_ZERO; else if (r < 7) w[i] = one; else gt_rand_scalar(&w[i]);
            fr_to_mont(&wm[i], &w[i]);
        }
        for (size_t i = 0; i < NP; i++) { idx[i] = (uint32_t)((i * 7 + (gt_rand64() % 3)) % nw); kg[i] = w[idx[i]]; }
        exec_host ex;
        for (int mode = 0; mode < 2; mode++) {
            msm_args_t g = a;
            g.gather = idx.data();
            g.n_witness = nw;
            g.mont = 1;
            g.src = mode ? MSM_SRC_HOST : MSM_SRC_DEVICE;
            g.pts = pts.data(); g.n = NP; g.scalars = wm.data();
            msm_host_out<G> o;
            msm_stats_t st;
            pm_error e;
            GT_OK(msm_run<G>(ex, o, st, g, &e), e);
            typename G::cpu_jac got, want;
            msm_finish<G>(&got, o, st.c);
            GT_OK(C::msm(&want, pts.data(), kg.data(), NP), e);
            int ok = C::jac_eq(&got, &want);
            GT_CHECK(ok, "%s gathered MSM (%s witness) differs from the CPU MSM", C::name(), mode ? "host" : "device");
            printf("%s %-34s n=%-5zu %s\n", C::name(), mode ? "gathered, host witness" : "gathered, device witness", (size_t)NP,
                   ok ? "ok" : "MISMATCH");
        }
    }
}

/* A chunked MSM with its buckets kept across the chunks (msm_persist_begin / msm_persist_end, the
 * streamed and chunked paths of msm.cu): chunk sizes that do and do not divide n, windows forced small
 * (many windows, several groups per chunk) and the chunk's own, every accumulation variant, dense and
 * gathered scalars with zeros, ones and r - 1 mixed in; the sum against the CPU MSM. */
template <class C> static void test_msm_persist(void) {
    typedef typename C::G G;
    const size_t NP = 600;
    std::vector<typename G::cpu_aff> pts = make_points<C>(NP);
    std::vector<fr_t> k(NP);
    fr_t one = {{1, 0, 0, 0}}, rm1;
    fr_sub(&rm1, &FR_ZERO, &one);
    for (size_t i = 0; i < NP; i++) {
        const uint64_t r = gt_rand64() % 10;
        if (r < 3) k[i] = FR_ZERO; else if (r < 5) k[i] = one; else if (r < 6) k[i] = rm1; else gt_rand_scalar(&k[i]);
    }
    std::vector<uint32_t> idx(NP); /* gathered: scalar i is k[idx[i]], a permutation with repeats */
    for (size_t i = 0; i < NP; i++) idx[i] = (uint32_t)((i * 11 + gt_rand64() % 5) % NP);
    std::vector<fr_t> kg(NP);
    for (size_t i = 0; i < NP; i++) kg[i] = k[idx[i]];
    pm_error e;
    typename G::cpu_jac want, want_g;
    GT_OK(C::msm(&want, pts.data(), k.data(), NP), e);
    GT_OK(C::msm(&want_g, pts.data(), kg.data(), NP), e);
    static const msm_tune_t tunes[] = {{2, 0, 2, 0, 0, 0, 1, 1}, {0, 0, 0, 0, 0, 0, 0, 0}, {2, 0, 1, 1000000000, 0, 0, 0, 1},
                                       {2, 0, 0, 1, 2, 0, 1, 0}, {2, 0, 2, 0, 0, 0, 1, 0}};
    const size_t chunks[] = {64, 150, 599, 600};
    const unsigned cs[] = {0, 3, 9}; /* 0: the window of the chunk size (as msm.cu picks it) */
    int bad = 0, runs = 0;
    for (const msm_tune_t &tu : tunes)
        for (size_t chunk : chunks)
            for (unsigned cf : cs)
                for (int gather = 0; gather < 2; gather++) {
                    exec_host ex;
                    ex.host_lanes = 5;
                    const unsigned c = cf ? cf : gpu_sizes_keep_window(msm_sizes<G>(), chunk);
                    void *P = msm_persist_begin<G>(ex, c);
                    GT_CHECK(P != nullptr, "%s persist: no buckets", C::name());
                    if (!P) return;
                    typename G::cpu_jac acc, part;
                    G::jac_inf(&acc);
                    for (size_t c0 = 0; c0 < NP; c0 += chunk) {
                        const size_t m = NP - c0 < chunk ? NP - c0 : chunk;
                        msm_args_t a;
                        memset(&a, 0, sizeof a);
                        a.src = MSM_SRC_DEVICE;
                        a.split = 1;
                        a.pts = pts.data() + c0;
                        a.n = m;
                        if (gather) { a.gather = idx.data() + c0; a.n_witness = NP; a.scalars = k.data(); }
                        else a.scalars = k.data() + c0;
                        a.item_cap = m; /* one window per group, as a streamed chunk */
                        a.force_c = c;
                        a.persist = P;
                        a.tune = tu;
                        msm_host_out<G> o;
                        msm_stats_t st;
                        GT_OK(msm_run<G>(ex, o, st, a, &e), e);
                        msm_finish<G>(&part, o, c); /* the chunk's ones only: its windows are in P */
                        G::jac_add(&acc, &acc, &part);
                    }
                    msm_host_out<G> fin;
                    msm_stats_t st;
                    memset(&st, 0, sizeof st);
                    GT_OK(msm_persist_end<G>(ex, fin, st, P, c, tu, 1, &e), e);
                    msm_finish<G>(&part, fin, c);
                    G::jac_add(&acc, &acc, &part);
                    const int ok = C::jac_eq(&acc, gather ? &want_g : &want);
                    bad += !ok;
                    runs++;
                    if (!ok)
                        printf("%s persist MISMATCH: chunk %zu, c %u, %s, acc=%u xi=%u tail=%zu inv=%u tbound=%u\n", C::name(), chunk, c,
                               gather ? "gathered" : "dense", tu.acc, tu.xinline, tu.tail, tu.inv, tu.tbound);
                }
    GT_CHECK(bad == 0, "%s chunked MSM with kept buckets: %d of %d runs differ from the CPU MSM", C::name(), bad, runs);
    printf("%s chunked MSM, buckets kept across chunks (chunks 64/150/599/600, c 3/9/own, dense and gathered, 5 variants): %d runs %s\n",
           C::name(), runs, bad ? "FAIL" : "ok");
}

/* The chunk schedule of msm_stream.cuh (msm.cu's streamed and chunked MSMs), with the zero scalars'
 * points left off the bus: gathered and dense scalars with ~75 % zeros, all zero, none zero; chunk sizes that
 * do and do not divide n; counting segments of the chunk (as on the device: a segment never holds more
 * than a chunk) and of 16 positions (many segments per chunk, zero-count runs); packing never, by the
 * density rule and always; buckets kept or not; resident chunks and dense scalars beside. The sum
 * against the CPU MSM; the points sent and the chunks against a count made here. */
/* the arguments of one chunked MSM of test_msm_stream: device-side scalars, the 0/1 split, item cap =
 * chunk; in: n points in chunks of `chunk`, gathered by idx (NULL: dense), kept buckets, pack mode */
static void stream_args(msm_args_t &a, msm_stream_t &in, size_t n, size_t chunk, const uint32_t *idx, const fr_t *w, int keep,
                        unsigned pack) {
    memset(&a, 0, sizeof a);
    a.src = MSM_SRC_DEVICE;
    a.split = 1;
    a.item_cap = chunk;
    a.n_witness = n;
    memset(&in, 0, sizeof in);
    in.n = n;
    in.chunk = chunk;
    in.gather = idx;
    in.scalars = w;
    in.keep = keep;
    in.pack = pack;
}

template <class C> static void test_msm_stream(void) {
    typedef typename C::G G;
    const size_t NP = 600;
    std::vector<typename G::cpu_aff> pts = make_points<C>(NP);
    fr_t one = {{1, 0, 0, 0}}, rm1;
    fr_sub(&rm1, &FR_ZERO, &one);
    std::vector<uint32_t> idx(NP);
    for (size_t i = 0; i < NP; i++) idx[i] = (uint32_t)((i * 7 + gt_rand64() % 3) % NP);
    int bad = 0, runs = 0;
    pm_error e;
    for (int dist = 0; dist < 3; dist++) { /* 0: ~75 % zero, 1: all zero, 2: none zero */
        std::vector<fr_t> w(NP);
        for (size_t i = 0; i < NP; i++) {
            const uint64_t r = gt_rand64() % 8;
            if (dist == 1 || (dist == 0 && r < 6)) w[i] = FR_ZERO;
            else if (r == 6) w[i] = one;
            else if (r == 7 && dist == 0) w[i] = rm1;
            else gt_rand_scalar(&w[i]);
            if (dist == 2 && fr_is_zero_(w[i])) w[i] = one;
        }
        std::vector<fr_t> kg(NP);
        size_t nz = 0, nzd = 0;
        for (size_t i = 0; i < NP; i++) { kg[i] = w[idx[i]]; nz += !fr_is_zero_(kg[i]); nzd += !fr_is_zero_(w[i]); }
        typename G::cpu_jac want_g, want_d;
        GT_OK(C::msm(&want_g, pts.data(), kg.data(), NP), e);
        GT_OK(C::msm(&want_d, pts.data(), w.data(), NP), e);
        const size_t chunks[] = {64, 150, 599, 600};
        for (size_t chunk : chunks)
            for (size_t seg : {(size_t)0, (size_t)16})
                for (unsigned pack = 0; pack < 3; pack++)
                    for (int keep = 0; keep < 2; keep++)
                        for (int mode = 0; mode < 3; mode++) { /* 0 streamed gathered, 1 streamed dense, 2 resident gathered */
                            if (mode == 2 && (pack || seg)) continue;
                            exec_host ex;
                            ex.host_lanes = 5;
                            msm_args_t a;
                            msm_stream_t in;
                            stream_args(a, in, NP, chunk, mode == 1 ? nullptr : idx.data(), w.data(), keep, pack);
                            if (mode == 2) in.res_pts = pts.data();
                            else in.host_pts = in.host_dev = pts.data();
                            in.pack_seg = seg;
                            gpu_msm_timing_t tm;
                            memset(&tm, 0, sizeof tm);
                            typename G::cpu_jac got;
                            GT_OK(msm_chunks<G>(ex, &got, a, in, tm, &e), e);
                            const int ok = C::jac_eq(&got, mode == 1 ? &want_d : &want_g);
                            /* the points and chunks it should have sent */
                            const std::vector<fr_t> &ks = mode == 1 ? w : kg; /* the scalars as the MSM sees them */
                            const size_t nzm = mode == 1 ? nzd : nz;
                            const bool packed = mode < 2 && pack && (pack == 2 || 4 * nzm <= NP);
                            const size_t sg = seg ? (seg < chunk ? seg : chunk) : (GPU_SIZES_PACK_SEG < chunk ? GPU_SIZES_PACK_SEG : chunk);
                            size_t want_chunks = gpu_sizes_chunk_count(NP, chunk);
                            if (packed) { /* greedy runs of whole segments, at most `chunk` non-zero each */
                                want_chunks = 0;
                                size_t sum = 0, open = 0;
                                for (size_t s0 = 0; s0 < NP; s0 += sg) {
                                    size_t cs = 0;
                                    for (size_t i = s0; i < s0 + sg && i < NP; i++) cs += !fr_is_zero_(ks[i]);
                                    if (open && sum + cs > chunk) { want_chunks += sum > 0; sum = 0; }
                                    sum += cs;
                                    open = 1;
                                }
                                want_chunks += sum > 0;
                            }
                            const size_t want_sent = mode == 2 ? 0 : (packed ? nzm : NP);
                            if (!want_chunks) want_chunks = 1; /* streamed, nothing to send: reported as one chunk */
                            const int ok2 = tm.sent == want_sent && tm.chunks == (mode == 2 ? 0u : (unsigned)want_chunks);
                            bad += !ok || !ok2;
                            runs++;
                            if (!ok || !ok2)
                                printf("%s stream MISMATCH: dist %d chunk %zu seg %zu pack %u keep %d mode %d: point %s, sent %zu (want %zu), "
                                       "chunks %u (want %zu)\n",
                                       C::name(), dist, chunk, seg, pack, keep, mode, ok ? "ok" : "WRONG", tm.sent, want_sent, tm.chunks,
                                       want_chunks);
                        }
    }
    /* a prefetched prefix (msm_stream_t pre_pts, pre_n: gpu_g1_bases_prefetch): its chunks read from it, the
     * rest is copied; the same point, n - pre_n points sent, ceil(pre/chunk) + ceil(rest/chunk) chunks. The
     * prefix here is a copy of the first points in another buffer, and the host copy's prefix is poisoned,
     * so a chunk that read the wrong one gives a wrong point. A packed MSM ignores the prefix. */
    int pbad = 0, pruns = 0;
    for (int dist = 0; dist < 3; dist += 2) {
        std::vector<fr_t> w(NP);
        for (size_t i = 0; i < NP; i++) {
            const uint64_t r = gt_rand64() % 4;
            if (dist == 0 && r < 2) w[i] = FR_ZERO;
            else if (r == 2) w[i] = one;
            else gt_rand_scalar(&w[i]);
            if (dist == 2 && fr_is_zero_(w[i])) w[i] = rm1;
        }
        std::vector<fr_t> kg(NP);
        for (size_t i = 0; i < NP; i++) kg[i] = w[idx[i]];
        typename G::cpu_jac want_g, want_d;
        GT_OK(C::msm(&want_g, pts.data(), kg.data(), NP), e);
        GT_OK(C::msm(&want_d, pts.data(), w.data(), NP), e);
        for (size_t chunk : {(size_t)64, (size_t)150, (size_t)600})
            for (size_t pre : {(size_t)1, (size_t)63, (size_t)64, (size_t)150, (size_t)299, (size_t)599, (size_t)600, (size_t)900})
                for (int keep = 0; keep < 2; keep++)
                    for (int mode = 0; mode < 2; mode++)
                        for (unsigned pack = 0; pack < 3; pack += 2) {
                            const size_t pn = pre < NP ? pre : NP;
                            std::vector<typename G::cpu_aff> host(pts), prefix(pts.begin(), pts.begin() + (long)pn);
                            for (size_t i = 0; i < pn; i++) host[i] = pts[(i + 1) % NP]; /* poisoned: read only the prefix */
                            exec_host ex;
                            ex.host_lanes = 5;
                            msm_args_t a;
                            msm_stream_t in;
                            stream_args(a, in, NP, chunk, mode == 1 ? nullptr : idx.data(), w.data(), keep, pack);
                            /* a packed MSM reads the true points (it ignores the prefix) */
                            in.host_pts = in.host_dev = pack ? pts.data() : host.data();
                            in.pre_pts = prefix.data();
                            in.pre_n = pre;
                            gpu_msm_timing_t tm;
                            memset(&tm, 0, sizeof tm);
                            typename G::cpu_jac got;
                            GT_OK(msm_chunks<G>(ex, &got, a, in, tm, &e), e);
                            const int ok = C::jac_eq(&got, mode == 1 ? &want_d : &want_g);
                            const size_t cp = (pn + chunk - 1) / chunk, rest = NP - pn;
                            const size_t want_chunks = pack ? tm.chunks : cp + (rest ? (rest + chunk - 1) / chunk : 0);
                            const size_t want_sent = pack ? tm.sent : rest;
                            const int ok2 = tm.sent == want_sent && tm.chunks == (unsigned)want_chunks && (pack || tm.sent < NP);
                            pbad += !ok || !ok2;
                            pruns++;
                            if (!ok || !ok2)
                                printf("%s prefix MISMATCH: dist %d chunk %zu pre %zu keep %d mode %d pack %u: point %s, sent %zu (want %zu), "
                                       "chunks %u (want %zu)\n",
                                       C::name(), dist, chunk, pre, keep, mode, pack, ok ? "ok" : "WRONG", tm.sent, want_sent, tm.chunks,
                                       want_chunks);
                        }
    }
    GT_CHECK(pbad == 0, "%s chunk schedule with a prefetched prefix: %d of %d runs wrong", C::name(), pbad, pruns);
    printf("%s chunk schedule with a prefetched prefix (8 prefix lengths, 3 chunk sizes, kept buckets, dense/gathered, "
           "packed ignores it): %d runs %s\n",
           C::name(), pruns, pbad ? "FAIL" : "ok");
    GT_CHECK(bad == 0, "%s chunk schedule (msm_stream.cuh): %d of %d runs wrong", C::name(), bad, runs);
    printf("%s chunk schedule, zero scalars' points left off the bus (75 %%/all/no zeros, 4 chunk sizes, segments, pack "
           "0/1/2, kept buckets, resident, dense): %d runs %s\n",
           C::name(), runs, bad ? "FAIL" : "ok");
}

/* The kept window from each chunk's general scalars (msm_stream_t count_window, gpu_sizes_count_window):
 * witness-like scalars (~90 % zeros and ones), skewed (every general scalar in the first chunk, or in
 * one middle run), no general scalar at all, and uniform; dense and gathered, Montgomery or not,
 * streamed (plain, packed, with a prefetched prefix) and resident chunks, one executor reused across
 * the runs (a count left from the MSM before would show). The sum against the CPU MSM, and the window against
 * gpu_sizes_count_window over counts made here: never wider than the chunk size's, narrower for the
 * witness-like sets, the chunk size's for uniform scalars. */
template <class C> static void test_count_window(void) {
    typedef typename C::G G;
    /* chunks of 800 and 1100 points: from ~500 points on a narrower window fits the chunk size's bytes */
    const size_t NP = 2400;
    std::vector<typename G::cpu_aff> pts = make_points<C>(NP);
    const fr_t one = {{1, 0, 0, 0}};
    std::vector<uint32_t> idx(NP);
    for (size_t i = 0; i < NP; i++) idx[i] = (uint32_t)((i * 11 + gt_rand64() % 5) % NP);
    int bad = 0, runs = 0, narrower = 0;
    pm_error e;
    for (int dist = 0; dist < 5; dist++) { /* 0 witness-like, 1 general ones in chunk 0, 2 in one middle run, 3 none, 4 uniform */
        std::vector<fr_t> w(NP);
        for (size_t i = 0; i < NP; i++) {
            const uint64_t r = gt_rand64() % 20;
            const bool gen = dist == 4 || (dist == 0 && r < 2) || (dist == 1 && i < 100 && r < 8) || (dist == 2 && i >= 500 && i < 540);
            if (gen) gt_rand_scalar(&w[i]);
            else w[i] = (r & 1) ? one : FR_ZERO;
            if (dist == 4 && (fr_is_zero_(w[i]) || fr_eq(&w[i], &one))) w[i].l[1] ^= 1; /* uniform: every scalar general */
        }
        std::vector<fr_t> wm(NP);
        for (size_t i = 0; i < NP; i++) fr_to_mont(&wm[i], &w[i]);
        for (size_t chunk : {(size_t)800, (size_t)1100}) {
            /* one executor for every run of this chunk size, as a handle keeps its scratch between MSMs:
             * each MSM must clear its counts */
            exec_host ex;
            ex.host_lanes = 5;
            /* 0 streamed gathered, 1 streamed dense, 2 resident gathered, 3 streamed gathered packed, 4 streamed
             * gathered with a prefetched prefix of 1300 points */
            for (int mode = 0; mode < 5; mode++)
                for (int mont = 0; mont < 2; mont++) {
                    const bool dense = mode == 1;
                    const size_t pre = mode == 4 ? 1300 : 0;
                    std::vector<fr_t> ks(NP);
                    for (size_t i = 0; i < NP; i++) ks[i] = dense ? w[i] : w[idx[i]];
                    typename G::cpu_jac want, got;
                    GT_OK(C::msm(&want, pts.data(), ks.data(), NP), e);
                    msm_args_t a;
                    msm_stream_t in;
                    stream_args(a, in, NP, chunk, dense ? nullptr : idx.data(), mont ? wm.data() : w.data(), 1, mode == 3 ? 2 : 0);
                    a.mont = mont;
                    in.count_window = 1;
                    if (mode == 2) in.res_pts = pts.data();
                    else in.host_pts = in.host_dev = pts.data();
                    if (pre) {
                        in.pre_pts = pts.data();
                        in.pre_n = pre;
                    }
                    gpu_msm_timing_t tm;
                    memset(&tm, 0, sizeof tm);
                    GT_OK(msm_chunks<G>(ex, &got, a, in, tm, &e), e);
                    /* the window it should have kept: the counts per chunk as the schedule cuts them */
                    const unsigned cmax = gpu_sizes_keep_window(msm_sizes<G>(), chunk);
                    std::vector<uint64_t> cnt;
                    if (mode == 3) { /* packed: greedy runs of segments of min(1024, chunk) positions, <= chunk non-zero each */
                        const size_t sg = GPU_SIZES_PACK_SEG < chunk ? GPU_SIZES_PACK_SEG : chunk;
                        size_t nzs = 0, gs = 0;
                        for (size_t s0 = 0; s0 < NP; s0 += sg) {
                            size_t nz = 0, gn = 0;
                            for (size_t i = s0; i < s0 + sg && i < NP; i++) {
                                nz += !fr_is_zero_(ks[i]);
                                gn += !fr_is_zero_(ks[i]) && !fr_eq(&ks[i], &one);
                            }
                            if (s0 && nzs + nz > chunk) {
                                if (nzs) cnt.push_back(gs);
                                nzs = gs = 0;
                            }
                            nzs += nz;
                            gs += gn;
                        }
                        if (nzs) cnt.push_back(gs);
                    } else { /* the prefix's chunks [0, pre) in pieces of `chunk`, then the rest's from pre */
                        for (size_t part = 0; part < 2; part++) {
                            const size_t lo = part ? pre : 0, hi = part ? NP : pre;
                            for (size_t c0 = lo; c0 < hi; c0 += chunk) {
                                uint64_t gn = 0;
                                for (size_t i = c0; i < c0 + chunk && i < hi; i++) gn += !fr_is_zero_(ks[i]) && !fr_eq(&ks[i], &one);
                                cnt.push_back(gn);
                            }
                        }
                    }
                    const unsigned want_c = cnt.size() > 1 ? gpu_sizes_count_window(msm_sizes<G>(), cnt.data(), cnt.size(), NP, cmax) : 0;
                    const int ok = C::jac_eq(&got, &want);
                    const int ok2 = cnt.size() <= 1 || (tm.window_bits == want_c && want_c <= cmax && (dist != 4 || want_c == cmax));
                    narrower += cnt.size() > 1 && dist == 0 && want_c < cmax;
                    bad += !ok || !ok2;
                    runs++;
                    if (!ok || !ok2)
                        printf("%s count window MISMATCH: dist %d chunk %zu mode %d mont %d: point %s, window %u (want %u, chunk size's %u)\n",
                               C::name(), dist, chunk, mode, mont, ok ? "ok" : "WRONG", tm.window_bits, want_c, cmax);
                }
        }
    }
    GT_CHECK(bad == 0, "%s kept window from the general scalars per chunk: %d of %d runs wrong", C::name(), bad, runs);
    GT_CHECK(narrower > 0, "%s kept window from the general scalars: no witness-like run got a narrower window", C::name());
    printf("%s kept window from the general scalars per chunk (witness-like, skewed, none, uniform; dense, gathered, mont, "
           "packed, prefix, resident): %d runs, %d narrower, %s\n", C::name(), runs, narrower, bad ? "FAIL" : "ok");
}

/* ---------------- fixed-base batch ---------------- */
template <class C> static void test_fixed_base(void) {
    typedef typename C::G G;
    typedef typename G::E E;
    const size_t n = 200;
    std::vector<typename G::cpu_aff> base = make_points<C>(13);
    const typename G::cpu_aff &P = base[12];
    std::vector<fr_t> k(n);
    for (size_t i = 0; i < n; i++) gt_rand_scalar(&k[i]);
    k[0] = FR_ZERO;
    k[1].l[0] = 1; k[1].l[1] = k[1].l[2] = k[1].l[3] = 0;
    fr_sub(&k[2], &FR_ZERO, &k[1]); /* r - 1 */
    for (int wbits = 4; wbits <= 8; wbits += 4) {
        exec_host ex;
        std::vector<typename G::cpu_aff> out(n);
        pm_error e;
        GT_OK((fixed_base_run<G>(ex, out.data(), reinterpret_cast<const aff_t<E> *>(&P), k.data(), n, 0, (unsigned)wbits, 64, &e)), e);
        int bad = 0;
        typename G::cpu_jac jp;
        C::jac_from_aff(&jp, &P);
        for (size_t i = 0; i < n; i++) {
            typename G::cpu_jac want;
            typename G::cpu_aff wa;
            C::jac_mul(&want, &jp, &k[i]);
            C::jac_to_aff(&wa, &want);
            bad += !C::aff_eq(&wa, &out[i]);
        }
        GT_CHECK(bad == 0, "%s fixed-base batch (w = %d): %d of %zu differ from [k]P", C::name(), wbits, bad, n);
        printf("%s fixed-base batch, %d-bit windows, n=%zu: %s\n", C::name(), wbits, n, bad ? "FAIL" : "ok");
    }
}

/* ---------------- the device-memory model against the allocations ----------------
 * gpu_sizes.h's msm scratch (what the device-memory planner reserves for one MSM) against what msm_run
 * really grows on the executor, for uniform scalars (every scalar general: the worst case the model is
 * for; WindowPoSt's Poseidon states): the sum of the run's scratch slots, less CUB's temporaries (the
 * host executor has none; the model keeps GPU_SIZES_CUB_BYTES + 1 B per item for them), must not exceed
 * the model, at the group's default item cap and at item_cap = n (a streamed chunk), at several lane
 * counts. An MSM that grows more than the plan reserves runs the card out of memory (2026-12-06:
 * WindowPoSt at the H100's defaults, docs/perf/devplan.md). */
template <class C> static void test_scratch_model(void) {
    typedef typename C::G G;
    const size_t sizes[] = {2000, 12000};
    for (size_t n : sizes) {
        std::vector<typename G::cpu_aff> pts = make_points<C>(n);
        std::vector<fr_t> k(n);
        for (size_t i = 0; i < n; i++) gt_rand_scalar(&k[i]);
        for (int capped = 0; capped < 3; capped++) { /* 2: a chunk of a chunked MSM, its buckets kept */
          for (int v1 = 0; v1 < 2; v1++) {
            msm_tune_t tune = msm_tune_from_env();
            if (v1) tune.acc = 0, tune.xinline = 0;
            for (size_t lanes : {(size_t)7, (size_t)64}) {
                msm_args_t a;
                memset(&a, 0, sizeof a);
                a.src = MSM_SRC_HOST;
                a.split = 1;
                a.pts = pts.data();
                a.n = n;
                a.scalars = k.data();
                a.item_cap = capped ? n : 0;
                a.tune = tune; /* the production default (msm_tune_from_env) or the v1 rounds */
                exec_host ex;
                ex.host_lanes = lanes;
                msm_host_out<G> o;
                msm_stats_t st;
                pm_error e;
                if (capped == 2) {
                    a.force_c = gpu_sizes_keep_window(msm_sizes<G>(), n);
                    a.persist = msm_persist_begin<G>(ex, a.force_c);
                }
                GT_OK(msm_run<G>(ex, o, st, a, &e), e);
                if (capped == 2) {
                    /* the same chunk's shapes that the kept window makes wider than their own: a short last
                     * chunk (n / 8 points) and witness-like scalars (80 % zeros and ones), both at item_cap n */
                    msm_args_t b = a;
                    b.n = n / 8;
                    msm_host_out<G> o2;
                    msm_stats_t st3;
                    GT_OK(msm_run<G>(ex, o2, st3, b, &e), e);
                    std::vector<fr_t> ks(k);
                    const fr_t one = {{1, 0, 0, 0}};
                    for (size_t i = 0; i < n; i++)
                        if (i % 5) ks[i] = (i % 5) < 3 ? FR_ZERO : one;
                    b = a;
                    b.scalars = ks.data();
                    GT_OK(msm_run<G>(ex, o2, st3, b, &e), e);
                    msm_host_out<G> fin;
                    msm_stats_t st2;
                    memset(&st2, 0, sizeof st2);
                    GT_OK(msm_persist_end<G>(ex, fin, st2, a.persist, a.force_c, tune, 1, &e), e);
                }
                size_t used = 0;
                for (int sl = 0; sl < SLOT_COUNT; sl++)
                    if (sl != SLOT_CUB && sl != SLOT_BASES0 && sl != SLOT_BASES1 && sl != SLOT_WIT && (sl < SLOT_FB_TABLE || sl > SLOT_FB_SC1))
                        used += ex.slot_b[sl];
                const unsigned c = gpu_sizes_window_bits(n, msm_sizes<G>()->rho), W = (256 + c - 1) / c;
                const size_t cap = capped ? n : msm_sizes<G>()->item_cap;
                size_t gw = cap / n;
                gw = gw < 1 ? 1 : (gw > W ? W : gw);
                const size_t model = msm_scratch_bytes<G>(n, a.item_cap, lanes) - GPU_SIZES_CUB_BYTES - gw * n +
                                     (capped == 2 ? gpu_sizes_msm_persist_bytes(msm_sizes<G>(), n) : 0);
                GT_CHECK(used <= model, "%s MSM scratch at n = %zu (%s, acc %u, %zu lanes, c = %u): %zu bytes grown, the model reserves %zu",
                         C::name(), n, capped == 2 ? "chunk, kept buckets" : capped ? "item_cap = n" : "default item cap", tune.acc, lanes, st.c, used, model);
                if (used > model)
                    for (int sl = 0; sl < SLOT_COUNT; sl++)
                        if (ex.slot_b[sl]) printf("  slot %d: %zu bytes\n", sl, ex.slot_b[sl]);
                GT_CHECK(st.c == c, "%s MSM at n = %zu: window %u, the model's %u", C::name(), n, st.c, c);
                printf("%s scratch model n=%-6zu %-16s acc=%u lanes=%-3zu c=%-2u grown %9zu <= model %9zu  %s\n", C::name(), n,
                       capped == 2 ? "chunk, kept buckets" : capped ? "item_cap = n" : "default item cap", tune.acc, lanes, st.c, used, model,
                       used <= model ? "ok" : "FAIL");
            }
          }
        }
    }
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    gt_seed();
    test_field();
    test_curve<cpu_g1>();
    test_curve<cpu_g2>();
    test_msm<cpu_g1>();
    test_msm<cpu_g2>();
    test_msm_persist<cpu_g1>();
    test_msm_persist<cpu_g2>();
    test_msm_stream<cpu_g1>();
    test_msm_stream<cpu_g2>();
    test_count_window<cpu_g1>();
    test_count_window<cpu_g2>();
    test_fixed_base<cpu_g1>();
    test_fixed_base<cpu_g2>();
    test_scratch_model<cpu_g1>();
    test_scratch_model<cpu_g2>();
    printf("%s: %d failure(s)\n", gt_failures ? "FAILED" : "PASSED", gt_failures);
    return gt_failures ? 1 : 0;
}
