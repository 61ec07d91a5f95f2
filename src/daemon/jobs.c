/*
 * jobs.c — the daemon's job table: random 128-bit job ids (the engine's numeric ids stay inside),
 * the journal (journal.h) of every accepted job, the spool of inline inputs, and the re-queue of
 * accepted-unfinished jobs at start (jobs.h). The only writer of the journal; a job's answer comes
 * from job_json.h.
 *
 * Submit: id drawn (getrandom) -> inline inputs written to STATE/spool/<id>.<n> (0600, fsync'ed;
 * the job then reads them by path, so queued inline bytes never sit in memory and are bounded by
 * jobs.max_queued_inline_bytes on disk) -> row committed -> engine submit (refused: row and files
 * removed) -> the answer. End (engine callback): the job's JSON answer committed to the row, then
 * the spool files removed and waiters released, so no client sees an end the journal does not
 * hold. An end the journal refuses (disk full, I/O error) leaves the job unrecorded: not reported
 * (a transient fault to whoever asks), its spool kept, the write retried at each query and after
 * the journal's next successful write; a restart meanwhile runs it again. Without a journal
 * (state.dir = off) inline bytes go to the engine, under the same bound in memory.
 * Front ends: every entry and journal row carries the front end that submitted it (daemon_front);
 * the gRPC API reaches only its own jobs. jobs.max bounds new submits (inflight), never re-queues.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/jobs.h"
#include "daemon/job_json.h"
#include "daemon/journal.h"
#include "daemon/log.h"
#include "util/clock.h"

#define NBUCKET 4096
#define PM_MAX_SPOOLED_INPUTS 1024 /* spool names tried for a row whose inputs are not read */

typedef struct entry {
    char id[PM_JOB_ID_LEN + 1];
    uint64_t eid;
    char label[128];
    int final;     /* the end is recorded (journal, or memory without one) */
    int unrecorded; /* the engine ended it but the journal could not record the end (yet): end_text
                     * waits for a retry; the job is not reported ended, its spool stays */
    int counted;   /* counts in inflight (until the engine ends it) */
    daemon_front front;
    pm_job_state end_state;
    char *end_text; /* the end's JSON answer while unrecorded */
    int64_t finished_ms;
    uint64_t spool_bytes;
    unsigned n_spool;
    struct entry *next_id, *next_eid;
} entry;

struct daemon_jobs {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    entry *by_id[NBUCKET], *by_eid[NBUCKET];
    daemon_journal *journal;
    char spool[4096];
    uint64_t spool_bytes, max_spool;
    unsigned inflight; /* jobs the engine holds unended (new submits stop at jobs.max) */
    unsigned n_unrecorded; /* entries whose end the journal refused (retried after its next success) */
    int shutting_down;
    /* ends reported before the submit thread filed the entry (the window is one engine call) */
    struct early_end {
        uint64_t eid;
        pm_job_state st;
    } *early;
    unsigned n_early, cap_early;
};

static int64_t now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static unsigned hash_id(const char *id) {
    unsigned h = 2166136261u;
    for (; *id; id++) h = (h ^ (unsigned char)*id) * 16777619u;
    return h % NBUCKET;
}

static entry *find_id(daemon_jobs *J, const char *id) {
    for (entry *e = J->by_id[hash_id(id)]; e; e = e->next_id)
        if (!strcmp(e->id, id)) return e;
    return NULL;
}

static entry *find_eid(daemon_jobs *J, uint64_t eid) {
    for (entry *e = J->by_eid[eid % NBUCKET]; e; e = e->next_eid)
        if (e->eid == eid) return e;
    return NULL;
}

static void unlink_entry(daemon_jobs *J, entry *x) {
    for (entry **p = &J->by_id[hash_id(x->id)]; *p; p = &(*p)->next_id)
        if (*p == x) {
            *p = x->next_id;
            break;
        }
    for (entry **p = &J->by_eid[x->eid % NBUCKET]; *p; p = &(*p)->next_eid)
        if (*p == x) {
            *p = x->next_eid;
            break;
        }
}

int daemon_job_id_valid(const char *s) {
    size_t n = 0;
    for (; s[n]; n++)
        if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f'))) return 0;
    return n == PM_JOB_ID_LEN;
}

static int new_id(char out[PM_JOB_ID_LEN + 1]) {
    uint8_t r[PM_JOB_ID_LEN / 2];
    size_t got = 0;
    while (got < sizeof r) {
        ssize_t k = getrandom(r + got, sizeof r - got, 0);
        if (k < 0 && errno != EINTR) return -1;
        if (k > 0) got += (size_t)k;
    }
    for (size_t i = 0; i < sizeof r; i++) snprintf(out + 2 * i, 3, "%02x", r[i]);
    return 0;
}

