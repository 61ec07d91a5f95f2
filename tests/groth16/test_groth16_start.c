/* groth16/start.h: the one start phase over a table of operations.
 *  - a table with one operation of its own (msm_g1, counting its calls around the CPU one) and
 *    every other entry NULL proves exactly like the CPU table: the missing entries fall back to the
 *    CPU's per operation, the given one is called for each of the four bases — the way a GPU table
 *    adds a kernel;
 *  - the split pipeline (pending_init_key, start_eval, start_finish) equals groth16_start;
 *  - both conventions on the same circuit (tests/data/powchain's r1cs, our seeded setup of either
 *    layout), with caller scratch full of garbage (the bellperson padding must be written, not
 *    assumed zero): the proofs verify with their keys' verifying keys, and snarkjs's with fixed r, s
 *    equals proof_det.json (through the convenience groth16_prove);
 *  - groth16_ops_gpu answers PM_OK or PM_ERR_GPU with a reason (no CUDA build / no device);
 *  - the pinned a, b, c pool: at most cap buffers, reused, a take beyond cap waits for a give,
 *    close cancels waiters; a proof through it has the same bytes, and the buffer goes back right
 *    after the H phase when H's result lies elsewhere (a device table's). */
#include "test_util.h"
#include "groth16_fixtures.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "groth16/key.h"
#include "groth16/proof_json.h"
#include "groth16/prover.h"
#include "groth16/setup.h"
#include "groth16/start.h"
#include "groth16/verifier.h"
#include "msm/msm.h"
#include "r1cs/r1cs.h"
#include "r1cs/wtns.h"

static int g_msm_calls;

static pm_status counting_msm(const groth16_exec *x, groth16_pending_t *p, groth16_base which, const groth16_scalars *s,
                              g1_jac_t *r, pm_error *err) {
    g_msm_calls++;
    return groth16_ops_cpu.msm_g1(x, p, which, s, r, err);
}

static const groth16_ops counting_table = {.name = "counting", .msm_g1 = counting_msm};

/* a table that logs its MSMs (A B C H by base, 2 for G2) and when its hold on the staged witness
 * goes back (R: dev_release, set by its stage) */
static char g_log[32];
static int g_nlog;
static void rec(char c) {
    if (g_nlog < (int)sizeof g_log - 1) g_log[g_nlog++] = c;
    g_log[g_nlog] = 0;
}
static void rec_release(groth16_pending_t *p) {
    rec('R');
    p->dev_release = NULL;
}
static pm_status rec_stage(const groth16_exec *x, groth16_pending_t *p, const fr_t *w, size_t n_w, pm_error *err) {
    (void)x, (void)w, (void)n_w, (void)err;
    p->dev_release = rec_release;
    return PM_OK;
}
static pm_status rec_msm(const groth16_exec *x, groth16_pending_t *p, groth16_base which, const groth16_scalars *s,
                         g1_jac_t *r, pm_error *err) {
    rec("ABCH"[which]);
    return groth16_ops_cpu.msm_g1(x, p, which, s, r, err);
}
static pm_status rec_msm2(const groth16_exec *x, groth16_pending_t *p, const groth16_scalars *s, g2_jac_t *r,
                          pm_error *err) {
    (void)x, (void)err;
    rec('2');
    return msm_g2_vartime(r, p->key->b2, s->host, p->n_b2, 1);
}
static const groth16_ops recording_table = {.name = "recording", .stage = rec_stage, .msm_g1 = rec_msm,
                                            .msm_g2 = rec_msm2};

typedef struct {
    r1cs_t cs;
    wtns_t w;
    zkey_t zk;
    bp_params_t bp;
} fixture;

