/*
 * fp.h — the BLS12-381 base field Fp, p = 0x1a0111ea...ffffaaab (381 bits).
 *
 * Representation: fp_t holds 6 little-endian 64-bit limbs (l[0] least significant) of the
 * Montgomery form a*R mod p with R = 2^384, always fully reduced (< p). Every function
 * below takes and returns Montgomery form unless its name says otherwise
 * (_from_/_to_ bytes and u64 convert at the edge).
 *
 * Argument order (project-wide): output first, then inputs; an array's length right after it.
 * Outputs may alias inputs. None of these functions fail; arithmetic returns void.
 * Routines whose time depends on the values carry the _vartime suffix.
 *
 * Source: p and the curve constants from draft-irtf-cfrg-pairing-friendly-curves-11 §4.2.1;
 * Montgomery multiplication per Montgomery 1985 (CIOS form, Koç et al. 1996).
 */
#ifndef PROOFMILL_FIELD_FP_H
#define PROOFMILL_FIELD_FP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { uint64_t l[6]; } fp_t;

/* Constants (Montgomery form where they are field elements). */
extern const fp_t FP_MODULUS;  /* p itself as a plain integer (not a field element) */
extern const fp_t FP_ZERO_ELEM;     /* 0 (not FP_ZERO: <math.h> defines that for fpclassify) */
extern const fp_t FP_ONE;      /* 1 (= R mod p) */
extern const fp_t FP_R2;       /* R^2 mod p, plain integer; used to enter Montgomery form */
extern const uint64_t FP_N0;   /* -p^{-1} mod 2^64 */

/* Arithmetic: Montgomery form in and out, fully reduced, 6 LE limbs; constant time (no branch or
 * memory access depends on the values). Backend: BMI2+ADX kernels generated into mont_x86_64.S
 * (mul, sqr; selected at run time, see fp_backend) and x86-64 add/sub kernels in the asm build,
 * the portable C of mont_impl.h otherwise; all give identical limbs (tested bit for bit). */
void fp_add(fp_t *r, const fp_t *a, const fp_t *b);   /* r = a + b mod p */
void fp_sub(fp_t *r, const fp_t *a, const fp_t *b);   /* r = a - b */
void fp_neg(fp_t *r, const fp_t *a);                  /* r = -a */
void fp_dbl(fp_t *r, const fp_t *a);                  /* r = 2a */
/* r = a*b: Montgomery product a*b*R^-1 of the Montgomery forms (CIOS, Koç et al. 1996). */
void fp_mul(fp_t *r, const fp_t *a, const fp_t *b);
/* r = a^2 (dedicated squaring in the asm build: cross products once, then a separate reduction). */
void fp_sqr(fp_t *r, const fp_t *a);
/* r = a^e, e given as ne little-endian 64-bit limbs of a plain integer (not Montgomery; any length,
 * leading zero limbs allowed; ne = 0 or e = 0 gives 1, also for a = 0). Fixed 4-bit windows.
 * Variable time in e (not in a). */
void fp_pow_vartime(fp_t *r, const fp_t *a, const uint64_t *e, size_t ne);
/* r = a^{-1} (Montgomery in, Montgomery out); r = 0 when a = 0. Variable time (the running time
 * depends on a): Bernstein–Yang safegcd with 62-divstep batches (TCHES 2019), see mont_impl.h.
 * Use only on public values or where timing does not matter (batch inversion in MSM, NTT set-up). */
void fp_inv_vartime(fp_t *r, const fp_t *a);
/* r = a^{-1} = a^(m-2) by square-and-multiply (Fermat's little theorem); r = 0 when a = 0.
 * Its time does not depend on a (the exponent is a public constant). 5-10x slower than
 * fp_inv_vartime; kept as the reference the tests compare against. */
void fp_inv_fermat(fp_t *r, const fp_t *a);
/* out[i] = in[i]^{-1} for i < n by Montgomery's trick (3(n-1) mul + 1 inv); zeros map to zero.
 * out may equal in. scratch must hold n elements (caller-owned; see STYLE.md item 10). */
void fp_batch_inv_vartime(fp_t *out, const fp_t *in, size_t n, fp_t *scratch);
/* r = sqrt(a) when a is a square (returns 1), else returns 0 and leaves r unspecified.
 * p = 3 mod 4: r = a^((p+1)/4). The root returned is whichever the exponentiation yields. */
int fp_sqrt(fp_t *r, const fp_t *a);
/* Legendre symbol: 1 for nonzero squares, -1 for non-squares, 0 for 0. */
int fp_legendre(const fp_t *a);

int fp_is_zero(const fp_t *a);                 /* 1 when a == 0 */
int fp_is_one(const fp_t *a);                  /* 1 when a == 1 */
int fp_eq(const fp_t *a, const fp_t *b);       /* 1 when a == b */
void fp_from_u64(fp_t *r, uint64_t v);         /* r = v (into Montgomery form) */
void fp_to_mont(fp_t *r, const fp_t *plain);   /* r = plain*R mod p; plain must be < p */
void fp_from_mont(fp_t *plain, const fp_t *a); /* plain = a/R mod p (canonical integer) */
/* 1 when the plain canonical integer of a is lexicographically largest, i.e. > (p-1)/2
 * (the sign rule of ZCash compression). */
int fp_is_lexicographically_largest(const fp_t *a);

/* Bytes: the 48-byte canonical plain integer (not Montgomery), big- or little-endian as named;
 * parsers return the Montgomery form. Parsers return 0 on success, -1 when the integer is >= p
 * (non-canonical: rejected, never reduced); r is then set to zero. Encoders never fail. */
int fp_from_be_bytes(fp_t *r, const uint8_t in[48]);
int fp_from_le_bytes(fp_t *r, const uint8_t in[48]);
void fp_to_be_bytes(uint8_t out[48], const fp_t *a);
void fp_to_le_bytes(uint8_t out[48], const fp_t *a);
/* snarkjs stores Montgomery limbs directly: 48 LE bytes of a*R mod p. Returns -1 if >= p. */
int fp_from_mont_le_bytes(fp_t *r, const uint8_t in[48]);
void fp_to_mont_le_bytes(uint8_t out[48], const fp_t *a);

/* Backend in use for fp_mul/fp_sqr: "x86_64-adx" (asm build, CPU with BMI2 and ADX, and the
 * environment variable PROOFMILL_FIELD_BACKEND is not "portable") or "portable". The choice is
 * made once, at the first call of any field function that needs it; static string, never NULL. */
const char *fp_backend(void);

#ifdef __cplusplus
}
#endif
#endif
