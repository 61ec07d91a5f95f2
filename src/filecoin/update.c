/*
 * update.c — SnapDeals (EmptySectorUpdate) vanilla side (update.h).
 */
#include "filecoin/update.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/bincode.h"
#include "filecoin/bucket_tree.h"
#include "filecoin/seal.h"
#include "filecoin/sha256_fr.h"
#include "filecoin/proof_request.h"
#include "filecoin/sizes.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

static const fil_registered_update_t UPDATES[FIL_REGISTERED_UPDATE_COUNT] = {
    {0, "StackedDrg2KiBV1", 2 * KiB},   {1, "StackedDrg8MiBV1", 8 * MiB},   {2, "StackedDrg512MiBV1", 512 * MiB},
    {3, "StackedDrg32GiBV1", 32 * GiB}, {4, "StackedDrg64GiBV1", 64 * GiB},
};

const fil_registered_update_t *fil_registered_update(unsigned id) {
    return id < FIL_REGISTERED_UPDATE_COUNT ? &UPDATES[id] : NULL;
}

static unsigned log2u(uint64_t x) {
    unsigned k = 0;
    while ((1ull << k) < x) k++;
    return k;
}

pm_status fil_update_config(fil_update_config_t *c, uint64_t sector_size, pm_error *err) {
    memset(c, 0, sizeof *c);
    const fil_sector_info_t *si = fil_sector_info(sector_size);
    /* constants.rs ALLOWED_SECTOR_SIZES: 1, 2, 4, 8, 16, 32 KiB, 8, 16, 512 MiB, 32, 64 GiB */
    if (!si || sector_size == 1 * GiB)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "SnapDeals: unsupported sector size %llu",
                            (unsigned long long)sector_size);
    uint64_t N = si->nodes;
    c->sector_size = sector_size;
    c->nodes = N;
    c->challenge_bits = log2u(N);
    c->partitions = N <= (1u << 8) ? 1 : N <= (1u << 10) ? 2 : N <= (1u << 19) ? 4 : 16;
    c->partition_bits = log2u(c->partitions);
    c->challenges = N <= (1u << 19) ? 10 : 86;
    c->apex_leaves = N <= (1u << 8) ? 8 : 128;
    c->apex_bits = log2u(c->apex_leaves);
    for (unsigned i = 0; i < FIL_UPDATE_NUM_HS; i++) c->hs[i] = N <= (1u << 10) ? 1 : 7 + i;
    c->h = c->hs[3]; /* h_default */
    c->h_select = 1u << 3;
    c->rand_bits = c->challenge_bits - c->partition_bits;
    c->challenges_per_digest = 254 / c->rand_bits; /* Fr::CAPACITY / bits */
    c->digests = (c->challenges + c->challenges_per_digest - 1) / c->challenges_per_digest;
    pm_status st = fil_tree_shape_init(&c->tree_r, N, FIL_HASHER_POSEIDON, FIL_BASE_ARITY, si->sub_arity,
                                       si->top_arity, err);
    if (!st) st = fil_tree_shape_init(&c->tree_d, N, FIL_HASHER_SHA256, 2, 0, 0, err);
    return st;
}

/* ---------------------------------------------------------------- randomness */
static fil_poseidon_t g_gr;
static int g_gr_ok;
static pthread_once_t g_gr_once = PTHREAD_ONCE_INIT;

static void gr_init(void) {
    const fil_poseidon_t *c = fil_poseidon_constants(2);
    if (!c) return;
    g_gr = *c;
    fr_from_u64(&g_gr.domain_tag, 1ull << 40); /* neptune CType::Arbitrary(1): 1 · 2^40 */
    g_gr_ok = 1;
}

const fil_poseidon_t *fil_poseidon_constants_gen_randomness(void) {
    pthread_once(&g_gr_once, gr_init);
    return g_gr_ok ? &g_gr : NULL;
}

static void hash_gr(fr_t *out, const fr_t *a, const fr_t *b) {
    fr_t in[2] = {*a, *b};
    fil_poseidon_hash(out, fil_poseidon_constants_gen_randomness(), in);
}

