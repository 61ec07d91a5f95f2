/*
 * job_json.c — a job as the HTTP API shows it and the journal keeps it (job_json.h): its JSON
 * answer, the place of a spooled inline input in its errors, the start stage's name.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/job_json.h"
#include "daemon/job_proof.h"
#include "util/base64.h"

json_t *daemon_job_to_json(const pm_job_info *in, const char *id) {
    /* "start": the start phase (H + G1 MSMs, on the device or the CPU) without the wait for the
     * device lock, which is "device_lock_wait" */
    json_t *j = json_pack("{s:s,s:s,s:s,s:s,s:i,s:i,s:I,s:{s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f}}", "id", id, "state",
                          pm_job_state_name(in->state), "priority", pm_priority_name(in->priority), "key",
                          in->key_path, "partitions", (int)in->n_partitions, "partitions_done",
                          (int)in->partitions_done, "submitted_unix_ms", (json_int_t)in->submit_unix_ms,
                          "timings_ms", "queue", in->t.queue_ms, "srs_load", in->t.srs_load_ms, "synthesis",
                          in->t.synth_ms, "start", in->t.gpu_ms - in->t.gpu_lock_wait_ms, "device_lock_wait",
                          in->t.gpu_lock_wait_ms, "finalize", in->t.finalize_ms, "verify", in->t.verify_ms, "total",
                          in->t.total_ms);
    if (!j) return NULL;
    json_object_set_new(j, "working_set_bytes", json_integer((json_int_t)in->working_set_bytes));
    if (in->kind[0]) json_object_set_new(j, "kind", json_string(in->kind));
    if (in->label[0]) json_object_set_new(j, "label", json_string(in->label));
    if (in->error.code != PM_OK) {
        char buf[1200];
        pm_error shown = in->error;
        daemon_job_name_inputs(&shown); /* a spooled inline input by its place, not the spool file */
        pm_error_format(&shown, buf, sizeof buf);
        json_object_set_new(j, "error", json_pack("{s:s,s:s}", "code", pm_status_name(in->error.code), "message", buf));
    }
    if (in->proofs) {
        json_t *arr = json_array();
        for (uint32_t p = 0; p < in->n_partitions; p++) {
            json_error_t je;
            json_t *pj = in->proofs[p] ? json_loads(in->proofs[p], 0, &je) : NULL;
            json_array_append_new(arr, pj ? pj : json_null());
        }
        json_object_set_new(j, "proofs", arr);
        /* a bellperson-convention kind (porep-c2, the PoSt kinds, ...): the job's proof as filecoin-ffi
         * returns it, 192 bytes per partition in order, base64 */
        uint8_t *pb;
        size_t pl;
        pm_error pe;
        if (pm_job_proof_bytes(&pb, &pl, in, &pe) == PM_OK) {
            char *b64 = pm_base64_encode_alloc(pb, pl);
            if (b64) json_object_set_new(j, "proof_b64", json_string(b64));
            free(b64);
            free(pb);
        }
    }
    return j;
}

void daemon_job_name_inputs(pm_error *e) {
    /* ".../spool/<32 hex>.<i>" -> "inputs[i]": a client sent bytes, not that file */
    const char *slash = strrchr(e->file, '/');
    if (!slash || slash - e->file < 6 || strncmp(slash - 6, "/spool", 6)) return;
    const char *dot = strchr(slash + 1, '.');
    if (!dot || dot - slash - 1 != PM_JOB_ID_LEN || !dot[1] || strspn(dot + 1, "0123456789") != strlen(dot + 1)) return;
    char n[16];
    snprintf(n, sizeof n, "%.8s", dot + 1);
    snprintf(e->file, sizeof e->file, "inputs[%s]", n);
}

const char *daemon_start_stage_name(const pm_daemon *d) { return d->cfg.gpu_devices[0] ? "start (gpu)" : "start (cpu)"; }
