/*
 * trace.c — the engine's trace ring: every stage's start and end per worker (engine.h
 * pm_engine_trace_json, Chrome trace JSON), kept in a ring of cfg.trace_max_events.
 */
#include <inttypes.h>
#include <stdio.h>

#include "engine/engine_internal.h"
#include "util/strbuf.h"

static const char *const stage_names[ST_N] = {"srs-load", "synthesize", "start", "kernel", "finalize",
                                              "verify"};


void engine_trace_add(pm_engine *e, unsigned tid, int stage, uint64_t jid, uint32_t part, int64_t t0,
                      int64_t t1) {
    if (!e->trace) return;
    pthread_mutex_lock(&e->trace_mu);
    size_t cap = e->cfg.trace_max_events;
    size_t pos = (e->trace_head + e->trace_n) % cap;
    if (e->trace_n < cap) e->trace_n++;
    else e->trace_head = (e->trace_head + 1) % cap;
    e->trace[pos] = (trace_ev){.t0 = t0, .t1 = t1, .job = jid, .part = part, .tid = (uint16_t)tid,
                               .stage = (uint8_t)stage};
    pthread_mutex_unlock(&e->trace_mu);
}

char *pm_engine_trace_json(pm_engine *e) {
    if (!e || !e->trace) return NULL;
    pm_strbuf b = {0};
    pm_sb_printf(&b, "{\"traceEvents\":[");
    int first = 1;
    for (unsigned w = 0; w < e->n_workers; w++) {
        pm_sb_printf(&b, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"args\":{\"name\":\"%s\"}}",
                  first ? "" : ",", e->workers[w].tid, e->workers[w].name);
        pm_sb_printf(&b, ",{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"args\":{\"sort_index\":%u}}",
                  e->workers[w].tid, e->workers[w].tid);
        first = 0;
    }
    pthread_mutex_lock(&e->trace_mu);
    size_t cap = e->cfg.trace_max_events;
    for (size_t i = 0; i < e->trace_n; i++) {
        const trace_ev *ev = &e->trace[(e->trace_head + i) % cap];
        pm_sb_printf(&b,
                  "%s{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":%" PRId64
                  ",\"dur\":%" PRId64 ",\"args\":{\"job\":%" PRIu64 ",\"partition\":%u}}",
                  first ? "" : ",", stage_names[ev->stage], stage_names[ev->stage], ev->tid,
                  ev->t0 - e->t_start, ev->t1 - ev->t0, ev->job, ev->part);
        first = 0;
    }
    pthread_mutex_unlock(&e->trace_mu);
    pm_sb_printf(&b, "],\"displayTimeUnit\":\"ms\"}");
    return pm_sb_take(&b);
}