pm_status fil_update_phi(uint8_t phi[32], const uint8_t comm_d_new[32], const uint8_t comm_r_old[32], pm_error *err) {
    fr_t d, r, h;
    if (fil_domain_to_fr(&d, comm_d_new))
        return pm_error_set(err, PM_ERR_ENCODING, "", PM_NO_OFFSET, "comm_d_new is not a canonical Fr (>= r)");
    if (fil_domain_to_fr(&r, comm_r_old))
        return pm_error_set(err, PM_ERR_ENCODING, "", PM_NO_OFFSET, "comm_r_old is not a canonical Fr (>= r)");
    if (!fil_poseidon_constants_gen_randomness())
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "Poseidon constants");
    hash_gr(&h, &d, &r);
    fil_fr_to_domain(phi, &h);
    return PM_OK;
}

void fil_update_rho(fr_t *rho, const uint8_t phi[32], uint64_t high) {
    fr_t p, x;
    fil_domain_to_fr(&p, phi);
    fr_from_u64(&x, high);
    hash_gr(rho, &p, &x);
}

pm_status fil_update_challenges(uint32_t *out, const fil_update_config_t *c, const uint8_t comm_r_new[32], uint32_t k,
                                pm_error *err) {
    fr_t r;
    if (k >= c->partitions)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "partition %u of %u", k, c->partitions);
    if (fil_domain_to_fr(&r, comm_r_new))
        return pm_error_set(err, PM_ERR_ENCODING, "", PM_NO_OFFSET, "comm_r_new is not a canonical Fr (>= r)");
    if (!fil_poseidon_constants_gen_randomness())
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "Poseidon constants");
    unsigned got = 0;
    for (unsigned j = 0; j < c->digests && got < c->challenges; j++) {
        fr_t idx, dg, plain;
        fr_from_u64(&idx, (uint64_t)k * c->digests + j);
        hash_gr(&dg, &r, &idx);
        fr_from_mont(&plain, &dg);
        for (unsigned i = 0; i < c->challenges_per_digest && got < c->challenges; i++) {
            uint32_t v = 0;
            for (unsigned b = 0; b < c->rand_bits; b++) {
                unsigned bit = i * c->rand_bits + b;
                v |= (uint32_t)((plain.l[bit / 64] >> (bit % 64)) & 1) << b;
            }
            out[got++] = v | (k << c->rand_bits);
        }
    }
    return PM_OK;
}

/* ---------------------------------------------------------------- bincode */
pm_status fil_update_partition_proof_read(fil_update_partition_proof_t *p, fil_arena_t *a, const uint8_t *data,
                                          size_t len, const char *name, pm_error *err) {
    memset(p, 0, sizeof *p);
    pm_file f;
    pm_file_from_memory(&f, data, len, name);
    pm_reader r;
    pm_reader_init(&r, &f, 0, len);
    pm_status st = fil_bc_domain(p->comm_c, &r, "comm_c", err);
    uint64_t n = 0;
    if (!st) st = fil_bc_len(&n, &r, 32, UINT32_MAX, "apex_leafs", err);
    if (!st && n && !(p->apex_leafs = fil_arena_alloc(a, 32 * n)))
        st = pm_error_set(err, PM_ERR_NOMEM, name, r.pos, "out of memory");
    for (uint64_t i = 0; i < n && !st; i++) st = fil_bc_domain(p->apex_leafs[i], &r, "apex_leafs", err);
    p->n_apex = (uint32_t)n;
    /* a ChallengeProof is three MerkleProofs of at least 76 bytes each */
    if (!st) st = fil_bc_len(&n, &r, 3 * 76, UINT32_MAX, "challenge_proofs", err);
    if (!st && n && !(p->challenges = fil_arena_alloc(a, n * sizeof *p->challenges)))
        st = pm_error_set(err, PM_ERR_NOMEM, name, r.pos, "out of memory");
    for (uint64_t i = 0; i < n && !st; i++) {
        char w[3][96];
        snprintf(w[0], sizeof w[0], "challenge_proofs[%llu].proof_r_old", (unsigned long long)i);
        snprintf(w[1], sizeof w[1], "challenge_proofs[%llu].proof_d_new", (unsigned long long)i);
        snprintf(w[2], sizeof w[2], "challenge_proofs[%llu].proof_r_new", (unsigned long long)i);
        fil_update_challenge_proof_t *cp = &p->challenges[i];
        if ((st = fil_bc_read_merkle_proof(&cp->r_old, &r, a, w[0], err)) ||
            (st = fil_bc_read_merkle_proof(&cp->d_new, &r, a, w[1], err)) ||
            (st = fil_bc_read_merkle_proof(&cp->r_new, &r, a, w[2], err)))
            break;
    }
    p->n_challenges = (uint32_t)n;
    if (!st) st = fil_bc_end(&r, "PartitionProof", err);
    if (st) memset(p, 0, sizeof *p);
    return st;
}

