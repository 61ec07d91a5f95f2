/*
 * backend_groth16.c — snarkjs front end (.zkey + .wtns) over the CPU Groth16 prover.
 * Contract: backend_groth16.h. Sizes below are upper bounds used by the engine's memory budget.
 */
#include "engine/backend_groth16.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "groth16/proof_json.h"
#include "groth16/prover.h"
#include "groth16/verifier.h"
#include "groth16/zkey.h"
#include "msm/msm.h"
#include "ntt/ntt.h"
#include "r1cs/wtns.h"
#include "util/file.h"

#ifdef PROOFMILL_HAVE_GPU
#include "gpu/gpu.h"
#define G16_MAX_GPU 64
/* One device's copy of a key: the four G1 bases of the start phase and the NTT domain. Touched only
 * inside that device's kernel region (the engine's per-device lock), so it needs no lock of its own. */
typedef struct {
    int ready;
    gpu_g1_bases *a, *b1, *c, *h;
    gpu_ntt_domain *dom;
} g16_gpu_dev;
#endif

typedef struct {
    unsigned start_threads, finalize_threads;
    int fixed_rs;
    fr_t r, s;
} g16_backend;

/* What synthesis hands to the GPU stage: the witness and a, b on the domain. */
typedef struct {
    wtns_t w;
    fr_t *ab; /* 2N: a then b, Montgomery */
} g16_prepared;

typedef struct {
    zkey_t zk;
    ntt_domain_t dom;
    groth16_vk_t vk; /* ic borrowed from zk.ic: never groth16_vk_free'd */
#ifdef PROOFMILL_HAVE_GPU
    g16_gpu_dev gpu[G16_MAX_GPU]; /* by device id, uploaded on first use */
#endif
} g16_key;

typedef struct {
    groth16_pending_t p;
} g16_pending;

typedef struct {
    groth16_proof_t proof;
    fr_t *pub; /* n_pub public signals, Montgomery */
    size_t n_pub;
} g16_proof;

#define MIB (1ull << 20)

/* ---- plan: headers only ---- */

typedef struct {
    uint32_t n_vars, n_public, domain_size;
    uint64_t n_coefs;
    uint64_t file_bytes;
} zkey_header;

/* Read section 2's counts (and section 4's coefficient count) of a .zkey without decoding points. */
static pm_status read_zkey_header(zkey_header *h, const char *path, pm_error *err) {
    pm_binfile bf;
    pm_status st = pm_binfile_open(&bf, path, "zkey", 1, err);
    if (st) return st;
    pm_reader r;
    uint32_t n8q = 0, n8r = 0;
    const uint8_t *skip;
    if ((st = pm_binfile_section_reader(&r, &bf, 1, "zkey section 1 (protocol)", err))) goto out;
    uint32_t protocol = 0;
    if ((st = pm_reader_u32(&r, &protocol, "zkey section 1: protocol", err))) goto out;
    if (protocol != 1) {
        st = pm_error_set(err, PM_ERR_FORMAT, path, r.pos - 4, "not a groth16 zkey (protocol %u)", protocol);
        goto out;
    }
    if ((st = pm_binfile_section_reader(&r, &bf, 2, "zkey section 2 (groth16 header)", err))) goto out;
    if ((st = pm_reader_u32(&r, &n8q, "zkey section 2: n8q", err))) goto out;
    if (n8q != 48) {
        st = pm_error_set(err, PM_ERR_CURVE, path, r.pos - 4, "n8q = %u: not a BLS12-381 key", n8q);
        goto out;
    }
    if ((st = pm_reader_bytes(&r, &skip, n8q, "zkey section 2: q", err))) goto out;
    if ((st = pm_reader_u32(&r, &n8r, "zkey section 2: n8r", err))) goto out;
    if (n8r != 32) {
        st = pm_error_set(err, PM_ERR_CURVE, path, r.pos - 4, "n8r = %u: not a BLS12-381 key", n8r);
        goto out;
    }
    if ((st = pm_reader_bytes(&r, &skip, n8r, "zkey section 2: r", err))) goto out;
    if ((st = pm_reader_u32(&r, &h->n_vars, "zkey section 2: nVars", err))) goto out;
    if ((st = pm_reader_u32(&r, &h->n_public, "zkey section 2: nPublic", err))) goto out;
    if ((st = pm_reader_u32(&r, &h->domain_size, "zkey section 2: domainSize", err))) goto out;
    const pm_section *s4 = pm_binfile_find(&bf, 4);
    h->n_coefs = s4 && s4->size >= 4 ? (s4->size - 4) / 44 : 0;
    h->file_bytes = bf.file.size;
out:
    pm_binfile_close(&bf);
    return st;
}

