/*
 * msm.c — the group-independent parts of the CPU MSM: window choice (cost model), thread
 * count, slice choice, scalar range check and the small thread runner. The group code is
 * stamped out from pippenger_impl.h in msm_g1.c and msm_g2.c.
 */
#include "msm/msm.h"
#include "msm/msm_internal.h"

#include <pthread.h>
#include <unistd.h>

/* Cost model (see msm.h): W(c) * (n + 2^c) additions, W(c) = ceil(256/c). The n term is the
 * bucket accumulation (one batch-affine addition per point and window, ~6 M + overhead), the
 * 2^c term the running-sum reduction (2^(c-1) buckets, two batch-affine additions each). With
 * the earlier XYZZ reduction (~24 M per bucket) the factor was 1.5 and G1 2^18 was best at
 * c = 13..14; with the batch-affine reduction c = 16 is as fast or faster there (CPU time,
 * 1 thread), as this model says. c is capped at MSM_WINDOW_MAX (20: 48 MiB of G1 buckets
 * per thread). */
unsigned msm_window_bits(size_t n) {
    if (n == 0) return 1;
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned c = 1; c <= MSM_WINDOW_MAX; c++) {
        double cost = (double)msm_num_windows(c) * ((double)n + (double)((size_t)1 << c));
        if (c == 1 || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

unsigned msm_threads_resolve(unsigned threads) {
    if (threads == 0) {
        long p = sysconf(_SC_NPROCESSORS_ONLN);
        threads = p > 0 ? (unsigned)p : 1u;
    }
    if (threads > MSM_THREADS_MAX) threads = MSM_THREADS_MAX;
    return threads ? threads : 1u;
}

int msm_scalar_ge_r(const fr_t *k) {
    for (int i = 3; i >= 0; i--) {
        if (k->l[i] > FR_MODULUS.l[i]) return 1;
        if (k->l[i] < FR_MODULUS.l[i]) return 0;
    }
    return 1; /* equal */
}

unsigned msm_pick_slices(size_t ng, unsigned c, unsigned threads) {
    unsigned w = msm_num_windows(c);
    unsigned best = 1;
    double best_cost = 0;
    for (unsigned s = 1; s <= threads; s++) {
        unsigned tasks = w * s;
        unsigned rounds = (tasks + threads - 1u) / threads;
        double cost = (double)rounds * ((double)ng / s + (double)((size_t)1 << c));
        if (s == 1 || cost < best_cost * 0.999) {
            best = s;
            best_cost = cost;
        }
    }
    return best;
}

void msm_plan(size_t ng, unsigned threads, unsigned cmax, unsigned *c_out, unsigned *s_out) {
    unsigned best_c = 1, best_s = 1;
    double best_cost = 0;
    if (threads == 0) threads = 1;
    for (unsigned c = 1; c <= cmax; c++) {
        unsigned s = msm_pick_slices(ng, c, threads);
        unsigned w = msm_num_windows(c);
        unsigned rounds = (w * s + threads - 1u) / threads;
        double cost = (double)rounds * ((double)ng / s + (double)((size_t)1 << c));
        if (c == 1 || cost < best_cost) {
            best_c = c;
            best_s = s;
            best_cost = cost;
        }
    }
    *c_out = best_c;
    *s_out = best_s;
}

typedef struct {
    void (*fn)(void *);
    void *ctx;
} msm_thread_arg;

static void *msm_thread_main(void *p) {
    msm_thread_arg *a = p;
    a->fn(a->ctx);
    return NULL;
}

unsigned msm_parallel_run(unsigned threads, void (*fn)(void *ctx), void *ctx) {
    if (threads <= 1) {
        fn(ctx);
        return 1;
    }
    pthread_t tid[MSM_THREADS_MAX];
    msm_thread_arg arg = {fn, ctx};
    unsigned started = 0;
    for (unsigned t = 1; t < threads; t++) {
        if (pthread_create(&tid[started], NULL, msm_thread_main, &arg) != 0) break;
        started++;
    }
    fn(ctx);
    for (unsigned t = 0; t < started; t++) pthread_join(tid[t], NULL);
    return started + 1u;
}
