/*
 * test_setup_keys.c — groth16 setup (issue #6): fixed-base multiplication against the curve
 * layer's scalar multiplication; snarkjs keys from tests/data circuits and from a synthetic
 * circuit: written, read back by zkey_read, cross-checked with the r1cs, proved with the
 * snarkjs-convention prover (whose self-check verifies against the key's own vk), written again
 * byte-identically; bellperson keys: proved with groth16_prove_bellperson and verified.
 * (The snarkjs oracle itself runs in tests/cli/test_setup_cli.sh.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "groth16/params.h"
#include "groth16/proof_bytes.h"
#include "groth16/prover.h"
#include "groth16/prover_bellperson.h"
#include "groth16/setup.h"
#include "groth16/verifier.h"
#include "groth16/zkey.h"
#include "groth16/zkey_write.h"
#include "r1cs/r1cs.h"
#include "r1cs/synth.h"
#include "r1cs/wtns.h"
#include "util/parallel.h"

static char *slurp(const char *path, size_t *len) { return (char *)pm_test_slurp(path, len); }

static void test_fixed_base(void **state) {
    (void)state;
    pm_test_seed();
    pm_error err;
    for (unsigned w = 1; w <= 10; w += 3) {
        g1_fixed_base_t f1;
        g2_fixed_base_t f2;
        assert_int_equal(g1_fixed_base_init(&f1, &G1_GENERATOR, w, &err), PM_OK);
        assert_int_equal(g2_fixed_base_init(&f2, &G2_GENERATOR, w, &err), PM_OK);
        enum { N = 40 };
        fr_t k[N];
        for (int i = 0; i < N; i++) pm_rand_fr(&k[i]);
        k[0] = FR_ZERO;
        k[1] = FR_ONE;
        fr_neg(&k[2], &FR_ONE);
        g1_affine_t o1[N];
        g2_affine_t o2[N];
        assert_int_equal(g1_fixed_base_mul_many_vartime(o1, N, &f1, k, &err), PM_OK);
        assert_int_equal(g2_fixed_base_mul_many_vartime(o2, N, &f2, k, &err), PM_OK);
        for (int i = 0; i < N; i++) {
            g1_jac_t j;
            g1_affine_t a;
            g1_jac_from_affine(&j, &G1_GENERATOR);
            g1_jac_mul_fr(&j, &j, &k[i]);
            g1_jac_to_affine(&a, &j);
            assert_true(g1_affine_eq(&a, &o1[i]));
            g2_jac_t j2;
            g2_affine_t a2;
            g2_jac_from_affine(&j2, &G2_GENERATOR);
            g2_jac_mul_fr(&j2, &j2, &k[i]);
            g2_jac_to_affine(&a2, &j2);
            assert_true(g2_affine_eq(&a2, &o2[i]));
        }
        assert_true(g1_affine_is_infinity(&o1[0]));
        g1_fixed_base_free(&f1);
        g2_fixed_base_free(&f2);
    }
}

static void test_toxic_seeded(void **state) {
    (void)state;
    pm_error err;
    groth16_toxic_t a, b, c;
    uint64_t s1 = 7, s2 = 8;
    assert_int_equal(groth16_toxic_draw(&a, &s1, &err), PM_OK);
    assert_int_equal(groth16_toxic_draw(&b, &s1, &err), PM_OK);
    assert_int_equal(groth16_toxic_draw(&c, &s2, &err), PM_OK);
    assert_memory_equal(&a, &b, sizeof a);
    assert_false(fr_eq(&a.tau, &c.tau));
    assert_false(fr_eq(&a.tau, &a.alpha));
    assert_int_equal(groth16_toxic_draw(&c, NULL, &err), PM_OK);
    assert_false(fr_eq(&a.tau, &c.tau));
}

/* snarkjs key for cs: write, read, check, prove (self-checked), rewrite identically. */
static void snarkjs_roundtrip(const r1cs_t *cs, const fr_t *w, uint64_t seed, const char *label) {
    pm_error err;
    pm_error_clear(&err);
    groth16_toxic_t t;
    assert_int_equal(groth16_toxic_draw(&t, &seed, &err), PM_OK);
    zkey_t zk;
    assert_int_equal(groth16_setup_snarkjs(&zk, cs, &t, NULL, &err), PM_OK);
    char path[256], path2[256];
    snprintf(path, sizeof path, "/tmp/pm_setup_%d_%s.zkey", (int)getpid(), label);
    snprintf(path2, sizeof path2, "/tmp/pm_setup_%d_%s_2.zkey", (int)getpid(), label);
    assert_int_equal(zkey_write(path, &zk, NULL, NULL, &err), PM_OK);
    zkey_free(&zk);
    zkey_t rd;
    pm_status st = zkey_read(&rd, path, ZKEY_CHECK_SUBGROUP, &err);
    if (st) printf("%s: %s\n", label, err.msg);
    assert_int_equal(st, PM_OK);
    assert_int_equal(zkey_check_r1cs(&rd, cs, label, &err), PM_OK);
    groth16_proof_t proof;
    fr_t r, s;
    pm_rand_fr(&r);
    pm_rand_fr(&s);
    groth16_prove_opts_t opts = {0};
    opts.r1cs = cs;
    st = groth16_prove(&proof, &rd, w, cs->n_wires, &r, &s, &opts, NULL, &err);
    if (st) printf("%s: %s\n", label, err.msg);
    assert_int_equal(st, PM_OK);
    /* read -> write: identical bytes */
    assert_int_equal(zkey_write(path2, &rd, NULL, NULL, &err), PM_OK);
    size_t n1, n2;
    char *b1 = slurp(path, &n1), *b2 = slurp(path2, &n2);
    assert_non_null(b1);
    assert_non_null(b2);
    assert_int_equal(n1, n2);
    assert_memory_equal(b1, b2, n1);
    free(b1);
    free(b2);
    zkey_free(&rd);
    unlink(path);
    unlink(path2);
}

