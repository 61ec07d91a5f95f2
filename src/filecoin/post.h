/*
 * post.h — the vanilla side of Filecoin's proofs of spacetime (WinningPoSt and WindowPoSt, the
 * "fallback" PoSt): registered proofs, configurations, challenge derivation, the vanilla proofs
 * Curio sends (bincode FallbackPoStSectorProof, one per sector), a prover over our own test sectors,
 * a vanilla verifier, the arrangement of one partition for the circuit and its public inputs.
 *
 * Sources (read for facts, ../shared is not needed): rust-fil-proofs @87348a7
 * storage-proofs-post src/fallback/{vanilla,circuit,compound,utils}.rs, filecoin-proofs
 * src/api/{post_util,winning_post,window_post}.rs, parameters.rs (winning/window setup params),
 * constants.rs (WINNING_POST_CHALLENGE_COUNT 66, WINNING_POST_SECTOR_COUNT 1,
 * WINDOW_POST_CHALLENGE_COUNT 10, WINDOW_POST_SECTOR_COUNT), types/mod.rs
 * (FallbackPoStSectorProof); rust-filecoin-proofs-api @0e64ce8 src/registry.rs (RegisteredPoStProof,
 * versions), src/post.rs (bincode of each vanilla proof); curio @e0294b0 lib/ffi/cuzk_funcs.go and
 * extern/cuzk/cuzk-core/src/prover.rs (numeric ids, prover id from the miner id, one bincode blob per
 * sector, 32-byte randomness, partition index).
 *
 * Model.
 *  - A vanilla sector proof (FallbackPoStSectorProof {sector_id: u64, comm_r: D, vanilla_proof:
 *    Proof {sectors: Vec<SectorProof {inclusion_proofs: Vec<MerkleProof>, comm_c: D,
 *    comm_r_last: D}>}}) opens the sector's tree R_last (Poseidon, shape 8-s-t of the size) at the
 *    challenged leaves: WinningPoSt 66 leaves of its one sector, WindowPoSt 10 leaves per sector.
 *  - Leaf challenge (generate_leaf_challenge_inner): SHA-256(randomness[32] ‖ sector_id u64 LE ‖
 *    challenge_index u64 LE), first 8 digest bytes as u64 LE, mod nodes. challenge_index
 *    (utils.rs get_challenge_index): API V1_0_0 / V1_1_0: sector_index · challenge_count + n; V1_2_0:
 *    n. WinningPoSt is always V1_0_0; WindowPoSt V1 ids are V1_0_0, the V1_2 ids V1_2_0.
 *    sector_index = partition · sectors_per_partition + position in the partition.
 *  - The circuit (fallback::PublicParams): WindowPoSt: sector_count sectors (2349 at 32 GiB, 2300
 *    at 64 GiB, 2 otherwise) × 10 challenges, short partitions padded with the last sector;
 *    WinningPoSt: 66 "sectors" of 1 challenge each: the one sector's 66 inclusion proofs unrolled
 *    (post_util.rs single_partition_vanilla_proofs), public sector i = the same sector, challenge
 *    index i (V1_0_0).
 *  - Public inputs per circuit sector (compound.rs generate_public_inputs): comm_r, then per
 *    challenge the leaf index (the packed path bits) as Fr.
 *  - prover_id: the miner actor id's address payload (unsigned LEB128, zero-padded to 32 bytes);
 *    it enters only the WinningPoSt sector selection (fil_winning_post_sector_challenge).
 *  - randomness and commitments must be canonical Fr (filecoin-proofs `as_safe_commitment`).
 * All 32-byte values are domain bytes (LE canonical Fr). Errors: pm_status + pm_error naming the
 * sector (position and id), the challenge and the field.
 */
#ifndef PROOFMILL_FILECOIN_POST_H
#define PROOFMILL_FILECOIN_POST_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"
#include "filecoin/merkle.h"
#include "filecoin/sizes.h"
#include "filecoin/vanilla_proof.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FIL_WINNING_POST_CHALLENGE_COUNT 66u
#define FIL_WINNING_POST_SECTOR_COUNT 1u
#define FIL_WINDOW_POST_CHALLENGE_COUNT 10u

