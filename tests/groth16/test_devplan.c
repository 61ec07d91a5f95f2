/*
 * test_devplan.c — the device-memory planner (groth16/devplan.h) on cards of 8, 16, 24, 32, 48, 80
 * and 141 GB, for the shapes of every proof kind (the recorded 32 GiB PoRep, WindowPoSt and
 * SnapDeals partitions, a WinningPoSt, a snarkjs key) and 1-8 workers: the decisions, the
 * invariants every plan keeps (its peak within the card, chunks that fit their room, streamed sets
 * pinned), the refusal naming the smallest card, the pin table shared by several cards, and the
 * chunk schedule of streamed MSMs. No GPU.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/gpu_sizes.h"
#include "groth16/devplan.h"
#include "util/settings.h"
#include "test_util.h"

#define GIB ((uint64_t)1 << 30)

/* The recorded 32 GiB PoRep partition (docs/perf/porep.md; POREP.md §6.9): 130,278,869 rows, 328
 * inputs, 130,169,893 aux wires, m = 2^27; A and B densities of our recorded circuit; its device
 * CSR (dictionary-coded) as gpu_r1cs_device_bytes measured it on the H200 (31,364,351,128 resident
 * bytes less the witness slots, domain and index lists). */
static groth16_devplan_shape porep_32g(void) {
    groth16_devplan_shape s = {.conv = GROTH16_BELLPERSON, .n_vars = 130169893 + 328, .n_public = 327,
                               .log_domain = 27, .n_b2 = 33193406, .circuit_bytes = 7350000000ull};
    s.n_base[GROTH16_BASE_A] = 129649540;
    s.n_base[GROTH16_BASE_B1] = 33193406;
    s.n_base[GROTH16_BASE_C] = 130169893;
    s.n_base[GROTH16_BASE_H] = (1ull << 27) - 1;
    return s;
}

/* The 32 GiB WindowPoSt partition (tests/engine/test_engine_core.c): 125,279,217 constraints, 25,840
 * inputs, 126,902,376 aux; the circuit as recorded (12.2 GB). */
static groth16_devplan_shape window_post_32g(void) {
    groth16_devplan_shape s = {.conv = GROTH16_BELLPERSON, .n_vars = 126902376 + 25840, .n_public = 25839,
                               .log_domain = 27, .n_b2 = 81684913, .circuit_bytes = 12215986192ull};
    s.n_base[GROTH16_BASE_A] = 126928216;
    s.n_base[GROTH16_BASE_B1] = 81684913;
    s.n_base[GROTH16_BASE_C] = 126902376;
    s.n_base[GROTH16_BASE_H] = (1ull << 27) - 1;
    return s;
}

/* SnapDeals 32 GiB: ~81 M constraints (m = 2^27), wires and densities of the same order. */
static groth16_devplan_shape snapdeals_32g(void) {
    groth16_devplan_shape s = {.conv = GROTH16_BELLPERSON, .n_vars = 81000000, .n_public = 6, .log_domain = 27,
                               .n_b2 = 40000000, .circuit_bytes = 7000000000ull};
    s.n_base[GROTH16_BASE_A] = 80000000;
    s.n_base[GROTH16_BASE_B1] = 40000000;
    s.n_base[GROTH16_BASE_C] = 80999993;
    s.n_base[GROTH16_BASE_H] = (1ull << 27) - 1;
    return s;
}

/* WinningPoSt 32 GiB: ~3.5 M constraints, m = 2^22. */
static groth16_devplan_shape winning_post(void) {
    groth16_devplan_shape s = {.conv = GROTH16_BELLPERSON, .n_vars = 3500000, .n_public = 1, .log_domain = 22,
                               .n_b2 = 900000, .circuit_bytes = 250000000ull};
    s.n_base[GROTH16_BASE_A] = 3490000;
    s.n_base[GROTH16_BASE_B1] = 900000;
    s.n_base[GROTH16_BASE_C] = 3499998;
    s.n_base[GROTH16_BASE_H] = (1ull << 22) - 1;
    return s;
}

/* A snarkjs key of 2^20 constraints. */
static groth16_devplan_shape snarkjs_key(void) {
    groth16_devplan_shape s = {.conv = GROTH16_SNARKJS, .n_vars = 1000000, .n_public = 2, .log_domain = 20,
                               .n_b2 = 1000000};
    s.n_base[GROTH16_BASE_A] = 1000000;
    s.n_base[GROTH16_BASE_B1] = 1000000;
    s.n_base[GROTH16_BASE_C] = 1000000 - 3;
    s.n_base[GROTH16_BASE_H] = 1u << 20;
    return s;
}

static groth16_devplan_card card_gb(unsigned gb, unsigned workers) {
    groth16_devplan_card c = {.mem_total = (uint64_t)gb * GIB, .mem_free = (uint64_t)gb * GIB - (512ull << 20),
                              .workers = workers};
    snprintf(c.name, sizeof c.name, "a %u GB card", gb);
    return c;
}

static uint64_t set_bytes(const groth16_devplan_shape *s, int i) {
    return i == GROTH16_N_BASES ? s->n_b2 * 192 : s->n_base[i] * 96;
}

