/*
 * winning_post.c — the proof kind "winning-post": Filecoin's WinningPoSt (the fallback PoSt of one
 * sector, 66 challenges: 66 circuit sectors of 1 challenge, one partition), the proof a block
 * reward waits for, so its jobs are "critical" unless a request names a priority.
 * Inputs, keys and partitions: kinds/filecoin/vanilla_kind.h; the circuit:
 * circuits/filecoin/post_circuit.h; the vanilla side: filecoin/post.h.
 */
#include "kinds/filecoin/vanilla_kind.h"

static pm_status open_job(void **job, const pm_input *in, size_t n_in, pm_error *err) {
    return pm_fil_open_job(job, &pm_fil_winning_post, in, n_in, err);
}
static pm_status open_key(void **id, const char *key_path, pm_error *err) {
    return pm_fil_open_key(id, &pm_fil_winning_post, key_path, err);
}

static const char *const aliases[] = {"winning", NULL};
static const char *const more[] = {"randomness", "registered_proof", "sector_size", "miner_id", "prover_id", NULL};

static const pm_kind winning_post_kind = {
    .name = "winning-post",
    .aliases = aliases,
    .summary = "Filecoin WinningPoSt: 1 bincode FallbackPoStSectorProof + randomness -> 192 bytes",
    .conv = GROTH16_BELLPERSON,
    .input_name = PM_FIL_VANILLA,
    .max_inputs = 1,
    .more_inputs = more,
    .key_hint = "proofmill winning-post params-setup makes test ones",
    .default_priority = "critical",
    .open_job = open_job,
    .close_job = pm_fil_close_job,
    .partitions = pm_fil_partitions,
    .key_path = pm_fil_key_path,
    .open_key = open_key,
    .close_key = pm_fil_close_key,
    .check_job = pm_fil_check_job,
    .circuit = pm_fil_circuit,
    .witness = pm_fil_witness,
    .public_inputs = pm_fil_public_inputs,
    .name_row = pm_fil_name_row,
};
PM_KIND_REGISTER(winning_post_kind)
