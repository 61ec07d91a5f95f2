/*
 * wtns.c — circom .wtns (version 2) reader (contract in wtns.h).
 * Facts from iden3/circom_runtime (calculateWTNSBin writes the file) and snarkjs src/wtns_utils.js
 * (readHeader: n8, q, nWitness); restated in ../shared/fixtures/FORMATS.md.
 */
#include "r1cs/wtns.h"

#include <stdlib.h>
#include <string.h>

#include "r1cs/primes.h"
#include "util/file.h"
#include "util/parallel.h"

void wtns_free(wtns_t *w) {
    if (!w) return;
    free(w->values);
    memset(w, 0, sizeof *w);
}

/* Section 1 (n8, prime, nWitness) and section 2's exact size; rv is left on section 2. */
static pm_status wtns_header(uint32_t *n_out, pm_reader *rv, const pm_binfile *bf, pm_error *err) {
    const char *name = bf->file.name;
    pm_reader r;
    pm_status st;
    if ((st = pm_binfile_section_reader(&r, bf, 1, "header", err))) return st;
    uint64_t hdr = r.pos;
    uint32_t n8;
    if ((st = pm_reader_u32(&r, &n8, "header n8", err))) return st;
    const uint8_t *prime;
    if ((st = pm_reader_bytes(&r, &prime, n8, "header prime", err))) return st;
    pm_prime_id pid = pm_prime_identify(prime, n8);
    if (pid == PM_PRIME_BN254_R)
        return pm_error_set(err, PM_ERR_CURVE, name, hdr + 4,
                            "witness field is BN254 (bn128): bn128 is not supported yet (BLS12-381 only: "
                            "circom --prime bls12381 and a bls12381 powers of tau, README \"circom quick start\")");
    if (n8 != 32)
        return pm_error_set(err, PM_ERR_CURVE, name, hdr,
                            "witness n8 = %u, expected 32 (BLS12-381 r)", n8);
    if (pid != PM_PRIME_BLS12_381_R)
        return pm_error_set(err, PM_ERR_CURVE, name, hdr + 4,
                            "witness prime is %s, expected BLS12-381 r", pm_prime_name(pid));
    uint32_t n;
    if ((st = pm_reader_u32(&r, &n, "header nWitness", err))) return st;
    if (pm_reader_left(&r) != 0)
        return pm_error_set(err, PM_ERR_FORMAT, name, r.pos,
                            "section 1 (header): expected 40 bytes, found %llu",
                            (unsigned long long)(r.end - hdr));
    if ((st = pm_binfile_section_exact(rv, bf, 2, (uint64_t)n * 32, "witness values", err)))
        return st;
    *n_out = n;
    return PM_OK;
}

static pm_status wtns_parse(wtns_t *w, const pm_binfile *bf, pm_error *err) {
    const char *name = bf->file.name;
    pm_reader rv;
    uint32_t n;
    pm_status st;
    if ((st = wtns_header(&n, &rv, bf, err))) return st;
    w->values = malloc((size_t)(n ? n : 1) * sizeof(fr_t));
    if (!w->values)
        return pm_error_set(err, PM_ERR_NOMEM, name, PM_NO_OFFSET, "%u witness values", n);
    w->n_values = n;
    const uint8_t *base = bf->file.data + rv.pos;
    int64_t bad = (int64_t)n;
    PM_OMP(parallel for schedule(static) reduction(min : bad) if (n >= 65536))
    for (int64_t i = 0; i < (int64_t)n; i++)
        if (fr_from_le_bytes(&w->values[i], base + 32 * i) != 0 && i < bad) bad = i;
    if (bad < (int64_t)n)
        return pm_error_set(err, PM_ERR_ENCODING, name, rv.pos + 32 * (uint64_t)bad,
                            "witness value %lld is not canonical (>= r)", (long long)bad);
    return PM_OK;
}

static pm_status wtns_finish(wtns_t *w, pm_binfile *bf, pm_error *err) {
    pm_status st = pm_file_settle(&bf->file, wtns_parse(w, bf, err), err);
    pm_binfile_close(bf);
    if (st) wtns_free(w);
    return st;
}

pm_status wtns_read(wtns_t *w, const char *path, pm_error *err) {
    memset(w, 0, sizeof *w);
    pm_binfile bf;
    pm_status st = pm_binfile_open(&bf, path, "wtns", 2, err);
    if (st) return st;
    return wtns_finish(w, &bf, err);
}

pm_status wtns_read_memory(wtns_t *w, const void *data, size_t size, const char *name,
                           pm_error *err) {
    memset(w, 0, sizeof *w);
    pm_binfile bf;
    pm_status st = pm_binfile_open_memory(&bf, data, size, name, "wtns", 2, err);
    if (st) return st;
    return wtns_finish(w, &bf, err);
}

static pm_status info_finish(uint32_t *n_values, pm_binfile *bf, pm_error *err) {
    pm_reader rv;
    pm_status st = pm_file_settle(&bf->file, wtns_header(n_values, &rv, bf, err), err);
    pm_binfile_close(bf);
    if (st) *n_values = 0;
    return st;
}

pm_status wtns_read_info(uint32_t *n_values, const char *path, pm_error *err) {
    *n_values = 0;
    pm_binfile bf;
    pm_status st = pm_binfile_open(&bf, path, "wtns", 2, err);
    if (st) return st;
    return info_finish(n_values, &bf, err);
}

pm_status wtns_read_info_memory(uint32_t *n_values, const void *data, size_t size, const char *name,
                                pm_error *err) {
    *n_values = 0;
    pm_binfile bf;
    pm_status st = pm_binfile_open_memory(&bf, data, size, name, "wtns", 2, err);
    if (st) return st;
    return info_finish(n_values, &bf, err);
}
