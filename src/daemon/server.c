/*
 * server.c — the daemon: the endpoint table, the engine and its backend, start, reload, stop,
 * signals. Contract and endpoint list: daemon.h; reference: docs/engine.md.
 *
 * The top of the daemon's modules (daemon_internal.h lists them): the request flow is in http.c,
 * routing in route.c, the endpoints in api.c and metrics.c, the job table and journal in jobs.c.
 */
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/api.h"
#include "daemon/auth.h"
#include "daemon/daemon_internal.h"
#include "daemon/grpc_glue.h"
#include "daemon/http.h"
#include "daemon/job_json.h"
#include "daemon/jobs.h"
#include "daemon/listen.h"
#include "daemon/log.h"
#include "daemon/metrics.h"
#include "daemon/route.h"
#include "engine/backend_kinds.h"
#include "engine/engine_build.h"
#include "filecoin/param_report.h"
#include "kinds/kind.h"
#include "util/confine.h"

/* The endpoints of daemon.h, in the order they are matched (route.h). A job's GET and DELETE
 * answer also while the daemon shuts down; every other POST then gets 503. */
static const daemon_endpoint ENDPOINTS[] = {
    {"/v1/jobs/", NULL, 1, daemon_h_job, 0},
    {"/v1/jobs", "POST", 0, daemon_h_submit, 0},
    {"/v1/prove", "POST", 0, daemon_h_submit, 1},
    {"/v1/status", "GET", 0, daemon_h_status, 0},
    {"/metrics", "GET", 0, daemon_h_metrics, 0},
    {"/v1/keys/preload", "POST", 0, daemon_h_keys, 1},
    {"/v1/keys/evict", "POST", 0, daemon_h_keys, 0},
    {"/v1/trace", "GET", 0, daemon_h_trace, 0},
};

/* every complete request (http.c, d->on_request) */
static enum MHD_Result on_http_request(pm_daemon *d, struct MHD_Connection *c, const char *url, const char *method,
                                       const req_t *rq) {
    return daemon_route(d, ENDPOINTS, sizeof ENDPOINTS / sizeof ENDPOINTS[0], c, url, method, rq);
}

static void on_job_done(void *arg, uint64_t id, pm_job_state st) {
    daemon_jobs_on_end(arg, id, st); /* jobs.c: journal, log line, waiters */
}

/* The kind whose keys are named so (its open_key accepts the path, e.g. porep-c2 for
 * DIR/v28-stacked-proof-of-replication-...-<digest>.params), or NULL (snarkjs). */
static const char *kind_by_key_name(const char *path) {
    const pm_kind *all[32];
    size_t n = pm_kind_list(all, sizeof all / sizeof all[0]);
    for (size_t i = 0; i < n && i < sizeof all / sizeof all[0]; i++) {
        void *id = NULL;
        pm_error e;
        if (!all[i]->open_key || !all[i]->key_path || all[i]->open_key(&id, path, &e) != PM_OK) continue;
        if (id && all[i]->close_key) all[i]->close_key(id);
        return all[i]->name;
    }
    return NULL;
}

/* Append the directory dir[0..n) and a comma to list (o bytes used) unless it is there already. */
static void add_dir(char *list, size_t cap, size_t *o, const char *dir, size_t n) {
    if (*o + n + 1 >= cap) { /* too long: counted, so the caller refuses the list */
        *o += n + 1;
        return;
    }
    for (const char *p = list; p < list + *o;) {
        const char *c = strchr(p, ',');
        size_t m = c ? (size_t)(c - p) : strlen(p);
        if (m == n && !strncmp(p, dir, n)) return;
        p += m + 1;
    }
    *o += (size_t)snprintf(list + *o, cap - *o, "%.*s,", (int)n, dir);
}

/* paths.allow_prefix, or by default paths.key_dir, filecoin.params_dir (where every gRPC job and
 * PreloadSRS finds its key, also when paths.key_dir names another directory), paths.input_dir and
 * keys.preload's directories; the spool of the journal is always allowed (util/confine.h). */