static void bellperson_prove(const r1cs_t *cs, const fr_t *w, uint64_t seed) {
    pm_error err;
    groth16_toxic_t t;
    assert_int_equal(groth16_toxic_draw(&t, &seed, &err), PM_OK);
    bp_params_t p;
    pm_status st = groth16_setup_bellperson(&p, cs, &t, NULL, &err);
    if (st) printf("bellperson setup: %s\n", err.msg);
    assert_int_equal(st, PM_OK);
    groth16_vk_t vk;
    assert_int_equal(params_vk_to_groth16_vk(&vk, &p.vk, &err), PM_OK);
    fr_t r, s;
    pm_rand_fr(&r);
    pm_rand_fr(&s);
    groth16_proof_t proof;
    st = groth16_prove_bellperson(&proof, &p, cs, w, cs->n_wires, &r, &s, 0, NULL, &err);
    if (st) printf("groth16_prove_bellperson: %s\n", err.msg);
    assert_int_equal(st, PM_OK);
    int valid = 0;
    assert_int_equal(groth16_verify(&valid, &vk, w + 1, vk.n_public, &proof, NULL, NULL, &err),
                     PM_OK);
    assert_true(valid);
    /* a wrong public input fails */
    fr_t *x = malloc((vk.n_public + 1) * sizeof *x);
    memcpy(x, w + 1, vk.n_public * sizeof *x);
    fr_add(&x[0], &x[0], &FR_ONE);
    assert_int_equal(groth16_verify(&valid, &vk, x, vk.n_public, &proof, NULL, NULL, &err), PM_OK);
    assert_false(valid);
    free(x);
    /* an unsatisfying witness is refused */
    fr_t *bad = malloc(cs->n_wires * sizeof *bad);
    memcpy(bad, w, cs->n_wires * sizeof *bad);
    fr_t two; /* +2 breaks a booleanity gate whatever the bit (b+1 would not for b = 0) */
    fr_add(&two, &FR_ONE, &FR_ONE);
    fr_add(&bad[cs->n_wires - 1], &bad[cs->n_wires - 1], &two);
    assert_int_equal(groth16_prove_bellperson(&proof, &p, cs, bad, cs->n_wires, &r, &s, 0, NULL, &err),
                     PM_ERR_UNSATISFIED);
    free(bad);
    groth16_vk_free(&vk);
    params_free(&p);
}

