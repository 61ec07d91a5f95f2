/*
 * prove.h — the kind-agnostic prover of jobs: a job of any proof kind (kinds/kind.h), its key
 * loaded once, each partition through the same stages, written once for every kind and used by
 * the CLI (pm_prove_job: all partitions of one job, proved and verified) and by the engine's one
 * backend (engine/backend_kinds.c: the same stages on its pools).
 *
 * Per partition (the stages the engine runs on different threads):
 *   pm_prove_synthesize   the kind's witness, the public inputs as a verifier derives them (checked
 *                         against the witness), then the start phase's eval (SpMV / a, b on the
 *                         domain, every constraint of a bellperson circuit checked: a failing one is
 *                         named by the kind) when the table has no device eval      (CPU pool)
 *   pm_prove_start        the rest of the start phase: H and the four G1 MSMs, on the table's
 *                         device                                                     (GPU worker)
 *   pm_prove_finalize     the G2 MSM and the assembly with r, s                      (finalizer)
 *   pm_prove_verify       the proof against the verifying key and the public inputs  (assembler)
 * and pm_prove_proof_json / pm_prove_proof_bytes give it in the kind's form (snarkjs
 * {"proof","public"}; bellperson {"partition": k, "proof": hex} and the 192 bytes).
 *
 * Memory (pm_prove_plan_job, upper bounds in bytes, the engine's budget; by key convention):
 *   snarkjs    key: decoded points + section 4 as CSR + the NTT domain (zkey_resident_bytes +
 *              2 N fr); transient while loading: the file; a partition from synthesis to start:
 *              the witness and its plain copy (2 n_vars fr) + 3 N fr + the largest G1 MSM scratch
 *              + 1 MiB; from start to finalize: the plain witness + the G2 MSM scratch + 1/4 MiB.
 *   bellperson key: the G1 points (n_ic + n_h + n_l + n_a + n_b_g1) and G2 points (n_b_g2), the
 *              recorded circuit (the .csr's size; an in-memory recording is estimated at the
 *              .params file's size), density marks (2 n_w) and, unless a device table's plan keeps
 *              H on the card, the CPU NTT domain (2 m fr: built on the first CPU H); transient:
 *              the file; a partition: witness 32 n_w, a, b, c and H work (4·32·m), the plain and
 *              compacted A/B scalars (3·32 n_w at most), + 64 MiB of MSM scratch; pending: the B
 *              query's scalars 32 n_b_g2 + 1 MiB. With a table that evaluates and keeps the witness
 *              on its device (GROTH16_OPS_DEVICE_WITNESS_BELLPERSON + eval_bellperson: the CUDA
 *              table) a partition holds only the witness and public inputs (32 (n_w + n_ic) +
 *              1 MiB), pending the public inputs (+ 1 MiB), and the key adds the device key's two
 *              pinned witness staging slots (2·32 n_w). Device memory is not in these numbers (the
 *              device key's plan, groth16/start_gpu.c, sizes it against the card).
 */
#ifndef PROOFMILL_PROVE_PROVE_H
#define PROOFMILL_PROVE_PROVE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "groth16/devplan.h"
#include "groth16/key.h"
#include "groth16/params.h"
#include "groth16/proof.h"
#include "groth16/start.h"
#include "groth16/zkey.h"
#include "kinds/kind.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a job needs, before anything is loaded (the engine's job plan). */
typedef struct {
    uint32_t n_partitions;
    uint64_t part_peak_bytes;    /* one partition, synthesis until start returns */
    uint64_t part_pending_bytes; /* one partition, start until finalize returns */
    uint64_t key_bytes;          /* the loaded key, resident */
    uint64_t key_load_bytes;     /* extra, only while it loads */
    char key_path[4096];         /* the key: the one given, or the kind's from the parameter directory */
    int have_devplan;            /* a GPU job planned for a card (pm_prove_plan_job_on): its plan */
    groth16_devplan devplan;
} pm_prove_plan;

/* Plan a job of kind on inputs in[0..n_in) (borrowed): the kind reads the job, the key is the given
 * key_path or, when NULL, the kind's key in params_dir; the key file's header (not its points) is
 * read and the job checked against it; sizes as in the file comment for the start phase's table ops
 * (NULL = the CPU table), start_threads MSM threads and finalize_threads G2 threads. n_in = 0: the key alone (n_partitions 0; for a preload).
 * Errors: PM_ERR_ARG (no key and no params_dir, a kind that cannot name its key, a key path not of
 * this kind), PM_ERR_IO (a missing key names it, with the kind's hint), the kind's and the
 * header readers' errors. */
