/*
 * strbuf.h — the one growable string builder of proofmill: JSON and text writers (proofs, C1
 * files, traces, metrics) append to it and take the result as one malloc'd NUL-terminated string.
 *
 * Memory: the buffer doubles when full (amortised O(1) per byte). An allocation failure is sticky:
 * b->oom is set, every later append is a no-op, and pm_sb_take returns NULL, so a writer appends
 * freely and checks once at the end. The text is always NUL-terminated after a successful append.
 * Hot writers (the C1 JSON writer emits ~50 MB) use the inline pm_sb_putn / pm_sb_reserve; the
 * growth itself is out of line.
 */
#ifndef PROOFMILL_UTIL_STRBUF_H
#define PROOFMILL_UTIL_STRBUF_H

#include <stddef.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char *p;    /* text, NUL-terminated once anything was appended; NULL before */
    size_t n;   /* bytes of text (NUL not counted) */
    size_t cap; /* bytes allocated at p */
    int oom;    /* an allocation failed: the text is incomplete */
} pm_strbuf;

/* Grow b so that `extra` more bytes and the NUL fit. Returns 0, or -1 (and sets b->oom). */
int pm_sb_grow(pm_strbuf *b, size_t extra);

/* Make room for `extra` more bytes (+ NUL) and return where they go (b->p + b->n); the caller
 * writes at most extra bytes there and adds what it wrote to b->n. NULL after an allocation
 * failure. */
static inline char *pm_sb_reserve(pm_strbuf *b, size_t extra) {
    if (b->oom) return NULL;
    if (b->n + extra + 1 > b->cap && pm_sb_grow(b, extra)) return NULL;
    return b->p + b->n;
}

/* Append n bytes of s. */
static inline void pm_sb_putn(pm_strbuf *b, const char *s, size_t n) {
    char *o = pm_sb_reserve(b, n);
    if (!o) return;
    memcpy(o, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
/* Append the NUL-terminated s. */
static inline void pm_sb_put(pm_strbuf *b, const char *s) { pm_sb_putn(b, s, strlen(s)); }
/* Append a string literal (its length known at compile time). */
#define PM_SB_LIT(b, s) pm_sb_putn((b), (s), sizeof(s) - 1)

/* Append printf-formatted text. */
void pm_sb_printf(pm_strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append the decimal digits of v. */
void pm_sb_u64(pm_strbuf *b, unsigned long long v);

/* The text as a malloc'd NUL-terminated string (owned by the caller; "" when nothing was
 * appended), or NULL after an allocation failure; b is reset to empty either way. */
char *pm_sb_take(pm_strbuf *b);
/* Free the text and reset b. */
void pm_sb_free(pm_strbuf *b);

#ifdef __cplusplus
}
#endif
#endif
