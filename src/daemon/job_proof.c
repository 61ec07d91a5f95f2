/*
 * job_proof.c — proof bytes of a finished bellperson-proof job (job_proof.h).
 */
#include "daemon/job_proof.h"

#include <jansson.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#define BP_PROOF_BYTES 192

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

pm_status pm_job_proof_bytes(uint8_t **out, size_t *len, const pm_job_info *info, pm_error *err) {
    *out = NULL;
    *len = 0;
    if (info->state != PM_JOB_DONE || !info->proofs)
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "job %llu is %s, not done",
                            (unsigned long long)info->id, pm_job_state_name(info->state));
    size_t n = (size_t)info->n_partitions * BP_PROOF_BYTES;
    uint8_t *b = malloc(n ? n : 1);
    if (!b) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "proof bytes");
    for (uint32_t k = 0; k < info->n_partitions; k++) {
        json_error_t je;
        json_t *j = info->proofs[k] ? json_loads(info->proofs[k], 0, &je) : NULL;
        json_t *part = json_object_get(j, "partition"), *hex = json_object_get(j, "proof");
        const char *h = json_string_value(hex);
        int ok = json_is_object(j) && json_is_integer(part) && json_integer_value(part) == (json_int_t)k && h &&
                 json_string_length(hex) == 2 * BP_PROOF_BYTES;
        for (size_t i = 0; ok && i < BP_PROOF_BYTES; i++) {
            int hi = hexval((unsigned char)h[2 * i]), lo = hexval((unsigned char)h[2 * i + 1]);
            if (hi < 0 || lo < 0) ok = 0;
            else b[(size_t)k * BP_PROOF_BYTES + i] = (uint8_t)(hi << 4 | lo);
        }
        json_decref(j);
        if (!ok) {
            free(b);
            return pm_error_set(err, PM_ERR_FORMAT, NULL, PM_NO_OFFSET,
                                "job %llu partition %u: not a 192-byte bellperson proof (a snarkjs job's proofs are "
                                "JSON: GET /v1/jobs/%llu)",
                                (unsigned long long)info->id, k, (unsigned long long)info->id);
        }
    }
    *out = b;
    *len = n;
    return PM_OK;
}

char *pm_base64_encode(const uint8_t *in, size_t n) {
    if (n > (size_t)INT32_MAX / 4 * 3) return NULL;
    char *s = malloc(4 * ((n + 2) / 3) + 1);
    if (!s) return NULL;
    EVP_EncodeBlock((unsigned char *)s, in, (int)n); /* NUL-terminates */
    return s;
}
