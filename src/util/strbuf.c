/*
 * strbuf.c — the string builder (strbuf.h).
 */
#include "util/strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int pm_sb_grow(pm_strbuf *b, size_t extra) {
    if (b->oom) return -1;
    size_t need = b->n + extra + 1;
    if (need <= b->cap) return 0;
    size_t cap = b->cap ? b->cap : 1024;
    while (cap < need) cap *= 2;
    char *q = realloc(b->p, cap);
    if (!q) {
        b->oom = 1;
        return -1;
    }
    if (!b->p) q[0] = 0;
    b->p = q;
    b->cap = cap;
    return 0;
}

void pm_sb_printf(pm_strbuf *b, const char *fmt, ...) {
    if (b->oom) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
    va_end(ap);
    if (k < 0) {
        b->oom = 1;
        return;
    }
    if (b->p && b->n + (size_t)k < b->cap) {
        b->n += (size_t)k;
        return;
    }
    if (pm_sb_grow(b, (size_t)k)) return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)k;
}

void pm_sb_u64(pm_strbuf *b, unsigned long long v) {
    char t[24];
    int k = 0;
    do {
        t[23 - k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    pm_sb_putn(b, t + 24 - k, (size_t)k);
}

char *pm_sb_take(pm_strbuf *b) {
    char *p = b->p;
    if (b->oom) {
        free(p);
        p = NULL;
    } else if (!p) {
        p = calloc(1, 1);
    }
    b->p = NULL;
    b->n = b->cap = 0;
    b->oom = 0;
    return p;
}

void pm_sb_free(pm_strbuf *b) {
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
    b->oom = 0;
}
