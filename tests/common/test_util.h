/*
 * test_util.h — shared helpers for proofmill's unit tests (cmocka + GMP).
 *
 * Seeds: every randomized test calls pm_test_seed() once; it reads PROOFMILL_SEED (decimal)
 * or picks one from the clock, and prints "seed: N (rerun with PROOFMILL_SEED=N)" so a failure
 * is reproducible from the log. PROOFMILL_ITERATIONS scales loop counts (pm_test_iters).
 * The RNG is xoshiro256** (Blackman, Vigna 2018), not for cryptographic use.
 */
#ifndef PROOFMILL_TEST_UTIL_H
#define PROOFMILL_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
#include <gmp.h>

#include "field/fp.h"
#include "field/fr.h"

uint64_t pm_test_seed(void);                 /* seeds the RNG once, prints the seed */
uint64_t pm_rand64(void);                    /* next 64 random bits */
void pm_rand_bytes(uint8_t *out, size_t n);  /* n random bytes */
/* default_iters scaled by PROOFMILL_ITERATIONS / 100 when set (percent), at least 1 */
size_t pm_test_iters(size_t default_iters);

/* random field elements (uniform below the modulus, Montgomery form) */
void pm_rand_fp(fp_t *r);
void pm_rand_fr(fr_t *r);

/* GMP bridges: mpz <-> plain little-endian limbs (n limbs) */
void pm_mpz_from_limbs(mpz_t z, const uint64_t *l, size_t n);
void pm_limbs_from_mpz(uint64_t *l, size_t n, const mpz_t z);

/* directory of the source tree (PROOFMILL_SOURCE_DIR set by ctest), or "." */
const char *pm_source_dir(void);
/* path of ../shared/fixtures if present, else NULL (tests then say so visibly).
 * PROOFMILL_SHARED_FIXTURES overrides the place; PROOFMILL_NO_SHARED=1 acts as if absent. */
const char *pm_shared_fixtures(void);
/* out = <shared>/<curve>/<circuit>/<file>; without ../shared, a BLS12-381 circuit is replaced
 * by the repository's tests/data/multiplier (for "multiplier") or tests/data/powchain (any
 * other), with a printed NOTE; returns 0 (printing SKIP) only for other curves. */
int pm_fixture_path(char *out, size_t n, const char *curve, const char *circuit, const char *file);

/* The whole file at path in a malloc'd buffer of *n bytes plus a terminating NUL (not counted
 * in *n), so text files can be read as C strings; NULL if it cannot be read. */
uint8_t *pm_test_slurp(const char *path, size_t *n);
/* A fresh directory /tmp/<prefix>_XXXXXX written to dir (cap bytes): 0, or -1 (cmocka group
 * setups); pm_test_rmtree removes it and everything below (group teardowns): 0, or -1. */
int pm_test_mkdtemp(char *dir, size_t cap, const char *prefix);
int pm_test_rmtree(const char *dir);
/* Little-endian stores, for forging lying headers in hostile-input tests. */
void pm_put_le32(uint8_t *p, uint32_t v);
void pm_put_le64(uint8_t *p, uint64_t v);
/* Random-mutation robustness loop: iters times, copy img[0..n), flip 1..4 random bytes, call
 * reader(copy, n) — any status is fine, crashing is not (run under -DPROOFMILL_SANITIZE=ON).
 * Prints and returns how many mutated images the reader refused. */
size_t pm_test_mutations(const uint8_t *img, size_t n, size_t iters,
                         int (*reader)(const uint8_t *img, size_t n));

#endif
