/*
 * server.c — the daemon: listeners (TCP, unix socket), request routing, JSON in and out, metrics,
 * signals. Contract and endpoint list: daemon.h; reference: docs/engine.md.
 *
 * Request flow: libmicrohttpd calls on_request several times per request: first with no data
 * (we allocate a req_t and check Content-Length against http.max_body_bytes, answering 413 at once
 * when it is too large), then with body chunks (appended, or dropped once over the limit), then
 * once more with *upload_data_size == 0: the request is complete and is routed. Each connection
 * has its own thread, so a handler may block (long-poll) without stalling others.
 */
#include "daemon/daemon.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "daemon/grpc_glue.h"
#include "daemon/job_proof.h"
#include "engine/backend_groth16.h"
#include "engine/backend_porep.h"
#include "engine/engine.h"

enum { LOG_ERROR = 0, LOG_WARN = 1, LOG_INFO = 2, LOG_DEBUG = 3 };

struct pm_daemon {
    pm_daemon_config cfg;
    pm_backend backend;
    int backend_ok;
    pm_engine *engine;
    pm_grpc_front *grpc; /* the gRPC API (grpc_glue.h), NULL when grpc.listen is empty */
    struct MHD_Daemon *mhd_tcp, *mhd_unix;
    int fd_tcp, fd_unix;
    unsigned tcp_port;
    atomic_int log_level;
    atomic_ullong max_body;
    atomic_ullong buffered; /* request body bytes held now, all connections */
    atomic_uint max_wait_s;
    atomic_uint drain_s;
    atomic_int closing;
    atomic_ullong http_requests, http_errors;
};

static int level_of(const char *s) {
    if (!strcmp(s, "error")) return LOG_ERROR;
    if (!strcmp(s, "warn")) return LOG_WARN;
    if (!strcmp(s, "debug")) return LOG_DEBUG;
    return LOG_INFO;
}

static void dlog(pm_daemon *d, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void dlog(pm_daemon *d, int level, const char *fmt, ...) {
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

/* ---------------------------------------------------------------- base64 */

int pm_base64_decode(const char *in, size_t n, uint8_t **out, size_t *len) {
    while (n && in[n - 1] == '=') n--;
    if (n % 4 == 1) return -1;
    uint8_t *o = malloc(n / 4 * 3 + 3);
    if (!o) return -1;
    size_t k = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)in[i], v;
        if (c >= 'A' && c <= 'Z') v = c - 'A';
        else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
        else if (c >= '0' && c <= '9') v = c - '0' + 52;
        else if (c == '+') v = 62;
        else if (c == '/') v = 63;
        else {
            free(o);
            return -1;
        }
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            o[k++] = (uint8_t)(acc >> bits);
        }
    }
    *out = o;
    *len = k;
    return 0;
}

/* ---------------------------------------------------------------- responses */

typedef struct {
    char *body;
    size_t len, cap;
    int too_big;
    int busy; /* http.max_buffered_bytes reached */
    int answered;
} req_t;

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned code, char *text, const char *ctype) {
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(text);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", ctype);
    enum MHD_Result ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

/* Send j (reference stolen). */
static enum MHD_Result send_json(pm_daemon *d, struct MHD_Connection *c, unsigned code, json_t *j) {
    char *s = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(9)) : NULL;
    json_decref(j);
    if (!s) {
        s = strdup("{\"error\":{\"code\":\"out-of-memory\",\"message\":\"cannot build the response\"}}");
        code = 500;
        if (!s) return MHD_NO;
    }
    if (code >= 400) atomic_fetch_add(&d->http_errors, 1);
    return send_text(c, code, s, "application/json");
}

