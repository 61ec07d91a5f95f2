/*
 * window_post.c — the proof kind "window-post": one partition of Filecoin's WindowPoSt (the fallback
 * PoSt of up to sector_count sectors, 10 challenges each: 2349 at 32 GiB, 2300 at 64 GiB; a short
 * partition padded with its last sector), as Curio sends it: one request per partition, named by
 * partition_index. A deadline waits for it, so its jobs are "high" unless a request names a
 * priority. Inputs, keys and partitions: kinds/filecoin/vanilla_kind.h; the circuit:
 * circuits/filecoin/post_circuit.h; the vanilla side: filecoin/post.h.
 */
#include "kinds/filecoin/vanilla_kind.h"

static pm_status open_job(void **job, const pm_input *in, size_t n_in, pm_error *err) {
    return pm_fil_open_job(job, &pm_fil_window_post, in, n_in, err);
}
static pm_status open_key(void **id, const char *key_path, pm_error *err) {
    return pm_fil_open_key(id, &pm_fil_window_post, key_path, err);
}

static const char *const aliases[] = {"window", NULL};
static const char *const more[] = {"randomness", "registered_proof", "partition_index", "sector_size",
                                   "miner_id",   "prover_id",        NULL};

static const pm_kind window_post_kind = {
    .name = "window-post",
    .aliases = aliases,
    .summary = "Filecoin WindowPoSt partition: 1 bincode FallbackPoStSectorProof per sector -> 192 bytes",
    .conv = GROTH16_BELLPERSON,
    .input_name = PM_FIL_VANILLA,
    .max_inputs = 2349, /* WINDOW_POST_SECTOR_COUNT at 32 GiB, the largest; each size's is checked */
    .more_inputs = more,
    .key_hint = "proofmill window-post params-setup makes test ones",
    .default_priority = "high",
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
PM_KIND_REGISTER(window_post_kind)
