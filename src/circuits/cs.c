/*
 * cs.c — the constraint-system builder (cs.h): variable allocation, linear combinations in
 * bellpepper's canonical form, CSR rows, the per-input constraints bellperson appends.
 */
#include "circuits/cs.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/parallel.h"

/* ---- constants ---- */
static fr_t pow2_tab[256];
static fr_t minus_one;
static pthread_once_t consts_once = PTHREAD_ONCE_INIT;

static void consts_build(void) {
    pow2_tab[0] = FR_ONE;
    for (unsigned i = 1; i < 256; i++) fr_dbl(&pow2_tab[i], &pow2_tab[i - 1]);
    fr_neg(&minus_one, &FR_ONE);
}
const fr_t *pm_fr_pow2(unsigned i) {
    pthread_once(&consts_once, consts_build);
    return &pow2_tab[i & 255];
}
const fr_t *pm_fr_minus_one(void) {
    pthread_once(&consts_once, consts_build);
    return &minus_one;
}

/* ---- linear combinations ---- */
void pm_lc_push(pm_lc *lc, pm_var v, const fr_t *coef) {
    if (lc->n == lc->cap) {
        uint32_t ncap = lc->cap ? lc->cap * 2 : 16;
        pm_term *nt = lc->heap ? realloc(lc->t, (size_t)ncap * sizeof *nt) : malloc((size_t)ncap * sizeof *nt);
        if (!nt) {
            lc->oom = 1;
            return;
        }
        if (!lc->heap && lc->n) memcpy(nt, lc->t, (size_t)lc->n * sizeof *nt);
        lc->t = nt;
        lc->cap = ncap;
        lc->heap = 1;
    }
    lc->t[lc->n].var = v;
    lc->t[lc->n].coef = *coef;
    lc->n++;
}

void pm_lc_add_lc(pm_lc *lc, const pm_lc *other, const fr_t *coef) {
    for (uint32_t i = 0; i < other->n; i++) {
        fr_t c;
        fr_mul(&c, &other->t[i].coef, coef);
        pm_lc_push(lc, other->t[i].var, &c);
    }
}

void pm_lc_free(pm_lc *lc) {
    if (lc->heap) free(lc->t);
    lc->t = NULL;
    lc->n = lc->cap = 0;
    lc->heap = 0;
}

/* Sort key: inputs (bit 31 set) before aux, each by index — bellpepper keeps the two lists apart
 * and the witness is [inputs ‖ aux], so this is also the final column order. */
static inline uint32_t term_key(pm_var v) { return v ^ PM_VAR_INPUT; }

static int term_cmp(const void *a, const void *b) {
    uint32_t x = term_key(((const pm_term *)a)->var), y = term_key(((const pm_term *)b)->var);
    return (x > y) - (x < y);
}

void pm_lc_canon(pm_lc *lc) {
    uint32_t n = lc->n;
    if (n < 2) return;
    pm_term *t = lc->t;
    if (n <= 16) { /* insertion sort (stable), the common case: 1-4 terms */
        for (uint32_t i = 1; i < n; i++) {
            pm_term x = t[i];
            uint32_t k = term_key(x.var), j = i;
            while (j > 0 && term_key(t[j - 1].var) > k) {
                t[j] = t[j - 1];
                j--;
            }
            t[j] = x;
        }
    } else {
        /* merge order of equal keys does not matter: addition is commutative */
        qsort(t, n, sizeof *t, term_cmp);
    }
    uint32_t w = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (w > 0 && t[w - 1].var == t[i].var) {
            fr_add(&t[w - 1].coef, &t[w - 1].coef, &t[i].coef);
        } else {
            t[w++] = t[i];
        }
    }
    lc->n = w;
}

