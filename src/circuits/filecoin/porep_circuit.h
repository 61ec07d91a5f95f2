/*
 * porep_circuit.h — the Filecoin StackedDRG PoRep circuit of one partition (rust-fil-proofs
 * storage-proofs-porep src/stacked/circuit/proof.rs `StackedCircuit::synthesize`, params.rs
 * `Proof::synthesize`, create_label.rs, column.rs, hash.rs; storage-proofs-core gadgets/por.rs),
 * built on the gadgets of circuits/gadgets.h into a pm_cs (count, witness or record mode).
 * POREP.md §6.2 (public inputs), §6.5 (global part), §6.6 (per challenge), §6.8 (totals).
 *
 * Public inputs in order (after ONE): replica_id, comm_d, comm_r, then per challenge: the tree-D
 * path index, the 6 DRG parents' tree-C path indices, the 8 expander parents', the challenge
 * (UInt64 packed), the tree-R_last path index, the tree-C path index of the challenged column.
 *
 * Witness: from a C1 output (filecoin/vanilla_proof.h) for one partition, or blank (all zero
 * values: the shape alone, for counting and recording). Domain values (LE canonical bytes) are read
 * with Filecoin's `bytes_into_fr` rule (a value >= r is refused: PM_ERR_ENCODING naming it).
 */
#ifndef PROOFMILL_CIRCUITS_FILECOIN_POREP_CIRCUIT_H
#define PROOFMILL_CIRCUITS_FILECOIN_POREP_CIRCUIT_H

#include <stdint.h>

#include "circuits/cs.h"
#include "filecoin/vanilla_proof.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PM_POREP_MAX_LEVELS 40

/* The shape of one partition circuit. */
typedef struct {
    uint64_t nodes;        /* sector nodes (power of two) */
    unsigned layers;       /* L: 2 or 11 (column hash arity) */
    unsigned challenges;   /* per partition */
    unsigned d_levels;     /* tree D levels = log2(nodes) */
    unsigned cr_levels;    /* tree C / R_last levels */
    unsigned cr_arity[PM_POREP_MAX_LEVELS]; /* arity of each level, leaf level first */
} pm_porep_shape;

/* Shape of a Filecoin sector size in bytes (sizes.h table; tree 8-sub-top).
 * Errors: PM_ERR_ARG for an unsupported size. */
pm_status pm_porep_shape_for_size(pm_porep_shape *s, uint64_t sector_size, pm_error *err);
/* A test shape: nodes, layers, challenges and a Poseidon tree base-sub-top (base 2, 4 or 8; sub/top
 * 0, 2, 4 or 8). The nodes are cut into max(sub,1)·max(top,1) base trees.
 * Errors: PM_ERR_ARG when nodes does not fit the shape. */
pm_status pm_porep_shape_custom(pm_porep_shape *s, uint64_t nodes, unsigned layers,
                                unsigned challenges, unsigned base, unsigned sub, unsigned top,
                                pm_error *err);

/* Per-gadget counters (constraints and aux added by each part, summed over the partition). */
enum {
    PM_POREP_G_GLOBAL = 0,   /* replica_id/comm_* allocation, inputize, replica_id bits, comm_r check */
    PM_POREP_G_COMM_D,       /* data leaf + tree D inclusion (SHA-256) */
    PM_POREP_G_PARENT_COLS,  /* 14 parent columns: allocation + column hash */
    PM_POREP_G_PARENT_INCL,  /* their tree C inclusions */
    PM_POREP_G_CHALLENGE,    /* UInt64 + pack into input */
    PM_POREP_G_LABEL_BITS,   /* parents' to_bits_le per layer */
    PM_POREP_G_LABEL_SHA,    /* create_label: SHA-256 + pack */
    PM_POREP_G_ENCODE,
    PM_POREP_G_R_LAST,       /* tree R_last inclusion */
    PM_POREP_G_C_X,          /* c_x column hash + tree C inclusion */
    PM_POREP_G_COUNT
};
typedef struct {
    uint64_t constraints[PM_POREP_G_COUNT];
    uint64_t aux[PM_POREP_G_COUNT];
} pm_porep_stats;
/* Short name of a counter ("global", "comm_d", ...). */
const char *pm_porep_gadget_name(unsigned g);

/* Synthesize one partition into cs (freshly initialised by pm_cs_init). c1 = NULL: blank witness.
 * Otherwise the partition's challenges are read from c1 (which must match the shape: challenges
 * per partition, path lengths and arities, L rows per column, 37 labeling parents).
 * stats (optional) receives per-gadget counts. After return, the caller finishes cs
 * (pm_cs_finish) to get the CSR system and/or the witness; bellperson's per-input constraints are
 * added there. Errors: PM_ERR_ARG (partition out of range), PM_ERR_MISMATCH (C1 shape differs
 * from the circuit shape: names partition, challenge and field), PM_ERR_ENCODING (a domain value
 * >= r), PM_ERR_NOMEM. */
