/*
 * cmd_prove.c — `proofmill prove`: one job of any registered proof kind (kinds/kind.h), routed by
 * the kind's name, never by a file name:
 *
 *   proofmill prove --kind K (--key FILE | --params DIR) --out FILE [--csr FILE] [--input NAME=PATH]
 *                   [--threads T] [--seed N] [--engine] [--gpu] INPUT...
 *
 * INPUT: the job's main inputs, as the kind reads them (snarkjs: one .wtns per partition;
 * porep-c2: one C1); --input NAME=PATH: one of the kind's further inputs (its more_inputs). The key: --key, or the kind's in the parameter directory --params (porep-c2:
 * DIR/<stem>.params of the C1's sector size). Every partition is proved and verified before
 * anything is written; --out gets the kind's proofs: bellperson kinds the 192-byte proofs of the
 * partitions concatenated (a C2 proof), snarkjs kinds a JSON array of {"proof","public"}, one per
 * partition. --engine: through the embedded engine; --gpu: the CUDA start phase (device 0; an
 * operation without a kernel runs on the CPU); --seed: TESTS ONLY, seeded r, s. `proofmill prove
 * --list` prints the registered kinds. Exit codes as in cli.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opts.h"
#include "cli/prove_job.h"
#include "util/progress.h"
#include "engine/engine_build.h"
#include "groth16/start.h"
#include "util/clock.h"
#include "util/outfile.h"
#include "util/strbuf.h"

#define MAX_INPUTS 1024

void pm_cli_job_result_free(pm_cli_job_result *r) {
    for (uint32_t k = 0; r->json && k < r->n; k++) free(r->json[k]);
    free(r->json);
    free(r->bytes);
    memset(r, 0, sizeof *r);
}

static int hexv(char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1; }

/* the 192 bytes of a bellperson partition proof JSON {"partition":k,"proof":"<hex>"} */
static int proof_hex(uint8_t out[192], const char *json) {
    const char *h = json ? strstr(json, "\"proof\":\"") : NULL;
    if (!h) return -1;
    h += 9;
    for (int i = 0; i < 192; i++) {
        int hi = hexv(h[2 * i]), lo = hi < 0 ? -1 : hexv(h[2 * i + 1]);
        if (lo < 0) return -1;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}

static pm_status by_driver(pm_cli_job_result *r, const pm_cli_job *j, pm_error *err) {
    const pm_kind *kind = j->kind;
    void *job = NULL;
    pm_prove_key *key = NULL;
    pm_prove_proof **proofs = NULL;
    uint32_t np = 0;
    double t0 = pm_now_s();
    pm_status st = pm_kind_open_job(kind, &job, j->inputs, j->n_inputs, err);
    if (!st) {
        if (j->key) snprintf(r->key_path, sizeof r->key_path, "%s", j->key);
        else if (!kind->key_path)
            st = pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "kind %s names no key: give --key", kind->name);
        else st = kind->key_path(r->key_path, sizeof r->key_path, j->params_dir, job, err);
    }
    double t1 = pm_now_s();
    if (!st && j->on_key) j->on_key(j->on_key_arg, r->key_path);
    if (!st) st = pm_prove_key_load(&key, kind, r->key_path, j->csr, err);
    double t2 = pm_now_s();
    const groth16_ops *ops = &groth16_ops_cpu;
    if (!st && j->gpu) st = groth16_ops_gpu(&ops, err);
    groth16_exec x = {.ops = ops, .device = 0, .threads = j->threads};
    if (!st && j->gpu) { /* the key's device-memory plan for device 0 (one worker) */
        groth16_devplan_card card;
        if (!(st = groth16_gpu_card(&card, 0, 1, err)) && !(st = pm_prove_key_plan(key, &card, err)))
            pm_prove_exec_plan(&x, key);
    }
    pm_prove_opts po = {.exec = &x, .finalize_threads = j->threads, .blinding = {.seed = j->seed},
                        .only_partition = j->partition};
    if (!st) st = pm_prove_job(&proofs, &np, key, job, j->inputs, j->n_inputs, &po, &r->tm, err);
    if (!st) {
        r->n = np;
        r->json = calloc(np ? np : 1, sizeof *r->json);
        if (kind->conv == GROTH16_BELLPERSON) r->bytes = malloc((size_t)192 * (np ? np : 1));
        if (!r->json || (kind->conv == GROTH16_BELLPERSON && !r->bytes))
            st = pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
        for (uint32_t k = 0; !st && k < np; k++) {
            if (r->bytes) pm_prove_proof_bytes(r->bytes + (size_t)192 * k, proofs[k]);
            if (!(r->json[k] = pm_prove_proof_json(proofs[k])))
                st = pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
        }
    }
    r->t_read = t1 - t0, r->t_key = t2 - t1, r->t_total = pm_now_s() - t0;
    for (uint32_t k = 0; proofs && k < np; k++) pm_prove_proof_free(proofs[k]);
    free(proofs);
    pm_prove_key_free(key);
    if (job) kind->close_job(job);
    return st;
}

