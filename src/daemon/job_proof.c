/*
 * job_proof.c — proof bytes of a finished job of a bellperson-convention kind (job_proof.h).
 */
#include "daemon/job_proof.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/sha256_fr.h" /* fil_unhex */
#include "kinds/kind.h"

#define BP_PROOF_BYTES 192

pm_status pm_job_proof_bytes(uint8_t **out, size_t *len, const pm_job_info *info, pm_error *err) {
    *out = NULL;
    *len = 0;
    const pm_kind *kind = pm_kind_find(info->kind);
    if (!kind || kind->conv != GROTH16_BELLPERSON)
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET,
                            "job %llu is of kind '%s', whose proofs are JSON, not bytes (GET /v1/jobs/%llu)",
                            (unsigned long long)info->id, info->kind, (unsigned long long)info->id);
    if (info->state != PM_JOB_DONE || !info->proofs)
        return pm_error_set(err, PM_ERR_ARG, NULL, PM_NO_OFFSET, "job %llu is %s, not done",
                            (unsigned long long)info->id, pm_job_state_name(info->state));
    size_t n = (size_t)info->n_partitions * BP_PROOF_BYTES;
    uint8_t *b = malloc(n ? n : 1);
    if (!b) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "proof bytes");
    for (uint32_t k = 0; k < info->n_partitions; k++) {
        json_error_t je;
        json_t *j = info->proofs[k] ? json_loads(info->proofs[k], 0, &je) : NULL;
        json_t *part = json_object_get(j, "partition");
        const char *hex = json_string_value(json_object_get(j, "proof"));
        int ok = json_is_integer(part) && json_integer_value(part) == (json_int_t)k && hex &&
                 fil_unhex(b + (size_t)k * BP_PROOF_BYTES, BP_PROOF_BYTES, hex) == 0;
        json_decref(j);
        if (!ok) {
            free(b);
            return pm_error_set(err, PM_ERR_INTERNAL, NULL, PM_NO_OFFSET,
                                "job %llu partition %u: not a {\"partition\", \"proof\": 384 hex digits} proof",
                                (unsigned long long)info->id, k);
        }
    }
    *out = b;
    *len = n;
    return PM_OK;
}
