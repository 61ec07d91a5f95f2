/*
 * merkle.c — dense and sparse Filecoin Merkle trees (mixed arities), inclusion proofs, checks.
 * See merkle.h for the model; sources: rust-fil-proofs storage-proofs-core merkle/proof.rs
 * (SingleProof/SubProof/TopProof, InclusionPath::root), merkle/builders.rs, gadgets/por.rs (index
 * digits), filecoin-hashers sha256.rs / poseidon.rs (node hashes); POREP.md §1.2, §2.
 */
#include "filecoin/merkle.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/poseidon.h"
#include "filecoin/sha256_fr.h"
#include "util/parallel.h"

static unsigned ilog(uint64_t x, unsigned a) {
    unsigned k = 0;
    while (x > 1 && x % a == 0) {
        x /= a;
        k++;
    }
    return x == 1 ? k : 0;
}

pm_status fil_tree_shape_init(fil_tree_shape_t *s, uint64_t leaves, fil_hasher_t hasher,
                              unsigned base_arity, unsigned sub_arity, unsigned top_arity,
                              pm_error *err) {
    memset(s, 0, sizeof *s);
    if (base_arity != 2 && base_arity != 8)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "tree: base arity %u unsupported",
                            base_arity);
    if ((sub_arity != 0 && sub_arity != 2 && sub_arity != 4 && sub_arity != 8) ||
        (top_arity != 0 && top_arity != 2) || (top_arity && !sub_arity))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "tree: shape %u-%u-%u unsupported", base_arity, sub_arity, top_arity);
    if (hasher == FIL_HASHER_SHA256 && (base_arity != 2 || sub_arity))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "tree: SHA-256 trees are binary");
    if (hasher != FIL_HASHER_SHA256 && hasher != FIL_HASHER_POSEIDON)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "tree: unknown hasher %d", (int)hasher);
    uint64_t nbase_trees = (uint64_t)(sub_arity ? sub_arity : 1) * (top_arity ? top_arity : 1);
    if (leaves == 0 || leaves % nbase_trees)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "tree: %llu leaves do not split into %llu base trees",
                            (unsigned long long)leaves, (unsigned long long)nbase_trees);
    unsigned k = ilog(leaves / nbase_trees, base_arity);
    if (k == 0 || k + 2 > FIL_MERKLE_MAX_LEVELS)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "tree: %llu leaves per base tree is not a power (>= 1) of %u",
                            (unsigned long long)(leaves / nbase_trees), base_arity);
    s->hasher = hasher;
    s->leaves = leaves;
    s->nbase = k;
    for (unsigned i = 0; i < k; i++) s->level_arity[i] = base_arity;
    s->nlevels = k;
    if (sub_arity) {
        s->nsub = 1;
        s->level_arity[s->nlevels++] = sub_arity;
    }
    if (top_arity) {
        s->ntop = 1;
        s->level_arity[s->nlevels++] = top_arity;
    }
    s->kind = top_arity ? FIL_PROOF_TOP : sub_arity ? FIL_PROOF_SUB : FIL_PROOF_SINGLE;
    return PM_OK;
}

void fil_node_hash(uint8_t out[32], fil_hasher_t hasher, const uint8_t *in, unsigned arity) {
    if (hasher == FIL_HASHER_SHA256) {
        fil_sha256_node(out, in, in + 32);
        return;
    }
    fil_poseidon_hash_bytes(out, in, arity);
}

uint64_t fil_merkle_proof_leaf_index(const fil_merkle_proof_t *p) {
    uint64_t idx = 0, mul = 1;
    uint32_t n = p->nbase + p->nsub + p->ntop;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t a = (uint64_t)p->elems[k].nhashes + 1;
        if (p->elems[k].index >= a) return UINT64_MAX;
        if (mul > UINT64_MAX / a) return UINT64_MAX;
        idx += p->elems[k].index * mul;
        mul *= a;
    }
    return idx;
}

