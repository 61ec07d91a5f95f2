/*
 * fuzz_r1cs.c — libFuzzer harness of the circom .r1cs reader (r1cs/r1cs.h). A system that reads is
 * evaluated against the all-ones witness when small (r1cs_check_satisfied walks every row_ptr and
 * column, so an index past its array shows up under ASan).
 */
#include "fuzz_util.h"

#include "r1cs/r1cs.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    r1cs_t cs;
    pm_error e;
    if (r1cs_read_memory(&cs, d, n, "fuzz.r1cs", &e) == PM_OK) {
        if (cs.n_wires <= 4096) {
            fr_t *w = malloc((cs.n_wires ? cs.n_wires : 1) * sizeof *w);
            if (!w) abort();
            for (uint32_t i = 0; i < cs.n_wires; i++) w[i] = FR_ONE;
            uint32_t bad;
            (void)r1cs_check_satisfied(&bad, &cs, w, cs.n_wires, &e);
            free(w);
        }
        r1cs_free(&cs);
    }
    return 0;
}
