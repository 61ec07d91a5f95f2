/*
 * toy.c — a proof kind used only by tests, "toy-cube": everything a kind is, in one folder and one
 * registration line, to show that the engine, the driver, the daemon and the CLI serve a new kind
 * unchanged (src/kinds/README of docs/CONTRIBUTING.md: "Adding a proof kind").
 *
 * The circuit (bellperson convention, recorded with circuits/cs.h): public input y, aux x, x2, x3;
 * x·x = x2, x2·x = x3, (x3 + x + 5)·1 = y — "I know x with x³ + x + 5 = y".
 * A job's main input "toy" (a file or inline bytes) is text, one partition per line: "x y" (decimal
 * < 2^64), y the claimed output. Its further input "tamper" (optional: more_inputs) lists partitions
 * whose witness carries a wrong x3 (a constraint fails: named "toy: the cube x2 * x = x3"). The
 * witness computes y from x; the verifier's public input is the claimed y, so a false claim is
 * PM_ERR_MISMATCH before anything is proved.
 * Keys: DIR/toy-cube.params (+ .vk) from a parameter directory; the circuit is DIR/toy-cube.csr when
 * present, else recorded in memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/cs.h"
#include "kinds/kind.h"

#define TOY_MAX 64

typedef struct {
    uint32_t n;
    uint64_t x[TOY_MAX], y[TOY_MAX];
    int tamper[TOY_MAX];
} toy_job;

/* the text of input in (a file or inline bytes, at most 4 KiB), NUL-terminated; NULL when out of memory */
static char *toy_text(const pm_input *in, pm_error *err) {
    char *text = calloc(1, 4097);
    if (!text) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory"), NULL;
    if (in->kind == PM_INPUT_PATH) {
        FILE *f = fopen(in->path, "rb");
        if (!f) {
            free(text);
            pm_error_set(err, PM_ERR_IO, in->path, PM_NO_OFFSET, "cannot open");
            return NULL;
        }
        if (fread(text, 1, 4096, f)) {}
        fclose(f);
    } else {
        memcpy(text, in->bytes, in->len < 4096 ? in->len : 4096);
    }
    return text;
}

static pm_status toy_open_job(void **out, const pm_input *in, size_t n_in, pm_error *err) {
    *out = NULL;
    const pm_input *main = NULL, *tamper = pm_input_find(in, n_in, "tamper");
    for (size_t i = 0; i < n_in && !main; i++)
        if (!in[i].name || !strcmp(in[i].name, "toy")) main = &in[i];
    toy_job *j = calloc(1, sizeof *j);
    if (!j) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    char *text = toy_text(main, err);
    if (!text) {
        free(j);
        return err->code;
    }
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line && j->n < TOY_MAX;
         line = strtok_r(NULL, "\n", &save)) {
        unsigned long long x, y;
        if (sscanf(line, "%llu %llu", &x, &y) < 2) continue;
        j->x[j->n] = x, j->y[j->n] = y;
        j->n++;
    }
    free(text);
    if (!j->n) {
        free(j);
        return pm_error_set(err, PM_ERR_FORMAT, main->kind == PM_INPUT_PATH ? main->path : "inputs[0]", PM_NO_OFFSET,
                            "no \"x y\" line");
    }
    if (tamper) { /* the further input: partitions whose witness is tampered with */
        if (!(text = toy_text(tamper, err))) {
            free(j);
            return err->code;
        }
        unsigned k;
        int used = 0;
        for (char *p = text; sscanf(p, "%u%n", &k, &used) == 1; p += used)
            if (k < j->n) j->tamper[k] = 1;
        free(text);
    }
    *out = j;
    return PM_OK;
}

static void toy_close_job(void *job) { free(job); }
static uint32_t toy_partitions(const void *job) { return ((const toy_job *)job)->n; }

static pm_status toy_key_path(char *out, size_t cap, const char *dir, const void *job, pm_error *err) {
    (void)job;
    if (snprintf(out, cap, "%s/toy-cube.params", dir) >= (int)cap)
        return pm_error_set(err, PM_ERR_ARG, dir, PM_NO_OFFSET, "path too long");
    return PM_OK;
}

static pm_status toy_open_key(void **id, const char *path, pm_error *err) {
    size_t n = strlen(path);
    *id = NULL;
    if (n < 15 || strcmp(path + n - 15, "toy-cube.params"))
        return pm_error_set(err, PM_ERR_ARG, path, PM_NO_OFFSET, "not a toy-cube.params");
    return PM_OK;
}

static pm_status toy_check_job(const void *id, const char *key_path, const pm_key_shape *shape, const void *job,
                               pm_error *err) {
    (void)id;
    (void)job;
    if (shape->n_public != 1)
        return pm_error_set(err, PM_ERR_MISMATCH, key_path, PM_NO_OFFSET, "%zu public inputs, the toy has 1",
                            shape->n_public);
    return PM_OK;
}

