/*
 * groth16.c — `proofmill groth16 prove|verify` (snarkjs-compatible files).
 *
 *   proofmill groth16 prove circuit.zkey witness.wtns proof.json public.json
 *             [--threads N] [--seed S | --r DEC --s DEC] [--r1cs circuit.r1cs] [-v]
 *   proofmill groth16 verify verification_key.json public.json proof.json
 *   proofmill groth16 export-vk circuit.zkey verification_key.json
 *
 * prove: r and s come from the OS generator (getrandom) unless --seed (a deterministic stream,
 * for tests only) or --r/--s (decimal, e.g. the fixtures' proof_det_rs.json) are given. The
 * proof is verified against the zkey's own key before it is written; a witness that does not
 * satisfy the circuit is refused (exit 2). -v prints stage timings to stderr.
 * verify: exit 0 and "OK" when the proof is valid, 1 when it is invalid (points off the curve or
 * outside the subgroup, or the pairing equation fails), 2 for unreadable or malformed inputs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli/cli.h"
#include "cli/cmd_setup.h"
#include "cli/opts.h"
#include "groth16/key_check.h"
#include "groth16/proof_json.h"
#include "groth16/prover.h"
#include "groth16/start.h"
#include "groth16/verifier.h"
#include "groth16/zkey.h"
#include "msm/msm.h"
#include "r1cs/r1cs.h"
#include "r1cs/wtns.h"
#include "util/file.h"
#include "util/outfile.h"
#include "util/clock.h"
#include "util/progress.h"

#define PROVE_USAGE                                                                           \
    "groth16 prove circuit.zkey witness.wtns proof.json public.json [--threads N] "          \
    "[--seed S | --r DEC --s DEC] [--r1cs circuit.r1cs] [--gpu | --cpu] [-v]"
#define VERIFY_USAGE "groth16 verify verification_key.json public.json proof.json"
#define EXPORT_VK_USAGE "groth16 export-vk circuit.zkey verification_key.json"

/* Refuse an output that is one of the inputs or another output (it would be overwritten and the
 * input lost), or an existing directory; fill err and return its status. */
static pm_status check_outputs(const char *const *outs, size_t n_out, const char *const *ins,
                               size_t n_in, pm_error *err) {
    for (size_t i = 0; i < n_out; i++) {
        struct stat sb;
        if (stat(outs[i], &sb) == 0 && S_ISDIR(sb.st_mode))
            return pm_error_set(err, PM_ERR_ARG, outs[i], PM_NO_OFFSET,
                                "is a directory, not an output file");
        for (size_t j = 0; j < n_in; j++)
            if (ins[j] && pm_same_file(outs[i], ins[j]))
                return pm_error_set(err, PM_ERR_ARG, outs[i], PM_NO_OFFSET,
                                    "output file is also an input (%s): refusing to overwrite it",
                                    ins[j]);
        for (size_t j = 0; j < i; j++)
            if (pm_same_file(outs[i], outs[j]))
                return pm_error_set(err, PM_ERR_ARG, outs[i], PM_NO_OFFSET,
                                    "the same file is given for two outputs");
    }
    return PM_OK;
}

/* The start phase on the chosen backend (issue #4): --gpu requires a CUDA device, --cpu never
 * uses one, neither means "GPU when present". On a GPU error other than a missing device (e.g.
 * out of device memory) the default mode falls back to the CPU; --gpu reports it (exit 2).
 * Both run THE start phase (groth16/start.h) with the GPU or the CPU table of operations, so proofs
 * are byte-identical for the same r, s; the r1cs check (--r1cs) runs on the CPU first either way. */
