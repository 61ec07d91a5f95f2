/*
 * start_gpu.c — the GPU table of the start phase (start.h) over the CUDA kernels of gpu/gpu.h, and
 * the one device-resident copy of a proving key: per key view and device, the G1 and G2 bases, the
 * NTT domain and (bellperson) the recorded circuit are uploaded on first use (inside the caller's
 * kernel region), shared by the device's workers and kept until groth16_key_free. Built into the library proofmill_groth16_gpu; the CUDA part only when the build
 * has the backend (PROOFMILL_HAVE_GPU), otherwise groth16_ops_gpu says so.
 *
 * Operations (every one with a kernel but snarkjs's eval, which runs the CPU's):
 *   stage            bellperson: the witness into one of two device slots: copied (parallel memcpy)
 *                    into the slot's pinned host staging, allocated once per device key with the
 *                    slots (pinning costs seconds per 8-32 GiB; done in pieces so that other
 *                    threads never wait for it: gpu_host_alloc_pieces), then uploaded asynchronously
 *                    (gpu_witness_upload_async: ~50 GB/s pinned instead of ~7 GB/s pageable); the
 *                    key's dev_host_bytes count the two staging buffers
 *   eval_bellperson  a, b, c by SpMV on the recorded circuit resident on the device (gpu_r1cs_spmv),
 *                    every row checked, into the NTT domain's three buffers
 *   h_snarkjs        gpu_snarkjs_h (its result stays on the device for the H MSM)
 *   h_bellperson     gpu_bellperson_h (6 NTTs), result on the device for the H MSM
 *   msm_g1           Pippenger on resident (or streamed) bases; bellperson's A and B1 gather the
 *                    staged witness by the key's densities, L reads its aux wires, all with the 0/1
 *                    split (GPU_MSM_SCALARS_MONT: the witness stays Montgomery)
 *   msm_g2           the B query in G2 on the device (snarkjs: host scalars; bellperson: gathered)
 * so a bellperson proof uploads only its witness (GROTH16_OPS_DEVICE_WITNESS_BELLPERSON: no host
 * copies of it either). Device memory per key and device: the bases (G1 and G2), for bellperson the
 * circuit (gpu_r1cs_device_bytes), two witness slots, the density index lists and the domain with
 * three buffers, plus each MSM's scratch (kept by its bases handle). PROOFMILL_GPU_BUDGET caps it:
 * when the bases + the largest MSM scratch do not fit, every base set stays in host memory and
 * is streamed in chunks (gpu_g1_bases_host) sized from what the resident part leaves; the proof is
 * the same. PROOFMILL_GPU_CHUNK_POINTS=N streams them in chunks of N points whatever the budget (tests
 * of the chunked path on small keys). When five MSM scratches do not fit beside the key (the
 * budget, else the free device memory at the first use), only the running MSM's handle keeps one.
 * PROOFMILL_GPU_VERBOSE=1 prints each device key's plan to stderr when it is made. k->dev_resident
 * (gpu_key_resident) says when a device copy holds every base set, so the prove layer may release
 * the host copy of the bases (prove.h pm_prove_key_release_host_bases).
 */
#include "groth16/start.h"

#include <string.h>

#ifdef PROOFMILL_HAVE_GPU

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "groth16/devplan.h"
#include "util/settings.h"
#include "util/clock.h"
#include "util/verify.h"
#include "util/parallel.h"
#include "util/progress.h"

/* dst = src (bytes) in 16 MiB pieces on the OpenMP team: one thread's memcpy moves ~10 GB/s, the
 * team about the memory bandwidth (the 4.17 GB witness of a 32 GiB partition in ~0.1-0.15 s). */
static void copy_parallel(void *dst, const void *src, size_t bytes) {
    const size_t piece = (size_t)16 << 20, n = (bytes + piece - 1) / piece;
    PM_OMP(parallel for schedule(static) if (n > 1))
    for (size_t i = 0; i < n; i++) {
        const size_t off = i * piece, len = bytes - off < piece ? bytes - off : piece;
        memcpy((char *)dst + off, (const char *)src + off, len);
    }
}

/* Host base sets pinned for streaming, shared by every device copy that streams them (one pinned
 * host copy serves all cards and workers: groth16_pin_table, devplan.h); unpinned when the last such
 * copy goes (before the key's host arrays are freed: groth16_key_free runs dev_free first). */
static groth16_pin_table pins;
static pthread_mutex_t pins_mu = PTHREAD_MUTEX_INITIALIZER;

static int pin_driver(void *ctx, const void *p, size_t bytes) {
    const int device = *(const int *)ctx;
    pm_error e;
    if (gpu_host_register(p, bytes, &e) == PM_OK) return 0;
    fprintf(stderr, "proofmill: device %d: streamed bases stay pageable (%.1f GiB): %s\n", device, bytes / 1073741824.0,
            e.msg);
    return 1;
}
static void unpin_driver(void *ctx, const void *p, size_t bytes) {
    (void)ctx;
    gpu_host_unregister(p, bytes);
}

/* A base set is page-locked in place only when its page-rounded range is its own: at least
 * GPU_HOST_PIECE_BYTES (glibc serves such a malloc from a mapping of its own) and sharing no page
 * with another base set of the key (sets read from one file mapping are adjacent). Otherwise a copy
 * that starts in a page locked for a neighbour and runs past it is refused by the driver
 * (cudaErrorInvalidValue): such a set streams from pageable memory (slower, the same result). */
static int pin_exclusive(const groth16_key *k, const void *p, size_t bytes) {
    if (!p || bytes < GPU_HOST_PIECE_BYTES) return 0;
    const uintptr_t pg = 4096, lo = (uintptr_t)p & ~(pg - 1), hi = ((uintptr_t)p + bytes + pg - 1) & ~(pg - 1);
    const void *sets[GROTH16_N_BASES + 1];
    size_t len[GROTH16_N_BASES + 1];
    for (int b = 0; b < GROTH16_N_BASES; b++) sets[b] = k->base[b], len[b] = k->n_base[b] * sizeof(g1_affine_t);
    sets[GROTH16_N_BASES] = k->b2, len[GROTH16_N_BASES] = k->n_b2 * sizeof(g2_affine_t);
    for (int b = 0; b <= GROTH16_N_BASES; b++) {
        if (!sets[b] || sets[b] == p || !len[b]) continue;
        const uintptr_t a = (uintptr_t)sets[b] & ~(pg - 1), e = ((uintptr_t)sets[b] + len[b] + pg - 1) & ~(pg - 1);
        if (a < hi && lo < e) return 0;
    }
    return 1;
}

