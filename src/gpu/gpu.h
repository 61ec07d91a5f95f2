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
#include "curve/g2.h"
#include "field/fr.h"
#include "r1cs/r1cs.h"
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
    char pci_bus_id[16];     /* "0000:18:00.0": domain:bus:device.0, lower-case hex (sysfs form) */
    int cuda_driver;         /* the CUDA driver API version (cudaDriverGetVersion: 13000 = 13.0) */
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

/* Pinned host memory for long-lived multi-GB buffers, made in pieces: one anonymous mapping of
 * `bytes`, page-locked GPU_HOST_PIECE_BYTES at a time (cudaHostRegister per piece). Pinning holds
 * the process's memory-map lock while it walks the pages (~5 ms per 8 MiB on the H200 host: one
 * cudaHostAlloc of 4 GB held it ~2.6 s, and every thread of the daemon that faulted a page or grew
 * a malloc arena waited behind it: a WinningPoSt's 0.13 s became 4.3 s while a PoRep key made its
 * staging, docs/perf/post.md); in pieces no thread waits more than one piece (~40 ms). A copy must
 * not cross a piece boundary to stay asynchronous: split copies at multiples of
 * GPU_HOST_PIECE_BYTES from the buffer's start (gpu_witness_upload_async does). Free with
 * gpu_host_free_pieces(p, bytes), the same bytes. Errors: PM_ERR_NOMEM (mapping or pinning
 * refused; nothing is left pinned or mapped), PM_ERR_GPU (no device). The buffer starts at a
 * multiple of GPU_HOST_PIECE_BYTES and is pinned for every device (portable). */
#define GPU_HOST_PIECE_BYTES ((size_t)64 << 20)
pm_status gpu_host_alloc_pieces(void **out, size_t bytes, pm_error *err);
void gpu_host_free_pieces(void *p, size_t bytes); /* NULL is a no-op; unpinned piece by piece */
/* Page-lock an existing host range [p, p + bytes) for every device (cudaHostRegister, portable; the
 * page-rounded range in one registration, since a copy spanning two registrations is refused), so
 * that copies from it run at the bus's pinned rate (~25-50 GB/s instead of ~7 GB/s pageable): a
 * key's streamed bases, pinned once at the key's first use and shared by every device and worker.
 * The range must stay mapped until gpu_host_unregister(p, bytes); it must not share a page with
 * another registered range. Errors: PM_ERR_NOMEM (the driver refused: RLIMIT_MEMLOCK, a read-only
 * file mapping, a page already registered; nothing is left registered), PM_ERR_GPU (no device). */
pm_status gpu_host_register(const void *p, size_t bytes, pm_error *err);
void gpu_host_unregister(const void *p, size_t bytes); /* the same p and bytes; NULL is a no-op */
/* 1 when the host address p lies in page-locked memory (registered or allocated pinned). */
int gpu_host_is_pinned(const void *p);

/* ---- preemption points ----
 * The calling thread's yield hook: long device operations of this thread (an MSM between its
 * window groups, the bellperson H pipeline between its NTT stages) call fn(ctx) at points where
 * their stream is idle and their state is in device memory, so fn may let other work use the
 * device (the engine's urgent lane: a WinningPoSt waits for one window group, ~90 ms at 2^27,
 * instead of the whole 1 s MSM) and return when this thread may go on. fn must not free or use
 * the interrupted operation's buffers. NULL clears it. Thread-local; nothing calls fn while none
 * is set. Bulk transfers call it between their pieces too: gpu_host_alloc_pieces after each
 * page-locked piece, gpu_r1cs_upload, gpu_msm_index_upload and the bases uploads
 * (gpu_g1_bases_upload, gpu_g2_bases_upload) after each GPU_UPLOAD_PIECE_BYTES copied (256 MiB,
 * waited for), so a key's first use does not hold the driver and the copy engine for seconds. */
#define GPU_UPLOAD_PIECE_BYTES ((size_t)256 << 20)
typedef void (*gpu_yield_fn)(void *ctx);
void gpu_set_yield(gpu_yield_fn fn, void *ctx);

/* ---- G1 MSM ---- */

/* Upload-once bases: n affine G1 points resident on the device, plus the MSM's scratch (grown on
 * first use and kept, so repeated MSMs do not allocate). Points are not checked (the SRS loader
 * checks them once on the CPU). n < 2^31. */
typedef struct gpu_g1_bases gpu_g1_bases;

pm_status gpu_g1_bases_upload(gpu_g1_bases **out, const g1_affine_t *points, size_t n, pm_error *err);
/* Bases [t_i]G for the generator G and n plain scalars t_i (fr_t limbs, canonical < r), computed on
 * the device by the fixed-base batch (gpu_g1_fixed_base_mul's method, output left on the device).
 * For tests and benchmarks (random points with known discrete logs). */
