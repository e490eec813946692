// The unit of work of the CUDA whole-array scans: a tile of consecutive
// elements, scanned by one 1-D block of whole warps. Each warp owns a
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

#include "cohort/detail/cuda/tiles/lanes.hpp"
#include "cohort/detail/cuda/tiles/shuffle.hpp"
#include "cohort/detail/partial_value.hpp"

namespace cohort::detail::gpu {

inline constexpr unsigned chunks_per_lane = 4;

template <class T>
inline constexpr unsigned vector_items = (sizeof(T) <= 16 && 16 % sizeof(T) == 0) ? 16 / sizeof(T) : 1;
template <class T>
inline constexpr std::size_t chunk_items = 32 * vector_items<T>;
template <class T>
inline constexpr std::size_t warp_items = chunks_per_lane * chunk_items<T>;
template <class T>
__host__ __device__ constexpr std::size_t tile_items(unsigned warps) {
  return warps * warp_items<T>;
}

// The most warps a block has.
inline constexpr unsigned max_block_warps = 32;

template <class T>
__device__ __forceinline__ bool vector_aligned(const T* p) {
  return vector_items<T> > 1 && reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// One lane's elements of its warp's segment: chunk k, element j.
template <class T>
struct lane_items {
  T x[chunks_per_lane][vector_items<T>];
};

// Index of element (k, j) of this lane in a tile starting at `base`.
template <class T>
__device__ __forceinline__ std::size_t item_index(std::size_t base, unsigned k, unsigned j) {
  return base + (threadIdx.x / 32) * warp_items<T> + k * chunk_items<T> + lane_id() * vector_items<T> + j;
}

// A tile of in[0, n) from `base`: 16-byte loads where the tile is whole and
// the array aligned, else one element at a time. Past n (in the last tile)
// elements repeat in[n - 1]: a scan never stores what they feed, and a fold
// leaves them out (fold_warp_segment), so any valid value of T will do.
template <class T>
__device__ __forceinline__ void load_tile(lane_items<T>& items, const T* in, std::size_t base, std::size_t n,
                                          bool whole, bool vector) {
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k) {
    const std::size_t first = item_index<T>(base, k, 0);
    if constexpr (vector_items<T> > 1) {
      if (whole && vector) {
        const uint4 v = *reinterpret_cast<const uint4*>(in + first);
        std::memcpy(&items.x[k][0], &v, sizeof v);
        continue;
      }
    }
#pragma unroll
    for (unsigned j = 0; j < vector_items<T>; ++j) items.x[k][j] = in[whole || first + j < n ? first + j : n - 1];
  }
}

template <class T>
__device__ __forceinline__ void store_tile(const lane_items<T>& items, T* out, std::size_t base, std::size_t n,
                                           bool whole, bool vector) {
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k) {
    const std::size_t first = item_index<T>(base, k, 0);
    if constexpr (vector_items<T> > 1) {
      if (whole && vector) {
        uint4 v;
        std::memcpy(&v, &items.x[k][0], sizeof v);
        *reinterpret_cast<uint4*>(out + first) = v;
        continue;
      }
    }
#pragma unroll
    for (unsigned j = 0; j < vector_items<T>; ++j)
      if (whole || first + j < n) out[first + j] = items.x[k][j];
  }
}

// A shuffle up by `delta` lanes that also says whether the source lane
// exists (lane >= delta), read from the shuffle's own predicate. The warp
// scans below decide by it rather than by comparing lane_id(): given such
// comparisons the compiler branched on lane 0 before the warp's shuffles and
// duplicated the scan for it, so every data warp ran its shuffles split in
// two, through the divergent-warp path (docs/algorithms.md).
template <class T>
__device__ __forceinline__ T shfl_up_from(const T& v, unsigned delta, bool& found) {
  unsigned exists = 0;
  const T moved = move_words(v, [&](unsigned w, unsigned i) {
    unsigned r, ok;
    asm("{ .reg .pred p; shfl.sync.up.b32 %0|p, %2, %3, 0, 0xffffffff; selp.u32 %1, 1, 0, p; }"
        : "=r"(r), "=r"(ok)
        : "r"(w), "r"(delta));
    if (i == 0) exists = ok;
    return r;
  });
  found = exists != 0;
  return moved;
}

// Inclusive scan of the warp's segment in place; returns the segment's total
// (in every lane).
template <class T, class Op>
__device__ __forceinline__ T scan_warp_segment(lane_items<T>& items, Op op) {
  T carry{};
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k) {
    T* x = items.x[k];
#pragma unroll
    for (unsigned j = 1; j < vector_items<T>; ++j) x[j] = op(x[j - 1], x[j]);
    T lane_total = x[vector_items<T> - 1];
#pragma unroll
    for (unsigned d = 1; d < 32; d *= 2) {
      bool found;
      const T before = shfl_up_from(lane_total, d, found);
      if (found) lane_total = op(before, lane_total);
    }
    bool not_first;
    const T lanes_before = shfl_up_from(lane_total, 1, not_first);
    const T chunk_total = shfl_idx(all_lanes, lane_total, 31);
    if (k == 0) {
      if (not_first)
#pragma unroll
        for (unsigned j = 0; j < vector_items<T>; ++j) x[j] = op(lanes_before, x[j]);
      carry = chunk_total;
    } else {
      const T prefix = not_first ? op(carry, lanes_before) : carry;
#pragma unroll
      for (unsigned j = 0; j < vector_items<T>; ++j) x[j] = op(prefix, x[j]);
      carry = op(carry, chunk_total);
    }
  }
  return carry;
}

