/*
 * prove.c — jobs of any proof kind through the one start phase and assembly (prove.h).
 */
#include "prove/prove.h"

#include "gpu/gpu_sizes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "groth16/key_check.h"
#include "util/progress.h"
#include "util/settings.h"
#include "groth16/proof_bytes.h"
#include "groth16/proof_json.h"
#include "groth16/prover.h"
#include "groth16/verifier.h"
#include "msm/msm.h"
#include "util/clock.h"

#define MIB (1ull << 20)

/* ---------------------------------------------------------------- plan */

/* snarkjs sizes from the zkey's header */
static pm_status plan_snarkjs(pm_prove_plan *plan, pm_key_shape *shape, const char *path, unsigned start_threads,
                              unsigned finalize_threads, pm_error *err) {
    zkey_info_t h;
    pm_status st = zkey_read_info(&h, path, err);
    if (st) return st;
    const uint64_t fr = sizeof(fr_t);
    const size_t nv = h.n_vars ? h.n_vars : 1, N = h.domain_size;
    size_t npub = h.n_public + 1 > nv ? nv - 1 : h.n_public;
    size_t msm = msm_g1_scratch_size(nv, start_threads), t;
    if ((t = msm_g1_scratch_size(nv - npub - 1, start_threads)) > msm) msm = t;
    if ((t = msm_g1_scratch_size(N, start_threads)) > msm) msm = t;
    plan->key_bytes = zkey_resident_bytes(&h, ZKEY_SKIP_COEFS_LIST) + groth16_key_view_bytes(GROTH16_SNARKJS, nv, N);
    plan->key_load_bytes = h.file_bytes; /* zkey_read maps and touches the whole file while decoding */
    /* witness (Montgomery) + its plain copy + a | b | c + the MSM scratch; 1 MiB for rounding */
    plan->part_peak_bytes = 2 * (uint64_t)nv * fr + 3 * (uint64_t)N * fr + msm + MIB;
    /* plain witness + the G2 MSM scratch of finalize */
    plan->part_pending_bytes = (uint64_t)nv * fr + msm_g2_scratch_size(nv, finalize_threads) + MIB / 4;
    shape->n_vars = h.n_vars;
    shape->n_public = h.n_public;
    shape->domain = N;
    return PM_OK;
}

void pm_prove_plan_bellperson_sizes(pm_prove_plan *plan, const bp_params_counts_t *c, uint64_t circuit_bytes,
                                    const groth16_ops *ops) {
    pm_prove_plan_bellperson_sizes_on(plan, c, circuit_bytes, ops, NULL);
}

void pm_prove_devplan_shape_of_counts(groth16_devplan_shape *s, const bp_params_counts_t *c, uint64_t circuit_bytes) {
    memset(s, 0, sizeof *s);
    s->conv = GROTH16_BELLPERSON;
    s->n_vars = c->n_ic + c->n_l;
    s->n_public = c->n_ic ? c->n_ic - 1 : 0;
    unsigned lg = 0;
    while (((uint64_t)1 << lg) < c->n_h + 1) lg++;
    s->log_domain = lg;
    s->n_base[GROTH16_BASE_A] = c->n_a;
    s->n_base[GROTH16_BASE_B1] = c->n_b_g1;
    s->n_base[GROTH16_BASE_C] = c->n_l;
    s->n_base[GROTH16_BASE_H] = c->n_h;
    s->n_b2 = c->n_b_g2;
    s->circuit_bytes = circuit_bytes;
}

