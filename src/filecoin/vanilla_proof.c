/* vanilla_proof.c — C1 from a sealed sector; see vanilla_proof.h (rust-fil-proofs
 * stacked/vanilla/proof.rs prove_layers_generate, params.rs Proof). */
#include "filecoin/vanilla_proof.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/challenges.h"
#include "filecoin/labels.h"
#include "filecoin/seal.h"

/* ---- arena and the proof array ---- */

struct fil_arena_chunk {
    struct fil_arena_chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char mem[];
};

/* Under AddressSanitizer every block is a chunk of its own of exactly n bytes, so that a read past
 * a block (a reader trusting a count it did not check) hits ASan's redzone instead of the next
 * block of the same chunk. */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_EXACT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_EXACT 1
#endif
#endif
#ifndef ARENA_EXACT
#define ARENA_EXACT 0
#endif

void *fil_arena_alloc(fil_arena_t *a, size_t n) {
    if (n > SIZE_MAX - 64) return NULL;
    if (!ARENA_EXACT) n = (n + 15) & ~(size_t)15;
    fil_arena_chunk_t *c = a->head;
    if (ARENA_EXACT || !c || c->cap - c->used < n) {
        size_t cap = ARENA_EXACT || n > (1u << 20) ? n : (1u << 20);
        c = calloc(1, sizeof *c + cap);
        if (!c) return NULL;
        c->cap = cap;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->mem + c->used;
    c->used += n;
    a->total += n;
    return p;
}

void fil_arena_free(fil_arena_t *a) {
    fil_arena_chunk_t *c = a->head;
    while (c) {
        fil_arena_chunk_t *n = c->next;
        free(c);
        c = n;
    }
    a->head = NULL;
    a->total = 0;
}

pm_status fil_c1_alloc_proofs(fil_c1_t *c1, uint32_t partitions, uint32_t challenges,
                              pm_error *err) {
    size_t n = (size_t)partitions * challenges;
    c1->proofs = n ? fil_arena_alloc(&c1->arena, n * sizeof *c1->proofs) : NULL;
    if (n && !c1->proofs)
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "C1: out of memory");
    c1->partitions = partitions;
    c1->challenges = challenges;
    return PM_OK;
}

void fil_c1_free(fil_c1_t *c1) {
    fil_arena_free(&c1->arena);
    memset(c1, 0, sizeof *c1);
}

static pm_status nomem(pm_error *err) {
    return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "C1: out of memory");
}

static pm_status prove(fil_c1_t *c1, fil_merkle_proof_t *p, const fil_tree_t *t, uint64_t idx,
                       pm_error *err) {
    fil_path_elem_t *e = fil_arena_alloc(&c1->arena, sizeof *e * t->shape.nlevels);
    if (!e) return nomem(err);
    return fil_tree_prove(p, e, t, idx, err);
}

static pm_status column(fil_c1_t *c1, fil_column_proof_t *cp, const fil_seal_t *s, uint32_t x,
                        pm_error *err) {
    unsigned L = s->si->layers;
    uint64_t nodes = s->si->nodes;
    cp->index = x;
    cp->nrows = L;
    cp->rows = fil_arena_alloc(&c1->arena, 32 * L);
    if (!cp->rows) return nomem(err);
    for (unsigned l = 0; l < L; l++) memcpy(cp->rows[l], s->labels + 32 * ((uint64_t)l * nodes + x), 32);
    return prove(c1, &cp->inclusion, &s->tree_c, x, err);
}

static pm_status labeling(fil_c1_t *c1, fil_labeling_proof_t *lp, const fil_seal_t *s, unsigned layer,
                          uint64_t c, const uint32_t drg[6], const uint32_t exp[8], pm_error *err) {
    uint64_t nodes = s->si->nodes;
    uint8_t d[6][32], e[8][32];
    const uint8_t *cur = s->labels + 32 * (uint64_t)(layer - 1) * nodes;
    for (int i = 0; i < 6; i++) memcpy(d[i], cur + 32 * (uint64_t)drg[i], 32);
    if (layer > 1)
        for (int i = 0; i < 8; i++) memcpy(e[i], cur - 32 * nodes + 32 * (uint64_t)exp[i], 32);
    lp->nparents = 37;
    lp->parents = fil_arena_alloc(&c1->arena, 37 * 32);
    if (!lp->parents) return nomem(err);
    fil_label_expand_parents(lp->parents, layer, (const uint8_t(*)[32])d,
                             layer > 1 ? (const uint8_t(*)[32])e : NULL);
    lp->layer_index = layer;
    lp->node = c;
    return PM_OK;
}

pm_status fil_c1_from_seal(fil_c1_t *c1, const fil_seal_t *s, const uint8_t seed[32], pm_error *err) {
    memset(c1, 0, sizeof *c1);
    if (!s->done) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "C1: the sector is not sealed");
    const fil_sector_info_t *si = s->si;
    int ni = s->rp->feature == FIL_FEATURE_NON_INTERACTIVE_POREP;
    unsigned L = si->layers, C = ni ? si->ni_challenges_per_partition : si->challenges_per_partition;
    unsigned P = ni ? si->ni_partitions : si->partitions;
    pm_status st;
    c1->registered_proof = s->rp->id;
    c1->sector_size = si->sector_size;
    memcpy(c1->comm_r, s->comm_r, 32);
    memcpy(c1->comm_d, s->comm_d, 32);
    memcpy(c1->replica_id, s->replica_id, 32);
    memcpy(c1->seed, seed, 32);
    memcpy(c1->ticket, s->ticket, 32);
    if ((st = fil_c1_alloc_proofs(c1, P, C, err))) goto fail;
    uint64_t *ch = malloc(sizeof *ch * C);
    if (!ch) {
        st = nomem(err);
        goto fail;
    }
    for (unsigned k = 0; k < P && !st; k++) {
        if (ni)
            fil_challenges_ni(ch, C, si->nodes, s->replica_id, s->comm_r, k);
        else
            fil_challenges_interactive(ch, C, si->nodes, s->replica_id, seed, k);
        for (unsigned i = 0; i < C && !st; i++) {
            fil_vanilla_proof_t *v = fil_c1_proof(c1, k, i);
            uint64_t c = ch[i];
            uint32_t drg[6], exp[8];
            fil_graph_drg_parents(drg, &s->graph, c);
            fil_graph_exp_parents(exp, &s->graph, c);
            if ((st = prove(c1, &v->comm_d, &s->tree_d, c, err)) ||
                (st = prove(c1, &v->comm_r_last, &s->tree_r, c, err)) ||
                (st = column(c1, &v->c_x, s, (uint32_t)c, err)))
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
            for (int j = 0; j < 6 && !st; j++) st = column(c1, &v->drg[j], s, drg[j], err);
            for (int j = 0; j < 8 && !st; j++) st = column(c1, &v->exp[j], s, exp[j], err);
            for (unsigned l = 1; l <= L && !st; l++) st = labeling(c1, &v->labeling[l - 1], s, l, c, drg, exp, err);
            if (!st) st = labeling(c1, &v->encoding, s, L, c, drg, exp, err);
        }
    }
    free(ch);
    if (st) goto fail;
    return PM_OK;
fail:
    fil_c1_free(c1);
    return st;
}
