/*
 * fuzz_wtns.c — libFuzzer harness of the circom .wtns reader (r1cs/wtns.h): the whole read and the
 * header-only read (wtns_read_info_memory), both on the fuzzer's bytes.
 */
#include "fuzz_util.h"

#include "r1cs/wtns.h"

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    wtns_t w;
    pm_error e;
    if (wtns_read_memory(&w, d, n, "fuzz.wtns", &e) == PM_OK) {
        if (w.n_values) sink += w.values[w.n_values - 1].l[0];
        wtns_free(&w);
    }
    uint32_t nv;
    if (wtns_read_info_memory(&nv, d, n, "fuzz.wtns", &e) == PM_OK) sink += nv;
    return 0;
}
