/*
 * params.h — bellperson / Filecoin Groth16 parameter files for BLS12-381: the verifying key
 * (.vk) and the full parameter set (.params), read (mmap, parallel decode) and written.
 *
 * Layout (bellperson src/groth16/params.rs Parameters::write, verifying_key.rs
 * VerifyingKey::write; ../shared/filecoin/POREP.md §7). Every point is ZCash/IETF UNCOMPRESSED
 * (curve/encoding.h: big-endian Fp, G2 c1 before c0, flag bits in byte 0; G1 96 bytes, G2 192):
 *   .vk     : alpha_g1 G1 | beta_g1 G1 | beta_g2 G2 | gamma_g2 G2 | delta_g1 G1 | delta_g2 G2 |
 *             u32 BE n_ic | n_ic G1 (ic)                      = 4 + 672 + 96 n_ic bytes
 *   .params : the .vk bytes, then five vectors, each u32 BE count + that many points:
 *             h (G1, m - 1 points: tau^i Z(tau)/delta), l (G1, one per aux wire),
 *             a (G1), b_g1 (G1), b_g2 (G2) (A/B polynomials at tau, points at infinity dropped).
 * bellperson's reader refuses a point at infinity anywhere in the five vectors and in ic; so do
 * we (PM_ERR_FORMAT "point at infinity"). The vk points themselves may not be infinity either.
 *
 * Checks on read, in order: the file is at least as long as each count requires BEFORE anything
 * is allocated (PM_ERR_FORMAT "truncated: vector l declares 7 points (672 bytes) at offset X,
 * file has Y bytes left"); no trailing bytes; every point's flags valid and coordinates < p
 * (PM_ERR_ENCODING: the uncompressed encoding must have the compression bit 0 and the sort bit 0),
 * on its curve (PM_ERR_NOT_ON_CURVE) and, with BP_PARAMS_CHECK_SUBGROUP, in the order-r subgroup
 * (PM_ERR_NOT_IN_SUBGROUP). Every error names the file and the absolute byte offset of the point
 * or count at fault. Cost (docs/perf/params.md, 16 cores): the default decode (big-endian ->
 * Montgomery, flags, < p, on-curve: ~2 Fp multiplications per coordinate) loads at 3.3-3.6 GB/s,
 * 2.2-2.6x the time of `cat` of the same file from the page cache; the subgroup test (an
 * endomorphism check costing a ~64-bit scalar multiplication per point, ~3x more in G2) makes the
 * load 140x slower (0.025 GB/s), hence the flag. Decoding runs on the OpenMP team, in chunks per vector.
 *
 * In memory: affine points in Montgomery form (curve/g1.h, g2.h).
 */
