/*
 * zkey.c — snarkjs Groth16 .zkey reader, A/B domain evaluation and cross-checks (contract in
 * zkey.h). Layout facts from snarkjs src/zkey_utils.js (readHeaderGroth16, readZKey) and
 * src/groth16_prove.js (buildABC); restated in ../shared/fixtures/FORMATS.md.
 *
 * Order of work: container -> protocol -> header (curve first, so a BN254 key is named as such
 * before any size check that its 32-byte coordinates would fail) -> exact sizes of the point
 * sections (so no allocation sized by a header count happens before the file is known to hold
 * that many points) -> coefficients (validated, bucketed by constraint with a counting sort that
 * keeps file order inside a row) -> point sections. Points are decoded (curve/encoding.h
 * g1_from_lem / g2_from_lem) in parallel; on failure the lowest failing index is re-decoded
 * serially so the error names the first bad point, as a serial reader would.
 */
#include "groth16/zkey.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/encoding.h"
#include "r1cs/primes.h"
#include "util/file.h"
#include "util/parallel.h"

#define N8Q 48u
#define N8R 32u
#define G1_BYTES (2u * N8Q)            /* 96 */
#define G2_BYTES (4u * N8Q)            /* 192 */
#define COEF_BYTES (12u + N8R)         /* 44 */
#define HEADER_BYTES (4u + N8Q + 4u + N8R + 12u + 3u * G1_BYTES + 3u * G2_BYTES) /* 964 */
#define MAX_LOG2_DOMAIN 31u

/* ---- point decoding ---- */

typedef struct {
    const char *file;
    const char *what; /* "section 5 (A)" */
    unsigned flags;
} dec_ctx;

/* Decode one LEM point at absolute file offset off with the curve layer's decoder
 * (curve/encoding.h: canonical coordinates, on-curve, optional subgroup), re-labelling its error
 * with the section, the point index and the point's file offset. */
static unsigned dec_flags(const dec_ctx *c) {
    return (c->flags & ZKEY_CHECK_SUBGROUP) ? PM_DECODE_CHECK_SUBGROUP : 0u;
}

static pm_status dec_g1(g1_affine_t *out, const uint8_t *p, uint64_t off, uint64_t idx,
                        const dec_ctx *c, pm_error *err) {
    pm_error e;
    pm_status st = g1_from_lem(out, p, dec_flags(c), err ? &e : NULL);
    if (st && err)
        pm_error_set(err, st, c->file, off, "%s point %llu: %s", c->what, (unsigned long long)idx,
                     e.msg);
    return st;
}

static pm_status dec_g2(g2_affine_t *out, const uint8_t *p, uint64_t off, uint64_t idx,
                        const dec_ctx *c, pm_error *err) {
    pm_error e;
    pm_status st = g2_from_lem(out, p, dec_flags(c), err ? &e : NULL);
    if (st && err)
        pm_error_set(err, st, c->file, off, "%s point %llu: %s", c->what, (unsigned long long)idx,
                     e.msg);
    return st;
}

/* Decode n G1 points from r (which must hold exactly n*96 bytes) into a new array. */
static pm_status dec_g1_array(g1_affine_t **out, const pm_reader *r, uint64_t n, const dec_ctx *c,
                              pm_error *err) {
    *out = malloc((size_t)(n ? n : 1) * sizeof **out);
    if (!*out)
        return pm_error_set(err, PM_ERR_NOMEM, c->file, PM_NO_OFFSET, "%s: %llu G1 points",
                            c->what, (unsigned long long)n);
    const uint8_t *base = r->file->data + r->pos;
    int64_t bad = (int64_t)n;
    g1_affine_t *o = *out;
    PM_OMP(parallel for schedule(dynamic, 1024) reduction(min : bad) if (n >= 4096))
    for (int64_t i = 0; i < (int64_t)n; i++)
        if (dec_g1(&o[i], base + (uint64_t)i * G1_BYTES, 0, (uint64_t)i, c, NULL) != PM_OK &&
            i < bad)
            bad = i;
    if (bad < (int64_t)n) {
        g1_affine_t t;
        return dec_g1(&t, base + (uint64_t)bad * G1_BYTES, r->pos + (uint64_t)bad * G1_BYTES,
                      (uint64_t)bad, c, err);
    }
    return PM_OK;
}

