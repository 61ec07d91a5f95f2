/*
 * fuzz_util.h — what the libFuzzer harnesses of tests/fuzz share (header-only): the fuzzer's bytes
 * as a file for readers that take a path, as a NUL-terminated string, and a split of the input
 * into a selector byte and the rest. docs/fuzzing.md says how the harnesses are built and run.
 */
#ifndef PROOFMILL_TESTS_FUZZ_UTIL_H
#define PROOFMILL_TESTS_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

/* Where scratch files go: $TMPDIR, else /dev/shm (memory: writing a file per execution on a disk
 * made the file readers' harnesses 5x slower), else /tmp. */
static inline const char *fuzz_tmpdir(void) {
    const char *t = getenv("TMPDIR");
    if (t && t[0]) return t;
    return access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
}

/* The bytes d[n] in this process's scratch file (one per process and slot, in fuzz_tmpdir(),
 * rewritten at every call; removed at exit): its path. A file rather than a memfd because the
 * readers refuse what is not a regular file reached without a link (util/file.h), and
 * /proc/self/fd/N is a link. */
static char fuzz_tmp_paths[4][4096];
static void fuzz_tmp_cleanup(void) {
    for (int i = 0; i < 4; i++)
        if (fuzz_tmp_paths[i][0]) unlink(fuzz_tmp_paths[i]);
}
static inline const char *fuzz_file(unsigned slot, const uint8_t *d, size_t n, const char *suffix) {
    char *p = fuzz_tmp_paths[slot & 3];
    if (!p[0]) {
        snprintf(p, sizeof fuzz_tmp_paths[0], "%s/pm_fuzz_%d_%u%s", fuzz_tmpdir(), (int)getpid(), slot,
                 suffix ? suffix : "");
        static int registered;
        if (!registered++) atexit(fuzz_tmp_cleanup);
    }
    FILE *f = fopen(p, "wb");
    if (!f || (n && fwrite(d, 1, n, f) != n) || fclose(f)) {
        perror(p);
        abort(); /* the harness's own failure, not the reader's */
    }
    return p;
}

/* With FUZZ_VERBOSE=1 in the environment, a harness says where an input stopped (stage and the
 * reader's message): to check that seeds reach the deep paths. */
static inline void fuzz_note(const char *stage, int st, const char *msg) {
    static int v = -1;
    if (v < 0) v = getenv("FUZZ_VERBOSE") && getenv("FUZZ_VERBOSE")[0] == '1';
    if (v) fprintf(stderr, "fuzz: %s: %s%s%s\n", stage, st ? "refused" : "ok", st ? ": " : "", st ? msg : "");
}

/* d[n] copied with a NUL after it (free it) */
static inline char *fuzz_cstr(const uint8_t *d, size_t n) {
    char *s = malloc(n + 1);
    if (!s) abort();
    if (n) memcpy(s, d, n);
    s[n] = 0;
    return s;
}

#endif
