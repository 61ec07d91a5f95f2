/*
 * test_groth16_verify.c — proof/public/vk JSON (byte-exact round trips against snarkjs's files)
 * and the verifier: snarkjs's proofs accepted; tampered proofs, wrong publics, off-curve and
 * off-subgroup points, malformed and wrong-curve JSON rejected with the right status.
 * Oracles: snarkjs's own proof.json / proof_det.json / verification_key.json (fixtures), GMP for
 * the decimal conversions.
 */
#include "test_util.h"
#include "groth16_fixtures.h"

#include "field/fp2.h"
#include "groth16/proof_json.h"
#include "groth16/verifier.h"

static g16_fixture fixtures[G16_MAX_FIXTURES];
static size_t n_fixtures;

static void decimal_matches_gmp(void **state) {
    (void)state;
    mpz_t z;
    mpz_init(z);
    char dec[GROTH16_DEC_MAX], gm[400];
    for (size_t it = 0; it < pm_test_iters(2000); it++) {
        fp_t a, plain, back;
        pm_rand_fp(&a);
        if (it == 0) a = FP_ZERO_ELEM;
        if (it == 1) fp_neg(&a, &FP_ONE); /* p - 1 */
        groth16_fp_to_decimal(dec, &a);
        fp_from_mont(&plain, &a);
        pm_mpz_from_limbs(z, plain.l, 6);
        mpz_get_str(gm, 10, z);
        assert_string_equal(dec, gm);
        assert_int_equal(groth16_fp_from_decimal(&back, dec, "t", "x", NULL), PM_OK);
        assert_true(fp_eq(&back, &a));
        fr_t f, fplain, fback;
        pm_rand_fr(&f);
        groth16_fr_to_decimal(dec, &f);
        fr_from_mont(&fplain, &f);
        pm_mpz_from_limbs(z, fplain.l, 4);
        mpz_get_str(gm, 10, z);
        assert_string_equal(dec, gm);
        assert_int_equal(groth16_fr_from_decimal(&fback, dec, "t", "x", NULL), PM_OK);
        assert_true(fr_eq(&fback, &f));
    }
    /* p and r themselves, larger values, junk */
    fp_t x;
    fr_t y;
    pm_mpz_from_limbs(z, FP_MODULUS.l, 6);
    mpz_get_str(gm, 10, z);
    pm_error err;
    assert_int_equal(groth16_fp_from_decimal(&x, gm, "f", "pi_a[0]", &err), PM_ERR_ENCODING);
    assert_non_null(strstr(err.msg, "pi_a[0]"));
    pm_mpz_from_limbs(z, FR_MODULUS.l, 4);
    mpz_get_str(gm, 10, z);
    assert_int_equal(groth16_fr_from_decimal(&y, gm, "f", "x", &err), PM_ERR_ENCODING);
    mpz_sub_ui(z, z, 1);
    mpz_get_str(gm, 10, z);
    assert_int_equal(groth16_fr_from_decimal(&y, gm, "f", "x", &err), PM_OK);
    const char *bad[] = {"", "-1", "+1", "1x", "0x10", " 1", "1.0",
                         "99999999999999999999999999999999999999999999999999999999999999999999999999"
                         "999999999999999999999999999999999999999999999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(groth16_fp_from_decimal(&x, bad[i], "f", "x", NULL), PM_ERR_ENCODING);
        assert_int_equal(groth16_fr_from_decimal(&y, bad[i], "f", "x", NULL), PM_ERR_ENCODING);
    }
    assert_int_equal(groth16_fr_from_decimal(&y, "000000012", "f", "x", NULL), PM_OK);
    fr_t twelve;
    fr_from_u64(&twelve, 12);
    assert_true(fr_eq(&y, &twelve));
    mpz_clear(z);
}

/* proof_det.json / public_det.json / proof.json / public.json parse and re-serialise to the
 * same bytes (snarkjs's JSON.stringify(x, null, 1)). */
