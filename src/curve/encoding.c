/*
 * encoding.c — ZCash/IETF and snarkjs LEM point encodings (contract in encoding.h).
 * Flag handling follows the zkcrypto bls12_381 serialization rules (read for facts only):
 * uncompressed encodings must have compression and sort bits clear; an infinity flag requires
 * every other bit zero and the sort bit clear.
 */
#include "curve/encoding.h"

#include <string.h>

#include "curve/curve_constants.h"

#define FLAG_COMPRESSED 0x80u
#define FLAG_INFINITY 0x40u
#define FLAG_SORT 0x20u
#define FLAG_MASK 0xe0u

static pm_status fail(pm_status code, pm_error *err, const char *what, const char *why) {
    return pm_error_set(err, code, "", PM_NO_OFFSET, "%s: %s", what, why);
}

static int all_zero(const uint8_t *b, size_t n) {
    uint8_t acc = 0;
    for (size_t i = 0; i < n; i++) acc |= b[i];
    return acc == 0;
}

/* Read the 48-byte big-endian Fp element at in (flag bits of byte 0 masked when mask != 0). */
static int read_be(fp_t *r, const uint8_t *in, int mask) {
    uint8_t t[48];
    memcpy(t, in, 48);
    if (mask) t[0] &= (uint8_t)~FLAG_MASK;
    return fp_from_be_bytes(r, t);
}

size_t g1_encoded_size(pm_point_format fmt) {
    switch (fmt) {
    case PM_POINT_ZCASH_COMPRESSED: return G1_COMPRESSED_BYTES;
    case PM_POINT_ZCASH_UNCOMPRESSED: return G1_UNCOMPRESSED_BYTES;
    case PM_POINT_SNARKJS_LEM: return G1_LEM_BYTES;
    }
    return 0;
}

size_t g2_encoded_size(pm_point_format fmt) {
    switch (fmt) {
    case PM_POINT_ZCASH_COMPRESSED: return G2_COMPRESSED_BYTES;
    case PM_POINT_ZCASH_UNCOMPRESSED: return G2_UNCOMPRESSED_BYTES;
    case PM_POINT_SNARKJS_LEM: return G2_LEM_BYTES;
    }
    return 0;
}

/* ================================================================ G1 */

void g1_to_compressed(uint8_t out[48], const g1_affine_t *p) {
    if (g1_affine_is_infinity(p)) {
        memset(out, 0, 48);
        out[0] = FLAG_COMPRESSED | FLAG_INFINITY;
        return;
    }
    fp_to_be_bytes(out, &p->x);
    out[0] |= FLAG_COMPRESSED;
    if (fp_is_lexicographically_largest(&p->y)) out[0] |= FLAG_SORT;
}

void g1_to_uncompressed(uint8_t out[96], const g1_affine_t *p) {
    if (g1_affine_is_infinity(p)) {
        memset(out, 0, 96);
        out[0] = FLAG_INFINITY;
        return;
    }
    fp_to_be_bytes(out, &p->x);
    fp_to_be_bytes(out + 48, &p->y);
}

void g1_to_lem(uint8_t out[96], const g1_affine_t *p) {
    /* infinity (0, 0) writes as all zero bytes by itself */
    fp_to_mont_le_bytes(out, &p->x);
    fp_to_mont_le_bytes(out + 48, &p->y);
}

/* The checks shared by every G1 decoder once (x, y) are canonical field elements. */
static pm_status g1_check(g1_affine_t *r, unsigned flags, pm_error *err, const char *what) {
    if (g1_affine_is_infinity(r) || !g1_affine_is_on_curve(r)) {
        /* (0, 0) reached here without an infinity marker is not a point of the curve */
        memset(r, 0, sizeof *r);
        return fail(PM_ERR_NOT_ON_CURVE, err, what, "point is not on the curve y^2 = x^3 + 4");
    }
    if ((flags & PM_DECODE_CHECK_SUBGROUP) && !g1_affine_in_subgroup_vartime(r)) {
        memset(r, 0, sizeof *r);
        return fail(PM_ERR_NOT_IN_SUBGROUP, err, what, "point is not in the order-r subgroup G1");
    }
    return PM_OK;
}

