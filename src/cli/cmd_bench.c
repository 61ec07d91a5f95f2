/*
 * cmd_bench.c — `proofmill bench`: throughput / latency of the proving engine, in process
 * (--embedded, the default) or against a running daemon (--daemon URL).
 *
 *   proofmill bench single|batch --key K.zkey --witness W.wtns [--witness W2 ...] [-c N] [-j J]
 *   proofmill bench single|batch --kind porep-c2 --c1 C1.json [--c1 C1b.json ...] --params DIR [-c N] [-j J]
 *   proofmill bench single|batch --kind winning-post|window-post|snapdeals --request REQ.json --params DIR ...
 *       (--request: a Filecoin request file, as `proofmill <kind> gen` writes it; every job proves
 *       its vanilla proofs and fields, filecoin/proof_request.h)
 *       (--kind K: any proof kind, kinds/kind.h; --type porep | groth16: the older spelling)
 *       [--partitions P] [--priority P] [--inline] [--daemon http://HOST:PORT | unix:/path | --embedded]
 *       [--gpu] [--synthesis-workers N] [--devices N] [--gpu-workers N] [--finalize-threads N]
 *       [--msm-threads N] [--budget BYTES] [--trace out.json] [--timeline out.svg] [--token-file F]
 *
 * --gpu (embedded): the CUDA start phase on devices 0..N-1 (--devices N), for every kind (operations
 * without a kernel run on the CPU); default the CPU backend.
 * single = one proof (c = j = 1). batch = c proofs (default 10), j clients at a time (default 2);
 * proof i uses the witnesses in turn (P of them per job when --partitions P). Each completion prints
 *     [3/20] done 12.41 s (start 1830 ms, queue 210 ms)
 * (start: the start phase, H + G1 MSMs on the device or the CPU, without the device lock wait)
 * a progress line goes to stderr every 5 s, and the summary gives total wall time, proofs/min,
 * s/proof, the steady rate (with more than j proofs: from the j-th completion to the last, without
 * the key load and the pipeline's fill) and avg/min/max of wall, gpu and queue time, then the device
 * side: kernel-region time per partition and the devices' busy fraction (the engine's kernel-region
 * counters before and after the run, over devices x wall), the peak host RSS (this process, or the
 * daemon's since it started) and, embedded on the GPU, the cards' peak used memory (sampled every
 * 0.2 s). --trace
 * writes the engine's Chrome trace (daemon: GET /v1/trace, needs trace.enabled), --timeline an SVG
 * of it (one row per worker; of a daemon, only the bench's own window). With the daemon's tracing
 * off the results stand and a line says why there is no picture. Over TCP the daemon's API token is read from --token-file F,
 * $PROOFMILL_TOKEN_FILE or the default state directory (~/.local/state/proofmill/http.token).
 * Exit: 0 when every proof succeeded, 1 when some failed, 2 on usage errors.
 */
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/opts.h"
#include "daemon/client.h"
#include "daemon/config.h"
#include "daemon/timeline.h"
#include "engine/engine_build.h"
#include "filecoin/proof_request.h"
#include "kinds/filecoin/vanilla_kind.h"
#include "kinds/kind.h"
#include "util/settings.h"
#include "util/base64.h"
#include "util/file.h"
#include "util/outfile.h"
#include "util/clock.h"
#ifdef PROOFMILL_HAVE_GPU
#include "gpu/gpu.h"
#endif

#define MAX_WITNESSES 256

typedef struct {
    double wall_ms, gpu_ms, queue_ms, synth_ms, fin_ms;
    double done_s; /* completion, seconds after the bench's start */
    unsigned parts; /* the job's partitions */
    int ok;
} result_t;

typedef struct {
    /* options */
    const char *key;
    const char *witness[MAX_WITNESSES];
    int n_witness;
    int count, conc, partitions, inline_wtns;
    pm_priority prio;
    int prio_given; /* --priority; else the kind's default priority (kind.h), else normal */
    const char *daemon;
    const char *trace_out, *svg_out;
    const char *token_file;
    double win_from_us, win_to_us; /* the bench's window of a daemon's trace clock (0: all) */
    /* embedded engine */
    pm_engine *engine;
    /* shared state */
    pthread_mutex_t mu;
    int next, done, failed, running;
    result_t *res;
    double t0;
    int stop_monitor;
    int sample_device;      /* embedded engine on the GPU: the monitor samples the cards' used memory */
    double dev_peak_bytes;  /* its maximum (sum over the cards; -1: not sampled) */
    pthread_cond_t cv;
    unsigned plans_shown;   /* keys whose device-memory plan the monitor printed (the first 32) */
    char plan_seen[32][96]; /* their "kind path" (monitor thread only) */
    char **b64; /* inline inputs (daemon mode) */
    /* the proof kind (--kind, --type porep): its inputs are witness[] (one per partition for a kind
     * of several inputs, one per job otherwise); the key is --key or the kind's in --params DIR */
    const pm_kind *kind;
    const char *params_dir;
    /* --request: every job's inputs (the request's vanilla proofs and fields; bytes in req, req_store) */
    const char *request;
    fil_proof_request_t req;
    pm_input *req_in;
    size_t req_n;
    uint8_t *req_store;
    char **req_b64; /* daemon mode: req_in[i]'s bytes in base64 */
} bench_t;

/* the whole file at path (NULL when unreadable) */
static unsigned char *slurp(const char *path, size_t *len) {
    char *b = NULL;
    return pm_file_read_all(&b, len, path, 0, 0, NULL) == PM_OK ? (unsigned char *)b : NULL;
}