static pm_status prove_start(groth16_pending_t *pend, const char **used, int backend, const groth16_key *k,
                             const wtns_t *w, const groth16_prove_opts_t *opts, pm_error *err) {
    groth16_exec x = {.ops = &groth16_ops_cpu, .threads = opts->threads};
    *used = "cpu";
    if (backend >= 0) {
        const groth16_ops *gpu = NULL;
        pm_error gerr;
        pm_error_clear(&gerr);
        if (groth16_ops_gpu(&gpu, &gerr) == PM_OK) {
            groth16_exec gx = {.ops = gpu, .device = 0, .threads = opts->threads};
            /* the key's device-memory plan for device 0: what stays on the card, what the CPU does */
            groth16_devplan_card card;
            groth16_devplan_shape shape;
            groth16_devplan plan;
            groth16_devplan_shape_of_key(&shape, k, 0);
            pm_status st = groth16_gpu_card(&card, 0, 1, err);
            if (!st) st = groth16_devplan_make(&plan, &shape, &card, 0, err);
            if (!st) {
                gx.plan = &plan;
                gx.cpu_ops = groth16_devplan_cpu_ops(&plan);
                st = groth16_start(pend, k, w->values, w->n_values, &gx, opts, err);
            }
            if (st == PM_OK) {
                *used = "gpu";
                return PM_OK;
            }
            if (backend == 1 || (st != PM_ERR_GPU && st != PM_ERR_NOMEM)) return st;
            fprintf(stderr, "proofmill: GPU start failed (%s), proving on the CPU\n", err->msg);
            pm_error_clear(err);
        } else if (backend == 1) {
            return pm_error_set(err, PM_ERR_GPU, "--gpu", PM_NO_OFFSET, "%s", gerr.msg);
        }
    }
    return groth16_start(pend, k, w->values, w->n_values, &x, opts, err);
}

static int cmd_prove(int argc, char **argv) {
    const char *pos[4];
    int npos = 0, verbose = 0, have_seed = 0;
    int backend = 0; /* 0: GPU when one is present, 1: --gpu (required), -1: --cpu */
    uint64_t threads = 0, seed = 0;
    const char *r_dec = NULL, *s_dec = NULL, *r1cs_path = NULL;
    enum { O_GPU = 256, O_CPU, O_THREADS, O_SEED, O_R, O_S, O_R1CS };
    static const pm_cli_opt optv[] = {
        {"threads", O_THREADS, "N", "threads for the MSMs and NTTs (default, or 0: all cores)"},
        {"r", O_R, "DEC", "blinding scalar r (decimal, 1..r-1; with --s): reproduces a snarkjs proof made\n"
                          "                           with the same r, s byte for byte (e.g. proof_det_rs.json)"},
        {"s", O_S, "DEC", "blinding scalar s (decimal, 1..r-1; with --r)"},
        {"seed", O_SEED, "S", "r, s from a deterministic stream: for tests only, such proofs are NOT\n"
                              "                           zero-knowledge (default: r, s from getrandom)"},
        {"r1cs", O_R1CS, "FILE", "check every constraint first and name the first failing one"},
        {"gpu", O_GPU, NULL, "H and the G1 MSMs on a CUDA device (required)"},
        {"cpu", O_CPU, NULL, "never use a CUDA device (default: the GPU when present; same proof bytes)"},
        {"verbose", 'v', NULL, "stage timings on stderr (and progress while it runs, on a terminal)"},
        {0}};
    static const pm_cli_spec spec = {"groth16 prove", PROVE_USAGE,
                                     "The proof is verified with the zkey's own key before it is written; a "
                                     "witness that does not\nsatisfy the circuit is refused (exit 2), and so is a "
                                     "key whose proofs do not verify with its own\nverification key (the key is "
                                     "inconsistent).", optv};
    pm_cli_args pa;
    pm_cli_args_init(&pa, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&pa)) != PM_CLI_DONE;) {
        const char *v = pa.arg;
        switch (o) {
        case PM_CLI_EXIT: return pa.rc;
        case 'v': verbose = 1; break;
        case O_GPU:
        case O_CPU:
            if (backend == (o == O_GPU ? -1 : 1)) return pm_cli_usage("give either --gpu or --cpu, not both");
            backend = o == O_GPU ? 1 : -1;
            break;
        case O_THREADS:
            if (pm_cli_opt_u64(&threads, "--threads", v, 0, 1024)) return PM_EXIT_USAGE;
            break;
        case O_SEED:
            if (pm_cli_opt_u64(&seed, "--seed", v, 0, UINT64_MAX)) return PM_EXIT_USAGE;
            have_seed = 1;
            break;
        case O_R: r_dec = v; break;
        case O_S: s_dec = v; break;
        case O_R1CS: r1cs_path = v; break;
        default: break;
        }
    }
    for (int i = pa.ind; i < argc; i++) {
        if (npos == 4) return pm_cli_spec_usage(&spec, "too many arguments ('%s')", argv[i]);
        pos[npos++] = argv[i];
    }
    if (npos != 4) return pm_cli_spec_usage(&spec, "needs circuit.zkey witness.wtns proof.json public.json");
    if ((r_dec == NULL) != (s_dec == NULL)) return pm_cli_usage("--r and --s go together");
    if (r_dec && have_seed) return pm_cli_usage("give either --seed or --r/--s, not both");
    const char *zkey_path = pos[0], *wtns_path = pos[1], *proof_path = pos[2],
               *public_path = pos[3];

    pm_error err;
    pm_error_clear(&err);
    {
        const char *outs[2] = {public_path, proof_path};
        const char *ins[3] = {zkey_path, wtns_path, r1cs_path};
        if (check_outputs(outs, 2, ins, 3, &err)) return pm_cli_fail(&err);
    }
    fr_t r, s;
    if (r_dec) {
        if (groth16_fr_from_decimal(&r, r_dec, "--r", "r", &err) ||
            groth16_fr_from_decimal(&s, s_dec, "--s", "s", &err))
            return pm_cli_fail(&err);
        if (fr_is_zero(&r) || fr_is_zero(&s)) /* Groth16's blinding scalars are drawn from Fr* (Groth 2016, sec. 3.2) */
            return pm_cli_usage("groth16 prove: --%s 0: a blinding scalar must be in 1..r-1 (0 removes the proof's "
                                "zero knowledge)", fr_is_zero(&r) ? "r" : "s");
    } else if (have_seed) {
        groth16_seeded_scalars(&r, &s, seed);
    } else if (groth16_random_scalar(&r, &err) || groth16_random_scalar(&s, &err)) {
        return pm_cli_fail(&err);
    }
