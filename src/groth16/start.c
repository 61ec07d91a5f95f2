/*
 * start.c — the Groth16 start phase and the assembly, once, over a table of operations (start.h).
 */
#include "groth16/start.h"
#include "groth16/key_check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/verifier.h"
#include "msm/msm.h"
#include "util/clock.h"
#include "util/progress.h"
#include "util/parallel.h"
#include "util/settings.h"

/* the operation `f` of x's table, or the CPU table's when x's has none */
#define OP(x, f) ((x)->ops && (x)->ops->f ? (x)->ops->f : groth16_ops_cpu.f)
/* an operation the exec's cpu_ops moves to the CPU although the table has it */
#define OPM(x, f, bit) ((x) && ((x)->cpu_ops & (bit)) ? groth16_ops_cpu.f : OP(x, f))

static size_t max_msm_bytes(const groth16_key *k, unsigned threads) {
    size_t m = 0;
    for (int b = 0; b < GROTH16_N_BASES; b++) {
        size_t s = msm_g1_scratch_size(k->n_base[b], threads);
        if (s > m) m = s;
    }
    return m;
}

size_t groth16_key_start_scratch_size(const groth16_key *k, unsigned threads) {
    return 3 * k->domain * sizeof(fr_t) + max_msm_bytes(k, threads);
}

size_t groth16_key_finalize_scratch_size(const groth16_key *k, unsigned threads) {
    return msm_g2_scratch_size(k->n_b2, threads);
}

size_t groth16_key_pending_bytes(const groth16_key *k, int device_witness) {
    const size_t pub = (k->n_public ? k->n_public : 1) * sizeof(fr_t);
    if (device_witness) return pub;
    return pub + (k->conv == GROTH16_BELLPERSON ? 3 : 1) * k->n_vars * sizeof(fr_t);
}

void groth16_pending_spend(groth16_pending_t *p, void *buf) {
    if (!buf) return;
    for (int i = 0; i < GROTH16_SPENT_MAX; i++)
        if (!p->spent[i]) {
            p->spent[i] = buf;
            return;
        }
    free(buf);
}

void groth16_pending_release_spent(groth16_pending_t *p) {
    if (!p) return;
    for (int i = 0; i < GROTH16_SPENT_MAX; i++) {
        free(p->spent[i]);
        p->spent[i] = NULL;
    }
}

/* buf is done with: freed now, or on the spent list under an exec with defer_free */
static void done_with(groth16_pending_t *p, const groth16_exec *x, void *buf) {
    if (x && x->defer_free) groth16_pending_spend(p, buf);
    else free(buf);
}

/* a | b | c are done with: back to their pool (at once: a pool buffer holds no pages to return),
 * or done_with when owned, or dropped when the caller's scratch */
static void work_done(groth16_pending_t *p, const groth16_exec *x) {
    if (p->work_pool) groth16_abc_pool_give(p->work_pool, p->work);
    else if (p->own_work) done_with(p, x, p->work);
    p->work = NULL;
    p->work_pool = NULL;
    p->own_work = 0;
    p->abc_host = 0;
}

void groth16_pending_free(groth16_pending_t *p) {
    if (!p) return;
    uint32_t first_bad = p->first_bad;
    groth16_pending_release_spent(p);
    if (p->dev_release) p->dev_release(p);
    free(p->x_pub);
    free(p->w_plain);
    free(p->sa);
    free(p->sb);
    if (p->work_pool) groth16_abc_pool_give(p->work_pool, p->work);
    else if (p->own_work) free(p->work);
    if (p->owned_key) {
        groth16_key_free(p->owned_key);
        free(p->owned_key);
    }
    memset(p, 0, sizeof *p);
    p->first_bad = first_bad;
}

