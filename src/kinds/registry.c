/*
 * registry.c — the kinds registered by PM_KIND_REGISTER, input labels, and the recorded-circuit
 * helpers every bellperson kind shares (kind.h).
 */
#include "kinds/kind.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/file.h"

static pm_kind_entry *registry;

void pm_kind_register(pm_kind_entry *e) {
    pm_kind_entry **pp = &registry;
    while (*pp && strcmp((*pp)->kind->name, e->kind->name) < 0) pp = &(*pp)->next;
    e->next = *pp;
    *pp = e;
}

const pm_kind *pm_kind_find(const char *name) {
    if (!name) return NULL;
    for (pm_kind_entry *e = registry; e; e = e->next) {
        if (!strcmp(e->kind->name, name)) return e->kind;
        for (const char *const *a = e->kind->aliases; a && *a; a++)
            if (!strcmp(*a, name)) return e->kind;
    }
    return NULL;
}

size_t pm_kind_list(const pm_kind **out, size_t cap) {
    size_t n = 0;
    for (pm_kind_entry *e = registry; e; e = e->next, n++)
        if (n < cap) out[n] = e->kind;
    return n;
}

const char *pm_kind_names(char *buf, size_t cap) {
    size_t n = 0;
    buf[0] = 0;
    for (pm_kind_entry *e = registry; e && n < cap; e = e->next) {
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", e->kind->name);
        /* "snapdeals (alias snap, sector-update)" */
        for (const char *const *a = e->kind->aliases; a && *a && n < cap; a++)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s%s", a == e->kind->aliases ? " (alias " : ", ", *a,
                                  a[1] ? "" : ")");
    }
    return buf;
}

int pm_kind_input_role(const pm_kind *k, const char *name) {
    if (!name || (k->input_name && !strcmp(k->input_name, name))) return 1;
    for (const char *const *m = k->more_inputs; m && *m; m++)
        if (!strcmp(*m, name)) return 2;
    return 0;
}

const pm_kind *pm_kind_by_input_name(const char *name) {
    for (pm_kind_entry *e = registry; e; e = e->next)
        if (name && pm_kind_input_role(e->kind, name)) return e->kind;
    return NULL;
}

pm_status pm_kind_check_inputs(const pm_kind *k, const pm_input *in, size_t n, pm_error *err) {
    size_t main = 0;
    for (size_t i = 0; i < n; i++) {
        int role = pm_kind_input_role(k, in[i].name);
        if (!role)
            return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "inputs[%zu]: '%s' is not an input of kind %s", i,
                                in[i].name, k->name);
        if (role == 1) main++;
        for (size_t j = 0; role == 2 && j < i; j++)
            if (in[j].name && !strcmp(in[j].name, in[i].name))
                return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "inputs[%zu]: '%s' given twice", i, in[i].name);
    }
    if (main < 1 || main > k->max_inputs)
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "a %s job takes 1..%u '%s' inputs, not %zu", k->name,
                            k->max_inputs, k->input_name, main);
    return PM_OK;
}

pm_status pm_kind_open_job(const pm_kind *k, void **job, const pm_input *in, size_t n, pm_error *err) {
    *job = NULL;
    pm_status st = pm_kind_check_inputs(k, in, n, err);
    return st ? st : k->open_job(job, in, n, err);
}

const pm_input *pm_input_find(const pm_input *in, size_t n, const char *name) {
    for (size_t i = 0; i < n; i++)
        if (in[i].name && !strcmp(in[i].name, name)) return &in[i];
    return NULL;
}