/* Every invariant of a plan p for shape s on card c. */
static void check_plan(const groth16_devplan *p, const groth16_devplan_shape *s, const groth16_devplan_card *c,
                       const char *what) {
    const size_t lanes = (size_t)(c->sm_count ? c->sm_count : 132) * GPU_SIZES_LANES_PER_SM;
    if (p->peak_bytes > p->usable) fail_msg("%s: peak %llu > usable %llu", what, (unsigned long long)p->peak_bytes,
                                            (unsigned long long)p->usable);
    uint64_t usable = c->mem_free < c->mem_total ? c->mem_free : c->mem_total;
    if (c->cap && c->cap < usable) usable = c->cap;
    assert_true(p->usable + groth16_devplan_reserve(usable) == usable);
    assert_true(p->fixed_bytes + p->bases_bytes + p->msm_bytes == p->peak_bytes);
    /* one room, or two of half the bytes (each holds any one MSM) */
    assert_true(p->msm_rooms == 1 || p->msm_rooms == 2);
    const uint64_t room = p->msm_bytes / p->msm_rooms;
    uint64_t res = 0, pinned = 0;
    for (int i = 0; i <= GROTH16_N_BASES; i++) {
        const groth16_place at = i == GROTH16_N_BASES ? p->b2 : p->base[i];
        const uint64_t n = i == GROTH16_N_BASES ? s->n_b2 : s->n_base[i];
        const gpu_sizes_group *g = i == GROTH16_N_BASES ? &GPU_SIZES_G2 : &GPU_SIZES_G1;
        assert_true(at == GROTH16_ON_DEVICE || at == GROTH16_STREAMED);
        if (at == GROTH16_ON_DEVICE) {
            res += set_bytes(s, i);
            const uint64_t chunk = i == GROTH16_N_BASES ? p->chunk_g2 : p->chunk_g1;
            const uint64_t need = chunk ? gpu_sizes_msm_resident_chunk_bytes(g, chunk < n ? chunk : n, lanes)
                                        : gpu_sizes_msm_scratch(g, n, 0, lanes);
            if (need > room) fail_msg("%s: set %d resident, its MSM needs %llu > room %llu", what, i,
                                      (unsigned long long)need, (unsigned long long)room);
            assert_true(!chunk || chunk >= GPU_SIZES_MIN_CHUNK);
        } else {
            pinned += set_bytes(s, i);
            const uint64_t chunk = i == GROTH16_N_BASES ? p->stream_g2 : p->stream_g1;
            assert_true(chunk >= GPU_SIZES_MIN_CHUNK);
            assert_true(gpu_sizes_msm_chunk_bytes(g, chunk < n ? chunk : n, lanes) <= room);
        }
    }
    if (p->msm_rooms == 2) { /* only where a set streams, and never with chunks below 2^21 */
        assert_true(pinned > 0);
        assert_false(p->keep_scratch);
        assert_false(c->one_room);
        assert_true(!p->stream_g1 || p->stream_g1 >= (1u << 21));
        assert_true(!p->chunk_g1 || p->chunk_g1 >= (1u << 21));
    }
    assert_true(res == p->bases_bytes);
    assert_true(pinned == p->host_pinned_bytes);
    const int bp = s->conv == GROTH16_BELLPERSON;
    /* what each tier moves */
    if (p->tier == GROTH16_TIER_RESIDENT) assert_int_equal(pinned, 0); /* tier 0: every set on the card */
    if (bp) {
        assert_int_equal(p->circuit, p->tier <= GROTH16_TIER_STREAMED ? GROTH16_ON_DEVICE : GROTH16_ON_HOST);
        assert_int_equal(p->witness_slots, p->tier >= GROTH16_TIER_ONE_SLOT || c->workers < 2 || p->one_slot_for_host ? 1 : 2);
        /* one slot for the host only under a budget the two-slot plan breaks */
        if (p->one_slot_for_host) assert_true(c->host_budget && c->workers >= 2);
        assert_int_equal(p->host_abc_bytes, p->tier >= GROTH16_TIER_HOST_CIRCUIT ? 3 * 32 * (1ull << s->log_domain) : 0);
        /* the key's pinned a, b, c pool: one buffer per card (gpu.abc_buffers: more; tier 5, H on the
         * CPU: one per worker), one under a host budget that dropped a witness slot */
        const unsigned dv = c->devices ? c->devices : 1, wk = c->workers ? c->workers : 1;
        const unsigned pc = c->abc_buffers ? c->abc_buffers : p->h == GROTH16_ON_HOST ? wk : 1;
        assert_int_equal(p->abc_per_card, p->host_abc_bytes ? (p->one_slot_for_host ? 1 : pc) : 0);
        assert_int_equal(p->host_abc_buffers, dv * p->abc_per_card);
    } else {
        assert_int_equal(p->witness_slots, 0);
        /* no circuit or slots to shed, and gpu_snarkjs_h needs three domain buffers */
        assert_true(p->tier != GROTH16_TIER_HOST_CIRCUIT && p->tier != GROTH16_TIER_ONE_SLOT &&
                    p->tier != GROTH16_TIER_ONE_BUFFER);
    }
    assert_int_equal(p->h, p->tier == GROTH16_TIER_HOST_H ? GROTH16_ON_HOST : GROTH16_ON_DEVICE);
    /* the domain: three work buffers, one and a chunk buffer (tier 4), or none (H on the CPU) */
    assert_int_equal(p->h_buffers, p->tier == GROTH16_TIER_HOST_H ? 0 : p->tier == GROTH16_TIER_ONE_BUFFER ? 1 : 3);
    if (p->tier == GROTH16_TIER_ONE_BUFFER) {
        assert_true(p->h_chunk_points > 0 && p->h_chunk_points <= (1ull << s->log_domain));
        uint64_t fixed = p->witness_slots * s->n_vars * 32 + (s->n_base[GROTH16_BASE_A] + s->n_b2) * 4 +
                         gpu_sizes_ntt_domain(s->log_domain, 1) + p->h_chunk_points * 32;
        assert_true(fixed == p->fixed_bytes);
    } else {
        assert_int_equal(p->h_chunk_points, 0);
    }
    const unsigned ops = groth16_devplan_cpu_ops(p);
    assert_int_equal(!!(ops & GROTH16_CPU_H), p->tier == GROTH16_TIER_HOST_H);
    /* snarkjs: a, b from the zkey section 4 on the CPU whatever the plan (no bit) */
    assert_int_equal(!!(ops & GROTH16_CPU_EVAL), bp && p->tier >= GROTH16_TIER_HOST_CIRCUIT);
    char buf[4096];
    groth16_devplan_format(buf, sizeof buf, p, s);
    assert_non_null(strstr(buf, groth16_devplan_tier_name(p->tier)));
}

static const unsigned cards[] = {8, 16, 24, 32, 48, 80, 141};
#define NCARDS (sizeof cards / sizeof cards[0])