typedef enum { FIL_POST_WINNING = 1, FIL_POST_WINDOW = 2 } fil_post_type_t;

/* A registered PoSt proof. Ids as filecoin-ffi / go-state-types number them and Curio sends them:
 *  0-4   StackedDrgWinning{2KiB,8MiB,512MiB,32GiB,64GiB}V1    V1_0_0
 *  5-9   StackedDrgWindow{...}V1                              V1_0_0
 * 10-14  StackedDrgWindow{...}V1_2 (ffi "V1_1")               V1_2_0 (grindability fix) */
typedef struct {
    unsigned id;
    const char *name;
    fil_post_type_t type;
    uint64_t sector_size;
    fil_api_version_t api_version;
} fil_registered_post_t;

#define FIL_REGISTERED_POST_COUNT 15u
const fil_registered_post_t *fil_registered_post(unsigned id); /* NULL when out of range */

/* WINDOW_POST_SECTOR_COUNT of a sector size: fil_window_post_sector_count (param_names.h, where the
 * parameter names need it too). */

/* A PoSt configuration: the vanilla view (PoStConfig) and the circuit's (fallback::PublicParams). */
typedef struct {
    fil_post_type_t type;
    fil_api_version_t api_version;
    uint64_t sector_size, nodes;
    unsigned challenge_count;    /* PoStConfig: inclusion proofs per vanilla sector proof (66 / 10) */
    unsigned sector_count;       /* PoStConfig: sectors per request / partition (1 / 2349 ...) */
    unsigned circuit_sectors;    /* circuit sectors per partition (66 / sector_count) */
    unsigned circuit_challenges; /* challenges per circuit sector (1 / 10) */
    fil_tree_shape_t tree;       /* tree R_last (Poseidon) */
} fil_post_config_t;

/* The configuration of a registered proof (id 0..14). Errors: PM_ERR_ARG (unknown id). */
pm_status fil_post_config(fil_post_config_t *c, unsigned registered_proof, pm_error *err);
/* The same for any sector size of sizes.h (the circuit exists for all ten), type and version.
 * Errors: PM_ERR_ARG (size, type). */
pm_status fil_post_config_for(fil_post_config_t *c, fil_post_type_t type, uint64_t sector_size,
                              fil_api_version_t v, pm_error *err);
/* A test shape (rust-fil-proofs' fallback_circuit.rs tests): `leaves` leaves in a Poseidon tree
 * 8-sub-top, circuit_sectors × circuit_challenges, WindowPoSt rules, API V1_1_0.
 * Errors: PM_ERR_ARG. */
pm_status fil_post_config_custom(fil_post_config_t *c, uint64_t leaves, unsigned sub, unsigned top,
                                 unsigned sectors, unsigned challenges, pm_error *err);

/* ---- challenges ---- */
uint64_t fil_post_challenge_index(fil_api_version_t v, uint64_t sector_index, unsigned challenge_count,
                                  unsigned n);
/* generate_leaf_challenge: the challenged leaf in [0, nodes). */
uint64_t fil_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id, uint64_t challenge_index,
                                 uint64_t nodes);
/* The challenged leaves of one vanilla sector proof (c->challenge_count of them), as
 * post_util.rs generate_fallback_sector_challenges: sector_index = partition · sector_count + i
 * (WinningPoSt: 0). out[c->challenge_count]. */
void fil_post_sector_challenges(uint64_t *out, const fil_post_config_t *c, const uint8_t randomness[32],
                                uint64_t sector_id, uint64_t sector_index);
/* generate_sector_challenge: the n-th challenged sector of a WinningPoSt (an index into the
 * prover's sector set of sector_set_len > 0 sectors): SHA-256(prover_id ‖ randomness ‖ n u64 LE),
 * first 8 bytes LE mod sector_set_len. */
uint64_t fil_winning_post_sector_challenge(const uint8_t randomness[32], const uint8_t prover_id[32], uint64_t n,
                                           uint64_t sector_set_len);

