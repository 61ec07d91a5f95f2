/*
 * ntt.cu — radix-2 NTT over BLS12-381 Fr on the device, and the snarkjs H phase.
 *
 * Transforms follow ntt/ntt.h exactly (natural order in and out; forward A[k] = sum a[j] w^(jk);
 * inverse with 1/n; coset by s = omega_2n). Structure:
 *  - DIF (Gentleman-Sande) stages take natural order to bit-reversed order, DIT (Cooley-Tukey)
 *    stages take bit-reversed to natural. A kernel runs up to 10 consecutive radix-2 stages on a
 *    tile of 2^S elements in shared memory: for stages [s0, s0+S) the elements that interact are
 *    those whose indices differ only in bits s0..s0+S-1, so one block loads them (stride 2^s0;
 *    each 32-byte element is one DRAM sector, so strided tiles still use whole sectors), runs
 *    the S stages with __syncthreads between them, and stores them back. 2^27 = 3 passes of 9.
 *  - Twiddles: one table of n/2 powers of omega per direction; stage with half-size h = 2^s uses
 *    omega_2h^j = tw[j << (log_n - s - 1)].
 *  - Forward: bit-reversal (with the coset scaling a[k] *= s^k fused into it), then DIT.
 *    Inverse: DIF with omega^-1, then bit-reversal fused with the scaling by n^-1 (s^-k for coset).
 *  - snarkjs H: for X in {A, B, C = A*B}: DIF(omega^-1) leaves coefficients in bit-reversed order;
 *    one pointwise pass multiplies position i by n^-1 * s^rev(i); DIT(omega) then gives the coset
 *    evaluations in natural order. No bit-reversal pass at all. P = A*B - C, out of Montgomery.
 * Cost floor: n/2 * log_n Fr multiplications (256 IMAD each) per transform; see docs/perf/gpu.md.
 * Powers s^k are formed on the fly as lo[k mod 2^12] * hi[k >> 12] (two small tables in L2).
 */
#include <cstring>
#include <new>
#include <cstdio>
#include <vector>
#include "cpu_headers.cuh"
#include "common.cuh"
#include "field.cuh"

using namespace pmgpu;
typedef fr_params FR;

namespace {
constexpr int LO_BITS = 12;
constexpr int MAX_S = 10;

struct pow_tab { const fr_d *lo, *hi; }; /* x^k = lo[k & 4095] * hi[k >> 12] */

__device__ __forceinline__ fr_d pow_at(const pow_tab &t, uint32_t k) {
    return fe_mul<FR>(fe_load<FR>(t.lo + (k & ((1u << LO_BITS) - 1))), fe_load<FR>(t.hi + (k >> LO_BITS)));
}

__global__ void k_fill_powers(fr_d *out, uint32_t count, pow_tab t) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) fe_store<FR>(out + i, pow_at(t, i));
}

/* stages [s0, s0+S) on tiles; dif: decreasing s, else increasing (DIT) */
template <bool DIF>
__global__ void __launch_bounds__(512) k_stages(fr_d *x, int log_n, int s0, int S, const fr_d *tw) {
    extern __shared__ uint4 shraw[];
    fr_d *sh = reinterpret_cast<fr_d *>(shraw);
    const uint32_t g = blockIdx.x;
    const uint32_t lo = g & ((1u << s0) - 1);
    const size_t hi = (size_t)(g >> s0);
    const uint32_t half = 1u << (S - 1);
    const uint32_t t = threadIdx.x;
    auto gidx = [&](uint32_t k) -> size_t { return (hi << (s0 + S)) | ((size_t)k << s0) | lo; };
    fe_store<FR>(sh + t, fe_load<FR>(x + gidx(t)));
    fe_store<FR>(sh + t + half, fe_load<FR>(x + gidx(t + half)));
    __syncthreads();
    for (int ii = 0; ii < S; ii++) {
        const int i = DIF ? (S - 1 - ii) : ii;
        const int s = s0 + i;
        const uint32_t k0 = ((t >> i) << (i + 1)) | (t & ((1u << i) - 1));
        const uint32_t k1 = k0 | (1u << i);
        const uint32_t j = ((k0 & ((1u << i) - 1)) << s0) | lo; /* position inside the 2h block */
        fr_d u = fe_load<FR>(sh + k0), v = fe_load<FR>(sh + k1);
        if (DIF) {
            fr_d a = fe_add<FR>(u, v);
            fr_d d = fe_sub<FR>(u, v);
            if (j) d = fe_mul<FR>(d, fe_load<FR>(tw + ((size_t)j << (log_n - s - 1))));
            fe_store<FR>(sh + k0, a);
            fe_store<FR>(sh + k1, d);
        } else {
            if (j) v = fe_mul<FR>(v, fe_load<FR>(tw + ((size_t)j << (log_n - s - 1))));
            fe_store<FR>(sh + k0, fe_add<FR>(u, v));
            fe_store<FR>(sh + k1, fe_sub<FR>(u, v));
        }
        __syncthreads();
    }
    fe_store<FR>(x + gidx(t), fe_load<FR>(sh + t));
    fe_store<FR>(x + gidx(t + half), fe_load<FR>(sh + t + half));
}

