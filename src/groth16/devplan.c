/*
 * devplan.c — the device-memory planner (devplan.h): tiers, residency order, MSM chunking, the
 * refusal. Pure arithmetic over gpu/gpu_sizes.h; no CUDA call.
 */
#include "groth16/devplan.h"

#include <stdio.h>
#include <string.h>

#include "gpu/gpu_sizes.h"
#include "util/settings.h"
#include "util/verify.h"

#define GIB ((uint64_t)1 << 30)

/* Chunks below these sizes cost more in bucket reductions than they save: the planner keeps the
 * MSM's room at least this large before it makes another base set resident. */
#define TARGET_CHUNK_G1 ((uint64_t)1 << 24)
#define TARGET_CHUNK_G2 ((uint64_t)1 << 23)
/* Tier 4's chunk buffer for the coset products (A^ B^, then D - E: gpu_bellperson_h_one): 2^23
 * points (256 MiB); a chunk's copy (~10 ms) is long against its pointwise kernel (~0.2 ms). */
#define H_CHUNK_POINTS ((uint64_t)1 << 23)
/* Two MSM rooms (groth16_devplan.msm_rooms) only while each room's G1 chunks keep at least 2^21
 * points: below that the kept buckets' narrower window costs more than the overlap gains. */
#define LANE_MIN_CHUNK ((uint64_t)1 << 21)

/* Residency order: the witness-like sets first, H (uniform scalars, compute-bound) last. */
static const int order[GROTH16_N_BASES + 1] = {GROTH16_BASE_A, GROTH16_BASE_B1, GROTH16_BASE_C, GROTH16_N_BASES,
                                                GROTH16_BASE_H};
static const char *const set_names[2][GROTH16_N_BASES + 1] = {{"A", "B1", "C", "H", "B2"}, {"A", "B1", "L", "H", "B2"}};

const char *groth16_devplan_tier_name(unsigned tier) {
    static const char *const names[GROTH16_TIERS] = {"resident",         "streamed bases", "host circuit",
                                                      "one witness slot", "one NTT buffer", "host H"};
    return tier < GROTH16_TIERS ? names[tier] : "?";
}

const char *groth16_devplan_set_name(const groth16_devplan *p, unsigned set) {
    return set <= GROTH16_N_BASES ? set_names[p->bellperson ? 1 : 0][set] : "?";
}

void groth16_devplan_shape_of_key(groth16_devplan_shape *s, const groth16_key *k, uint64_t circuit_bytes) {
    memset(s, 0, sizeof *s);
    s->conv = k->conv;
    s->n_vars = k->n_vars;
    s->n_public = k->n_public;
    s->log_domain = k->log_domain;
    for (int b = 0; b < GROTH16_N_BASES; b++) s->n_base[b] = k->n_base[b];
    s->n_b2 = k->n_b2;
    s->circuit_bytes = k->conv == GROTH16_BELLPERSON ? circuit_bytes : 0;
}

/* set i of order[]: GROTH16_N_BASES stands for B2 */
static uint64_t set_points(const groth16_devplan_shape *s, int i) { return i == GROTH16_N_BASES ? s->n_b2 : s->n_base[i]; }
static const gpu_sizes_group *set_group(int i) { return i == GROTH16_N_BASES ? &GPU_SIZES_G2 : &GPU_SIZES_G1; }
static uint64_t set_bytes(const groth16_devplan_shape *s, int i) { return set_points(s, i) * set_group(i)->aff_bytes; }

static size_t lanes_of(const groth16_devplan_card *c) { return (size_t)(c->sm_count ? c->sm_count : 132) * GPU_SIZES_LANES_PER_SM; }

static uint64_t usable_of(const groth16_devplan_card *c) {
    uint64_t u = c->mem_free ? c->mem_free : c->mem_total;
    if (c->mem_total && u > c->mem_total) u = c->mem_total;
    if (c->cap && c->cap < u) u = c->cap;
    return u - groth16_devplan_reserve(u);
}

