// The CUDA backend's primitives under coalesced_group and the partitions
// (include/cohort/groups/): a coalesced group is a 32-bit mask of one warp's
// lanes, ranked in lane order. coalesced_threads() is the warp's active lanes
// (__activemask); labeled partitions use __match_any_sync, binary ones
// __ballot_sync. Ballot and match masks are in rank space (as 32-bit masks,
// NVIDIA's type). A group of the whole warp takes the tile of 32's path;
// otherwise a source rank becomes a lane by a search on population counts
// (lanes.hpp). The call site the shared class passes is empty here.
#pragma once

#include <cuda_runtime.h>

#include <type_traits>

#include "cohort/backend.hpp"
#include "cohort/detail/cuda/tiles/lanes.hpp"
#include "cohort/detail/cuda/tiles/tile_geometry.hpp"
#include "cohort/detail/cuda/tiles/warp_tile_ops.hpp"
#include "cohort/detail/cuda/tiles/words.hpp"

namespace cohort::detail {
struct group_access;
}

namespace cohort::detail::gpu {

using lane_set = unsigned;

__device__ __forceinline__ unsigned lanes_count(lane_set lanes) { return __popc(lanes); }
__device__ __forceinline__ unsigned lanes_rank(lane_set lanes) { return __popc(lanes & lanes_below()); }
__device__ __forceinline__ void lanes_sync(lane_set lanes, call_site) { __syncwarp(lanes); }
__device__ __forceinline__ lane_set active_lanes(call_site) { return __activemask(); }

struct coalesced_ops {
  using mask_type = unsigned;
  using whole_warp = warp_tile_ops<warp_lanes>;

  // The value of rank src_rank % num_threads().
  template <class Value>
  __device__ __forceinline__ static Value shfl(lane_set lanes, const Value& var, unsigned src_rank, call_site) {
    const unsigned n = lanes_count(lanes);
    if (src_rank >= n) src_rank %= n;
    return from_lane(lanes, var, whole(lanes) ? src_rank : lane_of_rank(lanes, src_rank));
  }
  template <class Value>
  __device__ __forceinline__ static Value shfl_up(lane_set lanes, const Value& var, unsigned delta, call_site) {
    if (whole(lanes)) return whole_warp::shfl_up(var, delta);
    const unsigned r = lanes_rank(lanes);
    return from_lane(lanes, var, delta <= r ? lane_of_rank(lanes, r - delta) : lane_id());
  }
  template <class Value>
  __device__ __forceinline__ static Value shfl_down(lane_set lanes, const Value& var, unsigned delta, call_site) {
    if (whole(lanes)) return whole_warp::shfl_down(var, delta);
    const unsigned r = lanes_rank(lanes), n = lanes_count(lanes);
    return from_lane(lanes, var, delta < n - r ? lane_of_rank(lanes, r + delta) : lane_id());
  }
  template <class Value>
  __device__ __forceinline__ static Value shfl_xor(lane_set lanes, const Value& var, unsigned lane_mask, call_site) {
    if (whole(lanes)) return whole_warp::shfl_xor(var, lane_mask);
    const unsigned r = lanes_rank(lanes) ^ lane_mask;
    return from_lane(lanes, var, r < lanes_count(lanes) ? lane_of_rank(lanes, r) : lane_id());
  }

  __device__ __forceinline__ static int any(lane_set lanes, int predicate, call_site) {
    return __any_sync(lanes, predicate);
  }
  __device__ __forceinline__ static int all(lane_set lanes, int predicate, call_site) {
    return __all_sync(lanes, predicate);
  }
  __device__ __forceinline__ static mask_type ballot(lane_set lanes, int predicate, call_site) {
#if __CUDA_ARCH__ >= 800
    // Each member contributes its rank's bit: one redux.sync, no packing.
    return __reduce_or_sync(lanes, predicate ? 1u << lanes_rank(lanes) : 0u);
#else
    return pack_lanes(__ballot_sync(lanes, predicate), lanes);
#endif
  }
  template <class Value>
  __device__ __forceinline__ static mask_type match_any(lane_set lanes, const Value& val, call_site) {
    return pack_lanes(match_any_lanes(lanes, val), lanes);
  }
  template <class Value>
  __device__ __forceinline__ static mask_type match_all(lane_set lanes, const Value& val, int& pred, call_site) {
    pred = match_all_lanes(lanes, val);
    return pred ? low_bits(lanes_count(lanes)) : 0u;
  }

 private:
  __device__ __forceinline__ static bool whole(lane_set lanes) { return lanes == all_lanes; }
  template <class Value>
  __device__ __forceinline__ static Value from_lane(lane_set lanes, const Value& var, unsigned lane) {
    const unsigned m = lanes;
    return move_words(var, [&](unsigned w, unsigned) { return __shfl_sync(m, w, static_cast<int>(lane)); });
  }
};

// A partition's parent: the lanes of a coalesced group or of a tile.
using partition_parent = unsigned;
struct partition_result_lanes {
  lane_set lanes;
  unsigned meta_rank;
  unsigned meta_size;
};

__device__ __forceinline__ partition_parent coalesced_parent(lane_set lanes) { return lanes; }
// A tile as the parent of a partition: its lanes that exist.
template <unsigned Size>
__device__ __forceinline__ partition_parent tile_parent(const char*, call_site) {
  static_assert(Size <= warp_lanes, "a partition into coalesced groups needs a tile of at most 32 threads (one warp)");
  return tile_lanes(Size) & existing_lanes();
}

template <class Label>
__device__ __forceinline__ unsigned lanes_with_label(unsigned parent, Label label) {
  if constexpr (sizeof(Label) == 8)
    return __match_any_sync(parent, static_cast<unsigned long long>(label));
  else
    return __match_any_sync(parent, static_cast<unsigned>(label));
}

// Groups of equal labels, ranked by their lowest lane.
template <class Label>
__device__ __forceinline__ partition_result_lanes labeled_split(unsigned parent, Label label, call_site) {
  const unsigned group = lanes_with_label(parent, label);
  const unsigned leader = __ffs(static_cast<int>(group)) - 1;
  const unsigned leaders = __ballot_sync(parent, lane_id() == leader);
  return {group, static_cast<unsigned>(__popc(leaders & low_bits(leader))), static_cast<unsigned>(__popc(leaders))};
}

// NVIDIA's rule: meta rank = the predicate and meta size 2 when the parent
// splits, the whole parent (0 of 1) when every predicate agrees.
__device__ __forceinline__ partition_result_lanes binary_split(unsigned parent, bool pred, call_site) {
  const unsigned set = __ballot_sync(parent, pred);
  if (set == 0 || set == parent) return {parent, 0, 1};
  return {pred ? set : parent & ~set, pred ? 1u : 0u, 2};
}

// The run of `size` ranks of `lanes` that begins with rank `first`.
__device__ __forceinline__ lane_set lanes_run(lane_set lanes, unsigned first, unsigned size) {
  const unsigned next = first + size;
  const unsigned from = lane_of_rank(lanes, first);
  const unsigned to = next < lanes_count(lanes) ? lane_of_rank(lanes, next) : warp_lanes;
  return lanes & ~low_bits(from) & low_bits(to);
}

// What the collectives name a coalesced group's lanes by.
struct coalesced_access {
  template <class Group, class Access = group_access>
  __device__ __forceinline__ static unsigned lanes(const Group& g) {
    return Access::lanes(g);
  }
};

}  // namespace cohort::detail::gpu
