/*
 * api.c — the daemon's job and key endpoints (api.h): POST /v1/jobs and /v1/prove (the submit
 * body), GET and DELETE /v1/jobs/{id}, POST /v1/keys/preload|evict (daemon.h, docs/engine.md).
 */
#include <limits.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/api.h"
#include "daemon/http.h"
#include "daemon/job_json.h"
#include "daemon/jobs.h"
#include "daemon/log.h"
#include "kinds/kind.h"
#include "util/base64.h"
#include "util/clock.h"
#include "util/confine.h"



#define DAEMON_RETRY_AFTER_S 5 /* Retry-After of a transient fault (disk full, journal I/O) */

/* 1 when path may be used (paths.allow_prefix: util/confine.h) */
static int path_allowed(pm_daemon *d, const char *path) {
    (void)d;
    /* a relative path is refused whatever the allowed directories: it would mean another file after a
     * restart from another working directory (a journalled job re-read), or under paths.allow_prefix = * */
    if (!path || path[0] != '/') return 0;
    return pm_confine_check(path, NULL) == PM_OK; /* util/confine.h: lexical, then no link followed */
}


/* fill *why (the answer the caller sends); returns -1 */
static int refuse(daemon_refusal *why, unsigned status, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int refuse(daemon_refusal *why, unsigned status, const char *code, const char *fmt, ...) {
    why->status = status;
    why->code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why->msg, sizeof why->msg, fmt, ap);
    va_end(ap);
    return -1;
}

void daemon_job_body_free(daemon_job_body *p) {
    for (size_t i = 0; p->inputs && i < p->n; i++) free((uint8_t *)p->inputs[i].bytes);
    free(p->inputs);
}

/* 403 forbidden-path for the path a body names in field what: what to do about it, and nothing about
 * the file itself (no existence, no bytes: docs/daemon.md "Which files it opens"). Returns -1. */
static int refuse_forbidden(daemon_refusal *why, const char *what, const char *path) {
    if (path[0] != '/')
        return refuse(why, 403, "forbidden-path", "%s %s is not allowed: a relative path (give an absolute one)", what,
                      path);
    return refuse(why, 403, "forbidden-path", "%s %s is not allowed: outside the daemon's allowed directories (its "
                  "log's 'paths:' line lists them; paths.key_dir, paths.input_dir, filecoin.params_dir or "
                  "paths.allow_prefix add one), or through a symbolic link", what, path);
}

/* The input {"<name>": path | number} or {"<name>_b64": base64} (v: its value; b64: which) into
 * *in (a number, e.g. a registered proof id, is its decimal text inline); 0, or -1 with *why set. */
static int parse_input(pm_daemon *d, pm_input *in, json_t *v, int b64, const char *what, daemon_refusal *why) {
    if (!b64 && json_is_integer(v) && json_integer_value(v) >= 0) { /* a number: its decimal text, inline */
        char *t = malloc(24);
        if (!t) {
            refuse(why, 500, "out-of-memory", "out of memory");
            return -1;
        }
        in->kind = PM_INPUT_BYTES;
        in->len = (size_t)snprintf(t, 24, "%" PRId64, (int64_t)json_integer_value(v));
        in->bytes = (const uint8_t *)t;
        return 0;
    }
    if (!json_is_string(v) || !json_string_length(v)) {
        refuse(why, 400, "bad-request", "%s must be a non-empty string%s", what,
               b64 ? "" : " (or a non-negative integer)");
        return -1;
    }
    if (!b64) {
        in->kind = PM_INPUT_PATH;
        in->path = json_string_value(v);
        if (!path_allowed(d, in->path)) {
            refuse_forbidden(why, what, in->path);
            return -1;
        }
        return 0;
    }
    uint8_t *bytes;
    size_t len;
    if (pm_base64_decode(&bytes, &len, json_string_value(v), json_string_length(v), PM_BASE64_PAD_OPTIONAL, NULL)) {
        refuse(why, 400, "bad-base64", "%s is not valid base64", what);
        return -1;
    }
    in->kind = PM_INPUT_BYTES;
    in->bytes = bytes;
    in->len = len;
    return 0;
}

/* 1 when key is "<name>" (*b64 = 0) or "<name>_b64" (*b64 = 1) */
static int is_input_key(const char *key, const char *name, int *b64) {
    size_t n = strlen(name);
    if (strncmp(key, name, n)) return 0;
    if (!key[n]) return *b64 = 0, 1;
    if (!strcmp(key + n, "_b64")) return *b64 = 1, 1;
    return 0;
}

