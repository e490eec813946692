// <curand_kernel.h> on the host backend: cuRAND's device API for its default
// generator, XORWOW (curandState), and for Philox4_32_10, with the uniform,
// normal and log-normal distributions. Integer and uniform numbers equal a
// GPU's bit for bit for the same seed, subsequence and offset; normal ones to
// a few units in the last place. MRG32k3a, MTGP32, the Sobol generators,
// curand_poisson and curand_discrete are compile errors that say so
// (docs/cuda-compat.md, "cuRAND").
#pragma once

#include "cohort_compat/curand/distributions.hpp"
#include "cohort_compat/curand/philox.hpp"
#include "cohort_compat/curand/unsupported.hpp"
#include "cohort_compat/curand/xorwow.hpp"
#include "curand.h"
