// grid_*_scan inside a user's cooperative kernel, in one pass: the user's
// resident grid scans the tiles in rounds, block b tiles b, b + G, b + 2G,
// ... (G blocks). A block loads its tile, publishes the tile's total
// (grid_scan_records.hpp), and finds the total of everything before the tile
// from the total it carries up to its previous tile, G tiles back, and the
// published totals of the G - 1 tiles between: a look-back of fixed length,
// read by the whole block at once, that waits for no one's prefix. Each
// element is read once and written once, against twice and once for
// reduce-then-scan, whose three passes over the array's bytes bounded it at
// two thirds of CUB's speed.
#pragma once

#include <cstddef>

#include "cohort/detail/cuda/array_tiles.hpp"
#include "cohort/detail/cuda/grid_scan_records.hpp"
#include "cohort/detail/cuda/tile_status.hpp"
#include "cohort/detail/partial_value.hpp"
#include "cohort/groups/grid_group.hpp"

namespace cohort::detail::gpu {

// The pause between polls of a record not yet written.
#ifndef COHORT_LAB_GRID_PAUSE
#define COHORT_LAB_GRID_PAUSE 1000
#endif
inline constexpr unsigned grid_look_back_pause_ns = COHORT_LAB_GRID_PAUSE;
// Records each thread has in flight at once.
#ifndef COHORT_LAB_GRID_BATCH
#define COHORT_LAB_GRID_BATCH 4
#endif
inline constexpr unsigned grid_record_batch = COHORT_LAB_GRID_BATCH;

// The blocks that scan tiles: all of them where the grid's records fit in
// its slot; on larger grids the first grid_record_lines / 3 (1365), the
// others only take part in the start.
__device__ __forceinline__ unsigned grid_scan_blocks() {
  return min(grid_blocks(), grid_record_lines / grid_record_rounds);
}

// The fold, in index order, of the aggregates of the tiles between the
// block's previous tile and its tile t = round * G + block: the G - 1 tiles
// before t (round > 0), or all of them (round 0); absent if there are none.
// One warp reads them, each lane a run of consecutive records with up to
// grid_record_batch in flight, polling those not yet written, and the runs
// join by shuffles. Every lane gets the fold.
//
// No inclusive totals are read: with every block loading its tile of a
// round at about the same time, a look-back that walks 32 records per round
// trip until it meets an inclusive total (the device scan's) walked most of
// a round, up to 17 trips at 528 blocks: 0.83-0.94x CUB's speed at 16M and
// 64M ints (H200), and reading 2 or 4 windows per trip was slower still
// (0.79-0.85x, 0.70-0.79x).
template <class T, class Op>
__device__ partial<T> fold_predecessors(const grid_records<T>& records, unsigned round, unsigned block, Op op) {
  const lifted<Op> lift{op};
  const unsigned blocks = records.blocks, lane = lane_id();
  // Position k counts from round - 1's first tile (round 0's in round 0).
  const unsigned first_position = round > 0 ? block + 1 : 0;
  const unsigned count = round > 0 ? blocks - 1 : block;
  const unsigned per_lane = (count + 31) / 32;
  const unsigned from = lane * per_lane, to = min(from + per_lane, count);
  partial<T> mine = absent<T>();
  for (unsigned i = from; i < to; i += grid_record_batch) {
    T value[grid_record_batch];
    unsigned ready = 0;
#pragma unroll
    for (unsigned j = 0; j < grid_record_batch; ++j)
      if (i + j >= to) ready |= 1u << j;
    for (;;) {
#pragma unroll
      for (unsigned j = 0; j < grid_record_batch; ++j) {
        if (ready >> j & 1) continue;
        const unsigned k = first_position + i + j;
        const tile_record<T> r =
            records.read(round > 0 && k < blocks ? round - 1 : round, k < blocks ? k : k - blocks, mine.value);
        if (r.ready) {
          value[j] = r.value;
          ready |= 1u << j;
        }
      }
      if (ready == (1u << grid_record_batch) - 1) break;
      __nanosleep(grid_look_back_pause_ns);
    }
#pragma unroll
    for (unsigned j = 0; j < grid_record_batch; ++j)
      if (i + j < to) mine = lift(mine, partial<T>{value[j], true});
  }
#pragma unroll
  for (unsigned d = 1; d < 32; d *= 2) {
    const partial<T> after = shfl_down(all_lanes, mine, d);
    if (lane + d < 32) mine = lift(mine, after);
  }
  return shfl_idx(all_lanes, mine, 0);
}

// The data warps' barrier (named barrier 1), of `threads` threads.
struct grid_data_warps_barrier {
  unsigned threads;
  __device__ void operator()() const { asm volatile("bar.sync 1, %0;" ::"r"(threads) : "memory"); }
};

// Blocks of Warps data warps and a look-back warp (the device scan's shape:
// 256 threads are 7 data warps and one that looks back). The look-back warp
// folds the predecessors' records from the start of each round, while the
// data warps' loads are in flight; they meet at named barriers: the data
// warps' own (1), the tile's total handed from data warp 0 to the look-back
// warp (2), and the prefix handed back (3), each an arrive by the producer
// and a sync by the consumer.
template <bool Inclusive, class T, class Op>
__device__ void look_back_grid_scan(const grid_barrier& barrier, const T* in, T* out, std::size_t n,
                                    partial<T> init, Op op, std::size_t tiles, unsigned rounds) {
  __shared__ tile_exchange<T> shared;
  const unsigned warps = blockDim.x / 32 - 1;  // data warps
  const unsigned blocks = grid_scan_blocks(), me = block_rank_in_grid();
  const std::size_t tile = tile_items<T>(warps);
  const bool look_back_warp = threadIdx.x / 32 == warps;
  const bool vector = vector_aligned(in) && vector_aligned(out);
  const lifted<Op> lift{op};
  lane_items<T> items;
  // Round 0's loads are in flight while the grid agrees on the records' epochs.
  const grid_records<T> records = open_grid_records<T>(barrier, blocks, rounds, [&] {
    if (!look_back_warp && me < tiles && me < blocks) load_tile(items, in, me * tile, n, (me + 1) * tile <= n, vector);
  });
  if (me >= blocks) return;
  if (look_back_warp) {
    partial<T> carry = absent<T>();  // the total of every tile up to the block's previous one
    for (unsigned r = 0; r < rounds; ++r) {
      const std::size_t t = static_cast<std::size_t>(r) * blocks + me;
      if (t >= tiles) break;
      const partial<T> before = lift(carry, fold_predecessors(records, r, me, op));
      asm volatile("bar.sync 2, 64;" ::: "memory");  // the tile's total is in
      carry = lift(before, shared.tile_total);
      if (lane_id() == 0) shared.tile_prefix = lift(init, before);
      __syncwarp();
      asm volatile("bar.arrive 3, %0;" ::"r"(blockDim.x) : "memory");
    }
    return;
  }
  for (unsigned r = 0; r < rounds; ++r) {
    const std::size_t t = static_cast<std::size_t>(r) * blocks + me;
    if (t >= tiles) break;
    if (r > 0) load_tile(items, in, t * tile, n, (t + 1) * tile <= n, vector);
    scan_tile<Inclusive>(items, shared, op, [&](partial<T> total) {
      if (threadIdx.x < 32) {
        if (threadIdx.x == 0) {
          // The last tile's total is never read: nothing comes after it.
          if (t + 1 < tiles) records.publish(r, me, total.value, false);
          shared.tile_total = total;
        }
        __syncwarp();
        asm volatile("bar.arrive 2, 64;" ::: "memory");
      }
      asm volatile("bar.sync 3, %0;" ::"r"(blockDim.x) : "memory");  // the prefix is in
      return shared.tile_prefix;
    }, warps, grid_data_warps_barrier{warps * 32});
    store_tile(items, out, t * tile, n, (t + 1) * tile <= n, vector);
  }
}

}  // namespace cohort::detail::gpu
