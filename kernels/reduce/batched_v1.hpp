// The batched reduce sum, version 1: one block per batch, each thread
// sums a strided share of the batch, and the block adds the shares with the
// tree in shared memory (through cohort's thread_block, as the seed does with
// NVIDIA's). The full reduce (full_reduce.hpp) is built on its block sum.
#pragma once

#include <cstddef>

#include <cohort/cohort.hpp>

#include "reduce/block_sum.hpp"

namespace cohort_kernels {

// The seed's thread_reduce_sum: elements start, start + stride, ... below n.
__device__ inline float strided_sum(const float* __restrict__ in, std::size_t start, std::size_t n,
                                    std::size_t stride) {
  float sum = 0.0f;
  for (std::size_t i = start; i < n; i += stride) sum += in[i];
  return sum;
}

// The seed's thread_block_reduce_sum_v1: the sum of in[0, n) over a block of
// NumThreads threads, valid in thread 0.
template <std::size_t NumThreads>
__device__ float block_reduce_sum_v1(const float* __restrict__ in, std::size_t n) {
  static_assert(NumThreads % 32 == 0 && (NumThreads & (NumThreads - 1)) == 0,
                "NumThreads must be a power of two and a multiple of 32");
  __shared__ float shared[NumThreads];
  const cg::thread_block block = cg::this_thread_block();
  return block_tree_sum(block, shared, strided_sum(in, block.thread_rank(), n, NumThreads));
}

// Block b sums batch b, in[b * per_batch, (b + 1) * per_batch), into out[b].
template <std::size_t NumThreads>
__global__ void batched_reduce_sum_v1(float* __restrict__ out, const float* __restrict__ in, std::size_t per_batch) {
  const unsigned long long batch = cg::this_grid().block_rank();
  const float sum = block_reduce_sum_v1<NumThreads>(in + batch * per_batch, per_batch);
  if (cg::this_thread_block().thread_rank() == 0) out[batch] = sum;
}

}  // namespace cohort_kernels