static void test_fixtures(void **state) {
    (void)state;
    pm_test_seed();
    const char *names[] = {"multiplier", "powchain"};
    for (int i = 0; i < 2; i++) {
        char rp[2048], wp[2048];
        snprintf(rp, sizeof rp, "%s/tests/data/%s/circuit.r1cs", pm_source_dir(), names[i]);
        snprintf(wp, sizeof wp, "%s/tests/data/%s/witness.wtns", pm_source_dir(), names[i]);
        pm_error err;
        r1cs_t cs;
        wtns_t w;
        assert_int_equal(r1cs_read(&cs, rp, &err), PM_OK);
        assert_int_equal(wtns_read(&w, wp, &err), PM_OK);
        snarkjs_roundtrip(&cs, w.values, 11 + (uint64_t)i, names[i]);
        bellperson_prove(&cs, w.values, 21 + (uint64_t)i);
        r1cs_free(&cs);
        wtns_free(&w);
    }
}

static void test_synthetic(void **state) {
    (void)state;
    pm_test_seed();
    pm_error err;
    double shares[] = {0.0, 0.5, 1.0};
    for (int i = 0; i < 3; i++) {
        r1cs_synth_opts_t o = {300 + 37 * (uint32_t)i, (uint32_t)i + 1, 3, shares[i], 99 + (uint64_t)i};
        r1cs_t cs;
        fr_t *w;
        assert_int_equal(r1cs_synth(&cs, &w, &o, &err), PM_OK);
        assert_int_equal(r1cs_check_satisfied(NULL, &cs, w, cs.n_wires, &err), PM_OK);
        /* bit share: count 0/1 private values */
        size_t bits = 0, priv = cs.n_wires - 1 - o.n_public;
        for (size_t k = 1 + o.n_public; k < cs.n_wires; k++)
            if (fr_is_zero(&w[k]) || fr_is_one(&w[k])) bits++;
        printf("share %.1f: %zu of %zu private values are 0/1\n", shares[i], bits, priv);
        if (shares[i] == 1.0) assert_int_equal(bits, priv);
        if (shares[i] == 0.5) assert_true(bits > priv / 3 && bits < 2 * priv / 3);
        /* write + read back the files */
        char rp[256], wp[256];
        snprintf(rp, sizeof rp, "/tmp/pm_synth_%d.r1cs", (int)getpid());
        snprintf(wp, sizeof wp, "/tmp/pm_synth_%d.wtns", (int)getpid());
        assert_int_equal(r1cs_write(rp, &cs, &err), PM_OK);
        assert_int_equal(wtns_write(wp, w, cs.n_wires, &err), PM_OK);
        r1cs_t cs2;
        wtns_t w2;
        assert_int_equal(r1cs_read(&cs2, rp, &err), PM_OK);
        assert_int_equal(wtns_read(&w2, wp, &err), PM_OK);
        assert_int_equal(cs2.A.nnz, cs.A.nnz);
        assert_int_equal(cs2.B.nnz, cs.B.nnz);
        assert_int_equal(cs2.C.nnz, cs.C.nnz);
        assert_memory_equal(cs2.A.coef, cs.A.coef, cs.A.nnz * sizeof(fr_t));
        assert_memory_equal(w2.values, w, cs.n_wires * sizeof(fr_t));
        unlink(rp);
        unlink(wp);
        if (shares[i] > 0) { /* share 0: product gates only; fine for both conventions too */
            snarkjs_roundtrip(&cs2, w2.values, 31 + (uint64_t)i, "synth");
        }
        bellperson_prove(&cs2, w2.values, 41 + (uint64_t)i);
        r1cs_free(&cs2);
        wtns_free(&w2);
        r1cs_free(&cs);
        free(w);
    }
}


/* groth16_qap_at_tau: the same u, v, w at 1, 3 and 8 threads (the column-range split), with full
 * and dictionary-coded coefficients; at a small size against the product form of the Lagrange
 * basis, L_c(tau) = prod_{j != c} (tau - x_j) / (x_c - x_j), an independent formula. */
static void qap_naive(fr_t *u, const r1cs_matrix_t *m, const fr_t *x, size_t n, const fr_t *tau, uint32_t nw) {
    for (uint32_t i = 0; i < nw; i++) u[i] = FR_ZERO;
    for (uint32_t c = 0; c < m->n_rows; c++) {
        fr_t num = FR_ONE, den = FR_ONE, d, l;
        for (size_t j = 0; j < n; j++) {
            if (j == c) continue;
            fr_sub(&d, tau, &x[j]);
            fr_mul(&num, &num, &d);
            fr_sub(&d, &x[c], &x[j]);
            fr_mul(&den, &den, &d);
        }
        fr_inv_vartime(&den, &den);
        fr_mul(&l, &num, &den);
        for (uint64_t t = m->row_ptr[c]; t < m->row_ptr[c + 1]; t++) {
            fr_t p;
            fr_mul(&p, r1cs_coef(m, t), &l);
            fr_add(&u[m->col[t]], &u[m->col[t]], &p);
        }
    }
}

