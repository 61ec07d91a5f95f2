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
#include <time.h>
#include <unistd.h>

struct daemon_journal {
    sqlite3 *db;
    pthread_mutex_t mu;
    int lock_fd;
    char path[4200];
    uint64_t writes;        /* write statements run since open (the fault injection counts them) */
    uint64_t fail_from;     /* debug.journal_full_at: the Nth write and later ones fail (0: none) */
    uint64_t fail_count;    /* debug.journal_full_count: how many (0: every later one) */
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
    j->injected = j->fail_from && j->writes >= j->fail_from && (!j->fail_count || j->writes < j->fail_from + j->fail_count);
    if (j->injected) return SQLITE_FULL;
    return sqlite3_step(s);
}

void daemon_journal_fail_writes_from(daemon_journal *j, uint64_t n, uint64_t count) {
    pthread_mutex_lock(&j->mu);
    j->fail_from = n;
    j->fail_count = count;
    j->writes = 0;
    pthread_mutex_unlock(&j->mu);
}

/* PRAGMA quick_check of db: 0 when "ok", else -1 with why (its first finding, or SQLite's error:
 * "file is not a database" for a damaged header) */
static int journal_check(sqlite3 *db, char *why, size_t n) {
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(db, "PRAGMA quick_check(5)", -1, &q, NULL);
    int ok = 0;
    why[0] = 0;
    if (rc == SQLITE_OK) {
        size_t o = 0;
        while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
            const char *t = (const char *)sqlite3_column_text(q, 0);
            if (t && !strcmp(t, "ok")) ok = 1;
            else if (t && o + 4 < n) o += (size_t)snprintf(why + o, n - o, "%s%s", o ? "; " : "quick_check: ", t);
        }
        if (rc != SQLITE_DONE) ok = 0;
    }
    if (!ok && !why[0]) snprintf(why, n, "quick_check: %s", sqlite3_errmsg(db));
    sqlite3_finalize(q);
    return ok ? 0 : -1;
}

/* One daemon (or --recover-journal) per state directory: the directory itself is flock'ed (a lock
 * file alone could be removed, and a second daemon would then lock a new file and re-run the first
 * one's jobs); `lock` is created beside it for people and older tools. *fd: the directory's, kept
 * open while the lock is held. busy_msg: the error's text when another process holds it. */
static pm_status state_lock(int *fd, const char *dir, const char *busy_msg, pm_error *err) {
    char lock[4200];
    snprintf(lock, sizeof lock, "%s/lock", dir);
    int lf = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (lf >= 0) close(lf);
    *fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (*fd < 0 || flock(*fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        if (*fd >= 0) close(*fd);
        *fd = -1;
        return pm_error_set(err, PM_ERR_IO, dir, PM_NO_OFFSET, "%s", e == EWOULDBLOCK ? busy_msg : strerror(e));
    }
    return PM_OK;
}

/* The write-ahead log beside the journal (SQLite's WAL format, https://www.sqlite.org/fileformat2.html
 * section 4): SQLite reads it up to its first frame whose checksum fails and ignores the rest, so a
 * damaged frame would silently drop every transaction committed after it. 0 when the log is absent,
 * empty or sound (a torn tail of an uncommitted transaction is sound: no commit frame of the same
 * log follows it); -1 with why filled when a commit frame of this log (its salts) follows a frame
 * whose checksum fails. Reads the file once, in pieces. */
static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint32_t le32(const uint8_t *p) { return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]; }
static void wal_sum(uint32_t s[2], const uint8_t *d, size_t n, int big) {
    for (size_t i = 0; i + 8 <= n; i += 8) {
        s[0] += (big ? be32(d + i) : le32(d + i)) + s[1];
        s[1] += (big ? be32(d + i + 4) : le32(d + i + 4)) + s[0];
    }
}
static int wal_check(const char *db_path, char *why, size_t n) {
    char path[4300];
    snprintf(path, sizeof path, "%s-wal", db_path);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) return 0;
    uint8_t h[32];
    int rc = 0;
    if (read(fd, h, 32) == 32) {
        const uint32_t magic = be32(h), page = be32(h + 8);
        const int big = magic == 0x377f0683u;
        if ((magic == 0x377f0682u || big) && page >= 512 && page <= 65536 && !(page & (page - 1))) {
            uint32_t s[2] = {0, 0};
            wal_sum(s, h, 24, big);
            const int header_ok = s[0] == be32(h + 24) && s[1] == be32(h + 28);
            uint8_t *f = header_ok ? malloc(24 + (size_t)page) : NULL;
            long bad = -1;
            for (long k = 0; f && read(fd, f, 24 + (size_t)page) == (ssize_t)(24 + page); k++) {
                if (memcmp(f + 8, h + 16, 8) != 0) break; /* another log's leftovers: the end of this one */
                if (bad < 0) {
                    wal_sum(s, f, 8, big);
                    wal_sum(s, f + 24, page, big);
                    if (s[0] != be32(f + 16) || s[1] != be32(f + 20)) bad = k;
                } else if (be32(f + 4) != 0) { /* a commit frame past the break: committed work unseen */
                    snprintf(why, n, "its write-ahead log %s: frame %ld fails its checksum, and committed frames "
                             "follow it (frame %ld): SQLite would drop them silently", path, bad, k);
                    rc = -1;
                    break;
                }
            }
            free(f);
        }
    }
    close(fd);
    return rc;
}

