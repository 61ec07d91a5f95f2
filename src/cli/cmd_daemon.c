/*
 * cmd_daemon.c — `proofmill daemon`: run the HTTP proving service (daemon/daemon.h).
 *
 *   proofmill daemon [--config FILE] [--set name=value]... [--listen HOST:PORT] [--unix PATH]
 *                    [--dump-config | --dump-config-markdown]
 *
 * Settings are applied in order: defaults, the config file, then --set/--listen/--unix in command
 * line order. --dump-config prints the resulting INI (with a comment per knob) and exits;
 * --dump-config-markdown prints the knob table of docs/engine.md. Exit: 0 after SIGTERM/SIGINT,
 * 2 on a usage or configuration error or when the service cannot start.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "daemon/config.h"
#include "daemon/daemon.h"

static int cmd_daemon(int argc, char **argv) {
    pm_daemon_config cfg;
    pm_daemon_config_default(&cfg);
    pm_error err;
    pm_error_clear(&err);
    const char *config_path = NULL;
    int dump = 0;
    /* the config file first, whatever its position, so that flags override it */
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--config")) {
            if (i + 1 >= argc) return pm_cli_usage("--config needs a file");
            config_path = argv[i + 1];
        }
    if (config_path && pm_daemon_config_load(&cfg, config_path, 0, &err) != PM_OK) return pm_cli_fail(&err);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        char set[1400];
        if (!strcmp(a, "--config")) {
            i++;
        } else if (!strcmp(a, "--set") || !strcmp(a, "--listen") || !strcmp(a, "--unix")) {
            if (i + 1 >= argc) return pm_cli_usage("%s needs a value", a);
            if (!strcmp(a, "--set")) snprintf(set, sizeof set, "%s", argv[i + 1]);
            else snprintf(set, sizeof set, "%s=%s", a[2] == 'l' ? "listen.tcp" : "listen.unix", argv[i + 1]);
            if (pm_daemon_config_set(&cfg, set, &err) != PM_OK) return pm_cli_fail(&err);
            i++;
        } else if (!strcmp(a, "--dump-config")) {
            dump = 1;
        } else if (!strcmp(a, "--dump-config-markdown")) {
            dump = 2;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: proofmill daemon [--config FILE] [--set name=value]... [--listen HOST:PORT]\n"
                   "                        [--unix PATH] [--dump-config | --dump-config-markdown]\n"
                   "Runs the proving service: HTTP/JSON (listen.tcp, default 127.0.0.1:9821) and cuzk's\n"
                   "gRPC API for Curio (grpc.listen, default 127.0.0.1:9820; docs/curio.md).\n"
                   "SIGTERM stops it cleanly, SIGHUP reloads.\n"
                   "Settings: proofmill daemon --dump-config (see docs/engine.md).\n");
            return PM_EXIT_OK;
        } else {
            return pm_cli_usage("daemon: unknown argument '%s'", a);
        }
    }
    if (dump) {
        pm_daemon_config_dump(&cfg, stdout, dump == 2);
        return PM_EXIT_OK;
    }
    return pm_daemon_run(&cfg, config_path);
}

PM_CLI_COMMAND(daemon, "daemon [--config FILE] [--set name=value]... [--listen HOST:PORT] [--unix PATH]",
               "run the HTTP/JSON proving service (engine, queue, SRS cache)", cmd_daemon)
