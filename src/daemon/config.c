/*
 * config.c — the daemon's knob table and its INI reader (inih), overrides and dump.
 * The table is the single source: add a knob here (and a field in pm_daemon_config) and the parser,
 * --dump-config and the docs table follow. The library's settings (util/settings.h: gpu.memory, ...)
 * are served beside it: a name this table lacks and the settings table has is checked and set there
 * (config file, --set), and the dump lists those rows after the daemon's own in their sections.
 */
#include "daemon/config.h"

/* The gRPC API's default address (cuzk's); empty in a build without gRPC (-DPROOFMILL_GRPC=OFF). */
#ifdef PROOFMILL_NO_GRPC
#define PM_GRPC_LISTEN_DEFAULT ""
#else
#define PM_GRPC_LISTEN_DEFAULT "127.0.0.1:9820"
#endif

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "filecoin/param_safety.h"
#include "util/settings.h"

typedef enum { K_STR, K_UINT, K_SIZE, K_BOOL } kind_t;

typedef struct {
    const char *name;
    kind_t kind;
    size_t off;   /* offsetof in pm_daemon_config */
    size_t len;   /* K_STR buffer size */
    const char *def;
    uint64_t min, max; /* K_UINT / K_SIZE bounds */
    int reloadable;
    const char *doc;
} knob_t;

#define F(field) offsetof(pm_daemon_config, field)
#define S(field) sizeof(((pm_daemon_config *)0)->field)
#define GIB (1ull << 30)

