// inclusive_scan, exclusive_scan and their *_update forms on every group (docs/collectives.md).
// Dispatches to the backend this translation unit is compiled for.
#pragma once

#include "cohort/config.hpp"
#include "cohort/functional.hpp"

#if COHORT_BACKEND_CUDA
#include "cohort/cuda/scan.hpp"
#else
#include "cohort/host/scan.hpp"
#endif