static void pin_take(groth16_key *k, const void *p, size_t bytes, int device) {
    if (!pin_exclusive(k, p, bytes)) return;
    const groth16_pin_ops ops = {pin_driver, unpin_driver, &device};
    pm_task_stage(k->progress, "pinning host bases", bytes, device); /* seconds per 10 GB */
    pthread_mutex_lock(&pins_mu);
    const int pinned = groth16_pin_take(&pins, &ops, p, bytes, &k->ledger.host_pinned);
    pthread_mutex_unlock(&pins_mu);
    pm_task_add(k->progress, bytes);
    /* the invariant behind the streamed MSMs' pinned rate: what the table says is pinned is */
    PM_VERIFY_CHECK(!pinned || (gpu_host_is_pinned(p) && gpu_host_is_pinned((const char *)p + bytes - 1)));
    (void)pinned;
}

static void pin_drop(const void *p) {
    int device = -1;
    const groth16_pin_ops ops = {pin_driver, unpin_driver, &device};
    pthread_mutex_lock(&pins_mu);
    groth16_pin_drop(&pins, &ops, p);
    pthread_mutex_unlock(&pins_mu);
}

/* One device's copy of a key (k->dev[device]), shared by every GPU worker of the device (they use it
 * one at a time, inside the device's kernel region), made from its device-memory plan (devplan.h):
 * which base sets are uploaded and which stream from pinned host memory, the MSMs' chunks, whether
 * the circuit, the witness slots and the NTT domain are on the card. */
typedef struct {
    groth16_devplan plan;
    groth16_devplan_shape shape; /* the key's, as the plan was made for it */
    gpu_g1_bases *base[GROTH16_N_BASES];
    gpu_g2_bases *b2;
    gpu_ntt_domain *dom;
    gpu_r1cs *cs;
    gpu_witness *ws;
    int slot_busy[2]; /* a handle holds its slot from stage to dev_release (under mu; cv: freed) */
    pthread_mutex_t mu; /* the bellperson state's lazy creation and the slots: stage runs OUTSIDE the
                           kernel region, so two workers of a device may stage at once */
    pthread_cond_t cv;
    gpu_msm_index *ix_a, *ix_b;
    void *pin[2];     /* the witness slots' pinned host staging (pin_bytes each: n_vars fr_t),
                         allocated once with the slots, pinned in pieces (gpu_host_alloc_pieces:
                         other threads never wait seconds for the memory-map lock), NULL when
                         pinned memory was refused (pageable uploads) */
    size_t pin_bytes;
    int pin_tried;
    const void *pinned_sets[GROTH16_N_BASES + 1]; /* host base sets this copy streams (pin_take'n) */
    gpu_g1_bases *scratch_g1; /* the handle holding the one MSM scratch (or scratch_g2) */
    gpu_g2_bases *scratch_g2;
    /* the NTT domain's buffers 1 and 2 holding a prefetched prefix of a streamed base set (the handle
     * that reads it; gpu_g1_bases_prefetch), or NULL; dropped before anything writes the domain */
    gpu_g1_bases *pre_g1[2];
    gpu_g2_bases *pre_g2[2];
    /* gpu.h_preload (under mu): the waiting partition's a and b into the domain's idle buffers under
     * the H MSM of the partition on the card (devplan.h groth16_preload_gate) */
    groth16_preload_gate pre;
    uint64_t upload_total; /* bytes this copy uploads once (resident base sets, circuit): reported */
    int upload_noted;      /* in the key's progress as "uploading to GPU" from the first upload */
} gpu_key;

/* The key's progress (key.h): this device copy's one-time upload begins (once) / n bytes of it done. */
static void upload_note(const groth16_key *k, gpu_key *g, int device) {
    if (!__atomic_exchange_n(&g->upload_noted, 1, __ATOMIC_ACQ_REL))
        pm_task_stage(k->progress, "uploading to GPU", g->upload_total, device);
}
static void upload_done(const groth16_key *k, uint64_t bytes) { pm_task_add(k->progress, bytes); }

/* Unless the plan keeps every base set's scratch, the scratch of the handle about to run an MSM is
 * the only one kept (at 32 GiB a 2^27-point MSM's is ~21 GB), or with two rooms the only one of
 * the witness MSMs beside the H MSM's. */
static void scratch_take(gpu_key *g, int h_msm, gpu_g1_bases *b1, gpu_g2_bases *b2) {
    /* two rooms (plan.msm_rooms): the H MSM keeps its own room (the H lane's thread, which then
     * touches neither scratch_g1 nor scratch_g2); the witness MSMs take turns in the other (the
     * witness lane's thread: the only one that touches scratch_g1 / scratch_g2 then) */
    if (g->plan.keep_scratch || (g->plan.msm_rooms == 2 && h_msm)) return;
    if ((b1 && b1 == g->scratch_g1) || (b2 && b2 == g->scratch_g2)) return;
    if (g->scratch_g1) gpu_g1_bases_release_scratch(g->scratch_g1);
    if (g->scratch_g2) gpu_g2_bases_release_scratch(g->scratch_g2);
    g->scratch_g1 = b1;
    g->scratch_g2 = b2;
}

/* the prefixes in the domain's buffers forgotten, their copies landed: the caller writes the domain next
 * (inside the kernel region, like every use of g's handles) */
static void prefix_drop(gpu_key *g) {
    for (int i = 0; i < 2; i++) {
        if (g->pre_g1[i]) gpu_g1_bases_prefetch_drop(g->pre_g1[i]);
        if (g->pre_g2[i]) gpu_g2_bases_prefetch_drop(g->pre_g2[i]);
        g->pre_g1[i] = NULL;
        g->pre_g2[i] = NULL;
    }
}

/* ---- gpu.h_preload: the gate's operations on this copy's domain (called under g->mu) ---- */
typedef struct {
    gpu_key *g;
    size_t m; /* the key's domain */
    int device;
} preload_ctx;