static const knob_t knobs[] = {
    {"listen.tcp", K_STR, F(listen_tcp), S(listen_tcp), "127.0.0.1:9821", 0, 0, 0,
     "TCP address host:port of the HTTP API (empty: no TCP listener). Port 0 picks a free port (logged). "
     "9820 is the gRPC API's (grpc.listen)."},
    {"listen.unix", K_STR, F(listen_unix), S(listen_unix), "", 0, 0, 0,
     "Unix socket path of the HTTP API (empty: none). Removed at shutdown; a stale one left by a killed "
     "daemon is replaced at start (a live daemon's is refused)."},
    {"listen.unix_mode", K_STR, F(listen_unix_mode), S(listen_unix_mode), "0660", 0, 0, 0,
     "Permission bits of the unix socket (octal), set explicitly whatever the umask: who may connect. "
     "Clients of the socket need no token."},
    {"listen.unix_group", K_STR, F(listen_unix_group), S(listen_unix_group), "", 0, 0, 0,
     "Group owning the unix socket (name or number; empty: the daemon's group)."},
    {"http.max_body_bytes", K_SIZE, F(http_max_body), 0, "128M", 1024, 4 * GIB, 1,
     "Largest request body; larger requests get 413 without being read."},
    {"http.max_buffered_bytes", K_SIZE, F(http_max_buffered), 0, "512M", 1024, UINT64_MAX, 0,
     "Request bodies held in memory at once, all connections together; beyond, 503 busy."},
    {"http.max_connections", K_UINT, F(http_max_connections), 0, "256", 1, 65536, 0,
     "Concurrent HTTP connections per listener (each has its own thread; long-polls hold one); beyond, "
     "503 with Retry-After, up to a reserve (http.per_ip_connections)."},
    {"http.require_token", K_BOOL, F(http_require_token), 0, "true", 0, 1, 0,
     "TCP clients must send 'Authorization: Bearer <token>' with the token of http.token_file (401 "
     "otherwise). The unix socket is guarded by its permissions instead."},
    {"http.token_file", K_STR, F(http_token_file), S(http_token_file), "", 0, 0, 0,
     "File holding the API token; created (mode 0600, 256 random bits, hex) at first start when missing. "
     "Empty: <state dir>/http.token."},
    {"http.allowed_hosts", K_STR, F(http_allowed_hosts), S(http_allowed_hosts), "", 0, 0, 0,
     "Comma list of further Host header names accepted (besides localhost, 127.0.0.1, [::1] and the "
     "listen address); other Hosts get 421 (DNS rebinding)."},
    {"http.allowed_origins", K_STR, F(http_allowed_origins), S(http_allowed_origins), "", 0, 0, 0,
     "Comma list of Origin values accepted (e.g. http://dashboard:8080); a request carrying any other "
     "Origin gets 403 (cross-site requests from a browser). Empty: none."},
    {"http.idle_timeout_s", K_UINT, F(http_idle_timeout_s), 0, "15", 1, 3600, 0,
     "A connection that sends nothing for this long (headers or body included) is closed; a long-poll "
     "waiting for its answer is not idle."},
    {"http.request_timeout_s", K_UINT, F(http_request_timeout_s), 0, "10", 1, 3600, 0,
     "A request (its head, and its body with one more second per MiB of Content-Length) must arrive "
     "within this many seconds of the connection's start (or of the previous response, plus "
     "http.idle_timeout_s); else the connection is closed (slow clients sending a byte now and then)."},
    {"http.per_ip_connections", K_UINT, F(http_per_ip_connections), 0, "32", 1, 65536, 0,
     "Concurrent TCP connections from one client address; beyond, new ones get 503 with Retry-After "
     "(a reserve of a quarter of the limit, at least 4, is taken for that; beyond the reserve they are "
     "reset). http.max_connections likewise."},
    {"http.max_wait_s", K_UINT, F(http_max_wait_s), 0, "600", 0, 86400, 1,
     "Cap on ?wait= of GET /v1/jobs/{id} and on POST /v1/prove's wait, seconds."},
    {"grpc.listen", K_STR, F(grpc_listen), S(grpc_listen), PM_GRPC_LISTEN_DEFAULT, 0, 0, 0,
     "Address of the gRPC API (cuzk.v1.ProvingEngine, what Curio's [Cuzk] Address names; docs/curio.md): "
     "host:port (loopback by default; 0.0.0.0:9820 for every interface), port 0 picks a free port "
     "(logged), or unix:///path for a unix socket. Empty: no gRPC listener."},
    {"grpc.max_message_bytes", K_SIZE, F(grpc_max_message), 0, "128M", 1 << 20, 2047ull << 20, 0,
     "Largest gRPC message sent, and received (a 32 GiB C1 in SubmitProofRequest.vanilla_proof is about "
     "50 MB; received ones are also held to 65 MiB: grpc.max_buffered_bytes); larger ones get "
     "RESOURCE_EXHAUSTED."},
    {"grpc.max_buffered_bytes", K_SIZE, F(grpc_max_buffered), 0, "0", 0, UINT64_MAX, 0,
     "SubmitProof/Prove request bodies held at once while they are checked and spooled, bytes (outside "
     "memory.budget); beyond, a call gets RESOURCE_EXHAUSTED. 0: memory.budget / 4, at least one largest "
     "message. Received messages are at most 65 MiB (one 64 MiB vanilla proof and the other fields) or "
     "grpc.max_message_bytes when smaller; larger ones are refused by gRPC before any is spooled."},
    {"grpc.max_threads", K_UINT, F(grpc_max_threads), 0, "256", 8, 65536, 0,
     "Threads serving gRPC calls at most (each waiting AwaitProof/Prove holds one); beyond, new calls "
     "get RESOURCE_EXHAUSTED."},
    {"grpc.proof_kinds", K_STR, F(grpc_proof_kinds), S(grpc_proof_kinds), "", 0, 0, 0,
     "Which registered proof kind serves each cuzk ProofKind, as PROOF_KIND=kind,... overriding the "
     "built-in POREP_SEAL_COMMIT=porep-c2, SNAP_DEALS_UPDATE=snapdeals, WINDOW_POST_PARTITION=window-post, "
     "WINNING_POST=winning-post. A kind that is not registered answers UNIMPLEMENTED."},
    /* gRPC over TLS (docs/daemon.md "gRPC over TLS") */
    {"grpc.tls_cert", K_STR, F(grpc_tls_cert), S(grpc_tls_cert), "", 0, 0, 0,
     "PEM file of the gRPC server's certificate (chain), with grpc.tls_key: the gRPC API speaks TLS. "
     "Empty: plaintext (loopback or a unix socket only, unless grpc.allow_insecure_remote)."},
    {"grpc.tls_key", K_STR, F(grpc_tls_key), S(grpc_tls_key), "", 0, 0, 0,
     "PEM file of the private key of grpc.tls_cert (keep it mode 0600)."},
    {"grpc.tls_client_ca", K_STR, F(grpc_tls_client_ca), S(grpc_tls_client_ca), "", 0, 0, 0,
     "PEM file of the CA(s) that sign client certificates: every gRPC client must present a certificate "
     "they signed (mutual TLS), else the handshake fails. Needs grpc.tls_cert and grpc.tls_key."},
    {"grpc.allow_insecure_remote", K_BOOL, F(grpc_allow_insecure_remote), 0, "false", 0, 1, 0,
     "Start even when grpc.listen is reachable from other machines (not loopback, not a unix socket) "
     "without mutual TLS (grpc.tls_cert, grpc.tls_key, grpc.tls_client_ca); the daemon refuses that "
     "otherwise, as anyone reaching the port could submit, cancel and evict."},
    {"filecoin.params_dir", K_STR, F(params_dir), S(params_dir), "", 0, 0, 0,
     "Parameter directory (<stem>.params, .vk, optional .csr) of jobs whose kind names its key from one "
     "(porep-c2, ...) and that name none: every gRPC job, HTTP jobs without params_dir or key. Empty: "
     "$FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters, as Filecoin's tools."},
    {"synthesis.workers", K_UINT, F(synth_workers), 0, "2", 1, 1024, 0,
     "Synthesis threads: partitions synthesized concurrently (the synthesis semaphore)."},
    {"synthesis.lookahead", K_UINT, F(synth_lookahead), 0, "0", 0, 65536, 0,
     "Partitions synthesized ahead of the GPU workers at most (0: max(synthesis.workers, GPU workers of all devices))."},
    {"gpu.devices", K_STR, F(gpu_devices), S(gpu_devices), "", 0, 0, 0,
     "Where the start phase (H + G1 MSMs) runs. Empty: every CUDA device the GPU backend sees, the CPU "
     "backend (cpu.device_slots logical devices) only when it sees none. none (or cpu): the CPU backend. "
     "A comma list of CUDA device ids (or all): those devices, a partition's GPU part on one of them; the "
     "daemon refuses to start when the GPU backend does not see them. The start line says what was chosen "
     "and why."},
    {"gpu.workers_per_device", K_UINT, F(gpu_workers_per_device), 0, "2", 1, 64, 0,
     "GPU workers per device; they share one lock held only around the kernel region."},
    {"gpu.urgent_lane", K_BOOL, F(gpu_urgent_lane), 0, "true", 0, 1, 0,
     "One more synthesis worker and one more start-phase worker per device that take critical jobs "
     "(WinningPoSt) only; between its MSMs a partition of another job lets a waiting critical one "
     "onto the device. false: neither (a critical job waits for a free worker and the kernel region)."},
    {"cpu.device_slots", K_UINT, F(cpu_device_slots), 0, "1", 1, 64, 0,
     "Logical devices when gpu.devices is empty (CPU-only machines)."},
    {"finalize.threads", K_UINT, F(finalize_threads), 0, "1", 1, 1024, 0,
     "Finalizer pool (B_G2 MSM, blinding, assembly, verification). Small keeps buckets in L3."},
    {"prover.msm_threads", K_UINT, F(prover_msm_threads), 0, "0", 0, 1024, 0,
     "Threads of the start phase's G1 MSMs (0: all cores)."},
    {"finalize.msm_threads", K_UINT, F(finalize_msm_threads), 0, "1", 1, 1024, 0,
     "Threads of one finalize's G2 MSM."},
    {"memory.budget", K_SIZE, F(memory_budget), 0, "0", 0, UINT64_MAX, 0,
     "Bytes the engine may reserve for keys and jobs in flight; jobs wait rather than exceed it. "
     "0: physical memory (or the cgroup limit) minus memory.margin."},
    {"memory.margin", K_SIZE, F(memory_margin), 0, "1G", 0, UINT64_MAX, 0,
     "Left to the rest of the machine when memory.budget is 0."},
    {"keys.idle_evict_s", K_UINT, F(keys_idle_evict_s), 0, "300", 0, 31536000, 0,
     "Unused keys (not preloaded, not used by a critical job) are evicted after this many seconds; 0: only under "
     "memory pressure."},
    {"keys.preload", K_STR, F(keys_preload), S(keys_preload), "", 0, 0, 0,
     "Comma list of key paths loaded (and pinned) at start; a file named as Filecoin names its parameters "
     "(DIR/v28-...params) is loaded as that kind (porep-c2, window-post, ...), any other as a snarkjs .zkey; "
     "KIND:PATH names the kind. A config file's line holds at most 198 characters: longer lists go in "
     "--set keys.preload=..."},
    {"jobs.retain_s", K_UINT, F(jobs_retain_s), 0, "600", 1, 31536000, 0,
     "Finished jobs (and their proofs) stay queryable this long."},
    {"jobs.max", K_UINT, F(jobs_max), 0, "1024", 1, 1000000, 0,
     "Queued + running jobs at most; beyond, a new submit gets 503. Jobs journaled before a restart "
     "are all re-queued, also past a smaller jobs.max."},
    {"jobs.max_queued_inline_bytes", K_SIZE, F(jobs_max_queued_inline), 0, "0", 0, UINT64_MAX, 0,
     "Inline inputs (<input>_b64) of jobs not yet admitted, bytes at most (in the journal's spool, or "
     "in memory without a journal; outside memory.budget, which they join at admission); beyond, "
     "submit gets 503. 0: memory.budget / 4 (without a journal), 4G (spooled)."},
    {"state.dir", K_STR, F(state_dir), S(state_dir), "", 0, 0, 0,
     "Directory of the job journal (SQLite, WAL), the spool of inline inputs and the API token. "
     "Empty: $STATE_DIRECTORY, else $XDG_STATE_HOME/proofmill, else ~/.local/state/proofmill. "
     "\"off\": no journal (jobs are lost with the process; submit answers \"durable\": false)."},
    {"paths.key_dir", K_STR, F(paths_key_dir), S(paths_key_dir), "", 0, 0, 0,
     "Directory of proving keys and Filecoin parameters (allowed by default; filecoin.params_dir stays "
     "allowed beside it). Empty: filecoin.params_dir."},
    {"paths.input_dir", K_STR, F(paths_input_dir), S(paths_input_dir), "", 0, 0, 0,
     "Directory of witnesses, C1 files and other inputs given by path (allowed by default)."},
    {"paths.allow_prefix", K_STR, F(paths_allow_prefix), S(paths_allow_prefix), "", 0, 0, 0,
     "Comma list of directories under which key, parameter and input paths must lie; symbolic links "
     "below them are not followed; anything else gets 403 before it is opened. Empty: paths.key_dir, "
     "filecoin.params_dir, paths.input_dir and the directories of keys.preload. \"/\": any absolute path "
     "(still no links). "
     "\"*\": no check at all (links followed; trusted clients only)."},
    {"trace.enabled", K_BOOL, F(trace_enabled), 0, "false", 0, 1, 0,
     "Record every stage's start/end per worker (GET /v1/trace, Chrome trace JSON)."},
    {"trace.max_events", K_UINT, F(trace_max_events), 0, "65536", 1, 16777216, 0,
     "Trace ring size (older events are dropped)."},
    {"shutdown.drain_s", K_UINT, F(shutdown_drain_s), 0, "0", 0, 86400, 1,
     "On SIGTERM, wait up to this long for jobs in flight before cancelling them."},
    {"debug.journal_full_at", K_UINT, F(debug_journal_full_at), 0, "0", 0, 4294967295u, 0,
     "Tests/benchmarks only: the Nth write to the job journal after start (counted from 1: a submit's row, a job's "
     "end, a cancel, a purge) and every later one fail as a full disk would (SQLITE_FULL), the file "
     "untouched. 0: never."},
    {"debug.journal_full_count", K_UINT, F(debug_journal_full_count), 0, "0", 0, 4294967295u, 0,
     "Tests/benchmarks only: with debug.journal_full_at, how many journal writes fail from there (the disk "
     "has room again after them). 0: every later one."},
    {"log.level", K_STR, F(log_level), S(log_level), "info", 0, 0, 1,
     "error, warn, info or debug (stderr)."},
    {"log.format", K_STR, F(log_format), S(log_format), "text", 0, 0, 1,
     "text (\"<time> proofmill[pid] <level>: <message>\") or json (one object per line: ts, level, pid, "
     "msg, and job/label on job lines)."},
};
#define N_KNOBS (sizeof knobs / sizeof knobs[0])

