/*
 * params.c — bellperson .vk / .params reader and writer (layout and checks: params.h).
 */
#include "groth16/params.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "curve/encoding.h"
#include "util/file.h"
#include "util/outfile.h"
#include "util/parallel.h"
#include "util/progress.h"

/* alpha_g1, beta_g1 (G1), beta_g2, gamma_g2 (G2), delta_g1 (G1), delta_g2 (G2) */
static const uint64_t VK_POINTS_BYTES = 96 + 96 + 192 + 192 + 96 + 192;

uint64_t params_vk_size(size_t n_ic) { return VK_POINTS_BYTES + 4 + 96 * (uint64_t)n_ic; }

uint64_t params_size(size_t n_ic, size_t n_h, size_t n_l, size_t n_a, size_t n_b_g1,
                        size_t n_b_g2) {
    return params_vk_size(n_ic) + 5 * 4 +
           96 * ((uint64_t)n_h + (uint64_t)n_l + (uint64_t)n_a + (uint64_t)n_b_g1) +
           192 * (uint64_t)n_b_g2;
}

void params_vk_free(bp_vk_t *vk) {
    free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

void params_free(bp_params_t *p) {
    params_vk_free(&p->vk);
    free(p->h);
    free(p->l);
    free(p->a);
    free(p->b_g1);
    free(p->b_g2);
    memset(p, 0, sizeof *p);
}

static uint32_t be32(const uint8_t *b) {
    return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
}

static void put_be32(uint8_t *b, uint32_t v) {
    b[0] = (uint8_t)(v >> 24);
    b[1] = (uint8_t)(v >> 16);
    b[2] = (uint8_t)(v >> 8);
    b[3] = (uint8_t)v;
}

/* ---------------------------------------------------------------- parallel decode */

#define DEC_CHUNK 4096

/* The whole pages inside data[lo, hi) of a read-only private file mapping given back to the kernel
 * (madvise MADV_DONTNEED: the next touch reads the page cache again; for such a mapping nothing is
 * lost). A decoded chunk's file pages then stop counting in the process's RSS: a 32 GiB PoRep
 * .params is 47.4 GB mapped beside its 47.4 GB of decoded points (max RSS 107.9 GB on the H200 at
 * 41372c6). Only whole pages of this chunk's own bytes: the neighbours' threads may read the edges. */
static void drop_pages(const uint8_t *data, uint64_t lo, uint64_t hi, long pg) {
    const uintptr_t a = ((uintptr_t)(data + lo) + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
    const uintptr_t b = (uintptr_t)(data + hi) & ~((uintptr_t)pg - 1);
    if (b > a) madvise((void *)a, b - a, MADV_DONTNEED);
}

/* Decode n points (g2 ? G2 : G1, uncompressed) starting at data + off into out; refuse infinity.
 * On error err holds the lowest-offset failure. what names the vector. drop: the page size when data
 * is a read-only private file mapping whose decoded pages are given back (drop_pages), else 0. */
static pm_status decode_vec(void *out, int g2, size_t n, const uint8_t *data, uint64_t off,
                            unsigned flags, const char *name, const char *what, long drop, pm_error *err) {
    size_t psz = g2 ? 192 : 96;
    size_t nchunks = (n + DEC_CHUNK - 1) / DEC_CHUNK;
    uint64_t bad_off = UINT64_MAX;
    pm_error first = {0};
    unsigned dflags = (flags & BP_PARAMS_CHECK_SUBGROUP) ? PM_DECODE_CHECK_SUBGROUP : 0;
    pm_task_progress *task = pm_progress_bound(); /* the OpenMP workers count into the caller's task */
    PM_OMP(parallel for schedule(dynamic, 1) if (nchunks > 1))
    for (size_t c = 0; c < nchunks; c++) {
        size_t lo = c * DEC_CHUNK, m = n - lo < DEC_CHUNK ? n - lo : DEC_CHUNK;
        pm_error e;
        pm_error_clear(&e);
        size_t bad = 0;
        pm_status st;
        uint64_t base = off + (uint64_t)lo * psz;
        if (g2)
            st = g2s_decode((g2_affine_t *)out + lo, m, data + base, PM_POINT_ZCASH_UNCOMPRESSED,
                            dflags, name, base, &bad, &e);
        else
            st = g1s_decode((g1_affine_t *)out + lo, m, data + base, PM_POINT_ZCASH_UNCOMPRESSED,
                            dflags, name, base, &bad, &e);
        if (drop > 0) drop_pages(data, base, base + (uint64_t)m * psz, drop);
        pm_progress_add_to(task, (uint64_t)m * psz);
        size_t lim = st ? bad : m;
        for (size_t i = 0; i < lim; i++) {
            int inf = g2 ? g2_affine_is_infinity((g2_affine_t *)out + lo + i)
                         : g1_affine_is_infinity((g1_affine_t *)out + lo + i);
            if (inf) {
                st = pm_error_set(&e, PM_ERR_FORMAT, name, base + i * psz,
                                  "%s point %zu is the point at infinity", what, lo + i);
                break;
            }
        }
        if (st) {
            if (e.offset == PM_NO_OFFSET) e.offset = base;
            PM_OMP(critical)
            {
                if (e.offset < bad_off) {
                    bad_off = e.offset;
                    first = e;
                }
            }
        }
    }
    /* the pages two chunks share were given back by neither: now every page the vector touched
     * (the threads are done with it; a neighbour's page read again later only faults it back) */
    if (drop > 0 && n) {
        const uintptr_t a = (uintptr_t)(data + off) & ~((uintptr_t)drop - 1);
        const uintptr_t b = ((uintptr_t)(data + off + (uint64_t)n * psz) + (uintptr_t)drop - 1) & ~((uintptr_t)drop - 1);
        madvise((void *)a, b - a, MADV_DONTNEED);
    }
    if (bad_off != UINT64_MAX) {
        if (first.code != PM_ERR_FORMAT) {
            /* prefix the vector's name to the curve layer's message */
            char msg[sizeof first.msg];
            snprintf(msg, sizeof msg, "%.16s: %.480s", what, first.msg);
            memcpy(first.msg, msg, sizeof msg);
        }
        if (err) *err = first;
        return first.code;
    }
    return PM_OK;
}

/* ---------------------------------------------------------------- reader */

typedef struct {
    const uint8_t *d;
    uint64_t size, pos;
    const char *name;
} cur_t;

static pm_status need(cur_t *c, uint64_t n, const char *what, pm_error *err) {
    if (c->size - c->pos < n)
        return pm_error_set(err, PM_ERR_FORMAT, c->name, c->pos,
                            "truncated: %s needs %llu bytes, file has %llu left", what,
                            (unsigned long long)n, (unsigned long long)(c->size - c->pos));
    return PM_OK;
}

/* Count + bounds for one vector: returns count, advances past the data (not decoded). */
static pm_status vec_header(cur_t *c, uint32_t *count, uint64_t *data_off, size_t psz,
                            const char *what, pm_error *err) {
    char w[64];
    snprintf(w, sizeof w, "the %s count", what);
    pm_status st = need(c, 4, w, err);
    if (st) return st;
    uint64_t at = c->pos;
    *count = be32(c->d + c->pos);
    c->pos += 4;
    uint64_t bytes = (uint64_t)*count * psz;
    if (c->size - c->pos < bytes)
        return pm_error_set(err, PM_ERR_FORMAT, c->name, at,
                            "truncated: %s declares %u points (%llu bytes), file has %llu bytes "
                            "left",
                            what, *count, (unsigned long long)bytes,
                            (unsigned long long)(c->size - c->pos));
    *data_off = c->pos;
    c->pos += bytes;
    return PM_OK;
}

/* Layout pass over the vk: bounds of the fixed points and the ic vector (nothing decoded). */
static pm_status vk_layout(cur_t *c, uint32_t *n_ic, uint64_t *ic_off, pm_error *err) {
    pm_status st = need(c, VK_POINTS_BYTES, "the verifying key", err);
    if (st) return st;
    c->pos += VK_POINTS_BYTES;
    if ((st = vec_header(c, n_ic, ic_off, 96, "ic", err))) return st;
    if (*n_ic == 0) return pm_error_set(err, PM_ERR_FORMAT, c->name, *ic_off - 4, "ic is empty");
    return PM_OK;
}

/* Decode pass over the vk (layout already checked). */
static pm_status vk_decode(bp_vk_t *vk, const cur_t *c, uint32_t n_ic, uint64_t ic_off,
                           unsigned flags, pm_error *err) {
    uint64_t o = 0;
    struct {
        int g2;
        void *p;
        const char *what;
    } pts[6] = {{0, &vk->alpha_g1, "vk alpha_g1"}, {0, &vk->beta_g1, "vk beta_g1"},
                {1, &vk->beta_g2, "vk beta_g2"},   {1, &vk->gamma_g2, "vk gamma_g2"},
                {0, &vk->delta_g1, "vk delta_g1"}, {1, &vk->delta_g2, "vk delta_g2"}};
    pm_status st;
    for (int i = 0; i < 6; i++) {
        st = decode_vec(pts[i].p, pts[i].g2, 1, c->d, o, flags, c->name, pts[i].what, 0, err);
        if (st) return st;
        o += pts[i].g2 ? 192 : 96;
    }
    vk->ic = malloc((size_t)n_ic * sizeof *vk->ic);
    if (!vk->ic) return pm_error_set(err, PM_ERR_NOMEM, c->name, ic_off, "ic: %u points", n_ic);
    vk->n_ic = n_ic;
    return decode_vec(vk->ic, 0, n_ic, c->d, ic_off, flags, c->name, "ic", 0, err);
}

pm_status params_vk_read_memory(bp_vk_t *vk, const void *data, size_t size, const char *name,
                            unsigned flags, pm_error *err) {
    memset(vk, 0, sizeof *vk);
    cur_t c = {data, size, 0, name};
    uint32_t n_ic = 0;
    uint64_t ic_off = 0;
    pm_status st = vk_layout(&c, &n_ic, &ic_off, err);
    if (!st && c.pos != c.size)
        st = pm_error_set(err, PM_ERR_FORMAT, name, c.pos, "%llu trailing bytes after the vk",
                          (unsigned long long)(c.size - c.pos));
    if (!st) st = vk_decode(vk, &c, n_ic, ic_off, flags, err);
    if (st) params_vk_free(vk);
    return st;
}

/* params_read_memory; drop: the page size when data is a read-only private file mapping
 * (params_read), 0 otherwise */
static pm_status params_read_image(bp_params_t *p, const void *data, size_t size, const char *name,
                                   unsigned flags, long drop, pm_error *err) {
    memset(p, 0, sizeof *p);
    cur_t c = {data, size, 0, name};
    uint32_t n_ic = 0;
    uint64_t ic_off = 0;
    /* 1. layout: every count against the bytes left, before any allocation or decoding */
    pm_status st = vk_layout(&c, &n_ic, &ic_off, err);
    static const char *names[5] = {"h", "l", "a", "b_g1", "b_g2"};
    uint32_t cnt[5];
    uint64_t off[5];
    for (int i = 0; i < 5 && !st; i++)
        st = vec_header(&c, &cnt[i], &off[i], i == 4 ? 192 : 96, names[i], err);
    if (!st && c.pos != c.size)
        st = pm_error_set(err, PM_ERR_FORMAT, name, c.pos, "%llu trailing bytes after b_g2",
                          (unsigned long long)(c.size - c.pos));
    /* 2. decode */
    if (!st) st = vk_decode(&p->vk, &c, n_ic, ic_off, flags, err);
    if (st || (flags & BP_PARAMS_VK_ONLY)) {
        if (st) params_free(p);
        return st;
    }
    void **dst[5] = {(void **)&p->h, (void **)&p->l, (void **)&p->a, (void **)&p->b_g1,
                     (void **)&p->b_g2};
    size_t *nn[5] = {&p->n_h, &p->n_l, &p->n_a, &p->n_b_g1, &p->n_b_g2};
    for (int i = 0; i < 5; i++) {
        size_t psz = i == 4 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
        *dst[i] = malloc(cnt[i] ? (size_t)cnt[i] * psz : 1);
        if (!*dst[i]) {
            st = pm_error_set(err, PM_ERR_NOMEM, name, off[i], "%s: %u points", names[i], cnt[i]);
            break;
        }
        *nn[i] = cnt[i];
    }
    uint64_t point_bytes = 0;
    for (int i = 0; i < 5; i++) point_bytes += (uint64_t)cnt[i] * (i == 4 ? 192 : 96);
    if (!st) pm_progress_stage("reading the parameters", point_bytes);
    for (int i = 0; i < 5 && !st; i++)
        st = decode_vec(*dst[i], i == 4, cnt[i], c.d, off[i], flags, name, names[i], drop, err);
    if (st) params_free(p);
    return st;
}

pm_status params_read_memory(bp_params_t *p, const void *data, size_t size, const char *name,
                                unsigned flags, pm_error *err) {
    return params_read_image(p, data, size, name, flags, 0, err);
}

pm_status params_vk_read(bp_vk_t *vk, const char *path, unsigned flags, pm_error *err) {
    pm_file f;
    memset(vk, 0, sizeof *vk);
    pm_status st = pm_file_open(&f, path, err);
    if (st) return st;
    st = pm_file_settle(&f, params_vk_read_memory(vk, f.data, f.size, path, flags, err), err);
    pm_file_close(&f);
    return st;
}

uint64_t params_read_extra_bytes(const bp_params_counts_t *c) {
    const uint64_t file_bytes = c->file_bytes;
    int t = pm_thread_count();
    if (t < 1) t = 1;
    long pgl = sysconf(_SC_PAGESIZE);
    const uint64_t pg = pgl > 0 ? (uint64_t)pgl : 4096;
    /* per thread a G2 chunk and its two edge pages; per chunk of the vector being decoded the page it
     * shares with the next (given back when the vector is done: at most one per G1 chunk of the
     * file); the vk's IC points and the header (not given back: small) */
    const uint64_t chunks = file_bytes / ((uint64_t)DEC_CHUNK * 96) + 1;
    const uint64_t b = (uint64_t)t * ((uint64_t)DEC_CHUNK * 192 + 2 * pg) + chunks * pg + (uint64_t)c->n_ic * 96 + (1u << 20);
    return b < file_bytes ? b : file_bytes;
}

pm_status params_read(bp_params_t *p, const char *path, unsigned flags, pm_error *err) {
    pm_file f;
    memset(p, 0, sizeof *p);
    pm_status st = pm_file_open(&f, path, err);
    if (st) return st;
    st = pm_file_settle(&f, params_read_image(p, f.data, f.size, path, flags, f.map_base ? sysconf(_SC_PAGESIZE) : 0, err),
                        err);
    pm_file_close(&f);
    return st;
}

/* ---------------------------------------------------------------- writer */

static void enc_g1s(uint8_t *out, const g1_affine_t *p, size_t n) {
    PM_OMP(parallel for schedule(static) if (n > 4096))
    for (size_t i = 0; i < n; i++) g1_to_uncompressed(out + 96 * i, &p[i]);
}

static void enc_g2s(uint8_t *out, const g2_affine_t *p, size_t n) {
    PM_OMP(parallel for schedule(static) if (n > 2048))
    for (size_t i = 0; i < n; i++) g2_to_uncompressed(out + 192 * i, &p[i]);
}

static uint8_t *vk_put(uint8_t *o, const bp_vk_t *vk) {
    enc_g1s(o, &vk->alpha_g1, 1), o += 96;
    enc_g1s(o, &vk->beta_g1, 1), o += 96;
    enc_g2s(o, &vk->beta_g2, 1), o += 192;
    enc_g2s(o, &vk->gamma_g2, 1), o += 192;
    enc_g1s(o, &vk->delta_g1, 1), o += 96;
    enc_g2s(o, &vk->delta_g2, 1), o += 192;
    put_be32(o, (uint32_t)vk->n_ic), o += 4;
    enc_g1s(o, vk->ic, vk->n_ic);
    return o + 96 * vk->n_ic;
}

pm_status params_vk_encode(uint8_t *out, size_t out_len, const bp_vk_t *vk, pm_error *err) {
    if (vk->n_ic > UINT32_MAX || out_len != params_vk_size(vk->n_ic))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "vk: buffer of %zu bytes, need %llu",
                            out_len, (unsigned long long)params_vk_size(vk->n_ic));
    vk_put(out, vk);
    return PM_OK;
}

pm_status params_encode(uint8_t *out, size_t out_len, const bp_params_t *p, pm_error *err) {
    uint64_t need_b = params_size(p->vk.n_ic, p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2);
    if (p->vk.n_ic > UINT32_MAX || p->n_h > UINT32_MAX || p->n_l > UINT32_MAX ||
        p->n_a > UINT32_MAX || p->n_b_g1 > UINT32_MAX || p->n_b_g2 > UINT32_MAX ||
        out_len != need_b)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "params: buffer of %zu bytes, need %llu", out_len,
                            (unsigned long long)need_b);
    uint8_t *o = vk_put(out, &p->vk);
    const g1_affine_t *g1v[4] = {p->h, p->l, p->a, p->b_g1};
    size_t g1n[4] = {p->n_h, p->n_l, p->n_a, p->n_b_g1};
    for (int i = 0; i < 4; i++) {
        put_be32(o, (uint32_t)g1n[i]), o += 4;
        enc_g1s(o, g1v[i], g1n[i]), o += 96 * g1n[i];
    }
    put_be32(o, (uint32_t)p->n_b_g2), o += 4;
    enc_g2s(o, p->b_g2, p->n_b_g2);
    return PM_OK;
}

