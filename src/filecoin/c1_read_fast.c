/*
 * c1_read_fast.c — the schema-driven single-pass C1 reader (fil_c1_from_json) and its tokenizer.
 * Format: c1_json.h; why not a jansson tree: docs/perf/porep.md (the tree walk is the tests'
 * reference reader, tests/filecoin/c1_read_jansson.c).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/c1_json_internal.h"
#include "filecoin/sizes.h"


/* A recursive-descent parser specialised to the C1 schema: values are decoded straight into the
 * arena (no intermediate tree, no per-number allocation). Keys may come in any order; unknown
 * keys are skipped (as serde does); duplicates of known keys are rejected. Errors carry the byte
 * offset and the JSON path. */
pm_status fil_c1_tok_fail(fil_c1_tok *p, const char *fmt, ...) {
    char pth[300], m[200];
    fil_c1_path_string(pth, sizeof pth, &p->path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    return pm_error_set(p->err, PM_ERR_FORMAT, p->name, (uint64_t)(p->s - p->base), "%s: %s", pth, m);
}

static pm_status expect(fil_c1_tok *p, char c) {
    if (fil_c1_tok_peek(p) != (unsigned char)c) {
        if (p->s >= p->end) return fil_c1_tok_fail(p, "unexpected end of input (expected '%c')", c);
        return fil_c1_tok_fail(p, "expected '%c', found '%c'", c, *p->s);
    }
    p->s++;
    return PM_OK;
}

const char *fil_c1_tok_what(fil_c1_tok *p) {
    int c = fil_c1_tok_peek(p);
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
static pm_status str(fil_c1_tok *p, char *out, size_t cap) {
    if (fil_c1_tok_peek(p) != '"') return fil_c1_tok_fail(p, "expected a string, found %s", fil_c1_tok_what(p));
    p->s++;
    size_t n = 0;
    while (p->s < p->end && *p->s != '"') {
        if (*p->s == '\\' || (unsigned char)*p->s < 0x20)
            return fil_c1_tok_fail(p, "escaped or control characters are not expected here");
        if (n + 1 < cap) out[n++] = *p->s;
        p->s++;
    }
    if (p->s >= p->end) return fil_c1_tok_fail(p, "unterminated string");
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

static pm_status skip_value(fil_c1_tok *p, int depth);

static pm_status skip_string(fil_c1_tok *p) {
    p->s++;
    while (p->s < p->end && *p->s != '"') {
        if (*p->s == '\\') p->s++;
        p->s++;
    }
    if (p->s >= p->end) return fil_c1_tok_fail(p, "unterminated string");
    p->s++;
    return PM_OK;
}

static pm_status skip_value(fil_c1_tok *p, int depth) {
    if (depth > 64) return fil_c1_tok_fail(p, "nesting too deep");
    int c = fil_c1_tok_peek(p);
    pm_status st;
    if (c == '"') return skip_string(p);
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        p->s++;
        if (fil_c1_tok_peek(p) == close) {
            p->s++;
            return PM_OK;
        }
        for (;;) {
            if (c == '{') {
                if (fil_c1_tok_peek(p) != '"') return fil_c1_tok_fail(p, "expected a key, found %s", fil_c1_tok_what(p));
                if ((st = skip_string(p)) || (st = expect(p, ':'))) return st;
            }
            if ((st = skip_value(p, depth + 1))) return st;
            int d = fil_c1_tok_peek(p);
            if (d == ',') {
                p->s++;
                continue;
            }
            if (d == close) {
                p->s++;
                return PM_OK;
            }
            return fil_c1_tok_fail(p, "expected ',' or '%c'", close);
        }
    }
    const char *st0 = p->s;
    while (p->s < p->end && (strchr("+-.eE", *p->s) || (*p->s >= '0' && *p->s <= '9') ||
                             (*p->s >= 'a' && *p->s <= 'z')))
        p->s++;
    if (p->s == st0) return fil_c1_tok_fail(p, "invalid JSON value");
    size_t n = (size_t)(p->s - st0);
    if ((n == 4 && !memcmp(st0, "null", 4)) || (n == 4 && !memcmp(st0, "true", 4)) ||
        (n == 5 && !memcmp(st0, "false", 5)) || is_json_number(st0, n))
        return PM_OK;
    p->s = st0;
    return fil_c1_tok_fail(p, "invalid JSON value");
}

/* JSON "-0" is the integer 0 (jansson reads it so; the two readers must agree): skip the sign
 * of a negative zero so the digit loops below see "0". Returns 1 when it skipped one. */
static int skip_negative_zero(fil_c1_tok *p) {
    const char *q = p->s;
    if (q + 1 < p->end && q[0] == '-' && q[1] == '0' &&
        (q + 2 >= p->end || q[2] < '0' || q[2] > '9')) {
        p->s++;
        return 1;
    }
    return 0;
}

pm_status fil_c1_tok_uint(fil_c1_tok *p, uint64_t *v, uint64_t max) {
    int c = fil_c1_tok_peek(p);
    if (c == '-' && skip_negative_zero(p)) c = '0';
    if (c < '0' || c > '9') {
        if (c == '-') return fil_c1_tok_fail(p, "expected an unsigned integer, found a negative number");
        return fil_c1_tok_fail(p, "expected an unsigned integer, found %s", fil_c1_tok_what(p));
    }
    uint64_t x = 0;
    const char *st0 = p->s;
    while (p->s < p->end && *p->s >= '0' && *p->s <= '9') {
        unsigned d = (unsigned)(*p->s - '0');
        if (x > (UINT64_MAX - d) / 10) return fil_c1_tok_fail(p, "integer too large");
        x = x * 10 + d;
        p->s++;
    }
    if (p->s - st0 > 1 && st0[0] == '0') {
        p->s = st0;
        return fil_c1_tok_fail(p, "leading zero in a number");
    }
    if (p->s < p->end && (*p->s == '.' || *p->s == 'e' || *p->s == 'E')) {
        p->s = st0;
        return fil_c1_tok_fail(p, "expected an unsigned integer, found a fractional number");
    }
    if (x > max) {
        p->s = st0;
        return fil_c1_tok_fail(p, "%" PRIu64 " out of range 0..%" PRIu64, x, max);
    }
    *v = x;
    return PM_OK;
}

/* Domain fast path: '[' 32 × (0..255) ']' with optional whitespace. */
static pm_status dom(fil_c1_tok *p, uint8_t d[32]) {
    if (fil_c1_tok_peek(p) != '[') return fil_c1_tok_fail(p, "expected an array of 32 integers, found %s", fil_c1_tok_what(p));
    const char *start = p->s;
    p->s++;
    for (int i = 0; i < 32; i++) {
        int c = fil_c1_tok_peek(p);
        if (c == '-' && skip_negative_zero(p)) c = '0';
        if (i == 0 && c == ']') {
            p->s = start;
            return fil_c1_tok_fail(p, "expected 32 bytes, found 0");
        }
        if (c < '0' || c > '9') {
            if (c == ']') {
                p->s = start;
                return fil_c1_tok_fail(p, "expected 32 bytes, found %d", i);
            }
            return fil_c1_tok_fail(p, "byte %d: expected an integer 0..255, found %s", i, fil_c1_tok_what(p));
        }
        unsigned v = 0;
        const char *n0 = p->s;
        while (p->s < p->end && *p->s >= '0' && *p->s <= '9' && p->s - n0 < 4) v = v * 10 + (unsigned)(*p->s++ - '0');
        if (v > 255 || (p->s - n0 > 1 && n0[0] == '0') ||
            (p->s < p->end && (*p->s == '.' || *p->s == 'e' || *p->s == 'E' || (*p->s >= '0' && *p->s <= '9')))) {
            p->s = n0;
            return fil_c1_tok_fail(p, "byte %d: not an integer in 0..255", i);
        }
        d[i] = (uint8_t)v;
        c = fil_c1_tok_peek(p);
        if (i < 31) {
            if (c == ']') {
                p->s = start;
                return fil_c1_tok_fail(p, "expected 32 bytes, found %d", i + 1);
            }
            if (c != ',') return fil_c1_tok_fail(p, "expected ',' in a byte array");
            p->s++;
        } else if (c != ']') {
            if (c == ',') {
                p->s = start;
                return fil_c1_tok_fail(p, "expected 32 bytes, found more");
            }
            return fil_c1_tok_fail(p, "expected ']'");
        }
    }
    p->s++;
    return PM_OK;
}

/* Iterate an array: call each(p, i, ctx) for every element; *n receives the count; max bounds it. */
typedef pm_status (*elem_fn)(fil_c1_tok *p, size_t i, void *ctx);
static pm_status array(fil_c1_tok *p, size_t *n, size_t max, elem_fn each, void *ctx) {
    if (fil_c1_tok_peek(p) != '[') return fil_c1_tok_fail(p, "expected an array, found %s", fil_c1_tok_what(p));
    p->s++;
    size_t i = 0;
    pm_status st;
    if (fil_c1_tok_peek(p) == ']') {
        p->s++;
        *n = 0;
        return PM_OK;
    }
    for (;;) {
        if (i >= max) return fil_c1_tok_fail(p, "more than %zu elements", max);
        jr_push_idx(&p->path, (long)i);
        if ((st = each(p, i, ctx))) return st;
        jr_pop(&p->path);
        i++;
        int c = fil_c1_tok_peek(p);
        if (c == ',') {
            p->s++;
            continue;
        }
        if (c == ']') {
            p->s++;
            break;
        }
        return fil_c1_tok_fail(p, "expected ',' or ']' after element %zu", i - 1);
    }
    *n = i;
    return PM_OK;
}

pm_status fil_c1_tok_object(fil_c1_tok *p, fil_c1_field_fn field, void *ctx) {
    pm_status st;
    if (fil_c1_tok_peek(p) != '{') return fil_c1_tok_fail(p, "expected an object, found %s", fil_c1_tok_what(p));
    p->s++;
    if (fil_c1_tok_peek(p) == '}') {
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
        int c = fil_c1_tok_peek(p);
        if (c == ',') {
            p->s++;
            continue;
        }
        if (c == '}') {
            p->s++;
            return PM_OK;
        }
        return fil_c1_tok_fail(p, "expected ',' or '}'");
    }
}

pm_status fil_c1_tok_need(fil_c1_tok *p, unsigned seen, unsigned mask, const char *const *names) {
    for (unsigned b = 0; names[b]; b++)
        if ((mask & (1u << b)) && !(seen & (1u << b))) return fil_c1_tok_fail(p, "missing field \"%s\"", names[b]);
    return PM_OK;
}

/* ---- path ---- */
typedef struct {
    fil_path_elem_t *e;
    unsigned seen;
} pe_ctx;

static pm_status hash_el(fil_c1_tok *p, size_t i, void *ctx) { return dom(p, ((fil_path_elem_t *)ctx)->hashes[i]); }

static pm_status pe_field(fil_c1_tok *p, const char *key, void *ctx, int *known) {
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
        return fil_c1_tok_uint(p, &c->e->index, UINT32_MAX);
    }
    return PM_OK;
}

static const char *const PE_NAMES[] = {"hashes", "index", NULL};
static pm_status path_el(fil_c1_tok *p, size_t i, void *ctx) {
    pe_ctx c = {(fil_path_elem_t *)ctx + i, 0};
    pm_status st;
    if ((st = fil_c1_tok_object(p, pe_field, &c))) return st;
    return fil_c1_tok_need(p, c.seen, 3, PE_NAMES);
}

typedef struct {
    fil_path_elem_t *e;
    uint32_t *n;
    size_t room;
    unsigned seen;
} ip_ctx;

static pm_status ip_field(fil_c1_tok *p, const char *key, void *ctx, int *known) {
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
static pm_status inclusion_path(fil_c1_tok *p, fil_path_elem_t *e, uint32_t *n, size_t room) {
    ip_ctx c = {e, n, room, 0};
    pm_status st;
    if ((st = fil_c1_tok_object(p, ip_field, &c))) return st;
    return fil_c1_tok_need(p, c.seen, 1, IP_NAMES);
}

/* ---- merkle proof ---- */
typedef struct {
    fil_merkle_proof_t *mp;
    unsigned seen;
    fil_path_elem_t base[FIL_MERKLE_MAX_LEVELS], sub[1], top[1];
} var_ctx;

static pm_status var_field(fil_c1_tok *p, const char *key, void *ctx, int *known) {
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

static pm_status data_field(fil_c1_tok *p, const char *key, void *ctx, int *known) {
    data_ctx *c = ctx;
    fil_proof_kind_t k;
    if (!strcmp(key, "Single"))
        k = FIL_PROOF_SINGLE;
    else if (!strcmp(key, "Sub"))
        k = FIL_PROOF_SUB;
    else if (!strcmp(key, "Top"))
        k = FIL_PROOF_TOP;
    else
        return fil_c1_tok_fail(p, "unknown MerkleProof variant (expected Single, Sub or Top)");
    if (c->seen) return fil_c1_tok_fail(p, "more than one MerkleProof variant");
    c->seen = 1;
    *known = 1;
    c->mp->kind = k;
    c->v->mp = c->mp;
    c->v->seen = 0;
    pm_status st;
    if ((st = fil_c1_tok_object(p, var_field, c->v))) return st;
    if (k == FIL_PROOF_SINGLE) return fil_c1_tok_need(p, c->v->seen, 7, SINGLE_NAMES);
    return fil_c1_tok_need(p, c->v->seen, k == FIL_PROOF_SUB ? 15 : 31, SUB_NAMES);
}

typedef struct {
    fil_merkle_proof_t *mp;
    unsigned seen;
} mp_ctx;

static pm_status mp_field(fil_c1_tok *p, const char *key, void *ctx, int *known) {
    mp_ctx *c = ctx;
    if (strcmp(key, "data")) return PM_OK;
    SEEN(0);
    *known = 1;
    var_ctx v;
    data_ctx d = {c->mp, 0, &v};
    pm_status st;
    if ((st = fil_c1_tok_object(p, data_field, &d))) return st;
    if (!d.seen) return fil_c1_tok_fail(p, "expected one of Single, Sub, Top");
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
static pm_status merkle_proof(fil_c1_tok *p, fil_merkle_proof_t *m) {
    mp_ctx c = {m, 0};
    pm_status st;
    if ((st = fil_c1_tok_object(p, mp_field, &c))) return st;
    return fil_c1_tok_need(p, c.seen, 1, MP_NAMES);
}

/* ---- column proof ---- */
typedef struct {
    fil_column_proof_t *cp;
    unsigned seen;
    uint8_t rows[MAX_ROWS][32];
} col_ctx;

static pm_status row_el(fil_c1_tok *p, size_t i, void *ctx) { return dom(p, ((col_ctx *)ctx)->rows[i]); }

static pm_status column_field(fil_c1_tok *p, const char *key, void *ctx, int *known) {
    col_ctx *c = ctx;
    pm_status st;
    *known = 1;
    if (!strcmp(key, "index")) {
        SEEN(0);
        uint64_t v;
        if ((st = fil_c1_tok_uint(p, &v, UINT32_MAX))) return st;
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
static pm_status cp_field(fil_c1_tok *p, const char *key, void *ctx, int *known) {
    cp_ctx *c = ctx;
    pm_status st;
    *known = 1;
    if (!strcmp(key, "column")) {
        SEEN(0);
        col_ctx cc;
        cc.cp = c->cp;
        cc.seen = 0;
        if ((st = fil_c1_tok_object(p, column_field, &cc))) return st;
        return fil_c1_tok_need(p, cc.seen, 3, COLUMN_NAMES);
    }
    if (!strcmp(key, "inclusion_proof")) {
        SEEN(1);
        return merkle_proof(p, &c->cp->inclusion);
    }
    *known = 0;
    return PM_OK;
}
static const char *const CP_NAMES[] = {"column", "inclusion_proof", NULL};
static pm_status column_proof(fil_c1_tok *p, fil_column_proof_t *cp) {
    cp_ctx c = {cp, 0};
    pm_status st;
    if ((st = fil_c1_tok_object(p, cp_field, &c))) return st;
    return fil_c1_tok_need(p, c.seen, 3, CP_NAMES);
}

/* ---- labeling proof ---- */
typedef struct {
    fil_labeling_proof_t *lp;
    unsigned seen;
    uint8_t parents[MAX_PARENTS][32];
} lp_ctx;

static pm_status parent_el(fil_c1_tok *p, size_t i, void *ctx) { return dom(p, ((lp_ctx *)ctx)->parents[i]); }

static pm_status lp_field(fil_c1_tok *p, const char *key, void *ctx, int *known) {
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
        if ((st = fil_c1_tok_uint(p, &v, UINT32_MAX))) return st;
        c->lp->layer_index = (uint32_t)v;
        return PM_OK;
    }
    if (!strcmp(key, "node")) {
        SEEN(2);
        return fil_c1_tok_uint(p, &c->lp->node, UINT64_MAX);
    }
    *known = 0;
    return PM_OK;
}
static const char *const LP_NAMES[] = {"parents", "layer_index", "node", NULL};
static pm_status labeling_proof(fil_c1_tok *p, fil_labeling_proof_t *l) {
    lp_ctx *c = malloc(sizeof *c);
    if (!c) return pm_error_set(p->err, PM_ERR_NOMEM, p->name, PM_NO_OFFSET, "out of memory");
    c->lp = l;
    c->seen = 0;
    pm_status st = fil_c1_tok_object(p, lp_field, c);
    if (!st) st = fil_c1_tok_need(p, c->seen, 7, LP_NAMES);
    free(c);
    return st;
}

/* ---- vanilla proof ---- */
typedef struct {
    fil_vanilla_proof_t *v;
    unsigned seen;
} vp_ctx;

static pm_status cols_el(fil_c1_tok *p, size_t i, void *ctx) { return column_proof(p, (fil_column_proof_t *)ctx + i); }
static pm_status lps_el(fil_c1_tok *p, size_t i, void *ctx) { return labeling_proof(p, (fil_labeling_proof_t *)ctx + i); }

static pm_status cols(fil_c1_tok *p, fil_column_proof_t **out, uint32_t *n) {
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

static pm_status rcp_field(fil_c1_tok *p, const char *key, void *ctx, int *known) {
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

static pm_status vp_field(fil_c1_tok *p, const char *key, void *ctx, int *known) {
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
        if ((st = fil_c1_tok_object(p, rcp_field, &r))) return st;
        return fil_c1_tok_need(p, r.seen, 7, RCP_NAMES);
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

static pm_status chal_el(fil_c1_tok *p, size_t i, void *ctx) {
    parts_ctx *c = ctx;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64;
        if (cap > (size_t)MAX_PARTITIONS * MAX_CHALLENGES) cap = (size_t)MAX_PARTITIONS * MAX_CHALLENGES;
        if (cap <= c->n) return fil_c1_tok_fail(p, "too many challenge proofs");
        fil_vanilla_proof_t *q = realloc(c->v, cap * sizeof *q);
        if (!q) return pm_error_set(p->err, PM_ERR_NOMEM, p->name, PM_NO_OFFSET, "out of memory");
        c->v = q;
        c->cap = cap;
    }
    fil_vanilla_proof_t *v = &c->v[c->n++];
    memset(v, 0, sizeof *v);
    vp_ctx vc = {v, 0};
    pm_status st;
    if ((st = fil_c1_tok_object(p, vp_field, &vc))) return st;
    return fil_c1_tok_need(p, vc.seen, 31, VP_NAMES);
}

static pm_status part_el(fil_c1_tok *p, size_t i, void *ctx) {
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

static pm_status vps_field(fil_c1_tok *p, const char *key, void *ctx, int *known) {
    top_ctx *c = ctx;
    if (c->tag[0]) return fil_c1_tok_fail(p, "more than one vanilla_proofs variant");
    snprintf(c->tag, sizeof c->tag, "%s", key);
    *known = 1;
    size_t n = 0;
    return array(p, &n, MAX_PARTITIONS, part_el, c->parts);
}

static pm_status top_field(fil_c1_tok *p, const char *key, void *ctx, int *known) {
    top_ctx *c = ctx;
    pm_status st;
    *known = 1;
    if (!strcmp(key, "registered_proof")) {
        SEEN(0);
        char s[96];
        if ((st = str(p, s, sizeof s))) return st;
        st = fil_c1_set_registered(c->c1, s, p->name, p->err);
        if (st) p->err->offset = (uint64_t)(p->s - p->base);
        return st;
    }
    if (!strcmp(key, "vanilla_proofs")) {
        SEEN(1);
        if ((st = fil_c1_tok_object(p, vps_field, c))) return st;
        if (!c->tag[0]) return fil_c1_tok_fail(p, "expected one variant");
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
    fil_c1_tok p = {.s = buf, .end = buf + len, .base = buf, .name = name, .err = err, .c1 = c1};
    p.path.name = name;
    p.path.err = err;
    parts_ctx *parts = calloc(1, sizeof *parts);
    if (!parts) return pm_error_set(err, PM_ERR_NOMEM, name, PM_NO_OFFSET, "out of memory");
    top_ctx t = {.c1 = c1, .parts = parts};
    pm_status st = fil_c1_tok_object(&p, top_field, &t);
    if (!st && fil_c1_tok_peek(&p) != -1) st = fil_c1_tok_fail(&p, "trailing characters after the JSON value");
    if (!st) st = fil_c1_tok_need(&p, t.seen, 127, TOP_NAMES);
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
            st = fil_c1_check_shape(c1, name, t.tag, err);
        }
    }
    free(parts->v);
    free(parts);
    return st;
}

pm_status fil_c1_from_json(fil_c1_t *c1, const char *buf, size_t len, const char *name, pm_error *err) {
    memset(c1, 0, sizeof *c1);
    pm_status st = read_fast(c1, buf, len, name, err);
    if (st) fil_c1_free(c1);
    return st;
}

