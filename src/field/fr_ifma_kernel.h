/*
 * fr_ifma_kernel.h — the 8-lane radix-2^52 Fr butterfly kernel (internal; no include guard: it is
 * included once per implementation of the lane abstraction, see fr_bfly_ifma.c).
 *
 * The includer defines, for 8 lanes of 64 bits:
 *   pmv (vector type), pmm (8-bit lane mask type), PM_VATTR (function attributes), and
 *   v_set1(u64), v_add, v_sub, v_and, v_or, v_srli(a, imm), v_slli(a, imm),
 *   v_madd52lo(a, b, c) = a + low52(low52(b) * low52(c)),
 *   v_madd52hi(a, b, c) = a + high52(low52(b) * low52(c))   (the 104-bit product's bits 52..103),
 *   v_nz(a) -> mask of lanes != 0, v_sel(m, t, f) -> m ? t : f lane-wise,
 *   v_setr8(e0, ..., e7) -> lane k = ek (constants), v_load(p) -> lane k = p[k] and v_store(p, v):
 *   p[k] = lane k (8 consecutive uint64_t, any alignment), v_perm2(a, idx, b) -> lane k = lane
 *   (idx_k & 7) of a if bit 3 of idx_k is 0, of b if it is 1, higher idx bits ignored (VPERMT2Q),
 *   and PMK(name), which names this copy's functions.
 * Exactly these operations are used below, so the portable model and the AVX-512 IFMA build run the
 * same algorithm, instruction for instruction.
 *
 * Element shapes: in memory 8 consecutive fr_t (4 little-endian 64-bit limbs each, Montgomery form
 * a*2^256 mod r, < r); in registers 5 vectors of 52-bit limbs (lane k = element k, limb j = bits
 * 52j..52j+51), each limb < 2^52 unless stated.
 *
 * The Montgomery constant. In radix 2^52 with 5 words the word-serial reduction below computes
 * mont52(a, b) = a*b*2^-260 mod r; the library's product is a*b*2^-256 mod r. We feed it b = 16*w
 * as an integer (not reduced): since w < r < 2^255, 16w < 2^259 < 2^260 still has five 52-bit limbs,
 * obtained directly by the 4x64 -> 5x52 conversion shifted 4 bits (load_w16). Then
 *   mont52(y, 16w) = y*16w*2^-260 = y*w*2^-256 (mod r),
 * and the value before the final subtraction is T = (y*16w + m*r) / 2^260 with m < 2^260, so
 *   T < y*16w/2^260 + r < r*(16r/2^260) + r = r*(1 + r/2^256) < 2r,
 * hence one conditional subtraction of r gives the canonical value (< r), the same bytes as the
 * 4x64 CIOS product of the scalar kernels (both are the unique representative in [0, r)).
 *
 * Accumulator bound: each of the 6 accumulators receives at most 4 addends < 2^52 per outer
 * iteration (lo(a_i b_j), lo(m r_j), hi(a_i b_{j-1}), hi(m r_{j-1})) plus a carry < 2^13, for at most
 * 5 iterations: < 21 * 2^52 < 2^57, far below 2^64, so no lane overflows.
 *
 * Sources: P. L. Montgomery, Math. Comp. 44 (1985); Ç. K. Koç, T. Acar, B. S. Kaliski, IEEE Micro
 * 16(3), 1996 (CIOS, word-serial reduction); Intel SDM / Intrinsics Guide, VPMADD52LUQ/VPMADD52HUQ;
 * N. Drucker, S. Gueron, "Fast modular squaring with AVX512IFMA", 2018 (radix-2^52 accumulation
 * with the lo/hi halves added into adjacent unnormalised words). Own code.
 */

#define PMK_M52 0xFFFFFFFFFFFFFULL

typedef struct {
    pmv l[5];
} PMK(fe);

/* r in radix 2^52 and -r^-1 mod 2^52 */
#define PMK_R0 0xfffff00000001ULL
#define PMK_R1 0x2fffe5bfefffULL
#define PMK_R2 0x9a1d80553bda4ULL
#define PMK_R3 0x7d483339d8080ULL
#define PMK_R4 0x73eda753299dULL
#define PMK_N0 0xffffeffffffffULL

