/*
 * timeline.h — SVG timeline of an engine trace: one row per worker, busy intervals per stage.
 */
#ifndef PROOFMILL_DAEMON_TIMELINE_H
#define PROOFMILL_DAEMON_TIMELINE_H

#include <stdio.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write an SVG drawing of trace_json (the engine's Chrome trace: {"traceEvents":[...]}, ts/dur in
 * microseconds) to out. title may be NULL. Errors: PM_ERR_FORMAT (not a trace), PM_ERR_NOMEM. */
pm_status pm_timeline_svg(FILE *out, const char *trace_json, const char *title, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
