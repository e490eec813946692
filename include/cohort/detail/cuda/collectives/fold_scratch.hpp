// Shared memory of the collectives of groups made of whole warps (thread
// blocks, tiles wider than a warp) and of the grid's block phase, allocated
// only in kernels that use them (a function-scope __shared__ variable):
// - totals[w]: warp w's value in the current collective, written by a lane of
//   warp w before the group's first sync and read before its second, so the
//   next collective (which writes before its own first sync) never meets a
//   reader;
// - broadcast[g]: one member's value for the whole group (a reduction's
//   total, the old value of an atomic update), written between the two syncs
//   and read after the second,
//   one area per group that can be in a collective at the same time: the
//   block (which shares area 0 with the tile of 1024, the same threads) and
//   each tile of 64 to 512 threads;
// - grid: what warp 0 learns from the other blocks, read after one more sync.
// Values are kept as 32-bit words, so any exchangeable type fits at any
// alignment.
#pragma once

#include <cuda_runtime.h>

#include "cohort/detail/cuda/tiles/lanes.hpp"
#include "cohort/detail/cuda/tiles/words.hpp"

namespace cohort::detail::gpu {

inline constexpr unsigned value_words = max_exchange_bytes / 4;

struct fold_scratch {
  unsigned totals[warp_lanes][value_words];
  unsigned broadcast[31][value_words];  // tiles of n: areas 1024 / n - 1 + (tile index)
  unsigned grid[2][value_words + 1];    // a value and whether it is present
};

__device__ __forceinline__ fold_scratch& fold_memory() {
  __shared__ fold_scratch scratch;
  return scratch;
}

// The broadcast area of the group of n threads from block rank `base` (the block: n = 1024).
__device__ __forceinline__ unsigned* broadcast_area(unsigned n, unsigned base) {
  return fold_memory().broadcast[1024 / n - 1 + base / n];
}

template <class T>
__device__ __forceinline__ void put_words(unsigned* to, const T& v) {
  const words_of<T> w = to_words(v);
#pragma unroll
  for (unsigned i = 0; i < word_count<T>; ++i) to[i] = w.w[i];
}

// The T stored at `from` (`like` only lends its type's object to copy into).
template <class T>
__device__ __forceinline__ T get_words(const unsigned* from, const T& like) {
  words_of<T> w;
#pragma unroll
  for (unsigned i = 0; i < word_count<T>; ++i) w.w[i] = from[i];
  return from_words(w, like);
}

}  // namespace cohort::detail::gpu
