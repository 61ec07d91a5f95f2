/*
 * proof_json_read.c — snarkjs JSON proofs, public signals and verification keys read with jansson,
 * from text or from a file (proof_json.h).
 */
#include "groth16/proof_json.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve/g1.h"
#include "curve/g2.h"
#include "util/file.h"


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

/* What a snarkjs JSON file that is not the expected one looks like: "a proof (pi_a, pi_b, pi_c)",
 * "a verification key", "public signals (an array)", or NULL when none of these. */
static const char *looks_like(const json_t *root) {
    if (json_is_array(root)) return "a JSON array (public signals)";
    if (!json_is_object(root)) return NULL;
    if (json_object_get(root, "pi_a")) return "a proof (pi_a, pi_b, pi_c)";
    if (json_object_get(root, "vk_alpha_1")) return "a verification key";
    return NULL;
}

/* The error for a file of the wrong one of the three (root is what it holds, want what it should). */
static pm_status swapped(const json_t *root, const char *file, const char *want, pm_error *err) {
    const char *is = looks_like(root);
    if (!is) return pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET, "expected %s", want);
    return pm_error_set(err, PM_ERR_FORMAT, file, PM_NO_OFFSET,
                        "this is %s, not %s (arguments swapped? the order is verification_key.json public.json "
                        "proof.json)", is, want);
}

pm_status groth16_proof_from_json(groth16_proof_t *proof, const char *text, size_t len,
                                  const char *file, pm_error *err) {
    json_t *root;
    pm_status st = parse_text(&root, text, len, file, err);
    if (st) return st;
    json_t *a, *b, *c;
    if (!json_is_object(root) || (json_object_get(root, "vk_alpha_1") && !json_object_get(root, "pi_a"))) {
        st = swapped(root, file, json_is_object(root) ? "a proof" : "a JSON object (a proof)", err);
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
        st = swapped(root, file, "a JSON array of decimal strings (public signals)", err);
        json_decref(root);
        return st;
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
    if (!json_is_object(root) || (json_object_get(root, "pi_a") && !json_object_get(root, "nPublic"))) {
        st = swapped(root, file, json_is_object(root) ? "a verification key" : "a JSON object (a verification key)", err);
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