static int preload_issue(void *ctx, uint64_t token, const void *a, const void *b) {
    const preload_ctx *c = ctx;
    pm_error e;
    pm_error_clear(&e);
    const pm_status st = gpu_bellperson_h_preload(c->g->dom, a, b, c->m, token, &e);
    if (pm_setting_bool("gpu.verbose"))
        fprintf(stderr, "gpu preload (device %d): a, b of preload token %llu %s%s\n", c->device, (unsigned long long)token,
                st ? "refused: " : "queued into the domain's idle buffers", st ? e.msg : "");
    return st != PM_OK;
}

static void preload_drop(void *ctx, uint64_t token) {
    const preload_ctx *c = ctx;
    gpu_ntt_domain_preload_drop(c->g->dom, token);
}

/* before an operation writes g's domain (inside the kernel region): the gate closes; returns the
 * token of p's own preload when p's H may read it (p NULL: an operation of no partition) */
static uint64_t preload_claim(gpu_key *g, const groth16_key *k, const groth16_pending_t *p, int device) {
    preload_ctx c = {g, k->domain, device};
    const groth16_preload_ops ops = {preload_issue, preload_drop, &c};
    pthread_mutex_lock(&g->mu);
    const uint64_t tok = groth16_preload_claim(&g->pre, &ops, p ? p->dev_token : 0);
    pthread_mutex_unlock(&g->mu);
    return tok;
}

/* an H MSM of this copy begins (its scratch taken: a cudaFree after the copies would wait for them):
 * the domain's other two buffers are idle; a waiting partition's a and b go now. Not while prefixes
 * (gpu.prefetch) sit in those buffers. */
static void preload_open(gpu_key *g, const groth16_key *k, int device) {
    if (!g->dom || g->pre_g1[0] || g->pre_g1[1] || g->pre_g2[0] || g->pre_g2[1]) return;
    preload_ctx c = {g, k->domain, device};
    const groth16_preload_ops ops = {preload_issue, preload_drop, &c};
    pthread_mutex_lock(&g->mu);
    groth16_preload_open(&g->pre, &ops);
    pthread_mutex_unlock(&g->mu);
}

/* after p's stage, outside the kernel region: p's a and b offered to the gate where its plan runs H
 * through the domain's three buffers from the pinned pool (gpu.h_preload; not with gpu.prefetch,
 * which fills the same buffers) */
static void preload_offer(gpu_key *g, groth16_pending_t *p, int device) {
    static uint64_t seq; /* tokens: one per offer, never reused */
    const groth16_key *k = p->key;
    const size_t m = k->domain;
    if (!pm_setting_bool("gpu.h_preload") || !pm_setting_bool("gpu.h_overlap") || pm_setting_bool("gpu.prefetch"))
        return;
    if (!p->abc_host || !p->work || !g->dom || g->plan.h != GROTH16_ON_DEVICE || g->plan.h_buffers != 3) return;
    if (!gpu_host_is_pinned(p->work) || !gpu_host_is_pinned(p->work + 2 * m - 1)) return;
    preload_ctx c = {g, m, device};
    const groth16_preload_ops ops = {preload_issue, preload_drop, &c};
    pthread_mutex_lock(&g->mu);
    p->dev_token = __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED);
    if (!groth16_preload_offer(&g->pre, &ops, p->dev_token, p->work, p->work + m)) p->dev_token = 0;
    pthread_mutex_unlock(&g->mu);
}

static void gpu_key_free(void *state, int device) {
    gpu_key *g = state;
    if (!g) return;
    gpu_set_device(device, NULL);
    prefix_drop(g);
    for (int b = 0; b < GROTH16_N_BASES; b++) gpu_g1_bases_free(g->base[b]);
    gpu_g2_bases_free(g->b2);
    for (int b = 0; b <= GROTH16_N_BASES; b++) pin_drop(g->pinned_sets[b]);
    gpu_ntt_domain_free(g->dom);
    gpu_r1cs_free(g->cs);
    gpu_witness_free(g->ws);
    gpu_msm_index_free(g->ix_a);
    gpu_msm_index_free(g->ix_b);
    for (int i = 0; i < 2; i++) gpu_host_free_pieces(g->pin[i], g->pin_bytes);
    pthread_mutex_destroy(&g->mu);
    pthread_cond_destroy(&g->cv);
    free(g);
}

/* k->dev_resident: every base set of the key on the card (none streamed, all five uploaded). The
 * handles are set inside the device's kernel region and never unset before gpu_key_free. */
static int gpu_key_resident(const void *state) {
    const gpu_key *g = state;
    if (!g || g->plan.b2 != GROTH16_ON_DEVICE) return 0;
    for (int b = 0; b < GROTH16_N_BASES; b++)
        if (g->plan.base[b] != GROTH16_ON_DEVICE || !__atomic_load_n(&g->base[b], __ATOMIC_ACQUIRE)) return 0;
    return __atomic_load_n(&g->b2, __ATOMIC_ACQUIRE) != NULL;
}

/* gpu.memory (bytes; PROOFMILL_GPU_MEMORY, PROOFMILL_GPU_BUDGET) and gpu.chunk_points */
static uint64_t setting_size(const char *name) { return pm_setting_u64(name); }

pm_status groth16_gpu_card(groth16_devplan_card *c, int device, unsigned workers, pm_error *err) {
    memset(c, 0, sizeof *c);
    gpu_device_info_t info;
    pm_status st = gpu_device_info(&info, device, err);
    if (st) return st;
    c->mem_total = info.mem_total;
    c->mem_free = info.mem_free;
    c->sm_count = (unsigned)info.sm_count;
    c->cap = setting_size("gpu.memory");
    c->workers = workers ? workers : 2;
    c->min_tier = (unsigned)pm_setting_u64("gpu.min_tier");
    c->one_room = !pm_setting_bool("gpu.two_lanes");
    c->abc_buffers = (unsigned)pm_setting_u64("gpu.abc_buffers");
    snprintf(c->name, sizeof c->name, "device %d (%.40s)", device, info.name);
    return PM_OK;
}

static pthread_mutex_t key_create_mu = PTHREAD_MUTEX_INITIALIZER;
static pm_status gpu_key_make(groth16_key *k, const groth16_exec *x, pm_error *err);

/* The device copy of p's key on x->device (made current), created on first use from its plan.
 * After a failure (e.g. device memory) the next call retries only what is missing. */
