/*
 * api.c — the daemon's job and key endpoints: POST /v1/jobs and /v1/prove (the submit body),
 * GET and DELETE /v1/jobs/{id}, POST /v1/keys/preload|evict (daemon.h, docs/engine.md).
 */
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/daemon_internal.h"
#include "engine/backend_porep.h"
#include "util/base64.h"

json_t *daemon_job_to_json(const pm_job_info *in) {
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
    }
    return j;
}


int daemon_path_allowed(pm_daemon *d, const char *path) {
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
        *ret = daemon_send_error(d, c, 400, "bad-request", "the body must be a JSON object");
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
                *ret = daemon_send_error(d, c, 400, "bad-request", "priority must be low, normal, high or critical");
                return -1;
            }
        } else if (!strcmp(k, "label")) {
            if (!json_is_string(v)) goto bad_type;
            p->spec.label = json_string_value(v);
        } else if (!strcmp(k, "front_end")) {
            if (!json_is_string(v) || strcmp(json_string_value(v), "snarkjs")) {
                *ret = daemon_send_error(d, c, 400, "bad-request", "front_end: only \"snarkjs\" is available");
                return -1;
            }
        } else if (!strcmp(k, "inputs")) {
            if (!json_is_array(v)) goto bad_type;
        } else if (!strcmp(k, "kind") || !strcmp(k, "c1") || !strcmp(k, "params_dir")) {
            if (!json_is_string(v) || !json_string_length(v)) goto bad_type;
        } else if (allow_wait && !strcmp(k, "wait_s")) {
            if (!json_is_number(v) || json_number_value(v) < 0) goto bad_type;
            p->wait_s = json_number_value(v);
            p->has_wait = 1;
        } else {
            *ret = daemon_send_error(d, c, 400, "unknown-field", "unknown field '%s'", k);
            return -1;
        }
    }
    const char *kind = json_string_value(json_object_get(root, "kind"));
    if (kind && strcmp(kind, "porep") && strcmp(kind, "snarkjs")) {
        *ret = daemon_send_error(d, c, 400, "bad-request", "kind must be \"snarkjs\" or \"porep\"");
        return -1;
    }
    if (kind && !strcmp(kind, "porep")) { /* {"kind":"porep","c1":PATH,"params_dir":DIR}: the key follows from the C1 */
        const char *c1 = json_string_value(json_object_get(root, "c1"));
        const char *dir = json_string_value(json_object_get(root, "params_dir"));
        if (!c1 || !dir || p->spec.key_path || json_object_get(root, "inputs")) {
            *ret = daemon_send_error(d, c, 400, "bad-request", "a porep job takes 'c1' and 'params_dir' (no 'key' or 'inputs')");
            return -1;
        }
        if (!daemon_path_allowed(d, c1) || !daemon_path_allowed(d, dir)) {
            *ret = daemon_send_error(d, c, 403, "forbidden-path", "%s is outside paths.allow_prefix", daemon_path_allowed(d, c1) ? dir : c1);
            return -1;
        }
        pm_error e;
        pm_error_clear(&e);
        if (pm_porep_job_key(p->porep_key, sizeof p->porep_key, dir, c1, &e) != PM_OK) {
            *ret = daemon_send_pm_error(d, c, &e);
            return -1;
        }
        p->inputs = calloc(1, sizeof *p->inputs);
        if (!p->inputs) {
            *ret = daemon_send_error(d, c, 500, "out-of-memory", "out of memory");
            return -1;
        }
        p->n = 1;
        p->inputs[0].kind = PM_INPUT_POREP_C1_PATH;
        p->inputs[0].path = c1;
        p->spec.key_path = p->porep_key;
        p->spec.inputs = p->inputs;
        p->spec.n_inputs = 1;
        return 0;
    }
    if (json_object_get(root, "c1") || json_object_get(root, "params_dir")) {
        *ret = daemon_send_error(d, c, 400, "bad-request", "'c1' and 'params_dir' need \"kind\": \"porep\"");
        return -1;
    }
    if (!p->spec.key_path) {
        *ret = daemon_send_error(d, c, 400, "bad-request", "missing field 'key' (path of a .zkey)");
        return -1;
    }
    json_t *ins = json_object_get(root, "inputs");
    size_t n = ins ? json_array_size(ins) : 0;
    if (n == 0 || n > 4096) {
        *ret = daemon_send_error(d, c, 400, "bad-request", "'inputs' must be an array of 1..4096 witnesses");
        return -1;
    }
    p->inputs = calloc(n, sizeof *p->inputs);
    if (!p->inputs) {
        *ret = daemon_send_error(d, c, 500, "out-of-memory", "out of memory");
        return -1;
    }
    p->n = n;
    for (size_t i = 0; i < n; i++) {
        json_t *in = json_array_get(ins, i);
        json_t *w = json_object_get(in, "wtns"), *b = json_object_get(in, "wtns_b64");
        if (!json_is_object(in) || json_object_size(in) != 1 || (!json_is_string(w) && !json_is_string(b))) {
            *ret = daemon_send_error(d, c, 400, "bad-request",
                              "inputs[%zu] must be {\"wtns\": path} or {\"wtns_b64\": base64}", i);
            parsed_free(p);
            return -1;
        }
        if (w) {
            p->inputs[i].kind = PM_INPUT_WTNS_PATH;
            p->inputs[i].path = json_string_value(w);
            if (!daemon_path_allowed(d, p->inputs[i].path)) {
                *ret = daemon_send_error(d, c, 403, "forbidden-path", "inputs[%zu]: %s is outside paths.allow_prefix", i,
                                  p->inputs[i].path);
                parsed_free(p);
                return -1;
            }
        } else {
            uint8_t *bytes;
            size_t len;
            if (pm_base64_decode(&bytes, &len, json_string_value(b), json_string_length(b), PM_BASE64_PAD_OPTIONAL,
                                 NULL) != PM_OK) {
                *ret = daemon_send_error(d, c, 400, "bad-base64", "inputs[%zu].wtns_b64 is not valid base64", i);
                parsed_free(p);
                return -1;
            }
            p->inputs[i].kind = PM_INPUT_WTNS_BYTES;
            p->inputs[i].bytes = bytes;
            p->inputs[i].len = len;
        }
    }
    if (!daemon_path_allowed(d, p->spec.key_path)) {
        *ret = daemon_send_error(d, c, 403, "forbidden-path", "key %s is outside paths.allow_prefix", p->spec.key_path);
        parsed_free(p);
        return -1;
    }
    p->spec.inputs = p->inputs;
    p->spec.n_inputs = n;
    return 0;
