/*
 * real_data.c — readers of Filecoin's published records, parameters.json and WindowPoSt
 * (real_data.h).
 */
#include "filecoin/real_data.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "filecoin/post.h"
#include "util/file.h"

/* ---------------------------------------------------------------- shared helpers */

typedef struct {
    pm_error *err;
    const char *file;
    size_t line;     /* 0: the file has no lines (one JSON document) */
    uint64_t offset;
} rd_ctx;

static pm_status rd_fail(const rd_ctx *c, pm_status code, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static pm_status rd_fail(const rd_ctx *c, pm_status code, const char *field, const char *fmt, ...) {
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (c->line)
        return pm_error_set(c->err, code, c->file, c->offset, "line %zu: field %s: %s", c->line, field, what);
    return pm_error_set(c->err, code, c->file, PM_NO_OFFSET, "field %s: %s", field, what);
}

static pm_status rd_bytes(uint8_t *out, size_t want, const rd_ctx *c, json_t *obj, const char *key,
                          const char *field) {
    json_t *a = json_object_get(obj, key);
    if (!a) return rd_fail(c, PM_ERR_FORMAT, field, "missing");
    if (!json_is_array(a)) return rd_fail(c, PM_ERR_FORMAT, field, "not an array of bytes");
    if (json_array_size(a) != want)
        return rd_fail(c, PM_ERR_FORMAT, field, "%zu bytes, %zu expected", json_array_size(a), want);
    for (size_t i = 0; i < want; i++) {
        json_t *v = json_array_get(a, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 255)
            return rd_fail(c, PM_ERR_FORMAT, field, "element %zu is not a byte (an integer 0..255)", i);
        out[i] = (uint8_t)json_integer_value(v);
    }
    return PM_OK;
}

static pm_status rd_u64(uint64_t *out, const rd_ctx *c, json_t *obj, const char *key, const char *field,
                        uint64_t max) {
    json_t *v = json_object_get(obj, key);
    if (!v) return rd_fail(c, PM_ERR_FORMAT, field, "missing");
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return rd_fail(c, PM_ERR_FORMAT, field, "not an unsigned integer");
    if ((uint64_t)json_integer_value(v) > max)
        return rd_fail(c, PM_ERR_ARG, field, "%lld is out of range (at most %llu)", (long long)json_integer_value(v),
                       (unsigned long long)max);
    *out = (uint64_t)json_integer_value(v);
    return PM_OK;
}

/* jansson reads integers as signed 64-bit: a u64 above 2^63 is read from the text. Finds the one
 * occurrence of "key" (quoted) followed by ':' and digits, parses them into *v and blanks them to
 * "0" + spaces, so that the JSON parser then sees a small integer in their place. */
static pm_status rd_u64_text(uint64_t *v, char *s, size_t len, const rd_ctx *c, const char *key, const char *field) {
    char pat[64];
    int pl = snprintf(pat, sizeof pat, "\"%s\"", key);
    char *hit = NULL;
    for (char *q = s; q + pl <= s + len; q++)
        if (*q == '"' && !memcmp(q, pat, (size_t)pl)) {
            if (hit) return rd_fail(c, PM_ERR_FORMAT, field, "appears more than once");
            hit = q;
        }
    if (!hit) return rd_fail(c, PM_ERR_FORMAT, field, "missing");
    char *p = hit + pl, *end = s + len;
    while (p < end && isspace((unsigned char)*p)) p++;
    if (p == end || *p != ':') return rd_fail(c, PM_ERR_FORMAT, field, "no ':' after the key");
    p++;
    while (p < end && isspace((unsigned char)*p)) p++;
    char *d = p;
    uint64_t x = 0;
    while (p < end && *p >= '0' && *p <= '9') {
        unsigned dig = (unsigned)(*p - '0');
        if (x > (UINT64_MAX - dig) / 10) return rd_fail(c, PM_ERR_ARG, field, "does not fit 64 bits");
        x = x * 10 + dig;
        p++;
    }
    if (p == d) return rd_fail(c, PM_ERR_FORMAT, field, "not an unsigned integer");
    if (p < end && (*p == '.' || *p == 'e' || *p == 'E')) return rd_fail(c, PM_ERR_FORMAT, field, "not an integer");
    if (*d == '0' && p - d > 1) return rd_fail(c, PM_ERR_FORMAT, field, "has a leading zero");
    *d = '0';
    for (char *q = d + 1; q < p; q++) *q = ' ';
    *v = x;
    return PM_OK;
}

static pm_status rd_regular(const char *path, pm_error *err) {
    struct stat sb;
    if (stat(path, &sb) != 0) return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot open: %s", strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "is %s, not a regular file", pm_file_kind(sb.st_mode));
    return PM_OK;
}

/* A whole JSON file (a regular file; duplicate keys refused) into *root (the caller decrefs). */
static pm_status rd_json_file(json_t **root, const char *path, pm_error *err) {
    *root = NULL;
    pm_status st = rd_regular(path, err);
    if (st) return st;
    json_error_t je;
    *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!*root)
        return pm_error_set(err, PM_ERR_FORMAT, path, je.position > 0 ? (uint64_t)je.position : PM_NO_OFFSET,
                            "not JSON: %s (line %d)", je.text, je.line);
    return PM_OK;
}

