/*
 * mont_impl.h — portable Montgomery arithmetic over n 64-bit limbs (internal).
 *
 * Every routine here works on little-endian arrays of 64-bit limbs (limb 0 is the
 * least significant) whose length n is a compile-time constant at each call site;
 * the functions are static inline so that the compiler unrolls them per field.
 * Values are assumed fully reduced (< m) on input and are fully reduced on output.
 *
 * Montgomery multiplication is the CIOS variant of Koç, Acar, Kaliski,
 * "Analyzing and Comparing Montgomery Multiplication Algorithms" (IEEE Micro 1996):
 * n^2 + n word multiplications per product. The portable path uses unsigned __int128.
 * Not constant time where noted (_vartime).
 */
#ifndef PROOFMILL_FIELD_MONT_IMPL_H
#define PROOFMILL_FIELD_MONT_IMPL_H

#include <stdint.h>
#include <string.h>

typedef unsigned __int128 pm_u128;

/* r = a + b mod m. Cost: 2n add-with-carry. */
static inline void mont_add(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *m, int n) {
    uint64_t t[8], u[8];
    uint64_t carry = 0, borrow = 0;
    for (int i = 0; i < n; i++) {
        pm_u128 s = (pm_u128)a[i] + b[i] + carry;
        t[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
    for (int i = 0; i < n; i++) {
        pm_u128 d = (pm_u128)t[i] - m[i] - borrow;
        u[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    /* keep u when (carry:t) >= m, i.e. when the subtraction did not borrow past the carry */
    uint64_t keep_t = (uint64_t)0 - (uint64_t)(borrow & (carry ^ 1));
    for (int i = 0; i < n; i++) r[i] = (t[i] & keep_t) | (u[i] & ~keep_t);
}

/* r = a - b mod m. */
static inline void mont_sub(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *m, int n) {
    uint64_t t[8];
    uint64_t borrow = 0;
    for (int i = 0; i < n; i++) {
        pm_u128 d = (pm_u128)a[i] - b[i] - borrow;
        t[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    uint64_t mask = (uint64_t)0 - borrow, carry = 0;
    for (int i = 0; i < n; i++) {
        pm_u128 s = (pm_u128)t[i] + (m[i] & mask) + carry;
        r[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
}

/* r = -a mod m (0 maps to 0). */
static inline void mont_neg(uint64_t *r, const uint64_t *a, const uint64_t *m, int n) {
    uint64_t nz = 0;
    for (int i = 0; i < n; i++) nz |= a[i];
    uint64_t mask = (uint64_t)0 - (uint64_t)(nz != 0);
    uint64_t borrow = 0;
    for (int i = 0; i < n; i++) {
        pm_u128 d = (pm_u128)m[i] - a[i] - borrow;
        r[i] = (uint64_t)d & mask;
        borrow = (uint64_t)(d >> 64) & 1;
    }
}

/* r = a * b * 2^(-64n) mod m (CIOS). Requires m < 2^(64n - 1) (true for BLS12-381 p and r),
 * so that the intermediate fits n+1 limbs. n0 = -m^{-1} mod 2^64. */
static inline void mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b,
                            const uint64_t *m, uint64_t n0, int n) {
    uint64_t t[10] = {0};
    for (int i = 0; i < n; i++) {
        uint64_t c = 0;
        for (int j = 0; j < n; j++) {
            pm_u128 s = (pm_u128)a[j] * b[i] + t[j] + c;
            t[j] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
        pm_u128 s = (pm_u128)t[n] + c;
        t[n] = (uint64_t)s;
        t[n + 1] = (uint64_t)(s >> 64);
        uint64_t q = t[0] * n0;
        s = (pm_u128)q * m[0] + t[0];
        c = (uint64_t)(s >> 64);
        for (int j = 1; j < n; j++) {
            s = (pm_u128)q * m[j] + t[j] + c;
            t[j - 1] = (uint64_t)s;
            c = (uint64_t)(s >> 64);
        }
        s = (pm_u128)t[n] + c;
        t[n - 1] = (uint64_t)s;
        t[n] = t[n + 1] + (uint64_t)(s >> 64);
    }
    /* final conditional subtraction: t < 2m */
    uint64_t u[8], borrow = 0;
    for (int i = 0; i < n; i++) {
        pm_u128 d = (pm_u128)t[i] - m[i] - borrow;
        u[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    uint64_t keep_t = (uint64_t)0 - (uint64_t)(borrow & (t[n] ^ 1) & 1);
    for (int i = 0; i < n; i++) r[i] = (t[i] & keep_t) | (u[i] & ~keep_t);
}

/* 1 when a == 0. */
static inline int mont_is_zero(const uint64_t *a, int n) {
    uint64_t z = 0;
    for (int i = 0; i < n; i++) z |= a[i];
    return z == 0;
}

/* 1 when a < m (plain integers). */
static inline int mont_lt(const uint64_t *a, const uint64_t *m, int n) {
    for (int i = n - 1; i >= 0; i--) {
        if (a[i] < m[i]) return 1;
        if (a[i] > m[i]) return 0;
    }
    return 0;
}

#endif