static pm_status by_engine(pm_cli_job_result *r, const pm_cli_job *j, pm_error *err) {
    if (j->csr)
        return pm_error_set(err, PM_ERR_ARG, j->csr, PM_NO_OFFSET,
                            "an explicit circuit is not used with --engine (the kind's place for it is)");
    /* the one builder (engine_build.h): --gpu the CUDA start phase on device 0, else the CPU on one
     * slot; the pools from the machine; its line not printed (the command's output stays as it was) */
    pm_engine_build_opts bo = {.backend = {.witness_threads = j->threads, .seed = j->seed},
                               .choices = {.where = j->gpu ? PM_ENGINE_DEVICES_GPU : PM_ENGINE_DEVICES_CPU,
                                           .devices = {0}, .n_devices = 1, .start_threads = j->threads,
                                           .origin = "--gpu"}};
    pm_engine_config_default(&bo.base);
    pm_engine_built eb;
    pm_job_info info = {0};
    uint64_t id;
    pm_status st = pm_engine_build(&eb, &bo, err);
    if (st) return st;
    pm_engine *e = eb.engine;
    pm_job_spec spec = {.kind = j->kind->name, .key_path = j->key, .params_dir = j->params_dir,
                        .priority = PM_PRIO_NORMAL, .inputs = j->inputs, .n_inputs = j->n_inputs};
    if (!(st = pm_engine_submit(e, &spec, &id, err))) {
        if (j->on_key && pm_engine_wait(e, id, 0, &info) == PM_OK) { /* planned: its key is named */
            j->on_key(j->on_key_arg, info.key_path);
            pm_job_info_free(&info);
            memset(&info, 0, sizeof info);
        }
        pm_engine_wait(e, id, -1, &info);
        if (info.state != PM_JOB_DONE) {
            *err = info.error;
            st = err->code ? err->code : PM_ERR_INTERNAL;
        }
    }
    if (!st) {
        r->n = info.n_partitions;
        snprintf(r->key_path, sizeof r->key_path, "%s", info.key_path);
        r->e_queue_ms = info.t.queue_ms, r->e_key_ms = info.t.srs_load_ms, r->e_synth_ms = info.t.synth_ms;
        r->e_start_ms = info.t.gpu_ms, r->e_finalize_ms = info.t.finalize_ms, r->e_verify_ms = info.t.verify_ms;
        r->e_total_ms = info.t.total_ms;
        r->json = calloc(r->n ? r->n : 1, sizeof *r->json);
        if (j->kind->conv == GROTH16_BELLPERSON) r->bytes = malloc((size_t)192 * (r->n ? r->n : 1));
        if (!r->json || (j->kind->conv == GROTH16_BELLPERSON && !r->bytes))
            st = pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
        for (uint32_t k = 0; !st && k < r->n; k++) {
            if (!(r->json[k] = strdup(info.proofs[k])))
                st = pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
            else if (r->bytes && proof_hex(r->bytes + (size_t)192 * k, info.proofs[k]))
                st = pm_error_set(err, PM_ERR_INTERNAL, NULL, PM_NO_OFFSET, "partition %u: bad proof JSON", k);
        }
    }
    pm_job_info_free(&info);
    pm_engine_built_destroy(&eb);
    return st;
}