static int mkdir_p(const char *path, mode_t mode) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0755) != 0 && errno != EEXIST) return -1;
            *p = '/';
        }
    if (mkdir(tmp, mode) != 0 && errno != EEXIST) return -1;
    return 0;
}

pm_status daemon_jobs_open(pm_daemon *d, pm_error *err) {
    daemon_jobs *J = calloc(1, sizeof *J);
    if (!J) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    pthread_mutex_init(&J->mu, NULL);
    pthread_cond_init(&J->cv, NULL);
    d->jobs = J;
    if (!d->state_dir[0]) return PM_OK;
    if (mkdir_p(d->state_dir, 0700) != 0)
        return pm_error_set(err, PM_ERR_IO, d->state_dir, PM_NO_OFFSET, "cannot create the state directory: %s",
                            strerror(errno));
    snprintf(J->spool, sizeof J->spool, "%s/spool", d->state_dir);
    if (mkdir(J->spool, 0700) != 0 && errno != EEXIST)
        return pm_error_set(err, PM_ERR_IO, J->spool, PM_NO_OFFSET, "cannot create: %s", strerror(errno));
    J->max_spool = d->cfg.jobs_max_queued_inline ? d->cfg.jobs_max_queued_inline : 4ull << 30;
    pm_status st = daemon_journal_open(&J->journal, d->state_dir, err);
    if (st == PM_OK && d->cfg.debug_journal_full_at) daemon_journal_fail_writes_from(J->journal, d->cfg.debug_journal_full_at,
                                                                      d->cfg.debug_journal_full_count);
    return st;
}

int daemon_jobs_durable(pm_daemon *d) { return d->jobs && d->jobs->journal; }

int daemon_jobs_spool_use(pm_daemon *d, uint64_t *held, uint64_t *limit) {
    if (!daemon_jobs_durable(d)) return 0;
    pthread_mutex_lock(&d->jobs->mu);
    *held = d->jobs->spool_bytes;
    *limit = d->jobs->max_spool;
    pthread_mutex_unlock(&d->jobs->mu);
    return 1;
}

const char *daemon_jobs_spool_dir(pm_daemon *d) { return d->jobs && d->jobs->journal ? d->jobs->spool : NULL; }

void daemon_jobs_close(pm_daemon *d) {
    daemon_jobs *J = d->jobs;
    if (!J) return;
    for (unsigned b = 0; b < NBUCKET; b++)
        for (entry *e = J->by_id[b], *n; e; e = n) {
            n = e->next_id;
            free(e->end_text);
            free(e);
        }
    daemon_journal_close(J->journal);
    free(J->early);
    pthread_cond_destroy(&J->cv);
    pthread_mutex_destroy(&J->mu);
    free(J);
    d->jobs = NULL;
}

static void spool_name(const daemon_jobs *J, const char *id, unsigned i, char *out, size_t n) {
    snprintf(out, n, "%s/%s.%u", J->spool, id, i);
}

static void spool_remove(daemon_jobs *J, const char *id, unsigned n) {
    char p[4200];
    for (unsigned i = 0; i < n; i++) {
        spool_name(J, id, i, p, sizeof p);
        unlink(p);
    }
}

static pm_status spool_write(const char *path, const uint8_t *b, size_t len, pm_error *err) {
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot create: %s", strerror(errno));
    size_t off = 0;
    while (off < len) {
        ssize_t k = write(fd, b + off, len - off);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) {
            int e = errno;
            close(fd);
            unlink(path);
            return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot write: %s", strerror(e));
        }
        off += (size_t)k;
    }
    if (fsync(fd) != 0) {
        int e = errno;
        close(fd);
        unlink(path);
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot sync: %s", strerror(e));
    }
    close(fd);
    return PM_OK;
}

/* the spec as the journal keeps it; a file in the spool (spool: STATE/spool) by its path relative to
 * the state directory ("spool/<id>.<i>"), so that a moved state directory keeps working */
static char *spec_json(const pm_job_spec *s, daemon_front front, const char *spool) {
    json_t *in = json_array();
    size_t sl = strlen(spool);
    for (size_t i = 0; i < s->n_inputs; i++) {
        const char *p = s->inputs[i].path ? s->inputs[i].path : "";
        char rel[4200];
        if (sl && !strncmp(p, spool, sl) && p[sl] == '/' && !strchr(p + sl + 1, '/')) {
            snprintf(rel, sizeof rel, "spool/%s", p + sl + 1);
            p = rel;
        }
        json_t *o = json_pack("{s:s}", "path", p);
        if (s->inputs[i].name) json_object_set_new(o, "name", json_string(s->inputs[i].name));
        json_array_append_new(in, o);
    }
    json_t *j = json_pack("{s:s,s:s,s:o}", "kind", s->kind ? s->kind : "", "priority", pm_priority_name(s->priority),
                          "inputs", in);
    if (s->key_path) json_object_set_new(j, "key", json_string(s->key_path));
    if (s->params_dir) json_object_set_new(j, "params_dir", json_string(s->params_dir));
    if (s->label) json_object_set_new(j, "label", json_string(s->label));
    if (front == DAEMON_FRONT_GRPC) json_object_set_new(j, "front", json_string("grpc"));
    char *t = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    return t;
}

