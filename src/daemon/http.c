/*
 * http.c — the HTTP side of the daemon (http.h): JSON and error responses, the request body as
 * libmicrohttpd delivers it, and the servers on the listening sockets (listen.c opens them).
 *
 * Request flow: libmicrohttpd calls on_request several times per request: first with no data
 * (a req_t is allocated and Content-Length checked against http.max_body_bytes, answering 413 at
 * once when it is too large), then with body chunks (appended, or dropped once over the limit),
 * then once more with *upload_data_size == 0: the request is complete and goes to d->on_request
 * (server.c's endpoint table, route.h). Each connection has its own thread, so a handler may block (long-poll) without
 * stalling others.
 */
#include <stdarg.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "daemon/http.h"
#include "daemon/log.h"
#include "util/clock.h"

/* ---------------------------------------------------------------- slow clients (connection guard)
 *
 * Every connection is listed (MHD_OPTION_NOTIFY_CONNECTION) with a deadline: its request (head and
 * body) must arrive within http.request_timeout_s of the connection's start, or of the end of the
 * previous request plus http.idle_timeout_s (keep-alive), plus one second per MiB of the body its
 * Content-Length declares. A reaper thread shuts down (shutdown(2): the connection's own thread
 * then sees the end of the stream and closes it) the connections past their deadline; a request
 * being handled (a long-poll) has none. libmicrohttpd's own limits are set a reserve above
 * http.max_connections and http.per_ip_connections: a connection over ours is taken, and once
 * its request head is in it is answered 503 + Retry-After (and has 2 s to send that head), instead
 * of the reset libmicrohttpd gives beyond its limits; beyond the reserve (reserve_of) libmicrohttpd
 * still resets. */
#define OVER_TIMEOUT_US 2000000
#define RETRY_AFTER_S "5"

typedef struct conn_t {
    struct conn_t *next, *prev;
    int fd;
    int tcp;
    struct sockaddr_storage addr; /* tcp: the client's address (port zeroed) */
    socklen_t alen;
    int64_t deadline_us; /* 0: none (a request being handled) */
    int over;            /* beyond http.max_connections / http.per_ip_connections: 503 */
} conn_t;

struct daemon_http_guard {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t reaper;
    int reaper_started;
    int stop;
    conn_t *head;
    unsigned n[2]; /* connections per listener: [0] unix, [1] tcp */
    uint64_t reaped;
};

/* The connections libmicrohttpd takes beyond a limit, to answer 503 on them. */
static unsigned reserve_of(unsigned limit) { return limit / 4 < 4 ? 4 : limit / 4; }

static int64_t req_timeout_us(const pm_daemon *d) { return (int64_t)d->cfg.http_request_timeout_s * 1000000; }

static void *reaper_main(void *arg) {
    pm_daemon *d = arg;
    daemon_http_guard *g = d->http_guard;
    pthread_mutex_lock(&g->mu);
    while (!g->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 250000000;
        if (ts.tv_nsec >= 1000000000) ts.tv_sec++, ts.tv_nsec -= 1000000000;
        pthread_cond_timedwait(&g->cv, &g->mu, &ts);
        int64_t now = pm_now_us();
        for (conn_t *c = g->head; c; c = c->next)
            if (c->deadline_us && now > c->deadline_us) {
                c->deadline_us = 0;
                g->reaped++;
                shutdown(c->fd, SHUT_RDWR); /* its thread sees the end and closes it */
                daemon_log(d, LOG_DEBUG, "http: a connection sent no complete request in time (http.request_timeout_s "
                           "= %u%s): closed", d->cfg.http_request_timeout_s, c->over ? "; over the connection limits" : "");
            }
    }
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

static void on_connection(void *cls, struct MHD_Connection *mc, void **socket_context, enum MHD_ConnectionNotificationCode code) {
    pm_daemon *d = cls;
    daemon_http_guard *g = d->http_guard;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        conn_t *c = calloc(1, sizeof *c);
        *socket_context = c;
        if (!c) return; /* unguarded: only the idle timeout applies */
        const union MHD_ConnectionInfo *fi = MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CONNECTION_FD);
        const union MHD_ConnectionInfo *ai = MHD_get_connection_info(mc, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        c->fd = fi ? fi->connect_fd : -1;
        if (ai && ai->client_addr && ai->client_addr->sa_family != AF_UNIX) {
            c->tcp = 1;
            if (ai->client_addr->sa_family == AF_INET) {
                c->alen = sizeof(struct sockaddr_in);
                memcpy(&c->addr, ai->client_addr, c->alen);
                ((struct sockaddr_in *)&c->addr)->sin_port = 0;
            } else if (ai->client_addr->sa_family == AF_INET6) {
                c->alen = sizeof(struct sockaddr_in6);
                memcpy(&c->addr, ai->client_addr, c->alen);
                ((struct sockaddr_in6 *)&c->addr)->sin6_port = 0;
                ((struct sockaddr_in6 *)&c->addr)->sin6_flowinfo = 0;
            }
        }
        pthread_mutex_lock(&g->mu);
        unsigned same = 0;
        for (conn_t *o = g->head; c->alen && o; o = o->next)
            same += o->alen == c->alen && !memcmp(&o->addr, &c->addr, c->alen);
        g->n[c->tcp]++;
        c->over = g->n[c->tcp] > d->cfg.http_max_connections || (c->tcp && same >= d->cfg.http_per_ip_connections);
        c->deadline_us = pm_now_us() + (c->over ? OVER_TIMEOUT_US : req_timeout_us(d));
        c->next = g->head;
        if (g->head) g->head->prev = c;
        g->head = c;
        pthread_mutex_unlock(&g->mu);
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        conn_t *c = *socket_context;
        *socket_context = NULL;
        if (!c) return;
        pthread_mutex_lock(&g->mu);
        if (c->prev) c->prev->next = c->next;
        else g->head = c->next;
        if (c->next) c->next->prev = c->prev;
        g->n[c->tcp]--;
        pthread_mutex_unlock(&g->mu);
        free(c);
    }
}