/* The card's part that does not depend on the bases: circuit, witness slots, domain, index lists. */
static uint64_t fixed_of(const groth16_devplan_shape *s, unsigned tier, unsigned workers, groth16_devplan *p) {
    const int bp = s->conv == GROTH16_BELLPERSON;
    p->circuit = bp && tier <= GROTH16_TIER_STREAMED ? GROTH16_ON_DEVICE : GROTH16_ON_HOST;
    p->h = tier < GROTH16_TIER_HOST_H ? GROTH16_ON_DEVICE : GROTH16_ON_HOST;
    p->h_buffers = p->h == GROTH16_ON_HOST ? 0 : tier == GROTH16_TIER_ONE_BUFFER ? 1 : 3;
    p->witness_slots = !bp ? 0 : (tier >= GROTH16_TIER_ONE_SLOT || workers < 2) ? 1 : 2;
    uint64_t b = p->circuit == GROTH16_ON_DEVICE ? s->circuit_bytes : 0;
    b += (uint64_t)p->witness_slots * s->n_vars * 32;
    if (bp) b += (s->n_base[GROTH16_BASE_A] + s->n_b2) * 4;
    if (p->h_buffers) b += gpu_sizes_ntt_domain(s->log_domain, (int)p->h_buffers);
    if (p->h_buffers == 1) {
        const uint64_t n = (uint64_t)1 << s->log_domain;
        p->h_chunk_points = n < H_CHUNK_POINTS ? n : H_CHUNK_POINTS;
        b += p->h_chunk_points * 32;
    }
    return b;
}

/* The room one MSM over set i needs: resident in one piece, resident in chunks, or streamed. */
static uint64_t msm_need(const groth16_devplan_shape *s, int i, groth16_place where, uint64_t chunk, size_t lanes) {
    const gpu_sizes_group *g = set_group(i);
    const uint64_t n = set_points(s, i);
    if (!n) return 0;
    if (where == GROTH16_STREAMED) return gpu_sizes_msm_chunk_bytes(g, chunk < n ? chunk : n, lanes);
    if (!chunk) return gpu_sizes_msm_scratch(g, n, 0, lanes);
    /* chunks of min(chunk, n) points, one window group each (gpu_*_bases_set_chunk) */
    return gpu_sizes_msm_resident_chunk_bytes(g, chunk < n ? chunk : n, lanes);
}

/* The chunks of every MSM in a room of `room` bytes (p's placement of the base sets decided): one
 * piece when its scratch fits, else chunks of resident or streamed points. need: the largest MSM's
 * bytes, keep: the sum (every set keeping its scratch), chunked: some resident set runs in chunks.
 * 0 when some MSM does not fit even in chunks. */
static int size_room(groth16_devplan *p, const groth16_devplan_shape *s, uint64_t room, size_t lanes, uint64_t *need,
                     uint64_t *keep, int *chunked) {
    p->chunk_g1 = p->chunk_g2 = p->stream_g1 = p->stream_g2 = 0;
    *need = *keep = 0;
    *chunked = 0;
    for (int k = 0; k <= GROTH16_N_BASES; k++) {
        const int i = order[k];
        const uint64_t n = set_points(s, i);
        if (!n) continue;
        const gpu_sizes_group *g = set_group(i);
        const int g2 = i == GROTH16_N_BASES;
        const groth16_place at = g2 ? p->b2 : p->base[i];
        uint64_t chunk = 0;
        if (at == GROTH16_STREAMED) {
            uint64_t *sc = g2 ? &p->stream_g2 : &p->stream_g1;
            if (!*sc) *sc = gpu_sizes_chunk_points(g, room, lanes, 1);
            if (!*sc) return 0;
            chunk = *sc;
        } else if (gpu_sizes_msm_scratch(g, n, 0, lanes) > room) {
            uint64_t *rc = g2 ? &p->chunk_g2 : &p->chunk_g1;
            if (!*rc) *rc = gpu_sizes_chunk_points(g, room, lanes, 0);
            if (!*rc) return 0;
            chunk = *rc;
            *chunked = 1;
        }
        const uint64_t m = msm_need(s, i, at, chunk, lanes);
        if (m > room) return 0;
        *need = m > *need ? m : *need;
        *keep += m;
    }
    return 1;
}

