/* util/file.h's SIGBUS guard: a mapped input that shrinks while it is read (a key copied over in
 * place) is an error naming the file, not a crash. Deterministic: the file is truncated between
 * pm_file_open and the reads, so no timing decides the outcome. Label hostile.
 *   - reads past the new end see zeros, pm_file_settle reports "changed while it was read" with the
 *     file, the new size as offset and both sizes; the pages before the new end keep their bytes;
 *   - an unchanged file settles to the status given (also an error status, untouched);
 *   - slots are given back by pm_file_close: 10,000 open/close cycles (more than the 4096 slots)
 *     leave the last file still guarded;
 *   - a .wtns container opened by pm_binfile_open (as wtns_read, zkey_read and r1cs_read open
 *     theirs) and truncated before its values are read settles to the changed-file error;
 *   - a SIGBUS outside every registered mapping still ends the process (checked in a child forked
 *     before cmocka installs its own signal handlers). */
#include "test_util.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "r1cs/wtns.h"
#include "util/file.h"
#include "util/outfile.h"

static char g_dir[256];

static void write_pattern(const char *path, size_t n) {
    uint8_t *b = malloc(n);
    assert_non_null(b);
    for (size_t i = 0; i < n; i++) b[i] = (uint8_t)(i * 7 + 1) | 1; /* never 0 */
    pm_error err;
    assert_int_equal(pm_write_file(path, b, n, &err), PM_OK);
    free(b);
}

static void shrunk_while_mapped(void **state) {
    (void)state;
    char p[400];
    snprintf(p, sizeof p, "%s/key", g_dir);
    const size_t n = 64 * 1024;
    write_pattern(p, n);
    pm_file f;
    pm_error err;
    assert_int_equal(pm_file_open(&f, p, &err), PM_OK);
    assert_true(f.guard > 0);
    assert_int_equal(pm_file_settle(&f, PM_OK, &err), PM_OK); /* nothing happened yet */
    assert_int_equal(pm_file_settle(&f, PM_ERR_FORMAT, &err), PM_ERR_FORMAT);
    assert_int_equal(truncate(p, 4096), 0);
    volatile const uint8_t *d = f.data;
    unsigned sum = 0;
    for (size_t i = 4096; i < n; i += 512) sum += d[i]; /* every page past the end: SIGBUS, absorbed */
    assert_int_equal(sum, 0);
    assert_int_equal(d[10], (uint8_t)(10 * 7 + 1) | 1); /* before the new end: the file's bytes */
    assert_int_equal(pm_file_settle(&f, PM_OK, &err), PM_ERR_IO);
    assert_string_equal(err.file, p);
    assert_int_equal(err.offset, 4096);
    printf("# %s\n", err.msg);
    assert_non_null(strstr(err.msg, "changed while it was read"));
    assert_non_null(strstr(err.msg, "65536"));
    /* the error replaces what the zeros made a reader say */
    assert_int_equal(pm_file_settle(&f, PM_ERR_FORMAT, &err), PM_ERR_IO);
    pm_file_close(&f);
    /* gone by the time it is settled */
    write_pattern(p, n);
    assert_int_equal(pm_file_open(&f, p, &err), PM_OK);
    assert_int_equal(truncate(p, 0), 0);
    d = f.data;
    assert_int_equal(d[100], 0);
    assert_int_equal(unlink(p), 0);
    assert_int_equal(pm_file_settle(&f, PM_OK, &err), PM_ERR_IO);
    assert_non_null(strstr(err.msg, "gone"));
    pm_file_close(&f);
}

static void slots_recycled(void **state) {
    (void)state;
    char p[400];
    snprintf(p, sizeof p, "%s/small", g_dir);
    write_pattern(p, 3 * 4096);
    pm_file f;
    pm_error err;
    for (int i = 0; i < 10000; i++) {
        assert_int_equal(pm_file_open(&f, p, &err), PM_OK);
        assert_true(f.guard > 0);
        pm_file_close(&f);
    }
    assert_int_equal(pm_file_open(&f, p, &err), PM_OK);
    assert_true(f.guard > 0);
    assert_int_equal(truncate(p, 100), 0);
    volatile const uint8_t *d = f.data;
    assert_int_equal(d[2 * 4096 + 5], 0);
    assert_int_equal(pm_file_settle(&f, PM_OK, &err), PM_ERR_IO);
    pm_file_close(&f);
    /* a memory image is never "changed" */
    uint8_t buf[8] = {1};
    pm_file_from_memory(&f, buf, sizeof buf, "mem");
    assert_int_equal(pm_file_settle(&f, PM_ERR_ARG, &err), PM_ERR_ARG);
}

