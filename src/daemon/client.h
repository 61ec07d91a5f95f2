/*
 * client.h — a minimal blocking HTTP/1.1 client for talking to `proofmill daemon` (bench, tools):
 * one request per connection (Connection: close), Content-Length or chunked responses.
 *
 * base: "http://HOST:PORT" or "unix:/path/to.sock". Thread-safe (no shared state).
 */
#ifndef PROOFMILL_DAEMON_CLIENT_H
#define PROOFMILL_DAEMON_CLIENT_H

#include <stddef.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Send method path with body (may be NULL; JSON content type) and read the whole answer.
 * *status = HTTP status; *resp = malloc'd NUL-terminated body (caller frees), *resp_len its length.
 * timeout_s bounds each socket read/write (0 = none). Errors: PM_ERR_ARG (bad base), PM_ERR_IO
 * (connect/send/receive failed, with errno text), PM_ERR_FORMAT (not an HTTP answer), PM_ERR_NOMEM. */
/* The API token sent as "Authorization: Bearer <token>" on TCP (http://) calls from now on (the
 * daemon's http.token_file; the unix socket needs none). NULL or "": none. Call before threads. */
void pm_http_set_token(const char *token);
/* Read the token from path (first word of the file) and set it. Errors: PM_ERR_IO (unreadable),
 * PM_ERR_FORMAT (empty). */
pm_status pm_http_load_token(const char *path, pm_error *err);

pm_status pm_http_call(const char *base, const char *method, const char *path, const char *body, size_t body_len,
                       unsigned timeout_s, int *status, char **resp, size_t *resp_len, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
