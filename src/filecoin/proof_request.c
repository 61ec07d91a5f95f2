/*
 * proof_request.c — PoSt / SnapDeals requests and vanilla lists as JSON files (proof_request.h).
 */
#include "filecoin/proof_request.h"

#include <errno.h>
#include <stddef.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/base64.h"
#include "util/file.h"
#include "util/outfile.h"

static const char *const KIND_NAMES[] = {"", "POREP_SEAL_COMMIT", "SNAP_DEALS_UPDATE", "WINDOW_POST_PARTITION",
                                         "WINNING_POST"};

const char *fil_request_kind_name(fil_request_kind_t k) {
    return (unsigned)k < 5 ? KIND_NAMES[k] : "?";
}

void fil_proof_request_free(fil_proof_request_t *r) {
    for (size_t i = 0; i < r->n_vanilla; i++) free(r->vanilla[i]);
    free(r->vanilla);
    free(r->vanilla_len);
    memset(r, 0, sizeof *r);
}

pm_status fil_proof_request_add_vanilla(fil_proof_request_t *r, const uint8_t *blob, size_t len, pm_error *err) {
    uint8_t **v = realloc(r->vanilla, (r->n_vanilla + 1) * sizeof *v);
    if (v) r->vanilla = v;
    size_t *l = realloc(r->vanilla_len, (r->n_vanilla + 1) * sizeof *l);
    if (l) r->vanilla_len = l;
    uint8_t *c = malloc(len ? len : 1);
    if (!v || !l || !c) {
        free(c);
        return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "request: out of memory");
    }
    if (len) memcpy(c, blob, len);
    r->vanilla[r->n_vanilla] = c;
    r->vanilla_len[r->n_vanilla] = len;
    r->n_vanilla++;
    return PM_OK;
}

static pm_status load(json_t **root, const char *path, pm_error *err) {
    struct stat sb;
    if (stat(path, &sb) != 0)
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot open: %s", strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "not a regular file (%s)", pm_file_kind(sb.st_mode));
    json_error_t je;
    *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!*root)
        return pm_error_set(err, PM_ERR_FORMAT, path, je.position >= 0 ? (uint64_t)je.position : PM_NO_OFFSET,
                            "not JSON: %s (line %d)", je.text, je.line);
    return PM_OK;
}

/* a base64 JSON string into a new blob */
static pm_status b64(uint8_t **out, size_t *len, const json_t *v, const char *path, const char *what, pm_error *err) {
    if (!json_is_string(v))
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "%s: expected a base64 string", what);
    pm_status st = pm_base64_decode(out, len, json_string_value(v), json_string_length(v), PM_BASE64_PAD_REQUIRED, err);
    if (st == PM_ERR_NOMEM) return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "%s: out of memory", what);
    if (st) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "%s: not standard padded base64 (%s)", what, why);
    }
    return PM_OK;
}

static pm_status vanilla_array(fil_proof_request_t *r, const json_t *a, const char *path, pm_error *err) {
    if (!json_is_array(a))
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "vanilla_proofs: expected an array of base64 strings");
    for (size_t i = 0; i < json_array_size(a); i++) {
        char what[64];
        snprintf(what, sizeof what, "vanilla_proofs[%zu]", i);
        uint8_t *blob;
        size_t len;
        pm_status st = b64(&blob, &len, json_array_get(a, i), path, what, err);
        if (st) return st;
        st = fil_proof_request_add_vanilla(r, blob, len, err);
        free(blob);
        if (st) return st;
    }
    return PM_OK;
}

/* the field under its proto name or its lowerCamelCase JSON name */
static json_t *field(const json_t *o, const char *snake, const char *camel) {
    json_t *v = json_object_get(o, snake);
    return v ? v : json_object_get(o, camel);
}

