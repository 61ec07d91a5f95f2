/*
 * file.c — mapped files, bounded reader, binfileutils container (contract in file.h).
 *
 * Every length taken from a file is compared with the bytes remaining *before* it is added to an
 * offset, with the comparison written as "n > end - pos" so that no sum can wrap around.
 */
#include "util/file.h"

#include "util/confine.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p) { return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32; }

const char *pm_file_kind(unsigned mode) {
    if (S_ISREG(mode)) return "a regular file";
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO/pipe";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

pm_status pm_open_regular(int *fd, uint64_t *size, const char *path, pm_error *err) {
    *fd = -1;
    *size = 0;
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever; the
     * flag does not change how a regular file is read. */
    pm_error oe;
    pm_error_clear(&oe);
    int d = pm_confine_open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, &oe); /* the daemon's allowed dirs */
    if (d < 0) {
        if (err) *err = oe;
        return oe.code;
    }
    struct stat st;
    if (fstat(d, &st) != 0) {
        int e = errno;
        close(d);
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot stat: %s", strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(d);
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "not a regular file (%s)", pm_file_kind(st.st_mode));
    }
    *fd = d;
    *size = (uint64_t)st.st_size;
    return PM_OK;
}

pm_status pm_file_read_all(char **out, size_t *len, const char *path, uint64_t max_bytes, unsigned flags,
                           pm_error *err) {
    *out = NULL;
    *len = 0;
    if (!path) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "no file name given");
    pm_error oe;
    pm_error_clear(&oe);
    int fd = pm_confine_open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, &oe); /* a FIFO must not wait for a writer */
    if (fd < 0) {
        if (err) *err = oe;
        return oe.code;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot stat: %s", strerror(e));
    }
    int pipe = S_ISFIFO(st.st_mode);
    if (!S_ISREG(st.st_mode) && !(pipe && (flags & PM_READ_PIPES))) {
        close(fd);
        return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "not a regular file (%s)", pm_file_kind(st.st_mode));
    }
    if (!pipe && max_bytes && (uint64_t)st.st_size > max_bytes) {
        close(fd);
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "file is larger than %llu bytes (%llu)",
                            (unsigned long long)max_bytes, (unsigned long long)st.st_size);
    }
    if (pipe) { /* a writer may be there: read to its end */
        int fl = fcntl(fd, F_GETFL);
        if (fl != -1) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    uint64_t want = pipe ? 65536 : (uint64_t)st.st_size;
    if (want > (uint64_t)SIZE_MAX - 1) {
        close(fd);
        return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "cannot hold %llu bytes in memory",
                            (unsigned long long)want);
    }
    size_t cap = (size_t)want + 1, n = 0;
    char *buf = malloc(cap);
    if (!buf) {
        close(fd);
        return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "cannot hold %llu bytes in memory",
                            (unsigned long long)want);
    }
    for (;;) {
        if (n + 1 == cap) {
            if (!pipe) break; /* a regular file: read up to its size at open */
            if (max_bytes && n >= max_bytes) {
                free(buf);
                close(fd);
                return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "file is larger than %llu bytes",
                                    (unsigned long long)max_bytes);
            }
            char *nb = realloc(buf, 2 * cap);
            if (!nb) {
                free(buf);
                close(fd);
                return pm_error_set(err, PM_ERR_NOMEM, path, PM_NO_OFFSET, "cannot hold %zu bytes in memory", 2 * cap);
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t k = read(fd, buf + n, cap - 1 - n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "read error: %s", strerror(e));
        }
        if (k == 0) break;
        n += (size_t)k;
    }
    close(fd);
    if (pipe && max_bytes && n > max_bytes) {
        free(buf);
        return pm_error_set(err, PM_ERR_FORMAT, path, PM_NO_OFFSET, "file is larger than %llu bytes",
                            (unsigned long long)max_bytes);
    }
    buf[n] = 0;
    *out = buf;
    *len = n;
    return PM_OK;
}