/* One proof through the embedded engine. */
/* the engine builder's line (what it chose and why), on stdout */
static void engine_line(void *arg, const char *line) {
    (void)arg;
    printf("%s\n", line);
}

static void prove_embedded(bench_t *b, int i, result_t *r, char *err_out, size_t nerr) {
    pm_input in[64];
    size_t len[64];
    unsigned char *bytes[64] = {0};
    int np = b->req_in ? 0 : b->partitions; /* inputs of one job */
    for (int p = 0; p < np; p++) {
        const char *w = b->witness[(i * np + p) % b->n_witness];
        if (b->inline_wtns) {
            bytes[p] = slurp(w, &len[p]);
            in[p] = (pm_input){.kind = PM_INPUT_BYTES, .bytes = bytes[p], .len = bytes[p] ? len[p] : 0};
        } else {
            in[p] = (pm_input){.kind = PM_INPUT_PATH, .path = w};
        }
    }
    pm_job_spec spec = {.kind = b->kind->name, .key_path = b->key, .params_dir = b->params_dir, .priority = b->prio,
                        .inputs = b->req_in ? b->req_in : in, .n_inputs = b->req_in ? b->req_n : (size_t)np};
    uint64_t id;
    pm_error err;
    pm_error_clear(&err);
    pm_status st = pm_engine_submit(b->engine, &spec, &id, &err);
    for (int p = 0; p < np; p++) free(bytes[p]);
    if (st != PM_OK) {
        pm_error_format(&err, err_out, (unsigned)nerr);
        return;
    }
    pm_job_info info;
    if (pm_engine_wait(b->engine, id, -1, &info) != PM_OK) {
        snprintf(err_out, nerr, "job vanished");
        return;
    }
    r->gpu_ms = info.t.gpu_ms - info.t.gpu_lock_wait_ms; /* the start phase without the device lock wait */
    r->parts = info.n_partitions;
    r->queue_ms = info.t.queue_ms;
    r->synth_ms = info.t.synth_ms;
    r->fin_ms = info.t.finalize_ms;
    if (info.state == PM_JOB_DONE) r->ok = 1;
    else pm_error_format(&info.error, err_out, (unsigned)nerr);
    pm_job_info_free(&info);
}

/* One proof through the daemon (POST /v1/prove, then long-poll if it outlives the wait). */
static void prove_daemon(bench_t *b, int i, result_t *r, char *err_out, size_t nerr) {
    json_t *inputs = json_array();
    char b64name[64];
    snprintf(b64name, sizeof b64name, "%s_b64", b->kind->input_name);
    for (size_t q = 0; b->req_in && q < b->req_n; q++) { /* --request: {"<input>_b64": ...} each */
        char name[96];
        snprintf(name, sizeof name, "%s_b64", b->req_in[q].name ? b->req_in[q].name : b->kind->input_name);
        json_array_append_new(inputs, json_pack("{s:s}", name, b->req_b64[q]));
    }
    for (int p = 0; !b->req_in && p < b->partitions; p++) {
        int wi = (i * b->partitions + p) % b->n_witness;
        json_array_append_new(inputs, b->inline_wtns ? json_pack("{s:s}", b64name, b->b64[wi])
                                                     : json_pack("{s:s}", b->kind->input_name, b->witness[wi]));
    }
    json_t *body = json_pack("{s:s,s:o}", "kind", b->kind->name, "inputs", inputs);
    if (body && b->prio_given) /* else the daemon's default: the kind's (WinningPoSt critical) or normal */
        json_object_set_new(body, "priority", json_string(pm_priority_name(b->prio)));
    if (body) json_object_set_new(body, b->key ? "key" : "params_dir", json_string(b->key ? b->key : b->params_dir));
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    int status = 0;
    char *resp = NULL;
    size_t rlen = 0;
    pm_error err;
    pm_error_clear(&err);
    pm_status st = text ? pm_http_call(b->daemon, "POST", "/v1/prove", text, strlen(text), 0, &status, &resp, &rlen, &err)
                        : PM_ERR_NOMEM;
    free(text);
    json_t *j = NULL;
    for (;;) {
        if (st != PM_OK) {
            pm_error_format(&err, err_out, (unsigned)nerr);
            free(resp);
            return;
        }
        json_error_t je;
        json_decref(j);
        j = json_loads(resp, 0, &je);
        free(resp);
        resp = NULL;
        if (!j) {
            snprintf(err_out, nerr, "HTTP %d: not JSON", status);
            return;
        }
        const char *state = json_string_value(json_object_get(j, "state"));
        if (status == 202 && state && (!strcmp(state, "running") || !strcmp(state, "queued"))) {
            char path[128];
            snprintf(path, sizeof path, "/v1/jobs/%s?wait=60", json_string_value(json_object_get(j, "id")));
            st = pm_http_call(b->daemon, "GET", path, NULL, 0, 0, &status, &resp, &rlen, &err);
            continue;
        }
        break;
    }
    json_t *job = json_object_get(j, "job") ? json_object_get(j, "job") : j;
    json_t *t = json_object_get(job, "timings_ms");
    r->gpu_ms = json_number_value(json_object_get(t, "start")); /* the start phase without the device lock wait */
    r->parts = (unsigned)json_integer_value(json_object_get(job, "partitions"));
    r->queue_ms = json_number_value(json_object_get(t, "queue"));
    r->synth_ms = json_number_value(json_object_get(t, "synthesis"));
    r->fin_ms = json_number_value(json_object_get(t, "finalize"));
    const char *state = json_string_value(json_object_get(job, "state"));
    if (status == 200 && state && !strcmp(state, "done")) {
        r->ok = 1;
    } else {
        json_t *e = json_object_get(j, "error");
        snprintf(err_out, nerr, "HTTP %d: %s: %s", status, json_string_value(json_object_get(e, "code")) ?: "?",
                 json_string_value(json_object_get(e, "message")) ?: "?");
    }
    json_decref(j);
}

