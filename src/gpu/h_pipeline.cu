/*
 * h_pipeline.cu — the H phases of Groth16 on the device, as sequences of fused NTT passes
 * (ntt_core.cuh): snarkjs's (6 transforms, evaluations on the odd coset) and bellperson's
 * (6 transforms, coefficients of H = (AB - C)/Z; bellperson's own prover runs 7). Contracts in gpu.h.
 *
 * Both run DIF (natural -> bit-reversed) and then DIT (bit-reversed -> natural), so no bit
 * reversal is needed between them; the scaling of coefficient k by c * x^k (x = the coset shift)
 * goes into the last DIF pass's store (position i holds coefficient rev(i)), the pointwise products
 * into the first pass's load or the last pass's store:
 *  snarkjs:    C: DIF(load a*b, store * n^-1 s^rev) + DIT;  A, B: DIF(store * n^-1 s^rev) + DIT, the
 *              last pass of B storing from_mont(A*x - C).
 *  bellperson: A, B: DIF(store * n^-1 g^rev) + DIT, B's last pass storing A*x into A; DIF(A) with its
 *              last pass scaled by g^-rev; DIF(c) with its last pass storing A - x into A; the bit
 *              reversal scaled by the constant n^-1 (g^n - 1)^-1, values left plain (C never goes
 *              to the coset: the coset iNTT undoes the coset NTT exactly; gpu.h).
 *  bellperson from the witness (two buffers): a, b by SpMV; a to the coset; b to the coset storing
 *              a*x into a; c by SpMV into b's buffer; the two DIFs and the bit reversal.
 *  bellperson through one buffer (device-memory tier 4): the same networks with a, b, c uploaded in
 *              turn, A^ and D parked in the host's a and b (each download beside the next upload),
 *              the two products in chunks (ntc::seq_bellperson_h_one).
 * Multiplications per element at 2^27 (13.5 butterfly stages per transform, ~0.9 trivial): snarkjs
 * 6 * 12.6 + 3 * 2 (scale) + 1 (a*b) + 2 (A*B, from_mont) = 84.6; bellperson 6 * 12.6 + 2 * 2 + 1
 * (A*B) + 2 (g^-k) + 1 (final scale) = 83.6 (~11.2 G at 2^27; with 7 transforms 97.2); docs/perf/gpu.md.
 */
#include <cstdio>
#include <cstring>
#include "ntt_domain.cuh"
#include "util/settings.h"

using namespace pmgpu;
using ntc::fr_d;

namespace {

/* the bellperson tables on first use: g = 7 (fr_multiplicative_generator), Z(g w^i) = g^n - 1 */
pm_status bp_tables(gpu_ntt_domain *d, pm_error *err) {
    if (d->bp_ready) return PM_OK;
    fr_t g, g_inv, c;
    fr_multiplicative_generator(&g);
    if (!fr_eq(&g, &d->gen))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "bellperson H: the domain's roots must come from the multiplicative generator 7");
    fr_inv_vartime(&g_inv, &g);
    ntt_bellperson_zinv(&d->bp_zinv, d->n);
    fr_mul(&c, &d->n_inv, &d->bp_zinv);
    pm_status st;
    if ((st = make_pow_tab(d->p_bp_pre, d->n_inv, g, d->log_n, false, false, d->st, err)) != PM_OK) return st;
    if ((st = make_pow_tab(d->p_bp_ginv, FR_ONE, g_inv, d->log_n, false, false, d->st, err)) != PM_OK) return st;
    if ((st = make_pow_tab(d->p_bp_fin, c, FR_ONE, d->log_n, true, true, d->st, err)) != PM_OK) return st;
    d->bp_ready = true;
    return PM_OK;
}

/* coefficient n - 1 must be zero (degree of H <= n - 2 for a satisfying witness) */
pm_status bp_check_top(gpu_ntt_domain *d, const fr_d *a, pm_error *err) {
    fr_t top;
    PMCU(cudaMemcpyAsync(&top, a + (d->n - 1), sizeof top, cudaMemcpyDeviceToHost, d->st));
    PMCU(cudaStreamSynchronize(d->st));
    if (!fr_is_zero(&top))
        return pm_error_set(err, PM_ERR_UNSATISFIED, "witness", PM_NO_OFFSET,
                            "H has degree n - 1 = %zu: the witness does not satisfy the circuit", d->n - 1);
    return PM_OK;
}

} /* namespace */

