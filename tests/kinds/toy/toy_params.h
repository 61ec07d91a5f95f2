/*
 * toy_params.h — test parameters for the toy kind (toy.c): DIR/toy-cube.params and DIR/toy-cube.vk
 * from seeded toxic waste over the kind's recorded circuit (bellperson layout, groth16/setup.h).
 * Test code only; header-only. Used by test_kinds_toy.c and tests/grpc's toy_params helper.
 */
#ifndef PROOFMILL_TESTS_TOY_PARAMS_H
#define PROOFMILL_TESTS_TOY_PARAMS_H

#include <stdio.h>

#include "groth16/params.h"
#include "groth16/setup.h"
#include "kinds/kind.h"

/* inconsistent = 1: vk.delta_g2 negated (delta_1 kept) in both files, a key whose proofs fail its
 * own verification key (PM_ERR_KEY, groth16/key_check.h). Errors: PM_ERR_ARG (no toy kind linked),
 * setup and write errors. */
static inline pm_status pm_test_toy_params_ex(const char *dir, uint64_t seed, int inconsistent, pm_error *err) {
    const pm_kind *toy = pm_kind_find("toy-cube");
    if (!toy) return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "the toy kind is not linked");
    char key[600];
    snprintf(key, sizeof key, "%.500s/toy-cube.params", dir);
    pm_circuit c;
    pm_status st = toy->circuit(&c, NULL, NULL, key, NULL, err); /* no .csr: recorded */
    if (st) return st;
    groth16_toxic_t t;
    bp_params_t p = {0};
    st = groth16_toxic_draw(&t, &seed, err);
    if (!st) st = groth16_setup_bellperson(&p, c.cs, &t, NULL, err);
    if (!st && inconsistent) g2_affine_neg(&p.vk.delta_g2, &p.vk.delta_g2);
    if (!st) st = params_write(key, &p, err);
    snprintf(key, sizeof key, "%.500s/toy-cube.vk", dir);
    if (!st) st = params_vk_write(key, &p.vk, err);
    params_free(&p);
    pm_circuit_free(&c);
    return st;
}

static inline pm_status pm_test_toy_params(const char *dir, uint64_t seed, pm_error *err) {
    return pm_test_toy_params_ex(dir, seed, 0, err);
}

#endif
