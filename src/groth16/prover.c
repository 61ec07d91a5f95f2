/*
 * prover.c — the snarkjs conveniences over the one start phase and assembly (start.h), and the
 * blinding scalars. The contract, formulas and sources are in prover.h.
 */
#include "groth16/prover.h"
#include "util/splitmix.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "groth16/key.h"
#include "msm/msm.h"

/* A heap key view of zk (kept by the handle: the handle may outlive the caller's frame). */
static pm_status zkey_view(groth16_key **out, const zkey_t *zk, const groth16_prove_opts_t *opts, int with_domain,
                           pm_error *err) {
    groth16_key *k = malloc(sizeof *k);
    if (!k) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "out of memory");
    pm_status st = groth16_key_from_zkey(k, zk, opts ? opts->domain : NULL, with_domain, err);
    if (st) {
        free(k);
        return st;
    }
    *out = k;
    return PM_OK;
}

static void view_free(groth16_key *k) {
    groth16_key_free(k);
    free(k);
}

size_t groth16_start_scratch_size(const zkey_t *zk, unsigned threads) {
    groth16_key k;
    if (groth16_key_from_zkey(&k, zk, NULL, 0, NULL)) return 0;
    return groth16_key_start_scratch_size(&k, threads);
}

size_t groth16_finalize_scratch_size(const zkey_t *zk, unsigned threads) {
    return msm_g2_scratch_size(zk->n_vars, threads);
}

pm_status groth16_pending_init(groth16_pending_t *p, const zkey_t *zk, const fr_t *w, size_t n,
                               const groth16_prove_opts_t *opts, pm_error *err) {
    memset(p, 0, sizeof *p);
    groth16_key *k = NULL;
    pm_status st = zkey_view(&k, zk, NULL, 0, err);
    if (st) return st;
    if ((st = groth16_pending_init_key(p, k, w, n, opts, err)) || (st = groth16_pending_host_scalars(p, w, err))) {
        view_free(k);
        return st;
    }
    p->owned_key = k;
    return PM_OK;
}

pm_status groth16_prove_start(groth16_pending_t *p, const zkey_t *zk, const fr_t *w, size_t n,
                              const groth16_prove_opts_t *opts, pm_error *err) {
    memset(p, 0, sizeof *p);
    groth16_key *k = NULL;
    pm_status st = zkey_view(&k, zk, opts, 1, err);
    if (st) return st;
    groth16_exec x = {.ops = &groth16_ops_cpu, .threads = opts ? opts->threads : 0};
    if ((st = groth16_start(p, k, w, n, &x, opts, err))) {
        view_free(k);
        return st;
    }
    p->owned_key = k;
    return PM_OK;
}

void groth16_public_signals(fr_t *out, const zkey_t *zk, const fr_t *w) {
    for (uint32_t i = 0; i < zk->n_public; i++) out[i] = w[1 + i];
}

pm_status groth16_prove_finalize(groth16_proof_t *proof, groth16_pending_t *p, const fr_t *r,
                                 const fr_t *s, pm_error *err) {
    return groth16_finalize(proof, p, r, s, err);
}

pm_status groth16_prove(groth16_proof_t *proof, const zkey_t *zk, const fr_t *w, size_t n,
                        const fr_t *r, const fr_t *s, const groth16_prove_opts_t *opts,
                        groth16_timings_t *timings, pm_error *err) {
    groth16_pending_t p;
    pm_status st = groth16_prove_start(&p, zk, w, n, opts, err);
    if (st) {
        if (timings) memset(timings, 0, sizeof *timings);
        memset(proof, 0, sizeof *proof);
        return st;
    }
    st = groth16_finalize(proof, &p, r, s, err);
    if (timings) *timings = p.t;
    groth16_pending_free(&p);
    return st;
}

/* ---- blinding scalars ---- */

/* 1 when the plain 4-limb integer l is < r */
static int below_r(const uint64_t l[4]) {
    for (int i = 3; i >= 0; i--) {
        if (l[i] < FR_MODULUS.l[i]) return 1;
        if (l[i] > FR_MODULUS.l[i]) return 0;
    }
    return 0;
}

pm_status groth16_random_scalar(fr_t *out, pm_error *err) {
    for (;;) {
        fr_t v;
        size_t got = 0;
        uint8_t *bytes = (uint8_t *)v.l;
        while (got < sizeof v.l) {
            ssize_t k = getrandom(bytes + got, sizeof v.l - got, 0);
            if (k < 0) {
                if (errno == EINTR) continue;
                return pm_error_set(err, PM_ERR_IO, "getrandom", PM_NO_OFFSET,
                                    "OS random generator failed: %s", strerror(errno));
            }
            got += (size_t)k;
        }
        v.l[3] &= 0x7fffffffffffffffull; /* r < 2^255: keep 255 bits, accept ~90% */
        if (below_r(v.l)) {
            fr_to_mont(out, &v);
            memset(&v, 0, sizeof v);
            return PM_OK;
        }
    }
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t xoshiro_next(uint64_t s[4]) {
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static void seeded_one(fr_t *out, uint64_t st[4]) {
    for (;;) {
        fr_t v;
        for (int i = 0; i < 4; i++) v.l[i] = xoshiro_next(st);
        v.l[3] &= 0x7fffffffffffffffull;
        if (below_r(v.l)) {
            fr_to_mont(out, &v);
            return;
        }
    }
}

void groth16_seeded_scalars(fr_t *r, fr_t *s, uint64_t seed) {
    uint64_t st[4], x = seed;
    for (int i = 0; i < 4; i++) st[i] = pm_splitmix64(&x);
    seeded_one(r, st);
    seeded_one(s, st);
}