extern "C" pm_status gpu_snarkjs_h(fr_t *p, size_t n, const fr_t *a, const fr_t *b, gpu_ntt_domain *d, const void **p_dev_out,
                                   pm_error *err) {
    if (p_dev_out) *p_dev_out = nullptr;
    if (!d || !p || !a || !b || n != d->n) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_snarkjs_h: bad arguments (n = %zu)", n);
    fr_d *A, *B, *C;
    pm_status st;
    preload_evict(d);
    if ((st = domain_work(&A, d, 0, err)) != PM_OK || (st = domain_work(&B, d, 1, err)) != PM_OK ||
        (st = domain_work(&C, d, 2, err)) != PM_OK)
        return st;
    d->h_buf = 1; /* P in B's buffer */
    PMCU(cudaMemcpyAsync(A, a, n * sizeof(fr_t), cudaMemcpyHostToDevice, d->st));
    PMCU(cudaMemcpyAsync(B, b, n * sizeof(fr_t), cudaMemcpyHostToDevice, d->st));
    PMCU(cudaEventRecord(d->e0, d->st));
    dev_exec ex{d, err};
    if ((st = ntc::seq_snarkjs_h(ex, A, B, C, domain_tabs(d))) != PM_OK) return st;
    PMCU(cudaEventRecord(d->e1, d->st));
    PMCU(cudaMemcpyAsync(p, B, n * sizeof(fr_t), cudaMemcpyDeviceToHost, d->st));
    PMCU(cudaStreamSynchronize(d->st));
    cudaEventElapsedTime(&d->last_ms, d->e0, d->e1);
    if (p_dev_out) *p_dev_out = B;
    return PM_OK;
}

extern "C" pm_status gpu_bellperson_h(void *a_dev, void *b_dev, void *c_dev, size_t n, gpu_ntt_domain *d, pm_error *err) {
    if (!d || !a_dev || !b_dev || !c_dev || n != d->n || a_dev == b_dev || a_dev == c_dev || b_dev == c_dev)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_bellperson_h: bad arguments (n = %zu, domain %zu)", n,
                            d ? d->n : 0);
    preload_evict(d);
    pm_status st = bp_tables(d, err);
    if (st != PM_OK) return st;
    fr_d *A = static_cast<fr_d *>(a_dev), *B = static_cast<fr_d *>(b_dev), *C = static_cast<fr_d *>(c_dev);
    note_h_buffer(d, a_dev);
    PMCU(cudaEventRecord(d->e0, d->st));
    dev_exec ex{d, err};
    if ((st = ntc::seq_bellperson_h(ex, A, B, C, domain_tabs(d))) != PM_OK) return st;
    PMCU(cudaEventRecord(d->e1, d->st));
    PMCU(cudaStreamSynchronize(d->st));
    cudaEventElapsedTime(&d->last_ms, d->e0, d->e1);
    return bp_check_top(d, A, err);
}

namespace {

/* c[i] = a[i] * b[i] (Montgomery in, Montgomery out): C.w on a row that the caller checked */
__global__ void __launch_bounds__(256) k_mul_into(fr_d *c, const fr_d *b, size_t len) {
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len) ntc::st(c + i, ntc::f_mul(ntc::ld(c + i), ntc::ld(b + i)));
}

/* dev_exec for inputs still on the bus: buffer X[i]'s copy finishes at event ev[i] of the upload
 * stream, and the domain's stream waits for it before the sequence first reads that buffer. With
 * c_prod (no c uploaded) a is copied into C's buffer before A's first network and multiplied by b
 * once b has landed, before B's first network: C's buffer is ready before the sequence reads it. */
