/*
 * grpc_glue.h — the daemon's gRPC front end: cuzk.v1.ProvingEngine (what Curio calls, docs/curio.md)
 * over the engine's public API (engine/engine.h) and the kind registry (kinds/kind.h). It
 * implements grpc_server.h's operations table and owns the server: the daemon starts it beside the
 * HTTP API and stops it before the engine. It names no kind in code: a table maps each cuzk
 * ProofKind to a registered kind's name (POREP_SEAL_COMMIT porep-c2, SNAP_DEALS_UPDATE snapdeals,
 * WINDOW_POST_PARTITION window-post, WINNING_POST winning-post; grpc.proof_kinds overrides), looked
 * up at each call: UNIMPLEMENTED while no kind of that name is registered.
 *
 * A request becomes a job of that kind, its key named by the kind from the daemon's parameter
 * directory (pm_daemon_params_dir), its inputs by one convention for every kind (kinds/kind.h
 * further inputs; a kind declares in more_inputs the fields it reads):
 *   vanilla_proof, vanilla_proofs[i]   the kind's main inputs, inline bytes, in that order
 *                                      (PoRep C2: the C1 output or Curio's envelope; PoSt: one per
 *                                      sector; 1..max_inputs of them)
 *   randomness, comm_r_old, comm_r_new, comm_d_new
 *                                      further inputs of those names, the raw bytes, when non-empty
 *                                      (a field set for a kind that takes none: INVALID_ARGUMENT)
 *   registered_proof, sector_size, sector_number, miner_id, partition_index
 *                                      further inputs of those names as decimal text (pm_input_u64),
 *                                      always (proto3 cannot tell 0 from unset), to a kind that
 *                                      declares them; ignored by one that does not
 *   priority                           LOW..CRITICAL, or PRIORITY_UNSPECIFIED = the kind's default
 * (porep-c2 reads registered_proof and sector_size and checks them against the C1.)
 *
 * What each RPC means (semantics from cuzk's .proto, Curio's lib/cuzk/client.go and lib/ffi/
 * cuzk_funcs.go, cuzk-server's service.rs; the full table is in docs/engine.md "gRPC API"):
 *   SubmitProof  a repeated request_id returns the job it named while that job is queued, running
 *                or done (a failed or cancelled one is submitted again: Curio retries a failed
 *                task with the same id; another ProofKind or registered_proof: ALREADY_EXISTS).
 *                job_id = the daemon's job id (32 hex digits, journaled: docs/daemon.md; the HTTP
 *                API's /v1/jobs/{id}), or the engine's in decimal without the config's hooks;
 *                AwaitProof/CancelProof also take a request_id that is not all digits. With the
 *                hooks they reach only jobs submitted over gRPC: another front end's job id or an
 *                engine number is NOT_FOUND (docs/daemon.md "Who can reach which job").
 *                queue_position = jobs ahead in the admission order (0 when admitted at once);
 *                assigned_gpu = the CUDA ordinals the job's partitions may run on ("0", "0,1";
 *                "cpu" on a CPU-only daemon): the engine picks the device per partition.
 *   AwaitProof   timeout_ms 0 = until the job ends; COMPLETED (proof = the partitions' 192-byte
 *                proofs concatenated, as filecoin-ffi returns them: daemon/job_proof.h), FAILED
 *                (error_message), CANCELLED, TIMEOUT; timings from the engine (queue, srs_load,
 *                synthesis, gpu incl. lock wait, total; milliseconds).
 *   Prove        SubmitProof + AwaitProof(0).
 *   CancelProof  was_running: the job had been admitted (a queued one is removed at once). The
 *                cancel is journaled (mark_cancel hook) before the engine acts and OK is answered.
 *   GetStatus    GPUs (gpu_device_info, CUDA builds with gpu.devices; current_job_id and
 *                current_proof_kind: what the engine's device works on now), keys in the SRS cache
 *                by circuit id, queues per proof kind from the engine (pending = queued,
 *                in_progress = running; jobs of every front end, e.g. "snarkjs" for HTTP ones, and
 *                the table's registered kinds), totals, uptime, pinned_memory_bytes = the preloaded
 *                (pinned) keys' bytes, pinned_memory_limit_bytes = memory.budget.
 *   GetMetrics   the HTTP API's /metrics text.
 *   PreloadSRS / EvictSRS  circuit id "<prefix>-<size>" (porep, snap, wpost, winning; 2k, 8m,
 *                512m, 32g, 64g: cuzk's names): the row's kind's key_for_size.
 */
