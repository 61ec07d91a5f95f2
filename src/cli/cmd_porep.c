/*
 * cmd_porep.c — `proofmill porep <subcommand>`: dispatch to the rows of porep_cli.h.
 * `proofmill porep --help` lists them sorted by name.
 */
#include <stdio.h>
#include <string.h>

#include "cli/porep_cli.h"

static pm_porep_subcommand *porep_registry;

void pm_porep_register(pm_porep_subcommand *cmd) {
    pm_porep_subcommand **pp = &porep_registry;
    while (*pp && strcmp((*pp)->name, cmd->name) < 0) pp = &(*pp)->next;
    cmd->next = *pp;
    *pp = cmd;
}

static void porep_help(FILE *f) {
    fprintf(f, "usage: proofmill porep <subcommand> [arguments]\n\nsubcommands:\n");
    for (pm_porep_subcommand *c = porep_registry; c; c = c->next)
        fprintf(f, "  %-18s %s\n  %-18s   proofmill porep %s%s%s\n", c->name, c->summary, "", c->name,
                c->usage[0] ? " " : "", c->usage);
}

static int cmd_porep(int argc, char **argv) {
    if (argc < 2) {
        porep_help(stderr);
        return PM_EXIT_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        porep_help(stdout);
        return PM_EXIT_OK;
    }
    for (pm_porep_subcommand *c = porep_registry; c; c = c->next)
        if (!strcmp(c->name, argv[1])) return c->run(argc - 1, argv + 1);
    return pm_cli_usage("porep: unknown subcommand '%s' (see `proofmill porep --help`)", argv[1]);
}

PM_CLI_COMMAND(porep, "porep <subcommand> ... (see `proofmill porep --help`)",
               "Filecoin PoRep: parent cache, test sectors, C1, circuit, test parameters, C2 prove/verify", cmd_porep)
