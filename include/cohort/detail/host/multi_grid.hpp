// The host backend's multi-grid primitives (src/host_runtime/launch/multi_grid.cpp): the
// grids of a multi-device cooperative launch run at once, one per virtual
// device, and their blocks meet at one barrier over every block of every grid.
#pragma once

#include <source_location>

#include "cohort/detail/host/implicit_groups.hpp"

namespace cohort::detail::host {

bool multi_grid_valid();
void multi_grid_sync(std::source_location where);
// The grid's barrier state a multi_grid_group holds is the CUDA backend's; the host needs none.
inline void multi_grid_sync(grid_state, std::source_location where) { multi_grid_sync(where); }
unsigned multi_grid_rank();
unsigned multi_grid_count();
// The rank of the grid's first thread in the launch (0 outside a multi-device launch).
unsigned long long multi_grid_first_thread();
// Inline, so that the loops pass sees the thread's rank read (current_position, threadIdx).
inline unsigned long long multi_grid_thread_rank() {
  return multi_grid_first_thread() + block_linear_rank() * threads_per_block() + thread_rank();
}
unsigned long long multi_grid_thread_count();

}  // namespace cohort::detail::host

namespace cohort::detail::host {
// Grid `grid`'s 32-byte slot for multi-grid collectives, which every grid reads.
void* multi_grid_slot(unsigned grid);
}  // namespace cohort::detail::host