pm_status groth16_pending_init_key(groth16_pending_t *p, const groth16_key *k, const fr_t *w, size_t n,
                                   const groth16_prove_opts_t *opts, pm_error *err) {
    memset(p, 0, sizeof *p);
    p->first_bad = UINT32_MAX;
    p->key = k;
    const char *wname = opts && opts->wtns_name ? opts->wtns_name : "witness";
    snprintf(p->wtns_name, sizeof p->wtns_name, "%s", wname);
    snprintf(p->key_name, sizeof p->key_name, "%s", opts && opts->key_name ? opts->key_name : "key");
    p->witness_checked = k->conv == GROTH16_BELLPERSON; /* the start phase checks every row */
    p->threads = opts ? opts->threads : 0;
    p->skip_self_check = opts ? opts->skip_self_check : 0;
    g1_jac_set_infinity(&p->sum_a);
    g1_jac_set_infinity(&p->sum_b1);
    g1_jac_set_infinity(&p->sum_c);
    g2_jac_set_infinity(&p->sum_b2);
    pm_status st = PM_OK;
    if (n != k->n_vars) {
        st = k->conv == GROTH16_SNARKJS
                 ? pm_error_set(err, PM_ERR_MISMATCH, wname, PM_NO_OFFSET,
                                "witness has %zu values, zkey expects nVars = %zu (a witness for another circuit?)",
                                n, k->n_vars)
                 : pm_error_set(err, PM_ERR_MISMATCH, wname, PM_NO_OFFSET,
                                "witness has %zu values, r1cs has %zu wires", n, k->n_vars);
        goto fail;
    }
    if (k->conv == GROTH16_BELLPERSON && (n == 0 || !fr_is_one(&w[0]))) {
        st = pm_error_set(err, PM_ERR_UNSATISFIED, wname, PM_NO_OFFSET,
                          "wire 0 is not 1 (not a witness for this circuit?)");
        goto fail;
    }
    if (k->n_public + 1 > n) {
        st = pm_error_set(err, PM_ERR_MISMATCH, wname, PM_NO_OFFSET, "witness has %zu values for %zu public inputs", n,
                          k->n_public);
        goto fail;
    }
    p->n_vars = n;
    if (!(p->x_pub = malloc((k->n_public ? k->n_public : 1) * sizeof *p->x_pub))) {
        st = pm_error_set(err, PM_ERR_NOMEM, wname, PM_NO_OFFSET, "out of memory");
        goto fail;
    }
    memcpy(p->x_pub, w + 1, k->n_public * sizeof *p->x_pub);
    if (opts && opts->scratch) {
        size_t need = groth16_key_start_scratch_size(k, p->threads);
        if (opts->scratch_size < need) {
            st = pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                              "scratch of %zu bytes is smaller than groth16_start_scratch_size = %zu",
                              opts->scratch_size, need);
            goto fail;
        }
        p->work = opts->scratch;
        p->msm_scratch = (char *)opts->scratch + 3 * k->domain * sizeof(fr_t);
        p->msm_scratch_size = opts->scratch_size - 3 * k->domain * sizeof(fr_t);
    }
    return PM_OK;
fail:
    groth16_pending_free(p);
    return st;
}

pm_status groth16_pending_host_scalars(groth16_pending_t *p, const fr_t *w, pm_error *err) {
    const groth16_key *k = p->key;
    const size_t n = p->n_vars;
    if (p->w_plain) return PM_OK;
    p->w_plain = malloc((n ? n : 1) * sizeof *p->w_plain);
    if (!p->w_plain) {
        groth16_pending_free(p);
        return pm_error_set(err, PM_ERR_NOMEM, p->wtns_name, PM_NO_OFFSET, "out of memory");
    }
    fr_t *wp = p->w_plain;
    PM_OMP(parallel for schedule(static))
    for (size_t i = 0; i < n; i++) fr_from_mont(&wp[i], &w[i]);
    p->b2 = p->w_plain;
    p->n_b2 = n;
    if (k->conv == GROTH16_BELLPERSON) { /* the scalars of the compacted A and B bases */
        p->sa = malloc((k->n_base[GROTH16_BASE_A] ? k->n_base[GROTH16_BASE_A] : 1) * sizeof(fr_t));
        p->sb = malloc((k->n_b2 ? k->n_b2 : 1) * sizeof(fr_t));
        if (!p->sa || !p->sb) {
            groth16_pending_free(p);
            return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "compacted scalars (%zu wires)", n);
        }
        size_t ka = 0, kb = 0;
        for (size_t i = 0; i < n; i++) {
            if (k->dense_a[i]) p->sa[ka++] = wp[i];
            if (k->dense_b[i]) p->sb[kb++] = wp[i];
        }
        p->b2 = p->sb;
        p->n_b2 = kb;
    }
    return PM_OK;
}

/* ---- the pinned a, b, c pool (start.h) ---- */

void groth16_abc_pool_init(groth16_abc_pool *pool, size_t bytes, unsigned cap,
                           pm_status (*alloc)(void **out, size_t bytes, int device, pm_error *err),
                           void (*release)(void *p, size_t bytes)) {
    memset(pool, 0, sizeof *pool);
    pthread_mutex_init(&pool->mu, NULL);
    pthread_cond_init(&pool->cv, NULL);
    pool->bytes = bytes ? bytes : 1;
    pool->cap = cap < 1 ? 1 : cap > GROTH16_ABC_POOL_MAX ? GROTH16_ABC_POOL_MAX : cap;
    pool->alloc = alloc;
    pool->release = alloc ? release : NULL;
}

