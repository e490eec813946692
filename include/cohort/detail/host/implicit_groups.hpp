// The implicit groups on the host backend: thread_block and grid_group, and
// the block's dynamic shared memory.
#pragma once

#include <cstdint>
#include <source_location>

#include "cohort/detail/host/state.hpp"
#include "cohort/detail/host/sync_points.hpp"
#include "cohort/detail/host/kernel_language.hpp"

namespace cohort {

namespace detail::host {
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
}  // namespace detail::host

// Returns the block's dynamic shared memory (the launch's dynamic_shared_bytes),
// aligned to 16 bytes, as extern __shared__ gives it on CUDA.
template <class T = unsigned char>
T* dynamic_shared() {
  return reinterpret_cast<T*>(detail::host::current_block->dynamic_shared);
}

class thread_block {
 public:
  struct arrival_token {
    std::uint64_t phase;
  };

  static void sync(std::source_location where = std::source_location::current()) { detail::host::block_sync(where); }
  arrival_token barrier_arrive(std::source_location where = std::source_location::current()) const {
    return {detail::host::block_arrive(where)};
  }
  void barrier_wait(arrival_token&& token, std::source_location where = std::source_location::current()) const {
    detail::host::block_wait(token.phase, where);
  }
  static unsigned thread_rank() { return detail::host::current_thread->rank; }
  static unsigned num_threads() { return static_cast<unsigned>(detail::host::threads_per_block()); }
  static unsigned size() { return num_threads(); }
  static dim3 group_index() { return detail::host::block().block_index; }
  static dim3 thread_index() { return detail::host::current_thread->index; }
  static dim3 dim_threads() { return detail::host::block().block_dim; }
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

  bool is_valid() const { return detail::host::block().cooperative; }
  void sync(std::source_location where = std::source_location::current()) const { detail::host::grid_sync(where); }
  arrival_token barrier_arrive(std::source_location where = std::source_location::current()) const {
    return {detail::host::grid_arrive(where)};
  }
  void barrier_wait(arrival_token&& token, std::source_location where = std::source_location::current()) const {
    detail::host::grid_wait(token.phase, where);
  }
  static unsigned long long thread_rank() {
    return block_rank() * detail::host::threads_per_block() + detail::host::current_thread->rank;
  }
  static unsigned long long block_rank() { return detail::host::block_linear_rank(); }
  static unsigned long long num_threads() { return num_blocks() * detail::host::threads_per_block(); }
  static unsigned long long num_blocks() { return detail::host::blocks_in_grid(); }
  static unsigned long long size() { return num_threads(); }
  static dim3 dim_blocks() { return detail::host::block().grid_dim; }
  static dim3 block_index() { return detail::host::block().block_index; }
  static dim3 group_dim() { return dim_blocks(); }
  // A launch without clusters is a grid of 1x1x1 clusters.
  static unsigned long long cluster_rank() { return block_rank(); }
  static unsigned long long num_clusters() { return num_blocks(); }
  static dim3 dim_clusters() { return dim_blocks(); }
  static dim3 cluster_index() { return block_index(); }

 private:
  grid_group() = default;
  friend grid_group this_grid();
};

inline grid_group this_grid() { return {}; }

}  // namespace cohort
