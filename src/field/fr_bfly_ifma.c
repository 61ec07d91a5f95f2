/*
 * fr_bfly_ifma.c — the row butterflies fr_bflys_dit/dif 8 at a time in radix 2^52, two such steps
 * per loop iteration (contract in fr_bfly.h; the algorithm and its proof in fr_ifma_kernel.h; operands
 * moved by plain 512-bit loads/stores and VPERMT2Q transposes). One kernel source, two lane
 * implementations:
 *  - the portable C model (always built): each v_ op is a loop over 8 uint64_t lanes with exactly the
 *    semantics of the AVX-512 instruction it stands for (VPMADD52LUQ/HUQ via unsigned __int128,
 *    VPERMT2Q's index bits), so machines without IFMA test the same algorithm and the same permute
 *    index constants;
 *  - AVX-512F/IFMA/VL/BW/DQ intrinsics (x86-64 asm build only, GCC/Clang), in functions compiled with
 *    __attribute__((target(...))) only: the rest of the library runs on any x86-64. They are called
 *    only when pm_fr_bfly_ifma_ok() (cpuid + xgetbv, cpu_x86.c).
 * The remainder of a row (n mod 8 butterflies) goes to the scalar kernels (fr_bflys_*_scalar).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_x86.h"
#include "field/fr_bfly.h"
#include "field/fr_rows.h"
#include "util/settings.h"

/* ---------------- the portable model ---------------- */
typedef struct {
    uint64_t v[8];
} pmv;
typedef unsigned pmm;
#define PM_VATTR
#define PMK(name) pm_model_##name
#define PM_L52(a) ((a) & 0xFFFFFFFFFFFFFULL)
#define PM_LANES(expr)                                                                          \
    pmv r_;                                                                                     \
    for (int k = 0; k < 8; k++) r_.v[k] = (expr);                                               \
    return r_
static inline pmv v_set1(uint64_t x) { PM_LANES(x); }
static inline pmv v_add(pmv a, pmv b) { PM_LANES(a.v[k] + b.v[k]); }
static inline pmv v_sub(pmv a, pmv b) { PM_LANES(a.v[k] - b.v[k]); }
static inline pmv v_and(pmv a, pmv b) { PM_LANES(a.v[k] & b.v[k]); }
static inline pmv v_or(pmv a, pmv b) { PM_LANES(a.v[k] | b.v[k]); }
static inline pmv v_srli(pmv a, unsigned n) { PM_LANES(n > 63 ? 0 : a.v[k] >> n); }
static inline pmv v_slli(pmv a, unsigned n) { PM_LANES(n > 63 ? 0 : a.v[k] << n); }
/* VPMADD52LUQ: a + bits 0..51 of the 104-bit product of the low 52 bits of b and c (mod 2^64) */
static inline pmv v_madd52lo(pmv a, pmv b, pmv c) {
    PM_LANES(a.v[k] + PM_L52((uint64_t)((unsigned __int128)PM_L52(b.v[k]) * PM_L52(c.v[k]))));
}
/* VPMADD52HUQ: a + bits 52..103 of that product (mod 2^64) */
static inline pmv v_madd52hi(pmv a, pmv b, pmv c) {
    PM_LANES(a.v[k] + (uint64_t)(((unsigned __int128)PM_L52(b.v[k]) * PM_L52(c.v[k])) >> 52));
}
static inline pmm v_nz(pmv a) {
    pmm m = 0;
    for (int k = 0; k < 8; k++) m |= (pmm)(a.v[k] != 0) << k;
    return m;
}
static inline pmv v_sel(pmm m, pmv t, pmv f) { PM_LANES(((m >> k) & 1) ? t.v[k] : f.v[k]); }
static inline pmv v_setr8(uint64_t e0, uint64_t e1, uint64_t e2, uint64_t e3, uint64_t e4, uint64_t e5,
                          uint64_t e6, uint64_t e7) {
    const uint64_t e[8] = {e0, e1, e2, e3, e4, e5, e6, e7};
    PM_LANES(e[k]);
}
static inline pmv v_load(const uint64_t *p) { PM_LANES(p[k]); }
static inline void v_store(uint64_t *p, pmv a) {
    for (int k = 0; k < 8; k++) p[k] = a.v[k];
}
/* VPERMT2Q (= VPERMI2Q with the operands' roles swapped): lane k = lane (idx_k & 7) of a when bit 3
 * of idx_k is 0, of b when it is 1; bits 4..63 of idx_k are ignored */
