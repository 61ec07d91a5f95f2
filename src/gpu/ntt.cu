/*
 * ntt.cu — NTT over BLS12-381 Fr on the device: domains, the pass kernels, the natural-order API.
 *
 * Transforms follow ntt/ntt.h exactly (natural order in and out; forward A[k] = sum a[j] w^(jk);
 * inverse with 1/n; coset by s = omega_2n). The algorithm lives in ntt_core.cuh (host + device):
 *  - the L stages run as P = ceil(L / 10) passes of <= 10 stages (2^27: 9 + 9 + 9), each one kernel
 *    over tiles of 2^S elements x C columns in shared memory, radix-4 rounds in registers (64 registers,
 *    4 blocks of 256 threads per SM; radix 8 with PROOFMILL_GPU_NTT_LR=3);
 *  - forward = tiled bit reversal (coset: scaled by s^k on the way) + DIT passes; inverse = DIF
 *    passes + bit reversal scaled by n^-1 (coset: n^-1 s^-k). The H pipelines (h_pipeline.cu) run
 *    DIF then DIT and need no bit reversal.
 *  - one twiddle table of n/2 powers of omega (2.1 GB at 2^27), the inverse through the mirror
 *    omega^-t = -omega^(n/2-t).
 * Cost: n/2 * L butterflies, one Fr multiplication each except the trivial twiddles (0.75 n skipped
 * per warp with radix-4 rounds, 0.875 n with radix 8; ntt_core.cuh),
 * + 2n multiplications for a scaled bit reversal (n for the constant 1/n); global traffic
 * P passes x 64 B per element + the twiddles (~32 B per element in the top pass); docs/perf/gpu.md.
 */
#include <atomic>
#include <cstring>
#include <new>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include "gpu/gpu_sizes.h"
#include "ntt_domain.cuh"
#include "util/settings.h"

using namespace pmgpu;
using ntc::fr_d;

namespace {

/* MB > 1: compiled for MB resident blocks of 256 threads per SM (ptxas caps the registers at 65536 / (256 MB));
 * PROOFMILL_GPU_NTT_MINB selects it at run time (issue #14's occupancy variants) */
template <int LR, bool DIF, int MB, bool TWS = false>
__global__ void __launch_bounds__(256, MB == 1 ? 0 : MB) k_pass(const __grid_constant__ ntc::pass_args a) {
    extern __shared__ uint4 sh[];
    const uint32_t blk = blockIdx.x, tid = threadIdx.x;
    ntc::pass_load<LR>(a, blk, tid, sh);
    __syncthreads();
    for (uint32_t i = 0; i < a.nrounds; i++) {
        ntc::pass_round<LR, DIF, TWS>(a, blk, DIF ? a.nrounds - 1 - i : i, tid, sh);
        __syncthreads();
    }
    ntc::pass_store<LR>(a, blk, tid, sh);
}

__global__ void __launch_bounds__(256) k_bitrev(const __grid_constant__ ntc::bitrev_args b) {
    __shared__ fr_d shA[256], shB[256];
    const uint32_t m = blockIdx.x;
    if (!ntc::bitrev_active(b, m)) return;
    ntc::bitrev_load(b, m, threadIdx.x, shA, shB);
    __syncthreads();
    ntc::bitrev_store(b, m, threadIdx.x, shA, shB);
}

__global__ void k_fill_powers(fr_d *out, uint32_t count, ntc::pow_tab t) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) ntc::st(out + i, ntc::scale_at(t, i));
}