/* One tier's plan, or 0 when it does not fit; strict: only with the MSMs' target room (chunks of
 * 2^24 G1 / 2^23 G2 points, or whole sets) beside the resident part. */
static int try_tier(groth16_devplan *p, const groth16_devplan_shape *s, const groth16_devplan_card *c, unsigned tier,
                    int strict) {
    memset(p, 0, sizeof *p);
    p->tier = tier;
    p->bellperson = s->conv == GROTH16_BELLPERSON;
    p->usable = usable_of(c);
    const size_t lanes = lanes_of(c);
    const uint64_t fixed = fixed_of(s, tier, c->workers ? c->workers : 1, p);
    p->fixed_bytes = fixed;
    if (fixed >= p->usable) return 0;
    const uint64_t left = p->usable - fixed;
    /* the smallest room that runs every MSM (streamed chunks of 2^16) and the room worth keeping */
    uint64_t least = 0, target = 0;
    for (int k = 0; k <= GROTH16_N_BASES; k++) {
        const int i = order[k];
        const uint64_t n = set_points(s, i);
        if (!n) continue;
        const uint64_t lo = msm_need(s, i, GROTH16_STREAMED, GPU_SIZES_MIN_CHUNK, lanes);
        const uint64_t tc = i == GROTH16_N_BASES ? TARGET_CHUNK_G2 : TARGET_CHUNK_G1;
        const uint64_t want = msm_need(s, i, GROTH16_STREAMED, tc, lanes);
        least = lo > least ? lo : least;
        target = want > target ? want : target;
    }
    if (least > left || (strict && target > left)) return 0;
    if (target > left) target = left;
    /* base sets resident in order while the MSM keeps its target room */
    uint64_t res = 0;
    int streamed = 0;
    for (int k = 0; k <= GROTH16_N_BASES; k++) {
        const int i = order[k];
        const uint64_t b = set_bytes(s, i);
        const groth16_place at = res + b + target <= left ? GROTH16_ON_DEVICE : GROTH16_STREAMED;
        if (at == GROTH16_ON_DEVICE) res += b;
        else streamed = 1;
        if (i == GROTH16_N_BASES) p->b2 = at;
        else p->base[i] = at;
    }
    if (tier == GROTH16_TIER_RESIDENT && streamed) return 0;
    if (tier == GROTH16_TIER_STREAMED && !streamed) return 0; /* tier 0 would have taken it */
    p->bases_bytes = res;
    const uint64_t room = left - res;
    p->msm_bytes = room;
    uint64_t need = 0, keep = 0;
    int chunked = 0;
    if (!size_room(p, s, room, lanes, &need, &keep, &chunked)) return 0;
    p->keep_scratch = !streamed && !chunked && keep <= room;
    p->msm_bytes = p->keep_scratch ? keep : need;
    p->msm_rooms = 1;
    /* two rooms of half the room each: the witness MSMs (bus-bound where their bases stream) run
     * beside the H phase and the H MSM (compute-bound) instead of after them; worth it only where
     * something streams, and only with chunks no smaller than LANE_MIN_CHUNK */
    if (streamed && !c->one_room) {
        groth16_devplan q = *p;
        uint64_t need2 = 0, keep2 = 0;
        int chunked2 = 0;
        if (size_room(&q, s, room / 2, lanes, &need2, &keep2, &chunked2) &&
            (!q.stream_g1 || q.stream_g1 >= LANE_MIN_CHUNK) && (!q.chunk_g1 || q.chunk_g1 >= LANE_MIN_CHUNK)) {
            *p = q;
            p->msm_rooms = 2;
            p->msm_bytes = 2 * need2;
        }
    }
    p->peak_bytes = fixed + res + p->msm_bytes;
    for (int k = 0; k <= GROTH16_N_BASES; k++) {
        const int i = order[k];
        const groth16_place at = i == GROTH16_N_BASES ? p->b2 : p->base[i];
        if (at == GROTH16_STREAMED) p->host_pinned_bytes += set_bytes(s, i);
    }
    p->host_abc_bytes = s->conv == GROTH16_BELLPERSON && p->circuit == GROTH16_ON_HOST
                            ? 3 * ((uint64_t)1 << s->log_domain) * 32
                            : 0;
    return 1;
}