pm_status fil_update_partition_proof_write(uint8_t **out, size_t *len, const fil_update_partition_proof_t *p,
                                           pm_error *err) {
    fil_bc_buf b = {0};
    fil_bc_put_bytes(&b, p->comm_c, 32);
    fil_bc_put_u64(&b, p->n_apex);
    for (uint32_t i = 0; i < p->n_apex; i++) fil_bc_put_bytes(&b, p->apex_leafs[i], 32);
    fil_bc_put_u64(&b, p->n_challenges);
    for (uint32_t i = 0; i < p->n_challenges; i++) {
        fil_bc_put_merkle_proof(&b, &p->challenges[i].r_old);
        fil_bc_put_merkle_proof(&b, &p->challenges[i].d_new);
        fil_bc_put_merkle_proof(&b, &p->challenges[i].r_new);
    }
    return fil_bc_finish(out, len, &b, err);
}

static pm_status read_one(void *item, fil_arena_t *a, const uint8_t *data, size_t len, const char *name,
                          pm_error *err) {
    return fil_update_partition_proof_read((fil_update_partition_proof_t *)item, a, data, len, name, err);
}

pm_status fil_update_vanilla_set_read(fil_update_vanilla_set_t *set, const uint8_t *const *blobs, const size_t *lens,
                                      size_t n, const char *name, pm_error *err) {
    memset(set, 0, sizeof *set);
    void *items;
    pm_status st = fil_bc_read_blobs(&items, sizeof *set->proofs, &set->arena, blobs, lens, n, name, read_one, err);
    if (st) {
        fil_update_vanilla_set_free(set);
        return st;
    }
    set->proofs = items;
    set->n = n;
    return PM_OK;
}

void fil_update_vanilla_set_free(fil_update_vanilla_set_t *set) {
    fil_arena_free(&set->arena);
    memset(set, 0, sizeof *set);
}

/* ---------------------------------------------------------------- encoding */
static void hash2_poseidon(uint8_t out[32], const uint8_t a[32], const uint8_t b[32]) {
    uint8_t pre[64];
    memcpy(pre, a, 32);
    memcpy(pre + 32, b, 32);
    fil_poseidon_hash_bytes(out, pre, 2);
}

/* root_r_new and comm_r_new from the new tree (comm_c set) */
static void finish_commitments(fil_update_t *u) {
    memcpy(u->root_r_new, u->r_new.node(u->r_new.t, u->cfg.tree_r.nlevels, 0), 32);
    hash2_poseidon(u->comm_r_new, u->comm_c, u->root_r_new);
}

/* the 2^h rho values */
static fr_t *all_rhos(const fil_update_config_t *c, const uint8_t phi[32], pm_error *err) {
    uint64_t n = 1ull << c->h;
    fr_t *r = malloc(n * sizeof *r);
    if (!r) {
        pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "SnapDeals: out of memory");
        return NULL;
    }
    for (uint64_t i = 0; i < n; i++) fil_update_rho(&r[i], phi, i);
    return r;
}

