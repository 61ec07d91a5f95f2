/*
 * test_circuits_porep_witness.c — C2 synthesis of a real sealed sector (#8's seal + C1, 2 KiB,
 * StackedDrg2KiBV1_1 and V1, random data) against the recorded constraint system:
 *  - the blank circuit is recorded once into CSR, saved, memory-mapped back (same nnz, density);
 *  - the witness of every partition of the C1 (parallel synthesis = serial synthesis, value by value)
 *    satisfies every constraint, and a = A·w, b = B·w,
 *    c = C·w (r1cs_spmv) agree row by row;
 *  - the public inputs are Filecoin's, in order (POREP.md §6.2): replica_id, comm_d, comm_r, then per
 *    challenge c, 6 DRG and 8 expander parent indices, c, c, c;
 *  - flipping one witness bit breaks at least one constraint: sampled bit variables (value 0/1,
 *    flipped), every label, column row and path sibling value of the C1 (bit k of its integer
 *    flipped), checked on the rows that use the changed column (a transposed pattern index);
 *  - a C1 with one changed label (DRG parent column row) synthesizes to a witness that is refused,
 *    the first unsatisfied constraint named with its challenge and gadget, by the recorded matrices
 *    and by the streaming check (PM_CS_CHECK, no matrices) alike;
 *  - the recording is dictionary-coded (a small table of distinct coefficients, entries 0 and 1 =
 *    1 and -1) and saved as CSR v2; a truncated or corrupted CSR file (v2: index >= table size,
 *    table entry >= r, unknown version) is refused; a full-coefficient system round-trips as v1
 *    and gives the same SpMV as its dictionary-coded twin (v2).
 * Randomised (seed printed; PROOFMILL_SEED=N reproduces; PROOFMILL_ITERATIONS scales the samples).
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "circuits/csr_file.h"
#include "kinds/filecoin/porep_c2/porep_c2.h"
#include "circuits/filecoin/porep_circuit.h"
#include "filecoin/replica_id.h"
#include "filecoin/seal.h"
#include "filecoin/sha256_fr.h"
#include "filecoin/vanilla_verify.h"

static r1cs_t g_rec;          /* recorded in memory */
static pm_csr_t g_map;        /* the same, saved and mapped */
static uint32_t g_inputs;
static pm_porep_shape g_shape;
static char g_path[256];
/* transposed pattern: rows using column j = t_rows[t_ptr[j] .. t_ptr[j+1]) */
static uint64_t *t_ptr;
static uint32_t *t_rows;

static void build_transpose(const r1cs_t *cs) {
    uint32_t nc = cs->n_wires;
    t_ptr = calloc((size_t)nc + 1, 8);
    const r1cs_matrix_t *m[3] = {&cs->A, &cs->B, &cs->C};
    uint64_t tot = 0;
    for (int k = 0; k < 3; k++)
        for (uint64_t t = 0; t < m[k]->nnz; t++) t_ptr[m[k]->col[t] + 1]++;
    for (uint32_t j = 0; j < nc; j++) t_ptr[j + 1] += t_ptr[j];
    tot = t_ptr[nc];
    t_rows = malloc(tot * 4);
    uint64_t *fill = malloc(((size_t)nc + 1) * 8);
    memcpy(fill, t_ptr, ((size_t)nc + 1) * 8);
    for (int k = 0; k < 3; k++)
        for (uint32_t r = 0; r < cs->n_constraints; r++)
            for (uint64_t t = m[k]->row_ptr[r]; t < m[k]->row_ptr[r + 1]; t++) t_rows[fill[m[k]->col[t]]++] = r;
    free(fill);
}

static void row_eval(fr_t *out, const r1cs_matrix_t *m, uint32_t r, const fr_t *w) {
    memset(out, 0, sizeof *out);
    for (uint64_t t = m->row_ptr[r]; t < m->row_ptr[r + 1]; t++) {
        fr_t x;
        fr_mul(&x, r1cs_coef(m, t), &w[m->col[t]]);
        fr_add(out, out, &x);
    }
}

