/*
 * start.h — THE Groth16 start phase (witness -> a, b, c -> H -> the four G1 MSMs, and the G2 MSM
 * where the table has it) and THE assembly (the CPU G2 MSM when the table has none, blinding, A, B,
 * C), written once for both key conventions (key.h) over a small table of operations that says where
 * each step runs:
 *
 *   stage          put the witness where the table's operations read it (e.g. an asynchronous copy
 *                  into a device witness slot), before or inside the caller's kernel region (the
 *                  CUDA table's takes one of its device key's witness slots (one or two, by its
 *                  plan), waiting while all are held, until start_finish has run the MSMs that
 *                  read the witness)
 *   eval_snarkjs   a = A·w, b = B·w from zkey section 4 on the N-domain
 *   eval_bellperson a, b, c = A·w, B·w, C·w on the circuit rows (SpMV), every row checked
 *   h_snarkjs      the snarkjs H phase: P on the odd 2N coset                          (6 NTTs)
 *   h_bellperson   bellperson's H: iNTT, coset NTT (g = 7), (ab − c)/Z, coset iNTT     (6 NTTs)
 *   msm_g1         one G1 MSM against one of the key's four bases
 *   msm_g2         the G2 MSM against the B query (NULL: the assembly runs the CPU one)
 * (what stage / eval hold for a handle, e.g. its device witness slot, is given back through the
 * handle's dev_release, set by the table)
 *
 * groth16_ops_cpu runs every step on the CPU (msm/, ntt/, r1cs/) and leaves msm_g2 to the assembly.
 * The GPU table (groth16_ops_gpu, start_gpu.c, built with CUDA) fills the steps gpu/ has kernels for
 * and leaves the others NULL: a NULL entry means "the CPU table's entry", per operation (msm_g2:
 * "in the assembly", stage: "nothing to do"). A table with GROTH16_OPS_DEVICE_WITNESS_*
 * takes every witness scalar of msm_g1 (A, B1, C) and msm_g2 from the copy it staged, so the start
 * phase makes no host copies of the witness (plain values, compacted A/B scalars) for it. Adding a
 * GPU operation = writing one function in start_gpu.c and setting it in the table; nothing here
 * changes. Proofs are bit-identical whatever runs where (every step is exact arithmetic on the same
 * inputs; affine points are unique).
 *
 * Use (errors elided):
 *     groth16_key k;  groth16_key_from_zkey(&k, &zk, NULL, 1, &err);   // or _from_params
 *     groth16_exec x = {.ops = &groth16_ops_cpu, .threads = 2};          // or the GPU table, .device
 *     groth16_pending_t p;
 *     groth16_start(&p, &k, w, n, &x, &opts, &err);  // = pending_init_key + stage + eval + finish
 *     groth16_finalize(&proof, &p, &r, &s, &err);     // (CPU G2 MSM), assembly, optional self-check
 *     groth16_pending_free(&p);  groth16_key_free(&k);
 * A pipeline may run the parts of groth16_start on different threads (the engine evaluates in its
 * synthesis pool when the table has no eval of its own, stages in the GPU worker before it enters
 * the device's kernel region and runs eval + start_finish inside it).
 *
 * Memory (CPU table): start needs 3 · domain fr_t (a | b | c) and the largest G1 MSM's scratch
 * (groth16_key_start_scratch_size), caller-owned when given (opts.scratch) or allocated inside and
 * freed when start_finish returns; the handle keeps the plain witness (n_vars fr_t) and, for
 * bellperson, the compacted A and B scalars, until groth16_pending_free. With a
 * GROTH16_OPS_DEVICE_WITNESS_* table the handle keeps only the public inputs; the table's device
 * memory is its own (start_gpu.c).
 * Threads: the CPU MSMs use x->threads POSIX threads (0 = all cores); SpMV and NTTs the OpenMP team.
 */