static pm_status dec_g2_array(g2_affine_t **out, const pm_reader *r, uint64_t n, const dec_ctx *c,
                              pm_error *err) {
    *out = malloc((size_t)(n ? n : 1) * sizeof **out);
    if (!*out)
        return pm_error_set(err, PM_ERR_NOMEM, c->file, PM_NO_OFFSET, "%s: %llu G2 points",
                            c->what, (unsigned long long)n);
    const uint8_t *base = r->file->data + r->pos;
    int64_t bad = (int64_t)n;
    g2_affine_t *o = *out;
    PM_OMP(parallel for schedule(dynamic, 256) reduction(min : bad) if (n >= 1024))
    for (int64_t i = 0; i < (int64_t)n; i++)
        if (dec_g2(&o[i], base + (uint64_t)i * G2_BYTES, 0, (uint64_t)i, c, NULL) != PM_OK &&
            i < bad)
            bad = i;
    if (bad < (int64_t)n) {
        g2_affine_t t;
        return dec_g2(&t, base + (uint64_t)bad * G2_BYTES, r->pos + (uint64_t)bad * G2_BYTES,
                      (uint64_t)bad, c, err);
    }
    return PM_OK;
}

/* ---- sections ---- */

static pm_status check_prime(const uint8_t *le, uint32_t n8, pm_prime_id want, const char *which,
                             const char *file, uint64_t off, pm_error *err) {
    pm_prime_id id = pm_prime_identify(le, n8);
    if (id == PM_PRIME_BN254_Q || id == PM_PRIME_BN254_R)
        return pm_error_set(err, PM_ERR_CURVE, file, off,
                            "zkey %s is %s: bn128 is not supported yet (BLS12-381 only: circom --prime "
                            "bls12381 and a bls12381 powers of tau, README \"circom quick start\")",
                            which, pm_prime_name(id));
    if (id != want)
        return pm_error_set(err, PM_ERR_CURVE, file, off,
                            "zkey %s (n8 = %u) is %s, expected %s", which, n8, pm_prime_name(id),
                            pm_prime_name(want));
    return PM_OK;
}