void groth16_abc_pool_arm(groth16_abc_pool *pool, pm_status (*alloc)(void **out, size_t bytes, int device, pm_error *err),
                          void (*release)(void *p, size_t bytes), int device) {
    pthread_mutex_lock(&pool->mu);
    int made = 0;
    for (unsigned i = 0; i < pool->cap; i++) made |= pool->busy[i] || pool->buf[i];
    if (!pool->alloc && !made && alloc && release) {
        pool->alloc = alloc;
        pool->release = release;
        pool->device = device;
    }
    pthread_mutex_unlock(&pool->mu);
}

/* A slot is empty (no buffer, not busy), being made (no buffer, busy), idle (buffer, not busy) or
 * in use (buffer, busy); slots 0 .. cap - 1. */
pm_status groth16_abc_pool_take(groth16_abc_pool *pool, void **out, pm_error *err) {
    *out = NULL;
    pthread_mutex_lock(&pool->mu);
    pool->takes++;
    double t0 = 0;
    unsigned make = GROTH16_ABC_POOL_MAX;
    for (;;) {
        if (pool->closed) {
            if (t0 > 0) pool->wait_s += pm_now_s() - t0;
            pthread_mutex_unlock(&pool->mu);
            return pm_error_set(err, PM_ERR_CANCELLED, "", PM_NO_OFFSET, "a, b, c pool closed (shutting down)");
        }
        for (unsigned i = 0; i < pool->cap; i++)
            if (!pool->busy[i] && pool->buf[i]) {
                pool->busy[i] = 1;
                *out = pool->buf[i];
                if (t0 > 0) pool->wait_s += pm_now_s() - t0;
                pthread_mutex_unlock(&pool->mu);
                return PM_OK;
            }
        for (unsigned i = 0; i < pool->cap && make == GROTH16_ABC_POOL_MAX; i++)
            if (!pool->busy[i] && !pool->buf[i]) make = i;
        if (make < GROTH16_ABC_POOL_MAX) break;
        if (t0 == 0) {
            t0 = pm_now_s();
            pool->waits++;
        }
        pthread_cond_wait(&pool->cv, &pool->mu);
    }
    pool->busy[make] = 1; /* reserved while it is pinned, unlocked (seconds) */
    if (t0 > 0) pool->wait_s += pm_now_s() - t0;
    pthread_mutex_unlock(&pool->mu);
    void *b = NULL;
    int pinned = 0;
    if (pool->alloc) {
        pm_error e2 = {0};
        pinned = pool->alloc(&b, pool->bytes, pool->device, &e2) == PM_OK && b;
        if (!pinned) {
            b = NULL;
            pthread_mutex_lock(&pool->mu);
            const int say = !pool->warned;
            pool->warned = 1;
            pthread_mutex_unlock(&pool->mu);
            if (say) {
                fprintf(stderr, "proofmill: a, b, c buffer stays pageable (%.2f GiB, uploaded at the staged rate): %s\n",
                        pool->bytes / 1073741824.0, e2.msg[0] ? e2.msg : "no buffer");
            }
        }
    }
    if (!b) b = malloc(pool->bytes);
    pthread_mutex_lock(&pool->mu);
    if (b) {
        pool->buf[make] = b;
        pool->pinned[make] = (unsigned char)pinned;
        pool->n++;
    } else {
        pool->busy[make] = 0; /* empty again: another take may try */
        pthread_cond_signal(&pool->cv);
    }
    pthread_mutex_unlock(&pool->mu);
    if (!b) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory for a, b, c (%zu bytes)", pool->bytes);
    *out = b;
    return PM_OK;
}

void groth16_abc_pool_give(groth16_abc_pool *pool, void *buf) {
    if (!buf) return;
    pthread_mutex_lock(&pool->mu);
    for (unsigned i = 0; i < pool->cap; i++)
        if (pool->buf[i] == buf) {
            pool->busy[i] = 0;
            break;
        }
    pthread_cond_signal(&pool->cv);
    pthread_mutex_unlock(&pool->mu);
}

void groth16_abc_pool_close(groth16_abc_pool *pool) {
    pthread_mutex_lock(&pool->mu);
    pool->closed = 1;
    pthread_cond_broadcast(&pool->cv);
    pthread_mutex_unlock(&pool->mu);
}

void groth16_abc_pool_destroy(groth16_abc_pool *pool) {
    for (unsigned i = 0; i < pool->cap; i++) {
        if (!pool->buf[i]) continue;
        if (pool->pinned[i]) pool->release(pool->buf[i], pool->bytes);
        else free(pool->buf[i]);
        pool->buf[i] = NULL;
    }
    pool->n = 0;
    pthread_cond_destroy(&pool->cv);
    pthread_mutex_destroy(&pool->mu);
}

