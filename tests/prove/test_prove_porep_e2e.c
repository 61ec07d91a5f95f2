/*
 * test_prove_porep_e2e.c — PoRep C2 end to end at 2 KiB through the one driver (prove/prove.h) and
 * the kind porep-c2: seal (#8) -> C1 -> our bellperson-layout Groth16 setup of the recorded
 * circuit (#6, seeded toxic waste: test parameters, written as Filecoin names them with the .csr)
 * -> the job read from the C1 file and, the same C1, from its bytes inline (as Curio sends it) ->
 * every partition proved and verified (the kind's derived public inputs) -> the 192-byte proof
 * verified again with pm_porep_c2_verify and the .vk; the seeded proofs of both are identical; a
 * flipped proof byte and another sector's C1 are refused, and a C1 with one changed label fails
 * before any proof is made, naming the constraint's challenge (the kind's name for the row).
 * Slow (setup of a 2^22 domain: ~35 s on 16 cores, minutes on 2): runs only with PROOFMILL_SLOW=1
 * (exit 77 = skipped otherwise); label slow.
 */
#include "porep_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "circuits/csr_file.h"
#include "filecoin/c1_json.h"
#include "filecoin/param_names.h"
#include "kinds/filecoin/porep_c2/porep_c2.h"
#include "prove/prove.h"

static char g_dir[256];

/* prove the job of in with key; out: 192 bytes per partition */
static pm_status c2(uint8_t *out, uint32_t *n, const pm_prove_key *key, const pm_input *in, const uint64_t *seed,
                    pm_error *err) {
    void *job;
    pm_status st = pm_kind_open_job(key->kind, &job, in, 1, err);
    if (st) return st;
    pm_prove_opts o = {.blinding = {.seed = seed}};
    pm_prove_proof **pr;
    pm_prove_timings tm;
    st = pm_prove_job(&pr, n, key, job, in, 1, &o, &tm, err);
    if (!st) {
        printf("witness %.2f s, check %.2f s, prove %.2f s, verify %.2f s\n", tm.witness, tm.check, tm.prove, tm.verify);
        for (uint32_t i = 0; i < *n; i++) {
            pm_prove_proof_bytes(out + 192 * i, pr[i]);
            pm_prove_proof_free(pr[i]);
        }
        free(pr);
    }
    key->kind->close_job(job);
    return st;
}

