// Where a tile lies in its block: a tile of n threads (a power of two) is the
// aligned run of n linear block ranks that holds the caller, cut short at the
// end of a block whose size is not a multiple of n (docs/warp-level.md,
// "Partial last tile"). Everything here is a function of the built-in
// variables, so the compiler computes it once per kernel, not per call.
#pragma once

#include <cuda_runtime.h>

#include "cohort/detail/cuda/runtime/special_registers.hpp"
#include "cohort/detail/cuda/tiles/lanes.hpp"

namespace cohort::detail::gpu {

__device__ __forceinline__ unsigned block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
__device__ __forceinline__ unsigned block_rank() { return static_cast<unsigned>(linear_index(threadIdx, blockDim)); }

__device__ __forceinline__ unsigned tile_base(unsigned n) { return block_rank() & ~(n - 1); }

// n, or what exists of the block's last tile.
__device__ __forceinline__ unsigned tile_count(unsigned n) {
  const unsigned left = block_threads() - tile_base(n);
  return left < n ? left : n;
}

// Whether every tile of n threads in the block is whole: a function of
// blockDim alone, which the compiler knows to be the same in every thread, so
// a branch on it is a uniform branch, with no reconvergence to pay for (a
// branch on tile_count(n) == n costs a full tile its BSSY/BSYNC pair).
__device__ __forceinline__ bool tiles_are_whole(unsigned n) { return (block_threads() & (n - 1)) == 0; }

// The lanes of the caller's warp that exist: all but in the short last warp
// of a block whose size is not a multiple of 32.
__device__ __forceinline__ unsigned existing_lanes() {
  return low_bits(block_threads() - (block_rank() & ~(warp_lanes - 1)));
}

// The lanes of the caller's tile of n <= 32 threads, as NVIDIA names them: the
// whole aligned run. Lanes a short last warp lacks are in it; PTX counts them
// as exited, so the *_sync intrinsics neither wait for them nor hear from them.
__device__ __forceinline__ unsigned tile_lanes(unsigned n) {
  return n == warp_lanes ? all_lanes : low_bits(n) << (lane_id() & ~(n - 1));
}

}  // namespace cohort::detail::gpu