pm_status fil_update_encode(fil_update_t *u, const struct fil_seal *s, const uint8_t *data, pm_error *err) {
    memset(u, 0, sizeof *u);
    if (!s->done) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "SnapDeals: the sector is not sealed");
    pm_status st = fil_update_config(&u->cfg, s->si->sector_size, err);
    if (st) return st;
    const fil_update_config_t *c = &u->cfg;
    if (s->tree_r.shape.leaves != c->nodes || s->tree_r.shape.nlevels != c->tree_r.nlevels)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "SnapDeals: sealed tree shape differs");
    memcpy(u->comm_c, s->comm_c, 32);
    memcpy(u->root_r_old, s->comm_r_last, 32);
    memcpy(u->comm_r_old, s->comm_r, 32);
    u->r_old = (fil_tree_view_t){&s->tree_r.shape, &s->tree_r, fil_tree_node_dense};
    /* tree D new over the data */
    for (uint64_t i = 0; i < c->nodes; i++) {
        fr_t x;
        if (fil_domain_to_fr(&x, data + 32 * i))
            return pm_error_set(err, PM_ERR_ENCODING, "data", 32 * i, "data node %llu is not a canonical Fr (>= r)",
                                (unsigned long long)i);
    }
    if ((st = fil_tree_alloc(&u->dense_d, &c->tree_d, err))) return st;
    memcpy(u->dense_d.level[0], data, 32 * c->nodes);
    fil_tree_build(&u->dense_d);
    u->d_new = (fil_tree_view_t){&u->dense_d.shape, &u->dense_d, fil_tree_node_dense};
    memcpy(u->comm_d_new, fil_tree_root(&u->dense_d), 32);
    if ((st = fil_update_phi(u->phi, u->comm_d_new, u->comm_r_old, err))) goto fail;
    /* tree R new: sector key + data · rho(high) */
    fr_t *rho = all_rhos(c, u->phi, err);
    if (!rho) {
        st = PM_ERR_NOMEM;
        goto fail;
    }
    if ((st = fil_tree_alloc(&u->dense_r, &c->tree_r, err))) {
        free(rho);
        goto fail;
    }
    unsigned shr = c->challenge_bits - c->h;
    for (uint64_t i = 0; i < c->nodes; i++) {
        fr_t key, d, x;
        fil_domain_to_fr(&key, s->tree_r.level[0] + 32 * i);
        fil_domain_to_fr(&d, data + 32 * i);
        fr_mul(&x, &d, &rho[i >> shr]);
        fr_add(&x, &x, &key);
        fil_fr_to_domain(u->dense_r.level[0] + 32 * i, &x);
    }
    free(rho);
    fil_tree_build(&u->dense_r);
    u->r_new = (fil_tree_view_t){&u->dense_r.shape, &u->dense_r, fil_tree_node_dense};
    finish_commitments(u);
    return PM_OK;
fail:
    fil_update_free(u);
    return st;
}

/* a canonical domain value from (seed, tag, index) */
static void derive(uint8_t out[32], uint64_t seed, const char *tag, uint64_t i) {
    uint8_t sb[8], ib[8];
    for (int k = 0; k < 8; k++) sb[k] = (uint8_t)(seed >> (8 * k)), ib[k] = (uint8_t)(i >> (8 * k));
    fil_bytes_t parts[3] = {{tag, strlen(tag)}, {sb, 8}, {ib, 8}};
    fil_sha256_parts(out, parts, 3);
    fil_trim_fr32(out);
}

pm_status fil_update_synthetic(fil_update_t *u, uint64_t sector_size, uint64_t seed, pm_error *err) {
    memset(u, 0, sizeof *u);
    pm_status st = fil_update_config(&u->cfg, sector_size, err);
    if (st) return st;
    const fil_update_config_t *c = &u->cfg;
    unsigned s = c->challenge_bits - c->h;
    uint64_t nb = 1ull << c->h;
    uint8_t *key = malloc(32 * nb), *dat = malloc(32 * nb), *neu = malloc(32 * nb);
    fil_bucket_tree_t *tr = calloc(1, sizeof *tr), *td = calloc(1, sizeof *td), *tn = calloc(1, sizeof *tn);
    fr_t *rho = NULL;
    if (!key || !dat || !neu || !tr || !td || !tn) {
        st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "SnapDeals: out of memory");
        goto out;
    }
    u->bucket_r_old = tr;
    u->bucket_d = td;
    u->bucket_r_new = tn;
    for (uint64_t b = 0; b < nb; b++) {
        derive(key + 32 * b, seed, "proofmill synthetic sector key", b);
        derive(dat + 32 * b, seed, "proofmill synthetic update data", b);
    }
    derive(u->comm_c, seed, "proofmill synthetic comm_c", 0);
    if ((st = fil_bucket_tree_build(tr, &c->tree_r, s, key, err)) ||
        (st = fil_bucket_tree_build(td, &c->tree_d, s, dat, err)))
        goto out;
    memcpy(u->root_r_old, fil_bucket_tree_root(tr), 32);
    hash2_poseidon(u->comm_r_old, u->comm_c, u->root_r_old);
    memcpy(u->comm_d_new, fil_bucket_tree_root(td), 32);
    if ((st = fil_update_phi(u->phi, u->comm_d_new, u->comm_r_old, err))) goto out;
    if (!(rho = all_rhos(c, u->phi, err))) {
        st = PM_ERR_NOMEM;
        goto out;
    }
    for (uint64_t b = 0; b < nb; b++) {
        fr_t k, d, x;
        fil_domain_to_fr(&k, key + 32 * b);
        fil_domain_to_fr(&d, dat + 32 * b);
        fr_mul(&x, &d, &rho[b]);
        fr_add(&x, &x, &k);
        fil_fr_to_domain(neu + 32 * b, &x);
    }
    if ((st = fil_bucket_tree_build(tn, &c->tree_r, s, neu, err))) goto out;
    u->r_old = (fil_tree_view_t){&tr->shape, tr, fil_tree_node_bucket};
    u->d_new = (fil_tree_view_t){&td->shape, td, fil_tree_node_bucket};
    u->r_new = (fil_tree_view_t){&tn->shape, tn, fil_tree_node_bucket};
    finish_commitments(u);
