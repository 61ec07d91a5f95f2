/* client.c — minimal HTTP/1.1 client (client.h). */
#include "daemon/client.h"

#include "util/file.h"

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "util/strbuf.h"

static int connect_base(const char *base, unsigned timeout_s, char *host_hdr, size_t nh, pm_error *err) {
    int fd = -1;
    if (!strncmp(base, "unix:", 5)) {
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        if (strlen(base + 5) >= sizeof sa.sun_path) {
            pm_error_set(err, PM_ERR_ARG, base, PM_NO_OFFSET, "socket path too long");
            return -1;
        }
        strcpy(sa.sun_path, base + 5);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
            pm_error_set(err, PM_ERR_IO, base, PM_NO_OFFSET, "cannot connect: %s", strerror(errno));
            if (fd >= 0) close(fd);
            return -1;
        }
        snprintf(host_hdr, nh, "localhost");
    } else {
        const char *hp = !strncmp(base, "http://", 7) ? base + 7 : base;
        char host[256], port[16] = "80";
        const char *colon = strrchr(hp, ':');
        size_t hl = colon ? (size_t)(colon - hp) : strcspn(hp, "/");
        if (hl == 0 || hl >= sizeof host) {
            pm_error_set(err, PM_ERR_ARG, base, PM_NO_OFFSET, "expected http://HOST:PORT or unix:/path");
            return -1;
        }
        memcpy(host, hp, hl);
        host[hl] = 0;
        if (colon) snprintf(port, sizeof port, "%.*s", (int)strcspn(colon + 1, "/"), colon + 1);
        struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res, *ai;
        int rc = getaddrinfo(host, port, &hints, &res);
        if (rc) {
            pm_error_set(err, PM_ERR_ARG, base, PM_NO_OFFSET, "%s", gai_strerror(rc));
            return -1;
        }
        for (ai = res; ai; ai = ai->ai_next) {
            fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (fd >= 0 && connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) break;
            if (fd >= 0) close(fd);
            fd = -1;
        }
        freeaddrinfo(res);
        if (fd < 0) {
            pm_error_set(err, PM_ERR_IO, base, PM_NO_OFFSET, "cannot connect: %s", strerror(errno));
            return -1;
        }
        snprintf(host_hdr, nh, "%s:%s", host, port);
    }
    if (timeout_s) {
        struct timeval tv = {.tv_sec = timeout_s};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    }
    return fd;
}

static int send_all(int fd, const char *p, size_t n) {
    while (n) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Decode a chunked body in place; returns the new length or -1. */
static long dechunk(char *b, size_t n) {
    size_t r = 0, w = 0;
    for (;;) {
        char *end;
        if (r >= n) return -1;
        unsigned long sz = strtoul(b + r, &end, 16);
        char *crlf = strstr(b + r, "\r\n");
        if (!crlf || end > crlf) return -1;
        r = (size_t)(crlf - b) + 2;
        if (sz == 0) return (long)w;
        if (r + sz > n) return -1;
        memmove(b + w, b + r, sz);
        w += sz;
        r += sz + 2;
    }
}

static char http_token[160];

void pm_http_set_token(const char *token) { snprintf(http_token, sizeof http_token, "%s", token ? token : ""); }

pm_status pm_http_load_token(const char *path, pm_error *err) {
    char *text = NULL;
    size_t len = 0;
    pm_status st = pm_file_read_all(&text, &len, path, 4096, 0, err);
    if (st) return st;
    text[strcspn(text, " \t\r\n")] = 0;
    if (!text[0]) {
        free(text);
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "empty token file");
    }
    pm_http_set_token(text);
    free(text);
    return PM_OK;
}

pm_status pm_http_call(const char *base, const char *method, const char *path, const char *body, size_t body_len,
                       unsigned timeout_s, int *status, char **resp, size_t *resp_len, pm_error *err) {
    *resp = NULL;
    *resp_len = 0;
    *status = 0;
    char host[300];
    int fd = connect_base(base, timeout_s, host, sizeof host, err);
    if (fd < 0) return err ? err->code : PM_ERR_IO;
    char hdr[1400], auth[200] = "";
    if (http_token[0] && !strncmp(base, "http://", 7)) snprintf(auth, sizeof auth, "Authorization: Bearer %s\r\n", http_token);
    int hn = snprintf(hdr, sizeof hdr,
                      "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\nContent-Type: application/json\r\n"
                      "%sContent-Length: %zu\r\n\r\n",
                      method, path, host, auth, body ? body_len : 0);
    if (send_all(fd, hdr, (size_t)hn) != 0 || (body && send_all(fd, body, body_len) != 0)) {
        pm_error_set(err, PM_ERR_IO, base, PM_NO_OFFSET, "send failed: %s", strerror(errno));
        close(fd);
        return PM_ERR_IO;
    }
    pm_strbuf rb = {0};
    for (;;) {
        char *o = pm_sb_reserve(&rb, 65536);
        if (!o) {
            close(fd);
            return pm_error_set(err, PM_ERR_NOMEM, base, PM_NO_OFFSET, "out of memory");
        }
        ssize_t k = recv(fd, o, 65536, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            pm_error_set(err, PM_ERR_IO, base, PM_NO_OFFSET, "receive failed: %s", strerror(errno));
            pm_sb_free(&rb);
            close(fd);
            return PM_ERR_IO;
        }
        if (k == 0) break;
        rb.n += (size_t)k;
        rb.p[rb.n] = 0;
    }
    close(fd);
    size_t n = rb.n;
    char *buf = pm_sb_take(&rb);
    if (!buf) return pm_error_set(err, PM_ERR_NOMEM, base, PM_NO_OFFSET, "out of memory");
    char *sep = strstr(buf, "\r\n\r\n");
    int code = 0;
    if (!sep || sscanf(buf, "HTTP/1.%*d %d", &code) != 1) {
        free(buf);
        return pm_error_set(err, PM_ERR_FORMAT, base, PM_NO_OFFSET, "not an HTTP response");
    }
    *sep = 0;
    int chunked = 0;
    for (char *h = strstr(buf, "\r\n"); h && *h; h = strstr(h + 2, "\r\n"))
        if (!strncasecmp(h + 2, "Transfer-Encoding:", 18) && strstr(h + 2, "chunked")) chunked = 1;
    size_t off = (size_t)(sep - buf) + 4;
    size_t blen = n - off;
    memmove(buf, buf + off, blen);
    buf[blen] = 0;
    if (chunked) {
        long l = dechunk(buf, blen);
        if (l < 0) {
            free(buf);
            return pm_error_set(err, PM_ERR_FORMAT, base, PM_NO_OFFSET, "bad chunked encoding");
        }
        blen = (size_t)l;
        buf[blen] = 0;
    }
    *status = code;
    *resp = buf;
    *resp_len = blen;
    return PM_OK;
}
