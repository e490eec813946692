// memcpy_async, wait and wait_prior, and aligned_size_t (docs/collectives.md).
#pragma once

#include "cohort/backend.hpp"

#include COHORT_BACKEND_HEADER(memcpy_async.hpp)