static inline pmv v_perm2(pmv a, pmv idx, pmv b) { PM_LANES(((idx.v[k] >> 3) & 1 ? b : a).v[idx.v[k] & 7]); }
#include "fr_ifma_kernel.h"
#undef PM_VATTR
#undef PMK

void fr_bflys_dit_model(fr_t *x, fr_t *y, const fr_t *w, size_t n) {
    size_t d = pm_model_rows_dit((uint64_t(*)[4])x, (uint64_t(*)[4])y, (const uint64_t(*)[4])w, n, 1);
    fr_bflys_dit_scalar(x + d, y + d, w + d, n - d);
}
void fr_bflys_dif_model(fr_t *x, fr_t *y, const fr_t *w, size_t n) {
    size_t d = pm_model_rows_dif((uint64_t(*)[4])x, (uint64_t(*)[4])y, (const uint64_t(*)[4])w, n, 1);
    fr_bflys_dif_scalar(x + d, y + d, w + d, n - d);
}

/* ---------------- AVX-512 IFMA ---------------- */
#if PM_FR_HAVE_IFMA_KERNEL
#include <immintrin.h>
#define pmv __m512i
#define pmm __mmask8
#define PM_VATTR __attribute__((target("avx512f,avx512ifma,avx512vl,avx512bw,avx512dq")))
#define PMK(name) pm_ifma_##name
#define v_set1(x) _mm512_set1_epi64((long long)(x))
#define v_add(a, b) _mm512_add_epi64((a), (b))
#define v_sub(a, b) _mm512_sub_epi64((a), (b))
#define v_and(a, b) _mm512_and_si512((a), (b))
#define v_or(a, b) _mm512_or_si512((a), (b))
#define v_srli(a, n) _mm512_srli_epi64((a), (n))
#define v_slli(a, n) _mm512_slli_epi64((a), (n))
#define v_madd52lo(a, b, c) _mm512_madd52lo_epu64((a), (b), (c))
#define v_madd52hi(a, b, c) _mm512_madd52hi_epu64((a), (b), (c))
#define v_nz(a) _mm512_test_epi64_mask((a), (a))
#define v_sel(m, t, f) _mm512_mask_blend_epi64((m), (f), (t))
#define v_setr8(e0, e1, e2, e3, e4, e5, e6, e7)                                                 \
    _mm512_set_epi64((long long)(e7), (long long)(e6), (long long)(e5), (long long)(e4),        \
                     (long long)(e3), (long long)(e2), (long long)(e1), (long long)(e0))
#define v_load(p) _mm512_loadu_si512((const void *)(p))
#define v_store(p, a) _mm512_storeu_si512((void *)(p), (a))
#define v_perm2(a, idx, b) _mm512_permutex2var_epi64((a), (idx), (b))
#include "fr_ifma_kernel.h"

/* field.fr_bfly_step2 = false (PROOFMILL_FR_BFLY_STEP2=0) makes the IFMA rows run one vector step (8 butterflies) at a time instead of
 * two interleaved ones (16): a benchmark switch, read once; same results either way */
static int ifma_two_state = -1;
static int ifma_two(void) {
    int v = __atomic_load_n(&ifma_two_state, __ATOMIC_RELAXED);
    if (v < 0) {
        v = pm_setting_bool("field.fr_bfly_step2");
        __atomic_store_n(&ifma_two_state, v, __ATOMIC_RELAXED);
    }
    return v;
}

