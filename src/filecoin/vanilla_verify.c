/* vanilla_verify.c — see vanilla_verify.h (rust-fil-proofs stacked/vanilla/proof_scheme.rs,
 * params.rs Proof::verify and the column/labeling/encoding proofs' verify). */
#include "filecoin/vanilla_verify.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/fr.h"
#include "filecoin/c1_json.h"
#include "filecoin/challenges.h"
#include "filecoin/graph.h"
#include "filecoin/labels.h"
#include "filecoin/poseidon.h"
#include "filecoin/sizes.h"
#include "filecoin/tree_c.h"
#include "filecoin/tree_r.h"
#include "util/parallel.h"

typedef struct {
    const fil_c1_t *c1;
    fil_verify_failure_t *where;
    pm_error *err;
    uint32_t k, i;
    uint64_t c;
} vctx;

static pm_status fail(vctx *v, const char *field, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static pm_status fail(vctx *v, const char *field, const char *fmt, ...) {
    char m[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    if (v->where) {
        v->where->partition = v->k;
        v->where->challenge = v->i;
        v->where->node = v->c;
        snprintf(v->where->field, sizeof v->where->field, "%s", field);
    }
    if (v->k == UINT32_MAX)
        return pm_error_set(v->err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET, "%s: %s", field, m);
    return pm_error_set(v->err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET,
                        "partition %u, challenge %u (node %" PRIu64 "): %s: %s", v->k, v->i, v->c,
                        field, m);
}

static int canonical(const uint8_t b[32]) {
    fr_t t;
    return fr_from_le_bytes(&t, b) == 0;
}

/* All Poseidon-tree values canonical, then the path itself. */
static pm_status check_path(vctx *v, const char *field, const fil_merkle_proof_t *p,
                            const fil_tree_shape_t *s, uint64_t index) {
    if (s->hasher == FIL_HASHER_POSEIDON) {
        if (!canonical(p->leaf)) return fail(v, field, "leaf is not a canonical field element");
        if (!canonical(p->root)) return fail(v, field, "root is not a canonical field element");
        for (uint32_t k = 0; k < p->nbase + p->nsub + p->ntop; k++)
            for (uint32_t j = 0; j < p->elems[k].nhashes; j++)
                if (!canonical(p->elems[k].hashes[j]))
                    return fail(v, field, "path element %u hash %u is not a canonical field element", k, j);
    }
    pm_error e;
    if (fil_merkle_proof_check(p, s, index, &e)) return fail(v, field, "%s", e.msg);
    return PM_OK;
}

static pm_status check_column(vctx *v, const char *field, const fil_column_proof_t *cp,
                              const fil_tree_shape_t *s, uint64_t index, unsigned L,
                              const uint8_t comm_c[32]) {
    char f[200];
    if (cp->index != index)
        return fail(v, field, "column.index %u, the graph says %" PRIu64, cp->index, index);
    if (cp->nrows != L) return fail(v, field, "%u rows, expected %u", cp->nrows, L);
    for (unsigned l = 0; l < L; l++)
        if (!canonical(cp->rows[l])) {
            snprintf(f, sizeof f, "%s.column.rows[%u]", field, l);
            return fail(v, f, "not a canonical field element");
        }
    uint8_t h[32];
    fil_column_hash(h, (const uint8_t(*)[32])cp->rows, L);
    snprintf(f, sizeof f, "%s.inclusion_proof", field);
    if (memcmp(h, cp->inclusion.leaf, 32) != 0) return fail(v, f, "leaf is not the hash of the column rows");
    pm_status st = check_path(v, f, &cp->inclusion, s, index);
    if (st) return st;
    if (memcmp(cp->inclusion.root, comm_c, 32) != 0) return fail(v, f, "root is not comm_c");
    return PM_OK;
}

/* Every check of one challenge proof p (partition v->k, challenge v->i, node v->c). */
static pm_status verify_one(vctx *v, const fil_vanilla_proof_t *p, const fil_tree_shape_t *sd,
                            const fil_tree_shape_t *scr_, const fil_graph_t *gp, unsigned L,
                            const uint8_t *comm_c, const uint8_t *comm_r_last) {
    const fil_c1_t *c1 = v->c1;
    const fil_tree_shape_t scr = *scr_;
    uint64_t c = v->c;
    pm_status st;
    char f[200];
    /* tree D */
    if ((st = check_path(v, "comm_d_proofs", &p->comm_d, sd, c))) return st;
    if (memcmp(p->comm_d.root, c1->comm_d, 32) != 0) {
        return fail(v, "comm_d_proofs", "root is not comm_d");
    }
    /* tree R_last */
    if ((st = check_path(v, "comm_r_last_proof", &p->comm_r_last, &scr, c))) return st;
    if (memcmp(p->comm_r_last.root, comm_r_last, 32) != 0) {
        return fail(v, "comm_r_last_proof", "root differs from the first proof's comm_r_last");
    }
    /* columns */
    if ((st = check_column(v, "replica_column_proofs.c_x", &p->c_x, &scr, c, L, comm_c))) return st;
    uint8_t two[64], h[32];
    memcpy(two, comm_c, 32);
    memcpy(two + 32, comm_r_last, 32);
    fil_poseidon_hash_bytes(h, two, 2);
    if (memcmp(h, c1->comm_r, 32) != 0) {
        return fail(v, "comm_r", "not Poseidon(comm_c, comm_r_last) of the proof's roots");
    }
    uint32_t drg[6], exp[8];
    fil_graph_drg_parents(drg, gp, c);
    fil_graph_exp_parents(exp, gp, c);
    for (unsigned j = 0; j < 6; j++) {
        snprintf(f, sizeof f, "replica_column_proofs.drg_parents[%u]", j);
        if ((st = check_column(v, f, &p->drg[j], &scr, drg[j], L, comm_c))) return st;
    }
    for (unsigned j = 0; j < 8; j++) {
        snprintf(f, sizeof f, "replica_column_proofs.exp_parents[%u]", j);
        if ((st = check_column(v, f, &p->exp[j], &scr, exp[j], L, comm_c))) return st;
    }
    /* labels */
    for (unsigned l = 1; l <= L; l++) {
        const fil_labeling_proof_t *lp = &p->labeling[l - 1];
        snprintf(f, sizeof f, "labeling_proofs[%u]", l - 1);
        if (lp->layer_index != l) {
            return fail(v, f, "layer_index %u, expected %u", lp->layer_index, l);
        }
        if (lp->node != c) {
            return fail(v, f, "node %" PRIu64 " is not the challenge", lp->node);
        }
        uint8_t d[6][32], e[8][32], exp37[37][32], lab[32];
        for (int j = 0; j < 6; j++) memcpy(d[j], p->drg[j].rows[l - 1], 32);
        if (l > 1)
            for (int j = 0; j < 8; j++) memcpy(e[j], p->exp[j].rows[l - 2], 32);
        fil_label_expand_parents(exp37, l, (const uint8_t(*)[32])d, l > 1 ? (const uint8_t(*)[32])e : NULL);
        for (unsigned s = 0; s < 37; s++)
            if (memcmp(exp37[s], lp->parents[s], 32) != 0) {
                snprintf(f, sizeof f, "labeling_proofs[%u].parents[%u]", l - 1, s);
                return fail(v, f, "differs from the parent columns' labels");
            }
        fil_label_compute(lab, c1->replica_id, l, c, (const uint8_t(*)[32])lp->parents);
        if (memcmp(lab, p->c_x.rows[l - 1], 32) != 0) {
            snprintf(f, sizeof f, "replica_column_proofs.c_x.column.rows[%u]", l - 1);
            return fail(v, f, "label of layer %u is not the hash of its parents", l);
        }
    }
    /* encoding */
    const fil_labeling_proof_t *ep = &p->encoding;
    if (ep->layer_index != L || ep->node != c) {
        return fail(v, "encoding_proof", "layer_index %u / node %" PRIu64 ", expected %u / %" PRIu64,
                  ep->layer_index, ep->node, L, c);
    }
    for (unsigned s = 0; s < 37; s++)
        if (memcmp(ep->parents[s], p->labeling[L - 1].parents[s], 32) != 0) {
            snprintf(f, sizeof f, "encoding_proof.parents[%u]", s);
            return fail(v, f, "differs from the last layer's labeling parents");
        }
    uint8_t key[32], enc[32];
    fil_label_compute(key, c1->replica_id, L, c, (const uint8_t(*)[32])ep->parents);
    if (!canonical(p->comm_d.leaf)) {
        return fail(v, "comm_d_proofs", "data leaf is not a canonical field element");
    }
    fil_encode_node(enc, key, p->comm_d.leaf);
    if (memcmp(enc, p->comm_r_last.leaf, 32) != 0) {
        return fail(v, "encoding_proof", "key + data leaf is not the replica leaf");
    }
    return PM_OK;
}

pm_status fil_c1_verify(const fil_c1_t *c1, fil_verify_failure_t *where, pm_error *err) {
    vctx v0 = {c1, where, err, UINT32_MAX, UINT32_MAX, 0};
    vctx *vp = &v0;
    if (where) memset(where, 0, sizeof *where);
    const fil_registered_proof_t *rp = fil_registered_proof(c1->registered_proof);
    if (!rp) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "unknown registered proof %u", c1->registered_proof);
    if (rp->feature == FIL_FEATURE_SYNTHETIC_POREP)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "%s: synthetic-PoRep challenges are not derived here", rp->name);
    const fil_sector_info_t *si = fil_sector_info(rp->sector_size);
    fil_tree_shape_t sd, scr;
    pm_status st = fil_porep_tree_shapes(&sd, &scr, rp->sector_size, err);
    if (st) return st;
    unsigned L = si->layers;
    if (c1->partitions == 0 || c1->challenges == 0) return fail(vp, "vanilla_proofs", "no proofs");
    if (!canonical(c1->replica_id)) return fail(vp, "replica_id", "not a canonical field element");
    if (!canonical(c1->comm_r)) return fail(vp, "comm_r", "not a canonical field element");
    if (!canonical(c1->comm_d)) return fail(vp, "comm_d", "not a canonical field element");
    uint8_t porep_id[32];
    fil_porep_id(porep_id, rp->id);
    fil_graph_t g;
    if ((st = fil_graph_init(&g, si->nodes, porep_id, rp->api_version, err))) return st;
    const fil_vanilla_proof_t *first = &c1->proofs[0];
    const uint8_t *comm_c = first->c_x.inclusion.root, *comm_r_last = first->comm_r_last.root;
    size_t n = (size_t)c1->partitions * c1->challenges;
    uint64_t *ch = malloc(sizeof *ch * n);
    pm_error *errs = malloc(sizeof *errs * n);
    fil_verify_failure_t *ws = malloc(sizeof *ws * n);
    pm_status *sts = malloc(sizeof *sts * n);
    if (!ch || !errs || !ws || !sts) {
        free(ch);
        free(errs);
        free(ws);
        free(sts);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "verify: out of memory");
    }
    for (uint32_t k = 0; k < c1->partitions; k++) {
        if (rp->feature == FIL_FEATURE_NON_INTERACTIVE_POREP)
            fil_challenges_ni(ch + (size_t)k * c1->challenges, c1->challenges, si->nodes, c1->replica_id,
                              c1->comm_r, k);
        else
            fil_challenges_interactive(ch + (size_t)k * c1->challenges, c1->challenges, si->nodes,
                                       c1->replica_id, c1->seed, k);
    }
    /* Proofs are independent: check them in parallel; report the first failure in document order
     * (proofs after a known failure are skipped). */
    int64_t first_bad = (int64_t)n;
    PM_OMP(parallel for schedule(dynamic, 1))
    for (int64_t j = 0; j < (int64_t)n; j++) {
        int64_t fb;
        PM_OMP(atomic read)
        fb = first_bad;
        sts[j] = PM_OK;
        if (j > fb) continue;
        vctx v = {c1, &ws[j], &errs[j], (uint32_t)(j / c1->challenges), (uint32_t)(j % c1->challenges), ch[j]};
        sts[j] = verify_one(&v, &c1->proofs[j], &sd, &scr, &g, L, comm_c, comm_r_last);
        if (sts[j]) {
            PM_OMP(critical)
            if (j < first_bad) first_bad = j;
        }
    }
    st = PM_OK;
    if (first_bad < (int64_t)n) {
        st = sts[first_bad];
        if (err) *err = errs[first_bad];
        if (where) *where = ws[first_bad];
    }
    free(ch);
    free(errs);
    free(ws);
    free(sts);
    return st;
}