/* The recorded 32 GiB PoRep partition: the tier each card gets (issue #37's cards). */
static void porep_tiers(void **state) {
    (void)state;
    const groth16_devplan_shape s = porep_32g();
    const int want[NCARDS] = {GROTH16_TIER_HOST_H,  GROTH16_TIER_ONE_BUFFER, GROTH16_TIER_ONE_SLOT, GROTH16_TIER_HOST_CIRCUIT,
                              GROTH16_TIER_STREAMED, GROTH16_TIER_STREAMED,   GROTH16_TIER_RESIDENT};
    for (size_t i = 0; i < NCARDS; i++) {
        groth16_devplan_card c = card_gb(cards[i], 2);
        groth16_devplan p;
        pm_error e;
        assert_int_equal(groth16_devplan_make(&p, &s, &c, 0, &e), PM_OK);
        char what[64];
        snprintf(what, sizeof what, "PoRep 32 GiB on %u GB", cards[i]);
        check_plan(&p, &s, &c, what);
        printf("%s: tier %u (%s), peak %.1f GiB, MSM room %.1f GiB\n", what, p.tier, groth16_devplan_tier_name(p.tier),
               p.peak_bytes / (double)GIB, p.msm_bytes / (double)GIB);
        assert_int_equal(p.tier, want[i]);
    }
    /* the 80 GB H100 keeps the witness-like sets and streams H (uniform scalars, compute-bound) */
    groth16_devplan_card c = card_gb(80, 2);
    groth16_devplan p;
    pm_error e;
    assert_int_equal(groth16_devplan_make(&p, &s, &c, 0, &e), PM_OK);
    assert_int_equal(p.base[GROTH16_BASE_H], GROTH16_STREAMED);
    assert_int_equal(p.base[GROTH16_BASE_A], GROTH16_ON_DEVICE);
    assert_int_equal(p.base[GROTH16_BASE_C], GROTH16_ON_DEVICE);
    /* two MSM rooms (the witness MSMs beside H) on every card that streams at 32 GiB, one on the
     * 141 GB card (resident: nothing to overlap) and with gpu.two_lanes off (one_room), where the
     * tier and the resident sets stay as they were and the room is whole */
    for (size_t i = 0; i < NCARDS; i++) {
        groth16_devplan_card c2 = card_gb(cards[i], 2), c1 = c2;
        c1.one_room = 1;
        groth16_devplan p2, p1;
        assert_int_equal(groth16_devplan_make(&p2, &s, &c2, 0, &e), PM_OK);
        assert_int_equal(groth16_devplan_make(&p1, &s, &c1, 0, &e), PM_OK);
        check_plan(&p1, &s, &c1, "one room");
        assert_int_equal(p1.msm_rooms, 1);
        assert_int_equal(p2.msm_rooms, cards[i] >= 16 && cards[i] <= 80 ? 2 : 1);
        assert_int_equal(p2.tier, p1.tier);
        assert_int_equal(p2.bases_bytes, p1.bases_bytes);
        if (p2.msm_rooms == 2) assert_true(p2.stream_g1 < p1.stream_g1);
    }
    /* a 4 GB card is refused, naming a card that would do */
    c = card_gb(4, 2);
    assert_int_equal(groth16_devplan_make(&p, &s, &c, 0, &e), PM_ERR_NOMEM);
    printf("4 GB: %s\n", e.msg);
    assert_non_null(strstr(e.msg, "a card of at least"));
    assert_non_null(strstr(e.msg, "a 4 GB card"));
}

/* Every kind, every card, 1-8 workers: a plan that keeps its invariants or the refusal, the tier
 * never faster on a smaller card, the smallest card of groth16_devplan_min_card exact. */
static void every_kind_card(void **state) {
    (void)state;
    const groth16_devplan_shape shapes[] = {porep_32g(), window_post_32g(), snapdeals_32g(), winning_post(),
                                            snarkjs_key()};
    const char *names[] = {"porep-c2 32GiB", "window-post 32GiB", "snapdeals 32GiB", "winning-post 32GiB", "snarkjs"};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++)
        for (unsigned workers = 1; workers <= 8; workers++) {
            const uint64_t need = groth16_devplan_min_card(&shapes[k], workers, GROTH16_TIER_HOST_H);
            assert_true(need > 0);
            unsigned last_tier = GROTH16_TIERS;
            for (size_t i = 0; i < NCARDS; i++) {
                groth16_devplan_card c = card_gb(cards[i], workers);
                c.mem_free = c.mem_total; /* min_card assumes a free card */
                groth16_devplan p;
                pm_error e;
                char what[96];
                snprintf(what, sizeof what, "%s, %u GB, %u workers", names[k], cards[i], workers);
                pm_status st = groth16_devplan_make(&p, &shapes[k], &c, 0, &e);
                if ((uint64_t)cards[i] * GIB < need) {
                    if (st != PM_ERR_NOMEM) fail_msg("%s: planned below the smallest card %.0f GiB", what, need / (double)GIB);
                    assert_non_null(strstr(e.msg, "a card of at least"));
                    continue;
                }
                if (st) fail_msg("%s: refused at or above the smallest card: %s", what, e.msg);
                check_plan(&p, &shapes[k], &c, what);
                if (last_tier < GROTH16_TIERS) assert_true(p.tier <= last_tier);
                last_tier = p.tier;
            }
            /* exact: the smallest card plans, one GiB less does not */
            groth16_devplan_card c = {.mem_total = need, .workers = workers};
            groth16_devplan p;
            pm_error e;
            assert_int_equal(groth16_devplan_make(&p, &shapes[k], &c, 0, &e), PM_OK);
            c.mem_total = need - GIB;
            if (need > GIB) assert_int_equal(groth16_devplan_make(&p, &shapes[k], &c, 0, &e), PM_ERR_NOMEM);
        }
}

/* The cap (gpu.memory) and other processes' memory both bound the plan; min_tier forces slower tiers. */
static void cap_free_min_tier(void **state) {
    (void)state;
    const groth16_devplan_shape s = porep_32g();
    groth16_devplan_card c = card_gb(141, 2);
    groth16_devplan p, q;
    pm_error e;
    assert_int_equal(groth16_devplan_make(&p, &s, &c, 0, &e), PM_OK);
    assert_int_equal(p.tier, GROTH16_TIER_RESIDENT);
    c.cap = 24 * GIB; /* a 24 GB card emulated on the H200 */
    assert_int_equal(groth16_devplan_make(&q, &s, &c, 0, &e), PM_OK);
    groth16_devplan_card c24 = card_gb(24, 2);
    c24.mem_free = c24.mem_total;
    groth16_devplan r;
    assert_int_equal(groth16_devplan_make(&r, &s, &c24, 0, &e), PM_OK);
    assert_int_equal(q.tier, r.tier);
    assert_true(q.usable == 24 * GIB - GROTH16_DEVPLAN_RESERVE);
    c.cap = 1 * GIB; /* small caps (tests) reserve an eighth */
    assert_int_equal(groth16_devplan_make(&q, &s, &c, 0, &e), PM_ERR_NOMEM);
    assert_non_null(strstr(e.msg, "0.1 GiB reserved"));
    c.cap = 24 * GIB;
    c.cap = 0;
    c.mem_free = 40 * GIB; /* another process holds 100 GB */
    assert_int_equal(groth16_devplan_make(&q, &s, &c, 0, &e), PM_OK);
    assert_true(q.peak_bytes <= 40 * GIB - GROTH16_DEVPLAN_RESERVE);
    assert_true(q.tier >= GROTH16_TIER_STREAMED);
    c.mem_free = c.mem_total;
    for (unsigned t = 0; t < GROTH16_TIERS; t++) {
        c.min_tier = t;
        assert_int_equal(groth16_devplan_make(&q, &s, &c, 0, &e), PM_OK);
        assert_int_equal(q.tier, t);
        check_plan(&q, &s, &c, "forced tier");
        c.min_tier = 0;
        assert_int_equal(groth16_devplan_make(&q, &s, &c, t, &e), PM_OK);
        assert_int_equal(q.tier, t);
    }
    /* an empty shape is an argument error */
    groth16_devplan_shape z = {.conv = GROTH16_BELLPERSON};
    assert_int_equal(groth16_devplan_make(&q, &z, &c, 0, &e), PM_ERR_ARG);
}

