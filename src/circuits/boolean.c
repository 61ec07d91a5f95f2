/*
 * boolean.c — Boolean / AllocatedBit (bellpepper-core 0.2.1 boolean.rs), UInt32 and MultiEq
 * (bellperson 0.27 uint32.rs, multieq.rs) and the SHA-256 gadget (bellperson sha256.rs), as
 * described in POREP.md §6.3. Only the shapes are taken from those files; the code is ours.
 *
 * Cost: every constraint is one pm_cs_enforce; in count/witness mode no linear combination is
 * built (the `rec` branches), so a 20-block SHA-256 is a few hundred thousand cheap steps.
 */
#include <string.h>

#include "circuits/gadgets.h"


/* ---- Boolean ---- */
void pm_lc_add_bool(pm_lc *lc, const pm_bool *b, const fr_t *coef) {
    switch (b->kind) {
    case PM_B_CONST:
        if (b->val) pm_lc_push(lc, PM_VAR_ONE, coef);
        break;
    case PM_B_IS:
        pm_lc_push(lc, b->var, coef);
        break;
    default: {
        fr_t n;
        fr_neg(&n, coef);
        pm_lc_push(lc, PM_VAR_ONE, coef);
        pm_lc_push(lc, b->var, &n);
    }
    }
}

pm_bool pm_bit_alloc(pm_cs *cs, int v) {
    pm_bool b = {PM_B_IS, (uint8_t)(v != 0), 0};
    b.var = pm_cs_alloc_bit_value(cs, b.val);
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(A, 2);
        PM_LC_STACK(B, 1);
        pm_lc_push(&A, PM_VAR_ONE, &FR_ONE);
        pm_lc_push(&A, b.var, pm_fr_minus_one());
        pm_lc_push(&B, b.var, &FR_ONE);
        pm_cs_enforce(cs, &A, &B, NULL);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
    return b;
}

/* value of the underlying variable of an IS/NOT Boolean */
static inline int var_val(pm_bool b) { return b.kind == PM_B_NOT ? !b.val : b.val; }

