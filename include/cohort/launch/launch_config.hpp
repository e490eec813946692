// How a kernel is launched: grid, block, dynamic shared memory, stream and cluster shape.
#pragma once

#include <concepts>
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

  launch_config() = default;
  launch_config(dim3 grid_dim, dim3 block_dim = dim3(1, 1, 1)) : grid(grid_dim), block(block_dim) {}
  // The shared size in any integer type, as <<<>>> takes it: an int in a
  // braced aggregate would be a narrowing error.
  template <std::integral Bytes>
  launch_config(dim3 grid_dim, dim3 block_dim, Bytes shared_bytes, stream_t launch_stream = {})
      : grid(grid_dim),
        block(block_dim),
        dynamic_shared_bytes(static_cast<std::size_t>(shared_bytes)),
        stream(launch_stream) {}
};

}  // namespace cohort
