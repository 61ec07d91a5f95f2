/*
 * jobs.h — the daemon's job table (jobs.c): random job ids over the engine's numeric ones, the
 * journal (journal.h) of every accepted job, the spool of inline inputs, the re-queue at start.
 * The only file that writes the journal: a job's end goes in from the engine's completion callback
 * (daemon_jobs_on_end), with its answer from job_json.h. Below the handlers (api.c, metrics.c) and
 * server.c; above log.c and job_json.c.
 */
#ifndef PROOFMILL_DAEMON_JOBS_H
#define PROOFMILL_DAEMON_JOBS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "daemon/daemon_internal.h"
#include "engine/engine.h"
#include "util/error.h"

/* Which front end submitted a job (journaled in its spec as "front"): the HTTP API reaches every
 * job by its id (it holds the API token), the gRPC API only jobs submitted over gRPC (docs/daemon.md
 * "Who can reach which job"). */
typedef enum { DAEMON_FRONT_HTTP = 0, DAEMON_FRONT_GRPC = 1 } daemon_front;

/* The job table, and with a state directory (d->state_dir; "" = no journal) STATE/ and
 * STATE/spool/ (0700) and the journal. Errors: PM_ERR_NOMEM, PM_ERR_IO (a directory cannot be
 * created), the journal's (journal.h). */
pm_status daemon_jobs_open(pm_daemon *d, pm_error *err);
/* Close the journal and free the table (NULL table: no-op). */
void daemon_jobs_close(pm_daemon *d);
/* Re-queue the jobs the journal holds as accepted and not ended (at start, before the listeners);
 * logs what was re-queued and what could not run again. */
void daemon_jobs_recover(pm_daemon *d);
/* `proofmill daemon --recover-journal`: journal.h daemon_journal_recover on STATE/jobs.sqlite (no
 * daemon running there), its report (the damaged copy's name, jobs kept and lost, each lost id) on
 * report. Errors: journal.h's. */
pm_status daemon_jobs_recover_journal(const char *state_dir, FILE *report, pm_error *err);
/* 1 when accepted jobs are journaled (state.dir is on) */
int daemon_jobs_durable(pm_daemon *d);
/* With a journal: the spooled inline bytes of unfinished jobs now (*held) and their bound
 * (jobs.max_queued_inline_bytes, 0: 4 GiB); returns 1. Without one: 0 (the engine's bound on inline
 * bytes in memory applies: pm_engine_status). */
int daemon_jobs_spool_use(pm_daemon *d, uint64_t *held, uint64_t *limit);
/* STATE/spool, or NULL without a journal */
const char *daemon_jobs_spool_dir(pm_daemon *d);
/* 1 when s is a job id: PM_JOB_ID_LEN lowercase hex digits */
int daemon_job_id_valid(const char *s);
/* Journal (spooling inline inputs to STATE/spool/<id>.<i>), then submit to the engine as a job of
 * front end `front`; id = the new job's id (PM_JOB_ID_LEN random hex digits). Errors: PM_ERR_BUSY
 * (jobs.max jobs unended: it bounds new submits only, never jobs re-queued at start; or the
 * engine's capacity), the engine's PM_ERR_ARG / input errors, PM_ERR_IO (spool or journal: a
 * transient fault when daemon_jobs_transient says so), PM_ERR_NOMEM; nothing is left journaled then. */
pm_status daemon_jobs_submit(pm_daemon *d, const pm_job_spec *spec, daemon_front front, char id[PM_JOB_ID_LEN + 1],
                             pm_error *err);
/* the engine id of a job the engine holds that front may reach: 0, or -1 (unknown, or another
 * front end's job for the gRPC API) */
int daemon_jobs_lookup(pm_daemon *d, const char *id, daemon_front front, uint64_t *eid);
/* Wait (bounded, 30 s) until the end of a job the engine ended is recorded in the journal; a job
 * whose end the journal refused (disk full, I/O error) gets one more try of the write here.
 * PM_OK: recorded (or no journal, or unknown id). PM_ERR_IO (err: the journal's message): the end
 * is not durable yet, so it must not be reported: a transient fault (the client retries). */
pm_status daemon_jobs_wait_recorded(pm_daemon *d, const char *id, pm_error *err);
/* The journal's stored answer of a finished job that front may reach (malloc'd JSON text), or NULL:
 * unknown, expired, another front end's (err untouched), or an end not recorded yet whose retried
 * write fails again (err filled: PM_ERR_IO, a transient fault). */
char *daemon_jobs_stored(pm_daemon *d, const char *id, daemon_front front, pm_error *err);
/* A client's cancel into the journal (committed on return), so that the row ends cancelled at a
 * restart (also when a shutdown re-queues it); call before cancelling in the engine. PM_OK without
 * a journal. Errors: the journal's PM_ERR_IO (a transient fault: do not answer the cancel as done). */
pm_status daemon_jobs_mark_cancel(pm_daemon *d, const char *id, pm_error *err);
/* 1 when err is a transient fault of the daemon's own storage: PM_ERR_IO on a file under state.dir
 * (the journal or the spool) for a passing reason (disk full, quota, I/O error, database locked:
 * SQLite's and errno's words in the message): HTTP 503 with Retry-After, gRPC UNAVAILABLE, so that
 * the client retries; 0 otherwise (e.g. an inline input past the file-size limit; NULL err: 0). */
int daemon_jobs_transient(pm_daemon *d, const pm_error *err);
/* cancels from now on re-queue at restart (they are the shutdown's, not the job's end) */
void daemon_jobs_shutting_down(pm_daemon *d);
/* the engine's completion callback: the end into the journal and the log, then waiters released */
void daemon_jobs_on_end(pm_daemon *d, uint64_t eid, pm_job_state st);
/* the job's label into out[n] ("" when none or unknown); returns out */
const char *daemon_jobs_label(pm_daemon *d, const char *id, char *out, size_t n);
/* the daemon id of engine job eid into out[n] (its decimal number when the table has none); returns out */
const char *daemon_jobs_name_of(pm_daemon *d, uint64_t eid, char *out, size_t n);

#endif