static conn_t *conn_of(struct MHD_Connection *mc) {
    const union MHD_ConnectionInfo *i = MHD_get_connection_info(mc, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return i ? i->socket_context : NULL;
}

/* The connection's deadline: 0 none, else now + us. */
static void conn_deadline(pm_daemon *d, struct MHD_Connection *mc, int64_t us) {
    conn_t *c = conn_of(mc);
    if (!c) return;
    pthread_mutex_lock(&d->http_guard->mu);
    c->deadline_us = us ? pm_now_us() + us : 0;
    pthread_mutex_unlock(&d->http_guard->mu);
}

/* 503 busy with Retry-After, closing the connection: over http.max_connections /
 * http.per_ip_connections. */
static enum MHD_Result send_over_limit(pm_daemon *d, struct MHD_Connection *mc) {
    static const char body[] = "{\"error\":{\"code\":\"busy\",\"message\":\"too many connections (http.max_connections "
                               "or, from one client address, http.per_ip_connections): retry later\"}}";
    struct MHD_Response *r = MHD_create_response_from_buffer(sizeof body - 1, (void *)body, MHD_RESPMEM_PERSISTENT);
    if (!r) return MHD_NO;
    MHD_add_response_header(r, "Content-Type", "application/json");
    MHD_add_response_header(r, "Retry-After", RETRY_AFTER_S);
    MHD_add_response_header(r, "Connection", "close");
    atomic_fetch_add(&d->http_errors, 1);
    daemon_log(d, LOG_DEBUG, "-> 503 busy: over the connection limits");
    enum MHD_Result ret = MHD_queue_response(mc, 503, r);
    MHD_destroy_response(r);
    return ret;
}

enum MHD_Result daemon_send_text(struct MHD_Connection *c, unsigned code, char *text, const char *ctype) {
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(text);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", ctype);
    enum MHD_Result ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

enum MHD_Result daemon_send_json(pm_daemon *d, struct MHD_Connection *c, unsigned code, json_t *j) {
    char *s = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(9)) : NULL;
    json_decref(j);
    if (!s) {
        s = strdup("{\"error\":{\"code\":\"out-of-memory\",\"message\":\"cannot build the response\"}}");
        code = 500;
        if (!s) return MHD_NO;
    }
    if (code >= 400) atomic_fetch_add(&d->http_errors, 1);
    return daemon_send_text(c, code, s, "application/json");
}

const char *daemon_peer(struct MHD_Connection *c, char *out, size_t cap) {
    const union MHD_ConnectionInfo *ci = c ? MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS) : NULL;
    const struct sockaddr *sa = ci ? ci->client_addr : NULL;
    snprintf(out, cap, "the unix socket");
    if (sa && sa->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, out, (socklen_t)cap);
    else if (sa && sa->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, out, (socklen_t)cap);
    return out;
}