static pm_status u64_field(uint64_t *out, const json_t *o, const char *snake, const char *camel, uint64_t max,
                           const char *path, pm_error *err) {
    json_t *v = field(o, snake, camel);
    if (!v) return PM_OK;
    if (json_is_integer(v) && json_integer_value(v) >= 0) {
        *out = (uint64_t)json_integer_value(v);
    } else if (json_is_string(v)) { /* proto3 JSON writes 64-bit integers as decimal strings */
        const char *s = json_string_value(v);
        char *end = NULL;
        errno = 0;
        unsigned long long x = *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
        if (*s < '0' || *s > '9' || errno || *end)
            return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "%s: \"%.40s\" is not a decimal integer", snake, s);
        *out = x;
    } else {
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "%s: expected a non-negative integer", snake);
    }
    if (*out > max)
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "%s: %llu is out of range (at most %llu)", snake,
                            (unsigned long long)*out, (unsigned long long)max);
    return PM_OK;
}

static pm_status bytes32_field(uint8_t out[32], int *has, const json_t *o, const char *snake, const char *camel,
                               const char *path, pm_error *err) {
    json_t *v = field(o, snake, camel);
    if (!v) return PM_OK;
    uint8_t *b;
    size_t n;
    pm_status st = b64(&b, &n, v, path, snake, err);
    if (st) return st;
    if (n != 32) {
        free(b);
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "%s: %zu bytes, expected 32", snake, n);
    }
    memcpy(out, b, 32);
    free(b);
    *has = 1;
    return PM_OK;
}

pm_status fil_proof_request_read(fil_proof_request_t *r, const char *path, pm_error *err) {
    memset(r, 0, sizeof *r);
    json_t *root = NULL;
    pm_status st = load(&root, path, err);
    if (st) return st;
    if (!json_is_object(root)) {
        json_decref(root);
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "a request is a JSON object");
    }
    json_t *k = field(root, "proof_kind", "proofKind");
    if (k) {
        if (json_is_string(k)) {
            const char *s = json_string_value(k);
            for (unsigned i = 2; i < 5; i++)
                if (!strcmp(s, KIND_NAMES[i])) r->kind = (fil_request_kind_t)i;
            if (!r->kind)
                st = pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET,
                                  "proof_kind \"%.40s\": expected WINNING_POST, WINDOW_POST_PARTITION or SNAP_DEALS_UPDATE", s);
        } else if (json_is_integer(k) && json_integer_value(k) >= 2 && json_integer_value(k) <= 4) {
            r->kind = (fil_request_kind_t)json_integer_value(k);
        } else {
            st = pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "proof_kind: expected a ProofKind name or number");
        }
    }
    uint64_t part = 0;
    if (!st) st = u64_field(&r->sector_size, root, "sector_size", "sectorSize", UINT64_MAX, path, err);
    if (!st) st = u64_field(&r->registered_proof, root, "registered_proof", "registeredProof", UINT32_MAX, path, err);
    if (!st) st = u64_field(&r->miner_id, root, "miner_id", "minerId", UINT64_MAX, path, err);
    r->has_miner_id = field(root, "miner_id", "minerId") != NULL;
    if (!st) st = u64_field(&r->sector_number, root, "sector_number", "sectorNumber", UINT64_MAX, path, err);
    if (!st) st = u64_field(&part, root, "partition_index", "partitionIndex", UINT32_MAX, path, err);
    r->partition_index = (uint32_t)part;
    if (!st) st = bytes32_field(r->randomness, &r->has_randomness, root, "randomness", "randomness", path, err);
    if (!st) st = bytes32_field(r->comm_r_old, &r->has_comm_r_old, root, "comm_r_old", "commROld", path, err);
    if (!st) st = bytes32_field(r->comm_r_new, &r->has_comm_r_new, root, "comm_r_new", "commRNew", path, err);
    if (!st) st = bytes32_field(r->comm_d_new, &r->has_comm_d_new, root, "comm_d_new", "commDNew", path, err);
    if (!st) st = bytes32_field(r->prover_id, &r->has_prover_id, root, "prover_id", "proverId", path, err);
    json_t *v = field(root, "vanilla_proofs", "vanillaProofs");
    if (!st && !v) st = pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "vanilla_proofs is missing");
    if (!st) st = vanilla_array(r, v, path, err);
    json_decref(root);
    if (st) fil_proof_request_free(r);
    return st;
}

