/*
 * proof_json.c — snarkjs JSON forms of proofs, public signals and verification keys.
 * See proof_json.h for the exact text forms. The writers are hand-made (not jansson's dumper)
 * because the output must equal JSON.stringify(x, null, 1) byte-for-byte.
 */
#include "groth16/proof_json.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "field/fp12.h"
#include "field/fp2.h"
#include "pairing/pairing.h"
#include "util/file.h"
#include "util/strbuf.h"

/* ---------------------------------------------------------------------------------------------
 * decimal <-> little-endian limbs
 * ------------------------------------------------------------------------------------------- */

/* Decimal of the plain integer in l[0..n) (little-endian limbs); returns the length. Divides by
 * 10^19 repeatedly (one 128-by-64 division per limb per step). */
static size_t limbs_to_decimal(char *out, const uint64_t *l, size_t n) {
    uint64_t t[8];
    memcpy(t, l, n * sizeof *t);
    char rev[GROTH16_DEC_MAX];
    size_t len = 0;
    const uint64_t TEN19 = 10000000000000000000ull;
    for (;;) {
        size_t top = n;
        while (top > 0 && t[top - 1] == 0) top--;
        if (top == 0) break;
        unsigned __int128 rem = 0;
        for (size_t i = top; i-- > 0;) {
            unsigned __int128 cur = (rem << 64) | t[i];
            t[i] = (uint64_t)(cur / TEN19);
            rem = cur % TEN19;
        }
        uint64_t r = (uint64_t)rem;
        int last = 1;
        for (size_t i = 0; i < top; i++)
            if (t[i]) last = 0;
        for (int d = 0; d < 19; d++) {
            if (last && r == 0) break;
            rev[len++] = (char)('0' + r % 10);
            r /= 10;
        }
    }
    if (len == 0) rev[len++] = '0';
    for (size_t i = 0; i < len; i++) out[i] = rev[len - 1 - i];
    out[len] = 0;
    return len;
}

/* Parse s into l[0..n). Returns 0, -1 when not a decimal integer, -2 when it needs more than n
 * limbs. */
static int limbs_from_decimal(uint64_t *l, size_t n, const char *s) {
    memset(l, 0, n * sizeof *l);
    size_t len = strlen(s);
    if (len == 0 || len >= GROTH16_DEC_MAX) return -1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        uint64_t carry = (uint64_t)(s[i] - '0');
        for (size_t k = 0; k < n; k++) {
            unsigned __int128 v = (unsigned __int128)l[k] * 10 + carry;
            l[k] = (uint64_t)v;
            carry = (uint64_t)(v >> 64);
        }
        if (carry) return -2;
    }
    return 0;
}

/* 1 when a < m (n limbs, little-endian) */
static int limbs_lt(const uint64_t *a, const uint64_t *m, size_t n) {
    for (size_t i = n; i-- > 0;) {
        if (a[i] < m[i]) return 1;
        if (a[i] > m[i]) return 0;
    }
    return 0;
}

size_t groth16_fp_to_decimal(char *out, const fp_t *a) {
    fp_t plain;
    fp_from_mont(&plain, a);
    return limbs_to_decimal(out, plain.l, 6);
}

size_t groth16_fr_to_decimal(char *out, const fr_t *a) {
    fr_t plain;
    fr_from_mont(&plain, a);
    return limbs_to_decimal(out, plain.l, 4);
}

pm_status groth16_fp_from_decimal(fp_t *r, const char *s, const char *file, const char *what,
                                  pm_error *err) {
    fp_t plain;
    int rc = limbs_from_decimal(plain.l, 6, s);
    if (rc == -1)
        return pm_error_set(err, PM_ERR_ENCODING, file, PM_NO_OFFSET,
                            "%s: '%.40s%s' is not a decimal integer", what, s, strlen(s) > 40 ? "..." : "");
    if (rc == -2 || !limbs_lt(plain.l, FP_MODULUS.l, 6))
        return pm_error_set(err, PM_ERR_ENCODING, file, PM_NO_OFFSET,
                            "%s: coordinate is not below the field modulus p", what);
    fp_to_mont(r, &plain);
    return PM_OK;
}

