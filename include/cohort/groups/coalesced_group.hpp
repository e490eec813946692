// coalesced_group and coalesced_threads(), written once over the backend's
// coalesced primitives (detail/<backend>/coalesced_primitives.hpp): a set of
// lanes of one warp, ranked in lane order. Ballot and match masks are in rank
// space; shfl_xor, which NVIDIA lacks, follows the tiles' rule
// (docs/warp-level.md). The partitions are in groups/partitions.hpp.
#pragma once

#include "cohort/backend.hpp"
#include "cohort/groups/thread_group.hpp"
#include "cohort/memory/atomic_ref.hpp"

#include COHORT_BACKEND_HEADER(coalesced_primitives.hpp)

namespace cohort {

class coalesced_group : public thread_group {
  using ops = detail::impl::coalesced_ops;

 public:
  using mask_type = typename ops::mask_type;
  static constexpr cohort::thread_scope thread_scope = thread_scope_block;

  COHORT_DEVICE unsigned num_threads() const { return detail::impl::lanes_count(lanes()); }
  COHORT_DEVICE unsigned size() const { return num_threads(); }
  COHORT_DEVICE unsigned thread_rank() const { return detail::impl::lanes_rank(lanes()); }
  // 0 of 1 for coalesced_threads(); set by the partitions.
  COHORT_DEVICE unsigned meta_group_rank() const { return meta_rank_; }
  COHORT_DEVICE unsigned meta_group_size() const { return meta_size_; }

  COHORT_DEVICE void sync(call_site where = call_site::current()) const { detail::impl::lanes_sync(lanes(), where); }

  // The value of rank src_rank % num_threads().
  template <class Value>
  COHORT_DEVICE Value shfl(Value var, unsigned src_rank, call_site where = call_site::current()) const {
    return ops::shfl(lanes(), var, src_rank, where);
  }
  // The value of rank thread_rank() - delta; its own where that is below 0.
  template <class Value>
  COHORT_DEVICE Value shfl_up(Value var, unsigned delta, call_site where = call_site::current()) const {
    return ops::shfl_up(lanes(), var, delta, where);
  }
  // The value of rank thread_rank() + delta; its own where that is past the end.
  template <class Value>
  COHORT_DEVICE Value shfl_down(Value var, unsigned delta, call_site where = call_site::current()) const {
    return ops::shfl_down(lanes(), var, delta, where);
  }
  // The value of rank thread_rank() ^ lane_mask; its own where that is past the end (beyond NVIDIA).
  template <class Value>
  COHORT_DEVICE Value shfl_xor(Value var, unsigned lane_mask, call_site where = call_site::current()) const {
    return ops::shfl_xor(lanes(), var, lane_mask, where);
  }

  COHORT_DEVICE int any(int predicate, call_site where = call_site::current()) const {
    return ops::any(lanes(), predicate, where);
  }
  COHORT_DEVICE int all(int predicate, call_site where = call_site::current()) const {
    return ops::all(lanes(), predicate, where);
  }
  COHORT_DEVICE mask_type ballot(int predicate, call_site where = call_site::current()) const {
    return ops::ballot(lanes(), predicate, where);
  }
  // The ranks whose value is bitwise equal to the caller's.
  template <class Value>
  COHORT_DEVICE mask_type match_any(Value val, call_site where = call_site::current()) const {
    return ops::match_any(lanes(), val, where);
  }
  // Every rank, with pred = 1, if all values are bitwise equal; else 0, with pred = 0.
  template <class Value>
  COHORT_DEVICE mask_type match_all(Value val, int& pred, call_site where = call_site::current()) const {
    return ops::match_all(lanes(), val, pred, where);
  }

 private:
  friend struct detail::group_access;

  COHORT_DEVICE coalesced_group(detail::impl::lane_set lanes, unsigned meta_rank, unsigned meta_size)
      : thread_group(detail::group_kind::coalesced, {.lanes = lanes}),
        lanes_(lanes),
        meta_rank_(meta_rank),
        meta_size_(meta_size) {}

  COHORT_DEVICE detail::impl::lane_set lanes() const { return lanes_; }

  // The lanes again, apart from the base's union (which thread_group's
  // dispatch reads): the group's own operations then never copy the union,
  // which is as wide as a grid's barrier state, and compile as they did
  // before the base class existed.
  detail::impl::lane_set lanes_;
  unsigned meta_rank_;
  unsigned meta_size_;
};

COHORT_DEVICE inline detail::impl::lane_set detail::group_access::lanes(const coalesced_group& g) { return g.lanes(); }
COHORT_DEVICE inline coalesced_group detail::group_access::make_coalesced(impl::lane_set lanes, unsigned meta_rank,
                                                                          unsigned meta_size) {
  return coalesced_group(lanes, meta_rank, meta_size);
}

// The lanes of the caller's warp that reach this call together (on the host:
// that reach the same call site, docs/warp-level.md).
COHORT_DEVICE inline coalesced_group coalesced_threads(call_site where = call_site::current()) {
  return detail::group_access::make_coalesced(detail::impl::active_lanes(where), 0, 1);
}

}  // namespace cohort
