/*
 * fuzz_config.c — libFuzzer harness of the daemon's configuration (daemon/config.h): the bytes as
 * an INI file read over the defaults (pm_daemon_config_load, as at start, and with reload_only as
 * on SIGHUP), every line of it as a --set override (pm_daemon_config_set), and the resulting
 * configuration printed both ways (pm_daemon_config_dump to /dev/null).
 */
#include "fuzz_util.h"

#include "daemon/config.h"

static FILE *g_null;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    if (!g_null && !(g_null = fopen("/dev/null", "w"))) abort();
    const char *path = fuzz_file(0, d, n, ".conf");
    pm_daemon_config c;
    pm_error e;
    for (int reload = 0; reload < 2; reload++) {
        pm_daemon_config_default(&c);
        (void)pm_daemon_config_load(&c, path, reload, &e);
    }
    pm_daemon_config_default(&c);
    char *s = fuzz_cstr(d, n);
    for (char *line = s, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        (void)pm_daemon_config_set(&c, line, &e);
    }
    free(s);
    pm_daemon_config_dump(&c, g_null, 0);
    pm_daemon_config_dump(&c, g_null, 1);
    return 0;
}
