/*
 * gadgets.h — the elementary gadgets of Filecoin's PoRep circuit, recording the same constraints in
 * the same order over the same variables as bellpepper/bellperson/neptune/rust-fil-proofs build
 * them, and computing their witness (cs.h modes). Shapes (A · B = C) per ../shared/filecoin/POREP.md
 * §6.3–6.4; sources: bellpepper-core 0.2.1 src/gadgets/boolean.rs, num.rs; bellperson 0.27
 * src/gadgets/uint32.rs, multieq.rs, multipack.rs, sha256.rs; neptune v11 src/circuit.rs;
 * rust-fil-proofs storage-proofs-core src/gadgets/{insertion,constraint,encode,uint64,por}.rs, util.rs.
 *
 * Values: every field element is fr_t in Montgomery form. Bit values are kept for every Boolean in
 * every mode (constant folding depends on them); Fr values only in PM_CS_WITNESS mode.
 * Argument order: output first, then cs, then inputs; an array's length right after it.
 */
#ifndef PROOFMILL_CIRCUITS_GADGETS_H
#define PROOFMILL_CIRCUITS_GADGETS_H

#include <stddef.h>
#include <stdint.h>

#include "circuits/cs.h"
#include "filecoin/poseidon.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Boolean (bellpepper-core boolean.rs) ---- */
enum { PM_B_CONST = 0, PM_B_IS = 1, PM_B_NOT = 2 };
typedef struct {
    uint8_t kind; /* PM_B_CONST, PM_B_IS (the variable), PM_B_NOT (1 - the variable) */
    uint8_t val;  /* the Boolean's value (after negation) */
    pm_var var;   /* IS/NOT: the AllocatedBit's variable */
} pm_bool;

static inline pm_bool pm_bool_const(int v) { pm_bool b = {PM_B_CONST, (uint8_t)(v != 0), 0}; return b; }
static inline pm_bool pm_bool_not(pm_bool b) {
    if (b.kind == PM_B_IS) b.kind = PM_B_NOT;
    else if (b.kind == PM_B_NOT) b.kind = PM_B_IS;
    b.val ^= 1;
    return b;
}
/* AllocatedBit::alloc: 1 aux, booleanity (ONE - a) * a = 0. */
pm_bool pm_bit_alloc(pm_cs *cs, int v);
/* lc += coef * b (Boolean::lc: Const(true) -> coef·ONE, Is -> coef·v, Not -> coef·ONE - coef·v). */
void pm_lc_add_bool(pm_lc *lc, const pm_bool *b, const fr_t *coef);
/* Boolean::xor / and (free when a constant is involved; otherwise 1 aux + 1 constraint). */
pm_bool pm_bool_xor(pm_cs *cs, pm_bool a, pm_bool b);
pm_bool pm_bool_and(pm_cs *cs, pm_bool a, pm_bool b);
/* Boolean::sha256_ch / sha256_maj with their constant cases, in bellpepper's order. */
pm_bool pm_bool_sha256_ch(pm_cs *cs, pm_bool a, pm_bool b, pm_bool c);
pm_bool pm_bool_sha256_maj(pm_cs *cs, pm_bool a, pm_bool b, pm_bool c);
/* AllocatedBit::nor / and on two allocated (unnegated) bits. */
pm_bool pm_bit_nor(pm_cs *cs, pm_bool a, pm_bool b);
pm_bool pm_bit_and(pm_cs *cs, pm_bool a, pm_bool b);

/* ---- UInt32 (bellperson uint32.rs), bits LSB first ---- */
typedef struct {
    pm_bool b[32];
    uint32_t val;
} pm_u32;