/* nWitness of a .wtns image (path or memory). */
static pm_status read_wtns_count(uint32_t *n_witness, const pm_input *in, const char *name, pm_error *err) {
    pm_binfile bf;
    pm_status st = in->kind == PM_INPUT_WTNS_PATH
                       ? pm_binfile_open(&bf, in->path, "wtns", 2, err)
                       : pm_binfile_open_memory(&bf, in->bytes, in->len, name, "wtns", 2, err);
    if (st) return st;
    pm_reader r;
    uint32_t n8 = 0;
    const uint8_t *skip;
    if ((st = pm_binfile_section_reader(&r, &bf, 1, "wtns section 1 (header)", err))) goto out;
    if ((st = pm_reader_u32(&r, &n8, "wtns section 1: n8", err))) goto out;
    if (n8 != 32) {
        st = pm_error_set(err, PM_ERR_CURVE, name, r.pos - 4, "n8 = %u: not a BLS12-381 witness", n8);
        goto out;
    }
    if ((st = pm_reader_bytes(&r, &skip, n8, "wtns section 1: prime", err))) goto out;
    st = pm_reader_u32(&r, n_witness, "wtns section 1: nWitness", err);
out:
    pm_binfile_close(&bf);
    return st;
}

static uint64_t key_resident_estimate(const zkey_header *h) {
    uint64_t g1 = sizeof(g1_affine_t), g2 = sizeof(g2_affine_t), fr = sizeof(fr_t);
    uint64_t pts = (uint64_t)(h->n_public + 1) * g1 + (uint64_t)h->n_vars * (2 * g1 + g2) +
                   (uint64_t)(h->n_vars - (h->n_vars > h->n_public ? h->n_public + 1 : 0)) * g1 +
                   (uint64_t)h->domain_size * g1;
    uint64_t csr = h->n_coefs * (fr + 4) + 2 * ((uint64_t)h->domain_size + 1) * 8;
    uint64_t ntt = 2 * (uint64_t)h->domain_size * fr;
    return pts + csr + ntt + MIB;
}

static pm_status g16_plan(void *self, const char *key_path, const pm_input *in, size_t n_in,
                          pm_job_plan *plan, pm_error *err) {
    g16_backend *b = self;
    zkey_header h = {0};
    pm_status st = read_zkey_header(&h, key_path, err);
    if (st) return st;
    for (size_t i = 0; i < n_in; i++) {
        char name[64];
        snprintf(name, sizeof name, "inputs[%zu]", i);
        if (in[i].kind == PM_INPUT_WTNS_PATH) {
            if (!in[i].path || !in[i].path[0])
                return pm_error_set(err, PM_ERR_ARG, name, PM_NO_OFFSET, "empty witness path");
        } else if (in[i].kind == PM_INPUT_WTNS_BYTES) {
            if (!in[i].bytes || !in[i].len)
                return pm_error_set(err, PM_ERR_ARG, name, PM_NO_OFFSET, "empty witness bytes");
        } else {
            return pm_error_set(err, PM_ERR_ARG, name, PM_NO_OFFSET,
                                "input kind %d is not a snarkjs witness", (int)in[i].kind);
        }
        uint32_t nw = 0;
        pm_error werr;
        pm_error_clear(&werr);
        st = read_wtns_count(&nw, &in[i], name, &werr);
        if (st) {
            if (err) {
                *err = werr;
                if (in[i].kind == PM_INPUT_WTNS_BYTES) snprintf(err->file, sizeof err->file, "%s", name);
            }
            return st;
        }
        if (nw != h.n_vars)
            return pm_error_set(err, PM_ERR_MISMATCH, in[i].kind == PM_INPUT_WTNS_PATH ? in[i].path : name,
                                PM_NO_OFFSET,
                                "witness has %u values, zkey expects nVars = %u (a witness for another circuit?)",
                                nw, h.n_vars);
    }
    uint64_t fr = sizeof(fr_t);
    zkey_t shape = {.n_vars = h.n_vars ? h.n_vars : 1, .n_public = h.n_public, .domain_size = h.domain_size};
    if (shape.n_public + 1 > shape.n_vars) shape.n_public = shape.n_vars - 1;
    plan->n_partitions = (uint32_t)n_in;
    plan->key_bytes = key_resident_estimate(&h);
    plan->key_load_bytes = h.file_bytes; /* zkey_read maps and touches the whole file while decoding */
    /* witness (Montgomery) + its plain copy + a, b (2N) + the start scratch (N more for H, MSM
     * buckets), the prover's own query; 1 MiB for allocator rounding and small objects */
    plan->part_peak_bytes = 2 * (uint64_t)h.n_vars * fr + groth16_start_scratch_size(&shape, b->start_threads) + MIB;
    /* plain witness + the G2 MSM scratch of finalize */
    plan->part_pending_bytes = (uint64_t)h.n_vars * fr +
                               groth16_finalize_scratch_size(&shape, b->finalize_threads) + MIB / 4;
    return PM_OK;
}

