/*
 * post_circuit.c — the fallback PoSt partition circuit (post_circuit.h).
 */
#include "circuits/filecoin/post_circuit.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_max_threads(void) { return 1; }
#endif

#include "circuits/gadgets.h"
#include "filecoin/param_names.h"
#include "filecoin/sha256_fr.h"

static const char *const NAMES[PM_POST_G_COUNT] = {"comm_r", "leaf", "inclusion_path", "inclusion_root"};
const char *pm_post_gadget_name(unsigned g) { return g < PM_POST_G_COUNT ? NAMES[g] : "?"; }

/* ---------------------------------------------------------------- kind glue */
uint32_t pm_post_partitions(const fil_post_job_t *j) {
    (void)j;
    return 1;
}

pm_status pm_post_param_stem(char *out, size_t cap, const fil_post_config_t *c, pm_error *err) {
    return fil_param_stem(out, cap, c->type == FIL_POST_WINNING ? FIL_PARAM_WINNING_POST : FIL_PARAM_WINDOW_POST,
                          c->sector_size, err);
}

/* ---------------------------------------------------------------- synthesis */
typedef struct {
    pm_cs *cs;
    pm_post_stats *st;
    uint64_t c0, a0;
} meter;

static void m_begin(meter *m) {
    m->c0 = m->cs->n_constraints;
    m->a0 = m->cs->n_aux;
}
static void m_end(meter *m, unsigned g) {
    if (m->st) {
        m->st->constraints[g] += m->cs->n_constraints - m->c0;
        m->st->aux[g] += m->cs->n_aux - m->a0;
    }
    m_begin(m);
}

static size_t sib_count(const fil_tree_shape_t *t) {
    size_t k = 0;
    for (unsigned l = 0; l < t->nlevels; l++) k += t->level_arity[l] - 1;
    return k;
}

static pm_status dom(fr_t *out, const uint8_t in[32], unsigned i, uint64_t id, int n, const char *field,
                     pm_error *err) {
    if (!fil_domain_to_fr(out, in)) return PM_OK;
    if (n < 0)
        return pm_error_set(err, PM_ERR_ENCODING, "", PM_NO_OFFSET, "sector %u (id %llu): %s is not a canonical Fr", i,
                            (unsigned long long)id, field);
    return pm_error_set(err, PM_ERR_ENCODING, "", PM_NO_OFFSET,
                        "sector %u (id %llu) challenge %d: %s is not a canonical Fr", i, (unsigned long long)id, n, field);
}

/* The path of one inclusion proof as witness: index[levels], sib[Σ(arity − 1)], leaf. */
static pm_status read_path(uint32_t *index, fr_t *sib, fr_t *leaf, const fil_merkle_proof_t *p, const fil_post_config_t *c,
                           unsigned i, uint64_t id, unsigned n, pm_error *err) {
    const fil_tree_shape_t *t = &c->tree;
    unsigned nl = p->nbase + p->nsub + p->ntop;
    if (nl != t->nlevels)
        return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                            "sector %u (id %llu) challenge %u: inclusion proof has %u levels, the tree %u", i,
                            (unsigned long long)id, n, nl, t->nlevels);
    pm_status st = dom(leaf, p->leaf, i, id, (int)n, "inclusion proof leaf", err);
    size_t off = 0;
    for (unsigned l = 0; l < nl && !st; l++) {
        const fil_path_elem_t *e = &p->elems[l];
        unsigned a = t->level_arity[l];
        if (e->nhashes + 1 != a || e->index >= a)
            return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                                "sector %u (id %llu) challenge %u: inclusion proof level %u: %u siblings, index %llu; "
                                "the tree's arity is %u",
                                i, (unsigned long long)id, n, l, e->nhashes, (unsigned long long)e->index, a);
        index[l] = (uint32_t)e->index;
        for (unsigned h = 0; h < e->nhashes && !st; h++)
            st = dom(&sib[off + h], e->hashes[h], i, id, (int)n, "inclusion proof sibling", err);
        off += e->nhashes;
    }
    return st;
}

typedef struct {
    uint32_t index[FIL_MERKLE_MAX_LEVELS];
    fr_t *sib;
} scratch_t;

