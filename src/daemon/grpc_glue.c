/*
 * grpc_glue.c — cuzk.v1.ProvingEngine over the engine (grpc_glue.h; the C++ edge is grpc_server.cc).
 *
 * The proof-kind table ROWS[] is the one place that knows a cuzk ProofKind: its wire value, its
 * name in the .proto, what it proves (for messages), its circuit-id prefix (cuzk's porep / snap /
 * wpost / winning: "porep-32g") and the name of the registered proof kind (kinds/kind.h) that
 * serves it, overridable by grpc.proof_kinds. The kind is looked up in the registry at each call:
 * a row whose kind is not registered answers UNIMPLEMENTED, and starts working once a kind of that
 * name is (nothing here changes). Everything else a request means comes from the kind: its inputs
 * (the field convention of grpc_glue.h), its key (key_path from the daemon's parameter directory;
 * key_for_size for circuit ids), its default priority, its proofs' form.
 *
 * State kept here, beside the engine's own: one row per job submitted with a request_id (engine
 * id, request_id, ProofKind, registered_proof), under one mutex, for request_id idempotency. A row
 * being submitted (plan running in the submitting thread) is marked so that a second SubmitProof
 * with the same request_id waits for it instead of submitting a twin. Rows of finished jobs are
 * dropped after jobs.retain_s (the engine forgets the job then too). Queues and device state come
 * from the engine's status (per kind, per device), not from here.
 */
#include "daemon/grpc_glue.h"

#include <inttypes.h>
#include <jansson.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/grpc_server.h"
#include "daemon/job_proof.h"
#include "kinds/kind.h"
#include "util/base64.h"
#include "util/clock.h"
#ifdef PROOFMILL_HAVE_GPU
#include "gpu/gpu.h"
#endif

enum { LOG_ERROR = 0, LOG_WARN = 1, LOG_INFO = 2, LOG_DEBUG = 3 };
#define RID_MAX 256 /* request_id bytes kept (longer ones are refused) */
#define SLICE_MAX_MS 200
#define KIND_NAME_MAX 32

/* One cuzk ProofKind. */
typedef struct {
    int proto;           /* cuzk.v1.ProofKind value */
    const char *enum_name;
    const char *what;    /* for messages */
    const char *circuit; /* circuit-id prefix: "<circuit>-<size>" */
    const char *kind;    /* the registered kind serving it (grpc.proof_kinds may name another) */
} proof_row;

static const proof_row ROWS[] = {
    {1, "POREP_SEAL_COMMIT", "PoRep C2", "porep", "porep-c2"},
    {2, "SNAP_DEALS_UPDATE", "SnapDeals", "snap", "snapdeals"},
    {3, "WINDOW_POST_PARTITION", "WindowPoSt", "wpost", "window-post"},
    {4, "WINNING_POST", "WinningPoSt", "winning", "winning-post"},
};
#define N_ROWS (sizeof ROWS / sizeof ROWS[0])

typedef struct {
    uint64_t id;       /* engine job id; 0 while submitting */
    char rid[RID_MAX]; /* request_id */
    size_t row;
    uint64_t registered_proof;
    int submitting;
    int final;
    int64_t final_ms; /* monotonic ms when seen final */
} gjob;

struct pm_grpc_front {
    pm_grpc_front_config c;
    pm_engine *engine;
    _Atomic uint64_t body_held; /* SubmitProof bodies in flight (body_reserve) */
    uint64_t body_max;          /* grpc.max_buffered_bytes, resolved */
    char params_dir[512];
    char kinds[N_ROWS][KIND_NAME_MAX]; /* the kind name of each row */
    unsigned retain_s;
    int gpu_backend; /* gpu.devices set: the engine's devices are CUDA ordinals */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    gjob *jobs;
    size_t n, cap;
    atomic_int closing;
    pm_grpc_ops ops;
    pm_grpc_server *srv;
    unsigned port;
    char unix_path[256];
};

/* ---------------------------------------------------------------- helpers */

static pm_grpc_code fail(pm_grpc_status *st, pm_grpc_code code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static pm_grpc_code fail(pm_grpc_status *st, pm_grpc_code code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->message, sizeof st->message, fmt, ap);
    va_end(ap);
    st->code = code;
    return code;
}