static enum MHD_Result send_error(pm_daemon *d, struct MHD_Connection *c, unsigned code, const char *ecode,
                                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static enum MHD_Result send_error(pm_daemon *d, struct MHD_Connection *c, unsigned code, const char *ecode,
                                  const char *fmt, ...) {
    char msg[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    dlog(d, LOG_DEBUG, "-> %u %s: %s", code, ecode, msg);
    return send_json(d, c, code, json_pack("{s:{s:s,s:s}}", "error", "code", ecode, "message", msg));
}

/* HTTP status for an engine/backend error met while handling a request. */
static unsigned status_for(pm_status st) {
    switch (st) {
    case PM_ERR_ARG: return 400;
    case PM_ERR_IO:
    case PM_ERR_FORMAT:
    case PM_ERR_ENCODING:
    case PM_ERR_NOT_ON_CURVE:
    case PM_ERR_NOT_IN_SUBGROUP:
    case PM_ERR_CURVE:
    case PM_ERR_MISMATCH:
    case PM_ERR_UNSATISFIED: return 422;
    case PM_ERR_NOMEM: return 507;
    case PM_ERR_CANCELLED: return 503;
    default: return 500;
    }
}

static enum MHD_Result send_pm_error(pm_daemon *d, struct MHD_Connection *c, const pm_error *err) {
    char buf[1200];
    pm_error_format(err, buf, sizeof buf);
    return send_error(d, c, status_for(err->code), pm_status_name(err->code), "%s", buf);
}

static json_t *job_to_json(const pm_job_info *in) {
    char id[32];
    snprintf(id, sizeof id, "%" PRIu64, in->id);
    json_t *j = json_pack("{s:s,s:s,s:s,s:s,s:i,s:i,s:I,s:{s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f}}", "id", id, "state",
                          pm_job_state_name(in->state), "priority", pm_priority_name(in->priority), "key",
                          in->key_path, "partitions", (int)in->n_partitions, "partitions_done",
                          (int)in->partitions_done, "submitted_unix_ms", (json_int_t)in->submit_unix_ms,
                          "timings_ms", "queue", in->t.queue_ms, "srs_load", in->t.srs_load_ms, "synthesis",
                          in->t.synth_ms, "gpu", in->t.gpu_ms, "gpu_lock_wait", in->t.gpu_lock_wait_ms, "finalize",
                          in->t.finalize_ms, "verify", in->t.verify_ms, "total", in->t.total_ms);
    if (!j) return NULL;
    json_object_set_new(j, "working_set_bytes", json_integer((json_int_t)in->working_set_bytes));
    if (in->label[0]) json_object_set_new(j, "label", json_string(in->label));
    if (in->error.code != PM_OK) {
        char buf[1200];
        pm_error_format(&in->error, buf, sizeof buf);
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
        /* bellperson partition proofs (PoRep C2): the bytes filecoin-ffi's C2 returns, base64 */
        uint8_t *pb;
        size_t pl;
        pm_error pe;
        if (pm_job_proof_bytes(&pb, &pl, in, &pe) == PM_OK) {
            char *b64 = pm_base64_encode(pb, pl);
            if (b64) json_object_set_new(j, "proof_b64", json_string(b64));
            free(b64);
            free(pb);
        }
    }
    return j;
}

/* ---------------------------------------------------------------- request parsing */

static int path_allowed(pm_daemon *d, const char *path) {
    if (!d->cfg.paths_allow_prefix[0]) return 1;
    char rp[PATH_MAX];
    if (!realpath(path, rp)) return 1; /* let the loader report the missing file */
    size_t n = strlen(d->cfg.paths_allow_prefix);
    return strncmp(rp, d->cfg.paths_allow_prefix, n) == 0 && (rp[n] == '/' || rp[n] == 0 ||
                                                              d->cfg.paths_allow_prefix[n - 1] == '/');
}

typedef struct {
    pm_job_spec spec;
    pm_input *inputs;
    size_t n;
    double wait_s;
    int has_wait;
    char porep_key[4096]; /* kind "porep": DIR/<stem>.params of the C1's sector size */
} parsed_job;

static void parsed_free(parsed_job *p) {
    for (size_t i = 0; p->inputs && i < p->n; i++) free((uint8_t *)p->inputs[i].bytes);
    free(p->inputs);
}

/* Parse a submit body into p (pointers into root, which must outlive p). allow_wait: /v1/prove.
 * Returns 0, or sends the 4xx and returns -1 with *ret set. */
static int parse_job(pm_daemon *d, struct MHD_Connection *c, json_t *root, int allow_wait, parsed_job *p,
                     enum MHD_Result *ret) {
    memset(p, 0, sizeof *p);
    p->spec.priority = PM_PRIO_NORMAL;
    if (!json_is_object(root)) {
        *ret = send_error(d, c, 400, "bad-request", "the body must be a JSON object");
        return -1;
    }
    const char *k;
    json_t *v;
    json_object_foreach(root, k, v) {
        if (!strcmp(k, "key")) {
            if (!json_is_string(v) || !json_string_length(v)) goto bad_type;
            p->spec.key_path = json_string_value(v);
        } else if (!strcmp(k, "priority")) {
            if (!json_is_string(v) || pm_priority_parse(&p->spec.priority, json_string_value(v)) != 0) {
                *ret = send_error(d, c, 400, "bad-request", "priority must be low, normal, high or critical");
                return -1;
            }
        } else if (!strcmp(k, "label")) {
            if (!json_is_string(v)) goto bad_type;
            p->spec.label = json_string_value(v);
        } else if (!strcmp(k, "front_end")) {
            if (!json_is_string(v) || strcmp(json_string_value(v), "snarkjs")) {
                *ret = send_error(d, c, 400, "bad-request", "front_end: only \"snarkjs\" is available");
                return -1;
            }
        } else if (!strcmp(k, "inputs")) {
            if (!json_is_array(v)) goto bad_type;
        } else if (!strcmp(k, "kind") || !strcmp(k, "c1") || !strcmp(k, "c1_b64") || !strcmp(k, "params_dir")) {
            if (!json_is_string(v) || !json_string_length(v)) goto bad_type;
        } else if (allow_wait && !strcmp(k, "wait_s")) {
            if (!json_is_number(v) || json_number_value(v) < 0) goto bad_type;
            p->wait_s = json_number_value(v);
            p->has_wait = 1;
        } else {
            *ret = send_error(d, c, 400, "unknown-field", "unknown field '%s'", k);
            return -1;
        }
    }
    const char *kind = json_string_value(json_object_get(root, "kind"));
    if (kind && strcmp(kind, "porep") && strcmp(kind, "snarkjs")) {
        *ret = send_error(d, c, 400, "bad-request", "kind must be \"snarkjs\" or \"porep\"");
        return -1;
    }
    if (kind && !strcmp(kind, "porep")) {
        /* {"kind":"porep","c1":PATH | "c1_b64":BASE64, "params_dir":DIR (default filecoin.params_dir)}:
         * the key follows from the C1's sector size */
        const char *c1 = json_string_value(json_object_get(root, "c1"));
        json_t *c1b = json_object_get(root, "c1_b64");
        const char *dir = json_string_value(json_object_get(root, "params_dir"));
        if (!dir) dir = pm_daemon_params_dir(&d->cfg);
        if (!c1 == !c1b || p->spec.key_path || json_object_get(root, "inputs")) {
            *ret = send_error(d, c, 400, "bad-request",
                              "a porep job takes 'c1' (a path) or 'c1_b64' (the C1 or its envelope, base64), and "
                              "optionally 'params_dir' (no 'key' or 'inputs')");
            return -1;
        }
        if ((c1 && !path_allowed(d, c1)) || !path_allowed(d, dir)) {
            *ret = send_error(d, c, 403, "forbidden-path", "%s is outside paths.allow_prefix", path_allowed(d, dir) ? c1 : dir);
            return -1;
        }
        p->inputs = calloc(1, sizeof *p->inputs);
        if (!p->inputs) {
            *ret = send_error(d, c, 500, "out-of-memory", "out of memory");
            return -1;
        }
        p->n = 1;
        if (c1) {
            p->inputs[0].kind = PM_INPUT_POREP_C1_PATH;
            p->inputs[0].path = c1;
        } else {
            uint8_t *bytes;
            size_t len;
            if (pm_base64_decode(json_string_value(c1b), json_string_length(c1b), &bytes, &len) != 0) {
                parsed_free(p);
                *ret = send_error(d, c, 400, "bad-base64", "c1_b64 is not valid base64");
                return -1;
            }
            p->inputs[0].kind = PM_INPUT_POREP_C1_BYTES;
            p->inputs[0].bytes = bytes;
            p->inputs[0].len = len;
        }
        pm_error e;
        pm_error_clear(&e);
        if (pm_porep_input_key(p->porep_key, sizeof p->porep_key, dir, &p->inputs[0], &e) != PM_OK) {
            parsed_free(p);
            *ret = send_pm_error(d, c, &e);
            return -1;
        }
        p->spec.key_path = p->porep_key;
        p->spec.inputs = p->inputs;
        p->spec.n_inputs = 1;
        return 0;
    }
    if (json_object_get(root, "c1") || json_object_get(root, "c1_b64") || json_object_get(root, "params_dir")) {
        *ret = send_error(d, c, 400, "bad-request", "'c1', 'c1_b64' and 'params_dir' need \"kind\": \"porep\"");
        return -1;
    }
    if (!p->spec.key_path) {
        *ret = send_error(d, c, 400, "bad-request", "missing field 'key' (path of a .zkey)");
        return -1;
    }
    json_t *ins = json_object_get(root, "inputs");
    size_t n = ins ? json_array_size(ins) : 0;
    if (n == 0 || n > 4096) {
        *ret = send_error(d, c, 400, "bad-request", "'inputs' must be an array of 1..4096 witnesses");
        return -1;
    }
    p->inputs = calloc(n, sizeof *p->inputs);
    if (!p->inputs) {
        *ret = send_error(d, c, 500, "out-of-memory", "out of memory");
        return -1;
    }
    p->n = n;
    for (size_t i = 0; i < n; i++) {
        json_t *in = json_array_get(ins, i);
        json_t *w = json_object_get(in, "wtns"), *b = json_object_get(in, "wtns_b64");
        if (!json_is_object(in) || json_object_size(in) != 1 || (!json_is_string(w) && !json_is_string(b))) {
            *ret = send_error(d, c, 400, "bad-request",
                              "inputs[%zu] must be {\"wtns\": path} or {\"wtns_b64\": base64}", i);
            parsed_free(p);
            return -1;
        }
        if (w) {
            p->inputs[i].kind = PM_INPUT_WTNS_PATH;
            p->inputs[i].path = json_string_value(w);
            if (!path_allowed(d, p->inputs[i].path)) {
                *ret = send_error(d, c, 403, "forbidden-path", "inputs[%zu]: %s is outside paths.allow_prefix", i,
                                  p->inputs[i].path);
                parsed_free(p);
                return -1;
            }
        } else {
            uint8_t *bytes;
            size_t len;
            if (pm_base64_decode(json_string_value(b), json_string_length(b), &bytes, &len) != 0) {
                *ret = send_error(d, c, 400, "bad-base64", "inputs[%zu].wtns_b64 is not valid base64", i);
                parsed_free(p);
                return -1;
            }
            p->inputs[i].kind = PM_INPUT_WTNS_BYTES;
            p->inputs[i].bytes = bytes;
            p->inputs[i].len = len;
        }
    }
    if (!path_allowed(d, p->spec.key_path)) {
        *ret = send_error(d, c, 403, "forbidden-path", "key %s is outside paths.allow_prefix", p->spec.key_path);
        parsed_free(p);
        return -1;
    }
    p->spec.inputs = p->inputs;
    p->spec.n_inputs = n;
    return 0;
bad_type:
    *ret = send_error(d, c, 400, "bad-request", "field '%s' has the wrong type", k);
    return -1;
}

static json_t *parse_body(pm_daemon *d, struct MHD_Connection *c, const req_t *rq, enum MHD_Result *ret) {
    json_error_t je;
    json_t *root = json_loadb(rq->body ? rq->body : "", rq->len, JSON_REJECT_DUPLICATES, &je);
    if (!root) *ret = send_error(d, c, 400, "bad-json", "body is not valid JSON: %s at byte %d", je.text, je.position);
    return root;
}

/* ---------------------------------------------------------------- handlers */

static enum MHD_Result h_submit(pm_daemon *d, struct MHD_Connection *c, const req_t *rq, int await) {
    enum MHD_Result ret;
    json_t *root = parse_body(d, c, rq, &ret);
    if (!root) return ret;
    parsed_job pj;
    if (parse_job(d, c, root, await, &pj, &ret) != 0) {
        json_decref(root);
        return ret;
    }
    uint64_t id = 0;
    pm_error err;
    pm_error_clear(&err);
    pm_status st = pm_engine_submit(d->engine, &pj.spec, &id, &err);
    parsed_free(&pj);
    json_decref(root);
    if (st != PM_OK) {
        if (st == PM_ERR_ARG && strstr(err.msg, "too many jobs"))
            return send_error(d, c, 503, "busy", "%s", err.msg);
        return send_pm_error(d, c, &err);
    }
    dlog(d, LOG_DEBUG, "job %" PRIu64 " submitted (%zu partitions)", id, pj.n);
    pm_job_info info;
    double wait = pj.has_wait ? pj.wait_s : d->cfg.http_max_wait_s;
    if (wait > atomic_load(&d->max_wait_s)) wait = atomic_load(&d->max_wait_s);
    if (pm_engine_wait(d->engine, id, await ? (int64_t)(wait * 1000) : 0, &info) != PM_OK)
        return send_error(d, c, 500, "internal", "job %" PRIu64 " vanished", id);
    unsigned code = 202;
    if (await) {
        if (info.state == PM_JOB_DONE) code = 200;
        else if (info.state == PM_JOB_FAILED) code = status_for(info.error.code);
        else if (info.state == PM_JOB_CANCELLED) code = 409;
    }
    json_t *j = job_to_json(&info);
    if (j && code >= 400 && info.error.code != PM_OK) {
        /* failed prove: the error object at top level (as every error), the job beside it */
        json_t *e = json_object_get(j, "error");
        json_t *wrap = json_pack("{s:O,s:O}", "error", e, "job", j);
        json_decref(j);
        j = wrap;
    }
    pm_job_info_free(&info);
    return send_json(d, c, code, j);
}

static int parse_id(const char *s, uint64_t *id) {
    if (!*s) return -1;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > UINT64_MAX / 10 - 1) return -1;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    *id = v;
    return 0;
}

static enum MHD_Result h_job(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *ids) {
    uint64_t id;
    if (parse_id(ids, &id) != 0) return send_error(d, c, 404, "not-found", "no job '%s'", ids);
    if (!strcmp(method, "DELETE")) {
        pm_job_state st;
        if (pm_engine_cancel(d->engine, id, &st) != PM_OK) return send_error(d, c, 404, "not-found", "no job %s", ids);
        return send_json(d, c, 200, json_pack("{s:s,s:s}", "id", ids, "state",
                                              st == PM_JOB_RUNNING ? "cancelling" : pm_job_state_name(st)));
    }
    if (strcmp(method, "GET")) return send_error(d, c, 405, "method-not-allowed", "%s is not allowed here", method);
    double wait = 0;
    const char *w = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "wait");
    if (w) {
        char *end;
        wait = strtod(w, &end);
        if (end == w || *end || wait < 0 || wait != wait)
            return send_error(d, c, 400, "bad-request", "wait must be a number of seconds >= 0");
        if (wait > atomic_load(&d->max_wait_s)) wait = atomic_load(&d->max_wait_s);
    }
    pm_job_info info;
    if (pm_engine_wait(d->engine, id, (int64_t)(wait * 1000), &info) != PM_OK)
        return send_error(d, c, 404, "not-found", "no job %s (unknown or expired)", ids);
    json_t *j = job_to_json(&info);
    pm_job_info_free(&info);
    return send_json(d, c, 200, j);
}

