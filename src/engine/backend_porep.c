/*
 * backend_porep.c — the PoRep C2 backend of the engine and the router that puts it beside the
 * snarkjs backend (backend_porep.h).
 *
 * Memory sizes from the .params counts (n_ic inputs with ONE, n_l aux, n_h = m − 1, n_a, n_b_g1,
 * n_b_g2), upper bounds in bytes:
 *   key        = G1 points (n_ic + n_h + n_l + n_a + n_b_g1) · sizeof(g1_affine_t) + n_b_g2 ·
 *                sizeof(g2_affine_t) + the .csr file (mapped; or the params file size again as the
 *                in-memory recording's estimate when there is no .csr); load transient = the
 *                .params file (mapped while decoding);
 *   part_peak  = witness 32·n_w, the prover's a, b, c and H work (4·32·m; the constraint check
 *                runs on these, no extra vectors), its plain and compacted A/B scalars (3·32·n_w
 *                at most) and density marks (2·n_w), + 64 MiB of MSM scratch;
 *   pending    = the B query's plain scalars 32·n_b_g2 + 1 MiB.
 */
#include "engine/backend_porep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "circuits/csr_file.h"
#include "circuits/filecoin/porep_c2.h"
#include "circuits/filecoin/porep_circuit.h"
#include "filecoin/c1_json.h"
#include "filecoin/param_names.h"
#include "filecoin/sizes.h"
#include "groth16/params.h"
#include "groth16/proof_bytes.h"
#include "groth16/prover.h"
#include "groth16/prover_bellperson.h"
#include "groth16/verifier.h"
#include "util/file.h"

#define POREP_INLINE_NAME "inline C1"

typedef struct {
    pm_porep_backend_opts o;
    uint64_t seed;
} porep_self;

typedef struct {
    uint64_t sector_size;
    pm_porep_shape s;
    bp_params_t p;
    pm_csr_t f;
    r1cs_t mem;
    const r1cs_t *cs;
    groth16_vk_t vk; /* from the .vk (or the params' vk) */
} porep_key;

typedef struct {
    uint32_t part;
    fr_t *w;
    size_t n_w;
    fr_t *x; /* derived public inputs (ONE excluded), n_x */
    size_t n_x;
    char c1[512]; /* the C1's path, named by gpu_start's errors (pm_error.file's size) */
} porep_prepared;

typedef struct {
    uint32_t part;
    groth16_bp_pending_t pd;
    fr_t *x;
    size_t n_x;
} porep_pending;

typedef struct {
    uint32_t part;
    uint8_t bytes[192];
    fr_t *x;
    size_t n_x;
} porep_proof;

/* ---------------------------------------------------------------- key path helpers */

static int ends_with(const char *s, const char *suf) {
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* sector size whose stem is the basename of key_path without ".params"; 0 when none */
static uint64_t size_of_key(const char *key_path) {
    const char *base = strrchr(key_path, '/');
    base = base ? base + 1 : key_path;
    size_t n = 0;
    const fil_sector_info_t *t = fil_sector_infos(&n);
    for (size_t i = 0; i < n; i++) {
        char stem[256];
        pm_error e;
        if (fil_porep_param_stem(stem, sizeof stem, t[i].sector_size, &e)) continue;
        size_t sl = strlen(stem);
        if (!strncmp(base, stem, sl) && !strcmp(base + sl, ".params")) return t[i].sector_size;
    }
    return 0;
}

/* key_path with ".params" replaced by ext */
static int sibling(char *out, size_t cap, const char *key_path, const char *ext) {
    size_t n = strlen(key_path) - strlen(".params");
    return snprintf(out, cap, "%.*s%s", (int)n, key_path, ext) < (int)cap ? 0 : -1;
}

/* The C1 of a PoRep job input: a file (PM_INPUT_POREP_C1_PATH) or its bytes inline
 * (PM_INPUT_POREP_C1_BYTES, named "inline C1" in errors); JSON or the lotus-bench envelope. */
static pm_status read_c1(fil_c1_t *c1, const pm_input *in, pm_error *err) {
    memset(c1, 0, sizeof *c1);
    if (in->kind == PM_INPUT_POREP_C1_PATH && in->path)
        return fil_c1_read_file(c1, NULL, in->path, FIL_C1_READER_DEFAULT, err);
    if (in->kind == PM_INPUT_POREP_C1_BYTES && in->bytes)
        return fil_c1_read_bytes(c1, NULL, (const char *)in->bytes, in->len, POREP_INLINE_NAME,
                                 FIL_C1_READER_DEFAULT, err);
    return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "a PoRep job takes exactly one C1 input (a path or bytes)");
}