static void json_round_trip_is_byte_exact(void **state) {
    (void)state;
    assert_true(n_fixtures > 0);
    const char *pairs[][2] = {{"proof_det.json", "public_det.json"}, {"proof.json", "public.json"}};
    for (size_t f = 0; f < n_fixtures; f++) {
        for (int k = 0; k < 2; k++) {
            char pp[4096], pu[4096];
            size_t lp, lu;
            char *tp = g16_read(g16_path(pp, sizeof pp, &fixtures[f], pairs[k][0]), &lp);
            char *tu = g16_read(g16_path(pu, sizeof pu, &fixtures[f], pairs[k][1]), &lu);
            assert_non_null(tp);
            assert_non_null(tu);
            groth16_proof_t proof;
            pm_error err;
            assert_int_equal(groth16_proof_from_json(&proof, tp, lp, pp, &err), PM_OK);
            char *out = groth16_proof_to_json(&proof);
            assert_string_equal(out, tp);
            free(out);
            fr_t *x;
            size_t n;
            assert_int_equal(groth16_public_from_json(&x, &n, tu, lu, pu, &err), PM_OK);
            out = groth16_public_to_json(x, n);
            assert_string_equal(out, tu);
            free(out);
            free(x);
            free(tp);
            free(tu);
        }
    }
    /* verification_key.json: read, write back, same bytes (vk_alphabeta_12 recomputed by pairing) */
    for (size_t f = 0; f < n_fixtures; f++) {
        char pv[4096];
        size_t lv;
        char *tv = g16_read(g16_path(pv, sizeof pv, &fixtures[f], "verification_key.json"), &lv);
        assert_non_null(tv);
        groth16_vk_t vk;
        pm_error err;
        assert_int_equal(groth16_vk_from_json(&vk, tv, lv, pv, &err), PM_OK);
        char *out = groth16_vk_to_json(&vk);
        assert_string_equal(out, tv);
        free(out);
        groth16_vk_free(&vk);
        free(tv);
    }
    char *e = groth16_public_to_json(NULL, 0);
    assert_string_equal(e, "[]");
    free(e);
}

typedef struct {
    groth16_vk_t vk;
    groth16_proof_t proof;
    fr_t *x;
    size_t n;
} loaded;

static void load(loaded *L, const g16_fixture *fx, const char *proof_file, const char *pub_file) {
    char p[4096];
    pm_error err;
    pm_status st = groth16_vk_load_json(&L->vk, g16_path(p, sizeof p, fx, "verification_key.json"), &err);
    if (st) fail_msg("%s: %s", p, err.msg);
    assert_int_equal(groth16_proof_load_json(&L->proof, g16_path(p, sizeof p, fx, proof_file), &err), PM_OK);
    assert_int_equal(groth16_public_load_json(&L->x, &L->n, g16_path(p, sizeof p, fx, pub_file), &err), PM_OK);
}

static void unload(loaded *L) {
    groth16_vk_free(&L->vk);
    free(L->x);
}

static int verify(const loaded *L, const groth16_proof_t *proof, const fr_t *x, size_t n,
                  pm_error *err) {
    int valid = -1;
    pm_status st = groth16_verify(&valid, &L->vk, x, n, proof, "proof.json", "public.json", err);
    assert_int_equal(st, PM_OK);
    return valid;
}

/* a point on E(Fp) that is (with overwhelming probability) outside the order-r subgroup */
static void g1_off_subgroup(g1_affine_t *p) {
    fp_t x, t, four;
    fp_from_u64(&four, 4);
    fp_from_u64(&x, 1);
    for (;;) {
        fp_sqr(&t, &x);
        fp_mul(&t, &t, &x);
        fp_add(&t, &t, &four);
        if (fp_sqrt(&p->y, &t)) {
            p->x = x;
            if (!g1_affine_in_subgroup_vartime(p)) return;
        }
        fp_add(&x, &x, &FP_ONE);
    }
}

static void g2_off_subgroup(g2_affine_t *p) {
    fp2_t x, t, b;
    fp_from_u64(&b.c0, 4);
    fp_from_u64(&b.c1, 4);
    fp_from_u64(&x.c0, 1);
    x.c1 = FP_ONE;
    for (;;) {
        fp2_sqr(&t, &x);
        fp2_mul(&t, &t, &x);
        fp2_add(&t, &t, &b);
        if (fp2_sqrt_vartime(&p->y, &t)) {
            p->x = x;
            if (!g2_affine_in_subgroup_vartime(p)) return;
        }
        fp_add(&x.c0, &x.c0, &FP_ONE);
    }
}

