/*
 * csr_file.c — save / map a recorded constraint system with density bitmaps (csr_file.h).
 */
#include "circuits/csr_file.h"
#include "util/file.h"
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char MAGIC[8] = {'P', 'M', 'C', 'S', 'R', 0, 'v', '1'}; /* v1 and v2 (u32 version) */
#define HDR 128u

static uint64_t al64(uint64_t x) { return (x + 63) & ~63ull; }
static uint64_t words(uint64_t bits) { return (bits + 63) / 64; }

pm_status pm_csr_density(uint64_t **out, const uint64_t **a_aux, const uint64_t **b_input,
                         const uint64_t **b_aux, const r1cs_t *cs, uint32_t n_inputs, pm_error *err) {
    *out = NULL;
    if (n_inputs > cs->n_wires) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "n_inputs > n_wires");
    uint64_t n_aux = cs->n_wires - n_inputs, wa = words(n_aux), wi = words(n_inputs);
    uint64_t *bm = calloc(2 * wa + wi + 1, 8);
    if (!bm) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "density bitmaps");
    uint64_t *a = bm, *bi = bm + wa, *ba = bm + wa + wi;
    const r1cs_matrix_t *m[2] = {&cs->A, &cs->B};
    for (int k = 0; k < 2; k++)
        for (uint64_t t = 0; t < m[k]->nnz; t++) {
            if (fr_is_zero(r1cs_coef(m[k], t))) continue;
            uint32_t c = m[k]->col[t];
            if (c < n_inputs) {
                if (k == 1) bi[c / 64] |= 1ull << (c % 64);
            } else {
                c -= n_inputs;
                (k == 0 ? a : ba)[c / 64] |= 1ull << (c % 64);
            }
        }
    *out = bm;
    *a_aux = a;
    *b_input = bi;
    *b_aux = ba;
    return PM_OK;
}

static int wr(FILE *f, const void *p, size_t n) { return n == 0 || fwrite(p, 1, n, f) == n ? 0 : -1; }
static int pad_to(FILE *f, uint64_t *pos, uint64_t target) {
    static const uint8_t z[64];
    while (*pos < target) {
        size_t k = target - *pos > 64 ? 64 : (size_t)(target - *pos);
        if (wr(f, z, k)) return -1;
        *pos += k;
    }
    return 0;
}