static void dict_code(r1cs_matrix_t *m, uint32_t **idx) {
    *idx = malloc(m->nnz * sizeof **idx);
    assert_non_null(*idx);
    for (uint64_t t = 0; t < m->nnz; t++) (*idx)[t] = (uint32_t)t;
    m->coef_idx = *idx;
    m->coef_tab = m->coef;
    m->n_coef_tab = (uint32_t)m->nnz;
}

static void test_qap_threads(void **state) {
    (void)state;
    uint64_t seed = pm_test_seed();
    pm_error err;
    fr_t tau;
    fr_from_u64(&tau, seed | 1);
    /* large enough for the parallel column split (>= 2^16 terms per matrix) */
    r1cs_synth_opts_t o = {100000, 3, 3, 0.5, seed};
    r1cs_t cs;
    fr_t *wit;
    assert_int_equal(r1cs_synth(&cs, &wit, &o, &err), PM_OK);
    free(wit);
    uint64_t rows = (uint64_t)cs.n_constraints + r1cs_n_public(&cs) + 1;
    unsigned log_n = 0;
    while (((uint64_t)1 << log_n) < rows) log_n++;
    size_t nw = cs.n_wires, bytes = 3 * nw * sizeof(fr_t);
    fr_t *ref = malloc(bytes), *got = malloc(bytes);
    assert_non_null(ref);
    assert_non_null(got);
    int saved = pm_thread_count();
    uint32_t *ia = NULL, *ib = NULL, *ic = NULL;
    for (int coding = 0; coding < 2; coding++) {
        if (coding) {
            dict_code(&cs.A, &ia);
            dict_code(&cs.B, &ib);
            dict_code(&cs.C, &ic);
        }
        const int threads[] = {1, 3, 8};
        for (int k = 0; k < 3; k++) {
#ifdef _OPENMP
            omp_set_num_threads(threads[k]);
#endif
            fr_t *out = (coding || k) ? got : ref;
            assert_int_equal(groth16_qap_at_tau(out, out + nw, out + 2 * nw, NULL, &cs, log_n, 7, &tau, &err), PM_OK);
            if (out == got) assert_memory_equal(got, ref, bytes);
        }
    }
#ifdef _OPENMP
    omp_set_num_threads(saved);
#endif
    (void)saved;
    cs.A.coef_idx = cs.B.coef_idx = cs.C.coef_idx = NULL;
    free(ia);
    free(ib);
    free(ic);
    r1cs_free(&cs);
    /* small: against the product form (the input rows appended after the constraints, as setup.h says) */
    r1cs_synth_opts_t o2 = {11, 2, 2, 0.5, seed + 1};
    assert_int_equal(r1cs_synth(&cs, &wit, &o2, &err), PM_OK);
    free(wit);
    rows = (uint64_t)cs.n_constraints + r1cs_n_public(&cs) + 1;
    log_n = 0;
    while (((uint64_t)1 << log_n) < rows) log_n++;
    size_t n = (size_t)1 << log_n;
    fr_t g, omega, x[64];
    fr_from_u64(&g, 7);
    assert_int_equal(fr_root_of_unity(&omega, &g, log_n), 0);
    x[0] = FR_ONE;
    for (size_t j = 1; j < n; j++) fr_mul(&x[j], &x[j - 1], &omega);
    nw = cs.n_wires;
    fr_t *u = malloc(3 * nw * sizeof *u), *e = malloc(3 * nw * sizeof *e);
    assert_non_null(u);
    assert_non_null(e);
    assert_int_equal(groth16_qap_at_tau(u, u + nw, u + 2 * nw, NULL, &cs, log_n, 7, &tau, &err), PM_OK);
    qap_naive(e, &cs.A, x, n, &tau, cs.n_wires);
    qap_naive(e + nw, &cs.B, x, n, &tau, cs.n_wires);
    qap_naive(e + 2 * nw, &cs.C, x, n, &tau, cs.n_wires);
    /* input row i (of nPublic + 1) is constraint row n_constraints + i with A coefficient 1 at wire i */
    for (uint32_t i = 0; i <= r1cs_n_public(&cs); i++) {
        size_t c = cs.n_constraints + i;
        fr_t num = FR_ONE, den = FR_ONE, d, l;
        for (size_t j = 0; j < n; j++) {
            if (j == c) continue;
            fr_sub(&d, &tau, &x[j]);
            fr_mul(&num, &num, &d);
            fr_sub(&d, &x[c], &x[j]);
            fr_mul(&den, &den, &d);
        }
        fr_inv_vartime(&den, &den);
        fr_mul(&l, &num, &den);
        fr_add(&e[i], &e[i], &l);
    }
    assert_memory_equal(u, e, 3 * nw * sizeof *u);
    free(u);
    free(e);
    r1cs_free(&cs);
    free(ref);
    free(got);
}

