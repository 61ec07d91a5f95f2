/*
 * fuzz_snap_vanilla.c — libFuzzer harness of Curio's bincode SnapDeals PartitionProof (filecoin/
 * update.h), the vanilla proof of one update partition. Input: comm_r_old, comm_d_new and
 * comm_r_new (32 bytes each), then one bincode blob. The blob is read alone
 * (fil_update_partition_proof_read; what it holds must stay within bincode.h's bound of 5x the
 * blob's bytes), then as the only vanilla input of a 2 KiB SnapDeals job
 * (registered update proof 0: one partition) with those commitments, opened, verified and
 * synthesized as the engine does (fuzz_kinds.h). Seeds: fuzz_seeds (an update of a sealed 2 KiB
 * sector).
 */
#include "fuzz_kinds.h"

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    if (n < 96) return 0;
    const uint8_t *blob = d + 96;
    size_t bn = n - 96;
    fil_arena_t a = {0};
    fil_update_partition_proof_t p;
    pm_error e;
    if (fil_update_partition_proof_read(&p, &a, blob, bn, "fuzz.bin", &e) == PM_OK) {
        sink += p.n_apex + p.n_challenges;
        fuzz_arena_bound(&a, bn, "fuzz_snap_vanilla");
    }
    fil_arena_free(&a);
    pm_input in[5] = {
        {.kind = PM_INPUT_BYTES, .bytes = blob, .len = bn},
        {.kind = PM_INPUT_BYTES, .bytes = d, .len = 32, .name = "comm_r_old"},
        {.kind = PM_INPUT_BYTES, .bytes = d + 32, .len = 32, .name = "comm_d_new"},
        {.kind = PM_INPUT_BYTES, .bytes = d + 64, .len = 32, .name = "comm_r_new"},
        {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)"0", .len = 1, .name = "registered_proof"},
    };
    fuzz_fil_job("snapdeals", in, 5);
    return 0;
}
