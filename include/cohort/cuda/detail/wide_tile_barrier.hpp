// Synchronization of tiles wider than a warp (64 to 1024 threads), in shared
// memory: the hardware's named barriers are too few for a block of 1024 cut
// into tiles of 64 (16 tiles, 15 barriers besides __syncthreads' 0), and
// tiles of different sizes may be in use at once.
//
// One 32-bit word per tile size, one bit per warp of the block: a warp
// arrives by setting its bit (its lane 0 does, after __syncwarp); the warp
// that completes its tile's set of bits clears them, which releases the
// others, who wait for their own bit to clear. Tiles of one size have
// disjoint bits, so they share the word without meeting. Ordering: arrivals
// are acq_rel, so the completing warp has acquired every other warp's writes;
// its clear is an RMW in the release sequence of its own arrival, so a warp
// that reads it cleared acquires all of them; __syncwarp carries them to the
// warp's other lanes.
//
// Shared memory starts undefined, so a tile size's word is prepared when a
// block or tile is partitioned into tiles of that size: each warp clears its
// bit, then the parent synchronizes (NVIDIA's multi-warp tiles do the same),
// so tiled_partition<N> with N > 32 is a collective of the parent.
//
// The same scratch holds one 32-bit word per thread for the wide tiles'
// exchanges (wide_tile_ops.hpp): 4 KiB, in kernels that use wide tiles only
// (a function-scope __shared__ variable is allocated only in kernels that
// reach it).
#pragma once

#include <cuda/atomic>
#include <cuda_runtime.h>

#include "cohort/cuda/detail/lanes.hpp"
#include "cohort/cuda/detail/tile_geometry.hpp"

namespace cohort::detail::gpu {

inline constexpr unsigned max_block_threads = 1024;
inline constexpr unsigned wide_tile_sizes = 5;  // 64, 128, 256, 512, 1024

struct wide_tile_scratch {
  unsigned arrived[wide_tile_sizes];   // bit w: warp w waits at its tile's barrier
  unsigned words[max_block_threads];   // a thread's word in an exchange, by block rank
};

__device__ __forceinline__ wide_tile_scratch& wide_scratch() {
  __shared__ wide_tile_scratch scratch;
  return scratch;
}

template <class T>
using block_atomic = cuda::atomic_ref<T, cuda::thread_scope_block>;

// The barrier word of tiles of n threads.
__device__ __forceinline__ unsigned& arrived_word(unsigned n) {
  return wide_scratch().arrived[__ffs(static_cast<int>(n)) - 7];  // log2(n / 64)
}

__device__ __forceinline__ unsigned warp_in_block() { return block_rank() / warp_lanes; }

// The bits of the warps of the caller's tile of n threads that exist.
__device__ __forceinline__ unsigned tile_warp_bits(unsigned n) {
  const unsigned warps = (tile_count(n) + warp_lanes - 1) / warp_lanes;
  return low_bits(warps) << (tile_base(n) / warp_lanes);
}

__device__ inline void wide_tile_sync(unsigned n) {
  const unsigned lanes = existing_lanes();
  __syncwarp(lanes);
  if (lane_id() == 0) {
    block_atomic<unsigned> word(arrived_word(n));
    const unsigned me = 1u << warp_in_block(), group = tile_warp_bits(n);
    const unsigned before = word.fetch_or(me, cuda::memory_order_acq_rel);
    if (((before | me) & group) == group)
      word.fetch_and(~group, cuda::memory_order_relaxed);
    else
      while (word.load(cuda::memory_order_acquire) & me) {
      }
  }
  __syncwarp(lanes);
}

// Clears the caller's warp's bit for tiles of n threads; the caller then
// synchronizes the parent being partitioned.
__device__ inline void wide_tile_prepare(unsigned n) {
  __syncwarp(existing_lanes());
  if (lane_id() == 0)
    block_atomic<unsigned>(arrived_word(n)).fetch_and(~(1u << warp_in_block()), cuda::memory_order_relaxed);
}

}  // namespace cohort::detail::gpu
