/*
 * file.h — read-only mapped input files, a bounded little-endian reader cursor, and the
 * @iden3/binfileutils section container shared by circom .r1cs, .wtns and snarkjs .zkey.
 *
 * Memory: pm_file_open maps the whole file read-only (mmap, MAP_PRIVATE); nothing is copied, so a
 * multi-GiB proving key costs page cache, not heap. The mapping is registered with the SIGBUS guard
 * below, so a file that shrinks while it is read is an error (pm_file_settle), not a crash. A pm_file
 * can also wrap a caller-owned buffer (pm_file_from_memory), which is how the hostile-input tests
 * feed truncated/edited images.
 *
 * Errors: every function that reads data returns a pm_status and fills a pm_error (util/error.h)
 * with the file name, the absolute byte offset in the file where the problem was found, and the
 * reason. Nothing here aborts on file contents; every length read from a file is checked against
 * the bytes that are actually there before it is used (no allocation is sized by an unchecked
 * field).
 *
 * Container layout (source: @iden3/binfileutils binfileutils.js readBinFile; restated in
 * ../shared/fixtures/FORMATS.md): magic[4] ASCII | version u32 | nSections u32 | nSections times
 * { id u32 | size u64 | payload[size] }; all integers little-endian. Sections may come in any
 * order (circom writes r1cs section 2 before 1; snarkjs setup writes zkey 1,2,4,3,9,8,5,6,7,10);
 * they are looked up by id. A duplicate id is rejected (snarkjs: "Section Duplicated"). Unknown
 * ids are kept and ignored by the readers.
 *
 * Argument order: output first, then inputs; an array's length right after it.
 */