/* ---- key ---- */

static pm_status g16_load_key(void *self, const char *path, void **key_out, uint64_t *bytes, pm_error *err) {
    g16_key *k = calloc(1, sizeof *k);
    if (!k) return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "out of memory");
    pm_status st = zkey_read(&k->zk, path, ZKEY_SKIP_COEFS_LIST, err);
    if (st) {
        free(k);
        return st;
    }
    st = ntt_domain_init(&k->dom, k->zk.log2_domain, NTT_ROOTS_SNARKJS, err);
    if (st) {
        zkey_free(&k->zk);
        free(k);
        return st;
    }
    k->vk.alpha_1 = k->zk.alpha1;
    k->vk.beta_2 = k->zk.beta2;
    k->vk.gamma_2 = k->zk.gamma2;
    k->vk.delta_2 = k->zk.delta2;
    k->vk.n_public = k->zk.n_public;
    k->vk.ic = k->zk.ic;
    zkey_header h = {.n_vars = k->zk.n_vars, .n_public = k->zk.n_public, .domain_size = k->zk.domain_size,
                     .n_coefs = k->zk.A_dom.nnz + k->zk.B_dom.nnz};
    *bytes = key_resident_estimate(&h);
    *key_out = k;
    return PM_OK;
}

static void g16_free_key(void *self, void *key) {
    g16_key *k = key;
    if (!k) return;
#ifdef PROOFMILL_HAVE_GPU
    for (int d = 0; d < G16_MAX_GPU; d++) {
        g16_gpu_dev *g = &k->gpu[d];
        if (!g->a && !g->b1 && !g->c && !g->h && !g->dom) continue;
        gpu_set_device(d, NULL);
        gpu_g1_bases_free(g->a);
        gpu_g1_bases_free(g->b1);
        gpu_g1_bases_free(g->c);
        gpu_g1_bases_free(g->h);
        gpu_ntt_domain_free(g->dom);
    }
#endif
    ntt_domain_free(&k->dom);
    zkey_free(&k->zk);
    free(k);
}

/* ---- stages ---- */

static void g16_free_prepared(void *self, void *prepared) {
    g16_prepared *pr = prepared;
    if (!pr) return;
    wtns_free(&pr->w);
    free(pr->ab);
    free(pr);
}

/* Synthesis (CPU pool): read the witness, then a = A.w and b = B.w on the domain (zkey section 4 as
 * CSR, row-parallel SpMV). Everything after this point is the device's work. */