static json_t *status_json(pm_daemon *d) {
    pm_engine_status st;
    pm_engine_get_status(d->engine, &st);
    json_t *keys = json_array();
    static const char *kstate[] = {"reserved", "loading", "ready"};
    for (size_t i = 0; i < st.n_keys; i++) {
        pm_key_info *k = &st.keys[i];
        json_array_append_new(keys, json_pack("{s:s,s:s,s:b,s:i,s:I,s:f,s:I,s:I}", "path", k->path, "state",
                                              kstate[k->state < 3 ? k->state : 0], "pinned", k->pinned, "refs",
                                              (int)k->refs, "bytes", (json_int_t)k->bytes, "idle_s", k->idle_s,
                                              "loads", (json_int_t)k->loads, "hits", (json_int_t)k->hits));
    }
    json_t *devs = json_array();
    for (unsigned i = 0; i < st.n_devices; i++)
        json_array_append_new(devs, json_pack("{s:i,s:b,s:f,s:i}", "id", st.devices[i], "in_kernel",
                                              st.device_busy[i], "kernel_ms", st.device_kernel_ms[i], "workers",
                                              (int)(st.gpu_total / (st.n_devices ? st.n_devices : 1))));
    json_t *j = json_pack(
        "{s:s,s:f,s:{s:{s:i,s:i,s:i,s:i},s:i,s:I,s:I,s:I,s:I,s:I},s:{s:{s:i,s:i},s:{s:i,s:i},s:{s:i,s:i}},"
        "s:{s:i,s:i,s:i},s:o,s:{s:I,s:I,s:I,s:I,s:I},s:o}",
        "backend", d->backend.name, "uptime_s", st.uptime_s, "jobs", "queued", "low", st.queued[0], "normal",
        st.queued[1], "high", st.queued[2], "critical", st.queued[3], "running", st.running, "submitted",
        (json_int_t)st.submitted, "done", (json_int_t)st.done, "failed", (json_int_t)st.failed, "cancelled",
        (json_int_t)st.cancelled, "verify_failures", (json_int_t)st.verify_failures, "workers", "synthesis", "busy",
        st.synth_busy, "total", st.synth_total, "gpu", "busy", st.gpu_busy, "total", st.gpu_total, "finalize",
        "busy", st.fin_busy, "total", st.fin_total, "queues", "synthesis", st.synth_queue, "gpu", st.gpu_queue,
        "finalize", st.fin_queue, "devices", devs, "memory", "budget_bytes", (json_int_t)st.budget_bytes,
        "reserved_bytes", (json_int_t)st.reserved_bytes, "reserved_peak_bytes", (json_int_t)st.reserved_peak_bytes,
        "rss_bytes", (json_int_t)st.rss_bytes, "rss_peak_bytes", (json_int_t)st.rss_peak_bytes, "keys", keys);
    pm_engine_status_free(&st);
    return j;
}