pm_status fil_merkle_proof_check(const fil_merkle_proof_t *p, const fil_tree_shape_t *s,
                                 uint64_t index, pm_error *err) {
    if (p->kind != s->kind)
        return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                            "proof kind %d, tree shape needs %d", (int)p->kind, (int)s->kind);
    if (p->nbase != s->nbase || p->nsub != s->nsub || p->ntop != s->ntop)
        return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                            "path has %u/%u/%u base/sub/top elements, tree needs %u/%u/%u",
                            p->nbase, p->nsub, p->ntop, s->nbase, s->nsub, s->ntop);
    uint8_t cur[32], buf[FIL_MERKLE_MAX_ARITY * 32];
    memcpy(cur, p->leaf, 32);
    uint64_t idx = 0, mul = 1;
    for (unsigned k = 0; k < s->nlevels; k++) {
        const fil_path_elem_t *e = &p->elems[k];
        unsigned a = s->level_arity[k];
        if (e->nhashes != a - 1)
            return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                                "path element %u: %u hashes, expected %u", k, e->nhashes, a - 1);
        if (e->index >= a)
            return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                                "path element %u: index %llu >= arity %u", k,
                                (unsigned long long)e->index, a);
        idx += e->index * mul;
        mul *= a;
        unsigned j = 0;
        for (unsigned c = 0; c < a; c++) {
            if (c == e->index)
                memcpy(buf + 32 * c, cur, 32);
            else
                memcpy(buf + 32 * c, e->hashes[j++], 32);
        }
        fil_node_hash(cur, s->hasher, buf, a);
    }
    if (index != UINT64_MAX && idx != index)
        return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                            "path indices spell node %llu, expected %llu",
                            (unsigned long long)idx, (unsigned long long)index);
    if (memcmp(cur, p->root, 32) != 0)
        return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                            "path does not hash to its root");
    return PM_OK;
}

/* ---------------------------------------------------------------- dense */

pm_status fil_tree_alloc(fil_tree_t *t, const fil_tree_shape_t *s, pm_error *err) {
    memset(t, 0, sizeof *t);
    t->shape = *s;
    uint64_t w = s->leaves;
    for (unsigned k = 0; k <= s->nlevels; k++) {
        t->width[k] = w;
        t->level[k] = malloc(w * 32);
        if (!t->level[k]) {
            fil_tree_free(t);
            return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET,
                                "tree: cannot allocate level %u (%llu nodes)", k,
                                (unsigned long long)w);
        }
        if (k < s->nlevels) w /= s->level_arity[k];
    }
    return PM_OK;
}

void fil_tree_build(fil_tree_t *t) {
    const fil_tree_shape_t *s = &t->shape;
    for (unsigned k = 0; k < s->nlevels; k++) {
        unsigned a = s->level_arity[k];
        const uint8_t *in = t->level[k];
        uint8_t *out = t->level[k + 1];
        int64_t w = (int64_t)t->width[k + 1];
        fil_hasher_t h = s->hasher;
        PM_OMP(parallel for schedule(static) if (w > 1024))
        for (int64_t j = 0; j < w; j++) fil_node_hash(out + 32 * j, h, in + 32 * a * j, a);
    }
}

const uint8_t *fil_tree_root(const fil_tree_t *t) { return t->level[t->shape.nlevels]; }

void fil_tree_free(fil_tree_t *t) {
    for (unsigned k = 0; k <= FIL_MERKLE_MAX_LEVELS; k++) free(t->level[k]);
    memset(t, 0, sizeof *t);
}

/* The inclusion path of leaf `index` in a tree of shape s whose node (level k, position i) is
 * node(t, k, i): shared by the dense, the sparse and the bucket tree. */
pm_status fil_tree_prove_nodes(fil_merkle_proof_t *p, fil_path_elem_t *elems, const fil_tree_shape_t *s,
                               const void *t, fil_tree_node_fn node, uint64_t index, pm_error *err) {
    if (index >= s->leaves)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "tree: leaf %llu out of range",
                            (unsigned long long)index);
    memset(p, 0, sizeof *p);
    p->kind = s->kind;
    p->nbase = s->nbase;
    p->nsub = s->nsub;
    p->ntop = s->ntop;
    p->elems = elems;
    memcpy(p->leaf, node(t, 0, index), 32);
    memcpy(p->root, node(t, s->nlevels, 0), 32);
    uint64_t i = index;
    for (unsigned k = 0; k < s->nlevels; k++) {
        unsigned a = s->level_arity[k];
        fil_path_elem_t *e = &elems[k];
        memset(e, 0, sizeof *e);
        e->nhashes = a - 1;
        e->index = i % a;
        uint64_t base = i - i % a;
        unsigned j = 0;
        for (unsigned c = 0; c < a; c++)
            if (c != e->index) memcpy(e->hashes[j++], node(t, k, base + c), 32);
        i /= a;
    }
    return PM_OK;
}

const uint8_t *fil_tree_node_dense(const void *tv, unsigned k, uint64_t i) {
    const fil_tree_t *t = tv;
    return t->level[k] + 32 * i;
}

