/*
 * kind.h — a proof kind: everything proofmill must know about one kind of Groth16 proof job (a
 * snarkjs circuit's, Filecoin's PoRep C2, later WinningPoSt, WindowPoSt, SnapDeals) that is not
 * the proof system: how its inputs read, how many partitions a job has, which parameters prove it,
 * its recorded circuit, the witness and the public inputs of a partition, the name of a constraint.
 * The proof system (groth16/start.h), the driver over a job's partitions (prove/) and the engine's
 * one backend (engine/backend_kinds.c) are written once over this interface; the daemon and the
 * CLI route jobs by kind name (pm_kind_find), never by file name.
 *
 * A kind is one folder under src/kinds/ (snarkjs/, filecoin/porep_c2/, ...) whose .c fills one
 * const pm_kind and registers it with one line, the way CLI commands are registered (cli/cli.h):
 *     static const pm_kind porep_c2 = {.name = "porep-c2", ...};
 *     PM_KIND_REGISTER(porep_c2)
 * src/kinds/CMakeLists.txt compiles every .c below src/kinds into proofmill_kinds, which is linked
 * whole (every registration kept), so nothing else is edited to add a kind.
 *
 * Objects: a job (void *: the kind's parse of the job's inputs; open_job/close_job) and a key
 * identity (void *: what the kind reads from a key's path, e.g. the sector size of a Filecoin
 * parameter file; open_key/close_key) are the kind's own. Every function may run on any thread,
 * concurrently for distinct objects; a job and a key identity are read-only once opened.
 * Errors: a pm_status, with the pm_error naming the input (its path, or "inputs[k]" inline).
 */
#ifndef PROOFMILL_KINDS_KIND_H
#define PROOFMILL_KINDS_KIND_H

#include <stddef.h>
#include <stdint.h>

#include "circuits/cs.h"
#include "circuits/csr_file.h"
#include "field/fr.h"
#include "groth16/devplan.h"
#include "groth16/key.h"
#include "r1cs/r1cs.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One input of a job: a file on this machine, or the file's bytes inline (an HTTP body's base64, a
 * gRPC message's bytes), and which of the kind's inputs it is: name NULL (or the kind's
 * input_name) for its main input, which may come several times (snarkjs: one .wtns per
 * partition), or one of the kind's more_inputs (e.g. a PoSt's "randomness", "prover_id"), each at
 * most once. In a job spec the pointers are borrowed; the engine deep-copies them. */
typedef enum {
    PM_INPUT_PATH = 1,  /* path: NUL-terminated */
    PM_INPUT_BYTES = 2, /* bytes, len */
} pm_input_kind;

typedef struct {
    pm_input_kind kind;
    const char *path;
    const uint8_t *bytes;
    size_t len;
    const char *name;
} pm_input;

/* The name an input goes by in errors: its path, or "inputs[i]" (buf, cap bytes) when inline
 * ("inputs[i] (NAME)" for a further input). */
const char *pm_input_label(char *buf, size_t cap, const pm_input *in, size_t i);

/* What the key file's header says, read by the prove layer without decoding points (zkey_read_info
 * / params_read_counts), given to check_job. */
typedef struct {
    size_t n_vars;      /* witness length, ONE included */
    size_t n_public;    /* public inputs, ONE not counted */
    size_t domain;      /* N (snarkjs) or m (bellperson) */
} pm_key_shape;

/* A recorded circuit (bellperson kinds): the .csr file mapped, or the circuit recorded in memory. */
typedef struct {
    pm_csr_t file;
    r1cs_t mem;
    const r1cs_t *cs;   /* &file.cs or &mem */
    uint32_t n_inputs;  /* ONE included */
} pm_circuit;