/* ---------------------------------------------------------------- seal records */

void fil_seal_record_free(fil_seal_record_t *r) {
    free(r->proof);
    r->proof = NULL;
    r->proof_len = 0;
}

const char *fil_seal_record_version(char *buf, size_t cap, const fil_seal_record_t *r) {
    snprintf(buf, cap, "%s%s", fil_api_version_name(r->api_version),
             r->feature == FIL_FEATURE_SYNTHETIC_POREP       ? " SyntheticPoRep"
             : r->feature == FIL_FEATURE_NON_INTERACTIVE_POREP ? " NonInteractivePoRep"
                                                               : "");
    return buf;
}

static pm_status record_fields(fil_seal_record_t *r, json_t *root, const rd_ctx *c) {
    pm_status st;
    if (!json_is_object(root)) return rd_fail(c, PM_ERR_FORMAT, "(record)", "not a JSON object");
    json_t *pc = json_object_get(root, "porep_config");
    if (!pc) return rd_fail(c, PM_ERR_FORMAT, "porep_config", "missing");
    if (!json_is_object(pc)) return rd_fail(c, PM_ERR_FORMAT, "porep_config", "not an object");
    uint64_t v;
    if ((st = rd_u64(&v, c, pc, "sector_size", "porep_config.sector_size", UINT64_MAX / 2))) return st;
    const fil_sector_info_t *si = fil_sector_info(v);
    if (!si) return rd_fail(c, PM_ERR_ARG, "porep_config.sector_size", "%llu is not a sector size", (unsigned long long)v);
    r->sector_size = v;
    if ((st = rd_bytes(r->porep_id, 32, c, pc, "porep_id", "porep_config.porep_id"))) return st;
    json_t *av = json_object_get(pc, "api_version");
    if (!av) return rd_fail(c, PM_ERR_FORMAT, "porep_config.api_version", "missing");
    if (!json_is_string(av)) return rd_fail(c, PM_ERR_FORMAT, "porep_config.api_version", "not a string");
    int found = 0;
    for (int i = FIL_API_V1_0_0; i <= FIL_API_V1_2_0; i++)
        if (!strcmp(json_string_value(av), fil_api_version_name((fil_api_version_t)i))) {
            r->api_version = (fil_api_version_t)i;
            found = 1;
        }
    if (!found)
        return rd_fail(c, PM_ERR_ARG, "porep_config.api_version", "\"%.40s\" is not a porep version (V1_0_0, V1_1_0, V1_2_0)",
                       json_string_value(av));
    json_t *fe = json_object_get(pc, "api_features");
    r->feature = FIL_FEATURE_NONE;
    if (fe) {
        if (!json_is_array(fe)) return rd_fail(c, PM_ERR_FORMAT, "porep_config.api_features", "not an array");
        if (json_array_size(fe) > 1)
            return rd_fail(c, PM_ERR_ARG, "porep_config.api_features", "%zu features (they are mutually exclusive)",
                           json_array_size(fe));
        if (json_array_size(fe) == 1) {
            json_t *f = json_array_get(fe, 0);
            const char *fs = json_is_string(f) ? json_string_value(f) : NULL;
            if (fs && !strcmp(fs, "SyntheticPoRep")) r->feature = FIL_FEATURE_SYNTHETIC_POREP;
            else if (fs && !strcmp(fs, "NonInteractivePoRep")) r->feature = FIL_FEATURE_NON_INTERACTIVE_POREP;
            else
                return rd_fail(c, PM_ERR_ARG, "porep_config.api_features",
                               "%s%.40s%s is not a feature (SyntheticPoRep, NonInteractivePoRep)", fs ? "\"" : "",
                               fs ? fs : "a non-string", fs ? "\"" : "");
            if (r->api_version != FIL_API_V1_2_0)
                return rd_fail(c, PM_ERR_ARG, "porep_config.api_features", "features need V1_2_0, the record is %s",
                               fil_api_version_name(r->api_version));
        }
    }
    int ni = r->feature == FIL_FEATURE_NON_INTERACTIVE_POREP;
    unsigned want = ni ? si->ni_partitions : si->partitions;
    if ((st = rd_u64(&v, c, pc, "partitions", "porep_config.partitions", UINT32_MAX))) return st;
    if (v != want)
        return rd_fail(c, PM_ERR_ARG, "porep_config.partitions", "%llu, a %s %sPoRep has %u",
                       (unsigned long long)v, si->name, ni ? "non-interactive " : "", want);
    r->partitions = (uint32_t)v;
    static const char *const k32[5] = {"comm_r", "comm_d", "prover_id", "ticket", "seed"};
    uint8_t *d32[5] = {r->comm_r, r->comm_d, r->prover_id, r->ticket, r->seed};
    for (int i = 0; i < 5; i++)
        if ((st = rd_bytes(d32[i], 32, c, root, k32[i], k32[i]))) return st;
    json_t *sid = json_object_get(root, "sector_id");
    if (!json_is_integer(sid) || json_integer_value(sid) != 0) /* rd_u64_text put a 0 there */
        return rd_fail(c, PM_ERR_FORMAT, "sector_id", "not an unsigned integer");
    json_t *pf = json_object_get(root, "proof");
    if (!pf) return rd_fail(c, PM_ERR_FORMAT, "proof", "missing");
    if (!json_is_array(pf)) return rd_fail(c, PM_ERR_FORMAT, "proof", "not an array of bytes");
    size_t n = json_array_size(pf);
    if (!ni && n != 192 * (size_t)r->partitions)
        return rd_fail(c, PM_ERR_FORMAT, "proof", "%zu bytes; %u partitions take %zu (192 each)", n, r->partitions,
                       192 * (size_t)r->partitions);
    if (ni && (n < 192 || n > FIL_RECORD_LINE_MAX / 4))
        return rd_fail(c, PM_ERR_FORMAT, "proof", "%zu bytes is no non-interactive (aggregate) proof length", n);
    r->proof = malloc(n);
    if (!r->proof) return pm_error_set(c->err, PM_ERR_NOMEM, c->file, c->offset, "line %zu: proof", c->line);
    r->proof_len = n;
    return rd_bytes(r->proof, n, c, root, "proof", "proof");
}