/* Sections 1 and 2; the six header points are decoded only when decode_points is set. */
static pm_status read_header(zkey_t *zk, const pm_binfile *bf, unsigned flags, int decode_points,
                            pm_error *err) {
    const char *name = bf->file.name;
    pm_reader r;
    pm_status st;
    uint32_t protocol;
    if ((st = pm_binfile_section_exact(&r, bf, 1, 4, "protocol", err))) return st;
    pm_reader_u32(&r, &protocol, "protocol", err);
    if (protocol != 1)
        return pm_error_set(err, PM_ERR_FORMAT, name, r.pos - 4,
                            "not a groth16 zkey: protocol %u (%s)", protocol,
                            protocol == 2 ? "plonk" : protocol == 10 ? "fflonk" : "unknown");

    if ((st = pm_binfile_section_reader(&r, bf, 2, "groth16 header", err))) return st;
    uint64_t start = r.pos;
    uint32_t n8q, n8r;
    const uint8_t *q, *rr;
    if ((st = pm_reader_u32(&r, &n8q, "header n8q", err))) return st;
    if ((st = pm_reader_bytes(&r, &q, n8q, "header q", err))) return st;
    if ((st = check_prime(q, n8q, PM_PRIME_BLS12_381_Q, "base field q", name, start + 4, err)))
        return st;
    if ((st = pm_reader_u32(&r, &n8r, "header n8r", err))) return st;
    if ((st = pm_reader_bytes(&r, &rr, n8r, "header r", err))) return st;
    if ((st = check_prime(rr, n8r, PM_PRIME_BLS12_381_R, "scalar field r", name, r.pos - n8r,
                          err)))
        return st;
    if (r.end - start != HEADER_BYTES)
        return pm_error_set(err, PM_ERR_FORMAT, name, start,
                            "section 2 (groth16 header): expected %u bytes, found %llu",
                            HEADER_BYTES, (unsigned long long)(r.end - start));
    uint64_t off_counts = r.pos;
    pm_reader_u32(&r, &zk->n_vars, "nVars", err);
    pm_reader_u32(&r, &zk->n_public, "nPublic", err);
    pm_reader_u32(&r, &zk->domain_size, "domainSize", err);
    if ((uint64_t)zk->n_public + 1 > zk->n_vars)
        return pm_error_set(err, PM_ERR_FORMAT, name, off_counts,
                            "header: nPublic + 1 = %llu exceeds nVars = %u",
                            (unsigned long long)zk->n_public + 1, zk->n_vars);
    uint32_t N = zk->domain_size;
    if (N < 2 || (N & (N - 1)) != 0 || N > (1u << MAX_LOG2_DOMAIN))
        return pm_error_set(err, PM_ERR_FORMAT, name, off_counts + 8,
                            "header: domainSize = %u is not a power of two in [2, 2^%u]", N,
                            MAX_LOG2_DOMAIN);
    zk->log2_domain = 0;
    while ((1u << zk->log2_domain) < N) zk->log2_domain++;
    if (!decode_points) return PM_OK;

    dec_ctx c = {name, "section 2 (header)", flags};
    const uint8_t *p;
    struct { int g2; void *dst; const char *what; } pts[6] = {
        {0, &zk->alpha1, "section 2 (header) alpha_1"}, {0, &zk->beta1, "section 2 (header) beta_1"},
        {1, &zk->beta2, "section 2 (header) beta_2"},   {1, &zk->gamma2, "section 2 (header) gamma_2"},
        {0, &zk->delta1, "section 2 (header) delta_1"}, {1, &zk->delta2, "section 2 (header) delta_2"},
    };
    for (int i = 0; i < 6; i++) {
        uint64_t off = r.pos;
        c.what = pts[i].what;
        int inf;
        if (pts[i].g2) {
            pm_reader_bytes(&r, &p, G2_BYTES, pts[i].what, err);
            if ((st = dec_g2(pts[i].dst, p, off, 0, &c, err))) return st;
            inf = g2_affine_is_infinity(pts[i].dst);
        } else {
            pm_reader_bytes(&r, &p, G1_BYTES, pts[i].what, err);
            if ((st = dec_g1(pts[i].dst, p, off, 0, &c, err))) return st;
            inf = g1_affine_is_infinity(pts[i].dst);
        }
        /* alpha, beta, gamma, delta are secret multiples of the generators: never infinity in a
         * real key (and gamma = delta = infinity would make every proof of A = alpha, B = beta
         * verify) */
        if (inf)
            return pm_error_set(err, PM_ERR_FORMAT, name, off, "%s is the point at infinity",
                                pts[i].what);
    }
    return PM_OK;
}

/* Section 4's reader positioned after nCoefs, with its size checked: 4 + nCoefs * 44 bytes. */
static pm_status coef_section(pm_reader *r, uint32_t *nc, const pm_binfile *bf, pm_error *err) {
    pm_status st;
    if ((st = pm_binfile_section_reader(r, bf, 4, "coefficients", err))) return st;
    if ((st = pm_reader_u32(r, nc, "section 4 nCoefs", err))) return st;
    if (pm_reader_left(r) != (uint64_t)*nc * COEF_BYTES)
        return pm_error_set(err, PM_ERR_FORMAT, bf->file.name, r->pos - 4,
                            "section 4 (coefficients): nCoefs = %u needs %llu bytes, found %llu",
                            *nc, (unsigned long long)*nc * COEF_BYTES,
                            (unsigned long long)pm_reader_left(r));
    return PM_OK;
}

/* Section 4: validate, keep the list (unless skipped), bucket into A_dom / B_dom. */
/* coefficient fields (matrix, constraint, signal) from its first 12 bytes (little-endian u32s) */
static void coef_fields(uint32_t f[3], const uint8_t *e) {
    for (int j = 0; j < 3; j++)
        f[j] = (uint32_t)e[4 * j] | (uint32_t)e[4 * j + 1] << 8 | (uint32_t)e[4 * j + 2] << 16 |
               (uint32_t)e[4 * j + 3] << 24;
}