static pm_status gpu_key_get(gpu_key **out, const groth16_exec *x, groth16_pending_t *p, pm_error *err) {
    groth16_key *k = (groth16_key *)p->key; /* k->dev[d]: made under key_create_mu */
    int d = x->device;
    if (d < 0 || d >= GROTH16_MAX_DEVICES)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "device id %d out of range (0..%d)", d,
                            GROTH16_MAX_DEVICES - 1);
    pm_status st = gpu_set_device(d, err);
    if (st) return st;
    pthread_mutex_lock(&key_create_mu);
    st = k->dev[d] ? PM_OK : gpu_key_make(k, x, err);
    pthread_mutex_unlock(&key_create_mu);
    if (st) return st;
    *out = k->dev[d];
    return PM_OK;
}

/* k->dev[d]'s plan: the key's tier (x->plan) or slower on this card, or the fastest that fits when
 * the exec brings none; what the plan moves to the CPU must be what the exec runs there. Under
 * key_create_mu. */
static pm_status gpu_key_make(groth16_key *k, const groth16_exec *x, pm_error *err) {
    const int d = x->device;
    const groth16_devplan *kp = x->plan;
    groth16_devplan_card card;
    pm_status st = groth16_gpu_card(&card, d, kp ? (kp->witness_slots >= 2 ? 2 : 1) : 2, err);
    if (st) return st;
    groth16_devplan_shape shape;
    groth16_devplan_shape_of_key(&shape, k, k->conv == GROTH16_BELLPERSON ? gpu_r1cs_device_bytes(k->cs) : 0);
    gpu_key *g = calloc(1, sizeof *g);
    if (!g) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "device key (host part)");
    g->shape = shape;
    if ((st = groth16_devplan_make(&g->plan, &shape, &card, kp ? kp->tier : 0, err))) {
        free(g);
        return st;
    }
    const unsigned extra = groth16_devplan_cpu_ops(&g->plan) & ~x->cpu_ops;
    if (extra) {
        const unsigned tier = g->plan.tier;
        free(g);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET,
                            "device memory: %s now needs tier %u (%s: %s on the CPU), but this proof was prepared for "
                            "tier %u (less free device memory than when the key was planned)",
                            card.name, tier, groth16_devplan_tier_name(tier), extra & GROTH16_CPU_EVAL ? "a, b, c" : "H",
                            kp ? kp->tier : 0);
    }
    const uint64_t forced = setting_size("gpu.chunk_points"); /* tests of the streamed path on small keys */
    if (forced) {
        for (int b = 0; b < GROTH16_N_BASES; b++) g->plan.base[b] = GROTH16_STREAMED;
        g->plan.b2 = GROTH16_STREAMED;
        g->plan.stream_g1 = g->plan.stream_g2 = forced;
        g->plan.keep_scratch = 0;
    }
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    if (pm_setting_bool("gpu.verbose")) {
        char buf[2048];
        fprintf(stderr, "gpu key (%s): %s", card.name, groth16_devplan_format(buf, sizeof buf, &g->plan, &shape));
    }
    __atomic_store_n(&k->ledger.device[d], g->plan.peak_bytes, __ATOMIC_RELAXED);
    __atomic_store_n(&k->ledger.tier[d], g->plan.tier, __ATOMIC_RELAXED);
    for (int b = 0; b < GROTH16_N_BASES; b++)
        if (g->plan.base[b] == GROTH16_ON_DEVICE) g->upload_total += k->n_base[b] * sizeof(g1_affine_t);
    if (g->plan.b2 == GROTH16_ON_DEVICE) g->upload_total += k->n_b2 * sizeof(g2_affine_t);
    if (k->conv == GROTH16_BELLPERSON && g->plan.circuit == GROTH16_ON_DEVICE) g->upload_total += gpu_r1cs_device_bytes(k->cs);
    k->dev[d] = g;
    k->dev_free = gpu_key_free;
    k->dev_resident = gpu_key_resident;
    return PM_OK;
}

/* The NTT domain of the key's convention (roots of 5 for snarkjs, 7 for bellperson) on the device. */
static pm_status gpu_dom(gpu_key *g, const groth16_key *k, pm_error *err) {
    if (g->dom) return PM_OK;
    return gpu_ntt_domain_init(&g->dom, k->log_domain,
                               k->conv == GROTH16_SNARKJS ? NTT_ROOTS_SNARKJS : NTT_ROOTS_ARKWORKS, err);
}

/* base set `which` on the device: uploaded (in chunks of the plan when one piece's MSM scratch
 * does not fit) or streamed from its pinned host copy */
static pm_status gpu_g1_base(gpu_g1_bases **out, gpu_key *g, const groth16_key *k, groth16_base which, int device,
                             pm_error *err) {
    pm_status st = PM_OK;
    if (!g->base[which]) {
        const size_t n = k->n_base[which];
        if (g->plan.base[which] == GROTH16_STREAMED) {
            if (!g->pinned_sets[which]) {
                g->pinned_sets[which] = k->base[which];
                pin_take((groth16_key *)k, k->base[which], n * sizeof(g1_affine_t), device);
            }
            st = gpu_g1_bases_host(&g->base[which], k->base[which], n, g->plan.stream_g1, 0, err);
        } else {
            upload_note(k, g, device);
            st = gpu_g1_bases_upload(&g->base[which], k->base[which], n, err);
            if (!st && g->plan.chunk_g1) st = gpu_g1_bases_set_chunk(g->base[which], g->plan.chunk_g1, err);
            if (!st) upload_done(k, n * sizeof(g1_affine_t));
        }
    }
    *out = g->base[which];
    return st;
}

static pm_status gpu_g2_base(gpu_g2_bases **out, gpu_key *g, const groth16_key *k, int device, pm_error *err) {
    pm_status st = PM_OK;
    if (!g->b2) {
        if (g->plan.b2 == GROTH16_STREAMED) {
            if (!g->pinned_sets[GROTH16_N_BASES]) {
                g->pinned_sets[GROTH16_N_BASES] = k->b2;
                pin_take((groth16_key *)k, k->b2, k->n_b2 * sizeof(g2_affine_t), device);
            }
            st = gpu_g2_bases_host(&g->b2, k->b2, k->n_b2, g->plan.stream_g2, 0, err);
        } else {
            upload_note(k, g, device);
            st = gpu_g2_bases_upload(&g->b2, k->b2, k->n_b2, err);
            if (!st && g->plan.chunk_g2) st = gpu_g2_bases_set_chunk(g->b2, g->plan.chunk_g2, err);
            if (!st) upload_done(k, k->n_b2 * sizeof(g2_affine_t));
        }
    }
    *out = g->b2;
    return st;
}

