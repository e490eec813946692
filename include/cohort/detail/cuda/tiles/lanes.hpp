// Lane arithmetic for the warp-level groups: the caller's lane, the lanes
// below it, and the two conversions between lane space (bit l for lane l of
// the warp) and rank space (bit r for the r-th member of a group of lanes).
#pragma once

#include <cuda_runtime.h>

namespace cohort::detail::gpu {

inline constexpr unsigned warp_lanes = 32;
inline constexpr unsigned all_lanes = 0xFFFFFFFFu;

__device__ __forceinline__ unsigned lane_id() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

// The lanes below the caller's (PTX's %lanemask_lt).
__device__ __forceinline__ unsigned lanes_below() {
  unsigned mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

// Bits [0, n) set, for n from 0 to 32.
__device__ __forceinline__ unsigned low_bits(unsigned n) { return n >= 32 ? all_lanes : (1u << n) - 1; }

// The lane of the member of rank k of `members` (k < its population): a
// binary search on population counts, which costs a third of PTX's general
// fns (a loop over both directions).
__device__ __forceinline__ unsigned lane_of_rank(unsigned members, unsigned k) {
  unsigned lane = 0;
#pragma unroll
  for (unsigned half = 16; half > 0; half /= 2) {
    const unsigned below = __popc(members & low_bits(half));
    if (k >= below) {
      k -= below;
      lane += half;
      members >>= half;
    }
  }
  return lane;
}

// `lanes` (a subset of `members`) in rank space: the member of rank r has bit r.
__device__ __forceinline__ unsigned pack_lanes(unsigned lanes, unsigned members) {
  if (members == all_lanes) return lanes;
  unsigned packed = 0;
  for (; lanes != 0; lanes &= lanes - 1) packed |= 1u << __popc(members & ((lanes & (0u - lanes)) - 1));
  return packed;
}

}  // namespace cohort::detail::gpu