static char *metrics_text(pm_daemon *d) {
    pm_engine_status st;
    pm_engine_get_status(d->engine, &st);
    size_t cap = 8192 + 256 * (st.n_devices + st.n_keys);
    char *b = malloc(cap);
    if (!b) {
        pm_engine_status_free(&st);
        return NULL;
    }
    size_t n = 0;
#define M(...) n += (size_t)snprintf(b + n, n < cap ? cap - n : 0, __VA_ARGS__)
    M("# HELP proofmill_jobs_submitted_total Jobs accepted by the engine.\n# TYPE proofmill_jobs_submitted_total counter\n");
    M("proofmill_jobs_submitted_total %" PRIu64 "\n", st.submitted);
    M("# HELP proofmill_jobs_finished_total Jobs that reached a final state.\n# TYPE proofmill_jobs_finished_total counter\n");
    M("proofmill_jobs_finished_total{state=\"done\"} %" PRIu64 "\n", st.done);
    M("proofmill_jobs_finished_total{state=\"failed\"} %" PRIu64 "\n", st.failed);
    M("proofmill_jobs_finished_total{state=\"cancelled\"} %" PRIu64 "\n", st.cancelled);
    M("# HELP proofmill_verify_failures_total Assembled proofs that failed verification (engine errors).\n"
      "# TYPE proofmill_verify_failures_total counter\nproofmill_verify_failures_total %" PRIu64 "\n",
      st.verify_failures);
    M("# HELP proofmill_jobs_queued Jobs waiting for admission.\n# TYPE proofmill_jobs_queued gauge\n");
    static const char *pn[] = {"low", "normal", "high", "critical"};
    for (int i = 0; i < 4; i++) M("proofmill_jobs_queued{priority=\"%s\"} %u\n", pn[i], st.queued[i]);
    M("# HELP proofmill_jobs_running Jobs admitted and not finished.\n# TYPE proofmill_jobs_running gauge\n"
      "proofmill_jobs_running %u\n", st.running);
    M("# HELP proofmill_workers_busy Workers in a stage now.\n# TYPE proofmill_workers_busy gauge\n");
    M("proofmill_workers_busy{pool=\"synthesis\"} %u\nproofmill_workers_busy{pool=\"gpu\"} %u\n"
      "proofmill_workers_busy{pool=\"finalize\"} %u\n", st.synth_busy, st.gpu_busy, st.fin_busy);
    M("# HELP proofmill_workers Workers per pool.\n# TYPE proofmill_workers gauge\n");
    M("proofmill_workers{pool=\"synthesis\"} %u\nproofmill_workers{pool=\"gpu\"} %u\n"
      "proofmill_workers{pool=\"finalize\"} %u\n", st.synth_total, st.gpu_total, st.fin_total);
    M("# HELP proofmill_stage_queue_length Partitions waiting for a stage.\n# TYPE proofmill_stage_queue_length gauge\n");
    M("proofmill_stage_queue_length{stage=\"synthesis\"} %u\nproofmill_stage_queue_length{stage=\"gpu\"} %u\n"
      "proofmill_stage_queue_length{stage=\"finalize\"} %u\n", st.synth_queue, st.gpu_queue, st.fin_queue);
    M("# HELP proofmill_stage_seconds_total Time spent per stage, summed over partitions.\n"
      "# TYPE proofmill_stage_seconds_total counter\n");
    M("proofmill_stage_seconds_total{stage=\"queue\"} %.6f\nproofmill_stage_seconds_total{stage=\"synthesis\"} %.6f\n"
      "proofmill_stage_seconds_total{stage=\"gpu\"} %.6f\nproofmill_stage_seconds_total{stage=\"finalize\"} %.6f\n",
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
    if (n >= cap) b[cap - 1] = 0;
    return b;
}

static enum MHD_Result h_keys(pm_daemon *d, struct MHD_Connection *c, const req_t *rq, int preload) {
    enum MHD_Result ret;
    json_t *root = parse_body(d, c, rq, &ret);
    if (!root) return ret;
    const char *k;
    json_t *v;
    json_object_foreach(root, k, v) if (strcmp(k, "key")) {
        ret = send_error(d, c, 400, "unknown-field", "unknown field '%s'", k);
        json_decref(root);
        return ret;
    }
    const char *path = json_string_value(json_object_get(root, "key"));
    if (!json_is_object(root) || !path || !path[0]) {
        json_decref(root);
        return send_error(d, c, 400, "bad-request", "body must be {\"key\": path}");
    }
    if (!path_allowed(d, path)) {
        ret = send_error(d, c, 403, "forbidden-path", "key %s is outside paths.allow_prefix", path);
        json_decref(root);
        return ret;
    }
    pm_error err;
    pm_error_clear(&err);
    pm_status st = preload ? pm_engine_preload_key(d->engine, path, &err) : pm_engine_evict_key(d->engine, path, &err);
    if (st != PM_OK) {
        unsigned code = preload ? status_for(st) : st == PM_ERR_ARG ? 404 : 409;
        char buf[1200];
        pm_error_format(&err, buf, sizeof buf);
        ret = send_error(d, c, code, preload ? pm_status_name(st) : st == PM_ERR_ARG ? "not-found" : "in-use", "%s", buf);
    } else {
        ret = send_json(d, c, 200, json_pack("{s:s,s:s}", "key", path, "state", preload ? "ready" : "evicted"));
    }
    json_decref(root);
    return ret;
}

static enum MHD_Result route(pm_daemon *d, struct MHD_Connection *c, const char *url, const char *method,
                             const req_t *rq) {
    atomic_fetch_add(&d->http_requests, 1);
    dlog(d, LOG_DEBUG, "%s %s (%zu bytes)", method, url, rq->len);
    if (rq->too_big)
        return send_error(d, c, 413, "body-too-large", "request body exceeds http.max_body_bytes = %llu",
                          (unsigned long long)atomic_load(&d->max_body));
    if (rq->busy)
        return send_error(d, c, 503, "busy", "too many request bytes in flight (http.max_buffered_bytes = %llu)",
                          (unsigned long long)d->cfg.http_max_buffered);
    int get = !strcmp(method, "GET"), post = !strcmp(method, "POST");
    if (!strncmp(url, "/v1/jobs/", 9)) return h_job(d, c, method, url + 9);
    if (atomic_load(&d->closing) && post)
        return send_error(d, c, 503, "shutting-down", "the daemon is shutting down");
    if (!strcmp(url, "/v1/jobs") || !strcmp(url, "/v1/prove")) {
        if (!post) return send_error(d, c, 405, "method-not-allowed", "use POST");
        return h_submit(d, c, rq, url[4] == 'p');
    }
    if (!strcmp(url, "/v1/status")) {
        if (!get) return send_error(d, c, 405, "method-not-allowed", "use GET");
        return send_json(d, c, 200, status_json(d));
    }
    if (!strcmp(url, "/metrics")) {
        if (!get) return send_error(d, c, 405, "method-not-allowed", "use GET");
        char *t = metrics_text(d);
        if (!t) return send_error(d, c, 500, "out-of-memory", "out of memory");
        return send_text(c, 200, t, "text/plain; version=0.0.4");
    }
    if (!strcmp(url, "/v1/keys/preload") || !strcmp(url, "/v1/keys/evict")) {
        if (!post) return send_error(d, c, 405, "method-not-allowed", "use POST");
        return h_keys(d, c, rq, url[9] == 'p');
    }
    if (!strcmp(url, "/v1/trace")) {
        if (!get) return send_error(d, c, 405, "method-not-allowed", "use GET");
        char *t = pm_engine_trace_json(d->engine);
        if (!t) return send_error(d, c, 404, "trace-off", "tracing is off (trace.enabled = false)");
        return send_text(c, 200, t, "application/json");
    }
    return send_error(d, c, 404, "not-found", "no endpoint %s %s", method, url);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_size, void **con_cls) {
    pm_daemon *d = cls;
    req_t *rq = *con_cls;
    if (!rq) {
        rq = calloc(1, sizeof *rq);
        if (!rq) return MHD_NO;
        *con_cls = rq;
        const char *cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && strtoull(cl, NULL, 10) > atomic_load(&d->max_body)) {
            rq->too_big = 1;
            rq->answered = 1;
            return route(d, c, url, method, rq); /* answer now; MHD closes after the response */
        }
        return MHD_YES;
    }
    if (rq->answered) {
        *upload_size = 0;
        return MHD_YES;
    }
    if (*upload_size) {
        size_t n = *upload_size;
        *upload_size = 0;
        if (rq->too_big || rq->busy) return MHD_YES;
        int over = rq->len + n > atomic_load(&d->max_body);
        int busy = !over && atomic_fetch_add(&d->buffered, n) + n > d->cfg.http_max_buffered;
        if (over || busy) {
            if (busy) atomic_fetch_sub(&d->buffered, n);
            atomic_fetch_sub(&d->buffered, rq->len);
            rq->too_big = over;
            rq->busy = busy;
            free(rq->body);
            rq->body = NULL;
            rq->len = rq->cap = 0;
            return MHD_YES;
        }
        if (rq->len + n + 1 > rq->cap) {
            size_t nc = rq->cap ? rq->cap : 4096;
            while (nc < rq->len + n + 1) nc *= 2;
            char *nb = realloc(rq->body, nc);
            if (!nb) {
                atomic_fetch_sub(&d->buffered, n);
                return MHD_NO;
            }
            rq->body = nb;
            rq->cap = nc;
        }
        memcpy(rq->body + rq->len, upload, n);
        rq->len += n;
        rq->body[rq->len] = 0;
        return MHD_YES;
    }
    rq->answered = 1;
    enum MHD_Result r = route(d, c, url, method, rq);
    /* The body has been parsed (handlers keep no pointer into it): give its bytes back to
     * http.max_buffered_bytes now. Waiting for on_completed raced with the client: with a thread
     * per connection, the client could read the response and send its next request before this
     * connection's thread ran the completion callback, and be refused as busy. */
    atomic_fetch_sub(&d->buffered, rq->len);
    free(rq->body);
    rq->body = NULL;
    rq->len = rq->cap = 0;
    return r;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode t) {
    pm_daemon *d = cls;
    req_t *rq = *con_cls;
    if (rq) {
        atomic_fetch_sub(&d->buffered, rq->len);
        free(rq->body);
        free(rq);
    }
    *con_cls = NULL;
}