pm_status groth16_fr_from_decimal(fr_t *r, const char *s, const char *file, const char *what,
                                  pm_error *err) {
    fr_t plain;
    int rc = limbs_from_decimal(plain.l, 4, s);
    if (rc == -1)
        return pm_error_set(err, PM_ERR_ENCODING, file, PM_NO_OFFSET,
                            "%s: '%.40s%s' is not a decimal integer", what, s, strlen(s) > 40 ? "..." : "");
    if (rc == -2 || !limbs_lt(plain.l, FR_MODULUS.l, 4))
        return pm_error_set(err, PM_ERR_ENCODING, file, PM_NO_OFFSET,
                            "%s: value is not below the group order r", what);
    fr_to_mont(r, &plain);
    return PM_OK;
}

/* ---------------------------------------------------------------------------------------------
 * writers
 * ------------------------------------------------------------------------------------------- */

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

/* ---------------------------------------------------------------------------------------------
 * readers
 * ------------------------------------------------------------------------------------------- */

static pm_status parse_text(json_t **root, const char *text, size_t len, const char *file,
                            pm_error *err) {
    json_error_t je;
    *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!*root)
        return pm_error_set(err, PM_ERR_FORMAT, file, (uint64_t)je.position,
                            "not valid JSON: %s (line %d, column %d)", je.text, je.line,
                            je.column);
    return PM_OK;
}

/* The decimal text of v: a string, or a non-negative JSON integer (snarkjs accepts both), written
 * into tmp[32] in the integer case. NULL (with err set) for anything else. */
static const char *decimal_text(char tmp[32], json_t *v, const char *file, const char *what,
                                pm_error *err) {
    if (json_is_string(v)) return json_string_value(v);
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        snprintf(tmp, 32, "%lld", (long long)json_integer_value(v));
        return tmp;
    }
    pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET, "%s: expected a decimal string", what);
    return NULL;
}

/* A decimal string (or a non-negative JSON integer) into fp / fr. */
static pm_status get_fp(fp_t *r, json_t *v, const char *file, const char *what, pm_error *err) {
    char tmp[32];
    const char *s = decimal_text(tmp, v, file, what, err);
    return s ? groth16_fp_from_decimal(r, s, file, what, err) : PM_ERR_FORMAT;
}

static pm_status get_fr(fr_t *r, json_t *v, const char *file, const char *what, pm_error *err) {
    char tmp[32];
    const char *s = decimal_text(tmp, v, file, what, err);
    return s ? groth16_fr_from_decimal(r, s, file, what, err) : PM_ERR_FORMAT;
}

/* z coordinate: returns 1 (affine), 0 (infinity) or -1 (refused) */
static int z_kind_fp(json_t *v) {
    const char *s = json_is_string(v) ? json_string_value(v) : NULL;
    if (json_is_integer(v)) return json_integer_value(v) == 1 ? 1 : json_integer_value(v) == 0 ? 0 : -1;
    if (!s) return -1;
    if (!strcmp(s, "1")) return 1;
    if (!strcmp(s, "0")) return 0;
    return -1;
}

static pm_status get_g1(g1_affine_t *p, json_t *v, const char *file, const char *what,
                        pm_error *err) {
    char w[96];
    if (!json_is_array(v) || (json_array_size(v) != 2 && json_array_size(v) != 3))
        return pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                            "%s: expected a G1 point [x, y, \"1\"]", what);
    if (json_array_size(v) == 3) {
        int z = z_kind_fp(json_array_get(v, 2));
        if (z < 0)
            return pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                                "%s: z coordinate must be \"1\" (affine) or \"0\" (infinity)",
                                what);
        if (z == 0) {
            memset(p, 0, sizeof *p);
            return PM_OK;
        }
    }
    pm_status st;
    snprintf(w, sizeof w, "%s[0]", what);
    if ((st = get_fp(&p->x, json_array_get(v, 0), file, w, err))) return st;
    snprintf(w, sizeof w, "%s[1]", what);
    if ((st = get_fp(&p->y, json_array_get(v, 1), file, w, err))) return st;
    return PM_OK;
}

