// The first reduction: every element atomically added to one result.
// Correct and simple; every add contends for the same address.
#pragma once

#include <cstddef>

#include <cohort/cohort.hpp>

#include "common/grid_size.hpp"
#include "reduce/block_sum.hpp"
#include "reduce/reduce_plan.hpp"

namespace cohort_kernels {

template <class T>
__global__ void sum_atomic_kernel(T* out, const T* __restrict__ in, std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(out, in[i]);
}

inline reduce_plan plan_sum_atomic(std::size_t n) {
  const unsigned grid = resident_grid(sum_atomic_kernel<float>, reduce_block_threads, n);
  return {launch_text(grid, reduce_block_threads), [grid, n](const float* in, float* out) {
            cohort::fill(out, 0.0f, 1);
            cohort::launch<sum_atomic_kernel<float>>({grid, reduce_block_threads}, out, in, n);
          }};
}

inline constexpr reduce_variant sum_atomic{"atomic", "every element atomicAdd-ed into the result", &plan_sum_atomic};

}  // namespace cohort_kernels