pm_status g1_from_compressed(g1_affine_t *r, const uint8_t in[48], unsigned flags, pm_error *err) {
    static const char what[] = "G1 compressed";
    memset(r, 0, sizeof *r);
    unsigned f = in[0] & FLAG_MASK;
    if (!(f & FLAG_COMPRESSED)) return fail(PM_ERR_ENCODING, err, what, "compression flag not set");
    if (f & FLAG_INFINITY) {
        uint8_t t[48];
        memcpy(t, in, 48);
        t[0] &= (uint8_t)~(FLAG_COMPRESSED | FLAG_INFINITY);
        if (!all_zero(t, 48))
            return fail(PM_ERR_ENCODING, err, what, "infinity flag with nonzero bits (sort flag or x)");
        return PM_OK;
    }
    fp_t x, rhs, y;
    if (read_be(&x, in, 1) != 0) return fail(PM_ERR_ENCODING, err, what, "x >= p (non-canonical)");
    const fp_t b = CURVE_G1_B;
    fp_sqr(&rhs, &x);
    fp_mul(&rhs, &rhs, &x);
    fp_add(&rhs, &rhs, &b);
    if (!fp_sqrt(&y, &rhs)) return fail(PM_ERR_NOT_ON_CURVE, err, what, "x^3 + 4 is not a square");
    if (fp_is_lexicographically_largest(&y) != ((f & FLAG_SORT) != 0)) fp_neg(&y, &y);
    r->x = x;
    r->y = y;
    if ((flags & PM_DECODE_CHECK_SUBGROUP) && !g1_affine_in_subgroup_vartime(r)) {
        memset(r, 0, sizeof *r);
        return fail(PM_ERR_NOT_IN_SUBGROUP, err, what, "point is not in the order-r subgroup G1");
    }
    return PM_OK;
}

pm_status g1_from_uncompressed(g1_affine_t *r, const uint8_t in[96], unsigned flags, pm_error *err) {
    static const char what[] = "G1 uncompressed";
    memset(r, 0, sizeof *r);
    unsigned f = in[0] & FLAG_MASK;
    if (f & FLAG_COMPRESSED) return fail(PM_ERR_ENCODING, err, what, "compression flag set");
    if (f & FLAG_SORT) return fail(PM_ERR_ENCODING, err, what, "sort flag set");
    if (f & FLAG_INFINITY) {
        uint8_t t[96];
        memcpy(t, in, 96);
        t[0] &= (uint8_t)~FLAG_INFINITY;
        if (!all_zero(t, 96)) return fail(PM_ERR_ENCODING, err, what, "infinity flag with nonzero x or y");
        return PM_OK;
    }
    if (read_be(&r->x, in, 0) != 0) return fail(PM_ERR_ENCODING, err, what, "x >= p (non-canonical)");
    if (read_be(&r->y, in + 48, 0) != 0) {
        memset(r, 0, sizeof *r);
        return fail(PM_ERR_ENCODING, err, what, "y >= p (non-canonical)");
    }
    return g1_check(r, flags, err, what);
}

pm_status g1_from_lem(g1_affine_t *r, const uint8_t in[96], unsigned flags, pm_error *err) {
    static const char what[] = "G1 snarkjs LEM";
    memset(r, 0, sizeof *r);
    if (all_zero(in, 96)) return PM_OK;
    if (fp_from_mont_le_bytes(&r->x, in) != 0)
        return fail(PM_ERR_ENCODING, err, what, "x (Montgomery) >= p (non-canonical)");
    if (fp_from_mont_le_bytes(&r->y, in + 48) != 0) {
        memset(r, 0, sizeof *r);
        return fail(PM_ERR_ENCODING, err, what, "y (Montgomery) >= p (non-canonical)");
    }
    return g1_check(r, flags, err, what);
}

