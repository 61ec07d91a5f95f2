/*
 * post.c — WinningPoSt / WindowPoSt vanilla side (post.h).
 */
#include "filecoin/post.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/bincode.h"
#include "filecoin/param_names.h"
#include "filecoin/poseidon.h"
#include "filecoin/proof_request.h"
#include "filecoin/replica_id.h"
#include "filecoin/seal.h"
#include "filecoin/sha256_fr.h"

/* ---------------------------------------------------------------- registry */
#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

static const fil_registered_post_t POSTS[FIL_REGISTERED_POST_COUNT] = {
    {0, "StackedDrgWinning2KiBV1", FIL_POST_WINNING, 2 * KiB, FIL_API_V1_0_0},
    {1, "StackedDrgWinning8MiBV1", FIL_POST_WINNING, 8 * MiB, FIL_API_V1_0_0},
    {2, "StackedDrgWinning512MiBV1", FIL_POST_WINNING, 512 * MiB, FIL_API_V1_0_0},
    {3, "StackedDrgWinning32GiBV1", FIL_POST_WINNING, 32 * GiB, FIL_API_V1_0_0},
    {4, "StackedDrgWinning64GiBV1", FIL_POST_WINNING, 64 * GiB, FIL_API_V1_0_0},
    {5, "StackedDrgWindow2KiBV1", FIL_POST_WINDOW, 2 * KiB, FIL_API_V1_0_0},
    {6, "StackedDrgWindow8MiBV1", FIL_POST_WINDOW, 8 * MiB, FIL_API_V1_0_0},
    {7, "StackedDrgWindow512MiBV1", FIL_POST_WINDOW, 512 * MiB, FIL_API_V1_0_0},
    {8, "StackedDrgWindow32GiBV1", FIL_POST_WINDOW, 32 * GiB, FIL_API_V1_0_0},
    {9, "StackedDrgWindow64GiBV1", FIL_POST_WINDOW, 64 * GiB, FIL_API_V1_0_0},
    {10, "StackedDrgWindow2KiBV1_2", FIL_POST_WINDOW, 2 * KiB, FIL_API_V1_2_0},
    {11, "StackedDrgWindow8MiBV1_2", FIL_POST_WINDOW, 8 * MiB, FIL_API_V1_2_0},
    {12, "StackedDrgWindow512MiBV1_2", FIL_POST_WINDOW, 512 * MiB, FIL_API_V1_2_0},
    {13, "StackedDrgWindow32GiBV1_2", FIL_POST_WINDOW, 32 * GiB, FIL_API_V1_2_0},
    {14, "StackedDrgWindow64GiBV1_2", FIL_POST_WINDOW, 64 * GiB, FIL_API_V1_2_0},
};

const fil_registered_post_t *fil_registered_post(unsigned id) {
    return id < FIL_REGISTERED_POST_COUNT ? &POSTS[id] : NULL;
}

static pm_status config_common(fil_post_config_t *c, uint64_t leaves, unsigned sub, unsigned top, pm_error *err) {
    c->nodes = leaves;
    return fil_tree_shape_init(&c->tree, leaves, FIL_HASHER_POSEIDON, FIL_BASE_ARITY, sub, top, err);
}

pm_status fil_post_config_for(fil_post_config_t *c, fil_post_type_t type, uint64_t sector_size,
                              fil_api_version_t v, pm_error *err) {
    memset(c, 0, sizeof *c);
    const fil_sector_info_t *si = fil_sector_info(sector_size);
    if (!si) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "PoSt: unsupported sector size %llu",
                                 (unsigned long long)sector_size);
    c->type = type;
    c->api_version = v;
    c->sector_size = sector_size;
    if (type == FIL_POST_WINNING) {
        /* parameters.rs winning_post_setup_params: 66 / 1 circuit sectors of 66 / 66 challenges */
        c->challenge_count = FIL_WINNING_POST_CHALLENGE_COUNT;
        c->sector_count = FIL_WINNING_POST_SECTOR_COUNT;
        c->circuit_sectors = FIL_WINNING_POST_CHALLENGE_COUNT / FIL_WINNING_POST_SECTOR_COUNT;
        c->circuit_challenges = FIL_WINNING_POST_CHALLENGE_COUNT / c->circuit_sectors;
    } else if (type == FIL_POST_WINDOW) {
        c->challenge_count = FIL_WINDOW_POST_CHALLENGE_COUNT;
        c->sector_count = fil_window_post_sector_count(sector_size);
        c->circuit_sectors = c->sector_count;
        c->circuit_challenges = FIL_WINDOW_POST_CHALLENGE_COUNT;
    } else {
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "PoSt: unknown type %d", (int)type);
    }
    return config_common(c, si->nodes, si->sub_arity, si->top_arity, err);
}

