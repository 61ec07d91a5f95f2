/*
 * log.c — the daemon's log lines (daemon_internal.h).
 */
#include <stdarg.h>
#include <time.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/daemon_internal.h"

int daemon_level_of(const char *s) {
    if (!strcmp(s, "error")) return LOG_ERROR;
    if (!strcmp(s, "warn")) return LOG_WARN;
    if (!strcmp(s, "debug")) return LOG_DEBUG;
    return LOG_INFO;
}

void daemon_log(pm_daemon *d, int level, const char *fmt, ...) {
    if (d && level > atomic_load(&d->log_level)) return;
    static const char *names[] = {"error", "warn", "info", "debug"};
    char ts[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char msg[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s proofmill[%d] %s: %s\n", ts, (int)getpid(), names[level], msg);
}