/* v0 without its matching quotes (TOML habit: tcp = "127.0.0.1:9820" means the text inside), into
 * v[1100]. 0, or -1 with why filled. */
#define VALUE_MAX 1100
static int unquote(char v[VALUE_MAX], const char *v0, char *why, size_t nwhy) {
    size_t vl = strlen(v0);
    if (vl >= VALUE_MAX) return snprintf(why, nwhy, "value longer than %d bytes", VALUE_MAX - 1), -1;
    if (vl >= 2 && (v0[0] == '"' || v0[0] == '\'') && v0[vl - 1] == v0[0]) {
        memcpy(v, v0 + 1, vl - 2);
        v[vl - 2] = 0;
    } else {
        memcpy(v, v0, vl + 1);
    }
    return 0;
}

/* Set knob k from text v. Returns 0 or -1 with why filled. */
static int knob_set(pm_daemon_config *c, const knob_t *k, const char *v0, char *why, size_t nwhy) {
    char *base = (char *)c + k->off;
    uint64_t x;
    char v[VALUE_MAX];
    if (unquote(v, v0, why, nwhy) != 0) return -1;
    switch (k->kind) {
    case K_STR:
        if (strlen(v) >= k->len) return snprintf(why, nwhy, "value longer than %zu bytes", k->len - 1), -1;
        memcpy(base, v, strlen(v) + 1);
        return 0;
    case K_UINT:
    case K_SIZE:
        if (pm_settings_parse_u64(&x, v, k->kind == K_SIZE) != 0)
            return snprintf(why, nwhy, "'%s' is not a %s", v, k->kind == K_SIZE ? "size" : "number"), -1;
        if (x < k->min || x > k->max)
            return snprintf(why, nwhy, "%" PRIu64 " is outside [%" PRIu64 ", %" PRIu64 "]", x, k->min, k->max), -1;
        if (k->kind == K_UINT) *(unsigned *)base = (unsigned)x;
        else *(uint64_t *)base = x;
        return 0;
    case K_BOOL:
        if (pm_settings_parse_bool((int *)base, v) != 0) return snprintf(why, nwhy, "'%s' is not a boolean", v), -1;
        return 0;
    }
    return -1;
}