#ifndef PROOFMILL_GROTH16_START_H
#define PROOFMILL_GROTH16_START_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "curve/g1.h"
#include "field/fr.h"
#include "groth16/devplan.h"
#include "groth16/key.h"
#include "groth16/proof.h"
#include "r1cs/r1cs.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Seconds spent per stage (wall clock, util/clock.h). Zero for stages not run. */
typedef struct {
    double check;      /* witness checks (+ the optional r1cs constraint check, snarkjs) */
    double stage;      /* the table's stage (e.g. the witness into pinned memory and its upload queued) */
    double eval_ab;    /* eval: a, b (and c) on the domain (snarkjs section 4; bellperson SpMV + row check) */
    double h;          /* the H phase */
    double msm_a;      /* G1 MSM over the A base */
    double msm_b1;     /* G1 MSM over the B1 base */
    double msm_c;      /* G1 MSM over C (snarkjs section 8) / L (bellperson) */
    double msm_h;      /* G1 MSM over H */
    double msm_b2;     /* G2 MSM over B2 — in start (a table's msm_g2) or in finalize */
    double assemble;   /* r/s terms, additions, normalisation to affine — in finalize */
    double self_check; /* pairing check of the result — in finalize */
} groth16_timings_t;

/* Options of a start; a zeroed struct is the default. */
typedef struct {
    unsigned threads;              /* MSM threads (convenience wrappers of prover.h; groth16_start
                                      takes them from groth16_exec) */
    const r1cs_t *r1cs;            /* snarkjs: optional circuit, cross-checked with the zkey and every
                                      constraint checked before any heavy work */
    const ntt_domain_t *domain;    /* snarkjs wrappers (prover.h): a cached domain of size N
                                      (NTT_ROOTS_SNARKJS); NULL = built and freed inside */
    int skip_self_check;           /* 1: finalize does not verify its result (callers that verify
                                      it themselves, benchmarks of a known-good witness) */
    const char *wtns_name;         /* names the witness in errors ("witness" when NULL) */
    const char *r1cs_name;         /* names the r1cs in errors ("r1cs" when NULL) */
    const char *key_name;          /* names the key file when its proof fails the self-check
                                      ("key" when NULL; groth16/key_check.h) */
    void *scratch;                 /* optional caller-owned work space of at least
                                      groth16_key_start_scratch_size bytes, 8-byte aligned */
    size_t scratch_size;           /* bytes at scratch */
} groth16_prove_opts_t;

/* ---- the pinned a, b, c pool ----
 * Where a device-memory plan runs the SpMV on the CPU (devplan.h tiers 2-5: GROTH16_CPU_EVAL), each
 * partition's a | b | c (3 · domain fr_t: 12.9 GB at 2^27) is made on the host and uploaded for the
 * H phase. From malloc'd pages that upload goes through the driver's or our staging at ~13 GB/s
 * (~1 s per 32 GiB partition, inside the kernel region) and every partition faults its 12.9 GB in
 * again. The pool keeps at most `cap` buffers, pinned once (alloc: the GPU table's host_alloc,
 * gpu_host_alloc_pieces: ~0.5 s per GiB, in pieces, on the synthesis thread that first needs one)
 * and reused: the upload then runs at the bus's pinned rate (~44-50 GB/s). A buffer is taken by the
 * CPU eval (groth16_pending_work) and given back as soon as the H phase has read it (start_finish),
 * so cap = the partitions that can be between the two at once (the cards' GPU workers). take waits
 * while all cap buffers are in use; that bounds the host memory of a, b, c by cap buffers whatever
 * the engine's window, and the engine charges them with the key (prove.h). A buffer the driver
 * refuses to pin is malloc'd instead (counted the same; uploaded at the staged rate), and the first
 * such refusal of a pool is said once on stderr with the driver's reason. Thread-safe. */
#define GROTH16_ABC_POOL_MAX 64
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t bytes;                /* each buffer (3 · domain · 32) */
    unsigned cap;                /* buffers at most, 1..GROTH16_ABC_POOL_MAX */
    unsigned n;                  /* buffers made (held) */
    void *buf[GROTH16_ABC_POOL_MAX];
    unsigned char busy[GROTH16_ABC_POOL_MAX], pinned[GROTH16_ABC_POOL_MAX];
    pm_status (*alloc)(void **out, size_t bytes, int device, pm_error *err); /* pinned (NULL: malloc only) */
    int device;                  /* the card alloc makes current first (the engine's first; pinned
                                    memory is portable, but pinning creates the context of the current
                                    card, which must be one the process may use) */
    void (*release)(void *p, size_t bytes);                      /* alloc's free */
    int closed;                  /* groth16_abc_pool_close: takes fail instead of waiting */
    int warned;                  /* a refused pinning was reported on stderr (once per pool) */
    uint64_t takes, waits;       /* statistics: takes, and takes that waited for a buffer */
    double wait_s;               /* seconds spent waiting */
} groth16_abc_pool;