template <int LR, bool DIF, int MB = 1, bool TWS = false> static cudaError_t launch_pass(const ntc::pass_args &a, cudaStream_t st) {
    /* raise the dynamic shared-memory limit (64 KB tiles) once per instantiation and device */
    static std::atomic<unsigned> done{0};
    int dev = 0;
    cudaGetDevice(&dev);
    const unsigned bit = 1u << (dev & 31);
    if (!(done.load() & bit)) {
        cudaError_t e = cudaFuncSetAttribute(k_pass<LR, DIF, MB, TWS>, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
        if (e != cudaSuccess) return e;
        done.fetch_or(bit);
    }
    k_pass<LR, DIF, MB, TWS><<<ntc::pass_blocks(a), ntc::pass_threads(a), ntc::pass_tile(a) * sizeof(fr_d), st>>>(a);
    return cudaGetLastError();
}

} /* namespace */

namespace pmgpu {

pm_status make_pow_tab(dev_pow_tab &p, const fr_t &c, const fr_t &x, unsigned log_n, bool plain, bool constant,
                       cudaStream_t st, pm_error *err) {
    std::vector<fr_t> h(ntc::pow_tab_entries(log_n, constant));
    const size_t nlo = ntc::pow_tab_host(h.data(), c, x, log_n, plain, constant);
    PMCU(p.buf.alloc(h.size() * sizeof(fr_t)));
    /* on the domain's stream and waited for: a plain cudaMemcpy from pageable memory may return
     * before its DMA lands, and kernels on a non-blocking stream do not wait for it */
    PMCU(cudaMemcpyAsync(p.buf.p, h.data(), h.size() * sizeof(fr_t), cudaMemcpyHostToDevice, st));
    PMCU(cudaStreamSynchronize(st));
    p.t.lo = p.buf.as<fr_d>();
    p.t.hi = constant ? nullptr : p.buf.as<fr_d>() + nlo;
    p.t.mode = constant ? ntc::SC_CONST : ntc::SC_POW;
    return PM_OK;
}

ntc::seq_tabs domain_tabs(const gpu_ntt_domain *d) {
    ntc::seq_tabs t;
    t.shift = d->p_shift.t;
    t.ninv = d->p_ninv.t;
    t.cinv = d->p_cinv.t;
    t.snarkjs = d->p_snarkjs.t;
    t.bp_pre = d->p_bp_pre.t;
    t.bp_ginv = d->p_bp_ginv.t;
    t.bp_fin = d->p_bp_fin.t;
    return t;
}

pm_status domain_work(fr_d **out, gpu_ntt_domain *d, int i, pm_error *err) {
    PMCU(d->work[i].alloc(d->n * sizeof(fr_d)));
    *out = d->work[i].as<fr_d>();
    return PM_OK;
}

void preload_evict(gpu_ntt_domain *d) {
    if (!d || !d->pre_token) return;
    /* the copies were queued whole (gpu_bellperson_h_preload returns with none in flight on failure):
     * both events are recorded */
    const cudaError_t e0 = cudaEventSynchronize(d->pre_ev[0]), e1 = cudaEventSynchronize(d->pre_ev[1]);
    /* a failed copy's error belongs to nobody now (the buffers are rewritten before they are read);
     * the thread's last error is cleared only then */
    if (e0 != cudaSuccess || e1 != cudaSuccess) (void)cudaGetLastError();
    d->pre_token = 0;
}

void note_h_buffer(gpu_ntt_domain *d, const void *coeffs) {
    for (int i = 0; i < 3; i++)
        if (coeffs && d->work[i].p == coeffs) d->h_buf = i;
}

/* The pass kernels' run-time settings (benchmark variants; defaults = the measured best), read at every
 * network so that one process can compare them (docs/perf/gpu.md):
 *  PROOFMILL_GPU_NTT_TILE=9|10|11 (default 11): the largest tile of a pass is 2^bits elements;
 *  PROOFMILL_GPU_NTT_LR=2|3 (default 2): at most 2^lr elements per thread (radix-4 or radix-8 rounds);
 *  PROOFMILL_GPU_NTT_MINB: the radix-4 kernel of the 256-thread passes compiled for 4 blocks per SM (64
 *    registers; the default) or 1 (the 70-72 registers ptxas wants: 3 blocks); the 128-thread passes (the
 *    s0 = 0 pass of each network) keep the 72-register kernel (7 blocks; at 64 registers their pass took
 *    11.66 ms instead of 11.49 at 2^27); the radix-8 kernel for 3 (80 registers, spills) or 1 (default);
 *  PROOFMILL_GPU_NTT_SPLIT=1: pass sizes for the fewest rounds (network_plan round_split);
 *  PROOFMILL_GPU_NTT_TWSHARE=1: the radix-4 256-thread passes load a round's shared twiddle once
 *    (pass_round TWS);
 *  PROOFMILL_GPU_NTT_FOURSTEP=1: the passes with s0 > 0 in four-step form (pass_fs_factor: one column
 *    factor per element at the load or store, the rounds on a 2^S-point network's twiddles).
 *  Each is a row of the settings table (gpu.ntt_tile, gpu.ntt_lr, gpu.ntt_minb, gpu.ntt_split,
 *  gpu.ntt_twshare, gpu.ntt_fourstep in util/settings.c); unset keeps the default, a value outside the
 *  row's bounds is reported once and the default kept. */
struct ntt_tune {
    uint32_t tile_bits = ntc::NTT_TILE_BITS, max_lr = ntc::NTT_MAX_LR, minb = 0;
    bool split = false, tws = false, four_step = false;
};
/* the knobs are rows gpu.ntt_* of the settings table (util/settings.c: defaults, bounds, variables) */
static ntt_tune ntt_tune_from_env() {
    ntt_tune t;
    const uint64_t tile = pm_setting_u64("gpu.ntt_tile"), lr = pm_setting_u64("gpu.ntt_lr");
    if (tile >= 9 && tile <= 11) t.tile_bits = (uint32_t)tile;
    if (lr == 2 || lr == 3) t.max_lr = (uint32_t)lr;
    const uint64_t minb = pm_setting_u64("gpu.ntt_minb");
    t.minb = minb ? (uint32_t)minb : t.max_lr == 2 ? 4u : 1u;
    t.split = pm_setting_bool("gpu.ntt_split");
    t.tws = pm_setting_bool("gpu.ntt_twshare");
    t.four_step = pm_setting_bool("gpu.ntt_fourstep");
    return t;
}

pm_status run_network(gpu_ntt_domain *d, bool dif, bool inverse, fr_d *dst, fr_d *work, const fr_d *src,
                      const net_ops &ops, pm_error *err) {
    ntc::pass_args pa[ntc::MAX_PASSES];
    const ntt_tune tu = ntt_tune_from_env();
    const uint32_t minb = tu.minb;
    const bool tws = tu.tws;
    const uint32_t P = ntc::network_plan(pa, d->log_n, dif, inverse, dst, work, src, d->tw.as<fr_d>(), ops, ntc::MAX_PASS_BITS,
                                         tu.tile_bits, tu.max_lr, tu.split, tu.four_step);
    for (uint32_t q = 0; q < P; q++) {
        const ntc::pass_args &a = pa[q];
        const bool full = ntc::pass_threads(a) == 256; /* 256-thread blocks: the launch-bounds variants */
        cudaError_t e;
        switch (a.lr * 2 + (dif ? 1 : 0)) {
        case 2: e = launch_pass<1, false>(a, d->st); break;
        case 3: e = launch_pass<1, true>(a, d->st); break;
        case 4:
            e = full && minb == 4 ? (tws ? launch_pass<2, false, 4, true>(a, d->st) : launch_pass<2, false, 4>(a, d->st))
                                  : launch_pass<2, false>(a, d->st);
            break;
        case 5:
            e = full && minb == 4 ? (tws ? launch_pass<2, true, 4, true>(a, d->st) : launch_pass<2, true, 4>(a, d->st))
                                  : launch_pass<2, true>(a, d->st);
            break;
        case 6: e = full && minb == 3 ? launch_pass<3, false, 3>(a, d->st) : launch_pass<3, false>(a, d->st); break;
        default: e = full && minb == 3 ? launch_pass<3, true, 3>(a, d->st) : launch_pass<3, true>(a, d->st); break;
        }
        PMCU(e);
    }
    return PM_OK;
}

pm_status run_bitrev(gpu_ntt_domain *d, fr_d *x, const ntc::pow_tab &sc, bool by_src, pm_error *err) {
    ntc::bitrev_args b;
    b.x = x;
    b.log_n = d->log_n;
    b.tb = ntc::bitrev_tb(d->log_n);
    b.sc = sc;
    b.by_src = by_src ? 1 : 0;
    k_bitrev<<<ntc::bitrev_blocks(b), ntc::bitrev_threads(b), 0, d->st>>>(b);
    PMCU_LAUNCH();
    return PM_OK;
}

} /* namespace pmgpu */