/* ---------------------------------------------------------------- SIGBUS guard
 * A read through a file mapping past the file's current end raises SIGBUS (POSIX mmap: "references
 * within the address range starting at pa and continuing for len bytes to whole pages following the
 * end of an object shall result in delivery of a SIGBUS signal"); that happens when a mapped key is
 * truncated or copied over in place while it is read. The handler below maps a zero page over the
 * faulting page of a registered mapping (so the read goes on and sees zeros) and marks the mapping
 * changed; the reader then reports the change (pm_file_settle) instead of the process dying. Faults
 * outside every registered mapping go to the disposition that was there before. Slots are claimed
 * with atomics; the handler only loads them. */
enum { GUARD_SLOTS = 4096 };
static struct {
    atomic_int used;
    atomic_uintptr_t base; /* 0 while the slot is being filled or emptied */
    atomic_size_t len;
    atomic_int changed;
} g_guard[GUARD_SLOTS];
static struct sigaction g_old_bus;
static pthread_mutex_t g_guard_mu = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t g_page = 4096;

static void bus_handler(int sig, siginfo_t *si, void *ctx) {
    if (si && si->si_code > 0) { /* sent by the kernel for a memory access, not by kill() */
        const uintptr_t a = (uintptr_t)si->si_addr;
        for (int i = 0; i < GUARD_SLOTS; i++) {
            const uintptr_t b = atomic_load_explicit(&g_guard[i].base, memory_order_acquire);
            if (!b || a < b || a - b >= atomic_load_explicit(&g_guard[i].len, memory_order_relaxed)) continue;
            void *pg = (void *)(a & ~(g_page - 1));
            if (mmap(pg, (size_t)g_page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) break;
            atomic_store_explicit(&g_guard[i].changed, 1, memory_order_release);
            return; /* the access is retried and reads zeros */
        }
    }
    if (g_old_bus.sa_flags & SA_SIGINFO) {
        if (g_old_bus.sa_sigaction) {
            g_old_bus.sa_sigaction(sig, si, ctx);
            return;
        }
    } else if (g_old_bus.sa_handler != SIG_DFL && g_old_bus.sa_handler != SIG_IGN) {
        g_old_bus.sa_handler(sig);
        return;
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGBUS, &dfl, NULL);
    if (!si || si->si_code <= 0) raise(sig); /* a fault repeats on return and ends the process */
}

/* (Re)install the handler unless it is the one in place: a library that sets its own SIGBUS action
 * after ours (a test harness does, per test) would otherwise switch the guard off for good. The
 * action found is the one faults outside the guarded ranges go to. */
static void guard_install(void) {
    pthread_mutex_lock(&g_guard_mu);
    struct sigaction cur;
    if (sigaction(SIGBUS, NULL, &cur) == 0 && !((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == bus_handler)) {
        long pg = sysconf(_SC_PAGESIZE);
        if (pg > 0) g_page = (uintptr_t)pg;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = bus_handler;
        sa.sa_flags = SA_SIGINFO | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        struct sigaction old;
        if (sigaction(SIGBUS, &sa, &old) == 0) g_old_bus = old;
    }
    pthread_mutex_unlock(&g_guard_mu);
}

int pm_map_guard_add(const void *base, uint64_t len) {
    if (!base || !len) return 0;
    guard_install();
    for (int i = 0; i < GUARD_SLOTS; i++) {
        int expect = 0;
        if (!atomic_compare_exchange_strong(&g_guard[i].used, &expect, 1)) continue;
        atomic_store(&g_guard[i].changed, 0);
        atomic_store(&g_guard[i].len, (size_t)len);
        atomic_store_explicit(&g_guard[i].base, (uintptr_t)base, memory_order_release);
        return i + 1;
    }
    return 0; /* every slot taken: the mapping stays unguarded */
}

int pm_map_guard_changed(int slot) {
    return slot > 0 && slot <= GUARD_SLOTS && atomic_load_explicit(&g_guard[slot - 1].changed, memory_order_acquire);
}

void pm_map_guard_remove(int slot) {
    if (slot <= 0 || slot > GUARD_SLOTS) return;
    atomic_store_explicit(&g_guard[slot - 1].base, 0, memory_order_release);
    atomic_store(&g_guard[slot - 1].changed, 0);
    atomic_store(&g_guard[slot - 1].used, 0);
}

pm_status pm_map_guard_settle(int slot, const char *path, uint64_t size_then, pm_status st, pm_error *err) {
    if (!pm_map_guard_changed(slot)) return st;
    struct stat sb;
    if (path && stat(path, &sb) == 0)
        return pm_error_set(err, PM_ERR_IO, path, (uint64_t)sb.st_size,
                            "the file changed while it was read: it was %llu bytes when opened and is %llu now "
                            "(truncated or copied over in place?); nothing read from it is used",
                            (unsigned long long)size_then, (unsigned long long)sb.st_size);
    return pm_error_set(err, PM_ERR_IO, path ? path : "", PM_NO_OFFSET,
                        "the file changed while it was read: it was %llu bytes when opened and is gone now; "
                        "nothing read from it is used", (unsigned long long)size_then);
}

pm_status pm_file_changed_error(pm_error *err, const char *name, uint64_t offset, const char *what) {
    return pm_error_set(err, PM_ERR_IO, name ? name : "", offset,
                        "the file changed while it was read: %s differs between two reads (rewritten in place?); "
                        "nothing read from it is used", what);
}

pm_status pm_file_settle(const pm_file *f, pm_status st, pm_error *err) {
    return pm_map_guard_settle(f->guard, f->name, f->size, st, err);
}

pm_status pm_file_open(pm_file *f, const char *path, pm_error *err) {
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", path ? path : "");
    if (!path) return pm_error_set(err, PM_ERR_ARG, "", PM_NO_OFFSET, "no file name given");
    int fd;
    uint64_t size;
    pm_status ps = pm_open_regular(&fd, &size, path, err);
    if (ps) return ps;
    if (size > 0) {
        void *m = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            int e = errno;
            close(fd);
            return pm_error_set(err, PM_ERR_IO, path, PM_NO_OFFSET, "cannot map %llu bytes: %s",
                                (unsigned long long)size, strerror(e));
        }
        /* Sequential hint: parsers stream the file once. */
        madvise(m, (size_t)size, MADV_SEQUENTIAL);
        f->map_base = m;
        f->map_len = size;
        f->guard = pm_map_guard_add(m, size);
        f->data = m;
        f->size = size;
    }
    close(fd); /* the mapping stays valid */
    return PM_OK;
}

void pm_file_from_memory(pm_file *f, const void *data, uint64_t size, const char *name) {
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name ? name : "(memory)");
    f->data = data;
    f->size = data ? size : 0;
}

