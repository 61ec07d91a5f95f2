/*
 * fuzz_zkey.c — libFuzzer harness of the snarkjs .zkey reader (groth16/zkey.h): the bytes as a
 * memory image (zkey_read_memory, with and without the subgroup checks), as a file (zkey_read_info,
 * the header-only read the prove layer does at submit time) and, when read, the prover's key view
 * (groth16_key_from_zkey with its NTT domain) and its first step on a witness of ones
 * (zkey_eval_ab walks the coefficient CSR the reader built). On success a few invariants of the result are touched
 * so that an array shorter than its count shows up as an ASan error.
 */
#include "fuzz_util.h"

#include "groth16/key.h"
#include "groth16/zkey.h"

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    zkey_t zk;
    pm_error e;
    unsigned flags = n && (d[n - 1] & 1) ? ZKEY_CHECK_SUBGROUP : 0;
    if (zkey_read_memory(&zk, d, n, "fuzz.zkey", flags, &e) == PM_OK) {
        sink += zk.n_vars + zk.A_dom.row_ptr[zk.A_dom.n_rows] + zk.B_dom.row_ptr[zk.B_dom.n_rows];
        if (zk.n_coefs) sink += zk.coefs[zk.n_coefs - 1].signal;
        sink += zk.h[zk.domain_size - 1].x.l[0] + zk.ic[zk.n_public].x.l[0];
        if (zk.domain_size <= (1u << 12) && zk.n_vars <= (1u << 12)) {
            fr_t *w = malloc(zk.n_vars * sizeof *w), *a = malloc(2 * (size_t)zk.domain_size * sizeof *a);
            if (!w || !a) abort();
            for (uint32_t i = 0; i < zk.n_vars; i++) w[i] = FR_ONE;
            (void)zkey_eval_ab(a, a + zk.domain_size, zk.domain_size, &zk, w, zk.n_vars, &e);
            free(w);
            free(a);
        }
        groth16_key k;
        if (zk.domain_size <= (1u << 12) && groth16_key_from_zkey(&k, &zk, NULL, 1, &e) == PM_OK) groth16_key_free(&k);
        zkey_free(&zk);
    }
    zkey_info_t info;
    if (zkey_read_info(&info, fuzz_file(0, d, n, ".zkey"), &e) == PM_OK) sink += info.n_coefs + info.file_bytes;
    return 0;
}
