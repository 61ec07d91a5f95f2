/*
 * cpu_headers.cuh — include the CPU headers (gpu.h, field) from CUDA translation units.
 * (field/fp.h names its zero FP_ZERO_ELEM because <math.h>, always included by nvcc, owns FP_ZERO.)
 */
#pragma once
#include "gpu.h"
#include "field/fp.h"
#include "field/fr.h"