void pm_prove_plan_bellperson_sizes_on(pm_prove_plan *plan, const bp_params_counts_t *c, uint64_t circuit_bytes,
                                       const groth16_ops *ops, const groth16_devplan *dp) {
    const uint64_t n_w = c->n_ic + c->n_l, m = c->n_h + 1;
    /* the CPU NTT domain is built only where H runs on the CPU (groth16_key_domain): not counted for
     * a device table whose plan keeps H on the card */
    const int gpu_h = ops && (ops->flags & GROTH16_OPS_DEVICE_WITNESS_BELLPERSON) && ops->h_bellperson && dp &&
                      dp->h == GROTH16_ON_DEVICE;
    plan->key_bytes = (c->n_ic + c->n_h + c->n_l + c->n_a + c->n_b_g1) * sizeof(g1_affine_t) +
                      c->n_b_g2 * sizeof(g2_affine_t) + circuit_bytes +
                      groth16_key_view_bytes(GROTH16_BELLPERSON, n_w, m) - (gpu_h ? groth16_key_domain_bytes(m) : 0);
    /* while it loads: params_read's chunks in flight (the decoded pages go back: params.h), and a
     * quarter of the circuit + up to 256 MiB for its recording's transient (measured: peak 13.8 GB
     * recording the 12.2 GB 32 GiB WindowPoSt circuit, 1.13x; a small circuit recorded on many
     * threads may hold a copy in flight: the 256 MiB; a mapped .csr needs none, reserved anyway) */
    plan->key_load_bytes = params_read_extra_bytes(c) + circuit_bytes / 4 + (circuit_bytes < (256ull << 20) ? circuit_bytes : (256ull << 20));
    if (ops && (ops->flags & GROTH16_OPS_DEVICE_WITNESS_BELLPERSON) && ops->eval_bellperson) {
        /* the device table: SpMV, H and every MSM on the device, so a partition holds only its
         * witness and public inputs on the host (no a, b, c, no scalar copies, no MSM scratch); the
         * key adds the device key's pinned staging slots (start_gpu.c, one device's: two unless its
         * plan keeps one). A device-memory plan that moves the SpMV (and H) to the CPU adds a, b, c
         * per partition from synthesis to the end of its start (devplan.h). */
        const unsigned slots = dp && dp->witness_slots ? dp->witness_slots : 2;
        plan->key_bytes += slots * 32 * n_w;
        /* a, b, c made on the host live in the key's pinned pool (devplan.h abc_per_card buffers per card, start.h
         * groth16_abc_pool), charged with the key, not per partition: the CPU eval waits for a
         * buffer, so however many partitions the window holds, a, b, c never exceed the pool */
        if (dp) plan->key_bytes += (uint64_t)dp->host_abc_buffers * groth16_devplan_host_part_bytes(dp);
        plan->part_peak_bytes = 32 * n_w + 32 * c->n_ic + MIB;
        plan->part_pending_bytes = 32 * c->n_ic + MIB;
    } else {
        plan->part_peak_bytes = 32 * (4 * n_w + 4 * m) + 2 * n_w + (64ull << 20);
        plan->part_pending_bytes = 32 * c->n_b_g2 + MIB;
    }
}

/* st of reading the .params at path; an unreadable one gets the kind's word on where keys come from */
static pm_status key_io_hint(pm_status st, const pm_kind *kind, const char *path, pm_error *err) {
    if (st == PM_ERR_IO && kind->key_hint) {
        char why[300];
        snprintf(why, sizeof why, "%.290s", err->msg);
        pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "no parameters here (%s): %s", kind->key_hint, why);
    }
    return st;
}

/* st with err naming file when the lower layer named none */
static pm_status err_file(pm_error *err, pm_status st, const char *file) {
    if (err && !err->file[0] && file) snprintf(err->file, sizeof err->file, "%s", file);
    return st;
}

/* bellperson sizes from the .params counts and the kind's circuit estimate */
static pm_status plan_bellperson(pm_prove_plan *plan, pm_key_shape *shape, const pm_kind *kind, const void *id,
                                 const char *path, const groth16_ops *ops, const groth16_devplan_card *card,
                                 pm_error *err) {
    bp_params_counts_t c;
    pm_status st = params_read_counts(&c, path, err);
    if (st) return key_io_hint(st, kind, path, err);
    uint64_t circuit = 0;
    if (kind->circuit && (st = kind->circuit(NULL, &circuit, id, path, NULL, err))) return st;
    groth16_devplan dp;
    const int gpu = card && ops && (ops->flags & GROTH16_OPS_DEVICE_WITNESS_BELLPERSON);
    if (gpu) { /* the card's plan (the recorded circuit's host bytes stand for its device bytes: the
                  CSR layouts are alike) refuses a card too small for the key before anything loads */
        groth16_devplan_shape ds;
        pm_prove_devplan_shape_of_counts(&ds, &c, circuit);
        if ((st = groth16_devplan_make(&dp, &ds, card, 0, err))) return err_file(err, st, path);
        plan->have_devplan = 1;
        plan->devplan = dp;
    }
    pm_prove_plan_bellperson_sizes_on(plan, &c, circuit, ops, gpu ? &dp : NULL);
    shape->n_vars = c.n_ic + c.n_l;
    shape->n_public = c.n_ic ? c.n_ic - 1 : 0;
    shape->domain = c.n_h + 1;
    return PM_OK;
}

pm_status pm_prove_plan_job(pm_prove_plan *plan, const pm_kind *kind, const char *key_path, const char *params_dir,
                            const pm_input *in, size_t n_in, const groth16_ops *ops, unsigned start_threads,
                            unsigned finalize_threads, pm_error *err) {
    return pm_prove_plan_job_on(plan, kind, key_path, params_dir, in, n_in, ops, NULL, start_threads, finalize_threads,
                                err);
}