/* ---- rows ---- */
static int rows_reserve(pm_cs_rows *r, uint64_t rows_needed, uint64_t nnz_needed) {
    if (rows_needed + 1 > r->cap_rows) {
        uint64_t nc = r->cap_rows ? r->cap_rows * 2 : 4096;
        while (nc < rows_needed + 1) nc *= 2;
        uint64_t *p = realloc(r->row_ptr, nc * sizeof *p);
        if (!p) return -1;
        if (!r->row_ptr) p[0] = 0;
        r->row_ptr = p;
        r->cap_rows = nc;
    }
    if (nnz_needed > r->cap_nnz) {
        uint64_t nc = r->cap_nnz ? r->cap_nnz * 2 : 16384;
        while (nc < nnz_needed) nc *= 2;
        uint32_t *c = realloc(r->col, nc * sizeof *c);
        if (!c) return -1;
        r->col = c;
        uint32_t *f = realloc(r->cidx, nc * sizeof *f);
        if (!f) return -1;
        r->cidx = f;
        r->cap_nnz = nc;
    }
    return 0;
}

/* ---- the coefficient dictionary ---- */
static uint32_t dict_hash(const fr_t *c) {
    uint64_t h = c->l[0] ^ (c->l[1] * 0x9e3779b97f4a7c15ULL) ^ (c->l[2] >> 7) ^ (c->l[3] * 0xc2b2ae3d27d4eb4fULL);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return (uint32_t)(h >> 32);
}

/* Index of c in the dictionary, inserting it when new; UINT32_MAX when out of memory. */
static uint32_t dict_index(pm_cs_dict *d, const fr_t *c) {
    if ((uint64_t)(d->n + 1) * 2 > d->n_slots) { /* grow + rehash: keep at most half full */
        uint32_t ns = d->n_slots ? d->n_slots * 2 : 4096;
        if (ns == 0) return UINT32_MAX; /* 2^32 slots: not representable */
        uint32_t *sl = calloc(ns, sizeof *sl);
        if (!sl) return UINT32_MAX;
        for (uint32_t i = 0; i < d->n; i++) {
            uint32_t h = dict_hash(&d->tab[i]) & (ns - 1);
            while (sl[h]) h = (h + 1) & (ns - 1);
            sl[h] = i + 1;
        }
        free(d->slot);
        d->slot = sl;
        d->n_slots = ns;
    }
    uint32_t h = dict_hash(c) & (d->n_slots - 1);
    while (d->slot[h]) {
        uint32_t i = d->slot[h] - 1;
        if (fr_eq(&d->tab[i], c)) return i;
        h = (h + 1) & (d->n_slots - 1);
    }
    if (d->n == d->cap) {
        uint32_t nc = d->cap ? d->cap * 2 : 1024;
        if (nc <= d->cap) return UINT32_MAX;
        fr_t *t = aligned_alloc(32, (size_t)nc * sizeof *t);
        if (!t) return UINT32_MAX;
        if (d->n) memcpy(t, d->tab, (size_t)d->n * sizeof *t);
        free(d->tab);
        d->tab = t;
        d->cap = nc;
    }
    d->tab[d->n] = *c;
    d->slot[h] = d->n + 1;
    return d->n++;
}

static void dict_free(pm_cs_dict *d) {
    free(d->tab);
    free(d->slot);
    memset(d, 0, sizeof *d);
}

static void rows_append(pm_cs *cs, pm_cs_rows *r, uint64_t row, pm_lc *lc) {
    uint32_t n = 0;
    if (lc) {
        pm_lc_canon(lc);
        n = lc->n;
        if (lc->oom) cs->oom = 1;
    }
    if (rows_reserve(r, row + 1, r->nnz + n)) {
        cs->oom = 1;
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t ci = dict_index(&cs->dict, &lc->t[i].coef);
        if (ci == UINT32_MAX) {
            cs->oom = 1;
            return;
        }
        r->col[r->nnz + i] = lc->t[i].var;
        r->cidx[r->nnz + i] = ci;
    }
    r->nnz += n;
    r->row_ptr[row + 1] = r->nnz;
}

/* ---- the system ---- */
static int grow_vals(fr_t **v, uint64_t *cap, uint64_t need) {
    if (need <= *cap) return 0;
    uint64_t nc = *cap ? *cap * 2 : 1024;
    while (nc < need) nc *= 2;
    fr_t *p = realloc(*v, nc * sizeof *p);
    if (!p) return -1;
    *v = p;
    *cap = nc;
    return 0;
}