#ifndef PROOFMILL_GROTH16_PARAMS_H
#define PROOFMILL_GROTH16_PARAMS_H
#include <stddef.h>
#include <stdint.h>
#include "curve/g1.h"
#include "curve/g2.h"
#include "groth16/proof.h"
#include "util/error.h"
#ifdef __cplusplus
extern "C" {
#endif

/* bellperson VerifyingKey. */
typedef struct {
    g1_affine_t alpha_g1, beta_g1, delta_g1;
    g2_affine_t beta_g2, gamma_g2, delta_g2;
    size_t n_ic;     /* = num_inputs (the ONE wire + public inputs) */
    g1_affine_t *ic; /* n_ic points, owned */
} bp_vk_t;

/* bellperson Parameters. */
typedef struct {
    bp_vk_t vk;
    size_t n_h, n_l, n_a, n_b_g1, n_b_g2;
    g1_affine_t *h, *l, *a, *b_g1; /* owned */
    g2_affine_t *b_g2;             /* owned */
} bp_params_t;

/* Read flags. */
enum {
    BP_PARAMS_CHECK_SUBGROUP = 1u << 0, /* subgroup test on every point (slow; see file comment) */
    BP_PARAMS_VK_ONLY = 1u << 1         /* .params: stop after the vk (the vectors are still
                                           bounds-checked by their counts, not decoded) */
};

/* Bytes of the .vk encoding for n_ic IC points. */
uint64_t params_vk_size(size_t n_ic);
/* Bytes of the .params encoding for the given counts. */
uint64_t params_size(size_t n_ic, size_t n_h, size_t n_l, size_t n_a, size_t n_b_g1,
                        size_t n_b_g2);

/* Read a .vk / .params file (mmap; unmapped before returning; a .params's pages leave the RSS as their
 * points are decoded, so the peak is the decoded points, not twice the file). flags: BP_PARAMS_* bits.
 * Errors: PM_ERR_IO, PM_ERR_FORMAT, PM_ERR_ENCODING, PM_ERR_NOT_ON_CURVE, PM_ERR_NOT_IN_SUBGROUP,
 * PM_ERR_NOMEM, each with the file and absolute offset. On error the output is zeroed
 * (bp_*_free is safe). */
pm_status params_vk_read(bp_vk_t *vk, const char *path, unsigned flags, pm_error *err);
pm_status params_read(bp_params_t *p, const char *path, unsigned flags, pm_error *err);
/* The same from a memory image (size bytes; name labels errors). */
pm_status params_vk_read_memory(bp_vk_t *vk, const void *data, size_t size, const char *name,
                            unsigned flags, pm_error *err);
pm_status params_read_memory(bp_params_t *p, const void *data, size_t size, const char *name,
                                unsigned flags, pm_error *err);

/* Encode into out (exactly params_vk_size / params_size bytes; PM_ERR_ARG otherwise). Points are
 * encoded in parallel. Counts above UINT32_MAX give PM_ERR_ARG. */
pm_status params_vk_encode(uint8_t *out, size_t out_len, const bp_vk_t *vk, pm_error *err);
pm_status params_encode(uint8_t *out, size_t out_len, const bp_params_t *p, pm_error *err);
/* Write to path (created/truncated; written through a temporary mmap of the output file).
 * The file's blocks are reserved (posix_fallocate) before any point is encoded, so a full disk or a
 * file-size limit is PM_ERR_IO naming the path and the size, not a SIGBUS mid-write; a failed write
 * leaves no file at path (the temporary beside it is removed).
 * Errors: PM_ERR_IO, PM_ERR_ARG, PM_ERR_NOMEM. */
pm_status params_vk_write(const char *path, const bp_vk_t *vk, pm_error *err);
pm_status params_write(const char *path, const bp_params_t *p, pm_error *err);

/* The counts of a .params file without decoding any point (for schedulers sizing a job before
 * loading its key): the vk's IC count and the five vector counts, each checked to fit the file, and
 * the file's size, which must be exactly what the counts say. Errors: PM_ERR_IO, PM_ERR_FORMAT
 * ("truncated: count i missing", "file size X differs from its counts") naming path and offset. */
typedef struct {
    uint64_t n_ic, n_h, n_l, n_a, n_b_g1, n_b_g2;
    uint64_t file_bytes;
} bp_params_counts_t;
pm_status params_read_counts(bp_params_counts_t *c, const char *path, pm_error *err);
/* The memory params_read holds beyond the decoded points while it runs, in bytes, for a .params of
 * the counts *c (params_read_counts; file_bytes and n_ic used): the mapped pages of the chunks being
 * decoded (one chunk of 4096 points, at most 4096 x 192 bytes + 2 pages, per decoding thread:
 * pm_thread_count() now), the page each chunk shares with the next until its vector is done (one
 * per 4096 x 96 bytes of file), the vk's IC points and the header; never more than the file. For
 * memory budgets (prove.h key_load_bytes): a 32 GiB PoRep .params of 47.4 GB costs ~0.5 GB on 16
 * threads with 4 KiB pages, not the file (its pages are given back as they are decoded). */
uint64_t params_read_extra_bytes(const bp_params_counts_t *c);

void params_vk_free(bp_vk_t *vk);
void params_free(bp_params_t *p);

/* A snarkjs-style verification key view of vk for groth16_verify (verifier.h): alpha_1,
 * beta_2, gamma_2, delta_2, ic copied; n_public = n_ic - 1. Errors: PM_ERR_NOMEM, PM_ERR_FORMAT
 * when n_ic = 0. Free with groth16_vk_free. */
pm_status params_vk_to_groth16_vk(groth16_vk_t *out, const bp_vk_t *vk, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
