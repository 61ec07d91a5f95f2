/*
 * daemon_internal.h — what the files of the HTTP front end share (server.c: routing, start/stop,
 * signals, the gRPC front end's start and stop; http.c: responses, request bodies, listeners;
 * api.c: the job and key endpoints; metrics.c: /v1/status and /metrics; log.c). Not a public API:
 * daemon.h is; the gRPC front end (grpc_glue.c) uses only engine.h and its own header.
 */
#ifndef PROOFMILL_DAEMON_INTERNAL_H
#define PROOFMILL_DAEMON_INTERNAL_H

#include <jansson.h>
#include <microhttpd.h>
#include <stdatomic.h>

#include "daemon/daemon.h"
#include "engine/backend.h"
#include "engine/engine.h"

enum { LOG_ERROR = 0, LOG_WARN = 1, LOG_INFO = 2, LOG_DEBUG = 3 };

struct pm_daemon {
    pm_daemon_config cfg;
    pm_backend backend;
    int backend_ok;
    pm_engine *engine;
    struct pm_grpc_front *grpc; /* the gRPC API (grpc_glue.h), NULL when grpc.listen is empty */
    struct MHD_Daemon *mhd_tcp, *mhd_unix;
    int fd_tcp, fd_unix;
    unsigned tcp_port;
    atomic_int log_level;
    atomic_ullong max_body;
    atomic_ullong buffered; /* request body bytes held now, all connections */
    atomic_uint max_wait_s;
    atomic_uint drain_s;
    atomic_int closing;
    atomic_ullong http_requests, http_errors;
};

/* One request being received (libmicrohttpd's per-connection state, *con_cls). */
typedef struct {
    char *body;
    size_t len, cap;
    int too_big;
    int busy; /* http.max_buffered_bytes reached */
    int answered;
} req_t;

/* ---- log.c ---- */
int daemon_level_of(const char *s);
/* "<UTC time> proofmill[pid] <level>: <message>" to stderr when level <= the log level */
void daemon_log(pm_daemon *d, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ---- http.c ---- */
enum MHD_Result daemon_send_text(struct MHD_Connection *c, unsigned code, char *text, const char *ctype);
/* send j (reference stolen) */
enum MHD_Result daemon_send_json(pm_daemon *d, struct MHD_Connection *c, unsigned code, json_t *j);
/* {"error":{"code": ecode, "message": printf text}} with HTTP status code */
enum MHD_Result daemon_send_error(pm_daemon *d, struct MHD_Connection *c, unsigned code, const char *ecode,
                                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* HTTP status for an engine/backend error met while handling a request */
unsigned daemon_status_for(pm_status st);
enum MHD_Result daemon_send_pm_error(pm_daemon *d, struct MHD_Connection *c, const pm_error *err);
enum MHD_Result daemon_on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **con_cls);
void daemon_on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode t);
/* listening sockets: -1 with err filled on failure */
int daemon_open_tcp(const char *addr, unsigned *port_out, pm_error *err);
int daemon_open_unix(const char *path, pm_error *err);
struct MHD_Daemon *daemon_start_mhd(pm_daemon *d, int fd);

/* ---- api.c ---- */
json_t *daemon_job_to_json(const pm_job_info *in);
/* 1 when path may be used (paths.allow_prefix) */
int daemon_path_allowed(pm_daemon *d, const char *path);
/* the request body as JSON, or NULL with the 400 sent and *ret set */
json_t *daemon_parse_body(pm_daemon *d, struct MHD_Connection *c, const req_t *rq, enum MHD_Result *ret);
enum MHD_Result daemon_h_submit(pm_daemon *d, struct MHD_Connection *c, const req_t *rq, int await);
enum MHD_Result daemon_h_job(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *ids);
enum MHD_Result daemon_h_keys(pm_daemon *d, struct MHD_Connection *c, const req_t *rq, int preload);

/* ---- metrics.c ---- */
json_t *daemon_status_json(pm_daemon *d);
/* Prometheus text format 0.0.4, malloc'd; NULL when out of memory */
char *daemon_metrics_text(pm_daemon *d);

/* ---- server.c ---- */
enum MHD_Result daemon_route(pm_daemon *d, struct MHD_Connection *c, const char *url, const char *method,
                             const req_t *rq);

#endif
