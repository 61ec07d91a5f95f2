/*
 * setup_gpu.h — the batch fixed-base multiplications of a Groth16 setup (setup.h groth16_setup_mul)
 * on a CUDA device (issue #13 item 4): one comb table of each generator (gpu_g1/g2_fixed_base,
 * window 16: 48 MiB for G1, 96 MiB for G2 on the device), every query's points computed there and
 * copied back. Same points as the CPU tables (exact arithmetic, affine normalised), so the keys are
 * byte-identical (test_gpu_setup). Built into proofmill_groth16_gpu; without the CUDA backend
 * groth16_setup_mul_gpu answers PM_ERR_GPU.
 */
#ifndef PROOFMILL_GROTH16_SETUP_GPU_H
#define PROOFMILL_GROTH16_SETUP_GPU_H

#include "groth16/setup.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *m set to multiply on CUDA device `device` (made current on the calling thread, which must run
 * the setup). Errors: PM_ERR_GPU (no backend, no device), PM_ERR_NOMEM (tables). */
pm_status groth16_setup_mul_gpu(groth16_setup_mul *m, int device, pm_error *err);
/* Release the device tables of m (made by groth16_setup_mul_gpu) and zero it. NULL or zeroed: no-op. */
void groth16_setup_mul_gpu_free(groth16_setup_mul *m);

#ifdef __cplusplus
}
#endif
#endif