struct up_exec : dev_exec {
    fr_d *const *X;
    const cudaEvent_t *ev;
    bool c_prod;
    pm_status ready(const fr_d *p) {
        for (int i = 0; i < 3; i++) {
            if (p != X[i] || (c_prod && i == 2)) continue;
            PMCU(cudaStreamWaitEvent(d->st, ev[i], 0));
            if (c_prod && i == 0)
                PMCU(cudaMemcpyAsync(X[2], X[0], d->n * sizeof(fr_t), cudaMemcpyDeviceToDevice, d->st));
            if (c_prod && i == 1) {
                k_mul_into<<<(unsigned)((d->n + 255) / 256), 256, 0, d->st>>>(X[2], X[1], d->n);
                PMCU_LAUNCH();
            }
        }
        return PM_OK;
    }
};

/* the upload stream and its three events, drained and destroyed on scope exit (nothing of the
 * caller's host arrays is left in flight on any return) */
struct up_res {
    cudaStream_t s = nullptr;
    cudaEvent_t ev[3] = {nullptr, nullptr, nullptr}, start = nullptr;
    ~up_res() {
        if (s) {
            cudaStreamSynchronize(s);
            cudaStreamDestroy(s);
        }
        for (cudaEvent_t e : ev)
            if (e) cudaEventDestroy(e);
        if (start) cudaEventDestroy(start);
    }
};

/* A preload taken by the H upload that names it: dropped on every return (its copies landed: the
 * sequence's stream waited for them, or preload_evict waits here) */
struct pre_guard {
    gpu_ntt_domain *d;
    bool on;
    ~pre_guard() {
        if (on) preload_evict(d);
    }
};

} /* namespace */

extern "C" pm_status gpu_bellperson_h_preload(gpu_ntt_domain *d, const fr_t *a, const fr_t *b, size_t n, uint64_t token,
                                              pm_error *err) {
    if (!d || !a || !b || n != d->n || !token)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_bellperson_h_preload: bad arguments (n = %zu, domain %zu, token %llu)",
                            n, d ? d->n : 0, (unsigned long long)token);
    if (d->pre_token)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_bellperson_h_preload: the domain holds a preload already (token %llu)",
                            (unsigned long long)d->pre_token);
    const size_t bytes = n * sizeof(fr_t);
    if (!gpu_host_is_pinned(a) || !gpu_host_is_pinned(b) || !gpu_host_is_pinned((const char *)a + bytes - 1) ||
        !gpu_host_is_pinned((const char *)b + bytes - 1))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_bellperson_h_preload: a and b must be page-locked host memory");
    int cur = 0;
    PMCU(cudaGetDevice(&cur));
    PMCU(cudaSetDevice(d->device));
    struct dev_back {
        int cur;
        ~dev_back() { cudaSetDevice(cur); }
    } back{cur};
    if (!d->pre_st) PMCU(cudaStreamCreateWithFlags(&d->pre_st, cudaStreamNonBlocking));
    if (!d->pre_start) PMCU(cudaEventCreateWithFlags(&d->pre_start, cudaEventDisableTiming));
    for (cudaEvent_t &e : d->pre_ev)
        if (!e) PMCU(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    const int ix[2] = {(d->h_buf + 1) % 3, (d->h_buf + 2) % 3}; /* never the buffer an H MSM may read */
    fr_d *X[2];
    pm_status st;
    for (int i = 0; i < 2; i++)
        if ((st = domain_work(&X[i], d, ix[i], err)) != PM_OK) return st;
    /* on any failure from here on, no copy is left in flight: the caller keeps its arrays, and nobody
     * would wait for a copy of a preload that was never recorded */
    struct drain {
        cudaStream_t s;
        bool armed = true;
        ~drain() {
            if (armed) cudaStreamSynchronize(s);
        }
    } dr{d->pre_st};
    /* after what the domain's stream has queued (an H still writing these buffers) */
    PMCU(cudaEventRecord(d->pre_start, d->st));
    PMCU(cudaStreamWaitEvent(d->pre_st, d->pre_start, 0));
    const fr_t *src[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        PMCU(copy_cut_async(X[i], src[i], bytes, cudaMemcpyHostToDevice, src[i], d->pre_st));
        PMCU(cudaEventRecord(d->pre_ev[i], d->pre_st));
    }
    dr.armed = false;
    d->pre_buf[0] = ix[0];
    d->pre_buf[1] = ix[1];
    d->pre_token = token;
    return PM_OK;
}

