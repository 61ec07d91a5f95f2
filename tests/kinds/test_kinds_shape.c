/*
 * test_kinds_shape.c — each Filecoin kind's shape_for_size (kind.h: the planner's key shape from a
 * PM_CS_STATS synthesis, kinds/shape.h) at 2 KiB equals the shape of the key our setup makes for
 * the kind's recorded circuit: the circuit recorded as a prover records it (kind->circuit, no .csr),
 * groth16_setup_bellperson_mul over it, groth16_key_from_params, groth16_devplan_shape_of_key with
 * the recorded circuit's device bytes (gpu_sizes_r1cs). The setup's point multiplications are
 * replaced by a stand-in that returns the generator for every non-zero scalar and infinity for
 * zero (setup.h groth16_setup_mul): the counts of every query (which wires bellperson keeps in A
 * and B, L, H, the domain) are the setup's own, computed from tau; only the points' values are not
 * (a real 2 KiB setup takes minutes on 2 cores). Also: the facts' extension over PoSt sectors and
 * SnapDeals challenges is exact (2 KiB WindowPoSt has 2 sectors), and the .csr header reader
 * (pm_csr_read_header) gives the same circuit bytes as the loaded file.
 */
#include "test_util.h"

#include <stdio.h>
#include <string.h>

#include "circuits/csr_file.h"
#include "curve/g1.h"
#include "curve/g2.h"
#include "gpu/gpu_sizes.h"
#include "groth16/devplan.h"
#include "groth16/key.h"
#include "groth16/params.h"
#include "groth16/setup.h"
#include "kinds/kind.h"
#include "kinds/shape.h"

static pm_status fake_g1(void *self, g1_affine_t *out, const fr_t *k, size_t n, pm_error *err) {
    (void)self, (void)err;
    for (size_t i = 0; i < n; i++) {
        if (fr_is_zero(&k[i])) memset(&out[i], 0, sizeof out[i]);
        else out[i] = G1_GENERATOR;
    }
    return PM_OK;
}

static pm_status fake_g2(void *self, g2_affine_t *out, const fr_t *k, size_t n, pm_error *err) {
    (void)self, (void)err;
    for (size_t i = 0; i < n; i++) {
        if (fr_is_zero(&k[i])) memset(&out[i], 0, sizeof out[i]);
        else out[i] = G2_GENERATOR;
    }
    return PM_OK;
}

static void print_shape(const char *what, const groth16_devplan_shape *s) {
    printf("  %-8s n_vars %llu n_public %llu 2^%u A %llu B1 %llu L %llu H %llu B2 %llu circuit %llu\n", what,
           (unsigned long long)s->n_vars, (unsigned long long)s->n_public, s->log_domain,
           (unsigned long long)s->n_base[GROTH16_BASE_A], (unsigned long long)s->n_base[GROTH16_BASE_B1],
           (unsigned long long)s->n_base[GROTH16_BASE_C], (unsigned long long)s->n_base[GROTH16_BASE_H],
           (unsigned long long)s->n_b2, (unsigned long long)s->circuit_bytes);
}

static void check_kind(const char *name) {
    const pm_kind *k = pm_kind_find(name);
    assert_non_null(k);
    assert_non_null(k->shape_for_size);
    pm_error err;
    groth16_devplan_shape want, got;
    pm_cs_facts f;
    if (k->shape_for_size(&got, &f, 2048, &err)) fail_msg("%s shape_for_size: %s", name, err.msg);

    /* the key our setup makes for the circuit the kind records */
    char key[512], dir[256];
    pm_test_mkdtemp(dir, sizeof dir, "shape");
    assert_int_equal(k->key_for_size(key, sizeof key, dir, 2048, &err), PM_OK);
    void *id = NULL;
    if (k->open_key && k->open_key(&id, key, &err)) fail_msg("%s open_key: %s", name, err.msg);
    pm_circuit c;
    if (k->circuit(&c, NULL, id, key, NULL, &err)) fail_msg("%s circuit: %s", name, err.msg);
    groth16_toxic_t t;
    uint64_t seed = 17;
    assert_int_equal(groth16_toxic_draw(&t, &seed, &err), PM_OK);
    const groth16_setup_mul mul = {"stand-in", NULL, fake_g1, fake_g2};
    bp_params_t p = {0};
    if (groth16_setup_bellperson_mul(&p, c.cs, &t, &mul, NULL, &err)) fail_msg("%s setup: %s", name, err.msg);
    groth16_key view;
    if (groth16_key_from_params(&view, &p, c.cs, &err)) fail_msg("%s key: %s", name, err.msg);
    groth16_devplan_shape_of_key(&want, &view, gpu_sizes_r1cs(c.cs));
    printf("%s 2KiB: %llu constraints, %llu inputs, %llu aux, %llu distinct coefficients\n", name,
           (unsigned long long)f.constraints, (unsigned long long)f.inputs, (unsigned long long)f.aux,
           (unsigned long long)f.n_coef);
    print_shape("setup", &want);
    print_shape("counted", &got);
    assert_int_equal(got.conv, want.conv);
    assert_int_equal(got.n_vars, want.n_vars);
    assert_int_equal(got.n_public, want.n_public);
    assert_int_equal(got.log_domain, want.log_domain);
    for (int b = 0; b < GROTH16_N_BASES; b++) assert_int_equal(got.n_base[b], want.n_base[b]);
    assert_int_equal(got.n_b2, want.n_b2);
    assert_int_equal(got.circuit_bytes, want.circuit_bytes);
    /* the recorded circuit's own counts */
    assert_int_equal(f.constraints, c.cs->n_constraints);
    assert_int_equal(f.nnz[0], c.cs->A.nnz);
    assert_int_equal(f.nnz[1], c.cs->B.nnz);
    assert_int_equal(f.nnz[2], c.cs->C.nnz);
    assert_int_equal(f.n_coef, c.cs->A.n_coef_tab);
    /* the parameter file's size, as params_size counts it */
    assert_int_equal(pm_shape_params_bytes(&got),
                     params_size(p.vk.n_ic, p.n_h, p.n_l, p.n_a, p.n_b_g1, p.n_b_g2));

    /* the same circuit saved: its header gives the same device bytes, and it is exactly the file */
    char csr[600];
    snprintf(csr, sizeof csr, "%s/c.csr", dir);
    assert_int_equal(pm_csr_save(csr, c.cs, c.n_inputs, 1, &err), PM_OK);
    pm_csr_header_t h;
    if (pm_csr_read_header(&h, csr, &err)) fail_msg("%s header: %s", name, err.msg);
    assert_int_equal(pm_shape_csr_bytes(&h), want.circuit_bytes);
    assert_int_equal(h.n_inputs, c.n_inputs);
    assert_int_equal(h.n_rows, c.cs->n_constraints);

    groth16_key_free(&view);
    params_free(&p);
    pm_circuit_free(&c);
    if (id && k->close_key) k->close_key(id);
    pm_test_rmtree(dir);
}

