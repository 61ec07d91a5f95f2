/*
 * cpu_x86.c — run-time probe for the x86-64 BMI2+ADX field kernels (see cpu_x86.h).
 * Source: Intel SDM vol. 2A, CPUID leaf 07H, sub-leaf 0: EBX bit 8 = BMI2 (mulx), bit 19 = ADX.
 */
#include "cpu_x86.h"

#if PM_FIELD_HAVE_ADX_KERNELS
#include <cpuid.h>
#include <stdlib.h>
#include <string.h>

#include "util/settings.h"

int pm_field_adx_state __attribute__((visibility("hidden"))) = 0;

int pm_field_adx_probe(void) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    int ok = 0;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) ok = ((b >> 8) & 1) && ((b >> 19) & 1);
    if (strcmp(pm_setting_str("field.backend"), "portable") == 0) ok = 0; /* PROOFMILL_FIELD_BACKEND */
    /* Several threads may race here; they all compute and store the same value. */
    __atomic_store_n(&pm_field_adx_state, ok ? 1 : -1, __ATOMIC_RELAXED);
    return ok;
}

#if PM_FR_HAVE_IFMA_KERNEL
/* Sources: Intel SDM vol. 2A, CPUID leaf 07H (EBX: 16 AVX512F, 17 AVX512DQ, 21 AVX512_IFMA,
 * 30 AVX512BW, 31 AVX512VL), leaf 01H ECX bit 27 OSXSAVE; vol. 1 13.3, XCR0 bits 1, 2, 5, 6, 7. */
static int pm_ifma_cached = 0; /* 0 unknown, 1 yes, -1 no */
int pm_cpu_has_ifma(void) {
    int s = __atomic_load_n(&pm_ifma_cached, __ATOMIC_RELAXED);
    if (s) return s > 0;
    unsigned a = 0, b = 0, c = 0, d = 0;
    int ok = 0;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
        const unsigned need = (1u << 16) | (1u << 17) | (1u << 21) | (1u << 30) | (1u << 31);
        ok = (b & need) == need;
    }
    if (ok) {
        ok = __get_cpuid(1, &a, &b, &c, &d) && ((c >> 27) & 1);
    }
    if (ok) {
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        ok = (lo & 0xE6u) == 0xE6u;
    }
    __atomic_store_n(&pm_ifma_cached, ok ? 1 : -1, __ATOMIC_RELAXED);
    return ok;
}

int pm_fr_bfly_state __attribute__((visibility("hidden"))) = 0;

int pm_fr_bfly_probe(void) {
    const char *env = pm_setting_str("field.fr_bfly_backend");   /* PROOFMILL_FR_BFLY_BACKEND */
    const char *field = pm_setting_str("field.backend");         /* PROOFMILL_FIELD_BACKEND */
    int s = pm_cpu_has_ifma() ? PM_FR_BFLY_IFMA : PM_FR_BFLY_SCALAR;
    /* field.backend=portable (the whole field layer in portable C) covers the rows too, unless
     * field.fr_bfly_backend names their backend */
    if (strcmp(env, "auto") == 0 && strcmp(field, "portable") == 0) s = PM_FR_BFLY_PORTABLE;
    if (strcmp(env, "adx") == 0) s = PM_FR_BFLY_SCALAR;
    if (strcmp(env, "portable") == 0) s = PM_FR_BFLY_PORTABLE;
    if (strcmp(env, "model") == 0) s = PM_FR_BFLY_MODEL;
    /* Several threads may race here; they all compute and store the same value. */
    __atomic_store_n(&pm_fr_bfly_state, s, __ATOMIC_RELAXED);
    return s;
}
#endif
#else
typedef int pm_field_cpu_x86_unused; /* ISO C: a translation unit must not be empty */
#endif