static pm_status h_upload(void **h_dev, const fr_t *a, const fr_t *b, const fr_t *c, size_t n, gpu_ntt_domain *d,
                          uint64_t token, pm_error *err) {
    if (h_dev) *h_dev = nullptr;
    const bool pre = d && token && d->pre_token == token;
    if (d && !pre) preload_evict(d); /* the buffers are written */
    pre_guard guard{d, pre};
    if (!d || !h_dev || !a || !b || n != d->n)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_bellperson_h_upload: bad arguments (n = %zu, domain %zu)", n,
                            d ? d->n : 0);
    const bool c_prod = c == nullptr; /* c = a o b on the device */
    pm_status st = bp_tables(d, err);
    if (st != PM_OK) return st;
    /* a, b, c into buffers 0, 1, 2, or a and b where the preload put them and c into the third */
    int ix[3] = {0, 1, 2};
    if (pre) ix[0] = d->pre_buf[0], ix[1] = d->pre_buf[1], ix[2] = 3 - ix[0] - ix[1];
    fr_d *X[3];
    for (int i = 0; i < 3; i++)
        if ((st = domain_work(&X[i], d, ix[i], err)) != PM_OK) return st;
    const fr_t *src[3] = {a, b, c};
    const size_t bytes = n * sizeof(fr_t);
    const int n_up = c_prod ? 2 : 3;
    if (!pre && (!gpu_host_is_pinned(a) || !gpu_host_is_pinned(b) || (!c_prod && !gpu_host_is_pinned(c)))) {
        /* pageable: one copy after another (staged through pinned memory), then the sequence */
        PMCU(cudaStreamSynchronize(d->st)); /* the domain's earlier work has left the buffers */
        for (int i = 0; i < n_up; i++)
            if ((st = gpu_copy_to_device(X[i], src[i], bytes, err)) != PM_OK) return st;
        if (c_prod) {
            PMCU(cudaMemcpyAsync(X[2], X[0], bytes, cudaMemcpyDeviceToDevice, d->st));
            k_mul_into<<<(unsigned)((n + 255) / 256), 256, 0, d->st>>>(X[2], X[1], n);
            PMCU_LAUNCH();
        }
        if ((st = gpu_bellperson_h(X[0], X[1], X[2], n, d, err)) != PM_OK && st != PM_ERR_UNSATISFIED) return st;
        if (st == PM_OK) *h_dev = X[0];
        return st;
    }
    /* pinned: a, b, c queued on a stream of their own; A's two networks run while b and c cross the
     * bus, B's while c does (the sequence waits for each buffer's event before it first reads it);
     * preloaded a and b have their own events (gpu_bellperson_h_preload) */
    up_res r;
    PMCU(cudaStreamCreateWithFlags(&r.s, cudaStreamNonBlocking));
    for (int i = 0; i < 3; i++) PMCU(cudaEventCreateWithFlags(&r.ev[i], cudaEventDisableTiming));
    PMCU(cudaEventCreateWithFlags(&r.start, cudaEventDisableTiming));
    PMCU(cudaEventRecord(r.start, d->st)); /* the domain's earlier work has left the buffers */
    PMCU(cudaStreamWaitEvent(r.s, r.start, 0));
    cudaEvent_t ev[3] = {r.ev[0], r.ev[1], r.ev[2]};
    for (int i = 0; i < n_up; i++) {
        if (pre && i < 2) {
            ev[i] = d->pre_ev[i];
            continue;
        }
        if (!gpu_host_is_pinned(src[i])) { /* (a pageable c beside a preload: copied now, the buffer is idle) */
            PMCU(cudaStreamSynchronize(r.s));
            if ((st = gpu_copy_to_device(X[i], src[i], bytes, err)) != PM_OK) return st;
        } else {
            PMCU(copy_cut_async(X[i], src[i], bytes, cudaMemcpyHostToDevice, src[i], r.s));
        }
        PMCU(cudaEventRecord(r.ev[i], r.s));
    }
    PMCU(cudaEventRecord(d->e0, d->st));
    up_exec ex;
    ex.d = d;
    ex.err = err;
    ex.X = X;
    ex.ev = ev;
    ex.c_prod = c_prod;
    if ((st = ntc::seq_bellperson_h(ex, X[0], X[1], X[2], domain_tabs(d))) != PM_OK) {
        cudaStreamSynchronize(d->st); /* nothing left in flight on the buffers */
        return st;
    }
    PMCU(cudaEventRecord(d->e1, d->st));
    PMCU(cudaStreamSynchronize(d->st));
    cudaEventElapsedTime(&d->last_ms, d->e0, d->e1);
    d->h_buf = ix[0]; /* the coefficients, also when unsatisfied */
    if ((st = bp_check_top(d, X[0], err)) != PM_OK) return st;
    *h_dev = X[0];
    return PM_OK;
}

