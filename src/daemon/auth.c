/*
 * auth.c — who may talk to the daemon (auth.h):
 *   - the API token: a file the daemon creates at first start (0600, 256 random bits as hex) and
 *     TCP clients send as "Authorization: Bearer <token>" (http.require_token); the unix socket is
 *     guarded by its explicit owner, group and mode (listen.unix_mode, listen.unix_group: listen.c) instead;
 *   - browsers: a request carrying an Origin not in http.allowed_origins, or "Sec-Fetch-Site:
 *     cross-site", is refused (403), a TCP request whose Host is not a loopback name, the listen
 *     address or one of http.allowed_hosts gets 421 (DNS rebinding), and every request with a
 *     body must say Content-Type: application/json (415), which a cross-site form or a no-cors
 *     fetch cannot send (RFC 6454 Origin, the Fetch standard's CORS-safelisted content types).
 * Checked before the body is looked at, for every endpoint.
 */
#include <errno.h>
#include <fcntl.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/auth.h"
#include "daemon/http.h"
#include "daemon/log.h"

pm_status daemon_auth_init(pm_daemon *d, pm_error *err) {
    d->token[0] = 0;
    if (!d->cfg.http_require_token || !d->cfg.listen_tcp[0]) return PM_OK;
    char path[sizeof d->token_path];
    if (d->cfg.http_token_file[0]) snprintf(path, sizeof path, "%s", d->cfg.http_token_file);
    else if (d->state_dir[0]) snprintf(path, sizeof path, "%s/http.token", d->state_dir);
    else
        return pm_error_set(err, PM_ERR_ARG, "http.token_file", PM_NO_OFFSET,
                            "http.require_token needs http.token_file or a state directory (state.dir is off)");
    snprintf(d->token_path, sizeof d->token_path, "%s", path);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd >= 0) {
        uint8_t r[32];
        size_t got = 0;
        while (got < sizeof r) {
            ssize_t k = getrandom(r + got, sizeof r - got, 0);
            if (k > 0) got += (size_t)k;
            else if (errno != EINTR) break;
        }
        char hex[2 * sizeof r + 2];
        for (size_t i = 0; i < sizeof r; i++) snprintf(hex + 2 * i, 3, "%02x", r[i]);
        strcat(hex, "\n");
        int ok = got == sizeof r && write(fd, hex, strlen(hex)) == (ssize_t)strlen(hex) && fsync(fd) == 0;
        close(fd);
        if (!ok) {
            unlink(path);
            return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot write the API token");
        }
        daemon_log(d, LOG_INFO, "created the API token %s (mode 0600): TCP clients send 'Authorization: Bearer <its text>'",
                   path);
    } else if (errno != EEXIST) {
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot create the API token: %s", strerror(errno));
    }
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0) close(fd);
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot read the API token: %s", strerror(e));
    }
    if (!S_ISREG(st.st_mode) || (st.st_mode & 077)) {
        close(fd);
        return pm_error_set(err, PM_ERR_ARG, path, PM_NO_OFFSET,
                            "the API token must be a regular file readable by its owner only (chmod 600), mode is %04o",
                            (unsigned)(st.st_mode & 07777));
    }
    char text[sizeof d->token + 1]; /* one byte more than a token may have: a longer one is refused */
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n < 0) n = 0;
    text[n] = 0;
    text[strcspn(text, " \t\r\n")] = 0;
    if (strlen(text) >= sizeof d->token)
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "the API token is longer than %zu characters",
                            sizeof d->token - 1);
    memcpy(d->token, text, strlen(text) + 1);
    if (strlen(d->token) < 16) {
        d->token[0] = 0;
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "the API token is shorter than 16 characters");
    }
    return PM_OK;
}

/* constant-time string equality (the length of the expected token is not secret) */
static int token_equal(const char *a, const char *b) {
    size_t na = strlen(a), nb = strlen(b);
    unsigned char x = na != nb;
    for (size_t i = 0; i < nb; i++) x |= (unsigned char)(a[i < na ? i : 0] ^ b[i]);
    return x == 0;
}

