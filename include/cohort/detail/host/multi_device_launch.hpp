// The host runtime's multi-device cooperative launch (src/host_runtime/launch/multi_grid.cpp).
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "cohort/detail/host/launch.hpp"
#include "cohort/detail/kernel_arguments.hpp"
#include "cohort/launch/launch_config.hpp"
#include "cohort/launch/multi_grid_memory.hpp"

namespace cohort::detail::host {

struct grid_launch {
  const ::cohort::detail::host::kernel_entry* entry;
  int device;
  launch_config config;
};

// Runs every grid at once, each a cooperative launch on its device; returns
// when all have finished and throws the first grid's error, if any.
void launch_multi_device(const grid_launch* grids, unsigned count);

// `kernel` on every grid of `grids` (each with a device and a launch_config),
// grid i with the arguments args_of(i) returns as a std::tuple.
// The barrier's memory is the process's own, whatever `multi_grid_memory` asks for.
template <class... P, class Grids, class ArgsOf>
void launch_multi_device(void (*kernel)(P...), const Grids& grids, ArgsOf& args_of, multi_grid_memory) {
  using payload = kernel_payload<P...>;
  std::vector<payload> payloads;
  payloads.reserve(grids.size());
  for (std::size_t i = 0; i < grids.size(); ++i)
    payloads.push_back(std::apply(
        [&](auto&&... a) { return payload{kernel, {static_cast<std::decay_t<P>>(std::forward<decltype(a)>(a))...}}; },
        args_of(static_cast<unsigned>(i))));
  std::vector<kernel_entry> entries;
  std::vector<grid_launch> launches;
  entries.reserve(grids.size());
  void (*const run_loops_for)(const void*) = any_passed_by_address<P...> ? nullptr : &run_loops<P...>;
  for (std::size_t i = 0; i < grids.size(); ++i) {
    entries.push_back({&run_dynamic<P...>, &payloads[i], kernel_address(kernel), run_loops_for});
    launches.push_back({&entries[i], grids[i].device, grids[i].config});
  }
  launch_multi_device(launches.data(), static_cast<unsigned>(launches.size()));
}

// Every virtual device reaches every other's memory: they share the process.
inline bool can_access_peer(int, int) { return true; }

}  // namespace cohort::detail::host
