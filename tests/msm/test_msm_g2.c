/*
 * test_msm_g2.c — the MSM tests of test_msm_g1.c, compiled for G2 (smaller sizes: a G2
 * addition costs about three G1 additions).
 */
#define MSM_TEST_G2 1
#include "test_msm_g1.c"