uint64_t groth16_abc_pool_held(groth16_abc_pool *pool) {
    pthread_mutex_lock(&pool->mu);
    const uint64_t b = (uint64_t)pool->n * pool->bytes;
    pthread_mutex_unlock(&pool->mu);
    return b;
}

pm_status groth16_pending_work(groth16_pending_t *p, const groth16_exec *x, pm_error *err) {
    if (p->work) return PM_OK;
    const size_t bytes = 3 * p->key->domain * sizeof(fr_t);
    if (x && x->abc_pool) {
        if (x->abc_pool->bytes != bytes)
            return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "a, b, c pool of %zu-byte buffers for a domain of %zu",
                                x->abc_pool->bytes, (size_t)p->key->domain);
        void *b = NULL;
        pm_status st = groth16_abc_pool_take(x->abc_pool, &b, err);
        if (st) return st;
        p->work = b;
        p->work_pool = x->abc_pool;
        return PM_OK;
    }
    if (!(p->work = malloc(bytes)))
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory for a, b, c (%zu bytes)", bytes);
    p->own_work = 1;
    return PM_OK;
}

int groth16_exec_evaluates(const groth16_exec *x, const groth16_key *k) {
    if (!x || !x->ops) return 0;
    if (x->cpu_ops & GROTH16_CPU_EVAL) return 0;
    return k->conv == GROTH16_SNARKJS ? x->ops->eval_snarkjs != NULL : x->ops->eval_bellperson != NULL;
}

int groth16_exec_stages(const groth16_exec *x) { return x && x->ops && x->ops->stage; }

int groth16_exec_device_witness(const groth16_exec *x, const groth16_key *k) {
    const unsigned f = k->conv == GROTH16_SNARKJS ? GROTH16_OPS_DEVICE_WITNESS_SNARKJS : GROTH16_OPS_DEVICE_WITNESS_BELLPERSON;
    return x && x->ops && (x->ops->flags & f);
}

pm_status groth16_start_stage(groth16_pending_t *p, const fr_t *w, size_t n, const groth16_exec *x, pm_error *err) {
    if (!p->key || !p->x_pub)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "groth16_start_stage: handle was not initialised");
    if (p->staged || !groth16_exec_stages(x)) return PM_OK;
    double t0 = pm_now_s();
    pm_status st = x->ops->stage(x, p, w, n, err);
    p->t.stage += pm_now_s() - t0;
    if (st) {
        groth16_pending_free(p);
        return st;
    }
    p->staged = 1;
    return PM_OK;
}

pm_status groth16_start_eval(groth16_pending_t *p, const fr_t *w, size_t n, const groth16_exec *x, pm_error *err) {
    const groth16_key *k = p->key;
    if (!k || !p->x_pub)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "groth16_start_eval: handle was not initialised");
    pm_status st;
    const int dw = groth16_exec_device_witness(x, k);
    if (dw && (!x->ops->msm_g1 || !x->ops->msm_g2 || !x->ops->stage)) {
        groth16_pending_free(p);
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "table %s takes the witness from its device but lacks stage, msm_g1 or msm_g2", x->ops->name);
    }
    pm_progress_stage("a, b, c on the domain", 0);
    if (!dw && (st = groth16_pending_host_scalars(p, w, err))) return st;
    /* the table's own eval and a device-witness table's MSMs read what its stage put in place */
    /* (a CPU eval of a device-witness table: the witness is staged later, where the exec's device is
     * known: the engine evaluates in its synthesis pool and stages in the GPU worker) */
    const int cpu_eval = x && (x->cpu_ops & GROTH16_CPU_EVAL);
    if (((dw && !cpu_eval) || groth16_exec_evaluates(x, k)) && (st = groth16_start_stage(p, w, n, x, err))) return st;
    if (k->conv == GROTH16_BELLPERSON && groth16_exec_evaluates(x, k) && x->ops->witness_first &&
        x->ops->witness_first(x, p)) { /* the device eval after the witness MSMs (start_finish) */
        p->eval_deferred = 1;
        p->n_w_eval = n;
        p->evaluated = 1;
        return PM_OK;
    }
    double t0 = pm_now_s();
    st = k->conv == GROTH16_SNARKJS ? OPM(x, eval_snarkjs, GROTH16_CPU_EVAL)(x, p, w, n, err)
                                    : OPM(x, eval_bellperson, GROTH16_CPU_EVAL)(x, p, w, n, err);
    p->t.eval_ab = pm_now_s() - t0;
    if (st) {
        groth16_pending_free(p);
        return st;
    }
    p->evaluated = 1;
    if (x && x->yield) x->yield(x->yield_ctx);
    return PM_OK;
}

