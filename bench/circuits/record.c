/*
 * bench/circuits/record.c — the params-setup "record" stage of the WinningPoSt, WindowPoSt and
 * SnapDeals circuits (#16): record-only synthesis with each Poseidon hash replayed from one
 * recording (cs.h pm_cs_replay, what pm_fil_record runs) against full synthesis of every hash
 * (PM_CS_NO_REPLAY, the recorder before), in the same process, best of R; the two systems must be
 * equal (checked). Also the 32 GiB WindowPoSt shape over --sectors S of its 2349 sectors (the
 * sectors are identical sub-circuits: the partition costs 2349/S times as much) and, as the
 * synthesis floor, the count-only synthesis of the whole 32 GiB partition (no linear combination);
 * then pm_post_record itself on every thread (runs of sectors recorded in parallel, appended).
 *
 * Usage: bench_circuits_record [--reps R (3)] [--sectors S (16)]
 * Count (written before the change): an arity-8 hash (t = 9, 8 full + 57 partial rounds, 505
 * constraints) pushes Σ_{k<57} 16·(9 + k) ≈ 34 K scaled terms in its partial rounds (one fr_mul
 * each, ~20 ns) and merges each pushed term by a linear scan (≈ 1.1 M comparisons): ≈ 1 ms, 2 µs
 * per constraint. Replayed: one term copy (8 bytes) per term, ≈ 10 terms per constraint, no field
 * multiplication: ≈ 0.05-0.1 µs per constraint; the non-Poseidon rows (insert, bits) unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/filecoin/post_circuit.h"
#include "circuits/filecoin/update_circuit.h"
#include "filecoin/post.h"
#include "filecoin/update.h"
#include "util/clock.h"
#include "util/parallel.h"

typedef struct {
    const char *name;
    int post; /* 1: PoSt config, 0: SnapDeals */
    fil_post_config_t pc;
    fil_update_config_t uc;
} shape_t;

static pm_status synth(pm_cs *cs, const shape_t *s, pm_error *err) {
    return s->post ? pm_post_synthesize(cs, &s->pc, NULL, NULL, err) : pm_update_synthesize(cs, &s->uc, NULL, 0, NULL, err);
}

/* seconds of the best of reps recordings in mode flags; *out = the last system */
static double record(r1cs_t *out, const shape_t *s, unsigned flags, unsigned reps) {
    double best = 1e30;
    for (unsigned r = 0; r < reps; r++) {
        pm_cs cs;
        pm_error err;
        double t0 = pm_now_s();
        pm_cs_init(&cs, flags);
        if (synth(&cs, s, &err) || (r1cs_free(out), pm_cs_finish(&cs, out, NULL, &err))) {
            fprintf(stderr, "%s: %s\n", s->name, err.msg);
            exit(1);
        }
        pm_cs_free(&cs);
        double t = pm_now_s() - t0;
        if (t < best) best = t;
    }
    return best;
}

static int matrix_eq(const r1cs_matrix_t *a, const r1cs_matrix_t *b) {
    return a->nnz == b->nnz && !memcmp(a->row_ptr, b->row_ptr, (a->n_rows + 1) * sizeof *a->row_ptr) &&
           !memcmp(a->col, b->col, a->nnz * sizeof *a->col) && !memcmp(a->coef_idx, b->coef_idx, a->nnz * sizeof(uint32_t));
}

static int system_eq(const r1cs_t *a, const r1cs_t *b) {
    return a->n_constraints == b->n_constraints && a->n_wires == b->n_wires && a->A.n_coef_tab == b->A.n_coef_tab &&
           !memcmp(a->A.coef_tab, b->A.coef_tab, a->A.n_coef_tab * sizeof(fr_t)) && matrix_eq(&a->A, &b->A) &&
           matrix_eq(&a->B, &b->B) && matrix_eq(&a->C, &b->C);
}