/* The 4x8 <-> 8x4 transposes between memory (8 fr_t = 32 uint64_t, p[4k + j] = limb j of element k)
 * and limb-sliced vectors (l[j], lane k = limb j of element k), by two-source permutes (VPERMT2Q):
 *   q0 = (0, 4, 8, 12, 1, 5, 9, 13), q1 = (2, 6, 10, 14, 3, 7, 11, 15) interleave two memory vectors
 *   m, m' (elements e, e+1 and e+2, e+3) into (limbs 0, 1) and (limbs 2, 3) of those 4 elements, each
 *   as 4 lanes of element order: q0 gives (e.l0, e+1.l0, e+2.l0, e+3.l0, e.l1, ..., e+3.l1);
 *   h0 = (0, 1, 2, 3, 8, 9, 10, 11), h1 = (4, 5, 6, 7, 12, 13, 14, 15) join the low / high 256-bit
 *   halves of two vectors.
 * Load: (q0, q1) on (m0, m1) and on (m2, m3), then (h0, h1) on the results: 8 permutes, the minimum
 * for two-source permutes (each of the 4 outputs needs 2 elements of each of the 4 inputs, and an
 * intermediate holds 8 of the 16 values one output pair needs from a pair of inputs). Store is the
 * inverse: (h0, h1) first, then (q0, q1), with the same four index vectors (q0, q1 undo themselves
 * once the halves are regrouped). 4 plain 512-bit loads or stores; no alignment needed. */