static int shape_empty(const groth16_devplan_shape *s) {
    uint64_t n = s->n_b2;
    for (int b = 0; b < GROTH16_N_BASES; b++) n += s->n_base[b];
    return n == 0 || s->log_domain > 40;
}

/* The first tier in [lo, hi] that fits: first with the MSMs' target room at tiers 0-3, then without
 * at every tier (tier 4's extra copies and tier 5's CPU H cost more than a small MSM room: taken only
 * when nothing else fits). */
static int plan_any(groth16_devplan *p, const groth16_devplan_shape *s, const groth16_devplan_card *c, unsigned lo,
                    unsigned hi) {
    for (int strict = 1; strict >= 0; strict--)
        for (unsigned t = lo; t <= hi && t < GROTH16_TIERS; t++) {
            /* tiers 4-5 move bytes or work the roomier tiers do not (tier 4: 4 more copies of the
             * domain over the bus per partition): only when nothing faster fits at all */
            if (strict && t >= GROTH16_TIER_ONE_BUFFER) continue;
            /* snarkjs keys have no circuit and no witness slots on the card: tiers 2 and 3 are tier 1;
             * their H (gpu_snarkjs_h) needs the domain's three buffers: no tier 4 */
            if (s->conv == GROTH16_SNARKJS && (t == GROTH16_TIER_HOST_CIRCUIT || t == GROTH16_TIER_ONE_SLOT ||
                                               t == GROTH16_TIER_ONE_BUFFER))
                continue;
            if (try_tier(p, s, c, t, strict)) return 1;
            /* at min tier 1, everything resident is tier 1's plan too */
            if (t == GROTH16_TIER_STREAMED && lo == GROTH16_TIER_STREAMED &&
                try_tier(p, s, c, GROTH16_TIER_RESIDENT, strict)) {
                p->tier = GROTH16_TIER_STREAMED;
                return 1;
            }
        }
    return 0;
}

uint64_t groth16_devplan_min_card(const groth16_devplan_shape *s, unsigned workers, unsigned max_tier) {
    if (shape_empty(s)) return 0;
    groth16_devplan p;
    uint64_t lo = 1, hi = 4096; /* GiB */
    groth16_devplan_card c = {.workers = workers};
    c.mem_total = hi * GIB;
    if (!plan_any(&p, s, &c, 0, max_tier)) return 0;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo) / 2;
        c.mem_total = mid * GIB;
        if (plan_any(&p, s, &c, 0, max_tier)) hi = mid;
        else lo = mid + 1;
    }
    return lo * GIB;
}