pm_status pm_prove_plan_job_on(pm_prove_plan *plan, const pm_kind *kind, const char *key_path, const char *params_dir,
                               const pm_input *in, size_t n_in, const groth16_ops *ops,
                               const groth16_devplan_card *card, unsigned start_threads, unsigned finalize_threads,
                               pm_error *err) {
    memset(plan, 0, sizeof *plan);
    void *job = NULL, *id = NULL;
    pm_status st = PM_OK;
    if (n_in && (st = pm_kind_open_job(kind, &job, in, n_in, err))) return st;
    if (key_path && key_path[0]) {
        if (snprintf(plan->key_path, sizeof plan->key_path, "%s", key_path) >= (int)sizeof plan->key_path)
            st = pm_error_set(err, PM_ERR_ARG, key_path, PM_NO_OFFSET, "key path too long");
    } else if (!kind->key_path) {
        st = pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "a %s job names its key", kind->name);
    } else if (!params_dir || !params_dir[0] || !job) {
        st = pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "a %s job needs its key or a parameter directory",
                          kind->name);
    } else {
        st = kind->key_path(plan->key_path, sizeof plan->key_path, params_dir, job, err);
    }
    if (!st && kind->open_key) st = kind->open_key(&id, plan->key_path, err);
    pm_key_shape shape = {0};
    if (!st)
        st = kind->conv == GROTH16_SNARKJS
                 ? plan_snarkjs(plan, &shape, plan->key_path, start_threads, finalize_threads, err)
                 : plan_bellperson(plan, &shape, kind, id, plan->key_path, ops, card, err);
    if (!st && job && kind->check_job) st = kind->check_job(id, plan->key_path, &shape, job, err);
    if (!st && job) plan->n_partitions = kind->partitions(job);
    if (id && kind->close_key) kind->close_key(id);
    if (job) kind->close_job(job);
    return st;
}

/* ---------------------------------------------------------------- key */

void pm_prove_key_free(pm_prove_key *k) {
    if (!k) return;
    if (k->have_abc_pool) {
        groth16_abc_pool *ap = &k->abc_pool;
        if (ap->takes && pm_setting_bool("gpu.verbose")) { /* whether the CPU evals waited for a buffer */
            unsigned pinned = 0;
            for (unsigned i = 0; i < ap->cap; i++) pinned += ap->buf[i] && ap->pinned[i];
            fprintf(stderr, "a, b, c pool (%s): %u of %u buffers made (%u pinned, %.2f GiB each), %llu takes, %llu waited %.2f s\n",
                    k->path, ap->n, ap->cap, pinned, ap->bytes / (double)(1ull << 30), (unsigned long long)ap->takes,
                    (unsigned long long)ap->waits, ap->wait_s);
        }
        groth16_abc_pool_destroy(ap);
    }
    groth16_key_free(&k->view);
    pthread_mutex_destroy(&k->mu);
    if (k->own_vk) groth16_vk_free(&k->vk);
    pm_circuit_free(&k->circ);
    params_free(&k->bp);
    zkey_free(&k->zk);
    if (k->id && k->kind->close_key) k->kind->close_key(k->id);
    free(k);
}