extern "C" pm_status gpu_bellperson_h_upload(void **h_dev, const fr_t *a, const fr_t *b, const fr_t *c, size_t n,
                                             gpu_ntt_domain *d, pm_error *err) {
    return h_upload(h_dev, a, b, c, n, d, 0, err);
}

extern "C" pm_status gpu_bellperson_h_upload_preloaded(void **h_dev, const fr_t *a, const fr_t *b, const fr_t *c, size_t n,
                                                       gpu_ntt_domain *d, uint64_t token, pm_error *err) {
    return h_upload(h_dev, a, b, c, n, d, token, err);
}

extern "C" pm_status gpu_bellperson_h_host(fr_t *h, const fr_t *a, const fr_t *b, const fr_t *c, size_t n, gpu_ntt_domain *d,
                                           pm_error *err) {
    if (!d || !h || !a || !b || !c || n != d->n)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_bellperson_h_host: bad arguments (n = %zu)", n);
    void *hd = nullptr;
    pm_status st = gpu_bellperson_h_upload(&hd, a, b, c, n, d, err);
    if (st != PM_OK && st != PM_ERR_UNSATISFIED) return st;
    fr_d *X = nullptr;
    pm_status wst = domain_work(&X, d, d->h_buf, err); /* the coefficients also when unsatisfied */
    if (wst != PM_OK) return wst;
    PMCU(cudaMemcpyAsync(h, X, n * sizeof(fr_t), cudaMemcpyDeviceToHost, d->st));
    PMCU(cudaStreamSynchronize(d->st));
    return st;
}

namespace {

/* dev[i] = ew_apply(op, y[i], dev[i]) for one chunk (ntc::seq_bellperson_h_one) */
__global__ void __launch_bounds__(256) k_ew_chunk(int op, fr_d *dev, const fr_d *y, size_t len) {
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len) ntc::st(dev + i, ntc::ew_apply(op, ntc::ld(y + i), ntc::ld(dev + i)));
}

/* a swap's two copy streams and its event, drained and destroyed on scope exit (no copy in flight
 * to or from the caller's host arrays on any return) */
struct swap_res {
    cudaStream_t down = nullptr, up = nullptr;
    cudaEvent_t ev = nullptr;
    ~swap_res() {
        for (cudaStream_t s : {down, up})
            if (s) {
                cudaStreamSynchronize(s);
                cudaStreamDestroy(s);
            }
        if (ev) cudaEventDestroy(ev);
    }
};

/* dev_exec with the host side of seq_bellperson_h_one: whole-buffer copies (staged through pinned
 * memory by gpu_copy_to/from_device), the swaps (below) and the chunked element-wise products
 * through `chunk` */