static pm_status g16_synthesize(void *self, const void *key, const pm_input *in, size_t n_in, uint32_t part,
                                void **prepared, pm_error *err) {
    const g16_key *k = key;
    if (part >= n_in) return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "no input for partition %u", part);
    g16_prepared *pr = calloc(1, sizeof *pr);
    if (!pr) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    char name[64];
    snprintf(name, sizeof name, "inputs[%u]", part);
    const char *label = in[part].kind == PM_INPUT_WTNS_PATH ? in[part].path : name;
    pm_status st = in[part].kind == PM_INPUT_WTNS_PATH ? wtns_read(&pr->w, in[part].path, err)
                                                       : wtns_read_memory(&pr->w, in[part].bytes, in[part].len, name, err);
    if (st == PM_OK && pr->w.n_values != k->zk.n_vars)
        st = pm_error_set(err, PM_ERR_MISMATCH, label, PM_NO_OFFSET, "witness has %u values, zkey expects nVars = %u",
                          pr->w.n_values, k->zk.n_vars);
    const size_t N = k->zk.domain_size;
    if (st == PM_OK && !(pr->ab = malloc(2 * N * sizeof(fr_t))))
        st = pm_error_set(err, PM_ERR_NOMEM, label, PM_NO_OFFSET, "out of memory for a, b (%zu bytes)", 2 * N * sizeof(fr_t));
    if (st == PM_OK) st = zkey_eval_ab(pr->ab, pr->ab + N, N, &k->zk, pr->w.values, pr->w.n_values, err);
    if (st) {
        g16_free_prepared(self, pr);
        return st;
    }
    *prepared = pr;
    return PM_OK;
}

/* The device's part: H (6 NTTs) and the four G1 MSMs into a groth16_pending_t, the way
 * groth16/prover.h documents for backends that compute the start phase themselves
 * (groth16_pending_init + own MSMs). Host work (plain witness copy, scratch) stays outside the
 * kernel region; the H phase and the MSMs are inside. */
static pm_status g16_gpu_start(void *self, const void *key, void *prepared, pm_gpu_slot *slot, void **pending,
                               pm_error *err) {
    g16_backend *b = self;
    const g16_key *k = key;
    const zkey_t *zk = &k->zk;
    g16_prepared *pr = prepared;
    const size_t N = zk->domain_size, n = zk->n_vars, n_pub = zk->n_public;
    g16_pending *p = calloc(1, sizeof *p);
    const size_t msm_bytes = groth16_start_scratch_size(zk, b->start_threads) - 3 * N * sizeof(fr_t);
    void *scratch = malloc(N * sizeof(fr_t) + msm_bytes);
    pm_status st = PM_OK;
    if (!p || !scratch) st = pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory for the start phase");
    groth16_prove_opts_t opts = {.threads = b->start_threads};
    if (st == PM_OK) st = groth16_pending_init(&p->p, zk, pr->w.values, pr->w.n_values, &opts, err);
    wtns_free(&pr->w); /* the plain copy in the handle is all that is needed from here */
    if (st == PM_OK) {
        fr_t *a = pr->ab, *bv = pr->ab + N, *hs = scratch;
        void *ms = (char *)scratch + N * sizeof(fr_t);
        g1_jac_t tmp;
        pm_gpu_slot_enter(slot);
        st = ntt_snarkjs_h(a, N, a, bv, hs, &k->dom, err); /* P (plain) lands in a */
        if (st == PM_OK)
            st = msm_g1_vartime_with_scratch(&p->p.sum_a, zk->a, p->p.w_plain, n, b->start_threads, ms, msm_bytes);
        if (st == PM_OK)
            st = msm_g1_vartime_with_scratch(&p->p.sum_b1, zk->b1, p->p.w_plain, n, b->start_threads, ms, msm_bytes);
        if (st == PM_OK)
            st = msm_g1_vartime_with_scratch(&p->p.sum_c, zk->c, p->p.w_plain + n_pub + 1, n - n_pub - 1,
                                             b->start_threads, ms, msm_bytes);
        if (st == PM_OK) st = msm_g1_vartime_with_scratch(&tmp, zk->h, a, N, b->start_threads, ms, msm_bytes);
        pm_gpu_slot_leave(slot);
        if (st == PM_OK) g1_jac_add(&p->p.sum_c, &p->p.sum_c, &tmp);
        else if (err && !err->msg[0]) pm_error_set(err, st, NULL, PM_NO_OFFSET, "start phase failed (%s)", pm_status_name(st));
    }
    free(scratch);
    g16_free_prepared(self, pr);
    if (st) {
        if (p) groth16_pending_free(&p->p);
        free(p);
        return st;
    }
    *pending = p;
    return PM_OK;
}