out:
    free(key);
    free(dat);
    free(neu);
    free(rho);
    if (st) {
        if (!u->bucket_r_old) free(tr);
        if (!u->bucket_d) free(td);
        if (!u->bucket_r_new) free(tn);
        fil_update_free(u);
    }
    return st;
}

void fil_update_free(fil_update_t *u) {
    fil_tree_free(&u->dense_d);
    fil_tree_free(&u->dense_r);
    void *b[3] = {u->bucket_r_old, u->bucket_d, u->bucket_r_new};
    for (int i = 0; i < 3; i++)
        if (b[i]) {
            fil_bucket_tree_free(b[i]);
            free(b[i]);
        }
    memset(u, 0, sizeof *u);
}

/* ---------------------------------------------------------------- partition proofs */
static unsigned apex_height(const fil_update_config_t *c) {
    return c->challenge_bits - c->partition_bits - c->apex_bits;
}

static pm_status open_view(fil_merkle_proof_t *p, fil_arena_t *a, const fil_tree_view_t *v, uint64_t idx,
                           pm_error *err) {
    fil_path_elem_t *e = fil_arena_alloc(a, v->shape->nlevels * sizeof *e);
    if (!e) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "SnapDeals: out of memory");
    return fil_tree_prove_nodes(p, e, v->shape, v->t, v->node, idx, err);
}

pm_status fil_update_prove_partition(fil_update_partition_proof_t *p, fil_arena_t *a, const fil_update_t *u, uint32_t k,
                                     pm_error *err) {
    memset(p, 0, sizeof *p);
    const fil_update_config_t *c = &u->cfg;
    uint32_t *ch = malloc(c->challenges * sizeof *ch);
    if (!ch) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "SnapDeals: out of memory");
    pm_status st = fil_update_challenges(ch, c, u->comm_r_new, k, err);
    memcpy(p->comm_c, u->comm_c, 32);
    p->apex_leafs = fil_arena_alloc(a, 32 * (size_t)c->apex_leaves);
    p->challenges = fil_arena_alloc(a, c->challenges * sizeof *p->challenges);
    if (!st && (!p->apex_leafs || !p->challenges))
        st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "SnapDeals: out of memory");
    unsigned ah = apex_height(c);
    for (unsigned j = 0; j < c->apex_leaves && !st; j++)
        memcpy(p->apex_leafs[j], u->d_new.node(u->d_new.t, ah, (uint64_t)k * c->apex_leaves + j), 32);
    p->n_apex = c->apex_leaves;
    for (unsigned i = 0; i < c->challenges && !st; i++) {
        fil_update_challenge_proof_t *cp = &p->challenges[i];
        if ((st = open_view(&cp->r_old, a, &u->r_old, ch[i], err)) ||
            (st = open_view(&cp->d_new, a, &u->d_new, ch[i], err)) ||
            (st = open_view(&cp->r_new, a, &u->r_new, ch[i], err)))
            break;
    }
    p->n_challenges = c->challenges;
    free(ch);
    if (st) memset(p, 0, sizeof *p);
    return st;
}