pm_u32 pm_u32_const(uint32_t v);
/* bits[32] big-endian (bits[0] = most significant). */
pm_u32 pm_u32_from_bits_be(const pm_bool *bits);
void pm_u32_to_bits_be(pm_bool *bits, const pm_u32 *x);
pm_u32 pm_u32_rotr(const pm_u32 *x, unsigned by);
pm_u32 pm_u32_shr(const pm_u32 *x, unsigned by);
pm_u32 pm_u32_xor(pm_cs *cs, const pm_u32 *a, const pm_u32 *b);
pm_u32 pm_u32_sha256_ch(pm_cs *cs, const pm_u32 *a, const pm_u32 *b, const pm_u32 *c);
pm_u32 pm_u32_sha256_maj(pm_cs *cs, const pm_u32 *a, const pm_u32 *b, const pm_u32 *c);

/* MultiEq (bellperson multieq.rs): packs several equalities into one constraint A = lhs, B = ONE,
 * C = rhs, emitted when the next one would reach 254 (Fr::CAPACITY) bits, and at pm_multieq_end. */
typedef struct {
    pm_cs *cs;
    unsigned bits_used;
    pm_lc lhs, rhs;
} pm_multieq;
void pm_multieq_begin(pm_multieq *m, pm_cs *cs);
void pm_multieq_end(pm_multieq *m);
/* UInt32::addmany (2 <= n <= 10): constant result if every bit is constant, else
 * bitlength(n·(2^32-1)) allocated result bits and one MultiEq equality; the low 32 bits returned. */
pm_u32 pm_u32_addmany(pm_multieq *m, const pm_u32 *ops, size_t n);

/* SHA-256 (bellperson sha256.rs `sha256`): in[n] bits (n % 8 == 0, message bit order: MSB of the
 * first byte first), standard padding as constants, one compression (own MultiEq) per block;
 * out[256] = the digest bits, big-endian words. */
void pm_sha256(pm_bool *out, pm_cs *cs, const pm_bool *in, size_t n);
/* One compression (sha256_compression_function): block[512], state in/out 8 words. */
void pm_sha256_compress(pm_u32 *out, pm_cs *cs, const pm_bool *block, const pm_u32 *state);

/* ---- numbers (bellpepper-core num.rs; bellperson multipack.rs; rfp constraint.rs) ---- */
/* AllocatedNum::to_bits_le (non-strict): 255 bits LSB first, then one constraint
 * A = 0, B = 0, C = Σ 2^i·b_i − num. 256 constraints, 255 aux. out[255]. */
void pm_num_to_bits_le(pm_bool *out, pm_cs *cs, pm_var num);
/* AllocatedNum::inputize: new Input x; A = x, B = ONE, C = num. Returns x. */
pm_var pm_num_inputize(pm_cs *cs, pm_var num);
/* multipack::pack_bits: first min(n, 254) bits LSB first into a new aux num; A = Σ, B = ONE, C = num. */
pm_var pm_pack_bits(pm_cs *cs, const pm_bool *bits, size_t n);
/* multipack::pack_into_inputs: per 254-bit chunk one new Input x; A = Σ, B = ONE, C = x. Returns
 * the number of inputs made. */
unsigned pm_pack_into_inputs(pm_cs *cs, const pm_bool *bits, size_t n);
/* constraint::equal: A = a, B = ONE, C = b. */
void pm_enforce_equal(pm_cs *cs, pm_var a, pm_var b);
/* constraint::add (encode): alloc s = a + b; A = a + b, B = ONE, C = s. */
pm_var pm_num_add(pm_cs *cs, pm_var a, pm_var b);
/* insertion.rs pick: c = cond ? a : b; A = b − a, B = cond, C = b − c. */
pm_var pm_pick(pm_cs *cs, pm_bool cond, pm_var a, pm_var b);
/* insertion.rs insert for arity 2, 4 (generic select is not needed) and 8: out[arity] = siblings
 * with cur placed at position index(bits, LSB first). bits: log2(arity) allocated unnegated bits. */
void pm_insert(pm_var *out, pm_cs *cs, pm_var cur, const pm_bool *bits, const pm_var *siblings,
               unsigned arity);