/* Re-label an error from a lower layer that did not know what it was computing. */
static pm_status msm_fail(pm_status st, const char *what, pm_error *err) {
    if (st == PM_ERR_GPU || st == PM_ERR_NOMEM) return st; /* the GPU's message names the call */
    return pm_error_set(err, st, "", PM_NO_OFFSET, "%s MSM failed (%s)", what, pm_status_name(st));
}

/* The witness lane: the MSMs that read the witness (A, B1, C/L, then the table's G2 MSM where it has
 * one), then the table's hold on the staged witness goes back (a GPU witness slot: a card with one
 * slot stages the next handle's witness under the H MSM). Yields between the MSMs when x has a
 * yield (one lane: the caller's thread). */
typedef struct {
    groth16_pending_t *p;
    const groth16_exec *x;
    const groth16_scalars *s; /* s[GROTH16_N_BASES] */
    g1_jac_t *r;              /* r[GROTH16_N_BASES]: A, B1, C written */
    int progress;             /* name the stages (the caller's thread only: progress is per thread) */
    atomic_int *cancel;       /* two lanes: set by the lane that fails, read between operations */
    int keep_slot;            /* keep the table's hold on the staged witness (a deferred eval reads it) */
    pm_status st;
    pm_error err;
} witness_lane;

/* Two lanes: the caller's exec yields (the engine's kernel region: an urgent partition of another
 * key may take the device there); while the H lane is inside that yield the witness lane waits at
 * its own preemption points (between its MSMs and the kernels' window groups: gpu_set_yield), so an
 * urgent partition has the card as it has with one lane, and no witness MSM moves its scratch
 * under it. */
typedef struct {
    const groth16_exec *x; /* the caller's */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int paused;
    atomic_int cancel;
} lane_pair;

static void lane_gate(lane_pair *lp, int paused) {
    pthread_mutex_lock(&lp->mu);
    lp->paused = paused;
    if (!paused) pthread_cond_broadcast(&lp->cv);
    pthread_mutex_unlock(&lp->mu);
}

static void h_lane_yield(void *ctx) { /* the H lane's yield: the caller's, with the witness lane held */
    lane_pair *lp = ctx;
    lane_gate(lp, 1);
    lp->x->yield(lp->x->yield_ctx);
    lane_gate(lp, 0);
}

static void w_lane_yield(void *ctx) { /* the witness lane's: wait while the H lane is in its yield */
    lane_pair *lp = ctx;
    pthread_mutex_lock(&lp->mu);
    while (lp->paused) pthread_cond_wait(&lp->cv, &lp->mu);
    pthread_mutex_unlock(&lp->mu);
}

static int lane_cancelled(const witness_lane *l) { return l->cancel && atomic_load(l->cancel); }

static const char *const msm_names[2][GROTH16_N_BASES] = {
    {"A (section 5)", "B1 (section 6)", "C (section 8)", "H (section 9)"}, {"A", "B1", "L", "H"}};
static const char *const msm_stages[GROTH16_N_BASES] = {"MSM A (G1)", "MSM B1 (G1)", "MSM C (G1)", "MSM H (G1)"};

static pm_status witness_msms(witness_lane *l, pm_error *err) {
    groth16_pending_t *p = l->p;
    const groth16_exec *x = l->x;
    const groth16_key *k = p->key;
    static const groth16_base order[3] = {GROTH16_BASE_A, GROTH16_BASE_B1, GROTH16_BASE_C};
    double *tm[GROTH16_N_BASES] = {&p->t.msm_a, &p->t.msm_b1, &p->t.msm_c, &p->t.msm_h};
    pm_status st = PM_OK;
    for (int i = 0; !st && i < 3; i++) {
        const int b = order[i];
        if (lane_cancelled(l)) return PM_ERR_CANCELLED; /* the H lane failed: its error is the start's */
        double a = pm_now_s();
        if (l->progress) pm_progress_stage(msm_stages[b], 0);
        st = OP(x, msm_g1)(x, p, (groth16_base)b, &l->s[b], &l->r[b], err);
        if (st) msm_fail(st, msm_names[k->conv][b], err);
        *tm[b] = pm_now_s() - a;
        if (!st && x && x->yield) x->yield(x->yield_ctx);
    }
    if (!st && x && x->ops && x->ops->msm_g2) {
        if (lane_cancelled(l)) return PM_ERR_CANCELLED;
        double a = pm_now_s();
        if (l->progress) pm_progress_stage("MSM B2 (G2)", 0);
        const groth16_scalars s2 = {p->b2, NULL};
        st = x->ops->msm_g2(x, p, &s2, &p->sum_b2, err);
        if (st) msm_fail(st, k->conv == GROTH16_SNARKJS ? "B2 (section 7, G2)" : "B (G2)", err);
        else p->have_b2 = 1;
        p->t.msm_b2 = pm_now_s() - a;
        if (!st && x->yield) x->yield(x->yield_ctx);
    }
    if (!st && p->dev_release && !l->keep_slot) p->dev_release(p);
    return st;
}

