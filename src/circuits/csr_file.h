/*
 * csr_file.h — a recorded constraint system (r1cs.h CSR matrices A, B, C) with its input count and
 * bellperson's density bitmaps, saved once to disk and memory-mapped for every later proof.
 *
 * File layout ("PMCSR" v1 and v2; all integers little-endian; every array starts at a multiple of
 * 64):
 *   header (128 bytes): magic "PMCSR\0v1" (8), u32 version (1 or 2), u32 n_rows (circuit
 *     constraints, bellperson's input rows not included), u32 n_cols (= n_inputs + n_aux), u32
 *     n_inputs (ONE included), u64 nnz_A, nnz_B, nnz_C, u64 tag (caller's shape identifier, e.g.
 *     sector size), u32 n_coef_tab (v2; 0 in v1) at offset 56, zero padding;
 *   for A, B, C in turn: row_ptr (n_rows + 1) u64, col (nnz) u32, then
 *     v1: coef (nnz) × 32 bytes = fr_t Montgomery limbs (r1cs.h layout);
 *     v2: coef_idx (nnz) u32, indices into the coefficient table;
 *   v2 only: the coefficient table, n_coef_tab × 32 bytes (fr_t Montgomery), shared by A, B, C;
 *   density: a_aux, b_input, b_aux bitmaps, ceil(bits/64) u64 words each (bit j of word j/64).
 * pm_csr_save writes v2 for dictionary-coded matrices (what pm_cs_finish records: a 32 GiB PoRep
 * partition's 722 M terms take 8 bytes each, ~9 GB with row pointers, instead of ~29 GB in v1)
 * and v1 for matrices with full coefficients (e.g. a circom .r1cs). Both are read.
 * Density (bellperson prover/native.rs): an aux variable is set in a_aux (b_aux) when some A (B)
 * term has it with a non-zero coefficient; b_input likewise over inputs. Inputs are dense in A.
 *
 * Loading maps the file read-only (MAP_PRIVATE) and checks the header against the file size,
 * every row_ptr (monotone, ending at nnz), every column (< n_cols), every coefficient (< r; in v2
 * every table entry < r and every index < n_coef_tab), that the file ends right after the
 * bitmaps and that the bitmaps are the density of the matrices (bits past the end zero), so
 * a truncated or hostile file is refused (PM_ERR_FORMAT / PM_ERR_ENCODING naming the offset)
 * before an SpMV can read out of bounds or a prover trust a wrong bitmap. Loading 2 KiB's 15 M
 * terms takes well under a second (0.05 s, a third of it the density check).
 */
#ifndef PROOFMILL_CIRCUITS_CSR_FILE_H
#define PROOFMILL_CIRCUITS_CSR_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "r1cs/r1cs.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    r1cs_t cs;                /* matrices point into the mapping (or own memory when computed) */
    uint32_t n_inputs;
    uint64_t tag;
    const uint64_t *a_aux_density, *b_input_density, *b_aux_density;
    void *map;                /* mapping (pm_csr_close unmaps), NULL when not mapped */
    size_t map_len;
    uint64_t *owned_density;  /* density computed in memory (pm_csr_density) */
    int guard;                /* the mapping's slot in the SIGBUS guard (util/file.h), 0 = none */
    char path[512];           /* the mapped file, for pm_csr_settle */
} pm_csr_t;

/* Density bitmaps of cs (n_inputs inputs first, then aux columns): *out receives one malloc'd
 * array of 3 bitmaps back to back (a_aux, b_input, b_aux; sizes as in the file comment); the
 * pointers are set into it. Errors: PM_ERR_NOMEM, PM_ERR_ARG (n_inputs > n_wires). */
pm_status pm_csr_density(uint64_t **out, const uint64_t **a_aux, const uint64_t **b_input,
                         const uint64_t **b_aux, const r1cs_t *cs, uint32_t n_inputs, pm_error *err);

/* Write cs (with n_inputs and tag; density computed here) to path, atomically (temp + rename):
 * v2 when its matrices are dictionary-coded, v1 when they hold full coefficients.
 * Errors: PM_ERR_IO (names the path), PM_ERR_NOMEM, PM_ERR_ARG (matrices mixing the two codings
 * or using different tables). */
pm_status pm_csr_save(const char *path, const r1cs_t *cs, uint32_t n_inputs, uint64_t tag, pm_error *err);

/* Map path and check it (file comment). On success *f owns the mapping (pm_csr_close).
 * Errors: PM_ERR_IO (also a directory, FIFO or device: refused without waiting for a writer),
 * PM_ERR_FORMAT (magic, version, sizes, row_ptr, column, coefficient index, trailing bytes,
 * density; offset named), PM_ERR_ENCODING (a coefficient >= r), PM_ERR_NOMEM. On error *f is
 * zeroed. */
pm_status pm_csr_open(pm_csr_t *f, const char *path, pm_error *err);
void pm_csr_close(pm_csr_t *f);
/* st unchanged unless the mapped file shrank under the mapping since pm_csr_open (util/file.h's
 * SIGBUS guard absorbed a read past its new end: the matrices now hold zero pages); then PM_ERR_IO
 * naming the file ("the file changed while it was read ..."), and every later call says so too:
 * the circuit must be opened again. PM_OK-preserving for a circuit held in memory. Provers call it
 * after each use of the matrices (util/file.h pm_map_guard_settle). */
pm_status pm_csr_settle(const pm_csr_t *f, pm_status st, pm_error *err);

/* A .csr file's header, read without mapping or checking the matrices (a 32 GiB PoRep circuit is
 * 9 GB): the counts as the file comment gives them. */
typedef struct {
    uint32_t version;         /* 1 (full coefficients) or 2 (dictionary-coded, one shared table) */
    uint32_t n_rows, n_cols, n_inputs;
    uint64_t nnz[3];          /* A, B, C */
    uint64_t tag;
    uint32_t n_coef_tab;      /* v2: the table's entries; 0 in v1 */
} pm_csr_header_t;
/* Bytes of the .csr file with header h (the file comment's layout; version, n_rows, n_cols,
 * n_inputs, nnz, n_coef_tab used). Counts must be below 2^48 (no overflow check). */
uint64_t pm_csr_file_bytes(const pm_csr_header_t *h);
/* Read path's header into *h and check it: magic, version, the sizes (n_inputs in 1..n_cols, v1
 * without a table) and that the file's size is exactly what the counts say (pm_csr_open's layout),
 * so a truncated or foreign file is refused. The matrices themselves are not read (pm_csr_open
 * checks them). Errors: PM_ERR_IO (also not a regular file), PM_ERR_FORMAT naming path and offset.
 * On error *h is zeroed. */
pm_status pm_csr_read_header(pm_csr_header_t *h, const char *path, pm_error *err);

/* Check that an opened file f (path names it in the error) is the circuit the caller is about to
 * use: tag (PoRep: the sector size in bytes, as circuit-record and params-setup write it),
 * n_wires columns and n_inputs inputs (ONE included), before anything is sized from the file.
 * Errors: PM_ERR_MISMATCH naming the file and both shapes. */
pm_status pm_csr_expect(const pm_csr_t *f, const char *path, uint64_t tag, uint64_t n_wires, uint32_t n_inputs,
                        pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