static void snarkjs_proofs_accepted_tampered_rejected(void **state) {
    (void)state;
    assert_true(n_fixtures > 0);
    for (size_t f = 0; f < n_fixtures; f++) {
        const char *files[][2] = {{"proof.json", "public.json"}, {"proof_det.json", "public_det.json"}};
        for (int k = 0; k < 2; k++) {
            loaded L;
            pm_error err;
            load(&L, &fixtures[f], files[k][0], files[k][1]);
            printf("%s %s: nPublic %zu\n", fixtures[f].name, files[k][0], L.n);
            if (verify(&L, &L.proof, L.x, L.n, &err) != 1) fail_msg("%s rejected: %s", fixtures[f].name, err.msg);
            groth16_proof_t bad;
            /* wrong public input */
            if (L.n) {
                fr_t *x2 = malloc(L.n * sizeof *x2);
                memcpy(x2, L.x, L.n * sizeof *x2);
                fr_add(&x2[L.n - 1], &x2[L.n - 1], &FR_ONE);
                assert_int_equal(verify(&L, &L.proof, x2, L.n, &err), 0);
                free(x2);
            }
            /* one flipped bit in each coordinate of the proof: off the curve (or invalid) */
            for (int which = 0; which < 3; which++) {
                bad = L.proof;
                fp_t *c = which == 0 ? &bad.a.x : which == 1 ? &bad.b.y.c1 : &bad.c.y;
                fp_t plain;
                fp_from_mont(&plain, c);
                plain.l[0] ^= 1;
                fp_to_mont(c, &plain);
                assert_int_equal(verify(&L, &bad, L.x, L.n, &err), 0);
            }
            /* valid points, wrong proof: -A, swapped A and C, infinity */
            bad = L.proof;
            g1_affine_neg(&bad.a, &bad.a);
            assert_int_equal(verify(&L, &bad, L.x, L.n, &err), 0);
            assert_non_null(strstr(err.msg, "pairing equation"));
            bad = L.proof;
            bad.a = L.proof.c;
            bad.c = L.proof.a;
            assert_int_equal(verify(&L, &bad, L.x, L.n, &err), 0);
            bad = L.proof;
            memset(&bad.c, 0, sizeof bad.c);
            assert_int_equal(verify(&L, &bad, L.x, L.n, &err), 0);
            /* points on the curve but outside the subgroup */
            bad = L.proof;
            g1_off_subgroup(&bad.a);
            assert_int_equal(verify(&L, &bad, L.x, L.n, &err), 0);
            assert_int_equal(err.code, PM_ERR_NOT_IN_SUBGROUP);
            bad = L.proof;
            g2_off_subgroup(&bad.b);
            assert_int_equal(verify(&L, &bad, L.x, L.n, &err), 0);
            assert_int_equal(err.code, PM_ERR_NOT_IN_SUBGROUP);
            /* public count mismatch */
            int valid = 7;
            assert_int_equal(groth16_verify(&valid, &L.vk, L.x, L.n + 1 > 1 ? L.n - 1 : 1, &L.proof,
                                            "p", "pub", &err),
                             PM_ERR_MISMATCH);
            assert_int_equal(valid, 0);
            unload(&L);
        }
    }
}

static void malformed_json_rejected(void **state) {
    (void)state;
    pm_error err;
    groth16_proof_t proof;
    groth16_vk_t vk;
    fr_t *x;
    size_t n;
    const char *t;
#define PROOF(s) (t = (s), groth16_proof_from_json(&proof, t, strlen(t), "proof.json", &err))
    assert_int_equal(PROOF("{"), PM_ERR_FORMAT);
    assert_int_equal(err.offset, 1);
    assert_int_equal(PROOF("[]"), PM_ERR_FORMAT);
    assert_int_equal(PROOF("{\"pi_a\": [\"1\",\"2\",\"1\"]}"), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "pi_b"));
    const char *G2 = "[[\"1\",\"2\"],[\"3\",\"4\"],[\"1\",\"0\"]]";
    char buf[2048];
    snprintf(buf, sizeof buf, "{\"pi_a\": [\"1\",\"2\",\"1\"], \"pi_b\": %s, \"pi_c\": [\"1\",\"2\",\"1\"], \"curve\": \"bn128\"}", G2);
    assert_int_equal(PROOF(buf), PM_ERR_CURVE);
    snprintf(buf, sizeof buf, "{\"pi_a\": [\"1\",\"2\",\"5\"], \"pi_b\": %s, \"pi_c\": [\"1\",\"2\",\"1\"]}", G2);
    assert_int_equal(PROOF(buf), PM_ERR_FORMAT);
    snprintf(buf, sizeof buf, "{\"pi_a\": [\"1\",\"x2\",\"1\"], \"pi_b\": %s, \"pi_c\": [\"1\",\"2\",\"1\"]}", G2);
    assert_int_equal(PROOF(buf), PM_ERR_ENCODING);
    assert_non_null(strstr(err.msg, "pi_a[1]"));
    snprintf(buf, sizeof buf,
             "{\"pi_a\": [\"1\",\"2\",\"1\"], \"pi_b\": %s, \"pi_c\": [\"4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559788\",\"2\",\"1\"]}",
             G2);
    assert_int_equal(PROOF(buf), PM_ERR_ENCODING);
    assert_non_null(strstr(err.msg, "not below the field modulus"));
    snprintf(buf, sizeof buf, "{\"pi_a\": [\"1\",\"2\",\"1\"], \"pi_b\": %s, \"pi_c\": [\"1\",\"2\",\"1\"]}", G2);
    assert_int_equal(PROOF(buf), PM_OK); /* parses; the verifier then finds it off the curve */
    assert_int_equal(groth16_proof_check(&proof, "proof.json", &err), PM_ERR_NOT_ON_CURVE);
