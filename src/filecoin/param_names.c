/*
 * param_names.c — Filecoin parameter names and digests (see param_names.h).
 */
#include "filecoin/param_names.h"

#include <blake2.h>
#include <jansson.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "util/file.h"
#include "util/progress.h"

/* POREP.md §1.1 (rust-fil-proofs constants.rs): nodes = size / 32. */
static const fil_porep_shape_t SHAPES[] = {
    {2048ull, 1ull << 6, 2, 2, 1, 8, 0, 0},
    {4096ull, 1ull << 7, 2, 2, 1, 8, 2, 0},
    {16384ull, 1ull << 9, 2, 2, 1, 8, 8, 0},
    {32768ull, 1ull << 10, 2, 2, 1, 8, 8, 2},
    {8ull << 20, 1ull << 18, 2, 2, 1, 8, 0, 0},
    {16ull << 20, 1ull << 19, 2, 2, 1, 8, 2, 0},
    {512ull << 20, 1ull << 24, 2, 2, 1, 8, 0, 0},
    {1ull << 30, 1ull << 25, 2, 2, 1, 8, 2, 0},
    {32ull << 30, 1ull << 30, 11, 18, 10, 8, 8, 0},
    {64ull << 30, 1ull << 31, 11, 18, 10, 8, 8, 2},
};

const fil_porep_shape_t *fil_porep_shapes(size_t *n) {
    *n = sizeof SHAPES / sizeof SHAPES[0];
    return SHAPES;
}

pm_status fil_porep_param_stem(char *out, size_t cap, uint64_t sector_size, pm_error *err) {
    const fil_porep_shape_t *s = NULL;
    for (size_t i = 0; i < sizeof SHAPES / sizeof SHAPES[0]; i++)
        if (SHAPES[i].sector_size == sector_size) s = &SHAPES[i];
    if (!s)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "no PoRep shape for sector size %llu",
                            (unsigned long long)sector_size);
    char id[512];
    int n = snprintf(id, sizeof id,
                     "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{"
                     "expansion_degree: 8 base_graph: drgraph::BucketGraph{size: %llu; degree: 6; "
                     "hasher: poseidon_hasher} }, challenges: LayerChallenges { layers: %u, "
                     "max_count: %u }, tree: merkletree-poseidon_hasher-%u-%u-%u }",
                     (unsigned long long)s->nodes, s->layers, s->challenges_per_partition,
                     s->tree_b, s->tree_s, s->tree_t);
    uint8_t h[32];
    SHA256((const uint8_t *)id, (size_t)n, h);
    char hex[65];
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", h[i]);
    int k = snprintf(out, cap,
                     "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-%u-%u-%u-"
                     "sha256_hasher-%s",
                     s->tree_b, s->tree_s, s->tree_t, hex);
    if (k < 0 || (size_t)k >= cap)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "name buffer too small");
    return PM_OK;
}

const char *fil_param_kind_name(fil_param_kind_t k) {
    static const char *const names[] = {"porep", "winning-post", "window-post", "empty-sector-update"};
    return (unsigned)k < 4 ? names[k] : "?";
}

unsigned fil_window_post_sector_count(uint64_t sector_size) {
    for (size_t i = 0; i < sizeof SHAPES / sizeof SHAPES[0]; i++)
        if (SHAPES[i].sector_size == sector_size)
            return sector_size == (32ull << 30) ? 2349 : sector_size == (64ull << 30) ? 2300 : 2;
    return 0;
}

