/*
 * test_predict.c — the s/proof model (groth16/predict.h): its scaling laws against the H200 figures
 * they come from, the work it counts for a 32 GiB PoRep partition against the kernel region measured
 * on the H200, the order of the tiers (a slower plan never predicts faster) on the cards of
 * test_devplan.c, the pipelined and one-partition forms, and its refusals. No GPU.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "groth16/devplan.h"
#include "groth16/predict.h"
#include "test_util.h"

#define GIB ((uint64_t)1 << 30)

static void near(double got, double want, double rel, const char *what) {
    if (fabs(got - want) > rel * fabs(want)) fail_msg("%s: %.4f, expected %.4f (+-%.0f %%)", what, got, want, rel * 100);
}

static const groth16_predict_ref *ref(const char *kind) {
    size_t n;
    const groth16_predict_ref *r = groth16_predict_refs(&n);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(r[i].kind, kind)) return &r[i];
    fail_msg("no reference kind %s", kind);
    return NULL;
}

/* The laws reproduce the figures they were fitted to (issue #38's H200 table). */
static void scaling(void **state) {
    (void)state;
    const groth16_calib *c = groth16_predict_ref_calib();
    near(groth16_predict_msm_s(c, 1u << 24, 1), 0.1524, 1e-9, "uniform 2^24");
    near(groth16_predict_msm_s(c, 1u << 27, 1), 1.0346, 0.005, "uniform 2^27");
    near(groth16_predict_msm_s(c, 1u << 27, 0), 0.1281, 0.005, "witness 2^27");
    near(groth16_predict_ntt_s(c, 27, 0), 0.0416, 1e-9, "NTT 2^27");
    near(groth16_predict_ntt_s(c, 24, 0), 0.0416 / 8 * 24 / 27, 1e-9, "NTT 2^24 (n log n)");
    assert_true(groth16_predict_msm_s(c, 0, 1) == 0);
    assert_true(groth16_predict_ntt_s(c, 20, 1) == 0); /* no CPU NTT in the reference */
    /* per point, a bigger MSM is cheaper, never more expensive */
    for (unsigned l = 16; l < 28; l++) {
        assert_true(groth16_predict_msm_s(c, 2ull << l, 1) <= 2 * groth16_predict_msm_s(c, 1ull << l, 1));
        assert_true(groth16_predict_msm_s(c, 2ull << l, 1) > groth16_predict_msm_s(c, 1ull << l, 1));
    }
}

/* The 32 GiB PoRep partition, resident, on the H200's op timings: the kernel region measured there is
 * 1.99 s (issue #37); the model counts the NTTs and the MSMs only (no SpMV, no element-wise passes). */
static void porep_resident(void **state) {
    (void)state;
    const groth16_predict_ref *r = ref("porep-c2");
    groth16_prediction p;
    pm_error err;
    assert_int_equal(groth16_predict(&p, &r->shape, NULL, r->rows, r->partitions, r->uniform_witness,
                                     groth16_predict_ref_calib(), &err),
                     PM_OK);
    near(p.ntt_s, 7 * 0.0416, 1e-9, "7 NTTs of 2^27");
    near(p.gpu_s, 1.99, 0.20, "kernel region");
    assert_true(p.gpu_s < 1.99); /* what it leaves out only adds */
    assert_true(p.upload_s == 0);
    assert_true(p.cpu_s == 0); /* no synthesis rate: GPU only */
    assert_string_equal(p.bound, "GPU");
    near(p.proof_s, 10 * p.gpu_s, 1e-9, "10 partitions pipelined");
    near(p.proof_s, r->measured_s, 0.15, "s/proof against the H200's steady figure");
}