pm_status gpu_g1_bases_from_scalars(gpu_g1_bases **out, const fr_t *t_plain, size_t n, pm_error *err);
/* Streamed bases, for a card too small for the whole base set (issue #13): the handle keeps only
 * the caller's pointer to n points in host memory, PINNED for speed (gpu_host_alloc or
 * gpu_host_register: ~50 GB/s; pageable memory works at ~7 GB/s; they must stay valid and
 * unchanged while the handle is used) and every MSM on it streams them through two device buffers
 * of chunk_points points each, the copy of chunk c+1 overlapped with chunk c's kernels on a second
 * stream; the result is the sum of the chunks' MSMs, the same point as the resident path gives.
 * chunk_points = 0 picks the chunk from device_budget (bytes of device memory the MSM may use,
 * bases buffers and scratch together: gpu_msm_g1_chunk_points); both 0 = a quarter of the free
 * device memory. Errors: PM_ERR_ARG (NULL, n >= 2^31, a budget below what 2^16 points need). */
pm_status gpu_g1_bases_host(gpu_g1_bases **out, const g1_affine_t *pinned_points, size_t n, size_t chunk_points,
                            size_t device_budget, pm_error *err);
/* Points per chunk of a streamed MSM that keep bases buffers + scratch within device_budget bytes
 * (at least 2^16; 0 when even that does not fit). */
size_t gpu_msm_g1_chunk_points(size_t device_budget);
/* Copy points [first, first+count) back to host (e.g. to check them); resident handles only. */
pm_status gpu_g1_bases_download(g1_affine_t *out, size_t count, const gpu_g1_bases *b, size_t first,
                                pm_error *err);
size_t gpu_g1_bases_count(const gpu_g1_bases *b);
void gpu_g1_bases_free(gpu_g1_bases *b); /* NULL is a no-op; frees points and scratch */
/* Free the MSM scratch a handle keeps between calls (gpu_msm_g1_scratch_size bytes at its last n;
 * ~21 GB after a 2^27-point MSM), keeping the points: for several keys or handles sharing one card.
 * The next MSM on the handle allocates it again. */
void gpu_g1_bases_release_scratch(gpu_g1_bases *b);
/* MSMs on a RESIDENT handle run in chunks of chunk_points points (the sum of the chunks' MSMs: the
 * same point), so that one MSM's scratch is gpu_sizes_msm_resident_chunk_bytes(chunk_points)
 * instead of the whole MSM's (~21 GB at 2^27): the device-memory plan's room (groth16/devplan.h).
 * 0 = one piece (the default). Streamed handles keep the chunk they were made with. Frees the
 * handle's scratch. Errors: PM_ERR_ARG (NULL handle, a streamed handle, 0 < chunk_points < 2^16). */
pm_status gpu_g1_bases_set_chunk(gpu_g1_bases *b, size_t chunk_points, pm_error *err);
/* A STREAMED handle: copy its first min(n, bytes / 96) points (affine G1, the layout of its pinned host
 * copy) into the device buffer dst, asynchronously on a copy stream of the handle's own (overlapping
 * whatever kernels run meanwhile: the H MSM, in groth16/start_gpu.c), and remember them as a prefix:
 * every later MSM of the handle with first = 0 sums those points from dst (after the copy, waited for on
 * the device) and streams only the rest (msm_stream.cuh stream_span), the same point. dst must stay
 * untouched until gpu_g1_bases_prefetch_drop; the caller must have finished its own work on dst (the
 * copy is not ordered after any other stream). *out_points: the points prefetched (0 for a resident
 * handle or bytes < 96). Replaces an earlier prefix (dropped first). Errors: PM_ERR_ARG (NULL), PM_ERR_GPU. */
pm_status gpu_g1_bases_prefetch(gpu_g1_bases *b, void *dst, size_t bytes, size_t *out_points, pm_error *err);
/* Forget the prefix, after its copy has landed (so the caller may then write dst). No-op without one. */
void gpu_g1_bases_prefetch_drop(gpu_g1_bases *b);

/* Flags for gpu_msm_g1 / gpu_msm_g2 and the gather forms. */
#define GPU_MSM_SCALARS_MONT 1u    /* scalars are Montgomery fr_t (converted on the device) */
#define GPU_MSM_SCALARS_DEVICE 2u  /* `scalars` (or the witness) is a device pointer (e.g. the H pipeline's output) */
#define GPU_MSM_NO_01_SPLIT 4u     /* treat 0 and 1 like any other scalar (for tests/benchmarks) */
#define GPU_MSM_NO_TASK_SORT 8u    /* no effect since the batch-affine accumulation (kept for old callers) */

/* Device bytes gpu_msm_g1 needs for its scratch at n points (window chosen from n, every scalar
 * general: the worst case), beyond the bases themselves. For memory budgeting. */