pm_status fil_post_config(fil_post_config_t *c, unsigned registered_proof, pm_error *err) {
    const fil_registered_post_t *rp = fil_registered_post(registered_proof);
    if (!rp) {
        memset(c, 0, sizeof *c);
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "unknown registered PoSt proof %u (0..14 exist)",
                            registered_proof);
    }
    return fil_post_config_for(c, rp->type, rp->sector_size, rp->api_version, err);
}

pm_status fil_post_config_custom(fil_post_config_t *c, uint64_t leaves, unsigned sub, unsigned top,
                                 unsigned sectors, unsigned challenges, pm_error *err) {
    memset(c, 0, sizeof *c);
    if (!sectors || !challenges)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "PoSt: sectors and challenges must be > 0");
    c->type = FIL_POST_WINDOW;
    c->api_version = FIL_API_V1_1_0;
    c->sector_size = leaves * FIL_NODE_SIZE;
    c->challenge_count = c->circuit_challenges = challenges;
    c->sector_count = c->circuit_sectors = sectors;
    return config_common(c, leaves, sub, top, err);
}

/* ---------------------------------------------------------------- challenges */
uint64_t fil_post_challenge_index(fil_api_version_t v, uint64_t sector_index, unsigned challenge_count,
                                  unsigned n) {
    if (v == FIL_API_V1_2_0) return n;
    return sector_index * challenge_count + n;
}

static uint64_t le64(const uint8_t *p) {
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--) x = (x << 8) | p[i];
    return x;
}

static void put_le64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

uint64_t fil_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id, uint64_t challenge_index,
                                 uint64_t nodes) {
    uint8_t id[8], ci[8], h[32];
    put_le64(id, sector_id);
    put_le64(ci, challenge_index);
    fil_bytes_t parts[3] = {{randomness, 32}, {id, 8}, {ci, 8}};
    fil_sha256_parts(h, parts, 3);
    return le64(h) % nodes;
}

void fil_post_sector_challenges(uint64_t *out, const fil_post_config_t *c, const uint8_t randomness[32],
                                uint64_t sector_id, uint64_t sector_index) {
    for (unsigned n = 0; n < c->challenge_count; n++)
        out[n] = fil_post_leaf_challenge(
            randomness, sector_id, fil_post_challenge_index(c->api_version, sector_index, c->challenge_count, n),
            c->nodes);
}

uint64_t fil_winning_post_sector_challenge(const uint8_t randomness[32], const uint8_t prover_id[32], uint64_t n,
                                           uint64_t sector_set_len) {
    uint8_t nb[8], h[32];
    put_le64(nb, n);
    fil_bytes_t parts[3] = {{prover_id, 32}, {randomness, 32}, {nb, 8}};
    fil_sha256_parts(h, parts, 3);
    return sector_set_len ? le64(h) % sector_set_len : 0;
}

