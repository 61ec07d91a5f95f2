/*
 * cmd_proof_kinds.c — `proofmill winning-post | window-post | snapdeals <subcommand>` (issue #16):
 * the kind-specific commands of the three proof kinds a storage provider needs besides PoRep
 * (kinds/filecoin/vanilla_kind.h: winning-post, window-post, snapdeals), one request at a time.
 *
 *   circuit-info --sector-size S [--json]      constraints, inputs, aux, rows, per gadget, parameter name
 *   gen --sector-size S --out REQ.json [--vanilla-out V.json] [--seed N] [--miner M]
 *       (WindowPoSt also [--sectors N] [--partition K] [--api 1.0|1.2]; the others refuse them)
 *                                              a request as Curio sends it (fil_gen.h), over our own sealed test
 *                                              sectors (2 KiB, 8 MiB; SnapDeals: a random-data update of
 *                                              a sealed CC sector) or, for bigger sizes, synthetic ones
 *   verify-vanilla --request REQ.json          the vanilla verifier (exit 1 when a proof is bad)
 *   check --request REQ.json [--witness-only]  witness + every constraint, without parameters
 *                                              (--witness-only: the kind's parallel witness, timed)
 *   record --sector-size S --out FILE.csr      the recorded circuit (csr_file.h; the kind's tag)
 *   params-setup --sector-size S --dir DIR [--seed N] [--gpu] [--allow-filecoin-dir]
 *                                              our own (test) Groth16 parameters, bellperson layout, under
 *                                              Filecoin's names (param_safety.h rules), and DIR/<stem>.csr
 *   prove --request REQ.json --params DIR --out PROOF [--csr FILE] [--seed N] [--threads T] [--engine] [--gpu]
 *                                              `proofmill prove --kind K` with the request file's
 *                                              spelling: the vanilla proofs verified first, then the
 *                                              kind through the one driver (or the embedded engine);
 *                                              192 bytes per partition (filecoin-ffi's layout), each
 *                                              verified with the .vk and the derived public inputs
 *   verify --request REQ.json --vk FILE --proof PROOF
 *                                              exit 0 valid, 1 invalid
 * A request file is proof_request.h's JSON (cuzk.v1 SubmitProofRequest fields); --vanilla V.json
 * (Go's [][]byte JSON, as Curio stores vanilla proofs) replaces its vanilla_proofs. The request
 * becomes the kind's inputs (vanilla_kind.h: one "vanilla" per blob, the fields by name), so the
 * job read here is the one the engine and the HTTP API read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "circuits/csr_file.h"
#include "circuits/filecoin/post_circuit.h"
#include "circuits/filecoin/update_circuit.h"
#include "cli/cli.h"
#include "cli/fil_gen.h"
#include "cli/opts.h"
#include "cli/prove_job.h"
#include "filecoin/param_names.h"
#include "filecoin/param_safety.h"
#include "filecoin/post.h"
#include "filecoin/proof_request.h"
#include "filecoin/sizes.h"
#include "filecoin/update.h"
#include "groth16/params.h"
#include "groth16/proof_bytes.h"
#include "groth16/setup.h"
#include "groth16/setup_gpu.h"
#include "groth16/verifier.h"
#include "kinds/filecoin/vanilla_kind.h"
#include "util/clock.h"
#include "util/file.h"
#include "util/outfile.h"
#include "util/progress.h"

typedef enum { K_WINNING = 0, K_WINDOW = 1, K_SNAP = 2 } kind_t;

/* ---------------------------------------------------------------- the kind and its jobs */
static const pm_fil_kind_desc *desc_of(kind_t k) {
    return k == K_WINNING ? &pm_fil_winning_post : k == K_WINDOW ? &pm_fil_window_post : &pm_fil_snapdeals;
}

typedef struct {
    pm_fil_key s; /* the circuit of the job's sector size */
    pm_fil_job *j;
} job_t;

/* request r (read from file req) as the kind's job */
static pm_status job_of_request(job_t *j, kind_t k, const fil_proof_request_t *r, const char *req, pm_error *err) {
    memset(j, 0, sizeof *j);
    const pm_kind *kind = pm_kind_find(desc_of(k)->name);
    pm_input *in = NULL;
    size_t n = 0;
    uint8_t *store = NULL;
    void *job = NULL;
    pm_status st = PM_OK;
    if (!kind) st = pm_error_set(err, PM_ERR_INTERNAL, NULL, PM_NO_OFFSET, "kind %s is not registered", desc_of(k)->name);
    if (!st && r->kind && r->kind != desc_of(k)->req)
        st = pm_error_set(err, PM_ERR_ARG, req, PM_NO_OFFSET, "proof_kind %s: the request is not a %s proof",
                          fil_request_kind_name(r->kind), desc_of(k)->title);
    if (!st) st = pm_fil_inputs_of_request(&in, &n, &store, kind, r, err);
    if (!st) st = pm_kind_open_job(kind, &job, in, n, err);
    if (st && (!err->file[0] || !strncmp(err->file, "inputs[", 7))) snprintf(err->file, sizeof err->file, "%s", req);
    free(in);
    free(store);
    if (st) return st;
    j->j = job;
    return pm_fil_key_for_size(&j->s, desc_of(k), j->j->sector_size, err);
}

