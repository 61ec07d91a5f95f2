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

#ifdef __cplusplus
}
#endif
#endif
