#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

pm_status pm_error_set(pm_error *err, pm_status code, const char *file, uint64_t offset,
                       const char *fmt, ...) {
    if (!err) return code;
    err->code = code;
    err->offset = offset;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return code;
}

void pm_error_clear(pm_error *err) {
    if (!err) return;
    memset(err, 0, sizeof *err);
    err->offset = PM_NO_OFFSET;
}

const char *pm_status_name(pm_status code) {
    switch (code) {
    case PM_OK: return "ok";
    case PM_ERR_IO: return "io";
    case PM_ERR_FORMAT: return "format";
    case PM_ERR_ENCODING: return "encoding";
    case PM_ERR_NOT_ON_CURVE: return "not-on-curve";
    case PM_ERR_NOT_IN_SUBGROUP: return "not-in-subgroup";
    case PM_ERR_CURVE: return "wrong-curve";
    case PM_ERR_MISMATCH: return "mismatch";
    case PM_ERR_UNSATISFIED: return "unsatisfied";
    case PM_ERR_NOMEM: return "out-of-memory";
    case PM_ERR_ARG: return "bad-argument";
    case PM_ERR_GPU: return "gpu";
    case PM_ERR_CANCELLED: return "cancelled";
    case PM_ERR_INTERNAL: return "internal";
    case PM_ERR_BUSY: return "busy";
    case PM_ERR_FORBIDDEN: return "forbidden-path";
    case PM_ERR_KEY: return "key";
    }
    return "unknown";
}

const char *pm_error_format(const pm_error *err, char *buf, unsigned n) {
    if (!err || n == 0) return buf;
    if (err->offset != PM_NO_OFFSET)
        snprintf(buf, n, "%s: offset %llu: %s", err->file[0] ? err->file : "(input)",
                 (unsigned long long)err->offset, err->msg);
    else if (err->file[0])
        snprintf(buf, n, "%s: %s", err->file, err->msg);
    else /* no file involved (an argument, a size): the message says what was wrong */
        snprintf(buf, n, "%s", err->msg);
    return buf;
}
