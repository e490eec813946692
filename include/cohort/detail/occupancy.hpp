// Active blocks per multiprocessor, computed from a device description the
// way CUDA's occupancy calculator does (threads in whole warps, a block limit,
// shared memory with the per-block reservation and allocation granularity).
// The host backend answers its occupancy queries with it.
#pragma once

#include <algorithm>
#include <cstddef>

#include "cohort/launch/device.hpp"

namespace cohort::detail {

inline constexpr std::size_t shared_allocation_granularity = 128;

struct occupancy {
  int blocks_per_sm = 0;
  int by_threads = 0;  // each limit on its own, for messages
  int by_blocks = 0;
  int by_shared = 0;
};

inline occupancy compute_occupancy(const device_properties& p, long long block_threads,
                                   std::size_t dynamic_shared_bytes) {
  occupancy o;
  if (block_threads <= 0 || block_threads > p.max_threads_per_block) return o;
  if (dynamic_shared_bytes > p.shared_memory_per_block_optin) return o;
  const long long warps = (block_threads + p.warp_size - 1) / p.warp_size;
  o.by_threads = static_cast<int>(p.max_threads_per_multiprocessor / (warps * p.warp_size));
  o.by_blocks = p.max_blocks_per_multiprocessor;
  const std::size_t shared = dynamic_shared_bytes + p.reserved_shared_memory_per_block;
  const std::size_t rounded =
      (shared + shared_allocation_granularity - 1) / shared_allocation_granularity * shared_allocation_granularity;
  o.by_shared = rounded == 0 ? o.by_blocks : static_cast<int>(p.shared_memory_per_multiprocessor / rounded);
  o.blocks_per_sm = std::max(0, std::min({o.by_threads, o.by_blocks, o.by_shared}));
  return o;
}

}  // namespace cohort::detail
