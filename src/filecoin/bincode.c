/*
 * bincode.c — bincode 1.x reading/writing and the MerkleProof codec (bincode.h).
 */
#include "filecoin/bincode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

pm_status fil_bc_len(uint64_t *n, pm_reader *r, uint64_t min_elem_bytes, uint64_t max, const char *what,
                     pm_error *err) {
    uint64_t at = r->pos;
    pm_status st = pm_reader_u64(r, n, what, err);
    if (st) return st;
    if (*n > max)
        return pm_error_set(err, PM_ERR_FORMAT, r->file->name, at, "%s: length %llu, at most %llu allowed", what,
                            (unsigned long long)*n, (unsigned long long)max);
    if (min_elem_bytes && *n > pm_reader_left(r) / min_elem_bytes)
        return pm_error_set(err, PM_ERR_FORMAT, r->file->name, at,
                            "%s: length %llu needs at least %llu bytes, only %llu left", what,
                            (unsigned long long)*n, (unsigned long long)(*n * min_elem_bytes),
                            (unsigned long long)pm_reader_left(r));
    return PM_OK;
}

pm_status fil_bc_tag(uint32_t *tag, pm_reader *r, uint32_t nvariants, const char *what, pm_error *err) {
    uint64_t at = r->pos;
    pm_status st = pm_reader_u32(r, tag, what, err);
    if (st) return st;
    if (*tag >= nvariants)
        return pm_error_set(err, PM_ERR_FORMAT, r->file->name, at, "%s: enum variant %u, only 0..%u exist", what,
                            *tag, nvariants - 1);
    return PM_OK;
}

pm_status fil_bc_domain(uint8_t out[32], pm_reader *r, const char *what, pm_error *err) {
    const uint8_t *p;
    pm_status st = pm_reader_bytes(r, &p, 32, what, err);
    if (!st) memcpy(out, p, 32);
    return st;
}

pm_status fil_bc_end(const pm_reader *r, const char *what, pm_error *err) {
    if (r->pos != r->end)
        return pm_error_set(err, PM_ERR_FORMAT, r->file->name, r->pos, "%s: %llu trailing bytes after the value", what,
                            (unsigned long long)(r->end - r->pos));
    return PM_OK;
}

/* InclusionPath { path: Vec<PathElement { hashes: Vec<D>, index: usize }> } into elems[*k..]. */
static pm_status read_path(fil_path_elem_t *elems, uint32_t *k, uint32_t *count, pm_reader *r, const char *what,
                           const char *part, pm_error *err) {
    char w[300];
    snprintf(w, sizeof w, "%s: %s path", what, part);
    uint64_t n;
    /* an element is at least 48 bytes (two u64 and a sibling); the levels of all paths share one bound */
    pm_status st = fil_bc_len(&n, r, 48, FIL_MERKLE_MAX_LEVELS - *k, w, err);
    if (st) return st;
    *count = (uint32_t)n;
    for (uint64_t i = 0; i < n; i++) {
        fil_path_elem_t *e = &elems[(*k)++];
        memset(e, 0, sizeof *e);
        snprintf(w, sizeof w, "%s: %s path element %llu", what, part, (unsigned long long)i);
        uint64_t nh, at = r->pos;
        if ((st = fil_bc_len(&nh, r, 32, FIL_MERKLE_MAX_ARITY - 1, w, err))) return st;
        if (nh == 0) /* an arity-1 level: no Filecoin tree has one (and 16 bytes would fill 240) */
            return pm_error_set(err, PM_ERR_FORMAT, r->file->name, at, "%s: no sibling hashes (arity 1)", w);
        e->nhashes = (uint32_t)nh;
        for (uint64_t h = 0; h < nh; h++)
            if ((st = fil_bc_domain(e->hashes[h], r, w, err))) return st;
        if ((st = pm_reader_u64(r, &e->index, w, err))) return st;
    }
    return PM_OK;
}

