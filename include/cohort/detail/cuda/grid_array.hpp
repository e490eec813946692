// The CUDA backend's whole-array grid algorithms inside a cooperative kernel
// (cohort/algorithms/grid_algorithms.hpp): cohort's commutative operators
// take the vectorized grid-stride fold; any other operator takes the
// in-order tiles when the blocks are 1-D and of whole warps, and each
// thread's run of consecutive elements otherwise.
#pragma once

#include <cstddef>

#include "cohort/collectives/reduce.hpp"
#include "cohort/detail/cuda/algorithms/array_reduce.hpp"
#include "cohort/detail/cuda/algorithms/array_scan.hpp"
#include "cohort/detail/cuda/algorithms/grid_look_back_scan.hpp"
#include "cohort/detail/cuda/collectives/grid_fold.hpp"
#include "cohort/detail/cuda/collectives/grid_last_arrival.hpp"
#include "cohort/detail/grid_chunks.hpp"
#include "cohort/detail/partial_value.hpp"
#include "cohort/groups/grid_group.hpp"

namespace cohort::detail {

// The tiles need a 1-D block of whole warps.
__device__ __forceinline__ bool block_takes_tiles() {
  return blockDim.y == 1 && blockDim.z == 1 && blockDim.x % 32 == 0;
}

template <class T, class Op>
__device__ partial<T> grid_array_reduce(const grid_group& grid, const T* in, std::size_t n, Op op) {
  if (n == 0) return absent<T>();
  if constexpr (gpu::strided_fold_allowed<Op, T>) {
    return {cohort::reduce(grid, gpu::strided_fold(in, n, op, grid.thread_rank(), grid.num_threads()), op), true};
  } else {
    return block_takes_tiles() ? gpu::ordered_grid_fold(grid, in, n, op) : chunked_reduce(grid, in, n, op);
  }
}

// Only the address needs this total: with cohort's commutative operators,
// the last block to arrive folds the blocks' totals, in any order, and no
// block waits (grid_last_arrival.hpp).
template <class T, class Op>
__device__ void grid_array_reduce_into(const grid_group& grid, const T* in, std::size_t n, T* out, Op op) {
  if constexpr (gpu::strided_fold_allowed<Op, T> && gpu::word_count<T> <= 2) {
    if (n != 0) {
      gpu::open_last_arrival(group_access::state(grid));
      const T identity = identity_of<Op, T>();
      // Enough blocks for four vectors a thread, one pass of strided_fold's
      // loads all in flight; the others load nothing and publish the identity.
      const unsigned long long block_threads = gpu::dim_volume(blockDim);
      const unsigned long long per_block = 4ull * gpu::vector_items<T> * block_threads;
      const unsigned long long loading = min((n + per_block - 1) / per_block, gpu::dim_volume(gridDim));
      const T mine = gpu::block_rank_in_grid() < loading
                         ? gpu::strided_fold(in, n, op, grid.thread_rank(), loading * block_threads)
                         : identity;
      gpu::store_grid_total_any_order(out, mine, op, identity);
      return;
    }
  }
  store_from_grid_leader(grid, grid_array_reduce(grid, in, n, op), out, op);
}

// One pass with a look-back (grid_look_back_scan.hpp) where the blocks have
// two warps or more, else reduce-then-scan (array_scan.hpp). Reduce-then-scan
// also stays in the kernel for that case: without it ptxas gave the bench's
// scan kernel 69 registers instead of 63.
template <bool Inclusive, class T, class Op>
__device__ void grid_array_scan(const grid_group& grid, const T* in, T* out, std::size_t n, partial<T> init, Op op) {
  if (n == 0) return;
  if (!block_takes_tiles()) {
    chunked_scan<Inclusive>(grid, in, out, n, init, op);
    return;
  }
  if (blockDim.x >= 64) {
    const std::size_t tile = gpu::tile_items<T>(blockDim.x / 32 - 1);
    const std::size_t tiles = (n + tile - 1) / tile;
    const unsigned blocks = gpu::grid_scan_blocks();
    const std::size_t rounds = (tiles + blocks - 1) / blocks;
    if (rounds < gpu::last_epoch / 2) {
      gpu::look_back_grid_scan<Inclusive>(group_access::state(grid), in, out, n, init, op, tiles,
                                          static_cast<unsigned>(rounds));
      return;
    }
  }
  gpu::tiled_grid_scan<Inclusive>(grid, in, out, n, init, op);
}

}  // namespace cohort::detail
