/*
 * fuzz_real_data.c — libFuzzer harness of the readers of Filecoin's published data (filecoin/
 * real_data.h, what `proofmill selfcheck` reads): the bytes as a seal regression records file, as
 * one records line, as parameters.json and as the WindowPoSt file.
 */
#include "fuzz_util.h"

#include "filecoin/real_data.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    const char *path = fuzz_file(0, d, n, ".json");
    pm_error e;
    fil_seal_records_t rs;
    if (fil_seal_records_read(&rs, path, &e) == PM_OK) fil_seal_records_free(&rs);
    char *line = malloc(n + 1);
    if (line) {
        memcpy(line, d, n);
        line[n] = 0;
        fil_seal_record_t r;
        if (fil_seal_record_parse(&r, line, n, "line", 1, 0, &e) == PM_OK) fil_seal_record_free(&r);
        free(line);
    }
    fil_param_manifest_t m;
    if (fil_param_manifest_read(&m, path, &e) == PM_OK) fil_param_manifest_free(&m);
    fil_window_post_record_t w;
    if (fil_window_post_record_read(&w, path, &e) == PM_OK) fil_window_post_record_free(&w);
    return 0;
}