static pm_status gpu_h_snarkjs(const groth16_exec *x, groth16_pending_t *p, groth16_scalars *h, pm_error *err) {
    const groth16_key *k = p->key;
    gpu_key *g = NULL;
    pm_status st = gpu_key_get(&g, x, p, err);
    if (st || (st = gpu_dom(g, k, err))) return st;
    fr_t *a = p->work, *b = a + k->domain;
    const void *dev = NULL;
    prefix_drop(g);
    preload_claim(g, k, NULL, x->device);
    st = gpu_snarkjs_h(a, k->domain, a, b, g->dom, &dev, err); /* P in a, and on the device */
    h->host = a;
    h->dev = dev;
    return st;
}

/* ---- bellperson: the circuit resident, the witness in a device slot ---- */

static pm_status index_upload(gpu_msm_index **out, const uint8_t *mark, size_t n_vars, size_t count, pm_error *err) {
    uint32_t *idx = malloc((count ? count : 1) * sizeof *idx);
    if (!idx) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "density index (%zu wires)", count);
    size_t j = 0;
    for (size_t i = 0; i < n_vars && j < count; i++)
        if (mark[i]) idx[j++] = (uint32_t)i;
    pm_status st = j == count ? gpu_msm_index_upload(out, idx, count, err)
                              : pm_error_set(err, PM_ERR_MISMATCH, "params", PM_NO_OFFSET,
                                             "density marks %zu wires, the base has %zu points", j, count);
    free(idx);
    return st;
}

/* The bellperson state of the device key: circuit, witness slots, domain, index lists. */
static pm_status gpu_bp(gpu_key **out, const groth16_exec *x, groth16_pending_t *p, pm_error *err) {
    const groth16_key *k = p->key;
    pm_status st = gpu_key_get(out, x, p, err);
    if (st) return st;
    gpu_key *g = *out;
    if (k->n_vars > UINT32_MAX || k->domain > UINT32_MAX)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "circuit of %zu wires too large for the GPU table",
                            k->n_vars);
    const unsigned slots = g->plan.witness_slots ? g->plan.witness_slots : 1;
    pthread_mutex_lock(&g->mu);
    if (g->plan.circuit == GROTH16_ON_DEVICE && !g->cs) {
        upload_note(k, g, x->device);
        st = gpu_r1cs_upload(&g->cs, k->cs, err);
        if (!st) upload_done(k, gpu_r1cs_device_bytes(k->cs));
    }
    if (!st && !g->ws) st = gpu_witness_init_slots(&g->ws, k->n_vars, slots, err);
    if (!st && !g->pin_tried) { /* once per device key: pinning costs seconds per 8-32 GiB */
        g->pin_tried = 1;
        const size_t bytes = k->n_vars * sizeof(fr_t);
        pm_error perr;
        g->pin_bytes = bytes;
        for (unsigned i = 0; i < slots; i++)
            if (gpu_host_alloc_pieces(&g->pin[i], bytes, &perr)) {
                gpu_host_free_pieces(g->pin[0], bytes);
                g->pin[0] = g->pin[1] = NULL;
                if (pm_setting_bool("gpu.verbose"))
                    fprintf(stderr, "gpu key (device %d): no pinned witness staging (%s): pageable uploads\n",
                            x->device, perr.msg);
                break;
            }
        if (g->pin[0])
            __atomic_add_fetch(&((groth16_key *)k)->ledger.host_staging, slots * (uint64_t)bytes, __ATOMIC_RELAXED);
        /* the streamed base sets pinned here too, outside the kernel region (seconds per 10 GB, once
         * per key: every device copy and worker shares them) */
        for (int b = 0; b < GROTH16_N_BASES; b++)
            if (g->plan.base[b] == GROTH16_STREAMED && !g->pinned_sets[b] && k->base[b]) {
                g->pinned_sets[b] = k->base[b];
                pin_take((groth16_key *)k, k->base[b], k->n_base[b] * sizeof(g1_affine_t), x->device);
            }
        if (g->plan.b2 == GROTH16_STREAMED && !g->pinned_sets[GROTH16_N_BASES] && k->b2) {
            g->pinned_sets[GROTH16_N_BASES] = k->b2;
            pin_take((groth16_key *)k, k->b2, k->n_b2 * sizeof(g2_affine_t), x->device);
        }
    }
    if (!st && g->plan.h == GROTH16_ON_DEVICE) st = gpu_dom(g, k, err);
    if (!st && !g->ix_a) st = index_upload(&g->ix_a, k->dense_a, k->n_vars, k->n_base[GROTH16_BASE_A], err);
    if (!st && !g->ix_b) st = index_upload(&g->ix_b, k->dense_b, k->n_vars, k->n_b2, err);
    pthread_mutex_unlock(&g->mu);
    return st;
}

/* gives the handle's witness slot back (p->dev: slot + 1; p->dev_key: the device key) */
static void gpu_release(groth16_pending_t *p) {
    gpu_key *g = p->dev_key;
    if (g && p->dev) {
        int device = -1; /* (for gpu.verbose: the preload functions keep to the domain's own device) */
        for (int d = 0; d < GROTH16_MAX_DEVICES && p->key; d++)
            if (p->key->dev[d] == g) device = d;
        preload_ctx c = {g, p->key ? p->key->domain : 0, device};
        const groth16_preload_ops ops = {preload_issue, preload_drop, &c};
        pthread_mutex_lock(&g->mu);
        /* its a, b not taken by its H: out of the queue (its copies dropped), the next one's may go */
        groth16_preload_release(&g->pre, &ops, p->dev_token);
        p->dev_token = 0;
        g->slot_busy[(uintptr_t)p->dev - 1] = 0;
        pthread_cond_signal(&g->cv);
        pthread_mutex_unlock(&g->mu);
    }
    p->dev = NULL;
    p->dev_key = NULL;
    p->dev_release = NULL;
}

/* p->dev holds slot + 1 of the device key's witness slots */
static pm_status staged_slot(unsigned *slot, const groth16_pending_t *p, pm_error *err) {
    if (!p->dev) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "GPU table: witness not staged");
    *slot = (unsigned)((uintptr_t)p->dev - 1);
    return PM_OK;
}