/* the request file (+ a vanilla list) as the kind's job */
static pm_status job_read(job_t *j, kind_t k, const char *req, const char *vanilla, pm_error *err) {
    memset(j, 0, sizeof *j);
    fil_proof_request_t r;
    pm_status st = fil_proof_request_read(&r, req, err);
    if (!st && vanilla) st = fil_vanilla_list_read(&r, vanilla, err);
    if (!st) st = job_of_request(j, k, &r, req, err);
    fil_proof_request_free(&r);
    return st;
}

static void job_free(job_t *j) {
    pm_fil_close_job(j->j);
    j->j = NULL;
}

static uint32_t job_partitions(const job_t *j) { return pm_fil_partitions(j->j); }

static pm_status job_check(uint64_t *fb, uint64_t *nb, const job_t *j, uint32_t k, pm_error *err) {
    return j->s.d->post_type ? pm_post_check(fb, nb, &j->j->post, err) : pm_update_check(fb, nb, &j->j->upd, k, err);
}

/* ---------------------------------------------------------------- options (cli/opts.h) */
typedef struct {
    const char *size, *out, *vanilla_out, *request, *vanilla, *dir, *vk, *proof, *api, *csr;
    uint64_t sectors, partition, seed, miner, threads;
    int have_seed, json, allow, have_sectors, have_partition, witness_only, engine, gpu, no_csr;
} args_t;

enum { O_SIZE = 256, O_JSON, O_OUT, O_VANILLA_OUT, O_SECTORS, O_PARTITION, O_API, O_SEED, O_MINER, O_REQUEST, O_VANILLA,
       O_WITNESS_ONLY, O_THREADS, O_DIR, O_ALLOW, O_CSR, O_ENGINE, O_GPU, O_VK, O_PROOF, O_NO_CSR };

#define OPT_SIZE {"sector-size", O_SIZE, "S", "sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB or bytes)"}
#define OPT_REQUEST {"request", O_REQUEST, "REQ.json", "the request (cuzk.v1 SubmitProofRequest fields as JSON, from `gen`)"}
#define OPT_VANILLA {"vanilla", O_VANILLA, "V.json", "vanilla proofs replacing the request's (Go's [][]byte JSON, as Curio\n" \
                     "                           stores them)"}
#define OPT_THREADS {"threads", O_THREADS, "T", "threads (0..1024; default 0: all cores)"}

static const pm_cli_opt OPTS_CHECK[] = {
    OPT_REQUEST, OPT_VANILLA,
    {"partition", O_PARTITION, "K", "only partition K (default every partition)"},
    {"witness-only", O_WITNESS_ONLY, NULL, "the kind's parallel witness and public inputs alone, timed (constraints\n"
                                           "                           not checked)"},
    OPT_THREADS, {0}};
static const pm_cli_opt OPTS_INFO[] = {OPT_SIZE, {"json", O_JSON, NULL, "one JSON object instead of the table"}, {0}};
#define OPTS_GEN_COMMON                                                                                           \
    OPT_SIZE, {"out", O_OUT, "REQ.json", "the request file to write"},                                              \
        {"vanilla-out", O_VANILLA_OUT, "V.json", "also its vanilla proofs alone (Go's [][]byte JSON)"}
#define OPTS_GEN_SEED_MINER                                                                                       \
    {"seed", O_SEED, "N", "seed of the randomness, the update data and synthetic sectors (default 0)"},           \
        {"miner", O_MINER, "M", "the miner id (default 1000)"}
/* gen of WinningPoSt and SnapDeals; WindowPoSt's also takes the partition's shape */
static const pm_cli_opt OPTS_GEN[] = {OPTS_GEN_COMMON, OPTS_GEN_SEED_MINER, {0}};
static const pm_cli_opt OPTS_GEN_WINDOW[] = {
    OPTS_GEN_COMMON,
    {"sectors", O_SECTORS, "N", "sectors in the partition (1..the partition's sector count; default 1)"},
    {"partition", O_PARTITION, "K", "the partition index (default 0)"},
    {"api", O_API, "1.0|1.2", "the API version of the registered proof (default 1.2)"},
    OPTS_GEN_SEED_MINER,
    {0}};
static const pm_cli_opt OPTS_PARAMS_SETUP[] = {
    OPT_SIZE,
    {"dir", O_DIR, "DIR", "parameter directory (created): <stem>.params, .vk, .csr, listed in its\n"
                          "                           " FIL_PARAM_MARKER " file"},
    {"seed", O_SEED, "N", "toxic waste from a deterministic stream: test parameters only, forgeable"},
    {"gpu", O_GPU, NULL, "the point multiplications on CUDA device 0 (the same parameters)"},
    {"allow-filecoin-dir", O_ALLOW, NULL, "write even into Filecoin's parameter cache or a directory holding\n"
                                          "                           Filecoin's v28 files (refused without it)"},
    {"no-csr", O_NO_CSR, NULL, PM_CLI_NO_CSR_HELP},
    {0}};
static const pm_cli_opt OPTS_PROVE[] = {
    OPT_REQUEST, OPT_VANILLA,
    {"params", O_DIR, "DIR", "parameter directory (<stem>.params, .vk, optional .csr)"},
    {"out", O_OUT, "PROOF", "where the proof bytes go (192 per partition, filecoin-ffi's layout)"},
    {"csr", O_CSR, "FILE", "the recorded circuit (default DIR/<stem>.csr, else recorded in memory)"},
    {"seed", O_SEED, "N", "r, s from a deterministic stream: tests only, NOT zero-knowledge"},
    OPT_THREADS,
    {"engine", O_ENGINE, NULL, "prove through the embedded proving engine (partitions as work items)"},
    {"gpu", O_GPU, NULL, "the start phase on CUDA device 0 (operations without a kernel on the CPU)"},
    {0}};