/* One pinned host copy for every card: two devices' copies of a key share one registration. */
typedef struct {
    int pins, unpins, refuse;
} pin_calls;
static int fake_pin(void *ctx, const void *p, size_t bytes) {
    (void)p, (void)bytes;
    pin_calls *c = ctx;
    c->pins++;
    return c->refuse;
}
static void fake_unpin(void *ctx, const void *p, size_t bytes) {
    (void)p, (void)bytes;
    ((pin_calls *)ctx)->unpins++;
}

static void pin_table_shared(void **state) {
    (void)state;
    static groth16_pin_table t;
    pin_calls calls = {0};
    const groth16_pin_ops ops = {fake_pin, fake_unpin, &calls};
    static char h[4096], l[4096];
    uint64_t ledger = 0;
    for (int dev = 0; dev < 8; dev++) { /* 8 cards stream H and L */
        assert_int_equal(groth16_pin_take(&t, &ops, h, sizeof h, &ledger), 1);
        assert_int_equal(groth16_pin_take(&t, &ops, l, sizeof l, &ledger), 1);
    }
    assert_int_equal(calls.pins, 2);
    assert_int_equal(ledger, sizeof h + sizeof l);
    assert_int_equal(groth16_pin_refs(&t, h), 8);
    for (int dev = 0; dev < 7; dev++) groth16_pin_drop(&t, &ops, h);
    assert_int_equal(calls.unpins, 0);
    groth16_pin_drop(&t, &ops, h);
    assert_int_equal(calls.unpins, 1);
    assert_int_equal(ledger, sizeof l);
    assert_int_equal(groth16_pin_refs(&t, h), 0);
    for (int dev = 0; dev < 8; dev++) groth16_pin_drop(&t, &ops, l);
    assert_int_equal(calls.unpins, 2);
    assert_int_equal(ledger, 0);
    groth16_pin_drop(&t, &ops, l); /* unknown now: a no-op */
    assert_int_equal(calls.unpins, 2);
    /* a refused registration is remembered (no retry per card) and never unpinned */
    calls.refuse = 1;
    assert_int_equal(groth16_pin_take(&t, &ops, h, sizeof h, &ledger), 0);
    assert_int_equal(groth16_pin_take(&t, &ops, h, sizeof h, &ledger), 0);
    assert_int_equal(calls.pins, 3);
    groth16_pin_drop(&t, &ops, h);
    groth16_pin_drop(&t, &ops, h);
    assert_int_equal(calls.unpins, 2);
    assert_int_equal(ledger, 0);
    /* a full table: the user streams pageable memory, nothing registered */
    calls.refuse = 0;
    static char many[GROTH16_PIN_SLOTS + 1];
    for (int i = 0; i < GROTH16_PIN_SLOTS; i++) assert_int_equal(groth16_pin_take(&t, &ops, many + i, 1, NULL), 1);
    assert_int_equal(groth16_pin_take(&t, &ops, many + GROTH16_PIN_SLOTS, 1, NULL), 0);
    for (int i = 0; i < GROTH16_PIN_SLOTS; i++) groth16_pin_drop(&t, &ops, many + i);
}

/* The chunk schedule covers every point once, alternating buffers, at most `chunk` a piece. */
static void chunk_schedule(void **state) {
    (void)state;
    uint64_t seed = pm_test_seed();
    for (int r = 0; r < 200; r++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const size_t n = (size_t)(seed >> 33) % 5000000;
        const size_t chunk = r % 7 == 0 ? 0 : 1 + (size_t)(seed >> 20) % 300000;
        const size_t nc = gpu_sizes_chunk_count(n, chunk);
        size_t covered = 0;
        for (size_t i = 0; i < nc; i++) {
            const size_t len = gpu_sizes_chunk_len(n, i, chunk);
            assert_true(chunk == 0 || len <= chunk);
            assert_true(len > 0 || n == 0);
            assert_int_equal(covered, chunk ? i * chunk : 0);
            covered += len;
            assert_int_equal(gpu_sizes_chunk_buffer(i), i % 2);
        }
        assert_int_equal(covered, n);
        assert_int_equal(gpu_sizes_chunk_len(n, nc, chunk), 0);
    }
}

/* The packed chunks of a gathered MSM that leaves the zero scalars' points off the bus
 * (gpu_sizes_pack_next, msm_stream.cuh): runs of whole segments, each run at most m non-zero points
 * and as long as the next segment would not fit; every segment in exactly one run. */
static void pack_schedule(void **state) {
    (void)state;
    uint64_t seed = pm_test_seed() ^ 0x5eedu;
    for (int r = 0; r < 300; r++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const size_t nseg = (size_t)(seed >> 40) % 3000;
        const size_t segsz = r % 3 == 0 ? 1 : (size_t)GPU_SIZES_PACK_SEG;
        const size_t m = segsz + (size_t)(seed >> 13) % (20 * segsz + 1);
        const int mode = r % 4; /* 0: random, 1: all zero, 2: all full, 3: sparse runs */
        uint32_t *cnt = malloc((nseg ? nseg : 1) * 4);
        assert_non_null(cnt);
        uint64_t total = 0;
        for (size_t i = 0; i < nseg; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            const uint32_t v = (uint32_t)((seed >> 33) % (segsz + 1));
            cnt[i] = mode == 1 ? 0 : mode == 2 ? (uint32_t)segsz : mode == 3 ? ((seed >> 20) % 5 == 0 ? v : 0) : v;
            total += cnt[i];
        }
        uint64_t sent = 0;
        size_t s = 0, runs = 0;
        while (s < nseg) {
            size_t count = 99;
            const size_t e = gpu_sizes_pack_next(cnt, nseg, s, m, &count);
            assert_true(e > s && e <= nseg);
            uint64_t sum = 0;
            for (size_t i = s; i < e; i++) sum += cnt[i];
            assert_int_equal(sum, count);
            assert_true(count <= m);
            if (e < nseg) assert_true(count + cnt[e] > m); /* the run stopped only where the next would not fit */
            sent += count;
            runs++;
            s = e;
        }
        assert_int_equal(sent, total);
        if (mode == 2 && nseg) assert_int_equal(runs, (nseg + m / segsz - 1) / (m / segsz));
        free(cnt);
    }
    size_t count = 7;
    assert_int_equal(gpu_sizes_pack_next(NULL, 0, 0, 100, &count), 0);
    assert_int_equal(count, 0);
}

