/* util/: the whole-file reader (regular files, refused directories and FIFOs, pipes with
 * PM_READ_PIPES, size limits), the atomic output file (commit, abort, a failing stream), the string
 * builder (growth across its doubling, printf, take) and the monotonic clock. Label hostile. */
#include "test_util.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/clock.h"
#include "util/file.h"
#include "util/outfile.h"
#include "util/strbuf.h"

static char g_dir[256];

static atomic_int g_writer_open;

static void *fifo_writer(void *arg) {
    int fd = open(arg, O_WRONLY); /* a reader holds the FIFO open: does not block */
    atomic_store(&g_writer_open, fd >= 0 ? 1 : -1);
    if (fd >= 0) {
        for (int i = 0; i < 3000; i++) /* ~90 KB: more than one read buffer */
            if (write(fd, "0123456789abcdefghijklmnopqrstu\n", 32) != 32) break;
        close(fd);
    }
    return NULL;
}

static void read_all(void **state) {
    (void)state;
    char p[400], fifo[400];
    snprintf(p, sizeof p, "%s/text", g_dir);
    pm_error err;
    assert_int_equal(pm_write_file(p, "hello\nworld", 11, &err), PM_OK);
    char *t;
    size_t n;
    assert_int_equal(pm_file_read_all(&t, &n, p, 0, 0, &err), PM_OK);
    assert_int_equal(n, 11);
    assert_string_equal(t, "hello\nworld"); /* NUL-terminated */
    free(t);
    assert_int_equal(pm_file_read_all(&t, &n, p, 10, 0, &err), PM_ERR_FORMAT);
    assert_null(t);
    assert_int_equal(pm_file_read_all(&t, &n, g_dir, 0, PM_READ_PIPES, &err), PM_ERR_IO);
    assert_non_null(strstr(err.msg, "directory"));
    assert_int_equal(pm_file_read_all(&t, &n, "/nonexistent/x", 0, 0, &err), PM_ERR_IO);
    assert_string_equal(err.file, "/nonexistent/x");
    snprintf(fifo, sizeof fifo, "%s/fifo", g_dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(pm_file_read_all(&t, &n, fifo, 0, 0, &err), PM_ERR_IO); /* at once, no writer waited for */
    assert_non_null(strstr(err.msg, "FIFO"));
    assert_int_equal(pm_file_read_all(&t, &n, fifo, 0, PM_READ_PIPES, &err), PM_OK); /* no writer: empty */
    assert_int_equal(n, 0);
    free(t);
    /* a pipe with a writer is read to its end: a reader fd held here lets the writer open first */
    int hold = open(fifo, O_RDONLY | O_NONBLOCK);
    assert_true(hold >= 0);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, fifo_writer, fifo), 0);
    while (!atomic_load(&g_writer_open)) usleep(1000);
    assert_int_equal(atomic_load(&g_writer_open), 1);
    assert_int_equal(pm_file_read_all(&t, &n, fifo, 0, PM_READ_PIPES, &err), PM_OK);
    pthread_join(th, NULL);
    close(hold);
    assert_int_equal(n, 3000 * 32);
    assert_memory_equal(t + 32 * 2999, "0123456789abcdefghijklmnopqrstu\n", 32);
    free(t);
}

