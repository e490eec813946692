// Running blocks on the calling OS thread (worker.cpp), for the launches.
#pragma once

#include <cstddef>

namespace cohort::detail::host {

struct launch_state;

// Runs a block to its end on the calling OS thread; returns the fibers it started.
std::size_t run_block(launch_state& launch, unsigned long long linear_block);
// After a worker's last block of a launch: its fibers' stacks go back to its
// pool, and those beyond its share of what the process keeps are unmapped.
void trim_worker_stacks();

}  // namespace cohort::detail::host
