// The CUDA backend's whole-array grid algorithms inside a cooperative kernel
// (cohort/algorithms/grid_algorithms.hpp): cohort's commutative operators
// take the vectorized grid-stride fold; any other operator takes the
// in-order tiles when the blocks are 1-D and of 4, 8, 16 or 32 whole warps,
// and each thread's run of consecutive elements otherwise.
#pragma once

#include <cstddef>
#include <type_traits>

#include "cohort/cuda/grid_group.hpp"
#include "cohort/cuda/reduce.hpp"
#include "cohort/detail/cuda/array_reduce.hpp"
#include "cohort/detail/cuda/array_scan.hpp"
#include "cohort/detail/grid_chunks.hpp"
#include "cohort/detail/partial_value.hpp"

namespace cohort::detail {

// Calls f(std::integral_constant<unsigned, Warps>{}) if the block is a 1-D
// block of that many whole warps (Warps in 4, 8, 16, 32); false otherwise.
template <class F>
__device__ __forceinline__ bool with_block_warps(F&& f) {
  if (blockDim.y != 1 || blockDim.z != 1) return false;
  switch (blockDim.x) {
    case 128: f(std::integral_constant<unsigned, 4>{}); return true;
    case 256: f(std::integral_constant<unsigned, 8>{}); return true;
    case 512: f(std::integral_constant<unsigned, 16>{}); return true;
    case 1024: f(std::integral_constant<unsigned, 32>{}); return true;
    default: return false;
  }
}

template <class T, class Op>
__device__ partial<T> grid_array_reduce(const grid_group& grid, const T* in, std::size_t n, Op op) {
  if (n == 0) return absent<T>();
  if constexpr (gpu::strided_fold_allowed<Op, T>) {
    return {cohort::reduce(grid, gpu::strided_fold(in, n, op, grid.thread_rank(), grid.num_threads()), op), true};
  } else {
    partial<T> total;
    if (!with_block_warps([&](auto warps) { total = gpu::ordered_grid_fold<decltype(warps)::value>(grid, in, n, op); }))
      total = chunked_reduce(grid, in, n, op);
    return total;
  }
}

template <bool Inclusive, class T, class Op>
__device__ void grid_array_scan(const grid_group& grid, const T* in, T* out, std::size_t n, partial<T> init, Op op) {
  if (n == 0) return;
  if (!with_block_warps([&](auto warps) { gpu::tiled_grid_scan<Inclusive, decltype(warps)::value>(grid, in, out, n, init, op); }))
    chunked_scan<Inclusive>(grid, in, out, n, init, op);
}

}  // namespace cohort::detail