static int is_c1_input(const pm_input *in, size_t n_in) {
    return n_in == 1 && ((in[0].kind == PM_INPUT_POREP_C1_PATH && in[0].path) ||
                         (in[0].kind == PM_INPUT_POREP_C1_BYTES && in[0].bytes));
}

pm_status pm_porep_key_for_size(char *out, size_t cap, const char *params_dir, uint64_t sector_size, pm_error *err) {
    char stem[256];
    pm_status st = fil_porep_param_stem(stem, sizeof stem, sector_size, err);
    if (st) return st;
    if (snprintf(out, cap, "%s/%s.params", params_dir, stem) >= (int)cap)
        return pm_error_set(err, PM_ERR_ARG, params_dir, PM_NO_OFFSET, "parameter path too long");
    return PM_OK;
}

pm_status pm_porep_input_key(char *out, size_t cap, const char *params_dir, const pm_input *in, pm_error *err) {
    fil_c1_t c1;
    pm_status st = read_c1(&c1, in, err);
    if (st) return st;
    uint64_t size = c1.sector_size;
    fil_c1_free(&c1);
    return pm_porep_key_for_size(out, cap, params_dir, size, err);
}

pm_status pm_porep_job_key(char *out, size_t cap, const char *params_dir, const char *c1_path, pm_error *err) {
    pm_input in = {.kind = PM_INPUT_POREP_C1_PATH, .path = c1_path};
    return pm_porep_input_key(out, cap, params_dir, &in, err);
}

/* The counts of a .params file without decoding points: n_ic, n_h, n_l, n_a, n_b_g1, n_b_g2. */
static pm_status params_counts(uint64_t cnt[6], uint64_t *file_size, const char *path, pm_error *err) {
    pm_file f;
    pm_status st = pm_file_open(&f, path, err);
    if (st) return st;
    *file_size = f.size;
    uint64_t off = params_vk_size(0) - 4; /* n_ic sits after the six vk points */
    for (int i = 0; i < 6; i++) {
        if (off + 4 > f.size) {
            st = pm_error_set(err, PM_ERR_FORMAT, path, off, "truncated: count %d missing", i);
            break;
        }
        const uint8_t *b = f.data + off;
        cnt[i] = (uint64_t)b[0] << 24 | (uint64_t)b[1] << 16 | (uint64_t)b[2] << 8 | b[3];
        off = i == 0 ? params_vk_size(cnt[0]) : off + 4 + cnt[i] * (i == 5 ? 192 : 96);
    }
    if (!st && off != f.size)
        st = pm_error_set(err, PM_ERR_FORMAT, path, off, "file size %llu differs from its counts",
                          (unsigned long long)f.size);
    pm_file_close(&f);
    return st;
}

/* ---------------------------------------------------------------- stages */

