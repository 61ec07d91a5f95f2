/*
 * key.c — the proving-key views of both conventions (key.h).
 */
#include "groth16/key.h"

#include <stdlib.h>
#include <string.h>

pm_status groth16_key_from_zkey(groth16_key *k, const zkey_t *zk, const ntt_domain_t *dom, int with_domain,
                                pm_error *err) {
    memset(k, 0, sizeof *k);
    k->conv = GROTH16_SNARKJS;
    k->zk = zk;
    k->n_vars = zk->n_vars;
    k->n_public = zk->n_public;
    k->log_domain = zk->log2_domain;
    k->domain = zk->domain_size;
    k->base[GROTH16_BASE_A] = zk->a;
    k->n_base[GROTH16_BASE_A] = zk->n_vars;
    k->base[GROTH16_BASE_B1] = zk->b1;
    k->n_base[GROTH16_BASE_B1] = zk->n_vars;
    k->base[GROTH16_BASE_C] = zk->c;
    k->n_base[GROTH16_BASE_C] = zk->n_vars - zk->n_public - 1;
    k->base[GROTH16_BASE_H] = zk->h;
    k->n_base[GROTH16_BASE_H] = zk->domain_size;
    k->b2 = zk->b2;
    k->n_b2 = zk->n_vars;
    k->alpha1 = zk->alpha1;
    k->beta1 = zk->beta1;
    k->delta1 = zk->delta1;
    k->beta2 = zk->beta2;
    k->delta2 = zk->delta2;
    k->vk = (groth16_vk_t){.alpha_1 = zk->alpha1, .beta_2 = zk->beta2, .gamma_2 = zk->gamma2,
                           .delta_2 = zk->delta2, .n_public = zk->n_public, .ic = zk->ic};
    if (dom) {
        if (dom->n != zk->domain_size) {
            memset(k, 0, sizeof *k);
            return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                                "cached NTT domain has size %zu, zkey domain is %u", dom->n, zk->domain_size);
        }
        k->dom = dom;
    } else if (with_domain) {
        pm_status st = ntt_domain_init(&k->own_dom, zk->log2_domain, NTT_ROOTS_SNARKJS, err);
        if (st) {
            memset(k, 0, sizeof *k);
            return st;
        }
        k->dom = &k->own_dom;
    }
    return PM_OK;
}

/* mark[i] = 1 for each column with a nonzero coefficient in m */
static void density(uint8_t *mark, const r1cs_matrix_t *m) {
    for (uint64_t t = 0; t < m->nnz; t++)
        if (!fr_is_zero(r1cs_coef(m, t))) mark[m->col[t]] = 1;
}

pm_status groth16_params_fit(const bp_params_t *p, const r1cs_t *cs, const char *key_name, const char *cs_name,
                             pm_error *err) {
    const size_t nv = cs->n_wires, ni = (size_t)r1cs_n_public(cs) + 1, na = nv - ni;
    const uint64_t rows = (uint64_t)cs->n_constraints + ni;
    unsigned logm = 0;
    while (((uint64_t)1 << logm) < rows) logm++;
    const size_t m = (size_t)1 << logm;
    if (p->vk.n_ic != ni || p->n_l != na || p->n_h != m - 1)
        return pm_error_set(err, PM_ERR_MISMATCH, key_name ? key_name : "params", PM_NO_OFFSET,
                            "%s%s%sparams (ic %zu, l %zu, h %zu) do not fit the circuit (ic %zu, l %zu, h %zu)",
                            cs_name ? "not the key of " : "", cs_name ? cs_name : "", cs_name ? ": " : "", p->vk.n_ic,
                            p->n_l, p->n_h, ni, na, m - 1);
    return PM_OK;
}

