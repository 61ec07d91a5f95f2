/*
 * setup_gpu.c — setup_gpu.h over gpu/gpu.h's batch fixed-base multiplication.
 */
#include "groth16/setup_gpu.h"

#include <stdlib.h>
#include <string.h>

#ifdef PROOFMILL_HAVE_GPU

#include "curve/g1.h"
#include "curve/g2.h"
#include "gpu/gpu.h"

typedef struct {
    int device;
    gpu_g1_fixed_base *g1;
    gpu_g2_fixed_base *g2;
} gpu_mul;

static pm_status mul_g1(void *self, g1_affine_t *out, const fr_t *k, size_t n, pm_error *err) {
    gpu_mul *g = self;
    pm_status st = gpu_set_device(g->device, err);
    return st ? st : gpu_g1_fixed_base_mul(out, g->g1, k, n, GPU_MSM_SCALARS_MONT, err);
}

static pm_status mul_g2(void *self, g2_affine_t *out, const fr_t *k, size_t n, pm_error *err) {
    gpu_mul *g = self;
    pm_status st = gpu_set_device(g->device, err);
    return st ? st : gpu_g2_fixed_base_mul(out, g->g2, k, n, GPU_MSM_SCALARS_MONT, err);
}

pm_status groth16_setup_mul_gpu(groth16_setup_mul *m, int device, pm_error *err) {
    memset(m, 0, sizeof *m);
    if (device < 0 || device >= gpu_available())
        return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "no usable CUDA device %d (driver or GPU missing)",
                            device);
    gpu_mul *g = calloc(1, sizeof *g);
    if (!g) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "GPU setup state");
    g->device = device;
    pm_status st = gpu_set_device(device, err);
    if (!st) st = gpu_g1_fixed_base_create(&g->g1, &G1_GENERATOR, 0, err);
    if (!st) st = gpu_g2_fixed_base_create(&g->g2, &G2_GENERATOR, 0, err);
    if (st) {
        gpu_g1_fixed_base_free(g->g1);
        gpu_g2_fixed_base_free(g->g2);
        free(g);
        return st;
    }
    m->name = "cuda";
    m->self = g;
    m->g1_mul = mul_g1;
    m->g2_mul = mul_g2;
    return PM_OK;
}

void groth16_setup_mul_gpu_free(groth16_setup_mul *m) {
    if (!m || !m->self) return;
    gpu_mul *g = m->self;
    gpu_set_device(g->device, NULL);
    gpu_g1_fixed_base_free(g->g1);
    gpu_g2_fixed_base_free(g->g2);
    free(g);
    memset(m, 0, sizeof *m);
}

#else /* a build without the CUDA backend */

pm_status groth16_setup_mul_gpu(groth16_setup_mul *m, int device, pm_error *err) {
    (void)device;
    memset(m, 0, sizeof *m);
    return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "this build has no CUDA backend (PROOFMILL_CUDA=OFF or no nvcc)");
}

void groth16_setup_mul_gpu_free(groth16_setup_mul *m) {
    if (m) memset(m, 0, sizeof *m);
}

#endif
