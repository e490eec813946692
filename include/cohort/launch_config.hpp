// How a kernel is launched: grid, block, dynamic shared memory, stream and cluster shape.
#pragma once

#include <cstddef>

#include "cohort/kernel_language.hpp"

namespace cohort {

#if COHORT_BACKEND_CUDA
using stream_t = cudaStream_t;
#else
struct host_stream;                 // the host backend completes every launch before returning
using stream_t = host_stream*;
#endif

struct launch_config {
  dim3 grid{1, 1, 1};
  dim3 block{1, 1, 1};
  std::size_t dynamic_shared_bytes = 0;
  stream_t stream = {};
  // Blocks per thread-block cluster (sm_90); the grid must be a whole number of clusters.
  dim3 cluster{1, 1, 1};
};

}  // namespace cohort
