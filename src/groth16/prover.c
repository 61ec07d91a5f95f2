/*
 * prover.c — Groth16 prover: start (H + G1 MSMs) and finalize (G2 MSM, blinding, assembly,
 * self-verification). The contract, formulas and sources are in prover.h.
 */
#include "groth16/prover.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "groth16/verifier.h"
#include "msm/msm.h"
#include "util/clock.h"

void groth16_pending_free(groth16_pending_t *p) {
    if (!p) return;
    free(p->w_plain);
    memset(p, 0, sizeof *p);
}

pm_status groth16_pending_init(groth16_pending_t *p, const zkey_t *zk, const fr_t *w, size_t n,
                               const groth16_prove_opts_t *opts, pm_error *err) {
    memset(p, 0, sizeof *p);
    const char *wname = opts && opts->wtns_name ? opts->wtns_name : "witness";
    snprintf(p->wtns_name, sizeof p->wtns_name, "%s", wname);
    if (n != zk->n_vars)
        return pm_error_set(err, PM_ERR_MISMATCH, wname, PM_NO_OFFSET,
                            "witness has %zu values, zkey expects nVars = %u (a witness for "
                            "another circuit?)", n, zk->n_vars);
    p->w_plain = malloc((n ? n : 1) * sizeof *p->w_plain);
    if (!p->w_plain) return pm_error_set(err, PM_ERR_NOMEM, wname, PM_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < n; i++) fr_from_mont(&p->w_plain[i], &w[i]);
    p->zk = zk;
    p->n_vars = n;
    g1_jac_set_infinity(&p->sum_a);
    g1_jac_set_infinity(&p->sum_b1);
    g1_jac_set_infinity(&p->sum_c);
    p->threads = opts ? opts->threads : 0;
    p->skip_self_check = opts ? opts->skip_self_check : 0;
    return PM_OK;
}

static size_t max3(size_t a, size_t b, size_t c) {
    size_t m = a > b ? a : b;
    return m > c ? m : c;
}

/* the G1 MSM scratch part of start: enough for each of its four MSMs */
static size_t start_msm_bytes(const zkey_t *zk, unsigned threads) {
    size_t n = zk->n_vars, nc = n - zk->n_public - 1, N = zk->domain_size;
    return max3(msm_g1_scratch_size(n, threads), msm_g1_scratch_size(nc, threads),
                msm_g1_scratch_size(N, threads));
}

size_t groth16_start_scratch_size(const zkey_t *zk, unsigned threads) {
    return 3 * (size_t)zk->domain_size * sizeof(fr_t) + start_msm_bytes(zk, threads);
}

size_t groth16_finalize_scratch_size(const zkey_t *zk, unsigned threads) {
    return msm_g2_scratch_size(zk->n_vars, threads);
}

/* Re-label an error from a lower layer that did not know the file names. */
static pm_status msm_fail(pm_status st, const char *what, pm_error *err) {
    return pm_error_set(err, st, "", PM_NO_OFFSET, "%s MSM failed (%s)", what,
                        pm_status_name(st));
}

