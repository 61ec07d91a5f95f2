/*
 * test_kinds_shape_32g.c — the 32 GiB PoRep key's shape from porep-c2's shape_for_size (a whole
 * partition synthesized with PM_CS_STATS: ~45 s on 2 cores; label slow) against the published
 * counts (../shared/filecoin/POREP.md §6.8: 130,278,869 rows, 328 inputs, 130,169,893 aux wires,
 * m = 2^27; matrix facts as test_circuits_porep_matrix), and a 24 GiB card's plan against
 * groth16_devplan_min_card: a plan when the smallest card that would do is at most 24 GiB (and no
 * faster tier's smallest card is), else the refusal naming that card; a 4 GiB card is refused.
 */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

#include "groth16/devplan.h"
#include "kinds/kind.h"
#include "kinds/shape.h"

static void porep_32g(void **st) {
    (void)st;
    const pm_kind *k = pm_kind_find("porep-c2");
    assert_non_null(k);
    pm_error err;
    groth16_devplan_shape s;
    pm_cs_facts f;
    if (k->shape_for_size(&s, &f, 32ull << 30, &err)) fail_msg("%s", err.msg);
    printf("32 GiB PoRep: %llu constraints, %llu inputs, %llu aux, nnz %llu/%llu/%llu, %llu coefficients, "
           "circuit %llu bytes on the device\n",
           (unsigned long long)f.constraints, (unsigned long long)f.inputs, (unsigned long long)f.aux,
           (unsigned long long)f.nnz[0], (unsigned long long)f.nnz[1], (unsigned long long)f.nnz[2],
           (unsigned long long)f.n_coef, (unsigned long long)s.circuit_bytes);
    assert_int_equal(f.constraints + f.inputs, 130278869);
    assert_int_equal(f.inputs, 328);
    assert_int_equal(f.aux, 130169893);
    assert_int_equal(s.n_vars, 328 + 130169893);
    assert_int_equal(s.n_public, 327);
    assert_int_equal(s.log_domain, 27);
    /* the published matrix facts (A with the 328 input rows there) and bellperson's densities */
    assert_int_equal(f.nnz[0] + f.inputs, 309405051);
    assert_int_equal(f.nnz[1], 130327340);
    assert_int_equal(f.nnz[2], 282656500);
    assert_int_equal(s.n_base[GROTH16_BASE_A], 328 + 129753292);
    assert_int_equal(s.n_base[GROTH16_BASE_B1], 1 + 33112281);
    assert_int_equal(s.n_b2, 1 + 33112281);
    assert_int_equal(s.n_base[GROTH16_BASE_C], 130169893);
    assert_int_equal(s.n_base[GROTH16_BASE_H], (1ull << 27) - 1);

    /* a 24 GiB card (a CUDA context's 512 MiB taken), 2 workers */
    const uint64_t gib = 1ull << 30;
    groth16_devplan_card c = {.mem_total = 24 * gib, .mem_free = 24 * gib - (512ull << 20), .workers = 2};
    snprintf(c.name, sizeof c.name, "a 24 GiB card");
    groth16_devplan p;
    const pm_status ps = groth16_devplan_make(&p, &s, &c, 0, &err);
    const uint64_t need = groth16_devplan_min_card(&s, 2, GROTH16_TIER_HOST_H);
    printf("smallest card %llu GiB; 24 GiB: %s\n", (unsigned long long)(need / gib),
           ps ? err.msg : groth16_devplan_tier_name(p.tier));
    assert_true(need > 0);
    if (ps == PM_OK) {
        /* the free memory is 23.5 GiB: a card of min_card's size with all of it free may still be
         * one GiB larger than what a plan needs here, never more */
        assert_true(need <= 24 * gib);
        assert_true(p.peak_bytes <= p.usable);
        assert_true(p.tier >= GROTH16_TIER_STREAMED); /* ~47 GB of bases cannot all stay */
        /* the plan's tier is the first at which the min_card fits 24 GiB */
        for (unsigned t = 0; t < p.tier; t++) {
            const uint64_t m = groth16_devplan_min_card(&s, 2, t);
            assert_true(m == 0 || m >= 24 * gib);
        }
    } else {
        assert_int_equal(ps, PM_ERR_NOMEM);
        assert_true(need >= 24 * gib);
        char want[64];
        snprintf(want, sizeof want, "at least %llu GiB", (unsigned long long)(need / gib));
        assert_non_null(strstr(err.msg, want));
    }
    /* a 4 GiB card is refused (tier 4 alone holds one witness slot of 4.2 GB), naming a larger one */
    c.mem_total = 4 * gib;
    c.mem_free = 4 * gib - (512ull << 20);
    assert_int_equal(groth16_devplan_make(&p, &s, &c, 0, &err), PM_ERR_NOMEM);
    printf("4 GiB: %s\n", err.msg);
    assert_non_null(strstr(err.msg, "a card of at least"));
    assert_true(need > 4 * gib);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(porep_32g)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
