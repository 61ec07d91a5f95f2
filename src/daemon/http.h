/*
 * http.h — the HTTP side of the daemon (http.c): the libmicrohttpd servers on the listening
 * sockets (listen.h), the request body as it arrives, and the JSON, text and error responses every
 * endpoint sends. It routes nothing itself: each complete request goes to d->on_request (server.c
 * sets it to its endpoint table, route.h).
 */
#ifndef PROOFMILL_DAEMON_HTTP_H
#define PROOFMILL_DAEMON_HTTP_H

#include <jansson.h>
#include <microhttpd.h>

#include "daemon/daemon_internal.h"

/* Send text (malloc'd, taken over: freed also on failure) with status code and Content-Type ctype. */
enum MHD_Result daemon_send_text(struct MHD_Connection *c, unsigned code, char *text, const char *ctype);
/* Send j as compact JSON (reference stolen; NULL or unprintable: 500 out-of-memory); a status
 * >= 400 counts in http_errors. */
enum MHD_Result daemon_send_json(pm_daemon *d, struct MHD_Connection *c, unsigned code, json_t *j);
/* {"error":{"code": ecode, "message": printf text}} with HTTP status code (message bytes that are
 * not UTF-8 shown as '?'); logged at debug. */
/* The connection's client for log lines: "127.0.0.1", "::1", "the unix socket"; out, NUL-terminated. */
const char *daemon_peer(struct MHD_Connection *c, char *out, size_t cap);
enum MHD_Result daemon_send_error(pm_daemon *d, struct MHD_Connection *c, unsigned code, const char *ecode,
                                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* HTTP status for an engine/backend error met while handling a request: PM_ERR_ARG 400, input
 * errors (I/O, format, encoding, curve, mismatch, unsatisfied, key) 422, PM_ERR_NOMEM 507,
 * PM_ERR_BUSY and PM_ERR_CANCELLED 503, anything else 500. */
unsigned daemon_status_for(pm_status st);
/* err as an error response: daemon_status_for(err->code), code = pm_status_name, message = the
 * formatted error (file, offset, text). */
enum MHD_Result daemon_send_pm_error(pm_daemon *d, struct MHD_Connection *c, const pm_error *err);
/* 503 with a Retry-After: retry_after_s header for a transient fault of the daemon's own storage
 * (disk full, journal I/O error; jobs.h daemon_jobs_transient): {"error":{"code":"unavailable",
 * "message": "<what>: <err formatted>", "retry_after_s": N}}. The client retries the same request. */
enum MHD_Result daemon_send_unavailable(pm_daemon *d, struct MHD_Connection *c, unsigned retry_after_s,
                                        const char *what, const pm_error *err);
/* A libmicrohttpd server (thread per connection) on the listening socket fd (tcp: 1 for the TCP
 * listener, which gets http.per_ip_connections), with http.max_connections and
 * http.idle_timeout_s; bodies are held up to http.max_body_bytes each and
 * http.max_buffered_bytes in all. Connections are guarded (http.c): a request not complete within
 * http.request_timeout_s (+ 1 s per declared MiB of body) is closed; connections over
 * http.max_connections / http.per_ip_connections are answered 503 + Retry-After, up to a reserve
 * of a quarter of the limit (at least 4) beyond which libmicrohttpd resets them. The first call
 * starts the guard's reaper thread (daemon_http_guard_stop). d->on_request must be set. NULL when
 * libmicrohttpd refuses or the guard cannot start. */
struct MHD_Daemon *daemon_start_mhd(pm_daemon *d, int fd, int tcp);
/* Stop the guard's reaper thread and free it, after MHD_stop_daemon of every listener. No-op when
 * none was started. */
void daemon_http_guard_stop(pm_daemon *d);

#endif