pm_status groth16_prove_start(groth16_pending_t *p, const zkey_t *zk, const fr_t *w, size_t n,
                              const groth16_prove_opts_t *opts, pm_error *err) {
    double t0 = pm_now_s();
    pm_status st = groth16_pending_init(p, zk, w, n, opts, err);
    if (st) return st;

    if (opts && opts->r1cs) {
        const char *rname = opts->r1cs_name ? opts->r1cs_name : "r1cs";
        if ((st = zkey_check_r1cs(zk, opts->r1cs, rname, err))) goto fail;
        uint32_t bad = 0;
        st = r1cs_check_satisfied(&bad, opts->r1cs, w, n, err);
        if (st == PM_ERR_UNSATISFIED) {
            /* name the witness (what is wrong), keep r1cs's wording of the constraint */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err ? err->msg : "not satisfied");
            pm_error_set(err, st, p->wtns_name, PM_NO_OFFSET, "%s (checked against %s)", msg,
                         rname);
            goto fail;
        }
        if (st) goto fail;
    }
    double t1 = pm_now_s();
    p->t.check = t1 - t0;

    const size_t N = zk->domain_size;
    ntt_domain_t own_domain;
    const ntt_domain_t *dom = opts ? opts->domain : NULL;
    int own = 0;
    if (!dom) {
        if ((st = ntt_domain_init(&own_domain, zk->log2_domain, NTT_ROOTS_SNARKJS, err))) goto fail;
        dom = &own_domain;
        own = 1;
    } else if (dom->n != N) {
        st = pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                          "cached NTT domain has size %zu, zkey domain is %zu", dom->n, N);
        goto fail;
    }
    const size_t need = groth16_start_scratch_size(zk, p->threads);
    void *mem = opts ? opts->scratch : NULL;
    int own_mem = 0;
    if (mem && opts->scratch_size < need) {
        if (own) ntt_domain_free(&own_domain);
        st = pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                          "scratch of %zu bytes is smaller than groth16_start_scratch_size = %zu",
                          opts->scratch_size, need);
        goto fail;
    }
    if (!mem) {
        mem = malloc(need);
        own_mem = 1;
    }
    if (!mem) {
        if (own) ntt_domain_free(&own_domain);
        st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET,
                          "out of memory for the H phase and MSMs (%zu bytes)", need);
        goto fail;
    }
    fr_t *work = mem;
    void *msm_scratch = (char *)mem + 3 * N * sizeof(fr_t);
    const size_t msm_bytes = need - 3 * N * sizeof(fr_t);
    fr_t *a = work, *b = work + N, *scratch = work + 2 * N;
    st = zkey_eval_ab(a, b, N, zk, w, n, err);
    double t2 = pm_now_s();
    p->t.eval_ab = t2 - t1;
    if (!st) st = ntt_snarkjs_h(a, N, a, b, scratch, dom, err); /* P lands in a, plain form */
    double t3 = pm_now_s();
    p->t.h = t3 - t2;
    if (own) ntt_domain_free(&own_domain);
    if (st) {
        if (own_mem) free(mem);
        goto fail;
    }

    g1_jac_t tmp;
    const size_t n_pub = zk->n_public;
    if ((st = msm_g1_vartime_with_scratch(&p->sum_a, zk->a, p->w_plain, n, p->threads, msm_scratch, msm_bytes))) {
        msm_fail(st, "A (section 5)", err);
        if (own_mem) free(mem);
        goto fail;
    }
    double t4 = pm_now_s();
    p->t.msm_a = t4 - t3;
    if ((st = msm_g1_vartime_with_scratch(&p->sum_b1, zk->b1, p->w_plain, n, p->threads, msm_scratch, msm_bytes))) {
        msm_fail(st, "B1 (section 6)", err);
        if (own_mem) free(mem);
        goto fail;
    }
    double t5 = pm_now_s();
    p->t.msm_b1 = t5 - t4;
    if ((st = msm_g1_vartime_with_scratch(&p->sum_c, zk->c, p->w_plain + n_pub + 1, n - n_pub - 1,
                                          p->threads, msm_scratch, msm_bytes))) {
        msm_fail(st, "C (section 8)", err);
        if (own_mem) free(mem);
        goto fail;
    }
    double t6 = pm_now_s();
    p->t.msm_c = t6 - t5;
    st = msm_g1_vartime_with_scratch(&tmp, zk->h, a, N, p->threads, msm_scratch, msm_bytes);
    if (own_mem) free(mem);
    if (st) {
        msm_fail(st, "H (section 9)", err);
        goto fail;
    }
    g1_jac_add(&p->sum_c, &p->sum_c, &tmp);
    p->t.msm_h = pm_now_s() - t6;
    return PM_OK;
fail:
    groth16_pending_free(p);
    return st;
}

void groth16_public_signals(fr_t *out, const zkey_t *zk, const fr_t *w) {
    for (uint32_t i = 0; i < zk->n_public; i++) out[i] = w[1 + i];
}

