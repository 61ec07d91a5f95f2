/* util/settings.h: the table (every row's default valid, names dotted and unique), parsing by type
 * (sizes with K/M/G/T suffixes, bounds, booleans, choices), bad values from the environment (reported,
 * default kept, no abort) and from pm_setting_set (an error naming the setting), the environment read
 * once (a later setenv is not seen; pm_settings_env_reset replaces the snapshot), the older variable of
 * gpu.memory, set/get from several threads. Label hostile. */
#include "test_util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/settings.h"

static void env_set(const char *const *envp) { pm_settings_env_reset(envp); }

static void table_rows(void **state) {
    (void)state;
    env_set((const char *const[]){NULL});
    assert_true(pm_settings_count() >= 20);
    for (size_t i = 0; i < pm_settings_count(); i++) {
        const pm_setting_def *d = pm_settings_def(i);
        assert_non_null(strchr(d->name, '.'));
        assert_non_null(d->doc);
        assert_true(d->doc[0] != 0);
        assert_ptr_equal(pm_settings_find(d->name), d);
        for (size_t j = 0; j < i; j++) assert_string_not_equal(d->name, pm_settings_def(j)->name);
        /* every default is a value of its own row, and the current value (no environment) */
        pm_error e;
        assert_int_equal(pm_setting_check(d->name, d->def, &e), PM_OK);
        assert_string_equal(pm_settings_value(i), pm_setting_str(d->name));
    }
    /* the names other code is written against */
    const char *need[] = {"gpu.memory", "gpu.chunk_points", "gpu.verbose", "field.backend", "progress.mode",
                          "filecoin.params_dir", "client.token_file"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) assert_non_null(pm_settings_find(need[i]));
    assert_int_equal(pm_settings_find("gpu.memory")->type, PM_SETTING_SIZE);
    assert_int_equal(pm_settings_find("gpu.verbose")->type, PM_SETTING_BOOL);
    assert_string_equal(pm_setting_str("gpu.memory"), "0");
    assert_int_equal(pm_setting_u64("gpu.memory"), 0);
    assert_string_equal(pm_setting_str("gpu.verbose"), "false");
    assert_int_equal(pm_setting_bool("field.fr_bfly_step2"), 1);
    /* unknown names (a programmer's error: a PM_VERIFY build stops there, see verify_stops) */
#ifndef PM_VERIFY
    assert_null(pm_setting_str("gpu.nope"));
    assert_int_equal(pm_setting_u64("gpu.nope"), 0);
    assert_int_equal(pm_setting_bool("gpu.memory"), 0); /* not a bool */
#endif
    assert_null(pm_settings_find("nope"));
}

static void parse_and_set(void **state) {
    (void)state;
    env_set((const char *const[]){NULL});
    pm_error e;
    pm_error_clear(&e);
    struct { const char *in; uint64_t bytes; const char *text; } sizes[] = {
        {"24G", 24ull << 30, "24G"},  {"24g", 24ull << 30, "24G"},  {"1536", 1536, "1536"},
        {"2048", 2048, "2K"},         {"3MiB", 3ull << 20, "3M"},   {"1KB", 1024, "1K"},
        {" 7M ", 7ull << 20, "7M"},   {"2T", 2ull << 40, "2T"},     {"0", 0, "0"},
        {"16777215T", 16777215ull << 40, "16777215T"},
    };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        assert_int_equal(pm_setting_set("gpu.memory", sizes[i].in, &e), PM_OK);
        assert_int_equal(pm_setting_u64("gpu.memory"), sizes[i].bytes);
        assert_string_equal(pm_setting_str("gpu.memory"), sizes[i].text);
    }
    const char *bad_sizes[] = {"", "G", "-1", "12Q", "1.5G", "1G2", "99999999999999999999", "16777216T", "0x10"};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; i++) {
        assert_int_equal(pm_setting_set("gpu.memory", bad_sizes[i], &e), PM_ERR_FORMAT);
        assert_non_null(strstr(e.msg, "gpu.memory"));
        assert_string_equal(pm_setting_str("gpu.memory"), "16777215T"); /* unchanged */
    }
    /* uint: no suffix, bounds */
    assert_int_equal(pm_setting_set("gpu.msm_window", "22", &e), PM_OK);
    assert_int_equal(pm_setting_u64("gpu.msm_window"), 22);
    assert_int_equal(pm_setting_set("gpu.msm_window", "23", &e), PM_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "23 is outside [0, 22]"));
    assert_int_equal(pm_setting_set("gpu.chunk_points", "4K", &e), PM_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "not a number"));
    /* bool */
    const char *yes[] = {"true", "YES", "on", "1"}, *no[] = {"false", "No", "OFF", "0"};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(pm_setting_set("gpu.verbose", yes[i], &e), PM_OK);
        assert_int_equal(pm_setting_bool("gpu.verbose"), 1);
        assert_string_equal(pm_setting_str("gpu.verbose"), "true");
        assert_int_equal(pm_setting_u64("gpu.verbose"), 1);
        assert_int_equal(pm_setting_set("gpu.verbose", no[i], &e), PM_OK);
        assert_int_equal(pm_setting_bool("gpu.verbose"), 0);
    }
    assert_int_equal(pm_setting_set("gpu.verbose", "maybe", &e), PM_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "not a boolean"));
    /* strings: choices, free text */
    assert_int_equal(pm_setting_set("field.backend", "portable", &e), PM_OK);
    assert_string_equal(pm_setting_str("field.backend"), "portable");
    assert_int_equal(pm_setting_set("field.backend", "port", &e), PM_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "not one of auto|adx|portable"));
    assert_int_equal(pm_setting_set("field.backend", "portable2", &e), PM_ERR_FORMAT);
    assert_int_equal(pm_setting_set("client.token_file", "/run/pm token", &e), PM_OK);
    assert_string_equal(pm_setting_str("client.token_file"), "/run/pm token");
    /* check sets nothing; unknown names and NULL values are errors */
    assert_int_equal(pm_setting_check("gpu.memory", "1G", &e), PM_OK);
    assert_string_equal(pm_setting_str("gpu.memory"), "16777215T");
    assert_int_equal(pm_setting_set("gpu.nope", "1", &e), PM_ERR_ARG);
    assert_non_null(strstr(e.msg, "unknown setting 'gpu.nope'"));
    assert_int_equal(pm_setting_set("gpu.memory", NULL, &e), PM_ERR_FORMAT);
    assert_int_equal(pm_setting_set("gpu.memory", "1G", NULL), PM_OK); /* err may be NULL */
    /* reset: back to the defaults and the snapshot */
    env_set((const char *const[]){NULL});
    assert_string_equal(pm_setting_str("gpu.memory"), "0");
    assert_string_equal(pm_setting_str("field.backend"), "auto");
}

