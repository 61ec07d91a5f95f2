/*
 * fuzz_post_vanilla.c — libFuzzer harness of Curio's bincode FallbackPoStSectorProof (filecoin/
 * post.h), the vanilla proof of one PoSt sector. Input: the 32 bytes of the PoSt randomness, then
 * one bincode blob. The blob is read alone (fil_post_sector_proof_read; what it holds must stay
 * within bincode.h's bound of 5x the blob's bytes), then as the vanilla input
 * of a 2 KiB WindowPoSt partition job (registered proof 10, partition 0, miner 1000) and of a 2 KiB
 * WinningPoSt job (registered proof 0, miner 1000) with that randomness, each opened, verified and
 * synthesized as the engine does (fuzz_kinds.h). Seeds: fuzz_seeds (the blobs of a sealed 2 KiB
 * sector for randomness tag 1).
 */
#include "fuzz_kinds.h"

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    if (n < 32) return 0;
    const uint8_t *blob = d + 32;
    size_t bn = n - 32;
    fil_arena_t a = {0};
    fil_post_sector_proof_t p;
    pm_error e;
    if (fil_post_sector_proof_read(&p, &a, blob, bn, "fuzz.bin", &e) == PM_OK) {
        if (p.n_sectors) sink += p.sectors[p.n_sectors - 1].n_inclusion;
        fuzz_arena_bound(&a, bn, "fuzz_post_vanilla");
    }
    fil_arena_free(&a);
    pm_input in[5] = {
        {.kind = PM_INPUT_BYTES, .bytes = blob, .len = bn},
        {.kind = PM_INPUT_BYTES, .bytes = d, .len = 32, .name = "randomness"},
        {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)"1000", .len = 4, .name = "miner_id"},
        {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)"10", .len = 2, .name = "registered_proof"},
        {.kind = PM_INPUT_BYTES, .bytes = (const uint8_t *)"0", .len = 1, .name = "partition_index"},
    };
    fuzz_fil_job("window-post", in, 5);
    in[3].bytes = (const uint8_t *)"0";
    in[3].len = 1;
    fuzz_fil_job("winning-post", in, 4);
    return 0;
}