pm_status pm_prove_plan_job(pm_prove_plan *plan, const pm_kind *kind, const char *key_path, const char *params_dir,
                            const pm_input *in, size_t n_in, const groth16_ops *ops, unsigned start_threads,
                            unsigned finalize_threads, pm_error *err);

/* The bellperson sizes of the file comment from a .params file's counts (params_read_counts) and
 * the recorded circuit's host bytes, for the start phase's table ops (NULL = the CPU table): sets
 * key_bytes, key_load_bytes, part_peak_bytes, part_pending_bytes of *plan (nothing else). */
void pm_prove_plan_bellperson_sizes(pm_prove_plan *plan, const bp_params_counts_t *c, uint64_t circuit_bytes,
                                    const groth16_ops *ops);
/* The same under device-memory plan dp (NULL: every operation of a device table on its device): a
 * plan that moves the SpMV to the CPU adds its pinned a, b, c pool to the key (dp->host_abc_buffers
 * buffers of a, b, c), one witness slot halves the pinned staging. */
void pm_prove_plan_bellperson_sizes_on(pm_prove_plan *plan, const bp_params_counts_t *c, uint64_t circuit_bytes,
                                       const groth16_ops *ops, const groth16_devplan *dp);
/* pm_prove_plan_job for the card a GPU job would run on (card: the engine's smallest, NULL = no
 * plan): a bellperson key gets its device-memory plan (plan->devplan), and a card too small for it
 * is refused here (PM_ERR_NOMEM naming the key file and the smallest card that would do). */
pm_status pm_prove_plan_job_on(pm_prove_plan *plan, const pm_kind *kind, const char *key_path, const char *params_dir,
                               const pm_input *in, size_t n_in, const groth16_ops *ops,
                               const groth16_devplan_card *card, unsigned start_threads, unsigned finalize_threads,
                               pm_error *err);
/* The planner's shape of a bellperson key from its .params counts and circuit bytes. */
void pm_prove_devplan_shape_of_counts(groth16_devplan_shape *s, const bp_params_counts_t *c, uint64_t circuit_bytes);

/* A key of a kind, loaded. */
typedef struct {
    const pm_kind *kind;
    char path[4096];
    void *id;              /* the kind's key identity (open_key), or NULL */
    zkey_t zk;             /* snarkjs keys */
    bp_params_t bp;        /* bellperson keys */
    pm_circuit circ;       /* bellperson keys: the recorded circuit */
    groth16_key view;      /* the start phase's view (and its device copies) */
    groth16_vk_t vk;       /* the verifying key: snarkjs the zkey's (ic borrowed); bellperson
                              <key>.vk beside a .params when present, else the parameters' own */
    int own_vk;
    uint64_t resident_bytes; /* host bytes now (read with __atomic_load_n while starts run): smaller
                                while the host bases are released; the view's CPU NTT domain is not
                                in it (pm_prove_key_host_bytes adds it) */
    /* bellperson keys: the host copy of the G1 / G2 bases released once they are resident on every
     * device that proves with the key (pm_prove_key_release_host_bases), re-read from the .params
     * when a start needs them again (pm_prove_key_host_bases); mu guards both */
    pthread_mutex_t mu;
    int bases_released;
    uint64_t bases_bytes; /* host bytes of those bases */
    /* the key's device-memory plan for the engine's smallest card (pm_prove_key_plan): one tier for
     * every device, so the synthesis pool knows what it computes on the CPU */
    int have_devplan;
    groth16_devplan devplan;
    groth16_devplan_shape devplan_shape;
    /* the pinned a, b, c pool of a plan that runs the SpMV on the CPU (devplan.host_abc_buffers
     * buffers, pinned by the GPU table's host_alloc where the build has one): the CPU eval takes a
     * buffer, the H phase gives it back (start.h groth16_abc_pool). pm_prove_key_host_bytes charges
     * all of them from the plan on, so the engine's budget holds them whatever the mix of jobs. */
    int have_abc_pool;
    groth16_abc_pool abc_pool;
} pm_prove_key;
/* Plan k for card (NULL: none; a CPU engine), and set up its a, b, c pool when the plan runs the
 * SpMV on the CPU. Call it once per key, before any start. Errors: PM_ERR_NOMEM when the card is
 * too small for the key (the message names the key file and the smallest card that would do). */