static const knob_t *knob_find(const char *name) {
    for (size_t i = 0; i < N_KNOBS; i++)
        if (!strcmp(knobs[i].name, name)) return &knobs[i];
    return NULL;
}

const char *pm_daemon_params_dir(const pm_daemon_config *c) {
    return c->params_dir[0] ? c->params_dir : fil_param_default_dir(); /* FIL_PROOFS_PARAMETER_CACHE, else Filecoin's */
}

void pm_daemon_config_default(pm_daemon_config *c) {
    memset(c, 0, sizeof *c);
    char why[128];
    for (size_t i = 0; i < N_KNOBS; i++) knob_set(c, &knobs[i], knobs[i].def, why, sizeof why);
}

/* a library setting of the file (util/settings.h), checked while reading and applied once the whole
 * file has been read without error */
typedef struct {
    char name[256]; /* ini_cb's "section.name" */
    char value[VALUE_MAX];
} pending_t;

typedef struct {
    pm_daemon_config *c;
    int reload_only;
    const char *path;
    pm_error *err;
    int failed;
    pending_t *pend;
    size_t n_pend;
} load_ctx;

/* A line naming a library setting: checked now, kept for pm_daemon_config_load to apply. 1, or 0 with
 * lc->err filled. They are not reloadable (SIGHUP skips them). */
