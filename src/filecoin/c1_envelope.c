/*
 * c1_envelope.c — reading a C1 from a file or from memory: the C1 JSON itself, or the lotus-bench
 * envelope {"SectorNum","Phase1Out": base64 of the C1 JSON,"SectorSize"} around it (detected by its
 * keys). Format: c1_json.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/c1_json_internal.h"
#include "util/base64.h"
#include "util/file.h"


typedef struct {
    unsigned seen;
    uint64_t num, size;
    const char *b64;
    size_t blen;
} env_ctx;

static pm_status env_field(fil_c1_tok *p, const char *key, void *ctx, int *known) {
    env_ctx *c = ctx;
    *known = 1;
    if (!strcmp(key, "SectorNum")) {
        SEEN(0);
        return fil_c1_tok_uint(p, &c->num, UINT64_MAX);
    }
    if (!strcmp(key, "SectorSize")) {
        SEEN(1);
        return fil_c1_tok_uint(p, &c->size, UINT64_MAX);
    }
    if (!strcmp(key, "Phase1Out")) {
        SEEN(2);
        if (fil_c1_tok_peek(p) != '"') return fil_c1_tok_fail(p, "expected a base64 string, found %s", fil_c1_tok_what(p));
        const char *s0 = ++p->s;
        while (p->s < p->end && *p->s != '"') {
            unsigned char ch = (unsigned char)*p->s;
            if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
                  ch == '+' || ch == '/' || ch == '='))
                return fil_c1_tok_fail(p, "not standard base64 (byte 0x%02x)", ch);
            p->s++;
        }
        if (p->s >= p->end) return fil_c1_tok_fail(p, "unterminated string");
        c->b64 = s0;
        c->blen = (size_t)(p->s - s0);
        p->s++;
        return PM_OK;
    }
    *known = 0;
    return PM_OK;
}
static const char *const ENV_NAMES[] = {"SectorNum", "SectorSize", "Phase1Out", NULL};

pm_status fil_c1_read_memory(fil_c1_t *c1, uint64_t *sector_num, const char *buf, size_t len, const char *name,
                             pm_error *err) {
    memset(c1, 0, sizeof *c1);
    /* An envelope starts with an object whose keys include "Phase1Out"; a C1 never has that key. */
    const char *probe = memmem(buf, len < 256 ? len : 256, "\"Phase1Out\"", 11);
    if (!probe) probe = memmem(buf, len < 256 ? len : 256, "\"SectorNum\"", 11);
    if (!probe) return fil_c1_from_json(c1, buf, len, name, err);
    /* The envelope is parsed with the single-pass tokenizer: jansson would copy and UTF-8-check the
     * ~50 MB Phase1Out string first (seconds on the 2-core VM), for a 3-key object. */
    env_ctx ec;
    memset(&ec, 0, sizeof ec);
    fil_c1_tok p = {.s = buf, .end = buf + len, .base = buf, .name = name, .err = err, .c1 = c1};
    p.path.name = name;
    p.path.err = err;
    pm_status st = fil_c1_tok_object(&p, env_field, &ec);
    if (!st && fil_c1_tok_peek(&p) != -1) st = fil_c1_tok_fail(&p, "trailing characters after the envelope");
    if (!st) st = fil_c1_tok_need(&p, ec.seen, 7, ENV_NAMES);
    if (!st && ec.size == 0) st = fil_c1_tok_fail(&p, "envelope: SectorSize is 0");
    uint8_t *dec = NULL;
    size_t dn = 0;
    if (!st && ec.blen % 4)
        st = pm_error_set(err, PM_ERR_FORMAT, name, (uint64_t)(ec.b64 - buf),
                          "envelope: Phase1Out is not padded base64 (length %zu)", ec.blen);
    if (!st && (st = pm_base64_decode(&dec, &dn, ec.b64, ec.blen, PM_BASE64_PAD_REQUIRED, err))) {
        if (st == PM_ERR_ENCODING)
            st = pm_error_set(err, PM_ERR_FORMAT, name, (uint64_t)(ec.b64 - buf) + err->offset,
                              "envelope: Phase1Out is not valid base64");
        else if (err)
            snprintf(err->file, sizeof err->file, "%s", name);
    }
    if (st) return st;
    uint64_t sector_size = ec.size;
    if (sector_num) *sector_num = ec.num;
    char inner[600];
    snprintf(inner, sizeof inner, "%.500s (Phase1Out)", name);
    st = fil_c1_from_json(c1, (const char *)dec, dn, inner, err);
    free(dec);
    if (!st && c1->sector_size != sector_size) {
        uint64_t have = c1->sector_size;
        fil_c1_free(c1);
        return pm_error_set(err, PM_ERR_MISMATCH, name, PM_NO_OFFSET,
                            "envelope: SectorSize %" PRIu64 " but the C1 is for %" PRIu64 " bytes",
                            sector_size, have);
    }
    return st;
}

pm_status fil_c1_read_file(fil_c1_t *c1, uint64_t *sector_num, const char *path, pm_error *err) {
    char *buf = NULL;
    size_t len = 0;
    memset(c1, 0, sizeof *c1);
    /* regular files only: a directory, FIFO or device is refused at once (no hang) */
    pm_status st = pm_file_read_all(&buf, &len, path, 0, 0, err);
    if (st) return st;
    st = fil_c1_read_memory(c1, sector_num, buf, len, path, err);
    free(buf);
    return st;
}
