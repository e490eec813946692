// coalesced_group on the CUDA backend: a set of lanes of one warp, ranked in
// lane order. coalesced_threads() is the warp's active lanes (__activemask);
// labeled_partition (__match_any_sync), binary_partition (__ballot_sync) and
// tiled_partition split a coalesced group or a tile of up to 32 threads
// further. Ballot and match masks are in rank space (as 32-bit masks,
// NVIDIA's type: a warp has 32 lanes here), and shfl_xor, which NVIDIA lacks,
// follows the tiles' rule (docs/warp-level.md). A group of the whole warp takes
// the tile of 32's path; otherwise a source rank becomes a lane by a search on
// population counts (detail/lanes.hpp).
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "cohort/detail/cuda/device_error.hpp"
#include "cohort/detail/cuda/lanes.hpp"
#include "cohort/detail/cuda/tile_geometry.hpp"
#include "cohort/detail/cuda/warp_tile_ops.hpp"
#include "cohort/detail/cuda/words.hpp"
#include "cohort/detail/cuda/tiles.hpp"

namespace cohort {

class coalesced_group;

namespace detail::gpu {
struct coalesced_access {
  __device__ static coalesced_group make(unsigned lanes, unsigned meta_rank, unsigned meta_size);
  __device__ static unsigned lanes(const coalesced_group& g);
};
}  // namespace detail::gpu

class coalesced_group {
  using whole_warp = detail::gpu::warp_tile_ops<detail::gpu::warp_lanes>;

 public:
  __device__ unsigned num_threads() const { return __popc(lanes_); }
  __device__ unsigned size() const { return num_threads(); }
  __device__ unsigned thread_rank() const { return __popc(lanes_ & detail::gpu::lanes_below()); }
  // 0 of 1 for coalesced_threads(); set by the partitions.
  __device__ unsigned meta_group_rank() const { return meta_rank_; }
  __device__ unsigned meta_group_size() const { return meta_size_; }

  __device__ void sync() const { __syncwarp(lanes_); }

  // The value of rank src_rank % num_threads().
  template <class T>
  __device__ T shfl(T var, unsigned src_rank) const {
    const unsigned n = num_threads();
    if (src_rank >= n) src_rank %= n;
    return from_lane(var, whole() ? src_rank : detail::gpu::lane_of_rank(lanes_, src_rank));
  }
  // The value of rank thread_rank() - delta; its own where that is below 0.
  template <class T>
  __device__ T shfl_up(T var, unsigned delta) const {
    if (whole()) return whole_warp::shfl_up(var, delta);
    const unsigned r = thread_rank();
    return from_lane(var, delta <= r ? detail::gpu::lane_of_rank(lanes_, r - delta) : detail::gpu::lane_id());
  }
  // The value of rank thread_rank() + delta; its own where that is past the end.
  template <class T>
  __device__ T shfl_down(T var, unsigned delta) const {
    if (whole()) return whole_warp::shfl_down(var, delta);
    const unsigned r = thread_rank(), n = num_threads();
    return from_lane(var, delta < n - r ? detail::gpu::lane_of_rank(lanes_, r + delta) : detail::gpu::lane_id());
  }
  // The value of rank thread_rank() ^ lane_mask; its own where that is past the end (beyond NVIDIA).
  template <class T>
  __device__ T shfl_xor(T var, unsigned lane_mask) const {
    if (whole()) return whole_warp::shfl_xor(var, lane_mask);
    const unsigned r = thread_rank() ^ lane_mask;
    return from_lane(var, r < num_threads() ? detail::gpu::lane_of_rank(lanes_, r) : detail::gpu::lane_id());
  }

  __device__ int any(int predicate) const { return __any_sync(lanes_, predicate); }
  __device__ int all(int predicate) const { return __all_sync(lanes_, predicate); }
  __device__ unsigned ballot(int predicate) const {
#if __CUDA_ARCH__ >= 800
    // Each member contributes its rank's bit: one redux.sync, no packing.
    return __reduce_or_sync(lanes_, predicate ? 1u << thread_rank() : 0u);
#else
    return detail::gpu::pack_lanes(__ballot_sync(lanes_, predicate), lanes_);
#endif
  }
  // The ranks whose value is bitwise equal to the caller's.
  template <class T>
  __device__ unsigned match_any(T val) const {
    return detail::gpu::pack_lanes(detail::gpu::match_any_lanes(lanes_, val), lanes_);
  }
  // Every rank, with pred = 1, if all values are bitwise equal; else 0, with pred = 0.
  template <class T>
  __device__ unsigned match_all(T val, int& pred) const {
    pred = detail::gpu::match_all_lanes(lanes_, val);
    return pred ? detail::gpu::low_bits(num_threads()) : 0u;
  }

 private:
  friend struct detail::gpu::coalesced_access;

