/*
 * daemon_internal.h — what the files of the HTTP front end share (server.c: routing, start/stop,
 * signals, the gRPC front end's start and stop; http.c: responses, request bodies, listeners;
 * api.c: the job and key endpoints; metrics.c: /v1/status and /metrics; log.c; auth.c: token,
 * Origin/Host/Content-Type, socket permissions; jobs.c: job ids, the journal (journal.h), the
 * spool, the re-queue at start). Not a public API: daemon.h is; the gRPC front end (grpc_glue.c)
 * uses only engine.h and its own header (the journal through the hooks of its config).
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

#define PM_JOB_ID_LEN 32 /* a job id: 128 random bits as lowercase hex */
typedef struct daemon_jobs daemon_jobs;

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
/* a job's line: "job <id> [<label>] <message>" (text), or with "job" and "label" fields (json) */
void daemon_log_job(pm_daemon *d, int level, const char *job, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

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
struct MHD_Daemon *daemon_start_mhd(pm_daemon *d, int fd, int tcp);

/* ---- api.c ---- */
/* the job's JSON answer, "id" = its daemon id */
json_t *daemon_job_to_json(const pm_job_info *in, const char *id);
/* 1 when path may be used (paths.allow_prefix: util/confine.h) */
int daemon_path_allowed(pm_daemon *d, const char *path);
/* "start (gpu)" or "start (cpu)": the start phase (H + G1 MSMs) and where it runs, for log lines */
const char *daemon_start_stage_name(const pm_daemon *d);
/* A request refused before anything was done: what daemon_send_error answers (HTTP status, error
 * code, message). */
typedef struct {
    unsigned status;   /* 400, 403, 500 */
    const char *code;  /* "bad-request", "forbidden-path", "unknown-field", "bad-base64", ... (static) */
    char msg[1400];
} daemon_refusal;
/* A submit body (POST /v1/jobs, /v1/prove) as a job spec: spec's strings point into the JSON it was
 * parsed from (which must outlive it), inputs[0..n) are owned (inline bytes decoded from base64). */
typedef struct {
    pm_job_spec spec;
    pm_input *inputs;
    size_t n;
    double wait_s; /* "wait_s" (allow_wait only), has_wait = 1 when given */
    int has_wait;
} daemon_job_body;
/* Parse a submit body root into *p (zeroed first; allow_wait: /v1/prove, which takes "wait_s"):
 * the body's shapes are api.c's. Paths are checked against paths.allow_prefix. No I/O on the
 * connection. Returns 0, or -1 with *why set and *p freed. */
int daemon_parse_job(pm_daemon *d, json_t *root, int allow_wait, daemon_job_body *p, daemon_refusal *why);
void daemon_job_body_free(daemon_job_body *p);
/* A request body as JSON (body[len], JSON_REJECT_DUPLICATES), or NULL with *why set (400
 * bad-json): invalid JSON (a NUL byte included, which jansson lets pass after a number), or more
 * than DAEMON_MAX_BODY_VALUES values, refused before jansson builds its tree, which holds ~40
 * bytes per value (a 128 MB body of "0," held 2.6 GB). A WindowPoSt partition of 2349 inline
 * vanilla proofs is ~4,700 values. */
#define DAEMON_MAX_BODY_VALUES 100000u
json_t *daemon_body_json(const char *body, size_t len, daemon_refusal *why);
/* the request body as JSON, or NULL with the 400 sent and *ret set */
json_t *daemon_parse_body(pm_daemon *d, struct MHD_Connection *c, const req_t *rq, enum MHD_Result *ret);
enum MHD_Result daemon_h_submit(pm_daemon *d, struct MHD_Connection *c, const req_t *rq, int await);
enum MHD_Result daemon_h_job(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *ids);
enum MHD_Result daemon_h_keys(pm_daemon *d, struct MHD_Connection *c, const req_t *rq, int preload);

/* ---- metrics.c ---- */
json_t *daemon_status_json(pm_daemon *d);
/* Prometheus text format 0.0.4, malloc'd; NULL when out of memory */
char *daemon_metrics_text(pm_daemon *d);

/* ---- auth.c ---- */
/* read (or create, 0600) the API token when TCP clients need one */
pm_status daemon_auth_init(pm_daemon *d, pm_error *err);
/* 1 when c came in on the TCP listener */
int daemon_is_tcp(pm_daemon *d, struct MHD_Connection *c);
/* Origin, Host, token, Content-Type: 0 when the request may go on, else -1 with the answer sent */
int daemon_guard(pm_daemon *d, struct MHD_Connection *c, const char *method, const req_t *rq, enum MHD_Result *ret);
/* before bind: remove a stale socket file at path (0), refuse a live one or a non-socket (-1) */
int daemon_unix_prepare(const char *path, pm_error *err);
/* after bind: listen.unix_group and listen.unix_mode on the socket file */
pm_status daemon_unix_perms(pm_daemon *d, const char *path, pm_error *err);

/* ---- jobs.c ---- */
pm_status daemon_jobs_open(pm_daemon *d, pm_error *err); /* state dir, journal */
void daemon_jobs_close(pm_daemon *d);
void daemon_jobs_recover(pm_daemon *d);                   /* re-queue accepted-unfinished jobs */
int daemon_jobs_durable(pm_daemon *d);
const char *daemon_jobs_spool_dir(pm_daemon *d);          /* NULL without a journal */
int daemon_job_id_valid(const char *s);
/* journal (spooling inline inputs), then submit to the engine; id = the new job's id */
pm_status daemon_jobs_submit(pm_daemon *d, const pm_job_spec *spec, char id[PM_JOB_ID_LEN + 1], pm_error *err);
/* the engine id of a job the engine holds: 0, or -1 */
int daemon_jobs_lookup(pm_daemon *d, const char *id, uint64_t *eid);
/* wait (bounded) until the end of a finished job is recorded */
void daemon_jobs_wait_recorded(pm_daemon *d, const char *id);
/* the journal's stored answer of a finished job (malloc'd JSON text), or NULL */
char *daemon_jobs_stored(pm_daemon *d, const char *id);
void daemon_jobs_mark_cancel(pm_daemon *d, const char *id);
void daemon_jobs_shutting_down(pm_daemon *d);             /* cancels from now on re-queue at restart */
void daemon_jobs_on_end(pm_daemon *d, uint64_t eid, pm_job_state st); /* engine callback */
const char *daemon_jobs_label(pm_daemon *d, const char *id, char *out, size_t n);
/* the daemon id of engine job eid (its decimal number when the table has none) */
const char *daemon_jobs_name_of(pm_daemon *d, uint64_t eid, char *out, size_t n);
/* an error naming a spooled inline input (STATE/spool/<id>.<i>) names it "inputs[i]" instead */
void daemon_jobs_name_inputs(pm_error *e);

/* ---- server.c ---- */
enum MHD_Result daemon_route(pm_daemon *d, struct MHD_Connection *c, const char *url, const char *method,
                             const req_t *rq);

#endif
