/*
 * porep_test_util.h — helpers shared by the PoRep C2 tests (test_circuits_porep_e2e.c,
 * test_engine_porep.c): a sealed 2 KiB sector's C1 and the seeded 2 KiB test parameters.
 * Test code only (cmocka's fail_msg on any error); header-only, one copy per test program.
 */
#ifndef PROOFMILL_TESTS_POREP_TEST_UTIL_H
#define PROOFMILL_TESTS_POREP_TEST_UTIL_H

#include <string.h>

#include "test_util.h"

#include "circuits/filecoin/porep_circuit.h"
#include "filecoin/replica_id.h"
#include "filecoin/seal.h"
#include "groth16/params.h"
#include "groth16/setup.h"

/* Seal a zero 2 KiB sector (StackedDrg2KiBV1_1, miner 1000 + tag, sector tag, ticket and seed
 * bytes derived from tag) and make its C1 in *c1. *s keeps the sealed sector when non-NULL
 * (fil_seal_free is then the caller's), else it is freed here. Distinct tags, distinct sectors. */
static inline void pm_test_seal_c1(fil_seal_t *s, fil_c1_t *c1, uint8_t tag) {
    fil_seal_t own;
    fil_seal_t *sp = s ? s : &own;
    fil_seal_params_t p;
    memset(&p, 0, sizeof p);
    p.registered_proof = 5;
    fil_prover_id_from_miner(p.prover_id, 1000 + tag);
    p.sector_id = tag;
    memset(p.ticket, tag, 32);
    p.ticket[31] &= 0x3f;
    pm_error err;
    if (fil_seal_run(sp, &p, &err)) fail_msg("seal: %s", err.msg);
    uint8_t seed[32];
    memset(seed, 0x40 + tag, 32);
    seed[31] &= 0x3f;
    if (fil_c1_from_seal(c1, sp, seed, &err)) fail_msg("C1: %s", err.msg);
    if (!s) fil_seal_free(&own);
}

/* The 2 KiB partition circuit recorded into *cs (*nin inputs with ONE) and bellperson-layout
 * parameters for it from seeded toxic waste (test parameters, not a ceremony); tm may be NULL.
 * Minutes on 2 cores (a 2^22 domain). */
static inline void pm_test_porep_setup_2k(bp_params_t *p, r1cs_t *cs, uint32_t *nin, uint64_t seed,
                                          groth16_setup_timings_t *tm) {
    pm_error err;
    pm_porep_shape shape;
    if (pm_porep_shape_for_size(&shape, 2048, &err) || pm_porep_record(cs, nin, &shape, &err))
        fail_msg("record: %s", err.msg);
    groth16_toxic_t tox;
    groth16_setup_timings_t t;
    if (groth16_toxic_draw(&tox, &seed, &err) || groth16_setup_bellperson(p, cs, &tox, tm ? tm : &t, &err))
        fail_msg("setup: %s", err.msg);
}

#endif
