/*
 * fil_gen.c — requests over our own test sectors (fil_gen.h), for `gen` of the three kinds
 * (cmd_proof_kinds.c) and `selfcheck` (cmd_selfcheck.c).
 */
#include "cli/fil_gen.h"

#include <stdlib.h>
#include <string.h>

#include "filecoin/post.h"
#include "filecoin/replica_id.h"
#include "filecoin/seal.h"
#include "filecoin/sha256_fr.h"
#include "filecoin/update.h"

static void derive32(uint8_t out[32], const char *tag, uint64_t seed) {
    uint8_t sb[8];
    for (int i = 0; i < 8; i++) sb[i] = (uint8_t)(seed >> (8 * i));
    fil_bytes_t parts[2] = {{tag, strlen(tag)}, {sb, 8}};
    fil_sha256_parts(out, parts, 2);
    fil_trim_fr32(out);
}

/* a sealed test sector (2 KiB / 8 MiB V1_1) of miner m, sector id; data NULL = CC */
static pm_status seal_sector(fil_seal_t *s, uint64_t size, uint64_t miner, uint64_t id, const uint8_t *data,
                             pm_error *err) {
    const fil_registered_proof_t *rp = fil_registered_proof_find(size, FIL_API_V1_1_0, FIL_FEATURE_NONE);
    if (!rp) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "no registered seal proof for this size");
    fil_seal_params_t p;
    memset(&p, 0, sizeof p);
    p.registered_proof = rp->id;
    p.data = data;
    fil_prover_id_from_miner(p.prover_id, miner);
    p.sector_id = id;
    derive32(p.ticket, "proofmill gen ticket", id);
    return fil_seal_run(s, &p, err);
}

int pm_cli_fil_sealable(uint64_t size) { return size == 2048 || size == (8ull << 20); }

pm_status pm_cli_fil_test_c1(fil_c1_t *c1, uint64_t sector_size, uint8_t ticket_byte, uint8_t seed_byte, pm_error *err) {
    memset(c1, 0, sizeof *c1);
    const fil_registered_proof_t *rp = fil_registered_proof_find(sector_size, FIL_API_V1_1_0, FIL_FEATURE_NONE);
    if (!rp || !pm_cli_fil_sealable(sector_size))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "no test sector of %llu bytes is sealed here (2 KiB, 8 MiB)",
                            (unsigned long long)sector_size);
    fil_seal_params_t p;
    memset(&p, 0, sizeof p);
    p.registered_proof = rp->id;
    fil_prover_id_from_miner(p.prover_id, 1000);
    p.sector_id = 1;
    memset(p.ticket, ticket_byte, 32);
    p.ticket[31] &= 0x3f;
    uint8_t seed[32];
    memset(seed, seed_byte, 32);
    seed[31] &= 0x3f;
    fil_seal_t sl;
    pm_status st = fil_seal_run(&sl, &p, err);
    if (st) return st;
    st = fil_c1_from_seal(c1, &sl, seed, err);
    fil_seal_free(&sl);
    return st;
}