/* Coefficient i (bytes e, file offset off): PM_OK, or the error naming it (same text as always). */
static pm_status coef_check(const zkey_t *zk, const uint8_t *e, uint32_t i, uint64_t off, const char *name,
                            pm_error *err) {
    uint32_t f[3];
    coef_fields(f, e);
    const char *bad = NULL;
    uint64_t boff = off;
    if (f[0] > 1) bad = "matrix is not 0 (A) or 1 (B)";
    else if (f[1] >= zk->domain_size) bad = "constraint >= domainSize", boff = off + 4;
    else if (f[2] >= zk->n_vars) bad = "signal >= nVars", boff = off + 8;
    if (bad)
        return pm_error_set(err, PM_ERR_FORMAT, name, boff,
                            "section 4 coefficient %u: %s (matrix %u, constraint %u, signal %u;"
                            " nVars %u, domainSize %u)",
                            i, bad, f[0], f[1], f[2], zk->n_vars, zk->domain_size);
    fr_t v;
    if (fr_from_mont_le_bytes(&v, e + 12) != 0)
        return pm_error_set(err, PM_ERR_ENCODING, name, off + 12,
                            "section 4 coefficient %u: value is not canonical (>= r)", i);
    return PM_OK;
}

/* Coefficient i into its matrix slot (and the optional list): 0, or -1 when the bytes are no longer
 * what pass 1 checked and counted (the mapped file was rewritten in place between the passes): then
 * nothing is stored, and the slot is not one of its row's in the matrix sized by pass 1. */
static int coef_store(zkey_t *zk, r1cs_matrix_t *const M[2], const uint8_t *e, uint32_t i, uint64_t slot) {
    uint32_t f[3];
    coef_fields(f, e);
    fr_t v;
    if (f[0] > 1 || f[1] >= zk->domain_size || f[2] >= zk->n_vars || fr_from_mont_le_bytes(&v, e + 12) != 0 ||
        slot < M[f[0]]->row_ptr[f[1]] || slot >= M[f[0]]->row_ptr[f[1] + 1])
        return -1;
    M[f[0]]->col[slot] = f[2];
    /* v = coef*R^2 as an integer = Montgomery form of coef*R; dividing by R once gives
     * coef*R = Montgomery form of coef. */
    fr_from_mont(&M[f[0]]->coef[slot], &v);
    if (zk->coefs) {
        zk->coefs[i].matrix = f[0];
        zk->coefs[i].constraint = f[1];
        zk->coefs[i].signal = f[2];
        zk->coefs[i].value = v;
    }
    return 0;
}

/* Section 4 into the CSR matrices A_dom, B_dom (rows in file order within a row: a stable counting
 * sort by (matrix, constraint)). The coefficients are cut into chunks of COEF_CHUNK that the threads
 * take. Pass 1 validates (the error, if any, is the first bad coefficient in file order, as a serial
 * scan would report it), counts per row with atomic increments and per chunk and matrix, and notes
 * whether each matrix's coefficients come in non-decreasing constraint order, as snarkjs and
 * groth16_setup_snarkjs write them (per constraint its A terms, then its B terms). Then coefficient i's
 * slot is the number of coefficients of its matrix before it: a chunk's start from the counts of the
 * chunks before it, so pass 2 is parallel too; a file in any other order is filled by the serial stable
 * pass. */
#define COEF_CHUNK ((uint64_t)1 << 16)
typedef struct {
    uint64_t count[2];   /* coefficients of matrix 0 / 1 in the chunk */
    uint32_t first[2];   /* constraint of the first / last coefficient of each matrix (count > 0) */
    uint32_t last[2];
    int64_t bad;         /* first invalid coefficient of the chunk, or -1 */
    int unsorted;        /* a matrix's constraints decrease inside the chunk */
} coef_chunk;

