// How a kernel is launched: grid, block, dynamic shared memory, stream and cluster shape.
#pragma once

#include <cstddef>

#include "cohort/kernel_language.hpp"

#include COHORT_BACKEND_HEADER(stream_handle.hpp)

namespace cohort {

struct launch_config {
  dim3 grid{1, 1, 1};
  dim3 block{1, 1, 1};
  std::size_t dynamic_shared_bytes = 0;
  stream_t stream = {};
  // Blocks per thread-block cluster (sm_90); the grid must be a whole number of clusters.
  dim3 cluster{1, 1, 1};
};

}  // namespace cohort
