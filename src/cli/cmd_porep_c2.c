/*
 * cmd_porep_c2.c — C2 commands (issue #9):
 *   proofmill porep circuit-record --sector-size S --out FILE.csr
 *       record the partition circuit once (CSR + density bitmaps, circuits/csr_file.h);
 *   proofmill porep params-setup --sector-size S --dir DIR [--seed N] [--gpu]
 *       our own Groth16 parameters for the circuit (bellperson layout), written as Filecoin names
 *       them: DIR/v28-stacked-proof-of-replication-...{.params,.vk}, plus DIR/<stem>.csr;
 *   proofmill porep prove (--c1 FILE | FILE) [--params DIR] --out PROOF [--csr FILE] [--threads T] [--seed N]
 *                         [--engine | --gpu] [--partition K]
 *       C2: 192 bytes per partition, concatenated; every proof verified with the .vk first; DIR
 *       defaults as the daemon's filecoin.params_dir ($FIL_PROOFS_PARAMETER_CACHE, else
 *       /var/tmp/filecoin-proof-parameters), the C1 may be the one argument (as prove --kind takes it);
 *       `proofmill prove --kind porep-c2` with its C1 spelling (cli/prove_job.h: the one driver of
 *       prove/prove.h, or with --engine the embedded proving engine, partitions as work items, then
 *       the whole proof verified with DIR/<stem>.vk by pm_porep_c2_verify before writing);
 *   proofmill porep verify-proof --c1 FILE --vk FILE --proof PROOF [--partition K]
 *       exit 0 valid, 1 invalid.
 * The CSR file is found as DIR/<stem>.csr when --csr is not given; if absent it is recorded in
 * memory (2 KiB: ~10 s). Exit codes as in cli.h; an unsatisfied C1 names partition, challenge and
 * gadget and exits 2 without writing a proof.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "circuits/csr_file.h"
#include "circuits/filecoin/porep_circuit.h"
#include "cli/opts.h"
#include "cli/porep_cli.h"
#include "cli/prove_job.h"
#include "filecoin/c1_json.h"
#include "filecoin/param_names.h"
#include "filecoin/param_safety.h"
#include "filecoin/sizes.h"
#include "filecoin/vanilla_verify.h"
#include "groth16/params.h"
#include "groth16/setup.h"
#include "groth16/setup_gpu.h"
#include "kinds/filecoin/porep_c2/porep_c2.h"
#include "kinds/kind.h"
#include "util/file.h"
#include "util/outfile.h"
#include "util/clock.h"
#include "util/progress.h"
#include "util/settings.h"

enum { O_SIZE = 256, O_OUT, O_DIR, O_SEED, O_C1, O_CSR, O_THREADS, O_ENGINE, O_VK, O_PROOF, O_CHECK, O_PART, O_GPU, O_ALLOW, O_NO_CSR, O_STATS };

static int c2_circuit_record(int argc, char **argv) {
    const char *size_text = NULL, *outp = NULL;
    static const pm_cli_opt opts[] = {{"sector-size", O_SIZE, "S", "sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB or bytes)"},
                                      {"out", O_OUT, "FILE", "the .csr file to write"},
                                      {0}};
    static const pm_cli_spec spec = {"porep circuit-record", "porep circuit-record --sector-size S --out FILE.csr",
                                     "Records the C2 partition circuit once (CSR matrices + density bitmaps, "
                                     "memory-mappable).", opts};
    pm_cli_args a;
    pm_cli_args_init(&a, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&a)) != PM_CLI_DONE;) {
        if (o == PM_CLI_EXIT) return a.rc;
        if (o == O_SIZE) size_text = a.arg;
        else if (o == O_OUT) outp = a.arg;
    }
    if (a.ind < argc) return pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[a.ind]);
    if (!size_text || !outp) return pm_cli_spec_usage(&spec, "--sector-size and --out are required");
    pm_error err;
    pm_error_clear(&err);
    uint64_t bytes;
    pm_porep_shape s;
    if (fil_sector_size_parse(&bytes, size_text, &err) || pm_porep_shape_for_size(&s, bytes, &err))
        return pm_cli_fail(&err);
    r1cs_t cs = {0};
    uint32_t nin;
    double t0 = pm_now_s();
    pm_progress_start("porep circuit-record");
    pm_progress_stage("recording the circuit", 0);
    if (pm_porep_record(&cs, &nin, &s, &err)) return pm_cli_fail(&err);
    double t1 = pm_now_s();
    pm_progress_stage("saving the .csr", 0);
    pm_status st = pm_csr_save(outp, &cs, nin, bytes, &err);
    pm_progress_stop();
    double t2 = pm_now_s();
    if (st) {
        r1cs_free(&cs);
        return pm_cli_fail(&err);
    }
    printf("recorded %u constraints, %u inputs, %u aux; nnz A %llu B %llu C %llu; %u distinct coefficients; "
           "record %.2f s, save %.2f s -> %s\n",
           cs.n_constraints, nin, cs.n_wires - nin, (unsigned long long)cs.A.nnz, (unsigned long long)cs.B.nnz,
           (unsigned long long)cs.C.nnz, cs.A.n_coef_tab, t1 - t0, t2 - t1, outp);
    r1cs_free(&cs);
    return PM_EXIT_OK;
}

static int c2_params_setup(int argc, char **argv) {
    const char *size_text = NULL, *dir = NULL;
    uint64_t seed = 0;
    int have_seed = 0, gpu = 0, allow = 0, no_csr = 0;
    static const pm_cli_opt opts[] = {{"sector-size", O_SIZE, "S", "sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB or bytes)"},
                                      {"dir", O_DIR, "DIR", "parameter directory (created): <stem>.params, .vk, .csr"},
                                      {"seed", O_SEED, "N", "toxic waste from a deterministic stream: test parameters only"},
                                      {"gpu", O_GPU, NULL, "the point multiplications on CUDA device 0 (the same parameters)"},
                                      {"allow-filecoin-dir", O_ALLOW, NULL,
                                       "write even into Filecoin's parameter cache or a directory holding\n"
                                       "                           Filecoin's v28 files (refused without it)"},
                                      {"no-csr", O_NO_CSR, NULL, PM_CLI_NO_CSR_HELP},
                                      {0}};
    static const pm_cli_spec spec = {"porep params-setup",
                                     "porep params-setup --sector-size S --dir DIR [--seed N] [--gpu] [--allow-filecoin-dir] "
                                     "[--no-csr]",
                                     "Our own Groth16 parameters for the C2 circuit (bellperson layout), named as "
                                     "Filecoin names them.\nProgress on stderr when it is a terminal.", opts};
    pm_cli_args a;
    pm_cli_args_init(&a, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&a)) != PM_CLI_DONE;) {
        if (o == PM_CLI_EXIT) return a.rc;
        if (o == O_SIZE) size_text = a.arg;
        else if (o == O_DIR) dir = a.arg;
        else if (o == O_GPU) gpu = 1;
        else if (o == O_ALLOW) allow = 1;
        else if (o == O_NO_CSR) no_csr = 1;
        else if (o == O_SEED) {
            if (pm_cli_opt_u64(&seed, "--seed", a.arg, 0, UINT64_MAX)) return PM_EXIT_USAGE;
            have_seed = 1;
        }
    }
    if (a.ind < argc) return pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[a.ind]);
    if (!size_text || !dir) return pm_cli_spec_usage(&spec, "--sector-size and --dir are required");
    pm_error err;
    pm_error_clear(&err);
    uint64_t bytes;
    pm_porep_shape s;
    char stem[256], path[4096];
    if (fil_sector_size_parse(&bytes, size_text, &err) || pm_porep_shape_for_size(&s, bytes, &err) ||
        fil_porep_param_stem(stem, sizeof stem, bytes, &err))
        return pm_cli_fail(&err);
    /* our parameters go under Filecoin's names: never into Filecoin's cache or beside its files
     * unasked, and each file is listed in DIR/proofmill-test-parameters (param_safety.h) */
    if (fil_param_dir_check(dir, allow, &err)) return pm_cli_fail(&err);
    mkdir(dir, 0755);
    r1cs_t cs = {0};
    uint32_t nin;
    double t0 = pm_now_s();
    pm_progress_start("porep params-setup");
    pm_progress_stage("recording the circuit", 0);
    if (pm_porep_record(&cs, &nin, &s, &err)) return pm_cli_fail(&err);
    snprintf(path, sizeof path, "%s.csr", stem);
    if (!no_csr && fil_param_mark_test(dir, path, &err)) return pm_cli_fail(&err);
    snprintf(path, sizeof path, "%s/%s.csr", dir, stem);
    if (no_csr && pm_cli_drop_stale_csr(path, &err)) return pm_cli_fail(&err);
    if (!no_csr) pm_progress_stage("saving the .csr", 0);
    double t1 = pm_now_s();
    int rc = PM_EXIT_USAGE;
    bp_params_t p = {0};
    groth16_toxic_t tox;
    groth16_setup_timings_t tm;
    groth16_setup_mul gm = {0}; /* --gpu: the point multiplications on device 0 (the same parameters) */
    if ((!no_csr && pm_csr_save(path, &cs, nin, bytes, &err)) || groth16_toxic_draw(&tox, have_seed ? &seed : NULL, &err) ||
        (gpu && groth16_setup_mul_gpu(&gm, 0, &err)) ||
        groth16_setup_bellperson_mul(&p, &cs, &tox, gpu ? &gm : NULL, &tm, &err)) {
        groth16_setup_mul_gpu_free(&gm);
        pm_cli_fail(&err);
        goto out;
    }
    groth16_setup_mul_gpu_free(&gm);
    memset(&tox, 0, sizeof tox);
    double t2 = pm_now_s();
    static const char *const exts[2] = {".params", ".vk"};
    for (int e = 0; e < 2; e++) {
        snprintf(path, sizeof path, "%s%s", stem, exts[e]);
        if (fil_param_mark_test(dir, path, &err)) {
            pm_cli_fail(&err);
            goto out;
        }
    }
    snprintf(path, sizeof path, "%s/%s.params", dir, stem);
    pm_progress_stage("writing the .params", 0);
    if (params_write(path, &p, &err)) {
        pm_cli_fail(&err);
        goto out;
    }
    snprintf(path, sizeof path, "%s/%s.vk", dir, stem);
    if (params_vk_write(path, &p.vk, &err)) {
        pm_cli_fail(&err);
        goto out;
    }
    pm_progress_stop();
    printf("%s: %u constraints + %u input rows, %u aux; record %.1f s, setup %.1f s (qap %.1f s, points %.1f s on "
           "the %s)%s%s\n",
           stem, cs.n_constraints, nin, cs.n_wires - nin, t1 - t0, t2 - t1, tm.qap, tm.points, gpu ? "GPU" : "CPU",
           have_seed ? " (seeded: test parameters only)" : "",
           no_csr ? "; no .csr (--no-csr: a prover records the circuit when it loads the key)" : "");
    printf("TEST parameters (our own setup%s), listed in %s/%s; never use them for Filecoin proofs\n",
           have_seed ? " from a seed: anyone can forge proofs" : ", toxic waste discarded", dir, FIL_PARAM_MARKER);
    rc = PM_EXIT_OK;