size_t gpu_msm_g1_scratch_size(size_t n);
/* The window width c (bits) used for n general scalars. */
unsigned gpu_msm_g1_window_bits(size_t n);

/* r = sum_{i<n} [scalars[i]] bases[first + i], first + n <= count.
 * scalars: n fr_t, plain canonical integers < r (as msm/msm.h) unless GPU_MSM_SCALARS_MONT; host
 * memory (pinned from gpu_host_alloc is fastest: the copy then overlaps the classification of the
 * previous chunk, and from 2^26 scalars on, when at most a quarter of the first half's are neither 0
 * nor 1, the first half of the points is summed while the second half's scalars are in flight)
 * unless GPU_MSM_SCALARS_DEVICE. Result: one Jacobian point in CPU layout (Z = 0
 * for infinity). n = 0 gives infinity. Algorithm (src/gpu/msm_core.cuh's opening comment): the 0/1
 * split (0 dropped, 1 summed in one extra bucket; GPU_MSM_NO_01_SPLIT turns it off), signed c-bit
 * windows with c chosen from the number of general scalars, items radix-sorted by bucket,
 * buckets summed in AFFINE coordinates by pairwise rounds whose additions share one inversion per
 * lane (Montgomery's trick), bucket reduction by segmented running sums, Horner over windows.
 * Scalars are not range-checked on the device: every canonical k < r works; a value >= 2^255 gives
 * a wrong result (the signed-digit recoding needs bit 255 clear), values in [r, 2^255) give [k]P.
 * Errors: PM_ERR_ARG (NULL, range), PM_ERR_NOMEM (device scratch), PM_ERR_GPU. */
pm_status gpu_msm_g1(g1_jac_t *r, const gpu_g1_bases *b, size_t first, const fr_t *scalars, size_t n,
                     unsigned flags, pm_error *err);

/* Density index lists for the gather forms (issue #13: Filecoin's A / B queries use the inputs and
 * the aux wires of the A / B density): n witness positions idx[i] (uint32, any order, repeats
 * allowed), uploaded once with the key. Errors: PM_ERR_ARG, PM_ERR_NOMEM, PM_ERR_GPU. */
typedef struct gpu_msm_index gpu_msm_index;
pm_status gpu_msm_index_upload(gpu_msm_index **out, const uint32_t *idx, size_t n, pm_error *err);
size_t gpu_msm_index_count(const gpu_msm_index *ix);
void gpu_msm_index_free(gpu_msm_index *ix);

/* r = sum_{i<m} [witness[idx[i]]] bases[first + i], m = gpu_msm_index_count(ix), first + m <= count:
 * the scalars are gathered on the device, so the host never compacts them per partition; the 0/1
 * split applies to the gathered values. witness: n_witness fr_t (plain, or Montgomery with
 * GPU_MSM_SCALARS_MONT), in host memory (uploaded whole by the call) or device memory with
 * GPU_MSM_SCALARS_DEVICE (e.g. from gpu_fr_buf_upload, uploaded once per partition and shared by
 * the A, B_G1, B_G2 MSMs). Errors as gpu_msm_g1, and PM_ERR_ARG when the largest index of ix is
 * >= n_witness (the index list records its maximum at upload). */
pm_status gpu_msm_g1_gather(g1_jac_t *r, const gpu_g1_bases *b, size_t first, const fr_t *witness, size_t n_witness,
                            const gpu_msm_index *ix, unsigned flags, pm_error *err);

/* A vector of n fr_t copied to the device once (a witness for the gather forms, or scalars for
 * GPU_MSM_SCALARS_DEVICE). gpu_fr_buf_device_ptr gives the device pointer. */
typedef struct gpu_fr_buf gpu_fr_buf;
pm_status gpu_fr_buf_upload(gpu_fr_buf **out, const fr_t *host, size_t n, pm_error *err);
const fr_t *gpu_fr_buf_device_ptr(const gpu_fr_buf *b);
void gpu_fr_buf_free(gpu_fr_buf *b);

/* Per-phase device times of the last MSM on a handle, in milliseconds (CUDA events), measured only
 * when the setting gpu.verbose or gpu.msm_times is on (reading them waits for every window group's
 * kernels); otherwise the times are 0 and the counts below are still filled. */
typedef struct {
    float upload_digits;   /* scalars in (copy, conversion, 0/1 classification) */
    float scan;            /* 0 (the counting sort is gone; kept for old callers) */
    float scatter;         /* digits, radix sort, bucket boundaries */
    float accumulate;      /* batch-affine bucket rounds */
    float reduce;          /* bucket reduction */
    float total;
    unsigned window_bits, windows;
    size_t ones, zeros; /* counts seen by the 0/1 split */
    size_t general;     /* scalars that went through the windows */
    unsigned rounds;    /* affine accumulation rounds (largest window group) */
    unsigned tail_levels; /* levels of the XYZZ tail after them (0: none) */
    unsigned chunks;    /* streamed bases: chunks (0 = resident) */
    size_t sent;        /* streamed bases: points copied to the device (fewer than n when a gathered MSM
                           left out the points of its zero scalars: gpu.msm_skip_zero) */
} gpu_msm_timing_t;
void gpu_msm_g1_last_timing(gpu_msm_timing_t *out, const gpu_g1_bases *b);