extern "C" void gpu_ntt_domain_free(gpu_ntt_domain *d) {
    if (!d) return;
    int cur = 0;
    cudaGetDevice(&cur);
    cudaSetDevice(d->device);
    preload_evict(d);
    if (d->pre_st) cudaStreamDestroy(d->pre_st);
    if (d->pre_start) cudaEventDestroy(d->pre_start);
    for (cudaEvent_t e : d->pre_ev)
        if (e) cudaEventDestroy(e);
    if (d->st) cudaStreamDestroy(d->st);
    if (d->e0) cudaEventDestroy(d->e0);
    if (d->e1) cudaEventDestroy(d->e1);
    delete d; /* frees every dev_buf */
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
    fr_from_u64(&d->gen, gen);
    if (fr_root_of_unity(&d->omega, &d->gen, log_n) != 0 || fr_root_of_unity(&d->shift, &d->gen, log_n + 1) != 0)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_ntt_domain_init: generator %u gives no primitive 2^%u-th root", gen, log_n + 1);
    fr_inv_vartime(&d->omega_inv, &d->omega);
    fr_inv_vartime(&d->shift_inv, &d->shift);
    fr_t nn;
    fr_from_u64(&nn, d->n);
    fr_inv_vartime(&d->n_inv, &nn);
    PMCU(cudaStreamCreateWithFlags(&d->st, cudaStreamNonBlocking));
    PMCU(cudaEventCreate(&d->e0));
    PMCU(cudaEventCreate(&d->e1));
    /* twiddles: n/2 powers of omega, built from a lo/hi table on the device */
    const size_t half = d->n / 2;
    pm_status st;
    {
        dev_pow_tab tmp;
        if ((st = make_pow_tab(tmp, FR_ONE, d->omega, log_n, false, false, d->st, err)) != PM_OK) return st;
        PMCU(d->tw.alloc(half * sizeof(fr_d)));
        k_fill_powers<<<(unsigned)((half + 255) / 256), 256, 0, d->st>>>(d->tw.as<fr_d>(), (uint32_t)half, tmp.t);
        PMCU_LAUNCH();
        PMCU(cudaStreamSynchronize(d->st));
    }
    if ((st = make_pow_tab(d->p_shift, FR_ONE, d->shift, log_n, false, false, d->st, err)) != PM_OK) return st;
    if ((st = make_pow_tab(d->p_ninv, d->n_inv, FR_ONE, log_n, false, true, d->st, err)) != PM_OK) return st;
    if ((st = make_pow_tab(d->p_cinv, d->n_inv, d->shift_inv, log_n, false, false, d->st, err)) != PM_OK) return st;
    if ((st = make_pow_tab(d->p_snarkjs, d->n_inv, d->shift, log_n, false, false, d->st, err)) != PM_OK) return st;
    fr_d *w0;
    if ((st = domain_work(&w0, d, 0, err)) != PM_OK) return st;
    *out = d;
    d = nullptr; /* keep it */
    return PM_OK;
}

