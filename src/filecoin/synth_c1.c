/* synth_c1.c — see synth_c1.h. */
#include "filecoin/synth_c1.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/c1_json.h"
#include "filecoin/challenges.h"
#include "filecoin/graph.h"
#include "filecoin/labels.h"
#include "filecoin/merkle.h"
#include "filecoin/merkle_sha256.h"
#include "filecoin/poseidon.h"
#include "filecoin/replica_id.h"
#include "filecoin/sha256_fr.h"
#include "filecoin/sizes.h"
#include "filecoin/tree_c.h"

typedef struct {
    uint64_t node;
    int challenged;
    uint8_t (*rows)[32]; /* L labels */
} onode_t;

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static onode_t *find(onode_t *v, size_t n, uint64_t node) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t m = lo + (hi - lo) / 2;
        if (v[m].node < node)
            lo = m + 1;
        else
            hi = m;
    }
    return (lo < n && v[lo].node == node) ? &v[lo] : NULL;
}

static void chosen_label(uint8_t out[32], const uint8_t ticket[32], uint64_t node, unsigned layer) {
    static const char tag[] = "proofmill synthetic label";
    uint8_t n8[8], l4[4];
    for (int i = 0; i < 8; i++) n8[i] = (uint8_t)(node >> (8 * i));
    for (int i = 0; i < 4; i++) l4[i] = (uint8_t)(layer >> (8 * i));
    fil_bytes_t parts[4] = {{tag, sizeof tag - 1}, {ticket, 32}, {n8, 8}, {l4, 4}};
    fil_sha256_parts(out, parts, 4);
    fil_trim_fr32(out);
}

static pm_status nomem(pm_error *err) {
    return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "synth C1: out of memory");
}

static pm_status sprove(fil_c1_t *c1, fil_merkle_proof_t *p, const fil_sparse_tree_t *t, uint64_t x,
                        pm_error *err) {
    fil_path_elem_t *e = fil_arena_alloc(&c1->arena, sizeof *e * t->shape.nlevels);
    if (!e) return nomem(err);
    return fil_sparse_tree_prove(p, e, t, x, err);
}

static pm_status column(fil_c1_t *c1, fil_column_proof_t *cp, const onode_t *o, unsigned L,
                        const fil_sparse_tree_t *tc, pm_error *err) {
    cp->index = (uint32_t)o->node;
    cp->nrows = L;
    cp->rows = fil_arena_alloc(&c1->arena, 32 * L);
    if (!cp->rows) return nomem(err);
    memcpy(cp->rows, o->rows, 32 * L);
    return sprove(c1, &cp->inclusion, tc, o->node, err);
}