static pm_status read_coefs(zkey_t *zk, const pm_binfile *bf, unsigned flags, pm_error *err) {
    const char *name = bf->file.name;
    pm_reader r;
    pm_status st;
    uint32_t nc;
    if ((st = coef_section(&r, &nc, bf, err))) return st;
    zk->n_coefs = nc;
    const uint8_t *base = bf->file.data + r.pos;
    const uint32_t N = zk->domain_size;
    const int64_t nch = (int64_t)(((uint64_t)nc + COEF_CHUNK - 1) / COEF_CHUNK);
    uint64_t *cnt[2];
    cnt[0] = calloc((size_t)N + 1, sizeof(uint64_t));
    cnt[1] = calloc((size_t)N + 1, sizeof(uint64_t));
    coef_chunk *ch = calloc((size_t)(nch ? nch : 1), sizeof *ch);
    if (!cnt[0] || !cnt[1] || !ch) {
        free(cnt[0]);
        free(cnt[1]);
        free(ch);
        return pm_error_set(err, PM_ERR_NOMEM, name, PM_NO_OFFSET, "coefficient row counts");
    }
    /* Pass 1: validate, count per (matrix, row) and per chunk. */
    PM_OMP(parallel for schedule(dynamic, 1) if (nch > 1))
    for (int64_t t = 0; t < nch; t++) {
        coef_chunk *k = &ch[t];
        k->bad = -1;
        const uint64_t lo = (uint64_t)t * COEF_CHUNK, hi = lo + COEF_CHUNK < nc ? lo + COEF_CHUNK : nc;
        for (uint64_t i = lo; i < hi; i++) {
            const uint8_t *e = base + i * COEF_BYTES;
            if (coef_check(zk, e, (uint32_t)i, 0, name, NULL) != PM_OK) {
                k->bad = (int64_t)i;
                break;
            }
            uint32_t f[3];
            coef_fields(f, e);
            uint64_t *c = &cnt[f[0]][f[1] + 1];
            PM_OMP(atomic update)
            (*c)++;
            const uint32_t m = f[0];
            if (k->count[m] == 0) k->first[m] = f[1];
            else if (f[1] < k->last[m]) k->unsorted = 1;
            k->last[m] = f[1];
            k->count[m]++;
        }
    }
    /* the first bad coefficient in file order; the chunks' order across their boundaries */
    int unsorted = 0;
    uint32_t max_row_plus1 = 0;
    uint64_t seen[2] = {0, 0};
    uint32_t prev_last[2] = {0, 0};
    for (int64_t t = 0; t < nch; t++) {
        if (ch[t].bad >= 0) {
            const uint64_t i = (uint64_t)ch[t].bad;
            free(cnt[0]);
            free(cnt[1]);
            free(ch);
            return coef_check(zk, base + i * COEF_BYTES, (uint32_t)i, r.pos + i * COEF_BYTES, name, err);
        }
        unsorted |= ch[t].unsorted;
        for (int m = 0; m < 2; m++) {
            const uint64_t c = ch[t].count[m];
            if (!c) {
                ch[t].count[m] = seen[m]; /* from here on: the chunk's first slot of matrix m */
                continue;
            }
            if (seen[m] && ch[t].first[m] < prev_last[m]) unsorted = 1;
            prev_last[m] = ch[t].last[m];
            if (ch[t].last[m] + 1 > max_row_plus1) max_row_plus1 = ch[t].last[m] + 1;
            if (ch[t].first[m] + 1 > max_row_plus1) max_row_plus1 = ch[t].first[m] + 1;
            ch[t].count[m] = seen[m];
            seen[m] += c;
        }
    }
    /* the highest constraint used (the chunks' first/last bound it only when sorted) */
    if (unsorted) {
        max_row_plus1 = 0;
        for (int m = 0; m < 2; m++)
            for (uint32_t k = N; k > 0; k--)
                if (cnt[m][k]) {
                    if (k > max_row_plus1) max_row_plus1 = k;
                    break;
                }
    }
    zk->n_rows_used = max_row_plus1;
    /* Allocate and prefix-sum the row pointers. */
    r1cs_matrix_t *const M[2] = {&zk->A_dom, &zk->B_dom};
    for (int m = 0; m < 2; m++) {
        for (uint32_t k = 0; k < N; k++) cnt[m][k + 1] += cnt[m][k];
        st = r1cs_matrix_alloc(M[m], N, zk->n_vars, cnt[m][N], name, err);
        if (st) {
            free(cnt[0]);
            free(cnt[1]);
            free(ch);
            return st;
        }
        memcpy(M[m]->row_ptr, cnt[m], ((size_t)N + 1) * sizeof(uint64_t));
    }
    if (!(flags & ZKEY_SKIP_COEFS_LIST)) {
        zk->coefs = malloc((size_t)(nc ? nc : 1) * sizeof *zk->coefs);
        if (!zk->coefs) {
            free(cnt[0]);
            free(cnt[1]);
            free(ch);
            return pm_error_set(err, PM_ERR_NOMEM, name, PM_NO_OFFSET, "%u coefficients", nc);
        }
    }
    /* Pass 2: fill. Each matrix in constraint order: coefficient i's slot is the count of its matrix's
     * coefficients before it (ch[t].count now holds that count at the chunk's start). Otherwise cnt[m][k]
     * is the next free slot of row k (stable counting sort, serial). */
    /* the lowest coefficient whose bytes changed since pass 1, or nc (ch[t].bad, -1 after pass 1, holds
     * a chunk's first) */
    uint64_t changed = nc;
    if (!unsorted) {
        PM_OMP(parallel for schedule(dynamic, 1) if (nch > 1))
        for (int64_t t = 0; t < nch; t++) {
            uint64_t next[2] = {ch[t].count[0], ch[t].count[1]};
            const uint64_t lo = (uint64_t)t * COEF_CHUNK, hi = lo + COEF_CHUNK < nc ? lo + COEF_CHUNK : nc;
            for (uint64_t i = lo; i < hi; i++) {
                const uint8_t *e = base + i * COEF_BYTES;
                const unsigned m = e[0] & 1; /* the matrix, 0 or 1 when unchanged; coef_store checks it */
                if (coef_store(zk, M, e, (uint32_t)i, next[m]++)) {
                    ch[t].bad = (int64_t)i;
                    break;
                }
            }
        }
        for (int64_t t = 0; t < nch && changed == nc; t++)
            if (ch[t].bad >= 0) changed = (uint64_t)ch[t].bad;
    } else {
        for (uint32_t i = 0; i < nc; i++) {
            const uint8_t *e = base + (uint64_t)i * COEF_BYTES;
            uint32_t f[3];
            coef_fields(f, e);
            if (f[0] > 1 || f[1] >= N || coef_store(zk, M, e, i, cnt[f[0]][f[1]]++)) {
                changed = i;
                break;
            }
        }
    }
    free(cnt[0]);
    free(cnt[1]);
    free(ch);
    if (changed < nc)
        return pm_file_changed_error(err, name, r.pos + changed * COEF_BYTES, "a section 4 coefficient");
    return PM_OK;
}