/* The name of kind's input that field key gives ("<name>" or "<name>_b64"): its input_name or
 * one of its more_inputs; NULL when none. */
static const char *input_of(const pm_kind *kind, const char *key, int *b64) {
    if (is_input_key(key, kind->input_name, b64)) return kind->input_name;
    for (const char *const *m = kind->more_inputs; m && *m; m++)
        if (is_input_key(key, *m, b64)) return *m;
    return NULL;
}

/* The kind whose input field key is ("<name>" or "<name>_b64"), or NULL. */
static const pm_kind *foreign_input(const char *key) {
    char base[64];
    size_t n = strlen(key);
    if (n > 4 && !strcmp(key + n - 4, "_b64") && n - 4 < sizeof base) {
        memcpy(base, key, n - 4);
        base[n - 4] = 0;
        key = base;
    }
    return pm_kind_by_input_name(key);
}

/* A submit body into p (daemon_internal.h; pointers into root, which must outlive p). allow_wait:
 * /v1/prove. The body names a proof kind ("kind", or the older "front_end"; default snarkjs: kinds/kind.h)
 * and carries what that kind takes, by the kind's own input name, so that every kind has the same
 * shapes and nothing here knows one:
 *   {"kind": K, "key": path | "params_dir": dir, "inputs": [{"<input>": path} | {"<input>_b64": b64}, ...],
 *    "priority", "label", "wait_s"}
 * (no "key" nor "params_dir" for a kind that names its key from a directory: filecoin.params_dir)
 * and, for one input, "<input>": path or "<input>_b64": b64 at the top level (e.g. {"kind": "porep",
 * "c1": path, "params_dir": dir}); a kind's further inputs (its more_inputs, e.g. a PoSt's
 * "randomness_b64", "registered_proof": 10) the same way, at the top level or in "inputs", each
 * named in the job's inputs; an input given as a JSON number is its decimal text, inline.
 * Returns 0, or -1 with *why set (nothing sent: the caller answers). */
