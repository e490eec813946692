// The batched reduce sum, version 2: as version 1, but each warp first
// sums its threads' shares with shuffles on a thread_block_tile<32>, and the
// block adds the warps' sums.
#pragma once

#include <cstddef>

#include <cohort/cohort.hpp>

#include "reduce/batched_v1.hpp"

namespace cohort_kernels {

// The seed's warp_reduce_sum: shuffles down a tile of 32; valid in rank 0.
__device__ inline float tile_reduce_sum(cg::thread_block_tile<32> group, float value) {
  for (unsigned offset = group.num_threads() / 2; offset > 0; offset /= 2) value += group.shfl_down(value, offset);
  return value;
}

// The seed's thread_block_reduce_sum_v2: every thread gets the block's sum.
template <std::size_t NumThreads, std::size_t NumWarps = NumThreads / 32>
__device__ float block_reduce_sum_v2(const float* __restrict__ in, std::size_t n) {
  static_assert(NumThreads % 32 == 0, "NumThreads must be a multiple of 32");
  __shared__ float shared[NumWarps];
  const cg::thread_block block = cg::this_thread_block();
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const float sum = tile_reduce_sum(warp, strided_sum(in, block.thread_rank(), n, NumThreads));
  if (warp.thread_rank() == 0) shared[block.thread_rank() / 32] = sum;
  block.sync();
  // Every thread reads every warp's sum: a broadcast, free of bank conflicts.
  float block_sum = 0.0f;
  for (std::size_t i = 0; i < NumWarps; ++i) block_sum += shared[i];
  return block_sum;
}

template <std::size_t NumThreads>
__global__ void batched_reduce_sum_v2(float* __restrict__ out, const float* __restrict__ in, std::size_t per_batch) {
  const unsigned long long batch = cg::this_grid().block_rank();
  const float sum = block_reduce_sum_v2<NumThreads>(in + batch * per_batch, per_batch);
  if (cg::this_thread_block().thread_rank() == 0) out[batch] = sum;
}

}  // namespace cohort_kernels