static pm_status pr_plan(void *self, const char *key_path, const pm_input *in, size_t n_in, pm_job_plan *plan,
                         pm_error *err) {
    (void)self;
    memset(plan, 0, sizeof *plan);
    if (!is_c1_input(in, n_in))
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "a PoRep job takes exactly one C1 input (a path or bytes)");
    if (!ends_with(key_path, ".params"))
        return pm_error_set(err, PM_ERR_ARG, key_path, PM_NO_OFFSET,
                            "a PoRep key is a Filecoin .params file (DIR/<stem>.params)");
    const char *c1name = in[0].kind == PM_INPUT_POREP_C1_PATH ? in[0].path : POREP_INLINE_NAME;
    fil_c1_t c1;
    pm_status st = read_c1(&c1, &in[0], err);
    if (st) return st;
    uint64_t ksize = size_of_key(key_path);
    char stem[256];
    uint32_t parts = c1.partitions, C = c1.challenges;
    uint64_t c1size = c1.sector_size;
    fil_c1_free(&c1);
    pm_porep_shape s;
    if ((st = fil_porep_param_stem(stem, sizeof stem, c1size, err)) ||
        (st = pm_porep_shape_for_size(&s, c1size, err)))
        return st;
    if (ksize != c1size)
        return pm_error_set(err, PM_ERR_MISMATCH, key_path, PM_NO_OFFSET,
                            "the C1 %s is for %llu-byte sectors (parameters %s.params), these parameters for %llu",
                            c1name, (unsigned long long)c1size, stem, (unsigned long long)ksize);
    if (C != s.challenges)
        return pm_error_set(err, PM_ERR_MISMATCH, c1name, PM_NO_OFFSET, "C1 has %u challenges, circuit %u", C,
                            s.challenges);
    uint64_t cnt[6], fsz;
    if ((st = params_counts(cnt, &fsz, key_path, err))) {
        if (st == PM_ERR_IO) {
            char why[200];
            snprintf(why, sizeof why, "%.190s", err->msg);
            pm_error_set(err, PM_ERR_IO, key_path, PM_NO_OFFSET,
                         "no parameters for %llu-byte sectors here (proofmill porep params-setup makes them): %s",
                         (unsigned long long)c1size, why);
        }
        return st;
    }
    if (cnt[0] != 3 + 18 * (uint64_t)C + 1)
        return pm_error_set(err, PM_ERR_MISMATCH, key_path, PM_NO_OFFSET,
                            "parameters have %llu public inputs (with ONE), the %llu-byte circuit %u",
                            (unsigned long long)cnt[0], (unsigned long long)c1size, 3 + 18 * C + 1);
    char csr[4096];
    uint64_t csr_bytes = fsz;
    if (!sibling(csr, sizeof csr, key_path, ".csr")) {
        pm_file f;
        pm_error e;
        if (!pm_file_open(&f, csr, &e)) {
            csr_bytes = f.size;
            pm_file_close(&f);
        }
    }
    uint64_t n_w = cnt[0] + cnt[2], m = cnt[1] + 1;
    plan->n_partitions = parts;
    plan->key_bytes = (cnt[0] + cnt[1] + cnt[2] + cnt[3] + cnt[4]) * sizeof(g1_affine_t) +
                      cnt[5] * sizeof(g2_affine_t) + csr_bytes;
    plan->key_load_bytes = fsz;
    plan->part_peak_bytes = 32 * (4 * n_w + 4 * m) + 2 * n_w + (64ull << 20); /* + the density marks */
    plan->part_pending_bytes = 32 * cnt[5] + (1ull << 20);
    return PM_OK;
}

static void pr_free_key(void *self, void *k) {
    (void)self;
    porep_key *key = k;
    if (!key) return;
    params_free(&key->p);
    pm_csr_close(&key->f);
    r1cs_free(&key->mem);
    groth16_vk_free(&key->vk);
    free(key);
}