static void environment(void **state) {
    (void)state;
    /* the newer variable wins over the older; both read as sizes */
    env_set((const char *const[]){"PROOFMILL_GPU_BUDGET=1K", "PROOFMILL_GPU_MEMORY=2G", "HOME=/home/u", NULL});
    assert_int_equal(pm_setting_u64("gpu.memory"), 2ull << 30);
    assert_string_equal(pm_settings_env("HOME"), "/home/u");
    assert_null(pm_settings_env("HOM"));
    assert_null(pm_settings_env("XDG_STATE_HOME"));
    env_set((const char *const[]){"PROOFMILL_GPU_BUDGET=1K", "PROOFMILL_GPU_CHUNK_POINTS=3", NULL});
    assert_int_equal(pm_setting_u64("gpu.memory"), 1024);
    assert_int_equal(pm_setting_u64("gpu.chunk_points"), 3);
    /* empty counts as unset (the next variable is tried); an explicit set wins over the environment */
    env_set((const char *const[]){"PROOFMILL_GPU_MEMORY=", "PROOFMILL_GPU_BUDGET=4M", "PROOFMILL_PROGRESS=", NULL});
    assert_int_equal(pm_setting_u64("gpu.memory"), 4ull << 20);
    assert_string_equal(pm_setting_str("progress.mode"), "auto");
    assert_string_equal(pm_settings_env("PROOFMILL_PROGRESS"), "");
    assert_int_equal(pm_setting_set("gpu.memory", "8M", NULL), PM_OK);
    assert_int_equal(pm_setting_u64("gpu.memory"), 8ull << 20);
    /* a malformed variable: reported on stderr (seen in the log), the default kept, no abort */
    env_set((const char *const[]){"PROOFMILL_GPU_MEMORY=lots", "PROOFMILL_GPU_VERBOSE=maybe",
                                  "PROOFMILL_FIELD_BACKEND=fast", "PROOFMILL_GPU_MSM_WINDOW=40", NULL});
    assert_int_equal(pm_setting_u64("gpu.memory"), 0);
    assert_int_equal(pm_setting_bool("gpu.verbose"), 0);
    assert_string_equal(pm_setting_str("field.backend"), "auto");
    assert_int_equal(pm_setting_u64("gpu.msm_window"), 0);
    /* every other variable of the table is read */
    for (size_t i = 0; i < pm_settings_count(); i++) {
        const pm_setting_def *d = pm_settings_def(i);
        const char *v = d->type == PM_SETTING_BOOL ? "true" : d->type == PM_SETTING_STR && d->choices ? NULL : "1";
        char text[200];
        if (!v) { /* the last choice */
            const char *bar = strrchr(d->choices, '|');
            v = bar ? bar + 1 : d->choices;
        }
        for (int k = 0; k < 3 && d->env[k]; k++) {
            snprintf(text, sizeof text, "%s=%s", d->env[k], v);
            env_set((const char *const[]){text, NULL});
            if (d->type == PM_SETTING_STR) assert_string_equal(pm_setting_str(d->name), v);
            else assert_int_equal(pm_setting_u64(d->name), 1);
        }
    }
    pm_settings_env_reset(NULL);
}