out:
    params_free(&p);
    r1cs_free(&cs);
    return rc;
}

/* Open the recorded circuit at path and check that it is the partition circuit of a
 * sector_size-byte sector (shape s) before anything is sized from it. */
static pm_status open_circuit(pm_csr_t *f, const char *path, const pm_porep_shape *s, uint64_t sector_size,
                              pm_error *err) {
    size_t n_w;
    uint32_t nin;
    pm_status st = pm_porep_witness_len(&n_w, &nin, s, err);
    if (!st) st = pm_csr_open(f, path, err);
    if (!st && (st = pm_csr_expect(f, path, sector_size, n_w, nin, err))) pm_csr_close(f);
    return st;
}

/* The whole C2 proof (192 · n bytes) of the C1 at c1p against the .vk beside key_path, as a
 * verifier checks it (--engine: the engine's assembler verified each partition already). */
static pm_status verify_whole(const uint8_t *proof, uint32_t n, const char *c1p, const char *key_path, pm_error *err) {
    char vkp[4096];
    fil_c1_t c1 = {0};
    bp_vk_t vk = {0};
    pm_porep_shape s;
    int valid = 0;
    size_t len = strlen(key_path);
    if (len < 7 || snprintf(vkp, sizeof vkp, "%.*s.vk", (int)(len - 7), key_path) >= (int)sizeof vkp)
        return pm_error_set(err, PM_ERR_ARG, key_path, PM_NO_OFFSET, "not a .params path");
    pm_status st = fil_c1_read_file(&c1, NULL, c1p, err);
    if (!st) st = pm_porep_shape_for_size(&s, c1.sector_size, err);
    if (!st) st = params_vk_read(&vk, vkp, 0, err);
    if (!st) st = pm_porep_c2_verify(&valid, proof, n, &c1, &s, &vk, err);
    if (!st && !valid)
        st = pm_error_set(err, PM_ERR_INTERNAL, vkp, PM_NO_OFFSET, "the engine's proof does not verify with the .vk");
    fil_c1_free(&c1);
    params_vk_free(&vk);
    return st;
}

