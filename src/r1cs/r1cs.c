/*
 * r1cs.c — circom .r1cs reader into CSR, SpMV, satisfiability (contract in r1cs.h).
 *
 * Reading is two passes over section 2: the first checks the structure (every nTerms fits in the
 * bytes left, every wireId < nWires) and counts the terms of A, B and C, so the CSR arrays are
 * allocated once at their final size (bounded by the file size: a term is 36 bytes in the file
 * and 36 bytes in memory); the second converts the coefficients (plain LE -> Montgomery, rejecting
 * values >= r) and fills the arrays.
 */
#include "r1cs/r1cs.h"

#include <stdlib.h>
#include <string.h>

#include "r1cs/primes.h"
#include "util/file.h"
#include "util/parallel.h"

#define R1CS_N8 32u
#define R1CS_HEADER_SIZE (4u + R1CS_N8 + 4u * 4u + 8u + 4u) /* 64 */

uint32_t r1cs_n_public(const r1cs_t *cs) { return cs->n_pub_out + cs->n_pub_in; }

void r1cs_matrix_free(r1cs_matrix_t *m) {
    if (!m) return;
    free(m->row_ptr);
    free(m->col);
    free(m->coef);
    free(m->coef_idx);
    memset(m, 0, sizeof *m);
}

void r1cs_free(r1cs_t *cs) {
    if (!cs) return;
    r1cs_matrix_free(&cs->A);
    r1cs_matrix_free(&cs->B);
    r1cs_matrix_free(&cs->C);
    free(cs->coef_tab_owned);
    memset(cs, 0, sizeof *cs);
}

/* Allocate a matrix of n_rows x n_cols with nnz terms (row_ptr zeroed). */
pm_status r1cs_matrix_alloc(r1cs_matrix_t *m, uint32_t n_rows, uint32_t n_cols, uint64_t nnz,
                            const char *name, pm_error *err) {
    memset(m, 0, sizeof *m);
    m->n_rows = n_rows;
    m->n_cols = n_cols;
    m->nnz = nnz;
    m->row_ptr = calloc((size_t)n_rows + 1, sizeof *m->row_ptr);
    m->col = malloc((size_t)(nnz ? nnz : 1) * sizeof *m->col);
    m->coef = aligned_alloc(32, (size_t)(nnz ? nnz : 1) * sizeof(fr_t));
    if (!m->row_ptr || !m->col || !m->coef) {
        r1cs_matrix_free(m);
        return pm_error_set(err, PM_ERR_NOMEM, name, PM_NO_OFFSET,
                            "cannot allocate a %u-row matrix with %llu terms", n_rows,
                            (unsigned long long)nnz);
    }
    return PM_OK;
}

static const char *const MATRIX_NAME[3] = {"A", "B", "C"};

/* Pass 1: structure + counts. */
static pm_status constraints_scan(uint64_t nnz[3], pm_reader r, uint32_t n_constraints,
                                  uint32_t n_wires, pm_error *err) {
    const char *name = r.file->name;
    nnz[0] = nnz[1] = nnz[2] = 0;
    for (uint32_t k = 0; k < n_constraints; k++) {
        for (int m = 0; m < 3; m++) {
            uint32_t nt;
            uint64_t at = r.pos;
            if (pm_reader_u32(&r, &nt, "constraint nTerms", err) != PM_OK)
                return pm_error_set(err, PM_ERR_FORMAT, name, at,
                                    "section 2 truncated in constraint %u (%s): no room for nTerms",
                                    k, MATRIX_NAME[m]);
            if ((uint64_t)nt * (4 + R1CS_N8) > pm_reader_left(&r))
                return pm_error_set(err, PM_ERR_FORMAT, name, at,
                                    "constraint %u (%s): %u terms need %llu bytes, only %llu left "
                                    "in section 2",
                                    k, MATRIX_NAME[m], nt,
                                    (unsigned long long)nt * (4 + R1CS_N8),
                                    (unsigned long long)pm_reader_left(&r));
            const uint8_t *p = r.file->data + r.pos;
            for (uint32_t t = 0; t < nt; t++, p += 4 + R1CS_N8) {
                uint32_t wire = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                                (uint32_t)p[3] << 24;
                if (wire >= n_wires)
                    return pm_error_set(err, PM_ERR_FORMAT, name,
                                        r.pos + (uint64_t)t * (4 + R1CS_N8),
                                        "constraint %u (%s) term %u: wire %u >= nWires = %u", k,
                                        MATRIX_NAME[m], t, wire, n_wires);
            }
            r.pos += (uint64_t)nt * (4 + R1CS_N8);
            nnz[m] += nt;
        }
    }
    if (pm_reader_left(&r) != 0)
        return pm_error_set(err, PM_ERR_FORMAT, name, r.pos,
                            "section 2 has %llu bytes after the last of %u constraints",
                            (unsigned long long)pm_reader_left(&r), n_constraints);
    return PM_OK;
}

