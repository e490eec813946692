// Dispatches to the backend this translation unit is compiled for; docs/api.md lists the API.
#pragma once

#include "cohort/config.hpp"

#if COHORT_BACKEND_CUDA
#include "cohort/cuda/launch.hpp"
#else
#include "cohort/host/launch.hpp"
#endif