/* One circuit sector (s == NULL: blank). Values go in whatever mode cs is in. */
static pm_status synth_sector(pm_cs *cs, const fil_post_config_t *c, const fil_post_circuit_sector_t *s, unsigned i,
                              scratch_t *sc, meter *m, pm_error *err) {
    fr_t v[3] = {{{0}}, {{0}}, {{0}}};
    pm_status st = PM_OK;
    uint64_t id = s ? s->sector_id : 0;
    if (s && ((st = dom(&v[0], s->comm_r_last, i, id, -1, "comm_r_last", err)) ||
              (st = dom(&v[1], s->comm_c, i, id, -1, "comm_c", err)) ||
              (st = dom(&v[2], s->comm_r, i, id, -1, "comm_r", err))))
        return st;
    pm_var comm_r_last = pm_cs_alloc(cs, &v[0]);
    pm_var comm_c = pm_cs_alloc(cs, &v[1]);
    pm_var comm_r = pm_cs_alloc(cs, &v[2]);
    pm_num_inputize(cs, comm_r);
    pm_var pre[2] = {comm_c, comm_r_last};
    pm_var h = pm_poseidon(cs, fil_poseidon_constants(2), pre);
    pm_enforce_equal(cs, comm_r, h);
    m_end(m, PM_POST_G_COMM_R);
    const fil_tree_shape_t *t = &c->tree;
    for (unsigned n = 0; n < c->circuit_challenges; n++) {
        fr_t leafv = {{0}};
        if (s && (st = read_path(sc->index, sc->sib, &leafv, &s->proofs[n], c, i, id, n, err))) return st;
        pm_var leaf = pm_cs_alloc(cs, &leafv);
        m_end(m, PM_POST_G_LEAF);
        pm_por_path p = {t->nlevels, t->level_arity, s ? sc->index : NULL, s ? sc->sib : NULL};
        /* por.rs: levels, then pack_into_inputs and equal; split for the counters below */
        uint64_t c0 = cs->n_constraints, a0 = cs->n_aux;
        pm_por_inclusion(cs, PM_POR_POSEIDON, leaf, comm_r_last, &p);
        if (m->st) {
            m->st->constraints[PM_POST_G_PATH] += cs->n_constraints - c0 - 2;
            m->st->aux[PM_POST_G_PATH] += cs->n_aux - a0;
            m->st->constraints[PM_POST_G_ROOT] += 2;
        }
        m_begin(m);
    }
    return PM_OK;
}

static int scratch_init(scratch_t *sc, const fil_post_config_t *c) {
    memset(sc, 0, sizeof *sc);
    sc->sib = malloc((sib_count(&c->tree) + 1) * sizeof *sc->sib);
    return sc->sib ? 0 : -1;
}

static pm_status prepare(const fil_post_config_t *c, pm_error *err) {
    if (!fil_poseidon_constants(2) || !fil_poseidon_constants(8))
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "Poseidon constants");
    if (c->tree.nlevels > FIL_MERKLE_MAX_LEVELS || !c->circuit_sectors || !c->circuit_challenges)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "PoSt circuit: bad configuration");
    return PM_OK;
}

pm_status pm_post_synthesize(pm_cs *cs, const fil_post_config_t *c, const fil_post_circuit_sector_t *s,
                             pm_post_stats *stats, pm_error *err) {
    if (stats) memset(stats, 0, sizeof *stats);
    pm_status st = prepare(c, err);
    if (st) return st;
    scratch_t sc;
    if (scratch_init(&sc, c)) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis scratch");
    meter m = {cs, stats, 0, 0};
    m_begin(&m);
    for (unsigned i = 0; i < c->circuit_sectors && !st; i++) st = synth_sector(cs, c, s ? &s[i] : NULL, i, &sc, &m, err);
    free(sc.sib);
    if (!st && cs->oom) st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory during synthesis");
    return st;
}

pm_status pm_post_record_size(uint64_t *rows, uint64_t nnz[3], const fil_post_config_t *c, pm_error *err) {
    fil_post_config_t one = *c;
    one.circuit_sectors = 1;
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_STATS);
    pm_status st = pm_post_synthesize(&cs, &one, NULL, NULL, err);
    *rows = cs.n_constraints * c->circuit_sectors;
    for (int k = 0; k < 3; k++) nnz[k] = cs.nnz[k] * c->circuit_sectors;
    pm_cs_free(&cs);
    return st;
}

