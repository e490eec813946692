// grid_group and this_grid(), written once over the backend's grid primitives
// (detail/<backend>/implicit_groups.hpp): the grid's shape and the grid
// barrier, which only a cooperative launch may use (is_valid()).
#pragma once

#include "cohort/backend.hpp"
#include "cohort/detail/grid_geometry.hpp"
#include "cohort/groups/thread_group.hpp"
#include "cohort/kernel_language.hpp"
#include "cohort/memory/atomic_ref.hpp"

#include COHORT_BACKEND_HEADER(implicit_groups.hpp)

namespace cohort {

class grid_group : public thread_group {
 public:
  static constexpr cohort::thread_scope thread_scope = thread_scope_device;

  struct arrival_token {
    detail::impl::grid_arrival_token arrival;
  };

  // True in a cooperative launch, the only kind whose blocks may wait for each other.
  COHORT_DEVICE bool is_valid() const { return detail::impl::grid_barrier_valid(data_.grid); }
  COHORT_DEVICE void sync(call_site where = call_site::current()) const {
    detail::impl::grid_barrier_sync(data_.grid, where);
  }
  COHORT_DEVICE arrival_token barrier_arrive(call_site where = call_site::current()) const {
    return {detail::impl::grid_barrier_arrive(data_.grid, where)};
  }
  COHORT_DEVICE void barrier_wait(arrival_token&& token, call_site where = call_site::current()) const {
    detail::impl::grid_barrier_wait(data_.grid, token.arrival, where);
  }

  COHORT_DEVICE static unsigned long long thread_rank() { return detail::grid_thread_rank(); }
  COHORT_DEVICE static unsigned long long block_rank() { return detail::grid_block_rank(); }
  COHORT_DEVICE static unsigned long long cluster_rank() {
    return detail::impl::linear_index(cluster_index(), dim_clusters());
  }
  COHORT_DEVICE static unsigned long long num_threads() { return detail::grid_num_threads(); }
  COHORT_DEVICE static unsigned long long num_blocks() { return detail::grid_num_blocks(); }
  COHORT_DEVICE static unsigned long long num_clusters() { return detail::impl::dim_volume(dim_clusters()); }
  COHORT_DEVICE static unsigned long long size() { return num_threads(); }
  COHORT_DEVICE static dim3 dim_blocks() { return detail::impl::this_grid_dim(); }
  COHORT_DEVICE static dim3 dim_clusters() { return detail::impl::this_cluster_grid_dim(); }
  COHORT_DEVICE static dim3 block_index() { return detail::impl::this_block_index(); }
  COHORT_DEVICE static dim3 cluster_index() { return detail::impl::this_cluster_index(); }
  COHORT_DEVICE static dim3 group_dim() { return dim_blocks(); }
  // The grid's extent and the caller's index in threads, per dimension.
  COHORT_DEVICE static dim3 dim_threads() {
    const dim3 blocks = dim_blocks(), threads = detail::impl::this_block_dim();
    return dim3(blocks.x * threads.x, blocks.y * threads.y, blocks.z * threads.z);
  }
  COHORT_DEVICE static dim3 thread_index() {
    const dim3 block = block_index(), extent = detail::impl::this_block_dim(),
               thread = detail::impl::this_thread_index();
    return dim3(block.x * extent.x + thread.x, block.y * extent.y + thread.y, block.z * extent.z + thread.z);
  }

 private:
  COHORT_DEVICE explicit grid_group(detail::impl::grid_state state)
      : thread_group(detail::group_kind::grid, group_data{state}) {}

  friend COHORT_DEVICE grid_group this_grid();
  friend struct detail::group_access;
};

COHORT_DEVICE inline grid_group this_grid() { return grid_group(detail::impl::this_grid_state()); }

COHORT_DEVICE inline const detail::impl::grid_state& detail::group_access::state(const grid_group& g) {
  return g.data_.grid;
}

}  // namespace cohort
