/*
 * msm_g2.c — the Pippenger MSM (pippenger_impl.h) instantiated for G2 (curve/g2.h).
 * Bucket accumulation uses the XYZZ mixed addition (8M + 2S over Fp2, each Fp2 multiplication
 * ~3 Fp multiplications), reduction the XYZZ full addition (12M + 2S), window combination the
 * XYZZ doubling.
 */
#include "curve/g2.h"

#define MSM_FN(name) msm_g2_##name
#define MSM_API
#define MSM_AFF g2_affine_t
#define MSM_XYZZ g2_xyzz_t
#define MSM_JAC g2_jac_t
#define MSM_AFF_IS_INF(p) g2_affine_is_infinity(p)
#define MSM_XYZZ_SET_INF(r) g2_xyzz_set_infinity(r)
#define MSM_XYZZ_IS_INF(p) g2_xyzz_is_infinity(p)
#define MSM_XYZZ_ADD_AFF(r, a, b) g2_xyzz_add_affine(r, a, b)
#define MSM_XYZZ_SUB_AFF(r, a, b) g2_xyzz_sub_affine(r, a, b)
#define MSM_XYZZ_ADD(r, a, b) g2_xyzz_add(r, a, b)
#define MSM_XYZZ_DBL(r, p) g2_xyzz_dbl(r, p)
#define MSM_XYZZ_TO_JAC(r, p) g2_xyzz_to_jac(r, p)
#define MSM_JAC_SET_INF(r) g2_jac_set_infinity(r)
#define MSM_JAC_DBL(r, p) g2_jac_dbl(r, p)
#define MSM_JAC_ADD(r, a, b) g2_jac_add(r, a, b)
#define MSM_JAC_ADD_AFF(r, a, b) g2_jac_add_affine(r, a, b)

/* batch-affine bucket accumulation for wide windows (see pippenger_impl.h) */
#define MSM_BATCH_AFFINE 1
#define MSM_FE fp2_t
#define MSM_FE_ADD(r, a, b) fp2_add(r, a, b)
#define MSM_FE_SUB(r, a, b) fp2_sub(r, a, b)
#define MSM_FE_DBL(r, a) fp2_dbl(r, a)
#define MSM_FE_NEG(r, a) fp2_neg(r, a)
#define MSM_FE_MUL(r, a, b) fp2_mul(r, a, b)
#define MSM_FE_SQR(r, a) fp2_sqr(r, a)
/* fp_t is always fully reduced (< p), so zero is all-zero limbs; inline (hot: once per add). */
static inline int msm_g2_fe_is_zero(const fp2_t *a) {
    uint64_t o = 0;
    for (int i = 0; i < 6; i++) o |= a->c0.l[i] | a->c1.l[i];
    return o == 0;
}
#define MSM_FE_IS_ZERO(a) msm_g2_fe_is_zero(a)
#define MSM_FE_EQ(a, b) fp2_eq(a, b)
#define MSM_FE_INV(r, a) fp2_inv_vartime(r, a)

/* Batch inversion over norms in Fp: 1/a = conj(a) / (a0^2 + a1^2); the norm is nonzero for
 * a != 0 because -1 is not a square mod p (p = 3 mod 4). Per inverted element: 2S + 1A for the
 * norm, 3M for Montgomery's trick in Fp, 2M for conj(a) * ninv = 7 Fp multiplications, against
 * 3 Fp2 multiplications (9 Fp multiplications) when the trick runs in Fp2. */
static inline void msm_g2_fe_norm(fp_t *n, const fp2_t *a) {
    fp_t t;
    fp_sqr(n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(n, n, &t);
}
static inline void msm_g2_fe_inv_from_norm(fp2_t *r, const fp2_t *a, const fp_t *ninv) {
    fp_t t;
    fp_mul(&r->c0, &a->c0, ninv);
    fp_mul(&t, &a->c1, ninv);
    fp_neg(&r->c1, &t);
}
#define MSM_FB fp_t
#define MSM_FE_NORM(n, a) msm_g2_fe_norm(n, a)
#define MSM_FB_MUL(r, a, b) fp_mul(r, a, b)
#define MSM_FB_INV(r, a) fp_inv_vartime(r, a)
#define MSM_FE_INV_FROM_NORM(r, a, ninv) msm_g2_fe_inv_from_norm(r, a, ninv)

#include "msm/pippenger_impl.h"
