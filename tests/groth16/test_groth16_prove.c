/*
 * test_groth16_prove.c — the prover against snarkjs, fixture by fixture:
 *  - with snarkjs's r, s (proof_det_rs.json) the proof and public JSON equal proof_det.json /
 *    public_det.json byte-for-byte (the strongest oracle: snarkjs 0.7.6 made those files);
 *  - start/finalize used separately, one pending handle finalized twice with random r, s: both
 *    proofs verify with the fixture's verification_key.json (read by our JSON reader);
 *  - hostile witnesses: a modified value (self-check refuses with PM_ERR_UNSATISFIED; with the
 *    .r1cs the failing constraint is named), a witness of another circuit (PM_ERR_MISMATCH);
 *  - blinding scalars: OS random values are canonical and differ; the seeded stream is stable.
 */
#include "test_util.h"
#include "groth16_fixtures.h"

#include <jansson.h>

#include "groth16/proof_json.h"
#include "groth16/prover.h"
#include "groth16/verifier.h"
#include "groth16/zkey.h"
#include "msm/msm.h"
#include "ntt/ntt.h"
#include "r1cs/r1cs.h"
#include "r1cs/wtns.h"

static g16_fixture fixtures[G16_MAX_FIXTURES];
static size_t n_fixtures;

static void read_rs(fr_t *r, fr_t *s, const g16_fixture *fx) {
    char p[4096];
    assert_int_equal(g16_read_rs(r, s, g16_path(p, sizeof p, fx, "proof_det_rs.json")), 0);
}

static void load_fx(zkey_t *zk, wtns_t *w, const g16_fixture *fx) {
    char p[4096];
    pm_error err;
    if (zkey_read(zk, g16_path(p, sizeof p, fx, "circuit.zkey"), 0, &err)) fail_msg("%s: %s", p, err.msg);
    if (wtns_read(w, g16_path(p, sizeof p, fx, "witness.wtns"), &err)) fail_msg("%s: %s", p, err.msg);
}

static void deterministic_proofs_equal_snarkjs_bytes(void **state) {
    (void)state;
    assert_true(n_fixtures > 0);
    for (size_t f = 0; f < n_fixtures; f++) {
        zkey_t zk;
        wtns_t w;
        load_fx(&zk, &w, &fixtures[f]);
        fr_t r, s;
        read_rs(&r, &s, &fixtures[f]);
        groth16_proof_t proof;
        groth16_timings_t tm;
        pm_error err;
        groth16_prove_opts_t opts = {.threads = 2};
        pm_status st = groth16_prove(&proof, &zk, w.values, w.n_values, &r, &s, &opts, &tm, &err);
        if (st) fail_msg("%s: %s", fixtures[f].name, err.msg);
        char p[4096];
        char *want = g16_read(g16_path(p, sizeof p, &fixtures[f], "proof_det.json"), NULL);
        char *got = groth16_proof_to_json(&proof);
        assert_string_equal(got, want);
        free(want);
        free(got);
        fr_t *x = malloc((zk.n_public + 1) * sizeof *x);
        groth16_public_signals(x, &zk, w.values);
        want = g16_read(g16_path(p, sizeof p, &fixtures[f], "public_det.json"), NULL);
        got = groth16_public_to_json(x, zk.n_public);
        assert_string_equal(got, want);
        /* the zkey's verification key = snarkjs's verification_key.json, byte for byte */
        groth16_vk_t vk;
        assert_int_equal(groth16_vk_from_zkey(&vk, &zk, &err), PM_OK);
        char *vkj = groth16_vk_to_json(&vk);
        char *vkw = g16_read(g16_path(p, sizeof p, &fixtures[f], "verification_key.json"), NULL);
        assert_string_equal(vkj, vkw);
        free(vkj);
        free(vkw);
        groth16_vk_free(&vk);
        printf("%s: proof_det.json and public_det.json reproduced byte-for-byte (H %.3fs, MSMs %.3fs)\n",
               fixtures[f].name, tm.h, tm.msm_a + tm.msm_b1 + tm.msm_c + tm.msm_h + tm.msm_b2);
        free(want);
        free(got);
        free(x);
        wtns_free(&w);
        zkey_free(&zk);
    }
}