/* in-place bit reversal; the value that ends at natural index m is multiplied by scale^m
 * (scale tables optional). Each pair handled by its smaller index. */
__global__ void k_bitrev(fr_d *x, int log_n, size_t n, pow_tab sc, int use_scale, int by_src) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    size_t j = log_n ? (size_t)(__brevll((unsigned long long)i) >> (64 - log_n)) : 0;
    if (j < i) return;
    fr_d a = fe_load<FR>(x + i), b = fe_load<FR>(x + j);
    /* a moves from position i to j, b from j to i. by_src: scale by the index a value comes
     * from (forward coset: input in natural order); else by the index it goes to (inverse). */
    if (use_scale) {
        a = fe_mul<FR>(a, pow_at(sc, (uint32_t)(by_src ? i : j)));
        if (j != i) b = fe_mul<FR>(b, pow_at(sc, (uint32_t)(by_src ? j : i)));
    }
    fe_store<FR>(x + j, a);
    if (j != i) fe_store<FR>(x + i, b);
}

/* position i (bit-reversed order) holds coefficient rev(i): multiply by scale^rev(i) */
__global__ void k_scale_rev(fr_d *x, int log_n, size_t n, pow_tab sc) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t k = log_n ? (uint32_t)(__brevll((unsigned long long)i) >> (64 - log_n)) : 0;
    fe_store<FR>(x + i, fe_mul<FR>(fe_load<FR>(x + i), pow_at(sc, k)));
}

__global__ void k_pointwise_mul(fr_d *out, const fr_d *a, const fr_d *b, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) fe_store<FR>(out + i, fe_mul<FR>(fe_load<FR>(a + i), fe_load<FR>(b + i)));
}

/* out = from_mont(a*b - c) */
__global__ void k_h_final(fr_d *out, const fr_d *a, const fr_d *b, const fr_d *c, size_t n) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    fr_d p = fe_sub<FR>(fe_mul<FR>(fe_load<FR>(a + i), fe_load<FR>(b + i)), fe_load<FR>(c + i));
    fe_store<FR>(out + i, fe_from_mont<FR>(p));
}

/* host helpers on the CPU field */
static fr_t fr_pow_u64(const fr_t &a, uint64_t e) {
    fr_t r;
    fr_pow_vartime(&r, &a, &e, 1);
    return r;
}
} /* namespace */

struct gpu_ntt_domain {
    int device;
    unsigned log_n;
    size_t n;
    fr_t omega, omega_inv, n_inv, shift, shift_inv;
    dev_buf tw, tw_inv, data, bufB, bufC;
    /* pow tables: [0] shift^k, [1] n^-1 shift^-k, [2] n^-1 (constant), [3] n^-1 shift^k;
     * each lo (4096 entries) + hi */
    dev_buf ptab[4];
    pow_tab pt[4];
    cudaStream_t st;
    cudaEvent_t e0, e1;
    float last_ms;
};