static void *client_main(void *arg) {
    bench_t *b = arg;
    for (;;) {
        pthread_mutex_lock(&b->mu);
        if (b->next >= b->count) {
            pthread_mutex_unlock(&b->mu);
            return NULL;
        }
        int i = b->next++;
        b->running++;
        pthread_mutex_unlock(&b->mu);
        result_t r = {0};
        char emsg[1400] = "";
        double t = pm_now_s();
        if (b->daemon) prove_daemon(b, i, &r, emsg, sizeof emsg);
        else prove_embedded(b, i, &r, emsg, sizeof emsg);
        r.wall_ms = (pm_now_s() - t) * 1e3;
        r.done_s = pm_now_s() - b->t0;
        pthread_mutex_lock(&b->mu);
        b->running--;
        b->res[i] = r;
        int k = ++b->done;
        if (!r.ok) b->failed++;
        if (r.ok)
            printf("[%d/%d] done %.2f s (start %.0f ms, queue %.0f ms)\n", k, b->count, r.wall_ms / 1e3, r.gpu_ms, r.queue_ms);
        else
            printf("[%d/%d] FAILED %.1f s: %s\n", k, b->count, r.wall_ms / 1e3, emsg);
        fflush(stdout);
        pthread_cond_broadcast(&b->cv);
        pthread_mutex_unlock(&b->mu);
    }
}

/* Bytes in use on every card (device memory of all processes: cudaMemGetInfo), -1 without one. */
static double device_used_bytes(void) {
#ifdef PROOFMILL_HAVE_GPU
    const int n = gpu_available();
    double used = 0;
    for (int d = 0; d < n; d++) {
        gpu_device_info_t di;
        if (gpu_device_info(&di, d, NULL) != PM_OK) return -1;
        used += (double)(di.mem_total - di.mem_free);
    }
    return n > 0 ? used : -1;
#else
    return -1;
#endif
}

/* The keys of the engine (embedded) or daemon (GET /v1/status: keys[].activity, .plan) for the
 * progress line: *out = the first key's activity ("loading key porep-c2: reading the parameters
 * 21.0/47.0 GB", "key porep-c2: uploading to GPU 0 3.1/35.0 GB"; "" when no key is busy); each
 * key's device-memory plan is printed once, when it is first seen. Monitor thread only. */
/* The daemon's GET /v1/status as JSON (NULL when it does not answer 200 within timeout_s). */
static json_t *daemon_status(const bench_t *b, int timeout_s) {
    int status = 0;
    char *resp = NULL;
    size_t len;
    pm_error err;
    pm_error_clear(&err);
    json_t *j = NULL;
    if (pm_http_call(b->daemon, "GET", "/v1/status", NULL, 0, timeout_s, &status, &resp, &len, &err) == PM_OK &&
        status == 200) {
        json_error_t je;
        j = json_loads(resp, 0, &je);
    }
    free(resp);
    return j;
}

static const char *jstr(const json_t *v) { return json_is_string(v) ? json_string_value(v) : ""; }