/* Batch fixed-base scalar multiplication (issue #13, Groth16 setup): out[i] = [k_i] P for one
 * base P and n scalars, on the device, results copied to host in the CPU affine layout
 * (infinity = (0, 0)). A handle holds the table of P (built once: signed w-bit comb, 2^(w-1) x
 * ceil(256/w) points; window_bits 0 = 16, i.e. 48 MiB for G1, 96 MiB for G2; 2..20 allowed).
 * scalars: plain canonical (< 2^255 works), or Montgomery with GPU_MSM_SCALARS_MONT; host memory
 * (streamed in batches of 2^22 on a second stream), or device memory with GPU_MSM_SCALARS_DEVICE.
 * out: host memory (pinned is fastest). Cost per G1 point: ceil(256/w) mixed XYZZ additions + a
 * batched normalisation, about 170 Fp products at w = 16 (docs/perf/gpu.md).
 * Errors: PM_ERR_ARG (NULL, window), PM_ERR_NOMEM, PM_ERR_GPU. */
typedef struct gpu_g1_fixed_base gpu_g1_fixed_base;
pm_status gpu_g1_fixed_base_create(gpu_g1_fixed_base **out, const g1_affine_t *base, unsigned window_bits, pm_error *err);
pm_status gpu_g1_fixed_base_mul(g1_affine_t *out, gpu_g1_fixed_base *fb, const fr_t *scalars, size_t n, unsigned flags,
                                pm_error *err);
void gpu_g1_fixed_base_free(gpu_g1_fixed_base *fb);

/* ---- G2 MSM and fixed base: the G1 contract over curve/g2.h (Fp2 coordinates, 192-byte affine
 * points g2_affine_t, Jacobian result g2_jac_t), same flags and errors. Batch-affine accumulation
 * costs 15 Fp products per addition (the shared inversion runs on norms in Fp). ---- */
typedef struct gpu_g2_bases gpu_g2_bases;
pm_status gpu_g2_bases_upload(gpu_g2_bases **out, const g2_affine_t *points, size_t n, pm_error *err);
pm_status gpu_g2_bases_from_scalars(gpu_g2_bases **out, const fr_t *t_plain, size_t n, pm_error *err);
pm_status gpu_g2_bases_host(gpu_g2_bases **out, const g2_affine_t *pinned_points, size_t n, size_t chunk_points,
                            size_t device_budget, pm_error *err);
size_t gpu_msm_g2_chunk_points(size_t device_budget);
pm_status gpu_g2_bases_download(g2_affine_t *out, size_t count, const gpu_g2_bases *b, size_t first, pm_error *err);
size_t gpu_g2_bases_count(const gpu_g2_bases *b);
void gpu_g2_bases_free(gpu_g2_bases *b);
void gpu_g2_bases_release_scratch(gpu_g2_bases *b);
pm_status gpu_g2_bases_set_chunk(gpu_g2_bases *b, size_t chunk_points, pm_error *err); /* as the G1 form */
/* as the G1 forms, with 192-byte affine G2 points */
pm_status gpu_g2_bases_prefetch(gpu_g2_bases *b, void *dst, size_t bytes, size_t *out_points, pm_error *err);
void gpu_g2_bases_prefetch_drop(gpu_g2_bases *b);
size_t gpu_msm_g2_scratch_size(size_t n);
unsigned gpu_msm_g2_window_bits(size_t n);
pm_status gpu_msm_g2(g2_jac_t *r, const gpu_g2_bases *b, size_t first, const fr_t *scalars, size_t n, unsigned flags,
                     pm_error *err);
pm_status gpu_msm_g2_gather(g2_jac_t *r, const gpu_g2_bases *b, size_t first, const fr_t *witness, size_t n_witness,
                            const gpu_msm_index *ix, unsigned flags, pm_error *err);
void gpu_msm_g2_last_timing(gpu_msm_timing_t *out, const gpu_g2_bases *b);
typedef struct gpu_g2_fixed_base gpu_g2_fixed_base;
pm_status gpu_g2_fixed_base_create(gpu_g2_fixed_base **out, const g2_affine_t *base, unsigned window_bits, pm_error *err);
pm_status gpu_g2_fixed_base_mul(g2_affine_t *out, gpu_g2_fixed_base *fb, const fr_t *scalars, size_t n, unsigned flags,
                                pm_error *err);
void gpu_g2_fixed_base_free(gpu_g2_fixed_base *fb);

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

