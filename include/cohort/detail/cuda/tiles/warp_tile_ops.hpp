// The collectives of a tile of Size <= 32 threads: one warp's lanes, with the
// tile's lane mask, straight onto the *_sync intrinsics and shfl.sync.
//
// cohort's rules (docs/warp-level.md) differ from a bare shfl.sync in two
// places, and neither costs a block without a partial tile anything:
// - an argument of Size or more (delta, xor mask) leaves the caller its own
//   value: shfl.sync reads only its low 5 bits, so such an argument becomes 0,
//   which a constant argument folds away;
// - a partial last tile has fewer members than its segment of the warp: the
//   clamp of shfl.sync's c operand is set to its last member, so sources past
//   it (shfl's after its wrap at Size, shfl_down's, shfl_xor's) give the caller
//   its own value. (An earlier rule wrapped shfl's source a second time, at
//   the member count; the arithmetic it needed on every call cost 1.9x
//   NVIDIA's shfl.)
#pragma once

#include <cuda_runtime.h>

#include "cohort/detail/cuda/tiles/lanes.hpp"
#include "cohort/detail/cuda/tiles/shuffle.hpp"
#include "cohort/detail/cuda/tiles/tile_geometry.hpp"
#include "cohort/detail/cuda/tiles/words.hpp"

namespace cohort::detail::gpu {

enum class shfl_mode { idx, down, bfly };

// shfl.sync with an explicit c operand (segment mask and clamp).
template <shfl_mode M>
__device__ __forceinline__ unsigned shfl_clamped(unsigned lanes, unsigned word, unsigned b, unsigned c) {
  unsigned r;
  if constexpr (M == shfl_mode::idx)
    asm("shfl.sync.idx.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(word), "r"(b), "r"(c), "r"(lanes));
  else if constexpr (M == shfl_mode::down)
    asm("shfl.sync.down.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(word), "r"(b), "r"(c), "r"(lanes));
  else
    asm("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(word), "r"(b), "r"(c), "r"(lanes));
  return r;
}

template <unsigned Size>
struct warp_tile_ops {
  static_assert(Size >= 1 && Size <= warp_lanes);

  __device__ static unsigned lanes() { return tile_lanes(Size); }
  // Bit 0 of the tile's rank space is the lane this shift brings down.
  __device__ static unsigned first_lane() { return Size == warp_lanes ? 0 : lane_id() & ~(Size - 1); }
  // shfl.sync's c operand: the lanes outside the segment (bits 8-12) and the
  // tile's last member (bits 0-4).
  __device__ static unsigned clamp() { return (warp_lanes - Size) << 8 | (tile_count(Size) - 1); }
  __device__ static unsigned in_tile(unsigned argument) { return argument < Size ? argument : 0; }

  __device__ static void sync() { __syncwarp(lanes()); }

  // shfl.sync reads a source's low bits within the segment (the wrap at Size)
  // and leaves the caller its own value past the clamp. When the block has no
  // partial tile (a uniform branch, which the compiler hoists out of loops)
  // the clamp is the segment's top, a constant that ptxas makes an immediate:
  // a SHFL with a register clamp reads three registers, and measured 1.4x
  // NVIDIA's shfl with a varying source (1.8x for a double) where the
  // constant form costs the same.
  template <shfl_mode M, class T>
  __device__ static T shuffle(const T& v, unsigned b) {
    const unsigned m = lanes();
    const auto with_clamp = [&](unsigned c) {
      return move_words(v, [&](unsigned w, unsigned) { return shfl_clamped<M>(m, w, b, c); });
    };
    if (tiles_are_whole(Size)) return with_clamp((warp_lanes - Size) << 8 | (Size - 1));
    return with_clamp(clamp());
  }

  template <class T>
  __device__ static T shfl(const T& v, unsigned src) {
    return shuffle<shfl_mode::idx>(v, src);
  }
  template <class T>
  __device__ static T shfl_up(const T& v, unsigned delta) {
    return gpu::shfl_up<Size>(lanes(), v, in_tile(delta));
  }
  template <class T>
  __device__ static T shfl_down(const T& v, unsigned delta) {
    return shuffle<shfl_mode::down>(v, in_tile(delta));
  }
  template <class T>
  __device__ static T shfl_xor(const T& v, unsigned lane_mask) {
    return shuffle<shfl_mode::bfly>(v, in_tile(lane_mask));
  }

  __device__ static int any(int predicate) { return __any_sync(lanes(), predicate); }
  __device__ static int all(int predicate) { return __all_sync(lanes(), predicate); }
  __device__ static unsigned ballot(int predicate) { return __ballot_sync(lanes(), predicate) >> first_lane(); }
  template <class T>
  __device__ static unsigned match_any(const T& v) {
    return match_any_lanes(lanes(), v) >> first_lane();
  }
  template <class T>
  __device__ static unsigned match_all(const T& v, int& pred) {
    pred = match_all_lanes(lanes(), v);
    return pred ? low_bits(tile_count(Size)) : 0u;
  }
};

}  // namespace cohort::detail::gpu
