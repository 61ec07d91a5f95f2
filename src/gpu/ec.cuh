/*
 * ec.cuh — BLS12-381 G1 and G2 point arithmetic on the device, one template over the coordinate
 * field E (internal to src/gpu): G1 is E = fp_d (y^2 = x^3 + 4), G2 is E = fp2_d
 * (y^2 = x^3 + 4(1+u)). Every formula below has a = 0 and never uses b, so the same code serves
 * both groups (as src/curve/ec_impl.h does on the CPU). All functions are __host__ __device__
 * (field.cuh): the host tests run them against curve/g1.h and curve/g2.h.
 *
 *  - aff_t<E>: affine (x, y); infinity is (0, 0), as curve/g1.h, g2.h and snarkjs encode it
 *    (not on either curve since b != 0). Same bytes as g1_affine_t (96) / g2_affine_t (192).
 *  - xyzz_t<E>: XYZZ (X, Y, ZZ, ZZZ), x = X/ZZ, y = Y/ZZZ; infinity has ZZ = 0. Same bytes as
 *    g1_xyzz_t / g2_xyzz_t.
 *  - jac_t<E>: Jacobian (X, Y, Z), same bytes as g1_jac_t / g2_jac_t; infinity has Z = 0.
 * Formulas from the Explicit-Formulas Database, g1p/auto-shortw-xyzz (Bernstein-Lange):
 *   madd-2008-s 8M+2S (mixed add), add-2008-s 12M+2S, dbl-2008-s-1 6M+3S (a = 0). Each XYZZ routine comes twice:
 *   ec_x_*_i is forced inline (for hot loops: no call, no operands in local memory), ec_x_* is a real call
 *   on the device (small kernels, fast compiles) with the same body. The add routines are complete: they detect P = Q (then double),
 *   P = -Q (then infinity) and infinity inputs. Affine addition with a caller-supplied inverse
 *   (ec_aff_add_prepare / ec_aff_add_finish, for batch inversion): the chord and tangent rules,
 *   lambda = (y2 - y1)/(x2 - x1) or 3 x1^2 / (2 y1), x3 = lambda^2 - x1 - x2,
 *   y3 = lambda (x1 - x3) - y1: 2M + 1S given the inverse. All variable time (MSM data is not
 *   secret here).
 */
#pragma once
#include "field.cuh"

