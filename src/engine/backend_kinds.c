/*
 * backend_kinds.c — the engine's backend over every proof kind (backend_kinds.h).
 */
#include "engine/backend_kinds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/start.h"
#include "kinds/kind.h"
#include "prove/prove.h"

typedef struct {
    const pm_kind *default_kind;
    const groth16_ops *ops;
    unsigned start_threads, finalize_threads, witness_threads;
    fr_t r, s;
    uint64_t seed;
    pm_prove_blinding blinding;
    int have_card;
    groth16_devplan_card card; /* gpu: the engine's card with the least memory for a key */
    int first_device;          /* the engine's first card: where a synthesis thread pins (a, b, c pool) */
} kb_self;

/* The smallest of the engine's cards (least usable memory), the one every key is planned for. */
static pm_status probe_cards(kb_self *b, const pm_kinds_backend_opts *o, pm_error *err) {
    const unsigned workers = o->workers_per_device ? o->workers_per_device : 2;
    size_t n = o->n_devices ? o->n_devices : GROTH16_MAX_DEVICES;
    uint64_t best = UINT64_MAX;
    unsigned seen = 0;
    for (size_t i = 0; i < n; i++) {
        const int d = o->n_devices ? o->devices[i] : (int)i;
        groth16_devplan_card c;
        pm_error e;
        if (groth16_gpu_card(&c, d, workers, &e)) {
            if (!o->n_devices && i > 0) break; /* past the last visible device */
            if (err) *err = e;
            return e.code;
        }
        seen++;
        uint64_t u = c.mem_free ? c.mem_free : c.mem_total;
        if (c.cap && c.cap < u) u = c.cap;
        if (u < best) {
            best = u;
            b->card = c;
            b->have_card = 1;
        }
    }
    b->first_device = o->n_devices ? o->devices[0] : 0;
    if (b->have_card) { /* the machine's host side, shared by every card */
        b->card.host_budget = o->host_budget;
        b->card.devices = seen;
    }
    return PM_OK;
}

static pm_status find_kind(const pm_kind **out, const kb_self *b, const char *name, pm_error *err) {
    *out = name ? pm_kind_find(name) : b->default_kind;
    if (*out) return PM_OK;
    char known[512];
    return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "unknown proof kind '%.64s' (known: %s)", name,
                        pm_kind_names(known, sizeof known));
}

static pm_status kb_plan(void *self, const pm_job_request *rq, pm_job_plan *plan, pm_error *err) {
    kb_self *b = self;
    memset(plan, 0, sizeof *plan);
    const pm_kind *kind;
    pm_status st = find_kind(&kind, b, rq->kind, err);
    if (st) return st;
    pm_prove_plan pp;
    st = pm_prove_plan_job_on(&pp, kind, rq->key_path, rq->params_dir, rq->inputs, rq->n_inputs, b->ops,
                              b->have_card ? &b->card : NULL, b->start_threads, b->finalize_threads, err);
    if (st) return st;
    plan->n_partitions = pp.n_partitions;
    plan->part_peak_bytes = pp.part_peak_bytes;
    plan->part_pending_bytes = pp.part_pending_bytes;
    plan->key_bytes = pp.key_bytes;
    plan->key_load_bytes = pp.key_load_bytes;
    snprintf(plan->kind, sizeof plan->kind, "%s", kind->name);
    memcpy(plan->key_path, pp.key_path, sizeof plan->key_path);
    return PM_OK;
}

static pm_status kb_load_key(void *self, const char *kind_name, const char *key_path, void **key, uint64_t *resident,
                             pm_error *err) {
    kb_self *b = self;
    *key = NULL;
    const pm_kind *kind;
    pm_status st = find_kind(&kind, b, kind_name && kind_name[0] ? kind_name : NULL, err);
    if (st) return st;
    pm_prove_key *k;
    if ((st = pm_prove_key_load(&k, kind, key_path, NULL, err))) return st;
    if (b->have_card && (st = pm_prove_key_plan(k, &b->card, err))) {
        pm_prove_key_free(k);
        return st;
    }
    *key = k;
    *resident = pm_prove_key_host_bytes(k); /* with the CPU NTT domain where H will run on the CPU */
    return PM_OK;
}