pm_status groth16_devplan_make(groth16_devplan *p, const groth16_devplan_shape *s, const groth16_devplan_card *c,
                               unsigned min_tier, pm_error *err) {
    memset(p, 0, sizeof *p);
    if (c->min_tier > min_tier) min_tier = c->min_tier;
    if (min_tier >= GROTH16_TIERS) min_tier = GROTH16_TIERS - 1;
    if (shape_empty(s)) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "device plan: a key without bases");
    if (plan_any(p, s, c, min_tier, GROTH16_TIERS - 1)) {
        PM_VERIFY_CHECK(p->peak_bytes <= p->usable && p->fixed_bytes + p->bases_bytes + p->msm_bytes == p->peak_bytes);
        const unsigned devices = c->devices ? c->devices : 1, workers = c->workers ? c->workers : 1;
        /* one buffer per card, whose H phases run one at a time; with H on the CPU (tier 5) a buffer
         * is held until the H MSM has read h out of it, so each GPU worker keeps its own */
        const unsigned per_card = c->abc_buffers ? c->abc_buffers : p->h == GROTH16_ON_HOST ? workers : 1;
        p->abc_per_card = p->host_abc_bytes ? per_card : 0;
        if (c->host_budget && p->witness_slots >= 2 && groth16_devplan_host_bytes(p, s, devices, workers) > c->host_budget) {
            /* the second slot's staging would cost the host more than its overlap gains: one slot
             * (the plan of a one-worker card: same tier or faster, the slot's device bytes freed) */
            groth16_devplan_card one = *c;
            one.workers = 1;
            one.host_budget = 0;
            groth16_devplan p1;
            if (plan_any(&p1, s, &one, min_tier, GROTH16_TIERS - 1)) {
                *p = p1;
                p->one_slot_for_host = 1;
            }
        }
        p->abc_per_card = p->host_abc_bytes ? (p->one_slot_for_host ? 1 : per_card) : 0;
        p->host_abc_buffers = devices * p->abc_per_card;
        return PM_OK;
    }
    groth16_devplan last;
    try_tier(&last, s, c, GROTH16_TIER_HOST_H, 0);
    uint64_t usable_raw = c->mem_free ? c->mem_free : c->mem_total;
    if (c->mem_total && usable_raw > c->mem_total) usable_raw = c->mem_total;
    if (c->cap && c->cap < usable_raw) usable_raw = c->cap;
    const uint64_t usable = usable_of(c), need_card = groth16_devplan_min_card(s, c->workers, GROTH16_TIER_HOST_H);
    const uint64_t fast_card = groth16_devplan_min_card(s, c->workers, GROTH16_TIER_STREAMED);
    const char *limit = c->cap && (!c->mem_free || c->cap < c->mem_free) ? "gpu.memory cap" : "free device memory";
    return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET,
                        "device memory: %.64s offers %.1f GiB to this key (%s, less %.1f GiB reserved); its smallest "
                        "plan (%s) needs %.1f GiB fixed + room for the MSMs: a card of at least %.0f GiB would do "
                        "(all of it free; %.0f GiB with the circuit and the NTTs on the card)",
                        c->name[0] ? c->name : "the card", usable / (double)GIB, limit,
                        groth16_devplan_reserve(usable_raw) / (double)GIB, groth16_devplan_tier_name(GROTH16_TIER_HOST_H),
                        last.fixed_bytes / (double)GIB, need_card / (double)GIB, fast_card / (double)GIB);
}

unsigned groth16_devplan_cpu_ops(const groth16_devplan *p) {
    unsigned ops = 0;
    if (p->bellperson && p->circuit == GROTH16_ON_HOST) ops |= GROTH16_CPU_EVAL;
    if (p->h == GROTH16_ON_HOST) ops |= GROTH16_CPU_H;
    return ops;
}

uint64_t groth16_devplan_host_part_bytes(const groth16_devplan *p) { return p->host_abc_bytes; }

