/*
 * test_circuits_porep_matrix.c — the 32 GiB partition's matrix facts, measured by synthesizing in
 * PM_CS_STATS mode (every linear combination built in bellpepper's canonical form, counted and
 * dropped: ~42 s and 40 MB on the 2-core box), against the numbers cuzk published for Filecoin's
 * circuit (curio extern/cuzk/cuzk-project.md; POREP.md §6.8 "Other published matrix facts"):
 *   nnz A 309,405,051, B 130,327,340, C 282,656,500 (bellperson's 328 input rows included: one A
 *   term each); density popcounts a_aux 129,753,292, b_input 1 (only ONE in B), b_aux 33,112,281.
 * These pin down the linear combinations themselves (term merging, zero handling, Boolean
 * negations, MultiEq packing), beyond the constraint and variable counts. Label: slow.
 * The 2 KiB values are our own (regression only; not published).
 */
#include "test_util.h"

#include <stdio.h>

#include "circuits/filecoin/porep_circuit.h"

static void run(uint64_t size, const uint64_t want[6]) {
    pm_porep_shape s;
    pm_error err;
    assert_int_equal(pm_porep_shape_for_size(&s, size, &err), PM_OK);
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_STATS);
    if (pm_porep_synthesize(&cs, &s, NULL, 0, NULL, &err)) fail_msg("%s", err.msg);
    assert_int_equal(cs.oom, 0);
    uint64_t got[6] = {cs.nnz[0] + cs.n_inputs, cs.nnz[1], cs.nnz[2],
                       pm_bitmap_popcount(cs.a_aux_density, cs.n_aux),
                       pm_bitmap_popcount(cs.b_input_density, cs.n_inputs),
                       pm_bitmap_popcount(cs.b_aux_density, cs.n_aux)};
    printf("size %llu: nnz A %llu B %llu C %llu, density a_aux %llu b_input %llu b_aux %llu\n",
           (unsigned long long)size, (unsigned long long)got[0], (unsigned long long)got[1],
           (unsigned long long)got[2], (unsigned long long)got[3], (unsigned long long)got[4],
           (unsigned long long)got[5]);
    for (int i = 0; i < 6; i++) assert_int_equal(got[i], want[i]);
    /* no zero coefficient survives merging in this circuit */
    assert_int_equal(cs.nnz_nonzero[0], cs.nnz[0]);
    assert_int_equal(cs.nnz_nonzero[1], cs.nnz[1]);
    assert_int_equal(cs.nnz_nonzero[2], cs.nnz[2]);
    pm_cs_free(&cs);
}

static void test_2kib(void **st) {
    (void)st;
    static const uint64_t w[6] = {6421005, 2689006, 5824682, 2674908, 1, 685521};
    run(2048, w);
}

static void test_32gib_published(void **st) {
    (void)st;
    static const uint64_t w[6] = {309405051, 130327340, 282656500, 129753292, 1, 33112281};
    run(32ull << 30, w);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_2kib), cmocka_unit_test(test_32gib_published)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