static pm_status pr_load_key(void *self, const char *key_path, void **out, uint64_t *resident, pm_error *err) {
    (void)self;
    *out = NULL;
    porep_key *k = calloc(1, sizeof *k);
    if (!k) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "key");
    pm_status st = PM_OK;
    k->sector_size = size_of_key(key_path);
    if (!k->sector_size)
        st = pm_error_set(err, PM_ERR_ARG, key_path, PM_NO_OFFSET, "not a Filecoin PoRep parameter file name");
    if (!st) st = pm_porep_shape_for_size(&k->s, k->sector_size, err);
    if (!st) st = params_read(&k->p, key_path, 0, err);
    char path[4096];
    if (!st && !sibling(path, sizeof path, key_path, ".csr") && access(path, R_OK) == 0) {
        size_t n_w;
        uint32_t nin;
        st = pm_porep_witness_len(&n_w, &nin, &k->s, err);
        if (!st) st = pm_csr_open(&k->f, path, err);
        if (!st) st = pm_csr_expect(&k->f, path, k->sector_size, n_w, nin, err);
        if (!st) k->cs = &k->f.cs;
    } else if (!st) {
        uint32_t nin;
        st = pm_porep_record(&k->mem, &nin, &k->s, err);
        if (!st) k->cs = &k->mem;
    }
    uint64_t bytes = 0;
    if (!st) {
        bp_vk_t vk = {0};
        if (!sibling(path, sizeof path, key_path, ".vk") && access(path, R_OK) == 0) {
            st = params_vk_read(&vk, path, 0, err);
            if (!st) st = params_vk_to_groth16_vk(&k->vk, &vk, err);
            params_vk_free(&vk);
        } else {
            st = params_vk_to_groth16_vk(&k->vk, &k->p.vk, err);
        }
    }
    if (!st) {
        bytes = (k->p.vk.n_ic + k->p.n_h + k->p.n_l + k->p.n_a + k->p.n_b_g1) * sizeof(g1_affine_t) +
                k->p.n_b_g2 * sizeof(g2_affine_t) + (k->f.map ? k->f.map_len : 0) +
                (uint64_t)(k->mem.A.nnz + k->mem.B.nnz + k->mem.C.nnz) * 8 + /* col + coefficient index */
                (k->mem.coef_tab_owned ? (uint64_t)k->mem.A.n_coef_tab * 32 : 0) +
                (k->f.map ? 0 : 3ull * ((uint64_t)k->mem.n_constraints + 1) * 8); /* row pointers */
        if (k->cs->n_wires != k->p.vk.n_ic + k->p.n_l)
            st = pm_error_set(err, PM_ERR_MISMATCH, key_path, PM_NO_OFFSET,
                              "parameters have %zu wires, the recorded circuit %u", k->p.vk.n_ic + k->p.n_l,
                              k->cs->n_wires);
    }
    if (st) {
        pr_free_key(NULL, k);
        return st;
    }
    *out = k;
    *resident = bytes;
    return PM_OK;
}

static void prep_free(porep_prepared *p) {
    if (!p) return;
    free(p->w);
    free(p->x);
    free(p);
}

static pm_status pr_synthesize(void *self, const void *kv, const pm_input *in, size_t n_in, uint32_t part,
                               void **out, pm_error *err) {
    porep_self *me = self;
    const porep_key *k = kv;
    *out = NULL;
    if (!is_c1_input(in, n_in))
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "a PoRep job takes exactly one C1 input (a path or bytes)");
    const char *c1name = in[0].kind == PM_INPUT_POREP_C1_PATH ? in[0].path : POREP_INLINE_NAME;
    fil_c1_t c1;
    pm_status st = read_c1(&c1, &in[0], err);
    if (st) return st;
    porep_prepared *p = calloc(1, sizeof *p);
    uint32_t n_inputs = 0;
    if (!p) st = pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "prepared");
    else if (c1.sector_size != k->sector_size)
        st = pm_error_set(err, PM_ERR_MISMATCH, c1name, PM_NO_OFFSET, "C1 sector size %llu, parameters %llu",
                          (unsigned long long)c1.sector_size, (unsigned long long)k->sector_size);
    else if (part >= c1.partitions)
        st = pm_error_set(err, PM_ERR_ARG, c1name, PM_NO_OFFSET, "partition %u of %u", part, c1.partitions);
    if (!st) {
        p->part = part;
        snprintf(p->c1, sizeof p->c1, "%s", c1name);
        st = pm_porep_witness_mt(&p->w, &p->n_w, &n_inputs, &k->s, &c1, part, me->o.witness_threads, err);
    }
    if (!st && p->n_w != k->cs->n_wires)
        st = pm_error_set(err, PM_ERR_MISMATCH, c1name, PM_NO_OFFSET,
                          "witness has %zu values, the recorded circuit %u wires", p->n_w, k->cs->n_wires);
    /* every constraint is checked in the start phase, on the prover's a, b, c (no separate pass
     * over the matrices here: at 32 GiB that pass costs as much as the SpMV itself) */
    if (!st) { /* the verifier's public inputs, derived from the C1's commitments + graph */
        p->n_x = n_inputs - 1;
        p->x = malloc(sizeof(fr_t) * (p->n_x ? p->n_x : 1));
        if (!p->x) st = pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "public inputs");
        else st = pm_porep_public_inputs(p->x, p->n_x, &c1, part, err);
        for (size_t j = 0; !st && j < p->n_x; j++)
            if (!fr_eq(&p->x[j], &p->w[1 + j]))
                st = pm_error_set(err, PM_ERR_MISMATCH, c1name, PM_NO_OFFSET,
                                  "partition %u: public input %zu from the vanilla proofs differs from the one "
                                  "derived from replica_id/seed/graph",
                                  part, j + 1);
    }
    fil_c1_free(&c1);
    if (st) {
        prep_free(p);
        return st;
    }
    *out = p;
    return PM_OK;
}