void groth16_devplan_host_items(groth16_devplan_host *h, const groth16_devplan *p, const groth16_devplan_shape *s,
                                unsigned devices, unsigned workers) {
    memset(h, 0, sizeof *h);
    if (s->conv != GROTH16_BELLPERSON) return;
    const uint64_t n_ic = s->n_public + 1, m = (uint64_t)1 << s->log_domain;
    uint64_t pts = n_ic;
    for (int b = 0; b < GROTH16_N_BASES; b++) pts += s->n_base[b];
    h->key = pts * sizeof(g1_affine_t) + s->n_b2 * sizeof(g2_affine_t) +
             (s->circuit_host_bytes ? s->circuit_host_bytes : s->circuit_bytes) +
             groth16_key_view_bytes(GROTH16_BELLPERSON, s->n_vars, m) -
             (p->h == GROTH16_ON_DEVICE ? groth16_key_domain_bytes(m) : 0); /* built for a CPU H only */
    h->staging = (uint64_t)devices * p->witness_slots * 32 * s->n_vars;
    h->pool = (uint64_t)devices * p->abc_per_card * p->host_abc_bytes;
    h->per_part = 32 * s->n_vars + 32 * n_ic + ((uint64_t)1 << 20);
    h->in_flight = (uint64_t)devices * workers;
    h->total = h->key + h->staging + h->pool + h->in_flight * h->per_part;
}

uint64_t groth16_devplan_host_bytes(const groth16_devplan *p, const groth16_devplan_shape *s, unsigned devices,
                                    unsigned workers) {
    groth16_devplan_host h;
    groth16_devplan_host_items(&h, p, s, devices, workers);
    return h.total;
}

unsigned groth16_devplan_prefetch(const groth16_devplan *p, const groth16_devplan_shape *s, int set[2], uint64_t bytes[2]) {
    if (s->conv != GROTH16_BELLPERSON || p->h != GROTH16_ON_DEVICE || p->h_buffers != 3 || p->msm_rooms != 1 ||
        p->keep_scratch)
        return 0;
    static const int pref[4] = {GROTH16_N_BASES, GROTH16_BASE_B1, GROTH16_BASE_A, GROTH16_BASE_C};
    const uint64_t buf = ((uint64_t)1 << s->log_domain) * 32;
    unsigned n = 0;
    for (int k = 0; k < 4 && n < 2; k++) {
        const int i = pref[k];
        const groth16_place at = i == GROTH16_N_BASES ? p->b2 : p->base[i];
        if (at != GROTH16_STREAMED || !set_points(s, i)) continue;
        set[n] = i;
        bytes[n] = set_bytes(s, i) < buf ? set_bytes(s, i) : buf / set_group(i)->aff_bytes * set_group(i)->aff_bytes;
        n++;
    }
    return n;
}

