/*
 * c1_read_jansson.c — the tests' reference C1 reader (c1_read_jansson.h): the whole document is
 * parsed into a jansson tree, then walked. Plain and slow where src/filecoin/c1_read_fast.c is
 * fast, with the same result and the same checks; the tests hold the two against each other (as
 * secp256k1 keeps naive implementations in its tests). Not in any library. Format: c1_json.h.
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c1_read_jansson.h"
#include "filecoin/c1_json_internal.h"
#include "filecoin/sizes.h"


static pm_status jr_fail(jr_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static pm_status jr_fail(jr_t *r, const char *fmt, ...) {
    char p[300], m[200];
    fil_c1_path_string(p, sizeof p, r);
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

/* buf[len] into a zeroed c1 */
static pm_status read_jansson(fil_c1_t *c1, const char *buf, size_t len, const char *name, pm_error *err) {
    /* jansson (2.14) loses a NUL byte that follows a number or a literal: "[10\0,5]" loads as
     * [10,5]. A raw NUL is never JSON (the single-pass reader refuses it): refuse it here too, so
     * the two readers accept the same documents. */
    const char *nul = memchr(buf, 0, len);
    if (nul)
        return pm_error_set(err, PM_ERR_FORMAT, name, (uint64_t)(nul - buf), "JSON syntax: a NUL byte (not JSON)");
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
    if ((st = fil_c1_set_registered(c1, json_string_value(x), name, err))) goto out;
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
    st = fil_c1_check_shape(c1, name, tag, err);
out:
    json_decref(root);
    return st;
}

pm_status fil_c1_from_json_jansson(fil_c1_t *c1, const char *buf, size_t len, const char *name, pm_error *err) {
    memset(c1, 0, sizeof *c1);
    pm_status st = read_jansson(c1, buf, len, name, err);
    if (st) fil_c1_free(c1);
    return st;
}
