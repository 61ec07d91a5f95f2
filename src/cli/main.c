/*
 * main.c — entry point of `proofmill`: global options (--help, version) and dispatch to the
 * registered subcommands (cli.h).
 */
#include <stdarg.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "util/progress.h"
#ifdef PROOFMILL_HAVE_GPU
#include "gpu/gpu.h"
#endif
#include "field/fp.h"
#include "field/fr.h"

#ifndef PROOFMILL_VERSION
#define PROOFMILL_VERSION "0.0.0"
#endif

static pm_cli_command *registry;

void pm_cli_register(pm_cli_command *cmd) {
    /* keep the list sorted by name so that --help is stable */
    pm_cli_command **pp = &registry;
    while (*pp && strcmp((*pp)->name, cmd->name) < 0) pp = &(*pp)->next;
    cmd->next = *pp;
    *pp = cmd;
}

int pm_cli_fail(const pm_error *err) {
    char buf[1200];
    pm_progress_stop(); /* the error on a line of its own */
    fprintf(stderr, "proofmill: %s\n", pm_error_format(err, buf, sizeof buf));
    return PM_EXIT_USAGE;
}

int pm_cli_opt_u64(uint64_t *out, const char *opt, const char *v, uint64_t lo, uint64_t hi) {
    char *end = NULL;
    errno = 0;
    /* a digit first: no sign, no leading space (strtoull would accept and negate "-5") */
    unsigned long long x = v && *v >= '0' && *v <= '9' ? strtoull(v, &end, 0) : 0;
    if (!v || *v < '0' || *v > '9' || errno || *end || x < lo || x > hi) {
        pm_cli_usage("%s: '%s' is not an integer in [%llu, %llu]", opt, v ? v : "",
                     (unsigned long long)lo, (unsigned long long)hi);
        return -1;
    }
    *out = x;
    return 0;
}

int pm_cli_parse_u64(uint64_t *out, const char *opt, const char *s, uint64_t max) {
    return pm_cli_opt_u64(out, opt, s, 0, max) ? PM_EXIT_USAGE : 0;
}

int pm_cli_usage(const char *fmt, ...) {
    va_list ap;
    pm_progress_stop();
    va_start(ap, fmt);
    fputs("proofmill: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\n(run `proofmill --help` for usage)\n", stderr);
    va_end(ap);
    return PM_EXIT_USAGE;
}

static void print_help(FILE *f) {
    fprintf(f,
            "proofmill %s — Groth16 proving engine for BLS12-381\n\n"
            "usage: proofmill <command> [arguments]\n\n"
            "commands:\n",
            PROOFMILL_VERSION);
    for (pm_cli_command *c = registry; c; c = c->next)
        fprintf(f, "  %-12s %s\n  %-12s   proofmill %s\n", c->name, c->summary, "", c->usage);
    fprintf(f, "  %-12s %s\n  %-12s %s\n\n", "version", "print the version and backends", "--help",
            "this text");
    fprintf(f, "exit codes: 0 ok, 1 invalid proof, 2 usage or input error\n");
}

int main(int argc, char **argv) {
    if (argc < 2) {
        print_help(stderr);
        return PM_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        print_help(stdout);
        return PM_EXIT_OK;
    }
    if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
        if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
            printf("usage: proofmill version\n\nPrints the version, the field backends and the CUDA devices it sees.\n\n"
                   "options:\n  %-24s %s\n", "-h, --help", "this text");
            return PM_EXIT_OK;
        }
        if (argc > 2) return pm_cli_usage("version: unexpected argument '%s'", argv[2]);
        printf("proofmill %s (Fp %s, Fr %s)\n", PROOFMILL_VERSION, fp_backend(), fr_backend());
#ifdef PROOFMILL_HAVE_GPU
        int ndev = gpu_available();
        printf("CUDA backend: built (sm_90); %d usable device%s\n", ndev, ndev == 1 ? "" : "s");
        for (int d = 0; d < ndev; d++) {
            gpu_device_info_t info;
            pm_error err;
            if (gpu_device_info(&info, d, &err) == PM_OK)
                printf("  device %d: %s, sm_%d%d, %d SMs, %.1f GiB\n", d, info.name, info.major,
                       info.minor, info.sm_count, (double)info.mem_total / (1024.0 * 1024 * 1024));
        }
#else
        printf("CUDA backend: not built (no nvcc at build time)\n");
#endif
        return PM_EXIT_OK;
    }
    for (pm_cli_command *c = registry; c; c = c->next)
        if (!strcmp(c->name, cmd)) return c->run(argc - 1, argv + 1);
    return pm_cli_usage("unknown command '%s'", cmd);
}
