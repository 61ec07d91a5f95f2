/*
 * cli.h — the `proofmill` command: a table of subcommands filled at start-up.
 *
 * Adding a subcommand (daemon, bench, setup, params, porep, ...): create src/cli/<name>.c with
 *     static int cmd_daemon(int argc, char **argv) { ... }   // argv[0] = "daemon"
 *     PM_CLI_COMMAND(daemon, "daemon [--config FILE]", "run the HTTP proving service", cmd_daemon)
 * and nothing else: cmake/cli.cmake compiles every .c file of src/cli into the executable, and the
 * macro registers the row before main() runs (a constructor), so no shared table is edited.
 * `proofmill --help` lists the rows sorted by name.
 *
 * Exit codes (every subcommand): 0 success, 1 a proof was checked and is invalid (verify only),
 * 2 usage error or bad input (file missing, malformed, wrong curve, witness not satisfying...).
 * Errors print one line to stderr: "proofmill: <file>: offset N: <what>" (pm_error_format).
 */
#ifndef PROOFMILL_CLI_CLI_H
#define PROOFMILL_CLI_CLI_H

#include "util/error.h"

enum { PM_EXIT_OK = 0, PM_EXIT_INVALID = 1, PM_EXIT_USAGE = 2 };

typedef struct pm_cli_command {
    const char *name;    /* first word on the command line */
    const char *usage;   /* one line of synopsis, without the leading "proofmill " */
    const char *summary; /* one line of description */
    int (*run)(int argc, char **argv); /* argv[0] = name; returns the exit code */
    struct pm_cli_command *next;       /* registry link (set by pm_cli_register) */
} pm_cli_command;

/* Add cmd to the registry (called by PM_CLI_COMMAND's constructor; not thread-safe, start-up only). */
void pm_cli_register(pm_cli_command *cmd);

#define PM_CLI_COMMAND(ident, usage_, summary_, fn)                                         \
    static pm_cli_command pm_cli_cmd_##ident = {#ident, usage_, summary_, fn, 0};           \
    __attribute__((constructor)) static void pm_cli_register_##ident(void) {                \
        pm_cli_register(&pm_cli_cmd_##ident);                                               \
    }

/* Print "proofmill: <file>: offset N: <what>" for err to stderr; returns PM_EXIT_USAGE. */
int pm_cli_fail(const pm_error *err);
/* Print "proofmill: <printf message>" and a hint to run --help; returns PM_EXIT_USAGE. */
int pm_cli_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Parse option opt's value v as an integer in [lo, hi], decimal or 0x-hex: a digit first (no
 * sign, no space), nothing after it, no overflow. Returns 0 and sets *out, or prints a usage
 * error naming opt and the range and returns -1. The one strict number parser of the CLI. */
int pm_cli_opt_u64(uint64_t *out, const char *opt, const char *v, uint64_t lo, uint64_t hi);
/* The same with lo = 0, returning PM_EXIT_USAGE (2) on error, so callers write
 * `if ((rc = pm_cli_parse_u64(...))) return rc;`. */
int pm_cli_parse_u64(uint64_t *out, const char *opt, const char *s, uint64_t max);

#endif