static pm_status ntt_on_device(gpu_ntt_domain *d, fr_d *x, gpu_ntt_kind kind, pm_error *err) {
    if (kind < GPU_NTT_FORWARD || kind > GPU_NTT_COSET_INVERSE)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_ntt: unknown kind %d", (int)kind);
    dev_exec ex{d, err};
    return ntc::seq_ntt(ex, x, (int)kind, domain_tabs(d));
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
    fr_d *x = nullptr;
    preload_evict(d); /* buffer 0 is written */
    pm_status st = domain_work(&x, d, 0, err);
    if (st != PM_OK) return st;
    PMCU(cudaMemcpyAsync(x, data, n * sizeof(fr_t), cudaMemcpyHostToDevice, d->st));
    PMCU(cudaEventRecord(d->e0, d->st));
    if ((st = ntt_on_device(d, x, kind, err)) != PM_OK) return st;
    PMCU(cudaEventRecord(d->e1, d->st));
    PMCU(cudaMemcpyAsync(data, x, n * sizeof(fr_t), cudaMemcpyDeviceToHost, d->st));
    PMCU(cudaStreamSynchronize(d->st));
    cudaEventElapsedTime(&d->last_ms, d->e0, d->e1);
    return PM_OK;
}

extern "C" float gpu_ntt_last_ms(const gpu_ntt_domain *d) { return d ? d->last_ms : 0.0f; }