/* ---------------------------------------------------------------- listeners */

static int open_tcp(const char *addr, unsigned *port_out, pm_error *err) {
    char host[256];
    const char *colon = strrchr(addr, ':');
    if (!colon || colon == addr) {
        pm_error_set(err, PM_ERR_ARG, "listen.tcp", PM_NO_OFFSET, "'%s' is not host:port", addr);
        return -1;
    }
    snprintf(host, sizeof host, "%.*s", (int)(colon - addr), addr);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *res;
    int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc) {
        pm_error_set(err, PM_ERR_ARG, "listen.tcp", PM_NO_OFFSET, "'%s': %s", addr, gai_strerror(rc));
        return -1;
    }
    int fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, 128) != 0) {
        pm_error_set(err, PM_ERR_IO, "listen.tcp", PM_NO_OFFSET, "cannot listen on %s: %s", addr, strerror(errno));
        if (fd >= 0) close(fd);
        freeaddrinfo(res);
        return -1;
    }
    freeaddrinfo(res);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    *port_out = 0;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0)
        *port_out = ss.ss_family == AF_INET ? ntohs(((struct sockaddr_in *)&ss)->sin_port)
                                            : ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
    return fd;
}

static int open_unix(const char *path, pm_error *err) {
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof sa.sun_path) {
        pm_error_set(err, PM_ERR_ARG, "listen.unix", PM_NO_OFFSET, "socket path too long");
        return -1;
    }
    strcpy(sa.sun_path, path);
    unlink(path); /* a stale socket from a crashed run */
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 128) != 0) {
        pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot listen: %s", strerror(errno));
        if (fd >= 0) close(fd);
        return -1;
    }
    return fd;
}

