/*
 * fuzz_param_manifest.c — libFuzzer harness of the parameters.json manifest (filecoin/
 * param_names.h fil_param_check_dir, what `proofmill params check` reads): the bytes as the
 * manifest of a scratch directory holding one small file, checked with and without .params files
 * and a name filter.
 */
#include "fuzz_util.h"

#include <sys/stat.h>

#include "filecoin/param_names.h"

static char g_dir[4096], g_file[4200];

static void cleanup(void) {
    unlink(g_file);
    rmdir(g_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    snprintf(g_dir, sizeof g_dir, "%s/pm_fuzz_params_%d", fuzz_tmpdir(), (int)getpid());
    snprintf(g_file, sizeof g_file, "%s/v28-a.vk", g_dir);
    FILE *f;
    if (mkdir(g_dir, 0700) || !(f = fopen(g_file, "wb")) || fputs("not a key", f) < 0 || fclose(f)) abort();
    atexit(cleanup);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    const char *path = fuzz_file(0, d, n, ".json");
    fil_param_check_t res;
    pm_error e;
    (void)fil_param_check_dir(&res, g_dir, path, NULL, 0, NULL, &e);
    (void)fil_param_check_dir(&res, g_dir, path, "v28", 1, NULL, &e);
    return 0;
}