pm_status pm_prove_key_load(pm_prove_key **out, const pm_kind *kind, const char *key_path, const char *csr_path,
                            pm_error *err) {
    pm_progress_stage("loading the key", 0);
    *out = NULL;
    pm_prove_key *k = calloc(1, sizeof *k);
    if (!k) return pm_error_set(err, PM_ERR_NOMEM, key_path, PM_NO_OFFSET, "out of memory");
    k->kind = kind;
    pthread_mutex_init(&k->mu, NULL);
    snprintf(k->path, sizeof k->path, "%s", key_path);
    pm_status st = kind->open_key ? kind->open_key(&k->id, key_path, err) : PM_OK;
    if (!st && kind->conv == GROTH16_SNARKJS) {
        if (!(st = zkey_read(&k->zk, key_path, ZKEY_SKIP_COEFS_LIST, err)) &&
            !(st = groth16_key_from_zkey(&k->view, &k->zk, NULL, 1, err))) {
            k->vk = k->view.vk; /* ic borrowed from the zkey */
            zkey_info_t h = {.n_vars = k->zk.n_vars, .n_public = k->zk.n_public, .domain_size = k->zk.domain_size,
                             .n_coefs = (uint32_t)(k->zk.A_dom.nnz + k->zk.B_dom.nnz)};
            k->resident_bytes = zkey_resident_bytes(&h, ZKEY_SKIP_COEFS_LIST) +
                                groth16_key_view_bytes(GROTH16_SNARKJS, k->view.n_vars, k->view.domain);
        }
    } else if (!st) {
        uint64_t circuit = 0;
        if (!(st = key_io_hint(params_read(&k->bp, key_path, 0, err), kind, key_path, err))) {
            pm_progress_stage("loading the recorded circuit", 0);
            st = kind->circuit ? kind->circuit(&k->circ, &circuit, k->id, key_path, csr_path, err)
                               : pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "kind %s has no circuit", kind->name);
        }
        if (!st && k->circ.cs->n_wires != k->bp.vk.n_ic + k->bp.n_l)
            st = pm_error_set(err, PM_ERR_MISMATCH, key_path, PM_NO_OFFSET,
                              "parameters have %zu wires, the recorded circuit %u", k->bp.vk.n_ic + k->bp.n_l,
                              k->circ.cs->n_wires);
        if (!st) st = groth16_key_from_params(&k->view, &k->bp, k->circ.cs, err);
        if (!st) { /* the verifying key: the .vk beside the parameters, else their own */
            char vkp[4200];
            bp_vk_t vk = {0};
            if (!pm_key_path_beside(vkp, sizeof vkp, key_path, ".vk") && access(vkp, R_OK) == 0) {
                st = params_vk_read(&vk, vkp, 0, err);
                if (!st) st = params_vk_to_groth16_vk(&k->vk, &vk, err);
                params_vk_free(&vk);
            } else {
                st = params_vk_to_groth16_vk(&k->vk, &k->bp.vk, err);
            }
            k->own_vk = !st;
        }
        if (!st) {
            k->bases_bytes = (k->bp.n_h + k->bp.n_l + k->bp.n_a + k->bp.n_b_g1) * sizeof(g1_affine_t) +
                             k->bp.n_b_g2 * sizeof(g2_affine_t);
            /* the view's domain is not built yet: pm_prove_key_host_bytes counts it */
            k->resident_bytes = k->bases_bytes + k->bp.vk.n_ic * sizeof(g1_affine_t) + circuit +
                                groth16_key_view_bytes(GROTH16_BELLPERSON, k->view.n_vars, k->view.domain) -
                                groth16_key_domain_bytes(k->view.domain);
        }
    }
    if (st) {
        pm_prove_key_free(k);
        return st;
    }
    k->view.progress = pm_progress_bound(); /* its device copies' first uploads report there */
    *out = k;
    return PM_OK;
}

/* the view's pointers to the parameters' bases (NULL while released) */
static void point_view_at_bases(pm_prove_key *k) {
    k->view.base[GROTH16_BASE_A] = k->bp.a;
    k->view.base[GROTH16_BASE_B1] = k->bp.b_g1;
    k->view.base[GROTH16_BASE_C] = k->bp.l;
    k->view.base[GROTH16_BASE_H] = k->bp.h;
    k->view.b2 = k->bp.b_g2;
}

int pm_prove_key_release_host_bases(pm_prove_key *k, const int *devices, size_t n_devices) {
    if (!k || k->view.conv != GROTH16_BELLPERSON) return 0;
    pthread_mutex_lock(&k->mu);
    int done = 0;
    if (!k->bases_released && groth16_key_bases_resident(&k->view, devices, n_devices)) {
        free(k->bp.h), free(k->bp.l), free(k->bp.a), free(k->bp.b_g1), free(k->bp.b_g2);
        k->bp.h = k->bp.l = k->bp.a = k->bp.b_g1 = NULL;
        k->bp.b_g2 = NULL;
        point_view_at_bases(k);
        k->bases_released = 1;
        __atomic_store_n(&k->resident_bytes, k->resident_bytes - k->bases_bytes, __ATOMIC_RELAXED);
        done = 1;
    }
    pthread_mutex_unlock(&k->mu);
    return done;
}

pm_status pm_prove_key_host_bases(pm_prove_key *k, pm_error *err) {
    pthread_mutex_lock(&k->mu);
    pm_status st = PM_OK;
    if (k->bases_released) {
        bp_params_t p;
        if (!(st = params_read(&p, k->path, 0, err))) {
            if (p.n_h != k->bp.n_h || p.n_l != k->bp.n_l || p.n_a != k->bp.n_a || p.n_b_g1 != k->bp.n_b_g1 ||
                p.n_b_g2 != k->bp.n_b_g2 || p.vk.n_ic != k->bp.vk.n_ic) {
                st = pm_error_set(err, PM_ERR_MISMATCH, k->path, PM_NO_OFFSET,
                                  "parameters changed on disk since they were loaded (re-reading the bases "
                                  "released after their upload)");
            } else { /* take the five vectors; the vk (in use by the verifier) stays the loaded one */
                k->bp.h = p.h, k->bp.l = p.l, k->bp.a = p.a, k->bp.b_g1 = p.b_g1, k->bp.b_g2 = p.b_g2;
                p.h = p.l = p.a = p.b_g1 = NULL;
                p.b_g2 = NULL;
                point_view_at_bases(k);
                k->bases_released = 0;
                __atomic_store_n(&k->resident_bytes, k->resident_bytes + k->bases_bytes, __ATOMIC_RELAXED);
            }
            params_free(&p);
        }
    }
    pthread_mutex_unlock(&k->mu);
    return st;
}

