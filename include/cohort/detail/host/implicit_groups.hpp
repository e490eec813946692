// The host backend's primitives under thread_block and grid_group
// (include/cohort/groups/): the block's and the grid's shape, read off the
// running block's record, and their barriers, which park the calling fiber
// (src/host_runtime/synchronization/barriers.cpp, levels.cpp), and the grid's clusters
// (src/host_runtime/launch/cluster_shared.cpp).
#pragma once

#include <cstdint>

#include "cohort/backend.hpp"
#include "cohort/detail/host/cluster.hpp"
#include "cohort/detail/host/kernel_language.hpp"
#include "cohort/detail/host/runtime/state.hpp"
#include "cohort/detail/host/runtime/sync_points.hpp"

namespace cohort::detail::host {

inline const block_record& block() { return *current_block; }
inline unsigned long long linear_index(dim3 index, dim3 extent) {
  return (static_cast<unsigned long long>(index.z) * extent.y + index.y) * extent.x + index.x;
}
inline unsigned long long dim_volume(dim3 d) { return static_cast<unsigned long long>(d.x) * d.y * d.z; }
inline unsigned long long block_linear_rank() { return linear_index(block().block_index, block().grid_dim); }
inline unsigned long long threads_per_block() { return dim_volume(block().block_dim); }
inline unsigned long long blocks_in_grid() { return dim_volume(block().grid_dim); }

inline dim3 this_block_index() { return ::blockIdx; }
inline dim3 this_block_dim() { return ::blockDim; }
inline dim3 this_grid_dim() { return ::gridDim; }
inline dim3 this_thread_index() { return thread_index(); }
inline unsigned thread_rank_in_block() { return thread_rank(); }
inline dim3 this_cluster_index() { return cluster_index(); }
inline dim3 this_cluster_grid_dim() { return cluster_grid_dim(); }

// The block barrier's split form: the phase the arrival belongs to.
using block_arrival_token = std::uint64_t;
inline void block_barrier_sync(call_site where) { block_sync(where); }
inline block_arrival_token block_barrier_arrive(call_site where) { return block_arrive(where); }
inline void block_barrier_wait(block_arrival_token& token, call_site where) { block_wait(spend(token), where); }

// The grid barrier lives in the launch, so a grid_group carries nothing.
struct grid_state {};
using grid_arrival_token = std::uint64_t;
inline grid_state this_grid_state() { return {}; }
inline bool grid_barrier_valid(grid_state) { return block().cooperative; }
inline void grid_barrier_sync(grid_state, call_site where) { grid_sync(where); }
inline grid_arrival_token grid_barrier_arrive(grid_state, call_site where) { return grid_arrive(where); }
inline void grid_barrier_wait(grid_state, grid_arrival_token& token, call_site where) {
  grid_wait(spend(token), where);
}

// The launch's dynamic_shared_bytes, aligned to 16 bytes as extern __shared__ is on CUDA.
inline unsigned char* dynamic_shared_memory() { return current_block->dynamic_shared; }

}  // namespace cohort::detail::host
