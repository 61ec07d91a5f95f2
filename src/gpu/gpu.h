/*
 * gpu.h — the CUDA backend (issue #4): the only way into src/gpu. Plain C17; the kernels live in
 * the .cu files of src/gpu behind these extern "C" functions (STYLE.md item 15).
 *
 * Argument order (project-wide): output first, then inputs; an array's length right after it.
 * Every function that touches the device returns a pm_status and fills the caller's pm_error
 * (may be NULL): PM_ERR_GPU when a CUDA call fails (the message names the call, file and line and
 * CUDA's own error string), PM_ERR_NOMEM when device or pinned memory runs out (the caller may
 * retry smaller or fall back to the CPU; nothing is leaked and the device stays usable),
 * PM_ERR_ARG for bad arguments. No function here aborts. Error strings live in the caller's
 * pm_error (no allocation crosses this edge).
 *
 * Representations are the CPU's (field/fp.h, field/fr.h, curve/g1.h): fp_t / fr_t are little-endian
 * 64-bit limbs in Montgomery form (R = 2^384 / 2^256); the device uses 32-bit limbs of the same
 * bytes, so arrays are copied unchanged. G1 affine infinity is (0, 0).
 *
 * Devices: every call runs on the calling thread's current CUDA device (device 0 unless
 * gpu_set_device was called on this thread). Handles remember their device.
 * Thread safety: distinct handles may be used from distinct threads; one handle is not re-entrant.
 * Everything here is variable time (_vartime in spirit: MSM and NTT inputs are not secret here).
 * This layer knows field and curve types, not the proof system: the Groth16 start phase runs these
 * kernels through the GPU table of groth16/start.h (src/groth16/start_gpu.c).
 */
#ifndef PROOFMILL_GPU_GPU_H
#define PROOFMILL_GPU_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "curve/g1.h"
#include "field/fr.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- devices ---- */

/* Number of usable CUDA devices; 0 (never an error) when there is no GPU, no driver, or the
 * library was built without CUDA. Cheap after the first call. */
int gpu_available(void);

typedef struct {
    char name[256];          /* e.g. "NVIDIA H200" */
    int major, minor;        /* compute capability */
    int sm_count;            /* multiprocessors */
    size_t mem_total, mem_free; /* bytes */
    size_t l2_bytes;
} gpu_device_info_t;

/* Describe device dev (0-based). Errors: PM_ERR_ARG (no such device), PM_ERR_GPU. */
pm_status gpu_device_info(gpu_device_info_t *out, int dev, pm_error *err);
/* Make dev the calling thread's current device. */
pm_status gpu_set_device(int dev, pm_error *err);
/* Check that the device constants agree with the CPU field (FP_MODULUS, FR_MODULUS, FP_ONE,
 * FR_ONE); PM_ERR_INTERNAL on mismatch. Called by gpu_g1_bases_upload / the NTT entry points. */
pm_status gpu_self_check(pm_error *err);

/* ---- pinned host memory (for scalars and NTT data: enables async copies overlapped with work) ---- */
pm_status gpu_host_alloc(void **out, size_t bytes, pm_error *err); /* PM_ERR_NOMEM when refused */
void gpu_host_free(void *p);                                       /* NULL is a no-op */

/* ---- G1 MSM ---- */

/* Upload-once bases: n affine G1 points resident on the device, plus the MSM's scratch (grown on
 * first use and kept, so repeated MSMs do not allocate). Points are not checked (the SRS loader
 * checks them once on the CPU). n < 2^31. */
typedef struct gpu_g1_bases gpu_g1_bases;

pm_status gpu_g1_bases_upload(gpu_g1_bases **out, const g1_affine_t *points, size_t n, pm_error *err);
/* Bases [t_i]G for the generator G and n plain scalars t_i (fr_t limbs, canonical < r), computed on
 * the device by a fixed-base comb (8-bit windows, 32 mixed additions + one inversion per point).
 * For tests and benchmarks (random points with known discrete logs). */
pm_status gpu_g1_bases_from_scalars(gpu_g1_bases **out, const fr_t *t_plain, size_t n, pm_error *err);
/* Copy points [first, first+count) back to host (e.g. to check them). */
pm_status gpu_g1_bases_download(g1_affine_t *out, size_t count, const gpu_g1_bases *b, size_t first,
                                pm_error *err);
size_t gpu_g1_bases_count(const gpu_g1_bases *b);
void gpu_g1_bases_free(gpu_g1_bases *b); /* NULL is a no-op; frees points and scratch */

/* Flags for gpu_msm_g1. */
#define GPU_MSM_SCALARS_MONT 1u    /* scalars are Montgomery fr_t (converted on the device) */
#define GPU_MSM_SCALARS_DEVICE 2u  /* `scalars` is a device pointer (e.g. the H pipeline's output) */
#define GPU_MSM_NO_01_SPLIT 4u     /* treat 0 and 1 like any other scalar (for tests/benchmarks) */
#define GPU_MSM_NO_TASK_SORT 8u    /* run accumulation tasks unsorted (for benchmarks) */

/* Device bytes gpu_msm_g1 needs for its scratch at n points (window chosen from n), beyond the
 * bases themselves. For memory budgeting. */
size_t gpu_msm_g1_scratch_size(size_t n);
/* The window width c (bits) used for n points. */
unsigned gpu_msm_g1_window_bits(size_t n);