static void *witness_lane_main(void *arg) {
    witness_lane *l = arg;
    pm_error_clear(&l->err);
    l->st = witness_msms(l, &l->err);
    if (l->st) atomic_store(l->cancel, 1);
    return NULL;
}

/* two lanes: as the table says (its `lanes`: a GPU table's MSM rooms), x->lanes = 1 keeping one;
 * a table without `lanes` (the CPU's) only when x->lanes asks; never with a caller's MSM scratch
 * (the CPU table's MSMs would share it) */
static unsigned lanes_of(const groth16_exec *x, groth16_pending_t *p) {
    if (!x || p->msm_scratch || x->lanes == 1) return 1;
    if (x->ops && x->ops->lanes) return x->ops->lanes(x, p) >= 2 ? 2 : 1;
    return x->lanes >= 2 ? 2 : 1;
}

pm_status groth16_start_finish(groth16_pending_t *p, const groth16_exec *x, pm_error *err) {
    const groth16_key *k = p->key;
    if (!k || !p->evaluated)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "groth16_start_finish: nothing evaluated");
    const size_t n_pub1 = k->n_public + 1;
    groth16_scalars s[GROTH16_N_BASES] = {
        {k->conv == GROTH16_SNARKJS ? p->w_plain : p->sa, NULL},
        {k->conv == GROTH16_SNARKJS ? p->w_plain : p->sb, NULL},
        {p->w_plain ? p->w_plain + n_pub1 : NULL, NULL}, /* the wires after ONE and the public inputs */
        {NULL, NULL}};
    g1_jac_t r[GROTH16_N_BASES];
    /* the witness lane: on a thread of its own beside the H lane (two MSM rooms), else after the H
     * phase and before the H MSM, whose scalars come from the H phase: the table's hold on the
     * staged witness goes back before the H MSM either way */
    groth16_exec xw, xh;
    witness_lane wl = {.p = p, .x = x, .s = s, .r = r, .progress = 1};
    lane_pair lp = {.x = x};
    atomic_init(&lp.cancel, 0);
    pthread_t th;
    int lane2 = !p->eval_deferred && lanes_of(x, p) == 2;
    /* witness first (one lane): A, B1, L, B2, then the deferred device eval, H, the table's prefetch
     * under the H MSM */
    const int wfirst = !lane2 && k->conv == GROTH16_BELLPERSON && x && x->ops &&
                       (p->eval_deferred || (x->ops->witness_first && x->ops->witness_first(x, p)));
    if (lane2) {
        pthread_mutex_init(&lp.mu, NULL);
        pthread_cond_init(&lp.cv, NULL);
        xw = *x;
        xw.yield = w_lane_yield;
        xw.yield_ctx = &lp;
        xh = *x;
        if (x->yield) xh.yield = h_lane_yield, xh.yield_ctx = &lp;
        wl.x = &xw;
        wl.progress = 0;
        wl.cancel = &lp.cancel;
        if (pthread_create(&th, NULL, witness_lane_main, &wl) != 0) { /* one lane, on this thread */
            lane2 = 0, wl.x = x, wl.progress = 1, wl.cancel = NULL;
            pthread_mutex_destroy(&lp.mu);
            pthread_cond_destroy(&lp.cv);
        } else {
            x = &xh;
        }
    }
    pm_status st = PM_OK;
    if (wfirst) {
        wl.keep_slot = p->eval_deferred;
        st = witness_msms(&wl, err);
        if (!st && p->eval_deferred) {
            double a = pm_now_s();
            pm_progress_stage("a, b, c on the domain", 0);
            st = x->ops->eval_bellperson(x, p, NULL, p->n_w_eval, err);
            p->t.eval_ab = pm_now_s() - a;
            p->eval_deferred = 0;
            if (p->dev_release) p->dev_release(p); /* the witness is read by no later operation */
            if (!st && x->yield) x->yield(x->yield_ctx);
        }
    }
    double t0 = pm_now_s();
    groth16_scalars h = {0};
    if (!st) pm_progress_stage("H (NTTs)", 0);
    if (!st) st = k->conv == GROTH16_SNARKJS ? OPM(x, h_snarkjs, GROTH16_CPU_H)(x, p, &h, err)
                                              : OPM(x, h_bellperson, GROTH16_CPU_H)(x, p, &h, err);
    double t1 = pm_now_s();
    p->t.h = t1 - t0;
    if (st && lane2) atomic_store(&lp.cancel, 1); /* the witness lane stops at its next MSM */
    /* a pool's a | b | c go back once the H phase has read them (its result is elsewhere: a device
     * table's), so the next partition's CPU eval fills it under this one's MSMs */
    if (!st && p->work_pool && !(h.host >= p->work && h.host < p->work + 3 * k->domain)) work_done(p, x);
    if (!st && x && x->yield) x->yield(x->yield_ctx);
    s[GROTH16_BASE_H] = h;
    if (!st && wfirst && x->ops->prefetch) x->ops->prefetch(x, p);
    if (!st && !lane2 && !wfirst) st = witness_msms(&wl, err);
    if (!st && !(lane2 && atomic_load(&lp.cancel))) { /* (a failed witness lane: its error, after the join) */
        double a = pm_now_s();
        pm_progress_stage(msm_stages[GROTH16_BASE_H], 0);
        st = OP(x, msm_g1)(x, p, GROTH16_BASE_H, &s[GROTH16_BASE_H], &r[GROTH16_BASE_H], err);
        if (st) msm_fail(st, msm_names[k->conv][GROTH16_BASE_H], err);
        p->t.msm_h = pm_now_s() - a;
        if (!st && x && x->yield) x->yield(x->yield_ctx);
    }
    if (lane2) {
        if (st) atomic_store(&lp.cancel, 1);
        pthread_join(th, NULL);
        pthread_mutex_destroy(&lp.mu);
        pthread_cond_destroy(&lp.cv);
        x = lp.x;
        if (!st && wl.st) {
            st = wl.st;
            if (err) *err = wl.err;
        }
    }
    if (!st && pm_setting_bool("gpu.verbose")) /* one line per partition: where its start phase went */
        fprintf(stderr,
                "start ops (%s, domain %zu): stage=%.3f eval=%.3f h=%.3f msm_a=%.3f msm_b1=%.3f msm_%s=%.3f msm_h=%.3f "
                "msm_b2=%.3f s\n",
                x && x->ops ? x->ops->name : "cpu", k->domain, p->t.stage, p->t.eval_ab, p->t.h, p->t.msm_a,
                p->t.msm_b1, k->conv == GROTH16_SNARKJS ? "c" : "l", p->t.msm_c, p->t.msm_h, p->t.msm_b2);
    if (p->dev_release) p->dev_release(p);
    work_done(p, x);
    p->evaluated = 0;
    if (st) {
        groth16_pending_free(p);
        return st;
    }
    p->sum_a = r[GROTH16_BASE_A];
    p->sum_b1 = r[GROTH16_BASE_B1];
    g1_jac_add(&p->sum_c, &r[GROTH16_BASE_C], &r[GROTH16_BASE_H]);
    if (k->conv == GROTH16_BELLPERSON) { /* A's scalars are not needed after start */
        done_with(p, x, p->sa);
        p->sa = NULL;
    }
    if (p->have_b2) { /* nor the host witness: finalize needs only the public inputs now */
        done_with(p, x, p->w_plain);
        done_with(p, x, p->sb);
        p->w_plain = p->sb = NULL;
        p->b2 = NULL;
    }
    return PM_OK;
}