/* zkey_read's coefficient section (parallel passes): a file whose matrices each come in constraint order,
 * as setup writes it, lands in file order (coefficient i in slot "its matrix's coefficients before it");
 * the same coefficients shuffled take the serial stable path and give the same row pointers, rows used, a
 * and b (zkey_eval_ab) and the file order in coefs[]. Sized so that there are two chunks of the parallel
 * passes (> 65536 coefficients), read with 1 and 3 threads. */
static void test_coef_order(void **state) {
    (void)state;
    uint64_t seed = pm_test_seed();
    pm_error err;
    r1cs_synth_opts_t o = {16000, 2, 3, 0.0, seed}; /* product gates: 2 x 3 terms each */
    r1cs_t cs;
    fr_t *w;
    assert_int_equal(r1cs_synth(&cs, &w, &o, &err), PM_OK);
    groth16_toxic_t t;
    uint64_t ts = seed + 1;
    assert_int_equal(groth16_toxic_draw(&t, &ts, &err), PM_OK);
    zkey_t zk;
    assert_int_equal(groth16_setup_snarkjs(&zk, &cs, &t, NULL, &err), PM_OK);
    printf("coefficient order: %u coefficients, domain %u\n", zk.n_coefs, zk.domain_size);
    assert_true(zk.n_coefs >= 65536);
    char p1[256], p2[256];
    snprintf(p1, sizeof p1, "/tmp/pm_coeford_%d.zkey", (int)getpid());
    snprintf(p2, sizeof p2, "/tmp/pm_coeford_%d_shuf.zkey", (int)getpid());
    assert_int_equal(zkey_write(p1, &zk, NULL, NULL, &err), PM_OK);
    /* rotated so that each 2^16-coefficient chunk is in order but the second starts below the first's end:
     * only the check across chunk boundaries sees it */
    char p3[256];
    snprintf(p3, sizeof p3, "/tmp/pm_coeford_%d_rot.zkey", (int)getpid());
    const uint32_t rot = zk.n_coefs - 65536;
    zkey_coef_t *orig = malloc((size_t)zk.n_coefs * sizeof *orig);
    assert_non_null(orig);
    memcpy(orig, zk.coefs, (size_t)zk.n_coefs * sizeof *orig);
    for (uint32_t i = 0; i < zk.n_coefs; i++) zk.coefs[i] = orig[(i + rot) % zk.n_coefs];
    assert_int_equal(zkey_write(p3, &zk, NULL, NULL, &err), PM_OK);
    /* the first 1000 reversed: out of order inside the first chunk only */
    char p4[256];
    snprintf(p4, sizeof p4, "/tmp/pm_coeford_%d_rev.zkey", (int)getpid());
    for (uint32_t i = 0; i < zk.n_coefs; i++) zk.coefs[i] = orig[i < 1000 ? 999 - i : i];
    assert_int_equal(zkey_write(p4, &zk, NULL, NULL, &err), PM_OK);
    memcpy(zk.coefs, orig, (size_t)zk.n_coefs * sizeof *orig);
    free(orig);
    /* shuffle the list (Fisher-Yates, seeded) and write it again */
    uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 7;
    for (uint32_t i = zk.n_coefs; i > 1; i--) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        const uint32_t j = (uint32_t)(x % i);
        const zkey_coef_t tmp = zk.coefs[i - 1];
        zk.coefs[i - 1] = zk.coefs[j];
        zk.coefs[j] = tmp;
    }
    assert_int_equal(zkey_write(p2, &zk, NULL, NULL, &err), PM_OK);
    const size_t n = zk.domain_size;
    fr_t *a0 = malloc(n * sizeof(fr_t)), *b0 = malloc(n * sizeof(fr_t)), *a1 = malloc(n * sizeof(fr_t)),
         *b1 = malloc(n * sizeof(fr_t));
    assert_non_null(a0); assert_non_null(b0); assert_non_null(a1); assert_non_null(b1);
    for (int th = 1; th <= 3; th += 2) {
#ifdef _OPENMP
        omp_set_num_threads(th);
#endif
        zkey_t s1, s2;
        assert_int_equal(zkey_read(&s1, p1, 0, &err), PM_OK);
        assert_int_equal(zkey_read(&s2, p2, 0, &err), PM_OK);
        /* setup's order (per constraint its A terms, then its B terms: each matrix in constraint order):
         * coefficient i lands in slot (its matrix's coefficients before it) */
        uint64_t seen[2] = {0, 0};
        uint32_t last[2] = {0, 0};
        for (uint32_t i = 0; i < s1.n_coefs; i++) {
            const zkey_coef_t *c = &s1.coefs[i];
            assert_true(c->matrix <= 1);
            if (seen[c->matrix]) assert_true(last[c->matrix] <= c->constraint);
            last[c->matrix] = c->constraint;
            const r1cs_matrix_t *m = c->matrix ? &s1.B_dom : &s1.A_dom;
            const uint64_t slot = seen[c->matrix]++;
            fr_t v;
            fr_from_mont(&v, &c->value);
            assert_int_equal(m->col[slot], c->signal);
            assert_memory_equal(&m->coef[slot], &v, sizeof v);
            assert_true(m->row_ptr[c->constraint] <= slot && slot < m->row_ptr[c->constraint + 1]);
        }
        assert_int_equal(seen[0], s1.A_dom.row_ptr[n]);
        assert_int_equal(seen[1], s1.B_dom.row_ptr[n]);
        assert_int_equal(s1.n_rows_used, s2.n_rows_used);
        /* shuffled file: the list in its file order, the same matrices' products */
        for (uint32_t i = 0; i < s2.n_coefs; i++) {
            assert_int_equal(s2.coefs[i].matrix, zk.coefs[i].matrix);
            assert_int_equal(s2.coefs[i].constraint, zk.coefs[i].constraint);
            assert_int_equal(s2.coefs[i].signal, zk.coefs[i].signal);
        }
        assert_memory_equal(s1.A_dom.row_ptr, s2.A_dom.row_ptr, (n + 1) * sizeof(uint64_t));
        assert_memory_equal(s1.B_dom.row_ptr, s2.B_dom.row_ptr, (n + 1) * sizeof(uint64_t));
        assert_int_equal(zkey_eval_ab(a0, b0, n, &s1, w, cs.n_wires, &err), PM_OK);
        assert_int_equal(zkey_eval_ab(a1, b1, n, &s2, w, cs.n_wires, &err), PM_OK);
        assert_memory_equal(a0, a1, n * sizeof(fr_t));
        assert_memory_equal(b0, b1, n * sizeof(fr_t));
        const char *more[2] = {p3, p4};
        for (int q = 0; q < 2; q++) {
            zkey_t s3;
            assert_int_equal(zkey_read(&s3, more[q], 0, &err), PM_OK);
            assert_memory_equal(s1.A_dom.row_ptr, s3.A_dom.row_ptr, (n + 1) * sizeof(uint64_t));
            assert_memory_equal(s1.B_dom.row_ptr, s3.B_dom.row_ptr, (n + 1) * sizeof(uint64_t));
            assert_int_equal(s1.n_rows_used, s3.n_rows_used);
            assert_int_equal(zkey_eval_ab(a1, b1, n, &s3, w, cs.n_wires, &err), PM_OK);
            assert_memory_equal(a0, a1, n * sizeof(fr_t));
            assert_memory_equal(b0, b1, n * sizeof(fr_t));
            zkey_free(&s3);
        }
        zkey_free(&s1);
        zkey_free(&s2);
    }
#ifdef _OPENMP
    omp_set_num_threads(2);
#endif
    free(a0); free(b0); free(a1); free(b1);
    unlink(p1);
    unlink(p2);
    unlink(p3);
    unlink(p4);
    zkey_free(&zk);
    r1cs_free(&cs);
    free(w);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_base),
        cmocka_unit_test(test_toxic_seeded),
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_synthetic),
        cmocka_unit_test(test_qap_threads),
        cmocka_unit_test(test_coef_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