static int util_line(load_ctx *lc, const char *full, const char *value) {
    char v[VALUE_MAX], why[160];
    pm_error e;
    if (unquote(v, value, why, sizeof why) != 0) {
        pm_error_set(lc->err, PM_ERR_FORMAT, lc->path, PM_NO_OFFSET, "%s: %s", full, why);
        return 0;
    }
    if (pm_setting_check(full, v, &e) != PM_OK) {
        pm_error_set(lc->err, PM_ERR_FORMAT, lc->path, PM_NO_OFFSET, "%s", e.msg);
        return 0;
    }
    if (lc->reload_only) return 1;
    pending_t *np = realloc(lc->pend, (lc->n_pend + 1) * sizeof *np);
    if (!np) {
        pm_error_set(lc->err, PM_ERR_NOMEM, lc->path, PM_NO_OFFSET, "out of memory");
        return 0;
    }
    lc->pend = np;
    snprintf(np[lc->n_pend].name, sizeof np->name, "%s", full);
    memcpy(np[lc->n_pend].value, v, sizeof v);
    lc->n_pend++;
    return 1;
}

/* inih calls this per key; it does not pass the line (Debian's build lacks INI_HANDLER_LINENO), but
 * ini_parse_file returns the line of the first error, so messages are completed there. */
