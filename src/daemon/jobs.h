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

#include "daemon/daemon_internal.h"
#include "engine/engine.h"
#include "util/error.h"

/* The job table, and with a state directory (d->state_dir; "" = no journal) STATE/ and
 * STATE/spool/ (0700) and the journal. Errors: PM_ERR_NOMEM, PM_ERR_IO (a directory cannot be
 * created), the journal's (journal.h). */
pm_status daemon_jobs_open(pm_daemon *d, pm_error *err);
/* Close the journal and free the table (NULL table: no-op). */
void daemon_jobs_close(pm_daemon *d);
/* Re-queue the jobs the journal holds as accepted and not ended (at start, before the listeners);
 * logs what was re-queued and what could not run again. */
void daemon_jobs_recover(pm_daemon *d);
/* 1 when accepted jobs are journaled (state.dir is on) */
int daemon_jobs_durable(pm_daemon *d);
/* STATE/spool, or NULL without a journal */
const char *daemon_jobs_spool_dir(pm_daemon *d);
/* 1 when s is a job id: PM_JOB_ID_LEN lowercase hex digits */
int daemon_job_id_valid(const char *s);
/* Journal (spooling inline inputs to STATE/spool/<id>.<i>), then submit to the engine; id = the new
 * job's id. Errors: the engine's (PM_ERR_BUSY at capacity, PM_ERR_ARG), PM_ERR_IO (spool or
 * journal), PM_ERR_NOMEM; nothing is left journaled then. */
pm_status daemon_jobs_submit(pm_daemon *d, const pm_job_spec *spec, char id[PM_JOB_ID_LEN + 1], pm_error *err);
/* the engine id of a job the engine holds: 0, or -1 */
int daemon_jobs_lookup(pm_daemon *d, const char *id, uint64_t *eid);
/* wait (bounded) until the end of a finished job is recorded */
void daemon_jobs_wait_recorded(pm_daemon *d, const char *id);
/* the journal's stored answer of a finished job (malloc'd JSON text), or NULL */
char *daemon_jobs_stored(pm_daemon *d, const char *id);
/* a client's cancel: the row ends cancelled also when the job is re-queued by a shutdown */
void daemon_jobs_mark_cancel(pm_daemon *d, const char *id);
/* cancels from now on re-queue at restart (they are the shutdown's, not the job's end) */
void daemon_jobs_shutting_down(pm_daemon *d);
/* the engine's completion callback: the end into the journal and the log, then waiters released */
void daemon_jobs_on_end(pm_daemon *d, uint64_t eid, pm_job_state st);
/* the job's label into out[n] ("" when none or unknown); returns out */
const char *daemon_jobs_label(pm_daemon *d, const char *id, char *out, size_t n);
/* the daemon id of engine job eid into out[n] (its decimal number when the table has none); returns out */
const char *daemon_jobs_name_of(pm_daemon *d, uint64_t eid, char *out, size_t n);

#endif
