// The shared-memory reduction: each block sums its threads' partials
// with a tree in shared memory, then one atomicAdd per block.
#pragma once

#include <cstddef>

#include <cohort/cohort.hpp>

#include "common/grid_size.hpp"
#include "reduce/block_sum.hpp"
#include "reduce/reduce_plan.hpp"

namespace cohort_kernels {

template <class T>
__global__ void sum_shared_tree_kernel(T* out, const T* __restrict__ in, std::size_t n) {
  const T block_sum = block_tree_sum(cg::this_thread_block(), cg::dynamic_shared<T>(), grid_stride_sum(in, n));
  if (threadIdx.x == 0) atomicAdd(out, block_sum);
}

inline reduce_plan plan_sum_shared_tree(std::size_t n) {
  constexpr std::size_t shared = reduce_block_threads * sizeof(float);
  const unsigned grid = resident_grid(sum_shared_tree_kernel<float>, reduce_block_threads, n, shared);
  return {launch_text(grid, reduce_block_threads), [grid, n](const float* in, float* out) {
            cohort::fill(out, 0.0f, 1);
            cohort::launch<sum_shared_tree_kernel<float>>({grid, reduce_block_threads, shared}, out, in, n);
          }};
}

inline constexpr reduce_variant sum_shared_tree{"shared-tree", "block tree in shared memory, an atomicAdd per block",
                                                &plan_sum_shared_tree};

}  // namespace cohort_kernels
