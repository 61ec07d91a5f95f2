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
/* The same over the window [from_us, to_us) of the trace's clock (ts units; e.g. a bench's own run
 * against a daemon whose trace covers its whole life): events outside are left out, events across
 * an edge are clipped, the axis starts at from_us. to_us <= from_us: to the last event. */
pm_status pm_timeline_svg_window(FILE *out, const char *trace_json, const char *title, double from_us, double to_us,
                                 pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
