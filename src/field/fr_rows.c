/*
 * fr_rows.c — element-wise Fr row products (contract in fr_rows.h): the backend switch and the
 * scalar forms. The vector forms (_ifma, _model) are in fr_bfly_ifma.c, next to the butterflies that
 * share their kernel. Dispatch: one relaxed load of the row backend flag (pm_fr_bfly_backend, probed
 * once, cpu_x86.c) per row, not per element.
 */
#include "field/fr_rows.h"

#include "cpu_x86.h"
#include "mont_impl.h"

#define M (FR_MODULUS.l)

/* ---- one element at a time: fr_mul (BMI2+ADX or portable as it dispatches) or, with port != 0,
 * mont_mul of mont_impl.h directly (PROOFMILL_FR_BFLY_BACKEND=portable) ---- */
static inline void rmul(fr_t *r, const fr_t *a, const fr_t *b, int port) {
    if (port) mont_mul(r->l, a->l, b->l, M, FR_N0, 4);
    else fr_mul(r, a, b);
}

static void muls_loop(fr_t *out, const fr_t *a, const fr_t *b, size_t n, int port) {
    for (size_t i = 0; i < n; i++) rmul(&out[i], &a[i], &b[i], port);
}
static void muls_by_loop(fr_t *out, const fr_t *a, size_t n, const fr_t *c, int port) {
    const fr_t cc = *c;
    for (size_t i = 0; i < n; i++) rmul(&out[i], &a[i], &cc, port);
}
static void muls_scaled_loop(fr_t *out, const fr_t *a, const fr_t *b, size_t n, const fr_t *c, int port) {
    const fr_t cc = *c;
    for (size_t i = 0; i < n; i++) {
        fr_t t;
        rmul(&t, &a[i], &b[i], port);
        rmul(&out[i], &t, &cc, port);
    }
}
static void muls_sub_loop(fr_t *out, const fr_t *a, const fr_t *b, const fr_t *c, size_t n, int from_mont,
                          int port) {
    fr_t one_plain = FR_ZERO; /* fr_from_mont(x) = x * 1 (the plain integer 1): x / R */
    one_plain.l[0] = 1;
    for (size_t i = 0; i < n; i++) {
        fr_t t;
        rmul(&t, &a[i], &b[i], port);
        if (port) mont_sub(t.l, t.l, c[i].l, M, 4);
        else fr_sub(&t, &t, &c[i]);
        if (from_mont) rmul(&out[i], &t, &one_plain, port);
        else out[i] = t;
    }
}
static void muls_powers_loop(fr_t *x, size_t n, const fr_t *f, const fr_t *s, int port) {
    fr_t ff = *f;
    const fr_t ss = *s;
    for (size_t i = 0; i < n; i++) {
        rmul(&x[i], &x[i], &ff, port);
        rmul(&ff, &ff, &ss, port);
    }
}

void fr_muls_scalar(fr_t *out, const fr_t *a, const fr_t *b, size_t n) { muls_loop(out, a, b, n, 0); }
void fr_muls_by_scalar(fr_t *out, const fr_t *a, size_t n, const fr_t *c) { muls_by_loop(out, a, n, c, 0); }
void fr_muls_scaled_scalar(fr_t *out, const fr_t *a, const fr_t *b, size_t n, const fr_t *c) {
    muls_scaled_loop(out, a, b, n, c, 0);
}
void fr_muls_sub_scalar(fr_t *out, const fr_t *a, const fr_t *b, const fr_t *c, size_t n, int from_mont) {
    muls_sub_loop(out, a, b, c, n, from_mont, 0);
}
void fr_muls_powers_scalar(fr_t *x, size_t n, const fr_t *f, const fr_t *s) { muls_powers_loop(x, n, f, s, 0); }

/* ---- the switch (the rows backend of fr_bflys_dit/dif) ---- */
#if PM_FR_HAVE_IFMA_KERNEL
#define PM_ROWS_BACKEND() pm_fr_bfly_backend()
#else
#define PM_ROWS_BACKEND() 0
#define PM_FR_BFLY_IFMA 1
#define PM_FR_BFLY_PORTABLE 3
#define PM_FR_BFLY_MODEL 4
#endif

void fr_muls(fr_t *out, const fr_t *a, const fr_t *b, size_t n) {
    const int be = PM_ROWS_BACKEND();
    if (be == PM_FR_BFLY_IFMA) fr_muls_ifma(out, a, b, n);
    else if (be == PM_FR_BFLY_MODEL) fr_muls_model(out, a, b, n);
    else muls_loop(out, a, b, n, be == PM_FR_BFLY_PORTABLE);
}
void fr_muls_by(fr_t *out, const fr_t *a, size_t n, const fr_t *c) {
    const int be = PM_ROWS_BACKEND();
    if (be == PM_FR_BFLY_IFMA) fr_muls_by_ifma(out, a, n, c);
    else if (be == PM_FR_BFLY_MODEL) fr_muls_by_model(out, a, n, c);
    else muls_by_loop(out, a, n, c, be == PM_FR_BFLY_PORTABLE);
}
void fr_muls_scaled(fr_t *out, const fr_t *a, const fr_t *b, size_t n, const fr_t *c) {
    const int be = PM_ROWS_BACKEND();
    if (be == PM_FR_BFLY_IFMA) fr_muls_scaled_ifma(out, a, b, n, c);
    else if (be == PM_FR_BFLY_MODEL) fr_muls_scaled_model(out, a, b, n, c);
    else muls_scaled_loop(out, a, b, n, c, be == PM_FR_BFLY_PORTABLE);
}
void fr_muls_sub(fr_t *out, const fr_t *a, const fr_t *b, const fr_t *c, size_t n, int from_mont) {
    const int be = PM_ROWS_BACKEND();
    if (be == PM_FR_BFLY_IFMA) fr_muls_sub_ifma(out, a, b, c, n, from_mont);
    else if (be == PM_FR_BFLY_MODEL) fr_muls_sub_model(out, a, b, c, n, from_mont);
    else muls_sub_loop(out, a, b, c, n, from_mont, be == PM_FR_BFLY_PORTABLE);
}
void fr_muls_powers(fr_t *x, size_t n, const fr_t *f, const fr_t *s) {
    const int be = PM_ROWS_BACKEND();
    if (be == PM_FR_BFLY_IFMA) fr_muls_powers_ifma(x, n, f, s);
    else if (be == PM_FR_BFLY_MODEL) fr_muls_powers_model(x, n, f, s);
    else muls_powers_loop(x, n, f, s, be == PM_FR_BFLY_PORTABLE);
}
