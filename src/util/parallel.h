/*
 * parallel.h — OpenMP pragmas that compile away cleanly when the core is built without OpenMP
 * (the top-level CMake links OpenMP::OpenMP_C into proofmill_core when it is found).
 * Internal to the core library; not part of any public API.
 */
#ifndef PROOFMILL_UTIL_PARALLEL_H
#define PROOFMILL_UTIL_PARALLEL_H

#ifdef _OPENMP
#include <omp.h>
#define PM_PRAGMA(...) _Pragma(#__VA_ARGS__)
#define PM_OMP(...) PM_PRAGMA(omp __VA_ARGS__)
static inline int pm_thread_count(void) { return omp_get_max_threads(); }
static inline int pm_thread_id(void) { return omp_get_thread_num(); }
#else
#define PM_OMP(...)
static inline int pm_thread_count(void) { return 1; }
static inline int pm_thread_id(void) { return 0; }
#endif

#endif