pm_status fil_synth_c1(fil_c1_t *c1, const fil_synth_params_t *p, pm_error *err) {
    memset(c1, 0, sizeof *c1);
    const fil_registered_proof_t *rp = fil_registered_proof(p->registered_proof);
    if (!rp || rp->feature != FIL_FEATURE_NONE)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "synth C1: registered proof %u is not an interactive PoRep", p->registered_proof);
    const fil_sector_info_t *si = fil_sector_info(rp->sector_size);
    unsigned L = si->layers, C = si->challenges_per_partition, P = si->partitions;
    uint64_t nodes = si->nodes;
    fil_tree_shape_t sd, scr;
    pm_status st;
    if ((st = fil_porep_tree_shapes(&sd, &scr, rp->sector_size, err))) return st;
    uint8_t porep_id[32];
    fil_porep_id(porep_id, rp->id);
    fil_graph_t g;
    if ((st = fil_graph_init(&g, nodes, porep_id, rp->api_version, err))) return st;

    c1->registered_proof = rp->id;
    c1->sector_size = rp->sector_size;
    c1->synthetic = 1;
    memcpy(c1->seed, p->seed, 32);
    memcpy(c1->ticket, p->ticket, 32);
    if ((st = fil_comm_d_zero(c1->comm_d, rp->sector_size, err))) return st;
    fil_replica_id(c1->replica_id, p->prover_id, p->sector_id, p->ticket, c1->comm_d, porep_id);

    size_t nch = (size_t)P * C;
    uint64_t *ch = malloc(sizeof *ch * nch);
    uint32_t (*par)[14] = malloc(sizeof *par * nch);
    uint64_t *all = malloc(sizeof *all * nch * 15);
    onode_t *on = calloc(nch * 15, sizeof *on);
    uint8_t (*rows)[32] = malloc(32 * L * nch * 15);
    fil_sparse_node_t *leaves = malloc(sizeof *leaves * nch * 15);
    fil_sparse_tree_t td, tc, tr;
    memset(&td, 0, sizeof td);
    memset(&tc, 0, sizeof tc);
    memset(&tr, 0, sizeof tr);
    if (!ch || !par || !all || !on || !rows || !leaves) {
        st = nomem(err);
        goto out;
    }
    for (unsigned k = 0; k < P; k++)
        fil_challenges_interactive(ch + (size_t)k * C, C, nodes, c1->replica_id, p->seed, k);
    size_t na = 0;
    for (size_t i = 0; i < nch; i++) {
        fil_graph_drg_parents(par[i], &g, ch[i]);
        fil_graph_exp_parents(par[i] + 6, &g, ch[i]);
        all[na++] = ch[i];
        for (int j = 0; j < 14; j++) all[na++] = par[i][j];
    }
    qsort(all, na, sizeof *all, cmp_u64);
    size_t no = 0;
    for (size_t i = 0; i < na; i++)
        if (!no || on[no - 1].node != all[i]) {
            on[no].node = all[i];
            on[no].rows = rows + (size_t)L * no;
            no++;
        }
    for (size_t i = 0; i < nch; i++) find(on, no, ch[i])->challenged = 1;
    for (size_t i = 0; i < no; i++)
        if (!on[i].challenged)
            for (unsigned l = 1; l <= L; l++) chosen_label(on[i].rows[l - 1], p->ticket, on[i].node, l);
    /* challenged labels, layer by layer, nodes in increasing order (DRG parents are smaller) */
    for (unsigned l = 1; l <= L; l++)
        for (size_t i = 0; i < no; i++) {
            if (!on[i].challenged) continue;
            uint32_t pp[14];
            fil_graph_drg_parents(pp, &g, on[i].node);
            fil_graph_exp_parents(pp + 6, &g, on[i].node);
            uint8_t d[6][32], e[8][32], x37[37][32];
            for (int j = 0; j < 6; j++) memcpy(d[j], find(on, no, pp[j])->rows[l - 1], 32);
            if (l > 1)
                for (int j = 0; j < 8; j++) memcpy(e[j], find(on, no, pp[6 + j])->rows[l - 2], 32);
            fil_label_expand_parents(x37, l, (const uint8_t(*)[32])d, l > 1 ? (const uint8_t(*)[32])e : NULL);
            fil_label_compute(on[i].rows[l - 1], c1->replica_id, l, on[i].node, (const uint8_t(*)[32])x37);
        }
    /* trees */
    uint8_t zero[32] = {0};
    if ((st = fil_sparse_tree_build(&td, &sd, NULL, 0, zero, err))) goto out;
    for (size_t i = 0; i < no; i++) {
        leaves[i].idx = on[i].node;
        fil_column_hash(leaves[i].v, (const uint8_t(*)[32])on[i].rows, L);
    }
    if ((st = fil_sparse_tree_build(&tc, &scr, leaves, no, zero, err))) goto out;
    size_t nr = 0;
    for (size_t i = 0; i < no; i++)
        if (on[i].challenged) {
            leaves[nr].idx = on[i].node;
            memcpy(leaves[nr].v, on[i].rows[L - 1], 32); /* key + data 0 */
            nr++;
        }
    if ((st = fil_sparse_tree_build(&tr, &scr, leaves, nr, zero, err))) goto out;
    uint8_t two[64];
    memcpy(two, fil_sparse_tree_root(&tc), 32);
    memcpy(two + 32, fil_sparse_tree_root(&tr), 32);
    fil_poseidon_hash_bytes(c1->comm_r, two, 2);
    if ((st = fil_c1_alloc_proofs(c1, P, C, err))) goto out;
    for (size_t i = 0; i < nch && !st; i++) {
        fil_vanilla_proof_t *v = &c1->proofs[i];
        const onode_t *oc = find(on, no, ch[i]);
        if ((st = sprove(c1, &v->comm_d, &td, ch[i], err)) || (st = sprove(c1, &v->comm_r_last, &tr, ch[i], err)) ||
            (st = column(c1, &v->c_x, oc, L, &tc, err)))
            break;
        v->ndrg = 6;
        v->nexp = 8;
        v->drg = fil_arena_alloc(&c1->arena, sizeof *v->drg * 6);
        v->exp = fil_arena_alloc(&c1->arena, sizeof *v->exp * 8);
        v->nlabeling = L;
        v->labeling = fil_arena_alloc(&c1->arena, sizeof *v->labeling * L);
        if (!v->drg || !v->exp || !v->labeling) {
            st = nomem(err);
            break;
        }
        for (int j = 0; j < 6 && !st; j++) st = column(c1, &v->drg[j], find(on, no, par[i][j]), L, &tc, err);
        for (int j = 0; j < 8 && !st; j++) st = column(c1, &v->exp[j], find(on, no, par[i][6 + j]), L, &tc, err);
        for (unsigned l = 1; l <= L + 1 && !st; l++) {
            unsigned layer = l <= L ? l : L;
            fil_labeling_proof_t *lp = l <= L ? &v->labeling[l - 1] : &v->encoding;
            uint8_t d[6][32], e[8][32];
            for (int j = 0; j < 6; j++) memcpy(d[j], v->drg[j].rows[layer - 1], 32);
            if (layer > 1)
                for (int j = 0; j < 8; j++) memcpy(e[j], v->exp[j].rows[layer - 2], 32);
            lp->nparents = 37;
            lp->parents = fil_arena_alloc(&c1->arena, 37 * 32);
            if (!lp->parents) {
                st = nomem(err);
                break;
            }
            fil_label_expand_parents(lp->parents, layer, (const uint8_t(*)[32])d,
                                     layer > 1 ? (const uint8_t(*)[32])e : NULL);
            lp->layer_index = layer;
            lp->node = ch[i];
        }
    }
out:
    free(ch);
    free(par);
    free(all);
    free(on);
    free(rows);
    free(leaves);
    fil_sparse_tree_free(&td);
    fil_sparse_tree_free(&tc);
    fil_sparse_tree_free(&tr);
    if (st) fil_c1_free(c1);
    return st;
}
