/*
 * spmv.cu — R1CS on the device: the matrices A, B, C resident (uploaded once per key), the witness
 * uploaded per partition into one of two slots (asynchronous, on its own stream, with events), and
 * a = A.w, b = B.w, c = C.w with the constraint check a_k b_k = c_k. Contracts in gpu.h.
 *
 * Kernels (shells around spmv_core.cuh, which the host test runs too): one thread per row computes
 * the selected products over the three matrices (coefficient 1 / -1 an add / a sub, others one
 * multiplication, as r1cs.c), writes them and checks the row (atomicMin of the failing row index, so
 * the lowest one is reported); rows with more than LONG_ROW terms in any matrix (listed at upload)
 * are skipped there and take a warp each (lanes stride the terms, a shuffle tree sums the partials).
 * A third kernel zero-fills rows [rows, n_out) and puts the input rows a[rows + i] = w[i].
 * Matrices that share one coefficient dictionary read ONE device copy of it: the first matrix's
 * (spmv_plan_make; the fix of the 2^24-row bench's illegal address: C read the copy of B, which
 * had none of its own, whenever A, B and C shared a dictionary and C had a coefficient other than
 * +-1 — the test circuits' C rows had only 1).
 * Memory-bound: per term 4 B column + 4 B dictionary index + a 32 B witness gather (random, the
 * dominant stream: the witness is far bigger than L2) and for 31 % of the terms (PoRep) one Fr
 * multiplication with a dictionary entry (80 KB, cached); per row 4-8 B of row pointer and 32 B of
 * output per product. Counted at 32 GiB in docs/perf/gpu.md.
 */
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>
#include "cpu_headers.cuh"
#include "common.cuh"
#include "gpu/gpu_sizes.h"
#include "spmv_core.cuh"
#include "util/settings.h"

using namespace pmgpu;
using ntc::fr_d;
using ntc::spmv_args;

namespace {

template <class RP> __global__ void __launch_bounds__(256) k_spmv_rows(const __grid_constant__ spmv_args<RP> a) {
    const uint32_t row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < a.rows) ntc::spmv_thread_row(a, row);
}

__device__ __forceinline__ fr_d shfl_down_fr(const fr_d &x, int off) {
    fr_d r;
#pragma unroll
    for (int i = 0; i < 8; i++) r.v[i] = __shfl_down_sync(0xffffffffu, x.v[i], off);
    return r;
}

/* one warp per long row: lane partials, a shuffle tree, lane 0 stores and checks */
template <class RP> __global__ void __launch_bounds__(256) k_spmv_long(const __grid_constant__ spmv_args<RP> a) {
    const uint32_t wid = (uint32_t)(((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5), lane = threadIdx.x & 31;
    if (wid >= a.n_long) return; /* whole warps leave together */
    const uint32_t row = a.long_rows[wid];
    fr_d v[3];
#pragma unroll
    for (int i = 0; i < 3; i++) {
        fr_d p = ntc::spmv_lane_partial(a, row, lane, i);
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) p = ntc::f_add(p, shfl_down_fr(p, off));
        v[i] = p;
    }
    if (lane == 0) ntc::spmv_finish_row(a, row, v);
}

/* rows [rows, n_out): zero, and a[rows + i] = w[i] for i < a_inputs */
__global__ void k_pad_rows(fr_d *a, fr_d *b, fr_d *c, uint32_t rows, size_t n_out, uint32_t a_inputs, const fr_d *w) {
    const size_t r = rows + (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (r < n_out) ntc::spmv_pad_row(a, b, c, rows, r, a_inputs, w);
}

__global__ void k_narrow(uint32_t *out, const uint64_t *in, size_t count) {
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) out[i] = (uint32_t)in[i];
}

} /* namespace */

struct gpu_r1cs {
    int device = 0;
    uint32_t rows = 0, wires = 0;
    bool rp32 = true;
    struct mat {
        dev_buf rp, col, idx, coef, tab;
        uint64_t nnz = 0;
        uint32_t one_i = UINT32_MAX, neg_i = UINT32_MAX;
        int tab_owner = -1; /* the matrix whose dictionary copy this one reads (-1: its own) */
    } m[3];
    dev_buf long_rows;
    uint32_t n_long = 0;
    /* read-only after the upload: shared by any number of threads (each with its gpu_witness) */
};

