// The multi-device cooperative launch: one call, a grid per device, every
// grid co-resident on its device and all running at once, so that
// multi_grid_group::sync() can wait for all of them. As the seeds require,
// every grid runs the same kernel with the same grid, block and shared memory,
// on distinct devices. Each grid gets its own arguments: args_of(i) returns
// grid i's as a std::tuple (device pointers are usually per device).
#pragma once

#include <span>

#include "cohort/backend.hpp"
#include "cohort/launch/device_queries.hpp"
#include "cohort/launch/launch.hpp"
#include "cohort/launch/launch_config.hpp"
#include "cohort/launch/multi_grid_memory.hpp"

#include COHORT_BACKEND_HEADER(multi_device_launch.hpp)

namespace cohort {

struct device_launch {
  int device = 0;
  launch_config config;
};

// Whether `device` can reach `peer`'s memory directly. The multi-device
// barrier does not need it (without it, it lives in pinned host memory);
// kernels that read other devices' buffers do. Every virtual device of the
// host backend is a peer of every other.
inline bool can_access_peer(int device, int peer) {
  device = detail::checked_device(device, "can_access_peer");
  peer = detail::checked_device(peer, "can_access_peer");
  return device == peer || detail::impl::can_access_peer(device, peer);
}

template <class... P, class ArgsOf>
void launch_cooperative_multi_device(void (*kernel)(P...), std::span<const device_launch> grids, ArgsOf&& args_of,
                                     multi_grid_memory barrier_memory = multi_grid_memory::automatic) {
  detail::check_multi_grid_memory(barrier_memory);
  detail::impl::launch_multi_device(kernel, grids, args_of, barrier_memory);
}

}  // namespace cohort
