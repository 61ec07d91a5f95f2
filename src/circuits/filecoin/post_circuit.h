/*
 * post_circuit.h — the fallback PoSt circuit of one partition (WinningPoSt and WindowPoSt), in
 * rust-fil-proofs' allocation and constraint order, and everything a proof kind needs around it:
 * the circuit's shape and parameter identity, recording, the witness of a job's partition into a
 * caller buffer, its public inputs (derived as a verifier does, filecoin/post.h), and the name of
 * the gadget a failing row belongs to.
 *
 * Source: rust-fil-proofs @87348a7 storage-proofs-post src/fallback/circuit.rs (Sector::synthesize,
 * FallbackPoStCircuit::synthesize_default), compound.rs (circuit, generate_public_inputs,
 * cache_prefix); storage-proofs-core src/gadgets/por.rs (PoRCircuit::synthesize, private root),
 * gadgets/constraint.rs, variables.rs (Root::Val allocates the leaf); filecoin-hashers poseidon.rs
 * (hash2_circuit = Poseidon arity 2).
 *
 * Per circuit sector i (namespace sector_i), in order:
 *   comm_r_last, comm_c, comm_r: alloc (3 aux); inputize(comm_r) (1 input, 1 constraint);
 *   h = Poseidon_2(comm_c, comm_r_last) (311); equal(comm_r, h) (1)            -> 313 constraints
 *   per challenge: leaf alloc; per tree level: index bits (AllocatedBit, LSB first), arity − 1
 *   siblings, insert, Poseidon of the arity (arity 8 level: 3 + 22 + 505 = 530 constraints; arity 2:
 *   1 + 2 + 311 = 314); pack_into_inputs(index bits) (1 input, 1); equal(computed, comm_r_last) (1).
 * Public inputs in order (after ONE): per sector comm_r, then each challenge's leaf index.
 * 32 GiB WindowPoSt: 2349 × (313 + 10 × (10 × 530 + 2)) = 125,279,217 constraints (rust-fil-proofs
 * constants.rs), 25,839 inputs + ONE; 64 GiB: 2300 × (313 + 10 × (10 × 530 + 314 + 2)) = 129,887,900.
 * The input rows bellperson appends (one per input) are not part of the recorded rows.
 */
#ifndef PROOFMILL_CIRCUITS_FILECOIN_POST_CIRCUIT_H
#define PROOFMILL_CIRCUITS_FILECOIN_POST_CIRCUIT_H

#include <stddef.h>
#include <stdint.h>

#include "circuits/cs.h"
#include "filecoin/post.h"
#include "filecoin/proof_request.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per-gadget counters. */
enum {
    PM_POST_G_COMM_R = 0, /* comm_r_last/comm_c/comm_r, inputize, Poseidon(comm_c, comm_r_last), equal */
    PM_POST_G_LEAF,       /* the challenged leaf's allocation */
    PM_POST_G_PATH,       /* index bits, siblings, insert, hash of every level */
    PM_POST_G_ROOT,       /* pack_into_inputs(index bits) + equal(computed root, comm_r_last) */
    PM_POST_G_COUNT
};
typedef struct {
    uint64_t constraints[PM_POST_G_COUNT];
    uint64_t aux[PM_POST_G_COUNT];
} pm_post_stats;
const char *pm_post_gadget_name(unsigned g);

/* ---- the kind's functions (WinningPoSt and WindowPoSt) ---- */

/* Partitions of a job: 1 (Curio sends one WindowPoSt partition per request; WinningPoSt has one). */
uint32_t pm_post_partitions(const fil_post_job_t *j);
/* Filecoin's parameter file stem of the circuit ("v28-proof-of-spacetime-fallback-merkletree-
 * poseidon_hasher-8-8-0-<sha256 hex>"; filecoin/param_names.h). */
pm_status pm_post_param_stem(char *out, size_t cap, const fil_post_config_t *c, pm_error *err);

/* Synthesize the partition into cs (freshly pm_cs_init'ed; any mode). s: the arranged circuit
 * sectors (c->circuit_sectors; fil_post_arrange), or NULL for the blank circuit. stats optional.
 * Errors: PM_ERR_MISMATCH (a proof's path does not fit the tree: names sector, challenge, level),
 * PM_ERR_ENCODING (a value >= r, named), PM_ERR_NOMEM. */
