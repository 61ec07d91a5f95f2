/*
 * grpc_glue.c — cuzk.v1.ProvingEngine over the engine (grpc_glue.h; the C++ edge is grpc_server.cc).
 *
 * State kept here, beside the engine's own: one row per job submitted over gRPC (engine id,
 * request_id, proof kind), under one mutex, for request_id idempotency and the per-kind queues of
 * GetStatus. A row being submitted (plan running in the submitting thread) is marked so that a
 * second SubmitProof with the same request_id waits for it instead of submitting a twin. Rows of
 * finished jobs are dropped after jobs.retain_s (the engine forgets the job then too).
 *
 * The proof-kind table KINDS[] is the one place that knows what a cuzk ProofKind is here: its queue
 * name (cuzk's names: porep-c2, snap-update, window-post, winning-post), its circuit-id prefix
 * (porep, snap, wpost, winning), default priority (cuzk's Priority::default_for), how a request
 * becomes a key + engine input, and the key of a circuit size. A kind not implemented yet has no
 * functions and a message; adding it is filling its row.
 */
#include "daemon/grpc_glue.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon/grpc_server.h"
#include "daemon/job_proof.h"
#include "engine/backend_porep.h"
#include "filecoin/sizes.h"
#ifdef PROOFMILL_HAVE_GPU
#include "gpu/gpu.h"
#endif

enum { LOG_ERROR = 0, LOG_WARN = 1, LOG_INFO = 2, LOG_DEBUG = 3 };
#define RID_MAX 256 /* request_id bytes kept (longer ones are refused) */
#define SLICE_MAX_MS 200

typedef struct kind_row kind_row;

typedef struct {
    uint64_t id;          /* engine job id; 0 while submitting */
    char rid[RID_MAX];    /* request_id, "" = none */
    const kind_row *kind;
    uint64_t registered_proof;
    int submitting;
    int final;
    int64_t final_ms;     /* monotonic ms when seen final */
} gjob;