/* 1 when some row using column j is unsatisfied by w */
static int breaks(const r1cs_t *cs, const fr_t *w, uint32_t j) {
    for (uint64_t t = t_ptr[j]; t < t_ptr[j + 1]; t++) {
        uint32_t r = t_rows[t];
        fr_t a, b, c, ab;
        row_eval(&a, &cs->A, r, w);
        row_eval(&b, &cs->B, r, w);
        row_eval(&c, &cs->C, r, w);
        fr_mul(&ab, &a, &b);
        if (!fr_eq(&ab, &c)) return 1;
    }
    return 0;
}

static void seal_2k(fil_seal_t *s, unsigned rp) {
    fil_seal_params_t p;
    memset(&p, 0, sizeof p);
    p.registered_proof = rp;
    uint8_t *raw = malloc(2048), *data = malloc(2048);
    pm_rand_bytes(raw, 2048);
    fil_fr32_pad(data, raw, 2032);
    p.data = data;
    fil_prover_id_from_miner(p.prover_id, 1000);
    p.sector_id = 7;
    pm_rand_bytes(p.ticket, 32);
    pm_error err;
    if (fil_seal_run(s, &p, &err)) fail_msg("seal: %s", err.msg);
    free(raw);
    free(data);
}

static int setup(void **st) {
    (void)st;
    pm_test_seed();
    pm_error err;
    if (pm_porep_shape_for_size(&g_shape, 2048, &err)) return -1;
    if (pm_porep_record(&g_rec, &g_inputs, &g_shape, &err)) {
        fprintf(stderr, "record: %s\n", err.msg);
        return -1;
    }
    snprintf(g_path, sizeof g_path, "/tmp/pm_test_csr_2k_%d.csr", (int)getpid());
    if (pm_csr_save(g_path, &g_rec, g_inputs, 2048, &err) || pm_csr_open(&g_map, g_path, &err)) {
        fprintf(stderr, "csr file: %s\n", err.msg);
        return -1;
    }
    build_transpose(&g_map.cs);
    return 0;
}

static int teardown(void **st) {
    (void)st;
    r1cs_free(&g_rec);
    pm_csr_close(&g_map);
    unlink(g_path);
    free(t_ptr);
    free(t_rows);
    return 0;
}

static void test_recorded_file(void **st) {
    (void)st;
    assert_int_equal(g_rec.n_constraints, 2687921);
    assert_int_equal(g_inputs, 40);
    assert_int_equal(g_rec.n_wires, 40 + 2685673);
    assert_int_equal(g_map.cs.n_constraints, g_rec.n_constraints);
    assert_int_equal(g_map.cs.n_wires, g_rec.n_wires);
    assert_int_equal(g_map.n_inputs, 40);
    assert_int_equal(g_map.tag, 2048);
    /* nnz as measured by the STATS mode (test_circuits_porep_matrix; A without the 40 input rows) */
    assert_int_equal(g_map.cs.A.nnz, 6421005 - 40);
    assert_int_equal(g_map.cs.B.nnz, 2689006);
    assert_int_equal(g_map.cs.C.nnz, 5824682);
    assert_memory_equal(g_map.cs.A.col, g_rec.A.col, g_rec.A.nnz * 4);
    /* dictionary-coded (v2): the same indices and table as recorded; a few thousand distinct
     * values at most (±1, powers of two, Poseidon constants) against 15 M terms */
    assert_non_null(g_rec.C.coef_idx);
    assert_null(g_rec.C.coef);
    assert_non_null(g_map.cs.C.coef_idx);
    assert_int_equal(g_map.cs.C.n_coef_tab, g_rec.C.n_coef_tab);
    assert_true(g_rec.C.n_coef_tab >= 2 && g_rec.C.n_coef_tab < 100000);
    assert_true(fr_is_one(&g_rec.C.coef_tab[0]));
    assert_true(fr_eq(&g_rec.C.coef_tab[1], pm_fr_minus_one()));
    assert_memory_equal(g_map.cs.C.coef_idx, g_rec.C.coef_idx, g_rec.C.nnz * 4);
    assert_memory_equal(g_map.cs.C.coef_tab, g_rec.C.coef_tab, g_rec.C.n_coef_tab * sizeof(fr_t));
    printf("2 KiB partition: %llu terms, %u distinct coefficients, CSR file %zu bytes\n",
           (unsigned long long)(g_rec.A.nnz + g_rec.B.nnz + g_rec.C.nnz), g_rec.C.n_coef_tab, g_map.map_len);
    assert_int_equal(g_map.cs.B.row_ptr[g_rec.n_constraints], g_rec.B.nnz);
    uint64_t a = 0, bi = 0, ba = 0, n_aux = g_map.cs.n_wires - 40;
    for (uint64_t j = 0; j < n_aux; j++) {
        a += (g_map.a_aux_density[j / 64] >> (j % 64)) & 1;
        ba += (g_map.b_aux_density[j / 64] >> (j % 64)) & 1;
    }
    for (uint64_t j = 0; j < 40; j++) bi += (g_map.b_input_density[j / 64] >> (j % 64)) & 1;
    assert_int_equal(a, 2674908);
    assert_int_equal(bi, 1);
    assert_int_equal(ba, 685521);
}

