/*
 * msm_g1.c — the Pippenger MSM (pippenger_impl.h) instantiated for G1 (curve/g1.h).
 * Bucket accumulation uses the XYZZ mixed addition (8M + 2S over Fp), reduction the XYZZ full
 * addition (12M + 2S), window combination the XYZZ doubling.
 */
#include "curve/g1.h"

#define MSM_FN(name) msm_g1_##name
#define MSM_API
#define MSM_AFF g1_affine_t
#define MSM_XYZZ g1_xyzz_t
#define MSM_JAC g1_jac_t
#define MSM_AFF_IS_INF(p) g1_affine_is_infinity(p)
#define MSM_XYZZ_SET_INF(r) g1_xyzz_set_infinity(r)
#define MSM_XYZZ_IS_INF(p) g1_xyzz_is_infinity(p)
#define MSM_XYZZ_ADD_AFF(r, a, b) g1_xyzz_add_affine(r, a, b)
#define MSM_XYZZ_SUB_AFF(r, a, b) g1_xyzz_sub_affine(r, a, b)
#define MSM_XYZZ_ADD(r, a, b) g1_xyzz_add(r, a, b)
#define MSM_XYZZ_DBL(r, p) g1_xyzz_dbl(r, p)
#define MSM_XYZZ_TO_JAC(r, p) g1_xyzz_to_jac(r, p)
#define MSM_JAC_SET_INF(r) g1_jac_set_infinity(r)
#define MSM_JAC_DBL(r, p) g1_jac_dbl(r, p)
#define MSM_JAC_ADD(r, a, b) g1_jac_add(r, a, b)
#define MSM_JAC_ADD_AFF(r, a, b) g1_jac_add_affine(r, a, b)

/* batch-affine bucket accumulation for wide windows (see pippenger_impl.h) */
#define MSM_BATCH_AFFINE 1
#define MSM_FE fp_t
#define MSM_FE_ADD(r, a, b) fp_add(r, a, b)
#define MSM_FE_SUB(r, a, b) fp_sub(r, a, b)
#define MSM_FE_DBL(r, a) fp_dbl(r, a)
#define MSM_FE_NEG(r, a) fp_neg(r, a)
#define MSM_FE_MUL(r, a, b) fp_mul(r, a, b)
#define MSM_FE_SQR(r, a) fp_sqr(r, a)
/* fp_t is always fully reduced (< p), so zero is all-zero limbs; inline (hot: once per add). */
static inline int msm_g1_fe_is_zero(const fp_t *a) {
    return (a->l[0] | a->l[1] | a->l[2] | a->l[3] | a->l[4] | a->l[5]) == 0;
}
#define MSM_FE_IS_ZERO(a) msm_g1_fe_is_zero(a)
#define MSM_FE_EQ(a, b) fp_eq(a, b)
#define MSM_FE_INV(r, a) fp_inv_vartime(r, a)

#include "msm/pippenger_impl.h"
