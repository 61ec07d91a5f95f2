/*
 * porep_cli.h — subcommands of `proofmill porep ...` (Filecoin PoRep tools, issue #8).
 *
 * `porep` itself is one row of the top-level table (cli.h), registered in cmd_porep.c, which
 * dispatches on argv[1] to the rows registered here. Adding `proofmill porep seal` is one line in
 * the file that implements it (no shared table is edited):
 *     static int porep_seal(int argc, char **argv) { ... }   // argv[0] = "seal"
 *     PM_POREP_SUBCOMMAND(seal, "seal", "--sector-size S (--data F | --zero) --out DIR",
 *                         "seal a test sector and write its C1 output", porep_seal)
 * The first macro argument is a C identifier, the second the word on the command line (may
 * contain '-'). Exit codes and error lines as in cli.h.
 */
#ifndef PROOFMILL_CLI_POREP_CLI_H
#define PROOFMILL_CLI_POREP_CLI_H

#include "cli/cli.h"

typedef struct pm_porep_subcommand {
    const char *name;    /* word after `porep` */
    const char *usage;   /* arguments after `proofmill porep <name> ` */
    const char *summary; /* one line */
    int (*run)(int argc, char **argv); /* argv[0] = name; returns the exit code */
    struct pm_porep_subcommand *next;
} pm_porep_subcommand;

/* Add cmd to the `porep` registry (constructor time only; not thread-safe). */
void pm_porep_register(pm_porep_subcommand *cmd);

#define PM_POREP_SUBCOMMAND(ident, word, usage_, summary_, fn)                              \
    static pm_porep_subcommand pm_porep_cmd_##ident = {word, usage_, summary_, fn, 0};       \
    __attribute__((constructor)) static void pm_porep_register_##ident(void) {              \
        pm_porep_register(&pm_porep_cmd_##ident);                                           \
    }

#endif