/* Device bytes of a domain of 2^log_n: the twiddle table (n/2), the scale tables and `buffers`
 * work buffers of n elements (gpu_ntt uses 1; the H pipelines 3, or 2 for gpu_bellperson_h_r1cs). */
size_t gpu_ntt_domain_device_bytes(unsigned log_n, int buffers);
/* The domain's three device work buffers of n = 2^log_n fr_t each (allocated on the first call,
 * owned by d, valid until gpu_ntt_domain_free; buffer 0 is also gpu_ntt's copy of its data, so a
 * gpu_ntt call overwrites it). Where the SpMV writes a, b, c for gpu_bellperson_h.
 * Errors: PM_ERR_NOMEM (device), PM_ERR_ARG. */
pm_status gpu_ntt_domain_buffers(void *bufs[3], gpu_ntt_domain *d, pm_error *err);
/* Wait until every kernel and copy queued on the domain's stream has finished (before another stream
 * writes its buffers). Errors: PM_ERR_GPU (a failed kernel's error). d NULL: PM_OK. */
pm_status gpu_ntt_domain_sync(gpu_ntt_domain *d, pm_error *err);
/* The buffer (0..2) holding the coefficients of the domain's last H (bellperson: where
 * gpu_bellperson_h* left them; snarkjs: 1), the one an H MSM reads; 0 before any. A preload
 * (gpu_bellperson_h_preload) never writes it. */
int gpu_ntt_domain_h_buffer(const gpu_ntt_domain *d);
/* The token of the domain's preload, 0 when it holds none. */
uint64_t gpu_ntt_domain_preload_token(const gpu_ntt_domain *d);
/* Drop the domain's preload (token 0: whichever it holds; else only that token's): waits until its
 * copies have landed, so that the host arrays it reads may change again. Returns 1 when one was
 * dropped, 0 when there was none (or another token's). Every operation of this header that writes
 * the domain's buffers does the same first (gpu_ntt, gpu_ntt_domain_buffers, the H phases), except
 * gpu_bellperson_h_upload_preloaded with the preload's own token, which reads it. */
int gpu_ntt_domain_preload_drop(gpu_ntt_domain *d, uint64_t token);

/* ---- device memory (plain helpers for the callers of the device-pointer functions) ---- */
/* cudaMalloc of bytes (PM_ERR_NOMEM when refused); gpu_dev_free(NULL) is a no-op. */
pm_status gpu_dev_alloc(void **out, size_t bytes, pm_error *err);
void gpu_dev_free(void *p);
/* Synchronous copies host <-> device (any host memory; pinned is faster). Errors: PM_ERR_ARG (a NULL
 * pointer with bytes > 0), PM_ERR_GPU / PM_ERR_NOMEM (CUDA's error). gpu_copy_to_device takes a
 * pageable source of 32 MiB or more through two pinned 64 MiB staging buffers of the current device
 * (made at its first such copy, kept for the process; eight threads copy chunk i + 1 while the DMA
 * sends chunk i: ~4x the driver's pageable rate, e.g. the a, b, c of device-memory tiers 2-5), or
 * directly when the driver refuses the staging buffers; gpu_copy_from_device takes a pageable
 * destination of 32 MiB or more back through the same pair (the DMA of chunk i + 1 while the threads
 * copy chunk i out); device_memory.cu. Pinned host memory goes directly, at the bus's pinned rate,
 * in copies cut at multiples of GPU_HOST_PIECE_BYTES, so a buffer from gpu_host_alloc_pieces (the
 * pinned a, b, c pool of tiers 2-5, start.h groth16_abc_pool) may be passed whole. */
pm_status gpu_copy_to_device(void *dst_dev, const void *src, size_t bytes, pm_error *err);
pm_status gpu_copy_from_device(void *dst, const void *src_dev, size_t bytes, pm_error *err);

