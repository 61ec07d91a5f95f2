/*
 * test_circuits_gadgets.c — the elementary gadgets of circuits/gadgets.h: every gadget is
 * (1) satisfied by its own witness on random inputs (record + witness mode, r1cs_check_satisfied),
 * (2) computes the right value (OpenSSL SHA-256, our plain Poseidon), and (3) has exactly the
 * constraint / aux counts that Filecoin's sources publish (POREP.md §6.7, §6.9):
 *   SHA-256 one block 25,840, two blocks 44,874 (aux 44,828), all-constant block 0
 *     (bellperson src/gadgets/sha256.rs tests test_full_block / test_full_hash / test_blank_hash);
 *   Poseidon arity 2/4/8/11/16: 311/377/505/598/761 (neptune v11 circuit.rs test_poseidon_hash;
 *     rust-fil-proofs circuit/hash.rs);
 *   to_bits_le 256 constraints / 255 aux (bellpepper-core num.rs); insert 2/4/8: 2/8/22
 *     (rust-fil-proofs gadgets/insertion.rs);
 *   create_label with 9,728 allocated bits, layer 3 and node 22 constant: 532,025
 *     (rust-fil-proofs storage-proofs-porep circuit/create_label.rs test_create_label);
 *   PoR circuits with public root, 64 × base-tree-count leaves: SHA-256 binary 272,295; Poseidon
 *     binary 1,887, base-4 1,164, base-8 1,063, 8-2 1,377, 8-4-2 1,764, 8-8 1,593, 8-8-2 1,907
 *     (rust-fil-proofs storage-proofs-core/tests/por_circuit.rs).
 * Randomised: seed printed (PROOFMILL_SEED=N reproduces).
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/gadgets.h"
#include "filecoin/poseidon.h"
#include "filecoin/sha256_fr.h"

/* finish a record+witness system and check it */
static void check_satisfied(pm_cs *cs) {
    r1cs_t r;
    fr_t *w = NULL;
    pm_error err;
    assert_int_equal(pm_cs_finish(cs, &r, &w, &err), PM_OK);
    uint32_t bad = 0;
    pm_status st = r1cs_check_satisfied(&bad, &r, w, r.n_wires, &err);
    if (st) fail_msg("not satisfied: %s", err.msg);
    /* add 2 to one random aux value: some constraint must break (every aux is bound; +2 and not
     * +1 so that a bit leaves {0, 1} and its booleanity fails even where nothing else reads it) */
    if (cs->n_aux > 0) {
        uint32_t j = cs->n_inputs + (uint32_t)(pm_rand64() % cs->n_aux);
        fr_add(&w[j], &w[j], pm_fr_pow2(1));
        assert_int_equal(r1cs_check_satisfied(&bad, &r, w, r.n_wires, &err), PM_ERR_UNSATISFIED);
    }
    free(w);
    r1cs_free(&r);
}

static void test_boolean_ops(void **st) {
    (void)st;
    pm_test_seed();
    /* all kinds (const/is/not) × values for a, b, c */
    for (int ka = 0; ka < 3; ka++)
        for (int kb = 0; kb < 3; kb++)
            for (int kc = 0; kc < 3; kc++)
                for (int v = 0; v < 8; v++) {
                    pm_cs cs;
                    pm_cs_init(&cs, PM_CS_RECORD | PM_CS_WITNESS);
                    int va = v & 1, vb = (v >> 1) & 1, vc = (v >> 2) & 1;
                    pm_bool x[3];
                    int kk[3] = {ka, kb, kc}, vv[3] = {va, vb, vc};
                    for (int i = 0; i < 3; i++) {
                        if (kk[i] == 0) x[i] = pm_bool_const(vv[i]);
                        else if (kk[i] == 1) x[i] = pm_bit_alloc(&cs, vv[i]);
                        else x[i] = pm_bool_not(pm_bit_alloc(&cs, !vv[i]));
                    }
                    pm_bool r1 = pm_bool_xor(&cs, x[0], x[1]);
                    pm_bool r2 = pm_bool_and(&cs, x[0], x[1]);
                    pm_bool r3 = pm_bool_sha256_ch(&cs, x[0], x[1], x[2]);
                    pm_bool r4 = pm_bool_sha256_maj(&cs, x[0], x[1], x[2]);
                    assert_int_equal(r1.val, va ^ vb);
                    assert_int_equal(r2.val, va & vb);
                    assert_int_equal(r3.val, (va & vb) ^ ((!va) & vc));
                    assert_int_equal(r4.val, (va & vb) ^ (va & vc) ^ (vb & vc));
                    /* the Boolean's variable holds the value it claims */
                    pm_bool rs[4] = {r1, r2, r3, r4};
                    for (int i = 0; i < 4; i++)
                        if (rs[i].kind != PM_B_CONST) {
                            fr_t fv;
                            pm_cs_value(&fv, &cs, rs[i].var);
                            int var_is_one = fr_is_one(&fv);
                            assert_int_equal(rs[i].kind == PM_B_IS ? var_is_one : !var_is_one, rs[i].val);
                        }
                    if (ka == 0 && kb == 0 && kc == 0) assert_int_equal(cs.n_constraints, 0);
                    check_satisfied(&cs);
                    pm_cs_free(&cs);
                }
}

