/*
 * synth.h — synthetic satisfiable constraint systems with their witness (for benchmarks and
 * tests of any size), and writers for circom .r1cs (version 1) and .wtns (version 2) files.
 *
 * Shape of a synthetic circuit (deterministic from the seed; xorshift64* stream):
 *  - wires: 0 = one, 1..n_public public (random values), then one new private wire per
 *    constraint, in constraint order (so nWires = 1 + n_public + n_constraints);
 *  - each constraint is, with probability bit_share, a booleanity gate for its new wire b,
 *        b * (b - 1) = 0        (A = {b: 1}, B = {b: 1, one: -1}, C = {}; b drawn from {0, 1}),
 *    like the bit decompositions that dominate Filecoin circuits; otherwise a product gate
 *        <A, w> * <B, w> = out  (A and B: `density` terms each on earlier wires, C = {out: 1}),
 *    whose terms (distinct wires within an LC) pick a bit wire with probability bit_share (when one exists) and any earlier
 *    wire otherwise; coefficients are 1 with probability 1/2, else uniform in Fr.
 *  So the share of 0/1 values among the private wires is ~bit_share (exactly the booleanity
 *  count; a product can also happen to be 0 or 1). Every wire occurs in some constraint, so the
 *  bellperson L query is dense (setup.h).
 * Files follow ../shared/fixtures/FORMATS.md (".r1cs", ".wtns"); coefficients and witness
 * values are written as plain LE integers (converted out of Montgomery form).
 */
#ifndef PROOFMILL_R1CS_SYNTH_H
#define PROOFMILL_R1CS_SYNTH_H
#include <stddef.h>
#include <stdint.h>
#include "field/fr.h"
#include "r1cs/r1cs.h"
#include "util/error.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t n_constraints; /* >= 1 */
    uint32_t n_public;      /* public wires (reported as public outputs) */
    unsigned density;       /* terms per A and B of a product gate, >= 1 (default 2) */
    double bit_share;       /* in [0, 1]: share of booleanity gates / 0-1 private values */
    uint64_t seed;
} r1cs_synth_opts_t;

/* Build cs and its witness (*w: cs->n_wires Montgomery values, malloc'ed; free()). The result
 * satisfies r1cs_check_satisfied. Errors: PM_ERR_ARG (n_constraints = 0, density = 0,
 * bit_share outside [0, 1], wire count above 2^32 - 1), PM_ERR_NOMEM. On error cs is zeroed and
 * *w = NULL. Time: O(n_constraints * density) field operations, single-threaded. */
pm_status r1cs_synth(r1cs_t *cs, fr_t **w, const r1cs_synth_opts_t *o, pm_error *err);

/* Write cs as a circom .r1cs file (sections 1 header, 2 constraints, 3 wire->label map with
 * label = wire index; nPubOut = cs->n_pub_out etc. as in cs). Errors: PM_ERR_IO. */
pm_status r1cs_write(const char *path, const r1cs_t *cs, pm_error *err);

/* Write n witness values (Montgomery in memory) as a .wtns file. Errors: PM_ERR_IO. */
pm_status wtns_write(const char *path, const fr_t *w, size_t n, pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
