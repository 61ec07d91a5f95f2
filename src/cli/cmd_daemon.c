/*
 * cmd_daemon.c — `proofmill daemon`: run the HTTP proving service (daemon/daemon.h).
 *
 *   proofmill daemon [--config FILE] [--set name=value]... [--listen HOST:PORT] [--unix PATH]
 *                    [--dump-config | --dump-config-markdown | --recover-journal]
 *
 * Settings are applied in order: defaults, the config file, then --set/--listen/--unix in command
 * line order. --dump-config prints the resulting INI (with a comment per knob) and exits;
 * --dump-config-markdown prints the knob table of docs/engine.md. --recover-journal salvages a
 * damaged job journal of state.dir (docs/daemon.md "A damaged journal") and exits. Exit: 0 after
 * SIGTERM/SIGINT or a recovery, 2 on a usage or configuration error, when the service cannot start
 * or the recovery fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opts.h"
#include "daemon/config.h"
#include "daemon/daemon.h"

static int cmd_daemon(int argc, char **argv) {
    pm_daemon_config cfg;
    pm_daemon_config_default(&cfg);
    pm_error err;
    pm_error_clear(&err);
    const char *config_path = NULL;
    int dump = 0;
    enum { O_CONFIG = 256, O_SET, O_LISTEN, O_UNIX, O_DUMP, O_DUMP_MD, O_RECOVER };
    static const pm_cli_opt opts[] = {
        {"config", O_CONFIG, "FILE", "settings file (proofmill.conf.example); flags below override it"},
        {"set", O_SET, "name=value", "one setting, e.g. --set memory.budget=32G (repeatable)"},
        {"listen", O_LISTEN, "HOST:PORT", "HTTP TCP listener (listen.tcp)"},
        {"unix", O_UNIX, "PATH", "HTTP unix-socket listener (listen.unix)"},
        {"dump-config", O_DUMP, NULL, "print every setting with its value and exit"},
        {"dump-config-markdown", O_DUMP_MD, NULL, "the same as a markdown table"},
        {"recover-journal", O_RECOVER, NULL, "salvage a damaged job journal of state.dir (the damaged file is kept "
                                             "as jobs.sqlite.damaged-<time>), say how many jobs were kept and lost, exit"},
        {0}};
    static const pm_cli_spec spec = {"daemon", "daemon [--config FILE] [--set name=value]... [--listen HOST:PORT] "
                                               "[--unix PATH] [--dump-config | --dump-config-markdown | --recover-journal]",
                                     "Runs the proving service: HTTP/JSON (listen.tcp, default 127.0.0.1:9821) and cuzk's\n"
                                     "gRPC API for Curio (grpc.listen, default 127.0.0.1:9820; docs/curio.md).\n"
                                     "SIGTERM stops it cleanly, SIGHUP reloads.\n"
                                     "Settings: proofmill daemon --dump-config (see docs/engine.md).", opts};
    /* the config file first, whatever its position, so that flags override it: flags are kept
     * as "name=value" in their order and applied after loading it */
    char **sets = calloc((size_t)argc + 1, sizeof *sets);
    if (!sets) return pm_cli_usage("daemon: out of memory");
    int n_sets = 0, rc = -1;
    pm_cli_args pa;
    pm_cli_args_init(&pa, &spec, argc, argv);
    for (int o; rc < 0 && (o = pm_cli_next(&pa)) != PM_CLI_DONE;) {
        char set[1400];
        switch (o) {
        case PM_CLI_EXIT: rc = pa.rc; break;
        case O_CONFIG: config_path = pa.arg; break;
        case O_SET:
        case O_LISTEN:
        case O_UNIX:
            snprintf(set, sizeof set, "%s%s%s", o == O_SET ? "" : o == O_LISTEN ? "listen.tcp" : "listen.unix",
                     o == O_SET ? "" : "=", pa.arg);
            if (!(sets[n_sets++] = strdup(set))) rc = pm_cli_usage("daemon: out of memory");
            break;
        case O_DUMP: dump = 1; break;
        case O_DUMP_MD: dump = 2; break;
        case O_RECOVER: dump = 3; break;
        default: break;
        }
    }
    if (rc < 0 && pa.ind < argc) rc = pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[pa.ind]);
    if (rc < 0 && config_path && pm_daemon_config_load(&cfg, config_path, 0, &err) != PM_OK) rc = pm_cli_fail(&err);
    for (int i = 0; rc < 0 && i < n_sets; i++)
        if (pm_daemon_config_set(&cfg, sets[i], &err) != PM_OK) rc = pm_cli_fail(&err);
    for (int i = 0; i < n_sets; i++) free(sets[i]);
    free(sets);
    if (rc >= 0) return rc;
    if (dump == 3) return pm_daemon_recover_journal(&cfg);
    if (dump) {
        pm_daemon_config_dump(&cfg, stdout, dump == 2);
        return PM_EXIT_OK;
    }
    return pm_daemon_run(&cfg, config_path);
}

PM_CLI_COMMAND(daemon, "daemon [--config FILE] [--set name=value]... [--listen HOST:PORT] [--unix PATH]",
               "run the proving service: HTTP/JSON API and cuzk's gRPC API for Curio (docs/curio.md)", cmd_daemon)