/* ================================================================ G2 */

void g2_to_compressed(uint8_t out[96], const g2_affine_t *p) {
    if (g2_affine_is_infinity(p)) {
        memset(out, 0, 96);
        out[0] = FLAG_COMPRESSED | FLAG_INFINITY;
        return;
    }
    fp_to_be_bytes(out, &p->x.c1);
    fp_to_be_bytes(out + 48, &p->x.c0);
    out[0] |= FLAG_COMPRESSED;
    if (fp2_is_lexicographically_largest(&p->y)) out[0] |= FLAG_SORT;
}

void g2_to_uncompressed(uint8_t out[192], const g2_affine_t *p) {
    if (g2_affine_is_infinity(p)) {
        memset(out, 0, 192);
        out[0] = FLAG_INFINITY;
        return;
    }
    fp_to_be_bytes(out, &p->x.c1);
    fp_to_be_bytes(out + 48, &p->x.c0);
    fp_to_be_bytes(out + 96, &p->y.c1);
    fp_to_be_bytes(out + 144, &p->y.c0);
}

void g2_to_lem(uint8_t out[192], const g2_affine_t *p) {
    fp_to_mont_le_bytes(out, &p->x.c0);
    fp_to_mont_le_bytes(out + 48, &p->x.c1);
    fp_to_mont_le_bytes(out + 96, &p->y.c0);
    fp_to_mont_le_bytes(out + 144, &p->y.c1);
}

static pm_status g2_check(g2_affine_t *r, unsigned flags, pm_error *err, const char *what) {
    if (g2_affine_is_infinity(r) || !g2_affine_is_on_curve(r)) {
        memset(r, 0, sizeof *r);
        return fail(PM_ERR_NOT_ON_CURVE, err, what, "point is not on the curve y^2 = x^3 + 4(1+u)");
    }
    if ((flags & PM_DECODE_CHECK_SUBGROUP) && !g2_affine_in_subgroup_vartime(r)) {
        memset(r, 0, sizeof *r);
        return fail(PM_ERR_NOT_IN_SUBGROUP, err, what, "point is not in the order-r subgroup G2");
    }
    return PM_OK;
}

pm_status g2_from_compressed(g2_affine_t *r, const uint8_t in[96], unsigned flags, pm_error *err) {
    static const char what[] = "G2 compressed";
    memset(r, 0, sizeof *r);
    unsigned f = in[0] & FLAG_MASK;
    if (!(f & FLAG_COMPRESSED)) return fail(PM_ERR_ENCODING, err, what, "compression flag not set");
    if (f & FLAG_INFINITY) {
        uint8_t t[96];
        memcpy(t, in, 96);
        t[0] &= (uint8_t)~(FLAG_COMPRESSED | FLAG_INFINITY);
        if (!all_zero(t, 96))
            return fail(PM_ERR_ENCODING, err, what, "infinity flag with nonzero bits (sort flag or x)");
        return PM_OK;
    }
    fp2_t x, rhs, y;
    if (read_be(&x.c1, in, 1) != 0) return fail(PM_ERR_ENCODING, err, what, "x.c1 >= p (non-canonical)");
    if (read_be(&x.c0, in + 48, 0) != 0) return fail(PM_ERR_ENCODING, err, what, "x.c0 >= p (non-canonical)");
    const fp2_t b = CURVE_G2_B;
    fp2_sqr(&rhs, &x);
    fp2_mul(&rhs, &rhs, &x);
    fp2_add(&rhs, &rhs, &b);
    if (!fp2_sqrt_vartime(&y, &rhs))
        return fail(PM_ERR_NOT_ON_CURVE, err, what, "x^3 + 4(1+u) is not a square in Fp2");
    if (fp2_is_lexicographically_largest(&y) != ((f & FLAG_SORT) != 0)) fp2_neg(&y, &y);
    r->x = x;
    r->y = y;
    /* guard against a square root helper returning a wrong root: costs 1M + 2S (Fp2) */
    if (!g2_affine_is_on_curve(r)) {
        memset(r, 0, sizeof *r);
        return fail(PM_ERR_NOT_ON_CURVE, err, what, "decompressed point is not on the curve");
    }
    if ((flags & PM_DECODE_CHECK_SUBGROUP) && !g2_affine_in_subgroup_vartime(r)) {
        memset(r, 0, sizeof *r);
        return fail(PM_ERR_NOT_IN_SUBGROUP, err, what, "point is not in the order-r subgroup G2");
    }
    return PM_OK;
}