static void bytes_to_bits_be(pm_bool *bits, pm_cs *cs, const uint8_t *b, size_t n) {
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 8; k++) bits[8 * i + k] = pm_bit_alloc(cs, (b[i] >> (7 - k)) & 1);
}

static void digest_eq(const pm_bool *bits, const uint8_t want[32]) {
    for (int i = 0; i < 256; i++) assert_int_equal(bits[i].val, (want[i / 8] >> (7 - i % 8)) & 1);
}

static void test_sha256(void **st) {
    (void)st;
    pm_test_seed();
    uint8_t msg[64], d[32];
    pm_rand_bytes(msg, sizeof msg);
    pm_bool in[512], out[256];

    /* one compression of 512 allocated bits: 25,840 constraints after the input allocations */
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_RECORD | PM_CS_WITNESS);
    bytes_to_bits_be(in, &cs, msg, 64);
    uint64_t c0 = cs.n_constraints;
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    pm_u32 state[8], next[8];
    for (int i = 0; i < 8; i++) state[i] = pm_u32_const(iv[i]);
    pm_sha256_compress(next, &cs, in, state);
    assert_int_equal(cs.n_constraints - c0, 25840);
    check_satisfied(&cs);
    pm_cs_free(&cs);

    /* full hash of 512 allocated bits: 44,874 constraints, 44,828 aux; digest = OpenSSL's */
    pm_cs_init(&cs, PM_CS_RECORD | PM_CS_WITNESS);
    bytes_to_bits_be(in, &cs, msg, 64);
    c0 = cs.n_constraints;
    uint64_t a0 = cs.n_aux;
    pm_sha256(out, &cs, in, 512);
    assert_int_equal(cs.n_constraints - c0, 44874);
    assert_int_equal(cs.n_aux - a0, 44828);
    fil_sha256(d, msg, 64);
    digest_eq(out, d);
    check_satisfied(&cs);
    pm_cs_free(&cs);

    /* an all-constant input costs nothing */
    pm_cs_init(&cs, 0);
    for (int i = 0; i < 512; i++) in[i] = pm_bool_const((msg[i / 8] >> (7 - i % 8)) & 1);
    pm_sha256(out, &cs, in, 512);
    assert_int_equal(cs.n_constraints, 0);
    assert_int_equal(cs.n_aux, 0);
    digest_eq(out, d);
    pm_cs_free(&cs);

    /* random lengths, mixed constant and allocated bytes: digest right, satisfied */
    size_t iters = pm_test_iters(6);
    for (size_t it = 0; it < iters; it++) {
        size_t n = pm_rand64() % 200;
        uint8_t *m = malloc(n + 1);
        pm_rand_bytes(m, n);
        pm_bool *bits = malloc(sizeof(pm_bool) * (8 * n + 1));
        pm_cs_init(&cs, PM_CS_RECORD | PM_CS_WITNESS);
        for (size_t i = 0; i < n; i++) {
            if (pm_rand64() & 1) bytes_to_bits_be(bits + 8 * i, &cs, m + i, 1);
            else
                for (int k = 0; k < 8; k++) bits[8 * i + k] = pm_bool_const((m[i] >> (7 - k)) & 1);
        }
        pm_sha256(out, &cs, bits, 8 * n);
        fil_sha256(d, m, n);
        digest_eq(out, d);
        check_satisfied(&cs);
        pm_cs_free(&cs);
        free(bits);
        free(m);
    }
}

static void test_poseidon(void **st) {
    (void)st;
    pm_test_seed();
    const unsigned ar[5] = {2, 4, 8, 11, 16}, want[5] = {311, 377, 505, 598, 761};
    for (int k = 0; k < 5; k++) {
        const fil_poseidon_t *c = fil_poseidon_constants(ar[k]);
        assert_non_null(c);
        fr_t in[16], h;
        pm_var v[16];
        pm_cs cs;
        pm_cs_init(&cs, PM_CS_RECORD | PM_CS_WITNESS);
        for (unsigned i = 0; i < ar[k]; i++) {
            pm_rand_fr(&in[i]);
            v[i] = pm_cs_alloc(&cs, &in[i]);
        }
        uint64_t a0 = cs.n_aux;
        pm_var o = pm_poseidon(&cs, c, v);
        assert_int_equal(cs.n_constraints, want[k]);
        assert_int_equal(cs.n_aux - a0, want[k]);
        fil_poseidon_hash_plain(&h, c, in);
        fr_t got;
        pm_cs_value(&got, &cs, o);
        assert_true(fr_eq(&got, &h));
        check_satisfied(&cs);
        pm_cs_free(&cs);
    }
}