static pm_status gen_post(fil_proof_request_t *r, const pm_fil_key *s, const pm_cli_fil_gen_opts *a, pm_error *err) {
    const int winning = s->d->post_type == FIL_POST_WINNING;
    /* the registered proof of this size: WinningPoSt V1; WindowPoSt V1 (API 1.0) or V1_2 (API 1.2) */
    unsigned id = FIL_REGISTERED_POST_COUNT;
    for (unsigned i = 0; i < FIL_REGISTERED_POST_COUNT; i++) {
        const fil_registered_post_t *rp = fil_registered_post(i);
        if (rp->sector_size == s->sector_size && rp->type == s->pc.type && rp->api_version == s->pc.api_version) id = i;
    }
    if (id == FIL_REGISTERED_POST_COUNT)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "no registered %s proof for %llu-byte sectors at API %s",
                            s->d->title, (unsigned long long)s->sector_size, fil_api_version_name(s->pc.api_version));
    fil_post_config_t c;
    pm_status st = fil_post_config(&c, id, err);
    if (st) return st;
    size_t n = winning ? 1 : a->sectors ? (size_t)a->sectors : 1;
    if (n > c.sector_count)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "a %s partition holds at most %u sectors",
                            s->d->title, c.sector_count);
    r->kind = winning ? FIL_REQ_WINNING_POST : FIL_REQ_WINDOW_POST_PARTITION;
    r->registered_proof = id;
    r->sector_size = s->sector_size;
    r->miner_id = a->miner;
    r->has_miner_id = 1;
    r->partition_index = winning ? 0 : a->partition;
    r->has_randomness = 1;
    derive32(r->randomness, "proofmill gen randomness", a->seed);
    for (size_t i = 0; i < n && !st; i++) {
        fil_arena_t ar = {0};
        fil_post_sector_proof_t p;
        uint64_t sid = 1 + i, si = winning ? 0 : (uint64_t)r->partition_index * c.sector_count + i;
        if (pm_cli_fil_sealable(s->sector_size)) {
            fil_seal_t sl;
            st = seal_sector(&sl, s->sector_size, a->miner, sid, NULL, err);
            if (!st) st = fil_post_prove_seal(&p, &ar, &c, &sl, r->randomness, si, err);
            if (!st) fil_seal_free(&sl);
        } else {
            st = fil_post_prove_synthetic(&p, &ar, &c, sid, a->seed, r->randomness, si, err);
        }
        uint8_t *b = NULL;
        size_t len;
        if (!st) st = fil_post_sector_proof_write(&b, &len, &p, err);
        if (!st) st = fil_proof_request_add_vanilla(r, b, len, err);
        free(b);
        fil_arena_free(&ar);
    }
    return st;
}

static pm_status gen_snap(fil_proof_request_t *r, const pm_fil_key *s, const pm_cli_fil_gen_opts *a, pm_error *err) {
    unsigned id = FIL_REGISTERED_UPDATE_COUNT;
    for (unsigned i = 0; i < FIL_REGISTERED_UPDATE_COUNT; i++)
        if (fil_registered_update(i)->sector_size == s->sector_size) id = i;
    if (id == FIL_REGISTERED_UPDATE_COUNT)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "no registered update proof for %llu-byte sectors",
                            (unsigned long long)s->sector_size);
    fil_update_t u;
    fil_seal_t sl;
    memset(&sl, 0, sizeof sl);
    pm_status st;
    if (pm_cli_fil_sealable(s->sector_size)) {
        st = seal_sector(&sl, s->sector_size, a->miner, 1, NULL, err);
        uint8_t *d = st ? NULL : malloc(s->sector_size);
        if (!st && !d) st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory");
        for (uint64_t i = 0; !st && i < s->sector_size; i += 32) derive32(d + i, "proofmill gen update data", a->seed * 0x100000001ull + i);
        if (!st) st = fil_update_encode(&u, &sl, d, err);
        free(d);
    } else {
        st = fil_update_synthetic(&u, s->sector_size, a->seed, err);
    }
    if (st) {
        fil_seal_free(&sl);
        return st;
    }
    r->kind = FIL_REQ_SNAP_DEALS_UPDATE;
    r->registered_proof = id;
    r->sector_size = s->sector_size;
    r->miner_id = a->miner;
    r->has_miner_id = 1;
    r->sector_number = 1;
    r->has_comm_r_old = r->has_comm_r_new = r->has_comm_d_new = 1;
    memcpy(r->comm_r_old, u.comm_r_old, 32);
    memcpy(r->comm_r_new, u.comm_r_new, 32);
    memcpy(r->comm_d_new, u.comm_d_new, 32);
    for (uint32_t k = 0; k < u.cfg.partitions && !st; k++) {
        fil_arena_t ar = {0};
        fil_update_partition_proof_t p;
        uint8_t *b = NULL;
        size_t len;
        st = fil_update_prove_partition(&p, &ar, &u, k, err);
        if (!st) st = fil_update_partition_proof_write(&b, &len, &p, err);
        if (!st) st = fil_proof_request_add_vanilla(r, b, len, err);
        free(b);
        fil_arena_free(&ar);
    }
    fil_update_free(&u);
    fil_seal_free(&sl);
    return st;
}

pm_status pm_cli_fil_gen(fil_proof_request_t *r, const pm_fil_key *s, const pm_cli_fil_gen_opts *o, pm_error *err) {
    if (!s || !s->d || !o)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "a request needs the kind's key and the options");
    return s->d->post_type ? gen_post(r, s, o, err) : gen_snap(r, s, o, err);
}
