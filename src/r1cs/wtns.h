/*
 * wtns.h — the circom/snarkjs witness file (.wtns, version 2) for BLS12-381.
 *
 * File layout (source: iden3/circom_runtime calculateWTNSBin, snarkjs src/wtns_utils.js
 * readHeader/read; ../shared/fixtures/FORMATS.md "## .wtns"): the binfileutils container with magic
 * "wtns", version 2, section 1 = n8 u32 | prime[n8] LE | nWitness u32 (40 bytes when n8 = 32),
 * section 2 = nWitness values of n8 bytes each, each the PLAIN (non-Montgomery) integer,
 * little-endian, in [0, r). w[0] = 1, w[1..nPublic] = the public signals.
 *
 * In memory: wtns_t.values are fr_t in MONTGOMERY form (field/fr.h), converted on load, so they
 * feed r1cs_spmv / zkey_eval_ab directly. MSMs need plain scalars: call fr_from_mont per value.
 */
#ifndef PROOFMILL_R1CS_WTNS_H
#define PROOFMILL_R1CS_WTNS_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t n_values; /* nWitness */
    fr_t *values;      /* n_values elements, Montgomery form, heap (wtns_free) */
} wtns_t;

/* Read a .wtns file (mapped; the map is released before returning).
 * Checks: magic "wtns", version 2, sections 1 and 2 present and unique; section 1 exactly
 * 4 + n8 + 4 bytes; n8 = 32 (else PM_ERR_CURVE naming n8); prime = BLS12-381 r (BN254's r gives
 * PM_ERR_CURVE "bn128 is not supported yet"; anything else PM_ERR_CURVE "unknown prime");
 * section 2 exactly nWitness * 32 bytes (PM_ERR_FORMAT); every value < r (PM_ERR_ENCODING
 * "witness value i is not canonical (>= r)" at the value's offset).
 * Errors: PM_ERR_IO, PM_ERR_FORMAT, PM_ERR_ENCODING, PM_ERR_CURVE, PM_ERR_NOMEM.
 * On error *w is zeroed (wtns_free is safe). */
pm_status wtns_read(wtns_t *w, const char *path, pm_error *err);
/* The same from a memory image (size bytes; name labels errors). */
pm_status wtns_read_memory(wtns_t *w, const void *data, size_t size, const char *name,
                           pm_error *err);
/* Header-only: nWitness of a .wtns file (or memory image), with every check of wtns_read except the
 * per-value canonicity one (magic, version, n8, prime, section 2 size = nWitness * 32). For
 * schedulers that size memory before loading. Errors as wtns_read; *n_values = 0 on error. */
pm_status wtns_read_info(uint32_t *n_values, const char *path, pm_error *err);
pm_status wtns_read_info_memory(uint32_t *n_values, const void *data, size_t size, const char *name,
                                pm_error *err);
/* Free values and zero *w. Accepts a zeroed struct. */
void wtns_free(wtns_t *w);

#ifdef __cplusplus
}
#endif
#endif
