/*
 * test_circuits_kinds_e2e.c — PoSt / SnapDeals end to end with OUR OWN test parameters: a request
 * over our sealed test sectors -> the recorded circuit -> bellperson-layout Groth16 setup from seeded
 * toxic waste (test parameters, written and read back as .params / .vk) -> witness -> public
 * inputs derived from the request (must equal the witness's) -> the bellperson prover
 * (groth16_prove_bellperson_start / finalize) -> 192 bytes per partition (A ‖ B ‖ C compressed, as
 * filecoin-ffi returns them) -> decoded and verified with the .vk and the derived inputs.
 * Also: another request's inputs do not verify the proof; a flipped proof byte does not; a witness
 * that breaks a constraint is refused by the prover naming the gadget.
 * Default: WindowPoSt 2 KiB (22 k constraints, seconds). PROOFMILL_SLOW=1 adds WinningPoSt 2 KiB
 * (91 k), WindowPoSt and WinningPoSt 8 MiB, and SnapDeals 2 KiB (1.7 M constraints: minutes).
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../filecoin/post_test_util.h"

#include "circuits/filecoin/post_circuit.h"
#include "circuits/filecoin/update_circuit.h"
#include "groth16/params.h"
#include "groth16/proof_bytes.h"
#include "groth16/prover.h"
#include "groth16/prover_bellperson.h"
#include "groth16/setup.h"
#include "groth16/verifier.h"

static int slow(void) {
    const char *s = getenv("PROOFMILL_SLOW");
    return s && !strcmp(s, "1");
}

/* the kind behind a test: PoSt job or update job */
typedef struct {
    int snap;
    fil_post_job_t pj;
    fil_update_job_t uj;
} job_t;

static uint32_t parts(const job_t *j) { return j->snap ? pm_update_partitions(&j->uj) : 1; }
static pm_status witness(fr_t *w, size_t cap, size_t *n, uint32_t *nin, const job_t *j, uint32_t k, pm_error *err) {
    return j->snap ? pm_update_witness_into(w, cap, n, nin, &j->uj, k, 0, err)
                   : pm_post_witness_into(w, cap, n, nin, &j->pj, k, 0, err);
}
static pm_status inputs(fr_t *x, size_t n, const job_t *j, uint32_t k, pm_error *err) {
    return j->snap ? pm_update_public_inputs(x, n, &j->uj, k, err) : pm_post_public_inputs(x, n, &j->pj, k, err);
}

/* record, seeded setup, params through files; returns the parameters and the circuit */
static void setup_params(bp_params_t *p, r1cs_t *cs, const job_t *j, uint64_t seed, const char *dir) {
    pm_error err;
    uint32_t nin;
    if (j->snap ? pm_update_record(cs, &nin, &j->uj.cfg, &err) : pm_post_record(cs, &nin, &j->pj.cfg, &err))
        fail_msg("record: %s", err.msg);
    groth16_toxic_t tox;
    groth16_setup_timings_t tm;
    bp_params_t mem = {0};
    if (groth16_toxic_draw(&tox, &seed, &err) || groth16_setup_bellperson(&mem, cs, &tox, &tm, &err))
        fail_msg("setup: %s", err.msg);
    char stem[256], path[512];
    if (j->snap ? pm_update_param_stem(stem, sizeof stem, &j->uj.cfg, &err) : pm_post_param_stem(stem, sizeof stem, &j->pj.cfg, &err))
        fail_msg("stem: %s", err.msg);
    snprintf(path, sizeof path, "%s/%s.params", dir, stem);
    if (params_write(path, &mem, &err) || params_read(p, path, 0, &err)) fail_msg("params file: %s", err.msg);
    unlink(path);
    params_free(&mem);
    printf("  setup %.1f s (%u constraints), %s.params written and read back\n", tm.total, cs->n_constraints, stem);
}

