/*
 * test_params_roundtrip.c — bellperson .params / .vk and 192-byte proofs (issue #6):
 * read -> write gives identical bytes (params, vk, proofs, also through files); proofs made with a
 * .params key verify with its .vk; flipped bytes fail; a batch of 50 proofs with one bad fails,
 * and single checks name exactly the bad one.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_util.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "groth16/params.h"
#include "groth16/proof_bytes.h"
#include "groth16/prover_bellperson.h"
#include "groth16/setup.h"
#include "groth16/verifier.h"
#include "r1cs/synth.h"

typedef struct {
    r1cs_t cs;
    fr_t *w;
    bp_params_t p;
    groth16_vk_t vk;
} fixture_t;

static fixture_t FX;

static int setup_fx(void **state) {
    (void)state;
    pm_test_seed();
    pm_error err;
    r1cs_synth_opts_t o = {100, 3, 2, 0.8, 5};
    if (r1cs_synth(&FX.cs, &FX.w, &o, &err)) return -1;
    groth16_toxic_t t;
    uint64_t seed = 77;
    if (groth16_toxic_draw(&t, &seed, &err)) return -1;
    if (groth16_setup_bellperson(&FX.p, &FX.cs, &t, NULL, &err)) return -1;
    if (params_vk_to_groth16_vk(&FX.vk, &FX.p.vk, &err)) return -1;
    return 0;
}

static int teardown_fx(void **state) {
    (void)state;
    r1cs_free(&FX.cs);
    free(FX.w);
    params_free(&FX.p);
    groth16_vk_free(&FX.vk);
    return 0;
}

static uint8_t *encode_params(const bp_params_t *p, size_t *n) {
    pm_error err;
    *n = params_size(p->vk.n_ic, p->n_h, p->n_l, p->n_a, p->n_b_g1, p->n_b_g2);
    uint8_t *b = malloc(*n);
    assert_int_equal(params_encode(b, *n, p, &err), PM_OK);
    return b;
}

static void test_params_bytes(void **state) {
    (void)state;
    pm_error err;
    size_t n;
    uint8_t *b = encode_params(&FX.p, &n);
    bp_params_t q;
    assert_int_equal(params_read_memory(&q, b, n, "mem", BP_PARAMS_CHECK_SUBGROUP, &err), PM_OK);
    size_t n2;
    uint8_t *b2 = encode_params(&q, &n2);
    assert_int_equal(n, n2);
    assert_memory_equal(b, b2, n);
    /* files: write, read, write again */
    char p1[128], p2[128];
    snprintf(p1, sizeof p1, "/tmp/pm_params_rt_%d.params", (int)getpid());
    snprintf(p2, sizeof p2, "/tmp/pm_params_rt_%d.vk", (int)getpid());
    assert_int_equal(params_write(p1, &q, &err), PM_OK);
    bp_params_t r;
    assert_int_equal(params_read(&r, p1, 0, &err), PM_OK);
    size_t n3;
    uint8_t *b3 = encode_params(&r, &n3);
    assert_int_equal(n, n3);
    assert_memory_equal(b, b3, n);
    /* vk */
    assert_int_equal(params_vk_write(p2, &r.vk, &err), PM_OK);
    bp_vk_t vk;
    assert_int_equal(params_vk_read(&vk, p2, BP_PARAMS_CHECK_SUBGROUP, &err), PM_OK);
    size_t vn = params_vk_size(vk.n_ic);
    uint8_t *v1 = malloc(vn);
    assert_int_equal(params_vk_encode(v1, vn, &vk, &err), PM_OK);
    assert_memory_equal(v1, b, vn); /* a .params starts with its .vk */
    /* VK_ONLY stops after the vk but still checks the counts */
    bp_params_t s;
    assert_int_equal(params_read_memory(&s, b, n, "mem", BP_PARAMS_VK_ONLY, &err), PM_OK);
    assert_int_equal(s.vk.n_ic, FX.p.vk.n_ic);
    assert_null(s.h);
    params_free(&s);
    unlink(p1);
    unlink(p2);
    free(v1);
    params_vk_free(&vk);
    params_free(&q);
    params_free(&r);
    free(b);
    free(b2);
    free(b3);
}

/* Reading a .params from a file: its pages leave the RSS as they are decoded, so the peak grows by
 * the decoded points, not by them and the whole mapped file (a 32 GiB PoRep key: 47.4 GB + 47.4 GB).
 * The file (the fixture's vk, 2^20 copies of its h[0] in h, 96 MiB) is written with stdio from a
 * 1-point encoding, so its pages are not in this process's peak before the read. */