pm_status pm_input_u64(uint64_t *v, const pm_input *in, const char *label, pm_error *err) {
    char buf[64];
    size_t n = 0;
    *v = 0;
    if (in->kind == PM_INPUT_PATH) {
        char *text;
        size_t len;
        pm_status st = pm_file_read_all(&text, &len, in->path, sizeof buf - 1, 0, err);
        if (st) return st;
        memcpy(buf, text, len);
        n = len;
        free(text);
    } else if (in->len < sizeof buf) {
        if (in->len) memcpy(buf, in->bytes, in->len);
        n = in->len;
    } else {
        return pm_error_set(err, PM_ERR_FORMAT, label, PM_NO_OFFSET, "%zu bytes: not a decimal number", in->len);
    }
    buf[n] = 0;
    size_t a = strspn(buf, " \t\r\n"), d = strspn(buf + a, "0123456789");
    size_t b = a + d + strspn(buf + a + d, " \t\r\n");
    uint64_t x = 0;
    int over = d > 20;
    for (size_t i = a; !over && i < a + d; i++) {
        unsigned dig = (unsigned)(buf[i] - '0');
        over = x > (UINT64_MAX - dig) / 10;
        x = x * 10 + dig;
    }
    if (!d || b != n || over) /* b != n also for a NUL inside */
        return pm_error_set(err, PM_ERR_FORMAT, label, PM_NO_OFFSET, "'%.40s' is not a decimal number below 2^64",
                            buf);
    *v = x;
    return PM_OK;
}

const char *pm_input_label(char *buf, size_t cap, const pm_input *in, size_t i) {
    if (in->kind == PM_INPUT_PATH && in->path) return in->path;
    if (in->name) snprintf(buf, cap, "inputs[%zu] (%s)", i, in->name);
    else snprintf(buf, cap, "inputs[%zu]", i);
    return buf;
}

int pm_key_path_beside(char *out, size_t cap, const char *key_path, const char *ext) {
    size_t n = strlen(key_path);
    if (n < 7 || strcmp(key_path + n - 7, ".params")) return -1;
    return snprintf(out, cap, "%.*s%s", (int)(n - 7), key_path, ext) < (int)cap ? 0 : -1;
}

pm_status pm_circuit_load_or_record(pm_circuit *c, const char *path, int required, uint64_t tag, size_t n_wires,
                                    uint32_t n_inputs,
                                    pm_status (*record)(r1cs_t *out, uint32_t *n_inputs, const void *ctx, pm_error *err),
                                    const void *ctx, pm_error *err) {
    memset(c, 0, sizeof *c);
    pm_status st;
    if (path && (required || access(path, R_OK) == 0)) {
        if ((st = pm_csr_open(&c->file, path, err))) return st;
        if ((st = pm_csr_expect(&c->file, path, tag, n_wires, n_inputs, err))) {
            pm_csr_close(&c->file);
            memset(c, 0, sizeof *c);
            return st;
        }
        c->cs = &c->file.cs;
        c->n_inputs = c->file.n_inputs;
        return PM_OK;
    }
    if ((st = record(&c->mem, &c->n_inputs, ctx, err))) {
        r1cs_free(&c->mem);
        memset(c, 0, sizeof *c);
        return st;
    }
    c->cs = &c->mem;
    return PM_OK;
}

uint64_t pm_circuit_resident_bytes(const pm_circuit *c) {
    if (c->file.map) return c->file.map_len;
    const r1cs_t *m = &c->mem;
    return (uint64_t)(m->A.nnz + m->B.nnz + m->C.nnz) * 8 + /* col + coefficient index */
           (m->coef_tab_owned ? (uint64_t)m->A.n_coef_tab * 32 : 0) +
           3ull * ((uint64_t)m->n_constraints + 1) * 8; /* row pointers */
}

uint64_t pm_circuit_recorded_bytes(uint64_t n_rows, const uint64_t nnz[3]) {
    return (nnz[0] + nnz[1] + nnz[2]) * 8 + 3 * (n_rows + 1) * 8 + PM_CIRCUIT_COEF_ALLOWANCE;
}

void pm_circuit_free(pm_circuit *c) {
    if (!c) return;
    pm_csr_close(&c->file);
    r1cs_free(&c->mem);
    memset(c, 0, sizeof *c);
}
