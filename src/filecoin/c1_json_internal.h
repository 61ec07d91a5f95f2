/*
 * c1_json_internal.h — what the C1 JSON files of src/filecoin share (c1_write.c, c1_shape.c,
 * c1_read_fast.c, c1_envelope.c) with the reference reader of the tests
 * (tests/filecoin/c1_read_jansson.c); not a public API. Format: c1_json.h.
 */
#ifndef PROOFMILL_FILECOIN_C1_JSON_INTERNAL_H
#define PROOFMILL_FILECOIN_C1_JSON_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/c1_json.h"

#define SYNTH_KEY "_proofmill_synthetic"
#define SYNTH_TEXT "benchmark input made by proofmill porep synth-c1: consistent openings of an unsealed sector, not a real C1"

/* Structural maxima enforced while reading (hostile arrays are rejected before anything sized by
 * them is allocated): the largest real shapes are 126 partitions (NI 32 GiB), 18 challenges,
 * 11 layers, 31 tree-D levels, 37 parents. */
#define MAX_PARTITIONS 1024u
#define MAX_CHALLENGES 4096u
#define MAX_ROWS 64u
#define MAX_PARENTS 64u
#define MAX_COLUMNS 64u

/* A JSON path kept as a stack of (key | index) frames, formatted only when an error is raised
 * (both readers name the path of what is wrong). */
typedef struct {
    const char *name;
    pm_error *err;
    fil_c1_t *c1;
    int depth;
    struct {
        const char *key;
        long idx;
    } fr[24];
} jr_t;

static inline void jr_push_key(jr_t *r, const char *k) {
    if (r->depth < 24) {
        r->fr[r->depth].key = k;
        r->fr[r->depth].idx = -1;
    }
    r->depth++;
}
static inline void jr_push_idx(jr_t *r, long i) {
    if (r->depth < 24) {
        r->fr[r->depth].key = NULL;
        r->fr[r->depth].idx = i;
    }
    r->depth++;
}
static inline void jr_pop(jr_t *r) { r->depth--; }
/* "a.b[3].c" of the frames in r into o[cap] ("(top level)" at depth 0). */
void fil_c1_path_string(char *o, size_t cap, const jr_t *r);

/* Shape check shared by both readers (c1_shape.c): the size-dependent checks after a reader filled
 * c1 (registered_proof, counts, proofs); tag = the vanilla_proofs variant read. */
pm_status fil_c1_check_shape(const fil_c1_t *c1, const char *name, const char *tag, pm_error *err);
/* registered_proof from its serde name: sets c1->registered_proof and sector_size.
 * PM_ERR_FORMAT "registered_proof: unknown value" otherwise. */
pm_status fil_c1_set_registered(fil_c1_t *c1, const char *s, const char *name, pm_error *err);

/* The single-pass tokenizer (c1_read_fast.c), also used by the envelope reader (c1_envelope.c). */
typedef struct {
    const char *s, *end, *base;
    const char *name;
    pm_error *err;
    fil_c1_t *c1;
    jr_t path; /* reuses the frame stack for messages */
} fil_c1_tok;

static inline void fil_c1_tok_ws(fil_c1_tok *p) {
    while (p->s < p->end && (*p->s == ' ' || *p->s == '\n' || *p->s == '\r' || *p->s == '\t')) p->s++;
}
/* the next non-space byte, or -1 at the end */
static inline int fil_c1_tok_peek(fil_c1_tok *p) {
    fil_c1_tok_ws(p);
    return p->s < p->end ? (unsigned char)*p->s : -1;
}
/* PM_ERR_FORMAT at the cursor's offset, naming the JSON path */
pm_status fil_c1_tok_fail(fil_c1_tok *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* what the next value is, in words ("an object", "end of input") */
const char *fil_c1_tok_what(fil_c1_tok *p);
/* an unsigned integer <= max */
pm_status fil_c1_tok_uint(fil_c1_tok *p, uint64_t *v, uint64_t max);
/* Iterate an object: for each key, field(p, key, ctx, &known) consumes the value and sets *known
 * when it knew the key; unknown keys are skipped. */
typedef pm_status (*fil_c1_field_fn)(fil_c1_tok *p, const char *key, void *ctx, int *known);
pm_status fil_c1_tok_object(fil_c1_tok *p, fil_c1_field_fn field, void *ctx);
/* missing field check: every bit of mask must be in seen (names[bit] named otherwise) */
pm_status fil_c1_tok_need(fil_c1_tok *p, unsigned seen, unsigned mask, const char *const *names);
/* "seen" bit sets detect missing and duplicate fields (c->seen; p the tokenizer). */
#define SEEN(bit)                                                                       \
    do {                                                                                \
        if (c->seen & (1u << (bit))) return fil_c1_tok_fail(p, "duplicate field");      \
        c->seen |= 1u << (bit);                                                         \
    } while (0)

#endif
