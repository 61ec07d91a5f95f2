/*
 * update_gadgets.c — the gadgets the SnapDeals circuit adds to gadgets.h: allocated_num_to_allocated_bits
 * (rust-fil-proofs storage-proofs-update gadgets.rs; bellpepper-core boolean.rs
 * field_into_allocated_bits_le), AllocatedNum::mul (bellpepper-core num.rs), select
 * (storage-proofs-core gadgets/insertion.rs) and por_no_challenge_input (gadgets/por.rs).
 */
#include <string.h>

#include "circuits/gadgets.h"

void pm_num_to_allocated_bits(pm_bool *out, pm_cs *cs, pm_var num) {
    fr_t v, plain;
    pm_cs_value(&v, cs, num);
    fr_from_mont(&plain, &v);
    for (unsigned i = 0; i < 255; i++) out[i] = pm_bit_alloc(cs, (int)((plain.l[i / 64] >> (i % 64)) & 1));
    if (pm_cs_recording(cs)) {
        pm_lc A = {0};
        PM_LC_STACK(B, 1);
        PM_LC_STACK(C, 1);
        for (unsigned i = 0; i < 255; i++) pm_lc_push(&A, out[i].var, pm_fr_pow2(i));
        pm_lc_push(&B, PM_VAR_ONE, &FR_ONE);
        pm_lc_push(&C, num, &FR_ONE);
        pm_cs_enforce(cs, &A, &B, &C);
        pm_lc_free(&A);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
}

pm_var pm_num_mul(pm_cs *cs, pm_var a, pm_var b) {
    fr_t va, vb, p;
    pm_cs_value(&va, cs, a);
    pm_cs_value(&vb, cs, b);
    fr_mul(&p, &va, &vb);
    pm_var r = pm_cs_alloc(cs, &p);
    if (pm_cs_recording(cs)) {
        PM_LC_STACK(A, 1);
        PM_LC_STACK(B, 1);
        PM_LC_STACK(C, 1);
        pm_lc_push(&A, a, &FR_ONE);
        pm_lc_push(&B, b, &FR_ONE);
        pm_lc_push(&C, r, &FR_ONE);
        pm_cs_enforce(cs, &A, &B, &C);
    } else {
        pm_cs_enforce(cs, NULL, NULL, NULL);
    }
    return r;
}

pm_var pm_select(pm_cs *cs, const pm_var *from, const pm_bool *bits, unsigned nbits) {
    pm_var state[256];
    size_t n = (size_t)1 << nbits;
    memcpy(state, from, n * sizeof *state);
    for (unsigned i = 0; i < nbits; i++) { /* bits reversed: most significant first */
        const pm_bool *bit = &bits[nbits - 1 - i];
        size_t half = n / 2;
        for (size_t j = 0; j < half; j++) state[j] = pm_pick(cs, *bit, state[half + j], state[j]);
        n = half;
    }
    return state[0];
}

void pm_por_no_challenge_input(pm_cs *cs, pm_por_hasher h, const pm_bool *bits, pm_var leaf, const pm_var *sib,
                               const unsigned *arity, unsigned nlevels, pm_var root) {
    pm_var cur = leaf;
    size_t soff = 0, boff = 0;
    for (unsigned l = 0; l < nlevels; l++) {
        unsigned ar = arity[l], lb = ar == 2 ? 1 : ar == 4 ? 2 : 3;
        pm_var ins[8];
        pm_insert(ins, cs, cur, bits + boff, sib + soff, ar);
        boff += lb;
        soff += ar - 1;
        cur = h == PM_POR_SHA256 ? pm_sha256_hash2_nums(cs, ins[0], ins[1])
                                 : pm_poseidon(cs, fil_poseidon_constants(ar), ins);
    }
    pm_enforce_equal(cs, cur, root);
}
