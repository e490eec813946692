// The implicit groups on the host backend: thread_block and grid_group, and
// the block's dynamic shared memory.
#pragma once

#include <cstdint>
#include <source_location>

#include "cohort/detail/host/cluster.hpp"
#include "cohort/host/detail/state.hpp"
#include "cohort/host/detail/sync_points.hpp"
#include "cohort/host/kernel_language.hpp"

namespace cohort {

namespace host::detail {
inline const block_record& block() { return *current_block; }
inline unsigned long long block_linear_rank() {
  const block_record& b = block();
  return (static_cast<unsigned long long>(b.block_index.z) * b.grid_dim.y + b.block_index.y) * b.grid_dim.x +
         b.block_index.x;
}
inline unsigned long long threads_per_block() {
  const block_record& b = block();
  return static_cast<unsigned long long>(b.block_dim.x) * b.block_dim.y * b.block_dim.z;
}
inline unsigned long long blocks_in_grid() {
  const block_record& b = block();
  return static_cast<unsigned long long>(b.grid_dim.x) * b.grid_dim.y * b.grid_dim.z;
}
}  // namespace host::detail

// Returns the block's dynamic shared memory (the launch's dynamic_shared_bytes),
// aligned to 16 bytes, as extern __shared__ gives it on CUDA.
template <class T = unsigned char>
T* dynamic_shared() {
  return reinterpret_cast<T*>(host::detail::current_block->dynamic_shared);
}

class thread_block {
 public:
  struct arrival_token {
    std::uint64_t phase;
  };

  static void sync(std::source_location where = std::source_location::current()) { host::detail::block_sync(where); }
  arrival_token barrier_arrive(std::source_location where = std::source_location::current()) const {
    return {host::detail::block_arrive(where)};
  }
  void barrier_wait(arrival_token&& token, std::source_location where = std::source_location::current()) const {
    host::detail::block_wait(token.phase, where);
  }
  static unsigned thread_rank() { return host::detail::current_thread->rank; }
  static unsigned num_threads() { return static_cast<unsigned>(host::detail::threads_per_block()); }
  static unsigned size() { return num_threads(); }
  static dim3 group_index() { return host::detail::block().block_index; }
  static dim3 thread_index() { return host::detail::current_thread->index; }
  static dim3 dim_threads() { return host::detail::block().block_dim; }
  static dim3 group_dim() { return dim_threads(); }

 private:
  thread_block() = default;
  friend thread_block this_thread_block();
};

inline thread_block this_thread_block() { return {}; }

class grid_group {
 public:
  struct arrival_token {
    std::uint64_t phase;
  };

  bool is_valid() const { return host::detail::block().cooperative; }
  void sync(std::source_location where = std::source_location::current()) const { host::detail::grid_sync(where); }
  arrival_token barrier_arrive(std::source_location where = std::source_location::current()) const {
    return {host::detail::grid_arrive(where)};
  }
  void barrier_wait(arrival_token&& token, std::source_location where = std::source_location::current()) const {
    host::detail::grid_wait(token.phase, where);
  }
  static unsigned long long thread_rank() {
    return block_rank() * host::detail::threads_per_block() + host::detail::current_thread->rank;
  }
  static unsigned long long block_rank() { return host::detail::block_linear_rank(); }
  static unsigned long long num_threads() { return num_blocks() * host::detail::threads_per_block(); }
  static unsigned long long num_blocks() { return host::detail::blocks_in_grid(); }
  static unsigned long long size() { return num_threads(); }
  static dim3 dim_blocks() { return host::detail::block().grid_dim; }
  static dim3 block_index() { return host::detail::block().block_index; }
  static dim3 group_dim() { return dim_blocks(); }
  // A launch without clusters is a grid of 1x1x1 clusters.
  static unsigned long long cluster_rank() {
    const dim3 i = cluster_index(), d = dim_clusters();
    return (static_cast<unsigned long long>(i.z) * d.y + i.y) * d.x + i.x;
  }
  static unsigned long long num_clusters() {
    const dim3 d = dim_clusters();
    return static_cast<unsigned long long>(d.x) * d.y * d.z;
  }
  static dim3 dim_clusters() { return cohort::detail::host::cluster_grid_dim(); }
  static dim3 cluster_index() { return cohort::detail::host::cluster_index(); }

 private:
  grid_group() = default;
  friend grid_group this_grid();
};

inline grid_group this_grid() { return {}; }

}  // namespace cohort
