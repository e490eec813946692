// The host backend's primitives under coalesced_group and the partitions
// (include/cohort/groups/): a coalesced group is a set of lanes of one warp,
// ranked in lane order, as a 64-bit mask so that a group of a 64-lane warp
// fits; its lane operations are collectives (collective.hpp) of those lanes.
// coalesced_threads() forms one from the lanes that reach the same call site
// while the rest of the warp is parked elsewhere or gone (docs/warp-level.md).
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "cohort/backend.hpp"
#include "cohort/detail/host/collectives/collective.hpp"
#include "cohort/detail/host/collectives/group_ops.hpp"
#include "cohort/detail/host/tile_primitives.hpp"

namespace cohort::detail {
struct group_access;
}

namespace cohort::detail::host {

using lane_set = std::uint64_t;

inline unsigned lanes_count(lane_set lanes) { return lane_count(lanes); }
inline unsigned lanes_rank(lane_set lanes) { return lane_count(lanes & low_lanes(lane_id())); }
inline member_set lanes_members(lane_set lanes) { return {warp_base(), lanes_count(lanes), lanes}; }
inline void lanes_sync(lane_set lanes, call_site where) { synchronize(lanes_members(lanes), where); }

// The lanes of the caller's warp that reach this call together.
inline lane_set active_lanes(call_site where) { return converge(where); }

struct coalesced_ops {
  using mask_type = unsigned long long;

  template <class Value>
  static Value shfl(lane_set lanes, const Value& var, unsigned src_rank, call_site where) {
    return exchange<Value>(lanes, group_ops::shfl_op<sizeof(Value)>, var, src_rank, where);
  }
  template <class Value>
  static Value shfl_up(lane_set lanes, const Value& var, unsigned delta, call_site where) {
    return exchange<Value>(lanes, group_ops::shfl_up_op<sizeof(Value)>, var, delta, where);
  }
  template <class Value>
  static Value shfl_down(lane_set lanes, const Value& var, unsigned delta, call_site where) {
    return exchange<Value>(lanes, group_ops::shfl_down_op<sizeof(Value)>, var, delta, where);
  }
  template <class Value>
  static Value shfl_xor(lane_set lanes, const Value& var, unsigned lane_mask, call_site where) {
    return exchange<Value>(lanes, group_ops::shfl_xor_op<sizeof(Value)>, var, lane_mask, where);
  }
  static int any(lane_set lanes, int predicate, call_site where) {
    return collective<int>(call(lanes, group_ops::any_op, where), predicate != 0);
  }
  static int all(lane_set lanes, int predicate, call_site where) {
    return collective<int>(call(lanes, group_ops::all_op, where), predicate != 0);
  }
  static mask_type ballot(lane_set lanes, int predicate, call_site where) {
    return collective<mask_type>(call(lanes, group_ops::ballot_op<mask_type>, where), predicate != 0);
  }
  template <class Value>
  static mask_type match_any(lane_set lanes, const Value& val, call_site where) {
    return exchange<mask_type>(lanes, group_ops::match_any_op<sizeof(Value), mask_type>, val, 0, where);
  }
  template <class Value>
  static mask_type match_all(lane_set lanes, const Value& val, int& pred, call_site where) {
    pred = exchange<int>(lanes, group_ops::match_all_op<sizeof(Value)>, val, 0, where);
    return pred ? low_lanes(lanes_count(lanes)) : 0;
  }

 private:
  static collective_call call(lane_set lanes, const collective_op& op, call_site where) {
    return {lanes_members(lanes), &op, where, false, false};
  }
  template <class Result, class Value>
  static Result exchange(lane_set lanes, const collective_op& op, const Value& var, unsigned arg, call_site where) {
    return collective<Result>(call(lanes, op, where), var, arg);
  }
};

// A partition's parent: the members of a coalesced group or of a tile.
using partition_parent = member_set;
struct partition_result_lanes {
  lane_set lanes;
  unsigned meta_rank;
  unsigned meta_size;
};

inline partition_parent coalesced_parent(lane_set lanes) { return lanes_members(lanes); }
// A tile's coalesced groups lie within one warp, as every coalesced group does.
template <unsigned Size>
partition_parent tile_parent(const char* what, call_site where) {
  static_assert(Size <= 64, "a partition of a tile into coalesced groups needs a tile of at most 64 threads");
  if (Size > warp_size())
    usage_error(errc::invalid_argument,
                std::string(what) + " of a tile of " + std::to_string(Size) +
                    " threads: its coalesced groups must lie within one warp, and a warp has " +
                    std::to_string(warp_size()) + " threads",
                where);
  return tile_members(Size);
}

// Members with equal labels form a group; groups are ranked by their lowest member.
template <class Label>
partition_result_lanes labeled_split(const partition_parent& parent, Label label, call_site where) {
  const auto part = collective<group_ops::partition_result>(
      {parent, &group_ops::labeled_partition_op, where, false, false}, static_cast<std::uint64_t>(label));
  return {part.lanes, part.meta_rank, part.meta_size};
}
// NVIDIA's rule: meta rank = the predicate of 2 when the parent splits, 0 of 1 when it doesn't.
inline partition_result_lanes binary_split(const partition_parent& parent, bool pred, call_site where) {
  const auto part =
      collective<group_ops::partition_result>({parent, &group_ops::binary_partition_op, where, false, false}, pred);
  return {part.lanes, part.meta_rank, part.meta_size};
}

// The run of `size` ranks of `lanes` that begins with rank `first`.
inline lane_set lanes_run(lane_set lanes, unsigned first, unsigned size) {
  for (unsigned skip = 0; skip < first; ++skip) lanes &= lanes - 1;  // drop the lowest lanes
  lane_set run = 0;
  for (unsigned k = 0; k < size && lanes != 0; ++k, lanes &= lanes - 1) run |= lanes & (~lanes + 1);
  return run;
}

// What group_traits (the collectives) name a coalesced group's members by.
struct coalesced_access {
  template <class Group, class Access = group_access>
  static member_set members(const Group& g) {
    return lanes_members(Access::lanes(g));
  }
};

}  // namespace cohort::detail::host