static struct MHD_Daemon *start_mhd(pm_daemon *d, int fd) {
    return MHD_start_daemon(MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0,
                            NULL, NULL, on_request, d, MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT,
                            d->cfg.http_max_connections, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)3600,
                            MHD_OPTION_NOTIFY_COMPLETED, on_completed, d, MHD_OPTION_END);
}

static void on_job_done(void *arg, uint64_t id, pm_job_state st) {
    pm_daemon *d = arg;
    if (atomic_load(&d->log_level) < LOG_INFO) return;
    pm_job_info info;
    if (pm_engine_wait(d->engine, id, 0, &info) != PM_OK) return;
    char eb[1200] = "";
    if (info.error.code != PM_OK) pm_error_format(&info.error, eb, sizeof eb);
    dlog(d, st == PM_JOB_FAILED ? LOG_WARN : LOG_INFO,
         "job %" PRIu64 " %s: %u partitions, total %.1f ms (queue %.1f, srs %.1f, synth %.1f, gpu %.1f, "
         "finalize %.1f, verify %.1f)%s%s",
         id, pm_job_state_name(st), info.n_partitions, info.t.total_ms, info.t.queue_ms, info.t.srs_load_ms,
         info.t.synth_ms, info.t.gpu_ms, info.t.finalize_ms, info.t.verify_ms, eb[0] ? ": " : "", eb);
    pm_job_info_free(&info);
}