static void key_activity(bench_t *b, char *out, size_t cap) {
    out[0] = 0;
    pm_key_info *keys = NULL;
    size_t n = 0;
    pm_engine_status st = {0};
    json_t *j = NULL;
    if (b->engine) {
        pm_engine_get_status(b->engine, &st);
        keys = st.keys, n = st.n_keys;
    } else {
        j = daemon_status(b, 10);
        json_t *ka = json_object_get(j, "keys"), *kj;
        size_t i;
        if (json_is_array(ka) && (keys = calloc(json_array_size(ka) + 1, sizeof *keys))) {
            json_array_foreach(ka, i, kj) {
                pm_key_info *k = &keys[n++];
                snprintf(k->kind, sizeof k->kind, "%s", jstr(json_object_get(kj, "kind")));
                snprintf(k->path, sizeof k->path, "%s", jstr(json_object_get(kj, "path")));
                k->state = strcmp(jstr(json_object_get(kj, "state")), "loading") == 0 ? 1 : 2;
                json_t *a = json_object_get(kj, "activity"), *p = json_object_get(kj, "plan");
                k->activity_device = -1;
                if (json_is_object(a)) {
                    snprintf(k->activity, sizeof k->activity, "%s", jstr(json_object_get(a, "stage")));
                    k->activity_done = (uint64_t)json_integer_value(json_object_get(a, "done_bytes"));
                    k->activity_total = (uint64_t)json_integer_value(json_object_get(a, "total_bytes"));
                    if (json_is_integer(json_object_get(a, "device")))
                        k->activity_device = (int)json_integer_value(json_object_get(a, "device"));
                }
                k->plan.tier = -1;
                if (json_is_object(p)) {
                    k->plan.tier = (int)json_integer_value(json_object_get(p, "tier"));
                    snprintf(k->plan.tier_name, sizeof k->plan.tier_name, "%s", jstr(json_object_get(p, "tier_name")));
                    snprintf(k->plan.streamed, sizeof k->plan.streamed, "%s", jstr(json_object_get(p, "streamed")));
                    k->plan.devices = (unsigned)json_integer_value(json_object_get(p, "devices"));
                    k->plan.device_bytes = (uint64_t)json_integer_value(json_object_get(p, "device_bytes"));
                }
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        const pm_key_info *k = &keys[i];
        char what[160];
        if (!out[0] && k->activity[0])
            snprintf(out, cap, "%skey %s: %s", k->state == 1 ? "loading " : "", k->kind,
                     pm_key_activity_format(what, sizeof what, k));
        if (k->plan.tier < 0) continue;
        char id[96];
        snprintf(id, sizeof id, "%.31s %.60s", k->kind, k->path);
        unsigned seen = 0;
        for (unsigned s2 = 0; s2 < b->plans_shown && !seen; s2++) seen = !strcmp(b->plan_seen[s2], id);
        if (seen || b->plans_shown >= 32) continue;
        memcpy(b->plan_seen[b->plans_shown++], id, sizeof id);
        fprintf(stderr, "key %s: device-memory plan %s\n", k->kind, pm_key_plan_format(what, sizeof what, &k->plan));
    }
    if (b->engine) pm_engine_status_free(&st);
    else free(keys);
    json_decref(j);
}

/* progress every 5 s (and what a loading key is doing); with sample_device the cards' used memory
 * every 0.2 s (its peak) */
static void *monitor_main(void *arg) {
    bench_t *b = arg;
    pthread_mutex_lock(&b->mu);
    double next_progress = 5;
    while (!b->stop_monitor) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        const long step_ns = b->sample_device ? 200000000L : 1000000000L;
        ts.tv_nsec += step_ns;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&b->cv, &b->mu, &ts);
        if (b->stop_monitor) break;
        if (b->sample_device) {
            pthread_mutex_unlock(&b->mu);
            const double u = device_used_bytes();
            pthread_mutex_lock(&b->mu);
            if (u > b->dev_peak_bytes) b->dev_peak_bytes = u;
        }
        double el = pm_now_s() - b->t0;
        if (el >= next_progress) {
            next_progress = el + 5;
            char act[256];
            pthread_mutex_unlock(&b->mu);
            key_activity(b, act, sizeof act);
            pthread_mutex_lock(&b->mu);
            fprintf(stderr, "progress: %d/%d done (%d failed), %d in flight, %.1f s elapsed, %.2f proofs/min%s%s\n", b->done,
                    b->count, b->failed, b->running, el, b->done ? 60.0 * (b->done - b->failed) / el : 0.0,
                    act[0] ? "; " : "", act);
        }
    }
    pthread_mutex_unlock(&b->mu);
    return NULL;
}

/* The engine's counters: its devices' cumulative time inside the kernel region (ms, summed), the
 * number of devices, and its process's peak RSS (bytes: the embedded engine's is this process, a
 * daemon's its own since it started), from pm_engine_get_status or the daemon's GET /v1/status.
 * Returns -1 when they cannot be read (a daemon that does not answer). */
static int engine_counters(bench_t *b, double *kernel_ms, unsigned *devices, double *rss_peak) {
    *kernel_ms = 0;
    *devices = 0;
    *rss_peak = -1;
    if (b->engine) {
        pm_engine_status st;
        pm_engine_get_status(b->engine, &st);
        for (unsigned i = 0; i < st.n_devices; i++) *kernel_ms += st.device_kernel_ms[i];
        *devices = st.n_devices;
        *rss_peak = (double)st.rss_peak_bytes;
        pm_engine_status_free(&st);
        return 0;
    }
    int rc = -1;
    json_t *j = daemon_status(b, 30);
    if (j) {
        json_t *devs = json_object_get(j, "devices"), *dv;
        size_t i;
        if (json_is_array(devs)) {
            json_array_foreach(devs, i, dv) *kernel_ms += json_number_value(json_object_get(dv, "kernel_ms"));
            *devices = (unsigned)json_array_size(devs);
            rc = 0;
        }
        json_t *peak = json_object_get(json_object_get(j, "memory"), "rss_peak_bytes");
        if (json_is_integer(peak)) *rss_peak = (double)json_integer_value(peak);
        json_decref(j);
    }
    return rc;
}

/* The device side of the run: kernel-region time per partition and the devices' busy fraction
 * (kernel-region time over devices x wall), from the engine's counters before and after; peak
 * host RSS and (embedded on the GPU) the cards' peak used memory. */
static void device_report(const bench_t *b, double k0, double k1, unsigned devices, double rss_peak, double wall,
                          int daemon) {
    unsigned parts = 0;
    for (int i = 0; i < b->count; i++)
        if (b->res[i].ok) parts += b->res[i].parts;
    const double dk = k1 - k0;
    if (parts && devices && wall > 0)
        printf("kernel region: %.1f ms per partition (%u partitions, %.1f s on %u device(s)); devices busy %.2f of the "
               "%.2f s wall\n",
               dk / parts, parts, dk / 1e3, devices, dk / 1e3 / (devices * wall), wall);
    if (rss_peak >= 0)
        printf("peak host RSS %.2f GiB (%s)", rss_peak / 1073741824.0,
               daemon ? "the daemon's, since it started" : "this process");
    if (b->dev_peak_bytes >= 0)
        printf("%speak device memory %.2f GiB (all processes, sampled every 0.2 s)", rss_peak >= 0 ? ", " : "",
               b->dev_peak_bytes / 1073741824.0);
    if (rss_peak >= 0 || b->dev_peak_bytes >= 0) printf("\n");
}

