// The full reduce sum: one cooperative launch reduces the whole array
// in stages. Each stage cuts its input into chunks of NumBlockElements, each
// block sums chunks into a workspace, grid.sync() ends the stage, and the
// next stage reduces the workspace, until one value is left.
//
// The seed writes its two ping-pong halves at workspace and workspace + n/2,
// which overlap when n is small; here the halves are sized from the stage's
// output (full_reduce_workspace_size).
#pragma once

#include <cstddef>

#include <cohort/cohort.hpp>

#include "reduce/batched_v1.hpp"

namespace cohort_kernels {

// The most values one stage writes: a value per chunk, plus one per block for
// the last round of chunks, where blocks past the end write zeros.
__host__ __device__ inline std::size_t full_reduce_stage_capacity(std::size_t n, std::size_t block_elements,
                                                                  std::size_t blocks) {
  return (n + block_elements - 1) / block_elements + blocks;
}

inline std::size_t full_reduce_workspace_size(std::size_t n, std::size_t block_elements, std::size_t blocks) {
  return 2 * full_reduce_stage_capacity(n, block_elements, blocks);
}

// One stage: chunk c of in[0, n) is summed into out[c], chunks dealt to blocks
// round-robin (chunk i * num_blocks + block_rank in round i).
template <std::size_t NumThreads, std::size_t NumBlockElements>
__device__ void full_reduce_stage(float* out, const float* __restrict__ in, std::size_t n) {
  const cg::grid_group grid = cg::this_grid();
  const std::size_t grid_elements = NumBlockElements * grid.num_blocks();
  for (std::size_t round = 0; round * grid_elements < n; ++round) {
    const std::size_t offset = round * grid_elements + grid.block_rank() * NumBlockElements;
    const std::size_t count = offset < n ? (n - offset < NumBlockElements ? n - offset : NumBlockElements) : 0;
    const float sum = block_reduce_sum_v1<NumThreads>(count ? in + offset : in, count);
    if (cg::this_thread_block().thread_rank() == 0) out[round * grid.num_blocks() + grid.block_rank()] = sum;
  }
}

template <std::size_t NumThreads, std::size_t NumBlockElements>
__global__ void full_reduce_sum(float* out, const float* __restrict__ in, std::size_t n, float* workspace) {
  static_assert(NumBlockElements % NumThreads == 0, "NumBlockElements must be a multiple of NumThreads");
  const cg::grid_group grid = cg::this_grid();
  float* const halves[2] = {workspace, workspace + full_reduce_stage_capacity(n, NumBlockElements, grid.num_blocks())};
  const float* stage_in = in;
  std::size_t remaining = n;
  int half = 0;
  do {
    full_reduce_stage<NumThreads, NumBlockElements>(halves[half], stage_in, remaining);
    grid.sync();  // the stage's sums are all written before anyone reads them
    remaining = (remaining + NumBlockElements - 1) / NumBlockElements;
    stage_in = halves[half];
    half ^= 1;
  } while (remaining > 1);
  if (grid.thread_rank() == 0) *out = stage_in[0];
}

}  // namespace cohort_kernels
