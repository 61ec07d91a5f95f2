/*
 * auth.h — who may talk to the daemon's HTTP API (auth.c): the API token of TCP clients, and the
 * browser rules (Origin, Sec-Fetch-Site, Host, Content-Type) for every request. The unix socket
 * is guarded by its owner, group and mode instead (listen.h). Called by routing (route.h) before
 * any handler; answers its refusals through http.h.
 */
#ifndef PROOFMILL_DAEMON_AUTH_H
#define PROOFMILL_DAEMON_AUTH_H

#include <microhttpd.h>

#include "daemon/daemon_internal.h"

/* When TCP clients need a token (http.require_token and listen.tcp set): read it from
 * http.token_file or STATE/http.token, creating the file (0600, 256 random bits as hex) at first
 * start, into d->token and d->token_path; else d->token = "". Errors: PM_ERR_ARG (no file named
 * and state.dir off; the file is not a regular owner-only file), PM_ERR_IO (cannot create, write
 * or read it), PM_ERR_FORMAT (longer than d->token holds, shorter than 16 characters). */
pm_status daemon_auth_init(pm_daemon *d, pm_error *err);
/* Origin / Sec-Fetch-Site (403 foreign-origin), on TCP the Host (421 wrong-host) and the token
 * (401 unauthorized / bad-token), for a method with a body the Content-Type (415): 0 when the
 * request may go on, else -1 with the answer sent and its result in *ret. */
int daemon_guard(pm_daemon *d, struct MHD_Connection *c, const char *method, const req_t *rq, enum MHD_Result *ret);

#endif