/* 1 when name (without port) is in the comma list */
static int in_list(const char *list, const char *name, size_t n) {
    for (const char *p = list; *p;) {
        while (*p == ' ' || *p == ',') p++;
        size_t l = strcspn(p, ",");
        size_t t = l;
        while (t && p[t - 1] == ' ') t--;
        if (t && t == n && !strncasecmp(p, name, n)) return 1;
        p += l;
    }
    return 0;
}

static int host_allowed(pm_daemon *d, const char *host) {
    /* the name part: "[::1]:9820" -> "[::1]", "localhost:9820" -> "localhost" */
    size_t n = strlen(host);
    const char *colon = host[0] == '[' ? strchr(host, ']') : strrchr(host, ':');
    if (host[0] == '[') n = colon ? (size_t)(colon - host) + 1 : n;
    else if (colon) n = (size_t)(colon - host);
    static const char loop[] = "localhost,127.0.0.1,[::1],localhost.";
    if (in_list(loop, host, n) || in_list(d->cfg.http_allowed_hosts, host, n)) return 1;
    const char *lc = strrchr(d->cfg.listen_tcp, ':');
    size_t ln = lc ? (size_t)(lc - d->cfg.listen_tcp) : 0;
    return ln && ln == n && !strncasecmp(d->cfg.listen_tcp, host, n) && strcmp(host, "0.0.0.0") && strncmp(host, "[::]", 4);
}

/* 1 when c came in on the TCP listener */
static int is_tcp(pm_daemon *d, struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_DAEMON);
    return ci && ci->daemon == d->mhd_tcp;
}

int daemon_guard(pm_daemon *d, struct MHD_Connection *c, const char *method, const req_t *rq, enum MHD_Result *ret) {
    int tcp = is_tcp(d, c);
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    const char *site = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Sec-Fetch-Site");
    if ((origin && !in_list(d->cfg.http_allowed_origins, origin, strlen(origin))) ||
        (site && !strcasecmp(site, "cross-site") && !origin)) {
        /* logged at info by daemon_send_error, with the client's address */
        *ret = daemon_send_error(d, c, 403, "foreign-origin",
                                 "requests from Origin %.200s are not accepted (http.allowed_origins)",
                                 origin ? origin : "(cross-site)");
        return -1;
    }
    if (tcp) {
        const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
        if (host && !host_allowed(d, host)) {
            *ret = daemon_send_error(d, c, 421, "wrong-host", "Host %.200s is not served here (http.allowed_hosts)", host);
            return -1;
        }
        if (d->token[0]) {
            const char *a = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
            if (!a || strncasecmp(a, "Bearer ", 7) || !token_equal(a + 7, d->token)) {
                json_t *j = json_pack("{s:{s:s,s:s}}", "error", "code", a ? "bad-token" : "unauthorized", "message",
                                      a ? "the Authorization token is wrong"
                                        : "send 'Authorization: Bearer <token>' (the token is the text of http.token_file)");
                char *s = json_dumps(j, JSON_COMPACT);
                json_decref(j);
                atomic_fetch_add(&d->http_errors, 1);
                struct MHD_Response *r = s ? MHD_create_response_from_buffer(strlen(s), s, MHD_RESPMEM_MUST_FREE) : NULL;
                if (!r) {
                    free(s);
                    *ret = MHD_NO;
                    return -1;
                }
                MHD_add_response_header(r, "Content-Type", "application/json");
                MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer realm=\"proofmill\"");
                char who[64];
                daemon_log(d, LOG_INFO, "refused 401 %s from %s: a %s request %s", a ? "bad-token" : "unauthorized",
                           daemon_peer(c, who, sizeof who), method, a ? "with a wrong token" : "without the API token");
                *ret = MHD_queue_response(c, 401, r);
                MHD_destroy_response(r);
                return -1;
            }
        }
    }
    if (strcmp(method, "GET") && strcmp(method, "DELETE") && strcmp(method, "HEAD")) {
        const char *ct = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
        size_t n = ct ? strcspn(ct, "; \t") : 0;
        if (!ct || n != 16 || strncasecmp(ct, "application/json", 16)) {
            *ret = daemon_send_error(d, c, 415, "unsupported-media-type",
                                     "a request body must be JSON with 'Content-Type: application/json' (got %.100s)",
                                     ct ? ct : "none");
            return -1;
        }
    }
    (void)rq;
    return 0;
}
