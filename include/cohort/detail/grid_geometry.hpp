// The grid's ranks and sizes from the backend's indices, shared by grid_group
// and by thread_group's dispatch.
#pragma once

#include "cohort/backend.hpp"

#include COHORT_BACKEND_HEADER(implicit_groups.hpp)

namespace cohort::detail {

COHORT_DEVICE inline unsigned long long grid_block_rank() {
  return impl::linear_index(impl::this_block_index(), impl::this_grid_dim());
}
COHORT_DEVICE inline unsigned long long grid_num_blocks() { return impl::dim_volume(impl::this_grid_dim()); }
COHORT_DEVICE inline unsigned long long grid_thread_rank() {
  return grid_block_rank() * impl::threads_per_block() + impl::thread_rank_in_block();
}
COHORT_DEVICE inline unsigned long long grid_num_threads() { return grid_num_blocks() * impl::threads_per_block(); }

}  // namespace cohort::detail