struct one_exec : dev_exec {
    fr_d *chunk;
    size_t chunk_n;
    bool duplex; /* setting gpu.h_swap: the swaps in pieces on two streams (else down, then up) */
    bool said = false; /* gpu.verbose's line, once per call */
    pm_status up(fr_d *dev, const fr_d *host) {
        PMCU(cudaStreamSynchronize(d->st));
        return gpu_copy_to_device(dev, host, d->n * sizeof(fr_t), err);
    }
    pm_status down(fr_d *host, const fr_d *dev) {
        PMCU(cudaStreamSynchronize(d->st));
        return gpu_copy_from_device(host, dev, d->n * sizeof(fr_t), err);
    }
    /* out = dev, then dev = in. With duplex and page-locked arrays (the pinned a, b, c pool): in pieces of
     * GPU_HOST_PIECE_BYTES on two streams, piece i's upload after piece i's download, so that piece
     * i + 1 goes down while piece i comes up (the link carries both directions at once: ~0.1 s
     * instead of ~0.19 s for 2 x 4.3 GB at 2^27); pageable ones, one whole copy after the other. */
    pm_status swap(fr_d *dev, fr_d *out, const fr_d *in) {
        const size_t bytes = d->n * sizeof(fr_t);
        if (!duplex || !gpu_host_is_pinned(out) || !gpu_host_is_pinned((const char *)out + bytes - 1) ||
            !gpu_host_is_pinned(in) || !gpu_host_is_pinned((const char *)in + bytes - 1)) {
            pm_status st = down(out, dev);
            if (st == PM_OK) st = pause(); /* (the preemption point the sequence had between them) */
            return st != PM_OK ? st : up(dev, in);
        }
        if (!said && pm_setting_bool("gpu.verbose")) {
            said = true;
            fprintf(stderr, "gpu h one buffer (device %d): swaps down and up at once (gpu.h_swap, %zu pieces each)\n",
                    d->device, (bytes + GPU_HOST_PIECE_BYTES - 1) / GPU_HOST_PIECE_BYTES);
        }
        PMCU(cudaStreamSynchronize(d->st)); /* the networks have finished with dev */
        swap_res r;
        PMCU(cudaStreamCreateWithFlags(&r.down, cudaStreamNonBlocking));
        PMCU(cudaStreamCreateWithFlags(&r.up, cudaStreamNonBlocking));
        PMCU(cudaEventCreateWithFlags(&r.ev, cudaEventDisableTiming));
        char *o = reinterpret_cast<char *>(out), *v = reinterpret_cast<char *>(dev);
        const char *i = reinterpret_cast<const char *>(in);
        for (size_t off = 0; off < bytes; off += GPU_HOST_PIECE_BYTES) {
            const size_t len = bytes - off < GPU_HOST_PIECE_BYTES ? bytes - off : GPU_HOST_PIECE_BYTES;
            PMCU(copy_cut_async(o + off, v + off, len, cudaMemcpyDeviceToHost, o + off, r.down));
            PMCU(cudaEventRecord(r.ev, r.down)); /* (a wait takes the record made before it) */
            PMCU(cudaStreamWaitEvent(r.up, r.ev, 0));
            PMCU(copy_cut_async(v + off, i + off, len, cudaMemcpyHostToDevice, i + off, r.up));
        }
        PMCU(cudaStreamSynchronize(r.down));
        PMCU(cudaStreamSynchronize(r.up));
        return PM_OK;
    }
    pm_status chunks(int op, fr_d *dev, const fr_d *host) {
        for (size_t off = 0; off < d->n; off += chunk_n) {
            const size_t len = d->n - off < chunk_n ? d->n - off : chunk_n;
            PMCU(cudaStreamSynchronize(d->st)); /* the previous chunk's kernel has read `chunk` */
            pm_status st = gpu_copy_to_device(chunk, host + off, len * sizeof(fr_t), err);
            if (st != PM_OK) return st;
            k_ew_chunk<<<(unsigned)((len + 255) / 256), 256, 0, d->st>>>(op, dev + off, chunk, len);
            PMCU_LAUNCH();
        }
        return PM_OK;
    }
};

} /* namespace */

