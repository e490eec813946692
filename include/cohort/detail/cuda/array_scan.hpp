// Whole-array scans on the CUDA backend, both built on the tiles of
// detail/cuda/array_tiles.hpp and exact in index order for any associative
// operator:
// - device_*_scan: single pass with decoupled look-back. A persistent grid
//   (a cooperative launch, so every block is resident) takes tiles in
//   order from a counter; a tile publishes its total, finds the prefix
//   of the tiles before it from their records (tile_status.hpp), publishes
//   its inclusive total and writes its elements. Each element is read once
//   and written once.
// - grid_*_scan inside a user's cooperative kernel, which has no scratch of
//   its own: reduce-then-scan. Each block folds its run of whole tiles, the
//   grid's rank-ordered exclusive scan gives each block the total before its
//   run, and the block scans its run again from there: the input is read
//   twice.
#pragma once

#include <cstddef>

#include "cohort/groups/grid_group.hpp"
#include "cohort/collectives/scan.hpp"
#include "cohort/detail/cuda/array_reduce.hpp"
#include "cohort/detail/cuda/array_scratch.hpp"
#include "cohort/detail/cuda/array_tiles.hpp"
#include "cohort/detail/cuda/tile_status.hpp"
#include "cohort/detail/partial_value.hpp"

namespace cohort::detail::gpu {

// Scans tile t of in[0, n) into out; prefix_of as scan_tile's.
template <bool Inclusive, class T, class Op, class PrefixOf>
__device__ __forceinline__ void scan_one_tile(tile_exchange<T>& shared, const T* in, T* out, std::size_t n,
                                              std::size_t t, bool vector, Op op, PrefixOf&& prefix_of,
                                              unsigned warps) {
  const std::size_t tile = tile_items<T>(warps);
  const std::size_t base = t * tile;
  const bool whole = base + tile <= n;
  lane_items<T> items;
  load_tile(items, in, base, n, whole, vector);
  scan_tile<Inclusive>(items, shared, op, prefix_of, warps);
  store_tile(items, out, base, n, whole, vector);
}

// The look-back kernel's blocks: 8 warps, at least 4 resident per SM (so at
// most 64 registers a thread). While warp 0 of a block looks back, its other
// warps wait at the block's barrier; other blocks on the SM keep memory
// busy. Blocks of 4 warps (8 per SM) and of 2 (16 per SM) measured slower:
// more, smaller tiles lengthen the chain of look-backs (docs/algorithms.md).
inline constexpr unsigned scan_warps = 8;
inline constexpr unsigned scan_blocks_per_sm = 4;

// Blocks take tiles in the order they become free, from a counter: a
// tile's predecessors were taken earlier, so its look-back finds them done
// or nearly (with tiles fixed per block, a whole wave of tiles started at
// once and waited on one another's look-backs). The last block to finish
// resets the counter for the next launch on the stream.
struct tile_counter {
  unsigned long long next;
  unsigned finished;
};

template <bool Inclusive, class T, class Op>
__global__ void __launch_bounds__(scan_warps * 32, scan_blocks_per_sm)
    look_back_scan_kernel(const T* in, T* out, std::size_t n, partial<T> init, Op op, tile_status<T> status,
                          tile_counter* counter) {
  __shared__ tile_exchange<T> shared;
  __shared__ unsigned long long taken;
  const std::size_t tiles = (n + tile_items<T>(scan_warps) - 1) / tile_items<T>(scan_warps);
  const bool vector = vector_aligned(in) && vector_aligned(out);
  const lifted<Op> lift{op};
  for (;;) {
    // Every thread has read the last tile's number before this write: the
    // tile's scan passed the block's barriers since.
    if (threadIdx.x == 0) taken = atomicAdd(&counter->next, 1ull);
    __syncthreads();
    const std::size_t t = taken;
    if (t >= tiles) break;
    // The last tile's records are never read: nothing comes after it.
    const bool publishes = t + 1 < tiles;
    scan_one_tile<Inclusive>(shared, in, out, n, t, vector, op, [&](partial<T> total) {
      if (threadIdx.x < 32) {
        partial<T> before = absent<T>();
        if (t > 0) {
          if (publishes && threadIdx.x == 0) status.publish(t, total.value, false);
          before = {look_back(status, t, op), true};
        }
        if (threadIdx.x == 0) {
          if (publishes) status.publish(t, lift(before, total).value, true);
          shared.tile_prefix = lift(init, before);
        }
      }
      __syncthreads();
      return shared.tile_prefix;
    }, scan_warps);
  }
  if (threadIdx.x == 0 && atomicAdd(&counter->finished, 1u) == gridDim.x - 1) {
    counter->next = 0;  // every block has taken its last number
    counter->finished = 0;
  }
}

// The scan's scratch: the tile counter, then the tile records.
inline constexpr std::size_t scan_header_bytes = 256;

template <bool Inclusive, class T, class Op>
void device_scan(const T* in, T* out, std::size_t n, partial<T> init, Op op, stream_t stream) {
  if (n == 0) return;
  constexpr unsigned threads = scan_warps * 32;
  const auto kernel = look_back_scan_kernel<Inclusive, T, Op>;
  const std::size_t tiles = (n + tile_items<T>(scan_warps) - 1) / tile_items<T>(scan_warps);
  const int resident = resident_blocks(kernel, threads);
  const unsigned blocks = static_cast<unsigned>(tiles < static_cast<std::size_t>(resident) ? tiles : resident);
  const array_scratch scratch =
      scratch_for(scratch_use::scan, stream, scan_header_bytes + tile_status<T>::bytes(tiles));
  char* records = static_cast<char*>(scratch.data) + scan_header_bytes;
  launch_array_kernel(kernel, blocks, threads, stream, true, in, out, n, init, op,
                      tile_status<T>{records, tiles, scratch.epoch}, static_cast<tile_counter*>(scratch.data));
}

// Reduce-then-scan by the grid of a user's cooperative kernel (1-D blocks of whole warps).
template <bool Inclusive, class T, class Op>
__device__ void tiled_grid_scan(const grid_group& grid, const T* in, T* out, std::size_t n, partial<T> init, Op op) {
  __shared__ tile_exchange<T> shared;
  const unsigned warps = blockDim.x / 32;
  const std::size_t tiles = (n + tile_items<T>(warps) - 1) / tile_items<T>(warps);
  const tile_run run = tiles_of_block(tiles, grid.block_rank(), grid.num_blocks());
  const lifted<Op> lift{op};
  const partial<T> block_total = fold_block_tiles(in, n, run, op);
  const partial<T> before = cohort::exclusive_scan(grid, threadIdx.x == 0 ? block_total : absent<T>(), lift);
  if (threadIdx.x == 0) shared.tile_prefix = lift(init, before);
  __syncthreads();
  partial<T> carry = shared.tile_prefix;
  const bool vector = vector_aligned(in) && vector_aligned(out);
  for (std::size_t t = run.begin; t < run.end; ++t)
    scan_one_tile<Inclusive>(shared, in, out, n, t, vector, op, [&](partial<T> total) {
      const partial<T> prefix = carry;
      carry = lift(carry, total);
      __syncthreads();  // every warp has read the warps' totals before the next tile writes them
      return prefix;
    }, warps);
}

}  // namespace cohort::detail::gpu