static void start_finalize_random_proofs_verify(void **state) {
    (void)state;
    for (size_t f = 0; f < n_fixtures; f++) {
        zkey_t zk;
        wtns_t w;
        load_fx(&zk, &w, &fixtures[f]);
        char p[4096];
        pm_error err;
        groth16_vk_t vk;
        assert_int_equal(groth16_vk_load_json(&vk, g16_path(p, sizeof p, &fixtures[f], "verification_key.json"), &err), PM_OK);
        fr_t *x = malloc((zk.n_public + 1) * sizeof *x);
        groth16_public_signals(x, &zk, w.values);
        groth16_pending_t pend;
        /* caller-owned scratch of exactly the queried sizes (one byte less is refused) */
        size_t ss = groth16_start_scratch_size(&zk, 2), fs = groth16_finalize_scratch_size(&zk, 2);
        void *sbuf = malloc(ss), *fbuf = malloc(fs);
        assert_non_null(sbuf);
        assert_non_null(fbuf);
        groth16_prove_opts_t opts = {.threads = 2, .scratch = sbuf, .scratch_size = ss - 1};
        assert_int_equal(groth16_prove_start(&pend, &zk, w.values, w.n_values, &opts, &err), PM_ERR_ARG);
        opts.scratch_size = ss;
        assert_int_equal(groth16_prove_start(&pend, &zk, w.values, w.n_values, &opts, &err), PM_OK);
        free(sbuf); /* start no longer needs it */
        pend.finalize_scratch = fbuf;
        pend.finalize_scratch_size = fs;
        groth16_proof_t proofs[2];
        for (int k = 0; k < 2; k++) {
            fr_t r, s;
            assert_int_equal(groth16_random_scalar(&r, &err), PM_OK);
            assert_int_equal(groth16_random_scalar(&s, &err), PM_OK);
            assert_int_equal(groth16_prove_finalize(&proofs[k], &pend, &r, &s, &err), PM_OK);
            int valid = 0;
            assert_int_equal(groth16_verify(&valid, &vk, x, zk.n_public, &proofs[k], "p", "x", &err), PM_OK);
            assert_int_equal(valid, 1);
        }
        assert_false(g1_affine_eq(&proofs[0].a, &proofs[1].a));
        assert_true(pend.t.msm_b2 > 0 || zk.n_vars < 100);
        groth16_pending_free(&pend);
        groth16_pending_free(&pend); /* idempotent */
        free(fbuf);
        /* r = s = 0 is allowed (no blinding) and still verifies */
        groth16_proof_t pz;
        assert_int_equal(groth16_prove(&pz, &zk, w.values, w.n_values, &FR_ZERO, &FR_ZERO, NULL, NULL, &err), PM_OK);
        int valid = 0;
        assert_int_equal(groth16_verify(&valid, &vk, x, zk.n_public, &pz, "p", "x", &err), PM_OK);
        assert_int_equal(valid, 1);
        free(x);
        groth16_vk_free(&vk);
        wtns_free(&w);
        zkey_free(&zk);
    }
}

static void unsatisfying_witness_refused(void **state) {
    (void)state;
    for (size_t f = 0; f < n_fixtures; f++) {
        zkey_t zk;
        wtns_t w;
        load_fx(&zk, &w, &fixtures[f]);
        pm_error err;
        groth16_proof_t proof;
        fr_t r, s;
        groth16_seeded_scalars(&r, &s, 42);
        /* change one private wire (the last) and, separately, the first public signal */
        size_t wires[2] = {w.n_values - 1, 1};
        for (int k = 0; k < 2; k++) {
            fr_t keep = w.values[wires[k]];
            fr_add(&w.values[wires[k]], &w.values[wires[k]], &FR_ONE);
            groth16_prove_opts_t opts = {.wtns_name = "bad.wtns"};
            pm_status st = groth16_prove(&proof, &zk, w.values, w.n_values, &r, &s, &opts, NULL, &err);
            assert_int_equal(st, PM_ERR_UNSATISFIED);
            assert_string_equal(err.file, "bad.wtns");
            assert_true(g1_affine_is_infinity(&proof.a)); /* nothing emitted */
            /* with the circuit's r1cs: refused before any MSM, naming the constraint */
            char p[4096];
            r1cs_t cs;
            if (g16_file_exists(g16_path(p, sizeof p, &fixtures[f], "circuit.r1cs"))) {
                assert_int_equal(r1cs_read(&cs, p, &err), PM_OK);
                opts.r1cs = &cs;
                opts.r1cs_name = p;
                st = groth16_prove(&proof, &zk, w.values, w.n_values, &r, &s, &opts, NULL, &err);
                assert_int_equal(st, PM_ERR_UNSATISFIED);
                assert_non_null(strstr(err.msg, "constraint"));
                printf("%s wire %zu: %s: %s\n", fixtures[f].name, wires[k], err.file, err.msg);
                /* and the good witness passes the r1cs check */
                w.values[wires[k]] = keep;
                assert_int_equal(groth16_prove(&proof, &zk, w.values, w.n_values, &r, &s, &opts, NULL, &err), PM_OK);
                r1cs_free(&cs);
            }
            w.values[wires[k]] = keep;
        }
        /* wrong length: a witness of another circuit */
        pm_status st = groth16_prove(&proof, &zk, w.values, w.n_values - 1, &r, &s, NULL, NULL, &err);
        assert_int_equal(st, PM_ERR_MISMATCH);
        assert_non_null(strstr(err.msg, "nVars"));
        wtns_free(&w);
        zkey_free(&zk);
    }
}

