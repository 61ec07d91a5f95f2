/*
 * device_memory.cu — plain device allocation and copies for the callers of gpu.h's device-pointer
 * functions (the H pipelines, the SpMV, GPU_MSM_SCALARS_DEVICE). Contract in gpu.h.
 */
#include "cpu_headers.cuh"
#include "common.cuh"

using namespace pmgpu;

extern "C" pm_status gpu_dev_alloc(void **out, size_t bytes, pm_error *err) {
    if (!out) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_dev_alloc: out is NULL");
    *out = nullptr;
    PMCU(cudaMalloc(out, bytes ? bytes : 16));
    return PM_OK;
}

extern "C" void gpu_dev_free(void *p) {
    if (p) cudaFree(p);
}

extern "C" pm_status gpu_copy_to_device(void *dst_dev, const void *src, size_t bytes, pm_error *err) {
    if ((!dst_dev || !src) && bytes) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_copy_to_device: NULL pointer");
    if (!bytes) return PM_OK;
    /* async + stream sync: a plain cudaMemcpy from pageable memory may return before its DMA lands,
     * and kernels on the library's non-blocking streams would not wait for it */
    PMCU(cudaMemcpyAsync(dst_dev, src, bytes, cudaMemcpyHostToDevice, 0));
    PMCU(cudaStreamSynchronize(0));
    return PM_OK;
}

extern "C" pm_status gpu_copy_from_device(void *dst, const void *src_dev, size_t bytes, pm_error *err) {
    if ((!dst || !src_dev) && bytes) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "gpu_copy_from_device: NULL pointer");
    if (!bytes) return PM_OK;
    /* gpu.h's functions return after their kernels finished, so the data is there */
    PMCU(cudaMemcpyAsync(dst, src_dev, bytes, cudaMemcpyDeviceToHost, 0));
    PMCU(cudaStreamSynchronize(0));
    return PM_OK;
}
