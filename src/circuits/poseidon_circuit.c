/*
 * poseidon_circuit.c — neptune v11's legacy Poseidon circuit (src/circuit.rs `poseidon_hash`), the
 * one Filecoin's published parameters were generated with (POREP.md §6.3). Constants are ours
 * (src/filecoin/poseidon.h: compressed round constants, pre-sparse and sparse matrices).
 *
 * State elements are either allocated variables or "Num" linear combinations (no constraint).
 * Round 0: element 0 (the domain tag, a constant) goes through the S-box in the clear; elements
 * i >= 1: s2 = (x + C[i])^2, s4 = s2^2, r = s4·(x + C[i]) + C[t+i] (3 constraints). Later S-boxes:
 * ensure allocated (A = lc, B = ONE, C = v), x^2, x^4, r = x^4·x + k (k absent in the terminal
 * round). After each round's S-boxes the MDS (round 3: pre-sparse; partial rounds: sparse) product
 * is applied symbolically: out[j] = Σ_i M[i][j]·s[i]. Finally element 1 is ensured allocated.
 */
#include <stdlib.h>
#include <string.h>

#include "circuits/gadgets.h"

#define PMAX (FIL_POSEIDON_MAX_ARITY + 1)

typedef struct {
    int alloc;  /* 1: var; 0: Num (lc) */
    pm_var var;
    pm_lc lc;   /* Num terms (RECORD mode), merged as pushed */
    fr_t val;   /* WITNESS mode */
} elt;

static void lc_merge(pm_lc *lc, pm_var v, const fr_t *coef) {
    for (uint32_t i = 0; i < lc->n; i++)
        if (lc->t[i].var == v) {
            fr_add(&lc->t[i].coef, &lc->t[i].coef, coef);
            return;
        }
    pm_lc_push(lc, v, coef);
}

/* acc += s · e (as a Num) */
static void elt_add_scaled(pm_cs *cs, elt *acc, const elt *e, const fr_t *s) {
    if (pm_cs_witness(cs)) {
        fr_t t;
        fr_mul(&t, &e->val, s);
        fr_add(&acc->val, &acc->val, &t);
    }
    if (pm_cs_recording(cs)) {
        if (e->alloc) {
            lc_merge(&acc->lc, e->var, s);
        } else {
            for (uint32_t i = 0; i < e->lc.n; i++) {
                fr_t c;
                fr_mul(&c, &e->lc.t[i].coef, s);
                lc_merge(&acc->lc, e->lc.t[i].var, &c);
            }
        }
    }
}

static void elt_set_var(elt *e, pm_var v, const fr_t *val) {
    e->alloc = 1;
    e->var = v;
    e->lc.n = 0;
    if (val) e->val = *val;
}

static void elt_set_const(pm_cs *cs, elt *e, const fr_t *c) {
    e->alloc = 0;
    e->lc.n = 0;
    e->val = *c;
    if (pm_cs_recording(cs)) pm_lc_push(&e->lc, PM_VAR_ONE, c);
}