pm_status groth16_key_from_params(groth16_key *k, const bp_params_t *p, const r1cs_t *cs, pm_error *err) {
    memset(k, 0, sizeof *k);
    pm_status fst = groth16_params_fit(p, cs, NULL, NULL, err);
    if (fst) return fst;
    const size_t nv = cs->n_wires, ni = (size_t)r1cs_n_public(cs) + 1;
    const uint64_t rows = (uint64_t)cs->n_constraints + ni;
    unsigned logm = 0;
    while (((uint64_t)1 << logm) < rows) logm++;
    const size_t m = (size_t)1 << logm;
    k->dense_a = calloc(nv ? nv : 1, 1);
    k->dense_b = calloc(nv ? nv : 1, 1);
    if (!k->dense_a || !k->dense_b) {
        groth16_key_free(k);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "density marks (%zu wires)", nv);
    }
    density(k->dense_a, &cs->A);
    density(k->dense_b, &cs->B);
    memset(k->dense_a, 1, ni); /* inputs: full density in A (the input rows) */
    size_t ka = 0, kb = 0;
    for (size_t i = 0; i < nv; i++) {
        ka += k->dense_a[i];
        kb += k->dense_b[i];
    }
    if (ka != p->n_a || kb != p->n_b_g1 || kb != p->n_b_g2) {
        groth16_key_free(k);
        return pm_error_set(err, PM_ERR_MISMATCH, "params", PM_NO_OFFSET,
                            "params a/b_g1/b_g2 hold %zu/%zu/%zu points, the circuit's A/B densities need %zu/%zu",
                            p->n_a, p->n_b_g1, p->n_b_g2, ka, kb);
    }
    k->dom = NULL; /* groth16_key_domain, on the first CPU H phase */
    pthread_mutex_init(&k->dom_mu, NULL);
    k->dom_lazy = 1;
    k->conv = GROTH16_BELLPERSON;
    k->cs = cs;
    k->n_vars = nv;
    k->n_public = ni - 1;
    k->log_domain = logm;
    k->domain = m;
    k->base[GROTH16_BASE_A] = p->a;
    k->n_base[GROTH16_BASE_A] = p->n_a;
    k->base[GROTH16_BASE_B1] = p->b_g1;
    k->n_base[GROTH16_BASE_B1] = p->n_b_g1;
    k->base[GROTH16_BASE_C] = p->l;
    k->n_base[GROTH16_BASE_C] = p->n_l;
    k->base[GROTH16_BASE_H] = p->h;
    k->n_base[GROTH16_BASE_H] = p->n_h;
    k->b2 = p->b_g2;
    k->n_b2 = p->n_b_g2;
    k->alpha1 = p->vk.alpha_g1;
    k->beta1 = p->vk.beta_g1;
    k->delta1 = p->vk.delta_g1;
    k->beta2 = p->vk.beta_g2;
    k->delta2 = p->vk.delta_g2;
    k->vk = (groth16_vk_t){.alpha_1 = p->vk.alpha_g1, .beta_2 = p->vk.beta_g2, .gamma_2 = p->vk.gamma_g2,
                           .delta_2 = p->vk.delta_g2, .n_public = p->vk.n_ic - 1, .ic = p->vk.ic};
    return PM_OK;
}

void groth16_key_free(groth16_key *k) {
    if (!k) return;
    for (int d = 0; d < GROTH16_MAX_DEVICES; d++)
        if (k->dev[d] && k->dev_free) k->dev_free(k->dev[d], d);
    ntt_domain_free(&k->own_dom);
    if (k->dom_lazy) pthread_mutex_destroy(&k->dom_mu);
    free(k->dense_a);
    free(k->dense_b);
    memset(k, 0, sizeof *k);
}

int groth16_key_bases_resident(const groth16_key *k, const int *devices, size_t n) {
    if (!k || !n || !devices || !k->dev_resident) return 0;
    for (size_t i = 0; i < n; i++) {
        const int d = devices[i];
        if (d < 0 || d >= GROTH16_MAX_DEVICES || !k->dev[d] || !k->dev_resident(k->dev[d])) return 0;
    }
    return 1;
}

uint64_t groth16_key_domain_bytes(size_t domain) { return 2 * (uint64_t)domain * sizeof(fr_t); }

pm_status groth16_key_domain(const groth16_key *k, const ntt_domain_t **out, pm_error *err) {
    /* built (or lent, or made eagerly): no lock; the build below publishes with release */
    if ((*out = __atomic_load_n(&k->dom, __ATOMIC_ACQUIRE))) return PM_OK;
    if (!k->dom_lazy) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "the key view has no NTT domain");
    groth16_key *w = (groth16_key *)k; /* the view's cache: built once, under its own lock */
    pthread_mutex_lock(&w->dom_mu);
    pm_status st = PM_OK;
    if (!k->dom) {
        st = ntt_domain_init(&w->own_dom, k->log_domain,
                             k->conv == GROTH16_SNARKJS ? NTT_ROOTS_SNARKJS : NTT_ROOTS_ARKWORKS, err);
        if (!st) {
            __atomic_store_n(&w->ledger.host_domain, groth16_key_domain_bytes(k->domain), __ATOMIC_RELAXED);
            __atomic_store_n(&w->dom, (const ntt_domain_t *)&w->own_dom, __ATOMIC_RELEASE);
        }
    }
    *out = k->dom;
    pthread_mutex_unlock(&w->dom_mu);
    return st;
}

uint64_t groth16_key_view_bytes(groth16_convention conv, size_t n_vars, size_t domain) {
    /* ntt_domain_t: 2 (n - 1) twiddles; bellperson: 2 marks per wire */
    return 2 * (uint64_t)domain * sizeof(fr_t) + (conv == GROTH16_BELLPERSON ? 2 * (uint64_t)n_vars : 0);
}
