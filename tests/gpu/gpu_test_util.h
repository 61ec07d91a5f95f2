/*
 * gpu_test_util.h — helpers for the GPU tests (tests/gpu): seeded RNG, random plain scalars, and an
 * independent host reference for G1 in Jacobian coordinates on the CPU field (field/fp.h), so the
 * GPU's XYZZ code is checked against different formulas. Header-only, test use only.
 *
 * Exit codes: 0 pass, 1 fail, 77 skipped (no GPU / no driver; ctest SKIP_RETURN_CODE).
 * Seeds: PROOFMILL_SEED=N reproduces a run; the seed is printed first.
 */
#ifndef PROOFMILL_TESTS_GPU_TEST_UTIL_H
#define PROOFMILL_TESTS_GPU_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/gpu.h"

static uint64_t gt_state[4];
static inline uint64_t gt_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t gt_rand64(void) { /* xoshiro256** (Blackman, Vigna 2018) */
    uint64_t *s = gt_state;
    uint64_t r = gt_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = gt_rotl(s[3], 45);
    return r;
}
static inline uint64_t gt_seed(void) {
    const char *e = getenv("PROOFMILL_SEED");
    uint64_t seed = e ? strtoull(e, NULL, 10) : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    uint64_t z = seed;
    for (int i = 0; i < 4; i++) { /* splitmix64 */
        z += 0x9e3779b97f4a7c15ULL;
        uint64_t x = z;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL; x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        gt_state[i] = x ^ (x >> 31);
    }
    printf("seed: %llu (rerun with PROOFMILL_SEED=%llu)\n", (unsigned long long)seed, (unsigned long long)seed);
    return seed;
}

/* Every device test's opening: 0 (after printing SKIPPED; the caller returns 77, ctest's skip code)
 * when no CUDA device or driver answers; else 1, with stdout line-buffered and the RNG seeded
 * (gt_seed prints the seed). */