static void outfile_commit_and_abort(void **state) {
    (void)state;
    char p[400];
    snprintf(p, sizeof p, "%s/out.bin", g_dir);
    pm_error err;
    pm_outfile o;
    assert_int_equal(pm_outfile_open(&o, p, &err), PM_OK);
    fputs("first", o.f);
    pm_outfile_abort(&o); /* nothing appears */
    assert_int_not_equal(access(p, F_OK), 0);
    assert_int_equal(pm_outfile_open(&o, p, &err), PM_OK);
    fputs("second", o.f);
    assert_int_not_equal(access(p, F_OK), 0); /* not there before the commit */
    assert_int_equal(pm_outfile_commit(&o, &err), PM_OK);
    char *t;
    size_t n;
    assert_int_equal(pm_file_read_all(&t, &n, p, 0, 0, &err), PM_OK);
    assert_string_equal(t, "second");
    free(t);
    /* a stream that fails (write to a full device) fails the commit, the old file stays */
    if (access("/dev/full", W_OK) == 0) {
        assert_int_equal(pm_outfile_open(&o, p, &err), PM_OK);
        fclose(o.f);
        o.f = fopen("/dev/full", "wb");
        assert_non_null(o.f);
        for (int i = 0; i < 100000; i++) fputs("xxxxxxxxxx", o.f);
        assert_int_equal(pm_outfile_commit(&o, &err), PM_ERR_IO);
        assert_string_equal(err.file, p);
        assert_int_equal(pm_file_read_all(&t, &n, p, 0, 0, &err), PM_OK);
        assert_string_equal(t, "second");
        free(t);
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q '\\.tmp\\.'", g_dir);
    assert_int_not_equal(system(cmd), 0); /* no temporary left behind */
    assert_int_equal(pm_outfile_open(&o, g_dir, &err), PM_ERR_IO);
    assert_non_null(strstr(err.msg, "directory"));
}

/* targets that are not regular files are refused, never replaced (also behind a link); a link to a
 * regular file is replaced by the new file and its target left alone; the temporary's name is not
 * predictable and never an existing file */
static void outfile_special_targets(void **state) {
    (void)state;
    pm_error err;
    pm_outfile o;
    struct stat sb;
    if (stat("/dev/null", &sb) == 0 && S_ISCHR(sb.st_mode)) {
        if (pm_outfile_open(&o, "/dev/null", &err) == PM_OK) { /* never commit here: it would replace /dev/null */
            pm_outfile_abort(&o);
            fail_msg("/dev/null accepted as an output file");
        }
        assert_non_null(strstr(err.msg, "character device"));
        assert_string_equal(err.file, "/dev/null");
        assert_int_equal(stat("/dev/null", &sb), 0);
        assert_true(S_ISCHR(sb.st_mode));
    }
    char fifo[400], lnk[400], victim[400], lnk2[400], p[400];
    snprintf(fifo, sizeof fifo, "%s/out.fifo", g_dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(pm_write_file(fifo, "x", 1, &err), PM_ERR_IO);
    assert_non_null(strstr(err.msg, "FIFO"));
    snprintf(lnk2, sizeof lnk2, "%s/to-fifo", g_dir);
    assert_int_equal(symlink(fifo, lnk2), 0);
    assert_int_equal(pm_write_file(lnk2, "x", 1, &err), PM_ERR_IO); /* behind a link: refused too */
    assert_non_null(strstr(err.msg, "FIFO"));
    assert_int_equal(stat(fifo, &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode));
    /* a link to a regular file: the link becomes the new file, the file it pointed to is unchanged */
    snprintf(victim, sizeof victim, "%s/victim.txt", g_dir);
    snprintf(lnk, sizeof lnk, "%s/proof.json", g_dir);
    assert_int_equal(pm_write_file(victim, "victim", 6, &err), PM_OK);
    assert_int_equal(symlink(victim, lnk), 0);
    assert_int_equal(pm_write_file(lnk, "proof", 5, &err), PM_OK);
    char *t;
    size_t n;
    assert_int_equal(pm_file_read_all(&t, &n, victim, 0, 0, &err), PM_OK);
    assert_string_equal(t, "victim");
    free(t);
    assert_int_equal(lstat(lnk, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    /* two writers of one target get different, unpredictable temporaries, created exclusively */
    snprintf(p, sizeof p, "%s/two.bin", g_dir);
    pm_outfile a, b;
    assert_int_equal(pm_outfile_open(&a, p, &err), PM_OK);
    assert_int_equal(pm_outfile_open(&b, p, &err), PM_OK);
    assert_string_not_equal(a.tmp, b.tmp);
    char pidname[450];
    snprintf(pidname, sizeof pidname, "%s.tmp.%ld", p, (long)getpid());
    assert_string_not_equal(a.tmp, pidname);
    assert_int_equal(strlen(a.tmp), strlen(p) + 5 + 16);
    assert_int_equal(lstat(a.tmp, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    pm_outfile_abort(&a);
    pm_outfile_abort(&b);
    assert_int_not_equal(access(p, F_OK), 0);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls '%s' | grep -q '\\.tmp\\.'", g_dir);
    assert_int_not_equal(system(cmd), 0); /* no temporary left behind */
}

static void strbuf_and_clock(void **state) {
    (void)state;
    pm_strbuf b = {0};
    char *t = pm_sb_take(&b);
    assert_string_equal(t, "");
    free(t);
    for (int i = 0; i < 5000; i++) pm_sb_printf(&b, "%d,", i);
    PM_SB_LIT(&b, "end");
    pm_sb_u64(&b, 18446744073709551615ull);
    assert_false(b.oom);
    assert_int_equal(strlen(b.p), b.n);
    assert_memory_equal(b.p, "0,1,2,3,", 8);
    assert_non_null(strstr(b.p, ",4999,end18446744073709551615"));
    t = pm_sb_take(&b);
    assert_null(b.p);
    free(t);
    double s0 = pm_now_s();
    int64_t u0 = pm_now_us();
    usleep(20000);
    assert_true(pm_now_s() - s0 >= 0.019);
    assert_true(pm_now_us() - u0 >= 19000);
}

static int setup(void **state) {
    (void)state;
    return pm_test_mkdtemp(g_dir, sizeof g_dir, "pm_util");
}

static int teardown(void **state) {
    (void)state;
    return pm_test_rmtree(g_dir);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(read_all),
        cmocka_unit_test(outfile_commit_and_abort),
        cmocka_unit_test(outfile_special_targets),
        cmocka_unit_test(strbuf_and_clock),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