static void load(fixture *f) {
    memset(f, 0, sizeof *f);
    char p[1200];
    pm_error err;
    snprintf(p, sizeof p, "%s/tests/data/powchain/circuit.r1cs", pm_source_dir());
    assert_int_equal(r1cs_read(&f->cs, p, &err), PM_OK);
    snprintf(p, sizeof p, "%s/tests/data/powchain/witness.wtns", pm_source_dir());
    assert_int_equal(wtns_read(&f->w, p, &err), PM_OK);
    snprintf(p, sizeof p, "%s/tests/data/powchain/circuit.zkey", pm_source_dir());
    assert_int_equal(zkey_read(&f->zk, p, ZKEY_SKIP_COEFS_LIST, &err), PM_OK);
    groth16_toxic_t t;
    uint64_t seed = 11;
    assert_int_equal(groth16_toxic_draw(&t, &seed, &err), PM_OK);
    assert_int_equal(groth16_setup_bellperson(&f->bp, &f->cs, &t, NULL, &err), PM_OK);
}

static void unload(fixture *f) {
    params_free(&f->bp);
    zkey_free(&f->zk);
    wtns_free(&f->w);
    r1cs_free(&f->cs);
}

/* the fixture's key view: conv 0 the zkey's (snarkjs), 1 the parameters' (bellperson) */
static void key_of(groth16_key *k, fixture *f, int conv) {
    pm_error err;
    if (conv == 0) assert_int_equal(groth16_key_from_zkey(k, &f->zk, NULL, 1, &err), PM_OK);
    else assert_int_equal(groth16_key_from_params(k, &f->bp, &f->cs, &err), PM_OK);
}

/* t on the fixture's key view of each convention (0 snarkjs, 1 bellperson) */
static void each_convention(void (*t)(fixture *f, const groth16_key *k, int conv)) {
    fixture f;
    load(&f);
    for (int conv = 0; conv < 2; conv++) {
        groth16_key k;
        key_of(&k, &f, conv);
        t(&f, &k, conv);
        groth16_key_free(&k);
    }
    unload(&f);
}

/* prove with key k on exec x (scratch: garbage-filled caller scratch when non-NULL) */
static void prove(groth16_proof_t *proof, groth16_pending_t *sums, const groth16_key *k, const groth16_exec *x,
                  const fixture *f, int split, int garbage) {
    pm_error err;
    pm_error_clear(&err);
    size_t ss = groth16_key_start_scratch_size(k, x->threads);
    void *scratch = garbage ? malloc(ss) : NULL;
    if (scratch) memset(scratch, 0xa5, ss);
    groth16_prove_opts_t opts = {.scratch = scratch, .scratch_size = ss, .threads = x->threads, .skip_self_check = 1};
    groth16_pending_t p;
    if (split) {
        assert_int_equal(groth16_pending_init_key(&p, k, f->w.values, f->w.n_values, &opts, &err), PM_OK);
        assert_int_equal(groth16_start_eval(&p, f->w.values, f->w.n_values, x, &err), PM_OK);
        assert_int_equal(groth16_start_finish(&p, x, &err), PM_OK);
    } else {
        pm_status st = groth16_start(&p, k, f->w.values, f->w.n_values, x, &opts, &err);
        if (st) fail_msg("start: %s", err.msg);
    }
    if (sums) *sums = p;
    fr_t r, s;
    groth16_seeded_scalars(&r, &s, 3);
    assert_int_equal(groth16_finalize(proof, &p, &r, &s, &err), PM_OK);
    /* the proof verifies with the key's own verifying key and the witness's public inputs */
    fr_t x_pub[64];
    assert_true(k->n_public <= 64);
    for (size_t i = 0; i < k->n_public; i++) x_pub[i] = f->w.values[1 + i];
    int valid = 0;
    assert_int_equal(groth16_verify(&valid, &k->vk, x_pub, k->n_public, proof, NULL, NULL, &err), PM_OK);
    assert_int_equal(valid, 1);
    groth16_pending_free(&p);
    free(scratch);
}