static void record_end(pm_daemon *d, entry *x, pm_job_state st);
static void retry_unrecorded(pm_daemon *d);


/* file the entry for (id, eid) and run an end that arrived first */
static void file_entry(pm_daemon *d, entry *x) {
    daemon_jobs *J = d->jobs;
    pthread_mutex_lock(&J->mu);
    unsigned h = hash_id(x->id);
    x->next_id = J->by_id[h];
    J->by_id[h] = x;
    x->next_eid = J->by_eid[x->eid % NBUCKET];
    J->by_eid[x->eid % NBUCKET] = x;
    int ended = -1;
    for (unsigned i = 0; i < J->n_early; i++)
        if (J->early[i].eid == x->eid) {
            ended = (int)J->early[i].st;
            J->early[i] = J->early[--J->n_early];
            break;
        }
    pthread_mutex_unlock(&J->mu);
    if (ended >= 0) record_end(d, x, (pm_job_state)ended);
}

/* submit spec (inputs by path or bytes) to the engine as job id; spool: write inline inputs first */
static pm_status submit_as(pm_daemon *d, const char *id, const pm_job_spec *spec0, int journal_it, daemon_front front,
                           pm_error *err) {
    daemon_jobs *J = d->jobs;
    pm_job_spec spec = *spec0;
    pm_input *ins = NULL;
    char (*paths)[4200] = NULL;
    unsigned n_spool = 0;
    uint64_t bytes = 0;
    pm_status st = PM_OK;
    /* where a submit's time goes (debug log): the spooled copies and the journal row are fsynced,
     * the engine's submit plans the job (reads the key's header, checks the inputs) */
    const int64_t t0 = pm_now_us();
    int64_t t_spool = t0, t_journal = t0;
    if (J->journal && spec.n_inputs) {
        ins = calloc(spec.n_inputs, sizeof *ins);
        paths = calloc(spec.n_inputs, sizeof *paths);
        if (!ins || !paths) {
            st = pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
            goto out;
        }
        for (size_t i = 0; i < spec.n_inputs; i++) {
            ins[i] = spec.inputs[i];
            if (ins[i].kind == PM_INPUT_BYTES) bytes += ins[i].len;
        }
        if (bytes) {
            pthread_mutex_lock(&J->mu);
            int full = J->spool_bytes + bytes > J->max_spool;
            uint64_t held = J->spool_bytes;
            if (!full) J->spool_bytes += bytes;
            pthread_mutex_unlock(&J->mu);
            if (full) {
                st = pm_error_set(err, PM_ERR_BUSY, NULL, PM_NO_OFFSET,
                                  "inline inputs of unfinished jobs hold %" PRIu64 " bytes; this job's %" PRIu64
                                  " would pass jobs.max_queued_inline_bytes = %" PRIu64
                                  " (retry later, or give inputs by path)",
                                  held, bytes, J->max_spool);
                bytes = 0;
                goto out;
            }
        }
        for (size_t i = 0; i < spec.n_inputs; i++) {
            if (ins[i].kind != PM_INPUT_BYTES) continue;
            spool_name(J, id, (unsigned)i, paths[i], sizeof paths[i]); /* <id>.<input index> */
            n_spool = (unsigned)i + 1;
            if ((st = spool_write(paths[i], ins[i].bytes, ins[i].len, err))) goto out;
            ins[i].kind = PM_INPUT_PATH;
            ins[i].path = paths[i];
            ins[i].bytes = NULL;
            ins[i].len = 0;
        }
        spec.inputs = ins;
        t_spool = t_journal = pm_now_us();
        if (journal_it) {
            char *sj = spec_json(&spec, front, J->spool);
            if (!sj) {
                st = pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
                goto out;
            }
            st = daemon_journal_add(J->journal, id, sj, now_ms(), err);
            free(sj);
            if (st) goto out;
        }
    } else if (J->journal && journal_it) {
        char *sj = spec_json(&spec, front, J->spool);
        st = sj ? daemon_journal_add(J->journal, id, sj, now_ms(), err)
                : pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
        free(sj);
        if (st) goto out;
    }
    t_journal = pm_now_us();
    if (J->journal && journal_it) retry_unrecorded(d); /* the journal took a row: ends it refused go in now */
    /* jobs.max bounds new submits only: a journaled job re-queued at start (journal_it = 0) was
     * acknowledged before, and is never failed for a smaller jobs.max */
    pthread_mutex_lock(&J->mu);
    unsigned inflight = J->inflight;
    int over = journal_it && inflight >= d->cfg.jobs_max;
    if (!over) J->inflight++;
    pthread_mutex_unlock(&J->mu);
    if (over) {
        st = pm_error_set(err, PM_ERR_BUSY, NULL, PM_NO_OFFSET, "too many jobs in flight (%u; jobs.max = %u)", inflight,
                          d->cfg.jobs_max);
        if (J->journal && journal_it) daemon_journal_remove(J->journal, id);
        goto out;
    }
    entry *x = calloc(1, sizeof *x);
    if (!x) {
        st = pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
        if (J->journal && journal_it) daemon_journal_remove(J->journal, id);
        pthread_mutex_lock(&J->mu);
        J->inflight--;
        pthread_mutex_unlock(&J->mu);
        goto out;
    }
    snprintf(x->id, sizeof x->id, "%s", id);
    x->front = front;
    x->counted = 1;
    if (spec.label) snprintf(x->label, sizeof x->label, "%s", spec.label);
    x->spool_bytes = bytes;
    x->n_spool = n_spool;
    st = pm_engine_submit(d->engine, &spec, &x->eid, err);
    if (st && err) daemon_job_name_inputs(err);
    if (st) {
        free(x);
        if (J->journal && journal_it) daemon_journal_remove(J->journal, id);
        pthread_mutex_lock(&J->mu);
        J->inflight--;
        pthread_mutex_unlock(&J->mu);
        goto out;
    }
    bytes = 0; /* the entry holds them now */
    n_spool = 0;
    file_entry(d, x);
    const int64_t t_end = pm_now_us();
    daemon_log_job(d, LOG_DEBUG, id, spec.label, "submit: %.1f ms (spool %.1f ms for %" PRIu64 " inline bytes, "
                   "journal %.1f ms, engine %.1f ms)", (t_end - t0) / 1e3, (t_spool - t0) / 1e3, x->spool_bytes,
                   (t_journal - t_spool) / 1e3, (t_end - t_journal) / 1e3);
out:
    if (n_spool) spool_remove(J, id, n_spool);
    if (bytes) {
        pthread_mutex_lock(&J->mu);
        J->spool_bytes -= bytes;
        pthread_mutex_unlock(&J->mu);
    }
    free(ins);
    free(paths);
    return st;
}