static void test_params_read_rss(void **state) {
    (void)state;
    const uint32_t n = 1u << 20;
    bp_params_t one = FX.p;
    one.n_h = 1;
    one.n_l = one.n_a = one.n_b_g1 = one.n_b_g2 = 0;
    size_t len;
    uint8_t *b = encode_params(&one, &len);
    const size_t at = params_vk_size(one.vk.n_ic); /* h's u32 big-endian count, then its points */
    assert_true(len == at + 4 + 96 + 4 * 4);
    assert_true(b[at] == 0 && b[at + 1] == 0 && b[at + 2] == 0 && b[at + 3] == 1);
    char path[128];
    snprintf(path, sizeof path, "/tmp/pm_params_rss_%d.params", (int)getpid());
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    const uint8_t cnt[4] = {(uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
    uint8_t chunk[96 * 1024];
    for (size_t i = 0; i < sizeof chunk; i += 96) memcpy(chunk + i, b + at + 4, 96);
    assert_int_equal(fwrite(b, 1, at, f), at);
    assert_int_equal(fwrite(cnt, 1, 4, f), 4);
    for (uint32_t i = 0; i < n; i += 1024) assert_int_equal(fwrite(chunk, 1, sizeof chunk, f), sizeof chunk);
    assert_int_equal(fwrite(b + at + 4 + 96, 1, 16, f), 16);
    assert_int_equal(fclose(f), 0);
    free(b);
    struct rusage r0, r1;
    getrusage(RUSAGE_SELF, &r0);
    bp_params_t q;
    pm_error err;
    assert_int_equal(params_read(&q, path, 0, &err), PM_OK);
    getrusage(RUSAGE_SELF, &r1);
    unlink(path);
    assert_int_equal(q.n_h, n);
    for (size_t i = 0; i < n; i += n / 7) assert_memory_equal(&q.h[i], &FX.p.h[0], sizeof q.h[0]);
    const double grew = (double)(r1.ru_maxrss - r0.ru_maxrss) * 1024.0;
    const double points = (double)n * sizeof q.h[0], file = (double)n * 96;
    printf("params_read of a %.0f MiB file: peak RSS +%.0f MiB (decoded points %.0f MiB)\n", file / 1048576,
           grew / 1048576, points / 1048576);
    assert_true(grew < points + file / 2); /* with the file's pages kept: points + file */
    params_free(&q);
}

/* A .params that does not fit where it is written (a full disk; here a file-size limit, which the
 * reservation meets the same way) is a PM_ERR_IO naming the path and its size before anything is
 * encoded, and leaves neither the file nor its temporary behind. Before the blocks were reserved the
 * file was sparse and the first store past the free space was a SIGBUS (the 32 GiB WindowPoSt
 * params-setup on the device's 64 GiB disk). */
static void test_params_write_no_space(void **state) {
    (void)state;
    const uint64_t need = params_size(FX.p.vk.n_ic, FX.p.n_h, FX.p.n_l, FX.p.n_a, FX.p.n_b_g1, FX.p.n_b_g2);
    char path[128], tmp[160];
    snprintf(path, sizeof path, "/tmp/pm_params_nospace_%d.params", (int)getpid());
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    if (old.rlim_max != RLIM_INFINITY && old.rlim_max < need / 2) skip();
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN); /* EFBIG, not the signal's default (core dump) */
    lim = old;
    lim.rlim_cur = need / 2;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    pm_error err;
    pm_error_clear(&err);
    pm_status st = params_write(path, &FX.p, &err);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, prev);
    char msg[1200];
    pm_error_format(&err, msg, sizeof msg);
    printf("a %" PRIu64 "-byte .params under a %" PRIu64 "-byte file-size limit: %s\n", need, need / 2, msg);
    assert_int_equal(st, PM_ERR_IO);
    assert_non_null(strstr(msg, path));
    assert_non_null(strstr(msg, "cannot reserve"));
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(access(tmp, F_OK), -1);
    /* and the same write succeeds once the limit is gone */
    assert_int_equal(params_write(path, &FX.p, &err), PM_OK);
    bp_params_t q;
    assert_int_equal(params_read(&q, path, 0, &err), PM_OK);
    assert_int_equal(q.n_h, FX.p.n_h);
    params_free(&q);
    unlink(path);
}

static void prove_n(groth16_proof_t *out, size_t n) {
    pm_error err;
    for (size_t k = 0; k < n; k++) {
        fr_t r, s;
        pm_rand_fr(&r);
        pm_rand_fr(&s);
        assert_int_equal(groth16_prove_bellperson(&out[k], &FX.p, &FX.cs, FX.w, FX.cs.n_wires, &r, &s, 1, NULL, &err),
                         PM_OK);
    }
}