static void table_falls_back_per_operation_on(fixture *fx, const groth16_key *k, int conv) {
    groth16_exec cpu = {.ops = &groth16_ops_cpu, .threads = 1}, cnt = {.ops = &counting_table, .threads = 2};
    groth16_proof_t a, b, c, d;
    groth16_pending_t sa, sb;
    prove(&a, &sa, k, &cpu, fx, 0, 0);
    g_msm_calls = 0;
    prove(&b, &sb, k, &cnt, fx, 0, 1);
    assert_int_equal(g_msm_calls, GROTH16_N_BASES);
    assert_true(g1_jac_eq(&sa.sum_a, &sb.sum_a) && g1_jac_eq(&sa.sum_b1, &sb.sum_b1) &&
                g1_jac_eq(&sa.sum_c, &sb.sum_c));
    prove(&c, NULL, k, &cnt, fx, 1, 1); /* split pipeline, garbage scratch */
    prove(&d, NULL, k, &cpu, fx, 1, 0);
    assert_memory_equal(&a, &b, sizeof a);
    assert_memory_equal(&a, &c, sizeof a);
    assert_memory_equal(&a, &d, sizeof a);
    printf("%s: the counting table proves like the CPU table\n", conv ? "bellperson" : "snarkjs");
}

static void table_falls_back_per_operation(void **state) {
    (void)state;
    each_convention(table_falls_back_per_operation_on);
}

/* An exec with defer_free leaves the buffers the start is done with on the handle's spent list
 * (the engine's finalizer frees them, off its kernel region): a | b | c for both conventions and
 * bellperson's compacted A scalars; the B2 scalars stay for finalize's CPU G2 MSM. The proof is the same;
 * release_spent empties the list (ASan: nothing leaks, nothing is freed twice), and without
 * defer_free the list stays empty. */
static void deferred_frees_on(fixture *fx, const groth16_key *k, int conv) {
    pm_error err;
    groth16_proof_t want, got;
    const groth16_exec now = {.ops = &groth16_ops_cpu, .threads = 1};
    prove(&want, NULL, k, &now, fx, 1, 0);
    for (int defer = 0; defer < 2; defer++) {
        const groth16_exec x = {.ops = &groth16_ops_cpu, .threads = 1, .defer_free = defer};
        groth16_prove_opts_t opts = {.skip_self_check = 1};
        groth16_pending_t p;
        assert_int_equal(groth16_pending_init_key(&p, k, fx->w.values, fx->w.n_values, &opts, &err), PM_OK);
        assert_int_equal(groth16_start_eval(&p, fx->w.values, fx->w.n_values, &x, &err), PM_OK);
        assert_non_null(p.work);
        assert_int_equal(p.own_work, 1);
        assert_int_equal(groth16_start_finish(&p, &x, &err), PM_OK);
        assert_null(p.work);
        int n = 0;
        for (int i = 0; i < GROTH16_SPENT_MAX; i++) n += p.spent[i] != NULL;
        assert_int_equal(n, defer ? (conv == 1 ? 2 : 1) : 0);
        assert_non_null(p.b2); /* finalize's CPU G2 MSM reads it */
        fr_t r, s;
        groth16_seeded_scalars(&r, &s, 3);
        if (defer == 1 && conv == 1) groth16_pending_release_spent(&p); /* before finalize */
        assert_int_equal(groth16_finalize(&got, &p, &r, &s, &err), PM_OK);
        assert_memory_equal(&want, &got, sizeof want);
        if (defer == 1 && conv == 0) groth16_pending_release_spent(&p); /* after */
        for (int i = 0; i < GROTH16_SPENT_MAX; i++) assert_null(p.spent[i]);
        groth16_pending_free(&p);
    }
    /* a full list frees what it cannot hold */
    groth16_pending_t q;
    memset(&q, 0, sizeof q);
    for (int i = 0; i < GROTH16_SPENT_MAX + 2; i++) groth16_pending_spend(&q, malloc(64));
    groth16_pending_spend(&q, NULL);
    for (int i = 0; i < GROTH16_SPENT_MAX; i++) assert_non_null(q.spent[i]);
    groth16_pending_release_spent(&q);
}

static void deferred_frees(void **state) {
    (void)state;
    each_convention(deferred_frees_on);
}

/* The start's MSM order: the witness's (A, B1, C, then the table's G2 MSM) before H, and the table's
 * hold on the staged witness given back before the H MSM (a GPU card with one witness slot stages
 * the next handle under it); a table without a G2 MSM gives it back there too. Same proof bytes. */
