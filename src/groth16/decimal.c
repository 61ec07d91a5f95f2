/*
 * decimal.c — decimal text <-> Fp / Fr (decimal.h), the numbers of snarkjs's JSON forms.
 */
#include "groth16/decimal.h"

#include <stdio.h>
#include <string.h>


/* Decimal of the plain integer in l[0..n) (little-endian limbs); returns the length. Divides by
 * 10^19 repeatedly (one 128-by-64 division per limb per step). */
static size_t limbs_to_decimal(char *out, const uint64_t *l, size_t n) {
    uint64_t t[8];
    memcpy(t, l, n * sizeof *t);
    char rev[GROTH16_DEC_MAX];
    size_t len = 0;
    const uint64_t TEN19 = 10000000000000000000ull;
    for (;;) {
        size_t top = n;
        while (top > 0 && t[top - 1] == 0) top--;
        if (top == 0) break;
        unsigned __int128 rem = 0;
        for (size_t i = top; i-- > 0;) {
            unsigned __int128 cur = (rem << 64) | t[i];
            t[i] = (uint64_t)(cur / TEN19);
            rem = cur % TEN19;
        }
        uint64_t r = (uint64_t)rem;
        int last = 1;
        for (size_t i = 0; i < top; i++)
            if (t[i]) last = 0;
        for (int d = 0; d < 19; d++) {
            if (last && r == 0) break;
            rev[len++] = (char)('0' + r % 10);
            r /= 10;
        }
    }
    if (len == 0) rev[len++] = '0';
    for (size_t i = 0; i < len; i++) out[i] = rev[len - 1 - i];
    out[len] = 0;
    return len;
}

/* Parse s into l[0..n). Returns 0, -1 when not a decimal integer, -2 when it needs more than n
 * limbs. */
static int limbs_from_decimal(uint64_t *l, size_t n, const char *s) {
    memset(l, 0, n * sizeof *l);
    size_t len = strlen(s);
    if (len == 0 || len >= GROTH16_DEC_MAX) return -1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        uint64_t carry = (uint64_t)(s[i] - '0');
        for (size_t k = 0; k < n; k++) {
            unsigned __int128 v = (unsigned __int128)l[k] * 10 + carry;
            l[k] = (uint64_t)v;
            carry = (uint64_t)(v >> 64);
        }
        if (carry) return -2;
    }
    return 0;
}

/* 1 when a < m (n limbs, little-endian) */
static int limbs_lt(const uint64_t *a, const uint64_t *m, size_t n) {
    for (size_t i = n; i-- > 0;) {
        if (a[i] < m[i]) return 1;
        if (a[i] > m[i]) return 0;
    }
    return 0;
}

size_t groth16_fp_to_decimal(char *out, const fp_t *a) {
    fp_t plain;
    fp_from_mont(&plain, a);
    return limbs_to_decimal(out, plain.l, 6);
}

size_t groth16_fr_to_decimal(char *out, const fr_t *a) {
    fr_t plain;
    fr_from_mont(&plain, a);
    return limbs_to_decimal(out, plain.l, 4);
}

pm_status groth16_fp_from_decimal(fp_t *r, const char *s, const char *file, const char *what,
                                  pm_error *err) {
    fp_t plain;
    int rc = limbs_from_decimal(plain.l, 6, s);
    if (rc == -1)
        return pm_error_set(err, PM_ERR_ENCODING, file, PM_NO_OFFSET,
                            "%s: '%.40s%s' is not a decimal integer", what, s, strlen(s) > 40 ? "..." : "");
    if (rc == -2 || !limbs_lt(plain.l, FP_MODULUS.l, 6))
        return pm_error_set(err, PM_ERR_ENCODING, file, PM_NO_OFFSET,
                            "%s: coordinate is not below the field modulus p", what);
    fp_to_mont(r, &plain);
    return PM_OK;
}

pm_status groth16_fr_from_decimal(fr_t *r, const char *s, const char *file, const char *what,
                                  pm_error *err) {
    fr_t plain;
    int rc = limbs_from_decimal(plain.l, 4, s);
    if (rc == -1)
        return pm_error_set(err, PM_ERR_ENCODING, file, PM_NO_OFFSET,
                            "%s: '%.40s%s' is not a decimal integer", what, s, strlen(s) > 40 ? "..." : "");
    if (rc == -2 || !limbs_lt(plain.l, FR_MODULUS.l, 4))
        return pm_error_set(err, PM_ERR_ENCODING, file, PM_NO_OFFSET,
                            "%s: value is not below the group order r", what);
    fr_to_mont(r, &plain);
    return PM_OK;
}