static void porep_2k(void **st) {
    (void)st;
    check_kind("porep-c2");
}
static void window_post_2k(void **st) {
    (void)st;
    check_kind("window-post");
}
static void winning_post_2k(void **st) {
    (void)st;
    check_kind("winning-post");
}
static void snapdeals_2k(void **st) {
    (void)st;
    check_kind("snapdeals");
}

/* the 32 GiB WindowPoSt circuit (2349 sectors, extended from one and two) against the files our
 * params-setup and `record` wrote for it on the H200 host (tests/engine/test_engine_core.c
 * admission_32gib_window_post): 125,279,217 constraints, 25,840 inputs, 126,902,376 aux, a .params
 * of 60,780,374,232 bytes (which the A and B counts decide) */
static void window_post_32g(void **st) {
    (void)st;
    const pm_kind *k = pm_kind_find("window-post");
    pm_error err;
    groth16_devplan_shape s;
    pm_cs_facts f;
    if (k->shape_for_size(&s, &f, 32ull << 30, &err)) fail_msg("%s", err.msg);
    assert_int_equal(f.constraints, 125279217);
    assert_int_equal(f.inputs, 25840);
    assert_int_equal(f.aux, 126902376);
    assert_int_equal(s.log_domain, 27);
    assert_int_equal(pm_shape_params_bytes(&s), 60780374232ull);
}

/* a .csr header that lies about the file's size is refused, naming the file */
static void csr_header_hostile(void **st) {
    (void)st;
    char dir[256], path[600];
    pm_test_mkdtemp(dir, sizeof dir, "csrh");
    snprintf(path, sizeof path, "%s/x.csr", dir);
    pm_error err;
    pm_csr_header_t h;
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("short", f);
    fclose(f);
    assert_int_equal(pm_csr_read_header(&h, path, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.file, "x.csr"));
    /* a real header whose file is one byte short */
    uint8_t hdr[128] = {'P', 'M', 'C', 'S', 'R', 0, 'v', '1', 2, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0};
    f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(hdr, 1, sizeof hdr, f);
    fclose(f);
    assert_int_equal(pm_csr_read_header(&h, path, &err), PM_ERR_FORMAT);
    printf("%s\n", err.msg);
    assert_non_null(strstr(err.msg, "header's counts"));
    /* version 7, inputs > columns */
    hdr[8] = 7;
    f = fopen(path, "wb");
    fwrite(hdr, 1, sizeof hdr, f);
    fclose(f);
    assert_int_equal(pm_csr_read_header(&h, path, &err), PM_ERR_FORMAT);
    assert_int_equal(err.offset, 8);
    hdr[8] = 2;
    hdr[20] = 9;
    f = fopen(path, "wb");
    fwrite(hdr, 1, sizeof hdr, f);
    fclose(f);
    assert_int_equal(pm_csr_read_header(&h, path, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "inconsistent sizes"));
    assert_int_equal(pm_csr_read_header(&h, dir, &err), PM_ERR_IO); /* a directory */
    pm_test_rmtree(dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(window_post_2k), cmocka_unit_test(winning_post_2k),
                                       cmocka_unit_test(snapdeals_2k), cmocka_unit_test(porep_2k),
                                       cmocka_unit_test(window_post_32g),
                                       cmocka_unit_test(csr_header_hostile)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