#undef PROOF
#define PUB(s) (t = (s), groth16_public_from_json(&x, &n, t, strlen(t), "public.json", &err))
    assert_int_equal(PUB("{}"), PM_ERR_FORMAT);
    assert_int_equal(PUB("[1.5]"), PM_ERR_FORMAT);
    assert_int_equal(PUB("[\"52435875175126190479447740508185965837690552500527637822603658699938581184513\"]"),
                     PM_ERR_ENCODING);
    assert_non_null(strstr(err.msg, "not below the group order"));
    assert_int_equal(PUB("[\"1\", 2]"), PM_OK);
    assert_int_equal(n, 2);
    free(x);
#undef PUB
    /* verification keys: wrong curve, missing members, IC length, a point off the subgroup */
    const char *shared = pm_shared_fixtures();
    if (shared) {
        char p[4096];
        snprintf(p, sizeof p, "%s/bn128/merkle_poseidon/verification_key.json", shared);
        assert_int_equal(groth16_vk_load_json(&vk, p, &err), PM_ERR_CURVE);
        printf("bn128 vk: %s\n", err.msg);
    }
    assert_int_equal(groth16_vk_load_json(&vk, "/nonexistent/vk.json", &err), PM_ERR_IO);
    assert_true(n_fixtures > 0);
    char p[4096];
    size_t len;
    char *vt = g16_read(g16_path(p, sizeof p, &fixtures[0], "verification_key.json"), &len);
    assert_non_null(vt);
    assert_int_equal(groth16_vk_from_json(&vk, vt, len, p, &err), PM_OK);
    groth16_vk_free(&vk);
    /* drop the last IC entry's closing: IC count mismatch via nPublic edit */
    char *np = strstr(vt, "\"nPublic\": ");
    assert_non_null(np);
    char *edit = strdup(vt);
    edit[np - vt + 11] = (char)(edit[np - vt + 11] == '9' ? '8' : edit[np - vt + 11] + 1);
    assert_int_equal(groth16_vk_from_json(&vk, edit, len, p, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "IC"));
    free(edit);
    /* alpha replaced by a curve point outside the subgroup */
    g1_affine_t off;
    g1_off_subgroup(&off);
    char dx[GROTH16_DEC_MAX], dy[GROTH16_DEC_MAX];
    groth16_fp_to_decimal(dx, &off.x);
    groth16_fp_to_decimal(dy, &off.y);
    char *a1 = strstr(vt, "\"vk_alpha_1\": [");
    char *a1end = strstr(a1, "]");
    size_t head = (size_t)(a1 - vt);
    char *nv = malloc(len + 512);
    if (!nv) {
        fail_msg("out of memory");
        return;
    }
    snprintf(nv, len + 512, "%.*s\"vk_alpha_1\": [\"%s\", \"%s\", \"1\"%s", (int)head, vt, dx, dy, a1end);
    assert_int_equal(groth16_vk_from_json(&vk, nv, strlen(nv), p, &err), PM_ERR_NOT_IN_SUBGROUP);
    assert_non_null(strstr(err.msg, "vk_alpha_1"));
    /* and a point off the curve */
    snprintf(nv, len + 512, "%.*s\"vk_alpha_1\": [\"%s\", \"%s\", \"1\"%s", (int)head, vt, dx, dx, a1end);
    assert_int_equal(groth16_vk_from_json(&vk, nv, strlen(nv), p, &err), PM_ERR_NOT_ON_CURVE);
    free(nv);
    free(vt);
}

/* Random damage (byte changes, insertions of JSON punctuation, truncation) to the three JSON
 * files: the readers return a status from their documented set and never crash (ASan runs this
 * under the hostile label); a damaged proof that still parses is never accepted unless it
 * decodes to the very same points. */