  __device__ coalesced_group(unsigned lanes, unsigned meta_rank, unsigned meta_size)
      : lanes_(lanes), meta_rank_(meta_rank), meta_size_(meta_size) {}

  __device__ bool whole() const { return lanes_ == detail::gpu::all_lanes; }
  template <class T>
  __device__ T from_lane(const T& var, unsigned lane) const {
    const unsigned m = lanes_;
    return detail::gpu::move_words(var, [&](unsigned w, unsigned) { return __shfl_sync(m, w, static_cast<int>(lane)); });
  }

  unsigned lanes_;
  unsigned meta_rank_;
  unsigned meta_size_;
};

namespace detail::gpu {

__device__ inline coalesced_group coalesced_access::make(unsigned lanes, unsigned meta_rank, unsigned meta_size) {
  return coalesced_group(lanes, meta_rank, meta_size);
}
__device__ inline unsigned coalesced_access::lanes(const coalesced_group& g) { return g.lanes_; }

// A tile as the parent of a partition: its lanes that exist.
template <unsigned N>
__device__ unsigned partition_parent_lanes() {
  static_assert(N <= warp_lanes, "a partition into coalesced groups needs a tile of at most 32 threads (one warp)");
  return tile_lanes(N) & existing_lanes();
}

template <class Label>
__device__ unsigned lanes_with_label(unsigned parent, Label label) {
  static_assert(std::is_integral_v<Label>, "labeled_partition takes an integral label");
  if constexpr (sizeof(Label) == 8)
    return __match_any_sync(parent, static_cast<unsigned long long>(label));
  else
    return __match_any_sync(parent, static_cast<unsigned>(label));
}

// Groups of equal labels, ranked by their lowest lane.
template <class Label>
__device__ coalesced_group labeled(unsigned parent, Label label) {
  const unsigned group = lanes_with_label(parent, label);
  const unsigned leader = __ffs(static_cast<int>(group)) - 1;
  const unsigned leaders = __ballot_sync(parent, lane_id() == leader);
  return coalesced_access::make(group, __popc(leaders & low_bits(leader)), __popc(leaders));
}

// NVIDIA's rule: meta rank = the predicate and meta size 2 when the parent
// splits, the whole parent (0 of 1) when every predicate agrees.
__device__ inline coalesced_group binary(unsigned parent, bool pred) {
  const unsigned set = __ballot_sync(parent, pred);
  if (set == 0 || set == parent) return coalesced_access::make(parent, 0, 1);
  return coalesced_access::make(pred ? set : parent & ~set, pred ? 1u : 0u, 2);
}

__device__ inline void check_tile_size(unsigned size) {
  if (size == 0 || size > 1024 || (size & (size - 1)) != 0)
    usage_trap("tiled_partition: a tile size is a power of two from 1 to 1024");
}

}  // namespace detail::gpu

__device__ inline coalesced_group coalesced_threads() {
  return detail::gpu::coalesced_access::make(__activemask(), 0, 1);
}

template <class Label>
__device__ coalesced_group labeled_partition(const coalesced_group& parent, Label label) {
  return detail::gpu::labeled(detail::gpu::coalesced_access::lanes(parent), label);
}

template <class Label, unsigned N, class P>
__device__ coalesced_group labeled_partition(const thread_block_tile<N, P>&, Label label) {
  return detail::gpu::labeled(detail::gpu::partition_parent_lanes<N>(), label);
}

__device__ inline coalesced_group binary_partition(const coalesced_group& parent, bool pred) {
  return detail::gpu::binary(detail::gpu::coalesced_access::lanes(parent), pred);
}

template <unsigned N, class P>
__device__ coalesced_group binary_partition(const thread_block_tile<N, P>&, bool pred) {
  return detail::gpu::binary(detail::gpu::partition_parent_lanes<N>(), pred);
}

// NVIDIA's rule: runs of `tile_size` ranks, the last one short where the
// group's size is not a multiple; a group no larger than tile_size is
// returned as it is.
__device__ inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned tile_size) {
  detail::gpu::check_tile_size(tile_size);
  const unsigned n = parent.num_threads();
  if (n <= tile_size) return parent;
  const unsigned lanes = detail::gpu::coalesced_access::lanes(parent), run = parent.thread_rank() / tile_size;
  const unsigned first = run * tile_size, next = first + tile_size;
  const unsigned from = detail::gpu::lane_of_rank(lanes, first);
  const unsigned to = next < n ? detail::gpu::lane_of_rank(lanes, next) : detail::gpu::warp_lanes;
  return detail::gpu::coalesced_access::make(lanes & ~detail::gpu::low_bits(from) & detail::gpu::low_bits(to), run,
                                             (n + tile_size - 1) / tile_size);
}

}  // namespace cohort
