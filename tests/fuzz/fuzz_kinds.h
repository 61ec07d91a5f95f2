/*
 * fuzz_kinds.h — a Filecoin vanilla-proof job (winning-post, window-post, snapdeals) taken the way
 * the engine takes one, for the harnesses of those kinds (header-only): opened from inline inputs
 * (pm_kind_open_job: the bincode readers, the request's fields, the job's shape checks), run
 * through the vanilla verifier (what `proofmill <kind> verify-vanilla` does) and, since the
 * proving path does NOT verify vanilla proofs first (kinds/filecoin/vanilla_kind.h), its witness
 * and public inputs for every partition against the key of its sector size (no key file needed:
 * the key's identity is its name).
 */
#ifndef PROOFMILL_TESTS_FUZZ_KINDS_H
#define PROOFMILL_TESTS_FUZZ_KINDS_H

#include "fuzz_util.h"

#include "circuits/filecoin/post_circuit.h"
#include "circuits/filecoin/update_circuit.h"
#include "kinds/filecoin/vanilla_kind.h"

/* bincode.h: what a vanilla reader holds (arena a) is at most 5 times the n bytes it read */
static inline void fuzz_arena_bound(const fil_arena_t *a, size_t n, const char *who) {
    if (a->total > 5 * n) {
        fprintf(stderr, "%s: %zu bytes of arena for a %zu-byte blob\n", who, a->total, n);
        abort();
    }
}

static inline void fuzz_fil_job(const char *kind_name, const pm_input *in, size_t n) {
    const pm_kind *k = pm_kind_find(kind_name);
    void *job, *id;
    pm_error e;
    if (!k) abort();
    pm_status st = pm_kind_open_job(k, &job, in, n, &e);
    fuzz_note(kind_name, st, e.msg);
    if (st != PM_OK) return;
    const pm_fil_job *j = job;
    st = pm_fil_verify_vanilla(j, &e);
    fuzz_note("verify-vanilla", st, e.msg);
    char path[1024];
    if (k->key_path(path, sizeof path, "/nonexistent", job, &e) == PM_OK && k->open_key(&id, path, &e) == PM_OK) {
        const pm_fil_key *key = id;
        size_t n_w0 = 0;
        uint32_t nin = 0;
        st = key->d->post_type ? pm_post_witness_len(&n_w0, &nin, &key->pc, &e)
                                         : pm_update_witness_len(&n_w0, &nin, &key->uc, &e);
        if (st == PM_OK && k->check_job(id, path, NULL, job, &e) == PM_OK) {
            for (uint32_t part = 0; part < k->partitions(job); part++) {
                fr_t *w;
                size_t n_w;
                st = k->witness(&w, &n_w, id, job, part, 1, &e);
                fuzz_note("witness", st, e.msg);
                if (st != PM_OK) continue;
                fr_t *x = malloc((nin ? nin : 1) * sizeof *x);
                if (!x) abort();
                st = k->public_inputs(x, nin ? nin - 1 : 0, id, job, part, w, n_w, &e);
                fuzz_note("public inputs", st, e.msg);
                free(x);
                free(w);
            }
        }
        k->close_key(id);
    }
    k->close_job(job);
}

#endif
