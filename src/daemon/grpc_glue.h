/*
 * grpc_glue.h — the daemon's gRPC front end: cuzk.v1.ProvingEngine (what Curio calls, docs/curio.md)
 * over the engine's public API (engine/engine.h). It implements grpc_server.h's operations table and
 * owns the server: the daemon starts it beside the HTTP API and stops it before the engine.
 *
 * What each RPC means (semantics from cuzk's .proto, Curio's lib/cuzk/client.go and lib/ffi/
 * cuzk_funcs.go, cuzk-server's service.rs; the full table is in docs/curio.md):
 *   SubmitProof  proof_kind + registered_proof + sector_size pick the proof kind and its key in the
 *                daemon's parameter directory (pm_daemon_params_dir); vanilla_proof is the job's
 *                input (PoRep C2: the C1 output or Curio's {SectorNum, Phase1Out, SectorSize}
 *                envelope, inline). A repeated request_id returns the job it named while that job is
 *                queued, running or done (a failed or cancelled one is submitted again: Curio
 *                retries a failed task with the same id). job_id = the engine's job id in decimal
 *                (the HTTP API's /v1/jobs/{id}); AwaitProof/CancelProof also take a request_id that
 *                is not all digits. queue_position = jobs ahead in the admission order (0 when
 *                admitted at once); assigned_gpu = the CUDA ordinals the job's partitions may run on
 *                ("0", "0,1"; "cpu" on a CPU-only daemon): the engine picks the device per partition.
 *   AwaitProof   timeout_ms 0 = until the job ends; COMPLETED (proof = the partitions' 192-byte
 *                proofs concatenated, as filecoin-ffi's C2), FAILED (error_message), CANCELLED,
 *                TIMEOUT; timings from the engine (queue, srs_load, synthesis, gpu incl. lock wait,
 *                total; milliseconds).
 *   Prove        SubmitProof + AwaitProof(0).
 *   CancelProof  was_running: the job had been admitted (a queued one is removed at once).
 *   GetStatus    GPUs (gpu_device_info, CUDA builds with gpu.devices), keys in the SRS cache by
 *                circuit id, queues per proof kind (pending = queued, in_progress = running; plus
 *                "other" for jobs submitted over HTTP), totals, uptime, pinned_memory_bytes = the
 *                preloaded (pinned) keys' bytes, pinned_memory_limit_bytes = memory.budget.
 *   GetMetrics   the HTTP API's /metrics text.
 *   PreloadSRS / EvictSRS  circuit id "<kind>-<size>": porep-2k, porep-8m, porep-512m, porep-32g,
 *                porep-64g (cuzk's names for 32/64 GiB).
 * Kinds not implemented yet (SnapDeals, WindowPoSt, WinningPoSt: issue #16) answer UNIMPLEMENTED
 * at once; the proof-kind table in grpc_glue.c has one row per kind.
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
} pm_grpc_front_config;

/* Start the gRPC server on cfg->grpc_listen (*out = NULL and PM_OK when it is empty). Errors:
 * pm_grpc_server_start's (PM_ERR_IO when the address cannot be bound), PM_ERR_NOMEM. */
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