static void glog(const pm_grpc_front *f, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void glog(const pm_grpc_front *f, int level, const char *fmt, ...) {
    if (!f->c.log) return;
    char msg[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    f->c.log(f->c.log_arg, level, msg);
}

static int64_t mono_ms(void) { return pm_now_us() / 1000; }

static uint64_t ms_u64(double ms) { return ms > 0 ? (uint64_t)(ms + 0.5) : 0; }

/* The status of an engine/kind error met by a request: the client's input (INVALID_ARGUMENT), the
 * daemon's parameter files (FAILED_PRECONDITION: missing, or unreadable/malformed files under the
 * parameter directory; PM_ERR_KEY: a key whose proof of a satisfying witness fails its own
 * verification key, groth16/key_check.h), capacity (RESOURCE_EXHAUSTED), shutdown (UNAVAILABLE). */
static pm_grpc_code code_for(const pm_grpc_front *f, const pm_error *e) {
    if (f->c.transient && f->c.transient(f->c.jobs_arg, e)) return PM_GRPC_UNAVAILABLE; /* disk full: retry */
    size_t dl = strlen(f->params_dir);
    int in_params = dl && !strncmp(e->file, f->params_dir, dl) && (e->file[dl] == '/' || e->file[dl] == 0);
    switch (e->code) {
    case PM_ERR_NOMEM:
    case PM_ERR_BUSY: return PM_GRPC_RESOURCE_EXHAUSTED; /* jobs.max, the memory budget: retry later */
    case PM_ERR_CANCELLED: return PM_GRPC_UNAVAILABLE;
    case PM_ERR_IO:
    case PM_ERR_KEY: return PM_GRPC_FAILED_PRECONDITION; /* the daemon's key, not the request, is at fault */
    case PM_ERR_ARG:
    case PM_ERR_MISMATCH: return PM_GRPC_INVALID_ARGUMENT; /* sizes of request, vanilla proofs and key disagree */
    case PM_ERR_FORMAT:
    case PM_ERR_ENCODING:
    case PM_ERR_NOT_ON_CURVE:
    case PM_ERR_NOT_IN_SUBGROUP:
    case PM_ERR_CURVE:
    case PM_ERR_UNSATISFIED: return in_params ? PM_GRPC_FAILED_PRECONDITION : PM_GRPC_INVALID_ARGUMENT;
    default: return PM_GRPC_INTERNAL;
    }
}

static pm_grpc_code fail_pm(const pm_grpc_front *f, pm_grpc_status *st, const pm_error *e) {
    char buf[1100];
    pm_error_format(e, buf, sizeof buf);
    return fail(st, code_for(f, e), "%s: %s", pm_status_name(e->code), buf);
}

/* Circuit-id size suffix: 2048 -> "2k", 8 MiB -> "8m", 32 GiB -> "32g" (cuzk: porep-32g). */
static void size_suffix(char out[24], uint64_t bytes) {
    if (bytes % (1ull << 30) == 0) snprintf(out, 24, "%" PRIu64 "g", bytes >> 30);
    else if (bytes % (1ull << 20) == 0) snprintf(out, 24, "%" PRIu64 "m", bytes >> 20);
    else snprintf(out, 24, "%" PRIu64 "k", bytes >> 10);
}

/* ---------------------------------------------------------------- proof kinds */

static const proof_row *row_of_proto(int proto, size_t *ri) {
    for (size_t i = 0; i < N_ROWS; i++)
        if (ROWS[i].proto == proto) return *ri = i, &ROWS[i];
    return NULL;
}

/* The registered kind serving row ri, or NULL with UNIMPLEMENTED in *st. */
static const pm_kind *row_kind(const pm_grpc_front *f, size_t ri, pm_grpc_status *st) {
    const pm_kind *k = pm_kind_find(f->kinds[ri]);
    if (!k) {
        char known[512];
        fail(st, PM_GRPC_UNIMPLEMENTED,
             "%s (%s) proving is not available: no proof kind '%s' is registered in this proofmill (its kinds: %s; "
             "grpc.proof_kinds maps ProofKinds to kinds)",
             ROWS[ri].what, ROWS[ri].enum_name, f->kinds[ri], pm_kind_names(known, sizeof known));
    }
    return k;
}

/* The request's inputs for kind k (grpc_glue.h's field convention) into in[] (borrowing the
 * request's bytes; numbers written as decimal text into num[]). Returns the count, or -1 with
 * INVALID_ARGUMENT in *st. */
#define MAX_FURTHER 9
typedef char num_text[24];
static long request_inputs(pm_input **out, num_text num[MAX_FURTHER], const pm_kind *k, const pm_grpc_submit_req *q,
                           pm_grpc_status *st) {
    *out = NULL;
    size_t n_main = (q->vanilla_proof_len ? 1 : 0) + q->n_vanilla_proofs;
    if (!n_main)
        return fail(st, PM_GRPC_INVALID_ARGUMENT,
                    "vanilla_proof and vanilla_proofs are empty: a %s job takes its %s there (1..%u)", k->name,
                    k->input_name, k->max_inputs),
               -1;
    if (n_main > k->max_inputs)
        return fail(st, PM_GRPC_INVALID_ARGUMENT,
                    "%zu vanilla proofs (vanilla_proof and vanilla_proofs together); a %s job takes 1..%u %s", n_main,
                    k->name, k->max_inputs, k->input_name),
               -1;
    pm_input *in = calloc(n_main + MAX_FURTHER, sizeof *in);
    if (!in) return fail(st, PM_GRPC_RESOURCE_EXHAUSTED, "out of memory"), -1;
    size_t n = 0;
    if (q->vanilla_proof_len) in[n++] = (pm_input){.kind = PM_INPUT_BYTES, .bytes = q->vanilla_proof, .len = q->vanilla_proof_len};
    for (size_t i = 0; i < q->n_vanilla_proofs; i++)
        in[n++] = (pm_input){.kind = PM_INPUT_BYTES, .bytes = q->vanilla_proofs[i] ? q->vanilla_proofs[i] : (const uint8_t *)"",
                             .len = q->vanilla_proofs_len[i]};
    const struct {
        const char *name;
        const uint8_t *b;
        size_t len;
    } bytes[] = {{"randomness", q->randomness, q->randomness_len},
                 {"comm_r_old", q->comm_r_old, q->comm_r_old_len},
                 {"comm_r_new", q->comm_r_new, q->comm_r_new_len},
                 {"comm_d_new", q->comm_d_new, q->comm_d_new_len}};
    for (size_t i = 0; i < sizeof bytes / sizeof bytes[0]; i++) {
        if (!bytes[i].len) continue; /* proto3: empty = not given */
        if (pm_kind_input_role(k, bytes[i].name) != 2) {
            free(in);
            return fail(st, PM_GRPC_INVALID_ARGUMENT, "%s is set, but a %s job takes no '%s'", bytes[i].name, k->name,
                        bytes[i].name),
                   -1;
        }
        in[n++] = (pm_input){.kind = PM_INPUT_BYTES, .bytes = bytes[i].b, .len = bytes[i].len, .name = bytes[i].name};
    }
    const struct {
        const char *name;
        uint64_t v;
    } nums[] = {{"registered_proof", q->registered_proof}, {"sector_size", q->sector_size},
                {"sector_number", q->sector_number},       {"miner_id", q->miner_id},
                {"partition_index", q->partition_index}};
    size_t nn = 0;
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++) {
        if (pm_kind_input_role(k, nums[i].name) != 2) continue; /* a number the kind does not read */
        int len = snprintf(num[nn], sizeof num[nn], "%" PRIu64, nums[i].v);
        in[n++] = (pm_input){.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)num[nn], .len = (size_t)len,
                             .name = nums[i].name};
        nn++;
    }
    *out = in;
    return (long)n;
}

/* "<prefix>-<N><k|m|g>" -> row, its kind and the size in bytes. */
static pm_grpc_code parse_circuit(const pm_grpc_front *f, const char *cid, const pm_kind **kind, uint64_t *size,
                                  pm_grpc_status *st) {
    const char *dash = strrchr(cid, '-');
    for (size_t i = 0; dash && i < N_ROWS; i++) {
        size_t pl = (size_t)(dash - cid);
        if (strlen(ROWS[i].circuit) != pl || strncmp(cid, ROWS[i].circuit, pl)) continue;
        if (!(*kind = row_kind(f, i, st))) return st->code;
        if (!(*kind)->key_for_size)
            return fail(st, PM_GRPC_UNIMPLEMENTED, "%s: kind %s names its keys from its jobs only", cid, (*kind)->name);
        const char *p = dash + 1;
        size_t digits = strspn(p, "0123456789");
        int shift = p[digits] == 'k' ? 10 : p[digits] == 'm' ? 20 : p[digits] == 'g' ? 30 : -1;
        if (digits && digits <= 6 && shift > 0 && p[digits + 1] == 0) {
            *size = strtoull(p, NULL, 10) << shift;
            return PM_GRPC_OK;
        }
        return fail(st, PM_GRPC_INVALID_ARGUMENT,
                    "circuit id '%s': the size must be a number with k, m or g, such as 2k, 8m, 512m, 32g or 64g", cid);
    }
    char known[128] = "";
    for (size_t i = 0, o = 0; i < N_ROWS; i++)
        o += (size_t)snprintf(known + o, sizeof known - o, "%s%s-32g", i ? ", " : "", ROWS[i].circuit);
    return fail(st, PM_GRPC_INVALID_ARGUMENT, "unknown circuit id '%.200s' (a kind and a size: %s, porep-2k, ...)", cid,
                known);
}