int pm_prove_exec_reads_host_bases(const groth16_exec *x, const groth16_key *k) {
    if (!x || !x->ops || x->ops == &groth16_ops_cpu || !x->ops->msm_g1 || !x->ops->msm_g2) return 1;
    return !groth16_key_bases_resident(k, &x->device, 1);
}

uint64_t pm_prove_key_host_bytes(const pm_prove_key *k) {
    uint64_t dom = __atomic_load_n(&k->view.ledger.host_domain, __ATOMIC_RELAXED);
    /* a lazy domain not built yet is counted ahead unless the key's device plan keeps H on the card */
    if (!dom && k->view.dom_lazy && !(k->have_devplan && k->devplan.h == GROTH16_ON_DEVICE))
        dom = groth16_key_domain_bytes(k->view.domain);
    const uint64_t pool = k->have_abc_pool ? (uint64_t)k->abc_pool.cap * k->abc_pool.bytes : 0;
    return __atomic_load_n(&k->resident_bytes, __ATOMIC_RELAXED) +
           __atomic_load_n(&k->view.ledger.host_staging, __ATOMIC_RELAXED) + dom + pool;
}

/* Whether a job plan for key k on card (plan_bellperson: the .params header's counts and the kind's
 * circuit estimate) drops the second witness slot for the host budget: 1 yes, 0 no, -1 when that plan
 * cannot be made here (the key plan then decides alone). The key's device copies then pin the staging
 * the engine's admission counted. */
static int job_plan_one_slot(const pm_prove_key *k, const groth16_devplan_card *card) {
    bp_params_counts_t c;
    pm_error e;
    uint64_t circuit = 0;
    if (params_read_counts(&c, k->path, &e)) return -1;
    if (k->kind->circuit && k->kind->circuit(NULL, &circuit, k->id, k->path, NULL, &e)) return -1;
    groth16_devplan_shape ds;
    pm_prove_devplan_shape_of_counts(&ds, &c, circuit);
    groth16_devplan dp;
    if (groth16_devplan_make(&dp, &ds, card, 0, &e)) return -1;
    return dp.one_slot_for_host;
}

pm_status pm_prove_key_plan(pm_prove_key *k, const groth16_devplan_card *card, pm_error *err) {
    k->have_devplan = 0;
    if (!card) return PM_OK;
    groth16_devplan_shape s;
    groth16_devplan_shape_of_key(&s, &k->view, k->view.conv == GROTH16_BELLPERSON ? gpu_sizes_r1cs(k->view.cs) : 0);
    groth16_devplan_card c = *card;
    int one = -1;
    if (c.host_budget && k->view.conv == GROTH16_BELLPERSON && (one = job_plan_one_slot(k, card)) >= 0) {
        /* the host-budget decision (devplan.h host_budget) as admission made it: a one-worker card's
         * plan when it dropped the second slot, else the budget plays no part */
        c.host_budget = 0;
        if (one) c.workers = 1;
    }
    pm_status st = groth16_devplan_make(&k->devplan, &s, &c, 0, err);
    if (!st && one == 1 && k->devplan.witness_slots == 1) k->devplan.one_slot_for_host = 1;
    if (st) return err_file(err, st, k->path);
    k->devplan_shape = s;
    k->have_devplan = 1;
    if (k->devplan.host_abc_buffers && !k->have_abc_pool &&
        (groth16_devplan_cpu_ops(&k->devplan) & GROTH16_CPU_EVAL)) {
        /* pinned by the table of the first exec that uses it (pm_prove_exec_plan arms it) */
        groth16_abc_pool_init(&k->abc_pool, 3 * k->view.domain * sizeof(fr_t), k->devplan.host_abc_buffers, NULL, NULL);
        k->have_abc_pool = 1;
    }
    return PM_OK;
}