/* per worker: the witness slots, the upload stream, and the SpMV's own stream and scratch */
struct gpu_witness {
    int device = 0;
    size_t n_w = 0;
    dev_buf slot[2];
    unsigned nslots = 2;        /* slots allocated (gpu_witness_init_slots) */
    cudaStream_t st = nullptr;  /* uploads */
    cudaStream_t cst = nullptr; /* SpMV kernels */
    cudaEvent_t ready[2] = {nullptr, nullptr}, consumed[2] = {nullptr, nullptr}, t0 = nullptr, t1 = nullptr;
    cudaEvent_t k0 = nullptr, k1 = nullptr;
    dev_buf bad; /* 4 bytes: the lowest failing row of the last check */
    float ms = 0, spmv_ms = 0;
};

using ntc::spmv_mat;

extern "C" size_t gpu_r1cs_device_bytes(const r1cs_t *cs) { return gpu_sizes_r1cs(cs); } /* gpu_sizes.h */

extern "C" void gpu_r1cs_free(gpu_r1cs *g) {
    if (!g) return;
    int cur = 0;
    cudaGetDevice(&cur);
    cudaSetDevice(g->device);
    delete g;
    cudaSetDevice(cur);
}

extern "C" uint32_t gpu_r1cs_rows(const gpu_r1cs *g) { return g ? g->rows : 0; }
extern "C" uint32_t gpu_r1cs_wires(const gpu_r1cs *g) { return g ? g->wires : 0; }

/* pageable host -> device on stream st, waited for (copy_h2d_pieces) */
static pm_status upload(dev_buf &b, const void *src, size_t bytes, cudaStream_t st, pm_error *err) {
    PMCU(b.alloc(bytes));
    if (bytes) PMCU(copy_h2d_pieces(b.p, src, bytes, st)); /* in pieces, preemption points between */
    return PM_OK;
}