char *groth16_devplan_format(char *out, size_t cap, const groth16_devplan *p, const groth16_devplan_shape *s) {
    size_t o = 0;
#define PUT(...)                                                                                                       \
    do {                                                                                                               \
        int w_ = snprintf(out + o, o < cap ? cap - o : 0, __VA_ARGS__);                                                \
        if (w_ > 0) o += (size_t)w_;                                                                                   \
    } while (0)
    const double g = (double)GIB;
    const int bp = s->conv == GROTH16_BELLPERSON;
    if (cap) out[0] = 0;
    PUT("tier %u (%s): %.2f GiB of %.2f GiB usable at peak\n", p->tier, groth16_devplan_tier_name(p->tier),
        p->peak_bytes / g, p->usable / g);
    if (bp)
        PUT("  circuit      %-9s %8.2f GiB%s\n", p->circuit == GROTH16_ON_DEVICE ? "device" : "host",
            (p->circuit == GROTH16_ON_DEVICE ? s->circuit_bytes : 0) / g,
            p->circuit == GROTH16_ON_DEVICE ? " (SpMV on the GPU)" : " (SpMV on the CPU, a, b, c uploaded)");
    if (bp) PUT("  witness      device    %8.2f GiB (%u slot%s%s)\n", p->witness_slots * s->n_vars * 32 / g, p->witness_slots,
                p->witness_slots == 1 ? "" : "s",
                p->one_slot_for_host ? ": two slots' pinned staging would not fit the host budget" : "");
    PUT("  NTT domain   %-9s %8.2f GiB (2^%u%s)\n", p->h == GROTH16_ON_DEVICE ? "device" : "host",
        ((p->h_buffers ? gpu_sizes_ntt_domain(s->log_domain, (int)p->h_buffers) : 0) + p->h_chunk_points * 32) / g,
        s->log_domain,
        p->h_buffers == 1 ? ", H on the GPU through one buffer: a, b, c in turn, products staged on the host"
        : p->h == GROTH16_ON_DEVICE ? ", H on the GPU" : ", H on the CPU");
    for (int k = 0; k <= GROTH16_N_BASES; k++) {
        const int i = order[k];
        const groth16_place at = i == GROTH16_N_BASES ? p->b2 : p->base[i];
        PUT("  bases %-6s %-9s %8.2f GiB (%llu points)\n", set_names[bp][i], at == GROTH16_ON_DEVICE ? "device" : "streamed",
            set_bytes(s, i) / g, (unsigned long long)set_points(s, i));
    }
    PUT("  MSM room     device    %8.2f GiB", p->msm_bytes / g);
    if (p->chunk_g1) PUT(", resident G1 in chunks of %llu points", (unsigned long long)p->chunk_g1);
    if (p->chunk_g2) PUT(", resident G2 in chunks of %llu points", (unsigned long long)p->chunk_g2);
    if (p->stream_g1) PUT(", streamed G1 in chunks of %llu points", (unsigned long long)p->stream_g1);
    if (p->stream_g2) PUT(", streamed G2 in chunks of %llu points", (unsigned long long)p->stream_g2);
    PUT("%s\n", p->keep_scratch ? ", each base set keeps its scratch" : p->msm_rooms == 2 ? "" : ", one MSM at a time");
    if (!p->keep_scratch && p->msm_rooms == 2)
        PUT("  MSM lanes    two rooms of %.2f GiB: A, B1, %s, B2 beside H (the witness MSMs beside the H phase)\n",
            p->msm_bytes / 2 / g, set_names[bp][GROTH16_BASE_C]);
    int pset[2];
    uint64_t pbytes[2];
    const unsigned npf = pm_setting_bool("gpu.prefetch") ? groth16_devplan_prefetch(p, s, pset, pbytes) : 0;
    for (unsigned i = 0; i < npf; i++)
        PUT("%s %s %.2f GiB%s", i ? "," : "  prefetch    ", set_names[bp][pset[i]], pbytes[i] / g,
            i + 1 == npf ? " into the NTT domain's idle buffers during the H MSM, for the next partition (gpu.prefetch)\n" : "");
    if (p->host_pinned_bytes) PUT("  host pinned  %.2f GiB (streamed bases, pinned once per key)\n", p->host_pinned_bytes / g);
    if (p->host_abc_bytes)
        PUT("  host a,b,c   a pinned pool of %u x %.2f GiB (%u per card: held from the CPU eval to the end of H)\n",
            p->host_abc_buffers, p->host_abc_bytes / g, p->abc_per_card);
#undef PUT
    return out;
}

/* ---------------------------------------------------------------- the pin table */

static groth16_pin_ent *pin_find(groth16_pin_table *t, const void *p) {
    for (size_t i = 0; i < GROTH16_PIN_SLOTS; i++)
        if (t->e[i].refs && t->e[i].p == p) return &t->e[i];
    return NULL;
}

int groth16_pin_take(groth16_pin_table *t, const groth16_pin_ops *ops, const void *p, size_t bytes, uint64_t *ledger) {
    if (!p || !bytes) return 0;
    groth16_pin_ent *e = pin_find(t, p);
    if (e) {
        e->refs++;
        return e->pinned;
    }
    for (size_t i = 0; i < GROTH16_PIN_SLOTS && !e; i++)
        if (!t->e[i].refs) e = &t->e[i];
    if (!e) return 0; /* full: this user streams pageable memory */
    const int pinned = ops->pin(ops->ctx, p, bytes) == 0;
    *e = (groth16_pin_ent){p, bytes, ledger, 1, pinned};
    if (pinned && ledger) __atomic_add_fetch(ledger, (uint64_t)bytes, __ATOMIC_RELAXED);
    return pinned;
}

