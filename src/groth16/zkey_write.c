/*
 * zkey_write.c — streaming .zkey writer (see zkey_write.h).
 */
#include "groth16/zkey_write.h"

#include <blake2.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/encoding.h"
#include "util/file.h"
#include "util/outfile.h"
#include "util/parallel.h"

typedef struct {
    FILE *f;
    const char *path;
    blake2b_state hs;
    int hashing;
    int failed;
} zw_t;

static void zw_put(zw_t *z, const void *p, size_t n) {
    if (z->failed) return;
    if (fwrite(p, 1, n, z->f) != n) z->failed = errno ? errno : EIO;
    if (z->hashing) blake2b_update(&z->hs, p, n);
}

static void zw_u32(zw_t *z, uint32_t v) {
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    zw_put(z, b, 4);
}

static void zw_u64(zw_t *z, uint64_t v) {
    uint8_t b[8];
    for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
    zw_put(z, b, 8);
}

static void zw_section(zw_t *z, uint32_t id, uint64_t size) {
    int h = z->hashing;
    z->hashing = 0;
    zw_u32(z, id);
    zw_u64(z, size);
    z->hashing = h;
}

#define ZW_CHUNK 65536
static int zw_g1s(zw_t *z, const g1_affine_t *p, size_t n, uint8_t *buf) {
    for (size_t lo = 0; lo < n; lo += ZW_CHUNK) {
        size_t m = n - lo < ZW_CHUNK ? n - lo : ZW_CHUNK;
        PM_OMP(parallel for schedule(static) if (m > 1024))
        for (size_t i = 0; i < m; i++) g1_to_lem(buf + 96 * i, &p[lo + i]);
        zw_put(z, buf, 96 * m);
    }
    return z->failed;
}

static int zw_g2s(zw_t *z, const g2_affine_t *p, size_t n, uint8_t *buf) {
    for (size_t lo = 0; lo < n; lo += ZW_CHUNK) {
        size_t m = n - lo < ZW_CHUNK ? n - lo : ZW_CHUNK;
        PM_OMP(parallel for schedule(static) if (m > 1024))
        for (size_t i = 0; i < m; i++) g2_to_lem(buf + 192 * i, &p[lo + i]);
        zw_put(z, buf, 192 * m);
    }
    return z->failed;
}

pm_status zkey_write(const char *path, const zkey_t *zk, const uint8_t *cs_hash,
                     uint8_t *cs_hash_out, pm_error *err) {
    if (!zk->coefs && zk->n_coefs)
        return pm_error_set(err, PM_ERR_ARG, path, PM_NO_OFFSET,
                            "zkey has no coefficient list (read with ZKEY_SKIP_COEFS_LIST?)");
    if (!zk->ic || !zk->a || !zk->b1 || !zk->b2 || !zk->h || (!zk->c && zk->n_vars > zk->n_public + 1))
        return pm_error_set(err, PM_ERR_ARG, path, PM_NO_OFFSET, "zkey has missing sections");
    uint8_t *buf = malloc((size_t)ZW_CHUNK * 192);
    if (!buf) return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "write buffer");
    zw_t z = {0};
    z.path = path;
    pm_outfile o; /* written beside path, renamed into place when complete */
    pm_status ost = pm_outfile_open(&o, path, err);
    if (ost) {
        free(buf);
        return ost;
    }
    z.f = o.f;
    blake2b_init(&z.hs, 64);
    uint64_t nv = zk->n_vars, np = zk->n_public, N = zk->domain_size;
    zw_put(&z, "zkey", 4);
    zw_u32(&z, 1);
    zw_u32(&z, 10);
    /* 1: protocol */
    zw_section(&z, 1, 4);
    zw_u32(&z, 1);
    /* 2: header */
    zw_section(&z, 2, 4 + 48 + 4 + 32 + 12 + 3 * 96 + 3 * 192);
    {
        uint8_t q[48], r[32];
        for (int i = 0; i < 4; i++)
            for (int k = 0; k < 8; k++) r[8 * i + k] = (uint8_t)(FR_MODULUS.l[i] >> (8 * k));
        /* FP_MODULUS / FR_MODULUS are plain integers: their limbs are written LE as is. */
        for (int i = 0; i < 6; i++)
            for (int k = 0; k < 8; k++) q[8 * i + k] = (uint8_t)(FP_MODULUS.l[i] >> (8 * k));
        zw_u32(&z, 48);
        zw_put(&z, q, 48);
        zw_u32(&z, 32);
        zw_put(&z, r, 32);
        zw_u32(&z, (uint32_t)nv);
        zw_u32(&z, (uint32_t)np);
        zw_u32(&z, (uint32_t)N);
        zw_g1s(&z, &zk->alpha1, 1, buf);
        zw_g1s(&z, &zk->beta1, 1, buf);
        zw_g2s(&z, &zk->beta2, 1, buf);
        zw_g2s(&z, &zk->gamma2, 1, buf);
        zw_g1s(&z, &zk->delta1, 1, buf);
        zw_g2s(&z, &zk->delta2, 1, buf);
    }
    z.hashing = 1;
    /* 3: IC */
    zw_section(&z, 3, (np + 1) * 96);
    zw_g1s(&z, zk->ic, np + 1, buf);
    /* 4: coefficients */
    zw_section(&z, 4, 4 + (uint64_t)zk->n_coefs * 44);
    zw_u32(&z, zk->n_coefs);
    for (uint32_t i = 0; i < zk->n_coefs && !z.failed; i++) {
        const zkey_coef_t *e = &zk->coefs[i];
        uint8_t b[44];
        for (int k = 0; k < 4; k++) {
            b[k] = (uint8_t)(e->matrix >> (8 * k));
            b[4 + k] = (uint8_t)(e->constraint >> (8 * k));
            b[8 + k] = (uint8_t)(e->signal >> (8 * k));
        }
        for (int l = 0; l < 4; l++)
            for (int k = 0; k < 8; k++) b[12 + 8 * l + k] = (uint8_t)(e->value.l[l] >> (8 * k));
        zw_put(&z, b, 44);
    }
    /* 5..9 */
    zw_section(&z, 5, nv * 96);
    zw_g1s(&z, zk->a, nv, buf);
    zw_section(&z, 6, nv * 96);
    zw_g1s(&z, zk->b1, nv, buf);
    zw_section(&z, 7, nv * 192);
    zw_g2s(&z, zk->b2, nv, buf);
    zw_section(&z, 8, (nv - np - 1) * 96);
    zw_g1s(&z, zk->c, nv - np - 1, buf);
    zw_section(&z, 9, N * 96);
    zw_g1s(&z, zk->h, N, buf);
    z.hashing = 0;
    /* 10: transcript */
    uint8_t hash[64];
    if (cs_hash)
        memcpy(hash, cs_hash, 64);
    else
        blake2b_final(&z.hs, hash, 64);
    if (cs_hash_out) memcpy(cs_hash_out, hash, 64);
    zw_section(&z, 10, 68);
    zw_put(&z, hash, 64);
    zw_u32(&z, 0);
    free(buf);
    if (z.failed) {
        pm_outfile_abort(&o);
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "write failed: %s", strerror(z.failed));
    }
    return pm_outfile_commit(&o, err);
}