void pm_prove_exec_plan(groth16_exec *x, const pm_prove_key *k) {
    x->plan = k->have_devplan ? &k->devplan : NULL;
    x->cpu_ops = k->have_devplan ? groth16_devplan_cpu_ops(&k->devplan) : 0;
    x->abc_pool = k->have_abc_pool && (x->cpu_ops & GROTH16_CPU_EVAL) ? (groth16_abc_pool *)&k->abc_pool : NULL;
    /* pinned where only the H phase's whole-buffer copies read it (tiers 2-4): with H on the CPU
     * (tier 5) the H MSM copies its scalars out of the buffer in chunks that may span two of its
     * pinned pieces, which the driver refuses, so there it stays malloc'd (still pooled) */
    if (x->abc_pool && x->ops && x->ops->host_alloc && !(x->cpu_ops & GROTH16_CPU_H) && pm_setting_bool("gpu.abc_pinned"))
        groth16_abc_pool_arm(x->abc_pool, x->ops->host_alloc, x->ops->host_free, x->device);
}

void pm_prove_key_close_pool(pm_prove_key *k) {
    if (k && k->have_abc_pool) groth16_abc_pool_close(&k->abc_pool);
}

/* ---------------------------------------------------------------- partitions */

void pm_prove_part_free(pm_prove_part *pp) {
    if (!pp) return;
    groth16_pending_free(&pp->pd);
    free(pp->x);
    free(pp->w);
    free(pp);
}

/* err says the partition's constraint row failed: let the kind name it, prefix the partition */
static void name_unsatisfied(pm_error *err, const pm_prove_part *pp, const pm_prove_key *k) {
    if (!err) return;
    if (pp->pd.first_bad != UINT32_MAX && k->kind->name_row && k->view.cs)
        k->kind->name_row(err, k->id, pp->pd.first_bad, k->view.cs->n_constraints);
    char msg[400];
    snprintf(msg, sizeof msg, "%.380s", err->msg);
    pm_error_set(err, PM_ERR_UNSATISFIED, pp->label, PM_NO_OFFSET, "partition %u: %s", pp->part, msg);
}

pm_status pm_prove_synthesize(pm_prove_part **out, const pm_prove_key *k, const void *job, const pm_input *in,
                              size_t n_in, uint32_t part, const groth16_exec *x, unsigned witness_threads,
                              pm_error *err) {
    *out = NULL;
    const groth16_exec cpu = {.ops = &groth16_ops_cpu};
    if (!x) x = &cpu;
    pm_prove_part *pp = calloc(1, sizeof *pp);
    if (!pp) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    pp->part = part;
    pp->key = k;
    pp->pd.first_bad = UINT32_MAX;
    /* errors name the partition's own main input when there is one per partition (snarkjs), else
     * the job's first (a C1 holds every partition) */
    size_t n_main = 0, first = n_in, mine = n_in;
    for (size_t i = 0; i < n_in; i++)
        if (pm_kind_input_role(k->kind, in[i].name) == 1) {
            if (first == n_in) first = i;
            if (n_main++ == part) mine = i;
        }
    size_t li = n_main == k->kind->partitions(job) && mine < n_in ? mine : first;
    if (li < n_in) {
        char buf[64];
        snprintf(pp->label, sizeof pp->label, "%s", pm_input_label(buf, sizeof buf, &in[li], li));
    }
    fr_t *w = NULL;
    size_t n_w = 0;
    double t0 = pm_now_s();
    pm_status st = k->kind->witness(&w, &n_w, k->id, job, part, witness_threads, err);
    double t1 = pm_now_s();
    pp->t_witness = t1 - t0;
    pp->n_x = k->view.n_public;
    if (!st && !(pp->x = malloc((pp->n_x ? pp->n_x : 1) * sizeof *pp->x)))
        st = pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "public inputs");
    if (!st && n_w != k->view.n_vars)
        st = pm_error_set(err, PM_ERR_MISMATCH, pp->label, PM_NO_OFFSET,
                          k->view.conv == GROTH16_SNARKJS
                              ? "witness has %zu values, zkey expects nVars = %zu (a witness for another circuit?)"
                              : "witness has %zu values, the recorded circuit %zu wires",
                          n_w, k->view.n_vars);
    if (!st) { /* the verifier's public inputs (checked against the witness by the kind), or the witness's */
        if (k->kind->public_inputs) st = k->kind->public_inputs(pp->x, pp->n_x, k->id, job, part, w, n_w, err);
        else memcpy(pp->x, w + 1, pp->n_x * sizeof *pp->x);
    }
    pp->t_check = pm_now_s() - t1;
    groth16_prove_opts_t opts = {.threads = x->threads, .wtns_name = pp->label, .key_name = k->path,
                                 .skip_self_check = k->view.conv != GROTH16_SNARKJS};
    if (!st) st = groth16_pending_init_key(&pp->pd, &k->view, w, n_w, &opts, err);
    /* the eval here (the CPU's) unless the table evaluates on its device in pm_prove_start, which
     * then needs the witness; a table that stages it (its device copy) needs it there too */
    const int dev_eval = groth16_exec_evaluates(x, &k->view);
    if (!st && !dev_eval) st = groth16_start_eval(&pp->pd, w, n_w, x, err);
    if (st == PM_ERR_UNSATISFIED) name_unsatisfied(err, pp, k);
    if (!st && (dev_eval || groth16_exec_device_witness(x, &k->view))) {
        pp->w = w, pp->n_w = n_w;
        w = NULL;
    }
    free(w);
    if (st) {
        pm_prove_part_free(pp);
        return st;
    }
    *out = pp;
    return PM_OK;
}