static pm_status confine_paths(pm_daemon *d, pm_error *err) {
    const pm_daemon_config *cfg = &d->cfg;
    if (!strcmp(cfg->paths_allow_prefix, "*")) {
        pm_confine_set(NULL, NULL);
        daemon_log(d, LOG_WARN, "paths.allow_prefix = *: any path a client names is opened, links followed");
        return PM_OK;
    }
    char list[4096] = "";
    size_t o = 0;
#define ADD(...) (o += (size_t)snprintf(list + o, o < sizeof list ? sizeof list - o : 0, __VA_ARGS__))
#define ADD_DIR(s, n) add_dir(list, sizeof list, &o, (s), (n))
    if (cfg->paths_allow_prefix[0]) {
        ADD("%s", cfg->paths_allow_prefix);
    } else {
        if (cfg->paths_key_dir[0]) ADD_DIR(cfg->paths_key_dir, strlen(cfg->paths_key_dir));
        ADD_DIR(pm_daemon_params_dir(cfg), strlen(pm_daemon_params_dir(cfg)));
        if (cfg->paths_input_dir[0]) ADD_DIR(cfg->paths_input_dir, strlen(cfg->paths_input_dir));
        char pl[sizeof cfg->keys_preload];
        snprintf(pl, sizeof pl, "%s", cfg->keys_preload);
        for (char *save = NULL, *k = strtok_r(pl, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
            char *colon = strchr(k, ':'), *slash;
            if (colon && colon < strchr(k, '/')) k = colon + 1; /* KIND:PATH */
            while (*k == ' ') k++;
            if ((slash = strrchr(k, '/'))) ADD_DIR(k, (slash - k) > 0 ? (size_t)(slash - k) : 1);
            else ADD_DIR(".", 1);
        }
    }
    const char *spool = daemon_jobs_spool_dir(d);
    if (spool) ADD("%s%s", o && list[o - 1] != ',' ? "," : "", spool);
#undef ADD
#undef ADD_DIR
    if (o >= sizeof list) return pm_error_set(err, PM_ERR_ARG, "paths.allow_prefix", PM_NO_OFFSET, "too many directories");
    pm_status st = pm_confine_set(list, err);
    if (st) return st;
    char shown[4096];
    daemon_log(d, LOG_INFO, "paths: keys and inputs only below %s (no symbolic links below them)",
               pm_confine_active() ? pm_confine_list(shown, sizeof shown) : "(nothing allowed)");
    /* issue #39: which Filecoin parameters the service will use, said once at start */
    char params[2048];
    daemon_log(d, LOG_INFO, "parameters: %s: %s", pm_daemon_params_dir(&d->cfg),
               fil_param_dir_summary(params, sizeof params, pm_daemon_params_dir(&d->cfg)));
    return PM_OK;
}

static char *grpc_metrics(void *arg) { return daemon_metrics_text(arg); }
/* the gRPC front end's hooks into the job table and the socket rules (grpc_glue.h) */
static pm_status grpc_submit(void *arg, const pm_job_spec *spec, uint64_t *id, char *name, size_t cap, pm_error *err) {
    char hid[PM_JOB_ID_LEN + 1];
    pm_status st = daemon_jobs_submit(arg, spec, DAEMON_FRONT_GRPC, hid, err);
    if (st == PM_OK && daemon_jobs_lookup(arg, hid, DAEMON_FRONT_GRPC, id) != 0) st = pm_error_set(err, PM_ERR_INTERNAL, NULL, PM_NO_OFFSET, "job %s vanished", hid);
    if (st == PM_OK) {
        snprintf(name, cap, "%s", hid);
        daemon_log_job(arg, LOG_INFO, hid, spec->label, "accepted over gRPC (%zu inputs%s)", spec->n_inputs,
                       daemon_jobs_durable(arg) ? ", journaled" : ", not durable: state.dir is off");
    }
    return st;
}
/* gRPC reaches only jobs submitted over gRPC (docs/daemon.md "Who can reach which job") */
static int grpc_lookup(void *arg, const char *name, uint64_t *id) {
    return daemon_job_id_valid(name) ? daemon_jobs_lookup(arg, name, DAEMON_FRONT_GRPC, id) : -1;
}
static void grpc_name_of(void *arg, uint64_t id, char *name, size_t cap) {
    uint64_t back;
    daemon_jobs_name_of(arg, id, name, cap);
    if (!daemon_job_id_valid(name) || daemon_jobs_lookup(arg, name, DAEMON_FRONT_GRPC, &back) != 0 || back != id)
        name[0] = 0; /* another front end's job (or no daemon id): not named to a gRPC client */
}
static pm_status grpc_wait_recorded(void *arg, const char *name, pm_error *err) {
    return daemon_job_id_valid(name) ? daemon_jobs_wait_recorded(arg, name, err) : PM_OK;
}
static char *grpc_stored(void *arg, const char *name, pm_error *err) {
    return daemon_job_id_valid(name) ? daemon_jobs_stored(arg, name, DAEMON_FRONT_GRPC, err) : NULL;
}
static pm_status grpc_mark_cancel(void *arg, const char *name, pm_error *err) {
    return daemon_job_id_valid(name) ? daemon_jobs_mark_cancel(arg, name, err) : PM_OK;
}
static int grpc_transient(void *arg, const pm_error *e) { return daemon_jobs_transient(arg, e); }
static int grpc_unix_prepare(void *arg, const char *path, pm_error *err) {
    (void)arg;
    return daemon_unix_prepare(path, err);
}
static pm_status grpc_unix_perms(void *arg, const char *path, pm_error *err) { return daemon_unix_perms(arg, path, err); }
static void grpc_log(void *arg, int level, const char *msg) { daemon_log(arg, level, "%s", msg); }
/* the engine builder's line: what it chose and why */
static void engine_line(void *arg, const char *line) { daemon_log(arg, LOG_INFO, "%s", line); }

unsigned pm_daemon_tcp_port(const pm_daemon *d) { return d ? d->tcp_port : 0; }

void pm_daemon_reload(pm_daemon *d, const pm_daemon_config *cfg) {
    atomic_store(&d->log_level, daemon_level_of(cfg->log_level));
    atomic_store(&d->log_json, !strcmp(cfg->log_format, "json"));
    atomic_store(&d->max_body, cfg->http_max_body);
    atomic_store(&d->max_wait_s, cfg->http_max_wait_s);
    atomic_store(&d->drain_s, cfg->shutdown_drain_s);
    daemon_log(d, LOG_INFO, "reloaded: log.level=%s http.max_body_bytes=%llu http.max_wait_s=%u shutdown.drain_s=%u",
         cfg->log_level, (unsigned long long)cfg->http_max_body, cfg->http_max_wait_s, cfg->shutdown_drain_s);
}

/* The soft limit of open files raised to the hard one (the unit's LimitNOFILE, else the shell's): every
 * connection, spooled input and key file holds a descriptor, and a daemon out of descriptors fails
 * requests (EMFILE). Logged with what it was. */
static void raise_nofile(pm_daemon *d) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= rl.rlim_max) return;
    const rlim_t was = rl.rlim_cur;
    rl.rlim_cur = rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
        daemon_log(d, LOG_INFO, "open files: soft limit raised from %llu to the hard limit %llu", (unsigned long long)was,
                   (unsigned long long)rl.rlim_max);
}