static pm_status get_fp2(fp2_t *r, json_t *v, const char *file, const char *what,
                         pm_error *err) {
    char w[96];
    if (!json_is_array(v) || json_array_size(v) != 2)
        return pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                            "%s: expected an Fp2 element [c0, c1]", what);
    pm_status st;
    snprintf(w, sizeof w, "%s[0]", what);
    if ((st = get_fp(&r->c0, json_array_get(v, 0), file, w, err))) return st;
    snprintf(w, sizeof w, "%s[1]", what);
    if ((st = get_fp(&r->c1, json_array_get(v, 1), file, w, err))) return st;
    return PM_OK;
}

static pm_status get_g2(g2_affine_t *p, json_t *v, const char *file, const char *what,
                        pm_error *err) {
    char w[96];
    if (!json_is_array(v) || (json_array_size(v) != 2 && json_array_size(v) != 3))
        return pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                            "%s: expected a G2 point [[x0, x1], [y0, y1], [\"1\", \"0\"]]", what);
    if (json_array_size(v) == 3) {
        json_t *z = json_array_get(v, 2);
        int k0 = json_is_array(z) && json_array_size(z) == 2 ? z_kind_fp(json_array_get(z, 0)) : -1;
        int k1 = json_is_array(z) && json_array_size(z) == 2 ? z_kind_fp(json_array_get(z, 1)) : -1;
        if (k0 < 0 || k1 != 0)
            return pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                                "%s: z coordinate must be [\"1\", \"0\"] (affine) or [\"0\", "
                                "\"0\"] (infinity)", what);
        if (k0 == 0) {
            memset(p, 0, sizeof *p);
            return PM_OK;
        }
    }
    pm_status st;
    snprintf(w, sizeof w, "%s[0]", what);
    if ((st = get_fp2(&p->x, json_array_get(v, 0), file, w, err))) return st;
    snprintf(w, sizeof w, "%s[1]", what);
    if ((st = get_fp2(&p->y, json_array_get(v, 1), file, w, err))) return st;
    return PM_OK;
}

/* protocol / curve members, when present, must say groth16 / bls12381 */
static pm_status check_protocol_curve(json_t *root, const char *file, int required,
                                      pm_error *err) {
    json_t *proto = json_object_get(root, "protocol");
    json_t *curve = json_object_get(root, "curve");
    if (required && (!proto || !curve))
        return pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                            "missing \"protocol\" or \"curve\" member");
    if (proto && (!json_is_string(proto) || strcmp(json_string_value(proto), "groth16")))
        return pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                            "protocol is %s, expected \"groth16\"",
                            json_is_string(proto) ? json_string_value(proto) : "not a string");
    if (curve && (!json_is_string(curve) || strcmp(json_string_value(curve), "bls12381")))
        return pm_error_set(err, PM_ERR_CURVE, file, PM_NO_OFFSET,
                            "curve is %s, expected \"bls12381\" (only BLS12-381 is supported)",
                            json_is_string(curve) ? json_string_value(curve) : "not a string");
    return PM_OK;
}

static json_t *member(json_t *root, const char *key, const char *file, pm_error *err) {
    json_t *v = json_object_get(root, key);
    if (!v)
        pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET, "missing member \"%s\"", key);
    return v;
}

pm_status groth16_proof_from_json(groth16_proof_t *proof, const char *text, size_t len,
                                  const char *file, pm_error *err) {
    json_t *root;
    pm_status st = parse_text(&root, text, len, file, err);
    if (st) return st;
    json_t *a, *b, *c;
    if (!json_is_object(root)) {
        st = pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET, "expected a JSON object");
    } else if (json_object_get(root, "vk_alpha_1") && !json_object_get(root, "pi_a")) {
        st = pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                          "this is a verification key, not a proof (arguments swapped? the order is "
                          "verification_key.json public.json proof.json)");
    } else if ((st = check_protocol_curve(root, file, 0, err))) {
    } else if (!(a = member(root, "pi_a", file, err)) || !(b = member(root, "pi_b", file, err)) ||
               !(c = member(root, "pi_c", file, err))) {
        st = PM_ERR_FORMAT;
    } else if (!(st = get_g1(&proof->a, a, file, "pi_a", err)) &&
               !(st = get_g2(&proof->b, b, file, "pi_b", err))) {
        st = get_g1(&proof->c, c, file, "pi_c", err);
    }
    json_decref(root);
    return st;
}

