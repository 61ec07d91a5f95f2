/*
 * vanilla_kind.c — the glue the WinningPoSt, WindowPoSt and SnapDeals kinds share (vanilla_kind.h).
 */
#include "kinds/filecoin/vanilla_kind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "circuits/filecoin/post_circuit.h"
#include "circuits/filecoin/update_circuit.h"
#include "filecoin/sizes.h"
#include "kinds/shape.h"
#include "util/file.h"

const pm_fil_kind_desc pm_fil_winning_post = {"winning-post", "WinningPoSt", FIL_REQ_WINNING_POST,
                                              FIL_PARAM_WINNING_POST, FIL_POST_WINNING};
const pm_fil_kind_desc pm_fil_window_post = {"window-post", "WindowPoSt", FIL_REQ_WINDOW_POST_PARTITION,
                                             FIL_PARAM_WINDOW_POST, FIL_POST_WINDOW};
const pm_fil_kind_desc pm_fil_snapdeals = {"snapdeals", "SnapDeals", FIL_REQ_SNAP_DEALS_UPDATE,
                                           FIL_PARAM_EMPTY_SECTOR_UPDATE, 0};

/* the largest input files read: a vanilla proof (a 32 GiB WindowPoSt sector's is 25 KB, a SnapDeals
 * partition's 0.6 MB) and a field (a number's text or 32 bytes) */
#define MAX_VANILLA_BYTES PM_KIND_MAX_VANILLA_BYTES /* kinds/kind.h */
#define MAX_FIELD_BYTES 64u

/* ---------------------------------------------------------------- inputs <-> request */

/* the bytes of input in (a file read whole, or the inline bytes); *own = the buffer to free */
static pm_status input_bytes(const uint8_t **b, size_t *len, char **own, const pm_input *in, uint64_t max,
                             const char *label, pm_error *err) {
    *own = NULL;
    if (in->kind == PM_INPUT_BYTES) {
        if (in->len > max)
            return pm_error_set(err, PM_ERR_FORMAT, label, PM_NO_OFFSET, "%zu bytes, more than the %llu such an input has",
                                in->len, (unsigned long long)max);
        *b = in->bytes ? in->bytes : (const uint8_t *)"";
        *len = in->len;
        return PM_OK;
    }
    pm_status st = pm_file_read_all(own, len, in->path, max, 0, err);
    *b = (const uint8_t *)*own;
    return st;
}

/* the message's field (its first word) as one of the inputs: that input's label, else NULL */
static const char *field_label(char *buf, size_t cap, const char *msg, const pm_input *in, size_t n) {
    for (size_t i = 0; i < n; i++) {
        size_t k = in[i].name ? strlen(in[i].name) : 0;
        if (k && !strncmp(msg, in[i].name, k) && (msg[k] == ' ' || msg[k] == ':'))
            return pm_input_label(buf, cap, &in[i], i);
    }
    return NULL;
}

pm_status pm_fil_request_of_inputs(fil_proof_request_t *r, const pm_fil_kind_desc *d, const pm_input *in, size_t n,
                                   char (*labels)[512], pm_error *err) {
    memset(r, 0, sizeof *r);
    r->kind = d->req;
    int have_rp = 0;
    pm_status st = PM_OK;
    for (size_t i = 0; i < n && !st; i++) {
        char label[512], lb[512]; /* pm_input_label returns a path input's path, not its buffer */
        snprintf(label, sizeof label, "%s", pm_input_label(lb, sizeof lb, &in[i], i));
        int main = !in[i].name || !strcmp(in[i].name, PM_FIL_VANILLA);
        const uint8_t *b = NULL;
        size_t len = 0;
        char *own = NULL;
        if ((st = input_bytes(&b, &len, &own, &in[i], main ? MAX_VANILLA_BYTES : MAX_FIELD_BYTES, label, err))) break;
        if (main) {
            if (labels) snprintf(labels[r->n_vanilla], 512, "%s", label);
            st = fil_proof_request_add_vanilla(r, b, len, err);
        } else {
            st = fil_proof_request_set_field(r, in[i].name, b, len, label, err);
            have_rp |= !strcmp(in[i].name, "registered_proof");
        }
        free(own);
    }
    if (!st && !have_rp)
        st = pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET,
                          "a %s job needs its registered_proof (the numeric %s proof type Curio sends)", d->name,
                          d->post_type ? "RegisteredPoStProof" : "RegisteredUpdateProof");
    if (st) fil_proof_request_free(r);
    return st;
}