/* AllocatedBit::xor: r = a ^ b; A = 2a, B = b, C = a + b - r. */
static pm_bool abit_xor(pm_cs *cs, pm_bool a, pm_bool b) {
    pm_bool r = {PM_B_IS, (uint8_t)(var_val(a) ^ var_val(b)), 0};
    r.var = pm_cs_alloc_bit_value(cs, r.val);
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(A, 1);
        PM_LC_STACK(B, 1);
        PM_LC_STACK(C, 3);
        pm_lc_push(&A, a.var, pm_fr_pow2(1));
        pm_lc_push(&B, b.var, &FR_ONE);
        pm_lc_push(&C, a.var, &FR_ONE);
        pm_lc_push(&C, b.var, &FR_ONE);
        pm_lc_push(&C, r.var, pm_fr_minus_one());
        pm_cs_enforce(cs, &A, &B, &C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
    return r;
}

/* AllocatedBit::and (na = nb = 0), and_not (a ∧ ¬b: nb = 1), nor (na = nb = 1): the factors are
 * (ONE −) a and (ONE −) b; C = r. */
static pm_bool abit_and_gen(pm_cs *cs, pm_var a, int va, int na, pm_var b, int vb, int nb) {
    int x = na ? !va : va, y = nb ? !vb : vb;
    pm_bool r = {PM_B_IS, (uint8_t)(x & y), 0};
    r.var = pm_cs_alloc_bit_value(cs, r.val);
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(A, 2);
        PM_LC_STACK(B, 2);
        PM_LC_STACK(C, 1);
        if (na) {
            pm_lc_push(&A, PM_VAR_ONE, &FR_ONE);
            pm_lc_push(&A, a, pm_fr_minus_one());
        } else {
            pm_lc_push(&A, a, &FR_ONE);
        }
        if (nb) {
            pm_lc_push(&B, PM_VAR_ONE, &FR_ONE);
            pm_lc_push(&B, b, pm_fr_minus_one());
        } else {
            pm_lc_push(&B, b, &FR_ONE);
        }
        pm_lc_push(&C, r.var, &FR_ONE);
        pm_cs_enforce(cs, &A, &B, &C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
    return r;
}

pm_bool pm_bit_nor(pm_cs *cs, pm_bool a, pm_bool b) {
    return abit_and_gen(cs, a.var, var_val(a), 1, b.var, var_val(b), 1);
}
pm_bool pm_bit_and(pm_cs *cs, pm_bool a, pm_bool b) {
    return abit_and_gen(cs, a.var, var_val(a), 0, b.var, var_val(b), 0);
}

pm_bool pm_bool_xor(pm_cs *cs, pm_bool a, pm_bool b) {
    if (a.kind == PM_B_CONST && !a.val) return b;
    if (b.kind == PM_B_CONST && !b.val) return a;
    if (a.kind == PM_B_CONST) return pm_bool_not(b);
    if (b.kind == PM_B_CONST) return pm_bool_not(a);
    if (a.kind != b.kind) {
        /* Is ^ Not = Not(Is ^ Is) */
        pm_bool is = a.kind == PM_B_IS ? a : b, nt = a.kind == PM_B_IS ? b : a;
        return pm_bool_not(abit_xor(cs, is, pm_bool_not(nt)));
    }
    return abit_xor(cs, a, b); /* Is^Is, or Not^Not = Is^Is of the variables */
}

pm_bool pm_bool_and(pm_cs *cs, pm_bool a, pm_bool b) {
    if ((a.kind == PM_B_CONST && !a.val) || (b.kind == PM_B_CONST && !b.val)) return pm_bool_const(0);
    if (a.kind == PM_B_CONST) return b;
    if (b.kind == PM_B_CONST) return a;
    if (a.kind == PM_B_IS && b.kind == PM_B_NOT)
        return abit_and_gen(cs, a.var, var_val(a), 0, b.var, var_val(b), 1);
    if (a.kind == PM_B_NOT && b.kind == PM_B_IS)
        return abit_and_gen(cs, b.var, var_val(b), 0, a.var, var_val(a), 1);
    if (a.kind == PM_B_NOT) return abit_and_gen(cs, a.var, var_val(a), 1, b.var, var_val(b), 1);
    return abit_and_gen(cs, a.var, var_val(a), 0, b.var, var_val(b), 0);
}

static inline int is_const(pm_bool b, int v) { return b.kind == PM_B_CONST && b.val == v; }

pm_bool pm_bool_sha256_ch(pm_cs *cs, pm_bool a, pm_bool b, pm_bool c) {
    int chv = (a.val & b.val) ^ ((!a.val) & c.val);
    if (a.kind == PM_B_CONST && b.kind == PM_B_CONST && c.kind == PM_B_CONST) return pm_bool_const(chv);
    if (is_const(a, 0)) return c;
    if (is_const(b, 0)) return pm_bool_and(cs, pm_bool_not(a), c);
    if (is_const(c, 0)) return pm_bool_and(cs, a, b);
    if (is_const(c, 1)) return pm_bool_not(pm_bool_and(cs, a, pm_bool_not(b)));
    if (is_const(b, 1)) return pm_bool_not(pm_bool_and(cs, pm_bool_not(a), pm_bool_not(c)));
    /* general case (also a = true): ch allocated without booleanity; A = b - c, B = a, C = ch - c */
    pm_bool r = {PM_B_IS, (uint8_t)chv, 0};
    r.var = pm_cs_alloc_bit_value(cs, chv);
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(A, 4);
        PM_LC_STACK(B, 2);
        PM_LC_STACK(C, 3);
        pm_lc_add_bool(&A, &b, &FR_ONE);
        pm_lc_add_bool(&A, &c, pm_fr_minus_one());
        pm_lc_add_bool(&B, &a, &FR_ONE);
        pm_lc_push(&C, r.var, &FR_ONE);
        pm_lc_add_bool(&C, &c, pm_fr_minus_one());
        pm_cs_enforce(cs, &A, &B, &C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
    return r;
}

pm_bool pm_bool_sha256_maj(pm_cs *cs, pm_bool a, pm_bool b, pm_bool c) {
    int mv = (a.val & b.val) ^ (a.val & c.val) ^ (b.val & c.val);
    if (a.kind == PM_B_CONST && b.kind == PM_B_CONST && c.kind == PM_B_CONST) return pm_bool_const(mv);
    if (is_const(a, 0)) return pm_bool_and(cs, b, c);
    if (is_const(b, 0)) return pm_bool_and(cs, a, c);
    if (is_const(c, 0)) return pm_bool_and(cs, a, b);
    if (is_const(c, 1)) return pm_bool_not(pm_bool_and(cs, pm_bool_not(a), pm_bool_not(b)));
    if (is_const(b, 1)) return pm_bool_not(pm_bool_and(cs, pm_bool_not(a), pm_bool_not(c)));
    if (is_const(a, 1)) return pm_bool_not(pm_bool_and(cs, pm_bool_not(b), pm_bool_not(c)));
    /* general: maj allocated first, then bc = b ∧ c, then A = 2bc - b - c, B = a, C = bc - maj */
    pm_bool r = {PM_B_IS, (uint8_t)mv, 0};
    r.var = pm_cs_alloc_bit_value(cs, mv);
    pm_bool bc = pm_bool_and(cs, b, c);
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(A, 8);
        PM_LC_STACK(B, 2);
        PM_LC_STACK(C, 3);
        pm_lc_add_bool(&A, &bc, &FR_ONE);
        pm_lc_add_bool(&A, &bc, &FR_ONE);
        pm_lc_add_bool(&A, &b, pm_fr_minus_one());
        pm_lc_add_bool(&A, &c, pm_fr_minus_one());
        pm_lc_add_bool(&B, &a, &FR_ONE);
        pm_lc_add_bool(&C, &bc, &FR_ONE);
        pm_lc_push(&C, r.var, pm_fr_minus_one());
        pm_cs_enforce(cs, &A, &B, &C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
    return r;
}

/* ---- UInt32 ---- */
pm_u32 pm_u32_const(uint32_t v) {
    pm_u32 x;
    for (int i = 0; i < 32; i++) x.b[i] = pm_bool_const((v >> i) & 1);
    x.val = v;
    return x;
}

static uint32_t u32_value(const pm_u32 *x) {
    uint32_t v = 0;
    for (int i = 0; i < 32; i++) v |= (uint32_t)x->b[i].val << i;
    return v;
}

pm_u32 pm_u32_from_bits_be(const pm_bool *bits) {
    pm_u32 x;
    for (int i = 0; i < 32; i++) x.b[i] = bits[31 - i];
    x.val = u32_value(&x);
    return x;
}

void pm_u32_to_bits_be(pm_bool *bits, const pm_u32 *x) {
    for (int i = 0; i < 32; i++) bits[i] = x->b[31 - i];
}

pm_u32 pm_u32_rotr(const pm_u32 *x, unsigned by) {
    pm_u32 r;
    by &= 31;
    for (unsigned i = 0; i < 32; i++) r.b[i] = x->b[(i + by) & 31];
    r.val = (x->val >> by) | (by ? x->val << (32 - by) : 0);
    return r;
}

pm_u32 pm_u32_shr(const pm_u32 *x, unsigned by) {
    pm_u32 r;
    for (unsigned i = 0; i < 32; i++) r.b[i] = i + by < 32 ? x->b[i + by] : pm_bool_const(0);
    r.val = by < 32 ? x->val >> by : 0;
    return r;
}

pm_u32 pm_u32_xor(pm_cs *cs, const pm_u32 *a, const pm_u32 *b) {
    pm_u32 r;
    for (int i = 0; i < 32; i++) r.b[i] = pm_bool_xor(cs, a->b[i], b->b[i]);
    r.val = a->val ^ b->val;
    return r;
}

pm_u32 pm_u32_sha256_ch(pm_cs *cs, const pm_u32 *a, const pm_u32 *b, const pm_u32 *c) {
    pm_u32 r;
    for (int i = 0; i < 32; i++) r.b[i] = pm_bool_sha256_ch(cs, a->b[i], b->b[i], c->b[i]);
    r.val = (a->val & b->val) ^ (~a->val & c->val);
    return r;
}

pm_u32 pm_u32_sha256_maj(pm_cs *cs, const pm_u32 *a, const pm_u32 *b, const pm_u32 *c) {
    pm_u32 r;
    for (int i = 0; i < 32; i++) r.b[i] = pm_bool_sha256_maj(cs, a->b[i], b->b[i], c->b[i]);
    r.val = (a->val & b->val) ^ (a->val & c->val) ^ (b->val & c->val);
    return r;
}

/* ---- MultiEq ---- */
#define FR_CAPACITY 254u

void pm_multieq_begin(pm_multieq *m, pm_cs *cs) {
    memset(m, 0, sizeof *m);
    m->cs = cs;
}

static void multieq_emit(pm_multieq *m) {
    if (pm_cs_recording(m->cs)) {
        PM_LC_STACK(B, 1);
        pm_lc_push(&B, PM_VAR_ONE, &FR_ONE);
        pm_cs_enforce(m->cs, &m->lhs, &B, &m->rhs);
        pm_lc_clear(&m->lhs);
        pm_lc_clear(&m->rhs);
    } else {
        pm_cs_enforce(m->cs, NULL, NULL, NULL);
    }
    m->bits_used = 0;
}

void pm_multieq_end(pm_multieq *m) {
    if (m->bits_used > 0) multieq_emit(m);
    pm_lc_free(&m->lhs);
    pm_lc_free(&m->rhs);
}

pm_u32 pm_u32_addmany(pm_multieq *m, const pm_u32 *ops, size_t n) {
    pm_cs *cs = m->cs;
    int all_const = 1;
    uint64_t sum = 0;
    for (size_t k = 0; k < n; k++) {
        sum += ops[k].val;
        for (int i = 0; i < 32 && all_const; i++) all_const &= ops[k].b[i].kind == PM_B_CONST;
    }
    if (all_const) return pm_u32_const((uint32_t)sum);
    uint64_t maxv = (uint64_t)n * 0xFFFFFFFFull;
    unsigned nbits = 0;
    pm_bool res[64];
    while (maxv) {
        res[nbits] = pm_bit_alloc(cs, (int)((sum >> nbits) & 1));
        maxv >>= 1;
        nbits++;
    }
    if (FR_CAPACITY <= m->bits_used + nbits) multieq_emit(m);
    if (pm_cs_recording(cs)) {
        unsigned sh = m->bits_used;
        for (size_t k = 0; k < n; k++)
            for (unsigned i = 0; i < 32; i++) pm_lc_add_bool(&m->lhs, &ops[k].b[i], pm_fr_pow2(sh + i));
        for (unsigned i = 0; i < nbits; i++) pm_lc_push(&m->rhs, res[i].var, pm_fr_pow2(sh + i));
    }
    m->bits_used += nbits;
    pm_u32 r;
    memcpy(r.b, res, sizeof r.b);
    r.val = (uint32_t)sum;
    return r;
}

/* ---- SHA-256 ---- */
static const uint32_t SHA256_K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
static const uint32_t SHA256_IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

/* A register of the compression: concrete, or a deferred sum (operands kept until needed). */
typedef struct {
    int deferred;
    size_t n;
    pm_u32 v[8]; /* concrete: v[0]; deferred: operands (at most 7 + 1 extra) */
} maybe_u32;

static pm_u32 maybe_compute(pm_multieq *m, maybe_u32 *x, const pm_u32 *extra) {
    if (!x->deferred) return x->v[0];
    if (extra) x->v[x->n++] = *extra;
    return pm_u32_addmany(m, x->v, x->n);
}

void pm_sha256_compress(pm_u32 *out, pm_cs *cs, const pm_bool *block, const pm_u32 *state) {
    pm_u32 w[64];
    for (int i = 0; i < 16; i++) w[i] = pm_u32_from_bits_be(block + 32 * i);
    pm_multieq m;
    pm_multieq_begin(&m, cs);
    for (int i = 16; i < 64; i++) {
        pm_u32 t1 = pm_u32_rotr(&w[i - 15], 7), t2 = pm_u32_rotr(&w[i - 15], 18), t3 = pm_u32_shr(&w[i - 15], 3);
        pm_u32 s0 = pm_u32_xor(cs, &t1, &t2);
        s0 = pm_u32_xor(cs, &s0, &t3);
        t1 = pm_u32_rotr(&w[i - 2], 17), t2 = pm_u32_rotr(&w[i - 2], 19), t3 = pm_u32_shr(&w[i - 2], 10);
        pm_u32 s1 = pm_u32_xor(cs, &t1, &t2);
        s1 = pm_u32_xor(cs, &s1, &t3);
        pm_u32 ops[4] = {w[i - 16], s0, w[i - 7], s1};
        w[i] = pm_u32_addmany(&m, ops, 4);
    }
    maybe_u32 a = {0, 1, {state[0]}}, e = {0, 1, {state[4]}};
    pm_u32 b = state[1], c = state[2], d = state[3], f = state[5], g = state[6], h = state[7];
    for (int i = 0; i < 64; i++) {
        pm_u32 new_e = maybe_compute(&m, &e, NULL);
        pm_u32 t1 = pm_u32_rotr(&new_e, 6), t2 = pm_u32_rotr(&new_e, 11), t3 = pm_u32_rotr(&new_e, 25);
        pm_u32 s1 = pm_u32_xor(cs, &t1, &t2);
        s1 = pm_u32_xor(cs, &s1, &t3);
        pm_u32 ch = pm_u32_sha256_ch(cs, &new_e, &f, &g);
        pm_u32 temp1[5] = {h, s1, ch, pm_u32_const(SHA256_K[i]), w[i]};
        pm_u32 new_a = maybe_compute(&m, &a, NULL);
        t1 = pm_u32_rotr(&new_a, 2), t2 = pm_u32_rotr(&new_a, 13), t3 = pm_u32_rotr(&new_a, 22);
        pm_u32 s0 = pm_u32_xor(cs, &t1, &t2);
        s0 = pm_u32_xor(cs, &s0, &t3);
        pm_u32 maj = pm_u32_sha256_maj(cs, &new_a, &b, &c);
        h = g;
        g = f;
        f = new_e;
        e.deferred = 1;
        e.n = 6;
        memcpy(e.v, temp1, sizeof temp1);
        e.v[5] = d;
        d = c;
        c = b;
        b = new_a;
        a.deferred = 1;
        a.n = 7;
        memcpy(a.v, temp1, sizeof temp1);
        a.v[5] = s0;
        a.v[6] = maj;
    }
    out[0] = maybe_compute(&m, &a, &state[0]);
    pm_u32 ops[2];
    ops[0] = state[1], ops[1] = b, out[1] = pm_u32_addmany(&m, ops, 2);
    ops[0] = state[2], ops[1] = c, out[2] = pm_u32_addmany(&m, ops, 2);
    ops[0] = state[3], ops[1] = d, out[3] = pm_u32_addmany(&m, ops, 2);
    out[4] = maybe_compute(&m, &e, &state[4]);
    ops[0] = state[5], ops[1] = f, out[5] = pm_u32_addmany(&m, ops, 2);
    ops[0] = state[6], ops[1] = g, out[6] = pm_u32_addmany(&m, ops, 2);
    ops[0] = state[7], ops[1] = h, out[7] = pm_u32_addmany(&m, ops, 2);
    pm_multieq_end(&m);
}

void pm_sha256(pm_bool *out, pm_cs *cs, const pm_bool *in, size_t n) {
    size_t padded = ((n + 1 + 64 + 511) / 512) * 512;
    pm_bool block[512];
    pm_u32 cur[8];
    for (int i = 0; i < 8; i++) cur[i] = pm_u32_const(SHA256_IV[i]);
    uint64_t plen = n;
    for (size_t off = 0; off < padded; off += 512) {
        for (size_t j = 0; j < 512; j++) {
            size_t p = off + j;
            if (p < n) block[j] = in[p];
            else if (p == n) block[j] = pm_bool_const(1);
            else if (p >= padded - 64) block[j] = pm_bool_const((int)((plen >> (padded - 1 - p)) & 1));
            else block[j] = pm_bool_const(0);
        }
        pm_u32 next[8];
        pm_sha256_compress(next, cs, block, cur);
        memcpy(cur, next, sizeof cur);
    }
    for (int i = 0; i < 8; i++) pm_u32_to_bits_be(out + 32 * i, &cur[i]);
}
