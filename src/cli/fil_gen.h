/*
 * fil_gen.h — a WinningPoSt, WindowPoSt or SnapDeals request (filecoin/proof_request.h, cuzk.v1
 * SubmitProofRequest fields) over our own test sectors, as `proofmill winning-post | window-post |
 * snapdeals gen` writes it (cmd_proof_kinds.c) and `proofmill selfcheck` proves it with the genuine
 * 2 KiB parameters (cmd_selfcheck.c). The sectors are sealed here at 2 KiB and 8 MiB (V1_1 seal
 * proofs; SnapDeals: a random-data update of a sealed CC sector), synthetic at bigger sizes; every
 * value is derived from the seed, the miner and the sector ids, so a request is reproducible byte
 * for byte.
 */
#ifndef PROOFMILL_CLI_FIL_GEN_H
#define PROOFMILL_CLI_FIL_GEN_H

#include <stdint.h>

#include "filecoin/c1_json.h"
#include "filecoin/proof_request.h"
#include "kinds/filecoin/vanilla_kind.h"
#include "util/error.h"

typedef struct {
    uint64_t seed;      /* the randomness, the update data and synthetic sectors */
    uint64_t miner;     /* the miner id (`gen`'s default 1000) */
    uint64_t sectors;   /* WindowPoSt: sectors in the partition, 1..the partition's sector count
                           (0: 1); the other kinds: ignored (one sector) */
    uint32_t partition; /* WindowPoSt: the partition index; the other kinds: ignored (0) */
} pm_cli_fil_gen_opts;

/* 1 when sectors of sector_size (bytes) are sealed here (2 KiB, 8 MiB), 0 when `gen` makes
 * synthetic ones. */
int pm_cli_fil_sealable(uint64_t sector_size);

/* A request of key s's kind (s->d: pm_fil_winning_post, pm_fil_window_post or pm_fil_snapdeals)
 * and sector size, with s's registered proof (WindowPoSt: s->pc.api_version's), into *r, which the
 * caller zeroes first and frees with fil_proof_request_free (also after an error). PoSt: one vanilla
 * proof per sector (sector ids 1..n, WindowPoSt sector indexes from partition * sector_count),
 * SnapDeals: one per partition of sector 1's update. Seconds at 2 KiB (sealing), minutes at 8 MiB.
 * Errors: PM_ERR_ARG (no registered proof of this kind, size and API version; more sectors than a
 * partition holds), the sealing's and the vanilla provers' errors, PM_ERR_NOMEM. */
pm_status pm_cli_fil_gen(fil_proof_request_t *r, const pm_fil_key *s, const pm_cli_fil_gen_opts *o, pm_error *err);

/* The C1 output (filecoin/c1_json.h) of a 2 KiB or 8 MiB test sector sealed here: CC data,
 * registered proof StackedDrg<size>V1_1, miner 1000, sector 1, ticket = 32 bytes of ticket_byte and
 * seed = 32 bytes of seed_byte (each with byte 31's top two bits cleared: an Fr element). *c1 is
 * the caller's to fil_c1_free (zeroed on error). Seconds at 2 KiB. Errors: PM_ERR_ARG (a size not
 * sealed here), the sealing's and fil_c1_from_seal's. */
pm_status pm_cli_fil_test_c1(fil_c1_t *c1, uint64_t sector_size, uint8_t ticket_byte, uint8_t seed_byte, pm_error *err);

#endif
