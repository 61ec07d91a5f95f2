/*
 * test_circuits_porep_counts.c — the StackedDRG partition circuit's shape, counted in count-only
 * mode (nothing stored; 32/64 GiB in ~5 s each and a few MB), against every published number:
 *
 *  - POREP.md §6.8 per-size totals (circuit constraints, + one constraint per input, aux, inputs
 *    with ONE); 32 GiB: 130,278,869 rows incl. 328 input rows, 130,169,893 aux, 328 inputs — the
 *    numbers measured by cuzk (curio extern/cuzk/cuzk-project.md, Phase 5 PCE table).
 *  - POREP.md §6.8 per-challenge breakdown at 32 GiB (comm_d 1,361,462; 14 × (598 + 5,302);
 *    challenge 65; labels 6·256 / 14·256 bits + 522,268 + 1; encode 1; R_last 5,302; c_x 598 + 5,302).
 *  - rust-fil-proofs storage-proofs-porep/tests/stacked_circuit.rs (2 layers, 1 challenge,
 *    nodes = 8 × base-tree count): Poseidon base-2 1,206,212; base-8 1,199,620; 8-4-0 1,296,576;
 *    8-4-2 1,346,982; 22 inputs each.
 *  - The non-published sizes (4 KiB, 16 KiB, 32 KiB, 16 MiB, 1 GiB) of POREP.md §6.8 [derived].
 */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

#include "circuits/filecoin/porep_circuit.h"

typedef struct {
    uint64_t size;
    uint64_t constraints, aux;
    uint32_t inputs;
} row_t;

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

static void count(const pm_porep_shape *s, pm_cs *cs, pm_porep_stats *st) {
    pm_error err;
    pm_cs_init(cs, 0);
    pm_status rc = pm_porep_synthesize(cs, s, NULL, 0, st, &err);
    if (rc) fail_msg("synthesize: %s", err.msg);
}

static void test_sizes(void **state) {
    (void)state;
    static const row_t rows[] = {
        {2 * KiB, 2687921, 2685673, 40},       {8 * MiB, 3844929, 3842449, 40},
        {512 * MiB, 4423433, 4420837, 40},     {32 * GiB, 130278541, 130169893, 328},
        {64 * GiB, 131185849, 131076643, 328}, {4 * KiB, 2788733, 2786423, 40},
        {16 * KiB, 2977173, 2974867, 40},      {32 * KiB, 3077985, 3075617, 40},
        {16 * MiB, 3945741, 3943199, 40},      {1 * GiB, 4524245, 4521587, 40},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        pm_porep_shape s;
        pm_error err;
        assert_int_equal(pm_porep_shape_for_size(&s, rows[i].size, &err), PM_OK);
        pm_cs cs;
        pm_porep_stats st;
        count(&s, &cs, &st);
        printf("size %llu: constraints %llu (+%u inputs = %llu rows), aux %llu\n",
               (unsigned long long)rows[i].size, (unsigned long long)cs.n_constraints, cs.n_inputs,
               (unsigned long long)(cs.n_constraints + cs.n_inputs), (unsigned long long)cs.n_aux);
        assert_int_equal(cs.n_constraints, rows[i].constraints);
        assert_int_equal(cs.n_aux, rows[i].aux);
        assert_int_equal(cs.n_inputs, rows[i].inputs);
        uint64_t sum = 0, asum = 0;
        for (unsigned g = 0; g < PM_POREP_G_COUNT; g++) sum += st.constraints[g], asum += st.aux[g];
        assert_int_equal(sum, cs.n_constraints);
        assert_int_equal(asum, cs.n_aux);
        if (rows[i].size == 32 * GiB) {
            assert_int_equal(cs.n_constraints + cs.n_inputs, 130278869); /* the published figure */
            const uint64_t C = 18;
            assert_int_equal(st.constraints[PM_POREP_G_GLOBAL], 571);
            assert_int_equal(st.aux[PM_POREP_G_GLOBAL], 571);
            assert_int_equal(st.constraints[PM_POREP_G_COMM_D], C * 1361462);
            assert_int_equal(st.constraints[PM_POREP_G_PARENT_COLS], C * 14 * 598);
            assert_int_equal(st.constraints[PM_POREP_G_PARENT_INCL], C * 14 * 5302);
            assert_int_equal(st.constraints[PM_POREP_G_CHALLENGE], C * 65);
            assert_int_equal(st.constraints[PM_POREP_G_LABEL_BITS], C * (6 * 256 + 10 * 14 * 256));
            assert_int_equal(st.constraints[PM_POREP_G_LABEL_SHA], C * 11 * (522268 + 1));
            assert_int_equal(st.aux[PM_POREP_G_LABEL_SHA], C * 11 * (521748 + 1));
            assert_int_equal(st.constraints[PM_POREP_G_ENCODE], C * 1);
            assert_int_equal(st.constraints[PM_POREP_G_R_LAST], C * 5302);
            assert_int_equal(st.constraints[PM_POREP_G_C_X], C * (598 + 5302));
        }
        pm_cs_free(&cs);
    }
}

static void test_stacked_circuit_tests(void **state) {
    (void)state;
    /* {base, sub, top, base-tree count, constraints} from stacked_circuit.rs */
    static const unsigned shapes[4][4] = {{2, 0, 0, 1}, {8, 0, 0, 1}, {8, 4, 0, 4}, {8, 4, 2, 8}};
    static const uint64_t want[4] = {1206212, 1199620, 1296576, 1346982};
    for (int i = 0; i < 4; i++) {
        pm_porep_shape s;
        pm_error err;
        assert_int_equal(pm_porep_shape_custom(&s, 8ull * shapes[i][3], 2, 1, shapes[i][0], shapes[i][1],
                                               shapes[i][2], &err),
                         PM_OK);
        pm_cs cs;
        count(&s, &cs, NULL);
        printf("stacked_circuit %u-%u-%u: %llu constraints, %u inputs\n", shapes[i][0], shapes[i][1],
               shapes[i][2], (unsigned long long)cs.n_constraints, cs.n_inputs);
        assert_int_equal(cs.n_constraints, want[i]);
        assert_int_equal(cs.n_inputs, 22);
        pm_cs_free(&cs);
    }
}

static void test_bad_shapes(void **state) {
    (void)state;
    pm_porep_shape s;
    pm_error err;
    assert_int_equal(pm_porep_shape_for_size(&s, 3 * KiB, &err), PM_ERR_ARG);
    assert_int_equal(pm_porep_shape_custom(&s, 24, 2, 1, 8, 0, 0, &err), PM_ERR_ARG);
    assert_int_equal(pm_porep_shape_custom(&s, 64, 2, 1, 8, 0, 2, &err), PM_ERR_ARG); /* top without sub */
    assert_int_equal(pm_porep_shape_custom(&s, 16, 2, 1, 8, 0, 0, &err), PM_ERR_ARG); /* 16 not 8^k */
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_stacked_circuit_tests),
        cmocka_unit_test(test_bad_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
