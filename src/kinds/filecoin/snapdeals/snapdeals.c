/*
 * snapdeals.c — the proof kind "snapdeals": Filecoin's SnapDeals (EmptySectorUpdate) proof of one
 * sector update, every partition of it (16 at 512 MiB and above, 4 at 8 MiB, 1 at 2 KiB; 86
 * challenges each at 32/64 GiB), one bincode PartitionProof per partition plus comm_r_old,
 * comm_r_new and comm_d_new. Inputs, keys and partitions: kinds/filecoin/vanilla_kind.h; the
 * circuit: circuits/filecoin/update_circuit.h; the vanilla side: filecoin/update.h.
 */
#include "kinds/filecoin/vanilla_kind.h"

static pm_status open_job(void **job, const pm_input *in, size_t n_in, pm_error *err) {
    return pm_fil_open_job(job, &pm_fil_snapdeals, in, n_in, err);
}
static pm_status open_key(void **id, const char *key_path, pm_error *err) {
    return pm_fil_open_key(id, &pm_fil_snapdeals, key_path, err);
}

static const char *const aliases[] = {"snap", "sector-update", NULL};
static const char *const more[] = {"comm_r_old", "comm_r_new",    "comm_d_new", "registered_proof",
                                   "sector_size", "sector_number", "miner_id",   NULL};

static const pm_kind snapdeals_kind = {
    .name = "snapdeals",
    .aliases = aliases,
    .summary = "Filecoin SnapDeals update: 1 bincode PartitionProof per partition + comm_r_old/new, comm_d_new -> "
               "192 bytes per partition",
    .conv = GROTH16_BELLPERSON,
    .input_name = PM_FIL_VANILLA,
    .max_inputs = 16,
    .more_inputs = more,
    .key_hint = "proofmill snapdeals params-setup makes test ones",
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
PM_KIND_REGISTER(snapdeals_kind)
