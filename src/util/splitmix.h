/*
 * splitmix.h — splitmix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014; the constants of Vigna's public-domain reference): one 64-bit output per call from a
 * 64-bit state that advances by the golden-ratio increment. For seeded, reproducible, NOT secret
 * streams only: test and benchmark scalars, seeding xoshiro256** (groth16/prover.c), seeded test
 * parameters. Secret randomness (r, s of a real proof, toxic waste) comes from the OS
 * (groth16_random_scalar).
 */
#ifndef PROOFMILL_UTIL_SPLITMIX_H
#define PROOFMILL_UTIL_SPLITMIX_H

#include <stdint.h>

/* The next output of the stream whose state is *x (advanced). */
static inline uint64_t pm_splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#endif