extern "C" pm_status gpu_r1cs_upload(gpu_r1cs **out, const r1cs_t *cs, pm_error *err) {
    if (!out || !cs) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_r1cs_upload: NULL argument");
    *out = nullptr;
    if (gpu_available() == 0) return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "no CUDA device");
    for (int i = 0; i < 3; i++) {
        const r1cs_matrix_t *m = spmv_mat(cs, i);
        if (m->n_rows != cs->n_constraints || m->n_cols > cs->n_wires || (m->nnz && (!m->col || (!m->coef && !m->coef_idx))) ||
            !m->row_ptr || m->row_ptr[m->n_rows] != m->nnz || (m->coef_idx && (!m->coef_tab || !m->n_coef_tab)))
            return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_r1cs_upload: matrix %c is malformed (%u rows, %u cols, %llu terms)",
                                "ABC"[i], m->n_rows, m->n_cols, (unsigned long long)m->nnz);
    }
    gpu_r1cs *g = new (std::nothrow) gpu_r1cs();
    if (!g) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "gpu_r1cs_upload: host allocation");
    struct guard { gpu_r1cs *&g; ~guard() { if (g) gpu_r1cs_free(g); } } gd{g};
    cudaGetDevice(&g->device);
    g->rows = cs->n_constraints;
    g->wires = cs->n_wires;
    cudaStream_t st_up = nullptr; /* the upload's own stream */
    PMCU(cudaStreamCreateWithFlags(&st_up, cudaStreamNonBlocking));
    struct sguard { cudaStream_t s; ~sguard() { cudaStreamDestroy(s); } } sg{st_up};
    /* the decisions (row pointer width, shared dictionaries, 1 / -1, long rows): spmv_core.cuh;
     * gpu.r1cs_rp64 (PROOFMILL_GPU_R1CS_RP64=1) keeps u64 row pointers (tests of that path) */
    ntc::spmv_plan plan;
    ntc::spmv_plan_make(plan, cs, pm_setting_bool("gpu.r1cs_rp64") != 0);
    g->rp32 = plan.rp32;
    pm_status st;
    for (int i = 0; i < 3; i++) {
        const r1cs_matrix_t *m = spmv_mat(cs, i);
        gpu_r1cs::mat &d = g->m[i];
        d.nnz = m->nnz;
        const size_t nrp = (size_t)m->n_rows + 1;
        if (g->rp32) { /* narrow on the device, chunk by chunk through a u64 staging buffer */
            dev_buf stage;
            PMCU(d.rp.alloc(nrp * 4));
            PMCU(stage.alloc((nrp < ntc::NARROW_CHUNK ? nrp : ntc::NARROW_CHUNK) * 8));
            cudaError_t ce = cudaSuccess;
            ntc::for_chunks(nrp, ntc::NARROW_CHUNK, [&](size_t o, size_t cnt) {
                if (ce != cudaSuccess) return;
                ce = cudaMemcpyAsync(stage.p, m->row_ptr + o, cnt * 8, cudaMemcpyHostToDevice, st_up);
                if (ce == cudaSuccess) {
                    k_narrow<<<(unsigned)((cnt + 255) / 256), 256, 0, st_up>>>(d.rp.as<uint32_t>() + o, stage.as<uint64_t>(), cnt);
                    ce = cudaGetLastError();
                }
                if (ce == cudaSuccess) ce = cudaStreamSynchronize(st_up);
                if (ce == cudaSuccess) yield_now(); /* a preemption point between the chunks (gpu.h) */
            });
            PMCU(ce);
        } else if ((st = upload(d.rp, m->row_ptr, nrp * 8, st_up, err)) != PM_OK) {
            return st;
        }
        if ((st = upload(d.col, m->col, m->nnz * 4, st_up, err)) != PM_OK) return st;
        if (m->coef_idx) {
            if ((st = upload(d.idx, m->coef_idx, m->nnz * 4, st_up, err)) != PM_OK) return st;
            d.tab_owner = plan.tab_owner[i];
            if (d.tab_owner < 0 && (st = upload(d.tab, m->coef_tab, (size_t)m->n_coef_tab * 32, st_up, err)) != PM_OK) return st;
            d.one_i = plan.one_i[i];
            d.neg_i = plan.neg_i[i];
        } else if ((st = upload(d.coef, m->coef, m->nnz * 32, st_up, err)) != PM_OK) {
            return st;
        }
    }
    /* rows with a long row in any matrix: a warp each */
    g->n_long = (uint32_t)plan.long_rows.size();
    if ((st = upload(g->long_rows, plan.long_rows.data(), plan.long_rows.size() * 4, st_up, err)) != PM_OK) return st;
    *out = g;
    g = nullptr;
    return PM_OK;
}

extern "C" void gpu_witness_free(gpu_witness *w) {
    if (!w) return;
    int cur = 0;
    cudaGetDevice(&cur);
    cudaSetDevice(w->device);
    if (w->st) cudaStreamSynchronize(w->st);
    if (w->st) cudaStreamDestroy(w->st);
    if (w->cst) cudaStreamDestroy(w->cst);
    if (w->k0) cudaEventDestroy(w->k0);
    if (w->k1) cudaEventDestroy(w->k1);
    for (int i = 0; i < 2; i++) {
        if (w->ready[i]) cudaEventDestroy(w->ready[i]);
        if (w->consumed[i]) cudaEventDestroy(w->consumed[i]);
    }
    if (w->t0) cudaEventDestroy(w->t0);
    if (w->t1) cudaEventDestroy(w->t1);
    delete w;
    cudaSetDevice(cur);
}

extern "C" pm_status gpu_witness_init(gpu_witness **out, size_t n_w, pm_error *err) {
    return gpu_witness_init_slots(out, n_w, 2, err);
}