static void stats(const char *name, const result_t *res, int n, size_t off) {
    double sum = 0, mn = 0, mx = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (!res[i].ok) continue;
        double v = *(const double *)((const char *)&res[i] + off);
        sum += v;
        if (!k || v < mn) mn = v;
        if (!k || v > mx) mx = v;
        k++;
    }
    if (k) printf("  %-9s avg %9.1f ms   min %9.1f ms   max %9.1f ms\n", name, sum / k, mn, mx);
}

static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The steady rate: the interval from the conc-th successful completion to the last over the proofs
 * completed in it, so the key load, the device upload and the pipeline's fill (all in the first
 * round of conc proofs, started together) are left out. Printed only with more than conc proofs. */
static void steady(const result_t *res, int n, int conc) {
    double *t = malloc(sizeof *t * (size_t)(n ? n : 1));
    int k = 0;
    for (int i = 0; t && i < n; i++)
        if (res[i].ok) t[k++] = res[i].done_s;
    if (t && k > conc) {
        qsort(t, (size_t)k, sizeof *t, cmp_double);
        const double dt = t[k - 1] - t[conc - 1];
        const int m = k - conc;
        printf("steady: %.2f s/proof, %.2f proofs/min over the last %d of %d completions (from completion %d at "
               "%.2f s to %.2f s: the key load and the pipeline fill left out)\n",
               dt / m, dt > 0 ? 60.0 * m / dt : 0.0, m, k, conc, t[conc - 1], t[k - 1]);
    }
    free(t);
}

/* the daemon's uptime (s) from /v1/status: its trace's clock, to cut the bench's own window out */
static double daemon_uptime_s(const bench_t *b) {
    json_t *j = daemon_status(b, 30);
    double u = json_is_number(json_object_get(j, "uptime_s")) ? json_number_value(json_object_get(j, "uptime_s")) : -1;
    json_decref(j);
    return u;
}

static int write_trace(bench_t *b) {
    char *trace = NULL;
    if (b->daemon) {
        int status = 0;
        size_t len;
        pm_error err;
        pm_error_clear(&err);
        pm_status st = pm_http_call(b->daemon, "GET", "/v1/trace", NULL, 0, 30, &status, &trace, &len, &err);
        if (st != PM_OK || status != 200) {
            /* the results above stand; only the picture is missing (#17) */
            char eb[1200];
            printf("no %s%s%s: %s\n", b->trace_out ? "trace" : "", b->trace_out && b->svg_out ? " or " : "",
                   b->svg_out ? "timeline" : "",
                   st != PM_OK ? pm_error_format(&err, eb, sizeof eb)
                   : status == 404 ? "the daemon's tracing is off (set trace.enabled = true and restart it)"
                                   : "the daemon refused GET /v1/trace");
            free(trace);
            return 0;
        }
    } else {
        trace = pm_engine_trace_json(b->engine);
    }
    if (!trace) return -1;
    int rc = 0;
    pm_error err;
    pm_error_clear(&err);
    if (b->trace_out) {
        if (pm_write_file(b->trace_out, trace, strlen(trace), &err) != PM_OK) {
            pm_cli_fail(&err);
            rc = -1;
        } else {
            printf("trace: %s (open in chrome://tracing or ui.perfetto.dev)\n", b->trace_out);
        }
    }
    if (b->svg_out) {
        pm_outfile o;
        pm_status st = pm_outfile_open(&o, b->svg_out, &err);
        /* against a daemon: only the bench's own window of its trace (the daemon's uptime at the
         * bench's start and end), not the daemon's whole history */
        if (!st && (st = pm_timeline_svg_window(o.f, trace, "proofmill bench", b->win_from_us, b->win_to_us, &err)) != PM_OK)
            pm_outfile_abort(&o);
        else if (!st) st = pm_outfile_commit(&o, &err);
        if (st) {
            pm_cli_fail(&err);
            rc = -1;
        } else {
            printf("timeline: %s\n", b->svg_out);
        }
    }
    free(trace);
    return rc;
}

static int parse_uint(const char *s, unsigned *out) {
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (end == s || *end || v > 1u << 20) return -1;
    *out = (unsigned)v;
    return 0;
}

#define BENCH_USAGE                                                                                \
    "bench single|batch (--key K.zkey | --kind K --params DIR) (--witness W [--witness W2 ...] | --request R)\n"      \
    "                       [-c N] [-j J]\n"                                                              \
    "                       [--partitions P] [--priority P] [--inline] [--daemon URL | --embedded] [--gpu]\n"        \
    "                       [--synthesis-workers N] [--devices N] [--gpu-workers N] [--finalize-threads N]\n"        \
    "                       [--msm-threads N] [--budget BYTES] [--trace out.json] [--timeline out.svg]\n"      \
    "                       [--token-file F]"

