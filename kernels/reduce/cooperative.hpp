// The single-kernel reduction: the two passes of two-pass.hpp in one
// cooperative launch, with grid.sync() between them, on a grid sized by the
// occupancy calculator so that every block is resident at once. Blocks sum
// with warp shuffles, as the seed's kernel does.
//
// The seed's kernel loops `for (i = tid; i < n; i += block_size)`, so every
// block sums the whole input and the result is gridDim.x times too large;
// here each thread takes its grid-stride share, as the two-pass kernel does.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <cohort/cohort.hpp>

#include "common/grid_size.hpp"
#include "reduce/block_sum.hpp"
#include "reduce/reduce_plan.hpp"

namespace cohort_kernels {

template <class T>
__global__ void sum_cooperative_kernel(T* out, T* block_sums, const T* __restrict__ in, std::size_t n) {
  const cg::grid_group grid = cg::this_grid();
  const cg::thread_block block = cg::this_thread_block();
  T* warp_sums = cg::dynamic_shared<T>();

  const T block_sum = block_warp_sum(warp_sums, grid_stride_sum(in, n));
  if (block.thread_rank() == 0) block_sums[grid.block_rank()] = block_sum;

  grid.sync();  // every block's partial is written and visible

  if (grid.block_rank() == 0) {
    T sum = T(0);
    for (unsigned long long i = block.thread_rank(); i < grid.num_blocks(); i += block.size()) sum += block_sums[i];
    sum = block_warp_sum(warp_sums, sum);
    if (block.thread_rank() == 0) *out = sum;
  }
}

inline reduce_plan plan_sum_cooperative(std::size_t n) {
  constexpr std::size_t shared = warp_sums_bytes<float>(reduce_block_threads);
  const unsigned grid = resident_grid(sum_cooperative_kernel<float>, reduce_block_threads, n, shared);
  auto block_sums = std::make_shared<cohort::device_buffer<float>>(grid);
  const int per_sm = cohort::max_active_blocks_per_sm(sum_cooperative_kernel<float>, reduce_block_threads, shared);
  return {launch_text(grid, reduce_block_threads) + " cooperative (resident: " + std::to_string(per_sm) +
              " blocks/SM x " + std::to_string(cohort::get_device_properties().multiprocessor_count) + " SMs)",
          [grid, n, block_sums](const float* in, float* out) {
            cohort::launch_cooperative<sum_cooperative_kernel<float>>({grid, reduce_block_threads, shared}, out,
                                                                      block_sums->data(), in, n);
          }};
}

inline constexpr reduce_variant sum_cooperative{
    "cooperative", "one cooperative kernel: partials, grid.sync(), block 0 sums them", &plan_sum_cooperative};

}  // namespace cohort_kernels