/* ---- gadget templates (pm_cs_replay) ---- */
struct pm_cs_tpl {
    struct pm_cs_tpl *next;
    pm_cs_gadget_fn fn;
    const void *key;
    unsigned n_in;
    int unusable;        /* fn allocated an input or ran out of memory: never replayed */
    uint64_t n_rows, n_aux;
    pm_var out;          /* local variables: Input(0) = ONE, Aux j < n_in = in[j], Aux j >= n_in = new */
    uint64_t *ptr[3];    /* per matrix: n_rows + 1 term offsets */
    pm_var *var[3];
    fr_t *coef[3];
    uint32_t *cidx[3];   /* the coefficient's index in the owning system's dictionary; UINT32_MAX: not yet */
};

static void tpl_free_all(struct pm_cs_tpl *t) {
    while (t) {
        struct pm_cs_tpl *n = t->next;
        for (int m = 0; m < 3; m++) {
            free(t->ptr[m]);
            free(t->var[m]);
            free(t->coef[m]);
            free(t->cidx[m]);
        }
        free(t);
        t = n;
    }
}

/* fn recorded over stand-ins; a template marked unusable when it cannot be replayed, NULL out of memory */
static struct pm_cs_tpl *tpl_build(pm_cs_gadget_fn fn, const void *key, const void *ctx, unsigned n_in) {
    struct pm_cs_tpl *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->fn = fn;
    t->key = key;
    t->n_in = n_in;
    pm_cs sc;
    pm_cs_init(&sc, PM_CS_RECORD);
    pm_var in[PM_CS_REPLAY_MAX_IN];
    for (unsigned i = 0; i < n_in; i++) in[i] = pm_cs_alloc(&sc, NULL);
    t->out = fn(&sc, in, ctx);
    t->n_rows = sc.n_constraints;
    t->n_aux = sc.n_aux - n_in;
    t->unusable = sc.oom || sc.n_inputs != 1;
    pm_cs_rows *mr[3] = {&sc.A, &sc.B, &sc.C};
    for (int m = 0; m < 3 && !t->unusable; m++) {
        const pm_cs_rows *r = mr[m];
        uint64_t nnz = r->nnz;
        t->ptr[m] = malloc((t->n_rows + 1) * sizeof *t->ptr[m]);
        t->var[m] = malloc((nnz ? nnz : 1) * sizeof *t->var[m]);
        t->coef[m] = malloc((nnz ? nnz : 1) * sizeof *t->coef[m]);
        t->cidx[m] = malloc((nnz ? nnz : 1) * sizeof *t->cidx[m]);
        if (!t->ptr[m] || !t->var[m] || !t->coef[m] || !t->cidx[m]) {
            t->unusable = 1;
            break;
        }
        for (uint64_t k = 0; k <= t->n_rows; k++) t->ptr[m][k] = r->row_ptr ? r->row_ptr[k] : 0;
        for (uint64_t k = 0; k < nnz; k++) {
            t->var[m][k] = r->col[k];
            t->coef[m][k] = sc.dict.tab[r->cidx[k]];
            t->cidx[m][k] = UINT32_MAX;
        }
    }
    pm_cs_free(&sc);
    return t;
}

static inline pm_var tpl_map(pm_var v, const pm_var *in, unsigned n_in, uint64_t aux0) {
    if (pm_var_is_input(v)) return PM_VAR_ONE; /* the only input of a usable template */
    uint32_t j = pm_var_index(v);
    return j < n_in ? in[j] : (pm_var)(aux0 + (j - n_in));
}

/* row k of template matrix m, appended as row `row` of r: terms mapped; when in[] is not ascending,
 * the stand-ins' terms (contiguous in the template's canonical order) re-sorted; then each
 * coefficient's dictionary index, looked up in the final term order (first-appearance order) */
