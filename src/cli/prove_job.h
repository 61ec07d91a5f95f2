/*
 * prove_job.h — one job of any proof kind (kinds/kind.h) proved from the command line: through the
 * one driver (prove/prove.h: every partition proved and verified in turn) or through the embedded
 * proving engine (engine/backend_kinds.h: partitions as work items, verified by its assembler).
 * Used by `proofmill prove --kind K` (cmd_prove.c) and by the kind-specific spellings such as
 * `proofmill porep prove` (cmd_porep_c2.c); nothing here names a kind.
 */
#ifndef PROOFMILL_CLI_PROVE_JOB_H
#define PROOFMILL_CLI_PROVE_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "kinds/kind.h"
#include "prove/prove.h"
#include "util/error.h"

typedef struct {
    const pm_kind *kind;
    const char *key;        /* the key's path, or NULL: the kind's key in params_dir */
    const char *params_dir;
    const char *csr;        /* an explicit recorded circuit (bellperson kinds; not with engine) */
    const pm_input *inputs;
    size_t n_inputs;
    unsigned threads;       /* MSM / synthesis threads, 0 = all cores */
    const uint64_t *seed;   /* TESTS ONLY: seeded r, s (groth16_seeded_scalars(seed + partition)) */
    int engine;             /* 1: through the embedded engine */
    int gpu;                /* 1: the start phase's CUDA table (device 0); operations without a kernel
                               run on the CPU */
    const uint32_t *partition; /* driver only: prove just this partition (pm_prove_opts.only_partition;
                                  the result then holds n = 1 proof) */
    /* Called once with the key's path as soon as it is known — before the driver loads it, or when
     * the engine has planned the job — e.g. for a kind-specific command to say whose parameters
     * they are (porep prove: filecoin/param_safety.h). NULL: nothing. */
    void (*on_key)(void *arg, const char *key_path);
    void *on_key_arg;
} pm_cli_job;

typedef struct {
    uint32_t n;             /* partitions */
    char **json;            /* n proofs in the kind's JSON form (pm_prove_proof_json) */
    uint8_t *bytes;         /* bellperson kinds: the n 192-byte proofs concatenated, else NULL */
    char key_path[4096];    /* the key that proved it */
    /* timings, seconds: driver: reading the job, loading the key (+ circuit), the driver's sums;
     * engine: the job's own timings in ms */
    double t_read, t_key, t_total;
    pm_prove_timings tm;
    double e_queue_ms, e_key_ms, e_synth_ms, e_start_ms, e_finalize_ms, e_verify_ms, e_total_ms;
} pm_cli_job_result;

/* Prove job j: *r filled (pm_cli_job_result_free). Errors: the driver's or the engine's (the
 * job's error as the engine reports it). */
pm_status pm_cli_prove_job(pm_cli_job_result *r, const pm_cli_job *j, pm_error *err);
void pm_cli_job_result_free(pm_cli_job_result *r);

#endif
