// Where a group call was made: the caller's std::source_location on the host
// backend, where diagnostics name it, and nothing on the GPU, so that one
// signature with a defaulted call-site parameter serves both backends.
#pragma once

#include "cohort/config.hpp"

#if COHORT_BACKEND_HOST
#include <source_location>
#endif

namespace cohort::detail {

#if COHORT_BACKEND_HOST
using call_site = std::source_location;
#else
struct call_site {
  __host__ __device__ static constexpr call_site current() { return {}; }
};
#endif

}  // namespace cohort::detail