static void witness_released_before_h_on(fixture *fx, const groth16_key *k, int conv) {
    (void)conv;
    groth16_exec cpu = {.ops = &groth16_ops_cpu, .threads = 1}, recx = {.ops = &recording_table, .threads = 1};
    groth16_proof_t want, got;
    prove(&want, NULL, k, &cpu, fx, 0, 0);
    g_nlog = 0;
    g_log[0] = 0;
    prove(&got, NULL, k, &recx, fx, 0, 0);
    assert_string_equal(g_log, "ABC2RH");
    assert_memory_equal(&want, &got, sizeof want);
    groth16_ops no_g2 = recording_table;
    no_g2.msm_g2 = NULL;
    recx.ops = &no_g2;
    g_nlog = 0;
    g_log[0] = 0;
    prove(&got, NULL, k, &recx, fx, 0, 0);
    assert_string_equal(g_log, "ABCRH");
    assert_memory_equal(&want, &got, sizeof want);
}

static void witness_released_before_h(void **state) {
    (void)state;
    each_convention(witness_released_before_h_on);
}

/* Two lanes (groth16_exec.lanes, the table's `lanes`): the witness MSMs (A, B1, C, the table's G2
 * MSM, then the hold on the staged witness given back) on a thread of their own, the H phase and
 * the H MSM on the caller's; the same proof bytes as one lane. A failure in either lane fails the
 * start with that lane's message and frees the handle (ASan: nothing leaks). With a caller's MSM
 * scratch the start keeps to one lane (the CPU MSMs would share it). */
static pthread_t g_lane_thr[GROTH16_N_BASES + 2]; /* A, B1, C, H, G2, release */
static int g_lane_fail = -1;                       /* the base whose MSM fails, -1 none */
static volatile int g_b2_done, g_release_after_b2;
static pm_status lane_msm(const groth16_exec *x, groth16_pending_t *p, groth16_base which, const groth16_scalars *s,
                          g1_jac_t *r, pm_error *err) {
    g_lane_thr[which] = pthread_self();
    if ((int)which == g_lane_fail)
        return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "injected failure in the MSM of base %d", (int)which);
    return groth16_ops_cpu.msm_g1(x, p, which, s, r, err);
}
static pm_status lane_msm2(const groth16_exec *x, groth16_pending_t *p, const groth16_scalars *s, g2_jac_t *r,
                           pm_error *err) {
    (void)x, (void)err;
    g_lane_thr[GROTH16_N_BASES] = pthread_self();
    pm_status st = msm_g2_vartime(r, p->key->b2, s->host, p->n_b2, 1);
    g_b2_done = 1;
    return st;
}
static void lane_release(groth16_pending_t *p) {
    g_lane_thr[GROTH16_N_BASES + 1] = pthread_self();
    g_release_after_b2 = g_b2_done;
    p->dev_release = NULL;
}
static pm_status lane_stage(const groth16_exec *x, groth16_pending_t *p, const fr_t *w, size_t n_w, pm_error *err) {
    (void)x, (void)w, (void)n_w, (void)err;
    p->dev_release = lane_release;
    return PM_OK;
}
/* the caller's yield: only ever called on the caller's thread (the engine's kernel region is its) */
static pthread_t g_yield_owner;
static int g_yield_calls, g_yield_foreign;
static void lane_yield(void *ctx) {
    (void)ctx;
    g_yield_calls++;
    if (!pthread_equal(pthread_self(), g_yield_owner)) g_yield_foreign++;
}
static unsigned lane_two(const groth16_exec *x, groth16_pending_t *p) {
    (void)x, (void)p;
    return 2;
}
static const groth16_ops lanes_table = {.name = "lanes", .stage = lane_stage, .msm_g1 = lane_msm, .msm_g2 = lane_msm2,
                                        .lanes = lane_two};

