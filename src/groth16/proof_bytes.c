/*
 * proof_bytes.c — 192-byte proofs and batch verification (see proof_bytes.h).
 */
#include "groth16/proof_bytes.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "curve/encoding.h"
#include "msm/msm.h"
#include "pairing/pairing.h"
#include "util/file.h"
#include "util/outfile.h"

void groth16_proof_to_bytes(uint8_t out[192], const groth16_proof_t *proof) {
    g1_to_compressed(out, &proof->a);
    g2_to_compressed(out + 48, &proof->b);
    g1_to_compressed(out + 144, &proof->c);
}

pm_status groth16_proof_from_bytes(groth16_proof_t *proof, const uint8_t in[192],
                                   const char *file, uint64_t offset, pm_error *err) {
    pm_status st = g1_from_compressed(&proof->a, in, PM_DECODE_CHECK_SUBGROUP, err);
    const char *which = "A";
    uint64_t at = offset;
    if (!st) {
        st = g2_from_compressed(&proof->b, in + 48, PM_DECODE_CHECK_SUBGROUP, err);
        which = "B";
        at = offset + 48;
    }
    if (!st) {
        st = g1_from_compressed(&proof->c, in + 144, PM_DECODE_CHECK_SUBGROUP, err);
        which = "C";
        at = offset + 144;
    }
    if (st && err) {
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "proof %s: %.480s", which, err->msg);
        pm_error_set(err, st, file ? file : "", at, "%s", msg);
    }
    return st;
}

pm_status groth16_proofs_read(groth16_proof_t **out, size_t *n, const char *path, pm_error *err) {
    *out = NULL;
    *n = 0;
    pm_file f;
    pm_status st = pm_file_open(&f, path, err);
    if (st) return st;
    if (f.size == 0 || f.size % 192) {
        st = pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET,
                          "%llu bytes is not a positive multiple of 192 (one proof = 192 bytes)",
                          (unsigned long long)f.size);
        pm_file_close(&f);
        return st;
    }
    size_t k = (size_t)(f.size / 192);
    groth16_proof_t *p = malloc(k * sizeof *p);
    if (!p) {
        pm_file_close(&f);
        return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "%zu proofs", k);
    }
    for (size_t i = 0; i < k && !st; i++)
        st = groth16_proof_from_bytes(&p[i], f.data + 192 * i, path, 192 * (uint64_t)i, err);
    st = pm_file_settle(&f, st, err);
    pm_file_close(&f);
    if (st) {
        free(p);
        return st;
    }
    *out = p;
    *n = k;
    return PM_OK;
}

pm_status groth16_proofs_write(const char *path, const groth16_proof_t *proofs, size_t n,
                               pm_error *err) {
    pm_outfile o; /* written beside path, renamed into place when complete */
    pm_status st = pm_outfile_open(&o, path, err);
    if (st) return st;
    for (size_t i = 0; i < n; i++) {
        uint8_t b[192];
        groth16_proof_to_bytes(b, &proofs[i]);
        fwrite(b, 1, 192, o.f); /* a failed write is seen by the commit (ferror) */
    }
    return pm_outfile_commit(&o, err);
}

pm_status groth16_verify_batch(int *valid, const groth16_vk_t *vk, const groth16_proof_t *proofs,
                               size_t n, const fr_t *x, size_t x_stride, unsigned threads,
                               pm_error *err) {
    *valid = 0;
    size_t np = vk->n_public;
    if (n == 0) {
        *valid = 1;
        return PM_OK;
    }
    fr_t *rho = malloc(n * sizeof *rho);         /* plain 128-bit */
    fr_t *ics = malloc((np + 1) * sizeof *ics);  /* Montgomery, then plain */
    g1_affine_t *ps = malloc((n + 3) * sizeof *ps);
    g2_affine_t *qs = malloc((n + 3) * sizeof *qs);
    g1_affine_t *cs = malloc(n * sizeof *cs);
    pm_status st = PM_OK;
    if (!rho || !ics || !ps || !qs || !cs) {
        st = pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "batch of %zu proofs", n);
        goto out;
    }
    for (size_t j = 0; j < n; j++) {
        uint8_t b[16];
        size_t got = 0;
        while (got < 16) {
            ssize_t k = getrandom(b + got, 16 - got, 0);
            if (k < 0 && errno == EINTR) continue;
            if (k < 0) {
                st = pm_error_set(err, PM_ERR_IO, "", PM_NO_OFFSET, "getrandom: %s",
                                  strerror(errno));
                goto out;
            }
            got += (size_t)k;
        }
        memset(&rho[j], 0, sizeof rho[j]);
        for (int k = 0; k < 8; k++) {
            rho[j].l[0] |= (uint64_t)b[k] << (8 * k);
            rho[j].l[1] |= (uint64_t)b[8 + k] << (8 * k);
        }
        if (!rho[j].l[0] && !rho[j].l[1]) rho[j].l[0] = 1;
    }
    /* ics[i] = sum_j rho_j x_{j,i} (x_{j,0} = 1) */
    for (size_t i = 0; i <= np; i++) ics[i] = FR_ZERO;
    for (size_t j = 0; j < n; j++) {
        fr_t rm;
        fr_to_mont(&rm, &rho[j]);
        fr_add(&ics[0], &ics[0], &rm);
        const fr_t *xj = x + j * x_stride;
        for (size_t i = 0; i < np; i++) {
            fr_t t;
            fr_mul(&t, &rm, &xj[i]);
            fr_add(&ics[i + 1], &ics[i + 1], &t);
        }
    }
    fr_t rsum = ics[0]; /* Montgomery sum of rho */
    for (size_t i = 0; i <= np; i++) fr_from_mont(&ics[i], &ics[i]);
    g1_jac_t acc;
    /* pairs 0..n-1: (rho_j A_j, B_j) */
    for (size_t j = 0; j < n; j++) {
        g1_jac_t t;
        g1_jac_from_affine(&t, &proofs[j].a);
        g1_jac_mul_vartime(&t, &t, rho[j].l, 2);
        g1_jac_to_affine(&ps[j], &t);
        qs[j] = proofs[j].b;
        cs[j] = proofs[j].c;
    }
    /* -(sum rho) alpha, beta */
    {
        fr_t p;
        fr_from_mont(&p, &rsum);
        g1_jac_from_affine(&acc, &vk->alpha_1);
        g1_jac_mul_vartime(&acc, &acc, p.l, 4);
        g1_jac_neg(&acc, &acc);
        g1_jac_to_affine(&ps[n], &acc);
        qs[n] = vk->beta_2;
    }
    /* -sum_j rho_j IC(x_j), gamma */
    if ((st = msm_g1_vartime(&acc, vk->ic, ics, np + 1, threads))) {
        st = pm_error_set(err, st, "", PM_NO_OFFSET, "IC MSM failed");
        goto out;
    }
    g1_jac_neg(&acc, &acc);
    g1_jac_to_affine(&ps[n + 1], &acc);
    qs[n + 1] = vk->gamma_2;
    /* -sum_j rho_j C_j, delta */
    if ((st = msm_g1_vartime(&acc, cs, rho, n, threads))) {
        st = pm_error_set(err, st, "", PM_NO_OFFSET, "C MSM failed");
        goto out;
    }
    g1_jac_neg(&acc, &acc);
    g1_jac_to_affine(&ps[n + 2], &acc);
    qs[n + 2] = vk->delta_2;
    *valid = pairing_check(ps, qs, n + 3);
out:
    free(rho);
    free(ics);
    free(ps);
    free(qs);
    free(cs);
    return st;
}
