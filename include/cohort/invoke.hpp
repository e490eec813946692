// invoke_one and invoke_one_broadcast on every group (docs/collectives.md).
// Dispatches to the backend this translation unit is compiled for.
#pragma once

#include "cohort/config.hpp"

#if COHORT_BACKEND_CUDA
#include "cohort/cuda/invoke.hpp"
#else
#include "cohort/host/invoke.hpp"
#endif