PM_VATTR static inline void PMK(load4)(pmv l[4], const uint64_t *p) {
    const pmv q0 = v_setr8(0, 4, 8, 12, 1, 5, 9, 13), q1 = v_setr8(2, 6, 10, 14, 3, 7, 11, 15);
    const pmv h0 = v_setr8(0, 1, 2, 3, 8, 9, 10, 11), h1 = v_setr8(4, 5, 6, 7, 12, 13, 14, 15);
    const pmv m0 = v_load(p), m1 = v_load(p + 8), m2 = v_load(p + 16), m3 = v_load(p + 24);
    const pmv a = v_perm2(m0, q0, m1), b = v_perm2(m0, q1, m1); /* elements 0..3: limbs 0,1 | 2,3 */
    const pmv c = v_perm2(m2, q0, m3), d = v_perm2(m2, q1, m3); /* elements 4..7 */
    l[0] = v_perm2(a, h0, c);
    l[1] = v_perm2(a, h1, c);
    l[2] = v_perm2(b, h0, d);
    l[3] = v_perm2(b, h1, d);
}
/* l[j] (lane k = limb j of element k) -> 8 elements at p (32 uint64_t, p[4k + j]) */
PM_VATTR static inline void PMK(store4)(uint64_t *p, const pmv l[4]) {
    const pmv q0 = v_setr8(0, 4, 8, 12, 1, 5, 9, 13), q1 = v_setr8(2, 6, 10, 14, 3, 7, 11, 15);
    const pmv h0 = v_setr8(0, 1, 2, 3, 8, 9, 10, 11), h1 = v_setr8(4, 5, 6, 7, 12, 13, 14, 15);
    const pmv a = v_perm2(l[0], h0, l[1]), c = v_perm2(l[0], h1, l[1]); /* limbs 0,1: elements 0..3 | 4..7 */
    const pmv b = v_perm2(l[2], h0, l[3]), d = v_perm2(l[2], h1, l[3]); /* limbs 2,3 */
    v_store(p, v_perm2(a, q0, b));
    v_store(p + 8, v_perm2(a, q1, b));
    v_store(p + 16, v_perm2(c, q0, d));
    v_store(p + 24, v_perm2(c, q1, d));
}
/* 8 elements at p (p[4k + j] = limb j of element k) -> 5x52 */
PM_VATTR static inline void PMK(load)(PMK(fe) *a, const uint64_t *p) {
    const pmv m = v_set1(PMK_M52);
    pmv l[4];
    PMK(load4)(l, p);
    a->l[0] = v_and(l[0], m);
    a->l[1] = v_and(v_or(v_srli(l[0], 52), v_slli(l[1], 12)), m);
    a->l[2] = v_and(v_or(v_srli(l[1], 40), v_slli(l[2], 24)), m);
    a->l[3] = v_and(v_or(v_srli(l[2], 28), v_slli(l[3], 36)), m);
    a->l[4] = v_srli(l[3], 16);
}
/* 8 elements w at p -> 5x52 limbs of the integer 16*w (< 2^259) */
PM_VATTR static inline void PMK(load_w16)(PMK(fe) *a, const uint64_t *p) {
    const pmv m = v_set1(PMK_M52);
    pmv l[4];
    PMK(load4)(l, p);
    a->l[0] = v_and(v_slli(l[0], 4), m);
    a->l[1] = v_and(v_or(v_srli(l[0], 48), v_slli(l[1], 16)), m);
    a->l[2] = v_and(v_or(v_srli(l[1], 36), v_slli(l[2], 28)), m);
    a->l[3] = v_and(v_or(v_srli(l[2], 24), v_slli(l[3], 40)), m);
    a->l[4] = v_srli(l[3], 12);
}
/* 5x52 (value < 2^256, limbs < 2^52) -> 8 elements at p */
PM_VATTR static inline void PMK(store)(uint64_t *p, const PMK(fe) *a) {
    pmv l[4];
    l[0] = v_or(a->l[0], v_slli(a->l[1], 52));
    l[1] = v_or(v_srli(a->l[1], 12), v_slli(a->l[2], 40));
    l[2] = v_or(v_srli(a->l[2], 24), v_slli(a->l[3], 28));
    l[3] = v_or(v_srli(a->l[3], 36), v_slli(a->l[4], 16));
    PMK(store4)(p, l);
}
/* a < 2r with limbs < 2^52 -> a mod r: d = a - r (borrow chain); keep a where it borrowed */
PM_VATTR static inline void PMK(csub)(PMK(fe) *a) {
    const pmv m = v_set1(PMK_M52);
    const uint64_t rr[5] = {PMK_R0, PMK_R1, PMK_R2, PMK_R3, PMK_R4};
    pmv d[5], br = v_set1(0);
    for (int j = 0; j < 5; j++) {
        pmv t = v_sub(v_sub(a->l[j], v_set1(rr[j])), br);
        br = v_srli(t, 63);
        d[j] = v_and(t, m);
    }
    pmm keep = v_nz(br);
    for (int j = 0; j < 5; j++) a->l[j] = v_sel(keep, a->l[j], d[j]);
}
/* o = a + b mod r (a, b < r) */
PM_VATTR static inline void PMK(addm)(PMK(fe) *o, const PMK(fe) *a, const PMK(fe) *b) {
    const pmv m = v_set1(PMK_M52);
    pmv c = v_set1(0);
    for (int j = 0; j < 5; j++) {
        pmv s = v_add(v_add(a->l[j], b->l[j]), c);
        c = v_srli(s, 52);
        o->l[j] = v_and(s, m);
    }
    PMK(csub)(o);
}
/* o = a - b mod r (a, b < r): d = a - b; where it borrowed, d + r (the 2^260 wraps away) */
PM_VATTR static inline void PMK(subm)(PMK(fe) *o, const PMK(fe) *a, const PMK(fe) *b) {
    const pmv m = v_set1(PMK_M52);
    const uint64_t rr[5] = {PMK_R0, PMK_R1, PMK_R2, PMK_R3, PMK_R4};
    pmv d[5], e[5], br = v_set1(0), c = v_set1(0);
    for (int j = 0; j < 5; j++) {
        pmv t = v_sub(v_sub(a->l[j], b->l[j]), br);
        br = v_srli(t, 63);
        d[j] = v_and(t, m);
    }
    for (int j = 0; j < 5; j++) {
        pmv s = v_add(v_add(d[j], v_set1(rr[j])), c);
        c = v_srli(s, 52);
        e[j] = v_and(s, m);
    }
    pmm neg = v_nz(br);
    for (int j = 0; j < 5; j++) o->l[j] = v_sel(neg, e[j], d[j]);
}
/* o = a*b*2^-260 mod r, fully reduced, for a < r and b < 16r (b = 16w: see the header comment) */
PM_VATTR static inline void PMK(mont)(PMK(fe) *o, const PMK(fe) *a, const PMK(fe) *b) {
    const pmv z = v_set1(0), m52 = v_set1(PMK_M52), n0 = v_set1(PMK_N0);
    const pmv r0 = v_set1(PMK_R0), r1 = v_set1(PMK_R1), r2 = v_set1(PMK_R2), r3 = v_set1(PMK_R3),
              r4 = v_set1(PMK_R4);
    pmv t0 = z, t1 = z, t2 = z, t3 = z, t4 = z, t5;
    for (int i = 0; i < 5; i++) {
        const pmv ai = a->l[i];
        t0 = v_madd52lo(t0, ai, b->l[0]);
        t1 = v_madd52lo(t1, ai, b->l[1]);
        t2 = v_madd52lo(t2, ai, b->l[2]);
        t3 = v_madd52lo(t3, ai, b->l[3]);
        t4 = v_madd52lo(t4, ai, b->l[4]);
        const pmv mq = v_madd52lo(z, t0, n0); /* m = t0 * (-r^-1) mod 2^52 */
        t0 = v_madd52lo(t0, mq, r0);          /* now t0 = 0 mod 2^52 */
        t1 = v_madd52lo(t1, mq, r1);
        t2 = v_madd52lo(t2, mq, r2);
        t3 = v_madd52lo(t3, mq, r3);
        t4 = v_madd52lo(t4, mq, r4);
        t1 = v_madd52hi(t1, ai, b->l[0]);
        t2 = v_madd52hi(t2, ai, b->l[1]);
        t3 = v_madd52hi(t3, ai, b->l[2]);
        t4 = v_madd52hi(t4, ai, b->l[3]);
        t5 = v_madd52hi(z, ai, b->l[4]);
        t1 = v_madd52hi(t1, mq, r0);
        t2 = v_madd52hi(t2, mq, r1);
        t3 = v_madd52hi(t3, mq, r2);
        t4 = v_madd52hi(t4, mq, r3);
        t5 = v_madd52hi(t5, mq, r4);
        /* divide by 2^52: t0's low 52 bits are 0, its high bits carry into t1 */
        t0 = v_add(t1, v_srli(t0, 52));
        t1 = t2;
        t2 = t3;
        t3 = t4;
        t4 = t5;
    }
    /* normalise (T < 2r < 2^256, so t4 < 2^52 after the carries), then T mod r */
    t1 = v_add(t1, v_srli(t0, 52));
    o->l[0] = v_and(t0, m52);
    t2 = v_add(t2, v_srli(t1, 52));
    o->l[1] = v_and(t1, m52);
    t3 = v_add(t3, v_srli(t2, 52));
    o->l[2] = v_and(t2, m52);
    t4 = v_add(t4, v_srli(t3, 52));
    o->l[3] = v_and(t3, m52);
    o->l[4] = t4;
    PMK(csub)(o);
}