static int tpl_emit_row(pm_cs *cs, pm_cs_rows *r, uint64_t row, struct pm_cs_tpl *t, int m, uint64_t k,
                        const pm_var *in, uint64_t aux0, int sorted) {
    uint64_t lo = t->ptr[m][k], n = t->ptr[m][k + 1] - lo, base = r->nnz;
    if (rows_reserve(r, row + 1, base + n)) return -1;
    uint32_t seg0 = UINT32_MAX, seg1 = 0;
    for (uint64_t q = 0; q < n; q++) {
        pm_var lv = t->var[m][lo + q];
        r->col[base + q] = tpl_map(lv, in, t->n_in, aux0);
        r->cidx[base + q] = (uint32_t)(lo + q); /* the template term, until its index is known */
        if (!sorted && !pm_var_is_input(lv) && pm_var_index(lv) < t->n_in) {
            if (seg0 == UINT32_MAX) seg0 = (uint32_t)q;
            seg1 = (uint32_t)q + 1;
        }
    }
    if (seg0 != UINT32_MAX) /* insertion sort of the stand-ins' terms (at most n_in) */
        for (uint32_t i = seg0 + 1; i < seg1; i++) {
            uint32_t c = r->col[base + i], f = r->cidx[base + i], j = i;
            while (j > seg0 && term_key(r->col[base + j - 1]) > term_key(c)) {
                r->col[base + j] = r->col[base + j - 1];
                r->cidx[base + j] = r->cidx[base + j - 1];
                j--;
            }
            r->col[base + j] = c;
            r->cidx[base + j] = f;
        }
    for (uint64_t q = 0; q < n; q++) {
        uint32_t tt = r->cidx[base + q], ci = t->cidx[m][tt];
        if (ci == UINT32_MAX) {
            ci = dict_index(&cs->dict, &t->coef[m][tt]);
            if (ci == UINT32_MAX) return -1;
            t->cidx[m][tt] = ci;
        }
        r->cidx[base + q] = ci;
    }
    r->nnz = base + n;
    r->row_ptr[row + 1] = r->nnz;
    return 0;
}

int pm_cs_replay(pm_cs *cs, pm_var *out, pm_cs_gadget_fn fn, const void *key, const void *ctx, const pm_var *in,
                 unsigned n_in) {
    if (cs->flags != PM_CS_RECORD || cs->shared || cs->oom || n_in > PM_CS_REPLAY_MAX_IN) return 0;
    int sorted = 1;
    for (unsigned i = 0; i < n_in; i++) {
        if (in[i] == PM_VAR_ONE) return 0;
        for (unsigned j = 0; j < i; j++)
            if (in[j] == in[i]) return 0;
        if (i && term_key(in[i]) < term_key(in[i - 1])) sorted = 0;
    }
    struct pm_cs_tpl *t = cs->tpl;
    while (t && (t->fn != fn || t->key != key || t->n_in != n_in)) t = t->next;
    if (!t) {
        if (!(t = tpl_build(fn, key, ctx, n_in))) return 0;
        t->next = cs->tpl;
        cs->tpl = t;
    }
    if (t->unusable) return 0;
    uint64_t aux0 = cs->aux_base + cs->n_aux, row0 = cs->n_constraints;
    pm_cs_rows *mr[3] = {&cs->A, &cs->B, &cs->C};
    for (uint64_t k = 0; k < t->n_rows && !cs->oom; k++)
        for (int m = 0; m < 3; m++)
            if (tpl_emit_row(cs, mr[m], row0 + k, t, m, k, in, aux0, sorted)) {
                cs->oom = 1;
                break;
            }
    cs->n_aux += t->n_aux;
    cs->n_constraints += t->n_rows;
    *out = tpl_map(t->out, in, n_in, aux0);
    return 1;
}

void pm_cs_init(pm_cs *cs, unsigned flags) {
    memset(cs, 0, sizeof *cs);
    cs->flags = flags;
    cs->first_bad = UINT64_MAX;
    (void)pm_fr_pow2(0);
    if ((flags & (PM_CS_RECORD | PM_CS_STATS)) &&
        (dict_index(&cs->dict, &FR_ONE) != 0 || dict_index(&cs->dict, pm_fr_minus_one()) != 1))
        cs->oom = 1; /* entries 0 and 1 are 1 and -1 (r1cs_matrix_mul finds them either way) */
    pm_cs_alloc_input(cs, &FR_ONE);
}