extern "C" pm_status gpu_ntt_domain_twiddles(fr_t *out, size_t count, size_t first, int inverse, const gpu_ntt_domain *d, pm_error *err) {
    if (!d || (!out && count) || first > d->n / 2 || count > d->n / 2 - first)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_ntt_domain_twiddles: bad range");
    const size_t half = d->n / 2;
    const fr_d *tw = d->tw.as<fr_d>();
    for (size_t i = 0; i < count; i++) {
        const size_t t = first + i;
        if (inverse && t == 0) { out[i] = FR_ONE; continue; }
        /* forward: omega^t; inverse: omega^-t = -omega^(n/2 - t) (the mirror the kernels use) */
        PMCU(cudaMemcpyAsync(&out[i], tw + (inverse ? half - t : t), sizeof(fr_t), cudaMemcpyDeviceToHost, d->st));
        PMCU(cudaStreamSynchronize(d->st));
        if (inverse) fr_neg(&out[i], &out[i]);
    }
    return PM_OK;
}

extern "C" pm_status gpu_ntt_domain_buffers(void *bufs[3], gpu_ntt_domain *d, pm_error *err) {
    if (!d || !bufs) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_ntt_domain_buffers: NULL argument");
    preload_evict(d); /* the caller writes them */
    for (int i = 0; i < 3; i++) {
        fr_d *x = nullptr;
        pm_status st = domain_work(&x, d, i, err);
        if (st != PM_OK) return st;
        bufs[i] = x;
    }
    return PM_OK;
}

extern "C" int gpu_ntt_domain_preload_drop(gpu_ntt_domain *d, uint64_t token) {
    if (!d || !d->pre_token || (token && token != d->pre_token)) return 0;
    preload_evict(d);
    return 1;
}

extern "C" uint64_t gpu_ntt_domain_preload_token(const gpu_ntt_domain *d) { return d ? d->pre_token : 0; }

extern "C" int gpu_ntt_domain_h_buffer(const gpu_ntt_domain *d) { return d ? d->h_buf : 0; }

extern "C" pm_status gpu_ntt_domain_sync(gpu_ntt_domain *d, pm_error *err) {
    if (!d) return PM_OK;
    PMCU(cudaStreamSynchronize(d->st));
    return PM_OK;
}

static_assert(ntc::POW_LO_BITS == GPU_SIZES_POW_LO_BITS, "gpu_sizes.h: the NTT's power tables");
extern "C" size_t gpu_ntt_domain_device_bytes(unsigned log_n, int buffers) { return gpu_sizes_ntt_domain(log_n, buffers); }
