/*
 * base64.h — standard base64 (RFC 4648 §4: alphabet A-Z a-z 0-9 + /, '=' padding) through OpenSSL's
 * EVP_EncodeBlock / EVP_DecodeBlock: inline witnesses and C1 files in HTTP bodies, the lotus-bench
 * C1 envelope ("Phase1Out").
 *
 * Decoding is strict: every character must be of the alphabet, '=' may only close the text (one or
 * two of them), no white space or line breaks anywhere (EVP_DecodeBlock alone would trim white
 * space and read a '=' in the middle as zero bits). OpenSSL takes int lengths, so long inputs are
 * coded in pieces of 3 MiB of bytes (4 MiB of text); any length that fits in memory works.
 */
#ifndef PROOFMILL_UTIL_BASE64_H
#define PROOFMILL_UTIL_BASE64_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Characters of the padded encoding of n bytes: 4 * ceil(n / 3) (the NUL not counted). */
size_t pm_base64_encoded_len(size_t n);
/* Encode in[0..n) into out (pm_base64_encoded_len(n) + 1 bytes: the text and a NUL); returns the
 * text's length. */
size_t pm_base64_encode(char *out, const uint8_t *in, size_t n);
/* The same into a malloc'd NUL-terminated string (caller frees); NULL when out of memory. */
char *pm_base64_encode_alloc(const uint8_t *in, size_t n);

/* Padding rules of pm_base64_decode. */
typedef enum {
    PM_BASE64_PAD_OPTIONAL = 0, /* "aGk" and "aGk=" both decode (HTTP API bodies) */
    PM_BASE64_PAD_REQUIRED = 1  /* length a multiple of 4 (the lotus-bench envelope) */
} pm_base64_padding;

/* Decode in[0..n) into a malloc'd buffer *out of *len bytes (the caller frees; *out is non-NULL
 * also for an empty input). Errors: PM_ERR_ENCODING with err->offset = the index in `in` of the
 * first character that is not base64 (or n for a bad length: 4k + 1 characters, or unpadded text
 * when padding is required) and err->file = "" (callers name their input); PM_ERR_NOMEM.
 * On error *out = NULL, *len = 0. */
pm_status pm_base64_decode(uint8_t **out, size_t *len, const char *in, size_t n, pm_base64_padding pad,
                           pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
