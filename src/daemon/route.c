/*
 * route.c — one request through an endpoint table (route.h): the guard, the body limits, the
 * endpoint, shutdown, the method, the handler.
 */
#include <stdatomic.h>
#include <string.h>

#include "daemon/route.h"
#include "daemon/auth.h"
#include "daemon/http.h"
#include "daemon/log.h"

/* the endpoint for url: exact, or a prefix ending in '/' (*rest = what follows it) */
static const daemon_endpoint *find(const daemon_endpoint *table, size_t n, const char *url, const char **rest) {
    for (size_t i = 0; i < n; i++) {
        const char *u = table[i].url;
        size_t l = strlen(u);
        int prefix = l && u[l - 1] == '/';
        if (prefix ? !strncmp(url, u, l) : !strcmp(url, u)) {
            *rest = prefix ? url + l : "";
            return &table[i];
        }
    }
    return NULL;
}

enum MHD_Result daemon_route(pm_daemon *d, const daemon_endpoint *table, size_t n, struct MHD_Connection *c,
                             const char *url, const char *method, const req_t *rq) {
    atomic_fetch_add(&d->http_requests, 1);
    daemon_log(d, LOG_DEBUG, "%s %s (%zu bytes)", method, url, rq->len);
    enum MHD_Result gr;
    if (daemon_guard(d, c, method, rq, &gr) != 0) return gr; /* auth.c: Origin, Host, token, Content-Type */
    if (rq->too_big)
        return daemon_send_error(d, c, 413, "body-too-large", "request body exceeds http.max_body_bytes = %llu",
                                 (unsigned long long)atomic_load(&d->max_body));
    if (rq->busy)
        return daemon_send_error(d, c, 503, "busy", "too many request bytes in flight (http.max_buffered_bytes = %llu)",
                                 (unsigned long long)d->cfg.http_max_buffered);
    const char *rest = "";
    const daemon_endpoint *e = find(table, n, url, &rest);
    if (atomic_load(&d->closing) && !strcmp(method, "POST") && !(e && e->while_closing))
        return daemon_send_error(d, c, 503, "shutting-down", "the daemon is shutting down");
    if (!e) return daemon_send_error(d, c, 404, "not-found", "no endpoint %s %s", method, url);
    if (e->method && strcmp(method, e->method))
        return daemon_send_error(d, c, 405, "method-not-allowed", "use %s", e->method);
    return e->handler(d, c, method, rest, rq, e->arg);
}