pm_status pm_csr_save(const char *path, const r1cs_t *cs, uint32_t n_inputs, uint64_t tag, pm_error *err) {
    const r1cs_matrix_t *m[3] = {&cs->A, &cs->B, &cs->C};
    /* version 2 when the matrices are dictionary-coded (all non-empty ones, one shared table) */
    const fr_t *tab = NULL;
    uint32_t n_tab = 0;
    int n_dict = 0, n_full = 0;
    for (int k = 0; k < 3; k++) {
        if (m[k]->nnz == 0) continue;
        if (m[k]->coef_idx) {
            if (n_dict && (m[k]->coef_tab != tab || m[k]->n_coef_tab != n_tab))
                return pm_error_set(err, PM_ERR_ARG, path, PM_NO_OFFSET,
                                    "matrices A, B, C use different coefficient tables");
            tab = m[k]->coef_tab;
            n_tab = m[k]->n_coef_tab;
            n_dict++;
        } else {
            n_full++;
        }
    }
    if (n_dict && n_full)
        return pm_error_set(err, PM_ERR_ARG, path, PM_NO_OFFSET,
                        "matrices mix full and dictionary-coded coefficients");
    const uint32_t version = n_dict ? 2u : 1u;
    uint64_t *bm;
    const uint64_t *a, *bi, *ba;
    pm_status st = pm_csr_density(&bm, &a, &bi, &ba, cs, n_inputs, err);
    if (st) return st;
    pm_outfile of; /* written beside path, renamed into place when complete */
    if ((st = pm_outfile_open(&of, path, err))) {
        free(bm);
        return st;
    }
    FILE *f = of.f;
    uint8_t h[HDR];
    memset(h, 0, sizeof h);
    memcpy(h, MAGIC, 8);
    uint32_t u32s[4] = {version, cs->n_constraints, cs->n_wires, n_inputs};
    memcpy(h + 8, u32s, 16);
    uint64_t u64s[4] = {cs->A.nnz, cs->B.nnz, cs->C.nnz, tag};
    memcpy(h + 24, u64s, 32);
    memcpy(h + 56, &n_tab, 4);
    uint64_t pos = 0;
    int bad = wr(f, h, HDR);
    pos = HDR;
    for (int k = 0; k < 3 && !bad; k++) {
        uint64_t rp_n = (uint64_t)cs->n_constraints + 1;
        bad |= pad_to(f, &pos, al64(pos)) || wr(f, m[k]->row_ptr, rp_n * 8);
        pos += rp_n * 8;
        bad |= pad_to(f, &pos, al64(pos)) || wr(f, m[k]->col, m[k]->nnz * 4);
        pos += m[k]->nnz * 4;
        if (version == 2) {
            bad |= pad_to(f, &pos, al64(pos)) || wr(f, m[k]->coef_idx, m[k]->nnz * 4);
            pos += m[k]->nnz * 4;
        } else {
            bad |= pad_to(f, &pos, al64(pos)) || wr(f, m[k]->coef, m[k]->nnz * sizeof(fr_t));
            pos += m[k]->nnz * sizeof(fr_t);
        }
    }
    if (version == 2 && !bad) {
        bad |= pad_to(f, &pos, al64(pos)) || wr(f, tab, (size_t)n_tab * sizeof(fr_t));
        pos += (uint64_t)n_tab * sizeof(fr_t);
    }
    uint64_t n_aux = cs->n_wires - n_inputs;
    const uint64_t *bms[3] = {a, bi, ba};
    const uint64_t nbits[3] = {n_aux, n_inputs, n_aux};
    for (int k = 0; k < 3 && !bad; k++) {
        bad |= pad_to(f, &pos, al64(pos)) || wr(f, bms[k], words(nbits[k]) * 8);
        pos += words(nbits[k]) * 8;
    }
    free(bm);
    if (bad) {
        pm_outfile_abort(&of);
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "write failed: %s", strerror(errno));
    }
    return pm_outfile_commit(&of, err);
}

pm_status pm_csr_settle(const pm_csr_t *f, pm_status st, pm_error *err) {
    return f->map ? pm_map_guard_settle(f->guard, f->path, f->map_len, st, err) : st;
}

void pm_csr_close(pm_csr_t *f) {
    pm_map_guard_remove(f->guard);
    if (f->map) munmap(f->map, f->map_len);
    free(f->owned_density);
    memset(f, 0, sizeof *f);
}

pm_status pm_csr_expect(const pm_csr_t *f, const char *path, uint64_t tag, uint64_t n_wires, uint32_t n_inputs,
                        pm_error *err) {
    if (f->tag == tag && f->cs.n_wires == n_wires && f->n_inputs == n_inputs) return PM_OK;
    return pm_error_set(err, PM_ERR_MISMATCH, path, PM_NO_OFFSET,
                        "recorded circuit: tag %llu, %u wires, %u inputs; needed here: tag %llu, %llu wires, %u "
                        "inputs (PoRep: tag = sector size in bytes; record the circuit for this sector size)",
                        (unsigned long long)f->tag, f->cs.n_wires, f->n_inputs, (unsigned long long)tag,
                        (unsigned long long)n_wires, n_inputs);
}

uint64_t pm_csr_file_bytes(const pm_csr_header_t *h) {
    uint64_t pos = HDR;
    const uint64_t csz = h->version == 2 ? 4u : 32u; /* coefficient index or value */
    for (int k = 0; k < 3; k++)
        pos = al64(al64(al64(pos) + ((uint64_t)h->n_rows + 1) * 8) + h->nnz[k] * 4) + h->nnz[k] * csz;
    if (h->version == 2) pos = al64(pos) + (uint64_t)h->n_coef_tab * 32;
    const uint64_t n_aux = (uint64_t)h->n_cols - h->n_inputs, nbits[3] = {n_aux, h->n_inputs, n_aux};
    for (int k = 0; k < 3; k++) pos = al64(pos) + words(nbits[k]) * 8;
    return pos;
}

