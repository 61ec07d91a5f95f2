/*
 * fr_bfly.c — fused Fr NTT butterflies (contract in fr_bfly.h): the BMI2+ADX kernels of
 * mont_x86_64.S in the asm build on a CPU that has them, the portable C of mont_impl.h otherwise.
 * The fast path of each function is: load the backend flag, branch, tail jump into the kernel; the
 * first-call probe and the portable code sit in noinline functions (the same shape as fr_mul).
 */
#include "field/fr_bfly.h"

#include "cpu_x86.h"
#include "mont_impl.h"

#define M (FR_MODULUS.l)

static __attribute__((noinline)) void fr_bfly_dit_slow(fr_t *x, fr_t *y, const fr_t *w) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (pm_field_use_adx()) {
        pm_fr_bfly_dit_adx(x->l, y->l, w->l);
        return;
    }
#endif
    mont_bfly_dit(x->l, y->l, w->l, M, FR_N0, 4);
}

static __attribute__((noinline)) void fr_bfly_dif_slow(fr_t *x, fr_t *y, const fr_t *w) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (pm_field_use_adx()) {
        pm_fr_bfly_dif_adx(x->l, y->l, w->l);
        return;
    }
#endif
    mont_bfly_dif(x->l, y->l, w->l, M, FR_N0, 4);
}

static __attribute__((noinline)) void fr_bflys_dit_slow(fr_t *x, fr_t *y, const fr_t *w, size_t n) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (pm_field_use_adx()) {
        pm_fr_bflys_dit_adx((uint64_t(*)[4])x, (uint64_t(*)[4])y, (const uint64_t(*)[4])w, n);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++) mont_bfly_dit(x[i].l, y[i].l, w[i].l, M, FR_N0, 4);
}

static __attribute__((noinline)) void fr_bflys_dif_slow(fr_t *x, fr_t *y, const fr_t *w, size_t n) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (pm_field_use_adx()) {
        pm_fr_bflys_dif_adx((uint64_t(*)[4])x, (uint64_t(*)[4])y, (const uint64_t(*)[4])w, n);
        return;
    }
#endif
    for (size_t i = 0; i < n; i++) mont_bfly_dif(x[i].l, y[i].l, w[i].l, M, FR_N0, 4);
}

void fr_bfly_dit(fr_t *x, fr_t *y, const fr_t *w) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (__builtin_expect(pm_field_adx_ready(), 1)) {
        pm_fr_bfly_dit_adx(x->l, y->l, w->l);
        return;
    }
#endif
    fr_bfly_dit_slow(x, y, w);
}

void fr_bfly_dif(fr_t *x, fr_t *y, const fr_t *w) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (__builtin_expect(pm_field_adx_ready(), 1)) {
        pm_fr_bfly_dif_adx(x->l, y->l, w->l);
        return;
    }
#endif
    fr_bfly_dif_slow(x, y, w);
}

void fr_bflys_dit(fr_t *x, fr_t *y, const fr_t *w, size_t n) {
#if PM_FR_HAVE_IFMA_KERNEL
    const int be = pm_fr_bfly_backend();
    if (be == PM_FR_BFLY_IFMA) {
        pm_fr_bflys_dit_ifma((uint64_t(*)[4])x, (uint64_t(*)[4])y, (const uint64_t(*)[4])w, n);
        return;
    }
    if (be == PM_FR_BFLY_PORTABLE) {
        for (size_t i = 0; i < n; i++) mont_bfly_dit(x[i].l, y[i].l, w[i].l, M, FR_N0, 4);
        return;
    }
    if (be == PM_FR_BFLY_MODEL) {
        fr_bflys_dit_model(x, y, w, n);
        return;
    }
#endif
    fr_bflys_dit_scalar(x, y, w, n);
}

void fr_bflys_dit_scalar(fr_t *x, fr_t *y, const fr_t *w, size_t n) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (__builtin_expect(pm_field_adx_ready(), 1)) {
        pm_fr_bflys_dit_adx((uint64_t(*)[4])x, (uint64_t(*)[4])y, (const uint64_t(*)[4])w, n);
        return;
    }
#endif
    fr_bflys_dit_slow(x, y, w, n);
}

void fr_bflys_dif(fr_t *x, fr_t *y, const fr_t *w, size_t n) {
#if PM_FR_HAVE_IFMA_KERNEL
    const int be = pm_fr_bfly_backend();
    if (be == PM_FR_BFLY_IFMA) {
        pm_fr_bflys_dif_ifma((uint64_t(*)[4])x, (uint64_t(*)[4])y, (const uint64_t(*)[4])w, n);
        return;
    }
    if (be == PM_FR_BFLY_PORTABLE) {
        for (size_t i = 0; i < n; i++) mont_bfly_dif(x[i].l, y[i].l, w[i].l, M, FR_N0, 4);
        return;
    }
    if (be == PM_FR_BFLY_MODEL) {
        fr_bflys_dif_model(x, y, w, n);
        return;
    }
#endif
    fr_bflys_dif_scalar(x, y, w, n);
}

void fr_bflys_dif_scalar(fr_t *x, fr_t *y, const fr_t *w, size_t n) {
#if PM_FIELD_HAVE_ADX_KERNELS
    if (__builtin_expect(pm_field_adx_ready(), 1)) {
        pm_fr_bflys_dif_adx((uint64_t(*)[4])x, (uint64_t(*)[4])y, (const uint64_t(*)[4])w, n);
        return;
    }
#endif
    fr_bflys_dif_slow(x, y, w, n);
}

const char *fr_bflys_backend(void) {
#if PM_FR_HAVE_IFMA_KERNEL
    const int be = pm_fr_bfly_backend();
    if (be == PM_FR_BFLY_IFMA) return "avx512-ifma";
    if (be == PM_FR_BFLY_PORTABLE) return "portable";
    if (be == PM_FR_BFLY_MODEL) return "ifma-model";
#endif
    return pm_field_use_adx() ? "x86_64-adx" : "portable";
}

/* plain x86-64 in the asm build (no BMI2/ADX, so no run-time check) */
void fr_bfly_triv(fr_t *x, fr_t *y) {
#if PM_FIELD_HAVE_ADX_KERNELS
    pm_fr_bfly_triv_x86(x->l, y->l);
#else
    uint64_t t[4];
    mont_sub(t, x->l, y->l, M, 4);
    mont_add(x->l, x->l, y->l, M, 4);
    for (int i = 0; i < 4; i++) y->l[i] = t[i];
#endif
}
