// Reductions and scans inside one warp: a tile of up to 32 threads (an
// aligned segment of lanes, possibly short at the end of the block) or a
// coalesced group (any set of lanes). Values combine in rank order: a scan is
// Hillis-Steele over shfl.up (the lower ranks' fold on the left), a reduction
// of a whole segment is a butterfly from the nearest partner out (each step
// joins two adjacent runs of ranks, the lower on the left), and a
// reduction of a short segment or of scattered lanes is the scan's last value.
// 32-bit integer reductions under cohort's operators are one redux.sync on
// sm_80+ (from 16 lanes up, where NVIDIA found it pays).
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "cohort/detail/cuda/collectives/operators.hpp"
#include "cohort/detail/cuda/tiles/lanes.hpp"
#include "cohort/detail/cuda/tiles/shuffle.hpp"
#include "cohort/detail/cuda/tiles/tile_geometry.hpp"

namespace cohort::detail::gpu {

// The members of a warp-level tile: ranks [0, count) on an aligned run of lanes.
struct segment {
  unsigned lanes;
  unsigned rank;
  unsigned count;
};

template <unsigned Size>
__device__ __forceinline__ segment tile_segment() {
  return {tile_lanes(Size), block_rank() & (Size - 1), tile_count(Size)};
}

template <unsigned Size, class T, class Op>
__device__ __forceinline__ T segment_scan(const segment& s, T v, Op& op) {
#pragma unroll
  for (unsigned d = 1; d < Size; d *= 2) {
    const T lower = shfl_up<Size>(s.lanes, v, d);
    if (s.rank >= d) v = op(lower, v);
  }
  return v;
}

template <unsigned Size, class T, class Op>
__device__ __forceinline__ T segment_reduce(const segment& s, T v, Op& op) {
#if __CUDA_ARCH__ >= 800
  if constexpr (Size >= 16 && has_redux<std::remove_cv_t<Op>, T>) {
    return redux<std::remove_cv_t<Op>>(s.lanes, v);
  } else
#endif
  {
    const auto butterfly = [&] {
#pragma unroll
      for (unsigned m = 1; m < Size; m *= 2)
        v = combine_in_order(op, v, shfl_xor<Size>(s.lanes, v, m), (s.rank & m) == 0);
      return v;
    };
    if (tiles_are_whole(Size)) return butterfly();
    // A block with a short last tile. The tile's lanes that exist vote
    // (those a short last warp lacks count as exited, so their bits are 0)
    // and the rank is the lane's: with s's count and rank, computed from the
    // block's extent and the thread's index, the compiler held those across
    // a caller's loop for this rare path (the repeated_sum of
    // cohort_bench_cuda_programs: 30 registers against 26, NVIDIA's 22, whose
    // tiles are never short). Read afresh (volatile) instead, they kept a
    // caller's loop from being unswitched on tiles_are_whole (tile<32> reduce
    // float of cohort_bench_cuda_warp: 1.05x NVIDIA's time against 1.00x).
    const segment short_tile{s.lanes, lane_id() & (Size - 1),
                             static_cast<unsigned>(__popc(__ballot_sync(s.lanes, true)))};
    if (short_tile.count == Size) return butterfly();
    return shfl_idx<Size>(s.lanes, segment_scan<Size>(short_tile, v, op), short_tile.count - 1);
  }
}

// The value of the rank before (a scan's exclusive result); none for rank 0.
template <unsigned Size, class T>
__device__ __forceinline__ maybe<T> segment_previous(const segment& s, const T& v) {
  return {shfl_up<Size>(s.lanes, v, 1), s.rank > 0};
}

template <class T, class Op>
__device__ T coalesced_scan(unsigned lanes, T v, Op& op) {
  if (lanes == all_lanes) return segment_scan<warp_lanes>({all_lanes, lane_id(), warp_lanes}, v, op);
  const unsigned rank = __popc(lanes & lanes_below()), count = __popc(lanes);
  for (unsigned d = 1; d < count; d *= 2) {
    const T lower = shfl_idx(lanes, v, rank >= d ? lane_of_rank(lanes, rank - d) : lane_id());
    if (rank >= d) v = op(lower, v);
  }
  return v;
}

template <class T, class Op>
__device__ T coalesced_reduce(unsigned lanes, T v, Op& op) {
#if __CUDA_ARCH__ >= 800
  if constexpr (has_redux<std::remove_cv_t<Op>, T>) {
    return redux<std::remove_cv_t<Op>>(lanes, v);
  } else
#endif
  {
    if (lanes == all_lanes) return segment_reduce<warp_lanes>({all_lanes, lane_id(), warp_lanes}, v, op);
    return shfl_idx(lanes, coalesced_scan(lanes, v, op), 31 - __clz(static_cast<int>(lanes)));
  }
}

template <class T>
__device__ maybe<T> coalesced_previous(unsigned lanes, const T& v) {
  const unsigned below = lanes & lanes_below();
  return {shfl_idx(lanes, v, below ? 31 - __clz(static_cast<int>(below)) : lane_id()), below != 0};
}

}  // namespace cohort::detail::gpu