void pm_cs_free(pm_cs *cs) {
    free(cs->a_aux_density);
    free(cs->b_aux_density);
    if (!cs->shared) {
        free(cs->in_val);
        free(cs->aux_val);
    }
    pm_cs_rows *m[3] = {&cs->A, &cs->B, &cs->C};
    for (int i = 0; i < 3; i++) {
        free(m[i]->row_ptr);
        free(m[i]->col);
        free(m[i]->cidx);
    }
    dict_free(&cs->dict);
    tpl_free_all(cs->tpl);
    memset(cs, 0, sizeof *cs);
}

void pm_cs_init_shared(pm_cs *cs, fr_t *in_val, uint32_t in_base, fr_t *aux_val, uint64_t aux_base) {
    memset(cs, 0, sizeof *cs);
    cs->flags = PM_CS_WITNESS;
    (void)pm_fr_pow2(0);
    cs->shared = 1;
    cs->in_val = in_val;
    cs->aux_val = aux_val;
    cs->in_base = in_base;
    cs->aux_base = aux_base;
    if (in_base == 0) pm_cs_alloc_input(cs, &FR_ONE);
}

void pm_cs_init_record_at(pm_cs *cs, uint32_t in_base, uint64_t aux_base) {
    pm_cs_init(cs, PM_CS_RECORD);
    cs->in_base = in_base;
    cs->aux_base = aux_base;
    if (in_base) cs->n_inputs = 0; /* ONE belongs to the part at 0 */
}

pm_status pm_cs_append_parts(pm_cs *dst, pm_cs *parts, size_t n, pm_error *err) {
    pm_status st = PM_OK;
    uint64_t rows = dst->n_constraints, nnz[3] = {dst->A.nnz, dst->B.nnz, dst->C.nnz};
    uint32_t **maps = calloc(n ? n : 1, sizeof *maps);
    uint64_t *row0 = malloc((n ? n : 1) * sizeof *row0), *nz0 = malloc((n ? n : 1) * 3 * sizeof *nz0);
    if (!maps || !row0 || !nz0) st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory appending parts");
    uint64_t in_at = dst->n_inputs, aux_at = dst->n_aux;
    /* serially: bases, counts, and each part's dictionary entered in order (first appearance) */
    for (size_t k = 0; k < n && !st; k++) {
        pm_cs *p = &parts[k];
        if (p->oom || dst->oom) {
            st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory during synthesis");
            break;
        }
        if (p->flags != PM_CS_RECORD || p->in_base != in_at || p->aux_base != aux_at) {
            st = pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "part %zu does not start where the system ends", k);
            break;
        }
        in_at += p->n_inputs;
        aux_at += p->n_aux;
        if (!(maps[k] = malloc((p->dict.n ? p->dict.n : 1) * sizeof *maps[k]))) {
            st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory appending parts");
            break;
        }
        for (uint32_t i = 0; i < p->dict.n && !st; i++)
            if ((maps[k][i] = dict_index(&dst->dict, &p->dict.tab[i])) == UINT32_MAX)
                st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory appending parts");
        row0[k] = rows;
        rows += p->n_constraints;
        pm_cs_rows *pr[3] = {&p->A, &p->B, &p->C};
        for (int m = 0; m < 3; m++) {
            nz0[3 * k + m] = nnz[m];
            nnz[m] += pr[m]->nnz;
        }
    }
    pm_cs_rows *dr[3] = {&dst->A, &dst->B, &dst->C};
    for (int m = 0; m < 3 && !st; m++)
        if (rows_reserve(dr[m], rows, nnz[m]))
            st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory appending parts");
    if (!st) {
        /* in parallel: each part's rows into its place */
        const int64_t np = (int64_t)n;
        PM_OMP(parallel for schedule(dynamic, 1))
        for (int64_t k = 0; k < np; k++) {
            pm_cs *p = &parts[k];
            pm_cs_rows *pr[3] = {&p->A, &p->B, &p->C};
            for (int m = 0; m < 3; m++) {
                pm_cs_rows *d = dr[m], *r = pr[m];
                uint64_t z = nz0[3 * k + m];
                for (uint64_t i = 0; i < p->n_constraints; i++) d->row_ptr[row0[k] + i + 1] = z + r->row_ptr[i + 1];
                if (r->nnz) memcpy(d->col + z, r->col, r->nnz * sizeof *r->col);
                for (uint64_t i = 0; i < r->nnz; i++) d->cidx[z + i] = maps[k][r->cidx[i]];
                free(r->row_ptr);
                free(r->col);
                free(r->cidx);
                memset(r, 0, sizeof *r);
            }
        }
        for (int m = 0; m < 3; m++) dr[m]->nnz = nnz[m];
        dst->n_constraints = rows;
        dst->n_inputs = (uint32_t)in_at;
        dst->n_aux = aux_at;
    } else {
        dst->oom = 1;
    }
    for (size_t k = 0; maps && k < n; k++) free(maps[k]);
    free(maps);
    free(row0);
    free(nz0);
    return st;
}

