/*
 * route.h — request routing over an endpoint table (route.c). The table is the caller's (server.c
 * lists the endpoints of daemon.h), so routing knows no handler: handlers sit above it, listeners
 * (http.h, listen.h) below. Order of the checks for every request: the guard (auth.h), the body
 * limits (413 body-too-large, 503 busy), the endpoint (404 not-found), a POST while the daemon
 * shuts down (503 shutting-down, unless the endpoint answers then), the method (405), the handler.
 */
#ifndef PROOFMILL_DAEMON_ROUTE_H
#define PROOFMILL_DAEMON_ROUTE_H

#include <stddef.h>
#include <microhttpd.h>

#include "daemon/daemon_internal.h"

/* An endpoint's handler: rest = the URL after the endpoint's prefix ("" for an exact URL), rq =
 * the complete request (body, rq->len bytes), arg = the endpoint's arg. Sends one answer and
 * returns libmicrohttpd's result. */
typedef enum MHD_Result (*daemon_handler_fn)(pm_daemon *d, struct MHD_Connection *c, const char *method,
                                              const char *rest, const req_t *rq, int arg);

typedef struct {
    const char *url;    /* exact, or a prefix when it ends in '/' ("/v1/jobs/" + an id) */
    const char *method; /* the one method taken ("use <method>" 405 otherwise); NULL: any (the handler checks) */
    int while_closing;  /* 1: answers also while the daemon shuts down (else a POST gets 503) */
    daemon_handler_fn handler;
    int arg;            /* passed to the handler (e.g. /v1/prove = submit and wait) */
} daemon_endpoint;

/* Answer one complete request from table[0..n) (the first endpoint whose url matches), counting
 * it in d->http_requests. */
enum MHD_Result daemon_route(pm_daemon *d, const daemon_endpoint *table, size_t n, struct MHD_Connection *c,
                             const char *url, const char *method, const req_t *rq);

#endif