static void check_public(const fr_t *w, const fil_c1_t *c1, uint32_t k) {
    fr_t x;
    fil_domain_to_fr(&x, c1->replica_id);
    assert_true(fr_eq(&w[1], &x));
    fil_domain_to_fr(&x, c1->comm_d);
    assert_true(fr_eq(&w[2], &x));
    fil_domain_to_fr(&x, c1->comm_r);
    assert_true(fr_eq(&w[3], &x));
    for (uint32_t i = 0; i < c1->challenges; i++) {
        const fil_vanilla_proof_t *vp = fil_c1_proof((fil_c1_t *)c1, k, i);
        const fr_t *p = &w[4 + 18 * i];
        uint64_t c = vp->labeling[0].node;
        uint64_t want[18];
        want[0] = c;
        for (int q = 0; q < 6; q++) want[1 + q] = vp->drg[q].index;
        for (int q = 0; q < 8; q++) want[7 + q] = vp->exp[q].index;
        want[15] = want[16] = want[17] = c;
        for (int q = 0; q < 18; q++) {
            fr_from_u64(&x, want[q]);
            if (!fr_eq(&p[q], &x)) fail_msg("challenge %u input %d differs", i, q);
        }
    }
    /* and they are what a verifier derives from replica_id, seed (or comm_r for NI) and the graph */
    size_t nx = 3 + 18 * (size_t)c1->challenges;
    fr_t *d = malloc(nx * sizeof(fr_t));
    pm_error err;
    if (pm_porep_public_inputs(d, nx, c1, k, &err)) fail_msg("public inputs: %s", err.msg);
    assert_memory_equal(d, w + 1, nx * sizeof(fr_t));
    free(d);
}

/* NonInteractivePoRep 2 KiB (13 partitions, challenges from comm_r): first and last partition */
static void test_seal_ni(void **st) {
    (void)st;
    fil_seal_t s;
    seal_2k(&s, 15);
    fil_c1_t c1;
    uint8_t seed[32] = {0};
    pm_error err;
    if (fil_c1_from_seal(&c1, &s, seed, &err)) fail_msg("C1: %s", err.msg);
    assert_int_equal(c1.partitions, 13);
    uint32_t parts[2] = {0, c1.partitions - 1};
    for (int i = 0; i < 2; i++) {
        fr_t *w;
        size_t n_w;
        if (pm_porep_witness(&w, &n_w, NULL, &g_shape, &c1, parts[i], &err)) fail_msg("witness: %s", err.msg);
        if (pm_porep_check(&g_map.cs, &g_shape, w, n_w, &err)) fail_msg("check: %s", err.msg);
        check_public(w, &c1, parts[i]);
        free(w);
    }
    fil_c1_free(&c1);
    fil_seal_free(&s);
}

static void flip_value_bit(fr_t *v, unsigned k) {
    fr_t plain;
    fr_from_mont(&plain, v);
    plain.l[k / 64] ^= 1ull << (k % 64);
    fr_to_mont(v, &plain);
}

