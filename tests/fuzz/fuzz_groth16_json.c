/*
 * fuzz_groth16_json.c — libFuzzer harness of the snarkjs JSON readers (groth16/proof_json.h):
 * proof.json, public.json, verification_key.json (and the re-export of a key that reads), and the
 * decimal parsers of field elements on the same bytes.
 */
#include "fuzz_util.h"

#include "groth16/decimal.h"
#include "groth16/proof_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    pm_error e;
    groth16_proof_t pr;
    (void)groth16_proof_from_json(&pr, (const char *)d, n, "fuzz.json", &e);
    fr_t *x;
    size_t k;
    if (groth16_public_from_json(&x, &k, (const char *)d, n, "fuzz.json", &e) == PM_OK) free(x);
    groth16_vk_t vk;
    if (groth16_vk_from_json(&vk, (const char *)d, n, "fuzz.json", &e) == PM_OK) {
        free(groth16_vk_to_json(&vk));
        groth16_vk_free(&vk);
    }
    char *s = fuzz_cstr(d, n);
    fp_t fp;
    fr_t fr;
    (void)groth16_fp_from_decimal(&fp, s, "f", "w", &e);
    (void)groth16_fr_from_decimal(&fr, s, "f", "w", &e);
    free(s);
    return 0;
}