static int cmd_bench(int argc, char **argv) {
    int single = argc >= 2 && !strcmp(argv[1], "single");
    bench_t b = {.count = single ? 1 : 10, .conc = single ? 1 : 2, .partitions = 1, .prio = PM_PRIO_NORMAL};
    pm_engine_build_opts eo = {.choices = {.origin = "--gpu"}}; /* the embedded engine's: 0 = from the machine */
    pm_engine_config_default(&eo.base);
    pm_engine_choices *ch = &eo.choices;
    unsigned devices = 1, u;
    int use_gpu = 0;
    enum { O_KEY = 256, O_KIND, O_PARAMS, O_PARTS, O_PRIO, O_INLINE, O_GPU, O_DAEMON, O_EMBEDDED, O_TRACE,
           O_TIMELINE, O_SYNTH, O_DEVICES, O_GPU_WORKERS, O_FIN, O_MSM, O_BUDGET, O_TOKEN, O_REQUEST };
    static const pm_cli_opt opts[] = {
        {"key", O_KEY, "FILE", "the proving key (.zkey for snarkjs jobs)"},
        {"kind", O_KIND, "K", "proof kind (snarkjs, porep-c2, ...; default snarkjs)"},
        {"type", O_KIND, "K", NULL},
        {"params", O_PARAMS, "DIR", "a Filecoin parameter directory (kinds with parameter files)"},
        {"witness", 'w', "FILE", "a job input (witness, C1, ...); repeat for more, used in turn"},
        {"c1", 'w', "FILE", NULL},
        {"request", O_REQUEST, "REQ.json", "a Filecoin request (`proofmill <kind> gen`): every job proves it\n"
         "                           (winning-post, window-post, snapdeals)"},
        {"count", 'c', "N", "proofs in all (batch default 10)"},
        {"concurrency", 'j', "J", "clients at a time, 1..1024 (batch default 2)"},
        {"partitions", O_PARTS, "P", "inputs per job, 1..64 (kinds with one input per partition)"},
        {"priority", O_PRIO, "P", "low, normal, high or critical (default: the kind's, e.g. critical for\n"
         "                           winning-post; else normal)"},
        {"inline", O_INLINE, NULL, "send the inputs' bytes in the request (base64) instead of paths"},
        {"daemon", O_DAEMON, "URL", "a running daemon: http://HOST:PORT or unix:/path"},
        {"token-file", O_TOKEN, "FILE", "daemon over TCP: the API token file (default $PROOFMILL_TOKEN_FILE,\n"
         "                           then the state directory's http.token)"},
        {"embedded", O_EMBEDDED, NULL, "an engine in this process (the default)"},
        {"gpu", O_GPU, NULL, "embedded: the CUDA start phase on devices 0..N-1"},
        {"devices", O_DEVICES, "N", "embedded: devices (with --gpu)"},
        {"gpu-workers", O_GPU_WORKERS, "N", "embedded: workers per device (default: from the machine)"},
        {"synthesis-workers", O_SYNTH, "N", "embedded: synthesis workers (default: sized from the machine,\n"
         "                           printed in the `engine` line)"},
        {"finalize-threads", O_FIN, "N", "embedded: finalize threads (default: from the machine)"},
        {"msm-threads", O_MSM, "N", "embedded: start-phase MSM threads (0: all cores; default: from\n"
         "                           the machine)"},
        {"budget", O_BUDGET, "BYTES", "embedded: memory budget in bytes"},
        {"trace", O_TRACE, "FILE", "write the engine's Chrome trace (daemon: GET /v1/trace, trace.enabled)"},
        {"timeline", O_TIMELINE, "FILE", "write an SVG timeline of the trace (one row per worker)"},
        {0}};
    static const pm_cli_spec spec = {
        "bench", BENCH_USAGE,
        "single = one proof; batch = -c proofs, -j at a time. Each completion prints a line, a progress\n"
        "line goes to stderr every 5 s, and the summary gives wall time, proofs/min, the steady s/proof\n"
        "(with more than J proofs: from the J-th completion to the last, without the key load and the\n"
        "pipeline fill) and per-stage times.\n"
        "--type groth16|porep is the older spelling of --kind, -w/--c1 of --witness.\n"
        "Exit 0 every proof succeeded, 1 some failed, 2 usage error.", opts};
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        pm_cli_help(&spec, stdout);
        return PM_EXIT_OK;
    }
    if (argc < 2 || (strcmp(argv[1], "single") && strcmp(argv[1], "batch")))
        return pm_cli_spec_usage(&spec, "the first argument is single or batch");
    pm_cli_args pa;
    pm_cli_args_init(&pa, &spec, argc - 1, argv + 1);
    for (int o; (o = pm_cli_next(&pa)) != PM_CLI_DONE;) {
        const char *v = pa.arg;
        switch (o) {
        case PM_CLI_EXIT: return pa.rc;
        case O_KEY: b.key = v; break;
        case O_KIND: /* --type groth16|porep: the older spelling */
            b.kind = pm_kind_find(!strcmp(v, "groth16") ? "snarkjs" : v);
            if (!b.kind) {
                char known[512];
                return pm_cli_usage("bench: --kind %s: the proof kinds are %s (or groth16 for snarkjs)", v,
                                    pm_kind_names(known, sizeof known));
            }
            break;
        case O_PARAMS: b.params_dir = v; break;
        case O_REQUEST: b.request = v; break;
        case 'w':
            if (b.n_witness == MAX_WITNESSES) return pm_cli_usage("bench: at most %d witnesses", MAX_WITNESSES);
            b.witness[b.n_witness++] = v;
            break;
        case 'c':
            if (parse_uint(v, &u) || !u) return pm_cli_usage("bench: -c needs a positive count");
            b.count = (int)u;
            break;
        case 'j':
            if (parse_uint(v, &u) || !u || u > 1024) return pm_cli_usage("bench: -j needs 1..1024");
            b.conc = (int)u;
            break;
        case O_PARTS:
            if (parse_uint(v, &u) || !u || u > 64) return pm_cli_usage("bench: --partitions needs 1..64");
            b.partitions = (int)u;
            break;
        case O_PRIO:
            if (pm_priority_parse(&b.prio, v)) return pm_cli_usage("bench: priority is low, normal, high or critical");
            b.prio_given = 1;
            break;
        case O_INLINE: b.inline_wtns = 1; break;
        case O_GPU: use_gpu = 1; break;
        case O_DAEMON:
            if (strncmp(v, "http://", 7) && strncmp(v, "unix:", 5))
                return pm_cli_usage("bench: --daemon %s: give http://HOST:PORT or unix:/path (no other scheme)", v);
            b.daemon = v;
            break;
        case O_TOKEN: b.token_file = v; break;
        case O_EMBEDDED: b.daemon = NULL; break;
        case O_TRACE: b.trace_out = v; break;
        case O_TIMELINE: b.svg_out = v; break;
        case O_SYNTH:
            if (parse_uint(v, &ch->synth_workers) || !ch->synth_workers) return pm_cli_usage("bench: bad --synthesis-workers");
            break;
        case O_DEVICES:
            if (parse_uint(v, &devices) || !devices || devices > PM_ENGINE_MAX_DEVICES)
                return pm_cli_usage("bench: bad --devices");
            break;
        case O_GPU_WORKERS:
            if (parse_uint(v, &ch->workers_per_device) || !ch->workers_per_device) return pm_cli_usage("bench: bad --gpu-workers");
            break;
        case O_FIN:
            if (parse_uint(v, &ch->finalize_threads) || !ch->finalize_threads) return pm_cli_usage("bench: bad --finalize-threads");
            break;
        case O_MSM:
            if (parse_uint(v, &ch->start_threads) || ch->start_threads == PM_ENGINE_ALL_CORES)
                return pm_cli_usage("bench: bad --msm-threads");
            if (!ch->start_threads) ch->start_threads = PM_ENGINE_ALL_CORES; /* 0: all cores */
            break;
        case O_BUDGET: {
            char *end;
            eo.base.memory_budget = strtoull(v, &end, 10);
            if (end == v || *end) return pm_cli_usage("bench: --budget takes bytes");
            break;
        }
        default: break;
        }
    }
    if (pa.ind < argc - 1) return pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[1 + pa.ind]);
    if (!b.kind) b.kind = pm_kind_find("snarkjs");
    if (!b.prio_given && b.kind->default_priority) pm_priority_parse(&b.prio, b.kind->default_priority);
    if (b.kind->max_inputs == 1) b.partitions = 1; /* one input per job: the kind plans its partitions */
    if (b.request) {
        if (b.n_witness) return pm_cli_usage("bench: --request or --witness, not both");
        if (!b.kind->input_name || strcmp(b.kind->input_name, "vanilla") || !b.params_dir)
            return pm_cli_usage("bench: --request takes a Filecoin vanilla-proof kind (--kind winning-post, window-post "
                                "or snapdeals) and --params DIR");
        pm_error rerr;
        pm_error_clear(&rerr);
        if (fil_proof_request_read(&b.req, b.request, &rerr) ||
            pm_fil_inputs_of_request(&b.req_in, &b.req_n, &b.req_store, b.kind, &b.req, &rerr)) {
            fil_proof_request_free(&b.req);
            return pm_cli_fail(&rerr);
        }
        if (b.daemon) {
            b.req_b64 = calloc(b.req_n ? b.req_n : 1, sizeof *b.req_b64);
            for (size_t q = 0; b.req_b64 && q < b.req_n; q++)
                if (!(b.req_b64[q] = pm_base64_encode_alloc(b.req_in[q].bytes, b.req_in[q].len))) return pm_cli_usage("bench: out of memory");
            if (!b.req_b64) return pm_cli_usage("bench: out of memory");
        }
        b.partitions = 1;
    }
    if ((!b.n_witness && !b.request) || (!b.key && !b.params_dir) || (b.params_dir && !b.kind->key_path))
        return pm_cli_usage("bench: %s jobs need --key%s and at least one %s", b.kind->name,
                            b.kind->key_path ? " or --params DIR" : "",
                            b.kind->max_inputs == 1 ? "--c1 FILE (or --witness)" : "--witness");
    if (single) b.count = b.conc = 1;
    b.res = calloc((size_t)b.count, sizeof *b.res);
    if (!b.res) return pm_cli_usage("bench: out of memory");
    pm_backend be = {0};
    pm_error err;
    pm_error_clear(&err);
    if (!b.daemon) {
        /* the one builder (engine_build.h): --gpu the CUDA start phase on devices 0..N-1, else the
         * CPU on N slots; pools from the machine unless given; its line printed */
        ch->where = use_gpu ? PM_ENGINE_DEVICES_GPU : PM_ENGINE_DEVICES_CPU;
        ch->n_devices = use_gpu ? devices : 0;
        for (unsigned d = 0; use_gpu && d < devices; d++) ch->devices[d] = (int)d;
        ch->cpu_slots = devices;
        eo.base.trace = b.trace_out || b.svg_out;
        eo.log = engine_line;
        pm_engine_built eb;
        if (pm_engine_build(&eb, &eo, &err) != PM_OK) return pm_cli_fail(&err);
        b.engine = eb.engine;
        be = eb.backend;
    } else if (b.inline_wtns) {
        b.b64 = calloc((size_t)b.n_witness, sizeof *b.b64);
        for (int w = 0; b.b64 && w < b.n_witness; w++) {
            size_t len;
            unsigned char *bytes = slurp(b.witness[w], &len);
            if (!bytes) return pm_cli_usage("bench: cannot read %s", b.witness[w]);
            b.b64[w] = pm_base64_encode_alloc(bytes, len);
            free(bytes);
        }
    }
    if (b.request)
        printf("bench %s: %d %s proof(s) of the request %s (%zu vanilla proof(s) and fields)\n", argv[1], b.count,
               b.kind->name, b.request, b.req.n_vanilla);
    else if (b.kind->max_inputs == 1)
        printf("bench %s: %d %s proof(s) of %d input file(s) (partitions per input)\n", argv[1], b.count,
               b.kind->name, b.n_witness);
    printf("bench %s: %d proof(s) of %d partition(s), concurrency %d, %s%s, %s %s\n", argv[1], b.count,
           b.partitions, b.conc, b.daemon ? b.daemon : "embedded engine, backend ", b.daemon ? "" : be.name,
           b.key ? "key" : "params", b.key ? b.key : b.params_dir);
    if (b.daemon && !strncmp(b.daemon, "http://", 7)) {
        /* the daemon's API token: --token-file, client.token_file ($PROOFMILL_TOKEN_FILE), or the default
         * state directory's */
        char def[600];
        const char *tf = b.token_file;
        if (!tf && pm_setting_str("client.token_file")[0]) tf = pm_setting_str("client.token_file");
        if (!tf) {
            pm_daemon_config dc;
            pm_daemon_config_default(&dc);
            char sd[512];
            snprintf(def, sizeof def, "%s/http.token", pm_daemon_state_dir(&dc, sd, sizeof sd));
            if (access(def, R_OK) == 0) tf = def;
        }
        if (tf && pm_http_load_token(tf, &err) != PM_OK) return pm_cli_fail(&err);
        /* which daemon's token this is: a 401 bad-token then says where to look */
        if (tf) fprintf(stderr, "bench: the API token of %s (--token-file: the daemon's http.token_file)\n", tf);
        else fprintf(stderr, "bench: no API token file (--token-file: the daemon's http.token_file)\n");
    }
    if (b.daemon && (b.svg_out || b.trace_out)) b.win_from_us = daemon_uptime_s(&b) * 1e6;
    pthread_mutex_init(&b.mu, NULL);
    pthread_cond_init(&b.cv, NULL);
    b.dev_peak_bytes = -1;
    b.sample_device = b.engine && use_gpu && device_used_bytes() >= 0;
    double kern0 = 0, kern1 = 0, rss_peak = -1;
    unsigned n_dev = 0;
    const int have_k0 = engine_counters(&b, &kern0, &n_dev, &rss_peak) == 0;
    b.t0 = pm_now_s();
    pthread_t mon;
    int mon_ok = pthread_create(&mon, NULL, monitor_main, &b) == 0;
    pthread_t *th = calloc((size_t)b.conc, sizeof *th);
    int started = 0;
    for (int t = 0; th && t < b.conc; t++)
        if (pthread_create(&th[t], NULL, client_main, &b) == 0) started++;
    if (!started) client_main(&b);
    for (int t = 0; t < started; t++) pthread_join(th[t], NULL);
    double wall = pm_now_s() - b.t0;
    pthread_mutex_lock(&b.mu);
    b.stop_monitor = 1;
    pthread_cond_broadcast(&b.cv);
    pthread_mutex_unlock(&b.mu);
    if (mon_ok) pthread_join(mon, NULL);
    int ok = b.count - b.failed;
    printf("summary: %d/%d proofs ok in %.2f s wall: %.2f proofs/min, %.2f s/proof\n", ok, b.count, wall,
           ok ? 60.0 * ok / wall : 0.0, ok ? wall / ok : 0.0);
    steady(b.res, b.count, b.conc);
    stats("wall", b.res, b.count, offsetof(result_t, wall_ms));
    stats("start", b.res, b.count, offsetof(result_t, gpu_ms));
    stats("queue", b.res, b.count, offsetof(result_t, queue_ms));
    stats("synthesis", b.res, b.count, offsetof(result_t, synth_ms));
    stats("finalize", b.res, b.count, offsetof(result_t, fin_ms));
    if (have_k0 && engine_counters(&b, &kern1, &n_dev, &rss_peak) == 0)
        device_report(&b, kern0, kern1, n_dev, rss_peak, wall, b.daemon != NULL);
    int rc = b.failed ? PM_EXIT_INVALID : PM_EXIT_OK;
    if (b.daemon && (b.svg_out || b.trace_out)) b.win_to_us = daemon_uptime_s(&b) * 1e6;
    if (b.win_from_us < 0 || b.win_to_us < 0) b.win_from_us = b.win_to_us = 0;
    if ((b.trace_out || b.svg_out) && write_trace(&b) != 0) rc = PM_EXIT_USAGE;
    if (b.engine) {
        pm_engine_destroy(b.engine);
        be.destroy(be.self);
    }
    for (int w = 0; b.b64 && w < b.n_witness; w++) free(b.b64[w]);
    free(b.b64);
    for (size_t q = 0; b.req_b64 && q < b.req_n; q++) free(b.req_b64[q]);
    free(b.req_b64);
    free(b.req_in);
    free(b.req_store);
    fil_proof_request_free(&b.req);
    free(th);
    free(b.res);
    pthread_mutex_destroy(&b.mu);
    pthread_cond_destroy(&b.cv);
    return rc;
}

PM_CLI_COMMAND(bench, "bench single|batch (--key K.zkey | --kind K --params DIR) (--witness W... | --request R) [-c N] [-j J] "
                      "[--daemon URL | --embedded] (see `proofmill bench --help`)",
               "measure proving throughput and latency (embedded engine or a running daemon)", cmd_bench)