/* A wtns of n values (binfileutils container, header section 1, values section 2). */
static void write_wtns(const char *path, uint32_t n) {
    const size_t hdr = 4 + 32 + 4, sz = 12 + 12 + hdr + 12 + (size_t)n * 32;
    uint8_t *b = calloc(1, sz), *o = b;
    assert_non_null(b);
    memcpy(o, "wtns", 4), pm_put_le32(o + 4, 2), pm_put_le32(o + 8, 2), o += 12;
    pm_put_le32(o, 1), pm_put_le64(o + 4, hdr), o += 12;
    pm_put_le32(o, 32);
    /* r of BLS12-381, little-endian */
    static const uint8_t r[32] = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe,
                                  0xff, 0x02, 0xa4, 0xbd, 0x53, 0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8,
                                  0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
    memcpy(o + 4, r, 32), pm_put_le32(o + 36, n), o += hdr;
    pm_put_le32(o, 2), pm_put_le64(o + 4, (uint64_t)n * 32), o += 12;
    for (uint32_t i = 0; i < n; i++) o[32 * (size_t)i] = (uint8_t)(i % 200 + 1);
    pm_error err;
    assert_int_equal(pm_write_file(path, b, sz, &err), PM_OK);
    free(b);
}

static void wtns_truncated_after_open(void **state) {
    (void)state;
    char p[400];
    snprintf(p, sizeof p, "%s/w.wtns", g_dir);
    write_wtns(p, 8192);
    pm_error err;
    wtns_t w;
    assert_int_equal(wtns_read(&w, p, &err), PM_OK); /* the image itself is valid */
    assert_int_equal(w.n_values, 8192);
    wtns_free(&w);
    pm_binfile bf;
    assert_int_equal(pm_binfile_open(&bf, p, "wtns", 2, &err), PM_OK);
    assert_int_equal(truncate(p, 8192), 0);
    /* what wtns_read does after the open, on the shrunk mapping: every value past 8 KiB reads 0 */
    volatile const uint8_t *d = bf.file.data;
    assert_int_equal(d[bf.file.size - 1], 0);
    pm_status st = pm_file_settle(&bf.file, PM_OK, &err);
    pm_binfile_close(&bf);
    assert_int_equal(st, PM_ERR_IO);
    assert_string_equal(err.file, p);
    assert_non_null(strstr(err.msg, "changed while it was read"));
}

static int setup(void **state) {
    (void)state;
    return pm_test_mkdtemp(g_dir, sizeof g_dir, "pm_mapguard");
}

static int teardown(void **state) {
    (void)state;
    return pm_test_rmtree(g_dir);
}

/* Before cmocka: a child registers one mapping (installing the guard) and then reads past the end
 * of another, unregistered one. The guard must pass that fault on to the default disposition (or
 * to a sanitizer's handler, which reports and exits non-zero): the child must not carry on. */
static int foreign_fault_still_fatal(void) {
    char dir[256], a[400], b[400];
    if (pm_test_mkdtemp(dir, sizeof dir, "pm_mapguard_child")) return 1;
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    static uint8_t page[8192];
    memset(page, 1, sizeof page);
    pm_error err;
    if (pm_write_file(a, page, sizeof page, &err) || pm_write_file(b, page, sizeof page, &err)) return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        pm_file f;
        if (pm_file_open(&f, a, &err)) _exit(3);
        int fd = open(b, O_RDONLY);
        volatile const uint8_t *m = mmap(NULL, sizeof page, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED || truncate(b, 0)) _exit(3);
        int devnull = open("/dev/null", O_WRONLY); /* a sanitizer's report of this fault is expected */
        if (devnull >= 0) dup2(devnull, 2);
        unsigned v = m[4096 + 7];
        (void)v;
        _exit(0); /* survived: the guard swallowed a fault that was not its own */
    }
    int status = 0;
    int ok = pid > 0 && waitpid(pid, &status, 0) == pid &&
             (WIFSIGNALED(status) ? WTERMSIG(status) == SIGBUS : WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 3);
    printf("# foreign SIGBUS in a child: %s (%s %d)\n", ok ? "fatal, as before" : "NOT fatal",
           WIFSIGNALED(status) ? "signal" : "exit", WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    pm_test_rmtree(dir);
    return ok ? 0 : 1;
}

int main(void) {
    if (foreign_fault_still_fatal()) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shrunk_while_mapped),
        cmocka_unit_test(slots_recycled),
        cmocka_unit_test(wtns_truncated_after_open),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