static char *grpc_metrics(void *arg) { return metrics_text(arg); }
static void grpc_log(void *arg, int level, const char *msg) { dlog(arg, level, "%s", msg); }

unsigned pm_daemon_tcp_port(const pm_daemon *d) { return d ? d->tcp_port : 0; }

void pm_daemon_reload(pm_daemon *d, const pm_daemon_config *cfg) {
    atomic_store(&d->log_level, level_of(cfg->log_level));
    atomic_store(&d->max_body, cfg->http_max_body);
    atomic_store(&d->max_wait_s, cfg->http_max_wait_s);
    atomic_store(&d->drain_s, cfg->shutdown_drain_s);
    dlog(d, LOG_INFO, "reloaded: log.level=%s http.max_body_bytes=%llu http.max_wait_s=%u shutdown.drain_s=%u",
         cfg->log_level, (unsigned long long)cfg->http_max_body, cfg->http_max_wait_s, cfg->shutdown_drain_s);
}

pm_status pm_daemon_start(pm_daemon **out, const pm_daemon_config *cfg, pm_error *err) {
    *out = NULL;
    pm_daemon *d = calloc(1, sizeof *d);
    if (!d) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    d->cfg = *cfg;
    d->fd_tcp = d->fd_unix = -1;
    atomic_store(&d->log_level, level_of(cfg->log_level));
    atomic_store(&d->max_body, cfg->http_max_body);
    atomic_store(&d->max_wait_s, cfg->http_max_wait_s);
    atomic_store(&d->drain_s, cfg->shutdown_drain_s);
    if (!cfg->listen_tcp[0] && !cfg->listen_unix[0] && !cfg->grpc_listen[0]) {
        free(d);
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET,
                            "no listener: set listen.tcp, listen.unix and/or grpc.listen");
    }
    pm_groth16_backend_opts bo = {.start_threads = cfg->prover_msm_threads,
                                  .finalize_threads = cfg->finalize_msm_threads};
    /* gpu.devices set: the CUDA start phase on those devices (refuse to start without them rather
     * than silently proving on the CPU); empty: the CPU backend on cpu.device_slots logical slots */
    pm_status st = cfg->gpu_devices[0] ? pm_backend_groth16_gpu(&d->backend, &bo, err)
                                       : pm_backend_groth16_cpu(&d->backend, &bo, err);
    if (st) {
        free(d);
        return st;
    }
    /* PoRep C2 jobs (key DIR/<stem>.params) beside the snarkjs ones: the router takes the backend over */
    pm_backend snark = d->backend;
    pm_porep_backend_opts po = {.start_threads = cfg->prover_msm_threads};
    if ((st = pm_backend_porep_mux(&d->backend, &snark, &po, err)) != PM_OK) {
        snark.destroy(snark.self);
        free(d);
        return st;
    }
    d->backend_ok = 1;
    pm_engine_config ec;
    pm_engine_config_default(&ec);
    ec.synth_workers = cfg->synth_workers;
    ec.synth_lookahead = cfg->synth_lookahead;
    ec.workers_per_device = cfg->gpu_workers_per_device;
    ec.finalize_threads = cfg->finalize_threads;
    ec.memory_budget = cfg->memory_budget;
    ec.memory_margin = cfg->memory_margin;
    ec.key_idle_evict_s = cfg->keys_idle_evict_s;
    ec.job_retain_s = cfg->jobs_retain_s;
    ec.max_jobs = cfg->jobs_max;
    ec.trace = cfg->trace_enabled;
    ec.trace_max_events = cfg->trace_max_events;
    ec.on_complete = on_job_done;
    ec.on_complete_arg = d;
    ec.n_devices = 0;
    if (cfg->gpu_devices[0]) {
        const char *p = cfg->gpu_devices;
        while (*p) {
            char *end;
            long v = strtol(p, &end, 10);
            if (end == p || v < 0 || v > 1024 || ec.n_devices >= PM_ENGINE_MAX_DEVICES) {
                pm_daemon_stop(d);
                return pm_error_set(err, PM_ERR_ARG, "gpu.devices", PM_NO_OFFSET, "'%s' is not a list of device ids",
                                    cfg->gpu_devices);
            }
            ec.devices[ec.n_devices++] = (int)v;
            p = end;
            while (*p == ',' || *p == ' ') p++;
        }
    } else {
        for (unsigned i = 0; i < cfg->cpu_device_slots && i < PM_ENGINE_MAX_DEVICES; i++) ec.devices[ec.n_devices++] = (int)i;
    }
    st = pm_engine_create(&d->engine, &ec, &d->backend, err);
    if (st) {
        pm_daemon_stop(d);
        return st;
    }
    /* preload keys */
    char list[sizeof cfg->keys_preload];
    snprintf(list, sizeof list, "%s", cfg->keys_preload);
    for (char *save = NULL, *k = strtok_r(list, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        while (*k == ' ') k++;
        if (!*k) continue;
        st = pm_engine_preload_key(d->engine, k, err);
        if (st) {
            pm_daemon_stop(d);
            return st;
        }
        dlog(d, LOG_INFO, "preloaded key %s", k);
    }
    if (cfg->listen_tcp[0]) {
        d->fd_tcp = open_tcp(cfg->listen_tcp, &d->tcp_port, err);
        if (d->fd_tcp < 0 || !(d->mhd_tcp = start_mhd(d, d->fd_tcp))) {
            if (d->fd_tcp >= 0) pm_error_set(err, PM_ERR_IO, "listen.tcp", PM_NO_OFFSET, "cannot start the HTTP server");
            pm_daemon_stop(d);
            return err ? err->code : PM_ERR_IO;
        }
        dlog(d, LOG_INFO, "listening on http://%.*s:%u", (int)(strrchr(cfg->listen_tcp, ':') - cfg->listen_tcp),
             cfg->listen_tcp, d->tcp_port);
    }
    if (cfg->listen_unix[0]) {
        d->fd_unix = open_unix(cfg->listen_unix, err);
        if (d->fd_unix < 0 || !(d->mhd_unix = start_mhd(d, d->fd_unix))) {
            if (d->fd_unix >= 0) pm_error_set(err, PM_ERR_IO, "listen.unix", PM_NO_OFFSET, "cannot start the HTTP server");
            pm_daemon_stop(d);
            return err ? err->code : PM_ERR_IO;
        }
        dlog(d, LOG_INFO, "listening on unix:%s", cfg->listen_unix);
    }
    pm_grpc_front_config gc = {.engine = d->engine, .cfg = cfg, .metrics = grpc_metrics, .metrics_arg = d,
                               .log = grpc_log, .log_arg = d};
    if ((st = pm_grpc_front_start(&d->grpc, &gc, err)) != PM_OK) {
        pm_daemon_stop(d);
        return st;
    }
    pm_engine_status es;
    pm_engine_get_status(d->engine, &es);
    dlog(d, LOG_INFO, "engine: backend %s, %u synthesis, %u devices x %u gpu workers, %u finalizers, budget %.1f MiB",
         d->backend.name, ec.synth_workers, ec.n_devices, ec.workers_per_device, ec.finalize_threads,
         es.budget_bytes / 1048576.0);
    pm_engine_status_free(&es);
    *out = d;
    return PM_OK;
}