static int ini_cb(void *user, const char *section, const char *name, const char *value) {
    load_ctx *lc = user;
    if (lc->failed) return 0;
    char full[256];
    snprintf(full, sizeof full, "%s%s%s", section, section[0] ? "." : "", name);
    const knob_t *k = knob_find(full);
    if (!k && pm_settings_find(full)) {
        if (util_line(lc, full, value)) return 1;
        lc->failed = 1;
        return 0;
    }
    if (!k) {
        pm_error_set(lc->err, PM_ERR_FORMAT, lc->path, PM_NO_OFFSET, "unknown setting '%s'", full);
        lc->failed = 1;
        return 0;
    }
    if (lc->reload_only && !k->reloadable) return 1;
    char why[160];
    if (knob_set(lc->c, k, value, why, sizeof why) != 0) {
        pm_error_set(lc->err, PM_ERR_FORMAT, lc->path, PM_NO_OFFSET, "%s: %s", full, why);
        lc->failed = 1;
        return 0;
    }
    return 1;
}

/* inih reads a line into INI_MAX_LINE bytes (200 in Debian's build): a longer one is cut there and
 * its rest parsed as the next line ("syntax error" on a line the file does not have, or worse a
 * value cut short), so such lines are refused first, naming them. 0, or the line's number. */
static int long_line(FILE *f, size_t *len) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int no = 0, bad = 0;
    while (!bad && (n = getline(&line, &cap, f)) >= 0) {
        no++;
        size_t l = (size_t)n - (n && line[n - 1] == '\n');
        if (l > INI_MAX_LINE - 2) bad = no, *len = l;
    }
    free(line);
    rewind(f);
    return bad;
}

pm_status pm_daemon_config_load(pm_daemon_config *c, const char *path, int reload_only, pm_error *err) {
    FILE *f = fopen(path, "r");
    if (!f) return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot open: %s", strerror(errno));
    size_t len = 0;
    int ln = long_line(f, &len);
    if (ln) {
        fclose(f);
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET,
                            "line %d: %zu characters, more than the %d a line may hold (the INI reader's limit); "
                            "give a long value with --set name=value instead (e.g. in the service's command line)",
                            ln, len, INI_MAX_LINE - 2);
    }
    pm_daemon_config tmp = *c;
    load_ctx lc = {.c = &tmp, .reload_only = reload_only, .path = path, .err = err};
    int rc = ini_parse_file(f, ini_cb, &lc);
    fclose(f);
    if (lc.failed) {
        if (err && rc > 0) {
            char m[sizeof err->msg];
            snprintf(m, sizeof m, "line %d: %.480s", rc, err->msg);
            memcpy(err->msg, m, sizeof m);
        }
        free(lc.pend);
        return PM_ERR_FORMAT;
    }
    if (rc != 0) {
        free(lc.pend);
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "line %d: syntax error", rc);
    }
    *c = tmp;
    for (size_t i = 0; i < lc.n_pend; i++) pm_setting_set(lc.pend[i].name, lc.pend[i].value, NULL); /* checked */
    free(lc.pend);
    return PM_OK;
}