#ifndef PROOFMILL_UTIL_FILE_H
#define PROOFMILL_UTIL_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A read-only byte image of a whole file. data[0..size) is valid until pm_file_close.
 * name is the path (or the caller's label for a memory image), used in every pm_error. */
typedef struct {
    const uint8_t *data;
    uint64_t size;
    char name[512];
    void *map_base;  /* mmap base, NULL for a memory image or an empty file */
    uint64_t map_len;
    int guard;       /* slot in the SIGBUS guard (pm_map_guard_add), 0 = none */
} pm_file;

/* The SIGBUS guard of file mappings. A mapped file that shrinks while it is read (truncated, or
 * copied over in place: `cp new.zkey key.zkey` truncates first) makes the next read past its new end
 * raise SIGBUS (POSIX mmap, "whole pages following the end of an object"), which would end the
 * process and, in the daemon, every job with it. pm_map_guard_add registers [base, base + len) of a
 * read-only MAP_PRIVATE file mapping; a SIGBUS inside a registered range then maps a zero page over
 * the faulting page (the read goes on and sees zeros) and marks the range changed. Faults elsewhere go
 * to the SIGBUS disposition that was in place before the first registration (SIG_DFL: the process
 * ends as before). The handler is installed at the first registration, and again by any later one
 * that finds another SIGBUS action in place (which then becomes the one foreign faults go to).
 * pm_map_guard_add returns a slot (> 0) for the two calls below, or 0 when base/len is empty or all
 * 4096 slots are taken (the mapping then stays unguarded). pm_map_guard_changed: 1 once a fault was
 * absorbed in that range (the mapping holds zero pages from then on; nothing read from it may be
 * trusted). pm_map_guard_remove: before munmap; 0 is ignored. pm_map_guard_settle: st unchanged when
 * the range is unchanged, else PM_ERR_IO naming path ("the file changed while it was read: it was N
 * bytes when opened and is M now"; offset = M), replacing whatever error the zeros caused. */
int pm_map_guard_add(const void *base, uint64_t len);
int pm_map_guard_changed(int slot);
void pm_map_guard_remove(int slot);
pm_status pm_map_guard_settle(int slot, const char *path, uint64_t size_then, pm_status st, pm_error *err);
/* The error of a reader that reads a mapped byte twice (a validating pass, then a filling one) and
 * finds it changed in between: the file was rewritten in place under the mapping. PM_ERR_IO naming
 * name and the offset, "the file changed while it was read". Two-pass readers re-check on the
 * second pass every field that sizes or indexes memory and call this instead of trusting pass 1. */
pm_status pm_file_changed_error(pm_error *err, const char *name, uint64_t offset, const char *what);
/* pm_map_guard_settle for f's mapping (st unchanged for a memory image): every reader calls it on its
 * result after it has read all it needs from f and before pm_file_close. */
pm_status pm_file_settle(const pm_file *f, pm_status st, pm_error *err);

/* Open path and map it read-only. An empty file gives data = NULL, size = 0 (not an error here;
 * the container parser then reports the truncation). Errors: PM_ERR_IO (open/fstat/mmap failed,
 * errno text in the message, offset PM_NO_OFFSET; not a regular file: a directory, FIFO or device
 * such as /dev/zero is refused at once, a FIFO without waiting for a writer). On error *f is left closed (safe to close). */
pm_status pm_file_open(pm_file *f, const char *path, pm_error *err);
/* Open path read-only (O_CLOEXEC | O_NONBLOCK, so a FIFO does not wait for a writer) and accept it
 * only if it is a regular file: *fd (the caller closes it) and *size (bytes) on success. Errors:
 * PM_ERR_IO naming path: cannot open / stat (errno text), or "not a regular file (a directory)"
 * etc. (pm_file_kind); nothing stays open. Used by every reader of a user-named input file. The
 * open goes through util/confine.h (PM_ERR_FORBIDDEN outside the daemon's allowed directories, or
 * through a link below them); pm_file_read_all and pm_file_open likewise. */
pm_status pm_open_regular(int *fd, uint64_t *size, const char *path, pm_error *err);
/* What kind of file a stat mode is, in words ("a directory", "a FIFO/pipe", ...), for messages. */
const char *pm_file_kind(unsigned mode);
/* Wrap a caller-owned buffer of size bytes (not copied, not freed by pm_file_close); name labels
 * errors. Never fails. */
void pm_file_from_memory(pm_file *f, const void *data, uint64_t size, const char *name);
/* Unmap (if mapped) and zero *f. Idempotent; accepts a zeroed pm_file. */
void pm_file_close(pm_file *f);

/* Flags of pm_file_read_all. */
enum {
    PM_READ_PIPES = 1u << 0 /* also read a FIFO/pipe to its end (`<(cat proof.json)`); the open does
                               not wait for a writer: one without a writer reads as empty */
};
/* The whole file at path in a malloc'd buffer: *out holds *len bytes and a NUL after them (not
 * counted), so a text file reads as a C string; the caller frees *out. Regular files only (a
 * directory, device or, without PM_READ_PIPES, a FIFO is refused at once, as pm_open_regular).
 * Files of more than max_bytes are refused before anything is allocated (PM_ERR_FORMAT "file is
 * larger than N bytes"); max_bytes = 0: no limit but memory. Errors: PM_ERR_IO (open, stat, read;
 * errno text), PM_ERR_FORMAT (too large), PM_ERR_NOMEM ("cannot hold N bytes in memory"); on
 * error *out = NULL, *len = 0. The one whole-file reader of the tree (JSON proofs and keys, C1
 * files, inline inputs). */
pm_status pm_file_read_all(char **out, size_t *len, const char *path, uint64_t max_bytes, unsigned flags,
                           pm_error *err);

/* A bounded cursor over data[pos..end) of a pm_file. Offsets (pos, end) are absolute file
 * offsets, so errors name the real byte position. */
typedef struct {
    const pm_file *file;
    uint64_t pos;
    uint64_t end;
} pm_reader;

/* Cursor over [start, end) of f. Requires start <= end <= f->size (programmer contract). */
void pm_reader_init(pm_reader *r, const pm_file *f, uint64_t start, uint64_t end);
/* Bytes left before end. */
uint64_t pm_reader_left(const pm_reader *r);
/* Read a little-endian u32 / u64 and advance. what names the field in the error message
 * ("section 2: nVars"). Errors: PM_ERR_FORMAT "truncated" at the cursor offset when fewer than
 * 4 / 8 bytes are left. */
pm_status pm_reader_u32(pm_reader *r, uint32_t *out, const char *what, pm_error *err);
pm_status pm_reader_u64(pm_reader *r, uint64_t *out, const char *what, pm_error *err);
/* Return a pointer to the next n bytes (inside the mapped image, unaligned) and advance.
 * Errors: PM_ERR_FORMAT "truncated" when fewer than n bytes are left. */
pm_status pm_reader_bytes(pm_reader *r, const uint8_t **out, uint64_t n, const char *what,
                          pm_error *err);
/* Advance by n bytes. Errors as pm_reader_bytes. */
pm_status pm_reader_skip(pm_reader *r, uint64_t n, const char *what, pm_error *err);

/* One section of a container: payload at absolute file offset `offset`, `size` bytes;
 * header_offset is where its {id, size} record starts (for error messages). */
typedef struct {
    uint32_t id;
    uint64_t offset;
    uint64_t size;
    uint64_t header_offset;
} pm_section;

/* A parsed container over an open pm_file. sections[0..n_sections) in file order. */
typedef struct {
    pm_file file;
    uint32_t version;
    uint32_t n_sections;
    pm_section *sections; /* heap, n_sections entries */
} pm_binfile;

/* Open path (mapped) and parse its container header and section table.
 * magic: the 4 expected ASCII bytes ("r1cs", "wtns", "zkey"); version: the only accepted
 * version (r1cs 1, wtns 2, zkey 1).
 * Checks: file >= 12 bytes; magic; version; every section header and payload lies inside the
 * file (size checked against the file size before the cursor moves: a "lying" size is
 * PM_ERR_FORMAT at that section's header offset); no duplicate id; no bytes after the last
 * section. Errors: PM_ERR_IO, PM_ERR_FORMAT, PM_ERR_NOMEM. On error bf is left closed. */
pm_status pm_binfile_open(pm_binfile *bf, const char *path, const char magic[4], uint32_t version,
                          pm_error *err);
/* The same over a caller-owned memory image (not copied; must outlive bf). name labels errors. */
pm_status pm_binfile_open_memory(pm_binfile *bf, const void *data, uint64_t size, const char *name,
                                 const char magic[4], uint32_t version, pm_error *err);
/* Free the section table and unmap. Idempotent on a zeroed struct. */
void pm_binfile_close(pm_binfile *bf);
/* The section with this id, or NULL. */
const pm_section *pm_binfile_find(const pm_binfile *bf, uint32_t id);
/* A reader over section id's payload. what names the section in the message
 * ("zkey section 9 (H)"). Errors: PM_ERR_FORMAT "missing section" (offset PM_NO_OFFSET). */
pm_status pm_binfile_section_reader(pm_reader *r, const pm_binfile *bf, uint32_t id,
                                    const char *what, pm_error *err);
/* Like pm_binfile_section_reader and also require the payload to be exactly `size` bytes.
 * Errors: PM_ERR_FORMAT "section N (what): expected X bytes, found Y" at the payload offset. */
pm_status pm_binfile_section_exact(pm_reader *r, const pm_binfile *bf, uint32_t id, uint64_t size,
                                   const char *what, pm_error *err);

/* 1 when paths a and b name the same file: the same inode when both exist, else the same
 * canonical path (realpath of the directory + the last name), so "./x" and "x" match before x
 * exists. Used to refuse an output that would overwrite an input. */
int pm_same_file(const char *a, const char *b);

#ifdef __cplusplus
}
#endif
#endif