/* r = sum_{i<n} [scalars[i]] bases[first + i], first + n <= count.
 * scalars: n fr_t, plain canonical integers < r (as msm/msm.h) unless GPU_MSM_SCALARS_MONT; host
 * memory (pinned from gpu_host_alloc is fastest: the copy then overlaps the digit pass) unless
 * GPU_MSM_SCALARS_DEVICE. Result: one Jacobian point in CPU layout (Z = 0 for infinity). n = 0 gives
 * infinity. Algorithm (Pippenger with signed c-bit digits, the 0/1 split: scalars 0 skipped,
 * scalars 1 summed in one extra "ones" bucket; counting sort of (window, bucket) keys on the device;
 * bucket accumulation in XYZZ split into tasks of at most K points with a tree for big buckets;
 * parallel running-sum bucket reduction; Horner over windows): see msm.cu's opening comment.
 * Scalars are not range-checked on the device: every canonical k < r works; a value >= 2^255 gives a
 * wrong result (the signed-digit recoding needs bit 255 clear), values in [r, 2^255) give [k]P.
 * Errors: PM_ERR_ARG (NULL, range), PM_ERR_NOMEM (device scratch), PM_ERR_GPU. */
pm_status gpu_msm_g1(g1_jac_t *r, const gpu_g1_bases *b, size_t first, const fr_t *scalars, size_t n,
                     unsigned flags, pm_error *err);

/* Per-phase device times of the last gpu_msm_g1 on this handle, in milliseconds (CUDA events). */
typedef struct {
    float upload_digits, scan, scatter, accumulate, reduce, total;
    unsigned window_bits, windows;
    size_t ones, zeros; /* counts seen by the 0/1 split */
} gpu_msm_timing_t;
void gpu_msm_g1_last_timing(gpu_msm_timing_t *out, const gpu_g1_bases *b);

/* ---- NTT over Fr ---- */

/* Domain tables for n = 2^log_n (1 <= log_n <= 28) with the roots of gen (5 = snarkjs, 7 =
 * arkworks; as ntt/ntt.h's ntt_roots_t): omega_n = (gen^((r-1)/2^32))^(2^(32-log_n)), omega_2n its
 * square root (the snarkjs coset shift). Holds twiddle tables (n/2 entries per direction) and a
 * work buffer of n elements on the device. */
typedef struct gpu_ntt_domain gpu_ntt_domain;
pm_status gpu_ntt_domain_init(gpu_ntt_domain **out, unsigned log_n, unsigned gen, pm_error *err);
void gpu_ntt_domain_free(gpu_ntt_domain *d);

typedef enum {
    GPU_NTT_FORWARD = 0,        /* A[k] = sum_j a[j] w^(jk) */
    GPU_NTT_INVERSE = 1,        /* a[j] = n^-1 sum_k A[k] w^(-jk) */
    GPU_NTT_COSET_FORWARD = 2,  /* A[k] = sum_j a[j] (s w^k)^j with s = omega_2n */
    GPU_NTT_COSET_INVERSE = 3   /* undoes GPU_NTT_COSET_FORWARD */
} gpu_ntt_kind;

/* In-place transform of n = 2^log_n Montgomery fr_t in host memory (natural order in and out, as
 * ntt/ntt.h). data may be pinned (faster). Errors: PM_ERR_ARG (n != domain size), PM_ERR_GPU. */
pm_status gpu_ntt(fr_t *data, size_t n, gpu_ntt_kind kind, gpu_ntt_domain *d, pm_error *err);
/* The same on device memory (data_dev: n fr_t on the device), no copies. For benchmarks. */
pm_status gpu_ntt_device(void *data_dev, size_t n, gpu_ntt_kind kind, gpu_ntt_domain *d, pm_error *err);
/* Copy twiddles [first, first+count) of the domain's table (omega^i, or omega^-i when inverse),
 * i < n/2, Montgomery. For tests. */
pm_status gpu_ntt_domain_twiddles(fr_t *out, size_t count, size_t first, int inverse, const gpu_ntt_domain *d, pm_error *err);
/* Device time of the last transform/H pipeline on d, milliseconds (CUDA events, no copies). */
float gpu_ntt_last_ms(const gpu_ntt_domain *d);

/* The snarkjs H phase, exactly as ntt_snarkjs_h (ntt/ntt.h; FORMATS.md "How snarkjs proves" step 2):
 * C = a∘b; for X in {a, b, C}: iNTT, multiply coefficient k by omega_2n^k, NTT; p = A∘B - C on the
 * coset; p converted OUT of Montgomery (plain canonical integers, MSM scalars for zkey section 9).
 * a, b: n Montgomery evaluations (host); p: n outputs (host; may alias a or b). d must use gen 5 for
 * snarkjs keys. When p_dev_out is non-NULL, the plain result is also left in a device buffer owned
 * by d (valid until the next call on d), usable as GPU_MSM_SCALARS_DEVICE input: *p_dev_out is set.
 * Cost: 6 NTTs of size n on the device + 3 copies of n*32 bytes. */
pm_status gpu_snarkjs_h(fr_t *p, size_t n, const fr_t *a, const fr_t *b, gpu_ntt_domain *d,
                        const void **p_dev_out, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
