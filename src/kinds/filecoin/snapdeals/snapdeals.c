/*
 * snapdeals.c — the proof kind "snapdeals": Filecoin's SnapDeals (EmptySectorUpdate) proof of one
 * sector update, every partition of it (16 at 512 MiB and above, 4 at 8 MiB, 1 at 2 KiB; 86
 * challenges each at 32/64 GiB), one bincode PartitionProof per partition plus comm_r_old,
 * comm_r_new and comm_d_new. Inputs, keys and partitions: kinds/filecoin/vanilla_kind.h; the
 * circuit: circuits/filecoin/update_circuit.h; the vanilla side: filecoin/update.h.
 */
#include "kinds/filecoin/vanilla_kind.h"

PM_FIL_KIND_BIND(pm_fil_snapdeals)

static const char *const aliases[] = {"snap", "sector-update", NULL};
static const char *const more[] = {"comm_r_old", "comm_r_new",    "comm_d_new", "registered_proof",
                                   "sector_size", "sector_number", "miner_id",   NULL};

static const pm_kind snapdeals_kind = {
    .name = "snapdeals",
    .aliases = aliases,
    .summary = "Filecoin SnapDeals update: 1 bincode PartitionProof per partition + comm_r_old/new, comm_d_new -> "
               "192 bytes per partition",
    .max_inputs = 16,
    .more_inputs = more,
    .key_hint = "Filecoin's come from `curio fetch-params <sector size>`; "
                "`proofmill snapdeals params-setup` makes test ones",
    PM_FIL_KIND_MEMBERS,
};
PM_KIND_REGISTER(snapdeals_kind)