/* upload lo/hi tables for c0 * base^k, k < 2^log_n */
static pm_status make_pow_tab(dev_buf &buf, pow_tab &pt, const fr_t &c0, const fr_t &base, unsigned log_n, cudaStream_t st,
                              pm_error *err) {
    size_t nlo = (size_t)1 << LO_BITS;
    size_t nhi = log_n > LO_BITS ? ((size_t)1 << (log_n - LO_BITS)) : 1;
    std::vector<fr_t> h(nlo + nhi);
    fr_t acc = c0;
    for (size_t j = 0; j < nlo; j++) { h[j] = acc; fr_mul(&acc, &acc, &base); }
    fr_t step = fr_pow_u64(base, nlo);
    acc = FR_ONE;
    for (size_t j = 0; j < nhi; j++) { h[nlo + j] = acc; fr_mul(&acc, &acc, &step); }
    PMCU(buf.alloc(h.size() * sizeof(fr_t)));
    /* On the domain's stream and waited for: a plain cudaMemcpy from pageable memory may return
     * before its DMA lands, and kernels on a non-blocking stream do not wait for it. */
    PMCU(cudaMemcpyAsync(buf.p, h.data(), h.size() * sizeof(fr_t), cudaMemcpyHostToDevice, st));
    PMCU(cudaStreamSynchronize(st));
    pt.lo = buf.as<fr_d>();
    pt.hi = buf.as<fr_d>() + nlo;
    return PM_OK;
}

extern "C" void gpu_ntt_domain_free(gpu_ntt_domain *d) {
    if (!d) return;
    int cur = 0;
    cudaGetDevice(&cur);
    cudaSetDevice(d->device);
    if (d->st) cudaStreamDestroy(d->st);
    if (d->e0) cudaEventDestroy(d->e0);
    if (d->e1) cudaEventDestroy(d->e1);
    delete d;
    cudaSetDevice(cur);
}

extern "C" pm_status gpu_ntt_domain_init(gpu_ntt_domain **out, unsigned log_n, unsigned gen, pm_error *err) {
    if (!out) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_ntt_domain_init: out is NULL");
    *out = nullptr;
    if (log_n < 1 || log_n > 28) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_ntt_domain_init: log_n = %u outside 1..28", log_n);
    if (gpu_available() == 0) return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "no CUDA device");
    pm_status s = self_check(err);
    if (s != PM_OK) return s;
    gpu_ntt_domain *d = new (std::nothrow) gpu_ntt_domain();
    if (!d) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "gpu_ntt_domain_init: host allocation");
    struct guard { gpu_ntt_domain *&d; ~guard() { if (d) gpu_ntt_domain_free(d); } } g{d};
    cudaGetDevice(&d->device);
    d->log_n = log_n;
    d->n = (size_t)1 << log_n;
    fr_t gg;
    fr_from_u64(&gg, gen);
    if (fr_root_of_unity(&d->omega, &gg, log_n) != 0 || fr_root_of_unity(&d->shift, &gg, log_n + 1) != 0)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_ntt_domain_init: generator %u gives no primitive 2^%u-th root", gen, log_n + 1);
    fr_inv_vartime(&d->omega_inv, &d->omega);
    fr_inv_vartime(&d->shift_inv, &d->shift);
    fr_t nn;
    fr_from_u64(&nn, d->n);
    fr_inv_vartime(&d->n_inv, &nn);
    PMCU(cudaStreamCreateWithFlags(&d->st, cudaStreamNonBlocking));
    PMCU(cudaEventCreate(&d->e0));
    PMCU(cudaEventCreate(&d->e1));
    /* twiddles: n/2 powers of omega and omega^-1, built from lo/hi tables on the device */
    size_t half = d->n / 2;
    dev_buf tmp;
    pow_tab t;
    pm_status st;
    PMCU(d->tw.alloc(half * sizeof(fr_d)));
    PMCU(d->tw_inv.alloc(half * sizeof(fr_d)));
    if ((st = make_pow_tab(tmp, t, FR_ONE, d->omega, log_n, d->st, err)) != PM_OK) return st;
    k_fill_powers<<<(unsigned)((half + 255) / 256), 256, 0, d->st>>>(d->tw.as<fr_d>(), (uint32_t)half, t);
    PMCU_LAUNCH();
    PMCU(cudaStreamSynchronize(d->st));
    if ((st = make_pow_tab(tmp, t, FR_ONE, d->omega_inv, log_n, d->st, err)) != PM_OK) return st;
    k_fill_powers<<<(unsigned)((half + 255) / 256), 256, 0, d->st>>>(d->tw_inv.as<fr_d>(), (uint32_t)half, t);
    PMCU_LAUNCH();
    PMCU(cudaStreamSynchronize(d->st));
    if ((st = make_pow_tab(d->ptab[0], d->pt[0], FR_ONE, d->shift, log_n, d->st, err)) != PM_OK) return st;
    if ((st = make_pow_tab(d->ptab[1], d->pt[1], d->n_inv, d->shift_inv, log_n, d->st, err)) != PM_OK) return st;
    if ((st = make_pow_tab(d->ptab[2], d->pt[2], d->n_inv, FR_ONE, log_n, d->st, err)) != PM_OK) return st;
    if ((st = make_pow_tab(d->ptab[3], d->pt[3], d->n_inv, d->shift, log_n, d->st, err)) != PM_OK) return st;
    PMCU(d->data.alloc(d->n * sizeof(fr_d)));
    *out = d;
    d = nullptr; /* keep it */
    return PM_OK;
}

