/*
 * update_circuit.c — the SnapDeals partition circuit (update_circuit.h).
 */
#include "circuits/filecoin/update_circuit.h"

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

static const char *const NAMES[PM_UPD_G_COUNT] = {
    "public_inputs", "phi", "comm_r_checks", "apex_tree", "partition_path", "challenge_bits", "challenge_high_bits",
    "rho", "label_r_new", "tree_r_old_path", "tree_r_new_path", "apex_leaf_select", "tree_d_path"};
const char *pm_update_gadget_name(unsigned g) { return g < PM_UPD_G_COUNT ? NAMES[g] : "?"; }

/* ---------------------------------------------------------------- kind glue */
uint32_t pm_update_partitions(const fil_update_job_t *j) { return j->cfg.partitions; }

pm_status pm_update_param_stem(char *out, size_t cap, const fil_update_config_t *c, pm_error *err) {
    return fil_param_stem(out, cap, FIL_PARAM_EMPTY_SECTOR_UPDATE, c->sector_size, err);
}

/* ---------------------------------------------------------------- metering */
#define MAX_SEGS 16
typedef struct {
    unsigned n, gadget[MAX_SEGS];
    uint64_t cons[MAX_SEGS];
} segs_t;

typedef struct {
    pm_cs *cs;
    pm_update_stats *st;
    segs_t *segs; /* counts run: the order of gadgets and their constraints */
    uint64_t c0, a0;
} meter;

static void m_begin(meter *m) {
    m->c0 = m->cs->n_constraints;
    m->a0 = m->cs->n_aux;
}
static void m_end(meter *m, unsigned g) {
    uint64_t dc = m->cs->n_constraints - m->c0;
    if (m->st) {
        m->st->constraints[g] += dc;
        m->st->aux[g] += m->cs->n_aux - m->a0;
    }
    if (m->segs && m->segs->n < MAX_SEGS) {
        m->segs->gadget[m->segs->n] = g;
        m->segs->cons[m->segs->n++] = dc;
    }
    m_begin(m);
}

/* ---------------------------------------------------------------- witness reading */
typedef struct {
    const fil_update_config_t *c;
    const fil_update_partition_proof_t *p; /* NULL: blank */
    uint32_t k;
    pm_error *err;
} ctx_t;

static pm_status dom(fr_t *out, const uint8_t in[32], const ctx_t *x, int ch, const char *field) {
    if (!fil_domain_to_fr(out, in)) return PM_OK;
    if (ch < 0)
        return pm_error_set(x->err, PM_ERR_ENCODING, "", PM_NO_OFFSET, "partition %u: %s is not a canonical Fr", x->k,
                            field);
    return pm_error_set(x->err, PM_ERR_ENCODING, "", PM_NO_OFFSET, "partition %u challenge %d: %s is not a canonical Fr",
                        x->k, ch, field);
}

static pm_status fits(const fil_merkle_proof_t *p, const fil_tree_shape_t *t, const ctx_t *x, unsigned i,
                      const char *name) {
    unsigned nl = p->nbase + p->nsub + p->ntop;
    if (nl != t->nlevels)
        return pm_error_set(x->err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                            "partition %u challenge %u: %s has %u levels, the tree %u", x->k, i, name, nl, t->nlevels);
    for (unsigned l = 0; l < nl; l++)
        if (p->elems[l].nhashes + 1 != t->level_arity[l])
            return pm_error_set(x->err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                                "partition %u challenge %u: %s level %u has %u siblings, the tree's arity is %u", x->k, i,
                                name, l, p->elems[l].nhashes, t->level_arity[l]);
    return PM_OK;
}

/* the partition proof fits the circuit (what circuit.rs asserts) */
static pm_status check_shape(const ctx_t *x) {
    const fil_update_config_t *c = x->c;
    const fil_update_partition_proof_t *p = x->p;
    if (p->n_apex != c->apex_leaves || p->n_challenges != c->challenges)
        return pm_error_set(x->err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                            "partition %u: %u apex_leafs and %u challenge_proofs, the circuit needs %u and %u", x->k,
                            p->n_apex, p->n_challenges, c->apex_leaves, c->challenges);
    pm_status st = PM_OK;
    for (unsigned i = 0; i < c->challenges && !st; i++) {
        const fil_update_challenge_proof_t *cp = &p->challenges[i];
        if ((st = fits(&cp->r_old, &c->tree_r, x, i, "proof_r_old")) || (st = fits(&cp->r_new, &c->tree_r, x, i, "proof_r_new")) ||
            (st = fits(&cp->d_new, &c->tree_d, x, i, "proof_d_new")))
            break;
        for (unsigned l = c->challenge_bits - c->partition_bits; l < c->challenge_bits && !st; l++)
            if (memcmp(cp->d_new.elems[l].hashes[0], p->challenges[0].d_new.elems[l].hashes[0], 32))
                st = pm_error_set(x->err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                                  "partition %u challenge %u: proof_d_new.path[%u] (partition path) differs from "
                                  "challenge 0's",
                                  x->k, i, l);
    }
    return st;
}

