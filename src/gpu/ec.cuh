/*
 * ec.cuh — BLS12-381 G1 point arithmetic on the device (internal to src/gpu).
 *
 * E: y^2 = x^3 + 4 over Fp (a = 0). Coordinates are Montgomery Fp (field.cuh).
 *  - g1a_d: affine (x, y); infinity is (0, 0), as curve/g1.h and snarkjs encode it. Same bytes
 *    as the CPU's g1_affine_t (96 bytes).
 *  - g1x_d: XYZZ (X, Y, ZZ, ZZZ), x = X/ZZ, y = Y/ZZZ; infinity has ZZ = 0 (ZZZ = 0 too).
 *  - g1j_d: Jacobian (X, Y, Z), same bytes as the CPU's g1_jac_t; infinity has Z = 0.
 * Formulas from the Explicit-Formulas Database, g1p/auto-shortw-xyzz (Bernstein-Lange):
 *   madd-2008-s 8M+2S (mixed add), add-2008-s 12M+2S, dbl-2008-s-1 6M+3S (here 2M+... with a=0),
 *   mdbl-2008-s-1 (affine input). The add routines are complete: they detect P = Q (then double),
 *   P = -Q (then infinity) and infinity inputs. All variable time (MSM data is not secret here).
 */
#pragma once
#include "field.cuh"