/* stage: a free witness slot of the device key (waiting for one while both are held), then the
 * witness (Montgomery) into it, asynchronously (pinned host memory) or at once (pageable); the
 * SpMV waits for it on the device (the MSMs on the host, where no device SpMV ran). The slot is the
 * handle's until dev_release (start_finish, once the MSMs that read the witness are done, before the
 * H MSM). May run outside the kernel region (the engine stages there). Snarkjs
 * keys: nothing. */
static void yield_arm(const groth16_exec *x);

static pm_status gpu_stage(const groth16_exec *x, groth16_pending_t *p, const fr_t *w, size_t n_w, pm_error *err) {
    if (p->key->conv != GROTH16_BELLPERSON) return PM_OK;
    gpu_key *g = NULL;
    /* a key's first use (circuit upload, staging pinned: seconds of driver calls) runs here, outside
     * the kernel region: between its pieces it waits while more urgent work of another key is
     * inside (groth16_exec yield), whose own driver calls would otherwise queue behind them */
    yield_arm(x);
    pm_status st = gpu_bp(&g, x, p, err);
    gpu_set_yield(NULL, NULL);
    if (st) return st;
    pthread_mutex_lock(&g->mu);
    const int two = g->plan.witness_slots >= 2;
    while (g->slot_busy[0] && (!two || g->slot_busy[1])) pthread_cond_wait(&g->cv, &g->mu);
    const unsigned slot = g->slot_busy[0] ? 1u : 0u;
    g->slot_busy[slot] = 1;
    pthread_mutex_unlock(&g->mu);
    p->dev = (void *)(uintptr_t)(slot + 1);
    p->dev_key = g;
    p->dev_release = gpu_release;
    const fr_t *src = w;
    if (g->pin[slot] && n_w == p->key->n_vars) {
        /* the slot's staging is the handle's until dev_release; the last copy out of it is done
         * (a handle freed between its stage and its SpMV may have left one in flight) */
        pm_status st = gpu_witness_wait(g->ws, slot, err);
        if (st) return st;
        copy_parallel(g->pin[slot], w, n_w * sizeof(fr_t));
        src = g->pin[slot];
    }
    st = gpu_witness_upload_async(g->ws, slot, src, n_w, err); /* on error the handle's free releases it */
    if (!st) preload_offer(g, p, x->device);
    return st;
}

/* eval: a, b, c = A·w, B·w, C·w on the device into the domain's three buffers, every row checked,
 * the input rows (a = w_i) and zeros up to the domain (gpu_r1cs_spmv). */
static pm_status gpu_eval_bellperson(const groth16_exec *x, groth16_pending_t *p, const fr_t *w, size_t n_w,
                                     pm_error *err) {
    (void)w;
    const groth16_key *k = p->key;
    gpu_key *g = NULL;
    unsigned slot = 0;
    void *buf[3];
    pm_status st = gpu_bp(&g, x, p, err);
    if (st || (st = staged_slot(&slot, p, err))) return st;
    prefix_drop(g);
    preload_claim(g, k, NULL, x->device);
    if ((st = gpu_ntt_domain_buffers(buf, g->dom, err))) return st;
    uint32_t bad = UINT32_MAX;
    st = gpu_r1cs_spmv(buf[0], buf[1], buf[2], k->domain, (uint32_t)(k->n_public + 1), g->cs, g->ws, slot, n_w,
                       &bad, err);
    if (st == PM_ERR_UNSATISFIED) p->first_bad = bad;
    p->abc_host = 0;
    return st;
}

/* H as bellperson (6 NTTs, gpu_bellperson_h) on the domain's buffers; a, b, c from host memory when a
 * CPU eval made them. The m - 1 coefficients stay on the device for the H MSM. */
static pm_status gpu_h_bellperson_run(const groth16_exec *x, groth16_pending_t *p, groth16_scalars *h, pm_error *err) {
    const groth16_key *k = p->key;
    const size_t m = k->domain;
    gpu_key *g = NULL;
    void *buf[3];
    pm_status st = gpu_key_get(&g, x, p, err);
    if (st || (st = gpu_dom(g, k, err))) return st;
    h->host = NULL;
    h->dev = NULL;
    prefix_drop(g);
    if (p->abc_host && g->plan.h_buffers != 1 && pm_setting_bool("gpu.h_overlap")) {
        /* the CPU eval's a, b, c (the pinned pool): A's transforms under b's and c's copies, a and b
         * already on the card where they were preloaded under the last H MSM (gpu.h_preload); or c
         * formed on the card as a o b (the CPU eval checked every row: start_cpu.c) */
        const uint64_t tok = preload_claim(g, k, p, x->device);
        const int used = tok && gpu_ntt_domain_preload_token(g->dom) == tok; /* what the upload reads */
        void *hd = NULL;
        const fr_t *c = pm_setting_bool("gpu.h_c_product") ? NULL : p->work + 2 * m;
        st = gpu_bellperson_h_upload_preloaded(&hd, p->work, p->work + m, c, m, g->dom, tok, err);
        if (!st && used && pm_setting_bool("gpu.verbose"))
            fprintf(stderr, "gpu h (device %d): a, b preloaded (token %llu)\n", x->device, (unsigned long long)tok);
        h->dev = hd;
        return st;
    }
    /* p's own entry leaves the gate's queue too (a preload taken here is dropped by the writers below) */
    preload_claim(g, k, p, x->device);
    if (g->plan.h_buffers == 1) {
        /* tier 4: one domain buffer; a, b, c in turn from the CPU eval's host arrays (a and b become
         * the parked coset products: nothing reads them after H) */
        if (!p->abc_host)
            return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                                "GPU table: the one-buffer H (tier 4) needs a, b, c from the CPU eval");
        void *hd = NULL;
        st = gpu_bellperson_h_one(&hd, p->work, p->work + m, p->work + 2 * m, m, g->plan.h_chunk_points, g->dom, err);
        h->dev = hd;
        return st;
    }
    if ((st = gpu_ntt_domain_buffers(buf, g->dom, err))) return st;
    if (p->abc_host)
        for (int i = 0; i < 3 && !st; i++) st = gpu_copy_to_device(buf[i], p->work + i * m, m * sizeof(fr_t), err);
    if (!st) st = gpu_bellperson_h(buf[0], buf[1], buf[2], m, g->dom, err);
    h->dev = buf[0];
    return st;
}