bad_type:
    *ret = daemon_send_error(d, c, 400, "bad-request", "field '%s' has the wrong type", k);
    return -1;
}

json_t *daemon_parse_body(pm_daemon *d, struct MHD_Connection *c, const req_t *rq, enum MHD_Result *ret) {
    json_error_t je;
    json_t *root = json_loadb(rq->body ? rq->body : "", rq->len, JSON_REJECT_DUPLICATES, &je);
    if (!root) *ret = daemon_send_error(d, c, 400, "bad-json", "body is not valid JSON: %s at byte %d", je.text, je.position);
    return root;
}


enum MHD_Result daemon_h_submit(pm_daemon *d, struct MHD_Connection *c, const req_t *rq, int await) {
    enum MHD_Result ret;
    json_t *root = daemon_parse_body(d, c, rq, &ret);
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
    if (st != PM_OK) return daemon_send_pm_error(d, c, &err); /* PM_ERR_BUSY (jobs.max): 503 busy */
    daemon_log(d, LOG_DEBUG, "job %" PRIu64 " submitted (%zu partitions)", id, pj.n);
    pm_job_info info;
    double wait = pj.has_wait ? pj.wait_s : d->cfg.http_max_wait_s;
    if (wait > atomic_load(&d->max_wait_s)) wait = atomic_load(&d->max_wait_s);
    if (pm_engine_wait(d->engine, id, await ? (int64_t)(wait * 1000) : 0, &info) != PM_OK)
        return daemon_send_error(d, c, 500, "internal", "job %" PRIu64 " vanished", id);
    unsigned code = 202;
    if (await) {
        if (info.state == PM_JOB_DONE) code = 200;
        else if (info.state == PM_JOB_FAILED) code = daemon_status_for(info.error.code);
        else if (info.state == PM_JOB_CANCELLED) code = 409;
    }
    json_t *j = daemon_job_to_json(&info);
    if (j && code >= 400 && info.error.code != PM_OK) {
        /* failed prove: the error object at top level (as every error), the job beside it */
        json_t *e = json_object_get(j, "error");
        json_t *wrap = json_pack("{s:O,s:O}", "error", e, "job", j);
        json_decref(j);
        j = wrap;
    }
    pm_job_info_free(&info);
    return daemon_send_json(d, c, code, j);
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

enum MHD_Result daemon_h_job(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *ids) {
    uint64_t id;
    if (parse_id(ids, &id) != 0) return daemon_send_error(d, c, 404, "not-found", "no job '%s'", ids);
    if (!strcmp(method, "DELETE")) {
        pm_job_state st;
        if (pm_engine_cancel(d->engine, id, &st) != PM_OK) return daemon_send_error(d, c, 404, "not-found", "no job %s", ids);
        return daemon_send_json(d, c, 200, json_pack("{s:s,s:s}", "id", ids, "state",
                                              st == PM_JOB_RUNNING ? "cancelling" : pm_job_state_name(st)));
    }
    if (strcmp(method, "GET")) return daemon_send_error(d, c, 405, "method-not-allowed", "%s is not allowed here", method);
    double wait = 0;
    const char *w = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "wait");
    if (w) {
        char *end;
        wait = strtod(w, &end);
        if (end == w || *end || wait < 0 || wait != wait)
            return daemon_send_error(d, c, 400, "bad-request", "wait must be a number of seconds >= 0");
        if (wait > atomic_load(&d->max_wait_s)) wait = atomic_load(&d->max_wait_s);
    }
    pm_job_info info;
    if (pm_engine_wait(d->engine, id, (int64_t)(wait * 1000), &info) != PM_OK)
        return daemon_send_error(d, c, 404, "not-found", "no job %s (unknown or expired)", ids);
    json_t *j = daemon_job_to_json(&info);
    pm_job_info_free(&info);
    return daemon_send_json(d, c, 200, j);
}

