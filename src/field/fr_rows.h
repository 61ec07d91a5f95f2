/*
 * fr_rows.h — element-wise Fr products over rows of elements (the NTT's coset scalings and the H
 * phases' pointwise passes), 8 at a time on the AVX-512 IFMA kernel where the CPU has it.
 *
 * Shapes: every fr_t is 4 little-endian 64-bit limbs (l[0] least significant) of the Montgomery form
 * a*2^256 mod r, fully reduced (< r) on input and on output (fr.h), except where a name or flag says
 * "out of Montgomery form" (then the output is the plain canonical integer < r in the same 4 limbs).
 * A row is n consecutive elements (n = 0: nothing is read or written); the argument order is: output,
 * input arrays, n, then single elements (one fr_t each) and flags.
 * Results: byte for byte those of fr_mul, fr_sub and fr_from_mont applied element by element in the
 * order written (the same canonical values: Fr arithmetic is exact, and every backend's product is
 * the unique representative in [0, r); tested against those calls for every backend). Constant time:
 * no branch or memory access depends on the values (the loops run over n, which is public). None of
 * them fails: they return void; inputs >= r or overlaps other than those allowed below are the
 * caller's error (not checked; the results are then unspecified).
 *
 * Aliasing: an output row may be the same array as any input row (out == a, out == b, ...: element i
 * is read before element i is written), but must not overlap an input row at an offset (out = a + 1
 * is not allowed). The single elements (c, f, s) are copied before anything is written, so they may
 * point anywhere, even into the output row.
 *
 * Backend (the same switch as fr_bflys_dit/dif in fr_bfly.h): the AVX-512 IFMA kernel
 * (fr_ifma_kernel.h: radix 2^52, 8 elements per vector step, mont52(a, 16b) = a*b*2^-256) when
 * fr_bfly_ifma_available(), the n mod 8 remainder on the scalar path; PROOFMILL_FR_BFLY_BACKEND=
 * ifma|adx|portable|model (read once) forces it (ifma without the CPU support: the scalar path,
 * silently; adx: fr_mul as it dispatches; portable: the portable C of mont_impl.h; model: the _model
 * forms, any CPU, slow, for tests); without it,
 * PROOFMILL_FIELD_BACKEND=portable makes the rows portable C as well. The _ifma forms run the IFMA
 * kernel when the CPU has it (else the _scalar form), the _model forms the same kernel source on a
 * portable C model of the instructions (any CPU; slow: for tests), the _scalar forms fr_mul/fr_sub/
 * fr_from_mont one element at a time (BMI2+ADX or portable C as fr_mul picks), never IFMA.
 *
 * Why: the NTT butterflies already run on the IFMA kernel (docs/perf/cpu-ntt.md); the H phase's ~9n
 * element-wise products (coset scaling 2n per polynomial, pointwise 1-2n) ran one scalar fr_mul at a
 * time, and the coset powers as a dependent chain (f *= step: latency-bound). Here the powers come
 * from tables or per-lane factors that step by s^8, so no serial scalar chain remains.
 *
 * Sources: Montgomery multiplication, P. L. Montgomery, "Modular multiplication without trial
 * division", Math. Comp. 44 (1985); CIOS, Ç. K. Koç, T. Acar, B. S. Kaliski, IEEE Micro 16(3), 1996;
 * Intel SDM / Intrinsics Guide (VPMADD52LUQ, VPMADD52HUQ); N. Drucker, S. Gueron, "Fast modular
 * squaring with AVX512IFMA", 2018. Own code.
 */
#ifndef PROOFMILL_FIELD_FR_ROWS_H
#define PROOFMILL_FIELD_FR_ROWS_H

#include <stddef.h>

#include "field/fr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = a[i]*b[i] (Montgomery product) for i < n. out may be a or b. */
void fr_muls(fr_t *out, const fr_t *a, const fr_t *b, size_t n);
/* out[i] = a[i]*c for i < n (c one element). out may be a. */
void fr_muls_by(fr_t *out, const fr_t *a, size_t n, const fr_t *c);
/* out[i] = (a[i]*b[i])*c for i < n (c one element; two products per element). out may be a or b. */
void fr_muls_scaled(fr_t *out, const fr_t *a, const fr_t *b, size_t n, const fr_t *c);
/* out[i] = a[i]*b[i] - c[i] for i < n; when from_mont != 0 the difference is then taken out of
 * Montgomery form (fr_from_mont: out[i] is the plain canonical integer). out may be a, b or c. */
void fr_muls_sub(fr_t *out, const fr_t *a, const fr_t *b, const fr_t *c, size_t n, int from_mont);
/* x[i] = x[i] * (f * s^i) for i < n (f, s one element each; the factor of element 0 is f). In
 * place. Cost: ~2n products (n for the elements, n/8 vector steps of the 8 lane factors by s^8, on
 * the vector path) plus 10 scalar ones to set up the lanes; n < 16 runs the scalar chain. */
void fr_muls_powers(fr_t *x, size_t n, const fr_t *f, const fr_t *s);

/* The IFMA kernel when fr_bfly_ifma_available(), else the _scalar form (never faults). */
void fr_muls_ifma(fr_t *out, const fr_t *a, const fr_t *b, size_t n);
void fr_muls_by_ifma(fr_t *out, const fr_t *a, size_t n, const fr_t *c);
void fr_muls_scaled_ifma(fr_t *out, const fr_t *a, const fr_t *b, size_t n, const fr_t *c);
void fr_muls_sub_ifma(fr_t *out, const fr_t *a, const fr_t *b, const fr_t *c, size_t n, int from_mont);
void fr_muls_powers_ifma(fr_t *x, size_t n, const fr_t *f, const fr_t *s);
/* The same kernel source on the portable C model of the IFMA instructions (any CPU; for tests). */
void fr_muls_model(fr_t *out, const fr_t *a, const fr_t *b, size_t n);
void fr_muls_by_model(fr_t *out, const fr_t *a, size_t n, const fr_t *c);
void fr_muls_scaled_model(fr_t *out, const fr_t *a, const fr_t *b, size_t n, const fr_t *c);
void fr_muls_sub_model(fr_t *out, const fr_t *a, const fr_t *b, const fr_t *c, size_t n, int from_mont);
void fr_muls_powers_model(fr_t *x, size_t n, const fr_t *f, const fr_t *s);
/* One element at a time with fr_mul, fr_sub, fr_from_mont (never IFMA). */
void fr_muls_scalar(fr_t *out, const fr_t *a, const fr_t *b, size_t n);
void fr_muls_by_scalar(fr_t *out, const fr_t *a, size_t n, const fr_t *c);
void fr_muls_scaled_scalar(fr_t *out, const fr_t *a, const fr_t *b, size_t n, const fr_t *c);
void fr_muls_sub_scalar(fr_t *out, const fr_t *a, const fr_t *b, const fr_t *c, size_t n, int from_mont);
void fr_muls_powers_scalar(fr_t *x, size_t n, const fr_t *f, const fr_t *s);

#ifdef __cplusplus
}
#endif
#endif
