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
#define MSM_FE_IS_ZERO(a) fp2_is_zero(a)
#define MSM_FE_EQ(a, b) fp2_eq(a, b)
#define MSM_FE_INV(r, a) fp2_inv_vartime(r, a)

#include "msm/pippenger_impl.h"
