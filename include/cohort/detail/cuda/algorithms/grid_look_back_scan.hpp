// grid_*_scan inside a user's cooperative kernel, in one pass: the decoupled
// look-back of the device scan (array_scan.hpp) run by the user's resident
// grid over the tiles in rounds. Block b scans tiles b, b + G, b + 2G, ...;
// its last warp looks back over its tile's predecessors while the other warps
// load, scan and store the tile's elements (the device scan's block shape:
// 256 threads are 7 data warps and a look-back warp), and the records it
// reads are the grid's (grid_scan_records.hpp). Each element is read once
// and written once, against twice and once for reduce-then-scan, whose three
// passes over the array's bytes bounded it at two thirds of CUB's speed.
#pragma once

#include <cstddef>

#include "cohort/detail/cuda/algorithms/array_tiles.hpp"
#include "cohort/detail/cuda/algorithms/grid_scan_records.hpp"
#include "cohort/detail/cuda/algorithms/tile_status.hpp"
#include "cohort/detail/partial_value.hpp"
#include "cohort/groups/grid_group.hpp"

namespace cohort::detail::gpu {

// Windows of 32 records read per round trip, and the pause between polls of
// records not yet written. In a round every block loads its tile at about
// the same time, so a look-back finds mostly aggregates, back to the
// previous round's inclusive totals: up to G - 1 records, 17 windows at 528
// blocks. Reading more windows per trip was slower all the same (H200, 16M /
// 64M ints, x CUB's speed: 1 window 0.87-0.94 / 0.83-0.87, 2 windows 0.84 /
// 0.79, 4 windows 0.74 / 0.70), and so was a look-back of fixed length that
// folds all G - 1 aggregates without waiting for inclusive totals (0.46-0.54
// / 0.41-0.48). Pauses of 200 to 2000 ns measured alike without the
// prefetch below; with it 200 ns measured 0.02-0.04x faster than 1000.
inline constexpr unsigned grid_look_back_windows = 1;
inline constexpr unsigned grid_look_back_pause_ns = 200;
// How many rounds ahead a data warp asks L2 for its next tile: with its
// loads a round ahead DRAM streams while the blocks wait for their prefixes,
// which is where they wait (docs/measurements/2026-11-29-gpu-grid-scan-prefetch.md:
// 0.85 to 1.01x CUB at 16M ints); 2 and 3 rounds ahead were slower than 1.
inline constexpr unsigned grid_scan_prefetch_rounds = 1;

// Asks L2 for the lane's elements of a whole tile from `base`, as load_tile
// would read them, ahead of their loads: a warp's request per chunk, four
// 128-byte lines.
template <class T>
__device__ __forceinline__ void prefetch_tile(const T* in, std::size_t base) {
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k)
    asm volatile("prefetch.L2 [%0];" ::"l"(in + item_index<T>(base, k, 0)));
}

// The prefix of everything before tile t = round * G + block (t > 0), as
// look_back's (tile_status.hpp): 32 predecessors at a time, nearest first,
// until one has its inclusive total, but never further back than tile
// t - G + 1: below it `carry`, the inclusive total of the block's previous
// tile t - G, stands in for the records (in round 0 tile 0 is inclusive).
template <unsigned Windows, class T, class Op>
__device__ T grid_look_back(const grid_records<T>& records, unsigned round, unsigned block, const T& carry, Op op) {
  const int lane = static_cast<int>(lane_id());
  // Tile indices relative to round - 1's first tile, so that they stay
  // non-negative: from + block is the caller's tile, `lowest` the first it
  // reads (records.blocks <= 1365, so 32 bits hold them).
  const int blocks = static_cast<int>(records.blocks);
  const int from = round > 0 ? blocks : 0;
  const int lowest = round > 0 ? block + 1 : 0;
  T prefix = carry;
  bool have = false;
  for (int end = from + static_cast<int>(block);; end -= 32 * Windows) {
    T value[Windows];
    unsigned ready = 0, inclusive = 0;  // bit w: window w's record
#pragma unroll
    for (unsigned w = 0; w < Windows; ++w) {
      value[w] = carry;
      // Below `lowest`: the carry, inclusive (round 0: before tile 0, which stops the fold first).
      if (end - 1 - lane - 32 * static_cast<int>(w) < lowest) ready |= 1u << w, inclusive |= (round > 0 ? 1u : 0u) << w;
    }
    for (;;) {
#pragma unroll
      for (unsigned w = 0; w < Windows; ++w) {
        const int index = end - 1 - lane - 32 * static_cast<int>(w);
        if (!(ready >> w & 1)) {
          const tile_record<T> r = index >= from ? records.read(round, static_cast<unsigned>(index - from), carry)
                                                 : records.read(round - 1, static_cast<unsigned>(index), carry);
          if (r.ready) {  // a record of another epoch says nothing, inclusive flag included
            value[w] = r.value;
            ready |= 1u << w;
            inclusive |= (r.inclusive ? 1u : 0u) << w;
          }
        }
      }
      if (__all_sync(all_lanes, ready == (1u << Windows) - 1)) break;
      __nanosleep(grid_look_back_pause_ns);
    }
#pragma unroll
    for (unsigned w = 0; w < Windows; ++w) {
      const unsigned lanes_inclusive = __ballot_sync(all_lanes, inclusive >> w & 1);
      const unsigned stop = lanes_inclusive ? __ffs(lanes_inclusive) - 1 : 31;
      T v = value[w];
#pragma unroll
      for (unsigned d = 1; d < 32; d *= 2) {
        const T older = shfl_down(all_lanes, v, d);
        if (static_cast<unsigned>(lane) + d <= stop) v = op(older, v);
      }
      const T window = shfl_idx(all_lanes, v, 0);
      prefix = have ? op(window, prefix) : window;
      have = true;
      if (lanes_inclusive) return prefix;
    }
  }
}