// An inclusive scan turned exclusive: each element takes its predecessor's
// value; the segment's first element (lane 0's in chunk 0) has none.
template <class T>
__device__ __forceinline__ void shift_to_exclusive(lane_items<T>& items) {
  T previous_chunk_last{};
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k) {
    T* x = items.x[k];
    const T last = x[vector_items<T> - 1];
    bool from_lane;
    const T from_left = shfl_up_from(last, 1, from_lane);
#pragma unroll
    for (unsigned j = vector_items<T> - 1; j > 0; --j) x[j] = x[j - 1];
    if (from_lane)
      x[0] = from_left;
    else if (k > 0)
      x[0] = previous_chunk_last;
    previous_chunk_last = shfl_idx(all_lanes, last, 31);
  }
}

// In-order fold of the warp's segment of a tile from `base`, counting only
// elements before n; absent if it has none.
template <class T, class Op>
__device__ __forceinline__ partial<T> fold_warp_segment(const lane_items<T>& items, std::size_t base, std::size_t n,
                                                        bool whole, Op op) {
  const lifted<Op> lift{op};
  partial<T> total = absent<T>();
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k) {
    partial<T> lane_total = absent<T>();
#pragma unroll
    for (unsigned j = 0; j < vector_items<T>; ++j)
      if (whole || item_index<T>(base, k, j) < n) lane_total = lift(lane_total, partial<T>{items.x[k][j], true});
#pragma unroll
    for (unsigned d = 1; d < 32; d *= 2) {
      const partial<T> after = shfl_down(all_lanes, lane_total, d);
      if (lane_id() + d < 32) lane_total = lift(lane_total, after);
    }
    total = lift(total, shfl_idx(all_lanes, lane_total, 0));
  }
  return total;
}

// What a block shares while it works on a tile: each warp's segment total,
// and the prefix of everything before the tile.
template <class T>
struct tile_exchange {
  partial<T> warp_totals[max_block_warps];
  partial<T> tile_prefix;
  partial<T> tile_total;  // look_back_scan_kernel's, for its look-back warp
};

// The barrier among a tile's warps: the whole block's, unless the block has
// warps beside them (look_back_scan_kernel's).
struct tile_barrier {
  __device__ void operator()() const { __syncthreads(); }
};

// Publishes each warp's total; after the tile's barrier, returns the fold
// of the warps before the caller's (absent for warp 0) and, in *tile_total,
// the tile's total (the tile has `warps` warps).
template <class T, class Op, class Barrier = tile_barrier>
__device__ __forceinline__ partial<T> join_warps(tile_exchange<T>& shared, const partial<T>& warp_total, Op op,
                                                 partial<T>* tile_total, unsigned warps, Barrier barrier = {}) {
  const unsigned warp = threadIdx.x / 32;
  if (lane_id() == 0) shared.warp_totals[warp] = warp_total;
  barrier();
  const lifted<Op> lift{op};
  partial<T> before = absent<T>();
  for (unsigned w = 0; w < warp; ++w) before = lift(before, shared.warp_totals[w]);
  partial<T> all = before;
  for (unsigned w = warp; w < warps; ++w) all = lift(all, shared.warp_totals[w]);
  *tile_total = all;
  return before;
}

// Scans one tile whose elements the caller loaded into `items`: the warp
// segments, then the tile prefix from prefix_of(tile total) (called by the
// tile's warps, after their barrier; it returns the prefix of everything
// before the tile, absent at the array's start), then every element combined
// with the prefix of its warp. Exclusive scans shift by one element first.
// The last tile's total counts the elements past n: nothing reads it.
template <bool Inclusive, class T, class Op, class PrefixOf, class Barrier = tile_barrier>
__device__ __forceinline__ void scan_tile(lane_items<T>& items, tile_exchange<T>& shared, Op op, PrefixOf&& prefix_of,
                                          unsigned warps, Barrier barrier = {}) {
  const T warp_total = scan_warp_segment(items, op);
  if constexpr (!Inclusive) shift_to_exclusive(items);
  partial<T> tile_total;
  const partial<T> warps_before = join_warps(shared, partial<T>{warp_total, true}, op, &tile_total, warps, barrier);
  const lifted<Op> lift{op};
  const partial<T> prefix = lift(prefix_of(tile_total), warps_before);
  const bool first_lacks = !Inclusive && lane_id() == 0;
#pragma unroll
  for (unsigned k = 0; k < chunks_per_lane; ++k)
#pragma unroll
    for (unsigned j = 0; j < vector_items<T>; ++j) {
      T& x = items.x[k][j];
      if (first_lacks && k == 0 && j == 0)
        x = prefix.value;  // an exclusive scan's prefix always holds its init
      else if (prefix.present)
        x = op(prefix.value, x);
    }
}

}  // namespace cohort::detail::gpu