typedef struct pm_kind pm_kind;
struct pm_kind {
    const char *name;              /* e.g. "porep-c2": the job spec's kind, the HTTP API's "kind" */
    const char *const *aliases;    /* other names it answers to (NULL-terminated; may be NULL) */
    const char *summary;           /* one line */
    groth16_convention conv;       /* the key format, H phase and proof encoding (groth16/key.h):
                                      snarkjs -> {"proof","public"} JSON, bellperson -> 192 bytes */
    const char *input_name;        /* what its main input is called in requests: "wtns" (snarkjs), "c1" */
    uint32_t max_inputs;           /* main inputs of one job at most (>= 1; at least one is needed) */
    const char *const *more_inputs; /* the names of further inputs, each given at most once, in
                                       requests as the main one (NULL-terminated; NULL = none) */
    const char *key_hint;          /* where keys come from, for "no key here" errors (may be NULL) */
    const char *default_priority;  /* the scheduling priority of its jobs when a request names none
                                      (engine.h's names: "low" .. "critical"; NULL = "normal"),
                                      e.g. "critical" for WinningPoSt; front ends apply it */

    /* Read the job's inputs: in[0..n_in) (path or bytes, borrowed for the call; their names checked
     * against input_name / more_inputs and counted already: pm_kind_open_job; the named ones
     * found with pm_input_find). *job owned by the
     * caller (close_job). Cheap enough for submit time: reads what the partition count needs
     * (a C1 is parsed whole, 0.1 s at 32 GiB; witnesses only later, per partition).
     * Errors: PM_ERR_ARG (input count), PM_ERR_IO, PM_ERR_FORMAT, ... naming the input. */
    pm_status (*open_job)(void **job, const pm_input *in, size_t n_in, pm_error *err);
    void (*close_job)(void *job);
    /* Partitions of the job (>= 1): one proof each. */
    uint32_t (*partitions)(const void *job);

    /* The key that proves job, from a parameter directory: out (cap bytes) = the path
     * (Filecoin: DIR/<stem>.params of the C1's sector size). NULL: jobs of this kind name their key
     * (a .zkey). Errors: PM_ERR_ARG (no key for this job's shape, path too long). */
    pm_status (*key_path)(char *out, size_t cap, const char *params_dir, const void *job, pm_error *err);
    /* The key of the kind's circuit of one size, without a job: out (cap bytes) = its path in
     * params_dir for size bytes (Filecoin kinds: the sector size, DIR/<stem>.params; what the gRPC
     * API's PreloadSRS / EvictSRS circuit ids such as "porep-32g" name). NULL: the kind's keys are
     * named by its jobs only. Errors: PM_ERR_ARG (no circuit of that size, path too long). */
    pm_status (*key_for_size)(char *out, size_t cap, const char *params_dir, uint64_t size, pm_error *err);
    /* The shape of the kind's key for sector size `size` as the device-memory planner sees it
     * (groth16/devplan.h: counts of every base set, domain, the recorded circuit's device bytes),
     * without any file: computed from the kind's own circuit code (a PM_CS_STATS synthesis:
     * kinds/shape.h pm_shape_of_facts), equal to the shape of the key our setup makes for it.
     * Costs what that synthesis costs (a 32 GiB PoRep partition: ~45 s on 2 cores; PoSt and
     * SnapDeals synthesize one and two sectors or challenges: milliseconds); marks its stage for
     * util/progress.h. facts (may be NULL) receives the circuit's matrix facts (circuits/cs.h).
     * NULL: the kind's keys have no size (snarkjs). Errors: PM_ERR_ARG (no circuit of that size),
     * PM_ERR_NOMEM. */
    pm_status (*shape_for_size)(groth16_devplan_shape *s, pm_cs_facts *facts, uint64_t size, pm_error *err);
    /* The key's identity from its path (e.g. the sector size of a Filecoin parameter file name):
     * *id owned by the caller (close_key). NULL: the kind needs none (*id = NULL).
     * Errors: PM_ERR_ARG (not a key of this kind). */
    pm_status (*open_key)(void **id, const char *key_path, pm_error *err);
    void (*close_key)(void *id);
    /* Check job against the key (cheap: headers, sizes) before anything is queued or loaded:
     * the key's shape, sector sizes, the inputs' own headers. Errors: PM_ERR_MISMATCH naming both,
     * PM_ERR_IO / PM_ERR_FORMAT of an input, PM_ERR_CURVE. */
    pm_status (*check_job)(const void *id, const char *key_path, const pm_key_shape *shape, const void *job,
                           pm_error *err);