enum MHD_Result daemon_send_error(pm_daemon *d, struct MHD_Connection *c, unsigned code, const char *ecode,
                                  const char *fmt, ...) {
    char msg[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* bytes of a hostile file quoted in a message may not be UTF-8: shown as '?', never a failed answer */
    json_t *j = json_pack("{s:{s:s,s:s}}", "error", "code", ecode, "message", msg);
    if (!j) {
        for (unsigned char *q = (unsigned char *)msg; *q; q++)
            if (*q >= 0x80 || (*q < 0x20 && *q != '\n')) *q = '?';
        j = json_pack("{s:{s:s,s:s}}", "error", "code", ecode, "message", msg);
    }
    /* what a client should fix is logged at info with the client's address (400, 403, 405, 413, ...):
     * an operator sees why a Curio node or script is refused; 422 is logged by the submit path (which
     * knows the job's label), 404 (an expired id, a probe) and the 5xx (logged where they arise) at debug */
    const int info = code >= 400 && code < 500 && code != 404 && code != 422;
    char who[INET6_ADDRSTRLEN + 16];
    daemon_log(d, info ? LOG_INFO : LOG_DEBUG, "refused %u %s from %s: %s", code, ecode, daemon_peer(c, who, sizeof who), msg);
    return daemon_send_json(d, c, code, j);
}

unsigned daemon_status_for(pm_status st) {
    switch (st) {
    case PM_ERR_ARG: return 400;
    case PM_ERR_IO:
    case PM_ERR_FORMAT:
    case PM_ERR_ENCODING:
    case PM_ERR_NOT_ON_CURVE:
    case PM_ERR_NOT_IN_SUBGROUP:
    case PM_ERR_CURVE:
    case PM_ERR_MISMATCH:
    case PM_ERR_UNSATISFIED:
    case PM_ERR_KEY: return 422;
    case PM_ERR_NOMEM: return 507;
    case PM_ERR_BUSY:
    case PM_ERR_CANCELLED: return 503;
    default: return 500;
    }
}

enum MHD_Result daemon_send_unavailable(pm_daemon *d, struct MHD_Connection *c, unsigned retry_after_s,
                                        const char *what, const pm_error *err) {
    char buf[1200];
    pm_error_format(err, buf, sizeof buf);
    json_t *j = json_pack("{s:{s:s,s:s++,s:i}}", "error", "code", "unavailable", "message", what, ": ", buf,
                          "retry_after_s", (int)retry_after_s);
    char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!s) s = strdup("{\"error\":{\"code\":\"unavailable\",\"message\":\"a transient fault: retry later\"}}");
    if (!s) return MHD_NO;
    atomic_fetch_add(&d->http_errors, 1);
    daemon_log(d, LOG_DEBUG, "-> 503 unavailable: %s: %s", what, buf);
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(s), s, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(s);
        return MHD_NO;
    }
    char ra[24];
    snprintf(ra, sizeof ra, "%u", retry_after_s);
    MHD_add_response_header(r, "Content-Type", "application/json");
    MHD_add_response_header(r, "Retry-After", ra);
    enum MHD_Result ret = MHD_queue_response(c, 503, r);
    MHD_destroy_response(r);
    return ret;
}

