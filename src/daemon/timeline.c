/*
 * timeline.c — draw an engine trace (Chrome trace JSON, engine.h pm_engine_trace_json) as an SVG:
 * one row per worker, one bar per stage interval, coloured by stage; the kernel region of a GPU
 * stage is drawn as a darker band inside its bar, so lock hand-offs between the workers of one
 * device are visible. Written by hand (no library): a few hundred rects and a time axis.
 */
#include "daemon/timeline.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int tid;
    char name[64];
} row_t;

static const char *stage_colour(const char *stage) {
    if (!strcmp(stage, "synthesize")) return "#4e79a7";
    if (!strcmp(stage, "start")) return "#f28e2b";
    if (!strcmp(stage, "kernel")) return "#b5580c";
    if (!strcmp(stage, "finalize")) return "#59a14f";
    if (!strcmp(stage, "verify")) return "#af7aa1";
    if (!strcmp(stage, "srs-load")) return "#e15759";
    return "#999999";
}

static int row_index(row_t *rows, int n, int tid) {
    for (int i = 0; i < n; i++)
        if (rows[i].tid == tid) return i;
    return -1;
}

pm_status pm_timeline_svg(FILE *out, const char *trace_json, const char *title, pm_error *err) {
    return pm_timeline_svg_window(out, trace_json, title, 0, 0, err);
}

pm_status pm_timeline_svg_window(FILE *out, const char *trace_json, const char *title, double from_us, double to_us,
                                 pm_error *err) {
    json_error_t je;
    json_t *root = json_loads(trace_json, 0, &je);
    json_t *evs = root ? json_object_get(root, "traceEvents") : NULL;
    if (!json_is_array(evs)) {
        json_decref(root);
        return pm_error_set(err, PM_ERR_FORMAT, "trace", PM_NO_OFFSET, "not a Chrome trace: %s", root ? "no traceEvents" : je.text);
    }
    size_t n = json_array_size(evs);
    row_t *rows = calloc(n + 1, sizeof *rows);
    if (!rows) {
        json_decref(root);
        return pm_error_set(err, PM_ERR_NOMEM, "trace", PM_NO_OFFSET, "out of memory");
    }
    int nrows = 0;
    double t_end = 0;
    size_t i;
    json_t *ev;
    /* rows: thread_name metadata first (engine order), then any tid seen in events */
    json_array_foreach(evs, i, ev) {
        const char *ph = json_string_value(json_object_get(ev, "ph"));
        const char *name = json_string_value(json_object_get(ev, "name"));
        int tid = (int)json_integer_value(json_object_get(ev, "tid"));
        if (ph && !strcmp(ph, "M") && name && !strcmp(name, "thread_name") && row_index(rows, nrows, tid) < 0) {
            rows[nrows].tid = tid;
            snprintf(rows[nrows].name, sizeof rows[nrows].name, "%s",
                     json_string_value(json_object_get(json_object_get(ev, "args"), "name")) ?: "?");
            nrows++;
        }
    }
    json_array_foreach(evs, i, ev) {
        const char *ph = json_string_value(json_object_get(ev, "ph"));
        if (!ph || strcmp(ph, "X")) continue;
        int tid = (int)json_integer_value(json_object_get(ev, "tid"));
        if (row_index(rows, nrows, tid) < 0) {
            rows[nrows].tid = tid;
            snprintf(rows[nrows].name, sizeof rows[nrows].name, "worker %d", tid);
            nrows++;
        }
        double e = json_number_value(json_object_get(ev, "ts")) + json_number_value(json_object_get(ev, "dur"));
        if (e > t_end) t_end = e;
    }
    /* the window: [from_us, to_us) of the trace's clock, or all of it */
    double t_begin = from_us > 0 ? from_us : 0;
    if (to_us > t_begin) t_end = to_us;
    t_end -= t_begin;
    if (t_end <= 0) t_end = 1;
    const double left = 110, width = 1100, row_h = 22, top = 40;
    double H = top + nrows * row_h + 50;
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-family=\"monospace\" "
            "font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"10\" y=\"18\" font-size=\"13\">%s — %.2f s, %d workers</text>\n",
            left + width + 20, H, title ? title : "proofmill engine timeline", t_end / 1e6, nrows);
    for (int r = 0; r < nrows; r++) {
        double y = top + r * row_h;
        fprintf(out, "<text x=\"5\" y=\"%.1f\">%s</text>\n<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
                     "stroke=\"#eee\"/>\n",
                y + 15, rows[r].name, left, y + row_h, left + width, y + row_h);
    }
    /* two passes so kernel bands sit on top of their start bars */
    for (int pass = 0; pass < 2; pass++) {
        json_array_foreach(evs, i, ev) {
            const char *ph = json_string_value(json_object_get(ev, "ph"));
            const char *name = json_string_value(json_object_get(ev, "name"));
            if (!ph || strcmp(ph, "X") || !name || (pass == 0) == !strcmp(name, "kernel")) continue;
            int r = row_index(rows, nrows, (int)json_integer_value(json_object_get(ev, "tid")));
            double ts = json_number_value(json_object_get(ev, "ts")) - t_begin, dur = json_number_value(json_object_get(ev, "dur"));
            if (ts + dur < 0 || ts > t_end) continue; /* outside the window */
            if (ts < 0) dur += ts, ts = 0;
            if (ts + dur > t_end) dur = t_end - ts;
            double x = left + width * ts / t_end, w = width * dur / t_end;
            if (w < 0.5) w = 0.5;
            double y = top + r * row_h + (pass ? 7 : 3), h = pass ? row_h - 14 : row_h - 6;
            json_t *args = json_object_get(ev, "args");
            fprintf(out,
                    "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"><title>%s job %lld part %lld: "
                    "%.1f ms</title></rect>\n",
                    x, y, w, h, stage_colour(name), name, (long long)json_integer_value(json_object_get(args, "job")),
                    (long long)json_integer_value(json_object_get(args, "partition")), dur / 1e3);
        }
    }
    /* time axis: about 10 ticks at a round step */
    double span = t_end / 1e6, step = 1e-4;
    for (int k = 0; span / step > 10 && k < 60; k++) step *= (k % 3 == 1) ? 2.5 : 2; /* 1, 2, 5, 10, ... */
    double ay = top + nrows * row_h + 15;
    fprintf(out, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"black\"/>\n", left, ay, left + width, ay);
    for (double t = 0; t <= span + 1e-9; t += step) {
        double x = left + width * t / span;
        fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/><text x=\"%.1f\" "
                     "y=\"%.1f\" text-anchor=\"middle\">%.3g s</text>\n",
                x, ay, x, ay + 4, x, ay + 16, t);
    }
    /* legend */
    const char *stages[] = {"srs-load", "synthesize", "start", "kernel", "finalize", "verify"};
    for (int s = 0; s < 6; s++)
        fprintf(out, "<rect x=\"%.0f\" y=\"24\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%.0f\" y=\"33\">%s</text>\n",
                left + 300 + s * 110.0, stage_colour(stages[s]), left + 314 + s * 110.0, stages[s]);
    fprintf(out, "</svg>\n");
    free(rows);
    json_decref(root);
    return PM_OK;
}
