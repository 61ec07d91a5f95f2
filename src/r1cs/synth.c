/*
 * synth.c — synthetic R1CS + witness, and .r1cs / .wtns writers (see synth.h).
 */
#include "r1cs/synth.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/file.h"
#include "util/outfile.h"

static uint64_t xs_next(uint64_t *s) {
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static double xs_unit(uint64_t *s) { return (double)(xs_next(s) >> 11) * (1.0 / 9007199254740992.0); }

static void xs_fr(fr_t *r, uint64_t *s) {
    fr_t p;
    for (int i = 0; i < 4; i++) p.l[i] = xs_next(s);
    p.l[3] &= 0x3fffffffffffffffull; /* < 2^254 < r */
    fr_to_mont(r, &p);
}

static int matrix_alloc(r1cs_matrix_t *m, uint32_t rows, uint32_t cols, uint64_t cap) {
    memset(m, 0, sizeof *m);
    m->n_rows = rows;
    m->n_cols = cols;
    m->row_ptr = calloc((size_t)rows + 1, sizeof *m->row_ptr);
    m->col = malloc((size_t)(cap ? cap : 1) * sizeof *m->col);
    m->coef = aligned_alloc(32, (size_t)(cap ? cap : 1) * sizeof(fr_t));
    return m->row_ptr && m->col && m->coef ? 0 : -1;
}

static inline void push(r1cs_matrix_t *m, uint32_t col, const fr_t *c) {
    m->col[m->nnz] = col;
    m->coef[m->nnz] = *c;
    m->nnz++;
}

pm_status r1cs_synth(r1cs_t *cs, fr_t **wout, const r1cs_synth_opts_t *o, pm_error *err) {
    memset(cs, 0, sizeof *cs);
    *wout = NULL;
    uint64_t nw = 1 + (uint64_t)o->n_public + o->n_constraints;
    if (o->n_constraints == 0 || o->density == 0 || !(o->bit_share >= 0 && o->bit_share <= 1) ||
        nw > UINT32_MAX)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "synth: need constraints >= 1, density >= 1, bit share in [0,1]");
    uint32_t n = o->n_constraints, d = o->density;
    cs->n_wires = (uint32_t)nw;
    cs->n_pub_out = o->n_public;
    cs->n_labels = nw;
    cs->n_constraints = n;
    fr_t *w = malloc(nw * sizeof *w);
    uint32_t *bits = malloc((size_t)n * sizeof *bits);
    if (!w || !bits || matrix_alloc(&cs->A, n, (uint32_t)nw, (uint64_t)n * d) ||
        matrix_alloc(&cs->B, n, (uint32_t)nw, (uint64_t)n * (d > 2 ? d : 2)) ||
        matrix_alloc(&cs->C, n, (uint32_t)nw, n)) {
        free(w);
        free(bits);
        r1cs_free(cs);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "synth: %u constraints", n);
    }
    uint64_t s = o->seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
    if (!s) s = 1;
    w[0] = FR_ONE;
    for (uint32_t i = 1; i <= o->n_public; i++) xs_fr(&w[i], &s);
    fr_t minus_one;
    fr_neg(&minus_one, &FR_ONE);
    size_t nbits = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t out = 1 + o->n_public + k;
        if (xs_unit(&s) < o->bit_share) {
            w[out] = (xs_next(&s) >> 63) ? FR_ONE : FR_ZERO;
            push(&cs->A, out, &FR_ONE);
            push(&cs->B, out, &FR_ONE);
            push(&cs->B, 0, &minus_one);
            bits[nbits++] = out;
        } else {
            fr_t acc[2];
            for (int mtx = 0; mtx < 2; mtx++) {
                r1cs_matrix_t *M = mtx ? &cs->B : &cs->A;
                acc[mtx] = FR_ZERO;
                uint64_t row0 = M->nnz;
                for (unsigned t = 0; t < d; t++) {
                    /* distinct wires within one linear combination (circom never repeats a
                     * wire in an LC and snarkjs's reader keeps only the last of repeats) */
                    uint32_t col = 0;
                    int fresh = 0;
                    for (int tries = 0; tries < 16 && !fresh; tries++) {
                        if (nbits && xs_unit(&s) < o->bit_share)
                            col = bits[xs_next(&s) % nbits];
                        else
                            col = (uint32_t)(xs_next(&s) % out);
                        fresh = 1;
                        for (uint64_t q = row0; q < M->nnz; q++)
                            if (M->col[q] == col) fresh = 0;
                    }
                    if (!fresh) continue;
                    fr_t c = FR_ONE;
                    if (xs_next(&s) >> 63) xs_fr(&c, &s);
                    push(M, col, &c);
                    fr_t p;
                    fr_mul(&p, &c, &w[col]);
                    fr_add(&acc[mtx], &acc[mtx], &p);
                }
            }
            fr_mul(&w[out], &acc[0], &acc[1]);
            push(&cs->C, out, &FR_ONE);
        }
        cs->A.row_ptr[k + 1] = cs->A.nnz;
        cs->B.row_ptr[k + 1] = cs->B.nnz;
        cs->C.row_ptr[k + 1] = cs->C.nnz;
    }
    free(bits);
    *wout = w;
    return PM_OK;
}