/* ---------------------------------------------------------------- synthesis */
typedef struct {
    pm_bool kh[4 + FIL_UPDATE_NUM_HS]; /* partition bits, then the h_select bits */
    pm_var partition, comm_r_new, phi, root_r_old, root_r_new;
    pm_var apex[128];
    pm_bool *cbits; /* challenges x rand_bits generated bits */
} globals_t;

static pm_var alloc_dom(pm_cs *cs, const uint8_t *d, const ctx_t *x, int ch, const char *field, pm_status *st) {
    fr_t v = {{0}};
    if (d && !*st) *st = dom(&v, d, x, ch, field);
    return pm_cs_alloc(cs, &v);
}

/* alloc v = Σ coef_i·x_i + k·ONE and enforce A = that sum, B = ONE, C = v */
static pm_var alloc_sum(pm_cs *cs, const pm_var *xs, const fr_t *coefs, unsigned n, const fr_t *kone) {
    fr_t s = {{0}}, t;
    for (unsigned i = 0; i < n; i++) {
        pm_cs_value(&t, cs, xs[i]);
        if (coefs) fr_mul(&t, &t, &coefs[i]);
        fr_add(&s, &s, &t);
    }
    if (kone) fr_add(&s, &s, kone);
    pm_var v = pm_cs_alloc(cs, &s);
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(A, 8);
        PM_LC_STACK(B, 1);
        PM_LC_STACK(C, 1);
        for (unsigned i = 0; i < n; i++) pm_lc_push(&A, xs[i], coefs ? &coefs[i] : &FR_ONE);
        if (kone) pm_lc_push(&A, PM_VAR_ONE, kone);
        pm_lc_push(&B, PM_VAR_ONE, &FR_ONE);
        pm_lc_push(&C, v, &FR_ONE);
        pm_cs_enforce(cs, &A, &B, &C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
    return v;
}

static pm_status synth_global(pm_cs *cs, globals_t *g, const ctx_t *x, const fil_update_job_t *j, meter *m) {
    const fil_update_config_t *c = x->c;
    const fil_update_partition_proof_t *p = x->p;
    pm_status st = PM_OK;
    unsigned pb = c->partition_bits, nkh = pb + FIL_UPDATE_NUM_HS;
    /* public inputs */
    uint64_t khv = p ? ((uint64_t)x->k | ((uint64_t)c->h_select << pb)) : 0;
    fr_t v;
    fr_from_u64(&v, khv);
    pm_var kh = pm_cs_alloc(cs, &v);
    pm_num_inputize(cs, kh);
    for (unsigned b = 0; b < nkh; b++) g->kh[b] = pm_bit_alloc(cs, (int)((khv >> b) & 1));
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(A, 16);
        PM_LC_STACK(B, 1);
        PM_LC_STACK(C, 1);
        for (unsigned b = 0; b < nkh; b++) pm_lc_push(&A, g->kh[b].var, pm_fr_pow2(b));
        pm_lc_push(&B, PM_VAR_ONE, &FR_ONE);
        pm_lc_push(&C, kh, &FR_ONE);
        pm_cs_enforce(cs, &A, &B, &C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
    g->partition = pm_pack_bits(cs, g->kh, pb);
    pm_var comm_r_old = alloc_dom(cs, p ? j->comm_r_old : NULL, x, -1, "comm_r_old", &st);
    pm_num_inputize(cs, comm_r_old);
    pm_var comm_d_new = alloc_dom(cs, p ? j->comm_d_new : NULL, x, -1, "comm_d_new", &st);
    pm_num_inputize(cs, comm_d_new);
    g->comm_r_new = alloc_dom(cs, p ? j->comm_r_new : NULL, x, -1, "comm_r_new", &st);
    pm_num_inputize(cs, g->comm_r_new);
    m_end(m, PM_UPD_G_INPUTS);
    const fil_poseidon_t *gr = fil_poseidon_constants_gen_randomness();
    pm_var pre[2] = {comm_d_new, comm_r_old};
    g->phi = pm_poseidon(cs, gr, pre);
    m_end(m, PM_UPD_G_PHI);
    /* private inputs, the comm_r checks */
    pm_var comm_c = alloc_dom(cs, p ? p->comm_c : NULL, x, -1, "comm_c", &st);
    g->root_r_old = alloc_dom(cs, p ? p->challenges[0].r_old.root : NULL, x, -1, "challenge_proofs[0].proof_r_old.root", &st);
    g->root_r_new = alloc_dom(cs, p ? p->challenges[0].r_new.root : NULL, x, -1, "challenge_proofs[0].proof_r_new.root", &st);
    for (unsigned a = 0; a < c->apex_leaves; a++) g->apex[a] = alloc_dom(cs, p ? p->apex_leafs[a] : NULL, x, -1, "apex_leafs", &st);
    pm_var ppath[4];
    unsigned top = c->challenge_bits - pb;
    for (unsigned l = 0; l < pb; l++)
        ppath[l] = alloc_dom(cs, p ? p->challenges[0].d_new.elems[top + l].hashes[0] : NULL, x, -1, "partition path", &st);
    pre[0] = comm_c;
    pre[1] = g->root_r_old;
    pm_enforce_equal(cs, pm_poseidon(cs, fil_poseidon_constants(2), pre), comm_r_old);
    pre[1] = g->root_r_new;
    pm_enforce_equal(cs, pm_poseidon(cs, fil_poseidon_constants(2), pre), g->comm_r_new);
    m_end(m, PM_UPD_G_COMM_R);
    /* apex_por */
    pm_var row[128];
    memcpy(row, g->apex, c->apex_leaves * sizeof *row);
    for (unsigned w = c->apex_leaves; w > 1; w /= 2)
        for (unsigned q = 0; q < w / 2; q++) row[q] = pm_sha256_hash2_nums(cs, row[2 * q], row[2 * q + 1]);
    m_end(m, PM_UPD_G_APEX_TREE);
    unsigned ar2[4] = {2, 2, 2, 2};
    pm_por_no_challenge_input(cs, PM_POR_SHA256, g->kh, row[0], ppath, ar2, pb, comm_d_new);
    m_end(m, PM_UPD_G_PARTITION_PATH);
    /* gen_challenge_bits */
    unsigned got = 0, D = c->digests, rb = c->rand_bits;
    fr_t coef, kone;
    fr_from_u64(&coef, D);
    for (unsigned dj = 0; dj < D; dj++) {
        fr_from_u64(&kone, dj); /* j·ONE, kept with coefficient 0 for j = 0 as bellpepper does */
        pm_var di = alloc_sum(cs, &g->partition, &coef, 1, &kone);
        pre[0] = g->comm_r_new;
        pre[1] = di;
        pm_var digest = pm_poseidon(cs, gr, pre);
        pm_bool bits[255];
        pm_num_to_allocated_bits(bits, cs, digest);
        unsigned take = dj == D - 1 ? c->challenges - got : c->challenges_per_digest;
        for (unsigned q = 0; q < take; q++, got++) memcpy(&g->cbits[(size_t)got * rb], bits + q * rb, rb * sizeof *bits);
    }
    m_end(m, PM_UPD_G_CHALLENGE_BITS);
    return st;
}

static pm_status synth_challenge(pm_cs *cs, const globals_t *g, const ctx_t *x, unsigned i, pm_var *sib, meter *m) {
    const fil_update_config_t *c = x->c;
    const fil_update_challenge_proof_t *cp = x->p ? &x->p->challenges[i] : NULL;
    pm_status st = PM_OK;
    unsigned n = c->challenge_bits, pb = c->partition_bits, rb = c->rand_bits;
    pm_bool cb[40];
    memcpy(cb, &g->cbits[(size_t)i * rb], rb * sizeof *cb);
    memcpy(cb + rb, g->kh, pb * sizeof *cb);
    /* get_challenge_high_bits */
    pm_var orz[FIL_UPDATE_NUM_HS];
    for (unsigned q = 0; q < FIL_UPDATE_NUM_HS; q++) {
        unsigned h = c->hs[q];
        pm_var ch = pm_pack_bits(cs, cb + n - h, h);
        const pm_bool *sel = &g->kh[pb + q];
        fr_t v;
        pm_cs_value(&v, cs, ch);
        static const fr_t zero;
        orz[q] = pm_cs_alloc(cs, sel->val ? &v : &zero);
        if (pm_cs_recording(cs)) {
            PM_LC_STACK(A, 1);
            PM_LC_STACK(B, 1);
            PM_LC_STACK(C, 1);
            pm_lc_push(&A, ch, &FR_ONE);
            pm_lc_push(&B, sel->var, &FR_ONE);
            pm_lc_push(&C, orz[q], &FR_ONE);
            pm_cs_enforce(cs, &A, &B, &C);
        } else {
            pm_cs_enforce(cs, NULL, NULL, NULL);
        }
    }
    pm_var high = alloc_sum(cs, orz, NULL, FIL_UPDATE_NUM_HS, NULL);
    m_end(m, PM_UPD_G_HIGH_BITS);
    pm_var pre[2] = {g->phi, high};
    pm_var rho = pm_poseidon(cs, fil_poseidon_constants_gen_randomness(), pre);
    m_end(m, PM_UPD_G_RHO);
    /* label_r_new */
    pm_var lo = alloc_dom(cs, cp ? cp->r_old.leaf : NULL, x, (int)i, "proof_r_old.leaf", &st);
    pm_var ld = alloc_dom(cs, cp ? cp->d_new.leaf : NULL, x, (int)i, "proof_d_new.leaf", &st);
    pm_var prod = pm_num_mul(cs, ld, rho);
    pm_var two[2] = {lo, prod};
    pm_var ln = alloc_sum(cs, two, NULL, 2, NULL);
    if (cp && !st && pm_cs_witness(cs)) {
        fr_t got, want;
        pm_cs_value(&got, cs, ln);
        if ((st = dom(&want, cp->r_new.leaf, x, (int)i, "proof_r_new.leaf"))) return st;
        if (!fr_eq(&got, &want))
            return pm_error_set(x->err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                                "partition %u challenge %u: proof_r_new.leaf differs from proof_r_old.leaf + "
                                "proof_d_new.leaf * rho",
                                x->k, i);
    }
    m_end(m, PM_UPD_G_LABEL);
    /* tree R old, tree R new */
    const fil_tree_shape_t *tr = &c->tree_r;
    for (int which = 0; which < 2; which++) {
        const fil_merkle_proof_t *pp = cp ? (which ? &cp->r_new : &cp->r_old) : NULL;
        size_t s = 0;
        for (unsigned l = 0; l < tr->nlevels; l++)
            for (unsigned h = 0; h + 1 < tr->level_arity[l]; h++)
                sib[s++] = alloc_dom(cs, pp ? pp->elems[l].hashes[h] : NULL, x, (int)i,
                                     which ? "proof_r_new sibling" : "proof_r_old sibling", &st);
        pm_por_no_challenge_input(cs, PM_POR_POSEIDON, cb, which ? ln : lo, sib, tr->level_arity, tr->nlevels,
                                  which ? g->root_r_new : g->root_r_old);
        m_end(m, which ? PM_UPD_G_R_NEW : PM_UPD_G_R_OLD);
    }
    /* the apex leaf and tree D below it */
    unsigned below = n - pb - c->apex_bits;
    pm_var apex_leaf = pm_select(cs, g->apex, cb + below, c->apex_bits);
    m_end(m, PM_UPD_G_APEX_LEAF);
    unsigned ar2[40];
    for (unsigned l = 0; l < below; l++) {
        ar2[l] = 2;
        sib[l] = alloc_dom(cs, cp ? cp->d_new.elems[l].hashes[0] : NULL, x, (int)i, "proof_d_new sibling", &st);
    }
    pm_por_no_challenge_input(cs, PM_POR_SHA256, cb, ld, sib, ar2, below, apex_leaf);
    m_end(m, PM_UPD_G_D_PATH);
    return st;
}

static size_t sib_cap(const fil_update_config_t *c) {
    size_t s = c->challenge_bits;
    size_t r = 0;
    for (unsigned l = 0; l < c->tree_r.nlevels; l++) r += c->tree_r.level_arity[l] - 1;
    return s > r ? s : r;
}

static pm_status prepare(const fil_update_config_t *c, const fil_update_job_t *j, uint32_t k, ctx_t *x, pm_error *err) {
    x->c = c;
    x->p = NULL;
    x->k = k;
    x->err = err;
    if (!fil_poseidon_constants(2) || !fil_poseidon_constants(8) || !fil_poseidon_constants(4) ||
        !fil_poseidon_constants_gen_randomness())
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "Poseidon constants");
    if (!j) return PM_OK;
    if (k >= j->vanilla.n)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "partition %u of %zu", k, j->vanilla.n);
    x->p = &j->vanilla.proofs[k];
    return check_shape(x);
}

