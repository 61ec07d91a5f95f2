/*
 * cmd_porep_circuit.c — `proofmill porep circuit-info --sector-size S`: synthesize one partition
 * of the StackedDRG circuit in count-only mode (nothing stored) and print constraints, inputs and
 * aux totals as bellperson counts them, plus per-gadget counts (circuits/filecoin/porep_circuit.h).
 *
 * "constraints" = the circuit's own; "+ input constraints" = one per input (ONE included) that
 * bellperson's prover/generator append; their sum is the QAP row count (POREP.md §6.8).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "circuits/filecoin/porep_circuit.h"
#include "cli/opts.h"
#include "cli/porep_cli.h"
#include "filecoin/sizes.h"
#include "util/clock.h"

static int porep_circuit_info(int argc, char **argv) {
    const char *size_text = NULL;
    int json = 0, stats_mode = 0;
    enum { O_SIZE = 256, O_JSON, O_STATS };
    static const pm_cli_opt opts[] = {
        {"sector-size", O_SIZE, "S", "2KiB, 4KiB, 16KiB, 32KiB, 8MiB, 16MiB, 512MiB, 1GiB, 32GiB, 64GiB"},
        {"json", O_JSON, NULL, "print JSON"},
        {"matrix-stats", O_STATS, NULL, "also build every linear combination (not stored) and print nnz of A, B, C\n"
                                        "                           and bellperson's density popcounts (minutes at 32 GiB)"},
        {0}};
    static const pm_cli_spec spec = {"porep circuit-info", "porep circuit-info --sector-size S [--json] [--matrix-stats]",
                                     "Counts of the C2 partition circuit per gadget.", opts};
    pm_cli_args a;
    pm_cli_args_init(&a, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&a)) != PM_CLI_DONE;) {
        if (o == PM_CLI_EXIT) return a.rc;
        if (o == O_SIZE) size_text = a.arg;
        else if (o == O_JSON) json = 1;
        else if (o == O_STATS) stats_mode = 1;
    }
    if (a.ind < argc) return pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[a.ind]);
    if (!size_text) return pm_cli_spec_usage(&spec, "--sector-size is required");
    pm_error err;
    pm_error_clear(&err);
    uint64_t bytes;
    if (fil_sector_size_parse(&bytes, size_text, &err)) return pm_cli_fail(&err);
    const fil_sector_info_t *si = fil_sector_info(bytes);
    pm_porep_shape shape;
    if (pm_porep_shape_for_size(&shape, bytes, &err)) return pm_cli_fail(&err);
    pm_cs cs;
    pm_cs_init(&cs, stats_mode ? PM_CS_STATS : 0);
    pm_porep_stats stats;
    double t0 = pm_now_s();
    pm_status st = pm_porep_synthesize(&cs, &shape, NULL, 0, &stats, &err);
    double t1 = pm_now_s();
    if (st) {
        pm_cs_free(&cs);
        return pm_cli_fail(&err);
    }
    double sec = t1 - t0;
    uint64_t rows = cs.n_constraints + cs.n_inputs;
    unsigned k = 0;
    while ((1ull << k) < rows) k++;
    if (json) {
        printf("{\"sector_size\": %llu, \"partitions\": %u, \"challenges\": %u, \"layers\": %u, "
               "\"constraints\": %llu, \"input_constraints\": %u, \"rows\": %llu, \"inputs\": %u, "
               "\"aux\": %llu, \"domain_log2\": %u, \"gadgets\": {",
               (unsigned long long)bytes, si->partitions, shape.challenges, shape.layers,
               (unsigned long long)cs.n_constraints, cs.n_inputs, (unsigned long long)rows, cs.n_inputs,
               (unsigned long long)cs.n_aux, k);
        for (unsigned g = 0; g < PM_POREP_G_COUNT; g++)
            printf("%s\"%s\": {\"constraints\": %llu, \"aux\": %llu}", g ? ", " : "", pm_porep_gadget_name(g),
                   (unsigned long long)stats.constraints[g], (unsigned long long)stats.aux[g]);
        printf("}}\n");
    } else {
        printf("sector size          %s (%llu bytes), %u partition(s), %u challenges/partition, %u layers\n",
               si->name, (unsigned long long)bytes, si->partitions, shape.challenges, shape.layers);
        printf("circuit constraints  %llu\n", (unsigned long long)cs.n_constraints);
        printf("input constraints    %u\n", cs.n_inputs);
        printf("rows for the QAP     %llu (domain 2^%u)\n", (unsigned long long)rows, k);
        printf("inputs (with ONE)    %u\n", cs.n_inputs);
        printf("aux                  %llu\n", (unsigned long long)cs.n_aux);
        printf("per gadget (partition total)        constraints          aux\n");
        for (unsigned g = 0; g < PM_POREP_G_COUNT; g++)
            printf("  %-28s %16llu %12llu\n", pm_porep_gadget_name(g),
                   (unsigned long long)stats.constraints[g], (unsigned long long)stats.aux[g]);
        printf("counted in %.2f s (%s synthesis, nothing stored)\n", sec, stats_mode ? "LC-building" : "count-only");
    }
    if (stats_mode) {
        /* bellperson's input rows: A = Input(i) adds one A term each; inputs are dense in A */
        uint64_t nin = cs.n_inputs;
        printf("%snnz A %llu, B %llu, C %llu (with the %llu input rows; non-zero coefficients: A %llu, B %llu, "
               "C %llu)\n",
               json ? "# " : "", (unsigned long long)(cs.nnz[0] + nin), (unsigned long long)cs.nnz[1],
               (unsigned long long)cs.nnz[2], (unsigned long long)nin,
               (unsigned long long)(cs.nnz_nonzero[0] + nin), (unsigned long long)cs.nnz_nonzero[1],
               (unsigned long long)cs.nnz_nonzero[2]);
        printf("%sdensity popcounts: a_aux %llu, b_input %llu, b_aux %llu (of %llu aux)\n", json ? "# " : "",
               (unsigned long long)pm_bitmap_popcount(cs.a_aux_density, cs.n_aux),
               (unsigned long long)pm_bitmap_popcount(cs.b_input_density, cs.n_inputs),
               (unsigned long long)pm_bitmap_popcount(cs.b_aux_density, cs.n_aux), (unsigned long long)cs.n_aux);
    }
    pm_cs_free(&cs);
    return PM_EXIT_OK;
}

PM_POREP_SUBCOMMAND(circuit_info, "circuit-info", "--sector-size S [--json] [--matrix-stats]",
                    "constraint/input/aux counts of one PoRep partition circuit (C2)", porep_circuit_info)