static void two_lanes_on(fixture *fx, const groth16_key *k, int conv) {
    groth16_proof_t want, got;
    const groth16_exec one = {.ops = &groth16_ops_cpu, .threads = 1};
    prove(&want, NULL, k, &one, fx, 1, 0);
    /* the CPU table asked for two lanes, with and without defer_free */
    for (int defer = 0; defer < 2; defer++) {
        const groth16_exec two = {.ops = &groth16_ops_cpu, .threads = 1, .lanes = 2, .defer_free = defer};
        prove(&got, NULL, k, &two, fx, 1, 0);
        assert_memory_equal(&want, &got, sizeof want);
    }
    /* a table that says two: the witness lane on another thread, the release after its G2 MSM */
    const pthread_t me = pthread_self();
    groth16_exec tx = {.ops = &lanes_table, .threads = 1, .yield = lane_yield};
    g_yield_owner = me;
    g_yield_calls = g_yield_foreign = 0;
    memset(g_lane_thr, 0, sizeof g_lane_thr);
    g_b2_done = g_release_after_b2 = 0;
    prove(&got, NULL, k, &tx, fx, 0, 0); /* groth16_start: the table's stage sets its release */
    assert_memory_equal(&want, &got, sizeof want);
    assert_true(pthread_equal(g_lane_thr[GROTH16_BASE_H], me));
    for (int i = 0; i < GROTH16_N_BASES + 2; i++) {
        if (i == GROTH16_BASE_H) continue;
        assert_false(pthread_equal(g_lane_thr[i], me));
        assert_true(pthread_equal(g_lane_thr[i], g_lane_thr[GROTH16_BASE_A]));
    }
    assert_int_equal(g_release_after_b2, 1);
    assert_true(g_yield_calls >= 2); /* after H and after the H MSM */
    assert_int_equal(g_yield_foreign, 0);
    /* x.lanes = 1 overrides the table: everything on the caller's thread */
    tx.lanes = 1;
    memset(g_lane_thr, 0, sizeof g_lane_thr);
    prove(&got, NULL, k, &tx, fx, 0, 0);
    assert_memory_equal(&want, &got, sizeof want);
    for (int i = 0; i < GROTH16_N_BASES + 2; i++) assert_true(pthread_equal(g_lane_thr[i], me));
    /* a caller's MSM scratch: one lane (garbage-filled scratch, the same proof) */
    tx.lanes = 0;
    memset(g_lane_thr, 0, sizeof g_lane_thr);
    prove(&got, NULL, k, &tx, fx, 0, 1);
    assert_memory_equal(&want, &got, sizeof want);
    assert_true(pthread_equal(g_lane_thr[GROTH16_BASE_B1], me));
    /* a failure in either lane: the start fails with its message, the handle is freed */
    tx.lanes = 2;
    for (int fail = 0; fail < GROTH16_N_BASES; fail++) {
        pm_error err;
        pm_error_clear(&err);
        groth16_prove_opts_t opts = {.skip_self_check = 1};
        groth16_pending_t p;
        g_lane_fail = fail;
        assert_int_equal(groth16_pending_init_key(&p, k, fx->w.values, fx->w.n_values, &opts, &err), PM_OK);
        assert_int_equal(groth16_start_eval(&p, fx->w.values, fx->w.n_values, &tx, &err), PM_OK);
        assert_int_equal(groth16_start_finish(&p, &tx, &err), PM_ERR_GPU);
        char want_msg[64];
        snprintf(want_msg, sizeof want_msg, "MSM of base %d", fail);
        if (!strstr(err.msg, want_msg)) fail_msg("lane failure %d: %s", fail, err.msg);
        assert_null(p.key); /* freed */
        groth16_pending_free(&p);
    }
    g_lane_fail = -1;
    printf("%s: two lanes prove like one\n", conv ? "bellperson" : "snarkjs");
}

static void two_lanes(void **state) {
    (void)state;
    each_convention(two_lanes_on);
}

