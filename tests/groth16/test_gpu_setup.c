/*
 * test_gpu_setup.c — Groth16 setup with the point multiplications on the GPU (groth16/setup_gpu.h)
 * against the CPU tables: for the same seeded toxic waste, the bellperson parameters (vk, h, l, a,
 * b_g1, b_g2) and the snarkjs proving key (ic, a, b1, b2, c, h) of a synthetic circuit
 * (r1cs/synth.h; 0/1 and general scalars, zeros from unused A/B entries) are byte-identical; a
 * circuit of one constraint (queries of 0 and 1 points) too. Exit 77 when no GPU is usable.
 * PM_TEST_TABLE_CPU=1: CPU tables of another window behind the same hook (the test's own logic).
 */
#include "../gpu/gpu_test_util.h"

#include "groth16/params.h"
#include "groth16/setup.h"
#include "groth16/setup_gpu.h"
#include "groth16/zkey.h"
#include "r1cs/r1cs.h"
#include "r1cs/synth.h"

#define SAME(what, a, b, n) GT_CHECK((n) == 0 || memcmp((a), (b), (n) * sizeof *(a)) == 0, "%s: %s differs", label, what)

static void bellperson(const char *label, const r1cs_t *cs, const groth16_setup_mul *gm) {
    pm_error e;
    groth16_toxic_t t;
    uint64_t seed = 3;
    GT_OK(groth16_toxic_draw(&t, &seed, &e), e);
    bp_params_t pc, pg;
    groth16_setup_timings_t tc, tg;
    GT_OK(groth16_setup_bellperson_mul(&pc, cs, &t, NULL, &tc, &e), e);
    GT_OK(groth16_setup_bellperson_mul(&pg, cs, &t, gm, &tg, &e), e);
    GT_CHECK(pc.n_h == pg.n_h && pc.n_l == pg.n_l && pc.n_a == pg.n_a && pc.n_b_g1 == pg.n_b_g1 &&
                 pc.n_b_g2 == pg.n_b_g2 && pc.vk.n_ic == pg.vk.n_ic,
             "%s: bellperson counts differ", label);
    GT_CHECK(memcmp(&pc.vk.alpha_g1, &pg.vk.alpha_g1, sizeof pc.vk.alpha_g1) == 0, "%s: alpha differs", label);
    SAME("ic", pc.vk.ic, pg.vk.ic, pc.vk.n_ic);
    SAME("h", pc.h, pg.h, pc.n_h);
    SAME("l", pc.l, pg.l, pc.n_l);
    SAME("a", pc.a, pg.a, pc.n_a);
    SAME("b_g1", pc.b_g1, pg.b_g1, pc.n_b_g1);
    SAME("b_g2", pc.b_g2, pg.b_g2, pc.n_b_g2);
    printf("%s bellperson: h %zu, l %zu, a %zu, b %zu points; points CPU %.3f s, GPU %.3f s\n", label, pc.n_h, pc.n_l,
           pc.n_a, pc.n_b_g1, tc.points, tg.points);
    params_free(&pc);
    params_free(&pg);
}

static void snarkjs(const char *label, const r1cs_t *cs, const groth16_setup_mul *gm) {
    pm_error e;
    groth16_toxic_t t;
    uint64_t seed = 4;
    GT_OK(groth16_toxic_draw(&t, &seed, &e), e);
    zkey_t zc, zg;
    groth16_setup_timings_t tc, tg;
    GT_OK(groth16_setup_snarkjs_mul(&zc, cs, &t, NULL, &tc, &e), e);
    GT_OK(groth16_setup_snarkjs_mul(&zg, cs, &t, gm, &tg, &e), e);
    const size_t nv = zc.n_vars, np = zc.n_public;
    SAME("ic", zc.ic, zg.ic, np + 1);
    SAME("a", zc.a, zg.a, nv);
    SAME("b1", zc.b1, zg.b1, nv);
    SAME("b2", zc.b2, zg.b2, nv);
    SAME("c", zc.c, zg.c, nv - np - 1);
    SAME("h", zc.h, zg.h, zc.domain_size);
    printf("%s snarkjs: %zu wires, N %u; points CPU %.3f s, GPU %.3f s\n", label, nv, zc.domain_size, tc.points,
           tg.points);
    zkey_free(&zc);
    zkey_free(&zg);
}

static void circuit(uint32_t rows, unsigned density, const groth16_setup_mul *gm) {
    pm_error e;
    r1cs_t cs;
    fr_t *w = NULL;
    r1cs_synth_opts_t o = {.n_constraints = rows, .n_public = 2, .density = density, .bit_share = 0.5, .seed = 5};
    GT_OK(r1cs_synth(&cs, &w, &o, &e), e);
    if (!w) return;
    char label[64];
    snprintf(label, sizeof label, "synthetic %u rows", rows);
    bellperson(label, &cs, gm);
    snarkjs(label, &cs, gm);
    r1cs_free(&cs);
    free(w);
}

/* PM_TEST_TABLE_CPU: CPU tables behind the hook (the test's own logic, without a device) */
static g1_fixed_base_t cf1;
static g2_fixed_base_t cf2;
static pm_status cpu_g1(void *self, g1_affine_t *out, const fr_t *k, size_t n, pm_error *err) {
    (void)self;
    return g1_fixed_base_mul_many_vartime(out, n, &cf1, k, err);
}
static pm_status cpu_g2(void *self, g2_affine_t *out, const fr_t *k, size_t n, pm_error *err) {
    (void)self;
    return g2_fixed_base_mul_many_vartime(out, n, &cf2, k, err);
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    pm_error e;
    groth16_setup_mul gm;
    if (getenv("PM_TEST_TABLE_CPU")) {
        GT_OK(g1_fixed_base_init(&cf1, &G1_GENERATOR, 6, &e), e);
        GT_OK(g2_fixed_base_init(&cf2, &G2_GENERATOR, 6, &e), e);
        gm = (groth16_setup_mul){.name = "cpu-w6", .g1_mul = cpu_g1, .g2_mul = cpu_g2};
        circuit(1, 1, &gm);
        circuit(20000, 3, &gm);
        g1_fixed_base_free(&cf1);
        g2_fixed_base_free(&cf2);
        printf("%s: %d failure(s)\n", gt_failures ? "FAILED" : "PASSED", gt_failures);
        return gt_failures ? 1 : 0;
    }
    if (groth16_setup_mul_gpu(&gm, 0, &e) != PM_OK) {
        printf("SKIPPED: %s\n", e.msg);
        return 77;
    }
    circuit(1, 1, &gm);
    circuit(20000, 3, &gm);
    groth16_setup_mul_gpu_free(&gm);
    printf("%s: %d failure(s)\n", gt_failures ? "FAILED" : "PASSED", gt_failures);
    return gt_failures ? 1 : 0;
}