static void test_proof_bytes(void **state) {
    (void)state;
    pm_error err;
    groth16_proof_t pr[2];
    prove_n(pr, 2);
    const fr_t *x = FX.w + 1;
    size_t np = FX.vk.n_public;
    for (int k = 0; k < 2; k++) {
        uint8_t b[192], b2[192];
        groth16_proof_to_bytes(b, &pr[k]);
        groth16_proof_t q;
        assert_int_equal(groth16_proof_from_bytes(&q, b, "mem", 0, &err), PM_OK);
        groth16_proof_to_bytes(b2, &q);
        assert_memory_equal(b, b2, 192);
        int valid = 0;
        assert_int_equal(groth16_verify(&valid, &FX.vk, x, np, &q, NULL, NULL, &err), PM_OK);
        assert_true(valid);
        /* flip one bit at many positions: decode error or invalid, never valid */
        for (int pos = 0; pos < 192; pos += 5) {
            memcpy(b2, b, 192);
            b2[pos] ^= (uint8_t)(1u << (pos % 8));
            groth16_proof_t f;
            if (groth16_proof_from_bytes(&f, b2, "mem", 0, &err) != PM_OK) continue;
            assert_int_equal(groth16_verify(&valid, &FX.vk, x, np, &f, NULL, NULL, &err), PM_OK);
            assert_false(valid);
        }
    }
    /* file of 2 proofs: write, read, identical; bad sizes refused */
    char path[128];
    snprintf(path, sizeof path, "/tmp/pm_proofs_%d.bin", (int)getpid());
    assert_int_equal(groth16_proofs_write(path, pr, 2, &err), PM_OK);
    groth16_proof_t *rd;
    size_t n;
    assert_int_equal(groth16_proofs_read(&rd, &n, path, &err), PM_OK);
    assert_int_equal(n, 2);
    for (int k = 0; k < 2; k++) {
        uint8_t a[192], c[192];
        groth16_proof_to_bytes(a, &pr[k]);
        groth16_proof_to_bytes(c, &rd[k]);
        assert_memory_equal(a, c, 192);
    }
    free(rd);
    FILE *f = fopen(path, "ab");
    fputc(0, f);
    fclose(f);
    assert_int_equal(groth16_proofs_read(&rd, &n, path, &err), PM_ERR_FORMAT);
    unlink(path);
}

static void test_batch50(void **state) {
    (void)state;
    pm_error err;
    enum { N = 50, BAD = 17 };
    groth16_proof_t *pr = malloc(N * sizeof *pr);
    prove_n(pr, N);
    const fr_t *x = FX.w + 1;
    int valid = 0;
    assert_int_equal(groth16_verify_batch(&valid, &FX.vk, pr, N, x, 0, 0, &err), PM_OK);
    assert_true(valid);
    /* one bad proof: C + G1 generator (a valid point, wrong equation) */
    g1_jac_t j;
    g1_jac_from_affine(&j, &pr[BAD].c);
    g1_jac_add_affine(&j, &j, &G1_GENERATOR);
    g1_jac_to_affine(&pr[BAD].c, &j);
    assert_int_equal(groth16_verify_batch(&valid, &FX.vk, pr, N, x, 0, 0, &err), PM_OK);
    assert_false(valid);
    for (int k = 0; k < N; k++) {
        assert_int_equal(groth16_verify(&valid, &FX.vk, x, FX.vk.n_public, &pr[k], NULL, NULL, &err),
                         PM_OK);
        assert_int_equal(valid, k != BAD);
    }
    /* per-proof inputs (stride): a wrong input on proof 3 only */
    g1_jac_from_affine(&j, &pr[BAD].c);
    g1_jac_sub_affine(&j, &j, &G1_GENERATOR);
    g1_jac_to_affine(&pr[BAD].c, &j);
    size_t np = FX.vk.n_public;
    fr_t *xs = malloc(N * np * sizeof *xs);
    for (int k = 0; k < N; k++) memcpy(xs + k * np, x, np * sizeof *xs);
    assert_int_equal(groth16_verify_batch(&valid, &FX.vk, pr, N, xs, np, 0, &err), PM_OK);
    assert_true(valid);
    fr_add(&xs[3 * np], &xs[3 * np], &FR_ONE);
    assert_int_equal(groth16_verify_batch(&valid, &FX.vk, pr, N, xs, np, 0, &err), PM_OK);
    assert_false(valid);
    free(xs);
    free(pr);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params_read_rss),
        cmocka_unit_test(test_params_write_no_space),
        cmocka_unit_test(test_params_bytes),
        cmocka_unit_test(test_proof_bytes),
        cmocka_unit_test(test_batch50),
    };
    return cmocka_run_group_tests(tests, setup_fx, teardown_fx);
}