/* the circuit, recorded (job NULL) or with the witness of (x, tamper) */
static pm_status toy_synth(r1cs_t *rec, fr_t **w, size_t *n_w, uint64_t xv, int tamper, pm_error *err) {
    pm_cs cs;
    pm_cs_init(&cs, rec ? PM_CS_RECORD : PM_CS_WITNESS);
    fr_t x, x2, x3, y, five;
    fr_from_u64(&x, xv);
    fr_mul(&x2, &x, &x);
    fr_mul(&x3, &x2, &x);
    fr_from_u64(&five, 5);
    fr_add(&y, &x3, &x);
    fr_add(&y, &y, &five);
    if (tamper) fr_add(&x3, &x3, &FR_ONE); /* y stays right: the cube's row fails first */
    pm_var vy = pm_cs_alloc_input(&cs, &y), vx = pm_cs_alloc(&cs, &x), v2 = pm_cs_alloc(&cs, &x2),
           v3 = pm_cs_alloc(&cs, &x3);
    PM_LC_STACK(a, 4);
    PM_LC_STACK(b, 4);
    PM_LC_STACK(c, 4);
    if (pm_cs_recording(&cs)) {
        pm_lc_push(&a, vx, &FR_ONE), pm_lc_push(&b, vx, &FR_ONE), pm_lc_push(&c, v2, &FR_ONE);
    }
    pm_cs_enforce(&cs, &a, &b, &c);
    pm_lc_clear(&a), pm_lc_clear(&b), pm_lc_clear(&c);
    if (pm_cs_recording(&cs)) {
        pm_lc_push(&a, v2, &FR_ONE), pm_lc_push(&b, vx, &FR_ONE), pm_lc_push(&c, v3, &FR_ONE);
    }
    pm_cs_enforce(&cs, &a, &b, &c);
    pm_lc_clear(&a), pm_lc_clear(&b), pm_lc_clear(&c);
    if (pm_cs_recording(&cs)) {
        pm_lc_push(&a, v3, &FR_ONE), pm_lc_push(&a, vx, &FR_ONE), pm_lc_push(&a, PM_VAR_ONE, &five);
        pm_lc_push(&b, PM_VAR_ONE, &FR_ONE), pm_lc_push(&c, vy, &FR_ONE);
    }
    pm_cs_enforce(&cs, &a, &b, &c);
    pm_status st = pm_cs_finish(&cs, rec, w, err);
    if (!st && n_w) *n_w = (size_t)cs.n_inputs + cs.n_aux;
    pm_cs_free(&cs);
    return st;
}

static pm_status toy_record(r1cs_t *out, uint32_t *n_inputs, const void *ctx, pm_error *err) {
    (void)ctx;
    *n_inputs = 2;
    return toy_synth(out, NULL, NULL, 0, 0, err);
}

static pm_status toy_circuit(pm_circuit *c, uint64_t *bytes, const void *id, const char *key_path, const char *csr,
                             pm_error *err) {
    (void)id;
    char path[4096];
    snprintf(path, sizeof path, "%.*s.csr", (int)(strlen(key_path) - 7), key_path);
    if (!c) {
        *bytes = 4096;
        return PM_OK;
    }
    pm_status st = pm_circuit_load_or_record(c, csr ? csr : path, csr != NULL, 0x70c0be, 5, 2, toy_record, NULL, err);
    if (!st && bytes) *bytes = pm_circuit_resident_bytes(c);
    return st;
}

static pm_status toy_witness(fr_t **w, size_t *n_w, const void *id, const void *job, uint32_t part, unsigned threads,
                             pm_error *err) {
    (void)id;
    (void)threads;
    const toy_job *j = job;
    if (part >= j->n) return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "partition %u of %u", part, j->n);
    return toy_synth(NULL, w, n_w, j->x[part], j->tamper[part], err);
}

static pm_status toy_public_inputs(fr_t *x, size_t n_x, const void *id, const void *job, uint32_t part, const fr_t *w,
                                   size_t n_w, pm_error *err) {
    (void)id;
    (void)n_w;
    const toy_job *j = job;
    if (n_x != 1) return pm_error_set(err, PM_ERR_MISMATCH, NULL, PM_NO_OFFSET, "%zu public inputs", n_x);
    fr_from_u64(&x[0], j->y[part]); /* what the verifier knows: the claimed y */
    if (!fr_eq(&x[0], &w[1]))
        return pm_error_set(err, PM_ERR_MISMATCH, "toy", PM_NO_OFFSET,
                            "partition %u: claimed y = %llu is not x^3 + x + 5 for x = %llu", part,
                            (unsigned long long)j->y[part], (unsigned long long)j->x[part]);
    return PM_OK;
}

static void toy_name_row(pm_error *err, const void *id, uint32_t row, uint32_t n_rows) {
    (void)id;
    static const char *const names[3] = {"the square x * x = x2", "the cube x2 * x = x3", "the output x3 + x + 5 = y"};
    pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET, "constraint %u of %u not satisfied (toy: %s)", row, n_rows,
                 row < 3 ? names[row] : "?");
}

static const char *const toy_more_inputs[] = {"tamper", NULL};

static const pm_kind toy_kind = {
    .name = "toy-cube",
    .summary = "tests only: x^3 + x + 5 = y, one partition per \"x y\" line",
    .conv = GROTH16_BELLPERSON,
    .input_name = "toy",
    .max_inputs = 1,
    .more_inputs = toy_more_inputs,
    .default_priority = "high", /* the daemon's default for toy jobs */
    .key_hint = "the test writes them",
    .open_job = toy_open_job,
    .close_job = toy_close_job,
    .partitions = toy_partitions,
    .key_path = toy_key_path,
    .open_key = toy_open_key,
    .check_job = toy_check_job,
    .circuit = toy_circuit,
    .witness = toy_witness,
    .public_inputs = toy_public_inputs,
    .name_row = toy_name_row,
};
PM_KIND_REGISTER(toy_kind)
