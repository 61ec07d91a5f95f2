/* seal.c — see seal.h (rust-fil-proofs stacked/vanilla/proof.rs replicate_phase1/2). */
#include "filecoin/seal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "filecoin/labels.h"
#include "filecoin/poseidon.h"
#include "filecoin/replica_id.h"
#include "filecoin/tree_c.h"
#include "filecoin/tree_r.h"
#include "util/progress.h"
#include "util/clock.h"

void fil_fr32_pad(uint8_t *out, const uint8_t *in, size_t len) {
    for (size_t c = 0; c * 127 < len; c++) {
        uint8_t chunk[128] = {0};
        size_t n = len - c * 127 < 127 ? len - c * 127 : 127;
        memcpy(chunk, in + c * 127, n);
        uint8_t *o = out + c * 128;
        for (unsigned q = 0; q < 4; q++) {
            unsigned start = 254 * q; /* first input bit of this node */
            for (unsigned j = 0; j < 32; j++) {
                unsigned bit = start + 8 * j, byte = bit / 8, sh = bit % 8;
                unsigned v = chunk[byte] >> sh;
                if (sh && byte + 1 < 128) v |= (unsigned)chunk[byte + 1] << (8 - sh);
                o[32 * q + j] = (uint8_t)v;
            }
            o[32 * q + 31] &= 0x3F;
        }
    }
}

void fil_seal_free(fil_seal_t *s) {
    fil_tree_free(&s->tree_d);
    fil_tree_free(&s->tree_c);
    fil_tree_free(&s->tree_r);
    free(s->labels);
    memset(s, 0, sizeof *s);
}

pm_status fil_seal_run(fil_seal_t *s, const fil_seal_params_t *p, pm_error *err) {
    memset(s, 0, sizeof *s);
    pm_status st;
    s->rp = fil_registered_proof(p->registered_proof);
    if (!s->rp)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "seal: unknown registered proof %u",
                            p->registered_proof);
    if (s->rp->feature == FIL_FEATURE_SYNTHETIC_POREP)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "seal: %s: synthetic PoRep (pre-generated synthetic proofs) is not supported",
                            s->rp->name);
    s->si = fil_sector_info(s->rp->sector_size);
    uint64_t nodes = s->si->nodes;
    fil_porep_id(s->porep_id, s->rp->id);
    memcpy(s->prover_id, p->prover_id, 32);
    memcpy(s->ticket, p->ticket, 32);
    s->sector_id = p->sector_id;
    if ((st = fil_porep_tree_shapes(&s->shape_d, &s->shape_cr, s->si->sector_size, err))) return st;
    if ((st = fil_graph_init(&s->graph, nodes, s->porep_id, s->rp->api_version, err))) return st;

    double t0 = pm_now_s();
    pm_progress_stage("tree D (SHA-256)", 0);
    if ((st = fil_tree_alloc(&s->tree_d, &s->shape_d, err))) goto fail;
    if (p->data) {
        for (uint64_t v = 0; v < nodes; v++) {
            fr_t tmp;
            if (fr_from_le_bytes(&tmp, p->data + 32 * v)) {
                st = pm_error_set(err, PM_ERR_ENCODING, "", 32 * v,
                                  "seal: data node %llu is not a canonical field element (not fr32-padded?)",
                                  (unsigned long long)v);
                goto fail;
            }
        }
        memcpy(s->tree_d.level[0], p->data, nodes * 32);
    } else {
        memset(s->tree_d.level[0], 0, nodes * 32);
    }
    fil_tree_build(&s->tree_d);
    memcpy(s->comm_d, fil_tree_root(&s->tree_d), 32);
    s->sec_tree_d = pm_now_s() - t0;

    fil_replica_id(s->replica_id, s->prover_id, s->sector_id, s->ticket, s->comm_d, s->porep_id);

    t0 = pm_now_s();
    unsigned L = s->si->layers;
    s->labels = malloc((size_t)L * nodes * 32);
    if (!s->labels) {
        st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "seal: labels (%u layers)", L);
        goto fail;
    }
    pm_progress_stage("labels (layers)", L);
    for (unsigned l = 1; l <= L; l++) {
        uint8_t *out = s->labels + (size_t)(l - 1) * nodes * 32;
        const uint8_t *prev = l > 1 ? out - nodes * 32 : NULL;
        if ((st = fil_label_layer(out, prev, l, s->replica_id, &s->graph, err))) goto fail;
        pm_progress_add(1);
    }
    s->sec_labels = pm_now_s() - t0;

    t0 = pm_now_s();
    pm_progress_stage("tree C (Poseidon columns)", 0);
    if ((st = fil_tree_c_build(&s->tree_c, &s->shape_cr, s->labels, L, err))) goto fail;
    memcpy(s->comm_c, fil_tree_root(&s->tree_c), 32);
    s->sec_tree_c = pm_now_s() - t0;

    t0 = pm_now_s();
    pm_progress_stage("tree R_last (Poseidon)", 0);
    const uint8_t *key = s->labels + (size_t)(L - 1) * nodes * 32;
    if ((st = fil_tree_r_build(&s->tree_r, &s->shape_cr, key, s->tree_d.level[0], err))) goto fail;
    memcpy(s->comm_r_last, fil_tree_root(&s->tree_r), 32);
    s->sec_tree_r = pm_now_s() - t0;

    uint8_t two[64];
    memcpy(two, s->comm_c, 32);
    memcpy(two + 32, s->comm_r_last, 32);
    fil_poseidon_hash_bytes(s->comm_r, two, 2);
    s->done = 1;
    return PM_OK;
fail:
    fil_seal_free(s);
    return st;
}
