/*
 * cmd_setup.c — `proofmill setup`: a Groth16 key for a circom .r1cs (groth16/setup.h).
 *
 *   proofmill setup circuit.r1cs --out key.zkey   [--seed S] [--threads N] [-v]
 *   proofmill setup circuit.r1cs --out key.params [--seed S] [--threads N] [-v]
 *   ... [--gpu]   the point multiplications on CUDA device 0 (groth16/setup_gpu.h; the same key)
 *
 * .zkey: a snarkjs proving key (all 10 sections; `snarkjs groth16 prove` and `zkey export
 * verificationkey` take it). .params: bellperson parameters plus key.vk beside it (the name with
 * .params replaced by .vk). Toxic waste from getrandom unless --seed (tests only: the key is
 * then forgeable by anyone who knows the seed). -v prints timings to stderr.
 * `proofmill groth16 setup ...` reaches the same code once src/cli/groth16.c forwards it
 * (cmd_setup.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli/cli.h"
#include "cli/cmd_setup.h"
#include "groth16/params.h"
#include "groth16/setup.h"
#include "groth16/setup_gpu.h"
#include "groth16/zkey_write.h"
#include "r1cs/r1cs.h"
#include "util/file.h"

/* more threads than this is a typo, not a machine: libgomp dies creating them */
#define PM_CLI_MAX_THREADS 1024

#define SETUP_USAGE "setup circuit.r1cs --out key.zkey|key.params [--seed S] [--threads N] [--gpu] [-v]"

static int ends_with(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

int pm_cli_setup_main(int argc, char **argv) {
    const char *r1cs_path = NULL, *out = NULL;
    uint64_t seed = 0;
    int have_seed = 0, verbose = 0, gpu = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--gpu")) {
            gpu = 1;
        } else if (!strcmp(a, "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(a, "--seed") && i + 1 < argc) {
            if (pm_cli_opt_u64(&seed, "--seed", argv[++i], 0, UINT64_MAX)) return PM_EXIT_USAGE;
            have_seed = 1;
        } else if (!strcmp(a, "--threads") && i + 1 < argc) {
            uint64_t t;
            if (pm_cli_opt_u64(&t, "--threads", argv[++i], 1, PM_CLI_MAX_THREADS)) return PM_EXIT_USAGE;
#ifdef _OPENMP
            omp_set_num_threads((int)t);
#endif
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            verbose = 1;
        } else if (a[0] == '-') {
            return pm_cli_usage("setup: unknown option %s (usage: %s)", a, SETUP_USAGE);
        } else if (!r1cs_path) {
            r1cs_path = a;
        } else {
            return pm_cli_usage("setup: extra argument %s", a);
        }
    }
    if (!r1cs_path || !out) return pm_cli_usage("usage: proofmill %s", SETUP_USAGE);
    int params = ends_with(out, ".params");
    if (!params && !ends_with(out, ".zkey"))
        return pm_cli_usage("setup: --out must end in .zkey or .params");
    if (pm_same_file(out, r1cs_path))
        return pm_cli_usage("setup: --out %s is the input file", out);
    pm_error err;
    pm_error_clear(&err);
    r1cs_t cs;
    if (r1cs_read(&cs, r1cs_path, &err)) return pm_cli_fail(&err);
    groth16_toxic_t tw;
    groth16_setup_timings_t tm = {0};
    groth16_setup_mul gm = {0};
    pm_status st = gpu ? groth16_setup_mul_gpu(&gm, 0, &err) : PM_OK;
    const groth16_setup_mul *mul = gpu ? &gm : NULL;
    for (int attempt = 0; !(gpu && !gm.self) && attempt < 4; attempt++) {
        uint64_t s = seed + (uint64_t)attempt * 0x9e3779b97f4a7c15ull;
        if ((st = groth16_toxic_draw(&tw, have_seed ? &s : NULL, &err))) break;
        if (params) {
            bp_params_t p;
            st = groth16_setup_bellperson_mul(&p, &cs, &tw, mul, &tm, &err);
            if (!st) {
                st = params_write(out, &p, &err);
                if (!st) {
                    size_t n = strlen(out);
                    char *vk = malloc(n + 1);
                    if (!vk) {
                        st = pm_error_set(&err, PM_ERR_NOMEM, out, PM_NO_OFFSET, "name");
                    } else {
                        memcpy(vk, out, n - 7);
                        strcpy(vk + n - 7, ".vk");
                        st = params_vk_write(vk, &p.vk, &err);
                        if (!st && verbose) fprintf(stderr, "wrote %s and %s\n", out, vk);
                        free(vk);
                    }
                }
                params_free(&p);
            }
        } else {
            zkey_t zk;
            st = groth16_setup_snarkjs_mul(&zk, &cs, &tw, mul, &tm, &err);
            if (!st) {
                st = zkey_write(out, &zk, NULL, NULL, &err);
                zkey_free(&zk);
            }
        }
        /* a tau inside the domain (probability ~ N/r) is the only retryable failure */
        if (st != PM_ERR_ARG || strstr(err.msg, "redraw") == NULL) break;
    }
    memset(&tw, 0, sizeof tw);
    groth16_setup_mul_gpu_free(&gm);
    if (st) {
        if (!err.file[0]) snprintf(err.file, sizeof err.file, "%s", r1cs_path);
        r1cs_free(&cs);
        return pm_cli_fail(&err);
    }
    if (verbose)
        fprintf(stderr, "setup: %u constraints, %u wires: qap %.3f s, tables %.3f s, points %.3f s, "
                        "total %.3f s\n",
                cs.n_constraints, cs.n_wires, tm.qap, tm.tables, tm.points, tm.total);
    r1cs_free(&cs);
    return PM_EXIT_OK;
}

PM_CLI_COMMAND(setup, SETUP_USAGE, "Groth16 key generation: snarkjs .zkey or bellperson .params+.vk",
               pm_cli_setup_main)