/* find aux columns holding the value d (LE domain) and flip one bit of each: must break */
static unsigned flip_values_equal(fr_t *w, size_t n_w, const uint8_t d[32]) {
    fr_t x;
    fil_domain_to_fr(&x, d);
    unsigned hits = 0;
    for (size_t j = g_inputs; j < n_w; j++)
        if (fr_eq(&w[j], &x)) {
            fr_t save = w[j];
            flip_value_bit(&w[j], (unsigned)(pm_rand64() % 254));
            if (!breaks(&g_map.cs, w, (uint32_t)j)) fail_msg("flipping a bit of column %zu broke nothing", j);
            w[j] = save;
            hits++;
        }
    return hits;
}

static void synth_and_check(unsigned rp) {
    fil_seal_t s;
    seal_2k(&s, rp);
    fil_c1_t c1;
    uint8_t seed[32];
    pm_rand_bytes(seed, 32);
    seed[31] &= 0x3f;
    pm_error err;
    if (fil_c1_from_seal(&c1, &s, seed, &err)) fail_msg("C1: %s", err.msg);
    assert_int_equal(fil_c1_verify(&c1, NULL, &err), PM_OK);
    for (uint32_t k = 0; k < c1.partitions; k++) {
        fr_t *w;
        size_t n_w;
        uint32_t nin;
        if (pm_porep_witness(&w, &n_w, &nin, &g_shape, &c1, k, &err)) fail_msg("witness: %s", err.msg);
        assert_int_equal(n_w, g_map.cs.n_wires);
        assert_int_equal(nin, 40);
        { /* the parallel synthesis (per-challenge slices) equals the serial one, value by value */
            fr_t *ws;
            size_t ns;
            if (pm_porep_witness_serial(&ws, &ns, NULL, &g_shape, &c1, k, &err)) fail_msg("serial: %s", err.msg);
            assert_int_equal(ns, n_w);
            assert_memory_equal(ws, w, n_w * sizeof(fr_t));
            free(ws);
            fr_t *w1;
            size_t n1;
            if (pm_porep_witness_mt(&w1, &n1, NULL, &g_shape, &c1, k, 1, &err)) fail_msg("1 thread: %s", err.msg);
            assert_memory_equal(w1, w, n_w * sizeof(fr_t));
            free(w1);
            /* into a reused buffer full of another value (every value is overwritten), and a
             * buffer one value short refused */
            size_t cap;
            uint32_t nin2;
            assert_int_equal(pm_porep_witness_len(&cap, &nin2, &g_shape, &err), PM_OK);
            assert_int_equal(cap, n_w);
            assert_int_equal(nin2, nin);
            fr_t *wb = aligned_alloc(32, cap * sizeof(fr_t));
            memset(wb, 0xa5, cap * sizeof(fr_t));
            size_t nb2;
            assert_int_equal(pm_porep_witness_into(wb, cap, &nb2, NULL, &g_shape, &c1, k, 2, &err), PM_OK);
            assert_int_equal(nb2, n_w);
            assert_memory_equal(wb, w, n_w * sizeof(fr_t));
            assert_int_equal(pm_porep_witness_into(wb, cap - 1, &nb2, NULL, &g_shape, &c1, k, 2, &err), PM_ERR_ARG);
            free(wb);
        }
        if (pm_porep_check(&g_map.cs, &g_shape, w, n_w, &err)) fail_msg("check: %s", err.msg);
        check_public(w, &c1, k);
        uint64_t fb, nb;
        if (pm_porep_check_streaming(&fb, &nb, &g_shape, &c1, k, &err)) fail_msg("streaming: %s", err.msg);
        assert_int_equal(nb, 0);
        /* SpMV: a·b = c row by row */
        size_t n = g_map.cs.n_constraints;
        fr_t *a = aligned_alloc(32, n * 32), *b = aligned_alloc(32, n * 32), *c = aligned_alloc(32, n * 32);
        assert_int_equal(r1cs_spmv(a, b, c, n, &g_map.cs, w, n_w, &err), PM_OK);
        for (size_t r = 0; r < n; r++) {
            fr_t ab;
            fr_mul(&ab, &a[r], &b[r]);
            if (!fr_eq(&ab, &c[r])) fail_msg("row %zu: a*b != c", r);
        }
        free(a);
        free(b);
        free(c);
        /* sampled single-bit flips of bit variables */
        size_t iters = pm_test_iters(400), done = 0;
        for (size_t it = 0; it < 100 * iters && done < iters; it++) {
            size_t j = g_inputs + pm_rand64() % (n_w - g_inputs);
            int is0 = fr_is_zero(&w[j]), is1 = fr_is_one(&w[j]);
            if (!is0 && !is1) continue;
            fr_t save = w[j];
            w[j] = is0 ? FR_ONE : (fr_t){{0, 0, 0, 0}};
            if (!breaks(&g_map.cs, w, (uint32_t)j)) fail_msg("flipping bit variable %zu broke nothing", j);
            w[j] = save;
            done++;
        }
        assert_int_equal(done, iters);
        /* every label of the challenged column, every parent column row, every path sibling */
        unsigned hits = 0;
        for (uint32_t i = 0; i < c1.challenges; i++) {
            const fil_vanilla_proof_t *vp = fil_c1_proof(&c1, k, i);
            for (uint32_t l = 0; l < vp->c_x.nrows; l++) hits += flip_values_equal(w, n_w, vp->c_x.rows[l]);
            for (int q = 0; q < 6; q++) hits += flip_values_equal(w, n_w, vp->drg[q].rows[0]);
            for (int q = 0; q < 8; q++) hits += flip_values_equal(w, n_w, vp->exp[q].rows[1]);
            const fil_merkle_proof_t *paths[3] = {&vp->comm_d, &vp->comm_r_last, &vp->c_x.inclusion};
            for (int q = 0; q < 3; q++) hits += flip_values_equal(w, n_w, paths[q]->elems[0].hashes[0]);
        }
        assert_true(hits >= c1.challenges * (2 + 6 + 8 + 3));
        free(w);
    }

    /* one changed label: DRG parent 0's layer-1 row of challenge 0 */
    fil_vanilla_proof_t *vp = fil_c1_proof(&c1, 0, 0);
    vp->drg[0].rows[0][0] ^= 1;
    fr_t *w;
    size_t n_w;
    if (pm_porep_witness(&w, &n_w, NULL, &g_shape, &c1, 0, &err)) fail_msg("witness: %s", err.msg);
    pm_status st = pm_porep_check(&g_map.cs, &g_shape, w, n_w, &err);
    printf("changed label: %s\n", err.msg);
    assert_int_equal(st, PM_ERR_UNSATISFIED);
    assert_non_null(strstr(err.msg, "(challenge 0, parent_inclusions)"));
    free(w);
    /* the streaming check (no matrices) finds the same first constraint */
    uint64_t fb, nb;
    assert_int_equal(pm_porep_check_streaming(&fb, &nb, &g_shape, &c1, 0, &err), PM_ERR_UNSATISFIED);
    assert_int_equal(fb, 274237);
    assert_true(nb >= 1);
    assert_non_null(strstr(err.msg, "(challenge 0, parent_inclusions)"));
    /* a row >= r is refused while reading, naming the field */
    memset(vp->drg[1].rows[0], 0xff, 32);
    st = pm_porep_witness(&w, &n_w, NULL, &g_shape, &c1, 0, &err);
    assert_int_equal(st, PM_ERR_ENCODING);
    assert_non_null(strstr(err.msg, "drg_parents"));
    fil_c1_free(&c1);
    fil_seal_free(&s);
}