pm_status pm_csr_read_header(pm_csr_header_t *h, const char *path, pm_error *err) {
    memset(h, 0, sizeof *h);
    int fd;
    uint64_t fsize;
    pm_status st = pm_open_regular(&fd, &fsize, path, err);
    if (st) return st;
    uint8_t b[HDR];
    ssize_t got = fsize >= HDR ? pread(fd, b, HDR, 0) : 0;
    close(fd);
    if (fsize < HDR || got != (ssize_t)HDR)
        return pm_error_set(err, PM_ERR_FORMAT, path, 0, "file shorter than the %u-byte header", HDR);
    if (memcmp(b, MAGIC, 8)) return pm_error_set(err, PM_ERR_FORMAT, path, 0, "not a proofmill CSR file (bad magic)");
    pm_csr_header_t r;
    memset(&r, 0, sizeof r);
    memcpy(&r.version, b + 8, 4);
    memcpy(&r.n_rows, b + 12, 4);
    memcpy(&r.n_cols, b + 16, 4);
    memcpy(&r.n_inputs, b + 20, 4);
    memcpy(r.nnz, b + 24, 24);
    memcpy(&r.tag, b + 48, 8);
    memcpy(&r.n_coef_tab, b + 56, 4);
    if (r.version != 1 && r.version != 2)
        return pm_error_set(err, PM_ERR_FORMAT, path, 8, "version %u (expected 1 or 2)", r.version);
    if (r.version == 1 && r.n_coef_tab)
        return pm_error_set(err, PM_ERR_FORMAT, path, 56, "version 1 file with a coefficient table size");
    if (r.n_inputs == 0 || r.n_inputs > r.n_cols || r.n_rows == UINT32_MAX)
        return pm_error_set(err, PM_ERR_FORMAT, path, 12, "inconsistent sizes: %u rows, %u columns, %u inputs",
                            r.n_rows, r.n_cols, r.n_inputs);
    if (fsize >> 48) return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "file of %llu bytes: too large",
                                         (unsigned long long)fsize);
    for (int k = 0; k < 3; k++)
        if (r.nnz[k] > fsize)
            return pm_error_set(err, PM_ERR_FORMAT, path, 24 + 8 * (uint64_t)k, "nnz %llu exceeds the file",
                                (unsigned long long)r.nnz[k]);
    const uint64_t pos = pm_csr_file_bytes(&r); /* every count below 2^48 now: no overflow */
    if (pos != fsize)
        return pm_error_set(err, PM_ERR_FORMAT, path, pos < fsize ? pos : fsize,
                            "file of %llu bytes, its header's counts make %llu", (unsigned long long)fsize,
                            (unsigned long long)pos);
    *h = r;
    return PM_OK;
}

static int limbs_lt_r(const fr_t *x) {
    for (int i = 3; i >= 0; i--) {
        if (x->l[i] < FR_MODULUS.l[i]) return 1;
        if (x->l[i] > FR_MODULUS.l[i]) return 0;
    }
    return 0;
}