void pm_file_close(pm_file *f) {
    if (!f) return;
    pm_map_guard_remove(f->guard);
    if (f->map_base) munmap(f->map_base, (size_t)f->map_len);
    memset(f, 0, sizeof *f);
}

void pm_reader_init(pm_reader *r, const pm_file *f, uint64_t start, uint64_t end) {
    r->file = f;
    r->pos = start;
    r->end = end;
}

uint64_t pm_reader_left(const pm_reader *r) { return r->end - r->pos; }

static pm_status truncated(const pm_reader *r, uint64_t want, const char *what, pm_error *err) {
    return pm_error_set(err, PM_ERR_FORMAT, r->file->name, r->pos,
                        "truncated: %s needs %llu bytes, only %llu left", what ? what : "field",
                        (unsigned long long)want, (unsigned long long)(r->end - r->pos));
}

pm_status pm_reader_u32(pm_reader *r, uint32_t *out, const char *what, pm_error *err) {
    if (r->end - r->pos < 4) return truncated(r, 4, what, err);
    *out = le32(r->file->data + r->pos);
    r->pos += 4;
    return PM_OK;
}

pm_status pm_reader_u64(pm_reader *r, uint64_t *out, const char *what, pm_error *err) {
    if (r->end - r->pos < 8) return truncated(r, 8, what, err);
    *out = le64(r->file->data + r->pos);
    r->pos += 8;
    return PM_OK;
}

