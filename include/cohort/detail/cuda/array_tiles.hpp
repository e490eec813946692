// The unit of work of the CUDA whole-array scans: a tile of consecutive
// elements, scanned by one 1-D block of Warps whole warps. Each warp owns a
// segment of chunks_per_lane chunks; in a chunk each lane holds a 16-byte
// vector of consecutive elements (vector_items of them), so a warp's load of
// a chunk is 512 contiguous bytes. A chunk is scanned in registers (each
// lane's vector, then the lanes' totals by shuffles), chunks and warps are
// joined in index order, and nothing is staged in shared memory but the
// warps' totals. Every fold keeps index order, so any associative operator
// works; types that are not a whole fraction of 16 bytes move one element
// per lane.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cohort/cuda/detail/lanes.hpp"
#include "cohort/cuda/detail/shuffle.hpp"
#include "cohort/detail/partial_value.hpp"

namespace cohort::detail::gpu {

inline constexpr unsigned chunks_per_lane = 4;

template <class T>
inline constexpr unsigned vector_items = (sizeof(T) <= 16 && 16 % sizeof(T) == 0) ? 16 / sizeof(T) : 1;
template <class T>
inline constexpr std::size_t chunk_items = 32 * vector_items<T>;
template <class T>
inline constexpr std::size_t warp_items = chunks_per_lane * chunk_items<T>;
template <class T, unsigned Warps>
inline constexpr std::size_t tile_items = Warps * warp_items<T>;

template <class T>
__device__ __forceinline__ bool vector_aligned(const T* p) {
  return vector_items<T> > 1 && reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// One lane's elements of its warp's segment: chunk k, element j.
template <class E, class T>
struct lane_items {
  E x[chunks_per_lane][vector_items<T>];
};

// Index of element (k, j) of this lane in a tile starting at `base`.
template <class T>
__device__ __forceinline__ std::size_t item_index(std::size_t base, unsigned k, unsigned j) {
  return base + (threadIdx.x / 32) * warp_items<T> + k * chunk_items<T> + lane_id() * vector_items<T> + j;
}

// A whole tile: 16-byte loads where the array is aligned, else one element at a time.
template <class T>
__device__ __forceinline__ void load_full_tile(lane_items<T, T>& items, const T* in, std::size_t base, bool vector) {
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k) {
    const std::size_t first = item_index<T>(base, k, 0);
    if constexpr (vector_items<T> > 1) {
      if (vector) {
        const uint4 v = *reinterpret_cast<const uint4*>(in + first);
        std::memcpy(&items.x[k][0], &v, sizeof v);
        continue;
      }
    }
#pragma unroll
    for (unsigned j = 0; j < vector_items<T>; ++j) items.x[k][j] = in[first + j];
  }
}

// The last tile, [base, n): elements past n are absent.
template <class T>
__device__ __forceinline__ void load_last_tile(lane_items<partial<T>, T>& items, const T* in, std::size_t base,
                                               std::size_t n) {
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k)
#pragma unroll
    for (unsigned j = 0; j < vector_items<T>; ++j) {
      const std::size_t i = item_index<T>(base, k, j);
      items.x[k][j] = i < n ? partial<T>{in[i], true} : absent<T>();
    }
}

template <class T>
__device__ __forceinline__ void store_full_tile(const lane_items<T, T>& items, T* out, std::size_t base, bool vector) {
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k) {
    const std::size_t first = item_index<T>(base, k, 0);
    if constexpr (vector_items<T> > 1) {
      if (vector) {
        uint4 v;
        std::memcpy(&v, &items.x[k][0], sizeof v);
        *reinterpret_cast<uint4*>(out + first) = v;
        continue;
      }
    }
#pragma unroll
    for (unsigned j = 0; j < vector_items<T>; ++j) out[first + j] = items.x[k][j];
  }
}

template <class T>
__device__ __forceinline__ void store_last_tile(const lane_items<partial<T>, T>& items, T* out, std::size_t base,
                                                std::size_t n) {
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k)
#pragma unroll
    for (unsigned j = 0; j < vector_items<T>; ++j) {
      const std::size_t i = item_index<T>(base, k, j);
      if (i < n) out[i] = items.x[k][j].value;
    }
}

// The operator over a tile's elements: Op itself on full tiles, Op lifted
// over possibly absent elements on the last one.
template <class E, class Op>
__device__ __forceinline__ auto element_op(Op op) {
  if constexpr (requires { E::present; })
    return lifted<Op>{op};
  else
    return op;
}

// Inclusive scan of the warp's segment in place; returns the segment's total
// (in every lane).
template <class E, class T, class Op>
__device__ __forceinline__ E scan_warp_segment(lane_items<E, T>& items, Op op) {
  const unsigned lane = lane_id();
  E carry{};
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k) {
    E* x = items.x[k];
#pragma unroll
    for (unsigned j = 1; j < vector_items<T>; ++j) x[j] = op(x[j - 1], x[j]);
    E lane_total = x[vector_items<T> - 1];
#pragma unroll
    for (unsigned d = 1; d < 32; d *= 2) {
      const E before = shfl_up(all_lanes, lane_total, d);
      if (lane >= d) lane_total = op(before, lane_total);
    }
    const E lanes_before = shfl_up(all_lanes, lane_total, 1);
    const E chunk_total = shfl_idx(all_lanes, lane_total, 31);
    if (k == 0) {
      if (lane > 0)
#pragma unroll
        for (unsigned j = 0; j < vector_items<T>; ++j) x[j] = op(lanes_before, x[j]);
      carry = chunk_total;
    } else {
      const E prefix = lane > 0 ? op(carry, lanes_before) : carry;
#pragma unroll
      for (unsigned j = 0; j < vector_items<T>; ++j) x[j] = op(prefix, x[j]);
      carry = op(carry, chunk_total);
    }
  }
  return carry;
}

