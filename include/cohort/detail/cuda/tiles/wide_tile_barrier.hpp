// Synchronization of tiles wider than a warp (64 to 1024 threads), in shared
// memory: the hardware's named barriers are too few for a block of 1024 cut
// into tiles of 64 (16 tiles, 15 barriers besides __syncthreads' 0), and
// tiles of different sizes may be in use at once.
//
// sm_80 and newer: one mbarrier per tile (31 of them: 16 tiles of 64, 8 of
// 128, ... 1 of 1024), expecting one arrival per member: every thread
// arrives and waits for the phase its arrival belongs to (the arrive's state
// token). The mbarrier's arrive is a release and its wait an acquire at block
// scope, and compute-sanitizer's racecheck models both, where it cannot see
// the ordering of a barrier built from atomics (the sm_70 one below, which it
// reported as races) nor, it reported, of one arrival per warp relayed to the
// other lanes by __syncwarp.
//
// Shared memory starts undefined, so partitioning a block into wide tiles
// prepares the barriers of every wide tile, of every size: the block
// synchronizes (no warp still waits on a barrier's previous life), the warps'
// lane 0s initialize them, and the block synchronizes again (NVIDIA's
// multi-warp tiles also synchronize the block). A barrier stays valid after
// that, since every use of it is a whole round of its tile's members, so
// partitioning a wide tile needs nothing: a tile's tiles, of any size, are
// ready, and only the block's partition is a collective. (Initializing a
// tile's own barrier when its parent tile was partitioned, ordered by the
// parent tile's barrier, also worked, but compute-sanitizer's racecheck
// reported hazards between the parent's arrivals and the initialization.)
//
// sm_70/75: one 32-bit word per tile size, one bit per warp of the block: a
// warp arrives by setting its bit (its lane 0 does, after __syncwarp); the
// warp that completes its tile's set of bits clears them, which releases the
// others, who wait for their own bit to clear. Tiles of one size have
// disjoint bits, so they share the word without meeting. Ordering: arrivals
// are acq_rel, so the completing warp has acquired every other warp's writes;
// its clear is an RMW in the release sequence of its own arrival, so a warp
// that reads it cleared acquires all of them. Partitioning a block clears
// each warp's bits before the block's sync.
//
// The same scratch holds one 32-bit word per thread for the wide tiles'
// exchanges (wide_tile_ops.hpp): 4 KiB, in kernels that use wide tiles only
// (a function-scope __shared__ variable is allocated only in kernels that
// reach it).
#pragma once

#include <cuda_runtime.h>
#include <cuda/atomic>

#include "cohort/detail/cuda/tiles/lanes.hpp"
#include "cohort/detail/cuda/tiles/tile_geometry.hpp"

namespace cohort::detail::gpu {

inline constexpr unsigned max_block_threads = 1024;
inline constexpr unsigned wide_tile_sizes = 5;                                  // 64, 128, 256, 512, 1024
inline constexpr unsigned wide_tile_barriers = max_block_threads / 64 * 2 - 1;  // 16 + 8 + 4 + 2 + 1

struct wide_tile_scratch {
#if __CUDA_ARCH__ >= 800
  unsigned long long barriers[wide_tile_barriers];  // tiles of n: 1024 / n - 1 + (tile index)
#else
  unsigned arrived[wide_tile_sizes];  // bit w: warp w waits at its tile's barrier
#endif
  unsigned words[max_block_threads];  // a thread's word in an exchange, by block rank
};

__device__ __forceinline__ wide_tile_scratch& wide_scratch() {
  __shared__ wide_tile_scratch scratch;
  return scratch;
}

template <class T>
using block_atomic = cuda::atomic_ref<T, cuda::thread_scope_block>;

__device__ __forceinline__ unsigned warp_in_block() { return block_rank() / warp_lanes; }

// The warps of the caller's tile of n threads that exist.
__device__ __forceinline__ unsigned tile_warps(unsigned n) { return (tile_count(n) + warp_lanes - 1) / warp_lanes; }

#if __CUDA_ARCH__ >= 800

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// The mbarrier of the caller's tile of n threads.
__device__ __forceinline__ unsigned tile_mbarrier(unsigned n) {
  return shared_address(&wide_scratch().barriers[max_block_threads / n - 1 + tile_base(n) / n]);
}

__device__ inline void wide_tile_sync(unsigned n) {
  const unsigned barrier = tile_mbarrier(n);
  unsigned long long phase;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(phase) : "r"(barrier) : "memory");
  unsigned done;
  do {
    // try_wait (sm_90) suspends the thread for a while inside the instruction; test_wait only looks.
#if __CUDA_ARCH__ >= 900
    asm volatile("{ .reg .pred p; mbarrier.try_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(barrier), "l"(phase)
                 : "memory");
#else
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done)
                 : "r"(barrier), "l"(phase)
                 : "memory");
#endif
  } while (!done);
}

// Partitioning a block into wide tiles: see the top of the file. Barrier i
// belongs to the tiles of n = 1024 / 2^floor(log2(i + 1)), tile i + 1 - 1024 / n;
// the warps' lane 0s take them in turn, one lane per warp, so that the init,
// whose operands the hardware takes warp-uniform, runs once per barrier.
__device__ inline void wide_tiles_prepare() {
  __syncthreads();
  if (lane_id() == 0) {
    const unsigned threads = block_threads(), warps = (threads + warp_lanes - 1) / warp_lanes;
    for (unsigned i = warp_in_block(); i < wide_tile_barriers; i += warps) {
      const unsigned tiles_of_size = 1u << (31 - __clz(static_cast<int>(i + 1)));
      const unsigned n = max_block_threads / tiles_of_size, base = (i + 1 - tiles_of_size) * n;
      if (base < threads)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(&wide_scratch().barriers[i])),
                     "r"(min(n, threads - base))
                     : "memory");
    }
  }
  __syncthreads();
}

#else

// The barrier word of tiles of n threads.
__device__ __forceinline__ unsigned& arrived_word(unsigned n) {
  return wide_scratch().arrived[__ffs(static_cast<int>(n)) - 7];  // log2(n / 64)
}

// The bits of the warps of the caller's tile of n threads that exist.
__device__ __forceinline__ unsigned tile_warp_bits(unsigned n) {
  return low_bits(tile_warps(n)) << (tile_base(n) / warp_lanes);
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

__device__ inline void wide_tiles_prepare() {
  __syncwarp(existing_lanes());
  if (lane_id() == 0)
    for (unsigned& word : wide_scratch().arrived)
      block_atomic<unsigned>(word).fetch_and(~(1u << warp_in_block()), cuda::memory_order_relaxed);
  __syncthreads();
}

#endif

}  // namespace cohort::detail::gpu
