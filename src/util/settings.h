/*
 * settings.h — every run-time setting of the library in ONE table, and the one snapshot of the
 * process environment (the redis habit: even debug switches are rows of the config table; h2o's
 * modules declare their settings to one configurator).
 *
 * A setting has a dotted name ("gpu.memory"), the environment variable(s) that set it (first one
 * set wins: PROOFMILL_GPU_MEMORY before the older PROOFMILL_GPU_BUDGET), a type, a default, bounds
 * and a one-line doc. Types:
 *   string  any text, or one of a '|'-separated list of choices;
 *   uint    a decimal number within [min, max];
 *   size    bytes: a decimal number with an optional K, M, G or T suffix (powers of 1024; "KiB",
 *           "KB" and lower case read the same), within [min, max];
 *   bool    true/false, yes/no, on/off, 1/0 (any case).
 *
 * The value of a setting is the last of: its default; its environment variable (read once, see
 * below); pm_setting_set (a config file line, `proofmill daemon --set`, a test). Explicit
 * configuration therefore wins over the environment.
 *
 * The environment is read ONCE: at the first call of any function here, one snapshot of `environ`
 * is copied (util/settings.c holds the only getenv/environ read of src/). An environment variable
 * set to the empty string counts as unset. A malformed value (PROOFMILL_GPU_MEMORY=lots) does not
 * abort: it is reported once on stderr ("proofmill: environment PROOFMILL_GPU_MEMORY: 'lots' is not
 * a size ...; gpu.memory keeps its default 0") and the default is used.
 *
 * Threads: reads (pm_setting_*, pm_settings_env, iteration) may come from any thread at any time;
 * a value read is never torn (values are published atomically and the text of an old value stays
 * valid for the life of the process). Settings are meant to be set at start (config file, --set)
 * or in tests, before the threads that read them depend on a stable value; pm_settings_env_reset is
 * for tests only and must not race with other calls.
 *
 * Adding a setting: one row in the table of settings.c (docs/CONTRIBUTING.md "Settings").
 */
#ifndef PROOFMILL_UTIL_SETTINGS_H
#define PROOFMILL_UTIL_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { PM_SETTING_STR, PM_SETTING_UINT, PM_SETTING_SIZE, PM_SETTING_BOOL } pm_setting_type;

/* One row of the table. env: up to three variable names, NULL after the last (first set one wins).
 * def: the default as text (parsed like any value). min/max: bounds of uint and size settings.
 * choices: for string settings, "a|b|c" (the value must be one of them) or NULL (any text). */
typedef struct {
    const char *name;
    const char *env[3];
    pm_setting_type type;
    const char *def;
    uint64_t min, max;
    const char *choices;
    const char *doc;
} pm_setting_def;

/* The current value of setting `name` as text: the default when neither the environment nor
 * pm_setting_set gave one. Sizes in their shortest exact K/M/G/T form ("24G", "1536"), booleans as
 * "true"/"false", numbers in decimal. NULL for an unknown name. The text stays valid for the life
 * of the process. */
const char *pm_setting_str(const char *name);
/* The value of a uint setting, a size setting (bytes) or a bool setting (0/1); 0 for an unknown
 * name or a string setting (a PM_VERIFY build stops on either: a programmer's error). */
uint64_t pm_setting_u64(const char *name);
/* The value of a bool setting, 0 or 1; 0 for an unknown name or another type (PM_VERIFY stops). */
int pm_setting_bool(const char *name);
/* Check `value` for setting `name` and make it the current value. Errors (err filled, file "setting
 * <name>", the value left as it was): PM_ERR_ARG for an unknown name, PM_ERR_FORMAT for a value that
 * does not parse for the type, is out of bounds or is not one of the choices. */
pm_status pm_setting_set(const char *name, const char *value, pm_error *err);
/* What pm_setting_set would answer, without setting anything (a config file is checked whole before
 * any of it applies). */
pm_status pm_setting_check(const char *name, const char *value, pm_error *err);

/* Variable `var` of the one environment snapshot (HOME, XDG_STATE_HOME, STATE_DIRECTORY, ...);
 * NULL when unset (an empty value is returned as ""). Valid until pm_settings_env_reset. */
const char *pm_settings_env(const char *var);
/* Tests only: replace the environment snapshot with envp ("NAME=value" strings, NULL-terminated;
 * envp == NULL re-reads the process environment) and reset every setting to its default and that
 * environment, dropping earlier pm_setting_set values. Not thread-safe. */
void pm_settings_env_reset(const char *const *envp);

/* Iteration for dumps and docs: the number of settings, row i (i < count, table order) and its
 * current value (pm_setting_str of its name). */
size_t pm_settings_count(void);
const pm_setting_def *pm_settings_def(size_t i);
const char *pm_settings_value(size_t i);
/* The row of `name`, or NULL. */
const pm_setting_def *pm_settings_find(const char *name);

/* Parsers shared with other tables (daemon/config.c). pm_settings_parse_u64: a decimal number
 * (leading and trailing blanks allowed), with size_suffix one K/M/G/T suffix (optionally followed by
 * i and/or B, any case) multiplying by a power of 1024; 0, or -1 on anything else or overflow.
 * pm_settings_parse_bool: true/yes/on/1 -> 1, false/no/off/0 -> 0 (any case); 0, or -1. */
int pm_settings_parse_u64(uint64_t *out, const char *v, int size_suffix);
int pm_settings_parse_bool(int *out, const char *v);
/* x as its shortest exact K/M/G/T form ("64M"; "1536" when no suffix divides it), into out[n]. */
void pm_settings_size_text(uint64_t x, char *out, size_t n);

#ifdef __cplusplus
}
#endif
#endif
