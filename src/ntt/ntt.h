/*
 * ntt.h — number-theoretic transforms over BLS12-381 Fr: cache-blocked forward / inverse, coset
 * variants, reusable domain tables, the exact snarkjs H-phase (A·B − C on the odd coset) and the
 * exact bellperson H-phase (the coefficients of (A·B − C)/Z).
 *
 * Conventions (all functions):
 *  - Elements are fr_t in Montgomery form (field/fr.h) unless a name says _plain.
 *  - Natural order in and natural order out (the bit-reversal permutation is done inside).
 *  - Forward:  A[k] = sum_{j<n} a[j] * omega^(j*k)            (coefficients -> evaluations at omega^k)
 *    Inverse:  a[j] = n^{-1} * sum_{k<n} A[k] * omega^(-j*k)  (evaluations -> coefficients)
 *    Coset forward with shift g: A[k] = sum_j a[j] * (g*omega^k)^j (evaluations at g*omega^k);
 *    coset inverse undoes it.
 *  - omega = the primitive n-th root of unity of the domain: omega_n = root_{2^32}^(2^(32-log_n))
 *    with root_{2^32} = gen^((r-1)/2^32) (fr_root_of_unity). The generator is a PARAMETER:
 *    NTT_ROOTS_SNARKJS (gen 5: ffjavascript's nqr, what snarkjs zkeys are tied to, see
 *    ../shared/fixtures/FORMATS.md "Roots of unity") or NTT_ROOTS_ARKWORKS (gen 7: the
 *    multiplicative generator used by arkworks / bellperson / zcash). The two give different
 *    omegas for every n >= 4 (for n = 2 both give -1).
 *  - Sizes: n = 2^log_n with 0 <= log_n <= 31 (log_n = 32 would need w_{2N} beyond 2-adicity).
 *    n = 1 is the identity.
 *  - Threads: every pass over the array is one OpenMP loop over independent blocks or tiles (the
 *    OpenMP default team), so a single transform uses every thread when n >= NTT_PARALLEL_MIN;
 *    below that everything runs on the calling thread. Results do not depend on the thread count
 *    (exact arithmetic: the same bytes for 1 or 64 threads). The only allocations besides
 *    ntt_domain_init are a 256 KiB tile buffer per thread and upper pass and, in the H phases, a
 *    128 KiB table of coset powers per transform (each falls back to slower work with the same
 *    result when malloc fails).
 *  - Element-wise products (coset powers, 1/n, pointwise A·B − C) run as rows on fr_rows.h (the
 *    AVX-512 IFMA kernel where the CPU has it, the same bytes as fr_mul).
 *  - Not value-dependent in time (fixed sequence of field operations for a given n).
 *
 * Cost: n/2 * log_n Montgomery multiplications per transform minus the trivial twiddles (~n).
 * Structure (ntt.c): radix-2 networks, DIT (Cooley–Tukey, bit-reversed in) and DIF
 * (Gentleman–Sande, natural in), cut into passes over memory: stages 0..11 on contiguous 2^12
 * blocks (128 KiB, L2-resident), the stages above in passes of <= 11 on tiles of W columns x 2^S
 * rows gathered into a contiguous buffer (256 KiB): a 2^23 transform streams the array twice. A tiled
 * bit reversal (runs of 16 elements) gives natural order and carries the coset powers / 1/n.
 * Twiddles are stored per stage contiguously (stage with half-size m uses m consecutive powers of
 * omega_{2m}; n - 1 entries per direction) so consecutive columns read consecutive entries.
 */
#ifndef PROOFMILL_NTT_NTT_H
#define PROOFMILL_NTT_NTT_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Below this size the transforms stay single-threaded (thread start-up costs more than it saves). */
#define NTT_PARALLEL_MIN ((size_t)1 << 12)
#define NTT_MAX_LOG_N 31u

/* Which multiplicative generator the roots of unity come from (the value is the generator). */
typedef enum {
    NTT_ROOTS_SNARKJS = 5,  /* ffjavascript / snarkjs: nqr 5 */
    NTT_ROOTS_ARKWORKS = 7  /* arkworks / bellperson / zcash: generator 7 */
} ntt_roots_t;