pm_status pm_daemon_start(pm_daemon **out, const pm_daemon_config *cfg, pm_error *err) {
    *out = NULL;
    pm_daemon *d = calloc(1, sizeof *d);
    if (!d) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    d->cfg = *cfg;
    d->fd_tcp = d->fd_unix = -1;
    d->on_request = on_http_request;
    atomic_store(&d->log_level, daemon_level_of(cfg->log_level));
    atomic_store(&d->log_json, !strcmp(cfg->log_format, "json"));
    atomic_store(&d->max_body, cfg->http_max_body);
    atomic_store(&d->max_wait_s, cfg->http_max_wait_s);
    atomic_store(&d->drain_s, cfg->shutdown_drain_s);
    if (!cfg->listen_tcp[0] && !cfg->listen_unix[0] && !cfg->grpc_listen[0]) {
        free(d);
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET,
                            "no listener: set listen.tcp, listen.unix and/or grpc.listen");
    }
    if (strcmp(cfg->log_format, "text") && strcmp(cfg->log_format, "json")) {
        free(d);
        return pm_error_set(err, PM_ERR_ARG, "log.format", PM_NO_OFFSET, "'%s' is not text or json", cfg->log_format);
    }
    if (strcmp(cfg->log_level, "error") && strcmp(cfg->log_level, "warn") && strcmp(cfg->log_level, "info") &&
        strcmp(cfg->log_level, "debug")) { /* issue #39: checked as log.format is, not read as info */
        free(d);
        return pm_error_set(err, PM_ERR_ARG, "log.level", PM_NO_OFFSET, "'%s' is not error, warn, info or debug",
                            cfg->log_level);
    }
    raise_nofile(d);
    /* the state directory (journal, spool, token), then the allowed directories (#17) */
    pm_daemon_state_dir(cfg, d->state_dir, sizeof d->state_dir);
    pm_status st0 = daemon_jobs_open(d, err);
    if (!st0) st0 = confine_paths(d, err);
    if (!st0) st0 = daemon_auth_init(d, err);
    if (st0) {
        daemon_jobs_close(d);
        free(d);
        return st0;
    }
    /* the backend over every proof kind and the engine, from the one builder (engine_build.h):
     * gpu.devices empty: every CUDA device the GPU backend sees, the CPU backend (cpu.device_slots
     * logical devices) only when it sees none; none / cpu: the CPU; a list: those devices, and no
     * start without them (never a silent CPU proof) */
    pm_engine_build_opts bo = {.log = engine_line, .log_arg = d};
    pm_engine_config *ec = &bo.base;
    pm_engine_config_default(ec);
    ec->urgent_lane = cfg->gpu_urgent_lane;
    ec->memory_budget = cfg->memory_budget;
    ec->memory_margin = cfg->memory_margin;
    ec->key_idle_evict_s = cfg->keys_idle_evict_s;
    ec->job_retain_s = cfg->jobs_retain_s;
    /* jobs.max bounds new submits in the job table (jobs.c), never the jobs a restart re-queues
     * (acknowledged before, perhaps under a larger jobs.max): the engine itself takes them all */
    ec->max_jobs = 0xffffffffu;
    ec->max_queued_inline_bytes = cfg->jobs_max_queued_inline; /* without a journal: inline bytes in memory */
    ec->trace = cfg->trace_enabled;
    ec->trace_max_events = cfg->trace_max_events;
    ec->on_complete = on_job_done;
    ec->on_complete_arg = d;
    pm_engine_choices *ch = &bo.choices;
    ch->origin = "gpu.devices";
    ch->cpu_slots = cfg->cpu_device_slots;
    ch->synth_workers = cfg->synth_workers;
    ch->synth_lookahead = cfg->synth_lookahead;
    ch->workers_per_device = cfg->gpu_workers_per_device;
    ch->finalize_threads = cfg->finalize_threads;
    ch->start_threads = cfg->prover_msm_threads ? cfg->prover_msm_threads : PM_ENGINE_ALL_CORES; /* 0: all cores */
    ch->finalize_msm_threads = cfg->finalize_msm_threads;
    pm_engine_built built;
    pm_status st = pm_engine_devices_parse(ch, cfg->gpu_devices, err);
    if (!st) st = pm_engine_build(&built, &bo, err);
    if (st) {
        daemon_jobs_close(d);
        free(d);
        return st;
    }
    d->backend = built.backend;
    d->backend_ok = 1;
    d->engine = built.engine;
    /* the devices chosen, as the rest of the daemon reads them (status, metrics, gRPC): a list of
     * CUDA ordinals, or empty for the CPU backend */
    d->cfg.gpu_devices[0] = 0;
    size_t o = 0; /* a device id is at most 4 digits */
    for (unsigned i = 0; built.sizing.gpu && i < built.sizing.cfg.n_devices && o + 8 < sizeof d->cfg.gpu_devices; i++)
        o += (size_t)snprintf(d->cfg.gpu_devices + o, sizeof d->cfg.gpu_devices - o, "%s%d", i ? "," : "",
                              built.sizing.cfg.devices[i]);
    /* preload keys */
    char list[sizeof cfg->keys_preload];
    snprintf(list, sizeof list, "%s", cfg->keys_preload);
    for (char *save = NULL, *k = strtok_r(list, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
        while (*k == ' ') k++;
        if (!*k) continue;
        /* "KIND:PATH" for a key of another kind than snarkjs (e.g. porep-c2:/params/v28-....params) */
        const char *kind = NULL, *colon = strchr(k, ':');
        char kname[64];
        if (colon && (size_t)(colon - k) < sizeof kname) {
            snprintf(kname, sizeof kname, "%.*s", (int)(colon - k), k);
            const pm_kind *kk = pm_kind_find(kname);
            if (kk) kind = kk->name, k = (char *)colon + 1;
        }
        if (!kind) kind = kind_by_key_name(k); /* a Filecoin parameter file under its own name */
        st = pm_engine_preload_key(d->engine, kind, k, err);
        if (st == PM_ERR_FORMAT && !kind) { /* e.g. a Filecoin .params read as a snarkjs .zkey */
            size_t n = strlen(err->msg);
            snprintf(err->msg + n, sizeof err->msg - n, " (keys.preload: a key of another kind than snarkjs is "
                     "KIND:PATH, e.g. porep-c2:%.200s)", k);
        }
        if (st) {
            pm_daemon_stop(d);
            return st;
        }
        daemon_log(d, LOG_INFO, "preloaded key %s", k);
    }
    daemon_jobs_recover(d); /* jobs accepted before a restart run again */
    if (cfg->listen_tcp[0]) {
        d->fd_tcp = daemon_open_tcp(cfg->listen_tcp, &d->tcp_port, err);
        if (d->fd_tcp < 0 || !(d->mhd_tcp = daemon_start_mhd(d, d->fd_tcp, 1))) {
            if (d->fd_tcp >= 0) pm_error_set(err, PM_ERR_IO, "listen.tcp", PM_NO_OFFSET, "cannot start the HTTP server");
            pm_daemon_stop(d);
            return err ? err->code : PM_ERR_IO;
        }
        daemon_log(d, LOG_INFO, "listening on http://%.*s:%u", (int)(strrchr(cfg->listen_tcp, ':') - cfg->listen_tcp),
             cfg->listen_tcp, d->tcp_port);
    }
    if (cfg->listen_unix[0]) {
        d->fd_unix = daemon_open_unix(cfg->listen_unix, err);
        if (d->fd_unix >= 0 && daemon_unix_perms(d, cfg->listen_unix, err) != PM_OK) {
            pm_daemon_stop(d);
            return err ? err->code : PM_ERR_IO;
        }
        if (d->fd_unix < 0 || !(d->mhd_unix = daemon_start_mhd(d, d->fd_unix, 0))) {
            if (d->fd_unix >= 0) pm_error_set(err, PM_ERR_IO, "listen.unix", PM_NO_OFFSET, "cannot start the HTTP server");
            pm_daemon_stop(d);
            return err ? err->code : PM_ERR_IO;
        }
        daemon_log(d, LOG_INFO, "listening on unix:%s (mode %s%s%s)", cfg->listen_unix, cfg->listen_unix_mode,
                   cfg->listen_unix_group[0] ? ", group " : "", cfg->listen_unix_group);
    }
    pm_grpc_front_config gc = {.engine = d->engine, .cfg = &d->cfg, /* gpu.devices: the chosen ones */ .metrics = grpc_metrics, .metrics_arg = d,
                               .log = grpc_log, .log_arg = d, .submit = grpc_submit, .lookup = grpc_lookup,
                               .name_of = grpc_name_of, .stored = grpc_stored, .wait_recorded = grpc_wait_recorded,
                               .mark_cancel = grpc_mark_cancel, .transient = grpc_transient,
                               .name_inputs = daemon_job_name_inputs, .unix_prepare = grpc_unix_prepare,
                               .unix_perms = grpc_unix_perms, .jobs_arg = d};
    if ((st = pm_grpc_front_start(&d->grpc, &gc, err)) != PM_OK) {
        pm_daemon_stop(d);
        return st;
    }
    if (d->token[0]) daemon_log(d, LOG_INFO, "TCP clients authenticate with the token in %s", d->token_path);
    else if (cfg->listen_tcp[0]) daemon_log(d, LOG_WARN, "http.require_token is off: any local user may use the TCP API");
    daemon_log(d, LOG_INFO, "journal: %s", d->state_dir[0] ? d->state_dir : "off (state.dir = off: jobs are not durable)");
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
        /* jobs stopped from here on are not ended in the journal: they run again after a restart */
        if (d->jobs) daemon_jobs_shutting_down(d);
        pm_engine_cancel_all(d->engine);
        /* wait (bounded) for running jobs to reach their stage boundary, so that waiting clients
         * are answered with the job's real end, not "running" */
        for (unsigned i = 0; i < 300; i++) {
            pm_engine_status st;
            pm_engine_get_status(d->engine, &st);
            unsigned left = st.running;
            pm_engine_status_free(&st);
            if (!left) break;
            struct timespec ts = {0, 100000000};
            nanosleep(&ts, NULL);
        }
        pm_engine_close(d->engine); /* long-polls return now */
    }
    pm_grpc_front_stop(d->grpc); /* before the engine: its calls use it */
    /* Let answers already queued go out before the listeners stop: with a thread per connection,
     * MHD_stop_daemon shuts every connection's socket down, so a long-poll woken by
     * pm_engine_close above (POST /v1/prove's 503 "shutting-down") could lose its response to
     * the race. New requests meanwhile get 503 at once; bounded at 5 s for clients that keep
     * sending. */
    for (unsigned i = 0; i < 500 && atomic_load(&d->http_open); i++) {
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    if (d->mhd_tcp) MHD_stop_daemon(d->mhd_tcp);
    if (d->mhd_unix) MHD_stop_daemon(d->mhd_unix);
    daemon_http_guard_stop(d);
    if (d->fd_tcp >= 0) close(d->fd_tcp);
    if (d->fd_unix >= 0) {
        close(d->fd_unix);
        unlink(d->cfg.listen_unix);
    }
    pm_engine_destroy(d->engine);
    daemon_jobs_close(d);
    pm_confine_set(NULL, NULL);
    if (d->backend_ok && d->backend.destroy) d->backend.destroy(d->backend.self);
    daemon_log(d, LOG_INFO, "stopped");
    free(d);
}