/* Set up an empty pool of at most cap (clamped to 1..GROTH16_ABC_POOL_MAX) buffers of `bytes`;
 * alloc/release pin and unpin (NULL: plain malloc/free). Nothing is allocated here. */
void groth16_abc_pool_init(groth16_abc_pool *pool, size_t bytes, unsigned cap,
                           pm_status (*alloc)(void **out, size_t bytes, int device, pm_error *err),
                           void (*release)(void *p, size_t bytes));
/* Give an allocator-less pool its allocator (the first exec's table: the CUDA table's pinned
 * memory) and the card it pins from (the exec's device), once, before any buffer is made; a no-op
 * otherwise. */
void groth16_abc_pool_arm(groth16_abc_pool *pool, pm_status (*alloc)(void **out, size_t bytes, int device, pm_error *err),
                          void (*release)(void *p, size_t bytes), int device);
/* A buffer of pool->bytes for the caller alone: an idle one, else a new one while fewer than cap
 * exist (pinned by alloc, or malloc'd when alloc refuses), else waits until one is given back.
 * Contents: whatever the last user left. Errors: PM_ERR_NOMEM (neither pinned nor malloc'd memory
 * was given), PM_ERR_CANCELLED (the pool was closed while waiting, or before). */
pm_status groth16_abc_pool_take(groth16_abc_pool *pool, void **out, pm_error *err);
/* Give buf (from take) back; a waiter takes it. */
void groth16_abc_pool_give(groth16_abc_pool *pool, void *buf);
/* Wake every waiter with PM_ERR_CANCELLED and refuse later takes (a shutting-down engine). */
void groth16_abc_pool_close(groth16_abc_pool *pool);
/* Free every buffer (all must have been given back) and the pool's lock. NULL-safe after init. */
void groth16_abc_pool_destroy(groth16_abc_pool *pool);
/* Host bytes the pool holds now (made buffers · bytes). */
uint64_t groth16_abc_pool_held(groth16_abc_pool *pool);

/* The state of one proof from its witness to its assembly. Fields finalize reads (all Montgomery
 * coordinates; Jacobian sums may be infinity):
 *   key       the proving key view (borrowed: must outlive the handle)
 *   x_pub     the n_public public inputs w[1..n_public] (Montgomery, owned): the self-check's
 *   w_plain   n_vars witness values as PLAIN integers < r (owned), or NULL when the table takes the
 *             witness from its device copy (GROTH16_OPS_DEVICE_WITNESS_*)
 *   b2, n_b2  the CPU G2 MSM's scalars: w_plain (snarkjs) or the compacted B scalars (bellperson)
 *   sum_a     sum over the A base, sum_b1 over B1, sum_c = sum over C/L + sum over H
 *   have_b2, sum_b2  the G2 sum when the table computed it in start (msm_g2), else 0
 *   threads   G2 MSM threads of the CPU (set it between start and finalize to change them);
 *             skip_self_check, wtns_name: from the options; t: stage timings so far
 *   finalize_scratch(_size): optional caller-owned work space of the CPU G2 MSM (at least
 *             groth16_key_finalize_scratch_size bytes); NULL = allocated inside
 *   first_bad after PM_ERR_UNSATISFIED from a bellperson eval: the first failing constraint row
 *             (kept when the handle is freed, so a caller can name the gadget); UINT32_MAX otherwise.
 *   dev, dev_key, dev_token, dev_release  the table's own state for this handle (e.g. its device
 *             witness slot, the token of its preloaded a and b) and the function that gives it back
 *             (called once: by start_finish once the witness's MSMs are done, before the H MSM, or by
 *             groth16_pending_free)
 * The rest is the start phase's own. */
