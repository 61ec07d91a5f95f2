/*
 * test_circuits_replay.c — record-only synthesis replays each Poseidon hash from one recording
 * (cs.h pm_cs_replay); the recorded system must be exactly the one full synthesis records
 * (PM_CS_NO_REPLAY): the same rows, columns, coefficient indices and coefficient dictionary (its
 * first-appearance order included), so the .csr and the parameters do not change.
 *  - Poseidon of every arity Filecoin uses, over inputs in random order, mixing Input and Aux
 *    variables (the stand-ins' terms are re-sorted), repeated so the template is reused, with
 *    unrelated constraints (new coefficients) in between; in[] with a repeated variable or ONE is
 *    synthesized instead (the replay refuses) and still agrees; a linear gadget with all its
 *    inputs in one row (the one case where the stand-ins' terms are re-sorted).
 *  - the whole WinningPoSt / WindowPoSt circuits at 2 KiB and 8 MiB (and 7 sectors of the 32 GiB
 *    WindowPoSt circuit), also as pm_post_record records them (runs of sectors on several
 *    threads, appended: cs.h pm_cs_append_parts), and SnapDeals' at 2 KiB.
 */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "circuits/filecoin/post_circuit.h"
#include "circuits/filecoin/update_circuit.h"
#include "circuits/gadgets.h"
#include "filecoin/poseidon.h"
#include "filecoin/post.h"
#include "filecoin/update.h"

static void matrix_eq(const r1cs_matrix_t *a, const r1cs_matrix_t *b, const char *name) {
    assert_int_equal(a->n_rows, b->n_rows);
    assert_int_equal(a->nnz, b->nnz);
    if (memcmp(a->row_ptr, b->row_ptr, (a->n_rows + 1) * sizeof *a->row_ptr))
        fail_msg("%s: row pointers differ", name);
    for (uint64_t t = 0; t < a->nnz; t++)
        if (a->col[t] != b->col[t] || a->coef_idx[t] != b->coef_idx[t])
            fail_msg("%s term %llu: column %u / %u, coefficient index %u / %u", name, (unsigned long long)t,
                     a->col[t], b->col[t], a->coef_idx[t], b->coef_idx[t]);
}

static void system_eq(const r1cs_t *a, const r1cs_t *b) {
    assert_int_equal(a->n_constraints, b->n_constraints);
    assert_int_equal(a->n_wires, b->n_wires);
    assert_int_equal(a->n_pub_in, b->n_pub_in);
    assert_int_equal(a->A.n_coef_tab, b->A.n_coef_tab);
    assert_memory_equal(a->A.coef_tab, b->A.coef_tab, a->A.n_coef_tab * sizeof(fr_t));
    matrix_eq(&a->A, &b->A, "A");
    matrix_eq(&a->B, &b->B, "B");
    matrix_eq(&a->C, &b->C, "C");
}

/* a gadget with every input in one row: r = (k_1 in_1 + ... + k_n in_n + k_0) · 1, fresh coefficients
 * (the replay re-sorts the inputs' terms and looks the coefficients up in the final order) */
static pm_var lin_gadget(pm_cs *cs, const pm_var *in, const void *ctx) {
    unsigned n = *(const unsigned *)ctx;
    pm_var r = pm_cs_alloc(cs, NULL);
    PM_LC_STACK(A, 17);
    PM_LC_STACK(B, 1);
    PM_LC_STACK(C, 1);
    for (unsigned i = 0; i <= n; i++) {
        fr_t k;
        fr_from_u64(&k, 7919ull * (i + 1) + 104729ull * n);
        pm_lc_push(&A, i ? in[i - 1] : PM_VAR_ONE, &k);
    }
    pm_lc_push(&B, PM_VAR_ONE, &FR_ONE);
    pm_lc_push(&C, r, &FR_ONE);
    pm_cs_enforce(cs, &A, &B, &C);
    return r;
}

