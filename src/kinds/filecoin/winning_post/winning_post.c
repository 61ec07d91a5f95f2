/*
 * winning_post.c — the proof kind "winning-post": Filecoin's WinningPoSt (the fallback PoSt of one
 * sector, 66 challenges: 66 circuit sectors of 1 challenge, one partition), the proof a block
 * reward waits for, so its jobs are "critical" unless a request names a priority.
 * Inputs, keys and partitions: kinds/filecoin/vanilla_kind.h; the circuit:
 * circuits/filecoin/post_circuit.h; the vanilla side: filecoin/post.h.
 */
#include "kinds/filecoin/vanilla_kind.h"

PM_FIL_KIND_BIND(pm_fil_winning_post)

static const char *const aliases[] = {"winning", NULL};
static const char *const more[] = {"randomness", "registered_proof", "sector_size", "miner_id", "prover_id", NULL};

static const pm_kind winning_post_kind = {
    .name = "winning-post",
    .aliases = aliases,
    .summary = "Filecoin WinningPoSt: 1 bincode FallbackPoStSectorProof + randomness -> 192 bytes",
    .max_inputs = 1,
    .more_inputs = more,
    .key_hint = "Filecoin's come from `curio fetch-params <sector size>`; "
                "`proofmill winning-post params-setup` makes test ones",
    .default_priority = "critical",
    PM_FIL_KIND_MEMBERS,
};
PM_KIND_REGISTER(winning_post_kind)