void groth16_pin_drop(groth16_pin_table *t, const groth16_pin_ops *ops, const void *p) {
    groth16_pin_ent *e = p ? pin_find(t, p) : NULL;
    if (!e || --e->refs) return;
    if (e->pinned) {
        ops->unpin(ops->ctx, e->p, e->bytes);
        if (e->ledger) __atomic_sub_fetch(e->ledger, (uint64_t)e->bytes, __ATOMIC_RELAXED);
    }
    memset(e, 0, sizeof *e);
}

unsigned groth16_pin_refs(const groth16_pin_table *t, const void *p) {
    const groth16_pin_ent *e = pin_find((groth16_pin_table *)t, p);
    return e ? e->refs : 0;
}

/* ---- the next partition's a and b sent under the H MSM (devplan.h) ---- */

static unsigned preload_find(const groth16_preload_gate *g, uint64_t token) {
    for (unsigned i = 0; i < g->n; i++)
        if (g->q[i].token == token) return i;
    return GROTH16_PRELOAD_QUEUE;
}

/* entry i leaves the queue (the head's issued copies dropped first) */
static void preload_remove(groth16_preload_gate *g, const groth16_preload_ops *ops, unsigned i) {
    if (i == 0 && g->issued) {
        if (ops && ops->drop) ops->drop(ops->ctx, g->q[0].token);
        g->issued = 0;
    }
    for (unsigned k = i + 1; k < g->n; k++) g->q[k - 1] = g->q[k];
    g->n--;
}

/* the head issued where the gate is open; a refused head leaves (its H uploads as before) */
static void preload_try(groth16_preload_gate *g, const groth16_preload_ops *ops) {
    while (g->n && !g->issued && !g->closed) {
        if (ops && ops->issue && ops->issue(ops->ctx, g->q[0].token, g->q[0].a, g->q[0].b) == 0) g->issued = 1;
        else preload_remove(g, ops, 0);
    }
}

int groth16_preload_offer(groth16_preload_gate *g, const groth16_preload_ops *ops, uint64_t token, const void *a,
                          const void *b) {
    if (!token || !a || !b || g->n >= GROTH16_PRELOAD_QUEUE || preload_find(g, token) < g->n) return 0;
    g->q[g->n].token = token;
    g->q[g->n].a = a;
    g->q[g->n].b = b;
    g->n++;
    preload_try(g, ops);
    return preload_find(g, token) < g->n;
}

void groth16_preload_open(groth16_preload_gate *g, const groth16_preload_ops *ops) {
    g->closed = 0;
    preload_try(g, ops);
}

uint64_t groth16_preload_claim(groth16_preload_gate *g, const groth16_preload_ops *ops, uint64_t token) {
    g->closed = 1;
    if (token && g->n && g->q[0].token == token && g->issued) { /* taken: the domain holds it until the H uses it up */
        g->issued = 0;
        preload_remove(g, ops, 0);
        return token;
    }
    if (g->issued) { /* written over: the head is issued again at the next opening */
        if (ops && ops->drop) ops->drop(ops->ctx, g->q[0].token);
        g->issued = 0;
    }
    const unsigned i = token ? preload_find(g, token) : GROTH16_PRELOAD_QUEUE;
    if (i < g->n) preload_remove(g, ops, i);
    return 0;
}

void groth16_preload_release(groth16_preload_gate *g, const groth16_preload_ops *ops, uint64_t token) {
    const unsigned i = token ? preload_find(g, token) : GROTH16_PRELOAD_QUEUE;
    if (i >= g->n) return;
    preload_remove(g, ops, i);
    preload_try(g, ops);
}
