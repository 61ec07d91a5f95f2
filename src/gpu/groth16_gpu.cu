/*
 * groth16_gpu.cu — the Groth16 start phase (groth16/prover.h) on the GPU, for snarkjs zkeys.
 *
 * gpu_groth16_prove_start fills the same groth16_pending_t as groth16_prove_start, so the CPU's
 * groth16_prove_finalize (G2 MSM, r/s terms, assembly, self-verification) runs unchanged after it:
 *   1. groth16_pending_init (witness length check, plain copy of w);
 *   2. zkey_eval_ab on the CPU (sparse, memory-bound; a and b land in host memory);
 *   3. the snarkjs H phase on the device (gpu_snarkjs_h); P stays on the device;
 *   4. four G1 MSMs on the device against bases uploaded once per key (gpu_groth16_key):
 *      A and B1 with w, C with w[n_public+1..], H with P (device scalars, no round trip);
 *      sum_c = MSM_C + MSM_H added on the host (curve/g1.h).
 * The r1cs constraint check of the CPU path (opts->r1cs) is not repeated here: the self-check
 * in finalize still rejects a witness that does not satisfy the circuit.
 */
#include <cstring>
#include <new>
#include <ctime>
#include "cpu_headers.cuh"
#include "common.cuh"

struct gpu_groth16_key {
    const zkey_t *zk;
    gpu_g1_bases *a, *b1, *c, *h;
    gpu_ntt_domain *dom;
};

static double now_s() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

extern "C" void gpu_groth16_key_free(gpu_groth16_key *k) {
    if (!k) return;
    gpu_g1_bases_free(k->a);
    gpu_g1_bases_free(k->b1);
    gpu_g1_bases_free(k->c);
    gpu_g1_bases_free(k->h);
    gpu_ntt_domain_free(k->dom);
    delete k;
}

extern "C" pm_status gpu_groth16_key_upload(gpu_groth16_key **out, const zkey_t *zk, pm_error *err) {
    if (!out || !zk) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_groth16_key_upload: NULL argument");
    *out = nullptr;
    gpu_groth16_key *k = new (std::nothrow) gpu_groth16_key();
    if (!k) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "gpu_groth16_key_upload: host allocation");
    k->zk = zk;
    unsigned log_n = 0;
    while (((size_t)1 << log_n) < zk->domain_size) log_n++;
    size_t nc = zk->n_vars - zk->n_public - 1;
    pm_status st;
    if ((st = gpu_g1_bases_upload(&k->a, zk->a, zk->n_vars, err)) != PM_OK ||
        (st = gpu_g1_bases_upload(&k->b1, zk->b1, zk->n_vars, err)) != PM_OK ||
        (st = gpu_g1_bases_upload(&k->c, zk->c, nc, err)) != PM_OK ||
        (st = gpu_g1_bases_upload(&k->h, zk->h, zk->domain_size, err)) != PM_OK ||
        (st = gpu_ntt_domain_init(&k->dom, log_n, 5 /* snarkjs roots */, err)) != PM_OK) {
        gpu_groth16_key_free(k);
        return st;
    }
    *out = k;
    return PM_OK;
}

extern "C" pm_status gpu_groth16_prove_start(groth16_pending_t *p, gpu_groth16_key *k, const fr_t *w, size_t n,
                                             const groth16_prove_opts_t *opts, pm_error *err) {
    if (!p || !k || !w) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_groth16_prove_start: NULL argument");
    const zkey_t *zk = k->zk;
    pm_status st = groth16_pending_init(p, zk, w, n, opts, err);
    if (st != PM_OK) return st;
    const size_t N = zk->domain_size;
    fr_t *ab = nullptr;
    st = gpu_host_alloc((void **)&ab, 3 * N * sizeof(fr_t), err); /* pinned: a, b, P */
    if (st != PM_OK) { groth16_pending_free(p); return st; }
    fr_t *a = ab, *b = ab + N, *P = ab + 2 * N;
    double t0 = now_s();
    st = zkey_eval_ab(a, b, N, zk, w, n, err);
    double t1 = now_s();
    p->t.eval_ab = t1 - t0;
    const void *p_dev = nullptr;
    if (st == PM_OK) st = gpu_snarkjs_h(P, N, a, b, k->dom, &p_dev, err);
    double t2 = now_s();
    p->t.h = t2 - t1;
    g1_jac_t mc, mh;
    if (st == PM_OK) st = gpu_msm_g1(&p->sum_a, k->a, 0, p->w_plain, zk->n_vars, 0, err);
    double t3 = now_s();
    if (st == PM_OK) st = gpu_msm_g1(&p->sum_b1, k->b1, 0, p->w_plain, zk->n_vars, 0, err);
    double t4 = now_s();
    if (st == PM_OK)
        st = gpu_msm_g1(&mc, k->c, 0, p->w_plain + zk->n_public + 1, zk->n_vars - zk->n_public - 1, 0, err);
    double t5 = now_s();
    if (st == PM_OK) st = gpu_msm_g1(&mh, k->h, 0, (const fr_t *)p_dev, N, GPU_MSM_SCALARS_DEVICE, err);
    double t6 = now_s();
    p->t.msm_a = t3 - t2;
    p->t.msm_b1 = t4 - t3;
    p->t.msm_c = t5 - t4;
    p->t.msm_h = t6 - t5;
    gpu_host_free(ab);
    if (st != PM_OK) { groth16_pending_free(p); return st; }
    g1_jac_add(&p->sum_c, &mc, &mh);
    return PM_OK;
}
