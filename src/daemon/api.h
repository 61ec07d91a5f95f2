/*
 * api.h — the daemon's job and key endpoints (api.c): POST /v1/jobs and /v1/prove (the submit
 * body), GET and DELETE /v1/jobs/{id}, POST /v1/keys/preload|evict (daemon.h, docs/engine.md).
 * Handlers of server.c's endpoint table (route.h: daemon_handler_fn); they answer through http.h
 * and keep jobs through jobs.h.
 */
#ifndef PROOFMILL_DAEMON_API_H
#define PROOFMILL_DAEMON_API_H

#include <stddef.h>
#include <jansson.h>
#include <microhttpd.h>

#include "daemon/daemon_internal.h"
#include "engine/engine.h"

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

/* POST /v1/jobs (arg 0: 202 {"id","state"}) and POST /v1/prove (arg 1: submit and wait up to
 * "wait_s" or http.max_wait_s: 200 done, 422/500 failed, 409 cancelled, 202 still running). */
enum MHD_Result daemon_h_submit(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *rest,
                                const req_t *rq, int arg);
/* GET /v1/jobs/{id}?wait=S (long-poll) and DELETE /v1/jobs/{id} (cancel); rest = the id. A job the
 * engine no longer holds is answered from the journal, or 404. */
enum MHD_Result daemon_h_job(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *rest,
                             const req_t *rq, int arg);
/* POST /v1/keys/preload (arg 1) and /v1/keys/evict (arg 0): {"key": path[, "kind": name]}. */
enum MHD_Result daemon_h_keys(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *rest,
                              const req_t *rq, int arg);

#endif
