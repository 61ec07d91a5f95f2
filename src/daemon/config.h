/*
 * config.h — the daemon's configuration: ONE table (name, type, default, bounds, reloadable, doc)
 * feeds the INI parser (inih), `proofmill daemon --dump-config`, --set overrides and the knob list
 * in docs/engine.md (generated from --dump-config --markdown), so they cannot drift.
 *
 * File format: INI sections and keys, e.g.
 *     [gpu]
 *     workers_per_device = 2
 * gives the knob "gpu.workers_per_device". Sizes accept K, M, G, T suffixes (powers of 1024).
 * Values may be quoted ("..." or '...', as in TOML). Booleans: true/false/yes/no/on/off/1/0. Unknown keys and out-of-range values are errors naming
 * the file and line. Reloadable knobs are re-read on SIGHUP; the others need a restart.
 *
 * The library's settings (util/settings.h: gpu.memory, gpu.chunk_points, field.backend, ...) are
 * accepted beside the knobs, in the file and by --set (a name this table has stays the daemon's:
 * filecoin.params_dir), and listed by the dump; they are not reloadable. A file's library settings
 * apply only when the whole file reads without error.
 */
#ifndef PROOFMILL_DAEMON_CONFIG_H
#define PROOFMILL_DAEMON_CONFIG_H

#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char listen_tcp[256];   /* "host:port", "" = off */
    char listen_unix[256];  /* socket path, "" = off */
    char listen_unix_mode[8];   /* octal permission bits of the socket, e.g. "0660" */
    char listen_unix_group[64]; /* group owning the socket ("" = the daemon's) */
    int http_require_token;     /* TCP clients send Authorization: Bearer <token> */
    char http_token_file[512];  /* "" = <state dir>/http.token */
    char http_allowed_hosts[512];   /* extra Host names accepted besides loopback names */
    char http_allowed_origins[512]; /* Origins accepted ("" = none: requests with Origin refused) */
    unsigned http_idle_timeout_s;
    unsigned http_request_timeout_s; /* a request's head and body must arrive within this (+1 s/MiB) */
    unsigned http_per_ip_connections;
    uint64_t http_max_body;
    uint64_t http_max_buffered;
    unsigned http_max_connections;
    unsigned http_max_wait_s;
    char grpc_listen[256];  /* "host:port" or "unix:///path", "" = off */
    uint64_t grpc_max_message;
    uint64_t grpc_max_buffered; /* SubmitProof bodies held at once; 0 = memory.budget / 4 */
    unsigned grpc_max_threads;
    char grpc_proof_kinds[512]; /* "PROOF_KIND=kind,..." overriding grpc_glue.c's table; "" = the table */
    /* gRPC over TLS (grpc_server.h): PEM files; "" = unset (plaintext) */
    char grpc_tls_cert[512], grpc_tls_key[512], grpc_tls_client_ca[512];
    int grpc_allow_insecure_remote; /* a non-loopback grpc.listen without mutual TLS starts anyway */
    char params_dir[512];   /* "" = pm_daemon_params_dir's default */
    unsigned synth_workers, synth_lookahead;
    char gpu_devices[256];  /* "" = every visible CUDA device (else the CPU), none/cpu, or a list of ids; the
                               daemon rewrites its copy to the devices chosen ("" = the CPU backend) */
    unsigned gpu_workers_per_device;
    int gpu_urgent_lane;
    unsigned cpu_device_slots;
    unsigned finalize_threads;
    unsigned prover_msm_threads;
    unsigned finalize_msm_threads;
    uint64_t memory_budget, memory_margin;
    unsigned keys_idle_evict_s;
    char keys_preload[1024];
    unsigned jobs_retain_s, jobs_max;
    uint64_t jobs_max_queued_inline; /* inline input bytes of queued jobs (memory or spool) */
    char state_dir[512];             /* journal + token; "" = auto, "off" = none */
    unsigned debug_journal_full_at;  /* tests: the Nth journal write on and later fail as disk full (0: never) */
    unsigned debug_journal_full_count; /* tests: how many fail from there (0: every later one) */
    char paths_allow_prefix[1024];
    char paths_key_dir[512];
    char paths_input_dir[512];
    int trace_enabled;
    unsigned trace_max_events;
    unsigned shutdown_drain_s;
    char log_level[16];
    char log_format[8];     /* "text" or "json" */
} pm_daemon_config;

/* The daemon-level parameter directory of kinds whose keys are named from one (Filecoin's
 * porep-c2, ...): filecoin.params_dir when set, else
 * $FIL_PROOFS_PARAMETER_CACHE when set and non-empty, else /var/tmp/filecoin-proof-parameters
 * (rust-fil-proofs parameter_cache.rs: the same variable and default; the variable through the
 * settings table, util/settings.h). Points into c or the settings table; never NULL. */
const char *pm_daemon_params_dir(const pm_daemon_config *c);
/* Fill every field with its default. */
void pm_daemon_config_default(pm_daemon_config *c);
/* Read an INI file over *c (keys not in the file keep their value). reload_only: apply only the
 * reloadable knobs (SIGHUP). Errors: PM_ERR_IO (unreadable), PM_ERR_FORMAT (syntax, unknown key,
 * bad value, out of bounds; file and line named). */
pm_status pm_daemon_config_load(pm_daemon_config *c, const char *path, int reload_only, pm_error *err);
/* Apply one "name=value" override (e.g. from --set). Errors as above. */
pm_status pm_daemon_config_set(pm_daemon_config *c, const char *assignment, pm_error *err);
/* The state directory cfg names: state.dir, or when it is "" $STATE_DIRECTORY (systemd),
 * $XDG_STATE_HOME/proofmill, ~/.local/state/proofmill; "" into out when state.dir is "off". */
const char *pm_daemon_state_dir(const pm_daemon_config *c, char *out, size_t n);
/* Print the table with the current values, grouped by section: as INI (markdown = 0) or as a markdown table with
 * default, bounds, reloadable and description (markdown = 1). */
void pm_daemon_config_dump(const pm_daemon_config *c, FILE *out, int markdown);

#ifdef __cplusplus
}
#endif
#endif