pm_status g2_from_uncompressed(g2_affine_t *r, const uint8_t in[192], unsigned flags, pm_error *err) {
    static const char what[] = "G2 uncompressed";
    memset(r, 0, sizeof *r);
    unsigned f = in[0] & FLAG_MASK;
    if (f & FLAG_COMPRESSED) return fail(PM_ERR_ENCODING, err, what, "compression flag set");
    if (f & FLAG_SORT) return fail(PM_ERR_ENCODING, err, what, "sort flag set");
    if (f & FLAG_INFINITY) {
        uint8_t t[192];
        memcpy(t, in, 192);
        t[0] &= (uint8_t)~FLAG_INFINITY;
        if (!all_zero(t, 192)) return fail(PM_ERR_ENCODING, err, what, "infinity flag with nonzero x or y");
        return PM_OK;
    }
    static const char *const names[4] = {"x.c1 >= p (non-canonical)", "x.c0 >= p (non-canonical)",
                                         "y.c1 >= p (non-canonical)", "y.c0 >= p (non-canonical)"};
    fp_t *dst[4] = {&r->x.c1, &r->x.c0, &r->y.c1, &r->y.c0};
    for (int i = 0; i < 4; i++) {
        if (read_be(dst[i], in + 48 * i, 0) != 0) {
            memset(r, 0, sizeof *r);
            return fail(PM_ERR_ENCODING, err, what, names[i]);
        }
    }
    return g2_check(r, flags, err, what);
}

pm_status g2_from_lem(g2_affine_t *r, const uint8_t in[192], unsigned flags, pm_error *err) {
    static const char what[] = "G2 snarkjs LEM";
    memset(r, 0, sizeof *r);
    if (all_zero(in, 192)) return PM_OK;
    static const char *const names[4] = {"x.c0 (Montgomery) >= p", "x.c1 (Montgomery) >= p",
                                         "y.c0 (Montgomery) >= p", "y.c1 (Montgomery) >= p"};
    fp_t *dst[4] = {&r->x.c0, &r->x.c1, &r->y.c0, &r->y.c1};
    for (int i = 0; i < 4; i++) {
        if (fp_from_mont_le_bytes(dst[i], in + 48 * i) != 0) {
            memset(r, 0, sizeof *r);
            return fail(PM_ERR_ENCODING, err, what, names[i]);
        }
    }
    return g2_check(r, flags, err, what);
}

/* ================================================================ generic and batch */

pm_status g1_encode(uint8_t *out, size_t out_len, const g1_affine_t *p, pm_point_format fmt) {
    size_t need = g1_encoded_size(fmt);
    if (need == 0) return PM_ERR_ARG;
    if (out_len != need) return PM_ERR_ENCODING;
    switch (fmt) {
    case PM_POINT_ZCASH_COMPRESSED: g1_to_compressed(out, p); break;
    case PM_POINT_ZCASH_UNCOMPRESSED: g1_to_uncompressed(out, p); break;
    case PM_POINT_SNARKJS_LEM: g1_to_lem(out, p); break;
    }
    return PM_OK;
}

pm_status g2_encode(uint8_t *out, size_t out_len, const g2_affine_t *p, pm_point_format fmt) {
    size_t need = g2_encoded_size(fmt);
    if (need == 0) return PM_ERR_ARG;
    if (out_len != need) return PM_ERR_ENCODING;
    switch (fmt) {
    case PM_POINT_ZCASH_COMPRESSED: g2_to_compressed(out, p); break;
    case PM_POINT_ZCASH_UNCOMPRESSED: g2_to_uncompressed(out, p); break;
    case PM_POINT_SNARKJS_LEM: g2_to_lem(out, p); break;
    }
    return PM_OK;
}

