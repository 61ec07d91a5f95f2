/*
 * listen.h — the daemon's listening sockets (listen.c): the TCP listener, the unix socket and its
 * owner, group and mode (listen.unix_group, listen.unix_mode). Below every other daemon file but
 * log.c: it answers no request (http.h serves the sockets, auth.h guards the requests).
 */
#ifndef PROOFMILL_DAEMON_LISTEN_H
#define PROOFMILL_DAEMON_LISTEN_H

#include "daemon/daemon.h"
#include "util/error.h"

/* A listening TCP socket on addr "host:port" (port 0: any free port; *port_out = the bound one).
 * Returns the fd, or -1 with err filled: PM_ERR_ARG "listen.tcp" (not host:port, unknown host),
 * PM_ERR_IO (socket, bind or listen failed). */
int daemon_open_tcp(const char *addr, unsigned *port_out, pm_error *err);
/* A listening unix socket at path, created owner-only (0600 whatever the umask; daemon_unix_perms
 * opens it). A stale socket file there is replaced first (daemon_unix_prepare). Returns the fd, or
 * -1 with err filled: PM_ERR_ARG (path longer than sun_path), PM_ERR_IO (in use, not a socket,
 * bind or listen failed). */
int daemon_open_unix(const char *path, pm_error *err);
/* Before a bind at path: remove a stale socket file (nothing answers a connect) and return 0;
 * refuse (-1, PM_ERR_IO in err) a socket something listens on, a file that is not a socket, or a
 * path that cannot be inspected. */
int daemon_unix_prepare(const char *path, pm_error *err);
/* After the bind: the socket file at path gets listen.unix_group (a name or a number; empty: left
 * as created) and listen.unix_mode (octal, e.g. "0660") of d's config. Errors: PM_ERR_ARG
 * "listen.unix_mode" / "listen.unix_group" (not an octal mode, no such group), PM_ERR_IO (chown or
 * chmod failed). */
pm_status daemon_unix_perms(pm_daemon *d, const char *path, pm_error *err);

#endif
