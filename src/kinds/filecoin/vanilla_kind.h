/*
 * vanilla_kind.h — what the three Filecoin kinds proved from a storage provider's vanilla proofs
 * share: "winning-post" (winning_post/), "window-post" (window_post/) and "snapdeals" (snapdeals/).
 * Each of those folders fills its pm_kind (kinds/kind.h) with these functions and registers it; the
 * circuits are circuits/filecoin/post_circuit.h and update_circuit.h, the vanilla side
 * filecoin/post.h, update.h and proof_request.h.
 *
 * A job is one request as Curio's cuzk client sends it (cuzk.v1 SubmitProofRequest, curio
 * lib/ffi/cuzk_funcs.go), its fields given as the job's inputs, each a path or inline bytes:
 *   main input "vanilla", once per vanilla proof: PoSt one bincode FallbackPoStSectorProof per
 *     sector (WinningPoSt 1, WindowPoSt 1..sector_count of the partition: 2349 at 32 GiB, 2300 at
 *     64 GiB, 2 below), SnapDeals one bincode PartitionProof per partition (1, 4 or 16, all of them);
 *   further inputs named after the request's fields (proof_request.h encodings: numbers as decimal
 *     text, byte strings as their 32 raw bytes): registered_proof (required: the numeric
 *     RegisteredPoStProof / RegisteredUpdateProof), sector_size (checked against it), and
 *       PoSt: randomness (required), miner_id, prover_id (filecoin-ffi's; must be miner_id's when
 *             both are given), WindowPoSt also partition_index;
 *       SnapDeals: comm_r_old, comm_r_new, comm_d_new (required), miner_id, sector_number (named in
 *             nothing but kept for the request's shape).
 * Partitions: PoSt 1 (Curio sends one WindowPoSt partition per request), SnapDeals all of the sector
 * size's. Each partition is one 192-byte proof; the job's proof is the concatenation in partition
 * order, as filecoin-ffi returns it.
 * Keys: DIR/<stem>.params (+ .vk, + the recorded circuit DIR/<stem>.csr when present) under
 * Filecoin's names (filecoin/param_names.h fil_param_stem); the key's identity is the sector size
 * its stem names. Recorded circuits are tagged sector size + (fil_param_kind_t << 48), so a .csr of
 * another kind or size is refused.
 * The vanilla proofs are not run through the vanilla verifier on the proving path (that costs about
 * as much as the witness: `proofmill <kind> verify-vanilla` does it); a bad proof fails the
 * partition's constraint check, named by circuit sector, challenge and gadget (name_row), or its
 * witness (a value that does not fit: named by sector, challenge and field).
 */
#ifndef PROOFMILL_KINDS_FILECOIN_VANILLA_KIND_H
#define PROOFMILL_KINDS_FILECOIN_VANILLA_KIND_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/param_names.h"
#include "filecoin/post.h"
#include "filecoin/proof_request.h"
#include "filecoin/update.h"
#include "kinds/kind.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One of the three kinds. */
typedef struct {
    const char *name;           /* the registered kind name ("winning-post", ...) */
    const char *title;          /* "WinningPoSt", "WindowPoSt", "SnapDeals" */
    fil_request_kind_t req;     /* cuzk.v1 ProofKind */
    fil_param_kind_t param;     /* whose parameter names */
    fil_post_type_t post_type;  /* PoSt kinds; 0 for SnapDeals */
} pm_fil_kind_desc;

extern const pm_fil_kind_desc pm_fil_winning_post, pm_fil_window_post, pm_fil_snapdeals;
/* "vanilla": the main input's name */
#define PM_FIL_VANILLA "vanilla"

/* A job: the request's parse (post or upd). */
typedef struct {
    const pm_fil_kind_desc *d;
    uint64_t sector_size;
    fil_post_job_t post;
    fil_update_job_t upd;
    char name[512];             /* the first vanilla input's label: names the job in errors */
} pm_fil_job;

/* A key's identity: the circuit of a sector size. */
typedef struct {
    const pm_fil_kind_desc *d;
    uint64_t sector_size;
    fil_post_config_t pc;       /* PoSt (WindowPoSt at API 1.2: the circuit is the same for 1.0) */
    fil_update_config_t uc;     /* SnapDeals */
    char stem[256];             /* Filecoin's parameter file stem */
} pm_fil_key;

/* The request of inputs in[0..n] (borrowed; names checked by pm_kind_check_inputs) into *r (owned
 * by the caller: fil_proof_request_free): "vanilla" blobs in order, the further inputs as fields.
 * labels (may be NULL): labels[i] (512 bytes each, n of them) receive each vanilla blob's label.
 * Errors: PM_ERR_IO / PM_ERR_FORMAT reading an input (named), PM_ERR_ARG (registered_proof or
 * another required field missing), PM_ERR_NOMEM. */
pm_status pm_fil_request_of_inputs(fil_proof_request_t *r, const pm_fil_kind_desc *d, const pm_input *in, size_t n,
                                   char (*labels)[512], pm_error *err);
/* The reverse, for a request file given to the CLI: *in (n_in entries, inline bytes pointing into
 * r's blobs and into *store, which the caller frees with free() after the inputs) holds every
 * vanilla blob and every field kind k takes that r has (numbers always). Errors: PM_ERR_NOMEM. */
pm_status pm_fil_inputs_of_request(pm_input **in, size_t *n_in, uint8_t **store, const pm_kind *k,
                                   const fil_proof_request_t *r, pm_error *err);

