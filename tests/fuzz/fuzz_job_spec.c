/*
 * fuzz_job_spec.c — libFuzzer harness of the daemon's job specs: the body of POST /v1/jobs and
 * /v1/prove as the daemon reads it (daemon/api.c: daemon_body_json, then daemon_parse_job), with
 * paths.allow_prefix on (an empty scratch directory and /nonexistent-pm-fuzz, which the seeds
 * name: util/confine.h's lexical and link checks run on every path field). A body that parses is
 * opened as a job of its kind (pm_kind_open_job: inline inputs are decoded from base64 and read by
 * the kind's readers; path inputs can only name the empty directory's entries), as the engine does
 * at submit.
 */
#include "fuzz_util.h"

#include <jansson.h>
#include <sys/stat.h>

#include "daemon/api.h"
#include "kinds/kind.h"
#include "util/confine.h"

static pm_daemon g_d;
static char g_dir[4096];

static void cleanup(void) { rmdir(g_dir); }

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    pm_daemon_config_default(&g_d.cfg);
    snprintf(g_dir, sizeof g_dir, "%s/pm_fuzz_allowed_%d", fuzz_tmpdir(), (int)getpid());
    char list[8300];
    snprintf(list, sizeof list, "%s,/nonexistent-pm-fuzz", g_dir);
    pm_error e;
    if (mkdir(g_dir, 0700) || pm_confine_set(list, &e)) abort();
    atexit(cleanup);
    snprintf(g_d.cfg.params_dir, sizeof g_d.cfg.params_dir, "%s", g_dir);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    daemon_refusal why;
    json_t *root = daemon_body_json((const char *)d, n, &why);
    fuzz_note("body", !root, root ? "" : why.msg);
    if (!root) return 0;
    for (int allow_wait = 0; allow_wait < 2; allow_wait++) {
        daemon_job_body b;
        int rc = daemon_parse_job(&g_d, root, allow_wait, &b, &why);
        fuzz_note("job body", rc, why.msg);
        if (rc != 0) {
            if (!why.code || why.status < 400 || why.status > 599) abort(); /* a refusal says what */
            continue;
        }
        const pm_kind *k = pm_kind_find(b.spec.kind);
        void *job;
        pm_error e;
        if (!k) abort();
        if (!allow_wait) {
            pm_status st = pm_kind_open_job(k, &job, b.spec.inputs, b.spec.n_inputs, &e);
            fuzz_note(b.spec.kind, st, e.msg);
            if (st == PM_OK) k->close_job(job);
        }
        daemon_job_body_free(&b);
    }
    json_decref(root);
    return 0;
}