pm_status g1_decode(g1_affine_t *r, const uint8_t *in, size_t in_len, pm_point_format fmt,
                    unsigned flags, pm_error *err) {
    size_t need = g1_encoded_size(fmt);
    memset(r, 0, sizeof *r);
    if (need == 0) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "G1: unknown point format %d", (int)fmt);
    if (in_len != need)
        return pm_error_set(err, PM_ERR_ENCODING, "", PM_NO_OFFSET, "G1: wrong length %zu, expected %zu",
                            in_len, need);
    switch (fmt) {
    case PM_POINT_ZCASH_COMPRESSED: return g1_from_compressed(r, in, flags, err);
    case PM_POINT_ZCASH_UNCOMPRESSED: return g1_from_uncompressed(r, in, flags, err);
    case PM_POINT_SNARKJS_LEM: return g1_from_lem(r, in, flags, err);
    }
    return PM_ERR_ARG;
}

pm_status g2_decode(g2_affine_t *r, const uint8_t *in, size_t in_len, pm_point_format fmt,
                    unsigned flags, pm_error *err) {
    size_t need = g2_encoded_size(fmt);
    memset(r, 0, sizeof *r);
    if (need == 0) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "G2: unknown point format %d", (int)fmt);
    if (in_len != need)
        return pm_error_set(err, PM_ERR_ENCODING, "", PM_NO_OFFSET, "G2: wrong length %zu, expected %zu",
                            in_len, need);
    switch (fmt) {
    case PM_POINT_ZCASH_COMPRESSED: return g2_from_compressed(r, in, flags, err);
    case PM_POINT_ZCASH_UNCOMPRESSED: return g2_from_uncompressed(r, in, flags, err);
    case PM_POINT_SNARKJS_LEM: return g2_from_lem(r, in, flags, err);
    }
    return PM_ERR_ARG;
}

/* Re-file a single-point error at its place in a file. */
static pm_status batch_fail(pm_status st, const pm_error *one, const char *file, uint64_t offset,
                            size_t index, pm_error *err) {
    return pm_error_set(err, st, file ? file : "", offset, "point %zu: %s", index, one->msg);
}

pm_status g1s_decode(g1_affine_t *out, size_t n, const uint8_t *in, pm_point_format fmt,
                     unsigned flags, const char *file, uint64_t base_offset, size_t *bad_index,
                     pm_error *err) {
    size_t sz = g1_encoded_size(fmt);
    if (sz == 0) return pm_error_set(err, PM_ERR_ARG, file ? file : "", base_offset, "G1: unknown point format %d", (int)fmt);
    pm_error one;
    for (size_t i = 0; i < n; i++) {
        pm_status st = g1_decode(&out[i], in + i * sz, sz, fmt, flags, &one);
        if (st != PM_OK) {
            if (bad_index) *bad_index = i;
            return batch_fail(st, &one, file, base_offset + (uint64_t)i * sz, i, err);
        }
    }
    return PM_OK;
}

pm_status g2s_decode(g2_affine_t *out, size_t n, const uint8_t *in, pm_point_format fmt,
                     unsigned flags, const char *file, uint64_t base_offset, size_t *bad_index,
                     pm_error *err) {
    size_t sz = g2_encoded_size(fmt);
    if (sz == 0) return pm_error_set(err, PM_ERR_ARG, file ? file : "", base_offset, "G2: unknown point format %d", (int)fmt);
    pm_error one;
    for (size_t i = 0; i < n; i++) {
        pm_status st = g2_decode(&out[i], in + i * sz, sz, fmt, flags, &one);
        if (st != PM_OK) {
            if (bad_index) *bad_index = i;
            return batch_fail(st, &one, file, base_offset + (uint64_t)i * sz, i, err);
        }
    }
    return PM_OK;
}