/* Say on stderr whose parameters the .vk at vk is for a sector_size-byte PoRep (param_safety.h
 * rule 3: a digest that is not the published one is "test parameters"); an unreadable .vk says
 * nothing here (its loader names it). */
static void announce_vk(const char *vk, uint64_t sector_size) {
    pm_error e;
    pm_error_clear(&e);
    fil_params_origin_t o;
    char dg[33], line[200];
    if (!fil_param_origin(&o, dg, vk, FIL_PARAM_POREP, sector_size, &e))
        fprintf(stderr, "%s: %s\n", vk, fil_params_origin_text(line, sizeof line, o, dg, FIL_PARAM_POREP, sector_size));
}

/* pm_cli_job's on_key: key_path is DIR/<stem>.params; the sector size is the one whose PoRep stem
 * that is (0 when none: no published digest), the .vk beside it */
static void announce_key(void *arg, const char *key_path) {
    (void)arg;
    size_t n = strlen(key_path), nk;
    const char *base = strrchr(key_path, '/');
    base = base ? base + 1 : key_path;
    if (n < 7 || strcmp(key_path + n - 7, ".params")) return;
    uint64_t size = 0;
    const fil_known_digest_t *kd = fil_known_digests(&nk);
    for (size_t i = 0; i < nk; i++) {
        char stem[256];
        pm_error e;
        if (kd[i].kind != FIL_PARAM_POREP || fil_porep_param_stem(stem, sizeof stem, kd[i].sector_size, &e)) continue;
        size_t ls = strlen(stem);
        if (!strncmp(base, stem, ls) && !strcmp(base + ls, ".params")) size = kd[i].sector_size;
    }
    char vk[4200];
    snprintf(vk, sizeof vk, "%.*s.vk", (int)(n - 7), key_path);
    announce_vk(vk, size);
}