pm_status fil_seal_record_parse(fil_seal_record_t *r, char *line, size_t len, const char *name, size_t lineno,
                                uint64_t offset, pm_error *err) {
    memset(r, 0, sizeof *r);
    r->line = lineno;
    rd_ctx c = {err, name, lineno ? lineno : 1, offset};
    pm_status st = rd_u64_text(&r->sector_id, line, len, &c, "sector_id", "sector_id");
    if (st) return st;
    json_error_t je;
    json_t *root = json_loadb(line, len, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return pm_error_set(err, PM_ERR_FORMAT, name, offset + (uint64_t)(je.position > 0 ? je.position : 0),
                            "line %zu: not a JSON record: %s (column %d)", c.line, je.text, je.column);
    st = record_fields(r, root, &c);
    json_decref(root);
    if (st) fil_seal_record_free(r);
    return st;
}

void fil_seal_records_free(fil_seal_records_t *rs) {
    for (size_t i = 0; i < rs->n; i++) fil_seal_record_free(&rs->r[i]);
    free(rs->r);
    rs->r = NULL;
    rs->n = 0;
}

pm_status fil_seal_records_read(fil_seal_records_t *out, const char *path, pm_error *err) {
    memset(out, 0, sizeof *out);
    pm_status st = rd_regular(path, err);
    if (st) return st;
    FILE *f = fopen(path, "rb");
    if (!f) return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot open: %s", strerror(errno));
    char *buf = malloc(FIL_RECORD_LINE_MAX + 1);
    size_t cap = 0;
    if (!buf) st = pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "line buffer");
    uint64_t off = 0;
    for (size_t lineno = 1; !st; lineno++) {
        size_t len = 0;
        int ch = EOF, nul = 0;
        /* bounded: a 2 GB line is refused after FIL_RECORD_LINE_MAX bytes, never held */
        while ((ch = getc(f)) != EOF && ch != '\n') {
            if (len == FIL_RECORD_LINE_MAX) {
                st = pm_error_set(err, PM_ERR_FORMAT, path, off, "line %zu: longer than %zu bytes (one record per line)",
                                  lineno, FIL_RECORD_LINE_MAX);
                break;
            }
            if (ch == 0) nul = 1;
            buf[len++] = (char)ch;
        }
        if (st) break;
        if (ferror(f)) {
            st = pm_error_set(err, PM_ERR_IO, path, off, "line %zu: read error: %s", lineno, strerror(errno));
            break;
        }
        if (nul) {
            st = pm_error_set(err, PM_ERR_FORMAT, path, off, "line %zu: holds a NUL byte", lineno);
            break;
        }
        size_t k = 0;
        while (k < len && isspace((unsigned char)buf[k])) k++;
        if (k < len) {
            if (out->n == cap) {
                size_t nc = cap ? 2 * cap : 64;
                fil_seal_record_t *nr = realloc(out->r, nc * sizeof *nr);
                if (!nr) {
                    st = pm_error_set(err, PM_ERR_NOMEM, path, off, "line %zu", lineno);
                    break;
                }
                out->r = nr;
                cap = nc;
            }
            buf[len] = 0;
            st = fil_seal_record_parse(&out->r[out->n], buf, len, path, lineno, off, err);
            if (st) break;
            out->n++;
        }
        off += len + (ch == '\n');
        if (ch == EOF) break;
    }
    free(buf);
    fclose(f);
    if (!st && out->n == 0) st = pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "holds no records");
    if (st) fil_seal_records_free(out);
    return st;
}

