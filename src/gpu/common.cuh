/*
 * common.cuh — error handling and small RAII helpers shared by the .cu files of src/gpu (internal).
 *
 * PMCU(expr) evaluates a CUDA runtime call; on failure it fills the enclosing function's
 * `pm_error *err` (call text, file, line, CUDA's name and string for the code) and returns the
 * status from the enclosing function: PM_ERR_NOMEM for cudaErrorMemoryAllocation (the caller can
 * act on it), else PM_ERR_GPU. The sticky error is cleared where CUDA allows it, so an OOM leaves
 * the device usable. PMCU_LAUNCH() checks the last launch the same way.
 */
#pragma once
#include <cuda_runtime.h>
#include <cstddef>
#include "util/error.h"

namespace pmgpu {

pm_status cuda_fail(pm_error *err, cudaError_t e, const char *expr, const char *file, int line);

/* The calling thread's preemption point (gpu.h gpu_set_yield): yield_armed says whether a hook is
 * set (so a caller syncs its stream only then), yield_now calls it. */
bool yield_armed();
void yield_now();

/* bytes from host memory (pageable or pinned) to dst on stream s in pieces of
 * GPU_UPLOAD_PIECE_BYTES (gpu.h), each waited for, with a preemption point (yield_now) between
 * two pieces: a bulk upload never holds the copy engine for more than one piece while a more
 * urgent thread's work waits. Returns the first CUDA error. */
cudaError_t copy_h2d_pieces(void *dst, const void *src, size_t bytes, cudaStream_t s);

/* bytes between host memory and dst/src on stream s without waiting: cudaMemcpyAsync in copies cut
 * where the host address (host: src for kind HostToDevice, dst for DeviceToHost) crosses a multiple of
 * GPU_HOST_PIECE_BYTES (gpu.h gpu_host_alloc_pieces registers each piece on its own, and one copy may
 * not span two registrations). Returns the first CUDA error; the pieces queued before it stay queued
 * (the caller synchronizes s before reusing either side). device_memory.cu. */
cudaError_t copy_cut_async(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, const void *host, cudaStream_t s);

/* cudaMalloc(p, b ? b : 16). Under gpu.verbose an allocation of 1 MiB or more (or a refused one)
 * prints one stderr line: its size and the device's bytes in use after it (cudaMemGetInfo), so a
 * run's peak can be set against the device-memory plan allocation by allocation. */
cudaError_t dmalloc(void **p, size_t b);

#define PMCU(expr)                                                                 \
    do {                                                                           \
        cudaError_t pm_e_ = (expr);                                                \
        if (pm_e_ != cudaSuccess)                                                  \
            return ::pmgpu::cuda_fail(err, pm_e_, #expr, __FILE__, __LINE__);      \
    } while (0)
#define PMCU_LAUNCH() PMCU(cudaGetLastError())

/* A device buffer freed on scope exit (unless released). */
struct dev_buf {
    void *p = nullptr;
    size_t bytes = 0;
    dev_buf() = default;
    dev_buf(const dev_buf &) = delete;
    dev_buf &operator=(const dev_buf &) = delete;
    ~dev_buf() { if (p) cudaFree(p); }
    cudaError_t alloc(size_t b) {
        if (p && bytes >= b) return cudaSuccess;
        if (p) { cudaFree(p); p = nullptr; bytes = 0; }
        cudaError_t e = dmalloc(&p, b);
        if (e == cudaSuccess) bytes = b; else p = nullptr;
        return e;
    }
    void release() { if (p) cudaFree(p); p = nullptr; bytes = 0; }
    template <class T> T *as() const { return static_cast<T *>(p); }
};

/* Constant-check hook (common.cu). */
pm_status self_check(pm_error *err);

} /* namespace pmgpu */