/* Create path with size bytes, map it, fill with enc, unmap. */
static pm_status write_mapped(const char *path, uint64_t size,
                              pm_status (*enc)(uint8_t *, size_t, const void *, pm_error *),
                              const void *obj, pm_error *err) {
    pm_outfile o; /* written beside path, renamed into place when complete */
    pm_status ost = pm_outfile_begin(&o, path, err);
    if (ost) return ost;
    const int fd = o.fd; /* the temporary, open read-write; closed by commit or abort */
    /* the blocks reserved now: a sparse file (ftruncate) on a full disk would raise SIGBUS at the first
     * store into a page that gets no block, minutes into a 60 GB encode; here it is ENOSPC (or EFBIG
     * past RLIMIT_FSIZE) before any work */
    int fe = size ? posix_fallocate(fd, 0, (off_t)size) : 0;
    if (fe != 0) {
        pm_outfile_abort(&o);
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot reserve %" PRIu64 " bytes for it: %s%s",
                            size, strerror(fe), fe == ENOSPC ? " (free space in its directory, or write elsewhere)" : "");
    }
    void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) {
        int e = errno;
        pm_outfile_abort(&o);
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "mmap: %s", strerror(e));
    }
    pm_status st = enc(m, size, obj, err);
    if (msync(m, size, MS_SYNC) != 0 && !st)
        st = pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "msync: %s", strerror(errno));
    munmap(m, size);
    if (st) {
        pm_outfile_abort(&o);
        return st;
    }
    return pm_outfile_commit(&o, err);
}

