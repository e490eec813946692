// The launch's choice of engine (docs/loops-engine.md): loops where the loops
// pass registered a block function for the kernel and nothing asks for fibers.
#pragma once

#include <string>

#include "cohort/detail/host/launch.hpp"
#include "cohort/host/engine.hpp"

namespace cohort::detail::host {

struct launch_engine {
  cohort::host::engine_choice choice;
  kernel_entry entry;  // the launch's entry, run_threads the chosen engine's runner
  // A cluster launch on loops of a kernel whose block function returns at
  // cluster barriers: each cluster runs in phases (loops_grid.hpp).
  bool cluster_phases = false;
};

// What a kernel proven per warp needs of the launch (loops_engine.cpp): its
// block's shape and the virtual device's warp size.
struct launch_shape {
  dim3 grid{1, 1, 1};
  dim3 block{1, 1, 1};
  unsigned warp_size = 32;
};

// Throws under COHORT_ENGINE=loops when the choice is fibers; reports the
// choice on stderr under COHORT_ENGINE_REPORT=1. `copies_checked`: COHORT_CHECK=memcpy
// (or memcpy-poison), under which a kernel with memcpy_async runs on fibers.
launch_engine choose_launch_engine(const kernel_entry& entry, bool multi_device, bool race_checked,
                                   bool clustered = false, const launch_shape& shape = {}, bool copies_checked = false);

}  // namespace cohort::detail::host