typedef struct groth16_pending groth16_pending_t;
#define GROTH16_SPENT_MAX 6 /* a | b | c, the plain witness, the compacted A and B scalars, the caller's witness */
struct groth16_pending {
    const groth16_key *key;
    groth16_key *owned_key;    /* a heap key view made by a convenience wrapper (prover.h), freed
                                  (groth16_key_free + free) with the handle */
    fr_t *x_pub;
    fr_t *w_plain;
    size_t n_vars;
    fr_t *sa, *sb;             /* bellperson: compacted A and B scalars (owned); snarkjs: NULL */
    const fr_t *b2;
    size_t n_b2;
    fr_t *work;                /* 3 · domain: a | b | c, host, when a CPU operation needs them */
    void *msm_scratch;
    size_t msm_scratch_size;
    int own_work, evaluated, staged, abc_host;
    int eval_deferred;         /* the table's device eval waits for start_finish (witness_first) */
    size_t n_w_eval;           /* its witness length */
    groth16_abc_pool *work_pool; /* the pool work came from (given back there), or NULL */
    g1_jac_t sum_a, sum_b1, sum_c;
    g2_jac_t sum_b2;
    int have_b2;
    unsigned threads;
    int skip_self_check;
    char wtns_name[256];
    char key_name[512];
    int witness_checked;       /* every constraint was checked (snarkjs --r1cs; bellperson always) */
    groth16_timings_t t;
    void *finalize_scratch;
    size_t finalize_scratch_size;
    uint32_t first_bad;
    void *dev, *dev_key;
    uint64_t dev_token;
    void (*dev_release)(groth16_pending_t *p);
    void *spent[GROTH16_SPENT_MAX]; /* host buffers the start phase is done with, under an exec with
                                       defer_free: freed by groth16_pending_release_spent (or _free) */
};

/* Scalars an operation hands on: plain integers < r in host memory (always), and the same left on
 * the device by an operation of the same table (dev, e.g. the GPU H phase's output), else NULL. */
typedef struct {
    const fr_t *host;
    const void *dev;
} groth16_scalars;

typedef struct groth16_ops groth16_ops;

/* Where a start runs: a table, the device for a GPU table (a CUDA ordinal < GROTH16_MAX_DEVICES;
 * the table makes it current on the calling thread), and the CPU MSM threads (0 = all cores).
 * yield (optional): called between the start phase's operations (after groth16_start_eval's
 * evaluation, after the H phase and after each MSM), where the handle's and its key's state is
 * complete, so a caller holding a device for the whole start may let more urgent work in there
 * (the engine: pm_gpu_slot_yield; outside its kernel region it waits while more urgent work of
 * another key is inside, and the GPU table calls it there between the pieces of a key's first-use
 * setup in stage: pinning the staging, uploading the circuit). The GPU table also calls it
 * inside its long operations, at the kernels' own preemption points (gpu.h gpu_set_yield: between
 * an MSM's window groups and the H pipeline's polynomials), where the operation's state waits in
 * its own device buffers: work let in there must use other buffers (another key's, as the
 * engine's urgent lane does: it never lets in a partition of the same key). */
/* cpu_ops: operations that run on the CPU although the table has them (bits below), as the key's
 * device-memory plan decides (devplan.h: a card without room for the recorded circuit or the NTT
 * domain; GROTH16_CPU_EVAL, GROTH16_CPU_H: devplan.h); the rest of the table still runs on the device. plan: that key-level plan (NULL = the
 * table plans each device itself, from the card's free memory and the gpu.memory setting). */
typedef struct {
    const groth16_ops *ops;
    int device;
    unsigned threads;
    void (*yield)(void *ctx);
    void *yield_ctx;
    unsigned cpu_ops;
    const groth16_devplan *plan; /* the key's (devplan.h), or NULL */
    /* 1: the host buffers a start is done with (a, b, c: 12 GiB at 2^27; the witness's copies) are not
     * freed inside it but handed to the handle's spent list, for a caller that holds a device
     * around the start and frees them later (groth16_pending_release_spent, groth16_pending_free: the
     * engine's finalizer): returning 16 GiB of pages to the OS takes ~0.1 s per GiB, GPU time
     * otherwise. 0: freed where they are done with. */
    int defer_free;
    /* the key's pinned a, b, c pool (NULL: a CPU eval mallocs them): groth16_pending_work takes
     * from it, start_finish gives back after the H phase */
    groth16_abc_pool *abc_pool;
    /* start_finish's lanes: 0 as the table says (its `lanes` entry: 2 where the device copy's plan
     * has two MSM rooms, devplan.h msm_rooms; a table without the entry: one), 1 one after
     * another, 2 a table without the entry runs the witness MSMs (A, B1, C/L, then its G2 MSM) on
     * a thread of their own beside the H phase and the H MSM (its MSMs must then be safe to run
     * two at once: the CPU table's are without a caller's scratch, which keeps start_finish to
     * one lane); a table with the entry decides (x->lanes = 2 cannot overrule its one room) */
    unsigned lanes;
} groth16_exec;