/* Pass 2: fill. The structure was validated by pass 1, but a mapped file can change between the
 * passes (rewritten in place): every nTerms and wire is checked again against what pass 1 sized,
 * so a change is an error, never a write past the arrays. */
static pm_status constraints_fill(r1cs_t *cs, pm_reader r, pm_error *err) {
    r1cs_matrix_t *mats[3] = {&cs->A, &cs->B, &cs->C};
    uint64_t fill[3] = {0, 0, 0};
    for (uint32_t k = 0; k < cs->n_constraints; k++) {
        for (int m = 0; m < 3; m++) {
            r1cs_matrix_t *M = mats[m];
            if (pm_reader_left(&r) < 4) return pm_file_changed_error(err, r.file->name, r.pos, "section 2");
            const uint8_t *p = r.file->data + r.pos;
            uint32_t nt = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                          (uint32_t)p[3] << 24;
            if (nt > M->nnz - fill[m] || (uint64_t)nt * (4 + R1CS_N8) > pm_reader_left(&r) - 4)
                return pm_file_changed_error(err, r.file->name, r.pos, "a constraint's nTerms");
            p += 4;
            r.pos += 4;
            for (uint32_t t = 0; t < nt; t++, p += 4 + R1CS_N8) {
                uint64_t i = fill[m]++;
                M->col[i] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                            (uint32_t)p[3] << 24;
                if (M->col[i] >= cs->n_wires)
                    return pm_file_changed_error(err, r.file->name, r.pos + (uint64_t)t * (4 + R1CS_N8), "a wire id");
                fr_t plain;
                if (fr_from_le_bytes(&plain, p + 4) != 0)
                    return pm_error_set(err, PM_ERR_ENCODING, r.file->name,
                                        r.pos + (uint64_t)t * (4 + R1CS_N8) + 4,
                                        "constraint %u (%s) term %u: coefficient is not canonical "
                                        "(>= r)",
                                        k, MATRIX_NAME[m], t);
                /* fr_from_le_bytes already yields Montgomery form (fr.h: bytes are plain
                 * integers converted at the edge). */
                M->coef[i] = plain;
            }
            r.pos += (uint64_t)nt * (4 + R1CS_N8);
            M->row_ptr[k + 1] = fill[m];
        }
    }
    for (int m = 0; m < 3; m++)
        if (fill[m] != mats[m]->nnz) return pm_file_changed_error(err, r.file->name, r.pos, "the number of terms");
    return PM_OK;
}

static pm_status r1cs_parse(r1cs_t *cs, pm_binfile *bf, pm_error *err) {
    const char *name = bf->file.name;
    pm_reader r;
    pm_status st;
    if ((st = pm_binfile_section_reader(&r, bf, 1, "header", err))) return st;
    uint32_t n8;
    if ((st = pm_reader_u32(&r, &n8, "header n8", err))) return st;
    const uint8_t *prime;
    if ((st = pm_reader_bytes(&r, &prime, n8, "header prime", err))) return st;
    pm_prime_id pid = pm_prime_identify(prime, n8);
    if (pid == PM_PRIME_BN254_R)
        return pm_error_set(err, PM_ERR_CURVE, name, r.pos - n8,
                            "r1cs field is BN254 (bn128): bn128 is not supported yet (BLS12-381 only: "
                            "circom --prime bls12381 and a bls12381 powers of tau, README \"circom quick start\")");
    if (pid != PM_PRIME_BLS12_381_R)
        return pm_error_set(err, PM_ERR_CURVE, name, r.pos - n8,
                            "r1cs prime (n8 = %u) is %s, expected BLS12-381 r", n8,
                            pm_prime_name(pid));
    r.pos -= 4 + n8;
    if (pm_reader_left(&r) != R1CS_HEADER_SIZE)
        return pm_error_set(err, PM_ERR_FORMAT, name, r.pos,
                            "section 1 (header): expected %u bytes, found %llu", R1CS_HEADER_SIZE,
                            (unsigned long long)pm_reader_left(&r));
    r.pos += 4 + n8;
    pm_reader_u32(&r, &cs->n_wires, "nWires", err);
    pm_reader_u32(&r, &cs->n_pub_out, "nPubOut", err);
    pm_reader_u32(&r, &cs->n_pub_in, "nPubIn", err);
    pm_reader_u32(&r, &cs->n_prv_in, "nPrvIn", err);
    pm_reader_u64(&r, &cs->n_labels, "nLabels", err);
    pm_reader_u32(&r, &cs->n_constraints, "nConstraints", err);
    uint64_t hdr = r.pos - R1CS_HEADER_SIZE;
    /* Wire 0 and the public signals (wires 1..nPublic) must be wires. nPrvIn is not bounded by
     * nWires: circom --O2 counts every private input of main there, also those its
     * simplification removed from the wires ("private inputs: 3 (2 belong to witness)"). */
    if (cs->n_wires == 0 || (uint64_t)cs->n_pub_out + cs->n_pub_in >= (uint64_t)cs->n_wires)
        return pm_error_set(err, PM_ERR_FORMAT, name, hdr + 4 + n8,
                            "header: nWires = %u cannot hold wire 0 + %u outputs + %u public "
                            "inputs",
                            cs->n_wires, cs->n_pub_out, cs->n_pub_in);

    /* Section 3 (wire -> label map, one u64 per wire) is the only part of the file whose size
     * follows nWires: when present it must agree, so that a 100-byte file cannot claim 2^32
     * wires and make setup/prove allocate for them. (circom and snarkjs always write it.) */
    const pm_section *map = pm_binfile_find(bf, 3);
    if (map && map->size != (uint64_t)cs->n_wires * 8)
        return pm_error_set(err, PM_ERR_FORMAT, name, map->offset,
                            "section 3 (wire map): nWires = %u needs %llu bytes, found %llu",
                            cs->n_wires, (unsigned long long)cs->n_wires * 8,
                            (unsigned long long)map->size);
    pm_reader rc;
    if ((st = pm_binfile_section_reader(&rc, bf, 2, "constraints", err))) return st;
    uint64_t nnz[3];
    if ((st = constraints_scan(nnz, rc, cs->n_constraints, cs->n_wires, err))) return st;
    if ((st = r1cs_matrix_alloc(&cs->A, cs->n_constraints, cs->n_wires, nnz[0], name, err)) ||
        (st = r1cs_matrix_alloc(&cs->B, cs->n_constraints, cs->n_wires, nnz[1], name, err)) ||
        (st = r1cs_matrix_alloc(&cs->C, cs->n_constraints, cs->n_wires, nnz[2], name, err)))
        return st;
    return constraints_fill(cs, rc, err);
}