enum MHD_Result daemon_send_pm_error(pm_daemon *d, struct MHD_Connection *c, const pm_error *err) {
    char buf[1200];
    pm_error_format(err, buf, sizeof buf);
    return daemon_send_error(d, c, daemon_status_for(err->code), pm_status_name(err->code), "%s", buf);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **con_cls) {
    pm_daemon *d = cls;
    req_t *rq = *con_cls;
    if (!rq) {
        rq = calloc(1, sizeof *rq);
        if (!rq) return MHD_NO;
        *con_cls = rq;
        atomic_fetch_add(&d->http_open, 1);
        conn_t *cn = conn_of(c);
        if (cn && cn->over) { /* over the connection limits: 503 now, the connection closes after it */
            rq->answered = 1;
            conn_deadline(d, c, OVER_TIMEOUT_US);
            return send_over_limit(d, c);
        }
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cn) { /* the head is in: the body gets one more second per MiB it declares */
            uint64_t mib = cl ? strtoull(cl, NULL, 10) >> 20 : 0;
            pthread_mutex_lock(&d->http_guard->mu);
            if (cn->deadline_us) cn->deadline_us += (int64_t)(mib > 86400 ? 86400 : mib) * 1000000;
            pthread_mutex_unlock(&d->http_guard->mu);
        }
        if (cl && strtoull(cl, NULL, 10) > atomic_load(&d->max_body)) {
            rq->too_big = 1;
            rq->answered = 1;
            return d->on_request(d, c, url, method, rq); /* answer now; MHD closes after the response */
        }
        return MHD_YES;
    }
    if (rq->answered) {
        *upload_size = 0;
        return MHD_YES;
    }
    if (*upload_size) {
        size_t n = *upload_size;
        *upload_size = 0;
        if (rq->too_big || rq->busy) return MHD_YES;
        int over = rq->len + n > atomic_load(&d->max_body);
        int busy = !over && atomic_fetch_add(&d->buffered, n) + n > d->cfg.http_max_buffered;
        if (over || busy) {
            if (busy) atomic_fetch_sub(&d->buffered, n);
            atomic_fetch_sub(&d->buffered, rq->len);
            rq->too_big = over;
            rq->busy = busy;
            free(rq->body);
            rq->body = NULL;
            rq->len = rq->cap = 0;
            return MHD_YES;
        }
        if (rq->len + n + 1 > rq->cap) {
            size_t nc = rq->cap ? rq->cap : 4096;
            while (nc < rq->len + n + 1) nc *= 2;
            char *nb = realloc(rq->body, nc);
            if (!nb) {
                atomic_fetch_sub(&d->buffered, n);
                return MHD_NO;
            }
            rq->body = nb;
            rq->cap = nc;
        }
        memcpy(rq->body + rq->len, upload, n);
        rq->len += n;
        rq->body[rq->len] = 0;
        return MHD_YES;
    }
    rq->answered = 1;
    conn_deadline(d, c, 0); /* complete: being handled (a long-poll may wait) */
    enum MHD_Result r = d->on_request(d, c, url, method, rq);
    /* The body has been parsed (handlers keep no pointer into it): give its bytes back to
     * http.max_buffered_bytes now. Waiting for on_completed raced with the client: with a thread
     * per connection, the client could read the response and send its next request before this
     * connection's thread ran the completion callback, and be refused as busy. */
    atomic_fetch_sub(&d->buffered, rq->len);
    free(rq->body);
    rq->body = NULL;
    rq->len = rq->cap = 0;
    return r;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode t) {
    pm_daemon *d = cls;
    req_t *rq = *con_cls;
    /* keep-alive: the next request has the idle timeout to begin and http.request_timeout_s more */
    conn_deadline(d, c, (int64_t)d->cfg.http_idle_timeout_s * 1000000 + req_timeout_us(d));
    if (rq) {
        atomic_fetch_sub(&d->buffered, rq->len);
        free(rq->body);
        free(rq);
        atomic_fetch_sub(&d->http_open, 1);
    }
    *con_cls = NULL;
}

/* Slow clients (#17): a connection idle for http.idle_timeout_s (no header or body byte) is closed,
 * one whose request takes longer than http.request_timeout_s (the guard above) too; one TCP client
 * address holds at most http.per_ip_connections of http.max_connections, the connections beyond
 * (up to a reserve) answered 503; a long-poll is not idle (its thread is in the handler). */
struct MHD_Daemon *daemon_start_mhd(pm_daemon *d, int fd, int tcp) {
    if (!d->http_guard) {
        daemon_http_guard *g = calloc(1, sizeof *g);
        if (!g) return NULL;
        pthread_mutex_init(&g->mu, NULL);
        pthread_cond_init(&g->cv, NULL);
        d->http_guard = g;
        if (pthread_create(&g->reaper, NULL, reaper_main, d) != 0) {
            daemon_http_guard_stop(d);
            return NULL;
        }
        g->reaper_started = 1;
    }
    const unsigned max = d->cfg.http_max_connections, per_ip = d->cfg.http_per_ip_connections;
    /* poll(), not select(): a descriptor past FD_SETSIZE (1024: the gRPC port's or the spool's took the lower
     * ones) would otherwise drop every HTTP connection */
    return MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG, 0,
                            NULL, NULL, on_request, d, MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT,
                            max + reserve_of(max), MHD_OPTION_CONNECTION_TIMEOUT, d->cfg.http_idle_timeout_s,
                            MHD_OPTION_PER_IP_CONNECTION_LIMIT, tcp ? per_ip + reserve_of(per_ip) : 0u,
                            MHD_OPTION_NOTIFY_COMPLETED, on_completed, d, MHD_OPTION_NOTIFY_CONNECTION, on_connection,
                            d, MHD_OPTION_END);
}

void daemon_http_guard_stop(pm_daemon *d) {
    daemon_http_guard *g = d->http_guard;
    if (!g) return;
    pthread_mutex_lock(&g->mu);
    g->stop = 1;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    if (g->reaper_started) pthread_join(g->reaper, NULL);
    for (conn_t *c = g->head, *n; c; c = n) { /* none after MHD_stop_daemon; defensive */
        n = c->next;
        free(c);
    }
    pthread_mutex_destroy(&g->mu);
    pthread_cond_destroy(&g->cv);
    free(g);
    d->http_guard = NULL;
}