#ifdef PROOFMILL_HAVE_GPU
/* Upload key k to device dev (inside its kernel region). */
static pm_status g16_gpu_ensure(g16_key *k, int dev, pm_error *err) {
    g16_gpu_dev *g = &k->gpu[dev];
    if (g->ready) return PM_OK;
    const zkey_t *zk = &k->zk;
    const size_t n = zk->n_vars, nc = zk->n_vars - zk->n_public - 1;
    /* after a failure (e.g. device memory) the next partition retries only what is missing */
    pm_status st = g->a ? PM_OK : gpu_g1_bases_upload(&g->a, zk->a, n, err);
    if (st == PM_OK && !g->b1) st = gpu_g1_bases_upload(&g->b1, zk->b1, n, err);
    if (st == PM_OK && !g->c) st = gpu_g1_bases_upload(&g->c, zk->c, nc, err);
    if (st == PM_OK && !g->h) st = gpu_g1_bases_upload(&g->h, zk->h, zk->domain_size, err);
    if (st == PM_OK && !g->dom) st = gpu_ntt_domain_init(&g->dom, zk->log2_domain, NTT_ROOTS_SNARKJS, err);
    if (st == PM_OK) g->ready = 1;
    return st; /* partial uploads stay (freed with the key) */
}

/* The device's part on a CUDA device: the H phase (gpu_snarkjs_h, result left on the device) and the
 * four G1 MSMs (gpu_msm_g1, the H MSM reading its scalars from the device), inside the kernel region;
 * the plain witness copy outside. Same pending handle as the CPU path, same finalize. */
static pm_status g16_gpu_start_cuda(void *self, const void *key, void *prepared, pm_gpu_slot *slot, void **pending,
                                    pm_error *err) {
    g16_key *k = (g16_key *)key; /* per-device state is mutated under the device lock only */
    const zkey_t *zk = &k->zk;
    g16_prepared *pr = prepared;
    const size_t N = zk->domain_size, n = zk->n_vars, n_pub = zk->n_public;
    int dev = pm_gpu_slot_device(slot);
    g16_pending *p = calloc(1, sizeof *p);
    pm_status st = PM_OK;
    if (!p) st = pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    if (st == PM_OK && (dev < 0 || dev >= G16_MAX_GPU))
        st = pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "device id %d out of range (0..%d)", dev, G16_MAX_GPU - 1);
    if (st == PM_OK) st = groth16_pending_init(&p->p, zk, pr->w.values, pr->w.n_values, NULL, err);
    wtns_free(&pr->w);
    if (st == PM_OK) st = gpu_set_device(dev, err);
    if (st == PM_OK) {
        fr_t *a = pr->ab, *bv = pr->ab + N;
        const void *p_dev = NULL;
        g1_jac_t tmp;
        pm_gpu_slot_enter(slot);
        st = g16_gpu_ensure(k, dev, err);
        if (st == PM_OK) st = gpu_snarkjs_h(a, N, a, bv, k->gpu[dev].dom, &p_dev, err);
        if (st == PM_OK) st = gpu_msm_g1(&p->p.sum_a, k->gpu[dev].a, 0, p->p.w_plain, n, 0, err);
        if (st == PM_OK) st = gpu_msm_g1(&p->p.sum_b1, k->gpu[dev].b1, 0, p->p.w_plain, n, 0, err);
        if (st == PM_OK)
            st = gpu_msm_g1(&p->p.sum_c, k->gpu[dev].c, 0, p->p.w_plain + n_pub + 1, n - n_pub - 1, 0, err);
        if (st == PM_OK) st = gpu_msm_g1(&tmp, k->gpu[dev].h, 0, p_dev, N, GPU_MSM_SCALARS_DEVICE, err);
        pm_gpu_slot_leave(slot);
        if (st == PM_OK) g1_jac_add(&p->p.sum_c, &p->p.sum_c, &tmp);
    }
    g16_free_prepared(self, pr);
    if (st) {
        if (p) groth16_pending_free(&p->p);
        free(p);
        return st;
    }
    *pending = p;
    return PM_OK;
}
#endif

static void g16_free_pending(void *self, void *pending) {
    g16_pending *p = pending;
    if (!p) return;
    groth16_pending_free(&p->p);
    free(p);
}