pm_status pm_fil_inputs_of_request(pm_input **in, size_t *n_in, uint8_t **store, const pm_kind *k,
                                   const fil_proof_request_t *r, pm_error *err) {
    *in = NULL;
    *n_in = 0;
    *store = NULL;
    pm_input *v = calloc(r->n_vanilla + FIL_REQUEST_FIELD_COUNT + 1, sizeof *v);
    uint8_t *s = malloc(32 * (size_t)FIL_REQUEST_FIELD_COUNT);
    if (!v || !s) {
        free(v);
        free(s);
        return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    }
    size_t n = 0;
    for (size_t i = 0; i < r->n_vanilla; i++)
        v[n++] = (pm_input){.kind = PM_INPUT_BYTES, .bytes = r->vanilla[i], .len = r->vanilla_len[i]};
    for (unsigned f = 0; f < FIL_REQUEST_FIELD_COUNT; f++) {
        const char *name = fil_proof_request_field_name(f);
        size_t len;
        for (const char *const *m = k->more_inputs; m && *m; m++)
            if (!strcmp(*m, name) && !fil_proof_request_get_field(s + 32 * f, 32, &len, r, name)) {
                v[n++] = (pm_input){.kind = PM_INPUT_BYTES, .bytes = s + 32 * f, .len = len, .name = *m};
                break;
            }
    }
    *in = v;
    *n_in = n;
    *store = s;
    return PM_OK;
}

/* ---------------------------------------------------------------- jobs */

pm_status pm_fil_open_job(void **out, const pm_fil_kind_desc *d, const pm_input *in, size_t n_in, pm_error *err) {
    *out = NULL;
    pm_fil_job *j = calloc(1, sizeof *j);
    char (*labels)[512] = calloc(n_in ? n_in : 1, sizeof *labels);
    if (!j || !labels) {
        free(j);
        free(labels);
        return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    }
    j->d = d;
    fil_proof_request_t r;
    pm_status st = pm_fil_request_of_inputs(&r, d, in, n_in, labels, err);
    if (!st) {
        snprintf(j->name, sizeof j->name, "%s", labels[0]);
        st = d->post_type ? fil_post_job_init(&j->post, d->post_type, &r, err) : fil_update_job_init(&j->upd, &r, err);
        if (st) { /* name the input: "vanilla_proofs[i]" is vanilla input i, "request" the field's input */
            unsigned i;
            char buf[512];
            const char *f = NULL;
            if (sscanf(err->file, "vanilla_proofs[%u]", &i) == 1 && i < r.n_vanilla) f = labels[i];
            else if (!strcmp(err->file, "request")) f = field_label(buf, sizeof buf, err->msg, in, n_in);
            else if (!err->file[0]) f = labels[0]; /* the job as a whole: its first vanilla proof */
            if (f || !strcmp(err->file, "request")) snprintf(err->file, sizeof err->file, "%s", f ? f : "");
        }
        fil_proof_request_free(&r);
    }
    free(labels);
    if (st) {
        free(j);
        return st;
    }
    j->sector_size = d->post_type ? j->post.cfg.sector_size : j->upd.cfg.sector_size;
    *out = j;
    return PM_OK;
}

void pm_fil_close_job(void *job) {
    pm_fil_job *j = job;
    if (!j) return;
    if (j->d->post_type) fil_post_job_free(&j->post);
    else fil_update_job_free(&j->upd);
    free(j);
}