/* ---- Poseidon (neptune v11 circuit.rs `poseidon_hash`, the legacy circuit) ---- */
/* Hash c->arity allocated variables; returns the allocated result. Constraints = aux =
 * 3·(t·RF + RP − 1) + (t·RF + RP − arity): 311 / 505 / 598 for arity 2 / 8 / 11. */
pm_var pm_poseidon(pm_cs *cs, const fil_poseidon_t *c, const pm_var *in);

/* ---- Merkle inclusion (rfp por.rs PoRCircuit::synthesize, private root) ---- */
typedef enum { PM_POR_SHA256 = 1, PM_POR_POSEIDON = 2 } pm_por_hasher;
/* A path as witness: per level its arity, index (0..arity-1) and arity−1 siblings (Montgomery).
 * siblings may be NULL (blank synthesis: zeros). */
typedef struct {
    unsigned nlevels;
    const unsigned *arity;     /* nlevels */
    const uint32_t *index;     /* nlevels, or NULL */
    const fr_t *siblings;      /* Σ (arity−1) values, level order, or NULL */
} pm_por_path;
/* Per level: index bits (AllocatedBit, LSB first), siblings (AllocatedNum), insert, hash
 * (Poseidon of the arity, or SHA-256 of the two children's to_bits_le as rfp's
 * hash_multi_leaf_circuit); then pack_into_inputs(all index bits) and equal(computed, root).
 * Returns the computed root. */
pm_var pm_por_inclusion(pm_cs *cs, pm_por_hasher h, pm_var leaf, pm_var root, const pm_por_path *p);
/* rfp Sha256 hash_multi_leaf_circuit for two children: bits of each (to_bits_le, pad, per-byte
 * reversal), sha256, output per-byte reversed, first 254 bits, pack_bits. */
pm_var pm_sha256_hash2_nums(pm_cs *cs, pm_var a, pm_var b);

/* rfp util.rs reverse_bit_numbering: out[256] from in[255] (padded with constant false). */
void pm_reverse_bit_numbering_255(pm_bool *out, const pm_bool *in);

/* ---- gadgets of the SnapDeals circuit (rust-fil-proofs storage-proofs-update src/gadgets.rs,
 * storage-proofs-core gadgets/insertion.rs select and por.rs por_no_challenge_input; bellpepper-core
 * num.rs AllocatedNum::mul) ---- */
/* allocated_num_to_allocated_bits: field_into_allocated_bits_le (255 AllocatedBits LSB first, each
 * with booleanity) then one constraint A = Σ 2^i·b_i, B = ONE, C = num (not to_bits_le's form).
 * 256 constraints, 255 aux. out[255]. */
void pm_num_to_allocated_bits(pm_bool *out, pm_cs *cs, pm_var num);
/* AllocatedNum::mul: alloc p = a·b; A = a, B = b, C = p. */
pm_var pm_num_mul(pm_cs *cs, pm_var a, pm_var b);
/* insertion.rs select: from[2^nbits] by path bits (LSB first; consumed most significant first),
 * halving with pick(bit, upper half, lower half): 2^nbits − 1 constraints. */
pm_var pm_select(pm_cs *cs, const pm_var *from, const pm_bool *bits, unsigned nbits);
/* por_no_challenge_input: the path siblings are already allocated (sib: Σ (arity−1) variables,
 * level order); per level insert(cur, the level's bits of `bits`, siblings) and hash (Poseidon of
 * the arity, or the SHA-256 node hash for PM_POR_SHA256); then A = computed root, B = ONE, C = root.
 * No input is made. nlevels may be 0 (then only the root equality). */
void pm_por_no_challenge_input(pm_cs *cs, pm_por_hasher h, const pm_bool *bits, pm_var leaf, const pm_var *sib,
                               const unsigned *arity, unsigned nlevels, pm_var root);

#ifdef __cplusplus
}
#endif
#endif