static void test_seal_v1_1(void **st) {
    (void)st;
    synth_and_check(5); /* StackedDrg2KiBV1_1 */
}

static void test_seal_v1(void **st) {
    (void)st;
    synth_and_check(0); /* StackedDrg2KiBV1 (V1_0_0 graph): same circuit */
}

static void write_file(const char *path, const uint8_t *b, size_t n) {
    FILE *o = fopen(path, "wb");
    assert_non_null(o);
    assert_int_equal(fwrite(b, 1, n, o), n);
    assert_int_equal(fclose(o), 0);
}

/* A small recorded system (a few constraints, coefficients 1, -1, 2^k and arbitrary values, an
 * empty B row) expanded to full coefficients: saved as v1, mapped back, the same coefficients and
 * the same SpMV as the dictionary-coded original saved as v2. */
static void test_v1_v2_roundtrip(void **st) {
    (void)st;
    pm_error err;
    pm_cs cs;
    pm_cs_init(&cs, PM_CS_RECORD | PM_CS_WITNESS);
    fr_t v[6], k7, kr;
    for (int i = 0; i < 6; i++) pm_rand_fr(&v[i]);
    fr_from_u64(&k7, 7);
    pm_rand_fr(&kr);
    pm_var x[6];
    for (int i = 0; i < 6; i++) x[i] = i < 2 ? pm_cs_alloc_input(&cs, &v[i]) : pm_cs_alloc(&cs, &v[i]);
    for (int r = 0; r < 5; r++) {
        PM_LC_STACK(a, 8);
        PM_LC_STACK(b, 8);
        PM_LC_STACK(c, 8);
        pm_lc_push(&a, x[r], &FR_ONE);
        pm_lc_push(&a, x[r + 1], pm_fr_minus_one());
        pm_lc_push(&a, PM_VAR_ONE, &kr);
        if (r != 2) pm_lc_push(&b, x[(r + 3) % 6], pm_fr_pow2((unsigned)r * 50));
        pm_lc_push(&c, x[(r + 2) % 6], &k7);
        pm_lc_push(&c, x[(r + 4) % 6], &kr);
        pm_cs_enforce(&cs, &a, &b, &c);
    }
    r1cs_t dict;
    fr_t *w;
    assert_int_equal(pm_cs_finish(&cs, &dict, &w, &err), PM_OK);
    assert_non_null(dict.A.coef_idx);
    r1cs_t full = dict;
    full.coef_tab_owned = NULL;
    r1cs_matrix_t *fm[3] = {&full.A, &full.B, &full.C};
    for (int k = 0; k < 3; k++) {
        fr_t *cf = malloc((fm[k]->nnz ? fm[k]->nnz : 1) * sizeof(fr_t));
        for (uint64_t t = 0; t < fm[k]->nnz; t++) cf[t] = *r1cs_coef(fm[k], t);
        fm[k]->coef = cf;
        fm[k]->coef_idx = NULL;
        fm[k]->coef_tab = NULL;
        fm[k]->n_coef_tab = 0;
    }
    char p1[300], p2[300];
    snprintf(p1, sizeof p1, "%s.v1", g_path);
    snprintf(p2, sizeof p2, "%s.v2", g_path);
    assert_int_equal(pm_csr_save(p1, &full, 3, 1, &err), PM_OK);
    assert_int_equal(pm_csr_save(p2, &dict, 3, 2, &err), PM_OK);
    pm_csr_t f1, f2;
    assert_int_equal(pm_csr_open(&f1, p1, &err), PM_OK);
    assert_int_equal(pm_csr_open(&f2, p2, &err), PM_OK);
    assert_null(f1.cs.A.coef_idx);
    assert_non_null(f2.cs.A.coef_idx);
    const r1cs_matrix_t *m1[3] = {&f1.cs.A, &f1.cs.B, &f1.cs.C}, *m2[3] = {&f2.cs.A, &f2.cs.B, &f2.cs.C};
    for (int k = 0; k < 3; k++) {
        assert_int_equal(m1[k]->nnz, fm[k]->nnz);
        assert_int_equal(m2[k]->nnz, fm[k]->nnz);
        for (uint64_t t = 0; t < fm[k]->nnz; t++) {
            assert_true(fr_eq(r1cs_coef(m1[k], t), &fm[k]->coef[t]));
            assert_true(fr_eq(r1cs_coef(m2[k], t), &fm[k]->coef[t]));
        }
    }
    fr_t a1[5], b1[5], c1[5], a2[5], b2[5], c2[5];
    assert_int_equal(r1cs_spmv(a1, b1, c1, 5, &f1.cs, w, 7, &err), PM_OK);
    assert_int_equal(r1cs_spmv(a2, b2, c2, 5, &f2.cs, w, 7, &err), PM_OK);
    assert_memory_equal(a1, a2, sizeof a1);
    assert_memory_equal(b1, b2, sizeof b1);
    assert_memory_equal(c1, c2, sizeof c1);
    fr_t e;
    assert_int_equal(dict.n_wires, 7); /* ONE, 2 inputs, 4 aux: x[i] is column i + 1 */
    fr_sub(&e, &w[3], &w[4]); /* row 2, A: x2 - x3 + kr */
    fr_add(&e, &e, &kr);
    assert_true(fr_eq(&a1[2], &e));
    assert_true(fr_is_zero(&b1[2])); /* the empty B row */
    /* mixing the two codings is refused */
    r1cs_t mix = full;
    mix.B = dict.B;
    assert_int_equal(pm_csr_save(p1, &mix, 3, 1, &err), PM_ERR_ARG);
    pm_csr_close(&f1);
    pm_csr_close(&f2);
    unlink(p1);
    unlink(p2);
    for (int k = 0; k < 3; k++) free(fm[k]->coef);
    free(w);
    r1cs_free(&dict);
    pm_cs_free(&cs);
}