/* two independent products o[s] = a[s]*b[s]*2^-260 mod r (s = 0, 1; each as mont above, same bounds),
 * statement by statement interleaved: the reduction is a serial chain per word (t0 -> m -> t0, ~3
 * IFMA latencies), and two chains side by side let the core overlap them */
PM_VATTR static inline void PMK(mont2)(PMK(fe) o[2], const PMK(fe) a[2], const PMK(fe) b[2]) {
    const pmv z = v_set1(0), m52 = v_set1(PMK_M52), n0 = v_set1(PMK_N0);
    const pmv r0 = v_set1(PMK_R0), r1 = v_set1(PMK_R1), r2 = v_set1(PMK_R2), r3 = v_set1(PMK_R3),
              r4 = v_set1(PMK_R4);
    pmv t0[2] = {z, z}, t1[2] = {z, z}, t2[2] = {z, z}, t3[2] = {z, z}, t4[2] = {z, z}, t5[2];
    for (int i = 0; i < 5; i++) {
        pmv ai[2], mq[2];
        for (int s = 0; s < 2; s++) {
            ai[s] = a[s].l[i];
            t0[s] = v_madd52lo(t0[s], ai[s], b[s].l[0]);
        }
        for (int s = 0; s < 2; s++) mq[s] = v_madd52lo(z, t0[s], n0);
        for (int s = 0; s < 2; s++) t0[s] = v_madd52lo(t0[s], mq[s], r0);
        for (int s = 0; s < 2; s++) {
            t1[s] = v_madd52lo(t1[s], ai[s], b[s].l[1]);
            t2[s] = v_madd52lo(t2[s], ai[s], b[s].l[2]);
            t3[s] = v_madd52lo(t3[s], ai[s], b[s].l[3]);
            t4[s] = v_madd52lo(t4[s], ai[s], b[s].l[4]);
            t1[s] = v_madd52lo(t1[s], mq[s], r1);
            t2[s] = v_madd52lo(t2[s], mq[s], r2);
            t3[s] = v_madd52lo(t3[s], mq[s], r3);
            t4[s] = v_madd52lo(t4[s], mq[s], r4);
            t1[s] = v_madd52hi(t1[s], ai[s], b[s].l[0]);
            t2[s] = v_madd52hi(t2[s], ai[s], b[s].l[1]);
            t3[s] = v_madd52hi(t3[s], ai[s], b[s].l[2]);
            t4[s] = v_madd52hi(t4[s], ai[s], b[s].l[3]);
            t5[s] = v_madd52hi(z, ai[s], b[s].l[4]);
            t1[s] = v_madd52hi(t1[s], mq[s], r0);
            t2[s] = v_madd52hi(t2[s], mq[s], r1);
            t3[s] = v_madd52hi(t3[s], mq[s], r2);
            t4[s] = v_madd52hi(t4[s], mq[s], r3);
            t5[s] = v_madd52hi(t5[s], mq[s], r4);
            t0[s] = v_add(t1[s], v_srli(t0[s], 52));
            t1[s] = t2[s];
            t2[s] = t3[s];
            t3[s] = t4[s];
            t4[s] = t5[s];
        }
    }
    for (int s = 0; s < 2; s++) {
        t1[s] = v_add(t1[s], v_srli(t0[s], 52));
        o[s].l[0] = v_and(t0[s], m52);
        t2[s] = v_add(t2[s], v_srli(t1[s], 52));
        o[s].l[1] = v_and(t1[s], m52);
        t3[s] = v_add(t3[s], v_srli(t2[s], 52));
        o[s].l[2] = v_and(t2[s], m52);
        t4[s] = v_add(t4[s], v_srli(t3[s], 52));
        o[s].l[3] = v_and(t3[s], m52);
        o[s].l[4] = t4[s];
        PMK(csub)(&o[s]);
    }
}

