/* util/confine.h: opens confined to allowed directories without following links below them —
 * outside paths refused before anything is opened, '..' refused, a symbolic link anywhere below
 * the allowed directory refused (also one swapped in after a check), the allowed directory itself
 * may be a link (but not one made after pm_confine_set), missing files inside are plain I/O errors, and pm_file_open / pm_file_read_all /
 * pm_open_regular obey it. Off: plain open. (Hostile: also under ASan.) */
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/confine.h"
#include "util/file.h"

static char root[256], allowed[300], outside[300];

static void put(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state) {
    (void)state;
    assert_int_equal(pm_test_mkdtemp(root, sizeof root, "confine"), 0);
    snprintf(allowed, sizeof allowed, "%s/allowed", root);
    snprintf(outside, sizeof outside, "%s/outside", root);
    assert_int_equal(mkdir(allowed, 0755), 0);
    assert_int_equal(mkdir(outside, 0755), 0);
    char p[512];
    snprintf(p, sizeof p, "%s/sub", allowed);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/sub/ok.txt", allowed);
    put(p, "inside");
    snprintf(p, sizeof p, "%s/secret.txt", outside);
    put(p, "secret");
    return 0;
}

static int teardown(void **state) {
    (void)state;
    pm_confine_set(NULL, NULL);
    pm_test_rmtree(root);
    return 0;
}

static void read_ok(const char *path, const char *want) {
    char *text = NULL;
    size_t len = 0;
    pm_error err;
    pm_error_clear(&err);
    assert_int_equal(pm_file_read_all(&text, &len, path, 0, 0, &err), PM_OK);
    assert_string_equal(text, want);
    free(text);
}

static void refused(const char *path, const char *why) {
    pm_error err;
    pm_error_clear(&err);
    assert_int_equal(pm_confine_check(path, &err), PM_ERR_FORBIDDEN);
    char *text = NULL;
    size_t len = 0;
    pm_error_clear(&err);
    assert_int_equal(pm_file_read_all(&text, &len, path, 0, 0, &err), PM_ERR_FORBIDDEN);
    assert_null(text);
    assert_non_null(strstr(err.msg, why));
    pm_file f;
    assert_int_equal(pm_file_open(&f, path, &err), PM_ERR_FORBIDDEN);
    pm_file_close(&f);
}

static void confined(void **state) {
    (void)state;
    char p[600], l[600];
    pm_error err;
    pm_error_clear(&err);
    snprintf(p, sizeof p, "%s/secret.txt", outside);
    read_ok(p, "secret"); /* off: plain open */
    assert_int_equal(pm_confine_set(allowed, &err), PM_OK);
    assert_true(pm_confine_active());
    snprintf(p, sizeof p, "%s/sub/ok.txt", allowed);
    read_ok(p, "inside");
    assert_int_equal(pm_confine_check(p, &err), PM_OK);
    /* outside, and through '..': refused before anything is opened */
    refused("/etc/shadow", "outside the allowed directories");
    refused("/nonexistent/file", "outside the allowed directories");
    snprintf(p, sizeof p, "%s/secret.txt", outside);
    refused(p, "outside the allowed directories");
    snprintf(p, sizeof p, "%s/sub/../../outside/secret.txt", allowed);
    refused(p, "'..'");
    /* a prefix that is not a directory boundary */
    snprintf(p, sizeof p, "%s2/x", allowed);
    refused(p, "outside the allowed directories");
    /* a link to a file outside, and a link inside to a file inside: both refused */
    snprintf(l, sizeof l, "%s/link.txt", allowed);
    snprintf(p, sizeof p, "%s/secret.txt", outside);
    assert_int_equal(symlink(p, l), 0);
    refused(l, "symbolic link");
    snprintf(l, sizeof l, "%s/inner.txt", allowed);
    assert_int_equal(symlink("sub/ok.txt", l), 0);
    refused(l, "symbolic link");
    /* a directory link in the middle */
    snprintf(l, sizeof l, "%s/dirlink", allowed);
    assert_int_equal(symlink(outside, l), 0);
    snprintf(p, sizeof p, "%s/dirlink/secret.txt", allowed);
    refused(p, "symbolic link");
    /* the swap after a check: sub/ok.txt checked, then replaced by a link to the secret */
    snprintf(p, sizeof p, "%s/sub/ok.txt", allowed);
    assert_int_equal(pm_confine_check(p, &err), PM_OK);
    assert_int_equal(unlink(p), 0);
    snprintf(l, sizeof l, "%s/secret.txt", outside);
    assert_int_equal(symlink(l, p), 0);
    refused(p, "symbolic link");
    int fd;
    uint64_t size;
    assert_int_equal(pm_open_regular(&fd, &size, p, &err), PM_ERR_FORBIDDEN);
    /* a missing file inside: allowed by the check, an I/O error at the open */
    snprintf(p, sizeof p, "%s/sub/missing.wtns", allowed);
    assert_int_equal(pm_confine_check(p, &err), PM_OK);
    assert_int_equal(pm_open_regular(&fd, &size, p, &err), PM_ERR_IO);
    /* relative paths resolve against the working directory */
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(allowed), 0);
    assert_int_equal(pm_confine_check("sub/new.txt", &err), PM_OK);
    assert_int_equal(pm_confine_check("../outside/secret.txt", &err), PM_ERR_FORBIDDEN);
    assert_int_equal(chdir(cwd), 0);
}

