// A reduction by cohort's grid-level collective (docs/collectives.md): what
// the cooperative kernel builds by hand from block sums, grid.sync()
// and a last block, as one call. Each thread adds its grid-stride share, and
// reduce_store_async folds the shares of the whole grid and has one thread
// store the total, so no thread waits for a broadcast it does not need.
#pragma once

#include <cstddef>
#include <string>

#include <cohort/cohort.hpp>

#include "common/grid_size.hpp"
#include "reduce/block_sum.hpp"
#include "reduce/reduce_plan.hpp"

namespace cohort_cli {

template <class T>
__global__ void sum_grid_collective_kernel(T* out, const T* __restrict__ in, std::size_t n) {
  cohort::reduce_store_async(cohort::this_grid(), out, cohort_examples::grid_stride_sum(in, n), cohort::plus<T>());
}

inline cohort_examples::reduce_plan plan_sum_grid_collective(std::size_t n) {
  using cohort_examples::reduce_block_threads;
  const unsigned grid = cohort_examples::resident_grid(sum_grid_collective_kernel<float>, reduce_block_threads, n);
  return {cohort_examples::launch_text(grid, reduce_block_threads) + " cooperative",
          [grid, n](const float* in, float* out) {
            cohort::launch_cooperative<sum_grid_collective_kernel<float>>({grid, reduce_block_threads}, out, in, n);
          }};
}

inline constexpr cohort_examples::reduce_variant sum_grid_collective{
    "grid-reduce", "one cooperative kernel: grid-stride partials, then cohort::reduce_store_async over the grid",
    &plan_sum_grid_collective};

}  // namespace cohort_cli