static const pm_cli_opt OPTS_RECORD[] = {OPT_SIZE, {"out", O_OUT, "FILE.csr", "the recorded circuit to write"}, {0}};
static const pm_cli_opt OPTS_VERIFY[] = {
    OPT_REQUEST, OPT_VANILLA,
    {"vk", O_VK, "FILE", "the verifying key (.vk, bellperson layout)"},
    {"proof", O_PROOF, "PROOF", "the proof bytes (192 per partition)"},
    {0}};
static const pm_cli_opt OPTS_VERIFY_VANILLA[] = {OPT_REQUEST, OPT_VANILLA, {0}};

static int sub_check(kind_t k, int argc, char **argv);
static int sub_circuit_info(kind_t k, int argc, char **argv);
static int sub_gen(kind_t k, int argc, char **argv);
static int sub_params_setup(kind_t k, int argc, char **argv);
static int sub_prove(kind_t k, int argc, char **argv);
static int sub_record(kind_t k, int argc, char **argv);
static int sub_verify(kind_t k, int argc, char **argv);
static int sub_verify_vanilla(kind_t k, int argc, char **argv);

static const struct {
    const char *name, *usage, *summary;
    const pm_cli_opt *opts;
    int (*run)(kind_t, int, char **);
} SUBS[] = {
    {"check", "--request REQ.json [--vanilla V.json] [--partition K] [--witness-only] [--threads T]",
     "witness + every constraint (or the parallel witness alone, timed), no parameters", OPTS_CHECK, sub_check},
    {"circuit-info", "--sector-size S [--json]", "constraints, inputs, aux and parameter name of the circuit", OPTS_INFO,
     sub_circuit_info},
    {"gen", "--sector-size S --out REQ.json [--vanilla-out V.json] [--seed N] [--miner M]",
     "a request over our own test sectors (sealed at 2 KiB / 8 MiB, synthetic above)", OPTS_GEN, sub_gen},
    {"params-setup", "--sector-size S --dir DIR [--seed N] [--gpu] [--allow-filecoin-dir] [--no-csr]",
     "our own TEST Groth16 parameters under Filecoin's names", OPTS_PARAMS_SETUP, sub_params_setup},
    {"prove", "--request REQ.json --params DIR --out PROOF [--vanilla V.json] [--csr FILE] [--seed N] [--threads T] "
              "[--engine] [--gpu]",
     "192-byte proof per partition through the kind, verified before writing", OPTS_PROVE, sub_prove},
    {"record", "--sector-size S --out FILE.csr", "the recorded circuit (CSR file)", OPTS_RECORD, sub_record},
    {"verify", "--request REQ.json --vk FILE --proof PROOF [--vanilla V.json]",
     "verify with the derived public inputs (exit 0 valid, 1 invalid)", OPTS_VERIFY, sub_verify},
    {"verify-vanilla", "--request REQ.json [--vanilla V.json]", "the vanilla verifier (exit 1 when a proof is bad)",
     OPTS_VERIFY_VANILLA, sub_verify_vanilla},
};
#define N_SUBS (sizeof SUBS / sizeof SUBS[0])
/* WindowPoSt's gen also takes the partition's shape */
static const char *sub_usage(size_t i, kind_t k) {
    return k == K_WINDOW && SUBS[i].opts == OPTS_GEN
               ? "--sector-size S --out REQ.json [--vanilla-out V.json] [--sectors N] [--partition K] [--api 1.0|1.2] "
                 "[--seed N] [--miner M]"
               : SUBS[i].usage;
}
static const pm_cli_opt *sub_opts(size_t i, kind_t k) {
    return k == K_WINDOW && SUBS[i].opts == OPTS_GEN ? OPTS_GEN_WINDOW : SUBS[i].opts;
}

/* A subcommand's spec: its words ("winning-post prove") and synopsis, made at run time for the kind. */
typedef struct {
    pm_cli_spec spec;
    char cmd[64], usage[400], about[200];
} sub_spec_t;

/* Parse argv (argv[0] = the subcommand's word) against sub's table into a; sp receives the spec
 * (for usage errors). Returns -1 to go on, or the exit code after --help (0) or a usage error (2). */
