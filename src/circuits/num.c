/*
 * num.c — gadgets on allocated numbers: to_bits_le, inputize (bellpepper-core num.rs), pack_bits
 * and pack_into_inputs (bellperson multipack.rs), equal/add/pick/insert (rust-fil-proofs
 * storage-proofs-core gadgets/constraint.rs, encode.rs, insertion.rs), reverse_bit_numbering
 * (util.rs), the Merkle inclusion of por.rs and the SHA-256 node hash of filecoin-hashers
 * sha256.rs. Shapes in POREP.md §6.3–6.4.
 */
#include <string.h>

#include "circuits/gadgets.h"

static void lc1(pm_lc *lc, pm_var v) { pm_lc_push(lc, v, &FR_ONE); }

void pm_num_to_bits_le(pm_bool *out, pm_cs *cs, pm_var num) {
    fr_t v, plain;
    pm_cs_value(&v, cs, num);
    fr_from_mont(&plain, &v);
    for (unsigned i = 0; i < 255; i++) out[i] = pm_bit_alloc(cs, (int)((plain.l[i / 64] >> (i % 64)) & 1));
    if (pm_cs_recording(cs)) {
        pm_lc C = {0};
        for (unsigned i = 0; i < 255; i++) pm_lc_push(&C, out[i].var, pm_fr_pow2(i));
        pm_lc_push(&C, num, pm_fr_minus_one());
        pm_cs_enforce(cs, NULL, NULL, &C);
        pm_lc_free(&C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
}

pm_var pm_num_inputize(pm_cs *cs, pm_var num) {
    fr_t v;
    pm_cs_value(&v, cs, num);
    pm_var x = pm_cs_alloc_input(cs, &v);
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(A, 1);
        PM_LC_STACK(B, 1);
        PM_LC_STACK(C, 1);
        lc1(&A, x);
        lc1(&B, PM_VAR_ONE);
        lc1(&C, num);
        pm_cs_enforce(cs, &A, &B, &C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
    return x;
}

/* Σ 2^i bits[i] as a value (bits' own values) */
static void bits_value(fr_t *out, const pm_bool *bits, size_t n) {
    fr_t plain = {{0, 0, 0, 0}};
    for (size_t i = 0; i < n; i++)
        if (bits[i].val) plain.l[i / 64] |= 1ull << (i % 64);
    fr_to_mont(out, &plain); /* n <= 254: plain < 2^254 < r */
}

static void pack_enforce(pm_cs *cs, const pm_bool *bits, size_t n, pm_var target) {
    if (pm_cs_recording(cs)) {
        pm_lc A = {0};
        PM_LC_STACK(B, 1);
        PM_LC_STACK(C, 1);
        for (size_t i = 0; i < n; i++) pm_lc_add_bool(&A, &bits[i], pm_fr_pow2((unsigned)i));
        lc1(&B, PM_VAR_ONE);
        lc1(&C, target);
        pm_cs_enforce(cs, &A, &B, &C);
        pm_lc_free(&A);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
}

pm_var pm_pack_bits(pm_cs *cs, const pm_bool *bits, size_t n) {
    if (n > 254) n = 254;
    fr_t v;
    bits_value(&v, bits, n);
    pm_var x = pm_cs_alloc(cs, &v);
    pack_enforce(cs, bits, n, x);
    return x;
}

unsigned pm_pack_into_inputs(pm_cs *cs, const pm_bool *bits, size_t n) {
    unsigned k = 0;
    for (size_t off = 0; off < n; off += 254, k++) {
        size_t m = n - off < 254 ? n - off : 254;
        fr_t v;
        bits_value(&v, bits + off, m);
        pm_var x = pm_cs_alloc_input(cs, &v);
        pack_enforce(cs, bits + off, m, x);
    }
    return k;
}

void pm_enforce_equal(pm_cs *cs, pm_var a, pm_var b) {
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(A, 1);
        PM_LC_STACK(B, 1);
        PM_LC_STACK(C, 1);
        lc1(&A, a);
        lc1(&B, PM_VAR_ONE);
        lc1(&C, b);
        pm_cs_enforce(cs, &A, &B, &C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
}

pm_var pm_num_add(pm_cs *cs, pm_var a, pm_var b) {
    fr_t va, vb, s;
    pm_cs_value(&va, cs, a);
    pm_cs_value(&vb, cs, b);
    fr_add(&s, &va, &vb);
    pm_var r = pm_cs_alloc(cs, &s);
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(A, 2);
        PM_LC_STACK(B, 1);
        PM_LC_STACK(C, 1);
        lc1(&A, a);
        lc1(&A, b);
        lc1(&B, PM_VAR_ONE);
        lc1(&C, r);
        pm_cs_enforce(cs, &A, &B, &C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
    return r;
}

pm_var pm_pick(pm_cs *cs, pm_bool cond, pm_var a, pm_var b) {
    fr_t v;
    pm_cs_value(&v, cs, cond.val ? a : b);
    pm_var c = pm_cs_alloc(cs, &v);
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(A, 2);
        PM_LC_STACK(B, 2);
        PM_LC_STACK(C, 2);
        lc1(&A, b);
        pm_lc_push(&A, a, pm_fr_minus_one());
        pm_lc_add_bool(&B, &cond, &FR_ONE);
        lc1(&C, b);
        pm_lc_push(&C, c, pm_fr_minus_one());
        pm_cs_enforce(cs, &A, &B, &C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
    return c;
}

void pm_insert(pm_var *out, pm_cs *cs, pm_var cur, const pm_bool *bits, const pm_var *sib,
               unsigned arity) {
    if (arity == 2) {
        out[0] = pm_pick(cs, bits[0], sib[0], cur);
        out[1] = pm_pick(cs, bits[0], cur, sib[0]);
        return;
    }
    if (arity == 4) {
        /* rfp insert_4: b0 chooses within pairs, b1 between halves (8 picks) */
        pm_bool b0 = bits[0], b1 = bits[1];
        pm_var A = cur, b = sib[0], c = sib[1], d = sib[2];
        pm_var p0_x0 = pm_pick(cs, b0, b, A);
        out[0] = pm_pick(cs, b1, b, p0_x0);
        pm_var p1_x0 = pm_pick(cs, b0, A, b);
        out[1] = pm_pick(cs, b1, c, p1_x0);
        pm_var p2_x1 = pm_pick(cs, b0, d, A);
        out[2] = pm_pick(cs, b1, p2_x1, c);
        pm_var p3_x1 = pm_pick(cs, b0, A, d);
        out[3] = pm_pick(cs, b1, p3_x1, d);
        return;
    }
    /* arity 8 (rfp insert_8), 22 constraints */
    pm_bool b0 = bits[0], b1 = bits[1], b2 = bits[2];
    pm_bool n = pm_bit_nor(cs, b0, b1);
    pm_bool an = pm_bit_and(cs, b0, b1);
    pm_var A = cur, b = sib[0], c = sib[1], d = sib[2], e = sib[3], f = sib[4], g = sib[5], h = sib[6];
    pm_var t;
    t = pm_pick(cs, n, A, b);
    out[0] = pm_pick(cs, b2, b, t);
    t = pm_pick(cs, b0, A, b);
    t = pm_pick(cs, b1, c, t);
    out[1] = pm_pick(cs, b2, c, t);
    t = pm_pick(cs, b0, d, A);
    t = pm_pick(cs, b1, t, c);
    out[2] = pm_pick(cs, b2, d, t);
    t = pm_pick(cs, an, A, d);
    out[3] = pm_pick(cs, b2, e, t);
    t = pm_pick(cs, n, A, f);
    out[4] = pm_pick(cs, b2, t, e);
    t = pm_pick(cs, b0, A, f);
    t = pm_pick(cs, b1, g, t);
    out[5] = pm_pick(cs, b2, t, f);
    t = pm_pick(cs, b0, h, A);
    t = pm_pick(cs, b1, t, g);
    out[6] = pm_pick(cs, b2, t, g);
    t = pm_pick(cs, an, A, h);
    out[7] = pm_pick(cs, b2, t, h);
}

void pm_reverse_bit_numbering_255(pm_bool *out, const pm_bool *in) {
    pm_bool p[256];
    memcpy(p, in, 255 * sizeof *p);
    p[255] = pm_bool_const(0);
    for (unsigned byte = 0; byte < 32; byte++)
        for (unsigned k = 0; k < 8; k++) out[8 * byte + k] = p[8 * byte + 7 - k];
}

pm_var pm_sha256_hash2_nums(pm_cs *cs, pm_var a, pm_var b) {
    pm_bool bits[255], pre[512], digest[256], le[256];
    pm_num_to_bits_le(bits, cs, a);
    pm_reverse_bit_numbering_255(pre, bits);
    pm_num_to_bits_le(bits, cs, b);
    pm_reverse_bit_numbering_255(pre + 256, bits);
    pm_sha256(digest, cs, pre, 512);
    for (unsigned byte = 0; byte < 32; byte++)
        for (unsigned k = 0; k < 8; k++) le[8 * byte + k] = digest[8 * byte + 7 - k];
    return pm_pack_bits(cs, le, 254);
}

pm_var pm_por_inclusion(pm_cs *cs, pm_por_hasher h, pm_var leaf, pm_var root, const pm_por_path *p) {
    pm_bool idx_bits[64 * 3];
    unsigned nbits = 0;
    size_t soff = 0;
    pm_var cur = leaf;
    for (unsigned l = 0; l < p->nlevels; l++) {
        unsigned ar = p->arity[l], lb = ar == 2 ? 1 : ar == 4 ? 2 : 3;
        uint32_t index = p->index ? p->index[l] : 0;
        pm_bool bits[3];
        for (unsigned i = 0; i < lb; i++) bits[i] = pm_bit_alloc(cs, (int)((index >> i) & 1));
        memcpy(idx_bits + nbits, bits, lb * sizeof *bits);
        nbits += lb;
        pm_var sib[7], ins[8];
        for (unsigned i = 0; i + 1 < ar; i++) sib[i] = pm_cs_alloc(cs, p->siblings ? &p->siblings[soff + i] : NULL);
        soff += ar - 1;
        pm_insert(ins, cs, cur, bits, sib, ar);
        if (h == PM_POR_SHA256) {
            cur = pm_sha256_hash2_nums(cs, ins[0], ins[1]);
        } else {
            cur = pm_poseidon(cs, fil_poseidon_constants(ar), ins);
        }
    }
    pm_pack_into_inputs(cs, idx_bits, nbits);
    pm_enforce_equal(cs, cur, root);
    return cur;
}