static pm_status r1cs_finish(r1cs_t *cs, pm_binfile *bf, pm_error *err) {
    pm_status st = pm_file_settle(&bf->file, r1cs_parse(cs, bf, err), err);
    pm_binfile_close(bf);
    if (st) r1cs_free(cs);
    return st;
}

pm_status r1cs_read(r1cs_t *cs, const char *path, pm_error *err) {
    memset(cs, 0, sizeof *cs);
    pm_binfile bf;
    pm_status st = pm_binfile_open(&bf, path, "r1cs", 1, err);
    if (st) return st;
    return r1cs_finish(cs, &bf, err);
}

pm_status r1cs_read_memory(r1cs_t *cs, const void *data, size_t size, const char *name,
                           pm_error *err) {
    memset(cs, 0, sizeof *cs);
    pm_binfile bf;
    pm_status st = pm_binfile_open_memory(&bf, data, size, name, "r1cs", 1, err);
    if (st) return st;
    return r1cs_finish(cs, &bf, err);
}

/* <row k of m, w>. Hot loop: one Montgomery mul + add per term. Coefficients 1 and -1 are very
 * common in circom output (sha256_64: all of B, 19% / 48% of A, 21% / 26% of C), so they take
 * an add / sub instead of the multiplication. minus_one = -1 (Montgomery), passed in so that
 * nothing is initialised lazily. */