const char *daemon_jobs_name_of(pm_daemon *d, uint64_t eid, char *out, size_t n) {
    out[0] = 0;
    pthread_mutex_lock(&d->jobs->mu);
    entry *x = find_eid(d->jobs, eid);
    if (x) snprintf(out, n, "%s", x->id);
    pthread_mutex_unlock(&d->jobs->mu);
    if (!out[0]) snprintf(out, n, "%" PRIu64, eid); /* not the daemon's (e.g. submitted to the engine directly) */
    return out;
}

pm_status daemon_jobs_submit(pm_daemon *d, const pm_job_spec *spec, daemon_front front, char id[PM_JOB_ID_LEN + 1],
                             pm_error *err) {
    for (int tries = 0;; tries++) {
        if (new_id(id) != 0) return pm_error_set(err, PM_ERR_INTERNAL, NULL, PM_NO_OFFSET, "getrandom failed: %s", strerror(errno));
        pm_status st = submit_as(d, id, spec, 1, front, err);
        if (st != PM_ERR_MISMATCH || tries > 3) return st; /* an id collision: draw again */
    }
}

/* 1 when front may reach a job of front `of` (docs/daemon.md "Who can reach which job"): the HTTP
 * API (its token) every job by id, the gRPC API only jobs submitted over gRPC */
static int reaches(daemon_front front, daemon_front of) { return front == DAEMON_FRONT_HTTP || of == front; }

int daemon_jobs_lookup(pm_daemon *d, const char *id, daemon_front front, uint64_t *eid) {
    daemon_jobs *J = d->jobs;
    pthread_mutex_lock(&J->mu);
    entry *x = find_id(J, id);
    if (x && !reaches(front, x->front)) x = NULL;
    if (x) *eid = x->eid;
    pthread_mutex_unlock(&J->mu);
    return x ? 0 : -1;
}

/* After the journal took x's end: the end is final, the spool goes. Called without J->mu. */
static void recorded(pm_daemon *d, entry *x) {
    daemon_jobs *J = d->jobs;
    pthread_mutex_lock(&J->mu);
    unsigned n_spool = x->n_spool;
    x->n_spool = 0;
    J->spool_bytes -= x->spool_bytes;
    x->spool_bytes = 0;
    if (x->unrecorded) J->n_unrecorded--;
    x->unrecorded = 0;
    free(x->end_text);
    x->end_text = NULL;
    x->final = 1;
    x->finished_ms = now_ms();
    pthread_cond_broadcast(&J->cv);
    pthread_mutex_unlock(&J->mu);
    /* only now: a restart before the end was durable proves the job again from these files */
    if (J->journal) spool_remove(J, x->id, n_spool);
}