static pm_status synth(pm_cs *cs, const fil_update_config_t *c, const fil_update_job_t *j, uint32_t k,
                       pm_update_stats *stats, segs_t *gsegs, segs_t *csegs, unsigned nch, pm_error *err) {
    if (stats) memset(stats, 0, sizeof *stats);
    ctx_t x;
    pm_status st = prepare(c, j, k, &x, err);
    if (st) return st;
    globals_t g;
    memset(&g, 0, sizeof g);
    g.cbits = malloc((size_t)c->challenges * c->rand_bits * sizeof *g.cbits);
    pm_var *sib = malloc(sib_cap(c) * sizeof *sib);
    if (!g.cbits || !sib) {
        free(g.cbits);
        free(sib);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis scratch");
    }
    meter m = {cs, stats, gsegs, 0, 0};
    m_begin(&m);
    st = synth_global(cs, &g, &x, j, &m);
    m.segs = csegs;
    for (unsigned i = 0; i < nch && !st; i++) {
        st = synth_challenge(cs, &g, &x, i, sib, &m);
        m.segs = NULL;
    }
    free(g.cbits);
    free(sib);
    if (!st && cs->oom) st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory during synthesis");
    return st;
}

pm_status pm_update_synthesize(pm_cs *cs, const fil_update_config_t *c, const fil_update_job_t *j, uint32_t k,
                               pm_update_stats *stats, pm_error *err) {
    return synth(cs, c, j, k, stats, NULL, NULL, c->challenges, err);
}