pm_status groth16_public_from_json(fr_t **x, size_t *n, const char *text, size_t len,
                                   const char *file, pm_error *err) {
    *x = NULL;
    *n = 0;
    json_t *root;
    pm_status st = parse_text(&root, text, len, file, err);
    if (st) return st;
    if (!json_is_array(root)) {
        json_decref(root);
        return pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                            "expected a JSON array of decimal strings");
    }
    size_t cnt = json_array_size(root);
    fr_t *v = cnt ? malloc(cnt * sizeof *v) : NULL;
    if (cnt && !v) {
        json_decref(root);
        return pm_error_set(err, PM_ERR_NOMEM, file, PM_NO_OFFSET, "out of memory");
    }
    for (size_t i = 0; i < cnt; i++) {
        char w[48];
        snprintf(w, sizeof w, "public signal [%zu]", i);
        if ((st = get_fr(&v[i], json_array_get(root, i), file, w, err))) {
            free(v);
            json_decref(root);
            return st;
        }
    }
    json_decref(root);
    *x = v;
    *n = cnt;
    return PM_OK;
}

void groth16_vk_free(groth16_vk_t *vk) {
    if (!vk) return;
    free(vk->ic);
    memset(vk, 0, sizeof *vk);
}

static pm_status check_g1(const g1_affine_t *p, const char *file, const char *what,
                          pm_error *err) {
    if (!g1_affine_is_on_curve(p))
        return pm_error_set(err, PM_ERR_NOT_ON_CURVE, file, PM_NO_OFFSET,
                            "%s is not on the BLS12-381 G1 curve", what);
    if (!g1_affine_in_subgroup_vartime(p))
        return pm_error_set(err, PM_ERR_NOT_IN_SUBGROUP, file, PM_NO_OFFSET,
                            "%s is not in the order-r subgroup of G1", what);
    return PM_OK;
}

/* alpha, beta, gamma, delta of a verification key: on the curve, in the subgroup, and not the
 * point at infinity (a key with gamma = delta = infinity accepts A = alpha, B = beta for any
 * public input). */
static pm_status check_g1_key(const g1_affine_t *p, const char *file, const char *what,
                              pm_error *err) {
    if (g1_affine_is_infinity(p))
        return pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                            "%s is the point at infinity", what);
    return check_g1(p, file, what, err);
}

static pm_status check_g2(const g2_affine_t *p, const char *file, const char *what,
                          pm_error *err);

static pm_status check_g2_key(const g2_affine_t *p, const char *file, const char *what,
                              pm_error *err) {
    if (g2_affine_is_infinity(p))
        return pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                            "%s is the point at infinity", what);
    return check_g2(p, file, what, err);
}

static pm_status check_g2(const g2_affine_t *p, const char *file, const char *what,
                          pm_error *err) {
    if (!g2_affine_is_on_curve(p))
        return pm_error_set(err, PM_ERR_NOT_ON_CURVE, file, PM_NO_OFFSET,
                            "%s is not on the BLS12-381 G2 curve", what);
    if (!g2_affine_in_subgroup_vartime(p))
        return pm_error_set(err, PM_ERR_NOT_IN_SUBGROUP, file, PM_NO_OFFSET,
                            "%s is not in the order-r subgroup of G2", what);
    return PM_OK;
}