/* The sizes the kernels allocate with: the MSM scratch grows with the window, the chunked forms fit
 * their budgets, the domain's bytes are the twiddles + tables + buffers. */
/* The host budget (memory.budget, `plan --host-memory`): a second witness slot whose pinned staging
 * would push one proof past the budget is dropped; the host bytes are the plan's own sum. */
static void host_budget_slots(void **state) {
    (void)state;
    const groth16_devplan_shape s = porep_32g();
    groth16_devplan p, p0;
    pm_error e;
    groth16_devplan_card c = card_gb(32, 2);
    assert_int_equal(groth16_devplan_make(&p0, &s, &c, 0, &e), PM_OK); /* no budget: two slots */
    assert_int_equal(p0.witness_slots, 2);
    assert_int_equal(p0.one_slot_for_host, 0);
    const uint64_t two = groth16_devplan_host_bytes(&p0, &s, 1, 2);
    /* the sum by hand: key, two stagings, one a, b, c buffer (one per card), two partitions */
    uint64_t pts = s.n_public + 1;
    for (int b = 0; b < GROTH16_N_BASES; b++) pts += s.n_base[b];
    const uint64_t m = 1ull << s.log_domain, per = 32 * s.n_vars + 32 * (s.n_public + 1) + (1ull << 20);
    /* (H on the card at 32 GB: the view's CPU NTT domain is never built, so not counted) */
    assert_int_equal(p0.h, GROTH16_ON_DEVICE);
    assert_int_equal(p0.abc_per_card, 1);
    assert_int_equal(p0.host_abc_buffers, 1);
    assert_true(two == pts * 96 + s.n_b2 * 192 + s.circuit_bytes + groth16_key_view_bytes(GROTH16_BELLPERSON, s.n_vars, m) -
                           groth16_key_domain_bytes(m) + 2 * 32 * s.n_vars + 3 * 32 * m + 2 * per);
    /* the itemised sum (`proofmill plan`'s host line) is the same sum, item by item, on four cards too */
    {
        groth16_devplan_host h;
        groth16_devplan_host_items(&h, &p0, &s, 1, 2);
        assert_true(h.total == two && h.staging == 2 * 32 * s.n_vars && h.pool == 3 * 32 * m && h.per_part == per &&
                    h.in_flight == 2 && h.key == two - h.staging - h.pool - 2 * per);
        groth16_devplan_host_items(&h, &p0, &s, 4, 2);
        assert_true(h.total == groth16_devplan_host_bytes(&p0, &s, 4, 2) && h.in_flight == 8 &&
                    h.staging == 4 * 2 * 32 * s.n_vars && h.pool == 4 * 3 * 32 * m);
    }
    /* gpu.abc_buffers 2 (the pool of one buffer per GPU worker): one more buffer in the sum; four
     * cards have four times the pool */
    {
        groth16_devplan_card c2 = c;
        c2.abc_buffers = 2;
        groth16_devplan p2;
        assert_int_equal(groth16_devplan_make(&p2, &s, &c2, 0, &e), PM_OK);
        check_plan(&p2, &s, &c2, "PoRep 32 GiB, 32 GB, two a, b, c buffers");
        assert_int_equal(p2.abc_per_card, 2);
        assert_int_equal(p2.host_abc_buffers, 2);
        assert_true(groth16_devplan_host_bytes(&p2, &s, 1, 2) == two + 3 * 32 * m);
        assert_true(groth16_devplan_host_bytes(&p2, &s, 4, 2) - groth16_devplan_host_bytes(&p0, &s, 4, 2) == 4 * 3 * 32 * m);
        char t[4096];
        groth16_devplan_format(t, sizeof t, &p2, &s);
        assert_non_null(strstr(t, "a pinned pool of 2 x"));
    }
    /* an 8 GB card runs H on the CPU (tier 5): its host sum adds the view's CPU NTT domain, which a
     * card that keeps H leaves out (the same key otherwise, one worker each: one slot, one a, b, c) */
    {
        groth16_devplan_card c8 = card_gb(8, 1), c32 = card_gb(32, 1);
        groth16_devplan p8, p32;
        assert_int_equal(groth16_devplan_make(&p8, &s, &c8, 0, &e), PM_OK);
        assert_int_equal(groth16_devplan_make(&p32, &s, &c32, 0, &e), PM_OK);
        assert_int_equal(p8.h, GROTH16_ON_HOST);
        assert_int_equal(p32.h, GROTH16_ON_DEVICE);
        const uint64_t h8 = groth16_devplan_host_bytes(&p8, &s, 1, 1), h32 = groth16_devplan_host_bytes(&p32, &s, 1, 1);
        assert_true(h8 - 32 * s.n_vars * p8.witness_slots - p8.host_abc_bytes ==
                    h32 - 32 * s.n_vars * p32.witness_slots - p32.host_abc_bytes + groth16_key_domain_bytes(m));
    }
    /* a budget that holds two slots keeps them; one byte less drops one */
    c.host_budget = two;
    assert_int_equal(groth16_devplan_make(&p, &s, &c, 0, &e), PM_OK);
    assert_int_equal(p.witness_slots, 2);
    c.host_budget = two - 1;
    assert_int_equal(groth16_devplan_make(&p, &s, &c, 0, &e), PM_OK);
    check_plan(&p, &s, &c, "PoRep 32 GiB, 32 GB, host budget one byte short");
    assert_int_equal(p.witness_slots, 1);
    assert_int_equal(p.one_slot_for_host, 1);
    assert_true(p.tier <= p0.tier); /* the freed slot never makes the plan slower */
    assert_true(groth16_devplan_host_bytes(&p, &s, 1, 2) + 32 * s.n_vars == two);
    char buf[4096];
    groth16_devplan_format(buf, sizeof buf, &p, &s);
    assert_non_null(strstr(buf, "host budget"));
    /* more cards share the budget: each one's staging and partitions count */
    groth16_devplan_card c80 = card_gb(80, 2);
    assert_int_equal(groth16_devplan_make(&p, &s, &c80, 0, &e), PM_OK);
    const uint64_t one_card = groth16_devplan_host_bytes(&p, &s, 1, 2), four = groth16_devplan_host_bytes(&p, &s, 4, 2);
    assert_true(four > one_card);
    c80.host_budget = one_card;
    assert_int_equal(groth16_devplan_make(&p, &s, &c80, 0, &e), PM_OK);
    assert_int_equal(p.witness_slots, 2);
    c80.devices = 4;
    assert_int_equal(groth16_devplan_make(&p, &s, &c80, 0, &e), PM_OK);
    assert_int_equal(p.witness_slots, 1);
    /* one worker has one slot anyway; snarkjs keys have none and no host sum */
    groth16_devplan_card c1 = card_gb(32, 1);
    c1.host_budget = 1;
    assert_int_equal(groth16_devplan_make(&p, &s, &c1, 0, &e), PM_OK);
    assert_int_equal(p.witness_slots, 1);
    assert_int_equal(p.one_slot_for_host, 0);
    const groth16_devplan_shape z = snarkjs_key();
    assert_int_equal(groth16_devplan_make(&p, &z, &c, 0, &e), PM_OK);
    assert_int_equal(groth16_devplan_host_bytes(&p, &z, 1, 2), 0);
    groth16_devplan_host hz;
    groth16_devplan_host_items(&hz, &p, &z, 1, 2);
    assert_true(hz.key == 0 && hz.staging == 0 && hz.pool == 0 && hz.per_part == 0 && hz.in_flight == 0 && hz.total == 0);
    assert_int_equal(p.witness_slots, 0);
}