/* ---------------------------------------------------------------- parameters.json */

int fil_param_name_classify(fil_param_kind_t *kind, uint64_t *sector_size, int *is_vk, const char *name) {
    size_t nl = strlen(name);
    int vk = nl > 3 && !strcmp(name + nl - 3, ".vk");
    int params = nl > 7 && !strcmp(name + nl - 7, ".params");
    if (!vk && !params) return 0;
    size_t sl = nl - (vk ? 3 : 7);
    size_t nsz;
    const fil_sector_info_t *si = fil_sector_infos(&nsz);
    for (int k = FIL_PARAM_POREP; k <= FIL_PARAM_EMPTY_SECTOR_UPDATE; k++)
        for (size_t i = 0; i < nsz; i++) {
            char stem[256];
            pm_error e;
            if (fil_param_stem(stem, sizeof stem, (fil_param_kind_t)k, si[i].sector_size, &e)) continue;
            if (strlen(stem) == sl && !strncmp(stem, name, sl)) {
                *kind = (fil_param_kind_t)k;
                *sector_size = si[i].sector_size;
                *is_vk = vk;
                return 1;
            }
        }
    return 0;
}

void fil_param_manifest_free(fil_param_manifest_t *m) {
    free(m->e);
    m->e = NULL;
    m->n = 0;
}