/* The circuit id of a cached key (kind, path), or the path itself when no row's kind names it:
 * the row whose kind it is and a size whose key_for_size, in the key's own directory, is the path
 * (circuit sizes are powers of two: 2 KiB .. 1 TiB). */
static void circuit_of_key(const pm_grpc_front *f, char *out, size_t cap, const char *kind, const char *path) {
    const char *slash = strrchr(path, '/');
    char dir[512];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    for (size_t r = 0; r < N_ROWS; r++) {
        const pm_kind *k = pm_kind_find(f->kinds[r]);
        if (!k || !k->key_for_size || strcmp(k->name, kind)) continue;
        for (int sh = 10; sh <= 40; sh++) {
            char key[1024], sfx[24];
            pm_error e;
            if (k->key_for_size(key, sizeof key, dir, 1ull << sh, &e) || strcmp(key, path)) continue;
            size_suffix(sfx, 1ull << sh);
            snprintf(out, cap, "%s-%s", ROWS[r].circuit, sfx);
            return;
        }
    }
    snprintf(out, cap, "%s", path);
}

/* ---------------------------------------------------------------- request_id table (f->mu held) */

static gjob *find_rid_locked(pm_grpc_front *f, const char *rid) {
    for (size_t i = 0; i < f->n; i++)
        if (!strcmp(f->jobs[i].rid, rid)) return &f->jobs[i];
    return NULL;
}

static gjob *find_id_locked(pm_grpc_front *f, uint64_t id) {
    for (size_t i = 0; i < f->n; i++)
        if (f->jobs[i].id == id) return &f->jobs[i];
    return NULL;
}

static void drop_locked(pm_grpc_front *f, gjob *g) { *g = f->jobs[--f->n]; }

static gjob *add_locked(pm_grpc_front *f) {
    int64_t now = mono_ms();
    for (size_t i = 0; i < f->n;) /* rows the engine has forgotten (jobs.retain_s after the end) */
        if (f->jobs[i].final && now - f->jobs[i].final_ms > (int64_t)f->retain_s * 1000) drop_locked(f, &f->jobs[i]);
        else i++;
    if (f->n == f->cap) {
        size_t nc = f->cap ? 2 * f->cap : 64;
        gjob *nj = realloc(f->jobs, nc * sizeof *nj);
        if (!nj) return NULL;
        f->jobs = nj;
        f->cap = nc;
    }
    gjob *g = &f->jobs[f->n++];
    memset(g, 0, sizeof *g);
    return g;
}

static void mark_final(pm_grpc_front *f, uint64_t id) {
    pthread_mutex_lock(&f->mu);
    gjob *g = find_id_locked(f, id);
    if (g && !g->final) {
        g->final = 1;
        g->final_ms = mono_ms();
    }
    pthread_mutex_unlock(&f->mu);
}

static int is_final(pm_job_state s) { return s == PM_JOB_DONE || s == PM_JOB_FAILED || s == PM_JOB_CANCELLED; }

/* The name job_id carries for engine job id: the daemon's job id (config hook; "" for a job of
 * another front end, which gRPC does not name), else (no hooks) decimal. */
static void job_name(const pm_grpc_front *f, uint64_t id, char *out, size_t cap) {
    out[0] = 0;
    if (f->c.name_of) f->c.name_of(f->c.jobs_arg, id, out, cap);
    else snprintf(out, cap, "%" PRIu64, id);
}

/* job_id: a daemon job id of a gRPC job (config hook), or a request_id (not all digits) of a
 * gRPC job; the engine id in decimal only without the daemon's hooks (with them, engine numbers are
 * sequential and would reach other clients' jobs: docs/daemon.md "Who can reach which job"). */
static pm_grpc_code resolve(pm_grpc_front *f, const char *job_id, uint64_t *id, pm_grpc_status *st) {
    if (f->c.lookup && f->c.lookup(f->c.jobs_arg, job_id, id) == 0) return PM_GRPC_OK;
    size_t n = strlen(job_id), digits = strspn(job_id, "0123456789");
    if (!f->c.lookup && n && n == digits && n <= 19) {
        *id = strtoull(job_id, NULL, 10);
        return PM_GRPC_OK;
    }
    if (!n) return fail(st, PM_GRPC_INVALID_ARGUMENT, "job_id is empty");
    pthread_mutex_lock(&f->mu);
    gjob *g = find_rid_locked(f, job_id);
    *id = g && !g->submitting ? g->id : 0;
    pthread_mutex_unlock(&f->mu);
    if (*id) return PM_GRPC_OK;
    return fail(st, PM_GRPC_NOT_FOUND, "no job '%.200s' (neither a job id nor a request_id of a job submitted here)",
                job_id);
}

/* ---------------------------------------------------------------- operations */

static void fill_submit_resp(pm_grpc_front *f, uint64_t id, pm_grpc_submit_resp *r) {
    job_name(f, id, r->job_id, sizeof r->job_id);
    pm_engine_status es;
    pm_job_info info;
    r->queue_position = 0;
    if (pm_engine_get_status(f->engine, &es) != PM_OK) return;
    if (pm_engine_wait(f->engine, id, 0, &info) == PM_OK) {
        if (info.state == PM_JOB_QUEUED) { /* admission order: priority desc, then FIFO */
            unsigned ahead = 0;
            for (int p = PM_PRIO_COUNT - 1; p > (int)info.priority; p--) ahead += es.queued[p];
            ahead += es.queued[info.priority] ? es.queued[info.priority] - 1 : 0;
            r->queue_position = ahead;
        }
        pm_job_info_free(&info);
    }
    size_t o = 0;
    r->assigned_gpu[0] = 0;
    if (!f->gpu_backend) snprintf(r->assigned_gpu, sizeof r->assigned_gpu, "cpu");
    for (unsigned i = 0; f->gpu_backend && i < es.n_devices && o + 12 < sizeof r->assigned_gpu; i++)
        o += (size_t)snprintf(r->assigned_gpu + o, sizeof r->assigned_gpu - o, "%s%d", i ? "," : "", es.devices[i]);
    pm_engine_status_free(&es);
}

/* request_id's job while it is queued, running or done: PM_GRPC_OK with *id (0: none, submit
 * one; a row marked submitting is then held for this caller); ALREADY_EXISTS when it names
 * another ProofKind or registered proof. */