int daemon_parse_job(pm_daemon *d, json_t *root, int allow_wait, daemon_job_body *p, daemon_refusal *why) {
    memset(p, 0, sizeof *p);
    p->spec.priority = PM_PRIO_NORMAL;
    if (!json_is_object(root)) {
        refuse(why, 400, "bad-request", "the body must be a JSON object");
        return -1;
    }
    /* the kind first: it says which input fields exist */
    json_t *kv = json_object_get(root, "kind"), *fe = json_object_get(root, "front_end");
    if ((kv && (!json_is_string(kv) || !json_string_length(kv))) || (fe && !json_is_string(fe))) {
        refuse(why, 400, "bad-request", "field '%s' has the wrong type", kv ? "kind" : "front_end");
        return -1;
    }
    const char *kname = kv ? json_string_value(kv) : fe ? json_string_value(fe) : "snarkjs";
    const pm_kind *kind = pm_kind_find(kname);
    if (!kind || (kv && fe && pm_kind_find(json_string_value(fe)) != kind)) {
        char known[512];
        refuse(why, 400, "bad-request", "kind '%.64s' is not one of: %s", kname,
               pm_kind_names(known, sizeof known));
        return -1;
    }
    p->spec.kind = kind->name;
    if (kind->default_priority && pm_priority_parse(&p->spec.priority, kind->default_priority))
        p->spec.priority = PM_PRIO_NORMAL; /* a kind's unknown name: normal */
    const char *k;
    json_t *v, *ins = NULL;
    /* the inputs, in order: top-level fields first, then "inputs" */
    typedef struct {
        json_t *v;
        int b64;
        const char *name;
        char what[96];
    } field;
    field *f = calloc(json_object_size(root) + 1, sizeof *f);
    size_t nf = 0, n_main = 0, top_main = 0;
    if (!f) {
        refuse(why, 500, "out-of-memory", "out of memory");
        return -1;
    }
    json_object_foreach(root, k, v) {
        int b64 = 0;
        const char *name;
        const pm_kind *other;
        if (!strcmp(k, "key") || !strcmp(k, "params_dir")) {
            if (!json_is_string(v) || !json_string_length(v)) goto bad_type;
            const char *path = json_string_value(v);
            if (!path_allowed(d, path)) {
                refuse_forbidden(why, k, path);
                goto fail;
            }
            if (k[0] == 'k') p->spec.key_path = path;
            else p->spec.params_dir = path;
        } else if (!strcmp(k, "priority")) {
            if (!json_is_string(v) || pm_priority_parse(&p->spec.priority, json_string_value(v)) != 0) {
                refuse(why, 400, "bad-request", "priority must be low, normal, high or critical");
                goto fail;
            }
        } else if (!strcmp(k, "label")) {
            if (!json_is_string(v)) goto bad_type;
            if (json_string_length(v) > 127) { /* the engine keeps 127 bytes; never echo megabytes in every answer */
                refuse(why, 400, "bad-request", "label is %zu bytes long: at most 127", json_string_length(v));
                goto fail;
            }
            p->spec.label = json_string_value(v);
        } else if (!strcmp(k, "kind") || !strcmp(k, "front_end")) {
            /* read above */
        } else if (!strcmp(k, "inputs")) {
            if (!json_is_array(v)) goto bad_type;
            ins = v;
        } else if ((name = input_of(kind, k, &b64))) {
            if (name == kind->input_name && top_main++) {
                refuse(why, 400, "bad-request", "give '%s' or '%s_b64', not both", kind->input_name,
                       kind->input_name);
                goto fail;
            }
            f[nf] = (field){.v = v, .b64 = b64, .name = name};
            snprintf(f[nf].what, sizeof f[nf].what, "%s", k);
            nf++;
        } else if (allow_wait && !strcmp(k, "wait_s")) {
            if (!json_is_number(v)) goto bad_type;
            if (json_number_value(v) < 0) {
                refuse(why, 400, "bad-request", "field 'wait_s' is %g: seconds to wait, 0 or more", json_number_value(v));
                goto fail;
            }
            p->wait_s = json_number_value(v);
            p->has_wait = 1;
        } else if ((other = foreign_input(k))) {
            refuse(why, 400, "bad-request", "'%s' is an input of kind %s, not of %s (give \"kind\")",
                   k, other->name, kind->name);
            goto fail;
        } else {
            refuse(why, 400, "unknown-field", "unknown field '%s'", k);
            goto fail;
        }
    }
    if (!kind->key_path && p->spec.params_dir) {
        refuse(why, 400, "bad-request", "a %s job names its 'key' (no 'params_dir')", kind->name);
        goto fail;
    }
    if (!p->spec.key_path && !p->spec.params_dir) {
        if (!kind->key_path) {
            refuse(why, 400, "bad-request", "missing field 'key' (path of the proving key)");
            goto fail;
        }
        p->spec.params_dir = pm_daemon_params_dir(&d->cfg); /* filecoin.params_dir */
    }
    if (top_main && ins) {
        refuse(why, 400, "bad-request", "give '%s' or 'inputs', not both", kind->input_name);
        goto fail;
    }
    size_t n_ins = ins ? json_array_size(ins) : 0;
    if (n_ins) {
        field *g = realloc(f, (nf + n_ins) * sizeof *f);
        if (!g) {
            refuse(why, 500, "out-of-memory", "out of memory");
            goto fail;
        }
        f = g;
    }
    for (size_t i = 0; i < n_ins; i++) {
        json_t *in = json_array_get(ins, i);
        const char *ik = json_is_object(in) && json_object_size(in) == 1 ? json_object_iter_key(json_object_iter(in))
                                                                        : NULL;
        int b64 = 0;
        const char *name = ik ? input_of(kind, ik, &b64) : NULL;
        const pm_kind *other = name || !ik ? NULL : foreign_input(ik);
        if (other) {
            refuse(why, 400, "bad-request", "inputs[%zu]: '%s' is an input of kind %s, not of %s (give \"kind\")", i,
                   ik, other->name, kind->name);
            goto fail;
        }
        if (!name) {
            refuse(why, 400, "bad-request", "inputs[%zu] must be {\"%s\": path} or {\"%s_b64\": base64}",
                   i, kind->input_name, kind->input_name);
            goto fail;
        }
        f[nf] = (field){.v = json_object_iter_value(json_object_iter(in)), .b64 = b64, .name = name};
        snprintf(f[nf].what, sizeof f[nf].what, "inputs[%zu].%s", i, ik);
        nf++;
    }
    /* the main inputs first, in order (so "inputs[k]" in an error is the body's k-th main input),
     * then the further ones */
    for (size_t i = 0; i < nf; i++)
        if (f[i].name == kind->input_name) {
            field t = f[i];
            memmove(f + n_main + 1, f + n_main, (i - n_main) * sizeof *f);
            f[n_main++] = t;
        }
    if (n_main == 0 || n_main > kind->max_inputs) {
        refuse(why, 400, "bad-request", "'inputs' must be an array of 1..%u %s inputs",
               kind->max_inputs, kind->input_name);
        goto fail;
    }
    p->inputs = calloc(nf, sizeof *p->inputs);
    if (!p->inputs) {
        refuse(why, 500, "out-of-memory", "out of memory");
        goto fail;
    }
    p->n = nf;
    for (size_t i = 0; i < nf; i++) {
        if (parse_input(d, &p->inputs[i], f[i].v, f[i].b64, f[i].what, why)) goto fail;
        if (f[i].name != kind->input_name) p->inputs[i].name = f[i].name; /* the kind's static name */
    }
    p->spec.inputs = p->inputs;
    p->spec.n_inputs = nf;
    free(f);
    return 0;
bad_type:
    refuse(why, 400, "bad-request", "field '%s' has the wrong type", k);
fail:
    free(f);
    daemon_job_body_free(p);
    return -1;
}