namespace pmgpu {

struct g1a_d { fp_d x, y; };
struct g1x_d { fp_d X, Y, ZZ, ZZZ; };
struct g1j_d { fp_d X, Y, Z; };

typedef fp_params FP;

PM_DEV bool g1a_is_inf(const g1a_d &p) { return fe_is_zero<FP>(p.x) && fe_is_zero<FP>(p.y); }
PM_DEV g1x_d g1x_inf() { g1x_d r; r.X = fe_one<FP>(); r.Y = fe_one<FP>(); r.ZZ = fe_zero<FP>(); r.ZZZ = fe_zero<FP>(); return r; }
PM_DEV bool g1x_is_inf(const g1x_d &p) { return fe_is_zero<FP>(p.ZZ); }
PM_DEV g1x_d g1x_from_affine(const g1a_d &p) {
    if (g1a_is_inf(p)) return g1x_inf();
    g1x_d r; r.X = p.x; r.Y = p.y; r.ZZ = fe_one<FP>(); r.ZZZ = fe_one<FP>(); return r;
}
PM_DEV g1a_d g1a_neg(const g1a_d &p) { g1a_d r; r.x = p.x; r.y = fe_neg<FP>(p.y); return r; }
PM_DEV g1x_d g1x_neg(const g1x_d &p) { g1x_d r = p; r.Y = fe_neg<FP>(p.Y); return r; }

/* dbl-2008-s-1 with a = 0: U = 2Y, V = U^2, W = U*V, S = X*V, M = 3X^2, X3 = M^2 - 2S,
 * Y3 = M(S - X3) - W*Y, ZZ3 = V*ZZ, ZZZ3 = W*ZZZ. 6M + 3S. */
PM_DEV g1x_d g1x_dbl(const g1x_d &p) {
    if (g1x_is_inf(p)) return p;
    fp_d U = fe_dbl<FP>(p.Y);
    fp_d V = fe_sqr<FP>(U);
    fp_d W = fe_mul<FP>(U, V);
    fp_d S = fe_mul<FP>(p.X, V);
    fp_d X2 = fe_sqr<FP>(p.X);
    fp_d M = fe_add<FP>(fe_dbl<FP>(X2), X2);
    g1x_d r;
    r.X = fe_sub<FP>(fe_sqr<FP>(M), fe_dbl<FP>(S));
    r.Y = fe_sub<FP>(fe_mul<FP>(M, fe_sub<FP>(S, r.X)), fe_mul<FP>(W, p.Y));
    r.ZZ = fe_mul<FP>(V, p.ZZ);
    r.ZZZ = fe_mul<FP>(W, p.ZZZ);
    return r;
}

/* mdbl-2008-s-1: doubling of an affine point (ZZ = ZZZ = 1). 2M + 3S-ish. */
PM_DEV g1x_d g1x_dbl_affine(const g1a_d &p) {
    if (g1a_is_inf(p)) return g1x_inf();
    fp_d U = fe_dbl<FP>(p.y);
    fp_d V = fe_sqr<FP>(U);
    fp_d W = fe_mul<FP>(U, V);
    fp_d S = fe_mul<FP>(p.x, V);
    fp_d X2 = fe_sqr<FP>(p.x);
    fp_d M = fe_add<FP>(fe_dbl<FP>(X2), X2);
    g1x_d r;
    r.X = fe_sub<FP>(fe_sqr<FP>(M), fe_dbl<FP>(S));
    r.Y = fe_sub<FP>(fe_mul<FP>(M, fe_sub<FP>(S, r.X)), fe_mul<FP>(W, p.y));
    r.ZZ = V;
    r.ZZZ = W;
    return r;
}

/* madd-2008-s: p + q, q affine. U2 = x2*ZZ1, S2 = y2*ZZZ1, P = U2 - X1, R = S2 - Y1,
 * PP = P^2, PPP = P*PP, Q = X1*PP, X3 = R^2 - PPP - 2Q, Y3 = R(Q - X3) - Y1*PPP,
 * ZZ3 = ZZ1*PP, ZZZ3 = ZZZ1*PPP. 8M + 2S. */
PM_DEV g1x_d g1x_add_affine(const g1x_d &p, const g1a_d &q) {
    if (g1a_is_inf(q)) return p;
    if (g1x_is_inf(p)) return g1x_from_affine(q);
    fp_d U2 = fe_mul<FP>(q.x, p.ZZ);
    fp_d S2 = fe_mul<FP>(q.y, p.ZZZ);
    fp_d P = fe_sub<FP>(U2, p.X);
    fp_d R = fe_sub<FP>(S2, p.Y);
    if (fe_is_zero<FP>(P)) {
        if (fe_is_zero<FP>(R)) return g1x_dbl_affine(q);
        return g1x_inf();
    }
    fp_d PP = fe_sqr<FP>(P);
    fp_d PPP = fe_mul<FP>(P, PP);
    fp_d Q = fe_mul<FP>(p.X, PP);
    g1x_d r;
    r.X = fe_sub<FP>(fe_sub<FP>(fe_sqr<FP>(R), PPP), fe_dbl<FP>(Q));
    r.Y = fe_sub<FP>(fe_mul<FP>(R, fe_sub<FP>(Q, r.X)), fe_mul<FP>(p.Y, PPP));
    r.ZZ = fe_mul<FP>(p.ZZ, PP);
    r.ZZZ = fe_mul<FP>(p.ZZZ, PPP);
    return r;
}

/* add-2008-s: p + q, both XYZZ. U1 = X1*ZZ2, U2 = X2*ZZ1, S1 = Y1*ZZZ2, S2 = Y2*ZZZ1,
 * P = U2 - U1, R = S2 - S1, PP = P^2, PPP = P*PP, Q = U1*PP, X3 = R^2 - PPP - 2Q,
 * Y3 = R(Q - X3) - S1*PPP, ZZ3 = ZZ1*ZZ2*PP, ZZZ3 = ZZZ1*ZZZ2*PPP. 12M + 2S. */
PM_DEV g1x_d g1x_add(const g1x_d &p, const g1x_d &q) {
    if (g1x_is_inf(q)) return p;
    if (g1x_is_inf(p)) return q;
    fp_d U1 = fe_mul<FP>(p.X, q.ZZ);
    fp_d U2 = fe_mul<FP>(q.X, p.ZZ);
    fp_d S1 = fe_mul<FP>(p.Y, q.ZZZ);
    fp_d S2 = fe_mul<FP>(q.Y, p.ZZZ);
    fp_d P = fe_sub<FP>(U2, U1);
    fp_d R = fe_sub<FP>(S2, S1);
    if (fe_is_zero<FP>(P)) {
        if (fe_is_zero<FP>(R)) return g1x_dbl(p);
        return g1x_inf();
    }
    fp_d PP = fe_sqr<FP>(P);
    fp_d PPP = fe_mul<FP>(P, PP);
    fp_d Q = fe_mul<FP>(U1, PP);
    g1x_d r;
    r.X = fe_sub<FP>(fe_sub<FP>(fe_sqr<FP>(R), PPP), fe_dbl<FP>(Q));
    r.Y = fe_sub<FP>(fe_mul<FP>(R, fe_sub<FP>(Q, r.X)), fe_mul<FP>(S1, PPP));
    r.ZZ = fe_mul<FP>(fe_mul<FP>(p.ZZ, q.ZZ), PP);
    r.ZZZ = fe_mul<FP>(fe_mul<FP>(p.ZZZ, q.ZZZ), PPP);
    return r;
}

/* XYZZ -> Jacobian without inversion: Z = ZZZ, X = X*ZZ^2, Y = Y*ZZZ^2 (uses ZZ^3 = ZZZ^2). */
PM_DEV g1j_d g1x_to_jac(const g1x_d &p) {
    g1j_d r;
    if (g1x_is_inf(p)) { r.X = fe_one<FP>(); r.Y = fe_one<FP>(); r.Z = fe_zero<FP>(); return r; }
    r.X = fe_mul<FP>(p.X, fe_sqr<FP>(p.ZZ));
    r.Y = fe_mul<FP>(p.Y, fe_sqr<FP>(p.ZZZ));
    r.Z = p.ZZZ;
    return r;
}

/* XYZZ -> affine with one Fermat inversion (about 380 S + 190 M). Infinity -> (0, 0). */
PM_DEV g1a_d g1x_to_affine(const g1x_d &p) {
    g1a_d r;
    if (g1x_is_inf(p)) { r.x = fe_zero<FP>(); r.y = fe_zero<FP>(); return r; }
    fp_d zzz_inv = fe_inv_vartime<FP>(p.ZZZ);          /* 1/Z^3 */
    fp_d z_inv = fe_mul<FP>(zzz_inv, p.ZZ);             /* 1/Z */
    fp_d zz_inv = fe_sqr<FP>(z_inv);                     /* 1/Z^2 */
    r.x = fe_mul<FP>(p.X, zz_inv);
    r.y = fe_mul<FP>(p.Y, zzz_inv);
    return r;
}

PM_DEV g1a_d g1a_load(const g1a_d *p) { g1a_d r; r.x = fe_load<FP>(&p->x); r.y = fe_load<FP>(&p->y); return r; }
PM_DEV g1x_d g1x_load(const g1x_d *p) {
    g1x_d r; r.X = fe_load<FP>(&p->X); r.Y = fe_load<FP>(&p->Y); r.ZZ = fe_load<FP>(&p->ZZ); r.ZZZ = fe_load<FP>(&p->ZZZ); return r;
}
PM_DEV void g1x_store(g1x_d *p, const g1x_d &a) {
    fe_store<FP>(&p->X, a.X); fe_store<FP>(&p->Y, a.Y); fe_store<FP>(&p->ZZ, a.ZZ); fe_store<FP>(&p->ZZZ, a.ZZZ);
}

} /* namespace pmgpu */