static void sizes(void **state) {
    (void)state;
    const size_t lanes = 132 * GPU_SIZES_LANES_PER_SM;
    assert_int_equal(gpu_sizes_window_bits(0, 3.0), 1);
    assert_true(gpu_sizes_window_bits(1u << 27, 3.0) >= gpu_sizes_window_bits(1u << 20, 3.0));
    for (size_t budget = (size_t)1 << 30; budget <= ((size_t)64 << 30); budget *= 2)
        for (int streamed = 0; streamed <= 1; streamed++) {
            const size_t m = gpu_sizes_chunk_points(&GPU_SIZES_G1, budget, lanes, streamed);
            assert_true(m >= GPU_SIZES_MIN_CHUNK);
            const size_t need = streamed ? gpu_sizes_msm_chunk_bytes(&GPU_SIZES_G1, m, lanes)
                                         : gpu_sizes_msm_resident_chunk_bytes(&GPU_SIZES_G1, m, lanes);
            assert_true(need <= budget);
        }
    assert_int_equal(gpu_sizes_chunk_points(&GPU_SIZES_G2, 1 << 20, lanes, 1), 0);
    const size_t n = (size_t)1 << 27;
    const size_t dom = gpu_sizes_ntt_domain(27, 3);
    assert_true(dom > (n / 2 + 3 * n) * 32 && dom < (n / 2 + 3 * n) * 32 + ((size_t)64 << 20));
    /* ~21 GB for one 2^27-point MSM in one piece (docs/perf/gpu.md) */
    const size_t whole = gpu_sizes_msm_scratch(&GPU_SIZES_G1, n, 0, lanes);
    assert_true(whole > ((size_t)18 << 30) && whole < ((size_t)24 << 30));
}

/* The kept window of a chunked MSM from its general scalars per chunk (gpu_sizes_count_window):
 * uniform chunks keep the chunk size's window; PoRep's witness sets (the 24 GB runs' counts: A 1.28 M
 * general in 18 chunks, B1 1.23 M in 5, B2 in 7) get 13 and narrower than it; no general scalar: 1;
 * a set whose general scalars all sit in one chunk gets a window between; nearly uniform sets keep
 * (about) the chunk size's. The kept buckets and their reduction each fit their bytes at the chunk
 * size's window, for any chunk. */
static void count_window(void **state) {
    (void)state;
    const gpu_sizes_group *gs[2] = {&GPU_SIZES_G1, &GPU_SIZES_G2};
    uint64_t cnt[32];
    for (int gi = 0; gi < 2; gi++) {
        const gpu_sizes_group *g = gs[gi];
        for (size_t m = (size_t)1 << 10; m <= ((size_t)1 << 27); m *= 2) {
            const unsigned cmax = gpu_sizes_keep_window(g, m);
            if (m >= GPU_SIZES_MIN_CHUNK)
                for (unsigned c = 1; c <= cmax; c++) assert_true(gpu_sizes_msm_persist_bytes_c(g, c) <= gpu_sizes_msm_persist_bytes(g, m));
            /* uniform: every scalar general, the last chunk short */
            for (int k = 0; k < 18; k++) cnt[k] = k < 17 ? m : m / 3;
            assert_int_equal(gpu_sizes_count_window(g, cnt, 18, 17 * (uint64_t)m + m / 3, cmax), cmax);
            /* nothing general */
            for (int k = 0; k < 18; k++) cnt[k] = 0;
            const unsigned none = gpu_sizes_count_window(g, cnt, 18, 18 * (uint64_t)m, cmax);
            if (m >= GPU_SIZES_MIN_CHUNK) assert_int_equal(none, 1);
            assert_true(none >= 1 && none <= cmax);
            /* 1 % general, evenly: narrower than the chunk size's, and the one-piece window of a chunk's count
             * or narrower (one set of buckets per chunk) */
            for (int k = 0; k < 18; k++) cnt[k] = m / 100;
            const unsigned cw = gpu_sizes_count_window(g, cnt, 18, 18 * (uint64_t)m, cmax);
            assert_true(cw >= 1 && cw <= cmax);
            if (m >= ((size_t)1 << 20)) assert_true(cw < cmax);
            assert_true(cw <= gpu_sizes_window_bits(18 * (m / 100), g->rho));
            /* all of them in one chunk: that chunk's own window, capped by the chunk size's */
            for (int k = 0; k < 18; k++) cnt[k] = k == 7 ? m / 5 : 0;
            const unsigned one = gpu_sizes_count_window(g, cnt, 18, 18 * (uint64_t)m, cmax);
            assert_true(one <= cmax && one >= cw);
            /* nearly uniform (one scalar in 1000 is 0 or 1): the chunk size's window or one below */
            for (int k = 0; k < 18; k++) cnt[k] = m - m / 1000;
            const unsigned nu = gpu_sizes_count_window(g, cnt, 18, 18 * (uint64_t)m, cmax);
            assert_true(nu + 1 >= cmax && nu <= cmax);
            /* whatever the counts, the kept buckets and their reduction each fit their bytes at cmax (two
             * slots kept apart on the card), even on chunks far below GPU_SIZES_MIN_CHUNK */
            const unsigned picks[] = {cw, one, nu, gpu_sizes_count_window(g, cnt, 0, 0, cmax)};
            const size_t xb = 4 * g->fe_bytes, Bm = (size_t)1 << (cmax - 1), Wm = (256 + cmax - 1) / cmax;
            for (int i = 0; i < 4; i++) {
                const size_t Wc = (256 + picks[i] - 1) / picks[i], Bc = (size_t)1 << (picks[i] - 1);
                assert_true(Wc * Bc <= Wm * Bm);
                assert_true(gpu_sizes_red_bytes(Bc, Wc, xb) <= gpu_sizes_red_bytes(Bm, Wm, xb));
            }
        }
    }
    /* the 24 GB PoRep runs (H100, thirteenth session): A, C/L, B1 in G1, B2 in G2 */
    const size_t mA = 7208535;
    for (int k = 0; k < 18; k++) cnt[k] = 1282418 / 18;
    assert_int_equal(gpu_sizes_count_window(&GPU_SIZES_G1, cnt, 18, 129753620, gpu_sizes_keep_window(&GPU_SIZES_G1, mA)), 13);
    for (int k = 0; k < 18; k++) cnt[k] = 1692896 / 18;
    assert_int_equal(gpu_sizes_count_window(&GPU_SIZES_G1, cnt, 18, 130169893, 19), 13);
    for (int k = 0; k < 5; k++) cnt[k] = 1227323 / 5;
    assert_int_equal(gpu_sizes_count_window(&GPU_SIZES_G1, cnt, 5, 33112282, 19), 13);
    for (int k = 0; k < 7; k++) cnt[k] = 1227323 / 7;
    assert_int_equal(gpu_sizes_count_window(&GPU_SIZES_G2, cnt, 7, 33112282, 17), 13);
    /* the 48 GB plan's B2: two resident chunks, kept at 18 before */
    for (int k = 0; k < 2; k++) cnt[k] = 1227323 / 2;
    assert_int_equal(gpu_sizes_count_window(&GPU_SIZES_G2, cnt, 2, 33112282, 18), 14);
}