static void mutated_json_never_crashes(void **state) {
    (void)state;
    assert_true(n_fixtures > 0);
    const g16_fixture *fx = &fixtures[0];
    char pp[4096], pu[4096], pv[4096];
    size_t lp, lu, lv;
    char *tp = g16_read(g16_path(pp, sizeof pp, fx, "proof.json"), &lp);
    char *tu = g16_read(g16_path(pu, sizeof pu, fx, "public.json"), &lu);
    char *tv = g16_read(g16_path(pv, sizeof pv, fx, "verification_key.json"), &lv);
    assert_non_null(tp);
    assert_non_null(tu);
    assert_non_null(tv);
    groth16_vk_t vk;
    groth16_proof_t good;
    fr_t *x;
    size_t n;
    pm_error err;
    assert_int_equal(groth16_vk_from_json(&vk, tv, lv, pv, &err), PM_OK);
    assert_int_equal(groth16_proof_from_json(&good, tp, lp, pp, &err), PM_OK);
    assert_int_equal(groth16_public_from_json(&x, &n, tu, lu, pu, &err), PM_OK);
    const char punct[] = "[]{}\",:0123456789-e. \n\\u";
    size_t iters = pm_test_iters(3000), accepted = 0, parsed = 0;
    size_t cap = (lp > lu ? lp : lu) > lv ? (lp > lu ? lp : lu) : lv;
    char *buf = malloc(cap + 64);
    assert_non_null(buf);
    for (size_t it = 0; it < iters; it++) {
        int which = (int)(pm_rand64() % 3);
        const char *src = which == 0 ? tp : which == 1 ? tu : tv;
        size_t len = which == 0 ? lp : which == 1 ? lu : lv;
        memcpy(buf, src, len);
        int edits = 1 + (int)(pm_rand64() % 3);
        for (int e = 0; e < edits; e++) {
            size_t pos = (size_t)(pm_rand64() % len);
            switch (pm_rand64() % 4) {
            case 0: buf[pos] ^= (char)(1u << (pm_rand64() % 8)); break;
            case 1: buf[pos] = punct[pm_rand64() % (sizeof punct - 1)]; break;
            case 2: len = pos; break; /* truncate */
            default:
                memmove(buf + pos + 1, buf + pos, len - pos);
                buf[pos] = punct[pm_rand64() % (sizeof punct - 1)];
                len++;
            }
            if (len == 0) break;
        }
        pm_status st;
        if (which == 0) {
            groth16_proof_t p;
            st = groth16_proof_from_json(&p, buf, len, "m.json", &err);
            if (st == PM_OK) {
                parsed++;
                int valid = 0;
                assert_int_equal(groth16_verify(&valid, &vk, x, n, &p, "m", "x", &err), PM_OK);
                if (valid) {
                    accepted++;
                    assert_true(g1_affine_eq(&p.a, &good.a) && g2_affine_eq(&p.b, &good.b) &&
                                g1_affine_eq(&p.c, &good.c));
                }
            }
        } else if (which == 1) {
            fr_t *y;
            size_t m;
            st = groth16_public_from_json(&y, &m, buf, len, "m.json", &err);
            if (st == PM_OK) free(y);
        } else {
            groth16_vk_t v;
            st = groth16_vk_from_json(&v, buf, len, "m.json", &err);
            if (st == PM_OK) groth16_vk_free(&v);
        }
        assert_true(st == PM_OK || st == PM_ERR_FORMAT || st == PM_ERR_ENCODING ||
                    st == PM_ERR_CURVE || st == PM_ERR_NOT_ON_CURVE ||
                    st == PM_ERR_NOT_IN_SUBGROUP);
        if (st != PM_OK) assert_true(err.msg[0] != 0);
    }
    printf("%zu mutations: %zu damaged proofs parsed, %zu of them accepted (same points)\n", iters,
           parsed, accepted);
    free(buf);
    free(x);
    groth16_vk_free(&vk);
    free(tp);
    free(tu);
    free(tv);
}

int main(void) {
    pm_test_seed();
    n_fixtures = g16_fixtures(fixtures);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(decimal_matches_gmp),
        cmocka_unit_test(json_round_trip_is_byte_exact),
        cmocka_unit_test(snarkjs_proofs_accepted_tampered_rejected),
        cmocka_unit_test(malformed_json_rejected),
        cmocka_unit_test(mutated_json_never_crashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