pm_status pm_post_record_facts(pm_cs_facts *f, const fil_post_config_t *c, pm_error *err) {
    memset(f, 0, sizeof *f);
    pm_cs_facts part[2];
    pm_status st = PM_OK;
    const unsigned n = c->circuit_sectors < 2 ? c->circuit_sectors : 2;
    for (unsigned s = 1; s <= 2 && !st; s++) {
        fil_post_config_t one = *c;
        one.circuit_sectors = s <= n ? s : n;
        pm_cs cs;
        pm_cs_init(&cs, PM_CS_STATS);
        st = pm_post_synthesize(&cs, &one, NULL, NULL, err);
        pm_cs_facts_of(&part[s - 1], &cs);
        pm_cs_free(&cs);
    }
    if (!st) pm_cs_facts_extend(f, &part[0], &part[1], c->circuit_sectors);
    return st;
}

/* ---------------------------------------------------------------- counts of one sector */
typedef struct {
    uint64_t nodes;
    unsigned challenges, nlevels, arity[FIL_MERKLE_MAX_LEVELS];
    uint32_t in_s;         /* inputs of one sector */
    uint64_t aux_s, cons_s; /* aux and constraints of one sector */
    uint64_t cons_comm_r, cons_incl;
    uint64_t cons_level[FIL_MERKLE_MAX_LEVELS];
} counts_t;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static counts_t g_cache[8];
static unsigned g_n;

static int same_shape(const counts_t *k, const fil_post_config_t *c) {
    if (k->nodes != c->nodes || k->challenges != c->circuit_challenges || k->nlevels != c->tree.nlevels) return 0;
    for (unsigned l = 0; l < k->nlevels; l++)
        if (k->arity[l] != c->tree.level_arity[l]) return 0;
    return 1;
}

static pm_status counts(counts_t *out, const fil_post_config_t *c, pm_error *err) {
    pm_status st = prepare(c, err);
    if (st) return st;
    pthread_mutex_lock(&g_mu);
    for (unsigned k = 0; k < g_n; k++)
        if (same_shape(&g_cache[k], c)) {
            *out = g_cache[k];
            pthread_mutex_unlock(&g_mu);
            return PM_OK;
        }
    pthread_mutex_unlock(&g_mu);
    counts_t r;
    memset(&r, 0, sizeof r);
    r.nodes = c->nodes;
    r.challenges = c->circuit_challenges;
    r.nlevels = c->tree.nlevels;
    memcpy(r.arity, c->tree.level_arity, sizeof r.arity);
    pm_cs cs;
    pm_cs_init(&cs, 0);
    scratch_t sc;
    if (scratch_init(&sc, c)) {
        pm_cs_free(&cs);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis scratch");
    }
    pm_post_stats stats;
    memset(&stats, 0, sizeof stats);
    meter m = {&cs, &stats, 0, 0};
    m_begin(&m);
    uint32_t in0 = cs.n_inputs;
    st = synth_sector(&cs, c, NULL, 0, &sc, &m, err);
    free(sc.sib);
    r.in_s = cs.n_inputs - in0;
    r.aux_s = cs.n_aux;
    r.cons_s = cs.n_constraints;
    r.cons_comm_r = stats.constraints[PM_POST_G_COMM_R];
    r.cons_incl = (r.cons_s - r.cons_comm_r) / c->circuit_challenges;
    pm_cs_free(&cs);
    /* one level of the path: index bits, siblings, insert, hash */
    for (unsigned l = 0; l < r.nlevels && !st; l++) {
        unsigned a = r.arity[l], lb = a == 2 ? 1 : a == 4 ? 2 : 3;
        pm_cs lc;
        pm_cs_init(&lc, 0);
        pm_var cur = pm_cs_alloc(&lc, NULL), sib[7], ins[8];
        pm_bool bits[3];
        for (unsigned b = 0; b < lb; b++) bits[b] = pm_bit_alloc(&lc, 0);
        for (unsigned q = 0; q + 1 < a; q++) sib[q] = pm_cs_alloc(&lc, NULL);
        pm_insert(ins, &lc, cur, bits, sib, a);
        pm_poseidon(&lc, fil_poseidon_constants(a), ins);
        r.cons_level[l] = lc.n_constraints;
        pm_cs_free(&lc);
    }
    if (st) return st;
    pthread_mutex_lock(&g_mu);
    if (g_n < 8) g_cache[g_n++] = r;
    pthread_mutex_unlock(&g_mu);
    *out = r;
    return PM_OK;
}

/* The sectors are equally shaped, independent sub-circuits (sector i's variables are inputs
 * 1 + i·in_s.. and aux i·aux_s.., as pm_post_witness_into numbers them): runs of sectors are
 * recorded on all threads, each into its own system numbered where serial recording would number
 * it, and appended in order (cs.h pm_cs_append_parts: the same rows and dictionary order). */
