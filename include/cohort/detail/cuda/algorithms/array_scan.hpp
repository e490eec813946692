// Whole-array scans on the CUDA backend, both built on the tiles of
// detail/cuda/algorithms/array_tiles.hpp and exact in index order for any associative
// operator:
// - device_*_scan: single pass with decoupled look-back, a block per tile:
//   a tile publishes its total, finds the prefix of the tiles before it
//   from their records (tile_status.hpp), publishes its inclusive total and
//   writes its elements. Each element is read once and written once.
// - grid_*_scan inside a user's cooperative kernel, which has no scratch of
//   its own: reduce-then-scan. Each block folds its run of whole tiles, the
//   grid's rank-ordered exclusive scan gives each block the total before its
//   run, and the block scans its run again from there: the input is read
//   twice.
#pragma once

#include <cstddef>
#include <string>

#include "cohort/collectives/scan.hpp"
#include "cohort/detail/cuda/algorithms/array_reduce.hpp"
#include "cohort/detail/cuda/algorithms/array_scratch.hpp"
#include "cohort/detail/cuda/algorithms/array_tiles.hpp"
#include "cohort/detail/cuda/algorithms/tile_status.hpp"
#include "cohort/detail/partial_value.hpp"
#include "cohort/groups/grid_group.hpp"