pm_status fil_param_stem(char *out, size_t cap, fil_param_kind_t kind, uint64_t sector_size, pm_error *err) {
    if (kind == FIL_PARAM_POREP) return fil_porep_param_stem(out, cap, sector_size, err);
    const fil_porep_shape_t *s = NULL;
    for (size_t i = 0; i < sizeof SHAPES / sizeof SHAPES[0]; i++)
        if (SHAPES[i].sector_size == sector_size) s = &SHAPES[i];
    if (!s || kind > FIL_PARAM_EMPTY_SECTOR_UPDATE)
        return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "no %s parameters for sector size %llu",
                            fil_param_kind_name(kind), (unsigned long long)sector_size);
    char id[256];
    int n;
    const char *prefix;
    if (kind == FIL_PARAM_EMPTY_SECTOR_UPDATE) {
        prefix = "empty-sector-update";
        n = snprintf(id, sizeof id, "empty_sector_update::PublicParams{ sector_nodes: %llu }",
                     (unsigned long long)s->nodes);
    } else {
        prefix = "proof-of-spacetime-fallback";
        unsigned c = kind == FIL_PARAM_WINNING_POST ? 1 : 10;
        unsigned sc = kind == FIL_PARAM_WINNING_POST ? 66 : fil_window_post_sector_count(sector_size);
        n = snprintf(id, sizeof id, "FallbackPoSt::PublicParams{sector_size: %llu, challenge_count: %u, sector_count: %u}",
                     (unsigned long long)sector_size, c, sc);
    }
    uint8_t h[32];
    SHA256((const uint8_t *)id, (size_t)n, h);
    char hex[65];
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", h[i]);
    int k = snprintf(out, cap, "v28-%s-merkletree-poseidon_hasher-%u-%u-%u-%s", prefix, s->tree_b, s->tree_s,
                     s->tree_t, hex);
    if (k < 0 || (size_t)k >= cap) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "name buffer too small");
    return PM_OK;
}

pm_status fil_param_digest(char hex32[33], uint64_t *bytes, const char *path, pm_error *err) {
    return fil_param_digest_progress(hex32, bytes, path, 0, err);
}

pm_status fil_param_digest_progress(char hex32[33], uint64_t *bytes, const char *path, int progress, pm_error *err) {
    pm_file f;
    pm_status st = pm_file_open(&f, path, err);
    if (st) return st;
    blake2b_state s;
    uint8_t h[64];
    blake2b_init(&s, 64);
    const size_t step = (size_t)64 << 20;
    for (uint64_t o = 0; o < f.size; o += step) {
        size_t k = f.size - o < step ? (size_t)(f.size - o) : step;
        blake2b_update(&s, f.data + o, k);
        if (progress) pm_progress_add(k);
    }
    blake2b_final(&s, h, 64);
    if (bytes) *bytes = f.size;
    st = pm_file_settle(&f, PM_OK, err);
    pm_file_close(&f);
    if (st) return st;
    for (int i = 0; i < 16; i++) snprintf(hex32 + 2 * i, 3, "%02x", h[i]);
    return PM_OK;
}

pm_status fil_param_check_dir(fil_param_check_t *res, const char *dir, const char *json_path,
                              const char *filter, int skip_params, void *out, pm_error *err) {
    memset(res, 0, sizeof *res);
    FILE *o = out;
    json_error_t je;
    /* a FIFO would block json_load_file forever, a directory or device reads as garbage */
    struct stat sb;
    if (stat(json_path, &sb) == 0 && !S_ISREG(sb.st_mode))
        return pm_error_set(err, PM_ERR_IO, json_path, PM_NO_OFFSET,
                            "cannot read manifest: is %s, not a regular file",
                            pm_file_kind(sb.st_mode));
    json_t *root = json_load_file(json_path, 0, &je);
    if (!root)
        return pm_error_set(err, PM_ERR_IO, json_path, PM_NO_OFFSET, "cannot read manifest: %s (line %d)",
                            je.text, je.line);
    if (!json_is_object(root)) {
        json_decref(root);
        return pm_error_set(err, PM_ERR_FORMAT, json_path, PM_NO_OFFSET,
                            "manifest is not a JSON object {name: {cid, digest, sector_size}}");
    }
    const char *name;
    json_t *v;
    pm_status st = PM_OK;
    json_object_foreach(root, name, v) {
        json_t *dg = json_is_object(v) ? json_object_get(v, "digest") : NULL;
        const char *want = dg && json_is_string(dg) ? json_string_value(dg) : NULL;
        if (!want || strlen(want) != 32 || strchr(name, '/')) {
            st = pm_error_set(err, PM_ERR_FORMAT, json_path, PM_NO_OFFSET,
                              "entry \"%.200s\" has no 32-character \"digest\" (or a bad name)", name);
            break;
        }
        if (filter && !strstr(name, filter)) continue;
        size_t nl = strlen(name);
        if (skip_params && nl > 7 && !strcmp(name + nl - 7, ".params")) continue;
        char path[4096], got[33];
        snprintf(path, sizeof path, "%s/%s", dir, name);
        res->checked++;
        pm_error e;
        pm_error_clear(&e);
        struct stat pb; /* stat, not fopen: opening a FIFO named like the file would block */
        if (stat(path, &pb) != 0) {
            res->missing++;
            if (o) fprintf(o, "MISSING %s\n", name);
            continue;
        }
        if (fil_param_digest(got, NULL, path, &e) != PM_OK) {
            res->bad++;
            if (o) fprintf(o, "BAD %s (unreadable: %s)\n", name, e.msg);
            continue;
        }
        if (strcasecmp(got, want) == 0) {
            res->ok++;
            if (o) fprintf(o, "OK %s\n", name);
        } else {
            res->bad++;
            if (o) fprintf(o, "BAD %s (digest %s, expected %s)\n", name, got, want);
        }
    }
    json_decref(root);
    return st;
}