pm_status fil_param_manifest_read(fil_param_manifest_t *m, const char *path, pm_error *err) {
    memset(m, 0, sizeof *m);
    json_t *root;
    pm_status st = rd_json_file(&root, path, err);
    if (st) return st;
    if (!json_is_object(root)) {
        json_decref(root);
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "not a JSON object {name: {cid, digest, sector_size}}");
    }
    m->e = calloc(json_object_size(root) ? json_object_size(root) : 1, sizeof *m->e);
    if (!m->e) st = pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "entries");
    const char *name;
    json_t *v;
    json_object_foreach(root, name, v) {
        if (st) break;
        rd_ctx c = {err, path, 0, 0};
        char field[240];
        snprintf(field, sizeof field, "\"%.190s\"", name);
        fil_param_entry_t *e = &m->e[m->n];
        if (strlen(name) >= sizeof e->name || strchr(name, '/')) {
            st = rd_fail(&c, PM_ERR_FORMAT, field, "not a parameter file name");
            break;
        }
        if (!json_is_object(v)) {
            st = rd_fail(&c, PM_ERR_FORMAT, field, "not an object {cid, digest, sector_size}");
            break;
        }
        json_t *cid = json_object_get(v, "cid"), *dg = json_object_get(v, "digest");
        if (!json_is_string(cid) || strlen(json_string_value(cid)) >= sizeof e->cid) {
            st = rd_fail(&c, PM_ERR_FORMAT, field, "\"cid\" is missing or not a short string");
            break;
        }
        const char *d = json_is_string(dg) ? json_string_value(dg) : NULL;
        int hex = d && strlen(d) == 32;
        for (int i = 0; hex && i < 32; i++) hex = isxdigit((unsigned char)d[i]) && !isupper((unsigned char)d[i]);
        if (!hex) {
            st = rd_fail(&c, PM_ERR_FORMAT, field, "\"digest\" is missing or not 32 lowercase hex digits");
            break;
        }
        uint64_t ss;
        snprintf(field, sizeof field, "\"%.180s\".sector_size", name);
        if ((st = rd_u64(&ss, &c, v, "sector_size", field, UINT64_MAX / 2))) break;
        fil_param_kind_t kind;
        uint64_t named;
        int vk;
        size_t nl = strlen(name);
        if (strncmp(name, "v28-", 4) || !((nl > 3 && !strcmp(name + nl - 3, ".vk")) ||
                                          (nl > 7 && !strcmp(name + nl - 7, ".params")))) {
            st = rd_fail(&c, PM_ERR_FORMAT, field, "not a v28-*.params or v28-*.vk name");
            break;
        }
        if (!fil_sector_info(ss)) {
            st = rd_fail(&c, PM_ERR_ARG, field, "%llu is not a sector size", (unsigned long long)ss);
            break;
        }
        int ours = fil_param_name_classify(&kind, &named, &vk, name);
        if (!ours) {
            kind = FIL_PARAM_POREP;
            vk = nl > 3 && !strcmp(name + nl - 3, ".vk");
        } else if (named != ss) {
            st = pm_error_set(err, PM_ERR_MISMATCH, path, PM_NO_OFFSET,
                              "entry \"%.190s\": sector_size %llu, but the name is our %llu-byte %s file", name,
                              (unsigned long long)ss, (unsigned long long)named, fil_param_kind_name(kind));
            break;
        }
        snprintf(e->name, sizeof e->name, "%s", name);
        snprintf(e->cid, sizeof e->cid, "%s", json_string_value(cid));
        memcpy(e->digest, d, 33);
        e->sector_size = ss;
        e->ours = ours;
        e->kind = kind;
        e->is_vk = vk;
        m->n++;
    }
    json_decref(root);
    if (st) fil_param_manifest_free(m);
    return st;
}