static int parse_args(args_t *a, sub_spec_t *sp, kind_t k, const char *sub, int argc, char **argv) {
    memset(a, 0, sizeof *a);
    a->miner = 1000;
    size_t i = 0;
    while (i < N_SUBS && strcmp(SUBS[i].name, sub)) i++;
    if (i == N_SUBS) return pm_cli_usage("%s: no subcommand %s", desc_of(k)->name, sub); /* not reached */
    snprintf(sp->cmd, sizeof sp->cmd, "%s %s", desc_of(k)->name, sub);
    snprintf(sp->usage, sizeof sp->usage, "%s %s", sp->cmd, sub_usage(i, k));
    snprintf(sp->about, sizeof sp->about, "%s: %s.", desc_of(k)->title, SUBS[i].summary);
    sp->spec = (pm_cli_spec){sp->cmd, sp->usage, sp->about, sub_opts(i, k)};
    pm_cli_args pa;
    pm_cli_args_init(&pa, &sp->spec, argc, argv);
    for (int o; (o = pm_cli_next(&pa)) != PM_CLI_DONE;) {
        const char *v = pa.arg;
        switch (o) {
        case PM_CLI_EXIT: return pa.rc;
        case O_JSON: a->json = 1; break;
        case O_ALLOW: a->allow = 1; break;
        case O_NO_CSR: a->no_csr = 1; break;
        case O_WITNESS_ONLY: a->witness_only = 1; break;
        case O_ENGINE: a->engine = 1; break;
        case O_GPU: a->gpu = 1; break;
        case O_SIZE: a->size = v; break;
        case O_OUT: a->out = v; break;
        case O_VANILLA_OUT: a->vanilla_out = v; break;
        case O_REQUEST: a->request = v; break;
        case O_VANILLA: a->vanilla = v; break;
        case O_DIR: a->dir = v; break;
        case O_VK: a->vk = v; break;
        case O_PROOF: a->proof = v; break;
        case O_API: a->api = v; break;
        case O_CSR: a->csr = v; break;
        case O_SECTORS:
            if (pm_cli_opt_u64(&a->sectors, "--sectors", v, 1, 1u << 20)) return PM_EXIT_USAGE;
            a->have_sectors = 1;
            break;
        case O_PARTITION:
            if (pm_cli_opt_u64(&a->partition, "--partition", v, 0, UINT32_MAX)) return PM_EXIT_USAGE;
            a->have_partition = 1;
            break;
        case O_MINER:
            if (pm_cli_opt_u64(&a->miner, "--miner", v, 0, UINT64_MAX)) return PM_EXIT_USAGE;
            break;
        case O_THREADS:
            if (pm_cli_opt_u64(&a->threads, "--threads", v, 0, 1024)) return PM_EXIT_USAGE;
            break;
        case O_SEED:
            if (pm_cli_opt_u64(&a->seed, "--seed", v, 0, UINT64_MAX)) return PM_EXIT_USAGE;
            a->have_seed = 1;
            break;
        default: break;
        }
    }
    if (pa.ind < argc) return pm_cli_spec_usage(&sp->spec, "unexpected argument '%s'", argv[pa.ind]);
    return -1;
}

/* the circuit of --sector-size for kind k (WindowPoSt at --api's version, default 1.2) */
static int size_shape(pm_fil_key *s, kind_t k, const char *text, const char *api, const sub_spec_t *sp) {
    pm_error err;
    pm_error_clear(&err);
    uint64_t bytes;
    if (!text) return pm_cli_spec_usage(&sp->spec, "--sector-size is required");
    fil_api_version_t v = FIL_API_V1_2_0;
    if (api && fil_api_version_parse(&v, api, &err)) return pm_cli_fail(&err);
    if (fil_sector_size_parse(&bytes, text, &err) || pm_fil_key_for_size(s, desc_of(k), bytes, &err))
        return pm_cli_fail(&err);
    if (k == K_WINDOW && v != FIL_API_V1_2_0 && fil_post_config_for(&s->pc, FIL_POST_WINDOW, bytes, v, &err))
        return pm_cli_fail(&err);
    return 0;
}

/* ---------------------------------------------------------------- circuit-info, record */
static int sub_circuit_info(kind_t k, int argc, char **argv) {
    args_t a;
    sub_spec_t sp;
    int rc = parse_args(&a, &sp, k, "circuit-info", argc, argv);
    pm_fil_key s;
    if (rc >= 0 || (rc = size_shape(&s, k, a.size, NULL, &sp))) return rc;
    pm_error err;
    pm_error_clear(&err);
    pm_cs cs;
    pm_cs_init(&cs, 0);
    uint64_t gc[PM_UPD_G_COUNT] = {0}, ga[PM_UPD_G_COUNT] = {0};
    unsigned ng;
    const char *(*gname)(unsigned);
    double t0 = pm_now_s();
    pm_status st;
    if (k == K_SNAP) {
        pm_update_stats us;
        st = pm_update_synthesize(&cs, &s.uc, NULL, 0, &us, &err);
        memcpy(gc, us.constraints, sizeof us.constraints);
        memcpy(ga, us.aux, sizeof us.aux);
        ng = PM_UPD_G_COUNT;
        gname = pm_update_gadget_name;
    } else {
        pm_post_stats ps;
        st = pm_post_synthesize(&cs, &s.pc, NULL, &ps, &err);
        memcpy(gc, ps.constraints, sizeof ps.constraints);
        memcpy(ga, ps.aux, sizeof ps.aux);
        ng = PM_POST_G_COUNT;
        gname = pm_post_gadget_name;
    }
    double sec = pm_now_s() - t0;
    const char *stem = s.stem;
    if (st) {
        pm_cs_free(&cs);
        return pm_cli_fail(&err);
    }
    uint64_t rows = cs.n_constraints + cs.n_inputs;
    unsigned lg = 0;
    while ((1ull << lg) < rows) lg++;
    unsigned parts = k == K_SNAP ? s.uc.partitions : 1;
    if (a.json) {
        printf("{\"kind\": \"%s\", \"sector_size\": %llu, \"partitions\": %u, \"constraints\": %llu, \"inputs\": %u, "
               "\"aux\": %llu, \"rows\": %llu, \"domain_log2\": %u, \"params\": \"%s\", \"gadgets\": {",
               desc_of(k)->name, (unsigned long long)s.sector_size, parts, (unsigned long long)cs.n_constraints, cs.n_inputs,
               (unsigned long long)cs.n_aux, (unsigned long long)rows, lg, stem);
        for (unsigned g = 0; g < ng; g++)
            printf("%s\"%s\": {\"constraints\": %llu, \"aux\": %llu}", g ? ", " : "", gname(g),
                   (unsigned long long)gc[g], (unsigned long long)ga[g]);
        printf("}}\n");
    } else {
        printf("%s, %s sector (%llu bytes)\n", desc_of(k)->title, a.size, (unsigned long long)s.sector_size);
        if (k == K_SNAP)
            printf("partitions           %u of %u challenges (h = %u, apex leaves %u)\n", s.uc.partitions,
                   s.uc.challenges, s.uc.h, s.uc.apex_leaves);
        else
            printf("one partition        %u circuit sector(s) x %u challenge(s)\n", s.pc.circuit_sectors,
                   s.pc.circuit_challenges);
        printf("circuit constraints  %llu (per partition)\n", (unsigned long long)cs.n_constraints);
        printf("inputs (with ONE)    %u\n", cs.n_inputs);
        printf("aux                  %llu\n", (unsigned long long)cs.n_aux);
        printf("rows for the QAP     %llu (constraints + one per input; domain 2^%u)\n", (unsigned long long)rows, lg);
        printf("parameters           %s.params / .vk\n", stem);
        printf("per gadget (partition total)        constraints          aux\n");
        for (unsigned g = 0; g < ng; g++)
            printf("  %-28s %16llu %12llu\n", gname(g), (unsigned long long)gc[g], (unsigned long long)ga[g]);
        printf("counted in %.2f s (count-only synthesis, nothing stored)\n", sec);
    }
    pm_cs_free(&cs);
    return PM_EXIT_OK;
}