pm_status pm_daemon_config_set(pm_daemon_config *c, const char *a, pm_error *err) {
    const char *eq = strchr(a, '=');
    if (!eq) return pm_error_set(err, PM_ERR_FORMAT, "--set", PM_NO_OFFSET, "'%s' is not name=value", a);
    char name[128];
    size_t n = (size_t)(eq - a);
    if (n >= sizeof name) n = sizeof name - 1;
    memcpy(name, a, n);
    name[n] = 0;
    const knob_t *k = knob_find(name);
    if (!k && pm_settings_find(name)) { /* a library setting (util/settings.h) */
        char v[VALUE_MAX], why[160];
        pm_error e;
        if (unquote(v, eq + 1, why, sizeof why) != 0)
            return pm_error_set(err, PM_ERR_FORMAT, "--set", PM_NO_OFFSET, "%s: %s", name, why);
        if (pm_setting_set(name, v, &e) != PM_OK) return pm_error_set(err, PM_ERR_FORMAT, "--set", PM_NO_OFFSET, "%s", e.msg);
        return PM_OK;
    }
    if (!k) return pm_error_set(err, PM_ERR_FORMAT, "--set", PM_NO_OFFSET, "unknown setting '%s'", name);
    char why[160];
    if (knob_set(c, k, eq + 1, why, sizeof why) != 0)
        return pm_error_set(err, PM_ERR_FORMAT, "--set", PM_NO_OFFSET, "%s: %s", name, why);
    return PM_OK;
}

const char *pm_daemon_state_dir(const pm_daemon_config *c, char *out, size_t n) {
    const char *v;
    out[0] = 0;
    if (!strcmp(c->state_dir, "off")) return out;
    if (c->state_dir[0]) snprintf(out, n, "%s", c->state_dir);
    else if ((v = pm_settings_env("STATE_DIRECTORY")) && v[0]) snprintf(out, n, "%.*s", (int)strcspn(v, ":"), v);
    else if ((v = pm_settings_env("XDG_STATE_HOME")) && v[0]) snprintf(out, n, "%s/proofmill", v);
    else if ((v = pm_settings_env("HOME")) && v[0]) snprintf(out, n, "%s/.local/state/proofmill", v);
    else snprintf(out, n, "/var/lib/proofmill");
    return out;
}

static void knob_value(const pm_daemon_config *c, const knob_t *k, char *out, size_t n) {
    const char *base = (const char *)c + k->off;
    switch (k->kind) {
    case K_STR: snprintf(out, n, "%s", base); break;
    case K_UINT: snprintf(out, n, "%u", *(const unsigned *)base); break;
    /* a size as the largest exact K/M/G/T multiple ("64M"), so that the dump reads back the same */
    case K_SIZE: pm_settings_size_text(*(const uint64_t *)base, out, n); break;
    case K_BOOL: snprintf(out, n, "%s", *(const int *)base ? "true" : "false"); break;
    }
}

/* One row of the dump: a daemon knob, or a library setting the daemon table lacks. */
typedef struct {
    const char *name, *def, *doc;
    const knob_t *k;          /* NULL: a library setting */
    const pm_setting_def *u;
} row_t;

static size_t dump_rows(row_t *rows) {
    size_t n = 0;
    for (size_t i = 0; i < N_KNOBS; i++) rows[n++] = (row_t){knobs[i].name, knobs[i].def, knobs[i].doc, &knobs[i], NULL};
    for (size_t i = 0; i < pm_settings_count(); i++) {
        const pm_setting_def *u = pm_settings_def(i);
        if (!knob_find(u->name)) rows[n++] = (row_t){u->name, u->def, u->doc, NULL, u};
    }
    return n;
}

/* a library setting's variables, " (environment PROOFMILL_GPU_MEMORY, PROOFMILL_GPU_BUDGET)" */
static void env_note(const pm_setting_def *u, char *out, size_t n) {
    out[0] = 0;
    size_t l = 0;
    for (int e = 0; e < 3 && u->env[e] && l < n; e++)
        l += (size_t)snprintf(out + l, n - l, "%s%s", e ? ", " : " (environment ", u->env[e]);
    if (l && l < n) snprintf(out + l, n - l, ")");
}

