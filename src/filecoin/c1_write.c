/*
 * c1_write.c — the C1 JSON writer (serde_json's compact form, keys in declaration order) and the
 * lotus-bench envelope around it. Format: c1_json.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/c1_json_internal.h"
#include "filecoin/sizes.h"
#include "util/base64.h"
#include "util/outfile.h"
#include "util/strbuf.h"


static char g_byte_txt[256][4];
static unsigned char g_byte_len[256];
static void byte_table_init(void) {
    if (g_byte_len[255]) return;
    for (int i = 0; i < 256; i++) g_byte_len[i] = (unsigned char)snprintf(g_byte_txt[i], 4, "%d", i);
}

static void sb_dom(pm_strbuf *b, const uint8_t d[32]) {
    char *o = pm_sb_reserve(b, 32 * 4 + 2);
    if (!o) return;
    *o++ = '[';
    for (int i = 0; i < 32; i++) {
        if (i) *o++ = ',';
        memcpy(o, g_byte_txt[d[i]], 4);
        o += g_byte_len[d[i]];
    }
    *o++ = ']';
    b->n = (size_t)(o - b->p);
    b->p[b->n] = 0;
}

static void w_path(pm_strbuf *b, const fil_path_elem_t *e, uint32_t n) {
    PM_SB_LIT(b, "{\"path\":[");
    for (uint32_t k = 0; k < n; k++) {
        if (k) PM_SB_LIT(b, ",");
        PM_SB_LIT(b, "{\"hashes\":[");
        for (uint32_t j = 0; j < e[k].nhashes; j++) {
            if (j) PM_SB_LIT(b, ",");
            sb_dom(b, e[k].hashes[j]);
        }
        PM_SB_LIT(b, "],\"index\":");
        pm_sb_u64(b, e[k].index);
        PM_SB_LIT(b, "}");
    }
    PM_SB_LIT(b, "]}");
}

static void w_mp(pm_strbuf *b, const fil_merkle_proof_t *p) {
    if (p->kind == FIL_PROOF_SINGLE) {
        PM_SB_LIT(b, "{\"data\":{\"Single\":{\"root\":");
        sb_dom(b, p->root);
        PM_SB_LIT(b, ",\"leaf\":");
        sb_dom(b, p->leaf);
        PM_SB_LIT(b, ",\"path\":");
        w_path(b, p->elems, p->nbase);
        PM_SB_LIT(b, "}}}");
        return;
    }
    if (p->kind == FIL_PROOF_SUB)
        PM_SB_LIT(b, "{\"data\":{\"Sub\":{\"base_proof\":");
    else
        PM_SB_LIT(b, "{\"data\":{\"Top\":{\"base_proof\":");
    w_path(b, p->elems, p->nbase);
    PM_SB_LIT(b, ",\"sub_proof\":");
    w_path(b, p->elems + p->nbase, p->nsub);
    if (p->kind == FIL_PROOF_TOP) {
        PM_SB_LIT(b, ",\"top_proof\":");
        w_path(b, p->elems + p->nbase + p->nsub, p->ntop);
    }
    PM_SB_LIT(b, ",\"root\":");
    sb_dom(b, p->root);
    PM_SB_LIT(b, ",\"leaf\":");
    sb_dom(b, p->leaf);
    PM_SB_LIT(b, "}}}");
}

static void w_col(pm_strbuf *b, const fil_column_proof_t *c) {
    PM_SB_LIT(b, "{\"column\":{\"index\":");
    pm_sb_u64(b, c->index);
    PM_SB_LIT(b, ",\"rows\":[");
    for (uint32_t r = 0; r < c->nrows; r++) {
        if (r) PM_SB_LIT(b, ",");
        sb_dom(b, c->rows[r]);
    }
    PM_SB_LIT(b, "],\"_h\":null},\"inclusion_proof\":");
    w_mp(b, &c->inclusion);
    PM_SB_LIT(b, "}");
}

static void w_lp(pm_strbuf *b, const fil_labeling_proof_t *l) {
    PM_SB_LIT(b, "{\"parents\":[");
    for (uint32_t i = 0; i < l->nparents; i++) {
        if (i) PM_SB_LIT(b, ",");
        sb_dom(b, l->parents[i]);
    }
    PM_SB_LIT(b, "],\"layer_index\":");
    pm_sb_u64(b, l->layer_index);
    PM_SB_LIT(b, ",\"node\":");
    pm_sb_u64(b, l->node);
    PM_SB_LIT(b, "}");
}

static void w_proof(pm_strbuf *b, const fil_vanilla_proof_t *v) {
    PM_SB_LIT(b, "{\"comm_d_proofs\":");
    w_mp(b, &v->comm_d);
    PM_SB_LIT(b, ",\"comm_r_last_proof\":");
    w_mp(b, &v->comm_r_last);
    PM_SB_LIT(b, ",\"replica_column_proofs\":{\"c_x\":");
    w_col(b, &v->c_x);
    PM_SB_LIT(b, ",\"drg_parents\":[");
    for (uint32_t i = 0; i < v->ndrg; i++) {
        if (i) PM_SB_LIT(b, ",");
        w_col(b, &v->drg[i]);
    }
    PM_SB_LIT(b, "],\"exp_parents\":[");
    for (uint32_t i = 0; i < v->nexp; i++) {
        if (i) PM_SB_LIT(b, ",");
        w_col(b, &v->exp[i]);
    }
    PM_SB_LIT(b, "]},\"labeling_proofs\":[");
    for (uint32_t i = 0; i < v->nlabeling; i++) {
        if (i) PM_SB_LIT(b, ",");
        w_lp(b, &v->labeling[i]);
    }
    PM_SB_LIT(b, "],\"encoding_proof\":");
    w_lp(b, &v->encoding);
    PM_SB_LIT(b, "}");
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
    pm_strbuf b = {0};
    pm_sb_grow(&b, (size_t)c1->partitions * c1->challenges * 300000u);
    PM_SB_LIT(&b, "{\"registered_proof\":\"");
    pm_sb_put(&b, rp->name);
    PM_SB_LIT(&b, "\",\"vanilla_proofs\":{\"StackedDrg");
    pm_sb_put(&b, sn);
    PM_SB_LIT(&b, "V1\":[");
    for (uint32_t k = 0; k < c1->partitions; k++) {
        if (k) PM_SB_LIT(&b, ",");
        PM_SB_LIT(&b, "[");
        for (uint32_t i = 0; i < c1->challenges; i++) {
            if (i) PM_SB_LIT(&b, ",");
            w_proof(&b, &c1->proofs[(size_t)k * c1->challenges + i]);
        }
        PM_SB_LIT(&b, "]");
    }
    PM_SB_LIT(&b, "]},\"comm_r\":");
    sb_dom(&b, c1->comm_r);
    PM_SB_LIT(&b, ",\"comm_d\":");
    sb_dom(&b, c1->comm_d);
    PM_SB_LIT(&b, ",\"replica_id\":");
    sb_dom(&b, c1->replica_id);
    PM_SB_LIT(&b, ",\"seed\":");
    sb_dom(&b, c1->seed);
    PM_SB_LIT(&b, ",\"ticket\":");
    sb_dom(&b, c1->ticket);
    if (c1->synthetic) PM_SB_LIT(&b, ",\"" SYNTH_KEY "\":\"" SYNTH_TEXT "\"");
    PM_SB_LIT(&b, "}");
    size_t n = b.n;
    char *text = pm_sb_take(&b);
    if (!text) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "C1 JSON: out of memory");
    *out = text;
    *len = n;
    return PM_OK;
}

pm_status fil_c1_write_json_file(const char *path, const fil_c1_t *c1, pm_error *err) {
    char *j;
    size_t n = 0;
    pm_status st = fil_c1_to_json(&j, &n, c1, err);
    if (st) return st;
    st = pm_write_file(path, j, n, err);
    free(j);
    return st;
}

pm_status fil_c1_write_envelope_file(const char *path, const fil_c1_t *c1, uint64_t sector_num,
                                     pm_error *err) {
    char *j;
    size_t n = 0;
    pm_status st = fil_c1_to_json(&j, &n, c1, err);
    if (st) return st;
    size_t b64len = pm_base64_encoded_len(n);
    char *env = malloc(b64len + 128);
    if (!env) {
        free(j);
        return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "envelope: out of memory");
    }
    int h = snprintf(env, 64, "{\"SectorNum\":%" PRIu64 ",\"Phase1Out\":\"", sector_num);
    size_t o = (size_t)h + pm_base64_encode(env + h, (const uint8_t *)j, n);
    o += (size_t)snprintf(env + o, 64, "\",\"SectorSize\":%" PRIu64 "}", c1->sector_size);
    free(j);
    st = pm_write_file(path, env, o, err);
    free(env);
    return st;
}