static pm_grpc_code rid_claim(pm_grpc_front *f, const char *rid, size_t ri, uint64_t rp, uint64_t *id,
                              pm_grpc_status *st) {
    *id = 0;
    pthread_mutex_lock(&f->mu);
    for (;;) {
        gjob *g = find_rid_locked(f, rid);
        if (g && g->submitting) { /* a twin submit in flight: its outcome decides */
            pthread_cond_wait(&f->cv, &f->mu);
            continue;
        }
        if (!g) break;
        pm_job_info info;
        if (pm_engine_wait(f->engine, g->id, 0, &info) != PM_OK) {
            drop_locked(f, g); /* expired */
            break;
        }
        pm_job_state s = info.state;
        pm_job_info_free(&info);
        if (s == PM_JOB_FAILED || s == PM_JOB_CANCELLED) {
            drop_locked(f, g); /* a retry proves again */
            break;
        }
        if (g->row != ri || g->registered_proof != rp) {
            char name[48];
            job_name(f, g->id, name, sizeof name);
            pm_grpc_code c = fail(st, PM_GRPC_ALREADY_EXISTS,
                                  "request_id '%s' names job %s (%s, registered_proof %" PRIu64
                                  "), not a %s job for registered_proof %" PRIu64,
                                  rid, name, ROWS[g->row].enum_name, g->registered_proof, ROWS[ri].enum_name, rp);
            pthread_mutex_unlock(&f->mu);
            return c;
        }
        *id = g->id;
        pthread_mutex_unlock(&f->mu);
        glog(f, LOG_INFO, "grpc SubmitProof request_id=%s: the same job %" PRIu64 " (%s)", rid, *id, pm_job_state_name(s));
        return PM_GRPC_OK;
    }
    gjob *g = add_locked(f);
    if (!g) {
        pthread_mutex_unlock(&f->mu);
        return fail(st, PM_GRPC_RESOURCE_EXHAUSTED, "out of memory");
    }
    snprintf(g->rid, sizeof g->rid, "%s", rid);
    g->row = ri;
    g->registered_proof = rp;
    g->submitting = 1;
    pthread_mutex_unlock(&f->mu);
    return PM_GRPC_OK;
}

/* The claimed row of rid gets job id (0: the submit failed, the row goes). */
static void rid_settle(pm_grpc_front *f, const char *rid, uint64_t id) {
    pthread_mutex_lock(&f->mu);
    gjob *g = find_rid_locked(f, rid);
    if (g && !id) drop_locked(f, g);
    else if (g) g->id = id, g->submitting = 0;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
}

static pm_grpc_code op_submit(void *self, const pm_grpc_submit_req *q, pm_grpc_submit_resp *r, pm_grpc_status *st) {
    pm_grpc_front *f = self;
    if (atomic_load(&f->closing)) return fail(st, PM_GRPC_UNAVAILABLE, "the daemon is shutting down");
    const char *rid = q->request_id ? q->request_id : "";
    if (strlen(rid) >= RID_MAX)
        return fail(st, PM_GRPC_INVALID_ARGUMENT, "request_id is %zu bytes; at most %d", strlen(rid), RID_MAX - 1);
    if (q->proof_kind == 0) return fail(st, PM_GRPC_INVALID_ARGUMENT, "proof_kind is PROOF_KIND_UNSPECIFIED");
    size_t ri;
    const proof_row *row = row_of_proto(q->proof_kind, &ri);
    if (!row)
        return fail(st, PM_GRPC_INVALID_ARGUMENT, "proof_kind %d is not a cuzk.v1.ProofKind (1..%zu)", q->proof_kind,
                    N_ROWS);
    const pm_kind *k = row_kind(f, ri, st);
    if (!k) {
        glog(f, LOG_INFO, "grpc SubmitProof request_id=%s %s: unimplemented (no kind %s)", rid, row->enum_name,
             f->kinds[ri]);
        return st->code;
    }
    if (!k->key_path) /* e.g. snarkjs: no parameter directory names its key */
        return fail(st, PM_GRPC_UNIMPLEMENTED, "kind %s (grpc.proof_kinds %s) names its key in each job, which a cuzk "
                    "request cannot", k->name, row->enum_name);
    pm_priority prio = PM_PRIO_NORMAL;
    if (q->priority >= 1 && q->priority <= 4) prio = (pm_priority)(q->priority - 1); /* LOW=1 .. CRITICAL=4 */
    else if (q->priority != 0)
        return fail(st, PM_GRPC_INVALID_ARGUMENT, "priority %d is not a cuzk.v1.Priority (0..4)", q->priority);
    else if (k->default_priority && pm_priority_parse(&prio, k->default_priority))
        prio = PM_PRIO_NORMAL;
    pm_input *in;
    num_text num[MAX_FURTHER];
    long n_in = request_inputs(&in, num, k, q, st);
    if (n_in < 0) return st->code;

    uint64_t id = 0;
    if (rid[0]) {
        if (rid_claim(f, rid, ri, q->registered_proof, &id, st) != PM_GRPC_OK) {
            free(in);
            return st->code;
        }
        if (id) { /* the same job */
            free(in);
            fill_submit_resp(f, id, r);
            return PM_GRPC_OK;
        }
    }
    pm_job_spec spec = {.kind = k->name, .params_dir = f->params_dir, .priority = prio, .inputs = in,
                        .n_inputs = (size_t)n_in, .label = rid[0] ? rid : NULL};
    pm_error e;
    pm_error_clear(&e);
    char name[48] = "";
    /* through the daemon's journal when it gives one (docs/daemon.md), so a gRPC job survives a
     * restart as an HTTP one does */
    pm_status ps = f->c.submit ? f->c.submit(f->c.jobs_arg, &spec, &id, name, sizeof name, &e)
                               : pm_engine_submit(f->engine, &spec, &id, &e);
    free(in);
    if (ps != PM_OK) id = 0;
    if (rid[0]) rid_settle(f, rid, id);
    if (ps != PM_OK) {
        fail_pm(f, st, &e);
        glog(f, LOG_WARN, "grpc SubmitProof request_id=%s kind=%s registered_proof=%" PRIu64 " (%zu bytes): %s", rid,
             k->name, q->registered_proof, q->vanilla_proof_len, st->message);
        return st->code;
    }
    fill_submit_resp(f, id, r);
    glog(f, LOG_INFO,
         "grpc SubmitProof request_id=%s kind=%s registered_proof=%" PRIu64 " sector=%" PRIu64 " miner=%" PRIu64
         " (%zu bytes) -> job %s (queue position %u)",
         rid, k->name, q->registered_proof, q->sector_number, q->miner_id, q->vanilla_proof_len, r->job_id,
         r->queue_position);
    return PM_GRPC_OK;
}