static pm_status enc_vk_cb(uint8_t *o, size_t n, const void *obj, pm_error *err) {
    return params_vk_encode(o, n, obj, err);
}

static pm_status enc_params_cb(uint8_t *o, size_t n, const void *obj, pm_error *err) {
    return params_encode(o, n, obj, err);
}

pm_status params_vk_write(const char *path, const bp_vk_t *vk, pm_error *err) {
    return write_mapped(path, params_vk_size(vk->n_ic), enc_vk_cb, vk, err);
}

pm_status params_write(const char *path, const bp_params_t *p, pm_error *err) {
    return write_mapped(path,
                        params_size(p->vk.n_ic, p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2),
                        enc_params_cb, p, err);
}

pm_status params_vk_to_groth16_vk(groth16_vk_t *out, const bp_vk_t *vk, pm_error *err) {
    memset(out, 0, sizeof *out);
    if (vk->n_ic == 0) return pm_error_set(err, PM_ERR_FORMAT, "", PM_NO_OFFSET, "vk has no IC");
    out->ic = malloc(vk->n_ic * sizeof *out->ic);
    if (!out->ic) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "vk ic");
    memcpy(out->ic, vk->ic, vk->n_ic * sizeof *out->ic);
    out->alpha_1 = vk->alpha_g1;
    out->beta_2 = vk->beta_g2;
    out->gamma_2 = vk->gamma_g2;
    out->delta_2 = vk->delta_g2;
    out->n_public = vk->n_ic - 1;
    return PM_OK;
}