static void snarkjs_bytes_through_the_conveniences(void **state) {
    (void)state;
    fixture f;
    load(&f);
    char p[1200];
    snprintf(p, sizeof p, "%s/tests/data/powchain/proof_det_rs.json", pm_source_dir());
    pm_error err;
    fr_t r, s;
    assert_int_equal(g16_read_rs(&r, &s, p), 0);
    groth16_proof_t proof;
    assert_int_equal(groth16_prove(&proof, &f.zk, f.w.values, f.w.n_values, &r, &s, NULL, NULL, &err), PM_OK);
    char *j = groth16_proof_to_json(&proof);
    snprintf(p, sizeof p, "%s/tests/data/powchain/proof_det.json", pm_source_dir());
    size_t n = 0;
    char *want = (char *)pm_test_slurp(p, &n);
    assert_non_null(want);
    assert_string_equal(j, want);
    free(j);
    free(want);
    unload(&f);
}

/* ---- the pinned a, b, c pool ---- */
static int g_allocs, g_releases, g_refuse;
static int g_alloc_device = -1;
static pm_status count_alloc(void **out, size_t bytes, int device, pm_error *err) {
    g_alloc_device = device;
    if (g_refuse) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "refused (test)");
    g_allocs++;
    *out = malloc(bytes);
    return *out ? PM_OK : PM_ERR_NOMEM;
}
static void count_release(void *p, size_t bytes) {
    (void)bytes;
    g_releases++;
    free(p);
}

typedef struct {
    groth16_abc_pool *pool;
    void *got;
    pm_status st;
    volatile int done;
} taker;
static void *take_main(void *arg) {
    taker *t = arg;
    pm_error err;
    t->st = groth16_abc_pool_take(t->pool, &t->got, &err);
    __atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
    return NULL;
}
static void sleep_ms(int ms) {
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

/* At most cap buffers: made on demand by the allocator, reused once given back; a take beyond cap
 * waits for a give and gets that buffer; close wakes a waiter with PM_ERR_CANCELLED and refuses
 * later takes; a refused allocator falls back to malloc (freed by destroy with free, not release). */
static void abc_pool_bounds_and_reuses(void **state) {
    (void)state;
    groth16_abc_pool pool;
    pm_error err;
    g_allocs = g_releases = g_refuse = 0;
    groth16_abc_pool_init(&pool, 4096, 2, NULL, NULL);
    groth16_abc_pool_arm(&pool, count_alloc, count_release, 3);
    groth16_abc_pool_arm(&pool, NULL, NULL, 0); /* once armed it stays */
    assert_int_equal(groth16_abc_pool_held(&pool), 0);
    void *a = NULL, *b = NULL, *c = NULL;
    assert_int_equal(groth16_abc_pool_take(&pool, &a, &err), PM_OK);
    assert_int_equal(groth16_abc_pool_take(&pool, &b, &err), PM_OK);
    assert_non_null(a);
    assert_non_null(b);
    assert_ptr_not_equal(a, b);
    memset(a, 1, 4096); /* the whole buffer is the caller's */
    memset(b, 2, 4096);
    assert_int_equal(g_allocs, 2);
    assert_int_equal(g_alloc_device, 3); /* the card it was armed with */
    assert_int_equal(groth16_abc_pool_held(&pool), 8192);
    /* a third take waits for a buffer */
    taker t = {.pool = &pool};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, take_main, &t), 0);
    sleep_ms(100);
    assert_int_equal(__atomic_load_n(&t.done, __ATOMIC_ACQUIRE), 0);
    groth16_abc_pool_give(&pool, b);
    pthread_join(th, NULL);
    assert_int_equal(t.st, PM_OK);
    assert_ptr_equal(t.got, b);
    assert_int_equal(g_allocs, 2);
    assert_int_equal(pool.waits, 1);
    /* given back and taken again without a new allocation */
    groth16_abc_pool_give(&pool, a);
    assert_int_equal(groth16_abc_pool_take(&pool, &c, &err), PM_OK);
    assert_ptr_equal(c, a);
    assert_int_equal(g_allocs, 2);
    /* close: the waiter wakes cancelled, later takes are refused */
    taker t2 = {.pool = &pool};
    assert_int_equal(pthread_create(&th, NULL, take_main, &t2), 0);
    sleep_ms(50);
    groth16_abc_pool_close(&pool);
    pthread_join(th, NULL);
    assert_int_equal(t2.st, PM_ERR_CANCELLED);
    assert_null(t2.got);
    void *d = NULL;
    assert_int_equal(groth16_abc_pool_take(&pool, &d, &err), PM_ERR_CANCELLED);
    groth16_abc_pool_give(&pool, b);
    groth16_abc_pool_give(&pool, a);
    groth16_abc_pool_destroy(&pool);
    assert_int_equal(g_releases, 2);

    /* the allocator refuses: malloc'd buffers, counted alike, freed with free() */
    g_allocs = g_releases = 0;
    g_refuse = 1;
    groth16_abc_pool_init(&pool, 1000, 0, count_alloc, count_release); /* cap 0 -> 1 */
    assert_int_equal(pool.cap, 1);
    assert_int_equal(groth16_abc_pool_take(&pool, &a, &err), PM_OK);
    assert_non_null(a);
    assert_int_equal(pool.pinned[0], 0);
    assert_int_equal(groth16_abc_pool_held(&pool), 1000);
    groth16_abc_pool_give(&pool, a);
    groth16_abc_pool_destroy(&pool);
    assert_int_equal(g_releases, 0);
    g_refuse = 0;
}

