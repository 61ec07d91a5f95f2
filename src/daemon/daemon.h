/*
 * daemon.h — the HTTP/JSON proving service around one engine (engine/engine.h), and beside it the
 * gRPC API cuzk.v1.ProvingEngine that Curio calls (daemon/grpc_glue.h, on grpc.listen).
 *
 * API (every body JSON; every error {"error":{"code","message"}} with a 4xx/5xx status; the full
 * reference with examples is docs/engine.md "HTTP API"):
 *   POST   /v1/jobs             submit {"key", "inputs":[{"wtns":path}|{"wtns_b64":...}], "priority",
 *                               "label"} -> 202 {"id","state"}
 *   GET    /v1/jobs/{id}?wait=S the job (long-poll up to S s, capped by http.max_wait_s)
 *   POST   /v1/prove            submit and wait (body also takes "wait_s") -> 200 done job,
 *                               422/500 failed job, 202 still running at the deadline
 *   DELETE /v1/jobs/{id}        cancel -> 200 {"id","state"}
 *   GET    /v1/status           queues, workers, devices, memory, keys
 *   GET    /metrics             Prometheus text format 0.0.4
 *   POST   /v1/keys/preload     {"key"} load and pin
 *   POST   /v1/keys/evict       {"key"} unpin and drop
 *   GET    /v1/trace            Chrome trace JSON (trace.enabled)
 *
 * Threads: libmicrohttpd runs one thread per connection; a long-poll blocks only its own thread in
 * pm_engine_wait. Signals: pm_daemon_run blocks SIGTERM/SIGINT/SIGHUP in every thread and waits
 * for them in the calling thread: SIGTERM/SIGINT = drain (shutdown.drain_s), cancel, stop
 * listeners, free everything, exit 0; SIGHUP = reload the reloadable knobs.
 */
#ifndef PROOFMILL_DAEMON_DAEMON_H
#define PROOFMILL_DAEMON_DAEMON_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/config.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pm_daemon pm_daemon;

/* Build the backend and engine, preload keys, open the listeners. *d owned by the caller
 * (pm_daemon_stop). Errors: PM_ERR_ARG (bad listen address, no listener), PM_ERR_IO (bind/listen
 * failed), the engine's and the preload's errors. */
pm_status pm_daemon_start(pm_daemon **d, const pm_daemon_config *cfg, pm_error *err);
/* Drain up to cfg.shutdown_drain_s, cancel what is left, stop the listeners (waiting requests get
 * their answer), destroy the engine and free d. NULL is a no-op. */
void pm_daemon_stop(pm_daemon *d);
/* Re-apply reloadable knobs from cfg (log level, body limit, wait cap, drain). */
void pm_daemon_reload(pm_daemon *d, const pm_daemon_config *cfg);
/* The bound TCP port (after start; 0 when no TCP listener). */
unsigned pm_daemon_tcp_port(const pm_daemon *d);

/* `proofmill daemon --recover-journal`: recover the damaged job journal of cfg's state.dir (the
 * daemon must not run there): the damaged file kept as jobs.sqlite.damaged-<UTC time>, its readable
 * jobs salvaged into a new journal; prints (stdout) how many jobs were kept and lost, and each lost
 * job's id. Returns 0, or 2 with the error on stderr (state.dir off, a daemon holds it, no journal,
 * a write failed: the damaged file then stays in place). */
int pm_daemon_recover_journal(const pm_daemon_config *cfg);
/* Start, wait for SIGTERM/SIGINT (stop) or SIGHUP (re-read config_path if non-NULL), stop.
 * Returns 0 after a clean shutdown, 2 when start failed (error printed to stderr). */
int pm_daemon_run(const pm_daemon_config *cfg, const char *config_path);

#ifdef __cplusplus
}
#endif
#endif
