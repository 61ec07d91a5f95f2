/*
 * opts.c — getopt_long(3) over a table of options, with --help generated from the table (opts.h).
 */
#include "cli/opts.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/error.h"
#include "util/progress.h"

enum { HELP_ID = 'h' };

static int is_short(int id) { return id > 0 && id < 256 && isalnum(id); }

void pm_cli_args_init(pm_cli_args *a, const pm_cli_spec *spec, int argc, char **argv) {
    memset(a, 0, sizeof *a);
    a->spec = spec;
    a->argc = argc;
    a->argv = argv;
    size_t n = 0, s = 0;
    a->shorts[s++] = ':'; /* ':' for a missing value, '?' for an unknown option; we print both */
    a->shorts[s++] = 'h';
    for (const pm_cli_opt *o = spec->opts; o && o->name && n < PM_CLI_MAX_OPTS; o++, n++) {
        a->lo[n] = (struct option){o->name, o->arg ? required_argument : no_argument, NULL, o->id};
        int first = 1;
        for (const pm_cli_opt *p = spec->opts; p < o; p++) first &= p->id != o->id;
        if (is_short(o->id) && first) {
            a->shorts[s++] = (char)o->id;
            if (o->arg) a->shorts[s++] = ':';
        }
    }
    a->lo[n++] = (struct option){"help", no_argument, NULL, HELP_ID};
    a->lo[n] = (struct option){0, 0, 0, 0};
    a->shorts[s] = 0;
    optind = 0; /* GNU: re-initialise (every command parses from a fresh state) */
    opterr = 0;
}

/* The option a getopt_long error is about, as the user typed it, into buf (cap bytes). A long option
 * ends its argv element, so it is argv[optind - 1]: an unknown one (optopt 0), or one given a value
 * it does not take, or missing its value (optopt its id; the element then starts with "--" and names,
 * or abbreviates, an option of that id). Anything else is a short option letter, which may sit inside
 * a cluster ("-vz") that getopt has not left yet, so the element is not looked at: "-<optopt>". */
static const char *typed(char *buf, size_t cap, const pm_cli_args *a) {
    const char *t = optind > 0 && optind <= a->argc ? a->argv[optind - 1] : "";
    if (!optopt) return t;
    if (strncmp(t, "--", 2) == 0) {
        size_t n = strcspn(t + 2, "=");
        for (size_t i = 0; a->lo[i].name; i++)
            if (a->lo[i].val == optopt && n && strncmp(a->lo[i].name, t + 2, n) == 0) {
                snprintf(buf, cap, "%.*s", (int)(n + 2), t);
                return buf;
            }
    }
    snprintf(buf, cap, "-%c", isprint(optopt) ? optopt : '?');
    return buf;
}

int pm_cli_next(pm_cli_args *a) {
    a->arg = NULL;
    int c = getopt_long(a->argc, a->argv, a->shorts, a->lo, NULL);
    if (c == -1) {
        a->ind = optind;
        return PM_CLI_DONE;
    }
    if (c == HELP_ID) {
        pm_cli_help(a->spec, stdout);
        a->rc = PM_EXIT_OK;
        return PM_CLI_EXIT;
    }
    if (c == ':' || c == '?') {
        char buf[160];
        const char *t = typed(buf, sizeof buf, a);
        if (c == ':') a->rc = pm_cli_spec_usage(a->spec, "%s needs a value", t);
        else if (optopt && strncmp(t, "--", 2) == 0) a->rc = pm_cli_spec_usage(a->spec, "%s takes no value", t);
        else if (optopt >= '0' && optopt <= '9')
            a->rc = pm_cli_spec_usage(a->spec, "unknown option '%s' (a negative number? no value here can be negative)", t);
        else a->rc = pm_cli_spec_usage(a->spec, "unknown option '%s'", t);
        return PM_CLI_EXIT;
    }
    a->arg = optarg;
    return c;
}

void pm_cli_help(const pm_cli_spec *spec, FILE *f) {
    fprintf(f, "usage: proofmill %s\n", spec->usage);
    if (spec->about) fprintf(f, "\n%s\n", spec->about);
    fprintf(f, "\noptions:\n");
    for (const pm_cli_opt *o = spec->opts; o && o->name; o++) {
        int first = 1;
        for (const pm_cli_opt *p = spec->opts; p < o; p++) first &= p->id != o->id;
        if (!first) continue;
        char left[160];
        size_t n = 0;
        if (is_short(o->id)) n += (size_t)snprintf(left + n, sizeof left - n, "-%c, ", o->id);
        n += (size_t)snprintf(left + n, sizeof left - n, "--%s", o->name);
        for (const pm_cli_opt *p = o + 1; p->name && n < sizeof left; p++)
            if (p->id == o->id) n += (size_t)snprintf(left + n, sizeof left - n, ", --%s", p->name);
        if (o->arg && n < sizeof left) snprintf(left + n, sizeof left - n, " %s", o->arg);
        if (strlen(left) > 24) fprintf(f, "  %s\n  %-24s %s\n", left, "", o->help ? o->help : "");
        else fprintf(f, "  %-24s %s\n", left, o->help ? o->help : "");
    }
    fprintf(f, "  %-24s %s\n", "-h, --help", "this text");
}

int pm_cli_spec_usage(const pm_cli_spec *spec, const char *fmt, ...) {
    va_list ap;
    pm_progress_stop();
    va_start(ap, fmt);
    fprintf(stderr, "proofmill: %s: ", spec->cmd);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n(run `proofmill %s --help` for usage)\n", spec->cmd);
    va_end(ap);
    return PM_EXIT_USAGE;
}

int pm_cli_args_plain(pm_cli_args *a, const pm_cli_spec *spec, int argc, char **argv) {
    pm_cli_args_init(a, spec, argc, argv);
    for (int o; (o = pm_cli_next(a)) != PM_CLI_DONE;)
        if (o == PM_CLI_EXIT) return a->rc;
    return -1;
}

int pm_cli_drop_stale_csr(const char *path, pm_error *err) {
    if (unlink(path) == 0) {
        fprintf(stderr, "proofmill: %s: removed (--no-csr: the recording of an earlier setup)\n", path);
        return 0;
    }
    if (errno == ENOENT) return 0;
    return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "--no-csr: cannot remove the earlier .csr: %s",
                        strerror(errno));
}