    /* Bellperson kinds: the recorded circuit of the key (its rows; the input rows are the proof
     * system's), loaded from csr_path when given, else from the kind's place for it beside the key
     * (Filecoin: DIR/<stem>.csr) when present, else recorded in memory (pm_circuit_load_or_record).
     * With c = NULL only *bytes is set: the resident size it will take (the file's size, or an
     * estimate of the recording), for the memory budget. NULL for snarkjs kinds (the zkey holds
     * its matrices). Errors: PM_ERR_IO, PM_ERR_FORMAT, PM_ERR_MISMATCH (a .csr of another shape). */
    pm_status (*circuit)(pm_circuit *c, uint64_t *bytes, const void *id, const char *key_path, const char *csr_path,
                         pm_error *err);

    /* The witness of partition part (< partitions): *w malloc'd (32-byte aligned is fine: freed
     * with free), *n_w values, Montgomery, w[0] = 1, the public inputs at w[1..]. threads: the
     * synthesis's OpenMP threads (0 = the default team). Errors: PM_ERR_MISMATCH, PM_ERR_ENCODING,
     * PM_ERR_NOMEM, an input's read errors. */
    pm_status (*witness)(fr_t **w, size_t *n_w, const void *id, const void *job, uint32_t part, unsigned threads,
                         pm_error *err);
    /* The public inputs of partition part as a verifier derives them (ONE excluded, x[0..n_x),
     * Montgomery), and the check that the witness w[1..] carries exactly them (PM_ERR_MISMATCH
     * naming the partition and the input). NULL: a kind whose public inputs are the witness's own
     * (snarkjs: x = w[1..n_x]). */
    pm_status (*public_inputs)(fr_t *x, size_t n_x, const void *id, const void *job, uint32_t part, const fr_t *w,
                               size_t n_w, pm_error *err);
    /* After PM_ERR_UNSATISFIED at constraint row (of n_rows): set err (PM_ERR_UNSATISFIED) naming
     * where the row lies in the circuit (Filecoin: challenge and gadget). NULL: the prover's
     * "constraint k of n not satisfied" stays. */
    void (*name_row)(pm_error *err, const void *id, uint32_t row, uint32_t n_rows);
};

/* The largest main input (a vanilla proof, a C1: a 32 GiB PoRep C1 is about 50 MB) the Filecoin
 * kinds read, bytes; larger ones are refused (PM_ERR_ARG / PM_ERR_FORMAT). Front ends refuse a
 * larger inline input before spooling or queueing it (the gRPC API: daemon/grpc_server.h). */
#define PM_KIND_MAX_VANILLA_BYTES ((uint64_t)64 << 20)

/* Registration (constructor time only; not thread-safe): kinds are kept sorted by name. */
typedef struct pm_kind_entry {
    const pm_kind *kind;
    struct pm_kind_entry *next;
} pm_kind_entry;
void pm_kind_register(pm_kind_entry *e);
#define PM_KIND_REGISTER(var)                                                        \
    static pm_kind_entry pm_kind_entry_##var = {&var, 0};                            \
    __attribute__((constructor)) static void pm_kind_register_##var(void) {          \
        pm_kind_register(&pm_kind_entry_##var);                                      \
    }