static pm_status gpu_msm_run(const groth16_exec *x, groth16_pending_t *p, groth16_base which, const groth16_scalars *s,
                             g1_jac_t *r, pm_error *err) {
    const groth16_key *k = p->key;
    const size_t n = k->n_base[which];
    gpu_key *g = NULL;
    gpu_g1_bases *bb;
    pm_status st = gpu_key_get(&g, x, p, err);
    if (st || (st = gpu_g1_base(&bb, g, k, which, x->device, err))) return st;
    scratch_take(g, which == GROTH16_BASE_H, bb, NULL);
    if (which == GROTH16_BASE_H && s->dev) preload_open(g, k, x->device); /* the domain's other buffers idle */
    if (s->dev) return gpu_msm_g1(r, bb, 0, s->dev, n, GPU_MSM_SCALARS_DEVICE, err);
    if (s->host) return gpu_msm_g1(r, bb, 0, s->host, n, 0, err);
    /* the staged witness (bellperson): A and B1 gathered by density, L over the aux wires; its upload
     * has landed (the device SpMV waits for it on the device; a plan with the CPU's SpMV has none) */
    unsigned slot = 0;
    if ((st = staged_slot(&slot, p, err)) || (st = gpu_witness_wait(g->ws, slot, err))) return st;
    const fr_t *wd = gpu_witness_device(g->ws, slot);
    const unsigned f = GPU_MSM_SCALARS_DEVICE | GPU_MSM_SCALARS_MONT;
    switch (which) {
    case GROTH16_BASE_A: return gpu_msm_g1_gather(r, bb, 0, wd, k->n_vars, g->ix_a, f, err);
    case GROTH16_BASE_B1: return gpu_msm_g1_gather(r, bb, 0, wd, k->n_vars, g->ix_b, f, err);
    case GROTH16_BASE_C: return gpu_msm_g1(r, bb, 0, wd + k->n_public + 1, n, f, err);
    default: return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "GPU table: no scalars for the H MSM");
    }
}

/* The G2 MSM on the device: host scalars (snarkjs: the plain witness), or the staged witness
 * gathered by the B density (bellperson). */
static pm_status gpu_msm2_run(const groth16_exec *x, groth16_pending_t *p, const groth16_scalars *s, g2_jac_t *r,
                              pm_error *err) {
    const groth16_key *k = p->key;
    gpu_key *g = NULL;
    pm_status st = gpu_key_get(&g, x, p, err);
    if (st) return st;
    gpu_g2_bases *b2 = NULL;
    if ((st = gpu_g2_base(&b2, g, k, x->device, err))) return st;
    scratch_take(g, 0, NULL, g->b2);
    if (s->host) return gpu_msm_g2(r, g->b2, 0, s->host, k->n_b2, 0, err);
    unsigned slot = 0;
    if ((st = staged_slot(&slot, p, err)) || (st = gpu_witness_wait(g->ws, slot, err))) return st;
    return gpu_msm_g2_gather(r, g->b2, 0, gpu_witness_device(g->ws, slot), k->n_vars, g->ix_b,
                             GPU_MSM_SCALARS_DEVICE | GPU_MSM_SCALARS_MONT, err);
}

/* ---- preemption inside the long operations ----
 * The H pipeline (6 NTTs, ~0.3 s at 2^27) and the MSMs (the H MSM of a 32 GiB partition ~1 s)
 * give the exec's yield (the engine's urgent lane) a chance at their own preemption points too
 * (gpu.h gpu_set_yield: between window groups, between the H pipeline's polynomials), so a
 * WinningPoSt waits for one window group instead of a whole MSM. Without a yield: no points. */
static void op_yield(void *ctx) {
    const groth16_exec *x = ctx;
    x->yield(x->yield_ctx);
}
static void yield_arm(const groth16_exec *x) { gpu_set_yield(x && x->yield ? op_yield : NULL, (void *)x); }

static pm_status gpu_h_bellperson(const groth16_exec *x, groth16_pending_t *p, groth16_scalars *h, pm_error *err) {
    yield_arm(x);
    pm_status st = gpu_h_bellperson_run(x, p, h, err);
    gpu_set_yield(NULL, NULL);
    return st;
}

/* gpu.verbose: one line per MSM with the device's own phase times (CUDA events, summed over the
 * chunks) beside the wall time, so a capped plan's MSM shows what its chunks and its stream cost */
static void msm_note(const char *what, const gpu_msm_timing_t *t, double wall_s) {
    fprintf(stderr,
            "gpu msm %s: wall %.1f ms; events: scalars %.1f sort %.1f accumulate %.1f reduce %.1f total %.1f ms; "
            "c=%u W=%u chunks=%u sent=%zu general=%zu ones=%zu zeros=%zu\n",
            what, wall_s * 1e3, t->upload_digits, t->scatter, t->accumulate, t->reduce, t->total, t->window_bits, t->windows,
            t->chunks, t->sent, t->general, t->ones, t->zeros);
}

static pm_status gpu_msm(const groth16_exec *x, groth16_pending_t *p, groth16_base which, const groth16_scalars *s,
                         g1_jac_t *r, pm_error *err) {
    yield_arm(x);
    const double t0 = pm_now_s();
    pm_status st = gpu_msm_run(x, p, which, s, r, err);
    gpu_set_yield(NULL, NULL);
    const gpu_key *g = st ? NULL : p->key->dev[x->device]; /* st == PM_OK: the device id was checked */
    if (g && g->base[which] && pm_setting_bool("gpu.verbose")) {
        gpu_msm_timing_t t;
        gpu_msm_g1_last_timing(&t, g->base[which]);
        msm_note(groth16_devplan_set_name(&g->plan, (unsigned)which), &t, pm_now_s() - t0);
    }
    return st;
}

static pm_status gpu_msm2(const groth16_exec *x, groth16_pending_t *p, const groth16_scalars *s, g2_jac_t *r,
                          pm_error *err) {
    yield_arm(x);
    const double t0 = pm_now_s();
    pm_status st = gpu_msm2_run(x, p, s, r, err);
    gpu_set_yield(NULL, NULL);
    const gpu_key *g = st ? NULL : p->key->dev[x->device];
    if (g && g->b2 && pm_setting_bool("gpu.verbose")) {
        gpu_msm_timing_t t;
        gpu_msm_g2_last_timing(&t, g->b2);
        msm_note(groth16_devplan_set_name(&g->plan, GROTH16_N_BASES), &t, pm_now_s() - t0);
    }
    return st;
}