uint32_t pm_fil_partitions(const void *job) {
    const pm_fil_job *j = job;
    return j->d->post_type ? pm_post_partitions(&j->post) : pm_update_partitions(&j->upd);
}

/* ---------------------------------------------------------------- keys */

pm_status pm_fil_key_for_size(pm_fil_key *k, const pm_fil_kind_desc *d, uint64_t sector_size, pm_error *err) {
    memset(k, 0, sizeof *k);
    k->d = d;
    k->sector_size = sector_size;
    pm_status st = d->post_type ? fil_post_config_for(&k->pc, d->post_type, sector_size,
                                                      d->post_type == FIL_POST_WINNING ? FIL_API_V1_0_0 : FIL_API_V1_2_0,
                                                      err)
                                : fil_update_config(&k->uc, sector_size, err);
    if (!st) st = fil_param_stem(k->stem, sizeof k->stem, d->param, sector_size, err);
    return st;
}

pm_status pm_fil_shape_for_size(groth16_devplan_shape *s, pm_cs_facts *facts, const pm_fil_kind_desc *d,
                                uint64_t sector_size, pm_error *err) {
    memset(s, 0, sizeof *s);
    pm_fil_key k;
    pm_status st = pm_fil_key_for_size(&k, d, sector_size, err);
    if (st) return st;
    pm_cs_facts f;
    st = d->post_type ? pm_post_record_facts(&f, &k.pc, err) : pm_update_record_facts(&f, &k.uc, err);
    if (!st) pm_shape_of_facts(s, &f);
    if (!st && facts) *facts = f;
    return st;
}

uint64_t pm_fil_csr_tag(const pm_fil_key *k) { return k->sector_size + ((uint64_t)k->d->param << 48); }

pm_status pm_fil_record(r1cs_t *out, uint32_t *n_inputs, const pm_fil_key *k, pm_error *err) {
    return k->d->post_type ? pm_post_record(out, n_inputs, &k->pc, err) : pm_update_record(out, n_inputs, &k->uc, err);
}

static pm_status witness_len(size_t *n_w, uint32_t *nin, const pm_fil_key *k, pm_error *err) {
    return k->d->post_type ? pm_post_witness_len(n_w, nin, &k->pc, err) : pm_update_witness_len(n_w, nin, &k->uc, err);
}

static pm_status params_path(char *out, size_t cap, const char *params_dir, const char *stem, pm_error *err) {
    if (snprintf(out, cap, "%s/%s.params", params_dir, stem) >= (int)cap)
        return pm_error_set(err, PM_ERR_ARG, params_dir, PM_NO_OFFSET, "parameter path too long");
    return PM_OK;
}

pm_status pm_fil_key_path(char *out, size_t cap, const char *params_dir, const void *job, pm_error *err) {
    const pm_fil_job *j = job;
    char stem[256];
    pm_status st = fil_param_stem(stem, sizeof stem, j->d->param, j->sector_size, err);
    return st ? st : params_path(out, cap, params_dir, stem, err);
}

pm_status pm_fil_key_path_for_size(char *out, size_t cap, const pm_fil_kind_desc *d, const char *params_dir,
                                   uint64_t sector_size, pm_error *err) {
    pm_fil_key k;
    pm_status st = pm_fil_key_for_size(&k, d, sector_size, err);
    return st ? st : params_path(out, cap, params_dir, k.stem, err);
}

pm_status pm_fil_open_key(void **id, const pm_fil_kind_desc *d, const char *key_path, pm_error *err) {
    *id = NULL;
    const char *base = strrchr(key_path, '/');
    base = base ? base + 1 : key_path;
    size_t n = 0;
    const fil_sector_info_t *t = fil_sector_infos(&n);
    for (size_t i = 0; i < n; i++) {
        pm_fil_key k;
        pm_error e;
        if (pm_fil_key_for_size(&k, d, t[i].sector_size, &e)) continue; /* no such circuit at this size */
        size_t sl = strlen(k.stem);
        if (strncmp(base, k.stem, sl) || strcmp(base + sl, ".params")) continue;
        pm_fil_key *out = malloc(sizeof *out);
        if (!out) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
        *out = k;
        *id = out;
        return PM_OK;
    }
    return pm_error_set(err, PM_ERR_ARG, key_path, PM_NO_OFFSET,
                        "not a Filecoin %s parameter file (DIR/<stem>.params of a sector size, %s-...)", d->title,
                        d->post_type ? "v28-proof-of-spacetime-fallback" : "v28-empty-sector-update");
}