/* AwaitProof of a job that ended before a restart: its answer from the journal (the HTTP API's job
 * JSON: state, timings_ms, proof_b64, error). 1 when found. */
static int stored_answer(pm_grpc_front *f, const char *job_id, pm_grpc_await_resp *r, pm_grpc_status *st) {
    pm_error se;
    pm_error_clear(&se);
    char *text = f->c.stored ? f->c.stored(f->c.jobs_arg, job_id, &se) : NULL;
    if (!text && se.code != PM_OK) { /* ended, but its end is not durable yet: not reported */
        fail(st, PM_GRPC_UNAVAILABLE, "job %s: its end cannot be journaled yet (retry): %s", job_id, se.msg);
        return -1;
    }
    json_error_t je;
    json_t *j = text ? json_loads(text, 0, &je) : NULL;
    free(text);
    const char *state = json_string_value(json_object_get(j, "state"));
    if (!state) {
        json_decref(j);
        return 0;
    }
    snprintf(r->job_id, sizeof r->job_id, "%s", job_id);
    json_t *t = json_object_get(j, "timings_ms");
    r->queue_wait_ms = ms_u64(json_number_value(json_object_get(t, "queue")));
    r->srs_load_ms = ms_u64(json_number_value(json_object_get(t, "srs_load")));
    r->synthesis_ms = ms_u64(json_number_value(json_object_get(t, "synthesis")));
    r->gpu_compute_ms = ms_u64(json_number_value(json_object_get(t, "start")) +
                               json_number_value(json_object_get(t, "device_lock_wait")));
    r->total_ms = ms_u64(json_number_value(json_object_get(t, "total")));
    const char *b64 = json_string_value(json_object_get(j, "proof_b64"));
    json_t *e = json_object_get(j, "error");
    if (!strcmp(state, "done") && b64 &&
        pm_base64_decode(&r->proof, &r->proof_len, b64, strlen(b64), PM_BASE64_PAD_OPTIONAL, NULL) == PM_OK) {
        r->status = PM_GRPC_AWAIT_COMPLETED;
    } else if (!strcmp(state, "cancelled")) {
        r->status = PM_GRPC_AWAIT_CANCELLED;
    } else {
        snprintf(r->error_message, sizeof r->error_message, "%s: %s",
                 json_string_value(json_object_get(e, "code")) ?: "internal",
                 json_string_value(json_object_get(e, "message")) ?: "no proof in the journal's answer");
        r->status = PM_GRPC_AWAIT_FAILED;
    }
    json_decref(j);
    return 1;
}

static pm_grpc_code op_await(void *self, const char *job_id, int64_t timeout_ms, pm_grpc_await_resp *r,
                             pm_grpc_status *st) {
    pm_grpc_front *f = self;
    uint64_t id;
    if (resolve(f, job_id, &id, st) != PM_GRPC_OK) {
        pm_grpc_status st2;
        memset(&st2, 0, sizeof st2);
        int sa = stored_answer(f, job_id, r, &st2);
        if (sa < 0) *st = st2;
        return sa > 0 ? PM_GRPC_OK : st->code;
    }
    if (timeout_ms > SLICE_MAX_MS) timeout_ms = SLICE_MAX_MS;
    if (timeout_ms < 0) timeout_ms = 0;
    int64_t t0 = mono_ms();
    pm_job_info info;
    if (pm_engine_wait(f->engine, id, timeout_ms, &info) != PM_OK) { /* the engine forgot it: the journal may not */
        int sa = stored_answer(f, job_id, r, st);
        if (sa < 0) return st->code;
        return sa ? PM_GRPC_OK
                  : fail(st, PM_GRPC_NOT_FOUND, "no job %s (unknown, or expired jobs.retain_s = %u s after it ended)",
                         job_id, f->retain_s);
    }
    job_name(f, id, r->job_id, sizeof r->job_id);
    if (is_final(info.state) && f->c.wait_recorded) {
        pm_error we;
        pm_error_clear(&we);
        if (f->c.wait_recorded(f->c.jobs_arg, r->job_id, &we) != PM_OK) {
            /* ended, but the journal cannot take its end: not reported (a restart runs it again) */
            pm_job_info_free(&info);
            return fail(st, PM_GRPC_UNAVAILABLE, "job %s ended but its end cannot be journaled yet (retry): %s",
                        r->job_id, we.msg);
        }
    }
    r->queue_wait_ms = ms_u64(info.t.queue_ms);
    r->srs_load_ms = ms_u64(info.t.srs_load_ms);
    r->synthesis_ms = ms_u64(info.t.synth_ms);
    r->gpu_compute_ms = ms_u64(info.t.gpu_ms);
    r->total_ms = ms_u64(info.t.total_ms);
    pm_grpc_code c = PM_GRPC_OK;
    pm_error e;
    pm_error_clear(&e);
    switch (info.state) {
    case PM_JOB_DONE:
        if (pm_job_proof_bytes(&r->proof, &r->proof_len, &info, &e) != PM_OK)
            c = fail(st, e.code == PM_ERR_NOMEM ? PM_GRPC_RESOURCE_EXHAUSTED : PM_GRPC_FAILED_PRECONDITION, "%s", e.msg);
        r->status = PM_GRPC_AWAIT_COMPLETED;
        break;
    case PM_JOB_FAILED: {
        char buf[1100];
        if (f->c.name_inputs) f->c.name_inputs(&info.error); /* a spooled input by its place */
        pm_error_format(&info.error, buf, sizeof buf);
        snprintf(r->error_message, sizeof r->error_message, "%s: %s", pm_status_name(info.error.code), buf);
        r->status = PM_GRPC_AWAIT_FAILED;
        break;
    }
    case PM_JOB_CANCELLED: r->status = PM_GRPC_AWAIT_CANCELLED; break;
    default:
        r->status = PM_GRPC_AWAIT_TIMEOUT;
        /* pm_engine_wait returns before its timeout only at a final state or once the engine is
         * closed (engine.h): then the job's answer will not come from here */
        if (atomic_load(&f->closing) || mono_ms() - t0 + 2 < timeout_ms)
            c = fail(st, PM_GRPC_UNAVAILABLE, "the daemon is shutting down (job %s is %s)", r->job_id,
                     pm_job_state_name(info.state));
    }
    if (is_final(info.state)) mark_final(f, id);
    pm_job_info_free(&info);
    return c;
}