/* the a, b, c pool's memory: pinned in pieces from `device`'s context (the synthesis thread that
 * first needs a buffer has none current), copied whole (gpu.h) */
static pm_status gpu_pool_alloc(void **out, size_t bytes, int device, pm_error *err) {
    pm_status st = gpu_set_device(device, err);
    return st ? st : gpu_host_alloc_pieces(out, bytes, err);
}

/* ---- the witness MSMs first, and prefixes of their bases prefetched under the H MSM ----
 * Where a plan streams base sets and runs H through the domain's three buffers (tiers 1-3, one MSM
 * room), the H MSM is bound by arithmetic with the bus mostly idle, and after H the domain's buffers 1
 * and 2 are idle (H's coefficients are in buffer 0) until the next eval or H of this device copy. So a
 * partition runs A, B1, L, B2 first (reading any prefixes), then its eval (deferred, on the card) and
 * H, and while its H MSM computes the two idle buffers are filled from the pinned host copy with the
 * first points of two streamed witness sets: B2, B1, A, L in that order (the slowest per byte streamed:
 * G2 points are 192 bytes, B1's chunks are few and short). The next partition's witness MSMs sum those
 * from the buffers (gpu_g1_bases_prefetch). Anything that writes the domain drops the prefixes first,
 * after their copies have landed. gpu.prefetch is off by default: on an H100 at 24 and 48 GB it was
 * slower (docs/perf/devplan.md, thirteenth session): the witness MSMs there are bound by their chunks'
 * work more than by the bus, and A run first meets the other worker's staging on the bus. */
static int gpu_prefetch_plan(const gpu_key *g, int set[2], uint64_t bytes[2]) {
    if (!pm_setting_bool("gpu.prefetch")) return 0;
    return (int)groth16_devplan_prefetch(&g->plan, &g->shape, set, bytes);
}

static int gpu_witness_first(const groth16_exec *x, groth16_pending_t *p) {
    gpu_key *g = NULL;
    pm_error e;
    int set[2];
    uint64_t bytes[2];
    if (p->key->conv != GROTH16_BELLPERSON || gpu_key_get(&g, x, p, &e) != PM_OK || !g) return 0;
    return gpu_prefetch_plan(g, set, bytes) > 0;
}

static void gpu_prefetch(const groth16_exec *x, groth16_pending_t *p) {
    gpu_key *g = NULL;
    pm_error e;
    void *buf[3];
    int set[2];
    uint64_t bytes[2];
    if (gpu_key_get(&g, x, p, &e) != PM_OK || !g || !g->dom) return;
    const int n = gpu_prefetch_plan(g, set, bytes);
    if (n <= 0) return;
    prefix_drop(g);
    preload_claim(g, p->key, NULL, x->device);
    /* the H MSM's scratch taken now (a release is a cudaFree, which waits for the whole device: after
     * the copies below it would hold the H MSM until they land) */
    if (g->base[GROTH16_BASE_H]) scratch_take(g, 1, g->base[GROTH16_BASE_H], NULL);
    /* H's kernels have finished with buffers 1 and 2 before another stream writes them */
    if (gpu_ntt_domain_buffers(buf, g->dom, &e) != PM_OK || gpu_ntt_domain_sync(g->dom, &e) != PM_OK) return;
    const int hb = gpu_ntt_domain_h_buffer(g->dom); /* H's coefficients: the H MSM reads them next */
    for (int i = 0; i < n; i++) {
        const int b = set[i], into = (hb + 1 + i) % 3;
        size_t got = 0;
        if (b == GROTH16_N_BASES) {
            if (!g->b2 || gpu_g2_bases_prefetch(g->b2, buf[into], bytes[i], &got, &e) != PM_OK || !got) continue;
            g->pre_g2[i] = g->b2;
        } else {
            if (!g->base[b] || gpu_g1_bases_prefetch(g->base[b], buf[into], bytes[i], &got, &e) != PM_OK || !got) continue;
            g->pre_g1[i] = g->base[b];
        }
        if (pm_setting_bool("gpu.verbose"))
            fprintf(stderr, "gpu prefetch (device %d): %s, %zu points into domain buffer %d\n", x->device,
                    groth16_devplan_set_name(&g->plan, (unsigned)b), got, into);
    }
}

/* two lanes (start.h groth16_exec.lanes) where the device copy's plan has two MSM rooms */
static unsigned gpu_lanes(const groth16_exec *x, groth16_pending_t *p) {
    gpu_key *g = NULL;
    pm_error e;
    if (gpu_key_get(&g, x, p, &e) != PM_OK || !g) return 1; /* the H phase meets the error again */
    return g->plan.msm_rooms == 2 && !g->plan.keep_scratch ? 2 : 1;
}

static const groth16_ops groth16_gpu_table = {
    .name = "cuda",
    .flags = GROTH16_OPS_DEVICE_WITNESS_BELLPERSON,
    .stage = gpu_stage,
    .eval_snarkjs = NULL, /* no kernel for zkey section 4: the CPU's */
    .eval_bellperson = gpu_eval_bellperson,
    .h_snarkjs = gpu_h_snarkjs,
    .h_bellperson = gpu_h_bellperson,
    .msm_g1 = gpu_msm,
    .msm_g2 = gpu_msm2,
    .host_alloc = gpu_pool_alloc,
    .host_free = gpu_host_free_pieces,
    .lanes = gpu_lanes,
    .witness_first = gpu_witness_first,
    .prefetch = gpu_prefetch,
};

pm_status groth16_ops_gpu(const groth16_ops **ops, pm_error *err) {
    *ops = NULL;
    if (gpu_available() <= 0)
        return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "no usable CUDA device (driver or GPU missing)");
    *ops = &groth16_gpu_table;
    return PM_OK;
}

#else /* a build without the CUDA backend */

pm_status groth16_gpu_card(groth16_devplan_card *c, int device, unsigned workers, pm_error *err) {
    (void)workers;
    memset(c, 0, sizeof *c);
    return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET, "device %d: this build has no CUDA backend", device);
}

pm_status groth16_ops_gpu(const groth16_ops **ops, pm_error *err) {
    *ops = NULL;
    return pm_error_set(err, PM_ERR_GPU, "", PM_NO_OFFSET,
                        "this build has no CUDA backend (PROOFMILL_CUDA=OFF or no nvcc)");
}

#endif