pm_status pm_csr_open(pm_csr_t *f, const char *path, pm_error *err) {
    memset(f, 0, sizeof *f);
    /* a FIFO given as the .csr (or left at DIR/<stem>.csr) is refused without waiting for a writer */
    int fd;
    uint64_t fsize;
    pm_status ost = pm_open_regular(&fd, &fsize, path, err);
    if (ost) return ost;
    if (fsize < HDR) {
        close(fd);
        return pm_error_set(err, PM_ERR_FORMAT, path, 0, "file shorter than the %u-byte header", HDR);
    }
    size_t len = (size_t)fsize;
    void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED) return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "mmap: %s", strerror(errno));
    const int guard = pm_map_guard_add(map, len);
    const uint8_t *b = map;
    pm_status st = PM_OK;
    uint32_t u32s[4];
    uint64_t u64s[4];
    memcpy(u32s, b + 8, 16);
    memcpy(u64s, b + 24, 32);
    if (memcmp(b, MAGIC, 8)) {
        st = pm_error_set(err, PM_ERR_FORMAT, path, 0, "not a proofmill CSR file (bad magic)");
        goto fail;
    }
    const uint32_t version = u32s[0];
    if (version != 1 && version != 2) {
        st = pm_error_set(err, PM_ERR_FORMAT, path, 8, "version %u (expected 1 or 2)", version);
        goto fail;
    }
    uint32_t n_tab = 0;
    memcpy(&n_tab, b + 56, 4);
    if (version == 1 && n_tab != 0) {
        st = pm_error_set(err, PM_ERR_FORMAT, path, 56, "version 1 file with a coefficient table size");
        goto fail;
    }
    if ((uint64_t)n_tab * sizeof(fr_t) > (uint64_t)len) {
        st = pm_error_set(err, PM_ERR_FORMAT, path, 56, "coefficient table of %u entries exceeds the file", n_tab);
        goto fail;
    }
    uint32_t n_rows = u32s[1], n_cols = u32s[2], n_inputs = u32s[3];
    if (n_inputs == 0 || n_inputs > n_cols || n_rows == UINT32_MAX) {
        st = pm_error_set(err, PM_ERR_FORMAT, path, 12, "inconsistent sizes: %u rows, %u columns, %u inputs",
                          n_rows, n_cols, n_inputs);
        goto fail;
    }
    uint64_t pos = HDR;
    r1cs_matrix_t *m[3] = {&f->cs.A, &f->cs.B, &f->cs.C};
    for (int k = 0; k < 3; k++) {
        uint64_t nnz = u64s[k];
        if (nnz > (uint64_t)len) {
            st = pm_error_set(err, PM_ERR_FORMAT, path, 24 + 8 * (uint64_t)k, "nnz %llu exceeds the file",
                              (unsigned long long)nnz);
            goto fail;
        }
        const uint64_t csz = version == 2 ? 4u : sizeof(fr_t); /* coefficient index or value */
        uint64_t rp = al64(pos), cl = al64(rp + ((uint64_t)n_rows + 1) * 8), cf = al64(cl + nnz * 4);
        pos = cf + nnz * csz;
        if (pos > len) {
            st = pm_error_set(err, PM_ERR_FORMAT, path, len, "truncated: matrix %c needs %llu bytes, file has %zu",
                              "ABC"[k], (unsigned long long)pos, len);
            goto fail;
        }
        m[k]->n_rows = n_rows;
        m[k]->n_cols = n_cols;
        m[k]->nnz = nnz;
        m[k]->row_ptr = (uint64_t *)(b + rp);
        m[k]->col = (uint32_t *)(b + cl);
        if (version == 2) m[k]->coef_idx = (uint32_t *)(b + cf);
        else m[k]->coef = (fr_t *)(b + cf);
        if (m[k]->row_ptr[0] != 0 || m[k]->row_ptr[n_rows] != nnz) {
            st = pm_error_set(err, PM_ERR_FORMAT, path, rp, "matrix %c: row_ptr does not span 0..nnz", "ABC"[k]);
            goto fail;
        }
        for (uint32_t r = 0; r < n_rows; r++)
            if (m[k]->row_ptr[r] > m[k]->row_ptr[r + 1]) {
                st = pm_error_set(err, PM_ERR_FORMAT, path, rp + 8ull * r, "matrix %c: row_ptr decreases at row %u",
                                  "ABC"[k], r);
                goto fail;
            }
        for (uint64_t t = 0; t < nnz; t++) {
            if (m[k]->col[t] >= n_cols) {
                st = pm_error_set(err, PM_ERR_FORMAT, path, cl + 4 * t, "matrix %c: column %u >= %u", "ABC"[k],
                                  m[k]->col[t], n_cols);
                goto fail;
            }
            if (version == 2) {
                if (m[k]->coef_idx[t] >= n_tab) {
                    st = pm_error_set(err, PM_ERR_FORMAT, path, cf + 4 * t,
                                      "matrix %c: coefficient index %u >= table size %u", "ABC"[k],
                                      m[k]->coef_idx[t], n_tab);
                    goto fail;
                }
            } else if (!limbs_lt_r(&m[k]->coef[t])) {
                st = pm_error_set(err, PM_ERR_ENCODING, path, cf + 32 * t, "matrix %c: coefficient >= r", "ABC"[k]);
                goto fail;
            }
        }
    }
    if (version == 2) { /* the table, after the three matrices */
        uint64_t tb = al64(pos);
        pos = tb + (uint64_t)n_tab * sizeof(fr_t);
        if (pos > len) {
            st = pm_error_set(err, PM_ERR_FORMAT, path, len, "truncated coefficient table (%u entries)", n_tab);
            goto fail;
        }
        const fr_t *tab = (const fr_t *)(b + tb);
        for (uint32_t i = 0; i < n_tab; i++)
            if (!limbs_lt_r(&tab[i])) {
                st = pm_error_set(err, PM_ERR_ENCODING, path, tb + 32ull * i, "coefficient table entry %u >= r", i);
                goto fail;
            }
        for (int k = 0; k < 3; k++) {
            m[k]->coef_tab = tab;
            m[k]->n_coef_tab = n_tab;
        }
    }
    uint64_t n_aux = n_cols - n_inputs, off[3];
    const uint64_t nbits[3] = {n_aux, n_inputs, n_aux};
    for (int k = 0; k < 3; k++) {
        off[k] = al64(pos);
        pos = off[k] + words(nbits[k]) * 8;
    }
    if (pos > len) {
        st = pm_error_set(err, PM_ERR_FORMAT, path, len, "truncated density bitmaps");
        goto fail;
    }
    if (pos < len) { /* pm_csr_save writes nothing after the bitmaps: e.g. v1 data under a v2 header */
        st = pm_error_set(err, PM_ERR_FORMAT, path, pos,
                          "%llu bytes after the density bitmaps (file of %zu, %llu expected)",
                          (unsigned long long)(len - pos), len, (unsigned long long)pos);
        goto fail;
    }
    f->cs.n_wires = n_cols;
    f->n_inputs = n_inputs;
    { /* the bitmaps must be the density of the (now checked) matrices: a prover reading them
       * instead of the matrices would otherwise pick the wrong bases without noticing */
        uint64_t *bm;
        const uint64_t *want[3];
        if ((st = pm_csr_density(&bm, &want[0], &want[1], &want[2], &f->cs, n_inputs, err))) goto fail;
        static const char *const names[3] = {"a_aux", "b_input", "b_aux"};
        for (int k = 0; k < 3 && !st; k++) {
            const uint64_t *have = (const uint64_t *)(b + off[k]);
            for (uint64_t i = 0; i < words(nbits[k]); i++)
                if (have[i] != want[k][i]) {
                    st = pm_error_set(err, PM_ERR_FORMAT, path, off[k] + 8 * i,
                                      "density bitmap %s (word %llu) disagrees with matrix %c", names[k],
                                      (unsigned long long)i, k == 0 ? 'A' : 'B');
                    break;
                }
        }
        free(bm);
        if (st) goto fail;
    }
    f->a_aux_density = (const uint64_t *)(b + off[0]);
    f->b_input_density = (const uint64_t *)(b + off[1]);
    f->b_aux_density = (const uint64_t *)(b + off[2]);
    f->cs.n_wires = n_cols;
    f->cs.n_pub_in = n_inputs - 1;
    f->cs.n_constraints = n_rows;
    f->n_inputs = n_inputs;
    f->tag = u64s[3];
    f->map = map;
    f->map_len = len;
    f->guard = guard;
    snprintf(f->path, sizeof f->path, "%s", path);
    if ((st = pm_map_guard_settle(guard, path, len, PM_OK, err))) goto fail;
    return PM_OK;
fail:
    st = pm_map_guard_settle(guard, path, len, st, err);
    pm_map_guard_remove(guard);
    munmap(map, len);
    memset(f, 0, sizeof *f);
    return st;
}
