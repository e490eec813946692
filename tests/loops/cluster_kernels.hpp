// Kernels with cluster barriers for the loops engine's tests (cluster_test.cpp):
// built by clang with the loops pass, where each cluster.sync() is a point at
// which the block function returns to the scheduler and a cluster's blocks run
// in phases (docs/loops-engine.md, "Cluster barriers").
#pragma once

#include <vector>

#include "cohort/host/engine.hpp"

namespace loops_tests {

using cohort::host::engine_choice;

// Rounds of cluster.sync() in a loop, in a grid of grid_x × grid_y blocks in
// clusters of `cluster` × 1 blocks: each thread reads the round's value of the
// next block of its cluster (through global memory); a per-thread value, each
// block's own uniform value (a recurrence), static and dynamic shared memory
// kept across every cluster barrier, block barriers between them, and before
// them a block barrier under a branch on cluster.block_rank(). `cluster` 1:
// a launch without clusters, where a cluster is its block.
std::vector<float> cluster_rounds(const std::vector<float>& in, unsigned grid_x, unsigned grid_y, unsigned block,
                                  unsigned cluster, unsigned rounds);
engine_choice cluster_rounds_engine();

// Block `leaver` returns before the cluster barrier the others of its cluster wait at.
void cluster_barrier_left(unsigned blocks, unsigned block, unsigned cluster, unsigned leaver);

// Distributed shared memory (map_shared_rank): stays on fibers.
std::vector<int> cluster_ring(unsigned blocks, unsigned block, unsigned cluster);
engine_choice cluster_ring_engine();

// The line of cluster_kernels.cpp the diagnostic names.
extern const unsigned cluster_left_line;

}  // namespace loops_tests