pm_status pm_update_record(r1cs_t *out, uint32_t *n_inputs, const fil_update_config_t *c, pm_error *err) {
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_RECORD);
    pm_status st = pm_update_synthesize(&cs, c, NULL, 0, NULL, err);
    if (!st) st = pm_cs_finish(&cs, out, NULL, err);
    if (!st && n_inputs) *n_inputs = cs.n_inputs;
    pm_cs_free(&cs);
    return st;
}

pm_status pm_update_record_size(uint64_t *rows, uint64_t nnz[3], const fil_update_config_t *c, pm_error *err) {
    uint64_t g_rows = 0, g_nnz[3] = {0};
    pm_status st = PM_OK;
    for (unsigned nch = 0; nch < 2 && !st; nch++) { /* the global part, then with one challenge */
        pm_cs cs;
        pm_cs_init(&cs, PM_CS_STATS);
        st = synth(&cs, c, NULL, 0, NULL, NULL, NULL, nch, err);
        if (!nch) {
            g_rows = cs.n_constraints;
            memcpy(g_nnz, cs.nnz, sizeof g_nnz);
        } else {
            *rows = g_rows + (cs.n_constraints - g_rows) * c->challenges;
            for (int k = 0; k < 3; k++) nnz[k] = g_nnz[k] + (cs.nnz[k] - g_nnz[k]) * c->challenges;
        }
        pm_cs_free(&cs);
    }
    return st;
}