static void allowed_dir_may_be_a_link(void **state) {
    (void)state;
    char l[600], p[700];
    pm_error err;
    pm_error_clear(&err);
    snprintf(l, sizeof l, "%s/params", root);
    assert_int_equal(symlink(allowed, l), 0);
    assert_int_equal(pm_confine_set(l, &err), PM_OK);
    snprintf(p, sizeof p, "%s/sub/missing", l);
    assert_int_equal(pm_confine_check(p, &err), PM_OK);
    /* its real path is accepted too */
    snprintf(p, sizeof p, "%s/sub", allowed);
    assert_int_equal(pm_confine_check(p, &err), PM_OK);
    /* a list, and "/" allowing any absolute path */
    char list[900];
    snprintf(list, sizeof list, "%s, %s", outside, allowed);
    assert_int_equal(pm_confine_set(list, &err), PM_OK);
    snprintf(p, sizeof p, "%s/secret.txt", outside);
    read_ok(p, "secret");
    assert_int_equal(pm_confine_set("/", &err), PM_OK);
    read_ok(p, "secret");
    assert_int_equal(pm_confine_set("/a/../b", &err), PM_ERR_ARG);
    assert_false(pm_confine_active());
}

/* An allowed directory missing at pm_confine_set and made later as a link (anyone can, in a
 * world-writable parent such as /var/tmp, filecoin.params_dir's default) is not followed; one made
 * later as a directory works. */
static void allowed_dir_made_later(void **state) {
    (void)state;
    char d[600], p[800];
    pm_error err;
    pm_error_clear(&err);
    snprintf(d, sizeof d, "%s/later", root);
    assert_int_equal(pm_confine_set(d, &err), PM_OK);
    assert_int_equal(symlink(outside, d), 0);
    snprintf(p, sizeof p, "%s/secret.txt", d);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(pm_file_read_all(&text, &len, p, 0, 0, &err), PM_ERR_FORBIDDEN);
    assert_null(text);
    assert_non_null(strstr(err.msg, "symbolic link"));
    assert_int_equal(pm_confine_check(p, &err), PM_ERR_FORBIDDEN);
    int fd = pm_confine_open(d, O_RDONLY | O_DIRECTORY, &err); /* the directory itself */
    assert_true(fd < 0);
    assert_int_equal(unlink(d), 0);
    assert_int_equal(mkdir(d, 0755), 0);
    snprintf(p, sizeof p, "%s/ok.txt", d);
    put(p, "made later");
    read_ok(p, "made later");
    /* its parent missing too, and made later as a link: not followed either */
    char sub[700];
    snprintf(d, sizeof d, "%s/later2", root);
    snprintf(sub, sizeof sub, "%s/sub", d);
    assert_int_equal(pm_confine_set(sub, &err), PM_OK);
    snprintf(p, sizeof p, "%s/sub", outside);
    assert_int_equal(mkdir(p, 0755), 0);
    snprintf(p, sizeof p, "%s/sub/secret.txt", outside);
    put(p, "secret");
    assert_int_equal(symlink(outside, d), 0);
    snprintf(p, sizeof p, "%s/secret.txt", sub);
    assert_int_equal(pm_file_read_all(&text, &len, p, 0, 0, &err), PM_ERR_FORBIDDEN);
    assert_int_equal(unlink(d), 0);
    assert_int_equal(mkdir(d, 0755), 0);
    assert_int_equal(mkdir(sub, 0755), 0);
    put(p, "below, made later");
    read_ok(p, "below, made later");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(confined, setup, teardown),
        cmocka_unit_test_setup_teardown(allowed_dir_may_be_a_link, setup, teardown),
        cmocka_unit_test_setup_teardown(allowed_dir_made_later, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