void pm_fr_bflys_dit_ifma(uint64_t (*x)[4], uint64_t (*y)[4], const uint64_t (*w)[4], size_t n) {
    size_t d = pm_ifma_rows_dit(x, y, w, n, ifma_two());
    fr_bflys_dit_scalar((fr_t *)x[d], (fr_t *)y[d], (const fr_t *)w[d], n - d);
}
void pm_fr_bflys_dif_ifma(uint64_t (*x)[4], uint64_t (*y)[4], const uint64_t (*w)[4], size_t n) {
    size_t d = pm_ifma_rows_dif(x, y, w, n, ifma_two());
    fr_bflys_dif_scalar((fr_t *)x[d], (fr_t *)y[d], (const fr_t *)w[d], n - d);
}
#endif

int fr_bfly_ifma_available(void) {
#if PM_FR_HAVE_IFMA_KERNEL
    return pm_cpu_has_ifma();
#else
    return 0;
#endif
}
void fr_bflys_dit_ifma(fr_t *x, fr_t *y, const fr_t *w, size_t n) {
#if PM_FR_HAVE_IFMA_KERNEL
    if (pm_cpu_has_ifma()) {
        pm_fr_bflys_dit_ifma((uint64_t(*)[4])x, (uint64_t(*)[4])y, (const uint64_t(*)[4])w, n);
        return;
    }
#endif
    fr_bflys_dit_scalar(x, y, w, n);
}
void fr_bflys_dif_ifma(fr_t *x, fr_t *y, const fr_t *w, size_t n) {
#if PM_FR_HAVE_IFMA_KERNEL
    if (pm_cpu_has_ifma()) {
        pm_fr_bflys_dif_ifma((uint64_t(*)[4])x, (uint64_t(*)[4])y, (const uint64_t(*)[4])w, n);
        return;
    }
#endif
    fr_bflys_dif_scalar(x, y, w, n);
}

/* ---------------- element-wise rows (contract in fr_rows.h) ----------------
 * The vector steps of fr_ifma_kernel.h's rows_* for 8*floor(n/8) elements, the rest on the _scalar
 * forms. fr_muls_powers sets up its 8 lane factors f s^0 .. f s^7 and s^8 with 10 scalar products,
 * so rows shorter than 16 stay on the scalar chain. */
#define PM_ROWS(p) ((uint64_t(*)[4])(p))
#define PM_CROWS(p) ((const uint64_t(*)[4])(p))
typedef size_t (*pm_powers_fn)(uint64_t (*)[4], size_t, uint64_t (*)[4], const uint64_t *);

static void pm_powers_drive(fr_t *x, size_t n, const fr_t *f, const fr_t *s, pm_powers_fn k) {
    if (n < 16) {
        fr_muls_powers_scalar(x, n, f, s);
        return;
    }
    fr_t fl[8], s1 = *s, s8;
    fl[0] = *f;
    for (int j = 1; j < 8; j++) fr_mul(&fl[j], &fl[j - 1], &s1);
    fr_sqr(&s8, &s1);
    fr_sqr(&s8, &s8);
    fr_sqr(&s8, &s8);
    const size_t d = k(PM_ROWS(x), n, PM_ROWS(fl), s8.l);
    fr_muls_powers_scalar(x + d, n - d, &fl[0], &s1); /* fl[0] = f s^d now */
}

