/*
 * cs.h — a constraint-system builder that records R1CS constraints and computes the witness in the
 * same pass, modelled on bellpepper-core's ConstraintSystem as bellperson's Groth16 prover and
 * generator drive it (bellpepper-core 0.2.1 src/constraint_system.rs, lc.rs; bellperson 0.27
 * src/groth16/prover/native.rs `synthesize_circuits_batch`, generator.rs; POREP.md §6.1, §7).
 *
 * Model.
 *  - Variables: Input(i) and Aux(j), numbered separately in allocation order. Input 0 is the
 *    constant ONE, allocated by pm_cs_init (as bellperson's prover/generator do before synthesis).
 *    A pm_var is a u32: bit 31 set = Input(low bits), clear = Aux(low bits).
 *  - A linear combination (pm_lc) is a list of (variable, coefficient) terms. Terms may be pushed
 *    in any order and repeated; when a constraint is recorded each LC is put in bellpepper's form:
 *    terms sorted (inputs first, then aux, each by index) with repeated variables merged by adding
 *    coefficients. Zero sums are kept, as bellpepper keeps them (they matter for nnz, not for
 *    satisfiability; the density bitmaps skip them as bellperson's prover does).
 *  - Constraint k: <A_k, z> * <B_k, z> = <C_k, z> with z = [inputs..., aux...].
 *  - pm_cs_finish returns the CSR form of r1cs.h (columns remapped to input i -> i, aux j ->
 *    n_inputs + j; rows = the circuit's constraints) and the witness vector [inputs ‖ aux].
 *    bellperson's prover and generator append one row per input (A = Input(i), B = C = 0) after
 *    `synthesize`; our Groth16 layer does the same for any r1cs_t (setup.h, prover_bellperson.h),
 *    so they are not stored here (rows for the QAP = n_constraints + n_inputs).
 *
 * Modes (flags of pm_cs_init), so one gadget code path serves three uses:
 *  - 0 (count only): counts constraints / inputs / aux; no LC is built, nothing is stored. Used
 *    for circuit-info on 32/64 GiB partitions (130 M constraints) in seconds and O(1) memory.
 *  - PM_CS_WITNESS: every allocated variable's value (Fr, Montgomery) is stored; no LC is built.
 *    This is the per-proof synthesis: witness only, then a = A·w etc. by SpMV over a recorded CSR.
 *  - PM_CS_RECORD: the constraints are stored (CSR rows growing as synthesis goes); alone, each
 *    Poseidon hash is replayed from one recording (pm_cs_replay) instead of synthesized.
 *  Both flags together: record and compute (tests check every constraint of a real witness).
 *  - PM_CS_STATS: every LC is built and canonicalised but not stored; nnz per matrix and
 *    bellperson's density bitmaps (a_aux, b_input, b_aux: variables with a non-zero coefficient)
 *    are accumulated, and the distinct coefficients are entered in cs->dict as recording would
 *    (cs->dict.n: the recorded dictionary's size) — the matrix facts of a 32 GiB partition
 *    without 26 GB of CSR.
 *  - PM_CS_CHECK (with PM_CS_WITNESS): every constraint is evaluated on the witness as it is
 *    enforced (LCs built, not stored); cs->first_bad = the first unsatisfied constraint (UINT64_MAX
 *    when none) — a 32 GiB partition's witness checked without its matrices.
 *  Gadgets branch only on which Booleans are constants (and their values), never on witness values,
 *  so all modes produce the same shape (bellpepper's rule, POREP.md §6.1).
 *
 * Errors: out-of-memory during synthesis is sticky (cs->oom); gadgets keep running without
 * storing, and pm_cs_finish reports PM_ERR_NOMEM. Nothing aborts.
 * Threads: a pm_cs is used by one thread at a time.
 */
