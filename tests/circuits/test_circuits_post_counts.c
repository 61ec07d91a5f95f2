/*
 * test_circuits_post_counts.c — the fallback PoSt circuit's shape (count-only synthesis, nothing
 * stored) against every published number, and against an independent count derived from the
 * gadget definitions (closed formulas; no synthesis):
 *
 *  - rust-fil-proofs filecoin-proofs/src/constants.rs WINDOW_POST_SECTOR_COUNT comments: a 32 GiB
 *    WindowPoSt partition (2349 sectors x 10 challenges) has 125,279,217 constraints, a 64 GiB one
 *    (2300 sectors) 129,887,900.
 *  - rust-fil-proofs storage-proofs-post/tests/fallback_circuit.rs (64 leaves per base tree, 5
 *    challenges): base 8, 3 sectors: 16,869 constraints, 19 inputs; 8-4-0: 22,674; 8-4-2: 27,384;
 *    2 sectors: 11,246, 13 inputs; 32 GiB base-8 tree (10 levels), 10 challenges, 5 sectors:
 *    266,665 (test_fallback_post_circuit_poseidon_base_8_bench_cs).
 *  - WinningPoSt (66 circuit sectors x 1 challenge) and the small WindowPoSt sizes: no published
 *    number was found; the independent formula is the check, and the values are printed.
 */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

#include "circuits/filecoin/post_circuit.h"
#include "filecoin/param_names.h"
#include "filecoin/poseidon.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

static void count(const fil_post_config_t *c, pm_cs *cs, pm_post_stats *st) {
    pm_error err;
    pm_cs_init(cs, 0);
    if (pm_post_synthesize(cs, c, NULL, st, &err)) fail_msg("synthesize: %s", err.msg);
}

/* ---- the independent count: gadget definitions as formulas ----
 * Poseidon (neptune v11 legacy circuit): 3(t·RF + RP − 1) + (t·RF + RP − arity) constraints = aux;
 * insert (insertion.rs): arity 2: 2 picks, 4: 8, 8: 2 + 20 = 22; AllocatedBit: 1 constraint, 1 aux;
 * inputize / pack_into_inputs / equal: 1 constraint each. */
static uint64_t poseidon_cost(unsigned arity) {
    const fil_poseidon_t *c = fil_poseidon_constants(arity);
    unsigned t = arity + 1;
    return 3ull * (t * c->rf + c->rp - 1) + (t * c->rf + c->rp - arity);
}
static uint64_t insert_cost(unsigned a) { return a == 2 ? 2 : a == 4 ? 8 : 22; }
static unsigned lbits(unsigned a) { return a == 2 ? 1 : a == 4 ? 2 : 3; }

static void formula(uint64_t *cons, uint64_t *aux, uint64_t *inputs, const fil_post_config_t *c) {
    uint64_t lvl_c = 0, lvl_a = 0;
    for (unsigned l = 0; l < c->tree.nlevels; l++) {
        unsigned a = c->tree.level_arity[l];
        lvl_c += lbits(a) + insert_cost(a) + poseidon_cost(a);
        lvl_a += lbits(a) + (a - 1) + insert_cost(a) + poseidon_cost(a);
    }
    uint64_t sector_c = 1 + poseidon_cost(2) + 1 + c->circuit_challenges * (lvl_c + 2);
    uint64_t sector_a = 3 + poseidon_cost(2) + c->circuit_challenges * (1 + lvl_a);
    *cons = sector_c * c->circuit_sectors;
    *aux = sector_a * c->circuit_sectors;
    *inputs = 1 + (1 + (uint64_t)c->circuit_challenges) * c->circuit_sectors;
}

static void check(const fil_post_config_t *c, uint64_t want_cons, uint32_t want_inputs, const char *what) {
    pm_cs cs;
    pm_post_stats st;
    count(c, &cs, &st);
    uint64_t fc, fa, fi;
    formula(&fc, &fa, &fi, c);
    printf("  %-44s constraints %11llu  inputs %6u  aux %11llu  (formula %llu / %llu / %llu)\n", what,
           (unsigned long long)cs.n_constraints, cs.n_inputs, (unsigned long long)cs.n_aux, (unsigned long long)fc,
           (unsigned long long)fi, (unsigned long long)fa);
    if (want_cons) assert_int_equal(cs.n_constraints, want_cons);
    if (want_inputs) assert_int_equal(cs.n_inputs, want_inputs);
    assert_int_equal(cs.n_constraints, fc);
    assert_int_equal(cs.n_aux, fa);
    assert_int_equal(cs.n_inputs, fi);
    uint64_t sum_c = 0, sum_a = 0;
    for (unsigned g = 0; g < PM_POST_G_COUNT; g++) sum_c += st.constraints[g], sum_a += st.aux[g];
    assert_int_equal(sum_c, cs.n_constraints);
    assert_int_equal(sum_a, cs.n_aux);
    size_t nw;
    uint32_t nin;
    pm_error err;
    assert_int_equal(pm_post_witness_len(&nw, &nin, c, &err), PM_OK);
    assert_int_equal(nin, cs.n_inputs);
    assert_int_equal(nw, cs.n_inputs + cs.n_aux);
    pm_cs_free(&cs);
}