json_t *daemon_body_json(const char *body, size_t len, daemon_refusal *why) {
    /* jansson holds ~40 bytes per value ("0," is 2): count them first, outside strings (every
     * value but a container's first follows a ',', every container opens with '[' or '{') */
    size_t values = 1;
    int in_str = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = body[i];
        if (!ch) { /* never JSON; jansson would drop one that follows a number ("1\0" loads as 1) */
            refuse(why, 400, "bad-json", "body is not valid JSON: a NUL byte at byte %zu", i);
            return NULL;
        }
        if (in_str) {
            if (ch == '\\') i++;
            else if (ch == '"') in_str = 0;
        } else if (ch == '"') {
            in_str = 1;
        } else if ((ch == ',' || ch == '[' || ch == '{') && ++values > DAEMON_MAX_BODY_VALUES) {
            refuse(why, 400, "bad-json", "body has more than %u JSON values (at byte %zu): a job's inputs are a few "
                   "fields, a large one is one base64 string or a path", DAEMON_MAX_BODY_VALUES, i);
            return NULL;
        }
    }
    json_error_t je;
    json_t *root = json_loadb(len ? body : "", len, JSON_REJECT_DUPLICATES, &je);
    if (!root) refuse(why, 400, "bad-json", "body is not valid JSON: %s at byte %d", je.text, je.position);
    return root;
}

/* the request body as JSON, or NULL with the 400 sent and *ret set */
static json_t *parse_body(pm_daemon *d, struct MHD_Connection *c, const req_t *rq, enum MHD_Result *ret) {
    daemon_refusal why;
    json_t *root = daemon_body_json(rq->body, rq->len, &why);
    if (!root) *ret = daemon_send_error(d, c, why.status, why.code, "%s", why.msg);
    return root;
}


/* the job's answer (reference stolen) with the journal's word on it */
static json_t *with_durable(pm_daemon *d, json_t *j) {
    if (j) json_object_set_new(j, "durable", json_boolean(daemon_jobs_durable(d)));
    return j;
}

/* Refused submits are logged at info (why, and the label); a 4xx other than 422 by daemon_send_error
 * itself (with the client's address), so not twice here. */
static enum MHD_Result refuse_submit(pm_daemon *d, struct MHD_Connection *c, const char *label, const pm_error *err) {
    char buf[1200];
    pm_error_format(err, buf, sizeof buf);
    const int transient = daemon_jobs_transient(d, err); /* the daemon's disk, not the request: 503, retry */
    const unsigned code = transient ? 503 : daemon_status_for(err->code);
    if (transient || code == 422 || code >= 500) /* other 4xx: daemon_send_error logs them with the client */
        daemon_log(d, transient ? LOG_WARN : LOG_INFO, "submit%s%s%s refused (%u %s): %s", label ? " [" : "",
                   label ? label : "", label ? "]" : "", code, transient ? "unavailable" : pm_status_name(err->code), buf);
    if (transient)
        return daemon_send_unavailable(d, c, DAEMON_RETRY_AFTER_S, "the job cannot be journaled now (retry later)", err);
    return daemon_send_pm_error(d, c, err);
}