/* ---- the bellperson H phase on the device ----
 *
 * Exactly prover_bellperson.c's H (bellman / bellperson groth16 prover; ntt/ntt.h ntt_bellperson_h on
 * the CPU): with g = 7 (fr_multiplicative_generator) and the domain's roots from 7,
 *   for X in {a, b, c}: X = iNTT(X), X[k] *= g^k, X = NTT(X)   (evaluations on the coset g<omega>)
 *   t = (A * B - C) * (g^n - 1)^-1;  t = iNTT(t), t[k] *= g^-k    (coefficients of H)
 * and the check that coefficient n - 1 is zero (it is for any satisfying witness: deg H <= n - 2).
 * The same bytes in 6 transforms: C never goes to the coset, since the coset iNTT undoes the coset
 * NTT exactly (icoset((A^B^ - C^) z) = z icoset(A^B^) - z iNTT(c), any input).
 * Realisation (h_pipeline.cu, ntt_core.cuh seq_bellperson_h): DIF passes leave bit-reversed
 * coefficients, the scale n^-1 g^rev(i) is fused into their last pass, DIT passes give
 * natural-order coset values, B's last pass storing
 * A^*B^ into A; then DIF(A^B^) (last pass scaled by g^-rev(i)) and DIF(c) (last pass storing the
 * difference into A), and a tiled bit reversal scaled by the constant (g^n - 1)^-1 n^-1 with
 * from-Montgomery folded in puts the coefficients in natural order as plain integers. At 2^27:
 * 2 * (3 + 3) + 3 + 3 passes + 1 bit reversal. Cost: 6 * (n/2 log n - ~n) multiplications +
 * ~8n of scaling and pointwise.
 *
 * gpu_bellperson_h: a_dev, b_dev, c_dev: n = d->n Montgomery evaluations each on the device
 * (a = A.w, b = B.w, c = C.w on the rows, zero-padded: e.g. from gpu_r1cs_spmv into the buffers of
 * gpu_ntt_domain_buffers), all three DESTROYED; on return a_dev holds the n coefficients of H as
 * plain canonical integers (fr_t limbs, not Montgomery), the first n - 1 of which are the scalars of
 * the H MSM (gpu_msm_g1 with GPU_MSM_SCALARS_DEVICE) and the last zero. Device memory: the three
 * inputs, nothing else. d must use generator 7. Errors: PM_ERR_ARG (n != d->n, generator),
 * PM_ERR_UNSATISFIED ("H has degree n - 1": coefficient n - 1 is not zero, the witness does not
 * satisfy the circuit; a_dev still holds the coefficients), PM_ERR_GPU. */
pm_status gpu_bellperson_h(void *a_dev, void *b_dev, void *c_dev, size_t n, gpu_ntt_domain *d, pm_error *err);
/* The same from host arrays a, b, c (n = d->n Montgomery evaluations each, read only) into d's three
 * work buffers, the bus overlapped with the transforms where it can be: when all three arrays are
 * page-locked (gpu_host_alloc_pieces, the pinned a, b, c pool of device-memory tiers 2-3) they are
 * queued on a copy stream of their own and the sequence waits for each buffer only before its first
 * read, so A's two networks run while b and c are on the bus and B's while c is (at 2^27: 12 GiB, ~0.27 s
 * of bus at ~47 GB/s, of which ~0.15 s hide under the transforms); pageable arrays are copied one after
 * another (gpu_copy_to_device) before the sequence. c NULL: c = a o b, formed on the device (a copied
 * into C's buffer before A's transforms, multiplied by b once b has landed): right only where every
 * row is satisfied, a . b = c on the rows and zero past them (the CPU eval checks every row:
 * groth16/start_cpu.c), and 4 GiB less over the bus at 2^27. The same bytes as gpu_bellperson_h. On PM_OK *h_dev
 * is the domain's buffer 0 holding the coefficients as gpu_bellperson_h leaves them in a_dev (valid
 * until the domain's next use). Every copy has landed on return, whatever the status; a preload the
 * domain held is dropped first. Errors:
 * PM_ERR_ARG (NULL a or b, n != d->n, generator), PM_ERR_UNSATISFIED (coefficient n - 1 not zero; *h_dev
 * stays NULL, buffer 0 holds the coefficients), PM_ERR_NOMEM (the buffers), PM_ERR_GPU. */
pm_status gpu_bellperson_h_upload(void **h_dev, const fr_t *a, const fr_t *b, const fr_t *c, size_t n, gpu_ntt_domain *d,
                                  pm_error *err);
/* The next H's a and b sent early, into the domain's idle buffers (device-memory tiers 2-3, setting
 * gpu.h_preload): copies of the host arrays a and b (n = d->n fr_t each, Montgomery, as
 * gpu_bellperson_h_upload takes them; page-locked, e.g. the pinned a, b, c pool) into the two
 * buffers that are NOT gpu_ntt_domain_h_buffer(d), so an H MSM still reading the last H's
 * coefficients is untouched. They are queued on a copy stream of the domain's own, cut at the 64 MiB
 * pieces of the host allocation (other streams' copies interleave with them), after the work queued
 * on the domain's stream so far,
 * and tagged with token. The call returns at once; a later gpu_bellperson_h_upload_preloaded with the same token
 * reads a and b from there instead of copying them. At most one preload per domain. The host arrays
 * must stay unchanged until that call or gpu_ntt_domain_preload_drop. Device memory: none added (the
 * domain's three buffers). The current device is kept. Errors: PM_ERR_ARG (NULL, n != d->n, token 0,
 * arrays not page-locked, a preload already held: nothing queued), PM_ERR_NOMEM (a buffer), PM_ERR_GPU
 * (nothing left in flight). */
pm_status gpu_bellperson_h_preload(gpu_ntt_domain *d, const fr_t *a, const fr_t *b, size_t n, uint64_t token,
                                   pm_error *err);