/* ---------------------------------------------------------------- bincode */
pm_status fil_post_sector_proof_read(fil_post_sector_proof_t *p, fil_arena_t *a, const uint8_t *data, size_t len,
                                     const char *name, pm_error *err) {
    memset(p, 0, sizeof *p);
    pm_file f;
    pm_file_from_memory(&f, data, len, name);
    pm_reader r;
    pm_reader_init(&r, &f, 0, len);
    pm_status st = pm_reader_u64(&r, &p->sector_id, "sector_id", err);
    if (!st) st = fil_bc_domain(p->comm_r, &r, "comm_r", err);
    uint64_t ns = 0;
    /* a SectorProof is at least 8 + 64 bytes (an empty Vec and the two commitments) */
    if (!st) st = fil_bc_len(&ns, &r, 72, UINT32_MAX, "vanilla_proof.sectors", err);
    if (!st && ns) {
        p->sectors = fil_arena_alloc(a, ns * sizeof *p->sectors);
        if (!p->sectors) st = pm_error_set(err, PM_ERR_NOMEM, name, r.pos, "out of memory");
    }
    for (uint64_t s = 0; s < ns && !st; s++) {
        fil_post_sector_vanilla_t *v = &p->sectors[s];
        char w[160];
        snprintf(w, sizeof w, "vanilla_proof.sectors[%llu].inclusion_proofs", (unsigned long long)s);
        uint64_t ni = 0;
        /* a MerkleProof is at least 4 + 64 + 8 bytes (Single with an empty path) */
        if ((st = fil_bc_len(&ni, &r, 76, UINT32_MAX, w, err))) break;
        v->n_inclusion = (uint32_t)ni;
        if (ni && !(v->inclusion = fil_arena_alloc(a, ni * sizeof *v->inclusion))) {
            st = pm_error_set(err, PM_ERR_NOMEM, name, r.pos, "out of memory");
            break;
        }
        for (uint64_t i = 0; i < ni && !st; i++) {
            snprintf(w, sizeof w, "vanilla_proof.sectors[%llu].inclusion_proofs[%llu]", (unsigned long long)s,
                     (unsigned long long)i);
            st = fil_bc_read_merkle_proof(&v->inclusion[i], &r, a, w, err);
        }
        snprintf(w, sizeof w, "vanilla_proof.sectors[%llu].comm_c", (unsigned long long)s);
        if (!st) st = fil_bc_domain(v->comm_c, &r, w, err);
        snprintf(w, sizeof w, "vanilla_proof.sectors[%llu].comm_r_last", (unsigned long long)s);
        if (!st) st = fil_bc_domain(v->comm_r_last, &r, w, err);
    }
    p->n_sectors = (uint32_t)ns;
    if (!st) st = fil_bc_end(&r, "FallbackPoStSectorProof", err);
    if (st) memset(p, 0, sizeof *p);
    return st;
}

pm_status fil_post_sector_proof_write(uint8_t **out, size_t *len, const fil_post_sector_proof_t *p, pm_error *err) {
    fil_bc_buf b = {0};
    fil_bc_put_u64(&b, p->sector_id);
    fil_bc_put_bytes(&b, p->comm_r, 32);
    fil_bc_put_u64(&b, p->n_sectors);
    for (uint32_t s = 0; s < p->n_sectors; s++) {
        const fil_post_sector_vanilla_t *v = &p->sectors[s];
        fil_bc_put_u64(&b, v->n_inclusion);
        for (uint32_t i = 0; i < v->n_inclusion; i++) fil_bc_put_merkle_proof(&b, &v->inclusion[i]);
        fil_bc_put_bytes(&b, v->comm_c, 32);
        fil_bc_put_bytes(&b, v->comm_r_last, 32);
    }
    return fil_bc_finish(out, len, &b, err);
}

static pm_status read_one(void *item, fil_arena_t *a, const uint8_t *data, size_t len, const char *name,
                          pm_error *err) {
    return fil_post_sector_proof_read((fil_post_sector_proof_t *)item, a, data, len, name, err);
}

pm_status fil_post_vanilla_set_read(fil_post_vanilla_set_t *set, const uint8_t *const *blobs, const size_t *lens,
                                    size_t n, const char *name, pm_error *err) {
    memset(set, 0, sizeof *set);
    void *items;
    pm_status st = fil_bc_read_blobs(&items, sizeof *set->proofs, &set->arena, blobs, lens, n, name, read_one, err);
    if (st) {
        fil_post_vanilla_set_free(set);
        return st;
    }
    set->proofs = items;
    set->n = n;
    return PM_OK;
}

void fil_post_vanilla_set_free(fil_post_vanilla_set_t *set) {
    fil_arena_free(&set->arena);
    memset(set, 0, sizeof *set);
}

/* ---------------------------------------------------------------- provers */
typedef pm_status (*prove_fn)(fil_merkle_proof_t *p, fil_path_elem_t *elems, const void *tree, uint64_t index,
                              pm_error *err);

static pm_status dense_prove(fil_merkle_proof_t *p, fil_path_elem_t *e, const void *t, uint64_t i, pm_error *err) {
    return fil_tree_prove(p, e, t, i, err);
}
static pm_status sparse_prove(fil_merkle_proof_t *p, fil_path_elem_t *e, const void *t, uint64_t i, pm_error *err) {
    return fil_sparse_tree_prove(p, e, t, i, err);
}

