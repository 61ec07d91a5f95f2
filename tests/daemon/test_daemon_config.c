/* The daemon's config table: defaults, INI parsing (sections, sizes, booleans), bounds, unknown
 * keys with the file's line, --set overrides, reload of reloadable knobs only, dump round trip.
 * (The base64 codec the API uses for inline inputs: tests/util/test_util_base64.c.) */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/config.h"
#include "daemon/daemon.h"

static char *write_tmp(const char *text) {
    static char path[64];
    snprintf(path, sizeof path, "/tmp/pm-cfg-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

static void defaults_and_parse(void **state) {
    (void)state;
    pm_daemon_config c;
    pm_daemon_config_default(&c);
    assert_string_equal(c.listen_tcp, "127.0.0.1:9821");
    assert_string_equal(c.grpc_listen, "127.0.0.1:9820"); /* cuzk's port, loopback only */
    assert_true(c.grpc_max_message >= 64ull << 20);       /* a 32 GiB C1 is ~50 MB */
    assert_int_equal(c.gpu_workers_per_device, 2);
    assert_int_equal(c.http_max_body, 128ull << 20);
    /* the parameter directory: the knob, else $FIL_PROOFS_PARAMETER_CACHE, else Filecoin's default */
    unsetenv("FIL_PROOFS_PARAMETER_CACHE");
    assert_string_equal(pm_daemon_params_dir(&c), "/var/tmp/filecoin-proof-parameters");
    setenv("FIL_PROOFS_PARAMETER_CACHE", "/data/params", 1);
    assert_string_equal(pm_daemon_params_dir(&c), "/data/params");
    setenv("FIL_PROOFS_PARAMETER_CACHE", "", 1);
    assert_string_equal(pm_daemon_params_dir(&c), "/var/tmp/filecoin-proof-parameters");
    snprintf(c.params_dir, sizeof c.params_dir, "/srv/p");
    assert_string_equal(pm_daemon_params_dir(&c), "/srv/p");
    unsetenv("FIL_PROOFS_PARAMETER_CACHE");
    assert_int_equal(c.memory_margin, 1ull << 30);
    assert_int_equal(c.trace_enabled, 0);
    char *p = write_tmp("; comment\n[gpu]\nworkers_per_device = 3\ndevices = 0,1\n[memory]\nbudget = 12G\n"
                        "[trace]\nenabled = yes\n[listen]\ntcp =\n");
    pm_error err;
    pm_error_clear(&err);
    assert_int_equal(pm_daemon_config_load(&c, p, 0, &err), PM_OK);
    assert_int_equal(c.gpu_workers_per_device, 3);
    assert_string_equal(c.gpu_devices, "0,1");
    assert_int_equal(c.memory_budget, 12ull << 30);
    assert_int_equal(c.trace_enabled, 1);
    assert_string_equal(c.listen_tcp, "");
    unlink(p);
}

static void errors_name_the_line(void **state) {
    (void)state;
    pm_daemon_config c;
    pm_daemon_config_default(&c);
    pm_error err;
    pm_error_clear(&err);
    char *p = write_tmp("[gpu]\nworkers_per_device = 2\n\n[gpu]\nworkers_per_device = 99\n");
    assert_int_equal(pm_daemon_config_load(&c, p, 0, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "line 5"));
    assert_non_null(strstr(err.msg, "outside [1, 64]"));
    assert_int_equal(c.gpu_workers_per_device, 2); /* unchanged on error */
    unlink(p);
    p = write_tmp("[nope]\nthing = 1\n");
    assert_int_equal(pm_daemon_config_load(&c, p, 0, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "unknown setting 'nope.thing'"));
    unlink(p);
    p = write_tmp("[memory]\nbudget = 12Q\n");
    assert_int_equal(pm_daemon_config_load(&c, p, 0, &err), PM_ERR_FORMAT);
    unlink(p);
    p = write_tmp("[trace]\nenabled = maybe\n");
    assert_int_equal(pm_daemon_config_load(&c, p, 0, &err), PM_ERR_FORMAT);
    unlink(p);
    p = write_tmp("not ini at all [\n");
    assert_int_equal(pm_daemon_config_load(&c, p, 0, &err), PM_ERR_FORMAT);
    unlink(p);
    assert_int_equal(pm_daemon_config_load(&c, "/nonexistent/x.conf", 0, &err), PM_ERR_IO);
}

static void set_reload_dump(void **state) {
    (void)state;
    pm_daemon_config c;
    pm_daemon_config_default(&c);
    pm_error err;
    pm_error_clear(&err);
    assert_int_equal(pm_daemon_config_set(&c, "synthesis.workers=7", &err), PM_OK);
    assert_int_equal(c.synth_workers, 7);
    assert_int_equal(pm_daemon_config_set(&c, "synthesis.workers", &err), PM_ERR_FORMAT);
    assert_int_equal(pm_daemon_config_set(&c, "synthesis.workers=0", &err), PM_ERR_FORMAT);
    assert_int_equal(pm_daemon_config_set(&c, "http.max_body_bytes=2MiB", &err), PM_OK);
    assert_int_equal(c.http_max_body, 2ull << 20);
    /* reload applies only reloadable knobs */
    char *p = write_tmp("[synthesis]\nworkers = 3\n[log]\nlevel = debug\n");
    assert_int_equal(pm_daemon_config_load(&c, p, 1, &err), PM_OK);
    assert_int_equal(c.synth_workers, 7);
    assert_string_equal(c.log_level, "debug");
    unlink(p);
    /* dump, then parse the dump: same values */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pm_daemon_config_dump(&c, f, 0);
    fclose(f);
    p = write_tmp(buf);
    pm_daemon_config d;
    pm_daemon_config_default(&d);
    assert_int_equal(pm_daemon_config_load(&d, p, 0, &err), PM_OK);
    assert_memory_equal(&c, &d, sizeof c);
    unlink(p);
    free(buf);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_and_parse),
        cmocka_unit_test(errors_name_the_line),
        cmocka_unit_test(set_reload_dump),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