struct pm_grpc_front {
    pm_grpc_front_config c;
    pm_engine *engine;
    char params_dir[512];
    unsigned retain_s;
    int gpu_backend;            /* gpu.devices set: the engine's devices are CUDA ordinals */
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

struct kind_row {
    int proto;            /* cuzk.v1.ProofKind */
    const char *name;     /* QueueStatus.proof_kind */
    const char *circuit;  /* circuit id prefix: "<circuit>-<size>" */
    pm_priority priority; /* for PRIORITY_UNSPECIFIED */
    const char *missing;  /* NULL: implemented; else why not */
    /* The job of a request: its key path and its one engine input (borrowing the request's bytes). */
    pm_grpc_code (*job)(const pm_grpc_front *f, const pm_grpc_submit_req *q, char *key, size_t cap, pm_input *in,
                        pm_grpc_status *st);
    /* The key of this kind's circuit for a sector size (PreloadSRS, EvictSRS, GetStatus). */
    pm_status (*key_for_size)(char *out, size_t cap, const char *params_dir, uint64_t sector_size, pm_error *err);
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

static int64_t mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t ms_u64(double ms) { return ms > 0 ? (uint64_t)(ms + 0.5) : 0; }

/* The status of an engine/backend error met by a request: the client's input (INVALID_ARGUMENT),
 * the daemon's parameter files (FAILED_PRECONDITION: missing, or unreadable/malformed files under
 * the parameter directory), capacity (RESOURCE_EXHAUSTED), shutdown (UNAVAILABLE). */
static pm_grpc_code code_for(const pm_grpc_front *f, const pm_error *e) {
    size_t dl = strlen(f->params_dir);
    int in_params = dl && !strncmp(e->file, f->params_dir, dl) && (e->file[dl] == '/' || e->file[dl] == 0);
    switch (e->code) {
    case PM_ERR_NOMEM: return PM_GRPC_RESOURCE_EXHAUSTED;
    case PM_ERR_CANCELLED: return PM_GRPC_UNAVAILABLE;
    case PM_ERR_IO: return PM_GRPC_FAILED_PRECONDITION;
    case PM_ERR_MISMATCH: return PM_GRPC_INVALID_ARGUMENT; /* sizes of request, C1 and parameters disagree */
    case PM_ERR_ARG:
        /* engine.h: PM_ERR_ARG "when max_jobs are in flight" (PM_ERR_BUSY replaces this, issue #12) */
        return strstr(e->msg, "too many jobs") ? PM_GRPC_RESOURCE_EXHAUSTED : PM_GRPC_INVALID_ARGUMENT;
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

/* PoRep C2 (SealCommitPhase2): registered_proof = RegisteredSealProof id, vanilla_proof = the C1
 * output or Curio's envelope (lib/ffi/cuzk_funcs.go wrapC1Output), key = DIR/<stem>.params of the
 * sector size. */
static pm_grpc_code porep_job(const pm_grpc_front *f, const pm_grpc_submit_req *q, char *key, size_t cap,
                              pm_input *in, pm_grpc_status *st) {
    const fil_registered_proof_t *rp = q->registered_proof < FIL_REGISTERED_PROOF_COUNT
                                           ? fil_registered_proof((unsigned)q->registered_proof)
                                           : NULL;
    if (!rp)
        return fail(st, PM_GRPC_INVALID_ARGUMENT,
                    "registered_proof %" PRIu64 " is not a RegisteredSealProof (0..%u; e.g. 8 = StackedDrg32GiBV1_1)",
                    q->registered_proof, FIL_REGISTERED_PROOF_COUNT - 1);
    if (rp->feature == FIL_FEATURE_NON_INTERACTIVE_POREP)
        return fail(st, PM_GRPC_UNIMPLEMENTED, "%s: non-interactive PoRep C2 is not implemented", rp->name);
    if (q->sector_size && q->sector_size != rp->sector_size)
        return fail(st, PM_GRPC_INVALID_ARGUMENT, "sector_size %" PRIu64 " but registered_proof %" PRIu64
                    " (%s) is for %" PRIu64 "-byte sectors", q->sector_size, q->registered_proof, rp->name,
                    rp->sector_size);
    if (q->n_vanilla_proofs)
        return fail(st, PM_GRPC_INVALID_ARGUMENT,
                    "vanilla_proofs is for PoSt and SnapDeals; a PoRep C2 takes its C1 output in vanilla_proof");
    if (!q->vanilla_proof_len)
        return fail(st, PM_GRPC_INVALID_ARGUMENT,
                    "vanilla_proof is empty: a PoRep C2 takes the C1 output (JSON, or the {SectorNum, Phase1Out, "
                    "SectorSize} envelope)");
    pm_error e;
    pm_error_clear(&e);
    if (pm_porep_key_for_size(key, cap, f->params_dir, rp->sector_size, &e) != PM_OK) return fail_pm(f, st, &e);
    memset(in, 0, sizeof *in);
    in->kind = PM_INPUT_POREP_C1_BYTES;
    in->bytes = q->vanilla_proof;
    in->len = q->vanilla_proof_len;
    return PM_GRPC_OK;
}

#define NOT_YET " proving is not implemented in proofmill yet (issue #16); PoRep C2 (POREP_SEAL_COMMIT) is"
static const kind_row KINDS[] = {
    {1, "porep-c2", "porep", PM_PRIO_NORMAL, NULL, porep_job, pm_porep_key_for_size},
    {2, "snap-update", "snap", PM_PRIO_NORMAL, "SnapDeals (SNAP_DEALS_UPDATE)" NOT_YET, NULL, NULL},
    {3, "window-post", "wpost", PM_PRIO_HIGH, "WindowPoSt (WINDOW_POST_PARTITION)" NOT_YET, NULL, NULL},
    {4, "winning-post", "winning", PM_PRIO_CRITICAL, "WinningPoSt (WINNING_POST)" NOT_YET, NULL, NULL},
};
#define N_KINDS (sizeof KINDS / sizeof KINDS[0])

static const kind_row *kind_of_proto(int proto) {
    for (size_t i = 0; i < N_KINDS; i++)
        if (KINDS[i].proto == proto) return &KINDS[i];
    return NULL;
}

/* "<prefix>-<N><k|m|g>" -> row and sector size. */
static pm_grpc_code parse_circuit(const char *cid, const kind_row **row, uint64_t *size, pm_grpc_status *st) {
    const char *dash = strrchr(cid, '-');
    for (size_t i = 0; dash && i < N_KINDS; i++) {
        if (strlen(KINDS[i].circuit) != (size_t)(dash - cid) || strncmp(cid, KINDS[i].circuit, (size_t)(dash - cid)))
            continue;
        if (KINDS[i].missing) return fail(st, PM_GRPC_UNIMPLEMENTED, "%s: %s", cid, KINDS[i].missing);
        char *end;
        errno = 0;
        unsigned long long n = strtoull(dash + 1, &end, 10);
        int shift = *end == 'k' ? 10 : *end == 'm' ? 20 : *end == 'g' ? 30 : -1;
        if (end != dash + 1 && !errno && shift > 0 && end[1] == 0 && n < (1ull << 20) &&
            fil_sector_info((uint64_t)n << shift)) {
            *row = &KINDS[i];
            *size = (uint64_t)n << shift;
            return PM_GRPC_OK;
        }
        return fail(st, PM_GRPC_INVALID_ARGUMENT,
                    "circuit id '%s': the size must be a sector size such as 2k, 8m, 512m, 32g or 64g", cid);
    }
    return fail(st, PM_GRPC_INVALID_ARGUMENT, "unknown circuit id '%s' (porep-32g, porep-64g, porep-2k, ...)", cid);
}

/* The circuit id of a cached key path, or the path itself when it is no kind's. */
static void circuit_of_key(const pm_grpc_front *f, char *out, size_t cap, const char *key_path) {
    size_t n = 0;
    const fil_sector_info_t *t = fil_sector_infos(&n);
    for (size_t r = 0; r < N_KINDS; r++) {
        if (!KINDS[r].key_for_size) continue;
        for (size_t i = 0; i < n; i++) {
            char k[1024], sfx[24];
            pm_error e;
            if (KINDS[r].key_for_size(k, sizeof k, f->params_dir, t[i].sector_size, &e) || strcmp(k, key_path)) continue;
            size_suffix(sfx, t[i].sector_size);
            snprintf(out, cap, "%s-%s", KINDS[r].circuit, sfx);
            return;
        }
    }
    snprintf(out, cap, "%s", key_path);
}

/* ---------------------------------------------------------------- job table (f->mu held) */

static gjob *find_rid_locked(pm_grpc_front *f, const char *rid) {
    for (size_t i = 0; i < f->n; i++)
        if (f->jobs[i].rid[0] && !strcmp(f->jobs[i].rid, rid)) return &f->jobs[i];
    return NULL;
}

static gjob *find_id_locked(pm_grpc_front *f, uint64_t id) {
    for (size_t i = 0; i < f->n; i++)
        if (f->jobs[i].id == id) return &f->jobs[i];
    return NULL;
}

static void drop_locked(pm_grpc_front *f, gjob *g) {
    *g = f->jobs[--f->n];
}

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

/* job_id: the engine id in decimal, or a request_id (not all digits) of a gRPC job. */
static pm_grpc_code resolve(pm_grpc_front *f, const char *job_id, uint64_t *id, pm_grpc_status *st) {
    size_t n = strlen(job_id), digits = strspn(job_id, "0123456789");
    if (n && n == digits && n <= 19) {
        *id = strtoull(job_id, NULL, 10);
        return PM_GRPC_OK;
    }
    pthread_mutex_lock(&f->mu);
    gjob *g = n ? find_rid_locked(f, job_id) : NULL;
    *id = g && !g->submitting ? g->id : 0;
    pthread_mutex_unlock(&f->mu);
    if (*id) return PM_GRPC_OK;
    return fail(st, n ? PM_GRPC_NOT_FOUND : PM_GRPC_INVALID_ARGUMENT,
                n ? "no job '%.200s' (neither a job id nor a request_id of a job submitted here)"
                  : "job_id is empty%s", n ? job_id : "");
}

/* ---------------------------------------------------------------- operations */

static void fill_submit_resp(pm_grpc_front *f, uint64_t id, pm_grpc_submit_resp *r) {
    snprintf(r->job_id, sizeof r->job_id, "%" PRIu64, id);
    pm_engine_status es;
    pm_job_info info;
    r->queue_position = 0;
    if (pm_engine_get_status(f->engine, &es) == PM_OK) {
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
}

static pm_grpc_code op_submit(void *self, const pm_grpc_submit_req *q, pm_grpc_submit_resp *r, pm_grpc_status *st) {
    pm_grpc_front *f = self;
    if (atomic_load(&f->closing)) return fail(st, PM_GRPC_UNAVAILABLE, "the daemon is shutting down");
    const char *rid = q->request_id ? q->request_id : "";
    if (strlen(rid) >= RID_MAX)
        return fail(st, PM_GRPC_INVALID_ARGUMENT, "request_id is %zu bytes; at most %d", strlen(rid), RID_MAX - 1);
    if (q->proof_kind == 0) return fail(st, PM_GRPC_INVALID_ARGUMENT, "proof_kind is PROOF_KIND_UNSPECIFIED");
    const kind_row *k = kind_of_proto(q->proof_kind);
    if (!k)
        return fail(st, PM_GRPC_INVALID_ARGUMENT, "proof_kind %d is not a cuzk.v1.ProofKind (1..4)", q->proof_kind);
    if (k->missing) {
        glog(f, LOG_INFO, "grpc SubmitProof request_id=%s kind=%s: unimplemented", rid, k->name);
        return fail(st, PM_GRPC_UNIMPLEMENTED, "%s", k->missing);
    }
    pm_priority prio = k->priority;
    if (q->priority >= 1 && q->priority <= 4) prio = (pm_priority)(q->priority - 1); /* LOW=1 .. CRITICAL=4 */
    else if (q->priority != 0)
        return fail(st, PM_GRPC_INVALID_ARGUMENT, "priority %d is not a cuzk.v1.Priority (0..4)", q->priority);
    char key[4096];
    pm_input in;
    if (k->job(f, q, key, sizeof key, &in, st) != PM_GRPC_OK) return st->code;

    /* request_id: the job it names while queued, running or done */
    if (rid[0]) {
        pthread_mutex_lock(&f->mu);
        for (;;) {
            gjob *g = find_rid_locked(f, rid);
            if (g && g->submitting) {
                pthread_cond_wait(&f->cv, &f->mu);
                continue;
            }
            if (g) {
                pm_job_info info;
                uint64_t id = g->id;
                if (pm_engine_wait(f->engine, id, 0, &info) != PM_OK) {
                    drop_locked(f, g); /* expired */
                } else {
                    pm_job_state s = info.state;
                    pm_job_info_free(&info);
                    if (s == PM_JOB_FAILED || s == PM_JOB_CANCELLED) {
                        drop_locked(f, g); /* a retry proves again */
                    } else if (g->kind != k || g->registered_proof != q->registered_proof) {
                        pm_grpc_code c = fail(st, PM_GRPC_ALREADY_EXISTS,
                                              "request_id '%s' names job %" PRIu64 " (%s, registered_proof %" PRIu64
                                              "), not a %s job for registered_proof %" PRIu64,
                                              rid, id, g->kind->name, g->registered_proof, k->name,
                                              q->registered_proof);
                        pthread_mutex_unlock(&f->mu);
                        return c;
                    } else {
                        pthread_mutex_unlock(&f->mu);
                        glog(f, LOG_INFO, "grpc SubmitProof request_id=%s: the same job %" PRIu64 " (%s)", rid, id,
                             pm_job_state_name(s));
                        fill_submit_resp(f, id, r);
                        return PM_GRPC_OK;
                    }
                }
            }
            break;
        }
        gjob *g = add_locked(f);
        if (!g) {
            pthread_mutex_unlock(&f->mu);
            return fail(st, PM_GRPC_RESOURCE_EXHAUSTED, "out of memory");
        }
        snprintf(g->rid, sizeof g->rid, "%s", rid);
        g->kind = k;
        g->registered_proof = q->registered_proof;
        g->submitting = 1;
        pthread_mutex_unlock(&f->mu);
    }

    pm_job_spec spec = {.key_path = key, .priority = prio, .inputs = &in, .n_inputs = 1, .label = rid[0] ? rid : NULL};
    pm_error e;
    pm_error_clear(&e);
    uint64_t id = 0;
    pm_status ps = pm_engine_submit(f->engine, &spec, &id, &e);

    pthread_mutex_lock(&f->mu);
    gjob *g = rid[0] ? find_rid_locked(f, rid) : NULL;
    if (ps != PM_OK) {
        if (g) drop_locked(f, g);
    } else {
        if (!g) g = add_locked(f);
        if (g) {
            g->id = id;
            g->kind = k;
            g->registered_proof = q->registered_proof;
            g->submitting = 0;
        }
    }
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);

    if (ps != PM_OK) {
        fail_pm(f, st, &e);
        glog(f, LOG_WARN, "grpc SubmitProof request_id=%s kind=%s registered_proof=%" PRIu64 " (%zu bytes): %s", rid,
             k->name, q->registered_proof, q->vanilla_proof_len, st->message);
        return st->code;
    }
    fill_submit_resp(f, id, r);
    glog(f, LOG_INFO,
         "grpc SubmitProof request_id=%s kind=%s registered_proof=%" PRIu64 " sector=%" PRIu64 " miner=%" PRIu64
         " (%zu bytes) -> job %" PRIu64 " (queue position %u)",
         rid, k->name, q->registered_proof, q->sector_number, q->miner_id, q->vanilla_proof_len, id, r->queue_position);
    return PM_GRPC_OK;
}

static pm_grpc_code op_await(void *self, const char *job_id, int64_t timeout_ms, pm_grpc_await_resp *r,
                             pm_grpc_status *st) {
    pm_grpc_front *f = self;
    uint64_t id;
    if (resolve(f, job_id, &id, st) != PM_GRPC_OK) return st->code;
    if (timeout_ms > SLICE_MAX_MS) timeout_ms = SLICE_MAX_MS;
    if (timeout_ms < 0) timeout_ms = 0;
    int64_t t0 = mono_ms();
    pm_job_info info;
    if (pm_engine_wait(f->engine, id, timeout_ms, &info) != PM_OK)
        return fail(st, PM_GRPC_NOT_FOUND, "no job %" PRIu64 " (unknown, or expired jobs.retain_s = %u s after it ended)",
                    id, f->retain_s);
    snprintf(r->job_id, sizeof r->job_id, "%" PRIu64, id);
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
            c = fail(st, PM_GRPC_UNAVAILABLE, "the daemon is shutting down (job %" PRIu64 " is %s)", id,
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
        return fail(st, PM_GRPC_NOT_FOUND, "no job %" PRIu64 " (unknown or expired)", id);
    pm_job_state before = info.state, after;
    pm_job_info_free(&info);
    if (pm_engine_cancel(f->engine, id, &after) != PM_OK)
        return fail(st, PM_GRPC_NOT_FOUND, "no job %" PRIu64 " (unknown or expired)", id);
    *was_running = before == PM_JOB_RUNNING || after == PM_JOB_RUNNING;
    glog(f, LOG_INFO, "grpc CancelProof job %" PRIu64 ": was %s, now %s", id, pm_job_state_name(before),
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
    r->queues = calloc(N_KINDS + 1, sizeof *r->queues);
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
    }
#endif
    for (size_t i = 0; i < es.n_keys; i++) {
        pm_grpc_srs *k = &r->srs[r->n_srs++];
        circuit_of_key(f, k->circuit_id, sizeof k->circuit_id, es.keys[i].path);
        k->tier = es.keys[i].state == 2 ? 0 : 1; /* ready: HOT (resident); reserved/loading: WARM */
        k->size_bytes = es.keys[i].bytes;
        k->ref_count = es.keys[i].refs;
        if (es.keys[i].pinned) r->pinned_bytes += es.keys[i].bytes;
    }
    /* queues per implemented kind, from the gRPC jobs' states; "other": the rest of the engine's */
    unsigned pend[N_KINDS] = {0}, prog[N_KINDS] = {0}, mine = 0;
    pthread_mutex_lock(&f->mu);
    for (size_t i = 0; i < f->n;) {
        gjob *g = &f->jobs[i];
        pm_job_info info;
        if (g->submitting || g->final) {
            i++;
            continue;
        }
        if (pm_engine_wait(f->engine, g->id, 0, &info) != PM_OK) {
            drop_locked(f, g);
            continue;
        }
        size_t ki = (size_t)(g->kind - KINDS);
        if (info.state == PM_JOB_QUEUED) pend[ki]++, mine++;
        else if (info.state == PM_JOB_RUNNING) prog[ki]++, mine++;
        else g->final = 1, g->final_ms = mono_ms();
        pm_job_info_free(&info);
        i++;
    }
    pthread_mutex_unlock(&f->mu);
    for (size_t i = 0; i < N_KINDS; i++) {
        if (KINDS[i].missing) continue;
        pm_grpc_queue *q = &r->queues[r->n_queues++];
        snprintf(q->proof_kind, sizeof q->proof_kind, "%s", KINDS[i].name);
        q->pending = pend[i];
        q->in_progress = prog[i];
    }
    unsigned all = es.running;
    for (int p = 0; p < PM_PRIO_COUNT; p++) all += es.queued[p];
    if (all > mine) {
        pm_grpc_queue *q = &r->queues[r->n_queues++];
        snprintf(q->proof_kind, sizeof q->proof_kind, "other");
        unsigned queued = 0;
        for (int p = 0; p < PM_PRIO_COUNT; p++) queued += es.queued[p];
        unsigned my_pend = 0;
        for (size_t i = 0; i < N_KINDS; i++) my_pend += pend[i];
        q->pending = queued > my_pend ? queued - my_pend : 0;
        q->in_progress = all - mine - q->pending;
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

/* The key of a circuit id and, when cached, its state and bytes. */
static pm_grpc_code srs_key(pm_grpc_front *f, const char *cid, char *key, size_t cap, int *ready, uint64_t *bytes,
                            pm_grpc_status *st) {
    const kind_row *row = NULL;
    uint64_t size = 0;
    if (!cid[0]) return fail(st, PM_GRPC_INVALID_ARGUMENT, "circuit_id is empty (e.g. porep-32g)");
    if (parse_circuit(cid, &row, &size, st) != PM_GRPC_OK) return st->code;
    pm_error e;
    pm_error_clear(&e);
    if (row->key_for_size(key, cap, f->params_dir, size, &e) != PM_OK) return fail_pm(f, st, &e);
    *ready = 0;
    *bytes = 0;
    pm_engine_status es;
    if (pm_engine_get_status(f->engine, &es) == PM_OK) {
        for (size_t i = 0; i < es.n_keys; i++)
            if (!strcmp(es.keys[i].path, key)) *ready = es.keys[i].state == 2, *bytes = es.keys[i].bytes;
        pm_engine_status_free(&es);
    }
    return PM_GRPC_OK;
}

static pm_grpc_code op_preload(void *self, const char *cid, int *already, uint64_t *load_ms, pm_grpc_status *st) {
    pm_grpc_front *f = self;
    char key[4096];
    uint64_t bytes;
    *load_ms = 0;
    if (srs_key(f, cid, key, sizeof key, already, &bytes, st) != PM_GRPC_OK) return st->code;
    int64_t t0 = mono_ms();
    pm_error e;
    pm_error_clear(&e);
    if (pm_engine_preload_key(f->engine, key, &e) != PM_OK) {
        char buf[1100];
        pm_error_format(&e, buf, sizeof buf);
        fail(st, e.code == PM_ERR_NOMEM ? PM_GRPC_RESOURCE_EXHAUSTED
                 : e.code == PM_ERR_CANCELLED ? PM_GRPC_UNAVAILABLE : PM_GRPC_FAILED_PRECONDITION,
             "%s: %s: %s", cid, pm_status_name(e.code), buf);
        glog(f, LOG_WARN, "grpc PreloadSRS %s: %s", cid, st->message);
        return st->code;
    }
    *load_ms = (uint64_t)(mono_ms() - t0);
    glog(f, LOG_INFO, "grpc PreloadSRS %s (%s): %s in %" PRIu64 " ms", cid, key, *already ? "already loaded" : "loaded",
         *load_ms);
    return PM_GRPC_OK;
}

static pm_grpc_code op_evict(void *self, const char *cid, int *was_loaded, uint64_t *freed, pm_grpc_status *st) {
    pm_grpc_front *f = self;
    char key[4096];
    int ready;
    uint64_t bytes;
    *was_loaded = 0;
    *freed = 0;
    if (srs_key(f, cid, key, sizeof key, &ready, &bytes, st) != PM_GRPC_OK) return st->code;
    pm_error e;
    pm_error_clear(&e);
    pm_status ps = pm_engine_evict_key(f->engine, key, &e);
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

pm_status pm_grpc_front_start(pm_grpc_front **out, const pm_grpc_front_config *c, pm_error *err) {
    *out = NULL;
    const pm_daemon_config *cfg = c->cfg;
    if (!cfg->grpc_listen[0]) return PM_OK;
    pm_grpc_front *f = calloc(1, sizeof *f);
    if (!f) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    f->c = *c;
    f->c.cfg = NULL;
    f->engine = c->engine;
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
        unlink(f->unix_path);
    }
    pm_status st = pm_grpc_server_start(&f->srv, a, cfg->grpc_max_message, cfg->grpc_max_threads, &f->ops, &f->port, err);
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
        glog(f, LOG_INFO, "gRPC cuzk.v1.ProvingEngine listening on grpc://%.*s:%u (Curio: [Cuzk] Address = \"%.*s:%u\")",
             (int)(strrchr(a, ':') - a), a, f->port, (int)(strrchr(a, ':') - a), a, f->port);
    glog(f, LOG_INFO, "gRPC: parameters from %s, messages up to %" PRIu64 " bytes", f->params_dir, cfg->grpc_max_message);
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