/* prove partition k; returns the 192 bytes */
static pm_status prove(uint8_t out[192], const job_t *j, uint32_t k, const bp_params_t *p, const r1cs_t *cs,
                       uint64_t seed, uint32_t *first_bad, pm_error *err) {
    size_t n = cs->n_wires, got;
    uint32_t nin;
    fr_t *w = malloc(n * sizeof *w);
    pm_status st = witness(w, n, &got, &nin, j, k, err);
    if (!st) {
        fr_t *x = malloc(nin * sizeof *x);
        if (inputs(x, nin - 1, j, k, err)) fail_msg("inputs: %s", err->msg);
        for (uint32_t i = 0; i + 1 < nin; i++)
            if (!fr_eq(&x[i], &w[1 + i])) fail_msg("public input %u: witness differs from the derived one", i + 1);
        free(x);
        fr_t r, s;
        groth16_seeded_scalars(&r, &s, seed + k);
        groth16_bp_pending_t pd;
        groth16_proof_t pr;
        st = groth16_prove_bellperson_start(&pd, p, cs, w, n, 0, err);
        *first_bad = pd.first_bad;
        if (!st) st = groth16_prove_bellperson_finalize(&pr, &pd, &r, &s, err);
        groth16_bp_pending_free(&pd);
        if (!st) groth16_proof_to_bytes(out, &pr);
    }
    free(w);
    return st;
}

/* verify 192 bytes of partition k with the .vk and the request's derived inputs */
static int verify(const uint8_t in[192], const job_t *j, uint32_t k, const bp_params_t *p, size_t nin) {
    groth16_vk_t vk = {0};
    groth16_proof_t pr;
    pm_error err;
    int valid = 0;
    fr_t *x = malloc(nin * sizeof *x);
    if (params_vk_to_groth16_vk(&vk, &p->vk, &err) || inputs(x, nin - 1, j, k, &err)) fail_msg("vk: %s", err.msg);
    if (groth16_proof_from_bytes(&pr, in, "proof", 0, &err)) valid = -1;
    else if (groth16_verify(&valid, &vk, x, nin - 1, &pr, NULL, NULL, &err)) fail_msg("verify: %s", err.msg);
    free(x);
    groth16_vk_free(&vk);
    return valid;
}

/* p, cs (may be NULL) keep the parameters and the circuit for the caller */
static void e2e(job_t *j, const job_t *other, const char *name, bp_params_t *keep_p, r1cs_t *keep_cs) {
    char dir[] = "/tmp/pm_kinds_e2e_XXXXXX";
    assert_non_null(mkdtemp(dir));
    bp_params_t p = {0};
    r1cs_t cs = {0};
    setup_params(&p, &cs, j, 7, dir);
    rmdir(dir);
    size_t nin = p.vk.n_ic;
    pm_error err;
    for (uint32_t k = 0; k < parts(j); k++) {
        uint8_t proof[192], again[192];
        uint32_t fb;
        if (prove(proof, j, k, &p, &cs, 11, &fb, &err)) fail_msg("%s partition %u: %s", name, k, err.msg);
        assert_int_equal(verify(proof, j, k, &p, nin), 1);
        if (prove(again, j, k, &p, &cs, 11, &fb, &err)) fail_msg("prove again: %s", err.msg);
        assert_memory_equal(proof, again, 192); /* seeded r, s: deterministic */
        if (other) assert_int_equal(verify(proof, other, k, &p, nin), 0);
        proof[100] ^= 1;
        assert_int_not_equal(verify(proof, j, k, &p, nin), 1);
        printf("  %s partition %u: 192-byte proof verifies with the .vk and the derived inputs; others refused\n", name, k);
    }
    if (keep_p) *keep_p = p;
    else params_free(&p);
    if (keep_cs) *keep_cs = cs;
    else r1cs_free(&cs);
}

static void post_job(job_t *j, fil_proof_request_t *r, unsigned id, const fil_seal_t *s, size_t n, uint8_t tag) {
    memset(j, 0, sizeof *j);
    pm_test_post_request(r, id, s, n, tag, id < 5 ? 0 : 1);
    pm_error err;
    if (fil_post_job_init(&j->pj, id < 5 ? FIL_POST_WINNING : FIL_POST_WINDOW, r, &err)) fail_msg("job: %s", err.msg);
}