pm_status pm_prove_key_plan(pm_prove_key *k, const groth16_devplan_card *card, pm_error *err);
/* x->plan, x->cpu_ops and x->abc_pool from k's plan (none: the table's operations run where it
 * has them). */
void pm_prove_exec_plan(groth16_exec *x, const pm_prove_key *k);
/* Wake every start waiting for a buffer of k's a, b, c pool with PM_ERR_CANCELLED, and refuse
 * later ones (an engine shutting down joins its threads after this). NULL-safe; no-op without a pool. */
void pm_prove_key_close_pool(pm_prove_key *k);

/* Release the host copy of a bellperson key's bases (h, l, a, b_g1, b_g2 of the parameters; the vk
 * and IC stay) when groth16_key_bases_resident(&k->view, devices, n_devices): every device that uses
 * the key holds them resident, so the GPU table's starts there read only the device copies.
 * resident_bytes drops by bases_bytes (at 32 GiB ~51 GB). The view's base pointers become NULL
 * while released: a start on a table that reads them (the CPU's, another device, a streamed copy)
 * must call pm_prove_key_host_bases first (pm_prove_start does). Returns 1 when released by this
 * call, 0 otherwise (not bellperson, not resident everywhere, already released). Thread-safe. */
int pm_prove_key_release_host_bases(pm_prove_key *k, const int *devices, size_t n_devices);
/* The host bases back (re-read from the key's .params, the counts checked against the key: the
 * file changed since the load is PM_ERR_MISMATCH), when released; a no-op otherwise. Thread-safe;
 * resident_bytes restored. Errors: params_read's, PM_ERR_MISMATCH. */
pm_status pm_prove_key_host_bases(pm_prove_key *k, pm_error *err);
/* 1 when a start of a key of k's view on x reads the host bases (the CPU table, a table without
 * device MSMs, a device without a resident copy of every base set). */
int pm_prove_exec_reads_host_bases(const groth16_exec *x, const groth16_key *k);
/* Host bytes of the key now: resident_bytes + what its device copies hold on the host (pinned
 * staging) + the view's CPU NTT domain: once built, or ahead of its build unless the key's device
 * plan keeps H on the card (bellperson keys build it on the first CPU H: groth16_key_domain). For
 * memory budgets (the engine's backend key_bytes). */
uint64_t pm_prove_key_host_bytes(const pm_prove_key *k);

/* Load the key at key_path for kind (csr_path: an explicit recorded circuit for bellperson kinds,
 * or NULL for the kind's own place). *out owned by the caller (pm_prove_key_free). Errors: the
 * readers' (PM_ERR_IO, PM_ERR_FORMAT, ...), PM_ERR_MISMATCH (parameters vs circuit), PM_ERR_NOMEM. */
pm_status pm_prove_key_load(pm_prove_key **out, const pm_kind *kind, const char *key_path, const char *csr_path,
                            pm_error *err);
void pm_prove_key_free(pm_prove_key *k);

/* One partition between the stages. */
typedef struct {
    uint32_t part;
    const pm_prove_key *key;
    groth16_pending_t pd;
    fr_t *x;          /* the public inputs (ONE excluded), n_x, Montgomery */
    size_t n_x;
    char label[512];  /* names the partition's input in errors */
    fr_t *w;          /* the witness, kept only when the table evaluates or stages it (its device copy) */
    size_t n_w;
    double t_witness, t_check, t_prove; /* seconds: the kind's witness, public inputs, start phase */
} pm_prove_part;

/* Synthesis of partition part of job (opened by k->kind on in[0..n_in), which must outlive it):
 * see the file comment. x: where the start runs (its eval here when the table has none of its own;
 * NULL = the CPU table); witness_threads for the kind. *out owned by the caller.
 * Errors: the kind's, PM_ERR_MISMATCH, PM_ERR_UNSATISFIED ("partition k: constraint ... (kind's
 * name of the row)", file = the input), PM_ERR_NOMEM. */
pm_status pm_prove_synthesize(pm_prove_part **out, const pm_prove_key *k, const void *job, const pm_input *in,
                              size_t n_in, uint32_t part, const groth16_exec *x, unsigned witness_threads,
                              pm_error *err);
