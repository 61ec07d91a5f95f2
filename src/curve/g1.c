/*
 * g1.c — BLS12-381 G1 over Fp (contract in g1.h). The group law comes from ec_impl.h, stamped
 * out here for Fp; this file adds what is particular to G1: the generator and the subgroup test.
 */
#include "curve/g1.h"

#include "curve/curve_constants.h"

#define FE fp_t
#define F(op) fp_##op
#define PT(name) g1_##name
#define AFF g1_affine_t
#define JAC g1_jac_t
#define XYZZ g1_xyzz_t
#define FE_ONE_V FP_ONE
#define FE_ZERO_V FP_ZERO_ELEM
#define CURVE_B_V ((fp_t)CURVE_G1_B)
#include "curve/ec_impl.h"

const g1_affine_t G1_GENERATOR = {CURVE_G1_GEN_X, CURVE_G1_GEN_Y};

/* Scott, ePrint 2021/1130 section 6: for P on E(Fp), P is in G1 iff phi(P) = [-z^2]P, where
 * phi(x, y) = (beta x, y) and beta is the cube root of unity chosen (by gen_curve_constants.py)
 * so that phi acts as [-z^2] on G1. Cost: two multiplications by |z| with mixed additions and
 * one inversion between them (126 (2M+5S) + 10 (7M+4S) + 1 inversion + 9M + 1S). */
int g1_affine_in_subgroup_vartime(const g1_affine_t *p) {
    if (g1_affine_is_infinity(p)) return 1;
    const fp_t beta = CURVE_G1_BETA;
    g1_jac_t t, phi_neg;
    g1_affine_t ta;
    g1_mul_by_z_abs_affine(&t, p);
    g1_jac_to_affine(&ta, &t);
    g1_mul_by_z_abs_affine(&t, &ta); /* [z^2]P */
    fp_mul(&phi_neg.X, &p->x, &beta);
    fp_neg(&phi_neg.Y, &p->y);
    phi_neg.Z = FP_ONE;              /* -phi(P) */
    return g1_jac_eq(&t, &phi_neg);
}
