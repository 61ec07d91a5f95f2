/*
 * sizes.c — the tables of sizes.h (POREP.md §1; rust-fil-proofs constants.rs, registry.rs).
 */
#include "filecoin/sizes.h"

#include <ctype.h>
#include <inttypes.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define KiB (1024ull)
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

/* ceil(min/partitions): parameters.rs select_challenges. NI: constants.rs
 * get_porep_non_interactive_{minimum_challenges,partitions}: 26/13 small, 2253/126 32-64 GiB. */
#define ROW(nm, sz, layers, parts, minc, nip, nimin, s, t, btc, pub)                            \
    {nm, sz, (sz) / 32, layers, parts, minc, ((minc) + (parts) - 1) / (parts), nip, nimin,      \
     ((nimin) + (nip) - 1) / (nip), 8, s, t, btc, pub}

static const fil_sector_info_t sector_infos[] = {
    ROW("2KiB", 2 * KiB, 2, 1, 2, 13, 26, 0, 0, 1, 1),
    ROW("4KiB", 4 * KiB, 2, 1, 2, 13, 26, 2, 0, 2, 0),
    ROW("16KiB", 16 * KiB, 2, 1, 2, 13, 26, 8, 0, 8, 0),
    ROW("32KiB", 32 * KiB, 2, 1, 2, 13, 26, 8, 2, 16, 0),
    ROW("8MiB", 8 * MiB, 2, 1, 2, 13, 26, 0, 0, 1, 1),
    ROW("16MiB", 16 * MiB, 2, 1, 2, 13, 26, 2, 0, 2, 0),
    ROW("512MiB", 512 * MiB, 2, 1, 2, 13, 26, 0, 0, 1, 1),
    ROW("1GiB", 1 * GiB, 2, 1, 2, 13, 26, 2, 0, 2, 0),
    ROW("32GiB", 32 * GiB, 11, 10, 176, 126, 2253, 8, 0, 8, 1),
    ROW("64GiB", 64 * GiB, 11, 10, 176, 126, 2253, 8, 2, 16, 1),
};
#define N_SIZES (sizeof sector_infos / sizeof sector_infos[0])

const fil_sector_info_t *fil_sector_infos(size_t *n) {
    if (n) *n = N_SIZES;
    return sector_infos;
}

const fil_sector_info_t *fil_sector_info(uint64_t sector_size) {
    for (size_t i = 0; i < N_SIZES; i++)
        if (sector_infos[i].sector_size == sector_size) return &sector_infos[i];
    return NULL;
}

pm_status fil_sector_size_parse(uint64_t *bytes, const char *text, pm_error *err) {
    *bytes = 0;
    if (!text || !*text || !isdigit((unsigned char)text[0]))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "sector size '%s': expected e.g. 2KiB, 32GiB",
                            text ? text : "");
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || v == 0)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "sector size '%s': bad number", text);
    unsigned long long mul = 1;
    if (*end) {
        char u = (char)toupper((unsigned char)*end);
        if (u == 'K') mul = KiB;
        else if (u == 'M') mul = MiB;
        else if (u == 'G') mul = GiB;
        else
            return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "sector size '%s': unknown unit", text);
        const char *rest = end + 1;
        if (*rest && strcasecmp(rest, "iB") && strcasecmp(rest, "i") && strcasecmp(rest, "B"))
            return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "sector size '%s': unknown unit", text);
    }
    if (v > UINT64_MAX / mul)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "sector size '%s': too large", text);
    v *= mul;
    if (!fil_sector_info(v))
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                            "sector size '%s' (%llu bytes) is not a Filecoin PoRep size "
                            "(2KiB 4KiB 16KiB 32KiB 8MiB 16MiB 512MiB 1GiB 32GiB 64GiB)",
                            text, v);
    *bytes = v;
    return PM_OK;
}

static const uint64_t published_sizes[5] = {2 * KiB, 8 * MiB, 512 * MiB, 32 * GiB, 64 * GiB};
static const fil_api_version_t family_version[4] = {FIL_API_V1_0_0, FIL_API_V1_1_0, FIL_API_V1_2_0,
                                                    FIL_API_V1_2_0};
static const fil_porep_feature_t family_feature[4] = {FIL_FEATURE_NONE, FIL_FEATURE_NONE,
                                                      FIL_FEATURE_SYNTHETIC_POREP,
                                                      FIL_FEATURE_NON_INTERACTIVE_POREP};