pm_status daemon_journal_open(daemon_journal **out, const char *dir, pm_error *err) {
    *out = NULL;
    daemon_journal *j = calloc(1, sizeof *j);
    if (!j) return pm_error_set(err, PM_ERR_NOMEM, NULL, PM_NO_OFFSET, "out of memory");
    pthread_mutex_init(&j->mu, NULL);
    /* one daemon per state directory: a second would re-queue the first one's jobs */
    pm_status lst = state_lock(&j->lock_fd, dir, "another daemon uses this state directory (state.dir)", err);
    if (lst) {
        free(j);
        return lst;
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
    char wwhy[600];
    if (wal_check(j->path, wwhy, sizeof wwhy) != 0) { /* before SQLite reads (and later rewrites) the log */
        st = pm_error_set(err, PM_ERR_FORMAT, j->path, PM_NO_OFFSET,
                          "the job journal is damaged (%s); nothing was changed. Recover it with `proofmill daemon "
                          "--recover-journal` and the same settings: it keeps the files as jobs.sqlite.damaged-<time>, "
                          "salvages the readable jobs into a new journal and says how many were kept and lost", wwhy);
        daemon_journal_close(j);
        return st;
    }
    if (sqlite3_open_v2(j->path, &j->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
        st = db_error(j, err, "cannot open the journal");
    } else {
        sqlite3_busy_timeout(j->db, 5000);
        char *msg = NULL;
        char why[400];
        /* a damaged file stops the start (a row read wrong, or not at all, is a job lost silently) */
        if (journal_check(j->db, why, sizeof why) != 0) {
            st = pm_error_set(err, PM_ERR_FORMAT, j->path, PM_NO_OFFSET,
                              "the job journal is damaged (%s); nothing was changed. Recover it with `proofmill "
                              "daemon --recover-journal` and the same settings: it keeps this file as "
                              "jobs.sqlite.damaged-<time>, salvages the readable jobs into a new journal and says "
                              "how many were kept and lost", why);
            daemon_journal_close(j);
            return st;
        }
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

/* ---- recovery of a damaged journal (proofmill daemon --recover-journal) */

static int copy_file(const char *from, const char *to) {
    int in = open(from, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (in < 0) return errno == ENOENT ? 1 : -1;
    int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (out < 0) {
        close(in);
        return -1;
    }
    char buf[65536];
    ssize_t k;
    int rc = 0;
    while ((k = read(in, buf, sizeof buf)) != 0) {
        if (k < 0 && errno == EINTR) continue;
        if (k < 0 || write(out, buf, (size_t)k) != k) {
            rc = -1;
            break;
        }
    }
    if (fsync(out) != 0) rc = -1;
    close(in);
    close(out);
    return rc;
}

typedef struct {
    char **ids;
    size_t n, cap;
} idset;

static void idset_add(idset *s, const char *id) {
    if (s->n == s->cap) {
        size_t nc = s->cap ? 2 * s->cap : 256;
        char **x = realloc(s->ids, nc * sizeof *x);
        if (!x) return;
        s->ids = x;
        s->cap = nc;
    }
    if ((s->ids[s->n] = strdup(id))) s->n++;
}

static int idset_has(const idset *s, const char *id) {
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->ids[i], id)) return 1;
    return 0;
}

static void idset_free(idset *s) {
    for (size_t i = 0; i < s->n; i++) free(s->ids[i]);
    free(s->ids);
}

pm_status daemon_journal_recover(const char *dir, FILE *report, unsigned *kept_out, unsigned *lost_out, pm_error *err) {
    char path[4200], aside[4300], tmp[4300], side[4400], side2[4400];
    *kept_out = *lost_out = 0;
    snprintf(path, sizeof path, "%s/jobs.sqlite", dir);
    int lfd;
    pm_status lst = state_lock(&lfd, dir, "a daemon uses this state directory: stop it first", err);
    if (lst) return lst;
    struct stat sb;
    if (lstat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        close(lfd);
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "no journal to recover (not a regular file)");
    }
    /* the damaged file (and its write-ahead log) aside, untouched from here on */
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
    snprintf(side, sizeof side, "%s-wal", path);
    pm_status st = PM_OK;
    int cr = -1;
    for (int k = 0; k < 100 && cr != 0; k++) { /* a second recovery in the same second: -<time>.1, ... */
        if (k) snprintf(aside, sizeof aside, "%s.damaged-%s.%d", path, stamp, k);
        else snprintf(aside, sizeof aside, "%s.damaged-%s", path, stamp);
        cr = copy_file(path, aside);
        if (cr != 0 && errno != EEXIST) break;
    }
    snprintf(side2, sizeof side2, "%s-wal", aside);
    if (cr != 0 || copy_file(side, side2) < 0) {
        st = pm_error_set(err, PM_ERR_IO, aside, PM_NO_OFFSET, "cannot copy the damaged journal aside: %s", strerror(errno));
        close(lfd);
        return st;
    }
    /* read what can be read from the damaged file (replaced below; the copy aside stays as it was) */
    sqlite3 *src = NULL, *dst = NULL;
    snprintf(tmp, sizeof tmp, "%s.recovering", path);
    unlink(tmp);
    idset keptset = {0}, named = {0};
    unsigned unreadable = 0;
    int no_table = 0;
    if (sqlite3_open_v2(path, &src, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK ||
        sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK ||
        sqlite3_exec(dst, schema, NULL, NULL, NULL) != SQLITE_OK || sqlite3_exec(dst, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
        st = pm_error_set(err, PM_ERR_IO, tmp, PM_NO_OFFSET, "cannot set up the new journal: %s",
                          dst ? sqlite3_errmsg(dst) : "out of memory");
        goto done;
    }
    sqlite3_stmt *ins = NULL, *q = NULL;
    sqlite3_prepare_v2(dst, "INSERT OR IGNORE INTO jobs(id, seq, spec, state, cancel, submitted_ms, finished_ms, result) "
                            "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", -1, &ins, NULL);
    /* the rows by rowid: a damaged page fails the rowids it holds, the seek goes on past it */
    int64_t maxrow = -1;
    if (sqlite3_prepare_v2(src, "SELECT max(rowid) FROM jobs", -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
        maxrow = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    q = NULL;
    if (sqlite3_prepare_v2(src, "SELECT rowid, id, seq, spec, state, cancel, submitted_ms, finished_ms, result FROM jobs "
                                "WHERE rowid >= ?1 ORDER BY rowid LIMIT 1", -1, &q, NULL) != SQLITE_OK) {
        no_table = 1; /* the schema itself is unreadable (e.g. a damaged first page) */
    } else if (ins) {
        int64_t r = 1;
        unsigned misses = 0;
        while ((maxrow < 0 || r <= maxrow) && misses < 100000) {
            sqlite3_reset(q);
            sqlite3_bind_int64(q, 1, r);
            int rc = sqlite3_step(q);
            if (rc == SQLITE_DONE) break;
            if (rc != SQLITE_ROW) {
                unreadable++;
                misses++;
                r++;
                continue;
            }
            misses = 0;
            r = sqlite3_column_int64(q, 0) + 1;
            if (sqlite3_column_type(q, 1) != SQLITE_TEXT || sqlite3_column_type(q, 3) != SQLITE_TEXT) {
                unreadable++;
                continue;
            }
            sqlite3_reset(ins);
            for (int c = 1; c <= 8; c++) sqlite3_bind_value(ins, c, sqlite3_column_value(q, c));
            if (sqlite3_step(ins) == SQLITE_DONE && sqlite3_changes(dst) == 1)
                idset_add(&keptset, (const char *)sqlite3_column_text(q, 1));
        }
    }
    sqlite3_finalize(q);
    q = NULL;
    sqlite3_finalize(ins);
    /* the ids the id index names: those not salvaged are the jobs lost (named, never dropped silently) */
    if (sqlite3_prepare_v2(src, "SELECT id FROM jobs INDEXED BY sqlite_autoindex_jobs_1 ORDER BY id", -1, &q, NULL) ==
        SQLITE_OK) {
        while (sqlite3_step(q) == SQLITE_ROW)
            if (sqlite3_column_type(q, 0) == SQLITE_TEXT) idset_add(&named, (const char *)sqlite3_column_text(q, 0));
    }
    sqlite3_finalize(q);
    sqlite3_close(src); /* before its -wal goes below */
    src = NULL;
    if (sqlite3_exec(dst, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        st = pm_error_set(err, PM_ERR_IO, tmp, PM_NO_OFFSET, "cannot write the new journal: %s", sqlite3_errmsg(dst));
        goto done;
    }
    char why[400];
    if (journal_check(dst, why, sizeof why) != 0) {
        st = pm_error_set(err, PM_ERR_IO, tmp, PM_NO_OFFSET, "the new journal fails its check: %s", why);
        goto done;
    }
    sqlite3_close(dst);
    dst = NULL;
    /* the new journal in place of the damaged one; its old write-ahead log and index must go
     * first (a stale -wal would be replayed into the new file) */
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", path);
    unlink(side);
    if (rename(tmp, path) != 0) {
        st = pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot put the new journal in place: %s", strerror(errno));
        goto done;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    unsigned lost = 0;
    for (size_t i = 0; i < named.n; i++) lost += !idset_has(&keptset, named.ids[i]);
    *kept_out = (unsigned)keptset.n;
    *lost_out = lost;
    if (report) {
        fprintf(report, "journal %s: damaged file kept as %s\n", path, aside);
        if (!no_table)
            fprintf(report, "journal %s: %u jobs kept, %u jobs lost%s\n", path, *kept_out, lost,
                    unreadable ? " (some rows were unreadable)" : "");
        for (size_t i = 0; i < named.n; i++)
            if (!idset_has(&keptset, named.ids[i])) fprintf(report, "lost job %s\n", named.ids[i]);
        if (no_table)
            fprintf(report, "journal %s: 0 jobs kept; its table is unreadable (a damaged schema): every job in it "
                            "is lost, how many is unknown (the copy aside holds what is left)\n", path);
        else if (unreadable && !named.n)
            fprintf(report, "journal %s: %u unreadable row positions and no readable id index: jobs there are lost "
                            "(their ids are unknown)\n", path, unreadable);
    }
done:
    if (src) sqlite3_close(src);
    if (dst) sqlite3_close(dst);
    if (st) unlink(tmp);
    idset_free(&keptset);
    idset_free(&named);
    close(lfd);
    return st;
}