static pm_status pr_gpu_start(void *self, const void *kv, void *pv, pm_gpu_slot *slot, void **out, pm_error *err) {
    porep_self *me = self;
    const porep_key *k = kv;
    porep_prepared *p = pv;
    *out = NULL;
    porep_pending *q = calloc(1, sizeof *q);
    if (!q) {
        prep_free(p);
        return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "pending");
    }
    pm_gpu_slot_enter(slot);
    pm_status st = groth16_prove_bellperson_start(&q->pd, &k->p, k->cs, p->w, p->n_w, me->o.start_threads, err);
    pm_gpu_slot_leave(slot);
    if (st == PM_ERR_UNSATISFIED) {
        char msg[400];
        if (q->pd.first_bad != UINT32_MAX) pm_porep_unsatisfied(err, &k->s, q->pd.first_bad, k->cs->n_constraints);
        snprintf(msg, sizeof msg, "%.380s", err->msg);
        pm_error_set(err, PM_ERR_UNSATISFIED, p->c1, PM_NO_OFFSET, "partition %u: %s", p->part, msg);
    }
    q->part = p->part;
    q->x = p->x, q->n_x = p->n_x;
    p->x = NULL;
    prep_free(p);
    if (st) {
        free(q->x);
        free(q);
        return st;
    }
    *out = q;
    return PM_OK;
}

static void pend_free(porep_pending *q) {
    if (!q) return;
    groth16_bp_pending_free(&q->pd);
    free(q->x);
    free(q);
}

static pm_status pr_finalize(void *self, const void *kv, void *qv, void **out, pm_error *err) {
    porep_self *me = self;
    (void)kv;
    porep_pending *q = qv;
    *out = NULL;
    fr_t r, s;
    pm_status st = PM_OK;
    if (me->o.seed) groth16_seeded_scalars(&r, &s, me->seed + q->part);
    else if (!(st = groth16_random_scalar(&r, err))) st = groth16_random_scalar(&s, err);
    groth16_proof_t pr;
    if (!st) st = groth16_prove_bellperson_finalize(&pr, &q->pd, &r, &s, err);
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    porep_proof *o = NULL;
    if (!st && !(o = calloc(1, sizeof *o))) st = pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "proof");
    if (!st) {
        groth16_proof_to_bytes(o->bytes, &pr);
        o->part = q->part;
        o->x = q->x, o->n_x = q->n_x;
        q->x = NULL;
        *out = o;
    }
    pend_free(q);
    return st;
}

static pm_status pr_verify(void *self, const void *kv, const void *ov, pm_error *err) {
    (void)self;
    const porep_key *k = kv;
    const porep_proof *o = ov;
    groth16_proof_t pr;
    pm_status st = groth16_proof_from_bytes(&pr, o->bytes, "proof", 192 * (uint64_t)o->part, err);
    if (st) return st;
    if (k->vk.n_public != o->n_x)
        return pm_error_set(err, PM_ERR_MISMATCH, "vk", PM_NO_OFFSET, "vk has %zu public inputs, the circuit %zu",
                            k->vk.n_public, o->n_x);
    int valid = 0;
    st = groth16_verify(&valid, &k->vk, o->x, o->n_x, &pr, NULL, NULL, err);
    if (!st && !valid)
        st = pm_error_set(err, PM_ERR_INTERNAL, NULL, PM_NO_OFFSET, "partition %u: the proof does not verify with the .vk",
                          o->part);
    return st;
}

