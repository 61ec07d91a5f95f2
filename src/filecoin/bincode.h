/*
 * bincode.h — the bincode 1.x encoding that rust-fil-proofs' vanilla proofs travel in (Curio sends
 * one bincode blob per PoSt sector and per SnapDeals partition), and the MerkleProof codec those
 * blobs share.
 *
 * Encoding (bincode 1.3.3 `bincode::serialize` / `deserialize`, the crate version rust-fil-proofs'
 * Cargo.lock pins; serde data model): fixed-width little-endian integers (u32 4 bytes, u64 and
 * usize 8 bytes); a struct is its fields in declaration order, nothing between them; a sequence
 * (Vec) is its length as u64 LE then the elements; a fixed array ([u8; 32], i.e. every Sha256Domain
 * / PoseidonDomain / commitment) is its 32 bytes with no length; a newtype (SectorId(u64)) is its
 * content; an enum is its variant index as u32 LE then the variant's fields; PhantomData and
 * #[serde(skip)] fields take no bytes.
 *
 * MerkleProof<H, B, S, T> (storage-proofs-core src/merkle/proof.rs): struct { data: ProofData }
 * with enum ProofData { Single(SingleProof) = 0, Sub(SubProof) = 1, Top(TopProof) = 2 };
 *   SingleProof { root: D, leaf: D, path: InclusionPath }
 *   SubProof    { base_proof: InclusionPath, sub_proof: InclusionPath, root: D, leaf: D }
 *   TopProof    { base_proof, sub_proof, top_proof: InclusionPath, root: D, leaf: D }
 *   InclusionPath { path: Vec<PathElement> }, PathElement { hashes: Vec<D>, index: usize }
 * (`_arity: PhantomData` is #[serde(skip)]). So a Sub proof of a 32 GiB tree R is 2,484 bytes.
 *
 * Reading rules (hostile input; every refusal is PM_ERR_FORMAT naming the input and the absolute
 * byte offset of the field): a length is checked against the bytes that remain (and against the
 * caller's limit) before anything is allocated; an enum tag outside the variants is refused; a
 * path element with no sibling or more than 7 (arity 1 or > 8) or a path of more than
 * FIL_MERKLE_MAX_LEVELS elements is refused (no Filecoin tree has them); what is allocated is at
 * most 5 times the bytes read (a path element is 48 bytes at least, 240 in memory); readers of whole blobs refuse trailing bytes
 * (bincode's own deserialize would ignore them; Curio never sends any). Domain bytes are copied as
 * they are: whether they are canonical Fr is checked where they are used (vanilla verifiers,
 * witness), which name the field.
 *
 * Writing: a growable byte buffer (fil_bc_buf); out-of-memory is sticky (buf.oom) and reported by
 * the caller once.
 */
#ifndef PROOFMILL_FILECOIN_BINCODE_H
#define PROOFMILL_FILECOIN_BINCODE_H

#include <stddef.h>
#include <stdint.h>

#include "filecoin/merkle.h"
#include "filecoin/vanilla_proof.h"
#include "util/error.h"
#include "util/file.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Read a Vec length (u64 LE) at the cursor: n must be <= max and n * min_elem_bytes must fit in
 * the bytes left (so a huge length is refused before any allocation). what names the field.
 * Errors: PM_ERR_FORMAT ("truncated", "length N exceeds ..."). */
pm_status fil_bc_len(uint64_t *n, pm_reader *r, uint64_t min_elem_bytes, uint64_t max, const char *what,
                     pm_error *err);
/* Read an enum variant index (u32 LE); it must be < nvariants. Errors: PM_ERR_FORMAT. */
pm_status fil_bc_tag(uint32_t *tag, pm_reader *r, uint32_t nvariants, const char *what, pm_error *err);
/* Copy 32 domain bytes. Errors: PM_ERR_FORMAT (truncated). */
pm_status fil_bc_domain(uint8_t out[32], pm_reader *r, const char *what, pm_error *err);
/* Refuse bytes left after a complete value. Errors: PM_ERR_FORMAT "N trailing bytes". */
pm_status fil_bc_end(const pm_reader *r, const char *what, pm_error *err);

/* Read one MerkleProof at the cursor into *p (elems from arena a: exactly nbase + nsub + ntop of
 * them, one at least). what names it in messages
 * ("sector 3: inclusion proof 7"). Errors: PM_ERR_FORMAT, PM_ERR_NOMEM. */
pm_status fil_bc_read_merkle_proof(fil_merkle_proof_t *p, pm_reader *r, fil_arena_t *a, const char *what,
                                   pm_error *err);

/* Parse n blobs (blob i named "<name>[i]") with rd into an arena array of n items of item_size
 * bytes (*items; memory from a). Errors: PM_ERR_ARG (n == 0), rd's, PM_ERR_NOMEM. */
typedef pm_status (*fil_bc_blob_reader)(void *item, fil_arena_t *a, const uint8_t *data, size_t len,
                                        const char *name, pm_error *err);
pm_status fil_bc_read_blobs(void **items, size_t item_size, fil_arena_t *a, const uint8_t *const *blobs,
                            const size_t *lens, size_t n, const char *name, fil_bc_blob_reader rd, pm_error *err);

/* ---- writing ---- */
typedef struct {
    uint8_t *p;
    size_t n, cap;
    int oom;
} fil_bc_buf;

void fil_bc_put_u32(fil_bc_buf *b, uint32_t v);
void fil_bc_put_u64(fil_bc_buf *b, uint64_t v);
void fil_bc_put_bytes(fil_bc_buf *b, const void *data, size_t n);
/* A MerkleProof in the layout above (variant from p->kind). */
void fil_bc_put_merkle_proof(fil_bc_buf *b, const fil_merkle_proof_t *p);
/* Hand the bytes to the caller (*out malloc'd, *n bytes) and reset b. Errors: PM_ERR_NOMEM when
 * any put ran out of memory (nothing returned). */
pm_status fil_bc_finish(uint8_t **out, size_t *n, fil_bc_buf *b, pm_error *err);
void fil_bc_buf_free(fil_bc_buf *b);

#ifdef __cplusplus
}
#endif
#endif