// The data warps' barrier (named barrier 1), of `threads` threads.
struct grid_data_warps_barrier {
  unsigned threads;
  __device__ void operator()() const { __barrier_sync_count(1, threads); }
};

// The blocks that scan tiles: all of them where the grid's records fit in
// its slot; on larger grids the first grid_record_lines / 3 (1365), the
// others only take part in the start.
__device__ __forceinline__ unsigned grid_scan_blocks() {
  return min(grid_blocks(), grid_record_lines / grid_record_rounds);
}

template <bool Inclusive, class T, class Op>
__device__ void look_back_grid_scan(const grid_barrier& barrier, const T* in, T* out, std::size_t n, partial<T> init,
                                    Op op, std::size_t tiles, unsigned rounds) {
  __shared__ tile_exchange<T> shared;
  const unsigned warps = blockDim.x / 32 - 1;  // data warps
  const unsigned blocks = grid_scan_blocks(), me = block_rank_in_grid();
  const std::size_t tile = tile_items<T>(warps);
  const bool look_back_warp = threadIdx.x / 32 == warps;
  const bool vector = vector_aligned(in) && vector_aligned(out);
  const lifted<Op> lift{op};
  using items_t = lane_items<T>;
  items_t items;
  // A data warp's loads of a tile are followed by a request to L2 for the
  // elements it will load `grid_scan_prefetch_rounds` rounds later, so that
  // DRAM streams them in while the block waits for its prefix and stores.
  const auto load_into = [&](items_t& into, std::size_t t) {
    load_tile(into, in, t * tile, n, (t + 1) * tile <= n, vector);
    const std::size_t later = t + static_cast<std::size_t>(grid_scan_prefetch_rounds) * blocks;
    if ((later + 1) * tile <= n) prefetch_tile(in, later * tile);
  };
  const auto load = [&](std::size_t t) {
    if (!look_back_warp) load_into(items, t);
  };
  // Round 0's loads are in flight while the grid agrees on the records' epochs.
  const grid_records<T> records = open_grid_records<T>(barrier, blocks, rounds, [&] {
    if (me < tiles && me < blocks) load(me);
  });
  if (me >= blocks) return;
  if (look_back_warp) {
    T carry{};  // the inclusive total of the block's previous tile
    for (unsigned r = 0; r < rounds; ++r) {
      const std::size_t t = static_cast<std::size_t>(r) * blocks + me;
      if (t >= tiles) break;
      const partial<T> before =
          t > 0 ? partial<T>{grid_look_back<grid_look_back_windows>(records, r, me, carry, op), true} : absent<T>();
      __barrier_sync_count(2, 64);  // the tile's total is in
      const partial<T> inclusive = lift(before, shared.tile_total);
      carry = inclusive.value;
      if (lane_id() == 0) {
        if (t > 0 && t + 1 < tiles) records.publish(r, me, inclusive.value, true);
        shared.tile_prefix = lift(init, before);
      }
      __syncwarp();
      __barrier_sync_count(3, blockDim.x);
    }
    return;
  }
  // A round as a function called until it finds no tile, rather than a loop
  // body bounded by `rounds` as well: the same work, but measured 0.06-0.09x
  // CUB's speed faster at 16M / 64M ints (ptxas gives both 63 registers; the
  // difference in the machine code was not looked for).
  const auto round = [&](items_t& current, unsigned r) {
    const std::size_t t = static_cast<std::size_t>(r) * blocks + me;
    if (t >= tiles) return false;
    if (r > 0) load_into(current, t);
    scan_tile<Inclusive>(
        current, shared, op,
        [&](partial<T> total) {
          if (threadIdx.x < 32) {
            if (threadIdx.x == 0) {
              // The aggregate, for tiles whose look-back passes this one before
              // its inclusive total is known; tile 0's total is its inclusive total.
              if (t + 1 < tiles) records.publish(r, me, total.value, t == 0);
              shared.tile_total = total;
            }
            __syncwarp();
            __barrier_sync_count(2, 64);
          }
          __barrier_sync_count(3, blockDim.x);  // the prefix is in
          return shared.tile_prefix;
        },
        warps, grid_data_warps_barrier{warps * 32});
    store_tile(current, out, t * tile, n, (t + 1) * tile <= n, vector);
    return true;
  };
  for (unsigned r = 0; round(items, r); ++r) {
  }
}

}  // namespace cohort::detail::gpu
