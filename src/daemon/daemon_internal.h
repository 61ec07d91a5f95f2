/*
 * daemon_internal.h — the state every file of the HTTP front end shares: struct pm_daemon and the
 * request being received (req_t). Types only: each file's functions are in its own header, and
 * the files call each other in one direction (docs/CONTRIBUTING.md "The daemon's modules"):
 *   log.h                       log lines
 *   listen.h                    listening sockets: TCP, the unix socket and its owner, group, mode
 *   http.h                      responses, request bodies, the libmicrohttpd servers
 *   auth.h                      token, Origin, Host, Content-Type (over http.h)
 *   route.h                     an endpoint table: guard, limits, method, the handler (over auth.h)
 *   job_json.h                  a job's JSON answer (what api.c answers and jobs.c journals)
 *   jobs.h                      job ids, the journal (journal.h), the spool, the re-queue at start
 *   api.h, metrics.h            the endpoints' handlers (over jobs.h, http.h)
 *   server.c                    start, reload, stop, signals, the endpoint table (over all)
 * Not a public API: daemon.h is; the gRPC front end (grpc_glue.c) uses only engine.h and its own
 * header (the journal and the socket rules through the hooks of its config).
 */
#ifndef PROOFMILL_DAEMON_INTERNAL_H
#define PROOFMILL_DAEMON_INTERNAL_H

#include <microhttpd.h>
#include <stdatomic.h>

#include "daemon/daemon.h"
#include "engine/backend.h"
#include "engine/engine.h"

#define PM_JOB_ID_LEN 32 /* a job id: 128 random bits as lowercase hex (jobs.c) */
typedef struct daemon_jobs daemon_jobs; /* jobs.c */

/* One request being received (libmicrohttpd's per-connection state, *con_cls; http.c fills it). */
typedef struct {
    char *body;
    size_t len, cap;
    int too_big;
    int busy; /* http.max_buffered_bytes reached */
    int answered;
} req_t;

/* What http.c calls with each complete request (or at once with one too big to take): server.c's
 * endpoint table through daemon_route (route.h). Returns what libmicrohttpd's handler returns. */
typedef enum MHD_Result (*daemon_request_fn)(pm_daemon *d, struct MHD_Connection *c, const char *url,
                                              const char *method, const req_t *rq);

typedef struct daemon_http_guard daemon_http_guard; /* http.c: connections' deadlines and limits */

struct pm_daemon {
    pm_daemon_config cfg;
    pm_backend backend;
    int backend_ok;
    pm_engine *engine;
    struct pm_grpc_front *grpc; /* the gRPC API (grpc_glue.h), NULL when grpc.listen is empty */
    struct MHD_Daemon *mhd_tcp, *mhd_unix;
    daemon_http_guard *http_guard; /* made by the first daemon_start_mhd; daemon_http_guard_stop */
    daemon_request_fn on_request; /* set before the listeners start */
    int fd_tcp, fd_unix;
    unsigned tcp_port;
    atomic_int log_level;
    atomic_int log_json;
    daemon_jobs *jobs;
    char state_dir[512];    /* "" = no journal */
    char token[128];        /* the API token ("" = none required) */
    char token_path[600];
    atomic_ullong max_body;
    atomic_ullong buffered; /* request body bytes held now, all connections */
    atomic_uint max_wait_s;
    atomic_uint drain_s;
    atomic_int closing;
    atomic_ullong http_requests, http_errors;
    atomic_uint http_open; /* requests begun and not yet completed (response sent or connection gone) */
};

#endif