/* The table's stage (e.g. the witness upload to the device queued), for a pipeline to run BEFORE it
 * enters the device's kernel region (the CUDA table's holds one of two witness slots of the device
 * key from here until pm_prove_start returns, so at most two staged partitions per key and device);
 * pm_prove_start runs it when it was not. A no-op for a table without stage. On error pp is freed. */
pm_status pm_prove_stage(pm_prove_part *pp, const groth16_exec *x, pm_error *err);
/* The rest of the start phase on x: the stage if not done, the table's own eval, H, the G1 MSMs
 * and (where the table has it) the G2 MSM. On error pp is freed. Under x->defer_free the host
 * buffers it is done with (the witness, a, b, c) wait on pp until pm_prove_finalize or
 * pm_prove_part_free frees them (the engine's finalizer, off its kernel region). */
pm_status pm_prove_start(pm_prove_part *pp, const groth16_exec *x, pm_error *err);
void pm_prove_part_free(pm_prove_part *pp);

/* One partition's proof. */
typedef struct {
    uint32_t part;
    const pm_prove_key *key;
    groth16_proof_t proof;
    fr_t *x;
    size_t n_x;
    double t_witness, t_check, t_prove; /* seconds, from the partition's stages */
} pm_prove_proof;

/* The assembly of pp (consumed, also on error) with r, s (Montgomery) and threads G2 MSM threads
 * (0 = all cores); snarkjs keys verify it against the zkey's key here already (an unsatisfying
 * witness is PM_ERR_UNSATISFIED). *out owned by the caller (pm_prove_proof_free). */
pm_status pm_prove_finalize(pm_prove_proof **out, pm_prove_part *pp, const fr_t *r, const fr_t *s, unsigned threads,
                            pm_error *err);
/* Verify with the key's verifying key and the derived public inputs: PM_OK when valid, else
 * PM_ERR_INTERNAL "partition k: the proof does not verify ..." (a proof made here that fails is an
 * engine error) or the verifier's error. */
pm_status pm_prove_verify(const pm_prove_proof *p, pm_error *err);
/* The proof in the kind's JSON form (malloc'd; NULL when out of memory): snarkjs {"proof":
 * <proof.json>, "public": <public.json>}; bellperson {"partition": k, "proof": "<384 hex digits>"}. */
char *pm_prove_proof_json(const pm_prove_proof *p);
/* The 192 bytes (bellperson compressed A ‖ B ‖ C, groth16/proof_bytes.h). */
void pm_prove_proof_bytes(uint8_t out[192], const pm_prove_proof *p);
void pm_prove_proof_free(pm_prove_proof *p);

/* The blinding of a job's proofs. */
typedef struct {
    const uint64_t *seed;          /* TESTS ONLY (not zero-knowledge): groth16_seeded_scalars(*seed +
                                      partition) */
    const fr_t *fixed_r, *fixed_s; /* TESTS ONLY: these r, s (Montgomery) for every partition */
} pm_prove_blinding;
/* r, s of partition part: fresh random (getrandom) unless b says otherwise. Errors: PM_ERR_IO. */
pm_status pm_prove_blinding_draw(fr_t *r, fr_t *s, const pm_prove_blinding *b, uint32_t part, pm_error *err);

/* ---- the driver: every partition of one job, in order ---- */
typedef struct {
    const groth16_exec *exec;     /* where the start runs; NULL = the CPU table, all cores */
    unsigned finalize_threads;    /* G2 MSM threads (0 = all cores) */
    unsigned witness_threads;     /* the kind's synthesis threads (0 = the default team) */
    pm_prove_blinding blinding;
    const uint32_t *only_partition; /* non-NULL: prove and verify just this partition (*n = 1; its
                                       r, s as when the whole job is proved); PM_ERR_ARG when the
                                       job has no such partition */
} pm_prove_opts;

typedef struct {
    double witness, check, prove, verify; /* seconds, summed over partitions: the kind's witness,
                                            the public inputs, the start phase + assembly, the check */
} pm_prove_timings;

/* Prove and verify every partition of job (opened by k->kind on in[0..n_in)), or only
 * o->only_partition's: *proofs = n partition proofs in order (caller frees each with pm_prove_proof_free, then the array), or
 * nothing on error (the first partition's error; no proof of a job is returned unless all verify).
 * tm may be NULL. */
pm_status pm_prove_job(pm_prove_proof ***proofs, uint32_t *n, const pm_prove_key *k, const void *job,
                       const pm_input *in, size_t n_in, const pm_prove_opts *o, pm_prove_timings *tm, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
