/*
 * sha256_fr.c — SHA-256 (OpenSSL libcrypto) with Filecoin's trimming and domain conventions.
 * The low-level SHA256_* interface is used (deprecated in OpenSSL 3 but present and much cheaper
 * per call than EVP for the 64-byte node hashes that dominate tree building).
 */
#define OPENSSL_API_COMPAT 0x10100000L
#include "filecoin/sha256_fr.h"

#include <openssl/sha.h>
#include <string.h>

void fil_sha256(uint8_t out[32], const void *data, size_t len) {
    SHA256_CTX c;
    SHA256_Init(&c);
    SHA256_Update(&c, data, len);
    SHA256_Final(out, &c);
}

void fil_sha256_parts(uint8_t out[32], const fil_bytes_t *parts, size_t n) {
    SHA256_CTX c;
    SHA256_Init(&c);
    for (size_t i = 0; i < n; i++)
        if (parts[i].len) SHA256_Update(&c, parts[i].data, parts[i].len);
    SHA256_Final(out, &c);
}

void fil_sha256_trimmed(uint8_t out[32], const void *data, size_t len) {
    fil_sha256(out, data, len);
    fil_trim_fr32(out);
}

void fil_sha256_node(uint8_t out[32], const uint8_t left[32], const uint8_t right[32]) {
    uint8_t m[64];
    memcpy(m, left, 32);
    memcpy(m + 32, right, 32);
    fil_sha256(out, m, 64);
    fil_trim_fr32(out);
}

void fil_derive_porep_domain_seed(uint8_t out[32], const char *tag, const uint8_t porep_id[32]) {
    fil_bytes_t p[2] = {{tag, strlen(tag)}, {porep_id, 32}};
    fil_sha256_parts(out, p, 2);
}

int fil_domain_to_fr(fr_t *r, const uint8_t in[32]) { return fr_from_le_bytes(r, in); }

void fil_domain_to_fr_trimmed(fr_t *r, const uint8_t in[32]) {
    uint8_t b[32];
    memcpy(b, in, 32);
    fil_trim_fr32(b);
    (void)fr_from_le_bytes(r, b); /* < 2^254 < r: cannot fail */
}

void fil_fr_to_domain(uint8_t out[32], const fr_t *a) { fr_to_le_bytes(out, a); }

void fil_hex(char *hex, const uint8_t *bytes, size_t n) {
    static const char d[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        hex[2 * i] = d[bytes[i] >> 4];
        hex[2 * i + 1] = d[bytes[i] & 15];
    }
    hex[2 * n] = 0;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int fil_unhex(uint8_t *bytes, size_t n, const char *hex) {
    if (strlen(hex) != 2 * n) return -1;
    for (size_t i = 0; i < n; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return -1;
        bytes[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}
