/*
 * cmd_r1cs.c — `proofmill r1cs synth`: a synthetic satisfiable circuit + witness (r1cs/synth.h).
 *
 *   proofmill r1cs synth --constraints N --out x.r1cs --wtns x.wtns
 *             [--density D (terms per A/B, default 2)] [--bits P (share of 0/1 values, 0..1,
 *             default 0.9)] [--public K (default 1)] [--seed S] [--check]
 * --check verifies every constraint before writing (slow for huge N).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opts.h"
#include "r1cs/synth.h"

/* synth keeps n_wires = 1 + public + constraints below 2^32 and the matrices in memory:
 * (2 + density + max(density, 2)) * 36 bytes per constraint */
#define SYNTH_MAX_CONSTRAINTS (1ull << 28)
#define SYNTH_MAX_DENSITY 64u
#define SYNTH_USAGE                                                                                \
    "r1cs synth --constraints N --out x.r1cs --wtns x.wtns [--density D] [--bits P] [--public K] [--seed S] [--check]"

static int cmd_r1cs(int argc, char **argv) {
    enum { O_N = 256, O_DENSITY, O_BITS, O_PUBLIC, O_SEED, O_OUT, O_WTNS, O_CHECK };
    static const pm_cli_opt opts[] = {
        {"constraints", O_N, "N", "number of constraints (1..2^28)"},
        {"out", O_OUT, "FILE", "the circuit (.r1cs) to write"},
        {"wtns", O_WTNS, "FILE", "the witness (.wtns) to write"},
        {"density", O_DENSITY, "D", "terms per A/B row (1..64, default 2)"},
        {"bits", O_BITS, "P", "share of 0/1 witness values, 0..1 (default 0.9)"},
        {"public", O_PUBLIC, "K", "public inputs (default 1)"},
        {"seed", O_SEED, "S", "random stream seed (default 1)"},
        {"check", O_CHECK, NULL, "verify every constraint before writing (slow for huge N)"},
        {0}};
    static const pm_cli_spec spec = {"r1cs synth", SYNTH_USAGE,
                                     "A synthetic satisfiable circuit + witness for benchmarks.", opts};
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: proofmill r1cs <subcommand> [arguments]   (proofmill r1cs synth --help)\n\n"
               "  synth   a synthetic satisfiable circuit + witness for benchmarks\n");
        return PM_EXIT_OK;
    }
    if (argc < 2 || strcmp(argv[1], "synth"))
        return pm_cli_usage("usage: proofmill %s (see `proofmill r1cs synth --help`)", SYNTH_USAGE);
    r1cs_synth_opts_t o = {0, 1, 2, 0.9, 1};
    const char *out = NULL, *wout = NULL;
    int check = 0;
    pm_cli_args pa;
    pm_cli_args_init(&pa, &spec, argc - 1, argv + 1);
    for (int c; (c = pm_cli_next(&pa)) != PM_CLI_DONE;) {
        uint64_t x;
        const char *s = pa.arg;
        char *end;
        double b;
        switch (c) {
        case PM_CLI_EXIT: return pa.rc;
        case O_N:
            if (pm_cli_opt_u64(&x, "--constraints", s, 1, SYNTH_MAX_CONSTRAINTS)) return PM_EXIT_USAGE;
            o.n_constraints = (uint32_t)x;
            break;
        case O_DENSITY:
            if (pm_cli_opt_u64(&x, "--density", s, 1, SYNTH_MAX_DENSITY)) return PM_EXIT_USAGE;
            o.density = (unsigned)x;
            break;
        case O_BITS:
            b = strtod(s, &end);
            if (!*s || *end || !(b >= 0 && b <= 1)) return pm_cli_usage("--bits: '%s' is not a number in [0, 1]", s);
            o.bit_share = b;
            break;
        case O_PUBLIC:
            if (pm_cli_opt_u64(&x, "--public", s, 0, SYNTH_MAX_CONSTRAINTS)) return PM_EXIT_USAGE;
            o.n_public = (uint32_t)x;
            break;
        case O_SEED:
            if (pm_cli_opt_u64(&o.seed, "--seed", s, 0, UINT64_MAX)) return PM_EXIT_USAGE;
            break;
        case O_OUT: out = s; break;
        case O_WTNS: wout = s; break;
        case O_CHECK: check = 1; break;
        default: break;
        }
    }
    if (pa.ind < argc - 1) return pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[1 + pa.ind]);
    if (!out || !wout || !o.n_constraints)
        return pm_cli_spec_usage(&spec, "needs --constraints N --out x.r1cs --wtns x.wtns");
    pm_error err;
    pm_error_clear(&err);
    r1cs_t cs;
    fr_t *w;
    if (r1cs_synth(&cs, &w, &o, &err)) return pm_cli_fail(&err);
    pm_status st = PM_OK;
    if (check) st = r1cs_check_satisfied(NULL, &cs, w, cs.n_wires, &err);
    if (!st) st = r1cs_write(out, &cs, &err);
    if (!st) st = wtns_write(wout, w, cs.n_wires, &err);
    if (!st)
        printf("%u constraints, %u wires, nnz A %llu B %llu C %llu\n", cs.n_constraints, cs.n_wires,
               (unsigned long long)cs.A.nnz, (unsigned long long)cs.B.nnz,
               (unsigned long long)cs.C.nnz);
    free(w);
    r1cs_free(&cs);
    return st ? pm_cli_fail(&err) : PM_EXIT_OK;
}

PM_CLI_COMMAND(r1cs, "r1cs synth --constraints N --out x.r1cs --wtns x.wtns [...]",
               "synthetic satisfiable R1CS + witness for benchmarks", cmd_r1cs)