/* One SectorProof of the challenged leaves ch[challenge_count] from a tree. */
static pm_status sector_proof(fil_post_sector_proof_t *p, fil_arena_t *a, const fil_post_config_t *c,
                              const uint64_t *ch, const void *tree, prove_fn prove, const uint8_t comm_c[32],
                              const uint8_t comm_r_last[32], const uint8_t comm_r[32], uint64_t sector_id,
                              pm_error *err) {
    memset(p, 0, sizeof *p);
    p->sector_id = sector_id;
    memcpy(p->comm_r, comm_r, 32);
    p->sectors = fil_arena_alloc(a, sizeof *p->sectors);
    if (!p->sectors) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "PoSt: out of memory");
    p->n_sectors = 1;
    fil_post_sector_vanilla_t *v = p->sectors;
    memcpy(v->comm_c, comm_c, 32);
    memcpy(v->comm_r_last, comm_r_last, 32);
    v->inclusion = fil_arena_alloc(a, c->challenge_count * sizeof *v->inclusion);
    if (!v->inclusion) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "PoSt: out of memory");
    v->n_inclusion = c->challenge_count;
    for (unsigned n = 0; n < c->challenge_count; n++) {
        fil_path_elem_t *e = fil_arena_alloc(a, c->tree.nlevels * sizeof *e);
        if (!e) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "PoSt: out of memory");
        pm_status st = prove(&v->inclusion[n], e, tree, ch[n], err);
        if (st) return st;
    }
    return PM_OK;
}

pm_status fil_post_prove_seal(fil_post_sector_proof_t *p, fil_arena_t *a, const fil_post_config_t *c,
                              const struct fil_seal *s, const uint8_t randomness[32], uint64_t sector_index,
                              pm_error *err) {
    memset(p, 0, sizeof *p);
    if (!s->done || s->si->sector_size != c->sector_size || s->tree_r.shape.leaves != c->nodes ||
        s->tree_r.shape.nlevels != c->tree.nlevels)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "PoSt: the sealed sector (%llu bytes) does not fit the %llu-byte PoSt configuration",
                            (unsigned long long)(s->si ? s->si->sector_size : 0),
                            (unsigned long long)c->sector_size);
    uint64_t *ch = malloc(c->challenge_count * sizeof *ch);
    if (!ch) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "PoSt: out of memory");
    fil_post_sector_challenges(ch, c, randomness, s->sector_id, sector_index);
    pm_status st = sector_proof(p, a, c, ch, &s->tree_r, dense_prove, s->comm_c, s->comm_r_last, s->comm_r,
                                s->sector_id, err);
    free(ch);
    return st;
}

pm_status fil_post_prove_synthetic(fil_post_sector_proof_t *p, fil_arena_t *a, const fil_post_config_t *c,
                                   uint64_t sector_id, uint64_t seed, const uint8_t randomness[32],
                                   uint64_t sector_index, pm_error *err) {
    memset(p, 0, sizeof *p);
    uint64_t *ch = malloc(c->challenge_count * sizeof *ch);
    fil_sparse_node_t *leaves = malloc(c->challenge_count * sizeof *leaves);
    pm_status st = PM_OK;
    if (!ch || !leaves) st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "PoSt: out of memory");
    uint8_t sb[8], ib[8], lb[8];
    put_le64(sb, seed);
    put_le64(ib, sector_id);
    if (!st) {
        fil_post_sector_challenges(ch, c, randomness, sector_id, sector_index);
        static const char tag[] = "proofmill synthetic PoSt leaf";
        for (unsigned n = 0; n < c->challenge_count; n++) {
            put_le64(lb, ch[n]);
            fil_bytes_t parts[4] = {{tag, sizeof tag - 1}, {sb, 8}, {ib, 8}, {lb, 8}};
            leaves[n].idx = ch[n];
            fil_sha256_parts(leaves[n].v, parts, 4);
            fil_trim_fr32(leaves[n].v);
        }
    }
    fil_sparse_tree_t t;
    memset(&t, 0, sizeof t);
    static const uint8_t zero[32];
    if (!st) st = fil_sparse_tree_build(&t, &c->tree, leaves, c->challenge_count, zero, err);
    if (!st) {
        static const char tag[] = "proofmill synthetic comm_c";
        uint8_t comm_c[32], comm_r[32], pre[64];
        fil_bytes_t parts[3] = {{tag, sizeof tag - 1}, {sb, 8}, {ib, 8}};
        fil_sha256_parts(comm_c, parts, 3);
        fil_trim_fr32(comm_c);
        memcpy(pre, comm_c, 32);
        memcpy(pre + 32, fil_sparse_tree_root(&t), 32);
        fil_poseidon_hash_bytes(comm_r, pre, 2);
        st = sector_proof(p, a, c, ch, &t, sparse_prove, comm_c, fil_sparse_tree_root(&t), comm_r, sector_id, err);
    }
    fil_sparse_tree_free(&t);
    free(ch);
    free(leaves);
    return st;
}