pm_status fil_tree_prove(fil_merkle_proof_t *p, fil_path_elem_t *elems, const fil_tree_t *t,
                         uint64_t index, pm_error *err) {
    return fil_tree_prove_nodes(p, elems, &t->shape, t, fil_tree_node_dense, index, err);
}

/* ---------------------------------------------------------------- sparse */

static int cmp_node(const void *a, const void *b) {
    uint64_t x = ((const fil_sparse_node_t *)a)->idx, y = ((const fil_sparse_node_t *)b)->idx;
    return x < y ? -1 : x > y;
}

static const uint8_t *sparse_get(const fil_sparse_tree_t *t, unsigned k, uint64_t idx) {
    size_t lo = 0, hi = t->n[k];
    const fil_sparse_node_t *v = t->lv[k];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].idx < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < t->n[k] && v[lo].idx == idx) return v[lo].v;
    return t->defaults[k];
}

pm_status fil_sparse_tree_build(fil_sparse_tree_t *t, const fil_tree_shape_t *s,
                                const fil_sparse_node_t *leaves, size_t n,
                                const uint8_t default_leaf[32], pm_error *err) {
    memset(t, 0, sizeof *t);
    t->shape = *s;
    memcpy(t->defaults[0], default_leaf, 32);
    for (unsigned k = 0; k < s->nlevels; k++) {
        uint8_t buf[FIL_MERKLE_MAX_ARITY * 32];
        for (unsigned c = 0; c < s->level_arity[k]; c++) memcpy(buf + 32 * c, t->defaults[k], 32);
        fil_node_hash(t->defaults[k + 1], s->hasher, buf, s->level_arity[k]);
    }
    t->lv[0] = malloc((n ? n : 1) * sizeof *t->lv[0]);
    if (!t->lv[0]) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "sparse tree");
    if (n) memcpy(t->lv[0], leaves, n * sizeof *leaves);
    qsort(t->lv[0], n, sizeof *t->lv[0], cmp_node);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (t->lv[0][i].idx >= s->leaves) {
            fil_sparse_tree_free(t);
            return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "sparse tree: leaf %llu >= %llu",
                                (unsigned long long)leaves[i].idx, (unsigned long long)s->leaves);
        }
        if (m && t->lv[0][m - 1].idx == t->lv[0][i].idx) {
            if (memcmp(t->lv[0][m - 1].v, t->lv[0][i].v, 32) != 0) {
                uint64_t bad = t->lv[0][i].idx;
                fil_sparse_tree_free(t);
                return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                                    "sparse tree: leaf %llu set twice with different values",
                                    (unsigned long long)bad);
            }
            continue;
        }
        t->lv[0][m++] = t->lv[0][i];
    }
    t->n[0] = m;
    for (unsigned k = 0; k < s->nlevels; k++) {
        unsigned a = s->level_arity[k];
        t->lv[k + 1] = malloc((t->n[k] ? t->n[k] : 1) * sizeof *t->lv[0]);
        if (!t->lv[k + 1]) {
            fil_sparse_tree_free(t);
            return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "sparse tree");
        }
        size_t out = 0;
        for (size_t i = 0; i < t->n[k]; i++) {
            uint64_t parent = t->lv[k][i].idx / a;
            if (out && t->lv[k + 1][out - 1].idx == parent) continue;
            uint8_t buf[FIL_MERKLE_MAX_ARITY * 32];
            for (unsigned c = 0; c < a; c++) memcpy(buf + 32 * c, sparse_get(t, k, parent * a + c), 32);
            t->lv[k + 1][out].idx = parent;
            fil_node_hash(t->lv[k + 1][out].v, s->hasher, buf, a);
            out++;
        }
        t->n[k + 1] = out;
    }
    return PM_OK;
}

const uint8_t *fil_sparse_tree_root(const fil_sparse_tree_t *t) {
    return sparse_get(t, t->shape.nlevels, 0);
}

void fil_sparse_tree_free(fil_sparse_tree_t *t) {
    for (unsigned k = 0; k <= FIL_MERKLE_MAX_LEVELS; k++) free(t->lv[k]);
    memset(t, 0, sizeof *t);
}

const uint8_t *fil_tree_node_sparse(const void *tv, unsigned k, uint64_t i) {
    return sparse_get((const fil_sparse_tree_t *)tv, k, i);
}

pm_status fil_sparse_tree_prove(fil_merkle_proof_t *p, fil_path_elem_t *elems,
                                const fil_sparse_tree_t *t, uint64_t index, pm_error *err) {
    return fil_tree_prove_nodes(p, elems, &t->shape, t, fil_tree_node_sparse, index, err);
}