pm_status groth16_start(groth16_pending_t *p, const groth16_key *k, const fr_t *w, size_t n, const groth16_exec *x,
                        const groth16_prove_opts_t *opts, pm_error *err) {
    double t0 = pm_now_s();
    pm_status st = groth16_pending_init_key(p, k, w, n, opts, err);
    if (st) return st;
    k = p->key;
    if (k->conv == GROTH16_SNARKJS && opts && opts->r1cs) {
        const char *rname = opts->r1cs_name ? opts->r1cs_name : "r1cs";
        if ((st = zkey_check_r1cs(k->zk, opts->r1cs, rname, err))) goto fail;
        st = r1cs_check_satisfied(NULL, opts->r1cs, w, n, err);
        if (st == PM_ERR_UNSATISFIED) {
            /* name the witness (what is wrong), keep r1cs's wording of the constraint */
            char msg[sizeof err->msg];
            snprintf(msg, sizeof msg, "%s", err ? err->msg : "not satisfied");
            pm_error_set(err, st, p->wtns_name, PM_NO_OFFSET, "%s (checked against %s)", msg, rname);
        }
        if (st) goto fail;
        p->witness_checked = 1;
    }
    p->t.check = pm_now_s() - t0;
    if ((st = groth16_start_stage(p, w, n, x, err))) return st;
    if ((st = groth16_start_eval(p, w, n, x, err))) return st;
    return groth16_start_finish(p, x, err);
fail:
    groth16_pending_free(p);
    return st;
}