/* 8 DIT butterflies at x, y, w (each 8 consecutive fr_t as limbs): all loads before any store, so w
 * may alias x or y */
PM_VATTR static void PMK(step_dit)(uint64_t *x, uint64_t *y, const uint64_t *w) {
    PMK(fe) a, b, c, t, ox, oy;
    PMK(load)(&a, x);
    PMK(load)(&b, y);
    PMK(load_w16)(&c, w);
    PMK(mont)(&t, &b, &c);
    PMK(subm)(&oy, &a, &t);
    PMK(addm)(&ox, &a, &t);
    PMK(store)(y, &oy);
    PMK(store)(x, &ox);
}
/* 8 DIF butterflies: loads of x, y and w before the stores (w may alias y, or even x here) */
PM_VATTR static void PMK(step_dif)(uint64_t *x, uint64_t *y, const uint64_t *w) {
    PMK(fe) a, b, c, t, ox, oy;
    PMK(load)(&a, x);
    PMK(load)(&b, y);
    PMK(load_w16)(&c, w);
    PMK(subm)(&t, &a, &b);
    PMK(addm)(&ox, &a, &b);
    PMK(mont)(&oy, &t, &c);
    PMK(store)(x, &ox);
    PMK(store)(y, &oy);
}

/* 16 DIT butterflies, two steps side by side: x, y, w each 16 consecutive fr_t as limbs (64 uint64_t).
 * All loads of both steps before any store, so w may alias x or y (same indices) as in step_dit; x is
 * loaded after the products (still before any store) so that its 10 vectors are not live across them */
PM_VATTR static void PMK(step2_dit)(uint64_t *x, uint64_t *y, const uint64_t *w) {
    PMK(fe) a[2], b[2], c[2], t[2], ox[2], oy[2];
    for (int s = 0; s < 2; s++) {
        PMK(load)(&b[s], y + 32 * s);
        PMK(load_w16)(&c[s], w + 32 * s);
    }
    PMK(mont2)(t, b, c);
    for (int s = 0; s < 2; s++) PMK(load)(&a[s], x + 32 * s);
    for (int s = 0; s < 2; s++) {
        PMK(subm)(&oy[s], &a[s], &t[s]);
        PMK(addm)(&ox[s], &a[s], &t[s]);
    }
    for (int s = 0; s < 2; s++) {
        PMK(store)(y + 32 * s, &oy[s]);
        PMK(store)(x + 32 * s, &ox[s]);
    }
}
/* 16 DIF butterflies, two steps side by side (shapes as step2_dit). All loads of both steps before any
 * store (w may alias y); x is stored before the products, so that its 10 vectors are not live across them */
