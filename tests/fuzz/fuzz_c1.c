/*
 * fuzz_c1.c — libFuzzer harness of the Filecoin C1 readers (filecoin/c1_json.h): the bytes as a C1
 * JSON through the library's single-pass reader and the tests' reference reader over a jansson tree
 * (tests/filecoin/c1_read_jansson.h), differentially: one accepting what the other refuses, or the
 * two reading different C1s (compared as re-serialised JSON), is a bug (abort). Then the bytes as a
 * C1 JSON or a lotus-bench envelope (fil_c1_read_memory); a C1 that reads is opened as a porep-c2
 * job from inline bytes (kinds: fil_c1_read_memory, the request checks and fil_c1_verify of every
 * value), as the daemon does at submit time.
 */
#include "fuzz_util.h"

#include "c1_read_jansson.h"
#include "filecoin/c1_json.h"
#include "kinds/kind.h"

static int c1_json(char **out, size_t *len, fil_c1_t *c1) {
    pm_error e;
    return fil_c1_to_json(out, len, c1, &e) == PM_OK ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    fil_c1_t a, b;
    pm_error ea, eb;
    pm_status sa = fil_c1_from_json_jansson(&a, (const char *)d, n, "fuzz.json", &ea);
    pm_status sb = fil_c1_from_json(&b, (const char *)d, n, "fuzz.json", &eb);
    fuzz_note("c1 (jansson)", sa, ea.msg);
    fuzz_note("c1 (fast)", sb, eb.msg);
    if ((sa == PM_OK) != (sb == PM_OK)) {
        fprintf(stderr, "C1 readers disagree: jansson %s (%s), fast %s (%s)\n", pm_status_name(sa), ea.msg,
                pm_status_name(sb), eb.msg);
        abort();
    }
    if (sa == PM_OK) {
        char *ja = NULL, *jb = NULL;
        size_t la = 0, lb = 0;
        if (c1_json(&ja, &la, &a) || c1_json(&jb, &lb, &b) || la != lb || memcmp(ja, jb, la) ||
            a.synthetic != b.synthetic) {
            fprintf(stderr, "C1 readers read different C1s\n");
            abort();
        }
        free(ja);
        free(jb);
        fil_c1_free(&a);
        fil_c1_free(&b);
    }
    /* the bytes as a file's image (C1 JSON or lotus-bench envelope), then as a job */
    uint64_t num = 0;
    pm_status sm = fil_c1_read_memory(&b, &num, (const char *)d, n, "fuzz.json", &eb);
    fuzz_note("c1 file image", sm, eb.msg);
    if (sm == PM_OK) {
        fil_c1_free(&b);
        const pm_kind *k = pm_kind_find("porep-c2");
        pm_input in = {.kind = PM_INPUT_BYTES, .bytes = d, .len = n};
        void *job;
        pm_error e;
        pm_status st = k ? pm_kind_open_job(k, &job, &in, 1, &e) : PM_ERR_ARG;
        fuzz_note("porep-c2 job", st, e.msg);
        if (st == PM_OK) k->close_job(job);
    }
    return 0;
}