/* One more try to journal the end of x (unrecorded); PM_OK once recorded. */
static pm_status retry_record(pm_daemon *d, entry *x, pm_error *err) {
    daemon_jobs *J = d->jobs;
    pthread_mutex_lock(&J->mu);
    char *text = x->unrecorded && x->end_text ? strdup(x->end_text) : NULL;
    pm_job_state st = x->end_state;
    int todo = x->unrecorded;
    pthread_mutex_unlock(&J->mu);
    if (!todo) return PM_OK;
    if (!text) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    pm_status rc = daemon_journal_finish(J->journal, x->id, pm_job_state_name(st), text, now_ms(), err);
    free(text);
    if (rc == PM_OK) {
        daemon_log_job(d, LOG_INFO, x->id, x->label, "its end (%s) is recorded now (a retry)", pm_job_state_name(st));
        recorded(d, x);
    }
    return rc;
}

/* The journal took a write again: one more try for every end it refused before (at most 64 per
 * call), so that they are recorded without waiting for a client to ask. */
static void retry_unrecorded(pm_daemon *d) {
    daemon_jobs *J = d->jobs;
    entry *todo[64];
    unsigned n = 0;
    pthread_mutex_lock(&J->mu);
    if (J->n_unrecorded)
        for (unsigned b = 0; b < NBUCKET && n < 64; b++)
            for (entry *e = J->by_id[b]; e && n < 64; e = e->next_id)
                if (e->unrecorded) todo[n++] = e;
    pthread_mutex_unlock(&J->mu);
    for (unsigned i = 0; i < n; i++) {
        pm_error err;
        pm_error_clear(&err);
        if (retry_record(d, todo[i], &err) != PM_OK) break; /* still refused: the next success tries again */
    }
}

pm_status daemon_jobs_wait_recorded(pm_daemon *d, const char *id, pm_error *err) {
    daemon_jobs *J = d->jobs;
    struct timespec dl;
    clock_gettime(CLOCK_REALTIME, &dl);
    dl.tv_sec += 30;
    pthread_mutex_lock(&J->mu);
    entry *x;
    while ((x = find_id(J, id)) && !x->final && !x->unrecorded)
        if (pthread_cond_timedwait(&J->cv, &J->mu, &dl) != 0) break;
    int retry = x && x->unrecorded;
    pthread_mutex_unlock(&J->mu);
    /* entries are freed only once final, so x stays valid while unrecorded */
    return retry ? retry_record(d, x, err) : PM_OK;
}

char *daemon_jobs_stored(pm_daemon *d, const char *id, daemon_front front, pm_error *err) {
    daemon_jobs *J = d->jobs;
    if (!J->journal) return NULL;
    /* a job whose end the journal has not taken yet: a retry, and a transient fault while it fails */
    pthread_mutex_lock(&J->mu);
    entry *x = find_id(J, id);
    int retry = x && x->unrecorded && reaches(front, x->front);
    pthread_mutex_unlock(&J->mu);
    if (retry && retry_record(d, x, err) != PM_OK) return NULL;
    char *spec = NULL;
    char *t = daemon_journal_result(J->journal, id, &spec);
    json_error_t je;
    json_t *sj = spec ? json_loads(spec, 0, &je) : NULL;
    const char *f = json_string_value(json_object_get(sj, "front"));
    daemon_front of = f && !strcmp(f, "grpc") ? DAEMON_FRONT_GRPC : DAEMON_FRONT_HTTP;
    json_decref(sj);
    free(spec);
    if (t && !reaches(front, of)) {
        free(t);
        t = NULL;
    }
    return t;
}

pm_status daemon_jobs_mark_cancel(pm_daemon *d, const char *id, pm_error *err) {
    return d->jobs->journal ? daemon_journal_mark_cancel(d->jobs->journal, id, err) : PM_OK;
}

int daemon_jobs_transient(pm_daemon *d, const pm_error *err) {
    size_t n = strlen(d->state_dir);
    if (!err || err->code != PM_ERR_IO) return 0;
    /* out of descriptors (EMFILE, ENFILE): the daemon's own resource, whatever the file */
    if (strstr(err->msg, "Too many open files")) return 1;
    if (!n || strncmp(err->file, d->state_dir, n) || err->file[n] != '/') return 0;
    /* the storage's passing state (full, quota, I/O error, locked; SQLite's words and errno's), not
     * a fault of this request (e.g. EFBIG: an inline input past the file-size limit stays too big) */
    static const char *const passing[] = {"database or disk is full", "disk I/O error", "database is locked",
                                          "No space left on device", "Disk quota exceeded", "Input/output error",
                                          "Not a directory" /* state/spool replaced: the daemon's fault */};
    for (size_t i = 0; i < sizeof passing / sizeof passing[0]; i++)
        if (strstr(err->msg, passing[i])) return 1;
    return 0;
}