pm_status pm_reader_bytes(pm_reader *r, const uint8_t **out, uint64_t n, const char *what,
                          pm_error *err) {
    if (r->end - r->pos < n) return truncated(r, n, what, err);
    *out = r->file->data + r->pos;
    r->pos += n;
    return PM_OK;
}

pm_status pm_reader_skip(pm_reader *r, uint64_t n, const char *what, pm_error *err) {
    if (r->end - r->pos < n) return truncated(r, n, what, err);
    r->pos += n;
    return PM_OK;
}

/* Parse the container over bf->file (already set). */
static pm_status binfile_parse(pm_binfile *bf, const char magic[4], uint32_t version,
                               pm_error *err) {
    const pm_file *f = &bf->file;
    const char *name = f->name;
    pm_reader r;
    pm_reader_init(&r, f, 0, f->size);
    const uint8_t *m;
    pm_status st;
    if ((st = pm_reader_bytes(&r, &m, 4, "magic", err))) return st;
    if (memcmp(m, magic, 4) != 0) {
        char got[5];
        for (int i = 0; i < 4; i++) got[i] = (m[i] >= 32 && m[i] < 127) ? (char)m[i] : '?';
        got[4] = 0;
        return pm_error_set(err, PM_ERR_FORMAT, name, 0,
                            "wrong magic \"%s\", expected a \"%.4s\" file", got, magic);
    }
    if ((st = pm_reader_u32(&r, &bf->version, "version", err))) return st;
    if (bf->version != version)
        return pm_error_set(err, PM_ERR_FORMAT, name, 4,
                            "unsupported %.4s version %u (only version %u is supported)", magic,
                            bf->version, version);
    uint32_t ns;
    if ((st = pm_reader_u32(&r, &ns, "nSections", err))) return st;
    /* Each section needs at least its 12-byte header: bound the table before allocating. */
    if ((uint64_t)ns * 12 > pm_reader_left(&r))
        return pm_error_set(err, PM_ERR_FORMAT, name, 8,
                            "nSections = %u cannot fit in the %llu bytes after the header", ns,
                            (unsigned long long)pm_reader_left(&r));
    bf->sections = calloc(ns ? ns : 1, sizeof *bf->sections);
    if (!bf->sections)
        return pm_error_set(err, PM_ERR_NOMEM, name, PM_NO_OFFSET, "section table (%u)", ns);
    for (uint32_t i = 0; i < ns; i++) {
        pm_section s;
        s.header_offset = r.pos;
        /* a header after the first sits where the previous section's size field says it ends: name
         * that field, since a wrong size there shows up as a garbage header here */
        char after[112] = "";
        if (i > 0) {
            const pm_section *p = &bf->sections[i - 1];
            snprintf(after, sizeof after, " (it follows section id %u, whose size field at offset %llu says %llu bytes)",
                     p->id, (unsigned long long)(p->header_offset + 4), (unsigned long long)p->size);
        }
        char what[160];
        snprintf(what, sizeof what, "header of section #%u%s", i, after);
        if ((st = pm_reader_u32(&r, &s.id, what, err))) return st;
        if ((st = pm_reader_u64(&r, &s.size, what, err))) return st;
        s.offset = r.pos;
        if (s.size > pm_reader_left(&r))
            return pm_error_set(err, PM_ERR_FORMAT, name, s.header_offset,
                                "section id %u claims %llu bytes but only %llu remain in the file%s",
                                s.id, (unsigned long long)s.size,
                                (unsigned long long)pm_reader_left(&r), after);
        for (uint32_t j = 0; j < bf->n_sections; j++)
            if (bf->sections[j].id == s.id)
                return pm_error_set(err, PM_ERR_FORMAT, name, s.header_offset,
                                    "duplicate section id %u (first at offset %llu)%s", s.id,
                                    (unsigned long long)bf->sections[j].header_offset, after);
        r.pos += s.size;
        bf->sections[bf->n_sections++] = s;
    }
    if (pm_reader_left(&r) != 0) {
        char last[112] = "";
        if (ns > 0) {
            const pm_section *p = &bf->sections[ns - 1];
            snprintf(last, sizeof last, " (the last, section id %u, has its size field at offset %llu: %llu bytes)", p->id,
                     (unsigned long long)(p->header_offset + 4), (unsigned long long)p->size);
        }
        return pm_error_set(err, PM_ERR_FORMAT, name, r.pos, "%llu trailing bytes after the last of %u sections%s",
                            (unsigned long long)pm_reader_left(&r), ns, last);
    }
    return PM_OK;
}