pm_status pm_cli_prove_job(pm_cli_job_result *r, const pm_cli_job *j, pm_error *err) {
    memset(r, 0, sizeof *r);
    if (!j->key && !j->params_dir)
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "no key: give the key or a parameter directory");
    if (j->engine && j->partition)
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "one partition alone is proved by the driver, not the engine");
    pm_status st = j->engine ? by_engine(r, j, err) : by_driver(r, j, err);
    if (st) pm_cli_job_result_free(r);
    return st;
}

#define PROVE_USAGE                                                                                \
    "prove --kind K (--key FILE | --params DIR) --out FILE [--csr FILE] [--input NAME=PATH] [--threads T] "  \
    "[--seed N] [--engine] [--gpu] INPUT...  (--list: the kinds)"

static int prove_list(void) {
    const pm_kind *k[64];
    size_t n = pm_kind_list(k, 64);
    for (size_t i = 0; i < n && i < 64; i++) {
        printf("%-12s input %-6s %s", k[i]->name, k[i]->input_name, k[i]->summary ? k[i]->summary : "");
        for (const char *const *m = k[i]->more_inputs; m && *m; m++)
            printf("%s%s", m == k[i]->more_inputs ? "; further inputs: " : ", ", *m);
        for (const char *const *a = k[i]->aliases; a && *a; a++) printf("%s%s", a == k[i]->aliases ? " (alias " : ", ", *a);
        printf("%s\n", k[i]->aliases && k[i]->aliases[0] ? ")" : "");
    }
    return PM_EXIT_OK;
}