pm_status pm_update_record_facts(pm_cs_facts *f, const fil_update_config_t *c, pm_error *err) {
    memset(f, 0, sizeof *f);
    pm_cs_facts part[2];
    pm_status st = PM_OK;
    for (unsigned nch = 1; nch <= 2 && !st; nch++) {
        pm_cs cs;
        pm_cs_init(&cs, PM_CS_STATS);
        st = synth(&cs, c, NULL, 0, NULL, NULL, NULL, nch < c->challenges ? nch : c->challenges, err);
        pm_cs_facts_of(&part[nch - 1], &cs);
        pm_cs_free(&cs);
    }
    if (!st) pm_cs_facts_extend(f, &part[0], &part[1], c->challenges);
    return st;
}

/* ---------------------------------------------------------------- counts (cached per size) */
typedef struct {
    uint64_t size;
    uint32_t in_g;
    uint64_t aux_g, aux_c, cons_g, cons_c;
    segs_t gsegs, csegs;
} counts_t;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static counts_t g_cache[10];
static unsigned g_n;

static pm_status counts(counts_t *out, const fil_update_config_t *c, pm_error *err) {
    pthread_mutex_lock(&g_mu);
    for (unsigned i = 0; i < g_n; i++)
        if (g_cache[i].size == c->sector_size) {
            *out = g_cache[i];
            pthread_mutex_unlock(&g_mu);
            return PM_OK;
        }
    pthread_mutex_unlock(&g_mu);
    counts_t r;
    memset(&r, 0, sizeof r);
    r.size = c->sector_size;
    /* global part alone, then global + one challenge */
    pm_cs cs;
    pm_cs_init(&cs, 0);
    pm_status st = synth(&cs, c, NULL, 0, NULL, &r.gsegs, NULL, 0, err);
    r.in_g = cs.n_inputs;
    r.aux_g = cs.n_aux;
    r.cons_g = cs.n_constraints;
    pm_cs_free(&cs);
    if (st) return st;
    segs_t dummy = {0};
    pm_cs_init(&cs, 0);
    st = synth(&cs, c, NULL, 0, NULL, &dummy, &r.csegs, 1, err);
    r.aux_c = cs.n_aux - r.aux_g;
    r.cons_c = cs.n_constraints - r.cons_g;
    if (!st && cs.n_inputs != r.in_g) st = pm_error_set(err, PM_ERR_INTERNAL, "", PM_NO_OFFSET, "challenge made inputs");
    pm_cs_free(&cs);
    if (st) return st;
    pthread_mutex_lock(&g_mu);
    if (g_n < 10) g_cache[g_n++] = r;
    pthread_mutex_unlock(&g_mu);
    *out = r;
    return PM_OK;
}

