/*
 * listen.c — the daemon's listening sockets (listen.h): listen.tcp (host:port, port 0 = any) and
 * listen.unix, whose socket file is created owner-only and then given listen.unix_group and
 * listen.unix_mode (its permissions stand in for the token TCP clients send, auth.c); the gRPC
 * front end's unix socket gets the same rules through its hooks (server.c).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <grp.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/listen.h"
#include "daemon/daemon_internal.h"
#include "util/file.h"

int daemon_open_tcp(const char *addr, unsigned *port_out, pm_error *err) {
    char host[256];
    const char *colon = strrchr(addr, ':');
    if (!colon || colon == addr) {
        pm_error_set(err, PM_ERR_ARG, "listen.tcp", PM_NO_OFFSET, "'%s' is not host:port", addr);
        return -1;
    }
    snprintf(host, sizeof host, "%.*s", (int)(colon - addr), addr);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *res;
    int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc) {
        pm_error_set(err, PM_ERR_ARG, "listen.tcp", PM_NO_OFFSET, "'%s': %s", addr, gai_strerror(rc));
        return -1;
    }
    int fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, 128) != 0) {
        pm_error_set(err, PM_ERR_IO, "listen.tcp", PM_NO_OFFSET, "cannot listen on %s: %s", addr, strerror(errno));
        if (fd >= 0) close(fd);
        freeaddrinfo(res);
        return -1;
    }
    freeaddrinfo(res);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    *port_out = 0;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
        *port_out = ss.ss_family == AF_INET ? ntohs(((struct sockaddr_in *)&ss)->sin_port)
                                            : ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return fd;
}

int daemon_open_unix(const char *path, pm_error *err) {
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof sa.sun_path) {
        pm_error_set(err, PM_ERR_ARG, "listen.unix", PM_NO_OFFSET, "socket path too long");
        return -1;
    }
    strcpy(sa.sun_path, path);
    if (daemon_unix_prepare(path, err) != 0) return -1; /* a killed daemon's stale socket goes; a live one stays */
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    /* created owner-only, whatever the umask; daemon_unix_perms then sets listen.unix_mode/group */
    mode_t old = umask(0177);
    int ok = fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    umask(old);
    if (!ok || listen(fd, 128) != 0) {
        int e = errno;
        pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot listen: %s (listen.unix: a socket path this user may "
                     "create, e.g. --unix $XDG_RUNTIME_DIR/proofmill.sock; --unix '' for none)", strerror(e));
        if (fd >= 0) close(fd);
        return -1;
    }
    return fd;
}

int daemon_unix_prepare(const char *path, pm_error *err) {
    struct stat st;
    if (lstat(path, &st) != 0) return errno == ENOENT ? 0 : (pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot stat: %s", strerror(errno)), -1);
    if (!S_ISSOCK(st.st_mode)) {
        pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "exists and is %s, not a socket: not replaced", pm_file_kind(st.st_mode));
        return -1;
    }
    /* a socket file: in use when something answers a connect, stale (a killed daemon's) when not */
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0) {
        close(fd);
        pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "another daemon is listening on this socket");
        return -1;
    }
    if (fd >= 0) close(fd);
    unlink(path);
    return 0;
}

pm_status daemon_unix_perms(pm_daemon *d, const char *path, pm_error *err) {
    char *end;
    unsigned long mode = strtoul(d->cfg.listen_unix_mode, &end, 8);
    if (!d->cfg.listen_unix_mode[0] || *end || mode > 0777)
        return pm_error_set(err, PM_ERR_ARG, "listen.unix_mode", PM_NO_OFFSET, "'%s' is not an octal mode like 0660",
                            d->cfg.listen_unix_mode);
    if (d->cfg.listen_unix_group[0]) {
        gid_t gid;
        unsigned long g = strtoul(d->cfg.listen_unix_group, &end, 10);
        if (!*end) {
            gid = (gid_t)g;
        } else {
            struct group gr, *res = NULL;
            char buf[4096];
            if (getgrnam_r(d->cfg.listen_unix_group, &gr, buf, sizeof buf, &res) != 0 || !res)
                return pm_error_set(err, PM_ERR_ARG, "listen.unix_group", PM_NO_OFFSET, "no group '%s'", d->cfg.listen_unix_group);
            gid = res->gr_gid;
        }
        if (chown(path, (uid_t)-1, gid) != 0)
            return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot give the socket to group %s: %s",
                                d->cfg.listen_unix_group, strerror(errno));
    }
    if (chmod(path, (mode_t)mode) != 0)
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot set the socket's mode: %s", strerror(errno));
    return PM_OK;
}