static pm_grpc_code op_cancel(void *self, const char *job_id, int *was_running, pm_grpc_status *st) {
    pm_grpc_front *f = self;
    uint64_t id;
    *was_running = 0;
    if (resolve(f, job_id, &id, st) != PM_GRPC_OK) return st->code;
    pm_job_info info;
    if (pm_engine_wait(f->engine, id, 0, &info) != PM_OK)
        return fail(st, PM_GRPC_NOT_FOUND, "no job '%.200s' (unknown or expired)", job_id);
    pm_job_state before = info.state, after;
    pm_job_info_free(&info);
    char name[64];
    job_name(f, id, name, sizeof name);
    /* durable as HTTP DELETE: the cancel is journaled before the engine acts and OK is answered, so
     * a kill right after the answer cannot bring the job back at the restart */
    /* an end the journal has not taken yet is not answered: UNAVAILABLE, as AwaitProof */
    if (is_final(before) && f->c.wait_recorded) {
        pm_error e;
        pm_error_clear(&e);
        if (f->c.wait_recorded(f->c.jobs_arg, name, &e) != PM_OK) {
            fail_pm(f, st, &e);
            return st->code;
        }
    }
    if (!is_final(before) && f->c.mark_cancel) {
        pm_error e;
        pm_error_clear(&e);
        if (f->c.mark_cancel(f->c.jobs_arg, name, &e) != PM_OK) {
            fail_pm(f, st, &e);
            glog(f, LOG_WARN, "grpc CancelProof job %s: not cancelled: %s", name, st->message);
            return st->code;
        }
    }
    if (pm_engine_cancel(f->engine, id, &after) != PM_OK)
        return fail(st, PM_GRPC_NOT_FOUND, "no job '%.200s' (unknown or expired)", job_id);
    *was_running = before == PM_JOB_RUNNING || after == PM_JOB_RUNNING;
    glog(f, LOG_INFO, "grpc CancelProof job %s: was %s, now %s", name, pm_job_state_name(before),
         after == PM_JOB_RUNNING ? "cancelling" : pm_job_state_name(after));
    return PM_GRPC_OK;
}

static pm_grpc_code op_status(void *self, pm_grpc_status_resp *r, pm_grpc_status *st) {
    pm_grpc_front *f = self;
    pm_engine_status es;
    if (pm_engine_get_status(f->engine, &es) != PM_OK) return fail(st, PM_GRPC_INTERNAL, "engine status");
    memset(r, 0, sizeof *r);
    r->gpus = calloc(es.n_devices ? es.n_devices : 1, sizeof *r->gpus);
    r->srs = calloc(es.n_keys ? es.n_keys : 1, sizeof *r->srs);
    r->queues = calloc(es.n_kinds + N_ROWS + 1, sizeof *r->queues);
    if (!r->gpus || !r->srs || !r->queues) {
        pm_engine_status_free(&es);
        return fail(st, PM_GRPC_RESOURCE_EXHAUSTED, "out of memory");
    }
#ifdef PROOFMILL_HAVE_GPU
    for (unsigned i = 0; f->gpu_backend && i < es.n_devices; i++) {
        gpu_device_info_t di;
        pm_error e;
        pm_grpc_gpu *g = &r->gpus[r->n_gpus++];
        g->ordinal = (uint32_t)es.devices[i];
        if (gpu_device_info(&di, es.devices[i], &e) == PM_OK) {
            snprintf(g->name, sizeof g->name, "%s", di.name);
            g->vram_total_bytes = di.mem_total;
            g->vram_free_bytes = di.mem_free;
        } else {
            snprintf(g->name, sizeof g->name, "GPU %d (%.200s)", es.devices[i], e.msg);
        }
        if (es.device_job[i]) { /* the engine's: the job in its kernel region, else one its worker stages */
            job_name(f, es.device_job[i], g->current_job_id, sizeof g->current_job_id);
            snprintf(g->current_proof_kind, sizeof g->current_proof_kind, "%s", es.device_kind[i]);
        }
    }
#endif
    for (size_t i = 0; i < es.n_keys; i++) {
        pm_grpc_srs *k = &r->srs[r->n_srs++];
        circuit_of_key(f, k->circuit_id, sizeof k->circuit_id, es.keys[i].kind, es.keys[i].path);
        k->tier = es.keys[i].state == 2 ? 0 : 1; /* ready: HOT (resident); reserved/loading: WARM */
        k->size_bytes = es.keys[i].bytes;
        k->ref_count = es.keys[i].refs;
        /* proofmill's GetKeys: the same key's activity and device-memory plan */
        const pm_key_info *ki = &es.keys[i];
        static const char *kstate[] = {"reserved", "loading", "ready"};
        snprintf(k->kind, sizeof k->kind, "%s", ki->kind);
        snprintf(k->state, sizeof k->state, "%s", kstate[ki->state >= 0 && ki->state < 3 ? ki->state : 0]);
        snprintf(k->activity, sizeof k->activity, "%s", ki->activity);
        k->activity_done = ki->activity_done;
        k->activity_total = ki->activity_total;
        k->activity_device = ki->activity_device;
        pm_key_activity_format(k->activity_text, sizeof k->activity_text, ki);
        k->plan_tier = ki->plan.tier;
        snprintf(k->plan_tier_name, sizeof k->plan_tier_name, "%s", ki->plan.tier_name);
        snprintf(k->plan_streamed, sizeof k->plan_streamed, "%s", ki->plan.streamed);
        k->plan_devices = ki->plan.devices;
        k->plan_device_bytes = ki->plan.device_bytes;
        k->plan_host_pinned_bytes = ki->plan.host_pinned_bytes;
        pm_key_plan_format(k->plan, sizeof k->plan, &ki->plan);
        if (es.keys[i].pinned) r->pinned_bytes += es.keys[i].bytes;
    }
    /* queues per proof kind, from the engine: every kind with jobs in flight (gRPC or HTTP), and the
     * registered kinds of the rows with none */
    for (size_t i = 0; i < es.n_kinds; i++) {
        pm_grpc_queue *q = &r->queues[r->n_queues++];
        snprintf(q->proof_kind, sizeof q->proof_kind, "%s", es.kinds[i].kind);
        q->pending = es.kinds[i].queued;
        q->in_progress = es.kinds[i].running;
    }
    for (size_t ri = 0; ri < N_ROWS; ri++) {
        const pm_kind *k = pm_kind_find(f->kinds[ri]);
        int listed = 0;
        for (size_t i = 0; k && i < r->n_queues; i++) listed |= !strcmp(r->queues[i].proof_kind, k->name);
        if (k && !listed) snprintf(r->queues[r->n_queues++].proof_kind, sizeof r->queues[0].proof_kind, "%s", k->name);
    }
    r->total_completed = es.done;
    r->total_failed = es.failed;
    r->uptime_s = (uint64_t)es.uptime_s;
    r->pinned_limit_bytes = es.budget_bytes;
    pm_engine_status_free(&es);
    return PM_GRPC_OK;
}