static int c2_prove(int argc, char **argv) {
    const char *c1p = NULL, *dir = NULL, *outp = NULL, *csr = NULL;
    unsigned threads = 0;
    uint64_t seed = 0, part = UINT64_MAX;
    int have_seed = 0, engine = 0, gpu = 0;
    static const pm_cli_opt opts[] = {
        {"c1", O_C1, "FILE", "the C1 output (JSON, or the lotus-bench envelope `porep seal` writes beside it); "
                             "also taken as the one argument, as `prove --kind porep-c2` takes it"},
        {"params", O_DIR, "DIR", "Filecoin parameter directory (<stem>.params, .vk, optional .csr; default "
                                 "$FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters, as the daemon)"},
        {"out", O_OUT, "PROOF", "where the proof bytes go (192 per partition)"},
        {"csr", O_CSR, "FILE", "the recorded circuit (default DIR/<stem>.csr, else recorded in memory)"},
        {"threads", O_THREADS, "T", "threads (default 0: all cores)"},
        {"seed", O_SEED, "N", "r, s from a deterministic stream: tests only, NOT zero-knowledge"},
        {"engine", O_ENGINE, NULL, "prove through the embedded proving engine (partitions as work items)"},
        {"partition", O_PART, "K", "prove only partition K (192 bytes; not with --engine): e.g. to compare one\n"
                                   "                           partition with another engine (bench/supraseal_c2.sh)"},
        {"gpu", O_GPU, NULL, "without --engine: the start phase on CUDA device 0, planned for its memory\n"
                             "                           (gpu.memory caps it)"},
        {0}};
    static const pm_cli_spec spec = {
        "porep prove", "porep prove (--c1 FILE | FILE) [--params DIR] --out PROOF [--csr FILE] [--threads T] [--seed N] "
                       "[--engine | --gpu] [--partition K]",
        "C2: the C1 is checked with the vanilla verifier (as `porep verify-c1`), then each partition is\n"
        "proved and verified with the .vk before anything is written. Progress on stderr when it is a terminal.",
        opts};
    pm_cli_args a;
    pm_cli_args_init(&a, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&a)) != PM_CLI_DONE;) {
        if (o == PM_CLI_EXIT) return a.rc;
        if (o == O_C1) c1p = a.arg;
        else if (o == O_DIR) dir = a.arg;
        else if (o == O_ENGINE) engine = 1;
        else if (o == O_GPU) gpu = 1;
        else if (o == O_PART) {
            if (pm_cli_opt_u64(&part, "--partition", a.arg, 0, UINT32_MAX - 1)) return PM_EXIT_USAGE;
        } else if (o == O_OUT) outp = a.arg;
        else if (o == O_CSR) csr = a.arg;
        else if (o == O_THREADS) {
            uint64_t t;
            if (pm_cli_opt_u64(&t, "--threads", a.arg, 0, 1024)) return PM_EXIT_USAGE;
            threads = (unsigned)t;
        } else if (o == O_SEED) {
            if (pm_cli_opt_u64(&seed, "--seed", a.arg, 0, UINT64_MAX)) return PM_EXIT_USAGE;
            have_seed = 1;
        }
    }
    if (a.ind < argc && !c1p) c1p = argv[a.ind++]; /* the C1 as `prove --kind porep-c2` takes it */
    if (a.ind < argc) return pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[a.ind]);
    if (!dir || !*dir) dir = fil_param_default_dir(); /* as the daemon's filecoin.params_dir */
    if (!c1p || !outp) return pm_cli_spec_usage(&spec, "the C1 (--c1 FILE or FILE) and --out are required");
    if (engine && csr) return pm_cli_usage("porep prove: --csr is not used with --engine (DIR/<stem>.csr is)");
    if (engine && (gpu || part != UINT64_MAX))
        return pm_cli_usage("porep prove: --gpu and --partition go without --engine (the engine uses every GPU and "
                            "proves every partition)");
    pm_error err;
    pm_error_clear(&err);
    /* C2 through the one job prover of the CLI (cli/prove_job.h), kind porep-c2 */
    pm_input in = {.kind = PM_INPUT_PATH, .path = c1p};
    const uint32_t only = (uint32_t)part;
    pm_cli_job j = {.kind = pm_kind_find("porep-c2"), .params_dir = dir, .csr = csr, .inputs = &in, .n_inputs = 1,
                    .threads = threads, .seed = have_seed ? &seed : NULL, .engine = engine, .gpu = gpu,
                    .partition = part != UINT64_MAX ? &only : NULL, .on_key = announce_key};
    pm_cli_job_result r;
    double t0 = pm_now_s();
    pm_progress_start("porep prove");
    if (pm_cli_prove_job(&r, &j, &err)) return pm_cli_fail(&err);
    pm_progress_stop();
    if (engine)
        fprintf(stderr, "porep prove --engine: %u partition(s); queue %.0f ms, key load %.0f ms, synthesis %.0f ms, "
                        "start %.0f ms, finalize %.0f ms, verify %.0f ms, total %.0f ms\n",
                r.n, r.e_queue_ms, r.e_key_ms, r.e_synth_ms, r.e_start_ms, r.e_finalize_ms, r.e_verify_ms,
                r.e_total_ms);
    pm_status st = engine ? verify_whole(r.bytes, r.n, c1p, r.key_path, &err) : PM_OK;
    if (!st) st = pm_write_file(outp, r.bytes, (size_t)192 * r.n, &err);
    if (!st && engine)
        fprintf(stderr, "porep prove --engine: %u partition(s) -> %s (%u bytes), verified with the .vk\n", r.n, outp,
                192 * r.n);
    else if (!st)
        fprintf(stderr,
                "porep prove: %u partition(s) -> %s (%u bytes); read C1 %.2f s, params + circuit %.2f s, "
                "witness %.2f s, check %.2f s, prove %.2f s, verify %.2f s, total %.2f s\n",
                r.n, outp, 192 * r.n, r.t_read, r.t_key, r.tm.witness, r.tm.check, r.tm.prove, r.tm.verify,
                pm_now_s() - t0);
    pm_cli_job_result_free(&r);
    return st ? pm_cli_fail(&err) : PM_EXIT_OK;
}

