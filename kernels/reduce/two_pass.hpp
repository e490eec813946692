// The two-pass reduction: a first launch leaves one partial sum per
// block, a second launch of a single block sums the partials. No atomics; the
// kernel boundary is the grid-wide barrier.
#pragma once

#include <cstddef>
#include <memory>

#include <cohort/cohort.hpp>

#include "common/grid_size.hpp"
#include "reduce/block_sum.hpp"
#include "reduce/reduce_plan.hpp"

namespace cohort_kernels {

// Block b writes the sum of its grid-stride share of in[0, n) to out[b]. Both
// passes are this kernel: the second runs one block over the first's output.
template <class T>
__global__ void sum_per_block_kernel(T* out, const T* __restrict__ in, std::size_t n) {
  const T block_sum = block_tree_sum(cg::this_thread_block(), cg::dynamic_shared<T>(), grid_stride_sum(in, n));
  if (threadIdx.x == 0) out[blockIdx.x] = block_sum;
}

inline reduce_plan plan_sum_two_pass(std::size_t n) {
  constexpr std::size_t shared = reduce_block_threads * sizeof(float);
  const unsigned grid = resident_grid(sum_per_block_kernel<float>, reduce_block_threads, n, shared);
  auto partials = std::make_shared<cohort::device_buffer<float>>(grid);
  return {launch_text(grid, reduce_block_threads) + " + " + launch_text(1, reduce_block_threads),
          [grid, n, partials](const float* in, float* out) {
            cohort::launch<sum_per_block_kernel<float>>({grid, reduce_block_threads, shared}, partials->data(), in, n);
            cohort::launch<sum_per_block_kernel<float>>({1, reduce_block_threads, shared}, out, partials->data(),
                                                        std::size_t{grid});
          }};
}

inline constexpr reduce_variant sum_two_pass{"two-pass", "a partial per block, then one block sums the partials",
                                             &plan_sum_two_pass};

}  // namespace cohort_kernels
