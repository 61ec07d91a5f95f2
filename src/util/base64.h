/*
 * base64.h — standard base64 (RFC 4648 §4, alphabet A-Z a-z 0-9 + /, '=' padding) through OpenSSL's
 * EVP block coder: the encoding Go's encoding/json gives []byte and proto3's JSON mapping gives
 * bytes fields.
 */
#ifndef PROOFMILL_UTIL_BASE64_H
#define PROOFMILL_UTIL_BASE64_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Decode in[n] (padded, no whitespace; n % 4 == 0) into *out (malloc'd, *len bytes; an empty input
 * gives a 1-byte allocation and *len = 0). Returns 0, -1 on bad length or characters, -2 when out
 * of memory (nothing allocated on error). */
int pm_base64_std_decode(uint8_t **out, size_t *len, const char *in, size_t n);
/* Encode data[n] into *out (malloc'd, NUL-terminated, 4·ceil(n/3) characters). Returns 0, or -2
 * when out of memory. */
int pm_base64_std_encode(char **out, const uint8_t *data, size_t n);

#ifdef __cplusplus
}
#endif
#endif