static int c2_verify(int argc, char **argv) {
    const char *c1p = NULL, *vkp = NULL, *pp = NULL;
    uint64_t part = UINT64_MAX;
    static const pm_cli_opt opts[] = {{"c1", O_C1, "FILE", "the C1 output whose public inputs the proofs are for"},
                                      {"vk", O_VK, "FILE", "the verifying key (.vk, bellperson layout)"},
                                      {"proof", O_PROOF, "FILE", "the C2 proof bytes (192 per partition)"},
                                      {"partition", O_PART, "K", "the file holds partition K's 192 bytes alone"},
                                      {0}};
    static const pm_cli_spec spec = {"porep verify-proof",
                                     "porep verify-proof --c1 FILE --vk FILE --proof FILE [--partition K]",
                                     "Prints valid (exit 0) or INVALID (exit 1).", opts};
    pm_cli_args a;
    pm_cli_args_init(&a, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&a)) != PM_CLI_DONE;) {
        if (o == PM_CLI_EXIT) return a.rc;
        if (o == O_C1) c1p = a.arg;
        else if (o == O_VK) vkp = a.arg;
        else if (o == O_PROOF) pp = a.arg;
        else if (o == O_PART) {
            if (pm_cli_opt_u64(&part, "--partition", a.arg, 0, UINT32_MAX - 1)) return PM_EXIT_USAGE;
        }
    }
    if (a.ind < argc) return pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[a.ind]);
    if (!c1p || !vkp || !pp) return pm_cli_spec_usage(&spec, "--c1, --vk and --proof are required");
    pm_error err;
    pm_error_clear(&err);
    fil_c1_t c1 = {0};
    bp_vk_t vk = {0};
    pm_porep_shape s;
    int rc = PM_EXIT_USAGE;
    uint8_t *buf = NULL;
    if (fil_c1_read_file(&c1, NULL, c1p, &err) ||
        pm_porep_shape_for_size(&s, c1.sector_size, &err) || params_vk_read(&vk, vkp, 0, &err)) {
        pm_cli_fail(&err);
        goto out;
    }
    announce_vk(vkp, c1.sector_size);
    pm_file pf;
    if (pm_file_open(&pf, pp, &err)) { /* refuses FIFOs, directories and devices at once */
        pm_cli_fail(&err);
        goto out;
    }
    if (part != UINT64_MAX && part >= c1.partitions) {
        fprintf(stderr, "proofmill: --partition %llu: %s has partitions 0..%u\n", (unsigned long long)part, c1p,
                c1.partitions - 1);
        pm_file_close(&pf);
        goto out;
    }
    const uint32_t n_proofs = part != UINT64_MAX ? 1 : c1.partitions;
    if (pf.size != (uint64_t)192 * n_proofs) {
        fprintf(stderr, "proofmill: %s: %llu bytes, expected %u (192 per partition%s)\n", pp,
                (unsigned long long)pf.size, 192 * n_proofs, part != UINT64_MAX ? ", one partition" : "");
        pm_file_close(&pf);
        goto out;
    }
    buf = malloc((size_t)192 * n_proofs);
    if (!buf) {
        pm_file_close(&pf);
        goto out;
    }
    memcpy(buf, pf.data, (size_t)192 * n_proofs);
    if (pm_file_settle(&pf, PM_OK, &err)) {
        pm_file_close(&pf);
        pm_cli_fail(&err);
        goto out;
    }
    pm_file_close(&pf);
    int valid = 0;
    if (part != UINT64_MAX ? pm_porep_c2_verify_partition(&valid, buf, (uint32_t)part, &c1, &s, &vk, &err)
                           : pm_porep_c2_verify(&valid, buf, c1.partitions, &c1, &s, &vk, &err)) {
        pm_cli_fail(&err);
        goto out;
    }
    printf("%s\n", valid ? "valid" : "INVALID");
    rc = valid ? PM_EXIT_OK : PM_EXIT_INVALID;