/* Elt::ensure_allocated(enforce = true) */
static pm_var ensure(pm_cs *cs, elt *e) {
    if (e->alloc) return e->var;
    pm_var v = pm_cs_alloc(cs, &e->val);
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(B, 1);
        PM_LC_STACK(C, 1);
        pm_lc_push(&B, PM_VAR_ONE, &FR_ONE);
        pm_lc_push(&C, v, &FR_ONE);
        pm_cs_enforce(cs, &e->lc, &B, &C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
    elt_set_var(e, v, NULL);
    return v;
}

/* A = x (+ pre·ONE) on both sides (square_sum) or A = x, B = x (square). */
static pm_var square_gadget(pm_cs *cs, pm_var x, const fr_t *xval, const fr_t *pre, fr_t *out_val) {
    fr_t v = {{0}};
    if (pm_cs_witness(cs)) {
        fr_t t = *xval;
        if (pre) fr_add(&t, &t, pre);
        fr_sqr(&v, &t);
    }
    pm_var r = pm_cs_alloc(cs, &v);
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(A, 2);
        PM_LC_STACK(B, 2);
        PM_LC_STACK(C, 1);
        pm_lc_push(&A, x, &FR_ONE);
        pm_lc_push(&B, x, &FR_ONE);
        if (pre) {
            pm_lc_push(&A, PM_VAR_ONE, pre);
            pm_lc_push(&B, PM_VAR_ONE, pre);
        }
        pm_lc_push(&C, r, &FR_ONE);
        pm_cs_enforce(cs, &A, &B, &C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
    *out_val = v;
    return r;
}

/* mul_sum(a = l4, b = l, pre, post): r = l4·(l + pre) + post; A = l (+ pre·ONE), B = l4,
 * C = r (− post·ONE). */
static pm_var mul_sum(pm_cs *cs, pm_var l4, const fr_t *l4v, pm_var l, const fr_t *lv, const fr_t *pre,
                      const fr_t *post, fr_t *out_val) {
    fr_t v = {{0}};
    if (pm_cs_witness(cs)) {
        fr_t t = *lv;
        if (pre) fr_add(&t, &t, pre);
        fr_mul(&v, &t, l4v);
        if (post) fr_add(&v, &v, post);
    }
    pm_var r = pm_cs_alloc(cs, &v);
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(A, 2);
        PM_LC_STACK(B, 1);
        PM_LC_STACK(C, 2);
        pm_lc_push(&A, l, &FR_ONE);
        if (pre) pm_lc_push(&A, PM_VAR_ONE, pre);
        pm_lc_push(&B, l4, &FR_ONE);
        pm_lc_push(&C, r, &FR_ONE);
        if (post) {
            fr_t n;
            fr_neg(&n, post);
            pm_lc_push(&C, PM_VAR_ONE, &n);
        }
        pm_cs_enforce(cs, &A, &B, &C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
    *out_val = v;
    return r;
}

/* quintic S-box on e (ensure first), optional pre (round 0 only) and post constants */
static void sbox(pm_cs *cs, elt *e, const fr_t *pre, const fr_t *post) {
    pm_var l = ensure(cs, e);
    fr_t lv = e->val, l2v, l4v, l5v;
    pm_var l2 = square_gadget(cs, l, &lv, pre, &l2v);
    pm_var l4 = square_gadget(cs, l2, &l2v, NULL, &l4v);
    pm_var l5 = mul_sum(cs, l4, &l4v, l, &lv, pre, post, &l5v);
    elt_set_var(e, l5, &l5v);
}

static void product_matrix(pm_cs *cs, elt *s, elt *tmp, unsigned t, const fr_t *m) {
    for (unsigned j = 0; j < t; j++) {
        tmp[j].alloc = 0;
        tmp[j].lc.n = 0;
        memset(&tmp[j].val, 0, sizeof(fr_t));
        for (unsigned i = 0; i < t; i++) elt_add_scaled(cs, &tmp[j], &s[i], &m[i * t + j]);
    }
    for (unsigned j = 0; j < t; j++) { /* swap contents (keep each lc buffer owned once) */
        elt x = s[j];
        s[j] = tmp[j];
        tmp[j] = x;
    }
}

static void product_sparse(pm_cs *cs, elt *s, elt *tmp, unsigned t, const fr_t *w_hat, const fr_t *v_rest) {
    tmp[0].alloc = 0;
    tmp[0].lc.n = 0;
    memset(&tmp[0].val, 0, sizeof(fr_t));
    for (unsigned i = 0; i < t; i++) elt_add_scaled(cs, &tmp[0], &s[i], &w_hat[i]);
    for (unsigned j = 1; j < t; j++) {
        tmp[j].alloc = 0;
        tmp[j].lc.n = 0;
        memset(&tmp[j].val, 0, sizeof(fr_t));
        elt_add_scaled(cs, &tmp[j], &s[j], &FR_ONE);
        elt_add_scaled(cs, &tmp[j], &s[0], &v_rest[j - 1]);
    }
    for (unsigned j = 0; j < t; j++) {
        elt x = s[j];
        s[j] = tmp[j];
        tmp[j] = x;
    }
}

static pm_var poseidon_synth(pm_cs *cs, const fil_poseidon_t *c, const pm_var *in) {
    unsigned t = c->t, half = c->rf / 2;
    elt s[PMAX], tmp[PMAX];
    memset(s, 0, sizeof s);
    memset(tmp, 0, sizeof tmp);
    const fr_t *crc = c->crc;
    size_t off = 0;
    unsigned round = 0;

    /* initial state: tag as a constant Num, the preimage allocated */
    elt_set_const(cs, &s[0], &c->domain_tag);
    for (unsigned i = 1; i < t; i++) {
        fr_t v;
        pm_cs_value(&v, cs, in[i - 1]);
        elt_set_var(&s[i], in[i - 1], &v);
    }

    /* first full round: pre keys crc[0..t), post keys crc[t..2t) */
    {
        const fr_t *pre = crc + off, *post = crc + off + t;
        off += 2 * (size_t)t;
        fr_t x;
        fr_add(&x, &c->domain_tag, &pre[0]);
        fr_t x2, x4;
        fr_sqr(&x2, &x);
        fr_sqr(&x4, &x2);
        fr_mul(&x, &x4, &x);
        fr_add(&x, &x, &post[0]);
        elt_set_const(cs, &s[0], &x);
        for (unsigned i = 1; i < t; i++) sbox(cs, &s[i], &pre[i], &post[i]);
    }
#define PRODUCT()                                                                                  \
    do {                                                                                           \
        if (round == half - 1) product_matrix(cs, s, tmp, t, c->pre_sparse);                       \
        else if (round > half - 1 && round < half + c->rp)                                         \
            product_sparse(cs, s, tmp, t, c->w_hat + (size_t)(round - half) * t,                   \
                           c->v_rest + (size_t)(round - half) * (t - 1));                          \
        else product_matrix(cs, s, tmp, t, c->mds);                                                \
        round++;                                                                                   \
    } while (0)
    PRODUCT();
    for (unsigned r = 1; r < half; r++) {
        const fr_t *post = crc + off;
        off += t;
        for (unsigned i = 0; i < t; i++) sbox(cs, &s[i], NULL, &post[i]);
        PRODUCT();
    }
    for (unsigned r = 0; r < c->rp; r++) {
        const fr_t *post = crc + off;
        off += 1;
        sbox(cs, &s[0], NULL, post);
        PRODUCT();
    }
    for (unsigned r = 0; r + 1 < half; r++) {
        const fr_t *post = crc + off;
        off += t;
        for (unsigned i = 0; i < t; i++) sbox(cs, &s[i], NULL, &post[i]);
        PRODUCT();
    }
    for (unsigned i = 0; i < t; i++) sbox(cs, &s[i], NULL, NULL);
    PRODUCT();
#undef PRODUCT
    pm_var out = ensure(cs, &s[1]);
    for (unsigned i = 0; i < t; i++) {
        pm_lc_free(&s[i].lc);
        pm_lc_free(&tmp[i].lc);
    }
    return out;
}

static pm_var poseidon_gadget(pm_cs *cs, const pm_var *in, const void *ctx) { return poseidon_synth(cs, ctx, in); }

/* Recording only, the hash is replayed from one recording per constant set (cs.h pm_cs_replay): its
 * rows depend on the constants, not on the inputs' indices. Synthesized otherwise. */
pm_var pm_poseidon(pm_cs *cs, const fil_poseidon_t *c, const pm_var *in) {
    pm_var out;
    if (pm_cs_replay(cs, &out, poseidon_gadget, c, c, in, c->t - 1)) return out;
    return poseidon_synth(cs, c, in);
}
