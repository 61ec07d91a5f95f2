/*
 * c1_shape.c — the checks both C1 readers share: the shape of every vanilla proof against its
 * registered proof (partitions, challenges, path lengths and arities, rows, parents),
 * registered-proof names, and the JSON path of an error. Format: c1_json.h.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "filecoin/c1_json_internal.h"
#include "filecoin/sizes.h"


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
pm_status fil_c1_check_shape(const fil_c1_t *c1, const char *name, const char *tag, pm_error *err) {
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

pm_status fil_c1_set_registered(fil_c1_t *c1, const char *s, const char *name, pm_error *err) {
    int id = registered_proof_by_name(s);
    if (id < 0)
        return pm_error_set(err, PM_ERR_FORMAT, name, PM_NO_OFFSET,
                            "registered_proof: unknown value \"%.80s\"", s);
    c1->registered_proof = (unsigned)id;
    c1->sector_size = fil_registered_proof((unsigned)id)->sector_size;
    return PM_OK;
}

void fil_c1_path_string(char *o, size_t cap, const jr_t *r) {
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

