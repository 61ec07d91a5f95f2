/*
 * start_gpu.c — the GPU table of the start phase (start.h) over the CUDA kernels of gpu/gpu.h, and
 * the one device-resident copy of a proving key: per key view and device, the four G1 bases and the
 * NTT domain are uploaded on first use (inside the caller's kernel region) and kept until
 * groth16_key_free. Built into the library proofmill_groth16_gpu; the CUDA part only when the build
 * has the backend (PROOFMILL_HAVE_GPU), otherwise groth16_ops_gpu says so.
 *
 * Operations with a kernel today: h_snarkjs (gpu_snarkjs_h; its result stays on the device for the
 * H MSM) and msm_g1 (gpu_msm_g1, Pippenger on resident bases). Not yet: eval (SpMV) and
 * h_bellperson: their entries are NULL, so the start phase runs the CPU table's. Adding one = a
 * function here with the signature of start.h's table and its name in groth16_gpu_table.
 */
#include "groth16/start.h"

#ifdef PROOFMILL_HAVE_GPU

#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"

/* One device's copy of a key (k->dev[device]). */
typedef struct {
    gpu_g1_bases *base[GROTH16_N_BASES];
    gpu_ntt_domain *dom;
} gpu_key;

static void gpu_key_free(void *state, int device) {
    gpu_key *g = state;
    if (!g) return;
    gpu_set_device(device, NULL);
    for (int b = 0; b < GROTH16_N_BASES; b++) gpu_g1_bases_free(g->base[b]);
    gpu_ntt_domain_free(g->dom);
    free(g);
}

/* The device copy of p's key on x->device (made current), created on first use. After a failure
 * (e.g. device memory) the next call retries only what is missing. */
static pm_status gpu_key_get(gpu_key **out, const groth16_exec *x, groth16_pending_t *p, pm_error *err) {
    groth16_key *k = (groth16_key *)p->key; /* device slots: written under the device's kernel region only */
    int d = x->device;
    if (d < 0 || d >= GROTH16_MAX_DEVICES)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "device id %d out of range (0..%d)", d,
                            GROTH16_MAX_DEVICES - 1);
    pm_status st = gpu_set_device(d, err);
    if (st) return st;
    if (!k->dev[d]) {
        gpu_key *g = calloc(1, sizeof *g);
        if (!g) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "device key (host part)");
        k->dev[d] = g;
        k->dev_free = gpu_key_free;
    }
    *out = k->dev[d];
    return PM_OK;
}

static pm_status gpu_h_snarkjs(const groth16_exec *x, groth16_pending_t *p, groth16_scalars *h, pm_error *err) {
    const groth16_key *k = p->key;
    gpu_key *g;
    pm_status st = gpu_key_get(&g, x, p, err);
    if (st) return st;
    if (!g->dom && (st = gpu_ntt_domain_init(&g->dom, k->log_domain, NTT_ROOTS_SNARKJS, err))) return st;
    fr_t *a = p->work, *b = a + k->domain;
    const void *dev = NULL;
    st = gpu_snarkjs_h(a, k->domain, a, b, g->dom, &dev, err); /* P in a, and on the device */
    h->host = a;
    h->dev = dev;
    return st;
}

static pm_status gpu_msm(const groth16_exec *x, groth16_pending_t *p, groth16_base which, const groth16_scalars *s,
                         g1_jac_t *r, pm_error *err) {
    const groth16_key *k = p->key;
    gpu_key *g;
    pm_status st = gpu_key_get(&g, x, p, err);
    if (st) return st;
    if (!g->base[which] && (st = gpu_g1_bases_upload(&g->base[which], k->base[which], k->n_base[which], err)))
        return st;
    return s->dev ? gpu_msm_g1(r, g->base[which], 0, s->dev, k->n_base[which], GPU_MSM_SCALARS_DEVICE, err)
                  : gpu_msm_g1(r, g->base[which], 0, s->host, k->n_base[which], 0, err);
}

static const groth16_ops groth16_gpu_table = {
    .name = "cuda",
    .eval = NULL,         /* no SpMV kernel yet: the CPU's */
    .h_snarkjs = gpu_h_snarkjs,
    .h_bellperson = NULL, /* no kernel yet: the CPU's */
    .msm_g1 = gpu_msm,
};

pm_status groth16_ops_gpu(const groth16_ops **ops, pm_error *err) {
    *ops = NULL;
    if (gpu_available() <= 0)
        return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "no usable CUDA device (driver or GPU missing)");
    *ops = &groth16_gpu_table;
    return PM_OK;
}

#else /* a build without the CUDA backend */

pm_status groth16_ops_gpu(const groth16_ops **ops, pm_error *err) {
    *ops = NULL;
    return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET,
                        "this build has no CUDA backend (PROOFMILL_CUDA=OFF or no nvcc)");
}

#endif