/* The snapshot is taken once: a setenv after the first read changes nothing until a reset. */
static void read_once(void **state) {
    (void)state;
    setenv("PROOFMILL_GPU_CHUNK_POINTS", "77", 1);
    pm_settings_env_reset(NULL); /* a fresh snapshot of the process environment */
    assert_int_equal(pm_setting_u64("gpu.chunk_points"), 77);
    setenv("PROOFMILL_GPU_CHUNK_POINTS", "78", 1);
    setenv("PM_TEST_SETTINGS_LATE", "x", 1);
    assert_int_equal(pm_setting_u64("gpu.chunk_points"), 77);
    assert_null(pm_settings_env("PM_TEST_SETTINGS_LATE"));
    unsetenv("PROOFMILL_GPU_CHUNK_POINTS");
    unsetenv("PM_TEST_SETTINGS_LATE");
    assert_int_equal(pm_setting_u64("gpu.chunk_points"), 77);
    pm_settings_env_reset(NULL);
    assert_int_equal(pm_setting_u64("gpu.chunk_points"), 0);
}

/* Readers on other threads while one sets: every value read is one that was set (never torn). */
static const char *const g_values[] = {"1K", "2G", "3M"};
static volatile int g_stop;
static void *reader(void *arg) {
    long bad = 0;
    while (!g_stop) {
        const char *s = pm_setting_str("gpu.memory");
        uint64_t x = pm_setting_u64("gpu.memory");
        bad += strcmp(s, "0") && strcmp(s, "1K") && strcmp(s, "2G") && strcmp(s, "3M");
        bad += x != 0 && x != 1024 && x != (2ull << 30) && x != (3ull << 20);
    }
    *(long *)arg = bad;
    return NULL;
}
static void threads(void **state) {
    (void)state;
    env_set((const char *const[]){NULL});
    pthread_t th[2];
    long bad[2] = {0, 0};
    g_stop = 0;
    for (int i = 0; i < 2; i++) assert_int_equal(pthread_create(&th[i], NULL, reader, &bad[i]), 0);
    for (int i = 0; i < 3000; i++) assert_int_equal(pm_setting_set("gpu.memory", g_values[i % 3], NULL), PM_OK);
    g_stop = 1;
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    assert_int_equal(bad[0] + bad[1], 0);
    env_set((const char *const[]){NULL});
}

static void parsers(void **state) {
    (void)state;
    uint64_t x;
    int b;
    assert_int_equal(pm_settings_parse_u64(&x, "12", 0), 0);
    assert_int_equal(x, 12);
    assert_int_equal(pm_settings_parse_u64(&x, "12K", 0), -1);
    assert_int_equal(pm_settings_parse_u64(&x, "12k", 1), 0);
    assert_int_equal(x, 12288);
    assert_int_equal(pm_settings_parse_u64(&x, "18446744073709551615", 0), 0);
    assert_int_equal(pm_settings_parse_u64(&x, "18446744073709551616", 0), -1);
    assert_int_equal(pm_settings_parse_bool(&b, "On"), 0);
    assert_int_equal(b, 1);
    assert_int_equal(pm_settings_parse_bool(&b, "2"), -1);
    char t[32];
    pm_settings_size_text(3ull << 30, t, sizeof t);
    assert_string_equal(t, "3G");
    pm_settings_size_text(1025, t, sizeof t);
    assert_string_equal(t, "1025");
    pm_settings_size_text(0, t, sizeof t);
    assert_string_equal(t, "0");
}

#ifdef PM_VERIFY
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
/* -DPROOFMILL_VERIFY=ON: an unknown setting name (a programmer's error) stops the process with SIGABRT
 * after naming the check on stderr */
static void verify_stops(void **state) {
    (void)state;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        (void)pm_setting_str("gpu.nope");
        _exit(0);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGABRT);
}
#endif

int main(void) {
    const struct CMUnitTest tests[] = {
#ifdef PM_VERIFY
        cmocka_unit_test(verify_stops),
#endif
        cmocka_unit_test(table_rows), cmocka_unit_test(parse_and_set), cmocka_unit_test(environment),
        cmocka_unit_test(read_once),  cmocka_unit_test(threads),       cmocka_unit_test(parsers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
