// The multi-device cooperative launch: one call, a grid per device, every
// grid co-resident on its device and all running at once, so that
// multi_grid_group::sync() can wait for all of them. As the seeds require,
// every grid runs the same kernel with the same grid, block and shared memory,
// on distinct devices. Each grid gets its own arguments: args_of(i) returns
// grid i's as a std::tuple (device pointers are usually per device).
#pragma once

#include <cstddef>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "cohort/launch/launch.hpp"
#include "cohort/launch/launch_config.hpp"

#if COHORT_BACKEND_CUDA
#include "cohort/detail/cuda/multi_device_launch.hpp"
#else
#include "cohort/detail/host/multi_device_launch.hpp"
#endif

namespace cohort {

struct device_launch {
  int device = 0;
  launch_config config;
};

// Whether `device` can reach `peer`'s memory directly. The multi-device
// barrier does not need it (it lives in pinned host memory); kernels that
// read other devices' buffers do. Every virtual device of the host backend is
// a peer of every other.
inline bool can_access_peer(int device, int peer) {
#if COHORT_BACKEND_CUDA
  if (device == peer) return true;
  int can = 0;
  detail::gpu::check(cudaDeviceCanAccessPeer(&can, device, peer), "can_access_peer");
  return can != 0;
#else
  get_device_properties(device);
  get_device_properties(peer);
  return true;
#endif
}

template <class... P, class ArgsOf>
void launch_cooperative_multi_device(void (*kernel)(P...), std::span<const device_launch> grids, ArgsOf&& args_of) {
#if COHORT_BACKEND_CUDA
  detail::gpu::launch_multi_device(kernel, grids, args_of);
#else
  using payload = detail::host::kernel_payload<P...>;
  std::vector<payload> payloads;
  payloads.reserve(grids.size());
  for (std::size_t i = 0; i < grids.size(); ++i)
    payloads.push_back(std::apply(
        [&](auto&&... a) { return payload{kernel, {static_cast<std::decay_t<P>>(std::forward<decltype(a)>(a))...}}; },
        args_of(static_cast<unsigned>(i))));
  std::vector<detail::host::kernel_entry> entries;
  std::vector<detail::host::grid_launch> launches;
  entries.reserve(grids.size());
  for (std::size_t i = 0; i < grids.size(); ++i) {
    entries.push_back({&detail::host::run_dynamic<P...>, &payloads[i], detail::kernel_address(kernel)});
    launches.push_back({&entries[i], grids[i].device, grids[i].config});
  }
  detail::host::launch_multi_device(launches.data(), static_cast<unsigned>(launches.size()));
#endif
}

}  // namespace cohort
