/*
 * opts.h — the one option parser of the `proofmill` command: a table of options per (sub)command,
 * parsed with getopt_long(3) (GNU: options and positional arguments in any order, "--name=value"
 * and "--name value", unambiguous prefixes of long names, "--" ends the options), with
 * `-h`/`--help` answered from the same table, so a command's help always lists all its options.
 *
 * A command writes
 *     enum { O_OUT = 256, O_SEED };
 *     static const pm_cli_opt opts[] = {
 *         {"out", O_OUT, "FILE", "where the proof goes (required)"},
 *         {"seed", O_SEED, "N", "deterministic r, s (tests only)"},
 *         {"verbose", 'v', NULL, "stage timings on stderr"},
 *         {0}};
 *     static const pm_cli_spec spec = {"porep prove", "porep prove --out FILE [--seed N] [-v] C1",
 *                                      "what the command does (printed under the synopsis)", opts};
 *     pm_cli_args a;
 *     pm_cli_args_init(&a, &spec, argc, argv);          // argv[0] = the subcommand's word
 *     for (int o; (o = pm_cli_next(&a)) != PM_CLI_DONE;) switch (o) {
 *         case PM_CLI_EXIT: return a.rc;                 // --help printed (0) or usage error (2)
 *         case O_OUT: out = a.arg; break;
 *         ...
 *     }
 *     // positional arguments: argv[a.ind .. argc)
 * An id below 256 that is a letter or digit is also the short option (-v); entries that share an
 * id are spellings of one option (listed on one help line). Unknown options, a missing value and
 * a value given to a flag are usage errors naming the option (exit 2, one line on stderr).
 * Numbers are then parsed with pm_cli_opt_u64 (cli.h). Not reentrant (getopt_long's globals).
 */
#ifndef PROOFMILL_CLI_OPTS_H
#define PROOFMILL_CLI_OPTS_H

#include <getopt.h>
#include <stdio.h>

#include "util/error.h"

#define PM_CLI_MAX_OPTS 48

typedef struct pm_cli_opt {
    const char *name; /* long name without "--"; NULL ends the table */
    int id;           /* what pm_cli_next returns: a short letter/digit, or a value >= 256 */
    const char *arg;  /* the value's placeholder ("FILE") when the option takes one, NULL for a flag */
    const char *help; /* one line (may contain "\n" + indentation for more) */
} pm_cli_opt;

typedef struct pm_cli_spec {
    const char *cmd;        /* the words after "proofmill", for messages ("porep prove") */
    const char *usage;      /* the synopsis after "proofmill " */
    const char *about;      /* text printed under the synopsis, or NULL */
    const pm_cli_opt *opts; /* ends with {0} */
} pm_cli_spec;

enum { PM_CLI_DONE = -1, PM_CLI_EXIT = -2 };

typedef struct pm_cli_args {
    const char *arg; /* the value of the option just returned (NULL for a flag) */
    int ind;         /* after PM_CLI_DONE: the first positional argument (argv permuted) */
    int rc;          /* after PM_CLI_EXIT: the exit code (0 after --help, 2 after a usage error) */
    const pm_cli_spec *spec;
    int argc;
    char **argv;
    struct option lo[PM_CLI_MAX_OPTS + 2];
    char shorts[3 * PM_CLI_MAX_OPTS + 4];
} pm_cli_args;

/* Prepare to parse argv[1..argc) (argv[0] is the command's word) against spec. */
void pm_cli_args_init(pm_cli_args *a, const pm_cli_spec *spec, int argc, char **argv);
/* The next option's id (a->arg its value), PM_CLI_DONE when the options are over (a->ind set), or
 * PM_CLI_EXIT after printing the help to stdout (a->rc 0) or a usage error to stderr (a->rc 2). */
int pm_cli_next(pm_cli_args *a);
/* For a command whose table has no option of its own (only --help): parse argv, returning -1 with
 * a->ind at the first positional argument, or the exit code after --help or a usage error. */
int pm_cli_args_plain(pm_cli_args *a, const pm_cli_spec *spec, int argc, char **argv);
/* Print spec's synopsis, text and every option (with -h, --help) to f. */
void pm_cli_help(const pm_cli_spec *spec, FILE *f);
/* Print "proofmill: <cmd>: <printf message>" + the --help hint of spec; returns 2. */
int pm_cli_spec_usage(const pm_cli_spec *spec, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* params-setup's --no-csr (every kind): the help line, and what the option does to a .csr a
 * previous setup left at path (DIR/<stem>.csr): it is removed (and said on stderr), so the new
 * parameters are never paired with a recording this run did not check; a prover without a .csr
 * records the circuit in memory when it loads the key. 0, or PM_ERR_IO when it cannot be removed. */
#define PM_CLI_NO_CSR_HELP                                                                       \
    "do not save the recorded circuit (.csr: ~12 GB at 32 GiB); a prover records it\n"         \
    "                           in memory when it loads the key (for a disk that holds the\n"  \
    "                           .params alone)"
int pm_cli_drop_stale_csr(const char *path, pm_error *err);

#endif