pm_status groth16_prove_finalize(groth16_proof_t *proof, groth16_pending_t *p, const fr_t *r,
                                 const fr_t *s, pm_error *err) {
    const zkey_t *zk = p->zk;
    memset(proof, 0, sizeof *proof);
    if (!zk || !p->w_plain)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "groth16_prove_finalize: handle was not started");
    double t0 = pm_now_s();
    g2_jac_t sum_b2;
    pm_status st;
    if (p->finalize_scratch) {
        if (p->finalize_scratch_size < groth16_finalize_scratch_size(zk, p->threads))
            return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                                "finalize scratch of %zu bytes is smaller than "
                                "groth16_finalize_scratch_size = %zu", p->finalize_scratch_size,
                                groth16_finalize_scratch_size(zk, p->threads));
        st = msm_g2_vartime_with_scratch(&sum_b2, zk->b2, p->w_plain, p->n_vars, p->threads,
                                         p->finalize_scratch, p->finalize_scratch_size);
    } else {
        st = msm_g2_vartime(&sum_b2, zk->b2, p->w_plain, p->n_vars, p->threads);
    }
    if (st) return msm_fail(st, "B2 (section 7, G2)", err);
    double t1 = pm_now_s();
    p->t.msm_b2 = t1 - t0;

    /* pi_a = alpha_1 + sum_a + r delta_1 */
    g1_jac_t A, B1, C, t, delta1;
    g1_jac_from_affine(&delta1, &zk->delta1);
    g1_jac_add_affine(&A, &p->sum_a, &zk->alpha1);
    g1_jac_mul_fr(&t, &delta1, r);
    g1_jac_add(&A, &A, &t);
    /* pi_b = beta_2 + sum_b2 + s delta_2 */
    g2_jac_t B, t2, delta2;
    g2_jac_from_affine(&delta2, &zk->delta2);
    g2_jac_add_affine(&B, &sum_b2, &zk->beta2);
    g2_jac_mul_fr(&t2, &delta2, s);
    g2_jac_add(&B, &B, &t2);
    /* B1 = beta_1 + sum_b1 + s delta_1 */
    g1_jac_add_affine(&B1, &p->sum_b1, &zk->beta1);
    g1_jac_mul_fr(&t, &delta1, s);
    g1_jac_add(&B1, &B1, &t);
    /* pi_c = sum_c + s pi_a + r B1 - r s delta_1 */
    fr_t rs;
    fr_mul(&rs, r, s);
    C = p->sum_c;
    g1_jac_mul_fr(&t, &A, s);
    g1_jac_add(&C, &C, &t);
    g1_jac_mul_fr(&t, &B1, r);
    g1_jac_add(&C, &C, &t);
    g1_jac_mul_fr(&t, &delta1, &rs);
    g1_jac_neg(&t, &t);
    g1_jac_add(&C, &C, &t);
    g1_jac_to_affine(&proof->a, &A);
    g2_jac_to_affine(&proof->b, &B);
    g1_jac_to_affine(&proof->c, &C);
    double t3 = pm_now_s();
    p->t.assemble = t3 - t1;

    if (!p->skip_self_check) {
        groth16_vk_t vk = {
            .alpha_1 = zk->alpha1, .beta_2 = zk->beta2, .gamma_2 = zk->gamma2,
            .delta_2 = zk->delta2, .n_public = zk->n_public, .ic = zk->ic};
        fr_t *x = malloc((zk->n_public ? zk->n_public : 1) * sizeof *x);
        if (!x) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory");
        for (uint32_t i = 0; i < zk->n_public; i++) fr_to_mont(&x[i], &p->w_plain[1 + i]);
        int valid = 0;
        pm_error verr;
        pm_error_clear(&verr);
        st = groth16_verify(&valid, &vk, x, zk->n_public, proof, NULL, NULL, &verr);
        free(x);
        p->t.self_check = pm_now_s() - t3;
        if (st) {
            memset(proof, 0, sizeof *proof);
            return pm_error_set(err, st, "", PM_NO_OFFSET, "self-check failed: %s", verr.msg);
        }
        if (!valid) {
            memset(proof, 0, sizeof *proof);
            return pm_error_set(err, PM_ERR_UNSATISFIED, p->wtns_name, PM_NO_OFFSET,
                                "the witness does not satisfy the circuit: the proof made from "
                                "it fails verification (%s); give the circuit's .r1cs to name "
                                "the failing constraint", verr.msg);
        }
    }
    return PM_OK;
}

pm_status groth16_prove(groth16_proof_t *proof, const zkey_t *zk, const fr_t *w, size_t n,
                        const fr_t *r, const fr_t *s, const groth16_prove_opts_t *opts,
                        groth16_timings_t *timings, pm_error *err) {
    groth16_pending_t p;
    pm_status st = groth16_prove_start(&p, zk, w, n, opts, err);
    if (st) {
        if (timings) memset(timings, 0, sizeof *timings);
        memset(proof, 0, sizeof *proof);
        return st;
    }
    st = groth16_prove_finalize(proof, &p, r, s, err);
    if (timings) *timings = p.t;
    groth16_pending_free(&p);
    return st;
}

/* ---- blinding scalars ---- */

/* 1 when the plain 4-limb integer l is < r */
static int below_r(const uint64_t l[4]) {
    for (int i = 3; i >= 0; i--) {
        if (l[i] < FR_MODULUS.l[i]) return 1;
        if (l[i] > FR_MODULUS.l[i]) return 0;
    }
    return 0;
}

pm_status groth16_random_scalar(fr_t *out, pm_error *err) {
    for (;;) {
        fr_t v;
        size_t got = 0;
        uint8_t *bytes = (uint8_t *)v.l;
        while (got < sizeof v.l) {
            ssize_t k = getrandom(bytes + got, sizeof v.l - got, 0);
            if (k < 0) {
                if (errno == EINTR) continue;
                return pm_error_set(err, PM_ERR_IO, "getrandom", PM_NO_OFFSET,
                                    "OS random generator failed: %s", strerror(errno));
            }
            got += (size_t)k;
        }
        v.l[3] &= 0x7fffffffffffffffull; /* r < 2^255: keep 255 bits, accept ~90% */
        if (below_r(v.l)) {
            fr_to_mont(out, &v);
            memset(&v, 0, sizeof v);
            return PM_OK;
        }
    }
}

static uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t xoshiro_next(uint64_t s[4]) {
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static void seeded_one(fr_t *out, uint64_t st[4]) {
    for (;;) {
        fr_t v;
        for (int i = 0; i < 4; i++) v.l[i] = xoshiro_next(st);
        v.l[3] &= 0x7fffffffffffffffull;
        if (below_r(v.l)) {
            fr_to_mont(out, &v);
            return;
        }
    }
}

void groth16_seeded_scalars(fr_t *r, fr_t *s, uint64_t seed) {
    uint64_t st[4], x = seed;
    for (int i = 0; i < 4; i++) st[i] = splitmix64(&x);
    seeded_one(r, st);
    seeded_one(s, st);
}