pm_var pm_cs_alloc(pm_cs *cs, const fr_t *v) {
    uint64_t j = cs->n_aux++;
    if (cs->flags == PM_CS_RECORD) return (pm_var)(j + cs->aux_base); /* record only: no value */
    if (cs->shared) {
        j += cs->aux_base;
        if (v) cs->aux_val[j] = *v;
        else memset(&cs->aux_val[j], 0, sizeof(fr_t));
        return (pm_var)j;
    }
    if (pm_cs_witness(cs)) {
        if (grow_vals(&cs->aux_val, &cs->aux_cap, j + 1)) {
            cs->oom = 1;
        } else if (v) {
            cs->aux_val[j] = *v;
        } else {
            memset(&cs->aux_val[j], 0, sizeof(fr_t));
        }
    }
    return (pm_var)j;
}

pm_var pm_cs_alloc_bit_value(pm_cs *cs, int bit) {
    static const fr_t zero;
    return pm_cs_alloc(cs, bit ? &FR_ONE : &zero);
}

pm_var pm_cs_alloc_input(pm_cs *cs, const fr_t *v) {
    uint32_t i = cs->n_inputs++;
    if (cs->flags == PM_CS_RECORD) return PM_VAR_INPUT | (i + cs->in_base);
    if (cs->shared) {
        i += cs->in_base;
        if (v) cs->in_val[i] = *v;
        else memset(&cs->in_val[i], 0, sizeof(fr_t));
        return PM_VAR_INPUT | i;
    }
    if (pm_cs_witness(cs)) {
        if (grow_vals(&cs->in_val, &cs->in_cap, (uint64_t)i + 1)) {
            cs->oom = 1;
        } else if (v) {
            cs->in_val[i] = *v;
        } else {
            memset(&cs->in_val[i], 0, sizeof(fr_t));
        }
    }
    return PM_VAR_INPUT | i;
}

void pm_cs_value(fr_t *out, const pm_cs *cs, pm_var v) {
    memset(out, 0, sizeof *out);
    if (!pm_cs_witness(cs) || cs->oom) return;
    uint32_t i = pm_var_index(v);
    if (cs->shared) { /* absolute indices into the caller's arrays */
        *out = pm_var_is_input(v) ? cs->in_val[i] : cs->aux_val[i];
        return;
    }
    if (pm_var_is_input(v)) {
        if (i < cs->n_inputs) *out = cs->in_val[i];
    } else if (i < cs->n_aux) {
        *out = cs->aux_val[i];
    }
}

uint64_t pm_bitmap_popcount(const uint64_t *bm, uint64_t nbits) {
    uint64_t n = 0;
    if (!bm) return 0;
    for (uint64_t w = 0; w < nbits / 64; w++) n += (uint64_t)__builtin_popcountll(bm[w]);
    if (nbits % 64) n += (uint64_t)__builtin_popcountll(bm[nbits / 64] & ((1ull << (nbits % 64)) - 1));
    return n;
}

