// CUDA's kernel language: under nvcc it is CUDA's own; under a host compiler
// the host backend defines it (__global__, __shared__, threadIdx, dim3, atomics...).
#pragma once

#include "cohort/backend.hpp"

#include COHORT_BACKEND_HEADER(kernel_language.hpp)