extern "C" pm_status gpu_bellperson_h_one(void **h_dev, fr_t *a, fr_t *b, const fr_t *c, size_t n, size_t chunk_n,
                                          gpu_ntt_domain *d, pm_error *err) {
    if (h_dev) *h_dev = nullptr;
    /* three separate arrays: a swap's download never overwrites what its upload reads */
    const auto apart = [n](const void *x, const void *y) {
        const uintptr_t p = (uintptr_t)x, q = (uintptr_t)y, len = n * sizeof(fr_t);
        return p + len <= q || q + len <= p;
    };
    if (!d || !h_dev || !a || !b || !c || n != d->n || !chunk_n || !apart(a, b) || !apart(a, c) || !apart(b, c))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_bellperson_h_one: bad arguments (n = %zu, domain %zu, chunk %zu)",
                            n, d ? d->n : 0, chunk_n);
    preload_evict(d);
    pm_status st = bp_tables(d, err);
    if (st != PM_OK) return st;
    fr_d *X;
    if ((st = domain_work(&X, d, 0, err)) != PM_OK) return st;
    d->h_buf = 0;
    if (chunk_n > n) chunk_n = n;
    /* kept with the domain (a cudaFree per partition would wait for the whole device) */
    if (d->chunk.alloc(chunk_n * sizeof(fr_t)) != cudaSuccess) {
        (void)cudaGetLastError();
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "gpu_bellperson_h_one: the chunk buffer (%zu bytes) was refused",
                            chunk_n * sizeof(fr_t));
    }
    PMCU(cudaEventRecord(d->e0, d->st));
    one_exec ex{{d, err}, d->chunk.as<fr_d>(), chunk_n, pm_setting_bool("gpu.h_swap") != 0};
    if ((st = ntc::seq_bellperson_h_one(ex, X, reinterpret_cast<fr_d *>(a), reinterpret_cast<fr_d *>(b),
                                        reinterpret_cast<const fr_d *>(c), domain_tabs(d))) != PM_OK) {
        cudaStreamSynchronize(d->st); /* nothing left in flight on the buffers */
        return st;
    }
    PMCU(cudaEventRecord(d->e1, d->st));
    PMCU(cudaStreamSynchronize(d->st));
    cudaEventElapsedTime(&d->last_ms, d->e0, d->e1);
    if ((st = bp_check_top(d, X, err)) != PM_OK) return st;
    *h_dev = X;
    return PM_OK;
}

extern "C" pm_status gpu_bellperson_h_r1cs(void **h_dev, gpu_ntt_domain *d, uint32_t a_inputs, const gpu_r1cs *g,
                                           gpu_witness *ws, unsigned slot, size_t n_w, uint32_t *first_bad, pm_error *err) {
    if (h_dev) *h_dev = nullptr;
    if (!d || !g || !ws) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_bellperson_h_r1cs: NULL argument");
    preload_evict(d);
    pm_status st = bp_tables(d, err);
    if (st != PM_OK) return st;
    fr_d *A, *B;
    if ((st = domain_work(&A, d, 0, err)) != PM_OK || (st = domain_work(&B, d, 1, err)) != PM_OK) return st;
    d->h_buf = 0;
    /* a, b, and the check of every row (C.w formed on the fly, not stored) */
    uint32_t bad = UINT32_MAX;
    st = gpu_r1cs_spmv(A, B, nullptr, d->n, a_inputs, g, ws, slot, n_w, &bad, err);
    if (first_bad) *first_bad = bad;
    if (st != PM_OK) return st;
    PMCU(cudaEventRecord(d->e0, d->st));
    dev_exec ex{d, err};
    if ((st = ntc::seq_bellperson_h_part1(ex, A, B, domain_tabs(d))) != PM_OK) return st; /* A = A * B; B free */
    PMCU(cudaEventRecord(d->e1, d->st));
    PMCU(cudaStreamSynchronize(d->st)); /* the SpMV below runs on its own stream and writes B */
    float ms1 = 0;
    cudaEventElapsedTime(&ms1, d->e0, d->e1);
    if ((st = gpu_r1cs_spmv(nullptr, nullptr, B, d->n, 0, g, ws, slot, n_w, nullptr, err)) != PM_OK) return st;
    PMCU(cudaEventRecord(d->e0, d->st));
    if ((st = ntc::seq_bellperson_h_part2(ex, A, B, domain_tabs(d))) != PM_OK) return st; /* A = A - C, coefficients */
    PMCU(cudaEventRecord(d->e1, d->st));
    PMCU(cudaStreamSynchronize(d->st));
    float ms2 = 0;
    cudaEventElapsedTime(&ms2, d->e0, d->e1);
    d->last_ms = ms1 + ms2;
    if ((st = bp_check_top(d, A, err)) != PM_OK) return st;
    if (h_dev) *h_dev = A;
    return PM_OK;
}