void pm_cs_facts_of(pm_cs_facts *f, const pm_cs *cs) {
    memset(f, 0, sizeof *f);
    if (!(cs->flags & PM_CS_STATS)) return;
    f->constraints = cs->n_constraints;
    f->inputs = cs->n_inputs;
    f->aux = cs->n_aux;
    for (int k = 0; k < 3; k++) f->nnz[k] = cs->nnz[k];
    f->a_aux = pm_bitmap_popcount(cs->a_aux_density, cs->n_aux);
    f->b_input = pm_bitmap_popcount(cs->b_input_density, cs->n_inputs < 512 ? cs->n_inputs : 512);
    f->b_aux = pm_bitmap_popcount(cs->b_aux_density, cs->n_aux);
    f->n_coef = cs->dict.n;
}

void pm_cs_facts_extend(pm_cs_facts *f, const pm_cs_facts *one, const pm_cs_facts *two, uint64_t n) {
    const uint64_t k = n ? n - 1 : 0;
#define PM_FACT_(x) f->x = one->x + k * (two->x - one->x)
    PM_FACT_(constraints);
    PM_FACT_(inputs);
    PM_FACT_(aux);
    PM_FACT_(nnz[0]);
    PM_FACT_(nnz[1]);
    PM_FACT_(nnz[2]);
    PM_FACT_(a_aux);
    PM_FACT_(b_input);
    PM_FACT_(b_aux);
    PM_FACT_(n_coef);
#undef PM_FACT_
}

static int density_reserve(pm_cs *cs) {
    uint64_t need = (cs->n_aux + 63) / 64 + 1;
    if (need <= cs->density_words) return 0;
    uint64_t nw = cs->density_words ? cs->density_words * 2 : 1024;
    while (nw < need) nw *= 2;
    uint64_t *a = realloc(cs->a_aux_density, nw * 8), *b;
    if (!a) return -1;
    cs->a_aux_density = a;
    b = realloc(cs->b_aux_density, nw * 8);
    if (!b) return -1;
    cs->b_aux_density = b;
    memset(a + cs->density_words, 0, (nw - cs->density_words) * 8);
    memset(b + cs->density_words, 0, (nw - cs->density_words) * 8);
    cs->density_words = nw;
    return 0;
}

static void stats_lc(pm_cs *cs, int m, pm_lc *lc) {
    if (!lc) return;
    pm_lc_canon(lc);
    if (lc->oom) cs->oom = 1;
    cs->nnz[m] += lc->n;
    for (uint32_t i = 0; i < lc->n; i++) {
        /* the distinct coefficients recording would put in its dictionary (zeros included) */
        if (dict_index(&cs->dict, &lc->t[i].coef) == UINT32_MAX) cs->oom = 1;
        if (fr_is_zero(&lc->t[i].coef)) continue;
        cs->nnz_nonzero[m]++;
        pm_var v = lc->t[i].var;
        uint32_t j = pm_var_index(v);
        if (m == 0 && !pm_var_is_input(v)) cs->a_aux_density[j / 64] |= 1ull << (j % 64);
        if (m == 1) {
            if (pm_var_is_input(v)) {
                if (j < 512) cs->b_input_density[j / 64] |= 1ull << (j % 64);
            } else {
                cs->b_aux_density[j / 64] |= 1ull << (j % 64);
            }
        }
    }
}

static void lc_eval(fr_t *out, const pm_cs *cs, const pm_lc *lc) {
    memset(out, 0, sizeof *out);
    if (!lc) return;
    for (uint32_t i = 0; i < lc->n; i++) {
        fr_t v, t;
        pm_cs_value(&v, cs, lc->t[i].var);
        fr_mul(&t, &v, &lc->t[i].coef);
        fr_add(out, out, &t);
    }
}

void pm_cs_enforce(pm_cs *cs, pm_lc *a, pm_lc *b, pm_lc *c) {
    uint64_t row = cs->n_constraints++;
    if ((cs->flags & PM_CS_CHECK) && pm_cs_witness(cs) && !cs->oom) {
        fr_t va, vb, vc, ab;
        lc_eval(&va, cs, a);
        lc_eval(&vb, cs, b);
        lc_eval(&vc, cs, c);
        fr_mul(&ab, &va, &vb);
        if (!fr_eq(&ab, &vc)) {
            if (!cs->n_bad) cs->first_bad = row;
            cs->n_bad++;
        }
    }
    if ((cs->flags & PM_CS_STATS) && !cs->oom) {
        if (density_reserve(cs)) {
            cs->oom = 1;
        } else {
            stats_lc(cs, 0, a);
            stats_lc(cs, 1, b);
            stats_lc(cs, 2, c);
        }
    }
    if (!(cs->flags & PM_CS_RECORD) || cs->oom) return;
    rows_append(cs, &cs->A, row, a);
    rows_append(cs, &cs->B, row, b);
    rows_append(cs, &cs->C, row, c);
}