enum MHD_Result daemon_h_keys(pm_daemon *d, struct MHD_Connection *c, const req_t *rq, int preload) {
    enum MHD_Result ret;
    json_t *root = daemon_parse_body(d, c, rq, &ret);
    if (!root) return ret;
    const char *k;
    json_t *v;
    json_object_foreach(root, k, v) if (strcmp(k, "key")) {
        ret = daemon_send_error(d, c, 400, "unknown-field", "unknown field '%s'", k);
        json_decref(root);
        return ret;
    }
    const char *path = json_string_value(json_object_get(root, "key"));
    if (!json_is_object(root) || !path || !path[0]) {
        json_decref(root);
        return daemon_send_error(d, c, 400, "bad-request", "body must be {\"key\": path}");
    }
    if (!daemon_path_allowed(d, path)) {
        ret = daemon_send_error(d, c, 403, "forbidden-path", "key %s is outside paths.allow_prefix", path);
        json_decref(root);
        return ret;
    }
    pm_error err;
    pm_error_clear(&err);
    pm_status st = preload ? pm_engine_preload_key(d->engine, path, &err) : pm_engine_evict_key(d->engine, path, &err);
    if (st != PM_OK) {
        unsigned code = preload ? daemon_status_for(st) : st == PM_ERR_ARG ? 404 : 409;
        char buf[1200];
        pm_error_format(&err, buf, sizeof buf);
        ret = daemon_send_error(d, c, code, preload ? pm_status_name(st) : st == PM_ERR_ARG ? "not-found" : "in-use", "%s", buf);
    } else {
        ret = daemon_send_json(d, c, 200, json_pack("{s:s,s:s}", "key", path, "state", preload ? "ready" : "evicted"));
    }
    json_decref(root);
    return ret;
}