namespace pmgpu {

template <class E> struct aff_t { E x, y; };
template <class E> struct xyzz_t { E X, Y, ZZ, ZZZ; };
template <class E> struct jac_t { E X, Y, Z; };

typedef aff_t<fp_d> g1a_d;
typedef xyzz_t<fp_d> g1x_d;
typedef jac_t<fp_d> g1j_d;
typedef aff_t<fp2_d> g2a_d;
typedef xyzz_t<fp2_d> g2x_d;
typedef jac_t<fp2_d> g2j_d;

template <class E> PM_HD aff_t<E> ec_aff_inf() { aff_t<E> r; r.x = f_zero<E>(); r.y = f_zero<E>(); return r; }
template <class E> PM_HD bool ec_aff_is_inf(const aff_t<E> &p) { return f_is_zero(p.x) && f_is_zero(p.y); }
template <class E> PM_HD aff_t<E> ec_aff_neg(const aff_t<E> &p) { aff_t<E> r; r.x = p.x; r.y = f_neg(p.y); return r; }
template <class E> PM_HD xyzz_t<E> ec_x_inf() {
    xyzz_t<E> r; r.X = f_one<E>(); r.Y = f_one<E>(); r.ZZ = f_zero<E>(); r.ZZZ = f_zero<E>(); return r;
}
template <class E> PM_HD bool ec_x_is_inf(const xyzz_t<E> &p) { return f_is_zero(p.ZZ); }
template <class E> PM_HD xyzz_t<E> ec_x_from_aff(const aff_t<E> &p) {
    if (ec_aff_is_inf(p)) return ec_x_inf<E>();
    xyzz_t<E> r; r.X = p.x; r.Y = p.y; r.ZZ = f_one<E>(); r.ZZZ = f_one<E>(); return r;
}
template <class E> PM_HD xyzz_t<E> ec_x_neg(const xyzz_t<E> &p) { xyzz_t<E> r = p; r.Y = f_neg(p.Y); return r; }

/* dbl-2008-s-1 with a = 0: U = 2Y, V = U^2, W = U*V, S = X*V, M = 3X^2, X3 = M^2 - 2S,
 * Y3 = M(S - X3) - W*Y, ZZ3 = V*ZZ, ZZZ3 = W*ZZZ. 6M + 3S. */
template <class E> PM_HD xyzz_t<E> ec_x_dbl_i(const xyzz_t<E> &p) {
    if (ec_x_is_inf(p)) return p;
    E U = f_dbl(p.Y);
    E V = f_sqr(U);
    E W = f_mul(U, V);
    E S = f_mul(p.X, V);
    E X2 = f_sqr(p.X);
    E M = f_add(f_dbl(X2), X2);
    xyzz_t<E> r;
    r.X = f_sub(f_sqr(M), f_dbl(S));
    r.Y = f_sub(f_mul(M, f_sub(S, r.X)), f_mul(W, p.Y));
    r.ZZ = f_mul(V, p.ZZ);
    r.ZZZ = f_mul(W, p.ZZZ);
    return r;
}
template <class E> PM_HD_CALL xyzz_t<E> ec_x_dbl(const xyzz_t<E> &p) { return ec_x_dbl_i(p); }

/* madd-2008-s: p + q, q affine. U2 = x2*ZZ1, S2 = y2*ZZZ1, P = U2 - X1, R = S2 - Y1,
 * PP = P^2, PPP = P*PP, Q = X1*PP, X3 = R^2 - PPP - 2Q, Y3 = R(Q - X3) - Y1*PPP,
 * ZZ3 = ZZ1*PP, ZZZ3 = ZZZ1*PPP. 8M + 2S. */
template <class E> PM_HD xyzz_t<E> ec_x_add_aff_i(const xyzz_t<E> &p, const aff_t<E> &q) {
    if (ec_aff_is_inf(q)) return p;
    if (ec_x_is_inf(p)) return ec_x_from_aff(q);
    E U2 = f_mul(q.x, p.ZZ);
    E S2 = f_mul(q.y, p.ZZZ);
    E P = f_sub(U2, p.X);
    E R = f_sub(S2, p.Y);
    if (f_is_zero(P)) {
        if (f_is_zero(R)) return ec_x_dbl(ec_x_from_aff(q)); /* rare: the general doubling */
        return ec_x_inf<E>();
    }
    E PP = f_sqr(P);
    E PPP = f_mul(P, PP);
    E Q = f_mul(p.X, PP);
    xyzz_t<E> r;
    r.X = f_sub(f_sub(f_sqr(R), PPP), f_dbl(Q));
    r.Y = f_sub(f_mul(R, f_sub(Q, r.X)), f_mul(p.Y, PPP));
    r.ZZ = f_mul(p.ZZ, PP);
    r.ZZZ = f_mul(p.ZZZ, PPP);
    return r;
}
template <class E> PM_HD_CALL xyzz_t<E> ec_x_add_aff(const xyzz_t<E> &p, const aff_t<E> &q) { return ec_x_add_aff_i(p, q); }

/* add-2008-s: p + q, both XYZZ. 12M + 2S. */
template <class E> PM_HD xyzz_t<E> ec_x_add_i(const xyzz_t<E> &p, const xyzz_t<E> &q) {
    if (ec_x_is_inf(q)) return p;
    if (ec_x_is_inf(p)) return q;
    E U1 = f_mul(p.X, q.ZZ);
    E U2 = f_mul(q.X, p.ZZ);
    E S1 = f_mul(p.Y, q.ZZZ);
    E S2 = f_mul(q.Y, p.ZZZ);
    E P = f_sub(U2, U1);
    E R = f_sub(S2, S1);
    if (f_is_zero(P)) {
        if (f_is_zero(R)) return ec_x_dbl(p);
        return ec_x_inf<E>();
    }
    E PP = f_sqr(P);
    E PPP = f_mul(P, PP);
    E Q = f_mul(U1, PP);
    xyzz_t<E> r;
    r.X = f_sub(f_sub(f_sqr(R), PPP), f_dbl(Q));
    r.Y = f_sub(f_mul(R, f_sub(Q, r.X)), f_mul(S1, PPP));
    r.ZZ = f_mul(f_mul(p.ZZ, q.ZZ), PP);
    r.ZZZ = f_mul(f_mul(p.ZZZ, q.ZZZ), PPP);
    return r;
}
template <class E> PM_HD_CALL xyzz_t<E> ec_x_add(const xyzz_t<E> &p, const xyzz_t<E> &q) { return ec_x_add_i(p, q); }

/* XYZZ -> Jacobian without inversion: Z = ZZZ, X = X*ZZ^2, Y = Y*ZZZ^2 (uses ZZ^3 = ZZZ^2). */
template <class E> PM_HD jac_t<E> ec_x_to_jac(const xyzz_t<E> &p) {
    jac_t<E> r;
    if (ec_x_is_inf(p)) { r.X = f_one<E>(); r.Y = f_one<E>(); r.Z = f_zero<E>(); return r; }
    r.X = f_mul(p.X, f_sqr(p.ZZ));
    r.Y = f_mul(p.Y, f_sqr(p.ZZZ));
    r.Z = p.ZZZ;
    return r;
}

/* XYZZ -> affine given zzz_inv = 1/ZZZ (from a batch inversion): 1/Z = ZZ/ZZZ, x = X/Z^2,
 * y = Y/ZZZ. 3M + 1S. Infinity (ZZ = 0) -> (0, 0) whatever zzz_inv is. */
template <class E> PM_HD aff_t<E> ec_x_to_aff_with(const xyzz_t<E> &p, const E &zzz_inv) {
    if (ec_x_is_inf(p)) return ec_aff_inf<E>();
    E z_inv = f_mul(zzz_inv, p.ZZ);
    aff_t<E> r;
    r.x = f_mul(p.X, f_sqr(z_inv));
    r.y = f_mul(p.Y, zzz_inv);
    return r;
}
/* XYZZ -> affine with one inversion of its own. */
template <class E> PM_HD_CALL aff_t<E> ec_x_to_aff(const xyzz_t<E> &p) {
    if (ec_x_is_inf(p)) return ec_aff_inf<E>();
    return ec_x_to_aff_with(p, f_inv(p.ZZZ));
}

/* ---- affine addition with a shared inversion ----
 * ec_aff_add_prepare classifies p + q and returns the denominator to invert (1 when none is
 * needed); ec_aff_add_finish completes it from den_inv = 1/den. */
enum { AFF_CHORD = 0, AFF_TANGENT = 1, AFF_LEFT = 2, AFF_RIGHT = 3, AFF_INF = 4 };
template <class E> PM_HD int ec_aff_add_prepare(const aff_t<E> &p, const aff_t<E> &q, E &den) {
    den = f_one<E>();
    if (ec_aff_is_inf(p)) return AFF_RIGHT; /* q (infinity too when both are) */
    if (ec_aff_is_inf(q)) return AFF_LEFT;
    if (f_eq(p.x, q.x)) {
        if (!f_eq(p.y, q.y) || f_is_zero(p.y)) return AFF_INF; /* q = -p */
        den = f_dbl(p.y);
        return AFF_TANGENT;
    }
    den = f_sub(q.x, p.x);
    return AFF_CHORD;
}
template <class E> PM_HD aff_t<E> ec_aff_add_finish(const aff_t<E> &p, const aff_t<E> &q, int kind, const E &den_inv) {
    if (kind == AFF_LEFT) return p;
    if (kind == AFF_RIGHT) return q;
    if (kind == AFF_INF) return ec_aff_inf<E>();
    E num;
    if (kind == AFF_CHORD) {
        num = f_sub(q.y, p.y);
    } else {
        E x2 = f_sqr(p.x);
        num = f_add(f_dbl(x2), x2);
    }
    E lambda = f_mul(num, den_inv);
    aff_t<E> r;
    r.x = f_sub(f_sub(f_sqr(lambda), p.x), q.x);
    r.y = f_sub(f_mul(lambda, f_sub(p.x, r.x)), p.y);
    return r;
}

/* loads/stores with 16-byte vector accesses */
template <class E> PM_HD aff_t<E> ec_aff_load(const aff_t<E> *p) { aff_t<E> r; r.x = f_load(&p->x); r.y = f_load(&p->y); return r; }
template <class E> PM_HD void ec_aff_store(aff_t<E> *p, const aff_t<E> &a) { f_store(&p->x, a.x); f_store(&p->y, a.y); }
template <class E> PM_HD xyzz_t<E> ec_x_load(const xyzz_t<E> *p) {
    xyzz_t<E> r; r.X = f_load(&p->X); r.Y = f_load(&p->Y); r.ZZ = f_load(&p->ZZ); r.ZZZ = f_load(&p->ZZZ); return r;
}
template <class E> PM_HD void ec_x_store(xyzz_t<E> *p, const xyzz_t<E> &a) {
    f_store(&p->X, a.X); f_store(&p->Y, a.Y); f_store(&p->ZZ, a.ZZ); f_store(&p->ZZZ, a.ZZZ);
}

} /* namespace pmgpu */
