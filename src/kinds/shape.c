/*
 * shape.c — the planner's key shape without loading the key (shape.h).
 */
#include "kinds/shape.h"

#include <string.h>
#include <sys/stat.h>

#include "gpu/gpu_sizes.h"

uint64_t pm_shape_circuit_bytes(uint64_t n_rows, const uint64_t nnz[3], uint64_t n_coef) {
    const size_t rpw = nnz[0] <= UINT32_MAX && nnz[1] <= UINT32_MAX && nnz[2] <= UINT32_MAX ? 4 : 8;
    uint64_t b = 0;
    for (int k = 0; k < 3; k++) b += gpu_sizes_csr(n_rows, nnz[k], 1, n_coef, k > 0, rpw);
    return b;
}

uint64_t pm_shape_csr_bytes(const pm_csr_header_t *h) {
    if (h->version == 2) return pm_shape_circuit_bytes(h->n_rows, h->nnz, h->n_coef_tab);
    const size_t rpw = h->nnz[0] <= UINT32_MAX && h->nnz[1] <= UINT32_MAX && h->nnz[2] <= UINT32_MAX ? 4 : 8;
    uint64_t b = 0;
    for (int k = 0; k < 3; k++) b += gpu_sizes_csr(h->n_rows, h->nnz[k], 0, 0, 0, rpw);
    return b;
}

static unsigned log2_ceil(uint64_t n) {
    unsigned k = 0;
    while (((uint64_t)1 << k) < n) k++;
    return k;
}

void pm_shape_of_facts(groth16_devplan_shape *s, const pm_cs_facts *f) {
    memset(s, 0, sizeof *s);
    s->conv = GROTH16_BELLPERSON;
    s->n_vars = f->inputs + f->aux;
    s->n_public = f->inputs ? f->inputs - 1 : 0;
    s->log_domain = log2_ceil(f->constraints + f->inputs);
    s->n_base[GROTH16_BASE_A] = f->inputs + f->a_aux;
    s->n_base[GROTH16_BASE_B1] = f->b_input + f->b_aux;
    s->n_base[GROTH16_BASE_C] = f->aux;
    s->n_base[GROTH16_BASE_H] = ((uint64_t)1 << s->log_domain) - 1;
    s->n_b2 = s->n_base[GROTH16_BASE_B1];
    s->circuit_bytes = pm_shape_circuit_bytes(f->constraints, f->nnz, f->n_coef);
}

pm_status pm_shape_of_params(groth16_devplan_shape *s, bp_params_counts_t *cp, int *have_csr, const char *params_path,
                             const char *csr_path, pm_error *err) {
    memset(s, 0, sizeof *s);
    *have_csr = 0;
    bp_params_counts_t c;
    pm_status st = params_read_counts(&c, params_path, err);
    if (st) return st;
    if (cp) *cp = c;
    s->conv = GROTH16_BELLPERSON;
    s->n_vars = c.n_ic + c.n_l;
    s->n_public = c.n_ic ? c.n_ic - 1 : 0;
    s->log_domain = log2_ceil(c.n_h + 1);
    s->n_base[GROTH16_BASE_A] = c.n_a;
    s->n_base[GROTH16_BASE_B1] = c.n_b_g1;
    s->n_base[GROTH16_BASE_C] = c.n_l;
    s->n_base[GROTH16_BASE_H] = c.n_h;
    s->n_b2 = c.n_b_g2;
    struct stat sb;
    if (!csr_path || stat(csr_path, &sb) != 0) return PM_OK; /* no recorded circuit beside the key */
    pm_csr_header_t h;
    if ((st = pm_csr_read_header(&h, csr_path, err))) return st;
    if (h.n_cols != s->n_vars || h.n_inputs != c.n_ic)
        return pm_error_set(err, PM_ERR_MISMATCH, csr_path, PM_NO_OFFSET,
                            "recorded circuit of %u wires and %u inputs; the key %s has %llu and %llu", h.n_cols,
                            h.n_inputs, params_path, (unsigned long long)s->n_vars, (unsigned long long)c.n_ic);
    s->circuit_bytes = pm_shape_csr_bytes(&h);
    *have_csr = 1;
    return PM_OK;
}

pm_status pm_shape_of_zkey(groth16_devplan_shape *s, zkey_info_t *info, const char *path, pm_error *err) {
    memset(s, 0, sizeof *s);
    zkey_info_t z;
    pm_status st = zkey_read_info(&z, path, err);
    if (st) return st;
    if (info) *info = z;
    s->conv = GROTH16_SNARKJS;
    s->n_vars = z.n_vars;
    s->n_public = z.n_public;
    s->log_domain = z.log2_domain;
    s->n_base[GROTH16_BASE_A] = z.n_vars;
    s->n_base[GROTH16_BASE_B1] = z.n_vars;
    s->n_base[GROTH16_BASE_C] = (uint64_t)z.n_vars - z.n_public - 1;
    s->n_base[GROTH16_BASE_H] = z.domain_size;
    s->n_b2 = z.n_vars;
    return PM_OK;
}

uint64_t pm_shape_params_bytes(const groth16_devplan_shape *s) {
    return params_size((size_t)s->n_public + 1, s->n_base[GROTH16_BASE_H], s->n_base[GROTH16_BASE_C],
                       s->n_base[GROTH16_BASE_A], s->n_base[GROTH16_BASE_B1], s->n_b2);
}