out:
    free(buf);
    params_vk_free(&vk);
    fil_c1_free(&c1);
    return rc;
}

/* --stats: what the MSMs over the aux wires (L; A and B gather subsets of them) meet: the shares of
 * values 0, 1 and other, and how the zeros cluster: the share of blocks of 4096 consecutive aux wires
 * (384 KiB of G1 bases) whose values are all zero, which a streamed MSM could skip whole
 * (devplan.h tiers 1-5; docs/perf/devplan.md). */
static void witness_stats(uint32_t k, const fr_t *w, size_t n_w, uint32_t nin) {
    const size_t aux = n_w - nin, block = 4096;
    size_t zero = 0, one = 0, blocks = 0, zero_blocks = 0;
    for (size_t b = nin; b < n_w; b += block) {
        const size_t e = n_w - b < block ? n_w : b + block;
        size_t z = 0;
        for (size_t i = b; i < e; i++) {
            const int iz = fr_is_zero(&w[i]);
            z += (size_t)iz;
            one += (size_t)(!iz && fr_eq(&w[i], &FR_ONE));
        }
        zero += z;
        blocks++;
        zero_blocks += z == e - b;
    }
    if (!aux) return;
    printf("partition %u: aux values: %.1f %% zero, %.1f %% one, %.1f %% other; %.2f %% of the %zu blocks of %zu "
           "wires all zero\n",
           k, 100.0 * (double)zero / (double)aux, 100.0 * (double)one / (double)aux,
           100.0 * (double)(aux - zero - one) / (double)aux, 100.0 * (double)zero_blocks / (double)blocks, blocks,
           block);
}

