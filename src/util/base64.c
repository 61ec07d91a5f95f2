/*
 * base64.c — base64 through OpenSSL (base64.h).
 */
#include "util/base64.h"

#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

/* bytes per EVP call: a multiple of 3, far below INT_MAX */
#define PIECE ((size_t)3 << 20)

size_t pm_base64_encoded_len(size_t n) { return 4 * ((n + 2) / 3); }

size_t pm_base64_encode(char *out, const uint8_t *in, size_t n) {
    size_t o = 0;
    for (size_t i = 0; i < n; i += PIECE) {
        size_t m = n - i < PIECE ? n - i : PIECE;
        o += (size_t)EVP_EncodeBlock((unsigned char *)out + o, in + i, (int)m);
    }
    out[o] = 0;
    return o;
}

char *pm_base64_encode_alloc(const uint8_t *in, size_t n) {
    char *o = malloc(pm_base64_encoded_len(n) + 1);
    if (o) pm_base64_encode(o, in, n);
    return o;
}

static int is_b64(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
}

pm_status pm_base64_decode(uint8_t **out, size_t *len, const char *in, size_t n, pm_base64_padding pad,
                           pm_error *err) {
    *out = NULL;
    *len = 0;
    if (pad == PM_BASE64_PAD_REQUIRED && n % 4)
        return pm_error_set(err, PM_ERR_ENCODING, "", n, "base64 of %zu characters: not padded to a multiple of 4", n);
    size_t body = n;
    while (body && n - body < 2 && in[body - 1] == '=') body--;
    for (size_t i = 0; i < body; i++)
        if (!is_b64((unsigned char)in[i]))
            return pm_error_set(err, PM_ERR_ENCODING, "", i, "not base64: byte 0x%02x at position %zu",
                                (unsigned char)in[i], i);
    if (body % 4 == 1 || (n > body && (body + (n - body)) % 4))
        return pm_error_set(err, PM_ERR_ENCODING, "", n, "base64 of %zu characters: a bad length", n);
    size_t full = body / 4 * 4, tail = body - full;
    uint8_t *o = malloc(full / 4 * 3 + 3 + 1);
    if (!o) return pm_error_set(err, PM_ERR_NOMEM, "", PM_NO_OFFSET, "base64: out of memory");
    size_t k = 0;
    for (size_t i = 0; i < full; i += 4 * (PIECE / 3)) {
        size_t m = full - i < 4 * (PIECE / 3) ? full - i : 4 * (PIECE / 3);
        int d = EVP_DecodeBlock(o + k, (const unsigned char *)in + i, (int)m);
        if (d < 0) { /* not reached: every character was checked */
            free(o);
            return pm_error_set(err, PM_ERR_ENCODING, "", i, "not base64");
        }
        k += (size_t)d;
    }
    if (tail) { /* 2 or 3 characters: pad the last group for OpenSSL */
        unsigned char g[4] = {'=', '=', '=', '='};
        uint8_t t[3];
        memcpy(g, in + full, tail);
        if (EVP_DecodeBlock(t, g, 4) != 3) {
            free(o);
            return pm_error_set(err, PM_ERR_ENCODING, "", full, "not base64");
        }
        memcpy(o + k, t, tail - 1);
        k += tail - 1;
    }
    *out = o;
    *len = k;
    return PM_OK;
}