static void test_num_gadgets(void **st) {
    (void)st;
    pm_test_seed();
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_RECORD | PM_CS_WITNESS);
    fr_t x;
    pm_rand_fr(&x);
    pm_var xv = pm_cs_alloc(&cs, &x);
    pm_bool bits[255];
    pm_num_to_bits_le(bits, &cs, xv);
    assert_int_equal(cs.n_constraints, 256);
    assert_int_equal(cs.n_aux, 256);
    fr_t plain;
    fr_from_mont(&plain, &x);
    for (int i = 0; i < 255; i++) assert_int_equal(bits[i].val, (plain.l[i / 64] >> (i % 64)) & 1);
    /* pack the low 254 bits back */
    pm_var p = pm_pack_bits(&cs, bits, 254);
    fr_t pv;
    pm_cs_value(&pv, &cs, p);
    fr_t want = plain;
    want.l[3] &= (1ull << 62) - 1;
    fr_to_mont(&want, &want);
    assert_true(fr_eq(&pv, &want));
    check_satisfied(&cs);
    pm_cs_free(&cs);

    /* insert: every index, counts 2 / 8 / 22 */
    const unsigned ar[3] = {2, 4, 8}, cnt[3] = {2, 8, 22};
    for (int k = 0; k < 3; k++)
        for (unsigned idx = 0; idx < ar[k]; idx++) {
            pm_cs_init(&cs, PM_CS_RECORD | PM_CS_WITNESS);
            fr_t vals[8];
            pm_var sib[7], out[8];
            for (unsigned i = 0; i < ar[k]; i++) pm_rand_fr(&vals[i]);
            pm_var cur = pm_cs_alloc(&cs, &vals[0]);
            for (unsigned i = 0; i + 1 < ar[k]; i++) sib[i] = pm_cs_alloc(&cs, &vals[i + 1]);
            pm_bool b[3];
            unsigned lb = k + 1;
            for (unsigned i = 0; i < lb; i++) b[i] = pm_bit_alloc(&cs, (idx >> i) & 1);
            uint64_t c0 = cs.n_constraints;
            pm_insert(out, &cs, cur, b, sib, ar[k]);
            assert_int_equal(cs.n_constraints - c0, cnt[k]);
            for (unsigned pos = 0, s = 1; pos < ar[k]; pos++) {
                fr_t got;
                pm_cs_value(&got, &cs, out[pos]);
                const fr_t *w = pos == idx ? &vals[0] : &vals[s++];
                assert_true(fr_eq(&got, w));
            }
            check_satisfied(&cs);
            pm_cs_free(&cs);
        }
}

/* create_label as rust-fil-proofs' test_create_label builds it: 9,728 allocated bits, layer and
 * node constant -> 532,025 constraints in all; value = trimmed SHA-256 of the message bytes. */
static void test_create_label(void **st) {
    (void)st;
    pm_test_seed();
    uint8_t id[32], parents[37][32], msg[64 + 37 * 32];
    pm_rand_bytes(id, 32);
    pm_rand_bytes(&parents[0][0], sizeof parents);
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_RECORD | PM_CS_WITNESS);
    pm_bool *bits = malloc(sizeof(pm_bool) * (512 + 37 * 256));
    pm_bool pb[37][256], idb[256];
    for (int i = 0; i < 37; i++) bytes_to_bits_be(pb[i], &cs, parents[i], 32);
    bytes_to_bits_be(idb, &cs, id, 32);
    size_t n = 0;
    memcpy(bits, idb, sizeof idb);
    n = 256;
    uint32_t layer = 3;
    uint64_t node = 22;
    for (int k = 31; k >= 0; k--) bits[n++] = pm_bool_const((layer >> k) & 1);
    for (int k = 63; k >= 0; k--) bits[n++] = pm_bool_const((int)((node >> k) & 1));
    while (n < 512) bits[n++] = pm_bool_const(0);
    for (int i = 0; i < 37; i++, n += 256) memcpy(bits + n, pb[i], sizeof pb[i]);
    pm_bool digest[256], le[256];
    pm_sha256(digest, &cs, bits, n);
    for (int byte = 0; byte < 32; byte++)
        for (int k = 0; k < 8; k++) le[8 * byte + k] = digest[8 * byte + 7 - k];
    pm_var label = pm_pack_bits(&cs, le, 254);
    assert_int_equal(cs.n_constraints, 532025);
    memset(msg, 0, 64);
    memcpy(msg, id, 32);
    msg[32 + 3] = 3;
    msg[36 + 7] = 22;
    memcpy(msg + 64, parents, sizeof parents);
    uint8_t d[32];
    fil_sha256_trimmed(d, msg, sizeof msg);
    fr_t want, got;
    assert_int_equal(fil_domain_to_fr(&want, d), 0);
    pm_cs_value(&got, &cs, label);
    assert_true(fr_eq(&got, &want));
    check_satisfied(&cs);
    pm_cs_free(&cs);
    free(bits);
}