enum MHD_Result daemon_h_submit(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *rest,
                                const req_t *rq, int await) {
    enum MHD_Result ret;
    const int64_t t0 = pm_now_us();
    json_t *root = parse_body(d, c, rq, &ret);
    if (!root) return ret;
    daemon_job_body pj;
    daemon_refusal why;
    if (daemon_parse_job(d, root, await, &pj, &why) != 0) {
        json_decref(root);
        return daemon_send_error(d, c, why.status, why.code, "%s", why.msg);
    }
    char id[PM_JOB_ID_LEN + 1];
    char label[128];
    snprintf(label, sizeof label, "%s", pj.spec.label ? pj.spec.label : "");
    pm_error err;
    pm_error_clear(&err);
    pm_status st = daemon_jobs_submit(d, &pj.spec, DAEMON_FRONT_HTTP, id, &err);
    size_t n_inputs = pj.n;
    daemon_job_body_free(&pj);
    json_decref(root);
    if (st != PM_OK) return refuse_submit(d, c, label[0] ? label : NULL, &err); /* PM_ERR_BUSY: 503 busy */
    daemon_log_job(d, LOG_INFO, id, label, "accepted (%zu inputs%s) %.1f ms after its body arrived", n_inputs,
                   daemon_jobs_durable(d) ? ", journaled" : ", not durable: state.dir is off", (pm_now_us() - t0) / 1e3);
    uint64_t eid;
    pm_job_info info;
    double wait = pj.has_wait ? pj.wait_s : d->cfg.http_max_wait_s;
    if (wait > atomic_load(&d->max_wait_s)) wait = atomic_load(&d->max_wait_s);
    if (daemon_jobs_lookup(d, id, DAEMON_FRONT_HTTP, &eid) != 0 ||
        pm_engine_wait(d->engine, eid, await ? (int64_t)(wait * 1000) : 0, &info) != PM_OK)
        return daemon_send_error(d, c, 500, "internal", "job %s vanished", id);
    if (await && info.state >= PM_JOB_DONE && daemon_jobs_wait_recorded(d, id, &err) != PM_OK) {
        /* ended, but the journal cannot take its end: not reported (a restart runs it again) */
        pm_job_info_free(&info);
        return daemon_send_unavailable(d, c, DAEMON_RETRY_AFTER_S, "the job ended but its end cannot be journaled "
                                       "yet (poll GET /v1/jobs/{id} later)", &err);
    }
    unsigned code = 202;
    if (await) {
        if (info.state == PM_JOB_DONE) code = 200;
        else if (info.state == PM_JOB_FAILED) code = daemon_status_for(info.error.code);
        else if (info.state == PM_JOB_CANCELLED) code = 409;
    }
    if (await && atomic_load(&d->closing) && info.state != PM_JOB_DONE && info.state != PM_JOB_FAILED) {
        /* SIGTERM while the client waits: say what really happens to the job (#17) */
        int durable = daemon_jobs_durable(d);
        daemon_log_job(d, LOG_WARN, id, label, "shutdown while POST /v1/prove waited: answered 503 (%s)",
                       durable ? "journaled: it runs again after the restart" : "cancelled, not durable");
        json_t *jj = with_durable(d, daemon_job_to_json(&info, id));
        json_t *e = json_pack("{s:{s:s,s:s},s:o}", "error", "code", "shutting-down", "message",
                              durable ? "the daemon is shutting down: the job was stopped and is journaled; it runs "
                                        "again after the restart (poll its id then)"
                                      : "the daemon is shutting down: the job was cancelled (state.dir is off: not durable)",
                              "job", jj ? jj : json_null());
        pm_job_info_free(&info);
        return daemon_send_json(d, c, 503, e);
    }
    json_t *j = with_durable(d, daemon_job_to_json(&info, id));
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

/* a job the engine no longer holds: the journal's stored answer, or 404 */
static enum MHD_Result stored_or_404(pm_daemon *d, struct MHD_Connection *c, const char *ids, int del) {
    pm_error err;
    pm_error_clear(&err);
    char *t = daemon_jobs_stored(d, ids, DAEMON_FRONT_HTTP, &err);
    if (!t && err.code != PM_OK)
        return daemon_send_unavailable(d, c, DAEMON_RETRY_AFTER_S, "the job's end cannot be journaled yet", &err);
    json_error_t je;
    json_t *j = t ? json_loads(t, 0, &je) : NULL;
    free(t);
    if (!j) return daemon_send_error(d, c, 404, "not-found", "no job %s (unknown or expired)", ids);
    if (del) {
        json_t *a = json_pack("{s:s,s:O}", "id", ids, "state", json_object_get(j, "state"));
        json_decref(j);
        return daemon_send_json(d, c, 200, a);
    }
    return daemon_send_json(d, c, 200, with_durable(d, j));
}

enum MHD_Result daemon_h_job(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *ids,
                             const req_t *rq, int arg) {
    uint64_t eid;
    if (!daemon_job_id_valid(ids)) return daemon_send_error(d, c, 404, "not-found", "no job '%.80s'", ids);
    int known = daemon_jobs_lookup(d, ids, DAEMON_FRONT_HTTP, &eid) == 0;
    pm_error err;
    pm_error_clear(&err);
    if (!strcmp(method, "DELETE")) {
        pm_job_state st;
        pm_job_info cur;
        int live = known && pm_engine_wait(d->engine, eid, 0, &cur) == PM_OK;
        int ended = live && cur.state >= PM_JOB_DONE;
        if (live) pm_job_info_free(&cur);
        /* the cancel is journaled before it is done or answered: a kill right after the answer
         * cannot bring the job back (a journal that refuses it: 503, nothing cancelled) */
        if (live && !ended && daemon_jobs_mark_cancel(d, ids, &err) != PM_OK)
            return daemon_send_unavailable(d, c, DAEMON_RETRY_AFTER_S, "the cancel cannot be journaled now", &err);
        /* an end the journal has not taken yet is not answered (a restart could run the job again) */
        if (ended && daemon_jobs_wait_recorded(d, ids, &err) != PM_OK)
            return daemon_send_unavailable(d, c, DAEMON_RETRY_AFTER_S, "the job's end cannot be journaled now", &err);
        if (!known || pm_engine_cancel(d->engine, eid, &st) != PM_OK) return stored_or_404(d, c, ids, 1);
        char label[128];
        daemon_log_job(d, LOG_INFO, ids, daemon_jobs_label(d, ids, label, sizeof label), "cancel requested (%s)",
                       st == PM_JOB_RUNNING ? "cancelling" : pm_job_state_name(st));
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
    if (!known || pm_engine_wait(d->engine, eid, (int64_t)(wait * 1000), &info) != PM_OK)
        return stored_or_404(d, c, ids, 0);
    if (info.state >= PM_JOB_DONE && daemon_jobs_wait_recorded(d, ids, &err) != PM_OK) {
        /* ended, but the journal cannot take its end: not reported (a restart would run it again) */
        pm_job_info_free(&info);
        return daemon_send_unavailable(d, c, DAEMON_RETRY_AFTER_S, "the job's end cannot be journaled yet", &err);
    }
    json_t *j = with_durable(d, daemon_job_to_json(&info, ids));
    pm_job_info_free(&info);
    return daemon_send_json(d, c, 200, j);
}

enum MHD_Result daemon_h_keys(pm_daemon *d, struct MHD_Connection *c, const char *method, const char *rest,
                              const req_t *rq, int preload) {
    enum MHD_Result ret;
    json_t *root = parse_body(d, c, rq, &ret);
    if (!root) return ret;
    const char *k;
    json_t *v;
    json_object_foreach(root, k, v) if (strcmp(k, "key") && strcmp(k, "kind")) {
        ret = daemon_send_error(d, c, 400, "unknown-field", "unknown field '%s'", k);
        json_decref(root);
        return ret;
    }
    const char *path = json_string_value(json_object_get(root, "key"));
    json_t *kv = json_object_get(root, "kind");
    if (!json_is_object(root) || !path || !path[0] || (kv && !json_is_string(kv))) {
        json_decref(root);
        return daemon_send_error(d, c, 400, "bad-request", "body must be {\"key\": path[, \"kind\": name]}");
    }
    /* the key's proof kind (default: the engine's, snarkjs); evict without one drops any kind's */
    const char *kind = NULL;
    if (kv) {
        const pm_kind *kk = pm_kind_find(json_string_value(kv));
        if (!kk) {
            char known[512];
            ret = daemon_send_error(d, c, 400, "bad-request", "kind '%.64s' is not one of: %s", json_string_value(kv),
                                    pm_kind_names(known, sizeof known));
            json_decref(root);
            return ret;
        }
        kind = kk->name;
    }
    if (!path_allowed(d, path)) {
        daemon_refusal why;
        refuse_forbidden(&why, "key", path);
        ret = daemon_send_error(d, c, why.status, why.code, "%s", why.msg);
        json_decref(root);
        return ret;
    }
    pm_error err;
    pm_error_clear(&err);
    pm_status st = preload ? pm_engine_preload_key(d->engine, kind, path, &err)
                           : pm_engine_evict_key(d->engine, kind, path, &err);
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
