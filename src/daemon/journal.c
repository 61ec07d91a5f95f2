/*
 * journal.c — the job journal on SQLite (journal.h).
 */
#include "daemon/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

struct daemon_journal {
    sqlite3 *db;
    pthread_mutex_t mu;
    int lock_fd;
    char path[4200];
    uint64_t writes;        /* write statements run since open (the fault injection counts them) */
    uint64_t fail_from;     /* debug.journal_full_at: the Nth write and every later one fail (0: none) */
    int injected;           /* the last write failed by injection (its message is ours, not SQLite's) */
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS jobs("
    " id TEXT PRIMARY KEY, seq INTEGER NOT NULL, spec TEXT NOT NULL,"
    " state TEXT NOT NULL DEFAULT 'accepted', cancel INTEGER NOT NULL DEFAULT 0,"
    " submitted_ms INTEGER NOT NULL, finished_ms INTEGER, result TEXT);"
    "CREATE INDEX IF NOT EXISTS jobs_finished ON jobs(finished_ms);";

static pm_status db_error(daemon_journal *j, pm_error *err, const char *what) {
    return pm_error_set(err, PM_ERR_IO, j->path, PM_NO_OFFSET, "%s: %s", what,
                        j->injected ? "database or disk is full (injected: debug.journal_full_at)" : sqlite3_errmsg(j->db));
}

/* sqlite3_step of a write statement, or SQLITE_FULL without running it when the fault injection
 * (debug.journal_full_at) says this write fails. Called with j->mu held. */
static int step_write(daemon_journal *j, sqlite3_stmt *s) {
    j->writes++;
    j->injected = j->fail_from && j->writes >= j->fail_from;
    if (j->injected) return SQLITE_FULL;
    return sqlite3_step(s);
}

void daemon_journal_fail_writes_from(daemon_journal *j, uint64_t n) {
    pthread_mutex_lock(&j->mu);
    j->fail_from = n;
    j->writes = 0;
    pthread_mutex_unlock(&j->mu);
}

pm_status daemon_journal_open(daemon_journal **out, const char *dir, pm_error *err) {
    *out = NULL;
    daemon_journal *j = calloc(1, sizeof *j);
    if (!j) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    pthread_mutex_init(&j->mu, NULL);
    snprintf(j->path, sizeof j->path, "%s/lock", dir);
    /* one daemon per state directory: a second would re-queue the first one's jobs */
    j->lock_fd = open(j->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (j->lock_fd < 0 || flock(j->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        pm_status st = pm_error_set(err, PM_ERR_IO, j->path, PM_NO_OFFSET, "%s",
                                    e == EWOULDBLOCK ? "another daemon uses this state directory (state.dir)" : strerror(e));
        if (j->lock_fd >= 0) close(j->lock_fd);
        free(j);
        return st;
    }
    snprintf(j->path, sizeof j->path, "%s/jobs.sqlite", dir);
    /* owner-only whatever the umask (SQLite gives the -wal and -shm files the database's mode); a
     * symbolic link in its place is not followed (here nor by SQLite: SQLITE_OPEN_NOFOLLOW) */
    int cfd = open(j->path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (cfd >= 0) {
        fchmod(cfd, 0600);
        close(cfd);
    }
    pm_status st = PM_OK;
    if (sqlite3_open_v2(j->path, &j->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
        st = db_error(j, err, "cannot open the journal");
    } else {
        sqlite3_busy_timeout(j->db, 5000);
        char *msg = NULL;
        /* WAL: a commit is one append + fsync; FULL: the fsync happens before the commit returns */
        if (sqlite3_exec(j->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;", NULL, NULL, &msg) != SQLITE_OK ||
            sqlite3_exec(j->db, schema, NULL, NULL, &msg) != SQLITE_OK) {
            st = pm_error_set(err, PM_ERR_IO, j->path, PM_NO_OFFSET, "cannot set up the journal: %s", msg ? msg : "?");
        }
        sqlite3_free(msg);
    }
    if (st) {
        daemon_journal_close(j);
        return st;
    }
    *out = j;
    return PM_OK;
}

void daemon_journal_close(daemon_journal *j) {
    if (!j) return;
    if (j->db) sqlite3_close(j->db);
    if (j->lock_fd >= 0) close(j->lock_fd);
    pthread_mutex_destroy(&j->mu);
    free(j);
}

/* prepare sql, bind texts/ints given as a format: 't' text, 'i' int64, 'n' null */
static sqlite3_stmt *prep(daemon_journal *j, const char *sql) {
    sqlite3_stmt *s = NULL;
    if (sqlite3_prepare_v2(j->db, sql, -1, &s, NULL) != SQLITE_OK) return NULL;
    return s;
}

pm_status daemon_journal_add(daemon_journal *j, const char *id, const char *spec, int64_t now_ms, pm_error *err) {
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *s = prep(j, "INSERT INTO jobs(id, seq, spec, submitted_ms) "
                              "VALUES(?1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM jobs), ?2, ?3)");
    pm_status st = PM_OK;
    if (!s) {
        st = db_error(j, err, "cannot record the job");
    } else {
        sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 2, spec, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 3, now_ms);
        int rc = step_write(j, s);
        if (rc == SQLITE_CONSTRAINT)
            st = pm_error_set(err, PM_ERR_MISMATCH, j->path, PM_NO_OFFSET, "job id %s exists", id);
        else if (rc != SQLITE_DONE)
            st = db_error(j, err, "cannot record the job");
        sqlite3_finalize(s);
    }
    pthread_mutex_unlock(&j->mu);
    return st;
}

static pm_status exec_id(daemon_journal *j, const char *sql, const char *id, const char *what, pm_error *err) {
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *s = prep(j, sql);
    pm_status st = PM_OK;
    if (!s) {
        st = db_error(j, err, what);
    } else {
        sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
        if (step_write(j, s) != SQLITE_DONE) st = db_error(j, err, what);
        sqlite3_finalize(s);
    }
    pthread_mutex_unlock(&j->mu);
    return st;
}

void daemon_journal_remove(daemon_journal *j, const char *id) {
    exec_id(j, "DELETE FROM jobs WHERE id = ?1", id, "cannot forget the job", NULL);
}

pm_status daemon_journal_mark_cancel(daemon_journal *j, const char *id, pm_error *err) {
    return exec_id(j, "UPDATE jobs SET cancel = 1 WHERE id = ?1 AND state = 'accepted'", id,
                   "cannot record the cancel", err);
}

pm_status daemon_journal_finish(daemon_journal *j, const char *id, const char *state, const char *result, int64_t now_ms,
                                pm_error *err) {
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *s = prep(j, "UPDATE jobs SET state = ?2, result = ?3, finished_ms = ?4 WHERE id = ?1");
    pm_status st = PM_OK;
    if (!s) {
        st = db_error(j, err, "cannot record the job's end");
    } else {
        sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 2, state, -1, SQLITE_STATIC);
        sqlite3_bind_text(s, 3, result, -1, SQLITE_STATIC);
        sqlite3_bind_int64(s, 4, now_ms);
        if (step_write(j, s) != SQLITE_DONE) st = db_error(j, err, "cannot record the job's end");
        sqlite3_finalize(s);
    }
    pthread_mutex_unlock(&j->mu);
    return st;
}

char *daemon_journal_result(daemon_journal *j, const char *id, char **spec) {
    char *out = NULL;
    if (spec) *spec = NULL;
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *s = prep(j, "SELECT result, spec FROM jobs WHERE id = ?1 AND finished_ms IS NOT NULL");
    if (s) {
        sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
        if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0)) {
            out = strdup((const char *)sqlite3_column_text(s, 0));
            if (spec && out && sqlite3_column_type(s, 1) == SQLITE_TEXT)
                *spec = strdup((const char *)sqlite3_column_text(s, 1));
        }
        sqlite3_finalize(s);
    }
    pthread_mutex_unlock(&j->mu);
    return out;
}

int daemon_journal_pending(daemon_journal *j, const char *id) {
    int found = 0;
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *s = prep(j, "SELECT 1 FROM jobs WHERE id = ?1 AND finished_ms IS NULL");
    if (s) {
        sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
        found = sqlite3_step(s) == SQLITE_ROW;
        sqlite3_finalize(s);
    }
    pthread_mutex_unlock(&j->mu);
    return found;
}

void daemon_journal_each_unfinished(daemon_journal *j, void (*fn)(void *, const char *, const char *, int), void *arg) {
    /* copy the rows out first: fn may write to the journal */
    typedef struct {
        char *id, *spec;
        int cancel;
    } row;
    row *rows = NULL;
    size_t n = 0, cap = 0;
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *s = prep(j, "SELECT id, spec, cancel FROM jobs WHERE finished_ms IS NULL ORDER BY seq");
    while (s && sqlite3_step(s) == SQLITE_ROW) {
        /* a damaged or hand-edited journal may hold a NULL or BLOB id or spec (id TEXT PRIMARY
         * KEY admits NULL): such a row names no job and is left alone */
        if (sqlite3_column_type(s, 0) != SQLITE_TEXT || sqlite3_column_type(s, 1) != SQLITE_TEXT) continue;
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 64;
            row *r = realloc(rows, nc * sizeof *r);
            if (!r) break;
            rows = r;
            cap = nc;
        }
        rows[n].id = strdup((const char *)sqlite3_column_text(s, 0));
        rows[n].spec = strdup((const char *)sqlite3_column_text(s, 1));
        rows[n].cancel = sqlite3_column_int(s, 2);
        if (rows[n].id && rows[n].spec) n++;
        else free(rows[n].id), free(rows[n].spec);
    }
    if (s) sqlite3_finalize(s);
    pthread_mutex_unlock(&j->mu);
    for (size_t i = 0; i < n; i++) {
        fn(arg, rows[i].id, rows[i].spec, rows[i].cancel);
        free(rows[i].id);
        free(rows[i].spec);
    }
    free(rows);
}

int daemon_journal_purge(daemon_journal *j, int64_t before_ms) {
    int n = 0;
    pthread_mutex_lock(&j->mu);
    sqlite3_stmt *s = prep(j, "DELETE FROM jobs WHERE finished_ms IS NOT NULL AND finished_ms < ?1");
    if (s) {
        sqlite3_bind_int64(s, 1, before_ms);
        if (step_write(j, s) == SQLITE_DONE) n = sqlite3_changes(j->db);
        sqlite3_finalize(s);
    }
    pthread_mutex_unlock(&j->mu);
    return n;
}