/* A PoR circuit as por_circuit.rs builds it (public root): value alloc, path, pack of the index
 * bits, root alloc, equal, inputize. Leaves = 64 × base-tree count; arities leaf level first. */
static uint64_t por_circuit(const unsigned *arity, unsigned nl, pm_por_hasher h, int witness) {
    pm_cs cs;
    pm_cs_init(&cs, witness ? PM_CS_RECORD | PM_CS_WITNESS : 0);
    fr_t leaf, cur, sib[64 * 7];
    uint32_t idx[16];
    pm_rand_fr(&leaf);
    if (h == PM_POR_SHA256) { /* tree D values are < 2^254 */
        fr_from_mont(&leaf, &leaf);
        leaf.l[3] &= (1ull << 62) - 1;
        fr_to_mont(&leaf, &leaf);
    }
    cur = leaf;
    size_t off = 0;
    for (unsigned l = 0; l < nl; l++) {
        unsigned a = arity[l];
        idx[l] = (uint32_t)(pm_rand64() % a);
        fr_t kids[8];
        for (unsigned i = 0, s = 0; i < a; i++) {
            if (i == idx[l]) kids[i] = cur;
            else {
                pm_rand_fr(&sib[off + s]);
                if (h == PM_POR_SHA256) {
                    fr_t p;
                    fr_from_mont(&p, &sib[off + s]);
                    p.l[3] &= (1ull << 62) - 1;
                    fr_to_mont(&sib[off + s], &p);
                }
                kids[i] = sib[off + s];
                s++;
            }
        }
        off += a - 1;
        if (h == PM_POR_SHA256) {
            uint8_t l8[32], r8[32], o8[32];
            fil_fr_to_domain(l8, &kids[0]);
            fil_fr_to_domain(r8, &kids[1]);
            fil_sha256_node(o8, l8, r8);
            fil_domain_to_fr(&cur, o8);
        } else {
            fil_poseidon_hash_plain(&cur, fil_poseidon_constants(a), kids);
        }
    }
    pm_var lv = pm_cs_alloc(&cs, &leaf);
    pm_por_path p = {nl, arity, idx, sib};
    uint64_t before_root;
    /* por.rs: path, pack, then root alloc, equal, inputize — pm_por_inclusion takes the root
     * first, so allocate it here and count the same constraints (alloc order of one aux differs
     * from por.rs, which is irrelevant to this count-only comparison). */
    pm_var root = pm_cs_alloc(&cs, &cur);
    pm_var got = pm_por_inclusion(&cs, h, lv, root, &p);
    before_root = cs.n_constraints;
    pm_num_inputize(&cs, root);
    (void)before_root;
    if (witness) {
        fr_t gv;
        pm_cs_value(&gv, &cs, got);
        assert_true(fr_eq(&gv, &cur));
        check_satisfied(&cs);
    }
    uint64_t n = cs.n_constraints;
    pm_cs_free(&cs);
    return n;
}

static void test_por_circuits(void **st) {
    (void)st;
    pm_test_seed();
    unsigned a[16];
    for (int i = 0; i < 6; i++) a[i] = 2;
    assert_int_equal(por_circuit(a, 6, PM_POR_SHA256, 1), 272295);
    assert_int_equal(por_circuit(a, 6, PM_POR_POSEIDON, 1), 1887);
    for (int i = 0; i < 3; i++) a[i] = 4;
    assert_int_equal(por_circuit(a, 3, PM_POR_POSEIDON, 1), 1164);
    a[0] = a[1] = 8;
    assert_int_equal(por_circuit(a, 2, PM_POR_POSEIDON, 1), 1063);
    a[2] = 2;
    assert_int_equal(por_circuit(a, 3, PM_POR_POSEIDON, 1), 1377);
    a[2] = 4, a[3] = 2;
    assert_int_equal(por_circuit(a, 4, PM_POR_POSEIDON, 1), 1764);
    a[2] = 8;
    assert_int_equal(por_circuit(a, 3, PM_POR_POSEIDON, 1), 1593);
    a[3] = 2;
    assert_int_equal(por_circuit(a, 4, PM_POR_POSEIDON, 1), 1907);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boolean_ops),  cmocka_unit_test(test_sha256),
        cmocka_unit_test(test_poseidon),     cmocka_unit_test(test_num_gadgets),
        cmocka_unit_test(test_create_label), cmocka_unit_test(test_por_circuits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