/* ---------------------------------------------------------------- verifier */
static pm_status canon(const uint8_t d[32], pm_error *err, const char *who, const char *field) {
    fr_t x;
    if (fil_domain_to_fr(&x, d))
        return pm_error_set(err, PM_ERR_ENCODING, "", PM_NO_OFFSET, "%s: %s is not a canonical Fr (>= r)", who, field);
    return PM_OK;
}

/* One inclusion proof of challenge n at leaf `leaf` against comm_r_last: shape, root, index, hashes,
 * canonical values. */
static pm_status check_inclusion(const fil_post_config_t *c, const fil_merkle_proof_t *ip, uint64_t leaf,
                                 const uint8_t comm_r_last[32], const char *who, unsigned n, pm_error *err) {
    char w[300];
    snprintf(w, sizeof w, "%s challenge %u (leaf %llu)", who, n, (unsigned long long)leaf);
    pm_status st = canon(ip->leaf, err, w, "inclusion proof leaf");
    if (!st) st = canon(ip->root, err, w, "inclusion proof root");
    uint32_t nl = ip->nbase + ip->nsub + ip->ntop;
    for (uint32_t l = 0; l < nl && !st; l++)
        for (uint32_t h = 0; h < ip->elems[l].nhashes && !st; h++) {
            char f[80];
            snprintf(f, sizeof f, "inclusion proof path[%u].hashes[%u]", l, h);
            st = canon(ip->elems[l].hashes[h], err, w, f);
        }
    if (st) return st;
    if (memcmp(ip->root, comm_r_last, 32))
        return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET, "%s: inclusion proof root differs from comm_r_last",
                            w);
    pm_error e;
    pm_error_clear(&e);
    if (fil_merkle_proof_check(ip, &c->tree, leaf, &e))
        return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET, "%s: inclusion proof: %s", w, e.msg);
    return PM_OK;
}

pm_status fil_post_verify(const fil_post_config_t *c, const uint8_t randomness[32], const fil_post_sector_proof_t *p,
                          size_t n, uint32_t partition, pm_error *err) {
    pm_status st = canon(randomness, err, "request", "randomness");
    if (st) return st;
    if (c->type == FIL_POST_WINNING ? n != FIL_WINNING_POST_SECTOR_COUNT : (n == 0 || n > c->sector_count))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "%zu vanilla sector proofs; %s takes %s%u", n,
                            c->type == FIL_POST_WINNING ? "WinningPoSt" : "a WindowPoSt partition",
                            c->type == FIL_POST_WINNING ? "" : "1..", c->sector_count);
    uint64_t *ch = malloc(c->challenge_count * sizeof *ch);
    if (!ch) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "PoSt: out of memory");
    for (size_t i = 0; i < n && !st; i++) {
        const fil_post_sector_proof_t *sp = &p[i];
        char who[96];
        snprintf(who, sizeof who, "sector %zu (id %llu)", i, (unsigned long long)sp->sector_id);
        if (sp->n_sectors != 1) {
            st = pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                              "%s: vanilla_proof.sectors has %u entries, expected 1", who, sp->n_sectors);
            break;
        }
        const fil_post_sector_vanilla_t *v = sp->sectors;
        if ((st = canon(sp->comm_r, err, who, "comm_r")) || (st = canon(v->comm_c, err, who, "comm_c")) ||
            (st = canon(v->comm_r_last, err, who, "comm_r_last")))
            break;
        if (v->n_inclusion && memcmp(v->comm_r_last, v->inclusion[0].root, 32)) {
            st = pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                              "%s: comm_r_last differs from inclusion_proofs[0].root", who);
            break;
        }
        uint8_t pre[64], h[32];
        memcpy(pre, v->comm_c, 32);
        memcpy(pre + 32, v->comm_r_last, 32);
        fil_poseidon_hash_bytes(h, pre, 2);
        if (memcmp(h, sp->comm_r, 32)) {
            st = pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                              "%s: comm_r differs from Poseidon(comm_c, comm_r_last)", who);
            break;
        }
        if (v->n_inclusion != c->challenge_count) {
            st = pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET, "%s: %u inclusion proofs, expected %u", who,
                              v->n_inclusion, c->challenge_count);
            break;
        }
        uint64_t sector_index = c->type == FIL_POST_WINNING ? 0 : (uint64_t)partition * c->sector_count + i;
        fil_post_sector_challenges(ch, c, randomness, sp->sector_id, sector_index);
        for (unsigned k = 0; k < c->challenge_count && !st; k++)
            st = check_inclusion(c, &v->inclusion[k], ch[k], v->comm_r_last, who, k, err);
    }
    free(ch);
    return st;
}