PM_VATTR static void PMK(step2_dif)(uint64_t *x, uint64_t *y, const uint64_t *w) {
    PMK(fe) a[2], b[2], c[2], t[2], ox[2], oy[2];
    for (int s = 0; s < 2; s++) {
        PMK(load)(&a[s], x + 32 * s);
        PMK(load)(&b[s], y + 32 * s);
        PMK(load_w16)(&c[s], w + 32 * s);
    }
    for (int s = 0; s < 2; s++) {
        PMK(subm)(&t[s], &a[s], &b[s]);
        PMK(addm)(&ox[s], &a[s], &b[s]);
    }
    for (int s = 0; s < 2; s++) PMK(store)(x + 32 * s, &ox[s]);
    PMK(mont2)(oy, t, c);
    for (int s = 0; s < 2; s++) PMK(store)(y + 32 * s, &oy[s]);
}

/* the vector steps of a row of n butterflies (x, y, w: n fr_t each, as limbs): 16 at a time (step2) when
 * two != 0, then 8 at a time (step); returns how many were done, 8*floor(n/8) (the caller runs the
 * n mod 8 rest on the scalar kernels) */
PM_VATTR static size_t PMK(rows_dit)(uint64_t (*x)[4], uint64_t (*y)[4], const uint64_t (*w)[4], size_t n, int two) {
    size_t i = 0;
    if (two)
        for (; i + 16 <= n; i += 16) PMK(step2_dit)(x[i], y[i], w[i]);
    for (; i + 8 <= n; i += 8) PMK(step_dit)(x[i], y[i], w[i]);
    return i;
}
PM_VATTR static size_t PMK(rows_dif)(uint64_t (*x)[4], uint64_t (*y)[4], const uint64_t (*w)[4], size_t n, int two) {
    size_t i = 0;
    if (two)
        for (; i + 16 <= n; i += 16) PMK(step2_dif)(x[i], y[i], w[i]);
    for (; i + 8 <= n; i += 8) PMK(step_dif)(x[i], y[i], w[i]);
    return i;
}

/* ---- element-wise rows (fr_rows.h): the same mont() and loads, no butterfly ----
 * The Montgomery product of two elements a, b (both < r, Montgomery forms) is mont(a, 16b); a
 * product by one element c for a whole row feeds 16c once (x16 of its broadcast), and from_mont(x) =
 * x*2^-256 = mont(x, 16) (the integer 16: 16*1). Every operand of mont() is < r (first) and the
 * integer 16v < 16r for some v < r (second), as the header's bound requires. */

/* o = 16*a as five 52-bit limbs, for a < 2^256 with limbs < 2^52 (so 16a < 2^260): each limb shifted
 * 4 left, its top 4 bits carried into the next limb */
PM_VATTR static inline void PMK(x16)(PMK(fe) *o, const PMK(fe) *a) {
    const pmv m = v_set1(PMK_M52);
    const pmv l0 = a->l[0], l1 = a->l[1], l2 = a->l[2], l3 = a->l[3], l4 = a->l[4];
    o->l[0] = v_and(v_slli(l0, 4), m);
    o->l[1] = v_or(v_and(v_slli(l1, 4), m), v_srli(l0, 48));
    o->l[2] = v_or(v_and(v_slli(l2, 4), m), v_srli(l1, 48));
    o->l[3] = v_or(v_and(v_slli(l3, 4), m), v_srli(l2, 48));
    o->l[4] = v_or(v_slli(l4, 4), v_srli(l3, 48));
}
/* the element at p (4 little-endian 64-bit limbs) in all 8 lanes, as 5x52 limbs */
PM_VATTR static inline void PMK(bcast)(PMK(fe) *a, const uint64_t *p) {
    a->l[0] = v_set1(p[0] & PMK_M52);
    a->l[1] = v_set1(((p[0] >> 52) | (p[1] << 12)) & PMK_M52);
    a->l[2] = v_set1(((p[1] >> 40) | (p[2] << 24)) & PMK_M52);
    a->l[3] = v_set1(((p[2] >> 28) | (p[3] << 36)) & PMK_M52);
    a->l[4] = v_set1(p[3] >> 16);
}

