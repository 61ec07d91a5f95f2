/*
 * update_circuit.h — the SnapDeals (EmptySectorUpdate) partition circuit, in rust-fil-proofs'
 * allocation and constraint order, and what the kind "snapdeals" (kinds/filecoin/vanilla_kind.h)
 * needs around it (partitions, parameter identity, record, witness of partition k into a caller
 * buffer, public inputs, name of a failing row); jobs are read by filecoin/update.h.
 *
 * Source: rust-fil-proofs @87348a7 storage-proofs-update src/circuit.rs
 * (EmptySectorUpdateCircuit::synthesize), gadgets.rs (allocated_num_to_allocated_bits, apex_por,
 * gen_challenge_bits, get_challenge_high_bits, label_r_new), constants.rs; storage-proofs-core
 * gadgets/por.rs (por_no_challenge_input), insertion.rs (select, insert); neptune v11 circuit.rs
 * (poseidon_hash with the gen-randomness tag, filecoin/update.h); filecoin-hashers sha256.rs
 * (hash2_circuit), poseidon.rs.
 *
 * Global part, in order: k_and_h_select alloc + inputize; its partition_bits + 6 bits
 * (AllocatedBit) and A = Σ 2^i b_i, B = ONE, C = k_and_h_select; partition = pack_bits(partition
 * bits); comm_r_old, comm_d_new, comm_r_new alloc + inputize; phi = H_gr(comm_d_new, comm_r_old);
 * comm_c, root_r_old, root_r_new, the apex leaves and the partition-path siblings alloc;
 * Poseidon_2(comm_c, root_r_old) = comm_r_old and likewise new; apex_por (the apex tree's
 * apex_leaves − 1 SHA-256 node hashes, then por_no_challenge_input up the partition path to
 * comm_d_new); gen_challenge_bits (per digest: digest_index alloc with A = D·partition + j·ONE,
 * B = ONE; H_gr(comm_r_new, digest_index); allocated_num_to_allocated_bits).
 * Per challenge: c_high for the 6 hs (pack_bits of the top h bits, times its h_select bit), their
 * sum; rho = H_gr(phi, c_high); leaf_r_old, leaf_d_new alloc; leaf_r_new = leaf_r_old + leaf_d_new ·
 * rho (mul + sum); tree R old siblings alloc + por_no_challenge_input(c bits); the same for tree R
 * new; the apex leaf selected by the challenge's apex bits; the tree D siblings below the apex leaves
 * + por_no_challenge_input to the selected apex leaf.
 * Public inputs (after ONE): k_and_h_select, comm_r_old, comm_d_new, comm_r_new.
 * 32 GiB: 81,049,499 constraints (rust-fil-proofs tests/circuit.rs); 2 KiB 1,705,039, 4 KiB
 * 2,165,109, 16 KiB 6,300,021, 32 KiB 6,760,091 (same file). Bellperson's input rows are not part
 * of the recorded rows.
 */
#ifndef PROOFMILL_CIRCUITS_FILECOIN_UPDATE_CIRCUIT_H
#define PROOFMILL_CIRCUITS_FILECOIN_UPDATE_CIRCUIT_H

#include <stddef.h>
#include <stdint.h>

#include "circuits/cs.h"
#include "filecoin/proof_request.h"
#include "filecoin/update.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    PM_UPD_G_INPUTS = 0,   /* k_and_h_select, its bits, partition, comm_r_old/comm_d_new/comm_r_new */
    PM_UPD_G_PHI,          /* phi = H_gr(comm_d_new, comm_r_old) */
    PM_UPD_G_COMM_R,       /* comm_c, roots, apex leaves, partition path; the two comm_r checks */
    PM_UPD_G_APEX_TREE,    /* the apex tree's SHA-256 hashes */
    PM_UPD_G_PARTITION_PATH, /* apex root up the partition path to comm_d_new */
    PM_UPD_G_CHALLENGE_BITS, /* gen_challenge_bits */
    PM_UPD_G_HIGH_BITS,    /* per challenge: c_high for each h, the selected one */
    PM_UPD_G_RHO,          /* rho = H_gr(phi, c_high) */
    PM_UPD_G_LABEL,        /* leaf_r_old, leaf_d_new, leaf_r_new = leaf_r_old + leaf_d_new · rho */
    PM_UPD_G_R_OLD,        /* tree R old siblings + path */
    PM_UPD_G_R_NEW,        /* tree R new siblings + path */
    PM_UPD_G_APEX_LEAF,    /* select of the apex leaf */
    PM_UPD_G_D_PATH,       /* tree D siblings + path to the apex leaf */
    PM_UPD_G_COUNT
};
typedef struct {
    uint64_t constraints[PM_UPD_G_COUNT];
    uint64_t aux[PM_UPD_G_COUNT];
} pm_update_stats;
const char *pm_update_gadget_name(unsigned g);

