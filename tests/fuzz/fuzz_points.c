/*
 * fuzz_points.c — libFuzzer harness of the point decoders (curve/encoding.h): every G1 and G2
 * encoding (compressed, uncompressed, little-endian Montgomery), with the subgroup check, and the
 * 192-byte bellperson proof (groth16/proof_bytes.h), on the fuzzer's bytes; and the bytes as a file
 * of concatenated proofs (groth16_proofs_read: what `groth16 verify-bytes` reads).
 */
#include "fuzz_util.h"

#include "curve/encoding.h"
#include "groth16/proof_bytes.h"

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
    groth16_proof_t *prs;
    size_t k;
    if (groth16_proofs_read(&prs, &k, fuzz_file(0, d, n, ".bin"), &e) == PM_OK) free(prs);
    return 0;
}
