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
#include "r1cs/synth.h"

/* synth keeps n_wires = 1 + public + constraints below 2^32 and the matrices in memory:
 * (2 + density + max(density, 2)) * 36 bytes per constraint */
#define SYNTH_MAX_CONSTRAINTS (1ull << 28)
#define SYNTH_MAX_DENSITY 64u

static int cmd_r1cs(int argc, char **argv) {
    if (argc < 2 || strcmp(argv[1], "synth"))
        return pm_cli_usage("usage: proofmill r1cs synth --constraints N --out x.r1cs --wtns x.wtns "
                            "[--density D] [--bits P] [--public K] [--seed S] [--check]");
    r1cs_synth_opts_t o = {0, 1, 2, 0.9, 1};
    const char *out = NULL, *wout = NULL;
    int check = 0;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t x;
        if (!strcmp(a, "--constraints") && v) {
            if (pm_cli_opt_u64(&x, a, argv[++i], 1, SYNTH_MAX_CONSTRAINTS)) return PM_EXIT_USAGE;
            o.n_constraints = (uint32_t)x;
        } else if (!strcmp(a, "--density") && v) {
            if (pm_cli_opt_u64(&x, a, argv[++i], 1, SYNTH_MAX_DENSITY)) return PM_EXIT_USAGE;
            o.density = (unsigned)x;
        } else if (!strcmp(a, "--bits") && v) {
            char *end;
            const char *s = argv[++i];
            double b = strtod(s, &end);
            if (!*s || *end || !(b >= 0 && b <= 1))
                return pm_cli_usage("--bits: '%s' is not a number in [0, 1]", s);
            o.bit_share = b;
        } else if (!strcmp(a, "--public") && v) {
            if (pm_cli_opt_u64(&x, a, argv[++i], 0, SYNTH_MAX_CONSTRAINTS)) return PM_EXIT_USAGE;
            o.n_public = (uint32_t)x;
        } else if (!strcmp(a, "--seed") && v) {
            if (pm_cli_opt_u64(&o.seed, a, argv[++i], 0, UINT64_MAX)) return PM_EXIT_USAGE;
        }
        else if (!strcmp(a, "--out") && v) out = argv[++i];
        else if (!strcmp(a, "--wtns") && v) wout = argv[++i];
        else if (!strcmp(a, "--check")) check = 1;
        else return pm_cli_usage("r1cs synth: unexpected argument %s", a);
    }
    if (!out || !wout || !o.n_constraints)
        return pm_cli_usage("r1cs synth needs --constraints N --out x.r1cs --wtns x.wtns");
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