/* Table flags. */
/* For keys of one convention, msm_g1 (A, B1, C) and msm_g2 read the witness the table staged (their
 * s->host is NULL; stage, msm_g1 and msm_g2 are set), so the start phase makes no host copies of it. */
#define GROTH16_OPS_DEVICE_WITNESS_SNARKJS 1u
#define GROTH16_OPS_DEVICE_WITNESS_BELLPERSON 2u

/* The table. Every entry gets the exec and the handle (p->key the key, p->work the host buffers when
 * a CPU operation made them) and returns a pm_status with err filled; a NULL entry runs the CPU
 * table's (see the file comment for stage and msm_g2). */
struct groth16_ops {
    const char *name; /* "cpu", "cuda" */
    unsigned flags;   /* GROTH16_OPS_* */
    /* w: n_w = n_vars witness values (Montgomery, the caller's: valid until eval returns). */
    pm_status (*stage)(const groth16_exec *x, groth16_pending_t *p, const fr_t *w, size_t n_w, pm_error *err);
    /* a = work, b = work + domain (Montgomery): zkey section 4 on the domain. */
    pm_status (*eval_snarkjs)(const groth16_exec *x, groth16_pending_t *p, const fr_t *w, size_t n_w, pm_error *err);
    /* a, b, c over the circuit rows, every row checked a·b = c (first failing row in p->first_bad,
     * PM_ERR_UNSATISFIED naming it), then the input rows (a = w_i) and zeros up to the domain; where
     * they are kept is the table's (CPU: p->work, p->abc_host = 1). */
    pm_status (*eval_bellperson)(const groth16_exec *x, groth16_pending_t *p, const fr_t *w, size_t n_w, pm_error *err);
    /* snarkjs H from a, b (destroyed; c is scratch): h->host = P (plain, domain values) and/or h->dev. */
    pm_status (*h_snarkjs)(const groth16_exec *x, groth16_pending_t *p, groth16_scalars *h, pm_error *err);
    /* bellperson H from a, b, c (destroyed): the m − 1 coefficients (plain) in h->host and/or h->dev;
     * PM_ERR_UNSATISFIED when coefficient m − 1 is not 0. */
    pm_status (*h_bellperson)(const groth16_exec *x, groth16_pending_t *p, groth16_scalars *h, pm_error *err);
    /* *r = sum_{i < key->n_base[which]} s[i] base[which][i] (s: plain; s->dev when this table left it;
     * s->host NULL for A, B1, C with GROTH16_OPS_DEVICE_WITNESS_*). */
    pm_status (*msm_g1)(const groth16_exec *x, groth16_pending_t *p, groth16_base which, const groth16_scalars *s,
                        g1_jac_t *r, pm_error *err);
    /* *r = sum_{i < key->n_b2} s[i] b2[i] (s->host = p->b2, NULL with GROTH16_OPS_DEVICE_WITNESS_*). */
    pm_status (*msm_g2)(const groth16_exec *x, groth16_pending_t *p, const groth16_scalars *s, g2_jac_t *r,
                        pm_error *err);
    /* Host memory this table's transfers read fastest (the CUDA table: pinned, in pieces,
     * gpu_host_alloc_pieces), for the a, b, c pool (groth16_abc_pool_init); NULL: plain malloc. */
    pm_status (*host_alloc)(void **out, size_t bytes, int device, pm_error *err); /* device: made current first */
    void (*host_free)(void *p, size_t bytes);
    /* 2 when this table runs two MSMs of p at once on x's device (the CUDA table: the device copy's
     * plan has two MSM rooms), else 1; NULL: 1. Called by start_finish, after eval. */
    unsigned (*lanes)(const groth16_exec *x, groth16_pending_t *p);
    /* 1 when this table wants a bellperson handle's witness MSMs (A, B1, L, then B2) run before its
     * eval and H (one lane only), so that `prefetch` may fill the memory H leaves idle with bases that
     * the next handle's witness MSMs read first; a device eval is then deferred from start_eval to
     * start_finish, after those MSMs (the staged witness is kept for it). NULL: 0. */
    int (*witness_first)(const groth16_exec *x, groth16_pending_t *p);
    /* start_finish, after H and before the H MSM, where witness_first said 1: start copies the H MSM's
     * kernels overlap (the CUDA table: prefixes of streamed bases into the NTT domain's idle buffers).
     * Best effort: a failure only means nothing was prefetched. NULL: none. */
    void (*prefetch)(const groth16_exec *x, groth16_pending_t *p);
};