static void test_e2e_2kib(void **st) {
    (void)st;
    pm_error err;
    pm_porep_shape shape;
    assert_int_equal(pm_porep_shape_for_size(&shape, 2048, &err), PM_OK);
    r1cs_t cs = {0};
    uint32_t nin;
    bp_params_t p = {0};
    groth16_setup_timings_t tm;
    pm_test_porep_setup_2k(&p, &cs, &nin, 11, &tm);
    printf("setup %.1f s; ic %zu, h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu\n", tm.total, p.vk.n_ic, p.n_h, p.n_l,
           p.n_a, p.n_b_g1, p.n_b_g2);
    assert_int_equal(p.vk.n_ic, 40);
    assert_int_equal(p.n_l, 2685673);
    assert_int_equal(p.n_h, (1u << 22) - 1); /* bellperson: m - 1 points, m = 2^22 */
    char stem[256], key[800], path[800];
    assert_int_equal(fil_porep_param_stem(stem, sizeof stem, 2048, &err), PM_OK);
    snprintf(key, sizeof key, "%s/%s.params", g_dir, stem);
    if (params_write(key, &p, &err)) fail_msg("params: %s", err.msg);
    snprintf(path, sizeof path, "%s/%s.vk", g_dir, stem);
    if (params_vk_write(path, &p.vk, &err)) fail_msg("vk: %s", err.msg);
    snprintf(path, sizeof path, "%s/%s.csr", g_dir, stem);
    if (pm_csr_save(path, &cs, nin, 2048, &err)) fail_msg("csr: %s", err.msg);
    r1cs_free(&cs);

    const pm_kind *kind = pm_kind_find("porep-c2");
    assert_non_null(kind);
    pm_prove_key *k;
    if (pm_prove_key_load(&k, kind, key, NULL, &err)) fail_msg("key: %s", err.msg);
    assert_non_null(k->circ.file.map); /* the .csr beside the parameters, mapped */

    fil_seal_t s1, s2;
    fil_c1_t a, b;
    pm_test_seal_c1(&s1, &a, 1);
    pm_test_seal_c1(&s2, &b, 2);
    char c1a[600];
    snprintf(c1a, sizeof c1a, "%s/c1_a.json", g_dir);
    if (fil_c1_write_json_file(c1a, &a, &err)) fail_msg("C1: %s", err.msg);
    char *json;
    size_t len;
    assert_int_equal(fil_c1_to_json(&json, &len, &a, &err), PM_OK);
    pm_input by_path = {.kind = PM_INPUT_PATH, .path = c1a};
    pm_input inline_ = {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)json, .len = len};

    uint8_t proof[192], again[192], other[192];
    uint32_t n = 0;
    uint64_t rs = 5;
    if (c2(proof, &n, k, &by_path, &rs, &err)) fail_msg("prove: %s", err.msg);
    assert_int_equal(n, 1);
    if (c2(again, &n, k, &inline_, &rs, &err)) fail_msg("prove inline: %s", err.msg);
    assert_memory_equal(proof, again, 192); /* the same job, from the file or from its bytes */
    int valid = 0;
    assert_int_equal(pm_porep_c2_verify(&valid, proof, 1, &a, &shape, &p.vk, &err), PM_OK);
    assert_int_equal(valid, 1);
    /* random blinding: another proof, of another sector, that verifies too */
    char *jb;
    size_t lb;
    assert_int_equal(fil_c1_to_json(&jb, &lb, &b, &err), PM_OK);
    pm_input in_b = {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)jb, .len = lb};
    assert_int_equal(c2(other, &n, k, &in_b, NULL, &err), PM_OK);
    assert_int_equal(pm_porep_c2_verify(&valid, other, 1, &b, &shape, &p.vk, &err), PM_OK);
    assert_int_equal(valid, 1);
    /* a's proof with b's public inputs: invalid */
    assert_int_equal(pm_porep_c2_verify(&valid, proof, 1, &b, &shape, &p.vk, &err), PM_OK);
    assert_int_equal(valid, 0);
    /* a flipped bit: refused (decode error) or invalid */
    proof[100] ^= 1;
    pm_status vs = pm_porep_c2_verify(&valid, proof, 1, &a, &shape, &p.vk, &err);
    assert_true(vs != PM_OK || valid == 0);
    /* one changed label: refused before proving, constraint named */
    fil_c1_proof(&a, 0, 1)->exp[3].rows[1][5] ^= 0x10;
    free(json);
    assert_int_equal(fil_c1_to_json(&json, &len, &a, &err), PM_OK);
    inline_.bytes = (const uint8_t *)json, inline_.len = len;
    assert_int_equal(c2(other, &n, k, &inline_, &rs, &err), PM_ERR_UNSATISFIED);
    printf("changed label: %s: %s\n", err.file, err.msg);
    assert_non_null(strstr(err.msg, "challenge 1"));
    assert_non_null(strstr(err.msg, "partition 0"));
    free(json);
    free(jb);
    pm_prove_key_free(k);
    fil_c1_free(&a);
    fil_c1_free(&b);
    fil_seal_free(&s1);
    fil_seal_free(&s2);
    params_free(&p);
}

static int setup_dir(void **st) {
    (void)st;
    return pm_test_mkdtemp(g_dir, sizeof g_dir, "pm_prove_porep");
}

static int teardown_dir(void **st) {
    (void)st;
    return pm_test_rmtree(g_dir);
}

int main(void) {
    const char *slow = getenv("PROOFMILL_SLOW");
    if (!slow || strcmp(slow, "1")) {
        printf("skipped: set PROOFMILL_SLOW=1 (2^22 setup + proof)\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_e2e_2kib)};
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
