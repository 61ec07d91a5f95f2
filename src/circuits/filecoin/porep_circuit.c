/*
 * porep_circuit.c — one partition of the StackedDRG circuit (porep_circuit.h), in rust-fil-proofs'
 * allocation and constraint order (POREP.md §6.5–6.6).
 */
#include "circuits/filecoin/porep_circuit.h"

#include <stdlib.h>
#include <string.h>

#include "circuits/gadgets.h"
#include "filecoin/sha256_fr.h"
#include "filecoin/sizes.h"

static const char *const gadget_names[PM_POREP_G_COUNT] = {
    "global", "comm_d_inclusion", "parent_columns", "parent_inclusions", "challenge",
    "label_parent_bits", "label_sha256", "encode", "comm_r_last_inclusion", "c_x_column"};

const char *pm_porep_gadget_name(unsigned g) { return g < PM_POREP_G_COUNT ? gadget_names[g] : "?"; }

static unsigned ilog2(uint64_t x) {
    unsigned k = 0;
    while ((1ull << k) < x) k++;
    return k;
}

pm_status pm_porep_shape_custom(pm_porep_shape *s, uint64_t nodes, unsigned layers,
                                unsigned challenges, unsigned base, unsigned sub, unsigned top,
                                pm_error *err) {
    memset(s, 0, sizeof *s);
    uint64_t ntrees = (uint64_t)(sub ? sub : 1) * (top ? top : 1);
    if (!nodes || (nodes & (nodes - 1)) || (base != 2 && base != 4 && base != 8) || (top && !sub) ||
        nodes % ntrees || layers < 1 || layers > FIL_POSEIDON_MAX_ARITY || !challenges)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "unsupported circuit shape");
    uint64_t per = nodes / ntrees;
    unsigned lb = ilog2(base), lp = ilog2(per);
    if (lp == 0 || lp % lb)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "%llu nodes per base tree is not a power of %u",
                            (unsigned long long)per, base);
    s->nodes = nodes;
    s->layers = layers;
    s->challenges = challenges;
    s->d_levels = ilog2(nodes);
    for (unsigned k = 0; k < lp / lb; k++) s->cr_arity[s->cr_levels++] = base;
    if (sub) s->cr_arity[s->cr_levels++] = sub;
    if (top) s->cr_arity[s->cr_levels++] = top;
    return PM_OK;
}

pm_status pm_porep_shape_for_size(pm_porep_shape *s, uint64_t sector_size, pm_error *err) {
    const fil_sector_info_t *si = fil_sector_info(sector_size);
    if (!si)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "unsupported sector size %llu",
                            (unsigned long long)sector_size);
    return pm_porep_shape_custom(s, si->nodes, si->layers, si->challenges_per_partition, si->base_arity,
                                 si->sub_arity, si->top_arity, err);
}

/* ---- witness of one challenge ---- */
typedef struct {
    uint32_t index[PM_POREP_MAX_LEVELS];
    fr_t *sib; /* Σ (arity-1) */
} path_w;

typedef struct {
    const pm_porep_shape *s;
    const fil_c1_t *c1;
    uint32_t partition, ch;
    pm_error *err;
} ctx_t;

static pm_status dom(fr_t *out, const uint8_t in[32], const ctx_t *c, const char *field) {
    if (fil_domain_to_fr(out, in))
        return pm_error_set(c->err, PM_ERR_ENCODING, "c1", PM_NO_OFFSET,
                            "partition %u challenge %u: %s is not a canonical Fr (>= r)", c->partition,
                            c->ch, field);
    return PM_OK;
}

static pm_status path_read(path_w *w, const fil_merkle_proof_t *p, const unsigned *arity, unsigned nlevels,
                           const ctx_t *c, const char *field) {
    unsigned n = p->nbase + p->nsub + p->ntop;
    if (n != nlevels)
        return pm_error_set(c->err, PM_ERR_MISMATCH, "c1", PM_NO_OFFSET,
                            "partition %u challenge %u: %s has %u levels, circuit has %u", c->partition,
                            c->ch, field, n, nlevels);
    size_t off = 0;
    for (unsigned l = 0; l < n; l++) {
        const fil_path_elem_t *e = &p->elems[l];
        if (e->nhashes + 1 != arity[l] || e->index >= arity[l])
            return pm_error_set(c->err, PM_ERR_MISMATCH, "c1", PM_NO_OFFSET,
                                "partition %u challenge %u: %s level %u: arity %u index %llu, circuit arity %u",
                                c->partition, c->ch, field, l, e->nhashes + 1,
                                (unsigned long long)e->index, arity[l]);
        w->index[l] = (uint32_t)e->index;
        for (unsigned k = 0; k < e->nhashes; k++) {
            pm_status st = dom(&w->sib[off + k], e->hashes[k], c, field);
            if (st) return st;
        }
        off += e->nhashes;
    }
    return PM_OK;
}

static size_t sib_count(const unsigned *arity, unsigned n) {
    size_t k = 0;
    for (unsigned l = 0; l < n; l++) k += arity[l] - 1;
    return k;
}

/* ---- synthesis ---- */
typedef struct {
    uint64_t row;          /* constraint to find */
    int found;
    unsigned gadget, challenge;
} locate_t;

typedef struct {
    pm_cs *cs;
    pm_porep_stats *st;
    uint64_t c0, a0;
    locate_t *loc;
    unsigned ch;
} meter;

static void m_begin(meter *m) {
    m->c0 = m->cs->n_constraints;
    m->a0 = m->cs->n_aux;
}
static void m_end(meter *m, unsigned g) {
    if (m->loc && !m->loc->found && m->loc->row >= m->c0 && m->loc->row < m->cs->n_constraints) {
        m->loc->found = 1;
        m->loc->gadget = g;
        m->loc->challenge = g == PM_POREP_G_GLOBAL ? UINT32_MAX : m->ch;
    }
    if (m->st) {
        m->st->constraints[g] += m->cs->n_constraints - m->c0;
        m->st->aux[g] += m->cs->n_aux - m->a0;
    }
    m_begin(m);
}

static pm_var alloc_dom(pm_cs *cs, const uint8_t *d, const ctx_t *c, const char *field, pm_status *st) {
    fr_t v = {{0}};
    if (d && !*st) *st = dom(&v, d, c, field);
    return pm_cs_alloc(cs, &v);
}

static pm_status synth(pm_cs *cs, const pm_porep_shape *s, const fil_c1_t *c1, uint32_t partition,
                       pm_porep_stats *stats, locate_t *loc, pm_error *err) {
    if (stats) memset(stats, 0, sizeof *stats);
    const unsigned L = s->layers;
    const fil_poseidon_t *pc = fil_poseidon_constants(L);
    const fil_poseidon_t *p2 = fil_poseidon_constants(2);
    if (!pc || !p2) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "Poseidon constants");
    if (c1) {
        if (partition >= c1->partitions)
            return pm_error_set(err, PM_ERR_ARG, "c1", PM_NO_OFFSET, "partition %u of %u", partition,
                                c1->partitions);
        if (c1->challenges != s->challenges)
            return pm_error_set(err, PM_ERR_MISMATCH, "c1", PM_NO_OFFSET,
                                "C1 has %u challenges per partition, circuit %u", c1->challenges,
                                s->challenges);
    }
    ctx_t cx = {s, c1, partition, 0, err};
    pm_status st = PM_OK;
    meter m = {cs, stats, 0, 0, loc, 0};
    m_begin(&m);

    unsigned d_ar[PM_POREP_MAX_LEVELS];
    for (unsigned l = 0; l < s->d_levels; l++) d_ar[l] = 2;
    size_t d_sibs = s->d_levels, cr_sibs = sib_count(s->cr_arity, s->cr_levels);
    /* scratch: tree D path, 16 tree C/R paths, 15 columns of L rows */
    fr_t *scratch = calloc(d_sibs + 16 * cr_sibs + 15 * (size_t)L, sizeof(fr_t));
    if (!scratch) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis scratch");
    path_w pw[17];
    memset(pw, 0, sizeof pw);
    pw[0].sib = scratch;
    for (int k = 1; k < 17; k++) pw[k].sib = scratch + d_sibs + (size_t)(k - 1) * cr_sibs;
    fr_t *rows = scratch + d_sibs + 16 * cr_sibs;

    /* ---- global part ---- */
    const fil_vanilla_proof_t *first = c1 ? &c1->proofs[(size_t)partition * c1->challenges] : NULL;
    pm_var replica_id = alloc_dom(cs, c1 ? c1->replica_id : NULL, &cx, "replica_id", &st);
    pm_num_inputize(cs, replica_id);
    pm_bool rbits255[255], R[256];
    pm_num_to_bits_le(rbits255, cs, replica_id);
    pm_reverse_bit_numbering_255(R, rbits255);
    pm_var comm_d = alloc_dom(cs, c1 ? c1->comm_d : NULL, &cx, "comm_d", &st);
    pm_num_inputize(cs, comm_d);
    pm_var comm_r = alloc_dom(cs, c1 ? c1->comm_r : NULL, &cx, "comm_r", &st);
    pm_num_inputize(cs, comm_r);
    pm_var comm_r_last = alloc_dom(cs, first ? first->comm_r_last.root : NULL, &cx, "comm_r_last", &st);
    pm_var comm_c = alloc_dom(cs, first ? first->c_x.inclusion.root : NULL, &cx, "comm_c", &st);
    {
        pm_var in2[2] = {comm_c, comm_r_last};
        pm_var h = pm_poseidon(cs, p2, in2);
        pm_enforce_equal(cs, comm_r, h);
    }
    m_end(&m, PM_POREP_G_GLOBAL);

    pm_bool *bits = malloc(sizeof(pm_bool) * (512 + 37 * 256));
    pm_bool(*pbits)[256] = malloc(sizeof(pm_bool[256]) * 14);
    pm_var *labels = malloc(sizeof(pm_var) * L);
    pm_var(*cols)[FIL_POSEIDON_MAX_ARITY] = malloc(sizeof(pm_var[FIL_POSEIDON_MAX_ARITY]) * 14);
    if (!bits || !pbits || !labels || !cols) {
        st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis scratch");
        goto done;
    }

    for (unsigned i = 0; i < s->challenges && !st; i++) {
        cx.ch = i;
        m.ch = i;
        const fil_vanilla_proof_t *vp = c1 ? &c1->proofs[(size_t)partition * c1->challenges + i] : NULL;
        if (vp && (vp->ndrg != 6 || vp->nexp != 8 || vp->nlabeling < 1)) {
            st = pm_error_set(err, PM_ERR_MISMATCH, "c1", PM_NO_OFFSET,
                              "partition %u challenge %u: %u DRG / %u expander column proofs, %u labeling proofs",
                              partition, i, vp->ndrg, vp->nexp, vp->nlabeling);
            break;
        }
        /* 1-2: data leaf and tree D inclusion */
        if (vp && !st) st = path_read(&pw[0], &vp->comm_d, d_ar, s->d_levels, &cx, "comm_d_proofs");
        pm_var leaf = alloc_dom(cs, vp ? vp->comm_d.leaf : NULL, &cx, "comm_d_proofs.leaf", &st);
        pm_por_path pd = {s->d_levels, d_ar, vp ? pw[0].index : NULL, vp ? pw[0].sib : NULL};
        pm_por_inclusion(cs, PM_POR_SHA256, leaf, comm_d, &pd);
        m_end(&m, PM_POREP_G_COMM_D);

        /* 3-4: parent columns, hash, tree C inclusion */
        for (unsigned p = 0; p < 14 && !st; p++) {
            const fil_column_proof_t *cp = vp ? (p < 6 ? &vp->drg[p] : &vp->exp[p - 6]) : NULL;
            const char *fname = p < 6 ? "drg_parents" : "exp_parents";
            if (cp && cp->nrows != L) {
                st = pm_error_set(err, PM_ERR_MISMATCH, "c1", PM_NO_OFFSET,
                                  "partition %u challenge %u: %s[%u] has %u rows, circuit %u layers",
                                  partition, i, fname, p < 6 ? p : p - 6, cp->nrows, L);
                break;
            }
            for (unsigned l = 0; l < L; l++) cols[p][l] = alloc_dom(cs, cp ? cp->rows[l] : NULL, &cx, fname, &st);
            pm_var h = pm_poseidon(cs, pc, cols[p]);
            m_end(&m, PM_POREP_G_PARENT_COLS);
            if (cp && !st) st = path_read(&pw[1 + p], &cp->inclusion, s->cr_arity, s->cr_levels, &cx, fname);
            pm_por_path pp = {s->cr_levels, s->cr_arity, cp ? pw[1 + p].index : NULL, cp ? pw[1 + p].sib : NULL};
            pm_por_inclusion(cs, PM_POR_POSEIDON, h, comm_c, &pp);
            m_end(&m, PM_POREP_G_PARENT_INCL);
        }
        if (st) break;

        /* 5: challenge UInt64, packed into one input */
        uint64_t chv = vp ? vp->labeling[0].node : 0;
        pm_bool cbits[64];
        for (unsigned k = 0; k < 64; k++) cbits[k] = pm_bit_alloc(cs, (int)((chv >> k) & 1));
        pm_pack_into_inputs(cs, cbits, 64);
        m_end(&m, PM_POREP_G_CHALLENGE);

        /* 6: labels of every layer */
        for (unsigned layer = 1; layer <= L; layer++) {
            unsigned np = 0;
            for (unsigned p = 0; p < 6; p++, np++) {
                pm_bool b255[255];
                pm_num_to_bits_le(b255, cs, cols[p][layer - 1]);
                pm_reverse_bit_numbering_255(pbits[np], b255);
            }
            if (layer > 1)
                for (unsigned p = 6; p < 14; p++, np++) {
                    pm_bool b255[255];
                    pm_num_to_bits_le(b255, cs, cols[p][layer - 2]);
                    pm_reverse_bit_numbering_255(pbits[np], b255);
                }
            m_end(&m, PM_POREP_G_LABEL_BITS);
            /* message: R ‖ layer (u32 BE, constant) ‖ challenge (u64 BE) ‖ 160 zero bits ‖ 37 parents */
            size_t n = 0;
            memcpy(bits, R, sizeof R);
            n = 256;
            for (int k = 31; k >= 0; k--) bits[n++] = pm_bool_const((int)((layer >> k) & 1));
            for (int k = 63; k >= 0; k--) bits[n++] = cbits[k];
            while (n < 512) bits[n++] = pm_bool_const(0);
            for (unsigned slot = 0; slot < 37; slot++) {
                unsigned src = slot % np; /* layer 1: 6 × 6 + p0; else 14 + 14 + first 9 */
                memcpy(bits + n, pbits[src], sizeof pbits[src]);
                n += 256;
            }
            pm_bool digest[256], le[256];
            pm_sha256(digest, cs, bits, n);
            for (unsigned byte = 0; byte < 32; byte++)
                for (unsigned k = 0; k < 8; k++) le[8 * byte + k] = digest[8 * byte + 7 - k];
            labels[layer - 1] = pm_pack_bits(cs, le, 254);
            m_end(&m, PM_POREP_G_LABEL_SHA);
        }

        /* 7-8: encode and tree R_last inclusion */
        pm_var enc = pm_num_add(cs, labels[L - 1], leaf);
        m_end(&m, PM_POREP_G_ENCODE);
        if (vp && !st) st = path_read(&pw[15], &vp->comm_r_last, s->cr_arity, s->cr_levels, &cx, "comm_r_last_proof");
        pm_por_path pr = {s->cr_levels, s->cr_arity, vp ? pw[15].index : NULL, vp ? pw[15].sib : NULL};
        pm_por_inclusion(cs, PM_POR_POSEIDON, enc, comm_r_last, &pr);
        m_end(&m, PM_POREP_G_R_LAST);

        /* 9: column hash of the computed labels, tree C inclusion */
        pm_var ch = pm_poseidon(cs, pc, labels);
        if (vp && !st) st = path_read(&pw[16], &vp->c_x.inclusion, s->cr_arity, s->cr_levels, &cx, "c_x");
        pm_por_path pcx = {s->cr_levels, s->cr_arity, vp ? pw[16].index : NULL, vp ? pw[16].sib : NULL};
        pm_por_inclusion(cs, PM_POR_POSEIDON, ch, comm_c, &pcx);
        m_end(&m, PM_POREP_G_C_X);
    }
    if (!st && cs->oom) st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory during synthesis");
done:
    (void)rows;
    free(bits);
    free(pbits);
    free(labels);
    free(cols);
    free(scratch);
    return st;
}

pm_status pm_porep_synthesize(pm_cs *cs, const pm_porep_shape *s, const fil_c1_t *c1,
                              uint32_t partition, pm_porep_stats *stats, pm_error *err) {
    return synth(cs, s, c1, partition, stats, NULL, err);
}

int pm_porep_locate(unsigned *gadget, unsigned *challenge, const pm_porep_shape *s, uint64_t row) {
    pm_cs cs;
    pm_cs_init(&cs, 0);
    locate_t loc = {row, 0, 0, 0};
    pm_error err;
    pm_status st = synth(&cs, s, NULL, 0, NULL, &loc, &err);
    pm_cs_free(&cs);
    if (st || !loc.found) return -1;
    *gadget = loc.gadget;
    *challenge = loc.challenge;
    return 0;
}

pm_status pm_porep_witness(fr_t **w, size_t *n_w, uint32_t *n_inputs, const pm_porep_shape *s,
                           const fil_c1_t *c1, uint32_t partition, pm_error *err) {
    *w = NULL;
    *n_w = 0;
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_WITNESS);
    pm_status st = synth(&cs, s, c1, partition, NULL, NULL, err);
    if (!st) st = pm_cs_finish(&cs, NULL, w, err);
    if (!st) {
        *n_w = (size_t)cs.n_inputs + cs.n_aux;
        if (n_inputs) *n_inputs = cs.n_inputs;
    }
    pm_cs_free(&cs);
    return st;
}

pm_status pm_porep_record(r1cs_t *out, uint32_t *n_inputs, const pm_porep_shape *s, pm_error *err) {
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_RECORD);
    pm_status st = synth(&cs, s, NULL, 0, NULL, NULL, err);
    if (!st) st = pm_cs_finish(&cs, out, NULL, err);
    if (!st && n_inputs) *n_inputs = cs.n_inputs;
    pm_cs_free(&cs);
    return st;
}

pm_status pm_porep_check(const r1cs_t *cs, const pm_porep_shape *s, const fr_t *w, size_t n_w,
                         pm_error *err) {
    uint32_t bad = UINT32_MAX;
    pm_status st = r1cs_check_satisfied(&bad, cs, w, n_w, err);
    if (st == PM_ERR_UNSATISFIED && bad != UINT32_MAX) {
        unsigned g = 0, ch = 0;
        if (!pm_porep_locate(&g, &ch, s, bad)) {
            if (ch == UINT32_MAX)
                return pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET,
                                    "constraint %u of %u not satisfied (%s)", bad, cs->n_constraints,
                                    pm_porep_gadget_name(g));
            return pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET,
                                "constraint %u of %u not satisfied (challenge %u, %s)", bad, cs->n_constraints,
                                ch, pm_porep_gadget_name(g));
        }
    }
    return st;
}