pm_status params_read_counts(bp_params_counts_t *c, const char *path, pm_error *err) {
    memset(c, 0, sizeof *c);
    pm_file f;
    pm_status st = pm_file_open(&f, path, err);
    if (st) return st;
    c->file_bytes = f.size;
    uint64_t cnt[6] = {0};
    uint64_t off = params_vk_size(0) - 4; /* n_ic sits after the six vk points */
    for (int i = 0; i < 6; i++) {
        if (off + 4 > f.size) {
            st = pm_error_set(err, PM_ERR_FORMAT, path, off, "truncated: count %d missing", i);
            break;
        }
        const uint8_t *b = f.data + off;
        cnt[i] = (uint64_t)b[0] << 24 | (uint64_t)b[1] << 16 | (uint64_t)b[2] << 8 | b[3];
        off = i == 0 ? params_vk_size(cnt[0]) : off + 4 + cnt[i] * (i == 5 ? 192 : 96);
    }
    if (!st && off != f.size)
        st = pm_error_set(err, PM_ERR_FORMAT, path, off, "file size %llu differs from its counts",
                          (unsigned long long)f.size);
    st = pm_file_settle(&f, st, err);
    pm_file_close(&f);
    if (!st) {
        c->n_ic = cnt[0], c->n_h = cnt[1], c->n_l = cnt[2], c->n_a = cnt[3], c->n_b_g1 = cnt[4], c->n_b_g2 = cnt[5];
    }
    return st;
}