extern "C" pm_status gpu_witness_init_slots(gpu_witness **out, size_t n_w, unsigned slots, pm_error *err) {
    if (!out) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_witness_init: out is NULL");
    if (slots < 1 || slots > 2) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_witness_init: %u slots (1 or 2)", slots);
    *out = nullptr;
    if (n_w == 0 || n_w > UINT32_MAX) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_witness_init: %zu values", n_w);
    if (gpu_available() == 0) return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "no CUDA device");
    gpu_witness *w = new (std::nothrow) gpu_witness();
    if (!w) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "gpu_witness_init: host allocation");
    struct guard { gpu_witness *&w; ~guard() { if (w) gpu_witness_free(w); } } gd{w};
    cudaGetDevice(&w->device);
    w->n_w = n_w;
    w->nslots = slots;
    PMCU(cudaStreamCreateWithFlags(&w->st, cudaStreamNonBlocking));
    for (int i = 0; i < 2; i++) {
        if ((unsigned)i < slots) PMCU(w->slot[i].alloc(n_w * sizeof(fr_t)));
        PMCU(cudaEventCreateWithFlags(&w->ready[i], cudaEventDisableTiming));
        PMCU(cudaEventCreateWithFlags(&w->consumed[i], cudaEventDisableTiming));
    }
    PMCU(cudaEventCreate(&w->t0));
    PMCU(cudaEventCreate(&w->t1));
    PMCU(cudaStreamCreateWithFlags(&w->cst, cudaStreamNonBlocking));
    PMCU(cudaEventCreate(&w->k0));
    PMCU(cudaEventCreate(&w->k1));
    PMCU(w->bad.alloc(4));
    *out = w;
    w = nullptr;
    return PM_OK;
}

extern "C" pm_status gpu_witness_upload_async(gpu_witness *w, unsigned slot, const fr_t *host_w, size_t n_w, pm_error *err) {
    if (!w || slot >= w->nslots || !host_w || n_w != w->n_w)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_witness_upload_async: slot %u, %zu values (slots hold %zu)", slot, n_w,
                            w ? w->n_w : 0);
    /* the last SpMV that read this slot must be done before the copy overwrites it */
    PMCU(cudaStreamWaitEvent(w->st, w->consumed[slot], 0));
    PMCU(cudaEventRecord(w->t0, w->st));
    /* in pieces of GPU_HOST_PIECE_BYTES from the start: staging from gpu_host_alloc_pieces is pinned
     * piece by piece, and a copy crossing two registrations would be a synchronous pageable one */
    const size_t total = n_w * sizeof(fr_t);
    for (size_t off = 0; off < total; off += GPU_HOST_PIECE_BYTES) {
        const size_t len = total - off < GPU_HOST_PIECE_BYTES ? total - off : GPU_HOST_PIECE_BYTES;
        PMCU(cudaMemcpyAsync(static_cast<char *>(w->slot[slot].p) + off, reinterpret_cast<const char *>(host_w) + off, len,
                             cudaMemcpyHostToDevice, w->st));
    }
    PMCU(cudaEventRecord(w->t1, w->st));
    PMCU(cudaEventRecord(w->ready[slot], w->st));
    return PM_OK;
}

extern "C" pm_status gpu_witness_wait(gpu_witness *w, unsigned slot, pm_error *err) {
    if (!w || slot > 1) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_witness_wait: bad arguments");
    PMCU(cudaEventSynchronize(w->ready[slot]));
    float ms = 0;
    if (cudaEventElapsedTime(&ms, w->t0, w->t1) == cudaSuccess) w->ms = ms;
    else (void)cudaGetLastError();
    return PM_OK;
}

extern "C" const void *gpu_witness_device(const gpu_witness *w, unsigned slot) { return w && slot < 2 ? w->slot[slot].p : nullptr; }
extern "C" float gpu_witness_last_upload_ms(const gpu_witness *w) { return w ? w->ms : 0.0f; }
extern "C" float gpu_witness_last_spmv_ms(const gpu_witness *w) { return w ? w->spmv_ms : 0.0f; }

template <class RP> static void fill_args(spmv_args<RP> &a, const gpu_r1cs *g) {
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    for (int i = 0; i < 3; i++) {
        const gpu_r1cs::mat &d = g->m[i];
        ntc::csr_d<RP> &c = a.m[i];
        c.row_ptr = d.rp.as<RP>();
        c.col = d.col.as<uint32_t>();
        c.coef_idx = d.idx.p ? d.idx.as<uint32_t>() : nullptr;
        c.coef = d.coef.p ? d.coef.as<fr_d>() : nullptr;
        c.tab = (d.tab_owner >= 0 ? g->m[d.tab_owner].tab : d.tab).as<fr_d>();
        c.one_i = d.one_i;
        c.neg_i = d.neg_i;
        memcpy(&c.one, &FR_ONE, 32);
        memcpy(&c.neg, &m1, 32);
    }
}

