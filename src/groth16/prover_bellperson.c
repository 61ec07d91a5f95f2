/*
 * prover_bellperson.c — Groth16 proving with a bellperson parameter set (see the header).
 */
#include "groth16/prover_bellperson.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "msm/msm.h"
#include "ntt/ntt.h"
#include "util/parallel.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* mark[i] = 1 for each column with a nonzero coefficient in m. */
static void density(uint8_t *mark, const r1cs_matrix_t *m) {
    for (uint64_t t = 0; t < m->nnz; t++)
        if (!fr_is_zero(&m->coef[t])) mark[m->col[t]] = 1;
}

pm_status groth16_prove_bellperson(groth16_proof_t *proof, const bp_params_t *p, const r1cs_t *cs, const fr_t *w,
                   size_t n_w, const fr_t *r, const fr_t *s, unsigned threads,
                   bp_prove_timings_t *tm, pm_error *err) {
    double t0 = now_s(), t1 = t0, t2 = t0, t3 = t0, t4 = t0;
    uint32_t npub = r1cs_n_public(cs);
    size_t nv = cs->n_wires, ni = (size_t)npub + 1, na = nv - ni;
    uint64_t rows = (uint64_t)cs->n_constraints + ni;
    unsigned logm = 0;
    while (((uint64_t)1 << logm) < rows) logm++;
    size_t m = (size_t)1 << logm;
    if (n_w != nv)
        return pm_error_set(err, PM_ERR_MISMATCH, "witness", PM_NO_OFFSET,
                            "witness has %zu values, r1cs has %zu wires", n_w, nv);
    if (p->vk.n_ic != ni || p->n_l != na || p->n_h != m - 1)
        return pm_error_set(err, PM_ERR_MISMATCH, "params", PM_NO_OFFSET,
                            "params (ic %zu, l %zu, h %zu) do not fit the circuit (ic %zu, l %zu, "
                            "h %zu)",
                            p->vk.n_ic, p->n_l, p->n_h, ni, na, m - 1);
    pm_status st = r1cs_check_satisfied(NULL, cs, w, n_w, err);
    if (st) return st;

    uint8_t *da = calloc(nv, 1), *db = calloc(nv, 1);
    fr_t *a = calloc(m, sizeof *a), *b = calloc(m, sizeof *b), *c = calloc(m, sizeof *c);
    fr_t *sa = malloc(nv * sizeof *sa), *sb = malloc(nv * sizeof *sb), *wp = malloc(nv * sizeof *wp);
    ntt_domain_t d = {0};
    if (!da || !db || !a || !b || !c || !sa || !sb || !wp) {
        st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "prover buffers (m = %zu)", m);
        goto out;
    }
    /* densities and compacted scalar lists (plain) */
    density(da, &cs->A);
    density(db, &cs->B);
    memset(da, 1, ni); /* inputs: full density in A (the input rows) */
    PM_OMP(parallel for schedule(static))
    for (size_t i = 0; i < nv; i++) fr_from_mont(&wp[i], &w[i]);
    size_t ka = 0, kb = 0;
    for (size_t i = 0; i < nv; i++) {
        if (da[i]) sa[ka++] = wp[i];
        if (db[i]) sb[kb++] = wp[i];
    }
    if (ka != p->n_a || kb != p->n_b_g1 || kb != p->n_b_g2) {
        st = pm_error_set(err, PM_ERR_MISMATCH, "params", PM_NO_OFFSET,
                          "params a/b_g1/b_g2 hold %zu/%zu/%zu points, the circuit's A/B "
                          "densities need %zu/%zu",
                          p->n_a, p->n_b_g1, p->n_b_g2, ka, kb);
        goto out;
    }
    /* a, b, c on the rows, zero-padded */
    if ((st = r1cs_spmv(a, b, c, cs->n_constraints, cs, w, n_w, err))) goto out;
    for (size_t i = 0; i < ni; i++) a[cs->n_constraints + i] = w[i];
    t1 = now_s();
    /* H */
    if ((st = ntt_domain_init(&d, logm, NTT_ROOTS_ARKWORKS, err))) goto out;
    {
        fr_t g, zinv;
        fr_multiplicative_generator(&g);
        uint64_t e = m;
        fr_pow_vartime(&zinv, &g, &e, 1);
        fr_sub(&zinv, &zinv, &FR_ONE);
        fr_inv_vartime(&zinv, &zinv);
        fr_t *x[3] = {a, b, c};
        for (int k = 0; k < 3; k++) {
            ntt_inverse(x[k], m, &d);
            ntt_coset_forward(x[k], m, &d, &g);
        }
        PM_OMP(parallel for schedule(static))
        for (size_t i = 0; i < m; i++) {
            fr_t t;
            fr_mul(&t, &a[i], &b[i]);
            fr_sub(&t, &t, &c[i]);
            fr_mul(&a[i], &t, &zinv);
        }
        ntt_coset_inverse(a, m, &d, &g);
        if (!fr_is_zero(&a[m - 1])) {
            st = pm_error_set(err, PM_ERR_UNSATISFIED, "witness", PM_NO_OFFSET,
                              "H has degree m - 1: the witness does not satisfy the circuit");
            goto out;
        }
        PM_OMP(parallel for schedule(static))
        for (size_t i = 0; i < m - 1; i++) fr_from_mont(&a[i], &a[i]);
    }
    t2 = now_s();
    /* MSMs */
    g1_jac_t ja, jb1, jl, jh, jt;
    g2_jac_t jb2;
    if ((st = msm_g1_vartime(&ja, p->a, sa, ka, threads)) ||
        (st = msm_g1_vartime(&jb1, p->b_g1, sb, kb, threads)) ||
        (st = msm_g1_vartime(&jl, p->l, wp + ni, na, threads)) ||
        (st = msm_g1_vartime(&jh, p->h, a, m - 1, threads))) {
        st = pm_error_set(err, st, "", PM_NO_OFFSET, "G1 MSM failed (%s)", pm_status_name(st));
        goto out;
    }
    t3 = now_s();
    if ((st = msm_g2_vartime(&jb2, p->b_g2, sb, kb, threads))) {
        st = pm_error_set(err, st, "", PM_NO_OFFSET, "G2 MSM failed (%s)", pm_status_name(st));
        goto out;
    }
    t4 = now_s();
    /* assemble */
    {
        const bp_vk_t *vk = &p->vk;
        g1_jac_t A, B1, C;
        g2_jac_t B;
        fr_t rs;
        fr_mul(&rs, r, s);
        /* A = alpha + sum + r delta */
        g1_jac_from_affine(&jt, &vk->delta_g1);
        g1_jac_mul_fr(&jt, &jt, r);
        g1_jac_add_affine(&A, &ja, &vk->alpha_g1);
        g1_jac_add(&A, &A, &jt);
        /* B1 = beta + sum + s delta ; B likewise in G2 */
        g1_jac_from_affine(&jt, &vk->delta_g1);
        g1_jac_mul_fr(&jt, &jt, s);
        g1_jac_add_affine(&B1, &jb1, &vk->beta_g1);
        g1_jac_add(&B1, &B1, &jt);
        g2_jac_t j2;
        g2_jac_from_affine(&j2, &vk->delta_g2);
        g2_jac_mul_fr(&j2, &j2, s);
        g2_jac_add_affine(&B, &jb2, &vk->beta_g2);
        g2_jac_add(&B, &B, &j2);
        /* C = L + H + s A + r B1 - r s delta */
        g1_jac_add(&C, &jl, &jh);
        g1_jac_mul_fr(&jt, &A, s);
        g1_jac_add(&C, &C, &jt);
        g1_jac_mul_fr(&jt, &B1, r);
        g1_jac_add(&C, &C, &jt);
        g1_jac_from_affine(&jt, &vk->delta_g1);
        g1_jac_mul_fr(&jt, &jt, &rs);
        g1_jac_sub(&C, &C, &jt);
        g1_jac_to_affine(&proof->a, &A);
        g2_jac_to_affine(&proof->b, &B);
        g1_jac_to_affine(&proof->c, &C);
    }
out:
    if (tm) {
        double te = now_s();
        tm->spmv = t1 - t0;
        tm->h = t2 - t1;
        tm->msm_g1 = t3 - t2;
        tm->msm_g2 = t4 - t3;
        tm->assemble = te - t4;
    }
    ntt_domain_free(&d);
    free(da);
    free(db);
    free(a);
    free(b);
    free(c);
    free(sa);
    free(sb);
    free(wp);
    return st;
}
