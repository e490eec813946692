// A kernel that proves grid.sync() on the device: in each round every block
// stamps its slot, syncs, and checks that it sees every other block's stamp
// of that round. The checks and `cohort doctor` launch it. The kernel
// lives in grid_sync_probe.cpp; programs that use it compile that file too.
#pragma once

#include <cohort/cohort.hpp>

namespace cohort_kernels {

struct probe_capacity {
  int blocks_per_sm = 0;
  int blocks = 0;  // the largest cooperative grid of the probe at this block size
};

probe_capacity grid_sync_probe_capacity(unsigned threads);

// Launches the probe cooperatively; returns the number of stale stamps seen
// (0 on a working device). Throws cohort::error if the launch is refused.
unsigned run_grid_sync_probe(unsigned blocks, unsigned threads, unsigned rounds, cohort::stream_t stream = {});

}  // namespace cohort_kernels