/* run all stages of one direction on x */
static pm_status run_stages(gpu_ntt_domain *d, fr_d *x, bool dif, const fr_d *tw, pm_error *err) {
    const int L = (int)d->log_n;
    const int passes = (L + MAX_S - 1) / MAX_S;
    int sizes[4] = {0, 0, 0, 0};
    for (int p = 0; p < passes; p++) sizes[p] = L / passes + (p < L % passes ? 1 : 0);
    int starts[4];
    int acc = 0;
    for (int p = 0; p < passes; p++) { starts[p] = acc; acc += sizes[p]; }
    for (int q = 0; q < passes; q++) {
        int p = dif ? passes - 1 - q : q; /* DIF: high stages first */
        int S = sizes[p], s0 = starts[p];
        unsigned blocks = (unsigned)(d->n >> S);
        unsigned threads = 1u << (S - 1);
        size_t shm = ((size_t)1 << S) * sizeof(fr_d);
        if (dif) k_stages<true><<<blocks, threads, shm, d->st>>>(x, L, s0, S, tw);
        else k_stages<false><<<blocks, threads, shm, d->st>>>(x, L, s0, S, tw);
        PMCU_LAUNCH();
    }
    return PM_OK;
}

static pm_status ntt_on_device(gpu_ntt_domain *d, fr_d *x, gpu_ntt_kind kind, pm_error *err) {
    const unsigned grid = (unsigned)((d->n + 255) / 256);
    pm_status st;
    switch (kind) {
    case GPU_NTT_FORWARD:
    case GPU_NTT_COSET_FORWARD:
        k_bitrev<<<grid, 256, 0, d->st>>>(x, (int)d->log_n, d->n, d->pt[0], kind == GPU_NTT_COSET_FORWARD, 1);
        PMCU_LAUNCH();
        return run_stages(d, x, false, d->tw.as<fr_d>(), err);
    case GPU_NTT_INVERSE:
    case GPU_NTT_COSET_INVERSE:
        if ((st = run_stages(d, x, true, d->tw_inv.as<fr_d>(), err)) != PM_OK) return st;
        k_bitrev<<<grid, 256, 0, d->st>>>(x, (int)d->log_n, d->n, d->pt[kind == GPU_NTT_COSET_INVERSE ? 1 : 2], 1, 0);
        PMCU_LAUNCH();
        return PM_OK;
    }
    return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_ntt: unknown kind %d", (int)kind);
}

extern "C" pm_status gpu_ntt_device(void *data_dev, size_t n, gpu_ntt_kind kind, gpu_ntt_domain *d, pm_error *err) {
    if (!d || !data_dev || n != d->n) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_ntt_device: bad arguments (n = %zu)", n);
    PMCU(cudaEventRecord(d->e0, d->st));
    pm_status st = ntt_on_device(d, static_cast<fr_d *>(data_dev), kind, err);
    if (st != PM_OK) return st;
    PMCU(cudaEventRecord(d->e1, d->st));
    PMCU(cudaStreamSynchronize(d->st));
    cudaEventElapsedTime(&d->last_ms, d->e0, d->e1);
    return PM_OK;
}