/* The kind functions (kind.h), d choosing which of the three. */
pm_status pm_fil_open_job(void **job, const pm_fil_kind_desc *d, const pm_input *in, size_t n_in, pm_error *err);
void pm_fil_close_job(void *job);
uint32_t pm_fil_partitions(const void *job);
pm_status pm_fil_key_path(char *out, size_t cap, const char *params_dir, const void *job, pm_error *err);
pm_status pm_fil_open_key(void **id, const pm_fil_kind_desc *d, const char *key_path, pm_error *err);
void pm_fil_close_key(void *id);
pm_status pm_fil_check_job(const void *id, const char *key_path, const pm_key_shape *shape, const void *job,
                           pm_error *err);
pm_status pm_fil_circuit(pm_circuit *c, uint64_t *bytes, const void *id, const char *key_path, const char *csr_path,
                         pm_error *err);
pm_status pm_fil_witness(fr_t **w, size_t *n_w, const void *id, const void *job, uint32_t part, unsigned threads,
                         pm_error *err);
pm_status pm_fil_public_inputs(fr_t *x, size_t n_x, const void *id, const void *job, uint32_t part, const fr_t *w,
                               size_t n_w, pm_error *err);
void pm_fil_name_row(pm_error *err, const void *id, uint32_t row, uint32_t n_rows);

/* DIR/<stem>.params of d's circuit for sector_size, without a job (the kinds' key_for_size: gRPC
 * PreloadSRS / EvictSRS circuit ids such as "wpost-32g"). out: cap bytes.
 * Errors: PM_ERR_ARG (no such circuit for this size, path too long). */
pm_status pm_fil_key_path_for_size(char *out, size_t cap, const pm_fil_kind_desc *d, const char *params_dir,
                                   uint64_t sector_size, pm_error *err);

/* The planner's shape of d's key for sector_size without a file (the kinds' shape_for_size, kind.h):
 * the circuit's matrix facts (pm_post_record_facts / pm_update_record_facts: one and two sectors or
 * challenges synthesized with PM_CS_STATS, extended) put through kinds/shape.h's rules; facts (may
 * be NULL) receives them.
 * Errors: PM_ERR_ARG (no such circuit for this size), PM_ERR_NOMEM. */
pm_status pm_fil_shape_for_size(groth16_devplan_shape *s, pm_cs_facts *facts, const pm_fil_kind_desc *d,
                                uint64_t sector_size, pm_error *err);

/* What the three kinds' pm_kind share, given their descriptor d: PM_FIL_KIND_BIND(d) defines the
 * file's open_job, open_key, key_for_size and shape_for_size (d bound), PM_FIL_KIND_MEMBERS the
 * designated initializers of every member but name, aliases, summary, max_inputs, more_inputs,
 * key_hint and default_priority. */
#define PM_FIL_KIND_BIND(d)                                                                             \
    static pm_status open_job(void **job, const pm_input *in, size_t n_in, pm_error *err) {            \
        return pm_fil_open_job(job, &(d), in, n_in, err);                                               \
    }                                                                                                   \
    static pm_status open_key(void **id, const char *key_path, pm_error *err) {                        \
        return pm_fil_open_key(id, &(d), key_path, err);                                                \
    }                                                                                                   \
    static pm_status key_for_size(char *out, size_t cap, const char *params_dir, uint64_t size,         \
                                  pm_error *err) {                                                      \
        return pm_fil_key_path_for_size(out, cap, &(d), params_dir, size, err);                         \
    }                                                                                                   \
    static pm_status shape_for_size(groth16_devplan_shape *s, pm_cs_facts *f, uint64_t size,            \
                                    pm_error *err) {                                                    \
        return pm_fil_shape_for_size(s, f, &(d), size, err);                                            \
    }
#define PM_FIL_KIND_MEMBERS                                                                             \
    .conv = GROTH16_BELLPERSON, .input_name = PM_FIL_VANILLA, .open_job = open_job,                     \
    .close_job = pm_fil_close_job, .partitions = pm_fil_partitions, .key_path = pm_fil_key_path,        \
    .key_for_size = key_for_size, .shape_for_size = shape_for_size, .open_key = open_key,              \
    .close_key = pm_fil_close_key,                                                                      \
    .check_job = pm_fil_check_job,                                                                      \
    .circuit = pm_fil_circuit, .witness = pm_fil_witness, .public_inputs = pm_fil_public_inputs,        \
    .name_row = pm_fil_name_row

/* The key identity of sector_size for d without a file (circuit-info, record, params-setup):
 * Errors: PM_ERR_ARG (no such circuit for this size). */
pm_status pm_fil_key_for_size(pm_fil_key *k, const pm_fil_kind_desc *d, uint64_t sector_size, pm_error *err);
/* The recorded-circuit tag of k: sector size + (param kind << 48). */
uint64_t pm_fil_csr_tag(const pm_fil_key *k);
/* k's blank circuit recorded into *out (*n_inputs with ONE). */
pm_status pm_fil_record(r1cs_t *out, uint32_t *n_inputs, const pm_fil_key *k, pm_error *err);
/* The public inputs of partition part of job, derived as a verifier derives them (no witness):
 * x[n_x] (ONE excluded, Montgomery). Errors: PM_ERR_ARG (n_x, part), PM_ERR_ENCODING. */
pm_status pm_fil_derive_inputs(fr_t *x, size_t n_x, const pm_fil_job *job, uint32_t part, pm_error *err);
/* The vanilla verifier over the whole job (fil_post_job_verify / fil_update_job_verify): errors
 * name the sector or partition, the challenge and the field. */
pm_status pm_fil_verify_vanilla(const pm_fil_job *job, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
