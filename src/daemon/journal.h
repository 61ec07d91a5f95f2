/*
 * journal.h — the daemon's job journal: one SQLite database (WAL mode, synchronous = FULL) in the
 * state directory, a row per accepted job from its acceptance until its retention ends.
 *
 * Row: id (32 hex digits, random 128 bits: never reused), seq (acceptance order), spec (the job as
 * JSON: kind, key, params_dir, priority, label, inputs [{name, path}], inline inputs already
 * spooled to files), state ("accepted" until it ends, then "done" / "failed" / "cancelled"),
 * cancel (a DELETE arrived), submitted_ms / finished_ms (Unix ms), result (the job's JSON answer).
 * A row is committed (fsync'ed) before the submit is answered, and the end before any client sees
 * it, so a kill -9 at any moment loses no acknowledged job and finishes none twice.
 * Thread-safe (one connection behind a mutex). Source: https://sqlite.org/wal.html.
 */
#ifndef PROOFMILL_DAEMON_JOURNAL_H
#define PROOFMILL_DAEMON_JOURNAL_H

#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

typedef struct daemon_journal daemon_journal;

/* Open (create) DIR/jobs.sqlite; DIR must exist. The file is checked first (PRAGMA quick_check).
 * Errors: PM_ERR_IO naming the file and SQLite's message (also "another daemon uses this state
 * directory" when DIR/lock is held); PM_ERR_FORMAT naming the file when it is damaged (the message
 * names the recovery: `proofmill daemon --recover-journal`; nothing is changed). */
pm_status daemon_journal_open(daemon_journal **j, const char *dir, pm_error *err);
void daemon_journal_close(daemon_journal *j);
/* Insert an accepted job (committed on return). PM_ERR_MISMATCH: the id exists already. */
pm_status daemon_journal_add(daemon_journal *j, const char *id, const char *spec_json, int64_t now_ms, pm_error *err);
/* Forget a row (a submit the engine refused after all). */
void daemon_journal_remove(daemon_journal *j, const char *id);
/* Record that the job was asked to cancel (a restart then ends it as cancelled; committed on
 * return; no-op for a row that ended or does not exist). Errors: PM_ERR_IO naming the file and
 * SQLite's message (e.g. "database or disk is full"). */
pm_status daemon_journal_mark_cancel(daemon_journal *j, const char *id, pm_error *err);
/* Record the job's end: state name and its JSON answer (committed on return). */
pm_status daemon_journal_finish(daemon_journal *j, const char *id, const char *state, const char *result_json,
                                int64_t now_ms, pm_error *err);
/* The stored JSON answer of a finished job (malloc'd), or NULL (unknown, unfinished, or expired);
 * spec (may be NULL): the row's spec JSON (malloc'd, or NULL) beside it. */
char *daemon_journal_result(daemon_journal *j, const char *id, char **spec);
/* 1 when the row exists and is unfinished. */
int daemon_journal_pending(daemon_journal *j, const char *id);
/* Call fn for every unfinished row in acceptance order (restart). */
void daemon_journal_each_unfinished(daemon_journal *j, void (*fn)(void *arg, const char *id, const char *spec, int cancel),
                                    void *arg);
/* Fault injection for tests (debug.journal_full_at, debug.journal_full_count): from now on the Nth
 * write (insert, update, delete; counted from 1 after this call) and the count - 1 after it (count
 * 0: every later one) fail as SQLite's SQLITE_FULL ("database or disk is full") without touching
 * the file. n = 0: no injected fault. */
void daemon_journal_fail_writes_from(daemon_journal *j, uint64_t n, uint64_t count);
/* Recover a damaged DIR/jobs.sqlite (no daemon may hold DIR/lock): copy it (and its -wal) aside as
 * jobs.sqlite.damaged-<UTC time>, salvage every readable row into a new journal (rows by rowid,
 * skipping damaged pages), put it in place, and report on `report` (may be NULL) the copy's name,
 * the jobs kept (*kept) and lost (*lost: ids the id index names whose row is unreadable, each
 * listed). Errors: PM_ERR_IO (DIR/lock held, no journal, a copy or write failed: the damaged file
 * is then still in place, untouched). */
pm_status daemon_journal_recover(const char *dir, FILE *report, unsigned *kept, unsigned *lost, pm_error *err);
/* Delete finished rows that ended before before_ms. Returns the number deleted. */
int daemon_journal_purge(daemon_journal *j, int64_t before_ms);

#endif