static int sub_record(kind_t k, int argc, char **argv) {
    args_t a;
    sub_spec_t sp;
    int rc = parse_args(&a, &sp, k, "record", argc, argv);
    pm_fil_key s;
    if (rc >= 0 || (rc = size_shape(&s, k, a.size, NULL, &sp))) return rc;
    if (!a.out) return pm_cli_spec_usage(&sp.spec, "--out FILE.csr is required");
    pm_error err;
    pm_error_clear(&err);
    r1cs_t cs = {0};
    uint32_t nin;
    double t0 = pm_now_s();
    if (pm_fil_record(&cs, &nin, &s, &err) || pm_csr_save(a.out, &cs, nin, pm_fil_csr_tag(&s), &err)) {
        r1cs_free(&cs);
        return pm_cli_fail(&err);
    }
    printf("%s %s: %u constraints, %u inputs, %u aux; nnz A %llu B %llu C %llu; %.2f s -> %s\n", desc_of(k)->title, a.size,
           cs.n_constraints, nin, cs.n_wires - nin, (unsigned long long)cs.A.nnz, (unsigned long long)cs.B.nnz,
           (unsigned long long)cs.C.nnz, pm_now_s() - t0, a.out);
    r1cs_free(&cs);
    return PM_EXIT_OK;
}

/* ---------------------------------------------------------------- gen */
static int sub_gen(kind_t k, int argc, char **argv) {
    args_t a;
    sub_spec_t sp;
    int rc = parse_args(&a, &sp, k, "gen", argc, argv);
    pm_fil_key s;
    if (rc >= 0 || (rc = size_shape(&s, k, a.size, a.api, &sp))) return rc;
    if (!a.out) return pm_cli_spec_usage(&sp.spec, "--out REQ.json is required");
    pm_error err;
    pm_error_clear(&err);
    fil_proof_request_t r;
    memset(&r, 0, sizeof r);
    double t0 = pm_now_s();
    pm_cli_fil_gen_opts o = {.seed = a.seed, .miner = a.miner, .sectors = a.have_sectors ? a.sectors : 0,
                             .partition = (uint32_t)a.partition};
    pm_status st = pm_cli_fil_gen(&r, &s, &o, &err); /* fil_gen.h: shared with selfcheck */
    if (!st) st = fil_proof_request_write(a.out, &r, &err);
    if (!st && a.vanilla_out) st = fil_vanilla_list_write(a.vanilla_out, &r, &err);
    if (st) {
        fil_proof_request_free(&r);
        return pm_cli_fail(&err);
    }
    size_t bytes = 0;
    for (size_t i = 0; i < r.n_vanilla; i++) bytes += r.vanilla_len[i];
    printf("%s %s: %zu vanilla proof(s) (%zu bytes of bincode) over %s sector(s), registered proof %llu -> %s (%.1f s)\n",
           desc_of(k)->title, a.size, r.n_vanilla, bytes, pm_cli_fil_sealable(s.sector_size) ? "our sealed test" : "synthetic",
           (unsigned long long)r.registered_proof, a.out, pm_now_s() - t0);
    fil_proof_request_free(&r);
    return PM_EXIT_OK;
}

/* ---------------------------------------------------------------- verify-vanilla, check */
static int sub_verify_vanilla(kind_t k, int argc, char **argv) {
    args_t a;
    sub_spec_t sp;
    int rc = parse_args(&a, &sp, k, "verify-vanilla", argc, argv);
    if (rc >= 0) return rc;
    if (!a.request) return pm_cli_spec_usage(&sp.spec, "--request REQ.json is required");
    pm_error err;
    pm_error_clear(&err);
    job_t j;
    if (job_read(&j, k, a.request, a.vanilla, &err)) return pm_cli_fail(&err);
    pm_status st = pm_fil_verify_vanilla(j.j, &err);
    if (st == PM_ERR_MISMATCH || st == PM_ERR_ENCODING) {
        fprintf(stderr, "proofmill: %s: INVALID vanilla proof: %s\n", a.request, err.msg);
        job_free(&j);
        return PM_EXIT_INVALID;
    }
    if (st) {
        job_free(&j);
        return pm_cli_fail(&err);
    }
    printf("%s: vanilla proofs OK (%u partition(s))\n", a.request, job_partitions(&j));
    job_free(&j);
    return PM_EXIT_OK;
}