// An inclusive scan turned exclusive: each element takes its predecessor's
// value; the segment's first element has none and is marked in *first_lacks.
template <class E, class T>
__device__ __forceinline__ void shift_to_exclusive(lane_items<E, T>& items, bool& first_lacks) {
  const unsigned lane = lane_id();
  E previous_chunk_last{};
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k) {
    E* x = items.x[k];
    const E last = x[vector_items<T> - 1];
    const E from_left = shfl_up(all_lanes, last, 1);
#pragma unroll
    for (unsigned j = vector_items<T> - 1; j > 0; --j) x[j] = x[j - 1];
    if (lane > 0)
      x[0] = from_left;
    else if (k > 0)
      x[0] = previous_chunk_last;
    previous_chunk_last = shfl_idx(all_lanes, last, 31);
  }
  first_lacks = lane == 0;
}

// In-order fold of a warp segment (a tile's aggregate without its scan).
template <class E, class T, class Op>
__device__ __forceinline__ E fold_warp_segment(const lane_items<E, T>& items, Op op) {
  E total{};
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k) {
    E lane_total = items.x[k][0];
#pragma unroll
    for (unsigned j = 1; j < vector_items<T>; ++j) lane_total = op(lane_total, items.x[k][j]);
#pragma unroll
    for (unsigned d = 1; d < 32; d *= 2) {
      const E after = shfl_down(all_lanes, lane_total, d);
      if (lane_id() + d < 32) lane_total = op(lane_total, after);
    }
    const E chunk_total = shfl_idx(all_lanes, lane_total, 0);
    total = k == 0 ? chunk_total : op(total, chunk_total);
  }
  return total;
}

// What a block shares while it works on a tile: each warp's segment total,
// and the prefix of everything before the tile.
template <class T, unsigned Warps>
struct tile_exchange {
  partial<T> warp_totals[Warps];
  partial<T> tile_prefix;
};

template <class T>
__device__ __forceinline__ partial<T> as_partial(const T& v) {
  return {v, true};
}
template <class T>
__device__ __forceinline__ partial<T> as_partial(const partial<T>& v) {
  return v;
}

// Publishes each warp's total; after the block's barrier, returns the fold
// of the warps before the caller's (absent for warp 0) and, in *tile_total,
// the tile's total.
template <class E, class T, unsigned Warps, class Op>
__device__ __forceinline__ partial<T> join_warps(tile_exchange<T, Warps>& shared, const E& warp_total, Op op,
                                                 partial<T>* tile_total) {
  const unsigned warp = threadIdx.x / 32;
  if (lane_id() == 0) shared.warp_totals[warp] = as_partial(warp_total);
  __syncthreads();
  const lifted<Op> lift{op};
  partial<T> before = absent<T>();
#pragma unroll
  for (unsigned w = 0; w < Warps; ++w)
    if (w < warp) before = lift(before, shared.warp_totals[w]);
  if (tile_total) {
    partial<T> all = before;
#pragma unroll
    for (unsigned w = 0; w < Warps; ++w)
      if (w >= warp) all = lift(all, shared.warp_totals[w]);
    *tile_total = all;
  }
  return before;
}

// Scans one tile whose elements the caller loaded into `items`: the warp
// segments, then the tile prefix from prefix_of(tile total) (called by the
// whole block, after a barrier; it returns the prefix of everything before
// the tile, absent at the array's start), then every element combined with
// the prefix of its warp. Exclusive scans shift by one element first.
template <bool Inclusive, class E, class T, unsigned Warps, class Op, class PrefixOf>
__device__ __forceinline__ void scan_tile(lane_items<E, T>& items, tile_exchange<T, Warps>& shared, Op op,
                                          PrefixOf&& prefix_of) {
  const auto eop = element_op<E>(op);
  const E warp_total = scan_warp_segment(items, eop);
  bool first_lacks = false;
  if constexpr (!Inclusive) shift_to_exclusive(items, first_lacks);
  partial<T> tile_total;
  const partial<T> warps_before = join_warps(shared, warp_total, op, &tile_total);
  const lifted<Op> lift{op};
  const partial<T> prefix = lift(prefix_of(tile_total), warps_before);
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k)
#pragma unroll
    for (unsigned j = 0; j < vector_items<T>; ++j) {
      E& x = items.x[k][j];
      const bool lacks = first_lacks && k == 0 && j == 0;
      if constexpr (requires { E::present; }) {
        // Absent elements are past n and never stored.
        if (lacks)
          x = prefix;
        else if (x.present && prefix.present)
          x.value = op(prefix.value, x.value);
      } else {
        if (lacks)
          x = prefix.value;  // an exclusive scan's prefix always holds its init
        else if (prefix.present)
          x = op(prefix.value, x);
      }
    }
}

}  // namespace cohort::detail::gpu