pm_status pm_update_witness_len(size_t *n_w, uint32_t *n_inputs, const fil_update_config_t *c, pm_error *err) {
    counts_t k;
    pm_status st = counts(&k, c, err);
    if (st) return st;
    *n_w = (size_t)(k.in_g + k.aux_g + k.aux_c * c->challenges);
    if (n_inputs) *n_inputs = k.in_g;
    return PM_OK;
}

pm_status pm_update_witness_into(fr_t *w, size_t cap, size_t *n_w, uint32_t *n_inputs, const fil_update_job_t *j,
                                 uint32_t k, unsigned threads, pm_error *err) {
    *n_w = 0;
    const fil_update_config_t *c = &j->cfg;
    counts_t ct;
    ctx_t x;
    pm_status st = counts(&ct, c, err);
    if (!st) st = prepare(c, j, k, &x, err);
    if (st) return st;
    uint64_t n = ct.in_g + ct.aux_g + ct.aux_c * c->challenges;
    if (!w || cap < n)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "witness buffer of %zu values, %llu needed", cap,
                            (unsigned long long)n);
    fr_t *aux = w + ct.in_g;
    globals_t g;
    memset(&g, 0, sizeof g);
    g.cbits = malloc((size_t)c->challenges * c->rand_bits * sizeof *g.cbits);
    if (!g.cbits) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis scratch");
    pm_cs cs;
    pm_cs_init_shared(&cs, w, 0, aux, 0);
    meter m = {&cs, NULL, NULL, 0, 0};
    m_begin(&m);
    st = synth_global(&cs, &g, &x, j, &m);
    if (!st && (cs.n_inputs != ct.in_g || cs.n_aux != ct.aux_g))
        st = pm_error_set(err, PM_ERR_INTERNAL, "", PM_NO_OFFSET, "global part shape changed");
    pm_cs_free(&cs);
    unsigned nch = c->challenges;
    pm_status *sts = calloc(nch, sizeof *sts);
    pm_error *errs = calloc(nch, sizeof *errs);
    if (!st && (!sts || !errs)) st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis state");
    if (!st) {
        int nt = threads ? (int)threads : omp_get_max_threads();
        size_t cap_s = sib_cap(c);
#pragma omp parallel num_threads(nt)
        {
            pm_var *sib = malloc(cap_s * sizeof *sib);
#pragma omp for schedule(dynamic, 1)
            for (unsigned i = 0; i < nch; i++) {
                if (!sib) {
                    sts[i] = pm_error_set(&errs[i], PM_ERR_NOMEM, "", PM_NO_OFFSET, "synthesis scratch");
                    continue;
                }
                ctx_t xi = x;
                xi.err = &errs[i];
                pm_cs ci;
                pm_cs_init_shared(&ci, w, ct.in_g, aux, ct.aux_g + (uint64_t)i * ct.aux_c);
                meter mi = {&ci, NULL, NULL, 0, 0};
                m_begin(&mi);
                sts[i] = synth_challenge(&ci, &g, &xi, i, sib, &mi);
                if (!sts[i] && (ci.n_inputs != 0 || ci.n_aux != ct.aux_c))
                    sts[i] = pm_error_set(&errs[i], PM_ERR_INTERNAL, "", PM_NO_OFFSET, "challenge %u shape changed", i);
                pm_cs_free(&ci);
            }
            free(sib);
        }
        for (unsigned i = 0; i < nch && !st; i++)
            if (sts[i]) {
                st = sts[i];
                if (err) *err = errs[i];
            }
    }
    free(sts);
    free(errs);
    free(g.cbits);
    if (st) return st;
    *n_w = (size_t)n;
    if (n_inputs) *n_inputs = ct.in_g;
    return PM_OK;
}