static void kb_free_key(void *self, void *key) { pm_prove_key_free(key); }

static void kb_close_key(void *self, void *key) {
    (void)self;
    pm_prove_key_close_pool(key);
}

static pm_status kb_synthesize(void *self, const void *key, const pm_input *in, size_t n_in, uint32_t part,
                               void **prepared, pm_error *err) {
    kb_self *b = self;
    const pm_prove_key *k = key;
    *prepared = NULL;
    void *job = NULL;
    pm_status st = pm_kind_open_job(k->kind, &job, in, n_in, err);
    if (st) return st;
    groth16_exec x = {.ops = b->ops, .device = b->first_device, .threads = b->start_threads};
    pm_prove_exec_plan(&x, k);
    pm_prove_part *pp = NULL;
    st = pm_prove_synthesize(&pp, k, job, in, n_in, part, &x, b->witness_threads, err);
    k->kind->close_job(job);
    if (st) return st;
    *prepared = pp;
    return PM_OK;
}

static void kb_yield(void *slot) { pm_gpu_slot_yield(slot); }

static pm_status kb_gpu_start(void *self, const void *key, void *prepared, pm_gpu_slot *slot, void **pending,
                              pm_error *err) {
    kb_self *b = self;
    (void)key;
    /* between the start phase's operations a more urgent partition of another key may take the
     * device (engine.h urgent_lane) */
    /* defer_free: the host buffers the start is done with (the witness, 3.9 GiB at 2^27; at tiers 2-4
     * a, b, c, 12 GiB more) are returned to the OS by the finalizer (pm_prove_finalize frees the
     * part), not inside the kernel region (~0.1 s per GiB) nor by this worker before its next
     * partition; the budget charges the partition's slot until finalize; a start that fails still
     * frees them where it fails */
    groth16_exec x = {.ops = b->ops, .device = pm_gpu_slot_device(slot), .threads = b->start_threads,
                      .yield = kb_yield, .yield_ctx = slot, .defer_free = 1};
    pm_prove_exec_plan(&x, ((pm_prove_part *)prepared)->key);
    /* the witness staged (its upload queued) outside the kernel region, under the other worker's kernels */
    pm_status st = pm_prove_stage(prepared, &x, err); /* frees prepared on error */
    if (st) {
        *pending = NULL;
        return st;
    }
    pm_gpu_slot_enter(slot);
    pm_prove_key *k = (pm_prove_key *)((pm_prove_part *)prepared)->key;
    st = pm_prove_start(prepared, &x, err); /* frees prepared on error */
    pm_gpu_slot_leave(slot);
    *pending = st ? NULL : prepared;
    /* once every device of the engine holds the key's bases, the host copy goes (key_bytes says so) */
    const int *devs;
    size_t nd = pm_gpu_slot_devices(slot, &devs);
    if (!st && b->ops != &groth16_ops_cpu) pm_prove_key_release_host_bases(k, devs, nd);
    return st;
}

static uint64_t kb_key_bytes(void *self, const void *key) {
    (void)self;
    return pm_prove_key_host_bytes(key);
}

/* the key's plan (pm_prove_key_plan, for the engine's smallest card) and what its device copies
 * hold now (the view's ledger) */
static void kb_key_plan(void *self, const void *key, pm_key_plan_info *out) {
    (void)self;
    const pm_prove_key *k = key;
    memset(out, 0, sizeof *out);
    out->tier = -1;
    if (!k->have_devplan) return;
    const groth16_devplan *p = &k->devplan;
    out->tier = (int)p->tier;
    snprintf(out->tier_name, sizeof out->tier_name, "%s", groth16_devplan_tier_name(p->tier));
    size_t o = 0;
    for (int b = 0; b < GROTH16_N_BASES; b++)
        if (p->base[b] == GROTH16_STREAMED && o < sizeof out->streamed)
            o += (size_t)snprintf(out->streamed + o, sizeof out->streamed - o, "%s%s", o ? ", " : "",
                                  groth16_devplan_set_name(p, (unsigned)b));
    if (p->b2 == GROTH16_STREAMED && o < sizeof out->streamed)
        snprintf(out->streamed + o, sizeof out->streamed - o, "%s%s", o ? ", " : "",
                 groth16_devplan_set_name(p, GROTH16_N_BASES));
    out->device_bytes = p->peak_bytes;
    for (int d = 0; d < GROTH16_MAX_DEVICES; d++) {
        uint64_t b = __atomic_load_n(&k->view.ledger.device[d], __ATOMIC_RELAXED);
        if (b) {
            out->devices++;
            if (b > out->device_bytes) out->device_bytes = b;
        }
    }
    out->host_pinned_bytes = __atomic_load_n(&k->view.ledger.host_pinned, __ATOMIC_RELAXED);
    out->host_part_bytes = groth16_devplan_host_part_bytes(p);
}

