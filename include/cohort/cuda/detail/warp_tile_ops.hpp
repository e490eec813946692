// The collectives of a tile of N <= 32 threads: one warp's lanes, with the
// tile's lane mask, straight onto the *_sync intrinsics and shfl.sync.
//
// cohort's rules (docs/warp-level.md) differ from a bare shfl.sync in two
// places, and both cost nothing on a full tile:
// - an argument of N or more (delta, xor mask) leaves the caller its own
//   value: shfl.sync reads only its low 5 bits, so such an argument becomes 0,
//   which a constant argument folds away;
// - a partial last tile has fewer members than its segment of the warp: the
//   clamp of shfl.sync's c operand is set to its last member, so down and xor
//   sources past it give the caller its own value. On a full tile the clamp is
//   the segment's top, as in __shfl_down_sync, computed once per kernel.
// shfl's source rank is (src mod N) mod n for a tile of n members: NVIDIA's
// wrap at the width, then a wrap at the member count, which only a partial
// tile needs. Both are computed on every tile, without a branch: a branch
// around a modulo that full tiles never take still cost them its BSSY/BSYNC
// (1.5x NVIDIA's shfl); rank_mod's two multiplications cost less, and keep
// off the shuffled value's dependency chain.
#pragma once

#include <cuda_runtime.h>

#include "cohort/cuda/detail/lanes.hpp"
#include "cohort/cuda/detail/shuffle.hpp"
#include "cohort/cuda/detail/tile_geometry.hpp"
#include "cohort/cuda/detail/words.hpp"

namespace cohort::detail::gpu {

__device__ __forceinline__ unsigned shfl_down_clamped(unsigned lanes, unsigned word, unsigned delta, unsigned c) {
  unsigned r;
  asm("shfl.sync.down.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(word), "r"(delta), "r"(c), "r"(lanes));
  return r;
}

__device__ __forceinline__ unsigned shfl_xor_clamped(unsigned lanes, unsigned word, unsigned mask, unsigned c) {
  unsigned r;
  asm("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(word), "r"(mask), "r"(c), "r"(lanes));
  return r;
}

// t mod n for t < 32 and 1 <= n <= 32, with no branch and no division:
// Lemire's remainder through a fixed-point reciprocal m of n. For n >= 2 let
// m n = 2^32 + e with 0 <= e <= 2^14, and t = k n + r (0 <= r < n). Then
// t m = k 2^32 + (r 2^32 + t e) / n, whose second term is below 2^32 (as
// t e < 2^32 <= (n - r) 2^32), so it is the low word L of t m; and
// L n = r 2^32 + t e has r as its high word, t e being below 2^32. For n = 1
// that high word is 0 = t mod 1 whatever m is.
// m is 2^32 (1 + 2^-19) / n truncated: rcp.approx is within 1 ulp (2^-23
// relative; PTX ISA) and the product rounds by at most 2^-24, which the 2^-19
// outweighs, so m exceeds 2^32 / n (by more than 2^12 / n - 1 >= 127) and
// stays below 2^32 (1 + 2^-18) / n, so 0 < e < 2^14. (For n = 1 the conversion
// saturates, which is harmless.) m is a function of n alone, which comes from
// the built-in variables, so the compiler computes it once per kernel (I2F,
// MUFU.RCP, FMUL, F2I) and each call costs an IMAD and an IMAD.HI.
__device__ __forceinline__ unsigned rank_mod(unsigned t, unsigned n) {
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(static_cast<float>(n)));
  const unsigned m = __float2uint_rz(r * 0x1.00002p32f);  // 0x1.00002p32f = 2^32 (1 + 2^-19)
  return __umulhi(t * m, n);
}

template <unsigned N>
struct warp_tile_ops {
  static_assert(N >= 1 && N <= warp_lanes);

  __device__ static unsigned lanes() { return tile_lanes(N); }
  // Bit 0 of the tile's rank space is the lane this shift brings down.
  __device__ static unsigned first_lane() { return N == warp_lanes ? 0 : lane_id() & ~(N - 1); }
  // shfl.sync's c operand: the lanes outside the segment (bits 8-12) and the
  // tile's last member (bits 0-4).
  __device__ static unsigned clamp() { return (warp_lanes - N) << 8 | (tile_count(N) - 1); }
  __device__ static unsigned in_tile(unsigned argument) { return argument < N ? argument : 0; }

  __device__ static void sync() { __syncwarp(lanes()); }

  // src & (N - 1) is the wrap shfl.sync's segment makes anyway; on a full
  // tile (n == N) rank_mod leaves it as it is.
  template <class T>
  __device__ static T shfl(const T& v, unsigned src) {
    return shfl_idx<N>(lanes(), v, rank_mod(src & (N - 1), tile_count(N)));
  }
  template <class T>
  __device__ static T shfl_up(const T& v, unsigned delta) {
    return gpu::shfl_up<N>(lanes(), v, in_tile(delta));
  }
  template <class T>
  __device__ static T shfl_down(const T& v, unsigned delta) {
    const unsigned m = lanes(), d = in_tile(delta), c = clamp();
    return move_words(v, [&](unsigned w, unsigned) { return shfl_down_clamped(m, w, d, c); });
  }
  template <class T>
  __device__ static T shfl_xor(const T& v, unsigned lane_mask) {
    const unsigned m = lanes(), x = in_tile(lane_mask), c = clamp();
    return move_words(v, [&](unsigned w, unsigned) { return shfl_xor_clamped(m, w, x, c); });
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
    return pred ? low_bits(tile_count(N)) : 0u;
  }
};

}  // namespace cohort::detail::gpu