/* The contract a GPU backend relies on: groth16_pending_init + sums computed elsewhere (here by
 * the naive reference MSM and the layers' public functions) + groth16_prove_finalize give the
 * same bytes as snarkjs. Small fixtures only (the naive MSM is slow). */
static void pending_filled_elsewhere_finalizes_to_snarkjs(void **state) {
    (void)state;
    size_t done = 0;
    for (size_t f = 0; f < n_fixtures; f++) {
        if (fixtures[f].zkey_size > 1000000) continue;
        zkey_t zk;
        wtns_t w;
        load_fx(&zk, &w, &fixtures[f]);
        pm_error err;
        groth16_pending_t p;
        assert_int_equal(groth16_pending_init(&p, &zk, w.values, w.n_values, NULL, &err), PM_OK);
        assert_true(g1_jac_is_infinity(&p.sum_a) && g1_jac_is_infinity(&p.sum_c));
        const size_t N = zk.domain_size, n = zk.n_vars, np = zk.n_public;
        fr_t *a = malloc(3 * N * sizeof *a);
        assert_non_null(a);
        ntt_domain_t d;
        assert_int_equal(ntt_domain_init(&d, zk.log2_domain, NTT_ROOTS_SNARKJS, &err), PM_OK);
        assert_int_equal(zkey_eval_ab(a, a + N, N, &zk, w.values, n, &err), PM_OK);
        assert_int_equal(ntt_snarkjs_h(a, N, a, a + N, a + 2 * N, &d, &err), PM_OK);
        g1_jac_t h;
        msm_g1_naive_vartime(&p.sum_a, zk.a, p.w_plain, n);
        msm_g1_naive_vartime(&p.sum_b1, zk.b1, p.w_plain, n);
        msm_g1_naive_vartime(&p.sum_c, zk.c, p.w_plain + np + 1, n - np - 1);
        msm_g1_naive_vartime(&h, zk.h, a, N);
        g1_jac_add(&p.sum_c, &p.sum_c, &h);
        fr_t r, s;
        read_rs(&r, &s, &fixtures[f]);
        groth16_proof_t proof;
        assert_int_equal(groth16_prove_finalize(&proof, &p, &r, &s, &err), PM_OK);
        char path[4096];
        char *want = g16_read(g16_path(path, sizeof path, &fixtures[f], "proof_det.json"), NULL);
        char *got = groth16_proof_to_json(&proof);
        assert_string_equal(got, want);
        free(want);
        free(got);
        /* a wrong sum is caught by finalize's self-check */
        g1_jac_dbl(&p.sum_c, &p.sum_c);
        assert_int_equal(groth16_prove_finalize(&proof, &p, &r, &s, &err), PM_ERR_UNSATISFIED);
        groth16_pending_free(&p);
        ntt_domain_free(&d);
        free(a);
        wtns_free(&w);
        zkey_free(&zk);
        done++;
    }
    assert_true(done > 0);
}

static void blinding_scalars(void **state) {
    (void)state;
    fr_t a, b, c, d;
    pm_error err;
    assert_int_equal(groth16_random_scalar(&a, &err), PM_OK);
    assert_int_equal(groth16_random_scalar(&b, &err), PM_OK);
    assert_false(fr_eq(&a, &b));
    groth16_seeded_scalars(&a, &b, 7);
    groth16_seeded_scalars(&c, &d, 7);
    assert_true(fr_eq(&a, &c) && fr_eq(&b, &d));
    assert_false(fr_eq(&a, &b));
    groth16_seeded_scalars(&c, &d, 8);
    assert_false(fr_eq(&a, &c));
    /* values are canonical: fr_from_mont / fr_to_mont round-trips (from_mont of a reduced value) */
    for (int i = 0; i < 200; i++) {
        fr_t plain, back;
        assert_int_equal(groth16_random_scalar(&a, &err), PM_OK);
        fr_from_mont(&plain, &a);
        assert_true(plain.l[3] < FR_MODULUS.l[3] ||
                    (plain.l[3] == FR_MODULUS.l[3] && plain.l[2] <= FR_MODULUS.l[2]));
        fr_to_mont(&back, &plain);
        assert_true(fr_eq(&back, &a));
    }
}

int main(void) {
    pm_test_seed();
    n_fixtures = g16_fixtures(fixtures);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(deterministic_proofs_equal_snarkjs_bytes),
        cmocka_unit_test(start_finalize_random_proofs_verify),
        cmocka_unit_test(unsatisfying_witness_refused),
        cmocka_unit_test(pending_filled_elsewhere_finalizes_to_snarkjs),
        cmocka_unit_test(blinding_scalars),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