static inline void row_dot(fr_t *out, const r1cs_matrix_t *m, uint32_t k, const fr_t *w,
                           const fr_t *minus_one) {
    fr_t acc = FR_ZERO, t;
    for (uint64_t i = m->row_ptr[k], e = m->row_ptr[k + 1]; i < e; i++) {
        const fr_t *c = r1cs_coef(m, i);
        const fr_t *x = &w[m->col[i]];
        if (fr_is_one(c)) {
            fr_add(&acc, &acc, x);
        } else if (fr_eq(c, minus_one)) {
            fr_sub(&acc, &acc, x);
        } else {
            fr_mul(&t, c, x);
            fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}

/* The same for a dictionary-coded matrix: which table entries are 1 and -1 is found once per
 * product (one1 / neg1: their indices, UINT32_MAX when absent), so a term costs an index compare
 * and the table lookup (the table is small and stays in cache). */
static inline void row_dot_dict(fr_t *out, const r1cs_matrix_t *m, uint32_t k, const fr_t *w,
                                uint32_t one1, uint32_t neg1) {
    fr_t acc = FR_ZERO, t;
    const uint32_t *idx = m->coef_idx;
    for (uint64_t i = m->row_ptr[k], e = m->row_ptr[k + 1]; i < e; i++) {
        const uint32_t ci = idx[i];
        const fr_t *x = &w[m->col[i]];
        if (ci == one1) {
            fr_add(&acc, &acc, x);
        } else if (ci == neg1) {
            fr_sub(&acc, &acc, x);
        } else {
            fr_mul(&t, &m->coef_tab[ci], x);
            fr_add(&acc, &acc, &t);
        }
    }
    *out = acc;
}

static void dict_pm1(const r1cs_matrix_t *m, const fr_t *minus_one, uint32_t *one1, uint32_t *neg1) {
    *one1 = *neg1 = UINT32_MAX;
    for (uint32_t i = 0; i < m->n_coef_tab; i++) {
        if (*one1 == UINT32_MAX && fr_is_one(&m->coef_tab[i])) *one1 = i;
        if (*neg1 == UINT32_MAX && fr_eq(&m->coef_tab[i], minus_one)) *neg1 = i;
    }
}

pm_status r1cs_matrix_mul(fr_t *out, size_t n_out, const r1cs_matrix_t *m, const fr_t *w,
                          size_t n_w, pm_error *err) {
    if (n_out != m->n_rows || n_w < m->n_cols)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "matrix %ux%u: output has %zu rows, input has %zu values", m->n_rows,
                            m->n_cols, n_out, n_w);
    int64_t rows = (int64_t)m->n_rows;
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    if (m->coef_idx) {
        uint32_t one1, neg1;
        dict_pm1(m, &m1, &one1, &neg1);
        PM_OMP(parallel for schedule(dynamic, 512) if (rows >= 4096))
        for (int64_t k = 0; k < rows; k++) row_dot_dict(&out[k], m, (uint32_t)k, w, one1, neg1);
        return PM_OK;
    }
    PM_OMP(parallel for schedule(dynamic, 512) if (rows >= 4096))
    for (int64_t k = 0; k < rows; k++) row_dot(&out[k], m, (uint32_t)k, w, &m1);
    return PM_OK;
}

size_t r1cs_first_unsatisfied_row(const fr_t *a, const fr_t *b, const fr_t *c, size_t n) {
    const int64_t rows = (int64_t)n;
    int64_t first = rows;
    PM_OMP(parallel for schedule(static) reduction(min : first))
    for (int64_t r = 0; r < rows; r++) {
        if (r > first) continue;
        fr_t ab;
        fr_mul(&ab, &a[r], &b[r]);
        if (!fr_eq(&ab, &c[r]) && r < first) first = r;
    }
    return (size_t)first;
}

pm_status r1cs_spmv(fr_t *a, fr_t *b, fr_t *c, size_t n_out, const r1cs_t *cs, const fr_t *w,
                    size_t n_w, pm_error *err) {
    if (n_w != cs->n_wires)
        return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                            "witness has %zu values, r1cs has %u wires", n_w, cs->n_wires);
    if (n_out != cs->n_constraints)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "output has %zu rows, r1cs has %u constraints", n_out,
                            cs->n_constraints);
    pm_status st = PM_OK;
    if (a && (st = r1cs_matrix_mul(a, n_out, &cs->A, w, n_w, err))) return st;
    if (b && (st = r1cs_matrix_mul(b, n_out, &cs->B, w, n_w, err))) return st;
    if (c && (st = r1cs_matrix_mul(c, n_out, &cs->C, w, n_w, err))) return st;
    return PM_OK;
}

pm_status r1cs_check_satisfied(uint32_t *first_bad, const r1cs_t *cs, const fr_t *w, size_t n_w,
                               pm_error *err) {
    if (first_bad) *first_bad = UINT32_MAX;
    if (n_w != cs->n_wires)
        return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                            "witness has %zu values, r1cs has %u wires", n_w, cs->n_wires);
    if (n_w == 0 || !fr_is_one(&w[0]))
        return pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET,
                            "wire 0 is not 1 (not a witness for this circuit?)");
    int64_t rows = (int64_t)cs->n_constraints;
    int64_t first = rows;
    fr_t m1;
    fr_neg(&m1, &FR_ONE);
    PM_OMP(parallel for schedule(dynamic, 512) reduction(min : first) if (rows >= 4096))
    for (int64_t k = 0; k < rows; k++) {
        if (k > first) continue; /* a lower failure is already known on this thread */
        fr_t va, vb, vc, ab;
        row_dot(&va, &cs->A, (uint32_t)k, w, &m1);
        row_dot(&vb, &cs->B, (uint32_t)k, w, &m1);
        row_dot(&vc, &cs->C, (uint32_t)k, w, &m1);
        fr_mul(&ab, &va, &vb);
        if (!fr_eq(&ab, &vc) && k < first) first = k;
    }
    if (first < rows) {
        if (first_bad) *first_bad = (uint32_t)first;
        return pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET,
                            "constraint %lld of %u not satisfied: <A,w>*<B,w> != <C,w>",
                            (long long)first, cs->n_constraints);
    }
    return PM_OK;
}