/* ---------------------------------------------------------------- verifier */
static pm_status canon(const uint8_t d[32], pm_error *err, const char *who, const char *field) {
    fr_t x;
    if (fil_domain_to_fr(&x, d))
        return pm_error_set(err, PM_ERR_ENCODING, "", PM_NO_OFFSET, "%s: %s is not a canonical Fr (>= r)", who, field);
    return PM_OK;
}

static pm_status canon_proof(const fil_merkle_proof_t *p, const char *who, const char *name, pm_error *err) {
    char f[120];
    snprintf(f, sizeof f, "%s.leaf", name);
    pm_status st = canon(p->leaf, err, who, f);
    snprintf(f, sizeof f, "%s.root", name);
    if (!st) st = canon(p->root, err, who, f);
    uint32_t nl = p->nbase + p->nsub + p->ntop;
    for (uint32_t l = 0; l < nl && !st; l++)
        for (uint32_t h = 0; h < p->elems[l].nhashes && !st; h++) {
            snprintf(f, sizeof f, "%s.path[%u].hashes[%u]", name, l, h);
            st = canon(p->elems[l].hashes[h], err, who, f);
        }
    return st;
}

/* fold a binary SHA-256 path of an opening from its leaf through levels [0, upto) */
static void fold_d(uint8_t out[32], const fil_merkle_proof_t *p, unsigned upto) {
    uint8_t cur[32];
    memcpy(cur, p->leaf, 32);
    for (unsigned l = 0; l < upto; l++) {
        const fil_path_elem_t *e = &p->elems[l];
        if (e->index) fil_sha256_node(cur, e->hashes[0], cur);
        else fil_sha256_node(cur, cur, e->hashes[0]);
    }
    memcpy(out, cur, 32);
}