pm_status pm_prove_stage(pm_prove_part *pp, const groth16_exec *x, pm_error *err) {
    const groth16_exec cpu = {.ops = &groth16_ops_cpu};
    if (!x) x = &cpu;
    if (!pp->w || pp->pd.staged || !groth16_exec_stages(x)) return PM_OK;
    double t0 = pm_now_s();
    pm_status st = groth16_start_stage(&pp->pd, pp->w, pp->n_w, x, err);
    pp->t_prove += pm_now_s() - t0;
    if (st) pm_prove_part_free(pp);
    return st;
}

pm_status pm_prove_start(pm_prove_part *pp, const groth16_exec *x, pm_error *err) {
    const groth16_exec cpu = {.ops = &groth16_ops_cpu};
    if (!x) x = &cpu;
    pm_prove_key *k = (pm_prove_key *)pp->key; /* its bases: released / re-read under k->mu */
    pm_status st;
    if (__atomic_load_n(&k->bases_released, __ATOMIC_ACQUIRE) && pm_prove_exec_reads_host_bases(x, &k->view) &&
        (st = pm_prove_key_host_bases(k, err))) {
        pm_prove_part_free(pp);
        return st;
    }
    st = pm_prove_stage(pp, x, err); /* frees pp on error */
    if (st) return st;
    double t0 = pm_now_s();
    if (!pp->pd.evaluated) { /* the table's own (device) eval */
        st = groth16_start_eval(&pp->pd, pp->w, pp->n_w, x, err);
        if (st == PM_ERR_UNSATISFIED) name_unsatisfied(err, pp, pp->key);
    }
    if (x->defer_free) groth16_pending_spend(&pp->pd, pp->w); /* freed after the caller's kernel region */
    else free(pp->w);
    pp->w = NULL;
    if (!st && (st = groth16_start_finish(&pp->pd, x, err)) == PM_ERR_UNSATISFIED) name_unsatisfied(err, pp, pp->key);
    pp->t_prove += pm_now_s() - t0;
    if (st) pm_prove_part_free(pp);
    return st;
}

void pm_prove_proof_free(pm_prove_proof *p) {
    if (!p) return;
    free(p->x);
    free(p);
}

pm_status pm_prove_finalize(pm_prove_proof **out, pm_prove_part *pp, const fr_t *r, const fr_t *s, unsigned threads,
                            pm_error *err) {
    *out = NULL;
    double t0 = pm_now_s();
    pm_prove_proof *o = calloc(1, sizeof *o);
    pm_status st = o ? PM_OK : pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "proof");
    pp->pd.threads = threads;
    if (!st) st = groth16_finalize(&o->proof, &pp->pd, r, s, err);
    /* a recorded circuit mapped from its .csr that shrank on disk since it was opened: the matrices
     * this proof was evaluated with hold zero pages (util/file.h's SIGBUS guard) */
    st = pm_csr_settle(&pp->key->circ.file, st, err);
    if (!st) {
        o->part = pp->part;
        o->key = pp->key;
        o->x = pp->x, o->n_x = pp->n_x;
        pp->x = NULL;
        o->t_witness = pp->t_witness;
        o->t_check = pp->t_check;
        o->t_prove = pp->t_prove + pm_now_s() - t0;
        *out = o;
        o = NULL;
    }
    free(o);
    pm_prove_part_free(pp);
    return st;
}