void pm_daemon_stop(pm_daemon *d) {
    if (!d) return;
    atomic_store(&d->closing, 1);
    if (d->engine) {
        unsigned drain = atomic_load(&d->drain_s);
        for (unsigned i = 0; i < drain * 10; i++) {
            pm_engine_status st;
            pm_engine_get_status(d->engine, &st);
            unsigned left = st.running + st.queued[0] + st.queued[1] + st.queued[2] + st.queued[3];
            pm_engine_status_free(&st);
            if (!left) break;
            struct timespec ts = {0, 100000000};
            nanosleep(&ts, NULL);
        }
        pm_engine_cancel_all(d->engine);
        pm_engine_close(d->engine); /* long-polls return now */
    }
    pm_grpc_front_stop(d->grpc); /* before the engine: its calls use it */
    if (d->mhd_tcp) MHD_stop_daemon(d->mhd_tcp);
    if (d->mhd_unix) MHD_stop_daemon(d->mhd_unix);
    if (d->fd_tcp >= 0) close(d->fd_tcp);
    if (d->fd_unix >= 0) {
        close(d->fd_unix);
        unlink(d->cfg.listen_unix);
    }
    pm_engine_destroy(d->engine);
    if (d->backend_ok && d->backend.destroy) d->backend.destroy(d->backend.self);
    dlog(d, LOG_INFO, "stopped");
    free(d);
}

int pm_daemon_run(const pm_daemon_config *cfg0, const char *config_path) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL); /* every thread started from here inherits the mask */
    signal(SIGPIPE, SIG_IGN);
    /* Fix glibc's mmap threshold at 1 MiB: partition buffers are then always mmapped and given back
     * to the OS on free, so the resident size follows the engine's memory budget instead of
     * growing per-thread arenas (the dynamic threshold would move large buffers into the heap). */
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    pm_daemon_config cfg = *cfg0;
    pm_daemon *d = NULL;
    pm_error err;
    pm_error_clear(&err);
    if (pm_daemon_start(&d, &cfg, &err) != PM_OK) {
        char buf[1200];
        fprintf(stderr, "proofmill: %s\n", pm_error_format(&err, buf, sizeof buf));
        return 2;
    }
    for (;;) {
        int sig = 0;
        if (sigwait(&set, &sig) != 0) continue;
        if (sig == SIGHUP) {
            if (!config_path) continue;
            pm_daemon_config nc = cfg;
            pm_error_clear(&err);
            if (pm_daemon_config_load(&nc, config_path, 1, &err) != PM_OK) {
                char buf[1200];
                dlog(d, LOG_ERROR, "reload failed, keeping the old settings: %s", pm_error_format(&err, buf, sizeof buf));
                continue;
            }
            cfg = nc;
            pm_daemon_reload(d, &cfg);
            continue;
        }
        dlog(d, LOG_INFO, "signal %d: shutting down", sig);
        break;
    }
    pm_daemon_stop(d);
    return 0;
}