pm_status fil_update_verify(const fil_update_config_t *c, const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                            const uint8_t comm_r_new[32], uint32_t k, const fil_update_partition_proof_t *p,
                            pm_error *err) {
    char who[160];
    snprintf(who, sizeof who, "partition %u", k);
    if (k >= c->partitions)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "%s: only %u partitions", who, c->partitions);
    pm_status st;
    if ((st = canon(comm_r_old, err, "request", "comm_r_old")) || (st = canon(comm_d_new, err, "request", "comm_d_new")) ||
        (st = canon(comm_r_new, err, "request", "comm_r_new")) || (st = canon(p->comm_c, err, who, "comm_c")))
        return st;
    if (p->n_apex != c->apex_leaves)
        return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET, "%s: %u apex_leafs, expected %u", who, p->n_apex,
                            c->apex_leaves);
    if (p->n_challenges != c->challenges)
        return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET, "%s: %u challenge_proofs, expected %u", who,
                            p->n_challenges, c->challenges);
    for (unsigned j = 0; j < p->n_apex; j++) {
        char f[40];
        snprintf(f, sizeof f, "apex_leafs[%u]", j);
        if ((st = canon(p->apex_leafs[j], err, who, f))) return st;
    }
    /* the apex tree: rows[0] = apex leaves, rows[apex_bits] = its root */
    unsigned A = c->apex_leaves;
    uint8_t (*apex)[32] = malloc(2 * (size_t)A * 32);
    uint32_t *ch = malloc(c->challenges * sizeof *ch);
    if (!apex || !ch) {
        free(apex);
        free(ch);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "SnapDeals: out of memory");
    }
    memcpy(apex, p->apex_leafs, 32 * (size_t)A);
    size_t row_off[16], off = A;
    row_off[0] = 0;
    for (unsigned r = 0, w = A; r < c->apex_bits; r++, w /= 2) {
        row_off[r + 1] = off;
        for (unsigned j = 0; j < w / 2; j++)
            fil_sha256_node(apex[off + j], apex[row_off[r] + 2 * j], apex[row_off[r] + 2 * j + 1]);
        off += w / 2;
    }
    const uint8_t *apex_root = apex[row_off[c->apex_bits]];
    st = fil_update_challenges(ch, c, comm_r_new, k, err);
    const uint8_t *root_r_old = p->challenges[0].r_old.root, *root_r_new = p->challenges[0].r_new.root;
    uint8_t h[32];
    if (!st) {
        hash2_poseidon(h, p->comm_c, root_r_old);
        if (memcmp(h, comm_r_old, 32))
            st = pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                              "%s: comm_r_old differs from Poseidon(comm_c, challenge_proofs[0].proof_r_old.root)", who);
    }
    if (!st) {
        hash2_poseidon(h, p->comm_c, root_r_new);
        if (memcmp(h, comm_r_new, 32))
            st = pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                              "%s: comm_r_new differs from Poseidon(comm_c, challenge_proofs[0].proof_r_new.root)", who);
    }
    uint8_t phi[32];
    if (!st) st = fil_update_phi(phi, comm_d_new, comm_r_old, err);
    unsigned ah = apex_height(c), top = c->challenge_bits - c->partition_bits;
    for (unsigned i = 0; i < c->challenges && !st; i++) {
        const fil_update_challenge_proof_t *cp = &p->challenges[i];
        char w[200];
        snprintf(w, sizeof w, "%s challenge %u (node %u)", who, i, ch[i]);
        if ((st = canon_proof(&cp->r_old, w, "proof_r_old", err)) || (st = canon_proof(&cp->d_new, w, "proof_d_new", err)) ||
            (st = canon_proof(&cp->r_new, w, "proof_r_new", err)))
            break;
        struct {
            const fil_merkle_proof_t *p;
            const fil_tree_shape_t *s;
            const uint8_t *root;
            const char *name, *rootname;
        } op[3] = {{&cp->r_old, &c->tree_r, root_r_old, "proof_r_old", "challenge_proofs[0].proof_r_old.root"},
                   {&cp->d_new, &c->tree_d, comm_d_new, "proof_d_new", "comm_d_new"},
                   {&cp->r_new, &c->tree_r, root_r_new, "proof_r_new", "challenge_proofs[0].proof_r_new.root"}};
        for (int q = 0; q < 3 && !st; q++) {
            pm_error e;
            pm_error_clear(&e);
            if (fil_merkle_proof_check(op[q].p, op[q].s, ch[i], &e))
                st = pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET, "%s: %s: %s", w, op[q].name, e.msg);
            else if (memcmp(op[q].p->root, op[q].root, 32))
                st = pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET, "%s: %s.root differs from %s", w, op[q].name,
                                  op[q].rootname);
        }
        if (st) break;
        /* encoding: leaf_r_new = leaf_r_old + leaf_d_new · rho(c >> (n − h)) */
        fr_t lo, ld, ln, rho, x;
        fil_domain_to_fr(&lo, cp->r_old.leaf);
        fil_domain_to_fr(&ld, cp->d_new.leaf);
        fil_domain_to_fr(&ln, cp->r_new.leaf);
        fil_update_rho(&rho, phi, ch[i] >> (c->challenge_bits - c->h));
        fr_mul(&x, &ld, &rho);
        fr_add(&x, &x, &lo);
        if (!fr_eq(&x, &ln)) {
            st = pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                              "%s: proof_r_new.leaf differs from proof_r_old.leaf + proof_d_new.leaf * rho", w);
            break;
        }
        /* tree D opening: apex leaf, apex path, partition path */
        uint8_t node[32];
        fold_d(node, &cp->d_new, ah);
        unsigned ai = (ch[i] >> ah) & (A - 1);
        if (memcmp(node, p->apex_leafs[ai], 32)) {
            st = pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                              "%s: proof_d_new below the apex leaves reaches a node that is not apex_leafs[%u]", w, ai);
            break;
        }
        for (unsigned r = 0; r < c->apex_bits && !st; r++) {
            unsigned idx = ai >> r;
            if (memcmp(cp->d_new.elems[ah + r].hashes[0], apex[row_off[r] + (idx ^ 1)], 32))
                st = pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                                  "%s: proof_d_new.path[%u] is not the apex tree's node", w, ah + r);
        }
        for (unsigned l = top; l < c->challenge_bits && !st; l++)
            if (memcmp(cp->d_new.elems[l].hashes[0], p->challenges[0].d_new.elems[l].hashes[0], 32))
                st = pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                                  "%s: proof_d_new.path[%u] (partition path) differs from challenge 0's", w, l);
    }
    /* partition path (challenge 0's top levels) from the apex root to comm_d_new */
    if (!st) { /* challenge 0's opening has the tree's shape by now */
        uint8_t cur[32];
        memcpy(cur, apex_root, 32);
        for (unsigned l = top; l < c->challenge_bits; l++) {
            const fil_path_elem_t *e = &p->challenges[0].d_new.elems[l];
            if ((k >> (l - top)) & 1) fil_sha256_node(cur, e->hashes[0], cur);
            else fil_sha256_node(cur, cur, e->hashes[0]);
        }
        if (memcmp(cur, comm_d_new, 32))
            st = pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                              "%s: the apex tree of apex_leafs with challenge 0's partition path does not hash to "
                              "comm_d_new",
                              who);
    }
    free(apex);
    free(ch);
    return st;
}