static pm_status g16_finalize(void *self, const void *key, void *pending, void **proof_out, pm_error *err) {
    g16_backend *b = self;
    const g16_key *k = key;
    g16_pending *p = pending;
    g16_proof *pf = calloc(1, sizeof *pf);
    size_t n_pub = k->zk.n_public;
    fr_t *pub = calloc(n_pub ? n_pub : 1, sizeof *pub);
    pm_status st = PM_OK;
    if (!pf || !pub) st = pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    fr_t r, s;
    if (b->fixed_rs) {
        r = b->r;
        s = b->s;
    } else {
        if (st == PM_OK) st = groth16_random_scalar(&r, err);
        if (st == PM_OK) st = groth16_random_scalar(&s, err);
    }
    if (st == PM_OK) {
        for (size_t i = 0; i < n_pub && i + 1 < p->p.n_vars; i++) fr_to_mont(&pub[i], &p->p.w_plain[1 + i]);
        p->p.threads = b->finalize_threads;
        st = groth16_prove_finalize(&pf->proof, &p->p, &r, &s, err);
    }
    g16_free_pending(self, p);
    if (st) {
        free(pf);
        free(pub);
        return st;
    }
    pf->pub = pub;
    pf->n_pub = n_pub;
    *proof_out = pf;
    return PM_OK;
}

static pm_status g16_verify(void *self, const void *key, const void *proof, pm_error *err) {
    const g16_key *k = key;
    const g16_proof *pf = proof;
    int valid = 0;
    pm_status st = groth16_verify(&valid, &k->vk, pf->pub, pf->n_pub, &pf->proof, "proof", "public", err);
    if (st) return st;
    if (!valid) {
        if (err && err->code == PM_OK) err->code = PM_ERR_INTERNAL;
        return err && err->code ? err->code : PM_ERR_INTERNAL;
    }
    return PM_OK;
}

static char *g16_proof_json(void *self, const void *proof) {
    const g16_proof *pf = proof;
    char *pj = groth16_proof_to_json(&pf->proof);
    char *xj = groth16_public_to_json(pf->pub, pf->n_pub);
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

static void g16_free_proof(void *self, void *proof) {
    g16_proof *pf = proof;
    if (!pf) return;
    free(pf->pub);
    free(pf);
}

static void g16_destroy(void *self) { free(self); }

pm_status pm_backend_groth16_cpu(pm_backend *be, const pm_groth16_backend_opts *opts, pm_error *err) {
    memset(be, 0, sizeof *be);
    g16_backend *b = calloc(1, sizeof *b);
    if (!b) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    b->start_threads = opts ? opts->start_threads : 0;
    b->finalize_threads = opts && opts->finalize_threads ? opts->finalize_threads : 1;
    if (opts && opts->fixed_r && opts->fixed_s) {
        b->fixed_rs = 1;
        b->r = *opts->fixed_r;
        b->s = *opts->fixed_s;
    }
    be->name = "groth16-cpu";
    be->self = b;
    be->plan = g16_plan;
    be->load_key = g16_load_key;
    be->free_key = g16_free_key;
    be->synthesize = g16_synthesize;
    be->gpu_start = g16_gpu_start;
    be->finalize = g16_finalize;
    be->verify = g16_verify;
    be->proof_json = g16_proof_json;
    be->free_prepared = g16_free_prepared;
    be->free_pending = g16_free_pending;
    be->free_proof = g16_free_proof;
    be->destroy = g16_destroy;
    return PM_OK;
}

pm_status pm_backend_groth16_gpu(pm_backend *be, const pm_groth16_backend_opts *opts, pm_error *err) {
#ifdef PROOFMILL_HAVE_GPU
    if (gpu_available() <= 0) {
        memset(be, 0, sizeof *be);
        return pm_error_set(err, PM_ERR_GPU, NULL, PM_NO_OFFSET, "no usable CUDA device (driver or GPU missing)");
    }
    pm_status st = pm_backend_groth16_cpu(be, opts, err);
    if (st) return st;
    be->name = "groth16-cuda";
    be->gpu_start = g16_gpu_start_cuda;
    return PM_OK;
#else
    (void)opts;
    memset(be, 0, sizeof *be);
    return pm_error_set(err, PM_ERR_GPU, NULL, PM_NO_OFFSET, "this build has no CUDA backend (PROOFMILL_CUDA=OFF or no nvcc)");
#endif
}