/* witness synthesis (and optionally SpMV + check against the recorded circuit) per partition, timed */
static int c2_synth(int argc, char **argv) {
    const char *c1p = NULL, *csr = NULL;
    int spmv = 0, stream = 0, stats = 0;
    uint32_t only = UINT32_MAX;
    static const pm_cli_opt opts[] = {
        {"c1", O_C1, "FILE", "the C1 output"},
        {"csr", O_CSR, "FILE", "the recorded circuit: SpMV a, b, c and the a*b=c check per partition"},
        {"check", O_CHECK, NULL, "the vanilla verifier on the C1 first, then every constraint evaluated while\n"
                                 "                           synthesizing (no matrices)"},
        {"partition", O_PART, "K", "only partition K"},
        {"stats", O_STATS, NULL, "the witness's aux values: shares of 0, 1 and other, and of all-zero blocks"},
        {0}};
    static const pm_cli_spec spec = {"porep synth", "porep synth --c1 FILE [--csr FILE] [--check] [--partition K] [--stats]",
                                     "C2 synthesis only: the witness of each partition, timed.", opts};
    pm_cli_args a;
    pm_cli_args_init(&a, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&a)) != PM_CLI_DONE;) {
        if (o == PM_CLI_EXIT) return a.rc;
        if (o == O_C1) c1p = a.arg;
        else if (o == O_CSR) csr = a.arg, spmv = 1;
        else if (o == O_PART) {
            uint64_t k;
            if (pm_cli_opt_u64(&k, "--partition", a.arg, 0, UINT32_MAX - 1)) return PM_EXIT_USAGE;
            only = (uint32_t)k;
        } else if (o == O_CHECK) stream = 1;
        else if (o == O_STATS) stats = 1;
    }
    if (a.ind < argc) return pm_cli_spec_usage(&spec, "unexpected argument '%s'", argv[a.ind]);
    if (!c1p) return pm_cli_spec_usage(&spec, "--c1 is required");
    pm_error err;
    pm_error_clear(&err);
    fil_c1_t c1 = {0};
    pm_csr_t f = {0};
    pm_porep_shape s;
    int rc = PM_EXIT_USAGE;
    fr_t *w = NULL, *va = NULL, *vb = NULL, *vc = NULL;
    double t0 = pm_now_s();
    if (fil_c1_read_file(&c1, NULL, c1p, &err) ||
        pm_porep_shape_for_size(&s, c1.sector_size, &err) || (csr && open_circuit(&f, csr, &s, c1.sector_size, &err))) {
        pm_cli_fail(&err);
        goto out;
    }
    printf("read C1 (+ map circuit) %.2f s\n", pm_now_s() - t0);
    if (stream) { /* --check: the C1 as `porep verify-c1` checks it, then the constraints */
        double tv = pm_now_s();
        pm_status vst = fil_c1_verify(&c1, NULL, &err);
        if (vst == PM_ERR_UNSATISFIED) {
            fprintf(stderr, "proofmill: %s: INVALID: %s\n", c1p, err.msg);
            rc = PM_EXIT_INVALID;
            goto out;
        }
        if (vst) {
            pm_cli_fail(&err);
            goto out;
        }
        printf("vanilla proofs verified (as porep verify-c1): %.2f s\n", pm_now_s() - tv);
    }
    if (only != UINT32_MAX && only >= c1.partitions) {
        rc = pm_cli_usage("--partition %u: the C1 has partitions 0..%u", only, c1.partitions - 1);
        goto out;
    }
    /* Buffers are allocated once and reused by every partition, as a proving pipeline does: the
     * first partition pays the page faults of the fresh memory (and of the mapped matrices), the
     * later ones show the steady state (printed as their mean). */
    size_t cap = 0, n = spmv ? f.cs.n_constraints : 0;
    if (pm_porep_witness_len(&cap, NULL, &s, &err)) {
        pm_cli_fail(&err);
        goto out;
    }
    w = aligned_alloc(32, cap * sizeof(fr_t));
    if (spmv) {
        va = aligned_alloc(32, (n ? n : 1) * 32);
        vb = aligned_alloc(32, (n ? n : 1) * 32);
        vc = aligned_alloc(32, (n ? n : 1) * 32);
    }
    if (!w || (spmv && (!va || !vb || !vc))) {
        fprintf(stderr, "proofmill: porep synth: out of memory (witness %.1f GB%s)\n", (double)cap * 32 / 1e9,
                spmv ? " + a, b, c" : "");
        rc = PM_EXIT_USAGE;
        goto out;
    }
    double sum_w = 0, sum_m = 0;
    unsigned done = 0;
    for (uint32_t k = 0; k < c1.partitions; k++) {
        if (only != UINT32_MAX && k != only) continue;
        size_t n_w;
        uint32_t nin;
        double a = pm_now_s();
        if (pm_porep_witness_into(w, cap, &n_w, &nin, &s, &c1, k, 0, &err)) {
            pm_cli_fail(&err);
            goto out;
        }
        double b = pm_now_s(), c = b, d = b;
        if (spmv) {
            if (pm_csr_settle(&f, r1cs_spmv(va, vb, vc, n, &f.cs, w, n_w, &err), &err)) {
                pm_cli_fail(&err);
                goto out;
            }
            c = pm_now_s();
            const size_t bad = r1cs_first_unsatisfied_row(va, vb, vc, n);
            d = pm_now_s();
            if (bad != n) {
                fprintf(stderr, "proofmill: partition %u: constraint %zu not satisfied\n", k, bad);
                goto out;
            }
        }
        printf("partition %u: %zu wires (%u inputs); witness %.3f s%s", k, n_w, nin, b - a, spmv ? "" : "\n");
        if (spmv) printf(", SpMV a,b,c %.3f s, a*b=c check %.3f s: satisfied\n", c - b, d - c);
        if (stats) witness_stats(k, w, n_w, nin);
        if (done++ > 0) {
            sum_w += b - a;
            sum_m += c - b;
        }
        if (stream) {
            uint64_t fb, nb;
            double e = pm_now_s();
            if (pm_porep_check_streaming(&fb, &nb, &s, &c1, k, &err)) {
                pm_cli_fail(&err);
                goto out;
            }
            printf("partition %u: every constraint satisfied (streaming check, no matrices: %.2f s)\n", k, pm_now_s() - e);
        }
    }
    if (done > 1) {
        printf("steady state (mean of the %u partitions after the first): witness %.3f s", done - 1,
               sum_w / (done - 1));
        if (spmv) printf(", SpMV a,b,c %.3f s", sum_m / (done - 1));
        printf("\n");
    }
    rc = PM_EXIT_OK;