void daemon_jobs_shutting_down(pm_daemon *d) {
    pthread_mutex_lock(&d->jobs->mu);
    d->jobs->shutting_down = 1;
    pthread_mutex_unlock(&d->jobs->mu);
}

/* the job's end into the journal (and the log), then waiters released */
static void record_end(pm_daemon *d, entry *x, pm_job_state st) {
    daemon_jobs *J = d->jobs;
    pm_job_info info;
    int have = pm_engine_wait(d->engine, x->eid, 0, &info) == PM_OK;
    pthread_mutex_lock(&J->mu);
    int requeue = J->shutting_down && st == PM_JOB_CANCELLED;
    pthread_mutex_unlock(&J->mu);
    /* a cancel caused by shutdown is not the job's end: it stays accepted and runs after a restart
     * (unless a client asked to cancel it: the row's cancel flag ends it at the restart) */
    int unrecorded = 0;
    char *text = NULL;
    if (J->journal && have && !requeue) {
        json_t *j = daemon_job_to_json(&info, x->id);
        text = j ? json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(9)) : NULL;
        json_decref(j);
        pm_error err;
        pm_error_clear(&err);
        if (!text || daemon_journal_finish(J->journal, x->id, pm_job_state_name(st), text, now_ms(), &err) != PM_OK) {
            /* not reported ended (a client that asks gets a transient fault and retries; each ask,
             * and the journal's next successful write, retries this one), its spooled inputs kept:
             * a restart before the write succeeds runs the job again from them, as the journal
             * still says accepted */
            char eb[1200];
            daemon_log_job(d, LOG_ERROR, x->id, x->label, "cannot record its end: %s (not reported %s until "
                           "the journal takes it; retried at each query and after the journal's next write; a "
                           "restart runs the job again)",
                           text ? pm_error_format(&err, eb, sizeof eb) : "out of memory", pm_job_state_name(st));
            unrecorded = 1;
        } else {
            daemon_journal_purge(J->journal, now_ms() - (int64_t)d->cfg.jobs_retain_s * 1000);
            retry_unrecorded(d); /* the journal writes again: ends it refused before go in now */
        }
    }
    if (have) {
        char eb[1200] = "";
        daemon_job_name_inputs(&info.error);
        if (info.error.code != PM_OK) pm_error_format(&info.error, eb, sizeof eb);
        daemon_log_job(d, st == PM_JOB_FAILED ? LOG_WARN : LOG_INFO, x->id, x->label,
                       "%s%s: %u partitions, total %.1f ms (queue %.1f, key load %.1f, synthesis %.1f, %s %.1f, "
                       "device lock wait %.1f, finalize %.1f, verify %.1f)%s%s",
                       pm_job_state_name(st), requeue ? " by shutdown (journaled: runs again at restart)" : "",
                       info.n_partitions, info.t.total_ms, info.t.queue_ms, info.t.srs_load_ms, info.t.synth_ms,
                       daemon_start_stage_name(d), info.t.gpu_ms - info.t.gpu_lock_wait_ms, info.t.gpu_lock_wait_ms,
                       info.t.finalize_ms, info.t.verify_ms, eb[0] ? ": " : "", eb);
        pm_job_info_free(&info);
    }
    if (J->journal && !requeue && !unrecorded) spool_remove(J, x->id, x->n_spool);
    pthread_mutex_lock(&J->mu);
    if (x->counted) {
        x->counted = 0;
        J->inflight--;
    }
    if (unrecorded) {
        x->unrecorded = 1;
        J->n_unrecorded++;
        x->end_state = st;
        x->end_text = text; /* taken over (NULL when out of memory: the retry says so) */
        pthread_cond_broadcast(&J->cv);
        pthread_mutex_unlock(&J->mu);
        return;
    }
    free(text);
    J->spool_bytes -= x->spool_bytes;
    x->spool_bytes = 0;
    x->final = 1;
    x->finished_ms = now_ms();
    /* forget entries the engine no longer retains (the journal keeps their answers) */
    int64_t old = x->finished_ms - (int64_t)d->cfg.jobs_retain_s * 1000 - 1000;
    for (unsigned b = 0; b < NBUCKET; b++)
        for (entry *e = J->by_id[b], *n; e; e = n) {
            n = e->next_id;
            if (e->final && e->finished_ms < old) {
                unlink_entry(J, e);
                free(e->end_text);
                free(e);
            }
        }
    pthread_cond_broadcast(&J->cv);
    pthread_mutex_unlock(&J->mu);
}

