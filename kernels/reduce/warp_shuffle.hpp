// The warp-shuffle reduction: warps sum their lanes with
// __shfl_down_sync, shared memory carries one value per warp, the first warp
// sums those, and each block adds its sum with one atomicAdd.
#pragma once

#include <cstddef>

#include <cohort/cohort.hpp>

#include "common/grid_size.hpp"
#include "reduce/block_sum.hpp"
#include "reduce/reduce_plan.hpp"

namespace cohort_kernels {

template <class T>
__global__ void sum_warp_shuffle_kernel(T* out, const T* __restrict__ in, std::size_t n) {
  const T block_sum = block_warp_sum(cg::dynamic_shared<T>(), grid_stride_sum(in, n));
  if (threadIdx.x == 0) atomicAdd(out, block_sum);
}

inline reduce_plan plan_sum_warp_shuffle(std::size_t n) {
  constexpr std::size_t shared = warp_sums_bytes<float>(reduce_block_threads);
  const unsigned grid = resident_grid(sum_warp_shuffle_kernel<float>, reduce_block_threads, n, shared);
  return {launch_text(grid, reduce_block_threads), [grid, n](const float* in, float* out) {
            cohort::fill(out, 0.0f, 1);
            cohort::launch<sum_warp_shuffle_kernel<float>>({grid, reduce_block_threads, shared}, out, in, n);
          }};
}

inline constexpr reduce_variant sum_warp_shuffle{
    "warp-shuffle", "warp sums by __shfl_down_sync, an atomicAdd per block", &plan_sum_warp_shuffle};

}  // namespace cohort_kernels