static void test_window_2k(void **state) {
    (void)state;
    fil_seal_t s[2];
    pm_test_seal(&s[0], 5, 51, NULL);
    pm_test_seal(&s[1], 5, 52, NULL);
    fil_proof_request_t r, r2;
    job_t j, o;
    post_job(&j, &r, 10, s, 2, 1);
    post_job(&o, &r2, 10, s, 2, 2); /* another randomness */
    bp_params_t p = {0};
    r1cs_t cs = {0};
    e2e(&j, &o, "WindowPoSt 2 KiB", &p, &cs);
    /* a witness that breaks a constraint: the prover refuses it, the row is named */
    j.pj.vanilla.proofs[1].sectors[0].inclusion[6].elems[0].hashes[1][0] ^= 1;
    uint8_t proof[192];
    uint32_t fb = UINT32_MAX;
    pm_error err;
    assert_int_equal(prove(proof, &j, 0, &p, &cs, 1, &fb, &err), PM_ERR_UNSATISFIED);
    assert_int_not_equal(fb, UINT32_MAX);
    pm_post_unsatisfied(&err, &j.pj.cfg, j.pj.sectors, fb, cs.n_constraints);
    printf("  refused: %s\n", err.msg);
    assert_non_null(strstr(err.msg, "sector 1 (id 52), challenge 6, inclusion_root"));
    params_free(&p);
    r1cs_free(&cs);
    fil_post_job_free(&j.pj);
    fil_post_job_free(&o.pj);
    fil_proof_request_free(&r);
    fil_proof_request_free(&r2);
    fil_seal_free(&s[0]);
    fil_seal_free(&s[1]);
}

static void test_slow_post(void **state) {
    (void)state;
    if (!slow()) {
        printf("  skipped: PROOFMILL_SLOW=1 adds WinningPoSt 2 KiB and both PoSt kinds at 8 MiB\n");
        return;
    }
    fil_seal_t s, s8;
    pm_test_seal(&s, 5, 53, NULL);
    pm_test_seal(&s8, 6, 54, NULL);
    static const struct {
        unsigned id;
        int big;
        const char *name;
    } c[] = {{0, 0, "WinningPoSt 2 KiB"}, {11, 1, "WindowPoSt 8 MiB"}, {1, 1, "WinningPoSt 8 MiB"}};
    for (int i = 0; i < 3; i++) {
        fil_proof_request_t r;
        job_t j;
        post_job(&j, &r, c[i].id, c[i].big ? &s8 : &s, 1, 3);
        e2e(&j, NULL, c[i].name, NULL, NULL);
        fil_post_job_free(&j.pj);
        fil_proof_request_free(&r);
    }
    fil_seal_free(&s);
    fil_seal_free(&s8);
}

static void test_slow_snap(void **state) {
    (void)state;
    if (!slow()) {
        printf("  skipped: PROOFMILL_SLOW=1 adds SnapDeals 2 KiB (1.7 M constraints)\n");
        return;
    }
    fil_seal_t s;
    pm_test_seal(&s, 5, 55, NULL);
    fil_update_t u, u2;
    pm_test_update(&u, &s, 56);
    pm_test_update(&u2, &s, 57);
    fil_proof_request_t r, r2;
    pm_test_update_request(&r, &u, 0);
    pm_test_update_request(&r2, &u2, 0);
    job_t j, o;
    memset(&j, 0, sizeof j);
    memset(&o, 0, sizeof o);
    j.snap = o.snap = 1;
    pm_error err;
    if (fil_update_job_init(&j.uj, &r, &err) || fil_update_job_init(&o.uj, &r2, &err)) fail_msg("job: %s", err.msg);
    e2e(&j, &o, "SnapDeals 2 KiB", NULL, NULL);
    fil_update_job_free(&j.uj);
    fil_update_job_free(&o.uj);
    fil_proof_request_free(&r);
    fil_proof_request_free(&r2);
    fil_update_free(&u);
    fil_update_free(&u2);
    fil_seal_free(&s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window_2k),
        cmocka_unit_test(test_slow_post),
        cmocka_unit_test(test_slow_snap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
