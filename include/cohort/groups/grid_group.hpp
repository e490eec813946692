// grid_group and this_grid(), written once over the backend's grid primitives
// (detail/<backend>/implicit_groups.hpp): the grid's shape and the grid
// barrier, which only a cooperative launch may use (is_valid()).
#pragma once

#include "cohort/backend.hpp"
#include "cohort/kernel_language.hpp"

#include COHORT_BACKEND_HEADER(implicit_groups.hpp)

namespace cohort {

class grid_group;
namespace detail {
// How backend code reaches the state a grid_group carries (the CUDA grid barrier).
struct group_access {
  COHORT_DEVICE static const impl::grid_state& state(const grid_group& g);
};
}  // namespace detail

class grid_group {
 public:
  struct arrival_token {
    detail::impl::grid_arrival_token arrival;
  };

  // True in a cooperative launch, the only kind whose blocks may wait for each other.
  COHORT_DEVICE bool is_valid() const { return detail::impl::grid_barrier_valid(state_); }
  COHORT_DEVICE void sync(call_site where = call_site::current()) const {
    detail::impl::grid_barrier_sync(state_, where);
  }
  COHORT_DEVICE arrival_token barrier_arrive(call_site where = call_site::current()) const {
    return {detail::impl::grid_barrier_arrive(state_, where)};
  }
  COHORT_DEVICE void barrier_wait(arrival_token&& token, call_site where = call_site::current()) const {
    detail::impl::grid_barrier_wait(state_, token.arrival, where);
  }

  COHORT_DEVICE static unsigned long long thread_rank() {
    return block_rank() * detail::impl::threads_per_block() + detail::impl::thread_rank_in_block();
  }
  COHORT_DEVICE static unsigned long long block_rank() {
    return detail::impl::linear_index(detail::impl::this_block_index(), detail::impl::this_grid_dim());
  }
  COHORT_DEVICE static unsigned long long cluster_rank() {
    return detail::impl::linear_index(cluster_index(), dim_clusters());
  }
  COHORT_DEVICE static unsigned long long num_threads() { return num_blocks() * detail::impl::threads_per_block(); }
  COHORT_DEVICE static unsigned long long num_blocks() { return detail::impl::dim_volume(dim_blocks()); }
  COHORT_DEVICE static unsigned long long num_clusters() { return detail::impl::dim_volume(dim_clusters()); }
  COHORT_DEVICE static unsigned long long size() { return num_threads(); }
  COHORT_DEVICE static dim3 dim_blocks() { return detail::impl::this_grid_dim(); }
  COHORT_DEVICE static dim3 dim_clusters() { return detail::impl::this_cluster_grid_dim(); }
  COHORT_DEVICE static dim3 block_index() { return detail::impl::this_block_index(); }
  COHORT_DEVICE static dim3 cluster_index() { return detail::impl::this_cluster_index(); }
  COHORT_DEVICE static dim3 group_dim() { return dim_blocks(); }

 private:
  COHORT_DEVICE explicit grid_group(detail::impl::grid_state state) : state_(state) {}

  detail::impl::grid_state state_;

  friend COHORT_DEVICE grid_group this_grid();
  friend struct detail::group_access;
};

COHORT_DEVICE inline grid_group this_grid() { return grid_group(detail::impl::this_grid_state()); }

COHORT_DEVICE inline const detail::impl::grid_state& detail::group_access::state(const grid_group& g) {
  return g.state_;
}

}  // namespace cohort