pm_status groth16_finalize(groth16_proof_t *proof, groth16_pending_t *p, const fr_t *r, const fr_t *s,
                           pm_error *err) {
    const groth16_key *k = p->key;
    memset(proof, 0, sizeof *proof);
    if (!k || !p->x_pub)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "groth16_prove_finalize: handle was not started");
    double t0 = pm_now_s();
    g2_jac_t sum_b2 = p->sum_b2;
    pm_status st;
    if (!p->have_b2) { /* the CPU G2 MSM */
        pm_progress_stage("MSM B2 (G2)", 0);
        if (!p->b2 && p->n_b2)
            return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "groth16_finalize: no host scalars for the G2 MSM");
        if (p->finalize_scratch) {
            size_t need = groth16_key_finalize_scratch_size(k, p->threads);
            if (p->finalize_scratch_size < need)
                return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                                    "finalize scratch of %zu bytes is smaller than groth16_finalize_scratch_size = %zu",
                                    p->finalize_scratch_size, need);
            st = msm_g2_vartime_with_scratch(&sum_b2, k->b2, p->b2, p->n_b2, p->threads, p->finalize_scratch,
                                             p->finalize_scratch_size);
        } else {
            st = msm_g2_vartime(&sum_b2, k->b2, p->b2, p->n_b2, p->threads);
        }
        if (st) return msm_fail(st, k->conv == GROTH16_SNARKJS ? "B2 (section 7, G2)" : "B (G2)", err);
        p->t.msm_b2 = pm_now_s() - t0;
    }
    double t1 = pm_now_s();
    g1_jac_t A, B1, C, t, delta1;
    g2_jac_t B, t2, delta2;
    fr_t rs;
    g1_jac_from_affine(&delta1, &k->delta1);
    g2_jac_from_affine(&delta2, &k->delta2);
    /* A = alpha_1 + sum_a + r delta_1 */
    g1_jac_add_affine(&A, &p->sum_a, &k->alpha1);
    g1_jac_mul_fr(&t, &delta1, r);
    g1_jac_add(&A, &A, &t);
    /* B = beta_2 + sum_b2 + s delta_2 (G2), B1 = beta_1 + sum_b1 + s delta_1 (G1) */
    g2_jac_add_affine(&B, &sum_b2, &k->beta2);
    g2_jac_mul_fr(&t2, &delta2, s);
    g2_jac_add(&B, &B, &t2);
    g1_jac_add_affine(&B1, &p->sum_b1, &k->beta1);
    g1_jac_mul_fr(&t, &delta1, s);
    g1_jac_add(&B1, &B1, &t);
    /* C = sum_c + s A + r B1 - r s delta_1 */
    fr_mul(&rs, r, s);
    C = p->sum_c;
    g1_jac_mul_fr(&t, &A, s);
    g1_jac_add(&C, &C, &t);
    g1_jac_mul_fr(&t, &B1, r);
    g1_jac_add(&C, &C, &t);
    g1_jac_mul_fr(&t, &delta1, &rs);
    g1_jac_neg(&t, &t);
    g1_jac_add(&C, &C, &t);
    g1_jac_to_affine(&proof->a, &A);
    g2_jac_to_affine(&proof->b, &B);
    g1_jac_to_affine(&proof->c, &C);
    double t3 = pm_now_s();
    p->t.assemble = t3 - t1;

    if (!p->skip_self_check) {
        pm_progress_stage("self-check (pairings)", 0);
        const size_t np = k->n_public;
        fr_t *x = malloc((np ? np : 1) * sizeof *x);
        if (!x) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory");
        memcpy(x, p->x_pub, np * sizeof *x);
        int valid = 0;
        pm_error verr;
        pm_error_clear(&verr);
        st = groth16_verify(&valid, &k->vk, x, np, proof, NULL, NULL, &verr);
        free(x);
        p->t.self_check = pm_now_s() - t3;
        if (st) {
            memset(proof, 0, sizeof *proof);
            return pm_error_set(err, st, "", PM_NO_OFFSET, "self-check failed: %s", verr.msg);
        }
        if (!valid) {
            memset(proof, 0, sizeof *proof);
            /* a satisfying witness gives a valid proof with a consistent key (completeness): with
             * every constraint checked, or a fault found in the key, the key is at fault */
            char why[300];
            if (p->witness_checked || groth16_key_fault(why, sizeof why, k, &k->vk))
                return groth16_key_inconsistent(k, &k->vk, p->key_name, verr.msg, err);
            return pm_error_set(err, PM_ERR_UNSATISFIED, p->wtns_name, PM_NO_OFFSET,
                                "the proof made from this witness does not verify with %s's own verification key "
                                "(%s): the witness does not satisfy the circuit, or the key is inconsistent (its "
                                "points are all in their subgroups); give the circuit's .r1cs to tell which",
                                p->key_name, verr.msg);
        }
    }
    return PM_OK;
}