/* A slower tier never predicts faster; tiers 2-5 pay their uploads and CPU work. */
static void tiers_in_order(void **state) {
    (void)state;
    groth16_calib c = *groth16_predict_ref_calib();
    c.synth_rows_per_s = 60e6;
    c.cpu_ntt_log_n = 20;
    c.cpu_ntt_s = 0.05;
    static const unsigned gbs[] = {141, 80, 48, 32, 24, 16};
    size_t n;
    const groth16_predict_ref *refs = groth16_predict_refs(&n);
    for (size_t k = 0; k < n; k++) {
        double last = 0, last_cpu = 0;
        unsigned last_tier = 0;
        for (size_t g = 0; g < sizeof gbs / sizeof gbs[0]; g++) {
            groth16_devplan_card card = {.mem_total = gbs[g] * GIB, .mem_free = gbs[g] * GIB - (512ull << 20),
                                         .workers = 2};
            groth16_devplan plan;
            pm_error err;
            if (groth16_devplan_make(&plan, &refs[k].shape, &card, 0, &err)) continue;
            groth16_prediction p;
            assert_int_equal(groth16_predict(&p, &refs[k].shape, &plan, refs[k].rows, refs[k].partitions,
                                             refs[k].uniform_witness, &c, &err),
                             PM_OK);
            if (p.proof_s + 1e-12 < last)
                fail_msg("%s: %u GB (tier %u) predicts %.2f s < %.2f s of a larger card (tier %u)", refs[k].kind,
                         gbs[g], plan.tier, p.proof_s, last, last_tier);
            assert_true(p.cpu_s + 1e-12 >= last_cpu);
            if (plan.tier >= GROTH16_TIER_HOST_CIRCUIT && plan.tier < GROTH16_TIER_HOST_H) assert_true(p.upload_s > 0);
            if (plan.tier == GROTH16_TIER_HOST_H) assert_true(p.ntt_s == 0);
            near(p.cpu_s >= p.gpu_s ? p.cpu_s : p.gpu_s, refs[k].partitions > 1 ? p.partition_s : p.cpu_s > p.gpu_s ? p.cpu_s : p.gpu_s, 1e-9, "max");
            last = p.proof_s;
            last_cpu = p.cpu_s;
            last_tier = plan.tier;
        }
        assert_true(last > 0);
    }
}

/* One partition: its latency (CPU then GPU); several: the slower side per partition. */
static void pipelined_or_not(void **state) {
    (void)state;
    groth16_calib c = *groth16_predict_ref_calib();
    c.synth_rows_per_s = 100e6;
    const groth16_predict_ref *w = ref("window-post");
    groth16_prediction p;
    pm_error err;
    assert_int_equal(groth16_predict(&p, &w->shape, NULL, w->rows, 1, 1, &c, &err), PM_OK);
    near(p.proof_s, p.gpu_s + p.cpu_s, 1e-9, "one partition");
    near(p.cpu_s, (double)w->rows / 100e6, 1e-9, "synthesis");
    groth16_prediction q;
    assert_int_equal(groth16_predict(&q, &w->shape, NULL, w->rows, 4, 1, &c, &err), PM_OK);
    near(q.proof_s, 4 * (q.gpu_s > q.cpu_s ? q.gpu_s : q.cpu_s), 1e-9, "four partitions");
    /* uniform witness values cost more than witness-like ones */
    groth16_prediction u;
    assert_int_equal(groth16_predict(&u, &w->shape, NULL, w->rows, 1, 0, &c, &err), PM_OK);
    assert_true(u.msm_s < p.msm_s);
    /* a slow CPU sets the pace */
    c.synth_rows_per_s = 1e6;
    assert_int_equal(groth16_predict(&q, &w->shape, NULL, w->rows, 4, 1, &c, &err), PM_OK);
    assert_string_equal(q.bound, "CPU");
}

static void refusals(void **state) {
    (void)state;
    const groth16_predict_ref *r = ref("porep-c2");
    groth16_prediction p;
    pm_error err;
    groth16_calib c = {0};
    assert_int_equal(groth16_predict(&p, &r->shape, NULL, r->rows, 10, 0, &c, &err), PM_ERR_ARG);
    groth16_devplan_shape empty = {0};
    assert_int_equal(groth16_predict(&p, &empty, NULL, 1, 1, 0, groth16_predict_ref_calib(), &err), PM_ERR_ARG);
    assert_int_equal(groth16_predict(&p, &r->shape, NULL, r->rows, 0, 0, groth16_predict_ref_calib(), &err),
                     PM_ERR_ARG);
    /* a host-H plan without the CPU NTT calibration */
    groth16_devplan_card card = {.mem_total = 8 * GIB, .workers = 2};
    groth16_devplan plan;
    assert_int_equal(groth16_devplan_make(&plan, &r->shape, &card, 0, &err), PM_OK);
    assert_int_equal(plan.tier, GROTH16_TIER_HOST_H);
    assert_int_equal(groth16_predict(&p, &r->shape, &plan, r->rows, 10, 0, groth16_predict_ref_calib(), &err),
                     PM_ERR_ARG);
    assert_non_null(strstr(err.msg, "CPU NTT"));
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(scaling), cmocka_unit_test(porep_resident),
                                       cmocka_unit_test(tiers_in_order), cmocka_unit_test(pipelined_or_not),
                                       cmocka_unit_test(refusals)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