/* ---- vanilla proofs ---- */
typedef struct { /* storage-proofs-post fallback::SectorProof */
    uint32_t n_inclusion;
    fil_merkle_proof_t *inclusion; /* leaf = replica node, root = comm_r_last */
    uint8_t comm_c[32], comm_r_last[32];
} fil_post_sector_vanilla_t;

typedef struct { /* filecoin-proofs FallbackPoStSectorProof */
    uint64_t sector_id;
    uint8_t comm_r[32];
    uint32_t n_sectors;            /* vanilla_proof.sectors (1 as generate_single_vanilla_proof makes it) */
    fil_post_sector_vanilla_t *sectors;
} fil_post_sector_proof_t;

/* The vanilla proofs of one request, in request order; everything lives in the arena. */
typedef struct {
    size_t n;
    fil_post_sector_proof_t *proofs;
    fil_arena_t arena;
} fil_post_vanilla_set_t;

/* Parse one bincode FallbackPoStSectorProof (bincode.h rules) from data[len] into *p (memory from
 * a). name labels errors (the blob's name, e.g. "vanilla_proofs[3]"). Errors: PM_ERR_FORMAT with
 * the offset (truncated, huge lengths, wrong enum tags, trailing bytes), PM_ERR_NOMEM. */
pm_status fil_post_sector_proof_read(fil_post_sector_proof_t *p, fil_arena_t *a, const uint8_t *data, size_t len,
                                     const char *name, pm_error *err);
/* Serialise *p (bincode); *out malloc'd. Errors: PM_ERR_NOMEM. */
pm_status fil_post_sector_proof_write(uint8_t **out, size_t *len, const fil_post_sector_proof_t *p, pm_error *err);
/* Parse n blobs into set (zeroed first; fil_post_vanilla_set_free releases it). Blob i is named
 * "<name>[i]". Errors as fil_post_sector_proof_read; PM_ERR_ARG when n == 0. */
pm_status fil_post_vanilla_set_read(fil_post_vanilla_set_t *set, const uint8_t *const *blobs, const size_t *lens,
                                    size_t n, const char *name, pm_error *err);
void fil_post_vanilla_set_free(fil_post_vanilla_set_t *set);

struct fil_seal;
/* The vanilla proof of a sealed test sector (seal.h; its tree R_last, comm_c, comm_r_last, comm_r,
 * sector id) for this randomness, as generate_single_vanilla_proof makes it: one SectorProof with
 * c->challenge_count inclusion proofs at fil_post_sector_challenges(..., sector_index).
 * Errors: PM_ERR_ARG (seal of another sector size or not completed), PM_ERR_NOMEM. */
pm_status fil_post_prove_seal(fil_post_sector_proof_t *p, fil_arena_t *a, const fil_post_config_t *c,
                              const struct fil_seal *s, const uint8_t randomness[32], uint64_t sector_index,
                              pm_error *err);
/* A synthetic vanilla proof of the right shape for sizes too big to seal here (512 MiB, 32 GiB,
 * 64 GiB): tree R_last is sparse (merkle.h) with leaf values at the challenged leaves derived
 * from (seed, sector_id, leaf) and every other leaf 0; comm_c = trim(SHA-256("proofmill synthetic
 * comm_c" ‖ seed ‖ sector_id)); comm_r = Poseidon_2(comm_c, root). Internally consistent: it passes
 * fil_post_verify and satisfies the circuit, but no real sector has it. Errors: PM_ERR_NOMEM. */
pm_status fil_post_prove_synthetic(fil_post_sector_proof_t *p, fil_arena_t *a, const fil_post_config_t *c,
                                   uint64_t sector_id, uint64_t seed, const uint8_t randomness[32],
                                   uint64_t sector_index, pm_error *err);

/* The vanilla verifier of one request: WinningPoSt: exactly one sector proof; WindowPoSt: 1 ..
 * sector_count sector proofs of partition `partition` (sector_index = partition · sector_count +
 * i). Checks (FallbackPoSt::verify, plus what the circuit needs): randomness canonical; each proof
 * has one SectorProof with challenge_count inclusion proofs; comm_r, comm_c, comm_r_last canonical;
 * comm_r = Poseidon_2(comm_c, comm_r_last); every inclusion proof has the tree's shape, root =
 * comm_r_last, opens the derived challenge, hashes to its root, and its leaf and siblings are
 * canonical. Errors: PM_ERR_MISMATCH / PM_ERR_ENCODING naming "sector i (id N)", "challenge n
 * (leaf L)" and the field (comm_r, comm_c, comm_r_last, inclusion_proofs[n].root, .leaf, .path ...);
 * PM_ERR_ARG for a wrong count of sector proofs. */