pm_status pm_post_synthesize(pm_cs *cs, const fil_post_config_t *c, const fil_post_circuit_sector_t *s,
                             pm_post_stats *stats, pm_error *err);
/* Record the blank circuit (rows without bellperson's input rows); *n_inputs with ONE. */
pm_status pm_post_record(r1cs_t *out, uint32_t *n_inputs, const fil_post_config_t *c, pm_error *err);
/* The size of pm_post_record's circuit without recording it: *rows constraints and nnz[0..2] terms
 * of A, B, C (zero coefficients included, as recorded), exactly: one circuit sector synthesized
 * with PM_CS_STATS (every sector has the same constraints), times circuit_sectors (milliseconds at
 * 32 GiB, for the memory budget's plan). Errors: PM_ERR_ARG, PM_ERR_NOMEM. */
pm_status pm_post_record_size(uint64_t *rows, uint64_t nnz[3], const fil_post_config_t *c, pm_error *err);
/* The matrix facts of pm_post_record's circuit without recording it (constraints, inputs, aux, nnz,
 * bellperson's density popcounts, distinct coefficients: cs.h pm_cs_facts), exactly: the circuit
 * with one and with two circuit sectors synthesized with PM_CS_STATS (every sector has the same
 * constraints over its own variables) and extended to circuit_sectors (pm_cs_facts_extend;
 * milliseconds at 32 GiB). Errors: PM_ERR_ARG, PM_ERR_NOMEM. */
pm_status pm_post_record_facts(pm_cs_facts *f, const fil_post_config_t *c, pm_error *err);
/* Witness length of one partition (*n_inputs with ONE may be NULL); count-only, cached per shape. */
pm_status pm_post_witness_len(size_t *n_w, uint32_t *n_inputs, const fil_post_config_t *c, pm_error *err);
/* The witness [inputs ‖ aux] (Montgomery) of partition k of the job into w[cap] (every value
 * written). Circuit sectors are synthesized in parallel (OpenMP, threads, 0 = default team); the
 * result equals the serial synthesis. k must be 0 (one partition per job). Errors: PM_ERR_ARG (k,
 * cap), errors of pm_post_synthesize. */
pm_status pm_post_witness_into(fr_t *w, size_t cap, size_t *n_w, uint32_t *n_inputs, const fil_post_job_t *j,
                               uint32_t k, unsigned threads, pm_error *err);
/* The public inputs of partition k (ONE not included): out[n], n = c->circuit_sectors ·
 * (1 + circuit_challenges), derived from the request (fil_post_job_public_inputs). */
pm_status pm_post_public_inputs(fr_t *out, size_t n, const fil_post_job_t *j, uint32_t k, pm_error *err);
/* Where row lies: gadget (PM_POST_G_*), circuit sector and challenge (UINT32_MAX for the comm_r
 * part) and tree level (UINT32_MAX outside the path). Returns 0, or -1 when row is out of range. */
int pm_post_locate(unsigned *gadget, unsigned *sector, unsigned *challenge, unsigned *level, const fil_post_config_t *c,
                   uint64_t row);
/* Set err to PM_ERR_UNSATISFIED naming row of n_rows and where it lies ("constraint 1234 of 21866
 * not satisfied (sector 1 (id 7), challenge 3, inclusion path level 1)"); ids (may be NULL) gives
 * each circuit sector's id. Returns PM_ERR_UNSATISFIED. */
pm_status pm_post_unsatisfied(pm_error *err, const fil_post_config_t *c, const fil_post_circuit_sector_t *ids,
                              uint64_t row, uint64_t n_rows);
/* Check the job's partition without matrices (PM_CS_WITNESS | PM_CS_CHECK, serial): *first_bad
 * (UINT64_MAX if none), *n_bad; PM_ERR_UNSATISFIED names the first failing constraint. */
pm_status pm_post_check(uint64_t *first_bad, uint64_t *n_bad, const fil_post_job_t *j, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