/* Precomputed tables for one size; build once, reuse for any number of transforms (read-only
 * after init, so it may be shared between threads). All fr_t Montgomery. */
typedef struct {
    unsigned log_n;
    size_t n;
    fr_t gen;        /* the generator the roots come from (5 or 7 or the caller's) */
    fr_t omega;      /* primitive n-th root of unity */
    fr_t omega_inv;  /* omega^{-1} */
    fr_t n_inv;      /* n^{-1} */
    fr_t omega_2n;   /* primitive 2n-th root with omega_2n^2 = omega (snarkjs's coset shift "inc") */
    fr_t *tw;        /* n - 1 forward twiddles: stage m (=1,2,4,..,n/2) at tw[m-1 .. 2m-2] = omega_2m^i */
    fr_t *tw_inv;    /* same for omega^{-1} */
} ntt_domain_t;

/* Build the domain of size 2^log_n with roots from generator `roots`.
 * Errors: PM_ERR_ARG when log_n > NTT_MAX_LOG_N or the generator does not give a primitive root;
 * PM_ERR_NOMEM. On error *d is zeroed. */
pm_status ntt_domain_init(ntt_domain_t *d, unsigned log_n, ntt_roots_t roots, pm_error *err);
/* The same with any generator g (Montgomery); g^((r-1)/2^32) must have order exactly 2^32. */
pm_status ntt_domain_init_gen(ntt_domain_t *d, unsigned log_n, const fr_t *g, pm_error *err);
/* Free the tables and zero *d. Accepts a zeroed struct. */
void ntt_domain_free(ntt_domain_t *d);

/* In-place bit-reversal permutation of a[0..n), n a power of two (n = 1, 2 are no-ops). */
void ntt_bit_reverse(fr_t *a, size_t n);

/* In-place forward NTT of a[0..n), n = d->n (natural order in and out). The transforms below
 * return without touching a when n != d->n (a programmer error; they have no error channel). */
void ntt_forward(fr_t *a, size_t n, const ntt_domain_t *d);
/* In-place inverse NTT of a[0..n), n = d->n, including the 1/n scaling. */
void ntt_inverse(fr_t *a, size_t n, const ntt_domain_t *d);
/* a[i] *= shift^i for i < n (shift Montgomery). Thread-parallel by chunks for big n. */
void ntt_scale_powers(fr_t *a, size_t n, const fr_t *shift);
/* Coset forward: a holds n coefficients; on return a[k] = poly(shift * omega^k). */
void ntt_coset_forward(fr_t *a, size_t n, const ntt_domain_t *d, const fr_t *shift);
/* Coset inverse: a holds poly(shift * omega^k), k < n; on return its n coefficients. */
void ntt_coset_inverse(fr_t *a, size_t n, const ntt_domain_t *d, const fr_t *shift);

/* The snarkjs H-phase (src/groth16_prove.js, ffjavascript fft; FORMATS.md "How snarkjs proves"
 * step 2), exactly:
 *   C = a∘b on the N-domain; for X in {a, b, C}: iNTT over the N-domain, multiply coefficient k by
 *   inc^k with inc = d->omega_2n, NTT over the N-domain -> X evaluated on the coset omega_2n*<omega_N>;
 *   p[j] = A_j * B_j - C_j.
 * The output is converted OUT of Montgomery form: p[j] holds the plain canonical integer (< r) as
 * fr_t limbs (4 LE u64), ready as MSM scalars against zkey section 9 (H).
 * Shapes: p, a, b, scratch: n = d->n elements each. a, b: evaluations of A·w, B·w on the domain
 * (Montgomery, e.g. from zkey_eval_ab); they are DESTROYED (used as work space). p may alias a
 * (not b, not scratch). scratch: caller-owned n elements.
 * d must be built with NTT_ROOTS_SNARKJS for snarkjs zkeys (another root gives a wrong H).
 * Errors: PM_ERR_ARG when n != d->n or p aliases b/scratch. Cost: 6 NTTs of size n + 3n mul. */
pm_status ntt_snarkjs_h(fr_t *p, size_t n, fr_t *a, fr_t *b, fr_t *scratch, const ntt_domain_t *d,
                        pm_error *err);