/* ---------------------------------------------------------------- writers */

static void put_u32(FILE *f, uint32_t v) {
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    fwrite(b, 1, 4, f);
}

static void put_u64(FILE *f, uint64_t v) {
    put_u32(f, (uint32_t)v);
    put_u32(f, (uint32_t)(v >> 32));
}

static void put_prime(FILE *f) {
    uint8_t r[32];
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 8; k++) r[8 * i + k] = (uint8_t)(FR_MODULUS.l[i] >> (8 * k));
    fwrite(r, 1, 32, f);
}

pm_status r1cs_write(const char *path, const r1cs_t *cs, pm_error *err) {
    pm_outfile o; /* written beside path, renamed into place when complete */
    pm_status st = pm_outfile_open(&o, path, err);
    if (st) return st;
    FILE *f = o.f;
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    fwrite("r1cs", 1, 4, f);
    put_u32(f, 1);
    put_u32(f, 3);
    put_u32(f, 1);
    put_u64(f, 64);
    put_u32(f, 32);
    put_prime(f);
    put_u32(f, cs->n_wires);
    put_u32(f, cs->n_pub_out);
    put_u32(f, cs->n_pub_in);
    put_u32(f, cs->n_prv_in);
    put_u64(f, cs->n_labels ? cs->n_labels : cs->n_wires);
    put_u32(f, cs->n_constraints);
    uint64_t nnz = cs->A.nnz + cs->B.nnz + cs->C.nnz;
    put_u32(f, 2);
    put_u64(f, 12ull * cs->n_constraints + 36ull * nnz);
    const r1cs_matrix_t *M[3] = {&cs->A, &cs->B, &cs->C};
    for (uint32_t k = 0; k < cs->n_constraints; k++)
        for (int m = 0; m < 3; m++) {
            put_u32(f, (uint32_t)(M[m]->row_ptr[k + 1] - M[m]->row_ptr[k]));
            for (uint64_t t = M[m]->row_ptr[k]; t < M[m]->row_ptr[k + 1]; t++) {
                uint8_t b[32];
                put_u32(f, M[m]->col[t]);
                fr_to_le_bytes(b, r1cs_coef(M[m], t));
                fwrite(b, 1, 32, f);
            }
        }
    put_u32(f, 3);
    put_u64(f, 8ull * cs->n_wires);
    for (uint32_t i = 0; i < cs->n_wires; i++) put_u64(f, i);
    return pm_outfile_commit(&o, err);
}

pm_status wtns_write(const char *path, const fr_t *w, size_t n, pm_error *err) {
    pm_outfile o; /* written beside path, renamed into place when complete */
    pm_status st = pm_outfile_open(&o, path, err);
    if (st) return st;
    FILE *f = o.f;
    fwrite("wtns", 1, 4, f);
    put_u32(f, 2);
    put_u32(f, 2);
    put_u32(f, 1);
    put_u64(f, 40);
    put_u32(f, 32);
    put_prime(f);
    put_u32(f, (uint32_t)n);
    put_u32(f, 2);
    put_u64(f, 32ull * n);
    for (size_t i = 0; i < n; i++) {
        uint8_t b[32];
        fr_to_le_bytes(b, &w[i]);
        fwrite(b, 1, 32, f);
    }
    return pm_outfile_commit(&o, err);
}
