/* key_check.c — see key_check.h. */
#include "groth16/key_check.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pairing/pairing.h"
#include "util/parallel.h"

#define MSG "the key is inconsistent: its proof does not verify with its own verification key"

static int g1_bad(const g1_affine_t *p) { return !g1_affine_is_on_curve(p) || !g1_affine_in_subgroup_vartime(p); }
static int g2_bad(const g2_affine_t *p) { return !g2_affine_is_on_curve(p) || !g2_affine_in_subgroup_vartime(p); }

/* the first index i < n whose point is bad, or n (parallel; the lowest index wins) */
static size_t first_bad_g1(const g1_affine_t *p, size_t n) {
    int64_t first = (int64_t)n;
    PM_OMP(parallel for schedule(dynamic, 256))
    for (int64_t i = 0; i < (int64_t)n; i++) {
        int64_t f;
        PM_OMP(atomic read)
        f = first;
        if (i > f || !g1_bad(&p[i])) continue;
        PM_OMP(critical)
        if (i < first) first = i;
    }
    return (size_t)first;
}

static size_t first_bad_g2(const g2_affine_t *p, size_t n) {
    int64_t first = (int64_t)n;
    PM_OMP(parallel for schedule(dynamic, 64))
    for (int64_t i = 0; i < (int64_t)n; i++) {
        int64_t f;
        PM_OMP(atomic read)
        f = first;
        if (i > f || !g2_bad(&p[i])) continue;
        PM_OMP(critical)
        if (i < first) first = i;
    }
    return (size_t)first;
}

/* 1 when e(a, G2) = e(G1, b), i.e. a and b are the same multiple of the generators */
static int same_scalar(const g1_affine_t *a, const g2_affine_t *b) {
    g1_affine_t ps[2] = {*a, G1_GENERATOR};
    g2_affine_t qs[2];
    qs[0] = G2_GENERATOR;
    g2_affine_neg(&qs[1], b);
    return pairing_check(ps, qs, 2);
}

int groth16_key_fault(char *out, size_t cap, const groth16_key *k, const groth16_vk_t *vk) {
    const int sj = k->conv == GROTH16_SNARKJS;
    struct { const char *name; const g1_affine_t *p; } g1s[] = {
        {"vk alpha_1", &vk->alpha_1}, {"alpha_1", &k->alpha1}, {"beta_1", &k->beta1}, {"delta_1", &k->delta1}};
    struct { const char *name; const g2_affine_t *p; } g2s[] = {
        {"vk beta_2", &vk->beta_2}, {"vk gamma_2", &vk->gamma_2}, {"vk delta_2", &vk->delta_2},
        {"beta_2", &k->beta2}, {"delta_2", &k->delta2}};
    for (size_t i = 0; i < sizeof g1s / sizeof g1s[0]; i++)
        if (g1_bad(g1s[i].p)) {
            snprintf(out, cap, "%s is %s", g1s[i].name, g1_affine_is_on_curve(g1s[i].p) ? "outside the G1 subgroup" : "not on the curve");
            return 1;
        }
    for (size_t i = 0; i < sizeof g2s / sizeof g2s[0]; i++)
        if (g2_bad(g2s[i].p)) {
            snprintf(out, cap, "%s is %s", g2s[i].name, g2_affine_is_on_curve(g2s[i].p) ? "outside the G2 subgroup" : "not on the curve");
            return 1;
        }
    size_t i = first_bad_g1(vk->ic, vk->n_public + 1);
    if (i <= vk->n_public) {
        snprintf(out, cap, "%s point %zu is %s", sj ? "IC (section 3)" : "vk ic", i,
                 g1_affine_is_on_curve(&vk->ic[i]) ? "outside the G1 subgroup" : "not on the curve");
        return 1;
    }
    static const char *const names_sj[GROTH16_N_BASES] = {"A (section 5)", "B1 (section 6)", "C (section 8)", "H (section 9)"};
    static const char *const names_bp[GROTH16_N_BASES] = {"a", "b_g1", "l", "h"};
    for (int b = 0; b < GROTH16_N_BASES; b++) {
        if (!k->base[b]) continue;
        i = first_bad_g1(k->base[b], k->n_base[b]);
        if (i < k->n_base[b]) {
            snprintf(out, cap, "%s point %zu is %s", sj ? names_sj[b] : names_bp[b], i,
                     g1_affine_is_on_curve(&k->base[b][i]) ? "outside the G1 subgroup" : "not on the curve");
            return 1;
        }
    }
    if (k->b2 && (i = first_bad_g2(k->b2, k->n_b2)) < k->n_b2) {
        snprintf(out, cap, "%s point %zu is %s", sj ? "B2 (section 7)" : "b_g2", i,
                 g2_affine_is_on_curve(&k->b2[i]) ? "outside the G2 subgroup" : "not on the curve");
        return 1;
    }
    if (!same_scalar(&k->delta1, &k->delta2)) {
        snprintf(out, cap, "delta_1 and delta_2 are not the same scalar (e(delta_1, g2) != e(g1, delta_2))");
        return 1;
    }
    if (!same_scalar(&k->beta1, &k->beta2)) {
        snprintf(out, cap, "beta_1 and beta_2 are not the same scalar (e(beta_1, g2) != e(g1, beta_2))");
        return 1;
    }
    if (!g1_affine_eq(&k->alpha1, &vk->alpha_1) || !g2_affine_eq(&k->beta2, &vk->beta_2) ||
        !g2_affine_eq(&k->delta2, &vk->delta_2)) {
        snprintf(out, cap, "alpha_1, beta_2 or delta_2 of the proving key differ from the verifying key's");
        return 1;
    }
    snprintf(out, cap, "every point is on the curve and in its subgroup: alpha, beta or delta do not match the queries "
                       "(e.g. one negated), or the queries are another key's");
    return 0;
}

pm_status groth16_key_inconsistent(const groth16_key *k, const groth16_vk_t *vk, const char *key_name,
                                   const char *detail, pm_error *err) {
    char why[300];
    groth16_key_fault(why, sizeof why, k, vk);
    return pm_error_set(err, PM_ERR_KEY, key_name && key_name[0] ? key_name : "key", PM_NO_OFFSET, MSG " (%s)%s%s", why,
                        detail && detail[0] ? "; " : "", detail ? detail : "");
}

pm_status groth16_vk_check_points(const groth16_vk_t *vk, const char *name, pm_error *err) {
    struct { const char *name; const g2_affine_t *p; } g2s[] = {
        {"beta_2", &vk->beta_2}, {"gamma_2", &vk->gamma_2}, {"delta_2", &vk->delta_2}};
    const char *what = NULL;
    char buf[64];
    int on = 1;
    if (g1_bad(&vk->alpha_1)) what = "alpha_1", on = g1_affine_is_on_curve(&vk->alpha_1);
    for (size_t i = 0; !what && i < sizeof g2s / sizeof g2s[0]; i++)
        if (g2_bad(g2s[i].p)) what = g2s[i].name, on = g2_affine_is_on_curve(g2s[i].p);
    size_t i = what ? 0 : first_bad_g1(vk->ic, vk->n_public + 1);
    if (!what && i <= vk->n_public) {
        snprintf(buf, sizeof buf, "IC point %zu", i);
        what = buf, on = g1_affine_is_on_curve(&vk->ic[i]);
    }
    if (!what) return PM_OK;
    return pm_error_set(err, on ? PM_ERR_NOT_IN_SUBGROUP : PM_ERR_NOT_ON_CURVE, name, PM_NO_OFFSET,
                        "verification key %s is %s", what, on ? "outside the order-r subgroup" : "not on the curve");
}