static char *pr_proof_json(void *self, const void *ov) {
    (void)self;
    const porep_proof *o = ov;
    static const char hx[] = "0123456789abcdef";
    char *s = malloc(64 + 2 * 192);
    if (!s) return NULL;
    int n = sprintf(s, "{\"partition\":%u,\"proof\":\"", o->part);
    for (int i = 0; i < 192; i++) {
        s[n++] = hx[o->bytes[i] >> 4];
        s[n++] = hx[o->bytes[i] & 15];
    }
    strcpy(s + n, "\"}");
    return s;
}

static void pr_free_prepared(void *self, void *p) {
    (void)self;
    prep_free(p);
}
static void pr_free_pending(void *self, void *q) {
    (void)self;
    pend_free(q);
}
static void pr_free_proof(void *self, void *o) {
    (void)self;
    porep_proof *p = o;
    if (p) free(p->x);
    free(p);
}
static void pr_destroy(void *self) { free(self); }

pm_status pm_backend_porep(pm_backend *be, const pm_porep_backend_opts *opts, pm_error *err) {
    memset(be, 0, sizeof *be);
    porep_self *me = calloc(1, sizeof *me);
    if (!me) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "backend");
    if (opts) me->o = *opts;
    if (opts && opts->seed) {
        me->seed = *opts->seed;
        me->o.seed = &me->seed;
    }
    be->name = "porep-cpu";
    be->self = me;
    be->plan = pr_plan;
    be->load_key = pr_load_key;
    be->free_key = pr_free_key;
    be->synthesize = pr_synthesize;
    be->gpu_start = pr_gpu_start;
    be->finalize = pr_finalize;
    be->verify = pr_verify;
    be->proof_json = pr_proof_json;
    be->free_prepared = pr_free_prepared;
    be->free_pending = pr_free_pending;
    be->free_proof = pr_free_proof;
    be->destroy = pr_destroy;
    return PM_OK;
}

/* ---------------------------------------------------------------- router */

typedef struct {
    pm_backend be[2]; /* 0: the wrapped backend, 1: PoRep */
} mux_self;

typedef struct {
    int which;
    void *o;
} mux_obj;

static int mux_which(const char *key_path, const pm_input *in, size_t n_in) {
    if (key_path && ends_with(key_path, ".params")) return 1;
    for (size_t i = 0; i < n_in; i++)
        if (in[i].kind == PM_INPUT_POREP_C1_PATH || in[i].kind == PM_INPUT_POREP_C1_BYTES) return 1;
    return 0;
}

static mux_obj *wrap(int which, void *o) {
    mux_obj *m = malloc(sizeof *m);
    if (m) m->which = which, m->o = o;
    return m;
}

static pm_status mux_plan(void *self, const char *key_path, const pm_input *in, size_t n_in, pm_job_plan *plan,
                          pm_error *err) {
    mux_self *m = self;
    pm_backend *b = &m->be[mux_which(key_path, in, n_in)];
    return b->plan(b->self, key_path, in, n_in, plan, err);
}

static pm_status mux_load_key(void *self, const char *key_path, void **key, uint64_t *res, pm_error *err) {
    mux_self *m = self;
    int w = mux_which(key_path, NULL, 0);
    void *k = NULL;
    *key = NULL;
    pm_status st = m->be[w].load_key(m->be[w].self, key_path, &k, res, err);
    if (st) return st;
    mux_obj *o = wrap(w, k);
    if (!o) {
        m->be[w].free_key(m->be[w].self, k);
        return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "key");
    }
    *key = o;
    return PM_OK;
}

static void mux_free_key(void *self, void *key) {
    mux_self *m = self;
    mux_obj *o = key;
    if (!o) return;
    m->be[o->which].free_key(m->be[o->which].self, o->o);
    free(o);
}

