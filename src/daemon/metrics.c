/*
 * metrics.c — GET /v1/status (JSON), GET /metrics (Prometheus text format 0.0.4) and GET
 * /v1/trace from the engine's status (metrics.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/metrics.h"
#include "daemon/http.h"
#include "daemon/jobs.h"
#include "util/strbuf.h"

json_t *daemon_status_json(pm_daemon *d) {
    pm_engine_status st;
    pm_engine_get_status(d->engine, &st);
    json_t *keys = json_array();
    static const char *kstate[] = {"reserved", "loading", "ready"};
    for (size_t i = 0; i < st.n_keys; i++) {
        pm_key_info *k = &st.keys[i];
        json_array_append_new(keys, json_pack("{s:s,s:s,s:s,s:b,s:i,s:I,s:f,s:I,s:I}", "kind", k->kind, "path", k->path, "state",
                                              kstate[k->state < 3 ? k->state : 0], "pinned", k->pinned, "refs",
                                              (int)k->refs, "bytes", (json_int_t)k->bytes, "idle_s", k->idle_s,
                                              "loads", (json_int_t)k->loads, "hits", (json_int_t)k->hits));
        json_t *kj = json_array_get(keys, json_array_size(keys) - 1);
        /* what it is doing now (its load, its first upload to a card), and its device-memory plan */
        json_t *act = json_null();
        if (k->activity[0]) {
            act = json_pack("{s:s,s:I,s:I}", "stage", k->activity, "done_bytes", (json_int_t)k->activity_done,
                            "total_bytes", (json_int_t)k->activity_total);
            if (act && k->activity_device >= 0) json_object_set_new(act, "device", json_integer(k->activity_device));
        }
        json_object_set_new(kj, "activity", act ? act : json_null());
        json_t *plan = json_null();
        if (k->plan.tier >= 0)
            plan = json_pack("{s:i,s:s,s:s,s:i,s:I,s:I,s:I}", "tier", k->plan.tier, "tier_name", k->plan.tier_name,
                             "streamed", k->plan.streamed, "devices", (int)k->plan.devices, "device_bytes",
                             (json_int_t)k->plan.device_bytes, "host_pinned_bytes", (json_int_t)k->plan.host_pinned_bytes,
                             "host_part_bytes", (json_int_t)k->plan.host_part_bytes);
        json_object_set_new(kj, "plan", plan ? plan : json_null());
    }
    json_t *devs = json_array();
    unsigned lock_waiting = 0, queued = st.queued[0] + st.queued[1] + st.queued[2] + st.queued[3];
    for (unsigned i = 0; i < st.n_devices; i++) {
        lock_waiting += st.device_lock_waiters[i];
        json_t *dv = json_pack("{s:i,s:s,s:b,s:i,s:f,s:i}", "id", st.devices[i], "kind",
                               d->cfg.gpu_devices[0] ? "gpu" : "cpu", "in_kernel", st.device_busy[i],
                               "lock_waiting", (int)st.device_lock_waiters[i], "kernel_ms", st.device_kernel_ms[i],
                               "workers", (int)(st.gpu_total / (st.n_devices ? st.n_devices : 1)));
        if (dv && st.device_job[i]) { /* what it works on now: the job by its daemon id */
            char id[PM_JOB_ID_LEN + 1];
            json_object_set_new(dv, "job", json_string(daemon_jobs_name_of(d, st.device_job[i], id, sizeof id)));
            json_object_set_new(dv, "job_kind", json_string(st.device_kind[i]));
            json_object_set_new(dv, "partition", json_integer(st.device_partition[i]));
        }
        json_array_append_new(devs, dv);
    }
    json_t *kinds = json_object(); /* jobs in flight per proof kind */
    for (size_t i = 0; i < st.n_kinds; i++)
        json_object_set_new(kinds, st.kinds[i].kind,
                            json_pack("{s:i,s:i}", "queued", (int)st.kinds[i].queued, "running", (int)st.kinds[i].running));
    /* "start": the start-phase workers (H + G1 MSMs on the device, or on the CPU when gpu.devices
     * is empty); "waiting": work waiting at every stage (jobs for admission, partitions for a
     * stage's workers, workers for the device lock), so back-pressure sees a busy daemon (#17) */
    json_t *j = json_pack(
        "{s:s,s:s,s:f,s:{s:{s:i,s:i,s:i,s:i},s:i,s:I,s:I,s:I,s:I,s:I},s:{s:{s:i,s:i},s:{s:i,s:i},s:{s:i,s:i}},"
        "s:{s:i,s:i,s:i},s:{s:i,s:i,s:i,s:i,s:i},s:o,s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I},s:o}",
        "backend", d->backend.name, "start_phase_on", d->cfg.gpu_devices[0] ? "gpu" : "cpu", "uptime_s", st.uptime_s,
        "jobs", "queued", "low", st.queued[0], "normal",
        st.queued[1], "high", st.queued[2], "critical", st.queued[3], "running", st.running, "submitted",
        (json_int_t)st.submitted, "done", (json_int_t)st.done, "failed", (json_int_t)st.failed, "cancelled",
        (json_int_t)st.cancelled, "verify_failures", (json_int_t)st.verify_failures, "workers", "synthesis", "busy",
        st.synth_busy, "total", st.synth_total, "start", "busy", st.gpu_busy, "total", st.gpu_total, "finalize",
        "busy", st.fin_busy, "total", st.fin_total, "queues", "synthesis", st.synth_queue, "start", st.gpu_queue,
        "finalize", st.fin_queue, "waiting", "admission", queued, "synthesis", st.synth_queue, "start", st.gpu_queue,
        "device_lock", lock_waiting, "finalize", st.fin_queue, "devices", devs, "memory", "budget_bytes",
        (json_int_t)st.budget_bytes, "reserved_bytes", (json_int_t)st.reserved_bytes, "reserved_peak_bytes",
        (json_int_t)st.reserved_peak_bytes, "queued_inline_bytes", (json_int_t)st.queued_inline_bytes,
        "max_queued_inline_bytes", (json_int_t)st.max_queued_inline_bytes, "rss_bytes", (json_int_t)st.rss_bytes,
        "rss_peak_bytes", (json_int_t)st.rss_peak_bytes, "keys", keys);
    if (j) json_object_set_new(j, "durable", json_boolean(daemon_jobs_durable(d)));
    /* with a journal, inline inputs are spooled to disk under the daemon's own bound (the engine's
     * in-memory bound does not apply to them) */
    uint64_t held, limit;
    if (j && daemon_jobs_spool_use(d, &held, &limit)) {
        json_t *mem = json_object_get(j, "memory");
        json_object_set_new(mem, "queued_inline_bytes", json_integer((json_int_t)held));
        json_object_set_new(mem, "max_queued_inline_bytes", json_integer((json_int_t)limit));
    }
    json_object_set_new(json_object_get(j, "jobs"), "kinds", kinds);
    pm_engine_status_free(&st);
    return j;
}

