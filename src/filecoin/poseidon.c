/*
 * poseidon.c — the two Poseidon schedules of poseidon.h (neptune v11 poseidon.rs `hash` and
 * `hash_correct`). Costs per hash (t = arity + 1, M = Montgomery multiplication, x^5 = 2S + 1M):
 *   plain:     (R_F * t + R_P) x^5 + (R_F + R_P) t^2 M      (arity 8: 129 x^5 + 5265 M)
 *   optimised: (R_F * t + R_P) x^5 + (R_F - 1) t^2 M + t^2 M (pre-sparse) + R_P (2t - 1) M
 *              (arity 8: 129 x^5 + 729 M + 969 M)
 */
#include <string.h>

#include "filecoin/poseidon.h"

#define TMAX (FIL_POSEIDON_MAX_ARITY + 1)

static inline void sbox(fr_t *x) {
    fr_t y;
    fr_sqr(&y, x);
    fr_sqr(&y, &y);
    fr_mul(x, &y, x);
}

/* s = s x m (row vector times t*t matrix) */
static void mix(fr_t *s, const fr_t *m, unsigned t) {
    fr_t out[TMAX], x;
    for (unsigned j = 0; j < t; j++) {
        fr_t acc = FR_ZERO;
        for (unsigned i = 0; i < t; i++) {
            fr_mul(&x, &s[i], &m[i * t + j]);
            fr_add(&acc, &acc, &x);
        }
        out[j] = acc;
    }
    memcpy(s, out, sizeof(fr_t) * t);
}

static void load(fr_t *s, const fil_poseidon_t *c, const fr_t *in) {
    s[0] = c->domain_tag;
    memcpy(s + 1, in, sizeof(fr_t) * c->arity);
}

void fil_poseidon_hash_plain(fr_t *out, const fil_poseidon_t *c, const fr_t *in) {
    const unsigned t = c->t, h = c->rf / 2;
    fr_t s[TMAX];
    load(s, c, in);
    const fr_t *k = c->rc;
    for (unsigned r = 0; r < c->rf + c->rp; r++, k += t) {
        for (unsigned i = 0; i < t; i++) fr_add(&s[i], &s[i], &k[i]);
        if (r < h || r >= h + c->rp)
            for (unsigned i = 0; i < t; i++) sbox(&s[i]);
        else
            sbox(&s[0]);
        mix(s, c->mds, t);
    }
    *out = s[1];
}

void fil_poseidon_hash(fr_t *out, const fil_poseidon_t *c, const fr_t *in) {
    const unsigned t = c->t, h = c->rf / 2;
    fr_t s[TMAX];
    load(s, c, in);
    const fr_t *k = c->crc;
    for (unsigned i = 0; i < t; i++) fr_add(&s[i], &s[i], &k[i]);
    k += t;
    /* first half: x^5, add the (moved) constants of the next round, mix */
    for (unsigned r = 0; r < h; r++) {
        for (unsigned i = 0; i < t; i++) {
            sbox(&s[i]);
            fr_add(&s[i], &s[i], &k[i]);
        }
        k += t;
        mix(s, r == h - 1 ? c->pre_sparse : c->mds, t);
    }
    /* partial rounds: one S-box, one constant, one sparse matrix */
    for (unsigned r = 0; r < c->rp; r++) {
        sbox(&s[0]);
        fr_add(&s[0], &s[0], k++);
        const fr_t *wh = c->w_hat + (size_t)r * t, *vr = c->v_rest + (size_t)r * (t - 1);
        fr_t s0 = s[0], acc, x;
        fr_mul(&acc, &wh[0], &s[0]);
        for (unsigned i = 1; i < t; i++) {
            fr_mul(&x, &wh[i], &s[i]);
            fr_add(&acc, &acc, &x);
        }
        for (unsigned j = 1; j < t; j++) {
            fr_mul(&x, &vr[j - 1], &s0);
            fr_add(&s[j], &s[j], &x);
        }
        s[0] = acc;
    }
    /* second half: h - 1 rounds with constants, then the terminal round without */
    for (unsigned r = 0; r + 1 < h; r++) {
        for (unsigned i = 0; i < t; i++) {
            sbox(&s[i]);
            fr_add(&s[i], &s[i], &k[i]);
        }
        k += t;
        mix(s, c->mds, t);
    }
    for (unsigned i = 0; i < t; i++) sbox(&s[i]);
    mix(s, c->mds, t);
    *out = s[1];
}

pm_status fil_poseidon_hash_bytes_checked(uint8_t out[32], const uint8_t *in, unsigned arity,
                                          pm_error *err) {
    const fil_poseidon_t *c = fil_poseidon_constants(arity);
    if (!c) {
        memset(out, 0, 32);
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "Poseidon: arity %u unsupported (1..%u) or out of memory", arity,
                            FIL_POSEIDON_MAX_ARITY);
    }
    fr_t x[FIL_POSEIDON_MAX_ARITY], r;
    for (unsigned i = 0; i < arity; i++)
        if (fr_from_le_bytes(&x[i], in + 32 * i)) {
            memset(out, 0, 32);
            return pm_error_set(err, PM_ERR_ENCODING, "", (uint64_t)32 * i,
                                "Poseidon input %u is not a canonical Fr (>= r)", i);
        }
    fil_poseidon_hash(&r, c, x);
    fr_to_le_bytes(out, &r);
    return PM_OK;
}

void fil_poseidon_hash_bytes(uint8_t out[32], const uint8_t *in, unsigned arity) {
    const fil_poseidon_t *c = fil_poseidon_constants(arity);
    if (!c) {
        memset(out, 0, 32);
        return;
    }
    fr_t x[FIL_POSEIDON_MAX_ARITY], r;
    for (unsigned i = 0; i < arity; i++) (void)fr_from_le_bytes(&x[i], in + 32 * i); /* >= r -> 0 */
    fil_poseidon_hash(&r, c, x);
    fr_to_le_bytes(out, &r);
}
