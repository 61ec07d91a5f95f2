/*
 * verify.h — checks of internal invariants, compiled only into the debug build that asks for them
 * (the secp256k1 VERIFY habit): `cmake -DPROOFMILL_VERIFY=ON` defines PM_VERIFY, and then
 * PM_VERIFY_CHECK(cond) evaluates cond and, when it is false, prints "file:line: PM_VERIFY_CHECK(cond)
 * failed" on stderr and aborts. Without PM_VERIFY the condition is not evaluated (no cost, no side
 * effect: never put work with a side effect inside).
 *
 * Only for our own invariants (a pointer a contract says is pinned, a table's rows well formed, a
 * programmer's unknown setting name): never for user data, which gets a pm_status and a pm_error
 * (docs/CONTRIBUTING.md "Code rules"). Usable from C and CUDA C++.
 */
#ifndef PROOFMILL_UTIL_VERIFY_H
#define PROOFMILL_UTIL_VERIFY_H

#ifdef PM_VERIFY
#include <stdio.h>
#include <stdlib.h>
#define PM_VERIFY_CHECK(cond)                                                                  \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "%s:%d: PM_VERIFY_CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
            abort();                                                                           \
        }                                                                                      \
    } while (0)
#else
#define PM_VERIFY_CHECK(cond) ((void)0)
#endif

#endif