pm_status pm_post_record(r1cs_t *out, uint32_t *n_inputs, const fil_post_config_t *c, pm_error *err) {
    counts_t ct;
    pm_status st = counts(&ct, c, err);
    if (st) return st;
    unsigned ns = c->circuit_sectors, nb = 4 * (unsigned)omp_get_max_threads();
    if (nb > ns) nb = ns;
    pm_cs *parts = calloc(nb, sizeof *parts);
    pm_status *sts = calloc(nb, sizeof *sts);
    pm_error *errs = calloc(nb, sizeof *errs);
    if (!parts || !sts || !errs) {
        free(parts);
        free(sts);
        free(errs);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis state");
    }
#pragma omp parallel
    {
        scratch_t sc;
        int ok = !scratch_init(&sc, c);
#pragma omp for schedule(dynamic, 1)
        for (unsigned k = 0; k < nb; k++) {
            unsigned lo = (unsigned)((uint64_t)ns * k / nb), hi = (unsigned)((uint64_t)ns * (k + 1) / nb);
            pm_cs_init_record_at(&parts[k], 1 + lo * ct.in_s, (uint64_t)lo * ct.aux_s);
            if (!ok) sts[k] = pm_error_set(&errs[k], PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis scratch");
            meter m = {&parts[k], NULL, 0, 0};
            m_begin(&m);
            for (unsigned i = lo; i < hi && !sts[k]; i++) sts[k] = synth_sector(&parts[k], c, NULL, i, &sc, &m, &errs[k]);
            if (!sts[k] && (parts[k].n_inputs != (hi - lo) * ct.in_s || parts[k].n_aux != (uint64_t)(hi - lo) * ct.aux_s))
                sts[k] = pm_error_set(&errs[k], PM_ERR_INTERNAL, "", PM_NO_OFFSET, "sectors %u..%u: shape changed", lo, hi);
        }
        if (ok) free(sc.sib);
    }
    for (unsigned k = 0; k < nb && !st; k++)
        if (sts[k]) {
            st = sts[k];
            if (err) *err = errs[k];
        }
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_RECORD);
    if (!st) st = pm_cs_append_parts(&cs, parts, nb, err);
    for (unsigned k = 0; k < nb; k++) pm_cs_free(&parts[k]);
    free(parts);
    free(sts);
    free(errs);
    if (!st) st = pm_cs_finish(&cs, out, NULL, err);
    if (!st && n_inputs) *n_inputs = cs.n_inputs;
    pm_cs_free(&cs);
    return st;
}

pm_status pm_post_witness_len(size_t *n_w, uint32_t *n_inputs, const fil_post_config_t *c, pm_error *err) {
    counts_t k;
    pm_status st = counts(&k, c, err);
    if (st) return st;
    uint64_t nin = 1 + (uint64_t)k.in_s * c->circuit_sectors;
    *n_w = (size_t)(nin + k.aux_s * c->circuit_sectors);
    if (n_inputs) *n_inputs = (uint32_t)nin;
    return PM_OK;
}

pm_status pm_post_witness_into(fr_t *w, size_t cap, size_t *n_w, uint32_t *n_inputs, const fil_post_job_t *j,
                               uint32_t k, unsigned threads, pm_error *err) {
    *n_w = 0;
    const fil_post_config_t *c = &j->cfg;
    if (k != 0) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "partition %u of 1", k);
    counts_t ct;
    pm_status st = counts(&ct, c, err);
    if (st) return st;
    uint64_t nin = 1 + (uint64_t)ct.in_s * c->circuit_sectors, n = nin + ct.aux_s * c->circuit_sectors;
    if (!w || cap < n)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "witness buffer of %zu values, %llu needed", cap,
                            (unsigned long long)n);
    w[0] = FR_ONE;
    fr_t *aux = w + nin;
    unsigned ns = c->circuit_sectors;
    pm_status *sts = calloc(ns, sizeof *sts);
    pm_error *errs = calloc(ns, sizeof *errs);
    if (!sts || !errs) {
        free(sts);
        free(errs);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis state");
    }
    int nt = threads ? (int)threads : omp_get_max_threads();