pm_status pm_porep_synthesize(pm_cs *cs, const pm_porep_shape *s, const fil_c1_t *c1,
                              uint32_t partition, pm_porep_stats *stats, pm_error *err);

/* Which part of the circuit constraint `row` belongs to (count-only re-synthesis: 0.15 s at
 * 2 KiB, 5 s at 32 GiB). *challenge = UINT32_MAX for the global part. Returns 0, or -1 when row
 * is out of range. */
int pm_porep_locate(unsigned *gadget, unsigned *challenge, const pm_porep_shape *s, uint64_t row);

/* Per-proof synthesis: the witness [inputs ‖ aux] (Montgomery, *w malloc'd, 32-byte aligned,
 * *n_w values; *n_inputs with ONE) of partition `partition` of c1. Errors as pm_porep_synthesize.
 * The challenges are synthesized in parallel (OpenMP, `threads`, 0 = the default team): every
 * challenge allocates the same number of inputs and aux, so challenge i writes its own slice of the
 * final vector (offsets from a count-only synthesis of one challenge, cached per shape). The result
 * is identical to the serial synthesis (tested). pm_porep_witness = pm_porep_witness_mt(threads 0). */
/* The witness length of one partition of shape s (*n_w values, *n_inputs of them inputs with ONE;
 * n_inputs may be NULL), from the cached count-only synthesis. */
pm_status pm_porep_witness_len(size_t *n_w, uint32_t *n_inputs, const pm_porep_shape *s, pm_error *err);
/* pm_porep_witness_mt into a caller-owned buffer w of cap values (reused across partitions and
 * proofs: every one of the *n_w values is overwritten, so a 32 GiB partition's 4.2 GB is not
 * re-faulted per proof). PM_ERR_ARG when cap < the length (pm_porep_witness_len). */
pm_status pm_porep_witness_into(fr_t *w, size_t cap, size_t *n_w, uint32_t *n_inputs, const pm_porep_shape *s,
                                const fil_c1_t *c1, uint32_t partition, unsigned threads, pm_error *err);
pm_status pm_porep_witness_mt(fr_t **w, size_t *n_w, uint32_t *n_inputs, const pm_porep_shape *s,
                              const fil_c1_t *c1, uint32_t partition, unsigned threads, pm_error *err);
pm_status pm_porep_witness(fr_t **w, size_t *n_w, uint32_t *n_inputs, const pm_porep_shape *s,
                           const fil_c1_t *c1, uint32_t partition, pm_error *err);
/* Single-threaded reference (one growing system). */
pm_status pm_porep_witness_serial(fr_t **w, size_t *n_w, uint32_t *n_inputs, const pm_porep_shape *s,
                                  const fil_c1_t *c1, uint32_t partition, pm_error *err);

/* Record the blank circuit once: *out (zeroed by the callee; free with r1cs_free) holds the
 * circuit's rows (bellperson's input rows are added by the Groth16 layer); *n_inputs with ONE.
 * 2 KiB: 2.7 M rows, 15 M terms (~0.55 GB). Errors: PM_ERR_NOMEM. */
pm_status pm_porep_record(r1cs_t *out, uint32_t *n_inputs, const pm_porep_shape *s, pm_error *err);

/* Set err to PM_ERR_UNSATISFIED naming constraint `row` of n_rows and where it lies in the
 * partition circuit of shape s ("constraint 123 of 2687921 not satisfied (challenge 1,
 * label_sha256)"); returns PM_ERR_UNSATISFIED. For a row found by the prover's own check. */
pm_status pm_porep_unsatisfied(pm_error *err, const pm_porep_shape *s, uint32_t row, uint32_t n_rows);
/* Check w against the recorded system (a full pass over the matrices); PM_ERR_UNSATISFIED names the
 * first failing constraint as pm_porep_unsatisfied does. The provers check on their SpMV output
 * instead (the start phase's eval, groth16/start.h); this is for checking without proving. */
pm_status pm_porep_check(const r1cs_t *cs, const pm_porep_shape *s, const fr_t *w, size_t n_w,
                         pm_error *err);

/* Check partition `partition` of c1 without any recorded matrices: synthesize with every linear
 * combination built and evaluated on the witness as it is enforced (PM_CS_CHECK; serial; 32 GiB:
 * the witness (4.2 GB) plus a few MB). *first_bad = first unsatisfied constraint (UINT64_MAX if
 * none), *n_bad = how many. PM_ERR_UNSATISFIED names constraint, challenge and gadget. */
pm_status pm_porep_check_streaming(uint64_t *first_bad, uint64_t *n_bad, const pm_porep_shape *s,
                                   const fil_c1_t *c1, uint32_t partition, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
