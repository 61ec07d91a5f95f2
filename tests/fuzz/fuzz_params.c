/*
 * fuzz_params.c — libFuzzer harness of the bellperson .params and .vk readers (groth16/params.h):
 * both memory readers (the .params one also with BP_PARAMS_VK_ONLY, as key checks read it), the
 * header-only count read on a file (params_read_counts, what the prove layer sizes jobs with), the
 * snarkjs-style verification-key view of what was read and the prover's key view of a .params
 * that reads against the multiplier circuit (groth16_key_from_params: its shape checks).
 */
#include "fuzz_util.h"

#include "groth16/key.h"
#include "groth16/params.h"

static volatile uint64_t sink;
static r1cs_t g_cs;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    pm_error e;
    if (r1cs_read(&g_cs, FUZZ_SOURCE_DIR "/tests/data/multiplier/circuit.r1cs", &e)) {
        fprintf(stderr, "fuzz_params: %s\n", e.msg);
        abort();
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    bp_params_t p;
    bp_vk_t vk;
    pm_error e;
    unsigned flags = n && (d[n - 1] & 1) ? BP_PARAMS_VK_ONLY : 0;
    if (params_read_memory(&p, d, n, "fuzz.params", flags, &e) == PM_OK) {
        groth16_vk_t gv;
        if (params_vk_to_groth16_vk(&gv, &p.vk, &e) == PM_OK) groth16_vk_free(&gv);
        groth16_key k;
        if (!(flags & BP_PARAMS_VK_ONLY) && groth16_key_from_params(&k, &p, &g_cs, &e) == PM_OK) groth16_key_free(&k);
        params_free(&p);
    }
    if (params_vk_read_memory(&vk, d, n, "fuzz.vk", 0, &e) == PM_OK) params_vk_free(&vk);
    bp_params_counts_t c;
    if (params_read_counts(&c, fuzz_file(0, d, n, ".params"), &e) == PM_OK) sink += c.n_h + c.file_bytes;
    return 0;
}