static char *op_metrics(void *self) {
    pm_grpc_front *f = self;
    return f->c.metrics ? f->c.metrics(f->c.metrics_arg) : NULL;
}

/* The kind and key of a circuit id and, when cached, its state and bytes. */
static pm_grpc_code srs_key(pm_grpc_front *f, const char *cid, const pm_kind **kind, char *key, size_t cap,
                            int *ready, uint64_t *bytes, pm_grpc_status *st) {
    uint64_t size = 0;
    if (!cid[0]) return fail(st, PM_GRPC_INVALID_ARGUMENT, "circuit_id is empty (e.g. porep-32g)");
    if (parse_circuit(f, cid, kind, &size, st) != PM_GRPC_OK) return st->code;
    pm_error e;
    pm_error_clear(&e);
    if ((*kind)->key_for_size(key, cap, f->params_dir, size, &e) != PM_OK)
        return fail(st, PM_GRPC_INVALID_ARGUMENT, "circuit id '%s': %s", cid, e.msg);
    *ready = 0;
    *bytes = 0;
    pm_engine_status es;
    if (pm_engine_get_status(f->engine, &es) == PM_OK) {
        for (size_t i = 0; i < es.n_keys; i++)
            if (!strcmp(es.keys[i].path, key) && !strcmp(es.keys[i].kind, (*kind)->name))
                *ready = es.keys[i].state == 2, *bytes = es.keys[i].bytes;
        pm_engine_status_free(&es);
    }
    return PM_GRPC_OK;
}

static pm_grpc_code op_preload(void *self, const char *cid, int *already, uint64_t *load_ms, pm_grpc_status *st) {
    pm_grpc_front *f = self;
    char key[4096];
    uint64_t bytes;
    const pm_kind *k;
    *load_ms = 0;
    if (srs_key(f, cid, &k, key, sizeof key, already, &bytes, st) != PM_GRPC_OK) return st->code;
    int64_t t0 = mono_ms();
    pm_error e;
    pm_error_clear(&e);
    if (pm_engine_preload_key(f->engine, k->name, key, &e) != PM_OK) {
        char buf[1100];
        pm_error_format(&e, buf, sizeof buf);
        fail(st, e.code == PM_ERR_NOMEM ? PM_GRPC_RESOURCE_EXHAUSTED
                 : e.code == PM_ERR_CANCELLED ? PM_GRPC_UNAVAILABLE : PM_GRPC_FAILED_PRECONDITION,
             "%s: %s: %s", cid, pm_status_name(e.code), buf);
        glog(f, LOG_WARN, "grpc PreloadSRS %s: %s", cid, st->message);
        return st->code;
    }
    *load_ms = (uint64_t)(mono_ms() - t0);
    glog(f, LOG_INFO, "grpc PreloadSRS %s (%s %s): %s in %" PRIu64 " ms", cid, k->name, key,
         *already ? "already loaded" : "loaded", *load_ms);
    return PM_GRPC_OK;
}

static pm_grpc_code op_evict(void *self, const char *cid, int *was_loaded, uint64_t *freed, pm_grpc_status *st) {
    pm_grpc_front *f = self;
    char key[4096];
    int ready;
    uint64_t bytes;
    const pm_kind *k;
    *was_loaded = 0;
    *freed = 0;
    if (srs_key(f, cid, &k, key, sizeof key, &ready, &bytes, st) != PM_GRPC_OK) return st->code;
    pm_error e;
    pm_error_clear(&e);
    pm_status ps = pm_engine_evict_key(f->engine, k->name, key, &e);
    if (ps == PM_ERR_ARG) return PM_GRPC_OK; /* not cached: was_loaded = false */
    if (ps == PM_ERR_MISMATCH)
        return fail(st, PM_GRPC_FAILED_PRECONDITION, "%s is in use by a job: unpinned, it is dropped once idle", cid);
    if (ps != PM_OK) return fail_pm(f, st, &e);
    *was_loaded = 1;
    *freed = bytes;
    glog(f, LOG_INFO, "grpc EvictSRS %s: freed %" PRIu64 " bytes", cid, bytes);
    return PM_GRPC_OK;
}

/* ---------------------------------------------------------------- life */

/* grpc.proof_kinds "PROOF_KIND=kind,..." over the table's names. Errors: PM_ERR_ARG naming the entry. */
static pm_status parse_proof_kinds(pm_grpc_front *f, const char *text, pm_error *err) {
    char list[512];
    snprintf(list, sizeof list, "%s", text);
    for (char *save = NULL, *e = strtok_r(list, ", ", &save); e; e = strtok_r(NULL, ", ", &save)) {
        char *eq = strchr(e, '=');
        size_t ri = N_ROWS;
        for (size_t i = 0; eq && i < N_ROWS; i++)
            if (strlen(ROWS[i].enum_name) == (size_t)(eq - e) && !strncmp(e, ROWS[i].enum_name, (size_t)(eq - e))) ri = i;
        if (ri == N_ROWS || !eq[1] || strlen(eq + 1) >= KIND_NAME_MAX)
            return pm_error_set(err, PM_ERR_ARG, "grpc.proof_kinds", PM_NO_OFFSET,
                                "'%.100s' is not PROOF_KIND=kind (POREP_SEAL_COMMIT, SNAP_DEALS_UPDATE, "
                                "WINDOW_POST_PARTITION, WINNING_POST)",
                                e);
        snprintf(f->kinds[ri], sizeof f->kinds[ri], "%s", eq + 1);
    }
    return PM_OK;
}

/* 127.x, ::1 or localhost (grpc_server.cc refuses other plaintext addresses unless allowed) */
static int is_loopback(const char *a) {
    return !strncmp(a, "127.", 4) || !strncmp(a, "localhost:", 10) || !strncmp(a, "[::1]:", 6);
}

/* grpc_server.h's reserve/release: SubmitProof bodies held at once (checked, spooled, queued),
 * bounded by grpc.max_buffered_bytes (docs/daemon.md "Memory outside the budget"). */
static pm_grpc_code body_reserve(void *self, uint64_t bytes, pm_grpc_status *st) {
    pm_grpc_front *f = self;
    uint64_t held = atomic_fetch_add(&f->body_held, bytes);
    if (held + bytes <= f->body_max) return PM_GRPC_OK;
    atomic_fetch_sub(&f->body_held, bytes);
    glog(f, LOG_WARN, "grpc SubmitProof of %" PRIu64 " bytes refused: request bodies in flight hold %" PRIu64
         " of grpc.max_buffered_bytes = %" PRIu64, bytes, held, f->body_max);
    return fail(st, PM_GRPC_RESOURCE_EXHAUSTED,
                "request bodies in flight hold %" PRIu64 " bytes; this one's %" PRIu64
                " would pass grpc.max_buffered_bytes = %" PRIu64 " (retry later)",
                held, bytes, f->body_max);
}
static void body_release(void *self, uint64_t bytes) { atomic_fetch_sub(&((pm_grpc_front *)self)->body_held, bytes); }

