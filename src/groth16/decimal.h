/*
 * decimal.h — Fp and Fr elements as the decimal text of their plain integers (snarkjs's JSON
 * numbers, command-line scalars such as --r / --s), both ways.
 */
#ifndef PROOFMILL_GROTH16_DECIMAL_H
#define PROOFMILL_GROTH16_DECIMAL_H

#include <stddef.h>

#include "field/fp.h"
#include "field/fr.h"
#include "util/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest decimal accepted or produced (p < 10^115), including the NUL. */
#define GROTH16_DEC_MAX 201

/* Decimal <-> field elements. *_to_decimal writes the plain integer of a (a in Montgomery form)
 * into out (at least 117 bytes for Fp, 79 for Fr; GROTH16_DEC_MAX always suffices) and returns
 * its length. *_from_decimal parses s (NUL-terminated) into r in Montgomery form; returns
 * PM_OK, or PM_ERR_ENCODING with "what" (e.g. "pi_a[0]") in the message when s is not a
 * decimal integer or is >= the modulus. */
size_t groth16_fp_to_decimal(char *out, const fp_t *a);
size_t groth16_fr_to_decimal(char *out, const fr_t *a);
pm_status groth16_fp_from_decimal(fp_t *r, const char *s, const char *file, const char *what,
                                  pm_error *err);
pm_status groth16_fr_from_decimal(fr_t *r, const char *s, const char *file, const char *what,
                                  pm_error *err);

#ifdef __cplusplus
}
#endif
#endif
