/*
 * c1_json.c — C1 JSON writer, two readers (jansson tree walk; schema-driven single pass), the
 * shape check shared by both, and the lotus-bench envelope. Format: c1_json.h.
 */
#include "filecoin/c1_json.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/sizes.h"
#include "util/file.h"

#define SYNTH_KEY "_proofmill_synthetic"
#define SYNTH_TEXT "benchmark input made by proofmill porep synth-c1: consistent openings of an unsealed sector, not a real C1"

/* Structural maxima enforced while reading (hostile arrays are rejected before anything sized by
 * them is allocated): the largest real shapes are 126 partitions (NI 32 GiB), 18 challenges,
 * 11 layers, 31 tree-D levels, 37 parents. */
#define MAX_PARTITIONS 1024u
#define MAX_CHALLENGES 4096u
#define MAX_ROWS 64u
#define MAX_PARENTS 64u
#define MAX_COLUMNS 64u

pm_status fil_porep_tree_shapes(fil_tree_shape_t *tree_d, fil_tree_shape_t *tree_cr,
                                uint64_t sector_size, pm_error *err) {
    const fil_sector_info_t *si = fil_sector_info(sector_size);
    if (!si)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "unsupported sector size %" PRIu64,
                            sector_size);
    pm_status st = PM_OK;
    if (tree_d) st = fil_tree_shape_init(tree_d, si->nodes, FIL_HASHER_SHA256, 2, 0, 0, err);
    if (!st && tree_cr)
        st = fil_tree_shape_init(tree_cr, si->nodes, FIL_HASHER_POSEIDON, si->base_arity,
                                 si->sub_arity, si->top_arity, err);
    return st;
}

/* ================================================================ writer */

typedef struct {
    char *p;
    size_t n, cap;
    int oom;
} sbuf_t;

static void sb_grow(sbuf_t *b, size_t need) {
    if (b->oom) return;
    size_t cap = b->cap ? b->cap : 1 << 16;
    while (cap < b->n + need + 1) cap *= 2;
    char *q = realloc(b->p, cap);
    if (!q) {
        b->oom = 1;
        return;
    }
    b->p = q;
    b->cap = cap;
}

static inline void sb_put(sbuf_t *b, const char *s, size_t len) {
    if (b->n + len + 1 > b->cap) sb_grow(b, len);
    if (b->oom) return;
    memcpy(b->p + b->n, s, len);
    b->n += len;
}
#define SB_LIT(b, s) sb_put((b), (s), sizeof(s) - 1)

static void sb_u64(sbuf_t *b, uint64_t v) {
    char t[24];
    int k = 0;
    do {
        t[23 - k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    sb_put(b, t + 24 - k, (size_t)k);
}

static char g_byte_txt[256][4];
static unsigned char g_byte_len[256];
static void byte_table_init(void) {
    if (g_byte_len[255]) return;
    for (int i = 0; i < 256; i++) g_byte_len[i] = (unsigned char)snprintf(g_byte_txt[i], 4, "%d", i);
}

static void sb_dom(sbuf_t *b, const uint8_t d[32]) {
    if (b->n + 32 * 4 + 2 + 1 > b->cap) sb_grow(b, 32 * 4 + 2);
    if (b->oom) return;
    char *o = b->p + b->n;
    *o++ = '[';
    for (int i = 0; i < 32; i++) {
        if (i) *o++ = ',';
        memcpy(o, g_byte_txt[d[i]], 4);
        o += g_byte_len[d[i]];
    }
    *o++ = ']';
    b->n = (size_t)(o - b->p);
}

static void w_path(sbuf_t *b, const fil_path_elem_t *e, uint32_t n) {
    SB_LIT(b, "{\"path\":[");
    for (uint32_t k = 0; k < n; k++) {
        if (k) SB_LIT(b, ",");
        SB_LIT(b, "{\"hashes\":[");
        for (uint32_t j = 0; j < e[k].nhashes; j++) {
            if (j) SB_LIT(b, ",");
            sb_dom(b, e[k].hashes[j]);
        }
        SB_LIT(b, "],\"index\":");
        sb_u64(b, e[k].index);
        SB_LIT(b, "}");
    }
    SB_LIT(b, "]}");
}

static void w_mp(sbuf_t *b, const fil_merkle_proof_t *p) {
    if (p->kind == FIL_PROOF_SINGLE) {
        SB_LIT(b, "{\"data\":{\"Single\":{\"root\":");
        sb_dom(b, p->root);
        SB_LIT(b, ",\"leaf\":");
        sb_dom(b, p->leaf);
        SB_LIT(b, ",\"path\":");
        w_path(b, p->elems, p->nbase);
        SB_LIT(b, "}}}");
        return;
    }
    if (p->kind == FIL_PROOF_SUB)
        SB_LIT(b, "{\"data\":{\"Sub\":{\"base_proof\":");
    else
        SB_LIT(b, "{\"data\":{\"Top\":{\"base_proof\":");
    w_path(b, p->elems, p->nbase);
    SB_LIT(b, ",\"sub_proof\":");
    w_path(b, p->elems + p->nbase, p->nsub);
    if (p->kind == FIL_PROOF_TOP) {
        SB_LIT(b, ",\"top_proof\":");
        w_path(b, p->elems + p->nbase + p->nsub, p->ntop);
    }
    SB_LIT(b, ",\"root\":");
    sb_dom(b, p->root);
    SB_LIT(b, ",\"leaf\":");
    sb_dom(b, p->leaf);
    SB_LIT(b, "}}}");
}

static void w_col(sbuf_t *b, const fil_column_proof_t *c) {
    SB_LIT(b, "{\"column\":{\"index\":");
    sb_u64(b, c->index);
    SB_LIT(b, ",\"rows\":[");
    for (uint32_t r = 0; r < c->nrows; r++) {
        if (r) SB_LIT(b, ",");
        sb_dom(b, c->rows[r]);
    }
    SB_LIT(b, "],\"_h\":null},\"inclusion_proof\":");
    w_mp(b, &c->inclusion);
    SB_LIT(b, "}");
}

static void w_lp(sbuf_t *b, const fil_labeling_proof_t *l) {
    SB_LIT(b, "{\"parents\":[");
    for (uint32_t i = 0; i < l->nparents; i++) {
        if (i) SB_LIT(b, ",");
        sb_dom(b, l->parents[i]);
    }
    SB_LIT(b, "],\"layer_index\":");
    sb_u64(b, l->layer_index);
    SB_LIT(b, ",\"node\":");
    sb_u64(b, l->node);
    SB_LIT(b, "}");
}

static void w_proof(sbuf_t *b, const fil_vanilla_proof_t *v) {
    SB_LIT(b, "{\"comm_d_proofs\":");
    w_mp(b, &v->comm_d);
    SB_LIT(b, ",\"comm_r_last_proof\":");
    w_mp(b, &v->comm_r_last);
    SB_LIT(b, ",\"replica_column_proofs\":{\"c_x\":");
    w_col(b, &v->c_x);
    SB_LIT(b, ",\"drg_parents\":[");
    for (uint32_t i = 0; i < v->ndrg; i++) {
        if (i) SB_LIT(b, ",");
        w_col(b, &v->drg[i]);
    }
    SB_LIT(b, "],\"exp_parents\":[");
    for (uint32_t i = 0; i < v->nexp; i++) {
        if (i) SB_LIT(b, ",");
        w_col(b, &v->exp[i]);
    }
    SB_LIT(b, "]},\"labeling_proofs\":[");
    for (uint32_t i = 0; i < v->nlabeling; i++) {
        if (i) SB_LIT(b, ",");
        w_lp(b, &v->labeling[i]);
    }
    SB_LIT(b, "],\"encoding_proof\":");
    w_lp(b, &v->encoding);
    SB_LIT(b, "}");
}

static const char *size_name(uint64_t sector_size) {
    const fil_sector_info_t *si = fil_sector_info(sector_size);
    return si ? si->name : NULL;
}

pm_status fil_c1_to_json(char **out, size_t *len, const fil_c1_t *c1, pm_error *err) {
    *out = NULL;
    *len = 0;
    const fil_registered_proof_t *rp = fil_registered_proof(c1->registered_proof);
    const char *sn = rp ? size_name(rp->sector_size) : NULL;
    if (!rp || !sn)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "C1: unknown registered proof %u",
                            c1->registered_proof);
    byte_table_init();
    sbuf_t b = {0};
    sb_grow(&b, (size_t)c1->partitions * c1->challenges * 300000u);
    SB_LIT(&b, "{\"registered_proof\":\"");
    sb_put(&b, rp->name, strlen(rp->name));
    SB_LIT(&b, "\",\"vanilla_proofs\":{\"StackedDrg");
    sb_put(&b, sn, strlen(sn));
    SB_LIT(&b, "V1\":[");
    for (uint32_t k = 0; k < c1->partitions; k++) {
        if (k) SB_LIT(&b, ",");
        SB_LIT(&b, "[");
        for (uint32_t i = 0; i < c1->challenges; i++) {
            if (i) SB_LIT(&b, ",");
            w_proof(&b, &c1->proofs[(size_t)k * c1->challenges + i]);
        }
        SB_LIT(&b, "]");
    }
    SB_LIT(&b, "]},\"comm_r\":");
    sb_dom(&b, c1->comm_r);
    SB_LIT(&b, ",\"comm_d\":");
    sb_dom(&b, c1->comm_d);
    SB_LIT(&b, ",\"replica_id\":");
    sb_dom(&b, c1->replica_id);
    SB_LIT(&b, ",\"seed\":");
    sb_dom(&b, c1->seed);
    SB_LIT(&b, ",\"ticket\":");
    sb_dom(&b, c1->ticket);
    if (c1->synthetic) SB_LIT(&b, ",\"" SYNTH_KEY "\":\"" SYNTH_TEXT "\"");
    SB_LIT(&b, "}");
    if (b.oom) {
        free(b.p);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "C1 JSON: out of memory");
    }
    b.p[b.n] = 0;
    *out = b.p;
    *len = b.n;
    return PM_OK;
}