/* The bellperson / bellman H-phase (groth16 prover: the quotient H = (A·B − C)/Z of the QAP), the
 * bytes of bellperson's Groth16 prover exactly (the CPU prover's H: groth16/start_cpu.c): with g = 7
 * (fr_multiplicative_generator; d built with NTT_ROOTS_ARKWORKS),
 *   for X in {a, b, c}: iNTT, coefficient k times g^k, NTT  (X on the coset g<omega>);
 *   t = (A·B − C) · (g^n − 1)^{-1};  iNTT of t, coefficient k times g^{-k}.
 * h receives the n coefficients of H as plain canonical integers (fr_t limbs, NOT Montgomery): the
 * first n − 1 are the MSM scalars against the parameters' h query; h[n − 1] is 0 for a satisfying
 * witness (deg H <= n − 2), otherwise PM_ERR_UNSATISFIED ("H has degree n - 1") is returned with h
 * still written. Shapes: h, a, b, c: n = d->n elements; a, b, c: Montgomery evaluations of A·w, B·w,
 * C·w on the rows, zero-padded to n, all three DESTROYED; h may alias a (not b, c). Fused as in
 * ntt_snarkjs_h (no bit reversal between the inverse and the forward transforms). C is never taken
 * to the coset: the coset iNTT undoes the coset NTT exactly, so icoset((A·B − C)z) = z·icoset(A·B) −
 * z·iNTT(c), the same bytes for every input; the two inverse transforms share their block pass, where
 * A's coefficients are scaled by g^-k and C's subtracted, and end in one bit reversal scaled by n^-1 z.
 * Errors: PM_ERR_ARG (n != d->n, aliasing, a domain not from generator 7), PM_ERR_UNSATISFIED.
 * Cost: 6 NTTs of size n (bellperson's sequence: 7) + ~7n multiplications. */
pm_status ntt_bellperson_h(fr_t *h, size_t n, fr_t *a, fr_t *b, fr_t *c, const ntt_domain_t *d,
                           pm_error *err);

/* (g^n - 1)^{-1} with g = 7 (fr_multiplicative_generator): the inverse of the vanishing polynomial
 * X^n - 1 on the coset g<omega_n>, constant there (bellperson's divisor). n >= 1. Montgomery. */
void ntt_bellperson_zinv(fr_t *zinv, size_t n);
/* Split `stages` into P = ceil(stages / max_per_pass) passes of balanced sizes (the first
 * stages % P one larger), sizes[0..P) filled (sizes must hold P entries); returns P. The CPU and the
 * device NTT cut their networks with it (2^27 on the device: 9 + 9 + 9). */
unsigned ntt_split_stages(unsigned *sizes, unsigned stages, unsigned max_per_pass);

/* The shape of the passes over memory (a tuning knob; the results do not depend on it, byte for byte):
 * the block pass runs stages 0..b-1 on contiguous blocks of 2^b elements (32 * 2^b bytes: meant to sit in
 * the core's L2; default 12), each upper pass gathers tiles of at most 2^t elements (default 13).
 * b in [NTT_SHAPE_BLOCK_MIN, NTT_SHAPE_BLOCK_MAX], t in [NTT_SHAPE_TILE_MIN, NTT_SHAPE_TILE_MAX]; a value
 * outside its range (0, say) restores that default. Process-wide; not thread-safe: call it while no
 * transform runs. ntt_get_pass_shape reads the current values. */
#define NTT_SHAPE_BLOCK_MIN 4u
#define NTT_SHAPE_BLOCK_MAX 16u
#define NTT_SHAPE_TILE_MIN 9u
#define NTT_SHAPE_TILE_MAX 15u
void ntt_set_pass_shape(unsigned block_log2, unsigned tile_log2);
void ntt_get_pass_shape(unsigned *block_log2, unsigned *tile_log2);

/* Testing only: at most s (1..8; anything else restores the default 8) stages per upper pass,
 * so that small transforms run the multi-pass structure of big ones. Not thread-safe: call it while
 * no transform runs. */
void ntt_test_set_upper_stages(unsigned s);

#ifdef __cplusplus
}
#endif
#endif
