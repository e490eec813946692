// The host backend's cluster primitives (src/host_runtime/synchronization/levels.cpp,
// src/host_runtime/launch/cluster_shared.cpp). The blocks of a cluster run at once, each on
// its own OS thread; the cluster barrier counts one arrival per block (made by
// the block's last live thread to arrive) and, like grid.sync(), turns a
// barrier that a block can never reach into an error of the launch.
#pragma once

#include <cstdint>
#include <source_location>

#include "cohort/detail/host/language/vector_types.hpp"
#include "cohort/detail/host/runtime/sync_points.hpp"

namespace cohort::detail::host {

std::uint64_t cluster_arrive(std::source_location where);
void cluster_wait(std::uint64_t phase, std::source_location where);
void cluster_sync(std::source_location where);
// cluster_group::barrier_wait: spends the token (sync_points.hpp).
inline void cluster_barrier_wait(std::uint64_t& token, std::source_location where) {
  cluster_wait(spend(token), where);
}

unsigned cluster_block_rank();
unsigned cluster_block_count();
dim3 cluster_block_index();
dim3 cluster_dim();
// The grid measured in clusters and the calling block's cluster.
dim3 cluster_grid_dim();
dim3 cluster_index();

// Distributed shared memory: `addr` in the caller's __shared__ variables or
// dynamic shared memory, seen in block `rank`'s copy. Raises an error of the
// launch for an address outside the caller's shared memory, a rank outside
// the cluster, or a block that has exited.
void* map_shared(void* addr, int rank, std::source_location where);
unsigned query_shared(const void* addr, std::source_location where);

}  // namespace cohort::detail::host
