// Reductions by cohort's whole-array algorithms (docs/algorithms.md): what
// the cooperative kernel builds by hand from block sums, grid.sync()
// and a last block, as one call inside the user's cooperative kernel
// (grid_reduce), and as one call from the host (device_reduce), whose grid
// the library sizes itself.
#pragma once

#include <cstddef>
#include <string>

#include <cohort/cohort.hpp>

#include "common/grid_size.hpp"
#include "reduce/block_sum.hpp"
#include "reduce/reduce_plan.hpp"

namespace cohort_kernels {

template <class T>
__global__ void sum_grid_collective_kernel(T* out, const T* __restrict__ in, std::size_t n) {
  cohort::grid_reduce(cohort::this_grid(), in, n, out, cohort::plus<T>());
}

inline cohort_kernels::reduce_plan plan_sum_grid_collective(std::size_t n) {
  using cohort_kernels::reduce_block_threads;
  const unsigned grid = cohort_kernels::resident_grid(sum_grid_collective_kernel<float>, reduce_block_threads, n);
  return {cohort_kernels::launch_text(grid, reduce_block_threads) + " cooperative",
          [grid, n](const float* in, float* out) {
            cohort::launch_cooperative<sum_grid_collective_kernel<float>>({grid, reduce_block_threads}, out, in, n);
          }};
}

inline constexpr cohort_kernels::reduce_variant sum_grid_collective{
    "grid-reduce", "one cooperative kernel calling cohort::grid_reduce", &plan_sum_grid_collective};

inline cohort_kernels::reduce_plan plan_device_reduce(std::size_t n) {
  return {"cohort::device_reduce",
          [n](const float* in, float* out) { cohort::device_reduce(in, n, out, cohort::plus<float>()); }};
}

inline constexpr cohort_kernels::reduce_variant device_reduce{"device-reduce", "cohort::device_reduce from the host",
                                                              &plan_device_reduce};

}  // namespace cohort_kernels
