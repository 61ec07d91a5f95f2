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
#include "util/clock.h"

/* mark[i] = 1 for each column with a nonzero coefficient in m. */
static void density(uint8_t *mark, const r1cs_matrix_t *m) {
    for (uint64_t t = 0; t < m->nnz; t++)
        if (!fr_is_zero(r1cs_coef(m, t))) mark[m->col[t]] = 1;
}

pm_status groth16_prove_bellperson_start(groth16_bp_pending_t *pd, const bp_params_t *p,
                                         const r1cs_t *cs, const fr_t *w, size_t n_w,
                                         unsigned threads, pm_error *err) {
    double t0 = pm_now_s(), t1 = t0, t2 = t0, t3 = t0;
    memset(pd, 0, sizeof *pd);
    pd->first_bad = UINT32_MAX;
    pd->p = p;
    pd->threads = threads;
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
    if (nv == 0 || !fr_is_one(&w[0]))
        return pm_error_set(err, PM_ERR_UNSATISFIED, "witness", PM_NO_OFFSET,
                            "wire 0 is not 1 (not a witness for this circuit?)");
    pm_status st = PM_OK;

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
    /* a, b, c on the rows, zero-padded; the input rows a = w_i */
    if ((st = r1cs_spmv(a, b, c, cs->n_constraints, cs, w, n_w, err))) goto out;
    { /* every constraint, on the rows just computed (one multiplication per row instead of a
       * second pass over the matrices): the first failing one is named and kept in first_bad */
        const int64_t rows_c = (int64_t)cs->n_constraints;
        int64_t first = rows_c;
        PM_OMP(parallel for schedule(static) reduction(min : first))
        for (int64_t r = 0; r < rows_c; r++) {
            if (r > first) continue;
            fr_t ab;
            fr_mul(&ab, &a[r], &b[r]);
            if (!fr_eq(&ab, &c[r]) && r < first) first = r;
        }
        if (first < rows_c) {
            st = pm_error_set(err, PM_ERR_UNSATISFIED, "witness", PM_NO_OFFSET,
                              "constraint %lld of %u not satisfied: <A,w>*<B,w> != <C,w>", (long long)first,
                              cs->n_constraints);
            pd->first_bad = (uint32_t)first;
            goto out;
        }
    }
    for (size_t i = 0; i < ni; i++) a[cs->n_constraints + i] = w[i];
    t1 = pm_now_s();
    /* H = (a b - c) / Z on the coset g<omega> (g = 7, Z(g omega^i) = g^m - 1), back to
     * coefficients; the first m - 1 are the h-query scalars */
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
    t2 = pm_now_s();
    /* G1 MSMs */
    {
        g1_jac_t jl, jh;
        if ((st = msm_g1_vartime(&pd->sum_a, p->a, sa, ka, threads)) ||
            (st = msm_g1_vartime(&pd->sum_b1, p->b_g1, sb, kb, threads)) ||
            (st = msm_g1_vartime(&jl, p->l, wp + ni, na, threads)) ||
            (st = msm_g1_vartime(&jh, p->h, a, m - 1, threads))) {
            st = pm_error_set(err, st, "", PM_NO_OFFSET, "G1 MSM failed (%s)", pm_status_name(st));
            goto out;
        }
        g1_jac_add(&pd->sum_c, &jl, &jh);
    }
    t3 = pm_now_s();
    pd->sb = sb;
    pd->kb = kb;
    sb = NULL;
out:
    pd->t.spmv = t1 - t0;
    pd->t.h = t2 - t1;
    pd->t.msm_g1 = t3 - t2;
    ntt_domain_free(&d);
    free(da);
    free(db);
    free(a);
    free(b);
    free(c);
    free(sa);
    free(sb);
    free(wp);
    if (st) groth16_bp_pending_free(pd);
    return st;
}

pm_status groth16_prove_bellperson_finalize(groth16_proof_t *proof, groth16_bp_pending_t *pd,
                                            const fr_t *r, const fr_t *s, pm_error *err) {
    double t0 = pm_now_s();
    const bp_params_t *p = pd->p;
    g2_jac_t jb2;
    pm_status st = msm_g2_vartime(&jb2, p->b_g2, pd->sb, pd->kb, pd->threads);
    if (st) return pm_error_set(err, st, "", PM_NO_OFFSET, "G2 MSM failed (%s)", pm_status_name(st));
    double t1 = pm_now_s();
    const bp_vk_t *vk = &p->vk;
    g1_jac_t A, B1, C, jt;
    g2_jac_t B, j2;
    fr_t rs;
    fr_mul(&rs, r, s);
    /* A = alpha + sum_a + r delta */
    g1_jac_from_affine(&jt, &vk->delta_g1);
    g1_jac_mul_fr(&jt, &jt, r);
    g1_jac_add_affine(&A, &pd->sum_a, &vk->alpha_g1);
    g1_jac_add(&A, &A, &jt);
    /* B1 = beta + sum_b1 + s delta (G1); B likewise in G2 */
    g1_jac_from_affine(&jt, &vk->delta_g1);
    g1_jac_mul_fr(&jt, &jt, s);
    g1_jac_add_affine(&B1, &pd->sum_b1, &vk->beta_g1);
    g1_jac_add(&B1, &B1, &jt);
    g2_jac_from_affine(&j2, &vk->delta_g2);
    g2_jac_mul_fr(&j2, &j2, s);
    g2_jac_add_affine(&B, &jb2, &vk->beta_g2);
    g2_jac_add(&B, &B, &j2);
    /* C = (L + H) + s A + r B1 - r s delta */
    C = pd->sum_c;
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
    pd->t.msm_g2 = t1 - t0;
    pd->t.assemble = pm_now_s() - t1;
    return PM_OK;
}

void groth16_bp_pending_free(groth16_bp_pending_t *pd) {
    free(pd->sb);
    pd->sb = NULL;
    pd->kb = 0;
}

pm_status groth16_prove_bellperson(groth16_proof_t *proof, const bp_params_t *p, const r1cs_t *cs,
                                   const fr_t *w, size_t n_w, const fr_t *r, const fr_t *s,
                                   unsigned threads, bp_prove_timings_t *tm, pm_error *err) {
    groth16_bp_pending_t pd;
    pm_status st = groth16_prove_bellperson_start(&pd, p, cs, w, n_w, threads, err);
    if (!st) st = groth16_prove_bellperson_finalize(proof, &pd, r, s, err);
    if (tm) *tm = pd.t;
    groth16_bp_pending_free(&pd);
    return st;
}