static void test_published(void **state) {
    (void)state;
    pm_error err;
    fil_post_config_t c;
    /* fallback_circuit.rs: leaves = 64 x base-tree count, 5 challenges */
    assert_int_equal(fil_post_config_custom(&c, 64, 0, 0, 3, 5, &err), PM_OK);
    check(&c, 16869, 19, "test base 8, 3 sectors x 5");
    assert_int_equal(fil_post_config_custom(&c, 64 * 4, 4, 0, 3, 5, &err), PM_OK);
    check(&c, 22674, 19, "test 8-4-0, 3 sectors x 5");
    assert_int_equal(fil_post_config_custom(&c, 64 * 8, 4, 2, 3, 5, &err), PM_OK);
    check(&c, 27384, 19, "test 8-4-2, 3 sectors x 5");
    assert_int_equal(fil_post_config_custom(&c, 64, 0, 0, 2, 5, &err), PM_OK);
    check(&c, 11246, 13, "test base 8, 2 sectors x 5");
    assert_int_equal(fil_post_config_custom(&c, 1ull << 30, 0, 0, 5, 10, &err), PM_OK);
    check(&c, 266665, 0, "32 GiB base-8 tree, 5 sectors x 10 (BenchCS)");
    assert_int_equal(fil_post_config(&c, 13, &err), PM_OK); /* StackedDrgWindow32GiBV1_2 */
    assert_int_equal(c.circuit_sectors, 2349);
    check(&c, 125279217, 1 + 2349 * 11, "WindowPoSt 32 GiB partition");
    assert_int_equal(fil_post_config(&c, 9, &err), PM_OK); /* StackedDrgWindow64GiBV1 */
    assert_int_equal(c.circuit_sectors, 2300);
    check(&c, 129887900, 1 + 2300 * 11, "WindowPoSt 64 GiB partition");
}

/* every size of sizes.h, both kinds: the formula (no published number) */
static void test_all_sizes(void **state) {
    (void)state;
    static const uint64_t sizes[] = {2 * KiB, 4 * KiB, 16 * KiB, 32 * KiB, 8 * MiB, 16 * MiB, 512 * MiB,
                                     1 * GiB, 32 * GiB, 64 * GiB};
    for (int t = 0; t < 2; t++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] - (t ? 2 : 0); i++) { /* 32/64 GiB window: above */
            fil_post_config_t c;
            pm_error err;
            fil_post_type_t ty = t ? FIL_POST_WINDOW : FIL_POST_WINNING;
            assert_int_equal(fil_post_config_for(&c, ty, sizes[i], FIL_API_V1_0_0, &err), PM_OK);
            char what[64];
            snprintf(what, sizeof what, "%s %llu bytes", t ? "WindowPoSt" : "WinningPoSt", (unsigned long long)sizes[i]);
            check(&c, 0, t ? 0 : 1 + 66 * 2, what);
        }
    /* WinningPoSt 32 GiB: 66 x (313 + 5,302) */
    fil_post_config_t c;
    pm_error err;
    assert_int_equal(fil_post_config(&c, 3, &err), PM_OK);
    check(&c, 66ull * (313 + 5302), 133, "WinningPoSt 32 GiB");
}

/* registry rows and parameter names (rust-fil-proofs parameters.json) */
static void test_names(void **state) {
    (void)state;
    static const struct {
        unsigned id;
        const char *stem;
    } rows[] = {
        {0, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"},
        {5, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"},
        {1, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331"},
        {11, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9"},
        {2, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"},
        {7, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9"},
        {3, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"},
        {13, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc"},
        {4, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"},
        {9, "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        fil_post_config_t c;
        pm_error err;
        char stem[256];
        assert_int_equal(fil_post_config(&c, rows[i].id, &err), PM_OK);
        assert_int_equal(pm_post_param_stem(stem, sizeof stem, &c, &err), PM_OK);
        assert_string_equal(stem, rows[i].stem);
    }
    const fil_registered_post_t *rp = fil_registered_post(13);
    assert_string_equal(rp->name, "StackedDrgWindow32GiBV1_2");
    assert_int_equal(rp->api_version, FIL_API_V1_2_0);
    assert_int_equal(fil_registered_post(3)->api_version, FIL_API_V1_0_0);
    assert_null(fil_registered_post(15));
}

/* locating rows by arithmetic agrees with the gadget counters */
static void test_locate(void **state) {
    (void)state;
    fil_post_config_t c;
    pm_error err;
    assert_int_equal(fil_post_config(&c, 5, &err), PM_OK); /* WindowPoSt 2 KiB: 2 sectors x 10 */
    unsigned g, s, ch, lv;
    assert_int_equal(pm_post_locate(&g, &s, &ch, &lv, &c, 0), 0);
    assert_int_equal(g, PM_POST_G_COMM_R);
    assert_int_equal(pm_post_locate(&g, &s, &ch, &lv, &c, 313), 0);
    assert_int_equal(g, PM_POST_G_PATH);
    assert_int_equal(ch, 0);
    assert_int_equal(lv, 0);
    assert_int_equal(pm_post_locate(&g, &s, &ch, &lv, &c, 313 + 530), 0);
    assert_int_equal(lv, 1);
    assert_int_equal(pm_post_locate(&g, &s, &ch, &lv, &c, 313 + 1060), 0);
    assert_int_equal(g, PM_POST_G_ROOT);
    uint64_t per = 313 + 10 * 1062;
    assert_int_equal(pm_post_locate(&g, &s, &ch, &lv, &c, per + 313 + 1062 * 9 + 5), 0);
    assert_int_equal(s, 1);
    assert_int_equal(ch, 9);
    assert_int_equal(pm_post_locate(&g, &s, &ch, &lv, &c, 2 * per), -1);
    pm_post_unsatisfied(&err, &c, NULL, per + 313, 2 * per);
    printf("  %s\n", err.msg);
    assert_non_null(strstr(err.msg, "sector 1, challenge 0, inclusion_path level 0"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published),
        cmocka_unit_test(test_all_sizes),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_locate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
