/*
 * start_cpu.c — the CPU table of the start phase (start.h): SpMV / zkey evaluation (r1cs/, zkey.h),
 * both H phases (ntt/), G1 MSMs (msm/). Sources: snarkjs 0.7.6 src/groth16_prove.js (buildABC, the
 * odd-coset H; FORMATS.md "How snarkjs proves"); bellperson src/groth16/prover/native.rs and
 * src/domain.rs (POREP.md §7).
 */
#include "groth16/start.h"

#include <string.h>

#include "msm/msm.h"
#include "ntt/ntt.h"
#include "util/parallel.h"

static pm_status cpu_eval_snarkjs(const groth16_exec *x, groth16_pending_t *p, const fr_t *w, size_t n_w,
                                  pm_error *err) {
    const groth16_key *k = p->key;
    pm_status st = groth16_pending_work(p, x, err);
    if (st) return st;
    p->abc_host = 1;
    return zkey_eval_ab(p->work, p->work + k->domain, k->domain, k->zk, w, n_w, err);
}

static pm_status cpu_eval_bellperson(const groth16_exec *x, groth16_pending_t *p, const fr_t *w, size_t n_w,
                                     pm_error *err) {
    const groth16_key *k = p->key;
    const size_t m = k->domain;
    pm_status st = groth16_pending_work(p, x, err);
    if (st) return st;
    fr_t *a = p->work, *b = a + m, *c = b + m;
    const r1cs_t *cs = k->cs;
    const size_t nc = cs->n_constraints, ni = k->n_public + 1;
    if ((st = r1cs_spmv(a, b, c, nc, cs, w, n_w, err))) return st;
    /* every constraint, on the rows just computed (one multiplication per row instead of a second
     * pass over the matrices): the first failing one is named and kept in first_bad */
    const size_t first = r1cs_first_unsatisfied_row(a, b, c, nc);
    if (first < nc) {
        p->first_bad = (uint32_t)first;
        return pm_error_set(err, PM_ERR_UNSATISFIED, p->wtns_name, PM_NO_OFFSET,
                            "constraint %lld of %u not satisfied: <A,w>*<B,w> != <C,w>", (long long)first,
                            cs->n_constraints);
    }
    /* the input rows (A = w_i, B = C = 0), then zeros up to m */
    for (size_t i = 0; i < ni; i++) a[nc + i] = w[i];
    memset(a + nc + ni, 0, (m - nc - ni) * sizeof(fr_t));
    memset(b + nc, 0, (m - nc) * sizeof(fr_t));
    memset(c + nc, 0, (m - nc) * sizeof(fr_t));
    p->abc_host = 1;
    return PM_OK;
}

/* the CPU H phases read a, b, c from host memory: a table that kept them elsewhere has its own H */
static pm_status need_host_abc(const groth16_pending_t *p, pm_error *err) {
    if (p->abc_host && p->work) return PM_OK;
    return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "CPU H phase: a, b, c are not in host memory");
}

static pm_status cpu_h_snarkjs(const groth16_exec *x, groth16_pending_t *p, groth16_scalars *h, pm_error *err) {
    (void)x;
    const groth16_key *k = p->key;
    const size_t n = k->domain;
    pm_status st = need_host_abc(p, err);
    if (st) return st;
    fr_t *a = p->work, *b = a + n, *scratch = b + n;
    const ntt_domain_t *dom;
    if ((st = groth16_key_domain(k, &dom, err))) return st;
    st = ntt_snarkjs_h(a, n, a, b, scratch, dom, err); /* P (plain) lands in a */
    h->host = a;
    h->dev = NULL;
    return st;
}

static pm_status cpu_h_bellperson(const groth16_exec *x, groth16_pending_t *p, groth16_scalars *h, pm_error *err) {
    (void)x;
    const groth16_key *k = p->key;
    const size_t m = k->domain;
    pm_status st0 = need_host_abc(p, err);
    if (st0) return st0;
    fr_t *a = p->work, *b = a + m, *c = b + m;
    const ntt_domain_t *dom;
    if ((st0 = groth16_key_domain(k, &dom, err))) return st0;
    /* H = (a b - c) / Z on the coset g<omega> (g = 7, Z(g omega^i) = g^m - 1), back to coefficients
     * as plain integers; the first m - 1 are the h-query scalars (ntt_bellperson_h: 6 fused transforms,
     * the bytes of bellperson's iNTT / coset NTT / divide / coset iNTT sequence) */
    pm_error e2;
    pm_status st = ntt_bellperson_h(a, m, a, b, c, dom, &e2);
    if (st == PM_ERR_UNSATISFIED)
        return pm_error_set(err, PM_ERR_UNSATISFIED, p->wtns_name, PM_NO_OFFSET,
                            "H has degree m - 1: the witness does not satisfy the circuit");
    if (st) {
        if (err) *err = e2;
        return st;
    }
    h->host = a;
    h->dev = NULL;
    return PM_OK;
}

static pm_status cpu_msm_g1(const groth16_exec *x, groth16_pending_t *p, groth16_base which, const groth16_scalars *s,
                            g1_jac_t *r, pm_error *err) {
    const groth16_key *k = p->key;
    const size_t n = k->n_base[which];
    if (!s->host && n)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "CPU G1 MSM: no host scalars for base %d", (int)which);
    pm_status st = p->msm_scratch ? msm_g1_vartime_with_scratch(r, k->base[which], s->host, n, x->threads,
                                                                p->msm_scratch, p->msm_scratch_size)
                                  : msm_g1_vartime(r, k->base[which], s->host, n, x->threads);
    if (st) return pm_error_set(err, st, "", PM_NO_OFFSET, "G1 MSM failed (%s)", pm_status_name(st));
    return PM_OK;
}

const groth16_ops groth16_ops_cpu = {
    .name = "cpu",
    .flags = 0,
    .stage = NULL,
    .eval_snarkjs = cpu_eval_snarkjs,
    .eval_bellperson = cpu_eval_bellperson,
    .h_snarkjs = cpu_h_snarkjs,
    .h_bellperson = cpu_h_bellperson,
    .msm_g1 = cpu_msm_g1,
    .msm_g2 = NULL, /* the assembly's (finalize) */
};
