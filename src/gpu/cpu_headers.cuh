/*
 * cpu_headers.cuh — include the CPU headers (gpu.h, field, curve) from CUDA translation units.
 * <math.h> (always included by nvcc) defines FP_ZERO as a fpclassify() category, which collides
 * with field/fp.h's constant FP_ZERO; rename the constant (unused in src/gpu) while the C headers
 * are read.
 */
#pragma once
#pragma push_macro("FP_ZERO")
#undef FP_ZERO
#define FP_ZERO pm_fp_zero_hidden_from_cuda /* declared, never referenced here */
#include "gpu.h"
#include "field/fp.h"
#include "field/fr.h"
#pragma pop_macro("FP_ZERO")