void pm_fil_close_key(void *id) { free(id); }

pm_status pm_fil_check_job(const void *idv, const char *key_path, const pm_key_shape *shape, const void *job,
                           pm_error *err) {
    const pm_fil_key *k = idv;
    const pm_fil_job *j = job;
    if (j->sector_size != k->sector_size)
        return pm_error_set(err, PM_ERR_MISMATCH, key_path, PM_NO_OFFSET,
                            "the %s job %s is for %llu-byte sectors, these parameters for %llu", k->d->title, j->name,
                            (unsigned long long)j->sector_size, (unsigned long long)k->sector_size);
    size_t n_w;
    uint32_t nin;
    pm_status st = witness_len(&n_w, &nin, k, err);
    if (!st && shape && (shape->n_public + 1 != nin || shape->n_vars != n_w))
        st = pm_error_set(err, PM_ERR_MISMATCH, key_path, PM_NO_OFFSET,
                          "parameters for %zu inputs and %zu wires (with ONE), the %llu-byte %s circuit has %u and %zu",
                          shape->n_public + 1, shape->n_vars, (unsigned long long)k->sector_size, k->d->title, nin, n_w);
    return st;
}

static pm_status record_cb(r1cs_t *out, uint32_t *n_inputs, const void *ctx, pm_error *err) {
    return pm_fil_record(out, n_inputs, ctx, err);
}

pm_status pm_fil_circuit(pm_circuit *c, uint64_t *bytes, const void *idv, const char *key_path, const char *csr_path,
                         pm_error *err) {
    const pm_fil_key *k = idv;
    char path[4096];
    const char *p = csr_path ? csr_path : (pm_key_path_beside(path, sizeof path, key_path, ".csr") ? NULL : path);
    if (!c) { /* the estimate: the .csr's size, or the recording's (its counts, without recording) */
        struct stat sb;
        if (p && stat(p, &sb) == 0) {
            *bytes = (uint64_t)sb.st_size;
            return PM_OK;
        }
        uint64_t rows, nnz[3];
        pm_status st = k->d->post_type ? pm_post_record_size(&rows, nnz, &k->pc, err)
                                       : pm_update_record_size(&rows, nnz, &k->uc, err);
        *bytes = st ? 0 : pm_circuit_recorded_bytes(rows, nnz);
        return st;
    }
    size_t n_w;
    uint32_t nin;
    pm_status st = witness_len(&n_w, &nin, k, err);
    if (!st) st = pm_circuit_load_or_record(c, p, csr_path != NULL, pm_fil_csr_tag(k), n_w, nin, record_cb, k, err);
    if (!st && bytes) *bytes = pm_circuit_resident_bytes(c);
    return st;
}

/* ---------------------------------------------------------------- partitions */

