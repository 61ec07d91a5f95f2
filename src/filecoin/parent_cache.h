/*
 * parent_cache.h — Filecoin's SDR parent cache: file name, layout, streamed writer and digest.
 *
 * Source: rust-fil-proofs storage-proofs-porep/src/stacked/vanilla/cache.rs (`generate`,
 * `cache_path`, digest check against parent_cache.json), graph.rs / drgraph.rs (`identifier`);
 * POREP.md §3.4.
 *
 * Layout: for node v = 0 .. nodes-1 in order, its 14 parents (6 DRG, then 8 expander) as u32
 * little-endian: 56 bytes per node, 56 * nodes bytes in all (56 MiB for 8 MiB sectors... 56 GiB
 * for 32 GiB). No header. Digest = SHA-256 of the whole file (hex, as parent_cache.json lists).
 * Name: "v28-sdr-parent-" + hex SHA-256("poseidon_hasher" || graph identifier (graph.h) ||
 * Feistel keys[0..3] as u64 LE || nodes as u32 LE) + ".cache".
 */
#ifndef PROOFMILL_FILECOIN_PARENT_CACHE_H
#define PROOFMILL_FILECOIN_PARENT_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "filecoin/graph.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FIL_PARENT_CACHE_ROW_BYTES (4u * FIL_DEGREE) /* 56 */

/* The cache file name for graph g (without directory), NUL-terminated; name[88] suffices
 * ("v28-sdr-parent-" + 64 hex + ".cache"). */
void fil_parent_cache_name(char name[88], const fil_graph_t *g);

/* Generate the cache of g node by node in blocks, computing rows on `threads` threads (0 = one per
 * online CPU, OpenMP when available), and stream it to `f` (NULL: no file, digest only).
 * digest = SHA-256 of the whole content. progress (may be NULL) is called after each block with
 * nodes done and total. Memory: O(block) (a few MiB), independent of the sector size.
 * Errors: PM_ERR_IO (write failed; `path` names the file in the message), PM_ERR_NOMEM,
 * PM_ERR_ARG (threads > FIL_PARENT_CACHE_MAX_THREADS). */
#define FIL_PARENT_CACHE_MAX_THREADS 1024u
pm_status fil_parent_cache_generate(uint8_t digest[32], const fil_graph_t *g, FILE *f,
                                    const char *path, unsigned threads,
                                    void (*progress)(uint64_t done, uint64_t total, void *ctx),
                                    void *ctx, pm_error *err);

/* digest = SHA-256 of the file at path, read in 4 MiB blocks; *bytes (if non-NULL) = its size.
 * Errors: PM_ERR_IO naming the path. */
pm_status fil_parent_cache_file_digest(uint8_t digest[32], uint64_t *bytes, const char *path,
                                       pm_error *err);

/* The published digests (rust-fil-proofs storage-proofs-porep/parent_cache.json, mapped to porep
 * ids in POREP.md §3.4): the hex digest for the cache name, or NULL when the manifest has none. */
const char *fil_parent_cache_published_digest(const char *name);

#ifdef __cplusplus
}
#endif
#endif
