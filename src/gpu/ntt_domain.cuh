/*
 * ntt_domain.cuh — the device NTT domain and the pass runner shared by ntt.cu and h_pipeline.cu
 * (internal to src/gpu; the public face is gpu.h's gpu_ntt_domain).
 */
#pragma once
#include <cuda_runtime.h>
#include "cpu_headers.cuh"
#include "common.cuh"
#include "ntt_core.cuh"

namespace pmgpu {

/* A pow table on the device: c * x^e for e < n (ntc::pow_tab over a dev_buf). */
struct dev_pow_tab {
    dev_buf buf;
    ntc::pow_tab t{nullptr, nullptr, ntc::SC_NONE};
};

using ntc::net_ops;

} /* namespace pmgpu */

struct gpu_ntt_domain {
    int device = 0;
    unsigned log_n = 0;
    size_t n = 0;
    fr_t gen, omega, omega_inv, n_inv, shift, shift_inv; /* shift = omega_2n (the API's coset) */
    pmgpu::dev_buf tw;            /* n/2 forward twiddles omega^t (the inverse uses the mirror) */
    pmgpu::dev_buf work[3];       /* n elements each, allocated on demand (work[0]: gpu_ntt's copy) */
    pmgpu::dev_buf chunk;         /* gpu_bellperson_h_one's chunk buffer, made at its first call, kept */
    pmgpu::dev_pow_tab p_shift;   /* s^k */
    pmgpu::dev_pow_tab p_ninv;    /* n^-1 (constant) */
    pmgpu::dev_pow_tab p_cinv;    /* n^-1 s^-k */
    pmgpu::dev_pow_tab p_snarkjs; /* n^-1 s^k (snarkjs H, by bit-reversed position) */
    /* bellperson H (built on first use): g = 7 */
    bool bp_ready = false;
    fr_t bp_zinv;                 /* (g^n - 1)^-1 */
    pmgpu::dev_pow_tab p_bp_pre;  /* n^-1 g^k, Montgomery */
    pmgpu::dev_pow_tab p_bp_ginv; /* g^-k, Montgomery */
    pmgpu::dev_pow_tab p_bp_fin;  /* n^-1 (g^n - 1)^-1 (constant), PLAIN value (the product leaves Montgomery form) */
    cudaStream_t st = nullptr;
    cudaEvent_t e0 = nullptr, e1 = nullptr;
    float last_ms = 0;
    /* the buffer holding the last H's coefficients (what an H MSM reads; gpu_ntt_domain_h_buffer) */
    int h_buf = 0;
    /* gpu_bellperson_h_preload: a and b queued into buffers pre_buf[0], pre_buf[1] (the two that are
     * not h_buf) on a copy stream of the domain's own, landed at pre_ev[0], pre_ev[1]; pre_token 0:
     * none. Every operation that writes the buffers drops it first (preload_evict), but the H upload
     * that names its token, which reads it */
    cudaStream_t pre_st = nullptr;
    cudaEvent_t pre_start = nullptr, pre_ev[2] = {nullptr, nullptr};
    uint64_t pre_token = 0;
    int pre_buf[2] = {1, 2};
};

namespace pmgpu {
/* Upload lo/hi tables for c * x^k (plain: the table holds c * x^k as plain integers, so a Montgomery
 * product with it leaves Montgomery form); constant: only c (x ignored). */
pm_status make_pow_tab(dev_pow_tab &p, const fr_t &c, const fr_t &x, unsigned log_n, bool plain, bool constant,
                       cudaStream_t st, pm_error *err);
/* Run the whole L-stage network (DIF or DIT, forward or inverse twiddles) on d's stream: the first
 * pass reads src, the passes in between work in place on work, the last pass writes dst (any of the
 * three may be equal); the fused extras of ops go to the first / last pass. */
pm_status run_network(gpu_ntt_domain *d, bool dif, bool inverse, ntc::fr_d *dst, ntc::fr_d *work, const ntc::fr_d *src,
                      const net_ops &ops, pm_error *err);
/* Tiled in-place bit reversal on d's stream, optional scaling (by_src: by the index the value comes from). */
pm_status run_bitrev(gpu_ntt_domain *d, ntc::fr_d *x, const ntc::pow_tab &sc, bool by_src, pm_error *err);
/* The domain's work buffer i (< 3), allocated on first use. */
pm_status domain_work(ntc::fr_d **out, gpu_ntt_domain *d, int i, pm_error *err);
/* Before an operation writes the domain's buffers: a preload (gpu_bellperson_h_preload) is dropped,
 * after its copies have landed (the host arrays it reads are free again). No preload: nothing. */
void preload_evict(gpu_ntt_domain *d);
/* h_buf from a result pointer that is one of the domain's buffers (other pointers: unchanged) */
void note_h_buffer(gpu_ntt_domain *d, const void *coeffs);
/* The domain's scale tables for the pass sequences of ntt_core.cuh (bp_* valid once built). */
ntc::seq_tabs domain_tabs(const gpu_ntt_domain *d);
/* The executor of ntt_core.cuh's sequences on the device (d's stream). */
struct dev_exec {
    gpu_ntt_domain *d;
    pm_error *err;
    pm_status net(bool dif, bool inverse, ntc::fr_d *dst, ntc::fr_d *work, const ntc::fr_d *src, const net_ops &ops) {
        return run_network(d, dif, inverse, dst, work, src, ops, err);
    }
    pm_status bitrev(ntc::fr_d *x, const ntc::pow_tab &sc, bool by_src) { return run_bitrev(d, x, sc, by_src, err); }
    /* before a sequence first reads buffer p: the device-resident forms have it already (an executor
     * that uploads its inputs makes the domain's stream wait for p's copy here) */
    pm_status ready(const ntc::fr_d *p) {
        (void)p;
        return PM_OK;
    }
    /* a preemption point between stages (gpu.h gpu_set_yield): the domain's stream drained first */
    pm_status pause() {
        if (!yield_armed()) return PM_OK;
        PMCU(cudaStreamSynchronize(d->st));
        yield_now();
        return PM_OK;
    }
};
} /* namespace pmgpu */
