// What the host backend did for the last launch made by this host thread:
// how many fibers it started. A kernel that never waits runs each block on a
// single fiber; tests and benchmarks check that. `engine` is the engine that
// ran it (cohort/host/engine.hpp).
#pragma once

#include "cohort/host/engine.hpp"

namespace cohort::host {

struct launch_statistics {
  unsigned long long blocks = 0;
  unsigned long long fibers_started = 0;
  engine ran_on = engine::fibers;
};

launch_statistics last_launch_statistics();

}  // namespace cohort::host
