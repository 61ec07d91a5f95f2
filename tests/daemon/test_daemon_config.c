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
#include "util/settings.h"

/* the one environment snapshot (util/settings.h) replaced by one variable, or by none */
static void env1(const char *assignment) {
    const char *envp[] = {assignment, NULL};
    pm_settings_env_reset(envp);
}

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
#ifdef PROOFMILL_NO_GRPC
    assert_string_equal(c.grpc_listen, ""); /* a build without the gRPC API (-DPROOFMILL_GRPC=OFF) listens on none */
#else
    assert_string_equal(c.grpc_listen, "127.0.0.1:9820"); /* cuzk's port, loopback only */
#endif
    assert_true(c.grpc_max_message >= 64ull << 20);       /* a 32 GiB C1 is ~50 MB */
    assert_int_equal(c.gpu_workers_per_device, 2);
    assert_int_equal(c.http_max_body, 128ull << 20);
    /* the parameter directory: the knob, else $FIL_PROOFS_PARAMETER_CACHE, else Filecoin's default */
    env1(NULL);
    assert_string_equal(pm_daemon_params_dir(&c), "/var/tmp/filecoin-proof-parameters");
    env1("FIL_PROOFS_PARAMETER_CACHE=/data/params");
    assert_string_equal(pm_daemon_params_dir(&c), "/data/params");
    env1("FIL_PROOFS_PARAMETER_CACHE=");
    assert_string_equal(pm_daemon_params_dir(&c), "/var/tmp/filecoin-proof-parameters");
    snprintf(c.params_dir, sizeof c.params_dir, "/srv/p");
    assert_string_equal(pm_daemon_params_dir(&c), "/srv/p");
    pm_settings_env_reset(NULL);
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
    /* a line longer than the INI reader holds (a 32 GiB PoRep .params path with KIND: is 205
     * characters) is refused naming it, not cut into a "syntax error" on a line the file lacks;
     * 198 characters still read whole */
    char text[600], val[300];
    for (int len = 198; len <= 205; len += 7) {
        memset(val, 'a', sizeof val);
        val[len - (int)strlen("preload = porep-c2:/")] = 0;
        snprintf(text, sizeof text, "[keys]\npreload = porep-c2:/%s\n[log]\nlevel = warn\n", val);
        pm_daemon_config_default(&c);
        p = write_tmp(text);
        pm_status st = pm_daemon_config_load(&c, p, 0, &err);
        if (len == 198) {
            assert_int_equal(st, PM_OK);
            assert_int_equal((int)strlen(c.keys_preload), len - (int)strlen("preload = "));
        } else {
            assert_int_equal(st, PM_ERR_FORMAT);
            assert_non_null(strstr(err.msg, "line 2: 205 characters"));
            assert_non_null(strstr(err.msg, "--set"));
        }
        unlink(p);
    }
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

/* #17 papercuts: TOML-style quoted values, sizes dumped as K/M/G, each section once, the state
 * directory's default. */
static void quoted_sizes_sections(void **state) {
    (void)state;
    pm_daemon_config c;
    pm_daemon_config_default(&c);
    pm_error err;
    pm_error_clear(&err);
    char *p = write_tmp("[listen]\ntcp = \"127.0.0.1:19821\"\nunix = '/run/pm.sock'\n[memory]\nbudget = \"32M\"\n"
                        "[trace]\nenabled = \"true\"\n[jobs]\nmax = \"5\"\n");
    pm_status lst = pm_daemon_config_load(&c, p, 0, &err);
    if (lst) fprintf(stderr, "%s\n", err.msg);
    assert_int_equal(lst, PM_OK);
    assert_string_equal(c.listen_tcp, "127.0.0.1:19821");
    assert_string_equal(c.listen_unix, "/run/pm.sock");
    assert_int_equal(c.memory_budget, 32ull << 20);
    assert_int_equal(c.trace_enabled, 1);
    assert_int_equal(c.jobs_max, 5);
    unlink(p);
    assert_int_equal(pm_daemon_config_set(&c, "log.level=\"debug\"", &err), PM_OK);
    assert_string_equal(c.log_level, "debug");
    assert_int_equal(pm_daemon_config_set(&c, "http.max_body_bytes=5000", &err), PM_OK);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pm_daemon_config_dump(&c, f, 0);
    fclose(f);
    assert_non_null(strstr(buf, "budget = 32M\n"));
    assert_non_null(strstr(buf, "margin = 1G\n"));
    assert_non_null(strstr(buf, "max_body_bytes = 5000\n")); /* not a multiple: bytes */
    /* every [section] once */
    for (const char *s = buf; (s = strstr(s, "\n[")); s++) {
        char name[64];
        size_t n = strcspn(s + 1, "\n");
        snprintf(name, sizeof name, "\n%.*s\n", (int)n, s + 1);
        assert_null(strstr(s + 1, name));
    }
    free(buf);
    /* the state directory: set, off, or the environment's */
    char sd[512];
    snprintf(c.state_dir, sizeof c.state_dir, "off");
    assert_string_equal(pm_daemon_state_dir(&c, sd, sizeof sd), "");
    snprintf(c.state_dir, sizeof c.state_dir, "/srv/pm");
    assert_string_equal(pm_daemon_state_dir(&c, sd, sizeof sd), "/srv/pm");
    c.state_dir[0] = 0;
    env1("STATE_DIRECTORY=/var/lib/proofmill:/other");
    assert_string_equal(pm_daemon_state_dir(&c, sd, sizeof sd), "/var/lib/proofmill");
    env1("XDG_STATE_HOME=/home/u/.st");
    assert_string_equal(pm_daemon_state_dir(&c, sd, sizeof sd), "/home/u/.st/proofmill");
    env1("HOME=/home/u");
    assert_string_equal(pm_daemon_state_dir(&c, sd, sizeof sd), "/home/u/.local/state/proofmill");
    env1(NULL);
    assert_string_equal(pm_daemon_state_dir(&c, sd, sizeof sd), "/var/lib/proofmill");
    pm_settings_env_reset(NULL);
}