/* POREP.md §1.5 (rust-fil-proofs parameters.json, v28 PoRep). */
static const fil_known_digest_t KNOWN[] = {
    {2048ull, ".vk", "dc1ade9929ade1708238f155343044ac", FIL_PARAM_POREP},
    {8ull << 20, ".vk", "b687beb9adbd9dabe265a7e3620813e4", FIL_PARAM_POREP},
    {512ull << 20, ".vk", "065179da19fbe515507267677f02823e", FIL_PARAM_POREP},
    {32ull << 30, ".vk", "0c7b4aac1c40fdb7eb82bc355b41addf", FIL_PARAM_POREP},
    {32ull << 30, ".params", "6a388072a518cf46ebd661f5cc46900a", FIL_PARAM_POREP},
    {64ull << 30, ".vk", "a89884252c04c298d0b3c81bfd884164", FIL_PARAM_POREP},
    /* rust-fil-proofs @87348a7 parameters.json: the other PoRep .params (issue #39) */
    {2048ull, ".params", "434fb1338ecfaf0f59256f30dde4968f", FIL_PARAM_POREP},
    {8ull << 20, ".params", "09e612e4eeb7a0eb95679a88404f960c", FIL_PARAM_POREP},
    {512ull << 20, ".params", "6c77597eb91ab936c1cef4cf19eba1b3", FIL_PARAM_POREP},
    {64ull << 30, ".params", "1801f8a6e1b00bceb00cc27314bb5ce3", FIL_PARAM_POREP},
    /* rust-fil-proofs @87348a7 parameters.json: the proof-of-spacetime-fallback and
     * empty-sector-update entries, matched to kind and size by their computed names */
    {2048ull, ".params", "82c88066be968bb550a05e30ff6c2413", FIL_PARAM_WINNING_POST},
    {2048ull, ".vk", "ffd79788d614d27919ae5bd2d94eacb6", FIL_PARAM_WINNING_POST},
    {8388608ull, ".params", "700171ecf7334e3199437c930676af82", FIL_PARAM_WINNING_POST},
    {8388608ull, ".vk", "79ebb55f56fda427743e35053edad8fc", FIL_PARAM_WINNING_POST},
    {536870912ull, ".params", "827359440349fe8f5a016e7598993b79", FIL_PARAM_WINNING_POST},
    {536870912ull, ".vk", "bd2cd62f65c1ab84f19ca27e97b7c731", FIL_PARAM_WINNING_POST},
    {34359738368ull, ".params", "d84f79a16fe40e9e25a36e2107bb1ba0", FIL_PARAM_WINNING_POST},
    {34359738368ull, ".vk", "fc02943678dd119e69e7fab8420e8819", FIL_PARAM_WINNING_POST},
    {68719476736ull, ".params", "2170a91ad5bae22ea61f2ea766630322", FIL_PARAM_WINNING_POST},
    {68719476736ull, ".vk", "6d3789148fb6466d07ee1e24d6292fd6", FIL_PARAM_WINNING_POST},
    {2048ull, ".params", "7610b9f82bfc88405b7a832b651ce2f6", FIL_PARAM_WINDOW_POST},
    {2048ull, ".vk", "0e0958009936b9d5e515ec97b8cb792d", FIL_PARAM_WINDOW_POST},
    {8388608ull, ".params", "c49499bb76a0762884896f9683403f55", FIL_PARAM_WINDOW_POST},
    {8388608ull, ".vk", "34d4feeacd9abf788d69ef1bb4d8fd00", FIL_PARAM_WINDOW_POST},
    {536870912ull, ".params", "1a7d4a9c8a502a497ed92a54366af33f", FIL_PARAM_WINDOW_POST},
    {536870912ull, ".vk", "4dae975de4f011f101f5a2f86d1daaba", FIL_PARAM_WINDOW_POST},
    {34359738368ull, ".params", "2cf49eb26f1fee94c85781a390ddb4c8", FIL_PARAM_WINDOW_POST},
    {34359738368ull, ".vk", "0f8ec542485568fa3468c066e9fed82b", FIL_PARAM_WINDOW_POST},
    {68719476736ull, ".params", "3810b7780ac0e299b22ae70f1f94c9bc", FIL_PARAM_WINDOW_POST},
    {68719476736ull, ".vk", "59d2bf1857adc59a4f08fcf2afaa916b", FIL_PARAM_WINDOW_POST},
    {2048ull, ".params", "311f92a3e75036ced01b1c0025f1fa0c", FIL_PARAM_EMPTY_SECTOR_UPDATE},
    {2048ull, ".vk", "eadad9784969890d30f2749708c79771", FIL_PARAM_EMPTY_SECTOR_UPDATE},
    {8388608ull, ".params", "5aedd2cf3e5c0a15623d56a1b43110ad", FIL_PARAM_EMPTY_SECTOR_UPDATE},
    {8388608ull, ".vk", "abd80269054d391a734febdac0d2e687", FIL_PARAM_EMPTY_SECTOR_UPDATE},
    {536870912ull, ".params", "c3ad7bb549470b82ad52ed070aebb4f4", FIL_PARAM_EMPTY_SECTOR_UPDATE},
    {536870912ull, ".vk", "994c5b7d450ca9da348c910689f2dc7f", FIL_PARAM_EMPTY_SECTOR_UPDATE},
    {34359738368ull, ".params", "1b3cfd761a961543f9eb273e435a06a2", FIL_PARAM_EMPTY_SECTOR_UPDATE},
    {34359738368ull, ".vk", "3a6941983754737fde880d29c7094905", FIL_PARAM_EMPTY_SECTOR_UPDATE},
    {68719476736ull, ".params", "1a392e7b759fb18e036c7559b5ece816", FIL_PARAM_EMPTY_SECTOR_UPDATE},
    {68719476736ull, ".vk", "80e366df2f1011953c2d01c7b7c9ee8e", FIL_PARAM_EMPTY_SECTOR_UPDATE},
};