pm_status pm_grpc_front_start(pm_grpc_front **out, const pm_grpc_front_config *c, pm_error *err) {
    *out = NULL;
    const pm_daemon_config *cfg = c->cfg;
    if (!cfg->grpc_listen[0]) return PM_OK;
    pm_grpc_front *f = calloc(1, sizeof *f);
    if (!f) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    f->c = *c;
    f->c.cfg = NULL;
    f->engine = c->engine;
    for (size_t i = 0; i < N_ROWS; i++) snprintf(f->kinds[i], sizeof f->kinds[i], "%s", ROWS[i].kind);
    pm_status st = parse_proof_kinds(f, cfg->grpc_proof_kinds, err);
    if (st) {
        free(f);
        return st;
    }
    snprintf(f->params_dir, sizeof f->params_dir, "%s", pm_daemon_params_dir(cfg));
    size_t dl = strlen(f->params_dir);
    while (dl > 1 && f->params_dir[dl - 1] == '/') f->params_dir[--dl] = 0;
    f->retain_s = cfg->jobs_retain_s;
    f->gpu_backend = cfg->gpu_devices[0] != 0;
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->cv, NULL);
    f->ops = (pm_grpc_ops){.self = f, .submit = op_submit, .await = op_await, .cancel = op_cancel,
                           .status = op_status, .metrics = op_metrics, .preload = op_preload, .evict = op_evict};
    const char *a = cfg->grpc_listen;
    if (!strncmp(a, "unix:", 5)) { /* unix:///abs or unix:path: a stale socket of a crashed run goes */
        const char *p = a + 5;
        if (!strncmp(p, "//", 2)) p += 2;
        snprintf(f->unix_path, sizeof f->unix_path, "%s", p);
        if (!c->unix_prepare) unlink(f->unix_path);
        else if (c->unix_prepare(c->jobs_arg, f->unix_path, err) != 0) st = err ? err->code : PM_ERR_IO;
    }
    mode_t um = f->unix_path[0] ? umask(0177) : 0; /* the socket starts owner-only; unix_perms opens it */
    /* received messages: one vanilla proof at most plus the other fields (a request over it could
     * only be refused, so gRPC refuses it before buffering it whole); bodies from the budget */
    uint64_t max_recv = PM_KIND_MAX_VANILLA_BYTES + (1u << 20);
    if (max_recv > cfg->grpc_max_message) max_recv = cfg->grpc_max_message;
    f->body_max = cfg->grpc_max_buffered;
    if (!f->body_max) { /* memory.budget / 4, and room for one largest message */
        pm_engine_status es;
        if (pm_engine_get_status(f->engine, &es) == PM_OK) {
            f->body_max = es.budget_bytes / 4;
            pm_engine_status_free(&es);
        }
        if (f->body_max < max_recv) f->body_max = max_recv;
    }
    pm_grpc_server_opts so = {.addr = a, .max_message_bytes = cfg->grpc_max_message, .max_receive_bytes = max_recv,
                              .max_input_bytes = PM_KIND_MAX_VANILLA_BYTES, .max_threads = cfg->grpc_max_threads,
                              .tls_cert = cfg->grpc_tls_cert, .tls_key = cfg->grpc_tls_key,
                              .tls_client_ca = cfg->grpc_tls_client_ca,
                              .allow_insecure_remote = cfg->grpc_allow_insecure_remote,
                              .memory_quota_bytes = f->body_max + max_recv, /* and one message on its way */
                              .reserve = body_reserve,
                              .release = body_release, .reserve_arg = f};
    if (!st) st = pm_grpc_server_start(&f->srv, &so, &f->ops, &f->port, err);
    if (f->unix_path[0]) umask(um);
    if (!st && f->unix_path[0] && c->unix_perms && (st = c->unix_perms(c->jobs_arg, f->unix_path, err)) != PM_OK)
        pm_grpc_server_stop(f->srv, 0);
    if (st) {
        pthread_mutex_destroy(&f->mu);
        pthread_cond_destroy(&f->cv);
        free(f);
        return st;
    }
    if (f->unix_path[0])
        glog(f, LOG_INFO, "gRPC cuzk.v1.ProvingEngine listening on unix:%s (Curio: [Cuzk] Address = \"unix://%s\")",
             f->unix_path, f->unix_path);
    else
        glog(f, LOG_INFO, "gRPC cuzk.v1.ProvingEngine listening on grpc://%.*s:%u (Curio: [Cuzk] Address = \"%.*s:%u\")%s",
             (int)(strrchr(a, ':') - a), a, f->port, (int)(strrchr(a, ':') - a), a, f->port,
             cfg->grpc_tls_client_ca[0] ? " over TLS, client certificates required (grpc.tls_client_ca)"
             : cfg->grpc_tls_cert[0]    ? " over TLS, no client certificates (grpc.allow_insecure_remote)"
             : cfg->grpc_allow_insecure_remote && !is_loopback(a) ? " PLAINTEXT, reachable from other machines "
                                                                   "(grpc.allow_insecure_remote)"
                                                                 : " plaintext");
    char rows[N_ROWS * (24 + KIND_NAME_MAX + 40)] = ""; /* fits every row: o stays < sizeof rows */
    for (size_t i = 0, o = 0; i < N_ROWS; i++)
        o += (size_t)snprintf(rows + o, sizeof rows - o, "%s%s=%s%s", i ? ", " : "", ROWS[i].enum_name, f->kinds[i],
                              pm_kind_find(f->kinds[i]) ? "" : " (not registered: UNIMPLEMENTED)");
    glog(f, LOG_INFO, "gRPC: %s; parameters from %s, messages up to %" PRIu64 " bytes (received: %" PRIu64
         ", bodies in flight: %" PRIu64 ")", rows, f->params_dir, cfg->grpc_max_message, max_recv, f->body_max);
    *out = f;
    return PM_OK;
}

unsigned pm_grpc_front_port(const pm_grpc_front *f) { return f ? f->port : 0; }

void pm_grpc_front_stop(pm_grpc_front *f) {
    if (!f) return;
    atomic_store(&f->closing, 1);
    pm_grpc_server_stop(f->srv, 5000);
    if (f->unix_path[0]) unlink(f->unix_path);
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->cv);
    free(f->jobs);
    free(f);
}