/* ---------------------------------------------------------------- WindowPoSt */

void fil_window_post_record_free(fil_window_post_record_t *w) {
    free(w->sector_id);
    free(w->comm_r);
    w->sector_id = NULL;
    w->comm_r = NULL;
    w->n_sectors = 0;
}

pm_status fil_window_post_record_read(fil_window_post_record_t *w, const char *path, pm_error *err) {
    memset(w, 0, sizeof *w);
    json_t *root;
    pm_status st = rd_json_file(&root, path, err);
    if (st) return st;
    rd_ctx c = {err, path, 0, 0};
    json_t *rp = json_object_get(root, "registered_proofs"), *sec = json_object_get(root, "sectors");
    if (!json_is_object(root)) st = rd_fail(&c, PM_ERR_FORMAT, "(document)", "not a JSON object");
    else if (!json_is_array(rp) || json_array_size(rp) == 0 || json_array_size(rp) > 4)
        st = rd_fail(&c, PM_ERR_FORMAT, "registered_proofs", "not an array of 1 to 4 proof names");
    uint64_t size = 0;
    for (size_t i = 0; !st && i < json_array_size(rp); i++) {
        json_t *s = json_array_get(rp, i);
        const fil_registered_post_t *hit = NULL;
        for (unsigned id = 0; json_is_string(s) && id < FIL_REGISTERED_POST_COUNT; id++)
            if (!strcmp(fil_registered_post(id)->name, json_string_value(s))) hit = fil_registered_post(id);
        if (!hit || hit->type != FIL_POST_WINDOW)
            st = rd_fail(&c, PM_ERR_ARG, "registered_proofs", "element %zu is not a WindowPoSt proof name "
                         "(e.g. StackedDrgWindow32GiBV1_2)", i);
        else if (size && hit->sector_size != size)
            st = rd_fail(&c, PM_ERR_ARG, "registered_proofs", "element %zu is for another sector size", i);
        else {
            size = hit->sector_size;
            w->registered[w->n_registered++] = hit->id;
        }
    }
    if (!st) st = rd_bytes(w->randomness, 32, &c, root, "randomness", "randomness");
    if (!st) st = rd_bytes(w->prover_id, 32, &c, root, "prover_id", "prover_id");
    if (!st) st = rd_bytes(w->proof, 192, &c, root, "proof", "proof");
    if (!st && (!json_is_array(sec) || json_array_size(sec) == 0 ||
                json_array_size(sec) > FIL_WINDOW_POST_RECORD_MAX_SECTORS))
        st = rd_fail(&c, PM_ERR_FORMAT, "sectors", "not an array of 1 to %u sectors", FIL_WINDOW_POST_RECORD_MAX_SECTORS);
    if (!st) {
        size_t n = json_array_size(sec);
        w->sector_id = calloc(n, sizeof *w->sector_id);
        w->comm_r = calloc(n, sizeof *w->comm_r);
        if (!w->sector_id || !w->comm_r) st = pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "sectors");
        for (size_t i = 0; !st && i < n; i++) {
            json_t *s = json_array_get(sec, i);
            char f1[48], f2[48];
            snprintf(f1, sizeof f1, "sectors[%zu].sector_id", i);
            snprintf(f2, sizeof f2, "sectors[%zu].comm_r", i);
            if (!json_is_object(s)) st = rd_fail(&c, PM_ERR_FORMAT, f1, "sector %zu is not an object", i);
            if (!st) st = rd_u64(&w->sector_id[i], &c, s, "sector_id", f1, INT64_MAX);
            if (!st) st = rd_bytes(w->comm_r[i], 32, &c, s, "comm_r", f2);
            if (!st) w->n_sectors++;
        }
    }
    json_decref(root);
    if (st) fil_window_post_record_free(w);
    return st;
}
