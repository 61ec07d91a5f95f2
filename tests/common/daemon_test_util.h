/*
 * daemon_test_util.h — an in-process daemon for tests that talk to its HTTP API (link
 * proofmill_daemon): started on a unix socket in a test's directory, and one request checked.
 */
#ifndef PROOFMILL_TESTS_DAEMON_TEST_UTIL_H
#define PROOFMILL_TESTS_DAEMON_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/client.h"
#include "daemon/config.h"
#include "daemon/daemon.h"
#include "test_util.h"

/* The default configuration of an in-process test daemon: the unix socket dir/d.sock only (no
 * TCP, no gRPC listener), log level error. */
static inline void pm_test_daemon_config(pm_daemon_config *dc, const char *dir) {
    pm_daemon_config_default(dc);
    dc->listen_tcp[0] = 0;
    dc->grpc_listen[0] = 0;
    snprintf(dc->listen_unix, sizeof dc->listen_unix, "%.200s/d.sock", dir);
    snprintf(dc->log_level, sizeof dc->log_level, "error");
}

/* The daemon with configuration *dc; base (cap bytes) = its address for pm_http_call
 * ("unix:<socket>"). Fails the test when it does not start. */
static inline pm_daemon *pm_test_daemon_start_config(char *base, size_t cap, const pm_daemon_config *dc) {
    pm_error err;
    pm_daemon *d = NULL;
    if (pm_daemon_start(&d, dc, &err)) fail_msg("daemon: %s", err.msg);
    snprintf(base, cap, "unix:%s", dc->listen_unix);
    return d;
}

/* The daemon of pm_test_daemon_config(dir). */
static inline pm_daemon *pm_test_daemon_start(char *base, size_t cap, const char *dir) {
    pm_daemon_config dc;
    pm_test_daemon_config(&dc, dir);
    return pm_test_daemon_start_config(base, cap, &dc);
}

/* POST body to path of the daemon at base (timeout_s): the answer's status must be status and its
 * body must contain want; both printed with label. */
static inline void pm_test_post_expect(const char *base, const char *path, const char *body, int timeout_s,
                                       int status, const char *want, const char *label) {
    pm_error err;
    int got = 0;
    char *resp = NULL;
    size_t rlen;
    if (pm_http_call(base, "POST", path, body, strlen(body), timeout_s, &got, &resp, &rlen, &err))
        fail_msg("http: %s", err.msg);
    printf("%s: %d %.300s\n", label, got, resp);
    assert_int_equal(got, status);
    assert_non_null(strstr(resp, want));
    free(resp);
}

#endif