static void row_bounds(const row_t *r, char *out, size_t n) {
    int kind = r->k ? (int)r->k->kind : (int)r->u->type;
    uint64_t min = r->k ? r->k->min : r->u->min, max = r->k ? r->k->max : r->u->max;
    /* knob_t's kind and pm_setting_type list the types in the same order */
    if (kind == K_UINT || kind == K_SIZE) {
        if (max == UINT64_MAX) snprintf(out, n, ">= %" PRIu64, min);
        else snprintf(out, n, "%" PRIu64 "..%" PRIu64, min, max);
    } else if (kind == K_BOOL) {
        snprintf(out, n, "bool");
    } else if (r->u && r->u->choices) {
        size_t l = 0;
        for (const char *p = r->u->choices; *p && l + 3 < n; p++) { /* "a|b" as "a, b": | splits markdown cells */
            if (*p == '|') out[l++] = ',', out[l++] = ' ';
            else out[l++] = *p;
        }
        out[l] = 0;
    } else {
        snprintf(out, n, "string");
    }
}

void pm_daemon_config_dump(const pm_daemon_config *c, FILE *out, int markdown) {
    _Static_assert((int)K_STR == (int)PM_SETTING_STR && (int)K_UINT == (int)PM_SETTING_UINT &&
                       (int)K_SIZE == (int)PM_SETTING_SIZE && (int)K_BOOL == (int)PM_SETTING_BOOL,
                   "knob kinds and setting types in one order");
    char v[1100], env[200];
    row_t *rows = malloc((N_KNOBS + pm_settings_count()) * sizeof *rows);
    if (!rows) return;
    const size_t n_rows = dump_rows(rows);
    if (markdown) {
        fprintf(out, "| knob | default | bounds | reloadable | meaning |\n|---|---|---|---|---|\n");
        for (size_t i = 0; i < n_rows; i++) {
            const row_t *r = &rows[i];
            char bounds[64] = "";
            row_bounds(r, bounds, sizeof bounds);
            if (r->u) env_note(r->u, env, sizeof env);
            else env[0] = 0;
            fprintf(out, "| `%s` | `%s` | %s | %s | %s%s |\n", r->name, r->def[0] ? r->def : "\"\"", bounds,
                    r->k && r->k->reloadable ? "yes" : "no", r->doc, env);
        }
        free(rows);
        return;
    }
    /* grouped by section (first appearance order), so each [section] is printed once */
    int *printed = calloc(n_rows, sizeof *printed), first = 1;
    if (!printed) {
        free(rows);
        return;
    }
    for (size_t i = 0; i < n_rows; i++) {
        if (printed[i]) continue;
        size_t sl = (size_t)(strchr(rows[i].name, '.') - rows[i].name);
        fprintf(out, "%s[%.*s]\n", first ? "" : "\n", (int)sl, rows[i].name);
        first = 0;
        for (size_t m = i; m < n_rows; m++) {
            const row_t *r = &rows[m];
            if (printed[m] || strncmp(r->name, rows[i].name, sl + 1)) continue;
            printed[m] = 1;
            if (r->k) knob_value(c, r->k, v, sizeof v);
            else snprintf(v, sizeof v, "%s", pm_setting_str(r->name));
            if (r->u) env_note(r->u, env, sizeof env);
            else env[0] = 0;
            /* comments wrapped at ~96 columns: inih's default line limit is 200 bytes */
            char doc[900];
            snprintf(doc, sizeof doc, "%s%s%s", r->doc, env, r->k && r->k->reloadable ? " (reloadable)" : "");
            const char *p = doc;
            while (*p) {
                size_t n = strlen(p);
                if (n > 96) {
                    n = 96;
                    while (n > 40 && p[n] != ' ') n--;
                }
                fprintf(out, "; %.*s\n", (int)n, p);
                p += n;
                while (*p == ' ') p++;
            }
            /* a value with spaces or ';' is quoted (read back as the text inside) */
            int q = v[0] && (strchr(v, ';') || strchr(v, '#') || v[0] == ' ' || v[strlen(v) - 1] == ' ');
            fprintf(out, "%s = %s%s%s\n", strchr(r->name, '.') + 1, q ? "\"" : "", v, q ? "\"" : "");
        }
    }
    free(printed);
    free(rows);
}
