/*
 * seal.h — sealing a test sector in memory (PC1 + PC2) for the StackedDRG PoRep, as the input of
 * C1 (vanilla_proof.h). Meant for 2 KiB / 8 MiB / 512 MiB sectors: everything (data, all layers'
 * labels, trees D, C, R_last) is kept in RAM: about (3 + layers + 2·8/7) × sector bytes.
 *
 * Steps (rust-fil-proofs storage-proofs-porep stacked/vanilla/proof.rs `replicate_phase1/2`,
 * params.rs `generate_replica_id`; POREP.md §4):
 *   tree D = SHA-256 binary tree over the data nodes; comm_d = its root (merkle.h);
 *   replica_id = trim(SHA-256(prover_id ‖ sector_id BE ‖ ticket ‖ comm_d ‖ porep_id));
 *   labels of layers 1..L (labels.h) on the SDR graph of the registered proof's porep_id and
 *   API version (graph.h);
 *   tree C over the column hashes (tree_c.h); comm_c = root;
 *   tree R_last over key + data (tree_r.h); comm_r_last = root;
 *   comm_r = Poseidon_2(comm_c, comm_r_last).
 * All 32-byte values are LE canonical Fr bytes (domains).
 *
 * Data: `data` is the fr32-padded sector (sector_size bytes; every node < r); NULL means an
 * all-zero (CC) sector. fil_fr32_pad turns unpadded bytes into that form.
 */
#ifndef PROOFMILL_FILECOIN_SEAL_H
#define PROOFMILL_FILECOIN_SEAL_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/graph.h"
#include "filecoin/merkle.h"
#include "filecoin/sizes.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned registered_proof;   /* id (sizes.h), e.g. 5 = StackedDrg2KiBV1_1 */
    const uint8_t *data;         /* sector_size bytes of padded data, or NULL for zeros */
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32];
} fil_seal_params_t;

typedef struct fil_seal {
    const fil_sector_info_t *si;
    const fil_registered_proof_t *rp;
    uint8_t porep_id[32], prover_id[32], ticket[32];
    uint64_t sector_id;
    uint8_t replica_id[32], comm_d[32], comm_c[32], comm_r_last[32], comm_r[32];
    fil_graph_t graph;
    fil_tree_shape_t shape_d, shape_cr;
    fil_tree_t tree_d;    /* level[0] = the data nodes */
    fil_tree_t tree_c, tree_r;
    uint8_t *labels;      /* layer-major: labels[(l·nodes + v)·32] = label(l+1, v) */
    double sec_tree_d, sec_labels, sec_tree_c, sec_tree_r; /* wall time per step */
    int done;
} fil_seal_t;

/* Seal. On success *s owns everything (free with fil_seal_free). Interactive and
 * non-interactive registered proofs (NI replicates identically; only C1's challenges and partition
 * count differ). Errors: PM_ERR_ARG (unknown registered proof, synthetic-PoRep feature),
 * PM_ERR_ENCODING (a data node ≥ r, offset = its byte offset), PM_ERR_NOMEM. */
pm_status fil_seal_run(fil_seal_t *s, const fil_seal_params_t *p, pm_error *err);
void fil_seal_free(fil_seal_t *s);

/* fr32 padding (rust-fil-proofs fr32 crate): every 254 bits of the input (bits read least
 * significant first within each byte) are followed by 2 zero bits, so 127 input bytes become 128
 * output bytes and every 32-byte output node is < 2^254. out must hold ceil(len/127)·128 bytes
 * (a partial last chunk is zero-extended). */
void fil_fr32_pad(uint8_t *out, const uint8_t *in, size_t len);

#ifdef __cplusplus
}
#endif
#endif