namespace cohort::detail::gpu {

// Scans tile t of in[0, n) into out; prefix_of as scan_tile's.
template <bool Inclusive, class T, class Op, class PrefixOf>
__device__ __forceinline__ void scan_one_tile(tile_exchange<T>& shared, const T* in, T* out, std::size_t n,
                                              std::size_t t, bool vector, Op op, PrefixOf&& prefix_of, unsigned warps) {
  const std::size_t tile = tile_items<T>(warps);
  const std::size_t base = t * tile;
  const bool whole = base + tile <= n;
  lane_items<T> items;
  load_tile(items, in, base, n, whole, vector);
  scan_tile<Inclusive>(items, shared, op, prefix_of, warps);
  store_tile(items, out, base, n, whole, vector);
}

// The look-back kernel: one block per tile, tile = block index. A tile waits
// only on tiles of lower index, and the hardware starts a grid's blocks in
// index order as earlier ones retire (CUB's single-pass scan relies on the
// same), so the launch needs no co-residency and no tile counter.
//
// A block is Warps warps that load, scan and store the tile's elements, and
// one more, the look-back warp, which reads the predecessors' records from
// the moment the block starts, while the tile's loads are in flight: the
// prefix is usually known by the time the tile's own total is, and the tile
// publishes its inclusive total right after its aggregate. (When warp 0 of
// the tile looked back after the tile's barrier, the other warps waited for
// it there with no load in flight; docs/algorithms.md has the measurements.)
// They meet at named barriers: the data warps' own (1), the total handed
// from data warp 0 to the look-back warp (2), and the prefix handed back
// (3). Both sides of a hand-over sync at its barrier: a producer's
// bar.arrive orders its stores as well, but compute-sanitizer's racecheck
// does not follow it and reported every hand-over as a shared-memory hazard
// (thousands in a user's kernel). At either barrier the other side is
// already there or nearly so. The barriers are the compiler's builtin
// (__barrier_sync_count), not inline assembly, so that the compiler knows
// them for what they are (docs/measurements/2026-11-30-gpu-scan-racecheck.md).
template <unsigned Warps>
struct data_warps_barrier {
  __device__ void operator()() const { __barrier_sync_count(1, Warps * 32); }
};

// Blocks of the look-back kernel an SM must hold. A loaded tile waits for
// its prefix, and while it waits it holds its registers: the tiles in flight,
// not the memory system, bound the scan's rate (docs/algorithms.md). For
// elements of up to 4 bytes the kernel fits in 32 registers (a few bytes
// spill), so an SM holds the most blocks its threads allow, 8 of 256
// threads instead of 5 at the compiler's own 48 registers: 1.24x CUB's speed
// at 16M ints against 1.18x (6 blocks at 40 registers: 1.21x; H100). Larger
// elements need more registers for the operator; they keep the compiler's
// choice above 4 blocks.
template <class T, unsigned Warps>
inline constexpr unsigned look_back_blocks_per_sm = sizeof(T) <= 4 ? 64 / (Warps + 1) : 32 / (Warps + 1);

template <unsigned Warps, unsigned Windows, bool Inclusive, class T, class Op>
__global__ void __launch_bounds__((Warps + 1) * 32, (look_back_blocks_per_sm<T, Warps>))
    look_back_scan_kernel(const T* in, T* out, std::size_t n, partial<T> init, Op op, tile_status<T> status) {
  constexpr unsigned block = (Warps + 1) * 32;
  __shared__ tile_exchange<T> shared;
  const std::size_t t = blockIdx.x;
  const lifted<Op> lift{op};
  // The last tile's records are never read: nothing comes after it.
  const bool publishes = t + 1 < gridDim.x;
  if (threadIdx.x / 32 == Warps) {
    const partial<T> before = t > 0 ? partial<T>{look_back<Windows>(status, t, op), true} : absent<T>();
    __barrier_sync_count(2, 64);  // the tile's total is in
    if (lane_id() == 0) {
      if (publishes && t > 0) status.publish(t, lift(before, shared.tile_total).value, true);
      shared.tile_prefix = lift(init, before);
    }
    __syncwarp();
    __barrier_sync_count(3, block);
    return;
  }
  const bool vector = vector_aligned(in) && vector_aligned(out);
  const std::size_t base = t * tile_items<T>(Warps);
  const bool whole = base + tile_items<T>(Warps) <= n;
  lane_items<T> items;
  load_tile(items, in, base, n, whole, vector);
  scan_tile<Inclusive>(
      items, shared, op,
      [&](partial<T> total) {
        if (threadIdx.x < 32) {
          if (threadIdx.x == 0) {
            // The aggregate, for tiles whose look-back passes this one before
            // its inclusive total is known; tile 0's total is its inclusive total.
            if (publishes) status.publish(t, total.value, t == 0);
            shared.tile_total = total;
          }
          __syncwarp();
          __barrier_sync_count(2, 64);
        }
        __barrier_sync_count(3, block);  // the prefix is in
        return shared.tile_prefix;
      },
      Warps, data_warps_barrier<Warps>{});
  store_tile(items, out, base, n, whole, vector);
}

// Tiles of 7 warps: with the look-back warp, blocks of 256 threads.
inline constexpr unsigned scan_warps = 7;

// One launch of the look-back scan in tiles of Warps warps, its look-back
// reading Windows windows of 32 records at a time.
template <unsigned Warps, unsigned Windows, bool Inclusive, class T, class Op>
void look_back_scan(const T* in, T* out, std::size_t n, partial<T> init, Op op, stream_t stream) {
  if (n == 0) return;
  const std::size_t tiles = (n + tile_items<T>(Warps) - 1) / tile_items<T>(Warps);
  if (tiles > 0x7FFFFFFFu)
    throw cohort::error(errc::invalid_argument, "device scan of " + std::to_string(n) + " elements: more tiles of " +
                                                    std::to_string(tile_items<T>(Warps)) +
                                                    " than a grid has blocks (2^31 - 1); scan it in parts");
  const array_scratch scratch = scratch_for(scratch_use::scan, stream, tile_status<T>::bytes(tiles));
  launch_array_kernel(look_back_scan_kernel<Warps, Windows, Inclusive, T, Op>, static_cast<unsigned>(tiles),
                      (Warps + 1) * 32, stream, false, in, out, n, init, op,
                      tile_status<T>{scratch.data, tiles, scratch.epoch});
}

template <bool Inclusive, class T, class Op>
void device_scan(const T* in, T* out, std::size_t n, partial<T> init, Op op, stream_t stream) {
  look_back_scan<scan_warps, look_back_windows, Inclusive>(in, out, n, init, op, stream);
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
    scan_one_tile<Inclusive>(
        shared, in, out, n, t, vector, op,
        [&](partial<T> total) {
          const partial<T> prefix = carry;
          carry = lift(carry, total);
          __syncthreads();  // every warp has read the warps' totals before the next tile writes them
          return prefix;
        },
        warps);
}

}  // namespace cohort::detail::gpu