char *daemon_metrics_text(pm_daemon *d) {
    pm_engine_status st;
    pm_engine_get_status(d->engine, &st);
    pm_strbuf b = {0};
#define M(...) pm_sb_printf(&b, __VA_ARGS__)
    M("# HELP proofmill_jobs_submitted_total Jobs accepted by the engine.\n# TYPE proofmill_jobs_submitted_total counter\n");
    M("proofmill_jobs_submitted_total %" PRIu64 "\n", st.submitted);
    M("# HELP proofmill_jobs_finished_total Jobs that reached a final state.\n# TYPE proofmill_jobs_finished_total counter\n");
    M("proofmill_jobs_finished_total{state=\"done\"} %" PRIu64 "\n", st.done);
    M("proofmill_jobs_finished_total{state=\"failed\"} %" PRIu64 "\n", st.failed);
    M("proofmill_jobs_finished_total{state=\"cancelled\"} %" PRIu64 "\n", st.cancelled);
    M("# HELP proofmill_verify_failures_total Assembled proofs that failed verification (engine errors).\n"
      "# TYPE proofmill_verify_failures_total counter\nproofmill_verify_failures_total %" PRIu64 "\n",
      st.verify_failures);
    M("# HELP proofmill_proof_seconds Done jobs by seconds from submit to done (queue, proving, verification), "
      "per proof kind.\n# TYPE proofmill_proof_seconds histogram\n");
    for (size_t i = 0; i < st.n_proof_hist; i++) {
        const pm_proof_hist *h = &st.proof_hist[i];
        const char *kind = h->kind[0] ? h->kind : "default";
        for (int bi = 0; bi < PM_PROOF_HIST_BUCKETS - 1; bi++)
            M("proofmill_proof_seconds_bucket{kind=\"%s\",le=\"%g\"} %" PRIu64 "\n", kind, pm_proof_hist_le[bi], h->bucket[bi]);
        M("proofmill_proof_seconds_bucket{kind=\"%s\",le=\"+Inf\"} %" PRIu64 "\n", kind, h->bucket[PM_PROOF_HIST_BUCKETS - 1]);
        M("proofmill_proof_seconds_sum{kind=\"%s\"} %.6f\nproofmill_proof_seconds_count{kind=\"%s\"} %" PRIu64 "\n", kind,
          h->sum_s, kind, h->count);
    }
    M("# HELP proofmill_jobs_queued Jobs waiting for admission.\n# TYPE proofmill_jobs_queued gauge\n");
    static const char *pn[] = {"low", "normal", "high", "critical"};
    for (int i = 0; i < 4; i++) M("proofmill_jobs_queued{priority=\"%s\"} %u\n", pn[i], st.queued[i]);
    M("# HELP proofmill_jobs_running Jobs admitted and not finished.\n# TYPE proofmill_jobs_running gauge\n"
      "proofmill_jobs_running %u\n", st.running);
    M("# HELP proofmill_kind_jobs Jobs queued or running per proof kind.\n# TYPE proofmill_kind_jobs gauge\n");
    for (size_t i = 0; i < st.n_kinds; i++)
        M("proofmill_kind_jobs{kind=\"%s\",state=\"queued\"} %u\nproofmill_kind_jobs{kind=\"%s\",state=\"running\"} %u\n",
          st.kinds[i].kind, st.kinds[i].queued, st.kinds[i].kind, st.kinds[i].running);
    M("# HELP proofmill_workers_busy Workers in a stage now.\n# TYPE proofmill_workers_busy gauge\n");
    M("proofmill_workers_busy{pool=\"synthesis\"} %u\nproofmill_workers_busy{pool=\"start\"} %u\n"
      "proofmill_workers_busy{pool=\"finalize\"} %u\n", st.synth_busy, st.gpu_busy, st.fin_busy);
    M("# HELP proofmill_workers Workers per pool.\n# TYPE proofmill_workers gauge\n");
    M("proofmill_workers{pool=\"synthesis\"} %u\nproofmill_workers{pool=\"start\"} %u\n"
      "proofmill_workers{pool=\"finalize\"} %u\n", st.synth_total, st.gpu_total, st.fin_total);
    M("# HELP proofmill_stage_queue_length Partitions waiting for a stage.\n# TYPE proofmill_stage_queue_length gauge\n");
    M("proofmill_stage_queue_length{stage=\"synthesis\"} %u\nproofmill_stage_queue_length{stage=\"start\"} %u\n"
      "proofmill_stage_queue_length{stage=\"finalize\"} %u\n", st.synth_queue, st.gpu_queue, st.fin_queue);
    unsigned lw = 0;
    for (unsigned i = 0; i < st.n_devices; i++) lw += st.device_lock_waiters[i];
    M("# HELP proofmill_device_lock_waiting Start-phase workers waiting for a device's lock.\n"
      "# TYPE proofmill_device_lock_waiting gauge\nproofmill_device_lock_waiting %u\n", lw);
    M("# HELP proofmill_stage_seconds_total Time spent per stage, summed over partitions.\n"
      "# TYPE proofmill_stage_seconds_total counter\n");
    M("proofmill_stage_seconds_total{stage=\"queue\"} %.6f\nproofmill_stage_seconds_total{stage=\"synthesis\"} %.6f\n"
      "proofmill_stage_seconds_total{stage=\"start\"} %.6f\nproofmill_stage_seconds_total{stage=\"finalize\"} %.6f\n",
      st.total_queue_ms / 1e3, st.total_synth_ms / 1e3, st.total_gpu_ms / 1e3, st.total_finalize_ms / 1e3);
    M("# HELP proofmill_device_kernel_seconds_total Time a worker held the device's kernel lock.\n"
      "# TYPE proofmill_device_kernel_seconds_total counter\n");
    for (unsigned i = 0; i < st.n_devices; i++)
        M("proofmill_device_kernel_seconds_total{device=\"%d\"} %.6f\n", st.devices[i], st.device_kernel_ms[i] / 1e3);
    M("# HELP proofmill_memory_budget_bytes Engine memory budget.\n# TYPE proofmill_memory_budget_bytes gauge\n"
      "proofmill_memory_budget_bytes %" PRIu64 "\n", st.budget_bytes);
    M("# HELP proofmill_memory_reserved_bytes Bytes reserved by keys and jobs now.\n"
      "# TYPE proofmill_memory_reserved_bytes gauge\nproofmill_memory_reserved_bytes %" PRIu64 "\n",
      st.reserved_bytes);
    M("# HELP proofmill_memory_reserved_peak_bytes Highest reservation since start.\n"
      "# TYPE proofmill_memory_reserved_peak_bytes gauge\nproofmill_memory_reserved_peak_bytes %" PRIu64 "\n",
      st.reserved_peak_bytes);
    M("# HELP proofmill_process_resident_bytes Resident set size (/proc/self/status VmRSS).\n"
      "# TYPE proofmill_process_resident_bytes gauge\nproofmill_process_resident_bytes %" PRIu64 "\n", st.rss_bytes);
    M("# HELP proofmill_process_resident_peak_bytes Peak resident set size (VmHWM).\n"
      "# TYPE proofmill_process_resident_peak_bytes gauge\nproofmill_process_resident_peak_bytes %" PRIu64 "\n",
      st.rss_peak_bytes);
    uint64_t kb = 0;
    for (size_t i = 0; i < st.n_keys; i++) kb += st.keys[i].bytes;
    M("# HELP proofmill_keys_cached Proving keys in the SRS cache.\n# TYPE proofmill_keys_cached gauge\n"
      "proofmill_keys_cached %zu\n", st.n_keys);
    M("# HELP proofmill_keys_bytes Bytes charged for cached keys.\n# TYPE proofmill_keys_bytes gauge\n"
      "proofmill_keys_bytes %" PRIu64 "\n", kb);
    M("# HELP proofmill_http_requests_total HTTP requests answered.\n# TYPE proofmill_http_requests_total counter\n"
      "proofmill_http_requests_total %llu\n", (unsigned long long)atomic_load(&d->http_requests));
    M("# HELP proofmill_http_errors_total HTTP answers with status >= 400.\n# TYPE proofmill_http_errors_total counter\n"
      "proofmill_http_errors_total %llu\n", (unsigned long long)atomic_load(&d->http_errors));
    M("# HELP proofmill_uptime_seconds Seconds since the engine started.\n# TYPE proofmill_uptime_seconds gauge\n"
      "proofmill_uptime_seconds %.3f\n", st.uptime_s);
#undef M
    pm_engine_status_free(&st);
    return pm_sb_take(&b);
}

enum MHD_Result daemon_h_status(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *rest,
                                const req_t *rq, int arg) {
    return daemon_send_json(d, c, 200, daemon_status_json(d));
}

enum MHD_Result daemon_h_metrics(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *rest,
                                 const req_t *rq, int arg) {
    char *t = daemon_metrics_text(d);
    if (!t) return daemon_send_error(d, c, 500, "out-of-memory", "out of memory");
    return daemon_send_text(c, 200, t, "text/plain; version=0.0.4");
}

enum MHD_Result daemon_h_trace(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *rest,
                               const req_t *rq, int arg) {
    char *t = pm_engine_trace_json(d->engine);
    if (!t) return daemon_send_error(d, c, 404, "trace-off", "tracing is off (trace.enabled = false)");
    return daemon_send_text(c, 200, t, "application/json");
}