/* The vector steps of each row form: elements 0 .. 8*floor(n/8)-1; each returns how many it did.
 * Within a step every input is loaded before the output is stored, so o may equal a, b or c (the
 * same array; fr_rows.h). */

/* o[i] = a[i]*b[i] */
PM_VATTR static size_t PMK(rows_mul)(uint64_t (*o)[4], const uint64_t (*a)[4], const uint64_t (*b)[4], size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        PMK(fe) x, y, t;
        PMK(load)(&x, a[i]);
        PMK(load_w16)(&y, b[i]);
        PMK(mont)(&t, &x, &y);
        PMK(store)(o[i], &t);
    }
    return i;
}
/* o[i] = a[i]*c (c one element) */
PM_VATTR static size_t PMK(rows_mul_by)(uint64_t (*o)[4], const uint64_t (*a)[4], const uint64_t *c, size_t n) {
    PMK(fe) cb, c16;
    PMK(bcast)(&cb, c);
    PMK(x16)(&c16, &cb);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        PMK(fe) x, t;
        PMK(load)(&x, a[i]);
        PMK(mont)(&t, &x, &c16);
        PMK(store)(o[i], &t);
    }
    return i;
}
/* o[i] = (a[i]*b[i])*c: two products per element */
PM_VATTR static size_t PMK(rows_mul_scaled)(uint64_t (*o)[4], const uint64_t (*a)[4], const uint64_t (*b)[4],
                                            const uint64_t *c, size_t n) {
    PMK(fe) cb, c16;
    PMK(bcast)(&cb, c);
    PMK(x16)(&c16, &cb);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        PMK(fe) x, y, t, u;
        PMK(load)(&x, a[i]);
        PMK(load_w16)(&y, b[i]);
        PMK(mont)(&t, &x, &y);
        PMK(mont)(&u, &t, &c16);
        PMK(store)(o[i], &u);
    }
    return i;
}
/* o[i] = a[i]*b[i] - c[i], then out of Montgomery form (mont(., 16)) when from_mont */
PM_VATTR static size_t PMK(rows_mul_sub)(uint64_t (*o)[4], const uint64_t (*a)[4], const uint64_t (*b)[4],
                                         const uint64_t (*c)[4], size_t n, int from_mont) {
    PMK(fe) k16;
    k16.l[0] = v_set1(16);
    for (int j = 1; j < 5; j++) k16.l[j] = v_set1(0);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        PMK(fe) x, y, z, t, d;
        PMK(load)(&x, a[i]);
        PMK(load_w16)(&y, b[i]);
        PMK(load)(&z, c[i]);
        PMK(mont)(&t, &x, &y);
        PMK(subm)(&d, &t, &z);
        if (from_mont) {
            PMK(mont)(&t, &d, &k16);
            PMK(store)(o[i], &t);
        } else {
            PMK(store)(o[i], &d);
        }
    }
    return i;
}
/* x[i] *= F_k s8^j for element i = 8j + k: the lane factors F (8 elements at f, Montgomery) step by
 * s8 (one element) after each vector step, so element i gets f[i mod 8] * s8^(i div 8) (with f[k] =
 * f0 s^k and s8 = s^8: f0 s^i). On return f holds the lane factors of the first element not done. */
PM_VATTR static size_t PMK(rows_powers)(uint64_t (*x)[4], size_t n, uint64_t (*f)[4], const uint64_t *s8) {
    PMK(fe) F, sb, s16;
    PMK(load)(&F, f[0]);
    PMK(bcast)(&sb, s8);
    PMK(x16)(&s16, &sb);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        PMK(fe) e16, t, G;
        PMK(load_w16)(&e16, x[i]);
        PMK(mont)(&t, &F, &e16);
        PMK(store)(x[i], &t);
        PMK(mont)(&G, &F, &s16);
        F = G;
    }
    PMK(store)(f[0], &F);
    return i;
}
#undef PMK_M52
#undef PMK_R0
#undef PMK_R1
#undef PMK_R2
#undef PMK_R3
#undef PMK_R4
#undef PMK_N0
