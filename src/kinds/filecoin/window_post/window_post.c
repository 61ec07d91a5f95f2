/*
 * window_post.c — the proof kind "window-post": one partition of Filecoin's WindowPoSt (the fallback
 * PoSt of up to sector_count sectors, 10 challenges each: 2349 at 32 GiB, 2300 at 64 GiB; a short
 * partition padded with its last sector), as Curio sends it: one request per partition, named by
 * partition_index. A deadline waits for it, so its jobs are "high" unless a request names a
 * priority. Inputs, keys and partitions: kinds/filecoin/vanilla_kind.h; the circuit:
 * circuits/filecoin/post_circuit.h; the vanilla side: filecoin/post.h.
 */
#include "kinds/filecoin/vanilla_kind.h"

PM_FIL_KIND_BIND(pm_fil_window_post)

static const char *const aliases[] = {"window", NULL};
static const char *const more[] = {"randomness", "registered_proof", "partition_index", "sector_size",
                                   "miner_id",   "prover_id",        NULL};

static const pm_kind window_post_kind = {
    .name = "window-post",
    .aliases = aliases,
    .summary = "Filecoin WindowPoSt partition: 1 bincode FallbackPoStSectorProof per sector -> 192 bytes",
    .max_inputs = 2349, /* WINDOW_POST_SECTOR_COUNT at 32 GiB, the largest; each size's is checked */
    .more_inputs = more,
    .key_hint = "Filecoin's come from `curio fetch-params <sector size>`; "
                "`proofmill window-post params-setup` makes test ones",
    .default_priority = "high",
    PM_FIL_KIND_MEMBERS,
};
PM_KIND_REGISTER(window_post_kind)