out:
    free(w);
    free(va);
    free(vb);
    free(vc);
    pm_csr_close(&f);
    fil_c1_free(&c1);
    return rc;
}

PM_POREP_SUBCOMMAND(synth, "synth", "--c1 FILE [--csr FILE] [--check] [--partition K] [--stats]",
                    "C2 synthesis only: witness per partition, timed; --csr: SpMV + a·b=c; --check: every "
                    "constraint evaluated while synthesizing (no matrices)", c2_synth)
PM_POREP_SUBCOMMAND(circuit_record, "circuit-record", "--sector-size S --out FILE.csr",
                    "record the C2 partition circuit once (CSR + density, memory-mappable)", c2_circuit_record)
PM_POREP_SUBCOMMAND(params_setup, "params-setup", "--sector-size S --dir DIR [--seed N] [--gpu]",
                    "our own Groth16 .params/.vk (+ .csr) for the C2 circuit, Filecoin file names", c2_params_setup)
PM_POREP_SUBCOMMAND(prove, "prove", "--c1 FILE --params DIR --out PROOF [--csr FILE] [--threads T] [--seed N] "
                                     "[--engine | --gpu] [--partition K]",
                    "C2: 192-byte Groth16 proof per partition from a C1 output (verified before writing)", c2_prove)
PM_POREP_SUBCOMMAND(verify_proof, "verify-proof", "--c1 FILE --vk FILE --proof FILE [--partition K]",
                    "verify C2 proofs against a .vk with the C1's public inputs (exit 1 if invalid)", c2_verify)