/* ---------------------------------------------------------------- partition */
pm_status fil_post_arrange(fil_post_circuit_sector_t *s, const fil_post_config_t *c, const fil_post_sector_proof_t *p,
                           size_t n, pm_error *err) {
    if (c->type == FIL_POST_WINNING) {
        if (n != 1 || p[0].n_sectors != 1 || p[0].sectors[0].n_inclusion != c->circuit_sectors)
            return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                                "WinningPoSt needs 1 sector proof with %u inclusion proofs", c->circuit_sectors);
        const fil_post_sector_vanilla_t *v = p[0].sectors;
        for (unsigned i = 0; i < c->circuit_sectors; i++) {
            s[i].sector_id = p[0].sector_id;
            s[i].comm_r = p[0].comm_r;
            s[i].comm_c = v->comm_c;
            s[i].comm_r_last = v->comm_r_last;
            s[i].proofs = &v->inclusion[i];
        }
        return PM_OK;
    }
    if (n == 0 || n > c->circuit_sectors)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "%zu sector proofs for a partition of %u sectors", n,
                            c->circuit_sectors);
    for (unsigned i = 0; i < c->circuit_sectors; i++) {
        const fil_post_sector_proof_t *sp = &p[i < n ? i : n - 1];
        if (sp->n_sectors != 1 || sp->sectors[0].n_inclusion != c->circuit_challenges)
            return pm_error_set(err, PM_ERR_MISMATCH, "", PM_NO_OFFSET,
                                "sector %u (id %llu): needs 1 SectorProof with %u inclusion proofs", i,
                                (unsigned long long)sp->sector_id, c->circuit_challenges);
        s[i].sector_id = sp->sector_id;
        s[i].comm_r = sp->comm_r;
        s[i].comm_c = sp->sectors[0].comm_c;
        s[i].comm_r_last = sp->sectors[0].comm_r_last;
        s[i].proofs = sp->sectors[0].inclusion;
    }
    return PM_OK;
}

pm_status fil_post_public_inputs(fr_t *out, size_t n_out, const fil_post_config_t *c, const uint8_t randomness[32],
                                 const uint64_t *ids, const uint8_t (*comm_r)[32], size_t n, uint32_t partition,
                                 pm_error *err) {
    size_t per = 1 + (size_t)c->circuit_challenges;
    if (n_out != per * c->circuit_sectors)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "%zu public inputs asked, the circuit has %zu", n_out,
                            per * c->circuit_sectors);
    if (n == 0 || n > c->circuit_sectors || (c->type == FIL_POST_WINNING && n != 1))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "%zu public sectors for %u circuit sectors", n,
                            c->circuit_sectors);
    fr_t x;
    if (fil_domain_to_fr(&x, randomness))
        return pm_error_set(err, PM_ERR_ENCODING, "", PM_NO_OFFSET, "randomness is not a canonical Fr (>= r)");
    for (unsigned i = 0; i < c->circuit_sectors; i++) {
        /* compound.rs: real sectors first; short partitions repeat the last sector's inputs */
        size_t src = i < n ? i : n - 1;
        fr_t *o = out + per * i;
        if (fil_domain_to_fr(&o[0], comm_r[src]))
            return pm_error_set(err, PM_ERR_ENCODING, "", PM_NO_OFFSET, "sector %zu (id %llu): comm_r is not canonical",
                                src, (unsigned long long)ids[src]);
        uint64_t sector_index = (uint64_t)partition * c->circuit_sectors + (c->type == FIL_POST_WINNING ? i : src);
        for (unsigned k = 0; k < c->circuit_challenges; k++) {
            uint64_t ci = fil_post_challenge_index(c->api_version, sector_index, c->circuit_challenges, k);
            fr_from_u64(&o[1 + k], fil_post_leaf_challenge(randomness, ids[src], ci, c->nodes));
        }
    }
    return PM_OK;
}