pm_status fil_post_verify(const fil_post_config_t *c, const uint8_t randomness[32], const fil_post_sector_proof_t *p,
                          size_t n, uint32_t partition, pm_error *err);

/* ---- one partition as the circuit sees it ---- */
typedef struct {
    uint64_t sector_id;
    const uint8_t *comm_r, *comm_c, *comm_r_last; /* 32 bytes each (pointers into the vanilla proofs) */
    const fil_merkle_proof_t *proofs;              /* circuit_challenges inclusion proofs */
} fil_post_circuit_sector_t;

/* s[c->circuit_sectors]: WindowPoSt: the sector proofs in order, the last repeated up to
 * sector_count; WinningPoSt: sector i = inclusion proof i of the one sector. s points into p.
 * Errors: PM_ERR_ARG / PM_ERR_MISMATCH (counts; names the sector). */
pm_status fil_post_arrange(fil_post_circuit_sector_t *s, const fil_post_config_t *c, const fil_post_sector_proof_t *p,
                           size_t n, pm_error *err);

/* The public inputs of the partition (ONE not included), as a verifier derives them from the
 * randomness, the partition index and the public sectors (id, comm_r) of the request — never from
 * the inclusion proofs: out[c->circuit_sectors · (1 + circuit_challenges)] = per circuit sector
 * comm_r, then each challenged leaf index. ids[n], comm_r[n]: WindowPoSt the partition's sectors
 * (padded with the last), WinningPoSt the one sector (n = 1). Montgomery form.
 * Errors: PM_ERR_ARG (counts, n_out), PM_ERR_ENCODING (comm_r or randomness >= r). */
pm_status fil_post_public_inputs(fr_t *out, size_t n_out, const fil_post_config_t *c, const uint8_t randomness[32],
                                 const uint64_t *ids, const uint8_t (*comm_r)[32], size_t n, uint32_t partition,
                                 pm_error *err);

/* ---- one request (what Curio sends for one WinningPoSt or one WindowPoSt partition) ---- */
struct fil_proof_request;
typedef struct {
    const fil_registered_post_t *rp;
    fil_post_config_t cfg;
    uint64_t miner_id;
    uint8_t prover_id[32], randomness[32];
    uint32_t partition;                 /* WindowPoSt partition index; 0 for WinningPoSt */
    fil_post_vanilla_set_t vanilla;     /* the request's sector proofs, in order */
    fil_post_circuit_sector_t *sectors; /* cfg.circuit_sectors, arranged (fil_post_arrange) */
    uint64_t *ids;                      /* the public sectors: vanilla.n ids and comm_r */
    uint8_t (*comm_r)[32];
} fil_post_job_t;

/* Take a request (proof_request.h) of type `want`: registered proof of that type (else PM_ERR_ARG
 * naming it), randomness present, the bincode sector proofs parsed (PM_ERR_FORMAT with offsets),
 * prover_id from miner_id (or the request's prover_id, which must be miner_id's when both are
 * given: PM_ERR_MISMATCH), the partition arranged for the circuit (counts: PM_ERR_ARG /
 * PM_ERR_MISMATCH). The vanilla proofs are not verified here (fil_post_job_verify). */
pm_status fil_post_job_init(fil_post_job_t *j, fil_post_type_t want, const struct fil_proof_request *r, pm_error *err);
/* fil_post_verify over the job's sector proofs. */
pm_status fil_post_job_verify(const fil_post_job_t *j, pm_error *err);
/* The job's public inputs (fil_post_public_inputs). */
pm_status fil_post_job_public_inputs(fr_t *out, size_t n, const fil_post_job_t *j, pm_error *err);
void fil_post_job_free(fil_post_job_t *j);

#ifdef __cplusplus
}
#endif
#endif
