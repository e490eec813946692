// The record a block function reads (tools/loops-pass/runtime_abi.hpp has the
// same offsets): the block's thread position, frames, resume points, shape
// and, under a shuffled schedule, the order its threads run in.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cohort/detail/host/runtime/state.hpp"

namespace cohort::detail::host {

struct loops_block {
  thread_position* position;
  unsigned char* frames;
  std::uint32_t* resumes;
  std::uint32_t dim_x, dim_y, dim_z, count;
  std::uint64_t frame_bytes;
  std::uint32_t* order;  // a shuffled schedule's order of the block's ranks, drawn per block; null otherwise
  // The lane arrays of shuffles the pass lowered (loops_lane_exchange.cpp): each
  // thread's value (max_exchange_bytes a rank at most) and packed argument, and
  // the results the exchange leaves for the region after.
  std::byte* lane_in;
  std::uint64_t* lane_arg;
  std::byte* lane_out;
  // A kernel with grid barriers (loops_grid.cpp): where the block resumes (0 at
  // its start, else the grid barrier it waited at), and its kept store.
  std::uint32_t grid_resume;
  std::byte* kept_store;
};
static_assert(offsetof(loops_block, position) == 0 && offsetof(loops_block, frames) == 8 &&
              offsetof(loops_block, resumes) == 16 && offsetof(loops_block, dim_x) == 24 &&
              offsetof(loops_block, dim_y) == 28 && offsetof(loops_block, count) == 36 &&
              offsetof(loops_block, order) == 48 && offsetof(loops_block, lane_in) == 56 &&
              offsetof(loops_block, lane_arg) == 64 && offsetof(loops_block, lane_out) == 72 &&
              offsetof(loops_block, grid_resume) == 80 && offsetof(loops_block, kept_store) == 88);

}  // namespace cohort::detail::host

extern "C" {
// The block services of loops_block.cpp, for the grid's (loops_grid.cpp).
cohort::detail::host::loops_block* cohort_loops_begin_block(std::uint64_t frame_bytes);
std::uint32_t cohort_loops_next_block(cohort::detail::host::loops_block* block);
cohort::detail::host::loops_block* cohort_loops_begin_unphased_block(std::uint64_t frame_bytes,
                                                                     std::uint64_t kept_bytes);
}
