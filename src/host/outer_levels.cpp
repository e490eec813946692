// The scheduler's hooks for the levels above the grid barrier: a block's
// cluster and its place in a multi-device launch's grids.
#include <thread>

#include "launch_state.hpp"
#include "multi_grid_levels.hpp"
#include "scheduler.hpp"

namespace cohort::detail::host {

void start_outer_levels(block_runtime& rt, unsigned long long linear_block) {
  start_cluster_block(rt, linear_block);
  multi_grid_launch* mg = rt.launch->multi_grid;
  if (mg)
    rt.multi_grid.start(&mg->barrier, mg->first_block[rt.launch->grid_rank] + linear_block);
  else
    rt.multi_grid.start(nullptr, 0);
}

std::optional<bool> resolve_outer_stall(block_runtime& rt) {
  if (const auto resolved = resolve_cluster_stall(rt)) return resolved;
  if (rt.multi_grid.barrier == nullptr) return std::nullopt;
  return resolve_multi_grid_stall(rt);
}

void finish_outer_levels(block_runtime& rt) {
  finish_cluster_block(rt);
  if (rt.multi_grid.barrier) rt.multi_grid.barrier->block_exited(rt.multi_grid.phases_arrived, rt.multi_grid.rank);
}

void outer_levels_thread_exit(block_runtime& rt, thread_record& thread) {
  spanning_thread_exit(rt, rt.cluster.barrier, cluster_level, thread);
  spanning_thread_exit(rt, rt.multi_grid, multi_grid_level, thread);
}

}  // namespace cohort::detail::host