static pm_status read_points(zkey_t *zk, const pm_binfile *bf, unsigned flags, pm_error *err) {
    const char *name = bf->file.name;
    pm_reader r;
    pm_status st;
    dec_ctx c = {name, "", flags};
    uint64_t nv = zk->n_vars, npub1 = (uint64_t)zk->n_public + 1, N = zk->domain_size;

    c.what = "section 3 (IC)";
    if ((st = pm_binfile_section_exact(&r, bf, 3, npub1 * G1_BYTES, "IC", err)) ||
        (st = dec_g1_array(&zk->ic, &r, npub1, &c, err)))
        return st;
    c.what = "section 5 (A)";
    if ((st = pm_binfile_section_exact(&r, bf, 5, nv * G1_BYTES, "A", err)) ||
        (st = dec_g1_array(&zk->a, &r, nv, &c, err)))
        return st;
    c.what = "section 6 (B1)";
    if ((st = pm_binfile_section_exact(&r, bf, 6, nv * G1_BYTES, "B1", err)) ||
        (st = dec_g1_array(&zk->b1, &r, nv, &c, err)))
        return st;
    c.what = "section 7 (B2)";
    if ((st = pm_binfile_section_exact(&r, bf, 7, nv * G2_BYTES, "B2", err)) ||
        (st = dec_g2_array(&zk->b2, &r, nv, &c, err)))
        return st;
    c.what = "section 8 (C)";
    if ((st = pm_binfile_section_exact(&r, bf, 8, (nv - npub1) * G1_BYTES, "C", err)) ||
        (st = dec_g1_array(&zk->c, &r, nv - npub1, &c, err)))
        return st;
    c.what = "section 9 (H)";
    if ((st = pm_binfile_section_exact(&r, bf, 9, N * G1_BYTES, "H", err)) ||
        (st = dec_g1_array(&zk->h, &r, N, &c, err)))
        return st;
    return PM_OK;
}

/* Section 10 is optional for proving; when present, check its fixed prefix only. */
static pm_status read_transcript(zkey_t *zk, const pm_binfile *bf, pm_error *err) {
    const pm_section *s = pm_binfile_find(bf, 10);
    if (!s) return PM_OK;
    pm_reader r;
    pm_reader_init(&r, &bf->file, s->offset, s->offset + s->size);
    pm_status st;
    if ((st = pm_reader_skip(&r, 64, "section 10 csHash", err)) ||
        (st = pm_reader_u32(&r, &zk->n_contributions, "section 10 nContributions", err)))
        return st;
    return PM_OK;
}