/* The CPU table. */
extern const groth16_ops groth16_ops_cpu;
/* The CUDA table (start_gpu.c, library proofmill_groth16_gpu): *ops set when this build has the
 * CUDA backend and a device is usable; else PM_ERR_GPU saying which is missing. */
pm_status groth16_ops_gpu(const groth16_ops **ops, pm_error *err);
/* Card `device` as the device-memory planner sees it (groth16/devplan.h): its memory, free memory
 * now, multiprocessors, the gpu.memory cap (util/settings.h) and `workers` GPU workers sharing it.
 * Errors: PM_ERR_GPU (no CUDA backend in this build, no such device). */
pm_status groth16_gpu_card(groth16_devplan_card *c, int device, unsigned workers, pm_error *err);

/* Scratch queries (STYLE.md item 10): bytes start needs at opts.scratch (3 · domain fr_t + the
 * largest G1 MSM scratch for `threads`, 0 = all cores), bytes finalize needs at
 * p->finalize_scratch (the G2 MSM's). Not counted: the handle's witness copies (below). */
size_t groth16_key_start_scratch_size(const groth16_key *k, unsigned threads);
size_t groth16_key_finalize_scratch_size(const groth16_key *k, unsigned threads);
/* Bytes a handle holds from pending_init to free: the public inputs, and with a table that reads
 * host scalars (device_witness = 0) the plain witness and, bellperson, its compacted copies (upper
 * bound). */
size_t groth16_key_pending_bytes(const groth16_key *k, int device_witness);

/* Set up a handle for key k and witness w (n values, MONTGOMERY): the witness length
 * (PM_ERR_MISMATCH: snarkjs "witness has n values, zkey expects nVars = m ...", file = wtns_name;
 * bellperson "witness has n values, r1cs has m wires"), bellperson's w[0] = 1
 * (PM_ERR_UNSATISFIED), the public inputs; sums zeroed. opts may be NULL. The host copies of the
 * witness the CPU MSMs need are made by start_eval (or groth16_pending_host_scalars). Errors: those,
 * PM_ERR_NOMEM. On error the handle is freed. */
pm_status groth16_pending_init_key(groth16_pending_t *p, const groth16_key *k, const fr_t *w, size_t n,
                                   const groth16_prove_opts_t *opts, pm_error *err);
/* The host copies of the witness w (n_vars values, Montgomery) that the CPU MSMs read: w_plain, and
 * for bellperson the compacted A and B scalars; b2 / n_b2 set. For callers that compute the sums
 * themselves (prover.h groth16_pending_init). Errors: PM_ERR_NOMEM (the handle is then freed). */
pm_status groth16_pending_host_scalars(groth16_pending_t *p, const fr_t *w, pm_error *err);
/* The host buffers a | b | c (3 · domain fr_t: opts.scratch given to init, else taken from
 * x->abc_pool when x has one (pool->bytes must be 3 · domain · 32: PM_ERR_ARG otherwise), else
 * allocated and owned), for the CPU operations. x may be NULL. Errors: PM_ERR_NOMEM, the pool's
 * (PM_ERR_CANCELLED). */
pm_status groth16_pending_work(groth16_pending_t *p, const groth16_exec *x, pm_error *err);
/* 1 when x's table evaluates a, b (c) itself for keys of k's convention (its eval entry is set), so
 * a pipeline must keep the witness until start_eval; 0 when the CPU's eval runs (a caller may run
 * it early, on another thread, with the CPU table). */
int groth16_exec_evaluates(const groth16_exec *x, const groth16_key *k);
/* 1 when x's table takes the witness of k's convention from its device copy
 * (GROTH16_OPS_DEVICE_WITNESS_*): the handle then holds no host copy of it. */
