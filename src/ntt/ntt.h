/*
 * ntt.h — number-theoretic transforms over BLS12-381 Fr: radix-2/4 forward / inverse, coset
 * variants, reusable domain tables, and the exact snarkjs H-phase (A·B − C on the odd coset).
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
 *  - Threads: butterfly stages and pointwise loops are split over OpenMP threads when
 *    n >= NTT_PARALLEL_MIN; below that everything runs on the calling thread. No function here
 *    allocates except ntt_domain_init.
 *  - Not value-dependent in time (fixed sequence of field operations for a given n).
 *
 * Cost: at most n/2 * log_n Montgomery multiplications per transform (Cooley–Tukey DIT after a
 * bit-reversal permutation, Cormen et al. ch. 30.3; stage 0 needs none). The first 12 stages run
 * radix-2 inside L2-sized blocks of 4096 elements, one block per thread; the stages above run two
 * at a time (radix-4 passes), so a 2^20 transform streams the array 1 + 4 times instead of 20.
 * Twiddles are stored per stage contiguously
 * (stage with half-size m uses m consecutive powers of omega_{2m}; n - 1 entries per direction)
 * so each stage streams its table instead of striding through one table of n/2 powers.
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

#ifdef __cplusplus
}
#endif
#endif