/* The prefetch under the H MSM (groth16_devplan_prefetch): PoRep 32 GiB at one MSM room (gpu.two_lanes
 * off, the default): 24 and 32 GB (everything streamed) prefetch B2 (one 4 GiB buffer of its 5.92 GiB)
 * and all of B1; 48 GB (B1, B2 resident) A and L; 80 GB (only H streams), 141 GB (resident), 16 GB
 * (tier 4: one domain buffer) and 8 GB (tier 5: H on the CPU) none; two MSM rooms none; a snarkjs key
 * none. */
static void prefetch_sets(void **state) {
    (void)state;
    const groth16_devplan_shape s = porep_32g();
    const uint64_t buf = ((uint64_t)1 << s.log_domain) * 32;
    struct {
        unsigned gb, n;
        int set[2];
    } want[] = {{8, 0, {0, 0}},
                {16, 0, {0, 0}},
                {24, 2, {GROTH16_N_BASES, GROTH16_BASE_B1}},
                {32, 2, {GROTH16_N_BASES, GROTH16_BASE_B1}},
                {48, 2, {GROTH16_BASE_A, GROTH16_BASE_C}},
                {80, 0, {0, 0}},
                {141, 0, {0, 0}}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        groth16_devplan_card c = card_gb(want[i].gb, 2);
        c.one_room = 1;
        groth16_devplan p;
        pm_error e;
        assert_int_equal(groth16_devplan_make(&p, &s, &c, 0, &e), PM_OK);
        int set[2] = {-1, -1};
        uint64_t bytes[2] = {0, 0};
        const unsigned n = groth16_devplan_prefetch(&p, &s, set, bytes);
        printf("PoRep 32 GiB, %u GB, tier %u: %u prefetched set(s)\n", want[i].gb, p.tier, n);
        assert_int_equal(n, want[i].n);
        for (unsigned k = 0; k < n; k++) {
            assert_int_equal(set[k], want[i].set[k]);
            const int b = set[k];
            const uint64_t pt = b == GROTH16_N_BASES ? 192 : 96, all = (b == GROTH16_N_BASES ? s.n_b2 : s.n_base[b]) * pt;
            assert_true(bytes[k] % pt == 0 && bytes[k] <= buf && bytes[k] == (all < buf ? all : buf / pt * pt));
            /* only streamed sets */
            assert_int_equal(b == GROTH16_N_BASES ? p.b2 : p.base[b], GROTH16_STREAMED);
        }
        /* `plan` prints them only with gpu.prefetch on (off by default) */
        char out[4096];
        groth16_devplan_format(out, sizeof out, &p, &s);
        assert_null(strstr(out, "prefetch "));
        assert_int_equal(pm_setting_set("gpu.prefetch", "true", &e), PM_OK);
        groth16_devplan_format(out, sizeof out, &p, &s);
        assert_int_equal(pm_setting_set("gpu.prefetch", "false", &e), PM_OK);
        assert_true((strstr(out, "prefetch ") != NULL) == (n > 0));
        if (n) {
            /* two MSM rooms: none */
            groth16_devplan_card c2 = card_gb(want[i].gb, 2);
            groth16_devplan p2;
            assert_int_equal(groth16_devplan_make(&p2, &s, &c2, 0, &e), PM_OK);
            if (p2.msm_rooms == 2) assert_int_equal(groth16_devplan_prefetch(&p2, &s, set, bytes), 0);
            /* a snarkjs key of the same shape: none */
            groth16_devplan_shape sj = s;
            sj.conv = GROTH16_SNARKJS;
            assert_int_equal(groth16_devplan_prefetch(&p, &sj, set, bytes), 0);
        }
    }
}

/* The gate of gpu.h_preload: the waiting partition's a, b issued only while the domain is open, taken
 * only by their owner's H, dropped (copies waited for) whenever anyone else writes the domain or the
 * owner goes without its H; one candidate at a time. A double records the calls. */
typedef struct {
    int issues, drops, refuse;
    uint64_t last_issue, last_drop;
    const void *a, *b;
} preload_calls;
static int fake_issue(void *ctx, uint64_t token, const void *a, const void *b) {
    preload_calls *c = ctx;
    if (c->refuse) return 1;
    c->issues++;
    c->last_issue = token;
    c->a = a;
    c->b = b;
    return 0;
}
static void fake_drop(void *ctx, uint64_t token) {
    preload_calls *c = ctx;
    c->drops++;
    c->last_drop = token;
}