int groth16_exec_device_witness(const groth16_exec *x, const groth16_key *k);
/* 1 when x's table stages the witness (a caller keeps it until start_eval). */
int groth16_exec_stages(const groth16_exec *x);
/* Step 0 (after pending_init_key, for a table with a stage): the table's stage, before the
 * caller's kernel region; start_eval runs it when the table's own eval needs it and it was not
 * called, otherwise it must come before start_finish (a DEVICE_WITNESS table's MSMs read what it
 * staged: PM_ERR_ARG "witness not staged" without it). w must stay valid until start_eval
 * returns. A no-op for a table without stage, or when already staged. Errors: the table's. On
 * error the handle is freed. */
pm_status groth16_start_stage(groth16_pending_t *p, const fr_t *w, size_t n, const groth16_exec *x, pm_error *err);
/* Step 1: the host copies of the witness unless the table takes it from its device
 * (GROTH16_OPS_DEVICE_WITNESS_*), the stage if the table's own eval needs it, and eval (the table's
 * or the CPU's: a pipeline may run the CPU's early, on another thread, with the same exec). Errors: the eval's, PM_ERR_ARG
 * (scratch too small; a DEVICE_WITNESS table without msm_g1 / msm_g2), PM_ERR_NOMEM. On error the
 * handle is freed (first_bad kept). */
pm_status groth16_start_eval(groth16_pending_t *p, const fr_t *w, size_t n, const groth16_exec *x, pm_error *err);
/* Step 2: the H phase, the four G1 MSMs into the sums and, when the table has msm_g2, the G2 MSM
 * (have_b2); the work buffers and the table's per-handle state are released (the host buffers
 * freed, or under x->defer_free put on the handle's spent list). With two lanes (the table's
 * `lanes`, or x->lanes = 2 for a table without one) the witness MSMs run on a thread of their own
 * beside the H phase and the H MSM on the caller's: the same sums, each MSM's result independent
 * of the order. x->yield is called on the caller's thread only; while it runs, the witness lane
 * waits at its own preemption points. A lane that fails stops the other at its next operation.
 * When the thread cannot start, one lane on the caller's thread. Errors: PM_ERR_UNSATISFIED
 * (bellperson H of degree m − 1), those of the operations (the H lane's first, then the witness
 * lane's). On error the handle is freed. */
pm_status groth16_start_finish(groth16_pending_t *p, const groth16_exec *x, pm_error *err);
/* The whole start: pending_init_key, snarkjs's optional r1cs check (opts->r1cs: zkey_check_r1cs +
 * r1cs_check_satisfied, PM_ERR_UNSATISFIED naming the witness and the constraint), start_stage,
 * start_eval, start_finish. */
pm_status groth16_start(groth16_pending_t *p, const groth16_key *k, const fr_t *w, size_t n, const groth16_exec *x,
                        const groth16_prove_opts_t *opts, pm_error *err);

/* The assembly: the CPU G2 MSM (p->threads) unless start computed it (have_b2), then with r, s (MONTGOMERY; any value in Fr; random for
 * real proofs) A = alpha + sum_a + r delta1, B = beta2 + sum_b2 + s delta2, B1 = beta1 + sum_b1 +
 * s delta1, C = sum_c + s A + r B1 − r s delta1, all normalised to affine; then, unless
 * p->skip_self_check, the proof is verified with the key's own verifying key and the public
 * inputs w[1..n_public]: PM_ERR_UNSATISFIED (file = wtns_name, *proof zeroed) when it fails. Does
 * not free the handle (finalize may run again with other r, s). Errors: PM_ERR_ARG (handle not
 * started, finalize scratch too small), PM_ERR_NOMEM, the MSM's, the verifier's. */
pm_status groth16_finalize(groth16_proof_t *proof, groth16_pending_t *p, const fr_t *r, const fr_t *s, pm_error *err);

/* Free the handle's buffers (and a key view it owns), give back the table's state (dev_release)
 * and zero it, keeping first_bad. Safe on a zeroed or already freed handle. */
void groth16_pending_free(groth16_pending_t *p);
/* Hand buf (heap, the handle's to free; NULL: nothing) to p's spent list: freed by
 * groth16_pending_release_spent or groth16_pending_free, not before (a full list frees it now). */
void groth16_pending_spend(groth16_pending_t *p, void *buf);
/* Free the buffers on p's spent list (see groth16_exec defer_free); p stays valid. */
void groth16_pending_release_spent(groth16_pending_t *p);

#ifdef __cplusplus
}
#endif
#endif