/* A proof whose a, b, c come from a pool: the same bytes as the CPU's; the buffer goes back once
 * the H phase has read it when H's result lies elsewhere (a device table's), before any MSM of H;
 * with the CPU's H (its result is in the buffer) at the end of start_finish; nothing stays taken. */
static groth16_abc_pool *g_pool;
static fr_t *g_hcopy;
static int g_busy_at_h_msm;
static int pool_busy(void) {
    int n = 0;
    pthread_mutex_lock(&g_pool->mu);
    for (unsigned i = 0; i < g_pool->cap; i++) n += g_pool->busy[i];
    pthread_mutex_unlock(&g_pool->mu);
    return n;
}
static pm_status elsewhere_h(const groth16_exec *x, groth16_pending_t *p, groth16_scalars *h, pm_error *err) {
    pm_status st = groth16_ops_cpu.h_bellperson(x, p, h, err);
    if (st) return st;
    const size_t m = p->key->domain;
    g_hcopy = malloc(m * sizeof *g_hcopy);
    memcpy(g_hcopy, h->host, m * sizeof *g_hcopy);
    memset((void *)h->host, 0x5a, m * sizeof *g_hcopy); /* the buffer's next user may write it */
    h->host = g_hcopy;
    return PM_OK;
}
static pm_status busy_msm(const groth16_exec *x, groth16_pending_t *p, groth16_base which, const groth16_scalars *s,
                          g1_jac_t *r, pm_error *err) {
    if (which == GROTH16_BASE_H) g_busy_at_h_msm = pool_busy();
    return groth16_ops_cpu.msm_g1(x, p, which, s, r, err);
}
static const groth16_ops elsewhere_table = {.name = "h-elsewhere", .h_bellperson = elsewhere_h, .msm_g1 = busy_msm};
static pm_status failing_h(const groth16_exec *x, groth16_pending_t *p, groth16_scalars *h, pm_error *err) {
    (void)x, (void)p, (void)h;
    return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "H refused (test)");
}
static const groth16_ops failing_h_table = {.name = "h-fails", .h_bellperson = failing_h};
static const groth16_ops cpu_h_table = {.name = "h-cpu", .msm_g1 = busy_msm};

/* a handle for k with the fixture's witness, evaluated on x: start_eval returns want */
static void eval_on(groth16_pending_t *q, const groth16_key *k, const fixture *f, const groth16_exec *x, pm_status want,
                    pm_error *err) {
    groth16_prove_opts_t o = {.skip_self_check = 1};
    assert_int_equal(groth16_pending_init_key(q, k, f->w.values, f->w.n_values, &o, err), PM_OK);
    assert_int_equal(groth16_start_eval(q, f->w.values, f->w.n_values, x, err), want);
}

