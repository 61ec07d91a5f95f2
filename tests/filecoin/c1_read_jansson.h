/*
 * c1_read_jansson.h — the tests' reference C1 reader (c1_read_jansson.c, compiled into the tests
 * that compare it with the library's single-pass reader: test_c1_hostile, test_c1_synth,
 * test_seal_roundtrip, and the fuzz harness fuzz_c1).
 */
#ifndef PROOFMILL_TESTS_C1_READ_JANSSON_H
#define PROOFMILL_TESTS_C1_READ_JANSSON_H

#include <stddef.h>

#include "filecoin/c1_json.h"

/* fil_c1_from_json's contract (c1_json.h) over a jansson tree of the whole document: buf[len] (name
 * labels errors) into *c1; PM_ERR_FORMAT naming the JSON path of what is wrong (syntax errors:
 * line, column, offset), PM_ERR_NOMEM; on error *c1 is left freed/zeroed. Accepts and refuses the
 * same documents as fil_c1_from_json and reads the same C1. */
pm_status fil_c1_from_json_jansson(fil_c1_t *c1, const char *buf, size_t len, const char *name, pm_error *err);

#endif