static void rows_finish(r1cs_matrix_t *m, pm_cs_rows *r, uint32_t n_rows, uint32_t n_inputs,
                        uint32_t n_cols, const fr_t *tab, uint32_t n_tab) {
    for (uint64_t k = 0; k < r->nnz; k++) {
        pm_var v = r->col[k];
        r->col[k] = pm_var_is_input(v) ? pm_var_index(v) : n_inputs + pm_var_index(v);
    }
    m->n_rows = n_rows;
    m->n_cols = n_cols;
    m->nnz = r->nnz;
    m->row_ptr = r->row_ptr;
    m->col = r->col;
    m->coef = NULL;
    m->coef_idx = r->cidx;
    m->coef_tab = tab;
    m->n_coef_tab = n_tab;
    memset(r, 0, sizeof *r);
}

pm_status pm_cs_finish(pm_cs *cs, r1cs_t *out, fr_t **witness, pm_error *err) {
    if (witness) *witness = NULL;
    if (cs->oom) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory during synthesis");
    uint64_t rows = cs->n_constraints, cols = (uint64_t)cs->n_inputs + cs->n_aux;
    if (rows >= UINT32_MAX || cols >= UINT32_MAX)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "system too large for u32 rows/columns");
    if (out) {
        if (!(cs->flags & PM_CS_RECORD))
            return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "system was not recorded");
        /* rows = the circuit's constraints only: bellperson's per-input rows (A = Input(i),
         * B = C = 0) are appended by the Groth16 layer (setup.h, prover_bellperson.h), as for a
         * circom system. A system without any constraint still gets row_ptr[0] = 0. */
        pm_cs_rows *mr[3] = {&cs->A, &cs->B, &cs->C};
        for (int k = 0; k < 3; k++)
            if (rows_reserve(mr[k], 0, 0)) cs->oom = 1;
        if (cs->oom) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory recording");
        memset(out, 0, sizeof *out);
        out->n_wires = (uint32_t)cols;
        out->n_pub_out = 0;
        out->n_pub_in = cs->n_inputs - 1;
        out->n_prv_in = 0;
        out->n_constraints = (uint32_t)rows;
        const fr_t *tab = cs->dict.tab;
        uint32_t n_tab = cs->dict.n;
        rows_finish(&out->A, &cs->A, (uint32_t)rows, cs->n_inputs, (uint32_t)cols, tab, n_tab);
        rows_finish(&out->B, &cs->B, (uint32_t)rows, cs->n_inputs, (uint32_t)cols, tab, n_tab);
        rows_finish(&out->C, &cs->C, (uint32_t)rows, cs->n_inputs, (uint32_t)cols, tab, n_tab);
        out->coef_tab_owned = cs->dict.tab;
        cs->dict.tab = NULL; /* moved into *out */
        cs->dict.n = cs->dict.cap = 0;
    }
    if (witness) {
        /* on failure here nothing is returned: *out (filled above) is freed again */
        if (!pm_cs_witness(cs)) {
            if (out) r1cs_free(out);
            return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "witness was not computed");
        }
        fr_t *w = aligned_alloc(32, ((cols * sizeof(fr_t)) + 31) & ~(size_t)31);
        if (!w) {
            if (out) r1cs_free(out);
            return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "witness of %llu values",
                                (unsigned long long)cols);
        }
        memcpy(w, cs->in_val, (size_t)cs->n_inputs * sizeof(fr_t));
        if (cs->n_aux) memcpy(w + cs->n_inputs, cs->aux_val, (size_t)cs->n_aux * sizeof(fr_t));
        *witness = w;
    }
    return PM_OK;
}
