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
#include "cli/opts.h"
#include "groth16/params.h"
#include "groth16/setup.h"
#include "groth16/setup_gpu.h"
#include "groth16/zkey_write.h"
#include "r1cs/r1cs.h"
#include "util/file.h"
#include "util/progress.h"

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
    enum { O_OUT = 256, O_SEED, O_THREADS, O_GPU };
    static const pm_cli_opt opts[] = {
        {"out", O_OUT, "FILE", "key.zkey (snarkjs proving key) or key.params (bellperson; key.vk beside it)"},
        {"seed", O_SEED, "S", "toxic waste from a deterministic stream: tests only, the key is forgeable"},
        {"threads", O_THREADS, "N", "threads (1..1024; default all cores)"},
        {"gpu", O_GPU, NULL, "the point multiplications on CUDA device 0 (the same key as on the CPU)"},
        {"verbose", 'v', NULL, "stage timings on stderr"},
        {0}};
    static const pm_cli_spec spec = {"setup", SETUP_USAGE,
                                     "Our own Groth16 trusted setup for a circom .r1cs (toxic waste from getrandom "
                                     "unless --seed).\nProgress on stderr when it is a terminal.", opts};
    pm_cli_args pa;
    pm_cli_args_init(&pa, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&pa)) != PM_CLI_DONE;) {
        uint64_t t;
        switch (o) {
        case PM_CLI_EXIT: return pa.rc;
        case O_OUT: out = pa.arg; break;
        case O_GPU: gpu = 1; break;
        case O_SEED:
            if (pm_cli_opt_u64(&seed, "--seed", pa.arg, 0, UINT64_MAX)) return PM_EXIT_USAGE;
            have_seed = 1;
            break;
        case O_THREADS:
            if (pm_cli_opt_u64(&t, "--threads", pa.arg, 1, PM_CLI_MAX_THREADS)) return PM_EXIT_USAGE;
#ifdef _OPENMP
            omp_set_num_threads((int)t);
#endif
            break;
        case 'v': verbose = 1; break;
        default: break;
        }
    }
    if (pa.ind < argc) r1cs_path = argv[pa.ind++];
    if (pa.ind < argc) return pm_cli_spec_usage(&spec, "extra argument '%s'", argv[pa.ind]);
    if (!r1cs_path || !out) return pm_cli_spec_usage(&spec, "needs circuit.r1cs and --out");
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
    pm_progress_start("setup");
    pm_status st = gpu ? groth16_setup_mul_gpu(&gm, 0, &err) : PM_OK;
    const groth16_setup_mul *mul = gpu ? &gm : NULL;
    for (int attempt = 0; !(gpu && !gm.self) && attempt < 4; attempt++) {
        uint64_t s = seed + (uint64_t)attempt * 0x9e3779b97f4a7c15ull;
        if ((st = groth16_toxic_draw(&tw, have_seed ? &s : NULL, &err))) break;
        if (params) {
            bp_params_t p;
            st = groth16_setup_bellperson_mul(&p, &cs, &tw, mul, &tm, &err);
            if (!st) {
                pm_progress_stage("writing the parameters", 0);
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
                        if (!st && verbose) printf("wrote %s and %s\n", out, vk);
                        free(vk);
                    }
                }
                params_free(&p);
            }
        } else {
            zkey_t zk;
            st = groth16_setup_snarkjs_mul(&zk, &cs, &tw, mul, &tm, &err);
            if (!st) {
                pm_progress_stage("writing the zkey", 0);
                st = zkey_write(out, &zk, NULL, NULL, &err);
                zkey_free(&zk);
            }
        }
        /* a tau inside the domain (probability ~ N/r) is the only retryable failure */
        if (st != PM_ERR_ARG || strstr(err.msg, "redraw") == NULL) break;
    }
    memset(&tw, 0, sizeof tw);
    pm_progress_stop();
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