static void abc_pool_proof(void **state) {
    (void)state;
    fixture f;
    load(&f);
    groth16_key k;
    key_of(&k, &f, 1);
    groth16_proof_t want, got;
    const groth16_exec cpu = {.ops = &groth16_ops_cpu, .threads = 1};
    prove(&want, NULL, &k, &cpu, &f, 1, 0);
    groth16_abc_pool pool;
    g_pool = &pool;
    const groth16_ops *tables[2] = {&elsewhere_table, &cpu_h_table};
    for (int t = 0; t < 2; t++) {
        groth16_abc_pool_init(&pool, 3 * k.domain * sizeof(fr_t), 1, NULL, NULL);
        for (int rep = 0; rep < 2; rep++) { /* the second proof reuses the buffer the first left */
            const groth16_exec x = {.ops = tables[t], .threads = 1, .abc_pool = &pool};
            g_busy_at_h_msm = -1;
            prove(&got, NULL, &k, &x, &f, 1, 0);
            assert_memory_equal(&want, &got, sizeof want);
            assert_int_equal(g_busy_at_h_msm, t == 0 ? 0 : 1);
            assert_int_equal(pool_busy(), 0);
            assert_int_equal(pool.n, 1);
            free(g_hcopy);
            g_hcopy = NULL;
        }
        assert_int_equal(pool.takes, 2);
        assert_int_equal(pool.waits, 0);
        groth16_abc_pool_destroy(&pool);
    }
    /* a start that fails after its eval (here in H) gives the buffer back with the handle, and so
     * does a handle freed between eval and finish */
    groth16_abc_pool_init(&pool, 3 * k.domain * sizeof(fr_t), 1, NULL, NULL);
    for (int when = 0; when < 2; when++) {
        const groth16_exec x = {.ops = &failing_h_table, .threads = 1, .abc_pool = &pool};
        groth16_pending_t q;
        pm_error e2;
        eval_on(&q, &k, &f, &x, PM_OK, &e2);
        assert_int_equal(pool_busy(), 1);
        if (when == 0) assert_int_equal(groth16_start_finish(&q, &x, &e2), PM_ERR_GPU);
        else groth16_pending_free(&q);
        assert_int_equal(pool_busy(), 0);
        groth16_pending_free(&q); /* freed again: nothing given back twice */
        assert_int_equal(pool_busy(), 0);
    }
    assert_int_equal(pool.n, 1);
    groth16_abc_pool_destroy(&pool);
    /* a pool for another domain is refused, naming both */
    groth16_abc_pool_init(&pool, 64, 1, NULL, NULL);
    const groth16_exec bad = {.ops = &groth16_ops_cpu, .threads = 1, .abc_pool = &pool};
    groth16_pending_t p;
    pm_error err;
    eval_on(&p, &k, &f, &bad, PM_ERR_ARG, &err);
    assert_non_null(strstr(err.msg, "a, b, c pool of 64-byte buffers"));
    groth16_abc_pool_destroy(&pool);
    groth16_key_free(&k);
    unload(&f);
}

static void gpu_table_answers(void **state) {
    (void)state;
    const groth16_ops *gpu = (const groth16_ops *)1;
    pm_error err;
    pm_error_clear(&err);
    pm_status st = groth16_ops_gpu(&gpu, &err);
    printf("groth16_ops_gpu: %s %s\n", pm_status_name(st), st ? err.msg : gpu->name);
    if (st) {
        assert_int_equal(st, PM_ERR_GPU);
        assert_null(gpu);
        assert_true(err.msg[0] != 0);
    } else {
        assert_non_null(gpu->msm_g1);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_falls_back_per_operation),
        cmocka_unit_test(deferred_frees),
        cmocka_unit_test(witness_released_before_h),
        cmocka_unit_test(two_lanes),
        cmocka_unit_test(snarkjs_bytes_through_the_conveniences),
        cmocka_unit_test(gpu_table_answers),
        cmocka_unit_test(abc_pool_bounds_and_reuses),
        cmocka_unit_test(abc_pool_proof),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
