/*
 * fr.h — the BLS12-381 scalar field Fr, r = 0x73eda753...00000001 (255 bits).
 *
 * Representation: fr_t holds 4 little-endian 64-bit limbs (l[0] least significant) of the
 * Montgomery form a*R mod r with R = 2^256, always fully reduced (< r). Every function
 * below takes and returns Montgomery form unless its name says otherwise
 * (_from_/_to_ bytes and u64 convert at the edge).
 *
 * Argument order (project-wide): output first, then inputs; an array's length right after it.
 * Outputs may alias inputs. None of these functions fail; arithmetic returns void.
 * Routines whose time depends on the values carry the _vartime suffix.
 *
 * Source: p and the curve constants from draft-irtf-cfrg-pairing-friendly-curves-11 §4.2.1 (r is the group order);
 * Montgomery multiplication per Montgomery 1985 (CIOS form, Koç et al. 1996).
 */
#ifndef PROOFMILL_FIELD_FR_H
#define PROOFMILL_FIELD_FR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { uint64_t l[4]; } fr_t;

/* Constants (Montgomery form where they are field elements). */
extern const fr_t FR_MODULUS;  /* r itself as a plain integer (not a field element) */
extern const fr_t FR_ZERO;     /* 0 */
extern const fr_t FR_ONE;      /* 1 (= R mod r) */
extern const fr_t FR_R2;       /* R^2 mod r, plain integer; used to enter Montgomery form */
extern const uint64_t FR_N0;   /* -r^{-1} mod 2^64 */

/* Arithmetic: Montgomery form in and out, fully reduced, 4 LE limbs; constant time (no branch or
 * memory access depends on the values). Backend: BMI2+ADX kernels generated into mont_x86_64.S
 * (mul, sqr; selected at run time, see fr_backend) and x86-64 add/sub kernels in the asm build,
 * the portable C of mont_impl.h otherwise; all give identical limbs (tested bit for bit). */
void fr_add(fr_t *r, const fr_t *a, const fr_t *b);   /* r = a + b mod r */
void fr_sub(fr_t *r, const fr_t *a, const fr_t *b);   /* r = a - b */
void fr_neg(fr_t *r, const fr_t *a);                  /* r = -a */
void fr_dbl(fr_t *r, const fr_t *a);                  /* r = 2a */
/* r = a*b: Montgomery product a*b*R^-1 of the Montgomery forms (CIOS, Koç et al. 1996). */
void fr_mul(fr_t *r, const fr_t *a, const fr_t *b);
/* r = a^2 (dedicated squaring in the asm build: cross products once, then a separate reduction). */
void fr_sqr(fr_t *r, const fr_t *a);
/* r = a^e, e given as ne little-endian 64-bit limbs of a plain integer (not Montgomery; any length,
 * leading zero limbs allowed; ne = 0 or e = 0 gives 1, also for a = 0). Fixed 4-bit windows.
 * Variable time in e (not in a). */
void fr_pow_vartime(fr_t *r, const fr_t *a, const uint64_t *e, size_t ne);
/* r = a^{-1} (Montgomery in, Montgomery out); r = 0 when a = 0. Variable time (the running time
 * depends on a): Bernstein–Yang safegcd with 62-divstep batches (TCHES 2019), see mont_impl.h.
 * Use only on public values or where timing does not matter (batch inversion in MSM, NTT set-up). */
void fr_inv_vartime(fr_t *r, const fr_t *a);
/* r = a^{-1} = a^(m-2) by square-and-multiply (Fermat's little theorem); r = 0 when a = 0.
 * Its time does not depend on a (the exponent is a public constant). 5-10x slower than
 * fr_inv_vartime; kept as the reference the tests compare against. */
void fr_inv_fermat(fr_t *r, const fr_t *a);
/* out[i] = in[i]^{-1} for i < n by Montgomery's trick (3(n-1) mul + 1 inv); zeros map to zero.
 * out may equal in. scratch must hold n elements (caller-owned; see STYLE.md item 10). */
void fr_batch_inv_vartime(fr_t *out, const fr_t *in, size_t n, fr_t *scratch);
/* r = sqrt(a) when a is a square (returns 1), else returns 0 (Tonelli-Shanks, r - 1 = 2^32 * t). */
int fr_sqrt(fr_t *r, const fr_t *a);
/* Legendre symbol: 1 for nonzero squares, -1 for non-squares, 0 for 0. */
int fr_legendre(const fr_t *a);

int fr_is_zero(const fr_t *a);                 /* 1 when a == 0 */
int fr_is_one(const fr_t *a);                  /* 1 when a == 1 */
int fr_eq(const fr_t *a, const fr_t *b);       /* 1 when a == b */
void fr_from_u64(fr_t *r, uint64_t v);         /* r = v (into Montgomery form) */
void fr_to_mont(fr_t *r, const fr_t *plain);   /* r = plain*R mod r; plain must be < r */
void fr_from_mont(fr_t *plain, const fr_t *a); /* plain = a/R mod r (canonical integer) */

/* Bytes: the 32-byte canonical plain integer (not Montgomery), big- or little-endian as named;
 * parsers return the Montgomery form. Parsers return 0 on success, -1 when the integer is >= r
 * (non-canonical: rejected, never reduced); r is then set to zero. Encoders never fail. */
int fr_from_be_bytes(fr_t *r, const uint8_t in[32]);
int fr_from_le_bytes(fr_t *r, const uint8_t in[32]);
void fr_to_be_bytes(uint8_t out[32], const fr_t *a);
void fr_to_le_bytes(uint8_t out[32], const fr_t *a);
/* snarkjs stores Montgomery limbs directly: 32 LE bytes of a*R mod r. Returns -1 if >= r. */
int fr_from_mont_le_bytes(fr_t *r, const uint8_t in[32]);
void fr_to_mont_le_bytes(uint8_t out[32], const fr_t *a);

/* Two-adicity of r - 1 (= 32). */
#define FR_TWO_ADICITY 32
/* The smallest quadratic non-residue g of Fr that generates the multiplicative group
 * (computed by code from the factorisation of r - 1, not pasted): 7. */
void fr_multiplicative_generator(fr_t *g);
/* r = g^((r-1)/2^k), a primitive 2^k-th root of unity, for 0 <= k <= 32, where g is the given
 * element (pass the result of fr_multiplicative_generator for the arkworks/bellperson
 * convention, or fr_from_u64(5) for snarkjs/ffjavascript, whose roots come from nqr = 5).
 * Returns -1 when k > 32 or when the result is not a primitive 2^k-th root. */
int fr_root_of_unity(fr_t *r, const fr_t *g, unsigned k);

/* Backend in use for fr_mul/fr_sqr: "x86_64-adx" (asm build, CPU with BMI2 and ADX, and the
 * environment variable PROOFMILL_FIELD_BACKEND is not "portable") or "portable". The choice is
 * made once, at the first call of any field function that needs it; static string, never NULL. */
const char *fr_backend(void);

#ifdef __cplusplus
}
#endif
#endif
