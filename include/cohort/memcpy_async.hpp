// memcpy_async, wait and wait_prior, and aligned_size_t (docs/collectives.md).
// Dispatches to the backend this translation unit is compiled for.
#pragma once

#include "cohort/config.hpp"

#if COHORT_BACKEND_CUDA
#include "cohort/cuda/memcpy_async.hpp"
#else
#include "cohort/host/memcpy_async.hpp"
#endif