pm_status fil_bc_read_merkle_proof(fil_merkle_proof_t *p, pm_reader *r, fil_arena_t *a, const char *what,
                                   pm_error *err) {
    memset(p, 0, sizeof *p);
    uint32_t tag;
    char w[300];
    snprintf(w, sizeof w, "%s: ProofData", what);
    pm_status st = fil_bc_tag(&tag, r, 3, w, err);
    if (st) return st;
    p->kind = (fil_proof_kind_t)tag;
    /* the paths are read here, then copied into a block of exactly their length: a block of
     * FIL_MERKLE_MAX_LEVELS elements per proof made every 76-byte empty proof cost 9.6 KB of arena
     * (a 64 MiB vanilla input of them reserved 8 GB) */
    fil_path_elem_t elems[FIL_MERKLE_MAX_LEVELS];
    uint32_t k = 0;
    if (tag == FIL_PROOF_SINGLE) {
        if ((st = fil_bc_domain(p->root, r, w, err)) || (st = fil_bc_domain(p->leaf, r, w, err)) ||
            (st = read_path(elems, &k, &p->nbase, r, what, "base", err)))
            return st;
    } else {
        if ((st = read_path(elems, &k, &p->nbase, r, what, "base", err)) ||
            (st = read_path(elems, &k, &p->nsub, r, what, "sub", err)))
            return st;
        if (tag == FIL_PROOF_TOP && (st = read_path(elems, &k, &p->ntop, r, what, "top", err))) return st;
        if ((st = fil_bc_domain(p->root, r, w, err)) || (st = fil_bc_domain(p->leaf, r, w, err))) return st;
    }
    p->elems = fil_arena_alloc(a, (k ? k : 1) * sizeof *p->elems);
    if (!p->elems) return pm_error_set(err, PM_ERR_NOMEM, r->file->name, r->pos, "%s: out of memory", what);
    memcpy(p->elems, elems, k * sizeof *p->elems);
    return PM_OK;
}

pm_status fil_bc_read_blobs(void **items, size_t item_size, fil_arena_t *a, const uint8_t *const *blobs,
                            const size_t *lens, size_t n, const char *name, fil_bc_blob_reader rd, pm_error *err) {
    *items = NULL;
    if (!n) return pm_error_set(err, PM_ERR_ARG, name, PM_NO_OFFSET, "no vanilla proofs");
    uint8_t *v = fil_arena_alloc(a, n * item_size);
    if (!v) return pm_error_set(err, PM_ERR_NOMEM, name, PM_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < n; i++) {
        char nm[300];
        snprintf(nm, sizeof nm, "%s[%zu]", name, i);
        pm_status st = rd(v + i * item_size, a, blobs[i], lens[i], nm, err);
        if (st) return st;
    }
    *items = v;
    return PM_OK;
}

/* ---- writing ---- */
static void reserve(fil_bc_buf *b, size_t n) {
    if (b->oom) return;
    if (b->cap - b->n >= n) return;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap - b->n < n) {
        if (cap > SIZE_MAX / 2) {
            b->oom = 1;
            return;
        }
        cap *= 2;
    }
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
        b->oom = 1;
        return;
    }
    b->p = p;
    b->cap = cap;
}

void fil_bc_put_bytes(fil_bc_buf *b, const void *data, size_t n) {
    reserve(b, n);
    if (b->oom) return;
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

void fil_bc_put_u32(fil_bc_buf *b, uint32_t v) {
    uint8_t x[4];
    for (int i = 0; i < 4; i++) x[i] = (uint8_t)(v >> (8 * i));
    fil_bc_put_bytes(b, x, 4);
}

void fil_bc_put_u64(fil_bc_buf *b, uint64_t v) {
    uint8_t x[8];
    for (int i = 0; i < 8; i++) x[i] = (uint8_t)(v >> (8 * i));
    fil_bc_put_bytes(b, x, 8);
}

static void put_path(fil_bc_buf *b, const fil_path_elem_t *e, uint32_t n) {
    fil_bc_put_u64(b, n);
    for (uint32_t i = 0; i < n; i++) {
        fil_bc_put_u64(b, e[i].nhashes);
        for (uint32_t h = 0; h < e[i].nhashes; h++) fil_bc_put_bytes(b, e[i].hashes[h], 32);
        fil_bc_put_u64(b, e[i].index);
    }
}

void fil_bc_put_merkle_proof(fil_bc_buf *b, const fil_merkle_proof_t *p) {
    fil_bc_put_u32(b, (uint32_t)p->kind);
    if (p->kind == FIL_PROOF_SINGLE) {
        fil_bc_put_bytes(b, p->root, 32);
        fil_bc_put_bytes(b, p->leaf, 32);
        put_path(b, p->elems, p->nbase);
        return;
    }
    put_path(b, p->elems, p->nbase);
    put_path(b, p->elems + p->nbase, p->nsub);
    if (p->kind == FIL_PROOF_TOP) put_path(b, p->elems + p->nbase + p->nsub, p->ntop);
    fil_bc_put_bytes(b, p->root, 32);
    fil_bc_put_bytes(b, p->leaf, 32);
}

pm_status fil_bc_finish(uint8_t **out, size_t *n, fil_bc_buf *b, pm_error *err) {
    *out = NULL;
    *n = 0;
    if (b->oom) {
        fil_bc_buf_free(b);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "bincode: out of memory");
    }
    *out = b->p;
    *n = b->n;
    memset(b, 0, sizeof *b);
    return PM_OK;
}

void fil_bc_buf_free(fil_bc_buf *b) {
    free(b->p);
    memset(b, 0, sizeof *b);
}