extern "C" pm_status gpu_ntt(fr_t *data, size_t n, gpu_ntt_kind kind, gpu_ntt_domain *d, pm_error *err) {
    if (!d || (!data && n) || n != d->n) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_ntt: n = %zu, domain %zu", n, d ? d->n : 0);
    PMCU(cudaMemcpyAsync(d->data.p, data, n * sizeof(fr_t), cudaMemcpyHostToDevice, d->st));
    PMCU(cudaEventRecord(d->e0, d->st));
    pm_status st = ntt_on_device(d, d->data.as<fr_d>(), kind, err);
    if (st != PM_OK) return st;
    PMCU(cudaEventRecord(d->e1, d->st));
    PMCU(cudaMemcpyAsync(data, d->data.p, n * sizeof(fr_t), cudaMemcpyDeviceToHost, d->st));
    PMCU(cudaStreamSynchronize(d->st));
    cudaEventElapsedTime(&d->last_ms, d->e0, d->e1);
    return PM_OK;
}

extern "C" float gpu_ntt_last_ms(const gpu_ntt_domain *d) { return d ? d->last_ms : 0.0f; }

extern "C" pm_status gpu_ntt_domain_twiddles(fr_t *out, size_t count, size_t first, int inverse, const gpu_ntt_domain *d, pm_error *err) {
    if (!d || (!out && count) || first > d->n / 2 || count > d->n / 2 - first)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_ntt_domain_twiddles: bad range");
    PMCU(cudaMemcpyAsync(out, (inverse ? d->tw_inv : d->tw).as<fr_d>() + first, count * sizeof(fr_t), cudaMemcpyDeviceToHost, d->st));
    PMCU(cudaStreamSynchronize(d->st));
    return PM_OK;
}

extern "C" pm_status gpu_snarkjs_h(fr_t *p, size_t n, const fr_t *a, const fr_t *b, gpu_ntt_domain *d, const void **p_dev_out,
                                   pm_error *err) {
    if (p_dev_out) *p_dev_out = nullptr;
    if (!d || !p || !a || !b || n != d->n) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_snarkjs_h: bad arguments (n = %zu)", n);
    PMCU(d->bufB.alloc(n * sizeof(fr_d)));
    PMCU(d->bufC.alloc(n * sizeof(fr_d)));
    fr_d *A = d->data.as<fr_d>(), *B = d->bufB.as<fr_d>(), *C = d->bufC.as<fr_d>();
    PMCU(cudaMemcpyAsync(A, a, n * sizeof(fr_t), cudaMemcpyHostToDevice, d->st));
    PMCU(cudaMemcpyAsync(B, b, n * sizeof(fr_t), cudaMemcpyHostToDevice, d->st));
    PMCU(cudaEventRecord(d->e0, d->st));
    const unsigned grid = (unsigned)((n + 255) / 256);
    k_pointwise_mul<<<grid, 256, 0, d->st>>>(C, A, B, n);
    PMCU_LAUNCH();
    fr_d *X[3] = {A, B, C};
    for (int v = 0; v < 3; v++) {
        pm_status st = run_stages(d, X[v], true, d->tw_inv.as<fr_d>(), err);
        if (st != PM_OK) return st;
        k_scale_rev<<<grid, 256, 0, d->st>>>(X[v], (int)d->log_n, n, d->pt[3]);
        PMCU_LAUNCH();
        if ((st = run_stages(d, X[v], false, d->tw.as<fr_d>(), err)) != PM_OK) return st;
    }
    k_h_final<<<grid, 256, 0, d->st>>>(C, A, B, C, n);
    PMCU_LAUNCH();
    PMCU(cudaEventRecord(d->e1, d->st));
    PMCU(cudaMemcpyAsync(p, C, n * sizeof(fr_t), cudaMemcpyDeviceToHost, d->st));
    PMCU(cudaStreamSynchronize(d->st));
    cudaEventElapsedTime(&d->last_ms, d->e0, d->e1);
    if (p_dev_out) *p_dev_out = C;
    return PM_OK;
}
