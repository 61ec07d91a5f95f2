/*
 * g2.c — BLS12-381 G2 over Fp2 (contract in g2.h). The group law comes from ec_impl.h, stamped
 * out here for Fp2; this file adds what is particular to G2: the generator and the subgroup test.
 */
#include "curve/g2.h"

#include "curve/curve_constants.h"

#define FE fp2_t
#define F(op) fp2_##op
#define PT(name) g2_##name
#define AFF g2_affine_t
#define JAC g2_jac_t
#define XYZZ g2_xyzz_t
#define FE_ONE_V FP2_ONE
#define FE_ZERO_V FP2_ZERO
#define CURVE_B_V ((fp2_t)CURVE_G2_B)
#include "curve/ec_impl.h"

const g2_affine_t G2_GENERATOR = {CURVE_G2_GEN_X, CURVE_G2_GEN_Y};

/* psi(x, y) = (conj(x) PSI_X, conj(y) PSI_Y): untwist, Frobenius, twist (Galbraith-Scott). 2 Fp2 mul = 6 Fp M. */
static void g2_affine_psi(g2_affine_t *r, const g2_affine_t *p) {
    const fp2_t cx = CURVE_G2_PSI_X, cy = CURVE_G2_PSI_Y;
    fp2_conj(&r->x, &p->x);
    fp2_mul(&r->x, &r->x, &cx);
    fp2_conj(&r->y, &p->y);
    fp2_mul(&r->y, &r->y, &cy);
}

/* Scott, ePrint 2021/1130 section 4 (BLS12): for P on E'(Fp2), P is in G2 iff psi(P) = [z]P.
 * z < 0, so this tests [|z|]P == -psi(P). Cost: one multiplication by |z| with mixed additions
 * (63 (2M+5S) + 5 (7M+4S) in Fp2), psi (2 Fp2 mul) and a Jacobian-affine comparison. */
int g2_affine_in_subgroup_vartime(const g2_affine_t *p) {
    if (g2_affine_is_infinity(p)) return 1;
    g2_affine_t ps;
    g2_jac_t t, neg_psi;
    g2_mul_by_z_abs_affine(&t, p);
    g2_affine_psi(&ps, p);
    g2_affine_neg(&ps, &ps);
    g2_jac_from_affine(&neg_psi, &ps);
    return g2_jac_eq(&t, &neg_psi);
}