#ifdef _OPENMP
    if (threads) omp_set_num_threads((int)threads);
#endif

    int rc = PM_EXIT_USAGE;
    zkey_t zk = {0};
    groth16_key key = {0};
    wtns_t w = {0};
    r1cs_t cs = {0};
    char *proof_text = NULL, *public_text = NULL;
    fr_t *pub = NULL;
    double t0 = pm_now_s();
    pm_progress_start("groth16 prove");
    pm_progress_stage("loading the zkey", 0);
    {   /* the headers first: a witness of another size is refused before gigabytes of key are decoded */
        zkey_info_t zi;
        uint32_t n_w = 0;
        if (zkey_read_info(&zi, zkey_path, &err) || wtns_read_info(&n_w, wtns_path, &err)) goto out;
        if (n_w != zi.n_vars) {
            pm_error_set(&err, PM_ERR_MISMATCH, wtns_path, PM_NO_OFFSET,
                         "witness has %u values, zkey expects nVars = %u (witness of another circuit?)", n_w,
                         zi.n_vars);
            goto out;
        }
    }
    if (zkey_read(&zk, zkey_path, ZKEY_SKIP_COEFS_LIST, &err)) goto out;
    double t1 = pm_now_s();
    if (wtns_read(&w, wtns_path, &err)) goto out;
    if (zkey_check_witness(&zk, &w, wtns_path, &err)) goto out;
    if (r1cs_path && r1cs_read(&cs, r1cs_path, &err)) goto out;
    double t2 = pm_now_s();

    groth16_prove_opts_t opts = {.threads = (unsigned)threads,
                                 .r1cs = r1cs_path ? &cs : NULL,
                                 .wtns_name = wtns_path,
                                 .key_name = zkey_path,
                                 .r1cs_name = r1cs_path};
    groth16_pending_t pend;
    groth16_proof_t proof;
    const char *used = "cpu";
    if (groth16_key_from_zkey(&key, &zk, NULL, 1, &err) || prove_start(&pend, &used, backend, &key, &w, &opts, &err))
        goto out;
    pm_status st = groth16_finalize(&proof, &pend, &r, &s, &err);
    groth16_timings_t tm = pend.t;
    groth16_pending_free(&pend);
    if (st) goto out;

    pub = malloc((zk.n_public ? zk.n_public : 1) * sizeof *pub);
    if (!pub) {
        pm_error_set(&err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory");
        goto out;
    }
    groth16_public_signals(pub, &zk, w.values);
    proof_text = groth16_proof_to_json(&proof);
    public_text = groth16_public_to_json(pub, zk.n_public);
    if (!proof_text || !public_text) {
        pm_error_set(&err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory");
        goto out;
    }
    /* both complete on disk before either replaces its target; public first: a proof.json
     * on disk always has its public.json beside it */
    {
        const char *paths[2] = {public_path, proof_path};
        const void *texts[2] = {public_text, proof_text};
        const size_t lens[2] = {(size_t)-1, (size_t)-1};
        if (pm_write_files(2, paths, texts, lens, &err)) goto out;
    }
    double t3 = pm_now_s();
    pm_progress_stop();
    if (verbose) {
        fprintf(stderr,
                "proofmill: groth16 prove: nVars %u, nPublic %u, domain 2^%u, %u MSM threads\n",
                zk.n_vars, zk.n_public, zk.log2_domain, msm_threads_resolve((unsigned)threads));
        fprintf(stderr, "  backend        %s\n", used);
        fprintf(stderr, "  load zkey      %9.3f s\n", t1 - t0);
        fprintf(stderr, "  load witness   %9.3f s%s\n", t2 - t1, r1cs_path ? " (+ r1cs)" : "");
        fprintf(stderr, "  witness check  %9.3f s\n", tm.check);
        fprintf(stderr, "  a, b on domain %9.3f s\n", tm.eval_ab);
        fprintf(stderr, "  H (6 NTTs)     %9.3f s\n", tm.h);
        fprintf(stderr, "  MSM A  (G1)    %9.3f s\n", tm.msm_a);
        fprintf(stderr, "  MSM B1 (G1)    %9.3f s\n", tm.msm_b1);
        fprintf(stderr, "  MSM C  (G1)    %9.3f s\n", tm.msm_c);
        fprintf(stderr, "  MSM H  (G1)    %9.3f s\n", tm.msm_h);
        fprintf(stderr, "  MSM B2 (G2)    %9.3f s\n", tm.msm_b2);
        fprintf(stderr, "  assemble       %9.3f s\n", tm.assemble);
        fprintf(stderr, "  self-check     %9.3f s\n", tm.self_check);
        fprintf(stderr, "  total          %9.3f s\n", t3 - t0);
    }
    rc = PM_EXIT_OK;
out:
    if (rc != PM_EXIT_OK) pm_cli_fail(&err);
    free(proof_text);
    free(public_text);
    free(pub);
    r1cs_free(&cs);
    wtns_free(&w);
    groth16_key_free(&key);
    zkey_free(&zk);
    return rc;
}

static int cmd_verify(int argc, char **argv) {
    static const pm_cli_opt opts[] = {{0}};
    static const pm_cli_spec spec = {"groth16 verify", VERIFY_USAGE,
                                     "Exit 0 and OK when the proof is valid, 1 when it is invalid (points off the "
                                     "curve or outside\nthe subgroup, or the pairing equation fails), 2 for "
                                     "unreadable or malformed inputs.", opts};
    pm_cli_args pa;
    int prc = pm_cli_args_plain(&pa, &spec, argc, argv);
    if (prc >= 0) return prc;
    if (argc - pa.ind != 3) return pm_cli_spec_usage(&spec, "needs verification_key.json public.json proof.json");
    const char *vk_path = argv[pa.ind], *public_path = argv[pa.ind + 1], *proof_path = argv[pa.ind + 2];
    pm_error err;
    pm_error_clear(&err);
    groth16_vk_t vk = {0};
    groth16_proof_t proof;
    fr_t *x = NULL;
    size_t n = 0;
    int rc = PM_EXIT_USAGE, valid = 0;
    if (groth16_vk_load_json(&vk, vk_path, &err) ||
        groth16_public_load_json(&x, &n, public_path, &err) ||
        groth16_proof_load_json(&proof, proof_path, &err)) {
        pm_cli_fail(&err);
        goto out;
    }
    if (groth16_verify(&valid, &vk, x, n, &proof, proof_path, public_path, &err)) {
        pm_cli_fail(&err);
        goto out;
    }
    if (valid) {
        printf("OK\n");
        rc = PM_EXIT_OK;
    } else {
        char buf[1200];
        fprintf(stderr, "proofmill: invalid proof: %s\n", pm_error_format(&err, buf, sizeof buf));
        rc = PM_EXIT_INVALID;
    }
out:
    free(x);
    groth16_vk_free(&vk);
    return rc;
}

/* `snarkjs zkey export verificationkey`, byte for byte */
static int cmd_export_vk(int argc, char **argv) {
    static const pm_cli_opt opts[] = {{0}};
    static const pm_cli_spec spec = {"groth16 export-vk", EXPORT_VK_USAGE,
                                     "verification_key.json as `snarkjs zkey export verificationkey` writes it; "
                                     "a key whose\nverification-key points are off the curve or outside the "
                                     "subgroup is refused.", opts};
    pm_cli_args pa;
    int prc = pm_cli_args_plain(&pa, &spec, argc, argv);
    if (prc >= 0) return prc;
    if (argc - pa.ind != 2) return pm_cli_spec_usage(&spec, "needs circuit.zkey verification_key.json");
    argv += pa.ind - 1;
    pm_error err;
    pm_error_clear(&err);
    zkey_t zk = {0};
    groth16_vk_t vk = {0};
    char *text = NULL;
    int rc = PM_EXIT_USAGE;
    const char *outs[1] = {argv[2]}, *ins[1] = {argv[1]};
    if (check_outputs(outs, 1, ins, 1, &err) ||
        zkey_read(&zk, argv[1], ZKEY_SKIP_COEFS_LIST, &err) || groth16_vk_from_zkey(&vk, &zk, &err) ||
        groth16_vk_check_points(&vk, argv[1], &err))
        goto out;
    text = groth16_vk_to_json(&vk);
    if (!text) {
        pm_error_set(&err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory");
        goto out;
    }
    if (pm_write_file(argv[2], text, strlen(text), &err)) goto out;
    rc = PM_EXIT_OK;
out:
    if (rc) pm_cli_fail(&err);
    free(text);
    groth16_vk_free(&vk);
    zkey_free(&zk);
    return rc;
}

/* 1 when argv (after the subcommand word) names a bellperson key with --params. */
static int has_params_flag(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--params")) return 1;
    return 0;
}

static int cmd_groth16(int argc, char **argv) {
    /* Issue #6 spellings forward to the setup/params commands (cmd_setup.h). */
    if (argc >= 2 && !strcmp(argv[1], "setup")) return pm_cli_setup_main(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "verify-bytes"))
        return pm_cli_params_verify_bytes_main(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "prove") && has_params_flag(argc - 1, argv + 1))
        return pm_cli_params_prove_main(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "prove")) return cmd_prove(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "verify")) return cmd_verify(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "export-vk")) return cmd_export_vk(argc - 1, argv + 1);
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage:\n  proofmill %s\n  proofmill %s\n  proofmill %s\n", PROVE_USAGE,
               VERIFY_USAGE, EXPORT_VK_USAGE);
        printf("  proofmill groth16 setup circuit.r1cs --out key.zkey|key.params [--seed S]\n"
               "  proofmill groth16 prove --params key.params --r1cs c.r1cs --wtns w.wtns --out proof.bin\n"
               "  proofmill groth16 verify-bytes key.vk proof.bin public...\n\n");
        printf("prove options:\n"
               "  --threads N       threads for the MSMs and NTTs (default, or 0: all cores)\n"
               "  --r DEC --s DEC   blinding scalars r, s (decimal, < r): reproduces a snarkjs proof\n"
               "                    made with the same r, s byte for byte (e.g. proof_det_rs.json)\n"
               "  --seed S          r, s from a deterministic stream: for tests only, such proofs\n"
               "                    are NOT zero-knowledge (default: r, s from getrandom)\n"
               "  --r1cs FILE       check every constraint first and name the first failing one\n"
               "  --gpu | --cpu     backend for H and the G1 MSMs (default: the GPU when a CUDA\n"
               "                    device is present, else the CPU; same proof bytes either way)\n"
               "  -v                stage timings on stderr\n"
               "The proof is verified with the zkey's own key before it is written; a witness that\n"
               "does not satisfy the circuit is refused (exit 2).\n"
               "verify: exit 0 valid, 1 invalid proof, 2 unreadable or malformed input.\n"
               "export-vk: verification_key.json as `snarkjs zkey export verificationkey` writes it.\n");
        return PM_EXIT_OK;
    }
    if (argc >= 2)
        return pm_cli_usage("groth16: unknown subcommand '%s' (prove, verify, export-vk, setup, verify-bytes; "
                            "see `proofmill groth16 --help`)", argv[1]);
    return pm_cli_usage("usage: proofmill groth16 prove|verify|export-vk|setup|verify-bytes ... "
                        "(see `proofmill groth16 --help`)");
}

PM_CLI_COMMAND(groth16, "groth16 prove|verify|export-vk|setup|verify-bytes ... (see `proofmill groth16 --help`)",
               "snarkjs-compatible Groth16 prove, verify and verification-key export", cmd_groth16)
