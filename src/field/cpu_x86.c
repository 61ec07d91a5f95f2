/*
 * cpu_x86.c — run-time probe for the x86-64 BMI2+ADX field kernels (see cpu_x86.h).
 * Source: Intel SDM vol. 2A, CPUID leaf 07H, sub-leaf 0: EBX bit 8 = BMI2 (mulx), bit 19 = ADX.
 */
#include "cpu_x86.h"

#if PM_FIELD_HAVE_ADX_KERNELS
#include <cpuid.h>
#include <stdlib.h>
#include <string.h>

int pm_field_adx_state __attribute__((visibility("hidden"))) = 0;

int pm_field_adx_probe(void) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    int ok = 0;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) ok = ((b >> 8) & 1) && ((b >> 19) & 1);
    const char *env = getenv("PROOFMILL_FIELD_BACKEND");
    if (env && strcmp(env, "portable") == 0) ok = 0;
    /* Several threads may race here; they all compute and store the same value. */
    __atomic_store_n(&pm_field_adx_state, ok ? 1 : -1, __ATOMIC_RELAXED);
    return ok;
}
#else
typedef int pm_field_cpu_x86_unused; /* ISO C: a translation unit must not be empty */
#endif