pm_status fil_update_public_inputs(fr_t out[4], const fil_update_config_t *c, const uint8_t comm_r_old[32],
                                   const uint8_t comm_d_new[32], const uint8_t comm_r_new[32], uint32_t k,
                                   pm_error *err) {
    if (k >= c->partitions)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "partition %u of %u", k, c->partitions);
    fr_from_u64(&out[0], (uint64_t)k | ((uint64_t)c->h_select << c->partition_bits));
    const uint8_t *d[3] = {comm_r_old, comm_d_new, comm_r_new};
    static const char *const nm[3] = {"comm_r_old", "comm_d_new", "comm_r_new"};
    for (int i = 0; i < 3; i++)
        if (fil_domain_to_fr(&out[1 + i], d[i]))
            return pm_error_set(err, PM_ERR_ENCODING, "", PM_NO_OFFSET, "%s is not a canonical Fr (>= r)", nm[i]);
    return PM_OK;
}

/* ---------------------------------------------------------------- jobs */
pm_status fil_update_job_init(fil_update_job_t *j, const struct fil_proof_request *r, pm_error *err) {
    memset(j, 0, sizeof *j);
    j->rp = r->registered_proof < FIL_REGISTERED_UPDATE_COUNT ? fil_registered_update((unsigned)r->registered_proof)
                                                               : NULL;
    if (!j->rp)
        return pm_error_set(err, PM_ERR_ARG, "request", PM_NO_OFFSET,
                            "registered_proof %llu is not an update proof (0..4)", (unsigned long long)r->registered_proof);
    if (r->sector_size && r->sector_size != j->rp->sector_size)
        return pm_error_set(err, PM_ERR_MISMATCH, "request", PM_NO_OFFSET, "sector_size %llu differs from %s's %llu",
                            (unsigned long long)r->sector_size, j->rp->name, (unsigned long long)j->rp->sector_size);
    if (!r->has_comm_r_old || !r->has_comm_r_new || !r->has_comm_d_new)
        return pm_error_set(err, PM_ERR_ARG, "request", PM_NO_OFFSET, "SnapDeals needs comm_r_old, comm_r_new and comm_d_new");
    pm_status st = fil_update_config(&j->cfg, j->rp->sector_size, err);
    if (st) return st;
    memcpy(j->comm_r_old, r->comm_r_old, 32);
    memcpy(j->comm_r_new, r->comm_r_new, 32);
    memcpy(j->comm_d_new, r->comm_d_new, 32);
    if (r->n_vanilla != j->cfg.partitions)
        return pm_error_set(err, PM_ERR_MISMATCH, "request", PM_NO_OFFSET, "%zu partition proofs, %s has %u partitions",
                            r->n_vanilla, j->rp->name, j->cfg.partitions);
    return fil_update_vanilla_set_read(&j->vanilla, (const uint8_t *const *)r->vanilla, r->vanilla_len, r->n_vanilla,
                                       "vanilla_proofs", err);
}

pm_status fil_update_job_verify(const fil_update_job_t *j, pm_error *err) {
    for (uint32_t k = 0; k < j->vanilla.n; k++) {
        pm_status st = fil_update_verify(&j->cfg, j->comm_r_old, j->comm_d_new, j->comm_r_new, k, &j->vanilla.proofs[k], err);
        if (st) return st;
    }
    return PM_OK;
}

void fil_update_job_free(fil_update_job_t *j) {
    fil_update_vanilla_set_free(&j->vanilla);
    memset(j, 0, sizeof *j);
}