pm_status pm_binfile_open(pm_binfile *bf, const char *path, const char magic[4], uint32_t version,
                          pm_error *err) {
    memset(bf, 0, sizeof *bf);
    pm_status st = pm_file_open(&bf->file, path, err);
    if (st) {
        pm_binfile_close(bf);
        return st;
    }
    st = pm_file_settle(&bf->file, binfile_parse(bf, magic, version, err), err);
    if (st) pm_binfile_close(bf);
    return st;
}

pm_status pm_binfile_open_memory(pm_binfile *bf, const void *data, uint64_t size, const char *name,
                                 const char magic[4], uint32_t version, pm_error *err) {
    memset(bf, 0, sizeof *bf);
    pm_file_from_memory(&bf->file, data, size, name);
    pm_status st = binfile_parse(bf, magic, version, err);
    if (st) pm_binfile_close(bf);
    return st;
}

void pm_binfile_close(pm_binfile *bf) {
    if (!bf) return;
    free(bf->sections);
    pm_file_close(&bf->file);
    memset(bf, 0, sizeof *bf);
}

const pm_section *pm_binfile_find(const pm_binfile *bf, uint32_t id) {
    for (uint32_t i = 0; i < bf->n_sections; i++)
        if (bf->sections[i].id == id) return &bf->sections[i];
    return NULL;
}

pm_status pm_binfile_section_reader(pm_reader *r, const pm_binfile *bf, uint32_t id,
                                    const char *what, pm_error *err) {
    const pm_section *s = pm_binfile_find(bf, id);
    if (!s)
        return pm_error_set(err, PM_ERR_FORMAT, bf->file.name, PM_NO_OFFSET,
                            "missing section %u (%s)", id, what ? what : "?");
    pm_reader_init(r, &bf->file, s->offset, s->offset + s->size);
    return PM_OK;
}

pm_status pm_binfile_section_exact(pm_reader *r, const pm_binfile *bf, uint32_t id, uint64_t size,
                                   const char *what, pm_error *err) {
    pm_status st = pm_binfile_section_reader(r, bf, id, what, err);
    if (st) return st;
    if (pm_reader_left(r) != size)
        return pm_error_set(err, PM_ERR_FORMAT, bf->file.name, r->pos,
                            "section %u (%s): expected %llu bytes, found %llu", id,
                            what ? what : "?", (unsigned long long)size,
                            (unsigned long long)pm_reader_left(r));
    return PM_OK;
}

/* realpath of path's directory + its last name; -1 when the directory does not resolve */
static int canon_path(char *out, size_t cap, const char *path) {
    char dir[PATH_MAX], rd[PATH_MAX];
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    if (slash) {
        size_t k = (size_t)(slash - path);
        if (k >= sizeof dir) return -1;
        memcpy(dir, path, k);
        dir[k] = 0;
        if (k == 0) strcpy(dir, "/");
    } else {
        strcpy(dir, ".");
    }
    if (!realpath(dir, rd)) return -1;
    int n = snprintf(out, cap, "%s/%s", rd, base);
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

int pm_same_file(const char *a, const char *b) {
    if (!a || !b) return 0;
    struct stat sa, sb;
    int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea != eb) return 0;
    char ca[PATH_MAX + 256], cb[PATH_MAX + 256];
    if (canon_path(ca, sizeof ca, a) || canon_path(cb, sizeof cb, b)) return !strcmp(a, b);
    return !strcmp(ca, cb);
}