/* Write buf (len bytes) to path with n bytes at off replaced by bytes, check that pm_csr_open
 * refuses it with `want` (and msg in the message when non-NULL), then restore buf. */
static void expect_patched(const char *path, uint8_t *buf, size_t len, uint64_t off, const void *bytes, size_t n,
                           pm_status want, const char *msg) {
    uint8_t save[64];
    assert_true(n <= sizeof save && off + n <= len);
    memcpy(save, buf + off, n);
    memcpy(buf + off, bytes, n);
    write_file(path, buf, len);
    pm_csr_t f;
    pm_error err;
    assert_int_equal(pm_csr_open(&f, path, &err), want);
    if (msg && !strstr(err.msg, msg)) fail_msg("offset %llu: '%s' lacks '%s'", (unsigned long long)off, err.msg, msg);
    memcpy(buf + off, save, n);
}

static void test_bad_files(void **st) {
    (void)st;
    pm_error err;
    pm_csr_t f;
    char p2[300];
    snprintf(p2, sizeof p2, "%s.bad", g_path);
    FILE *in = fopen(g_path, "rb");
    assert_non_null(in);
    size_t len = g_map.map_len;
    uint8_t *buf = malloc(len);
    assert_int_equal(fread(buf, 1, len, in), len);
    fclose(in);
    const size_t cuts[3] = {10, 128 + 1000, len - 8};
    for (int i = 0; i < 3; i++) {
        FILE *o = fopen(p2, "wb");
        fwrite(buf, 1, cuts[i], o);
        fclose(o);
        assert_int_equal(pm_csr_open(&f, p2, &err), PM_ERR_FORMAT);
    }
    /* one field at a time made hostile (then restored): a column out of range in A, a
     * coefficient index past the table (v2: A's indices follow A's columns), a table entry >= r,
     * a table claiming more entries than the file holds, an unknown version */
    const uint64_t rp_bytes = ((uint64_t)g_map.cs.n_constraints + 1) * 8;
    const uint64_t col_off = (128 + rp_bytes + 63) & ~63ull;
    const uint64_t idx_off = (col_off + g_map.cs.A.nnz * 4 + 63) & ~63ull;
    const uint64_t tab_off = (uint64_t)((const uint8_t *)g_map.cs.A.coef_tab - (const uint8_t *)g_map.map);
    const uint32_t bad_col = 0xfffffff0u, big_idx = g_map.cs.A.n_coef_tab, huge = 0x7fffffffu, v3 = 3;
    uint8_t ones[32];
    memset(ones, 0xff, sizeof ones);
    expect_patched(p2, buf, len, col_off + 40, &bad_col, 4, PM_ERR_FORMAT, "column");
    expect_patched(p2, buf, len, idx_off + 8, &big_idx, 4, PM_ERR_FORMAT, "coefficient index");
    expect_patched(p2, buf, len, tab_off + 32, ones, 32, PM_ERR_ENCODING, "table entry 1");
    expect_patched(p2, buf, len, 56, &huge, 4, PM_ERR_FORMAT, NULL);
    expect_patched(p2, buf, len, 8, &v3, 4, PM_ERR_FORMAT, "version 3");
    /* bytes after the density bitmaps (the file is exactly what pm_csr_save writes) */
    write_file(p2, buf, len);
    FILE *ap = fopen(p2, "ab");
    assert_non_null(ap);
    static const uint8_t zeros[64];
    assert_int_equal(fwrite(zeros, 1, sizeof zeros, ap), sizeof zeros);
    assert_int_equal(fclose(ap), 0);
    assert_int_equal(pm_csr_open(&f, p2, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "64 bytes after the density bitmaps"));
    /* density bitmaps that disagree with the matrices: a bit of a_aux cleared, a b_aux bit past
     * n_aux set (last word); the offset is the word's */
    uint64_t aa_off = (uint64_t)((const uint8_t *)g_map.a_aux_density - (const uint8_t *)g_map.map);
    uint64_t first = 0;
    while (g_map.a_aux_density[first] == 0) first++;
    uint64_t wd = g_map.a_aux_density[first];
    wd &= wd - 1; /* lowest set bit cleared */
    memcpy(buf + aa_off + 8 * first, &wd, 8);
    write_file(p2, buf, len);
    assert_int_equal(pm_csr_open(&f, p2, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "density bitmap a_aux"));
    assert_int_equal(err.offset, aa_off + 8 * first);
    memcpy(buf + aa_off + 8 * first, &g_map.a_aux_density[first], 8);
    const uint64_t n_aux = g_map.cs.n_wires - g_map.n_inputs;
    assert_true(n_aux % 64 != 0);
    buf[len - 1] ^= 0x80; /* bit 63 of b_aux's last word, past bit n_aux - 1 */
    write_file(p2, buf, len);
    assert_int_equal(pm_csr_open(&f, p2, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "density bitmap b_aux"));
    assert_int_equal(err.offset, len - 8);
    buf[len - 1] ^= 0x80;
    /* not regular files: a FIFO without a writer is refused at once (the open used to wait for
     * one forever), a directory by name */
    char fifo[320];
    snprintf(fifo, sizeof fifo, "%s.fifo", g_path);
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(pm_csr_open(&f, fifo, &err), PM_ERR_IO);
    assert_non_null(strstr(err.msg, "FIFO"));
    unlink(fifo);
    assert_int_equal(pm_csr_open(&f, "/tmp", &err), PM_ERR_IO);
    assert_non_null(strstr(err.msg, "directory"));
    /* the circuit expected by the caller: tag (sector size), wires, inputs */
    assert_int_equal(pm_csr_expect(&g_map, g_path, 2048, g_map.cs.n_wires, g_map.n_inputs, &err), PM_OK);
    assert_int_equal(pm_csr_expect(&g_map, g_path, 8u << 20, g_map.cs.n_wires, g_map.n_inputs, &err),
                     PM_ERR_MISMATCH);
    assert_non_null(strstr(err.msg, "tag 2048"));
    assert_string_equal(err.file, g_path);
    assert_int_equal(pm_csr_expect(&g_map, g_path, 2048, g_map.cs.n_wires + 1, g_map.n_inputs, &err),
                     PM_ERR_MISMATCH);
    assert_int_equal(pm_csr_expect(&g_map, g_path, 2048, g_map.cs.n_wires, g_map.n_inputs - 1, &err),
                     PM_ERR_MISMATCH);
    /* the repaired image opens again (the checks above failed for their own reason) */
    write_file(p2, buf, len);
    assert_int_equal(pm_csr_open(&f, p2, &err), PM_OK);
    pm_csr_close(&f);
    buf[0] ^= 1;
    write_file(p2, buf, len);
    assert_int_equal(pm_csr_open(&f, p2, &err), PM_ERR_FORMAT);
    unlink(p2);
    free(buf);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recorded_file),
        cmocka_unit_test(test_seal_v1_1),
        cmocka_unit_test(test_seal_v1),
        cmocka_unit_test(test_seal_ni),
        cmocka_unit_test(test_bad_files),
        cmocka_unit_test(test_v1_v2_roundtrip),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