static int cmd_prove(int argc, char **argv) {
    const char *kind_name = NULL, *key = NULL, *dir = NULL, *outp = NULL, *csr = NULL;
    static pm_input in[MAX_INPUTS];
    size_t n_in = 0;
    uint64_t seed = 0, t;
    int have_seed = 0, engine = 0, gpu = 0;
    unsigned threads = 0;
    enum { O_LIST = 256, O_KIND, O_KEY, O_PARAMS, O_OUT, O_CSR, O_INPUT, O_ENGINE, O_GPU, O_THREADS, O_SEED };
    static const pm_cli_opt opts[] = {
        {"kind", O_KIND, "K", "the proof kind (snarkjs, porep-c2, ...; see --list)"},
        {"key", O_KEY, "FILE", "the proving key (.zkey or .params)"},
        {"params", O_PARAMS, "DIR", "a Filecoin parameter directory (the kind names its file)"},
        {"out", O_OUT, "FILE", "the proof (bytes for Filecoin kinds, JSON for snarkjs)"},
        {"csr", O_CSR, "FILE", "the recorded circuit (default: beside the key, else recorded in memory)"},
        {"input", O_INPUT, "NAME=PATH", "a further named input of the kind (repeatable)"},
        {"threads", O_THREADS, "T", "threads (default 0: all cores)"},
        {"seed", O_SEED, "N", "r, s from a deterministic stream: tests only, NOT zero-knowledge"},
        {"engine", O_ENGINE, NULL, "prove through the embedded proving engine"},
        {"gpu", O_GPU, NULL, "require a CUDA device"},
        {"list", O_LIST, NULL, "list the registered proof kinds and exit"},
        {0}};
    static const pm_cli_spec spec = {"prove", PROVE_USAGE,
                                     "One job of any proof kind, every partition verified before the proof is "
                                     "written.", opts};
    pm_cli_args pa;
    pm_cli_args_init(&pa, &spec, argc, argv);
    for (int o; (o = pm_cli_next(&pa)) != PM_CLI_DONE;) {
        char *v = (char *)pa.arg, *eq;
        switch (o) {
        case PM_CLI_EXIT: return pa.rc;
        case O_LIST: return prove_list();
        case O_KIND:
            if (!strcmp(v, "--list")) return prove_list(); /* `prove --kind --list` (issue #39) */
            kind_name = v;
            break;
        case O_KEY: key = v; break;
        case O_PARAMS: dir = v; break;
        case O_OUT: outp = v; break;
        case O_CSR: csr = v; break;
        case O_INPUT: /* NAME=PATH: a further input of the kind */
            eq = strchr(v, '=');
            if (!eq || eq == v || !eq[1]) return pm_cli_usage("prove: --input takes NAME=PATH, not '%s'", v);
            if (n_in == MAX_INPUTS) return pm_cli_usage("prove: more than %d inputs", MAX_INPUTS);
            *eq = 0;
            in[n_in++] = (pm_input){.kind = PM_INPUT_PATH, .path = eq + 1, .name = v};
            break;
        case O_ENGINE: engine = 1; break;
        case O_GPU: gpu = 1; break;
        case O_THREADS:
            if (pm_cli_opt_u64(&t, "--threads", v, 0, 1024)) return PM_EXIT_USAGE;
            threads = (unsigned)t;
            break;
        case O_SEED:
            if (pm_cli_opt_u64(&seed, "--seed", v, 0, UINT64_MAX)) return PM_EXIT_USAGE;
            have_seed = 1;
            break;
        default: break;
        }
    }
    for (int i = pa.ind; i < argc; i++) {
        if (n_in == MAX_INPUTS) return pm_cli_usage("prove: more than %d inputs", MAX_INPUTS);
        in[n_in++] = (pm_input){.kind = PM_INPUT_PATH, .path = argv[i]};
    }
    if (!kind_name || (!key && !dir) || !outp || !n_in)
        return pm_cli_spec_usage(&spec, "needs --kind, --key or --params, --out and an INPUT (--list: the kinds)");
    const pm_kind *kind = pm_kind_find(kind_name);
    if (!kind) {
        char names[512];
        return pm_cli_usage("prove: kind '%s' is not one of: %s", kind_name, pm_kind_names(names, sizeof names));
    }
    pm_error err;
    pm_error_clear(&err);
    pm_cli_job j = {.kind = kind, .key = key, .params_dir = dir, .csr = csr, .inputs = in, .n_inputs = n_in,
                    .threads = threads, .seed = have_seed ? &seed : NULL, .engine = engine, .gpu = gpu};
    pm_cli_job_result r;
    pm_progress_start("prove");
    if (pm_cli_prove_job(&r, &j, &err)) return pm_cli_fail(&err);
    pm_progress_stop();
    pm_status st;
    size_t bytes;
    if (r.bytes) {
        bytes = (size_t)192 * r.n;
        st = pm_write_file(outp, r.bytes, bytes, &err);
    } else {
        pm_strbuf sb = {0};
        PM_SB_LIT(&sb, "[");
        for (uint32_t k = 0; k < r.n; k++) {
            if (k) PM_SB_LIT(&sb, ",\n ");
            pm_sb_put(&sb, r.json[k]);
        }
        PM_SB_LIT(&sb, "]\n");
        bytes = sb.n;
        if (sb.oom) st = pm_error_set(&err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
        else st = pm_write_file(outp, sb.p, sb.n, &err);
        pm_sb_free(&sb);
    }
    if (!st)
        fprintf(stderr, "prove %s: %u partition(s), each verified -> %s (%zu bytes)%s\n", kind->name, r.n, outp, bytes,
                engine ? " [engine]" : "");
    pm_cli_job_result_free(&r);
    return st ? pm_cli_fail(&err) : PM_EXIT_OK;
}

PM_CLI_COMMAND(prove, "prove --kind K (--key FILE | --params DIR) --out FILE [--engine] [--gpu] INPUT...",
               "prove one job of any proof kind (snarkjs, porep-c2, ...; --list) and verify it", cmd_prove)