static int sub_check(kind_t k, int argc, char **argv) {
    args_t a;
    sub_spec_t sp;
    int rc = parse_args(&a, &sp, k, "check", argc, argv);
    if (rc >= 0) return rc;
    const int one = a.have_partition;
    if (!a.request) return pm_cli_spec_usage(&sp.spec, "--request REQ.json is required");
    pm_error err;
    pm_error_clear(&err);
    job_t j;
    double t0 = pm_now_s();
    if (job_read(&j, k, a.request, a.vanilla, &err)) return pm_cli_fail(&err);
    printf("request read and parsed in %.2f s\n", pm_now_s() - t0);
    int out = PM_EXIT_OK;
    uint32_t parts = job_partitions(&j);
    if (one && a.partition >= parts) {
        job_free(&j);
        return pm_cli_spec_usage(&sp.spec, "--partition %llu, the request has %u partition(s)",
                                 (unsigned long long)a.partition, parts);
    }
    for (uint32_t p = one ? (uint32_t)a.partition : 0; p < parts && out == PM_EXIT_OK; p++) {
        uint64_t fb, nb;
        if (one && p != a.partition) break;
        t0 = pm_now_s();
        if (!a.witness_only) {
            if (job_check(&fb, &nb, &j, p, &err)) out = pm_cli_fail(&err);
            else printf("partition %u: every constraint satisfied (%.2f s)\n", p, pm_now_s() - t0);
            continue;
        }
        /* the kind's witness (parallel) and public inputs, as the prover runs them */
        fr_t *w = NULL, *x = NULL;
        size_t n = 0, n_x = 0;
        pm_status st = pm_fil_witness(&w, &n, &j.s, j.j, p, (unsigned)a.threads, &err);
        double t1 = pm_now_s();
        uint32_t nin = 0;
        size_t nw;
        if (!st) st = j.s.d->post_type ? pm_post_witness_len(&nw, &nin, &j.s.pc, &err)
                                       : pm_update_witness_len(&nw, &nin, &j.s.uc, &err);
        n_x = nin ? nin - 1 : 0;
        if (!st && !(x = malloc((n_x ? n_x : 1) * sizeof *x)))
            st = pm_error_set(&err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory");
        if (!st) st = pm_fil_public_inputs(x, n_x, &j.s, j.j, p, w, n, &err);
        if (st) out = pm_cli_fail(&err);
        else printf("partition %u: witness of %zu values (%.2f GB) in %.2f s; public inputs = derived (constraints not checked)\n",
                    p, n, (double)n * sizeof(fr_t) / 1e9, t1 - t0);
        free(w);
        free(x);
    }
    job_free(&j);
    return out;
}

/* ---------------------------------------------------------------- params-setup, prove, verify */
static int sub_params_setup(kind_t k, int argc, char **argv) {
    args_t a;
    sub_spec_t sp;
    int rc = parse_args(&a, &sp, k, "params-setup", argc, argv);
    pm_fil_key s;
    if (rc >= 0 || (rc = size_shape(&s, k, a.size, NULL, &sp))) return rc;
    if (!a.dir) return pm_cli_spec_usage(&sp.spec, "--dir DIR is required");
    pm_error err;
    pm_error_clear(&err);
    char path[4096], name[300];
    if (fil_param_dir_check(a.dir, a.allow, &err)) return pm_cli_fail(&err);
    mkdir(a.dir, 0755);
    r1cs_t cs = {0};
    bp_params_t p = {0};
    uint32_t nin;
    groth16_toxic_t tox;
    groth16_setup_timings_t tm;
    double t0 = pm_now_s();
    rc = PM_EXIT_USAGE;
    pm_progress_start(sp.cmd);
    pm_progress_stage("recording the circuit", 0);
    groth16_setup_mul gm = {0}; /* --gpu: the point multiplications on device 0 (the same parameters) */
    double t_rec = t0, t_setup = t0, t_csr = t0;
    if (pm_fil_record(&cs, &nin, &s, &err) || (t_rec = pm_now_s(), 0) ||
        groth16_toxic_draw(&tox, a.have_seed ? &a.seed : NULL, &err) ||
        (a.gpu && groth16_setup_mul_gpu(&gm, 0, &err)) ||
        groth16_setup_bellperson_mul(&p, &cs, &tox, a.gpu ? &gm : NULL, &tm, &err)) { /* its stages: groth16/setup.c */
        groth16_setup_mul_gpu_free(&gm);
        pm_cli_fail(&err);
        goto out;
    }
    groth16_setup_mul_gpu_free(&gm);
    memset(&tox, 0, sizeof tox);
    t_setup = pm_now_s();
    snprintf(name, sizeof name, "%s.csr", s.stem);
    snprintf(path, sizeof path, "%s/%s", a.dir, name);
    if (!a.no_csr) pm_progress_stage("saving the .csr", 0);
    if (a.no_csr ? pm_cli_drop_stale_csr(path, &err)
                 : (fil_param_mark_test(a.dir, name, &err) || pm_csr_save(path, &cs, nin, pm_fil_csr_tag(&s), &err))) {
        pm_cli_fail(&err);
        goto out;
    }
    t_csr = pm_now_s();
    static const char *const exts[2] = {".params", ".vk"};
    pm_progress_stage("writing the .params and .vk", 0);
    for (int e = 0; e < 2; e++) {
        snprintf(name, sizeof name, "%s%s", s.stem, exts[e]);
        snprintf(path, sizeof path, "%s/%s", a.dir, name);
        if (fil_param_mark_test(a.dir, name, &err) ||
            (e ? params_vk_write(path, &p.vk, &err) : params_write(path, &p, &err))) {
            pm_cli_fail(&err);
            goto out;
        }
    }
    pm_progress_stop();
    double t_end = pm_now_s();
    /* the stages as porep params-setup prints them, so a device log shows where the time went */
    printf("%s %s: %u constraints + %u input rows, %u aux; %.1f s: record %.1f s, setup %.1f s (qap %.1f s, "
           "tables %.1f s, points %.1f s on the %s), csr save %.1f s, params write %.1f s -> %s/%s.{params,vk%s}%s\n"
           "TEST parameters (our own setup%s), listed in %s/%s; never use them for Filecoin proofs\n",
           desc_of(k)->title, a.size, cs.n_constraints, nin, cs.n_wires - nin, t_end - t0, t_rec - t0,
           t_setup - t_rec, tm.qap, tm.tables, tm.points, a.gpu ? "GPU" : "CPU", t_csr - t_setup, t_end - t_csr,
           a.dir, s.stem, a.no_csr ? "" : ",csr",
           a.no_csr ? " (--no-csr: a prover records the circuit when it loads the key)" : "",
           a.have_seed ? " from a seed: anyone can forge proofs" : ", toxic waste discarded", a.dir, FIL_PARAM_MARKER);
    rc = PM_EXIT_OK;
out:
    params_free(&p);
    r1cs_free(&cs);
    return rc;
}

/* the .vk at path: its origin said to the user */
static pm_status announce(const char *vk, const pm_fil_key *s, pm_error *err) {
    fil_params_origin_t o;
    char dg[33], line[200];
    pm_status st = fil_param_origin(&o, dg, vk, s->d->param, s->sector_size, err);
    if (!st)
        fprintf(stderr, "%s: %s\n", vk, fil_params_origin_text(line, sizeof line, o, dg, s->d->param, s->sector_size));
    const pm_kind *kind = pm_kind_find(s->d->name);
    if (st == PM_ERR_IO && kind && kind->key_hint) { /* as the driver says it of a missing .params */
        char why[300];
        snprintf(why, sizeof why, "%.290s", err->msg);
        pm_error_set(err, PM_ERR_IO, vk, PM_NO_OFFSET, "no parameters here (%s): %s", kind->key_hint, why);
    }
    return st;
}

static int sub_prove(kind_t k, int argc, char **argv) {
    args_t a;
    sub_spec_t sp;
    int rc = parse_args(&a, &sp, k, "prove", argc, argv);
    if (rc >= 0) return rc;
    if (!a.request || !a.dir || !a.out) return pm_cli_spec_usage(&sp.spec, "--request, --params and --out are required");
    pm_error err;
    pm_error_clear(&err);
    fil_proof_request_t r;
    pm_status st = fil_proof_request_read(&r, a.request, &err);
    if (!st && a.vanilla) st = fil_vanilla_list_read(&r, a.vanilla, &err);
    if (st) return pm_cli_fail(&err);
    job_t j;
    char vkp[4200];
    if (!st) st = job_of_request(&j, k, &r, a.request, &err);
    if (!st) {
        snprintf(vkp, sizeof vkp, "%s/%s.vk", a.dir, j.s.stem);
        st = announce(vkp, &j.s, &err);
        if (!st) st = pm_fil_verify_vanilla(j.j, &err); /* a bad vanilla proof is named before any proving */
        job_free(&j);
    }
    const pm_kind *kind = pm_kind_find(desc_of(k)->name);
    pm_input *in = NULL;
    size_t n_in = 0;
    uint8_t *store = NULL;
    if (!st) st = pm_fil_inputs_of_request(&in, &n_in, &store, kind, &r, &err);
    pm_cli_job_result res = {0};
    if (!st) {
        pm_cli_job cj = {.kind = kind, .params_dir = a.dir, .csr = a.csr, .inputs = in, .n_inputs = n_in,
                         .threads = (unsigned)a.threads, .seed = a.have_seed ? &a.seed : NULL, .engine = a.engine,
                         .gpu = a.gpu};
        pm_progress_start(sp.cmd); /* the stages per partition: prove/prove.c, groth16/start.c */
        st = pm_cli_prove_job(&res, &cj, &err);
        pm_progress_stop();
        if (st && !strncmp(err.file, "inputs[", 7)) snprintf(err.file, sizeof err.file, "%s", a.request);
    }
    if (!st) st = pm_write_file(a.out, res.bytes, (size_t)192 * res.n, &err);
    if (st) rc = pm_cli_fail(&err);
    else {
        fprintf(stderr, "%s prove: %u partition(s) -> %s (%u bytes), each verified; %s%.2f s total\n",
                desc_of(k)->title, res.n, a.out, 192 * res.n, a.engine ? "[engine] " : "",
                a.engine ? res.e_total_ms / 1e3 : res.t_total);
        rc = PM_EXIT_OK;
    }
    pm_cli_job_result_free(&res);
    free(in);
    free(store);
    fil_proof_request_free(&r);
    return rc;
}

static int sub_verify(kind_t k, int argc, char **argv) {
    args_t a;
    sub_spec_t sp;
    int rc = parse_args(&a, &sp, k, "verify", argc, argv);
    if (rc >= 0) return rc;
    if (!a.request || !a.vk || !a.proof) return pm_cli_spec_usage(&sp.spec, "--request, --vk and --proof are required");
    pm_error err;
    pm_error_clear(&err);
    job_t j;
    if (job_read(&j, k, a.request, a.vanilla, &err)) return pm_cli_fail(&err);
    bp_vk_t bvk = {0};
    groth16_vk_t vk = {0};
    pm_file f = {0};
    fr_t *x = NULL;
    uint32_t parts = job_partitions(&j), nin = 0;
    size_t n;
    pm_status st = announce(a.vk, &j.s, &err);
    if (!st) st = params_vk_read(&bvk, a.vk, 0, &err);
    if (!st) st = params_vk_to_groth16_vk(&vk, &bvk, &err);
    if (!st) st = j.s.d->post_type ? pm_post_witness_len(&n, &nin, &j.s.pc, &err) : pm_update_witness_len(&n, &nin, &j.s.uc, &err);
    if (!st && vk.n_public + 1 != nin)
        st = pm_error_set(&err, PM_ERR_MISMATCH, a.vk, PM_NO_OFFSET, "verifying key for %zu inputs, the circuit has %u",
                          vk.n_public + 1, nin);
    if (!st) st = pm_file_open(&f, a.proof, &err);
    if (!st && f.size != (uint64_t)192 * parts)
        st = pm_error_set(&err, PM_ERR_FORMAT, a.proof, PM_NO_OFFSET, "%llu bytes, %u partition(s) need %u",
                          (unsigned long long)f.size, parts, 192 * parts);
    x = st ? NULL : malloc(nin * sizeof *x);
    if (!st && !x) st = pm_error_set(&err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory");
    int all = 1;
    for (uint32_t q = 0; q < parts && !st; q++) {
        groth16_proof_t pr;
        int valid = 0;
        st = groth16_proof_from_bytes(&pr, f.data + 192 * (size_t)q, a.proof, 192 * (uint64_t)q, &err);
        if (!st) st = pm_fil_derive_inputs(x, nin - 1, j.j, q, &err);
        if (!st) st = groth16_verify(&valid, &vk, x, nin - 1, &pr, a.proof, NULL, &err);
        if (!st) printf("partition %u: %s\n", q, valid ? "OK" : "INVALID");
        all &= valid;
    }
    st = pm_file_settle(&f, st, &err);
    rc = st ? pm_cli_fail(&err) : all ? PM_EXIT_OK : PM_EXIT_INVALID;
    free(x);
    pm_file_close(&f);
    groth16_vk_free(&vk);
    params_vk_free(&bvk);
    job_free(&j);
    return rc;
}

/* ---------------------------------------------------------------- dispatch */
static int dispatch(kind_t k, int argc, char **argv) {
    int help = argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help");
    if (help) {
        FILE *f = argc < 2 ? stderr : stdout;
        fprintf(f, "usage: proofmill %s <subcommand> [arguments]   (proofmill %s <subcommand> --help)\n\nsubcommands:\n",
                desc_of(k)->name, desc_of(k)->name);
        for (size_t i = 0; i < N_SUBS; i++)
            fprintf(f, "  %-15s %s\n  %-15s   proofmill %s %s %s\n", SUBS[i].name, SUBS[i].summary, "", desc_of(k)->name,
                    SUBS[i].name, sub_usage(i, k));
        return argc < 2 ? PM_EXIT_USAGE : PM_EXIT_OK;
    }
    for (size_t i = 0; i < N_SUBS; i++)
        if (!strcmp(SUBS[i].name, argv[1])) return SUBS[i].run(k, argc - 1, argv + 1);
    return pm_cli_usage("%s: unknown subcommand '%s' (see `proofmill %s --help`)", desc_of(k)->name, argv[1], desc_of(k)->name);
}

static int cmd_winning(int argc, char **argv) { return dispatch(K_WINNING, argc, argv); }
static int cmd_window(int argc, char **argv) { return dispatch(K_WINDOW, argc, argv); }
static int cmd_snap(int argc, char **argv) { return dispatch(K_SNAP, argc, argv); }

/* The command words contain '-', so the rows are registered by hand (PM_CLI_COMMAND names a row
 * after its C identifier). */
static pm_cli_command g_rows[3] = {
    {"winning-post", "winning-post <subcommand> ... (see `proofmill winning-post --help`)",
     "Filecoin WinningPoSt: circuit, test requests, vanilla check, prove, verify", cmd_winning, 0},
    {"window-post", "window-post <subcommand> ... (see `proofmill window-post --help`)",
     "Filecoin WindowPoSt (one partition per request): circuit, test requests, prove, verify", cmd_window, 0},
    {"snapdeals", "snapdeals <subcommand> ... (see `proofmill snapdeals --help`)",
     "Filecoin SnapDeals (empty sector update): circuit, test requests, prove, verify", cmd_snap, 0},
};
__attribute__((constructor)) static void register_proof_kinds(void) {
    for (int i = 0; i < 3; i++) pm_cli_register(&g_rows[i]);
}