static void preload_gate(void **state) {
    (void)state;
    preload_calls c = {0};
    const groth16_preload_ops ops = {fake_issue, fake_drop, &c};
    static const char a1[8], b1[8], a2[8], b2[8], a3[8], b3[8];
    groth16_preload_gate g;
    memset(&g, 0, sizeof g);
    /* a zeroed gate is open: the first partition's a, b go at once; its own H takes them */
    assert_int_equal(groth16_preload_offer(&g, &ops, 1, a1, b1), 1);
    assert_int_equal(c.issues, 1);
    assert_int_equal(c.last_issue, 1);
    assert_ptr_equal(c.a, a1);
    assert_ptr_equal(c.b, b1);
    /* a second partition queues behind it, not issued (one preload at a time), once only */
    assert_int_equal(groth16_preload_offer(&g, &ops, 2, a2, b2), 1);
    assert_int_equal(groth16_preload_offer(&g, &ops, 2, a2, b2), 0);
    assert_int_equal(c.issues, 1);
    assert_int_equal(groth16_preload_claim(&g, &ops, 1), 1);
    assert_int_equal(c.drops, 0); /* taken, not dropped: the H uses it up */
    /* partition 1 on the card (closed): 2 is the head now, waiting for 1's H MSM; 3 queues */
    assert_int_equal(groth16_preload_offer(&g, &ops, 3, a3, b3), 1);
    assert_int_equal(c.issues, 1);
    groth16_preload_open(&g, &ops);
    assert_int_equal(c.issues, 2);
    assert_int_equal(c.last_issue, 2);
    assert_ptr_equal(c.a, a2);
    groth16_preload_open(&g, &ops); /* issued once */
    assert_int_equal(c.issues, 2);
    /* 3 writes the domain first: 2's copies dropped, 2 stays the head, 3 leaves the queue */
    assert_int_equal(groth16_preload_claim(&g, &ops, 3), 0);
    assert_int_equal(c.drops, 1);
    assert_int_equal(c.last_drop, 2);
    assert_int_equal(g.n, 1);
    groth16_preload_open(&g, &ops); /* 3's H MSM: 2 issued again */
    assert_int_equal(c.issues, 3);
    assert_int_equal(c.last_issue, 2);
    assert_int_equal(groth16_preload_claim(&g, &ops, 2), 2);
    assert_int_equal(g.n, 0);
    /* an operation of no partition (snarkjs H, prefetch) drops the head's copies too */
    groth16_preload_open(&g, &ops);
    assert_int_equal(groth16_preload_offer(&g, &ops, 4, a1, b1), 1);
    assert_int_equal(c.issues, 4);
    assert_int_equal(groth16_preload_claim(&g, &ops, 0), 0);
    assert_int_equal(c.drops, 2);
    assert_int_equal(c.last_drop, 4);
    /* the owner's claim before its copies were issued: nothing dropped, nothing taken, it leaves */
    assert_int_equal(groth16_preload_claim(&g, &ops, 4), 0);
    assert_int_equal(c.drops, 2);
    assert_int_equal(g.n, 0);
    /* released before its H: issued copies dropped, the next head issued (the gate is open) */
    groth16_preload_open(&g, &ops);
    assert_int_equal(groth16_preload_offer(&g, &ops, 6, a2, b2), 1);
    assert_int_equal(groth16_preload_offer(&g, &ops, 7, a3, b3), 1);
    assert_int_equal(c.issues, 5);
    groth16_preload_release(&g, &ops, 99); /* not queued: nothing */
    assert_int_equal(c.drops, 2);
    groth16_preload_release(&g, &ops, 6);
    assert_int_equal(c.drops, 3);
    assert_int_equal(c.last_drop, 6);
    assert_int_equal(c.issues, 6);
    assert_int_equal(c.last_issue, 7);
    assert_int_equal(groth16_preload_claim(&g, &ops, 6), 0); /* gone */
    assert_int_equal(c.drops, 4);                           /* (7's copies: written over) */
    /* a queued partition released while not the head: it leaves, nothing dropped */
    assert_int_equal(groth16_preload_offer(&g, &ops, 8, a1, b1), 1);
    groth16_preload_release(&g, &ops, 8);
    assert_int_equal(c.drops, 4);
    assert_int_equal(g.n, 1);
    groth16_preload_open(&g, &ops);
    assert_int_equal(groth16_preload_claim(&g, &ops, 7), 7);
    /* a refused issue takes the head out and tries the next */
    groth16_preload_open(&g, &ops);
    c.refuse = 1;
    assert_int_equal(groth16_preload_offer(&g, &ops, 9, a1, b1), 0);
    assert_int_equal(g.n, 0);
    c.refuse = 0;
    assert_int_equal(groth16_preload_claim(&g, &ops, 0), 0);
    assert_int_equal(groth16_preload_offer(&g, &ops, 10, a1, b1), 1);
    assert_int_equal(groth16_preload_offer(&g, &ops, 11, a2, b2), 1);
    c.refuse = 1;
    groth16_preload_open(&g, &ops); /* both refused: the queue empties */
    assert_int_equal(g.n, 0);
    c.refuse = 0;
    /* a full queue and bad offers */
    assert_int_equal(groth16_preload_claim(&g, &ops, 0), 0);
    for (uint64_t t = 20; t < 20 + GROTH16_PRELOAD_QUEUE; t++) assert_int_equal(groth16_preload_offer(&g, &ops, t, a1, b1), 1);
    assert_int_equal(groth16_preload_offer(&g, &ops, 50, a1, b1), 0);
    assert_int_equal(groth16_preload_offer(&g, &ops, 0, a1, b1), 0);
    assert_int_equal(groth16_preload_offer(&g, &ops, 51, NULL, b1), 0);
    assert_int_equal(groth16_preload_offer(&g, &ops, 52, a1, NULL), 0);
    const int issues = c.issues;
    groth16_preload_open(&g, &ops);
    assert_int_equal(c.issues, issues + 1);
    assert_int_equal(c.last_issue, 20);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(porep_tiers),     cmocka_unit_test(every_kind_card), cmocka_unit_test(cap_free_min_tier),
        cmocka_unit_test(pin_table_shared), cmocka_unit_test(chunk_schedule), cmocka_unit_test(pack_schedule), cmocka_unit_test(sizes),
        cmocka_unit_test(host_budget_slots), cmocka_unit_test(prefetch_sets), cmocka_unit_test(count_window),
        cmocka_unit_test(preload_gate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