static pm_status write_all(const char *path, const char *data, size_t len, pm_error *err) {
    FILE *f = fopen(path, "wb");
    if (!f) return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot create: %s", strerror(errno));
    size_t w = fwrite(data, 1, len, f);
    int bad = (w != len) | (fclose(f) != 0);
    if (bad) return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "write failed: %s", strerror(errno));
    return PM_OK;
}

pm_status fil_c1_write_json_file(const char *path, const fil_c1_t *c1, pm_error *err) {
    char *j;
    size_t n = 0;
    pm_status st = fil_c1_to_json(&j, &n, c1, err);
    if (st) return st;
    st = write_all(path, j, n, err);
    free(j);
    return st;
}

pm_status fil_c1_write_envelope_file(const char *path, const fil_c1_t *c1, uint64_t sector_num,
                                     pm_error *err) {
    char *j;
    size_t n = 0;
    pm_status st = fil_c1_to_json(&j, &n, c1, err);
    if (st) return st;
    size_t b64len = 4 * ((n + 2) / 3);
    char *env = malloc(b64len + 128);
    if (!env) {
        free(j);
        return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "envelope: out of memory");
    }
    int h = snprintf(env, 64, "{\"SectorNum\":%" PRIu64 ",\"Phase1Out\":\"", sector_num);
    /* EVP_EncodeBlock takes an int length; encode in 3·2^20-byte pieces (multiple of 3). */
    size_t o = (size_t)h;
    for (size_t i = 0; i < n; i += 3u << 20) {
        size_t m = n - i < (3u << 20) ? n - i : (3u << 20);
        o += (size_t)EVP_EncodeBlock((unsigned char *)env + o, (const unsigned char *)j + i, (int)m);
    }
    o += (size_t)snprintf(env + o, 64, "\",\"SectorSize\":%" PRIu64 "}", c1->sector_size);
    free(j);
    st = write_all(path, env, o, err);
    free(env);
    return st;
}

/* ================================================================ shape check (both readers) */

typedef struct {
    char where[256];
} loc_t;

