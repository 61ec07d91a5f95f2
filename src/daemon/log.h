/*
 * log.h — the daemon's log lines (log.c): one line per event on stderr, text or JSON (log.format),
 * shown when their level is at most log.level (reloadable). The bottom of the daemon's modules:
 * every other file may log, log.c calls none of them.
 */
#ifndef PROOFMILL_DAEMON_LOG_H
#define PROOFMILL_DAEMON_LOG_H

#include "daemon/daemon.h"

enum { LOG_ERROR = 0, LOG_WARN = 1, LOG_INFO = 2, LOG_DEBUG = 3 };

/* "error", "warn", "debug" -> their level; anything else LOG_INFO. */
int daemon_level_of(const char *s);
/* "<UTC time> proofmill[pid] <level>: <message>" to stderr when level <= the log level (d NULL:
 * always); log.format = json: {"ts","level","pid","msg"}. Control bytes of the message are shown
 * as '?', so a client's text cannot forge a line. */
void daemon_log(pm_daemon *d, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* a job's line: "job <id> [<label>] <message>" (text), or with "job" and "label" fields (json) */
void daemon_log_job(pm_daemon *d, int level, const char *job, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