/* gpu_bellperson_h_upload where a and b may have been preloaded: when the domain holds the preload of
 * `token` (not 0), a and b (the same arrays, unchanged, as at gpu_bellperson_h_preload) are not
 * copied again; the sequence waits for the preload's copies, c (or c = a o b where c is NULL) goes
 * into the third buffer, and the coefficients come out in a's preloaded buffer, which *h_dev names and
 * gpu_ntt_domain_h_buffer then gives. Any other preload is dropped first (its copies landed) and the
 * upload is gpu_bellperson_h_upload's. The preload is used up on every return. Same bytes, statuses
 * and errors as gpu_bellperson_h_upload (on PM_ERR_UNSATISFIED the coefficients are in buffer
 * gpu_ntt_domain_h_buffer(d)). */
pm_status gpu_bellperson_h_upload_preloaded(void **h_dev, const fr_t *a, const fr_t *b, const fr_t *c, size_t n,
                                            gpu_ntt_domain *d, uint64_t token, pm_error *err);
/* gpu_bellperson_h_upload with c given (not NULL), the result copied to h: n plain values, h[n - 1] = 0
 * on PM_OK; on PM_ERR_UNSATISFIED h holds all n coefficients (the top one not zero). h may alias a, b
 * or c. For tests and benchmarks. */
pm_status gpu_bellperson_h_host(fr_t *h, const fr_t *a, const fr_t *b, const fr_t *c, size_t n, gpu_ntt_domain *d,
                                pm_error *err);

/* The same H through ONE device buffer (the domain's buffer 0) for a card without room for three
 * (device-memory tier 4, groth16/devplan.h: a 16 GB card at 2^27): a, b, c are n = d->n Montgomery
 * evaluations each in HOST memory (e.g. the CPU SpMV's); they go up in turn, the coset values A^ come
 * back down into a's array and D = DIF(A^ B^) scaled by g^-rev(i) (bit-reversed order) into b's,
 * and the two products the three-buffer form fuses into stores (A^ B^, D - DIF(c)) run on the device
 * in chunks of chunk_n elements read back from those arrays (ntt_core.cuh seq_bellperson_h_one:
 * the same networks and operand order, so the same bytes as gpu_bellperson_h). a and b are
 * OVERWRITTEN; c is read. Bytes over the bus: 7 n 32 (5 up, 2 down; at 2^27 30 GB, pageable host
 * arrays staged through pinned memory by gpu_copy_to/from_device). With page-locked a, b, c (the
 * pinned pool) and setting gpu.h_swap, each of the two downs runs beside the next up, piece by
 * piece on two streams (A^ down while b comes up, D down while c does): the link's two directions
 * at once (gpu.verbose says so, once per call). Device memory: the domain with one buffer and a
 * chunk buffer of chunk_n * 32 bytes (made at the first call, kept by d). On return *h_dev is the
 * domain's buffer 0 holding the coefficients as gpu_bellperson_h leaves them in a_dev (valid until
 * the domain's next use). Errors: PM_ERR_ARG (NULL, n != d->n, chunk_n = 0, overlapping arrays,
 * generator), PM_ERR_NOMEM (the chunk buffer), PM_ERR_UNSATISFIED (coefficient n - 1 not zero;
 * *h_dev stays NULL), PM_ERR_GPU. */
pm_status gpu_bellperson_h_one(void **h_dev, fr_t *a, fr_t *b, const fr_t *c, size_t n, size_t chunk_n,
                               gpu_ntt_domain *d, pm_error *err);

/* ---- R1CS on the device: recorded matrices resident, SpMV a = A.w, b = B.w, c = C.w ----
 *
 * gpu_r1cs_upload copies the three CSR matrices of cs (r1cs.h: dictionary-coded as a .csr v2 file
 * holds them, or with full coefficients as a circom .r1cs) to the current device once (e.g. per
 * proving key): row pointers as u32 when nnz < 2^32 (else u64), columns u32, coefficient indices
 * u32 + the shared dictionary (or 32-byte coefficients), plus the list of rows with more than 32
 * terms in any matrix (a warp each; the others take a thread each). At a 32 GiB PoRep partition
 * (130 M rows, 722 M terms): 5.8 GB of terms + 1.6 GB of row pointers. cs may be freed afterwards.
 * The handle is read-only after the upload: any number of threads may use it at once, each with
 * its own gpu_witness (which holds the per-call stream and scratch).
 * Errors: PM_ERR_NOMEM (device), PM_ERR_ARG (malformed sizes), PM_ERR_GPU. */
typedef struct gpu_r1cs gpu_r1cs;
size_t gpu_r1cs_device_bytes(const r1cs_t *cs);
pm_status gpu_r1cs_upload(gpu_r1cs **out, const r1cs_t *cs, pm_error *err);
void gpu_r1cs_free(gpu_r1cs *g); /* NULL is a no-op */
uint32_t gpu_r1cs_rows(const gpu_r1cs *g);
uint32_t gpu_r1cs_wires(const gpu_r1cs *g);