template <class RP>
static pm_status run_spmv(const gpu_r1cs *g, fr_d *out[3], const fr_d *w, uint32_t *dev_bad, int check, cudaStream_t st,
                          pm_error *err) {
    spmv_args<RP> a;
    memset(&a, 0, sizeof a);
    fill_args(a, g);
    for (int i = 0; i < 3; i++) a.out[i] = out[i];
    a.w = w;
    a.rows = g->rows;
    a.mask = check ? 7u : (out[0] ? 1u : 0u) | (out[1] ? 2u : 0u) | (out[2] ? 4u : 0u);
    a.check = check;
    a.first_bad = dev_bad;
    a.long_rows = g->long_rows.as<uint32_t>();
    a.n_long = g->n_long;
    if (g->rows) {
        k_spmv_rows<RP><<<(g->rows + 255) / 256, 256, 0, st>>>(a);
        PMCU_LAUNCH();
    }
    if (g->n_long) {
        k_spmv_long<RP><<<(unsigned)(((size_t)g->n_long * 32 + 255) / 256), 256, 0, st>>>(a);
        PMCU_LAUNCH();
    }
    return PM_OK;
}

extern "C" pm_status gpu_r1cs_spmv(void *a_dev, void *b_dev, void *c_dev, size_t n_out, uint32_t a_inputs, const gpu_r1cs *g,
                                   gpu_witness *ws, unsigned slot, size_t n_w, uint32_t *first_bad, pm_error *err) {
    if (first_bad) *first_bad = UINT32_MAX;
    if (!g || !ws || slot > 1)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_r1cs_spmv: NULL handle or slot %u", slot);
    if (n_w != g->wires || ws->n_w < n_w)
        return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET, "witness has %zu values, r1cs has %u wires", n_w, g->wires);
    if (n_out < (size_t)g->rows + a_inputs || a_inputs > n_w || (a_inputs && !a_dev))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_r1cs_spmv: %zu output rows for %u rows + %u inputs", n_out, g->rows,
                            a_inputs);
    cudaStream_t st = ws->cst;
    const fr_d *w = ws->slot[slot].as<fr_d>();
    fr_d *out[3] = {static_cast<fr_d *>(a_dev), static_cast<fr_d *>(b_dev), static_cast<fr_d *>(c_dev)};
    uint32_t *dbad = ws->bad.as<uint32_t>();
    if (first_bad) PMCU(cudaMemsetAsync(dbad, 0xff, 4, st));
    PMCU(cudaStreamWaitEvent(st, ws->ready[slot], 0));
    PMCU(cudaEventRecord(ws->k0, st));
    pm_status s = g->rp32 ? run_spmv<uint32_t>(g, out, w, dbad, first_bad != nullptr, st, err)
                          : run_spmv<uint64_t>(g, out, w, dbad, first_bad != nullptr, st, err);
    if (s != PM_OK) return s;
    if (n_out > g->rows && (a_dev || b_dev || c_dev)) {
        const size_t pad = n_out - g->rows;
        k_pad_rows<<<(unsigned)((pad + 255) / 256), 256, 0, st>>>(out[0], out[1], out[2], g->rows, n_out, a_inputs, w);
        PMCU_LAUNCH();
    }
    PMCU(cudaEventRecord(ws->k1, st));
    PMCU(cudaEventRecord(ws->consumed[slot], st));
    uint32_t fb = UINT32_MAX;
    if (first_bad) PMCU(cudaMemcpyAsync(&fb, dbad, 4, cudaMemcpyDeviceToHost, st));
    PMCU(cudaStreamSynchronize(st));
    cudaEventElapsedTime(&ws->spmv_ms, ws->k0, ws->k1);
    if (first_bad && fb != UINT32_MAX) {
        *first_bad = fb;
        return pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET, "constraint %u of %u not satisfied: <A,w>*<B,w> != <C,w>", fb,
                            g->rows);
    }
    return PM_OK;
}
