/*
 * job_json.h — a job as the HTTP API shows it and the journal keeps it (job_json.c). Shared by the
 * handlers (api.c answers with it) and the job table (jobs.c writes it to the journal when a job
 * ends), so neither calls the other for it.
 */
#ifndef PROOFMILL_DAEMON_JOB_JSON_H
#define PROOFMILL_DAEMON_JOB_JSON_H

#include <jansson.h>

#include "daemon/daemon_internal.h"
#include "engine/engine.h"
#include "util/error.h"

/* The job's JSON answer (docs/engine.md "HTTP API"): "id" (= id, the daemon's id), "state",
 * "priority", "key", "kind", "label", "partitions", "partitions_done", "submitted_unix_ms",
 * "timings_ms" (queue, srs_load, synthesis, start, device_lock_wait, finalize, verify, total),
 * "working_set_bytes", "error" {code, message} of a failed job (a spooled inline input named by
 * its place), "proofs" (one per partition, the kind's JSON) and, for a bellperson-convention
 * kind, "proof_b64" (192 bytes per partition, as filecoin-ffi returns them). A new reference;
 * NULL when out of memory. */
json_t *daemon_job_to_json(const pm_job_info *in, const char *id);
/* An error naming a spooled inline input (STATE/spool/<id>.<i>, jobs.c) names it "inputs[i]"
 * instead: the client sent bytes, not that file. Other errors are left as they are. */
void daemon_job_name_inputs(pm_error *e);
/* "start (gpu)" or "start (cpu)": the start phase (H + G1 MSMs) and where it runs, for log lines */
const char *daemon_start_stage_name(const pm_daemon *d);

#endif