pm_status fil_vanilla_list_read(fil_proof_request_t *r, const char *path, pm_error *err) {
    for (size_t i = 0; i < r->n_vanilla; i++) free(r->vanilla[i]);
    free(r->vanilla);
    free(r->vanilla_len);
    r->vanilla = NULL;
    r->vanilla_len = NULL;
    r->n_vanilla = 0;
    json_t *root = NULL;
    pm_status st = load(&root, path, err);
    if (st) return st;
    st = vanilla_array(r, root, path, err);
    json_decref(root);
    return st;
}

/* the JSON array of base64 strings of r's blobs */
static json_t *vanilla_json(const fil_proof_request_t *r) {
    json_t *a = json_array();
    for (size_t i = 0; a && i < r->n_vanilla; i++) {
        char *s = pm_base64_encode_alloc(r->vanilla[i], r->vanilla_len[i]);
        if (!s || json_array_append_new(a, json_string(s))) {
            free(s);
            json_decref(a);
            return NULL;
        }
        free(s);
    }
    return a;
}

static pm_status dump(const char *path, json_t *j, pm_error *err) {
    if (!j) return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "out of memory");
    pm_outfile o;
    pm_status st = pm_outfile_begin(&o, path, err);
    if (!st && json_dumpfd(j, o.fd, JSON_INDENT(1) | JSON_PRESERVE_ORDER)) {
        pm_outfile_abort(&o);
        st = pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot write: %s", strerror(errno));
    }
    if (!st) st = pm_outfile_commit(&o, err);
    json_decref(j);
    return st;
}

pm_status fil_vanilla_list_write(const char *path, const fil_proof_request_t *r, pm_error *err) {
    return dump(path, vanilla_json(r), err);
}

static int set_b64(json_t *o, const char *key, const uint8_t *b, size_t n) {
    char *s = pm_base64_encode_alloc(b, n);
    if (!s) return -1;
    int rc = json_object_set_new(o, key, json_string(s));
    free(s);
    return rc;
}

pm_status fil_proof_request_write(const char *path, const fil_proof_request_t *r, pm_error *err) {
    json_t *o = json_object();
    int bad = !o;
    if (!bad && r->kind) bad |= json_object_set_new(o, "proof_kind", json_string(fil_request_kind_name(r->kind)));
    if (!bad) {
        bad |= json_object_set_new(o, "sector_size", json_integer((json_int_t)r->sector_size));
        bad |= json_object_set_new(o, "registered_proof", json_integer((json_int_t)r->registered_proof));
        bad |= json_object_set_new(o, "miner_id", json_integer((json_int_t)r->miner_id));
        bad |= json_object_set_new(o, "sector_number", json_integer((json_int_t)r->sector_number));
        bad |= json_object_set_new(o, "partition_index", json_integer((json_int_t)r->partition_index));
        if (r->has_randomness) bad |= set_b64(o, "randomness", r->randomness, 32);
        if (r->has_comm_r_old) bad |= set_b64(o, "comm_r_old", r->comm_r_old, 32);
        if (r->has_comm_r_new) bad |= set_b64(o, "comm_r_new", r->comm_r_new, 32);
        if (r->has_comm_d_new) bad |= set_b64(o, "comm_d_new", r->comm_d_new, 32);
        if (r->has_prover_id) bad |= set_b64(o, "prover_id", r->prover_id, 32);
        json_t *a = vanilla_json(r);
        bad |= !a || json_object_set_new(o, "vanilla_proofs", a);
    }
    if (bad) {
        json_decref(o);
        return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "out of memory");
    }
    return dump(path, o, err);
}

/* ---------------------------------------------------------------- fields as named inputs */
typedef enum { F_U64, F_U32, F_B32 } ftype;
typedef struct {
    const char *name;
    ftype type;
    size_t off;     /* of the value in fil_proof_request_t */
    ptrdiff_t has;  /* of its has_ flag, or -1 */
} fdesc;