int main(int argc, char **argv) {
    unsigned reps = 3, sectors = 16;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sectors") && i + 1 < argc) sectors = (unsigned)atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: %s [--reps R] [--sectors S]\n", argv[0]);
            return 2;
        }
    }
    if (!reps || !sectors) return 2;
    pm_error err;
    shape_t sh[8];
    unsigned n = 0;
    static const uint64_t sizes[2] = {2048, 8u << 20};
    for (int k = 0; k < 2; k++) {
        for (int ty = FIL_POST_WINNING; ty <= FIL_POST_WINDOW; ty++) {
            shape_t *s = &sh[n++];
            memset(s, 0, sizeof *s);
            s->post = 1;
            s->name = ty == FIL_POST_WINNING ? (k ? "winning-post 8MiB" : "winning-post 2KiB")
                                             : (k ? "window-post 8MiB" : "window-post 2KiB");
            if (fil_post_config_for(&s->pc, (fil_post_type_t)ty, sizes[k],
                                    ty == FIL_POST_WINNING ? FIL_API_V1_0_0 : FIL_API_V1_2_0, &err))
                return fprintf(stderr, "%s\n", err.msg), 1;
        }
    }
    shape_t *s = &sh[n++];
    memset(s, 0, sizeof *s);
    s->name = "snapdeals 2KiB";
    if (fil_update_config(&s->uc, 2048, &err)) return fprintf(stderr, "%s\n", err.msg), 1;
    s = &sh[n++];
    memset(s, 0, sizeof *s);
    s->post = 1;
    s->name = "window-post 32GiB, S sectors";
    if (fil_post_config_for(&s->pc, FIL_POST_WINDOW, 32ull << 30, FIL_API_V1_2_0, &err))
        return fprintf(stderr, "%s\n", err.msg), 1;
    unsigned full = s->pc.circuit_sectors;
    s->pc.circuit_sectors = sectors < full ? sectors : full;

    printf("%-30s %11s %9s %9s %10s %10s %7s\n", "circuit", "constraints", "replay s", "synth s", "replay us/c",
           "synth us/c", "ratio");
    for (unsigned k = 0; k < n; k++) {
        r1cs_t a = {0}, b = {0};
        double tr = record(&a, &sh[k], PM_CS_RECORD, reps);
        double ts = record(&b, &sh[k], PM_CS_RECORD | PM_CS_NO_REPLAY, reps);
        if (!system_eq(&a, &b)) {
            fprintf(stderr, "%s: the replayed system differs from the synthesized one\n", sh[k].name);
            return 1;
        }
        double nc = a.n_constraints;
        printf("%-30s %11u %9.3f %9.3f %10.3f %10.3f %6.1fx\n", sh[k].name, a.n_constraints, tr, ts, tr / nc * 1e6,
               ts / nc * 1e6, ts / tr);
        if (k == n - 1) {
            printf("  -> 32 GiB WindowPoSt partition (%u sectors, one thread): replay %.1f s, synthesis %.1f s\n", full,
                   tr * full / sh[k].pc.circuit_sectors, ts * full / sh[k].pc.circuit_sectors);
            /* pm_post_record: runs of sectors on every thread, appended in order */
            double tp = 1e30;
            for (unsigned r = 0; r < reps; r++) {
                r1cs_t c = {0};
                double t0 = pm_now_s();
                if (pm_post_record(&c, NULL, &sh[k].pc, &err)) return fprintf(stderr, "%s\n", err.msg), 1;
                double t = pm_now_s() - t0;
                if (t < tp) tp = t;
                if (!system_eq(&a, &c)) return fprintf(stderr, "pm_post_record differs\n"), 1;
                r1cs_free(&c);
            }
            printf("  pm_post_record on %d threads: %.3f s (%.2fx one thread's replay) -> the partition %.1f s\n",
                   pm_thread_count(), tp, tr / tp, tp * full / sh[k].pc.circuit_sectors);
        }
        r1cs_free(&a);
        r1cs_free(&b);
    }
    /* the floor: count-only synthesis of the whole 32 GiB partition */
    s->pc.circuit_sectors = full;
    pm_cs cs;
    double t0 = pm_now_s();
    pm_cs_init(&cs, 0);
    if (synth(&cs, s, &err)) return fprintf(stderr, "%s\n", err.msg), 1;
    double tc = pm_now_s() - t0;
    printf("count-only synthesis, 32 GiB WindowPoSt partition: %llu constraints in %.2f s (%.3f us/c)\n",
           (unsigned long long)cs.n_constraints, tc, tc / (double)cs.n_constraints * 1e6);
    pm_cs_free(&cs);
    return 0;
}