static pm_status shape_err(pm_error *err, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static pm_status shape_err(pm_error *err, const char *name, const char *fmt, ...) {
    char msg[480];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return pm_error_set(err, PM_ERR_FORMAT, name, PM_NO_OFFSET, "%s", msg);
}

static pm_status check_mp(const fil_merkle_proof_t *p, const fil_tree_shape_t *s, const char *name,
                          const char *where, pm_error *err) {
    static const char *kinds[] = {"Single", "Sub", "Top"};
    if (p->kind != s->kind)
        return shape_err(err, name, "%s: MerkleProof variant %s, the sector's tree needs %s", where,
                         kinds[p->kind], kinds[s->kind]);
    if (p->nbase != s->nbase)
        return shape_err(err, name, "%s: %s has %u elements, the sector's tree needs %u", where,
                         p->kind == FIL_PROOF_SINGLE ? "path" : "base_proof", p->nbase, s->nbase);
    if (p->nsub != s->nsub)
        return shape_err(err, name, "%s: sub_proof has %u elements, expected %u", where, p->nsub, s->nsub);
    if (p->ntop != s->ntop)
        return shape_err(err, name, "%s: top_proof has %u elements, expected %u", where, p->ntop, s->ntop);
    for (unsigned k = 0; k < s->nlevels; k++)
        if (p->elems[k].nhashes != s->level_arity[k] - 1)
            return shape_err(err, name, "%s: path element %u has %u hashes, expected %u", where, k,
                             p->elems[k].nhashes, s->level_arity[k] - 1);
    return PM_OK;
}

static pm_status check_col(const fil_column_proof_t *c, const fil_tree_shape_t *cr, unsigned layers,
                           const char *name, const char *where, pm_error *err) {
    char w[300];
    if (c->nrows != layers)
        return shape_err(err, name, "%s.column.rows: expected %u rows, found %u", where, layers, c->nrows);
    snprintf(w, sizeof w, "%s.inclusion_proof", where);
    return check_mp(&c->inclusion, cr, name, w, err);
}

static pm_status check_lp(const fil_labeling_proof_t *l, const char *name, const char *where,
                          pm_error *err) {
    if (l->nparents != FIL_TOTAL_PARENTS)
        return shape_err(err, name, "%s.parents: expected %u parents, found %u", where,
                         FIL_TOTAL_PARENTS, l->nparents);
    return PM_OK;
}

/* The size-dependent checks, after a reader filled c1 (registered_proof, counts, proofs). */
static pm_status check_shape(const fil_c1_t *c1, const char *name, const char *tag, pm_error *err) {
    const fil_registered_proof_t *rp = fil_registered_proof(c1->registered_proof);
    const fil_sector_info_t *si = fil_sector_info(rp->sector_size);
    char want[64];
    snprintf(want, sizeof want, "StackedDrg%sV1", si->name);
    if (strcmp(tag, want) != 0)
        return shape_err(err, name, "vanilla_proofs: variant \"%s\" does not match registered_proof %s (needs \"%s\")",
                         tag, rp->name, want);
    unsigned parts = rp->feature == FIL_FEATURE_NON_INTERACTIVE_POREP ? si->ni_partitions : si->partitions;
    unsigned chal = rp->feature == FIL_FEATURE_NON_INTERACTIVE_POREP ? si->ni_challenges_per_partition
                                                                      : si->challenges_per_partition;
    if (c1->partitions != parts)
        return shape_err(err, name, "vanilla_proofs.%s: %u partitions, %s has %u", tag,
                         c1->partitions, rp->name, parts);
    if (c1->challenges != chal)
        return shape_err(err, name, "vanilla_proofs.%s[0]: %u challenges, %s has %u per partition",
                         tag, c1->challenges, rp->name, chal);
    fil_tree_shape_t d, cr;
    if (fil_porep_tree_shapes(&d, &cr, rp->sector_size, err)) return PM_ERR_FORMAT;
    for (uint32_t k = 0; k < c1->partitions; k++)
        for (uint32_t i = 0; i < c1->challenges; i++) {
            const fil_vanilla_proof_t *v = &c1->proofs[(size_t)k * c1->challenges + i];
            char w[200], w2[260];
            pm_status st;
            snprintf(w, sizeof w, "vanilla_proofs.%s[%u][%u]", tag, k, i);
            snprintf(w2, sizeof w2, "%s.comm_d_proofs", w);
            if ((st = check_mp(&v->comm_d, &d, name, w2, err))) return st;
            snprintf(w2, sizeof w2, "%s.comm_r_last_proof", w);
            if ((st = check_mp(&v->comm_r_last, &cr, name, w2, err))) return st;
            snprintf(w2, sizeof w2, "%s.replica_column_proofs.c_x", w);
            if ((st = check_col(&v->c_x, &cr, si->layers, name, w2, err))) return st;
            if (v->ndrg != FIL_BASE_DEGREE)
                return shape_err(err, name, "%s.replica_column_proofs.drg_parents: expected %u, found %u",
                                 w, FIL_BASE_DEGREE, v->ndrg);
            if (v->nexp != FIL_EXP_DEGREE)
                return shape_err(err, name, "%s.replica_column_proofs.exp_parents: expected %u, found %u",
                                 w, FIL_EXP_DEGREE, v->nexp);
            for (uint32_t j = 0; j < v->ndrg; j++) {
                snprintf(w2, sizeof w2, "%s.replica_column_proofs.drg_parents[%u]", w, j);
                if ((st = check_col(&v->drg[j], &cr, si->layers, name, w2, err))) return st;
            }
            for (uint32_t j = 0; j < v->nexp; j++) {
                snprintf(w2, sizeof w2, "%s.replica_column_proofs.exp_parents[%u]", w, j);
                if ((st = check_col(&v->exp[j], &cr, si->layers, name, w2, err))) return st;
            }
            if (v->nlabeling != si->layers)
                return shape_err(err, name, "%s.labeling_proofs: expected %u (one per layer), found %u",
                                 w, si->layers, v->nlabeling);
            for (uint32_t j = 0; j < v->nlabeling; j++) {
                snprintf(w2, sizeof w2, "%s.labeling_proofs[%u]", w, j);
                if ((st = check_lp(&v->labeling[j], name, w2, err))) return st;
            }
            snprintf(w2, sizeof w2, "%s.encoding_proof", w);
            if ((st = check_lp(&v->encoding, name, w2, err))) return st;
        }
    return PM_OK;
}

static int registered_proof_by_name(const char *s) {
    for (unsigned id = 0; id < FIL_REGISTERED_PROOF_COUNT; id++) {
        const fil_registered_proof_t *rp = fil_registered_proof(id);
        if (rp && strcmp(rp->name, s) == 0) return (int)id;
    }
    return -1;
}

/* ================================================================ reader 1: jansson */

/* A JSON path kept as a stack of (key | index) frames, formatted only when an error is raised. */
typedef struct {
    const char *name;
    pm_error *err;
    fil_c1_t *c1;
    int depth;
    struct {
        const char *key;
        long idx;
    } fr[24];
} jr_t;

static void jr_push_key(jr_t *r, const char *k) {
    if (r->depth < 24) {
        r->fr[r->depth].key = k;
        r->fr[r->depth].idx = -1;
    }
    r->depth++;
}
static void jr_push_idx(jr_t *r, long i) {
    if (r->depth < 24) {
        r->fr[r->depth].key = NULL;
        r->fr[r->depth].idx = i;
    }
    r->depth++;
}
static void jr_pop(jr_t *r) { r->depth--; }

static void path_string(char *o, size_t cap, const jr_t *r) {
    size_t n = 0;
    o[0] = 0;
    for (int i = 0; i < r->depth && i < 24 && n < cap; i++) {
        if (r->fr[i].key)
            n += (size_t)snprintf(o + n, cap - n, "%s%s", i ? "." : "", r->fr[i].key);
        else
            n += (size_t)snprintf(o + n, cap - n, "[%ld]", r->fr[i].idx);
    }
    if (!r->depth) snprintf(o, cap, "(top level)");
}

static pm_status jr_fail(jr_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static pm_status jr_fail(jr_t *r, const char *fmt, ...) {
    char p[300], m[200];
    path_string(p, sizeof p, r);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    return pm_error_set(r->err, PM_ERR_FORMAT, r->name, PM_NO_OFFSET, "%s: %s", p, m);
}

static const char *jtype(const json_t *j) {
    switch (json_typeof(j)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

static pm_status jr_get(jr_t *r, json_t **out, const json_t *obj, const char *key) {
    *out = json_object_get(obj, key);
    if (!*out) return jr_fail(r, "missing field \"%s\"", key);
    return PM_OK;
}

static pm_status jr_dom(jr_t *r, uint8_t d[32], const json_t *j) {
    if (!json_is_array(j)) return jr_fail(r, "expected an array of 32 integers, found %s", jtype(j));
    if (json_array_size(j) != 32)
        return jr_fail(r, "expected 32 bytes, found %zu", json_array_size(j));
    for (size_t i = 0; i < 32; i++) {
        const json_t *e = json_array_get(j, i);
        if (!json_is_integer(e)) return jr_fail(r, "byte %zu: expected an integer, found %s", i, jtype(e));
        json_int_t v = json_integer_value(e);
        if (v < 0 || v > 255) return jr_fail(r, "byte %zu: %lld is not in 0..255", i, (long long)v);
        d[i] = (uint8_t)v;
    }
    return PM_OK;
}

static pm_status jr_dom_field(jr_t *r, uint8_t d[32], const json_t *obj, const char *key) {
    json_t *j;
    pm_status st;
    if ((st = jr_get(r, &j, obj, key))) return st;
    jr_push_key(r, key);
    st = jr_dom(r, d, j);
    jr_pop(r);
    return st;
}

static pm_status jr_uint(jr_t *r, uint64_t *v, const json_t *obj, const char *key, uint64_t max) {
    json_t *j;
    pm_status st;
    if ((st = jr_get(r, &j, obj, key))) return st;
    jr_push_key(r, key);
    if (!json_is_integer(j))
        st = jr_fail(r, "expected an unsigned integer, found %s", jtype(j));
    else if (json_integer_value(j) < 0 || (uint64_t)json_integer_value(j) > max)
        st = jr_fail(r, "%lld out of range 0..%" PRIu64, (long long)json_integer_value(j), max);
    else
        *v = (uint64_t)json_integer_value(j);
    /* jansson's json_int_t is long long: u64 node indices above 2^63 cannot occur (nodes <= 2^31). */
    jr_pop(r);
    return st;
}

static pm_status jr_array(jr_t *r, json_t **arr, const json_t *obj, const char *key, size_t max) {
    pm_status st;
    if ((st = jr_get(r, arr, obj, key))) return st;
    if (!json_is_array(*arr)) {
        jr_push_key(r, key);
        st = jr_fail(r, "expected an array, found %s", jtype(*arr));
        jr_pop(r);
        return st;
    }
    if (json_array_size(*arr) > max) {
        jr_push_key(r, key);
        st = jr_fail(r, "%zu elements, at most %zu allowed", json_array_size(*arr), max);
        jr_pop(r);
        return st;
    }
    return PM_OK;
}

static pm_status jr_object(jr_t *r, const json_t *j) {
    if (!json_is_object(j)) return jr_fail(r, "expected an object, found %s", jtype(j));
    return PM_OK;
}

static pm_status jr_path(jr_t *r, fil_path_elem_t *e, uint32_t *n, const json_t *pobj,
                         uint32_t room) {
    pm_status st;
    json_t *arr;
    if ((st = jr_object(r, pobj))) return st;
    if ((st = jr_array(r, &arr, pobj, "path", room))) return st;
    jr_push_key(r, "path");
    for (size_t k = 0; k < json_array_size(arr); k++) {
        const json_t *el = json_array_get(arr, k);
        jr_push_idx(r, (long)k);
        json_t *hs;
        uint64_t idx;
        if ((st = jr_object(r, el)) || (st = jr_array(r, &hs, el, "hashes", FIL_MERKLE_MAX_ARITY - 1)) ||
            (st = jr_uint(r, &idx, el, "index", UINT32_MAX)))
            return st;
        jr_push_key(r, "hashes");
        for (size_t h = 0; h < json_array_size(hs); h++) {
            jr_push_idx(r, (long)h);
            if ((st = jr_dom(r, e[k].hashes[h], json_array_get(hs, h)))) return st;
            jr_pop(r);
        }
        jr_pop(r);
        e[k].nhashes = (uint32_t)json_array_size(hs);
        e[k].index = idx;
        jr_pop(r);
    }
    jr_pop(r);
    *n = (uint32_t)json_array_size(arr);
    return PM_OK;
}

static pm_status jr_mp(jr_t *r, fil_merkle_proof_t *p, const json_t *j) {
    pm_status st;
    json_t *data, *v;
    if ((st = jr_object(r, j)) || (st = jr_get(r, &data, j, "data"))) return st;
    jr_push_key(r, "data");
    if ((st = jr_object(r, data))) return st;
    if (json_object_size(data) != 1)
        return jr_fail(r, "expected exactly one of Single, Sub, Top (found %zu keys)", json_object_size(data));
    fil_path_elem_t *e = fil_arena_alloc(&r->c1->arena, FIL_MERKLE_MAX_LEVELS * sizeof *e);
    if (!e) return pm_error_set(r->err, PM_ERR_NOMEM, r->name, PM_NO_OFFSET, "out of memory");
    p->elems = e;
    if ((v = json_object_get(data, "Single"))) {
        jr_push_key(r, "Single");
        p->kind = FIL_PROOF_SINGLE;
        json_t *pp;
        if ((st = jr_object(r, v)) || (st = jr_dom_field(r, p->root, v, "root")) ||
            (st = jr_dom_field(r, p->leaf, v, "leaf")) || (st = jr_get(r, &pp, v, "path")))
            return st;
        jr_push_key(r, "path");
        if ((st = jr_path(r, e, &p->nbase, pp, FIL_MERKLE_MAX_LEVELS))) return st;
        jr_pop(r);
    } else {
        const char *kn = json_object_get(data, "Sub") ? "Sub" : json_object_get(data, "Top") ? "Top" : NULL;
        if (!kn) return jr_fail(r, "unknown MerkleProof variant (expected Single, Sub or Top)");
        v = json_object_get(data, kn);
        jr_push_key(r, kn);
        p->kind = kn[0] == 'S' ? FIL_PROOF_SUB : FIL_PROOF_TOP;
        json_t *bp, *sp, *tp = NULL;
        if ((st = jr_object(r, v)) || (st = jr_get(r, &bp, v, "base_proof")) ||
            (st = jr_get(r, &sp, v, "sub_proof")) ||
            (p->kind == FIL_PROOF_TOP && (st = jr_get(r, &tp, v, "top_proof"))) ||
            (st = jr_dom_field(r, p->root, v, "root")) || (st = jr_dom_field(r, p->leaf, v, "leaf")))
            return st;
        jr_push_key(r, "base_proof");
        if ((st = jr_path(r, e, &p->nbase, bp, FIL_MERKLE_MAX_LEVELS - 2))) return st;
        jr_pop(r);
        jr_push_key(r, "sub_proof");
        if ((st = jr_path(r, e + p->nbase, &p->nsub, sp, 1))) return st;
        jr_pop(r);
        if (tp) {
            jr_push_key(r, "top_proof");
            if ((st = jr_path(r, e + p->nbase + p->nsub, &p->ntop, tp, 1))) return st;
            jr_pop(r);
        }
    }
    jr_pop(r);
    jr_pop(r);
    return PM_OK;
}

static pm_status jr_col(jr_t *r, fil_column_proof_t *c, const json_t *j) {
    pm_status st;
    json_t *col, *rows, *ip;
    uint64_t idx;
    if ((st = jr_object(r, j)) || (st = jr_get(r, &col, j, "column"))) return st;
    jr_push_key(r, "column");
    if ((st = jr_object(r, col)) || (st = jr_uint(r, &idx, col, "index", UINT32_MAX)) ||
        (st = jr_array(r, &rows, col, "rows", MAX_ROWS)))
        return st;
    c->index = (uint32_t)idx;
    c->nrows = (uint32_t)json_array_size(rows);
    c->rows = fil_arena_alloc(&r->c1->arena, 32 * (c->nrows ? c->nrows : 1));
    if (!c->rows) return pm_error_set(r->err, PM_ERR_NOMEM, r->name, PM_NO_OFFSET, "out of memory");
    jr_push_key(r, "rows");
    for (uint32_t i = 0; i < c->nrows; i++) {
        jr_push_idx(r, i);
        if ((st = jr_dom(r, c->rows[i], json_array_get(rows, i)))) return st;
        jr_pop(r);
    }
    jr_pop(r);
    jr_pop(r);
    if ((st = jr_get(r, &ip, j, "inclusion_proof"))) return st;
    jr_push_key(r, "inclusion_proof");
    if ((st = jr_mp(r, &c->inclusion, ip))) return st;
    jr_pop(r);
    return PM_OK;
}

static pm_status jr_lp(jr_t *r, fil_labeling_proof_t *l, const json_t *j) {
    pm_status st;
    json_t *ps;
    uint64_t li, node;
    if ((st = jr_object(r, j)) || (st = jr_array(r, &ps, j, "parents", MAX_PARENTS)) ||
        (st = jr_uint(r, &li, j, "layer_index", UINT32_MAX)) ||
        (st = jr_uint(r, &node, j, "node", INT64_MAX)))
        return st;
    l->layer_index = (uint32_t)li;
    l->node = node;
    l->nparents = (uint32_t)json_array_size(ps);
    l->parents = fil_arena_alloc(&r->c1->arena, 32 * (l->nparents ? l->nparents : 1));
    if (!l->parents) return pm_error_set(r->err, PM_ERR_NOMEM, r->name, PM_NO_OFFSET, "out of memory");
    jr_push_key(r, "parents");
    for (uint32_t i = 0; i < l->nparents; i++) {
        jr_push_idx(r, i);
        if ((st = jr_dom(r, l->parents[i], json_array_get(ps, i)))) return st;
        jr_pop(r);
    }
    jr_pop(r);
    return PM_OK;
}

static pm_status jr_cols(jr_t *r, fil_column_proof_t **out, uint32_t *n, const json_t *obj,
                         const char *key) {
    json_t *a;
    pm_status st;
    if ((st = jr_array(r, &a, obj, key, MAX_COLUMNS))) return st;
    *n = (uint32_t)json_array_size(a);
    *out = fil_arena_alloc(&r->c1->arena, sizeof **out * (*n ? *n : 1));
    if (!*out) return pm_error_set(r->err, PM_ERR_NOMEM, r->name, PM_NO_OFFSET, "out of memory");
    jr_push_key(r, key);
    for (uint32_t i = 0; i < *n; i++) {
        jr_push_idx(r, i);
        if ((st = jr_col(r, &(*out)[i], json_array_get(a, i)))) return st;
        jr_pop(r);
    }
    jr_pop(r);
    return PM_OK;
}

static pm_status jr_proof(jr_t *r, fil_vanilla_proof_t *v, const json_t *j) {
    pm_status st;
    json_t *x, *rcp, *lps;
    if ((st = jr_object(r, j))) return st;
    if ((st = jr_get(r, &x, j, "comm_d_proofs"))) return st;
    jr_push_key(r, "comm_d_proofs");
    if ((st = jr_mp(r, &v->comm_d, x))) return st;
    jr_pop(r);
    if ((st = jr_get(r, &x, j, "comm_r_last_proof"))) return st;
    jr_push_key(r, "comm_r_last_proof");
    if ((st = jr_mp(r, &v->comm_r_last, x))) return st;
    jr_pop(r);
    if ((st = jr_get(r, &rcp, j, "replica_column_proofs"))) return st;
    jr_push_key(r, "replica_column_proofs");
    if ((st = jr_object(r, rcp)) || (st = jr_get(r, &x, rcp, "c_x"))) return st;
    jr_push_key(r, "c_x");
    if ((st = jr_col(r, &v->c_x, x))) return st;
    jr_pop(r);
    if ((st = jr_cols(r, &v->drg, &v->ndrg, rcp, "drg_parents")) ||
        (st = jr_cols(r, &v->exp, &v->nexp, rcp, "exp_parents")))
        return st;
    jr_pop(r);
    if ((st = jr_array(r, &lps, j, "labeling_proofs", MAX_ROWS))) return st;
    v->nlabeling = (uint32_t)json_array_size(lps);
    v->labeling = fil_arena_alloc(&r->c1->arena, sizeof *v->labeling * (v->nlabeling ? v->nlabeling : 1));
    if (!v->labeling) return pm_error_set(r->err, PM_ERR_NOMEM, r->name, PM_NO_OFFSET, "out of memory");
    jr_push_key(r, "labeling_proofs");
    for (uint32_t i = 0; i < v->nlabeling; i++) {
        jr_push_idx(r, i);
        if ((st = jr_lp(r, &v->labeling[i], json_array_get(lps, i)))) return st;
        jr_pop(r);
    }
    jr_pop(r);
    if ((st = jr_get(r, &x, j, "encoding_proof"))) return st;
    jr_push_key(r, "encoding_proof");
    if ((st = jr_lp(r, &v->encoding, x))) return st;
    jr_pop(r);
    return PM_OK;
}

static pm_status set_registered(fil_c1_t *c1, const char *s, const char *name, pm_error *err) {
    int id = registered_proof_by_name(s);
    if (id < 0)
        return pm_error_set(err, PM_ERR_FORMAT, name, PM_NO_OFFSET,
                            "registered_proof: unknown value \"%.80s\"", s);
    c1->registered_proof = (unsigned)id;
    c1->sector_size = fil_registered_proof((unsigned)id)->sector_size;
    return PM_OK;
}

static pm_status read_jansson(fil_c1_t *c1, const char *buf, size_t len, const char *name,
                              pm_error *err) {
    json_error_t je;
    json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return pm_error_set(err, PM_ERR_FORMAT, name, (uint64_t)je.position,
                            "JSON syntax: %s (line %d, column %d)", je.text, je.line, je.column);
    jr_t r = {.name = name, .err = err, .c1 = c1};
    pm_status st;
    json_t *x, *vp;
    char tag[64] = "";
    if ((st = jr_object(&r, root))) goto out;
    if ((st = jr_get(&r, &x, root, "registered_proof"))) goto out;
    if (!json_is_string(x)) {
        jr_push_key(&r, "registered_proof");
        st = jr_fail(&r, "expected a string, found %s", jtype(x));
        goto out;
    }
    if ((st = set_registered(c1, json_string_value(x), name, err))) goto out;
    if ((st = jr_dom_field(&r, c1->comm_r, root, "comm_r")) ||
        (st = jr_dom_field(&r, c1->comm_d, root, "comm_d")) ||
        (st = jr_dom_field(&r, c1->replica_id, root, "replica_id")) ||
        (st = jr_dom_field(&r, c1->seed, root, "seed")) ||
        (st = jr_dom_field(&r, c1->ticket, root, "ticket")))
        goto out;
    c1->synthetic = json_object_get(root, SYNTH_KEY) != NULL;
    if ((st = jr_get(&r, &vp, root, "vanilla_proofs"))) goto out;
    jr_push_key(&r, "vanilla_proofs");
    if ((st = jr_object(&r, vp))) goto out;
    if (json_object_size(vp) != 1) {
        st = jr_fail(&r, "expected exactly one variant, found %zu keys", json_object_size(vp));
        goto out;
    }
    const char *key = json_object_iter_key(json_object_iter(vp));
    snprintf(tag, sizeof tag, "%s", key);
    json_t *parts = json_object_get(vp, key);
    jr_push_key(&r, key);
    if (!json_is_array(parts)) {
        st = jr_fail(&r, "expected an array of partitions, found %s", jtype(parts));
        goto out;
    }
    size_t np = json_array_size(parts);
    if (np == 0 || np > MAX_PARTITIONS) {
        st = jr_fail(&r, "%zu partitions (expected 1..%u)", np, MAX_PARTITIONS);
        goto out;
    }
    size_t nc = 0;
    for (size_t k = 0; k < np; k++) {
        json_t *p = json_array_get(parts, k);
        jr_push_idx(&r, (long)k);
        if (!json_is_array(p)) {
            st = jr_fail(&r, "expected an array of challenge proofs, found %s", jtype(p));
            goto out;
        }
        if (k == 0) nc = json_array_size(p);
        if (json_array_size(p) != nc || nc == 0 || nc > MAX_CHALLENGES) {
            st = jr_fail(&r, "%zu challenge proofs (partition 0 has %zu; 1..%u allowed)",
                         json_array_size(p), nc, MAX_CHALLENGES);
            goto out;
        }
        jr_pop(&r);
    }
    if ((st = fil_c1_alloc_proofs(c1, (uint32_t)np, (uint32_t)nc, err))) goto out;
    for (size_t k = 0; k < np; k++) {
        json_t *p = json_array_get(parts, k);
        jr_push_idx(&r, (long)k);
        for (size_t i = 0; i < nc; i++) {
            jr_push_idx(&r, (long)i);
            if ((st = jr_proof(&r, fil_c1_proof(c1, (uint32_t)k, (uint32_t)i), json_array_get(p, i))))
                goto out;
            jr_pop(&r);
        }
        jr_pop(&r);
    }
    st = check_shape(c1, name, tag, err);
out:
    json_decref(root);
    return st;
}

/* ================================================================ reader 2: single pass */

/* A recursive-descent parser specialised to the C1 schema: values are decoded straight into the
 * arena (no intermediate tree, no per-number allocation). Keys may come in any order; unknown
 * keys are skipped (as serde does); duplicates of known keys are rejected. Errors carry the byte
 * offset and the JSON path. */
typedef struct {
    const char *s, *end, *base;
    const char *name;
    pm_error *err;
    fil_c1_t *c1;
    jr_t path; /* reuses the frame stack for messages */
} fr_t_;

static pm_status fp_fail(fr_t_ *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static pm_status fp_fail(fr_t_ *p, const char *fmt, ...) {
    char pth[300], m[200];
    path_string(pth, sizeof pth, &p->path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    return pm_error_set(p->err, PM_ERR_FORMAT, p->name, (uint64_t)(p->s - p->base), "%s: %s", pth, m);
}

static inline void ws(fr_t_ *p) {
    while (p->s < p->end && (*p->s == ' ' || *p->s == '\n' || *p->s == '\r' || *p->s == '\t')) p->s++;
}

static inline int peek(fr_t_ *p) {
    ws(p);
    return p->s < p->end ? (unsigned char)*p->s : -1;
}

static pm_status expect(fr_t_ *p, char c) {
    if (peek(p) != (unsigned char)c) {
        if (p->s >= p->end) return fp_fail(p, "unexpected end of input (expected '%c')", c);
        return fp_fail(p, "expected '%c', found '%c'", c, *p->s);
    }
    p->s++;
    return PM_OK;
}

static const char *what_at(fr_t_ *p) {
    int c = peek(p);
    switch (c) {
    case '{': return "an object";
    case '[': return "an array";
    case '"': return "a string";
    case 't':
    case 'f': return "a boolean";
    case 'n': return "null";
    case -1: return "end of input";
    default: return (c == '-' || (c >= '0' && c <= '9')) ? "a number" : "an invalid token";
    }
}

/* A string without escapes into out[cap] (keys and enum names need none); escapes are rejected. */
static pm_status str(fr_t_ *p, char *out, size_t cap) {
    if (peek(p) != '"') return fp_fail(p, "expected a string, found %s", what_at(p));
    p->s++;
    size_t n = 0;
    while (p->s < p->end && *p->s != '"') {
        if (*p->s == '\\' || (unsigned char)*p->s < 0x20)
            return fp_fail(p, "escaped or control characters are not expected here");
        if (n + 1 < cap) out[n++] = *p->s;
        p->s++;
    }
    if (p->s >= p->end) return fp_fail(p, "unterminated string");
    p->s++;
    out[n] = 0;
    return PM_OK;
}

/* 1 when t[0..n) is exactly one JSON number (RFC 8259 §6):
 * -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?  — so that the fast reader skips what jansson
 * accepts and nothing else. */
static int is_json_number(const char *t, size_t n) {
    size_t i = 0;
    if (i < n && t[i] == '-') i++;
    if (i >= n) return 0;
    if (t[i] == '0') i++;
    else if (t[i] >= '1' && t[i] <= '9') while (i < n && t[i] >= '0' && t[i] <= '9') i++;
    else return 0;
    if (i < n && t[i] == '.') {
        size_t d = ++i;
        while (i < n && t[i] >= '0' && t[i] <= '9') i++;
        if (i == d) return 0;
    }
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        i++;
        if (i < n && (t[i] == '+' || t[i] == '-')) i++;
        size_t d = i;
        while (i < n && t[i] >= '0' && t[i] <= '9') i++;
        if (i == d) return 0;
    }
    return i == n;
}

static pm_status skip_value(fr_t_ *p, int depth);

static pm_status skip_string(fr_t_ *p) {
    p->s++;
    while (p->s < p->end && *p->s != '"') {
        if (*p->s == '\\') p->s++;
        p->s++;
    }
    if (p->s >= p->end) return fp_fail(p, "unterminated string");
    p->s++;
    return PM_OK;
}

static pm_status skip_value(fr_t_ *p, int depth) {
    if (depth > 64) return fp_fail(p, "nesting too deep");
    int c = peek(p);
    pm_status st;
    if (c == '"') return skip_string(p);
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        p->s++;
        if (peek(p) == close) {
            p->s++;
            return PM_OK;
        }
        for (;;) {
            if (c == '{') {
                if (peek(p) != '"') return fp_fail(p, "expected a key, found %s", what_at(p));
                if ((st = skip_string(p)) || (st = expect(p, ':'))) return st;
            }
            if ((st = skip_value(p, depth + 1))) return st;
            int d = peek(p);
            if (d == ',') {
                p->s++;
                continue;
            }
            if (d == close) {
                p->s++;
                return PM_OK;
            }
            return fp_fail(p, "expected ',' or '%c'", close);
        }
    }
    const char *st0 = p->s;
    while (p->s < p->end && (strchr("+-.eE", *p->s) || (*p->s >= '0' && *p->s <= '9') ||
                             (*p->s >= 'a' && *p->s <= 'z')))
        p->s++;
    if (p->s == st0) return fp_fail(p, "invalid JSON value");
    size_t n = (size_t)(p->s - st0);
    if ((n == 4 && !memcmp(st0, "null", 4)) || (n == 4 && !memcmp(st0, "true", 4)) ||
        (n == 5 && !memcmp(st0, "false", 5)) || is_json_number(st0, n))
        return PM_OK;
    p->s = st0;
    return fp_fail(p, "invalid JSON value");
}

/* JSON "-0" is the integer 0 (jansson reads it so; the two readers must agree): skip the sign
 * of a negative zero so the digit loops below see "0". Returns 1 when it skipped one. */
static int skip_negative_zero(fr_t_ *p) {
    const char *q = p->s;
    if (q + 1 < p->end && q[0] == '-' && q[1] == '0' &&
        (q + 2 >= p->end || q[2] < '0' || q[2] > '9')) {
        p->s++;
        return 1;
    }
    return 0;
}

static pm_status uint_(fr_t_ *p, uint64_t *v, uint64_t max) {
    int c = peek(p);
    if (c == '-' && skip_negative_zero(p)) c = '0';
    if (c < '0' || c > '9') {
        if (c == '-') return fp_fail(p, "expected an unsigned integer, found a negative number");
        return fp_fail(p, "expected an unsigned integer, found %s", what_at(p));
    }
    uint64_t x = 0;
    const char *st0 = p->s;
    while (p->s < p->end && *p->s >= '0' && *p->s <= '9') {
        unsigned d = (unsigned)(*p->s - '0');
        if (x > (UINT64_MAX - d) / 10) return fp_fail(p, "integer too large");
        x = x * 10 + d;
        p->s++;
    }
    if (p->s - st0 > 1 && st0[0] == '0') {
        p->s = st0;
        return fp_fail(p, "leading zero in a number");
    }
    if (p->s < p->end && (*p->s == '.' || *p->s == 'e' || *p->s == 'E')) {
        p->s = st0;
        return fp_fail(p, "expected an unsigned integer, found a fractional number");
    }
    if (x > max) {
        p->s = st0;
        return fp_fail(p, "%" PRIu64 " out of range 0..%" PRIu64, x, max);
    }
    *v = x;
    return PM_OK;
}

/* Domain fast path: '[' 32 × (0..255) ']' with optional whitespace. */
static pm_status dom(fr_t_ *p, uint8_t d[32]) {
    if (peek(p) != '[') return fp_fail(p, "expected an array of 32 integers, found %s", what_at(p));
    const char *start = p->s;
    p->s++;
    for (int i = 0; i < 32; i++) {
        int c = peek(p);
        if (c == '-' && skip_negative_zero(p)) c = '0';
        if (i == 0 && c == ']') {
            p->s = start;
            return fp_fail(p, "expected 32 bytes, found 0");
        }
        if (c < '0' || c > '9') {
            if (c == ']') {
                p->s = start;
                return fp_fail(p, "expected 32 bytes, found %d", i);
            }
            return fp_fail(p, "byte %d: expected an integer 0..255, found %s", i, what_at(p));
        }
        unsigned v = 0;
        const char *n0 = p->s;
        while (p->s < p->end && *p->s >= '0' && *p->s <= '9' && p->s - n0 < 4) v = v * 10 + (unsigned)(*p->s++ - '0');
        if (v > 255 || (p->s - n0 > 1 && n0[0] == '0') ||
            (p->s < p->end && (*p->s == '.' || *p->s == 'e' || *p->s == 'E' || (*p->s >= '0' && *p->s <= '9')))) {
            p->s = n0;
            return fp_fail(p, "byte %d: not an integer in 0..255", i);
        }
        d[i] = (uint8_t)v;
        c = peek(p);
        if (i < 31) {
            if (c == ']') {
                p->s = start;
                return fp_fail(p, "expected 32 bytes, found %d", i + 1);
            }
            if (c != ',') return fp_fail(p, "expected ',' in a byte array");
            p->s++;
        } else if (c != ']') {
            if (c == ',') {
                p->s = start;
                return fp_fail(p, "expected 32 bytes, found more");
            }
            return fp_fail(p, "expected ']'");
        }
    }
    p->s++;
    return PM_OK;
}

/* Iterate an array: call each(p, i, ctx) for every element; *n receives the count; max bounds it. */
typedef pm_status (*elem_fn)(fr_t_ *p, size_t i, void *ctx);
static pm_status array(fr_t_ *p, size_t *n, size_t max, elem_fn each, void *ctx) {
    if (peek(p) != '[') return fp_fail(p, "expected an array, found %s", what_at(p));
    p->s++;
    size_t i = 0;
    pm_status st;
    if (peek(p) == ']') {
        p->s++;
        *n = 0;
        return PM_OK;
    }
    for (;;) {
        if (i >= max) return fp_fail(p, "more than %zu elements", max);
        jr_push_idx(&p->path, (long)i);
        if ((st = each(p, i, ctx))) return st;
        jr_pop(&p->path);
        i++;
        int c = peek(p);
        if (c == ',') {
            p->s++;
            continue;
        }
        if (c == ']') {
            p->s++;
            break;
        }
        return fp_fail(p, "expected ',' or ']' after element %zu", i - 1);
    }
    *n = i;
    return PM_OK;
}

/* Iterate an object: for each key, call field(p, key, ctx) which must consume the value and
 * return 1 in *known when it knew the key; unknown keys are skipped. */
typedef pm_status (*field_fn)(fr_t_ *p, const char *key, void *ctx, int *known);
static pm_status object(fr_t_ *p, field_fn field, void *ctx) {
    pm_status st;
    if (peek(p) != '{') return fp_fail(p, "expected an object, found %s", what_at(p));
    p->s++;
    if (peek(p) == '}') {
        p->s++;
        return PM_OK;
    }
    for (;;) {
        char key[64];
        if ((st = str(p, key, sizeof key)) || (st = expect(p, ':'))) return st;
        int known = 0;
        jr_push_key(&p->path, NULL);
        /* frame key must outlive the call: copy into a per-depth buffer */
        static _Thread_local char keys[24][64];
        int d = p->path.depth - 1;
        if (d < 24) {
            memcpy(keys[d], key, 64);
            p->path.fr[d].key = keys[d];
        }
        if ((st = field(p, key, ctx, &known))) return st;
        if (!known && (st = skip_value(p, 0))) return st;
        jr_pop(&p->path);
        int c = peek(p);
        if (c == ',') {
            p->s++;
            continue;
        }
        if (c == '}') {
            p->s++;
            return PM_OK;
        }
        return fp_fail(p, "expected ',' or '}'");
    }
}

/* "seen" bit sets detect missing and duplicate fields. */
#define SEEN(bit)                                                               \
    do {                                                                        \
        if (c->seen & (1u << (bit))) return fp_fail(p, "duplicate field");     \
        c->seen |= 1u << (bit);                                                 \
    } while (0)

static pm_status need(fr_t_ *p, unsigned seen, unsigned mask, const char *const *names) {
    for (unsigned b = 0; names[b]; b++)
        if ((mask & (1u << b)) && !(seen & (1u << b))) return fp_fail(p, "missing field \"%s\"", names[b]);
    return PM_OK;
}

/* ---- path ---- */
typedef struct {
    fil_path_elem_t *e;
    unsigned seen;
} pe_ctx;

static pm_status hash_el(fr_t_ *p, size_t i, void *ctx) { return dom(p, ((fil_path_elem_t *)ctx)->hashes[i]); }

static pm_status pe_field(fr_t_ *p, const char *key, void *ctx, int *known) {
    pe_ctx *c = ctx;
    size_t n = 0;
    pm_status st;
    if (!strcmp(key, "hashes")) {
        SEEN(0);
        *known = 1;
        if ((st = array(p, &n, FIL_MERKLE_MAX_ARITY - 1, hash_el, c->e))) return st;
        c->e->nhashes = (uint32_t)n;
    } else if (!strcmp(key, "index")) {
        SEEN(1);
        *known = 1;
        return uint_(p, &c->e->index, UINT32_MAX);
    }
    return PM_OK;
}

static const char *const PE_NAMES[] = {"hashes", "index", NULL};
static pm_status path_el(fr_t_ *p, size_t i, void *ctx) {
    pe_ctx c = {(fil_path_elem_t *)ctx + i, 0};
    pm_status st;
    if ((st = object(p, pe_field, &c))) return st;
    return need(p, c.seen, 3, PE_NAMES);
}

typedef struct {
    fil_path_elem_t *e;
    uint32_t *n;
    size_t room;
    unsigned seen;
} ip_ctx;

static pm_status ip_field(fr_t_ *p, const char *key, void *ctx, int *known) {
    ip_ctx *c = ctx;
    if (strcmp(key, "path")) return PM_OK;
    SEEN(0);
    *known = 1;
    size_t n = 0;
    pm_status st = array(p, &n, c->room, path_el, c->e);
    *c->n = (uint32_t)n;
    return st;
}
static const char *const IP_NAMES[] = {"path", NULL};
static pm_status inclusion_path(fr_t_ *p, fil_path_elem_t *e, uint32_t *n, size_t room) {
    ip_ctx c = {e, n, room, 0};
    pm_status st;
    if ((st = object(p, ip_field, &c))) return st;
    return need(p, c.seen, 1, IP_NAMES);
}

/* ---- merkle proof ---- */
typedef struct {
    fil_merkle_proof_t *mp;
    unsigned seen;
    fil_path_elem_t base[FIL_MERKLE_MAX_LEVELS], sub[1], top[1];
} var_ctx;

static pm_status var_field(fr_t_ *p, const char *key, void *ctx, int *known) {
    var_ctx *c = ctx;
    fil_merkle_proof_t *m = c->mp;
    *known = 1;
    if (!strcmp(key, "root")) {
        SEEN(0);
        return dom(p, m->root);
    }
    if (!strcmp(key, "leaf")) {
        SEEN(1);
        return dom(p, m->leaf);
    }
    if (m->kind == FIL_PROOF_SINGLE && !strcmp(key, "path")) {
        SEEN(2);
        return inclusion_path(p, c->base, &m->nbase, FIL_MERKLE_MAX_LEVELS);
    }
    if (m->kind != FIL_PROOF_SINGLE && !strcmp(key, "base_proof")) {
        SEEN(2);
        return inclusion_path(p, c->base, &m->nbase, FIL_MERKLE_MAX_LEVELS - 2);
    }
    if (m->kind != FIL_PROOF_SINGLE && !strcmp(key, "sub_proof")) {
        SEEN(3);
        return inclusion_path(p, c->sub, &m->nsub, 1);
    }
    if (m->kind == FIL_PROOF_TOP && !strcmp(key, "top_proof")) {
        SEEN(4);
        return inclusion_path(p, c->top, &m->ntop, 1);
    }
    *known = 0;
    return PM_OK;
}

typedef struct {
    fil_merkle_proof_t *mp;
    unsigned seen;
    var_ctx *v;
} data_ctx;

static const char *const SINGLE_NAMES[] = {"root", "leaf", "path", NULL};
static const char *const SUB_NAMES[] = {"root", "leaf", "base_proof", "sub_proof", "top_proof", NULL};

static pm_status data_field(fr_t_ *p, const char *key, void *ctx, int *known) {
    data_ctx *c = ctx;
    fil_proof_kind_t k;
    if (!strcmp(key, "Single"))
        k = FIL_PROOF_SINGLE;
    else if (!strcmp(key, "Sub"))
        k = FIL_PROOF_SUB;
    else if (!strcmp(key, "Top"))
        k = FIL_PROOF_TOP;
    else
        return fp_fail(p, "unknown MerkleProof variant (expected Single, Sub or Top)");
    if (c->seen) return fp_fail(p, "more than one MerkleProof variant");
    c->seen = 1;
    *known = 1;
    c->mp->kind = k;
    c->v->mp = c->mp;
    c->v->seen = 0;
    pm_status st;
    if ((st = object(p, var_field, c->v))) return st;
    if (k == FIL_PROOF_SINGLE) return need(p, c->v->seen, 7, SINGLE_NAMES);
    return need(p, c->v->seen, k == FIL_PROOF_SUB ? 15 : 31, SUB_NAMES);
}

typedef struct {
    fil_merkle_proof_t *mp;
    unsigned seen;
} mp_ctx;

static pm_status mp_field(fr_t_ *p, const char *key, void *ctx, int *known) {
    mp_ctx *c = ctx;
    if (strcmp(key, "data")) return PM_OK;
    SEEN(0);
    *known = 1;
    var_ctx v;
    data_ctx d = {c->mp, 0, &v};
    pm_status st;
    if ((st = object(p, data_field, &d))) return st;
    if (!d.seen) return fp_fail(p, "expected one of Single, Sub, Top");
    fil_merkle_proof_t *m = c->mp;
    uint32_t n = m->nbase + m->nsub + m->ntop;
    m->elems = fil_arena_alloc(&p->c1->arena, sizeof *m->elems * (n ? n : 1));
    if (!m->elems) return pm_error_set(p->err, PM_ERR_NOMEM, p->name, PM_NO_OFFSET, "out of memory");
    memcpy(m->elems, v.base, m->nbase * sizeof *m->elems);
    memcpy(m->elems + m->nbase, v.sub, m->nsub * sizeof *m->elems);
    memcpy(m->elems + m->nbase + m->nsub, v.top, m->ntop * sizeof *m->elems);
    return PM_OK;
}
static const char *const MP_NAMES[] = {"data", NULL};
static pm_status merkle_proof(fr_t_ *p, fil_merkle_proof_t *m) {
    mp_ctx c = {m, 0};
    pm_status st;
    if ((st = object(p, mp_field, &c))) return st;
    return need(p, c.seen, 1, MP_NAMES);
}

/* ---- column proof ---- */
typedef struct {
    fil_column_proof_t *cp;
    unsigned seen;
    uint8_t rows[MAX_ROWS][32];
} col_ctx;

static pm_status row_el(fr_t_ *p, size_t i, void *ctx) { return dom(p, ((col_ctx *)ctx)->rows[i]); }

static pm_status column_field(fr_t_ *p, const char *key, void *ctx, int *known) {
    col_ctx *c = ctx;
    pm_status st;
    *known = 1;
    if (!strcmp(key, "index")) {
        SEEN(0);
        uint64_t v;
        if ((st = uint_(p, &v, UINT32_MAX))) return st;
        c->cp->index = (uint32_t)v;
        return PM_OK;
    }
    if (!strcmp(key, "rows")) {
        SEEN(1);
        size_t n = 0;
        if ((st = array(p, &n, MAX_ROWS, row_el, c))) return st;
        c->cp->nrows = (uint32_t)n;
        c->cp->rows = fil_arena_alloc(&p->c1->arena, 32 * (n ? n : 1));
        if (!c->cp->rows) return pm_error_set(p->err, PM_ERR_NOMEM, p->name, PM_NO_OFFSET, "out of memory");
        memcpy(c->cp->rows, c->rows, 32 * n);
        return PM_OK;
    }
    *known = 0;
    return PM_OK;
}

typedef struct {
    fil_column_proof_t *cp;
    unsigned seen;
} cp_ctx;

static const char *const COLUMN_NAMES[] = {"index", "rows", NULL};
static pm_status cp_field(fr_t_ *p, const char *key, void *ctx, int *known) {
    cp_ctx *c = ctx;
    pm_status st;
    *known = 1;
    if (!strcmp(key, "column")) {
        SEEN(0);
        col_ctx cc;
        cc.cp = c->cp;
        cc.seen = 0;
        if ((st = object(p, column_field, &cc))) return st;
        return need(p, cc.seen, 3, COLUMN_NAMES);
    }
    if (!strcmp(key, "inclusion_proof")) {
        SEEN(1);
        return merkle_proof(p, &c->cp->inclusion);
    }
    *known = 0;
    return PM_OK;
}
static const char *const CP_NAMES[] = {"column", "inclusion_proof", NULL};
static pm_status column_proof(fr_t_ *p, fil_column_proof_t *cp) {
    cp_ctx c = {cp, 0};
    pm_status st;
    if ((st = object(p, cp_field, &c))) return st;
    return need(p, c.seen, 3, CP_NAMES);
}

/* ---- labeling proof ---- */
typedef struct {
    fil_labeling_proof_t *lp;
    unsigned seen;
    uint8_t parents[MAX_PARENTS][32];
} lp_ctx;

static pm_status parent_el(fr_t_ *p, size_t i, void *ctx) { return dom(p, ((lp_ctx *)ctx)->parents[i]); }

static pm_status lp_field(fr_t_ *p, const char *key, void *ctx, int *known) {
    lp_ctx *c = ctx;
    pm_status st;
    uint64_t v;
    *known = 1;
    if (!strcmp(key, "parents")) {
        SEEN(0);
        size_t n = 0;
        if ((st = array(p, &n, MAX_PARENTS, parent_el, c))) return st;
        c->lp->nparents = (uint32_t)n;
        c->lp->parents = fil_arena_alloc(&p->c1->arena, 32 * (n ? n : 1));
        if (!c->lp->parents) return pm_error_set(p->err, PM_ERR_NOMEM, p->name, PM_NO_OFFSET, "out of memory");
        memcpy(c->lp->parents, c->parents, 32 * n);
        return PM_OK;
    }
    if (!strcmp(key, "layer_index")) {
        SEEN(1);
        if ((st = uint_(p, &v, UINT32_MAX))) return st;
        c->lp->layer_index = (uint32_t)v;
        return PM_OK;
    }
    if (!strcmp(key, "node")) {
        SEEN(2);
        return uint_(p, &c->lp->node, UINT64_MAX);
    }
    *known = 0;
    return PM_OK;
}
static const char *const LP_NAMES[] = {"parents", "layer_index", "node", NULL};
static pm_status labeling_proof(fr_t_ *p, fil_labeling_proof_t *l) {
    lp_ctx *c = malloc(sizeof *c);
    if (!c) return pm_error_set(p->err, PM_ERR_NOMEM, p->name, PM_NO_OFFSET, "out of memory");
    c->lp = l;
    c->seen = 0;
    pm_status st = object(p, lp_field, c);
    if (!st) st = need(p, c->seen, 7, LP_NAMES);
    free(c);
    return st;
}

/* ---- vanilla proof ---- */
typedef struct {
    fil_vanilla_proof_t *v;
    unsigned seen;
} vp_ctx;

static pm_status cols_el(fr_t_ *p, size_t i, void *ctx) { return column_proof(p, (fil_column_proof_t *)ctx + i); }
static pm_status lps_el(fr_t_ *p, size_t i, void *ctx) { return labeling_proof(p, (fil_labeling_proof_t *)ctx + i); }

static pm_status cols(fr_t_ *p, fil_column_proof_t **out, uint32_t *n) {
    fil_column_proof_t tmp[MAX_COLUMNS];
    memset(tmp, 0, sizeof tmp);
    size_t k = 0;
    pm_status st = array(p, &k, MAX_COLUMNS, cols_el, tmp);
    if (st) return st;
    *out = fil_arena_alloc(&p->c1->arena, sizeof **out * (k ? k : 1));
    if (!*out) return pm_error_set(p->err, PM_ERR_NOMEM, p->name, PM_NO_OFFSET, "out of memory");
    memcpy(*out, tmp, k * sizeof **out);
    *n = (uint32_t)k;
    return PM_OK;
}

static pm_status rcp_field(fr_t_ *p, const char *key, void *ctx, int *known) {
    vp_ctx *c = ctx;
    *known = 1;
    if (!strcmp(key, "c_x")) {
        SEEN(0);
        return column_proof(p, &c->v->c_x);
    }
    if (!strcmp(key, "drg_parents")) {
        SEEN(1);
        return cols(p, &c->v->drg, &c->v->ndrg);
    }
    if (!strcmp(key, "exp_parents")) {
        SEEN(2);
        return cols(p, &c->v->exp, &c->v->nexp);
    }
    *known = 0;
    return PM_OK;
}
static const char *const RCP_NAMES[] = {"c_x", "drg_parents", "exp_parents", NULL};

static pm_status vp_field(fr_t_ *p, const char *key, void *ctx, int *known) {
    vp_ctx *c = ctx;
    pm_status st;
    *known = 1;
    if (!strcmp(key, "comm_d_proofs")) {
        SEEN(0);
        return merkle_proof(p, &c->v->comm_d);
    }
    if (!strcmp(key, "comm_r_last_proof")) {
        SEEN(1);
        return merkle_proof(p, &c->v->comm_r_last);
    }
    if (!strcmp(key, "replica_column_proofs")) {
        SEEN(2);
        vp_ctx r = {c->v, 0};
        if ((st = object(p, rcp_field, &r))) return st;
        return need(p, r.seen, 7, RCP_NAMES);
    }
    if (!strcmp(key, "labeling_proofs")) {
        SEEN(3);
        fil_labeling_proof_t tmp[MAX_ROWS];
        memset(tmp, 0, sizeof tmp);
        size_t n = 0;
        if ((st = array(p, &n, MAX_ROWS, lps_el, tmp))) return st;
        c->v->labeling = fil_arena_alloc(&p->c1->arena, sizeof tmp[0] * (n ? n : 1));
        if (!c->v->labeling) return pm_error_set(p->err, PM_ERR_NOMEM, p->name, PM_NO_OFFSET, "out of memory");
        memcpy(c->v->labeling, tmp, n * sizeof tmp[0]);
        c->v->nlabeling = (uint32_t)n;
        return PM_OK;
    }
    if (!strcmp(key, "encoding_proof")) {
        SEEN(4);
        return labeling_proof(p, &c->v->encoding);
    }
    *known = 0;
    return PM_OK;
}
static const char *const VP_NAMES[] = {"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs",
                                       "labeling_proofs", "encoding_proof", NULL};

/* ---- partitions: proofs are appended to a growing list, then checked rectangular ---- */
typedef struct {
    fil_vanilla_proof_t *v;
    size_t n, cap;
    size_t part_len[MAX_PARTITIONS];
    size_t nparts;
} parts_ctx;

static pm_status chal_el(fr_t_ *p, size_t i, void *ctx) {
    parts_ctx *c = ctx;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        if (cap > (size_t)MAX_PARTITIONS * MAX_CHALLENGES) cap = (size_t)MAX_PARTITIONS * MAX_CHALLENGES;
        if (cap <= c->n) return fp_fail(p, "too many challenge proofs");
        fil_vanilla_proof_t *q = realloc(c->v, cap * sizeof *q);
        if (!q) return pm_error_set(p->err, PM_ERR_NOMEM, p->name, PM_NO_OFFSET, "out of memory");
        c->v = q;
        c->cap = cap;
    }
    fil_vanilla_proof_t *v = &c->v[c->n++];
    memset(v, 0, sizeof *v);
    vp_ctx vc = {v, 0};
    pm_status st;
    if ((st = object(p, vp_field, &vc))) return st;
    return need(p, vc.seen, 31, VP_NAMES);
}

static pm_status part_el(fr_t_ *p, size_t i, void *ctx) {
    parts_ctx *c = ctx;
    size_t n = 0;
    pm_status st = array(p, &n, MAX_CHALLENGES, chal_el, c);
    if (st) return st;
    c->part_len[i] = n;
    c->nparts = i + 1;
    return PM_OK;
}

typedef struct {
    fil_c1_t *c1;
    unsigned seen;
    parts_ctx *parts;
    char tag[64];
} top_ctx;

static pm_status vps_field(fr_t_ *p, const char *key, void *ctx, int *known) {
    top_ctx *c = ctx;
    if (c->tag[0]) return fp_fail(p, "more than one vanilla_proofs variant");
    snprintf(c->tag, sizeof c->tag, "%s", key);
    *known = 1;
    size_t n = 0;
    return array(p, &n, MAX_PARTITIONS, part_el, c->parts);
}

static pm_status top_field(fr_t_ *p, const char *key, void *ctx, int *known) {
    top_ctx *c = ctx;
    pm_status st;
    *known = 1;
    if (!strcmp(key, "registered_proof")) {
        SEEN(0);
        char s[96];
        if ((st = str(p, s, sizeof s))) return st;
        st = set_registered(c->c1, s, p->name, p->err);
        if (st) p->err->offset = (uint64_t)(p->s - p->base);
        return st;
    }
    if (!strcmp(key, "vanilla_proofs")) {
        SEEN(1);
        if ((st = object(p, vps_field, c))) return st;
        if (!c->tag[0]) return fp_fail(p, "expected one variant");
        return PM_OK;
    }
    if (!strcmp(key, "comm_r")) {
        SEEN(2);
        return dom(p, c->c1->comm_r);
    }
    if (!strcmp(key, "comm_d")) {
        SEEN(3);
        return dom(p, c->c1->comm_d);
    }
    if (!strcmp(key, "replica_id")) {
        SEEN(4);
        return dom(p, c->c1->replica_id);
    }
    if (!strcmp(key, "seed")) {
        SEEN(5);
        return dom(p, c->c1->seed);
    }
    if (!strcmp(key, "ticket")) {
        SEEN(6);
        return dom(p, c->c1->ticket);
    }
    if (!strcmp(key, SYNTH_KEY)) {
        c->c1->synthetic = 1;
        *known = 0;
        return PM_OK;
    }
    *known = 0;
    return PM_OK;
}
static const char *const TOP_NAMES[] = {"registered_proof", "vanilla_proofs", "comm_r", "comm_d",
                                        "replica_id", "seed", "ticket", NULL};

static pm_status read_fast(fil_c1_t *c1, const char *buf, size_t len, const char *name,
                           pm_error *err) {
    fr_t_ p = {.s = buf, .end = buf + len, .base = buf, .name = name, .err = err, .c1 = c1};
    p.path.name = name;
    p.path.err = err;
    parts_ctx *parts = calloc(1, sizeof *parts);
    if (!parts) return pm_error_set(err, PM_ERR_NOMEM, name, PM_NO_OFFSET, "out of memory");
    top_ctx t = {.c1 = c1, .parts = parts};
    pm_status st = object(&p, top_field, &t);
    if (!st && peek(&p) != -1) st = fp_fail(&p, "trailing characters after the JSON value");
    if (!st) st = need(&p, t.seen, 127, TOP_NAMES);
    if (!st) {
        size_t np = parts->nparts, nc = np ? parts->part_len[0] : 0;
        if (np == 0)
            st = pm_error_set(err, PM_ERR_FORMAT, name, PM_NO_OFFSET, "vanilla_proofs.%s: no partitions", t.tag);
        for (size_t k = 0; !st && k < np; k++)
            if (parts->part_len[k] != nc || nc == 0)
                st = pm_error_set(err, PM_ERR_FORMAT, name, PM_NO_OFFSET,
                                  "vanilla_proofs.%s[%zu]: %zu challenge proofs (partition 0 has %zu)",
                                  t.tag, k, parts->part_len[k], nc);
        if (!st && !(st = fil_c1_alloc_proofs(c1, (uint32_t)np, (uint32_t)nc, err))) {
            memcpy(c1->proofs, parts->v, np * nc * sizeof *c1->proofs);
            st = check_shape(c1, name, t.tag, err);
        }
    }
    free(parts->v);
    free(parts);
    return st;
}

pm_status fil_c1_from_json(fil_c1_t *c1, const char *buf, size_t len, const char *name,
                           fil_c1_reader_t reader, pm_error *err) {
    memset(c1, 0, sizeof *c1);
    pm_status st = reader == FIL_C1_READER_JANSSON ? read_jansson(c1, buf, len, name, err)
                                                   : read_fast(c1, buf, len, name, err);
    if (st) fil_c1_free(c1);
    return st;
}

/* ================================================================ files, envelope */

/* Read a whole regular file into a NUL-terminated heap buffer. Through pm_file_open, so a
 * directory, FIFO or device is refused at once (no hang, no LONG_MAX-sized allocation). */
static pm_status slurp(char **out, size_t *len, const char *path, pm_error *err) {
    pm_file f;
    pm_status st = pm_file_open(&f, path, err);
    if (st) return st;
    if (f.size > (uint64_t)SIZE_MAX - 1) {
        pm_file_close(&f);
        return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "file of %llu bytes is too large",
                            (unsigned long long)f.size);
    }
    char *b = malloc((size_t)f.size + 1);
    if (!b) {
        pm_file_close(&f);
        return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "cannot hold %llu bytes in memory",
                            (unsigned long long)f.size);
    }
    if (f.size) memcpy(b, f.data, (size_t)f.size);
    b[f.size] = 0;
    *out = b;
    *len = (size_t)f.size;
    pm_file_close(&f);
    return PM_OK;
}

typedef struct {
    unsigned seen;
    uint64_t num, size;
    const char *b64;
    size_t blen;
} env_ctx;

static pm_status env_field(fr_t_ *p, const char *key, void *ctx, int *known) {
    env_ctx *c = ctx;
    *known = 1;
    if (!strcmp(key, "SectorNum")) {
        SEEN(0);
        return uint_(p, &c->num, UINT64_MAX);
    }
    if (!strcmp(key, "SectorSize")) {
        SEEN(1);
        return uint_(p, &c->size, UINT64_MAX);
    }
    if (!strcmp(key, "Phase1Out")) {
        SEEN(2);
        if (peek(p) != '"') return fp_fail(p, "expected a base64 string, found %s", what_at(p));
        const char *s0 = ++p->s;
        while (p->s < p->end && *p->s != '"') {
            unsigned char ch = (unsigned char)*p->s;
            if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
                  ch == '+' || ch == '/' || ch == '='))
                return fp_fail(p, "not standard base64 (byte 0x%02x)", ch);
            p->s++;
        }
        if (p->s >= p->end) return fp_fail(p, "unterminated string");
        c->b64 = s0;
        c->blen = (size_t)(p->s - s0);
        p->s++;
        return PM_OK;
    }
    *known = 0;
    return PM_OK;
}
static const char *const ENV_NAMES[] = {"SectorNum", "SectorSize", "Phase1Out", NULL};

