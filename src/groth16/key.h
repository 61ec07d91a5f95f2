/*
 * key.h — a Groth16 proving key as the start phase (start.h) and the assembly see it, for both key
 * conventions proofmill proves with:
 *
 *   GROTH16_SNARKJS     a snarkjs .zkey (zkey.h): a, b evaluated from the zkey's section 4 on the
 *                       N-domain; H on the odd 2N coset (ntt_snarkjs_h; roots of 5); the four G1
 *                       MSMs over A, B1 (all n_vars wires), C (wires after the public ones) and H
 *                       (N points); the G2 MSM over all wires.
 *   GROTH16_BELLPERSON  a bellperson parameter set (params.h) and the circuit's recorded rows
 *                       (r1cs.h): a, b, c by SpMV on the rows, then one row per input (A = w_i),
 *                       zero padded to m = 2^k; H = iNTT, coset NTT with g = 7, (ab − c)/Z,
 *                       coset iNTT (roots of 7), m − 1 coefficients; the A and B bases hold only
 *                       the inputs and the aux wires with a nonzero coefficient in A (B) (the
 *                       densities, computed here once); L over the aux wires.
 *
 * Both then assemble the same way (Groth 2016 §3.2): A = alpha + sum_A + r delta1,
 * B = beta2 + sum_B2 + s delta2 (and B1 in G1), C = sum_C + sum_H + s A + r B1 − r s delta1.
 *
 * The view borrows the key's arrays (the zkey_t / bp_params_t and r1cs_t must outlive it) and
 * owns: the NTT domain (unless one was lent), the bellperson density marks, and the device-resident
 * copies made by a GPU operations table (start.h), one slot per device, freed by groth16_key_free
 * through the table's dev_free. Read-only once made, so it may be shared by concurrent proofs;
 * the device slots are written only by the GPU table, inside that device's kernel region (one
 * writer per device at a time).
 */
#ifndef PROOFMILL_GROTH16_KEY_H
#define PROOFMILL_GROTH16_KEY_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "groth16/params.h"
#include "groth16/proof.h"
#include "groth16/zkey.h"
#include "ntt/ntt.h"
#include "r1cs/r1cs.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { GROTH16_SNARKJS = 0, GROTH16_BELLPERSON = 1 } groth16_convention;

/* The G1 bases of the four start-phase MSMs. GROTH16_BASE_C is snarkjs's C (zkey section 8) or
 * bellperson's L (one point per aux wire); both pair with the wires after the inputs. */
typedef enum { GROTH16_BASE_A = 0, GROTH16_BASE_B1, GROTH16_BASE_C, GROTH16_BASE_H, GROTH16_N_BASES } groth16_base;

#define GROTH16_MAX_DEVICES 64

/* The memory ledger of one key: host bytes and device bytes per card, in one place that admission,
 * status and the key cache read (every field with __atomic_load_n; written with __atomic ops by the
 * layer that owns the memory). The prove layer's host copy (decoded bases, circuit) is its
 * resident_bytes (prove.h); this ledger holds what the device copies add and the view's CPU NTT
 * domain once groth16_key_domain has built it. */
typedef struct {
    uint64_t host_staging;   /* extra pinned host memory: the GPU table's witness staging slots */
    uint64_t host_pinned;    /* of the key's own host bases, bytes page-locked for streaming (not extra) */
    uint64_t host_domain;    /* the CPU NTT domain's host bytes once built (0: not built) */
    uint64_t device[GROTH16_MAX_DEVICES]; /* device bytes at the plan's peak, by device (0: no copy) */
    unsigned tier[GROTH16_MAX_DEVICES];   /* the device copy's plan tier (devplan.h) */
} groth16_ledger;

typedef struct groth16_key {
    groth16_convention conv;
    const g1_affine_t *base[GROTH16_N_BASES]; /* affine, Montgomery */
    size_t n_base[GROTH16_N_BASES];           /* points of each (= the MSM's length) */
    const g2_affine_t *b2;                    /* the B query in G2 */
    size_t n_b2;
    g1_affine_t alpha1, beta1, delta1;
    g2_affine_t beta2, delta2;
    groth16_vk_t vk;         /* the verifying key inside the proving key (ic borrowed: never
                                groth16_vk_free it): the self-check of groth16_finalize */
    size_t n_vars;           /* witness length (wires, ONE included) */
    size_t n_public;         /* public inputs, ONE not counted */
    unsigned log_domain;
    size_t domain;           /* N (snarkjs) or m (bellperson): a, b, c and H have this length */
    const zkey_t *zk;        /* snarkjs: the matrices of section 4 */
    const r1cs_t *cs;        /* bellperson: the circuit's rows (input rows not included) */
    uint8_t *dense_a, *dense_b; /* bellperson: n_vars marks each, 1 = wire has an A (B) base */
    const ntt_domain_t *dom; /* the CPU NTT domain of size `domain` (own_dom, or lent); NULL until
                                groth16_key_domain builds it where dom_lazy (read it through that) */
    ntt_domain_t own_dom;
    int dom_lazy;            /* 1: built on the first CPU H phase (bellperson views: a GPU H needs none) */
    pthread_mutex_t dom_mu;  /* where dom_lazy: guards that one build (initialised by the view's maker) */
    void *dev[GROTH16_MAX_DEVICES];          /* device-resident copies (GPU table), by device */
    void (*dev_free)(void *dev_state, int device);
    /* the table's: 1 when that device copy holds every base set (four G1, the G2 B query) resident
     * on its device, so no MSM there reads the host bases (groth16_key_bases_resident) */
    int (*dev_resident)(const void *dev_state);
    groth16_ledger ledger;   /* what the key holds where (see groth16_ledger) */
    /* where the device copies report their first upload and pinning (util/progress.h; the key's
     * loader sets it, NULL: nowhere); must outlive the key */
    struct pm_task_progress *progress;
} groth16_key;