/* Every point section's exact size, checked before anything is allocated from the header's
 * counts (a 1 KiB file claiming domainSize = 2^31 must fail here, not after 16 GiB of calloc). */
static pm_status check_point_sizes(const zkey_t *zk, const pm_binfile *bf, pm_error *err) {
    uint64_t nv = zk->n_vars, npub1 = (uint64_t)zk->n_public + 1, N = zk->domain_size;
    struct { uint32_t id; uint64_t size; const char *what; } s[6] = {
        {3, npub1 * G1_BYTES, "IC"},        {5, nv * G1_BYTES, "A"},
        {6, nv * G1_BYTES, "B1"},           {7, nv * G2_BYTES, "B2"},
        {8, (nv - npub1) * G1_BYTES, "C"},  {9, N * G1_BYTES, "H"},
    };
    pm_reader r;
    pm_status st;
    for (int i = 0; i < 6; i++)
        if ((st = pm_binfile_section_exact(&r, bf, s[i].id, s[i].size, s[i].what, err))) return st;
    return PM_OK;
}

static pm_status zkey_parse(zkey_t *zk, pm_binfile *bf, unsigned flags, pm_error *err) {
    pm_status st;
    if ((st = read_header(zk, bf, flags, 1, err))) return st;
    if ((st = check_point_sizes(zk, bf, err))) return st;
    if ((st = read_coefs(zk, bf, flags, err))) return st;
    if ((st = read_points(zk, bf, flags, err))) return st;
    return read_transcript(zk, bf, err);
}

void zkey_free(zkey_t *zk) {
    if (!zk) return;
    free(zk->ic);
    free(zk->a);
    free(zk->b1);
    free(zk->b2);
    free(zk->c);
    free(zk->h);
    free(zk->coefs);
    r1cs_matrix_free(&zk->A_dom);
    r1cs_matrix_free(&zk->B_dom);
    memset(zk, 0, sizeof *zk);
}

static pm_status zkey_finish(zkey_t *zk, pm_binfile *bf, unsigned flags, pm_error *err) {
    pm_status st = pm_file_settle(&bf->file, zkey_parse(zk, bf, flags, err), err);
    pm_binfile_close(bf);
    if (st) zkey_free(zk);
    return st;
}

pm_status zkey_read(zkey_t *zk, const char *path, unsigned flags, pm_error *err) {
    memset(zk, 0, sizeof *zk);
    pm_binfile bf;
    pm_status st = pm_binfile_open(&bf, path, "zkey", 1, err);
    if (st) return st;
    return zkey_finish(zk, &bf, flags, err);
}

pm_status zkey_read_memory(zkey_t *zk, const void *data, size_t size, const char *name,
                           unsigned flags, pm_error *err) {
    memset(zk, 0, sizeof *zk);
    pm_binfile bf;
    pm_status st = pm_binfile_open_memory(&bf, data, size, name, "zkey", 1, err);
    if (st) return st;
    return zkey_finish(zk, &bf, flags, err);
}

/* ---- header-only information ---- */

pm_status zkey_read_info(zkey_info_t *info, const char *path, pm_error *err) {
    memset(info, 0, sizeof *info);
    pm_binfile bf;
    pm_status st = pm_binfile_open(&bf, path, "zkey", 1, err);
    if (st) return st;
    zkey_t zk;
    memset(&zk, 0, sizeof zk);
    pm_reader r;
    uint32_t nc = 0;
    if (!(st = read_header(&zk, &bf, 0, 0, err)) && !(st = check_point_sizes(&zk, &bf, err)) &&
        !(st = coef_section(&r, &nc, &bf, err))) {
        info->n_vars = zk.n_vars;
        info->n_public = zk.n_public;
        info->domain_size = zk.domain_size;
        info->log2_domain = zk.log2_domain;
        info->n_coefs = nc;
        info->file_bytes = bf.file.size;
    }
    st = pm_file_settle(&bf.file, st, err);
    pm_binfile_close(&bf);
    return st;
}