static pm_status mux_synthesize(void *self, const void *key, const pm_input *in, size_t n_in, uint32_t part,
                                void **prepared, pm_error *err) {
    mux_self *m = self;
    const mux_obj *k = key;
    pm_backend *b = &m->be[k->which];
    void *p = NULL;
    *prepared = NULL;
    pm_status st = b->synthesize(b->self, k->o, in, n_in, part, &p, err);
    if (st) return st;
    mux_obj *o = wrap(k->which, p);
    if (!o) {
        b->free_prepared(b->self, p);
        return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "prepared");
    }
    *prepared = o;
    return PM_OK;
}

static pm_status mux_gpu_start(void *self, const void *key, void *prepared, pm_gpu_slot *slot, void **pending,
                               pm_error *err) {
    mux_self *m = self;
    const mux_obj *k = key;
    mux_obj *p = prepared;
    pm_backend *b = &m->be[k->which];
    void *q = NULL;
    *pending = NULL;
    pm_status st = b->gpu_start(b->self, k->o, p->o, slot, &q, err);
    free(p);
    if (st) return st;
    mux_obj *o = wrap(k->which, q);
    if (!o) {
        b->free_pending(b->self, q);
        return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "pending");
    }
    *pending = o;
    return PM_OK;
}

static pm_status mux_finalize(void *self, const void *key, void *pending, void **proof, pm_error *err) {
    mux_self *m = self;
    const mux_obj *k = key;
    mux_obj *q = pending;
    pm_backend *b = &m->be[k->which];
    void *pr = NULL;
    *proof = NULL;
    pm_status st = b->finalize(b->self, k->o, q->o, &pr, err);
    free(q);
    if (st) return st;
    mux_obj *o = wrap(k->which, pr);
    if (!o) {
        b->free_proof(b->self, pr);
        return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "proof");
    }
    *proof = o;
    return PM_OK;
}

static pm_status mux_verify(void *self, const void *key, const void *proof, pm_error *err) {
    mux_self *m = self;
    const mux_obj *k = key, *o = proof;
    return m->be[k->which].verify(m->be[k->which].self, k->o, o->o, err);
}

static char *mux_proof_json(void *self, const void *proof) {
    mux_self *m = self;
    const mux_obj *o = proof;
    return m->be[o->which].proof_json(m->be[o->which].self, o->o);
}

#define MUX_FREE(fn, field)                                  \
    static void fn(void *self, void *obj) {                  \
        mux_self *m = self;                                  \
        mux_obj *o = obj;                                    \
        if (!o) return;                                      \
        m->be[o->which].field(m->be[o->which].self, o->o);   \
        free(o);                                             \
    }
MUX_FREE(mux_free_prepared, free_prepared)
MUX_FREE(mux_free_pending, free_pending)
MUX_FREE(mux_free_proof, free_proof)

static void mux_destroy(void *self) {
    mux_self *m = self;
    if (!m) return;
    for (int i = 0; i < 2; i++)
        if (m->be[i].destroy) m->be[i].destroy(m->be[i].self);
    free(m);
}

pm_status pm_backend_porep_mux(pm_backend *be, const pm_backend *other, const pm_porep_backend_opts *opts,
                               pm_error *err) {
    mux_self *m = calloc(1, sizeof *m);
    if (!m) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "backend");
    pm_status st = pm_backend_porep(&m->be[1], opts, err);
    if (st) {
        free(m);
        return st;
    }
    m->be[0] = *other;
    memset(be, 0, sizeof *be);
    be->name = other->name; /* the default front end's name; PoRep jobs are routed by key */
    be->self = m;
    be->plan = mux_plan;
    be->load_key = mux_load_key;
    be->free_key = mux_free_key;
    be->synthesize = mux_synthesize;
    be->gpu_start = mux_gpu_start;
    be->finalize = mux_finalize;
    be->verify = mux_verify;
    be->proof_json = mux_proof_json;
    be->free_prepared = mux_free_prepared;
    be->free_pending = mux_free_pending;
    be->free_proof = mux_free_proof;
    be->destroy = mux_destroy;
    return PM_OK;
}
