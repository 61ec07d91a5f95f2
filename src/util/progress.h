/*
 * progress.h — what a long command is doing, for a person at a terminal (porep params-setup, prove,
 * seal, groth16 setup/prove run for seconds to hours).
 *
 * Library code marks its stages and counts its work; that costs a few relaxed atomic stores and
 * prints nothing. A command that wants progress calls pm_progress_start, whose thread writes the
 * current state to stderr every second while the command runs:
 *     proofmill porep prove: 12 s: partition 3/10: MSM H (G1)
 *     proofmill porep params-setup: 41 s: L query (G1) 52% (1,340,000 of 2,576,000)
 * On a terminal the line is redrawn in place ("\r", erase to the end of line) and erased at
 * pm_progress_stop, so the command's own output follows undisturbed. When stderr is not a terminal
 * nothing is printed, unless PROOFMILL_PROGRESS=1 (then one full line per interval: for tests and
 * logs); PROOFMILL_PROGRESS=0 turns it off on a terminal too; PROOFMILL_PROGRESS_MS sets the
 * interval (default 1000, at least 1: tests/cli/test_progress.sh uses 1 ms so that a command of a
 * few milliseconds still prints lines).
 * The state is process-wide: concurrent jobs (the daemon's engine) overwrite each other's stages,
 * which is harmless because only the CLI runs the printer.
 */
#ifndef PROOFMILL_UTIL_PROGRESS_H
#define PROOFMILL_UTIL_PROGRESS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A new stage: stage must outlive the command (a string literal); total = units of work it will
 * count with pm_progress_add (0: not counted). Resets the count. Thread-safe. */
void pm_progress_stage(const char *stage, uint64_t total);
/* n more units of the current stage done (thread-safe; from parallel loops). */
void pm_progress_add(uint64_t n);
/* The item the stages belong to, shown as "<unit> k+1/n: " before the stage (e.g. partition 3/10);
 * unit NULL clears it. unit must outlive the command. */
void pm_progress_item(const char *unit, uint32_t k, uint32_t n);
/* Start the printer for command (e.g. "porep prove"; copied) when stderr is a terminal or
 * PROOFMILL_PROGRESS=1; returns 1 when it runs. Clears the state. Call once per process. */
int pm_progress_start(const char *command);
/* Stop the printer (joins its thread; erases the line on a terminal). Safe when it does not run. */
void pm_progress_stop(void);

/* ---- one task's own progress (a key's load and first upload in the daemon's engine) ----
 * The process-wide state above is for one command at a terminal; a daemon loads several keys at
 * once and reports each one's stage in its status. A task (the engine's entry for a key) owns a
 * pm_task_progress; the thread that works for it binds it (pm_progress_bind), and from then on the
 * library's pm_progress_stage / pm_progress_add of that thread are recorded in the task as well.
 * Parallel loops (OpenMP workers do not inherit the binding) take pm_progress_bound() before the
 * loop and count with pm_progress_add_to. Objects that outlive the call (a key that uploads itself
 * to a GPU at its first proof) keep the bound pointer and report with pm_task_stage / pm_task_add.
 * Every field is read and written with __atomic builtins only (the struct is plain so that C++
 * units may include this header): readers (status) take a snapshot with pm_task_get, never a lock. */
typedef struct pm_task_progress {
    const char *stage; /* a string literal; NULL: idle */
    uint64_t done;     /* units of the stage done (bytes for loads and uploads) */
    uint64_t total;    /* units of the stage (0: not counted) */
    int device;        /* the GPU the stage concerns, -1: none */
} pm_task_progress;

/* Idle, device -1. */
void pm_task_init(pm_task_progress *t);
/* A new stage of t (NULL t: nothing): stage a string literal, total its units (0: not counted),
 * device the GPU it concerns (-1 none). Resets the count. */
void pm_task_stage(pm_task_progress *t, const char *stage, uint64_t total, int device);
/* n more units of t's stage (NULL t: nothing). When a counted stage reaches its total, t goes idle
 * (unless another stage began meanwhile). */
void pm_task_add(pm_task_progress *t, uint64_t n);
/* t idle (NULL t: nothing). */
void pm_task_idle(pm_task_progress *t);
/* A snapshot of t: returns its stage (NULL idle), fills *done, *total, *device (any may be NULL). */
const char *pm_task_get(pm_task_progress *t, uint64_t *done, uint64_t *total, int *device);
/* Bind t to the calling thread (NULL: unbind); returns the previous binding. */
pm_task_progress *pm_progress_bind(pm_task_progress *t);
/* The calling thread's task (NULL: none). */
pm_task_progress *pm_progress_bound(void);
/* pm_progress_add from any thread, also counted in t (a task taken with pm_progress_bound). */
void pm_progress_add_to(pm_task_progress *t, uint64_t n);

#ifdef __cplusplus
}
#endif
#endif