#ifndef PROOFMILL_CIRCUITS_CS_H
#define PROOFMILL_CIRCUITS_CS_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "r1cs/r1cs.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t pm_var;
#define PM_VAR_INPUT 0x80000000u
#define PM_VAR_ONE PM_VAR_INPUT /* Input(0), the constant 1 */
static inline int pm_var_is_input(pm_var v) { return (v & PM_VAR_INPUT) != 0; }
static inline uint32_t pm_var_index(pm_var v) { return v & ~PM_VAR_INPUT; }

/* PM_CS_NO_REPLAY (with PM_CS_RECORD): every gadget synthesized, none replayed (pm_cs_replay) — the
 * same rows; for tests and benchmarks that compare the two. */
enum { PM_CS_RECORD = 1u, PM_CS_WITNESS = 2u, PM_CS_STATS = 4u, PM_CS_CHECK = 8u, PM_CS_NO_REPLAY = 16u };

typedef struct {
    pm_var var;
    fr_t coef; /* Montgomery */
} pm_term;

/* Growable term list. Start one with PM_LC_STACK (inline buffer; spills to the heap when full) or
 * zero-initialise it (heap from the first push). Never copy a pm_lc by value; pass pointers. */
typedef struct {
    pm_term *t;
    uint32_t n, cap;
    int heap; /* 1 when t was malloc'd and must be freed */
    int oom;  /* a push failed (the term was dropped) */
} pm_lc;

