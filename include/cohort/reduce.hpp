// reduce, reduce_update_async and reduce_store_async on every group (docs/collectives.md).
// Dispatches to the backend this translation unit is compiled for.
#pragma once

#include "cohort/config.hpp"
#include "cohort/functional.hpp"

#if COHORT_BACKEND_CUDA
#include "cohort/cuda/reduce.hpp"
#else
#include "cohort/host/reduce.hpp"
#endif
