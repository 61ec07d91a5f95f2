/*
 * base64.c — standard base64 via OpenSSL EVP_DecodeBlock / EVP_EncodeBlock (base64.h).
 * EVP_*Block take int lengths: inputs are processed in pieces of 3·2^20 bytes (encode) and
 * 4·2^20 characters (decode), multiples of the 3-byte / 4-character group.
 */
#include "util/base64.h"

#include <openssl/evp.h>
#include <stdlib.h>

static int valid_char(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
}

int pm_base64_std_decode(uint8_t **out, size_t *len, const char *in, size_t n) {
    *out = NULL;
    *len = 0;
    if (n % 4) return -1;
    size_t pad = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)in[i];
        if (c == '=') {
            if (i + 2 < n) return -1; /* '=' only in the last two places */
            pad++;
        } else if (!valid_char(c) || pad) {
            return -1;
        }
    }
    uint8_t *o = malloc(n / 4 * 3 + 1);
    if (!o) return -2;
    size_t k = 0;
    const size_t step = (size_t)4 << 20;
    for (size_t i = 0; i < n; i += step) {
        size_t m = n - i < step ? n - i : step;
        int d = EVP_DecodeBlock(o + k, (const unsigned char *)in + i, (int)m);
        if (d < 0) {
            free(o);
            return -1;
        }
        k += (size_t)d;
    }
    *out = o;
    *len = k - pad;
    return 0;
}

int pm_base64_std_encode(char **out, const uint8_t *data, size_t n) {
    char *o = malloc((n + 2) / 3 * 4 + 1);
    if (!o) return -2;
    size_t k = 0;
    const size_t step = (size_t)3 << 20;
    for (size_t i = 0; i < n; i += step) {
        size_t m = n - i < step ? n - i : step;
        k += (size_t)EVP_EncodeBlock((unsigned char *)o + k, data + i, (int)m);
    }
    o[k] = 0;
    *out = o;
    return 0;
}