/* ---------------------------------------------------------------- jobs */
void fil_post_job_free(fil_post_job_t *j) {
    fil_post_vanilla_set_free(&j->vanilla);
    free(j->sectors);
    free(j->ids);
    free(j->comm_r);
    memset(j, 0, sizeof *j);
}

pm_status fil_post_job_init(fil_post_job_t *j, fil_post_type_t want, const struct fil_proof_request *r, pm_error *err) {
    memset(j, 0, sizeof *j);
    const char *kind = want == FIL_POST_WINNING ? "WinningPoSt" : "WindowPoSt";
    j->rp = fil_registered_post((unsigned)r->registered_proof);
    if (!j->rp || r->registered_proof >= FIL_REGISTERED_POST_COUNT)
        return pm_error_set(err, PM_ERR_ARG, "request", PM_NO_OFFSET, "registered_proof %llu is not a PoSt proof (0..14)",
                            (unsigned long long)r->registered_proof);
    if (j->rp->type != want)
        return pm_error_set(err, PM_ERR_ARG, "request", PM_NO_OFFSET, "registered_proof %u (%s) is not a %s proof",
                            j->rp->id, j->rp->name, kind);
    if (r->sector_size && r->sector_size != j->rp->sector_size)
        return pm_error_set(err, PM_ERR_MISMATCH, "request", PM_NO_OFFSET,
                            "sector_size %llu differs from %s's %llu", (unsigned long long)r->sector_size, j->rp->name,
                            (unsigned long long)j->rp->sector_size);
    if (!r->has_randomness) return pm_error_set(err, PM_ERR_ARG, "request", PM_NO_OFFSET, "%s needs randomness", kind);
    if (want == FIL_POST_WINNING && r->partition_index)
        return pm_error_set(err, PM_ERR_ARG, "request", PM_NO_OFFSET, "WinningPoSt has no partition %u",
                            r->partition_index);
    pm_status st = fil_post_config(&j->cfg, j->rp->id, err);
    if (st) return st;
    j->miner_id = r->miner_id;
    fil_prover_id_from_miner(j->prover_id, r->miner_id);
    if (r->has_prover_id) { /* filecoin-ffi's own argument: the miner id's, when both are given */
        if (r->has_miner_id && memcmp(r->prover_id, j->prover_id, 32))
            return pm_error_set(err, PM_ERR_MISMATCH, "request", PM_NO_OFFSET,
                                "prover_id is not the prover id of miner_id %llu", (unsigned long long)r->miner_id);
        memcpy(j->prover_id, r->prover_id, 32);
    }
    memcpy(j->randomness, r->randomness, 32);
    j->partition = r->partition_index;
    if ((st = fil_post_vanilla_set_read(&j->vanilla, (const uint8_t *const *)r->vanilla, r->vanilla_len, r->n_vanilla,
                                        "vanilla_proofs", err)))
        return st;
    size_t n = j->vanilla.n;
    j->sectors = calloc(j->cfg.circuit_sectors, sizeof *j->sectors);
    j->ids = calloc(n, sizeof *j->ids);
    j->comm_r = calloc(n, sizeof *j->comm_r);
    if (!j->sectors || !j->ids || !j->comm_r) st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory");
    for (size_t i = 0; i < n && !st; i++) {
        j->ids[i] = j->vanilla.proofs[i].sector_id;
        memcpy(j->comm_r[i], j->vanilla.proofs[i].comm_r, 32);
    }
    if (!st) st = fil_post_arrange(j->sectors, &j->cfg, j->vanilla.proofs, n, err);
    if (st) fil_post_job_free(j);
    return st;
}

pm_status fil_post_job_verify(const fil_post_job_t *j, pm_error *err) {
    return fil_post_verify(&j->cfg, j->randomness, j->vanilla.proofs, j->vanilla.n, j->partition, err);
}

pm_status fil_post_job_public_inputs(fr_t *out, size_t n, const fil_post_job_t *j, pm_error *err) {
    return fil_post_public_inputs(out, n, &j->cfg, j->randomness, j->ids, (const uint8_t(*)[32])j->comm_r, j->vanilla.n,
                                  j->partition, err);
}