void daemon_jobs_on_end(pm_daemon *d, uint64_t eid, pm_job_state st) {
    daemon_jobs *J = d->jobs;
    pthread_mutex_lock(&J->mu);
    entry *x = find_eid(J, eid);
    if (!x) {
        if (J->n_early == J->cap_early) {
            unsigned nc = J->cap_early ? 2 * J->cap_early : 16;
            struct early_end *ne = realloc(J->early, nc * sizeof *ne);
            if (ne) J->early = ne, J->cap_early = nc;
        }
        if (J->n_early < J->cap_early) J->early[J->n_early++] = (struct early_end){eid, st};
        else daemon_log(d, LOG_ERROR, "out of memory keeping the end of engine job %llu", (unsigned long long)eid);
    }
    pthread_mutex_unlock(&J->mu);
    if (x) record_end(d, x, st);
}

const char *daemon_jobs_label(pm_daemon *d, const char *id, char *out, size_t n) {
    out[0] = 0;
    pthread_mutex_lock(&d->jobs->mu);
    entry *x = find_id(d->jobs, id);
    if (x) snprintf(out, n, "%s", x->label);
    pthread_mutex_unlock(&d->jobs->mu);
    return out;
}

/* ---- restart: re-queue what was accepted and did not end */

typedef struct {
    pm_daemon *d;
    unsigned requeued, failed, cancelled;
} recover_ctx;

/* the row's end into the journal; 0, or -1 (it stays accepted: the next start tries again) */
static int end_row(pm_daemon *d, const char *id, const char *state, const char *code, const char *msg) {
    json_t *j = json_pack("{s:s,s:s,s:{s:s,s:s}}", "id", id, "state", state, "error", "code", code, "message", msg);
    char *t = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    pm_error err;
    pm_error_clear(&err);
    int rc = t && daemon_journal_finish(d->jobs->journal, id, state, t, now_ms(), &err) == PM_OK ? 0 : -1;
    if (rc) {
        char eb[1200];
        daemon_log(d, LOG_ERROR, "journal row '%.64s': cannot record its end (%s): %s; it stays accepted", id, state,
                   t ? pm_error_format(&err, eb, sizeof eb) : "out of memory");
    }
    free(t);
    return rc;
}

