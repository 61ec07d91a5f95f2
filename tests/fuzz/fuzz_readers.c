/*
 * fuzz_readers.c — libFuzzer harnesses for every reader of user data in the core library.
 * One source, one target per -DFUZZ_TARGET_x (see build.sh): zkey, wtns, r1cs, params, json,
 * points. Each feeds the fuzzer's bytes to the in-memory reader and only checks that it returns
 * (ASan/UBSan catch the rest); on success a few invariants of the result are touched so that
 * an allocation shorter than its count shows up as an ASan error.
 * Not run by CI. Usage: tests/fuzz/build.sh OUTDIR, then OUTDIR/fuzz_zkey -max_total_time=120
 * CORPUS_DIR (seed corpora: the files under tests/data and ../shared/fixtures/bls12381).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "curve/encoding.h"
#include "groth16/params.h"
#include "groth16/proof_bytes.h"
#include "groth16/proof_json.h"
#include "groth16/zkey.h"
#include "r1cs/r1cs.h"
#include "r1cs/wtns.h"

static volatile uint64_t sink;

#if defined(FUZZ_TARGET_zkey)
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    zkey_t zk;
    pm_error e;
    if (zkey_read_memory(&zk, d, n, "fuzz.zkey", 0, &e) == PM_OK) {
        sink += zk.n_vars + zk.A_dom.row_ptr[zk.A_dom.n_rows] + zk.B_dom.row_ptr[zk.B_dom.n_rows];
        if (zk.n_coefs) sink += zk.coefs[zk.n_coefs - 1].signal;
        sink += zk.h[zk.domain_size - 1].x.l[0] + zk.ic[zk.n_public].x.l[0];
        zkey_free(&zk);
    }
    return 0;
}
#elif defined(FUZZ_TARGET_wtns)
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    wtns_t w;
    pm_error e;
    if (wtns_read_memory(&w, d, n, "fuzz.wtns", &e) == PM_OK) {
        if (w.n_values) sink += w.values[w.n_values - 1].l[0];
        wtns_free(&w);
    }
    uint32_t nv;
    (void)wtns_read_info_memory(&nv, d, n, "fuzz.wtns", &e);
    return 0;
}
#elif defined(FUZZ_TARGET_r1cs)
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    r1cs_t cs;
    pm_error e;
    if (r1cs_read_memory(&cs, d, n, "fuzz.r1cs", &e) == PM_OK) {
        /* evaluate against the all-ones witness when small: exercises row_ptr/col bounds */
        if (cs.n_wires <= 4096) {
            fr_t *w = malloc(cs.n_wires * sizeof *w);
            for (uint32_t i = 0; i < cs.n_wires; i++) w[i] = FR_ONE;
            uint32_t bad;
            (void)r1cs_check_satisfied(&bad, &cs, w, cs.n_wires, &e);
            free(w);
        }
        r1cs_free(&cs);
    }
    return 0;
}
#elif defined(FUZZ_TARGET_params)
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    bp_params_t p;
    bp_vk_t vk;
    pm_error e;
    if (params_read_memory(&p, d, n, "fuzz.params", 0, &e) == PM_OK) {
        groth16_vk_t gv;
        if (params_vk_to_groth16_vk(&gv, &p.vk, &e) == PM_OK) groth16_vk_free(&gv);
        params_free(&p);
    }
    if (params_vk_read_memory(&vk, d, n, "fuzz.vk", 0, &e) == PM_OK) params_vk_free(&vk);
    return 0;
}
#elif defined(FUZZ_TARGET_json)
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    pm_error e;
    groth16_proof_t pr;
    (void)groth16_proof_from_json(&pr, (const char *)d, n, "fuzz.json", &e);
    fr_t *x;
    size_t k;
    if (groth16_public_from_json(&x, &k, (const char *)d, n, "fuzz.json", &e) == PM_OK) free(x);
    groth16_vk_t vk;
    if (groth16_vk_from_json(&vk, (const char *)d, n, "fuzz.json", &e) == PM_OK) {
        char *t = groth16_vk_to_json(&vk);
        free(t);
        groth16_vk_free(&vk);
    }
    /* the decimal parsers on a NUL-terminated copy */
    char *s = malloc(n + 1);
    memcpy(s, d, n);
    s[n] = 0;
    fp_t fp;
    fr_t fr;
    (void)groth16_fp_from_decimal(&fp, s, "f", "w", &e);
    (void)groth16_fr_from_decimal(&fr, s, "f", "w", &e);
    free(s);
    return 0;
}
#elif defined(FUZZ_TARGET_points)
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    pm_error e;
    g1_affine_t a;
    g2_affine_t b;
    if (n >= 192) {
        groth16_proof_t pr;
        (void)groth16_proof_from_bytes(&pr, d, "fuzz.bin", 0, &e);
        (void)g2_from_uncompressed(&b, d, PM_DECODE_CHECK_SUBGROUP, &e);
        (void)g2_from_lem(&b, d, PM_DECODE_CHECK_SUBGROUP, &e);
    }
    if (n >= 96) {
        (void)g1_from_uncompressed(&a, d, PM_DECODE_CHECK_SUBGROUP, &e);
        (void)g1_from_lem(&a, d, PM_DECODE_CHECK_SUBGROUP, &e);
        (void)g2_from_compressed(&b, d, PM_DECODE_CHECK_SUBGROUP, &e);
    }
    if (n >= 48) (void)g1_from_compressed(&a, d, PM_DECODE_CHECK_SUBGROUP, &e);
    for (int f = 0; f < 3; f++) {
        (void)g1_decode(&a, d, n, (pm_point_format)f, PM_DECODE_CHECK_SUBGROUP, &e);
        (void)g2_decode(&b, d, n, (pm_point_format)f, PM_DECODE_CHECK_SUBGROUP, &e);
    }
    return 0;
}
#else
#error "define FUZZ_TARGET_zkey|wtns|r1cs|params|json|points"
#endif