pm_status pm_prove_verify(const pm_prove_proof *p, pm_error *err) {
    const groth16_vk_t *vk = &p->key->vk;
    if (vk->n_public != p->n_x)
        return pm_error_set(err, PM_ERR_MISMATCH, "vk", PM_NO_OFFSET, "vk has %zu public inputs, the circuit %zu",
                            vk->n_public, p->n_x);
    int valid = 0;
    pm_status st = groth16_verify(&valid, vk, p->x, p->n_x, &p->proof, "proof", "public", err);
    if (!st && !valid) { /* the witness was checked (the kind's synthesis, every row): the key is at fault */
        char detail[200];
        snprintf(detail, sizeof detail, "partition %u, verified with %s", p->part,
                 p->key->view.conv == GROTH16_SNARKJS ? "the zkey's own key" : p->key->own_vk ? "the .vk beside it" : "its own vk");
        st = groth16_key_inconsistent(&p->key->view, vk, p->key->path, detail, err);
    }
    return st;
}

void pm_prove_proof_bytes(uint8_t out[192], const pm_prove_proof *p) { groth16_proof_to_bytes(out, &p->proof); }

char *pm_prove_proof_json(const pm_prove_proof *p) {
    if (p->key->view.conv == GROTH16_SNARKJS) {
        char *pj = groth16_proof_to_json(&p->proof);
        char *xj = groth16_public_to_json(p->x, p->n_x);
        char *out = NULL;
        if (pj && xj) {
            size_t n = strlen(pj) + strlen(xj) + 32;
            out = malloc(n);
            if (out) snprintf(out, n, "{\"proof\":%s,\"public\":%s}", pj, xj);
        }
        free(pj);
        free(xj);
        return out;
    }
    static const char hx[] = "0123456789abcdef";
    uint8_t b[192];
    pm_prove_proof_bytes(b, p);
    char *s = malloc(64 + 2 * 192);
    if (!s) return NULL;
    int n = sprintf(s, "{\"partition\":%u,\"proof\":\"", p->part);
    for (int i = 0; i < 192; i++) {
        s[n++] = hx[b[i] >> 4];
        s[n++] = hx[b[i] & 15];
    }
    strcpy(s + n, "\"}");
    return s;
}

pm_status pm_prove_blinding_draw(fr_t *r, fr_t *s, const pm_prove_blinding *b, uint32_t part, pm_error *err) {
    if (b && b->fixed_r && b->fixed_s) {
        *r = *b->fixed_r;
        *s = *b->fixed_s;
        return PM_OK;
    }
    if (b && b->seed) {
        groth16_seeded_scalars(r, s, *b->seed + part);
        return PM_OK;
    }
    pm_status st = groth16_random_scalar(r, err);
    return st ? st : groth16_random_scalar(s, err);
}

/* ---------------------------------------------------------------- the driver */

pm_status pm_prove_job(pm_prove_proof ***proofs, uint32_t *n, const pm_prove_key *k, const void *job,
                       const pm_input *in, size_t n_in, const pm_prove_opts *o, pm_prove_timings *tm, pm_error *err) {
    *proofs = NULL;
    *n = 0;
    if (tm) memset(tm, 0, sizeof *tm);
    const pm_prove_opts defaults = {0};
    if (!o) o = &defaults;
    const uint32_t all = k->kind->partitions(job);
    uint32_t first = 0, np = all;
    if (o->only_partition) {
        if (*o->only_partition >= all)
            return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "partition %u: the job has partitions 0..%u",
                                *o->only_partition, all ? all - 1 : 0);
        first = *o->only_partition;
        np = 1;
    }
    pm_prove_proof **out = calloc(np ? np : 1, sizeof *out);
    if (!out) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    pm_status st = PM_OK;
    for (uint32_t i = 0; i < np && !st; i++) {
        const uint32_t part = first + i;
        pm_prove_part *pp = NULL;
        pm_progress_item("partition", part, all);
        pm_progress_stage("witness synthesis", 0);
        fr_t r, s;
        if ((st = pm_prove_synthesize(&pp, k, job, in, n_in, part, o->exec, o->witness_threads, err))) break;
        if ((st = pm_prove_start(pp, o->exec, err))) break;
        if ((st = pm_prove_blinding_draw(&r, &s, &o->blinding, part, err))) {
            pm_prove_part_free(pp);
            break;
        }
        st = pm_prove_finalize(&out[i], pp, &r, &s, o->finalize_threads, err);
        memset(&r, 0, sizeof r);
        memset(&s, 0, sizeof s);
        if (st) break;
        double t0 = pm_now_s();
        pm_progress_stage("verify", 0);
        st = pm_prove_verify(out[i], err);
        if (tm) {
            tm->witness += out[i]->t_witness;
            tm->check += out[i]->t_check;
            tm->prove += out[i]->t_prove;
            tm->verify += pm_now_s() - t0;
        }
    }
    if (st) {
        for (uint32_t i = 0; i < np; i++) pm_prove_proof_free(out[i]);
        free(out);
        return st;
    }
    *proofs = out;
    *n = np;
    return PM_OK;
}