static void recover_row(void *arg, const char *id, const char *spec_text, int cancel) {
    recover_ctx *rc = arg;
    pm_daemon *d = rc->d;
    if (!daemon_job_id_valid(id)) { /* a damaged journal: the id names spool files, so "../x" must not */
        end_row(d, id, "failed", "format", "journal row unreadable (its id is not a job id)");
        daemon_log(d, LOG_WARN, "journal row '%.64s' is not a job (its id is not %d hex digits): not run again", id,
                   PM_JOB_ID_LEN);
        rc->failed++;
        return;
    }
    if (cancel) {
        if (end_row(d, id, "cancelled", "cancelled", "cancelled (before a restart)") == 0)
            spool_remove(d->jobs, id, PM_MAX_SPOOLED_INPUTS);
        rc->cancelled++;
        return;
    }
    json_error_t je;
    json_t *j = json_loads(spec_text, 0, &je);
    json_t *ins = json_object_get(j, "inputs");
    size_t n = json_array_size(ins);
    pm_input *in = n ? calloc(n, sizeof *in) : NULL;
    char (*abs_paths)[4200] = n ? calloc(n, sizeof *abs_paths) : NULL;
    pm_job_spec spec = {0};
    pm_error err;
    pm_error_clear(&err);
    pm_status st = PM_OK;
    if (!j || !json_is_array(ins) || (n && (!in || !abs_paths))) {
        st = pm_error_set(&err, PM_ERR_FORMAT, NULL, PM_NO_OFFSET, "journal row unreadable");
    } else {
        const char *kind = json_string_value(json_object_get(j, "kind"));
        spec.kind = kind && kind[0] ? kind : NULL;
        spec.key_path = json_string_value(json_object_get(j, "key"));
        spec.params_dir = json_string_value(json_object_get(j, "params_dir"));
        spec.label = json_string_value(json_object_get(j, "label"));
        const char *pr = json_string_value(json_object_get(j, "priority"));
        if (!pr || pm_priority_parse(&spec.priority, pr)) spec.priority = PM_PRIO_NORMAL;
        for (size_t i = 0; i < n && st == PM_OK; i++) {
            json_t *o = json_array_get(ins, i);
            in[i].kind = PM_INPUT_PATH;
            in[i].path = json_string_value(json_object_get(o, "path"));
            in[i].name = json_string_value(json_object_get(o, "name"));
            if (in[i].path && in[i].path[0] != '/') {
                /* "spool/<name>": a spooled input, in this state directory's spool (wherever it was) */
                const char *nm = !strncmp(in[i].path, "spool/", 6) ? in[i].path + 6 : NULL;
                if (!nm || !nm[0] || strchr(nm, '/') || !strcmp(nm, ".") || !strcmp(nm, "..")) {
                    st = pm_error_set(&err, PM_ERR_FORMAT, NULL, PM_NO_OFFSET,
                                      "journal row unreadable (input %zu: relative path '%.200s' outside the spool)", i,
                                      in[i].path);
                    break;
                }
                snprintf(abs_paths[i], sizeof abs_paths[i], "%s/%s", d->jobs->spool, nm);
                in[i].path = abs_paths[i];
            } else if (in[i].path) {
                /* an older row: the spool file by its absolute path; in a moved state directory the
                 * same file name in this spool */
                const char *base = strrchr(in[i].path, '/');
                struct stat sb;
                if (base && base - in[i].path >= 6 && !strncmp(base - 6, "/spool", 6) && stat(in[i].path, &sb) != 0) {
                    snprintf(abs_paths[i], sizeof abs_paths[i], "%s%s", d->jobs->spool, base);
                    if (stat(abs_paths[i], &sb) == 0) in[i].path = abs_paths[i];
                }
            }
        }
        spec.inputs = in;
        spec.n_inputs = n;
        if (st == PM_OK) { /* every input resolved */
            const char *fr = json_string_value(json_object_get(j, "front"));
            st = submit_as(d, id, &spec, 0, fr && !strcmp(fr, "grpc") ? DAEMON_FRONT_GRPC : DAEMON_FRONT_HTTP, &err);
            /* the spooled files are the job's again */
            if (st == PM_OK) {
                unsigned ns = 0;
                uint64_t b = 0;
                char p[4200];
                for (size_t i = 0; i < n; i++) {
                    struct stat sb;
                    spool_name(d->jobs, id, (unsigned)i, p, sizeof p);
                    if (stat(p, &sb) != 0) continue;
                    b += (uint64_t)sb.st_size;
                    ns = (unsigned)i + 1;
                }
                pthread_mutex_lock(&d->jobs->mu);
                entry *x = find_id(d->jobs, id);
                if (x && !x->final) {
                    x->n_spool = ns;
                    x->spool_bytes = b;
                    d->jobs->spool_bytes += b;
                }
                pthread_mutex_unlock(&d->jobs->mu);
            }
        }
    }
    if (st == PM_OK) {
        rc->requeued++;
    } else {
        char eb[1200];
        pm_error_format(&err, eb, sizeof eb);
        if (end_row(d, id, "failed", pm_status_name(st), eb) == 0) spool_remove(d->jobs, id, (unsigned)n);
        daemon_log_job(d, LOG_WARN, id, spec.label, "accepted before a restart, cannot run again: %s", eb);
        rc->failed++;
    }
    free(in);
    free(abs_paths);
    json_decref(j);
}

pm_status daemon_jobs_recover_journal(const char *state_dir, FILE *report, pm_error *err) {
    unsigned kept, lost;
    return daemon_journal_recover(state_dir, report, &kept, &lost, err);
}

void daemon_jobs_recover(pm_daemon *d) {
    daemon_jobs *J = d->jobs;
    if (!J->journal) return;
    int purged = daemon_journal_purge(J->journal, now_ms() - (int64_t)d->cfg.jobs_retain_s * 1000);
    recover_ctx rc = {.d = d};
    daemon_journal_each_unfinished(J->journal, recover_row, &rc);
    /* spool files of no unfinished row: written by a submit whose row never committed (a kill
     * between the two), or of a row that ended (the removal after its end was cut short) */
    unsigned orphans = 0;
    DIR *sd = opendir(J->spool);
    for (struct dirent *de; sd && (de = readdir(sd));) {
        const char *dot = strchr(de->d_name, '.');
        char id[PM_JOB_ID_LEN + 1];
        if (!dot || dot - de->d_name != PM_JOB_ID_LEN || !dot[1] || strspn(dot + 1, "0123456789") != strlen(dot + 1))
            continue; /* not a spool file's name: left alone */
        memcpy(id, de->d_name, PM_JOB_ID_LEN);
        id[PM_JOB_ID_LEN] = 0;
        if (!daemon_job_id_valid(id) || daemon_journal_pending(J->journal, id)) continue;
        char p[4200];
        snprintf(p, sizeof p, "%s/%s", J->spool, de->d_name);
        if (unlink(p) == 0) orphans++;
    }
    if (sd) closedir(sd);
    if (orphans) daemon_log(d, LOG_INFO, "spool %s: %u orphaned files removed (of no unfinished job)", J->spool, orphans);
    daemon_log(d, LOG_INFO, "journal %s/jobs.sqlite: %u jobs re-queued, %u could not run again, %u cancelled, %d expired results dropped",
               d->state_dir, rc.requeued, rc.failed, rc.cancelled, purged);
}