pm_status groth16_vk_from_json(groth16_vk_t *vk, const char *text, size_t len, const char *file,
                               pm_error *err) {
    memset(vk, 0, sizeof *vk);
    json_t *root;
    pm_status st = parse_text(&root, text, len, file, err);
    if (st) return st;
    json_t *np, *a, *b, *g, *d, *ic;
    if (!json_is_object(root)) {
        st = pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET, "expected a JSON object");
        goto out;
    }
    if (json_object_get(root, "pi_a") && !json_object_get(root, "nPublic")) {
        st = pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                          "this is a proof (pi_a, pi_b, pi_c), not a verification key (arguments swapped? "
                          "the order is verification_key.json public.json proof.json)");
        goto out;
    }
    if ((st = check_protocol_curve(root, file, 1, err))) goto out;
    if (!(np = member(root, "nPublic", file, err)) || !(a = member(root, "vk_alpha_1", file, err)) ||
        !(b = member(root, "vk_beta_2", file, err)) || !(g = member(root, "vk_gamma_2", file, err)) ||
        !(d = member(root, "vk_delta_2", file, err)) || !(ic = member(root, "IC", file, err))) {
        st = PM_ERR_FORMAT;
        goto out;
    }
    if (!json_is_integer(np) || json_integer_value(np) < 0 || json_integer_value(np) > (1 << 26)) {
        st = pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                          "nPublic must be a non-negative integer");
        goto out;
    }
    vk->n_public = (size_t)json_integer_value(np);
    if (!json_is_array(ic) || json_array_size(ic) != vk->n_public + 1) {
        st = pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                          "IC must be an array of nPublic + 1 = %zu points, found %zu",
                          vk->n_public + 1, json_is_array(ic) ? json_array_size(ic) : 0);
        goto out;
    }
    if ((st = get_g1(&vk->alpha_1, a, file, "vk_alpha_1", err)) ||
        (st = check_g1_key(&vk->alpha_1, file, "vk_alpha_1", err)) ||
        (st = get_g2(&vk->beta_2, b, file, "vk_beta_2", err)) ||
        (st = check_g2_key(&vk->beta_2, file, "vk_beta_2", err)) ||
        (st = get_g2(&vk->gamma_2, g, file, "vk_gamma_2", err)) ||
        (st = check_g2_key(&vk->gamma_2, file, "vk_gamma_2", err)) ||
        (st = get_g2(&vk->delta_2, d, file, "vk_delta_2", err)) ||
        (st = check_g2_key(&vk->delta_2, file, "vk_delta_2", err)))
        goto out;
    vk->ic = malloc((vk->n_public + 1) * sizeof *vk->ic);
    if (!vk->ic) {
        st = pm_error_set(err, PM_ERR_NOMEM, file, PM_NO_OFFSET, "out of memory");
        goto out;
    }
    for (size_t i = 0; i <= vk->n_public; i++) {
        char w[48];
        snprintf(w, sizeof w, "IC[%zu]", i);
        if ((st = get_g1(&vk->ic[i], json_array_get(ic, i), file, w, err)) ||
            (st = check_g1(&vk->ic[i], file, w, err)))
            goto out;
    }
out:
    json_decref(root);
    if (st) groth16_vk_free(vk);
    return st;
}

/* ---------------------------------------------------------------------------------------------
 * files
 * ------------------------------------------------------------------------------------------- */

/* JSON proofs, public signals and keys are read whole; a pipe (`<(cat proof.json)`) is read to its
 * end, and anything above 256 MiB is not one of them. */
static pm_status read_file(char **text, size_t *len, const char *path, pm_error *err) {
    return pm_file_read_all(text, len, path, (uint64_t)256 << 20, PM_READ_PIPES, err);
}

pm_status groth16_proof_load_json(groth16_proof_t *proof, const char *path, pm_error *err) {
    char *t;
    size_t n;
    pm_status st = read_file(&t, &n, path, err);
    if (st) return st;
    st = groth16_proof_from_json(proof, t, n, path, err);
    free(t);
    return st;
}

pm_status groth16_public_load_json(fr_t **x, size_t *cnt, const char *path, pm_error *err) {
    char *t;
    size_t n;
    *x = NULL;
    *cnt = 0;
    pm_status st = read_file(&t, &n, path, err);
    if (st) return st;
    st = groth16_public_from_json(x, cnt, t, n, path, err);
    free(t);
    return st;
}

pm_status groth16_vk_load_json(groth16_vk_t *vk, const char *path, pm_error *err) {
    char *t;
    size_t n;
    memset(vk, 0, sizeof *vk);
    pm_status st = read_file(&t, &n, path, err);
    if (st) return st;
    st = groth16_vk_from_json(vk, t, n, path, err);
    free(t);
    return st;
}