/* the library's settings (util/settings.h) through the daemon's config: --set, a config file line
 * (applied only when the whole file reads), not on reload, listed by the dump, read back */
static void library_settings(void **state) {
    (void)state;
    env1(NULL); /* no variable of the machine's environment interferes */
    pm_daemon_config c;
    pm_daemon_config_default(&c);
    pm_error err;
    pm_error_clear(&err);
    assert_int_equal(pm_daemon_config_set(&c, "gpu.memory=24G", &err), PM_OK);
    assert_int_equal(pm_setting_u64("gpu.memory"), 24ull << 30);
    assert_int_equal(pm_daemon_config_set(&c, "gpu.chunk_points=\"4096\"", &err), PM_OK); /* quoted as knobs */
    assert_int_equal(pm_setting_u64("gpu.chunk_points"), 4096);
    assert_int_equal(pm_daemon_config_set(&c, "gpu.memory=lots", &err), PM_ERR_FORMAT);
    assert_string_equal(err.file, "--set");
    assert_non_null(strstr(err.msg, "gpu.memory: 'lots' is not a size"));
    assert_int_equal(pm_setting_u64("gpu.memory"), 24ull << 30); /* unchanged */
    assert_int_equal(pm_daemon_config_set(&c, "gpu.nope=1", &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "unknown setting 'gpu.nope'"));
    /* a file: gpu.memory beside a daemon knob of the same section */
    char *p = write_tmp("[gpu]\nworkers_per_device = 3\nmemory = 16G\nverbose = yes\n");
    assert_int_equal(pm_daemon_config_load(&c, p, 0, &err), PM_OK);
    assert_int_equal(c.gpu_workers_per_device, 3);
    assert_int_equal(pm_setting_u64("gpu.memory"), 16ull << 30);
    assert_int_equal(pm_setting_bool("gpu.verbose"), 1);
    unlink(p);
    /* a bad value names the file's line; a good library line before it is not applied */
    p = write_tmp("[gpu]\nmemory = 8G\nverbose = maybe\n");
    assert_int_equal(pm_daemon_config_load(&c, p, 0, &err), PM_ERR_FORMAT);
    assert_non_null(strstr(err.msg, "line 3"));
    assert_non_null(strstr(err.msg, "gpu.verbose"));
    assert_int_equal(pm_setting_u64("gpu.memory"), 16ull << 30);
    unlink(p);
    p = write_tmp("[gpu]\nmemory = 8G\n[trace]\nenabled = maybe\n");
    assert_int_equal(pm_daemon_config_load(&c, p, 0, &err), PM_ERR_FORMAT);
    assert_int_equal(pm_setting_u64("gpu.memory"), 16ull << 30);
    unlink(p);
    /* SIGHUP: library settings are not reloadable */
    p = write_tmp("[gpu]\nmemory = 8G\n[log]\nlevel = debug\n");
    assert_int_equal(pm_daemon_config_load(&c, p, 1, &err), PM_OK);
    assert_int_equal(pm_setting_u64("gpu.memory"), 16ull << 30);
    unlink(p);
    /* the dump lists them in their sections (with their variables) and reads back */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    pm_daemon_config_dump(&c, f, 0);
    fclose(f);
    const char *gpu = strstr(buf, "[gpu]\n");
    assert_non_null(gpu);
    const char *mem = strstr(buf, "\nmemory = 16G\n");
    assert_non_null(mem);
    assert_true(mem > gpu && mem < strstr(gpu, "\n[")); /* inside [gpu] */
    assert_non_null(strstr(buf, "PROOFMILL_GPU_BUDGET"));
    assert_non_null(strstr(buf, "[field]\n"));
    assert_null(strstr(buf, "FIL_PROOFS_PARAMETER_CACHE)")); /* filecoin.params_dir stays the daemon's knob */
    env1(NULL);
    assert_int_equal(pm_setting_u64("gpu.memory"), 0);
    p = write_tmp(buf);
    pm_daemon_config d;
    pm_daemon_config_default(&d);
    assert_int_equal(pm_daemon_config_load(&d, p, 0, &err), PM_OK);
    assert_int_equal(pm_setting_u64("gpu.memory"), 16ull << 30);
    assert_int_equal(pm_setting_u64("gpu.chunk_points"), 4096);
    unlink(p);
    free(buf);
    /* the markdown table too */
    buf = NULL;
    f = open_memstream(&buf, &len);
    pm_daemon_config_dump(&c, f, 1);
    fclose(f);
    assert_non_null(strstr(buf, "| `gpu.memory` | `0` | >= 0 | no |"));
    assert_non_null(strstr(buf, "| `field.backend` | `auto` | auto, adx, portable | no |"));
    free(buf);
    pm_settings_env_reset(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quoted_sizes_sections),
        cmocka_unit_test(defaults_and_parse),
        cmocka_unit_test(errors_name_the_line),
        cmocka_unit_test(set_reload_dump),
        cmocka_unit_test(library_settings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
