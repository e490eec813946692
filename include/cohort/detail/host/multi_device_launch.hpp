// The host runtime's multi-device cooperative launch (src/host/multi_grid.cpp).
#pragma once

#include "cohort/detail/host/launch.hpp"
#include "cohort/launch/launch_config.hpp"

namespace cohort::detail::host {

struct grid_launch {
  const ::cohort::detail::host::kernel_entry* entry;
  int device;
  launch_config config;
};

// Runs every grid at once, each a cooperative launch on its device; returns
// when all have finished and throws the first grid's error, if any.
void launch_multi_device(const grid_launch* grids, unsigned count);

}  // namespace cohort::detail::host