const fil_known_digest_t *fil_known_digests(size_t *n) {
    *n = sizeof KNOWN / sizeof KNOWN[0];
    return KNOWN;
}

pm_status fil_param_check_known(fil_param_check_t *res, const char *dir, int skip_params, void *out,
                                pm_error *err) {
    memset(res, 0, sizeof *res);
    FILE *o = out;
    for (size_t i = 0; i < sizeof KNOWN / sizeof KNOWN[0]; i++) {
        if (skip_params && !strcmp(KNOWN[i].ext, ".params")) continue;
        char stem[256], name[300], path[4400], got[33];
        pm_status st = fil_param_stem(stem, sizeof stem, KNOWN[i].kind, KNOWN[i].sector_size, err);
        if (st) return st;
        snprintf(name, sizeof name, "%s%s", stem, KNOWN[i].ext);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        res->checked++;
        struct stat pb; /* stat, not fopen: opening a FIFO named like the file would block */
        if (stat(path, &pb) != 0) {
            res->missing++;
            if (o) fprintf(o, "absent %s\n", name);
            continue;
        }
        pm_error e;
        pm_error_clear(&e);
        if (fil_param_digest(got, NULL, path, &e) != PM_OK) {
            res->bad++;
            if (o) fprintf(o, "BAD %s (unreadable: %s)\n", name, e.msg);
        } else if (strcmp(got, KNOWN[i].digest) == 0) {
            res->ok++;
            if (o) fprintf(o, "OK %s\n", name);
        } else {
            res->bad++;
            if (o) fprintf(o, "BAD %s (digest %s, expected %s)\n", name, got, KNOWN[i].digest);
        }
    }
    return PM_OK;
}