static inline int gt_begin(void) {
    if (gpu_available() == 0) {
        printf("SKIPPED: no CUDA device or driver\n");
        return 0;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    gt_seed();
    return 1;
}

/* plain canonical scalar < r, uniform */
static inline int gt_fr_lt_r(const fr_t *a) {
    for (int i = 3; i >= 0; i--) {
        if (a->l[i] < FR_MODULUS.l[i]) return 1;
        if (a->l[i] > FR_MODULUS.l[i]) return 0;
    }
    return 0;
}
static inline void gt_rand_scalar(fr_t *k) {
    do {
        for (int i = 0; i < 4; i++) k->l[i] = gt_rand64();
        k->l[3] &= 0x7fffffffffffffffULL;
    } while (!gt_fr_lt_r(k));
}
static inline void gt_rand_fr_mont(fr_t *a) { fr_t k; gt_rand_scalar(&k); fr_to_mont(a, &k); }

/* ---- host G1 reference (Jacobian, a = 0; EFD dbl-2009-l and add-2007-bl), infinity Z = 0 ---- */
static inline void gt_jac_inf(g1_jac_t *r) { r->X = FP_ONE; r->Y = FP_ONE; memset(&r->Z, 0, sizeof r->Z); }
static inline int gt_jac_is_inf(const g1_jac_t *p) { return fp_is_zero(&p->Z); }
static inline void gt_jac_from_affine(g1_jac_t *r, const g1_affine_t *a) {
    if (fp_is_zero(&a->x) && fp_is_zero(&a->y)) { gt_jac_inf(r); return; }
    r->X = a->x; r->Y = a->y; r->Z = FP_ONE;
}
static inline void gt_jac_dbl(g1_jac_t *r, const g1_jac_t *p) {
    if (gt_jac_is_inf(p)) { *r = *p; return; }
    fp_t A, B, C, D, E, F, t, X3, Y3, Z3;
    fp_sqr(&A, &p->X); fp_sqr(&B, &p->Y); fp_sqr(&C, &B);
    fp_add(&t, &p->X, &B); fp_sqr(&t, &t); fp_sub(&t, &t, &A); fp_sub(&t, &t, &C); fp_dbl(&D, &t);
    fp_dbl(&E, &A); fp_add(&E, &E, &A); fp_sqr(&F, &E);
    fp_dbl(&t, &D); fp_sub(&X3, &F, &t);
    fp_sub(&t, &D, &X3); fp_mul(&Y3, &E, &t); fp_dbl(&C, &C); fp_dbl(&C, &C); fp_dbl(&C, &C); fp_sub(&Y3, &Y3, &C);
    fp_mul(&Z3, &p->Y, &p->Z); fp_dbl(&Z3, &Z3);
    r->X = X3; r->Y = Y3; r->Z = Z3;
}
static inline void gt_jac_add(g1_jac_t *r, const g1_jac_t *p, const g1_jac_t *q) {
    if (gt_jac_is_inf(p)) { *r = *q; return; }
    if (gt_jac_is_inf(q)) { *r = *p; return; }
    fp_t Z1Z1, Z2Z2, U1, U2, S1, S2, H, I, J, rr, V, t, X3, Y3, Z3;
    fp_sqr(&Z1Z1, &p->Z); fp_sqr(&Z2Z2, &q->Z);
    fp_mul(&U1, &p->X, &Z2Z2); fp_mul(&U2, &q->X, &Z1Z1);
    fp_mul(&S1, &p->Y, &q->Z); fp_mul(&S1, &S1, &Z2Z2);
    fp_mul(&S2, &q->Y, &p->Z); fp_mul(&S2, &S2, &Z1Z1);
    fp_sub(&H, &U2, &U1); fp_sub(&rr, &S2, &S1);
    if (fp_is_zero(&H)) {
        if (fp_is_zero(&rr)) { gt_jac_dbl(r, p); return; }
        gt_jac_inf(r); return;
    }
    fp_dbl(&I, &H); fp_sqr(&I, &I); fp_mul(&J, &H, &I); fp_dbl(&rr, &rr); fp_mul(&V, &U1, &I);
    fp_sqr(&X3, &rr); fp_sub(&X3, &X3, &J); fp_dbl(&t, &V); fp_sub(&X3, &X3, &t);
    fp_sub(&t, &V, &X3); fp_mul(&Y3, &rr, &t); fp_mul(&t, &S1, &J); fp_dbl(&t, &t); fp_sub(&Y3, &Y3, &t);
    fp_add(&Z3, &p->Z, &q->Z); fp_sqr(&Z3, &Z3); fp_sub(&Z3, &Z3, &Z1Z1); fp_sub(&Z3, &Z3, &Z2Z2); fp_mul(&Z3, &Z3, &H);
    r->X = X3; r->Y = Y3; r->Z = Z3;
}
/* r = [k]p, k plain 256-bit */
static inline void gt_jac_mul(g1_jac_t *r, const g1_jac_t *p, const fr_t *k) {
    g1_jac_t acc;
    gt_jac_inf(&acc);
    for (int i = 255; i >= 0; i--) {
        gt_jac_dbl(&acc, &acc);
        if ((k->l[i / 64] >> (i % 64)) & 1) gt_jac_add(&acc, &acc, p);
    }
    *r = acc;
}
static inline int gt_jac_eq(const g1_jac_t *a, const g1_jac_t *b) {
    int ia = gt_jac_is_inf(a), ib = gt_jac_is_inf(b);
    if (ia || ib) return ia && ib;
    fp_t z1, z2, t1, t2;
    fp_sqr(&z1, &a->Z); fp_sqr(&z2, &b->Z);
    fp_mul(&t1, &a->X, &z2); fp_mul(&t2, &b->X, &z1);
    if (!fp_eq(&t1, &t2)) return 0;
    fp_mul(&z1, &z1, &a->Z); fp_mul(&z2, &z2, &b->Z);
    fp_mul(&t1, &a->Y, &z2); fp_mul(&t2, &b->Y, &z1);
    return fp_eq(&t1, &t2);
}
static inline void gt_jac_to_affine(g1_affine_t *r, const g1_jac_t *p) {
    if (gt_jac_is_inf(p)) { memset(r, 0, sizeof *r); return; }
    fp_t zi, zi2, zi3;
    fp_inv_vartime(&zi, &p->Z); fp_sqr(&zi2, &zi); fp_mul(&zi3, &zi2, &zi);
    fp_mul(&r->x, &p->X, &zi2); fp_mul(&r->y, &p->Y, &zi3);
}
/* the generator from its big-endian hex (draft-irtf-cfrg-pairing-friendly-curves-11 4.2.1) */
static inline void gt_hex48(uint8_t out[48], const char *hex) {
    for (int i = 0; i < 48; i++) { unsigned v; sscanf(hex + 2 * i, "%2x", &v); out[i] = (uint8_t)v; }
}
static inline void gt_generator(g1_affine_t *g) {
    uint8_t b[48];
    gt_hex48(b, "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
    fp_from_be_bytes(&g->x, b);
    gt_hex48(b, "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");
    fp_from_be_bytes(&g->y, b);
}

static int gt_failures = 0;
#define GT_CHECK(cond, ...)                                                 \
    do {                                                                    \
        if (!(cond)) {                                                      \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                     \
            printf(__VA_ARGS__);                                            \
            printf("\n");                                                   \
            gt_failures++;                                                  \
        }                                                                   \
    } while (0)
#define GT_OK(st, e)                                                        \
    do {                                                                    \
        pm_status st_ = (st);                                               \
        if (st_ != PM_OK) {                                                 \
            char b_[1200];                                                  \
            printf("FAIL %s:%d: status %s: %s\n", __FILE__, __LINE__,       \
                   pm_status_name(st_), pm_error_format(&(e), b_, sizeof b_)); \
            gt_failures++;                                                  \
        }                                                                   \
    } while (0)

static inline double gt_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif
