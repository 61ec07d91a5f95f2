/*
 * porep_circuit.c — one partition of the StackedDRG circuit (porep_circuit.h), in rust-fil-proofs'
 * allocation and constraint order (POREP.md §6.5–6.6).
 */
#include "circuits/filecoin/porep_circuit.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_max_threads(void) { return 1; }
#endif

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

/* Variables of the global part that every challenge uses. */
typedef struct {
    pm_var comm_d, comm_c, comm_r_last;
    pm_bool R[256]; /* replica_id bits, reverse_bit_numbering order */
} globals_t;

/* Per-thread scratch of one challenge's synthesis. */
typedef struct {
    fr_t *mem;
    path_w pw[17];
    pm_bool *bits;                               /* 512 + 37·256 message bits */
    pm_bool (*pbits)[256];                       /* 14 parents' bits */
    pm_var *labels;                              /* L */
    pm_var (*cols)[FIL_POSEIDON_MAX_ARITY];      /* 14 columns */
} scratch_t;

static void scratch_free(scratch_t *sc) {
    free(sc->mem);
    free(sc->bits);
    free(sc->pbits);
    free(sc->labels);
    free(sc->cols);
    memset(sc, 0, sizeof *sc);
}

static int scratch_init(scratch_t *sc, const pm_porep_shape *s) {
    memset(sc, 0, sizeof *sc);
    size_t d_sibs = s->d_levels, cr_sibs = sib_count(s->cr_arity, s->cr_levels);
    sc->mem = calloc(d_sibs + 16 * cr_sibs + 1, sizeof(fr_t));
    sc->bits = malloc(sizeof(pm_bool) * (512 + 37 * 256));
    sc->pbits = malloc(sizeof(pm_bool[256]) * 14);
    sc->labels = malloc(sizeof(pm_var) * s->layers);
    sc->cols = malloc(sizeof(pm_var[FIL_POSEIDON_MAX_ARITY]) * 14);
    if (!sc->mem || !sc->bits || !sc->pbits || !sc->labels || !sc->cols) {
        scratch_free(sc);
        return -1;
    }
    sc->pw[0].sib = sc->mem;
    for (int k = 1; k < 17; k++) sc->pw[k].sib = sc->mem + d_sibs + (size_t)(k - 1) * cr_sibs;
    return 0;
}

/* §6.5: replica_id, comm_d, comm_r (inputs), comm_r_last, comm_c, comm_r = H(comm_c, comm_r_last) */
static pm_status synth_global(pm_cs *cs, globals_t *g, const fil_c1_t *c1, uint32_t partition, ctx_t *cx,
                              meter *m) {
    pm_status st = PM_OK;
    const fil_vanilla_proof_t *first = c1 ? &c1->proofs[(size_t)partition * c1->challenges] : NULL;
    pm_var replica_id = alloc_dom(cs, c1 ? c1->replica_id : NULL, cx, "replica_id", &st);
    pm_num_inputize(cs, replica_id);
    pm_bool rbits255[255];
    pm_num_to_bits_le(rbits255, cs, replica_id);
    pm_reverse_bit_numbering_255(g->R, rbits255);
    g->comm_d = alloc_dom(cs, c1 ? c1->comm_d : NULL, cx, "comm_d", &st);
    pm_num_inputize(cs, g->comm_d);
    pm_var comm_r = alloc_dom(cs, c1 ? c1->comm_r : NULL, cx, "comm_r", &st);
    pm_num_inputize(cs, comm_r);
    g->comm_r_last = alloc_dom(cs, first ? first->comm_r_last.root : NULL, cx, "comm_r_last", &st);
    g->comm_c = alloc_dom(cs, first ? first->c_x.inclusion.root : NULL, cx, "comm_c", &st);
    pm_var in2[2] = {g->comm_c, g->comm_r_last};
    pm_var h = pm_poseidon(cs, fil_poseidon_constants(2), in2);
    pm_enforce_equal(cs, comm_r, h);
    m_end(m, PM_POREP_G_GLOBAL);
    return st;
}

/* §6.6: challenge i of the partition */
static pm_status synth_challenge(pm_cs *cs, const pm_porep_shape *s, const fil_c1_t *c1, uint32_t partition,
                                 unsigned i, const globals_t *g, scratch_t *sc, meter *m, pm_error *err) {
    const unsigned L = s->layers;
    const fil_poseidon_t *pc = fil_poseidon_constants(L);
    ctx_t cx = {s, c1, partition, i, err};
    pm_status st = PM_OK;
    m->ch = i;
    unsigned d_ar[PM_POREP_MAX_LEVELS];
    for (unsigned l = 0; l < s->d_levels; l++) d_ar[l] = 2;
    path_w *pw = sc->pw;
    const fil_vanilla_proof_t *vp = c1 ? &c1->proofs[(size_t)partition * c1->challenges + i] : NULL;
    if (vp && (vp->ndrg != 6 || vp->nexp != 8 || vp->nlabeling < 1))
        return pm_error_set(err, PM_ERR_MISMATCH, "c1", PM_NO_OFFSET,
                            "partition %u challenge %u: %u DRG / %u expander column proofs, %u labeling proofs",
                            partition, i, vp->ndrg, vp->nexp, vp->nlabeling);
    /* 1-2: data leaf and tree D inclusion */
    if (vp) st = path_read(&pw[0], &vp->comm_d, d_ar, s->d_levels, &cx, "comm_d_proofs");
    pm_var leaf = alloc_dom(cs, vp ? vp->comm_d.leaf : NULL, &cx, "comm_d_proofs.leaf", &st);
    pm_por_path pd = {s->d_levels, d_ar, vp ? pw[0].index : NULL, vp ? pw[0].sib : NULL};
    pm_por_inclusion(cs, PM_POR_SHA256, leaf, g->comm_d, &pd);
    m_end(m, PM_POREP_G_COMM_D);

    /* 3-4: parent columns, hash, tree C inclusion */
    for (unsigned p = 0; p < 14 && !st; p++) {
        const fil_column_proof_t *cp = vp ? (p < 6 ? &vp->drg[p] : &vp->exp[p - 6]) : NULL;
        const char *fname = p < 6 ? "drg_parents" : "exp_parents";
        if (cp && cp->nrows != L)
            return pm_error_set(err, PM_ERR_MISMATCH, "c1", PM_NO_OFFSET,
                                "partition %u challenge %u: %s[%u] has %u rows, circuit %u layers", partition, i,
                                fname, p < 6 ? p : p - 6, cp->nrows, L);
        for (unsigned l = 0; l < L; l++) sc->cols[p][l] = alloc_dom(cs, cp ? cp->rows[l] : NULL, &cx, fname, &st);
        pm_var h = pm_poseidon(cs, pc, sc->cols[p]);
        m_end(m, PM_POREP_G_PARENT_COLS);
        if (cp && !st) st = path_read(&pw[1 + p], &cp->inclusion, s->cr_arity, s->cr_levels, &cx, fname);
        pm_por_path pp = {s->cr_levels, s->cr_arity, cp ? pw[1 + p].index : NULL, cp ? pw[1 + p].sib : NULL};
        pm_por_inclusion(cs, PM_POR_POSEIDON, h, g->comm_c, &pp);
        m_end(m, PM_POREP_G_PARENT_INCL);
    }
    if (st) return st;

    /* 5: challenge UInt64, packed into one input */
    uint64_t chv = vp ? vp->labeling[0].node : 0;
    pm_bool cbits[64];
    for (unsigned k = 0; k < 64; k++) cbits[k] = pm_bit_alloc(cs, (int)((chv >> k) & 1));
    pm_pack_into_inputs(cs, cbits, 64);
    m_end(m, PM_POREP_G_CHALLENGE);

    /* 6: labels of every layer */
    for (unsigned layer = 1; layer <= L; layer++) {
        unsigned np = 0;
        for (unsigned p = 0; p < 6; p++, np++) {
            pm_bool b255[255];
            pm_num_to_bits_le(b255, cs, sc->cols[p][layer - 1]);
            pm_reverse_bit_numbering_255(sc->pbits[np], b255);
        }
        if (layer > 1)
            for (unsigned p = 6; p < 14; p++, np++) {
                pm_bool b255[255];
                pm_num_to_bits_le(b255, cs, sc->cols[p][layer - 2]);
                pm_reverse_bit_numbering_255(sc->pbits[np], b255);
            }
        m_end(m, PM_POREP_G_LABEL_BITS);
        /* message: R ‖ layer (u32 BE, constant) ‖ challenge (u64 BE) ‖ 160 zero bits ‖ 37 parents */
        pm_bool *bits = sc->bits;
        size_t n = 0;
        memcpy(bits, g->R, sizeof g->R);
        n = 256;
        for (int k = 31; k >= 0; k--) bits[n++] = pm_bool_const((int)((layer >> k) & 1));
        for (int k = 63; k >= 0; k--) bits[n++] = cbits[k];
        while (n < 512) bits[n++] = pm_bool_const(0);
        for (unsigned slot = 0; slot < 37; slot++) {
            unsigned src = slot % np; /* layer 1: 6 × 6 + p0; else 14 + 14 + first 9 */
            memcpy(bits + n, sc->pbits[src], sizeof sc->pbits[src]);
            n += 256;
        }
        pm_bool digest[256], le[256];
        pm_sha256(digest, cs, bits, n);
        for (unsigned byte = 0; byte < 32; byte++)
            for (unsigned k = 0; k < 8; k++) le[8 * byte + k] = digest[8 * byte + 7 - k];
        sc->labels[layer - 1] = pm_pack_bits(cs, le, 254);
        m_end(m, PM_POREP_G_LABEL_SHA);
    }

    /* 7-8: encode and tree R_last inclusion */
    pm_var enc = pm_num_add(cs, sc->labels[L - 1], leaf);
    m_end(m, PM_POREP_G_ENCODE);
    if (vp && !st) st = path_read(&pw[15], &vp->comm_r_last, s->cr_arity, s->cr_levels, &cx, "comm_r_last_proof");
    pm_por_path pr = {s->cr_levels, s->cr_arity, vp ? pw[15].index : NULL, vp ? pw[15].sib : NULL};
    pm_por_inclusion(cs, PM_POR_POSEIDON, enc, g->comm_r_last, &pr);
    m_end(m, PM_POREP_G_R_LAST);

    /* 9: column hash of the computed labels, tree C inclusion */
    pm_var ch = pm_poseidon(cs, pc, sc->labels);
    if (vp && !st) st = path_read(&pw[16], &vp->c_x.inclusion, s->cr_arity, s->cr_levels, &cx, "c_x");
    pm_por_path pcx = {s->cr_levels, s->cr_arity, vp ? pw[16].index : NULL, vp ? pw[16].sib : NULL};
    pm_por_inclusion(cs, PM_POR_POSEIDON, ch, g->comm_c, &pcx);
    m_end(m, PM_POREP_G_C_X);
    return st;
}

static pm_status check_c1(const pm_porep_shape *s, const fil_c1_t *c1, uint32_t partition, pm_error *err) {
    if (!fil_poseidon_constants(s->layers) || !fil_poseidon_constants(2))
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "Poseidon constants");
    if (!c1) return PM_OK;
    if (partition >= c1->partitions)
        return pm_error_set(err, PM_ERR_ARG, "c1", PM_NO_OFFSET, "partition %u of %u", partition, c1->partitions);
    if (c1->challenges != s->challenges)
        return pm_error_set(err, PM_ERR_MISMATCH, "c1", PM_NO_OFFSET,
                            "C1 has %u challenges per partition, circuit %u", c1->challenges, s->challenges);
    return PM_OK;
}

static pm_status synth(pm_cs *cs, const pm_porep_shape *s, const fil_c1_t *c1, uint32_t partition,
                       pm_porep_stats *stats, locate_t *loc, pm_error *err) {
    if (stats) memset(stats, 0, sizeof *stats);
    pm_status st = check_c1(s, c1, partition, err);
    if (st) return st;
    ctx_t cx = {s, c1, partition, 0, err};
    meter m = {cs, stats, 0, 0, loc, 0};
    m_begin(&m);
    scratch_t sc;
    if (scratch_init(&sc, s)) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis scratch");
    globals_t g;
    st = synth_global(cs, &g, c1, partition, &cx, &m);
    for (unsigned i = 0; i < s->challenges && !st; i++) st = synth_challenge(cs, s, c1, partition, i, &g, &sc, &m, err);
    if (!st && cs->oom) st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory during synthesis");
    scratch_free(&sc);
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

/* Inputs and aux of the global part and of one challenge (all challenges are alike), from a
 * count-only synthesis, cached per shape (the number of challenges does not matter). */
typedef struct {
    pm_porep_shape key;
    uint32_t in_g, in_c;
    uint64_t aux_g, aux_c;
} part_counts_t;

static pthread_mutex_t counts_mu = PTHREAD_MUTEX_INITIALIZER;
static part_counts_t counts_cache[8];
static unsigned counts_n;

static pm_status part_counts(part_counts_t *out, const pm_porep_shape *s, pm_error *err) {
    pm_porep_shape key = *s;
    key.challenges = 1;
    pthread_mutex_lock(&counts_mu);
    for (unsigned k = 0; k < counts_n; k++)
        if (!memcmp(&counts_cache[k].key, &key, sizeof key)) {
            *out = counts_cache[k];
            pthread_mutex_unlock(&counts_mu);
            return PM_OK;
        }
    pthread_mutex_unlock(&counts_mu);
    pm_cs cs;
    pm_cs_init(&cs, 0);
    ctx_t cx = {s, NULL, 0, 0, err};
    meter m = {&cs, NULL, 0, 0, NULL, 0};
    m_begin(&m);
    scratch_t sc;
    if (scratch_init(&sc, s)) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis scratch");
    globals_t g;
    pm_status st = synth_global(&cs, &g, NULL, 0, &cx, &m);
    part_counts_t c = {key, cs.n_inputs, 0, cs.n_aux, 0};
    if (!st) st = synth_challenge(&cs, s, NULL, 0, 0, &g, &sc, &m, err);
    c.in_c = cs.n_inputs - c.in_g;
    c.aux_c = cs.n_aux - c.aux_g;
    scratch_free(&sc);
    pm_cs_free(&cs);
    if (st) return st;
    pthread_mutex_lock(&counts_mu);
    if (counts_n < 8) counts_cache[counts_n++] = c;
    pthread_mutex_unlock(&counts_mu);
    *out = c;
    return PM_OK;
}

pm_status pm_porep_witness_len(size_t *n_w, uint32_t *n_inputs, const pm_porep_shape *s, pm_error *err) {
    part_counts_t pc;
    pm_status st = part_counts(&pc, s, err);
    if (st) return st;
    uint64_t n_in = pc.in_g + (uint64_t)s->challenges * pc.in_c;
    *n_w = (size_t)(n_in + pc.aux_g + (uint64_t)s->challenges * pc.aux_c);
    if (n_inputs) *n_inputs = (uint32_t)n_in;
    return PM_OK;
}

/* Fill v (n = n_in + n_aux values, every one written) with the witness of `partition`. */
static pm_status witness_fill(fr_t *v, const part_counts_t *pcp, const pm_porep_shape *s, const fil_c1_t *c1,
                              uint32_t partition, unsigned threads, pm_error *err) {
    const part_counts_t pc = *pcp;
    pm_status st = PM_OK;
    uint64_t n_in = pc.in_g + (uint64_t)s->challenges * pc.in_c;
    fr_t *aux = v + n_in;
    pm_cs cs;
    pm_cs_init_shared(&cs, v, 0, aux, 0);
    ctx_t cx = {s, c1, partition, 0, err};
    meter m = {&cs, NULL, 0, 0, NULL, 0};
    m_begin(&m);
    globals_t g;
    st = synth_global(&cs, &g, c1, partition, &cx, &m);
    if (!st && (cs.n_inputs != pc.in_g || cs.n_aux != pc.aux_g))
        st = pm_error_set(err, PM_ERR_INTERNAL, "", PM_NO_OFFSET, "global part shape changed");
    pm_cs_free(&cs);
    unsigned nch = s->challenges;
    pm_status *sts = calloc(nch, sizeof *sts);
    pm_error *errs = calloc(nch, sizeof *errs);
    if (!sts || !errs) st = st ? st : pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis state");
    if (!st) {
        int nt = threads ? (int)threads : 0;
#pragma omp parallel num_threads(nt ? nt : omp_get_max_threads())
        {
            scratch_t sc;
            int ok = !scratch_init(&sc, s);
#pragma omp for schedule(dynamic, 1)
            for (unsigned i = 0; i < nch; i++) {
                if (!ok) {
                    sts[i] = pm_error_set(&errs[i], PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis scratch");
                    continue;
                }
                pm_cs ci;
                pm_cs_init_shared(&ci, v, pc.in_g + i * pc.in_c, aux, pc.aux_g + (uint64_t)i * pc.aux_c);
                meter mi = {&ci, NULL, 0, 0, NULL, i};
                m_begin(&mi);
                sts[i] = synth_challenge(&ci, s, c1, partition, i, &g, &sc, &mi, &errs[i]);
                if (!sts[i] && (ci.n_inputs != pc.in_c || ci.n_aux != pc.aux_c))
                    sts[i] = pm_error_set(&errs[i], PM_ERR_INTERNAL, "", PM_NO_OFFSET, "challenge %u shape changed", i);
                pm_cs_free(&ci);
            }
            if (ok) scratch_free(&sc);
        }
        for (unsigned i = 0; i < nch && !st; i++)
            if (sts[i]) {
                st = sts[i];
                if (err) *err = errs[i];
            }
    }
    free(sts);
    free(errs);
    return st;
}

pm_status pm_porep_witness_into(fr_t *w, size_t cap, size_t *n_w, uint32_t *n_inputs, const pm_porep_shape *s,
                                const fil_c1_t *c1, uint32_t partition, unsigned threads, pm_error *err) {
    *n_w = 0;
    pm_status st = check_c1(s, c1, partition, err);
    if (st) return st;
    part_counts_t pc;
    if ((st = part_counts(&pc, s, err))) return st;
    uint64_t n_in = pc.in_g + (uint64_t)s->challenges * pc.in_c;
    uint64_t n = n_in + pc.aux_g + (uint64_t)s->challenges * pc.aux_c;
    if (!w || cap < n)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "witness buffer of %zu values, %llu needed", cap,
                            (unsigned long long)n);
    if ((st = witness_fill(w, &pc, s, c1, partition, threads, err))) return st;
    *n_w = (size_t)n;
    if (n_inputs) *n_inputs = (uint32_t)n_in;
    return PM_OK;
}

pm_status pm_porep_witness_mt(fr_t **w, size_t *n_w, uint32_t *n_inputs, const pm_porep_shape *s,
                              const fil_c1_t *c1, uint32_t partition, unsigned threads, pm_error *err) {
    *w = NULL;
    *n_w = 0;
    pm_status st = check_c1(s, c1, partition, err);
    if (st) return st;
    size_t n;
    if ((st = pm_porep_witness_len(&n, NULL, s, err))) return st;
    fr_t *v = aligned_alloc(32, n * sizeof(fr_t));
    if (!v) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "witness of %zu values (%.1f GB)", n,
                                (double)n * 32 / 1e9);
    st = pm_porep_witness_into(v, n, n_w, n_inputs, s, c1, partition, threads, err);
    if (st) {
        free(v);
        return st;
    }
    *w = v;
    return PM_OK;
}

pm_status pm_porep_witness(fr_t **w, size_t *n_w, uint32_t *n_inputs, const pm_porep_shape *s,
                           const fil_c1_t *c1, uint32_t partition, pm_error *err) {
    return pm_porep_witness_mt(w, n_w, n_inputs, s, c1, partition, 0, err);
}

/* The single-threaded reference: one growing system (what the tests compare the above with). */
pm_status pm_porep_witness_serial(fr_t **w, size_t *n_w, uint32_t *n_inputs, const pm_porep_shape *s,
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

pm_status pm_porep_unsatisfied(pm_error *err, const pm_porep_shape *s, uint32_t row, uint32_t n_rows) {
    unsigned g = 0, ch = 0;
    if (pm_porep_locate(&g, &ch, s, row))
        return pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET, "constraint %u of %u not satisfied", row,
                            n_rows);
    if (ch == UINT32_MAX)
        return pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET, "constraint %u of %u not satisfied (%s)", row,
                            n_rows, pm_porep_gadget_name(g));
    return pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET,
                        "constraint %u of %u not satisfied (challenge %u, %s)", row, n_rows, ch,
                        pm_porep_gadget_name(g));
}

pm_status pm_porep_check(const r1cs_t *cs, const pm_porep_shape *s, const fr_t *w, size_t n_w,
                         pm_error *err) {
    uint32_t bad = UINT32_MAX;
    pm_status st = r1cs_check_satisfied(&bad, cs, w, n_w, err);
    if (st == PM_ERR_UNSATISFIED && bad != UINT32_MAX) return pm_porep_unsatisfied(err, s, bad, cs->n_constraints);
    return st;
}

pm_status pm_porep_check_streaming(uint64_t *first_bad, uint64_t *n_bad, const pm_porep_shape *s,
                                   const fil_c1_t *c1, uint32_t partition, pm_error *err) {
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_WITNESS | PM_CS_CHECK);
    pm_status st = synth(&cs, s, c1, partition, NULL, NULL, err);
    *first_bad = cs.first_bad;
    *n_bad = cs.n_bad;
    uint64_t total = cs.n_constraints;
    pm_cs_free(&cs);
    if (st) return st;
    if (*n_bad) {
        unsigned g = 0, ch = 0;
        if (pm_porep_locate(&g, &ch, s, *first_bad))
            return pm_error_set(err, PM_ERR_UNSATISFIED, "c1", PM_NO_OFFSET, "partition %u: constraint %llu of %llu not satisfied",
                                partition, (unsigned long long)*first_bad, (unsigned long long)total);
        if (ch == UINT32_MAX)
            return pm_error_set(err, PM_ERR_UNSATISFIED, "c1", PM_NO_OFFSET,
                                "partition %u: constraint %llu of %llu not satisfied (%s); %llu unsatisfied",
                                partition, (unsigned long long)*first_bad, (unsigned long long)total,
                                pm_porep_gadget_name(g), (unsigned long long)*n_bad);
        return pm_error_set(err, PM_ERR_UNSATISFIED, "c1", PM_NO_OFFSET,
                            "partition %u: constraint %llu of %llu not satisfied (challenge %u, %s); %llu unsatisfied",
                            partition, (unsigned long long)*first_bad, (unsigned long long)total, ch,
                            pm_porep_gadget_name(g), (unsigned long long)*n_bad);
    }
    return PM_OK;
}
