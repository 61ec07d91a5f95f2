/*
 * snarkjs.c — the proof kind "snarkjs": a circom circuit's snarkjs proving key (.zkey, BLS12-381)
 * and one witness (.wtns, a path or the file's bytes) per partition; the proof is snarkjs's
 * proof.json + public.json (GROTH16_SNARKJS, groth16/key.h). The public inputs are the witness's
 * own (w[1..nPublic]); the key names itself (no parameter directory).
 * Formats: ../shared/fixtures/FORMATS.md (.wtns, .zkey).
 */
#include <stdio.h>
#include <stdlib.h>

#include "kinds/kind.h"
#include "r1cs/wtns.h"

typedef struct {
    const pm_input *in; /* borrowed: the inputs outlive the job */
    size_t n;
} job_t;

static pm_status open_job(void **out, const pm_input *in, size_t n_in, pm_error *err) {
    *out = NULL;
    if (n_in == 0 || n_in > 4096)
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "a snarkjs job takes 1..4096 witnesses, not %zu", n_in);
    for (size_t i = 0; i < n_in; i++) {
        char name[64];
        snprintf(name, sizeof name, "inputs[%zu]", i);
        if (in[i].kind == PM_INPUT_PATH && (!in[i].path || !in[i].path[0]))
            return pm_error_set(err, PM_ERR_ARG, name, PM_NO_OFFSET, "empty witness path");
        if (in[i].kind == PM_INPUT_BYTES && (!in[i].bytes || !in[i].len))
            return pm_error_set(err, PM_ERR_ARG, name, PM_NO_OFFSET, "empty witness bytes");
        if (in[i].kind != PM_INPUT_PATH && in[i].kind != PM_INPUT_BYTES)
            return pm_error_set(err, PM_ERR_ARG, name, PM_NO_OFFSET, "input kind %d is not a path or bytes",
                                (int)in[i].kind);
    }
    job_t *j = malloc(sizeof *j);
    if (!j) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    j->in = in;
    j->n = n_in;
    *out = j;
    return PM_OK;
}

static void close_job(void *job) { free(job); }

static uint32_t partitions(const void *job) { return (uint32_t)((const job_t *)job)->n; }

/* every witness's header (curve, count) against the zkey's nVars */
static pm_status check_job(const void *id, const char *key_path, const pm_key_shape *shape, const void *job,
                           pm_error *err) {
    (void)id;
    (void)key_path;
    const job_t *j = job;
    for (size_t i = 0; i < j->n; i++) {
        const pm_input *in = &j->in[i];
        char name[64];
        const char *label = pm_input_label(name, sizeof name, in, i);
        uint32_t nw = 0;
        pm_status st = in->kind == PM_INPUT_PATH ? wtns_read_info(&nw, in->path, err)
                                                 : wtns_read_info_memory(&nw, in->bytes, in->len, label, err);
        if (st) return st;
        if (nw != shape->n_vars)
            return pm_error_set(err, PM_ERR_MISMATCH, label, PM_NO_OFFSET,
                                "witness has %u values, zkey expects nVars = %zu (a witness for another circuit?)", nw,
                                shape->n_vars);
    }
    return PM_OK;
}

static pm_status witness(fr_t **w, size_t *n_w, const void *id, const void *job, uint32_t part, unsigned threads,
                         pm_error *err) {
    (void)id;
    (void)threads;
    const job_t *j = job;
    *w = NULL;
    *n_w = 0;
    if (part >= j->n) return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "no input for partition %u", part);
    const pm_input *in = &j->in[part];
    char name[64];
    const char *label = pm_input_label(name, sizeof name, in, part);
    wtns_t wt = {0};
    pm_status st = in->kind == PM_INPUT_PATH ? wtns_read(&wt, in->path, err)
                                             : wtns_read_memory(&wt, in->bytes, in->len, label, err);
    if (st) return st;
    *w = wt.values; /* the witness's array, owned by the caller from here */
    *n_w = wt.n_values;
    return PM_OK;
}

static const pm_kind snarkjs_kind = {
    .name = "snarkjs",
    .summary = "a circom circuit's snarkjs .zkey and one .wtns per partition; per partition snarkjs's proof.json and public.json objects (prove --out: one JSON array of {proof, public})",
    .conv = GROTH16_SNARKJS,
    .input_name = "wtns",
    .max_inputs = 4096,
    .open_job = open_job,
    .close_job = close_job,
    .partitions = partitions,
    .check_job = check_job,
    .witness = witness,
};
PM_KIND_REGISTER(snarkjs_kind)