/* Witness slots (one per GPU worker): two device buffers of n_w fr_t for double buffering, plus the
 * SpMV's stream and scratch. A slot is filled by an asynchronous copy on the slots' own stream:
 * gpu_witness_upload_async returns at once (with pinned host memory
 * from gpu_host_alloc or gpu_host_alloc_pieces, at the buffer's start; pageable memory makes it
 * synchronous) and records the slot's event, which
 * gpu_r1cs_spmv waits on (on the device). Before overwriting a slot the copy waits (on the device)
 * for the last SpMV that read it. Use: upload partition k+1 into slot (k+1)%2 while partition k's
 * kernels run; the host buffer must stay untouched until gpu_witness_wait(slot) or the SpMV that
 * reads the slot has returned. Errors: PM_ERR_NOMEM, PM_ERR_ARG (slot > 1, n_w too large), PM_ERR_GPU. */
typedef struct gpu_witness gpu_witness;
pm_status gpu_witness_init(gpu_witness **out, size_t n_w, pm_error *err);
/* The same with 1 or 2 slots (a card whose device-memory plan keeps one witness slot: devplan.h).
 * Errors as gpu_witness_init, PM_ERR_ARG for another count; uploads to a slot >= slots: PM_ERR_ARG. */
pm_status gpu_witness_init_slots(gpu_witness **out, size_t n_w, unsigned slots, pm_error *err);
void gpu_witness_free(gpu_witness *w); /* NULL is a no-op */
pm_status gpu_witness_upload_async(gpu_witness *w, unsigned slot, const fr_t *host_w, size_t n_w, pm_error *err);
pm_status gpu_witness_wait(gpu_witness *w, unsigned slot, pm_error *err); /* host waits for the copy */
/* Device pointer of a slot (n_w Montgomery fr_t); the last upload time (set by gpu_witness_wait)
 * and the last gpu_r1cs_spmv's device time through w, in ms (CUDA events). */
const void *gpu_witness_device(const gpu_witness *w, unsigned slot);
float gpu_witness_last_upload_ms(const gpu_witness *w);
float gpu_witness_last_spmv_ms(const gpu_witness *w);

/* a = A.w, b = B.w, c = C.w on the device, the same bytes as r1cs_spmv (Montgomery, canonical).
 * a_dev, b_dev, c_dev: device buffers of n_out >= rows + a_inputs elements, any may be NULL (not
 * written); rows [rows, n_out) are zero except a[rows + i] = w[i] for i < a_inputs (bellman's input
 * constraints, one per public input with A = that wire, as prover_bellperson.c pads a). w: slot of
 * ws with n_w = wires values (waited for on the device); the kernels run on ws's SpMV stream.
 * first_bad: when non-NULL, every row k < rows is checked a_k * b_k = c_k (the products not
 * written are still computed) and *first_bad
 * gets the lowest failing row (UINT32_MAX when all hold): the error is then PM_ERR_UNSATISFIED
 * ("constraint K of N not satisfied", as r1cs_check_satisfied), outputs still written.
 * Synchronous (returns when the kernels are done). Cost at 32 GiB (722 M terms, 31 % of them a
 * multiplication): ~23 GB of witness gathers + 7.4 GB of matrix + 12.9 GB of outputs; see
 * docs/perf/gpu.md. Errors: PM_ERR_ARG, PM_ERR_MISMATCH (n_w), PM_ERR_UNSATISFIED, PM_ERR_GPU. */
pm_status gpu_r1cs_spmv(void *a_dev, void *b_dev, void *c_dev, size_t n_out, uint32_t a_inputs, const gpu_r1cs *g,
                        gpu_witness *ws, unsigned slot, size_t n_w, uint32_t *first_bad, pm_error *err);

/* The bellperson H straight from the witness with two work buffers instead of three (peak device
 * memory 2n fr_t besides the matrices, witness and domain tables): a = A.w and b = B.w into d's
 * buffers 0 and 1, every constraint checked (C.w formed on the fly), a and b to the coset, a = A*B,
 * then c = C.w into buffer 1, c to the coset, and the final iNTT of a - c as gpu_bellperson_h.
 * Same result (in buffer 0, *h_dev points at it) and errors as gpu_r1cs_spmv + gpu_bellperson_h;
 * n_out = d->n >= rows + a_inputs. The C SpMV runs twice (check and product): +1/3 of the SpMV. */
pm_status gpu_bellperson_h_r1cs(void **h_dev, gpu_ntt_domain *d, uint32_t a_inputs, const gpu_r1cs *g,
                                gpu_witness *ws, unsigned slot, size_t n_w, uint32_t *first_bad, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