#ifndef PROOFMILL_DAEMON_GRPC_GLUE_H
#define PROOFMILL_DAEMON_GRPC_GLUE_H

#include "daemon/config.h"
#include "engine/engine.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pm_grpc_front pm_grpc_front;

typedef struct {
    pm_engine *engine;              /* must outlive the front end */
    const pm_daemon_config *cfg;    /* read at start: grpc.*, filecoin.params_dir, jobs.retain_s, gpu.devices */
    char *(*metrics)(void *arg);    /* Prometheus text, malloc'd */
    void *metrics_arg;
    void (*log)(void *arg, int level, const char *msg); /* level 0 error .. 3 debug */
    void *log_arg;
    /* The daemon's job table (docs/daemon.md: the journal, random 128-bit job ids), all optional:
     * submit journals the job and submits it as a gRPC job (*id = the engine's id, name = the
     * daemon's job id, which job_id then carries); lookup turns the daemon job id of a job
     * submitted over gRPC into the engine's (0, or -1: unknown, or another front end's job, which
     * gRPC never reaches); name_of the reverse ("" for another front end's job). With them, job_id
     * is never an engine number. Without them: the engine's ids in decimal, nothing journaled. */
    pm_status (*submit)(void *arg, const pm_job_spec *spec, uint64_t *id, char *name, size_t cap, pm_error *err);
    int (*lookup)(void *arg, const char *name, uint64_t *id);
    void (*name_of)(void *arg, uint64_t id, char *name, size_t cap);
    /* the journal's answer (the job's JSON, malloc'd) of a gRPC job the engine no longer holds, e.g.
     * one that ended before a restart; NULL when none (err untouched), or NULL with err filled when
     * its end is known but the journal cannot record it yet (a transient fault: UNAVAILABLE) */
    char *(*stored)(void *arg, const char *name, pm_error *err);
    /* wait (bounded) until the journal holds the end of job `name` (at a final state in the engine),
     * so that an AwaitProof answer of COMPLETED / FAILED survives a kill right after it, as the HTTP
     * API's answers do (daemon_jobs_wait_recorded). PM_OK, or an error (err filled) when the journal
     * cannot record the end now: AwaitProof then answers UNAVAILABLE, not the end. NULL: no wait */
    pm_status (*wait_recorded)(void *arg, const char *name, pm_error *err);
    /* journal a client's cancel of job `name` (committed) before the engine cancels it, as HTTP
     * DELETE does; an error (err filled) refuses the cancel (UNAVAILABLE when transient). NULL: none */
    pm_status (*mark_cancel)(void *arg, const char *name, pm_error *err);
    /* 1 when e is a transient fault of the daemon's own storage (disk full, journal I/O):
     * UNAVAILABLE (the client retries) instead of the error's usual code. NULL: none is */
    int (*transient)(void *arg, const pm_error *e);
    /* rewrite an error that names a spooled inline input (the journal's file) to name its place */
    void (*name_inputs)(pm_error *e);
    /* grpc.listen = unix:PATH: before the bind, unix_prepare removes a stale socket file of a
     * killed daemon and refuses a live one or a file that is not a socket (-1, err filled); after
     * it, unix_perms gives the socket the daemon's owner, group and mode (listen.unix_*). NULL:
     * the file is removed, the mode follows the umask. */
    int (*unix_prepare)(void *arg, const char *path, pm_error *err);
    pm_status (*unix_perms)(void *arg, const char *path, pm_error *err);
    void *jobs_arg;
} pm_grpc_front_config;

/* Start the gRPC server on cfg->grpc_listen (*out = NULL and PM_OK when it is empty). Errors:
 * pm_grpc_server_start's (PM_ERR_IO when the address cannot be bound), PM_ERR_ARG (a bad
 * grpc.proof_kinds entry), PM_ERR_NOMEM. */
pm_status pm_grpc_front_start(pm_grpc_front **out, const pm_grpc_front_config *c, pm_error *err);
/* The bound TCP port (0 for a unix socket or NULL). */
unsigned pm_grpc_front_port(const pm_grpc_front *f);
/* Refuse new calls, end waits (within 200 ms), stop the server, free. Call before destroying the
 * engine. NULL is a no-op. */
void pm_grpc_front_stop(pm_grpc_front *f);

#ifdef __cplusplus
}
#endif
#endif