/* The kind called name (or one of its aliases); NULL when none. */
const pm_kind *pm_kind_find(const char *name);
/* The registered kinds in name order: out[0..min(n, cap)), returns n. */
size_t pm_kind_list(const pm_kind **out, size_t cap);
/* "a, b (alias b1, b2), c": the names of every kind, for messages (buf, cap bytes). */
const char *pm_kind_names(char *buf, size_t cap);
/* The kind with an input called name (input_name or one of more_inputs; the daemon refuses another
 * kind's input field); NULL. */
const pm_kind *pm_kind_by_input_name(const char *name);
/* Whether k takes an input called name: 1 its main input (also name NULL), 2 one of more_inputs,
 * 0 none. */
int pm_kind_input_role(const pm_kind *k, const char *name);
/* Check in[0..n) against k: every name one of k's, 1..max_inputs main inputs, each further input
 * at most once. Errors: PM_ERR_ARG naming the input. */
pm_status pm_kind_check_inputs(const pm_kind *k, const pm_input *in, size_t n, pm_error *err);
/* kind->open_job after pm_kind_check_inputs: how every caller opens a job. */
pm_status pm_kind_open_job(const pm_kind *k, void **job, const pm_input *in, size_t n, pm_error *err);
/* The input called name among in[0..n) (a further input), or NULL when not given. */
const pm_input *pm_input_find(const pm_input *in, size_t n, const char *name);
/* A further input that holds one number: *v = the decimal text of in (inline bytes, or the file at
 * its path; at most 20 digits, surrounding white space allowed), named label in errors. Front ends
 * give request fields that are numbers this way (the gRPC API: registered_proof, sector_size,
 * miner_id, ...: daemon/grpc_glue.h). Errors: PM_ERR_FORMAT (not a decimal number < 2^64, naming
 * label), PM_ERR_IO (the file). */
pm_status pm_input_u64(uint64_t *v, const pm_input *in, const char *label, pm_error *err);

/* key_path with its ".params" replaced by ext (e.g. ".vk", ".csr": the files beside a bellperson
 * key) into out[cap]; 0, or -1 when key_path does not end in ".params" or out is too small. */
int pm_key_path_beside(char *out, size_t cap, const char *key_path, const char *ext);

/* ---- recorded circuits (every bellperson kind) ---- */
/* The circuit at path when it is readable there (mapped; pm_csr_expect against tag, n_wires and
 * n_inputs, so a .csr of another shape is refused naming the file), else recorded by
 * record(&c->mem, &n_inputs, ctx). required = 1: path must exist (an explicit --csr).
 * Errors: the .csr reader's, PM_ERR_MISMATCH, the recorder's. On error *c is zeroed. */
pm_status pm_circuit_load_or_record(pm_circuit *c, const char *path, int required, uint64_t tag, size_t n_wires,
                                    uint32_t n_inputs,
                                    pm_status (*record)(r1cs_t *out, uint32_t *n_inputs, const void *ctx, pm_error *err),
                                    const void *ctx, pm_error *err);
/* Bytes c holds (mapping, or the recorded matrices), for the memory budget. */
uint64_t pm_circuit_resident_bytes(const pm_circuit *c);
/* What pm_circuit_resident_bytes will say of a circuit of n_rows rows and nnz[0..2] terms of A, B,
 * C once recorded in memory (8 bytes a term, 24 a row, the row pointers' closing entries), plus
 * PM_CIRCUIT_COEF_ALLOWANCE for its table of distinct coefficients, which only the recording knows
 * (1,526 of them, 49 KB, in a 2 KiB PoRep partition; 2,466 at 32 GiB): an upper bound by that table,
 * for a kind's circuit estimate without a .csr (its counts from a PM_CS_STATS synthesis). */
#define PM_CIRCUIT_COEF_ALLOWANCE ((uint64_t)1 << 20)
uint64_t pm_circuit_recorded_bytes(uint64_t n_rows, const uint64_t nnz[3]);
void pm_circuit_free(pm_circuit *c);

#ifdef __cplusplus
}
#endif
#endif