int pm_daemon_recover_journal(const pm_daemon_config *cfg) {
    char dir[512];
    pm_daemon_state_dir(cfg, dir, sizeof dir);
    if (!dir[0]) {
        fprintf(stderr, "proofmill: state.dir is off: there is no journal to recover\n");
        return 2;
    }
    pm_error err;
    pm_error_clear(&err);
    if (daemon_jobs_recover_journal(dir, stdout, &err) != PM_OK) {
        char buf[1200];
        fprintf(stderr, "proofmill: cannot recover the journal: %s\n", pm_error_format(&err, buf, sizeof buf));
        return 2;
    }
    printf("the daemon can start again on %s\n", dir);
    return 0;
}

int pm_daemon_run(const pm_daemon_config *cfg0, const char *config_path) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL); /* every thread started from here inherits the mask */
    signal(SIGPIPE, SIG_IGN);
    /* a file-size limit (ulimit -f, RLIMIT_FSIZE) must fail the one write that passes it (EFBIG: a
     * spooled inline input, the journal) instead of killing the daemon and every job it holds */
    signal(SIGXFSZ, SIG_IGN);
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
                daemon_log(d, LOG_ERROR, "reload failed, keeping the old settings: %s", pm_error_format(&err, buf, sizeof buf));
                continue;
            }
            cfg = nc;
            pm_daemon_reload(d, &cfg);
            continue;
        }
        daemon_log(d, LOG_INFO, "signal %d: shutting down", sig);
        break;
    }
    pm_daemon_stop(d);
    return 0;
}