#define OFF(m) offsetof(fil_proof_request_t, m)
static const fdesc FIELDS[FIL_REQUEST_FIELD_COUNT] = {
    {"sector_size", F_U64, OFF(sector_size), -1},
    {"registered_proof", F_U32, OFF(registered_proof), -1},
    {"miner_id", F_U64, OFF(miner_id), (ptrdiff_t)OFF(has_miner_id)},
    {"sector_number", F_U64, OFF(sector_number), -1},
    {"partition_index", F_U32, OFF(partition_index), -1},
    {"randomness", F_B32, OFF(randomness), (ptrdiff_t)OFF(has_randomness)},
    {"prover_id", F_B32, OFF(prover_id), (ptrdiff_t)OFF(has_prover_id)},
    {"comm_r_old", F_B32, OFF(comm_r_old), (ptrdiff_t)OFF(has_comm_r_old)},
    {"comm_r_new", F_B32, OFF(comm_r_new), (ptrdiff_t)OFF(has_comm_r_new)},
    {"comm_d_new", F_B32, OFF(comm_d_new), (ptrdiff_t)OFF(has_comm_d_new)},
};
#undef OFF

const char *fil_proof_request_field_name(unsigned i) { return i < FIL_REQUEST_FIELD_COUNT ? FIELDS[i].name : NULL; }

static const fdesc *fdesc_of(const char *name) {
    for (unsigned i = 0; name && i < FIL_REQUEST_FIELD_COUNT; i++)
        if (!strcmp(FIELDS[i].name, name)) return &FIELDS[i];
    return NULL;
}

pm_status fil_proof_request_set_field(fil_proof_request_t *r, const char *name, const uint8_t *v, size_t len,
                                      const char *label, pm_error *err) {
    const fdesc *f = fdesc_of(name);
    if (!f) return pm_error_set(err, PM_ERR_ARG, label, PM_NO_OFFSET, "'%s' is not a request field", name ? name : "");
    char *base = (char *)r;
    if (f->type == F_B32) {
        if (len != 32)
            return pm_error_set(err, PM_ERR_FORMAT, label, PM_NO_OFFSET, "%s: %zu bytes, expected the 32 raw bytes",
                                name, len);
        memcpy(base + f->off, v, 32);
    } else {
        size_t n = len && v[len - 1] == '\n' ? len - 1 : len;
        uint64_t x = 0, max = f->type == F_U32 ? UINT32_MAX : UINT64_MAX;
        if (!n || n > 20)
            return pm_error_set(err, PM_ERR_FORMAT, label, PM_NO_OFFSET, "%s: expected a decimal integer (%zu bytes)",
                                name, len);
        for (size_t i = 0; i < n; i++) {
            if (v[i] < '0' || v[i] > '9')
                return pm_error_set(err, PM_ERR_FORMAT, label, i, "%s: byte 0x%02x at %zu is not a decimal digit", name,
                                    v[i], i);
            unsigned d = (unsigned)(v[i] - '0');
            if (x > (max - d) / 10)
                return pm_error_set(err, PM_ERR_FORMAT, label, PM_NO_OFFSET, "%s: %.*s is out of range (at most %llu)",
                                    name, (int)n, (const char *)v, (unsigned long long)max);
            x = x * 10 + d;
        }
        if (f->type == F_U32) *(uint32_t *)(void *)(base + f->off) = (uint32_t)x;
        else *(uint64_t *)(void *)(base + f->off) = x;
    }
    if (f->has >= 0) *(int *)(void *)(base + f->has) = 1;
    return PM_OK;
}

int fil_proof_request_get_field(uint8_t *out, size_t cap, size_t *len, const fil_proof_request_t *r, const char *name) {
    const fdesc *f = fdesc_of(name);
    const char *base = (const char *)r;
    *len = 0;
    if (!f || cap < 32 || (f->type == F_B32 && !*(const int *)(const void *)(base + f->has))) return -1;
    if (f->type == F_B32) {
        memcpy(out, base + f->off, 32);
        *len = 32;
        return 0;
    }
    uint64_t x = f->type == F_U32 ? *(const uint32_t *)(const void *)(base + f->off)
                                  : *(const uint64_t *)(const void *)(base + f->off);
    *len = (size_t)snprintf((char *)out, cap, "%llu", (unsigned long long)x);
    return 0;
}