uint64_t zkey_resident_bytes(const zkey_info_t *info, unsigned flags) {
    uint64_t g1 = sizeof(g1_affine_t), g2 = sizeof(g2_affine_t);
    uint64_t nv = info->n_vars, npub1 = (uint64_t)info->n_public + 1, N = info->domain_size;
    uint64_t pts = npub1 * g1 + nv * (2 * g1 + g2) + (nv - npub1) * g1 + N * g1;
    /* A_dom + B_dom: row pointers, one u32 column and one fr_t per coefficient */
    uint64_t csr = 2 * (N + 1) * sizeof(uint64_t) + (uint64_t)info->n_coefs * (4 + sizeof(fr_t));
    uint64_t list = (flags & ZKEY_SKIP_COEFS_LIST) ? 0 : (uint64_t)info->n_coefs * sizeof(zkey_coef_t);
    return pts + csr + list;
}

/* ---- evaluation and cross-checks ---- */

pm_status zkey_eval_ab(fr_t *a, fr_t *b, size_t n, const zkey_t *zk, const fr_t *w, size_t n_w,
                       pm_error *err) {
    if (n_w != zk->n_vars)
        return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                            "witness has %zu values, zkey expects nVars = %u", n_w, zk->n_vars);
    if (n != zk->domain_size)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "output has %zu elements, domain size is %u", n, zk->domain_size);
    pm_status st;
    if (a && (st = r1cs_matrix_mul(a, n, &zk->A_dom, w, n_w, err))) return st;
    if (b && (st = r1cs_matrix_mul(b, n, &zk->B_dom, w, n_w, err))) return st;
    return PM_OK;
}

pm_status zkey_check_witness(const zkey_t *zk, const wtns_t *w, const char *wtns_name,
                             pm_error *err) {
    if (w->n_values != zk->n_vars)
        return pm_error_set(err, PM_ERR_MISMATCH, wtns_name, PM_NO_OFFSET,
                            "witness has %u values, zkey expects nVars = %u (witness of another "
                            "circuit?)",
                            w->n_values, zk->n_vars);
    return PM_OK;
}

uint64_t zkey_domain_size_for(uint32_t n_constraints, uint32_t n_public) {
    uint64_t x = (uint64_t)n_constraints + n_public;
    unsigned lg = 0;
    while (x >> (lg + 1)) lg++; /* floor(log2 x); x = 0 -> 0 */
    if (lg + 1 > MAX_LOG2_DOMAIN) return 0;
    return (uint64_t)1 << (lg + 1);
}

pm_status zkey_check_r1cs(const zkey_t *zk, const r1cs_t *cs, const char *r1cs_name,
                          pm_error *err) {
    const char *f = r1cs_name;
    uint32_t npub = r1cs_n_public(cs);
    if (cs->n_wires != zk->n_vars)
        return pm_error_set(err, PM_ERR_MISMATCH, f, PM_NO_OFFSET,
                            "r1cs has %u wires, zkey has nVars = %u", cs->n_wires, zk->n_vars);
    if (npub != zk->n_public)
        return pm_error_set(err, PM_ERR_MISMATCH, f, PM_NO_OFFSET,
                            "r1cs has %u public signals, zkey has nPublic = %u", npub,
                            zk->n_public);
    uint64_t N = zkey_domain_size_for(cs->n_constraints, npub);
    if (N != zk->domain_size)
        return pm_error_set(err, PM_ERR_MISMATCH, f, PM_NO_OFFSET,
                            "r1cs (%u constraints + %u public) needs domain size %llu, zkey has %u",
                            cs->n_constraints, npub, (unsigned long long)N, zk->domain_size);
    if ((uint64_t)cs->n_constraints + npub + 1 != zk->n_rows_used)
        return pm_error_set(err, PM_ERR_MISMATCH, f, PM_NO_OFFSET,
                            "r1cs has %u constraints + %u input constraints, zkey uses %u rows",
                            cs->n_constraints, npub + 1, zk->n_rows_used);
    if (cs->A.nnz + npub + 1 != zk->A_dom.nnz || cs->B.nnz != zk->B_dom.nnz)
        return pm_error_set(err, PM_ERR_MISMATCH, f, PM_NO_OFFSET,
                            "coefficient counts differ: r1cs A %llu (+%u input terms), B %llu; "
                            "zkey A %llu, B %llu",
                            (unsigned long long)cs->A.nnz, npub + 1, (unsigned long long)cs->B.nnz,
                            (unsigned long long)zk->A_dom.nnz, (unsigned long long)zk->B_dom.nnz);
    return PM_OK;
}
