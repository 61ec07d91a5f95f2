/*
 * log.c — the daemon's log lines (log.h): text or JSON (log.format), one line each.
 */
#include <stdarg.h>
#include <time.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/log.h"
#include "daemon/daemon_internal.h"

int daemon_level_of(const char *s) {
    if (!strcmp(s, "error")) return LOG_ERROR;
    if (!strcmp(s, "warn")) return LOG_WARN;
    if (!strcmp(s, "debug")) return LOG_DEBUG;
    return LOG_INFO;
}

static void emit(pm_daemon *d, int level, const char *job, const char *label, const char *fmt, va_list ap) {
    if (d && level > atomic_load(&d->log_level)) return;
    static const char *names[] = {"error", "warn", "info", "debug"};
    char ts[32];
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm tm;
    gmtime_r(&now.tv_sec, &tm);
    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char msg[1400];
    vsnprintf(msg, sizeof msg, fmt, ap);
    char lab[256] = "";
    if (label) snprintf(lab, sizeof lab, "%s", label);
    label = lab;
    if (d && atomic_load(&d->log_json)) {
        char tsm[40];
        strftime(tsm, sizeof tsm, "%Y-%m-%dT%H:%M:%S", &tm);
        snprintf(tsm + strlen(tsm), sizeof tsm - strlen(tsm), ".%03ldZ", now.tv_nsec / 1000000);
        json_t *j = json_pack("{s:s,s:s,s:i,s:s}", "ts", tsm, "level", names[level], "pid", (int)getpid(), "msg", msg);
        if (j && job) json_object_set_new(j, "job", json_string(job));
        if (j && label && label[0]) json_object_set_new(j, "label", json_string(label));
        char *s = j ? json_dumps(j, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
        json_decref(j);
        if (s) {
            fprintf(stderr, "%s\n", s);
            free(s);
            return;
        }
    }
    /* one event, one line: a client's text in a message (a label, a request_id, a path) could
     * otherwise forge log lines with its line breaks; control bytes are shown as '?' */
    for (char *t[] = {msg, lab}, **p = t; p < t + 2; p++)
        for (unsigned char *q = (unsigned char *)*p; *q; q++)
            if (*q < 0x20 || *q == 0x7f) *q = '?';
    if (job)
        fprintf(stderr, "%s proofmill[%d] %s: job %s%s%s%s %s\n", ts, (int)getpid(), names[level], job,
                label && label[0] ? " [" : "", label && label[0] ? label : "", label && label[0] ? "]" : "", msg);
    else
        fprintf(stderr, "%s proofmill[%d] %s: %s\n", ts, (int)getpid(), names[level], msg);
}

void daemon_log(pm_daemon *d, int level, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    emit(d, level, NULL, NULL, fmt, ap);
    va_end(ap);
}

void daemon_log_job(pm_daemon *d, int level, const char *job, const char *label, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    emit(d, level, job, label, fmt, ap);
    va_end(ap);
}