#pragma omp parallel num_threads(nt)
    {
        scratch_t sc;
        int ok = !scratch_init(&sc, c);
#pragma omp for schedule(dynamic, 8)
        for (unsigned i = 0; i < ns; i++) {
            if (!ok) {
                sts[i] = pm_error_set(&errs[i], PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis scratch");
                continue;
            }
            pm_cs ci;
            pm_cs_init_shared(&ci, w, 1 + i * ct.in_s, aux, (uint64_t)i * ct.aux_s);
            meter m = {&ci, NULL, 0, 0};
            m_begin(&m);
            sts[i] = synth_sector(&ci, c, &j->sectors[i], i, &sc, &m, &errs[i]);
            if (!sts[i] && (ci.n_inputs != ct.in_s || ci.n_aux != ct.aux_s))
                sts[i] = pm_error_set(&errs[i], PM_ERR_INTERNAL, "", PM_NO_OFFSET, "sector %u shape changed", i);
            pm_cs_free(&ci);
        }
        if (ok) free(sc.sib);
    }
    for (unsigned i = 0; i < ns && !st; i++)
        if (sts[i]) {
            st = sts[i];
            if (err) *err = errs[i];
        }
    free(sts);
    free(errs);
    if (st) return st;
    *n_w = (size_t)n;
    if (n_inputs) *n_inputs = (uint32_t)nin;
    return PM_OK;
}

pm_status pm_post_public_inputs(fr_t *out, size_t n, const fil_post_job_t *j, uint32_t k, pm_error *err) {
    if (k != 0) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "partition %u of 1", k);
    return fil_post_job_public_inputs(out, n, j, err);
}

/* ---------------------------------------------------------------- locating rows */
int pm_post_locate(unsigned *gadget, unsigned *sector, unsigned *challenge, unsigned *level, const fil_post_config_t *c,
                   uint64_t row) {
    counts_t k;
    pm_error e;
    if (counts(&k, c, &e) || row >= k.cons_s * c->circuit_sectors) return -1;
    *sector = (unsigned)(row / k.cons_s);
    uint64_t r = row % k.cons_s;
    *challenge = *level = UINT32_MAX;
    if (r < k.cons_comm_r) {
        *gadget = PM_POST_G_COMM_R;
        return 0;
    }
    r -= k.cons_comm_r;
    *challenge = (unsigned)(r / k.cons_incl);
    r %= k.cons_incl;
    for (unsigned l = 0; l < k.nlevels; l++) {
        if (r < k.cons_level[l]) {
            *gadget = PM_POST_G_PATH;
            *level = l;
            return 0;
        }
        r -= k.cons_level[l];
    }
    *gadget = PM_POST_G_ROOT;
    return 0;
}

pm_status pm_post_unsatisfied(pm_error *err, const fil_post_config_t *c, const fil_post_circuit_sector_t *ids,
                              uint64_t row, uint64_t n_rows) {
    unsigned g, s, ch, lv;
    if (pm_post_locate(&g, &s, &ch, &lv, c, row))
        return pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET, "constraint %llu of %llu not satisfied",
                            (unsigned long long)row, (unsigned long long)n_rows);
    char where[160];
    int n = snprintf(where, sizeof where, "sector %u", s);
    if (ids) n += snprintf(where + n, sizeof where - (size_t)n, " (id %llu)", (unsigned long long)ids[s].sector_id);
    if (ch != UINT32_MAX) n += snprintf(where + n, sizeof where - (size_t)n, ", challenge %u", ch);
    snprintf(where + n, sizeof where - (size_t)n, ", %s", pm_post_gadget_name(g));
    if (lv != UINT32_MAX)
        return pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET,
                            "constraint %llu of %llu not satisfied (%s level %u)", (unsigned long long)row,
                            (unsigned long long)n_rows, where, lv);
    return pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET, "constraint %llu of %llu not satisfied (%s)",
                        (unsigned long long)row, (unsigned long long)n_rows, where);
}

pm_status pm_post_check(uint64_t *first_bad, uint64_t *n_bad, const fil_post_job_t *j, pm_error *err) {
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_WITNESS | PM_CS_CHECK);
    pm_status st = pm_post_synthesize(&cs, &j->cfg, j->sectors, NULL, err);
    *first_bad = cs.first_bad;
    *n_bad = cs.n_bad;
    uint64_t total = cs.n_constraints;
    pm_cs_free(&cs);
    if (!st && *n_bad) {
        pm_post_unsatisfied(err, &j->cfg, j->sectors, *first_bad, total);
        char msg[400];
        snprintf(msg, sizeof msg, "%.380s", err->msg);
        st = pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET, "%s; %llu unsatisfied", msg,
                          (unsigned long long)*n_bad);
    }
    return st;
}