/* The view of a snarkjs zkey. dom: a domain of size zk->domain_size built with NTT_ROOTS_SNARKJS
 * to borrow, or NULL: with_domain = 1 builds one (owned), 0 leaves none (for callers that only
 * assemble, e.g. groth16_pending_init). Errors: PM_ERR_ARG (a lent domain of another size),
 * PM_ERR_NOMEM. On error *k is zeroed. */
pm_status groth16_key_from_zkey(groth16_key *k, const zkey_t *zk, const ntt_domain_t *dom, int with_domain,
                                pm_error *err);
/* The view of bellperson parameters p for the circuit cs (its rows; bellperson's input rows are
 * added by the start phase). Checks, naming "params": IC = the inputs (ONE + public), L = the aux
 * wires, H = m − 1 for m = 2^k >= rows + inputs, and that the A, B1 and B2 bases are exactly the
 * densities of cs (inputs dense in A) — PM_ERR_MISMATCH otherwise. Builds the density marks (one
 * pass over the A and B terms); the domain (roots of 7, 2 m twiddles: 8 GiB at m = 2^27) is built by
 * groth16_key_domain on the first CPU H phase, so a key whose H runs on a GPU never holds it.
 * Errors: PM_ERR_MISMATCH, PM_ERR_NOMEM. On error *k is zeroed. */
pm_status groth16_key_from_params(groth16_key *k, const bp_params_t *p, const r1cs_t *cs, pm_error *err);
/* The size check of groth16_key_from_params alone, counts only (no allocation, no pass over the
 * terms): IC = ONE + public inputs of cs, L = its aux wires, H = m - 1 for m = 2^k >= rows + inputs
 * (bellperson's domain, groth16::prover::create_proof). key_name names the parameters in the error
 * (NULL: "params"); cs_name, when given, the circuit ("not the key of <cs_name>: ..."). Errors:
 * PM_ERR_MISMATCH with both shapes. */
pm_status groth16_params_fit(const bp_params_t *p, const r1cs_t *cs, const char *key_name, const char *cs_name,
                             pm_error *err);
/* Release what the view owns (domain, marks, device copies) and zero it. Safe on a zeroed view. */
void groth16_key_free(groth16_key *k);

/* 1 when k's bases are resident on every one of devices[0..n) (the device copies of a GPU table:
 * each holds every base set on its card, none streamed), so the host copy of the bases is read by
 * no MSM on them; 0 when n = 0, a device id is out of range, or a device has no such copy yet. The
 * caller that then releases the host bases keeps every start on other devices or the CPU from
 * running without them (prove.h pm_prove_key_host_bases). */
int groth16_key_bases_resident(const groth16_key *k, const int *devices, size_t n);

/* Bytes the view owns beyond the borrowed key (domain tables, density marks), for memory budgets. */
uint64_t groth16_key_view_bytes(groth16_convention conv, size_t n_vars, size_t domain);
/* The CPU NTT domain's share of groth16_key_view_bytes: 2 twiddles of 32 B per point of the domain
 * (ntt.h). A bellperson view whose H runs on a device never builds it (groth16_key_domain). */
uint64_t groth16_key_domain_bytes(size_t domain);
/* The CPU NTT domain of k (size k->domain; roots of 7 for bellperson, of 5 for snarkjs), built on the
 * first call where k->dom_lazy (thread-safe: one build under the view's own lock, every caller gets
 * the same table, and a built table is read without the lock; its bytes go to
 * k->ledger.host_domain). Errors: PM_ERR_ARG when the view has none and builds none (a zkey
 * view made with with_domain = 0), PM_ERR_NOMEM or the NTT layer's from the build. */
pm_status groth16_key_domain(const groth16_key *k, const ntt_domain_t **out, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