#define PM_LC_STACK(name, capacity)                                                              \
    pm_term name##_buf_[capacity];                                                                \
    pm_lc name = {name##_buf_, 0, (capacity), 0, 0}

void pm_lc_push(pm_lc *lc, pm_var v, const fr_t *coef);
/* lc += coef * other (term by term). */
void pm_lc_add_lc(pm_lc *lc, const pm_lc *other, const fr_t *coef);
/* Put lc into bellpepper's canonical form (sort inputs-then-aux by index, merge repeats). */
void pm_lc_canon(pm_lc *lc);
static inline void pm_lc_clear(pm_lc *lc) { lc->n = 0; }
void pm_lc_free(pm_lc *lc);

/* A CSR matrix under construction: rows appended one at a time; col holds raw pm_var, cidx the
 * coefficient's index in the system's dictionary (pm_cs_dict). */
typedef struct {
    uint64_t *row_ptr;
    uint32_t *col;
    uint32_t *cidx;
    uint64_t nnz, cap_nnz, cap_rows;
} pm_cs_rows;

/* The distinct coefficients of a recorded system (shared by A, B, C): an append-only table with
 * an open-addressing hash index. Entries 0 and 1 are 1 and -1. */
typedef struct {
    fr_t *tab;
    uint32_t n, cap;
    uint32_t *slot;    /* hash slots: index + 1, 0 = free */
    uint32_t n_slots;  /* power of two, kept at most half full */
} pm_cs_dict;

typedef struct pm_cs {
    unsigned flags;
    uint64_t n_constraints; /* recorded by the circuit (input constraints not included) */
    uint32_t n_inputs;      /* ONE included */
    uint64_t n_aux;
    fr_t *in_val, *aux_val; /* PM_CS_WITNESS: values (Montgomery) */
    uint64_t in_cap, aux_cap;
    pm_cs_rows A, B, C;     /* PM_CS_RECORD */
    pm_cs_dict dict;        /* PM_CS_RECORD, PM_CS_STATS: distinct coefficients */
    /* PM_CS_STATS (circuit constraints only; pm_cs_finish's input rows are not included) */
    uint64_t nnz[3];        /* terms of A, B, C after merging (zero coefficients included) */
    uint64_t nnz_nonzero[3];
    uint64_t *a_aux_density, *b_aux_density; /* bitmaps over aux (bit j = aux j) */
    uint64_t b_input_density[8];             /* bitmap over inputs (< 512) */
    uint64_t density_words;
    uint64_t first_bad, n_bad; /* PM_CS_CHECK */
    int shared;             /* pm_cs_init_shared: values go to the caller's arrays */
    uint32_t in_base;
    uint64_t aux_base;
    int oom;
    struct pm_cs_tpl *tpl;  /* PM_CS_RECORD: gadgets recorded once for replay (pm_cs_replay) */
} pm_cs;

/* Popcount of a density bitmap of nbits bits. */
uint64_t pm_bitmap_popcount(const uint64_t *bm, uint64_t nbits);

/* The matrix facts of a circuit as bellperson's generator and prover see them (rows of the circuit
 * only: bellperson's one row per input is not included; nnz with zero coefficients, as recorded;
 * density popcounts count non-zero coefficients only, as the density bitmaps do). */
typedef struct {
    uint64_t constraints;             /* circuit rows */
    uint64_t inputs;                  /* ONE included */
    uint64_t aux;
    uint64_t nnz[3];                  /* terms of A, B, C */
    uint64_t a_aux, b_input, b_aux;   /* density popcounts (pm_bitmap_popcount of the bitmaps) */
    uint64_t n_coef;                  /* distinct coefficients: the recorded dictionary's entries */
} pm_cs_facts;
/* The facts of cs, synthesized with PM_CS_STATS (b_input: exact for up to 512 inputs, the bitmap's
 * size; zero facts for another mode). */
void pm_cs_facts_of(pm_cs_facts *f, const pm_cs *cs);
/* The facts of a circuit made of n >= 1 equally shaped parts around a shared rest (PoSt sectors,
 * SnapDeals challenges) from those of the same circuit with one part (one) and with two (two):
 * every count is one + (n - 1) (two - one), so what the parts share (ONE, a global part, the
 * coefficients) is counted once. n = 1 gives one. */
void pm_cs_facts_extend(pm_cs_facts *f, const pm_cs_facts *one, const pm_cs_facts *two, uint64_t n);

/* LCs are built in RECORD, STATS and CHECK modes. */
static inline int pm_cs_recording(const pm_cs *cs) { return (cs->flags & (PM_CS_RECORD | PM_CS_STATS | PM_CS_CHECK)) != 0; }
static inline int pm_cs_witness(const pm_cs *cs) { return (cs->flags & PM_CS_WITNESS) != 0; }

/* Start an empty system with Input(0) = ONE (value 1). flags: PM_CS_RECORD | PM_CS_WITNESS or 0. */
void pm_cs_init(pm_cs *cs, unsigned flags);
void pm_cs_free(pm_cs *cs);
/* Witness-only system writing into caller-owned arrays: its k-th input is in_val[in_base + k] and
 * its k-th aux aux_val[aux_base + k] (variables carry these absolute indices, so values of
 * variables allocated by other systems sharing the arrays can be read). ONE is allocated only when
 * in_base == 0. The arrays must be large enough (no growth, no bounds check: the caller sized them
 * from a count-only synthesis). Used to synthesize independent parts (PoRep challenges) on several
 * threads into one witness vector. */
void pm_cs_init_shared(pm_cs *cs, fr_t *in_val, uint32_t in_base, fr_t *aux_val, uint64_t aux_base);

/* Record-only system (PM_CS_RECORD) for one part of a circuit whose variables are numbered from
 * in_base / aux_base, as serial recording would number them (its k-th input is Input(in_base + k),
 * its k-th aux Aux(aux_base + k)); ONE (Input(0)) is the whole system's, allocated here only when
 * in_base == 0. Its rows are numbered from 0: pm_cs_append_parts puts them after the parts before
 * it. Used to record independent, equally shaped parts (the sectors of a PoSt partition) on
 * several threads. */
void pm_cs_init_record_at(pm_cs *cs, uint32_t in_base, uint64_t aux_base);
/* dst += parts[0], ..., parts[n-1], in order: the system recording them one after the other in dst
 * would have built. Each part must have been started by pm_cs_init_record_at with the bases dst's
 * counts reach before it (PM_ERR_ARG otherwise); its rows are appended (OpenMP over the parts),
 * its variables counted, its coefficients entered in dst's dictionary in the part's first-
 * appearance order (so the dictionary's order is serial recording's). The parts' buffers are
 * freed (pm_cs_free is still required). Errors: PM_ERR_NOMEM (also a part out of memory),
 * PM_ERR_ARG; dst is then marked out of memory. */
pm_status pm_cs_append_parts(pm_cs *dst, pm_cs *parts, size_t n, pm_error *err);

/* New Aux / Input variable. v: its value (Montgomery), read only in PM_CS_WITNESS mode (may be
 * NULL otherwise; NULL in witness mode stores 0). */
pm_var pm_cs_alloc(pm_cs *cs, const fr_t *v);
pm_var pm_cs_alloc_input(pm_cs *cs, const fr_t *v);
/* New Aux holding 0 or 1 (no constraint). */
pm_var pm_cs_alloc_bit_value(pm_cs *cs, int bit);
/* Value of a variable (PM_CS_WITNESS only; FR zero otherwise). */
void pm_cs_value(fr_t *out, const pm_cs *cs, pm_var v);

/* Record <a,z>*<b,z> = <c,z>. The LCs are canonicalised in place (RECORD mode); in count/witness
 * mode they are ignored (callers skip building them: see pm_cs_recording). Any may be NULL (= 0). */
void pm_cs_enforce(pm_cs *cs, pm_lc *a, pm_lc *b, pm_lc *c);

/* Replay of a recorded gadget (record-only synthesis).
 * A gadget whose constraints depend only on constants and on which distinct variables it is given,
 * not on their indices nor on witness values (a Poseidon hash: its Num linear combinations carry
 * the MDS and round constants), is recorded the first time over stand-ins (Aux 0..n_in-1 of a
 * scratch system) and replayed afterwards: its n_aux new variables are numbered after cs's aux,
 * the stand-ins become in[0..n_in), and each row's terms keep bellpepper's canonical order (ONE,
 * then the inputs' terms re-sorted by index, then the new aux). The rows, their coefficients and
 * the dictionary's first-appearance order are those fn itself would record, without building one
 * linear combination (the work: one term copy each, no field multiplication).
 * key identifies fn's constants (the template is cached in cs under (fn, key)); fn(scratch, in,
 * ctx) runs the gadget and returns its output variable. Returns 1 with *out set when replayed; 0
 * (nothing recorded) when cs is in another mode than PM_CS_RECORD alone (PM_CS_NO_REPLAY among
 * them), when in[] repeats a variable or holds ONE, when n_in > PM_CS_REPLAY_MAX_IN, when fn
 * allocates an input, or when memory runs out building the template: the caller then runs the
 * gadget itself. */
#define PM_CS_REPLAY_MAX_IN 64u
typedef pm_var (*pm_cs_gadget_fn)(pm_cs *cs, const pm_var *in, const void *ctx);
int pm_cs_replay(pm_cs *cs, pm_var *out, pm_cs_gadget_fn fn, const void *key, const void *ctx, const pm_var *in,
                 unsigned n_in);

/* Finish: build the CSR system (RECORD; circuit rows only, see the file comment; NULL to skip) and
 * the witness [inputs ‖ aux] (WITNESS; *witness malloc'd, n = n_inputs + n_aux; NULL to skip).
 * out->n_pub_in = n_inputs - 1, n_prv_in = 0, n_wires = n_inputs + n_aux. The matrices are
 * dictionary-coded (r1cs.h): coef_idx per term into one table of distinct coefficients, owned by
 * *out (coef_tab_owned; entries 0 and 1 are 1 and -1).
 * Errors: PM_ERR_NOMEM (also when synthesis ran out of memory), PM_ERR_ARG when a mode needed
 * for a requested output was not set or sizes pass u32. On error nothing is returned (*out is
 * left empty). The builder's buffers are moved into *out; pm_cs_free is still required. */
pm_status pm_cs_finish(pm_cs *cs, r1cs_t *out, fr_t **witness, pm_error *err);

/* Powers of two 2^i (i < 256) and -1 in Montgomery form (table built on first use). */
const fr_t *pm_fr_pow2(unsigned i);
const fr_t *pm_fr_minus_one(void);

#ifdef __cplusplus
}
#endif
#endif
