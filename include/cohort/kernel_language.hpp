// CUDA's kernel language: under nvcc it is CUDA's own; under a host compiler
// the host backend defines it (__global__, __shared__, threadIdx, dim3, atomics...).
#pragma once

#include "cohort/config.hpp"

#if COHORT_BACKEND_CUDA
#include <cuda_runtime.h>
#else
#include "cohort/host/kernel_language.hpp"
#endif
