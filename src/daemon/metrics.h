/*
 * metrics.h — what the daemon says about itself (metrics.c): GET /v1/status (JSON), GET /metrics
 * (Prometheus text format 0.0.4), GET /v1/trace (the engine's Chrome trace), from the engine's
 * status and the job table (jobs.h). The gRPC front end's metrics are the same text (server.c).
 */
#ifndef PROOFMILL_DAEMON_METRICS_H
#define PROOFMILL_DAEMON_METRICS_H

#include <jansson.h>
#include <microhttpd.h>

#include "daemon/daemon_internal.h"

/* GET /v1/status's body (docs/engine.md): a new reference, NULL when out of memory. */
json_t *daemon_status_json(pm_daemon *d);
/* Prometheus text format 0.0.4, malloc'd; NULL when out of memory */
char *daemon_metrics_text(pm_daemon *d);

/* Handlers of server.c's endpoint table (route.h: daemon_handler_fn): GET /v1/status, GET /metrics
 * (500 out-of-memory), GET /v1/trace (404 trace-off when trace.enabled is false). */
enum MHD_Result daemon_h_status(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *rest,
                                const req_t *rq, int arg);
enum MHD_Result daemon_h_metrics(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *rest,
                                 const req_t *rq, int arg);
enum MHD_Result daemon_h_trace(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *rest,
                               const req_t *rq, int arg);

#endif