pm_status pm_update_public_inputs(fr_t *out, size_t n, const fil_update_job_t *j, uint32_t k, pm_error *err) {
    if (n != 4) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "%zu public inputs asked, the circuit has 4", n);
    return fil_update_public_inputs(out, &j->cfg, j->comm_r_old, j->comm_d_new, j->comm_r_new, k, err);
}

/* ---------------------------------------------------------------- locating rows */
int pm_update_locate(unsigned *gadget, unsigned *challenge, const fil_update_config_t *c, uint64_t row) {
    counts_t k;
    pm_error e;
    if (counts(&k, c, &e) || row >= k.cons_g + k.cons_c * c->challenges) return -1;
    const segs_t *sg = &k.gsegs;
    uint64_t r = row;
    *challenge = UINT32_MAX;
    if (r >= k.cons_g) {
        r -= k.cons_g;
        *challenge = (unsigned)(r / k.cons_c);
        r %= k.cons_c;
        sg = &k.csegs;
    }
    for (unsigned s = 0; s < sg->n; s++) {
        if (r < sg->cons[s]) {
            *gadget = sg->gadget[s];
            return 0;
        }
        r -= sg->cons[s];
    }
    return -1;
}

pm_status pm_update_unsatisfied(pm_error *err, const fil_update_config_t *c, uint32_t k, uint64_t row, uint64_t n_rows) {
    unsigned g, ch;
    char part[32] = "";
    if (k != UINT32_MAX) snprintf(part, sizeof part, "partition %u: ", k);
    if (pm_update_locate(&g, &ch, c, row))
        return pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET, "%sconstraint %llu of %llu not satisfied", part,
                            (unsigned long long)row, (unsigned long long)n_rows);
    if (ch == UINT32_MAX)
        return pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET, "%sconstraint %llu of %llu not satisfied (%s)",
                            part, (unsigned long long)row, (unsigned long long)n_rows, pm_update_gadget_name(g));
    return pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET,
                        "%sconstraint %llu of %llu not satisfied (challenge %u, %s)", part, (unsigned long long)row,
                        (unsigned long long)n_rows, ch, pm_update_gadget_name(g));
}

pm_status pm_update_check(uint64_t *first_bad, uint64_t *n_bad, const fil_update_job_t *j, uint32_t k, pm_error *err) {
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_WITNESS | PM_CS_CHECK);
    pm_status st = pm_update_synthesize(&cs, &j->cfg, j, k, NULL, err);
    *first_bad = cs.first_bad;
    *n_bad = cs.n_bad;
    uint64_t total = cs.n_constraints;
    pm_cs_free(&cs);
    if (!st && *n_bad) {
        pm_update_unsatisfied(err, &j->cfg, k, *first_bad, total);
        char msg[400];
        snprintf(msg, sizeof msg, "%.380s", err->msg);
        st = pm_error_set(err, PM_ERR_UNSATISFIED, "", PM_NO_OFFSET, "%s; %llu unsatisfied", msg,
                          (unsigned long long)*n_bad);
    }
    return st;
}