static pm_status kb_finalize(void *self, const void *key, void *pending, void **proof, pm_error *err) {
    kb_self *b = self;
    (void)key;
    pm_prove_part *pp = pending;
    *proof = NULL;
    fr_t r, s;
    pm_status st = pm_prove_blinding_draw(&r, &s, &b->blinding, pp->part, err);
    if (st) {
        pm_prove_part_free(pp);
        return st;
    }
    pm_prove_proof *pr = NULL;
    st = pm_prove_finalize(&pr, pp, &r, &s, b->finalize_threads, err);
    memset(&r, 0, sizeof r);
    memset(&s, 0, sizeof s);
    *proof = pr;
    return st;
}

static pm_status kb_verify(void *self, const void *key, const void *proof, pm_error *err) {
    (void)self;
    (void)key;
    return pm_prove_verify(proof, err);
}

static char *kb_proof_json(void *self, const void *proof) {
    (void)self;
    return pm_prove_proof_json(proof);
}

static void kb_free_part(void *self, void *p) { pm_prove_part_free(p); }
static void kb_free_proof(void *self, void *p) { pm_prove_proof_free(p); }
static void kb_destroy(void *self) { free(self); }

pm_status pm_backend_kinds(pm_backend *be, const pm_kinds_backend_opts *opts, pm_error *err) {
    memset(be, 0, sizeof *be);
    const pm_kinds_backend_opts defaults = {0};
    if (!opts) opts = &defaults;
    const groth16_ops *ops = &groth16_ops_cpu;
    pm_status st;
    if (opts->gpu && (st = groth16_ops_gpu(&ops, err))) return st;
    const char *dk = opts->default_kind ? opts->default_kind : "snarkjs";
    const pm_kind *def = pm_kind_find(dk);
    if (!def) return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "unknown default proof kind '%s'", dk);
    kb_self *b = calloc(1, sizeof *b);
    if (!b) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    b->default_kind = def;
    b->ops = ops;
    b->start_threads = opts->start_threads;
    b->finalize_threads = opts->finalize_threads ? opts->finalize_threads : 1;
    b->witness_threads = opts->witness_threads;
    if (opts->gpu && (st = probe_cards(b, opts, err))) {
        free(b);
        return st;
    }
    if (opts->fixed_r && opts->fixed_s) {
        b->r = *opts->fixed_r;
        b->s = *opts->fixed_s;
        b->blinding.fixed_r = &b->r;
        b->blinding.fixed_s = &b->s;
    } else if (opts->seed) {
        b->seed = *opts->seed;
        b->blinding.seed = &b->seed;
    }
    be->name = opts->gpu ? "groth16-cuda" : "groth16-cpu";
    be->self = b;
    be->plan = kb_plan;
    be->load_key = kb_load_key;
    be->free_key = kb_free_key;
    be->close_key = kb_close_key;
    be->key_bytes = kb_key_bytes;
    be->key_plan = kb_key_plan;
    be->synthesize = kb_synthesize;
    be->gpu_start = kb_gpu_start;
    be->finalize = kb_finalize;
    be->verify = kb_verify;
    be->proof_json = kb_proof_json;
    be->free_prepared = kb_free_part;
    be->free_pending = kb_free_part;
    be->free_proof = kb_free_proof;
    be->destroy = kb_destroy;
    return PM_OK;
}
