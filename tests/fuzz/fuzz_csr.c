/*
 * fuzz_csr.c — libFuzzer harness of the recorded-circuit file (.csr, circuits/csr_file.h): the
 * bytes as a file mapped and checked by pm_csr_open; a file that opens is checked against a shape
 * (pm_csr_expect) and, when small, multiplied by a witness of ones (r1cs_check_satisfied reads every
 * row_ptr, column and coefficient index through the mapping, so one past the checks shows up under
 * ASan), and its density bitmaps are recomputed.
 */
#include "fuzz_util.h"

#include "circuits/csr_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    const char *path = fuzz_file(0, d, n, ".csr");
    pm_csr_t f;
    pm_error e;
    pm_status st = pm_csr_open(&f, path, &e);
    fuzz_note("csr", st, e.msg);
    if (st != PM_OK) return 0;
    (void)pm_csr_expect(&f, path, 2048, f.cs.n_wires, f.n_inputs, &e);
    if (f.cs.n_wires <= 4096) {
        fr_t *w = malloc((f.cs.n_wires ? f.cs.n_wires : 1) * sizeof *w);
        if (!w) abort();
        for (uint32_t i = 0; i < f.cs.n_wires; i++) w[i] = FR_ONE;
        uint32_t bad;
        (void)r1cs_check_satisfied(&bad, &f.cs, w, f.cs.n_wires, &e);
        free(w);
    }
    uint64_t *bm;
    const uint64_t *a, *bi, *ba;
    if (pm_csr_density(&bm, &a, &bi, &ba, &f.cs, f.n_inputs, &e) == PM_OK) free(bm);
    pm_csr_close(&f);
    return 0;
}