void fr_muls_model(fr_t *out, const fr_t *a, const fr_t *b, size_t n) {
    size_t d = pm_model_rows_mul(PM_ROWS(out), PM_CROWS(a), PM_CROWS(b), n);
    fr_muls_scalar(out + d, a + d, b + d, n - d);
}
void fr_muls_by_model(fr_t *out, const fr_t *a, size_t n, const fr_t *c) {
    const fr_t cc = *c;
    size_t d = pm_model_rows_mul_by(PM_ROWS(out), PM_CROWS(a), cc.l, n);
    fr_muls_by_scalar(out + d, a + d, n - d, &cc);
}
void fr_muls_scaled_model(fr_t *out, const fr_t *a, const fr_t *b, size_t n, const fr_t *c) {
    const fr_t cc = *c;
    size_t d = pm_model_rows_mul_scaled(PM_ROWS(out), PM_CROWS(a), PM_CROWS(b), cc.l, n);
    fr_muls_scaled_scalar(out + d, a + d, b + d, n - d, &cc);
}
void fr_muls_sub_model(fr_t *out, const fr_t *a, const fr_t *b, const fr_t *c, size_t n, int from_mont) {
    size_t d = pm_model_rows_mul_sub(PM_ROWS(out), PM_CROWS(a), PM_CROWS(b), PM_CROWS(c), n, from_mont);
    fr_muls_sub_scalar(out + d, a + d, b + d, c + d, n - d, from_mont);
}
void fr_muls_powers_model(fr_t *x, size_t n, const fr_t *f, const fr_t *s) {
    pm_powers_drive(x, n, f, s, pm_model_rows_powers);
}

void fr_muls_ifma(fr_t *out, const fr_t *a, const fr_t *b, size_t n) {
#if PM_FR_HAVE_IFMA_KERNEL
    if (pm_cpu_has_ifma()) {
        size_t d = pm_ifma_rows_mul(PM_ROWS(out), PM_CROWS(a), PM_CROWS(b), n);
        fr_muls_scalar(out + d, a + d, b + d, n - d);
        return;
    }
#endif
    fr_muls_scalar(out, a, b, n);
}
void fr_muls_by_ifma(fr_t *out, const fr_t *a, size_t n, const fr_t *c) {
#if PM_FR_HAVE_IFMA_KERNEL
    if (pm_cpu_has_ifma()) {
        const fr_t cc = *c;
        size_t d = pm_ifma_rows_mul_by(PM_ROWS(out), PM_CROWS(a), cc.l, n);
        fr_muls_by_scalar(out + d, a + d, n - d, &cc);
        return;
    }
#endif
    fr_muls_by_scalar(out, a, n, c);
}
void fr_muls_scaled_ifma(fr_t *out, const fr_t *a, const fr_t *b, size_t n, const fr_t *c) {
#if PM_FR_HAVE_IFMA_KERNEL
    if (pm_cpu_has_ifma()) {
        const fr_t cc = *c;
        size_t d = pm_ifma_rows_mul_scaled(PM_ROWS(out), PM_CROWS(a), PM_CROWS(b), cc.l, n);
        fr_muls_scaled_scalar(out + d, a + d, b + d, n - d, &cc);
        return;
    }
#endif
    fr_muls_scaled_scalar(out, a, b, n, c);
}
void fr_muls_sub_ifma(fr_t *out, const fr_t *a, const fr_t *b, const fr_t *c, size_t n, int from_mont) {
#if PM_FR_HAVE_IFMA_KERNEL
    if (pm_cpu_has_ifma()) {
        size_t d = pm_ifma_rows_mul_sub(PM_ROWS(out), PM_CROWS(a), PM_CROWS(b), PM_CROWS(c), n, from_mont);
        fr_muls_sub_scalar(out + d, a + d, b + d, c + d, n - d, from_mont);
        return;
    }
#endif
    fr_muls_sub_scalar(out, a, b, c, n, from_mont);
}
void fr_muls_powers_ifma(fr_t *x, size_t n, const fr_t *f, const fr_t *s) {
#if PM_FR_HAVE_IFMA_KERNEL
    if (pm_cpu_has_ifma()) {
        pm_powers_drive(x, n, f, s, pm_ifma_rows_powers);
        return;
    }
#endif
    fr_muls_powers_scalar(x, n, f, s);
}
#undef PM_ROWS
#undef PM_CROWS