pm_status fil_c1_read_file(fil_c1_t *c1, uint64_t *sector_num, const char *path,
                           fil_c1_reader_t reader, pm_error *err) {
    char *buf = NULL;
    size_t len = 0;
    memset(c1, 0, sizeof *c1);
    pm_status st = slurp(&buf, &len, path, err);
    if (st) return st;
    st = fil_c1_read_bytes(c1, sector_num, buf, len, path, reader, err);
    free(buf);
    return st;
}

pm_status fil_c1_read_bytes(fil_c1_t *c1, uint64_t *sector_num, const char *buf, size_t len, const char *name,
                            fil_c1_reader_t reader, pm_error *err) {
    const char *path = name; /* errors name the file or the input */
    pm_status st = PM_OK;
    memset(c1, 0, sizeof *c1);
    /* An envelope starts with an object whose keys include "Phase1Out"; a C1 never has that key. */
    const char *probe = memmem(buf, len < 256 ? len : 256, "\"Phase1Out\"", 11);
    if (!probe) probe = memmem(buf, len < 256 ? len : 256, "\"SectorNum\"", 11);
    if (!probe) return fil_c1_from_json(c1, buf, len, path, reader, err);
    /* The envelope is parsed with the single-pass tokenizer: jansson would copy and UTF-8-check the
     * ~50 MB Phase1Out string first (seconds on the 2-core VM), for a 3-key object. */
    env_ctx ec;
    memset(&ec, 0, sizeof ec);
    fr_t_ p = {.s = buf, .end = buf + len, .base = buf, .name = path, .err = err, .c1 = c1};
    p.path.name = path;
    p.path.err = err;
    st = object(&p, env_field, &ec);
    if (!st && peek(&p) != -1) st = fp_fail(&p, "trailing characters after the envelope");
    if (!st) st = need(&p, ec.seen, 7, ENV_NAMES);
    if (!st && ec.size == 0) st = fp_fail(&p, "envelope: SectorSize is 0");
    if (!st && (ec.blen % 4 || ec.blen > (size_t)INT32_MAX))
        st = pm_error_set(err, PM_ERR_FORMAT, path, (uint64_t)(ec.b64 - buf),
                          "envelope: Phase1Out is not padded base64 (length %zu)", ec.blen);
    unsigned char *dec = st ? NULL : malloc(ec.blen / 4 * 3 + 1);
    if (!st && !dec) st = pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "envelope: out of memory");
    int dn = 0;
    if (!st && ec.blen) {
        dn = EVP_DecodeBlock(dec, (const unsigned char *)ec.b64, (int)ec.blen);
        if (dn < 0)
            st = pm_error_set(err, PM_ERR_FORMAT, path, (uint64_t)(ec.b64 - buf),
                              "envelope: Phase1Out is not valid base64");
    }
    if (!st) {
        if (ec.blen >= 1 && ec.b64[ec.blen - 1] == '=') dn--;
        if (ec.blen >= 2 && ec.b64[ec.blen - 2] == '=') dn--;
    }
    if (st) {
        free(dec);
        return st;
    }
    uint64_t sector_size = ec.size;
    if (sector_num) *sector_num = ec.num;
    char inner[600];
    snprintf(inner, sizeof inner, "%.500s (Phase1Out)", path);
    st = fil_c1_from_json(c1, (const char *)dec, (size_t)dn, inner, reader, err);
    free(dec);
    if (!st && c1->sector_size != sector_size) {
        uint64_t have = c1->sector_size;
        fil_c1_free(c1);
        return pm_error_set(err, PM_ERR_MISMATCH, path, PM_NO_OFFSET,
                            "envelope: SectorSize %" PRIu64 " but the C1 is for %" PRIu64 " bytes",
                            sector_size, have);
    }
    return st;
}