/* ---- the kind's functions ---- */
/* Partitions of a job: cfg.partitions (16 at 32/64 GiB and 512 MiB, 4 at 8 MiB, 1 at 2 KiB). */
uint32_t pm_update_partitions(const fil_update_job_t *j);
/* "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-<sha256 hex>" (param_names.h). */
pm_status pm_update_param_stem(char *out, size_t cap, const fil_update_config_t *c, pm_error *err);

/* Synthesize partition k into cs (any mode). j = NULL: blank circuit (k ignored). stats optional.
 * Errors: PM_ERR_ARG (k), PM_ERR_MISMATCH (a proof does not fit the trees, or leaf_r_new of the
 * encoding differs from the proof's: names partition, challenge and field), PM_ERR_ENCODING,
 * PM_ERR_NOMEM. */
pm_status pm_update_synthesize(pm_cs *cs, const fil_update_config_t *c, const fil_update_job_t *j, uint32_t k,
                               pm_update_stats *stats, pm_error *err);
pm_status pm_update_record(r1cs_t *out, uint32_t *n_inputs, const fil_update_config_t *c, pm_error *err);
/* The size of pm_update_record's circuit without recording it: *rows constraints and nnz[0..2]
 * terms of A, B, C, exactly: the global part and one challenge synthesized with PM_CS_STATS (every
 * challenge has the same constraints), global + challenges x one (a second at 32 GiB; for the
 * memory budget's plan). Errors: PM_ERR_NOMEM. */
pm_status pm_update_record_size(uint64_t *rows, uint64_t nnz[3], const fil_update_config_t *c, pm_error *err);
/* The matrix facts of pm_update_record's circuit without recording it (cs.h pm_cs_facts), exactly:
 * the circuit with one and with two challenges synthesized with PM_CS_STATS (every challenge has
 * the same constraints over its own variables) and extended to c->challenges (pm_cs_facts_extend).
 * Errors: PM_ERR_NOMEM. */
pm_status pm_update_record_facts(pm_cs_facts *f, const fil_update_config_t *c, pm_error *err);
pm_status pm_update_witness_len(size_t *n_w, uint32_t *n_inputs, const fil_update_config_t *c, pm_error *err);
/* The witness of partition k into w[cap]: the global part serially, then the challenges in parallel
 * (OpenMP, threads; 0 = default team) into their slices (identical to the serial synthesis). */
pm_status pm_update_witness_into(fr_t *w, size_t cap, size_t *n_w, uint32_t *n_inputs, const fil_update_job_t *j,
                                 uint32_t k, unsigned threads, pm_error *err);
/* out[4] (ONE not included): fil_update_public_inputs of the request. */
pm_status pm_update_public_inputs(fr_t *out, size_t n, const fil_update_job_t *j, uint32_t k, pm_error *err);
/* Gadget (PM_UPD_G_*) and challenge (UINT32_MAX in the global part) of a row. 0, or -1 if out of range. */
int pm_update_locate(unsigned *gadget, unsigned *challenge, const fil_update_config_t *c, uint64_t row);
/* PM_ERR_UNSATISFIED naming row, partition k (k = UINT32_MAX: none; the caller names it), challenge
 * and gadget. */
pm_status pm_update_unsatisfied(pm_error *err, const fil_update_config_t *c, uint32_t k, uint64_t row, uint64_t n_rows);
/* Check partition k without matrices (PM_CS_WITNESS | PM_CS_CHECK, serial). */
pm_status pm_update_check(uint64_t *first_bad, uint64_t *n_bad, const fil_update_job_t *j, uint32_t k, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