/* id = 5 * family + size index (families V1, V1_1, Synthetic, NI; sizes as published_sizes). */
static const fil_registered_proof_t registered[FIL_REGISTERED_PROOF_COUNT] = {
    {0, "StackedDrg2KiBV1", 2 * KiB, FIL_API_V1_0_0, FIL_FEATURE_NONE},
    {1, "StackedDrg8MiBV1", 8 * MiB, FIL_API_V1_0_0, FIL_FEATURE_NONE},
    {2, "StackedDrg512MiBV1", 512 * MiB, FIL_API_V1_0_0, FIL_FEATURE_NONE},
    {3, "StackedDrg32GiBV1", 32 * GiB, FIL_API_V1_0_0, FIL_FEATURE_NONE},
    {4, "StackedDrg64GiBV1", 64 * GiB, FIL_API_V1_0_0, FIL_FEATURE_NONE},
    {5, "StackedDrg2KiBV1_1", 2 * KiB, FIL_API_V1_1_0, FIL_FEATURE_NONE},
    {6, "StackedDrg8MiBV1_1", 8 * MiB, FIL_API_V1_1_0, FIL_FEATURE_NONE},
    {7, "StackedDrg512MiBV1_1", 512 * MiB, FIL_API_V1_1_0, FIL_FEATURE_NONE},
    {8, "StackedDrg32GiBV1_1", 32 * GiB, FIL_API_V1_1_0, FIL_FEATURE_NONE},
    {9, "StackedDrg64GiBV1_1", 64 * GiB, FIL_API_V1_1_0, FIL_FEATURE_NONE},
    {10, "StackedDrg2KiBV1_1_Feat_SyntheticPoRep", 2 * KiB, FIL_API_V1_2_0, FIL_FEATURE_SYNTHETIC_POREP},
    {11, "StackedDrg8MiBV1_1_Feat_SyntheticPoRep", 8 * MiB, FIL_API_V1_2_0, FIL_FEATURE_SYNTHETIC_POREP},
    {12, "StackedDrg512MiBV1_1_Feat_SyntheticPoRep", 512 * MiB, FIL_API_V1_2_0, FIL_FEATURE_SYNTHETIC_POREP},
    {13, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep", 32 * GiB, FIL_API_V1_2_0, FIL_FEATURE_SYNTHETIC_POREP},
    {14, "StackedDrg64GiBV1_1_Feat_SyntheticPoRep", 64 * GiB, FIL_API_V1_2_0, FIL_FEATURE_SYNTHETIC_POREP},
    {15, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", 2 * KiB, FIL_API_V1_2_0, FIL_FEATURE_NON_INTERACTIVE_POREP},
    {16, "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", 8 * MiB, FIL_API_V1_2_0, FIL_FEATURE_NON_INTERACTIVE_POREP},
    {17, "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", 512 * MiB, FIL_API_V1_2_0, FIL_FEATURE_NON_INTERACTIVE_POREP},
    {18, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", 32 * GiB, FIL_API_V1_2_0, FIL_FEATURE_NON_INTERACTIVE_POREP},
    {19, "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", 64 * GiB, FIL_API_V1_2_0, FIL_FEATURE_NON_INTERACTIVE_POREP},
};

const fil_registered_proof_t *fil_registered_proof(unsigned id) {
    return id < FIL_REGISTERED_PROOF_COUNT ? &registered[id] : NULL;
}

const fil_registered_proof_t *fil_registered_proof_find(uint64_t sector_size, fil_api_version_t v,
                                                        fil_porep_feature_t f) {
    for (unsigned fam = 0; fam < 4; fam++) {
        if (family_version[fam] != v || family_feature[fam] != f) continue;
        for (unsigned s = 0; s < 5; s++)
            if (published_sizes[s] == sector_size) return &registered[5 * fam + s];
    }
    return NULL;
}

void fil_porep_id(uint8_t out[32], unsigned registered_proof_id) {
    memset(out, 0, 32);
    uint64_t id = registered_proof_id;
    for (int i = 0; i < 8; i++) out[i] = (uint8_t)(id >> (8 * i));
    /* bytes 8..15: nonce 0 (LE); 16..31: zero */
}

int fil_porep_id_is_legacy(const uint8_t porep_id[32]) {
    uint64_t id = 0;
    for (int i = 7; i >= 0; i--) id = (id << 8) | porep_id[i];
    return id <= 4;
}

const char *fil_api_version_name(fil_api_version_t v) {
    switch (v) {
    case FIL_API_V1_0_0: return "V1_0_0";
    case FIL_API_V1_1_0: return "V1_1_0";
    case FIL_API_V1_2_0: return "V1_2_0";
    }
    return "?";
}

pm_status fil_api_version_parse(fil_api_version_t *v, const char *text, pm_error *err) {
    static const char *const names[3][3] = {{"V1_0_0", "1.0.0", "1.0"},
                                            {"V1_1_0", "1.1.0", "1.1"},
                                            {"V1_2_0", "1.2.0", "1.2"}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (text && !strcasecmp(text, names[i][j])) {
                *v = (fil_api_version_t)i;
                return PM_OK;
            }
    return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET,
                        "API version '%s': expected V1_0_0, V1_1_0 or V1_2_0", text ? text : "");
}

pm_status fil_porep_tree_shapes(fil_tree_shape_t *tree_d, fil_tree_shape_t *tree_cr,
                                uint64_t sector_size, pm_error *err) {
    const fil_sector_info_t *si = fil_sector_info(sector_size);
    if (!si)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "unsupported sector size %" PRIu64,
                            sector_size);
    pm_status st = PM_OK;
    if (tree_d) st = fil_tree_shape_init(tree_d, si->nodes, FIL_HASHER_SHA256, 2, 0, 0, err);
    if (!st && tree_cr)
        st = fil_tree_shape_init(tree_cr, si->nodes, FIL_HASHER_POSEIDON, si->base_arity,
                                 si->sub_arity, si->top_arity, err);
    return st;
}
