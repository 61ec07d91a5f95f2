/*
 * proof_json_write.c — snarkjs JSON forms of proofs, public signals and verification keys, written
 * byte for byte as snarkjs writes them (proof_json.h). The writers are hand-made (not jansson's
 * dumper) because the output must equal JSON.stringify(x, null, 1) exactly.
 */
#include "groth16/proof_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/fp12.h"
#include "field/fp2.h"
#include "pairing/pairing.h"
#include "util/strbuf.h"


static void sb_indent(pm_strbuf *b, int level) {
    for (int i = 0; i < level; i++) pm_sb_put(b, " ");
}

/* one array of string elements at indentation level `level` (the '[' already placed) */
static void sb_str_array(pm_strbuf *b, int level, const char *const *items, size_t n, int last) {
    pm_sb_put(b, "[\n");
    for (size_t i = 0; i < n; i++) {
        sb_indent(b, level + 1);
        pm_sb_put(b, "\"");
        pm_sb_put(b, items[i]);
        pm_sb_put(b, i + 1 < n ? "\",\n" : "\"\n");
    }
    sb_indent(b, level);
    pm_sb_put(b, last ? "]\n" : "],\n");
}

static void sb_key(pm_strbuf *b, int level, const char *key) {
    sb_indent(b, level);
    pm_sb_put(b, "\"");
    pm_sb_put(b, key);
    pm_sb_put(b, "\": ");
}

/* a G1 point as the array value at `level` ('[' continues the current line) */
static void sb_g1_value(pm_strbuf *b, int level, const g1_affine_t *p, int last) {
    char x[GROTH16_DEC_MAX], y[GROTH16_DEC_MAX];
    const char *items[3] = {x, y, "1"};
    if (g1_affine_is_infinity(p)) {
        strcpy(x, "0");
        strcpy(y, "1");
        items[2] = "0";
    } else {
        groth16_fp_to_decimal(x, &p->x);
        groth16_fp_to_decimal(y, &p->y);
    }
    sb_str_array(b, level, items, 3, last);
}

/* a G2 point as the array value at `level` */
static void sb_g2_value(pm_strbuf *b, int level, const g2_affine_t *p, int last) {
    char c[4][GROTH16_DEC_MAX];
    const char *rows[3][2];
    if (g2_affine_is_infinity(p)) {
        rows[0][0] = "0", rows[0][1] = "0";
        rows[1][0] = "1", rows[1][1] = "0";
        rows[2][0] = "0", rows[2][1] = "0";
    } else {
        groth16_fp_to_decimal(c[0], &p->x.c0);
        groth16_fp_to_decimal(c[1], &p->x.c1);
        groth16_fp_to_decimal(c[2], &p->y.c0);
        groth16_fp_to_decimal(c[3], &p->y.c1);
        rows[0][0] = c[0], rows[0][1] = c[1];
        rows[1][0] = c[2], rows[1][1] = c[3];
        rows[2][0] = "1", rows[2][1] = "0";
    }
    pm_sb_put(b, "[\n");
    for (int r = 0; r < 3; r++) {
        sb_indent(b, level + 1);
        sb_str_array(b, level + 1, rows[r], 2, r == 2);
    }
    sb_indent(b, level);
    pm_sb_put(b, last ? "]\n" : "],\n");
}

static void sb_g1(pm_strbuf *b, const char *key, const g1_affine_t *p) {
    sb_key(b, 1, key);
    sb_g1_value(b, 1, p, 0);
}

static void sb_g2(pm_strbuf *b, const char *key, const g2_affine_t *p) {
    sb_key(b, 1, key);
    sb_g2_value(b, 1, p, 0);
}

char *groth16_proof_to_json(const groth16_proof_t *proof) {
    pm_strbuf b = {0};
    pm_sb_put(&b, "{\n");
    sb_g1(&b, "pi_a", &proof->a);
    sb_g2(&b, "pi_b", &proof->b);
    sb_g1(&b, "pi_c", &proof->c);
    pm_sb_put(&b, " \"protocol\": \"groth16\",\n \"curve\": \"bls12381\"\n}");
    return pm_sb_take(&b);
}

char *groth16_public_to_json(const fr_t *x, size_t n) {
    pm_strbuf b = {0};
    if (n == 0) {
        pm_sb_put(&b, "[]");
    } else {
        char d[GROTH16_DEC_MAX];
        pm_sb_put(&b, "[\n");
        for (size_t i = 0; i < n; i++) {
            groth16_fr_to_decimal(d, &x[i]);
            pm_sb_put(&b, " \"");
            pm_sb_put(&b, d);
            pm_sb_put(&b, i + 1 < n ? "\",\n" : "\"\n");
        }
        pm_sb_put(&b, "]");
    }
    return pm_sb_take(&b);
}

char *groth16_vk_to_json(const groth16_vk_t *vk) {
    pm_strbuf b = {0};
    char num[32];
    snprintf(num, sizeof num, "%zu", vk->n_public);
    pm_sb_put(&b, "{\n \"protocol\": \"groth16\",\n \"curve\": \"bls12381\",\n \"nPublic\": ");
    pm_sb_put(&b, num);
    pm_sb_put(&b, ",\n");
    sb_g1(&b, "vk_alpha_1", &vk->alpha_1);
    sb_g2(&b, "vk_beta_2", &vk->beta_2);
    sb_g2(&b, "vk_gamma_2", &vk->gamma_2);
    sb_g2(&b, "vk_delta_2", &vk->delta_2);
    /* e(alpha_1, beta_2) as snarkjs nests Fq12: [c0, c1] of Fq6, each [c0, c1, c2] of Fq2 */
    fp12_t ab;
    fp_t f[12];
    pairing(&ab, &vk->alpha_1, &vk->beta_2);
    fp12_to_fps(f, &ab);
    sb_key(&b, 1, "vk_alphabeta_12");
    pm_sb_put(&b, "[\n");
    for (int h = 0; h < 2; h++) {
        sb_indent(&b, 2);
        pm_sb_put(&b, "[\n");
        for (int k = 0; k < 3; k++) {
            char d0[GROTH16_DEC_MAX], d1[GROTH16_DEC_MAX];
            const char *items[2] = {d0, d1};
            groth16_fp_to_decimal(d0, &f[6 * h + 2 * k]);
            groth16_fp_to_decimal(d1, &f[6 * h + 2 * k + 1]);
            sb_indent(&b, 3);
            sb_str_array(&b, 3, items, 2, k == 2);
        }
        sb_indent(&b, 2);
        pm_sb_put(&b, h == 1 ? "]\n" : "],\n");
    }
    sb_indent(&b, 1);
    pm_sb_put(&b, "],\n");
    sb_key(&b, 1, "IC");
    pm_sb_put(&b, "[\n");
    for (size_t i = 0; i <= vk->n_public; i++) {
        sb_indent(&b, 2);
        sb_g1_value(&b, 2, &vk->ic[i], i == vk->n_public);
    }
    sb_indent(&b, 1);
    pm_sb_put(&b, "]\n}");
    return pm_sb_take(&b);
}