/* the same random gadget sequence in cs (one seed for both systems) */
static void poseidon_sequence(pm_cs *cs, uint64_t seed) {
    static const unsigned ar[] = {2, 4, 8, 11, 16};
    pm_var pool[64];
    unsigned n = 0;
    for (; n < 24; n++) pool[n] = pm_cs_alloc_input(cs, NULL);
    for (; n < 64; n++) pool[n] = pm_cs_alloc(cs, NULL);
    uint64_t s = seed;
#define NEXT() (s = s * 6364136223846793005ull + 1442695040888963407ull, (unsigned)(s >> 33))
    for (unsigned rep = 0; rep < 40; rep++) {
        const fil_poseidon_t *c = fil_poseidon_constants(ar[NEXT() % 5]);
        unsigned arity = c->t - 1;
        pm_var in[16];
        unsigned mode = NEXT() % 8;
        for (unsigned i = 0; i < arity; i++) { /* distinct picks, random order */
            for (;;) {
                pm_var v = pool[NEXT() % 64];
                unsigned j = 0;
                while (j < i && in[j] != v) j++;
                if (j == i) {
                    in[i] = v;
                    break;
                }
            }
        }
        if (mode == 0) in[arity - 1] = in[0];      /* repeated: synthesized */
        if (mode == 1) in[NEXT() % arity] = PM_VAR_ONE; /* ONE: synthesized */
        pm_var o;
        if (NEXT() % 3 == 0) { /* the linear gadget: replayed, or run when refused */
            static const unsigned lens[4] = {2, 5, 9, 16};
            const unsigned *len = &lens[NEXT() % 4];
            if (*len > arity)
                for (unsigned i = arity; i < *len; i++) in[i] = pool[24 + i]; /* aux, maybe repeated */
            if (!pm_cs_replay(cs, &o, lin_gadget, len, len, in, *len)) o = lin_gadget(cs, in, len);
        } else {
            o = pm_poseidon(cs, c, in);
        }
        pool[NEXT() % 64] = o;
        /* an unrelated constraint with a fresh coefficient: dictionary order across replays */
        fr_t k;
        fr_from_u64(&k, 1000003ull + NEXT());
        PM_LC_STACK(A, 2);
        PM_LC_STACK(B, 1);
        PM_LC_STACK(C, 1);
        pm_lc_push(&A, o, &k);
        pm_lc_push(&A, PM_VAR_ONE, &k);
        pm_lc_push(&B, PM_VAR_ONE, &FR_ONE);
        pm_var z = pm_cs_alloc(cs, NULL);
        pm_lc_push(&C, z, &FR_ONE);
        pm_cs_enforce(cs, &A, &B, &C);
    }
#undef NEXT
}

static void record_both(r1cs_t *a, r1cs_t *b, void (*synth)(pm_cs *, const void *), const void *ctx) {
    pm_cs cs;
    pm_error err;
    unsigned fl[2] = {PM_CS_RECORD, PM_CS_RECORD | PM_CS_NO_REPLAY};
    r1cs_t *out[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        pm_cs_init(&cs, fl[k]);
        synth(&cs, ctx);
        if (pm_cs_finish(&cs, out[k], NULL, &err)) fail_msg("finish: %s", err.msg);
        pm_cs_free(&cs);
    }
}

static void seq_cb(pm_cs *cs, const void *ctx) { poseidon_sequence(cs, *(const uint64_t *)ctx); }

static void test_poseidon_replay(void **st) {
    (void)st;
    uint64_t seed = pm_test_seed();
    r1cs_t a, b;
    record_both(&a, &b, seq_cb, &seed);
    system_eq(&a, &b);
    r1cs_free(&a);
    r1cs_free(&b);
}

static void post_cb(pm_cs *cs, const void *ctx) {
    pm_error err;
    if (pm_post_synthesize(cs, ctx, NULL, NULL, &err)) fail_msg("synthesize: %s", err.msg);
}

static void update_cb(pm_cs *cs, const void *ctx) {
    pm_error err;
    if (pm_update_synthesize(cs, ctx, NULL, 0, NULL, &err)) fail_msg("synthesize: %s", err.msg);
}

static void test_kinds_replay(void **st) {
    (void)st;
    pm_error err;
    const struct {
        fil_post_type_t type;
        uint64_t size;
        unsigned sectors; /* 0: the partition's; else fewer (a 32 GiB partition's first sectors) */
    } post[] = {{FIL_POST_WINNING, 2048, 0},    {FIL_POST_WINDOW, 2048, 0}, {FIL_POST_WINNING, 8u << 20, 0},
                {FIL_POST_WINDOW, 8u << 20, 0}, {FIL_POST_WINDOW, 32ull << 30, 7}};
    r1cs_t a, b;
    for (unsigned k = 0; k < sizeof post / sizeof post[0]; k++) {
        fil_post_config_t pc;
        if (fil_post_config_for(&pc, post[k].type, post[k].size,
                                post[k].type == FIL_POST_WINNING ? FIL_API_V1_0_0 : FIL_API_V1_2_0, &err))
            fail_msg("config: %s", err.msg);
        if (post[k].sectors) pc.circuit_sectors = post[k].sectors;
        record_both(&a, &b, post_cb, &pc);
        system_eq(&a, &b);
        r1cs_free(&a);
        /* pm_post_record: runs of sectors on several threads, appended in order */
        uint32_t nin = 0;
        if (pm_post_record(&a, &nin, &pc, &err)) fail_msg("record: %s", err.msg);
        system_eq(&a, &b);
        assert_int_equal(nin, b.n_pub_in + 1);
        r1cs_free(&a);
        r1cs_free(&b);
    }
    fil_update_config_t uc;
    if (fil_update_config(&uc, 2048, &err)) fail_msg("config: %s", err.msg);
    record_both(&a, &b, update_cb, &uc);
    system_eq(&a, &b);
    r1cs_free(&a);
    r1cs_free(&b);
}

int main(void) {
    const struct CMUnitTest t[] = {cmocka_unit_test(test_poseidon_replay), cmocka_unit_test(test_kinds_replay)};
    return cmocka_run_group_tests(t, NULL, NULL);
}