pm_status pm_fil_witness(fr_t **w, size_t *n_w, const void *idv, const void *job, uint32_t part, unsigned threads,
                         pm_error *err) {
    const pm_fil_key *k = idv;
    const pm_fil_job *j = job;
    *w = NULL;
    *n_w = 0;
    if (j->sector_size != k->sector_size)
        return pm_error_set(err, PM_ERR_MISMATCH, j->name, PM_NO_OFFSET, "%s job for %llu-byte sectors, parameters %llu",
                            k->d->title, (unsigned long long)j->sector_size, (unsigned long long)k->sector_size);
    if (part >= pm_fil_partitions(j))
        return pm_error_set(err, PM_ERR_ARG, j->name, PM_NO_OFFSET, "partition %u of %u", part, pm_fil_partitions(j));
    size_t n;
    uint32_t nin;
    pm_status st = witness_len(&n, &nin, k, err);
    if (st) return st;
    fr_t *v = aligned_alloc(32, (n * sizeof *v + 31) & ~(size_t)31);
    if (!v) return pm_error_set(err, PM_ERR_NOMEM, j->name, PM_NO_OFFSET, "witness of %zu values", n);
    size_t got = 0;
    st = k->d->post_type ? pm_post_witness_into(v, n, &got, &nin, &j->post, part, threads, err)
                         : pm_update_witness_into(v, n, &got, &nin, &j->upd, part, threads, err);
    if (st) {
        free(v);
        if (!err->file[0]) snprintf(err->file, sizeof err->file, "%s", j->name);
        return st;
    }
    *w = v;
    *n_w = got;
    return PM_OK;
}

pm_status pm_fil_derive_inputs(fr_t *x, size_t n_x, const pm_fil_job *j, uint32_t part, pm_error *err) {
    pm_status st = j->d->post_type ? pm_post_public_inputs(x, n_x, &j->post, part, err)
                                   : pm_update_public_inputs(x, n_x, &j->upd, part, err);
    if (st && !err->file[0]) snprintf(err->file, sizeof err->file, "%s", j->name);
    return st;
}

/* what public input i (0-based, ONE excluded) of a partition is */
static void input_name(char *out, size_t cap, const pm_fil_job *j, size_t i) {
    if (!j->d->post_type) {
        static const char *const names[4] = {"k_and_h_select", "comm_r_old", "comm_d_new", "comm_r_new"};
        snprintf(out, cap, "%s", i < 4 ? names[i] : "?");
        return;
    }
    const fil_post_config_t *c = &j->post.cfg;
    size_t per = 1 + c->circuit_challenges, s = i / per, r = i % per;
    uint64_t id = s < c->circuit_sectors ? j->post.sectors[s].sector_id : 0;
    if (r == 0) snprintf(out, cap, "circuit sector %zu (id %llu): comm_r", s, (unsigned long long)id);
    else snprintf(out, cap, "circuit sector %zu (id %llu): challenge %zu's leaf index", s, (unsigned long long)id, r - 1);
}

pm_status pm_fil_public_inputs(fr_t *x, size_t n_x, const void *idv, const void *job, uint32_t part, const fr_t *w,
                               size_t n_w, pm_error *err) {
    (void)idv;
    const pm_fil_job *j = job;
    if (n_w < n_x + 1)
        return pm_error_set(err, PM_ERR_MISMATCH, j->name, PM_NO_OFFSET, "witness of %zu values for %zu public inputs",
                            n_w, n_x);
    pm_status st = pm_fil_derive_inputs(x, n_x, j, part, err);
    for (size_t i = 0; !st && i < n_x; i++)
        if (!fr_eq(&x[i], &w[1 + i])) {
            char what[128];
            input_name(what, sizeof what, j, i);
            st = pm_error_set(err, PM_ERR_MISMATCH, j->name, PM_NO_OFFSET,
                              "partition %u: public input %zu (%s) of the vanilla proofs differs from the one derived "
                              "from the request",
                              part, i + 1, what);
        }
    return st;
}

void pm_fil_name_row(pm_error *err, const void *idv, uint32_t row, uint32_t n_rows) {
    const pm_fil_key *k = idv;
    if (k->d->post_type) pm_post_unsatisfied(err, &k->pc, NULL, row, n_rows);
    else pm_update_unsatisfied(err, &k->uc, UINT32_MAX, row, n_rows);
}

pm_status pm_fil_verify_vanilla(const pm_fil_job *j, pm_error *err) {
    pm_status st = j->d->post_type ? fil_post_job_verify(&j->post, err) : fil_update_job_verify(&j->upd, err);
    if (st && !err->file[0]) snprintf(err->file, sizeof err->file, "%s", j->name);
    return st;
}
